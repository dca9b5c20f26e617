"""The Dask executor: the same seed gives the same matches, to the last digit, on local processes and on a cluster."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

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
