"""The open card set of one browser session, and the cached results drawn from it.

Everything a person opened or typed lives in `st.session_state`, so it is
theirs alone: the `Workspace` (the card sheet being edited, the upload's own
bytes for saving, the decklists) and the rule options they toggled.
Validation findings and stat budgets are cached with `st.cache_data`, keyed by
a hash of the sheet's content and the options, and returned as plain data
(finding dicts, frozen dataclasses of numbers), never as pydantic objects.
Simulation results are kept per session, keyed by the card set's content hash,
options, decks and settings. A patch proposal applied (`apply_proposal`) changes the
sheet as an edit would, and keeps the set as it stood before as a version the Compare
versions page offers (`Workspace.kept_versions`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import streamlit as st

from workbench.cards import CardSet, Deck, Finding, OptionValue, WorkbenchInputError, normalize_name
from workbench.decklists import (
    DecksSheet,
    DecksSheetContent,
    DecksSheetLine,
    SheetDeck,
    deck_from_sheet,
    deck_sheet_lines,
    decklist_text_of,
    decks_sheet_content,
    parse_decklist,
    read_decklist,
    read_decks_sheet,
    rename_in_sheet_deck,
    rename_in_text,
    sheet_deck_lines,
    sheet_decklist_text,
    text_sheet_lines,
)
from workbench.editing import (
    CardRename,
    EditableSheet,
    apply_editor_changes,
    cell_text,
    check_editor_size,
    content_digest,
    field_labels,
    sheet_from_table,
    sheet_renames,
    to_table,
    to_xlsx_bytes,
)
from workbench.loading import cardset_from_table, choose_ruleset
from workbench.paths import CARDSETS_DIR, bundled_decks, bundled_sets
from workbench.rulesets import RULESETS, get_ruleset
from workbench.rulesets.base import Ruleset, StatBudget
from workbench.spreadsheets import read_sheet
from workbench.validate import validate
from workbench.xlsx_package import macro_parts, macros_left_out_message

WORKSPACE_KEY = "workspace"
OPTIONS_KEY = "rule_options"
RESULTS_KEY = "simulation_results"
STARTED_KEY = "workspace_autoloaded"
MAX_KEPT_RESULTS = 8
"""Simulation results kept per session (oldest dropped first)."""
VERSIONS_SOURCE_KEY = "versions_against"
"""The Compare versions page's choice of the earlier version (a page applying a proposal points it at the version
kept)."""
KEPT_SOURCE_PREFIX = "kept:"
"""The Compare versions page's choice of a version kept in this session: this prefix and the version's index."""
_workspace_ids = itertools.count(1)


@dataclass
class DeckSource:
    """A decklist as the designer gave it; parsed afresh against the current cards on every page."""

    name: str
    """The deck's name (unique in the session)."""
    origin: Literal["bundled", "pasted", "uploaded", "built", "workbook"]
    """Where it came from (`workbook`: the Decks sheet of the card workbook opened)."""
    text: str | None = None
    """Decklist text (`N Name` lines), for bundled, pasted and built decks, and for a workbook deck edited as text."""
    data: bytes | None = None
    """An uploaded decklist file's bytes (xlsx, csv or txt)."""
    filename: str = ""
    """The uploaded or bundled file's name (for a workbook deck, the workbook's)."""
    sheet_deck: SheetDeck | None = None
    """A workbook deck's rows of the Decks sheet, as read (findings name their rows; a save writes them back)."""
    revision: int = 0
    """How many times the app changed the decklist itself (a renamed card followed); part of its text box's key."""

    def digest(self) -> str:
        """A hash of the decklist's content (for cache keys)."""
        payload = (self.text or "").encode() + (self.data or b"") + self.name.encode()
        if self.sheet_deck is not None:
            rows = [[row.row, row.values, row.formulas] for row in self.sheet_deck.rows]
            payload += json.dumps(rows, default=str).encode()
        return hashlib.sha256(payload).hexdigest()[:16]


@dataclass(frozen=True)
class KeptVersion:
    """A version of the set kept in this session (the set as it stood before a proposal was applied to it)."""

    label: str
    """What the Compare versions page calls it."""
    filename: str
    """The file name it is read under (an .xlsx workbook)."""
    data: bytes
    """The workbook's bytes: the card sheet and the session's decklists as they stood."""


