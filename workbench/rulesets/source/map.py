"""The SOURCE map as data: one player's half read from a JSON file, two halves joined by an alignment option.

The rule document's map pictures are missing, so the map is built from its
words and kept in a file a designer can read and change
(`maps/default.json`). The file describes ONE player's half of the map, front
face, as its owner sees it from behind the SOURCE generator:

- `spaces`: each with an `id`, a `kind` (`summoning`, `flux`, `terrestrial`
  or `otherworldly`), a `lane` (`left`, `centre`, `right`) and a `row`
  (counted from the generator). Exactly one summoning space (the space
  closest to the generator) and one Source Flux space, one road step from it.
- `road`: `[from, to]` pairs, pointing away from your generator. Monsters only
  move forward along it, from their summoning space to the opponent's.
- `border`: which space ends each side lane (`left`, `right`); there the
  road crosses into the opponent's half.
- `support_spaces`: how many support spaces each player has off the map.

Both players' halves are the same board. "Each player's game map has two
sides, with the backside being a mirror-flipped version of the front side",
so the `map_alignment` option says which face each player uses, and the two
halves face each other: your left border meets the opponent's right border.
Alignment 1 (your purple lane meets theirs), 2 (green meets green, purple
lanes on the other hand), 3 and 4 (purple meets green, mirror images of each
other). Adjacent spaces are the road's neighbours (both directions);
parallel spaces are spaces of one half in the same row and different lanes.

Run `python -m workbench.rulesets.source.map docs/rulesets/source_map.svg` to
redraw the picture in the docs from the default file.
"""

from __future__ import annotations

import json
import re
import sys
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from workbench.cards import WorkbenchInputError
from workbench.limits import LIMITS, over_limit

MAPS_FOLDER = Path(__file__).parent / "maps"
DEFAULT_MAP = MAPS_FOLDER / "default.json"

SPACE_KINDS: tuple[str, ...] = ("summoning", "flux", "terrestrial", "otherworldly")
"""Space kinds; the index is the kernel's kind code."""
KIND_SUMMONING, KIND_FLUX, KIND_TERRESTRIAL, KIND_OTHERWORLDLY = range(4)
LANES: tuple[str, ...] = ("left", "centre", "right")
MIRROR = {"left": "right", "centre": "centre", "right": "left"}
ALIGNMENTS: dict[str, tuple[bool, bool]] = {
    "1": (False, True),
    "2": (True, False),
    "3": (False, False),
    "4": (True, True),
}
"""Alignment option -> (A's half shows its back face, B's half shows its back face)."""

# Columns of the packed map array the kernels read (one row per space of the whole map).
(
    MP_KIND,
    MP_HALF,
    MP_FWD_A0,
    MP_FWD_A1,
    MP_FWD_B0,
    MP_FWD_B1,
    MP_ADJ0,
    MP_ADJ1,
    MP_ADJ2,
    MP_ADJ3,
    MP_PROGRESS_A,
    MP_PROGRESS_B,
    MP_PARALLEL,
) = range(13)
MAP_WIDTH = 13
MAX_ADJACENT = 4
NO_SPACE = -1
MAX_MAP_BYTES = LIMITS["map_bytes"].value
"""Largest map file read (a map of 31 spaces needs a few KiB): the `map_bytes` limit of workbench/limits.py."""
MAX_NUMBER_DIGITS = LIMITS["number_digits"].value
"""Most digits of a whole number in a map file (the `number_digits` limit, as for a card field)."""
MAX_HALF_SPACES = 31
"""Spaces a half may have: the engine keeps each player's monsters as a set of bits in one int64 (one bit per
space of the whole map, 62 at most, clear of the sign bit)."""


@dataclass(frozen=True)
class HalfSpace:
    """One space of a player's half, as the file describes it (front face)."""

    id: str
    """The space's name in the file."""
    kind: str
    """summoning, flux, terrestrial or otherworldly."""
    lane: str
    """left, centre or right, as its owner sees the front face."""
    row: int
    """Spaces from the generator (the summoning space is the lowest row)."""


@dataclass(frozen=True)
class HalfMap:
    """A player's half of the map, read and checked from a map file."""

    name: str
    """The map's name."""
    path: str
    """Where it was read from."""
    spaces: tuple[HalfSpace, ...]
    """Every space of the half, in file order."""
    road: tuple[tuple[int, int], ...]
    """Road steps (from, to) as indices into `spaces`, pointing away from the owner's generator."""
    border: dict[str, int]
    """Lane (left/right) -> index of the space where the road crosses into the opponent's half."""
    support_spaces: int
    """Support spaces per player, off the map."""


