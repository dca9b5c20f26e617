"""workbench.full_game: the one entry the command line, the app and the reports call for whole games (game=full).

Small games throughout (two seats, two actions a timer segment) so each test runs in seconds; the rules of the whole
game are tested in tests/rulesets/blades/test_blades_market.py.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from workbench.cards import WorkbenchInputError
from workbench.cli import main
from workbench.full_game import (
    FULL_GAME_DEFAULTS,
    full_game_power,
    full_game_sweep,
    interval,
    is_full_game,
    run_full_games,
    store_cards_of,
    supports_full_game,
)
from workbench.loading import load_cardset
from workbench.paths import bundled_decks, bundled_sets
from workbench.rulesets import RULESETS
from workbench.run_settings import RunSettings
from workbench.simulate import simulate

SAMPLE = load_cardset(bundled_sets("blades")[0])
# Two seats under the 3-5 player rules (two_player_rules=normal): every game plays all three rounds, with every part.
SMALL: dict[str, int | str] = {"players": 2, "market_actions": 2, "two_player_rules": "normal"}
"""Two seats and two actions a timer segment: a whole game in a fraction of a second."""


def test_only_a_ruleset_with_whole_games_and_the_option_full_plays_them() -> None:
    assert supports_full_game(RULESETS["blades"])
    assert [r for r in RULESETS if supports_full_game(RULESETS[r])] == ["blades"]
    assert is_full_game(RULESETS["blades"], {"game": "full"})
    assert not is_full_game(RULESETS["blades"], {"game": "tournament"})
    assert not is_full_game(RULESETS["blades"], RULESETS["blades"].resolve_options())  # the default: tournament
    souls = load_cardset(bundled_sets("souls")[0])
    assert not is_full_game(souls.ruleset, {"game": "full"})
    with pytest.raises(WorkbenchInputError, match="game=full is a Millennium Blades option; this set is souls"):
        run_full_games(souls, {}, 1, 0)


def test_the_interval_is_the_normal_95_percent_interval_of_the_mean() -> None:
    mean, low, high = interval([1.0, 2.0, 3.0])
    half = 1.959964 * 1.0 / math.sqrt(3)  # sample sd of 1, 2, 3 is 1
    assert (mean, low, high) == pytest.approx((2.0, 2.0 - half, 2.0 + half))
    one = interval([5.0])
    assert one[0] == 5.0 and math.isnan(one[1]) and math.isnan(one[2])


def test_whole_games_give_each_part_per_seat_and_round_with_intervals_and_report_progress() -> None:
    calls: list[tuple[int, int]] = []
    games = run_full_games(SAMPLE, SMALL, 4, 9, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(k, 4) for k in range(1, 5)]
    assert games.meta["options"]["game"] == "full" and games.meta["matches"] == 4 and games.meta["seed"] == 9
    assert games.meta["market_version"] and games.meta["policies"] == ["greedy", "greedy"]
    frame = games.seat_frame()
    for p, seat in enumerate(games.summary["seats"]):
        for part in ("total", "tournament", "collections", "money", "friendship"):
            row = frame[(frame["seat"] == seat["seat"]) & (frame["part"] == part)].iloc[0]
            values = games.per_game[part][p]
            assert row["vp"] == pytest.approx(sum(values) / len(values))
            assert row["low"] <= row["vp"] <= row["high"]
        assert row["vp"] == pytest.approx(seat["friendship"])
        assert [games.per_game["total"][p][k] for k in range(4)] == pytest.approx(
            [
                sum(games.per_game[part][p][k] for part in ("tournament", "collections", "money", "friendship"))
                for k in range(4)
            ]
        )
    rounds = games.round_frame()
    assert rounds["round"].tolist() == ["R1", "R2", "R3"] * 2
    a = rounds[rounds["seat"] == "A"]
    assert a["tournament"].tolist() == pytest.approx(games.summary["seats"][0]["tournament_by_round"])
    assert a["collections"].tolist() == pytest.approx(games.summary["seats"][0]["collections_by_round"])


def test_a_pre_release_tournament_is_a_round_without_a_collection() -> None:
    games = run_full_games(SAMPLE, {**SMALL, "prerelease": True}, 2, 1)
    rounds = games.round_frame()
    assert rounds["round"].tolist()[:3] == ["pre-release", "R1", "R2"]
    assert math.isnan(rounds["collections"].iloc[0]) and not math.isnan(rounds["collections"].iloc[1])


def test_the_command_line_prints_what_the_python_api_returns(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "blades/blades_sample", "--option", "game=full", "--option", "players=2"]
    small = ["--option", "market_actions=2", "--option", "two_player_rules=normal"]
    assert main([*args, *small, "--matches", "3", "--seed", "6", "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = run_full_games(SAMPLE, SMALL, 3, 6).json()
    for data in (printed, expected):
        data.pop("games_per_second")
    assert printed == json.loads(json.dumps(expected))


def _captured(monkeypatch: pytest.MonkeyPatch, name: str) -> dict[str, Any]:
    """Replace the runner's `name` by one that records its games count and returns no rows."""
    import workbench.rulesets.blades.market_runs as runner

    seen: dict[str, Any] = {}

    def fake(cardset: Any, options: Any, *args: Any) -> list[Any]:
        seen["args"] = args
        return []

    monkeypatch.setattr(runner, name, fake)
    return seen


