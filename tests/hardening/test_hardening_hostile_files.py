"""Hostile files: each is refused or read within stated limits of time and memory, with a clear message.

Every file is read in a fresh interpreter (`load_cardset`, as `workbench check` and the app read an upload),
so its time and peak memory are its own: the worker reports wall time, CPU time (`getrusage`) and how far its
peak resident memory rose above what the imports took. Peak memory is the kernel's high-water mark of the
worker's own memory (VmHWM): `getrusage`'s ru_maxrss cannot serve, because at exec Linux seeds it with the
parent's peak (here pytest's, after the property tests). The worker runs under an address-space cap and a
timeout, so a regression cannot take the shared machine down with it.

The limits (workbench/limits.py, read by workbench/spreadsheets.py and workbench/xlsx_rows.py): files up to 50 MiB; an
xlsx of at most
2,000 zip parts inflating to at most 500 MiB in all, no part over 1 MB inflating more than 200x; no XML entity
declarations; rows 1..1,048,576 and columns A..XFD, as a spreadsheet program has; at most 200,000 card rows
and 1,024 columns per sheet.

Run with `-s` to see each file's figures.
"""

from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openpyxl
import pytest

REPO = Path(__file__).resolve().parents[2]
MIB = 2**20
ADDRESS_SPACE_CAP = 4 * 2**30
"""The worker's address-space cap: a regression that tries to allocate gigabytes fails inside it, not the machine."""
REFUSAL_SECONDS = 10.0
"""A generous bound for a refusal (they take milliseconds; the machine is shared and often busy)."""
REFUSAL_MIB = 64
"""A generous bound for the memory a refusal may take beyond the imports."""

WORKER = r"""
import json, resource, sys, time
cap = int(sys.argv[3])
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
from workbench.cards import WorkbenchInputError
from workbench.loading import load_cardset

def peak_kib():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))

path, ruleset = sys.argv[1], sys.argv[2] or None
before = peak_kib()
wall, cpu = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
report = {}
try:
    cardset = load_cardset(path, ruleset)
    report.update(
        outcome="read", cards=len(cardset), rows=cardset.rows_read, columns=len(cardset.table.headers),
        names=cardset.names[:3], notes=cardset.table.notes,
        findings=[f.to_text() for f in cardset.load_findings[:3]],
    )
except WorkbenchInputError as error:
    report.update(outcome="refused", message=str(error), sheet=error.sheet, row=error.row, column=error.column)
except BaseException as error:  # the test fails on this; the report says what escaped
    report.update(outcome="crashed", message=f"{type(error).__name__}: {error}")
report["seconds"] = round(time.perf_counter() - wall, 3)
usage = resource.getrusage(resource.RUSAGE_SELF)
report["cpu_seconds"] = round(usage.ru_utime + usage.ru_stime - cpu.ru_utime - cpu.ru_stime, 3)
report["peak_mib"] = round((peak_kib() - before) / 1024, 1)
report["total_peak_mib"] = round(peak_kib() / 1024, 1)
print(json.dumps(report))
"""


@dataclass
class Outcome:
    """What reading one hostile file gave, with its cost."""

    outcome: str
    """`read`, `refused` or `crashed`."""
    seconds: float
    """Wall-clock time of the read (the imports excluded)."""
    cpu_seconds: float
    """CPU time of the read."""
    peak_mib: float
    """How far peak resident memory rose above what the imports took."""
    total_peak_mib: float
    """The worker's peak resident memory, imports included."""
    detail: dict[str, Any]
    """The rest of the worker's report (message, sheet, row, column, or cards, rows, columns)."""

    @property
    def message(self) -> str:
        return str(self.detail.get("message", ""))


