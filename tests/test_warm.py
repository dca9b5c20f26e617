"""`workbench warm` and the record of compile times: what a person (or CI, or a server's start script) sees.

The toy game's engine compiles in seconds, so the compiled-then-loaded cycle is checked on it, each step in its own
process with an empty Numba cache (NUMBA_CACHE_DIR) and its own record (XDG_CACHE_HOME), as on a fresh machine.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import subprocess
import sys
import textwrap
import threading
import time
import types
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import numpy as np
import pytest

import workbench.warm as warm_module
from workbench.app.warmup import compile_progress, progress_line, warmup_rulesets
from workbench.app.workspace import bundled_catalogue
from workbench.cli import main
from workbench.engines import CompiledCards
from workbench.paths import REPO_ROOT
from workbench.rulesets import RULESETS
from workbench.warm import (
    CompileTime,
    cache_folder,
    compile_times_path,
    duration_text,
    expected_text,
    is_loaded,
    load_engine,
    numba_cache_key,
    read_compile_times,
    record_compile_time,
)

TESTS = Path(__file__).parent
TOY_CARDS = TESTS / "app" / "data" / "toy_cards.csv"

# A process that registers the toy game with a bundled set and deck (as cardsets/<id>/ holds them), then runs one
# command line: what `workbench ...` would do if the toy game shipped with the workbench.
TOY_COMMAND = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    sys.path.insert(0, {tests!r})
    import workbench.paths
    from toy_engine import TOY
    from workbench.cli import main
    from workbench.rulesets import RULESETS
    RULESETS["toy"] = TOY
    workbench.paths.CARDSETS_DIR = Path({cardsets!r})
    raise SystemExit(main(sys.argv[1:]))
    """
)


def _entry(ruleset: str, seconds: float) -> CompileTime:
    return CompileTime(ruleset, seconds, "1", "2026-01-01T00:00:00+00:00", 1.5, 2)


def _record_of(user_cache: Path, numba_cache: Path) -> Path:
    """The record a process with NUMBA_CACHE_DIR=`numba_cache` and XDG_CACHE_HOME=`user_cache` keeps."""
    digest = hashlib.sha256(f"NUMBA_CACHE_DIR={numba_cache.resolve()}".encode()).hexdigest()[:16]
    return user_cache / "card-workbench" / "caches" / digest / "compile_times.json"


def test_the_record_lives_in_the_user_cache_folder_of_the_numba_cache_in_use(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from numba.core import config

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "numba_one"))
    one = compile_times_path()
    assert numba_cache_key() == f"NUMBA_CACHE_DIR={(tmp_path / 'numba_one').resolve()}"
    assert one == _record_of(tmp_path, tmp_path / "numba_one") == cache_folder() / "compile_times.json"
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "numba_two"))
    assert compile_times_path() != one  # another Numba cache keeps its own record
    monkeypatch.setattr(config, "CACHE_DIR", "")
    assert numba_cache_key().startswith("__pycache__ beside ")  # Numba's default: beside the engines' sources
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert compile_times_path().is_relative_to(Path.home() / ".cache" / "card-workbench" / "caches")


def test_a_compile_recorded_with_one_numba_cache_sets_no_estimate_for_another(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from numba.core import config

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "numba_one"))
    record_compile_time(_entry("circles", 41.0))
    assert read_compile_times()["circles"].seconds == 41.0
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "numba_two"))
    assert read_compile_times() == {}


