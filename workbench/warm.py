"""Engines compiled before they are needed: load or compile once per process, timed, with a record of compile times.

An engine's kernels are compiled by Numba on their first call in a process, or loaded from Numba's on-disk cache
when an earlier process compiled the same source (seconds instead of minutes). `load_engine` makes that first call
on purpose (one match played in batch and, except for a run, one traced, so every kernel a run or a trace needs is
ready), times it, tells a compile from a load, and writes each compile's time to a small record
(`compile_times_path()`), so the app and `workbench warm` can say how long the next compile is likely to take on
this machine.

One compile per engine and Numba cache, whoever asks first: the first call in a process takes a lock file per engine
(`engine_lock_path`) in a folder of the user cache kept for the Numba cache in use (`cache_folder`: NUMBA_CACHE_DIR,
or the `__pycache__` folders beside this installation's engines). A second process that needs the same engine (the
app's warm-up child, a Run in the server, a pool worker, the command line, `workbench warm`) waits on that lock for
the compile under way and then loads the engine from Numba's cache instead of compiling it again. The compile times
are kept in the same folder, so a record made with another Numba cache never sets this one's estimate.

Every first use goes through here: `workbench.simulate.run_jobs` and `trace` (the command line and the app),
`workbench warm` (`warm_ruleset`), and the app's background warm-up, which runs `python -m workbench.warm RULESET`
in a child process (see `workbench.app.warmup`). Pure: no Streamlit, pandas or plotly.
"""

from __future__ import annotations

import dataclasses
import datetime
import gc
import hashlib
import importlib
import json
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import numpy as np

from workbench.cards import WorkbenchInputError
from workbench.engines import CompiledCards, IntArray
from workbench.full_game_registry import FULL_GAME_RUNNERS, supports_full_game
from workbench.play.assembly import Engine
from workbench.run_settings import COMPILE_NOTICES

if TYPE_CHECKING:
    from workbench.cards import CardSet
    from workbench.rulesets.base import Ruleset

_log = logging.getLogger(__name__)

RECORD_DIR_NAME = "card-workbench"
RECORD_FILE_NAME = "compile_times.json"
CACHES_DIR_NAME = "caches"
COMPILE_LOG_ENV = "WORKBENCH_COMPILE_LOG"
"""When set, a file every process appends one JSON line to per engine it makes ready (`pid`, `ruleset`, `how`,
`seconds`, `where`): how tests count compiles across the server, its compile children and its pool workers."""
RECORD_FORMAT = 1
"""Bumped if the record's shape changes; a record of another format is read as empty."""

T = TypeVar("T")
How = Literal["compiled", "loaded", "not compiled"]
"""What the first call did: compiled the kernels, loaded them from Numba's on-disk cache (or found them already in
memory), or ran them as plain Python (`NUMBA_DISABLE_JIT=1`)."""
State = Literal["loading", "compiling", "waiting"]


# --------------------------------------------------------------------------------------------------------------
# The record of compile times on this machine


@dataclass(frozen=True)
class CompileTime:
    """How long one engine's last compile took on this machine."""

    ruleset: str
    """The ruleset id whose engine was compiled."""
    seconds: float
    """Wall-clock seconds of the compile (one batch match, and one traced match unless a run compiled it, from a cold
    cache)."""
    engine_version: str
    """The engine's version at the time."""
    recorded_at: str
    """When it finished, ISO 8601 in UTC."""
    load_average: float
    """The machine's one-minute load average when it finished (a busy machine compiles slower); -1 if unknown."""
    cpus: int
    """Cores the compiling process could use."""


