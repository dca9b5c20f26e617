"""Issue 37, the structure of a file: every part of a workbook (and every other input) read in bounded time and
memory, whatever shape it has; and the deck limits of a run.

Each case builds its file in `tmp_path` (structure_inputs.py) at two sizes, 1x and 10x the same structure, reads it
in this process under tracemalloc, and checks the refusal (message or exit code through `workbench.cli.main`) and
that the cost did not grow with the structure: the 10x file costs about what the 1x file costs. Before the fixes each
grew linearly or worse (the issue's figures, and the commit note's measurements with measure_structure.py).

Run with `-s` to see each case's figures.
"""

from __future__ import annotations

import io
import time
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hardening import hostile_inputs as h
from hardening import structure_inputs as s

from workbench.cards import WorkbenchInputError
from workbench.cli import EXIT_UNREADABLE, main
from workbench.limits import LIMITS, check_deck_pairs, check_decks
from workbench.spreadsheets import read_sheet
from workbench.xlsx_rows import Workbook

SOURCE_SET = str(h.REPO / "cardsets/source/valley_of_deadlife.csv")
SOURCE_DECK = str(h.REPO / "cardsets/source/decks/ember_rush.txt")
SECONDS = 5.0
"""A generous bound for one refusal on a busy two-core machine (they take tens of milliseconds)."""
MIB = 16.0
"""A generous bound for the memory one refusal allocates (tracemalloc's peak)."""


def refusal(path: Path) -> s.Cost:
    """Read `path` as a card sheet, measured; the read must be refused."""
    cost = s.measured(lambda: read_sheet(path))
    assert isinstance(cost.result, WorkbenchInputError), cost.result
    return cost


def bounded(label: str, build: Callable[[Path, int], Path], small: int, tmp_path: Path) -> tuple[s.Cost, s.Cost]:
    """Refuse the structure built at `small` and at 10 x `small`; both within the bounds, and the larger no dearer
    than a little more than the smaller (what grows with the structure is the file, not the work)."""
    one = refusal(build(tmp_path / f"{label}_1x.xlsx", small))
    larger = build(tmp_path / f"{label}_10x.xlsx", small * 10)
    ten = refusal(larger)
    print(
        f"\nSTRUCTURE {label}: 1x ({small:,}) {one.seconds:.3f} s, {one.peak_mib:.2f} MiB; 10x {ten.seconds:.3f} s, "
        f"{ten.peak_mib:.2f} MiB: {str(ten.result)[:160]}"
    )
    for cost in (one, ten):
        assert cost.seconds < SECONDS and cost.peak_mib < MIB, cost
    # The file itself is read whole (the `file_bytes` limit bounds that): only what parsing costs must not grow.
    assert ten.peak_mib < 2 * one.peak_mib + larger.stat().st_size / 2**20 + 1, (one, ten)
    assert ten.seconds < 3 * one.seconds + 0.5, (one, ten)
    assert str(one.result) == str(ten.result).replace("_10x.xlsx", "_1x.xlsx")
    return one, ten


def cli(capsys: pytest.CaptureFixture[str], *argv: str, memory: bool = True) -> tuple[int, str, s.Cost]:
    """`workbench ARGV` through `workbench.cli.main`, measured: (exit code, stderr, cost)."""
    cost = s.measured(lambda: main(list(argv)), memory)
    assert isinstance(cost.result, int), cost.result
    return cost.result, capsys.readouterr().err, cost


# Styles ------------------------------------------------------------------------------------------------------


