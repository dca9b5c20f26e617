"""Balance page: simulate decks against each other, measure each card's power, read a seeded match, sweep a card.

Three tabs share the decks and rule options chosen at the top: *Simulation* (a
match, the power curve, matchups and a trace, from `workbench.balance_study`),
*Sweep a card* (one card's power as one of its number fields takes each
of several values, from `workbench.analysis.sweep`) and *Patch proposals* (the
fewest card changes that bring the set within the tolerance, each proved on a
new seed, from `workbench.propose`, drawn by `workbench.app.proposals_view`). Only the open tab runs,
so each tab's inputs exist on the page only while it is shown.

Runs show a progress bar and a Cancel button: pressing Cancel reruns the page,
which stops the run at its next progress report. Results are kept per
session, keyed by the card set's content hash, the rule options, the decks and
the settings, so going back to settings already run shows them at once.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st
from pydantic import BaseModel

from workbench.analysis import (
    BASELINE,
    FLAGS,
    POWER_CURVE_DEFAULTS,
    Sweep,
    parse_sweep_values,
    sweep,
    threshold_text,
    with_field,
)
from workbench.app import RULES
from workbench.app.full_game_view import full_game_sections
from workbench.app.layout import WRAPPED_ROW_HEIGHT, texts_in_full
from workbench.app.proposals_view import proposals_section
from workbench.app.widgets import (
    EMPTY_CELL,
    count_input,
    csv_download,
    deck_picker,
    engine_and_decks,
    option_inputs,
    page_start,
    policy_input,
    report_download,
    require_workspace,
    run_notice,
    run_with_progress,
    score_input,
)
from workbench.app.wording import matches_per_card_text, see_docs
from workbench.app.workspace import (
    current_cardset,
    keep_result,
    latest_result,
    resolved_options,
    results_store,
)
from workbench.auto_decks import AUTO_DECKS_MAX
from workbench.balance_study import (
    StudyResults,
    StudySettings,
    provenance_line,
    provenance_text,
    run_study,
)
from workbench.cards import CardEntry, CardSet, Deck, OptionValue, WorkbenchInputError, readable
from workbench.charts import (
    first_player_figure,
    game_length_histogram,
    health_length_figure,
    length_options_figure,
    matchup_heatmap,
    power_curve_figure,
    sweep_figure,
)
from workbench.full_game import is_full_game, supports_full_game
from workbench.health import (
    DRAWS,
    FIRST_PLAYER,
    LENGTH,
    TURN_CAP,
    GameHealth,
    LengthOptions,
    game_health,
    length_options,
    length_readings,
    warning_sentence,
)
from workbench.markup import markdown_text
from workbench.pace import health_estimate, study_estimate
from workbench.play.assembly import Engine
from workbench.propose import Proposals
from workbench.report_html import render_html
from workbench.reports import health_frame, report_from_results, xlsx_bytes
from workbench.rulesets.base import describe_annotation
from workbench.run_settings import RunSettings
from workbench.spreadsheets import csv_text
from workbench.stat_values import StatValues
from workbench.verdicts import VerdictRuns

CANCEL_KEY = "balance_cancel"
HEALTH_CANCEL_KEY = "balance_health_cancel"
MAX_MATCHES = 1_000_000
SECTION_KEY = "balance_section"
SIMULATION_TAB = "Simulation"
SWEEP_TAB = "Sweep a card"
PROPOSALS_TAB = "Patch proposals"
SWEEP_CARD_KEY = "balance_sweep_card"
SWEEP_FIELD_KEY = "balance_sweep_field"
SWEEP_VALUES_KEY = "balance_sweep_values"
SWEEP_SUGGESTED_FOR_KEY = "balance_sweep_values_for"
SWEEP_CANCEL_KEY = "balance_sweep_cancel"
SWEEP_CHECKED_KEY = "balance_sweep_checked"
PER_CARD_KEY = "balance_per_card"
TOLERANCE_KEY = "balance_tolerance"
DECIDE_KEY = "balance_decide"
DECIDE_REQUEST_KEY = "balance_decide_requested"
MAX_TOLERANCE = 1.0
MAX_SWEEP_MATCHES = 200_000
MIN_MATCHES = 10
MAX_SEED = 2**31 - 1
# The power table lists verdicts first (over, under, on curve), then the cards without one (undecided, no
# comparator, rarely played); the baseline (the filler) comes last: `workbench.analysis.FLAGS`' order. (A comment,
# not a docstring: Streamlit's magic would write a bare string on the page.)
FLAG_ORDER = {flag: place for place, flag in enumerate(FLAGS)}


def _kept_in_reports(values: StatValues | None, proposals: Proposals | None) -> str:
    """What the reports take along besides this page's run, in words."""
    kept = [
        *(["the stat values measured on the Stat budget page"] if values is not None else []),
        *(["the patch proposals of the Patch proposals tab"] if proposals is not None else []),
    ]
    if not kept:
        return (
            "Stat values (Stat budget page) and patch proposals (Patch proposals tab) measured for these cards and "
            "rule options join the reports once run."
        )
    return "They also hold " + " and ".join(kept) + ", the latest run for these cards and rule options."


