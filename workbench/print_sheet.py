"""A printable proof of a card set: every card drawn as the app's preview draws it, nine to a page, with cut marks.

Cards are poker size (63 x 88 mm) in a 3 x 3 grid, which fits A4 and US Letter
with the browser's default margins; crop marks stand outside the grid at every
cut line. A card is printed as many times as the set's `copies` column says
(Millennium Blades), else once. The file is self-contained HTML: open it in a
browser and print, or save as PDF.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from workbench.card_preview import card_html
from workbench.cards import CardSet
from workbench.html_render import render
from workbench.spreadsheets import write_text_atomically

CARD_WIDTH_MM = 63
CARD_HEIGHT_MM = 88
COLUMNS = 3
ROWS = 3
CARDS_PER_PAGE = COLUMNS * ROWS
MARK_MM = 5
"""Length of a crop mark, drawn in the margin outside the grid."""
PREVIEW_ZOOM = 0.78
"""The app's 300 px preview shrunk to fit 63 mm (about 238 px at 96 dpi)."""
PAD_MM = MARK_MM + 1
"""Space between the page's edge and the grid: the crop marks and a millimetre's gap."""


@dataclass(frozen=True)
class SheetLayout:
    """The page's measures in millimetres, as the template's style needs them."""

    width: int
    """The page area: the grid and a pad on each side."""
    height: int
    """The page area's height."""
    pad: int
    """From the page area's edge to the grid."""
    columns: int
    """Cards across."""
    card_width: int
    """A card's width."""
    card_height: int
    """A card's height."""
    zoom: float
    """The preview's zoom to fit a card."""


LAYOUT = SheetLayout(
    width=CARD_WIDTH_MM * COLUMNS + 2 * PAD_MM,
    height=CARD_HEIGHT_MM * ROWS + 2 * PAD_MM,
    pad=PAD_MM,
    columns=COLUMNS,
    card_width=CARD_WIDTH_MM,
    card_height=CARD_HEIGHT_MM,
    zoom=PREVIEW_ZOOM,
)


def print_pages(cardset: CardSet) -> list[list[str]]:
    """The cards' HTML, repeated by `copies`, split into pages of nine."""
    budget = (
        cardset.ruleset.stat_budget(cardset, cardset.ruleset.resolve_options()) if cardset.ruleset.stat_budget else None
    )
    cost_of = {point.card: point.cost for point in budget.points} if budget else {}
    cost_label = budget.cost_label if budget else "cost"
    table = cardset.table
    values_by_row = {number: values for number, values in table.rows} if table is not None else {}
    cards: list[str] = []
    for entry in cardset:
        name = entry.card.name
        values = values_by_row.get(entry.row, [])
        drawn = card_html(
            cardset.ruleset,
            table.headers if table is not None else [],
            [None if value is None else str(value) for value in values],
            cost=cost_of.get(name),
            cost_label=cost_label,
        )
        copies = getattr(entry.card, "copies", None) or 1
        cards.extend([drawn] * int(copies))
    return [cards[i : i + CARDS_PER_PAGE] for i in range(0, len(cards), CARDS_PER_PAGE)]


def crop_lines() -> list[tuple[int, int, int, int]]:
    """The crop marks as lines (x1, y1, x2, y2 in mm): short lines in the margin, continuing every cut line of the
    grid."""
    width, height = CARD_WIDTH_MM * COLUMNS, CARD_HEIGHT_MM * ROWS
    lines: list[tuple[int, int, int, int]] = []
    for column in range(COLUMNS + 1):
        x = PAD_MM + column * CARD_WIDTH_MM
        lines += [(x, 0, x, MARK_MM), (x, PAD_MM + height + 1, x, PAD_MM + height + 1 + MARK_MM)]
    for row in range(ROWS + 1):
        y = PAD_MM + row * CARD_HEIGHT_MM
        lines += [(0, y, MARK_MM, y), (PAD_MM + width + 1, y, PAD_MM + width + 1 + MARK_MM, y)]
    return lines


def render_print_sheet(cardset: CardSet) -> tuple[str, int, int]:
    """(HTML, cards printed, pages): the template `html_templates/print_sheet.html` with the cards' HTML."""
    pages = print_pages(cardset)
    count = sum(len(page) for page in pages)
    html = render(
        "print_sheet.html",
        title=cardset.name,
        ruleset=cardset.ruleset.title,
        cards=count,
        pages=[[Markup(card) for card in page] for page in pages],  # each card is the card template's escaped HTML
        sheet=LAYOUT,
        crop_lines=crop_lines(),
    )
    return html, count, len(pages)


def write_print_sheet(cardset: CardSet, out_path: str | Path) -> tuple[Path, int, int]:
    """Write the print sheet; returns (path, cards printed, pages)."""
    html, count, pages = render_print_sheet(cardset)
    return write_text_atomically(html, out_path), count, pages
