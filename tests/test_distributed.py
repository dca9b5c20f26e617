"""The Dask executor: the same seed gives the same matches, to the last digit, on local processes and on a cluster."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from toy_engine import TOY

from workbench import distributed
from workbench.cards import CardSet, Deck, WorkbenchInputError
from workbench.decklists import read_decklist
from workbench.distributed import DASK_TASK_MATCHES, check_executor, group_jobs
from workbench.loading import load_cardset
from workbench.paths import bundled_decks, bundled_sets
from workbench.rulesets import RULESETS
from workbench.run_settings import RunSettings
from workbench.simulate import Job, batch_seeds, simulate

ENGINE_IDS = [ruleset_id for ruleset_id, ruleset in RULESETS.items() if ruleset.engine_module]


@pytest.fixture(scope="module")
def dask_local() -> Iterator[str]:
    """A two-worker LocalCluster for this module; workers find the tests' toy engine through PYTHONPATH."""
    tests_dir = str(Path(__file__).parent)
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = tests_dir + (os.pathsep + old if old else "")
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    address = "tcp://" + cluster.scheduler_address.split("://", 1)[1]
    distributed._CLIENTS[address] = client
    try:
        yield "dask://" + address.split("://", 1)[1]
    finally:
        distributed._CLIENTS.pop(address, None)
        client.close()
        cluster.close()
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        (None, "local"),
        ("local", "local"),
        ("dask-local", "dask-local"),
        ("dask://10.0.0.5:8786", "tcp://10.0.0.5:8786"),
        ("tcp://sched:8786", "tcp://sched:8786"),
    ],
)
def test_executor_forms(text: str | None, canonical: str) -> None:
    assert check_executor(text) == canonical


@pytest.mark.parametrize("text", ["dask", "dask://", "http://x:1", "threads"])
def test_unknown_executor_is_a_clear_error(text: str) -> None:
    with pytest.raises(WorkbenchInputError, match="is not an executor"):
        check_executor(text)


def test_tasks_hold_thousands_of_matches_never_one() -> None:
    batches = batch_seeds(1, 23_500)
    jobs = [Job(np.zeros(1, np.int64), np.zeros(1, np.int64), seeds, first, 0, 0) for seeds, first in batches]
    groups = group_jobs(jobs)
    sizes = [sum(len(jobs[i].seeds) for i in group) for group in groups]
    assert sum(sizes) == 23_500 and [i for g in groups for i in g] == list(range(len(jobs)))
    assert all(size >= DASK_TASK_MATCHES for size in sizes[:-1]) and sizes[-1] >= 1


def test_an_unreachable_scheduler_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(distributed, "CONNECT_TIMEOUT_SECONDS", 2)
    with pytest.raises(WorkbenchInputError, match="could not reach the Dask scheduler at tcp://127.0.0.1:9"):
        distributed.client_for("tcp://127.0.0.1:9")


def test_toy_matches_are_identical_on_local_processes_and_on_dask(
    dask_local: str, make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    cardset = make_cardset(
        TOY,
        [
            {"name": "A", "kind": "unit", "cost": 1, "strength": 1},
            {"name": "B", "kind": "unit", "cost": 2, "strength": 3},
        ],
    )
    deck_a, deck_b = make_deck(cardset, "6 A\n6 B", name="a"), make_deck(cardset, "10 A\n2 B", name="b")
    local = simulate(cardset, deck_a, deck_b, matches=12_345, run=RunSettings(seed=8, workers=1))
    on_dask = simulate(cardset, deck_a, deck_b, matches=12_345, run=RunSettings(seed=8, executor=dask_local))
    assert local.matches.equals(on_dask.matches) and local.counters.equals(on_dask.counters)


@pytest.mark.parametrize("ruleset_id", ENGINE_IDS)
def test_engine_matches_are_identical_on_local_processes_and_on_dask(dask_local: str, ruleset_id: str) -> None:
    cardset = load_cardset(bundled_sets(ruleset_id)[0], ruleset_id)
    decks = [read_decklist(path, cardset) for path in bundled_decks(ruleset_id)]
    local = simulate(cardset, decks[0], decks[-1], matches=11_000, run=RunSettings(seed=17, workers=2))
    on_dask = simulate(cardset, decks[0], decks[-1], matches=11_000, run=RunSettings(seed=17, executor=dask_local))
    assert local.matches.equals(on_dask.matches)
    assert local.counters.equals(on_dask.counters)
    assert local.summary()["win_rate_a"] == on_dask.summary()["win_rate_a"]


# Bounded waits (issue 37) ------------------------------------------------------------------------------------


@pytest.fixture
def silent_listener() -> Iterator[int]:
    """A loopback TCP port that accepts every connection and never says a byte (not a scheduler, or a hung one);
    closed, with every connection it accepted, when the test ends."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    server.settimeout(0.2)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except OSError:  # the 0.2 s poll, or the socket closed
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join(5)
        for connection in accepted:
            connection.close()
        server.close()


def test_an_address_that_accepts_and_never_answers_is_refused_within_the_connect_timeout(
    silent_listener: int,
) -> None:
    """Before: `Client(address, timeout=10)` waited past 125 s (the timeout misses the handshake). Now the command
    ends with exit 2 and one paragraph within the 10 s bound (plus the interpreter's start), in its own process."""
    import subprocess
    import sys
    import time

    assert distributed.CONNECT_TIMEOUT_SECONDS <= 10
    root = Path(__file__).resolve().parents[1]
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "workbench", "simulate", "souls/ashfall", "--matches", "10", "--deck", "ember_rush"]
        + ["--executor", f"dask://127.0.0.1:{silent_listener}"],
        capture_output=True,
        text=True,
        timeout=90,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root), "WORKBENCH_WARMUP": "off"},
    )
    seconds = time.perf_counter() - started
    print(f"\nsilent listener: exit {done.returncode} in {seconds:.1f} s: {done.stderr.strip()[:300]}")
    assert done.returncode == 2, done.stderr[-2000:]
    assert "did not answer as a Dask scheduler within 10 s" in done.stderr and "Traceback" not in done.stderr
    assert seconds < 45


