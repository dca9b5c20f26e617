"""From an empty Numba cache to all five engines ready, in a real browser: each engine compiled exactly once.

The server starts as on a fresh clone (an empty NUMBA_CACHE_DIR and user cache, the background warm-up of every
engine). A designer opens the app and, while the first engine still compiles, runs a simulation large enough for the
process pool (40,000 matches: two worker processes started with multiprocessing's spawn, which re-imports the app
script). Before issue 30 each worker re-ran the app and started its own warm-up: every engine compiled three times
at once, each child aborting at exit ("Fatal Python error: _enter_buffered_busy", exit -6).

Counted two ways until the server has loaded all five engines: the `python -m workbench.warm` processes seen in
/proc (exactly one per engine, all children of the server; Millennium Blades' child starts one `--whole-game` helper
for the whole game's own kernels), and the compile log every process writes
(WORKBENCH_COMPILE_LOG: exactly one compile per engine, across the server, its children and its pool workers).
The time from the server's start to all five ready is printed (`pytest -s` shows it): a cold compile of all five
takes 2-3 minutes of CPU on a 2-core machine, so this is the suite's one such test.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

import playwright.sync_api as playwright_api  # in the test extra: a missing install fails, never skips
from browser.app_server import streamlit_server
from browser.steps import idle

from workbench.full_game_registry import supports_full_game
from workbench.rulesets import RULESETS
from workbench.warm import WHOLE_GAME_FLAG

Page = playwright_api.Page
expect = playwright_api.expect

STEP_TIMEOUT_MS = 60_000
ALL_READY_SECONDS = 1_800
"""All five engines compiled on a cold cache: 2 min 39 s on a quiet 2-core machine, several times that when busy."""
ENGINES = sorted(ruleset_id for ruleset_id, ruleset in RULESETS.items() if ruleset.engine_module)
WHOLE_GAME_ENGINES = sorted(ruleset_id for ruleset_id in ENGINES if supports_full_game(RULESETS[ruleset_id]))
expect.set_options(timeout=STEP_TIMEOUT_MS)


def _processes() -> dict[int, tuple[int, list[str]]]:
    """Every process on the machine: pid -> (parent pid, command line words) (Linux /proc)."""
    found: dict[int, tuple[int, list[str]]] = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            words = [w.decode(errors="replace") for w in (proc / "cmdline").read_bytes().split(b"\0") if w]
            parent = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        found[int(proc.name)] = (parent, words)
    return found


class ProcessWatch:
    """The server's descendants seen so far: its compile children and its pool workers (other processes on the
    machine, such as another test run's server, are not counted)."""

    def __init__(self, server_pid: int) -> None:
        self.server_pid = server_pid
        self.compiles: dict[int, tuple[int, str]] = {}
        """pid -> (parent pid, ruleset) of every `python -m workbench.warm RULESET` under the server."""
        self.whole_games: dict[int, tuple[int, str]] = {}
        """pid -> (parent pid, ruleset) of every `python -m workbench.warm --whole-game RULESET` under the server:
        a warm-up child's helper compiling the whole game's own kernels (Millennium Blades), not an engine."""
        self.workers: set[int] = set()
        """Pool workers of the server (multiprocessing spawn children)."""

    def look(self) -> None:
        processes = _processes()
        family = {self.server_pid}
        grew = True
        while grew:  # the server's descendants, however deep
            more = {pid for pid, (parent, _) in processes.items() if parent in family} - family
            family |= more
            grew = bool(more)
        for pid in family - {self.server_pid}:
            parent, words = processes[pid]
            if "workbench.warm" in words and words.index("workbench.warm") + 1 < len(words):
                args = words[words.index("workbench.warm") + 1 :]
                if args[0] == WHOLE_GAME_FLAG and len(args) > 1:
                    self.whole_games.setdefault(pid, (parent, args[1]))
                else:
                    self.compiles.setdefault(pid, (parent, args[0]))
            elif parent == self.server_pid and any("spawn_main" in word for word in words):
                self.workers.add(pid)


