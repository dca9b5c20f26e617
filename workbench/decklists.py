"""Decklists: text (`N Name`, `Nx Name`, `Name`) and sheets (`name`, `count`).

A line `Tokens:` or `Collection:` (any section the ruleset knows) starts a
section; `Main:` or `Deck:` returns to the main deck. Names match the card set
case-insensitively; an unknown name is an error that suggests the closest
names, and a line that does not parse is an error naming its line.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from workbench.cards import CardSet, Deck, DeckLine, Finding, WorkbenchInputError, closest_names, normalize_name
from workbench.rulesets.base import normalize_header
from workbench.spreadsheets import MAX_FILE_BYTES, MAX_ROWS, read_sheet

MAX_COPIES_PER_LINE = 999
"""A count above this is a typo, not a deck."""
_COUNT_LINE = re.compile(r"^(?P<count>\d+)\s*[xX×]?\s+(?P<name>.+?)\s*$")
_TRAILING_COUNT = re.compile(r"^(?P<name>.+?)\s+[xX×]\s*(?P<count>\d+)\s*$")
_SECTION = re.compile(r"^(?P<section>[A-Za-z][A-Za-z ]*?)\s*:\s*$")
MAIN_SECTION_NAMES = ("main", "deck", "maindeck")


def read_decklist(
    path: str | os.PathLike[str], cardset: CardSet, data: bytes | None = None, filename: str | None = None
) -> Deck:
    """Read a decklist file (or an upload's bytes) and resolve it against the card set."""
    display = filename or str(path)
    suffix = Path(display).suffix.casefold()
    if data is None:
        file_path = Path(path)
        if not file_path.is_file():
            raise WorkbenchInputError(
                "the decklist file does not exist.", path=display, expected="a .txt, .csv or .xlsx decklist"
            )
        if file_path.stat().st_size > MAX_FILE_BYTES:
            raise WorkbenchInputError("the decklist is larger than the size limit.", path=display)
        data = file_path.read_bytes()
    if suffix in (".xlsx", ".xlsm", ".csv") or data.startswith(b"PK"):
        return _sheet_decklist(path, cardset, data, display)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    if "\x00" in text:
        raise WorkbenchInputError(
            "the decklist holds binary data, not text.", path=display, expected="one `N Name` per line"
        )
    return parse_decklist(text, cardset, name=Path(display).stem, path=display)


def parse_decklist(text: str, cardset: CardSet, name: str = "deck", path: str = "<text>") -> Deck:
    """Parse decklist text: one `N Name`, `Nx Name`, `Name xN` or `Name` per line."""
    ruleset = cardset.ruleset
    sheet = Path(path).name if path != "<text>" else name
    lines: list[DeckLine] = []
    findings: list[Finding] = []
    section = ruleset.deck_sections[0]
    group = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
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
        resolved = _resolve(card_name, count, number, section, cardset, name, sheet, findings, ruleset.id)
        lines.append(replace(resolved, group=group))
    return Deck(name=name, path=path, lines=lines, sheet=sheet, load_findings=findings)


def _parse_line(line: str) -> tuple[int, str] | str:
    match = _COUNT_LINE.match(line) or _TRAILING_COUNT.match(line)
    if match:
        count = int(match.group("count"))
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
                column="name",
                expected=hints or "a card name from the set",
                actual=card_name,
            )
        )
    return DeckLine(name=card_name, count=count, line=number, section=section, entry=entry)


def _sheet_decklist(path: Any, cardset: CardSet, data: bytes, display: str) -> Deck:
    table = read_sheet(path, data=data, filename=display)
    ruleset = cardset.ruleset
    columns = {normalize_header(h): i for i, h in enumerate(table.headers)}
    if "name" not in columns:
        raise WorkbenchInputError(
            f"a sheet decklist needs a 'name' column (headers found: {', '.join(table.headers)}).",
            path=display,
            sheet=table.sheet,
            row=1,
            column="name",
            expected="columns name and count (and optionally section)",
        )
    name_col = columns["name"]
    count_col = columns.get("count", columns.get("copies", columns.get("qty")))
    section_col = columns.get("section")
    deck_name = Path(display).stem
    lines: list[DeckLine] = []
    findings: list[Finding] = []
    group, previous_section = 0, ruleset.deck_sections[0]
    for number, values in table.rows[:MAX_ROWS]:
        card_name = values[name_col]
        if card_name in (None, ""):
            findings.append(
                Finding(
                    severity="error",
                    rule=f"{ruleset.id}.deck_line",
                    message="this row has a count but no card name.",
                    deck=deck_name,
                    sheet=table.sheet,
                    row=number,
                    column=table.headers[name_col],
                    expected="a card name",
                )
            )
            continue
        raw_count = values[count_col] if count_col is not None else 1
        count = _sheet_count(raw_count)
        if count is None:
            findings.append(
                Finding(
                    severity="error",
                    rule=f"{ruleset.id}.deck_line",
                    message=f"'{raw_count}' is not a whole number of copies from 1 to {MAX_COPIES_PER_LINE}.",
                    card=str(card_name),
                    deck=deck_name,
                    sheet=table.sheet,
                    row=number,
                    column=table.headers[count_col] if count_col is not None else "count",
                    expected=f"a whole number from 1 to {MAX_COPIES_PER_LINE}",
                    actual=raw_count,
                )
            )
            continue
        section = ruleset.deck_sections[0]
        if section_col is not None and values[section_col] not in (None, ""):
            wanted = normalize_header(str(values[section_col]))
            section = next(
                (s for s in ruleset.deck_sections if normalize_header(s) == wanted),
                ruleset.deck_sections[0] if wanted in MAIN_SECTION_NAMES else "",
            )
            if not section:
                findings.append(
                    Finding(
                        severity="error",
                        rule=f"{ruleset.id}.deck_line",
                        message=f"'{values[section_col]}' is not a deck section of this game.",
                        card=str(card_name),
                        deck=deck_name,
                        sheet=table.sheet,
                        row=number,
                        column=table.headers[section_col],
                        expected="one of: " + ", ".join(ruleset.deck_sections),
                        actual=values[section_col],
                    )
                )
                continue
        if section != previous_section:
            group, previous_section = group + 1, section
        resolved = _resolve(
            str(card_name), count, number, section, cardset, deck_name, table.sheet, findings, ruleset.id
        )
        lines.append(replace(resolved, group=group))
    return Deck(name=deck_name, path=display, lines=lines, sheet=table.sheet, load_findings=findings)


def _sheet_count(value: Any) -> int | None:
    if value in (None, ""):
        return 1
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, int) and 1 <= value <= MAX_COPIES_PER_LINE:
        return value
    return None
