"""A toy game for testing the runner and the analysis without any real game's rules.

Each side shuffles its deck and reveals five cards; the higher total strength
plus a die roll (plus one for going first) wins, equal totals draw. Strength
is what a card is worth, so a stronger card must show more power. A revealed
card is drawn and played on turn 1, unless it costs more than the side's
treasury (`TREASURY`): then it is drawn but never played and adds nothing, the
truth a power curve's play shares are tested against.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import Field
from typed_cards import cards_as

from workbench.cards import CardSet, OptionValue
from workbench.engines import (
    EVENT_WIDTH,
    MAX_TRACE_EVENTS,
    CompiledCards,
    IntArray,
    begin_match_counters,
    count_draw,
    count_play,
    end_match_counters,
    kernel,
    log_event,
    new_counters,
    published_counters,
    rng_below,
    rng_seed,
    shuffle_in_place,
)
from workbench.play.assembly import BatchRun, Engine, batch_and_trace
from workbench.rulesets.base import CardBase, RuleOption, Ruleset

HAND = 5
TREASURY = 10
"""What a side can pay: a card costing more is drawn but never played."""


class ToyCard(CardBase):
    """A toy card."""

    kind: Literal["unit"]
    """Always `unit`."""
    cost: int = Field(ge=0)
    """What it costs."""
    strength: int = Field(ge=0)
    """What it adds to its side's total."""


def _compile(cardset: CardSet, options: Mapping[str, OptionValue]) -> CompiledCards:
    cards = cards_as(cardset, ToyCard)
    table = np.array([[card.strength, card.cost] for card in cards], dtype=np.int64)
    return CompiledCards(
        names=tuple(card.name for card in cards),
        table=table,
        cost=np.array([card.cost for card in cards], dtype=np.float64),
        slot=np.zeros(len(cards), dtype=np.int64),
        options=np.array([int(bool(options["first_player_bonus"]))], dtype=np.int64),
    )


@kernel
def _play(
    table: IntArray,
    options: IntArray,
    deck_a: IntArray,
    deck_b: IntArray,
    seeds: IntArray,
    first: Any,
    winners: Any,
    turns: Any,
    counters: IntArray,
    events: IntArray,
) -> None:
    state = np.zeros(4, dtype=np.int64)
    event_count = np.zeros(1, dtype=np.int64)
    for m in range(seeds.shape[0]):
        # Each match starts from the decks as listed, so a match depends on its seed alone (not on the matches
        # before it in the batch): a batch played in pieces gives the same matches (workbench.simulate.run_jobs).
        a = deck_a.copy()
        b = deck_b.copy()
        begin_match_counters(counters, m)
        rng_seed(state, seeds[m])
        shuffle_in_place(a, a.shape[0], state)
        shuffle_in_place(b, b.shape[0], state)
        total_a = rng_below(state, 6)
        total_b = rng_below(state, 6)
        for i in range(min(HAND, a.shape[0])):
            count_draw(counters, 0, a[i])
            if table[a[i], 1] > TREASURY:
                continue
            total_a += table[a[i], 0]
            count_play(counters, 0, a[i], 1)
            log_event(events, event_count, 1, 0, 0, a[i], -1, table[a[i], 0])
        for i in range(min(HAND, b.shape[0])):
            count_draw(counters, 1, b[i])
            if table[b[i], 1] > TREASURY:
                continue
            total_b += table[b[i], 0]
            count_play(counters, 1, b[i], 1)
            log_event(events, event_count, 1, 1, 0, b[i], -1, table[b[i], 0])
        if options[0] == 1:
            if first[m] == 0:
                total_a += 1
            else:
                total_b += 1
        # A match of one turn is scored on every card played in it, however late: a round of 0 turns counts every
        # play as in time (as Millennium Blades' clash does).
        end_match_counters(counters, 1, 0)
        turns[m] = 1
        winners[m] = 0 if total_a > total_b else (1 if total_b > total_a else -1)


def _run_batch(
    compiled: CompiledCards,
    deck_a: IntArray,
    deck_b: IntArray,
    seeds: IntArray,
    first: Any,
    policy_a: int,
    policy_b: int,
    traced: bool,
) -> BatchRun:
    n = seeds.shape[0]
    winners = np.zeros(n, dtype=np.int8)
    turns = np.zeros(n, dtype=np.int32)
    counters = new_counters(len(compiled.names))
    events = np.zeros((MAX_TRACE_EVENTS if traced else 0, EVENT_WIDTH), dtype=np.int64)
    _play(compiled.table, compiled.options, deck_a, deck_b, seeds, first, winners, turns, counters, events)
    used = events[events[:, 0] > 0]  # toy turns start at 1, so an unused row is all zeros
    return BatchRun(winners, turns, published_counters(counters), used)