def read_hostile(path: Path, ruleset: str = "souls", timeout: float = 300.0) -> Outcome:
    """Load `path` in a fresh, capped interpreter; return what happened and what it cost."""
    completed = subprocess.run(
        [sys.executable, "-c", WORKER, str(path), ruleset, str(ADDRESS_SPACE_CAP)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    report = json.loads(completed.stdout.strip().splitlines()[-1])
    outcome = Outcome(
        outcome=report.pop("outcome"),
        seconds=report.pop("seconds"),
        cpu_seconds=report.pop("cpu_seconds"),
        peak_mib=report.pop("peak_mib"),
        total_peak_mib=report.pop("total_peak_mib"),
        detail=report,
    )
    size = path.stat().st_size
    shown = outcome.message or f"{outcome.detail.get('cards')} cards, {outcome.detail.get('columns')} columns"
    print(
        f"\nHOSTILE {path.name} ({size:,} bytes): {outcome.outcome} in {outcome.seconds:.2f} s "
        f"(cpu {outcome.cpu_seconds:.2f} s), peak +{outcome.peak_mib:.0f} MiB over the imports "
        f"({outcome.total_peak_mib:.0f} MiB in all): {shown[:220]}"
    )
    return outcome


def assert_refused(
    outcome: Outcome, path: Path, *words: str, seconds: float = REFUSAL_SECONDS, mib: float = REFUSAL_MIB
) -> None:
    assert outcome.outcome == "refused", outcome
    assert f"file {path}" in outcome.message, outcome.message
    for word in words:
        assert word in outcome.message, outcome.message
    assert outcome.seconds < seconds and outcome.peak_mib < mib, outcome


# Building files ---------------------------------------------------------------------------------------------

HEADERS = ["name", "kind", "soul_cost", "atk", "def", "abilities"]
ROWS = [["Ember Imp", "monster", 0, 2, 3, "Atk"], ["Tide Golem", "monster", 1, 3, 5, "Atk"]]
MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def workbook_bytes(rows: list[list[Any]]) -> bytes:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Cards"
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def with_parts(data: bytes, parts: dict[str, bytes]) -> bytes:
    """The workbook with some parts replaced or added (the rest copied as they are)."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            if info.filename not in parts:
                target.writestr(info.filename, source.read(info.filename))
        for name, content in parts.items():
            target.writestr(name, content)
    return out.getvalue()


def inline_sheet(rows: list[list[str]]) -> bytes:
    cells = "".join(
        f'<row r="{r}">' + "".join(f'<c t="inlineStr"><is><t>{v}</t></is></c>' for v in row) + "</row>"
        for r, row in enumerate(rows, start=1)
    )
    return f'<worksheet xmlns="{MAIN_NS}"><sheetData>{cells}</sheetData></worksheet>'.encode()


@dataclass
class RawEntry:
    """One zip entry written by hand, so its headers can say anything."""

    name: str
    """The part's path in the zip."""
    deflated: bytes
    """The raw deflate stream stored in the file."""
    crc: int
    """CRC-32 written in the headers."""
    size: int
    """Uncompressed size written in the headers (true or not)."""


def raw_zip(entries: list[RawEntry]) -> bytes:
    """A zip archive whose local and central headers carry exactly the given sizes and CRCs."""
    out = io.BytesIO()
    central = []
    for entry in entries:
        offset = out.tell()
        name = entry.name.encode()
        out.write(
            struct.pack(
                "<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, entry.crc, len(entry.deflated), entry.size, len(name), 0
            )
        )
        out.write(name)
        out.write(entry.deflated)
        central.append(
            struct.pack(
                "<IHHHHHHIIIHHHHHII",
                0x02014B50,
                20,
                20,
                0,
                8,
                0,
                0x21,
                entry.crc,
                len(entry.deflated),
                entry.size,
                len(name),
                0,
                0,
                0,
                0,
                0,
                offset,
            )
            + name
        )
    directory_offset = out.tell()
    for record in central:
        out.write(record)
    directory_size = out.tell() - directory_offset
    out.write(
        struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), directory_size, directory_offset, 0)
    )
    return out.getvalue()


def deflate(data: bytes) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