@dataclass
class Workspace:
    """The card set open in this session."""

    uid: int
    """Distinguishes one opened set from the next (widget keys include it, so a new set starts fresh)."""
    ruleset_id: str
    """The ruleset the set is read with."""
    filename: str
    """The file's name as uploaded (or the bundled file's name)."""
    origin: Literal["bundled", "upload"]
    """Where the set came from."""
    source: bytes
    """The file's bytes as opened, so a save keeps every sheet and column it had."""
    sheet: EditableSheet
    """The card sheet as edited so far."""
    decks: dict[str, DeckSource] = field(default_factory=dict)
    """Decklists by name."""
    decks_sheet: DecksSheet | None = None
    """The opened workbook's Decks sheet as read (its columns, rows of no deck, its own findings), or None."""
    deck_notes: list[str] = field(default_factory=list)
    """What opening the set had to say about its decks (a folder decklist passed over for a Decks sheet deck)."""
    selected_row: int | None = None
    """A sheet row another page asked the editor to open (cleared once the editor shows it)."""
    renames: list[CardRename] = field(default_factory=list)
    """Every card renamed in this session, in order, with the decks that followed (or could not): the change log."""
    kept_versions: list[KeptVersion] = field(default_factory=list)
    """Earlier versions kept in this session (before each proposal applied), oldest first."""
    _digest_memo: tuple[EditableSheet, Any, str] | None = field(default=None, repr=False)
    """(sheet, frame, digest) last hashed; holding the objects means a new sheet is never mistaken for it."""

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset object."""
        return get_ruleset(self.ruleset_id)

    @property
    def set_name(self) -> str:
        """The set's name: the `Set` sheet's, else the file name without extension."""
        return self.sheet.set_info.get("name") or Path(self.filename).stem

    @property
    def digest(self) -> str:
        """Hash of the sheet's current content and ruleset (edits replace the frame, so its identity keys the memo)."""
        memo = self._digest_memo
        if memo is None or memo[0] is not self.sheet or memo[1] is not self.sheet.frame:
            memo = (self.sheet, self.sheet.frame, content_digest(self.sheet, self.ruleset_id))
            self._digest_memo = memo
        return memo[2]


def get_workspace() -> Workspace | None:
    """The open set, or None."""
    workspace = st.session_state.get(WORKSPACE_KEY)
    return workspace if isinstance(workspace, Workspace) else None


def open_cardset(
    data: bytes, filename: str, ruleset_id: str | None = None, origin: Literal["bundled", "upload"] = "upload"
) -> Workspace:
    """Read a card sheet (bytes) into a new workspace; unreadable input raises `WorkbenchInputError`.

    The sheet is read and matched against its ruleset before anything is replaced, so a
    broken upload leaves the open set as it was.
    """
    table = read_sheet(filename, data=data, filename=filename)
    check_editor_size(table)  # the grid holds every cell: a sheet too wide and long for it is refused before any work
    ruleset = choose_ruleset(table, ruleset_id)
    cardset_from_table(table, ruleset)  # a missing required column fails here, before the open set is replaced
    workspace = Workspace(
        uid=next(_workspace_ids),
        ruleset_id=ruleset.id,
        filename=filename,
        origin=origin,
        source=data,
        sheet=sheet_from_table(table),
        decks_sheet=read_decks_sheet(table, ruleset),
    )
    # A workbook's Decks sheet is the set's decklists: they come with it, as its cards do.
    for sheet_deck in workspace.decks_sheet.decks if workspace.decks_sheet is not None else []:
        add_deck(workspace, DeckSource(sheet_deck.name, "workbook", filename=filename, sheet_deck=sheet_deck))
    return workspace


def open_bundled(path: Path) -> Workspace:
    """A bundled set, with its Decks sheet's decklists (if it is a workbook with one), then its ruleset's bundled
    decklists; a bundled decklist named like a Decks sheet deck is passed over, with a note saying so."""
    ruleset_id = path.parent.name
    workspace = open_cardset(path.read_bytes(), path.name, ruleset_id if ruleset_id in RULESETS else None, "bundled")
    from_sheet = {normalize_name(name): name for name in workspace.decks}
    for deck_path in bundled_decks(workspace.ruleset_id):
        clash = from_sheet.get(normalize_name(deck_path.stem))
        if clash is not None:
            workspace.deck_notes.append(
                f"{deck_path.name} was not added: the Decks sheet of {path.name} has a deck named '{clash}', and the "
                "workbook's deck comes first."
            )
            continue
        add_deck(workspace, _bundled_deck_source(deck_path))
    return workspace


