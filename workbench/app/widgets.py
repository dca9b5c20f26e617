"""Pieces several pages draw: the page start, the findings table, the rule-option inputs."""

from __future__ import annotations

import hashlib
import importlib
import re
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pandas as pd
import streamlit as st

from workbench.app import CARD_SETS, DECKS, RULES
from workbench.app.workspace import Workspace, ensure_started, option_store, session_decks
from workbench.balance_study import is_warm, warm_up_engine
from workbench.cards import CardSet, Deck, Finding, WorkbenchInputError, count_by_severity, readable
from workbench.limits import limit
from workbench.markup import markdown_text
from workbench.play.assembly import Engine
from workbench.play.policies import (
    DEFAULT_EPSILON,
    MAX_SEARCH_DEPTH,
    MAX_SEARCH_ROLLOUTS,
    ROLLOUT_POLICIES,
    SEARCH_SETTINGS,
    policy_name,
    policy_word,
)
from workbench.power_defaults import POWER_CURVE_DEFAULTS
from workbench.rulesets import RULESETS
from workbench.rulesets.base import RuleOption, Ruleset

T = TypeVar("T")
SEVERITY_ICONS = {"error": "✖", "warning": "⚠", "info": "ℹ"}
FINDING_COLUMNS = ["severity", "rule", "card", "deck", "row", "column", "message", "expected", "actual"]
EMPTY_CELL = "—"
"""What a table shows in a cell with no value (`st.dataframe(placeholder=...)`; Streamlit's own default is "None")."""


def page_start(title: str, intro: str = "") -> Workspace | None:
    """Title, a one-line intro, and the open set (opening the first bundled set on a session's first visit)."""
    workspace = ensure_started()
    st.title(title)
    if intro:
        st.caption(intro)
    with st.sidebar:
        if workspace is None:
            st.caption("No card set open.")
        else:
            ruleset = workspace.ruleset
            st.markdown(
                f"**{markdown_text(workspace.set_name)}**  \n{ruleset.title} · `{ruleset.id}` v{ruleset.version}"
            )
            st.caption(f"{len(workspace.sheet.frame)} rows · {len(workspace.decks)} decklists")
    return workspace


def require_workspace(workspace: Workspace | None) -> Workspace:
    """The open set, or a pointer to the Card sets page and the end of this page."""
    if workspace is None:
        st.info("No card set is open yet. Open a bundled set or upload one first.")
        st.page_link(CARD_SETS.path, label="Go to Card sets", icon=CARD_SETS.icon)
        st.stop()
    assert workspace is not None
    return workspace


def findings_frame(findings: Iterable[Finding]) -> pd.DataFrame:
    """The findings as a table a person reads: expected and actual in words (lists joined with commas, nothing as an
    empty cell; see `workbench.cards.readable`). The JSON findings keep their values as they are."""
    rows = [
        {
            "severity": f"{SEVERITY_ICONS[f.severity]} {f.severity}",
            "rule": f.rule,
            "card": f.card or "",
            "deck": f.deck or "",
            "row": f.row,
            "column": f.column or "",
            "message": f.message,
            "expected": readable(f.expected),
            "actual": readable(f.actual),
        }
        for f in findings
    ]
    frame = pd.DataFrame(rows, columns=FINDING_COLUMNS)
    frame["row"] = frame["row"].astype("Int64")
    return frame


def counts_line(findings: Sequence[Finding]) -> str:
    """`2 errors · 1 warning · 0 infos`."""
    counts = count_by_severity(findings)
    parts = []
    for severity in ("error", "warning", "info"):
        n = counts[severity]
        parts.append(f"{SEVERITY_ICONS[severity]} {n} {severity}{'' if n == 1 else 's'}")
    return " · ".join(parts)


def findings_column_config(hide: Sequence[str] = ()) -> dict[str, Any]:
    """Widths and help for the findings table; `hide` drops columns that say nothing on a page."""
    config: dict[str, Any] = {
        "severity": st.column_config.TextColumn("severity", width="small"),
        "row": st.column_config.NumberColumn(
            "row", help="The row a spreadsheet program shows (header = row 1), or the decklist line.", format="%d"
        ),
        "column": st.column_config.TextColumn("column", help="The column header as written in the file."),
        "message": st.column_config.TextColumn("message", width="large"),
    }
    for name in hide:
        config[name] = None
    return config


