"""workbench.full_game: the one entry the command line, the app and the reports call for whole games (game=full).

Small games throughout (two seats, two actions a timer segment) so each test runs in seconds; the rules of the whole
game are tested in tests/rulesets/blades/test_blades_market.py.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from workbench.cards import CardSet, WorkbenchInputError
from workbench.cli import SCHEMA_VERSION, main
from workbench.full_game import (
    FULL_GAME_DEFAULTS,
    NO_INTERVAL,
    RARELY_BOUGHT,
    FullGamePower,
    full_game_power,
    full_game_sweep,
    interval,
    is_full_game,
    judge_power,
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
    assert printed.pop("schema_version") == SCHEMA_VERSION  # every JSON output's first field (docs/cli.md)
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


def test_the_power_curve_s_rivals_are_random_for_greedy_greedy_for_search_else_the_same_policy() -> None:
    # Search rivals would each play their own clashes, for a difference that moves only by chance.
    assert FULL_GAME_DEFAULTS.rivals_for_power("greedy") == FULL_GAME_DEFAULTS.power_rivals == "random"
    assert FULL_GAME_DEFAULTS.rivals_for_power("search") == "greedy"
    assert FULL_GAME_DEFAULTS.rivals_for_power("random") == "random"


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


# ---- verdicts on the buy-cost axis (DESIGN section 5: a verdict needs a measurement) ----------------------------


def _row(card: str, buy_cost: int, power: float, half: float, bought: float, bought_any: float) -> dict[str, Any]:
    return {
        "card": card,
        "set": f"set {buy_cost}",
        "buy_cost": buy_cost,
        "stars": 3,
        "power": power,
        "low": power - half,
        "high": power + half,
        "bought": bought,
        "bought_any": bought_any,
    }


def test_verdicts_use_the_tournament_curve_s_line_and_bands_and_leave_rarely_bought_cards_out() -> None:
    from workbench.judging import fit_line

    # Power rising 1 VP a dollar, one card far above its band, one far below, one bought by nobody: its power
    # (planted huge) must neither be judged nor tilt the line.
    rows = [_row(f"c{cost}{d:+}", cost, cost + d, 0.3, 0.5, 0.6) for cost in (1, 2, 3, 4, 5, 6) for d in (-0.1, 0.1)]
    rows += [_row("cheap star", 2, 6.0, 0.3, 0.9, 0.9), _row("dud", 5, 1.0, 0.3, 0.4, 0.5)]
    rows += [_row("nobody's", 6, 40.0, 0.3, 0.0, 0.0), _row("rivals'", 4, -30.0, 0.3, 0.05, 0.7)]
    judged, line, tiers = judge_power(rows, 50, 0.10, "greedy", "random")
    by_card = {row["card"]: row for row in judged}
    assert by_card["cheap star"]["flag"] == "over" and by_card["dud"]["flag"] == "under"
    assert {row["flag"] for row in judged if row["card"][1:2].isdigit()} == {"on curve"}
    for name in ("nobody's", "rivals'"):
        assert by_card[name]["flag"] == RARELY_BOUGHT and by_card[name]["suggested_buy_cost"] is None
    assert by_card["nobody's"]["reason"].startswith("bought by no seat in the 50 games with its copies in the store")
    assert "no verdict" in by_card["nobody's"]["reason"]
    assert by_card["rivals'"]["reason"].startswith(
        "bought by seat A (greedy) in 5.0% of the 50 games with its copies in the store (2 games), by any seat in 70%"
    )
    # The line is analysis.py's Theil-Sen fit over the judged cards alone.
    import pandas as pd

    kept = pd.DataFrame([r for r in rows if r["card"] not in ("nobody's", "rivals'")]).rename(
        columns={"buy_cost": "cost"}
    )
    fitted = fit_line(kept["cost"].to_numpy(dtype=float), kept["power"].to_numpy(dtype=float))
    assert (line["intercept"], line["slope"], line["slope_low"], line["slope_high"]) == pytest.approx(
        (fitted.intercept, fitted.slope, fitted.slope_low, fitted.slope_high)
    )
    assert line["rises"] and line["slope"] == pytest.approx(1.0)
    # Where the line rises, a flagged card's reason says where the line meets its power; as the whole game cannot
    # measure the card again at that cost, no buy cost is suggested.
    assert by_card["cheap star"]["suggested_buy_cost"] is None
    assert "the line meets its power at buy cost 6, not measured at that cost" in by_card["cheap star"]["reason"]
    assert "bought by seat A in 90% of the 50 games" in by_card["cheap star"]["reason"]
    assert sum(tier["cards"] for tier in tiers) == 14
    power = FullGamePower({"policies": ["greedy", "random"], "min_buy_share": 0.1}, judged, line, tiers)
    assert power.line_statement().startswith("Power rises with buy cost: +1.000 VP per dollar")


def test_the_line_statement_names_the_band_the_cards_were_judged_against() -> None:
    # A slope above 0 whose interval includes 0 does not rise: each card is set against the other cards of its buy
    # cost, and a card alone at its buy cost has no comparator (workbench.judging).
    rows = [_row("a", 3, 0.0, 2.0, 0.5, 0.5), _row("b", 4, 3.0, 2.0, 0.5, 0.5), _row("c", 5, 1.0, 2.0, 0.5, 0.5)]
    judged, line, tiers = judge_power(rows, 50, 0.10, "greedy", "random")
    assert line["slope"] > 0 and not line["rises"]
    meta = {"policies": ["greedy", "random"], "min_buy_share": 0.1}
    statement = FullGamePower(meta, judged, line, tiers).line_statement()
    assert "judged against the mean power of the other judged cards of the same buy cost" in statement
    assert all(row["flag"] == "no comparator" for row in judged)
    assert all("no other judged card costs" in row["reason"] for row in judged)
    falling = [_row("a", 3, 3.0, 2.0, 0.5, 0.5), _row("b", 4, 0.0, 2.0, 0.5, 0.5), _row("c", 5, -1.0, 2.0, 0.5, 0.5)]
    judged, line, tiers = judge_power(falling, 50, 0.10, "greedy", "random")
    statement = FullGamePower(meta, judged, line, tiers).line_statement()
    assert "judged against the mean power of the other judged cards of the same buy cost" in statement


def test_one_game_per_card_gives_no_interval_and_no_verdict() -> None:
    rows = [_row("a", 3, 1.0, math.nan, 0.5, 0.5), _row("b", 4, 2.0, math.nan, 0.5, 0.5)]
    judged, _, _ = judge_power(rows, 1, 0.10, "greedy", "random")
    assert [row["flag"] for row in judged] == [NO_INTERVAL, NO_INTERVAL]
    power = FullGamePower({"policies": ["greedy", "random"], "min_buy_share": 0.1}, judged)
    assert "One game per card gives no 95% interval" in " ".join(power.statements())
    printed = json.loads(json.dumps(power.json(), allow_nan=False))
    assert [(card["low"], card["high"]) for card in printed["cards"]] == [(None, None), (None, None)]


def test_the_threshold_is_a_share_below_one() -> None:
    for bad in (-0.1, 1, 1.5, True):
        with pytest.raises(WorkbenchInputError, match="bought-share threshold"):
            full_game_power(SAMPLE, SMALL, 2, 0, min_buy_share=bad)


def test_power_curve_json_carries_each_card_s_flag_and_reason_the_line_and_the_tiers(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import workbench.rulesets.blades.market_runs as runner

    rows = [_row(f"c{cost}", cost, float(cost), 0.3, 0.5, 0.6) for cost in (3, 4, 5, 6)]
    rows.append(_row("nobody's", 6, 9.0, 0.3, 0.0, 0.0))
    monkeypatch.setattr(runner, "store_power", lambda *args: [dict(row) for row in rows])
    assert main(["power-curve", "blades/blades_sample", "--option", "game=full", "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["cost_axis"] == "buy cost" and printed["min_buy_share"] == FULL_GAME_DEFAULTS.min_buy_share
    assert set(printed["line"]) == {"intercept", "slope", "slope_low", "slope_high", "rises"}
    assert set(printed["tiers"][0]) == {"buy_cost", "cards", "mean_power", "low", "high"}
    assert printed["statements"][1].startswith("1 of 5 store cards were bought by seat A (greedy) in fewer than 10%")
    keys = {"card", "set", "buy_cost", "stars", "power", "low", "high", "bought", "bought_any", "flag"}
    for card in printed["cards"]:
        assert set(card) == keys | {"suggested_buy_cost", "stability", "q_value", "reason"}
    assert [card["flag"] for card in printed["cards"]][-1] == RARELY_BOUGHT
    assert {card["flag"] for card in printed["cards"][:4]} <= {"on curve", "undecided", "no comparator"}
    assert main(["power-curve", "blades/blades_sample", "--option", "game=full"]) == 0
    text = capsys.readouterr().out
    assert "rarely bought" in text and "  nobody's: rarely bought: bought by no seat in the 50 games" in text


def _planted(tmp_path: Path, buy_cost: int) -> CardSet:
    """The bundled set's Lantern Alley and Tidebreaker Tactics stores (a short store keeps the test quick) and a
    planted set: Golden Ticket (10 stars) and Tin Ticket (1 star), four copies each, at `buy_cost`."""
    from workbench.paths import bundled_sets

    dropped = (",Core Set,", ",Clockwork Cathedral,", ",Umbral Conclave,")
    lines = [line for line in bundled_sets("blades")[0].read_text(encoding="utf-8").splitlines()]
    lines = [line for line in lines if not any(name in line for name in dropped)]
    lines += [
        f"Golden Ticket,single,Prize Vault,expansion,10,Dark,Fiend,Ultra Rare,4,{buy_cost},Play: Gain 2 RP.,"
        "Play: gain 2 RP",
        f"Tin Ticket,single,Prize Vault,expansion,1,Light,Citizen,Common,4,{buy_cost},Play: Gain 2 RP.,Play: gain 2 RP",
    ]
    path = tmp_path / f"planted_{buy_cost}.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_cardset(path)


def test_a_planted_over_cheap_card_is_flagged_over_and_a_card_nobody_buys_reads_rarely_bought(
    tmp_path: Path,
) -> None:
    # Two seats under the 3-5 player rules with the full 12 actions a segment: room for the market to matter.
    options: dict[str, int | str] = {"players": 2, "two_player_rules": "normal"}
    free = {row["card"]: row for row in full_game_power(_planted(tmp_path, 0), options, 12, 0).rows}
    golden = free["Golden Ticket"]
    # A 10-star card for nothing: bought in most games, and its interval lies wholly above its buy cost's band.
    assert golden["bought"] > 0.5 and golden["flag"] == "over", golden
    assert "lies above" in golden["reason"] and "more than the tolerance" in golden["reason"]
    # At a buy cost no seat can pay ($30 income a round), nobody buys it: rarely bought, whatever its power reads.
    dear = {row["card"]: row for row in full_game_power(_planted(tmp_path, 100), options, 12, 0).rows}
    for name in ("Golden Ticket", "Tin Ticket"):
        assert dear[name]["bought_any"] == 0 and dear[name]["flag"] == RARELY_BOUGHT
        assert dear[name]["suggested_buy_cost"] is None
        assert dear[name]["reason"].startswith("bought by no seat in the 12 games with its copies in the store")
    assert golden["power"] > dear["Golden Ticket"]["power"]


def test_min_buy_share_0_judges_every_card_and_a_share_out_of_range_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import workbench.rulesets.blades.market_runs as runner
    from workbench.cli import EXIT_USAGE

    rows = [_row(f"c{cost}", cost, float(cost), 0.3, 0.0, 0.0) for cost in (3, 4, 5)]
    monkeypatch.setattr(runner, "store_power", lambda *args: [dict(row) for row in rows])
    argv = ["power-curve", "blades/blades_sample", "--option", "game=full", "--format", "json"]
    assert main([*argv, "--min-buy-share", "0"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["min_buy_share"] == 0 and RARELY_BOUGHT not in {card["flag"] for card in printed["cards"]}
    assert main([*argv, "--min-buy-share", "5%"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["min_buy_share"] == 0.05 and {card["flag"] for card in printed["cards"]} == {RARELY_BOUGHT}
    assert main([*argv, "--min-buy-share", "150%"]) == EXIT_USAGE
    assert "is not a bought share" in capsys.readouterr().err


def test_whole_games_on_worker_processes_are_the_games_one_process_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    # Pieces of two games on two workers, from the first game on: the power curve's runs (one store with every card,
    # one without each) and a plain run give the same figures, game for game, as one process does.
    from workbench.rulesets.blades import market_runs

    monkeypatch.setattr(market_runs, "PARALLEL_GAMES", 1)
    monkeypatch.setattr(market_runs, "PIECE_GAMES", 2)
    calls: list[tuple[int, int]] = []
    parallel = full_game_power(SAMPLE, SMALL, 5, 3, workers=2, progress=lambda d, t: calls.append((d, t)))
    alone = full_game_power(SAMPLE, SMALL, 5, 3, workers=1)
    assert parallel.json() == alone.json()
    stores = len(store_cards_of(SAMPLE, SMALL))
    assert calls[0] == (0, 5 * (stores + 1)) and calls[-1] == (5 * (stores + 1), 5 * (stores + 1))
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    games = run_full_games(SAMPLE, SMALL, 7, 4, workers=2)
    assert games.per_game == run_full_games(SAMPLE, SMALL, 7, 4, workers=1).per_game
    sweep = full_game_sweep(SAMPLE, SMALL, "Cathedral Engine", [0, 3], 3, 1, workers=2)
    assert sweep.rows == full_game_sweep(SAMPLE, SMALL, "Cathedral Engine", [0, 3], 3, 1, workers=1).rows


def test_a_cancelled_run_of_whole_games_on_workers_stops_and_the_next_run_plays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from workbench.rulesets.blades import market_runs

    monkeypatch.setattr(market_runs, "PARALLEL_GAMES", 1)
    monkeypatch.setattr(market_runs, "PIECE_GAMES", 1)

    class Cancelled(Exception):
        pass

    def cancel(done: int, total: int) -> None:
        if done >= 2:
            raise Cancelled

    with pytest.raises(Cancelled):
        run_full_games(SAMPLE, SMALL, 40, 4, workers=2, progress=cancel)
    assert run_full_games(SAMPLE, SMALL, 3, 4, workers=2).per_game == run_full_games(SAMPLE, SMALL, 3, 4).per_game


def test_whole_games_refuse_a_dask_executor_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["simulate", "blades/blades_sample", "--option", "game=full", "--matches", "2", "--executor", "dask-local"]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "--executor dask-local" in err and "this machine's processes only" in err
