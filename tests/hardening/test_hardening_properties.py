"""Property-based tests: arbitrary text and numbers never raise anything but the workbench's own clear error.

Each property feeds generated input to one reader (the spreadsheet loader on csv text, on raw bytes, on
xlsx files built from arbitrary cells and on hand-made worksheet XML; the header matcher; the decklist
parser; every effect-vocabulary parser) and checks two things: the only exception is a
`WorkbenchInputError` that names the file (and the sheet, row and column it knows), and valid input
comes back as it was written.
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
import io
import math
import os
import re
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import openpyxl
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from openpyxl.utils import get_column_letter

from workbench.cards import CardSet, WorkbenchInputError, normalize_name
from workbench.decklists import MAX_COPIES_PER_LINE, parse_decklist
from workbench.loading import cardset_from_table, choose_ruleset, load_cardset, match_headers
from workbench.rulesets import RULESETS
from workbench.rulesets.base import Ruleset, normalize_header
from workbench.rulesets.blades import effects as blades_effects
from workbench.rulesets.circles import abilities as circles_abilities
from workbench.rulesets.plasma import effects as plasma_effects
from workbench.rulesets.souls import effects as souls_effects
from workbench.rulesets.source import effects as source_effects
from workbench.spreadsheets import SheetTable, read_sheet, write_cell
from workbench.validate import validate

EXAMPLES = int(os.environ.get("HARDENING_EXAMPLES", "200"))
"""Modest by default (the file runs in about a minute on two shared cores); raise it for a deep search."""
PROPERTY = settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
SLOW_PROPERTY = settings(
    max_examples=max(1, EXAMPLES * 2 // 5), deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
"""For properties that write a workbook per example."""

REPO = Path(__file__).resolve().parents[2]
SAMPLE_SETS = {
    "source": "cardsets/source/valley_of_deadlife.csv",
    "plasma": "cardsets/plasma/plasma_core.csv",
    "blades": "cardsets/blades/blades_sample.csv",
    "souls": "cardsets/souls/ashfall.csv",
    "circles": "cardsets/circles/circle_starter.csv",
}


@functools.cache
def sample_cardset(ruleset_id: str) -> CardSet:
    """The bundled sample set of a game (read once per test session)."""
    return load_cardset(REPO / SAMPLE_SETS[ruleset_id], ruleset_id)


def assert_clear(error: WorkbenchInputError, display: str) -> None:
    """The error names the file, and every location it knows is in its message."""
    message = str(error)
    assert error.path == display and f"file {display}" in message, message
    if error.sheet:
        assert f"sheet '{error.sheet}'" in message, message
    if error.row is not None:
        assert f"row {error.row}" in message, message
    if error.column:
        assert f"column '{error.column}'" in message, message
    assert error.detail and "Traceback" not in message


def read_or_refuse(data: bytes, display: str) -> SheetTable | None:
    """Read a sheet from bytes; a refusal must be a clear `WorkbenchInputError`."""
    try:
        return read_sheet(display, data=data, filename=display)
    except WorkbenchInputError as error:
        assert_clear(error, display)
        return None


def load_every_ruleset(table: SheetTable) -> None:
    """Every ruleset either refuses the table clearly or accounts for every row (a card or an error at that row)."""
    for ruleset in RULESETS.values():
        try:
            cardset = cardset_from_table(table, ruleset)
        except WorkbenchInputError as error:
            assert_clear(error, table.path)
            assert error.row == 1  # only the header row can make a whole table unreadable
            continue
        assert cardset.rows_read == len(table.rows)
        rows_with_errors = {f.row for f in cardset.load_findings if f.severity == "error"}
        for row_number, _values in table.rows:
            assert row_number in rows_with_errors or any(e.row == row_number for e in cardset.entries)
        for finding in cardset.load_findings:
            assert finding.sheet == table.sheet
            assert finding.rule.startswith(f"{ruleset.id}.")
        # The checks behind the loader (cost formulas, effects vocabularies) take whatever parsed.
        validate(cardset)


# Words that make generated tables look like card sheets, so properties reach the cell checks, not just
# the "required column missing" refusal.
KNOWN_HEADERS = sorted(
    {
        header
        for ruleset in RULESETS.values()
        for header in [
            *(c.header for c in ruleset.columns),
            *(c.field for c in ruleset.columns),
            *ruleset.header_aliases,
        ]
    }
)
KNOWN_WORDS = sorted(
    {kind for ruleset in RULESETS.values() for kind in ruleset.kinds}
    | {"Atk", "Support", "fire", "Y/O", "GA", "starter", "Play: gain 2 RP", "damage 2", "foe push back 1", "Armor 1"}
)

ANY_TEXT = st.text(max_size=30)
NUMBER_TEXT = st.one_of(
    st.integers(-(10**6), 10**6).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(
        ["", " ", "1e400", "-0", "0x1A", "½", "٣", "1,5", "NaN", "inf", "+3", "3.0", "99999999999999999999"]
    ),
)
CELL_TEXT = st.one_of(ANY_TEXT, NUMBER_TEXT, st.sampled_from(KNOWN_WORDS))
HEADER_TEXT = st.one_of(st.sampled_from(KNOWN_HEADERS), ANY_TEXT)


# Spreadsheet loader: csv --------------------------------------------------------------------------------------


def csv_bytes(rows: Sequence[Sequence[str]], delimiter: str = ",") -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=delimiter).writerows(rows)
    return buffer.getvalue().encode("utf-8")


@PROPERTY
@given(
    headers=st.lists(HEADER_TEXT, min_size=1, max_size=8),
    body=st.lists(st.lists(CELL_TEXT, max_size=9), max_size=6),
    delimiter=st.sampled_from([",", ";", "\t"]),
)
def test_any_csv_table_loads_or_is_refused_clearly_under_every_ruleset(
    headers: list[str], body: list[list[str]], delimiter: str
) -> None:
    table = read_or_refuse(csv_bytes([headers, *body], delimiter), "cards.csv")
    if table is not None:
        load_every_ruleset(table)


@PROPERTY
@given(data=st.binary(max_size=3000), name=st.sampled_from(["cards.csv", "cards.xlsx", "cards.txt", "cards", "c.TSV"]))
def test_any_bytes_are_read_or_refused_clearly(data: bytes, name: str) -> None:
    table = read_or_refuse(data, name)
    if table is not None:
        load_every_ruleset(table)


@PROPERTY
@given(
    text=st.text(max_size=400),
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32"]),
)
def test_any_text_in_any_unicode_encoding_is_read_or_refused_clearly(text: str, encoding: str) -> None:
    table = read_or_refuse(text.encode(encoding, errors="surrogatepass"), "cards.csv")
    if table is not None:
        load_every_ruleset(table)


# A round-trip cell: text a csv keeps (no CR: csv turns a lone CR inside a cell into a line break on some readers),
# no NUL (refused as binary), surrounding blanks are trimmed by design.
ROUND_TRIP_TEXT = st.text(alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\x00\r"), max_size=20)


def expected_text(value: str | None) -> str | None:
    stripped = (value or "").strip()
    return stripped or None


@PROPERTY
@given(
    width=st.integers(2, 6),
    data=st.data(),
    delimiter=st.sampled_from([",", ";", "\t"]),
)
def test_a_csv_card_table_reads_back_as_written(width: int, data: st.DataObject, delimiter: str) -> None:
    # A card sheet's headers are words; the cells under them may hold anything, delimiters and quotes included.
    headers = data.draw(st.lists(st.sampled_from(KNOWN_HEADERS), min_size=width, max_size=width, unique=True))
    body = data.draw(st.lists(st.lists(ROUND_TRIP_TEXT, min_size=width, max_size=width), max_size=8))
    table = read_sheet("cards.csv", data=csv_bytes([headers, *body], delimiter))
    assert table.headers == [h.strip() for h in headers]
    expected = [
        (number, [expected_text(v) for v in row])
        for number, row in enumerate(body, start=2)
        if any(expected_text(v) for v in row)
    ]
    assert table.rows == expected


# Spreadsheet loader: xlsx -------------------------------------------------------------------------------------

# Text openpyxl can store (it refuses C0 controls other than tab and line breaks) and XML can carry back
# (U+FFFE and U+FFFF are not XML characters; a CR is normalised to LF by every XML parser).
XML_TEXT = st.text(
    alphabet=st.characters(
        exclude_categories=["Cs"],
        exclude_characters="".join(chr(c) for c in range(32) if chr(c) not in "\t\n") + "\ufffe\uffff",
    ),
    max_size=20,
)
XLSX_VALUES = st.one_of(
    st.none(),
    XML_TEXT,
    st.sampled_from(KNOWN_WORDS),
    st.sampled_from(["=1+2", "+cmd", "-3", "@SUM(A1)", '=HYPERLINK("http://x")']),
    st.integers(-(2**53) + 1, 2**53 - 1),
    # A spreadsheet keeps 15 significant digits (openpyxl writes 16); a value typed into one has no more.
    st.floats(allow_nan=False, allow_infinity=False).map(lambda f: float(f"{f:.15g}")).filter(math.isfinite),
    st.booleans(),
    st.datetimes(min_value=dt.datetime(1901, 1, 1), max_value=dt.datetime(9998, 12, 31)).map(
        lambda d: d.replace(microsecond=0)
    ),
)


def xlsx_bytes(rows: Sequence[Sequence[Any]], sheet: str = "Cards") -> bytes:
    """A workbook written as the workbench writes one (text is always stored as text)."""
    workbook = openpyxl.Workbook()
    worksheet = workbook.active
    worksheet.title = sheet
    for number, row in enumerate(rows, start=1):
        for column, value in enumerate(row, start=1):
            if value is not None:
                write_cell(worksheet, number, column, value)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def expected_cell(value: Any) -> Any:
    """What the reader gives back for a written value: trimmed text, whole floats as ints, dates as text."""
    if isinstance(value, str):
        return expected_text(value)
    if isinstance(value, dt.datetime):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


@SLOW_PROPERTY
@given(grid=st.lists(st.lists(XLSX_VALUES, max_size=7), min_size=0, max_size=6))
def test_any_xlsx_grid_loads_or_is_refused_clearly_under_every_ruleset(grid: list[list[Any]]) -> None:
    table = read_or_refuse(xlsx_bytes(grid), "cards.xlsx")
    if table is not None:
        load_every_ruleset(table)


@SLOW_PROPERTY
@given(
    width=st.integers(1, 6),
    data=st.data(),
)
def test_an_xlsx_card_table_reads_back_as_written(width: int, data: st.DataObject) -> None:
    header_cell = st.one_of(st.none(), XML_TEXT.filter(lambda h: h.strip()))
    headers = data.draw(st.lists(header_cell, min_size=width, max_size=width).filter(lambda h: h[-1] is not None))
    body = data.draw(st.lists(st.lists(XLSX_VALUES, min_size=width, max_size=width), max_size=8))
    table = read_sheet("cards.xlsx", data=xlsx_bytes([headers, *body]))
    assert table.headers == [
        h.strip() if h is not None else f"Column {get_column_letter(i + 1)}" for i, h in enumerate(headers)
    ]
    expected = [
        (number, [expected_cell(v) for v in row])
        for number, row in enumerate(body, start=2)
        if any(expected_cell(v) not in (None, "") for v in row)
    ]
    assert table.rows == expected
    assert table.formulas == {}  # formula-like text written as text never comes back as a formula


@SLOW_PROPERTY
@given(data=st.data())
def test_a_card_table_written_and_read_back_gives_the_same_cards(data: st.DataObject) -> None:
    """Load a bundled set, write its table as xlsx, load that: the same cards, field for field."""
    ruleset_id = data.draw(st.sampled_from(sorted(SAMPLE_SETS)))
    original = sample_cardset(ruleset_id)
    table = original.table
    picked = data.draw(st.lists(st.sampled_from(table.rows), min_size=1, max_size=12, unique_by=lambda r: r[0]))
    rows = [table.headers, *(values for _, values in picked)]
    again = cardset_from_table(read_sheet("again.xlsx", data=xlsx_bytes(rows)), original.ruleset)
    assert again.load_findings == []
    assert len(again.entries) == len(picked)
    for entry in again.entries:
        before = original.find(entry.card.name)
        assert before is not None and entry.card == before.card


# Hand-made worksheet XML: what a hostile or broken program might put in a sheet part -------------------------


def _xml_text() -> st.SearchStrategy[str]:
    return st.one_of(st.text(max_size=12), st.integers(-(10**20), 10**20).map(str), st.floats().map(repr))


XML_CELL = st.fixed_dictionaries(
    {
        "r": st.one_of(
            st.none(),
            st.from_regex(r"\A[A-Z]{1,4}[0-9]{1,9}\Z"),
            st.sampled_from(["XFD1", "XFE1", "A0", "a1", "A", "1", "ZZZZZZZZZZZZ1", "A99999999999"]),
            st.text(max_size=6),
        ),
        "t": st.sampled_from([None, "s", "n", "b", "e", "str", "inlineStr", "d", "junk"]),
        "s": st.one_of(st.none(), st.integers(-3, 6).map(str), st.text(max_size=3)),
        "v": st.one_of(st.none(), _xml_text()),
        "f": st.one_of(st.none(), st.text(max_size=8)),
        "inline": st.one_of(st.none(), st.text(max_size=8)),
    }
)
XML_ROW = st.fixed_dictionaries(
    {
        "r": st.one_of(
            st.none(),
            st.integers(-3, 60).map(str),
            st.sampled_from(["1048577", str(10**15), "1e3", "", "x"]),
            st.text(max_size=4),
        ),
        "cells": st.lists(XML_CELL, max_size=5),
    }
)


def _legal(text: str) -> str:
    """Drop characters XML cannot carry, so the property reaches the reader and not only the XML parser."""
    return re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]", "", text)


def sheet_xml(rows: list[dict[str, Any]]) -> bytes:
    parts = ['<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>']
    for row in rows:
        attributes = f" r={quoteattr(_legal(row['r']))}" if row["r"] is not None else ""
        parts.append(f"<row{attributes}>")
        for cell in row["cells"]:
            attrs = "".join(
                f" {key}={quoteattr(_legal(cell[key]))}" for key in ("r", "t", "s") if cell[key] is not None
            )
            inner = ""
            if cell["f"] is not None:
                inner += f"<f>{escape(_legal(cell['f']))}</f>"
            if cell["v"] is not None:
                inner += f"<v>{escape(_legal(cell['v']))}</v>"
            if cell["inline"] is not None:
                inner += f"<is><t>{escape(_legal(cell['inline']))}</t></is>"
            parts.append(f"<c{attrs}>{inner}</c>")
        parts.append("</row>")
    parts.append("</sheetData></worksheet>")
    return "".join(parts).encode("utf-8")


@functools.cache
def _base_workbook() -> bytes:
    """A workbook with two shared strings and a date style, whose sheet part the property replaces."""
    workbook = openpyxl.Workbook()
    worksheet = workbook.active
    worksheet.title = "Cards"
    worksheet["A1"] = dt.datetime(2026, 1, 2)
    buffer = io.BytesIO()
    workbook.save(buffer)
    source = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    out = io.BytesIO()
    shared = (
        b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="2" uniqueCount="2">'
        b"<si><t>name</t></si><si><r><t>ki</t></r><r><t>nd</t></r></si></sst>"
    )
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            target.writestr(info.filename, source.read(info.filename))
        target.writestr("xl/sharedStrings.xml", shared)
    return out.getvalue()


def with_sheet(sheet: bytes) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(_base_workbook()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            content = sheet if info.filename == "xl/worksheets/sheet1.xml" else source.read(info.filename)
            target.writestr(info.filename, content)
    return out.getvalue()


@PROPERTY
@given(rows=st.lists(XML_ROW, max_size=6))
def test_any_worksheet_xml_is_read_or_refused_clearly(rows: list[dict[str, Any]]) -> None:
    table = read_or_refuse(with_sheet(sheet_xml(rows)), "hand-made.xlsx")
    if table is not None:
        assert len(table.headers) <= 1_024
        assert all(len(values) == len(table.headers) for _, values in table.rows)
        load_every_ruleset(table)


# Header matcher -----------------------------------------------------------------------------------------------


@PROPERTY
@given(header=st.text(max_size=60))
def test_normalize_header_takes_any_text_and_keeps_only_lower_case_letters_and_digits(header: str) -> None:
    normalized = normalize_header(header)
    assert all(character.isalnum() for character in normalized)
    assert normalize_header(normalized) == normalized


def decorate(header: str, draw: st.DrawFn) -> str:
    """The header as a person might type it: case changed, words split by spaces, underscores or punctuation."""
    out = []
    for character in header:
        if character.isalnum():
            out.append(character.upper() if draw(st.booleans()) else character)
        if draw(st.integers(0, 3)) == 0:
            out.append(draw(st.sampled_from([" ", "_", "-", ".", "  ", "/", "(", ")", "'", "\t"])))
    return draw(st.sampled_from(["", " ", "  "])) + "".join(out) + draw(st.sampled_from(["", " ", ":", "*"]))


@st.composite
def ruleset_and_decorated_header(draw: st.DrawFn) -> tuple[Ruleset, str, str]:
    ruleset = draw(st.sampled_from(list(RULESETS.values())))
    spellings = sorted(
        [(c.header, c.field) for c in ruleset.columns]
        + [(c.field, c.field) for c in ruleset.columns]
        + list(ruleset.header_aliases.items())
    )
    written, field_name = draw(st.sampled_from(spellings))
    return ruleset, decorate(written, draw), field_name


@PROPERTY
@given(case=ruleset_and_decorated_header())
def test_every_accepted_header_matches_however_it_is_cased_spaced_or_punctuated(case: tuple[Ruleset, str, str]) -> None:
    ruleset, header, field_name = case
    assert ruleset.header_lookup[normalize_header(header)] == field_name


@PROPERTY
@given(ruleset=st.sampled_from(list(RULESETS.values())), headers=st.lists(HEADER_TEXT, max_size=12))
def test_match_headers_maps_each_field_once_or_refuses_at_row_1(ruleset: Ruleset, headers: list[str]) -> None:
    table = SheetTable(path="cards.csv", sheet="cards.csv", headers=headers, rows=[])
    try:
        mapping = match_headers(table, ruleset)
    except WorkbenchInputError as error:
        assert_clear(error, "cards.csv")
        assert error.sheet == "cards.csv" and error.row == 1 and error.column
        return
    assert len(set(mapping.values())) == len(mapping)
    for index, field_name in mapping.items():
        assert ruleset.header_lookup[normalize_header(headers[index])] == field_name
    unmapped = [h for i, h in enumerate(headers) if i not in mapping]
    assert all(normalize_header(h) not in ruleset.header_lookup for h in unmapped)


@PROPERTY
@given(headers=st.lists(HEADER_TEXT, min_size=1, max_size=10), declared=st.one_of(st.none(), ANY_TEXT))
def test_ruleset_choice_from_any_headers_is_one_ruleset_or_a_clear_refusal(
    headers: list[str], declared: str | None
) -> None:
    table = SheetTable(path="cards.csv", sheet="cards.csv", headers=headers, rows=[])
    if declared is not None:
        table.set_info = {"ruleset": declared}
    try:
        ruleset = choose_ruleset(table)
    except WorkbenchInputError as error:
        assert_clear(error, "cards.csv")
        return
    assert ruleset.id in RULESETS


# Decklist parser ----------------------------------------------------------------------------------------------


@PROPERTY
@given(ruleset_id=st.sampled_from(sorted(SAMPLE_SETS)), text=st.text(max_size=300))
def test_any_decklist_text_parses_into_lines_and_findings_that_point_at_real_lines(ruleset_id: str, text: str) -> None:
    cardset = sample_cardset(ruleset_id)
    deck = parse_decklist(text, cardset, name="fuzz", path="fuzz.txt")
    line_count = len(text.splitlines())
    for line in deck.lines:
        assert 1 <= line.count <= MAX_COPIES_PER_LINE
        assert 1 <= line.line <= line_count
        assert line.section in cardset.ruleset.deck_sections
        assert (line.entry is None) == (cardset.find(line.name) is None)
    for finding in deck.load_findings:
        assert finding.row is not None and 1 <= finding.row <= line_count
        assert finding.sheet == "fuzz.txt" and finding.severity == "error"
    validate(cardset, [deck])


@PROPERTY
@given(ruleset_id=st.sampled_from(sorted(SAMPLE_SETS)), data=st.data())
def test_a_written_decklist_reads_back_as_the_same_counts(ruleset_id: str, data: st.DataObject) -> None:
    cardset = sample_cardset(ruleset_id)
    picks = data.draw(
        st.lists(
            st.tuples(st.sampled_from(cardset.names), st.integers(1, MAX_COPIES_PER_LINE)), min_size=1, max_size=10
        )
    )
    styles = ["{n} {name}", "{n}x {name}", "{n} x {name}", "{name} x{n}", "{n}× {name}"]
    lines = [data.draw(st.sampled_from(styles)).format(n=n, name=name) for name, n in picks]
    deck = parse_decklist("\n".join(lines), cardset)
    assert deck.load_findings == []
    expected: dict[str, int] = {}
    for name, n in picks:
        expected[name] = expected.get(name, 0) + n
    assert {name: total for name, (_, total, _) in deck.counts().items()} == expected


# A card name a decklist can carry: one line, not a comment, not a section header, not itself a count form.
DECK_NAME = st.text(
    alphabet=st.characters(exclude_categories=("Cs", "Cc", "Zl", "Zp"), exclude_characters="\x85"),
    min_size=1,
    max_size=20,
).filter(
    lambda n: (
        n.strip()
        and not n.strip().startswith(("#", "//"))
        and not re.match(r"^\s*[A-Za-z][A-Za-z ]*?\s*:\s*$", n)
        and not re.match(r"^\s*[xX×]\s", n)
    )
)


@PROPERTY
@given(names=st.lists(DECK_NAME, min_size=1, max_size=6, unique_by=normalize_name), data=st.data())
def test_any_card_names_read_back_from_a_decklist(names: list[str], data: st.DataObject) -> None:
    assume(len({normalize_name(n) for n in names}) == len(names) and all(normalize_name(n) for n in names))
    rows = [["name", "kind", "soul_cost", "atk", "def"]] + [[name, "monster", 0, 1, 1] for name in names]
    table = read_sheet("names.xlsx", data=xlsx_bytes(rows))
    cardset = cardset_from_table(table, RULESETS["souls"])
    assume(len(cardset) == len(names))  # names a sheet cannot hold as one cell are not this property's business
    counts = data.draw(st.lists(st.integers(1, MAX_COPIES_PER_LINE), min_size=len(names), max_size=len(names)))
    text = "\n".join(f"{n} {name.strip()}" for name, n in zip(cardset.names, counts, strict=False))
    deck = parse_decklist(text, cardset)
    assert deck.load_findings == [], [f.message for f in deck.load_findings]
    assert {name: total for name, (_, total, _) in deck.counts().items()} == dict(
        zip(cardset.names, counts, strict=False)
    )


# Effect vocabularies ------------------------------------------------------------------------------------------

# Digits other than 0-9 ("²", "٣") are left to the known-bug tests below: the plasma parser crashes on "damage ²".
EFFECT_CHARACTERS = st.characters(exclude_categories=("Cs", "No"))
EFFECT_TEXT = st.one_of(
    st.text(EFFECT_CHARACTERS, max_size=80),
    st.lists(
        st.one_of(
            st.sampled_from(
                [
                    "damage",
                    "draw",
                    "heal",
                    "power",
                    "resolve",
                    "destroy",
                    "plasma",
                    "damage player",
                    "apply",
                    "shield",
                    "atk",
                    "def",
                    "st",
                    "alpha",
                    "move",
                    "push back",
                    "cannot attack",
                    "expire",
                    "summon token",
                    "sourcepoints",
                    "foe",
                    "Play:",
                    "Ongoing:",
                    "Score:",
                    "Reaction (flip):",
                    "clash:",
                    "win",
                    "lose",
                    "tie",
                    "gain",
                    "RP",
                    "per",
                    "star",
                    "+",
                    "-",
                    "50-99:",
                    "100+:",
                    "Thwomp!",
                    "fire",
                    ";",
                    ",",
                    ":",
                    "(",
                    ")",
                    "\n",
                    "Armor Piercing",
                    "1",
                ]
            ),
            st.integers(-1000, 10**12).map(str),
            st.text(EFFECT_CHARACTERS, max_size=5),
        ),
        max_size=14,
    ).map(" ".join),
)


@PROPERTY
@given(text=EFFECT_TEXT)
def test_every_effects_parser_takes_any_text(text: str) -> None:
    for kind in RULESETS["source"].kinds:
        for item in source_effects.parse_effects(text, kind):
            assert isinstance(item, (source_effects.EffectClause, source_effects.EffectProblem))
        source_effects.summoned_tokens(text, kind)
    parsed = blades_effects.parse_effects(text)
    assert all(isinstance(c, blades_effects.EffectClause) for c in parsed.clauses)
    assert all(p.message for p in parsed.problems)
    plasma = plasma_effects.parse_effects(text)
    assert all(1 <= amount <= plasma_effects.MAX_AMOUNT for _, amount in plasma.pairs)
    assert all(u.reason for u in plasma.unknown)
    understood, _unknown = souls_effects.parse_effects(text)
    assert all(abs(e.argument) <= souls_effects.MAX_EFFECT_AMOUNT for e in understood)
    for piece in re.split(r"[;,]", text):
        circles_abilities.find_ability(piece)


@PROPERTY
@given(
    ruleset_id=st.sampled_from(sorted(SAMPLE_SETS)),
    field_texts=st.lists(EFFECT_TEXT, min_size=1, max_size=4),
    data=st.data(),
)
def test_any_effects_or_abilities_cell_gives_findings_not_exceptions(
    ruleset_id: str, field_texts: list[str], data: st.DataObject
) -> None:
    """Arbitrary text in the effects/abilities columns of real cards goes through every check of the game."""
    cardset = sample_cardset(ruleset_id)
    table = cardset.table
    targets = [
        i
        for i, h in enumerate(table.headers)
        if normalize_header(h) in ("effects", "abilities", "text", "brackets", "symbols")
    ]
    assume(targets)
    rows = [list(values) for _, values in table.rows]
    for text in field_texts:
        row = data.draw(st.integers(0, len(rows) - 1))
        rows[row][data.draw(st.sampled_from(targets))] = text
    changed = SheetTable(
        path="fuzz.csv",
        sheet="fuzz.csv",
        headers=table.headers,
        rows=[(n, r) for (n, _), r in zip(table.rows, rows, strict=False)],
    )
    validate(cardset_from_table(changed, cardset.ruleset))


@PROPERTY
@given(
    amount=st.integers(1, plasma_effects.MAX_AMOUNT), verb=st.sampled_from(sorted(plasma_effects.CLAUSE_FORMS.values()))
)
def test_plasma_clauses_written_in_the_vocabulary_read_back(amount: int, verb: str) -> None:
    written = verb.replace("N", str(amount))
    (clause,) = plasma_effects.parse_effects(written).clauses
    assert plasma_effects.CLAUSE_FORMS[clause.opcode] == verb
    assert clause.amount == (1 if verb == "destroy" else amount)


@PROPERTY
@given(
    amounts=st.lists(st.integers(0, souls_effects.MAX_EFFECT_AMOUNT), min_size=1, max_size=6),
    data=st.data(),
)
def test_souls_effects_written_in_the_vocabulary_read_back(amounts: list[int], data: st.DataObject) -> None:
    pieces, expected = [], []
    for amount in amounts:
        opcode = data.draw(st.integers(0, len(souls_effects.OPCODE_NAMES) - 1))
        name = souls_effects.OPCODE_NAMES[opcode]
        if opcode == souls_effects.OP_APPLY:
            element = data.draw(st.sampled_from(souls_effects.ELEMENTS))
            pieces.append(f"apply {element}")
            expected.append((opcode, souls_effects.ELEMENTS.index(element)))
        elif opcode in (souls_effects.OP_DAMAGE, souls_effects.OP_DRAW, souls_effects.OP_DIRECT):
            pieces.append(f"{name} {amount}")
            expected.append((opcode, amount))
        else:
            sign = data.draw(st.sampled_from([1, -1]))
            pieces.append(f"{name} {'+' if sign > 0 else '-'}{amount}")
            expected.append((opcode, sign * amount))
    understood, unknown = souls_effects.parse_effects(data.draw(st.sampled_from(["; ", ", ", ";"])).join(pieces))
    assert unknown == [] and [(e.opcode, e.argument) for e in understood] == expected


@PROPERTY
@given(data=st.data())
def test_source_clauses_written_in_the_vocabulary_read_back(data: st.DataObject) -> None:
    signed = data.draw(st.integers(-99, 99).filter(bool))
    count = data.draw(st.integers(1, 99))
    token = data.draw(st.from_regex(r"\A[A-Z][a-z]{1,8}( [A-Z][a-z]{1,8})?\Z"))
    clauses = {
        f"st {signed:+d}": ("st", signed),
        f"st gamma {signed:+d}": ("st", signed),
        f"move {signed:+d}": ("move", signed),
        "destroy": ("destroy", None),
        f"push back {count}": ("push_back", count),
        "cannot attack": ("cannot_attack", None),
        "cannot move": ("cannot_move", None),
        f"expire {count}": ("expire", count),
        f"summon token {token}": ("summon_token", None),
        f"sourcepoints {signed:+d}": ("sourcepoints", signed),
        f"draw {count}": ("draw", count),
    }
    chosen = data.draw(st.lists(st.sampled_from(sorted(clauses)), min_size=1, max_size=5))
    foe = [data.draw(st.booleans()) and clauses[c][0] not in ("summon_token", "sourcepoints", "draw") for c in chosen]
    text = "; ".join(("foe " if f else "") + c for c, f in zip(chosen, foe, strict=False))
    results = source_effects.parse_effects(text, "monster")
    parsed = [p for p in results if isinstance(p, source_effects.EffectClause)]
    assert parsed == results  # every clause understood
    assert [(p.verb, p.amount, p.foe) for p in parsed] == [(*clauses[c], f) for c, f in zip(chosen, foe, strict=False)]
    assert [p.token for p in parsed if p.verb == "summon_token"] == [token for c in chosen if c.startswith("summon")]


@PROPERTY
@given(data=st.data())
def test_blades_clauses_written_in_the_vocabulary_read_back(data: st.DataObject) -> None:
    amount = data.draw(st.integers(0, 99))
    forms = [
        ("Play", f"gain {amount} RP", "gain", amount),
        ("Score", f"lose {amount} RP", "gain", -amount),
        ("Next", "flip opponent highest", "flip", 0),
        ("Ongoing", f"star +{amount}", "star", amount),
        ("Top", "protect adjacent", "protect", 0),
        ("Action", f"gain {amount} RP per card", "gain", amount),
    ]
    chosen = data.draw(st.lists(st.sampled_from(forms), min_size=1, max_size=4))
    parsed = blades_effects.parse_effects("; ".join(f"{timing}: {body}" for timing, body, _, _ in chosen))
    assert parsed.problems == ()
    assert [(c.timing, c.action.verb, c.action.amount) for c in parsed.clauses] == [(t, v, a) for t, _, v, a in chosen]


@PROPERTY
@given(ability=st.sampled_from(circles_abilities.ABILITIES), data=st.data())
def test_circles_abilities_match_however_they_are_cased_or_punctuated(
    ability: circles_abilities.Ability, data: st.DataObject
) -> None:
    words = [
        "".join(c.upper() if data.draw(st.booleans()) else c.lower() for c in word) for word in ability.name.split(" ")
    ]
    separators = [data.draw(st.sampled_from([" ", "_", " - ", "  ", "-", ". "])) for _ in words[1:]]
    written = (
        data.draw(st.sampled_from(["", " "]))
        + words[0]
        + "".join(s + w for s, w in zip(separators, words[1:], strict=False))
    )
    assert circles_abilities.find_ability(written) == ability


@pytest.mark.parametrize(
    "text",
    [
        "a" * 100_000,
        "1" * 100_000,
        " " * 100_000,
        ";" * 100_000,
        "Play: clash: " + "win gain 1 RP; " * 5_000,
        "(" * 50_000 + ":" + ")" * 50_000,
        "foe " * 25_000,
        "50-99:" * 10_000,
        "gain 1 RP per " + "x" * 100_000,
    ],
    ids=["letters", "digits", "spaces", "semicolons", "clash-chain", "brackets", "foe-chain", "bracket-heads", "per"],
)
def test_effects_parsers_stay_fast_on_pathological_cells(text: str) -> None:
    """100 KB of repetitive text: no parser backtracks for long (a sheet cell holds at most 32,767 characters)."""
    import time

    start = time.perf_counter()
    for kind in ("monster", "channeled"):
        source_effects.parse_effects(text, kind)
    blades_effects.parse_effects(text)
    plasma_effects.parse_effects(text)
    souls_effects.parse_effects(text)
    circles_abilities.find_ability(text)
    assert time.perf_counter() - start < 5.0


BIG = "9" * 5_000
"""Past Python's 4,300-digit limit for int(text); a csv cell may hold 131,072 characters."""


@pytest.mark.parametrize(
    ("parser", "text"),
    [
        ("plasma", f"damage {BIG}"),
        ("plasma", "damage ²"),
        ("souls", f"draw {BIG}"),
        ("source", f"push back {BIG}"),
        ("source", f"{BIG}-{BIG}: draw 1"),
        ("blades", f"Play: gain {BIG} RP"),
        ("blades", f"Score: gain 1 RP per {BIG}+ stars"),
    ],
)
def test_effects_parsers_report_absurd_numbers_instead_of_raising(parser: str, text: str) -> None:
    parse = {
        "plasma": plasma_effects.parse_effects,
        "souls": souls_effects.parse_effects,
        "source": lambda cell: source_effects.parse_effects(cell, "channeled" if ":" in cell else "monster"),
        "blades": blades_effects.parse_effects,
    }[parser]
    parse(text)
