"""What the real-browser tests share: the `streamlit run` server on a free port (and one slowed down on purpose), and
Debian's chromium.

The browser is the system's /usr/bin/chromium (or WORKBENCH_CHROMIUM), never a
`playwright install` download. When it is missing the tests skip, except under
CI or WORKBENCH_REQUIRE_BROWSER, where they fail.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import playwright.sync_api as playwright_api  # in the test extra: a missing install fails, never skips
import pytest

from workbench.paths import REPO_ROOT

CHROMIUM = Path(os.environ.get("WORKBENCH_CHROMIUM", "/usr/bin/chromium"))
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def streamlit_server(log_folder: Path, env: Mapping[str, str] | None = None) -> Iterator[str]:
    """`streamlit run streamlit_app.py` on a free loopback port, `env` added to its environment; yields its URL."""
    port = _free_port()
    log = (log_folder / "streamlit.log").open("w")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "streamlit_app.py",
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.fileWatcherType",
            "none",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=REPO_ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, **(env or {})},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                    if response.read().strip() == b"ok":
                        break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not start (exit {server.poll()}); see {log.name}")
            time.sleep(0.5)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`streamlit run streamlit_app.py` on a free loopback port, stopped after the module's tests."""
    with streamlit_server(tmp_path_factory.mktemp("server")) as url:
        yield url


SLOW_PAGE_SECONDS = "1.5"
"""The slow server's delay per page run: what a loaded machine (load average 4-6) gave in the trial of issue 12."""


@pytest.fixture(scope="module")
def slow_app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on a server made slow on purpose: every page run waits SLOW_PAGE_SECONDS (WORKBENCH_TEST_PAGE_DELAY)."""
    with streamlit_server(
        tmp_path_factory.mktemp("slow_server"), {"WORKBENCH_TEST_PAGE_DELAY": SLOW_PAGE_SECONDS}
    ) as url:
        yield url


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
