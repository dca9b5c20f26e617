"""The per-match counters every engine keeps: in how many matches a card was drawn and played, the turn of its
first play, the match's last turn and whether a round was left after the first play (`matches_drawn`,
`matches_played`, `first_played_turn`, `played_match_turns`, `matches_played_with_a_round_left`; see
`workbench.engines.COUNTERS`).

Three kinds of check, over every engine: bounds that must hold in any batch of the bundled decks; the same batch
played one match at a time, where each count is read straight off that match (and the first play's turn off its
trace), adding up to the batch's figures; and a deck of one card kind whose first play falls on a player's first
turn, so the figures are known before the run.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType

import numpy as np
import pytest

from workbench.cards import CardSet, Deck
from workbench.decklists import read_decklist
from workbench.engines import (
    COUNTERS,
    DRAWN,
    FIRST_PLAYED_TURN,
    MATCHES_DRAWN,
    MATCHES_PLAYED,
    MATCHES_PLAYED_WITH_A_ROUND_LEFT,
    PLAYED,
    PLAYED_MATCH_TURNS,
    CompiledCards,
)
from workbench.loading import load_cardset
from workbench.paths import bundled_decks, bundled_sets
from workbench.rulesets import RULESETS
from workbench.run_settings import RunSettings
from workbench.simulate import batch_seeds, compile_for, simulate

ENGINE_IDS = [ruleset_id for ruleset_id, ruleset in RULESETS.items() if ruleset.engine_module]
NEW_COLUMNS = [
    "matches_drawn",
    "matches_played",
    "first_played_turn",
    "played_match_turns",
    "matches_played_with_a_round_left",
]


def _bundled(ruleset_id: str) -> tuple[CardSet, list[Deck]]:
    cardset = load_cardset(bundled_sets(ruleset_id)[0], ruleset_id)
    return cardset, [read_decklist(path, cardset) for path in bundled_decks(ruleset_id)]


def _engine_module(ruleset_id: str) -> ModuleType:
    module = RULESETS[ruleset_id].engine_module
    assert module is not None
    return importlib.import_module(module)


def test_the_new_counters_follow_the_old_ones_in_order() -> None:
    assert COUNTERS[:5] == ("drawn", "played", "attacked", "destroyed", "damage_dealt")
    assert list(COUNTERS[5:]) == NEW_COLUMNS


@pytest.mark.parametrize("ruleset_id", ENGINE_IDS)
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_per_match_counters_stay_within_their_bounds(ruleset_id: str, policy: str) -> None:
    cardset, decks = _bundled(ruleset_id)
    matches = 1_500  # two batches of the runner, so the counters are also summed across batches
    result = simulate(cardset, decks[0], decks[-1], matches=matches, run=RunSettings(seed=17, policy=policy, workers=1))
    counters = result.counters
    assert list(counters.columns) == ["deck", "card", *COUNTERS]
    assert (counters["matches_drawn"] <= np.minimum(matches, counters["drawn"])).all()
    assert (counters["matches_played"] <= np.minimum(matches, counters["played"])).all()
    # Drawn or played at all means drawn or played in at least one match, and the other way round.
    assert ((counters["matches_drawn"] > 0) == (counters["drawn"] > 0)).all()
    assert ((counters["matches_played"] > 0) == (counters["played"] > 0)).all()
    played = counters[counters["matches_played"] > 0]
    assert len(played) > 0
    mean_first = played["first_played_turn"] / played["matches_played"]
    assert (mean_first >= 1).all() and (mean_first <= result.matches["turns"].max()).all()
    assert (counters.loc[counters["matches_played"] == 0, "first_played_turn"] == 0).all()
    # A match's last turn comes no sooner than any first play in it; a round left is had in some played matches.
    assert (counters["played_match_turns"] >= counters["first_played_turn"]).all()
    assert (counters["played_match_turns"] <= counters["matches_played"] * result.matches["turns"].max()).all()
    assert (counters["matches_played_with_a_round_left"] <= counters["matches_played"]).all()
    assert counters["matches_played_with_a_round_left"].sum() > 0
    # Every match deals each side an opening hand: some card of each deck is drawn in every match at least once.
    for side in ("A", "B"):
        rows = counters[counters["deck"] == side]
        assert rows["matches_drawn"].sum() >= matches


@pytest.mark.parametrize("ruleset_id", ENGINE_IDS)
def test_a_card_in_neither_deck_counts_nothing(ruleset_id: str) -> None:
    cardset, decks = _bundled(ruleset_id)
    engine, compiled, _ = compile_for(cardset)
    deck_a, deck_b = compiled.deck_array(decks[0]), compiled.deck_array(decks[-1])
    seeds, first = batch_seeds(4, 400)[0]
    counters = engine.play_batch(compiled, deck_a, deck_b, seeds, first, 0, 0)[2]
    assert counters.shape == (2, len(compiled.names), len(COUNTERS))
    in_a, in_b = set(deck_a.tolist()), set(deck_b.tolist())
    # SOURCE's tokens come from each player's token deck, not from the decklist: they can be played undrawn.
    # Millennium Blades' metagame cards are in no deck: every player scores the revealed ones for themselves.
    tokens = (
        _source_tokens(compiled)
        if ruleset_id == "source"
        else _blades_metagame(compiled)
        if ruleset_id == "blades"
        else set()
    )
    absent = [card for card in range(len(compiled.names)) if card not in in_a | in_b | tokens]
    assert absent, "the bundled set should hold a card that neither bundled deck plays"
    for card in absent:
        assert (counters[:, card, :] == 0).all(), compiled.names[card]
    for side, deck in ((0, in_a), (1, in_b)):
        for card in set(range(len(compiled.names))) - deck - tokens:
            assert (counters[side, card, :] == 0).all(), (side, compiled.names[card])


def _source_tokens(compiled: CompiledCards) -> set[int]:
    engine = _engine_module("source")
    table = compiled.table
    return {int(card) for card in np.flatnonzero(table[:, engine.T_KIND] == engine.K_TOKEN)}


def _blades_metagame(compiled: CompiledCards) -> set[int]:
    engine = _engine_module("blades")
    table = compiled.table
    return {int(card) for card in np.flatnonzero(table[:, engine.T_KIND] == engine.KIND_NAMES.index("metagame"))}


def _play_events(ruleset_id: str, compiled: CompiledCards) -> Callable[[list[int]], bool]:
    """Whether a trace event row is a play as the engine counts it (the events logged where `played` is counted)."""
    module = _engine_module(ruleset_id)
    names = {
        "circles": ("EV_RESOURCE", "EV_PLAY", "EV_FREE_PLAY"),
        "plasma": ("EV_PLAY",),
        "souls": ("EV_SUMMON", "EV_CAST", "EV_EQUIP", "EV_FIZZLE", "EV_SET_TRAP"),
        "source": ("EV_SUMMON", "EV_EQUIP", "EV_TRAP_SET", "EV_CHANNEL_PLACE"),
        "blades": ("EV_PLAY", "EV_ACTION", "EV_REACTION"),
    }[ruleset_id]
    codes = {getattr(module, name) for name in names}
    if ruleset_id != "blades":
        return lambda row: row[2] in codes
    # Blades: a single is played when placed; a deck box's or accessory's Action or Reaction is its play.
    kinds = compiled.table[:, module.T_KIND]
    return lambda row: row[2] == module.EV_PLAY or (row[2] in codes and kinds[row[3]] != module.K_SINGLE)


def _starts_in_play(ruleset_id: str, compiled: CompiledCards, deck: np.ndarray) -> set[int]:
    """The cards of a deck that start in play, so count as played on turn 1 with no event in the trace: in Millennium
    Blades the deck's first deck box and first two accessories, which the engine sets out face-up; none elsewhere."""
    if ruleset_id != "blades":
        return set()
    module = _engine_module("blades")
    kinds = compiled.table[:, module.T_KIND]
    boxes = [int(card) for card in deck if kinds[card] == module.K_DECK_BOX]
    accessories = [int(card) for card in deck if kinds[card] == module.K_ACCESSORY]
    return set(boxes[:1] + accessories[:2])


