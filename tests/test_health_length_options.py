"""Which rule options move the match length (issue 34, item 4; `workbench health SET --length-options`).

The truth is known in a toy game of this file (its engine is `ENGINE` below, plain Python): a match lasts
`base_turns` plus 0, 1 or 2 turns drawn from its seed, plus 3 with `pace=slow`, so `pace=slow` lengthens every match
by exactly 3 turns and `base_turns=5` by exactly 1, while the first player's bonus and the die's sides decide only
who wins (the die is rolled after the length is drawn), so they cannot change a length. A card of cost c is played
on turn c of a match that lasts that long, in time when two turns are left after it. `deck_limit` is a deck check the
engine is never given; `colour=red` and `colour=blue` give the engine the same rules (and play no part); the turn cap
and the search settings are left out by name.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Literal

import numpy as np
import pytest
from falling_curve import falling_curve
from jsonschema import Draft202012Validator
from pydantic import Field
from typed_cards import cards_as

from workbench.cards import CardSet, Deck, OptionValue
from workbench.cli import main
from workbench.engines import COUNTERS, CompiledCards
from workbench.health import (
    NOT_IN_ENGINE,
    SEARCH_LEFT_OUT,
    TURN_CAP_LEFT_OUT,
    LengthOptions,
    game_health,
    length_options,
    length_options_lines,
    length_readings,
)
from workbench.play.assembly import Engine
from workbench.rulesets import RULESETS
from workbench.rulesets.base import CardBase, RuleOption, Ruleset, search_options

MakeCardSet = Callable[..., CardSet]
MakeDeck = Callable[..., Deck]

SCHEMA = Path(__file__).resolve().parent.parent / "workbench" / "schemas" / "health.json"
COLUMN = {name: index for index, name in enumerate(COUNTERS)}


class PaceCard(CardBase):
    """A toy card."""

    kind: Literal["unit"]
    """Always `unit`."""
    cost: int = Field(ge=0)
    """The turn it is played on."""
    strength: int = Field(ge=0)
    """What it adds to its side's total."""


def _compile(cardset: CardSet, options: Mapping[str, OptionValue]) -> CompiledCards:
    cards = cards_as(cardset, PaceCard)
    return CompiledCards(
        names=tuple(card.name for card in cards),
        table=np.array([[card.strength, card.cost] for card in cards], dtype=np.int64),
        cost=np.array([card.cost for card in cards], dtype=np.float64),
        slot=np.zeros(len(cards), dtype=np.int64),
        options=np.array(
            [
                int(options["pace"] == "slow"),
                int(bool(options["first_player_bonus"])),
                int(options["die_sides"]),
                int(options["base_turns"]),
                int(options["turn_cap"]),
                int(options["colour"] != "plain"),
            ],
            dtype=np.int64,
        ),
    )


