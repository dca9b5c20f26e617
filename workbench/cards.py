"""The shared vocabulary: findings, card sets and decks.

Every page, command and report is drawn from these objects, so they carry
everything a person needs to find the problem again: the file, the sheet, the
row a spreadsheet program shows (header = row 1) and the column header the
user actually wrote.
"""

from __future__ import annotations

import difflib
import hashlib
import heapq
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from itertools import chain
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    # Imported for annotations only: workbench.rulesets.base imports this module.
    from workbench.rulesets.base import CardBase, Ruleset

Severity = Literal["error", "warning", "info"]
SEVERITY_ORDER: dict[str, int] = {"error": 0, "warning": 1, "info": 2}


class WorkbenchInputError(Exception):
    """Input that cannot be read at all (exit code 2 on the command line).

    The message is one paragraph naming the file, sheet, row and column that
    could be located, and what was expected there.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        sheet: str | None = None,
        row: int | None = None,
        column: str | None = None,
        expected: str | None = None,
    ) -> None:
        self.path = path
        self.sheet = sheet
        self.row = row
        self.column = column
        self.expected = expected
        self.detail = message
        super().__init__(self._paragraph())

    def _paragraph(self) -> str:
        where = []
        if self.path:
            where.append(f"file {self.path}")
        if self.sheet:
            where.append(f"sheet '{self.sheet}'")
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column:
            where.append(f"column '{self.column}'")
        text = (", ".join(where) + ": " if where else "") + self.detail
        if self.expected:
            text += f" Expected: {self.expected}."
        return shown(text)


@dataclass(frozen=True)
class Finding:
    """One problem (or note) about a card, a deck or the sheet itself."""

    severity: Severity
    """`error` breaks a rule, `warning` strays from a guideline, `info` is a note."""
    rule: str
    """Stable rule id, `<ruleset>.<check>`; documented in docs/rulesets/<ruleset>.md (the ones every ruleset shares
    in docs/formats.md)."""
    message: str
    """One sentence a designer can act on."""
    card: str | None = None
    """The card's name, when the finding is about one card."""
    deck: str | None = None
    """The decklist's name, when the finding is about a deck."""
    sheet: str | None = None
    """Sheet name (xlsx) or file name (csv, text decklist)."""
    row: int | None = None
    """The row a person sees in a spreadsheet program (header = row 1), or the decklist line."""
    column: str | None = None
    """The column header as the user wrote it."""
    expected: Any = None
    """What the rule asks for (JSON-serialisable)."""
    actual: Any = None
    """What the sheet or deck has (JSON-serialisable)."""

    def to_json(self) -> dict[str, Any]:
        """The finding as the JSON object of docs/formats.md (Findings)."""
        data = asdict(self)
        return {
            key: data[key]
            for key in ("severity", "rule", "card", "deck", "sheet", "row", "column", "message", "expected", "actual")
        }

    def to_text(self) -> str:
        """A compiler-style line: `sheet:row:column: severity [rule] message`."""
        where = ":".join(str(part) for part in (self.sheet, self.row, self.column) if part not in (None, ""))
        subject = ""
        if self.deck:
            subject += f"deck '{self.deck}' "
        if self.card:
            subject += f"card '{self.card}' "
        prefix = f"{where}: " if where else ""
        return shown(f"{prefix}{self.severity} [{self.rule}] {subject}{self.message}{self.expected_and_actual()}")

    def expected_and_actual(self) -> str:
        """` (expected X, got Y)` in words for a person (see `readable`), or empty when the finding has neither.

        A missing value reads "nothing", never `None` or `null`; the JSON form keeps the values as they are.
        """
        if self.expected is None and self.actual is None:
            return ""
        return f" (expected {readable(self.expected) or 'nothing'}, got {readable(self.actual) or 'nothing'})"


