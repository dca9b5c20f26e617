"""Card editor page: the cards in a grid, findings beside it, a card preview, and save as xlsx.

The sheet being edited is `Workspace.sheet` in session state. The grid is
drawn from it under a key that changes each time edits are folded in; its
`on_change` callback folds the grid's pending changes into the sheet, so no
edit is lost on rerun (and the page folds any change still pending before it
draws, which is also how a test's edit through session state arrives).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import streamlit as st

from workbench.app.widgets import counts_line, findings_column_config, findings_frame, page_start, require_workspace
from workbench.app.workspace import (
    Workspace,
    current_cardset,
    findings_for,
    get_workspace,
    rule_overrides,
    stat_budget_for,
)
from workbench.card_preview import card_html
from workbench.cards import SEVERITY_ORDER, Finding
from workbench.editing import (
    add_card,
    add_columns,
    apply_editor_changes,
    delete_card,
    duplicate_card,
    field_labels,
    has_changes,
    missing_columns,
    to_xlsx_bytes,
)
from workbench.rulesets.base import normalize_header

ROW_LABEL = "row"
CHECK_LABEL = "check"
XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def grid_key(workspace: Workspace) -> str:
    """The grid's widget key: new for each opened set and after each fold."""
    return f"card_grid:{workspace.uid}:{workspace.editor_version}"


def pick_key(workspace: Workspace) -> str:
    """The widget key of the 'card shown' picker."""
    return f"card_pick:{workspace.uid}"


def fold_pending_edits() -> None:
    """Fold the grid's pending changes into the sheet (the grid's `on_change`, and run before drawing)."""
    workspace = get_workspace()
    if workspace is None:
        return
    changes = st.session_state.get(grid_key(workspace))
    if changes is None or not has_changes(changes):
        return
    workspace.sheet = apply_editor_changes(workspace.sheet, changes)
    workspace.editor_version += 1


def _show_position(workspace: Workspace, position: int) -> None:
    st.session_state[pick_key(workspace)] = position


def _add() -> None:
    workspace = get_workspace()
    if workspace is None:
        return
    fold_pending_edits()
    workspace.sheet, position = add_card(workspace.sheet, workspace.ruleset)
    workspace.editor_version += 1
    _show_position(workspace, position)


def _duplicate() -> None:
    workspace = get_workspace()
    if workspace is None:
        return
    fold_pending_edits()
    position = st.session_state.get(pick_key(workspace))
    if position is None or not 0 <= position < len(workspace.sheet.frame):
        return
    workspace.sheet, new_position = duplicate_card(workspace.sheet, position, workspace.ruleset)
    workspace.editor_version += 1
    _show_position(workspace, new_position)


def _delete() -> None:
    workspace = get_workspace()
    if workspace is None:
        return
    fold_pending_edits()
    position = st.session_state.get(pick_key(workspace))
    if position is None or not 0 <= position < len(workspace.sheet.frame):
        return
    workspace.sheet = delete_card(workspace.sheet, position)
    workspace.editor_version += 1
    _show_position(workspace, max(0, min(position, len(workspace.sheet.frame) - 1)))


def _add_columns(key: str) -> None:
    workspace = get_workspace()
    if workspace is None:
        return
    fold_pending_edits()
    workspace.sheet = add_columns(workspace.sheet, st.session_state.get(key, []))
    workspace.editor_version += 1


def _open_finding(table_key: str, rows: list[int | None]) -> None:
    """A click on a finding shows its card."""
    workspace = get_workspace()
    selection = st.session_state.get(table_key)
    if workspace is None or not selection:
        return
    picked = selection.get("selection", {}).get("rows", [])
    if not picked:
        return
    sheet_row = rows[picked[0]]
    position = workspace.sheet.position_of_row(sheet_row) if sheet_row is not None else None
    if position is not None:
        _show_position(workspace, position)


