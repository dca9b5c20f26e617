"""Balance reports: XLSX read back cell by cell, formula-like text kept as text, provenance stamped."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest
from toy_engine import HONEST_ROWS

from workbench.cards import CardSet, Deck
from workbench.propose import Proposals, propose
from workbench.reports import BalanceReport, build_report, write_report, write_xlsx
from workbench.rulesets import RULESETS
from workbench.run_settings import RunSettings
from workbench.spreadsheets import csv_safe, is_formula_like
from workbench.stat_values import StatValues, stat_values

SOULS = RULESETS["souls"]
HOSTILE_NAME = '=HYPERLINK("http://example.invalid","x")'
ROWS = [
    {"name": HOSTILE_NAME, "kind": "monster", "soul_cost": 2, "atk": 4, "def": 4, "abilities": "Atk"},
    {"name": "+Plus Imp", "kind": "monster", "soul_cost": 3, "atk": 2, "def": 2, "abilities": "Atk", "text": "@once"},
    {"name": "Grave Titan", "kind": "monster", "soul_cost": 3, "atk": 9, "def": 7, "abilities": "Atk; Mobile"},
    {"name": "Bone Wall", "kind": "monster", "soul_cost": 2, "atk": 1, "def": 12, "abilities": "Atk; Flying"},
]


@pytest.fixture
def souls_report(make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]) -> tuple[CardSet, BalanceReport]:
    cardset = make_cardset(SOULS, ROWS)
    deck = make_deck(cardset, "2 Grave Titan\n1 Nobody Card", name="=cmd|' /C calc'!A0")
    return cardset, build_report(cardset, [deck], run=RunSettings(options={"strict_costs": "true"}))


def test_xlsx_report_has_every_sheet_and_the_findings_cell_by_cell(
    souls_report: tuple[CardSet, BalanceReport], tmp_path: Path
) -> None:
    cardset, report = souls_report
    out = write_xlsx(report, tmp_path / "report.xlsx")
    book = openpyxl.load_workbook(out)
    assert book.sheetnames[:6] == ["Summary", "Findings", "Power", "Matchups", "Options", "Provenance"]
    findings = book["Findings"]
    header = [cell.value for cell in findings[1]]
    assert header == ["severity", "rule", "card", "deck", "sheet", "row", "column", "message", "expected", "actual"]
    rows = [dict(zip(header, (cell.value for cell in row), strict=False)) for row in findings.iter_rows(min_row=2)]
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
    assert options["strict_costs"] == "true"  # as --option strict_costs=true takes it, not Python's True
    provenance = {row[0].value: row[1].value for row in book["Provenance"].iter_rows(min_row=2)}
    assert provenance["ruleset"] == "souls" and provenance["cardset_hash"] == cardset.content_hash()
    assert provenance["workbench_version"] and provenance["date"]
    summary = {row[0].value: row[1].value for row in book["Summary"].iter_rows(min_row=2)}
    assert summary["cards"] == 4 and summary["errors"] == sum(1 for row in rows if row["severity"] == "error")
    assert report.power is None and book["Power"]["A2"].value == report.notes[0]


def test_formula_like_text_stays_text_in_every_sheet(
    souls_report: tuple[CardSet, BalanceReport], tmp_path: Path
) -> None:
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
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-2", "'-2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("Imp", "Imp"),
        (3, 3),
    ],
)
def test_csv_values_that_would_run_as_formulas_are_quoted(value: object, expected: object) -> None:
    assert csv_safe(value) == expected
    assert is_formula_like(value) == (value != expected)


def test_report_without_an_engine_says_so_and_refuses_unknown_formats(
    souls_report: tuple[CardSet, BalanceReport], tmp_path: Path
) -> None:
    _, report = souls_report
    assert report.power is None and report.matchups is None
    assert any("simulated figures" in note for note in report.notes)  # no engine yet, or errors in the set
    with pytest.raises(Exception, match="neither .html nor .xlsx"):
        write_report(report, tmp_path / "report.pdf")


def test_a_report_of_figures_already_simulated_needs_no_new_run(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    from toy_engine import TOY

    from workbench.analysis import power_curve
    from workbench.report_html import render_html
    from workbench.reports import report_from_results, xlsx_bytes
    from workbench.simulate import simulate

    rows = [{"name": n, "kind": "unit", "cost": c, "strength": c} for n, c in (("Filler", 2), ("Cheap", 1), ("Big", 3))]
    cardset = make_cardset(TOY, rows)
    deck = make_deck(cardset, "6 Filler\n3 Cheap\n3 Big", name="ref")
    match = simulate(cardset, deck, matches=300, run=RunSettings(seed=6, workers=1))
    curve = power_curve(cardset, [deck], matches_per_card=300, run=RunSettings(seed=6, workers=1))
    report = report_from_results(cardset, [deck], None, curve, None, match)
    assert report.provenance["seed"] == 6 and report.provenance["matches_per_card"] == 300
    assert report.provenance["policy"] == "greedy/greedy" and report.power is curve
    html = render_html(report)
    assert "Power curve" in html and "First player and game length" in html
    book = openpyxl.load_workbook(io.BytesIO(xlsx_bytes(report)))
    assert [c.value for c in book["Power"][1]][:3] == ["card", "cost", "power"]


TOY_ROWS = [
    {"name": "Filler", "kind": "unit", "cost": 2, "strength": 2},
    {"name": "Cheap", "kind": "unit", "cost": 1, "strength": 1},
    {"name": "Mid", "kind": "unit", "cost": 2, "strength": 4},
    {"name": "Big", "kind": "unit", "cost": 3, "strength": 6},
]
BIG_SEED = 4334430513956379144
"""A seed a spreadsheet's double cannot hold (it would come back as 4.33443E+18)."""


