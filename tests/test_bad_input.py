"""Every kind of bad input the issue names gets a clear message (or a finding) naming file, sheet, row and column."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Sequence
from pathlib import Path

import openpyxl
import pytest

from workbench.cards import CardSet, WorkbenchInputError
from workbench.cli import main
from workbench.decklists import parse_decklist, read_decklist
from workbench.loading import load_cardset
from workbench.rulesets.souls import RULESET as SOULS
from workbench.spreadsheets import MAX_ZIP_ENTRIES

HEADERS = ["name", "kind", "soul_cost", "atk", "def", "abilities"]
GOOD_ROWS = [["Ember Imp", "monster", 0, 2, 3, "Atk"], ["Tide Golem", "monster", 1, 3, 5, "Atk"]]


def write_xlsx(path: Path, rows: Sequence[Sequence[object]], sheet: str = "Cards") -> Path:
    workbook = openpyxl.Workbook()
    worksheet = workbook.active
    worksheet.title = sheet
    for row in rows:
        worksheet.append(row)
    workbook.save(path)
    return path


def replace_zip_entry(path: Path, entry: str, content: bytes) -> None:
    """Rewrite one part of an xlsx, keeping the others."""
    source = zipfile.ZipFile(io.BytesIO(path.read_bytes()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            target.writestr(info.filename, content if info.filename == entry else source.read(info.filename))
    path.write_bytes(out.getvalue())


def input_error(path: Path) -> WorkbenchInputError:
    with pytest.raises(WorkbenchInputError) as caught:
        load_cardset(path, SOULS)
    return caught.value


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    error = input_error(tmp_path / "nowhere.xlsx")
    assert "nowhere.xlsx" in str(error) and "does not exist" in str(error)


def test_a_folder_is_not_a_sheet(tmp_path: Path) -> None:
    assert "folder" in str(input_error(tmp_path))


@pytest.mark.parametrize(
    ("filename", "content", "words"),
    [
        ("cards.xlsx", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "not an Excel workbook"),
        ("cards.pdf", b"%PDF-1.4 hello", "not a card-sheet format"),
        ("cards.csv", b"\x00\x01\x02binary", "binary data"),
        ("cards.xlsx", b"", "empty (0 bytes)"),
    ],
)
def test_file_that_is_not_a_spreadsheet(tmp_path: Path, filename: str, content: bytes, words: str) -> None:
    path = tmp_path / filename
    path.write_bytes(content)
    error = input_error(path)
    assert words in str(error)
    assert filename in str(error)


def test_password_protected_workbook(tmp_path: Path) -> None:
    # Encrypted xlsx files are OLE compound documents, not zips.
    path = tmp_path / "locked.xlsx"
    path.write_bytes(bytes.fromhex("d0cf11e0a1b11ae1") + b"\x00" * 512)
    error = input_error(path)
    assert "password-protected" in str(error) and "without a password" in str(error)


def test_corrupt_workbook(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "broken.xlsx", [HEADERS, *GOOD_ROWS])
    path.write_bytes(path.read_bytes()[:300])
    assert "corrupt" in str(input_error(path))


def test_zip_that_is_not_a_workbook(tmp_path: Path) -> None:
    path = tmp_path / "archive.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("readme.txt", "hello")
    assert "xl/workbook.xml" in str(input_error(path))


def test_empty_sheet(tmp_path: Path) -> None:
    error = input_error(write_xlsx(tmp_path / "empty.xlsx", []))
    assert "sheet 'Cards'" in str(error) and "empty" in str(error)


@pytest.mark.parametrize("suffix", ["xlsx", "csv"])
def test_a_card_sheet_with_a_header_and_no_rows_is_an_error_finding(
    tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if suffix == "xlsx":
        path = write_xlsx(tmp_path / "headers_only.xlsx", [HEADERS])
    else:
        path = tmp_path / "headers_only.csv"
        path.write_text(",".join(HEADERS) + "\n", encoding="utf-8")
    assert main(["validate", str(path), "--ruleset", "souls", "--format", "json"]) == 1
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert [(f["rule"], f["severity"], f["row"]) for f in findings] == [("souls.no_cards", "error", 2)]
    sheet = "Cards" if suffix == "xlsx" else path.name
    assert findings[0]["sheet"] == sheet
    assert findings[0]["message"].startswith(f"the {sheet} sheet has no card rows")


def test_header_row_blank(tmp_path: Path) -> None:
    error = input_error(write_xlsx(tmp_path / "blank.xlsx", [[None, None], HEADERS, *GOOD_ROWS]))
    assert error.row == 1 and "row 1 is empty" in str(error)


def test_missing_required_column(tmp_path: Path) -> None:
    error = input_error(write_xlsx(tmp_path / "noname.xlsx", [HEADERS[1:], *[r[1:] for r in GOOD_ROWS]]))
    assert error.column == "name"
    assert "sheet 'Cards'" in str(error) and "row 1" in str(error)
    assert "workbench template souls" in str(error)


def test_value_outside_any_header(tmp_path: Path) -> None:
    rows: list[Sequence[object]] = [HEADERS, GOOD_ROWS[0] + [None, "stray"]]
    error = input_error(write_xlsx(tmp_path / "stray.xlsx", rows))
    assert (error.row, error.column) == (2, "H")


@pytest.mark.parametrize(
    ("cell", "words"),
    [("three", "'three' is not a whole number"), (2.5, "2.5 is not a whole number"), (-1, "below the smallest")],
)
def test_bad_number_cell_is_a_finding_at_its_cell(tmp_path: Path, cell: object, words: str) -> None:
    rows: list[Sequence[object]] = [HEADERS, GOOD_ROWS[0], ["Bog Witch", "monster", 1, cell, 5, "Atk"]]
    cardset = load_cardset(write_xlsx(tmp_path / "cells.xlsx", rows), SOULS)
    (finding,) = cardset.load_findings
    assert (finding.rule, finding.sheet, finding.row, finding.column) == ("souls.cell_value", "Cards", 3, "atk")
    assert words in finding.message
    assert finding.card == "Bog Witch"
    assert cardset.names == ["Ember Imp"]
    assert cardset.rows_read == 2


def test_duplicate_name_points_at_the_second_row(tmp_path: Path) -> None:
    rows: list[Sequence[object]] = [HEADERS, GOOD_ROWS[0], GOOD_ROWS[1], ["ember  IMP", "monster", 0, 1, 1, "Atk"]]
    cardset = load_cardset(write_xlsx(tmp_path / "dupes.xlsx", rows), SOULS)
    (finding,) = cardset.load_findings
    assert (finding.rule, finding.row, finding.column) == ("souls.duplicate_name", 4, "name")
    assert "row 2" in finding.message


def test_formula_cell_is_reported_not_read_as_empty(tmp_path: Path) -> None:
    rows: list[Sequence[object]] = [HEADERS, GOOD_ROWS[0], ["Bog Witch", "monster", 1, "=2+3", 5, "Atk"]]
    cardset = load_cardset(write_xlsx(tmp_path / "formula.xlsx", rows), SOULS)
    (finding,) = cardset.load_findings
    assert (finding.rule, finding.row, finding.column) == ("souls.formula_cell", 3, "atk")
    assert finding.actual == "=2+3"
    assert "Paste Special" in str(finding.expected)


def test_zip_bomb_is_refused_before_parsing(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "bomb.xlsx", [HEADERS, *GOOD_ROWS])
    replace_zip_entry(path, "xl/worksheets/sheet1.xml", b"<" + b" " * 40_000_000 + b"/>")
    assert path.stat().st_size < 200_000
    error = input_error(path)
    assert "zip bomb" in str(error) and "bomb.xlsx" in str(error)


def test_too_many_zip_entries(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "many.xlsx", [HEADERS, *GOOD_ROWS])
    with zipfile.ZipFile(path, "a") as archive:
        for index in range(MAX_ZIP_ENTRIES + 1):
            archive.writestr(f"junk/{index}.xml", "")
    assert "zip entries" in str(input_error(path))


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>
<row r="1"><c r="A1" t="inlineStr"><is><t>&lol3;</t></is></c></row></sheetData></worksheet>"""


