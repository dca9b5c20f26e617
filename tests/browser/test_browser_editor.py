"""The card editor in a real browser, edited as a hand edits it, on a quiet and on a busy server.

Debian's chromium (Playwright) at 1440x900 against `streamlit run`. A cell is
edited the way a person does it: a double-click made of two clicks about
150 ms apart (Playwright's `mouse.dblclick` sends both at once, which the grid
does not take as a person's double-click), the cell's text selected and typed
over, Enter. Where each cell is on the grid's canvas is found by clicking and
reading which cell the grid's accessible table marks as selected, so nothing
depends on the grid's column widths. What was kept is read where a designer
reads it: the Compare versions page's patch notes against the set as it was
opened, which must list exactly the cards and values edited.

The busy server is `WORKBENCH_TEST_PAGE_DELAY=1.5` (every page run waits 1.5
s, as the trial's loaded machine did); there the edits are made one after the
other without waiting for the page to finish, as a person does.
"""

from __future__ import annotations

import csv
import os
import re
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import playwright.sync_api as playwright_api  # in the test extra: a missing install fails, never skips
import pytest
from browser import steps

from workbench.paths import REPO_ROOT

Page = playwright_api.Page
Locator = playwright_api.Locator
expect = playwright_api.expect

ASHFALL = REPO_ROOT / "cardsets" / "souls" / "ashfall.csv"
"""A bundled set of 46 cards (sheet rows 2-47), enough to scroll the grid to row 40."""
STEP_TIMEOUT_MS = 60_000
HEADER_HEIGHT = 36
"""Pixels of the grid's header row on its canvas (measured: rows start 36 px below the canvas's top)."""
ROW_HEIGHT = 35
"""Pixels per grid row (the data editor's default)."""
HAND_DOUBLE_CLICK_MS = 150
"""The gap between the two clicks of a person's double-click."""
HAND_LOOK_MS = 300
"""A person's pause between the cell's editor showing its caret and the first key."""
HAND_KEY_MS = 80
"""A person's gap between keys (and before Enter). Keys sent all at once are not what a person does: the grid's
cell editor then often commits the text it held before the last keys, on a quiet server too."""
VIEWPORT = {"width": 1440, "height": 900}
expect.set_options(timeout=STEP_TIMEOUT_MS)


@dataclass(frozen=True)
class Card:
    """One card of ashfall.csv as the file has it."""

    position: int
    """Its place in the grid (0 = sheet row 2)."""
    name: str
    """Its name."""
    color: str
    """Its `color` cell (flavour: no rule reads it, so editing it makes no finding)."""

    @property
    def row(self) -> int:
        """Its row in the sheet (header = row 1)."""
        return self.position + 2


def ashfall_cards() -> list[Card]:
    with ASHFALL.open(encoding="utf-8", newline="") as handle:
        return [Card(i, row["name"], row["color"]) for i, row in enumerate(csv.DictReader(handle))]