def _deck_side(ruleset_id: str, player: int) -> int:
    """The counters' side of a trace row's player (Blades' seats B, C, ... all play deck B)."""
    return 0 if player == 0 else 1 if ruleset_id == "blades" else player


@pytest.mark.parametrize("ruleset_id", ENGINE_IDS)
def test_each_match_counts_once_and_its_first_play_turn_is_the_traces(ruleset_id: str) -> None:
    cardset, decks = _bundled(ruleset_id)
    engine, compiled, _ = compile_for(cardset)
    deck_a, deck_b = compiled.deck_array(decks[0]), compiled.deck_array(decks[-1])
    seeds, first = batch_seeds(9, 40)[0]
    is_play = _play_events(ruleset_id, compiled)
    # A side's next turn comes two turns later with two players; in Millennium Blades every play counts (the clash
    # adds up every card played), so every match a card was played in counts.
    round_turns = 0 if ruleset_id == "blades" else 2
    whole = engine.play_batch(compiled, deck_a, deck_b, seeds, first, 0, 1)[2]
    added = np.zeros_like(whole)
    for seed, who in zip(seeds, first, strict=False):
        one = engine.play_batch(compiled, deck_a, deck_b, np.array([seed]), np.array([who], dtype=np.int8), 0, 1)[2]
        assert (one[:, :, MATCHES_DRAWN] == (one[:, :, DRAWN] > 0)).all()
        assert (one[:, :, MATCHES_PLAYED] == (one[:, :, PLAYED] > 0)).all()
        _, turns, events = engine.play_traced(compiled, deck_a, deck_b, int(seed), int(who), 0, 1)
        # A card that starts in play was played on turn 1, before any event.
        first_turn: dict[tuple[int, int], int] = {
            (side, card): 1
            for side, deck in ((0, deck_a), (1, deck_b))
            for card in _starts_in_play(ruleset_id, compiled, deck)
        }
        for row in events.tolist():
            if is_play(row):
                key = (_deck_side(ruleset_id, row[1]), row[3])
                first_turn.setdefault(key, row[0])
        expected = np.zeros(whole.shape[:2], dtype=np.int64)
        for (side, card), turn in first_turn.items():
            expected[side, card] = turn
        assert (one[:, :, FIRST_PLAYED_TURN] == expected).all()
        assert (expected[one[:, :, PLAYED] > 0] >= 1).all() and (expected <= turns).all()
        played = one[:, :, PLAYED] > 0
        assert (one[:, :, PLAYED_MATCH_TURNS] == np.where(played, turns, 0)).all()
        round_left = played & (turns - expected >= round_turns)
        assert (one[:, :, MATCHES_PLAYED_WITH_A_ROUND_LEFT] == round_left).all()
        added += one
    # A batch keeps each match apart: its figures are the sum of the same matches played one at a time.
    assert (added == whole).all()


