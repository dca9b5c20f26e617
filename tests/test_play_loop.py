"""The play layer's loops on a game of their own (workbench/play/loop.py): `play_out`, `play_until`, `new_batch`,
`batch_match`, `record_result` and `batch_loop`, apart from any engine.

Every engine plays its batches, traces and rollouts through these loops, and its fingerprints pin what they play; here
each loop is checked alone on a countdown game small enough to work out by hand: a pile of `seed % 7 + 3` stones,
the side whose decision is open takes one or two (its policy: 1 always takes one, 2 takes two while two are left), and
whoever takes the last stone wins. Compiled (as the engines' kernels are) and in plain Python (`NUMBA_DISABLE_JIT=1`,
as the engines' uncompiled tests run), the same results.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from workbench.engines import EngineInt, inline_kernel, rules_kernel
from workbench.play.loop import (
    BATCH_DECK_A,
    BATCH_DECK_B,
    BATCH_FIRST,
    BATCH_POLICY_A,
    BATCH_POLICY_B,
    BATCH_SEEDS,
    BATCH_TURNS,
    BATCH_WINNERS,
    NO_CONTEXT,
    batch_loop,
    batch_match,
    new_batch,
    play_out,
    play_until,
    record_result,
)

PILE, ACTIVE, TAKES, WINNER, POLICY_0, POLICY_1, STAGE = 0, 1, 2, 3, 4, 5, 6
"""The toy game's state words: stones left, the side to decide, rows taken so far, the winner (-1 while it plays),
the two sides' policies, and the stage `play_until` plays to (here: the number of rows taken)."""

BATCH_LEFT = BATCH_TURNS + 1
"""The toy batch's own place after the BATCH_* ones (as Millennium Blades' store or souls' search words): the stones
left at each match's end, always 0."""


@inline_kernel
def toy_decide(_game: Any, state: Any, _context: Any) -> EngineInt:
    """The open side's row: how many stones it takes."""
    if state[POLICY_0 + state[ACTIVE]] == 2 and state[PILE] >= 2:
        return 2
    return 1


@inline_kernel
def toy_take(_game: Any, state: Any, row: EngineInt) -> None:
    """Take `row` stones; the last one wins, else the other side decides."""
    state[PILE] -= row
    state[TAKES] += 1
    if state[PILE] == 0:
        state[WINNER] = state[ACTIVE]
    else:
        state[ACTIVE] = 1 - state[ACTIVE]


@inline_kernel
def toy_is_over(state: Any) -> bool:
    return state[WINNER] >= 0


@inline_kernel
def toy_advance(_game: Any, state: Any, until: EngineInt) -> None:
    """The rules played on: nothing to play between decisions, but a stop at `until` rows taken (a stage)."""
    state[STAGE] = 1 if state[TAKES] >= until else 0


@inline_kernel
def toy_stopped(state: Any) -> bool:
    return state[WINNER] >= 0 or state[STAGE] == 1


@inline_kernel
def toy_start(_game: Any, state: Any, batch: Any, m: EngineInt) -> None:
    deck_a, _deck_b, seed, first, policy_a, policy_b = batch_match(batch, m)
    state[PILE] = seed % 7 + 3 + deck_a[0]
    state[ACTIVE] = first
    state[TAKES] = 0
    state[WINNER] = -1
    state[POLICY_0] = policy_a
    state[POLICY_1] = policy_b


@inline_kernel
def toy_play(game: Any, state: Any, context: Any) -> None:
    play_out(game, state, context, toy_decide, toy_take, toy_is_over)


@inline_kernel
def toy_finish(_game: Any, state: Any, batch: Any, m: EngineInt) -> None:
    record_result(batch, m, state[WINNER], state[TAKES])
    batch[BATCH_LEFT][m] = state[PILE]


@rules_kernel
def toy_batch(game: Any, state: Any, batch: Any) -> None:
    batch_loop(game, state, batch, NO_CONTEXT, toy_start, toy_play, toy_finish)


@rules_kernel
def toy_part(game: Any, state: Any, until: EngineInt) -> None:
    play_until(game, state, NO_CONTEXT, toy_decide, toy_take, toy_advance, toy_stopped, until)


