"""Text tables that fit the terminal (issue 36): at 80 and 200 characters every line of the power-curve, verdict, sweep
and matchup tables fits, the least important columns are left out first and named in one line that points to
`--format json`, and a reason wraps onto continuation lines without losing a word. A file or a pipe keeps every
column, one line per row."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios
from collections.abc import Callable
from pathlib import Path

import pytest

from workbench.cli import POWER_COLUMNS, TEXT_INDENT, _Column, _fit_table, main
from workbench.paths import REPO_ROOT
from workbench.rulesets import RULESETS

TOY_CARDS = (
    "name,kind,cost,strength\nFiller,unit,2,2\nCheap,unit,1,1\nMid,unit,2,4\nBig,unit,3,6\nBargain,unit,1,6\n"
    "A Card Whose Name Runs Long,unit,2,3\n"
)
WIDTHS = (80, 200)


def _toy_set(tmp_path: Path) -> Path:
    from toy_engine import write_toy_set_with_decks

    return write_toy_set_with_decks(tmp_path, TOY_CARDS)


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Callable[[int], None]:
    """`terminal(width)`: stdout as a terminal of that width, which COLUMNS gives (shutil.get_terminal_size reads it
    first). Called in the test: the stdout capsys captures is only in place then."""

    def of_width(width: int) -> None:
        monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
        monkeypatch.setenv("COLUMNS", str(width))

    return of_width


def _table_rows(out: str) -> list[str]:
    """The power table's lines: from its header to the line after its last row."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("card "))
    end = next(i for i, line in enumerate(lines) if i > start and line.startswith(("baseline: ", "left out to fit")))
    return lines[start:end]


def _toy_power_curve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> list[str]:
    from toy_engine import TOY

    monkeypatch.setitem(RULESETS, "toy", TOY)
    sheet = _toy_set(tmp_path)
    return ["power-curve", str(sheet), "--ruleset", "toy", "--matches-per-card", "200", "--workers", "1", *extra]


@pytest.mark.parametrize("width", WIDTHS)
def test_the_power_table_fits_the_terminal_and_loses_no_word_of_a_reason(
    width: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    terminal: Callable[[int], None],
) -> None:
    argv = _toy_power_curve(tmp_path, monkeypatch)
    assert main([*argv, "--format", "json"]) == 0
    cards = {row["card"]: row for row in json.loads(capsys.readouterr().out)["cards"]}
    terminal(width)
    assert main(argv) == 0
    out = capsys.readouterr().out
    table = _table_rows(out)
    assert max(len(line) for line in table) <= width
    header = table[0]
    # Each card's row, then its reason's continuation lines: the words of the reason, all of them, in order.
    rows: dict[str, list[str]] = {}
    current = None
    for line in table[1:]:
        if line == " " * TEXT_INDENT + "why":  # the reasons' header, when they go below their rows
            continue
        if line.startswith(" "):
            assert current is not None
            rows[current].append(line.strip())
        else:
            current = next(name for name in cards if line.startswith(name[:20]))
            rows[current] = [line]
    assert set(rows) == set(cards)
    for name, lines in rows.items():
        assert " ".join(" ".join(lines).split()).endswith(" ".join(cards[name]["reason"].split())), (name, lines)
    if width == 80:
        # The least important columns left out, said once, and the essentials kept.
        note = " ".join(out[out.index("left out to fit 80 characters a line: ") : out.index("baseline: ")].split())
        assert note.endswith("--format json has every column whole.")
        assert "detects" in note and "first" in note and "drawn" in note
        for kept in ("card", "cost", "power", "flag"):
            assert kept in header
        assert "detects" not in header and "first" not in header
        assert table[1] == " " * TEXT_INDENT + "why"  # the reasons go below their rows, indented
        assert "detects:" not in out and "first: mean turn" not in out  # the key leaves them out too
    else:
        # 200 characters: every column, the reason beside them, wrapped in its own column.
        assert [column.header in header for column in POWER_COLUMNS] == [True] * len(POWER_COLUMNS)
        assert header.endswith("  why") and "left out to fit" not in out
        why_at = header.index("why")
        continuation = [line for line in table[1:] if line.startswith(" ")]
        assert continuation and all(line[:why_at].strip() == "" and line[why_at] != " " for line in continuation)


def test_a_file_or_a_pipe_keeps_every_column_and_one_line_per_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "80")  # not a terminal: the width does not apply
    argv = _toy_power_curve(tmp_path, monkeypatch)
    assert main(argv) == 0
    out = capsys.readouterr().out
    table = _table_rows(out)
    assert all(column.header in table[0] for column in POWER_COLUMNS)
    assert len(table) == len(TOY_CARDS.splitlines()) and max(len(line) for line in table) > 80  # header + cards
    assert "left out to fit" not in out