# One card kind per deck, played on each player's first turn. The runner alternates the first player (deck A opens
# the even-numbered matches), so over an even number of matches each deck's first play is on turn 1 half the time
# (its own first turn when it opens) and on turn 2 the other half (its first turn when it goes second).
FIRST_TURN_DECKS: dict[str, tuple[str, dict[str, str]]] = {
    "circles": ("20 Ruby Shard", {}),  # a resource: one is put on the table every turn
    "plasma": ("40 Spark Drone", {}),  # a 1-plasma creature; each turn gives plasma equal to the player's turn number
    "souls": ("30 Cinder Whelp", {}),  # a soul cost 0 monster: no sacrifice needed
    "source": ("30 Murkpuff", {}),  # a monster with no map requirement
    "blades": ("8 Cinder Recruit", {"players": "2"}),  # every single in hand: a player who can play a single must
}


@pytest.mark.parametrize("ruleset_id", ENGINE_IDS)
def test_a_card_played_on_each_players_first_turn(ruleset_id: str, make_deck: Callable[..., Deck]) -> None:
    cardset, _ = _bundled(ruleset_id)
    text, options = FIRST_TURN_DECKS[ruleset_id]
    deck = make_deck(cardset, text, "one kind")
    card = text.split(" ", 1)[1]
    matches = 200
    result = simulate(cardset, deck, deck, matches=matches, run=RunSettings(seed=2, options=options, workers=1))
    for side in ("A", "B"):
        (row,) = result.counters[result.counters["deck"] == side].to_dict(orient="records")
        assert row["card"] == card
        assert row["matches_drawn"] == row["matches_played"] == matches
        assert row["first_played_turn"] == 1 * (matches // 2) + 2 * (matches // 2)
        assert row["played"] >= matches