def _show_results(results: StudyResults, cost_axis: str, stat_values: StatValues | None = None) -> None:
    """The run's tabs; `stat_values` of the same cards and options (the Stat budget page's) feeds the power curve's
    Why statement."""
    st.caption(markdown_text(provenance_line(results)))
    match = results.match
    tabs = st.tabs(["Match", "Power curve", "Matchups", "Trace"])
    with tabs[0]:
        metrics = st.columns(4)
        rate = match.win_rate_a
        first = match.first_player_win_rate
        metrics[0].metric(f"{match.meta.get('deck_a')} (A) win rate", f"{rate.value:.1%}", help=str(rate))
        metrics[1].metric("First player's win rate", f"{first.value:.1%}", help=str(first))
        metrics[2].metric("Draws", f"{match.draw_rate:.1%}")
        metrics[3].metric("Mean game length", f"{match.mean_turns:.1f} turns")
        st.caption(
            f"A = {match.meta.get('deck_a')}, B = {match.meta.get('deck_b')}; {len(match.matches):,} matches. "
            f"A: {rate}. First player: {first}."
        )
        charts = st.columns(2)
        charts[0].plotly_chart(first_player_figure(match), width="stretch")
        charts[1].plotly_chart(game_length_histogram(match), width="stretch")
    with tabs[1]:
        curve = results.curve
        if curve is None:
            st.info("The power curve was not asked for in this run.")
        else:
            if results.verdicts is not None:
                _show_verdicts(results.verdicts, cost_axis, results.settings.seed)
            # What the line says about the game, and which cards were too seldom played to judge, above the chart.
            line, *others = curve.statements(stat_values=stat_values)
            (st.info if curve.rises_with_cost else st.warning)(markdown_text(line))
            for statement in others:
                st.warning(markdown_text(statement))
            _decide_button(curve.meta.get("matches_to_decide_all"), results.settings.matches_per_card)
            st.plotly_chart(power_curve_figure(curve, cost_axis), width="stretch", key="power_curve_chart")
            fillers = ", ".join(curve.cards.loc[curve.cards["flag"] == BASELINE, "card"])
            rule = curve.meta.get("verdict_rule") or {}
            st.caption(
                f"Reference deck {curve.meta.get('reference_deck')}, "
                f"gauntlet {', '.join(curve.meta.get('gauntlet', []))}; "
                f"{matches_per_card_text(curve.meta, results.settings.matches_per_card)}; "
                f"reference deck score {curve.baseline}; "
                f"tolerance {float(rule.get('tolerance', POWER_CURVE_DEFAULTS.tolerance)):g}. "
                "Power = change in score when a card replaces its slot's filler (95% interval); "
                "over / under = beyond the card's band by more than the tolerance (dashed), with the false-discovery "
                "rate controlled across the cards; on curve = shown within it; undecided = the run cannot tell; "
                "no comparator = no other judged card at its cost and no rising line. "
                f"Baseline ({fillers or 'none'}): the filler each card replaces, power 0 by construction, so no "
                "verdict, and left out of the fitted line and the tier means. Played / drawn: the share of a card's "
                "matches in which its side played / drew a copy; under "
                f"{threshold_text(float(curve.meta.get('min_play_share', POWER_CURVE_DEFAULTS.min_play_share)))} "
                "played, a card is rarely played: left out of the line and the tier means, and given a verdict only "
                "where its interval lies clearly beyond its band."
            )
            auto_decks = curve.meta.get("auto_decks", {})
            if auto_decks:
                with st.expander(
                    f"The {len(auto_decks)} auto decks of this run (built from seed {curve.meta.get('seed')})"
                ):
                    st.caption(
                        "Each built at random from the set and passed by its deck check; every card was measured in "
                        "each one that holds its slot. Same seed, same decks."
                    )
                    for name, text in auto_decks.items():
                        st.code(f"# {name}\n{text.rstrip()}", language=None)
            table = curve.cards.copy()
            shown = [
                "card",
                "cost",
                "power",
                "low",
                "high",
                "flag",
                "stability",
                "q_value",
                "detectable",
                "matches_to_decide",
                "suggested_cost",
                "played",
                "drawn",
                "first_played_turn",
                "played_in_time",
                "reason",
                "win_rate",
                "note",
            ]
            shown = [column for column in shown if column in table.columns]
            for column in (
                "played",
                "drawn",
                "first_played_turn",
                "played_in_time",
                "stability",
                "q_value",
                "detectable",
                "matches_to_decide",
            ):
                if column in table.columns:
                    # Numbers for the grid; a missing one is an empty cell.
                    table[column] = pd.to_numeric(table[column])
            table = table.sort_values(by=["flag", "power"], key=lambda s: s.map(FLAG_ORDER) if s.name == "flag" else -s)
            resamples = int(rule.get("resamples") or 0)
            tolerance = float(rule.get("tolerance", POWER_CURVE_DEFAULTS.tolerance))
            st.dataframe(
                table[shown],
                hide_index=True,
                width="stretch",
                placeholder=EMPTY_CELL,
                row_height=WRAPPED_ROW_HEIGHT,  # tall enough that a long why wraps in its cell
                column_config={
                    "cost": st.column_config.NumberColumn(format="%g"),
                    "power": st.column_config.NumberColumn(format="%+.3f"),
                    "low": st.column_config.NumberColumn(format="%+.3f"),
                    "high": st.column_config.NumberColumn(format="%+.3f"),
                    "played": st.column_config.NumberColumn(
                        format="percent", help="Share of the card's matches in which its side played a copy."
                    ),
                    "drawn": st.column_config.NumberColumn(
                        format="percent", help="Share of the card's matches in which its side drew a copy."
                    ),
                    "first_played_turn": st.column_config.NumberColumn(
                        "first played (turn)",
                        format="%.1f",
                        help="Mean turn of its first play, over the matches it was played in.",
                    ),
                    "played_in_time": st.column_config.NumberColumn(
                        "played in time",
                        format="percent",
                        help="Share of the card's matches in which its side played a copy and had another turn "
                        "after that first play: the matches the card could change.",
                    ),
                    "flag": st.column_config.TextColumn(
                        help=f"over / under: beyond the card's band by more than the tolerance ({tolerance:g}), with "
                        "the false-discovery rate controlled across the cards; on curve: shown within it (an "
                        "equivalence test); undecided: the run cannot tell; no comparator: no other judged card at "
                        "its cost and no rising line; rarely played: played too seldom to judge, with no clear "
                        "verdict; baseline: the filler"
                    ),
                    "stability": st.column_config.ProgressColumn(
                        "stability",
                        format="percent",
                        min_value=0.0,
                        max_value=1.0,
                        help=(
                            f"Share of {resamples} bootstrap resamples of the matches that give the card the same "
                            "flag again: 100% means the verdict does not hinge on which matches were played."
                            if resamples
                            else "Share of bootstrap resamples giving the same flag (none were drawn in this run)."
                        ),
                    ),
                    "q_value": st.column_config.NumberColumn(
                        "q",
                        format="%.3g",
                        help='Benjamini-Hochberg adjusted p-value of "lies beyond its band by more than the '
                        'tolerance": a card is flagged over or under when q is at most the false-discovery rate '
                        f"({float(rule.get('false_discovery_rate', POWER_CURVE_DEFAULTS.false_discovery_rate)):.0%}).",
                    ),
                    "detectable": st.column_config.NumberColumn(
                        "detectable",
                        format="%.3f",
                        help="The smallest distance beyond its band (in score) this run would flag four times in "
                        "five: a mispricing smaller than this can go unseen at this budget.",
                    ),
                    "matches_to_decide": st.column_config.NumberColumn(
                        "matches to decide",
                        format="localized",
                        help="For an undecided card, about how many matches per card would decide it at its "
                        "current estimate; empty where more matches alone would not.",
                    ),
                    "suggested_cost": st.column_config.NumberColumn(
                        "suggested cost",
                        format="%g",
                        help="Given only to a card flagged over or under on a rising line, and only when the card, "
                        "measured again at that cost, landed within the tolerance (its why says so).",
                    ),
                    "reason": st.column_config.TextColumn(
                        "why", help="The reason for the flag, in words.", width="large"
                    ),
                    "win_rate": st.column_config.NumberColumn("win rate", format="%.3f"),
                },
            )
            csv_download(
                table[shown],
                f"power_curve_seed{results.settings.seed}.csv",
                key="power_curve_csv",
                label="Download the power curve (CSV)",
            )
            if "reason" in table.columns:
                texts_in_full("Every card's why, in full", zip(table["card"], table["reason"], strict=True))
    with tabs[2]:
        matchups = results.matchups
        if matchups is None:
            st.info("Matchups need two decks or more (and the box ticked).")
        else:
            st.plotly_chart(matchup_heatmap(matchups), width="stretch")
            # A seed is an identifier to copy back exactly: as text, so no digit is rounded on the way to the browser.
            matchup_table = matchups.assign(seed=matchups["seed"].astype(str))
            st.dataframe(matchup_table, hide_index=True, width="stretch", placeholder=EMPTY_CELL)
            csv_download(
                matchup_table,
                f"matchups_seed{results.settings.seed}.csv",
                key="matchups_csv",
                label="Download the matchups (CSV)",
            )
    with tabs[3]:
        st.caption(f"Match 0 of seed {results.settings.seed}: the same match the simulation's first row played.")
        st.code("\n".join(results.trace), language=None, height=520)
        st.download_button(
            "Download the trace",
            data="\n".join(results.trace) + "\n",
            file_name=f"trace_seed{results.settings.seed}.txt",
            mime="text/plain",
            on_click="ignore",
        )


