"""Reading and writing card sheets (xlsx and csv), safely.

Uploads are untrusted: before openpyxl parses a workbook, the zip is checked
(entry count, inflated size, compression ratio), and openpyxl parses XML with
defusedxml, which refuses entity bombs. Formula cells are reported rather than
read as empty. Every refusal is a `WorkbenchInputError` naming file, sheet,
row and column.
"""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import os
import re
import stat
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import defusedxml  # noqa: F401  (openpyxl switches to defusedxml when it can import it)
import openpyxl
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from workbench.cards import WorkbenchInputError
from workbench.limits import LIMITS, over_limit
from workbench.xlsx_rows import READER_ENVIRONMENT, ReaderChoice, SheetReadError, Workbook

MAX_FILE_BYTES = LIMITS["file_bytes"].value
"""Largest file read at all (50 MiB); every limit lives in workbench/limits.py."""
MAX_ZIP_ENTRIES = LIMITS["zip_entries"].value
"""An xlsx has a handful of parts per sheet; thousands means something is wrong."""
MAX_INFLATED_BYTES = LIMITS["inflated_bytes"].value
"""Largest total the xlsx's parts may inflate to (500 MiB)."""
MAX_COMPRESSION_RATIO = LIMITS["compression_ratio"].value
"""Real sheets compress 5-50x; a part inflating more than this is treated as a zip bomb."""
MAX_ROWS = LIMITS["rows"].value
"""Most card rows read from one sheet."""
MAX_COLUMNS = LIMITS["columns"].value
"""Most columns read from one sheet."""
MAX_CELLS = LIMITS["cells"].value
"""Most non-empty cells read from one sheet (empty cells are not counted, and cost nothing)."""
MAX_SHEETS = LIMITS["sheets"].value
"""Most sheets in one workbook."""
MAX_CELL_CHARS = LIMITS["text_cell_chars"].value
"""Most characters in one cell (a spreadsheet program's own limit)."""

XLSX_SUFFIXES = (".xlsx", ".xlsm")
CSV_SUFFIXES = (".csv", ".tsv", ".txt")
CSV_DELIMITERS = (",", ";", "\t")
"""Delimiters a csv may use, the usual first (a tie goes to the earlier one when the sniffer cannot tell)."""
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


@dataclass
class SheetTable:
    """One sheet as read: headers and the non-empty rows, with the rows a person sees."""

    path: str
    """The file it came from."""
    sheet: str
    """Sheet name for xlsx; the file name for csv."""
    headers: list[str]
    """Header cells as written (row 1), blank headers named `Column <letter>`."""
    rows: list[tuple[int, Sequence[Any]]]
    """(row number a person sees, cell values) for every non-empty row after the header; a row read from a file is
    a `PaddedRow` (as wide as the header, storing only its cells up to the last non-empty one)."""
    formulas: dict[tuple[int, int], str] = field(default_factory=dict)
    """(row number, column index) -> formula text, for cells holding a formula."""
    set_info: dict[str, str] = field(default_factory=dict)
    """Key/value rows of the optional `Set` sheet (`ruleset`, `name`, `version`)."""
    sheet_names: list[str] = field(default_factory=list)
    """Every sheet in the workbook, in order (so a save can keep them all)."""
    notes: list[str] = field(default_factory=list)
    """Things worth telling the user that are not errors (e.g. the encoding guessed)."""
    decks_sheet: SheetTable | None = None
    """The optional `Decks` sheet (xlsx only) as read: its headers and rows; no headers when it is empty."""
    decks_sheet_error: WorkbenchInputError | None = None
    """Why the `Decks` sheet could not be read as a table, when it could not (the cards are read all the same)."""
    reader: str = "csv"
    """What read the card sheet: `calamine` (the fast reader, for an xlsx sheet with no formula, error or date
    cells), `streaming` (every other xlsx sheet) or `csv`."""

    def column_letter(self, index: int) -> str:
        """The spreadsheet letter of a 0-based column index."""
        return get_column_letter(index + 1)


