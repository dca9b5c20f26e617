"""The app's layout at the window sizes a designer works at (1024x768 up): the page's side margins, and the card
grid's pinned columns sized so that Streamlit keeps them pinned.

Streamlit's wide layout keeps 5rem (80 px) of margin either side of the page at every window width, which at
1024 px with the sidebar open leaves the page 564 px. Streamlit's data grid unpins every pinned column when the
pinned columns' configured widths add up to more than 60% of the grid's width (a column without a width counts as
100 px), so the card editor's name and cost columns would scroll away sideways. `page_style` narrows the margins
below 1280 px; `pinned_widths` gives each pinned column a width that fits its header and keeps the total within
`PINNED_BUDGET_PX`.
"""

from __future__ import annotations

from collections.abc import Iterable

import streamlit as st

from workbench.markup import markdown_text

NARROW_WINDOW_PX = 1280
"""Below this window width the page's side margins are narrowed to `NARROW_MARGIN_REM`."""
NARROW_MARGIN_REM = 1.5
"""The page's side margins in a narrow window (Streamlit's own: 5rem)."""
PINNED_SHARE = 0.6
"""Streamlit's rule: pinned columns stay pinned only while their widths add up to at most this share of the grid."""
PINNED_BUDGET_PX = 400
"""The most the card grid's pinned columns may add up to: 60% of the grid at 1024x768 with the sidebar open
(1024 - 300 sidebar - 2 x 24 margins = 676 px, 60% = 405 px), less a few pixels for a scroll bar."""
ROW_COLUMN_PX = 48
"""The read-only `row` column (five digits and its header)."""
NAME_COLUMN_PX = (120, 200)
"""The name column's narrowest and widest width; it takes what the cost columns leave of the budget."""
_HEADER_CHAR_PX = 7.5
"""About how wide one character of a column header is (the grid's header font)."""
_HEADER_EXTRA_PX = 44
"""A header's icon, padding and menu space beside its text."""
_MIN_COST_PX = 56


def page_style() -> None:
    """Narrow the page's side margins in a window narrower than `NARROW_WINDOW_PX` (a style only: takes no space)."""
    st.html(
        "<style>"
        f"@media (max-width: {NARROW_WINDOW_PX - 1}px) {{"
        '[data-testid="stMainBlockContainer"] {'
        f"padding-left: {NARROW_MARGIN_REM}rem; padding-right: {NARROW_MARGIN_REM}rem;"
        "}}"
        "</style>"
    )


def header_width(header: str) -> int:
    """A width in pixels that shows the header whole (its text, icon and padding)."""
    return max(_MIN_COST_PX, round(len(header) * _HEADER_CHAR_PX + _HEADER_EXTRA_PX))


def pinned_widths(name_label: str | None, cost_headers: dict[str, str]) -> dict[str, int]:
    """Widths for the grid's pinned name and cost columns, by column label (`cost_headers`: label -> header shown),
    adding up with the `row` column's `ROW_COLUMN_PX` to at most `PINNED_BUDGET_PX`. The cost columns fit their
    headers; the name takes what is left, within `NAME_COLUMN_PX`; when even that is too much, the cost columns are
    narrowed alike."""
    costs = {label: header_width(header) for label, header in cost_headers.items()}
    widths: dict[str, int] = {}
    left = PINNED_BUDGET_PX - ROW_COLUMN_PX
    if name_label is not None:
        low, high = NAME_COLUMN_PX
        widths[name_label] = max(low, min(high, left - sum(costs.values())))
        left -= widths[name_label]
    if costs and sum(costs.values()) > left:
        each = max(_MIN_COST_PX, left // len(costs))
        costs = {label: min(width, each) for label, width in costs.items()}
    widths.update(costs)
    return widths


WRAPPED_ROW_HEIGHT = 70
"""A table's row height at which Streamlit wraps a long text in its cell (it wraps only above 4rem, 64 px): about
three lines of a sentence."""


def texts_in_full(label: str, texts: Iterable[tuple[object, object]]) -> None:
    """Long texts a table cuts off, in full in a closed expander under it: one `**key**: text` line each (both escaped
    for Markdown); nothing when there is no text."""
    lines = [f"- **{markdown_text(str(key))}**: {markdown_text(str(text))}" for key, text in texts if text]
    if lines:
        with st.expander(label):
            st.markdown("\n".join(lines))
