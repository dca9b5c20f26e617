"""Card editor page: the card shown, the cards in a grid, the findings in a tab beside it, and save as xlsx.

The sheet being edited is `Workspace.sheet` in session state. The grid keeps
one widget key for as long as it can (so its scroll position, the cell being
typed into and every edit in flight survive each rerun): it is always drawn
from the same base sheet, and the sheet is that base with the grid's whole
state applied (`workbench.editing.GridSession`). The grid's `on_change`
callback recomputes the sheet, so every other page sees each edit at once, and
the page does the same before it draws (which is also how a test's edit
through session state arrives). Changes made outside the grid (the buttons,
columns added) and rows deleted in the grid start a new grid from the sheet as
it stands, scrolled to the card shown.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import streamlit as st

from workbench.app.layout import ROW_COLUMN_PX, pinned_widths
from workbench.app.widgets import (
    EMPTY_CELL,
    counts_line,
    csv_download,
    findings_column_config,
    findings_frame,
    option_pair,
    page_start,
    require_workspace,
)
from workbench.app.workspace import (
    Workspace,
    current_cardset,
    deck_error_lines,
    deck_findings,
    findings_for,
    get_workspace,
    macros_note,
    rename_notes,
    replace_sheet,
    rule_overrides,
    stat_budget_for,
    workspace_xlsx_bytes,
)
from workbench.card_preview import card_html
from workbench.cards import Finding
from workbench.editing import (
    EditableSheet,
    GridSession,
    add_card,
    add_columns,
    delete_card,
    duplicate_card,
    field_labels,
    missing_columns,
)
from workbench.markup import markdown_text
from workbench.rulesets.base import normalize_header

ROW_LABEL = "row"
XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
# (No docstrings under these: a page script would write them on the page.)
GRID_ROW_HEIGHT = 35  # pixels per grid row (the data editor's default), used to scroll the grid to a card
GRID_MAX_HEIGHT = 420  # the grid's height once the sheet has more rows than fit (it scrolls inside)


def grid_key(uid: int, generation: int) -> str:
    """The grid's widget key: one per opened set and grid generation (also its CSS class `st-key-...`)."""
    return f"card_grid_{uid}_{generation}"


def pick_key(workspace: Workspace) -> str:
    """The widget key of the 'card shown' picker."""
    return f"card_pick:{workspace.uid}"


def _session_key(uid: int) -> str:
    return f"card_grid_session_{uid}"


def _scroll_key(uid: int) -> str:
    return f"card_grid_scroll_{uid}"


def grid_session(workspace: Workspace) -> GridSession:
    """The open set's grid session (started from its sheet the first time; other sets' sessions are dropped)."""
    key = _session_key(workspace.uid)
    session = st.session_state.get(key)
    if not isinstance(session, GridSession):
        for stale in [k for k in st.session_state if str(k).startswith("card_grid_session_")]:
            del st.session_state[stale]
        session = GridSession(base=workspace.sheet)
        st.session_state[key] = session
    return session


def _show_position(workspace: Workspace, position: int | None, scroll: bool = False) -> None:
    """Make `position` the card shown; with `scroll`, bring it into the grid's view too."""
    if position is None:
        return
    st.session_state[pick_key(workspace)] = position
    if scroll:
        st.session_state[_scroll_key(workspace.uid)] = True


def _fold(workspace: Workspace, grid: GridSession, changes: Any) -> None:
    """The sheet from the grid's state; the card shown follows the row just edited; deleted rows start a new grid."""
    folded = grid.fold(changes)
    replace_sheet(workspace, folded.sheet)  # the session's decks follow a card renamed in the grid
    _show_position(workspace, folded.shown)
    if folded.rows_deleted:
        _rebase(workspace, workspace.sheet)


def _rebase(workspace: Workspace, sheet: EditableSheet) -> None:
    """A new grid from `sheet` (which holds every edit made so far), scrolled to the card shown."""
    replace_sheet(workspace, sheet)
    grid_session(workspace).rebase(sheet)
    st.session_state[_scroll_key(workspace.uid)] = True


def _grid_changed(uid: int, generation: int) -> None:
    """The grid's `on_change`: fold its state; a replaced grid's late edit is applied by row and starts a new grid."""
    workspace = get_workspace()
    if workspace is None or workspace.uid != uid:
        return
    grid = grid_session(workspace)
    changes = st.session_state.get(grid_key(uid, generation))
    if generation == grid.generation:
        _fold(workspace, grid, changes)
        return
    late = grid.fold_late(generation, changes, workspace.sheet)
    if late is not None:
        sheet, shown = late
        _rebase(workspace, sheet)
        _show_position(workspace, shown, scroll=True)


