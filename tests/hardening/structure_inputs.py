"""Builders of issue 37's crafted inputs: small files whose *structure* (not their size) once cost minutes or
gigabytes to read, and the measure taken in the test's own process.

Every builder takes a size knob, so a test can build the same structure at 1x and 10x and check that the cost of
refusing (or reading) it does not grow with it; `measure_structure.py` builds them at the issue's sizes to measure a
checkout before and after a change.
"""

from __future__ import annotations

import gc
import io
import os
import random
import time
import tracemalloc
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardening import hostile_inputs as h

MAIN_NS = h.MAIN_NS
REL_NS = h.REL_NS
STYLES_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"


def _card_cells(styled: bool = False) -> str:
    """The souls card sheet's rows, each number cell in style 1 (a date style in `many_cell_formats`) when
    `styled`."""
    style = ' s="1"' if styled else ""
    rows = [h.SOULS_HEADERS, *h.SOULS_ROWS]
    out = []
    for r, row in enumerate(rows, start=1):
        cells = "".join(
            f'<c r="{chr(65 + i)}{r}"{style}><v>{v}</v></c>'
            if v.isdigit()
            else f'<c r="{chr(65 + i)}{r}" t="inlineStr"><is><t>{v}</t></is></c>'
            for i, v in enumerate(row)
        )
        out.append(f'<row r="{r}">{cells}</row>')
    return "".join(out)


def _styles_part(xfs: str, num_fmts: str = "") -> bytes:
    return (
        f'<styleSheet xmlns="{MAIN_NS}">{num_fmts}<fonts count="1"><font/></fonts><fills count="1"><fill/></fills>'
        f'<borders count="1"><border/></borders><cellStyleXfs count="1"><xf/></cellStyleXfs>'
        f"<cellXfs>{xfs}</cellXfs></styleSheet>"
    ).encode()


def with_styles(styles: bytes, sheet: bytes | None = None) -> bytes:
    """The souls card workbook with `styles` as its styles part."""
    return h.xlsx_package(
        {"Cards": sheet or h.worksheet(_card_cells())},
        extra={"xl/styles.xml": styles},
        content_types_extra=f'<Override PartName="/xl/styles.xml" ContentType="{STYLES_TYPE}"/>',
    )


def many_cell_formats(path: Path, count: int) -> Path:
    """A styles part of `count` cell formats, every other one a date format (so the date styles are half of them),
    each with its own font number so the part compresses as a real one does (well under the 200x ratio gate)."""
    num_fmts = '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/></numFmts>'
    xfs = "".join(f'<xf numFmtId="{(14, 0, 164)[i % 3]}" fontId="{i * 7919 % 100_003}"/>' for i in range(count))
    path.write_bytes(with_styles(_styles_part(xfs, num_fmts), h.worksheet(_card_cells(styled=True))))
    return path


def deep_styles(path: Path, depth: int) -> Path:
    """A styles part whose elements nest `depth` deep inside its first font (tag names varied, so the part compresses
    well under the 200x ratio gate)."""
    rng = random.Random(37)
    tags = [f"e{rng.randrange(10_000)}" for _ in range(depth)]
    nest = "".join(f"<{tag}>" for tag in tags) + "".join(f"</{tag}>" for tag in reversed(tags))
    styles = f'<styleSheet xmlns="{MAIN_NS}"><fonts><font>{nest}</font></fonts><cellXfs><xf/></cellXfs></styleSheet>'
    path.write_bytes(with_styles(styles.encode()))
    return path


def repeated_empty_rows(path: Path, count: int) -> Path:
    """The souls card sheet, then `count` empty rows numbered 4, 5, 6, 4, 5, 6, ... (never increasing past 6)."""
    rng = random.Random(37)
    tail = "".join(f'<row r="{4 + i % 3}" ht="{rng.randrange(4)}"/>' for i in range(count))
    path.write_bytes(h.xlsx_package({"Cards": h.worksheet(_card_cells() + tail)}))
    return path


def increasing_empty_rows(path: Path, count: int) -> Path:
    """The souls card sheet, then `count` empty rows numbered 4, 5, 6, ... (each a row element with no cell)."""
    tail = "".join(f'<row r="{r}" spans="1:6"/>' for r in range(4, count + 4))
    path.write_bytes(h.xlsx_package({"Cards": h.worksheet(_card_cells() + tail)}))
    return path