def _option_widget_key(prefix: str, ruleset: Ruleset, option: RuleOption) -> str:
    return f"option:{prefix}:{ruleset.id}:{option.key}"


def _problem_key(widget_key: str) -> str:
    return f"{widget_key}:problem"


def _store_option(ruleset_id: str, option: RuleOption, widget_key: str) -> None:
    value = st.session_state[widget_key]
    if isinstance(option.default, bool):
        value = bool(value)
    elif isinstance(option.default, int):
        value = int(value)
    elif isinstance(option.default, float):
        value = float(value)
    _keep(ruleset_id, option, widget_key, value)


def _keep(ruleset_id: str, option: RuleOption, widget_key: str, value: Any) -> None:
    """Store a value the option takes; a value outside its range is not stored (every page would refuse to run on
    it) but named under the input, with the range, until it is changed."""
    try:
        value = option.check(value, ruleset_id)
    except WorkbenchInputError as error:
        st.session_state[_problem_key(widget_key)] = f"{error.detail} Expected: {error.expected}. Still in use: " + (
            readable(option_store().get(ruleset_id, {}).get(option.key, option.default)) + "."
        )
        return
    st.session_state.pop(_problem_key(widget_key), None)
    values = option_store().setdefault(ruleset_id, {})
    if value == option.default:
        values.pop(option.key, None)
    else:
        values[option.key] = value


def option_inputs(ruleset: Ruleset, prefix: str, columns: int = 2, explained: bool = False) -> None:
    """One input per ledger entry (toggle, number or choice), writing the session's shared option values.

    With `explained`, each input stands in a box with the reading, the document's words and the default.
    """
    if not ruleset.options:
        st.caption(f"The {ruleset.id} ruleset has no rule options.")
        return
    stored = option_store().get(ruleset.id, {})
    grid = st.columns(columns)
    for index, option in enumerate(ruleset.options):
        key = _option_widget_key(prefix, ruleset, option)
        current = stored.get(option.key, option.default)
        label = option.key + (" (changed)" if option.key in stored else "")
        range_words = f" · range {option.range_text}" if option.range_text else ""
        help_text = (
            f"{option.reading}\n\nThe document: “{option.quote}”\n\nDefault: {readable(option.default)}{range_words}"
        )
        kwargs: dict[str, Any] = {"key": key, "on_change": _store_option, "args": (ruleset.id, option, key)}
        if not explained:
            kwargs["help"] = help_text
        with grid[index % columns]:
            box = st.container(border=True) if explained else st.container()
            with box:
                if isinstance(option.default, bool):
                    st.toggle(label, value=bool(current), **kwargs)
                elif isinstance(option.default, int):
                    st.number_input(label, value=int(current), step=1, **kwargs)
                elif isinstance(option.default, float):
                    st.number_input(label, value=float(current), **kwargs)
                elif option.bundled_files:
                    _file_option(ruleset, option, prefix, label, str(current), kwargs)
                elif option.choices:
                    choices = list(option.choices)
                    index_now = choices.index(str(current)) if str(current) in choices else 0
                    st.selectbox(label, choices, index=index_now, **kwargs)
                else:
                    st.text_input(label, value=str(current), **kwargs)
                if problem := st.session_state.get(_problem_key(key)):
                    st.error(markdown_text(problem))
                if explained:
                    st.markdown(option.reading)
                    st.caption(f"The document: “{option.quote}” · default `{readable(option.default)}`{range_words}")


def _file_choices(option: RuleOption) -> dict[str, str]:
    """What the app offers for an option naming a file: label -> option value. The bundled files (the default one
    by the option's default value), then this session's uploads."""
    choices: dict[str, str] = {}
    for path in sorted(Path(option.bundled_files).glob("*.json")):
        # The default file by its name (the option's default value), any other bundled file by its path.
        choices[f"{path.stem} (bundled)"] = path.stem if path.stem == option.default else str(path)
    choices.update(st.session_state.get(f"option_uploads:{option.key}", {}))
    return choices


def _store_file_option(ruleset_id: str, option: RuleOption, widget_key: str) -> None:
    choices = _file_choices(option)
    _keep(ruleset_id, option, widget_key, choices.get(st.session_state[widget_key], option.default))