def test_a_recorded_compile_is_read_back_and_keeps_the_other_engines(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "compile_times.json"
    assert read_compile_times(path) == {}  # no record yet: no figure, no error
    record_compile_time(_entry("souls", 246.0), path)
    record_compile_time(_entry("circles", 103.25), path)
    record_compile_time(_entry("souls", 80.5), path)  # the latest compile replaces the one before
    assert read_compile_times(path) == {"circles": _entry("circles", 103.25), "souls": _entry("souls", 80.5)}
    # Written whole through a temporary file and a replace: only the record (and its lock file) remain.
    assert sorted(p.name for p in path.parent.iterdir()) == ["compile_times.json", "compile_times.json.lock"]
    assert json.loads(path.read_text())["engines"]["souls"]["seconds"] == 80.5


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        "\xff\xfe garbage",
        "[]",
        '{"format": 99, "engines": {"souls": {"seconds": 1}}}',
        '{"format": 1, "engines": "souls"}',
    ],
    ids=["broken-json", "not-text", "a-list", "another-format", "engines-not-a-table"],
)
def test_a_corrupt_record_is_ignored_and_replaced_by_a_fresh_one(tmp_path: Path, content: str) -> None:
    path = tmp_path / "compile_times.json"
    path.write_bytes(content.encode("latin-1"))
    assert read_compile_times(path) == {}
    record_compile_time(_entry("circles", 99.0), path)
    assert read_compile_times(path) == {"circles": _entry("circles", 99.0)}


def test_a_damaged_entry_loses_only_that_engine(tmp_path: Path) -> None:
    path = tmp_path / "compile_times.json"
    record_compile_time(_entry("circles", 99.0), path)
    data = json.loads(path.read_text())
    data["engines"]["souls"] = {"seconds": "slow"}
    path.write_text(json.dumps(data))
    assert read_compile_times(path) == {"circles": _entry("circles", 99.0)}


