"""Balance page: written over the registry; a game's engine appears without page changes; runs are kept per settings."""

from __future__ import annotations

from dataclasses import replace

import pytest
from app_helpers import (
    DATA,
    chart_figure,
    first_bundled,
    go,
    new_app,
    open_bundled,
    plotly_charts,
    ruleset_with_engine_and_decks,
    shown_text,
    upload_cardset,
    workspace,
)
from streamlit.testing.v1 import AppTest
from toy_engine import TOY

from workbench.app import BALANCE, DECKS
from workbench.rulesets import RULESETS

REFERENCE = "6 Filler\n2 Cheap\n2 Mid\n2 Big"
OTHER = "4 Filler\n4 Cheap\n4 Dud"
REAL_ENGINE_TIMEOUT = 900
"""A first run compiles the engine's kernels with Numba (cached on disk afterwards)."""


def _toy_balance(monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setitem(RULESETS, "toy", TOY)
    at = upload_cardset(new_app(), DATA / "toy_cards.csv", ruleset="toy")
    go(at, DECKS)
    for name, text in (("reference", REFERENCE), ("other", OTHER)):
        at.text_input(key="deck_paste_name").set_value(name)
        at.text_area(key="deck_paste_text").set_value(text)
        at.run()
        at.button(key="deck_add_pasted").click()
        at.run()
    return go(at, BALANCE)


def _run(at: AppTest, matches: int = 200, per_card: int = 60, timeout: float | None = None) -> AppTest:
    at.number_input(key="balance_matches").set_value(matches)
    at.number_input(key="balance_per_card").set_value(per_card)
    at.run()
    at.button(key="balance_run").click()
    at.run(timeout=timeout)
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_ruleset_without_an_engine_says_so_on_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(RULESETS, "toy", replace(TOY, engine_module=None))
    at = go(upload_cardset(new_app(), DATA / "toy_cards.csv", ruleset="toy"), BALANCE)
    assert "has no match engine yet, so its cards cannot be simulated" in shown_text(at)
    assert not [b for b in at.button if b.label == "Run simulation"]


def test_a_ruleset_whose_engine_lands_is_simulated_without_page_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _run(_toy_balance(monkeypatch))
    assert at.multiselect(key="balance_decks").value == ["reference", "other"]
    assert [m.label for m in at.metric] == [
        "reference (A) win rate",
        "First player's win rate",
        "Draws",
        "Mean game length",
    ]
    assert "Done in" in shown_text(at)
    downloads = [element.proto.label for element in at.get("download_button")]
    assert "Download balance report (HTML)" in downloads and "Download balance report (XLSX)" in downloads
    stored = list(results_store_values(at))
    assert len(stored) == 1
    results = stored[0]
    assert results.match.meta["matches"] == 200 and results.curve is not None and results.matchups is not None
    assert at.metric[0].value == f"{results.match.win_rate_a.value:.1%}"
    assert len(plotly_charts(at)) == 4  # first-player bars, game lengths, power curve, matchup heatmap
    curve = chart_figure(at, 2)
    drawn = {
        row[0]
        for trace in curve["data"]
        if trace.get("name") in ("over", "under", "on curve")
        for row in trace["customdata"]
    }
    assert drawn == set(results.curve.cards["card"])
    assert at.code[0].value.startswith("# toy 1 (engine 1), seed 0, A = reference (greedy), B = other (greedy)")
    assert workspace(at).ruleset_id == "toy"


def results_store_values(at: AppTest):  # type: ignore[no-untyped-def]
    return at.session_state["simulation_results"].values()


def test_results_are_kept_per_settings_and_a_changed_option_needs_a_new_run(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _run(_toy_balance(monkeypatch))
    at.run()  # a plain rerun shows the kept results without simulating again
    assert at.metric and "Done in" not in shown_text(at)
    at.toggle(key="option:balance:toy:first_player_bonus").set_value(False)
    at.run()
    assert not at.metric and "1 earlier result(s) from other settings are kept" in shown_text(at)
    assert at.session_state["rule_options"] == {"toy": {"first_player_bonus": False}}
    at.button(key="balance_run").click()
    at.run()
    stored = list(results_store_values(at))
    assert [r.options["first_player_bonus"] for r in stored] == [True, False]
    at.toggle(key="option:balance:toy:first_player_bonus").set_value(True)
    at.run()
    assert at.metric  # back to the first settings: its results show at once


def test_a_seeded_run_is_reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    first = list(results_store_values(_run(_toy_balance(monkeypatch))))[0]
    second = list(results_store_values(_run(_toy_balance(monkeypatch))))[0]
    assert first.match.matches.equals(second.match.matches)
    assert first.curve.cards.equals(second.curve.cards)


def test_a_real_engine_runs_a_small_simulation_of_its_bundled_decks() -> None:
    ruleset_id = ruleset_with_engine_and_decks()
    assert ruleset_id is not None, "no registered ruleset has a match engine and two bundled decks"
    path = first_bundled(ruleset_id)
    assert path is not None
    at = go(open_bundled(new_app(timeout=REAL_ENGINE_TIMEOUT), path), BALANCE)
    at = _run(at, matches=100, per_card=20, timeout=REAL_ENGINE_TIMEOUT)
    results = list(results_store_values(at))[0]
    assert results.match.meta["ruleset"] == ruleset_id and len(results.match.matches) == 100
    assert results.curve is not None and not results.curve.cards.empty
    assert at.code[0].value.startswith(f"# {ruleset_id} ")
    assert len(plotly_charts(at)) == 4


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_the_balance_page_draws_for_each_bundled_set(ruleset_id: str) -> None:
    path = first_bundled(ruleset_id)
    assert path is not None, f"cardsets/{ruleset_id} has no sample set"
    at = go(open_bundled(new_app(), path), BALANCE)
    if RULESETS[ruleset_id].engine_module is None:
        assert "has no match engine yet" in shown_text(at)
    else:
        assert at.button(key="balance_run") is not None
        assert at.multiselect(key="balance_decks").value == list(workspace(at).decks)[:2]
        assert at.selectbox(key="balance_policy_a").options[0] == RULESETS[ruleset_id].engine.policies[0]  # type: ignore[union-attr]


def test_one_sessions_results_are_not_seen_by_another(monkeypatch: pytest.MonkeyPatch) -> None:
    first = _run(_toy_balance(monkeypatch))
    assert len(list(results_store_values(first))) == 1
    second = _toy_balance(monkeypatch)
    assert not second.session_state["simulation_results"]
    assert not second.metric and "Press Run simulation." in shown_text(second)
    assert workspace(second) is not workspace(first)