def _file_option(
    ruleset: Ruleset, option: RuleOption, prefix: str, label: str, current: str, kwargs: dict[str, Any]
) -> None:
    """A file option: one of the bundled files or an upload, never a typed path (a path typed into a page would open
    any file on the server, and a FIFO would block it). The upload is read before the choice is drawn above it, so
    an uploaded file is offered in the same run."""
    slot = st.empty()
    upload = st.file_uploader(
        f"Upload a {option.key} file (.json)", type=["json"], key=f"option_upload:{prefix}:{ruleset.id}:{option.key}"
    )
    if upload is not None:
        _take_upload(option, upload.name, upload.getvalue())
    choices = _file_choices(option)
    index = next((i for i, value in enumerate(choices.values()) if value == current), 0)
    slot.selectbox(label, list(choices), index=index, **(kwargs | {"on_change": _store_file_option}))


def _take_upload(option: RuleOption, name: str, data: bytes) -> None:
    """Keep an uploaded file for this session under a name of the app's own, once its reader accepts it."""
    upload_label = f"{Path(name).stem} (uploaded)"
    if _file_choices(option).get(upload_label):
        return
    if len(data) > limit("file_bytes").value:
        st.error(markdown_text(f"{name} is {len(data):,} bytes, more than the limit of {limit('file_bytes').shown()}."))
        return
    folder = Path(st.session_state.setdefault("option_upload_folder", tempfile.mkdtemp(prefix="workbench-options-")))
    path = folder / f"{option.key}-{hashlib.sha256(data).hexdigest()[:16]}.json"  # never the uploader's own name
    path.write_bytes(data)
    module, _, function = option.file_reader.partition(":")
    try:
        if option.file_reader:
            getattr(importlib.import_module(module), function)(path)
    except WorkbenchInputError as error:
        path.unlink(missing_ok=True)
        st.error(markdown_text(f"{name} is not a {option.key} file: {error.detail} Expected: {error.expected}."))
        return
    st.session_state.setdefault(f"option_uploads:{option.key}", {})[upload_label] = str(path)
    st.caption(f"{markdown_text(name)} can be chosen above, as {markdown_text(upload_label)}.")


def option_pair(key: str, value: Any) -> str:
    """`key=value` as typed on the command line, in code style; a text value (a goop name, a map file) in plain
    escaped text instead, since a code span cannot hold every character."""
    shown = readable(value)
    return f"`{key}={shown}`" if re.fullmatch(r"[\w.\-]*", shown) else f"`{key}`={markdown_text(shown)}"


def options_summary(ruleset: Ruleset, overrides: dict[str, Any]) -> None:
    """A line naming the options changed from their defaults, with a link to the Rules page."""
    if overrides:
        changed = ", ".join(option_pair(key, value) for key, value in overrides.items())
        st.caption(f"Rule options changed from the defaults: {changed}.")
    else:
        st.caption(f"Rule options: the {ruleset.id} defaults.")
    st.page_link(RULES.path, label="Rule options", icon=RULES.icon)


def score_input(
    column: Any, label: str, low: float, high: float, value: float, key: str, step: float, help_text: str = ""
) -> tuple[float, str | None]:
    """A number input (a share of score, such as a tolerance) whose limits are said in its help and checked here, as
    `count_input` does for whole numbers: the message to show when the typed value is outside them, else None."""
    limits = f"From {low:g} to {high:g}."
    typed = column.number_input(
        label,
        value=float(value),
        step=float(step),
        format="%.3f",
        key=key,
        help=f"{help_text} {limits}".strip() if help_text else limits,
    )
    number = float(typed)
    if low <= number <= high:
        return number, None
    return number, f"{label}: {number:g} is outside the limit, {low:g} to {high:g}. Change it to run."


RUNNING_SUFFIX = ":running"
"""Session key suffix (after a run's cancel key) of the record of a run under way: set when it starts, removed when
it ends, so a record still there on a later page run is a run that was cancelled or interrupted."""


