"""The app at the window sizes a designer works at, 1024x768 and 1440x900 (issue 30): every button keeps its words,
and the card grid's row, name and cost columns stay pinned when the grid is scrolled sideways.

What is checked is read from the page itself: a text cut off is an element whose content is wider than its box
(`scrollWidth > clientWidth`) where the box hides the rest (Streamlit cuts a button's label with an ellipsis); a
pinned column is one a click at the same place on the screen still selects after the grid has been scrolled to its
far right. Each test saves window screenshots into its pytest output folder (and WORKBENCH_SCREENSHOTS).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import playwright.sync_api as playwright_api  # in the test extra: a missing install fails, never skips
import pytest
from browser import steps
from browser.test_browser_editor import Grid

from workbench.paths import bundled_sets
from workbench.rulesets import RULESETS

Page = playwright_api.Page
expect = playwright_api.expect

WINDOWS = [(1024, 768), (1440, 900)]
CLIPPED_TEXT = """(root) => Array.from(root.querySelectorAll('*')).filter((e) => {
  if (!e.offsetParent || !(e.innerText || '').trim()) return false;
  const style = getComputedStyle(e);
  const hides = ['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis';
  return hides && e.scrollWidth > e.clientWidth + 1;
}).map((e) => `${e.innerText.trim().slice(0, 60)} (${e.scrollWidth} px in ${e.clientWidth} px)`)"""
"""Every visible element under `root` whose text is wider than its box, which hides the rest."""


def clipped_buttons(page: Page) -> list[str]:
    """The labels of the buttons on the page whose words do not fit their button."""
    found: list[str] = []
    for button in page.locator("button:visible").all():
        found += button.evaluate(CLIPPED_TEXT)
    return found


def window_screenshot(page: Page, folder: Path, name: str) -> None:
    path = folder / f"{name}.png"
    page.screenshot(path=str(path))
    steps.keep_screenshot(path)


@pytest.fixture(params=WINDOWS, ids=lambda size: f"{size[0]}x{size[1]}")
def page(request: pytest.FixtureRequest, browser: playwright_api.Browser, app_url: str) -> Iterator[Page]:
    width, height = request.param
    with steps.new_tab(browser, app_url, width, height) as tab:
        yield tab


def _size(page: Page) -> str:
    size = page.viewport_size
    assert size is not None
    return f"{size['width']}x{size['height']}"


def open_set(page: Page, ruleset_id: str) -> str:
    """Open the ruleset's first bundled set on the Card sets page; returns its file name."""
    path = bundled_sets(ruleset_id)[0]
    steps.choose(page, "Bundled set", f"{ruleset_id} · {path.name}")
    page.get_by_role("button", name="Open bundled set").click()
    expect(page.get_by_text(f"Opened {path.name} with its")).to_be_visible()
    steps.idle(page)
    return path.name


@pytest.mark.parametrize("ruleset_id", ["source", "circles", "souls"])
def test_the_editors_buttons_keep_their_words_and_its_name_and_cost_columns_stay_pinned(
    page: Page, ruleset_id: str, tmp_path: Path
) -> None:
    open_set(page, ruleset_id)
    steps.go(page, "Card editor")
    grid = Grid(page)
    expect(grid.frame).to_be_visible()
    for label in ("Add card", "Duplicate", "Delete", "Save as xlsx"):
        expect(page.get_by_role("button", name=label)).to_be_visible()
    assert clipped_buttons(page) == []
    size = _size(page)
    window_screenshot(page, tmp_path, f"editor_{ruleset_id}_{size}")

    pinned = ["row", "name", *RULESETS[ruleset_id].cost_fields]
    where = {header: grid.x_of(header, 1) for header in pinned}
    scroller = grid.frame.locator(".dvn-scroller")
    scrolled = float(scroller.evaluate("e => { e.scrollLeft = e.scrollWidth; return e.scrollLeft; }"))
    assert scrolled > 0, "the grid is wide enough for every column: nothing to scroll sideways"
    page.wait_for_timeout(500)
    window_screenshot(page, tmp_path, f"editor_{ruleset_id}_{size}_scrolled_right")
    for header in pinned:
        picked = grid._click_and_read(where[header], grid.row_y(1 + pinned.index(header) % 2))
        assert picked is not None and picked[0] == grid.column_index(header), (
            f"after scrolling {scrolled:.0f} px sideways, the {header} column is no longer where it was"
        )
    # The last column is in view: the grid really was scrolled, under the pinned columns.
    assert float(scroller.evaluate("e => e.scrollLeft")) == scrolled


def test_no_buttons_words_are_cut_off_on_any_page(page: Page, tmp_path: Path) -> None:
    size = _size(page)
    for title in ("Card sets", "Card editor", "Stat budget", "Decks", "Balance", "Compare versions", "Rules"):
        steps.go(page, title)
        window_screenshot(page, tmp_path, f"{title.lower().replace(' ', '_')}_{size}")
        assert clipped_buttons(page) == [], f"cut off on {title} at {size}"
    # The Balance page's health check sits in a bordered panel beside its inputs: whole at both sizes.
    steps.go(page, "Balance")
    check = page.get_by_role("button", name="Check game health")
    expect(check).to_be_visible()
    assert check.evaluate(CLIPPED_TEXT) == []
