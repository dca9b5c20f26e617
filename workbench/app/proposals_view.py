"""The Balance page's *Patch proposals* tab: the fewest card changes that bring the set within the tolerance.

Everything shown is what `workbench.propose.propose` returns (the front, the proposals that held up in the proof
run on a new seed, the ones that did not and why); this module draws it. *Apply as a new version* changes the open
sheet as the proposal does (`workbench.app.workspace.apply_proposal`, which keeps the set as it stood as a version
the Compare versions page offers); the workbook download is `workbench.propose.proposal_workbook`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import pandas as pd
import streamlit as st

from workbench.app import VERSIONS
from workbench.app.widgets import EMPTY_CELL, count_input, policy_input, run_notice, run_with_progress
from workbench.app.wording import see_docs
from workbench.app.workspace import VERSIONS_SOURCE_KEY, Workspace, apply_proposal, keep_result, results_store
from workbench.cards import CardSet, Deck, OptionValue, WorkbenchInputError
from workbench.limits import limit
from workbench.markup import markdown_text
from workbench.pace import proposals_estimate
from workbench.play.assembly import Engine
from workbench.power_defaults import POWER_CURVE_DEFAULTS, PROPOSAL_DEFAULTS
from workbench.propose import Proposal, Proposals, proposal_workbook, propose
from workbench.run_settings import RunSettings

CANCEL_KEY = "proposals_cancel"
RUN_KEY = "proposals_run"
LOCKED_KEY = "proposals_locked"
APPLIED_KEY = "proposals_applied"
MIN_MATCHES = 10
MAX_MATCHES = limit("matches_per_card").value
DEFAULT_MATCHES = PROPOSAL_DEFAULTS.matches_per_card
MAX_EVALUATIONS = limit("proposal_evaluations").value
DEFAULT_EVALUATIONS = PROPOSAL_DEFAULTS.evaluations
MAX_CHANGES = 10
DEFAULT_MAX_CHANGES = PROPOSAL_DEFAULTS.max_changes
MAX_SEED = 2**31 - 1
VERDICT_COLUMNS = {
    "card": "card",
    "changed": "changed",
    "before_flag": "before",
    "before_power": "power before",
    "before_low": "low before",
    "before_high": "high before",
    "after_flag": "after",
    "after_power": "power after",
    "after_low": "low after",
    "after_high": "high after",
    "after_band_low": "band low after",
    "after_band_high": "band high after",
}
"""The proof run's verdict columns a proposal's table shows, and their headings."""
FRONT_COLUMNS = {
    "changes": "changes",
    "cards_changed": "cards changed",
    "total_change": "total change",
    "flagged": "over/under left",
    "mispricing": "mispricing left",
    "health_distance": "health distance",
    "held": "held up in the proof run",
}
"""The front's columns, and their headings."""
HEALTH_COLUMNS = ("figure", "before", "low before", "high before", "after", "low after", "high after", "healthy")
"""The columns of a proposal's match-ups and first-player table."""


def health_table(proposal: Proposal) -> pd.DataFrame:
    """A proposal's proof-run match-ups and first-player edge, before and after, with their 95% intervals and the
    healthy band (empty when they were not measured)."""
    before, after = proposal.before.health, proposal.after.health
    rows = []
    if before is not None and after is not None:
        for figure in after.figures:
            earlier = before.figure(figure.key, figure.label)
            if earlier is None:
                continue
            rows.append(
                {
                    "figure": figure.label,
                    "before": earlier.value,
                    "low before": earlier.low,
                    "high before": earlier.high,
                    "after": figure.value,
                    "low after": figure.low,
                    "high after": figure.high,
                    "healthy": f"{figure.band_low:.0%} to {figure.band_high:.0%}",
                }
            )
    return pd.DataFrame(rows, columns=list(HEALTH_COLUMNS))


def verdicts_table(proposal: Proposal) -> pd.DataFrame:
    """A proposal's proof-run verdicts, before and after, with their 95% intervals, under the headings shown."""
    columns = [column for column in VERDICT_COLUMNS if column in proposal.verdicts.columns]
    return proposal.verdicts[columns].rename(columns=VERDICT_COLUMNS)


def _verdicts_frame(proposal: Proposal) -> None:
    number = st.column_config.NumberColumn(format="%+.3f")
    st.dataframe(
        verdicts_table(proposal),
        hide_index=True,
        width="stretch",
        placeholder=EMPTY_CELL,
        column_config={
            heading: number
            for column, heading in VERDICT_COLUMNS.items()
            if column.endswith(("power", "low", "high")) and column != "card"
        },
    )