def user_cache_root() -> Path:
    """`$XDG_CACHE_HOME/card-workbench` (`~/.cache/card-workbench` when XDG_CACHE_HOME is unset)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / RECORD_DIR_NAME


def numba_cache_key() -> str:
    """The Numba cache this process compiles into and loads from, in words: `NUMBA_CACHE_DIR=<absolute folder>` when
    that is set, else `__pycache__ beside <this installation's workbench folder>` (Numba's default: a `__pycache__`
    folder beside each engine's source). Two processes with the same key share compiled engines."""
    from numba.core import config

    folder = str(getattr(config, "CACHE_DIR", "") or "")
    if folder:
        return f"NUMBA_CACHE_DIR={Path(folder).expanduser().resolve()}"
    return f"__pycache__ beside {Path(__file__).resolve().parent}"


def cache_folder(key: str | None = None) -> Path:
    """The user-cache folder kept for one Numba cache (`numba_cache_key()` by default): its compile times and its
    engines' lock files, under `card-workbench/caches/<digest of the key>/`, with the key itself in `cache.txt`."""
    key = numba_cache_key() if key is None else key
    return user_cache_root() / CACHES_DIR_NAME / hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def _made_cache_folder() -> Path:
    """`cache_folder()`, created, with `cache.txt` naming the Numba cache it belongs to."""
    key = numba_cache_key()
    folder = cache_folder(key)
    folder.mkdir(parents=True, exist_ok=True)
    about = folder / "cache.txt"
    if not about.exists():
        about.write_text(key + "\n", encoding="utf-8")
    return folder


def compile_times_path() -> Path:
    """The record of compile times of the Numba cache in use: `cache_folder()/compile_times.json`."""
    return cache_folder() / RECORD_FILE_NAME


def read_record(path: Path, record_format: int, field: str, kind: type) -> Any:
    """The `field` of a small JSON record of the user cache (the compile times, `workbench.pace`'s bench figures),
    or None when the file is missing, unreadable, corrupt, of another format or its field is not a `kind`: such a
    record reads as empty, never as an error, and the next write replaces it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != record_format or not isinstance(data.get(field), kind):
        return None
    return data[field]


def write_record(path: Path, data: Mapping[str, Any]) -> None:
    """Write a small JSON record atomically (temporary file, fsync, replace), its folder made if need be; the caller
    holds `record_lock(path)` around its read-update-write."""
    from workbench.spreadsheets import write_atomically

    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=2) + "\n"
    write_atomically(path, lambda temp: Path(temp).write_text(text, encoding="utf-8"))


def read_compile_times(path: Path | None = None) -> dict[str, CompileTime]:
    """The record, by ruleset id; a missing, unreadable or corrupt record (or entry) reads as empty, never an error."""
    engines = read_record(compile_times_path() if path is None else path, RECORD_FORMAT, "engines", dict)
    if engines is None:
        return {}
    record: dict[str, CompileTime] = {}
    for ruleset_id, entry in engines.items():
        try:
            record[ruleset_id] = CompileTime(
                ruleset=str(ruleset_id),
                seconds=float(entry["seconds"]),
                engine_version=str(entry["engine_version"]),
                recorded_at=str(entry["recorded_at"]),
                load_average=float(entry.get("load_average", -1.0)),
                cpus=int(entry.get("cpus", 0)),
            )
        except (KeyError, TypeError, ValueError):
            continue  # one damaged entry loses that engine's figure only
    return record


@contextmanager
def record_lock(path: Path) -> Iterator[None]:
    """Serialise a record's read-update-write between processes (the app's background compile and a command line
    compile; two benches at once), so one's update is never lost to the other's."""
    try:
        import fcntl
    except ImportError:  # not on a Unix: the replace below is still atomic, a concurrent update may be lost
        yield
        return
    with open(path.with_name(path.name + ".lock"), "a") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


def record_compile_time(entry: CompileTime, path: Path | None = None) -> Path:
    """Write `entry` into the record (atomically: temp file, fsync, replace); other engines' entries are kept."""
    path = compile_times_path() if path is None else path
    path.parent.mkdir(parents=True, exist_ok=True)
    with record_lock(path):
        record = read_compile_times(path)
        record[entry.ruleset] = entry
        data = {
            "format": RECORD_FORMAT,
            "about": "How long each card-workbench engine's last Numba compile took on this machine (seconds).",
            "engines": {
                ruleset_id: {key: value for key, value in asdict(item).items() if key != "ruleset"}
                for ruleset_id, item in sorted(record.items())
            },
        }
        write_record(path, data)
    return path


