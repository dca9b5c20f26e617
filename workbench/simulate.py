"""The Monte Carlo runner: seeds, batches, worker processes and tidy results.

Reproducibility: a run's seed is split with `SeedSequence(seed).spawn(batches)`
into one child per batch of `BATCH_SIZE` matches, and each child gives one
seed per match. Batches are the unit of work, and their size does not depend
on the number of workers, so the same seed gives the same matches on one
process, two processes or a cluster.
"""

from __future__ import annotations

import atexit
import importlib
import math
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any, Literal

import numpy as np
import pandas as pd

from workbench import __version__
from workbench.cards import CardSet, Deck, OptionValue, WorkbenchInputError
from workbench.engines import COUNTERS, CompiledCards, Engine, IntArray
from workbench.warm import load_engine

BATCH_SIZE = 1_000
"""Matches per batch (and per child seed). Fixed, so results never depend on the worker count."""
PARALLEL_THRESHOLD = 20_000
"""Below this many matches, starting worker processes costs more than it saves."""
MAX_MATCHES = 10_000_000

Progress = Callable[[int, int], None]
"""progress(matches_done, matches_total)."""
FirstPlayer = Literal["alternate", "random"]


def engine_for(cardset: CardSet) -> Engine:
    """The card set's engine, or a clear error when its game has none yet."""
    engine = cardset.ruleset.engine
    if engine is None:
        raise WorkbenchInputError(
            f"the '{cardset.ruleset.id}' ruleset has no match engine yet, so it cannot be simulated.",
            expected="a card set of a ruleset with an engine: "
            + ", ".join(r for r in _rulesets_with_engines()),
        )
    return engine


def engine_module_of(cardset: CardSet) -> str:
    """The dotted module of the card set's engine (checked by `engine_for`)."""
    engine_for(cardset)
    assert cardset.ruleset.engine_module is not None
    return cardset.ruleset.engine_module


def _rulesets_with_engines() -> list[str]:
    from workbench.rulesets import RULESETS

    return [ruleset_id for ruleset_id, ruleset in RULESETS.items() if ruleset.engine_module]


@dataclass(frozen=True)
class Job:
    """One batch: the same two decks and policies for every match in it."""

    deck_a: IntArray
    deck_b: IntArray
    seeds: IntArray
    first: np.ndarray
    policy_a: int
    policy_b: int


def batch_seeds(
    seed: int | np.random.SeedSequence, matches: int, first_player: FirstPlayer = "alternate"
) -> list[tuple[IntArray, np.ndarray]]:
    """(match seeds, first player) per batch, from `SeedSequence(seed).spawn`."""
    if not 0 < matches <= MAX_MATCHES:
        raise WorkbenchInputError(f"{matches} matches is out of range.", expected=f"1 to {MAX_MATCHES:,} matches")
    batches = math.ceil(matches / BATCH_SIZE)
    out: list[tuple[IntArray, np.ndarray]] = []
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    for index, child in enumerate(root.spawn(batches)):
        size = min(BATCH_SIZE, matches - index * BATCH_SIZE)
        state = child.generate_state(size + 1, dtype=np.uint64)
        seeds = (state[:size] >> np.uint64(1)).astype(np.int64)
        if first_player == "alternate":
            first = ((np.arange(size) + index * BATCH_SIZE) % 2).astype(np.int8)
        else:
            first = np.random.Generator(np.random.PCG64(int(state[size]))).integers(0, 2, size, dtype=np.int8)
        out.append((seeds, first))
    return out


def _play_job(engine_module: str, compiled: CompiledCards, job: Job) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play one job; a module path (not an engine object) crosses the process boundary."""
    engine: Engine = importlib.import_module(engine_module).ENGINE
    return engine.play_batch(compiled, job.deck_a, job.deck_b, job.seeds, job.first, job.policy_a, job.policy_b)


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def run_jobs(
    engine_module: str,
    compiled: CompiledCards,
    jobs: Sequence[Job],
    workers: int | None = None,
    progress: Progress | None = None,
    executor: str | None = None,
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Play every job, in order: on `workers` local processes (default: all cores; 1 = in this process), or on the
    Dask `executor` (`dask-local`, `dask://HOST:PORT`; see workbench.distributed)."""
    from workbench.distributed import check_executor, run_jobs_on_dask

    executor = check_executor(executor)
    if executor != "local":
        return run_jobs_on_dask(executor, engine_module, compiled, jobs, progress)
    total = sum(len(job.seeds) for job in jobs)
    workers = default_workers() if workers is None else max(1, workers)
    if total < PARALLEL_THRESHOLD:
        workers = 1
    done = 0
    results: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    if progress:
        progress(0, total)
    # Compile (or load) the engine here first, once per process, timed and recorded (workbench.warm): the workers
    # then load Numba's on-disk cache instead of each compiling the same kernels at once (souls: about 75 s of CPU
    # per worker on a cold cache).
    if jobs:
        load_engine(engine_module, compiled, jobs[0].deck_a, jobs[0].deck_b)
    if workers == 1:
        for job in jobs:
            results.append(_play_job(engine_module, compiled, job))
            done += len(job.seeds)
            if progress:
                progress(done, total)
        return results
    pool = _local_pool(workers)
    futures = [pool.submit(_play_job, engine_module, compiled, job) for job in jobs]
    try:
        for job, future in zip(jobs, futures):
            results.append(future.result())
            done += len(job.seeds)
            if progress:
                progress(done, total)
    except BaseException as error:
        for future in futures:
            future.cancel()  # a cancelled run (or a failed batch) leaves no queued work behind
        if isinstance(error, BrokenProcessPool):
            _POOLS.pop(workers, None)  # a worker died: the next run starts a fresh pool
        raise
    return results