def test_millions_of_cell_formats_are_refused_at_the_styles_limit_in_bounded_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: 3M cellXfs took 79 s and 2.1 GB (the tree kept, `is_date_format` per style, one giant pattern)."""
    monkeypatch.setattr("workbench.xlsx_rows.MAX_STYLE_ELEMENTS", 2_000)
    one, _ = bounded("cell_formats", s.many_cell_formats, 20_000, tmp_path)
    assert "the workbook's styles (xl/styles.xml) hold more than 2,000 elements" in str(one.result)


def test_a_styles_part_over_the_real_limit_is_exit_2_naming_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = s.many_cell_formats(tmp_path / "formats.xlsx", LIMITS["styles"].value + 10)
    code, err, cost = cli(capsys, "validate", str(path), "--ruleset", "souls")
    print(f"\nSTRUCTURE styles over the limit: exit {code} in {cost.seconds:.2f} s, {cost.peak_mib:.1f} MiB: {err}")
    assert code == 2 and "Traceback" not in err
    assert "xl/styles.xml" in err and "limit of 200,000 elements" in err and str(path) in err
    assert cost.seconds < 10 and cost.peak_mib < 64


def test_many_date_styles_are_still_found_without_one_pattern_of_every_index(tmp_path: Path) -> None:
    """Past a few dozen date styles the scan checks each style number against the set: a cell in the 300th date
    style is still a date (read by the streaming reader, as text), not a number."""
    num_fmts = '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/></numFmts>'
    xfs = '<xf numFmtId="0"/>' + '<xf numFmtId="164"/>' * 400
    sheet = h.worksheet(
        h.inline_rows([h.SOULS_HEADERS, h.SOULS_ROWS[0]])
        + '<row r="3"><c r="A3" t="inlineStr"><is><t>Dated</t></is></c><c r="B3" t="inlineStr"><is><t>monster</t>'
        '</is></c><c r="C3" s="300"><v>45000</v></c></row>'
    )
    data = s.with_styles(s._styles_part(xfs, num_fmts), sheet)
    workbook = Workbook(zipfile.ZipFile(io.BytesIO(data)), source=data)
    assert len(workbook.date_styles) == 400 and 300 in workbook.date_styles
    assert workbook.plain_sheet("Cards") is False
    (tmp_path / "dates.xlsx").write_bytes(data)
    table = read_sheet(tmp_path / "dates.xlsx")
    assert table.rows[-1][1][2] == "2023-03-15 00:00:00"


def test_nesting_two_million_deep_in_styles_is_refused_as_soon_as_it_is_met(tmp_path: Path) -> None:
    """Before: 2M-deep nesting in styles.xml took 12 s and 604 MB."""
    one, _ = bounded("deep_styles", s.deep_styles, 20_000, tmp_path)
    assert "nests its elements more than 64 deep" in str(one.result) and "xml_depth" not in str(one.result)


def test_deep_nesting_in_a_sheet_cell_or_in_shared_strings_is_refused(tmp_path: Path) -> None:
    nest = "".join(f"<x{i}>" for i in range(5_000)) + "".join(f"</x{i}>" for i in reversed(range(5_000)))
    in_cell = h.worksheet(
        h.inline_rows([h.SOULS_HEADERS]) + f'<row r="2"><c r="A2" t="inlineStr"><is>{nest}</is></c></row>'
    )
    (tmp_path / "cell.xlsx").write_bytes(h.xlsx_package({"Cards": in_cell}))
    cost = refusal(tmp_path / "cell.xlsx")
    assert "sheet 'Cards'" in str(cost.result) and "more than 64 deep" in str(cost.result)
    strings = f'<sst xmlns="{h.MAIN_NS}"><si>{nest}</si></sst>'.encode()
    (tmp_path / "strings.xlsx").write_bytes(h.xlsx_package({"Cards": h.card_sheet()}, shared_strings=strings))
    cost = refusal(tmp_path / "strings.xlsx")
    assert "xl/sharedStrings.xml" in str(cost.result) and "more than 64 deep" in str(cost.result)
    assert cost.seconds < SECONDS and cost.peak_mib < MIB


# Rows --------------------------------------------------------------------------------------------------------


def test_empty_rows_numbered_over_and_over_are_refused_at_the_first_repeat(tmp_path: Path) -> None:
    """Before: 4M empty rows numbered 4-6 took 28 s and 395 MB (42M in the issue: past 3.1 GB after 120 s)."""
    one, _ = bounded("repeated_rows", s.repeated_empty_rows, 50_000, tmp_path)
    assert "sheet 'Cards', row 4: row 4 comes after row 6" in str(one.result)


def test_rows_out_of_order_are_not_given_to_the_fast_reader(tmp_path: Path) -> None:
    """calamine would sort rows out of order into place; the scan sends them to the streaming reader, which refuses
    them, so the two readers never differ."""
    sheet = h.worksheet(
        '<row r="1"><c r="A1"><v>1</v></c></row><row r="3"><c r="A3"><v>3</v></c></row>'
        '<row r="2"><c r="A2"><v>2</v></c></row>'
    )
    data = h.xlsx_package({"Cards": sheet})
    assert Workbook(zipfile.ZipFile(io.BytesIO(data)), source=data).plain_sheet("Cards") is False
    (tmp_path / "order.xlsx").write_bytes(data)
    assert "row 2 comes after row 3" in str(refusal(tmp_path / "order.xlsx").result)


def test_empty_rows_count_against_the_rows_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: 1M increasing empty rows were read to the end (11 s here; 71 s in the issue)."""
    monkeypatch.setattr("workbench.xlsx_rows.MAX_ROW_ELEMENTS", 1_000)
    one, _ = bounded("empty_rows", s.increasing_empty_rows, 50_000, tmp_path)
    assert "row 1002: the sheet writes more than 1,000 rows under its header (empty rows included)" in str(one.result)


