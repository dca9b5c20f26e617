"""Balance page: simulate decks against each other, measure each card's power, read a seeded match.

Runs show a progress bar and a Cancel button: pressing Cancel reruns the page,
which stops the run at its next progress report. Results are kept per
session, keyed by the card set's content hash, the rule options, the decks and
the settings, so going back to settings already run shows them at once.
"""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from workbench.app import DECKS, RULES
from workbench.app.widgets import option_inputs, page_start, require_workspace
from workbench.app.workspace import (
    current_cardset,
    keep_result,
    parse_deck,
    resolved_options,
    results_store,
)
from workbench.balance_study import (
    StudyResults,
    StudySettings,
    is_warm,
    provenance_line,
    run_study,
    warm_up_engine,
)
from workbench.cards import Deck, WorkbenchInputError
from workbench.charts import (
    first_player_figure,
    game_length_histogram,
    matchup_heatmap,
    power_curve_figure,
)
from workbench.report_html import render_html
from workbench.reports import report_from_results, xlsx_bytes
from workbench.rulesets import RULESETS

CANCEL_KEY = "balance_cancel"
MAX_MATCHES = 1_000_000


def _show_results(results: StudyResults, cost_axis: str) -> None:
    st.caption(provenance_line(results))
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
            st.plotly_chart(power_curve_figure(curve, cost_axis), width="stretch", key="power_curve_chart")
            st.caption(
                f"Reference deck {curve.meta.get('reference_deck')}, "
                f"gauntlet {', '.join(curve.meta.get('gauntlet', []))}; "
                f"{curve.meta.get('matches_per_card'):,} matches per card; baseline score {curve.baseline}. "
                "Power = change in score when a card replaces its slot's filler (95% interval); "
                "over/under = the interval lies wholly above/below the card's cost tier band."
            )
            table = curve.cards.copy()
            order = {"over": 0, "under": 1, "on curve": 2}
            table = table.sort_values(by=["flag", "power"], key=lambda s: s.map(order) if s.name == "flag" else -s)
            st.dataframe(
                table[["card", "cost", "power", "low", "high", "flag", "suggested_cost", "win_rate", "note"]],
                hide_index=True,
                width="stretch",
                column_config={
                    "power": st.column_config.NumberColumn(format="%+.3f"),
                    "low": st.column_config.NumberColumn(format="%+.3f"),
                    "high": st.column_config.NumberColumn(format="%+.3f"),
                    "win_rate": st.column_config.NumberColumn(format="%.3f"),
                },
            )
    with tabs[2]:
        matchups = results.matchups
        if matchups is None:
            st.info("Matchups need two decks or more (and the box ticked).")
        else:
            st.plotly_chart(matchup_heatmap(matchups), width="stretch")
            st.dataframe(matchups, hide_index=True, width="stretch")
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


workspace = require_workspace(
    page_start("Balance", "Seeded simulations: win rates with intervals, each card's power against its cost, matchups.")
)
ruleset = workspace.ruleset
if ruleset.engine_module is None:
    with_engines = [r.id for r in RULESETS.values() if r.engine_module]
    st.info(
        f"The {ruleset.title} ruleset (`{ruleset.id}`) has no match engine yet, so its cards cannot be simulated. "
        + (
            f"Rulesets with an engine: {', '.join(with_engines)}; open one of their sets on the Card sets page."
            if with_engines
            else "No ruleset has a match engine yet."
        )
    )
    st.stop()
try:
    engine = ruleset.engine
except Exception as error:  # an engine module that fails to import must not take the page down
    st.error(f"The {ruleset.id} match engine could not be loaded: {type(error).__name__}: {error}")
    st.stop()
assert engine is not None

cardset = current_cardset(workspace)
decks: dict[str, Deck] = {}
unreadable: list[str] = []
for name, source in workspace.decks.items():
    try:
        deck = parse_deck(source, cardset)
    except WorkbenchInputError as error:
        unreadable.append(f"{name}: {error}")
        continue
    if deck.size() > 0:
        decks[name] = deck
for problem in unreadable:
    st.warning(f"Decklist skipped: {problem}")
if not decks:
    st.info("Add decklists with cards on the Decks page first.")
    st.page_link(DECKS.path, label="Go to Decks", icon=DECKS.icon)
    st.stop()

names = list(decks)
if "balance_decks" not in st.session_state:
    st.session_state["balance_decks"] = names[:2]
elif any(d not in names for d in st.session_state["balance_decks"]):
    st.session_state["balance_decks"] = [d for d in st.session_state["balance_decks"] if d in names]
