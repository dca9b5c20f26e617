"""Exports never carry live formulas, and HTML escapes every piece of user text.

Card names, rules text, effects, set and deck names full of markup (`<script>`, `"><img onerror>`, `&`) and
of formula starters (`=`, `+`, `-`, `@`; tab and CR are trimmed off cells when a sheet is read, so they are
fed to the cell writers directly) go through every export: the balance report as .xlsx and .html, the print
sheet, the set diff's JSON, the app's saved workbook and the card preview. Each xlsx is checked in its raw
XML (no `<f>` element anywhere); each HTML page is parsed and must hold no tag or event attribute that came
from user text, while still showing that text (escaped, not dropped).
"""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from collections.abc import Sequence
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from workbench.card_preview import card_html
from workbench.cards import CardSet, Deck, Finding
from workbench.decklists import parse_decklist
from workbench.diff import diff_cardsets
from workbench.editing import apply_editor_changes, sheet_from_table, to_xlsx_bytes
from workbench.loading import cardset_from_table, load_cardset
from workbench.print_sheet import render_print_sheet
from workbench.reports import build_report, write_report
from workbench.rulesets import RULESETS
from workbench.rulesets.base import normalize_header
from workbench.spreadsheets import FORMULA_STARTERS, SheetTable, append_row, csv_safe, read_sheet, write_cell

REPO = Path(__file__).resolve().parents[2]
SAMPLE_SETS = {
    "source": "cardsets/source/valley_of_deadlife.csv",
    "plasma": "cardsets/plasma/plasma_core.csv",
    "blades": "cardsets/blades/blades_sample.csv",
    "souls": "cardsets/souls/ashfall.csv",
    "circles": "cardsets/circles/circle_starter.csv",
}

HOSTILE_NAMES = [
    '<script>alert("xss-name")</script>',
    '"><img src=x onerror=alert("xss-img")>',
    "Fish & Chips <b>bold</b> &amp; 'quotes'",
    '=HYPERLINK("http://evil.example","click me")',
    "+SUM(1,2)",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(A1:A2)",
    "=1+1",
]
HOSTILE_TEXT = '=cmd|"/C calc"!A0 <script>alert("xss-text")</script> "><img src=x onerror=alert(9)> & more'
HOSTILE_EFFECTS = '<iframe src="javascript:alert(3)"></iframe>; =1+1; @boom'
HOSTILE_SET = '<script>alert("xss-set")</script> & =Set'
HOSTILE_DECK = '"><img src=x onerror=alert("xss-deck")>'
FORBIDDEN_TAGS = {"img", "iframe", "object", "embed", "i"}
"""Tags no export writes of its own, so any of them came from user text."""


class HtmlAudit(HTMLParser):
    """Every tag, attribute and text run of a page, as a browser's tokenizer sees them."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.text: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False
        self.feed(page)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        (self.scripts if self._in_script else self.text).append(data)

    @property
    def visible(self) -> str:
        return "".join(self.text)


def assert_escaped(page: str, shown: list[str]) -> None:
    """No tag or event handler came from user text, and the user text is on the page as text."""
    audit = HtmlAudit(page)
    for tag, attrs in audit.tags:
        assert tag not in FORBIDDEN_TAGS, (tag, attrs)
        for name, value in attrs:
            assert not name.startswith("on"), (tag, name, value)
            assert "javascript:" not in (value or "").casefold(), (tag, name, value)
    # Unescaped payloads never appear in the raw page, inside a script (plotly's data) or out of one.
    for payload in ("<script>alert(", "<img src=x", "<iframe", "<b>bold", "<i>before"):
        assert payload not in page, payload
    visible = audit.visible + "".join(value or "" for _, attrs in audit.tags for _, value in attrs)
    for text in shown:
        assert text in visible, text


def assert_no_live_formulas(data: bytes, expected_texts: list[str]) -> None:
    """No worksheet holds a formula, and every formula-like user string is stored as a plain string."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in archive.namelist():
            if name.startswith("xl/worksheets/") and name.endswith(".xml"):
                xml = archive.read(name).decode()
                assert not re.search(r"<f[ >/]", xml), (name, re.search(r"<c [^>]*><f[ >/].{0,80}", xml))
    workbook = openpyxl.load_workbook(io.BytesIO(data))
    strings = set()
    for sheet in workbook.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if isinstance(cell.value, str):
                    strings.add(cell.value)
                    assert cell.data_type != "f", (sheet.title, cell.coordinate, cell.value)
    for text in expected_texts:
        assert any(text in value for value in strings), text