def _ask_to_decide(matches_per_card: int) -> None:
    """The Decide button's callback: set the budget to the matches that decide the undecided cards, and ask the
    simulation section to run it (before the inputs are drawn, so they show the new budget)."""
    st.session_state[PER_CARD_KEY] = matches_per_card
    st.session_state[DECIDE_REQUEST_KEY] = True


def _decide_button(needed: object, budget: int) -> None:
    """The button "Decide the undecided: run N matches per card", when the curve says N matches per card (more than
    it ran) would decide its undecided cards: it runs the same settings at that budget (the page's limit on matches
    per card applies)."""
    if not isinstance(needed, (int, float)) or isinstance(needed, bool) or needed <= budget:
        return
    needed = int(needed)
    over_limit = needed > MAX_MATCHES
    st.button(
        f"Decide the undecided: run {needed:,} matches per card",
        key=DECIDE_KEY,
        icon=":material/rule:",
        on_click=_ask_to_decide,
        args=(needed,),
        disabled=over_limit,
        help=(
            f"More than this page's limit of {MAX_MATCHES:,} matches per card: run it from the command line "
            f"(workbench power-curve --matches-per-card {needed})."
            if over_limit
            else "Runs the simulation again with these settings at this many matches per card, so that every "
            "undecided card more matches can decide is decided (the statement above names any that cannot be)."
        ),
    )


def _show_verdicts(runs: VerdictRuns, cost_axis: str, seed: int) -> None:
    """Verdicts per policy (and hand-made vs auto decks) side by side, the cards whose verdict differs first."""
    (st.warning if runs.sensitive_cards() else st.info)(runs.statement())
    table = runs.comparison()
    st.dataframe(
        table,
        hide_index=True,
        width="stretch",
        placeholder=EMPTY_CELL,
        key="verdicts_table",
        column_config={
            "cost": st.column_config.NumberColumn(format="%g"),
            **{f"power · {label}": st.column_config.NumberColumn(format="%+.3f") for label in runs.labels},
            **{f"position · {label}": st.column_config.NumberColumn(format="%+.3f") for label in runs.labels},
            **{f"position sd · {label}": st.column_config.NumberColumn(format="%.3f") for label in runs.labels},
            "sensitive": st.column_config.CheckboxColumn(help="The verdict differs between runs."),
            "why": st.column_config.TextColumn(help="Which way the verdict differs, in words.", width="large"),
        },
    )
    csv_download(table, f"verdicts_seed{seed}.csv", key="verdicts_csv", label="Download the verdicts (CSV)")
    for start in range(0, len(runs.labels), 2):
        columns = st.columns(2)
        for column, label in zip(columns, runs.labels[start : start + 2], strict=False):
            with column:
                st.markdown(f"**{label}**")  # a run label: policy and gauntlet names, never user text
                st.caption(markdown_text(runs.curve(label).line_statement()))
                st.plotly_chart(
                    power_curve_figure(runs.curve(label), cost_axis), width="stretch", key=f"power_curve_{label}"
                )
    st.caption("The chart and table below are the run under deck A's policy with the gauntlet asked for.")


@functools.cache
def _number_fields_of(model: type[BaseModel]) -> tuple[str, ...]:
    """A card model's number fields (whole numbers or numbers, empty allowed), in model order, name and kind aside."""
    return tuple(
        name
        for name, info in model.model_fields.items()
        if name not in ("name", "kind")
        and describe_annotation(info.annotation).removesuffix(" (may be empty)") in ("whole number", "number")
    )


def _sweepable_fields(entry: CardEntry) -> list[str]:
    """The fields of this card a sweep can vary."""
    return list(_number_fields_of(type(entry.card)))


def _values_problem(cardset: CardSet, card: str, field: str, values_text: str) -> tuple[list[int | float], str | None]:
    """The values typed, or the message saying why they cannot be swept (remembered for the sheet's content)."""
    key = (cardset.content_hash(), card, field, values_text)
    memo = st.session_state.get(SWEEP_CHECKED_KEY)
    if isinstance(memo, tuple) and memo[0] == key:
        return memo[1], memo[2]
    values: list[int | float] = []
    problem: str | None = None
    try:
        values = parse_sweep_values(values_text)
        for value in dict.fromkeys(values):
            with_field(cardset, card, field, value)  # each value is checked by the card's model, as a sheet cell is
    except WorkbenchInputError as error:
        values, problem = [], str(error)
    st.session_state[SWEEP_CHECKED_KEY] = (key, values, problem)
    return values, problem


def _default_policy_index(policies: list[str]) -> int:
    """The default policy's place in the engine's list (`POWER_CURVE_DEFAULTS.policy`, else the first)."""
    return policies.index(POWER_CURVE_DEFAULTS.policy) if POWER_CURVE_DEFAULTS.policy in policies else 0