chosen = st.multiselect(
    "Decks (the first is deck A and the power curve's reference deck; the second is deck B; "
    "all of them make the gauntlet)",
    names,
    key="balance_decks",
)
settings_row = st.columns(5)
policy_a = settings_row[0].selectbox("Deck A's policy", list(engine.policies), key="balance_policy_a")
policy_b = settings_row[1].selectbox("Deck B's policy", list(engine.policies), key="balance_policy_b")
matches = settings_row[2].number_input(
    "Matches (A vs B, and per matchup)",
    min_value=10,
    max_value=MAX_MATCHES,
    value=1_000,
    step=100,
    key="balance_matches",
)
per_card = settings_row[3].number_input(
    "Matches per card (power curve)", min_value=10, max_value=MAX_MATCHES, value=200, step=100, key="balance_per_card"
)
seed = settings_row[4].number_input("Seed", min_value=0, max_value=2**31 - 1, value=0, step=1, key="balance_seed")
ticks = st.columns(3)
with_curve = ticks[0].checkbox("Power curve", value=True, key="balance_with_curve")
with_matchups = ticks[1].checkbox("Matchup matrix", value=True, key="balance_with_matchups")
with st.expander("Rule options for the simulation (shared with the Rules page)"):
    option_inputs(ruleset, "balance", columns=3)
    st.page_link(RULES.path, label="Every ruleset's ledger", icon=RULES.icon)
options = resolved_options(ruleset)

for name in chosen:
    errors = [f for f in decks[name].load_findings if f.severity == "error"]
    if errors:
        st.warning(f"Deck {name} has {len(errors)} unreadable line(s); only the lines that read are simulated.")

settings = StudySettings(
    decks=tuple(chosen),
    policy_a=policy_a,
    policy_b=policy_b,
    matches=int(matches),
    matches_per_card=int(per_card),
    seed=int(seed),
    with_power_curve=with_curve,
    with_matchups=with_matchups,
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

run = st.button("Run simulation", type="primary", disabled=not chosen, key="balance_run")
if run:
    cancel_slot = st.empty()
    cancel_slot.button("Cancel", key=CANCEL_KEY, icon=":material/stop_circle:")
    bar = st.progress(0.0, text="Starting…")
    try:
        if not is_warm(cardset):
            bar.progress(0.0, text=f"Loading the {ruleset.id} engine (compiled on its first use on this machine)…")
            spent = warm_up_engine(cardset, decks[chosen[0]])
            st.caption(f"Engine ready in {spent:.1f} s.")

        def report(phase: str, done: int, total: int) -> None:
            bar.progress(min(1.0, done / total) if total else 1.0, text=f"{phase}: {done:,} of {total:,} matches")

        results = run_study(cardset, decks, settings, options, progress=report)
    except WorkbenchInputError as error:
        st.error(f"The simulation did not run: {error}")
        results = None
    cancel_slot.empty()
    bar.empty()
    if results is not None:
        keep_result(settings_key, results)
        st.success(
            "Done in "
            + ", ".join(f"{phase.lower()} {seconds:.1f} s" for phase, seconds in results.seconds.items())
            + "."
        )
elif st.session_state.get(CANCEL_KEY):
    st.warning("The run was cancelled; nothing from it was kept.")

if results is not None:
    _show_results(results, engine.cost_axis)
    shown = report_from_results(
        cardset, [decks[name] for name in chosen], options, results.curve, results.matchups, results.match
    )
    left, right = st.columns(2)
    left.download_button(
        "Download balance report (HTML)",
        data=lambda: render_html(shown),
        file_name=f"{cardset.name}_report.html",
        mime="text/html",
        key="balance_report_html",
    )
    right.download_button(
        "Download balance report (XLSX)",
        data=lambda: xlsx_bytes(shown),
        file_name=f"{cardset.name}_report.xlsx",
        mime="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        key="balance_report_xlsx",
    )
elif not run:
    earlier = len(results_store())
    st.info(
        "Press Run simulation."
        + (f" ({earlier} earlier result(s) from other settings are kept for this session.)" if earlier else "")
    )

with st.expander("What the figures mean"):
    st.markdown(
        "- **Win rate**: draws count half; the interval is the 95% Wilson interval from the match count.\n"
        "- **Power**: the change in score when 3 copies of a card replace its slot's filler in the reference deck, "
        "played against every chosen deck on the same seeds; "
        "the interval is the 95% normal interval of that paired mean.\n"
        "- **Flags**: over/under when a card's interval lies wholly above/below "
        "its cost tier's band on the fitted line.\n"
        "- The same seed and settings give the same figures. See docs/simulation.md."
    )
    st.dataframe(pd.DataFrame({"option": list(options), "value": [str(v) for v in options.values()]}), hide_index=True)
