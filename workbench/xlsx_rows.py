"""A lean, streaming reader of one worksheet's cells, for card sheets of tens of thousands of rows.

openpyxl builds a cell object per cell and spends most of a 10,000-card read
on that bookkeeping; a card sheet needs only values, formulas and row numbers.
This reader walks the sheet's XML once with defusedxml's iterparse (entity
declarations refused, as openpyxl does when defusedxml is installed) and
yields rows in the shape `spreadsheets._table_from_rows` takes. Writing
workbooks stays with openpyxl.

What it reads, as openpyxl would: shared and inline strings (rich-text runs
joined), numbers (whole floats as ints), booleans, error values as their text,
dates (numbers in a date format) as text, and formulas (reported, never
computed). Rows the XML skips come out empty, so row numbers stay the ones a
person sees.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from collections.abc import Iterator
from typing import IO, Any

from defusedxml.ElementTree import iterparse
from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import from_excel

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
PACKAGE_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_C, _V, _F, _IS, _T, _ROW, _SI, _RPH = (MAIN + tag for tag in ("c", "v", "f", "is", "t", "row", "si", "rPh"))
_CELL_REF = re.compile(r"([A-Z]+)(\d+)$")

LAST_ROW = 1_048_576
"""The last row a spreadsheet program has; a row numbered past it would make the reader walk empty rows for ever."""
LAST_COLUMN = 16_384
"""The last column (XFD); a cell past it would make the reader build a row billions of cells wide."""

MAX_SHARED_STRINGS = 1_000_000
"""The most shared strings parsed (the `shared_strings` limit of workbench/limits.py; a test keeps them equal)."""

Row = tuple[list[Any], dict[int, str]]


class SheetReadError(ValueError):
    """A row or cell the reader cannot take, with where it is (the caller adds the file)."""

    def __init__(self, message: str, sheet: str, row: int | None = None, column: str | None = None) -> None:
        super().__init__(message)
        self.sheet = sheet
        """The sheet holding the row or cell."""
        self.row = row
        """The row number, when known."""
        self.column = column
        """The cell reference's column letters, when known."""


class Workbook:
    """The parts of an xlsx a card sheet needs: sheet names and paths, shared strings, date styles."""

    def __init__(self, archive: zipfile.ZipFile) -> None:
        self.archive = archive
        self.sheet_paths = self._sheet_paths()
        self.shared_strings = SharedStrings(self._open("xl/sharedStrings.xml"))
        self.date_styles = self._date_styles()

    @property
    def sheet_names(self) -> list[str]:
        """Sheet names in workbook order."""
        return list(self.sheet_paths)

    def _open(self, name: str) -> IO[bytes] | None:
        try:
            return self.archive.open(name)
        except KeyError:
            return None

    def _sheet_paths(self) -> dict[str, str]:
        targets: dict[str, str] = {}
        rels = self._open("xl/_rels/workbook.xml.rels")
        if rels is not None:
            for _, element in iterparse(rels):
                if element.tag == PACKAGE_REL + "Relationship":
                    target = element.get("Target", "")
                    path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))
                    targets[element.get("Id", "")] = path
        paths: dict[str, str] = {}
        workbook = self._open("xl/workbook.xml")
        if workbook is not None:
            for _, element in iterparse(workbook):
                if element.tag == MAIN + "sheet":
                    relation = element.get(REL + "id", "")
                    if relation in targets:
                        paths[element.get("name", "")] = targets[relation]
        return paths

    def _date_styles(self) -> set[int]:
        """Indexes into cellXfs whose number format shows a date or time."""
        part = self._open("xl/styles.xml")
        if part is None:
            return set()
        custom: dict[int, str] = {}
        formats: list[int] = []
        in_cell_xfs = False
        for event, element in iterparse(part, events=("start", "end")):
            tag = element.tag
            if tag == MAIN + "cellXfs":
                in_cell_xfs = event == "start"
            elif event == "end" and tag == MAIN + "numFmt":
                custom[int(element.get("numFmtId", "0"))] = element.get("formatCode", "")
            elif event == "end" and tag == MAIN + "xf" and in_cell_xfs:
                formats.append(int(element.get("numFmtId", "0")))
        out = set()
        for index, format_id in enumerate(formats):
            code = custom.get(format_id, BUILTIN_FORMATS.get(format_id, "General"))
            if is_date_format(code):
                out.add(index)
        return out

    def rows(self, sheet: str) -> Iterator[Row]:
        """(values, {column index: formula}) per row from row 1, with empty rows where the XML skips some."""
        part = self._open(self.sheet_paths[sheet])
        if part is None:
            return
        expected_row = 1
        values: list[Any] = []
        formulas: dict[int, str] = {}
        next_column = 0
        for _, element in iterparse(part):
            tag = element.tag
            if tag == _C:
                reference = element.get("r")
                column = next_column
                cell_row = expected_row  # where the XML skips rows, the cell's own reference says which row it is in
                if reference:
                    match = _CELL_REF.match(reference)
                    if match:
                        letters, digits = match.groups()
                        # Past three letters is past XFD; a long run of letters is not worth the arithmetic.
                        column = _column_index(letters) if len(letters) <= 3 else LAST_COLUMN
                        cell_row = int(digits) if len(digits) <= 7 else expected_row
                if column >= LAST_COLUMN:
                    raise SheetReadError(
                        f"a cell ({(reference or '')[:20]}) lies past column XFD, the last a spreadsheet program has.",
                        sheet,
                        cell_row,
                    )
                next_column = column + 1
                try:
                    value, formula = self._cell(element)
                except (ValueError, IndexError, OverflowError) as error:
                    letters = get_column_letter(column + 1)
                    raise SheetReadError(
                        f"cell {letters}{cell_row} could not be read ({error}).", sheet, cell_row, letters
                    ) from None
                if (value is not None and value != "") or formula is not None:
                    # An empty cell (even an empty text cell at column XFD) costs nothing: the row is extended
                    # only to a cell that holds something.
                    if column >= len(values):
                        values.extend([None] * (column + 1 - len(values)))
                    values[column] = value
                    if formula is not None:
                        formulas[column] = formula
                element.clear()
            elif tag == _ROW:
                try:
                    number = int(element.get("r") or expected_row)
                except ValueError:
                    raise SheetReadError(
                        f"a row is numbered '{element.get('r', '')[:20]}', not a whole number.", sheet
                    ) from None
                if not 1 <= number <= LAST_ROW:
                    raise SheetReadError(
                        f"a row is numbered {number}; rows run from 1 to {LAST_ROW:,} in a spreadsheet program.", sheet
                    )
                while expected_row < number:
                    yield [], {}
                    expected_row += 1
                yield values, formulas
                expected_row = number + 1
                values, formulas, next_column = [], {}, 0
                element.clear()

    def _cell(self, element: Any) -> tuple[Any, str | None]:
        formula_element = element.find(_F)
        if formula_element is not None:
            text = formula_element.text
            return None, "=" + text if text else "=(shared formula)"
        kind = element.get("t", "n")
        if kind == "inlineStr":
            inline = element.find(_IS)
            return (_text_of(inline) if inline is not None else None), None
        raw = element.findtext(_V)
        if raw is None:
            return None, None
        if kind == "s":
            return self.shared_strings.get(int(raw)), None
        if kind == "b":
            return raw.strip() in ("1", "true"), None
        if kind in ("str", "e", "d"):
            return raw, None
        number = float(raw)
        style = element.get("s")
        if style is not None and int(style) in self.date_styles:
            return str(from_excel(number)), None  # dates kept as text, as the card models expect
        return (int(number) if number.is_integer() and abs(number) < 2**53 else number), None


