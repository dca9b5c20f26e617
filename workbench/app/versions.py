"""Compare versions page: what changed between an earlier version of the set and the set as it stands now.

The set open in the session, with its edits, is compared with the set as it was
opened, with an uploaded earlier version, with another bundled set of the same
game, or with a version kept in this session (the set as it stood before a patch
proposal was applied on the Balance page). Everything shown is what `workbench.diff.diff_cardsets` returns (patch
notes, cards added, removed, renamed and changed field by field, findings that
appeared or went away, cost moves); `workbench.diff.with_power_changes`
simulates the changed cards' power in both versions. The page only reads files
and draws.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd
import streamlit as st

from workbench.app import CARD_EDITOR
from workbench.app.widgets import (
    EMPTY_CELL,
    count_input,
    csv_download,
    deck_picker,
    engine_and_decks,
    findings_column_config,
    findings_frame,
    options_summary,
    page_start,
    policy_input,
    require_workspace,
    run_with_progress,
)
from workbench.app.workspace import (
    KEPT_SOURCE_PREFIX,
    VERSIONS_SOURCE_KEY,
    Workspace,
    current_cardset,
    keep_result,
    read_other_version,
    rename_notes,
    resolved_options,
    results_store,
    rule_overrides,
    stat_budget_for,
)
from workbench.balance_study import provenance_text
from workbench.cards import CardEntry, CardSet, WorkbenchInputError
from workbench.charts import power_change_figure
from workbench.diff import SetDiff, diff_cardsets, show_value, with_power_changes
from workbench.editing import composed_renames
from workbench.markup import markdown_text
from workbench.paths import bundled_sets
from workbench.power_defaults import POWER_CURVE_DEFAULTS
from workbench.run_settings import RunSettings
from workbench.spreadsheets import MAX_FILE_BYTES

AS_OPENED = "opened"
UPLOADED = "upload"
BUNDLED = "bundled"
SOURCE_KEY = VERSIONS_SOURCE_KEY
UPLOAD_KEY = "versions_upload"
BUNDLED_KEY = "versions_bundled"
# Page scripts are run with Streamlit's "magic": a bare string would be drawn, so these notes are comments.
# EARLIER_KEY: session memo, source key -> the earlier version read (or its error message), read once per session.
# DIFF_KEY: session memo, (settings key, SetDiff) of the last comparison drawn.
EARLIER_KEY = "versions_earlier"
DIFF_KEY = "versions_diff"
POWER_CANCEL_KEY = "versions_power_cancel"
POWER_DECKS_KEY = "versions_decks"
MAX_KEPT_EARLIER = 6
MAX_MATCHES = 1_000_000
MIN_MATCHES = 10
MAX_SEED = 2**31 - 1
UPLOAD_LIMIT_MIB = MAX_FILE_BYTES // 2**20


# Escaped when a card name or value is shown as Markdown (so `$` is not maths, `*` not emphasis).
def _card_name(entry: CardEntry) -> str:
    return entry.card.name


def _card_kind(entry: CardEntry) -> str:
    return entry.card.kind


def _earlier_version(
    source_key: str, data: bytes, filename: str, workspace: Workspace, as_opened: bool = False
) -> CardSet:
    """The earlier version, read once per session and source; unreadable input raises `WorkbenchInputError`."""
    memo: dict[str, CardSet | str] = st.session_state.setdefault(EARLIER_KEY, {})
    key = f"{workspace.ruleset_id}:{source_key}"
    if key not in memo:
        try:
            memo[key] = read_other_version(data, filename, workspace.ruleset, check_declared=not as_opened)
        except WorkbenchInputError as error:
            memo[key] = str(error)  # the message, so a rerun says it again without reading the file again
        while len(memo) > MAX_KEPT_EARLIER:
            memo.pop(next(iter(memo)))
    found = memo[key]
    if isinstance(found, str):
        raise WorkbenchInputError(found)
    return found


def _other_bundled(workspace: Workspace) -> list[str]:
    """The bundled sets of the open set's game, except the one open now."""
    try:
        paths = bundled_sets(workspace.ruleset_id)
    except WorkbenchInputError:
        return []  # a game without bundled sets (an uploaded set of a registered-for-test ruleset) has none to offer
    return [str(path) for path in paths if not (workspace.origin == "bundled" and path.name == workspace.filename)]