def test_what_a_person_is_told_to_expect_of_a_compile(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # nobody holds an engine's lock in this empty user cache
    assert duration_text(42.4) == "42 s"
    assert duration_text(246) == "4 min 6 s"
    assert expected_text("souls", _entry("souls", 246)) == "Last time with this Numba cache it took 4 min 6 s."
    assert expected_text("toy", None) == (
        "No compile of the toy engine is on record for this Numba cache, so there is no estimate."
    )
    # No record of this cache: no bar to fill (an indeterminate display), and the page says there is no estimate.
    assert progress_line("source", 12.0, None) == (
        None,
        "Compiling the source engine: 12 s so far. "
        "No compile of the source engine is on record for this Numba cache, so there is no estimate.",
    )
    share, text = progress_line("circles", 30.0, _entry("circles", 120))
    assert text == (
        "Compiling the circles engine: 30 s so far, about 1 min 30 s left "
        "(last time with this Numba cache it took 2 min 0 s)."
    )
    assert share == pytest.approx(0.25)
    # Past last time's figure: never a bar parked at 99%, but an indeterminate display that says so and counts.
    share, text = progress_line("circles", 500.0, _entry("circles", 120))
    assert share is None
    assert text == (
        "Compiling the circles engine: taking longer than last time (8 min 20 s so far; "
        "last time with this Numba cache it took 2 min 0 s)."
    )
    share, text = compile_progress("souls", 20.0, None, other_pid=4242)
    assert share is None and text.startswith(
        "Another process (pid 4242) is compiling the souls engine, which this app then loads from the Numba cache: "
        "20 s so far."
    )


def test_the_warmup_setting_chooses_the_engines() -> None:
    with_engines = [ruleset_id for ruleset_id, ruleset in RULESETS.items() if ruleset.engine_module]
    assert sorted(warmup_rulesets("")) == sorted(with_engines)
    assert sorted(warmup_rulesets("all")) == sorted(with_engines)
    assert warmup_rulesets("off") == [] and warmup_rulesets("OFF") == [] and warmup_rulesets("0") == []
    assert warmup_rulesets("circles, souls") == ["circles", "souls"]
    # The game of the set a new session opens (the first bundled set) goes first.
    first_opened = bundled_catalogue()[0].parent.name
    assert warmup_rulesets("all")[0] == first_opened
    assert warmup_rulesets(f"circles,{first_opened}")[0] == first_opened
    assert warmup_rulesets("circles,nosuch") == ["circles"]  # an unknown id is left out (and logged)


def test_an_unknown_ruleset_is_an_error_listing_the_valid_ones(capsys: pytest.CaptureFixture[str]) -> None:
    # Checked before anything is compiled: the valid first id does not start a compile.
    assert main(["warm", "circles", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert "'nosuch' is not a ruleset" in err
    assert "one of: " + ", ".join(RULESETS) in err
    assert "Traceback" not in err


def _toy_machine(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A bundled toy set with a deck, an empty Numba cache and an empty user cache folder."""
    cardsets = tmp_path / "cardsets"
    (cardsets / "toy" / "decks").mkdir(parents=True)
    (cardsets / "toy" / "toy_cards.csv").write_bytes(TOY_CARDS.read_bytes())
    (cardsets / "toy" / "decks" / "mixed.txt").write_text("3 Cheap\n3 Mid\n3 Big\n", encoding="utf-8")
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
        "XDG_CACHE_HOME": str(tmp_path / "user_cache"),
    }
    env.pop("NUMBA_DISABLE_JIT", None)
    return cardsets, env


def _toy_workbench(cardsets: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    script = TOY_COMMAND.format(tests=str(TESTS), cardsets=str(cardsets))
    return subprocess.run(
        [sys.executable, "-c", script, *args], env=env, cwd=REPO_ROOT, capture_output=True, text=True, timeout=600
    )


def _json(result: subprocess.CompletedProcess[str]) -> Any:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_warm_compiles_once_records_the_time_then_loads_from_the_cache(tmp_path: Path) -> None:
    cardsets, env = _toy_machine(tmp_path)
    record = _record_of(tmp_path / "user_cache", tmp_path / "numba")

    first = _json(_toy_workbench(cardsets, env, "warm", "toy", "--format", "json"))
    assert first["numba_cache"] == str(tmp_path / "numba")
    assert first["compile_times_file"] == str(record)
    [engine] = first["engines"]
    assert engine["ruleset"] == "toy" and engine["how"] == "compiled" and engine["last_compile_seconds"] is None
    recorded = json.loads(record.read_text())["engines"]["toy"]
    assert recorded["seconds"] == pytest.approx(engine["seconds"], abs=0.01) and recorded["seconds"] > 0
    assert recorded["engine_version"] == "1" and recorded["cpus"] >= 1

    second = _toy_workbench(cardsets, env, "warm", "toy")
    assert second.returncode == 0, second.stderr
    assert "toy: loading the engine, or compiling it" in second.stderr
    line = second.stdout.splitlines()[0]
    assert line.startswith("toy      loaded from the Numba cache in ")
    assert f"(compile before: {duration_text(recorded['seconds'])})" in line
    assert json.loads(record.read_text())["engines"]["toy"] == recorded  # a load is not a compile: record unchanged


def test_a_command_line_run_records_its_compile_too(tmp_path: Path) -> None:
    cardsets, env = _toy_machine(tmp_path)
    record = _record_of(tmp_path / "user_cache", tmp_path / "numba")
    deck = cardsets / "toy" / "decks" / "mixed.txt"
    result = _toy_workbench(
        cardsets,
        env,
        "simulate",
        str(cardsets / "toy" / "toy_cards.csv"),
        "--ruleset",
        "toy",
        "--deck",
        str(deck),
        "--matches",
        "50",
        "--format",
        "json",
    )
    _json(result)
    assert json.loads(record.read_text())["engines"]["toy"]["seconds"] > 0


def test_warm_on_a_real_engine_says_what_it_did(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The project's own Numba cache: compiled here the first time on a machine, loaded afterwards.
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "workbench", "warm", "circles", "--format", "json"],
        env=env,
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    [engine] = _json(result)["engines"]
    circles = RULESETS["circles"].engine
    assert circles is not None
    assert engine["ruleset"] == "circles" and engine["engine_version"] == circles.version
    assert engine["how"] in ("compiled", "loaded") and engine["seconds"] > 0
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # the child's user cache, with this process's Numba cache
    assert compile_times_path().exists() == (engine["how"] == "compiled")


def test_a_run_loads_only_the_batch_and_a_trace_then_loads_its_own_kernels(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Plasma's batch kernels are compiled apart from its trace's (a batch passes no events buffer), so a run must not
    # wait for the trace's compile: it asks for the batch only, and the first trace loads the rest, once.
    played: list[str] = []
    module = types.ModuleType("engine_loaded_in_two_steps")
    module.ENGINE = SimpleNamespace(  # type: ignore[attr-defined]
        version="1",
        play_batch=lambda *args: played.append("batch"),
        play_traced=lambda *args: played.append("trace"),
    )
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    deck = np.zeros(1, dtype=np.int64)
    compiled = cast(CompiledCards, None)

    run = load_engine(module.__name__, compiled, deck, deck, traced=False)
    assert played == ["batch"] and is_loaded(module.__name__)
    assert load_engine(module.__name__, compiled, deck, deck, traced=False) is run and played == ["batch"]
    trace = load_engine(module.__name__, compiled, deck, deck)
    assert played == ["batch", "trace"] and trace.how == "loaded"
    assert load_engine(module.__name__, compiled, deck, deck) is run and played == ["batch", "trace"]
    assert not compile_times_path().exists()  # nothing was compiled, so nothing recorded


def test_a_search_run_loads_its_own_batch_and_not_greedys(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # A batch in which a side searches runs kernels of its own: its first run plays one match with its own policies
    # (not greedy's, which would compile greedy's batch as well), and a later greedy run loads greedy's batch once.
    played: list[tuple[int, int]] = []
    module = types.ModuleType("engine_with_a_search_batch")
    module.ENGINE = SimpleNamespace(  # type: ignore[attr-defined]
        version="1",
        play_batch=lambda compiled, a, b, seeds, first, policy_a, policy_b: played.append((policy_a, policy_b)),
        play_traced=lambda *args: None,
    )
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    deck = np.zeros(1, dtype=np.int64)
    compiled = cast(CompiledCards, None)

    search = load_engine(module.__name__, compiled, deck, deck, traced=False, policies=(2, 0))
    assert played == [(2, 0)]
    assert load_engine(module.__name__, compiled, deck, deck, traced=False, policies=(2, 0)) is search
    greedy = load_engine(module.__name__, compiled, deck, deck, traced=False)
    assert played == [(2, 0), (0, 0)] and greedy.how == "loaded"
    assert load_engine(module.__name__, compiled, deck, deck, traced=False, policies=(0, 0)) is search
    assert played == [(2, 0), (0, 0)]


def test_a_run_warms_each_policy_pair_its_jobs_play_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # run_jobs makes the engine ready for every policy pair among its jobs before the first piece, so worker
    # processes load the search's kernels from Numba's cache instead of each compiling them.
    import workbench.simulate as simulate_module

    warmed: list[tuple[int, int]] = []
    played: list[tuple[int, int]] = []

    def warm(module: str, compiled: Any, a: Any, b: Any, traced: bool = True, policies: Any = (0, 0)) -> None:
        warmed.append(policies)

    def piece(module: str, compiled: Any, job: Any, pace: Any) -> Any:
        played.append((job.policy_a, job.policy_b))
        return np.zeros(1, np.int8), np.zeros(1, np.int32), np.zeros((2, 1, 1), np.int64)

    monkeypatch.setattr(simulate_module, "load_engine", warm)
    monkeypatch.setattr(simulate_module, "_timed_piece", piece)
    deck, seeds, first = np.zeros(1, np.int64), np.ones(1, np.int64), np.zeros(1, np.int8)
    jobs = [simulate_module.Job(deck, deck, seeds, first, a, b) for a, b in ((2, 0), (0, 0), (2, 0), (0, 2))]
    simulate_module.run_jobs("no.engine", cast(CompiledCards, None), jobs, workers=1)
    assert warmed == [(2, 0), (0, 0), (0, 2)]
    assert played == [(2, 0), (0, 0), (2, 0), (0, 2)]


# --------------------------------------------------------------------------------------------------------------
# One compile per engine and Numba cache (issue 30): the lock, the worker's wait, the warm-up child


def _fake_engine(name: str, played: list[str], gate: threading.Event | None = None) -> types.ModuleType:
    module = types.ModuleType(name)

    def play_batch(*args: Any) -> tuple[Any, ...]:
        if gate is not None:
            gate.wait(10)
        played.append("batch")
        return np.zeros(1, np.int8), np.zeros(1, np.int32), np.zeros((2, 1, 1), np.int64)

    module.ENGINE = SimpleNamespace(  # type: ignore[attr-defined]
        version="1", play_batch=play_batch, play_traced=lambda *args: played.append("trace")
    )
    return module


def _hold_lock(ruleset_id: str, pid: int) -> Any:
    """Take an engine's lock as another process compiling it would (a lock on its own open file, with its line)."""
    import fcntl

    path = warm_module.engine_lock_path(ruleset_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(path, "a+")  # noqa: SIM115 - the test closes it
    fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
    handle.write(json.dumps({"pid": pid, "started_at": time.time() - 7}))
    handle.flush()
    return handle


def _release(handle: Any) -> None:
    import fcntl

    handle.seek(0)
    handle.truncate()
    fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    handle.close()


@pytest.fixture
def jit_on_here(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The lock is taken only with the JIT on (it is off under NUMBA_DISABLE_JIT); an empty user cache, a log."""
    monkeypatch.setattr(warm_module, "_jit_disabled", lambda: False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user_cache"))
    log = tmp_path / "compile_log.jsonl"
    monkeypatch.setenv(warm_module.COMPILE_LOG_ENV, str(log))
    return log


def test_a_second_process_waits_for_the_engine_compiling_elsewhere_then_loads_it(
    monkeypatch: pytest.MonkeyPatch, jit_on_here: Path
) -> None:
    played: list[str] = []
    module = _fake_engine("engine_compiled_elsewhere", played)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    deck = np.zeros(1, dtype=np.int64)
    other = _hold_lock(module.__name__, 4242)  # "another process" compiles this engine now
    try:
        holder = warm_module.lock_holder(module.__name__)
        assert holder is not None and holder.pid == 4242 and holder.started_at == pytest.approx(time.time() - 7, abs=2)
        loading = threading.Thread(
            target=load_engine, args=(module.__name__, cast(CompiledCards, None), deck, deck), kwargs={"traced": False}
        )
        loading.start()
        deadline = time.monotonic() + 10
        while not any(item.state == "waiting" for item in warm_module.activity()) and time.monotonic() < deadline:
            time.sleep(0.02)
        [waiting] = [item for item in warm_module.activity() if item.ruleset == module.__name__]
        assert waiting.state == "waiting" and waiting.holder == 4242 and waiting.seconds >= 6
        assert played == []  # nothing played (nothing compiled) while the other process holds the engine
        share, text = progress_line(module.__name__, None, None)
        assert share is None and text.startswith(f"Another process (pid 4242) is compiling the {module.__name__}")
    finally:
        _release(other)
    loading.join(10)
    assert played == ["batch"] and is_loaded(module.__name__)
    assert warm_module.lock_holder(module.__name__) is None  # released, its line cleared
    [line] = [json.loads(text) for text in jit_on_here.read_text().splitlines()]
    assert line["ruleset"] == module.__name__ and line["how"] == "loaded" and line["pid"] == os.getpid()


def test_a_lock_left_by_a_process_that_died_names_nobody(monkeypatch: pytest.MonkeyPatch, jit_on_here: Path) -> None:
    path = warm_module.engine_lock_path("gone")
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"pid": 999999, "started_at": 1.0}))  # its line, but no lock held
    assert warm_module.lock_holder("gone") is None


def test_a_pool_worker_waits_for_a_compile_under_way_before_its_first_play(
    monkeypatch: pytest.MonkeyPatch, jit_on_here: Path
) -> None:
    played: list[str] = []
    module = _fake_engine("engine_in_a_worker", played)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    other = _hold_lock(module.__name__, 4343)
    outcome: list[Any] = []
    worker = threading.Thread(
        target=lambda: outcome.append(warm_module.worker_play(module.__name__, lambda: played.append("piece")))
    )
    worker.start()
    time.sleep(0.3)
    assert played == []  # waits while the engine is compiled elsewhere
    _release(other)
    worker.join(10)
    assert played == ["piece"]
    warm_module.worker_play(module.__name__, lambda: played.append("piece"))  # later plays: at once, no lock
    assert played == ["piece", "piece"]
    [line] = [json.loads(text) for text in jit_on_here.read_text().splitlines()]
    assert line["where"] == "worker" and line["how"] == "loaded"


def test_two_processes_warming_one_engine_at_once_compile_it_once(tmp_path: Path) -> None:
    # Two `workbench warm toy` at the same moment on an empty Numba cache: one compiles, the other waits for it on
    # the engine's lock and loads from the cache (before, both compiled it).
    cardsets, env = _toy_machine(tmp_path)
    log = tmp_path / "compile_log.jsonl"
    env[warm_module.COMPILE_LOG_ENV] = str(log)
    script = TOY_COMMAND.format(tests=str(TESTS), cardsets=str(cardsets))
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", script, "warm", "toy", "--format", "json"],
            env=env,
            cwd=REPO_ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=600) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    hows = sorted(json.loads(out)["engines"][0]["how"] for out, _ in outputs)
    assert hows == ["compiled", "loaded"]
    lines = [json.loads(text) for text in log.read_text().splitlines()]
    assert sorted(str(line["how"]) for line in lines) == ["compiled", "loaded"]


def test_the_warm_up_child_never_reads_stdin_and_exits_cleanly() -> None:
    # As `sleep 300 | python -m workbench.warm circles` did: a stdin held open that nobody writes. Before issue 30
    # the child's stdin watcher made it abort at exit (Fatal Python error: _enter_buffered_busy, exit 134 / -6).
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}  # the child's work without the minutes of a compile
    child = subprocess.Popen(
        [sys.executable, "-m", "workbench.warm", "circles"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO_ROOT,
        env=env,
    )
    try:
        out, err = child.communicate(timeout=300)  # closes stdin only once the child has ended by itself
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, err.decode()
    assert json.loads(out)["how"] == "not compiled"
    assert b"Fatal Python error" not in err


def test_the_warm_up_child_ends_when_the_server_that_started_it_has_gone() -> None:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", warm_module.PARENT_ENV: "1"}  # "its server": not its parent
    result = subprocess.run(
        [sys.executable, "-m", "workbench.warm", "circles"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        cwd=REPO_ROOT,
        env=env,
        timeout=120,
    )
    assert result.returncode == 3 and result.stdout == b""


def test_the_server_starts_its_compile_children_with_no_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    import workbench.app.warmup as warmup_module

    seen: dict[str, Any] = {}

    class FakeChild:
        pid = 4444

        def __init__(self, args: list[str], **kwargs: Any) -> None:
            seen.update(kwargs, args=args)
            kwargs["stdout"].write(b'{"how": "compiled"}')

        def wait(self) -> int:
            return 0

        def poll(self) -> int:
            return 0

    monkeypatch.setattr(warmup_module.subprocess, "Popen", FakeChild)
    pids: list[int] = []
    warmup_module._compile_in_child("circles", pids.append)
    assert seen["stdin"] is subprocess.DEVNULL
    assert seen["env"][warm_module.PARENT_ENV] == str(os.getpid())
    assert seen["args"][-3:] == ["-m", "workbench.warm", "circles"] and pids == [4444]


def test_a_process_that_imports_the_app_script_does_not_run_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    # multiprocessing's spawn (a simulation's pool workers) runs the parent's main script as __mp_main__; Streamlit
    # runs it as __main__. Only the latter may start the router (and its background warm-up).
    import runpy

    import workbench.app.router as router_module

    routed: list[str] = []
    monkeypatch.setattr(router_module, "route", lambda: routed.append("route"))
    runpy.run_path(str(REPO_ROOT / "streamlit_app.py"), run_name="__mp_main__")
    assert routed == []
    runpy.run_path(str(REPO_ROOT / "streamlit_app.py"), run_name="__main__")
    assert routed == ["route"]


# --------------------------------------------------------------------------------------------------------------
# What a run's progress display says (workbench.app.progress)


def test_a_runs_progress_gives_its_time_so_far_and_an_estimate_only_from_its_own_pace() -> None:
    from workbench.app.progress import RunClock, interrupted_text, remaining_seconds

    clock = RunClock(started=100.0)
    assert clock.text(0.0, "Game health: 0 of 18,000 matches", now=100.5) == (
        "Game health: 0 of 18,000 matches · 0 s so far"
    )
    # Too early in the phase for a pace: the time so far only.
    assert clock.text(0.01, "Game health: 180 of 18,000 matches", now=102.0).endswith("· 2 s so far")
    assert clock.text(0.25, "Game health: 4,500 of 18,000 matches", now=110.5) == (
        "Game health: 4,500 of 18,000 matches · 10 s so far, about 30 s left at the pace so far"
    )
    # A new phase starts its own pace; the run's time goes on.
    assert clock.text(0.5, "Power curve: 10 of 20 matches", now=111.0) == "Power curve: 10 of 20 matches · 11 s so far"
    assert remaining_seconds(1.0, 50.0) is None and remaining_seconds(0.5, 10.0) == pytest.approx(10.0)
    assert interrupted_text("game health check", False, 12.4, "Game health: 5,000 of 18,000 matches", "Again.") == (
        "The game health check was interrupted: something else was asked of the page while it ran (another button, "
        "another page), so it stopped; nothing from it was kept. It had run 12 s and reached “Game health: 5,000 of "
        "18,000 matches”. Again."
    )
    assert interrupted_text("simulation", True, 3, "", "", "The run was cancelled; nothing from it was kept.") == (
        "The run was cancelled; nothing from it was kept. It had run 3 s."
    )


def test_a_first_compile_is_said_on_stderr_once_with_what_to_expect(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 36: a first `simulate` on an empty cache says it is compiling, which engine, what the last compile took
    and how to do it ahead, instead of a progress bar standing at 0% for minutes. A real Numba compile of a kernel
    of this module's (the slot's package) fires the notice, once per load."""
    import numba

    from workbench import cli
    from workbench.run_settings import COMPILE_NOTICES

    heard: list[tuple[str, Any]] = []
    COMPILE_NOTICES.append(lambda ruleset, last: heard.append((ruleset, last)))
    try:
        slot = warm_module._slot(__name__ + ".engine")
        warm_module._listen_for_compiles()
        slot.state, slot.compiles = "loading", 0

        @numba.njit(cache=False)
        def kernel(x: int) -> int:
            return x + 1

        @numba.njit(cache=False)
        def other(x: int) -> int:
            return x * 2

        assert kernel(1) == 2 and other(2) == 4  # two compiles: one notice
        assert [ruleset for ruleset, _ in heard] == [slot.ruleset]
    finally:
        COMPILE_NOTICES.pop()
        slot.state = None
    cli._Say.quiet = False
    cli._say_compiling("souls", None)
    said = capsys.readouterr().err
    assert "compiling the souls engine" in said and "`workbench warm souls` does it ahead" in said
    assert "No compile of the souls engine is on record" in said


def test_an_engine_compiles_with_fewer_collections_and_the_collector_is_restored_after() -> None:
    # Two blocks overlapping, as two engines loading on two threads: the collector stays at the compile's thresholds
    # until the last one ends, then is as it was.
    before = gc.get_threshold()
    outer = warm_module.fewer_collections()
    inner = warm_module.fewer_collections()
    outer.__enter__()
    assert gc.get_threshold() == warm_module.COMPILE_GC_THRESHOLDS
    inner.__enter__()
    outer.__exit__(None, None, None)
    assert gc.get_threshold() == warm_module.COMPILE_GC_THRESHOLDS
    inner.__exit__(None, None, None)
    assert gc.get_threshold() == before
    with pytest.raises(RuntimeError), warm_module.fewer_collections():
        raise RuntimeError("a compile that fails")
    assert gc.get_threshold() == before


def test_load_engine_compiles_under_the_compile_thresholds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # the engine's lock file and record: not the user's

    seen: list[tuple[int, ...]] = []
    engine = SimpleNamespace(
        play_batch=lambda *args: seen.append(gc.get_threshold()),
        play_traced=lambda *args: seen.append(gc.get_threshold()),
        version=1,
    )
    monkeypatch.setitem(sys.modules, "gc_probe_engine", SimpleNamespace(ENGINE=engine))
    load_engine("gc_probe_engine", cast(CompiledCards, None), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64))
    assert seen == [warm_module.COMPILE_GC_THRESHOLDS] * 2
    assert gc.get_threshold() != warm_module.COMPILE_GC_THRESHOLDS


def test_a_whole_games_kernels_compile_in_a_second_process_beside_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Millennium Blades' whole game has kernels of its own (about 20 s cold): `warm_ruleset` starts a child that
    compiles them (`python -m workbench.warm --whole-game blades`, no stdin, ending with this process) before it
    compiles the engine, waits for it after, then makes them ready here (loaded from the cache the child filled)."""
    happened: list[str] = []
    seen: dict[str, Any] = {}

    class FakeChild:
        def __init__(self, args: list[str], **kwargs: Any) -> None:
            seen.update(kwargs, args=args)
            happened.append("child started")

        def wait(self) -> int:
            happened.append("child waited for")
            return 0

        def kill(self) -> None:
            happened.append("child killed")

    def fake_load(module: str, *args: Any) -> warm_module.EngineLoad:
        happened.append("engine")
        return warm_module.EngineLoad("blades", "5", "compiled", 1.0, None)

    monkeypatch.setattr(warm_module.subprocess, "Popen", FakeChild)
    monkeypatch.setattr(warm_module, "load_engine", fake_load)
    monkeypatch.setattr(warm_module, "warm_whole_game", lambda cardset: happened.append(f"{cardset.ruleset.id} here"))
    monkeypatch.setattr(warm_module, "_cpus", lambda: 2)
    record: dict[str, CompileTime] = {}  # no compile on record: a fresh machine
    monkeypatch.setattr(warm_module, "read_compile_times", lambda path=None: record)
    load = warm_module.warm_ruleset(RULESETS["blades"])
    assert happened == ["child started", "engine", "child waited for", "blades here"]
    assert seen["args"][-4:] == ["-m", "workbench.warm", "--whole-game", "blades"]
    assert seen["stdin"] is subprocess.DEVNULL and seen["env"][warm_module.PARENT_ENV] == str(os.getpid())
    assert load is not None and load.whole_game_seconds is not None
    # A compile of another engine version on record: a child; of this version (the engine is cached): none.
    blades_engine = RULESETS["blades"].engine
    assert blades_engine is not None
    for version, expected in (("0", "child started"), (blades_engine.version, "engine")):
        record["blades"] = CompileTime("blades", 30.0, version, "2026-12-04T00:00:00+00:00", 1.0, 2)
        happened.clear()
        warm_module.warm_ruleset(RULESETS["blades"])
        assert happened[0] == expected
    record.clear()
    # A failed engine compile ends the child at once (no wait for its kernels before the error is told).
    happened.clear()

    def failing_load(module: str, *args: Any) -> warm_module.EngineLoad:
        raise RuntimeError("the engine failed")

    monkeypatch.setattr(warm_module, "load_engine", failing_load)
    with pytest.raises(RuntimeError, match="the engine failed"):
        warm_module.warm_ruleset(RULESETS["blades"])
    assert happened == ["child started", "child killed", "child waited for"]
    monkeypatch.setattr(warm_module, "load_engine", fake_load)
    # Told not to (the app's server, loading what its warm-up child compiled): no child.
    happened.clear()
    warm_module.warm_ruleset(RULESETS["blades"], compile_beside=False)
    assert happened == ["engine", "blades here"]
    # One core: no child (it would only take turns with the engine's compile); a game without whole games: none.
    happened.clear()
    monkeypatch.setattr(warm_module, "_cpus", lambda: 1)
    warm_module.warm_ruleset(RULESETS["blades"])
    assert happened == ["engine", "blades here"]
    happened.clear()
    monkeypatch.setattr(warm_module, "_cpus", lambda: 2)
    warm_module.warm_ruleset(RULESETS["circles"])
    assert happened == ["engine"]


def test_the_whole_game_child_warms_a_bundled_set_and_refuses_a_game_without_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    warmed: list[str] = []
    monkeypatch.setattr(warm_module, "warm_whole_game", lambda cardset: warmed.append(cardset.ruleset.id))
    assert warm_module.child_main(["--whole-game", "blades"]) == 0 and warmed == ["blades"]
    assert warm_module.child_main(["--whole-game", "circles"]) == 2 and warmed == ["blades"]
    assert "circles has no whole game" in capsys.readouterr().err
