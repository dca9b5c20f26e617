"""The editable card sheet: same findings as the file, edits folded in order, saves that lose nothing."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import openpyxl
import pytest
from openpyxl.styles import Font, PatternFill
from typed_cards import card_as

from workbench.editing import (
    EditableSheet,
    add_card,
    add_columns,
    apply_editor_changes,
    cell_text,
    content_digest,
    delete_card,
    duplicate_card,
    field_labels,
    has_changes,
    missing_columns,
    sheet_from_table,
    to_table,
    to_xlsx_bytes,
    typed_for_save,
    unique_labels,
)
from workbench.loading import cardset_from_table, choose_ruleset, load_cardset
from workbench.paths import bundled_sets, mistakes_dir
from workbench.rulesets import RULESETS, get_ruleset
from workbench.rulesets.souls.cards import Monster
from workbench.spreadsheets import read_sheet
from workbench.validate import validate

SOULS_SMALL = Path(__file__).parent / "app" / "data" / "souls_small.csv"


def _sheet_files() -> list[Path]:
    files: list[Path] = []
    for ruleset_id in RULESETS:
        try:
            files.extend(bundled_sets(ruleset_id))
        except Exception:  # a ruleset whose sample set is not written yet
            continue
        workbook = mistakes_dir(ruleset_id) / "mistakes.xlsx"
        if workbook.is_file():
            files.append(workbook)
    return files


def _findings_via_editor(path: Path) -> list[dict[str, object]]:
    table = read_sheet(path)
    cardset = cardset_from_table(to_table(sheet_from_table(table)), choose_ruleset(table))
    return [f.to_json() for f in validate(cardset).findings]


@pytest.mark.parametrize("path", _sheet_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_an_unedited_sheet_gives_exactly_the_command_lines_findings(path: Path) -> None:
    direct = [f.to_json() for f in validate(load_cardset(path)).findings]
    assert _findings_via_editor(path) == direct


def _souls_sheet() -> EditableSheet:
    return sheet_from_table(read_sheet(SOULS_SMALL))


def _findings(sheet: EditableSheet) -> list[tuple[str, str, str | None, int | None, str | None]]:
    cardset = cardset_from_table(to_table(sheet), get_ruleset("souls"))
    return [(f.severity, f.rule, f.card, f.row, f.column) for f in validate(cardset).findings]


def test_the_frame_holds_every_column_as_text_and_remembers_origin_rows() -> None:
    sheet = _souls_sheet()
    assert sheet.labels == [
        "name",
        "kind",
        "soul_cost",
        "atk",
        "def",
        "abilities",
        "effect_weight",
        "element",
        "text",
        "artist",
    ]
    assert sheet.frame.index.tolist() == list(range(2, 12))
    assert sheet.frame.iloc[0].tolist()[:5] == ["Ember Imp", "monster", "0", "3", "2"]
    assert sheet.frame.iat[8, 3] is None  # Healing Rain has no Atk


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"edited_rows": {0: {"atk": "9"}}}, [("warning", "souls.soul_cost", "Ember Imp", 2, "soul_cost")]),
        ({"edited_rows": {0: {"atk": "x"}}}, [("error", "souls.cell_value", "Ember Imp", 2, "atk")]),
        ({"edited_rows": {1: {"name": "Ember Imp"}}}, [("error", "souls.duplicate_name", "Ember Imp", 3, "name")]),
        ({"added_rows": [{"name": "Newt", "kind": "monster", "soul_cost": "0", "atk": "1", "def": "1"}]}, []),
        ({"added_rows": [{"name": "Newt", "kind": "spell"}]}, [("error", "souls.cell_value", "Newt", 12, "kind")]),
        (
            {"deleted_rows": [0], "edited_rows": {1: {"atk": "9"}}},
            [("warning", "souls.soul_cost", "Marsh Lurker", 2, "soul_cost")],
        ),
        (
            {"edited_rows": {0: {"atk": "9", "check": "ignored"}}},
            [("warning", "souls.soul_cost", "Ember Imp", 2, "soul_cost")],
        ),
    ],
)
def test_editor_changes_fold_in_and_findings_point_at_the_saved_row(
    changes: dict[str, object], expected: list[tuple[str, str, str, int, str]]
) -> None:
    sheet = apply_editor_changes(_souls_sheet(), changes)
    assert _findings(sheet) == expected


def test_changes_apply_in_the_editors_order_edits_then_additions_then_deletions() -> None:
    sheet = _souls_sheet()
    changed = apply_editor_changes(
        sheet,
        {"edited_rows": {"2": {"name": "Renamed"}}, "added_rows": [{"name": "Added"}], "deleted_rows": [0, 10]},
    )
    names = changed.frame["name"].tolist()
    assert names[1] == "Renamed" and "Ember Imp" not in names and "Added" not in names
    assert len(changed.frame) == len(sheet.frame) - 1
    assert sheet.frame["name"].tolist()[2] == "Cinder Hound"  # the original is untouched
    assert changed.frame.index.tolist()[0] == 3  # Marsh Lurker keeps its origin row


def test_reverting_an_edit_makes_the_finding_go_away() -> None:
    broken = apply_editor_changes(_souls_sheet(), {"edited_rows": {0: {"atk": "9"}}})
    assert _findings(broken)
    fixed = apply_editor_changes(broken, {"edited_rows": {0: {"atk": "3"}}})
    assert _findings(fixed) == []
    assert content_digest(fixed, "souls") == content_digest(_souls_sheet(), "souls")
    assert content_digest(broken, "souls") != content_digest(fixed, "souls")


def test_an_emptied_row_is_passed_over_like_an_empty_sheet_row() -> None:
    sheet = _souls_sheet()
    emptied = apply_editor_changes(sheet, {"edited_rows": {0: {label: "" for label in sheet.labels}}})
    table = to_table(emptied)
    assert [row for row, _ in table.rows][:2] == [3, 4]
    assert _findings(emptied) == []


def test_has_changes() -> None:
    assert not has_changes(None)
    assert not has_changes({"edited_rows": {}, "added_rows": [], "deleted_rows": []})
    assert has_changes({"edited_rows": {0: {"atk": "1"}}})


def test_add_duplicate_and_delete_cards() -> None:
    ruleset = get_ruleset("souls")
    sheet, position = add_card(_souls_sheet(), ruleset)
    assert position == 10 and sheet.frame.iloc[10]["name"] == "New card" and sheet.frame.iloc[10]["kind"] == "monster"
    sheet, second = add_card(sheet, ruleset)
    assert sheet.frame.iloc[second]["name"] == "New card 2"
    sheet, copy = duplicate_card(sheet, 0, ruleset)
    assert sheet.frame.iloc[copy].tolist()[1:] == sheet.frame.iloc[0].tolist()[1:]
    assert sheet.frame.iloc[copy]["name"] == "Ember Imp (copy)"
    sheet, again = duplicate_card(sheet, 0, ruleset)
    assert sheet.frame.iloc[again]["name"] == "Ember Imp (copy) 2"
    assert sorted(sheet.frame.index.tolist()[-4:]) == [-4, -3, -2, -1]
    fewer = delete_card(sheet, 0)
    assert "Ember Imp" not in fewer.frame["name"].tolist() and len(fewer.frame) == len(sheet.frame) - 1
    rows = {f[3] for f in _findings(sheet) if f[2] in ("New card", "New card 2")}
    assert rows == {12, 13}  # the new cards need their stats; the findings say which rows


def test_field_labels_and_unique_labels() -> None:
    assert field_labels(_souls_sheet(), get_ruleset("souls"))["defense"] == "def"
    assert unique_labels(["notes", "name", "notes", "notes"]) == ["notes", "name", "notes (2)", "notes (3)"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (None, None),
        ("3", 3),
        ("-2", -2),
        ("2.5", 2.5),
        ("007", "007"),
        ("1e5", "1e5"),
        ("=SUM(A1)", "=SUM(A1)"),
        ("x", "x"),
    ],
)
def test_typed_for_save(text: str | None, value: object) -> None:
    assert typed_for_save(text) == value


def test_cell_text() -> None:
    assert cell_text(3.0) == "3" and cell_text(2.5) == "2.5" and cell_text("  a ") == "a" and cell_text("") is None


def _workbook_bytes() -> bytes:
    workbook = openpyxl.Workbook()
    cards = workbook.active
    cards.title = "Cards"
    cards.append(["Name", "Kind", "Soul Cost", "Atk", "Def", "Released", "Notes", "Notes"])
    cards.append(["Ember Imp", "monster", 0, 3, 2, dt.datetime(2024, 5, 1), "keep me", "second notes"])
    cards.append(["Marsh Lurker", "monster", 1, 4, 5, None, "=1+1", None])
    cards.append(["Bog Wraith", "monster", 3, 8, 8, None, None, None])
    cards["A2"].font = Font(bold=True)
    cards["A3"].fill = PatternFill("solid", fgColor="FFFF00")
    cards["G3"] = "=LEN(A3)"
    notes = workbook.create_sheet("Designer notes")
    notes["A1"] = "Do not lose this sheet"
    notes["B7"] = 42
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def test_saving_an_uploaded_workbook_keeps_every_sheet_column_value_and_style() -> None:
    source = _workbook_bytes()
    sheet = sheet_from_table(read_sheet("cards.xlsx", data=source, filename="cards.xlsx"))
    assert sheet.frame.iat[1, 6] == "=LEN(A3)"
    edited = apply_editor_changes(
        sheet,
        {
            "edited_rows": {0: {"Atk": "9", "Notes (2)": '=HYPERLINK("http://example.invalid","x")'}},
            "added_rows": [{"Name": "Newt", "Kind": "monster", "Soul Cost": "0", "Atk": "1", "Def": "1"}],
            "deleted_rows": [2],
        },
    )
    saved = openpyxl.load_workbook(io.BytesIO(to_xlsx_bytes(edited, "souls", source, "Test set")))
    assert saved.sheetnames == ["Cards", "Designer notes", "Set"]
    assert saved["Designer notes"]["A1"].value == "Do not lose this sheet" and saved["Designer notes"]["B7"].value == 42
    cards = saved["Cards"]
    assert [c.value for c in cards[1]] == ["Name", "Kind", "Soul Cost", "Atk", "Def", "Released", "Notes", "Notes"]
    assert [c.value for c in cards[2]][:5] == ["Ember Imp", "monster", 0, 9, 2]
    assert cards["F2"].value == dt.datetime(2024, 5, 1)  # unchanged: still a date
    assert cards["G2"].value == "keep me"
    assert cards["H2"].value == '=HYPERLINK("http://example.invalid","x")' and cards["H2"].data_type == "s"
    assert cards["A2"].font.bold and cards["A3"].fill.fgColor.rgb.endswith("FFFF00")
    assert cards["G3"].value == "=LEN(A3)" and cards["G3"].data_type == "f"  # the upload's own formula, untouched
    assert [c.value for c in cards[4]][:5] == ["Newt", "monster", 0, 1, 1]  # Bog Wraith deleted, Newt in its place
    assert cards.max_row == 4 or all(c.value is None for row in cards.iter_rows(min_row=5) for c in row)
    assert dict(row for row in saved["Set"].iter_rows(values_only=True))["ruleset"] == "souls"
    reread = load_cardset("saved.xlsx", data=to_xlsx_bytes(edited, "souls", source), filename="saved.xlsx")
    assert reread.ruleset_id == "souls" and reread.names == ["Ember Imp", "Marsh Lurker", "Newt"]
    formula_findings = [f for f in validate(reread).findings if f.rule == "souls.formula_cell"]
    assert formula_findings == []  # formulas in columns the ruleset does not read are not card cells


def test_a_typed_formula_is_text_but_an_uploaded_formula_cell_stays_a_finding() -> None:
    workbook = openpyxl.Workbook()
    cards = workbook.active
    cards.title = "Cards"
    cards.append(["name", "kind", "soul_cost", "atk", "def"])
    cards.append(["Imp", "monster", "=1-1", 3, 2])
    buffer = io.BytesIO()
    workbook.save(buffer)
    sheet = sheet_from_table(read_sheet("f.xlsx", data=buffer.getvalue(), filename="f.xlsx"))
    assert [f[1] for f in _findings(sheet)] == ["souls.formula_cell"]
    typed = apply_editor_changes(sheet, {"edited_rows": {0: {"soul_cost": "0", "name": "=Imp"}}})
    assert _findings(typed) == []
    assert cardset_from_table(to_table(typed), get_ruleset("souls")).names == ["=Imp"]


def test_saving_a_csv_upload_writes_cards_and_set_sheets_that_reload_the_same() -> None:
    sheet = apply_editor_changes(_souls_sheet(), {"edited_rows": {0: {"atk": "9"}}})
    data = to_xlsx_bytes(sheet, "souls", SOULS_SMALL.read_bytes(), "Small souls")
    saved = openpyxl.load_workbook(io.BytesIO(data))
    assert saved.sheetnames == ["Cards", "Set"]
    assert [c.value for c in saved["Cards"][1]] == sheet.headers
    reread = load_cardset("x.xlsx", data=data, filename="x.xlsx")
    assert reread.name == "Small souls" and len(reread) == 10
    assert card_as(reread.find("Ember Imp"), Monster).atk == 9
    assert card_as(reread.find("Ember Imp"), Monster).name == "Ember Imp"
    assert [(f.rule, f.row, f.column) for f in validate(reread).findings] == [("souls.soul_cost", 2, "soul_cost")]


def test_missing_columns_can_be_added_and_are_saved_after_the_uploads_own() -> None:
    workbook = openpyxl.Workbook()
    cards = workbook.active
    cards.title = "Cards"
    cards.append(["name", "kind", "notes"])
    cards.append(["Imp", "monster", "keep"])
    for header in cards[1]:
        header.font = Font(bold=True)
    buffer = io.BytesIO()
    workbook.save(buffer)
    source = buffer.getvalue()
    ruleset = get_ruleset("souls")
    sheet = sheet_from_table(read_sheet("m.xlsx", data=source, filename="m.xlsx"))
    assert {"soul_cost", "atk", "def"} <= set(missing_columns(sheet, ruleset))
    assert {f[4] for f in _findings(sheet)} == {"soul_cost", "atk", "def"}
    widened = add_columns(sheet, ["soul_cost", "atk", "def"])
    assert widened.headers == ["name", "kind", "notes", "soul_cost", "atk", "def"] and sheet.headers == [
        "name",
        "kind",
        "notes",
    ]
    filled = apply_editor_changes(widened, {"edited_rows": {0: {"soul_cost": "0", "atk": "3", "def": "2"}}})
    assert _findings(filled) == []
    saved = openpyxl.load_workbook(io.BytesIO(to_xlsx_bytes(filled, "souls", source)))["Cards"]
    assert [c.value for c in saved[1]] == ["name", "kind", "notes", "soul_cost", "atk", "def"]
    assert [c.value for c in saved[2]] == ["Imp", "monster", "keep", 0, 3, 2]
    assert saved["D1"].font.bold  # a new header looks like the others
    assert add_columns(sheet, []) is sheet