def _bundled_deck_source(deck_path: Path) -> DeckSource:
    if deck_path.suffix == ".txt":
        return DeckSource(
            deck_path.stem, "bundled", text=deck_path.read_text(encoding="utf-8"), filename=deck_path.name
        )
    return DeckSource(deck_path.stem, "bundled", data=deck_path.read_bytes(), filename=deck_path.name)


def set_workspace(workspace: Workspace) -> None:
    """Make `workspace` the open set."""
    st.session_state[WORKSPACE_KEY] = workspace
    st.session_state[STARTED_KEY] = True


def bundled_catalogue() -> list[Path]:
    """Every bundled card set, ruleset by ruleset in registry order."""
    paths: list[Path] = []
    for ruleset_id in RULESETS:
        try:
            paths.extend(bundled_sets(ruleset_id))
        except WorkbenchInputError:
            continue  # a ruleset whose sample set is not written yet simply has none to offer
    return paths


def ensure_started() -> Workspace | None:
    """On a session's first page view, open the first bundled set, so every page has cards to show."""
    workspace = get_workspace()
    if workspace is not None or st.session_state.get(STARTED_KEY):
        return workspace
    st.session_state[STARTED_KEY] = True
    for path in bundled_catalogue():
        try:
            workspace = open_bundled(path)
        except WorkbenchInputError:
            continue
        set_workspace(workspace)
        return workspace
    return None


def add_deck(workspace: Workspace, source: DeckSource) -> str:
    """Add a decklist under a name not yet used (`aggro`, `aggro 2`, ...); returns the name used."""
    name = source.name.strip() or "deck"
    base, number = name, 2
    while name in workspace.decks:
        name, number = f"{base} {number}", number + 1
    source.name = name
    workspace.decks[name] = source
    return name


def parse_deck(source: DeckSource, cardset: CardSet) -> Deck:
    """The decklist resolved against the current cards (unreadable files raise `WorkbenchInputError`)."""
    if source.sheet_deck is not None:
        return deck_from_sheet(replace(source.sheet_deck, name=source.name), cardset)
    if source.data is not None:
        deck = read_decklist(
            source.filename or source.name, cardset, data=source.data, filename=source.filename or source.name
        )
        deck.name = source.name
        return deck
    return parse_decklist(source.text or "", cardset, name=source.name, path=source.filename or f"{source.name}.txt")


def session_decks(workspace: Workspace, cardset: CardSet) -> tuple[dict[str, Deck], list[str]]:
    """The session's decklists that read and hold cards, by name, and one line per decklist that could not be read."""
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
    return decks, unreadable


def replace_sheet(workspace: Workspace, sheet: EditableSheet) -> list[CardRename]:
    """Make `sheet` the set's card sheet; the session's decks follow the cards it renames. Returns the renames.

    Every deck line naming a renamed card names its new name (counts, sections and the rest of the deck kept), in
    each kind of decklist: text, a workbook's Decks sheet rows, an uploaded file (which becomes decklist text). A
    rename that is not clear (`workbench.editing.sheet_renames`: a name another card has too) changes no deck; the
    decks naming the old name then show an error. Each rename is added to `Workspace.renames`.
    """
    renames = sheet_renames(workspace.sheet, sheet, workspace.ruleset)
    if not renames:
        workspace.sheet = sheet
        return []
    known = _sheet_names(workspace.sheet, workspace.ruleset)
    workspace.sheet = sheet
    follow = {normalize_name(r.old): r.new for r in renames if r.followed}
    unclear = {normalize_name(r.old): r.new for r in renames if not r.followed}
    named: dict[str, list[str]] = {}
    for name, source in workspace.decks.items():
        for key in _follow_in_deck(source, follow, unclear, known, workspace.ruleset):
            named.setdefault(key, []).append(name)
    done = [replace(r, decks=tuple(named.get(normalize_name(r.old), ()))) for r in renames]
    workspace.renames.extend(done)
    return done


def _sheet_names(sheet: EditableSheet, ruleset: Ruleset) -> set[str]:
    label = field_labels(sheet, ruleset).get("name")
    if label is None:
        return set()
    return {normalize_name(str(name)) for name in sheet.frame[label].tolist() if name not in (None, "")}


