"""Card editor page: grid edits fold in (once), the grid keeps its key, findings appear and go, cards are added.

The data editor reports its whole state (every edit since the grid was drawn), so a test sets the state a
browser would send after each edit: the earlier edits and the new one together, under the grid's key.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from app.app_helpers import (
    SOULS_SMALL,
    first_bundled,
    go,
    grid_key,
    new_app,
    open_bundled,
    shown_text,
    upload_cardset,
    workspace,
)
from streamlit.testing.v1 import AppTest

from workbench.app import CARD_EDITOR, DECKS, VERSIONS
from workbench.rulesets import RULESETS

SOULS_SMALL_NAMES = [
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
]


def _editor_on_souls_small() -> AppTest:
    at = upload_cardset(new_app(), SOULS_SMALL)
    return go(at, CARD_EDITOR)


def _state(
    edited: dict[int, dict[str, Any]] | None = None,
    added: list[dict[str, Any]] | None = None,
    deleted: Sequence[int] = (),
) -> dict[str, Any]:
    return {"edited_rows": edited or {}, "added_rows": added or [], "deleted_rows": list(deleted)}


def _send(at: AppTest, state: dict[str, Any]) -> AppTest:
    """The grid's whole state, as the browser sends it after an edit, then a page run."""
    at.session_state[grid_key(at)] = state
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _findings_tables(at: AppTest) -> list[Any]:
    """The page's findings tables (data frames with a `rule` column): one, or none when the set has no finding."""
    return [frame.value for frame in at.dataframe if "rule" in frame.value.columns]


def _findings_table(at: AppTest) -> Any:
    tables = _findings_tables(at)
    assert tables, "the page shows no findings table"
    return tables[0]


def _names(at: AppTest) -> list[str]:
    return workspace(at).sheet.frame["name"].tolist()


def _card_shown_label(at: AppTest) -> str:
    return next(e.label for e in at.expander if e.label.startswith("Card shown"))


def _shown_position(at: AppTest) -> int:
    position = at.selectbox(key=f"card_pick:{workspace(at).uid}").value
    assert position is not None, "no card is shown"
    return int(position)


def _patch_notes(at: AppTest) -> list[str]:
    """The Compare versions page's patch notes against the set as it was opened (its default)."""
    go(at, VERSIONS)
    text = "\n".join(block.value for block in at.markdown)
    return [line[2:].replace("\\", "") for line in text.splitlines() if line.startswith("- ")]


def test_the_grid_shows_the_sheet_row_and_every_column_with_name_and_cost_pinned() -> None:
    at = _editor_on_souls_small()
    grid = at.data_editor[0]
    assert list(grid.value.columns) == ["row", *workspace(at).sheet.labels]
    assert grid.value["row"].tolist() == list(range(2, 12))
    config = json.loads(grid.proto.columns)
    assert {label for label, column in config.items() if column.get("pinned")} == {"row", "name", "soul_cost"}
    assert _card_shown_label(at) == "Card shown: row 2 · Ember Imp · ✓"
    assert [tab.label for tab in at.tabs] == ["Cards", "Findings"]
    assert "No findings: every card fits its cost formula" in shown_text(at)


def test_an_edit_keeps_the_grid_shows_its_finding_on_the_card_edited_and_reverting_it_clears_it() -> None:
    at = _editor_on_souls_small()
    key = at.data_editor[0].key
    _send(at, _state({3: {"atk": "9"}}))
    assert at.data_editor[0].key == key  # the same grid: its scroll position and focus stay
    assert workspace(at).sheet.frame.iat[3, 3] == "9"
    row = _findings_table(at).iloc[0]
    assert (row["rule"], row["card"], int(row["row"]), row["column"]) == (
        "souls.soul_cost",
        "Stone Warden",
        5,
        "soul_cost",
    )
    # The card shown follows the edited row: label, check mark and preview.
    assert _shown_position(at) == 3
    assert _card_shown_label(at) == "Card shown: row 5 · Stone Warden · ⚠1"
    preview = at.html[0].value
    assert "Stone Warden" in preview and "souls.soul_cost" in preview and "row 5" in preview
    # Back to the value the sheet had: the data editor reports that cell as edited to its old value.
    _send(at, _state({3: {"atk": "5"}}))
    assert _findings_tables(at) == []
    assert _card_shown_label(at) == "Card shown: row 5 · Stone Warden · ✓"
    assert at.data_editor[0].key == key


