"""The Decks sheet of a card workbook: the set's decklists in the workbook itself.

A designer keeps cards and decks in one file; every command that uses the set's decks reads them, `--deck NAME`
picks one, bad rows are findings naming sheet, row and column, and saving the app's session writes the decks back.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from toy_engine import TOY

from workbench import cli
from workbench.app.workspace import DeckSource, add_deck, open_bundled, open_cardset, parse_deck, workspace_xlsx_bytes
from workbench.cards import CardSet, Deck, Finding
from workbench.decklists import (
    decks_sheet_content,
    read_decklist,
    read_decks_sheet,
    set_decks,
    text_sheet_lines,
)
from workbench.editing import sheet_from_table, to_xlsx_bytes
from workbench.loading import load_cardset
from workbench.paths import REPO_ROOT, bundled_decks, bundled_sets, decks_folder_beside
from workbench.rulesets import RULESETS, get_ruleset
from workbench.rulesets.blades.decks import collections_of
from workbench.spreadsheets import read_sheet
from workbench.templates import write_template

Rows = Sequence[Sequence[Any]]
SOULS_SET = REPO_ROOT / "cardsets" / "souls" / "ashfall.csv"
TOY_CARDS = REPO_ROOT / "tests" / "app" / "data" / "toy_cards.csv"
TOY_DECKS: Rows = [
    ["deck", "count", "name"],
    ["reference", 6, "Filler"],
    ["reference", 2, "Cheap"],
    ["reference", 2, "Mid"],
    ["reference", 2, "Big"],
    ["other", 4, "Filler"],
    ["other", 4, "Cheap"],
    ["other", 4, "Dud"],
]


def card_rows(csv_path: Path) -> list[list[str]]:
    """A bundled csv's rows, header first, as a designer would paste them into a workbook."""
    with csv_path.open(encoding="utf-8", newline="") as handle:
        return [row for row in csv.reader(handle)]


