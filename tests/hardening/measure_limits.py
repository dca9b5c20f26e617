"""Measure issue 14's file and card-data cases on a checkout: exit code, wall time and peak memory per case.

    .venv/bin/python tests/hardening/measure_limits.py ROOT WORKDIR [CASE ...]

ROOT is the checkout whose code runs (e.g. a `git worktree` of an older commit); the files are built in WORKDIR.
Each case runs in a fresh process under a 4 GiB address-space cap and a timeout, so a case that once took 7 GB
stops at the cap (its figure then reads "cap") instead of taking the machine down.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

# Run as a script, this folder is on sys.path; its parent (tests/) is put first, so the helper is imported by the name
# mypy and the pytest run give it.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hardening import hostile_inputs as h  # noqa: E402


def cases(work: Path, root: Path) -> dict[str, Callable[[], h.Run]]:
    def wide() -> Path:
        return h.wide_header_csv(work / "wide.csv")

    def fifo() -> Path:
        target = work / "fifo.csv"
        if not target.exists():
            os.mkfifo(target)
        return target

    def zero() -> Path:
        target = work / "zero.csv"
        if not target.is_symlink():
            target.symlink_to("/dev/zero")
        return target

    def decklist() -> list[str]:
        return [str(h.long_decklist(work / "long.txt")), "--deck", str(h.long_decklist(work / "long.txt"))]

    return {
        "wide csv: validate": lambda: h.workbench("validate", str(wide()), "--ruleset", "souls", root=root),
        "wide csv: app open": lambda: h.python_snippet(h.OPEN_AND_SAVE, str(wide()), "souls", root=root, timeout=150),
        "empty cells at XFD: validate": lambda: h.workbench(
            "validate", str(h.empty_cells_at_xfd(work / "xfd.xlsx")), "--ruleset", "souls", root=root, timeout=150
        ),
        "5M unused shared strings: validate": lambda: h.workbench(
            "validate", str(h.unused_shared_strings(work / "sst.xlsx")), "--ruleset", "souls", root=root, timeout=150
        ),
        "symlink to /dev/zero: validate": lambda: h.workbench(
            "validate", str(zero()), "--ruleset", "souls", root=root, timeout=30, cap_bytes=2 * 2**30
        ),
        "FIFO: validate": lambda: h.workbench("validate", str(fifo()), "--ruleset", "souls", root=root, timeout=10),
        "FIFO: diff": lambda: h.workbench(
            "diff", str(root / "cardsets/souls/ashfall.csv"), str(fifo()), root=root, timeout=10
        ),
        "500,000-row extra sheet: app save": lambda: h.python_snippet(
            h.OPEN_AND_SAVE, str(h.extra_big_sheet(work / "big.xlsx")), "souls", "save", root=root, timeout=150
        ),
        "content types name a missing part: app save": lambda: h.python_snippet(
            h.OPEN_AND_SAVE, str(h.missing_part(work / "missing.xlsx")), "souls", "save", root=root
        ),
        "200,000 lines of 999 copies: validate --deck": lambda: h.workbench(
            "validate",
            str(root / "cardsets/circles/circle_starter.csv"),
            "--deck",
            str(h.long_decklist(work / "long.txt")),
            root=root,
            timeout=150,
        ),
        "blades copies 1,000,000: print": lambda: h.workbench(
            "print",
            str(h.blades_copies(work / "blades.csv")),
            "--out",
            str(work / "blades.html"),
            root=root,
            timeout=60,
            cap_bytes=3 * 2**30,
        ),
        "5,000-digit copies: validate": lambda: h.workbench(
            "validate", str(h.blades_copies(work / "digits.csv", "9" * 5000)), root=root
        ),
        "5,000-digit count in a decklist: validate": lambda: h.workbench(
            "validate",
            str(root / "cardsets/circles/circle_starter.csv"),
            "--deck",
            str(h.long_decklist(work / "digits.txt", 1, "9" * 5000)),
            root=root,
        ),
        "attack 10**20: validate": lambda: h.workbench(
            "validate", str(h.circles_with(work / "attack.csv", "attack", str(10**20))), root=root
        ),
        "print --out its own input": lambda: h.workbench(
            "print", str(h.circles_with(work / "own.csv", "attack", "2")), "--out", str(work / "own.csv"), root=root
        ),
    }


if __name__ == "__main__":
    h.measure_cases(cases)
