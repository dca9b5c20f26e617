"""Balance page with Millennium Blades' rule option game=full: the same page plays whole games, no decklist needed.

Games here are kept small (two seats, two actions a timer segment, a few games) so the page runs in seconds; the
figures are checked against `workbench.full_game`, the entry the command line calls too.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from app.app_helpers import (
    chart_figure,
    first_bundled,
    go,
    new_app,
    open_bundled,
    plotly_charts,
    shown_text,
)
from streamlit.testing.v1 import AppTest

from workbench.app import BALANCE
from workbench.app.full_game_view import POWER_TAB, SECTION_KEY, SWEEP_TAB
from workbench.full_game import FULL_GAME_DEFAULTS, FullGamePower, FullGames, FullGameSweep, run_full_games
from workbench.loading import load_cardset

TIMEOUT = 900
"""A first run may compile the tournament engine's kernels (cached on disk afterwards)."""
# Two seats under the 3-5 player rules (two_player_rules=normal): every game plays all three rounds, with every part.
SMALL: dict[str, int | str] = {"players": 2, "market_actions": 2, "two_player_rules": "normal"}
"""Two seats and two actions a timer segment: a whole game in a fraction of a second."""


def _kept(at: AppTest, kind: type) -> list[Any]:
    return [r for r in at.session_state["simulation_results"].values() if isinstance(r, kind)]


def _blades_balance(full: bool = True) -> AppTest:
    path = first_bundled("blades")
    assert path is not None
    at = go(open_bundled(new_app(timeout=TIMEOUT), path), BALANCE)
    if full:
        at.selectbox(key="option:balance:blades:game").set_value("full")
        at.run()
        for key, value in SMALL.items():
            widget = f"option:balance:blades:{key}"
            if isinstance(value, str):
                at.selectbox(key=widget).set_value(value)
            else:
                at.number_input(key=widget).set_value(value)
            at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _tab(at: AppTest, tab: str) -> AppTest:
    at.session_state[SECTION_KEY] = tab
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_blades_balance_offers_whole_games_only_when_the_option_says_full() -> None:
    at = _blades_balance(full=False)
    assert at.button(key="balance_run") is not None  # the tournament's simulation, decks against decks
    assert not [b for b in at.button if b.key == "balance_full_run"]
    at.selectbox(key="option:balance:blades:game").set_value("full")
    at.run()
    assert [b for b in at.button if b.key == "balance_full_run"]
    assert not [b for b in at.button if b.key == "balance_run"]
    assert at.number_input(key="balance_full_games").value == FULL_GAME_DEFAULTS.games
    text = shown_text(at)
    assert "whole games from the card sheet alone" in text
    assert "The power table lists verdicts first" not in text  # no page-script docstring written by Streamlit magic


def test_blades_whole_games_show_vp_parts_per_seat_and_round_with_seeds_and_provenance() -> None:
    at = _blades_balance()
    at.number_input(key="balance_full_games").set_value(4)
    at.number_input(key="balance_full_seed").set_value(5)
    at.run()
    at.button(key="balance_full_run").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    kept = _kept(at, FullGames)
    assert len(kept) == 1
    games = kept[0]
    assert games.meta["matches"] == 4 and games.meta["seed"] == 5 and games.meta["options"]["game"] == "full"
    # The page's figures are the Python API's for the same set, options and seed.
    path = first_bundled("blades")
    assert path is not None
    same = run_full_games(load_cardset(path), SMALL, 4, 5)
    assert [s["total"] for s in games.summary["seats"]] == [s["total"] for s in same.summary["seats"]]
    text = shown_text(at)
    assert "SeedSequence(5).spawn(4)[k]" in text
    assert "market v" in text and "game=full" in text and "4 whole games" in text
    seats = next(frame.value for frame in at.dataframe if "total 95%" in frame.value.columns)
    assert seats["seat"].tolist() == ["A", "B"]
    parts = seats["tournament"] + seats["collections"] + seats["money"] + seats["friendship"]
    assert parts.tolist() == pytest.approx(seats["total"].tolist())
    rounds = next(frame.value for frame in at.dataframe if "tournament_low" in frame.value.columns)
    assert rounds["round"].tolist() == ["R1", "R2", "R3"] * 2
    assert (rounds["tournament_low"] <= rounds["tournament"]).all()
    figure = chart_figure(at, 0)
    assert [trace["name"] for trace in figure["data"]] == ["total", "tournament", "collections", "money", "friendship"]
    assert figure["data"][0]["y"] == pytest.approx(seats["total"].tolist())
    assert len(plotly_charts(at)) == 2
    store = next(frame.value for frame in at.dataframe if "value_per_dollar" in frame.value.columns)
    assert store["buy_cost"].tolist() == sorted(store["buy_cost"].tolist())
    prepare = [b for b in at.button if re.fullmatch(r"balance_full_report_\w+_prepare", b.key or "")]
    assert [b.label for b in prepare][:2] == ["Prepare balance report (HTML)", "Prepare balance report (XLSX)"]
    prepare[0].click()
    at.run()
    assert [getattr(b, "label", None) for b in at.get("download_button")][:1] == ["Download balance report (HTML)"]
    at.run()  # kept: shown again without playing
    assert "Done in" not in shown_text(at) and len(plotly_charts(at)) == 2