def sync_grid(workspace: Workspace) -> tuple[GridSession, bool]:
    """Fold the grid's state into the sheet before drawing; returns the session and whether the grid is new on the page.

    A grid whose key has no state is not on the page (first draw, a new generation, or coming back from
    another page, whose run dropped the grid's state after its edits were folded into the sheet), so it is
    drawn from the sheet as it stands.
    """
    grid = grid_session(workspace)
    key = grid_key(workspace.uid, grid.generation)
    if key in st.session_state:
        _fold(workspace, grid, st.session_state[key])
        grid = grid_session(workspace)
        return grid, grid_key(workspace.uid, grid.generation) != key
    if grid.base is not workspace.sheet:
        grid.resync(workspace.sheet)
    return grid, True


def _current_position(workspace: Workspace) -> int | None:
    position = st.session_state.get(pick_key(workspace))
    return position if isinstance(position, int) and 0 <= position < len(workspace.sheet.frame) else None


def _add() -> None:
    workspace = get_workspace()
    if workspace is None:
        return
    sync_grid(workspace)
    sheet, position = add_card(workspace.sheet, workspace.ruleset)
    _rebase(workspace, sheet)
    _show_position(workspace, position, scroll=True)


def _duplicate() -> None:
    workspace = get_workspace()
    if workspace is None:
        return
    sync_grid(workspace)
    position = _current_position(workspace)
    if position is None:
        return
    sheet, new_position = duplicate_card(workspace.sheet, position, workspace.ruleset)
    _rebase(workspace, sheet)
    _show_position(workspace, new_position, scroll=True)


def _delete() -> None:
    workspace = get_workspace()
    if workspace is None:
        return
    sync_grid(workspace)
    position = _current_position(workspace)
    if position is None:
        return
    sheet = delete_card(workspace.sheet, position)
    _rebase(workspace, sheet)
    _show_position(workspace, max(0, min(position, len(sheet.frame) - 1)), scroll=True)


def _add_columns(key: str) -> None:
    workspace = get_workspace()
    if workspace is None:
        return
    sync_grid(workspace)
    _rebase(workspace, add_columns(workspace.sheet, st.session_state.get(key, [])))


def _picked() -> None:
    """A card picked in 'Card shown' is brought into the grid's view."""
    workspace = get_workspace()
    if workspace is not None:
        st.session_state[_scroll_key(workspace.uid)] = True


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
    _show_position(workspace, position, scroll=True)


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


def _grid_config(sheet: EditableSheet, workspace: Workspace, row_label: str) -> dict[str, Any]:
    """Column help from the ruleset; the row, the name and the cost columns pinned at the left, with widths that
    keep them pinned in a 1024-pixel window (`workbench.app.layout.pinned_widths`)."""
    ruleset = workspace.ruleset
    specs = {spec.field: spec for spec in ruleset.columns}
    pinned = {"name", *ruleset.cost_fields}
    config: dict[str, Any] = {
        row_label: st.column_config.NumberColumn(
            "row",
            help="The row this card has in the saved sheet (header = row 1); empty for a row added in the grid.",
            width=ROW_COLUMN_PX,
            pinned=True,
        ),
    }
    first_of_field: dict[str, str] = field_labels(sheet, ruleset)
    headers = dict(zip(sheet.labels, sheet.headers, strict=True))
    widths = pinned_widths(
        first_of_field.get("name"),
        {
            first_of_field[field_name]: headers[first_of_field[field_name]]
            for field_name in ruleset.cost_fields
            if field_name in first_of_field
        },
    )
    for label, header in headers.items():
        field_name = ruleset.header_lookup.get(normalize_header(header))
        if field_name is None:
            config[label] = st.column_config.TextColumn(
                header, help=f"Not a {ruleset.id} column: kept as it is and saved back unchanged."
            )
            continue
        spec = specs[field_name]
        help_text = f"{spec.type_name}. {spec.description}"
        pin = field_name in pinned and first_of_field.get(field_name) == label
        if field_name == "kind":
            config[label] = st.column_config.SelectboxColumn(header, help=help_text, options=list(ruleset.kinds))
        else:
            config[label] = st.column_config.TextColumn(
                header, help=help_text, pinned=pin or None, width=widths.get(label) if pin else None
            )
    return config