def _follow_in_deck(
    source: DeckSource, follow: Mapping[str, str], unclear: Mapping[str, str], known: set[str], ruleset: Ruleset
) -> set[str]:
    """Rename the cards of `follow` in one decklist (in place); returns the old names (normalized) of `follow` and
    `unclear` that the decklist names."""
    if source.sheet_deck is not None:
        renamed, found = rename_in_sheet_deck(source.sheet_deck, follow)
        found |= rename_in_sheet_deck(source.sheet_deck, unclear)[1]
        if renamed is not source.sheet_deck:
            source.sheet_deck = renamed
            source.revision += 1
        return found
    text = source.text
    if text is None and source.data is not None:
        text = decklist_text_of(source.data, source.filename or source.name)
        if text is None:
            try:
                text = sheet_decklist_text(source.data, source.filename or source.name, ruleset.deck_sections)
            except WorkbenchInputError:
                return set()  # refused when it was uploaded, so never in the session
    if text is None:
        return set()
    renamed_text, found = rename_in_text(text, follow, known)
    if found:
        source.text, source.data = renamed_text, None  # an uploaded file's lines are text from now on
        source.revision += 1
    return found | rename_in_text(text, unclear, known)[1]


def deck_findings(workspace: Workspace, cardset: CardSet) -> tuple[list[Finding], list[str]]:
    """Every session decklist's findings against the cards as they stand (the decks' own, none of the cards'), and
    one line per decklist that cannot be read: what the editor and Card sets pages show beside the cards' findings,
    so a deck broken by an edit (a card deleted, a rename that clashes) is seen where the edit was made."""
    decks: list[Deck] = []
    unreadable: list[str] = []
    for name, source in workspace.decks.items():
        try:
            decks.append(parse_deck(source, cardset))
        except WorkbenchInputError as error:
            unreadable.append(f"{name}: {error}")
    if not decks:
        return [], unreadable
    return [f for f in findings_for(workspace, cardset, tuple(decks)) if f.deck is not None], unreadable


def deck_error_lines(findings: list[Finding], unreadable: list[str], limit: int = 6) -> list[str]:
    """The deck errors as lines a person reads (`ember_rush, row 3: 'Lantern Sprite' is not a card in ashfall.`, the
    row being the decklist's line or the Decks sheet's row), at most `limit` of them and then how many more."""
    lines = [f"{text} (the decklist cannot be read)" for text in unreadable]
    for finding in findings:
        if finding.severity == "error":
            where = f", row {finding.row}" if finding.row else ""
            lines.append(f"{finding.deck}{where}: {finding.message}")
    if len(lines) > limit:
        lines = [*lines[:limit], f"... and {len(lines) - limit} more (see the Decks page)"]
    return lines


def rename_notes(workspace: Workspace) -> list[str]:
    """The change log's lines for the renames that touched a deck (`Lantern Sprite renamed to Glow Wisp; decks
    ember_rush, plague_court follow.`), in the order they were made."""
    return [rename.note() for rename in workspace.renames if rename.decks]


def read_other_version(data: bytes, filename: str, ruleset: Ruleset, check_declared: bool = True) -> CardSet:
    """Another version of the open set, read as the Card sets page reads an upload, with the open set's ruleset.

    A workbook whose `Set` sheet names another game is refused (its cards cannot be compared with these), unless
    `check_declared` is off: the open set's own bytes were already opened with this ruleset, whatever they declare.
    Unreadable input raises `WorkbenchInputError` (file, sheet, row, column and what was expected).
    """
    table = read_sheet(filename, data=data, filename=filename)
    declared = str(table.set_info.get("ruleset") or "").strip()
    if check_declared and declared and declared.casefold() != ruleset.id.casefold():
        raise WorkbenchInputError(
            f"its Set sheet names the ruleset '{declared}', but the open set is a '{ruleset.id}' set; only two "
            "versions of one game's set can be compared.",
            path=filename,
            sheet="Set",
            column="ruleset",
            expected=f"an earlier version of a '{ruleset.id}' card set",
        )
    return cardset_from_table(table, choose_ruleset(table, ruleset))


def option_store() -> dict[str, dict[str, OptionValue]]:
    """Ruleset id -> the options the designer changed on the Rules page (shared by every page)."""
    store = st.session_state.get(OPTIONS_KEY)
    if not isinstance(store, dict):
        store = {}
        st.session_state[OPTIONS_KEY] = store
    return store


def rule_overrides(ruleset: Ruleset) -> dict[str, OptionValue]:
    """The designer's option values for a ruleset (only the ones they set)."""
    known = {option.key for option in ruleset.options}
    return {key: value for key, value in option_store().get(ruleset.id, {}).items() if key in known}