@dataclass
class Grid:
    """The card grid on the page and where its cells are on the screen."""

    page: Page
    """The browser tab."""
    column_x: dict[str, float] = field(default_factory=dict)
    """Header -> an x inside that column, found by clicking (kept while the grid stays the same grid)."""
    probed: bool = False
    """True right after a click that found a column (a double-click must not start within a double-click's time)."""

    @property
    def frame(self) -> Locator:
        return self.page.locator("[class*='st-key-card_grid'] [data-testid=stDataFrame]")

    def canvas_box(self) -> playwright_api.FloatRect:
        box = self.frame.locator("canvas").first.bounding_box()
        assert box is not None, "the card grid is not drawn"
        return box

    def scroll_top(self) -> float:
        return float(self.frame.locator(".dvn-scroller").evaluate("e => e.scrollTop"))

    def column_index(self, header: str) -> int:
        """The column's index in the grid's accessible table (1 = the first after the row markers)."""
        heading = self.frame.locator("th", has_text=re.compile(rf"^{re.escape(header)}$"))
        expect(heading).to_have_count(1)
        return int(heading.get_attribute("aria-colindex") or 0)

    def cell(self, header: str, position: int) -> Locator:
        """The accessible twin of a cell; the grid only has twins for the cells in its view."""
        return self.frame.locator(f"#glide-cell-{self.column_index(header)}-{position}")

    def row_y(self, position: int) -> float:
        """The screen y of the middle of a grid row, which must be in the grid's view."""
        box = self.canvas_box()
        y = box["y"] + HEADER_HEIGHT + position * ROW_HEIGHT - self.scroll_top() + ROW_HEIGHT / 2
        assert box["y"] + HEADER_HEIGHT < y < box["y"] + box["height"], f"grid row {position} is out of the grid's view"
        assert 0 < y < VIEWPORT["height"], f"grid row {position} is out of the window"
        return y

    def selected(self) -> str | None:
        chosen = self.frame.locator("td[aria-selected=true]")
        return chosen.first.get_attribute("id") if chosen.count() else None

    def _click_and_read(self, x: float, y: float) -> tuple[int, int] | None:
        """Click a point and wait for the accessible table to say which cell (column, row) that selected."""
        before = self.selected()
        self.page.mouse.click(x, y)
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            now = self.selected()
            if now is not None and now != before:
                break
            self.page.wait_for_timeout(50)
        now = self.selected()
        if now is None:
            return None
        column, row = now.removeprefix("glide-cell-").split("-")
        return int(column), int(row)

    def x_of(self, header: str, position: int) -> float:
        """An x inside the column, found by halving: click, read the selected column, move left or right."""
        if header in self.column_x:
            return self.column_x[header]
        wanted = self.column_index(header)
        # Two rows in turn, so that every click changes the selection (and its reading need not wait out a timeout).
        neighbour = position - 1 if position > 0 else position + 1
        rows = [self.row_y(position), self.row_y(neighbour)]
        box = self.canvas_box()
        low, high = box["x"] + 45, box["x"] + box["width"] - 20  # past the row markers; short of the scroll bar
        for attempt in range(14):
            middle = (low + high) / 2
            picked = self._click_and_read(middle, rows[attempt % 2])
            assert picked is not None, f"a click at x={middle:.0f} selected no cell"
            self.probed = True
            if picked[0] == wanted:
                self.column_x[header] = self._away_from_edges(middle, rows, wanted)
                return self.column_x[header]
            if picked[0] < wanted:
                low = middle
            else:
                high = middle
        raise AssertionError(f"column '{header}' was not found on the grid")

    def _away_from_edges(self, x: float, rows: list[float], wanted: int) -> float:
        """An x at least about a dozen pixels inside the column, as a person aims (a click on a cell's edge lands
        on the cell editor's frame, not its text box, and leaves the editor without the caret)."""

        def inside(candidate: float, turn: int) -> bool:
            picked = self._click_and_read(candidate, rows[turn % 2])
            return picked is not None and picked[0] == wanted

        left, right = inside(x - 12, 0), inside(x + 12, 1)
        if left and right:
            return x
        if right:
            return x + 12 if inside(x + 24, 0) else x + 6
        if left:
            return x - 12 if inside(x - 24, 0) else x - 6
        return x

    def hand_edit(self, position: int, header: str, text: str, wait: bool = True) -> bool:
        """Double-click the cell as a hand does, type over its text, press Enter; True if a page run was showing then.

        With `wait`, wait for the page to finish and check the cell holds the text; without, return at once (the
        next edit starts while the page still runs, as a person's does).
        """
        x, y = self.x_of(header, position), self.row_y(position)
        if self.probed:
            self.page.wait_for_timeout(600)  # the last click that found a column must not join this double-click
            self.probed = False
        self.page.mouse.click(x, y)
        self.page.wait_for_timeout(HAND_DOUBLE_CLICK_MS)
        self.page.mouse.click(x, y)
        editor = self.page.get_by_test_id("portal").locator("textarea")
        expect(editor).to_be_focused()  # a person types once they see the caret
        self.page.wait_for_timeout(HAND_LOOK_MS)
        self.page.keyboard.press("ControlOrMeta+a")
        self.page.keyboard.type(text, delay=HAND_KEY_MS)
        self.page.wait_for_timeout(HAND_KEY_MS)
        page_running = running(self.page)
        self.page.keyboard.press("Enter")
        expect(editor).to_have_count(0)
        if wait:
            idle(self.page)
            expect(self.cell(header, position)).to_have_text(text)
        return page_running