def test_each_edit_is_applied_once_however_many_times_the_page_runs() -> None:
    at = _editor_on_souls_small()
    first = _state({0: {"text": "Burns."}}, added=[{"name": "Newt", "kind": "monster", "soul_cost": "0"}])
    _send(at, first)
    for _ in range(3):  # reruns (another widget, a slow page run interrupted) send the same state again
        at.run()
    _send(
        at, _state({0: {"text": "Burns."}, 5: {"def": "6"}}, added=[first["added_rows"][0] | {"atk": "1", "def": "1"}])
    )
    at.run()
    frame = workspace(at).sheet.frame
    assert frame["name"].tolist() == [*SOULS_SMALL_NAMES, "Newt"]  # the row added in the grid, once
    assert frame["text"].tolist()[0] == "Burns."
    assert frame["def"].tolist()[5] == "6"
    assert frame.iloc[10].tolist()[:5] == ["Newt", "monster", "0", "1", "1"]
    assert _shown_position(at) == 10  # the last change was to the added row's cells
    # Every other page reads the sheet with every edit in it, once.
    assert _patch_notes(at) == [
        "New card: Newt (monster).",
        "Ember Imp: text A spark with teeth. -> Burns..",
        "Bog Wraith: def 8 -> 6.",
        "New finding: Bog Wraith: soul cost 3 does not match the table (Atk 8 + Def 6 = 14 gives 2). [souls.soul_cost]",
    ]


def test_text_in_a_number_cell_is_an_error_on_that_cell() -> None:
    at = _editor_on_souls_small()
    _send(at, _state({5: {"def": "lots"}}))
    row = _findings_table(at).iloc[0]
    assert (row["rule"], row["card"], int(row["row"]), row["column"], row["actual"]) == (
        "souls.cell_value",
        "Bog Wraith",
        7,
        "def",
        "lots",
    )
    assert "✖ 1 error" in shown_text(at)
    assert _card_shown_label(at) == "Card shown: row 7 · Bog Wraith · ✖1"


def test_rows_deleted_in_the_grid_start_a_new_grid_numbered_anew() -> None:
    at = _editor_on_souls_small()
    key = at.data_editor[0].key
    _send(
        at,
        _state(
            {4: {"text": "Kept."}},
            added=[{"name": "Newt", "kind": "monster", "soul_cost": "1", "atk": "1", "def": "1"}],
            deleted=[0],
        ),
    )
    assert at.data_editor[0].key != key  # the rows after the deleted one have new numbers: a new grid shows them
    grid = at.data_editor[0].value
    assert grid["row"].tolist() == list(range(2, 12))
    assert grid["name"].tolist() == [*SOULS_SMALL_NAMES[1:], "Newt"]
    assert _names(at) == [*SOULS_SMALL_NAMES[1:], "Newt"]
    assert workspace(at).sheet.frame["text"].tolist()[3] == "Kept."
    row = _findings_table(at).iloc[0]
    assert (row["rule"], row["card"], int(row["row"])) == ("souls.soul_cost", "Newt", 11)
    at.run()
    assert _names(at) == [*SOULS_SMALL_NAMES[1:], "Newt"]  # folded once: the new grid starts with no edit


def test_add_duplicate_and_delete_buttons_start_a_new_grid_keep_pending_edits_and_show_the_card() -> None:
    at = _editor_on_souls_small()
    key = grid_key(at)
    at.session_state[key] = _state({1: {"text": "Typed just before Add card."}})
    next(b for b in at.button if b.label == "Add card").click()
    at.run()
    assert at.data_editor[0].key != key
    frame = workspace(at).sheet.frame
    assert frame["name"].tolist() == [*SOULS_SMALL_NAMES, "New card"]
    assert frame["text"].tolist()[1] == "Typed just before Add card."
    assert _shown_position(at) == 10  # the new card is shown...
    assert _card_shown_label(at) == "Card shown: row 12 · New card · ✖3"
    # Its empty cells' findings say so in words: no "None" from the editor's side.
    assert "got nothing" in at.html[0].value and "None" not in at.html[0].value + shown_text(at)
    scroll = [block.value for block in at.html if "<script>" in block.value]
    assert len(scroll) == 1 and "const top = 10 * rowHeight;" in scroll[0]  # ...and the grid scrolled to it
    assert {int(r) for r in _findings_table(at)["row"]} == {12}
    next(b for b in at.button if b.label == "Duplicate").click()
    at.run()
    assert _names(at)[-1] == "New card (copy)"
    next(b for b in at.button if b.label == "Delete").click()
    at.run()
    next(b for b in at.button if b.label == "Delete").click()
    at.run()
    assert _names(at) == SOULS_SMALL_NAMES  # each Delete removed the card shown: the copy, then the new card