def repeated_deflate(chunk: bytes, times: int) -> tuple[bytes, int]:
    """A deflate stream of `chunk` repeated `times` times, built from one compressed block (fast to make), and its
    CRC."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    again = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    assert again == block  # a full flush forgets the history, so every block compresses the same
    crc = 0
    for _ in range(times):
        crc = zlib.crc32(chunk, crc)
    return block * times + compressor.flush(), crc


def raw_workbook(sheet_stream: bytes, sheet_crc: int, sheet_size: int) -> bytes:
    """A minimal valid workbook around a hand-made sheet part."""
    small = {name: content for name, content in _skeleton().items() if name != "xl/worksheets/sheet1.xml"}
    entries = [RawEntry(name, deflate(content), zlib.crc32(content), len(content)) for name, content in small.items()]
    entries.append(RawEntry("xl/worksheets/sheet1.xml", sheet_stream, sheet_crc, sheet_size))
    return raw_zip(entries)


def _skeleton() -> dict[str, bytes]:
    archive = zipfile.ZipFile(io.BytesIO(workbook_bytes([HEADERS, *ROWS])))
    return {info.filename: archive.read(info.filename) for info in archive.infolist()}


# XML entity bombs -------------------------------------------------------------------------------------------

LAUGHS = "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' if i else '<!ENTITY lol0 "lol">' for i in range(10))
"""Ten levels of ten: `&lol9;` expands to 10^9 'lol's (3 GB) in a parser that expands entities."""


def test_billion_laughs_in_the_sheet_xml_is_refused(tmp_path: Path) -> None:
    sheet = (
        f'<?xml version="1.0"?><!DOCTYPE worksheet [{LAUGHS}]><worksheet xmlns="{MAIN_NS}"><sheetData>'
        '<row r="1"><c r="A1" t="inlineStr"><is><t>&lol9;</t></is></c></row></sheetData></worksheet>'
    ).encode()
    path = tmp_path / "laughs_in_sheet.xlsx"
    path.write_bytes(with_parts(workbook_bytes([HEADERS, *ROWS]), {"xl/worksheets/sheet1.xml": sheet}))
    assert_refused(read_hostile(path), path, "entity")


def test_billion_laughs_in_shared_strings_is_refused(tmp_path: Path) -> None:
    workbook = workbook_bytes([HEADERS, *ROWS])
    shared = (
        f'<?xml version="1.0"?><!DOCTYPE sst [{LAUGHS}]><sst xmlns="{MAIN_NS}" count="1" uniqueCount="1">'
        "<si><t>&lol9;</t></si></sst>"
    ).encode()
    sheet = (
        f'<worksheet xmlns="{MAIN_NS}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>'
    ).encode()
    path = tmp_path / "laughs_in_shared_strings.xlsx"
    path.write_bytes(with_parts(workbook, {"xl/sharedStrings.xml": shared, "xl/worksheets/sheet1.xml": sheet}))
    assert_refused(read_hostile(path), path, "entity")


CORE_NS = (
    'xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
    'xmlns:dc="http://purl.org/dc/elements/1.1/"'
)


@pytest.mark.parametrize(
    ("part", "what", "document"),
    [
        (
            "docProps/core.xml",
            "document properties",
            f'<?xml version="1.0"?><!DOCTYPE cp:coreProperties [{LAUGHS}]><cp:coreProperties {CORE_NS}>'
            "<dc:title>&lol9;</dc:title></cp:coreProperties>",
        ),
        (
            "docProps/core.xml",
            "document properties",
            '<?xml version="1.0"?><!DOCTYPE cp:coreProperties [<!ENTITY leak SYSTEM "file:///etc/hostname">]>'
            f"<cp:coreProperties {CORE_NS}><dc:creator>&leak;</dc:creator></cp:coreProperties>",
        ),
        (
            "docProps/custom.xml",
            "custom document properties",
            f'<?xml version="1.0"?><!DOCTYPE Properties [{LAUGHS}]>'
            '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties">&lol9;'
            "</Properties>",
        ),
    ],
)
def test_entities_in_the_document_properties_are_refused_on_open(
    part: str, what: str, document: str, tmp_path: Path
) -> None:
    """Before: the card sheet opened (no reader looked at docProps), and the entities were refused only when the app
    saved the set (openpyxl parses the properties on load). Now the open is refused, naming the file, the part and
    what was expected, as an entity in any other part is."""
    path = tmp_path / "entities_in_properties.xlsx"
    path.write_bytes(with_parts(workbook_bytes([HEADERS, *ROWS]), {part: document.encode()}))
    outcome = read_hostile(path)
    assert_refused(outcome, path, f"its {what} ({part})", "entity declarations", "Expected: a workbook saved by")
    assert outcome.detail["sheet"] is None and outcome.detail["row"] is None


def test_ordinary_document_properties_still_open() -> None:
    """openpyxl's own core.xml (and content types) are parsed on open and pass."""
    from workbench.spreadsheets import read_sheet

    data = workbook_bytes([HEADERS, *ROWS])
    assert {"docProps/core.xml", "[Content_Types].xml"} <= set(zipfile.ZipFile(io.BytesIO(data)).namelist())
    table = read_sheet("plain.xlsx", data=data)
    assert [row[0] for _, row in table.rows] == ["Ember Imp", "Tide Golem"]