running, idle, go = steps.running, steps.idle, steps.go


def open_ashfall(page: Page) -> None:
    """Open the bundled souls set ashfall.csv on the Card sets page, then go to the Card editor."""
    page.get_by_test_id("stSelectbox").filter(has_text="Bundled set").first.click()
    page.get_by_role("option", name=f"souls · {ASHFALL.name}").first.click()
    idle(page)
    page.get_by_role("button", name="Open bundled set").click()
    expect(page.get_by_text(f"Opened {ASHFALL.name} with its")).to_be_visible()
    go(page, "Card editor")
    expect(Grid(page).frame).to_be_visible()


def card_shown(page: Page) -> Locator:
    """The 'Card shown' panel's label (it names the card shown and its check mark)."""
    return page.get_by_test_id("stExpander").filter(has_text="Card shown:").locator("summary")


def patch_notes(page: Page) -> list[str]:
    """The Compare versions page's patch notes against the set as it was opened (the page's default)."""
    go(page, "Compare versions")
    notes = page.get_by_test_id("stVerticalBlock").filter(has=page.get_by_role("heading", name="Patch notes")).last
    expect(notes).to_be_visible()
    items = notes.locator("li")
    if items.count() == 0:
        expect(notes).to_contain_text("No changes.")
        return []
    return [" ".join((item.text_content() or "").split()) for item in items.all()]


def screenshot(page: Page, folder: Path, name: str) -> None:
    """The window as a person sees it (1440x900) into the test's folder, copied to WORKBENCH_SCREENSHOTS when set."""
    path = folder / f"{name}.png"
    page.screenshot(path=str(path))
    if target := os.environ.get("WORKBENCH_SCREENSHOTS"):
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(target) / path.name)


def _new_tab(browser: playwright_api.Browser, url: str) -> Iterator[Page]:
    with steps.new_tab(browser, url, VIEWPORT["width"], VIEWPORT["height"]) as tab:
        yield tab


@pytest.fixture
def page(browser: playwright_api.Browser, app_url: str) -> Iterator[Page]:
    """A new session (its own browser context) on the ordinary server."""
    yield from _new_tab(browser, app_url)


@pytest.fixture
def slow_page(browser: playwright_api.Browser, slow_app_url: str) -> Iterator[Page]:
    """A new session on the server that waits 1.5 s in every page run."""
    yield from _new_tab(browser, slow_app_url)


def _color_line(card: Card, new: str) -> str:
    return f"{card.name}: color {card.color} → {new}."  # the page draws the notes' "->" as an arrow


FIVE_COLORS = ("Ash Grey", "Bone White", "Slate", "Ochre", "Teal")


def test_five_edits_on_five_cards_are_all_kept_and_survive_leaving_the_page(page: Page, tmp_path: Path) -> None:
    cards = ashfall_cards()
    open_ashfall(page)
    screenshot(page, tmp_path, "editor_1440x900")
    grid = Grid(page)
    targets = [cards[p] for p in (0, 2, 4, 6, 8)]
    for card, color in zip(targets, FIVE_COLORS, strict=True):
        grid.hand_edit(card.position, "color", color)
        # The card shown follows the edited row: its label names it with its check mark.
        expect(card_shown(page)).to_contain_text(f"row {card.row} · {card.name} · ✓")
    assert grid.scroll_top() == 0
    expected = [_color_line(card, color) for card, color in zip(targets, FIVE_COLORS, strict=True)]
    assert sorted(patch_notes(page)) == sorted(expected)

    # Back in the editor the grid is drawn from the edited sheet; a sixth edit joins the five.
    go(page, "Card editor")
    grid = Grid(page)
    expect(grid.cell("color", 2)).to_have_text("Bone White")
    sixth = cards[9]
    grid.hand_edit(sixth.position, "color", "Umber")
    assert sorted(patch_notes(page)) == sorted([*expected, _color_line(sixth, "Umber")])


