"""Greedy's two hand picks in circles, written without a branch per card for speed (2026-11-29), against the plain
scans they replaced, on random hands of the bundled set: the same hand position for every hand.

`greedy_resource_card` reads a hand of up to `HAND_BITS` cards in one pass with a bit set per colour;
`greedy_resource_scan` is the pass per resource it replaced (still the answer for longer hands).
`greedy_character_card` asks every card whether it may come in without a branch; `character_scan` below is the loop
it replaced, in plain Python.
"""

from __future__ import annotations

import numpy as np
import pytest

from workbench.bench import bundled_cardset_and_decks
from workbench.engines import IntArray
from workbench.rulesets.circles import RULESET
from workbench.rulesets.circles.engine import greedy, python_side
from workbench.rulesets.circles.engine.layout import (
    HAND,
    KIND_CHARACTER,
    S_HAND_N,
    S_READY,
    S_TOTAL,
    STOP,
    T_ATTACK,
    T_CIRCLES,
    T_HEALTH,
    T_KIND,
    T_RED,
)
from workbench.rulesets.circles.engine.python_side import StateViews
from workbench.simulate import compile_for

HANDS = 3_000
"""Random hands each pick is asked about."""
LONGEST_HAND = 64
"""A state's hand room in these checks: past `HAND_BITS`, so the long-hand path is asked too."""


Buffers = tuple[IntArray, IntArray, StateViews, IntArray]
"""The rules buffer, a state buffer, its views by name, and the card table."""


@pytest.fixture(scope="module")
def buffers() -> Buffers:
    """The bundled set's rules buffer, a state with room for a long hand and its views, and the card table."""
    cardset, _ = bundled_cardset_and_decks(RULESET)
    _, compiled, _ = compile_for(cardset, None)
    rules = python_side.rules_buffer(compiled)
    state, views = python_side.state_buffer(LONGEST_HAND, len(compiled.names), 0)
    return rules, state, views, compiled.table


def _deal(views: StateViews, rng: np.random.Generator, cards: int, hand: int, column: int) -> None:
    """Side 0 holds `hand` random cards of the set and 0 to 5 resources of each colour at `column` (ready or total)."""
    views.side[0, S_HAND_N] = hand
    views.zones[0, HAND, :hand] = rng.integers(0, cards, hand)
    for colour in range(3):
        views.side[0, column + colour] = int(rng.integers(0, 6))


def character_scan(table: IntArray, views: StateViews, s: int, free: int) -> int:
    """The character pick as it was written before: the first best-scoring character in hand it may bring in (free,
    or paid from its ready resources of each colour)."""
    zones, side = views.zones, views.side
    best, best_score = int(STOP), -1
    for h in range(side[s, S_HAND_N]):
        card = zones[s, HAND, h]
        if table[card, T_KIND] != KIND_CHARACTER:
            continue
        score = table[card, T_CIRCLES] * 1000 + table[card, T_ATTACK] + table[card, T_HEALTH]
        affordable = all(side[s, S_READY + c] >= table[card, T_RED + c] for c in range(3))
        if score > best_score and (free == 1 or affordable):
            best, best_score = h, int(score)
    return best


def test_the_one_pass_resource_pick_is_the_scan_it_replaced(buffers: Buffers) -> None:
    rules, state, views, table = buffers
    rng = np.random.default_rng(11)
    picked = set()
    for _ in range(HANDS):
        hand = int(rng.integers(0, LONGEST_HAND + 1))
        _deal(views, rng, table.shape[0], hand, S_TOTAL)
        fast = greedy.greedy_resource_card(rules, state, 0)
        assert fast == greedy.greedy_resource_scan(rules, state, 0), hand
        picked.add(int(fast) if fast != STOP else -1)
    assert -1 in picked and len(picked) > 20  # empty-handed hands and many positions were asked


def test_the_branch_free_character_pick_is_the_loop_it_replaced(buffers: Buffers) -> None:
    rules, state, views, table = buffers
    rng = np.random.default_rng(12)
    answers = set()
    for _ in range(HANDS):
        hand = int(rng.integers(0, 40))
        _deal(views, rng, table.shape[0], hand, S_READY)
        free = int(rng.integers(0, 2))
        answer = greedy.greedy_character_card(rules, state, 0, free)
        assert answer == character_scan(table, views, 0, free), (hand, free)
        answers.add(int(answer))
    assert STOP in answers and len(answers) > 20