def run_with_progress(
    cardset: CardSet,
    warm_deck: Deck | None,
    cancel_key: str,
    what: str,
    work: Callable[[Callable[[float, str], None]], T],
) -> T | None:
    """Run `work` under a progress display and a Cancel button, loading (or compiling) the engine first when cold.

    The display always gives the time so far. While the engine compiles (in the background warm-up or here) it says
    which engine, with an estimate only from this Numba cache's own record, and an indeterminate display (never a
    bar parked at 99%) when there is none or the compile runs past it (workbench.app.warmup). `work` is handed
    `show(share, text)` for its progress; the time so far, and the time left at the pace of the phase so far, are
    added to its text (workbench.app.progress). Pressing Cancel reruns the page, which ends the run at its next
    progress report (a compile goes on in the background for the next Run); so does any other button pressed
    meanwhile, and the page's next run says which it was (`run_notice`, drawn where this display was). Input the run
    cannot use ends in an error naming `what` did not run, and None. Without a `warm_deck` (whole games, which need
    no decklist) the engine loads in the run itself. Draws two elements on the page: its holder (at the place of
    `run_notice`'s) and an empty one after it.
    """
    from workbench.app.progress import RunClock
    from workbench.app.warmup import wait_for_engine

    holder = st.empty()
    with holder.container():
        st.button("Cancel", key=cancel_key, icon=":material/stop_circle:")
        display = st.empty()
    # An empty slot after the display: where a page run without this run shows its prompt ("Press Run simulation."),
    # which would otherwise stay on screen, stale, for the whole run.
    st.empty()
    clock = RunClock()
    running_key = cancel_key + RUNNING_SUFFIX
    st.session_state[running_key] = {"what": what, "started": time.time(), "reached": ""}

    def draw(share: float | None, text: str) -> None:
        st.session_state[running_key]["reached"] = text
        if share is None:
            display.status(text, state="running", expanded=False)
        else:
            display.progress(min(1.0, max(0.0, share)), text=text)

    def show(share: float, text: str) -> None:
        draw(share, clock.text(share, text))

    draw(None, "Starting… · 0 s so far")
    result: T | None = None
    said: list[tuple[str, str]] = []
    try:
        if warm_deck is not None and not is_warm(cardset):
            waited = wait_for_engine(cardset, warm_deck, draw)
            waited += warm_up_engine(cardset, warm_deck)
            if waited >= 1.0:
                said.append(("caption", f"The {cardset.ruleset.id} engine was ready after {waited:.1f} s."))
        result = work(show)
    except WorkbenchInputError as error:
        said.append(("error", f"The {what} did not run: {markdown_text(error)}"))
    st.session_state.pop(running_key, None)
    if said:  # in the display's place: the page keeps one element here whether a run started or not
        with holder.container():
            for kind, text in said:
                (st.error if kind == "error" else st.caption)(text)
    else:
        holder.empty()
    return result


def run_notice(cancel_key: str, what: str, again: str = "", cancelled_sentence: str = "") -> None:
    """In place of `run_with_progress`'s display on a page run that does not start the run: nothing, or, when the
    last run under `cancel_key` did not finish, that it was cancelled or interrupted, how far it got, and (`again`)
    how to run it again. Drawn at the display's place, so a progress bar left from the stopped run never stays on
    the page. Draws exactly one element, at the place of `run_with_progress`'s display."""
    from workbench.app.progress import interrupted_text

    slot = st.empty()
    record = st.session_state.pop(cancel_key + RUNNING_SUFFIX, None)
    cancelled = bool(st.session_state.get(cancel_key))
    if record is None and not cancelled:
        return
    if record is None:  # a Cancel whose run had already ended
        slot.warning(cancelled_sentence or f"The {what} was cancelled; nothing from it was kept.")
        return
    seconds = max(0.0, time.time() - float(record.get("started", time.time())))
    text = interrupted_text(what, cancelled, seconds, str(record.get("reached", "")), again, cancelled_sentence)
    slot.warning(markdown_text(text), icon=":material/cancel:" if cancelled else ":material/warning:")


REPORT_FILES_KEY = "report_files"
"""Session key of the report files written for download: download key -> (identity, bytes, seconds)."""


