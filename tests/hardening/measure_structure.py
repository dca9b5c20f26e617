"""Measure issue 37's structure cases on a checkout: exit code, wall time and peak memory per case.

    .venv/bin/python tests/hardening/measure_structure.py ROOT WORKDIR [CASE ...]

ROOT is the checkout whose code runs (e.g. a `git worktree` of an older commit); the files are built in WORKDIR.
Each case runs `python -m workbench` in a fresh process under a 4 GiB address-space cap and a timeout (exit 124:
stopped at the timeout), as measure_limits.py does for issue 14's cases.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

# Run as a script, this folder is on sys.path; its parent (tests/) is put first, so the helpers are imported by the
# names mypy and the pytest run give them.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hardening import hostile_inputs as h  # noqa: E402
from hardening import structure_inputs as s  # noqa: E402


def cases(work: Path, root: Path) -> dict[str, Callable[[], h.Run]]:
    def validate(path: Path, timeout: float = 120.0) -> h.Run:
        return h.workbench("validate", str(path), "--ruleset", "souls", root=root, timeout=timeout)

    source = str(root / "cardsets/source/valley_of_deadlife.csv")
    deck = str(root / "cardsets/source/decks/ember_rush.txt")

    def simulate_map(path: Path) -> h.Run:
        return h.workbench(
            "simulate", source, "--deck", deck, "--matches", "2", "--option", f"map={path}", root=root, timeout=30
        )

    return {
        "300,000 cellXfs: validate": lambda: validate(s.many_cell_formats(work / "xf300k.xlsx", 300_000)),
        "3,000,000 cellXfs: validate": lambda: validate(s.many_cell_formats(work / "xf3m.xlsx", 3_000_000)),
        "2,000,000-deep styles.xml: validate": lambda: validate(s.deep_styles(work / "deep.xlsx", 2_000_000)),
        "4,000,000 empty rows numbered 4-6: validate": lambda: validate(
            s.repeated_empty_rows(work / "rows_repeat.xlsx", 4_000_000)
        ),
        "1,000,000 increasing empty rows: validate": lambda: validate(
            s.increasing_empty_rows(work / "rows_up.xlsx", 1_000_000)
        ),
        "1,500,000 sheets in workbook.xml: validate": lambda: validate(s.many_sheets(work / "sheets.xlsx", 1_500_000)),
        "duplicate sheet part: validate": lambda: validate(s.duplicate_part(work / "duplicate.xlsx")),
        "missing sheet part: validate": lambda: validate(s.missing_sheet_part(work / "missing.xlsx")),
        "map of a 5,000-digit number: simulate": lambda: simulate_map(s.map_with_number(work / "long.json", 5_000)),
        "map that is a FIFO: simulate": lambda: simulate_map(s.fifo(work / "map.fifo")),
        "1,000 one-line decks: health --matches 1": lambda: h.workbench(
            "health", str(s.one_line_decks(work / "decks.xlsx", 1_000)), "--matches", "1", root=root, timeout=120
        ),
        "100 one-line decks: health --matches 1": lambda: h.workbench(
            "health", str(s.one_line_decks(work / "decks100.xlsx", 100)), "--matches", "1", root=root, timeout=120
        ),
    }


if __name__ == "__main__":
    h.measure_cases(cases)