def _suggested_values(current: Any) -> str:
    """Values around the card's own: two steps either side for a whole number (not below 0 unless it already is)."""
    if isinstance(current, bool) or current is None:
        return "0..4"
    if isinstance(current, int):
        low = max(0, current - 2) if current >= 0 else current - 2
        return f"{low}..{current + 2}"
    if isinstance(current, float):
        return ", ".join(f"{value:g}" for value in (current - 1, current - 0.5, current, current + 0.5, current + 1))
    return "0..4"


def _show_sweep(result: Sweep, field_label: str) -> None:
    meta = result.meta
    st.caption(markdown_text(provenance_text(meta, "matches per value", ruleset)))
    if result.statement:
        st.warning(markdown_text(result.statement))
    st.plotly_chart(sweep_figure(result, field_label), width="stretch", key="sweep_chart")
    st.caption(
        f"Reference deck {meta.get('reference_deck')}, gauntlet {', '.join(meta.get('gauntlet', []))}. "
        "Power = change in score when 3 copies of the card (at that value) replace its slot's filler (95% interval). "
        "The shaded band is the card's cost tier on the set's fitted power line (cost ± 1/2; a line when the set's "
        "power does not rise with cost); over/under = the interval lies wholly above/below it."
    )
    # The swept column is named after the field, unless that name is taken (sweeping the cost field itself).
    swept = field_label if field_label not in result.points.columns else f"{field_label} (swept)"
    table = result.points.rename(columns={"value": swept})
    for column in ("played", "drawn"):
        table[column] = pd.to_numeric(table[column])
    number = st.column_config.NumberColumn(format="%+.3f")
    st.dataframe(
        table,
        hide_index=True,
        width="stretch",
        placeholder=EMPTY_CELL,
        key="sweep_table",
        column_config={
            "cost": st.column_config.NumberColumn(format="%g"),
            "power": number,
            "low": number,
            "high": number,
            "band_low": st.column_config.NumberColumn("band low", format="%+.3f"),
            "band_high": st.column_config.NumberColumn("band high", format="%+.3f"),
            "played": st.column_config.NumberColumn(
                format="percent", help="Share of the value's matches in which the card was played."
            ),
            "drawn": st.column_config.NumberColumn(
                format="percent", help="Share of the value's matches in which the card was drawn."
            ),
            "changed": st.column_config.CheckboxColumn(
                "changed a match",
                help="Unticked: every match (winner and length) is the same as at the card's current value.",
            ),
        },
    )
    st.download_button(
        "Download the sweep (CSV)",
        data=csv_text(table),  # formula-like text stays text (spreadsheets.csv_safe)
        file_name=f"sweep_{meta.get('card')}_{meta.get('field')}_seed{meta.get('seed')}.csv",
        mime="text/csv",
        on_click="ignore",
        key="sweep_download",
    )


def _sweep_section(
    cardset: CardSet, decks: dict[str, Deck], chosen: list[str], options: dict[str, OptionValue], engine: Engine
) -> None:
    """One card's power as one of its number fields takes each value, against its cost tier's band."""
    st.caption(
        "Vary one number of one card and see where its power crosses its cost tier. The decks chosen above play "
        "(the first is the reference deck, all of them the gauntlet); every value replays the seeds of the set's own "
        "power curve, so the values differ by the card alone."
    )
    candidates = {entry.card.name: entry for entry in cardset if _sweepable_fields(entry)}
    if not candidates:
        st.info("No card of this set has a number field to sweep.")
        return
    if st.session_state.get(SWEEP_CARD_KEY) not in candidates:
        st.session_state.pop(SWEEP_CARD_KEY, None)
    picks = st.columns([2, 2, 3])
    card = picks[0].selectbox("Card", list(candidates), key=SWEEP_CARD_KEY)
    entry = candidates[card]
    fields = _sweepable_fields(entry)
    if st.session_state.get(SWEEP_FIELD_KEY) not in fields:
        st.session_state.pop(SWEEP_FIELD_KEY, None)

    def header(name: str) -> str:
        return cardset.headers.get(name, name)

    field = picks[1].selectbox("Field", fields, format_func=header, key=SWEEP_FIELD_KEY)
    current = getattr(entry.card, field)
    if st.session_state.get(SWEEP_SUGGESTED_FOR_KEY) != (card, field):
        st.session_state[SWEEP_VALUES_KEY] = _suggested_values(current)
        st.session_state[SWEEP_SUGGESTED_FOR_KEY] = (card, field)
    values_text = picks[2].text_input(
        "Values (LOW..HIGH, or a list like 1,3,5)",
        key=SWEEP_VALUES_KEY,
        help=f"{card}'s {header(field)} is {current if current is not None else 'empty'} now. "
        "LOW..HIGH includes both ends (at most 101 values).",
    )
    settings_row = st.columns(3)
    per_value, per_value_problem = count_input(
        settings_row[0],
        "Matches per value",
        MIN_MATCHES,
        MAX_SWEEP_MATCHES,
        POWER_CURVE_DEFAULTS.matches_per_card,
        "balance_sweep_per_value",
        step=100,
        help_text="Also the matches per card of the set's own power curve.",
    )
    seed, seed_problem = count_input(
        settings_row[1], "Seed", 0, MAX_SEED, POWER_CURVE_DEFAULTS.seed, "balance_sweep_seed"
    )
    policies = list(engine.policies)
    policy = policy_input(
        settings_row[2],
        "Policy",
        policies,
        _default_policy_index(policies),
        "balance_sweep_policy",
        engine.search_settings,
    )

    values, problem = _values_problem(cardset, card, field, values_text)
    if problem:
        st.error(f"The values cannot be swept: {markdown_text(problem)}")
    for count_problem in (per_value_problem, seed_problem):
        if count_problem:
            st.error(count_problem)

    settings_key = json.dumps(
        [
            "sweep",
            cardset.content_hash(),
            sorted(options.items()),
            [workspace.decks[name].digest() for name in chosen],
            card,
            field,
            values,
            int(per_value),
            int(seed),
            policy,
        ],
        default=str,
    )
    result = results_store().get(settings_key)
    run = st.button(
        "Run sweep",
        type="primary",
        disabled=not chosen or not values or bool(per_value_problem or seed_problem),
        key="balance_sweep_run",
    )
    if run:
        started = time.perf_counter()

        def sweep_work(show: Callable[[float, str], None]) -> Sweep:
            def report(done: int, total: int) -> None:
                share = done / total if total else 1.0
                show(
                    share,
                    f"Sweeping {card}'s {header(field)}: {share:.0%} (the set's power curve, then {len(values)} "
                    "value(s))",
                )

            return sweep(
                cardset,
                [decks[name] for name in chosen],
                card,
                field,
                values,
                int(per_value),
                RunSettings(seed=int(seed), policy=policy, options=options, progress=report),
            )

        result = run_with_progress(cardset, decks[chosen[0]], SWEEP_CANCEL_KEY, "sweep", sweep_work)
        if result is not None:
            keep_result(settings_key, result)
            st.success(f"Done in {time.perf_counter() - started:.1f} s.")
    else:
        run_notice(SWEEP_CANCEL_KEY, "sweep", "Press Run sweep to run it again.")

    if isinstance(result, Sweep):
        _show_sweep(result, header(field))
    elif not run and values:
        st.info("Press Run sweep.")