def _scroll_script(key: str, position: int, nonce: int, page_too: bool) -> str:
    """JavaScript that scrolls the grid (found by its key's CSS class) until row `position` is in view.

    With `page_too`, the page is scrolled as well when the row is outside the window (a card added or picked;
    not when the grid is merely drawn again). Only numbers and the key (letters, digits, underscores) go into
    it. A newer script (higher nonce) takes over from an older one still waiting for its grid to be drawn or
    its tab to be opened.
    """
    return f"""<script>
(() => {{
  const nonce = {nonce};
  window.cardGridScroll = nonce;
  let tries = 0;
  const scroll = () => {{
    if (window.cardGridScroll !== nonce) return;
    const grid = document.querySelector(".st-key-{key} [data-testid='stDataFrame']");
    const scroller = grid && grid.querySelector(".dvn-scroller");
    if (!scroller || scroller.clientHeight === 0) {{
      if (tries++ < 300) setTimeout(scroll, 100);
      return;
    }}
    const rowHeight = {GRID_ROW_HEIGHT};
    const top = {position} * rowHeight;
    const visible = scroller.clientHeight - rowHeight;
    if (top < scroller.scrollTop || top + rowHeight > scroller.scrollTop + visible) {{
      scroller.scrollTop = Math.max(0, top - (visible - rowHeight) / 2);
    }}
    // Then the page (Streamlit scrolls a block inside it), when the row is outside the window.
    const rowTop = scroller.getBoundingClientRect().top + rowHeight + top - scroller.scrollTop;
    if ({"true" if page_too else "false"} && (rowTop < 0 || rowTop + rowHeight > window.innerHeight)) {{
      let box = grid.parentElement;
      while (box && !(box.scrollHeight > box.clientHeight && /(auto|scroll)/.test(getComputedStyle(box).overflowY))) {{
        box = box.parentElement;
      }}
      (box || document.scrollingElement).scrollTop += rowTop - window.innerHeight / 2;
    }}
  }};
  scroll();
}})();
</script>"""


workspace = require_workspace(
    page_start(
        "Card editor", "Edit cells and watch the findings change. Nothing is saved until you download the workbook."
    )
)
grid, grid_is_new = sync_grid(workspace)
if workspace.selected_row is not None:
    requested = workspace.sheet.position_of_row(workspace.selected_row)
    workspace.selected_row = None
    _show_position(workspace, requested, scroll=True)

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
names_label = field_labels(sheet, ruleset).get("name")


def _card_name(position: int) -> str:
    name = sheet.frame.iat[position, sheet.labels.index(names_label)] if names_label else None
    return str(name) if name else "(no name)"


def _label(position: int) -> str:
    """`row 12 · Ember Imp · ⚠1` (✓ when the card has no finding)."""
    row = sheet.sheet_row(position)
    return f"row {row} · {_card_name(position)} · {_status(by_row.get(row, []))}"


st.markdown(
    f"**{markdown_text(workspace.set_name)}** · {ruleset.title} (`{ruleset.id}` v{ruleset.version}) · "
    f"{len(cardset)} of {cardset.rows_read} card rows read · {counts_line(findings)}"
)
# A deck broken by an edit (a card deleted, a rename onto another card's name) is shown here, where the edit was made.
deck_errors = deck_error_lines(*deck_findings(workspace, cardset))
if deck_errors:
    st.error(
        "**Decks with errors** (the Decks page shows each deck whole):\n\n"
        + "\n".join(f"- {markdown_text(line)}" for line in deck_errors)
    )
if renamed := rename_notes(workspace):
    earlier = f" ({len(renamed) - 3} earlier on the Compare versions page)" if len(renamed) > 3 else ""
    st.caption("Renamed this session: " + " ".join(markdown_text(note) for note in renamed[-3:]) + earlier)
# A row that wraps rather than squeezes: each button keeps its words in a narrow window.
with st.container(horizontal=True, key="editor_toolbar"):
    st.button("Add card", on_click=_add, icon=":material/add:", help="Add a card at the end of the sheet.")
    st.button("Duplicate", on_click=_duplicate, icon=":material/content_copy:", help="Duplicate the card shown.")
    st.button("Delete", on_click=_delete, icon=":material/delete:", help="Delete the card shown.")
    download_name = f"{Path(workspace.filename).stem}.xlsx"
    st.download_button(
        "Save as xlsx",
        data=lambda: workspace_xlsx_bytes(workspace),
        file_name=download_name,
        mime=XLSX_MIME,
        on_click="ignore",
        type="primary",
        icon=":material/download:",
        help=(
            "Every sheet and column of the upload is kept; the card rows are rewritten and the session's decklists "
            "are written to the Decks sheet."
        ),
    )
