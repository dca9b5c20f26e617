"""Decklists: text (`N Name`, `Nx Name`, `Name`), sheets (`name`, `count`), and a card workbook's `Decks` sheet.

A line `Tokens:` or `Collection:` (any section the ruleset knows) starts a
section; `Main:` or `Deck:` returns to the main deck. Names match the card set
case-insensitively; an unknown name is an error that suggests the closest
names, and a line that does not parse is an error naming its line.

A card workbook may hold the set's decks in a `Decks` sheet (`deck`, `count`,
`name`, and `section` for games with sections; `Collection 2` starts a second
collection). `set_decks` gives a set's own decks (that sheet's, then the
`decks/` folder's), `resolve_decks` reads `--deck` arguments (a file, else the
name of one of those decks), and `decks_sheet_content` turns decklists back
into a Decks sheet for saving.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from workbench.cards import (
    CardSet,
    Deck,
    DeckLine,
    Finding,
    WorkbenchInputError,
    closest_names,
    normalize_name,
    text_lines,
)
from workbench.limits import LIMITS, over_limit
from workbench.rulesets.base import Ruleset, normalize_header
from workbench.spreadsheets import DECKS_SHEET, MAX_ROWS, SheetTable, read_input_file, read_sheet

MAX_COPIES_PER_LINE = LIMITS["copies_per_card"].value
"""A count above this is a typo, not a deck (999)."""
MAX_DECKLIST_LINES = LIMITS["decklist_lines"].value
"""Most lines of cards (and section headings) in one decklist."""
MAX_DECK_CARDS = LIMITS["deck_cards"].value
"""Most cards in one deck, all its lines added up."""
MAX_COUNT_DIGITS = LIMITS["number_digits"].value
"""A count of more digits is never turned into a number (Python refuses past 4,300 digits, and it is a typo)."""
# Counts are ASCII digits: `\d` would also take other scripts' digits, and `²` passes str.isdigit but not int().
_COUNT_LINE = re.compile(r"^(?P<count>[0-9]+)\s*[xX×]?\s+(?P<name>.+?)\s*$")
_TRAILING_COUNT = re.compile(r"^(?P<name>.+?)\s+[xX×]\s*(?P<count>[0-9]+)\s*$")
_SECTION = re.compile(r"^(?P<section>[A-Za-z][A-Za-z ]*?)\s*:\s*$")
MAIN_SECTION_NAMES = ("main", "deck", "maindeck")


def read_decklist(
    path: str | os.PathLike[str], cardset: CardSet, data: bytes | None = None, filename: str | None = None
) -> Deck:
    """Read a decklist file (or an upload's bytes) and resolve it against the card set."""
    display = filename or str(path)
    if data is None:
        data = read_input_file(path, display, "a .txt, .csv or .xlsx decklist")
    text = decklist_text_of(data, display)
    if text is None:
        return _sheet_decklist(path, cardset, data, display)
    if "\x00" in text:
        raise WorkbenchInputError(
            "the decklist holds binary data, not text.", path=display, expected="one `N Name` per line"
        )
    return parse_decklist(text, cardset, name=Path(display).stem, path=display)


def decklist_text_of(data: bytes, filename: str) -> str | None:
    """A decklist file's text (UTF-8, else Windows-1252), or None when it is a sheet decklist (xlsx or csv)."""
    if Path(filename).suffix.casefold() in (".xlsx", ".xlsm", ".csv") or data.startswith(b"PK"):
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def parse_decklist(text: str, cardset: CardSet, name: str = "deck", path: str = "<text>") -> Deck:
    """Parse decklist text: one `N Name`, `Nx Name`, `Name xN` or `Name` per line."""
    ruleset = cardset.ruleset
    sheet = Path(path).name if path != "<text>" else name
    lines: list[DeckLine] = []
    findings: list[Finding] = []
    section = ruleset.deck_sections[0]
    group = 0
    counted = _DeckSize(path, sheet)
    for number, raw in enumerate(text_lines(text), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
        counted.line(number)
        header = _SECTION.match(line)
        if header:
            group += 1
            wanted = normalize_header(header.group("section"))
            if wanted in MAIN_SECTION_NAMES:
                section = ruleset.deck_sections[0]
                continue
            match = next((s for s in ruleset.deck_sections if normalize_header(s) == wanted), None)
            if match is None:
                findings.append(
                    Finding(
                        severity="error",
                        rule=f"{ruleset.id}.deck_line",
                        message=f"'{line}' starts a section this game does not have.",
                        deck=name,
                        sheet=sheet,
                        row=number,
                        expected="one of: " + ", ".join(s.capitalize() + ":" for s in ruleset.deck_sections),
                        actual=line,
                    )
                )
            else:
                section = match
            continue
        # A card literally named "3 Wishes" is one copy of that card, not three of "Wishes".
        parsed = (1, line) if cardset.find(line) is not None else _parse_line(line)
        if isinstance(parsed, str):
            findings.append(
                Finding(
                    severity="error",
                    rule=f"{ruleset.id}.deck_line",
                    message=parsed,
                    deck=name,
                    sheet=sheet,
                    row=number,
                    expected="`N Name`, `Nx Name` or `Name`",
                    actual=line,
                )
            )
            continue
        count, card_name = parsed
        counted.cards(count, number)
        resolved = _resolve(card_name, count, number, section, cardset, name, sheet, findings, ruleset.id)
        lines.append(replace(resolved, group=group))
    return Deck(name=name, path=path, lines=lines, sheet=sheet, load_findings=findings)


class _DeckSize:
    """Counts a decklist's lines and cards as it is read, and refuses it at the line that passes a limit."""

    def __init__(self, path: str, sheet: str | None) -> None:
        self.path = path
        self.sheet = sheet
        self.lines = 0
        self.total = 0

    def line(self, number: int, column: str | None = None) -> None:
        self.lines += 1
        if self.lines > MAX_DECKLIST_LINES:
            raise over_limit(
                "decklist_lines",
                f"the decklist has more than {MAX_DECKLIST_LINES:,} lines",
                path=self.path,
                sheet=self.sheet,
                row=number,
                column=column,
            )

    def cards(self, count: int, number: int, column: str | None = None) -> None:
        self.total += count
        if self.total > MAX_DECK_CARDS:
            raise over_limit(
                "deck_cards",
                f"the deck holds more than {MAX_DECK_CARDS:,} cards by this line",
                path=self.path,
                sheet=self.sheet,
                row=number,
                column=column,
            )


def whole_count(digits: str) -> int | None:
    """A count's ASCII digits as a number, or None when they are more than the digits limit."""
    return int(digits) if len(digits) <= MAX_COUNT_DIGITS else None


def _parse_line(line: str) -> tuple[int, str] | str:
    match = _COUNT_LINE.match(line) or _TRAILING_COUNT.match(line)
    if match:
        digits = match.group("count")
        count_or_none = whole_count(digits)
        if count_or_none is None:
            return (
                f"the count has {len(digits):,} digits ({digits[:12]}…); a line holds 1 to {MAX_COPIES_PER_LINE} "
                "copies."
            )
        count = count_or_none
        card_name = match.group("name").strip()
    elif re.match(r"^-?\d", line):
        return f"'{line}' starts with a number but has no card name after it (or the count is negative)."
    else:
        count, card_name = 1, line
    if count < 1:
        return f"the count {count} is below 1; leave the line out instead."
    if count > MAX_COPIES_PER_LINE:
        return f"the count {count} is more than {MAX_COPIES_PER_LINE}."
    return count, card_name


def _resolve(
    card_name: str,
    count: int,
    number: int,
    section: str,
    cardset: CardSet,
    deck_name: str,
    sheet: str,
    findings: list[Finding],
    ruleset_id: str,
    column: str = "name",
) -> DeckLine:
    entry = cardset.find(card_name)
    if entry is None:
        hints = closest_names(card_name, cardset.names)
        hint = f" Did you mean {', '.join(repr(h) for h in hints)}?" if hints else ""
        unreadable_row = cardset.unreadable_rows.get(normalize_name(card_name))
        if unreadable_row is not None:
            hint = f" Its row ({unreadable_row}) could not be read; fix the findings on that row first."
        findings.append(
            Finding(
                severity="error",
                rule=f"{ruleset_id}.unknown_card",
                message=f"'{card_name}' is not a card in {cardset.name}.{hint}",
                card=card_name,
                deck=deck_name,
                sheet=sheet,
                row=number,
                column=column,
                expected=hints or "a card name from the set",
                actual=card_name,
            )
        )
    return DeckLine(name=card_name, count=count, line=number, section=section, entry=entry)


def _decklist_columns(table: Any, display: str) -> dict[str, int]:
    """A sheet decklist's columns: normalized header -> index (the first of a repeated header); an error naming the
    file when it has no `name` column."""
    columns: dict[str, int] = {}
    for index, header in enumerate(table.headers):
        columns.setdefault(normalize_header(header), index)
    if "name" not in columns:
        raise WorkbenchInputError(
            f"a sheet decklist needs a 'name' column (headers found: {', '.join(table.headers)}).",
            path=display,
            sheet=table.sheet,
            row=1,
            column="name",
            expected="columns name and count (and optionally section)",
        )
    return columns


def _sheet_decklist(path: Any, cardset: CardSet, data: bytes, display: str) -> Deck:
    table = read_sheet(path, data=data, filename=display)
    columns = _decklist_columns(table, display)
    roles = _Roles(
        headers=tuple(table.headers),
        name=columns["name"],
        count=_first_column(columns, COUNT_HEADERS),
        section=columns.get("section"),
    )
    formulas = _formulas_by_row(table)
    rows = [(number, values, formulas.get(number, {})) for number, values in table.rows[:MAX_ROWS]]
    return _deck_from_rows(rows, roles, Path(display).stem, display, table.sheet, cardset)


COUNT_HEADERS = ("count", "copies", "qty")
"""Headers a sheet decklist's count column may have (matched ignoring case, spaces and punctuation)."""


@dataclass(frozen=True)
class _Roles:
    """Which column of a sheet holds what: the headers as written and the index of each field's column."""

    headers: tuple[str, ...]
    """Header cells as written."""
    name: int
    """The card-name column."""
    count: int | None
    """The copies column, if any (a missing count is one copy)."""
    section: int | None
    """The section column, if any (a missing section is the main deck)."""


def _first_column(columns: dict[str, int], wanted: Sequence[str]) -> int | None:
    return next((columns[key] for key in wanted if key in columns), None)


def _formulas_by_row(table: SheetTable) -> dict[int, dict[int, str]]:
    by_row: dict[int, dict[int, str]] = {}
    for (row, column), text in table.formulas.items():
        by_row.setdefault(row, {})[column] = text
    return by_row


def _deck_from_rows(
    rows: Iterable[tuple[int, Sequence[Any], Mapping[int, str]]],
    roles: _Roles,
    deck_name: str,
    path: str,
    sheet: str,
    cardset: CardSet,
) -> Deck:
    """Resolve sheet rows (a sheet decklist's, or one deck's rows of a Decks sheet) into a deck.

    Every row that cannot be a line is an error finding naming its row and column; the row is left out.
    """
    ruleset = cardset.ruleset
    lines: list[DeckLine] = []
    findings: list[Finding] = []
    group, previous_block = 0, (ruleset.deck_sections[0], 1)

    def problem(number: int, column: int | None, message: str, expected: Any, actual: Any, card: Any = None) -> None:
        findings.append(
            Finding(
                severity="error",
                rule=f"{ruleset.id}.deck_line",
                message=message,
                card=None if card in (None, "") else str(card),
                deck=deck_name,
                sheet=sheet,
                row=number,
                column=roles.headers[column] if column is not None else None,
                expected=expected,
                actual=actual,
            )
        )

    counted = _DeckSize(path, sheet)
    for number, values, formulas in rows:
        counted.line(number)
        formula_columns = [c for c in (roles.name, roles.count, roles.section) if c is not None and c in formulas]
        if formula_columns:
            column = formula_columns[0]
            findings.append(
                Finding(
                    severity="error",
                    rule=f"{ruleset.id}.formula_cell",
                    message=(
                        f"this cell holds the formula {formulas[column]}, which has no value until a spreadsheet "
                        "program computes it; the workbench reads values only."
                    ),
                    deck=deck_name,
                    sheet=sheet,
                    row=number,
                    column=roles.headers[column],
                    expected="a typed value (copy the column, then Paste Special > Values)",
                    actual=formulas[column],
                )
            )
            continue
        card_name = values[roles.name]
        if card_name in (None, ""):
            problem(number, roles.name, "this row has no card name.", "a card name", None)
            continue
        raw_count = values[roles.count] if roles.count is not None else None
        count = _sheet_count(raw_count)
        if count is None:
            problem(
                number,
                roles.count,
                f"'{raw_count}' is not a whole number of copies from 1 to {MAX_COPIES_PER_LINE}.",
                f"a whole number from 1 to {MAX_COPIES_PER_LINE}",
                raw_count,
                card_name,
            )
            continue
        counted.cards(count, number, roles.headers[roles.count] if roles.count is not None else None)
        block = (ruleset.deck_sections[0], 1)
        if roles.section is not None and values[roles.section] not in (None, ""):
            found = section_block(values[roles.section], ruleset.deck_sections)
            if found is None:
                problem(
                    number,
                    roles.section,
                    f"'{values[roles.section]}' is not a deck section of this game.",
                    "one of: " + ", ".join(s.capitalize() for s in ruleset.deck_sections),
                    values[roles.section],
                    card_name,
                )
                continue
            block = found
        if block != previous_block:
            group, previous_block = group + 1, block
        resolved = _resolve(
            str(card_name),
            count,
            number,
            block[0],
            cardset,
            deck_name,
            sheet,
            findings,
            ruleset.id,
            roles.headers[roles.name],
        )
        lines.append(replace(resolved, group=group))
    return Deck(name=deck_name, path=path, lines=lines, sheet=sheet, load_findings=findings)


_BLOCK_NUMBER = re.compile(r"^(?P<section>.*?)[\s#]*(?P<number>\d+)$")


def section_block(value: Any, sections: Sequence[str]) -> tuple[str, int] | None:
    """A section cell as (section, block number): `Collection` is block 1, `Collection 2` the second collection.

    `Main` or `Deck` (or a blank cell, read by the caller) is the main deck. None when the game has no such section.
    """
    text = str(value).strip()
    number = 1
    numbered = _BLOCK_NUMBER.match(text)
    if numbered and numbered.group("section").strip():
        if not numbered.group("number").isascii() or len(numbered.group("number")) > MAX_COUNT_DIGITS:
            return None  # a block number of other digits or of thousands of digits is no section this game has
        text, number = numbered.group("section"), int(numbered.group("number"))
    wanted = normalize_header(text)
    if wanted in MAIN_SECTION_NAMES:
        return sections[0], number
    match = next((s for s in sections if normalize_header(s) == wanted), None)
    return (match, number) if match is not None else None


def _sheet_count(value: Any) -> int | None:
    if value in (None, ""):
        return 1
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        text = value.strip()
        # ASCII digits only: `²` passes str.isdigit but is no count; thousands of digits are never parsed.
        if not (text.isascii() and text.isdigit() and len(text) <= MAX_COUNT_DIGITS):
            return None
        value = int(text)
    if isinstance(value, int) and 1 <= value <= MAX_COPIES_PER_LINE:
        return value
    return None


# The Decks sheet of a card workbook ------------------------------------------------------------------------------

DECKS_SHEET_HEADERS = ("deck", "count", "name", "section")
"""The Decks sheet's columns as the workbench writes them (`section` only for games with deck sections)."""
NAME_HEADERS = ("name", "card")
"""Headers the Decks sheet's card-name column may have."""


@dataclass(frozen=True)
class DecksLayout:
    """Where a workbook's Decks sheet keeps what: its headers as written and the column of each field."""

    path: str
    """The workbook the sheet is in."""
    sheet: str
    """The sheet's name as written (`Decks`, `decks`, ...)."""
    headers: tuple[str, ...]
    """Header cells as written, by position (columns the workbench does not use are kept on save)."""
    deck: int | None
    """The deck-name column, if the sheet has one."""
    count: int | None
    """The copies column, if the sheet has one."""
    name: int | None
    """The card-name column, if the sheet has one."""
    section: int | None
    """The section column, if the sheet has one (a missing or blank section is the main deck)."""


@dataclass(frozen=True)
class DeckRow:
    """One row of a Decks sheet, as read (so a save can write it back as it was)."""

    row: int
    """The row a person sees (header = row 1)."""
    values: tuple[Any, ...]
    """Its cells, one per header."""
    formulas: tuple[tuple[int, str], ...] = ()
    """(column index, formula text) for cells holding a formula."""


@dataclass(frozen=True)
class SheetDeck:
    """One deck's rows of a Decks sheet, not yet resolved against the cards (they may change)."""

    name: str
    """The deck's name as first written in its `deck` column."""
    rows: tuple[DeckRow, ...]
    """Its rows, in sheet order."""
    layout: DecksLayout
    """The sheet's columns."""


@dataclass
class DecksSheet:
    """A workbook's Decks sheet split into decks, with what is wrong with the sheet itself."""

    layout: DecksLayout | None
    """Its columns; None when the sheet could not be read as a table at all."""
    decks: list[SheetDeck] = field(default_factory=list)
    """The decks, in the order their first rows come."""
    stray_rows: list[DeckRow] = field(default_factory=list)
    """Rows that belong to no deck (no deck name, or every row when a column is missing); kept on save."""
    findings: list[Finding] = field(default_factory=list)
    """Problems of the sheet rather than of one deck: a missing column, a row without a deck name, ..."""

    @property
    def readable(self) -> bool:
        """False when the sheet could not be read as a table (a save then keeps it as it was, renamed)."""
        return self.layout is not None


def read_decks_sheet(table: SheetTable | None, ruleset: Ruleset) -> DecksSheet | None:
    """The Decks sheet of a card workbook as read by `read_sheet`, split into decks; None when there is none.

    Rows are grouped by their `deck` cell (case and spaces ignored), in the order decks first appear. A row without
    a deck name, a missing `deck`, `count` or `name` column, and a sheet that cannot be read as a table are error
    findings naming the sheet, row and column; a deck whose rows are split by another deck's is read whole, with a
    warning.
    """
    if table is None:
        return None
    if table.decks_sheet_error is not None:
        error = table.decks_sheet_error
        return DecksSheet(
            layout=None,
            findings=[
                Finding(
                    severity="error",
                    rule=f"{ruleset.id}.decks_sheet",
                    message=f"the Decks sheet was not read: {error.detail}",
                    sheet=error.sheet or DECKS_SHEET,
                    row=error.row,
                    column=error.column,
                    expected=error.expected,
                )
            ],
        )
    sheet_table = table.decks_sheet
    if sheet_table is None:
        return None
    columns: dict[str, int] = {}
    for index, header in enumerate(sheet_table.headers):
        columns.setdefault(normalize_header(header), index)
    layout = DecksLayout(
        path=sheet_table.path,
        sheet=sheet_table.sheet,
        headers=tuple(sheet_table.headers),
        deck=columns.get("deck"),
        count=_first_column(columns, COUNT_HEADERS),
        name=_first_column(columns, NAME_HEADERS),
        section=columns.get("section"),
    )
    formulas = _formulas_by_row(sheet_table)
    rows = [
        DeckRow(number, tuple(values), tuple(sorted(formulas.get(number, {}).items())))
        for number, values in sheet_table.rows
    ]
    result = DecksSheet(layout=layout)
    if not sheet_table.headers:
        return result  # an empty Decks sheet: no decks, nothing wrong
    required = (("deck", layout.deck), ("count", layout.count), ("name", layout.name))
    missing = [header for header, index in required if index is None]
    if missing:
        result.findings.append(
            Finding(
                severity="error",
                rule=f"{ruleset.id}.decks_sheet",
                message=(
                    f"the Decks sheet has no {' or '.join(repr(m) for m in missing)} column (headers found: "
                    f"{', '.join(sheet_table.headers)}), so none of its {len(rows)} row(s) was read as a deck."
                ),
                sheet=layout.sheet,
                row=1,
                column=missing[0],
                expected="the columns " + _expected_columns(ruleset),
                actual=list(sheet_table.headers),
            )
        )
        result.stray_rows = rows
        return result
    assert layout.deck is not None
    by_key: dict[str, list[DeckRow]] = {}
    names: dict[str, str] = {}
    last_key: str | None = None
    for row in rows:
        formula = dict(row.formulas).get(layout.deck)
        raw = row.values[layout.deck]
        if formula is not None or raw in (None, ""):
            result.stray_rows.append(row)
            result.findings.append(
                Finding(
                    severity="error",
                    rule=f"{ruleset.id}.deck_line",
                    message=(
                        f"the deck name is the formula {formula}, which has no value until a spreadsheet program "
                        "computes it; this row belongs to no deck."
                        if formula is not None
                        else "this row has no deck name, so it belongs to no deck."
                    ),
                    card=_text_or_none(row.values[layout.name]) if layout.name is not None else None,
                    sheet=layout.sheet,
                    row=row.row,
                    column=layout.headers[layout.deck],
                    expected="the name of the deck the row's card is in",
                    actual=formula,
                )
            )
            continue
        key = normalize_name(str(raw))
        if key in by_key and last_key != key:
            result.findings.append(
                Finding(
                    severity="warning",
                    rule=f"{ruleset.id}.decks_sheet",
                    message=(
                        f"the deck '{names[key]}' goes on here after other decks' rows (it starts at row "
                        f"{by_key[key][0].row}); its rows are read as one deck. Keep a deck's rows together, or give "
                        "this one its own name."
                    ),
                    deck=names[key],
                    sheet=layout.sheet,
                    row=row.row,
                    column=layout.headers[layout.deck],
                    expected="a deck's rows one after another",
                    actual=str(raw),
                )
            )
        by_key.setdefault(key, []).append(row)
        names.setdefault(key, " ".join(str(raw).split()))
        last_key = key
    result.decks = [
        SheetDeck(name=names[key], rows=tuple(deck_rows), layout=layout) for key, deck_rows in by_key.items()
    ]
    return result


def _text_or_none(value: Any) -> str | None:
    return None if value in (None, "") else str(value)


def _expected_columns(ruleset: Ruleset) -> str:
    if len(ruleset.deck_sections) > 1:
        sections = ", ".join(s.capitalize() for s in ruleset.deck_sections[1:])
        return f"deck, count, name and section (Main, {sections}) in row 1"
    return "deck, count and name in row 1"


def deck_from_sheet(sheet_deck: SheetDeck, cardset: CardSet) -> Deck:
    """One deck of a Decks sheet resolved against the cards: unknown names, bad counts and sections are findings
    naming the Decks sheet's row and column, worded as for any sheet decklist."""
    layout = sheet_deck.layout
    assert layout.name is not None, "a Decks sheet without a name column has no decks"
    roles = _Roles(headers=layout.headers, name=layout.name, count=layout.count, section=layout.section)
    rows = [(row.row, row.values, dict(row.formulas)) for row in sheet_deck.rows]
    return _deck_from_rows(rows, roles, sheet_deck.name, layout.path, layout.sheet, cardset)


def sheet_deck_text(sheet_deck: SheetDeck, sections: Sequence[str]) -> str:
    """The deck's rows as decklist text (`N Name` lines under section headers), for editing it as text."""
    layout = sheet_deck.layout
    lines: list[str] = []
    previous: tuple[str, int] | None = (sections[0], 1)
    for row in sheet_deck.rows:
        name = row.values[layout.name] if layout.name is not None else None
        if name in (None, ""):
            continue
        section_cell = row.values[layout.section] if layout.section is not None else None
        block = (sections[0], 1) if section_cell in (None, "") else section_block(section_cell, sections)
        if block != previous:
            label = section_cell if block is None else ("Main" if block[0] == sections[0] else block[0].capitalize())
            lines.append(f"{label}:")
            previous = block
        count = row.values[layout.count] if layout.count is not None else None
        lines.append(f"{name}" if count in (None, "") else f"{count} {name}")
    return "\n".join(lines) + ("\n" if lines else "")


@dataclass
class SetDecks:
    """The decks that come with a card set: its workbook's Decks sheet first, then the `decks/` folder beside it."""

    decks: list[Deck] = field(default_factory=list)
    """The Decks sheet's decks in sheet order, then the folder's (alphabetically) whose names the sheet does not use."""
    findings: list[Finding] = field(default_factory=list)
    """The Decks sheet's own findings (a missing column, a row without a deck name, ...)."""
    notes: list[str] = field(default_factory=list)
    """One line per folder decklist passed over because the Decks sheet has a deck of the same name."""
    where: list[str] = field(default_factory=list)
    """Where the decks were looked for, for a message when there are none."""

    def named(self, name: str) -> Deck | None:
        """The deck of this name (case and spaces ignored), or None."""
        wanted = normalize_name(name)
        return next((deck for deck in self.decks if normalize_name(deck.name) == wanted), None)


def set_decks(cardset: CardSet, folder: Path | None = None) -> SetDecks:
    """The card set's own decks: its Decks sheet's (the workbook comes first), then `folder`'s decklists.

    A folder decklist whose name (file name without extension) is a deck of the Decks sheet is not read; a note
    says so, so the two are never silently merged or swapped.
    """
    found = SetDecks()
    sheet = read_decks_sheet(cardset.table if isinstance(cardset.table, SheetTable) else None, cardset.ruleset)
    found.where.append(f"{'the' if sheet is not None else 'a'} Decks sheet of {cardset.path}")
    if sheet is not None:
        found.decks.extend(deck_from_sheet(sheet_deck, cardset) for sheet_deck in sheet.decks)
        found.findings.extend(sheet.findings)
    if folder is None:
        return found
    found.where.append(f"the folder {folder}")
    sheet_names = {normalize_name(deck.name): deck.name for deck in found.decks}
    for path in decklists_in(folder):
        clash = sheet_names.get(normalize_name(path.stem))
        if clash is not None:
            found.notes.append(
                f"{path} was not read: the Decks sheet of {cardset.path} has a deck named '{clash}', and the "
                "workbook's deck comes first (rename one of them to use both)."
            )
            continue
        found.decks.append(read_decklist(path, cardset))
    return found


def decklists_in(folder: Path) -> list[Path]:
    """The text decklists in a `decks/` folder, alphabetically (the bundled layout)."""
    return sorted(folder.glob("*.txt")) if folder.is_dir() else []


def resolve_decks(
    arguments: Sequence[str], cardset: CardSet, folder: Path | None = None
) -> tuple[list[Deck], SetDecks | None]:
    """Each `--deck` argument as a deck: an existing file is read as a decklist; anything else is the name of one of
    the set's decks (`set_decks`). Returns the decks and, when a name was looked up, the set's decks."""
    decks: list[Deck] = []
    found: SetDecks | None = None
    for argument in arguments:
        # Anything at that path is read as a decklist: a folder, a FIFO or a device is then refused by what it is,
        # not taken for a deck's name; a broken symlink is read too, and refused as missing.
        if os.path.lexists(argument):
            decks.append(read_decklist(argument, cardset))
            continue
        if found is None:
            found = set_decks(cardset, folder)
        deck = found.named(argument)
        if deck is None:
            names = [d.name for d in found.decks]
            hints = closest_names(argument, names)
            hint = f" Did you mean {', '.join(repr(h) for h in hints)}?" if hints else ""
            where = " or ".join(found.where)
            raise WorkbenchInputError(
                f"the decklist file does not exist, and there is no deck of that name in {where}.{hint}",
                path=argument,
                expected=(
                    "a .txt, .csv or .xlsx decklist, or one of the set's decks: " + ", ".join(names)
                    if names
                    else "a .txt, .csv or .xlsx decklist (the set has no decks of its own)"
                ),
            )
        decks.append(deck)
    return decks, found


# Writing the session's decks into a Decks sheet -------------------------------------------------------------------


@dataclass(frozen=True)
class FormulaText:
    """A Decks sheet cell that held a formula in the upload, written back as that formula."""

    text: str
    """The formula, `=` included."""


@dataclass(frozen=True)
class DecksSheetLine:
    """One row to write into a Decks sheet."""

    deck: str
    """The deck's name (its name in the session)."""
    count: Any
    """How many copies, as written (a bad count is kept, so reading the file again reports it)."""
    name: Any
    """The card's name as written."""
    section: str = ""
    """The section label (`Main`, `Tokens`, `Collection 2`), or blank for the main deck."""
    kept: DeckRow | None = None
    """The upload's row this line is, written back cell by cell (so its other columns stay)."""


@dataclass(frozen=True)
class DecksSheetContent:
    """A Decks sheet to write: name, headers and rows of cell values (text is written as text, never a formula)."""

    sheet: str
    """The sheet's name (the upload's own spelling when it had one)."""
    headers: list[str]
    """Header cells, the upload's first (columns the workbench does not use are kept)."""
    rows: list[list[Any]]
    """Cell values per row; a `FormulaText` is an upload's formula written back as it was."""
    keep_unreadable: bool = False
    """True when the upload's Decks sheet could not be read: it is kept, renamed, beside the new one."""


def text_sheet_lines(
    deck_name: str, text: str, ruleset: Ruleset, cardset: CardSet | None = None
) -> list[DecksSheetLine]:
    """Decklist text as Decks sheet rows, line by line (lines that do not parse are kept as written, so reading the
    saved file reports them again instead of losing them)."""
    sections = ruleset.deck_sections
    lines: list[DecksSheetLine] = []
    label = "Main" if len(sections) > 1 else ""
    blocks: dict[str, int] = {}
    for raw in text_lines(text):
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
        header = _SECTION.match(line)
        if header:
            found = section_block(header.group("section"), sections)
            if found is None:
                label = header.group("section").strip()
            elif found[0] == sections[0]:
                label = "Main" if len(sections) > 1 else ""
            else:
                blocks[found[0]] = blocks.get(found[0], 0) + 1
                label = _block_label(found[0], blocks[found[0]])
            continue
        match = _COUNT_LINE.match(line) or _TRAILING_COUNT.match(line)
        if cardset is not None and cardset.find(line) is not None:
            lines.append(DecksSheetLine(deck_name, 1, line, label))  # a card named like "3 Wishes"
        elif match:
            count = whole_count(match.group("count"))  # None (unreadable, reported on reading) past 18 digits
            lines.append(DecksSheetLine(deck_name, count, match.group("name").strip(), label))
        elif re.match(r"^-?\d", line):
            lines.append(DecksSheetLine(deck_name, None, line, label))  # unreadable: kept whole, reported on reading
        else:
            lines.append(DecksSheetLine(deck_name, 1, line, label))
    return lines


def deck_sheet_lines(deck: Deck, ruleset: Ruleset) -> list[DecksSheetLine]:
    """A resolved deck's lines as Decks sheet rows (each block of an extra section numbered from the second)."""
    sections = ruleset.deck_sections
    lines: list[DecksSheetLine] = []
    seen_groups: dict[str, list[int]] = {}
    for line in deck.lines:
        if line.section == sections[0]:
            label = "Main" if len(sections) > 1 else ""
        else:
            groups = seen_groups.setdefault(line.section, [])
            if line.group not in groups:
                groups.append(line.group)
            label = _block_label(line.section, groups.index(line.group) + 1)
        lines.append(DecksSheetLine(deck.name, line.count, line.name, label))
    return lines


def sheet_deck_lines(deck_name: str, sheet_deck: SheetDeck) -> list[DecksSheetLine]:
    """A Decks sheet deck's rows as they were read, under the deck's name in the session."""
    layout = sheet_deck.layout

    def cell(index: int | None, row: DeckRow) -> Any:
        return row.values[index] if index is not None else None

    return [
        DecksSheetLine(
            deck_name, cell(layout.count, row), cell(layout.name, row), str(cell(layout.section, row) or ""), row
        )
        for row in sheet_deck.rows
    ]


def _block_label(section: str, number: int) -> str:
    return section.capitalize() + (f" {number}" if number > 1 else "")


def decks_sheet_content(
    lines: Sequence[DecksSheetLine], ruleset: Ruleset, upload: DecksSheet | None = None
) -> DecksSheetContent:
    """The Decks sheet to save: the upload's headers (and columns) when it had a readable one, else the workbench's,
    then one row per line, then the upload's rows that belonged to no deck, as they were."""
    if upload is not None and upload.layout is not None and upload.layout.headers:
        layout = upload.layout
        headers = list(layout.headers)
        sheet = layout.sheet
        roles = {"deck": layout.deck, "count": layout.count, "name": layout.name, "section": layout.section}
    else:
        layout = None
        headers, sheet, roles = [], DECKS_SHEET, {key: None for key in DECKS_SHEET_HEADERS}
    needs_section = len(ruleset.deck_sections) > 1 or any(line.section for line in lines)
    for role in DECKS_SHEET_HEADERS:
        if roles[role] is None and (role != "section" or needs_section):
            roles[role] = len(headers)
            headers.append(role)
    rows: list[list[Any]] = []
    for line in lines:
        cells: list[Any] = [None] * len(headers)
        if line.kept is not None and layout is not None:
            formulas = dict(line.kept.formulas)
            for index, value in enumerate(line.kept.values):
                cells[index] = FormulaText(formulas[index]) if index in formulas else value
        else:
            for role, value in (("count", line.count), ("name", line.name), ("section", line.section or None)):
                role_index = roles[role]
                if role_index is not None:
                    cells[role_index] = value
        deck_index = roles["deck"]
        assert deck_index is not None
        cells[deck_index] = line.deck
        rows.append(cells)
    if upload is not None and layout is not None:
        for stray in upload.stray_rows:
            formulas = dict(stray.formulas)
            rows.append(
                [FormulaText(formulas[i]) if i in formulas else value for i, value in enumerate(stray.values)]
                + [None] * (len(headers) - len(stray.values))
            )
    return DecksSheetContent(
        sheet=sheet, headers=headers, rows=rows, keep_unreadable=upload is not None and not upload.readable
    )


# Following renamed cards ------------------------------------------------------------------------------------------


def rename_in_text(text: str, renames: Mapping[str, str], known: Collection[str] = ()) -> tuple[str, set[str]]:
    """Decklist text whose lines naming a renamed card name its new name; everything else kept as written.

    `renames` maps a card's old name, normalized (`normalize_name`), to its new name. Only the name of a line
    changes: its count (`3 `, `3x `, ` x3`), its place and every other line (comments, blank lines, section
    headings, lines that do not parse) stay as they were. `known` holds the set's card names (normalized) before
    the rename, so a line that is a whole card name (`3 Wishes`) is read as that card, as `parse_decklist` reads it.
    Returns the text and the old names (normalized) that its lines named.
    """
    found: set[str] = set()
    out: list[str] = []
    for raw in text_lines(text, keepends=True):
        body = raw.rstrip("\r\n")
        ending = raw[len(body) :]
        line = body.strip()
        if not line or line.startswith(("#", "//")) or _SECTION.match(line):
            out.append(raw)
            continue
        lead, tail = body[: len(body) - len(body.lstrip())], body[len(body.rstrip()) :]
        key = normalize_name(line)
        if key in renames:
            found.add(key)
            out.append(lead + _bare_line(renames[key]) + tail + ending)
            continue
        match = None if key in known else _COUNT_LINE.match(line) or _TRAILING_COUNT.match(line)
        name_key = normalize_name(match.group("name")) if match is not None else ""
        if match is None or name_key not in renames:
            out.append(raw)
            continue
        found.add(name_key)
        renamed = line[: match.start("name")] + renames[name_key] + line[match.end("name") :]
        out.append(lead + renamed + tail + ending)
    return "".join(out), found


def _bare_line(name: str) -> str:
    """A line of one copy of `name`: the name alone, or `1 name` when the name alone would read as a comment or a
    section heading."""
    return f"1 {name}" if name.startswith(("#", "//")) or _SECTION.match(name) else name


def rename_in_sheet_deck(sheet_deck: SheetDeck, renames: Mapping[str, str]) -> tuple[SheetDeck, set[str]]:
    """A Decks sheet deck whose rows naming a renamed card name its new name (every other cell of the row kept, so a
    save writes the row back as it was but for the name). Returns the deck and the old names (normalized) found."""
    layout = sheet_deck.layout
    if layout.name is None:
        return sheet_deck, set()
    found: set[str] = set()
    rows: list[DeckRow] = []
    for row in sheet_deck.rows:
        value = row.values[layout.name]
        formula = layout.name in dict(row.formulas)
        key = None if formula or value in (None, "") else normalize_name(str(value))
        if key is None or key not in renames:
            rows.append(row)
            continue
        found.add(key)
        values = list(row.values)
        values[layout.name] = renames[key]
        rows.append(replace(row, values=tuple(values)))
    return (replace(sheet_deck, rows=tuple(rows)) if found else sheet_deck), found


def sheet_decklist_text(data: bytes, filename: str, sections: Sequence[str]) -> str:
    """A sheet decklist (an uploaded .csv or .xlsx with name and count columns) as decklist text, row by row.

    A row that would not read (a bad count, a formula cell) is written as it stands, so reading the text reports it
    again rather than losing it. Unreadable input raises `WorkbenchInputError`, as reading the decklist does.
    """
    table = read_sheet(filename, data=data, filename=filename)
    columns = _decklist_columns(table, filename)
    layout = DecksLayout(
        path=filename,
        sheet=table.sheet,
        headers=tuple(table.headers),
        deck=None,
        count=_first_column(columns, COUNT_HEADERS),
        name=columns["name"],
        section=columns.get("section"),
    )
    formulas = _formulas_by_row(table)
    rows = []
    for number, values in table.rows[:MAX_ROWS]:
        cells = [_whole_number(value) for value in values]
        for column, text in formulas.get(number, {}).items():
            if column < len(cells):
                cells[column] = text
        rows.append(DeckRow(number, tuple(cells)))
    return sheet_deck_text(SheetDeck(Path(filename).stem, tuple(rows), layout), sections)


def _whole_number(value: Any) -> Any:
    """A whole float as an int (a count of 3.0 read from a workbook is written `3`)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value
