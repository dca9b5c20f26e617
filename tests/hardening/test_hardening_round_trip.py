"""Load -> edit -> save keeps everything the designer had; a save killed half-way leaves the old file whole.

The workbook under test has what real card workbooks have around the cards: a notes sheet before the card
sheet, columns the ruleset does not know (text, dates, decimals, booleans, a formula per row, a column with
no header), a statistics sheet of formulas pointing into the card sheet, and a `Set` sheet. After an edit the
saved file is opened with openpyxl and compared cell by cell with the original: only the edited cells differ.
"""

from __future__ import annotations

import datetime as dt
import io
import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.chart import BarChart, Reference
from openpyxl.comments import Comment
from openpyxl.styles import Font, PatternFill
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation
from typed_cards import card_as

from workbench.cards import WorkbenchInputError
from workbench.editing import apply_editor_changes, sheet_from_table, to_table, to_xlsx_bytes
from workbench.loading import cardset_from_table, load_cardset
from workbench.rulesets import RULESETS
from workbench.rulesets.souls.cards import Monster
from workbench.spreadsheets import _UMASK, read_sheet, write_atomically, write_workbook_atomically

REPO = Path(__file__).resolve().parents[2]
SOULS = RULESETS["souls"]

CARD_HEADERS = [
    "name",
    "kind",
    "soul_cost",
    "atk",
    "def",
    "abilities",
    "Artist",
    "Printed",
    "Ratio",
    "Legal",
    None,
    "Score",
]
CARDS = [
    ["Ember Imp", "monster", 0, 2, 3, "Atk", "Ada", dt.datetime(2025, 3, 1), 0.25, True, "kept", None],
    ["Tide Golem", "monster", 1, 3, 5, "Atk; Support", "Bo", dt.datetime(2025, 3, 2), 1.5, False, None, None],
    ["Moss Sentry", "monster", 0, 1, 4, "Atk", None, None, None, None, "margin note", None],
    [
        "Ash Wraith",
        "monster",
        2,
        5,
        3,
        "Atk",
        "=not a formula, typed text",
        dt.datetime(2024, 12, 31),
        -0.125,
        True,
        None,
        None,
    ],
]


