"""The streaming worksheet reader gives what openpyxl gives, on the cell kinds a card sheet can hold."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

import openpyxl
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont

from workbench.spreadsheets import read_sheet
from workbench.xlsx_rows import Workbook


def _workbook_bytes(write_only: bool) -> bytes:
    book = openpyxl.Workbook(write_only=write_only)
    if write_only:
        sheet = book.create_sheet("Notes")
        cards = book.create_sheet("Cards")
    else:
        sheet = book.active
        sheet.title = "Notes"
        cards = book.create_sheet("Cards")
    sheet.append(["ignored"])
    cards.append(["name", "atk", "flag", "when", "ratio", "formula"])
    cards.append(["Imp", 3, True, dt.date(2026, 1, 2), 0.5, "=1+2"])
    cards.append([None, None, None, None, None, None])
    cards.append(["  Ogre ", 7.0, False, None, -1.25, None])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _rows(data: bytes, sheet: str) -> list[tuple[list[object], dict[int, str]]]:
    return list(Workbook(zipfile.ZipFile(io.BytesIO(data))).rows(sheet))


def test_values_formulas_and_row_numbers_match_openpyxl_with_shared_and_inline_strings() -> None:
    for write_only in (False, True):
        data = _workbook_bytes(write_only)
        reader = Workbook(zipfile.ZipFile(io.BytesIO(data)))
        assert reader.sheet_names == ["Notes", "Cards"]
        rows = _rows(data, "Cards")
        assert rows[0] == (["name", "atk", "flag", "when", "ratio", "formula"], {})
        values, formulas = rows[1]
        assert values[:5] == ["Imp", 3, True, "2026-01-02 00:00:00", 0.5] and formulas == {5: "=1+2"}
        assert rows[2] == ([], {})  # the blank row stays, so the next row is row 4
        assert rows[3][0][:3] == ["  Ogre ", 7, False] and rows[3][0][4] == -1.25


def test_rows_the_xml_skips_come_out_empty(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    sheet["A1"] = "name"
    sheet["C1"] = "atk"
    sheet["A5"] = "Late Imp"
    sheet["C5"] = 2
    path = tmp_path / "gaps.xlsx"
    book.save(path)
    table = read_sheet(path)
    assert table.headers == ["name", "Column B", "atk"]
    assert table.rows == [(5, ["Late Imp", None, 2])]


def test_rich_text_runs_are_joined(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    sheet.append(["name", "text"])
    sheet.append(["Imp", CellRichText("Deals ", TextBlock(InlineFont(b=True), "2"), " damage")])
    path = tmp_path / "rich.xlsx"
    book.save(path)
    assert read_sheet(path).rows == [(2, ["Imp", "Deals 2 damage"])]


def test_the_set_sheet_and_a_cards_sheet_that_is_not_first(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    book.active.title = "Set"
    book["Set"].append(["key", "value"])
    book["Set"].append(["ruleset", "souls"])
    book["Set"].append(["version", 3])
    cards = book.create_sheet("CARDS")
    cards.append(["name"])
    cards.append(["Imp"])
    path = tmp_path / "set.xlsx"
    book.save(path)
    table = read_sheet(path)
    assert table.sheet == "CARDS" and table.set_info == {"ruleset": "souls", "version": "3"}
    assert table.sheet_names == ["Set", "CARDS"]
