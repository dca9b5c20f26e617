"""A card sheet as an editable table, and saving it without losing anything the upload had.

The app's card editor works on an `EditableSheet`: every cell of the card
sheet as text (what a person sees in the grid), one row per sheet row, every
column the file had (known or not) in its place. Turning it back into a
`SheetTable` gives the loader exactly what reading a csv would, so the same
findings come out with the same rows and columns; saving writes an xlsx that
keeps every column and sheet of the upload.

Row identity: the frame's index is the row the card had in the uploaded sheet
(2, 3, ...), or a negative number for a row added in the app. That is how an
unchanged cell is written back with its original type and style (a date stays
a date, an untouched formula stays a formula), while anything typed in the
app is written as plain text or a number: never as a formula.
"""

from __future__ import annotations

import copy
import hashlib
import io
import json
import re
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import openpyxl
import pandas as pd
from openpyxl.formula.translate import Translator
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter

from workbench.cards import WorkbenchInputError, normalize_name
from workbench.decklists import DecksSheetContent, FormulaText
from workbench.limits import LIMITS, over_limit
from workbench.rulesets.base import Ruleset, normalize_header
from workbench.spreadsheets import DECKS_SHEET, PaddedRow, SheetTable, append_row, set_cell_value, style_header
from workbench.xlsx_package import save_package
from workbench.xlsx_rows import Workbook

MAX_EDITOR_CELLS = LIMITS["editor_cells"].value
"""Most cells (rows × header columns) the app's card editor holds."""

_INTEGER = re.compile(r"^-?(0|[1-9][0-9]{0,14})$")
_DECIMAL = re.compile(r"^-?(0|[1-9][0-9]{0,14})\.[0-9]{1,15}$")


@dataclass
class EditableSheet:
    """The card sheet being edited: a text frame plus what is needed to write it back."""

    path: str
    """The file the sheet came from (shown in findings)."""
    sheet: str
    """The card sheet's name (xlsx) or the file name (csv)."""
    headers: list[str]
    """Header cells as written, by position (duplicates allowed, as in the file)."""
    frame: pd.DataFrame
    """One row per sheet row, one column per header (labels made unique), cells str or None; index = origin row."""
    formulas: dict[tuple[int, int], str] = field(default_factory=dict)
    """(origin row, column position) -> formula text, for the upload's formula cells."""
    typed_cells: dict[tuple[int, int], Any] = field(default_factory=dict)
    """(origin row, column position) -> the upload's value, for cells that held a number or a yes/no, not text."""
    set_info: dict[str, str] = field(default_factory=dict)
    """The `Set` sheet's key/value rows."""
    sheet_names: list[str] = field(default_factory=list)
    """Every sheet of the upload, in order."""
    notes: list[str] = field(default_factory=list)
    """Reading notes (e.g. the encoding guessed), kept so their info findings stay."""
    next_new_row: int = -1
    """Origin id for the next added row (added rows count down from -1)."""
    source_width: int = 0
    """How many header cells the upload had; columns beyond it were added in the app."""

    @property
    def labels(self) -> list[str]:
        """The frame's column labels (the headers, made unique)."""
        return [str(label) for label in self.frame.columns]

    def sheet_row(self, position: int) -> int:
        """The row a person sees for the card at this position once saved (header = row 1)."""
        return position + 2

    def position_of_row(self, sheet_row: int) -> int | None:
        """The frame position of a sheet row, or None when there is no such row."""
        position = sheet_row - 2
        return position if 0 <= position < len(self.frame) else None


def unique_labels(headers: Sequence[str]) -> list[str]:
    """Header texts made unique for a table (`notes`, `notes (2)`), positions unchanged."""
    used: set[str] = set()
    labels = []
    for header in headers:
        label, number = header, 2
        while label in used:
            label, number = f"{header} ({number})", number + 1
        used.add(label)
        labels.append(label)
    return labels


def cell_text(value: Any) -> str | None:
    """A cell value as the grid shows it: None for empty, text otherwise (whole floats without `.0`)."""
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    text = str(value).strip() if isinstance(value, str) else str(value)
    return text or None


def check_editor_size(table: SheetTable) -> None:
    """Refuse a sheet too large for the card editor's grid (rows × header columns past the `editor_cells` limit)."""
    width = len(table.headers)
    if len(table.rows) * width > MAX_EDITOR_CELLS:
        raise over_limit(
            "editor_cells",
            f"the sheet has {len(table.rows):,} card rows × {width:,} header columns = "
            f"{len(table.rows) * width:,} cells",
            path=table.path,
            sheet=table.sheet,
        )


