"""Playing match batches on a Dask cluster (the optional `dist` extra: `pip install -e '.[dist]'`).

The runner's batches and their seeds do not depend on where they run, so a
Dask run gives the same matches, to the last digit, as one local process.
Work travels in tasks of at least `DASK_TASK_MATCHES` matches (several
batches of 1,000 together), never one match per task; the compiled card table
is scattered to every worker once per run.

Executors:
- `local`: worker processes on this machine (the default; not this module).
- `dask-local`: a `LocalCluster` of one single-threaded worker process per core, started on first use and
  kept for the life of this process.
- `dask://HOST:PORT` (or `tcp://HOST:PORT`): an existing scheduler, e.g. one started with `dask scheduler` and
  joined by `dask worker tcp://HOST:PORT` on each machine (each needs this project installed).
"""

from __future__ import annotations

import atexit
import importlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from workbench.cards import WorkbenchInputError

if TYPE_CHECKING:
    from workbench.engines import CompiledCards
    from workbench.simulate import BatchOutcome, Job

DASK_TASK_MATCHES = 5_000
"""Matches per Dask task (whole batches are grouped until a task holds at least this many)."""
CONNECT_TIMEOUT_SECONDS = 10
EXECUTOR_FORMS = "local, dask-local, or dask://HOST:PORT"

_CLIENTS: dict[str, Any] = {}
"""One client per executor for the life of the process: starting a cluster costs seconds, a run should not."""


def check_executor(executor: str | None) -> str:
    """The executor in canonical form, or a clear error naming the accepted forms."""
    text = (executor or "local").strip()
    if text in ("local", "dask-local"):
        return text
    for prefix in ("dask://", "tcp://"):
        if text.startswith(prefix) and ":" in text[len(prefix) :]:
            host, _, port = text[len(prefix) :].rpartition(":")
            # A scheduler address needs a host and a port number; `dask://:` once reached int('') as a traceback.
            if host and port.isascii() and port.isdigit() and len(port) <= 5 and 1 <= int(port) <= 65_535:
                return "tcp://" + text[len(prefix) :]
            raise WorkbenchInputError(
                f"'{executor}' is not a scheduler address: it needs a host name and a port number from 1 to 65535.",
                expected=EXECUTOR_FORMS,
            )
    raise WorkbenchInputError(f"'{executor}' is not an executor.", expected=EXECUTOR_FORMS)


def client_for(executor: str) -> Any:
    """A connected Dask client for `dask-local` or a scheduler address (cached per executor)."""
    if executor in _CLIENTS:
        return _CLIENTS[executor]
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise WorkbenchInputError(
            "Dask is not installed, so the Dask executors are not available.",
            expected="pip install -e '.[dist]' (or use --executor local)",
        ) from None
    from workbench.simulate import default_workers

    try:
        if executor == "dask-local":
            cluster = LocalCluster(
                n_workers=default_workers(), threads_per_worker=1, processes=True, dashboard_address=None
            )
            client = Client(cluster)
        else:
            client = Client(executor, timeout=CONNECT_TIMEOUT_SECONDS)
    except OSError as error:
        raise WorkbenchInputError(
            f"could not reach the Dask scheduler at {executor} ({error}).",
            expected="a running scheduler (`dask scheduler`) at that address, or --executor dask-local",
        ) from None
    _CLIENTS[executor] = client
    return client


@atexit.register
def close_clients() -> None:
    """Shut down clusters this process started and disconnect from the others."""
    for client in list(_CLIENTS.values()):
        try:
            cluster = client.cluster
            client.close()
            if cluster is not None:
                cluster.close()
        except Exception:  # shutting down: nothing left to report to
            pass
    _CLIENTS.clear()


def group_jobs(jobs: Sequence[Job], task_matches: int = DASK_TASK_MATCHES) -> list[list[int]]:
    """Job indexes grouped, in order, so each task holds at least `task_matches` matches (the last may hold fewer)."""
    groups: list[list[int]] = [[]]
    size = 0
    for index, job in enumerate(jobs):
        if size >= task_matches:
            groups.append([])
            size = 0
        groups[-1].append(index)
        size += len(job.seeds)
    return [group for group in groups if group]


def play_jobs(engine_module: str, compiled: CompiledCards, jobs: Sequence[Job]) -> list[BatchOutcome]:
    """Play several jobs in one task (runs on a Dask worker). The worker's first play of an engine waits for a
    compile of it under way on that machine (workbench.warm.worker_play: the lock of the Numba cache in use)."""
    from workbench.warm import worker_play

    engine = importlib.import_module(engine_module).ENGINE

    def play(job: Job) -> BatchOutcome:
        return worker_play(
            engine_module,
            lambda: engine.play_batch(
                compiled, job.deck_a, job.deck_b, job.seeds, job.first, job.policy_a, job.policy_b
            ),
        )

    return [play(job) for job in jobs]


def run_jobs_on_dask(
    executor: str,
    engine_module: str,
    compiled: CompiledCards,
    jobs: Sequence[Job],
    progress: Callable[[int, int], None] | None = None,
) -> list[BatchOutcome]:
    """Play every job on the cluster; results come back in job order whatever order tasks finish in."""
    from distributed import as_completed

    client = client_for(executor)
    total = sum(len(job.seeds) for job in jobs)
    if progress:
        progress(0, total)
    [shared] = client.scatter([compiled], broadcast=True)
    groups = group_jobs(jobs)
    futures = [
        client.submit(play_jobs, engine_module, shared, [jobs[i] for i in group], pure=False) for group in groups
    ]
    index_of = {future.key: position for position, future in enumerate(futures)}
    results: list[list[BatchOutcome] | None] = [None] * len(futures)
    done = 0
    for future in as_completed(futures):
        position = index_of[future.key]
        results[position] = future.result()
        done += sum(len(jobs[i].seeds) for i in groups[position])
        if progress:
            progress(done, total)
    return [outcome for group in results if group is not None for outcome in group]