@pytest.fixture
def toy_report(make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]) -> BalanceReport:
    from toy_engine import TOY

    cardset = make_cardset(TOY, TOY_ROWS)
    decks = [
        make_deck(cardset, "6 Filler\n2 Cheap\n2 Mid\n2 Big", name="reference"),
        make_deck(cardset, "4 Filler\n4 Cheap\n4 Big", name="other"),
    ]
    return build_report(cardset, decks, matches_per_card=300, matches=200, run=RunSettings(seed=BIG_SEED, workers=1))


def test_every_seed_and_big_whole_number_reads_back_exactly_from_the_xlsx(toy_report: BalanceReport) -> None:
    from workbench.reports import xlsx_bytes

    book = openpyxl.load_workbook(io.BytesIO(xlsx_bytes(toy_report)))
    matchups = book["Matchups"]
    header = [cell.value for cell in matchups[1]]
    seeds = [row[header.index("seed")] for row in matchups.iter_rows(min_row=2, values_only=True)]
    assert toy_report.matchups is not None
    assert seeds == [str(seed) for seed in toy_report.matchups["seed"]]
    assert all(int(seed) > 2**53 for seed in seeds), "the matchup seeds are 63-bit: this test needs them big"
    assert [int(seed) for seed in seeds] == toy_report.matchups["seed"].tolist()
    provenance = {row[0]: row[1] for row in book["Provenance"].iter_rows(min_row=2, values_only=True)}
    assert provenance["seed"] == str(BIG_SEED) and int(provenance["seed"]) == BIG_SEED
    for sheet in book.worksheets:  # no sheet holds a whole number rounded into a float
        for row in sheet.iter_rows():
            for cell in row:
                if isinstance(cell.value, float):
                    assert abs(cell.value) < 2**53, f"{sheet.title}!{cell.coordinate} = {cell.value}"


def test_the_filler_is_the_baseline_in_the_report_not_counted_as_over_or_under(toy_report: BalanceReport) -> None:
    from workbench.reports import summary_rows, xlsx_bytes

    assert toy_report.power is not None
    cards = toy_report.power.cards
    judged = cards[cards["flag"] != "baseline"]
    summary = dict(summary_rows(toy_report))
    assert summary["baseline (filler, not judged)"] == "Filler"
    assert summary["cards judged"] == len(judged) == len(cards) - 1
    assert summary["over-powered"] == (judged["flag"] == "over").sum()
    assert summary["under-powered"] == (judged["flag"] == "under").sum()
    # Every verdict is counted, undecided and no comparator too: with the rarely played cards, they add up.
    counted = {"on curve": "on curve", "undecided": "undecided (the run cannot tell)"}
    counted |= {"no comparator": "no comparator at its cost"}
    for flag_name, label in counted.items():
        assert summary[label] == (judged["flag"] == flag_name).sum()
    verdicts = ["over-powered", "under-powered", *counted.values()]
    assert sum(summary[label] for label in verdicts) == summary["cards judged"]
    assert summary["cards tested against a comparator"] == toy_report.power.meta["tested"]
    assert summary["verdict rule"] == toy_report.power.rule_statement()
    assert summary["flags and chance"] == toy_report.power.meta["chance"]
    assert summary.get("matches to decide the undecided cards") == toy_report.power.meta["planning"]
    book = openpyxl.load_workbook(io.BytesIO(xlsx_bytes(toy_report)))
    power = book["Power"]
    header = [cell.value for cell in power[1]]
    row = next(r for r in power.iter_rows(min_row=2) if r[0].value == "Filler")
    flag = row[header.index("flag")]
    assert flag.value == "baseline" and flag.fill.fgColor.rgb.endswith("D9D9D9")
    assert row[header.index("suggested_cost")].value is None  # an empty cell, not "None"
    assert row[header.index("stability")].value is None and row[header.index("q_value")].value is None


