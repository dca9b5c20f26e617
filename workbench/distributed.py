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

Layers: below `workbench.simulate` (whose `run_jobs` hands its jobs here), above `workbench.jobs` (the `Job` records)
and `workbench.warm` (an engine's first load on a worker). Dask itself is imported only inside the functions that
use it: it is an optional extra, and it takes about a second to load.
"""

from __future__ import annotations

import atexit
import importlib
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from workbench.cards import WorkbenchInputError
from workbench.jobs import BatchOutcome, Job, default_workers
from workbench.warm import worker_play

if TYPE_CHECKING:
    from workbench.engines import CompiledCards

DASK_TASK_MATCHES = 5_000
"""Matches per Dask task (whole batches are grouped until a task holds at least this many)."""
CONNECT_TIMEOUT_SECONDS = 10
"""How long reaching a scheduler may take, TCP connect, Dask handshake and the client's registration together: an
address that accepts connections and never answers (not a scheduler, or a hung one) once waited for ever."""
WORKER_WAIT_SECONDS = 30
"""How long a run waits for the scheduler to have a worker: before it starts (a scheduler no worker has joined yet),
and during it (every worker lost while matches remain), before it ends with a clear message."""
WATCH_SECONDS = 1.0
"""How often a run waiting for its tasks checks that the cluster still has workers."""
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
    try:
        if executor == "dask-local":
            cluster = LocalCluster(
                n_workers=default_workers(), threads_per_worker=1, processes=True, dashboard_address=None
            )
            client = Client(cluster)
        else:
            client = _connect_within(Client, executor, CONNECT_TIMEOUT_SECONDS)
    except OSError as error:
        raise WorkbenchInputError(
            f"could not reach the Dask scheduler at {executor} ({error}).",
            expected="a running scheduler (`dask scheduler`) at that address, or --executor dask-local",
        ) from None
    _CLIENTS[executor] = client
    return client


def _connect_within(client_type: Any, address: str, seconds: float) -> Any:
    """`Client(address)`, connect, handshake and registration all bounded by `seconds`: Dask's own `timeout` covers
    the TCP connect but not every read after it, so a listener that accepts and never answers held `Client` past
    125 s. The attempt runs on a daemon thread; one that overruns is abandoned (it holds a socket, no work) and said
    as an error."""
    outcome: dict[str, Any] = {}

    def attempt() -> None:
        try:
            outcome["client"] = client_type(address, timeout=seconds)
        except BaseException as error:  # reported on the caller's thread
            outcome["error"] = error

    thread = threading.Thread(target=attempt, name=f"workbench-dask-connect-{address}", daemon=True)
    thread.start()
    thread.join(seconds + 2)  # Dask's own timeout first, when it does fire, for its own message
    if "client" in outcome:
        return outcome["client"]
    error = outcome.get("error")
    if error is None:
        raise WorkbenchInputError(
            f"the address {address} accepted a connection but did not answer as a Dask scheduler within {seconds:g} s.",
            expected="the address of a running scheduler (`dask scheduler` prints it), or --executor dask-local",
        )
    if isinstance(error, OSError | TimeoutError):
        raise OSError(str(error) or type(error).__name__)
    raise error


def _workers(client: Any) -> int:
    """Workers the scheduler has now (asked of it, not a cached view)."""
    return len(client.nthreads())


def _wait_for_a_worker(client: Any, executor: str, what: str) -> None:
    """Return once the scheduler has a worker; after WORKER_WAIT_SECONDS without one, a clear error (`what`: when)."""
    deadline = time.monotonic() + WORKER_WAIT_SECONDS
    while _workers(client) == 0:
        if time.monotonic() >= deadline:
            raise WorkbenchInputError(
                f"the Dask scheduler at {executor} has no workers {what} (waited {WORKER_WAIT_SECONDS:g} s), so "
                "no match can be played.",
                expected=f"start workers with `dask worker {executor}` on each machine, or use --executor local",
            )
        time.sleep(min(WATCH_SECONDS, max(0.0, deadline - time.monotonic())))


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
    reduce: Callable[[int, BatchOutcome], BatchOutcome] | None = None,
) -> list[BatchOutcome]:
    """Play every job on the cluster; results come back in job order whatever order tasks finish in, each cut down
    by `reduce(job_index, outcome)` as it arrives (see workbench.simulate.run_jobs)."""
    from distributed import wait

    client = client_for(executor)
    total = sum(len(job.seeds) for job in jobs)
    if progress:
        progress(0, total)
    _wait_for_a_worker(client, executor, "to play on")
    try:
        return _run_groups(client, executor, engine_module, compiled, jobs, total, wait, progress, reduce)
    except WorkbenchInputError:
        raise
    except Exception as error:
        from distributed import KilledWorker

        if isinstance(error, KilledWorker):
            raise WorkbenchInputError(
                f"the Dask workers playing the matches died ({error}): one ran out of memory or was stopped, more "
                "times than the scheduler retries a task.",
                expected="workers with more memory, fewer matches per run, or --executor local",
            ) from None
        lost = type(error).__name__ in (
            "CancelledError",
            "FutureCancelledError",
            "FuturesCancelledError",
            "CommClosedError",
        )
        if lost or isinstance(error, OSError | TimeoutError):
            raise _lost(client, executor, error) from None
        raise


def _lost(client: Any, executor: str, error: BaseException) -> WorkbenchInputError:
    """What to say when a run's tasks were cancelled or its connection closed: every worker gone (their data, the
    scattered card table, with them), or the scheduler itself."""
    try:
        workers: int | None = _workers(client)
    except Exception:  # the scheduler is gone too
        workers = None
    said = (str(error).splitlines() or [""])[0][:200]
    if workers == 0:
        return WorkbenchInputError(
            f"the Dask cluster at {executor} lost all its workers during the run, and the run's tasks with them "
            f"({type(error).__name__}: {said}), so no further match can be played.",
            expected=f"workers that stay up for the run (`dask worker {executor}`), or --executor local",
        )
    return WorkbenchInputError(
        f"the run lost its Dask scheduler at {executor}, or the tasks on it ({type(error).__name__}: {said}).",
        expected="a scheduler and workers that stay up for the run, or --executor local",
    )


def _run_groups(
    client: Any,
    executor: str,
    engine_module: str,
    compiled: CompiledCards,
    jobs: Sequence[Job],
    total: int,
    wait: Callable[..., Any],
    progress: Callable[[int, int], None] | None,
    reduce: Callable[[int, BatchOutcome], BatchOutcome] | None,
) -> list[BatchOutcome]:
    """The body of `run_jobs_on_dask`: tasks submitted, then awaited WATCH_SECONDS at a time, each wait that ends
    with none done checking that the cluster still has a worker (one that lost them all keeps tasks pending for
    ever); outcomes in job order whatever order tasks finish in."""
    [shared] = client.scatter([compiled], broadcast=True)
    groups = group_jobs(jobs)
    futures = [
        client.submit(play_jobs, engine_module, shared, [jobs[i] for i in group], pure=False) for group in groups
    ]
    position_of = {future.key: position for position, future in enumerate(futures)}
    results: list[list[BatchOutcome] | None] = [None] * len(futures)
    pending = set(futures)
    done = 0
    try:
        while pending:
            try:
                finished = wait(list(pending), timeout=WATCH_SECONDS, return_when="FIRST_COMPLETED").done
            except TimeoutError:  # Dask's wait raises when none is done in time
                finished = set()
            if not finished:
                if _workers(client) == 0:
                    _wait_for_a_worker(client, executor, f"left (all were lost with {len(pending)} tasks to play)")
                continue
            for future in finished:
                pending.discard(future)
                position = position_of[future.key]
                outcomes = future.result()
                group = groups[position]
                results[position] = (
                    outcomes if reduce is None else [reduce(i, o) for i, o in zip(group, outcomes, strict=True)]
                )
                future.release()  # the cluster may forget the task's whole outcome now
                done += sum(len(jobs[i].seeds) for i in group)
            if progress:
                progress(done, total)
    except BaseException:
        client.cancel(list(pending))  # a failed or cancelled run leaves no work queued on the cluster
        raise
    return [outcome for group in results if group is not None for outcome in group]