def _cards_tab(diff: SetDiff) -> None:
    st.subheader(f"Added ({len(diff.added)})")
    if diff.added:
        st.dataframe(
            pd.DataFrame(
                [{"row": e.row, "card": _card_name(e), "kind": _card_kind(e)} for e in diff.added],
                columns=["row", "card", "kind"],
            ),
            hide_index=True,
            placeholder=EMPTY_CELL,
            width="stretch",
        )
        st.caption("row: the card's row in the set as it stands now (header = row 1).")
    else:
        st.caption("No card was added.")
    st.subheader(f"Removed ({len(diff.removed)})")
    if diff.removed:
        st.dataframe(
            pd.DataFrame(
                [
                    {"row in the earlier version": e.row, "card": _card_name(e), "kind": _card_kind(e)}
                    for e in diff.removed
                ],
                columns=["row in the earlier version", "card", "kind"],
            ),
            hide_index=True,
            placeholder=EMPTY_CELL,
            width="stretch",
        )
    else:
        st.caption("No card was removed.")
    renamed = diff.renamed
    st.subheader(f"Renamed ({len(renamed)})")
    if renamed:
        st.dataframe(
            pd.DataFrame(
                [
                    {
                        "row": c.row,
                        "old name": c.old_name,
                        "new name": c.name,
                        "fields also changed": ", ".join(f.column for f in c.changes),
                    }
                    for c in renamed
                ],
                columns=["row", "old name", "new name", "fields also changed"],
            ),
            hide_index=True,
            placeholder=EMPTY_CELL,
            width="stretch",
        )
    else:
        st.caption("No card was renamed.")
    field_rows = [
        {
            "row": change.row,
            "card": change.name,
            "was named": change.old_name if change.renamed else "",
            "column": field.column,
            "old": show_value(field.old),
            "new": show_value(field.new),
        }
        for change in diff.changed
        for field in change.changes
    ]
    changed_cards = len({row["card"] for row in field_rows})
    st.subheader(f"Changed, field by field ({changed_cards} card{'' if changed_cards == 1 else 's'})")
    if field_rows:
        st.dataframe(
            pd.DataFrame(field_rows, columns=["row", "card", "was named", "column", "old", "new"]),
            hide_index=True,
            placeholder=EMPTY_CELL,
            width="stretch",
            column_config={
                "row": st.column_config.NumberColumn(
                    "row", help="The card's row in the set as it stands now.", format="%d"
                ),
                "column": st.column_config.TextColumn("column", help="The column header as the sheet writes it."),
            },
        )
    else:
        st.caption("No field of a card in both versions changed.")


def _open_in_editor(workspace: Workspace, diff: SetDiff) -> None:
    """A picker that opens an added or changed card in the Card editor."""
    choices = {f"row {e.row} · {_card_name(e)} (added)": e.row for e in diff.added}
    choices |= {f"row {c.row} · {c.name} (changed)": c.row for c in diff.changed}
    if not choices:
        return
    with st.form("versions_open_card", border=False):
        choice = st.selectbox(
            "Open a card of the set as it stands now in the editor", sorted(choices, key=lambda label: choices[label])
        )
        if st.form_submit_button("Open in editor") and choice is not None:
            workspace.selected_row = choices[choice]
            st.switch_page(CARD_EDITOR.path)


def _findings_tab(diff: SetDiff) -> None:
    for title, findings, where, none in (
        ("Appeared", diff.findings_appeared, "the set as it stands now", "No finding appeared."),
        ("Went away", diff.findings_resolved, "the earlier version", "No finding went away."),
    ):
        st.subheader(f"{title} ({len(findings)})")
        if findings:
            st.dataframe(
                findings_frame(findings),
                hide_index=True,
                width="stretch",
                placeholder=EMPTY_CELL,
                column_config=findings_column_config(hide=("deck",)),
            )
            st.caption(f"Rows and columns of {where}.")
            csv_download(
                findings_frame(findings),
                f"findings_{title.lower().replace(' ', '_')}.csv",
                f"diff_findings_csv:{title}",
                "Download findings (CSV)",
            )
        else:
            st.caption(none)