def _log_lines(log: Path) -> list[dict[str, object]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_every_engine_compiles_once_from_an_empty_cache(browser: playwright_api.Browser, tmp_path: Path) -> None:
    log = tmp_path / "compile_log.jsonl"
    env = {
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
        "XDG_CACHE_HOME": str(tmp_path / "user_cache"),
        "WORKBENCH_WARMUP": "all",
        "WORKBENCH_COMPILE_LOG": str(log),
    }
    started = time.monotonic()
    with streamlit_server(tmp_path, env, drop_env=("NUMBA_DISABLE_JIT",)) as server:
        watch = ProcessWatch(server.pid)
        context = browser.new_context(viewport={"width": 1440, "height": 900})
        page = context.new_page()
        page.set_default_timeout(STEP_TIMEOUT_MS)
        try:
            page.goto(server.url)  # the server's first page run starts the background compile of every engine
            expect(page.get_by_role("heading", name="Card sets", level=1)).to_be_visible()
            watch.look()
            idle(page)
            page.get_by_test_id("stSidebarNav").get_by_role("link", name="Balance").click()
            expect(page.get_by_role("heading", name="Balance", level=1)).to_be_visible()
            idle(page)
            for label in ("Power curve", "Matchup matrix"):
                if page.get_by_role("checkbox", name=label).is_checked():
                    page.get_by_test_id("stCheckbox").filter(has_text=label).first.click()
                    idle(page)
            matches = page.get_by_label("Matches (A vs B, and per matchup)", exact=True)
            matches.fill("40000")  # over the pool's threshold (20,000): two worker processes start
            matches.press("Enter")
            idle(page)
            page.get_by_role("button", name="Run simulation").click()
            done = page.get_by_text("Done in")
            ready_at: float | None = None
            while time.monotonic() - started < ALL_READY_SECONDS:
                watch.look()
                in_server = {
                    str(line["ruleset"])
                    for line in _log_lines(log)
                    if line["pid"] == server.pid and line["where"] == "load_engine"
                }
                if ready_at is None and set(ENGINES) <= in_server:
                    ready_at = time.monotonic()
                if ready_at is not None and done.count() > 0:
                    break
                page.wait_for_timeout(500)
            assert ready_at is not None, f"not every engine was ready in {ALL_READY_SECONDS} s: {_log_lines(log)}"
            expect(done).to_be_visible()
            page.screenshot(path=str(tmp_path / "all_ready.png"))
            print(f"server start to all {len(ENGINES)} engines ready: {ready_at - started:.1f} s")
        finally:
            context.close()
        server_log = (tmp_path / "streamlit.log").read_text(errors="replace")

    lines = _log_lines(log)
    compiled = Counter(str(line["ruleset"]) for line in lines if line["how"] == "compiled")
    assert compiled == Counter(ENGINES), lines  # exactly one compile per engine, in any process
    children = Counter(ruleset for _, ruleset in watch.compiles.values())
    assert children == Counter(ENGINES), watch.compiles  # one `python -m workbench.warm` per engine
    assert {parent for parent, _ in watch.compiles.values()} == {server.pid}  # none started by a pool worker
    # One whole-game helper per game with whole games (`warm_ruleset`), started by that game's warm-up child (the
    # server, loading from the cache the child filled, starts none).
    helpers = watch.whole_games
    assert Counter(ruleset for _, ruleset in helpers.values()) == Counter(WHOLE_GAME_ENGINES), helpers
    warm_child_of = {ruleset: pid for pid, (_, ruleset) in watch.compiles.items()}
    assert all(parent == warm_child_of[ruleset] for parent, ruleset in helpers.values()), helpers
    assert watch.workers, "the run did not start the process pool"
    assert "missing ScriptRunContext" not in server_log  # no worker ran the app script
    assert "Fatal Python error" not in server_log and "in a child process failed" not in server_log, server_log[-3000:]
