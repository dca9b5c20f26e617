"""What the real-browser tests share: the `streamlit run` server on a free port (and one slowed down on purpose), and
Debian's chromium.

The browser is the system's /usr/bin/chromium (or WORKBENCH_CHROMIUM), never a
`playwright install` download. When it is missing the tests skip, except under
CI or WORKBENCH_REQUIRE_BROWSER, where they fail.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import playwright.sync_api as playwright_api  # in the test extra: a missing install fails, never skips
import pytest
from browser.app_server import streamlit_server

CHROMIUM = Path(os.environ.get("WORKBENCH_CHROMIUM", "/usr/bin/chromium"))
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`streamlit run streamlit_app.py` on a free loopback port, stopped after the module's tests."""
    with streamlit_server(tmp_path_factory.mktemp("server")) as server:
        yield server.url


SLOW_PAGE_SECONDS = "1.5"
"""The slow server's delay per page run: what a loaded machine (load average 4-6) gave in the trial of issue 12."""


@pytest.fixture(scope="module")
def slow_app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on a server made slow on purpose: every page run waits SLOW_PAGE_SECONDS (WORKBENCH_TEST_PAGE_DELAY)."""
    with streamlit_server(
        tmp_path_factory.mktemp("slow_server"), {"WORKBENCH_TEST_PAGE_DELAY": SLOW_PAGE_SECONDS}
    ) as server:
        yield server.url


@pytest.fixture(scope="module")
def chromium_launch_options() -> dict[str, Any]:
    """Keyword arguments for `chromium.launch` (sync or async API); skips or fails when chromium is missing."""
    if not CHROMIUM.is_file():
        message = f"Debian's chromium is needed at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI") or os.environ.get("WORKBENCH_REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    return {"executable_path": str(CHROMIUM), "args": list(LAUNCH_ARGS)}


@pytest.fixture(scope="module")
def browser(chromium_launch_options: dict[str, Any]) -> Iterator[object]:
    """One chromium for the module's tests, driven through Playwright's sync API."""
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(**chromium_launch_options)
        yield launched
        launched.close()