def _costs_tab(diff: SetDiff, workspace: Workspace, cardset: CardSet) -> None:
    budget = stat_budget_for(workspace, cardset)
    if budget is None:
        st.info(
            f"The {workspace.ruleset.title} ruleset (`{workspace.ruleset_id}`) has no stat budget, so there is no "
            "cost axis to compare."
        )
        return
    if not diff.cost_changes:
        st.caption(f"No card's {budget.cost_label} or {budget.budget_label} moved.")
        return
    cost, spent = budget.cost_label, budget.budget_label
    frame = pd.DataFrame(
        [
            {
                "card": change.card,
                f"{cost} before": change.old_cost,
                f"{cost} now": change.new_cost,
                f"{spent} before": change.old_budget,
                f"{spent} now": change.new_budget,
            }
            for change in diff.cost_changes
        ],
        columns=["card", f"{cost} before", f"{cost} now", f"{spent} before", f"{spent} now"],
    )
    st.dataframe(frame, hide_index=True, width="stretch", placeholder=EMPTY_CELL)
    st.caption(
        f"From the ruleset's stat budget ({budget.line_label}); an empty 'before' is a card the earlier version "
        "did not have."
    )


def _power_tab(diff: SetDiff, workspace: Workspace, cardset: CardSet, old_key: str) -> SetDiff:
    """The power run's settings, button and results; returns the diff with power when a kept run fits the settings."""
    ruleset = workspace.ruleset
    moved = len(diff.cards_whose_play_changed)
    if not moved:
        st.info("No card was added, removed or changed in a field, so no card's power can have moved.")
        return diff
    inputs = engine_and_decks(workspace, cardset)
    if inputs is None:
        return diff
    engine, decks = inputs
    st.caption(
        f"Each of the {moved} added, removed or changed card(s) is measured in both versions in one run of today's "
        "game: a version's power is the change in score when it replaces its slot's filler in the reference deck, "
        "against the same gauntlet and seeds (95% interval). Stronger/weaker only when the two intervals do not "
        "overlap."
    )
    chosen = deck_picker(
        "Decks for the power run (the first is the reference deck; all of them make the gauntlet)",
        list(decks),
        POWER_DECKS_KEY,
    )
    row = st.columns(3)
    # The power-curve defaults of the Balance page and the command line (workbench.power_defaults).
    per_card, per_card_problem = count_input(
        row[0],
        "Matches per card version",
        MIN_MATCHES,
        MAX_MATCHES,
        POWER_CURVE_DEFAULTS.matches_per_card,
        "versions_per_card",
        step=100,
    )
    seed, seed_problem = count_input(row[1], "Seed", 0, MAX_SEED, POWER_CURVE_DEFAULTS.seed, "versions_seed")
    policies = list(engine.policies)
    policy = policy_input(
        row[2],
        "Policy",
        policies,
        policies.index(POWER_CURVE_DEFAULTS.policy) if POWER_CURVE_DEFAULTS.policy in policies else 0,
        "versions_policy",
        engine.search_settings,
    )
    count_problems = [problem for problem in (per_card_problem, seed_problem) if problem]
    for problem in count_problems:
        st.error(problem)
    options = resolved_options(ruleset)
    for name in chosen:
        errors = [f for f in decks[name].load_findings if f.severity == "error"]
        if errors:
            st.warning(
                f"Deck {markdown_text(name)} has {len(errors)} line(s) that do not read against the set as it "
                "stands now; only the lines that read are played."
            )
    settings_key = json.dumps(
        [
            "power_changes",
            old_key,
            diff.old.content_hash(),
            cardset.content_hash(),
            sorted(options.items()),
            [workspace.decks[name].digest() for name in chosen],
            int(per_card),
            int(seed),
            policy,
        ],
        default=str,
    )
    kept = results_store().get(settings_key)
    run = st.button(
        "Simulate power of the changed cards",
        type="primary",
        disabled=not chosen or bool(count_problems),
        key="versions_power_run",
    )
    if run:

        def power_work(show: Callable[[float, str], None]) -> SetDiff:
            def report(done: int, total: int) -> None:
                show(done / total if total else 1.0, f"Power of the changed cards: {done:,} of {total:,} matches")

            return with_power_changes(
                diff,
                [decks[name] for name in chosen],
                matches_per_card=int(per_card),
                run=RunSettings(seed=int(seed), policy=policy, options=options, progress=report),
            )

        kept = run_with_progress(cardset, decks[chosen[0]], POWER_CANCEL_KEY, "power run", power_work)
        if kept is not None:
            keep_result(settings_key, kept)
    elif st.session_state.get(POWER_CANCEL_KEY):
        st.warning("The power run was cancelled; nothing from it was kept.")
    if not isinstance(kept, SetDiff) or kept.power is None:
        if not run:
            st.info("Press Simulate power of the changed cards.")
        return diff
    _show_power(kept)
    return kept