def hostile_table(ruleset_id: str, text: str = HOSTILE_TEXT) -> SheetTable:
    """The bundled sample set with hostile names, rules text and effects in its first rows, and a hostile set name."""
    sample = load_cardset(REPO / SAMPLE_SETS[ruleset_id], ruleset_id)
    table = sample.table
    index = {normalize_header(h): i for i, h in enumerate(table.headers)}
    rows: list[tuple[int, Sequence[Any]]] = []
    for position, (number, values) in enumerate(table.rows):
        values = list(values)
        if position < len(HOSTILE_NAMES):
            values[index["name"]] = HOSTILE_NAMES[position]
            values[index["text"]] = text
            if "effects" in index:
                values[index["effects"]] = HOSTILE_EFFECTS
        rows.append((number, values))
    return SheetTable(
        path=f"{ruleset_id}.csv",
        sheet=f"{ruleset_id}.csv",
        headers=list(table.headers),
        rows=rows,
        set_info={"name": HOSTILE_SET},
    )


def hostile_cardset(ruleset_id: str, text: str = HOSTILE_TEXT) -> CardSet:
    cardset = cardset_from_table(hostile_table(ruleset_id, text), RULESETS[ruleset_id])
    loaded = set(cardset.names)
    assert set(HOSTILE_NAMES) <= loaded, set(HOSTILE_NAMES) - loaded
    return cardset


def hostile_deck(cardset: CardSet) -> Deck:
    lines = "\n".join(f"1 {name}" for name in HOSTILE_NAMES) + "\n2 <script>alert('unknown')</script>"
    return parse_decklist(lines, cardset, name=HOSTILE_DECK, path="deck.txt")


@pytest.mark.parametrize("ruleset_id", sorted(SAMPLE_SETS))
def test_balance_report_xlsx_and_html_escape_markup_and_hold_no_formulas(ruleset_id: str, tmp_path: Path) -> None:
    cardset = hostile_cardset(ruleset_id)
    baseline = hostile_cardset(ruleset_id, text="=old text <i>before</i>")
    # The unknown card in the deck is an error, so no simulation runs: the report is findings, budget and changes.
    report = build_report(cardset, [hostile_deck(cardset)], baseline=baseline)
    assert report.diff is not None and report.diff.changed
    assert any(note.startswith(tuple("=+-@")) for note in report.diff.patch_notes())

    xlsx = write_report(report, tmp_path / "report.xlsx")
    assert_no_live_formulas(xlsx.read_bytes(), [*HOSTILE_NAMES, HOSTILE_SET, HOSTILE_DECK])

    page = write_report(report, tmp_path / "report.html").read_text(encoding="utf-8")
    assert_escaped(page, [*HOSTILE_NAMES, HOSTILE_SET, HOSTILE_DECK, "unknown"])


@pytest.mark.parametrize("ruleset_id", sorted(SAMPLE_SETS))
def test_print_sheet_escapes_card_names_and_text(ruleset_id: str) -> None:
    cardset = hostile_cardset(ruleset_id)
    page, printed, _pages = render_print_sheet(cardset)
    assert printed >= len(HOSTILE_NAMES)
    assert_escaped(page, [*HOSTILE_NAMES, HOSTILE_SET, HOSTILE_TEXT])


@pytest.mark.parametrize("ruleset_id", sorted(SAMPLE_SETS))
def test_diff_json_carries_user_text_verbatim(ruleset_id: str) -> None:
    """JSON is data, not a page: the names come back exactly (not HTML-escaped, not mangled), as valid JSON."""
    new = hostile_cardset(ruleset_id)
    old = hostile_cardset(ruleset_id, text="=old text <i>before</i>")
    diff = diff_cardsets(old, new)
    encoded = json.dumps(diff.to_json(), ensure_ascii=False, default=str)
    decoded = json.loads(encoded)
    changed = {change["card"] for change in decoded["changed"]}
    assert set(HOSTILE_NAMES) <= changed
    texts = [c["new"] for change in decoded["changed"] for c in change["changes"] if c["field"] == "text"]
    assert HOSTILE_TEXT in texts and "&lt;" not in encoded
    assert decoded["new"]["name"] == HOSTILE_SET


def test_the_apps_saved_workbook_stores_typed_formula_starters_as_text() -> None:
    header = ["name", "kind", "soul_cost", "atk", "def", "text", "Notes"]
    buffer = io.StringIO()
    csv.writer(buffer).writerows([header, ["Ember Imp", "monster", "0", "2", "3", "Plain.", ""]])
    source = buffer.getvalue().encode()
    sheet = sheet_from_table(read_sheet("cards.csv", data=source))
    typed = [
        {"name": name, "kind": "monster", "soul_cost": "0", "atk": "1", "def": "1", "text": HOSTILE_TEXT, "Notes": note}
        for name, note in zip(HOSTILE_NAMES, ["=2*3", "+1", "-x", "@here", "=A1", "-", "+", "@"], strict=False)
    ]
    sheet = apply_editor_changes(sheet, {"added_rows": typed, "edited_rows": {0: {"Notes": '=HYPERLINK("x")'}}})
    saved = to_xlsx_bytes(sheet, "souls", source=source, set_name=HOSTILE_SET)
    assert_no_live_formulas(saved, [*HOSTILE_NAMES, HOSTILE_TEXT, HOSTILE_SET, "=2*3", '=HYPERLINK("x")'])
    cardset = load_cardset("saved.xlsx", data=saved)
    assert [f for f in cardset.load_findings if f.rule.endswith("formula_cell")] == []
    assert set(HOSTILE_NAMES) <= set(cardset.names)


