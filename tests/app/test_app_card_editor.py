"""Card editor page: edits through the grid's session-state key fold in, findings appear and go, cards are added."""

from __future__ import annotations

import pytest
from app_helpers import SOULS_SMALL, first_bundled, go, new_app, open_bundled, shown_text, upload_cardset, workspace
from streamlit.testing.v1 import AppTest

from workbench.app import CARD_EDITOR, DECKS
from workbench.rulesets import RULESETS


def _editor_on_souls_small() -> AppTest:
    at = upload_cardset(new_app(), SOULS_SMALL)
    return go(at, CARD_EDITOR)


def _edit(at: AppTest, changes: dict[str, object]) -> AppTest:
    """Change the grid the way the browser does: through its session-state key, then rerun."""
    grid = at.data_editor[0]
    state = {"edited_rows": {}, "added_rows": [], "deleted_rows": []} | changes
    at.session_state[grid.key] = state
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _findings_table(at: AppTest):  # type: ignore[no-untyped-def]
    tables = [frame for frame in at.dataframe if "rule" in frame.value.columns]
    return tables[0].value if tables else None


def test_the_grid_shows_every_column_with_the_sheet_row_and_a_check_column() -> None:
    at = _editor_on_souls_small()
    grid = at.data_editor[0].value
    assert list(grid.columns) == ["row", "check", *workspace(at).sheet.labels]
    assert grid["row"].tolist() == list(range(2, 12))
    assert set(grid["check"]) == {"✓"}
    assert "No findings: every card fits its cost formula" in shown_text(at)


def test_an_edit_that_breaks_the_cost_formula_shows_a_finding_and_reverting_it_clears_it() -> None:
    at = _editor_on_souls_small()
    first_key = at.data_editor[0].key
    _edit(at, {"edited_rows": {0: {"atk": "9"}}})
    assert at.data_editor[0].key != first_key  # the grid restarts from the folded sheet
    assert workspace(at).sheet.frame.iat[0, 3] == "9"
    table = _findings_table(at)
    assert table is not None
    row = table.iloc[0]
    assert (row["rule"], row["card"], int(row["row"]), row["column"]) == (
        "souls.soul_cost",
        "Ember Imp",
        2,
        "soul_cost",
    )
    assert (row["expected"], row["actual"]) == ("2", "0")
    assert at.data_editor[0].value["check"].tolist()[0] == "⚠1"
    preview = at.html[0].value
    assert "Ember Imp" in preview and "souls.soul_cost" in preview and "(expected 2, got 0)" in preview
    _edit(at, {"edited_rows": {0: {"atk": "3"}}})
    assert _findings_table(at) is None
    assert "No findings: every card fits its cost formula" in shown_text(at)


def test_text_in_a_number_cell_is_an_error_on_that_cell() -> None:
    at = _editor_on_souls_small()
    _edit(at, {"edited_rows": {5: {"def": "lots"}}})
    row = _findings_table(at).iloc[0]  # type: ignore[union-attr]
    assert (row["rule"], row["card"], int(row["row"]), row["column"], row["actual"]) == (
        "souls.cell_value",
        "Bog Wraith",
        7,
        "def",
        "lots",
    )
    assert "✖ 1 error" in shown_text(at)


def test_rows_added_and_deleted_in_the_grid_renumber_the_findings() -> None:
    at = _editor_on_souls_small()
    _edit(
        at,
        {
            "deleted_rows": [0],
            "added_rows": [{"name": "Newt", "kind": "monster", "soul_cost": "1", "atk": "1", "def": "1"}],
        },
    )
    frame = workspace(at).sheet.frame
    assert len(frame) == 10 and frame["name"].tolist()[0] == "Marsh Lurker" and frame["name"].tolist()[-1] == "Newt"
    row = _findings_table(at).iloc[0]  # type: ignore[union-attr]
    assert (row["rule"], row["card"], int(row["row"])) == ("souls.soul_cost", "Newt", 11)


