"""What a person does in the browser, shared by the real-browser tests (Playwright's sync API): open a tab, wait for
the page to settle, move through the sidebar, pick from a selectbox, take a picture.

`idle` waits for a quiet spell, not for one look at the status widget: Streamlit shows that widget only about half
a second into a run, so a single look right after a click can see no run and return before the run has started.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import playwright.sync_api as playwright_api  # in the test extra: a missing install fails, never skips

Browser = playwright_api.Browser
Page = playwright_api.Page
expect = playwright_api.expect

STEP_TIMEOUT_MS = 60_000
"""One step of a person's work (a click, a page run on a loaded machine)."""
RUN_TIMEOUT_MS = 900_000
"""A first simulation may compile the engine's kernels with Numba (minutes on a slow machine; cached afterwards)."""
QUIET_SECONDS = 0.8
"""How long no page run must show before the page counts as settled (a run shows its status widget ~0.5 s in)."""


def running(page: Page) -> bool:
    """True while a page run is in progress (Streamlit shows its status widget a while into a run)."""
    return page.get_by_test_id("stStatusWidget").count() > 0


def idle(page: Page, timeout_ms: int = STEP_TIMEOUT_MS, quiet_seconds: float = QUIET_SECONDS) -> None:
    """Wait until no page run has shown for `quiet_seconds`, then check the page shows no exception."""
    deadline = time.monotonic() + timeout_ms / 1000
    quiet_since: float | None = None
    while True:
        now = time.monotonic()
        if running(page):
            quiet_since = None
        elif quiet_since is None:
            quiet_since = now
        elif now - quiet_since >= quiet_seconds:
            break
        assert now < deadline, f"the page was still running after {timeout_ms / 1000:.0f} s"
        page.wait_for_timeout(100)
    expect(page.get_by_test_id("stException")).to_have_count(0)


def go(page: Page, title: str, timeout_ms: int = STEP_TIMEOUT_MS) -> None:
    """Move to a page through the sidebar (a new URL would start a new session)."""
    idle(page, timeout_ms)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=title).click()
    expect(page.get_by_role("heading", name=title, level=1)).to_be_visible()
    idle(page, timeout_ms)


def choose(page: Page, label: str, option: str) -> None:
    """Pick an option of a selectbox by its visible label."""
    page.get_by_test_id("stSelectbox").filter(has_text=label).first.click()
    page.get_by_role("option", name=option).first.click()
    idle(page)


@contextlib.contextmanager
def new_tab(
    browser: Browser, url: str, width: int = 1440, height: int = 900, downloads: bool = False
) -> Iterator[Page]:
    """A new session (its own browser context) on the app at `url`, open on the Card sets page and settled."""
    context = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=downloads)
    tab = context.new_page()
    tab.set_default_timeout(STEP_TIMEOUT_MS)
    try:
        tab.goto(url)
        expect(tab.get_by_role("heading", name="Card sets", level=1)).to_be_visible()
        idle(tab)
        yield tab
    finally:
        context.close()


def keep_screenshot(path: Path) -> Path:
    """Copy a screenshot to WORKBENCH_SCREENSHOTS when that is set; returns the path."""
    if target := os.environ.get("WORKBENCH_SCREENSHOTS"):
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(target) / path.name)
    return path


def full_page_screenshot(page: Page, folder: Path, name: str) -> Path:
    """The whole page (grown to its content) into the test's folder, copied to WORKBENCH_SCREENSHOTS when set."""
    path = folder / f"{name}.png"
    # Streamlit scrolls inside its main block, not the page, so grow the window to the content for the picture.
    height = page.evaluate(
        "() => Math.max(document.body.scrollHeight, ...Array.from(document.querySelectorAll("
        "'[data-testid=stMain], [data-testid=stMainBlockContainer]')).map(e => e.scrollHeight))"
    )
    size = page.viewport_size
    assert size is not None
    page.set_viewport_size({"width": size["width"], "height": min(max(int(height) + 40, size["height"]), 8000)})
    page.wait_for_timeout(400)
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(size)
    return keep_screenshot(path)