def _show_health(health: GameHealth) -> None:
    """The health figures: headline numbers, each warning with the rule options measured to move it, the details."""
    meta = health.meta
    st.caption(
        markdown_text(provenance_text(meta, ruleset=ruleset))
        + f" · {meta['matches_per_pair']:,} matches per ordered pair of decks, {meta['pairs']} pairs, "
        f"{meta['matches']:,} matches in all"
    )
    first = health.figure(FIRST_PLAYER)
    cap = health.figure(TURN_CAP)
    draws = health.figure(DRAWS)
    summary = health.length_summary
    numbers = st.columns(4)
    numbers[0].metric("First player wins", f"{first.value or 0:.1%}", help=first.summary)
    numbers[1].metric("Median game length", f"{summary['median']:g} turns", help=health.figure(LENGTH).summary)
    numbers[2].metric(
        "Turn-cap hits", f"{cap.value:.1%}" if cap.measured and cap.value is not None else "no cap", help=cap.summary
    )
    numbers[3].metric("Draws", f"{draws.value or 0:.1%}", help=draws.summary)
    for figure in health.figures:
        if figure.warning:
            text = warning_sentence(figure) or ""
            if figure.levers:
                text += (
                    " Rule options measured to move it: "
                    + "; ".join(figure.levers)
                    + f" ({see_docs('simulation.md', 'Game health')})."
                )
            st.warning(markdown_text(text), icon=":material/monitor_heart:")
    if not health.warnings:
        st.success("Every measured figure is in its healthy range.")
    seed = meta.get("seed")
    with st.expander("Health figures in detail"):
        figures = health_frame(health)
        st.dataframe(figures, hide_index=True, width="stretch", placeholder=EMPTY_CELL, key="health_figures")
        csv_download(
            figures,
            f"health_figures_seed{seed}.csv",
            key="health_figures_csv",
            label="Download the health figures (CSV)",
        )
        st.plotly_chart(health_length_figure(health), width="stretch", key="health_length_chart")
        decks = health.decks.assign(
            never_played_cards=health.decks["never_played_cards"].map(", ".join),
            rarely_played_cards=health.decks["rarely_played_cards"].map(", ".join),
        )
        st.dataframe(
            decks,
            hide_index=True,
            width="stretch",
            placeholder=EMPTY_CELL,
            key="health_decks",
            column_config={
                "never_played_share": st.column_config.NumberColumn("never played (share)", format="percent")
            },
        )
        csv_download(
            decks, f"health_decks_seed{seed}.csv", key="health_decks_csv", label="Download the health decks (CSV)"
        )
        pairs = health.pairs.assign(seed=health.pairs["seed"].astype(str))
        st.dataframe(pairs, hide_index=True, width="stretch", placeholder=EMPTY_CELL, key="health_pairs")
        csv_download(
            pairs, f"health_pairs_seed{seed}.csv", key="health_pairs_csv", label="Download the health pairs (CSV)"
        )


def _health_panel(
    cardset: CardSet, decks: dict[str, Deck], chosen: list[str], options: dict[str, OptionValue], engine: Engine
) -> GameHealth | None:
    """The game's own health, above every card's figure: a degenerate game makes every card's verdict meaningless.
    Returns the health shown (it goes into the report downloads), or None before a check of these settings."""
    with st.container(border=True, key="health_panel"):
        st.subheader("Game health")
        st.caption(
            "Every ordered pair of the chosen decks (mirrors included, each deck in both seats): the first player's "
            "win rate, game length, turn-cap hits, draws and the cards never played, each against its healthy range "
            f"({see_docs('simulation.md', 'Game health')}). Look here before any card's verdict."
        )
        row = st.columns(3)  # the button goes under them, so it keeps its words in a 1024-pixel window
        per_pair, per_pair_problem = count_input(
            row[0],
            "Matches per pair of decks",
            MIN_MATCHES,
            MAX_MATCHES,
            POWER_CURVE_DEFAULTS.matches_per_pair,
            "balance_health_matches",
            step=100,
            help_text="The same matches as the matchup matrix with the same seed.",
        )
        seed, seed_problem = count_input(row[1], "Seed", 0, MAX_SEED, POWER_CURVE_DEFAULTS.seed, "balance_health_seed")
        policies = list(engine.policies)
        policy = policy_input(
            row[2], "Policy", policies, _default_policy_index(policies), "balance_health_policy", engine.search_settings
        )
        problems = [problem for problem in (per_pair_problem, seed_problem) if problem]
        for problem in problems:
            st.error(problem)
        settings_key = json.dumps(
            [
                "health",
                cardset.content_hash(),
                sorted(options.items()),
                [workspace.decks[name].digest() for name in chosen],
                int(per_pair),
                int(seed),
                policy,
            ],
            default=str,
        )
        health = results_store().get(settings_key)
        if chosen and not problems:
            st.caption(health_estimate(cardset, [decks[name] for name in chosen], int(per_pair), policy, options).text)
        run = st.button("Check game health", disabled=not chosen or bool(problems), key="balance_health_run")
        if run:

            def health_work(show: Callable[[float, str], None]) -> GameHealth:
                def report(done: int, total: int) -> None:
                    show(done / total if total else 1.0, f"Game health: {done:,} of {total:,} matches")

                return game_health(
                    cardset,
                    [decks[name] for name in chosen],
                    int(per_pair),
                    RunSettings(seed=int(seed), policy=policy, options=options, progress=report),
                )

            health = run_with_progress(cardset, decks[chosen[0]], HEALTH_CANCEL_KEY, "game health check", health_work)
            if health is not None:
                keep_result(settings_key, health)
        else:
            # Where the check's progress was: a check stopped by another button (Run simulation) says so here, in
            # place of its last progress bar.
            run_notice(HEALTH_CANCEL_KEY, "game health check", "Press Check game health to run it again.")
        if isinstance(health, GameHealth):
            _show_health(health)
            _length_options_panel(
                cardset,
                [decks[name] for name in chosen],
                int(per_pair),
                RunSettings(seed=int(seed), policy=policy, options=options),
                settings_key,
            )
            return health
        if not run:
            st.info("Press Check game health to play every pair of the chosen decks.")
        return None


