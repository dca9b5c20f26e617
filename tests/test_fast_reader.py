"""The fast xlsx reader (python-calamine) gives exactly what the streaming reader gives, and steps aside when it can't.

Every workbook here is read twice, once as `workbench` reads it (calamine for a plain sheet) and once with
WORKBENCH_XLSX_READER=streaming, and the two results are compared cell by cell or finding by finding.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont

from workbench.decklists import read_decklist
from workbench.loading import load_cardset
from workbench.paths import bundled_decks, bundled_sets, mistakes_dir
from workbench.rulesets import RULESETS
from workbench.spreadsheets import SheetTable, read_sheet, set_cell_value
from workbench.templates import write_card_workbook
from workbench.validate import validate
from workbench.xlsx_rows import READER_ENVIRONMENT, Workbook


def _both_readers(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[SheetTable, SheetTable]:
    """(as read by default, as read by the streaming reader alone)."""
    monkeypatch.delenv(READER_ENVIRONMENT, raising=False)
    default = read_sheet(path)
    monkeypatch.setenv(READER_ENVIRONMENT, "streaming")
    streaming = read_sheet(path)
    monkeypatch.delenv(READER_ENVIRONMENT)
    assert streaming.reader == "streaming"
    return default, streaming


def _write(cell: Any, value: Any) -> None:
    cell.value = value


def _as_text(cell: Any, value: Any) -> None:
    set_cell_value(cell, value)  # how the workbench itself writes text: never a formula


def _with_format(number_format: str) -> Callable[[Any, Any], None]:
    def write(cell: Any, value: Any) -> None:
        cell.value = value
        cell.number_format = number_format

    return write


def _error(cell: Any, value: Any) -> None:
    cell.value = value
    cell.data_type = "e"


@dataclass(frozen=True)
class CellKind:
    """One kind of cell a card sheet may hold."""

    label: str
    """What the cell is, in words (the test's id)."""
    value: Any
    """The value openpyxl is given."""
    expected: Any
    """What both readers must give for it, after the sheet is read (text stripped, whole numbers as ints)."""
    reader: str
    """The reader that must read a sheet holding it: `calamine`, or `streaming` where calamine would differ."""
    write: Callable[[Any, Any], None] = _write
    """How the value is put in the cell."""


CELL_KINDS = [
    CellKind("whole number", 3, 3, "calamine"),
    CellKind("whole number stored as a float", 7.0, 7, "calamine"),
    CellKind("fraction", 0.5, 0.5, "calamine"),
    CellKind("negative fraction", -1.25, -1.25, "calamine"),
    CellKind("negative zero", -0.0, 0, "calamine"),
    CellKind("float past 2**53", 2.0**60, 2**60, "calamine"),
    CellKind("int past 2**53", 123456789012345678, 123456789012345696, "calamine"),  # read as a float
    CellKind("tiny float", 1e-300, 1e-300, "calamine"),
    CellKind("float with 16 digits", 3.141592653589793, 3.141592653589793, "calamine"),
    CellKind("true", True, True, "calamine"),
    CellKind("false", False, False, "calamine"),
    CellKind("text that looks like a number", "12", "12", "calamine", _as_text),
    CellKind("leading zeros", "0012", "0012", "calamine", _as_text),
    CellKind("text TRUE", "TRUE", "TRUE", "calamine", _as_text),
    CellKind("spaces around text", "  Imp  ", "Imp", "calamine", _as_text),
    CellKind("only a space", " ", None, "calamine", _as_text),
    CellKind("empty text", "", None, "calamine", _as_text),
    CellKind("no value", None, None, "calamine"),
    CellKind("line break inside", "Deals 2\nthen 3", "Deals 2\nthen 3", "calamine", _as_text),
    CellKind("accents and emoji", "Ünïcödé 🔥", "Ünïcödé 🔥", "calamine", _as_text),
    CellKind(
        "rich text runs",
        CellRichText("Deals ", TextBlock(InlineFont(b=True), "2"), " damage"),
        "Deals 2 damage",
        "calamine",
    ),
    CellKind("text starting with = kept as text", "=1+2", "=1+2", "calamine", _as_text),
    CellKind("percent format", 0.25, 0.25, "calamine", _with_format("0%")),
    CellKind("two decimals format", 3, 3, "calamine", _with_format("0.00")),
    CellKind("formula", "=1+2", None, "streaming"),
    CellKind("error #DIV/0!", "#DIV/0!", "#DIV/0!", "streaming", _error),
    CellKind("error #N/A", "#N/A", "#N/A", "streaming", _error),
    CellKind("date", dt.date(2026, 1, 2), "2026-01-02 00:00:00", "streaming"),
    CellKind("date and time", dt.datetime(2026, 1, 2, 3, 4, 5), "2026-01-02 03:04:05", "streaming"),
    CellKind("time", dt.time(12, 30), "12:30:00", "streaming"),
    CellKind("number in a date format", 45000.5, "2023-03-15 12:00:00", "streaming", _with_format("yyyy-mm-dd hh:mm")),
    CellKind("escaped carriage return", "a_x000D_b", "a_x000D_b", "streaming", _as_text),
]


def _one_kind_workbook(path: Path, kind: CellKind, write_only: bool) -> Path:
    book = openpyxl.Workbook(write_only=write_only)
    if write_only:
        # write_only keeps text inline in the sheet (no shared-string table): the other way a workbook holds text.
        sheet = book.create_sheet("Cards")
        sheet.append(["name", "value", "after"])
        cell = openpyxl.cell.WriteOnlyCell(sheet)
        kind.write(cell, kind.value)
        sheet.append(["Imp", cell, "x"])
    else:
        sheet = book.active
        sheet.title = "Cards"
        sheet.append(["name", "value", "after"])
        sheet["A2"] = "Imp"
        kind.write(sheet["B2"], kind.value)
        sheet["C2"] = "x"
    book.save(path)
    return path


_INLINE_CELL = re.compile(rb'<c r="([A-Z]+[0-9]+)"((?: s="[0-9]+")?) t="inlineStr"><is>(.*?)</is></c>', re.S)
MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def _with_shared_strings(path: Path, replace: dict[bytes, bytes] | None = None) -> Path:
    """The workbook as a spreadsheet program saves it: text in a shared-string table, cells pointing into it.

    openpyxl 3.1 writes every text cell inline; Excel and LibreOffice write a table, which the readers parse
    differently (and calamine in full), so each kind is read both ways. `replace` swaps a string item's XML for
    another (a long text that would be slow to write cell by cell).
    """
    strings: dict[bytes, int] = {}

    def to_shared(match: re.Match[bytes]) -> bytes:
        index = strings.setdefault(match.group(3), len(strings))
        return b'<c r="%s"%s t="s"><v>%d</v></c>' % (match.group(1), match.group(2), index)

    out = path.with_name(path.stem + "_shared.xlsx")
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename.startswith("xl/worksheets/"):
                data = _INLINE_CELL.sub(to_shared, data)
            elif info.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(
                    b"</Relationships>",
                    b'<Relationship Id="rIdStrings" Target="sharedStrings.xml" Type="http://schemas.openxmlformats'
                    b'.org/officeDocument/2006/relationships/sharedStrings"/></Relationships>',
                )
            elif info.filename == "[Content_Types].xml":
                data = data.replace(
                    b"</Types>",
                    b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-'
                    b'officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
                )
            target.writestr(info, data)
        items = b"".join(b"<si>%s</si>" % (replace or {}).get(text, text) for text in strings)
        target.writestr(
            "xl/sharedStrings.xml",
            b'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="%s" count="%d" uniqueCount="%d">%s</sst>'
            % (MAIN_NS.encode(), len(strings), len(strings), items),
        )
    return out


@pytest.mark.parametrize("text_kept", ["shared strings", "inline strings", "write-only"])
@pytest.mark.parametrize("kind", CELL_KINDS, ids=[kind.label for kind in CELL_KINDS])
def test_each_kind_of_cell_reads_the_same_with_both_readers(
    kind: CellKind, text_kept: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _one_kind_workbook(tmp_path / "kind.xlsx", kind, write_only=text_kept == "write-only")
    if text_kept == "shared strings":
        path = _with_shared_strings(path)
        assert b"<si>" in zipfile.ZipFile(path).read("xl/sharedStrings.xml")
    default, streaming = _both_readers(path, monkeypatch)
    assert default.reader == kind.reader
    assert default.headers == streaming.headers == ["name", "value", "after"]
    assert list(default.rows[0][1]) == list(streaming.rows[0][1]) == ["Imp", kind.expected, "x"]
    # Same value and same type: 3 and 3.0 compare equal, but a card field must not see one where it saw the other.
    assert [type(value) for value in default.rows[0][1]] == [type(value) for value in streaming.rows[0][1]]
    assert default.rows[0][0] == streaming.rows[0][0] == 2
    assert default.formulas == streaming.formulas


def test_every_kind_in_one_sheet_cell_by_cell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """All the plain kinds together, with empty rows and columns between them, read by calamine cell by cell."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    sheet.append(["name", "value", "", "note"])
    plain = [kind for kind in CELL_KINDS if kind.reader == "calamine"]
    for index, kind in enumerate(plain):
        row = 2 + 2 * index  # a blank row after each card: the row numbers must stay the ones a person sees
        sheet.cell(row=row, column=1, value=kind.label)
        kind.write(sheet.cell(row=row, column=2), kind.value)
        sheet.cell(row=row, column=4, value=f"row {row}")
    path = tmp_path / "all.xlsx"
    book.save(path)
    default, streaming = _both_readers(path, monkeypatch)
    assert default.reader == "calamine"
    assert default.headers == streaming.headers == ["name", "value", "Column C", "note"]
    assert [number for number, _ in default.rows] == [number for number, _ in streaming.rows]
    for (number, ours), (_, theirs), kind in zip(default.rows, streaming.rows, plain, strict=True):
        assert list(ours) == list(theirs) == [kind.label, kind.expected, None, f"row {number}"], kind.label
        assert [type(v) for v in ours] == [type(v) for v in theirs], kind.label


def _findings_with_both_readers(
    path: Path, ruleset_id: str, decks: list[Path], monkeypatch: pytest.MonkeyPatch
) -> tuple[list[str], list[str]]:
    """Every finding (cards and decks) as text, read by default and by the streaming reader; the cards themselves
    must come out the same too."""
    results = []
    for reader in ("auto", "streaming"):
        monkeypatch.setenv(READER_ENVIRONMENT, reader)
        cardset = load_cardset(path, ruleset_id)
        report = validate(cardset, [read_decklist(deck, cardset) for deck in decks])
        cards = [(entry.row, entry.card.model_dump()) for entry in cardset.entries]
        results.append((cards, [finding.to_text() for finding in report.findings]))
    monkeypatch.delenv(READER_ENVIRONMENT)
    assert results[0][0] == results[1][0]
    return results[0][1], results[1][1]


def _resave(source: Path, out: Path, formulas_as_text: bool) -> Path:
    """The workbook saved again by openpyxl; with `formulas_as_text`, a formula cell's text kept as text."""
    book = openpyxl.load_workbook(source)
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if formulas_as_text and cell.data_type == "f":
                    set_cell_value(cell, str(cell.value))
    book.save(out)
    return out


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_bundled_sets_as_workbooks_give_the_same_findings(
    ruleset_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    decks = bundled_decks(ruleset_id)
    for source in bundled_sets(ruleset_id):
        table = read_sheet(source)
        path = write_card_workbook(
            tmp_path / f"{source.stem}.xlsx",
            table.headers,
            [list(row) for _, row in table.rows],
            {"ruleset": ruleset_id},
        )
        assert read_sheet(path).reader == "calamine"
        default, streaming = _findings_with_both_readers(path, ruleset_id, decks, monkeypatch)
        assert default == streaming  # (the cards were compared too; a clean set has no findings)


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_mistakes_workbooks_give_the_same_findings(
    ruleset_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = mistakes_dir(ruleset_id)
    decks = sorted(folder.glob("*.txt"))
    workbook = folder / "mistakes.xlsx"
    # As shipped it holds a formula (the formula_cell finding), so the streaming reader reads it.
    assert read_sheet(workbook).reader == "streaming"
    default, streaming = _findings_with_both_readers(workbook, ruleset_id, decks, monkeypatch)
    assert default == streaming and any("formula" in line for line in default)
    # The same workbook with the formula written as text: calamine reads it, and every finding is the same.
    plain = _resave(workbook, tmp_path / "plain.xlsx", formulas_as_text=True)
    assert read_sheet(plain).reader == "calamine"
    default, streaming = _findings_with_both_readers(plain, ruleset_id, decks, monkeypatch)
    assert default == streaming and default


def _sheet_xml_workbook(path: Path, sheet_xml: bytes) -> Path:
    """A minimal workbook whose Cards sheet is `sheet_xml` as given (inline strings, no styles)."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
        )
        archive.writestr(
            "_rels/.rels",
            '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Target="xl/workbook.xml" '
            'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"/>'
            "</Relationships>",
        )
        archive.writestr(
            "xl/workbook.xml",
            '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
            'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
            '<sheets><sheet name="Cards" sheetId="1" r:id="rId1"/></sheets></workbook>',
        )
        archive.writestr(
            "xl/_rels/workbook.xml.rels",
            '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Target="worksheets/sheet1.xml" '
            'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"/>'
            "</Relationships>",
        )
        archive.writestr("xl/worksheets/sheet1.xml", sheet_xml)
    return path


def _sheet(rows: str) -> bytes:
    return (
        '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f"<sheetData>{rows}</sheetData></worksheet>"
    ).encode()


def _text(reference: str, text: str) -> str:
    return f'<c r="{reference}" t="inlineStr"><is><t>{text}</t></is></c>'


HEADER_ROW = f'<row r="1">{_text("A1", "name")}{_text("B1", "atk")}</row>'

SHEETS_THE_FAST_READER_LEAVES = {
    "a cell in column AA": HEADER_ROW + f'<row r="2">{_text("A2", "Imp")}{_text("AA2", "far")}</row>',
    "a cell in row 100,000": HEADER_ROW + f'<row r="100000">{_text("A100000", "Imp")}</row>',
    "a cell with no reference": HEADER_ROW + '<row r="2"><c t="inlineStr"><is><t>Imp</t></is></c></row>',
    "a row with no number": HEADER_ROW + f"<row>{_text('A2', 'Imp')}</row>",
    "a formula under a namespace prefix": HEADER_ROW
    + '<row r="2"><c r="A2"><x:f xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">1+2</x:f>'
    "<v>3</v></c></row>",
}


@pytest.mark.parametrize("label", list(SHEETS_THE_FAST_READER_LEAVES))
def test_sheets_the_fast_reader_leaves_to_the_streaming_reader(
    label: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _sheet_xml_workbook(tmp_path / "odd.xlsx", _sheet(SHEETS_THE_FAST_READER_LEAVES[label]))
    data = path.read_bytes()
    assert not Workbook(zipfile.ZipFile(io.BytesIO(data)), source=data).plain_sheet("Cards")
    outcomes: list[tuple[Any, ...]] = []
    for reader in ("auto", "streaming"):
        monkeypatch.setenv(READER_ENVIRONMENT, reader)
        try:
            table = read_sheet(path)
            outcomes.append((table.reader, table.headers, [(n, list(r)) for n, r in table.rows], table.formulas))
        except Exception as error:  # the same refusal either way is what is checked
            outcomes.append(("refused", type(error).__name__, str(error)))
    assert outcomes[0] == outcomes[1]


def _cell(reference: str, kind: str, value: str) -> str:
    """A cell of type `kind` (`b`, `s`, `str`, ...; none for a number) holding `value` as written."""
    kind_attribute = f' t="{kind}"' if kind else ""
    return f'<c r="{reference}"{kind_attribute}><v>{value}</v></c>'


IMP = _text("A2", "Imp")
SHEETS_EDITED_BY_HAND = {
    "text in a number cell": HEADER_ROW + f'<row r="2">{IMP}{_cell("B2", "", "abc")}</row>',
    "spaces around a number": HEADER_ROW + f'<row r="2">{IMP}{_cell("B2", "", " 3 ")}</row>',
    "a boolean written as yes": HEADER_ROW + f'<row r="2">{IMP}{_cell("B2", "b", "yes")}</row>',
    "a shared string the workbook lacks": HEADER_ROW + f'<row r="2">{IMP}{_cell("B2", "s", "7")}</row>',
    "a text cell without a formula": HEADER_ROW + f'<row r="2">{IMP}{_cell("B2", "str", "hello")}</row>',
    "an unknown cell type": HEADER_ROW + f'<row r="2">{IMP}{_cell("B2", "zz", "5")}</row>',
    "rows out of order": f'<row r="2">{IMP}</row>' + HEADER_ROW,
    "a cell naming the next row": HEADER_ROW + f'<row r="2">{_text("A3", "Imp")}</row>',
    "the same cell twice": HEADER_ROW + f'<row r="2">{IMP}{_text("A2", "Ogre")}</row>',
    "cells out of order": HEADER_ROW + f'<row r="2">{_text("B2", "x")}{IMP}</row>',
}


@pytest.mark.parametrize("label", list(SHEETS_EDITED_BY_HAND))
def test_sheets_edited_by_hand_read_the_same_by_default_and_streamed(
    label: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whichever reader runs (calamine, or the fallback when the scan or calamine's grid says so), the rows or the
    refusal are the streaming reader's."""
    path = _sheet_xml_workbook(tmp_path / "edited.xlsx", _sheet(SHEETS_EDITED_BY_HAND[label]))
    outcomes: list[tuple[Any, ...]] = []
    for reader in ("auto", "streaming"):
        monkeypatch.setenv(READER_ENVIRONMENT, reader)
        try:
            table = read_sheet(path)
            outcomes.append((table.headers, [(n, list(r)) for n, r in table.rows], table.formulas))
        except Exception as error:
            outcomes.append(("refused", type(error).__name__, str(error)))
    assert outcomes[0] == outcomes[1]


def test_a_plain_handmade_sheet_is_read_by_calamine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The control for the cases above: the same minimal package, with nothing odd in it, goes the fast way."""
    rows = HEADER_ROW + f'<row r="2">{_text("A2", "Imp")}<c r="B2"><v>3</v></c></row>'
    path = _sheet_xml_workbook(tmp_path / "plain.xlsx", _sheet(rows))
    default, streaming = _both_readers(path, monkeypatch)
    assert default.reader == "calamine"
    assert [(n, list(r)) for n, r in default.rows] == [(n, list(r)) for n, r in streaming.rows] == [(2, ["Imp", 3])]


def test_an_entity_declaration_is_refused_by_either_reader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bomb = (
        b'<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>'
        + _sheet(HEADER_ROW + f'<row r="2">{_text("A2", "&b;")}</row>').split(b"?>", 1)[1]
    )
    path = _sheet_xml_workbook(tmp_path / "bomb.xlsx", bomb)
    messages = []
    for reader in ("auto", "streaming"):
        monkeypatch.setenv(READER_ENVIRONMENT, reader)
        with pytest.raises(Exception) as refused:
            read_sheet(path)
        messages.append(str(refused.value))
    assert messages[0] == messages[1] and "entity" in messages[0]


def test_a_long_string_repeated_in_every_cell_is_streamed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """calamine would copy the string into each cell (hundreds of MiB from a file of a few hundred KiB); the streaming
    reader shares one copy, so it reads this sheet."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    sheet.append([f"text {letter}" for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"])
    for _ in range(400):
        sheet.append(["LONG"] * 26)
    book.save(tmp_path / "repeated.xlsx")
    long_text = "Deals 1 damage. " * 1_875  # 30,000 characters, under the 32,767 a cell may hold
    path = _with_shared_strings(tmp_path / "repeated.xlsx", replace={b"<t>LONG</t>": f"<t>{long_text}</t>".encode()})
    assert path.stat().st_size < 100_000
    data = path.read_bytes()
    assert not Workbook(zipfile.ZipFile(io.BytesIO(data)), source=data).plain_sheet("Cards")
    with monkeypatch.context() as bound_lifted:  # the copies are the only reason: without the bound it is plain
        bound_lifted.setattr("workbench.xlsx_rows.MAX_FAST_COPIED_BYTES", 2**40)
        assert Workbook(zipfile.ZipFile(io.BytesIO(data)), source=data).plain_sheet("Cards")
    default, streaming = _both_readers(path, monkeypatch)
    assert default.reader == "streaming" and len(default.rows) == 400 and default.rows[0][1][0] == long_text.strip()
    assert default.rows == streaming.rows


def test_a_large_shared_string_table_is_streamed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table past the fast reader's bound (lowered here, so the file stays small) leaves the sheet to the
    streaming reader, which parses the table only as far as a cell asks."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    sheet.append(["name"])
    for number in range(2_000):
        sheet.append([f"Imp number {number}"])
    book.save(tmp_path / "strings.xlsx")
    path = _with_shared_strings(tmp_path / "strings.xlsx")
    data = path.read_bytes()
    assert Workbook(zipfile.ZipFile(io.BytesIO(data)), source=data).plain_sheet("Cards")
    monkeypatch.setattr("workbench.xlsx_rows.MAX_FAST_STRINGS_BYTES", 10_000)
    assert not Workbook(zipfile.ZipFile(io.BytesIO(data)), source=data).plain_sheet("Cards")
    assert read_sheet(path).reader == "streaming"