_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _breaks_lines(character: str) -> bool:
    """A control character (line feed, carriage return, NEL U+0085, ...) or a line or paragraph separator."""
    return unicodedata.category(character) in ("Cc", "Zl", "Zp")


def shown(text: str) -> str:
    """Text for one line of a terminal or log: control characters and line/paragraph separators escaped (a line feed
    as `\\n`, U+2028 as `\\u2028`), so a card name cannot start a line of its own or forge one (`file:3:atk: error`).
    """
    if text.isprintable():
        return text
    return "".join(_escape(c) if _breaks_lines(c) else c for c in text)


def _escape(character: str) -> str:
    if character in _ESCAPES:
        return _ESCAPES[character]
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def text_lines(text: str, keepends: bool = False) -> list[str]:
    """The lines of a text file, split at line feeds and carriage returns only (not `str.splitlines`, which also
    splits at U+2028, U+2029, NEL U+0085 and form feeds, shifting the line numbers a text editor shows)."""
    lines = _LINE.findall(text)
    return lines if keepends else [line.rstrip("\r\n") for line in lines]


def readable(value: Any) -> str:
    """A value as a person reads it in a table cell or a sentence: no Python or JSON syntax.

    Text as it is; nothing (None, NaN) as an empty string; true/false (as `--option KEY=true` takes them); a whole
    float without its `.0`; a list as its items joined by commas; a mapping as `key = value` pairs.
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value != value:
            return ""
        return str(int(value)) if value.is_integer() and abs(value) < 2**53 else str(value)
    if isinstance(value, Mapping):
        return ", ".join(f"{key} = {readable(item)}" for key, item in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return ", ".join(readable(item) for item in value)
    return str(value)


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Sheet order first (so a designer walks the sheet top to bottom), then severity."""
    return sorted(
        findings,
        key=lambda f: (
            f.deck or "",
            f.sheet or "",
            f.row if f.row is not None else -1,
            SEVERITY_ORDER[f.severity],
            f.rule,
        ),
    )


def count_by_severity(findings: Iterable[Finding]) -> dict[str, int]:
    """How many errors, warnings and infos there are."""
    counts = {"error": 0, "warning": 0, "info": 0}
    for finding in findings:
        counts[finding.severity] += 1
    return counts


def _is_invisible(character: str) -> bool:
    """A character that shows nothing: a format character (zero-width space, joiners, soft hyphen, byte-order mark)."""
    return unicodedata.category(character) == "Cf"


def normalize_name(name: str) -> str:
    """Card names match ignoring case, surrounding/repeated spaces, invisible characters and how accents are encoded.

    `Café` typed with a combining accent (NFD) and with the composed letter (NFC) are one name; so are `Ember Imp`
    and `Ember<zero-width space>Imp`. `name_character_problems` reports such names as warnings on the card.
    """
    if not name.isascii():
        name = "".join(c for c in unicodedata.normalize("NFC", name) if not _is_invisible(c))
    return " ".join(name.split()).casefold()


_LOOKALIKE_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")
"""Scripts whose capitals look alike (Greek Epsilon, Cyrillic Е and Latin E): a name mixing them is reported."""


def _character_label(character: str) -> str:
    return f"U+{ord(character):04X} {unicodedata.name(character, 'unnamed character')}"