LENGTH_OPTIONS_CANCEL_KEY = "balance_length_options_cancel"
LENGTH_OPTIONS_WHAT = "measurement of the rule options that move the match length"


def _length_options_panel(
    cardset: CardSet, decks: list[Deck], per_pair: int, settings: RunSettings, health_key: str
) -> None:
    """Which rule options move the match length (`workbench.health.length_options`), on a button under the health
    figures: the health check's pairs, matches per pair, seed and policy under each other reading of the rule options,
    with progress; then the readings that move it in words, a table and a chart of the change."""
    settings_key = json.dumps(["length_options", health_key])
    result = results_store().get(settings_key)
    candidates, _ = length_readings(cardset.ruleset, cardset.ruleset.resolve_options(settings.options))
    st.caption(
        f"The same pairs, matches per pair, seed and policy played under each of up to {len(candidates)} other "
        "readings of the rule options, one option changed at a time (a reading that changes nothing the engine is "
        "given is not played), on the same seeds, so each reading's change in length is paired match by match: at most "
        f"{len(candidates) + 1} times the health check's matches ({see_docs('simulation.md', 'Game health')})."
    )
    run = st.button("Which rule options move the match length", key="balance_length_options_run")
    if run:

        def work(show: Callable[[float, str], None]) -> LengthOptions:
            def report(done: int, total: int) -> None:
                show(done / total if total else 1.0, f"Rule readings: {done:,} of {total:,} matches")

            return length_options(cardset, decks, per_pair, settings.reporting(report))

        result = run_with_progress(cardset, decks[0], LENGTH_OPTIONS_CANCEL_KEY, LENGTH_OPTIONS_WHAT, work)
        if result is not None:
            keep_result(settings_key, result)
    else:
        run_notice(LENGTH_OPTIONS_CANCEL_KEY, LENGTH_OPTIONS_WHAT, "Press the button to run it again.")
    if isinstance(result, LengthOptions):
        _show_length_options(result, cardset)


def _show_length_options(result: LengthOptions, cardset: CardSet) -> None:
    """The readings that move the length in words, every reading in a table, and the change with its interval."""
    meta = result.meta
    base = result.baseline
    st.caption(
        markdown_text(provenance_text(meta, ruleset=cardset.ruleset))
        + f" · {meta['matches_per_pair']:,} matches per ordered pair of decks, {meta['pairs']} pairs, "
        f"{meta['readings_played']} readings, {meta['matches']:,} matches in all"
    )
    intro = (
        f"As given, matches last {base.mean_turns:.1f} turns [{base.low:.1f}, {base.high:.1f}]. "
        if result.moving
        else ""
    )
    if result.moving:
        st.markdown(
            markdown_text(
                intro + "Rule options that move it (beyond the 95% interval of the change, by "
                f"{meta['min_change']:g} turns or more):"
            )
            + "\n"
            + "\n".join(f"- {markdown_text(reading.sentence(base))}" for reading in result.moving)
        )
    else:
        st.info(markdown_text(f"As measured, {result.moving_text()}."))
    frame = result.frame()
    columns = [
        "label",
        "effect",
        "mean_turns",
        "low",
        "high",
        "change",
        "change_low",
        "change_high",
        "first_player_win_rate",
        "turn_cap_hits",
        "dearest_in_time",
    ]
    dearest = meta.get("dearest_cost")
    in_time = (
        f"{meta.get('cost_axis', 'cost')} {dearest:g} played in time" if dearest is not None else "dearest in time"
    )
    st.dataframe(
        frame[columns],
        hide_index=True,
        width="stretch",
        placeholder=EMPTY_CELL,
        key="length_options_table",
        column_config={
            "label": "reading",
            "mean_turns": st.column_config.NumberColumn("mean turns", format="%.2f"),
            "low": st.column_config.NumberColumn(format="%.2f"),
            "high": st.column_config.NumberColumn(format="%.2f"),
            "change": st.column_config.NumberColumn("change (turns)", format="%+.2f"),
            "change_low": st.column_config.NumberColumn(format="%+.2f"),
            "change_high": st.column_config.NumberColumn(format="%+.2f"),
            "first_player_win_rate": st.column_config.NumberColumn("first player wins", format="percent"),
            "turn_cap_hits": st.column_config.NumberColumn("turn-cap hits", format="percent"),
            "dearest_in_time": st.column_config.NumberColumn(in_time, format="percent"),
        },
    )
    csv_download(
        frame,
        f"length_options_seed{meta.get('seed')}.csv",
        key="length_options_csv",
        label="Download the rule readings (CSV)",
    )
    st.plotly_chart(length_options_figure(result), width="stretch", key="length_options_chart")
    if result.left_out:
        st.caption(
            markdown_text(
                "Not played: "
                + "; ".join(f"{', '.join(names)}: {reason}" for names, reason in result.left_out_groups())
                + "."
            )
        )