@pytest.mark.parametrize("width", WIDTHS)
def test_the_verdict_sweep_and_matchup_tables_fit_too(
    width: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    terminal: Callable[[int], None],
) -> None:
    argv = _toy_power_curve(tmp_path, monkeypatch, "--policy", "greedy,random")
    sheet = argv[1]
    terminal(width)
    assert main(argv) == 0
    out = capsys.readouterr().out
    verdicts = out.splitlines()[1 : out.splitlines().index("== greedy")]
    assert verdicts[0].startswith("card ") and "greedy" in verdicts[0] and "random" in verdicts[0]
    assert all(len(line) <= width for line in verdicts)
    common = ["--ruleset", "toy", "--workers", "1"]
    sweep = ["sweep", sheet, *common, "--card", "Mid", "--field", "strength", "--values", "1,4,9"]
    assert main([*sweep, "--matches-per-card", "100"]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("strength "))
    assert all(len(line) <= width for line in lines[start:])
    assert ("tier band" in lines[start]) == (width == 200)
    decks = ["--deck", "a_reference", "--deck", "b_other", "--deck", "a_reference", "--deck", "b_other"]
    assert main(["simulate", sheet, *common, *decks, "--matches", "50"]) == 0
    matrix = capsys.readouterr().out.splitlines()[1:]
    assert matrix[0].startswith("row deck win")
    assert all(len(line) <= width for line in matrix)
    said = " ".join(" ".join(matrix).split())
    if width == 80:  # four decks: the win rates alone, and a line saying so
        assert "[" not in matrix[1]
        assert said.endswith(
            "cut to fit 80 characters a line: the intervals, and deck names; --format json has them whole."
        )
    else:
        assert "[" in matrix[1] and "cut to fit" not in said


def test_fit_table_leaves_out_the_least_important_first_and_puts_back_what_fits() -> None:
    columns = [
        _Column("name", left=True),
        _Column("a", width=10, leave_out=3),
        _Column("b", width=10, leave_out=1),
        _Column("c", width=20, leave_out=2),
    ]
    rows = [["x" * 12, "1", "2", "3"]]
    whole = _fit_table(columns, rows, "why", ["because " * 10], None)
    assert whole.lines[1].startswith("x" * 12 + "  " + " " * 9 + "1") and whole.note is None
    # 40 characters: c (20) must go; b, left out first, fits again once c is gone.
    fitted = _fit_table(columns, rows, "why", ["because " * 10], 40)
    assert fitted.left_out == ["c"] and all(len(line) <= 40 for line in fitted.lines)
    assert fitted.note == "left out to fit 40 characters a line: c; --format json has every column whole."
    assert fitted.lines[1] == " " * TEXT_INDENT + "why" and fitted.lines[3].startswith(" " * TEXT_INDENT + "because")
    # Too narrow for the columns never left out: the first is cut, and the note says so.
    narrow = _fit_table([_Column("name", left=True), _Column("n", width=30)], [["y" * 30, "1"]], "why", [""], 40)
    assert narrow.lines[2].startswith("y" * 7 + "…") and "name cut to 8 characters" in (narrow.note or "")
    # A short text stays beside the columns when it fits whole.
    short = _fit_table(columns, rows, "why", ["same verdict"], 80)
    assert short.lines[1].endswith("  same verdict") and len(short.lines) == 2


@pytest.mark.parametrize("width", WIDTHS)
def test_a_real_terminal_of_that_width_without_columns(width: int, tmp_path: Path) -> None:
    """The width comes from the terminal itself (a pseudo-terminal sized as a window is), COLUMNS unset."""
    sheet = _toy_set(tmp_path)
    launcher = (
        "import sys; sys.path.insert(0, sys.argv[1]); from toy_engine import TOY; "
        "from workbench.rulesets import RULESETS; RULESETS['toy'] = TOY; from workbench.cli import main; "
        "raise SystemExit(main(sys.argv[2:]))"
    )
    argv = ["power-curve", str(sheet), "--ruleset", "toy", "--matches-per-card", "100", "--workers", "1", "-q"]
    main_fd, terminal_fd = pty.openpty()
    fcntl.ioctl(terminal_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, width, 0, 0))
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    process = subprocess.Popen(
        [sys.executable, "-c", launcher, str(REPO_ROOT / "tests"), *argv],
        stdin=subprocess.DEVNULL,
        stdout=terminal_fd,
        stderr=subprocess.PIPE,
        env=env,
    )
    os.close(terminal_fd)
    shown = b""
    while True:
        try:
            chunk = os.read(main_fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(main_fd)
    assert process.wait(timeout=120) == 0, process.stderr.read() if process.stderr else ""
    table = _table_rows(shown.decode().replace("\r\n", "\n"))
    assert max(len(line) for line in table) <= width
    assert ("detects" in table[0]) == (width == 200)