def _play_batch(
    compiled: CompiledCards,
    deck_a: np.ndarray,
    deck_b: np.ndarray,
    seeds: np.ndarray,
    first: np.ndarray,
    policy_a: int,
    policy_b: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    slow, bonus, sides, base, cap, _colour = (int(value) for value in compiled.options)
    n = seeds.shape[0]
    winners = np.zeros(n, dtype=np.int8)
    turns = np.zeros(n, dtype=np.int32)
    counters = np.zeros((2, len(compiled.names), len(COUNTERS)), dtype=np.int64)
    for m in range(n):
        rng = np.random.default_rng(int(seeds[m]) & 0xFFFFFFFF)
        length = min(base + int(rng.integers(3)) + 3 * slow, cap)  # drawn first: the die never moves it
        totals = [int(rng.integers(sides)), int(rng.integers(sides))]
        for side, deck in enumerate((deck_a, deck_b)):
            hand = rng.permutation(deck)[:5]
            first_turn: dict[int, int] = {}
            for card in (int(c) for c in hand):
                counters[side, card, COLUMN["drawn"]] += 1
                cost = int(compiled.table[card, 1])
                if cost <= length:
                    counters[side, card, COLUMN["played"]] += 1
                    totals[side] += int(compiled.table[card, 0])
                    first_turn[card] = min(first_turn.get(card, cost), cost)
            for card in {int(c) for c in hand}:
                counters[side, card, COLUMN["matches_drawn"]] += 1
            for card, turn in first_turn.items():
                counters[side, card, COLUMN["matches_played"]] += 1
                counters[side, card, COLUMN["first_played_turn"]] += turn
                counters[side, card, COLUMN["played_match_turns"]] += length
                counters[side, card, COLUMN["matches_played_with_a_round_left"]] += int(length - turn >= 2)
        if bonus:
            totals[int(first[m])] += 1
        turns[m] = length
        winners[m] = 0 if totals[0] > totals[1] else (1 if totals[1] > totals[0] else -1)
    return winners, turns, counters


def _play_traced(
    compiled: CompiledCards, deck_a: np.ndarray, deck_b: np.ndarray, seed: int, first: int, policy_a: int, policy_b: int
) -> tuple[int, int, np.ndarray]:
    winners, turns, _ = _play_batch(
        compiled, deck_a, deck_b, np.array([seed]), np.array([first], dtype=np.int8), policy_a, policy_b
    )
    return int(winners[0]), int(turns[0]), np.zeros((0, 6), dtype=np.int64)


ENGINE = Engine(
    version="1",
    policies=("greedy", "random"),
    cost_axis="cost",
    compile_cards=_compile,
    play_batch=_play_batch,
    play_traced=_play_traced,
    describe_event=lambda compiled, row: "",
)

PACE = Ruleset(
    id="pace",
    title="Pace toy",
    version="1",
    document="none",
    card_models=(PaceCard,),
    check_cards=lambda cardset, options: [],
    check_deck=lambda cardset, deck, options: [],
    options=(
        RuleOption(key="deck_limit", default=40, minimum=1, maximum=100, reading="A deck check.", quote="(toy)"),
        RuleOption(key="pace", default="quick", choices=("quick", "slow"), reading="Slow adds 3 turns.", quote="(toy)"),
        RuleOption(key="first_player_bonus", default=True, reading="The first player adds 1.", quote="(toy)"),
        RuleOption(key="die_sides", default=6, minimum=2, maximum=12, reading="The die's sides.", quote="(toy)"),
        RuleOption(key="base_turns", default=4, minimum=4, maximum=9, reading="Turns at least.", quote="(toy)"),
        RuleOption(
            key="colour",
            default="plain",
            choices=("plain", "red", "blue"),
            reading="Red and blue are one reading to the engine, and play no part.",
            quote="(toy)",
        ),
        RuleOption(key="turn_cap", default=30, minimum=1, maximum=100, reading="The cap.", quote="(toy)"),
        *search_options("choice", "(toy)"),
    ),
    cost_fields=("cost",),
    engine_module=__name__,
)

ROWS = [
    {"name": "Quick", "kind": "unit", "cost": 1, "strength": 1},
    {"name": "Mid", "kind": "unit", "cost": 3, "strength": 2},
    {"name": "Late", "kind": "unit", "cost": 6, "strength": 5},
]
DECK_ONE = "6 Quick\n4 Mid\n2 Late"
DECK_TWO = "4 Quick\n4 Mid\n4 Late"
MATCHES = 150
"""Per ordered pair: 4 pairs, 600 matches a reading, 7 readings played."""


@pytest.fixture
def pace(make_cardset: MakeCardSet, make_deck: MakeDeck) -> tuple[CardSet, list[Deck]]:
    cardset = make_cardset(PACE, ROWS)
    return cardset, [make_deck(cardset, DECK_ONE, name="one"), make_deck(cardset, DECK_TWO, name="two")]


def _measure(pace: tuple[CardSet, list[Deck]], seed: int = 5, **options: OptionValue) -> LengthOptions:
    from workbench.run_settings import RunSettings

    cardset, decks = pace
    return length_options(cardset, decks, MATCHES, RunSettings(seed=seed, workers=1, options=options or None))


def test_the_readings_are_every_other_choice_and_a_step_within_bounds_with_the_left_out_named() -> None:
    readings, left_out = length_readings(PACE, PACE.resolve_options())
    assert readings == [
        ("deck_limit", 39),
        ("deck_limit", 41),
        ("pace", "slow"),
        ("first_player_bonus", False),
        ("die_sides", 5),
        ("die_sides", 7),
        ("base_turns", 5),  # 4 is the minimum: no step down
        ("colour", "red"),
        ("colour", "blue"),
    ]
    reasons = {entry["option"]: entry["reason"] for entry in left_out}
    assert reasons == {
        "turn_cap": TURN_CAP_LEFT_OUT,
        "search_rollouts": SEARCH_LEFT_OUT,
        "search_rollout_policy": SEARCH_LEFT_OUT,
    }
    # From options as given, the steps are taken from their values.
    readings, _ = length_readings(PACE, PACE.resolve_options({"base_turns": "9", "pace": "slow"}))
    assert ("base_turns", 8) in readings and ("base_turns", 10) not in readings and ("pace", "quick") in readings


def test_the_option_that_lengthens_every_match_is_found_and_those_that_cannot_are_not(
    pace: tuple[CardSet, list[Deck]],
) -> None:
    result = _measure(pace)
    by_label = {reading.label: reading for reading in result.readings}
    assert [reading.label for reading in result.moving] == ["pace=slow", "base_turns=5"]
    slow = by_label["pace=slow"]
    assert slow.effect == "lengthens" and slow.change == pytest.approx(3.0)
    assert slow.change_low == pytest.approx(3.0) and slow.change_high == pytest.approx(3.0)
    assert slow.changed_matches == slow.matches == 4 * MATCHES
    assert slow.mean_turns == pytest.approx(result.baseline.mean_turns + 3)
    assert by_label["base_turns=5"].change == pytest.approx(1.0)
    for label in ("first_player_bonus=false", "die_sides=5", "die_sides=7"):
        reading = by_label[label]
        assert reading.effect == "no change" and reading.changed_matches == 0 and not reading.moves
        assert reading.change == reading.change_low == reading.change_high == 0.0
    # The bonus does move who wins: the measurement sees it, while the length stays.
    assert by_label["first_player_bonus=false"].first_player.value < result.baseline.first_player.value
    # The deck check never reaches the engine, so it is not played; the turn cap and search settings are named.
    left = {entry["option"]: entry for entry in result.left_out}
    assert left["deck_limit"]["values"] == [39, 41] and left["deck_limit"]["reason"] == NOT_IN_ENGINE
    assert {"turn_cap", "search_rollouts", "search_rollout_policy"} <= set(left)
    # Blue gives the engine what red gives it: it shares red's matches instead of playing them again.
    assert by_label["colour=blue"].same_matches_as == "colour=red" and by_label["colour=red"].same_matches_as is None
    assert by_label["colour=blue"].effect == by_label["colour=red"].effect == "no change"
    assert result.meta["readings_played"] == 7 and result.meta["readings_measured"] == 8
    assert result.meta["matches"] == 7 * 4 * MATCHES
    # The dearest card (cost 6) is played in time more often when the matches are longer.
    assert result.meta["dearest_cost"] == 6 and result.meta["dearest_cards"] == ["Late"]
    assert result.baseline.dearest_in_time is not None and slow.dearest_in_time is not None
    assert slow.dearest_in_time > result.baseline.dearest_in_time
    assert slow.sentence(result.baseline).startswith(
        f"pace=slow lengthens matches from {result.baseline.mean_turns:.1f} to {slow.mean_turns:.1f} turns ["
    )


def test_the_measurement_is_seeded_and_its_as_given_reading_is_the_health_checks_matches(
    pace: tuple[CardSet, list[Deck]],
) -> None:
    from workbench.run_settings import RunSettings

    first, again = _measure(pace), _measure(pace)
    assert first.to_json() == again.to_json()
    other = _measure(pace, seed=6)
    assert other.baseline.mean_turns != first.baseline.mean_turns
    assert [reading.label for reading in other.moving] == ["pace=slow", "base_turns=5"]
    cardset, decks = pace
    health = game_health(cardset, decks, MATCHES, RunSettings(seed=5, workers=1))
    assert health.length_summary["mean"] == pytest.approx(first.baseline.mean_turns)


def test_options_as_given_are_the_baseline_and_progress_counts_every_reading(
    pace: tuple[CardSet, list[Deck]],
) -> None:
    from workbench.run_settings import RunSettings

    cardset, decks = pace
    seen: list[tuple[int, int]] = []
    result = length_options(
        cardset,
        decks,
        50,
        RunSettings(
            seed=1, workers=1, options={"pace": "slow"}, progress=lambda done, total: seen.append((done, total))
        ),
    )
    quick = next(reading for reading in result.readings if reading.label == "pace=quick")
    assert quick.effect == "shortens" and quick.change == pytest.approx(-3.0)
    assert result.meta["options_given"] == {"pace": "slow"}
    total = result.meta["matches"]
    assert seen[-1] == (total, total) and all(t == total for _, t in seen)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
    lines = length_options_lines(result)
    assert "the options as given (pace=slow)" in lines[0]
    assert any(line.strip().startswith("pace=quick shortens matches from") for line in lines)


def test_the_command_line_prints_and_emits_the_length_options(
    pace: tuple[CardSet, list[Deck]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setitem(RULESETS, "pace", PACE)
    sheet = tmp_path / "pace.csv"
    sheet.write_text("name,kind,cost,strength\nQuick,unit,1,1\nMid,unit,3,2\nLate,unit,6,5\n", encoding="utf-8")
    (tmp_path / "one.txt").write_text(DECK_ONE, encoding="utf-8")
    (tmp_path / "two.txt").write_text(DECK_TWO, encoding="utf-8")
    argv = ["health", str(sheet), "--ruleset", "pace", "--deck", str(tmp_path / "one.txt")]
    argv += ["--deck", str(tmp_path / "two.txt"), "--matches", "100", "--seed", "3", "--workers", "1", "-q"]
    assert main([*argv, "--length-options"]) == 0
    text = capsys.readouterr().out
    assert "which rule options move the match length (measured)" in text
    assert "100 matches per pair for each of 7 rule readings" in text and "seed 3" in text
    assert "1 more reading that gives the engine the same cards and rules as an earlier one shares its matches" in text
    assert "2,800 matches in all" in text
    mover = next(line.strip() for line in text.splitlines() if line.strip().startswith("pace=slow lengthens"))
    assert " turns [" in mover and "(+3.00 [+3.00, +3.00] a match, paired by seed)" in mover
    assert (
        "no change: first_player_bonus=false, die_sides=5, die_sides=7, colour=red, colour=blue (the matches of "
        "colour=red)" in text
    )
    assert "not played: deck_limit=39 or 41: changes nothing the match engine is given" in text
    # Without the flag the health alone, as before.
    assert main(argv) == 0
    assert "which rule options move" not in capsys.readouterr().out
    assert main([*argv, "--length-options", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    validator = Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    assert [error.message for error in validator.iter_errors(data)] == []
    lengths = data["length_options"]
    assert lengths["moving"] == ["pace=slow", "base_turns=5"] and lengths["seed"] == 3
    assert lengths["matches_per_pair"] == 100 and lengths["baseline"]["label"] == "as given"
    assert lengths["readings"][0]["change"] == pytest.approx(3.0) and lengths["readings"][0]["moves"] is True
    assert data["figures"] and data["matches_per_pair"] == 100  # the health's own figures are all still there


def test_the_circles_json_with_length_options_matches_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["health", "circles/circle_starter", "--deck", "blue_wall", "--deck", "red_green_rush"]
    assert main([*argv, "--matches", "20", "--length-options", "--format", "json", "-q"]) == 0
    data = json.loads(capsys.readouterr().out)
    validator = Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    assert [error.message for error in validator.iter_errors(data)] == []
    left = {entry["option"] for entry in data["length_options"]["left_out"]}
    assert {"turn_cap", "search_rollouts", "deck_characters", "points_must_be_spent"} <= left


def test_whole_games_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["health", "blades/blades_sample", "--option", "game=full", "--length-options"]) == 2
    assert "--length-options measures matches between decks" in capsys.readouterr().err


def test_the_why_statement_names_the_command_or_the_measured_options_of_the_same_run(
    pace: tuple[CardSet, list[Deck]],
) -> None:
    result = _measure(pace)
    same = {key: result.meta[key] for key in ("cardset_hash", "seed", "options", "policies", "cost_axis")} | {
        "gauntlet": ["one", "two"],
        "auto_decks": {},
        "min_play_share": 0.05,
    }
    curve = falling_curve(same)
    plain = curve.why_statement()
    assert plain is not None
    assert (
        "The matches' length is a property of the rules, not of a card's cost: the command workbench health SET "
        "--length-options measures which rule options move it." in plain
    )
    named = curve.why_statement(result)
    assert named is not None and "workbench health SET --length-options, 150 matches per pair" in named
    assert result.moving[0].sentence(result.baseline) in named and "base_turns=5 lengthens matches" in named
    assert "first_player_bonus" not in named
    # Another seed, other decks or other options: not the same run, so the command is named instead.
    for changed in ({"seed": 6}, {"gauntlet": ["one"]}, {"options": {**result.meta["options"], "pace": "slow"}}):
        assert falling_curve(same | changed).why_statement(result) == falling_curve(same | changed).why_statement()
    # A line that rises says nothing of the kind.
    assert replace(curve, slope=0.05, slope_low=0.01, slope_high=0.09).why_statement(result) is None
    # No reading moves it: said so, with the figure as given.
    still = replace(result, readings=[r for r in result.readings if not r.moves])
    words = curve.why_statement(still)
    assert words is not None and "no rule option measured moves it by 0.1 turns or more" in words


def test_the_schema_refuses_a_length_options_object_without_its_readings() -> None:
    validator = Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    base = {
        "schema_version": 1,
        "ruleset": "pace",
        "seed": 0,
        "cardset": "x",
        "workbench_version": "0",
        "figures": [],
        "warnings": [],
        "matches_per_pair": 1,
        "decks": ["a"],
        "pairs": [],
    }
    assert list(validator.iter_errors(base)) == []
    assert list(validator.iter_errors(base | {"length_options": {"seed": 0}}))