def test_xml_entity_bomb_is_refused(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "laughs.xlsx", [HEADERS, *GOOD_ROWS])
    replace_zip_entry(path, "xl/worksheets/sheet1.xml", BILLION_LAUGHS)
    error = input_error(path)
    assert "entity" in str(error) and "laughs.xlsx" in str(error)


def test_csv_in_windows_1252_is_read_with_a_note(tmp_path: Path) -> None:
    path = tmp_path / "accents.csv"
    path.write_bytes("name,kind,soul_cost,atk,def\nCafé Golem,monster,0,2,3\n".encode("cp1252"))
    cardset = load_cardset(path, SOULS)
    assert cardset.names == ["Café Golem"]
    (note,) = cardset.load_findings
    assert note.severity == "info" and "Windows-1252" in note.message


def test_csv_with_semicolons_and_utf8_bom(tmp_path: Path) -> None:
    path = tmp_path / "semi.csv"
    path.write_bytes("\ufeffName;Kind;Soul Cost;Atk;Def\nEmber Imp;monster;0;2;3\n".encode())
    assert load_cardset(path, SOULS).names == ["Ember Imp"]


def test_unknown_columns_are_kept(tmp_path: Path) -> None:
    rows: list[Sequence[object]] = [HEADERS + ["Artist"], GOOD_ROWS[0] + ["Ada"]]
    cardset = load_cardset(write_xlsx(tmp_path / "extra.xlsx", rows), SOULS)
    assert cardset.table.headers[-1] == "Artist"
    assert cardset.table.rows[0][1][-1] == "Ada"