@dataclass(frozen=True)
class BoardMap:
    """Both halves joined under one alignment: what the engine plays on."""

    half: HalfMap
    """The half both players use."""
    alignment: str
    """The `map_alignment` option (1-4)."""
    names: tuple[str, ...]
    """Space names for traces: `A summoning`, `B left 2`, ... (A's half first, then B's)."""
    packed: npt.NDArray[np.int64]
    """(spaces, MAP_WIDTH): kind, half, forward steps per player, adjacent spaces, progress per player, parallel."""
    distance: npt.NDArray[np.int64]
    """(spaces, spaces): road steps between two spaces, either direction."""
    summoning: tuple[int, int]
    """A's and B's summoning spaces."""
    flux: tuple[int, int]
    """A's and B's Source Flux spaces."""
    back_face: tuple[bool, bool]
    """Whether A's and B's halves show their mirrored back face."""


def _problem(path: str, message: str, expected: str) -> WorkbenchInputError:
    return WorkbenchInputError(f"map file {path}: {message}", expected=expected)


class _LongNumber(ValueError):
    """A whole number in a map file with more digits than the `number_digits` limit."""


def _whole_number(text: str) -> int:
    """json's `parse_int`: a whole number of at most the `number_digits` limit of digits (Python refuses to read
    more than 4,300 with a ValueError no message of ours would explain)."""
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _LongNumber(text)
    return int(text)


_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?')


def _long_number_at(text: str) -> tuple[int | None, int | None, int]:
    """(line, column, digits) of the first whole number in `text` (outside strings) past the digits limit."""
    for token in _JSON_TOKEN.finditer(text):
        digits = token.group().lstrip("-")
        if digits.isdigit() and len(digits) > MAX_NUMBER_DIGITS:
            line = text.count("\n", 0, token.start()) + 1
            return line, token.start() - (text.rfind("\n", 0, token.start()) + 1) + 1, len(digits)
    return None, None, MAX_NUMBER_DIGITS + 1