def name_character_problems(name: str) -> list[str]:
    """What is wrong with the characters of a card name, one sentence each (empty for a clean name).

    Invisible characters, accents not in composed form (NFC), and letters of one script standing among letters of
    another that look the same (a Greek capital Epsilon among Latin letters): each makes two names that look the
    same on a card differ, or one name that looks right fail to match a decklist typed by hand.
    """
    problems: list[str] = []
    breaks = [c for c in name if _breaks_lines(c)]
    if breaks:
        shown_breaks = ", ".join(dict.fromkeys(f"U+{ord(c):04X} {_escape(c)}" for c in breaks))
        problems.append(
            f"the name holds {len(breaks)} line break or control character(s) ({shown_breaks}), which break a "
            "decklist line or a line of text output in two; text output shows them escaped"
        )
    if name.isascii():
        return problems
    invisible = [c for c in name if _is_invisible(c)]
    if invisible:
        shown = ", ".join(dict.fromkeys(_character_label(c) for c in invisible))
        problems.append(f"the name holds {len(invisible)} invisible character(s) ({shown}), matched as if absent")
    if unicodedata.normalize("NFC", name) != name:
        problems.append("the name's accents are stored decomposed (not NFC); it is matched in composed form")
    scripts: dict[str, list[str]] = {}
    for character in name:
        if character.isalpha():
            script = unicodedata.name(character, "").split(" ")[0]
            if script in _LOOKALIKE_SCRIPTS:
                scripts.setdefault(script, []).append(character)
    if len(scripts) > 1:
        # The script with the fewest letters is the odd one out: name its letters.
        main = max(scripts, key=lambda s: len(scripts[s]))
        odd = [c for script, letters in scripts.items() if script != main for c in letters]
        shown = ", ".join(dict.fromkeys(_character_label(c) for c in odd))
        problems.append(
            f"the name mixes {main.title()} letters with {shown}, which can look the same; another card or a "
            "decklist typed by hand would not match it"
        )
    return problems


SCAN_NAMES = 300
"""Up to this many candidates, `closest_names` compares the name with every one; past it, with the `SHORTLIST`
candidates that share the most character trigrams with it (`NameIndex`)."""
SHORTLIST = 64
"""How many candidates, those sharing the most trigrams with a name, `NameIndex` compares it with in full."""


def _trigrams(key: str) -> set[str]:
    padded = f" {key} "
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


class NameIndex:
    """Names indexed by their character trigrams, built once, so a 'did you mean' costs in proportion to the names that
    share pieces with the unknown one, not to every name (a 2,000-line decklist of unknown names against 20,000 cards
    took 40 minutes when each line scanned every card)."""

    def __init__(self, candidates: Iterable[str], scan: int = SCAN_NAMES) -> None:
        self.by_key: dict[str, str] = {normalize_name(c): c for c in candidates}
        self.keys = list(self.by_key)
        self._scan = scan
        self._sizes: list[int] = []
        self._postings: dict[str, list[int]] = {}
        if len(self.keys) > scan:
            for number, key in enumerate(self.keys):
                grams = _trigrams(key)
                self._sizes.append(len(grams))
                for gram in grams:
                    self._postings.setdefault(gram, []).append(number)

    def closest(self, name: str, limit: int = 3) -> list[str]:
        """The names that look most like `name`, best first: difflib's ratio (cutoff 0.5), as `closest_names`."""
        key = normalize_name(name)
        pool = [self.keys[n] for n in self.shortlist(key)]
        return [self.by_key[k] for k in difflib.get_close_matches(key, pool, n=limit, cutoff=0.5)]

    def shortlist(self, key: str, size: int = SHORTLIST) -> list[int]:
        """Positions in `keys` worth comparing with the normalized name `key` in full: every one when they are few (up
        to `scan`), else the `size` that share the most trigrams with it (Dice's coefficient)."""
        if len(self.keys) <= self._scan:
            return list(range(len(self.keys)))
        grams = _trigrams(key)
        shared = Counter(chain.from_iterable(self._postings.get(gram, ()) for gram in grams))
        return heapq.nlargest(size, shared, key=lambda n: shared[n] / (len(grams) + self._sizes[n]))


class CardNames(list[str]):
    """A card set's names (a plain list) that carries the set's `NameIndex`, built the first time one is wanted."""

    def __init__(self, names: Iterable[str], owner: CardSet) -> None:
        super().__init__(names)
        self._owner = owner

    @property
    def name_index(self) -> NameIndex:
        return self._owner.name_index()

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (list(self),))  # pickled (sent to a worker) as the plain list it is, without its set


