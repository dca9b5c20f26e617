"""The app's engines, compiled before they are needed: a background warm-up per server, and an honest wait on Run.

When the server starts (the first page run of the process), `start_engine_warmup` starts the background queue
(`st.cache_resource`, so once per process) that compiles the engines two at a time on a machine of two cores or
more (`WARMUP_PARALLEL`), each in a child process (`python -m workbench.warm RULESET`), so that the server's own
threads keep the interpreter (and Numba's compiler lock) for the pages while the children compile. Each compile
fills Numba's on-disk cache; the engine is then loaded into the server from it (seconds). The open set's ruleset
goes first (on a server's first page run, the ruleset of the set a new session opens).

`wait_for_engine` is what Run does when its engine is not ready yet: it waits for the compile of that engine under
way (never a second compile of the same engine), else starts that compile at once in its own child process, beside
the background one; and it says, about once a second, which engine and the time so far, with an estimate only from
the record kept for this Numba cache (workbench.warm), or none, said so; past last time's figure it says the compile
is taking longer than last time, never a bar parked at 99%. A game only this process knows (a test's toy game)
compiles in a thread of the server instead.

One compile per engine on the machine: the child takes the engine's lock for the Numba cache in use
(workbench.warm), so a command line or another server compiling the same engine is waited for, and the child then
loads from the cache; it is started with stdin from /dev/null and ends when this server does.

`WORKBENCH_WARMUP` chooses what the background warm-up compiles: unset or `all` (every engine), `off` (nothing,
for tests that must not spend the CPU: the test suite sets it), or ruleset ids separated by commas
(`circles,souls`). A Run compiles its own engine whatever the setting.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any

import streamlit as st

from workbench import warm
from workbench.app.workspace import bundled_catalogue, get_workspace
from workbench.balance_study import warm_up_engine
from workbench.cards import CardSet, Deck, WorkbenchInputError
from workbench.paths import REPO_ROOT, bundled_decks, bundled_sets
from workbench.rulesets import RULESETS

WARMUP_ENV = "WORKBENCH_WARMUP"
OFF_WORDS = ("off", "0", "no", "false", "none")
ALL_WORDS = ("", "all", "on", "1", "yes", "true")
POLL_SECONDS = 0.1
"""How often the wait checks whether the engine is ready."""
SHOW_EVERY_SECONDS = 1.0
"""How often the wait redraws its line."""

_log = logging.getLogger(__name__)


def warmup_rulesets(setting: str | None = None) -> list[str]:
    """The rulesets the background warm-up compiles, in order, from `WORKBENCH_WARMUP` (or `setting`).

    The ruleset of the set a new session opens comes first; an id that names no ruleset with an engine is left out
    with a line in the server's log.
    """
    text = (os.environ.get(WARMUP_ENV, "") if setting is None else setting).strip().casefold()
    with_engines = [ruleset_id for ruleset_id, ruleset in RULESETS.items() if ruleset.engine_module]
    if text in OFF_WORDS:
        return []
    if text in ALL_WORDS:
        chosen = with_engines
    else:
        chosen = []
        for word in (part.strip() for part in text.split(",")):
            if word in with_engines and word not in chosen:
                chosen.append(word)
            elif word:
                _log.warning(
                    "%s=%s: '%s' is not a ruleset with an engine (one of: %s); left out",
                    WARMUP_ENV,
                    text,
                    word,
                    ", ".join(with_engines),
                )
    catalogue = bundled_catalogue()
    opened_first = catalogue[0].parent.name if catalogue else None
    return sorted(chosen, key=lambda ruleset_id: ruleset_id != opened_first)


def compiles_in_child(ruleset_id: str) -> bool:
    """True for a game a fresh `python -m workbench.warm` can compile: registered, with an engine and a bundled set
    and decklist (a game registered only in this process, like a test's toy game, compiles in the server)."""
    ruleset = RULESETS.get(ruleset_id)
    if ruleset is None or ruleset.engine_module is None:
        return False
    try:
        return bool(bundled_sets(ruleset_id)) and bool(bundled_decks(ruleset_id))
    except WorkbenchInputError:
        return False


WARMUP_PARALLEL = max(1, min(2, os.cpu_count() or 1))
"""Engines the background queue compiles at once: one per core, at most two (a compile is one process on one core;
more at once would only share the same cores and memory)."""


class EngineWarmup:
    """The server's engine compiles: each in a child process, then loaded into the server from Numba's cache.

    The background queue compiles `WARMUP_PARALLEL` engines at a time (two on a machine of two cores or more: each
    compile is one process on one core, and one after another the five took 253 s from the server's start on this
    project's 2-core machine, against the 3 minutes a first start should take). A Run that
    needs an engine nobody is compiling yet starts its compile at once (`compile_now`); a Run whose engine is being
    compiled waits for that compile: there is never a second compile of the same engine.
    """

    def __init__(self, queue: Sequence[str]) -> None:
        self._queue: list[str] = list(queue)
        self._lock = threading.Lock()
        self._started: dict[str, float] = {}
        self._children: dict[str, int] = {}
        self._done: dict[str, Future[None]] = {}
        self.failures: dict[str, str] = {}
        """Ruleset id -> why its compile in a child process failed (the page then compiles it in the server)."""
        self._threads = [
            threading.Thread(target=self._run_queue, name=f"engine-warmup-{n}", daemon=True)
            for n in range(WARMUP_PARALLEL)
        ]

    def start(self) -> EngineWarmup:
        """Start the background queue (once): `WARMUP_PARALLEL` compiles at a time."""
        for thread in self._threads:
            thread.start()
        return self

    def prefer(self, ruleset_id: str) -> None:
        """Compile this ruleset's engine next, if it is still waiting its turn."""
        with self._lock:
            if ruleset_id in self._queue:
                self._queue.remove(ruleset_id)
                self._queue.insert(0, ruleset_id)

    def compiling(self, ruleset_id: str) -> float | None:
        """Seconds since a child process began compiling this ruleset's engine, or None if none is now."""
        with self._lock:
            started = self._started.get(ruleset_id)
        return None if started is None else time.monotonic() - started

    def child_pid(self, ruleset_id: str) -> int | None:
        """The process id of the child compiling this ruleset's engine now, or None."""
        with self._lock:
            return self._children.get(ruleset_id)

    def compile_now(self, ruleset_id: str) -> Future[None]:
        """The compile (in a child) and load (here) of this ruleset's engine: the one under way, else a new one."""
        with self._lock:
            if ruleset_id in self._queue:
                self._queue.remove(ruleset_id)
            done = self._done.get(ruleset_id)
            if done is not None and not (done.done() and done.exception() is not None):
                return done
            done = Future()
            self._done[ruleset_id] = done
            self._started[ruleset_id] = time.monotonic()
        thread = threading.Thread(
            target=self._compile_and_load, args=(ruleset_id, done), name=f"engine-compile-{ruleset_id}", daemon=True
        )
        thread.start()
        return done

    def _run_queue(self) -> None:
        while True:
            with self._lock:
                if not self._queue:
                    return
                ruleset_id = self._queue.pop(0)
            module = RULESETS[ruleset_id].engine_module or ""
            if warm.is_loaded(module) or any(item.ruleset == ruleset_id for item in warm.activity()):
                continue  # a page loaded it, or is compiling it in the server now
            try:
                self.compile_now(ruleset_id).result()
            except Exception:  # noqa: BLE001 - logged in failures; one engine's failure must not stop the others
                continue

    def _compile_and_load(self, ruleset_id: str, done: Future[None]) -> None:
        done.set_running_or_notify_cancel()

        def started(pid: int) -> None:
            with self._lock:
                self._children[ruleset_id] = pid

        try:
            try:
                _compile_in_child(ruleset_id, started)
            finally:
                with self._lock:
                    self._started.pop(ruleset_id, None)
                    self._children.pop(ruleset_id, None)
            # From the cache the child filled: seconds (and no second compile of a whole game's kernels beside it).
            warm.warm_ruleset(RULESETS[ruleset_id], compile_beside=False)
        except Exception as error:  # noqa: BLE001 - the page compiles it in the server instead
            self.failures[ruleset_id] = f"{type(error).__name__}: {error}"
            _log.warning("compiling the %s engine in a child process failed: %s", ruleset_id, self.failures[ruleset_id])
            done.set_exception(error)
        else:
            done.set_result(None)


def _compile_in_child(ruleset_id: str, started: Callable[[int], None] | None = None) -> None:
    """`python -m workbench.warm RULESET`: stdin from /dev/null (it never reads it; a child that inherited a stdin it
    held open aborted at exit), told this server's process id (WORKBENCH_WARM_PARENT) so that it ends if this
    server ends. `started` is told the child's process id."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen(
            [sys.executable, "-m", "workbench.warm", ruleset_id],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            cwd=REPO_ROOT,
            env={**os.environ, warm.PARENT_ENV: str(os.getpid())},
        )
        if started is not None:
            started(child.pid)
        try:
            code = child.wait()
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
        out.seek(0)
        err.seek(0)
        if code != 0:
            lines = err.read().decode("utf-8", "replace").strip().splitlines()
            raise RuntimeError(f"exit {code}: {lines[-1] if lines else 'no message'}")
        _log.info("compiled in a child process: %s", json.loads(out.read() or b"null"))


@st.cache_resource(show_spinner=False)
def engine_warmup() -> EngineWarmup:
    """The server's engine compiles, one per process, its background queue (`WORKBENCH_WARMUP`, read once) started
    on the first call."""
    return EngineWarmup(warmup_rulesets()).start()


def start_engine_warmup() -> None:
    """Called on every page run by `streamlit_app.py`: starts the warm-up once, and puts the open set's ruleset
    first."""
    warmup = engine_warmup()
    workspace = get_workspace()
    if workspace is not None:
        warmup.prefer(workspace.ruleset_id)


_PAGE_LOADS: dict[str, Future[float]] = {}
_PAGE_LOADS_LOCK = threading.Lock()


def _load_here(cardset: CardSet, deck: Deck) -> Future[float]:
    """Load or compile the engine in a thread of this process; sessions asking for the same engine share one.

    A daemon thread, not a thread pool: a server told to stop does not wait minutes for a compile nobody needs.
    """
    module = cardset.ruleset.engine_module or ""
    with _PAGE_LOADS_LOCK:
        future = _PAGE_LOADS.get(module)
        if future is not None and not (future.done() and future.exception() is not None):
            return future
        future = Future()
        _PAGE_LOADS[module] = future

    def load(outcome: Future[float]) -> None:
        outcome.set_running_or_notify_cancel()
        try:
            outcome.set_result(warm_up_engine(cardset, deck))
        except BaseException as error:  # handed to the page that waits, which shows it
            outcome.set_exception(error)

    threading.Thread(target=load, args=(future,), name=f"engine-load-{cardset.ruleset.id}", daemon=True).start()
    return future


def compile_progress(
    ruleset_id: str, seconds: float, last: warm.CompileTime | None, other_pid: int | None = None
) -> tuple[float | None, str]:
    """(bar share, text) of a compile under way for `seconds`, against this Numba cache's own last compile `last`.

    The share is None (an indeterminate display, never a bar parked at 99%) when there is no record to measure
    against, or once the compile has run past last time's figure. `other_pid`: the compile is another process's
    (the command line, a second server), which this one waits for and then loads from Numba's cache.
    """
    who = (
        f"Compiling the {ruleset_id} engine"
        if other_pid is None
        else f"Another process (pid {other_pid}) is compiling the {ruleset_id} engine, which this app then loads "
        "from the Numba cache"
    )
    so_far = f"{warm.duration_text(seconds)} so far"
    if last is None or last.seconds <= 0:
        return None, f"{who}: {so_far}. " + warm.expected_text(ruleset_id, None)
    if seconds < last.seconds:
        return seconds / last.seconds, (
            f"{who}: {so_far}, about {warm.duration_text(last.seconds - seconds)} left "
            f"(last time with this Numba cache it took {warm.duration_text(last.seconds)})."
        )
    return None, (
        f"{who}: taking longer than last time ({so_far}; "
        f"last time with this Numba cache it took {warm.duration_text(last.seconds)})."
    )


def progress_line(
    ruleset_id: str, child_seconds: float | None, last: warm.CompileTime | None, child_pid: int | None = None
) -> tuple[float | None, str]:
    """(bar share or None for an indeterminate display, text) for an engine not ready yet: which engine, the time
    so far, and an estimate only from this Numba cache's own record (`compile_progress`).

    `child_seconds`: how long this server's child process has been compiling it (None when none is); `child_pid`:
    that child's process id (a lock on the engine held by any other process is another process's compile).
    """
    holder = warm.lock_holder(ruleset_id)
    if holder is not None and holder.pid not in (os.getpid(), child_pid):
        return compile_progress(ruleset_id, max(0.0, time.time() - holder.started_at), last, holder.pid)
    if child_seconds is not None:
        return compile_progress(ruleset_id, child_seconds, last)
    here = {item.ruleset: item for item in warm.activity()}
    mine = here.get(ruleset_id)
    if mine is not None and mine.state == "compiling":
        return compile_progress(ruleset_id, mine.seconds, last)
    if mine is not None and mine.state == "waiting":
        return compile_progress(ruleset_id, mine.seconds, last, mine.holder)
    others = [item for item in here.values() if item.ruleset != ruleset_id and item.state == "compiling"]
    if others:
        other = others[0]
        return None, (
            f"Waiting for the {other.ruleset} engine's compile to finish ({warm.duration_text(other.seconds)} so far), "
            f"then loading the {ruleset_id} engine."
        )
    seconds = mine.seconds if mine is not None else 0.0
    return None, f"Loading the {ruleset_id} engine: {warm.duration_text(seconds)} so far."


def wait_for_engine(cardset: CardSet, deck: Deck, show: Callable[[float | None, str], None]) -> float:
    """Block until the card set's engine is ready in this process, calling `show(share, text)` about once a second
    (`share` None: no honest fraction to show, see `progress_line`).

    The engine is compiled in a child process (the one already under way, else a new one), then loaded here from
    Numba's cache; a game only this process knows, or a child that failed, is compiled in a thread of this process.
    Returns the seconds waited. Errors of the load (a deck the engine cannot play) are raised here.
    """
    ruleset_id = cardset.ruleset.id
    module = cardset.ruleset.engine_module or ""
    warmup = engine_warmup()
    last = warm.read_compile_times().get(ruleset_id)
    started = time.monotonic()
    shown_at = float("-inf")
    in_child = compiles_in_child(ruleset_id) and ruleset_id not in warmup.failures
    future: Future[Any] | None = None
    while not warm.is_loaded(module) or future is not None:
        if future is None:
            future = warmup.compile_now(ruleset_id) if in_child else _load_here(cardset, deck)
        if future.done():
            if future.exception() is not None and in_child:
                in_child, future = False, None  # the child failed (logged): compile here instead
                continue
            future.result()
            break
        now = time.monotonic()
        if now - shown_at >= SHOW_EVERY_SECONDS:
            show(*progress_line(ruleset_id, warmup.compiling(ruleset_id), last, warmup.child_pid(ruleset_id)))
            shown_at = now
        time.sleep(POLL_SECONDS)
    return time.monotonic() - started