def resolved_options(ruleset: Ruleset) -> dict[str, OptionValue]:
    """Every option's value: defaults with the designer's changes."""
    return ruleset.resolve_options(rule_overrides(ruleset))


def current_cardset(workspace: Workspace) -> CardSet:
    """The card set as the sheet now stands (rebuilt only when the content changed)."""
    digest = workspace.digest
    cached = st.session_state.get("_cardset_cache")
    if cached and cached[0] == (workspace.uid, digest):
        return cached[1]
    cardset = cardset_from_table(to_table(workspace.sheet), workspace.ruleset)
    cardset.name = workspace.set_name
    st.session_state["_cardset_cache"] = ((workspace.uid, digest), cardset)
    return cardset


def _options_key(options: Mapping[str, OptionValue]) -> str:
    return json.dumps(dict(sorted(options.items())), default=str)


@st.cache_data(max_entries=64, show_spinner=False)
def _findings_cached(
    digest: str,
    ruleset_id: str,
    options_key: str,
    deck_keys: tuple[str, ...],
    shown_key: str,
    _cardset: CardSet,
    _decks: tuple[Deck, ...],
) -> list[dict[str, Any]]:
    """Plain finding dicts for a sheet content and options (the underscored arguments follow from the hashed ones).

    `shown_key` holds everything else a finding's message can show (the set's name and version from its Set sheet,
    its file and sheet): two sessions with the same cards but another set name must not share a message."""
    report = validate(_cardset, _decks, json.loads(options_key))
    return [finding.to_json() for finding in report.findings]


def findings_for(workspace: Workspace, cardset: CardSet, decks: tuple[Deck, ...] = ()) -> list[Finding]:
    """Every finding for the set (and the given decks) under the session's rule options."""
    options = resolved_options(workspace.ruleset)
    deck_keys = tuple(workspace.decks[d.name].digest() if d.name in workspace.decks else d.name for d in decks)
    shown_key = json.dumps(
        [cardset.name, cardset.version, cardset.path, cardset.sheet, workspace.filename, [d.name for d in decks]],
        default=str,
    )
    rows = _findings_cached(
        workspace.digest, workspace.ruleset_id, _options_key(options), deck_keys, shown_key, cardset, decks
    )
    return [Finding(**row) for row in rows]


@st.cache_data(max_entries=64, show_spinner=False)
def _stat_budget_cached(digest: str, ruleset_id: str, options_key: str, _cardset: CardSet) -> StatBudget | None:
    ruleset = get_ruleset(ruleset_id)
    if ruleset.stat_budget is None:
        return None
    return ruleset.stat_budget(_cardset, ruleset.resolve_options(json.loads(options_key)))


def stat_budget_for(workspace: Workspace, cardset: CardSet) -> StatBudget | None:
    """The ruleset's stat budget for the set, or None when the ruleset has no stat budget chart."""
    options = resolved_options(workspace.ruleset)
    return _stat_budget_cached(workspace.digest, workspace.ruleset_id, _options_key(options), cardset)


def results_store() -> OrderedDict[str, Any]:
    """This session's simulation results, by settings key (most recent last)."""
    store = st.session_state.get(RESULTS_KEY)
    if not isinstance(store, OrderedDict):
        store = OrderedDict()
        st.session_state[RESULTS_KEY] = store
    return store


def keep_result(key: str, result: Any) -> None:
    """Keep a result, dropping the oldest beyond `MAX_KEPT_RESULTS`."""
    store = results_store()
    store[key] = result
    store.move_to_end(key)
    while len(store) > MAX_KEPT_RESULTS:
        store.popitem(last=False)


def latest_result(kind: str, cardset: CardSet, options: Mapping[str, Any]) -> Any | None:
    """The most recent result of this kind ("stat_values", "proposals": the first item of its settings key) kept
    for this card set's content and these rule options, whatever its decks and counts: what a report made on another
    page takes along. None when none is kept."""
    wanted = [kind, cardset.content_hash(), json.loads(json.dumps(sorted(options.items()), default=str))]
    store = results_store()
    for key in reversed(store):
        try:
            parts = json.loads(key)
        except ValueError:
            continue
        if isinstance(parts, list) and parts[:3] == wanted:
            return store[key]
    return None


def bundled_root() -> Path:
    """Where the bundled sets live (for messages)."""
    return CARDSETS_DIR