def test_the_connect_bound_holds_in_process(monkeypatch: pytest.MonkeyPatch, silent_listener: int) -> None:
    import time

    monkeypatch.setattr(distributed, "CONNECT_TIMEOUT_SECONDS", 2)
    address = f"tcp://127.0.0.1:{silent_listener}"
    started = time.perf_counter()
    with pytest.raises(WorkbenchInputError, match="did not answer as a Dask scheduler within 2 s"):
        distributed.client_for(address)
    assert time.perf_counter() - started < 15
    assert address not in distributed._CLIENTS


@pytest.fixture
def thread_cluster() -> Iterator[Callable[[int], tuple[Any, str]]]:
    """`start(workers)`: a light LocalCluster (threads, processes=False) with that many workers, and its executor."""
    from distributed import Client, LocalCluster

    started: list[tuple[Any, Any, str]] = []

    def start(workers: int) -> tuple[Any, str]:
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=False,
            protocol="tcp",
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",  # loopback only, any free port
        )
        address = "tcp://" + cluster.scheduler_address.split("://", 1)[1]
        client = Client(cluster)
        distributed._CLIENTS[address] = client
        started.append((cluster, client, address))
        return cluster, "dask://" + address.split("://", 1)[1]

    try:
        yield start
    finally:
        for cluster, client, address in started:
            distributed._CLIENTS.pop(address, None)
            client.close()
            cluster.close()


def _souls() -> tuple[CardSet, list[Deck]]:
    path = bundled_sets("souls")[0]
    cardset = load_cardset(path, RULESETS["souls"])
    return cardset, [read_decklist(deck, cardset) for deck in bundled_decks("souls")]


def test_a_scheduler_without_workers_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, thread_cluster: Callable[[int], tuple[Any, str]]
) -> None:
    """Before: the run waited (or ended with exit 3). Now: WORKER_WAIT_SECONDS, then one paragraph (exit 2)."""
    import time

    monkeypatch.setattr(distributed, "WORKER_WAIT_SECONDS", 2)
    _, executor = thread_cluster(0)
    cardset, decks = _souls()
    started = time.perf_counter()
    with pytest.raises(WorkbenchInputError, match="has no workers to play on") as refused:
        simulate(cardset, decks[0], decks[-1], matches=1_000, run=RunSettings(seed=1, executor=executor))
    assert "dask worker" in str(refused.value.expected)
    assert time.perf_counter() - started < 30


def test_a_cluster_that_loses_all_its_workers_mid_run_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, thread_cluster: Callable[[int], tuple[Any, str]]
) -> None:
    """The only worker closed after the first task comes back: the tasks left wait for a worker, then the run ends
    with one paragraph (exit 2), not a traceback (exit 3) and not for ever."""
    import time

    monkeypatch.setattr(distributed, "WORKER_WAIT_SECONDS", 2)
    cluster, executor = thread_cluster(1)
    cardset, decks = _souls()

    def lose_every_worker(done: int, total: int) -> None:
        if done and cluster.workers:
            cluster.scale(0)
            deadline = time.monotonic() + 20
            while cluster.scheduler.workers and time.monotonic() < deadline:
                time.sleep(0.05)

    started = time.perf_counter()
    with pytest.raises(WorkbenchInputError, match="Dask") as refused:
        simulate(
            cardset,
            decks[0],
            decks[-1],
            matches=40 * DASK_TASK_MATCHES,
            run=RunSettings(seed=1, executor=executor, progress=lose_every_worker),
        )
    seconds = time.perf_counter() - started
    print(f"\nlost every worker: {refused.value} in {seconds:.1f} s")
    assert "lost all its workers" in str(refused.value) and len(str(refused.value)) < 600
    assert seconds < 120