def test_empty_rows_over_the_real_limit_are_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The time at the real limit (tracemalloc would slow 200,000 rows many times over: the memory bound is the
    scaled case above's, and the release of rows the case below's)."""
    path = s.increasing_empty_rows(tmp_path / "rows.xlsx", LIMITS["rows"].value + 10)
    code, err, cost = cli(capsys, "validate", str(path), "--ruleset", "souls", memory=False)
    print(f"\nSTRUCTURE empty rows over the limit: exit {code} in {cost.seconds:.2f} s: {err}")
    assert code == 2 and "row 200002" in err and "limit of 200,000 rows" in err
    assert cost.seconds < 10


def test_rows_are_released_as_they_are_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sheet of many empty rows under the limit is read whole; the memory the streaming reader takes does not grow
    with them (the rows read used to stay attached to the sheet's tree)."""
    small, large = (s.increasing_empty_rows(tmp_path / f"r{n}.xlsx", n) for n in (5_000, 50_000))
    auto = s.measured(lambda: read_sheet(large))  # the fast reader's scan first: a few chunks of a megabyte
    monkeypatch.setenv("WORKBENCH_XLSX_READER", "streaming")
    one, ten = s.measured(lambda: read_sheet(small)), s.measured(lambda: read_sheet(large))
    print(
        f"\nSTRUCTURE rows read by the streaming reader: 5,000 {one.seconds:.2f} s, {one.peak_mib:.2f} MiB; 50,000 "
        f"{ten.seconds:.2f} s, {ten.peak_mib:.2f} MiB; 50,000 with the scan first {auto.peak_mib:.2f} MiB"
    )
    assert len(ten.result.rows) == len(auto.result.rows) == 2 and ten.peak_mib < 2 * one.peak_mib + 1, (one, ten)
    assert auto.peak_mib < MIB and ten.seconds < SECONDS


# Sheets and parts --------------------------------------------------------------------------------------------


def test_a_workbook_naming_a_million_sheets_is_refused_at_the_first_past_the_limit(tmp_path: Path) -> None:
    """Before: 1.5M sheets in workbook.xml took 20 s and 837 MB before the 100-sheet limit refused them."""
    one, _ = bounded("sheets", s.many_sheets, 10_000, tmp_path)
    assert "the workbook names at least 101 sheets, more than the limit of 100 sheets" in str(one.result)


@pytest.mark.parametrize("second", ["xl/worksheets/sheet1.xml", "XL/Worksheets/Sheet1.xml"])
def test_a_part_held_twice_is_refused_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], second: str
) -> None:
    """Before: the last copy was read and a formula in the first was never reported."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # zipfile warns of the duplicate it is told to write
        path = s.duplicate_part(tmp_path / "twice.xlsx", second)
    code, err, cost = cli(capsys, "validate", str(path), "--ruleset", "souls")
    also = "" if second == "xl/worksheets/sheet1.xml" else f" (also written '{second}')"
    assert code == 2 and f"holds the part 'xl/worksheets/sheet1.xml'{also} more than once" in err, err
    assert cost.seconds < SECONDS


def test_a_missing_sheet_part_is_said_to_be_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: `the sheet is empty`."""
    path = s.missing_sheet_part(tmp_path / "missing.xlsx")
    code, err, _ = cli(capsys, "validate", str(path), "--ruleset", "souls")
    assert code == 2 and "sheet 'Cards'" in err and "(xl/worksheets/sheet1.xml)" in err and "missing, not empty" in err


