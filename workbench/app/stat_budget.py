"""Stat budget page: each card's budget against its cost, with the document's formula as the line, and what each stat
is worth in play beside it.

The points and the line come from the ruleset's `stat_budget`; click a point
(or box-select several) to open the card in the editor. The section *What each
stat is worth in play* runs `workbench.stat_values.stat_values` (a designed
experiment over synthetic cards) and draws its rates beside the document's
formula and its curves; a game it does not cover says why in words.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import pandas as pd
import streamlit as st

from workbench.app import CARD_EDITOR
from workbench.app.widgets import (
    EMPTY_CELL,
    count_input,
    deck_picker,
    engine_and_decks,
    page_start,
    require_workspace,
    run_notice,
    run_with_progress,
)
from workbench.app.wording import see_docs
from workbench.app.workspace import (
    Workspace,
    current_cardset,
    findings_for,
    keep_result,
    resolved_options,
    results_store,
    stat_budget_for,
)
from workbench.cards import SEVERITY_ORDER, CardSet, WorkbenchInputError
from workbench.charts import selected_cards, stat_budget_figure, stat_value_curves_figure
from workbench.limits import limit
from workbench.markup import markdown_text
from workbench.power_defaults import POWER_CURVE_DEFAULTS
from workbench.rulesets.base import StatBudget
from workbench.run_settings import RunSettings
from workbench.stat_values import (
    DEFAULT_CARDS,
    DEFAULT_MATCHES_PER_CARD,
    DEFAULT_REPLICATES,
    StatValues,
    design_for,
    stat_values,
)

NONCE_KEY = "stat_budget_chart_nonce"
VALUES_CANCEL_KEY = "stat_values_cancel"
VALUES_RUN_KEY = "stat_values_run"
MAX_DESIGN_CARDS = limit("design_cards").value
MIN_VALUE_MATCHES = 2 * DEFAULT_REPLICATES
MAX_VALUE_MATCHES = limit("matches_per_card").value
MAX_SEED = 2**31 - 1


def open_in_editor(sheet_row: int) -> None:
    """Ask the editor to show this row, and go there."""
    workspace.selected_row = sheet_row
    st.session_state[NONCE_KEY] = st.session_state.get(NONCE_KEY, 0) + 1
    st.switch_page(CARD_EDITOR.path)


def _budget_chart(workspace: Workspace, cardset: CardSet, budget: StatBudget) -> None:
    """The budget chart (a click opens the card in the editor) and its table."""
    severities: dict[str, str] = {}
    finding_counts: dict[str, int] = {}
    for finding in findings_for(workspace, cardset):
        if finding.card is None or finding.deck is not None:
            continue
        finding_counts[finding.card] = finding_counts.get(finding.card, 0) + 1
        current = severities.get(finding.card)
        if current is None or SEVERITY_ORDER[finding.severity] < SEVERITY_ORDER[current]:
            severities[finding.card] = finding.severity

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


def _show_stat_values(values: StatValues) -> None:
    """The measured rates beside the document's formula, the statements, the curves, the cost probe and the design."""
    meta = values.meta
    unit, units = str(meta.get("cost_unit", "cost")), values.cost_units
    st.caption(
        markdown_text(
            f"{meta.get('ruleset')} v{meta.get('ruleset_version')} · {meta.get('design_cards')} synthetic cards × "
            f"{int(meta.get('matches_per_card', 0)):,} matches per card in {meta.get('replicates')} runs · seed "
            f"{meta.get('seed')} · policy {meta.get('policy')} · reference deck {meta.get('reference_deck')} · "
            f"template card {meta.get('base_card')} · card-set hash {meta.get('cardset_hash')}"
        )
    )
    st.markdown(f"**{values.formula_heading}:** {markdown_text(meta.get('formula', ''))}.")
    st.markdown("\n".join(f"- {markdown_text(statement)}" for statement in values.statements))
    rates = values.rates
    table = pd.DataFrame(
        {
            "attribute": rates["attribute"],
            "one step": rates["step"],
            "score per step": rates["rate"],
            "low": rates["low"],
            "high": rates["high"],
            f"{units} in play": rates["in_cost"],
            f"{units} low": rates["in_cost_low"],
            f"{units} high": rates["in_cost_high"],
            f"formula charges ({units})": rates["formula"],
            f"mispriced over its range ({units})": rates["mispriced"],
        }
    )
    score = st.column_config.NumberColumn(format="%+.4f")
    cost = st.column_config.NumberColumn(format="%+.3f")
    st.dataframe(
        table,
        hide_index=True,
        width="stretch",
        placeholder=EMPTY_CELL,
        column_config={
            "score per step": score,
            "low": score,
            "high": score,
            **{column: cost for column in table.columns[5:]},
        },
    )
    st.caption(
        f"Measured: score (win 1, draw ½) gained per step, with its 95% interval from the spread of "
        f"{meta.get('replicates')} independent runs plus the design's own share (another seed draws other design "
        f"cards); in {units} where a {unit} of cost measurably costs score. "
        f"Formula: what {meta.get('formula_name', 'the formula')} charges per step, on average over the design. "
        "Mispriced: measured minus "
        f"charged over the attribute's whole range (negative: the formula charges more than it is worth in play). "
        f"Straight fit: R² {values.r2:.2f}, residual scale {values.scale:.2f} (1 = noise only) on {values.df} "
        "degrees of freedom."
    )
    st.plotly_chart(stat_value_curves_figure(values), width="stretch", key="stat_values_curves")
    if len(values.implied):
        st.subheader(f"The set's own cards at the measured rates ({units})")
        implied = values.implied.rename(
            columns={
                "cost": f"costs ({units})",
                "formula_cost": "the formula charges",
                "implied": "implied in play",
                "implied_low": "low",
                "implied_high": "high",
                "reason": "why none",
            }
        )
        figure = st.column_config.NumberColumn(format="%.2f")
        st.dataframe(
            implied,
            hide_index=True,
            width="stretch",
            placeholder=EMPTY_CELL,
            column_config={"implied in play": figure, "low": figure, "high": figure},
        )
        st.caption(
            f"Implied: the {units} the measured rates give a card's stats and keywords, anchored at the design's mean "
            f"card (which the rates price at the design's mean cost), with a 95% interval; none where the design "
            "cannot describe the card (an effect or ability it does not vary), a stat lies beyond its range, a "
            f"{unit} of cost is not measurably worth score, or the figure lies beyond the costs measured in play."
        )
    with st.expander(f"The cost probe: a mid-stat card and the strongest card at each {unit} cost"):
        st.dataframe(values.cost_levels, hide_index=True, width="stretch", placeholder=EMPTY_CELL)
    with st.expander(f"The design: {len(values.cards)} synthetic cards"):
        st.dataframe(values.cards, hide_index=True, width="stretch", placeholder=EMPTY_CELL)
    st.download_button(
        "Download the stat values (JSON)",
        data=lambda: json.dumps(values.to_json(), indent=2, ensure_ascii=False, default=str) + "\n",
        file_name=f"{meta.get('cardset', 'set')}_stat_values.json",
        mime="application/json",
        on_click="ignore",
        key="stat_values_download_json",
        icon=":material/download:",
    )