def read_sheet(path: str | os.PathLike[str], data: bytes | None = None, filename: str | None = None) -> SheetTable:
    """Read the card sheet of an xlsx or csv file (or of `data`, an upload's bytes)."""
    display = filename or str(path)
    if data is None:
        data = read_input_file(path, display, "an .xlsx or .csv card sheet")
    elif len(data) > MAX_FILE_BYTES:
        raise over_limit("file_bytes", f"the upload is {len(data) / 2**20:.1f} MiB", path=display)
    if not data:
        raise WorkbenchInputError("the file is empty (0 bytes).", path=display, expected="an .xlsx or .csv card sheet")
    suffix = Path(display).suffix.casefold()
    if data.startswith(OLE_MAGIC):
        raise WorkbenchInputError(
            "this is a password-protected workbook or an old .xls file; the workbench cannot read either.",
            path=display,
            expected="an .xlsx saved without a password (File > Save As > Excel Workbook), or a .csv",
        )
    if data.startswith(b"PK"):
        return _read_xlsx(data, display)
    if suffix in XLSX_SUFFIXES:
        raise WorkbenchInputError(
            "the name says .xlsx but the contents are not an Excel workbook (no zip signature).",
            path=display,
            expected="a real .xlsx file, or rename a text table to .csv",
        )
    if suffix not in CSV_SUFFIXES and suffix:
        raise WorkbenchInputError(
            f"'{suffix}' is not a card-sheet format.", path=display, expected="an .xlsx or .csv file"
        )
    return _read_csv(data, display)