def write_workbook(path: Path, cards: Rows, decks: Rows | None, decks_title: str = "Decks", **extra: Rows) -> Path:
    """A card workbook: a Cards sheet, optionally a Decks sheet (as titled), and any further sheets."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Cards"
    for row in cards:
        sheet.append(list(row))
    if decks is not None:
        deck_sheet = workbook.create_sheet(decks_title)
        for row in decks:
            deck_sheet.append(list(row))
    for title, rows in extra.items():
        other = workbook.create_sheet(title)
        for row in rows:
            other.append(list(row))
    workbook.save(path)
    return path


def deck_rows_of(deck_paths: Sequence[Path]) -> list[list[Any]]:
    """The bundled text decklists as Decks sheet rows (what a designer would type), header first."""
    rows: list[list[Any]] = [["deck", "count", "name", "section"]]
    for path in deck_paths:
        ruleset = get_ruleset(path.parent.parent.name)
        for line in text_sheet_lines(path.stem, path.read_text(encoding="utf-8"), ruleset):
            rows.append([line.deck, line.count, line.name, line.section or None])
    return rows


def lines_of(deck: Deck) -> list[tuple[str, int, str]]:
    return [(line.name, line.count, line.section) for line in deck.lines]


def where(finding: Finding | dict[str, Any]) -> tuple[Any, ...]:
    data = finding if isinstance(finding, dict) else finding.to_json()
    return (data["rule"], data["sheet"], data["row"], data["column"])


@pytest.fixture
def toy_ruleset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(RULESETS, "toy", TOY)


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# Reading -------------------------------------------------------------------------------------------------------


def test_the_decks_sheet_holds_the_same_decks_as_the_decks_folder(tmp_path: Path) -> None:
    """The bundled souls decks typed into a `decks` sheet (lower case) read as the same decks, in sheet order."""
    folder_decks = bundled_decks("souls")
    path = write_workbook(tmp_path / "ashfall.xlsx", card_rows(SOULS_SET), deck_rows_of(folder_decks), "decks")
    cardset = load_cardset(path)
    found = set_decks(cardset)
    assert [deck.name for deck in found.decks] == [p.stem for p in folder_decks]
    for deck, deck_path in zip(found.decks, folder_decks, strict=True):
        from_text = read_decklist(deck_path, cardset)
        assert lines_of(deck) == lines_of(from_text) and deck.size() == 30
        assert deck.sheet == "decks" and deck.lines[0].line >= 2 and not deck.load_findings
    assert not found.findings and not found.notes


def test_bad_rows_are_findings_naming_the_sheet_row_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    decks: Rows = [
        ["Deck", "Count", "Name"],
        ["aggro", 4, "Cinder Whelp"],
        ["aggro", 2, "Cindr Whelp"],
        ["aggro", "two", "Cinder Whelp"],
        ["aggro", -1, "Cinder Whelp"],
        [None, 2, "Cinder Whelp"],
        ["aggro", 3, None],
    ]
    path = write_workbook(tmp_path / "set.xlsx", card_rows(SOULS_SET), decks)
    code, out, err = run(["validate", str(path), "--format", "json"], capsys)
    assert code == 1
    data = json.loads(out)
    errors = [f for f in data["findings"] if f["severity"] == "error"]
    assert sorted(where(f) for f in errors) == [
        ("souls.deck_line", "Decks", 4, "Count"),
        ("souls.deck_line", "Decks", 5, "Count"),
        ("souls.deck_line", "Decks", 6, "Deck"),
        ("souls.deck_line", "Decks", 7, "Name"),
        ("souls.unknown_card", "Decks", 3, "Name"),
    ]
    by_row = {f["row"]: f for f in errors}
    assert "Cinder Whelp" in by_row[3]["message"] and by_row[3]["expected"][0] == "Cinder Whelp"
    assert by_row[3]["deck"] == "aggro" and by_row[3]["card"] == "Cindr Whelp"
    assert (
        by_row[4]["message"] == "'two' is not a whole number of copies from 1 to 999." and by_row[4]["actual"] == "two"
    )
    assert by_row[5]["actual"] == -1
    assert by_row[6]["message"] == "this row has no deck name, so it belongs to no deck." and by_row[6]["deck"] is None
    assert by_row[7]["message"] == "this row has no card name."
    assert data["decks"] == [str(path)]  # the one deck, read from the workbook
    code, out, _ = run(["validate", str(path)], capsys)
    assert "Decks:3:Name: error [souls.unknown_card] deck 'aggro' card 'Cindr Whelp'" in out


@pytest.mark.parametrize("missing", ["deck", "count", "name"])
def test_a_missing_column_is_an_error_finding_and_no_row_is_read(
    missing: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    header = [h for h in ("deck", "count", "name") if h != missing]
    rows: Rows = [header, [{"deck": "aggro", "count": 4, "name": "Cinder Whelp"}[h] for h in header]]
    path = write_workbook(tmp_path / "set.xlsx", card_rows(SOULS_SET), rows)
    code, out, _ = run(["validate", str(path), "--format", "json"], capsys)
    assert code == 1
    (finding,) = json.loads(out)["findings"]
    assert where(finding) == ("souls.decks_sheet", "Decks", 1, missing)
    assert f"no '{missing}' column" in finding["message"] and "none of its 1 row(s)" in finding["message"]
    assert finding["expected"] == "the columns deck, count and name in row 1"
    code, _, err = run(["power-curve", str(path), "--matches-per-card", "10"], capsys)
    assert code == 2
    assert f"Decks:1:{missing}: error [souls.decks_sheet]" in err and "no --deck given, and the set has no decks" in err


@pytest.mark.parametrize("rows", [[], [["deck", "count", "name"]]], ids=["blank sheet", "headers only"])
def test_an_empty_decks_sheet_means_no_decks_and_is_fine(
    rows: Rows, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_workbook(tmp_path / "set.xlsx", card_rows(SOULS_SET), rows)
    cardset = load_cardset(path)
    sheet = read_decks_sheet(cardset.table, cardset.ruleset)
    assert sheet is not None and sheet.decks == [] and sheet.findings == []
    code, out, _ = run(["validate", str(path), "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["decks"] == []


@pytest.mark.parametrize(
    ("rows", "found", "message"),
    [
        (
            [["deck", "count", "name"], ["aggro", 4, "Cinder Whelp", "stray value"]],
            ("souls.decks_sheet", "Decks", 2, "D"),
            "the Decks sheet was not read: a value stands in a column with no header (D).",
        ),
        (
            [[None], [None], ["aggro", 4, "Cinder Whelp"]],
            ("souls.decks_sheet", "Decks", 1, None),
            "the Decks sheet was not read: row 1 is empty; the first row must hold the column headers.",
        ),
    ],
    ids=["value under no header", "no header row"],
)
def test_a_decks_sheet_that_is_not_a_table_is_a_finding_and_the_cards_still_read(
    rows: Rows, found: tuple[Any, ...], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_workbook(tmp_path / "set.xlsx", card_rows(SOULS_SET), rows)
    code, out, _ = run(["validate", str(path), "--format", "json"], capsys)
    data = json.loads(out)
    assert code == 1 and data["cards"] == len(card_rows(SOULS_SET)) - 1
    (finding,) = data["findings"]
    assert where(finding) == found and finding["message"] == message


def test_a_deck_split_by_another_decks_rows_is_read_whole_with_a_warning(tmp_path: Path) -> None:
    rows: Rows = [
        ["deck", "count", "name"],
        ["aggro", 4, "Cinder Whelp"],
        ["wall", 2, "Tower Shield"],
        ["Aggro ", 1, "Cinder Whelp"],
    ]
    cardset = load_cardset(write_workbook(tmp_path / "set.xlsx", card_rows(SOULS_SET), rows))
    found = set_decks(cardset)
    assert [(deck.name, deck.size()) for deck in found.decks] == [("aggro", 5), ("wall", 2)]
    (warning,) = found.findings
    assert (warning.severity, *where(warning)) == ("warning", "souls.decks_sheet", "Decks", 4, "deck")
    assert "starts at row 2" in warning.message


def test_sections_and_two_collections_read_as_the_text_decklist_does(tmp_path: Path) -> None:
    """Blades' umbral_control has two `Collection:` blocks; in a Decks sheet they are `Collection` and `Collection
    2`."""
    deck_path = next(p for p in bundled_decks("blades") if p.stem == "umbral_control")
    rows = deck_rows_of([deck_path])
    assert {row[3] for row in rows[1:]} == {"Main", "Collection", "Collection 2"}
    blades_set = bundled_sets("blades")[0]
    cardset = load_cardset(write_workbook(tmp_path / "blades.xlsx", card_rows(blades_set), rows), "blades")
    (deck,) = set_decks(cardset).decks
    from_text = read_decklist(deck_path, cardset)
    assert lines_of(deck) == lines_of(from_text)
    assert [[line.name for line in block] for block in collections_of(deck)] == [
        [line.name for line in block] for block in collections_of(from_text)
    ]
    assert len(collections_of(deck)) == 2
    ruleset = cardset.ruleset
    options = ruleset.resolve_options({})
    sheet_findings = [(f.rule, f.message) for f in ruleset.check_deck(cardset, deck, options)]
    text_findings = [(f.rule, f.message) for f in ruleset.check_deck(cardset, from_text, options)]
    assert sheet_findings == text_findings


def test_an_unknown_section_is_a_finding_on_its_cell(tmp_path: Path) -> None:
    rows: Rows = [["deck", "count", "name", "section"], ["rush", 4, "Cinder Whelp", "Sideboard"]]
    source_set = bundled_sets("source")[0]
    cardset = load_cardset(write_workbook(tmp_path / "source.xlsx", card_rows(source_set), rows), "source")
    (deck,) = set_decks(cardset).decks
    (finding,) = deck.load_findings
    assert where(finding) == ("source.deck_line", "Decks", 2, "section")
    assert (
        finding.message == "'Sideboard' is not a deck section of this game."
        and finding.expected == "one of: Main, Tokens"
    )


# The command line ------------------------------------------------------------------------------------------------


def toy_workbook(tmp_path: Path, decks: Rows = TOY_DECKS) -> Path:
    return write_workbook(
        tmp_path / "toy.xlsx", card_rows(TOY_CARDS), decks, Set=[["key", "value"], ["ruleset", "toy"]]
    )


def test_simulate_and_validate_take_a_deck_of_the_workbook_by_name(
    toy_ruleset: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(toy_workbook(tmp_path))
    code, out, _ = run(
        ["simulate", path, "--deck", "Reference", "--deck", "other", "--matches", "300", "--format", "json"], capsys
    )
    assert code == 0
    summary = json.loads(out)
    assert (summary["deck_a"], summary["deck_b"], summary["matches"]) == ("reference", "other", 300)
    code, out, _ = run(["validate", path, "--deck", "other", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["decks"] == [path]
    code, _, err = run(["simulate", path, "--deck", "refrence"], capsys)
    assert code == 2
    assert "refrence: the decklist file does not exist, and there is no deck of that name in the Decks sheet of" in err
    assert "Did you mean 'reference'?" in err and "one of the set's decks: reference, other" in err


def test_a_deck_argument_that_is_a_file_stays_a_file(
    toy_ruleset: None, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(toy_workbook(tmp_path))
    (tmp_path / "other").write_text("12 Big\n", encoding="utf-8")  # a file named like the workbook's deck
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(["validate", path, "--deck", "other", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["decks"] == ["other"]
    deck = read_decklist(tmp_path / "other", load_cardset(path))
    assert lines_of(deck) == [("Big", 12, "main")]


def test_commands_without_a_deck_use_the_workbook_first_then_the_decks_folder(
    toy_ruleset: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(toy_workbook(tmp_path))
    folder = decks_folder_beside(path)
    folder.mkdir()
    (folder / "other.txt").write_text("12 Big\n", encoding="utf-8")  # same name as a workbook deck: passed over
    (folder / "bargains.txt").write_text("6 Filler\n6 Bargain\n", encoding="utf-8")
    code, out, err = run(["power-curve", path, "--matches-per-card", "200", "--seed", "3", "--format", "json"], capsys)
    assert code == 0
    curve = json.loads(out)
    assert curve["reference_deck"] == "reference"
    assert [name for name in curve["gauntlet"] if name != "reference"] == ["other", "bargains"]
    assert f"note: {folder / 'other.txt'} was not read: the Decks sheet of {path} has a deck named 'other'" in err
    found = set_decks(load_cardset(path), folder)
    assert [deck.name for deck in found.decks] == ["reference", "other", "bargains"]
    assert lines_of(found.decks[1]) == [("Filler", 4, "main"), ("Cheap", 4, "main"), ("Dud", 4, "main")]
    # validate checks the file's own decks: the Decks sheet's, not the folder beside it.
    code, out, _ = run(["validate", path, "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["decks"] == [path, path]


def test_lines_left_out_of_a_simulation_are_said_on_stderr(
    toy_ruleset: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    decks = [*TOY_DECKS, ["other", 2, "Bigg"]]
    path = str(toy_workbook(tmp_path, decks))
    code, _, err = run(["simulate", path, "--deck", "other", "--matches", "100"], capsys)
    assert code == 0
    assert "note: 1 decklist line(s) could not be read and are left out:" in err
    assert "Decks:9:name: error [toy.unknown_card] deck 'other' card 'Bigg'" in err


# Writing ---------------------------------------------------------------------------------------------------------


def test_saving_writes_the_decks_sheet_in_place_and_keeps_every_other_sheet_column_and_row(tmp_path: Path) -> None:
    decks = [
        ["Deck", "Count", "Name", "Notes"],
        ["aggro", 4, "Cinder Whelp", "keep me"],
        [None, 1, "Tower Shield", "a row of no deck"],
    ]
    path = write_workbook(tmp_path / "set.xlsx", card_rows(SOULS_SET), None, Designer=[["idea"], ["more fire"]])
    workbook = openpyxl.load_workbook(path)
    deck_sheet = workbook.create_sheet("decks", 1)  # between Cards and Designer, spelled in lower case
    for row in decks:
        deck_sheet.append(row)
    workbook.save(path)
    workspace = open_cardset(path.read_bytes(), path.name)
    assert list(workspace.decks) == ["aggro"] and workspace.decks["aggro"].origin == "workbook"
    add_deck(workspace, DeckSource('=HYPERLINK("x")', "pasted", text="2 =SUM(A1)\n3 Tower Shield\n0 Cinder Whelp\n"))
    saved = openpyxl.load_workbook(io.BytesIO(workspace_xlsx_bytes(workspace)))
    assert saved.sheetnames == ["Cards", "decks", "Designer", "Set"]  # a Set sheet naming the game is added
    assert [[c.value for c in row] for row in saved["Designer"].iter_rows()] == [["idea"], ["more fire"]]
    rows = [[cell.value for cell in row] for row in saved["decks"].iter_rows()]
    assert rows == [
        ["Deck", "Count", "Name", "Notes"],
        ["aggro", 4, "Cinder Whelp", "keep me"],
        ['=HYPERLINK("x")', 2, "=SUM(A1)", None],
        ['=HYPERLINK("x")', 3, "Tower Shield", None],
        ['=HYPERLINK("x")', 0, "Cinder Whelp", None],
        [None, 1, "Tower Shield", "a row of no deck"],
    ]
    # Names that look like formulas are text cells, never formulas.
    assert {saved["decks"].cell(row=3, column=1).data_type, saved["decks"].cell(row=3, column=3).data_type} == {"s"}
    reopened = open_cardset(workspace_xlsx_bytes(workspace), "set.xlsx")
    assert list(reopened.decks) == ["aggro", '=HYPERLINK("x")']
    cardset = load_cardset("set.xlsx", data=workspace_xlsx_bytes(workspace))
    pasted = parse_deck(reopened.decks['=HYPERLINK("x")'], cardset)
    assert [(f.rule, f.row, f.column) for f in pasted.load_findings] == [
        ("souls.unknown_card", 3, "Name"),
        ("souls.deck_line", 5, "Count"),
    ]


def test_an_unreadable_decks_sheet_is_kept_renamed_when_the_session_saves(tmp_path: Path) -> None:
    rows: Rows = [["deck", "count", "name"], ["aggro", 4, "Cinder Whelp", "stray value"]]
    path = write_workbook(tmp_path / "set.xlsx", card_rows(SOULS_SET), rows)
    workspace = open_cardset(path.read_bytes(), path.name)
    assert workspace.decks == {} and workspace.decks_sheet is not None and not workspace.decks_sheet.readable
    add_deck(workspace, DeckSource("wall", "pasted", text="3 Tower Shield\n"))
    saved = openpyxl.load_workbook(io.BytesIO(workspace_xlsx_bytes(workspace)))
    assert saved.sheetnames == ["Cards", "Decks (as uploaded)", "Decks", "Set"]
    assert [c.value for c in saved["Decks (as uploaded)"][2]] == ["aggro", 4, "Cinder Whelp", "stray value"]
    assert [[c.value for c in row] for row in saved["Decks"].iter_rows()] == [
        ["deck", "count", "name"],
        ["wall", 3, "Tower Shield"],
    ]


def test_a_csv_set_without_decks_saves_without_a_decks_sheet() -> None:
    table = read_sheet(SOULS_SET)
    sheet = sheet_from_table(table)
    saved = openpyxl.load_workbook(io.BytesIO(to_xlsx_bytes(sheet, "souls", SOULS_SET.read_bytes(), "ashfall")))
    assert saved.sheetnames == ["Cards", "Set"]
    ruleset = get_ruleset("souls")
    content = decks_sheet_content([], ruleset)
    emptied = openpyxl.load_workbook(io.BytesIO(to_xlsx_bytes(sheet, "souls", None, "ashfall", decks=content)))
    assert emptied.sheetnames == ["Cards", "Set", "Decks"]
    assert [[c.value for c in row] for row in emptied["Decks"].iter_rows()] == [["deck", "count", "name"]]


@pytest.mark.parametrize(
    "set_path", [bundled_sets(r)[0] for r in ("souls", "blades", "source", "circles", "plasma")], ids=str
)
def test_every_bundled_set_saves_and_reopens_with_its_decks(set_path: Path) -> None:
    """Open a bundled set (csv + decks/ folder), save as xlsx, open the saved file: same cards, same decks, same
    findings."""
    opened = open_bundled(set_path)
    data = workspace_xlsx_bytes(opened)
    reopened = open_cardset(data, f"{set_path.stem}.xlsx")
    assert reopened.ruleset_id == opened.ruleset_id and len(reopened.sheet.frame) == len(opened.sheet.frame)
    assert list(reopened.decks) == list(opened.decks) == [p.stem for p in bundled_decks(opened.ruleset_id)]
    assert {source.origin for source in reopened.decks.values()} == {"workbook"}
    before = load_cardset(set_path, opened.ruleset_id)
    after = load_cardset(f"{set_path.stem}.xlsx", data=data)
    assert after.names == before.names
    ruleset = before.ruleset
    options = ruleset.resolve_options({})
    for name in opened.decks:
        deck_before = parse_deck(opened.decks[name], before)
        deck_after = parse_deck(reopened.decks[name], after)
        assert lines_of(deck_after) == lines_of(deck_before) and not deck_after.load_findings
        assert [(f.rule, f.message) for f in ruleset.check_deck(after, deck_after, options)] == [
            (f.rule, f.message) for f in ruleset.check_deck(before, deck_before, options)
        ]
    # Saving the reopened workbook again changes nothing in its Decks sheet.
    again = openpyxl.load_workbook(io.BytesIO(workspace_xlsx_bytes(reopened)))["Decks"]
    first = openpyxl.load_workbook(io.BytesIO(data))["Decks"]
    assert [[c.value for c in row] for row in again.iter_rows()] == [
        [c.value for c in row] for row in first.iter_rows()
    ]


def test_a_workbook_deck_edited_as_text_is_saved_from_its_text(tmp_path: Path) -> None:
    rows: Rows = [["deck", "count", "name"], ["aggro", 4, "Cinder Whelp"], ["aggro", 2, "Tower Shield"]]
    workspace = open_cardset(write_workbook(tmp_path / "set.xlsx", card_rows(SOULS_SET), rows).read_bytes(), "set.xlsx")
    source = workspace.decks["aggro"]
    source.text, source.sheet_deck = "3 Cinder Whelp\n", None  # what the Decks page's "Save decklist changes" does
    saved = openpyxl.load_workbook(io.BytesIO(workspace_xlsx_bytes(workspace)))["Decks"]
    assert [[c.value for c in row] for row in saved.iter_rows()] == [
        ["deck", "count", "name"],
        ["aggro", 3, "Cinder Whelp"],
    ]


def test_the_template_has_an_empty_decks_sheet_with_explained_headers(tmp_path: Path) -> None:
    for ruleset_id, headers in (("souls", ["deck", "count", "name"]), ("source", ["deck", "count", "name", "section"])):
        path = write_template(get_ruleset(ruleset_id), tmp_path / f"{ruleset_id}.xlsx")
        sheet = openpyxl.load_workbook(path)["Decks"]
        assert [cell.value for cell in sheet[1]] == headers and sheet.max_row == 1
        assert all(cell.comment is not None and cell.comment.text for cell in sheet[1])
        table = read_sheet(path)
        decks_sheet = read_decks_sheet(table, get_ruleset(ruleset_id))
        assert decks_sheet is not None and decks_sheet.decks == [] and decks_sheet.findings == []
    assert "Tokens" in openpyxl.load_workbook(tmp_path / "source.xlsx")["Decks"]["D1"].comment.text


def test_the_set_decks_of_a_csv_set_are_its_decks_folder() -> None:
    cardset: CardSet = load_cardset(SOULS_SET)
    found = set_decks(cardset, decks_folder_beside(SOULS_SET))
    assert [deck.name for deck in found.decks] == [p.stem for p in bundled_decks("souls")]


def test_report_and_sweep_without_a_deck_use_the_workbooks_decks(
    toy_ruleset: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(toy_workbook(tmp_path))
    out_path = tmp_path / "report.xlsx"
    code, _, _ = run(["report", path, "--out", str(out_path), "--matches-per-card", "100", "--matches", "100"], capsys)
    assert code == 0
    book = openpyxl.load_workbook(out_path)
    matchups = [[cell.value for cell in row] for row in book["Matchups"].iter_rows()]
    header = [str(value) for value in matchups[0]]
    deck_column, opponent_column = header.index("deck"), header.index("opponent")
    assert {(row[deck_column], row[opponent_column]) for row in matchups[1:]} == {
        ("reference", "reference"),
        ("reference", "other"),
        ("other", "reference"),
        ("other", "other"),
    }
    code, out, _ = run(
        [
            "sweep",
            path,
            "--card",
            "Big",
            "--field",
            "strength",
            "--values",
            "1..2",
            "--matches-per-card",
            "100",
            "--format",
            "json",
        ],
        capsys,
    )
    assert code == 0 and json.loads(out)["reference_deck"] == "reference"


def test_a_bundled_workbook_opens_with_its_decks_sheet_first_then_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bundled xlsx with a Decks sheet: its decks, then the decks/ folder's, and a folder deck of the same name is
    passed over with a note (the app's rule is the command line's)."""
    import workbench.app.workspace as workspace_module

    folder_decks = bundled_decks("souls")
    rows: Rows = [["deck", "count", "name"], ["Ember_Rush", 3, "Cinder Whelp"]]
    folder = tmp_path / "souls"
    folder.mkdir()
    path = write_workbook(folder / "ashfall.xlsx", card_rows(SOULS_SET), rows)
    monkeypatch.setattr(workspace_module, "bundled_decks", lambda ruleset_id: folder_decks)
    opened = open_bundled(path)
    assert list(opened.decks) == ["Ember_Rush", "plague_court", "stone_bastion"]
    assert [source.origin for source in opened.decks.values()] == ["workbook", "bundled", "bundled"]
    (note,) = opened.deck_notes
    assert note.startswith(
        "ember_rush.txt was not added: the Decks sheet of ashfall.xlsx has a deck named 'Ember_Rush'"
    )


def test_an_entity_bomb_in_the_decks_sheet_refuses_the_workbook(tmp_path: Path) -> None:
    """The Decks sheet's XML goes through the same refusing parser as the card sheet's: no expansion, one message."""
    import zipfile

    from workbench.cards import WorkbenchInputError

    path = write_workbook(tmp_path / "set.xlsx", card_rows(SOULS_SET), [["deck", "count", "name"]])
    laughs = "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' if i else '<!ENTITY lol0 "lol">' for i in range(10))
    bomb = (
        f'<?xml version="1.0"?><!DOCTYPE worksheet [{laughs}]>'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
        '<row r="1"><c r="A1" t="inlineStr"><is><t>&lol9;</t></is></c></row></sheetData></worksheet>'
    )
    source = zipfile.ZipFile(path)
    assert "xl/worksheets/sheet2.xml" in source.namelist()  # the Decks sheet, second in the workbook
    hostile = tmp_path / "hostile.xlsx"
    with zipfile.ZipFile(hostile, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            content = bomb.encode() if info.filename == "xl/worksheets/sheet2.xml" else source.read(info.filename)
            target.writestr(info.filename, content)
    with pytest.raises(WorkbenchInputError, match="entity") as refused:
        load_cardset(hostile)
    assert f"file {hostile}" in str(refused.value)