def test_edits_survive_leaving_the_page_and_coming_back() -> None:
    at = _editor_on_souls_small()
    _send(at, _state({2: {"text": "Burns twice."}}))
    go(at, DECKS)
    go(at, CARD_EDITOR)
    assert at.data_editor[0].value["text"].tolist()[2] == "Burns twice."  # the grid is drawn from the edited sheet
    _send(at, _state({3: {"text": "Holds."}}))
    assert workspace(at).sheet.frame["text"].tolist()[2:4] == ["Burns twice.", "Holds."]


def test_the_preview_follows_the_card_picked_and_escapes_its_text() -> None:
    at = _editor_on_souls_small()
    _send(at, _state({3: {"name": "<i>Stone</i> Warden"}}))
    at.selectbox(key=f"card_pick:{workspace(at).uid}").set_value(4)
    at.run()
    assert _card_shown_label(at).startswith("Card shown: row 6 · Gale Archer")
    at.selectbox(key=f"card_pick:{workspace(at).uid}").set_value(3)
    at.run()
    preview = at.html[0].value
    assert "&lt;i&gt;Stone&lt;/i&gt; Warden" in preview and "<i>Stone</i>" not in preview
    assert "row 5" in preview


def test_the_save_button_is_offered() -> None:
    at = _editor_on_souls_small()
    labels = [button.label for button in at.download_button]
    # Beside the save, the grid's and findings' formula-safe CSV downloads (issue 37; tests/app/test_app_csv_download)
    assert labels[0] == "Save as xlsx" and set(labels[1:]) <= {"Download cards (CSV)", "Download findings (CSV)"}
    assert "Download cards (CSV)" in labels


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_the_editor_draws_each_bundled_set_with_its_cost_columns_pinned(ruleset_id: str) -> None:
    path = first_bundled(ruleset_id)
    assert path is not None, f"cardsets/{ruleset_id} has no sample set"
    at = go(open_bundled(new_app(), path), CARD_EDITOR)
    assert len(at.data_editor[0].value) == len(workspace(at).sheet.frame)
    assert at.html and 'data-testid="card-preview"' in at.html[0].value
    ruleset = RULESETS[ruleset_id]
    assert ruleset.cost_fields and set(ruleset.cost_fields) <= {column.field for column in ruleset.columns}
    pinned = {label for label, column in json.loads(at.data_editor[0].proto.columns).items() if column.get("pinned")}
    assert pinned == {"row", "name", *(ruleset.column_headers.get(f, f) for f in ruleset.cost_fields)}


def test_columns_the_sheet_lacks_can_be_added_and_filled() -> None:
    at = upload_cardset(new_app(), data=b"name,kind,text\nImp,monster,hot\n", name="plain.csv", ruleset="souls")
    at = go(at, CARD_EDITOR)
    assert {row for row in _findings_table(at)["column"]} == {"soul_cost", "atk", "def"}
    at.multiselect(key=f"add_columns:{workspace(at).uid}").set_value(["soul_cost", "atk", "def"])
    at.run()
    key = at.data_editor[0].key
    at.button(key="add_columns_button").click()
    at.run()
    assert at.data_editor[0].key != key  # new columns: a new grid
    assert workspace(at).sheet.headers == ["name", "kind", "text", "soul_cost", "atk", "def"]
    _send(at, _state({0: {"soul_cost": "0", "atk": "3", "def": "2"}}))
    assert _findings_tables(at) == []


def test_a_sheet_with_its_own_row_column_keeps_it_editable() -> None:
    data = b"name,kind,soul_cost,atk,def,row\nImp,monster,0,3,2,r1\n"
    at = go(upload_cardset(new_app(), data=data, name="own.csv"), CARD_EDITOR)
    assert list(at.data_editor[0].value.columns) == ["row (app)", "name", "kind", "soul_cost", "atk", "def", "row"]
    _send(at, _state({0: {"row": "r2", "row (app)": 99}}))
    assert workspace(at).sheet.frame.iloc[0].tolist()[-1] == "r2"