def csv_download(frame: pd.DataFrame, file_name: str, key: str, label: str = "Download CSV") -> None:
    """A Download CSV button for a table, written through `spreadsheets.csv_text` (formula-like text kept as text):
    Streamlit's own table download is hidden (`client.disableDataExport`), since it writes cells as they are.

    The file is written when the button is clicked, not on every run of the page (a 20,000-card power table takes a
    noticeable part of a second to write)."""
    from workbench.spreadsheets import csv_text

    st.download_button(
        label,
        data=lambda: csv_text(frame).encode("utf-8"),
        file_name=file_name,
        mime="text/csv",
        key=key,
        icon=":material/download:",
        on_click="ignore",
    )


def report_download(
    column: Any,
    kind: str,
    key: str,
    identity: str,
    build: Callable[[], str | bytes],
    file_name: str,
    mime: str,
) -> None:
    """A balance report download with feedback: *Prepare balance report (KIND)* writes the file under a spinner
    that counts the seconds (a report takes 3 to 14 s to write, and a download button whose file is written on the
    click shows nothing meanwhile), then *Download balance report (KIND)* saves it at once, with how long the file
    took and its size. `identity` names what the report holds (results and health): a file written for other
    results is written again; one file per key is kept in the session."""
    files = st.session_state.setdefault(REPORT_FILES_KEY, {})
    kept = files.get(key)
    if kept is not None and kept[0] != identity:
        files.pop(key, None)
        kept = None
    with column:
        if kept is None and st.button(
            f"Prepare balance report ({kind})",
            key=f"{key}_prepare",
            icon=":material/description:",
            help="Writes the report (a few seconds), then offers it for download.",
        ):
            started = time.perf_counter()
            with st.spinner(f"Writing the {kind} report…", show_time=True):
                data = build()
            kept = (identity, data.encode("utf-8") if isinstance(data, str) else data, time.perf_counter() - started)
            files[key] = kept
        if kept is not None:
            st.download_button(
                f"Download balance report ({kind})",
                data=kept[1],
                file_name=file_name,
                mime=mime,
                key=key,
                icon=":material/download:",
                on_click="ignore",
            )
            st.caption(f"Written in {kept[2]:.1f} s · {len(kept[1]) / 1024:,.0f} KB.")


def engine_and_decks(workspace: Workspace, cardset: CardSet) -> tuple[Engine, dict[str, Deck]] | None:
    """The open set's match engine and the session's playable decklists, or None after saying on the page why not
    (no engine for the game, an engine that fails to load, no decklist with cards)."""
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
        return None
    try:
        engine = ruleset.engine
    except Exception as error:  # an engine module that fails to import must not take the page down
        st.error(f"The {ruleset.id} match engine could not be loaded: {type(error).__name__}: {markdown_text(error)}")
        return None
    assert engine is not None
    decks, unreadable = session_decks(workspace, cardset)
    for problem in unreadable:
        st.warning(f"Decklist skipped: {markdown_text(problem)}")
    if not decks:
        st.info("Add decklists with cards on the Decks page first.")
        st.page_link(DECKS.path, label="Go to Decks", icon=DECKS.icon)
        return None
    return engine, decks


def deck_picker(label: str, names: Sequence[str], key: str) -> list[str]:
    """A multiselect of decklists that starts with every deck of the set (the power-curve default gauntlet, as on the
    command line: `POWER_CURVE_DEFAULTS.gauntlet`) and forgets decklists removed since."""
    if key not in st.session_state:
        st.session_state[key] = POWER_CURVE_DEFAULTS.gauntlet(names)
    elif any(name not in names for name in st.session_state[key]):
        st.session_state[key] = [name for name in st.session_state[key] if name in names]
    return list(st.multiselect(label, list(names), key=key))


def count_input(
    column: Any, label: str, low: int, high: int, value: int, key: str, step: int = 1, help_text: str = ""
) -> tuple[int, str | None]:
    """A whole-number input whose limits are said in its help and checked here, with the message to show when the
    typed value is outside them (the page shows it and keeps Run off).

    The limits are not given to `st.number_input`: the browser would then turn an out-of-range value red and never
    send it, and Run would silently use the old value.
    """
    limits = f"From {low:,} to {high:,}."
    typed = column.number_input(
        label, value=value, step=step, key=key, help=f"{help_text} {limits}".strip() if help_text else limits
    )
    number = int(typed)
    if low <= number <= high:
        return number, None
    return number, f"{label}: {number:,} is outside the limit, {low:,} to {high:,}. Change it to run."


