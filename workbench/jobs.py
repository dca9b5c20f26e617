"""The unit of work every executor plays: a `Job` (one batch of matches), its `BatchOutcome`, and the worker count.

Below the executors: `workbench.simulate` (local processes), `workbench.distributed` (Dask) and `workbench.warm`
(an engine's first load) all read these records, and none of them imports the others upwards for them.
`workbench.simulate` re-exports every name here, where callers have always found them. Light: no numpy, pandas or
Numba at import.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from workbench.engines import IntArray

BatchOutcome = tuple[Any, ...]
"""One batch's outcome as an engine's `play_batch` returns it: (winner int8[], turns int32[], counters), or with a
fourth element, a dict of per-match arrays (see `Engine.play_batch`)."""

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