def session_decks_sheet(workspace: Workspace) -> DecksSheetContent | None:
    """The Decks sheet a save writes: every decklist of the session, in the order of the deck picker, then the
    opened Decks sheet's rows that belong to no deck. None when there is nothing to write (no decks, and the file
    had no Decks sheet to empty)."""
    if not workspace.decks and workspace.decks_sheet is None:
        return None
    ruleset = workspace.ruleset
    try:
        cardset: CardSet | None = cardset_from_table(to_table(workspace.sheet), ruleset)
    except WorkbenchInputError:
        cardset = None  # the decks are still written, line by line as they stand
    lines: list[DecksSheetLine] = []
    for name, source in workspace.decks.items():
        lines.extend(_sheet_lines(name, source, ruleset, cardset))
    return decks_sheet_content(lines, ruleset, workspace.decks_sheet)


def _sheet_lines(name: str, source: DeckSource, ruleset: Ruleset, cardset: CardSet | None) -> list[DecksSheetLine]:
    if source.sheet_deck is not None:
        return sheet_deck_lines(name, source.sheet_deck)
    if source.text is not None:
        return text_sheet_lines(name, source.text, ruleset, cardset)
    if source.data is None:
        return []
    text = decklist_text_of(source.data, source.filename or source.name)
    if text is not None:
        return text_sheet_lines(name, text, ruleset, cardset)
    if cardset is None:
        return []
    try:
        deck = read_decklist(source.filename or name, cardset, data=source.data, filename=source.filename or name)
    except WorkbenchInputError:
        return []  # refused when it was uploaded, so never in the session
    deck.name = name
    return deck_sheet_lines(deck, ruleset)


def macros_note(workspace: Workspace) -> str | None:
    """What to say beside Save when the opened workbook holds macros (which a save leaves out), else None."""
    parts = macro_parts(workspace.source) if workspace.source.startswith(b"PK") else []
    return macros_left_out_message(parts) if parts else None


def workspace_xlsx_bytes(workspace: Workspace) -> bytes:
    """The open set as an xlsx workbook, for the card editor's Save button: the card sheet as edited (every sheet
    and column of the upload kept) and the session's decklists in the `Decks` sheet, replacing the upload's.

    It reads only the workspace, never `st.session_state`: Streamlit calls a download button's data function when
    the button is clicked, outside a script run.
    """
    return to_xlsx_bytes(
        workspace.sheet,
        workspace.ruleset_id,
        workspace.source,
        workspace.set_name,
        decks=session_decks_sheet(workspace),
    )


def apply_proposal(
    workspace: Workspace, cardset: CardSet, changed: CardSet, changed_cards: list[str], label: str
) -> str:
    """Make the cards `changed_cards` of the open sheet as `changed` (a patch proposal's set, made from `cardset`, the
    set as the sheet stands) has them, as an edit in the card editor would, and keep the set as it stood before as a
    version the Compare versions page offers, named `label`. Returns the Compare versions page's source key of the
    version kept. Refused (`WorkbenchInputError`) when the sheet changed since `cardset`, or has no column for a
    changed field."""
    if current_cardset(workspace).content_hash() != cardset.content_hash():
        raise WorkbenchInputError(
            "the set changed since the proposals were made, so they no longer apply to it.",
            expected="run the proposals again on the set as it stands",
        )
    sheet = workspace.sheet
    labels = sheet.labels
    edits: dict[int, dict[str, str | None]] = {}
    for name in changed_cards:
        before, after = cardset.find(name), changed.find(name)
        if before is None or after is None:
            raise WorkbenchInputError(f"the set has no card '{name}' to change.")
        position = sheet.position_of_row(before.row)
        assert position is not None
        for field_name in type(after.card).model_fields:
            new_value = getattr(after.card, field_name)
            if getattr(before.card, field_name) == new_value:
                continue
            header = cardset.headers.get(field_name)
            if header is None or header not in sheet.headers:
                raise WorkbenchInputError(
                    f"the sheet has no column for {field_name} of '{name}', so the proposal cannot be applied.",
                    expected=f"a {field_name} column",
                )
            edits.setdefault(position, {})[labels[sheet.headers.index(header)]] = cell_text(new_value)
    kept = KeptVersion(label, f"{Path(workspace.filename).stem} ({label}).xlsx", workspace_xlsx_bytes(workspace))
    replace_sheet(workspace, apply_editor_changes(sheet, {"edited_rows": edits}))
    workspace.kept_versions.append(kept)
    return f"{KEPT_SOURCE_PREFIX}{len(workspace.kept_versions) - 1}"