def test_the_power_sheet_carries_each_verdict_s_figures(toy_report: BalanceReport) -> None:
    from workbench.reports import xlsx_bytes

    assert toy_report.power is not None
    book = openpyxl.load_workbook(io.BytesIO(xlsx_bytes(toy_report)))
    power = book["Power"]
    header = [cell.value for cell in power[1]]
    for column in (
        "flag",
        "stability",
        "q_value",
        "comparator",
        "comparator_cards",
        "band_low",
        "band_high",
        "excess",
        "excess_low",
        "excess_high",
        "detectable",
        "matches_to_decide",
        "suggested_cost",
        "suggested_check",
        "reason",
    ):
        assert column in header, column
    assert header.index("flag") < header.index("stability") < header.index("reason")
    cards = toy_report.power.cards.set_index("card")
    for row in power.iter_rows(min_row=2):
        data = dict(zip(header, row, strict=True))
        card = cards.loc[data["card"].value]
        assert data["flag"].value == card["flag"] and data["reason"].value == card["reason"]
        if card["flag"] == "baseline":
            continue
        assert data["stability"].value == pytest.approx(card["stability"])
        assert 0 <= data["stability"].value <= 1 and data["stability"].number_format == "0%"
        if card["excess"] is not None:
            assert data["excess_low"].value <= data["excess"].value <= data["excess_high"].value
            assert data["q_value"].value == pytest.approx(card["q_value"])
        if card["flag"] == "undecided" and card["matches_to_decide"] is not None:
            assert data["matches_to_decide"].value == card["matches_to_decide"]
        fill = data["flag"].fill.fgColor.rgb
        if card["flag"] == "undecided":
            assert fill.endswith("E4DFEC")
        elif card["flag"] == "no comparator":
            assert fill.endswith("EDEDED")


def test_a_suggested_cost_s_check_is_written_in_words_never_as_a_mapping(toy_report: BalanceReport) -> None:
    from dataclasses import replace

    from workbench.report_html import render_html
    from workbench.reports import suggested_check_text, xlsx_bytes

    assert toy_report.power is not None
    cards = toy_report.power.cards.copy()
    kept, dropped = cards.index[cards["card"] == "Big"][0], cards.index[cards["card"] == "Cheap"][0]
    cards.at[kept, "suggested_cost"] = 2.0
    cards.at[kept, "suggested_check"] = {
        "cost": 2.0,
        "power": 0.25,
        "low": 0.2,
        "high": 0.3,
        "capped": True,
        "landed": True,
    }
    cards.at[dropped, "suggested_check"] = {
        "cost": 3.0,
        "power": -0.1,
        "low": -0.15,
        "high": -0.05,
        "capped": False,
        "landed": False,
    }
    report = replace(toy_report, power=replace(toy_report.power, cards=cards))
    book = openpyxl.load_workbook(io.BytesIO(xlsx_bytes(report)))
    power = book["Power"]
    header = [cell.value for cell in power[1]]
    rows = {row[0].value: dict(zip(header, row, strict=True)) for row in power.iter_rows(min_row=2)}
    assert rows["Big"]["suggested_cost"].value == 2
    assert rows["Big"]["suggested_check"].value == (
        "at cost 2 (capped at the set's range): power +0.250 [+0.200, +0.300], within the tolerance"
    )
    assert rows["Cheap"]["suggested_cost"].value is None
    assert rows["Cheap"]["suggested_check"].value == (
        "at cost 3: power -0.100 [-0.150, -0.050], still beyond the tolerance"
    )
    assert rows["Mid"]["suggested_check"].value is None  # no check: an empty cell
    for sheet in book.worksheets:
        for row in sheet.iter_rows(values_only=True):
            assert not any(isinstance(v, str) and v.startswith("{") for v in row)
    html = render_html(report)
    assert (
        "<td>2 (capped at the set&#x27;s range; measured again: power +0.250 [+0.200, +0.300], within the "
        "tolerance)</td>"
    ) in html
    assert "<td>none (at cost 3: power -0.100 [-0.150, -0.050], still beyond the tolerance)</td>" in html
    assert "&#x27;landed&#x27;" not in html and suggested_check_text(None) == ""


