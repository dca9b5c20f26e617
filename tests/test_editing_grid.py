"""The card grid's edit session (`workbench.editing.GridSession`): the sheet is the base plus the grid's whole state.

The data editor reports every edit since the grid was drawn, each time anything changes; these tests feed it
the states a browser sends and check that each edit is applied once, on the row it was made on, also when it
arrives from a grid already replaced by a newer one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workbench.editing import EditableSheet, GridFold, GridSession, add_card, delete_card, sheet_from_table
from workbench.rulesets import get_ruleset
from workbench.spreadsheets import SheetTable

SOULS = get_ruleset("souls")
HEADERS = ["name", "kind", "soul_cost", "atk", "def"]
CARDS = [
    ["Ember Imp", "monster", 0, 3, 2],
    ["Marsh Lurker", "monster", 1, 4, 5],
    ["Cinder Hound", "monster", 2, 4, 2],
    ["Stone Warden", "monster", 2, 5, 9],
]


def _session() -> GridSession:
    table = SheetTable(
        path="cards.csv",
        sheet="cards.csv",
        headers=HEADERS,
        rows=[(row, list(values)) for row, values in enumerate(CARDS, start=2)],
    )
    return GridSession(base=sheet_from_table(table))


def _state(
    edited: dict[int, dict[str, Any]] | None = None,
    added: list[dict[str, Any]] | None = None,
    deleted: Sequence[int] = (),
) -> dict[str, Any]:
    return {"edited_rows": edited or {}, "added_rows": added or [], "deleted_rows": list(deleted)}


def _column(fold_or_sheet: GridFold | EditableSheet, label: str) -> list[Any]:
    sheet = fold_or_sheet.sheet if isinstance(fold_or_sheet, GridFold) else fold_or_sheet
    return sheet.frame[label].tolist()


def test_the_same_state_folded_again_changes_nothing_and_added_rows_stay_single() -> None:
    grid = _session()
    state = _state({1: {"atk": "6"}}, added=[{"name": "Newt", "kind": "monster"}])
    first = grid.fold(state)
    again = grid.fold(state)
    assert _column(first, "atk") == _column(again, "atk") == ["3", "6", "4", "5", None]
    assert _column(again, "name") == ["Ember Imp", "Marsh Lurker", "Cinder Hound", "Stone Warden", "Newt"]
    assert again.shown is None  # nothing changed since the state before
    assert _column(grid.base, "atk") == ["3", "4", "4", "5"]  # the base the grid is drawn from is never edited


def test_the_row_shown_is_the_one_the_last_change_touched() -> None:
    grid = _session()
    assert grid.fold(_state({2: {"def": "3"}})).shown == 2
    assert grid.fold(_state({2: {"def": "3"}, 0: {"atk": "2"}})).shown == 0
    assert grid.fold(_state({2: {"def": "3"}, 0: {"atk": "2"}}, added=[{"name": "Newt"}])).shown == 4
    assert grid.fold(_state({2: {"def": "3"}, 0: {"atk": "2"}}, added=[{"name": "Newt", "atk": "1"}])).shown == 4
    assert grid.fold(_state({0: {"atk": "2"}}, added=[{"name": "Newt", "atk": "1"}])).shown == 2  # an edit undone


def test_rows_deleted_in_the_grid_ask_for_a_new_grid() -> None:
    grid = _session()
    fold = grid.fold(_state({3: {"atk": "4"}}, deleted=[0]))
    assert fold.rows_deleted
    assert _column(fold, "name") == ["Marsh Lurker", "Cinder Hound", "Stone Warden"]
    assert fold.shown == 2  # Stone Warden, now third
    grid.rebase(fold.sheet)
    assert grid.generation == 1 and grid.base is fold.sheet
    assert not grid.fold(_state()).rows_deleted


def test_an_edit_a_replaced_grid_sends_late_lands_on_its_card_by_identity() -> None:
    grid = _session()
    grid.fold(_state({0: {"atk": "2"}}))
    sheet, _ = add_card(grid.fold(_state({0: {"atk": "2"}})).sheet, SOULS)
    sheet = delete_card(sheet, 1)  # Marsh Lurker goes: Stone Warden moves from position 3 to 2
    grid.rebase(sheet)
    late = grid.fold_late(0, _state({0: {"atk": "2"}, 3: {"def": "8"}}), sheet)
    assert late is not None
    moved, shown = late
    assert _column(moved, "name") == ["Ember Imp", "Cinder Hound", "Stone Warden", "New card"]
    assert _column(moved, "def") == ["2", "2", "8", None]
    assert _column(moved, "atk") == ["2", "4", "5", None]  # the edit folded before the rebase is not applied again
    assert shown == 2


def test_a_late_edit_on_a_deleted_card_is_dropped_and_a_late_added_row_is_added_once() -> None:
    grid = _session()
    grid.fold(_state())
    sheet = delete_card(grid.base, 0)
    grid.rebase(sheet)
    late = grid.fold_late(0, _state({0: {"atk": "9"}}, added=[{"name": "Newt", "kind": "monster"}]), sheet)
    assert late is not None
    moved, shown = late
    assert _column(moved, "name") == ["Marsh Lurker", "Cinder Hound", "Stone Warden", "Newt"]
    assert "9" not in _column(moved, "atk")
    assert shown == 3


def test_nothing_new_from_a_replaced_grid_or_an_unknown_one_changes_nothing() -> None:
    grid = _session()
    state = _state({1: {"atk": "6"}})
    grid.rebase(grid.fold(state).sheet)
    assert grid.fold_late(0, state, grid.base) is None
    assert grid.fold_late(7, _state({1: {"atk": "1"}}), grid.base) is None
    for _ in range(GridSession.MAX_RETIRED + 2):
        grid.rebase(grid.base)
    assert sorted(grid.retired) == list(range(grid.generation - GridSession.MAX_RETIRED, grid.generation))