def test_the_apps_saved_xlsx_upload_stores_typed_formula_starters_as_text() -> None:
    workbook = openpyxl.Workbook()
    worksheet = workbook.active
    worksheet.title = "Cards"
    worksheet.append(["name", "kind", "soul_cost", "atk", "def", "text"])
    worksheet.append(["Ember Imp", "monster", 0, 2, 3, "Plain."])
    buffer = io.BytesIO()
    workbook.save(buffer)
    source = buffer.getvalue()
    sheet = sheet_from_table(read_sheet("cards.xlsx", data=source))
    sheet = apply_editor_changes(
        sheet,
        {
            "edited_rows": {0: {"name": HOSTILE_NAMES[3], "text": HOSTILE_TEXT}},
            "added_rows": [{"name": "@SUM(A1:A2)", "kind": "monster"}],
        },
    )
    saved = to_xlsx_bytes(sheet, "souls", source=source)
    assert_no_live_formulas(saved, [HOSTILE_NAMES[3], HOSTILE_TEXT, "@SUM(A1:A2)"])


def test_card_preview_escapes_every_header_value_and_finding() -> None:
    ruleset = RULESETS["souls"]
    headers = ["name", "kind", "soul_cost", "atk", "def", "abilities", "text", "effects", '<th onmouseover="alert(5)">']
    values = [
        HOSTILE_NAMES[0],
        '<img src=x onerror=alert("kind")>',
        "1",
        '"><img src=x onerror=alert(6)>',
        "3",
        "Atk; <b>bold</b>",
        HOSTILE_TEXT,
        HOSTILE_EFFECTS,
        HOSTILE_NAMES[1],
    ]
    findings = [
        Finding(
            "error",
            "souls.cell_value",
            '<script>alert("msg")</script> is wrong',
            card=HOSTILE_NAMES[0],
            row=2,
            column="atk",
            expected='<img src=x onerror=alert("exp")>',
            actual=HOSTILE_NAMES[1],
        ),
        Finding("warning", '<img src=x onerror=alert("rule")>', "& so on", column=headers[-1]),
    ]
    page = card_html(ruleset, headers, values, findings, cost=2, cost_label='<img src=x onerror=alert("cost")>', row=2)
    assert_escaped(
        page, [HOSTILE_NAMES[0], HOSTILE_TEXT, headers[-1], '<script>alert("msg")</script> is wrong', "& so on"]
    )


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1+2", "@SUM(A1)", "\t=1+1", "\r=1+1", "\0=1"])
def test_every_formula_starter_is_written_as_text_by_the_cell_writers(text: str) -> None:
    """The writers every xlsx export goes through, with the starters a loaded sheet can no longer hold (tab, CR,
    NUL)."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    write_cell(sheet, 1, 1, text)
    append_row(sheet, [text, "plain"])
    assert sheet["A1"].data_type == "s" and sheet["A2"].data_type == "s"
    assert text.startswith(FORMULA_STARTERS)
    assert csv_safe(text) == "'" + text and csv_safe("plain") == "plain"
    buffer = io.BytesIO()
    workbook.save(buffer)
    with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as archive:
        assert "<f>" not in archive.read("xl/worksheets/sheet1.xml").decode()


CONTROL_CSV = b"name,kind,soul_cost,atk,def,text\nBell\x07 Imp,monster,0,x,3,ring\x01 twice\x1b\n"
"""A csv may carry control characters (only NUL is refused); a workbook cannot hold them."""


def test_control_characters_in_user_text_do_not_break_the_xlsx_report(tmp_path: Path) -> None:
    cardset = load_cardset("bell.csv", "souls", data=CONTROL_CSV)
    assert cardset.load_findings[0].card == "Bell\x07 Imp"
    saved = write_report(build_report(cardset), tmp_path / "report.xlsx")
    assert_no_live_formulas(saved.read_bytes(), ["Bell\ufffd Imp"])


def test_control_characters_in_user_text_do_not_break_the_apps_save() -> None:
    sheet = sheet_from_table(read_sheet("bell.csv", data=CONTROL_CSV))
    to_xlsx_bytes(sheet, "souls", source=CONTROL_CSV)