def read_half_map(path: str | Path = DEFAULT_MAP) -> HalfMap:
    """Read and check a map file; every problem names the file, the entry and what was expected.

    The file goes through the same checks as a card sheet: only a regular file is read (a FIFO or a device is
    refused by what it is, before it is opened for reading), and at most the `map_bytes` limit of it.
    """
    from workbench.spreadsheets import read_input_file

    where = str(path)
    raw_bytes = read_input_file(path, where, "a JSON map file (see workbench/rulesets/source/maps/)", "map_bytes")
    try:
        text = raw_bytes.decode("utf-8-sig")
        data = json.loads(text, parse_int=_whole_number)
    except UnicodeDecodeError as error:
        raise _problem(
            where, f"is not UTF-8 text (byte {error.start + 1}).", "a JSON map file saved as UTF-8"
        ) from None
    except json.JSONDecodeError as error:
        raise _problem(where, f"is not valid JSON (line {error.lineno}, column {error.colno}).", "JSON") from None
    except _LongNumber:
        line, column, digits = _long_number_at(text)
        at = f" at line {line}, column {column}" if line is not None else ""
        raise over_limit(
            "number_digits",
            f"the map file holds a whole number of {digits:,} digits{at}",
            path=where,
            row=line,
            column=None if column is None else str(column),
        ) from None
    except RecursionError:
        raise _problem(where, "nests its JSON too deeply to read.", "a map file shaped like the default") from None
    if not isinstance(data, dict) or not isinstance(data.get("spaces"), list) or not isinstance(data.get("road"), list):
        raise _problem(where, "needs `spaces` and `road` lists.", "an object with spaces, road, border, support_spaces")
    spaces: list[HalfSpace] = []
    index: dict[str, int] = {}
    for number, raw in enumerate(data["spaces"], start=1):
        entry = f"space {number}"
        if not isinstance(raw, dict):
            raise _problem(where, f"{entry} is not an object.", '{"id", "kind", "lane", "row"}')
        space_id = str(raw.get("id", "")).strip()
        kind = str(raw.get("kind", "")).strip().casefold()
        lane = str(raw.get("lane", "")).strip().casefold()
        row = raw.get("row")
        if not space_id or space_id in index:
            raise _problem(where, f"{entry} has a missing or repeated id '{space_id}'.", "a unique id per space")
        if kind not in SPACE_KINDS:
            raise _problem(where, f"{entry} ('{space_id}') has kind '{kind}'.", "one of: " + ", ".join(SPACE_KINDS))
        if lane not in LANES:
            raise _problem(where, f"{entry} ('{space_id}') has lane '{lane}'.", "one of: " + ", ".join(LANES))
        if not isinstance(row, int) or row < 1:
            raise _problem(where, f"{entry} ('{space_id}') has row {row!r}.", "a whole number >= 1")
        index[space_id] = len(spaces)
        spaces.append(HalfSpace(space_id, kind, lane, row))
    if len(spaces) > MAX_HALF_SPACES:
        raise _problem(where, f"has {len(spaces)} spaces.", f"at most {MAX_HALF_SPACES} spaces in a half")
    kinds = [space.kind for space in spaces]
    if kinds.count("summoning") != 1 or kinds.count("flux") != 1:
        raise _problem(where, "needs exactly one summoning space and one flux space.", "1 summoning, 1 flux")
    road: list[tuple[int, int]] = []
    for number, raw in enumerate(data["road"], start=1):
        if not (isinstance(raw, list) and len(raw) == 2 and all(str(v) in index for v in raw)):
            raise _problem(where, f"road step {number} is {raw!r}.", "[from id, to id] naming two spaces")
        road.append((index[str(raw[0])], index[str(raw[1])]))
    summoning, flux = kinds.index("summoning"), kinds.index("flux")
    if (summoning, flux) not in road:
        raise _problem(where, "the flux space must be one road step from the summoning space.", '["summoning", "flux"]')
    outgoing = [[b for a, b in road if a == i] for i in range(len(spaces))]
    incoming = [[a for a, b in road if b == i] for i in range(len(spaces))]
    for i, space in enumerate(spaces):
        if len(outgoing[i]) > 2:
            raise _problem(where, f"'{space.id}' has {len(outgoing[i])} road steps out.", "at most 2 (one fork)")
        if i != summoning and len(incoming[i]) != 1:
            raise _problem(
                where, f"'{space.id}' is reached by {len(incoming[i])} road steps.", "exactly 1 (a road tree)"
            )
    if incoming[summoning]:
        raise _problem(where, "the road leads back into the summoning space.", "roads pointing away from it")
    reached = {summoning}
    queue = deque([summoning])
    while queue:
        for nxt in outgoing[queue.popleft()]:
            if nxt not in reached:
                reached.add(nxt)
                queue.append(nxt)
    if len(reached) != len(spaces):
        lost = [spaces[i].id for i in range(len(spaces)) if i not in reached]
        raise _problem(where, f"the road never reaches {', '.join(lost)}.", "every space on the road")
    border_raw = data.get("border")
    if not isinstance(border_raw, dict) or not border_raw:
        raise _problem(where, "needs a `border` naming where each lane crosses over.", '{"left": id, "right": id}')
    border: dict[str, int] = {}
    for lane, space_id in border_raw.items():
        if lane not in ("left", "right") or str(space_id) not in index:
            raise _problem(where, f"border entry {lane!r}: {space_id!r}.", "left or right -> a space id")
        if outgoing[index[str(space_id)]]:
            raise _problem(where, f"border space '{space_id}' has road steps out of it.", "the last space of a lane")
        border[lane] = index[str(space_id)]
    support = data.get("support_spaces", 4)
    if not isinstance(support, int) or not 1 <= support <= 8:
        raise _problem(where, f"support_spaces is {support!r}.", "a whole number from 1 to 8")
    return HalfMap(str(data.get("name", Path(path).stem)), where, tuple(spaces), tuple(road), border, support)


