"""Balance reports: XLSX read back cell by cell, formula-like text kept as text, provenance stamped."""

from __future__ import annotations

from collections.abc import Callable
import io
from pathlib import Path

import openpyxl
import pytest

from workbench.cards import CardSet, Deck
from workbench.reports import build_report, write_report, write_xlsx
from workbench.rulesets import RULESETS
from workbench.spreadsheets import csv_safe, is_formula_like

SOULS = RULESETS["souls"]
HOSTILE_NAME = '=HYPERLINK("http://example.invalid","x")'
ROWS = [
    {"name": HOSTILE_NAME, "kind": "monster", "soul_cost": 2, "atk": 4, "def": 4, "abilities": "Atk"},
    {"name": "+Plus Imp", "kind": "monster", "soul_cost": 3, "atk": 2, "def": 2, "abilities": "Atk", "text": "@once"},
    {"name": "Grave Titan", "kind": "monster", "soul_cost": 3, "atk": 9, "def": 7, "abilities": "Atk; Mobile"},
    {"name": "Bone Wall", "kind": "monster", "soul_cost": 2, "atk": 1, "def": 12, "abilities": "Atk; Flying"},
]


@pytest.fixture
def souls_report(make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]) -> tuple[CardSet, object]:
    cardset = make_cardset(SOULS, ROWS)
    deck = make_deck(cardset, "2 Grave Titan\n1 Nobody Card", name="=cmd|' /C calc'!A0")
    return cardset, build_report(cardset, [deck], options={"strict_costs": "true"})


def test_xlsx_report_has_every_sheet_and_the_findings_cell_by_cell(souls_report, tmp_path: Path) -> None:
    cardset, report = souls_report
    out = write_xlsx(report, tmp_path / "report.xlsx")
    book = openpyxl.load_workbook(out)
    assert book.sheetnames[:6] == ["Summary", "Findings", "Power", "Matchups", "Options", "Provenance"]
    findings = book["Findings"]
    header = [cell.value for cell in findings[1]]
    assert header == ["severity", "rule", "card", "deck", "sheet", "row", "column", "message", "expected", "actual"]
    rows = [dict(zip(header, (cell.value for cell in row))) for row in findings.iter_rows(min_row=2)]
    by_card = {(row["card"], row["rule"]): row for row in rows}
    cost = by_card[("+Plus Imp", "souls.soul_cost")]
    assert cost["severity"] == "error" and cost["row"] == 3 and cost["column"] == "soul_cost"
    assert cost["expected"] == 0 and cost["actual"] == 3
    assert by_card[("Bone Wall", "souls.unknown_ability")]["column"] == "abilities"
    unknown = by_card[("Nobody Card", "souls.unknown_card")]
    assert unknown["deck"] == "=cmd|' /C calc'!A0" and unknown["row"] == 2
    assert findings.freeze_panes == "A2" and findings.auto_filter.ref.startswith("A1:")
    error_row = next(i for i, row in enumerate(rows, start=2) if row["severity"] == "error")
    assert findings.cell(row=error_row, column=1).fill.fgColor.rgb.endswith("F8CBAD")
    options = {row[0].value: row[1].value for row in book["Options"].iter_rows(min_row=2)}
    assert options["strict_costs"] == "True"
    provenance = {row[0].value: row[1].value for row in book["Provenance"].iter_rows(min_row=2)}
    assert provenance["ruleset"] == "souls" and provenance["cardset_hash"] == cardset.content_hash()
    assert provenance["workbench_version"] and provenance["date"]
    summary = {row[0].value: row[1].value for row in book["Summary"].iter_rows(min_row=2)}
    assert summary["cards"] == 4 and summary["errors"] == sum(1 for row in rows if row["severity"] == "error")
    assert report.power is None and book["Power"]["A2"].value == report.notes[0]


def test_formula_like_text_stays_text_in_every_sheet(souls_report, tmp_path: Path) -> None:
    _, report = souls_report
    out = write_xlsx(report, tmp_path / "report.xlsx")
    book = openpyxl.load_workbook(out)
    seen = False
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", f"{sheet.title}!{cell.coordinate} became a formula: {cell.value}"
                seen |= cell.value == HOSTILE_NAME
    assert seen, "the hostile card name should be in the report, as text"


@pytest.mark.parametrize(
    ("value", "expected"),
    [("=1+1", "'=1+1"), ("+1", "'+1"), ("-2", "'-2"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"), ("Imp", "Imp"), (3, 3)],
)
def test_csv_values_that_would_run_as_formulas_are_quoted(value: object, expected: object) -> None:
    assert csv_safe(value) == expected
    assert is_formula_like(value) == (value != expected)


def test_report_without_an_engine_says_so_and_refuses_unknown_formats(souls_report, tmp_path: Path) -> None:
    _, report = souls_report
    assert report.power is None and report.matchups is None
    assert any("simulated figures" in note for note in report.notes)  # no engine yet, or errors in the set
    with pytest.raises(Exception, match="neither .html nor .xlsx"):
        write_report(report, tmp_path / "report.pdf")


def test_a_report_of_figures_already_simulated_needs_no_new_run(make_cardset, make_deck) -> None:
    from toy_engine import TOY

    from workbench.analysis import power_curve
    from workbench.report_html import render_html
    from workbench.reports import report_from_results, xlsx_bytes
    from workbench.simulate import simulate

    rows = [{"name": n, "kind": "unit", "cost": c, "strength": c} for n, c in (("Filler", 2), ("Cheap", 1), ("Big", 3))]
    cardset = make_cardset(TOY, rows)
    deck = make_deck(cardset, "6 Filler\n3 Cheap\n3 Big", name="ref")
    match = simulate(cardset, deck, matches=300, seed=6, workers=1)
    curve = power_curve(cardset, [deck], matches_per_card=300, seed=6, workers=1)
    report = report_from_results(cardset, [deck], None, curve, None, match)
    assert report.provenance["seed"] == 6 and report.provenance["matches_per_card"] == 300
    assert report.provenance["policy"] == "greedy/greedy" and report.power is curve
    html = render_html(report)
    assert "Power curve" in html and "First player and game length" in html
    book = openpyxl.load_workbook(io.BytesIO(xlsx_bytes(report)))
    assert [c.value for c in book["Power"][1]][:3] == ["card", "cost", "power"]
