"""The per-object reference engine plays the same matches as the compiled engine, event for event.

Two independent builds of the same rules (one from the card models, one from the compiled tables) agreeing on
every event of many seeded matches is the strongest check either has; the reference is also the speed baseline.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import workbench.rulesets.souls.engine as E
from workbench.bench import bundled_cardset_and_decks
from workbench.cards import CardSet, Deck
from workbench.decklists import read_decklist
from workbench.engines import COUNTERS, rng_below, rng_seed
from workbench.loading import load_cardset
from workbench.paths import bundled_decks, bundled_sets
from workbench.rulesets.souls import RULESET as SOULS
from workbench.rulesets.souls.reference_engine import COUNTER_NAMES, EVENT_CODES, ReferenceEngine, XorShift
from workbench.simulate import batch_seeds, compile_for


@pytest.fixture(scope="module")
def bundled() -> tuple[CardSet, list[Deck]]:
    return bundled_cardset_and_decks(SOULS)


def test_event_codes_and_counters_match_the_compiled_engine() -> None:
    assert {name.removeprefix("EV_"): getattr(E, name) for name in dir(E) if name.startswith("EV_")} == EVENT_CODES
    assert COUNTER_NAMES == COUNTERS


@pytest.mark.parametrize("seed", [0, 1, 2**40 + 7, 2**62 + 12345])
def test_the_generator_draws_what_the_kernel_draws(seed: int) -> None:
    state = np.zeros(4, dtype=np.int64)
    rng_seed(state, seed)
    plain = XorShift(seed)
    assert [rng_below(state, n) for n in range(1, 200)] == [plain.below(n) for n in range(1, 200)]


OPTION_SETS: list[dict[str, Any]] = [
    {},
    # summons_per_turn: the default is no limit (0); one a turn is the house rule.
    {"sacrifice_from": "either", "direct_attack": "reach", "summons_per_turn": 1},
    {"sacrifice_from": "hand", "destroy_when": "exceeds", "damage_persists": False, "summoning_sickness": True},
    {
        "attacker_rows_collapse": False,
        "row_slots": 2,
        "trap_slots": 1,
        "first_player_draws": True,
        "empty_deck": "lose",
    },
    {
        "burning_turns": 2,
        "combo_consumes": True,
        "unlisted_combo": "keep",
        "status_ticks": "own_turn",
        "hand_size": 3,
        "draw_per_turn": 2,
        "turn_cap": 16,
    },
]


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("policies", [(0, 0), (1, 1), (0, 1)])
def test_reference_and_compiled_engines_play_the_same_matches(
    bundled: tuple[CardSet, list[Deck]], options: dict[str, Any], policies: tuple[int, int]
) -> None:
    cardset, decks = bundled
    engine, compiled, resolved = compile_for(cardset, options)
    reference = ReferenceEngine(cardset, resolved)
    seeds, first = batch_seeds(17, 12)[0]
    for a, b in ((0, 1), (2, 0), (1, 2)):
        deck_a, deck_b = compiled.deck_array(decks[a]), compiled.deck_array(decks[b])
        for seed, who in zip(seeds.tolist(), first.tolist(), strict=False):
            winner, turns, events = engine.play_traced(compiled, deck_a, deck_b, seed, who, *policies)
            plain_events: list[tuple[int, ...]] = []
            match = reference.play(deck_a.tolist(), deck_b.tolist(), seed, who, *policies, events=plain_events)
            assert [tuple(int(v) for v in row) for row in events] == plain_events
            assert (match.winner, match.turn) == (winner, turns)


ACTIVATED_EFFECTS = {
    # The bundled set with effects of every timing: once per turn (no prefix), by using the card, on a summon Trigger.
    "Grave Caller": "draw 1",
    "Lantern Sprite": "damage 1",
    "Flame Spitter": "use: damage 2",
    "Banner Priest": "use: shield +1",
    "Hollow Acolyte": "use: draw 1",
    "Pitch Goblin": "apply oil; use: apply oil",
    "Cinder Whelp": "summon: apply fire",
    # Triggers: traps and monsters reacting to an attack, a summon, an effect's activation.
    "Moss Sentry": "foe attacks: damage 1",
    "Iron Warden": "foe summons: damage 2",
    "Reed Slinger": "foe activates: damage 1",
    "Hexbinder": "opponent activates: shield +1",
    "Spike Pit": "foe summons: damage 3",
    "Tar Snare": "foe activates: apply oil",
    "Warning Bell": "foe attacks: draw 1",
}


def _bundled_with_effects(tmp_path: Path, effects: dict[str, str]) -> CardSet:
    """The bundled set with some cards' `effects` cells replaced."""
    rows = list(csv.DictReader(bundled_sets("souls")[0].open(encoding="utf-8", newline="")))
    for row in rows:
        row["effects"] = effects.get(row["name"], row["effects"])
    path = tmp_path / "changed.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return load_cardset(path, "souls")


