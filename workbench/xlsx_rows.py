"""Reading one worksheet's cells, for card sheets of tens of thousands of rows: a lean streaming reader, and
python-calamine for a sheet it reads the same way.

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

Two readers give those rows. python-calamine (Rust) reads a 10,000-card sheet
several times faster, but drops formulas, shows error cells as empty text,
turns date cells into date objects and unescapes `_xHHHH_` text; so it reads
a sheet only when a scan of the sheet's bytes (and the shared strings') finds
none of those, nor anything the streaming reader refuses or bounds (entity
declarations, cells past column Z or row 99,999, rows or cells with no
reference, more shared strings than the limit). Everything else, and any sheet
calamine cannot read, goes through the streaming reader, which stays the one
that reports formulas and refuses what is bad. Both give the same rows: see
`plain_sheet` and tests/test_fast_reader.py.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from collections.abc import Iterator
from typing import IO, Any, Literal
from xml.etree.ElementTree import ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse
from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import from_excel

from workbench.limits import LIMITS

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
PACKAGE_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_C, _V, _F, _IS, _T, _ROW, _SI, _RPH = (MAIN + tag for tag in ("c", "v", "f", "is", "t", "row", "si", "rPh"))
_SHEET_DATA, _SHEET, _XF, _CELL_XFS, _NUM_FMT = (
    MAIN + tag for tag in ("sheetData", "sheet", "xf", "cellXfs", "numFmt")
)
_CELL_REF = re.compile(r"([A-Z]+)(\d+)$")

LAST_ROW = 1_048_576
"""The last row a spreadsheet program has; a row numbered past it would make the reader walk empty rows for ever."""
LAST_COLUMN = 16_384
"""The last column (XFD); a cell past it would make the reader build a row billions of cells wide."""

MAX_SHARED_STRINGS = 1_000_000
"""The most shared strings parsed (the `shared_strings` limit of workbench/limits.py; a test keeps them equal)."""
MAX_SHEETS = LIMITS["sheets"].value
"""Most sheets a workbook.xml may name: counted as the sheets are met, so a list of millions is refused early."""
MAX_RELATIONSHIPS = LIMITS["zip_entries"].value
"""Most relationships the workbook part may have (each names a part, and a package holds at most this many)."""
MAX_ROW_ELEMENTS = LIMITS["rows"].value
"""Most rows a sheet may write under its header, empty ones included."""
MAX_STYLE_ELEMENTS = LIMITS["styles"].value
"""Most elements read from the styles part (cell formats, fonts, number formats, ...)."""
MAX_XML_DEPTH = LIMITS["xml_depth"].value
"""Deepest nesting of elements read from any part (a sheet nests about 7 deep)."""
PACKAGE_PARTS = (
    ("[Content_Types].xml", "content types"),
    ("docProps/core.xml", "document properties"),
    ("docProps/custom.xml", "custom document properties"),
)
"""Parts no card sheet needs but a save parses whole (openpyxl reads them when it loads the edited sheets,
workbench.xlsx_package): each is parsed, in bounded memory, when the workbook is opened, so an entity declaration in
one is refused on open as in any other part, not first when the set is saved."""
FEW_DATE_STYLES = 64
"""Up to this many date styles the scan searches for them with one pattern; past it, it checks every style number
it meets against the set (a pattern of thousands of alternatives costs more to build than to run)."""

Row = tuple[list[Any], dict[int, str]]

ReaderChoice = Literal["auto", "streaming"]
"""`auto`: calamine for a plain sheet, the streaming reader otherwise; `streaming`: the streaming reader always."""
READER_ENVIRONMENT = "WORKBENCH_XLSX_READER"
"""Environment variable that picks the reader: `streaming` turns the fast reader off (any other value: `auto`)."""
FAST_READER = "calamine"
STREAMING_READER = "streaming"

SCAN_CHUNK_BYTES = 1 << 20
"""How much of a part is inflated at a time while it is scanned (the scan never holds a whole sheet)."""
MAX_CARRIED_BYTES = 1 << 22
"""A run of text this long with no `<` in it is no card sheet a person saved; the scan stops and the sheet is read
by the streaming reader."""
_SHEET_REFUSALS = (
    b"<!",  # an entity declaration (refused by the streaming reader) or CDATA
    b"_x",  # `_xHHHH_` escapes, which calamine decodes and the streaming reader keeps as written
)
_STRINGS_REFUSALS = (b"<!", b"_x", b"<rPh")
# calamine holds what it reads: the sheet's cells, the whole shared-string table (the streaming reader parses only as
# far as a cell asks), and a copy of a shared string in every cell that uses it (the streaming reader shares one).
# Past these bounds the sheet is streamed, so a small file that repeats a long string in every cell, or a table of
# strings no cell uses, costs what it costs the streaming reader.
MAX_FAST_SHEET_BYTES = 64 * 2**20
"""Largest inflated sheet calamine reads (a 10,000-card sheet is about 7 MiB)."""
MAX_FAST_STRINGS_BYTES = 32 * 2**20
"""Largest inflated shared-string table calamine reads."""
MAX_FAST_COPIED_BYTES = 256 * 2**20
"""Most bytes calamine may spend on copies of shared strings: (the sheet's bytes / 24, the smallest a cell that
points at a shared string can be) x the longest string."""
SMALLEST_STRING_CELL_BYTES = 24
_FORMULA_OPENINGS = (b"<f", b":f")
"""A formula element, also under a namespace prefix; `<filterColumn` and the like are told apart by the next byte."""
_ERROR_OR_DATE_CELL = re.compile(rb""" t=["'][ed]["']""")
"""Error cells (calamine gives empty text) and ISO date cells (calamine gives a date object)."""
# A cell with no reference, in column AA or later, or in row 100,000 or later (and a row numbered so): calamine
# holds a sheet as a dense grid from A1 to the last cell, so a cell far out would cost rows x columns, where the
# streaming reader costs only the cells used; and a cell or row with no reference is placed by counting, which the
# two readers might do differently. Within these, the grid is at most 99,999 x 26 cells.
_UNPLACED_OR_FAR_CELL = re.compile(rb'<c(?=[\s>/])(?! r="[A-Z][0-9]{1,5}")')
_UNPLACED_OR_FAR_ROW = re.compile(rb'<row(?=[\s>/])(?! r="[0-9]{1,5}")')
_NOT_A_NUMBER = re.compile(rb"<v>[^<]*?[^0-9.eE+\-<]")
"""A value that is no plain number (text in a number cell, spaces, `inf`): the streaming reader refuses or reads it
its own way, calamine might keep it as text. Shared-string indexes and booleans are digits; text cells (`t="str"`)
match too, and are left to the streaming reader."""
_LAST_ROW_NUMBER = re.compile(rb'<row r="([0-9]+)"')
_ROW_NUMBERS = re.compile(rb'<row r="([0-9]{1,7})"')
_ANY_STYLE = re.compile(rb""" s=["']([0-9]{1,9})["']""")
_STYLE = rb""" s=["'](?:%s)["']"""
"""A cell in one of the date styles (filled in per workbook), which calamine might not read as the streaming
reader does (it gives a date object, or a number where openpyxl's test sees a date format)."""


class SheetReadError(ValueError):
    """A row or cell (or a part) the reader cannot take, with where it is (the caller adds the file)."""

    def __init__(
        self,
        message: str,
        sheet: str | None,
        row: int | None = None,
        column: str | None = None,
        limit: str | None = None,
    ) -> None:
        super().__init__(message)
        self.sheet = sheet
        """The sheet holding the row or cell (None for a workbook-wide part: the workbook or its styles)."""
        self.row = row
        """The row number, when known."""
        self.column = column
        """The cell reference's column letters, when known."""
        self.limit = limit
        """The workbench.limits name the input is over, when that is why it was refused (the message then says
        what was found, and the caller words the refusal with `limits.over_limit`)."""


def _elements(part: IO[bytes], name: str) -> Iterator[tuple[Any, str | None]]:
    """(element, its parent's tag) for each element of a part as it ends, in bounded memory whatever the part holds.

    Nesting deeper than the `xml_depth` limit is refused as soon as the element past it starts (before the rest is
    built), and each element is released from its parent once the caller has seen it, so a part of millions of
    elements is never held as a tree: an element reaches the caller with no children left (callers read
    attributes). Entity declarations are refused by defusedxml, as everywhere.
    """
    stack: list[Any] = []
    for event, element in iterparse(part, events=("start", "end")):
        if event == "start":
            stack.append(element)
            if len(stack) > MAX_XML_DEPTH:
                raise SheetReadError(
                    f"{name} nests its elements more than {MAX_XML_DEPTH} deep", None, limit="xml_depth"
                )
            continue
        stack.pop()
        yield element, (stack[-1].tag if stack else None)
        if stack:
            # Everything the parent holds so far has been seen (or is still being built, and is held by the parser
            # until it ends): release it. An element kept by the parser's own stack stays alive for its end event.
            del stack[-1][:]


class Workbook:
    """The parts of an xlsx a card sheet needs: sheet names and paths, shared strings, date styles."""

    def __init__(self, archive: zipfile.ZipFile, source: bytes | None = None, reader: ReaderChoice = "auto") -> None:
        """`source`: the workbook's bytes, which the fast reader needs (without them every sheet is streamed)."""
        self.archive = archive
        self._check_package_parts()
        self._strings_target: str | None = None
        self.sheet_paths = self._sheet_paths()
        self.shared_strings = SharedStrings(self._open("xl/sharedStrings.xml"))
        self.date_styles = self._date_styles()
        self._date_style_pattern: re.Pattern[bytes] | None = (
            re.compile(_STYLE % b"|".join(str(index).encode() for index in sorted(self.date_styles)))
            if 0 < len(self.date_styles) <= FEW_DATE_STYLES
            else None
        )
        self._source = source if reader == "auto" else None
        self._calamine: Any = None
        self._strings_plain: bool | None = None
        self._longest_string = 0
        self._last_row: dict[str, int] = {}
        self.readers: dict[str, str] = {}
        """Sheet name -> the reader that gave its rows (`calamine` or `streaming`), for the bench and the tests."""

    @property
    def sheet_names(self) -> list[str]:
        """Sheet names in workbook order."""
        return list(self.sheet_paths)

    def _open(self, name: str) -> IO[bytes] | None:
        try:
            return self.archive.open(name)
        except KeyError:
            return None

    def _check_package_parts(self) -> None:
        """Parse the workbook-wide parts a save reads whole (`PACKAGE_PARTS`), so what a save would refuse is refused
        when the workbook is opened, naming the part: an entity declaration, or XML that does not parse."""
        for name, what in PACKAGE_PARTS:
            part = self._open(name)
            if part is None:
                continue
            try:
                with part:
                    for _element in _elements(part, name):
                        pass
            except DefusedXmlException:
                raise SheetReadError(
                    f"the workbook was not opened: its {what} ({name}) contain XML entity declarations (an entity "
                    "bomb or external reference), which are refused.",
                    None,
                ) from None
            except ParseError as error:
                raise SheetReadError(
                    f"the workbook was not opened: its {what} ({name}) could not be parsed (ParseError: {error}).", None
                ) from None

    def _sheet_paths(self) -> dict[str, str]:
        """Sheet name -> part, in workbook order. The sheets are counted as workbook.xml is read, so a list of
        millions is refused at the first sheet past the limit; the relationships likewise."""
        listed: list[tuple[str, str]] = []
        workbook = self._open("xl/workbook.xml")
        if workbook is not None:
            for element, _parent in _elements(workbook, "xl/workbook.xml"):
                if element.tag == _SHEET:
                    listed.append((element.get("name", ""), element.get(REL + "id", "")))
                    if len(listed) > MAX_SHEETS:
                        raise SheetReadError(
                            f"the workbook names at least {len(listed):,} sheets", None, limit="sheets"
                        )
        wanted = {relation for _, relation in listed}
        targets: dict[str, str] = {}
        rels = self._open("xl/_rels/workbook.xml.rels")
        if rels is not None:
            count = 0
            for element, _parent in _elements(rels, "xl/_rels/workbook.xml.rels"):
                if element.tag != PACKAGE_REL + "Relationship":
                    continue
                count += 1
                if count > MAX_RELATIONSHIPS:
                    raise SheetReadError(
                        f"the workbook's relationships (xl/_rels/workbook.xml.rels) name more than "
                        f"{MAX_RELATIONSHIPS:,} parts",
                        None,
                        limit="zip_entries",
                    )
                relation = element.get("Id", "")
                is_strings = element.get("Type", "").endswith("/sharedStrings")
                if relation not in wanted and not is_strings:
                    continue
                target = element.get("Target", "")
                path = (
                    target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))
                )
                targets[relation] = path
                if is_strings:
                    self._strings_target = path
        return {name: targets[relation] for name, relation in listed if relation in targets}

    def _date_styles(self) -> set[int]:
        """Indexes into cellXfs whose number format shows a date or time.

        The styles part is streamed (elements released as they are read, nesting bounded) and refused past the
        `styles` limit of elements; each number format is tested once, however many cell formats use it.
        """
        part = self._open("xl/styles.xml")
        if part is None:
            return set()
        custom: dict[int, str] = {}
        formats: list[int] = []
        for elements, (element, parent) in enumerate(_elements(part, "xl/styles.xml"), start=1):
            if elements > MAX_STYLE_ELEMENTS:
                raise SheetReadError(
                    f"the workbook's styles (xl/styles.xml) hold more than {MAX_STYLE_ELEMENTS:,} elements",
                    None,
                    limit="styles",
                )
            tag = element.tag
            if tag == _NUM_FMT:
                custom[int(element.get("numFmtId", "0"))] = element.get("formatCode", "")
            elif tag == _XF and parent == _CELL_XFS:
                formats.append(int(element.get("numFmtId", "0")))
        dates: dict[int, bool] = {}
        out = set()
        for index, format_id in enumerate(formats):
            is_date = dates.get(format_id)
            if is_date is None:
                is_date = dates[format_id] = is_date_format(
                    custom.get(format_id, BUILTIN_FORMATS.get(format_id, "General"))
                )
            if is_date:
                out.add(index)
        return out

    def rows(self, sheet: str) -> Iterator[Row]:
        """(values, {column index: formula}) per row from row 1, with empty rows where the XML skips some.

        calamine reads the sheet when `plain_sheet` says it may and reads it without an error; the streaming
        reader otherwise (calamine reads the whole sheet before the first row is given, so a fallback never
        repeats a row).
        """
        if self._source is not None and self.plain_sheet(sheet):
            rows = self._calamine_rows(sheet)
            if rows is not None:
                self.readers[sheet] = FAST_READER
                return iter(rows)
        self.readers[sheet] = STREAMING_READER
        return self.streaming_rows(sheet)

    def plain_sheet(self, sheet: str) -> bool:
        """True when calamine gives this sheet's rows exactly as the streaming reader would.

        A scan of the bytes, not a parse: the sheet (and the shared strings, once) is inflated a megabyte at a time
        and searched for formulas, error and ISO date cells, cells in a date style, `_xHHHH_` escapes, entity
        declarations, phonetic runs, cells far out, and rows or cells with no reference (calamine and the streaming
        reader would place those differently). 72-83 ms for the bench's 10,000-card blades sheet (6.7 MB of XML),
        against 0.24-0.26 s for calamine's read and over a second for the streaming reader's; a false alarm only
        costs the slower reader.
        """
        if not self._strings_are_plain():
            return False  # (this scan also measures the longest shared string, used at the end)
        path = self.sheet_paths.get(sheet)
        if path is None or self._open(path) is None:
            return False
        patterns = [_ERROR_OR_DATE_CELL, _UNPLACED_OR_FAR_CELL, _UNPLACED_OR_FAR_ROW, _NOT_A_NUMBER]
        if self._date_style_pattern is not None:
            patterns.append(self._date_style_pattern)
        many_date_styles = len(self.date_styles) > FEW_DATE_STYLES
        first = True
        sheet_bytes = 0
        previous_row = rows_seen = 0
        for chunk in _tag_aligned_chunks(self._open(path)):
            sheet_bytes += len(chunk)
            if sheet_bytes > MAX_FAST_SHEET_BYTES:
                return False
            # The root must carry no namespace prefix, or every element would be prefixed and the searches for
            # unprefixed cells and rows would find nothing.
            if first and b"<worksheet" not in chunk[:1024]:
                return False
            first = False
            if any(needle in chunk for needle in _SHEET_REFUSALS) or _has_formula(chunk):
                return False
            if any(pattern.search(chunk) for pattern in patterns):
                return False
            if many_date_styles and any(int(m.group(1)) in self.date_styles for m in _ANY_STYLE.finditer(chunk)):
                return False
            # Rows out of order (or repeated), and more rows than the limit (empty ones included), are refused by
            # the streaming reader; calamine would sort them, and skips empty rows.
            for row_number in _ROW_NUMBERS.finditer(chunk):
                number = int(row_number.group(1))
                rows_seen += 1
                if number <= previous_row or rows_seen > MAX_ROW_ELEMENTS + 1:
                    return False
                previous_row = number
            last_row_at = chunk.rfind(b"<row ")
            if last_row_at >= 0:
                numbered = _LAST_ROW_NUMBER.match(chunk, last_row_at)
                self._last_row[sheet] = int(numbered.group(1)) if numbered else 0
        if first:
            return False  # an empty part: the streaming reader's answer (no rows) is kept
        return (sheet_bytes // SMALLEST_STRING_CELL_BYTES) * self._longest_string <= MAX_FAST_COPIED_BYTES

    def _strings_are_plain(self) -> bool:
        if self._strings_plain is None:
            self._strings_plain = self._scan_strings()
        return self._strings_plain

    def _scan_strings(self) -> bool:
        target = self._strings_target
        part = self._open("xl/sharedStrings.xml")
        if target is None:
            # No table named by the workbook: calamine reads none, and the streaming reader must find none either.
            return part is None
        if target != "xl/sharedStrings.xml" or part is None:
            return False  # both readers must read the same table, from the same part
        items = 0
        table_bytes = 0
        running = 0  # bytes since the last `<si` seen, so a string split between two pieces is measured whole
        for chunk in _tag_aligned_chunks(part):
            table_bytes += len(chunk)
            if table_bytes > MAX_FAST_STRINGS_BYTES or any(needle in chunk for needle in _STRINGS_REFUSALS):
                return False
            items += chunk.count(b"<si>") + chunk.count(b"<si ")
            if items > MAX_SHARED_STRINGS:
                return False  # the streaming reader refuses a cell that points past the limit
            # The longest string, in XML bytes (never fewer than its text's): split at each string's opening.
            pieces = chunk.split(b"<si")
            if len(pieces) == 1:
                running += len(chunk)
                continue
            self._longest_string = max(self._longest_string, running + len(pieces[0]), *map(len, pieces[1:-1]))
            running = len(pieces[-1])
        self._longest_string = max(self._longest_string, running)
        return True

    def _calamine_rows(self, sheet: str) -> list[Row] | None:
        """The sheet's rows through calamine, in the streaming reader's shape; None when calamine cannot give them
        exactly (it failed, found a date, or found no cells, where the streaming reader tells an empty row 1 from
        an empty sheet)."""
        try:
            if self._calamine is None:
                from python_calamine import CalamineWorkbook

                self._calamine = CalamineWorkbook.from_filelike(io.BytesIO(self._source or b""))
            grid = self._calamine.get_sheet_by_name(sheet).to_python(skip_empty_area=False)
        except Exception:  # calamine raises its own error types for anything it cannot read; the fallback explains
            return None
        # The streaming reader numbers rows by their row elements, calamine by the cells' own references: a grid
        # longer than the last row element's number means a cell claims a row its row element does not (a sheet
        # edited by hand, or rows out of order), where the two would differ.
        if not grid or len(grid) > self._last_row.get(sheet, 0):
            return None
        rows: list[Row] = []
        for cells in grid:
            # A date, time or duration: calamine saw a date format the scan did not, and the streaming reader
            # writes dates as text of its own.
            if not _PLAIN_TYPES.issuperset(map(type, cells)):
                return None
            # As the streaming reader gives them: an empty cell as None, a whole number below 2**53 as an int.
            rows.append(([_calamine_number(v) if type(v) is float else (None if v == "" else v) for v in cells], {}))
        return rows

    def streaming_rows(self, sheet: str) -> Iterator[Row]:
        """The rows as the streaming reader gives them (the reader that reports formulas and refuses bad XML).

        Each row is released once read (a sheet of a million rows is never held), rows must be numbered in
        increasing order, every row the XML writes counts against the `rows` limit (empty or not), and nesting
        past the `xml_depth` limit is refused as soon as it starts.
        """
        path = self.sheet_paths[sheet]
        part = self._open(path)
        if part is None:
            raise SheetReadError(
                f"the workbook names this sheet, but the file does not hold its part ({path[:200]}): the sheet is "
                "missing, not empty.",
                sheet,
            )
        expected_row = 1
        values: list[Any] = []
        formulas: dict[int, str] = {}
        next_column = 0
        depth = 0
        row_elements = 0
        sheet_data: Any = None
        for event, element in iterparse(part, events=("start", "end")):
            if event == "start":
                depth += 1
                if depth > 2:
                    if depth > MAX_XML_DEPTH:
                        raise SheetReadError(
                            f"the sheet nests its elements more than {MAX_XML_DEPTH} deep", sheet, limit="xml_depth"
                        )
                elif depth == 2 and element.tag == _SHEET_DATA:
                    sheet_data = element
                continue
            depth -= 1
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
                if number < expected_row:
                    raise SheetReadError(
                        f"row {number} comes after row {expected_row - 1}: rows must be numbered in increasing "
                        "order, each once, as a spreadsheet program writes them.",
                        sheet,
                        number,
                    )
                row_elements += 1
                if row_elements > MAX_ROW_ELEMENTS + 1:  # the header row and the limit's rows under it
                    raise SheetReadError(
                        f"the sheet writes more than {MAX_ROW_ELEMENTS:,} rows under its header (empty rows included)",
                        sheet,
                        number,
                        limit="rows",
                    )
                while expected_row < number:
                    yield [], {}
                    expected_row += 1
                yield values, formulas
                expected_row = number + 1
                values, formulas, next_column = [], {}, 0
                element.clear()
                if sheet_data is not None:
                    # Release the rows read so far (a row still being built is kept by the parser until it ends).
                    del sheet_data[:]

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
        self._items: Iterator[tuple[str, Any]] | None = (
            iterparse(part, events=("start", "end")) if part is not None else None
        )
        self._depth = 0
        self._root: Any = None
        # The first string is parsed at once: a refused entity declaration stands before it, so a bomb is refused
        # when the workbook is opened, whether or not any cell uses the table.
        self._parse_until(0)

    def _parse_until(self, index: int) -> None:
        while index >= len(self._strings) and self._items is not None:
            for event, element in self._items:
                if event == "start":
                    self._depth += 1
                    if self._depth > MAX_XML_DEPTH:
                        raise SheetReadError(
                            f"the shared strings (xl/sharedStrings.xml) nest their elements more than {MAX_XML_DEPTH} "
                            "deep",
                            None,
                            limit="xml_depth",
                        )
                    if self._root is None:
                        self._root = element
                    continue
                self._depth -= 1
                if element.tag == _SI:
                    self._strings.append(_text_of(element))
                    element.clear()
                    del self._root[:]  # the strings read so far are kept as text, not as elements
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


def _has_formula(chunk: bytes) -> bool:
    for opening in _FORMULA_OPENINGS:
        at = chunk.find(opening)
        while at >= 0:
            if chunk[at + 2 : at + 3] in (b" ", b">", b"/", b"\t", b"\n", b"\r"):
                return True
            at = chunk.find(opening, at + 2)
    return False


_PLAIN_TYPES = frozenset({str, float, bool, int})
"""What calamine gives for a cell the streaming reader reads the same way (text, number, boolean)."""


def _calamine_number(value: float) -> float | int:
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


def _tag_aligned_chunks(part: IO[bytes] | None) -> Iterator[bytes]:
    """A part's bytes in pieces of about `SCAN_CHUNK_BYTES`, each ending just before a `<`, so no tag and no text
    between tags is ever split between two pieces (a search for a tag or a `_x` escape sees it whole). Stops early,
    yielding a piece with `_OVERFLOW` appended, when more than `MAX_CARRIED_BYTES` hold no `<`."""
    if part is None:
        return
    carried = b""
    with part:
        while True:
            block = part.read(SCAN_CHUNK_BYTES)
            if not block:
                break
            buffer = carried + block
            cut = buffer.rfind(b"<")
            if cut <= 0:
                carried = buffer
                if len(carried) > MAX_CARRIED_BYTES:
                    yield _OVERFLOW
                    return
                continue
            carried = buffer[cut:]
            yield buffer[:cut]
    if carried:
        yield carried


_OVERFLOW = b"<!overflow"
"""Yielded by `_tag_aligned_chunks` when a part holds too long a run without a tag: it holds `<!`, which every scan
treats as not plain."""


def _column_index(letters: str) -> int:
    index = 0
    for letter in letters:
        index = index * 26 + (ord(letter) - 64)
    return index - 1