def test_five_quick_edits_on_a_busy_server_are_all_kept(slow_page: Page, tmp_path: Path) -> None:
    page = slow_page
    cards = ashfall_cards()
    open_ashfall(page)
    grid = Grid(page)
    targets = [cards[p] for p in (1, 3, 5, 7, 9)]
    colors = ("Ash", "Bone", "Slate", "Ochre", "Teal")
    grid.x_of("color", targets[0].position)  # found before the edits: the grid stays put, so it stays right
    # Each edit starts as soon as the last one is committed, while the page still runs for it.
    during_a_run = [
        grid.hand_edit(card.position, "color", color, wait=False) for card, color in zip(targets, colors, strict=False)
    ]
    idle(page)
    for card, color in zip(targets, colors, strict=True):
        expect(grid.cell("color", card.position)).to_have_text(color)
    expect(card_shown(page)).to_contain_text(f"row {targets[-1].row} · {targets[-1].name}")
    screenshot(page, tmp_path, "busy_server_after_five_edits")
    assert sum(during_a_run) >= 2, f"too few edits were made while the page ran ({during_a_run}): not a busy server"
    expected = [_color_line(card, color) for card, color in zip(targets, colors, strict=True)]
    assert sorted(patch_notes(page)) == sorted(expected)


def test_an_edit_near_row_40_lands_on_that_card_and_the_grid_stays_where_it_was_scrolled(
    page: Page, tmp_path: Path
) -> None:
    cards = ashfall_cards()
    target = next(card for card in cards if card.row == 40)
    open_ashfall(page)
    grid = Grid(page)
    box = grid.canvas_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, ROW_HEIGHT * (target.position - 4))  # scroll with the wheel, as a hand does
    page.wait_for_function(
        "([selector, wanted]) => Math.abs(document.querySelector(selector).scrollTop - wanted) < 2",
        arg=["[class*='st-key-card_grid'] .dvn-scroller", ROW_HEIGHT * (target.position - 4)],
    )
    scrolled = grid.scroll_top()
    expect(grid.cell("name", target.position)).to_have_text(target.name)
    grid.hand_edit(target.position, "color", "Rust")
    assert grid.scroll_top() == scrolled, "the grid jumped after the edit"
    expect(card_shown(page)).to_contain_text(f"row {target.row} · {target.name}")
    # A second edit at the same place on the screen, right after the first commit, is still on that card.
    grid.hand_edit(target.position, "color", "Rust Red")
    assert grid.scroll_top() == scrolled
    screenshot(page, tmp_path, "edited_near_row_40")
    assert patch_notes(page) == [_color_line(target, "Rust Red")]


def test_a_card_added_with_the_button_is_in_view_shown_and_can_be_filled(page: Page, tmp_path: Path) -> None:
    cards = ashfall_cards()
    open_ashfall(page)
    page.get_by_role("button", name="Add card").click()
    idle(page)
    new_position = len(cards)
    grid = Grid(page)
    # In view: the grid has scrolled to it (its cells have accessible twins only while in view) and it is shown.
    expect(grid.cell("name", new_position)).to_have_text("New card")
    grid.row_y(new_position)
    expect(card_shown(page)).to_contain_text(f"row {new_position + 2} · New card")
    screenshot(page, tmp_path, "card_added")
    for header, text in (("name", "Ash Sprite"), ("soul_cost", "0"), ("atk", "3"), ("def", "2"), ("color", "Crimson")):
        grid.hand_edit(new_position, header, text)
    expect(card_shown(page)).to_contain_text(f"row {new_position + 2} · Ash Sprite · ✓")
    card_shown(page).click()  # open the panel: the preview shows the card as filled in, with no finding
    preview = page.get_by_test_id("card-preview")
    expect(preview).to_be_visible()
    expect(preview).to_contain_text("Ash Sprite")
    expect(page.get_by_text("No findings on this card.")).to_be_visible()
    screenshot(page, tmp_path, "card_added_and_filled")
    assert patch_notes(page) == ["New card: Ash Sprite (monster)."]
