"""`workbench warm` and the record of compile times: what a person (or CI, or a server's start script) sees.

The toy game's engine compiles in seconds, so the compiled-then-loaded cycle is checked on it, each step in its own
process with an empty Numba cache (NUMBA_CACHE_DIR) and its own record (XDG_CACHE_HOME), as on a fresh machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import numpy as np
import pytest

from workbench.app.warmup import progress_line, warmup_rulesets
from workbench.app.workspace import bundled_catalogue
from workbench.cli import main
from workbench.engines import CompiledCards
from workbench.paths import REPO_ROOT
from workbench.rulesets import RULESETS
from workbench.warm import (
    CompileTime,
    compile_times_path,
    duration_text,
    expected_text,
    is_loaded,
    load_engine,
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


def test_the_record_lives_in_the_user_cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert compile_times_path() == tmp_path / "card-workbench" / "compile_times.json"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert compile_times_path() == Path.home() / ".cache" / "card-workbench" / "compile_times.json"


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


def test_what_a_person_is_told_to_expect_of_a_compile() -> None:
    assert duration_text(42.4) == "42 s"
    assert duration_text(246) == "4 min 6 s"
    assert expected_text("souls", _entry("souls", 246)) == "Last time on this machine it took 4 min 6 s."
    assert expected_text("toy", None) == "First compile on this machine."
    assert expected_text("source", None) == (
        "First compile on this machine: usually about 1 minute on an idle core, longer on a busy machine."
    )
    assert progress_line("source", 12.0, None) == (
        0.0,  # no figure of this machine to measure the bar against
        "Compiling the source engine: 12 s so far. "
        "First compile on this machine: usually about 1 minute on an idle core, longer on a busy machine.",
    )
    share, text = progress_line("circles", 30.0, _entry("circles", 120))
    assert text == "Compiling the circles engine: 30 s so far. Last time on this machine it took 2 min 0 s."
    assert share == pytest.approx(0.25)
    share, text = progress_line("circles", 500.0, _entry("circles", 120))
    assert share == 0.99  # longer than last time: the bar waits near its end, the text keeps counting
    assert "8 min 20 s so far" in text


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
    record = tmp_path / "user_cache" / "card-workbench" / "compile_times.json"

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
    record = tmp_path / "user_cache" / "card-workbench" / "compile_times.json"
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


def test_warm_on_a_real_engine_says_what_it_did(tmp_path: Path) -> None:
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
    assert (tmp_path / "card-workbench" / "compile_times.json").exists() == (engine["how"] == "compiled")


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