def sheet_from_table(table: SheetTable) -> EditableSheet:
    """The editable form of a sheet as read (formula cells show their formula text).

    The grid holds every cell, so a sheet of more than the `editor_cells` limit (rows × header columns) is refused
    before the frame is built; within it, the frame is filled in place from the cells the rows hold.
    """
    check_editor_size(table)
    labels = unique_labels(table.headers)
    width = len(labels)
    grid = np.full((len(table.rows), width), None, dtype=object)
    typed_cells: dict[tuple[int, int], Any] = {}
    for position, (row_number, values) in enumerate(table.rows):
        for column, value in enumerate(values.cells if isinstance(values, PaddedRow) else values):
            if value is not None:
                grid[position, column] = cell_text(value)
                if not isinstance(value, str):
                    typed_cells[(row_number, column)] = value
    formulas = {(row, column): text for (row, column), text in table.formulas.items()}
    positions = {row_number: position for position, (row_number, _values) in enumerate(table.rows)}
    for (row_number, column), text in formulas.items():
        if row_number in positions and column < width:
            grid[positions[row_number], column] = text
    index = pd.Index([row_number for row_number, _values in table.rows], dtype="int64")
    frame = pd.DataFrame(grid, columns=labels, index=index, dtype=object, copy=False)
    return EditableSheet(
        path=table.path,
        sheet=table.sheet,
        headers=list(table.headers),
        frame=frame,
        formulas=formulas,
        typed_cells=typed_cells,
        set_info=dict(table.set_info),
        sheet_names=list(table.sheet_names),
        notes=list(table.notes),
        source_width=len(table.headers),
    )


def _normalized_cell(value: Any) -> str | None:
    """An edited value as stored: text, stripped; empty means None."""
    if value is None or (isinstance(value, float) and value != value):
        return None
    return cell_text(value)


def is_formula_cell(sheet: EditableSheet, origin: int, column: int, text: str | None) -> bool:
    """True for an upload's formula cell that still holds its formula text (typed `=...` is plain text)."""
    return text is not None and sheet.formulas.get((origin, column)) == text


def to_table(sheet: EditableSheet) -> SheetTable:
    """The sheet as the loader reads it: rows numbered as they will be saved, empty rows passed over.

    A cell unchanged since the upload is given to the loader as the file held it (a number stays a
    number); an edited cell is text, as a csv cell would be, and the card models parse it.
    """
    rows: list[tuple[int, Sequence[Any]]] = []
    formulas: dict[tuple[int, int], str] = {}
    for position, (origin, values) in enumerate(
        zip(sheet.frame.index, sheet.frame.itertuples(index=False, name=None), strict=True)
    ):
        texts = [_normalized_cell(v) for v in values]
        if all(text is None for text in texts):
            continue
        row_number = sheet.sheet_row(position)
        cells: list[Any] = []
        for column, text in enumerate(texts):
            typed = sheet.typed_cells.get((int(origin), column))
            if is_formula_cell(sheet, int(origin), column, text):
                formulas[(row_number, column)] = str(text)
                cells.append(None)
            elif typed is not None and cell_text(typed) == text:
                cells.append(typed)  # unchanged since the upload: the loader sees exactly what the file held
            else:
                cells.append(text)
        rows.append((row_number, cells))
    return SheetTable(
        path=sheet.path,
        sheet=sheet.sheet,
        headers=list(sheet.headers),
        rows=rows,
        formulas=formulas,
        set_info=dict(sheet.set_info),
        sheet_names=list(sheet.sheet_names),
        notes=list(sheet.notes),
    )