def test_quadratic_blowup_entity_is_refused(tmp_path: Path) -> None:
    """One 50 KB entity referenced 50,000 times: no nesting, 2.5 GB once expanded."""
    sheet = (
        f'<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY big "{"x" * 50_000}">]><worksheet xmlns="{MAIN_NS}">'
        f'<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>{"&big;" * 50_000}</t></is></c></row>'
        "</sheetData></worksheet>"
    ).encode()
    path = tmp_path / "quadratic.xlsx"
    path.write_bytes(with_parts(workbook_bytes([HEADERS, *ROWS]), {"xl/worksheets/sheet1.xml": sheet}))
    assert_refused(read_hostile(path), path, "entity")


def test_external_entity_never_reads_a_local_file(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENTS")
    dtd = tmp_path / "evil.dtd"
    dtd.write_text(f'<!ENTITY leak SYSTEM "file://{secret}">')
    for label, doctype, use in (
        ("xxe", f'<!DOCTYPE worksheet [<!ENTITY leak SYSTEM "file://{secret}">]>', "&leak;"),
        ("external_dtd", f'<!DOCTYPE worksheet SYSTEM "file://{dtd}">', "&leak;"),
    ):
        sheet = (
            f'<?xml version="1.0"?>{doctype}<worksheet xmlns="{MAIN_NS}"><sheetData><row r="1">'
            f'<c r="A1" t="inlineStr"><is><t>name</t></is></c><c r="B1" t="inlineStr"><is><t>kind</t></is></c></row>'
            f'<row r="2"><c r="A2" t="inlineStr"><is><t>{use}</t></is></c></row></sheetData></worksheet>'
        ).encode()
        path = tmp_path / f"{label}.xlsx"
        path.write_bytes(with_parts(workbook_bytes([HEADERS, *ROWS]), {"xl/worksheets/sheet1.xml": sheet}))
        outcome = read_hostile(path)
        assert "TOP-SECRET" not in json.dumps(outcome.detail)
        assert_refused(outcome, path)


# Zip bombs ---------------------------------------------------------------------------------------------------


def test_zip_bomb_small_file_huge_inflation_is_refused_before_inflating(tmp_path: Path) -> None:
    """A 1 MB file whose sheet part inflates to 1 GiB."""
    stream, crc = repeated_deflate(b"<c/>" * (MIB // 4), 1024)
    path = tmp_path / "zip_bomb.xlsx"
    path.write_bytes(raw_workbook(stream, crc, 1024 * MIB))
    assert path.stat().st_size < 2 * MIB
    outcome = read_hostile(path)
    assert_refused(outcome, path, "zip bomb", "xl/worksheets/sheet1.xml")


def test_zip_bomb_whose_headers_lie_about_its_size_inflates_no_further_than_they_say(tmp_path: Path) -> None:
    """The headers claim a 40 KB sheet (ratio 1x); the data inflates to 1 GiB. Reading stops at the claimed size."""
    stream, _ = repeated_deflate(b"<c/>" * (MIB // 4), 1024)
    claimed = 40_000
    crc_of_claimed = zlib.crc32((b"<c/>" * (MIB // 4))[:claimed])
    path = tmp_path / "lying_zip_bomb.xlsx"
    path.write_bytes(raw_workbook(stream, crc_of_claimed, claimed))
    outcome = read_hostile(path)
    assert_refused(outcome, path, "not opened")


def test_zip_bomb_spread_over_many_parts_is_refused_by_the_total(tmp_path: Path) -> None:
    """600 parts of 1,000,000 bytes each: every part is under the per-part ratio gate, the total is not."""
    chunk = b"\0" * 1_000_000
    compressed = deflate(chunk)
    crc = zlib.crc32(chunk)
    skeleton = _skeleton()
    entries = [
        RawEntry(name, deflate(content), zlib.crc32(content), len(content)) for name, content in skeleton.items()
    ]
    entries += [RawEntry(f"xl/media/junk{index}.bin", compressed, crc, len(chunk)) for index in range(600)]
    path = tmp_path / "many_part_bomb.xlsx"
    path.write_bytes(raw_zip(entries))
    assert path.stat().st_size < 2 * MIB
    assert_refused(read_hostile(path), path, "MiB limit")


# Size: rows and columns ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hundred_thousand_rows(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A souls sheet of 100,000 cards (the XML written directly: openpyxl takes half a minute to write it)."""
    parts = [f'<worksheet xmlns="{MAIN_NS}"><sheetData><row r="1">']
    parts += [f'<c t="inlineStr"><is><t>{h}</t></is></c>' for h in [*HEADERS, "text"]]
    parts.append("</row>")
    for index in range(100_000):
        number = index + 2
        parts.append(
            f'<row r="{number}"><c t="inlineStr"><is><t>Card {index}</t></is></c>'
            f'<c t="inlineStr"><is><t>monster</t></is></c><c><v>{index % 3}</v></c><c><v>{2 + index % 3}</v></c>'
            f'<c><v>{3 + index % 2}</v></c><c t="inlineStr"><is><t>Atk</t></is></c>'
            f'<c t="inlineStr"><is><t>Rules text of card {index}, one line long.</t></is></c></row>'
        )
    parts.append("</sheetData></worksheet>")
    path = tmp_path_factory.mktemp("big") / "hundred_thousand_rows.xlsx"
    path.write_bytes(with_parts(workbook_bytes([HEADERS]), {"xl/worksheets/sheet1.xml": "".join(parts).encode()}))
    return path


def test_a_workbook_of_100000_rows_is_read_within_the_limits(hundred_thousand_rows: Path) -> None:
    outcome = read_hostile(hundred_thousand_rows)
    assert outcome.outcome == "read", outcome
    assert outcome.detail["cards"] == 100_000 and outcome.detail["rows"] == 100_000
    # Generous bounds for a busy two-core machine: the read took 12 s of CPU (20-40 s wall) and about 130 MiB here.
    assert outcome.seconds < 180 and outcome.peak_mib < 1024, outcome


def test_the_last_row_a_spreadsheet_has_is_reached_without_holding_a_million_empty_rows(tmp_path: Path) -> None:
    sheet = inline_sheet([HEADERS]).replace(
        b"</sheetData>",
        b'<row r="1048576"><c r="A1048576" t="inlineStr"><is><t>Last Imp</t></is></c>'
        b'<c r="B1048576" t="inlineStr"><is><t>monster</t></is></c><c r="C1048576"><v>0</v></c>'
        b'<c r="D1048576"><v>1</v></c><c r="E1048576"><v>1</v></c></row></sheetData>',
    )
    path = tmp_path / "last_row.xlsx"
    path.write_bytes(with_parts(workbook_bytes([HEADERS]), {"xl/worksheets/sheet1.xml": sheet}))
    outcome = read_hostile(path)
    assert outcome.outcome == "read" and outcome.detail["names"] == ["Last Imp"], outcome
    assert outcome.seconds < 60 and outcome.peak_mib < 256, outcome


def test_a_row_numbered_past_the_last_row_is_refused(tmp_path: Path) -> None:
    """Before the fix, `<row r="99999999999">` made the reader walk 10^11 empty rows (it never finished)."""
    sheet = inline_sheet([HEADERS]).replace(
        b"</sheetData>", b'<row r="99999999999"><c t="inlineStr"><is><t>Imp</t></is></c></row></sheetData>'
    )
    path = tmp_path / "row_past_the_end.xlsx"
    path.write_bytes(with_parts(workbook_bytes([HEADERS]), {"xl/worksheets/sheet1.xml": sheet}))
    outcome = read_hostile(path)
    assert_refused(outcome, path, "sheet 'Cards'", "99999999999", "1,048,576")


@pytest.mark.parametrize("reference", ["XFE1", "ZZZZZZZ1", "A" * 10_000 + "1"])
def test_a_cell_past_the_last_column_is_refused(tmp_path: Path, reference: str) -> None:
    """Before the fix, a cell at `ZZZZZZZ1` made the reader allocate a row of 8 billion cells (64 GB)."""
    sheet = inline_sheet([HEADERS]).replace(
        b"</row>", f'<c r="{reference}" t="inlineStr"><is><t>far</t></is></c></row>'.encode(), 1
    )
    path = tmp_path / f"column_{reference[:8]}.xlsx"
    path.write_bytes(with_parts(workbook_bytes([HEADERS]), {"xl/worksheets/sheet1.xml": sheet}))
    assert_refused(read_hostile(path), path, "sheet 'Cards'", "row 1", "past column XFD")


def test_a_sheet_of_1000_columns_is_read_and_keeps_every_column(tmp_path: Path) -> None:
    extra = [f"note {index}" for index in range(1_000 - len(HEADERS))]
    rows: list[list[Any]] = [HEADERS + extra, *([*row, *[f"v{index}" for index in range(len(extra))]] for row in ROWS)]
    path = tmp_path / "thousand_columns.xlsx"
    path.write_bytes(workbook_bytes(rows))
    outcome = read_hostile(path)
    assert outcome.outcome == "read" and outcome.detail["columns"] == 1_000 and outcome.detail["cards"] == 2, outcome
    assert outcome.seconds < 30 and outcome.peak_mib < 256, outcome


def test_a_sheet_of_more_than_1024_columns_is_refused(tmp_path: Path) -> None:
    rows: list[list[Any]] = [HEADERS + [f"note {index}" for index in range(1_025 - len(HEADERS))], ROWS[0]]
    path = tmp_path / "too_many_columns.xlsx"
    path.write_bytes(workbook_bytes(rows))
    assert_refused(read_hostile(path), path, "1,025 header columns", "limit of 1,024 columns", "row 1")


def test_a_csv_of_a_million_rows_stops_at_the_row_limit(tmp_path: Path) -> None:
    path = tmp_path / "million_rows.csv"
    path.write_text("name,kind,soul_cost,atk,def\n" + "".join(f"Imp {i},monster,0,1,1\n" for i in range(1_000_000)))
    outcome = read_hostile(path)
    assert_refused(outcome, path, "more than 200,000 card rows", "row 200002", seconds=60, mib=512)


def test_a_csv_with_one_enormous_cell_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "enormous_cell.csv"
    path.write_text('name,kind,soul_cost,atk,def,text\nImp,monster,0,1,1,"' + "x" * 10_000_000 + '"\n')
    # The 10 MB file is held as bytes and as text while the csv reader refuses the cell.
    assert_refused(read_hostile(path), path, "could not be read as a table", "field larger than field limit", mib=256)


# Strange encodings ---------------------------------------------------------------------------------------------

CSV_TEXT = "name,kind,soul_cost,atk,def\nCafé Golem,monster,0,2,3\nÆther Wisp,monster,0,1,1\n"


@pytest.mark.parametrize(
    ("label", "encoded", "note"),
    [
        ("utf16_le_bom", CSV_TEXT.encode("utf-16"), "UTF-16 (byte-order mark found)"),
        ("utf16_be_bom", b"\xfe\xff" + CSV_TEXT.encode("utf-16-be"), "UTF-16 (byte-order mark found)"),
        ("utf16_le_no_bom", CSV_TEXT.encode("utf-16-le"), "UTF-16-LE (no byte-order mark"),
        ("utf16_be_no_bom", CSV_TEXT.encode("utf-16-be"), "UTF-16-BE (no byte-order mark"),
        ("utf32_bom", CSV_TEXT.encode("utf-32"), "UTF-32 (byte-order mark found)"),
        ("latin1", CSV_TEXT.encode("latin-1"), "read as Windows-1252"),
    ],
)
def test_a_csv_in_a_strange_encoding_is_read_with_a_note(tmp_path: Path, label: str, encoded: bytes, note: str) -> None:
    path = tmp_path / f"{label}.csv"
    path.write_bytes(encoded)
    outcome = read_hostile(path)
    assert outcome.outcome == "read", outcome
    assert outcome.detail["names"] == ["Café Golem", "Æther Wisp"]
    assert any(note in n for n in outcome.detail["notes"]), outcome.detail["notes"]
    assert outcome.seconds < REFUSAL_SECONDS and outcome.peak_mib < REFUSAL_MIB, outcome


def test_a_shift_jis_csv_is_read_with_a_note_that_it_was_not_utf8(tmp_path: Path) -> None:
    """Shift-JIS cannot be told from Windows-1252 by its bytes: the headers match, the names are misread, and the
    note says so and how to fix it (save as CSV UTF-8)."""
    path = tmp_path / "shift_jis.csv"
    path.write_bytes("name,kind,soul_cost,atk,def\n火の竜,monster,0,2,3\n水の精,monster,0,1,1\n".encode("shift_jis"))
    outcome = read_hostile(path)
    assert outcome.outcome == "read" and outcome.detail["cards"] == 2, outcome
    (note,) = outcome.detail["notes"]
    assert "not valid UTF-8" in note and "CSV UTF-8" in note
    assert outcome.detail["names"] != ["火の竜", "水の精"]


def test_a_utf16_file_cut_in_half_a_character_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cut_utf16.csv"
    path.write_bytes(CSV_TEXT.encode("utf-16")[:-1])
    assert_refused(read_hostile(path), path, "UTF-16 byte-order mark", "does not fit")


# Not what the name says ---------------------------------------------------------------------------------------

PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde" + b"\x00" * 64
)
PDF = b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"


@pytest.mark.parametrize(
    ("label", "content", "words"),
    [
        ("a_csv", b"name,kind,soul_cost,atk,def\nImp,monster,0,1,1\n", "the name says .xlsx but the contents are not"),
        ("a_png", PNG, "the name says .xlsx but the contents are not"),
        ("empty", b"", "empty (0 bytes)"),
        ("a_pdf", PDF, "the name says .xlsx but the contents are not"),
        ("a_plain_zip", None, "not an Excel workbook (it has no xl/workbook.xml)"),
        ("a_truncated_xlsx", b"truncated", "corrupt"),
    ],
)
def test_a_file_named_xlsx_that_is_not_one_is_refused(
    tmp_path: Path, label: str, content: bytes | None, words: str
) -> None:
    if content is None:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr("word/document.xml", "<document/>")
        content = buffer.getvalue()
    elif content == b"truncated":
        content = workbook_bytes([HEADERS, *ROWS])[:1500]
    path = tmp_path / f"{label}.xlsx"
    path.write_bytes(content)
    assert_refused(read_hostile(path), path, words)