def test_add_duplicate_and_delete_buttons() -> None:
    at = _editor_on_souls_small()
    next(b for b in at.button if b.label == "Add card").click()
    at.run()
    frame = workspace(at).sheet.frame
    assert len(frame) == 11 and frame["name"].tolist()[-1] == "New card"
    assert at.selectbox(key=f"card_pick:{workspace(at).uid}").value == 10  # the new card is shown
    assert {int(r) for r in _findings_table(at)["row"]} == {12}  # type: ignore[index]
    next(b for b in at.button if b.label == "Duplicate").click()
    at.run()
    assert workspace(at).sheet.frame["name"].tolist()[-1] == "New card (copy)"
    next(b for b in at.button if b.label == "Delete").click()
    at.run()
    next(b for b in at.button if b.label == "Delete").click()
    at.run()
    assert workspace(at).sheet.frame["name"].tolist() == [
        "Ember Imp",
        "Marsh Lurker",
        "Cinder Hound",
        "Stone Warden",
        "Gale Archer",
        "Bog Wraith",
        "Iron Colossus",
        "Ancient Drake",
        "Healing Rain",
        "Snare Pit",
    ]  # each Delete removed the card shown: the copy, then the new card


def test_edits_survive_leaving_the_page_and_coming_back() -> None:
    at = _editor_on_souls_small()
    _edit(at, {"edited_rows": {2: {"text": "Burns twice."}}})
    go(at, DECKS)
    go(at, CARD_EDITOR)
    assert at.data_editor[0].value["text"].tolist()[2] == "Burns twice."


def test_the_preview_follows_the_card_picked_and_escapes_its_text() -> None:
    at = _editor_on_souls_small()
    _edit(at, {"edited_rows": {3: {"name": "<i>Stone</i> Warden"}}})
    at.selectbox(key=f"card_pick:{workspace(at).uid}").set_value(3)
    at.run()
    preview = at.html[0].value
    assert "&lt;i&gt;Stone&lt;/i&gt; Warden" in preview and "<i>Stone</i>" not in preview
    assert "row 5" in preview


def test_the_save_button_is_offered() -> None:
    at = _editor_on_souls_small()
    assert [button.label for button in at.download_button] == ["Save as xlsx"]


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_the_editor_draws_each_bundled_set(ruleset_id: str) -> None:
    path = first_bundled(ruleset_id)
    assert path is not None, f"cardsets/{ruleset_id} has no sample set"
    at = go(open_bundled(new_app(), path), CARD_EDITOR)
    assert len(at.data_editor[0].value) == len(workspace(at).sheet.frame)
    assert at.html and 'data-testid="card-preview"' in at.html[0].value


def test_columns_the_sheet_lacks_can_be_added_and_filled() -> None:
    at = upload_cardset(new_app(), data=b"name,kind,text\nImp,monster,hot\n", name="plain.csv", ruleset="souls")
    at = go(at, CARD_EDITOR)
    assert {row for row in _findings_table(at)["column"]} == {"soul_cost", "atk", "def"}  # type: ignore[index]
    at.multiselect(key=f"add_columns:{workspace(at).uid}").set_value(["soul_cost", "atk", "def"])
    at.run()
    at.button(key="add_columns_button").click()
    at.run()
    assert workspace(at).sheet.headers == ["name", "kind", "text", "soul_cost", "atk", "def"]
    _edit(at, {"edited_rows": {0: {"soul_cost": "0", "atk": "3", "def": "2"}}})
    assert _findings_table(at) is None


def test_a_sheet_with_its_own_row_and_check_columns_keeps_them_editable() -> None:
    data = b"name,kind,soul_cost,atk,def,row,check\nImp,monster,0,3,2,r1,ok\n"
    at = go(upload_cardset(new_app(), data=data, name="own.csv"), CARD_EDITOR)
    assert list(at.data_editor[0].value.columns) == [
        "row (app)",
        "check (app)",
        "name",
        "kind",
        "soul_cost",
        "atk",
        "def",
        "row",
        "check",
    ]
    _edit(at, {"edited_rows": {0: {"check": "done", "check (app)": "ignored"}}})
    assert workspace(at).sheet.frame.iloc[0].tolist()[-2:] == ["r1", "done"]
