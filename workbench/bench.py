"""Benchmarks behind `workbench bench`. Speed targets live here, not in timed tests."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

import openpyxl

from workbench.loading import cardset_from_table
from workbench.paths import bundled_sets
from workbench.rulesets.base import Ruleset, normalize_header
from workbench.spreadsheets import read_sheet


def write_large_sheet(ruleset: Ruleset, cards: int, out_path: Path) -> Path:
    """An xlsx of `cards` rows made by repeating the bundled sample set with numbered names."""
    sample = read_sheet(bundled_sets(ruleset.id)[0])
    name_index = next(
        i for i, h in enumerate(sample.headers) if ruleset.header_lookup.get(normalize_header(h)) == "name"
    )
    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet("Cards")
    sheet.append(sample.headers)
    for number in range(cards):
        _, values = sample.rows[number % len(sample.rows)]
        row = list(values)
        row[name_index] = f"{values[name_index]} #{number // len(sample.rows) + 1}"
        sheet.append(row)
    workbook.save(out_path)
    return out_path


def bench_validation(ruleset: Ruleset, cards: int = 10_000, repeat: int = 3) -> dict[str, Any]:
    """Best-of-`repeat` seconds to read, parse and check a generated sheet of `cards` cards."""
    with tempfile.TemporaryDirectory() as folder:
        path = write_large_sheet(ruleset, cards, Path(folder) / f"{ruleset.id}_{cards}.xlsx")
        best: dict[str, float] | None = None
        for _ in range(max(1, repeat)):
            start = time.perf_counter()
            table = read_sheet(path)
            read_done = time.perf_counter()
            cardset = cardset_from_table(table, ruleset)
            parse_done = time.perf_counter()
            findings = ruleset.check_cards(cardset, ruleset.resolve_options())
            check_done = time.perf_counter()
            timing = {
                "read_seconds": read_done - start,
                "parse_seconds": parse_done - read_done,
                "check_seconds": check_done - parse_done,
                "total_seconds": check_done - start,
            }
            if best is None or timing["total_seconds"] < best["total_seconds"]:
                best = timing
    assert best is not None
    return {
        "ruleset": ruleset.id,
        "ruleset_version": ruleset.version,
        "cards": len(cardset),
        "findings": len(findings) + len(cardset.load_findings),
        "repeat": repeat,
        **{k: round(v, 4) for k, v in best.items()},
    }