def _apply(workspace: Workspace, cardset: CardSet, proposal: Proposal, number: int) -> None:
    """Apply a proposal to the open sheet; the page says what was done (or why not) on its next run."""
    cards = sorted({change.card for change in proposal.changes})
    label = f"before proposal {number} was applied ({'; '.join(proposal.patch_notes) or ', '.join(cards)})"
    try:
        source = apply_proposal(workspace, cardset, proposal.cardset, cards, label)
    except WorkbenchInputError as error:
        st.session_state[APPLIED_KEY] = ("error", f"Proposal {number} was not applied: {error}")
        return
    st.session_state[VERSIONS_SOURCE_KEY] = source
    st.session_state[APPLIED_KEY] = (
        "success",
        f"Proposal {number} was applied as a new version of the set: "
        + " ".join(proposal.patch_notes)
        + " Compare versions shows it against the set as it stood before.",
    )


def _show_proposal(
    workspace: Workspace,
    cardset: CardSet,
    decks: list[Deck],
    proposal: Proposal,
    number: int,
    settings_key: str,
) -> None:
    with st.container(border=True):
        st.markdown(f"**Proposal {number}** · {proposal.cards_changed} card(s) changed")
        st.markdown("\n".join(f"- {markdown_text(note)}" for note in proposal.patch_notes))
        st.caption(markdown_text(proposal.statement))
        metrics = st.columns(2)
        metrics[0].metric(
            "Over/under in the proof run",
            proposal.after.flagged,
            delta=proposal.after.flagged - proposal.before.flagged,
            delta_color="inverse",
            help=f"{proposal.before.flagged} before the change.",
        )
        metrics[1].metric(
            "Mispricing in the proof run",
            f"{proposal.after.mispricing:.3f}",
            delta=f"{proposal.after.mispricing - proposal.before.mispricing:+.3f}",
            delta_color="inverse",
            help=f"{proposal.before.mispricing:.3f} before the change: over the judged cards, how far they lie "
            "beyond half the band plus the tolerance, in score.",
        )
        _verdicts_frame(proposal)
        health = health_table(proposal)
        if len(health):
            assert proposal.after.health is not None
            what = "Match-ups and first-player edge" if proposal.after.health.matchups else "First-player edge"
            st.caption(
                f"{what} in the proof run ({proposal.after.health.matches_per_pair:,} matches per ordered pair of "
                f"decks): health distance {proposal.before.health_distance:.3f} -> "
                f"{proposal.after.health_distance:.3f} (how far they lie outside the healthy band, beyond their "
                "intervals)."
            )
            share = st.column_config.NumberColumn(format="percent")
            st.dataframe(
                health,
                hide_index=True,
                width="stretch",
                column_config={c: share for c in HEALTH_COLUMNS if c not in ("figure", "healthy")},
            )
        buttons = st.columns(2)
        buttons[0].button(
            "Apply as a new version",
            key=f"proposal_apply:{number}",
            icon=":material/published_with_changes:",
            on_click=_apply,
            args=(workspace, cardset, proposal, number),
            help="Changes the open set as the patch notes say (as an edit in the card editor would); the set as it "
            "stands now is kept, and Compare versions shows the two.",
        )
        stem = f"{workspace.set_name}_proposal_{number}"
        buttons[1].download_button(
            "Download the new version (xlsx)",
            data=lambda: proposal_workbook(proposal, cardset, decks, source=workspace.source),
            file_name=f"{stem}.xlsx",
            mime="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            key=f"proposal_download:{number}:{settings_key}",
            icon=":material/download:",
            on_click="ignore",
        )


def _show_proposals(
    workspace: Workspace, cardset: CardSet, decks: list[Deck], result: Proposals, settings_key: str
) -> None:
    search, proof = result.meta.get("search", {}), result.meta.get("proof", {})
    proof_words = (
        f"proof on a new seed {proof.get('seed')} at {proof.get('matches_per_card', 0):,} matches per card"
        if proof.get("run")
        else "no proof run (nothing to prove)"
    )
    st.caption(
        markdown_text(
            f"{search.get('ruleset')} v{search.get('ruleset_version')} · search seed {search.get('seed')}, "
            f"{search.get('matches_per_card', 0):,} matches per card, policy {search.get('policy')}, "
            f"{result.evaluated} sets measured · {proof_words} · tolerance {result.meta.get('tolerance')} · "
            f"card-set hash {search.get('cardset_hash')} · took {result.seconds:.0f} s"
        )
    )
    for statement in result.statements:
        if not statement.startswith("Not offered:"):
            st.markdown(f"- {markdown_text(statement)}")
    st.subheader(f"Offered ({len(result.offered)})")
    if not result.offered:
        st.info("No proposal held up in the proof run, so none is offered.")
    for number, proposal in enumerate(result.offered, start=1):
        _show_proposal(workspace, cardset, decks, proposal, number, settings_key)
    st.subheader(f"Not offered ({len(result.refused)})")
    if not result.refused:
        st.caption("Every proposal proved held up.")
    for proposal in result.refused:
        with st.container(border=True):
            st.markdown("\n".join(f"- {markdown_text(note)}" for note in proposal.patch_notes))
            st.warning(markdown_text(proposal.statement))
    with st.expander("The front: every measured set no other beats on all five objectives"):
        st.dataframe(
            result.front[list(FRONT_COLUMNS)].rename(columns=FRONT_COLUMNS),
            hide_index=True,
            width="stretch",
            placeholder=EMPTY_CELL,
            column_config={
                "mispricing left": st.column_config.NumberColumn(format="%.3f"),
                "health distance": st.column_config.NumberColumn(format="%.3f"),
            },
        )
        st.caption(
            "Figures of the search's run (the search's seed). A proposal is offered only when a fresh run on a new "
            "seed confirms it; at most six front members are proved."
        )