def _simulation_section(
    cardset: CardSet,
    decks: dict[str, Deck],
    chosen: list[str],
    options: dict[str, OptionValue],
    engine: Engine,
    health: GameHealth | None = None,
) -> None:
    """A match between deck A and deck B, the power curve and the matchups, on one seed."""
    # The same defaults as `workbench power-curve` and `workbench report` (workbench.power_defaults).
    defaults = StudySettings.defaults(list(decks), list(engine.policies))
    policies = list(engine.policies)
    settings_row = st.columns(6)
    policy_a = policy_input(
        settings_row[0],
        "Deck A's policy",
        policies,
        policies.index(defaults.policy_a),
        "balance_policy_a",
        engine.search_settings,
    )
    policy_b = policy_input(
        settings_row[1],
        "Deck B's policy",
        policies,
        policies.index(defaults.policy_b),
        "balance_policy_b",
        engine.search_settings,
    )
    matches, matches_problem = count_input(
        settings_row[2],
        "Matches (A vs B, and per matchup)",
        MIN_MATCHES,
        MAX_MATCHES,
        defaults.matches,
        "balance_matches",
        step=100,
    )
    per_card, per_card_problem = count_input(
        settings_row[3],
        "Matches per card (power curve)",
        MIN_MATCHES,
        MAX_MATCHES,
        defaults.matches_per_card,
        PER_CARD_KEY,
        step=100,
        help_text="Split evenly over the chosen decks (the gauntlet).",
    )
    tolerance, tolerance_problem = score_input(
        settings_row[4],
        "Tolerance (score)",
        0.0,
        MAX_TOLERANCE,
        defaults.tolerance,
        TOLERANCE_KEY,
        step=0.005,
        help_text="Mispricing that does not matter, in score (0.02 = 2 points of win rate): a card is over or under "
        "only when its power lies beyond its band by more than this, on curve only when shown within it, and "
        f"undecided otherwise. Default {POWER_CURVE_DEFAULTS.tolerance:g}, about 0.6 of a cost step in SOURCE's "
        f"bundled set, whose line rises ({see_docs('simulation.md', 'How a verdict is decided')}).",
    )
    seed, seed_problem = count_input(settings_row[5], "Seed", 0, MAX_SEED, defaults.seed, "balance_seed")
    problems = [problem for problem in (matches_problem, per_card_problem, tolerance_problem, seed_problem) if problem]
    for problem in problems:
        st.error(problem)
    ticks = st.columns(3)
    with_curve = ticks[0].checkbox("Power curve", value=True, key="balance_with_curve")
    with_matchups = ticks[1].checkbox("Matchup matrix", value=True, key="balance_with_matchups")
    curve_row = st.columns(4)
    also_policies = curve_row[0].multiselect(
        "Also judge the power curve under",
        [policy for policy in policies if policy != policy_a],
        key="balance_also_policies",
        disabled=not with_curve,
        help="Runs the power curve once more per policy, on the same seed, and lists first the cards whose verdict "
        "differs between policies.",
    )
    auto_decks, auto_problem = count_input(
        curve_row[1],
        "Auto decks (power curve)",
        0,
        AUTO_DECKS_MAX,
        0,
        "balance_auto_decks",
        help_text="Adds this many decks built at random from the set under its deck rules; every card is measured "
        "in each of them, and its verdict compared with the chosen decks'. 0: the chosen decks only.",
    )
    share_percent, share_problem = count_input(
        curve_row[2],
        "Rarely played under (% of matches)",
        0,
        50,
        round(defaults.min_play_share * 100),
        "balance_min_play_share",
        help_text="A card its side played in fewer than this share of its matches is rarely played: left out of the "
        "line and the tier means, and given a verdict only where its interval lies clearly beyond its band. "
        "0 judges every card alike.",
    )
    follow_up, follow_problem = score_input(
        curve_row[3],
        "Second look (× a card's matches)",
        1.0,
        100.0,
        defaults.follow_up,
        "balance_follow_up",
        step=0.5,
        help_text="A card left undecided that more matches would decide within this many times its matches is "
        "measured again on fresh seeds and decided on all of them, at a stricter level (a fifth of each), so a card "
        f"near a verdict's edge does not flip between seeds. Default {POWER_CURVE_DEFAULTS.follow_up:g}; 1: no second "
        f"look ({see_docs('simulation.md', 'How a verdict is decided')}).",
    )
    for curve_problem in (auto_problem, share_problem, follow_problem):
        if curve_problem:
            st.error(curve_problem)
            problems.append(curve_problem)

    settings = StudySettings(
        decks=tuple(chosen),
        policy_a=policy_a,
        policy_b=policy_b,
        matches=int(matches),
        matches_per_card=int(per_card),
        seed=int(seed),
        with_power_curve=with_curve,
        with_matchups=with_matchups,
        also_policies=tuple(also_policies),
        auto_decks=int(auto_decks),
        min_play_share=int(share_percent) / 100,
        tolerance=float(tolerance),
        follow_up=float(follow_up),
    )
    settings_key = json.dumps(
        [
            cardset.content_hash(),
            sorted(options.items()),
            [workspace.decks[name].digest() for name in chosen],
            settings.__dict__,
        ],
        default=str,
    )
    results = results_store().get(settings_key)

    if chosen and not problems:
        # How long these settings take at this machine's pace (workbench bench's figures), or how to get a figure.
        st.caption(study_estimate(cardset, [decks[name] for name in chosen], settings, options).text)
    run = st.button("Run simulation", type="primary", disabled=not chosen or bool(problems), key="balance_run")
    # "Decide the undecided" asked for this budget on the last rerun: run it unless it was run already.
    decide = bool(st.session_state.pop(DECIDE_REQUEST_KEY, False))
    run = run or (decide and results is None and bool(chosen) and not problems)
    if run:

        def study_work(show: Callable[[float, str], None]) -> StudyResults:
            def report(phase: str, done: int, total: int) -> None:
                show(done / total if total else 1.0, f"{phase}: {done:,} of {total:,} matches")

            return run_study(cardset, decks, settings, options, progress=report)

        results = run_with_progress(cardset, decks[chosen[0]], CANCEL_KEY, "simulation", study_work)
        if results is not None:
            keep_result(settings_key, results)
            st.success(
                "Done in "
                + ", ".join(f"{phase.lower()} {seconds:.1f} s" for phase, seconds in results.seconds.items())
                + "."
            )
    else:
        run_notice(
            CANCEL_KEY,
            "simulation",
            "Press Run simulation to run it again.",
            "The run was cancelled; nothing from it was kept.",
        )

    if results is not None:
        # The session's latest stat values (Stat budget page) and patch proposals (this page's tab) for these very
        # cards and rule options go into the curve's Why statement and the reports too, as `workbench report` takes
        # them when given.
        kept_values = latest_result("stat_values", cardset, options)
        kept_values = kept_values if isinstance(kept_values, StatValues) else None
        _show_results(results, engine.cost_axis, kept_values)
        kept_proposals = latest_result("proposals", cardset, options)
        kept_proposals = kept_proposals if isinstance(kept_proposals, Proposals) else None
        shown = report_from_results(
            cardset,
            [decks[name] for name in chosen],
            options,
            results.curve,
            results.matchups,
            results.match,
            health,
            results.verdicts,
            stat_values=kept_values,
            proposals=kept_proposals,
        )
        st.caption(
            (
                "The reports hold the game health checked above (same decks and rule options)."
                if health is not None
                else "Press Check game health above to add the game's health to the reports."
            )
            + " "
            + _kept_in_reports(kept_values, kept_proposals)
        )
        left, right = st.columns(2)
        # What the reports hold: these results, the health checked above (or none), the kept stat values and proposals.
        identity = json.dumps(
            [
                settings_key,
                id(results),
                *(None if kept is None else id(kept) for kept in (health, kept_values, kept_proposals)),
            ]
        )
        report_download(
            left,
            "HTML",
            "balance_report_html",
            identity,
            lambda: render_html(shown),
            f"{cardset.name}_report.html",
            "text/html",
        )
        report_download(
            right,
            "XLSX",
            "balance_report_xlsx",
            identity,
            lambda: xlsx_bytes(shown),
            f"{cardset.name}_report.xlsx",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
    elif not run:
        # Only the simulation's own results count here; sweeps kept in the same store are not "other settings".
        earlier = sum(isinstance(kept, StudyResults) for kept in results_store().values())
        st.info(
            "Press Run simulation."
            + (f" ({earlier} earlier result(s) from other settings are kept for this session.)" if earlier else "")
        )


workspace = require_workspace(
    page_start(
        "Balance",
        "Seeded simulations: win rates with intervals, each card's power against its cost, matchups, card sweeps.",
    )
)
ruleset = workspace.ruleset
cardset = current_cardset(workspace)
# Card rows that could not be read play no part in any figure on this page: say which, with each one's finding.
if left_out := cardset.left_out_statement("every figure on this page"):
    st.warning(
        markdown_text(left_out)
        + "\n\n"
        + "\n".join(f"- {markdown_text(finding.to_text())}" for finding in cardset.left_out())
    )


# Whether the rule options box is open: kept by key, since game=full draws the box at another place on the page and
# an unkeyed box there would start closed again under the option just changed. (A comment, not a docstring:
# Streamlit's magic would write a bare string on the page.)
RULE_OPTIONS_OPEN_KEY = "balance_rule_options_open"


def _rule_options_expander() -> None:
    with st.expander(
        "Rule options for the simulation (shared with the Rules page)", key=RULE_OPTIONS_OPEN_KEY, on_change="rerun"
    ):
        option_inputs(ruleset, "balance", columns=3)
        st.page_link(RULES.path, label="Every ruleset's ledger", icon=RULES.icon)


# A ruleset that plays whole games switches this page to them when its rule options say game=full: no decklist is
# needed (workbench.app.full_game_view), and the figures are whole games' instead of matches between decks.
if is_full_game(ruleset, resolved_options(ruleset)):
    _rule_options_expander()
    full_game_sections(cardset, resolved_options(ruleset))
    st.stop()
inputs = engine_and_decks(workspace, cardset)
if inputs is None:
    if supports_full_game(ruleset):
        st.info(
            f"{ruleset.title} also plays whole games from the card sheet alone, without decklists: set the rule "
            "option game to full below."
        )
        _rule_options_expander()
    st.stop()
assert inputs is not None
engine, decks = inputs
chosen = deck_picker(
    "Decks (the first is deck A and the power curve's reference deck; the second is deck B; "
    "all of them make the gauntlet)",
    list(decks),
    "balance_decks",
)
_rule_options_expander()
options = resolved_options(ruleset)

for name in chosen:
    errors = [f for f in decks[name].load_findings if f.severity == "error"]
    if errors:
        st.warning(
            f"Deck {markdown_text(name)} has {len(errors)} unreadable line(s); only the lines that read are simulated."
        )

checked_health = _health_panel(cardset, decks, chosen, options, engine)

# Only the open tab runs: the hidden tab's inputs are not on the page, and its work is not done on every rerun.
simulation_tab, sweep_tab, proposals_tab = st.tabs(
    [SIMULATION_TAB, SWEEP_TAB, PROPOSALS_TAB], key=SECTION_KEY, on_change="rerun"
)
if simulation_tab.open:
    with simulation_tab:
        _simulation_section(cardset, decks, chosen, options, engine, checked_health)
if sweep_tab.open:
    with sweep_tab:
        _sweep_section(cardset, decks, chosen, options, engine)
if proposals_tab.open:
    with proposals_tab:
        proposals_section(
            workspace, cardset, decks, chosen, options, _default_policy_index(list(engine.policies)), engine
        )

with st.expander("What the figures mean"):
    st.markdown(
        "- **Win rate**: draws count half; the interval is the 95% Wilson interval from the match count.\n"
        "- **Power**: the change in score when 3 copies of a card replace its slot's filler in the reference deck, "
        "played against every chosen deck on the same seeds; "
        "the interval is the 95% normal interval of that paired mean.\n"
        "- **Flags**: a card is judged against its band: the line through the other judged cards (its cost ± 1/2) "
        "where power rises with cost, else the mean of the other judged cards of its cost; the band carries its own "
        "uncertainty. **Over** / **under** when its power lies beyond the band by more than the *tolerance* (set "
        f"beside the matches per card, default {POWER_CURVE_DEFAULTS.tolerance:g} of score), with the "
        f"false-discovery rate held at {POWER_CURVE_DEFAULTS.false_discovery_rate:.0%} across the cards "
        "(Benjamini-Hochberg; *q* is each card's adjusted p-value); **on curve** only when an equivalence test puts "
        "it within band and tolerance; otherwise **undecided**, with the matches per card that would decide it "
        "(*matches to decide*; the button *Decide the undecided* runs that budget). **No comparator**: no other "
        "judged card shares its cost and the line does not rise, so nothing is comparable. *Stability* is the "
        "share of bootstrap resamples of the matches that give the same flag again; *detectable* the smallest "
        "mispricing beyond the band this run would flag four times in five. **Baseline** marks a filler: the card "
        "the others replace, power 0 by construction; it gets no verdict and stays out of the fitted line and the "
        "tier means. **Rarely played** marks a card its side played in fewer than "
        f"{threshold_text(POWER_CURVE_DEFAULTS.min_play_share)} of its matches with no clear verdict: its power is "
        "mostly the filler's matches, and its *why* says what kept it out (never drawn, not affordable before the "
        "matches end, or passed over). A suggested cost is given only to an over or under card measured again at "
        "that cost and found within the tolerance. When power does not rise with cost, the page says so above the "
        "chart and withholds suggested costs.\n"
        "- **Sweep**: the same power, measured with the card's field at each value on the seeds of the set's own "
        "power curve, against the band of the card's cost at that value. A value whose matches are all the same as "
        "at the card's current value says *this field never changed a match*.\n"
        "- **Patch proposals**: a search over the cards' costs for the sets with the fewest changes and the fewest "
        "over/under cards (a Pareto front), each measured by a whole power curve on the search's seed; a proposal "
        "is offered only when a fresh run on a new seed confirms it: its changed cards no longer over or under, no "
        "card newly flagged, and the set better balanced.\n"
        f"- The same seed and settings give the same figures. {see_docs('simulation.md').capitalize()}."
    )
    st.dataframe(
        pd.DataFrame({"option": list(options), "value": [readable(v) for v in options.values()]}), hide_index=True
    )