# Other inputs: the SOURCE map ---------------------------------------------------------------------------------


def test_a_map_number_of_thousands_of_digits_is_exit_2_naming_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: exit 3, `ValueError: Exceeds the limit (4300 digits) for integer string conversion`."""
    from workbench.rulesets.source.map import read_half_map

    one = s.measured(lambda: read_half_map(s.map_with_number(tmp_path / "one.json", 5_000)))
    ten = s.measured(lambda: read_half_map(s.map_with_number(tmp_path / "ten.json", 50_000)))
    for cost in (one, ten):
        assert isinstance(cost.result, WorkbenchInputError), cost.result
        assert cost.seconds < SECONDS and cost.peak_mib < MIB, cost
    assert "row 4, column '20'" in str(one.result) and "5,000 digits at line 4, column 20" in str(one.result)
    assert "limit of 18 digits" in str(ten.result) and ten.peak_mib < 2 * one.peak_mib + 1
    path = s.map_with_number(tmp_path / "long.json", 5_000)
    code, err, _ = cli(
        capsys, "simulate", SOURCE_SET, "--deck", SOURCE_DECK, "--matches", "2", "--option", f"map={path}"
    )
    assert code == 2 and f"file {path}, row 4, column '20'" in err and "Traceback" not in err, err


def test_a_map_that_is_a_named_pipe_is_refused_without_waiting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: the command blocked for ever on the FIFO."""
    path = s.fifo(tmp_path / "map.fifo")
    code, err, cost = cli(
        capsys, "simulate", SOURCE_SET, "--deck", SOURCE_DECK, "--matches", "2", "--option", f"map={path}"
    )
    assert code == 2 and "named pipe (FIFO), not a regular file" in err and str(path) in err, err
    assert cost.seconds < 30


# Decks in a run ----------------------------------------------------------------------------------------------


def test_the_deck_limits_refuse_before_anything_is_played() -> None:
    check_decks(LIMITS["decks"].value)
    check_deck_pairs(32)
    with pytest.raises(WorkbenchInputError, match="the run names 300 decks, more than the limit of 100 decks"):
        check_decks(300)
    with pytest.raises(WorkbenchInputError, match="33 decks make 1,089 ordered pairs, more than the limit of 1,024"):
        check_deck_pairs(33)
    with pytest.raises(WorkbenchInputError, match="1,000 decks, more than the limit of 100 decks") as caught:
        check_deck_pairs(1_000)
    assert "nothing was run" in str(caught.value)


def test_the_auto_gauntlet_range_is_the_limit_of_the_table() -> None:
    from workbench.auto_decks import AUTO_DECKS_MAX, parse_gauntlet

    assert AUTO_DECKS_MAX == LIMITS["gauntlet_decks"].value == 64
    assert parse_gauntlet("auto:64").auto == 64
    with pytest.raises(WorkbenchInputError, match="N from 1 to 64"):
        parse_gauntlet("auto:65")


def test_matchups_and_health_refuse_a_thousand_decks_before_the_first_pair() -> None:
    """1,000 one-line decks with `health --matches 1`: over 120 s and 2.1 GB before (a million ordered pairs)."""
    from workbench.simulate import check_pair_run

    with pytest.raises(WorkbenchInputError, match="limit of 100 decks"):
        check_pair_run(1_000, 1, 0)
    with pytest.raises(WorkbenchInputError, match="40 decks make 1,600 ordered pairs"):
        check_pair_run(40, 1, 0)


def test_simulate_refuses_three_hundred_decks_before_reading_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`simulate` with 300 --deck: 1.26 GB and over 120 s before; now refused before the first decklist is read."""
    started = time.perf_counter()
    code = main(["simulate", "souls/ashfall", *[arg for _ in range(300) for arg in ("--deck", "no_such_deck.txt")]])
    assert code == EXIT_UNREADABLE
    assert "the command line names 300 decks, more than the limit of 100 decks" in capsys.readouterr().err
    assert time.perf_counter() - started < 10