class SharedStrings:
    """The shared-string table, parsed lazily: only as far as the highest string a cell asks for.

    A workbook may carry millions of strings no card cell uses (a second sheet's, or padding meant to exhaust the
    reader); they are never parsed. At most the `shared_strings` limit of strings are held.
    """

    def __init__(self, part: IO[bytes] | None) -> None:
        self._strings: list[str] = []
        self._items: Iterator[tuple[str, Any]] | None = iterparse(part) if part is not None else None
        # The first string is parsed at once: a refused entity declaration stands before it, so a bomb is refused
        # when the workbook is opened, whether or not any cell uses the table.
        self._parse_until(0)

    def _parse_until(self, index: int) -> None:
        while index >= len(self._strings) and self._items is not None:
            for _, element in self._items:
                if element.tag == _SI:
                    self._strings.append(_text_of(element))
                    element.clear()
                    break
            else:
                self._items = None

    def get(self, index: int) -> str:
        """The string at `index`; ValueError (naming the index) when the table has no such string or it lies past
        the limit."""
        if index < 0:
            # A negative index would silently pick a string from the end of the list.
            raise ValueError(f"it points at shared string {index}, which no workbook has")
        if index >= MAX_SHARED_STRINGS:
            raise ValueError(
                f"it points at shared string {index:,}, past the limit of {MAX_SHARED_STRINGS:,} shared strings "
                "(save the workbook again from a spreadsheet program, which drops unused strings)"
            )
        self._parse_until(index)
        if index >= len(self._strings):
            raise ValueError(f"it points at shared string {index}, but the workbook has {len(self._strings)}")
        return self._strings[index]


def _text_of(element: Any) -> str:
    """A string item's text: its `t` runs joined, phonetic guides (`rPh`) left out."""
    parts: list[str] = []
    for child in element:
        if child.tag == _T:
            parts.append(child.text or "")
        elif child.tag != _RPH:
            parts.extend(t.text or "" for t in child.iter(_T))
    return "".join(parts)


def _column_index(letters: str) -> int:
    index = 0
    for letter in letters:
        index = index * 26 + (ord(letter) - 64)
    return index - 1