_POOLS: dict[int, ProcessPoolExecutor] = {}
"""Worker pools kept for the life of the process: starting one (and loading the compiled engines) costs seconds."""


def _local_pool(workers: int) -> ProcessPoolExecutor:
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


def wilson_interval(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (half-wins from draws allowed)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Rate:
    """A proportion with its 95% interval."""

    value: float
    """The observed rate (draws count as half a win)."""
    low: float
    """Lower end of the 95% Wilson interval."""
    high: float
    """Upper end of the 95% Wilson interval."""
    trials: int
    """How many matches it rests on."""

    @classmethod
    def of(cls, score: float, trials: int) -> Rate:
        low, high = wilson_interval(score, trials)
        return cls(score / trials if trials else 0.0, low, high, trials)

    def __str__(self) -> str:
        return f"{self.value:.1%} (95% CI {self.low:.1%}-{self.high:.1%}, n={self.trials:,})"

    def to_json(self) -> dict[str, float | int]:
        return {"value": self.value, "low": self.low, "high": self.high, "trials": self.trials}


def provenance(
    cardset: CardSet,
    engine: Engine,
    options: Mapping[str, OptionValue],
    seed: int,
    matches: int,
    policies: Sequence[str],
) -> dict[str, Any]:
    """What every simulated figure carries, so it can be reproduced and compared."""
    return {
        "ruleset": cardset.ruleset.id,
        "ruleset_version": cardset.ruleset.version,
        "engine_version": engine.version,
        "options": dict(options),
        "seed": seed,
        "matches": matches,
        "policies": list(policies),
        "cardset": cardset.name,
        "cardset_hash": cardset.content_hash(),
        "workbench_version": __version__,
    }


@dataclass(frozen=True)
class MatchResults:
    """One row per match, per-card counters, and where the figures came from."""

    matches: pd.DataFrame
    """Columns: match, seed, first_player (A/B), winner (A/B/draw), turns."""
    counters: pd.DataFrame
    """Columns: deck, card, and one column per counter (workbench.engines.COUNTERS), summed over the matches: drawn,
    played, attacked, destroyed, damage_dealt (events: three copies can count three plays in one match), then
    matches_drawn and matches_played (matches in which at least one copy was drawn, or played) and first_played_turn
    (the sum over those matches of the turn of the first play: its mean is first_played_turn / matches_played)."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Provenance: ruleset and engine versions, options, seed, match count, policies, card-set hash, decks."""

    def _score(self, rows: pd.DataFrame, side: str) -> float:
        return float((rows["winner"] == side).sum() + 0.5 * (rows["winner"] == "draw").sum())

    @property
    def win_rate_a(self) -> Rate:
        """Deck A's win rate (draws count half)."""
        return Rate.of(self._score(self.matches, "A"), len(self.matches))

    @property
    def first_player_win_rate(self) -> Rate:
        """How often the player who went first won (draws count half)."""
        score = float((self.matches["winner"] == self.matches["first_player"]).sum())
        score += 0.5 * float((self.matches["winner"] == "draw").sum())
        return Rate.of(score, len(self.matches))

    @property
    def draw_rate(self) -> float:
        return float((self.matches["winner"] == "draw").mean())

    @property
    def mean_turns(self) -> float:
        return float(self.matches["turns"].mean())

    def summary(self) -> dict[str, Any]:
        """The headline figures with their intervals, and the provenance."""
        return {
            **self.meta,
            "win_rate_a": self.win_rate_a.to_json(),
            "first_player_win_rate": self.first_player_win_rate.to_json(),
            "draw_rate": self.draw_rate,
            "mean_turns": self.mean_turns,
            "turns_quartiles": [float(q) for q in self.matches["turns"].quantile([0.25, 0.5, 0.75])],
        } | self._per_match_means()

    def _per_match_means(self) -> dict[str, dict[str, float]]:
        """Means of the engine's extra per-match columns, when it returns any."""
        extra = [c for c in self.matches.columns if c not in ("match", "seed", "first_player", "winner", "turns")]
        return {"per_match_means": {c: float(self.matches[c].mean()) for c in extra}} if extra else {}


def compile_for(cardset: CardSet, options: Mapping[str, OptionValue | str] | None = None) -> tuple[Engine, CompiledCards, dict[str, OptionValue]]:
    """The engine, the compiled cards and the resolved options for a card set."""
    engine = engine_for(cardset)
    resolved = cardset.ruleset.resolve_options(options)
    return engine, engine.compile_cards(cardset, resolved), resolved


def simulate(
    cardset: CardSet,
    deck_a: Deck,
    deck_b: Deck | None = None,
    matches: int = 10_000,
    seed: int = 0,
    policies: tuple[str, str] | str = "greedy",
    options: Mapping[str, OptionValue | str] | None = None,
    first_player: FirstPlayer = "alternate",
    workers: int | None = None,
    progress: Progress | None = None,
    executor: str | None = None,
) -> MatchResults:
    """Play `matches` matches of deck A against deck B (a mirror match when B is omitted)."""
    deck_b = deck_b or deck_a
    engine, compiled, resolved = compile_for(cardset, options)
    policy_names = (policies, policies) if isinstance(policies, str) else tuple(policies)
    policy_ids = [engine.policy_index(name) for name in policy_names]
    array_a, array_b = compiled.deck_array(deck_a), compiled.deck_array(deck_b)
    batches = batch_seeds(seed, matches, first_player)
    jobs = [Job(array_a, array_b, seeds, first, policy_ids[0], policy_ids[1]) for seeds, first in batches]
    outcomes = run_jobs(engine_module_of(cardset), compiled, jobs, workers, progress, executor)
    winners = np.concatenate([o[0] for o in outcomes])
    turns = np.concatenate([o[1] for o in outcomes])
    counters = np.sum([o[2] for o in outcomes], axis=0)
    seeds = np.concatenate([seeds for seeds, _ in batches])
    first = np.concatenate([first for _, first in batches])
    sides = np.array(["A", "B"])
    frame = pd.DataFrame(
        {
            "match": np.arange(matches),
            "seed": seeds,
            "first_player": sides[first],
            "winner": np.where(winners < 0, "draw", sides[np.clip(winners, 0, 1)]),
            "turns": turns,
        }
    )
    # Engines may return a fourth element: per-match arrays (e.g. Millennium Blades' VP and placement of seat A).
    if outcomes and all(len(o) > 3 for o in outcomes):
        for key in outcomes[0][3]:
            frame[key] = np.concatenate([o[3][key] for o in outcomes])
    counter_rows = []
    for side, deck in ((0, deck_a), (1, deck_b)):
        deck_ids = sorted(set(compiled.deck_array(deck).tolist()))
        for card_id in deck_ids:
            counter_rows.append(
                {"deck": "A" if side == 0 else "B", "card": compiled.names[card_id]}
                | {name: int(counters[side, card_id, i]) for i, name in enumerate(COUNTERS)}
            )
    meta = provenance(cardset, engine, resolved, seed, matches, policy_names)
    meta |= {"deck_a": deck_a.name, "deck_b": deck_b.name, "first_player": first_player}
    meta["engine_findings"] = [finding.to_json() for finding in compiled.findings]
    return MatchResults(frame, pd.DataFrame(counter_rows), meta)


def trace(
    cardset: CardSet,
    deck_a: Deck,
    deck_b: Deck | None = None,
    seed: int = 0,
    policies: tuple[str, str] | str = "greedy",
    options: Mapping[str, OptionValue | str] | None = None,
    a_goes_first: bool = True,
) -> Iterator[str]:
    """One seeded match, turn by turn, as lines a designer can read (the match is `simulate`'s match 0)."""
    deck_b = deck_b or deck_a
    engine, compiled, resolved = compile_for(cardset, options)
    policy_names = (policies, policies) if isinstance(policies, str) else tuple(policies)
    seeds, _ = batch_seeds(seed, 1)[0]
    array_a, array_b = compiled.deck_array(deck_a), compiled.deck_array(deck_b)
    load_engine(engine_module_of(cardset), compiled, array_a, array_b)  # a first compile is timed and recorded
    winner, turns, events = engine.play_traced(
        compiled,
        array_a,
        array_b,
        int(seeds[0]),
        0 if a_goes_first else 1,
        engine.policy_index(policy_names[0]),
        engine.policy_index(policy_names[1]),
    )
    yield (
        f"# {cardset.ruleset.id} {cardset.ruleset.version} (engine {engine.version}), seed {seed}, "
        f"A = {deck_a.name} ({policy_names[0]}), B = {deck_b.name} ({policy_names[1]}), "
        f"{'A' if a_goes_first else 'B'} goes first"
    )
    last_turn = -1
    for row in events:
        if row[0] != last_turn:
            last_turn = int(row[0])
            yield f"Turn {last_turn}:"
        yield "  " + engine.describe_event(compiled, [int(v) for v in row])
    result = "a draw" if winner < 0 else f"{'AB'[winner]} wins"
    yield f"Result: {result} after {turns} turns."
