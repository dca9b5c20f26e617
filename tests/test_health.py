"""Game health (`workbench health`, workbench.health): small sets whose truth is known before the run, the bundled
sets' acceptance figures, and the command line's JSON shape and exit codes."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from workbench.analysis import matchup_matrix
from workbench.cards import CardSet, Deck
from workbench.cli import main
from workbench.decklists import read_decklist
from workbench.health import (
    DRAWS,
    FIRST_PLAYER,
    HEALTH_THRESHOLDS,
    LENGTH,
    MID_GAME_LEADER,
    NEVER_PLAYED,
    RULE_LEVERS,
    SEAT_PLACEMENT,
    TURN_CAP,
    _card_plays,
    game_health,
)
from workbench.loading import load_cardset
from workbench.paths import bundled_decks, bundled_sets
from workbench.rulesets import RULESETS
from workbench.run_settings import RunSettings
from workbench.simulate import simulate

MakeCardSet = Callable[..., CardSet]
MakeDeck = Callable[..., Deck]

# Circles: 2 Life Points each, new characters attack at once, an unblocked attacker deals its Attack. A Striker costs
# nothing and hits for 5, so whoever goes first plays one and wins on turn 1; a Colossus costs 9 red, which no one
# can pay on turn 1, so it is never played.
RUSH_ROWS = [
    {"name": "Striker", "kind": "character", "color": "", "red": 0, "blue": 0, "green": 0, "attack": 5, "health": 1},
    {"name": "Colossus", "kind": "character", "color": "", "red": 9, "blue": 0, "green": 0, "attack": 9, "health": 9},
    {"name": "Ruby", "kind": "resource", "color": "red"},
]
RUSH_DECK = "26 Striker\n1 Colossus\n3 Ruby"
# A deck of nothing it can pay for: nobody ever attacks, so every match runs to the turn cap.
STALL_DECK = "20 Colossus\n10 Ruby"


@pytest.fixture
def rush(make_cardset: MakeCardSet, make_deck: MakeDeck) -> tuple[CardSet, Deck]:
    cardset = make_cardset(RULESETS["circles"], RUSH_ROWS)
    return cardset, make_deck(cardset, RUSH_DECK, name="rush")


def _bundled(ruleset_id: str) -> tuple[CardSet, list[Deck]]:
    cardset = load_cardset(bundled_sets(ruleset_id)[0], ruleset_id)
    return cardset, [read_decklist(path, cardset) for path in bundled_decks(ruleset_id)]


def test_a_first_player_who_always_wins_and_a_card_never_played(rush: tuple[CardSet, Deck]) -> None:
    cardset, deck = rush
    health = game_health(cardset, [deck], matches_per_pair=300, run=RunSettings(seed=3))

    first = health.figure(FIRST_PLAYER)
    assert first.value == 1.0 and first.low is not None and first.low > 0.98
    assert first.warning is not None and first.warning.startswith("the first player wins 100% [")
    assert first.warning.endswith(": a strong first-player advantage")
    assert "new_characters_attack=false: narrows the first player's advantage" in first.levers

    length = health.figure(LENGTH)
    assert health.length_summary["median"] == 1.0 and health.lengths.to_dict(orient="records") == [
        {"turns": 1, "matches": 300}
    ]
    assert length.warning is not None and "over by turn 1" in length.warning

    never = health.figure(NEVER_PLAYED, "rush")
    assert never.warning is not None and "Colossus" in never.warning and "Striker" not in never.warning
    row = health.decks.set_index("deck").loc["rush"]
    # A mirror: the deck sits in both seats of each of the 300 matches.
    assert row["matches"] == 600 and row["cards"] == 3 and row["never_played_cards"] == ["Colossus"]
    assert row["never_played_share"] == pytest.approx(1 / 3)
    cards = health.cards.set_index("card")
    # Only the first player gets a turn: a Striker is played in one seat of each match, half the deck's seats.
    assert cards.loc["Colossus", "matches_played"] == 0 and cards.loc["Striker", "played_share"] == 0.5

    assert health.figure(TURN_CAP).warning is None and health.figure(DRAWS).warning is None
    assert health.meta["seed"] == 3 and health.meta["matches_per_pair"] == 300 and health.meta["matches"] == 300
    assert (
        health.meta["policies"] == ["greedy", "greedy"]
        and health.meta["ruleset_version"] == RULESETS["circles"].version
    )
    assert health.warnings == [first.warning, length.warning, never.warning]


def test_a_stalled_game_hits_the_turn_cap_and_those_are_not_counted_as_drawish(
    rush: tuple[CardSet, Deck], make_deck: MakeDeck
) -> None:
    cardset, _ = rush
    stall = make_deck(cardset, STALL_DECK, name="stall")
    health = game_health(cardset, [stall], matches_per_pair=50, run=RunSettings(seed=0, options={"turn_cap": 12}))
    cap = health.figure(TURN_CAP)
    assert cap.value == 1.0 and cap.warning is not None
    assert "reach the turn cap of 12 turns" in cap.warning
    # Ludii's Drawishness leaves timeouts out: every match is drawn by the cap, none before it.
    assert health.figure(DRAWS).value == 0.0 and health.figure(DRAWS).warning is None
    assert health.meta["turn_cap"] == 12 and health.pairs["turn_cap_hits"].tolist() == [50]


def test_a_figure_inside_its_range_carries_no_warning(rush: tuple[CardSet, Deck]) -> None:
    cardset, deck = rush
    lenient = replace(
        HEALTH_THRESHOLDS, first_player_low=0.0, first_player_high=1.0, min_median_turns=1.0, rarely_played=0.0
    )
    health = game_health(cardset, [deck], matches_per_pair=100, thresholds=lenient, run=RunSettings(seed=0))
    assert health.figure(FIRST_PLAYER).warning is None and health.figure(FIRST_PLAYER).levers == ()
    assert health.figure(LENGTH).warning is None
    # A card never played is never in range: its power cannot be measured whatever the thresholds.
    assert health.warnings == [health.figure(NEVER_PLAYED, "rush").warning]


def test_the_pairs_are_the_matchup_matrix_matches(make_deck: MakeDeck) -> None:
    cardset, decks = _bundled("circles")
    chosen = decks[:2]
    health = game_health(cardset, chosen, matches_per_pair=400, run=RunSettings(seed=11))
    matrix = matchup_matrix(cardset, chosen, 400, RunSettings(seed=11))
    assert (
        health.pairs[["deck", "opponent", "seed"]].values.tolist()
        == matrix[["deck", "opponent", "seed"]].values.tolist()
    )
    assert health.pairs["first_player_win_rate"].tolist() == matrix["first_player_win_rate"].tolist()
    assert health.meta["pairs"] == 4 and health.meta["matches"] == 1_600


def test_an_engine_without_per_match_counters_falls_back_to_plays(rush: tuple[CardSet, Deck]) -> None:
    cardset, deck = rush
    result = simulate(cardset, deck, deck, matches=60, run=RunSettings(seed=1, workers=1))
    older = replace(
        result, counters=result.counters.drop(columns=["matches_drawn", "matches_played", "first_played_turn"])
    )
    frame = _card_plays([(deck, deck, 1, older)], HEALTH_THRESHOLDS).set_index("card")
    assert frame.loc["Colossus", "never_played"] and not frame.loc["Striker", "never_played"]
    # Plays are events (several copies a match): the share is capped at every match.
    assert frame.loc["Striker", "played_share"] <= 1.0


def test_the_mid_game_leader_is_left_out_and_says_why(rush: tuple[CardSet, Deck]) -> None:
    cardset, deck = rush
    figure = game_health(cardset, [deck], matches_per_pair=20).figure(MID_GAME_LEADER)
    assert not figure.measured and figure.value is None and figure.warning is None
    assert figure.summary.startswith("not measured:") and "mid-game" in figure.summary


def test_bundled_circles_warns_about_the_first_player_and_the_length() -> None:
    cardset, decks = _bundled("circles")
    health = game_health(cardset, decks)
    first, length = health.figure(FIRST_PLAYER), health.figure(LENGTH)
    assert first.warning is not None and "first-player advantage" in first.warning
    assert length.warning is not None and "too short" in length.warning
    assert any(lever.startswith("new_characters_attack=false") for lever in length.levers)
    assert health.meta["pairs"] == len(decks) ** 2


def test_bundled_souls_reports_each_decks_never_played_share() -> None:
    cardset, decks = _bundled("souls")
    health = game_health(cardset, decks)
    never = [figure for figure in health.figures if figure.key == NEVER_PLAYED]
    assert Counter(figure.deck for figure in never) == Counter(deck.name for deck in decks)
    for figure in never:
        row = health.decks.set_index("deck").loc[figure.deck]
        assert figure.value == pytest.approx(row["never_played"] / row["cards"])
        assert f"{row['never_played']} of {row['cards']} cards never played" in figure.summary
        for card in row["never_played_cards"]:
            assert card in figure.summary
    assert sum(health.decks["never_played"]) > 0  # with these decks and policy, some souls cards never come down


def test_blades_is_measured_in_its_own_units() -> None:
    cardset, decks = _bundled("blades")
    health = game_health(cardset, decks[:2], matches_per_pair=200)
    seat = health.figure(SEAT_PLACEMENT)
    assert seat.measured and seat.value is not None and seat.low is not None and seat.high is not None
    assert seat.low <= seat.value <= seat.high
    assert "places" in seat.summary and "VP" in seat.summary
    assert not health.figure(TURN_CAP).measured and "no turn cap" in health.figure(TURN_CAP).summary


def test_every_rule_lever_names_a_real_option_and_value() -> None:
    for lever in RULE_LEVERS:
        key, value = lever.option.split("=", 1)
        RULESETS[lever.ruleset].resolve_options({key: value})  # an unknown option or value raises


def test_cli_health_json_shape(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sheet = bundled_sets("circles")[0]
    code = main(["health", str(sheet), "--matches", "200", "--seed", "5", "--format", "json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    for key in (
        "ruleset",
        "ruleset_version",
        "engine_version",
        "options",
        "seed",
        "matches",
        "policies",
        "cardset_hash",
        "workbench_version",
        "matches_per_pair",
        "decks",
        "pairs",
        "turn_cap",
        "thresholds",
    ):
        assert key in data, key
    assert data["seed"] == 5 and data["matches_per_pair"] == 200 and data["policies"] == ["greedy", "greedy"]
    assert data["matches"] == 200 * len(data["decks"]) ** 2
    keys = [figure["key"] for figure in data["figures"]]
    assert keys[:4] == [FIRST_PLAYER, LENGTH, TURN_CAP, DRAWS] and keys[-1] == MID_GAME_LEADER
    assert keys.count(NEVER_PLAYED) == len(data["decks"])
    for figure in data["figures"]:
        assert set(figure) == {
            "key",
            "label",
            "deck",
            "measured",
            "value",
            "low",
            "high",
            "summary",
            "healthy",
            "ludii",
            "warning",
            "options_that_move_it",
        }
    assert data["warnings"] == [f["warning"] for f in data["figures"] if f["warning"]]
    assert {"mean", "q1", "median", "q3", "min", "max", "histogram"} <= set(data["length"])
    assert sum(row["matches"] for row in data["length"]["histogram"]) == data["matches"]
    assert {row["deck"] for row in data["deck_plays"]} == set(data["decks"])
    assert len(data["pairs"]) == len(data["decks"]) ** 2


def test_cli_health_text_names_the_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    sheet = bundled_sets("circles")[0]
    assert main(["health", str(sheet), "--matches", "300"]) == 0
    out = capsys.readouterr().out
    assert "seed 0" in out and "300 matches per pair" in out and "policies greedy/greedy" in out
    assert "WARNING: the first player wins" in out and "first-player advantage" in out
    assert "rule options that move it" in out and "None" not in out


def test_cli_health_unreadable_input_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["health", str(tmp_path / "missing.csv")]) == 2
    assert "missing.csv" in capsys.readouterr().err
    sheet = bundled_sets("circles")[0]
    assert main(["health", str(sheet), "--option", "turn_cap=lots"]) == 2
    assert "turn_cap" in capsys.readouterr().err
    assert main(["health", str(sheet), "--policy", "clever"]) == 2
    assert "clever" in capsys.readouterr().err


def test_the_balance_report_opens_with_the_games_health(tmp_path: Path) -> None:
    import openpyxl

    from workbench.report_html import render_html
    from workbench.reports import build_report, write_report

    cardset, decks = _bundled("circles")
    report = build_report(cardset, decks, matches_per_card=200, matches=200, run=RunSettings(seed=2))
    assert (
        report.health is not None and report.health.meta["seed"] == 2 and report.health.meta["matches_per_pair"] == 200
    )
    html = render_html(report)
    # Before any card's verdict: the health section comes ahead of the power curve.
    assert html.index("<h2>Game health</h2>") < html.index("<h2>Power curve</h2>")
    assert "a strong first-player advantage" in html and "Game length over every pair of decks" in html
    assert "new_characters_attack=false" in html
    workbook = openpyxl.load_workbook(write_report(report, tmp_path / "report.xlsx"))
    assert workbook.sheetnames[:4] == ["Summary", "Health", "Game length", "Card plays"]
    rows = list(workbook["Health"].iter_rows(values_only=True))
    assert rows[0][:3] == ("figure", "deck", "value")
    assert rows[1][0] == "first-player win rate" and "first-player advantage" in rows[1][7]
    lengths = list(workbook["Game length"].iter_rows(min_row=2, values_only=True))
    assert sum(matches for _, matches in lengths) == 200 * len(decks) ** 2
    summary = dict(workbook["Summary"].iter_rows(values_only=True))
    assert summary["game health"] == f"{len(report.health.warnings)} warning(s)"


def test_a_warning_sentence_keeps_a_deck_name_as_written() -> None:
    # Deck names keep their case ("balanced_tricolour", never "Balanced_tricolour"); other warnings start capitalised.
    from workbench.health import NEVER_PLAYED, HealthFigure, warning_sentence

    def figure(warning: str | None, deck: str | None) -> HealthFigure:
        return HealthFigure(NEVER_PLAYED, "cards", "summary", "healthy", "ludii", warning=warning, deck=deck)

    assert warning_sentence(figure("balanced_tricolour: 2 of 30 cards were never played", "balanced_tricolour")) == (
        "balanced_tricolour: 2 of 30 cards were never played."
    )
    assert warning_sentence(figure("the first player wins 64%", None)) == "The first player wins 64%."
    assert warning_sentence(figure(None, None)) is None