def _status(findings: list[Finding]) -> str:
    if not findings:
        return "✓"
    errors = sum(f.severity == "error" for f in findings)
    warnings = sum(f.severity == "warning" for f in findings)
    infos = len(findings) - errors - warnings
    parts = [f"✖{errors}" if errors else "", f"⚠{warnings}" if warnings else "", f"ℹ{infos}" if infos else ""]
    return " ".join(p for p in parts if p)


def _free_label(wanted: str, taken: list[str]) -> str:
    """A display-only column label no sheet column uses (`row`, else `row (app)`, ...)."""
    label, number = wanted, 1
    while label in taken:
        label = f"{wanted} (app{'' if number == 1 else f' {number}'})"
        number += 1
    return label


def _grid_config(workspace: Workspace, row_label: str, check_label: str) -> dict[str, Any]:
    ruleset = workspace.ruleset
    specs = {spec.field: spec for spec in ruleset.columns}
    config: dict[str, Any] = {
        row_label: st.column_config.NumberColumn(
            "row", help="The row this card has in the saved sheet (header = row 1).", width="small"
        ),
        check_label: st.column_config.TextColumn(
            "check", help="Findings on this row: ✖ errors, ⚠ warnings, ℹ notes.", width="small"
        ),
    }
    for label, header in zip(workspace.sheet.labels, workspace.sheet.headers, strict=True):
        field_name = ruleset.header_lookup.get(normalize_header(header))
        if field_name is None:
            config[label] = st.column_config.TextColumn(
                header, help=f"Not a {ruleset.id} column: kept as it is and saved back unchanged."
            )
            continue
        spec = specs[field_name]
        help_text = f"{spec.type_name}. {spec.description}"
        if field_name == "kind":
            config[label] = st.column_config.SelectboxColumn(header, help=help_text, options=list(ruleset.kinds))
        else:
            config[label] = st.column_config.TextColumn(header, help=help_text)
    return config


workspace = require_workspace(
    page_start(
        "Card editor", "Edit cells and watch the findings change. Nothing is saved until you download the workbook."
    )
)
fold_pending_edits()
ruleset = workspace.ruleset
sheet = workspace.sheet
cardset = current_cardset(workspace)
findings = [f for f in findings_for(workspace, cardset) if f.deck is None]
budget = stat_budget_for(workspace, cardset)
costs = {point.card: point.cost for point in budget.points} if budget else {}

by_row: dict[int, list[Finding]] = {}
for finding in findings:
    if finding.row is not None:
        by_row.setdefault(finding.row, []).append(finding)
sheet_wide = [f for f in findings if f.row is None]

if workspace.selected_row is not None:
    requested = sheet.position_of_row(workspace.selected_row)
    workspace.selected_row = None
    if requested is not None:
        _show_position(workspace, requested)

st.markdown(
    f"**{workspace.set_name}** · {ruleset.title} (`{ruleset.id}` v{ruleset.version}) · "
    f"{len(cardset)} of {cardset.rows_read} card rows read · {counts_line(findings)}"
)
toolbar = st.columns([1, 1, 1, 2, 3])
toolbar[0].button("Add card", on_click=_add, icon=":material/add:")
toolbar[1].button(
    "Duplicate", on_click=_duplicate, icon=":material/content_copy:", help="Duplicate the card shown on the right."
)
toolbar[2].button("Delete", on_click=_delete, icon=":material/delete:", help="Delete the card shown on the right.")
download_name = f"{Path(workspace.filename).stem}.xlsx"
toolbar[3].download_button(
    "Save as xlsx",
    data=lambda: to_xlsx_bytes(workspace.sheet, workspace.ruleset_id, workspace.source, workspace.set_name),
    file_name=download_name,
    mime=XLSX_MIME,
    on_click="ignore",
    type="primary",
    icon=":material/download:",
    help="Every sheet and column of the upload is kept; only the card rows are rewritten.",
)
if sheet_wide:
    toolbar[4].warning(" ".join(f.message for f in sheet_wide))

