"""Stat budget page, *What each stat is worth in play*: settings with their limits, Run with progress, the measured
rates beside the document's formula, each attribute's curve, the statements in words; a game the designed
experiment does not cover says why instead of offering Run."""

from __future__ import annotations

import pytest
from app.app_helpers import chart_figure, first_bundled, go, new_app, open_bundled, plotly_charts, shown_text
from streamlit.testing.v1 import AppTest

from workbench.app import STAT_BUDGET
from workbench.app.workspace import RESULTS_KEY
from workbench.limits import limit
from workbench.stat_values import DESIGNS, StatValues


def _souls_values_page() -> AppTest:
    path = first_bundled("souls")
    assert path is not None
    at = go(open_bundled(new_app(), path), STAT_BUDGET)
    at.number_input(key="stat_values_cards").set_value(12)
    at.number_input(key="stat_values_matches").set_value(80)
    at.number_input(key="stat_values_seed").set_value(3)
    at.run()
    return at


def test_a_run_on_ashfall_shows_the_rates_beside_the_formula_the_curves_and_the_statements() -> None:
    at = _souls_values_page()
    assert "Press Run to measure what each stat is worth in play." in shown_text(at)
    charts_before = len(plotly_charts(at))
    at.button(key="stat_values_run").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    text = shown_text(at)
    assert "Done in" in text and "The document's formula:" in text and "soul-cost table" in text
    kept = [v for v in at.session_state[RESULTS_KEY].values() if isinstance(v, StatValues)]
    assert len(kept) == 1
    values = kept[0]
    assert values.meta["design_cards"] == 12 and values.meta["seed"] == 3
    # The rates table: one row per attribute of the fit, measured and charged side by side.
    rates = next(frame.value for frame in at.dataframe if "score per step" in frame.value.columns)
    assert list(rates["attribute"]) == list(values.rates["attribute"])
    assert "formula charges (souls)" in rates.columns and "souls in play" in rates.columns
    atk = rates.set_index("attribute").loc["Atk"]
    assert atk["low"] <= atk["score per step"] <= atk["high"]
    # The statements in words, each as the result says it.
    for statement in values.statements:
        assert statement.split(":")[0] in text
    # The curves: one panel per attribute, each level with its interval, beside the straight fit.
    assert len(plotly_charts(at)) == charts_before + 1
    figure = chart_figure(at, charts_before)
    measured = [trace for trace in figure["data"] if trace["name"] == "measured, 95% interval"]
    assert len(measured) == values.curves["attribute"].nunique()
    assert all(trace["error_y"]["array"] for trace in measured)
    assert any(trace["name"] == "straight fit" for trace in figure["data"])
    # The result is kept: a rerun shows it without running again.
    at.run()
    assert "Done in" not in shown_text(at) and len(plotly_charts(at)) == charts_before + 1


def test_settings_outside_their_limits_are_said_and_keep_run_off() -> None:
    at = _souls_values_page()
    at.number_input(key="stat_values_cards").set_value(3)
    at.run()
    assert f"Design cards: 3 is outside the limit, 8 to {limit('design_cards').value:,}." in shown_text(at)
    assert at.button(key="stat_values_run").disabled


def test_a_game_the_design_does_not_cover_says_why_instead_of_a_run_button(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every bundled game has a design (issue 34); one without (Blades' taken away here) says why and offers no Run.
    monkeypatch.delitem(DESIGNS, "blades")
    path = first_bundled("blades")
    assert path is not None
    at = go(open_bundled(new_app(), path), STAT_BUDGET)
    text = shown_text(at)
    assert "What each stat is worth in play" in text
    assert "is not measured for 'blades'" in text and "no designed experiment is written for this ruleset" in text
    assert not [button for button in at.button if button.key == "stat_values_run"]