def _stat_values_section(workspace: Workspace, cardset: CardSet) -> None:
    """What each stat is worth in play: settings, Run with progress, then the rates, statements and curves."""
    st.header("What each stat is worth in play")
    st.caption(
        "Synthetic cards across the stat ranges the cost formula covers, each measured by the power curve's "
        "replacement test in the reference deck, then a fit of power on each stat, keyword and step of cost: what "
        "the game pays for each, beside what the formula charges "
        f"({see_docs('simulation.md', 'What each stat is worth in play')})."
    )
    ruleset = workspace.ruleset
    try:
        design = design_for(ruleset.id)
    except WorkbenchInputError as error:
        st.info(f"Not measured for {ruleset.title}: {markdown_text(error)}")
        return
    inputs = engine_and_decks(workspace, cardset)
    if inputs is None:
        return
    _engine, decks = inputs
    chosen = deck_picker(
        "Decks (the first is the reference deck the synthetic cards join; all of them make the gauntlet)",
        list(decks),
        "stat_values_decks",
    )
    row = st.columns(3)
    fewest = len(design.attributes) + 3
    cards, cards_problem = count_input(
        row[0],
        "Design cards",
        fewest,
        MAX_DESIGN_CARDS,
        max(DEFAULT_CARDS, fewest),
        "stat_values_cards",
        step=4,
        help_text="Synthetic cards in the Latin hypercube over the stats, the costs in play and the keywords.",
    )
    matches, matches_problem = count_input(
        row[1],
        "Matches per card",
        MIN_VALUE_MATCHES,
        MAX_VALUE_MATCHES,
        DEFAULT_MATCHES_PER_CARD,
        "stat_values_matches",
        step=100,
        help_text=f"Split over {DEFAULT_REPLICATES} independent runs, whose spread gives the intervals.",
    )
    seed, seed_problem = count_input(row[2], "Seed", 0, MAX_SEED, POWER_CURVE_DEFAULTS.seed, "stat_values_seed")
    problems = [problem for problem in (cards_problem, matches_problem, seed_problem) if problem]
    for problem in problems:
        st.error(problem)
    options = resolved_options(ruleset)
    settings_key = json.dumps(
        [
            "stat_values",
            cardset.content_hash(),
            sorted(options.items()),
            [workspace.decks[name].digest() for name in chosen],
            cards,
            matches,
            seed,
        ],
        default=str,
    )
    values = results_store().get(settings_key)
    run = st.button(
        "Run", type="primary", disabled=not chosen or bool(problems), key=VALUES_RUN_KEY, icon=":material/science:"
    )
    if run:
        started = time.perf_counter()

        def work(show: Callable[[float, str], None]) -> StatValues:
            def report(done: int, total: int) -> None:
                share = done / total if total else 1.0
                show(share, f"Stat values: {share:.0%} (the cost probe, then {DEFAULT_REPLICATES} runs of the design)")

            return stat_values(
                cardset,
                [decks[name] for name in chosen],
                cards,
                matches,
                RunSettings(seed=seed, options=options, progress=report),
            )

        values = run_with_progress(cardset, decks[chosen[0]], VALUES_CANCEL_KEY, "stat-value measurement", work)
        if values is not None:
            keep_result(settings_key, values)
            st.success(f"Done in {time.perf_counter() - started:.1f} s.")
    else:
        run_notice(VALUES_CANCEL_KEY, "stat-value measurement", "Press Run to measure again.")
    if isinstance(values, StatValues):
        _show_stat_values(values)
    elif not run:
        st.info("Press Run to measure what each stat is worth in play.")


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
elif not budget.points:
    st.info(
        f"No card of {workspace.set_name} has a place on this chart "
        f"({budget.cost_label} against {budget.budget_label})."
    )
else:
    _budget_chart(workspace, cardset, budget)
_stat_values_section(workspace, cardset)