def test_findings_show_lists_in_words_in_the_xlsx_and_html_reports(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    from toy_engine import TOY

    from workbench.report_html import render_html
    from workbench.reports import xlsx_bytes

    cardset = make_cardset(TOY, TOY_ROWS)
    report = build_report(cardset, [make_deck(cardset, "6 Filler\n3 Fillr", name="typo")])
    finding = next(f for f in report.validation.findings if f.rule == "toy.unknown_card")
    assert finding.expected == ["Filler"]  # the finding (and its JSON) keeps the list
    book = openpyxl.load_workbook(io.BytesIO(xlsx_bytes(report)))
    header = [cell.value for cell in book["Findings"][1]]
    row = next(r for r in book["Findings"].iter_rows(min_row=2, values_only=True) if r[1] == "toy.unknown_card")
    assert row[header.index("expected")] == "Filler" and row[header.index("actual")] == "Fillr"
    html = render_html(report)
    assert "<td>Filler</td><td>Fillr</td>" in html and "[&#x27;Filler&#x27;]" not in html


def test_the_html_report_marks_the_baseline_and_shows_no_python(toy_report: BalanceReport) -> None:
    from workbench.report_html import render_html

    html = render_html(toy_report)
    assert '<td class="baseline">baseline</td>' in html
    assert "<i>baseline</i>, gets no verdict" in html
    import re

    outside_scripts = re.sub(r"<script.*?</script>", "", html, flags=re.S)
    for python in (r"\bNone\b", r"\[&#x27;", r"\bTrue\b", r"\bFalse\b", r"\bnan\b"):
        assert not re.search(python, outside_scripts), python


def test_a_card_never_played_is_rarely_played_in_the_xlsx_and_html_reports(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    from toy_engine import TOY

    from workbench.report_html import render_html
    from workbench.reports import summary_rows, xlsx_bytes

    # Titan costs more than the toy's treasury (10): drawn, never played. Every other card costs 2, so the line cannot
    # rise and Titan, alone at its cost, has no band to lie clearly beyond: rarely played, with no verdict.
    flat = [{**row, "cost": 2} for row in TOY_ROWS]
    cardset = make_cardset(TOY, [*flat, {"name": "Titan", "kind": "unit", "cost": 11, "strength": 9}])
    decks = [
        make_deck(cardset, "6 Filler\n2 Cheap\n2 Mid\n2 Big", name="reference"),
        make_deck(cardset, "4 Filler\n4 Cheap\n4 Big", name="other"),
    ]
    report = build_report(cardset, decks, matches_per_card=300, matches=200, run=RunSettings(seed=3, workers=1))
    summary = dict(summary_rows(report))
    assert summary["rarely played (under 5% of matches, no clear verdict)"] == 1
    assert report.power is not None
    assert summary["cards judged"] == len(report.power.cards) - 2  # not the filler, not Titan
    assert summary["power against cost"] == report.power.line_statement()
    book = openpyxl.load_workbook(io.BytesIO(xlsx_bytes(report)))
    power = book["Power"]
    header = [cell.value for cell in power[1]]
    assert {"played", "drawn", "first_played_turn", "reason"} <= set(header)
    titan = next(r for r in power.iter_rows(min_row=2) if r[0].value == "Titan")
    assert titan[header.index("flag")].value == "rarely played"
    assert titan[header.index("flag")].fill.fgColor.rgb.endswith("FFF2CC")
    assert titan[header.index("played")].value == 0 and titan[header.index("played")].number_format == "0.0%"
    assert (
        titan[header.index("first_played_turn")].value is None and titan[header.index("suggested_cost")].value is None
    )
    assert str(titan[header.index("reason")].value).startswith("played in 0% of matches (drawn in")
    html = render_html(report)
    assert '<td class="rarely-played">rarely played</td>' in html
    measured = len(report.power.cards)
    assert f"1 of {measured} measured cards were played in fewer than 5% of their matches (Titan)" in html
    from html import escape

    assert f'<p class="note">{escape(report.power.line_statement())}</p>' in html
    assert "<th>played</th><th>drawn</th><th>first played (turn)</th>" in html


@pytest.fixture(scope="module")
def ashfall_report() -> BalanceReport:
    """Souls' bundled set with its own decks at a small budget: most judged cards are undecided."""
    from workbench.decklists import set_decks
    from workbench.loading import load_cardset

    path = Path(__file__).resolve().parents[1] / "cardsets" / "souls" / "ashfall.csv"
    cardset = load_cardset(path)
    decks = set_decks(cardset, path.parent / "decks").decks
    return build_report(cardset, decks, matches_per_card=200, matches=100, run=RunSettings(seed=0, workers=1))


def test_an_ashfall_report_counts_undecided_cards_and_shows_stability_in_xlsx_and_html(
    ashfall_report: BalanceReport,
) -> None:
    from html import escape

    from workbench.report_html import render_html
    from workbench.reports import xlsx_bytes

    curve = ashfall_report.power
    assert curve is not None
    flags = curve.cards["flag"]
    undecided = int((flags == "undecided").sum())
    assert undecided > 0, "at 200 matches per card, ashfall should leave cards undecided"
    book = openpyxl.load_workbook(io.BytesIO(xlsx_bytes(ashfall_report)))
    summary = {row[0]: row[1] for row in book["Summary"].iter_rows(min_row=2, values_only=True)}
    assert summary["undecided (the run cannot tell)"] == undecided
    assert summary["no comparator at its cost"] == int((flags == "no comparator").sum())
    assert summary["verdict rule"] == curve.rule_statement() and summary["flags and chance"] == curve.meta["chance"]
    assert curve.meta["planning"] and summary["matches to decide the undecided cards"] == curve.meta["planning"]
    power = book["Power"]
    header = [cell.value for cell in power[1]]
    assert {"stability", "q_value", "excess_low", "excess_high", "matches_to_decide", "suggested_check"} <= set(header)
    for row in power.iter_rows(min_row=2):
        flag = row[header.index("flag")]
        if flag.value == "undecided":
            assert flag.fill.fgColor.rgb.endswith("E4DFEC")
            assert 0 <= row[header.index("stability")].value <= 1
        assert all(cell.data_type != "f" for cell in row)
    html = render_html(ashfall_report)
    assert '<td class="undecided">undecided</td>' in html and "td.undecided {" in html and "td.no-comparator {" in html
    assert (
        "<th>flag</th><th>stability</th><th>q-value</th><th>power minus band (95%)</th><th>matches to decide</th>"
        "<th>suggested cost (measured again)</th><th>why</th>"
    ) in html
    for statement in curve.statements():  # the line's, the rule's, the chance's, the planning's, the rarely played
        assert f'<p class="note">{escape(statement)}</p>' in html
    assert f"<td>undecided (the run cannot tell)</td><td>{undecided}</td>" in html
    needed = [n for n in curve.cards["matches_to_decide"] if n is not None]
    assert needed and f"<td>{max(needed):,}</td>" in html


# ---- whole games (Millennium Blades, --option game=full) ----------------------------------------------------------

# Two seats under the 3-5 player rules (two_player_rules=normal): every game plays all three rounds, with every part.
WHOLE_GAME_OPTIONS = {"game": "full", "players": "2", "market_actions": "2", "two_player_rules": "normal"}
"""Two seats and two actions a timer segment: a report of whole games in seconds."""


@pytest.fixture(scope="module")
def whole_game_report(tmp_path_factory: pytest.TempPathFactory) -> BalanceReport:
    from workbench.paths import bundled_sets

    # A store card named like markup and like a formula: the whole-game tables must escape it and keep it text.
    sample = bundled_sets("blades")[0]
    folder = tmp_path_factory.mktemp("blades")
    text = sample.read_text(encoding="utf-8").replace("Night Market Chef", "=Night <b>Market</b> Chef")
    path = folder / "blades_hostile.csv"
    path.write_text(text, encoding="utf-8")
    from workbench.loading import load_cardset

    return build_report(
        load_cardset(path),
        run=RunSettings(seed=4, options=WHOLE_GAME_OPTIONS),
        full_games=3,
        full_games_per_card=2,
    )


def test_a_whole_game_report_has_parts_per_seat_rounds_store_and_power_on_buy_cost(
    whole_game_report: BalanceReport, tmp_path: Path
) -> None:
    report = whole_game_report
    assert report.full_game is not None and report.full_game_power is not None
    assert report.power is None and report.match is None  # the decks' tournament figures are not this report's
    book = openpyxl.load_workbook(write_xlsx(report, tmp_path / "whole.xlsx"))
    for sheet in ("Whole game", "Rounds", "Store", "Whole-game health", "Power (buy cost)"):
        assert sheet in book.sheetnames
    seats = [[cell.value for cell in row] for row in book["Whole game"].iter_rows()]
    header = seats[0]
    assert header[:4] == ["seat", "policy", "total", "total 95%"]
    for row in seats[1:]:
        data = dict(zip(header, row, strict=True))
        parts = data["tournament"] + data["collections"] + data["money"] + data["friendship"]
        assert data["total"] == pytest.approx(parts)
        assert str(data["total 95%"]).startswith(f"{data['total']:.1f} [")
    rounds = [[cell.value for cell in row] for row in book["Rounds"].iter_rows(min_row=2)]
    assert [row[1] for row in rounds] == ["R1", "R2", "R3"] * 2
    power = [[cell.value for cell in row] for row in book["Power (buy cost)"].iter_rows()]
    # Rows decided by workbench.judging carry each card's stability and q-value: shown after the flag.
    decided = [c for c in ("stability", "q_value") if any(c in row for row in report.full_game_power.rows)]
    assert power[0] == [
        "card",
        "set",
        "buy_cost",
        "stars",
        "power",
        "low",
        "high",
        "sign",
        "bought",
        "bought_any",
        "flag",
        *decided,
        "suggested_buy_cost",
        "reason",
    ]
    flags = {row[0]: dict(zip(power[0], row, strict=True)) for row in power[1:]}
    verdicts = {"over", "under", "on curve", "undecided", "no comparator", "rarely bought"}
    assert {row["flag"] for row in flags.values()} <= verdicts
    for card in flags.values():
        if "stability" in decided and card["stability"] is not None:
            assert 0 <= card["stability"] <= 1
    for card in flags.values():
        assert card["reason"] and 0 <= card["bought"] <= card["bought_any"] <= 1
        if card["flag"] == "rarely bought":
            assert card["bought"] < 0.1 and card["suggested_buy_cost"] is None
            assert card["reason"].startswith(("bought by no seat", "bought by seat A (greedy) in "))
    assert [row[2] for row in power[1:]] == sorted(row[2] for row in power[1:])
    assert "=Night <b>Market</b> Chef" in [row[0] for row in power[1:]]  # text, not a formula
    store_names = [cell.value for cell in book["Store"]["A"]]
    assert "=Night <b>Market</b> Chef" in store_names
    provenance = {row[0].value: row[1].value for row in book["Provenance"].iter_rows(min_row=2)}
    assert provenance["seed"] == "4" and provenance["games"] == 3 and provenance["games_per_card"] == 2
    assert provenance["market_version"] and provenance["ruleset_version"] and provenance["policy"] == "greedy/greedy"
    assert provenance["power_policies"] == "greedy/random"
    assert provenance["intervals"] == "95% normal intervals from the per-game values"
    summary = {row[0].value: row[1].value for row in book["Summary"].iter_rows(min_row=2)}
    assert summary["whole games"].startswith("3 games of 2 players, seed 4")
    assert "seat A (greedy): final VP" in summary
    rare = [name for name, row in flags.items() if row["flag"] == "rarely bought"]
    assert summary["rarely bought by seat A (under 10% of games; no clear verdict)"] == (", ".join(rare) or "none")
    undecided = [name for name, row in flags.items() if row["flag"] == "undecided"]
    alone = [name for name, row in flags.items() if row["flag"] == "no comparator"]
    assert summary["undecided (the run cannot tell)"] == (", ".join(undecided) or "none")
    assert summary["no comparator at its buy cost"] == (", ".join(alone) or "none")
    assert summary["power against buy cost"] == report.full_game_power.line_statement()
    assert summary["game 0's trace"].startswith("Game 0 of seed 4 (policies greedy, greedy)")


def test_a_whole_game_report_holds_game_0_s_trace_as_text(whole_game_report: BalanceReport, tmp_path: Path) -> None:
    from workbench.full_game import full_game_trace

    trace = whole_game_report.full_game_trace
    assert trace is not None
    # Game 0 of the run: the trace the command line prints for the same seed and options.
    whole = full_game_trace(whole_game_report.cardset, WHOLE_GAME_OPTIONS, 4)
    assert trace.lines == whole and trace.total_lines == len(whole) and not trace.cut
    book = openpyxl.load_workbook(write_xlsx(whole_game_report, tmp_path / "trace.xlsx"))
    rows = [[cell.value for cell in row] for row in book["Game 0 trace"].iter_rows()]
    assert rows[0] == ["line", "event"] and [row[1] for row in rows[1:]] == whole
    assert [row[0] for row in rows[1:]] == list(range(1, len(whole) + 1))
    cells = [row[1] for row in book["Game 0 trace"].iter_rows(min_row=2)]
    assert all(cell.data_type == "s" for cell in cells)


def test_a_trace_line_that_looks_like_a_formula_or_markup_stays_text(
    whole_game_report: BalanceReport, tmp_path: Path
) -> None:
    from workbench.full_game import bounded_trace
    from workbench.report_html import render_html
    from workbench.reports import report_from_full_game

    hostile = ['=HYPERLINK("http://x","y")', "<script>alert(1)</script>", "  A buys =Night <b>Market</b> Chef"]
    trace = bounded_trace(hostile, 4, ["greedy", "greedy"])
    report = report_from_full_game(
        whole_game_report.cardset, WHOLE_GAME_OPTIONS, whole_game_report.full_game, None, trace
    )
    book = openpyxl.load_workbook(write_xlsx(report, tmp_path / "hostile.xlsx"))
    cells = [row[1] for row in book["Game 0 trace"].iter_rows(min_row=2)]
    assert [cell.value for cell in cells] == hostile and all(cell.data_type == "s" for cell in cells)
    assert cells[0].quotePrefix  # a spreadsheet program keeps it text when the cell is edited again
    page = render_html(report)
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "A buys =Night &lt;b&gt;Market&lt;/b&gt; Chef" in page


def test_a_trace_too_long_for_a_report_keeps_its_start_and_its_final_score() -> None:
    from workbench.full_game import TRACE_LINE_CHARS, TRACE_MAX_LINES, TRACE_TAIL_LINES, bounded_trace

    lines = [f"line {k}" for k in range(TRACE_MAX_LINES + 500)]
    lines[3] = "=HYPERLINK(" + "x" * (TRACE_LINE_CHARS * 2)
    trace = bounded_trace(lines, 7, ["greedy", "random"])
    assert len(trace.lines) == TRACE_MAX_LINES and trace.total_lines == TRACE_MAX_LINES + 500 and trace.cut
    head = TRACE_MAX_LINES - TRACE_TAIL_LINES - 1
    assert trace.lines[:3] == lines[:3] and trace.lines[-TRACE_TAIL_LINES:] == lines[-TRACE_TAIL_LINES:]
    assert trace.lines[head] == f"… {500 + 1:,} lines left out …"
    assert len(trace.lines[3]) == TRACE_LINE_CHARS and trace.lines[3].endswith("…")
    note = trace.note()
    assert f"{TRACE_MAX_LINES + 500:,} lines" in note and f"at most {TRACE_MAX_LINES:,}" in note
    assert "cut short" in note and "--trace" in note


def test_a_report_of_whole_games_already_played_is_the_app_s_download(whole_game_report: BalanceReport) -> None:
    from workbench.reports import report_from_full_game

    games, power = whole_game_report.full_game, whole_game_report.full_game_power
    assert games is not None and power is not None
    report = report_from_full_game(whole_game_report.cardset, WHOLE_GAME_OPTIONS, games, None)
    assert report.full_game is games and report.full_game_power is None
    assert report.provenance["games"] == 3 and report.provenance["games_per_card"] is None
    only_power = report_from_full_game(whole_game_report.cardset, WHOLE_GAME_OPTIONS, None, power)
    assert only_power.provenance["games"] is None and only_power.provenance["games_per_card"] == 2
    assert only_power.provenance["seed"] == 4


# Stat values and patch proposals: sections shown only when their results are passed in (never run by the report).

PLANTED_ROWS = [
    *HONEST_ROWS,
    {"name": "=Planted", "kind": "unit", "cost": 1, "strength": 8},
    {"name": "Dud", "kind": "unit", "cost": 4, "strength": 2},
    {"name": "Dim", "kind": "unit", "cost": 3, "strength": 2},
]
"""The toy set of tests/test_propose.py, its over-powered card with a name a spreadsheet would run as a formula."""


def souls_stat_values() -> tuple[CardSet, list[Deck], StatValues]:
    """Bundled ashfall and its decks, with stat values at a tiny budget."""
    from workbench.decklists import read_decklist
    from workbench.loading import load_cardset
    from workbench.paths import bundled_decks, bundled_sets

    cardset = load_cardset(bundled_sets("souls")[0])
    decks = [read_decklist(path, cardset) for path in bundled_decks("souls")]
    return cardset, decks, stat_values(cardset, decks, 12, 80, RunSettings(seed=3, workers=1))


def toy_proposals(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> tuple[CardSet, list[Deck], Proposals]:
    """The planted toy set with proposals at a tiny budget (some offered, some not)."""
    from toy_engine import TOY

    cardset = make_cardset(TOY, PLANTED_ROWS)
    decks = [
        make_deck(cardset, "6 Filler\n2 Spark\n2 Knight\n2 Giant", name="reference"),
        make_deck(cardset, "4 Filler\n4 Ember\n4 Titan", name="other"),
    ]
    return cardset, decks, propose(cardset, decks, 200, RunSettings(seed=1, workers=1), evaluations=8)


def test_the_stat_values_section_is_left_out_unless_its_result_is_passed_in(tmp_path: Path) -> None:
    cardset, decks, values = souls_stat_values()
    plain = build_report(cardset, decks[:1], RunSettings(seed=1, workers=1), matches_per_card=20, matches=20)
    assert plain.stat_values is None and plain.proposals is None
    assert "Stat values" not in openpyxl.load_workbook(write_xlsx(plain, tmp_path / "plain.xlsx")).sheetnames
    report = build_report(
        cardset, decks[:1], RunSettings(seed=1, workers=1), matches_per_card=20, matches=20, stat_values=values
    )
    book = openpyxl.load_workbook(write_xlsx(report, tmp_path / "report.xlsx"))
    assert {"Stat values", "Stat statements", "Stat curves", "Cost probe", "Stat design"} <= set(book.sheetnames)
    rates = list(book["Stat values"].iter_rows(values_only=True))
    assert rates[0][:6] == ("attribute", "kind", "step", "rate", "low", "high")
    assert [row[0] for row in rates[1:]] == list(values.rates["attribute"])
    atk = next(row for row in rates[1:] if row[0] == "Atk")
    assert atk[3] == pytest.approx(float(values.rates.set_index("attribute").loc["Atk", "rate"]))
    statements = [row[0] for row in book["Stat statements"].iter_rows(min_row=2, values_only=True)]
    assert statements[0].startswith("The document's formula: the soul-cost table")
    assert statements[1 : 1 + len(values.statements)] == values.statements
    assert book["Stat curves"].max_row == len(values.curves) + 1


def test_the_proposals_section_lists_every_proved_proposal_and_writes_names_as_text(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck], tmp_path: Path
) -> None:
    cardset, decks, proposals = toy_proposals(make_cardset, make_deck)
    assert proposals.offered and proposals.refused
    report = build_report(
        cardset, decks, RunSettings(seed=1, workers=1), matches_per_card=20, matches=20, proposals=proposals
    )
    book = openpyxl.load_workbook(write_xlsx(report, tmp_path / "report.xlsx"))
    assert {"Proposals", "Proposal verdicts", "Proposal front", "Proposal statements"} <= set(book.sheetnames)
    rows = list(book["Proposals"].iter_rows(values_only=True))
    header = rows[0]
    listed = [dict(zip(header, row, strict=True)) for row in rows[1:]]
    assert [row["proposal"] for row in listed] == [f"offered {n}" for n in range(1, len(proposals.offered) + 1)] + [
        f"not offered {n}" for n in range(1, len(proposals.refused) + 1)
    ]
    for row, proposal in zip(listed, [*proposals.offered, *proposals.refused], strict=True):
        assert row["patch_notes"] == " ".join(proposal.patch_notes) and row["statement"] == proposal.statement
        assert row["flagged_before"] == proposal.before.flagged and row["flagged_after"] == proposal.after.flagged
    verdicts = book["Proposal verdicts"]
    assert verdicts.max_row - 1 == sum(len(p.verdicts) for p in [*proposals.offered, *proposals.refused])
    # A card name that reads as a formula is written as text wherever it appears, never run.
    for sheet in ("Proposals", "Proposal verdicts", "Proposal front"):
        for row in book[sheet].iter_rows(min_row=2):
            for cell in row:
                if isinstance(cell.value, str) and "=Planted" in cell.value:
                    assert cell.data_type == "s"
    assert any(cell.value == "=Planted" for row in book["Proposal verdicts"].iter_rows(min_row=2) for cell in row), (
        "the planted card is among the verdicts"
    )