def _show_power(shown: SetDiff) -> None:
    power = shown.power
    assert power is not None
    meta = power.meta
    if meta:
        st.caption(markdown_text(provenance_text(meta, "matches per card version", shown.new.ruleset)))
        st.caption(
            f"Reference deck {markdown_text(meta.get('reference_deck'))}, gauntlet "
            f"{markdown_text(', '.join(meta.get('gauntlet', [])))}. "
            f"Before = the earlier version (hash {meta.get('old_cardset_hash')}), measured in the set as it stands now."
        )
    for note in power.notes:
        st.info(markdown_text(note))
    frame = power.frame
    if frame.empty:
        return
    st.plotly_chart(power_change_figure(power), width="stretch", key="versions_power_chart")
    number = st.column_config.NumberColumn(format="%+.3f")
    st.dataframe(
        frame,
        hide_index=True,
        placeholder=EMPTY_CELL,
        width="stretch",
        column_config={
            "old_name": st.column_config.TextColumn("name before"),
            "old_cost": st.column_config.NumberColumn("cost before", format="%g"),
            "new_cost": st.column_config.NumberColumn("cost now", format="%g"),
            "old_power": st.column_config.NumberColumn("power before", format="%+.3f"),
            "old_low": st.column_config.NumberColumn("low before", format="%+.3f"),
            "old_high": st.column_config.NumberColumn("high before", format="%+.3f"),
            "new_power": st.column_config.NumberColumn("power now", format="%+.3f"),
            "new_low": st.column_config.NumberColumn("low now", format="%+.3f"),
            "new_high": st.column_config.NumberColumn("high now", format="%+.3f"),
            "change": number,
            "verdict": st.column_config.TextColumn(
                "verdict", help="stronger / weaker only when the two 95% intervals do not overlap"
            ),
        },
    )


def _patch_notes(shown: SetDiff, old_label: str, new_label: str) -> None:
    lines: Sequence[str] = shown.patch_notes()
    ruleset = shown.new.ruleset
    with st.container(border=True):
        st.subheader("Patch notes")
        if lines:
            st.markdown("\n".join(f"- {markdown_text(line)}" for line in lines))
        else:
            st.markdown("No changes.")
        markdown = "\n".join(
            [
                f"# Patch notes: {markdown_text(new_label)}",
                "",
                f"Compared with {markdown_text(old_label)} · {ruleset.title} ({ruleset.id} v{ruleset.version})",
                "",
                *(f"- {markdown_text(line)}" for line in lines or ["No changes."]),
                "",
            ]
        )
        stem = Path(shown.new.name or "set").stem or "set"
        left, right = st.columns(2)
        left.download_button(
            "Download the patch notes (Markdown)",
            data=markdown,
            file_name=f"{stem}_patch_notes.md",
            mime="text/markdown",
            on_click="ignore",
            key="versions_download_notes",
            icon=":material/download:",
        )
        right.download_button(
            "Download the diff (JSON)",
            data=lambda: json.dumps(shown.to_json(), indent=2, ensure_ascii=False, default=str) + "\n",
            file_name=f"{stem}_diff.json",
            mime="application/json",
            on_click="ignore",
            key="versions_download_json",
            icon=":material/download:",
        )


workspace = require_workspace(
    page_start(
        "Compare versions",
        "What changed since an earlier version of the set: patch notes, cards, findings, costs and simulated power.",
    )
)
ruleset = workspace.ruleset
cardset = current_cardset(workspace)
options = resolved_options(ruleset)

others = _other_bundled(workspace)
sources = {
    AS_OPENED: f"The set as it was opened ({workspace.filename})",
    UPLOADED: "An earlier version I upload",
}
if others:
    sources[BUNDLED] = f"Another bundled {ruleset.id} set"
for index, kept_version in enumerate(workspace.kept_versions):
    sources[f"{KEPT_SOURCE_PREFIX}{index}"] = f"The set {kept_version.label}"
if st.session_state.get(SOURCE_KEY) not in sources:
    st.session_state.pop(SOURCE_KEY, None)
against = st.radio(
    "Compare the set as it stands now (with this session's edits) with",
    list(sources),
    format_func=sources.__getitem__,
    key=SOURCE_KEY,
    horizontal=True,
)