def _record_quietly(entry: CompileTime) -> None:
    """A record that cannot be written (read-only home, full disk) costs the next estimate, never a run."""
    try:
        record_compile_time(entry)
    except OSError as error:
        _log.warning(
            "could not record the %s engine's compile time in %s: %s", entry.ruleset, compile_times_path(), error
        )


def expected_text(ruleset_id: str, last: CompileTime | None) -> str:
    """What a person can expect of a compile: last time's figure with this Numba cache, else that there is none.

    Only this cache's own record makes an estimate: another machine's (or another cache's) figure would be a guess.
    """
    if last is not None:
        return f"Last time with this Numba cache it took {duration_text(last.seconds)}."
    return f"No compile of the {ruleset_id} engine is on record for this Numba cache, so there is no estimate."


def duration_text(seconds: float) -> str:
    """`42 s`, `3 min 5 s`."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    return f"{whole // 60} min {whole % 60} s"


# --------------------------------------------------------------------------------------------------------------
# Loading an engine in this process


@dataclass(frozen=True)
class EngineLoad:
    """What making an engine ready in this process did, and how long it took."""

    ruleset: str
    """The ruleset id (the engine's module path for an engine no registered ruleset names)."""
    engine_version: str
    """The engine's version."""
    how: How
    """Compiled, loaded from the on-disk cache, or not compiled (NUMBA_DISABLE_JIT)."""
    seconds: float
    """Wall-clock seconds of the first calls."""
    last_compile: CompileTime | None
    """The compile on record before this one (None when this machine has none)."""
    whole_game_seconds: float | None = None
    """Wall-clock seconds `warm_ruleset` spent after the engine making the whole game's own kernels ready (Millennium
    Blades: greedy's appraisal and the market's timer segments, compiled beside the engine in a second process where
    there is a second core); None for a game without whole games, or a load that did not warm them."""

    def to_json(self) -> dict[str, Any]:
        """The load as JSON: `last_compile_seconds` is null when this machine had no compile on record,
        `whole_game_seconds` when the whole game's kernels were not warmed."""
        return {
            "ruleset": self.ruleset,
            "engine_version": self.engine_version,
            "how": self.how,
            "seconds": round(self.seconds, 2),
            "last_compile_seconds": None if self.last_compile is None else round(self.last_compile.seconds, 2),
            "whole_game_seconds": None if self.whole_game_seconds is None else round(self.whole_game_seconds, 2),
        }

    def describe(self) -> str:
        """One line a person reads, e.g. `compiled in 1 min 43 s (first compile on this machine)`."""
        if self.how == "not compiled":
            return "not compiled: NUMBA_DISABLE_JIT is set, so the engine runs as plain Python"
        verb = "loaded from the Numba cache" if self.how == "loaded" else "compiled"
        if self.last_compile is None:
            before = "first compile on this machine" if self.how == "compiled" else "no compile on record here"
        else:
            before = f"compile before: {duration_text(self.last_compile.seconds)}"
        whole_game = (
            "" if self.whole_game_seconds is None else f"; whole-game kernels ready in {self.whole_game_seconds:.1f} s"
        )
        return f"{verb} in {self.seconds:.1f} s ({before}){whole_game}"


@dataclass
class _Slot:
    """One engine module's state in this process."""

    lock: threading.Lock
    """Held while the engine loads: a second caller waits for the first instead of compiling it again."""
    ruleset: str
    """The ruleset id the record uses."""
    package: str
    """Modules whose kernels count as this engine's (its ruleset package)."""
    state: State | None = None
    """Loading or compiling right now; None when idle."""
    started: float = 0.0
    """`time.monotonic()` when the load began."""
    compiles: int = 0
    """Numba compile events seen for the package during the load."""
    load: EngineLoad | None = None
    """Set once the engine is ready in this process (the batch kernels of its first load's policies)."""
    batches: set[tuple[int, int]] = field(default_factory=set)
    """The policy pairs (A, B) whose batch has been played: a batch in which a side searches runs kernels of its own."""
    traced: bool = False
    """True once a traced match has been played too (its kernels ready)."""
    worker_ready: bool = False
    """True once a worker process (`worker_play`) has played its first piece of this engine."""
    holder: LockHolder | None = None
    """While waiting for the lock: who holds it."""
    last: CompileTime | None = None
    """The compile on record when this load began (what a compile notice quotes)."""


@dataclass(frozen=True)
class Activity:
    """An engine being made ready in this process right now."""

    ruleset: str
    """The ruleset id."""
    state: State
    """`waiting` while another process holds the engine's lock (it compiles or loads it), then `loading` until Numba
    starts compiling one of its kernels, then `compiling`."""
    seconds: float
    """Seconds since it started (while waiting: since the other process took the lock, when it says)."""
    holder: int | None = None
    """While waiting: the process id holding the lock."""


_SLOTS: dict[str, _Slot] = {}
_SLOTS_LOCK = threading.Lock()
_LISTENING = False


def ruleset_of(engine_module: str) -> str:
    """The id of the registered ruleset whose engine this module is (the module path otherwise)."""
    from workbench.rulesets import RULESETS  # here, not at the top: loads pydantic and every ruleset

    return next((r.id for r in RULESETS.values() if r.engine_module == engine_module), engine_module)


def _slot(engine_module: str) -> _Slot:
    with _SLOTS_LOCK:
        slot = _SLOTS.get(engine_module)
        if slot is None:
            package = engine_module.rsplit(".", 1)[0] if "." in engine_module else engine_module
            slot = _Slot(lock=threading.Lock(), ruleset=ruleset_of(engine_module), package=package)
            _SLOTS[engine_module] = slot
        return slot


def _listen_for_compiles() -> None:
    """Count Numba's compile events per engine package (a cache hit raises none), once per process."""
    global _LISTENING
    with _SLOTS_LOCK:
        if _LISTENING:
            return
        from numba.core import event

        class CompileCounter(event.Listener):
            def on_start(self, item: Any) -> None:
                dispatcher = (item.data or {}).get("dispatcher")
                module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
                for slot in list(_SLOTS.values()):
                    if slot.state is not None and (module == slot.package or module.startswith(slot.package + ".")):
                        slot.compiles += 1
                        slot.state = "compiling"
                        if slot.compiles == 1:
                            for notice in list(COMPILE_NOTICES):
                                notice(slot.ruleset, slot.last)

            def on_end(self, item: Any) -> None:
                return None

        event.register("numba:compile", CompileCounter())
        _LISTENING = True


def _jit_disabled() -> bool:
    from numba.core import config

    return bool(getattr(config, "DISABLE_JIT", False))


def is_loaded(engine_module: str) -> bool:
    """True once this process has made the engine ready (through `load_engine`)."""
    slot = _SLOTS.get(engine_module)
    return slot is not None and slot.load is not None


def activity() -> list[Activity]:
    """Engines being loaded or compiled in this process right now."""
    now = time.monotonic()
    found: list[Activity] = []
    for slot in list(_SLOTS.values()):
        state, holder = slot.state, slot.holder  # read once: the loading thread may change them meanwhile
        if state == "waiting" and holder is not None:
            found.append(Activity(slot.ruleset, state, max(0.0, time.time() - holder.started_at), holder.pid))
        elif state is not None:
            found.append(Activity(slot.ruleset, state, now - slot.started))
    return found


# --------------------------------------------------------------------------------------------------------------
# One compile per engine and Numba cache: a lock file per engine, shared by every process


@dataclass(frozen=True)
class LockHolder:
    """The process holding an engine's lock (compiling or loading it), as it wrote itself into the lock file."""

    pid: int
    """Its process id."""
    started_at: float
    """When it took the lock (`time.time()`)."""


def engine_lock_path(ruleset_id: str) -> Path:
    """The engine's lock file in the folder of the Numba cache in use (`cache_folder()/<ruleset>.lock`)."""
    return cache_folder() / f"{ruleset_id}.lock"


def lock_holder(ruleset_id: str) -> LockHolder | None:
    """Who holds the engine's lock for the Numba cache in use right now, or None (nobody, or not known)."""
    path = engine_lock_path(ruleset_id)
    try:
        data = json.loads(path.read_text(encoding="utf-8") or "null")
        holder = LockHolder(int(data["pid"]), float(data["started_at"]))
    except (OSError, ValueError, TypeError, KeyError):
        return None
    try:
        import fcntl

        with open(path, "a") as probe:  # a holder that died left its line behind: the lock is free then
            fcntl.flock(probe.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
            fcntl.flock(probe.fileno(), fcntl.LOCK_UN)
        return None
    except BlockingIOError:
        return holder
    except (ImportError, OSError):
        return holder


@contextmanager
def _engine_lock(slot: _Slot) -> Iterator[None]:
    """Hold the engine's lock for the Numba cache in use while this process loads or compiles it (`load_engine`, a
    worker's first play: `worker_play`), with this process's id and start time written in the lock file. While
    another process holds it, `slot.state` is `waiting` (with the holder) and this waits: that process's compile
    fills Numba's cache, and this one then loads from it.

    With NUMBA_DISABLE_JIT, off Unix, or when the user cache folder cannot be written, there is no lock (each
    process then compiles on its own, as before)."""
    if _jit_disabled():
        yield
        return
    try:
        import fcntl

        _made_cache_folder()
        handle = open(engine_lock_path(slot.ruleset), "a+")  # noqa: SIM115 - closed below
    except (ImportError, OSError) as error:
        _log.info("no cross-process lock for the %s engine: %s", slot.ruleset, error)
        yield
        return
    mode = fcntl.LOCK_EX
    try:
        try:
            fcntl.flock(handle.fileno(), mode | fcntl.LOCK_NB)
        except BlockingIOError:
            slot.holder = lock_holder(slot.ruleset)
            slot.started = time.monotonic()
            slot.state = "waiting"
            fcntl.flock(handle.fileno(), mode)
            slot.holder = None
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps({"pid": os.getpid(), "started_at": time.time()}))
        handle.flush()
        try:
            yield
        finally:
            handle.seek(0)
            handle.truncate()
            handle.flush()
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    finally:
        slot.holder = None
        handle.close()


COMPILE_GC_THRESHOLDS = (200_000, 50, 1000)
"""Python's garbage-collector thresholds while an engine compiles (Python 3.11's defaults are 700, 10, 10): Numba's
typing, inlining and lowering make millions of short-lived objects, and a collection at every 700 new ones walks
ever more of them. Measured on the engines' cold compiles (docs/benchmarks.md): 1-4 s of CPU less of 46-52;
restored once the compile is done."""
_GC_LOCK = threading.Lock()
_gc_holders = 0
_gc_saved: tuple[int, ...] = ()


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Python's collector at COMPILE_GC_THRESHOLDS for the block, then as it was; nested or concurrent blocks (two
    engines loading on two threads) restore it when the last one ends."""
    global _gc_holders, _gc_saved
    with _GC_LOCK:
        if _gc_holders == 0:
            _gc_saved = gc.get_threshold()
            gc.set_threshold(*COMPILE_GC_THRESHOLDS)
        _gc_holders += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _gc_holders -= 1
            if _gc_holders == 0:
                gc.set_threshold(*_gc_saved)


def _log_load(ruleset_id: str, how: str, seconds: float, where: str) -> None:
    """One line in WORKBENCH_COMPILE_LOG (when set): what making an engine ready did in this process."""
    target = os.environ.get(COMPILE_LOG_ENV)
    if not target:
        return
    line = json.dumps(
        {"pid": os.getpid(), "ruleset": ruleset_id, "how": how, "seconds": round(seconds, 2), "where": where}
    )
    try:
        with open(target, "a", encoding="utf-8") as log:
            log.write(line + "\n")
    except OSError as error:
        _log.warning("could not write %s: %s", target, error)


def worker_play(engine_module: str, play: Callable[[], T]) -> T:
    """Run a worker process's `play` of an engine; its first one per process holds the engine's lock (waiting for a
    compile of the engine under way in any process) and counts Numba compiles, so that workers never compile an
    engine at once: the first to need an engine nobody compiled compiles it, the others then load it from Numba's
    cache (a local pool's parent has compiled it already, `run_jobs`; Dask workers have no such parent). Later plays
    run at once."""
    slot = _slot(engine_module)
    if slot.worker_ready or _jit_disabled():
        return play()
    with slot.lock:
        if slot.worker_ready:
            return play()
        _listen_for_compiles()
        with _engine_lock(slot):
            slot.compiles = 0
            slot.started = time.monotonic()
            slot.state = "loading"
            try:
                result = play()
            finally:
                seconds = time.monotonic() - slot.started
                compiles, slot.state = slot.compiles, None
        _log_load(slot.ruleset, "compiled" if compiles else "loaded", seconds, "worker")
        slot.worker_ready = True
        return result


def _ready_load(slot: _Slot, policies: tuple[int, int], traced: bool) -> EngineLoad | None:
    """The slot's first load if everything asked for is ready (the policy pair's batch, the trace if asked)."""
    if policies in slot.batches and (slot.traced or not traced):
        return slot.load
    return None


def load_engine(
    engine_module: str,
    compiled: CompiledCards,
    deck_a: IntArray,
    deck_b: IntArray,
    traced: bool = True,
    policies: tuple[int, int] = (0, 0),
) -> EngineLoad:
    """Make the engine ready in this process: one match in batch with `policies` (the engine's policy indices for A
    and B) and (with `traced`) one traced, timed; the first compile is recorded.

    Once per engine, policy pair and process: later calls return the first call's `EngineLoad` at once, unless they
    ask for the trace the first call left out (a run needs only the batch: plasma's batch kernels are compiled apart
    from its trace's, `workbench.engines.trace_event`, so a run does not wait for the trace's compile) or a policy
    pair not played yet (a batch in which a side searches has kernels of its own, so a first search run compiles
    those, not greedy's batch as well; the pair's first match is then timed on its own). A caller arriving while
    another thread loads the same engine waits for it (one compile, never two at once). The decks are card-id arrays
    of `compiled`; any legal pair compiles the same kernels.
    """
    slot = _slot(engine_module)
    ready = _ready_load(slot, policies, traced)
    if ready is not None:
        return ready
    with slot.lock:
        ready = _ready_load(slot, policies, traced)
        if ready is not None:
            return ready
        engine: Engine = importlib.import_module(engine_module).ENGINE
        disabled = _jit_disabled()
        if not disabled:
            _listen_for_compiles()
        # One compile per engine and Numba cache: another process compiling it now (the app's warm-up child, the
        # command line) is waited for, and its compile then loads from Numba's cache here.
        with _engine_lock(slot):
            last = slot.last = read_compile_times().get(slot.ruleset)
            slot.compiles = 0
            slot.started = time.monotonic()
            slot.state = "loading"
            try:
                seeds = np.zeros(1, dtype=np.int64)
                first = np.zeros(1, dtype=np.int8)
                with fewer_collections():
                    if policies not in slot.batches:
                        engine.play_batch(compiled, deck_a, deck_b, seeds, first, *policies)
                        slot.batches.add(policies)
                    if traced:
                        engine.play_traced(compiled, deck_a, deck_b, 0, 0, 0, 0)
            finally:
                seconds = time.monotonic() - slot.started
                compiles, slot.state = slot.compiles, None
        how: How = "not compiled" if disabled else ("compiled" if compiles else "loaded")
        if not disabled:
            _log_load(slot.ruleset, how, seconds, "load_engine")
        load = EngineLoad(slot.ruleset, engine.version, how, seconds, last)
        # The trace's own compile, after the batch's, is not the engine's compile: the record keeps the batch's.
        if how == "compiled" and slot.load is None:
            _record_quietly(
                CompileTime(
                    ruleset=slot.ruleset,
                    seconds=round(seconds, 2),
                    engine_version=engine.version,
                    recorded_at=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                    load_average=round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else -1.0,
                    cpus=_cpus(),
                )
            )
        slot.load = slot.load or load
        slot.traced = slot.traced or traced
        return load


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def warm_ruleset(ruleset: Ruleset, compile_beside: bool = True) -> EngineLoad | None:
    """Load (or compile) a ruleset's engine on its first bundled set and decklist; None for a game without an engine.
    `compile_beside`: a whole game's own kernels compiled in a second process meanwhile (`_start_whole_game_compile`)
    when this machine has no compile of the engine's version on record (a cached engine loads in under a second,
    less than the second process takes to start); False where a process just compiled them all (the app's server
    after its warm-up child), so nothing is started.

    A missing bundled set (a package installed without `cardsets/`) is a `WorkbenchInputError` that says so.
    """
    if ruleset.engine_module is None:
        return None
    # Here, not at the top: reading a card set loads openpyxl, pydantic and every ruleset (about a second), which a
    # process that only plays (a pool worker, a Dask worker) never needs.
    from workbench.decklists import read_decklist
    from workbench.loading import load_cardset
    from workbench.paths import bundled_decks, bundled_sets

    sets, decks = bundled_sets(ruleset.id), bundled_decks(ruleset.id)
    if not sets or not decks:
        raise WorkbenchInputError(
            f"the {ruleset.id} ruleset has no bundled card set with a decklist to compile its engine on.",
            expected=f"cardsets/{ruleset.id}/<set>.csv and cardsets/{ruleset.id}/decks/<deck>.txt",
        )
    cardset = load_cardset(sets[0], ruleset)
    deck = read_decklist(decks[0], cardset)
    # The cards compiled under the default options, as `workbench.simulate.compile_for` does: that module sits above
    # this one (it imports `load_engine`), so this one asks the card set's engine itself.
    engine = cardset.ruleset.engine
    assert engine is not None  # the ruleset names an engine module
    compiled = engine.compile_cards(cardset, cardset.ruleset.resolve_options())
    cards = compiled.deck_array(deck)
    # A whole game compiles kernels of its own beside the engine's (Millennium Blades: greedy's appraisal and the
    # market's timer segments, about 20 s cold): in a second process while this one compiles the engine, where
    # there is a second core. Its outcome is not read: the call below makes ready (loads, or compiles) what it left.
    whole_game = supports_full_game(ruleset)
    on_record = read_compile_times().get(ruleset.id)
    compiled_before = on_record is not None and on_record.engine_version == engine.version
    helper = None
    if whole_game and compile_beside and not compiled_before:
        helper = _start_whole_game_compile(ruleset.id)
    try:
        load = load_engine(ruleset.engine_module, compiled, cards, cards)
    except BaseException:
        if helper is not None:
            helper.kill()
            helper.wait()
        raise
    # From here: the whole game's kernels, the wait for the second process included.
    started = time.monotonic()
    if helper is not None:
        helper.wait()
    if not whole_game:
        return load
    warm_whole_game(cardset)
    return dataclasses.replace(load, whole_game_seconds=time.monotonic() - started)


WHOLE_GAME_FLAG = "--whole-game"
"""`python -m workbench.warm --whole-game RULESET`: the whole game's own kernels alone (`warm_ruleset`'s helper)."""


def warm_whole_game(cardset: CardSet) -> None:
    """The whole game's own kernels of the card set's ruleset made ready (loaded from Numba's cache, or compiled)."""
    runner = importlib.import_module(FULL_GAME_RUNNERS[cardset.ruleset.id])
    runner.warm_whole_game(cardset, cardset.ruleset.resolve_options({"game": "full"}))


def _start_whole_game_compile(ruleset_id: str) -> subprocess.Popen[bytes] | None:
    """A child process compiling the ruleset's whole-game kernels (`python -m workbench.warm --whole-game ID`), or
    None on one core (where it would only take turns with the engine's compile) or when it cannot start. It ends when
    this process does (WORKBENCH_WARM_PARENT), and says nothing: a failure there is met again, and said, here."""
    if _cpus() < 2:
        return None
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "workbench.warm", WHOLE_GAME_FLAG, ruleset_id],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, PARENT_ENV: str(os.getpid())},
        )
    except OSError:
        return None


