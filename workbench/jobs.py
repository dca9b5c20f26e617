"""The unit of work every executor plays: a `Job` (one batch of matches), its `BatchOutcome`, and the worker count.

Below the executors: `workbench.simulate` (local processes), `workbench.distributed` (Dask) and `workbench.warm`
(an engine's first load) all read these records, and none of them imports the others upwards for them.
`workbench.simulate` re-exports every name here, where callers have always found them. Light: no numpy, pandas or
Numba at import.
"""

from __future__ import annotations

import atexit
import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import numpy as np

    from workbench.engines import IntArray

BatchOutcome = tuple[Any, ...]
"""One batch's outcome as an engine's `play_batch` returns it: (winner int8[], turns int32[], counters), or with a
fourth element, a dict of per-match arrays (see `Engine.play_batch`)."""

Result = TypeVar("Result")
"""What one piece of work sent to a worker returns."""

Reducer = Callable[[int, BatchOutcome], BatchOutcome]
"""What a run keeps of each outcome: (job index, outcome) -> the part of it the caller reads (see
`workbench.simulate.run_jobs`)."""


@dataclass(frozen=True)
class Job:
    """One batch: the same two decks and policies for every match in it."""

    deck_a: IntArray
    deck_b: IntArray
    seeds: IntArray
    first: np.ndarray
    policy_a: int
    policy_b: int


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


_POOLS: dict[int, ProcessPoolExecutor] = {}
"""Worker pools kept for the life of the process: starting one (and loading the compiled engines) costs seconds."""


def local_pool(workers: int) -> ProcessPoolExecutor:
    """The process's pool of `workers` worker processes, started on first use and kept (matches and whole games share
    it, so a second run finds its workers warm)."""
    pool = _POOLS.get(workers)
    if pool is None:
        # spawn, not fork: the app runs threads, and forking a threaded process can deadlock.
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"))
        _POOLS[workers] = pool
    return pool


@atexit.register
def _shutdown_pools() -> None:
    for pool in _POOLS.values():
        pool.shutdown(wait=False, cancel_futures=True)
    _POOLS.clear()


def gather_in_order(
    futures: list[Future[Result] | None],
    sizes: Sequence[int],
    take: Callable[[int, Result], None],
    progress: Callable[[int, int], None] | None,
    done: int,
    total: int,
    workers: int,
    patience: float,
) -> int:
    """Wait for `futures` in order and hand each result to `take(position, result)`; returns `done` plus every
    `sizes[position]` taken.

    `progress(done, total)` is called after each result and every `patience` seconds while one is awaited (workers
    starting up take seconds), so a progress callback that raises (the app's Cancel) is heard within `patience`
    seconds whatever the workers are doing. On any error, what is still queued is cancelled, so a cancelled or failed
    run leaves no work behind, and a pool whose worker died is dropped, so the next run starts a fresh one. A
    future is dropped (set to None) as soon as it is read, so its result lives only as long as `take` keeps it."""
    try:
        for position, size in enumerate(sizes):
            future = futures[position]
            assert future is not None
            while True:
                try:
                    result = future.result(timeout=patience)
                    break
                except FuturesTimeout:
                    if progress:
                        progress(done, total)
            futures[position] = None
            take(position, result)
            del future, result
            done += size
            if progress:
                progress(done, total)
    except BaseException as error:
        for pending in futures:
            if pending is not None:
                pending.cancel()
        if isinstance(error, BrokenProcessPool):
            _POOLS.pop(workers, None)
        raise
    return done