def closest_names(name: str, candidates: Iterable[str], limit: int = 3) -> list[str]:
    """The candidates that look most like `name`, best first (for 'did you mean').

    A card set's `names` carry an index built once for the set; other candidates are indexed for this call (a scan
    when they are few)."""
    index = candidates.name_index if isinstance(candidates, CardNames) else NameIndex(candidates)
    return index.closest(name, limit)


@dataclass(frozen=True)
class CardEntry:
    """One card as read from one spreadsheet row."""

    card: CardBase
    """The validated card model (one of the ruleset's kinds)."""
    row: int
    """The spreadsheet row a person sees (header = row 1)."""


@dataclass
class CardSet:
    """A validated card set and where each card came from.

    Cards whose row could not be read (a non-number in a number column, an
    unknown kind, ...) are not in `entries`; each of them has an error in
    `load_findings` that names its row and column, so nothing is dropped
    silently.
    """

    ruleset: Ruleset
    """The ruleset the cards were validated against."""
    path: str
    """The file the cards came from."""
    sheet: str
    """The sheet the cards came from (the file name for csv)."""
    entries: list[CardEntry]
    """Every card that parsed, in sheet order."""
    headers: dict[str, str]
    """Card-model field name -> the column header as the user wrote it."""
    load_findings: list[Finding] = field(default_factory=list)
    """Problems found while reading rows (bad cells, duplicates, formulas)."""
    name: str = ""
    """The set's name (from the `Set` sheet, else the file name)."""
    version: str = ""
    """The set's version (from the `Set` sheet), if given."""
    rows_read: int = 0
    """How many non-empty card rows the sheet had (parsed or not)."""
    unreadable_rows: dict[str, int] = field(default_factory=dict)
    """Normalized name -> row, for named rows that failed to read (so a decklist can say why it misses them)."""
    table: Any = None
    """The raw sheet (`workbench.spreadsheets.SheetTable`), kept so saving loses nothing."""

    def __post_init__(self) -> None:
        self._by_name: dict[str, CardEntry] = {}
        for entry in self.entries:
            self._by_name.setdefault(normalize_name(entry.card.name), entry)
        self._name_index: NameIndex | None = None

    def __getstate__(self) -> dict[str, Any]:
        # The name index is rebuilt on demand: a set sent to a worker process does not carry it.
        return {**self.__dict__, "_name_index": None}

    def name_index(self) -> NameIndex:
        """The set's names indexed for 'did you mean' (`closest_names`), built on first use."""
        if self._name_index is None:
            self._name_index = NameIndex(entry.card.name for entry in self.entries)
        return self._name_index

    @property
    def ruleset_id(self) -> str:
        """Id of the ruleset the cards were validated against."""
        return self.ruleset.id

    def __iter__(self) -> Iterator[CardEntry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def left_out(self) -> list[Finding]:
        """The error findings of the card rows that could not be read, one per row, in row order: the rows missing
        from `entries`, so from every command's work but `validate`'s (which reports them anyway)."""
        kept = {entry.row for entry in self.entries}
        seen: set[int] = set()
        out = []
        for finding in sorted(
            (f for f in self.load_findings if f.severity == "error" and f.row is not None and f.row not in kept),
            key=lambda f: f.row or 0,
        ):
            if finding.row not in seen:
                seen.add(finding.row or 0)
                out.append(finding)
        return out

    def left_out_statement(self, where: str = "this command's work") -> str | None:
        """One sentence on the card rows left out (`left_out`), for the command line and the app alike; None when every
        row was read."""
        count = len(self.left_out())
        if not count:
            return None
        rows, verb, them = ("row", "is", "it") if count == 1 else ("rows", "are", "them")
        return (
            f"{count} card {rows} of {self.path} could not be read and {verb} left out of {where} (fix {them}, or see "
            "every finding with workbench validate or on the Card sets page):"
        )

    @property
    def names(self) -> list[str]:
        """Card names in sheet order (a list that carries the set's name index, see `closest_names`)."""
        return CardNames((entry.card.name for entry in self.entries), self)

    def find(self, name: str) -> CardEntry | None:
        """The card with this name (case-insensitive), or None."""
        return self._by_name.get(normalize_name(name))

    def of_kind(self, *kinds: str) -> list[CardEntry]:
        """The cards whose `kind` is one of `kinds`."""
        return [entry for entry in self.entries if entry.card.kind in kinds]

    def finding(
        self,
        severity: Severity,
        rule: str,
        message: str,
        entry: CardEntry | None = None,
        field_name: str | None = None,
        expected: Any = None,
        actual: Any = None,
    ) -> Finding:
        """A finding that points at this card's row and at the column holding `field_name`."""
        return Finding(
            severity=severity,
            rule=rule,
            message=message,
            card=entry.card.name if entry else None,
            sheet=self.sheet,
            row=entry.row if entry else None,
            column=self.headers.get(field_name, field_name) if field_name else None,
            expected=expected,
            actual=actual,
        )

    def content_hash(self) -> str:
        """A short hash of the cards' contents, stamped into every simulated result."""
        digest = hashlib.sha256()
        digest.update(self.ruleset_id.encode())
        for entry in self.entries:
            digest.update(entry.card.model_dump_json().encode())
        return digest.hexdigest()[:16]


@dataclass(frozen=True)
class DeckLine:
    """One decklist line: a count of a named card in a section."""

    name: str
    """The name as written in the decklist."""
    count: int
    """How many copies."""
    line: int
    """Line number in a text decklist, or the row a person sees in a sheet decklist."""
    section: str = "main"
    """`main`, or a ruleset's extra section (`tokens` for SOURCE, `collection` for blades)."""
    entry: CardEntry | None = None
    """The card it resolved to, or None when the name is not in the set."""
    group: int = 0
    """Which section block the line is in: 0 before any header, +1 at each header (tells two `Collection:` apart)."""


@dataclass
class Deck:
    """A decklist read from a text file or a sheet, resolved against a card set."""

    name: str
    """The deck's name (file name without extension unless given)."""
    path: str
    """Where it was read from."""
    lines: list[DeckLine]
    """Every card line, in file order."""
    sheet: str | None = None
    """The sheet name for xlsx decklists; the file name otherwise."""
    load_findings: list[Finding] = field(default_factory=list)
    """Unknown card names and unparsable lines."""

    def section(self, section: str = "main") -> list[DeckLine]:
        """The resolved lines of one section."""
        return [line for line in self.lines if line.section == section and line.entry is not None]

    def counts(self, section: str = "main") -> dict[str, tuple[CardEntry, int, int]]:
        """Card name -> (entry, total copies, first line) for one section; repeated lines add up."""
        totals: dict[str, tuple[CardEntry, int, int]] = {}
        for line in self.section(section):
            assert line.entry is not None
            key = line.entry.card.name
            if key in totals:
                entry, count, first = totals[key]
                totals[key] = (entry, count + line.count, first)
            else:
                totals[key] = (line.entry, line.count, line.line)
        return totals

    def size(self, section: str = "main") -> int:
        """Total copies in a section (resolved lines only)."""
        return sum(line.count for line in self.section(section))

    def finding(
        self,
        severity: Severity,
        rule: str,
        message: str,
        line: DeckLine | None = None,
        expected: Any = None,
        actual: Any = None,
        column: str | None = None,
    ) -> Finding:
        """A finding that points at this deck (and at one of its lines, if given)."""
        return Finding(
            severity=severity,
            rule=rule,
            message=message,
            card=line.entry.card.name if line and line.entry else (line.name if line else None),
            deck=self.name,
            sheet=self.sheet,
            row=line.line if line else None,
            column=column,
            expected=expected,
            actual=actual,
        )


OptionValue = bool | int | float | str
Options = Mapping[str, OptionValue]