def _both_engines_events(
    cardset: CardSet, options: dict[str, Any], policies: tuple[int, int], matches: int
) -> list[tuple[int, ...]]:
    """Every event of `matches` seeded matches of three bundled pairings, after checking that both engines play
    them event for event alike."""
    decks = [read_decklist(deck, cardset) for deck in bundled_decks("souls")]
    engine, compiled, resolved = compile_for(cardset, options)
    reference = ReferenceEngine(cardset, resolved)
    seeds, first = batch_seeds(17, matches)[0]
    played: list[tuple[int, ...]] = []
    for a, b in ((0, 1), (2, 0), (1, 2)):
        deck_a, deck_b = compiled.deck_array(decks[a]), compiled.deck_array(decks[b])
        for seed, who in zip(seeds.tolist(), first.tolist(), strict=False):
            winner, turns, events = engine.play_traced(compiled, deck_a, deck_b, seed, who, *policies)
            plain_events: list[tuple[int, ...]] = []
            match = reference.play(deck_a.tolist(), deck_b.tolist(), seed, who, *policies, events=plain_events)
            assert [tuple(int(v) for v in row) for row in events] == plain_events
            assert (match.winner, match.turn) == (winner, turns)
            played.extend(plain_events)
    return played


@pytest.mark.parametrize("options", [{}, {"sacrifice_from": "either", "summoning_sickness": True}])
@pytest.mark.parametrize("policies", [(0, 0), (1, 1), (0, 1)])
def test_both_engines_play_activated_effects_alike(
    tmp_path: Path, options: dict[str, Any], policies: tuple[int, int]
) -> None:
    events = _both_engines_events(_bundled_with_effects(tmp_path, ACTIVATED_EFFECTS), options, policies, 8)
    activations = sum(1 for row in events if row[2] == E.EV_ACTIVATE)
    reactions = sum(1 for row in events if row[2] == E.EV_REACT or (row[2] == E.EV_TRAP and row[5] != E.T_FOE_ATTACKS))
    assert activations > 0 and reactions > 0  # the matches did activate effects and react to them


DIRECT_EFFECTS = {
    # "Direct attacks always deal 1 damage (-1 shield point) unless otherwise specified": monsters whose own text
    # specifies (in all three decks), an Equip card that raises its host's and one that takes it to 0.
    "Skirmish Fox": "direct 2",
    "Moss Sentry": "direct 3",
    "Reed Slinger": "direct 2",
    "Rusted Blade": "atk +2; direct 3",
    "Leaden Shackles": "atk -3; direct 0",
}


@pytest.mark.parametrize("options", [{}, {"summons_per_turn": 1, "direct_attack": "reach"}])
@pytest.mark.parametrize("policies", [(0, 0), (1, 1), (0, 1)])
def test_both_engines_deal_the_direct_damage_a_card_specifies(
    tmp_path: Path, options: dict[str, Any], policies: tuple[int, int]
) -> None:
    events = _both_engines_events(_bundled_with_effects(tmp_path, DIRECT_EFFECTS), options, policies, 8)
    amounts = {row[5] for row in events if row[2] == E.EV_DIRECT}
    assert {1, 2, 3} <= amounts  # the matches did attack directly for the usual 1 and for specified amounts


def test_reference_counters_match(bundled: tuple[CardSet, list[Deck]]) -> None:
    cardset, decks = bundled
    engine, compiled, resolved = compile_for(cardset)
    seeds, first = batch_seeds(3, 200)[0]
    deck_a, deck_b = compiled.deck_array(decks[0]), compiled.deck_array(decks[1])
    winners, turns, counters = engine.play_batch(compiled, deck_a, deck_b, seeds, first, 0, 0)
    plain_winners, plain_turns, plain_counters = ReferenceEngine(cardset, resolved).play_batch(
        deck_a.tolist(), deck_b.tolist(), seeds.tolist(), first.tolist(), 0, 0
    )
    assert winners.tolist() == plain_winners and turns.tolist() == plain_turns
    rebuilt = np.zeros_like(counters)
    for (side, card, name), value in plain_counters.items():
        rebuilt[side, card, COUNTER_NAMES.index(name)] = value
    assert (rebuilt == counters).all()
