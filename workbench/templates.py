"""Empty, documented card sheets for each ruleset (`workbench template`)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.comments import Comment
from openpyxl.styles import Alignment

from workbench import __version__
from workbench.rulesets.base import Ruleset
from workbench.spreadsheets import DECKS_SHEET, style_header, write_workbook_atomically


def write_template(ruleset: Ruleset, out_path: str | os.PathLike[str]) -> Path:
    """An xlsx with a `Cards` sheet of headers, a `Columns` sheet explaining each, a `Set` sheet, and an empty
    `Decks` sheet whose headers carry a note on what each holds."""
    workbook = openpyxl.Workbook()
    cards = workbook.active
    cards.title = "Cards"
    cards.append([column.header for column in ruleset.columns])
    style_header(cards, [max(12, len(column.header) + 4) for column in ruleset.columns])
    for column in ruleset.columns:
        if column.header in ("text", "effects", "brackets"):
            cards.column_dimensions[
                cards.cell(row=1, column=ruleset.columns.index(column) + 1).column_letter
            ].width = 48

    guide = workbook.create_sheet("Columns")
    guide.append(["column", "used by kinds", "required for", "holds", "meaning"])
    for column in ruleset.columns:
        guide.append(
            [
                column.header,
                ", ".join(column.kinds),
                ", ".join(column.required_for) or "-",
                column.type_name,
                column.description,
            ]
        )
    style_header(guide, [16, 28, 28, 30, 90])
    for row in guide.iter_rows(min_row=2):
        for cell in row:
            cell.alignment = Alignment(vertical="top", wrap_text=True)

    set_sheet = workbook.create_sheet("Set")
    set_sheet.append(["key", "value"])
    set_sheet.append(["ruleset", ruleset.id])
    set_sheet.append(["name", ""])
    set_sheet.append(["version", ""])
    set_sheet.append(["ruleset_version", ruleset.version])
    set_sheet.append(["written_by", f"workbench {__version__}"])
    style_header(set_sheet, [18, 40])

    decks = workbook.create_sheet(DECKS_SHEET)
    explained = decks_sheet_headers_explained(ruleset)
    decks.append(list(explained))
    for position, text in enumerate(explained.values(), start=1):
        decks.cell(row=1, column=position).comment = Comment(text, "workbench")
    style_header(decks, [max(12, len(header) + 4) if header != "name" else 32 for header in explained])
    return write_workbook_atomically(workbook, out_path)


def decks_sheet_headers_explained(ruleset: Ruleset) -> dict[str, str]:
    """The Decks sheet's headers for a ruleset, each with the note the template shows on it."""
    explained = {
        "deck": "The deck's name. One row per card line; a deck's rows stay together. Commands use every deck here "
        "when no --deck is given, and `--deck NAME` picks one.",
        "count": "How many copies of the card: a whole number from 1 to 999.",
        "name": "The card's name as in the Cards sheet (case does not matter).",
    }
    if len(ruleset.deck_sections) > 1:
        others = ", ".join(section.capitalize() for section in ruleset.deck_sections[1:])
        explained["section"] = (
            f"Main (or blank) for the deck itself, or {others}. A number after it starts another block of the "
            f"same section: {ruleset.deck_sections[1].capitalize()} 2."
        )
    return explained


def write_card_workbook(
    out_path: str | os.PathLike[str], headers: Sequence[str], rows: Iterable[Sequence[Any]], set_info: Mapping[str, str]
) -> Path:
    """A card workbook as a designer would keep it: a `Cards` sheet (headers, then `rows` as given) and a `Set` sheet.

    Cells are written as given, so a string starting with `=` becomes a formula cell: the sample sets of mistakes
    rely on that. Saved through a temporary file, so a failed run leaves the old workbook whole.
    """
    workbook = openpyxl.Workbook()
    cards = workbook.active
    cards.title = "Cards"
    cards.append(list(headers))
    for row in rows:
        cards.append(list(row))
    set_sheet = workbook.create_sheet("Set")
    set_sheet.append(["key", "value"])
    for key, value in set_info.items():
        set_sheet.append([key, value])
    return write_workbook_atomically(workbook, out_path)
