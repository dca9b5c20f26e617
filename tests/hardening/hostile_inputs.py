"""Builders of the crafted inputs of issue 14 (small files that expand into gigabytes or hours), and a runner that
measures one command on them in a fresh, capped process.

The tests in this folder build each file in `tmp_path` (nothing large is committed); `measure_limits.py` builds the
same files to measure a checkout before and after a change.
"""

from __future__ import annotations

import io
import json
import os
import resource
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

REPO = Path(__file__).resolve().parents[2]
MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
SOULS_HEADERS = ["name", "kind", "soul_cost", "atk", "def", "abilities"]
SOULS_ROWS = [["Ember Imp", "monster", "0", "2", "3", "Atk"], ["Tide Golem", "monster", "1", "3", "5", "Atk"]]
Result = TypeVar("Result")


def wide_header_csv(path: Path, columns: int = 1_024, rows: int = 199_999) -> Path:
    """A csv of `columns` headers (the souls columns first) and `rows` rows of one cell each: about 1.5 MB."""
    headers = SOULS_HEADERS + [f"x{i}" for i in range(columns - len(SOULS_HEADERS))]
    body = "".join(f"c{i}\n" for i in range(rows))
    path.write_text(",".join(headers) + "\n" + body, encoding="utf-8")
    return path


