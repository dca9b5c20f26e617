"""Stat budget page: each card's budget against its cost, with the document's formula as the line.

The points and the line come from the ruleset's `stat_budget`; click a point
(or box-select several) to open the card in the editor.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from workbench.app import CARD_EDITOR
from workbench.app.widgets import EMPTY_CELL, page_start, require_workspace
from workbench.app.workspace import current_cardset, findings_for, stat_budget_for
from workbench.cards import SEVERITY_ORDER
from workbench.charts import selected_cards, stat_budget_figure
from workbench.markup import markdown_text

NONCE_KEY = "stat_budget_chart_nonce"


def open_in_editor(sheet_row: int) -> None:
    """Ask the editor to show this row, and go there."""
    workspace.selected_row = sheet_row
    st.session_state[NONCE_KEY] = st.session_state.get(NONCE_KEY, 0) + 1
    st.switch_page(CARD_EDITOR.path)


workspace = require_workspace(
    page_start("Stat budget", "What each card spends against what it costs, next to the rule document's formula.")
)
ruleset = workspace.ruleset
cardset = current_cardset(workspace)
budget = stat_budget_for(workspace, cardset)
if budget is None:
    st.info(
        f"The {ruleset.title} ruleset (`{ruleset.id}`) has no stat budget chart yet: it does not say how a card's "
        "stats relate to its cost, so there is no formula line to draw."
    )
    st.stop()
assert budget is not None

severities: dict[str, str] = {}
finding_counts: dict[str, int] = {}
for finding in findings_for(workspace, cardset):
    if finding.card is None or finding.deck is not None:
        continue
    finding_counts[finding.card] = finding_counts.get(finding.card, 0) + 1
    current = severities.get(finding.card)
    if current is None or SEVERITY_ORDER[finding.severity] < SEVERITY_ORDER[current]:
        severities[finding.card] = finding.severity

if not budget.points:
    st.info(
        f"No card of {workspace.set_name} has a place on this chart "
        f"({budget.cost_label} against {budget.budget_label})."
    )
    st.stop()

figure = stat_budget_figure(budget, severities)
figure.update_layout(height=520)
event = st.plotly_chart(
    figure,
    on_select="rerun",
    selection_mode=("points", "box", "lasso"),
    key=f"stat_budget_chart:{workspace.uid}:{st.session_state.get(NONCE_KEY, 0)}",
    width="stretch",
)
st.caption(
    f"Line: {budget.line_label}. A ring marks a card with findings (red error, orange warning, blue note). "
    "Click a card to open it in the editor, or drag a box round several."
)
picked = selected_cards(figure, event.selection.points if event else [])
if len(picked) == 1:
    open_in_editor(picked[0][1])
elif picked:
    st.write(f"{len(picked)} cards selected:")
    for card, row in picked:
        if st.button(f"Open {markdown_text(card)} (row {row})", key=f"open_budget_card:{row}"):
            open_in_editor(row)

st.subheader("Cards on the chart")
table = pd.DataFrame(
    [
        {
            "row": point.row,
            "card": point.card,
            "kind": point.kind,
            budget.cost_label: point.cost,
            budget.budget_label: point.budget,
            "formula allows": point.expected_budget,
            "findings": finding_counts.get(point.card, 0),
        }
        for point in budget.points
    ]
)
# A card the formula gives no figure for shows an empty mark, not "None".
st.dataframe(table, hide_index=True, width="stretch", placeholder=EMPTY_CELL)
with st.form("open_card_form", border=False):
    choices = {f"row {point.row} · {point.card}": point.row for point in budget.points}
    choice = st.selectbox("Open a card in the editor", list(choices))
    if st.form_submit_button("Open in editor") and choice is not None:
        open_in_editor(choices[choice])
