"""A card row that cannot be read is left out of every command's work, and every command that reads a set says so
on stderr with the row's finding (issue 30): never a silent skip. `validate` reports it as its own finding."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from workbench.cli import EXIT_OK, main

ROOT = Path(__file__).resolve().parents[1]
BROKEN = "Broken Imp,monster,Crimson,0,lots,2,Atk,,,,A row whose Atk is not a number.\n"
"""Spreadsheet row 33 of the copy: after the header and the set's 31 cards."""


@pytest.fixture
def broken_set(tmp_path: Path) -> Path:
    """The bundled souls set with one row more whose Atk is not a number, and the set's decks beside it."""
    source = ROOT / "cardsets" / "souls"
    sheet = tmp_path / "ashfall.csv"
    sheet.write_text((source / "ashfall.csv").read_text(encoding="utf-8") + BROKEN, encoding="utf-8")
    shutil.copytree(source / "decks", tmp_path / "decks")
    return sheet


def _row_of_broken(sheet: Path) -> int:
    return len(sheet.read_text(encoding="utf-8").splitlines())


COMMANDS = {
    "print": ["print", "{set}", "--out", "{tmp}/proof.html"],
    "simulate": ["simulate", "{set}", "--deck", "ember_rush", "--matches", "10", "--workers", "1"],
    "power-curve": ["power-curve", "{set}", "--matches-per-card", "30", "--workers", "1"],
    "sweep": [
        "sweep",
        "{set}",
        "--card",
        "Moss Sentry",
        "--field",
        "atk",
        "--values",
        "1..2",
        "--matches-per-card",
        "30",
        "--workers",
        "1",
    ],
    "health": ["health", "{set}", "--matches", "10", "--workers", "1"],
    "report": ["report", "{set}", "--out", "{tmp}/report.html", "--matches-per-card", "30", "--matches", "10"],
    "diff": ["diff", str(ROOT / "cardsets/souls/ashfall.csv"), "{set}"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_that_reads_a_set_names_the_row_it_leaves_out(
    command: str, broken_set: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [part.format(set=broken_set, tmp=tmp_path) for part in COMMANDS[command]]
    assert main(argv) == EXIT_OK
    err = capsys.readouterr().err
    row = _row_of_broken(broken_set)
    assert f"warning: 1 card row of {broken_set} could not be read and is left out of this command's work" in err
    assert f"ashfall.csv:{row}:atk: error" in err and "Broken Imp" in err


def test_quiet_still_names_the_rows_left_out(
    broken_set: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """-q keeps stderr for errors: a row left out changes every figure printed, so it is said even then."""
    assert main(["print", str(broken_set), "--out", str(tmp_path / "p.html"), "-q"]) == EXIT_OK
    assert "could not be read and is left out" in capsys.readouterr().err


def test_validate_reports_the_row_as_its_own_finding_and_not_twice(
    broken_set: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["validate", str(broken_set)])
    captured = capsys.readouterr()
    assert "Broken Imp" in captured.out
    assert "left out of this command's work" not in captured.err


def test_a_clean_set_says_nothing_of_rows_left_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["print", "souls/ashfall", "--out", str(tmp_path / "p.html")]) == EXIT_OK
    assert "left out" not in capsys.readouterr().err