def apply_editor_changes(sheet: EditableSheet, changes: Mapping[str, Any]) -> EditableSheet:
    """Fold a data editor's pending changes into the sheet, in the editor's own order.

    `changes` is `st.data_editor`'s state: `edited_rows` ({position: {label: value}}) on the
    frame as it was drawn, then `added_rows` ([{label: value}]) appended, then `deleted_rows`
    (positions in the frame with the added rows). Labels the sheet does not have are ignored
    (the grid's own display-only columns).
    """
    frame = sheet.frame.copy()
    labels = set(sheet.labels)
    for position, edits in (changes.get("edited_rows") or {}).items():
        row = int(position)
        if not 0 <= row < len(frame):
            continue
        for label, value in edits.items():
            if label in labels:
                frame.iat[row, frame.columns.get_loc(label)] = _normalized_cell(value)
    next_new_row = sheet.next_new_row
    added = []
    added_index = []
    for values in changes.get("added_rows") or []:
        added.append([_normalized_cell(values.get(label)) for label in sheet.labels])
        added_index.append(next_new_row)
        next_new_row -= 1
    if added:
        extra = pd.DataFrame(added, columns=sheet.labels, index=pd.Index(added_index, dtype="int64"), dtype=object)
        frame = pd.concat([frame, extra])
    deleted = sorted({int(p) for p in changes.get("deleted_rows") or [] if 0 <= int(p) < len(frame)})
    if deleted:
        frame = frame.drop(frame.index[deleted])
    return replace(sheet, frame=frame.astype(object), next_new_row=next_new_row)


def has_changes(changes: Mapping[str, Any] | None) -> bool:
    """True when a data editor's state holds any edit, addition or deletion."""
    if not changes:
        return False
    return bool(changes.get("edited_rows") or changes.get("added_rows") or changes.get("deleted_rows"))


def grid_changes(changes: Mapping[str, Any] | None) -> dict[str, Any]:
    """A data editor's state as plain data of its own (row positions as ints, every part present).

    A copy, so a state kept to compare with the next one is never changed under it.
    """
    changes = changes or {}
    return {
        "edited_rows": {int(p): dict(edits) for p, edits in (changes.get("edited_rows") or {}).items()},
        "added_rows": [dict(values) for values in changes.get("added_rows") or []],
        "deleted_rows": sorted({int(p) for p in changes.get("deleted_rows") or []}),
    }


def changed_grid_rows(before: Mapping[str, Any], after: Mapping[str, Any], base_rows: int) -> list[int]:
    """Grid positions whose cells differ between two states of one grid (added rows follow the base's rows).

    The data editor reports its whole state, not the last edit, so the row a person just edited is the one
    whose entry changed since the state seen before.
    """
    old_edits: Mapping[int, Mapping[str, Any]] = before.get("edited_rows") or {}
    new_edits: Mapping[int, Mapping[str, Any]] = after.get("edited_rows") or {}
    touched = [p for p, edits in new_edits.items() if dict(old_edits.get(p, {})) != dict(edits)]
    touched += [p for p in old_edits if p not in new_edits]  # an edit undone is a change too
    old_added: Sequence[Mapping[str, Any]] = before.get("added_rows") or []
    for index, values in enumerate(after.get("added_rows") or []):
        if index >= len(old_added) or dict(old_added[index]) != dict(values):
            touched.append(base_rows + index)
    return touched


@dataclass
class GridFold:
    """What folding a grid's state gives: the sheet as it now stands and the card to show."""

    sheet: EditableSheet
    """The base with the grid's whole state applied."""
    shown: int | None
    """Position (in `sheet`) of the row edited since the state seen before; None when no row's cells changed."""
    rows_deleted: bool
    """True when the grid deleted rows: the rows below them are numbered anew, so the grid must be drawn again."""


@dataclass
class RetiredGrid:
    """A grid replaced by a newer one, kept so that an edit it sends after it was replaced is still applied."""

    base: EditableSheet
    """The sheet that grid was drawn from."""
    folded: dict[str, Any]
    """Its state when it was replaced (already part of the sheet)."""