# --------------------------------------------------------------------------------------------------------------
# `python -m workbench.warm RULESET`: the app's background compile, in a child process


PARENT_ENV = "WORKBENCH_WARM_PARENT"
"""The process id of the process that started `python -m workbench.warm` (the app server): the child ends when that
process has gone."""
PARENT_POLL_SECONDS = 1.0


def _exit_when_parent_goes(parent: int) -> None:
    """End this process (exit 3) once `parent` is no longer its parent (it ended or was killed): no compile runs on
    for nobody. Polls the parent's id and touches no stream: a daemon thread blocked on stdin made every warm-up
    child abort at exit ("Fatal Python error: _enter_buffered_busy", exit -6 / 134)."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(3)


def child_main(argv: list[str] | None = None) -> int:
    """Compile one ruleset's engine for a parent process (the app), printing the `EngineLoad` as JSON.

    Never reads stdin (the app starts it with stdin from /dev/null). With WORKBENCH_WARM_PARENT set to the parent's
    process id, exits as soon as that process has gone, so an app server that stops leaves no compile running.
    People use `workbench warm`, which this shares its work with (and its lock: one compile per engine).
    """
    from workbench.rulesets import get_ruleset  # here, not at the top: loads pydantic and every ruleset

    args = sys.argv[1:] if argv is None else argv
    whole_game_only = args[:1] == [WHOLE_GAME_FLAG]
    if whole_game_only:
        args = args[1:]
    if len(args) != 1:
        print(
            "usage: python -m workbench.warm [--whole-game] RULESET (the app's background compile; people use "
            "workbench warm)",
            file=sys.stderr,
        )
        return 2
    parent = os.environ.get(PARENT_ENV, "")
    if parent.isdigit():
        if os.getppid() != int(parent):
            return 3  # the parent went before this process started
        threading.Thread(target=_exit_when_parent_goes, args=(int(parent),), name="parent-watch", daemon=True).start()
    try:
        if whole_game_only:
            return _whole_game_only(get_ruleset(args[0]))
        load = warm_ruleset(get_ruleset(args[0]))
    except WorkbenchInputError as error:
        print(f"workbench.warm: {error}", file=sys.stderr)
        return 2
    json.dump(None if load is None else load.to_json(), sys.stdout)
    sys.stdout.write("\n")
    sys.stdout.flush()
    return 0


def _whole_game_only(ruleset: Ruleset) -> int:
    """`--whole-game`: the ruleset's whole-game kernels made ready on its first bundled set (0), or 2 for a ruleset
    without whole games or without a bundled set."""
    from workbench.loading import load_cardset
    from workbench.paths import bundled_sets

    sets = bundled_sets(ruleset.id)
    if not supports_full_game(ruleset) or not sets:
        print(f"workbench.warm: {ruleset.id} has no whole game to compile on a bundled set", file=sys.stderr)
        return 2
    warm_whole_game(load_cardset(sets[0], ruleset))
    return 0


def numba_cache_text() -> str:
    """Where Numba keeps the compiled engines (NUMBA_CACHE_DIR, else `__pycache__` beside each engine's source)."""
    from numba.core import config

    folder = str(getattr(config, "CACHE_DIR", "") or "")
    return folder if folder else "__pycache__ folders beside the engine sources"


if __name__ == "__main__":
    # Run the imported module's copy, not this `__main__` one: `workbench.simulate` imports `workbench.warm`, and
    # two copies would keep two registries of loaded engines.
    from workbench.warm import child_main as _child_main

    raise SystemExit(_child_main())
