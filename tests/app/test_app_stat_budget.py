"""Stat budget page: the ruleset's points and formula line, cards with findings marked, a card opens in the editor."""

from __future__ import annotations

from dataclasses import replace

import pytest
from app.app_helpers import (
    DATA,
    SOULS_SMALL,
    chart_figure,
    first_bundled,
    go,
    grid_key,
    new_app,
    open_bundled,
    plotly_charts,
    shown_text,
    upload_cardset,
    workspace,
)
from toy_engine import TOY

from workbench.app import CARD_EDITOR, STAT_BUDGET
from workbench.app.workspace import current_cardset
from workbench.rulesets import RULESETS, get_ruleset


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_each_bundled_set_draws_its_rulesets_points_and_line(ruleset_id: str) -> None:
    path = first_bundled(ruleset_id)
    assert path is not None, f"cardsets/{ruleset_id} has no sample set"
    at = go(open_bundled(new_app(), path), STAT_BUDGET)
    ruleset = get_ruleset(ruleset_id)
    if ruleset.stat_budget is None:
        assert "has no stat budget chart yet" in shown_text(at)
        return
    budget = ruleset.stat_budget(current_cardset(workspace(at)), ruleset.resolve_options())
    figure = chart_figure(at)
    drawn = [row[0] for trace in figure["data"][1:] if trace["name"] != "has findings" for row in trace["customdata"]]
    assert sorted(drawn) == sorted(point.card for point in budget.points)
    assert figure["data"][0]["name"] == budget.line_label
    assert len(at.dataframe[0].value) == len(budget.points)
    # A card the formula gives no figure for (a souls spell, a SOURCE token) shows "—", not Streamlit's "None".
    assert at.dataframe[0].proto.placeholder == "—"
    assert at.dataframe[0].value["formula allows"].isna().sum() == sum(p.expected_budget is None for p in budget.points)


def test_a_card_with_a_finding_is_ringed_and_counted() -> None:
    at = upload_cardset(new_app(), SOULS_SMALL)
    at = go(at, CARD_EDITOR)
    at.session_state[grid_key(at)] = {"edited_rows": {1: {"def": "9"}}, "added_rows": [], "deleted_rows": []}
    at.run()
    at = go(at, STAT_BUDGET)
    figure = chart_figure(at)
    monsters = next(trace for trace in figure["data"] if trace["name"] == "monster")
    lurker = [row[0] for row in monsters["customdata"]].index("Marsh Lurker")
    assert monsters["customdata"][lurker][4] == "warning"
    rings = next(trace for trace in figure["data"] if trace["name"] == "has findings")
    assert [row[0] for row in rings["customdata"]] == ["Marsh Lurker"] and rings["marker"]["color"] == ["#ff7f0e"]
    table = at.dataframe[0].value
    assert int(table.loc[table["card"] == "Marsh Lurker", "findings"].iloc[0]) == 1


def test_opening_a_card_from_the_chart_page_shows_it_in_the_editor() -> None:
    at = go(upload_cardset(new_app(), SOULS_SMALL), STAT_BUDGET)
    at.selectbox[0].set_value("row 7 · Bog Wraith")
    at.button[0].click()
    at.run()
    assert at.title[0].value == "Card editor"
    assert at.selectbox(key=f"card_pick:{workspace(at).uid}").value == 5
    assert "Bog Wraith" in at.html[0].value


def test_a_ruleset_without_a_stat_budget_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(RULESETS, "toy", replace(TOY, stat_budget=None))
    at = upload_cardset(new_app(), DATA / "toy_cards.csv", ruleset="toy")
    assert workspace(at).ruleset_id == "toy"
    at = go(at, STAT_BUDGET)
    assert "has no stat budget chart yet" in shown_text(at)
    assert not plotly_charts(at)