@dataclass
class GridSession:
    """The card grid's edits, as the data editor keeps them: against the sheet it was drawn from.

    `st.data_editor` keeps its own state (edited cells by row position, added rows, deleted positions) relative
    to the frame it was given, for as long as its key and that frame stay the same; a new frame or key is a new
    grid (scrolled to the top, an open cell editor and any edit in flight thrown away). So the grid is always given
    `base`, and the sheet is `base` with the grid's whole state applied: recomputed on every change from the same
    base, never added onto an edited sheet, so no edit is applied twice and no added row is added twice.
    `rebase` starts a new grid from the sheet as it stands, for changes made outside the grid (the Add card,
    Duplicate and Delete buttons, columns added) and for rows deleted in the grid (the rows after them are
    numbered anew).
    """

    base: EditableSheet
    """The sheet the grid is drawn from."""
    generation: int = 0
    """How many times the grid was started anew; part of its widget key."""
    folded: dict[str, Any] = field(default_factory=lambda: grid_changes(None))
    """The grid state the sheet was last computed from (to tell which row the next change touched)."""
    retired: dict[int, RetiredGrid] = field(default_factory=dict)
    """The last few replaced grids by generation (a slow page can deliver an edit made in one after it went)."""

    MAX_RETIRED = 4
    """Replaced grids kept; a person cannot still be typing into an older one."""

    def row_id(self, grid_position: int) -> int:
        """The row identity (`EditableSheet.frame` index) of a grid row: the base's rows, then rows added in it."""
        return _grid_row_id(self.base, grid_position)

    def fold(self, changes: Mapping[str, Any] | None) -> GridFold:
        """The base with the grid's state applied, and the row that state changed since the one seen before."""
        state = grid_changes(changes)
        sheet = apply_editor_changes(self.base, state)
        touched = changed_grid_rows(self.folded, state, len(self.base.frame))
        self.folded = state
        return GridFold(sheet, _position_of_last(sheet, [self.row_id(p) for p in touched]), bool(state["deleted_rows"]))

    def resync(self, sheet: EditableSheet) -> None:
        """Draw the next grid from `sheet` under the same key (the grid was not on the page, so it holds no edit)."""
        self.base = sheet
        self.folded = grid_changes(None)

    def rebase(self, sheet: EditableSheet) -> None:
        """Start a new grid (next generation) from `sheet`, which already holds every edit of the current one."""
        self.retired[self.generation] = RetiredGrid(self.base, self.folded)
        for old in sorted(self.retired)[: -self.MAX_RETIRED]:
            del self.retired[old]
        self.base = sheet
        self.generation += 1
        self.folded = grid_changes(None)

    def fold_late(
        self, generation: int, changes: Mapping[str, Any] | None, sheet: EditableSheet
    ) -> tuple[EditableSheet, int | None] | None:
        """Edits a replaced grid made after it was replaced, applied to `sheet` by row identity.

        Returns the sheet with them and the position of the last row they touched, or None when that grid
        is unknown or made no new edit. A row deleted since is left deleted.
        """
        retired = self.retired.get(generation)
        if retired is None:
            return None
        state = grid_changes(changes)
        old, base = retired.folded, retired.base
        rows = len(base.frame)
        cells: list[tuple[int, str, Any]] = []
        old_edits: dict[int, dict[str, Any]] = old["edited_rows"]
        for position in sorted(set(state["edited_rows"]) | set(old_edits)):
            if not 0 <= position < rows:
                continue
            now, before = state["edited_rows"].get(position, {}), old_edits.get(position, {})
            for label in now.keys() | before.keys():
                if label not in base.frame.columns:
                    continue
                # An edit undone in the grid puts back the cell as the grid was drawn.
                value = now[label] if label in now else base.frame.iat[position, base.frame.columns.get_loc(label)]
                if label not in before or before[label] != value:
                    cells.append((_grid_row_id(base, position), label, value))
        new_rows: list[dict[str, Any]] = []
        for index, values in enumerate(state["added_rows"]):
            if index >= len(old["added_rows"]):
                new_rows.append(values)
                continue
            for label, value in values.items():
                if old["added_rows"][index].get(label) != value:
                    cells.append((_grid_row_id(base, rows + index), label, value))
        deleted = {
            _grid_row_id(base, p)
            for p in set(state["deleted_rows"]) - set(old["deleted_rows"])
            if 0 <= p < rows + len(state["added_rows"])
        }
        if not cells and not new_rows and not deleted:
            return None
        frame = sheet.frame.copy()
        touched: list[int] = []
        for row_id, label, value in cells:
            if row_id in frame.index and label in frame.columns:
                frame.at[row_id, label] = _normalized_cell(value)
                touched.append(row_id)
        frame = frame.drop([row_id for row_id in deleted if row_id in frame.index])
        next_new_row = sheet.next_new_row
        for values in new_rows:
            frame.loc[next_new_row] = [_normalized_cell(values.get(label)) for label in frame.columns]
            touched.append(next_new_row)
            next_new_row -= 1
        result = replace(sheet, frame=frame.astype(object), next_new_row=next_new_row)
        return result, _position_of_last(result, touched)


