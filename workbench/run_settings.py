"""How a run plays, besides its cards, its decks and its match count: one object for every simulating function.

`simulate`, `power_curve`, `matchup_matrix`, `sweep`, `game_health`, `with_power_changes`, `build_report` and
`power_curve_runs` take a `RunSettings` after their own match count, in place of the seed, policy, rule options,
worker count, progress callback and executor each of them used to take one by one. The match count stays with each
function, because it means something different in each (matches of A against B, per ordered pair, per card).
This module imports nothing heavy, so the command line can build one without loading the simulator.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from workbench.cards import OptionValue
from workbench.power_defaults import POWER_CURVE_DEFAULTS

Progress = Callable[[int, int], None]
"""progress(matches_done, matches_total)."""


COMPILE_NOTICES: list[Callable[[str, Any], None]] = []
"""Called once per engine load that compiles, as its first kernel starts compiling: (ruleset id, the compile on
record or None; a `workbench.warm.CompileTime`). The command line registers one that says so on stderr, since a
first compile takes minutes with no match played (`workbench.warm` calls them; kept here, where the command line
can register one without importing the engines' machinery)."""


@dataclass(frozen=True)
class RunSettings:
    """How a run plays: every setting besides its cards, its decks and its match count."""

    seed: int = POWER_CURVE_DEFAULTS.seed
    """The root seed: the same seed gives the same matches on any number of workers or machines."""
    policy: str = POWER_CURVE_DEFAULTS.policy
    """Both sides' play policy (`simulate` takes deck B's apart, as `policy_b`)."""
    options: Mapping[str, OptionValue | str] | None = None
    """Rule options (`key: value`) over the ruleset's defaults; None plays the defaults."""
    workers: int | None = None
    """Local worker processes: None uses every core, 1 plays in this process."""
    executor: str | None = None
    """Where batches run: None or `local` on this machine, `dask-local` or `dask://HOST:PORT` on Dask
    (workbench.distributed)."""
    progress: Progress | None = field(default=None, compare=False, repr=False)
    """Called as progress(matches done, matches in all) while the run plays; one that raises cancels the run."""

    def reporting(self, progress: Progress | None) -> RunSettings:
        """The same settings reporting to `progress` instead (None: to nobody)."""
        return replace(self, progress=progress)