def test_headers_match_ignoring_case_spaces_and_punctuation(tmp_path: Path) -> None:
    rows: list[Sequence[object]] = [["Name", "KIND", "Soul-Cost", " ATK ", "Def."], ["Ember Imp", "Monster", 0, 2, 3]]
    cardset = load_cardset(write_xlsx(tmp_path / "headers.xlsx", rows), SOULS)
    assert cardset.names == ["Ember Imp"] and cardset.load_findings == []
    assert cardset.headers["soul_cost"] == "Soul-Cost"


def test_sheet_named_cards_in_any_case_wins_over_the_first_sheet(tmp_path: Path) -> None:
    workbook = openpyxl.Workbook()
    workbook.active.title = "Notes"
    workbook.active.append(["nothing to see"])
    cards = workbook.create_sheet("CARDS")
    for row in [HEADERS, *GOOD_ROWS]:
        cards.append(row)
    workbook.save(tmp_path / "two.xlsx")
    cardset = load_cardset(tmp_path / "two.xlsx", SOULS)
    assert cardset.sheet == "CARDS" and len(cardset) == 2


def test_oversized_upload_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("workbench.spreadsheets.MAX_FILE_BYTES", 100)
    path = write_xlsx(tmp_path / "big.xlsx", [HEADERS, *GOOD_ROWS])
    assert "limit" in str(input_error(path))


def test_too_many_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("workbench.spreadsheets.MAX_ROWS", 1)
    error = input_error(write_xlsx(tmp_path / "rows.xlsx", [HEADERS, *GOOD_ROWS]))
    assert error.row == 3 and "more than 1 card rows" in str(error)


# Decklists -------------------------------------------------------------------------------------------


@pytest.fixture
def souls_cards(tmp_path: Path) -> CardSet:
    return load_cardset(
        write_xlsx(tmp_path / "set.xlsx", [HEADERS, *GOOD_ROWS, ["3 Wishes", "monster", 0, 1, 1, ""]]), SOULS
    )