EPSILON_STEP = 0.05
"""How far the exploration-rate box moves per click."""


def policy_input(
    column: Any,
    label: str,
    policies: Sequence[str],
    index: int,
    key: str,
    search_settings: Sequence[str] = SEARCH_SETTINGS,
) -> str:
    """A policy picked from the engine's `policies`, as the text a run takes (`greedy`, `search`, `search:4`,
    `search:4:depth=0:rollout_policy=random`, `epsilon:0.25`).

    Picking `epsilon` opens a box under it for the exploration rate E (the share of decisions played at random; the
    command line's `--policy epsilon:E`), from 0 to 1, default `DEFAULT_EPSILON`; the text names its value, so a
    result's provenance says which rate played. Picking `search` opens boxes for its own settings, each left empty
    for the rule option of the same name: its budget, rollouts per candidate (`--policy search:R`), and where the
    engine's search takes them (`search_settings`) its cut-off (`depth=D`) and its rollouts' policy
    (`rollout_policy=P`)."""
    picked = str(column.selectbox(label, list(policies), index=index, key=key))
    if picked == "search":
        return search_settings_input(column, label, policies, key, search_settings)
    if picked != "epsilon":
        return picked
    rate = column.number_input(
        f"{label}: exploration rate",
        min_value=0.0,
        max_value=1.0,
        value=DEFAULT_EPSILON,
        step=EPSILON_STEP,
        format="%.2f",
        key=f"{key}_epsilon",
        help="Epsilon-greedy: at each decision the side plays the game's random policy with "
        "this probability and greedy otherwise, with a generator of its own, so the deal and dice stay those of "
        "greedy's match. 0 plays as greedy, 1 as random. From 0 to 1.",
    )
    return policy_name(policy_word(f"epsilon:{float(rate):.6g}", policies))


def own_setting_input(
    column: Any, label: str, key: str, bounds: tuple[int, int], option: str, meaning: str
) -> int | None:
    """A whole-number box for one of a policy's own settings, empty at first: None (the rule option `option` plays)
    until the designer gives a value within `bounds`."""
    low, high = bounds
    value = column.number_input(
        label,
        min_value=low,
        max_value=high,
        value=None,
        step=1,
        key=key,
        placeholder=f"the rule option {option}",
        help=f"{meaning} Empty: the rule option {option} (Rule options for the simulation). From {low:,} to {high:,}.",
    )
    return None if value is None else int(value)


RULE_OPTION_CHOICE = "the rule option"
"""The rollout-policy box's first entry: no setting of the side's own, the rule option `search_rollout_policy`."""


def search_settings_input(
    column: Any, label: str, policies: Sequence[str], key: str, search_settings: Sequence[str]
) -> str:
    """The search's own settings for one side, as `policy_input` opens them, and the policy text they make (plain
    `search` when every box is left empty)."""
    settings: list[str] = []
    rollouts = own_setting_input(
        column,
        f"{label}: rollouts per candidate",
        f"{key}_search_rollouts",
        (1, MAX_SEARCH_ROLLOUTS),
        "search_rollouts",
        "The search's own budget: rollouts per candidate at each decision it searches, for this side only. "
        "More rollouts play stronger and slower.",
    )
    if rollouts is not None:
        settings.append(str(rollouts))
    if "depth" in search_settings:
        depth = own_setting_input(
            column,
            f"{label}: rollout depth (turns)",
            f"{key}_search_depth",
            (0, MAX_SEARCH_DEPTH),
            "search_depth",
            "How many turns a rollout plays after the turn searched before the game's own evaluation scores the "
            "position, for this side only; 0 plays every rollout to the match's end.",
        )
        if depth is not None:
            settings.append(f"depth={depth}")
    rollout_policy = column.selectbox(
        f"{label}: rollouts played by",
        [RULE_OPTION_CHOICE, *ROLLOUT_POLICIES],
        key=f"{key}_search_rollout_policy",
        help="The policy both sides play in this side's rollouts, after the choice under test. 'the rule option': "
        "the rule option search_rollout_policy.",
    )
    if rollout_policy != RULE_OPTION_CHOICE:
        settings.append(f"rollout_policy={rollout_policy}")
    if not settings:
        return "search"
    return policy_name(policy_word("search:" + ":".join(settings), policies, search_settings))