def many_sheets(path: Path, count: int) -> Path:
    """A workbook whose workbook.xml names `count` sheets (only the first has a part; the rest point nowhere)."""
    data = h.xlsx_package({"Cards": h.worksheet(_card_cells())})
    listed = "".join(f'<sheet name="S{i}" sheetId="{i + 2}" r:id="rId{i + 2}"/>' for i in range(count - 1))
    workbook = (
        f'<workbook xmlns="{MAIN_NS}" xmlns:r="{REL_NS}"><sheets>'
        f'<sheet name="Cards" sheetId="1" r:id="rId1"/>{listed}</sheets></workbook>'
    )
    path.write_bytes(replace_parts(data, {"xl/workbook.xml": workbook.encode()}))
    return path


def duplicate_part(path: Path, part: str = "xl/worksheets/sheet1.xml") -> Path:
    """A workbook holding `part` twice: first a copy with a formula cell, then the plain card sheet."""
    data = h.xlsx_package({"Cards": h.worksheet(_card_cells())})
    formula = h.worksheet(_card_cells().replace("<v>2</v>", '<f>HYPERLINK("http://x")</f><v>2</v>', 1))
    out = io.BytesIO()
    source = zipfile.ZipFile(io.BytesIO(data))
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        target.writestr(part, formula)
        for info in source.infolist():
            target.writestr(info.filename, source.read(info.filename))
    path.write_bytes(out.getvalue())
    return path


def missing_sheet_part(path: Path) -> Path:
    """A workbook whose Cards sheet is named by workbook.xml and its relationships, but whose part is not there."""
    data = h.xlsx_package({"Cards": h.worksheet(_card_cells())})
    path.write_bytes(replace_parts(data, {}, drop={"xl/worksheets/sheet1.xml"}))
    return path


def replace_parts(data: bytes, parts: dict[str, bytes], drop: set[str] | None = None) -> bytes:
    """The package with some parts replaced (or added) and the ones in `drop` left out."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            if info.filename not in parts and info.filename not in (drop or set()):
                target.writestr(info.filename, source.read(info.filename))
        for name, content in parts.items():
            target.writestr(name, content)
    return out.getvalue()


def one_line_decks(path: Path, count: int) -> Path:
    """The souls card workbook with a Decks sheet of `count` decks of one line each (one Ember Imp)."""
    rows = "".join(
        f'<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>D{r}</t></is></c><c r="B{r}"><v>1</v></c>'
        f'<c r="C{r}" t="inlineStr"><is><t>Ember Imp</t></is></c></row>'
        for r in range(2, count + 2)
    )
    header = h.inline_rows([["deck", "count", "name"]])
    path.write_bytes(h.xlsx_package({"Cards": h.worksheet(_card_cells()), "Decks": h.worksheet(header + rows)}))
    return path


def map_with_number(path: Path, digits: int) -> Path:
    """The bundled default SOURCE map with its `support_spaces` written as a number of `digits` digits."""
    import json

    from workbench.rulesets.source.map import DEFAULT_MAP

    data = json.loads(DEFAULT_MAP.read_text(encoding="utf-8"))
    data["support_spaces"] = 0  # replaced below by the long number, written as it stands
    text = json.dumps(data, indent=1).replace('"support_spaces": 0', '"support_spaces": ' + "9" * digits)
    path.write_text(text, encoding="utf-8")
    return path


def fifo(path: Path) -> Path:
    if not path.exists():
        os.mkfifo(path)
    return path


@dataclass
class Cost:
    """What one call cost in this process."""

    seconds: float
    """Wall-clock time (time.perf_counter) of a run without tracemalloc, which slows Python code several times."""
    peak_mib: float
    """Peak of the memory Python allocated during a second run (tracemalloc), in MiB."""
    result: Any
    """What the call returned, or the exception it raised."""


def _outcome(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except (Exception, SystemExit) as error:  # a refusal is the outcome being measured
        return error


def measured(call: Callable[[], Any], memory: bool = True) -> Cost:
    """Run `call` twice: timed, then under tracemalloc for its peak (with `memory`; else the peak reads 0); an
    exception it raises is returned as the result (the cost still counts)."""
    gc.collect()
    start = time.perf_counter()
    outcome = _outcome(call)
    seconds = time.perf_counter() - start
    if not memory:
        return Cost(seconds, 0.0, outcome)
    gc.collect()
    tracemalloc.start()
    result = _outcome(call)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return Cost(seconds, peak / 2**20, result)