def test_blades_power_tab_draws_power_on_buy_cost_with_intervals() -> None:
    at = _tab(_blades_balance(), POWER_TAB)
    assert at.selectbox(key="balance_full_rivals").value == FULL_GAME_DEFAULTS.rivals_for_power("greedy")
    assert at.number_input(key="balance_full_power_games").value == FULL_GAME_DEFAULTS.games_per_card
    at.number_input(key="balance_full_power_games").set_value(2)
    at.run()
    at.button(key="balance_full_power_run").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    kept = _kept(at, FullGamePower)
    assert len(kept) == 1 and kept[0].meta["policies"] == ["greedy", "random"]
    table = next(frame.value for frame in at.dataframe if "sign" in frame.value.columns)
    assert table["buy_cost"].tolist() == sorted(table["buy_cost"].tolist())
    assert (table["low"] <= table["power"]).all() and (table["power"] <= table["high"]).all()
    # Each card's verdict and its reason: the Python API's, for the same set, options and seed.
    power = kept[0]
    assert table["flag"].tolist() == [row["flag"] for row in power.rows]
    assert table["reason"].tolist() == [row["reason"] for row in power.rows]
    assert set(table["flag"]) <= {"over", "under", "on curve", "undecided", "no comparator", "rarely bought"}
    figure = chart_figure(at, 0)
    cards = [trace for trace in figure["data"] if trace.get("customdata")]
    drawn = sorted(y for trace in cards for y in trace["y"])
    assert drawn == pytest.approx(sorted(table["power"].tolist()))
    assert {trace["name"].removesuffix(" (not judged)") for trace in cards} == set(table["flag"])
    text = shown_text(at)
    assert "2 whole games per card" in text
    for statement in power.statements():
        assert statement[:60] in text


def test_blades_sweep_tab_sweeps_a_sets_buy_cost() -> None:
    at = _tab(_blades_balance(), SWEEP_TAB)
    at.selectbox(key="balance_full_sweep_card").set_value("Cathedral Engine")
    at.run()
    assert at.text_input(key="balance_full_sweep_values").value  # buy costs around the card's own
    at.text_input(key="balance_full_sweep_values").set_value("0, 100")
    at.number_input(key="balance_full_sweep_games").set_value(2)
    at.run()
    at.button(key="balance_full_sweep_run").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    kept = _kept(at, FullGameSweep)
    assert len(kept) == 1 and kept[0].card == "Cathedral Engine"
    table = next(frame.value for frame in at.dataframe if "set_bought_per_game" in frame.value.columns)
    assert table["buy_cost"].tolist() == [0, 100]
    assert table["bought_per_game"].iloc[-1] == 0  # nobody pays 100 of the $30 a round
    stop = kept[0].stops_at()
    assert stop in (0, 100)  # two actions a segment may leave it unbought even free
    assert f"Cathedral Engine was not bought from the store at a buy cost of {stop} or at any" in shown_text(at)
    assert len(plotly_charts(at)) == 1


def test_blades_sweep_tab_refuses_a_negative_buy_cost() -> None:
    at = _tab(_blades_balance(), SWEEP_TAB)
    at.text_input(key="balance_full_sweep_values").set_value("-1, 3")
    at.run()
    assert "The values cannot be swept" in shown_text(at)
    assert at.button(key="balance_full_sweep_run").disabled


def test_a_blades_set_without_decklists_is_pointed_to_whole_games() -> None:
    from app.app_helpers import upload_cardset

    path = first_bundled("blades")
    assert path is not None
    at = go(upload_cardset(new_app(timeout=TIMEOUT), path), BALANCE)  # an upload has no decks/ folder beside it
    text = shown_text(at)
    assert "Add decklists with cards on the Decks page first." in text
    assert "also plays whole games from the card sheet alone, without decklists" in text
    at.selectbox(key="option:balance:blades:game").set_value("full")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert [b for b in at.button if b.key == "balance_full_run"]