@pytest.mark.parametrize(
    ("line", "count", "name"),
    [
        ("2 Ember Imp", 2, "Ember Imp"),
        ("3x tide golem", 3, "Tide Golem"),
        ("Ember Imp", 1, "Ember Imp"),
        ("Ember Imp x4", 4, "Ember Imp"),
        ("3 Wishes", 1, "3 Wishes"),
        ("2 3 Wishes", 2, "3 Wishes"),
    ],
)
def test_decklist_line_forms(souls_cards: CardSet, line: str, count: int, name: str) -> None:
    deck = parse_decklist(f"# comment\n// another\n\n{line}\n", souls_cards)
    assert deck.load_findings == []
    (parsed,) = deck.lines
    assert parsed.count == count and parsed.entry is not None and parsed.entry.card.name == name


def test_unknown_card_suggests_the_closest_names(souls_cards: CardSet) -> None:
    deck = parse_decklist("2 Ember Imp\n1 Tide Golm\n", souls_cards, name="aggro")
    (finding,) = deck.load_findings
    assert (finding.rule, finding.deck, finding.row) == ("souls.unknown_card", "aggro", 2)
    assert "Did you mean 'Tide Golem'" in finding.message


@pytest.mark.parametrize("line", ["0 Ember Imp", "-2 Ember Imp", "12", "1000 Ember Imp"])
def test_unparsable_decklist_lines_name_their_line(souls_cards: CardSet, line: str) -> None:
    deck = parse_decklist(f"2 Ember Imp\n{line}\n", souls_cards)
    (finding,) = deck.load_findings
    assert (finding.rule, finding.row, finding.actual) == ("souls.deck_line", 2, line)


def test_unknown_section_header(souls_cards: CardSet) -> None:
    (finding,) = parse_decklist("Sideboard:\n1 Ember Imp\n", souls_cards).load_findings
    assert finding.rule == "souls.deck_line" and "Main:" in str(finding.expected)


def test_sheet_decklist_with_bad_count(souls_cards: CardSet, tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "deck.xlsx", [["Name", "Count"], ["Ember Imp", 2], ["Tide Golem", "two"]], "Deck")
    deck = read_decklist(path, souls_cards)
    (finding,) = deck.load_findings
    assert (finding.sheet, finding.row, finding.column) == ("Deck", 3, "Count")
    assert deck.size() == 2


def test_missing_decklist_file(souls_cards: CardSet, tmp_path: Path) -> None:
    with pytest.raises(WorkbenchInputError, match="does not exist"):
        read_decklist(tmp_path / "nope.txt", souls_cards)


# The command line turns all of it into exit codes and one paragraph, never a traceback --------------


def test_cli_unreadable_input_exits_2_with_one_paragraph(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fake.xlsx"
    path.write_text("hello")
    assert main(["validate", str(path), "--ruleset", "souls"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "fake.xlsx" in err and err.count("\n") == 1


def test_cli_bad_cells_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_xlsx(tmp_path / "cells.xlsx", [HEADERS, ["Ember Imp", "monster", 0, "two", 3, "Atk"]])
    assert main(["validate", str(path), "--ruleset", "souls"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("Cards:2:atk: error [souls.cell_value] card 'Ember Imp' 'two' is not a whole number.")


def test_deck_naming_an_unreadable_row_says_why(tmp_path: Path) -> None:
    rows: list[Sequence[object]] = [HEADERS, GOOD_ROWS[0], ["Tide Golem", "monster", 1, "lots", 5, "Atk"]]
    cardset = load_cardset(write_xlsx(tmp_path / "set.xlsx", rows), SOULS)
    (finding,) = parse_decklist("2 tide golem\n", cardset).load_findings
    assert finding.rule == "souls.unknown_card" and "row (3) could not be read" in finding.message
