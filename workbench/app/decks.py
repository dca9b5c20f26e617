"""Decks page: paste, upload or build a decklist; its findings, its cost curve and its draw odds."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from workbench.app.layout import WRAPPED_ROW_HEIGHT, texts_in_full
from workbench.app.widgets import (
    EMPTY_CELL,
    count_input,
    counts_line,
    csv_download,
    findings_column_config,
    findings_frame,
    page_start,
    require_workspace,
)
from workbench.app.workspace import (
    DeckSource,
    Workspace,
    add_deck,
    current_cardset,
    findings_for,
    get_workspace,
    parse_deck,
    resolved_options,
    stat_budget_for,
)
from workbench.cards import CardSet, WorkbenchInputError
from workbench.charts import deck_cost_curve_figure, draw_odds_figure
from workbench.deck_building import Pick, copies_at_cost, cost_curve, costs_by_card, deck_table, decklist_text
from workbench.decklists import sheet_deck_text
from workbench.draw_odds import odds_by_turn
from workbench.markup import markdown_text

SHOWN_KEY = "deck_shown"
ADD_ERROR_KEY = "deck_add_error"
LAST_DECK_UPLOAD_KEY = "deck_upload_last"
DEFAULT_OPENING_HAND = 5
MAX_TURNS = 20
ORIGIN_LABELS = {
    "bundled": "bundled",
    "pasted": "pasted",
    "uploaded": "uploaded",
    "built": "built",
    "workbook": "from the workbook's Decks sheet",
}
# ORIGIN_LABELS: how the deck picker says where each decklist came from (a comment: Streamlit's magic would write a
# bare string on the page).


def _workspace_and_cards() -> tuple[Workspace, CardSet] | None:
    workspace = get_workspace()
    if workspace is None:
        return None
    return workspace, current_cardset(workspace)


def _added(workspace: Workspace, source: DeckSource) -> None:
    name = add_deck(workspace, source)
    st.session_state[SHOWN_KEY] = name
    st.session_state.pop(ADD_ERROR_KEY, None)
    st.session_state["deck_notice"] = f"Added the decklist '{name}'."


def _add_pasted() -> None:
    opened = _workspace_and_cards()
    text = st.session_state.get("deck_paste_text", "")
    if opened is None:
        return
    if not text.strip():
        st.session_state[ADD_ERROR_KEY] = "The decklist is empty: write one `N Name` per line."
        return
    _added(opened[0], DeckSource(st.session_state.get("deck_paste_name") or "pasted deck", "pasted", text=text))
    st.session_state["deck_paste_text"] = ""


def _add_uploaded() -> None:
    opened = _workspace_and_cards()
    uploaded = st.session_state.get("deck_upload")
    if opened is None or uploaded is None or st.session_state.get(LAST_DECK_UPLOAD_KEY) == uploaded.file_id:
        return
    st.session_state[LAST_DECK_UPLOAD_KEY] = uploaded.file_id
    workspace, cardset = opened
    source = DeckSource(Path(uploaded.name).stem, "uploaded", data=uploaded.getvalue(), filename=uploaded.name)
    try:
        parse_deck(source, cardset)
    except WorkbenchInputError as error:
        st.session_state[ADD_ERROR_KEY] = f"The decklist was not added: {error}"
        return
    _added(workspace, source)


def _add_built() -> None:
    opened = _workspace_and_cards()
    if opened is None:
        return
    workspace, _cardset = opened
    sections = workspace.ruleset.deck_sections
    picks = [
        Pick(
            name,
            int(st.session_state.get(f"deck_pick_count:{name}", 1)),
            st.session_state.get(f"deck_pick_section:{name}", sections[0]),
        )
        for name in st.session_state.get("deck_pick_cards", [])
    ]
    if not picks:
        st.session_state[ADD_ERROR_KEY] = "Pick at least one card."
        return
    text = decklist_text(picks, sections)
    _added(workspace, DeckSource(st.session_state.get("deck_pick_name") or "built deck", "built", text=text))


def _save_text(name: str, key: str) -> None:
    workspace = get_workspace()
    if workspace is not None and name in workspace.decks:
        source = workspace.decks[name]
        source.text = st.session_state.get(key, "")
        source.sheet_deck = None  # a workbook deck edited as text is text from now on (a save writes its lines)


def _remove(name: str) -> None:
    workspace = get_workspace()
    if workspace is not None:
        workspace.decks.pop(name, None)
        st.session_state.pop(SHOWN_KEY, None)


workspace = require_workspace(
    page_start("Decks", "Decklists checked against the construction rules, with their cost curve and draw odds.")
)
ruleset = workspace.ruleset
cardset = current_cardset(workspace)
budget = stat_budget_for(workspace, cardset)
costs = costs_by_card(budget)
options = resolved_options(ruleset)

if notice := st.session_state.pop("deck_notice", None):
    st.success(markdown_text(notice))
for note in workspace.deck_notes:
    st.info(markdown_text(note))
if workspace.decks_sheet is not None and workspace.decks_sheet.findings:
    sheet_findings = workspace.decks_sheet.findings
    with st.expander(f"The workbook's Decks sheet: {counts_line(sheet_findings)}", expanded=True):
        st.dataframe(
            findings_frame(sheet_findings),
            hide_index=True,
            column_config=findings_column_config(),
            width="stretch",
            placeholder=EMPTY_CELL,
        )
        st.caption("Rows that belong to no deck are kept as they are when the set is saved as xlsx.")
        csv_download(
            findings_frame(sheet_findings),
            "decks_sheet_findings.csv",
            f"decks_sheet_findings_csv:{workspace.uid}",
            "Download findings (CSV)",
        )

with st.expander("Add a decklist", expanded=not workspace.decks):
    method = st.radio(
        "How", ["Paste text", "Upload a file", "Pick cards and counts"], horizontal=True, key="deck_add_method"
    )
    if method == "Paste text":
        st.text_input("Deck name", value="pasted deck", key="deck_paste_name")
        st.text_area(
            "Decklist lines",
            key="deck_paste_text",
            height=180,
            placeholder="One card per line: `3 Name`, `3x Name` or `Name`.\n# comments and blank lines are ignored",
        )
        st.button("Add decklist", on_click=_add_pasted, key="deck_add_pasted")
    elif method == "Upload a file":
        st.file_uploader(
            "Decklist file (.txt with `N Name` lines, or .csv/.xlsx with name and count columns)",
            type=["txt", "csv", "xlsx"],
            key="deck_upload",
            on_change=_add_uploaded,
        )
    else:
        st.text_input("Deck name", value="built deck", key="deck_pick_name")
        picked = st.multiselect("Cards", cardset.names, key="deck_pick_cards")
        if picked:
            grid = st.columns(3)
            for index, name in enumerate(picked):
                with grid[index % 3]:
                    st.number_input(
                        f"{name}", min_value=1, max_value=999, value=1, step=1, key=f"deck_pick_count:{name}"
                    )
                    if len(ruleset.deck_sections) > 1:
                        st.selectbox("section", list(ruleset.deck_sections), key=f"deck_pick_section:{name}")
        st.button("Add decklist", on_click=_add_built, key="deck_add_built")
    if problem := st.session_state.get(ADD_ERROR_KEY):
        st.error(markdown_text(problem))

if not workspace.decks:
    st.info("No decklists yet. Add one above.")
    st.stop()

if st.session_state.get(SHOWN_KEY) not in workspace.decks:
    st.session_state[SHOWN_KEY] = next(iter(workspace.decks))
shown = st.selectbox(
    "Decklist",
    list(workspace.decks),
    key=SHOWN_KEY,
    format_func=lambda name: f"{name} ({ORIGIN_LABELS[workspace.decks[name].origin]})",
)
source = workspace.decks[shown]
try:
    deck = parse_deck(source, cardset)
except WorkbenchInputError as error:
    st.error(f"This decklist cannot be read: {markdown_text(error)}")
    st.button("Remove this decklist", on_click=_remove, args=(shown,))
    st.stop()

deck_findings = [f for f in findings_for(workspace, cardset, (deck,)) if f.deck == deck.name]
sizes = " · ".join(f"{section}: {deck.size(section)} cards" for section in ruleset.deck_sections)
st.markdown(f"**{markdown_text(deck.name)}** · {sizes} · {counts_line(deck_findings)}")
if deck_findings:
    st.dataframe(
        findings_frame(deck_findings),
        hide_index=True,
        column_config=findings_column_config(hide=("deck",)),
        width="stretch",
        placeholder=EMPTY_CELL,
        row_height=WRAPPED_ROW_HEIGHT,  # tall enough that a long message wraps in its cell
    )
    texts_in_full(
        "Each finding in full",
        ((f"line {f.row}" if f.row is not None else f.card or f.rule, f.message) for f in deck_findings),
    )
    csv_download(
        findings_frame(deck_findings),
        f"{deck.name}_findings.csv",
        f"deck_findings_csv:{workspace.uid}:{deck.name}",
        "Download findings (CSV)",
    )
else:
    st.success("No findings: the deck keeps every construction rule.")

left, right = st.columns([2, 3], gap="large")
with left:
    if source.sheet_deck is not None:
        sheet_rows = source.sheet_deck.rows
        st.caption(
            f"From the {source.sheet_deck.layout.sheet} sheet of {source.filename}, rows {sheet_rows[0].row} to "
            f"{sheet_rows[-1].row}. Saving changes below makes it a text decklist; Save as xlsx writes it back into "
            "the Decks sheet."
        )
    if source.text is not None or source.sheet_deck is not None:
        # A deck the app changed (a renamed card followed) gets a new box, so it never shows the lines from before.
        text_key = f"deck_text:{workspace.uid}:{shown}" + (f":{source.revision}" if source.revision else "")
        text = source.text if source.sheet_deck is None else sheet_deck_text(source.sheet_deck, ruleset.deck_sections)
        st.text_area("Decklist text", value=text, key=text_key, height=260)
        st.button("Save decklist changes", on_click=_save_text, args=(shown, text_key))
    else:
        st.caption(f"Read from {markdown_text(source.filename)}.")
    cards_table = pd.concat(
        [deck_table(deck, costs, section).assign(section=section) for section in ruleset.deck_sections],
        ignore_index=True,
    )
    st.dataframe(
        cards_table,
        hide_index=True,
        width="stretch",
        column_config={"line": st.column_config.NumberColumn("line", format="%d")},
    )
    st.button("Remove this decklist", on_click=_remove, args=(shown,), key="deck_remove")

with right:
    if budget is None:
        st.info(f"The {ruleset.id} ruleset has no cost axis (no stat budget), so there is no cost curve to draw.")
    else:
        curve = cost_curve(deck, costs)
        if curve.empty:
            st.info(f"No card of this deck has a place on the {budget.cost_label} axis.")
        else:
            st.plotly_chart(deck_cost_curve_figure(curve, budget.cost_label, deck.name), width="stretch")
        uncosted = [name for name in deck.counts() if name not in costs]
        if uncosted:
            st.caption(f"Not on the {budget.cost_label} axis: {markdown_text(', '.join(uncosted))}.")

st.subheader("Draw odds")
deck_size = deck.size()
counts = deck.counts()
if deck_size == 0:
    st.info("The main deck has no cards.")
    st.stop()
mode = st.radio("Chance to hold", ["a chosen card", "a card of a chosen cost"], horizontal=True, key="draw_mode")
settings = st.columns(5)
if mode == "a chosen card":
    card = settings[0].selectbox("Card", list(counts), key="draw_card")
    copies = counts[card][1]
    label = f"at least one {card}"
else:
    deck_costs = sorted({costs[name] for name in counts if name in costs})
    if not deck_costs:
        st.info("No card of this deck has a cost on the ruleset's cost axis.")
        st.stop()
    cost = settings[0].selectbox("Cost", deck_costs, format_func=lambda c: f"{c:g}", key="draw_cost")
    copies = copies_at_cost(deck, costs, cost)
    label = f"a card of cost {cost:g}"
hand_default = options.get("hand_size", DEFAULT_OPENING_HAND)
draw_default = options.get("draw_per_turn", 1)
opening_hand, hand_problem = count_input(
    settings[1],
    "Opening hand",
    0,
    deck_size,
    min(int(hand_default), deck_size),
    key="draw_hand",
    help_text="Prefilled from the ruleset's `hand_size` option when it has one.",
)
per_turn, per_turn_problem = count_input(
    settings[2],
    "Draws per turn",
    0,
    10,
    int(draw_default),
    key="draw_per_turn",
    help_text="Prefilled from the ruleset's `draw_per_turn` option when it has one.",
)
turns, turns_problem = count_input(settings[3], "Up to turn", 1, MAX_TURNS, 8, key="draw_turns")
wanted, wanted_problem = count_input(settings[4], "At least", 1, max(1, copies), 1, key="draw_wanted")
problems = [problem for problem in (hand_problem, per_turn_problem, turns_problem, wanted_problem) if problem]
if problems:
    st.error(" ".join(problems))
    st.stop()
draw_first = st.checkbox(
    "I draw on my first turn (off: the player going first skips that draw)", value=True, key="draw_first"
)
rows = odds_by_turn(deck_size, copies, int(turns), int(opening_hand), int(per_turn), draw_first, int(wanted))
label = label if wanted == 1 else f"at least {wanted} of the {copies}"
odds_left, odds_right = st.columns([2, 3], gap="large")
with odds_left:
    st.caption(f"{copies} of {deck_size} cards count.")
    st.dataframe(
        pd.DataFrame(
            [
                {
                    "turn": r.turn,
                    "cards seen": r.seen,
                    "chance": f"{float(r.probability):.2%}",
                    "exact": str(r.probability),
                }
                for r in rows
            ]
        ),
        hide_index=True,
        width="stretch",
    )
with odds_right:
    st.plotly_chart(draw_odds_figure(rows, label), width="stretch")
st.caption(
    "Exact hypergeometric odds (no sampling). Mulligans, searches and extra draws from card effects are not counted."
)