if macros := macros_note(workspace):
    st.warning(macros)
if sheet_wide:
    st.warning(" ".join(f.message for f in sheet_wide))

missing = missing_columns(sheet, ruleset)
if missing:
    with st.expander(f"This sheet has no {', '.join(missing)} column{'s' if len(missing) > 1 else ''}"):
        columns_key = f"add_columns:{workspace.uid}"
        st.multiselect(
            f"{ruleset.id} columns to add (at the right of the sheet)", missing, default=missing, key=columns_key
        )
        st.button("Add the columns", on_click=_add_columns, args=(columns_key,), key="add_columns_button")

positions = list(range(len(sheet.frame)))
key = pick_key(workspace)
if positions and st.session_state.get(key) not in positions:
    st.session_state[key] = 0
shown_position = st.session_state.get(key) if positions else None

with st.expander(
    f"Card shown: {_label(shown_position)}" if shown_position is not None else "Card shown",
    expanded=False,  # open, it would push the grid below a 900-pixel window; it stays as the person leaves it
):
    if shown_position is None:
        st.info("The sheet has no rows. Add a card.")
    else:
        preview_side, pick_side = st.columns([2, 3], gap="medium")
        with pick_side:
            position = st.selectbox("Card shown", positions, format_func=_label, key=key, on_change=_picked)
            st.caption("Follows the cell you edit. Pick a card here, or select a finding, to show another.")
        row_number = sheet.sheet_row(position)
        card_findings = by_row.get(row_number, [])
        values = sheet.frame.iloc[position].tolist()
        name = values[sheet.labels.index(names_label)] if names_label else None
        with preview_side:
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
        with pick_side:
            if card_findings:
                st.warning(f"{counts_line(card_findings)} on this card: listed under it, with what was expected.")
            else:
                st.success("No findings on this card.")

cards_tab, findings_tab = st.tabs(["Cards", "Findings"])
with cards_tab:
    # The grid is drawn from the session's base, never from the edited sheet: a new frame would be a new grid.
    base = grid.base
    display = base.frame.reset_index(drop=True).astype(object).fillna("")  # empty cells show blank, not "None"
    row_label = _free_label(ROW_LABEL, base.labels)
    display.insert(0, row_label, [base.sheet_row(p) for p in range(len(display))])
    current_key = grid_key(workspace.uid, grid.generation)
    st.data_editor(
        display,
        key=current_key,
        on_change=_grid_changed,
        args=(workspace.uid, grid.generation),
        num_rows="dynamic",
        hide_index=True,
        disabled=[row_label],
        column_config=_grid_config(base, workspace, row_label),
        height=min(GRID_MAX_HEIGHT, 38 + GRID_ROW_HEIGHT * (len(display) + 1)),
        width="stretch",
    )
    csv_download(
        workspace.sheet.frame,  # the cards as edited so far, one column per header
        f"{Path(workspace.filename).stem or 'cards'}.csv",
        f"grid_csv:{workspace.uid}:{grid.generation}",
        "Download cards (CSV)",
    )
    st.caption(
        "Double-click a cell (or select it and type) to edit it; Enter commits. Add a row at the bottom of the grid "
        "or with Add card; select rows at the left and press Delete to remove them. Findings: "
        f"{counts_line(findings)}, listed on the Findings tab."
    )

with findings_tab:
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
            placeholder=EMPTY_CELL,
        )
        st.caption("Select a finding to show its card above.")
        csv_download(
            table, "findings.csv", f"findings_csv:{workspace.uid}:{workspace.digest}", "Download findings (CSV)"
        )

changed_options = rule_overrides(ruleset)
st.caption(
    (
        "Checked under rule options changed from the defaults: "
        + ", ".join(option_pair(key, value) for key, value in changed_options.items())
        if changed_options
        else f"Checked under the {ruleset.id} rule options' defaults"
    )
    + ". Change them on the Rules page."
)

scroll_key = _scroll_key(workspace.uid)
scroll_asked = bool(st.session_state.get(scroll_key))
if (grid_is_new or scroll_asked) and shown_position is not None:
    st.session_state[scroll_key] = False
    nonce = int(st.session_state.get("card_grid_scroll_nonce", 0)) + 1
    st.session_state["card_grid_scroll_nonce"] = nonce
    st.html(_scroll_script(current_key, st.session_state[key], nonce, scroll_asked), unsafe_allow_javascript=True)