def xlsx_package(
    sheets: dict[str, bytes],
    shared_strings: bytes | None = None,
    extra: dict[str, bytes] | None = None,
    content_types_extra: str = "",
) -> bytes:
    """A minimal xlsx holding the given worksheet XML parts (in order), written by hand so they can say anything."""
    overrides = "".join(
        f'<Override PartName="/xl/worksheets/sheet{i}.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        for i in range(1, len(sheets) + 1)
    )
    if shared_strings is not None:
        overrides += (
            '<Override PartName="/xl/sharedStrings.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
        )
    content_types = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        f"{overrides}{content_types_extra}</Types>"
    )
    sheet_list = "".join(
        f'<sheet name="{name}" sheetId="{i}" r:id="rId{i}"/>' for i, name in enumerate(sheets, start=1)
    )
    workbook = f'<workbook xmlns="{MAIN_NS}" xmlns:r="{REL_NS}"><sheets>{sheet_list}</sheets></workbook>'
    rels = "".join(
        f'<Relationship Id="rId{i}" Type="{REL_NS}/worksheet" Target="worksheets/sheet{i}.xml"/>'
        for i in range(1, len(sheets) + 1)
    )
    if shared_strings is not None:
        rels += f'<Relationship Id="rIdS" Type="{REL_NS}/sharedStrings" Target="sharedStrings.xml"/>'
    package_rels = (
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f'<Relationship Id="rId1" Type="{REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", content_types)
        archive.writestr("_rels/.rels", package_rels)
        archive.writestr("xl/workbook.xml", workbook)
        archive.writestr(
            "xl/_rels/workbook.xml.rels",
            f'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{rels}</Relationships>',
        )
        for i, part in enumerate(sheets.values(), start=1):
            archive.writestr(f"xl/worksheets/sheet{i}.xml", part)
        if shared_strings is not None:
            archive.writestr("xl/sharedStrings.xml", shared_strings)
        for name, content in (extra or {}).items():
            archive.writestr(name, content)
    return out.getvalue()


def inline_rows(rows: list[list[str]], start: int = 1) -> str:
    """`<row>` elements of inline-string cells."""
    return "".join(
        f'<row r="{r}">' + "".join(f'<c t="inlineStr"><is><t>{v}</t></is></c>' for v in row) + "</row>"
        for r, row in enumerate(rows, start=start)
    )


def worksheet(rows_xml: str) -> bytes:
    return f'<worksheet xmlns="{MAIN_NS}"><sheetData>{rows_xml}</sheetData></worksheet>'.encode()


def card_sheet() -> bytes:
    return worksheet(inline_rows([SOULS_HEADERS, *SOULS_ROWS]))


def empty_cells_at_xfd(path: Path, rows: int = 20_000) -> Path:
    """The souls card sheet, then `rows` rows each holding one empty text cell at column XFD (about 100 KB)."""
    tail = "".join(f'<row r="{r}"><c r="XFD{r}" t="inlineStr"><is><t></t></is></c></row>' for r in range(4, rows + 4))
    path.write_bytes(xlsx_package({"Cards": worksheet(inline_rows([SOULS_HEADERS, *SOULS_ROWS]) + tail)}))
    return path


def unused_shared_strings(path: Path, count: int = 5_000_000) -> Path:
    """A card sheet of inline strings and a shared-string table of `count` short strings none of its cells use."""
    parts = [f'<sst xmlns="{MAIN_NS}" count="{count}" uniqueCount="{count}">'.encode()]
    parts.extend(f"<si><t>s{i}</t></si>".encode() for i in range(count))
    parts.append(b"</sst>")
    path.write_bytes(xlsx_package({"Cards": card_sheet()}, shared_strings=b"".join(parts)))
    return path


def extra_big_sheet(path: Path, rows: int = 500_000) -> Path:
    """A souls workbook whose second sheet holds `rows` rows of two numbers (a log kept beside the cards)."""
    big = "".join(
        f'<row r="{r}"><c r="A{r}"><v>{r}</v></c><c r="B{r}"><v>{r * 2}</v></c></row>' for r in range(1, rows + 1)
    )
    path.write_bytes(xlsx_package({"Cards": card_sheet(), "Log": worksheet(big)}))
    return path


def missing_part(path: Path) -> Path:
    """A souls workbook whose content types name a shared-string table the package does not hold (openpyxl reads
    the part the content types name, and failed with a KeyError)."""
    path.write_bytes(
        xlsx_package(
            {"Cards": card_sheet()},
            content_types_extra='<Override PartName="/xl/sharedStrings.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>',
        )
    )
    return path


def blades_copies(path: Path, copies: str = "1000000") -> Path:
    """The bundled blades sample with its first card's copies set to `copies`."""
    lines = (REPO / "cardsets/blades/blades_sample.csv").read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    index = header.index("copies")
    first = next(__import__("csv").reader([lines[1]]))
    first[index] = copies
    buffer = io.StringIO()
    __import__("csv").writer(buffer, lineterminator="\n").writerow(first)
    lines[1] = buffer.getvalue().rstrip("\n")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def circles_with(path: Path, column: str, value: str) -> Path:
    """The bundled circles starter with its first card's `column` set to `value`."""
    import csv

    rows = list(csv.reader(io.StringIO((REPO / "cardsets/circles/circle_starter.csv").read_text(encoding="utf-8"))))
    rows[1][rows[0].index(column)] = value
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


def long_decklist(path: Path, lines: int = 200_000, count: str = "999", name: str = "Ember Pup") -> Path:
    path.write_text("".join(f"{count} {name}\n" for _ in range(lines)), encoding="utf-8")
    return path


@dataclass
class Run:
    """One command run in a fresh process: its exit code, output, and cost."""

    code: int
    """Exit code (negative: killed by that signal; 124: stopped at the timeout)."""
    stdout: str
    """What it printed."""
    stderr: str
    """What it printed on stderr."""
    seconds: float
    """Wall-clock time."""
    peak_mib: float
    """The child's peak resident memory (getrusage RUSAGE_CHILDREN, taken in a fresh runner process)."""


RUNNER = r"""
import json, resource, subprocess, sys, time
cap, timeout, argv = int(sys.argv[1]), float(sys.argv[2]), json.loads(sys.argv[3])
def limit():
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
start = time.perf_counter()
try:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, preexec_fn=limit, errors="replace")
    code, out, err = done.returncode, done.stdout, done.stderr
except subprocess.TimeoutExpired as stopped:
    code, out, err = 124, "", f"stopped after {timeout} s"
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"code": code, "stdout": out[-20000:], "stderr": err[-20000:], "seconds": seconds, "peak_mib": peak}))
"""


def run_measured(
    argv: list[str], root: Path = REPO, cap_bytes: int = 4 * 2**30, timeout: float = 120.0, cwd: Path | None = None
) -> Run:
    """Run `argv` (with `python` meaning this interpreter) under `root`'s code, in a small runner process whose
    RUSAGE_CHILDREN figure is the command's own peak (the runner is small, so the figure is not pytest's)."""
    argv = [sys.executable if part == "python" else part for part in argv]
    env = {**os.environ, "PYTHONPATH": str(root), "WORKBENCH_WARMUP": "off"}
    completed = subprocess.run(
        [sys.executable, "-c", RUNNER, str(cap_bytes), str(timeout), json.dumps(argv)],
        capture_output=True,
        text=True,
        cwd=cwd or root,
        env=env,
        timeout=timeout + 60,
    )
    report = json.loads(completed.stdout.strip().splitlines()[-1])
    return Run(**report)


def workbench(
    *args: str, root: Path = REPO, cap_bytes: int = 4 * 2**30, timeout: float = 120.0, cwd: Path | None = None
) -> Run:
    """`workbench ARGS` run by `run_measured`."""
    return run_measured(["python", "-m", "workbench", *args], root, cap_bytes, timeout, cwd)


def python_snippet(code: str, *args: str, root: Path = REPO, cap_bytes: int = 4 * 2**30, timeout: float = 120.0) -> Run:
    """`python -c CODE ARGS` run by `run_measured`."""
    return run_measured(["python", "-c", code, *args], root, cap_bytes, timeout)


OPEN_AND_SAVE = r"""
import sys
from pathlib import Path
from workbench.app.workspace import open_cardset, workspace_xlsx_bytes
path = Path(sys.argv[1])
workspace = open_cardset(path.read_bytes(), path.name, "souls" if len(sys.argv) < 3 else sys.argv[2])
print("opened", len(workspace.sheet.frame), "rows")
if "save" in sys.argv[3:]:
    data = workspace_xlsx_bytes(workspace)
    Path(sys.argv[1] + ".saved.xlsx").write_bytes(data)
    print("saved", len(data), "bytes")
"""
"""Opens a file as the app's card-set upload does (and saves it, with `save`), for the app-path figures."""


def run_peak_rss_kib() -> int:
    """This process's own peak resident memory (for in-process bounds such as the AppTest's)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def timed(function: Callable[..., Result], *args: object) -> tuple[Result, float]:
    """What `function(*args)` returns and the seconds it took."""
    start = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - start


def measure_cases(cases: Callable[[Path, Path], dict[str, Callable[[], Run]]]) -> None:
    """The command line of the measuring scripts (measure_limits.py, measure_structure.py): `ROOT WORKDIR [CASE ...]`;
    each case named (all when none is) runs once and prints one JSON line: exit code, seconds, peak MiB and the
    last line it said."""
    root, work = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    work.mkdir(parents=True, exist_ok=True)
    wanted = sys.argv[3:]
    for name, run in cases(work, root).items():
        if wanted and not any(w in name for w in wanted):
            continue
        result = run()
        message = (result.stderr.strip().splitlines() or result.stdout.strip().splitlines() or [""])[-1]
        print(
            json.dumps(
                {
                    "case": name,
                    "code": result.code,
                    "seconds": round(result.seconds, 2),
                    "peak_mib": round(result.peak_mib),
                    "said": message[:300],
                }
            ),
            flush=True,
        )