missing = missing_columns(sheet, ruleset)
if missing:
    with st.expander(f"This sheet has no {', '.join(missing)} column{'s' if len(missing) > 1 else ''}"):
        columns_key = f"add_columns:{workspace.uid}"
        st.multiselect(
            f"{ruleset.id} columns to add (at the right of the sheet)", missing, default=missing, key=columns_key
        )
        st.button("Add the columns", on_click=_add_columns, args=(columns_key,), key="add_columns_button")

# Empty cells show as blank rather than "None"; a blank edit folds back to an empty cell either way.
display = sheet.frame.reset_index(drop=True).astype(object).fillna("")
row_label = _free_label(ROW_LABEL, sheet.labels)
check_label = _free_label(CHECK_LABEL, sheet.labels)
display.insert(0, check_label, [_status(by_row.get(sheet.sheet_row(p), [])) for p in range(len(display))])
display.insert(0, row_label, [sheet.sheet_row(p) for p in range(len(display))])

grid_side, card_side = st.columns([3, 2], gap="medium")
with grid_side:
    st.data_editor(
        display,
        key=grid_key(workspace),
        on_change=fold_pending_edits,
        num_rows="dynamic",
        hide_index=True,
        disabled=[row_label, check_label],
        column_config=_grid_config(workspace, row_label, check_label),
        height=min(640, 38 + 35 * (len(display) + 1)),
        width="stretch",
    )
    st.caption(
        "Click a cell to edit it; press Enter to commit. Add rows at the bottom of the grid; "
        "select rows and press Delete to remove them."
    )

with card_side:
    names_label = field_labels(sheet, ruleset).get("name")
    positions = list(range(len(sheet.frame)))
    if not positions:
        st.info("The sheet has no rows. Add a card.")
    else:
        key = pick_key(workspace)
        if st.session_state.get(key) not in positions:
            st.session_state[key] = 0

        def _label(position: int) -> str:
            name = sheet.frame.iat[position, sheet.labels.index(names_label)] if names_label else None
            marks = by_row.get(sheet.sheet_row(position), [])
            worst = min((SEVERITY_ORDER[f.severity] for f in marks), default=None)
            flag = {0: " ✖", 1: " ⚠", 2: " ℹ"}.get(worst, "") if worst is not None else ""
            return f"row {sheet.sheet_row(position)} · {name or '(no name)'}{flag}"

        position = st.selectbox("Card shown", positions, format_func=_label, key=key)
        row_number = sheet.sheet_row(position)
        card_findings = by_row.get(row_number, [])
        values = sheet.frame.iloc[position].tolist()
        name = values[sheet.labels.index(names_label)] if names_label else None
        st.html(
            card_html(
                ruleset,
                sheet.headers,
                values,
                card_findings,
                cost=costs.get(str(name)) if name else None,
                cost_label=budget.cost_label if budget else "cost",
                row=row_number,
            )
        )
        if not card_findings:
            st.success("No findings on this card.")

st.subheader("Findings")
if not findings:
    st.success("No findings: every card fits its cost formula and every cell reads.")
else:
    table = findings_frame(findings)
    table_key = f"findings_table:{workspace.uid}:{workspace.digest}"
    st.dataframe(
        table,
        key=table_key,
        on_select=partial(_open_finding, table_key, [f.row for f in findings]),
        selection_mode="single-row",
        hide_index=True,
        column_config=findings_column_config(hide=("deck",)),
        width="stretch",
    )
    st.caption("Select a finding to show its card on the right.")

changed_options = rule_overrides(ruleset)
st.caption(
    (
        "Checked under rule options changed from the defaults: "
        + ", ".join(f"`{key}={value}`" for key, value in changed_options.items())
        if changed_options
        else f"Checked under the {ruleset.id} rule options' defaults"
    )
    + ". Change them on the Rules page."
)