def board_map(half: HalfMap, alignment: str = "1") -> BoardMap:
    """Join two copies of `half` facing each other under a `map_alignment` value (1-4)."""
    if alignment not in ALIGNMENTS:
        raise WorkbenchInputError(
            f"map alignment '{alignment}' is not one of the document's four options.", expected="1, 2, 3 or 4"
        )
    back_a, back_b = ALIGNMENTS[alignment]
    n = len(half.spaces)
    total = 2 * n
    forward_a: list[list[int]] = [[] for _ in range(total)]
    for a, b in half.road:
        forward_a[a].append(b)  # outward through A's half
    for a, b in half.road:
        forward_a[n + b].append(n + a)  # inward through B's half
    for lane, a_space in half.border.items():
        # A's border on lane L (after its face) meets the B border whose face-lane is the mirror of L.
        a_lane = MIRROR[lane] if back_a else lane
        wanted_b_lane = MIRROR[a_lane]
        for b_lane, b_space in half.border.items():
            if (MIRROR[b_lane] if back_b else b_lane) == wanted_b_lane:
                forward_a[a_space].append(n + b_space)
    forward_b: list[list[int]] = [[] for _ in range(total)]
    for a in range(total):
        for b in forward_a[a]:
            forward_b[b].append(a)
    packed = np.full((total, MAP_WIDTH), NO_SPACE, dtype=np.int64)
    adjacency: list[list[int]] = [sorted(set(forward_a[s]) | set(forward_b[s])) for s in range(total)]
    for s in range(total):
        space = half.spaces[s % n]
        packed[s, MP_KIND] = SPACE_KINDS.index(space.kind)
        packed[s, MP_HALF] = s // n
        for column, successors in ((MP_FWD_A0, forward_a[s]), (MP_FWD_B0, forward_b[s])):
            for k, nxt in enumerate(successors[:2]):
                packed[s, column + k] = nxt
        for k, nxt in enumerate(adjacency[s][:MAX_ADJACENT]):
            packed[s, MP_ADJ0 + k] = nxt
        for other in range(n):
            o = half.spaces[other]
            if o.row == space.row and o.lane != space.lane and {o.lane, space.lane} == {"left", "right"}:
                packed[s, MP_PARALLEL] = (s // n) * n + other
    summoning = next(i for i, space in enumerate(half.spaces) if space.kind == "summoning")
    flux = next(i for i, space in enumerate(half.spaces) if space.kind == "flux")
    for column, start, steps in ((MP_PROGRESS_A, summoning, forward_a), (MP_PROGRESS_B, n + summoning, forward_b)):
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in steps[here]:
                if nxt not in seen:
                    seen[nxt] = seen[here] + 1
                    queue.append(nxt)
        for s, steps_taken in seen.items():
            packed[s, column] = steps_taken
    distance = np.full((total, total), total, dtype=np.int64)
    for start in range(total):
        distance[start, start] = 0
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in adjacency[here]:
                if distance[start, nxt] > distance[start, here] + 1:
                    distance[start, nxt] = distance[start, here] + 1
                    queue.append(nxt)
    names = tuple(f"{'AB'[s // n]} {half.spaces[s % n].id}" for s in range(total))
    return BoardMap(
        half, alignment, names, packed, distance, (summoning, n + summoning), (flux, n + flux), (back_a, back_b)
    )


def load_board(map_option: str, alignment: str) -> BoardMap:
    """The `map` option (`default` or a path to a map file) joined under `map_alignment`."""
    path = DEFAULT_MAP if map_option.strip() in ("", "default") else Path(map_option.strip())
    return board_map(read_half_map(path), alignment)


# ---- the picture ---------------------------------------------------------------------------------------------------

_FILL = {"summoning": "#d9d9d9", "flux": "#7fd6e0", "terrestrial": "#b48ad6", "otherworldly": "#ffffff"}
_STROKE = {"summoning": "#555555", "flux": "#1c8a96", "terrestrial": "#6a2f99", "otherworldly": "#2e9e3e"}
_LANE_X = {"left": 0, "centre": 1, "right": 2}


def _panel(board: BoardMap, left: float, top: float, title: str) -> list[str]:
    """One alignment drawn from A's seat: A's half at the bottom, B's half (facing A) at the top."""
    half = board.half
    n = len(half.spaces)
    max_row = max(space.row for space in half.spaces)
    cell, gap = 46, 12

    def centre(s: int) -> tuple[float, float]:
        space = half.spaces[s % n]
        back = board.back_face[s // n]
        lane = MIRROR[space.lane] if back else space.lane
        if s >= n:
            lane = MIRROR[lane]  # B sits opposite A, so B's left is A's right
            y_row = space.row
        else:
            y_row = 2 * max_row + 1 - space.row
        x = left + 20 + _LANE_X[lane] * (cell + gap) + cell / 2
        y = top + 100 + (y_row - 1) * (cell + gap) + cell / 2
        return x, y

    out = [
        f'<text x="{left + 100}" y="{top + 18}" text-anchor="middle" font-size="13" font-weight="bold">{title}</text>'
    ]
    for s in range(2 * n):
        for k in (MP_FWD_A0, MP_FWD_A1):
            nxt = int(board.packed[s, k])
            if nxt >= 0:
                (x1, y1), (x2, y2) = centre(s), centre(nxt)
                out.append(
                    f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" stroke="#3fb8c9" '
                    'stroke-width="6" stroke-linecap="round" opacity="0.55"/>'
                )
        parallel = int(board.packed[s, MP_PARALLEL])
        if parallel > s:
            (x1, y1), (x2, y2) = centre(s), centre(parallel)
            out.append(
                f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" stroke="#999999" '
                'stroke-width="1.5" stroke-dasharray="4 3"/>'
            )
    for s in range(2 * n):
        space = half.spaces[s % n]
        x, y = centre(s)
        out.append(
            f'<rect x="{x - cell / 2:.0f}" y="{y - cell / 2:.0f}" width="{cell}" height="{cell}" rx="6" '
            f'fill="{_FILL[space.kind]}" stroke="{_STROKE[space.kind]}" stroke-width="3"/>'
        )
        label = {"summoning": "SUM", "flux": "FLUX", "terrestrial": "T", "otherworldly": "O"}[space.kind]
        out.append(f'<text x="{x:.0f}" y="{y - 2:.0f}" text-anchor="middle" font-size="11">{label}</text>')
        out.append(f'<text x="{x:.0f}" y="{y + 12:.0f}" text-anchor="middle" font-size="9">{"AB"[s // n]}</text>')
    for player, s in (("A", board.summoning[0]), ("B", board.summoning[1])):
        x, y = centre(s)
        y += (cell + gap) * (1 if player == "A" else -1)
        corners = f"{x:.0f},{y - 20:.0f} {x + 20:.0f},{y:.0f} {x:.0f},{y + 20:.0f} {x - 20:.0f},{y:.0f}"
        out.append(f'<polygon points="{corners}" fill="#f4c542" stroke="#8a6d00" stroke-width="2"/>')
        out.append(f'<text x="{x:.0f}" y="{y + 4:.0f}" text-anchor="middle" font-size="9">GEN {player}</text>')
        for k in range(half.support_spaces):
            sx = left + 20 + 2 * (cell + gap) + cell + 10
            sy = y - 22 + k * 11
            out.append(f'<rect x="{sx:.0f}" y="{sy:.0f}" width="16" height="9" fill="none" stroke="#777777"/>')
    return out


def render_svg(half: HalfMap) -> str:
    """The four alignments of a half map side by side, with a legend, as an SVG document."""
    n_rows = max(space.row for space in half.spaces)
    panel_w, panel_h = 230, 100 + (2 * n_rows + 1) * 58 + 20
    width, height = 4 * panel_w + 20, panel_h + 70
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        'font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#fbfbf8"/>',
    ]
    titles = {
        "1": "Alignment 1 (default): T meets T",
        "2": "Alignment 2: O meets O",
        "3": "Alignment 3: T meets O",
        "4": "Alignment 4: O meets T",
    }
    for k, alignment in enumerate(("1", "2", "3", "4")):
        parts += _panel(board_map(half, alignment), 10 + k * panel_w, 10, titles[alignment])
    legend_y = height - 40
    legend = (
        ("summoning", "summoning space"),
        ("flux", "Source Flux"),
        ("terrestrial", "terrestrial (purple)"),
        ("otherworldly", "otherworldly (green)"),
    )
    for k, (kind, text) in enumerate(legend):
        x = 20 + k * 170
        parts.append(
            f'<rect x="{x}" y="{legend_y}" width="18" height="18" rx="3" fill="{_FILL[kind]}" '
            f'stroke="{_STROKE[kind]}" stroke-width="3"/>'
        )
        parts.append(f'<text x="{x + 26}" y="{legend_y + 14}" font-size="12">{text}</text>')
    parts.append(
        f'<text x="{20}" y="{legend_y + 34}" font-size="11">Seen from player A (bottom). Blue-green road: '
        "monsters move forward along it only. Dashed: parallel spaces. Small boxes: support spaces. "
        f"Map file: {Path(half.path).name}</text>"
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    """`python -m workbench.rulesets.source.map OUT.svg [MAP.json]`: draw a map file's four alignments."""
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: python -m workbench.rulesets.source.map OUT.svg [MAP.json]", file=sys.stderr)
        return 2
    half = read_half_map(args[1] if len(args) > 1 else DEFAULT_MAP)
    Path(args[0]).write_text(render_svg(half), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