_FILE_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _not_a_file(mode: int) -> str | None:
    """What a non-regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in _FILE_KINDS if test(mode)), "not a regular file")


def read_input_file(path: str | os.PathLike[str], display: str, expected: str, size_limit: str = "file_bytes") -> bytes:
    """The bytes of an input file, refused by type before it is opened for reading and by size before it is read.

    Only regular files are read: a device (a symlink to /dev/zero reads as 0 bytes, then never ends), a FIFO (which
    blocks until something writes to it) or a folder is refused by what it is, not by its size. The file is opened
    without blocking and checked again on the open handle, so one swapped in after the first look is refused too,
    and at most the size limit plus one byte is ever read. `size_limit` names the limit of workbench.limits that
    bounds its size (a card sheet's or decklist's `file_bytes`, a SOURCE map's `map_bytes`).
    """
    max_bytes = MAX_FILE_BYTES if size_limit == "file_bytes" else LIMITS[size_limit].value
    file_path = Path(path)
    try:
        first_look = os.stat(file_path)
    except FileNotFoundError:
        raise WorkbenchInputError("the file does not exist.", path=display, expected=f"a path to {expected}") from None
    except OSError as error:
        raise WorkbenchInputError(
            f"the file cannot be read ({error.strerror or error}).", path=display, expected=expected
        ) from None
    kind = _not_a_file(first_look.st_mode)
    if kind == "a folder":
        raise WorkbenchInputError("this is a folder, not a file.", path=display, expected=expected)
    if kind is not None:
        raise WorkbenchInputError(
            f"this is {kind}, not a regular file; only files saved on disk are read.", path=display, expected=expected
        )
    if first_look.st_size > max_bytes:
        raise over_limit(size_limit, f"the file is {_size_shown(first_look.st_size)}", path=display)
    try:
        descriptor = os.open(file_path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise WorkbenchInputError(
            f"the file cannot be read ({error.strerror or error}).", path=display, expected=expected
        ) from None
    with os.fdopen(descriptor, "rb") as handle:
        opened = os.fstat(handle.fileno())
        if _not_a_file(opened.st_mode) is not None:
            raise WorkbenchInputError(
                "the file was replaced by something that is not a regular file while it was opened.",
                path=display,
                expected=expected,
            )
        # Read what the file holds (plus a byte, to see it grow), not a buffer the size of the limit: a 2 KiB file
        # must not cost a 50 MiB allocation. A file that grew is read on, up to the limit plus one byte.
        data = handle.read(min(opened.st_size, max_bytes) + 1)
        if len(data) > opened.st_size:
            data += handle.read(max_bytes + 1 - len(data))
    if len(data) > max_bytes:
        raise over_limit(size_limit, "the file grew past the limit while it was read", path=display)
    return data


def _size_shown(size: int) -> str:
    """A file's size in words: MiB for a large file, bytes near a small limit (1 MiB + 1 byte is not `1.0 MiB`)."""
    return f"{size / 2**20:.1f} MiB" if size >= 10 * 2**20 else f"{size:,} bytes"


def _check_zip(data: bytes, display: str) -> None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise WorkbenchInputError(
            "the workbook is corrupt (its zip structure cannot be read).",
            path=display,
            expected="an .xlsx that opens in a spreadsheet program",
        ) from None
    infos = archive.infolist()
    if len(infos) > MAX_ZIP_ENTRIES:
        raise WorkbenchInputError(
            f"the workbook has {len(infos)} zip entries, more than the limit of {MAX_ZIP_ENTRIES}.",
            path=display,
            expected="an ordinary .xlsx card sheet",
        )
    # A part written twice: zip readers differ on which copy they give (Python's the last, others the first), so a
    # formula in one copy could pass unseen while the other is read. Part names are compared ignoring case, as the
    # package format says they are.
    seen: dict[str, str] = {}
    for info in infos:
        key = info.filename.casefold()
        first = seen.get(key)
        if first is None:
            seen[key] = info.filename
        else:
            also = "" if first == info.filename else f" (also written '{first[:200]}')"
            raise WorkbenchInputError(
                f"the workbook holds the part '{info.filename[:200]}'{also} more than once; which copy a program "
                "reads cannot be told, so the workbook was not opened.",
                path=display,
                expected="an .xlsx saved by a spreadsheet program (it writes each part once)",
            )
    total = 0
    for info in infos:
        total += info.file_size
        if info.file_size > 1_000_000 and info.file_size > MAX_COMPRESSION_RATIO * max(info.compress_size, 1):
            raise WorkbenchInputError(
                f"part '{info.filename}' would inflate {info.file_size // max(info.compress_size, 1)}x "
                f"(limit {MAX_COMPRESSION_RATIO}x); the file looks like a zip bomb and was not opened.",
                path=display,
                expected="an ordinary .xlsx card sheet",
            )
    if total > MAX_INFLATED_BYTES:
        raise WorkbenchInputError(
            f"the workbook would inflate to {total / 2**20:.0f} MiB, more than the {MAX_INFLATED_BYTES // 2**20} MiB "
            "limit.",
            path=display,
            expected="a smaller card sheet",
        )
    names = {info.filename for info in infos}
    if "xl/workbook.xml" not in names:
        raise WorkbenchInputError(
            "this zip file is not an Excel workbook (it has no xl/workbook.xml).",
            path=display,
            expected="an .xlsx card sheet",
        )


def _open_workbook(data: bytes, display: str) -> Workbook:
    _check_zip(data, display)
    # WORKBENCH_XLSX_READER=streaming turns the fast reader off (to compare the two, or if calamine misreads a file).
    reader: ReaderChoice = "streaming" if os.environ.get(READER_ENVIRONMENT, "").strip() == "streaming" else "auto"
    try:
        return Workbook(zipfile.ZipFile(io.BytesIO(data)), source=data, reader=reader)
    except SheetReadError as error:
        raise _sheet_error(error, display) from None
    except Exception as error:  # zip and XML parsers raise many types; every one means "unreadable"
        raise _unreadable(error, display) from None


def _sheet_error(error: SheetReadError, display: str) -> WorkbenchInputError:
    """A reader's refusal as the one-paragraph message: past a limit, worded by the limit; else what is wrong."""
    if error.limit is not None:
        return over_limit(error.limit, str(error), path=display, sheet=error.sheet, row=error.row, column=error.column)
    return WorkbenchInputError(
        str(error),
        path=display,
        sheet=error.sheet,
        row=error.row,
        column=error.column,
        expected="a workbook saved by a spreadsheet program",
    )


def _unreadable(error: Exception, display: str) -> WorkbenchInputError:
    kind = type(error).__name__
    if "Entities" in kind or "DTD" in kind or "ExternalReference" in kind:
        reason = "it contains XML entity declarations (an entity bomb or external reference), which are refused"
    else:
        reason = f"it could not be parsed ({kind}: {error})"
    return WorkbenchInputError(
        f"the workbook was not opened: {reason}.", path=display, expected="an .xlsx that opens in a spreadsheet program"
    )


def _read_xlsx(data: bytes, display: str) -> SheetTable:
    workbook = _open_workbook(data, display)
    sheet_names = workbook.sheet_names
    if not sheet_names:
        raise WorkbenchInputError("the workbook has no sheets.", path=display, expected="a workbook with a Cards sheet")
    if len(sheet_names) > MAX_SHEETS:
        raise over_limit("sheets", f"the workbook has {len(sheet_names):,} sheets", path=display)
    card_sheet = next((n for n in sheet_names if n.strip().casefold() == "cards"), sheet_names[0])
    set_sheet = next((n for n in sheet_names if n.strip().casefold() == "set"), None)
    decks_sheet = next((n for n in sheet_names if n.strip().casefold() == DECKS_SHEET.casefold()), None)
    try:
        set_info = _read_key_values(workbook, set_sheet) if set_sheet is not None and set_sheet != card_sheet else {}
        table = _table_from_rows(workbook.rows(card_sheet), display, card_sheet)
        if decks_sheet is not None and decks_sheet != card_sheet:
            table.decks_sheet, table.decks_sheet_error = _read_decks_sheet(workbook, decks_sheet, display)
    except WorkbenchInputError:
        raise
    except SheetReadError as error:
        raise _sheet_error(error, display) from None
    except Exception as error:
        raise _unreadable(error, display) from None
    table.set_info = set_info
    table.sheet_names = sheet_names
    table.reader = workbook.readers.get(card_sheet, "streaming")
    return table


DECKS_SHEET = "Decks"
"""The optional sheet of an xlsx card workbook that holds the set's decklists (any case)."""


def _read_decks_sheet(
    workbook: Workbook, sheet: str, display: str
) -> tuple[SheetTable | None, WorkbenchInputError | None]:
    """The `Decks` sheet as a table, or why it cannot be one; an empty sheet is a table with no headers (no decks).

    A Decks sheet that cannot be read as a table (no header row, a value under no header, ...) does not stop the
    cards being read: the error is kept for whoever asks for the decks, who reports it as a finding naming the
    sheet. XML that is refused (entity declarations) or corrupt still stops the whole workbook, as for any sheet.
    """
    empty = SheetTable(path=display, sheet=sheet, headers=[], rows=[])
    try:
        rows = workbook.rows(sheet)  # streamed, as the card sheet is: the row cap is checked while reading
        first = next(rows, None)
        if first is None:
            return empty, None
        # Row 1 holds no headers: a sheet with nothing at all is no decks, anything further down is an error.
        if not _has_content(first) and not any(_has_content(row) for row in rows):
            return empty, None
        return _table_from_rows(itertools.chain([first], rows), display, sheet), None
    except WorkbenchInputError as error:
        expected = error.expected
        if error.row == 1:
            expected = "the headers deck, count and name (and section) in row 1 of the Decks sheet"
        return None, WorkbenchInputError(
            error.detail, path=display, sheet=sheet, row=error.row, column=error.column, expected=expected
        )
    except SheetReadError as error:
        return None, _sheet_error(error, display)


def _has_content(row: tuple[Sequence[Any], dict[int, str]]) -> bool:
    values, formulas = row
    return bool(formulas) or any(_clean(value) not in (None, "") for value in values)


def _read_key_values(workbook: Workbook, sheet: str) -> dict[str, str]:
    info: dict[str, str] = {}
    for row, _formulas in workbook.rows(sheet):
        if not row or row[0] is None:
            continue
        key = str(row[0]).strip().casefold()
        value = "" if len(row) < 2 or row[1] is None else str(row[1]).strip()
        if key in ("key", "field") and value.casefold() in ("value", ""):
            continue
        info[key] = value
    return info


def _decode_text(data: bytes, display: str) -> tuple[str, list[str]]:
    for boms, encoding in (
        ((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"), "utf-32"),
        ((b"\xff\xfe", b"\xfe\xff"), "utf-16"),
    ):
        if data.startswith(boms):
            try:
                return data.decode(encoding), [f"read as {encoding.upper()} (byte-order mark found)"]
            except UnicodeDecodeError as error:
                raise WorkbenchInputError(
                    f"the file starts with a {encoding.upper()} byte-order mark but byte {error.start} does not fit "
                    f"{encoding.upper()} ({error.reason}).",
                    path=display,
                    expected="a text table saved whole, preferably as CSV UTF-8",
                ) from None
    if b"\x00" in data[:4096]:
        unmarked = _unmarked_utf16(data)
        if unmarked is not None:
            return unmarked
        raise WorkbenchInputError(
            "the file holds binary data, not a text table.", path=display, expected="an .xlsx workbook or a UTF-8 .csv"
        )
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as error:
        text = data.decode("cp1252", errors="replace")
        return text, [
            f"not valid UTF-8 (byte {error.start}); read as Windows-1252. Save as 'CSV UTF-8' to avoid misread accents."
        ]


def _unmarked_utf16(data: bytes) -> tuple[str, list[str]] | None:
    """UTF-16 text without a byte-order mark, told by its zero bytes: every other byte, as Latin letters have."""
    head = data[:4096]
    high_odd = head[1::2].count(0)
    high_even = head[0::2].count(0)
    pairs = max(len(head) // 2, 1)
    for zeros, other, encoding in ((high_odd, high_even, "utf-16-le"), (high_even, high_odd, "utf-16-be")):
        # Mostly Latin text: at least half the pairs have a zero high byte, and no low byte is zero.
        if zeros >= pairs // 2 and other == 0 and len(data) % 2 == 0:
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError:
                return None
            return text, [
                f"read as {encoding.upper()} (no byte-order mark; told by its zero bytes). Save as CSV UTF-8."
            ]
    return None


def _guess_delimiter(text: str) -> str:
    """The delimiter that splits the header row into the most columns; the sniffer only breaks a tie.

    The sniffer alone counts delimiters per physical line, so rules text with line breaks inside quoted
    cells (common in card text) made it misread semicolon files as comma files.
    """
    header_line = re.split(r"\r\n|\r|\n", text, maxsplit=1)[0]
    widths = {d: len(next(csv.reader([header_line], delimiter=d), [])) for d in CSV_DELIMITERS}
    widest = max(widths.values())
    candidates = [d for d in CSV_DELIMITERS if widths[d] == widest]
    if len(candidates) == 1:
        return candidates[0]
    try:
        return csv.Sniffer().sniff(text[:8192], delimiters="".join(candidates)).delimiter
    except csv.Error:
        return candidates[0]


def _read_csv(data: bytes, display: str) -> SheetTable:
    text, notes = _decode_text(data, display)
    sheet = Path(display).name
    nul = text.find("\x00")
    if nul >= 0:
        # Past the first 4 KB the binary check above does not look; a NUL anywhere still means this is not a table.
        raise WorkbenchInputError(
            "the file holds binary data (a NUL byte), not a text table.",
            path=display,
            sheet=sheet,
            row=text.count("\n", 0, nul) + 1,
            expected="an .xlsx workbook or a UTF-8 .csv",
        )
    try:
        delimiter = _guess_delimiter(text)
    except csv.Error as error:
        raise WorkbenchInputError(
            f"the header row could not be read as a table ({error}).",
            path=display,
            sheet=sheet,
            row=1,
            expected="comma-separated rows",
        ) from None
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        table = _table_from_rows(((row, {}) for row in reader), display, sheet)
    except csv.Error as error:
        raise WorkbenchInputError(
            f"the text could not be read as a table ({error}).",
            path=display,
            sheet=sheet,
            expected="comma-separated rows",
        ) from None
    table.notes.extend(notes)
    table.sheet_names = [sheet]
    return table


class PaddedRow(Sequence[Any]):
    """One sheet row as wide as the header, holding only its cells up to the last non-empty one.

    Index a column past the stored cells and the answer is None (an empty cell), as a row padded to the header
    would say, without a list the width of the header per row: a 1,024-column header over 200,000 one-cell rows
    costs 200,000 short rows, not 200 million empty cells.
    """

    __slots__ = ("cells", "width")

    def __init__(self, cells: list[Any], width: int) -> None:
        self.cells = cells
        """The row's cells from column A to its last non-empty one."""
        self.width = width
        """The header's width: the row reads as this many cells."""

    def __len__(self) -> int:
        return self.width

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.width))]
        if index < 0:
            index += self.width
        if not 0 <= index < self.width:
            raise IndexError("column out of range")
        return self.cells[index] if index < len(self.cells) else None

    def __iter__(self) -> Any:
        yield from self.cells
        yield from itertools.repeat(None, self.width - len(self.cells))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PaddedRow):
            return self.width == other.width and self.cells == other.cells
        if isinstance(other, (list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((tuple(self.cells), self.width))

    def __repr__(self) -> str:
        return repr(list(self))


def _table_from_rows(rows: Iterable[tuple[Sequence[Any], dict[int, str]]], display: str, sheet: str) -> SheetTable:
    header: list[str] | None = None
    body: list[tuple[int, Any]] = []
    formulas: dict[tuple[int, int], str] = {}
    cells_used = 0
    for number, (raw, row_formulas) in enumerate(rows, start=1):
        # _clean inlined (a call per cell was a fifth of reading a 10,000-card sheet): text stripped, blank text
        # as an empty cell, whole floats as ints.
        values = [
            (v.strip() or None) if type(v) is str else (int(v) if type(v) is float and v.is_integer() else v)
            for v in raw
        ]
        # Trailing empty cells cost nothing from here on: a row keeps its cells up to its last non-empty one.
        while values and values[-1] is None:
            values.pop()
        if header is None:
            if not values and not row_formulas:
                raise WorkbenchInputError(
                    "row 1 is empty; the first row must hold the column headers.",
                    path=display,
                    sheet=sheet,
                    row=number,
                    expected="headers such as name, kind, ... in row 1 (see `workbench template`)",
                )
            if len(values) > MAX_COLUMNS:
                raise over_limit(
                    "columns", f"the sheet has {len(values):,} header columns", path=display, sheet=sheet, row=1
                )
            header = [
                str(v).strip() if v not in (None, "") else f"Column {get_column_letter(i + 1)}"
                for i, v in enumerate(values)
            ]
            cells_used = len(values)
            continue
        if not values and not row_formulas:
            continue
        if len(body) >= MAX_ROWS:
            raise over_limit(
                "rows", f"the sheet has more than {MAX_ROWS:,} card rows", path=display, sheet=sheet, row=number
            )
        width = len(header)
        if len(values) > width:
            extra = next(i for i, v in enumerate(values[width:], start=width) if v is not None)
            raise WorkbenchInputError(
                f"a value stands in a column with no header ({get_column_letter(extra + 1)}).",
                path=display,
                sheet=sheet,
                row=number,
                column=get_column_letter(extra + 1),
                expected="every value under a header; add a header to that column or move the value",
            )
        longest = max([len(v) for v in values if type(v) is str], default=0)
        if longest > MAX_CELL_CHARS:
            long_cell, long_text = next(
                (i, v) for i, v in enumerate(values) if isinstance(v, str) and len(v) > MAX_CELL_CHARS
            )
            raise over_limit(
                "text_cell_chars",
                f"a cell holds {len(long_text):,} characters",
                path=display,
                sheet=sheet,
                row=number,
                column=get_column_letter(long_cell + 1),
            )
        cells_used += len(values) - values.count(None) + len(row_formulas)
        if cells_used > MAX_CELLS:
            raise over_limit(
                "cells",
                f"the sheet holds more than {MAX_CELLS:,} non-empty cells",
                path=display,
                sheet=sheet,
                row=number,
            )
        body.append((number, PaddedRow(values, width)))
        for index, formula in row_formulas.items():
            formulas[(number, index)] = formula
    if header is None:
        raise WorkbenchInputError(
            "the sheet is empty.", path=display, sheet=sheet, expected="a header row and one card per row"
        )
    return SheetTable(path=display, sheet=sheet, headers=header, rows=body, formulas=formulas)


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        stripped = value.strip()
        return stripped if stripped else None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _process_umask() -> int:
    """The process's file-creation mask, read without changing it (Linux reports it in /proc/self/status)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    # Elsewhere the only way to read it is to set it and put it back; this runs once, at import, before the
    # app's server starts its threads (os.umask is process-wide).
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _process_umask()
"""Read once at import: a save in the multi-threaded app server never touches the process-wide mask."""


class OutputError(WorkbenchInputError, OSError):
    """An output file that could not be written (a full disk, a read-only folder, a folder named as the file): an
    input error on the command line (exit 2, naming the path and the reason, never the hidden temporary file), and
    still an `OSError` for callers that catch those."""


def _output_error(target: Path, error: OSError) -> OutputError:
    reason = error.strerror or str(error) or type(error).__name__
    return OutputError(
        f"the file could not be written ({reason}); a file already there is unchanged.",
        path=str(target),
        expected="a file path in a folder you can write to, on a disk with room",
    )


def write_atomically(out_path: str | os.PathLike[str], write: Callable[[str], object]) -> Path:
    """Call `write(temp_path)`, then `os.replace` it over `out_path`: an interrupted save leaves the old file whole.

    The temporary file is flushed to disk (fsync) before the replace, so a power cut after the replace cannot leave
    an empty or partial file under the real name. A write that fails for the file system's reasons raises
    `OutputError` naming `out_path` and the reason.
    """
    target = Path(out_path)
    if target.is_dir():
        raise OutputError(
            "the path is a folder, not a file; the output needs a file name.",
            path=str(target),
            expected=f"a file path, such as {target / ('output' + (target.suffix or '.xlsx'))}",
        )
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _remove_abandoned_temp_files(target)
        # The writer's process id is in the name, so a later write can tell a killed write's leftover from a live one.
        handle, temp_name = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=target.parent)
        os.close(handle)
    except OutputError:
        raise
    except OSError as error:
        raise _output_error(target, error) from error
    try:
        write(temp_name)
        # mkstemp makes the file private; a saved sheet or report gets the mode the old file had, else the usual one.
        os.chmod(temp_name, target.stat().st_mode & 0o7777 if target.exists() else 0o666 & ~_UMASK)
        with open(temp_name, "rb+") as written:
            os.fsync(written.fileno())
        os.replace(temp_name, target)
    except BaseException as error:
        with contextlib.suppress(OSError):
            Path(temp_name).unlink(missing_ok=True)
        if isinstance(error, OSError) and not isinstance(error, WorkbenchInputError):
            raise _output_error(target, error) from error
        raise
    _fsync_directory(target.parent)
    return target


def refuse_out_over_input(out: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str] | None]) -> None:
    """Refuse an `--out` that names one of the command's own input files (the write would replace what it read).

    `-` (standard output) and inputs that are not files (a bundled set's name, a deck's name) never match.
    """
    if str(out) == "-":
        return
    target = Path(out)
    for given in inputs:
        if given is None or str(given) == "-":
            continue
        source = Path(given)
        try:
            same = target.exists() and source.exists() and os.path.samefile(target, source)
        except OSError:
            same = False
        if same or (not target.exists() and target.resolve() == source.resolve()):
            raise WorkbenchInputError(
                f"--out names {given}, which this command reads; writing there would replace its own input.",
                path=str(out),
                expected="another --out path (the command never overwrites a file it reads)",
            )


def _remove_abandoned_temp_files(target: Path) -> None:
    """Delete temporary files a killed write to `target` left behind: those whose writing process has ended.

    A write still running in another process keeps its file (its process id is alive).
    """
    prefix = f".{target.name}."
    try:
        candidates = [entry for entry in os.scandir(target.parent) if entry.name.startswith(prefix)]
    except OSError:
        return
    for entry in candidates:
        middle = entry.name[len(prefix) :]
        pid_text, _, rest = middle.partition(".")
        ours = pid_text.isascii() and pid_text.isdigit() and rest.endswith(".tmp")
        if not ours or not entry.is_file(follow_symlinks=False):
            continue
        if _process_alive(int(pid_text)):
            continue
        # Another write may have removed it first, or the folder is read-only: nothing is lost either way.
        with contextlib.suppress(OSError):
            os.unlink(entry.path)


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True  # this process's own write in another thread (the app saves from several sessions)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # alive but someone else's, or not a process id at all: left alone
    return True


def _fsync_directory(folder: Path) -> None:
    """Make the replace itself durable; some file systems refuse to open a folder, which only loses that guarantee."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def write_workbook_atomically(workbook: openpyxl.Workbook, out_path: str | os.PathLike[str]) -> Path:
    """Save a workbook through a temporary file and `os.replace`."""
    return write_atomically(out_path, workbook.save)


def write_text_atomically(text: str, out_path: str | os.PathLike[str]) -> Path:
    """Write UTF-8 text through a temporary file and `os.replace`."""
    return write_atomically(out_path, lambda temp: Path(temp).write_text(text, encoding="utf-8"))


HEADER_FONT = Font(bold=True, color="FFFFFF")
HEADER_FILL = PatternFill("solid", fgColor="305496")


def style_header(worksheet: Any, widths: Sequence[int]) -> None:
    """Bold coloured header, frozen, filtered, with readable widths."""
    for index, width in enumerate(widths, start=1):
        cell = worksheet.cell(row=1, column=index)
        cell.font = HEADER_FONT
        cell.fill = HEADER_FILL
        cell.alignment = Alignment(vertical="top", wrap_text=True)
        worksheet.column_dimensions[get_column_letter(index)].width = width
    worksheet.freeze_panes = "A2"
    if widths:
        worksheet.auto_filter.ref = f"A1:{get_column_letter(len(widths))}1"


FORMULA_STARTERS = ("=", "+", "-", "@", "\t", "\r", "\0")
"""Leading characters that make a spreadsheet program run a cell as a formula (OWASP's CSV-injection list)."""


def is_formula_like(value: Any) -> bool:
    """True for text a spreadsheet program would read as a formula."""
    return isinstance(value, str) and value.startswith(FORMULA_STARTERS)


def set_cell_value(cell: Any, value: Any) -> Any:
    """Store a value in an openpyxl cell; text is always text, so `=HYPERLINK(...)` in a card name never runs."""
    if isinstance(value, (tuple, list)):
        value = "; ".join(str(v) for v in value)
    if isinstance(value, str):
        # A csv cell may hold control characters a workbook cannot (openpyxl raises); they are shown as U+FFFD.
        value = ILLEGAL_CHARACTERS_RE.sub("\ufffd", value)
    cell.value = value
    if isinstance(value, str):
        # openpyxl marks any string starting with '=' as a formula; a string cell is shown, never computed.
        cell.data_type = "s"
        if value.startswith(FORMULA_STARTERS):
            cell.quotePrefix = True  # a spreadsheet program keeps it text when the cell is edited again
    return cell


def write_cell(worksheet: Any, row: int, column: int, value: Any) -> Any:
    """Write one value at (row, column) through `set_cell_value`."""
    return set_cell_value(worksheet.cell(row=row, column=column), value)


def append_row(worksheet: Any, values: Sequence[Any]) -> int:
    """Append a row of values through `write_cell`; returns the row number written."""
    # A fresh sheet reports max_row 1 with nothing in it; row 1 is taken once any of its cells (not only A1) holds a
    # value.
    used = worksheet.max_row > 1 or any(cell.value is not None for cell in worksheet[1])
    row = worksheet.max_row + 1 if used else 1
    for column, value in enumerate(values, start=1):
        write_cell(worksheet, row, column, value)
    return row


def csv_safe(value: Any) -> Any:
    """A csv field a spreadsheet program will show as text: formula-like text gets a leading apostrophe."""
    if is_formula_like(value):
        return "'" + value
    return value


def csv_text(frame: Any) -> str:
    """A table (a pandas DataFrame) as csv text a spreadsheet program opens safely: every header and cell through
    `csv_safe`, so `=cmd|' /C calc'!A0` is text, not a formula; an empty cell (None, NaN) is an empty field.

    The app's Download CSV buttons offer this instead of Streamlit's own table download, which writes cells as they
    are."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([csv_safe(str(column)) for column in frame.columns])
    for row in frame.itertuples(index=False, name=None):
        writer.writerow([csv_safe(_csv_cell(value)) for value in row])
    return buffer.getvalue()


def _csv_cell(value: Any) -> Any:
    if value is None or (isinstance(value, float) and value != value):
        return ""
    if isinstance(value, (list, tuple)):
        return "; ".join(str(item) for item in value)
    return value