def _grid_row_id(base: EditableSheet, grid_position: int) -> int:
    """Row identity of a grid position: the base's own rows, then the rows added in the grid, as folding names them."""
    if grid_position < len(base.frame):
        return int(base.frame.index[grid_position])
    return base.next_new_row - (grid_position - len(base.frame))


def _position_of_last(sheet: EditableSheet, row_ids: Sequence[int]) -> int | None:
    """Position in `sheet` of the last of these rows it still holds."""
    for row_id in reversed(row_ids):
        if row_id in sheet.frame.index:
            return int(sheet.frame.index.get_loc(row_id))
    return None


def field_labels(sheet: EditableSheet, ruleset: Ruleset) -> dict[str, str]:
    """Card-model field -> the frame label of the column holding it (first match wins, as in loading)."""
    out: dict[str, str] = {}
    for label, header in zip(sheet.labels, sheet.headers, strict=True):
        field_name = ruleset.header_lookup.get(normalize_header(header))
        if field_name is not None and field_name not in out:
            out[field_name] = label
    return out


@dataclass(frozen=True)
class CardRename:
    """A card whose name cell changed in one edit, and what became of the decks that named it."""

    row_id: int
    """The card's row identity (`EditableSheet.frame` index), the same through every later edit."""
    row: int
    """The card's row in the sheet after the edit (header = row 1)."""
    old: str
    """Its name before the edit."""
    new: str
    """Its name after the edit."""
    problem: str | None = None
    """Why decks cannot follow this rename (which card a deck line means is not clear); None when they follow."""
    decks: tuple[str, ...] = ()
    """The session's decks that named the old name: they follow (now naming `new`), or, with a `problem`, still name
    `old`. Filled in by whoever changes the decks."""

    @property
    def followed(self) -> bool:
        """True when the decks follow the rename."""
        return self.problem is None

    def note(self) -> str:
        """The rename as a change-log line: `Lantern Sprite renamed to Glow Wisp; decks ember_rush, ... follow.`"""
        head = f"{self.old} renamed to {self.new}"
        if not self.decks:
            return f"{head}; no deck names it." if self.followed else f"{head} ({self.problem}); no deck names it."
        decks = f"deck{'s' if len(self.decks) > 1 else ''} {', '.join(self.decks)}"
        if self.followed:
            return f"{head}; {decks} follow{'s' if len(self.decks) == 1 else ''}."
        return f"{head}, but {self.problem}: {decks} still name{'s' if len(self.decks) == 1 else ''} {self.old}."


def sheet_renames(before: EditableSheet, after: EditableSheet, ruleset: Ruleset) -> list[CardRename]:
    """The cards renamed from `before` to `after`: rows (by row identity) whose name cell holds another text.

    A row added or deleted is no rename; a name cell emptied is no rename either (the card lost its name, and the
    decks naming it show an error). A rename is clear, and decks follow it, when the old name belonged to that card
    alone before the edit and the new name belongs to it alone after the edit. Every clear rename of one edit is
    applied at once, so two cards whose names were swapped in one edit swap their deck lines too (each deck keeps
    the same cards). Otherwise `problem` says why not: a rename to a name another card has (the decks would name
    two cards at once) or from a name another card had too (which of the two the decks meant is not known).
    """
    old_label = field_labels(before, ruleset).get("name")
    new_label = field_labels(after, ruleset).get("name")
    if old_label is None or new_label is None:
        return []
    old_names = before.frame[old_label]
    new_names = after.frame[new_label]
    common = old_names.index.intersection(new_names.index)
    # Every page run folds the grid, so the usual answer (no name changed) is found with one pass over plain lists.
    pairs = zip(common.tolist(), old_names.reindex(common).tolist(), new_names.reindex(common).tolist(), strict=True)
    changed = [(row_id, old, new) for row_id, old, new in pairs if old != new]
    if not changed:
        return []
    before_keys = _name_counts(old_names.tolist())
    after_keys = _name_counts(new_names.tolist())
    positions = {row_id: position for position, row_id in enumerate(after.frame.index)}
    renames: list[CardRename] = []
    for row_id, old_cell, new_cell in changed:
        old, new = _normalized_cell(old_cell), _normalized_cell(new_cell)
        if old is None or new is None or old == new:
            continue
        problem = None
        if after_keys.get(normalize_name(new), 0) > 1:
            problem = f"another card is named {new} too"
        elif before_keys.get(normalize_name(old), 0) > 1:
            problem = f"another card was named {old} too, so which of the two the decks meant is not known"
        elif "\n" in new or "\r" in new:
            problem = "a name on two lines cannot be written in a decklist"
        renames.append(CardRename(int(row_id), after.sheet_row(positions[row_id]), old, new, problem))
    return sorted(renames, key=lambda rename: rename.row)