def designer_workbook() -> bytes:
    """A card workbook as a designer keeps one (see the module docstring)."""
    workbook = openpyxl.Workbook()
    notes = workbook.active
    notes.title = "Read me"
    notes["A1"] = "Ashfall set, working copy"
    notes["A2"] = "Cards total:"
    notes["B2"] = "=COUNTA(Cards!A:A)-1"
    notes.merge_cells("A4:C4")
    notes["A4"] = "merged note"

    cards = workbook.create_sheet("Cards")
    for column, header in enumerate(CARD_HEADERS, start=1):
        cards.cell(row=1, column=column, value=header).font = Font(bold=True)
    for row_number, row in enumerate(CARDS, start=2):
        for column, value in enumerate(row, start=1):
            cell = cards.cell(row=row_number, column=column, value=value)
            if isinstance(value, str) and value.startswith("="):
                cell.data_type = "s"  # typed text that merely starts with '=', not a formula
        cards.cell(row=row_number, column=len(CARD_HEADERS), value=f"=D{row_number}+E{row_number}")
        cards.cell(row=row_number, column=8).number_format = "yyyy-mm-dd"
    cards["A3"].fill = PatternFill("solid", fgColor="FFE699")
    cards["A2"].comment = Comment("first card of the set", "designer")
    kinds = DataValidation(type="list", formula1='"monster,magic,trap"')
    cards.add_data_validation(kinds)
    kinds.add("B2:B200")
    workbook.defined_names["attack_column"] = DefinedName("attack_column", attr_text="Cards!$D$2:$D$5")

    stats = workbook.create_sheet("Stats")
    stats.append(["total atk", "=SUM(Cards!D2:D5)"])
    stats.append(["mean def", "=AVERAGE(Cards!E2:E5)"])
    stats.append(["literal", 42])
    chart = BarChart()
    chart.add_data(Reference(cards, min_col=4, min_row=1, max_row=5), titles_from_data=True)
    stats.add_chart(chart, "D2")

    set_sheet = workbook.create_sheet("Set")
    for set_row in (["key", "value"], ["ruleset", "souls"], ["name", "Ashfall"], ["version", "0.3"]):
        set_sheet.append(set_row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def cells(data: bytes) -> dict[str, dict[tuple[int, int], Any]]:
    """Every non-empty cell of every sheet (formulas as their text), by sheet name, in sheet order."""
    workbook = openpyxl.load_workbook(io.BytesIO(data), data_only=False)
    out: dict[str, dict[tuple[int, int], Any]] = {}
    for sheet in workbook.worksheets:
        out[sheet.title] = {
            (cell.row, cell.column): cell.value for row in sheet.iter_rows() for cell in row if cell.value is not None
        }
    return out


def edit_and_save(original: bytes, changes: dict[str, Any]) -> bytes:
    table = read_sheet("ashfall.xlsx", data=original)
    sheet = apply_editor_changes(sheet_from_table(table), changes)
    return to_xlsx_bytes(sheet, "souls", source=original)


def test_saving_without_edits_changes_no_cell_of_any_sheet() -> None:
    original = designer_workbook()
    saved = edit_and_save(original, {})
    assert cells(saved) == cells(original)
    assert list(cells(saved)) == ["Read me", "Cards", "Stats", "Set"]


def test_one_edited_cell_is_the_only_difference_in_the_whole_workbook() -> None:
    original = designer_workbook()
    saved = edit_and_save(original, {"edited_rows": {1: {"atk": "4"}}})
    before, after = cells(original), cells(saved)
    assert list(after) == list(before)  # every sheet, in order
    assert after["Cards"][(3, 4)] == 4 and isinstance(after["Cards"][(3, 4)], int)
    del before["Cards"][(3, 4)], after["Cards"][(3, 4)]
    assert after == before
    saved_book = openpyxl.load_workbook(io.BytesIO(saved))
    # Formulas stay formulas, and styles stay where they were.
    assert saved_book["Cards"]["L2"].data_type == "f" and saved_book["Stats"]["B1"].data_type == "f"
    assert saved_book["Cards"]["A3"].fill.fgColor.rgb == "00FFE699" and saved_book["Cards"]["A1"].font.bold
    assert saved_book["Cards"]["H2"].number_format == "yyyy-mm-dd"
    assert [str(merged) for merged in saved_book["Read me"].merged_cells.ranges] == ["A4:C4"]
    # What lives beside the cells: a comment, a drop-down list, a named range and a chart.
    assert saved_book["Cards"]["A2"].comment.text == "first card of the set"
    assert [str(v.sqref) for v in saved_book["Cards"].data_validations.dataValidation] == ["B2:B200"]
    assert saved_book.defined_names["attack_column"].attr_text == "Cards!$D$2:$D$5"
    assert len(saved_book["Stats"]._charts) == 1
    # The loader reads the saved file as the original plus the edit.
    cardset = load_cardset("saved.xlsx", data=saved)
    assert card_as(cardset.find("Tide Golem"), Monster).atk == 4
    assert cardset.name == "Ashfall" and cardset.version == "0.3"
    assert cardset.table.headers == read_sheet("ashfall.xlsx", data=original).headers


def sheet_part(data: bytes, title: str) -> str:
    """The raw XML of one worksheet, found by its title (what a spreadsheet program will read)."""
    workbook = openpyxl.load_workbook(io.BytesIO(data))
    index = workbook.sheetnames.index(title) + 1
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.read(f"xl/worksheets/sheet{index}.xml").decode()


def test_typed_text_starting_with_equals_is_still_text_after_a_save() -> None:
    saved = edit_and_save(designer_workbook(), {"edited_rows": {1: {"atk": "4"}}})
    assert "<f>not a formula" not in sheet_part(saved, "Cards")


def test_an_edit_in_an_unknown_column_and_an_added_card_keep_the_rest() -> None:
    original = designer_workbook()
    changes = {
        "edited_rows": {"3": {"Artist": "Cy"}},
        "added_rows": [
            {"name": "New Imp", "kind": "monster", "soul_cost": "0", "atk": "1", "def": "1", "Artist": "Di"}
        ],
    }
    before, after = cells(original), cells(edit_and_save(original, changes))
    assert after["Cards"].pop((5, 7)) == "Cy"
    assert before["Cards"].pop((5, 7)) == "=not a formula, typed text"
    added = {key: after["Cards"].pop(key) for key in [k for k in after["Cards"] if k[0] == 6]}
    assert added == {(6, 1): "New Imp", (6, 2): "monster", (6, 3): 0, (6, 4): 1, (6, 5): 1, (6, 7): "Di"}
    assert after == before


def test_deleting_a_card_keeps_every_other_row_whole_and_moves_it_up() -> None:
    original = designer_workbook()
    before, after = cells(original), cells(edit_and_save(original, {"deleted_rows": [1]}))
    assert {k: v for k, v in after.items() if k != "Cards"} == {k: v for k, v in before.items() if k != "Cards"}
    kept_rows = [2, 4, 5]
    for new_row, old_row in enumerate(kept_rows, start=2):
        old = {column: value for (row, column), value in before["Cards"].items() if row == old_row and column != 12}
        new = {column: value for (row, column), value in after["Cards"].items() if row == new_row and column != 12}
        assert new == old
    assert not any(row == 5 for row, _ in after["Cards"])  # the last row is cleared, not left as a stale copy


def test_a_row_formula_follows_its_row_when_a_card_above_it_is_deleted() -> None:
    original = designer_workbook()
    after = cells(edit_and_save(original, {"deleted_rows": [1]}))
    assert after["Cards"][(3, 12)] == "=D3+E3"


def test_a_csv_upload_saved_as_xlsx_keeps_every_column_and_row(tmp_path: Path) -> None:
    text = "name,kind,soul_cost,atk,def,,Artist\nEmber Imp,monster,0,2,3,x,Ada\nTide Golem,monster,1,3,5,y,\n"
    table = read_sheet("cards.csv", data=text.encode())
    saved = to_xlsx_bytes(sheet_from_table(table), "souls", source=text.encode())
    after = cells(saved)
    assert list(after) == ["Cards", "Set"]
    assert [after["Cards"][(1, c)] for c in range(1, 8)] == [
        "name",
        "kind",
        "soul_cost",
        "atk",
        "def",
        "Column F",
        "Artist",
    ]
    assert [after["Cards"].get((2, c)) for c in range(1, 8)] == ["Ember Imp", "monster", 0, 2, 3, "x", "Ada"]
    assert [after["Cards"].get((3, c)) for c in range(1, 8)] == ["Tide Golem", "monster", 1, 3, 5, "y", None]
    assert read_sheet("saved.xlsx", data=saved).set_info["ruleset"] == "souls"


def test_the_edited_table_validates_like_the_saved_file() -> None:
    """What the app validates before saving is what the loader reads after: same cards, same findings."""
    original = designer_workbook()
    sheet = apply_editor_changes(
        sheet_from_table(read_sheet("ashfall.xlsx", data=original)), {"edited_rows": {0: {"atk": "x"}}}
    )
    in_app = cardset_from_table(to_table(sheet), SOULS)
    from_file = load_cardset("ashfall.xlsx", SOULS, data=to_xlsx_bytes(sheet, "souls", source=original))
    assert [e.card for e in in_app.entries] == [e.card for e in from_file.entries]
    assert [(f.rule, f.row, f.column) for f in in_app.load_findings] == [
        (f.rule, f.row, f.column) for f in from_file.load_findings
    ]
    assert ("souls.cell_value", 2, "atk") in [(f.rule, f.row, f.column) for f in from_file.load_findings]


# Saving to disk ------------------------------------------------------------------------------------------------

SLOW_SAVE = r"""
import sys
import openpyxl
from workbench.spreadsheets import write_workbook_atomically

workbook = openpyxl.Workbook()
sheet = workbook.active
sheet.title = "Cards"
sheet.append(["name", "kind", "soul_cost", "atk", "def", "text"])
text = "A line of rules text, long enough to take a while. " * 3
for index in range(int(sys.argv[2])):
    sheet.append([f"Card {index}", "monster", index % 3, 2, 3, text])
print("saving", flush=True)
write_workbook_atomically(workbook, sys.argv[1])
print("saved", flush=True)
"""


def _temp_files(folder: Path, target: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p != target]


def test_a_save_killed_half_way_leaves_the_old_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "ashfall.xlsx"
    original = designer_workbook()
    target.write_bytes(original)
    process = subprocess.Popen(
        [sys.executable, "-c", SLOW_SAVE, str(target), "60000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "saving"
        deadline = time.monotonic() + 120
        # Kill once the temporary file holds part of the new workbook: the save is then half-way.
        while time.monotonic() < deadline:
            partial = [p for p in _temp_files(tmp_path, target) if p.stat().st_size > 0]
            if partial or process.poll() is not None:
                break
            time.sleep(0.005)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == -signal.SIGKILL, "the save finished before it could be killed; make it larger"

    assert target.read_bytes() == original
    assert cells(target.read_bytes()) == cells(original)
    assert load_cardset(target).names == [row[0] for row in CARDS]
    leftovers = _temp_files(tmp_path, target)
    assert leftovers and all(p.name.startswith(".ashfall.xlsx.") and p.name.endswith(".tmp") for p in leftovers)
    # Nothing a person or the workbench would open as the card sheet: hidden, not .xlsx, and refused if forced.
    assert sorted(tmp_path.glob("*.xlsx")) == [target]
    for leftover in leftovers:
        with pytest.raises(WorkbenchInputError):
            read_sheet(leftover)
    # The next save goes through as usual, next to the leftover.
    replacement = openpyxl.load_workbook(io.BytesIO(original))
    replacement["Cards"]["D2"] = 9
    write_workbook_atomically(replacement, target)
    assert card_as(load_cardset(target).find("Ember Imp"), Monster).atk == 9


def test_a_save_that_fails_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "ashfall.xlsx"
    target.write_bytes(designer_workbook())
    before = target.read_bytes()

    def failing_write(temp: str) -> None:
        Path(temp).write_bytes(b"PK half a workbook")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_atomically(target, failing_write)
    assert target.read_bytes() == before
    assert list(tmp_path.iterdir()) == [target]


def test_a_save_keeps_the_file_mode_the_old_file_had(tmp_path: Path) -> None:
    target = tmp_path / "shared.xlsx"
    target.write_bytes(designer_workbook())
    target.chmod(0o640)
    write_atomically(target, lambda temp: Path(temp).write_bytes(designer_workbook()))
    assert target.stat().st_mode & 0o777 == 0o640


def test_a_save_never_changes_the_process_umask_and_flushes_before_the_replace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The app's server is multi-threaded: os.umask is process-wide, so a save must never set it, even for a moment.
    def no_umask(_mask: int) -> int:
        raise AssertionError("os.umask called during a save")

    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "umask", no_umask)

    def fsync(fd: int) -> None:
        events.append("fsync")
        real_fsync(fd)

    def replace(src: str, dst: str) -> None:
        events.append("replace")
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    target = tmp_path / "new.xlsx"
    write_atomically(target, lambda temp: Path(temp).write_bytes(designer_workbook()))
    assert events[:2] == ["fsync", "replace"]
    assert target.stat().st_mode & 0o777 == 0o666 & ~_UMASK
    assert list(tmp_path.iterdir()) == [target]