def proposals_section(
    workspace: Workspace,
    cardset: CardSet,
    decks: dict[str, Deck],
    chosen: list[str],
    options: dict[str, OptionValue],
    policy_index: int,
    engine: Engine,
) -> None:
    """Settings, Run with progress, then the offered proposals and the ones that did not hold up."""
    st.caption(
        "A search over card costs for the fewest changes that bring the over- and under-powered cards within the "
        "tolerance and keep the deck match-ups and the first-player edge in their healthy band, each proposal proved "
        "by a fresh simulation on a new seed; only the ones that hold up (and make no match-up or first-player edge "
        "worse beyond its interval) are offered. The decks chosen above play: the first is the reference deck, all "
        "of them the gauntlet and the match-ups; "
        f"{see_docs('simulation.md', 'Patch proposals')}."
    )
    applied = st.session_state.pop(APPLIED_KEY, None)
    if applied is not None:
        (st.success if applied[0] == "success" else st.error)(markdown_text(applied[1]))
        if applied[0] == "success":
            st.page_link(VERSIONS.path, label="Compare versions", icon=VERSIONS.icon)
    row = st.columns(4)
    per_card, per_card_problem = count_input(
        row[0],
        "Matches per card",
        MIN_MATCHES,
        MAX_MATCHES,
        DEFAULT_MATCHES,
        "proposals_matches",
        step=100,
        help_text="Of each measured set's power curve, and of the proof run.",
    )
    evaluations, evaluations_problem = count_input(
        row[1],
        "Evaluations",
        1,
        MAX_EVALUATIONS,
        DEFAULT_EVALUATIONS,
        "proposals_evaluations",
        help_text="How many candidate sets the search measures (each a whole power curve).",
    )
    max_changes, changes_problem = count_input(
        row[2],
        "Max changes",
        1,
        MAX_CHANGES,
        DEFAULT_MAX_CHANGES,
        "proposals_max_changes",
        help_text="The most cards one proposal changes.",
    )
    seed, seed_problem = count_input(row[3], "Seed", 0, MAX_SEED, POWER_CURVE_DEFAULTS.seed, "proposals_seed")
    names = [entry.card.name for entry in cardset]
    if any(name not in names for name in st.session_state.get(LOCKED_KEY, [])):
        st.session_state[LOCKED_KEY] = [name for name in st.session_state[LOCKED_KEY] if name in names]
    locked = st.multiselect("Locked cards (never changed)", names, key=LOCKED_KEY)
    policy = policy_input(st, "Policy", list(engine.policies), policy_index, "proposals_policy", engine.search_settings)
    problems = [p for p in (per_card_problem, evaluations_problem, changes_problem, seed_problem) if p]
    for problem in problems:
        st.error(problem)
    settings_key = json.dumps(
        [
            "proposals",
            cardset.content_hash(),
            sorted(options.items()),
            [workspace.decks[name].digest() for name in chosen],
            per_card,
            evaluations,
            max_changes,
            seed,
            sorted(locked),
            policy,
        ],
        default=str,
    )
    result = results_store().get(settings_key)
    if chosen and not problems:
        # The most the search takes at this machine's pace (workbench bench's figures), or how to get a figure.
        st.caption(
            proposals_estimate(
                cardset, [decks[name] for name in chosen], int(per_card), int(evaluations), policy, options
            ).text
        )
    run = st.button(
        "Run proposals", type="primary", disabled=not chosen or bool(problems), key=RUN_KEY, icon=":material/search:"
    )
    if run:
        started = time.perf_counter()

        def work(show: Callable[[float, str], None]) -> Proposals:
            def report(done: int, total: int) -> None:
                share = done / total if total else 1.0
                show(share, f"Proposals: {share:.0%} (up to {evaluations} sets searched, then the front proved)")

            return propose(
                cardset,
                [decks[name] for name in chosen],
                per_card,
                RunSettings(seed=seed, policy=policy, options=options, progress=report),
                evaluations=evaluations,
                max_changes=max_changes,
                locked_cards=locked,
            )

        result = run_with_progress(cardset, decks[chosen[0]], CANCEL_KEY, "proposal search", work)
        if result is not None:
            keep_result(settings_key, result)
            st.success(f"Done in {time.perf_counter() - started:.1f} s.")
    else:
        run_notice(CANCEL_KEY, "proposal search", "Press Run proposals to run it again.")
    if isinstance(result, Proposals):
        _show_proposals(workspace, cardset, list(decks.values()), result, settings_key)
    elif not run:
        st.info("Press Run proposals.")