def test_power_and_sweep_counts_default_to_the_whole_game_defaults(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # One place for the defaults: the command line passes None and workbench.full_game fills it.
    power = _captured(monkeypatch, "store_power")
    assert main(["power-curve", "blades/blades_sample", "--option", "game=full"]) == 0
    assert power["args"][0] == FULL_GAME_DEFAULTS.games_per_card
    assert power["args"][2:4] == ("greedy", FULL_GAME_DEFAULTS.power_rivals)
    assert f"{FULL_GAME_DEFAULTS.games_per_card} whole games per card" in capsys.readouterr().out
    sweep = _captured(monkeypatch, "buy_cost_sweep")
    sweep_args = ["--card", "Cathedral Engine", "--field", "buy_cost", "--values", "3,5"]
    assert main(["sweep", "blades/blades_sample", "--option", "game=full", *sweep_args]) == 0
    assert sweep["args"][2] == FULL_GAME_DEFAULTS.games_per_value
    capsys.readouterr()


def test_the_tournament_counts_keep_their_own_defaults() -> None:
    from workbench.cli import _parser, _tournament_counts
    from workbench.power_defaults import POWER_CURVE_DEFAULTS

    commands = (
        ["power-curve", "x"],
        ["sweep", "x", "--card", "c", "--field", "f", "--values", "1"],
        ["report", "x", "--out", "r.html"],
    )
    for command in commands:
        args = _parser().parse_args(command)
        assert args.matches_per_card is None  # None until the command knows whether it plays whole games
        _tournament_counts(args)
        assert args.matches_per_card == POWER_CURVE_DEFAULTS.matches_per_card
        assert getattr(args, "matches", POWER_CURVE_DEFAULTS.matches_per_pair) == POWER_CURVE_DEFAULTS.matches_per_pair


def test_power_reports_every_game_it_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, int]] = []
    power = full_game_power(SAMPLE, SMALL, 1, 3, progress=lambda done, total: calls.append((done, total)))
    stores = len(store_cards_of(SAMPLE, SMALL))
    assert len(power.rows) == stores
    assert calls[-1] == (stores + 1, stores + 1) and len(calls) == stores + 1
    assert power.meta["policies"] == ["greedy", "random"]
    assert power.frame()["sign"].isin(["above 0", "below 0", "within noise"]).all()


def test_a_sweep_plays_the_same_seeds_at_each_buy_cost_and_says_where_it_stops() -> None:
    calls: list[tuple[int, int]] = []
    sweep = full_game_sweep(
        SAMPLE, SMALL, "Cathedral Engine", [0, 100], 2, 1, progress=lambda d, t: calls.append((d, t))
    )
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert sweep.rows[-1]["bought_per_game"] == 0
    assert sweep.stops_at() in (0, 100)
    assert sweep.json()["field"] == "buy_cost" and sweep.json()["card"] == "Cathedral Engine"


def test_simulate_refuses_whole_games_instead_of_playing_a_tournament() -> None:
    from workbench.decklists import parse_decklist

    deck_path = bundled_decks("blades")[0]
    deck = parse_decklist(deck_path.read_text(encoding="utf-8"), SAMPLE, name=deck_path.stem)
    with pytest.raises(WorkbenchInputError, match="game=full plays whole games") as caught:
        simulate(SAMPLE, deck, matches=1, run=RunSettings(options={"game": "full"}))
    assert "workbench.full_game.run_full_games" in str(caught.value.expected)
