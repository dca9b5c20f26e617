"""A first Run on a cold machine, in a real browser: the compile's progress is shown, then the results.

The server starts with an empty Numba cache (NUMBA_CACHE_DIR in a temporary folder) and an empty record of compile
times, as on a fresh clone, with its background warm-up limited to the circles engine (the quickest to compile:
about 100 s here under load). A designer opens the circles set, goes to Balance and presses Run while the engine
is still compiling: the display names the engine and counts the seconds, once a second, and says there is no
estimate (no compile on record for this Numba cache); the results follow.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import playwright.sync_api as playwright_api  # in the test extra: a missing install fails, never skips
import pytest
from browser.app_server import streamlit_server

from workbench.paths import bundled_sets

Page = playwright_api.Page
expect = playwright_api.expect

STEP_TIMEOUT_MS = 60_000
COMPILE_TIMEOUT_MS = 900_000
"""A cold compile of the circles engine: about 100 s on a busy 2-core machine; generous for a slower CI."""
CIRCLES_SET = bundled_sets("circles")[0]
expect.set_options(timeout=STEP_TIMEOUT_MS)


@pytest.fixture(scope="module")
def cold_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, int]]:
    """`streamlit run` with an empty Numba cache and record, warming up circles only; (url, user cache folder, pid)."""
    folder = tmp_path_factory.mktemp("cold")
    env = {
        "NUMBA_CACHE_DIR": str(folder / "numba"),
        "XDG_CACHE_HOME": str(folder / "user_cache"),
        "WORKBENCH_WARMUP": "circles",
    }
    with streamlit_server(folder, env, drop_env=("NUMBA_DISABLE_JIT",)) as server:
        yield server.url, folder / "user_cache", server.pid


def _compile_children(server_pid: int) -> list[str]:
    """Command lines of the server's `python -m workbench.warm` children (its compiles; Linux /proc)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            words = (proc / "cmdline").read_bytes().split(b"\0")
            parent = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if b"workbench.warm" in words and parent == server_pid:
            found.append(" ".join(w.decode(errors="replace") for w in words if w))
    return found


def test_run_on_a_cold_machine_shows_the_compile_then_the_results(
    browser: playwright_api.Browser, cold_server: tuple[str, Path, int], tmp_path: Path
) -> None:
    url, user_cache, server_pid = cold_server
    context = browser.new_context(viewport={"width": 1500, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    try:
        page.goto(url)  # the server's first page run starts the background compile of circles
        expect(page.get_by_role("heading", name="Card sets", level=1)).to_be_visible()
        page.get_by_test_id("stSelectbox").filter(has_text="Bundled set").first.click()
        page.get_by_role("option", name=f"circles · {CIRCLES_SET.name}").first.click()
        page.get_by_role("button", name="Open bundled set").click()
        expect(page.get_by_text(f"Opened {CIRCLES_SET.name} with its")).to_be_visible()
        page.get_by_test_id("stSidebarNav").get_by_role("link", name="Balance").click()
        expect(page.get_by_role("heading", name="Balance", level=1)).to_be_visible()
        page.get_by_role("button", name="Run simulation").click()

        # The display names the engine and counts the seconds of the background compile (no second compile starts).
        # With no compile on record for this Numba cache it gives no estimate, says so, and fills no bar: an
        # indeterminate display (st.status, running) instead of a bar that would stop short of its end.
        pattern = re.compile(
            r"Compiling the circles engine: (?:(\d+) min )?(\d+) s so far\. "
            r"No compile of the circles engine is on record for this Numba cache, so there is no estimate\."
        )
        progress = page.get_by_text(pattern)
        expect(progress.first).to_be_visible()
        expect(page.get_by_test_id("stProgress")).to_have_count(0)
        progress.first.scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "compile_progress.png"))

        def elapsed() -> int:
            match = pattern.search(progress.first.inner_text())
            assert match is not None, progress.first.inner_text()
            return int(match.group(1) or 0) * 60 + int(match.group(2))

        before = elapsed()
        page.wait_for_timeout(3_000)
        assert elapsed() >= before + 2  # it counts, about once a second
        children = _compile_children(server_pid)
        assert len(children) == 1 and children[0].endswith("workbench.warm circles"), children

        # Then the run goes on by itself, and its results show.
        expect(page.get_by_text("Done in")).to_be_visible(timeout=COMPILE_TIMEOUT_MS)
        expect(page.get_by_text(re.compile(r"The circles engine was ready after \d+\.\d s\."))).to_be_visible()
        expect(page.get_by_test_id("stMetric").first).to_be_visible()
        page.get_by_text("Done in").scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "results.png"))
        # The background compile recorded its time for the next estimate, in the record of this Numba cache.
        [record] = (user_cache / "card-workbench" / "caches").glob("*/compile_times.json")
        assert '"circles"' in record.read_text()
        assert (record.parent / "cache.txt").read_text().startswith("NUMBA_CACHE_DIR=")
    finally:
        context.close()