_play_batch, _play_traced = batch_and_trace(_run_batch)


def _describe(compiled: CompiledCards, row: Sequence[int]) -> str:
    return f"{'AB'[row[1]]} reveals {compiled.names[row[3]]} (strength {row[5]})"


ENGINE = Engine(
    version="1",
    policies=("greedy", "random"),
    cost_axis="cost",
    compile_cards=_compile,
    play_batch=_play_batch,
    play_traced=_play_traced,
    describe_event=_describe,
)

TOY = Ruleset(
    id="toy",
    title="Toy game",
    version="1",
    document="none",
    card_models=(ToyCard,),
    check_cards=lambda cardset, options: [],
    check_deck=lambda cardset, deck, options: [],
    options=(RuleOption(key="first_player_bonus", default=True, reading="The first player adds 1.", quote="(toy)"),),
    cost_fields=("cost",),
    engine_module="toy_engine",
)


def toy_ruleset(**changes: Any) -> Ruleset:
    """The toy ruleset, optionally with fields replaced."""
    return replace(TOY, **changes)


# A toy set whose power-curve verdicts are known in advance (tests/test_analysis.py, tests/test_auto_gauntlet.py).
# Mid shares the filler's cost and is twice as strong: with the filler counted, cost 2's tier mean and the line
# would be pulled towards the filler's 0.
POWER_ROWS = [
    {"name": "Filler", "kind": "unit", "cost": 2, "strength": 2},
    {"name": "Cheap", "kind": "unit", "cost": 1, "strength": 1},
    {"name": "Mid", "kind": "unit", "cost": 2, "strength": 4},
    {"name": "Big", "kind": "unit", "cost": 3, "strength": 6},
    {"name": "Bargain", "kind": "unit", "cost": 1, "strength": 6},
]
POWER_REFERENCE = "6 Filler\n2 Cheap\n2 Mid\n2 Big"
POWER_OTHER = "4 Filler\n4 Cheap\n4 Big"
POWER_TITAN = {"name": "Titan", "kind": "unit", "cost": 11, "strength": 9}
"""Costs more than the toy's treasury (10): drawn, never played."""

HONEST_ROWS = [
    {"name": "Filler", "kind": "unit", "cost": 2, "strength": 4},
    {"name": "Spark", "kind": "unit", "cost": 1, "strength": 2},
    {"name": "Ember", "kind": "unit", "cost": 1, "strength": 2},
    {"name": "Guard", "kind": "unit", "cost": 2, "strength": 4},
    {"name": "Knight", "kind": "unit", "cost": 3, "strength": 6},
    {"name": "Lancer", "kind": "unit", "cost": 3, "strength": 6},
    {"name": "Giant", "kind": "unit", "cost": 4, "strength": 8},
    {"name": "Titan", "kind": "unit", "cost": 4, "strength": 8},
]
"""A toy set priced honestly (each card costs half its strength): the base the patch-proposal tests and the reports'
proposal section plant mispriced cards into."""

TOY_CARDS = "name,kind,cost,strength\nFiller,unit,2,2\nCheap,unit,1,1\nMid,unit,2,4\nBig,unit,3,6\nBargain,unit,1,6\n"
"""A small toy card sheet for command-line tests (Bargain is the planted over-cheap card)."""


def write_toy_set_with_decks(folder: Path, cards: str = TOY_CARDS) -> Path:
    """The toy sheet `toy.csv` in `folder` with a decks/ folder beside it (two decks: the reference first,
    alphabetically); returns the sheet's path."""
    sheet = folder / "toy.csv"
    sheet.write_text(cards, encoding="utf-8")
    (folder / "decks").mkdir()
    (folder / "decks" / "a_reference.txt").write_text("6 Filler\n2 Cheap\n2 Mid\n2 Big\n", encoding="utf-8")
    (folder / "decks" / "b_other.txt").write_text("4 Filler\n4 Cheap\n4 Big\n", encoding="utf-8")
    return sheet