def _name_counts(names: Sequence[Any]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for name in names:
        text = _normalized_cell(name)
        if text is not None:
            key = normalize_name(text)
            counts[key] = counts.get(key, 0) + 1
    return counts


def composed_renames(renames: Sequence[CardRename]) -> dict[str, str]:
    """First name -> last name of each card renamed (one or more times, in order), by row identity; a card renamed
    back to its first name is left out. For pairing a card's versions before and after a session's edits."""
    first: dict[int, str] = {}
    last: dict[int, str] = {}
    for rename in renames:
        first.setdefault(rename.row_id, rename.old)
        last[rename.row_id] = rename.new
    return {first[row]: last[row] for row in first if normalize_name(first[row]) != normalize_name(last[row])}


def _unique_name(wanted: str, taken: Sequence[Any]) -> str:
    used = {normalize_name(str(name)) for name in taken if name}
    if normalize_name(wanted) not in used:
        return wanted
    number = 2
    while normalize_name(f"{wanted} {number}") in used:
        number += 1
    return f"{wanted} {number}"


def _append_row(sheet: EditableSheet, values: Sequence[str | None]) -> tuple[EditableSheet, int]:
    extra = pd.DataFrame(
        [list(values)], columns=sheet.labels, index=pd.Index([sheet.next_new_row], dtype="int64"), dtype=object
    )
    frame = pd.concat([sheet.frame, extra]).astype(object)
    return replace(sheet, frame=frame, next_new_row=sheet.next_new_row - 1), len(frame) - 1


def add_card(sheet: EditableSheet, ruleset: Ruleset) -> tuple[EditableSheet, int]:
    """A new row at the end named `New card` (unique) of the ruleset's first kind; returns (sheet, its position)."""
    labels = field_labels(sheet, ruleset)
    values: list[str | None] = [None] * len(sheet.labels)
    if "name" in labels:
        names = sheet.frame[labels["name"]].tolist()
        values[sheet.labels.index(labels["name"])] = _unique_name("New card", names)
    if "kind" in labels:
        values[sheet.labels.index(labels["kind"])] = ruleset.kinds[0]
    return _append_row(sheet, values)


def duplicate_card(sheet: EditableSheet, position: int, ruleset: Ruleset) -> tuple[EditableSheet, int]:
    """A copy of the row at `position`, added at the end, its name made unique (`Name (copy)`)."""
    values = list(sheet.frame.iloc[position].tolist())
    labels = field_labels(sheet, ruleset)
    if "name" in labels:
        column = sheet.labels.index(labels["name"])
        original = values[column] or "Card"
        values[column] = _unique_name(f"{original} (copy)", sheet.frame[labels["name"]].tolist())
    return _append_row(sheet, values)


def delete_card(sheet: EditableSheet, position: int) -> EditableSheet:
    """The sheet without the row at `position`."""
    frame = sheet.frame.drop(sheet.frame.index[position]).astype(object)
    return replace(sheet, frame=frame)


def missing_columns(sheet: EditableSheet, ruleset: Ruleset) -> list[str]:
    """Headers of the ruleset's columns the sheet does not have, in the ruleset's order."""
    present = field_labels(sheet, ruleset)
    return [column.header for column in ruleset.columns if column.field not in present]


def add_columns(sheet: EditableSheet, headers: Sequence[str]) -> EditableSheet:
    """The sheet with empty columns appended at the right (saved after the upload's own columns)."""
    wanted = [header for header in headers if header]
    if not wanted:
        return sheet
    all_headers = [*sheet.headers, *wanted]
    labels = unique_labels(all_headers)
    frame = sheet.frame.copy()
    frame.columns = pd.Index(labels[: len(sheet.headers)])
    for label in labels[len(sheet.headers) :]:
        frame[label] = None
    return replace(sheet, headers=all_headers, frame=frame.astype(object))


def content_digest(sheet: EditableSheet, ruleset_id: str) -> str:
    """A hash of everything the findings depend on: ruleset, headers, cells and which cells are formulas."""
    digest = hashlib.sha256()
    digest.update(json.dumps([ruleset_id, sheet.path, sheet.sheet, sheet.headers, sheet.notes]).encode())
    table = to_table(sheet)
    digest.update(json.dumps(table.rows, default=str).encode())
    digest.update(json.dumps(sorted((list(k), v) for k, v in table.formulas.items())).encode())
    return digest.hexdigest()[:24]


def typed_for_save(text: str | None) -> Any:
    """A typed cell as written to xlsx: whole numbers and decimals as numbers, everything else as text."""
    if text is None:
        return None
    if _INTEGER.match(text):
        return int(text)
    if _DECIMAL.match(text):
        return float(text)
    return text


def _card_sheet_name(names: Sequence[str]) -> str:
    return next((n for n in names if n.strip().casefold() == "cards"), names[0])


def _has_set_sheet(names: Sequence[str]) -> bool:
    return any(n.strip().casefold() == "set" for n in names)


def _add_set_sheet(workbook: Any, ruleset_id: str, name: str, version: str) -> None:
    set_sheet = workbook.create_sheet("Set")
    # Every key and value is written as text, never a formula: the set's name comes from a file name such as `=1+1.csv`.
    append_row(set_sheet, ["key", "value"])
    for key, value in (("ruleset", ruleset_id), ("name", name), ("version", version)):
        append_row(set_sheet, [key, value])
    style_header(set_sheet, [18, 40])


def to_xlsx_bytes(
    sheet: EditableSheet,
    ruleset_id: str,
    source: bytes | None = None,
    set_name: str = "",
    decks: DecksSheetContent | None = None,
) -> bytes:
    """The edited sheet as an xlsx workbook.

    With `source` (the uploaded xlsx), every sheet of it is kept and only the card sheet's rows
    are rewritten: a cell whose text is unchanged keeps its original value, type and style; a
    changed or new cell is written as a number or as text. Without it (a csv upload), the
    workbook has a `Cards` sheet. A `Set` sheet naming the ruleset is added when there was none,
    so the file reopens as the same game. With `decks`, the `Decks` sheet is written from it: in
    the place of the upload's own (which is replaced, or kept renamed when it could not be read),
    else after the other sheets; every deck and card name is written as text, never a formula.
    """
    if source is not None and source.startswith(b"PK"):
        # Only the card sheet (and the Decks sheet, when decks are written) go through openpyxl; every other sheet
        # is copied part by part from the upload (workbench/xlsx_package.py).
        names = _package_sheet_names(source, sheet.path)
        card_sheet = _card_sheet_name(names)
        edited = {card_sheet}
        if decks is not None:
            edited |= {n for n in names if n.strip().casefold() == DECKS_SHEET.casefold() and n != card_sheet}

        def edit(workbook: Any) -> None:
            _write_card_sheet(workbook, sheet, card_sheet)
            if not _has_set_sheet(workbook.sheetnames):
                _add_set_sheet(workbook, ruleset_id, set_name, "")
            if decks is not None:
                _write_decks_sheet(workbook, decks, card_sheet)

        return save_package(source, sheet.path, edited, edit)
    else:
        workbook = openpyxl.Workbook()
        worksheet = workbook.active
        worksheet.title = "Cards"
        append_row(worksheet, list(sheet.headers))  # a csv header `=HYPERLINK(...)` stays text, as card cells do
        style_header(worksheet, [max(12, len(h) + 4) for h in sheet.headers])
        for position, values in enumerate(sheet.frame.itertuples(index=False, name=None)):
            for column, value in enumerate(values):
                set_cell_value(
                    worksheet.cell(row=position + 2, column=column + 1), typed_for_save(_normalized_cell(value))
                )
        _add_set_sheet(
            workbook, ruleset_id, set_name or sheet.set_info.get("name", ""), sheet.set_info.get("version", "")
        )
    if decks is not None:
        _write_decks_sheet(workbook, decks, _card_sheet_name(workbook.sheetnames))
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _write_card_sheet(workbook: Any, sheet: EditableSheet, card_sheet: str) -> None:
    """Rewrite the card sheet's rows of a loaded workbook from the edited frame: an unchanged cell keeps its value,
    type and style; a changed or new cell is written as a number or as text (never a formula)."""
    worksheet = workbook[card_sheet]
    width = len(sheet.headers)
    for column in range(sheet.source_width, width):
        header = worksheet.cell(row=1, column=column + 1)
        set_cell_value(header, sheet.headers[column])
        if sheet.source_width:
            header._style = copy.copy(worksheet.cell(row=1, column=sheet.source_width)._style)
    original: dict[tuple[int, int], tuple[Any, str, Any]] = {}
    last_row = worksheet.max_row
    for row_cells in worksheet.iter_rows(min_row=2, max_row=last_row, max_col=width):
        for cell in row_cells:
            original[(cell.row, cell.column - 1)] = (cell.value, cell.data_type, copy.copy(cell._style))
            cell.value = None
    for position, (origin, values) in enumerate(
        zip(sheet.frame.index, sheet.frame.itertuples(index=False, name=None), strict=True)
    ):
        row_number = sheet.sheet_row(position)
        for column, value in enumerate(values):
            text = _normalized_cell(value)
            cell = worksheet.cell(row=row_number, column=column + 1)
            kept = original.get((int(origin), column))
            # A row keeps its own look wherever it moved; a new row gets the default look.
            cell._style = copy.copy(kept[2]) if kept is not None else StyleArray()
            if kept is not None and _original_text(kept[0]) == text:
                _restore_cell(cell, kept[0], kept[1], int(origin))
            else:
                set_cell_value(cell, typed_for_save(text))
    for row_number in range(len(sheet.frame) + 2, last_row + 1):
        for column in range(width):
            cell = worksheet.cell(row=row_number, column=column + 1)
            cell.value = None
            cell._style = StyleArray()


def _package_sheet_names(source: bytes, display: str) -> list[str]:
    try:
        return Workbook(zipfile.ZipFile(io.BytesIO(source))).sheet_names
    except Exception as error:  # zip and XML parsers raise many types; every one means "cannot be saved"
        raise WorkbenchInputError(
            f"the workbook could not be saved: its sheets cannot be listed ({type(error).__name__}: {error}).",
            path=display,
            expected="an .xlsx saved by a spreadsheet program",
        ) from None


def _write_decks_sheet(workbook: Any, content: DecksSheetContent, card_sheet: str) -> None:
    """Replace the workbook's Decks sheet (or add one at the end) with `content`; an unreadable one is kept, renamed."""
    existing = next(
        (n for n in workbook.sheetnames if n.strip().casefold() == DECKS_SHEET.casefold() and n != card_sheet), None
    )
    index = len(workbook.sheetnames)
    title = content.sheet
    if existing is not None:
        index = workbook.sheetnames.index(existing)
        if content.keep_unreadable:
            # Nothing of a sheet the workbench could not read is thrown away: it stays, under a name that is not Decks.
            kept_title, number = f"{existing} (as uploaded)", 2
            while kept_title in workbook.sheetnames:
                kept_title, number = f"{existing} (as uploaded {number})", number + 1
            workbook[existing].title = kept_title
            index += 1
        else:
            title = existing
            workbook.remove(workbook[existing])
    worksheet = workbook.create_sheet(title, index)
    for column, header in enumerate(content.headers, start=1):
        set_cell_value(worksheet.cell(row=1, column=column), header)
    for row_number, values in enumerate(content.rows, start=2):
        for column, value in enumerate(values, start=1):
            cell = worksheet.cell(row=row_number, column=column)
            if isinstance(value, FormulaText):
                cell.value = value.text  # the upload's own formula, written back as it was
            else:
                set_cell_value(cell, value)
    style_header(worksheet, [max(10, len(header) + 4) if header != "name" else 28 for header in content.headers])


def _restore_cell(cell: Any, value: Any, data_type: str, origin_row: int) -> None:
    """Put an unchanged cell back as it was: text stays text, and a formula follows its row if the row moved."""
    if data_type == "f" and isinstance(value, str) and origin_row != cell.row:
        origin = f"{get_column_letter(cell.column)}{origin_row}"
        value = Translator(value, origin=origin).translate_formula(cell.coordinate)
    cell.value = value
    if data_type in ("s", "inlineStr") and isinstance(value, str):
        cell.data_type = "s"  # openpyxl would otherwise read text starting with '=' as a formula


def _original_text(value: Any) -> str | None:
    """The text the grid showed for an original cell (the reader's view: dates as text, whole floats as ints)."""
    if value is not None and not isinstance(value, (str, int, float, bool)):
        value = str(value)
    return cell_text(value)