old: CardSet | None = None
old_label = ""
old_key = ""
try:
    if against == UPLOADED:
        uploaded = st.file_uploader(
            f"Earlier version (.xlsx or .csv, at most {UPLOAD_LIMIT_MIB} MiB)",
            type=["xlsx", "xlsm", "csv"],
            key=UPLOAD_KEY,
            max_upload_size=UPLOAD_LIMIT_MIB,
            help=f"Read with the {ruleset.id} ruleset, as the Card sets page reads an upload; it does not replace "
            "the open set.",
        )
        if uploaded is not None:
            old_key = f"upload:{uploaded.file_id}"
            old = _earlier_version(old_key, uploaded.getvalue(), uploaded.name, workspace)
            old_label = uploaded.name
    elif against == BUNDLED:
        if st.session_state.get(BUNDLED_KEY) not in others:
            st.session_state.pop(BUNDLED_KEY, None)  # a choice made for another open set
        chosen_path = Path(
            st.selectbox("Bundled set", others, format_func=lambda text: Path(text).name, key=BUNDLED_KEY)
        )
        old_key = f"bundled:{chosen_path}"
        old = _earlier_version(old_key, chosen_path.read_bytes(), chosen_path.name, workspace)
        old_label = f"{chosen_path.name} (bundled)"
    elif against is not None and against.startswith(KEPT_SOURCE_PREFIX):
        kept_version = workspace.kept_versions[int(against.removeprefix(KEPT_SOURCE_PREFIX))]
        old_key = f"{against}:{workspace.uid}"
        old = _earlier_version(old_key, kept_version.data, kept_version.filename, workspace, as_opened=True)
        old_label = f"the set {kept_version.label}"
    else:
        old_key = f"opened:{workspace.uid}"
        old = _earlier_version(old_key, workspace.source, workspace.filename, workspace, as_opened=True)
        old_label = f"{workspace.filename} as opened"
except WorkbenchInputError as error:
    st.error(f"The earlier version was not read: {markdown_text(error)}")
    st.stop()

if old is None:
    st.info(
        f"Upload an earlier version of {markdown_text(workspace.set_name)} to compare it with the set as it stands now."
    )
    st.stop()
assert old is not None

diff_key = json.dumps([old_key, workspace.uid, workspace.digest, sorted(options.items())], default=str)
memo = st.session_state.get(DIFF_KEY)
if isinstance(memo, tuple) and memo[0] == diff_key:
    diff: SetDiff = memo[1]
else:
    try:
        # Against the set as opened, the session's renames are known for certain, and so is what the decks did.
        as_opened = against == AS_OPENED
        diff = diff_cardsets(old, cardset, options, composed_renames(workspace.renames) if as_opened else None)
        diff.deck_notes = rename_notes(workspace) if as_opened else []
    except WorkbenchInputError as error:
        st.error(f"The two versions could not be compared: {markdown_text(error)}")
        st.stop()
    st.session_state[DIFF_KEY] = (diff_key, diff)

new_label = f"{workspace.set_name} as it stands now"
st.markdown(
    f"**{markdown_text(old_label)}** → **{markdown_text(new_label)}** · {ruleset.title} "
    f"(`{ruleset.id}` v{ruleset.version}) · {len(old)} → {len(cardset)} cards"
)
options_summary(ruleset, rule_overrides(ruleset))
counts = st.columns(6)
counts[0].metric("Added", len(diff.added))
counts[1].metric("Removed", len(diff.removed))
counts[2].metric("Renamed", len(diff.renamed))
counts[3].metric("Changed", len(diff.changed) - len(diff.renamed))
counts[4].metric("Findings gone", len(diff.findings_resolved))
counts[5].metric("New findings", len(diff.findings_appeared))
if diff.is_empty and not diff.cost_changes:
    st.success("No changes: both versions have the same cards, the same fields and the same findings.")

notes_area = st.container()
tabs = st.tabs(
    [
        f"Cards ({len(diff.added) + len(diff.removed) + len(diff.changed)})",
        f"Findings ({len(diff.findings_appeared) + len(diff.findings_resolved)})",
        f"Costs ({len(diff.cost_changes)})",
        "Power",
    ]
)
with tabs[0]:
    _cards_tab(diff)
    _open_in_editor(workspace, diff)
with tabs[1]:
    _findings_tab(diff)
with tabs[2]:
    _costs_tab(diff, workspace, cardset)
with tabs[3]:
    shown = _power_tab(diff, workspace, cardset, old_key)
with notes_area:
    _patch_notes(shown, old_label, new_label)
