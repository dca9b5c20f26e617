"""A printable proof of a card set: every card drawn as the app's preview draws it, nine to a page, with cut marks.

Cards are poker size (63 x 88 mm) in a 3 x 3 grid, which fits A4 and US Letter
with the browser's default margins; crop marks stand outside the grid at every
cut line. A card is printed as many times as the set's `copies` column says
(Millennium Blades), else once. The file is self-contained HTML: open it in a
browser and print, or save as PDF.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from workbench.card_preview import card_html
from workbench.cards import CardSet
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


def print_pages(cardset: CardSet) -> list[list[str]]:
    """The cards' HTML, repeated by `copies`, split into pages of nine."""
    budget = cardset.ruleset.stat_budget(cardset, cardset.ruleset.resolve_options()) if cardset.ruleset.stat_budget else None
    cost_of = {point.card: point.cost for point in budget.points} if budget else {}
    cost_label = budget.cost_label if budget else "cost"
    table = cardset.table
    values_by_row = {number: values for number, values in table.rows} if table is not None else {}
    cards: list[str] = []
    for entry in cardset:
        name = entry.card.name  # type: ignore[attr-defined]
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


def _crop_marks() -> str:
    """An SVG of short lines in the margin, continuing every cut line of the grid."""
    pad = MARK_MM + 1
    width, height = CARD_WIDTH_MM * COLUMNS, CARD_HEIGHT_MM * ROWS
    segments: list[tuple[float, float, float, float]] = []
    for column in range(COLUMNS + 1):
        x = pad + column * CARD_WIDTH_MM
        segments += [(x, 0, x, MARK_MM), (x, pad + height + 1, x, pad + height + 1 + MARK_MM)]
    for row in range(ROWS + 1):
        y = pad + row * CARD_HEIGHT_MM
        segments += [(0, y, MARK_MM, y), (pad + width + 1, y, pad + width + 1 + MARK_MM, y)]
    strokes = "".join(f'<line x1="{a}mm" y1="{b}mm" x2="{c}mm" y2="{d}mm" />' for a, b, c, d in segments)
    return (
        f'<svg class="marks" width="{width + 2 * pad}mm" height="{height + 2 * pad}mm" stroke="#000" '
        f'stroke-width="0.2mm">{strokes}</svg>'
    )


def render_print_sheet(cardset: CardSet) -> tuple[str, int, int]:
    """(HTML, cards printed, pages)."""
    pages = print_pages(cardset)
    marks = _crop_marks()
    body = []
    for number, page in enumerate(pages, start=1):
        cells = "".join(f'<div class="card"><div class="zoom">{card}</div></div>' for card in page)
        body.append(f'<section class="page" aria-label="page {number}">{marks}<div class="grid">{cells}</div></section>')
    pad = MARK_MM + 1
    style = f"""
@page {{ margin: 8mm; }}
body {{ margin: 0; font-family: system-ui, sans-serif; }}
header {{ padding: 4mm; }} @media print {{ header {{ display: none; }} }}
.page {{ position: relative; width: {CARD_WIDTH_MM * COLUMNS + 2 * pad}mm; height: {CARD_HEIGHT_MM * ROWS + 2 * pad}mm;
         margin: 0 auto; page-break-after: always; break-after: page; }}
.marks {{ position: absolute; left: 0; top: 0; }}
.grid {{ position: absolute; left: {pad}mm; top: {pad}mm; display: grid;
         grid-template-columns: repeat({COLUMNS}, {CARD_WIDTH_MM}mm); grid-auto-rows: {CARD_HEIGHT_MM}mm; }}
.card {{ width: {CARD_WIDTH_MM}mm; height: {CARD_HEIGHT_MM}mm; overflow: hidden; display: flex; align-items: center;
         justify-content: center; }}
.zoom {{ zoom: {PREVIEW_ZOOM}; }}
.zoom > div {{ box-shadow: none !important; }}
"""
    count = sum(len(page) for page in pages)
    title = escape(cardset.name)
    html = (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Print sheet: {title}</title>'
        f"<style>{style}</style></head><body><header><strong>{title}</strong>: {count} cards on {len(pages)} page(s), "
        f"{cardset.ruleset.title}. Print at 100% scale; cut along the marks.</header>{''.join(body)}</body></html>"
    )
    return html, count, len(pages)


def write_print_sheet(cardset: CardSet, out_path: str | Path) -> tuple[Path, int, int]:
    """Write the print sheet; returns (path, cards printed, pages)."""
    html, count, pages = render_print_sheet(cardset)
    return write_text_atomically(html, out_path), count, pages