def by_hand(pile: int, first: int, policies: tuple[int, int]) -> tuple[int, int]:
    """The winner and the rows taken, worked out in Python without the loops."""
    side, takes = first, 0
    while True:
        pile -= 2 if policies[side] == 2 and pile >= 2 else 1
        takes += 1
        if pile == 0:
            return side, takes
        side = 1 - side


def play_toy_batch() -> dict[str, Any]:
    seeds = np.array([0, 1, 5, 11, 12, 40], dtype=np.int64)
    first = np.array([0, 1, 0, 1, 0, 1])
    extra = np.full(seeds.shape[0], -1, dtype=np.int64)
    deck_a, deck_b = np.array([1], dtype=np.int64), np.array([0], dtype=np.int64)
    batch = new_batch(deck_a, deck_b, seeds, first, 2, 1, extra)
    state = np.zeros(8, dtype=np.int64)
    toy_batch(0, state, batch)
    part = np.zeros(8, dtype=np.int64)
    part[PILE], part[WINNER], part[POLICY_0], part[POLICY_1] = 9, -1, 1, 1
    toy_part(0, part, np.int64(4))
    taken_to_four = int(part[PILE])
    toy_part(0, part, np.int64(100))
    return {
        "winners": batch[BATCH_WINNERS].tolist(),
        "turns": batch[BATCH_TURNS].tolist(),
        "left": batch[BATCH_LEFT].tolist(),
        "types": [str(batch[BATCH_SEEDS].dtype), str(batch[BATCH_FIRST].dtype), str(batch[BATCH_WINNERS].dtype)],
        "types_of_turns": str(batch[BATCH_TURNS].dtype),
        "part": [taken_to_four, int(part[PILE]), int(part[WINNER]), int(part[TAKES])],
    }


def test_the_batch_loop_plays_one_match_per_seed_and_writes_each_result_in_its_place() -> None:
    played = play_toy_batch()
    seeds, first = [0, 1, 5, 11, 12, 40], [0, 1, 0, 1, 0, 1]
    expected = [by_hand(seed % 7 + 3 + 1, side, (2, 1)) for seed, side in zip(seeds, first, strict=True)]
    assert played["winners"] == [winner for winner, _ in expected]
    assert played["turns"] == [takes for _, takes in expected]
    assert played["left"] == [0] * len(seeds)
    assert played["types"] == ["int64", "int8", "int8"] and played["types_of_turns"] == "int32"


def test_play_until_stops_at_its_stage_and_goes_on_from_there() -> None:
    # Nine stones, one a row: four rows to the stage, then the rest; the ninth row is the first side's (0).
    assert play_toy_batch()["part"] == [5, 0, 0, 9]


def test_new_batch_puts_the_places_in_their_named_order_and_the_engine_s_own_after() -> None:
    deck_a, deck_b, seeds = np.zeros(2), np.ones(2), np.arange(3)
    batch = new_batch(deck_a, deck_b, seeds, [1, 0, 1], 5, 6, "store", "meta")
    assert batch[BATCH_DECK_A] is deck_a and batch[BATCH_DECK_B] is deck_b
    assert batch[BATCH_POLICY_A] == 5 and batch[BATCH_POLICY_B] == 6
    assert batch[BATCH_FIRST].tolist() == [1, 0, 1] and batch[BATCH_FIRST].flags.c_contiguous
    assert batch[BATCH_WINNERS].tolist() == [0, 0, 0] and batch[BATCH_TURNS].tolist() == [0, 0, 0]
    assert batch[BATCH_LEFT:] == ("store", "meta")


def test_new_batch_refuses_first_sides_that_do_not_match_the_seeds() -> None:
    deck = np.zeros(1)
    with pytest.raises(ValueError, match="one first side per seed: \\(2,\\) first sides for \\(3,\\) seeds"):
        new_batch(deck, deck, np.arange(3), [0, 1], 0, 0)
    with pytest.raises(ValueError, match="0 \\(deck A\\) or 1 \\(deck B\\)"):
        new_batch(deck, deck, np.arange(2), [0, 2], 0, 0)


def test_the_loops_play_alike_compiled_and_in_plain_python() -> None:
    script = "import json, test_play_loop as t; print(json.dumps(t.play_toy_batch()))"
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=os.pathsep.join([os.path.dirname(__file__), *sys.path]))
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == play_toy_batch()
