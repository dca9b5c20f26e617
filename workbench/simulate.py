"""The Monte Carlo runner: seeds, batches, worker processes and tidy results.

Reproducibility: a run's seed is split with `SeedSequence(seed).spawn(batches)`
into one child per batch of `BATCH_SIZE` matches, and each child gives one
seed per match. Batches are the unit of work, and their size does not depend
on the number of workers, so the same seed gives the same matches on one
process, two processes or a cluster.

Layers: this module sits above the engines, `workbench.warm` (an engine's first load), `workbench.distributed` (the
Dask executor) and `workbench.jobs` (the `Job` records they all play, re-exported here: `from workbench.simulate
import Job` keeps working), and imports none of the layers above it (analysis, full games, reports).
"""

from __future__ import annotations

import hashlib
import importlib
import math
import os
import pickle
import shutil
import tempfile
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from workbench import __version__
from workbench.cards import CardSet, Deck, OptionValue, WorkbenchInputError
from workbench.distributed import check_executor, run_jobs_on_dask
from workbench.engines import COUNTERS, CompiledCards, IntArray
from workbench.full_game_registry import is_full_game
from workbench.jobs import BatchOutcome, Job, Reducer, default_workers, gather_in_order, local_pool
from workbench.limits import check_deck_pairs, limit, run_refused
from workbench.play.assembly import Engine
from workbench.play.policies import policy_name, policy_word
from workbench.run_settings import Progress, RunSettings
from workbench.warm import load_engine, worker_play

BATCH_SIZE = 1_000
"""Matches per batch (and per child seed). Fixed, so results never depend on the worker count."""
PARALLEL_THRESHOLD = 20_000
"""From this many matches a run plays on worker processes; below it, only when it is slow (`PARALLEL_SECONDS`)."""
PARALLEL_SECONDS = 8.0
"""A run of fewer than PARALLEL_THRESHOLD matches still plays on worker processes when its first pieces, played in
this process, say the rest would take longer than this on one core. Starting the workers and loading the engine in
them takes a second or two; a search plays 70 to 4,500 matches a second on one core (`workbench bench`), so counting
matches alone kept slow runs on one core: SOURCE's power curve under search at 300 matches a card (13,500 matches)
took 230 s on one of two cores."""
MAX_MATCHES = limit("matches").value


def plays_in_one_process(matches: int, one_core_seconds: float) -> bool:
    """Whether a run of `matches` matches, taking `one_core_seconds` on one core, plays in this process rather than on
    worker processes: under PARALLEL_THRESHOLD matches and under PARALLEL_SECONDS. `run_jobs` decides by it, and the
    time estimates count cores by it (`workbench.pace.cores_for`)."""
    return matches < PARALLEL_THRESHOLD and one_core_seconds < PARALLEL_SECONDS


FirstPlayer = Literal["alternate", "random"]


def _whole_number(value: object, what: str, low: int, name: str) -> int:
    """`value` as an int of at least `low` and at most limit `name`, or the one-paragraph refusal."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise WorkbenchInputError(
            f"{what} must be a whole number, not {value!r}.", expected=f"a whole number from {low:,}"
        )
    number = int(value)
    if number < low:
        raise WorkbenchInputError(
            f"{what} is {number:,}; it must be at least {low:,}.",
            expected=f"a whole number from {low:,} to {limit(name).shown()}",
        )
    if number > limit(name).value:
        digits = len(str(number))
        shown = f"{number:,}" if digits <= 30 else f"a {digits:,}-digit number"
        raise run_refused(name, f"{what} is {shown}")
    return number


def check_seed(seed: int) -> int:
    """A run's seed: any whole number from 0 to 2**64 - 1 (SeedSequence takes no negative seed)."""
    return _whole_number(seed, "the seed", 0, "seed")


def check_run_parameters(
    *,
    seed: int,
    matches: int | None = None,
    matches_per_card: int | None = None,
    workers: int | None = None,
    executor: str | None = None,
) -> None:
    """Every parameter a run is given, checked against workbench.limits before any card is compiled or job
    submitted: seed, matches (per simulation or pair), matches per card, worker count and executor address."""
    check_seed(seed)
    if matches is not None:
        _whole_number(matches, "the number of matches", 1, "matches")
    if matches_per_card is not None:
        _whole_number(matches_per_card, "the number of matches per card", 1, "matches_per_card")
    if workers is not None:
        _whole_number(workers, "the number of workers", 1, "workers")
    check_executor(executor)


def check_run_size(total: int, what: str) -> None:
    """Refuse a run that would play more than `run_matches` matches in all (`what` says how the total is made)."""
    if total > limit("run_matches").value:
        raise run_refused("run_matches", f"{what} make {total:,} matches")


def check_pair_run(
    decks: int, matches: int, seed: int, workers: int | None = None, executor: str | None = None
) -> None:
    """Matchups and game health: every ordered pair of `decks` plays `matches` matches (checked before the first)."""
    check_deck_pairs(decks)
    check_run_parameters(seed=seed, matches=matches, workers=workers, executor=executor)
    check_run_size(decks * decks * matches, f"{decks:,} decks ({decks * decks:,} ordered pairs) × {matches:,} matches")


def check_sweep(values: Sequence[object], matches_per_card: int) -> None:
    """A sweep's values: at most `sweep_values` of them, each a finite number within the `card_number` magnitude
    every card field keeps to; and the swept card's matches in all within `run_matches`."""
    if len(values) > limit("sweep_values").value:
        raise run_refused("sweep_values", f"the sweep lists {len(values):,} values")
    bound = limit("card_number").value
    for value in values:
        number = value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
        if number is None or not math.isfinite(number) or abs(number) > bound:
            shown = (
                f"{number:g}"
                if isinstance(number, float)
                else (
                    f"a {len(str(number)):,}-digit number"
                    if isinstance(number, int) and len(str(number)) > 15
                    else repr(value)
                )
            )
            raise WorkbenchInputError(
                f"a sweep value ({shown}) is outside what a card field holds.",
                expected=f"finite numbers from -{bound:,} to {bound:,} ({limit('card_number').bounds})",
            )
    check_run_size(
        2 * len(values) * matches_per_card,
        f"{len(values):,} sweep values × 2 decks × {matches_per_card:,} matches per card",
    )


def engine_for(cardset: CardSet) -> Engine:
    """The card set's engine, or a clear error when its game has none yet."""
    engine = cardset.ruleset.engine
    if engine is None:
        raise WorkbenchInputError(
            f"the '{cardset.ruleset.id}' ruleset has no match engine yet, so it cannot be simulated.",
            expected="a card set of a ruleset with an engine: " + ", ".join(r for r in _rulesets_with_engines()),
        )
    return engine


def engine_module_of(cardset: CardSet) -> str:
    """The dotted module of the card set's engine (checked by `engine_for`)."""
    engine_for(cardset)
    assert cardset.ruleset.engine_module is not None
    return cardset.ruleset.engine_module


def _rulesets_with_engines() -> list[str]:
    from workbench.rulesets import RULESETS  # here, not at the top: loads pydantic and every ruleset

    return [ruleset_id for ruleset_id, ruleset in RULESETS.items() if ruleset.engine_module]


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


def _play_job(engine_module: str, compiled: CompiledCards, job: Job) -> BatchOutcome:
    """Play one job; a module path (not an engine object) crosses the process boundary."""
    engine: Engine = importlib.import_module(engine_module).ENGINE
    return engine.play_batch(compiled, job.deck_a, job.deck_b, job.seeds, job.first, job.policy_a, job.policy_b)


@dataclass(frozen=True)
class SharedCards:
    """A compiled card table as a local pool's pieces carry it: the key of its pickled bytes and the file holding them,
    written once per run (`_shared_cards`). Each worker process reads the file once and keeps the table by key
    (`_worker_cards`), so a piece sends a few dozen bytes, not the card table: 20,000 cards pickle to about 7 MB,
    sent with each of a power curve's 80,000 pieces."""

    key: str
    path: str


WORKER_CARD_TABLES = 4
"""Card tables a worker process keeps (the latest used): a pool is shared by every run of the process (the app's
sessions included), so runs of a few sets in turn each find theirs, and a worker never holds every set it played."""
_WORKER_CARDS: OrderedDict[str, CompiledCards] = OrderedDict()
"""In a pool worker: the card tables read so far, by `SharedCards.key`, the most recently used last."""


def _worker_cards(shared: SharedCards | CompiledCards) -> CompiledCards:
    """The card table a piece names: read from its file the first time this process meets its key, then kept."""
    if isinstance(shared, CompiledCards):
        return shared
    compiled = _WORKER_CARDS.get(shared.key)
    if compiled is None:
        # Our own file, in a folder only this user may enter (tempfile.mkdtemp), written by the process that started
        # this worker: the same trust as the pickles a process pool passes through its pipes.
        with open(shared.path, "rb") as handle:
            compiled = pickle.load(handle)
        _WORKER_CARDS[shared.key] = compiled
        while len(_WORKER_CARDS) > WORKER_CARD_TABLES:
            _WORKER_CARDS.popitem(last=False)
    _WORKER_CARDS.move_to_end(shared.key)
    return compiled


def _shared_cards(compiled: CompiledCards, folder: str) -> SharedCards:
    """Write the card table once into `folder` for the workers to read (`_worker_cards`)."""
    data = pickle.dumps(compiled, protocol=pickle.HIGHEST_PROTOCOL)
    key = hashlib.sha256(data).hexdigest()
    path = os.path.join(folder, f"{key}.pickle")
    with open(path, "wb") as handle:
        handle.write(data)
    return SharedCards(key, path)


def _play_job_in_worker(
    engine_module: str, cards: SharedCards | CompiledCards, job: Job, rows: tuple[int, ...] | None = None
) -> BatchOutcome:
    """Play one job in a pool worker: its first job of an engine waits for a compile of that engine under way in any
    process (workbench.warm.worker_play), so a worker loads Numba's cache instead of compiling the engine again.

    `rows`, when given, are the only cards whose counters go back (`CounterRows`, see `keep_counter_rows`): a power
    curve's piece then returns a few rows, not the whole card table's counters (about 2 MB for 20,000 cards)."""
    compiled = _worker_cards(cards)
    outcome = worker_play(engine_module, lambda: _play_job(engine_module, compiled, job))
    return outcome if rows is None else _counter_rows_of(outcome, rows)


PIECE_SECONDS = 0.25
"""How long one call into an engine should run. A run is played in pieces of a batch sized from the engine's
measured speed, and reports progress after each, which is where a cancelled run stops (the app's Cancel raises in
the progress report): a piece of 0.25 s keeps Cancel under a second even when a measured piece runs four times
slower than the last (a batch of 1,000 matches at turn_cap 10,000 takes about 19 s in circles). Pieces split the
batch's own seeds, so the matches, and every figure, are the same as playing the batch in one call."""
FIRST_PIECE = 4
"""Matches of the first piece, before anything is known of the engine's speed on these decks."""


@dataclass
class _Pace:
    """The piece size, from the time the last piece took: PIECE_SECONDS' worth of matches, at most four times the
    last piece (one quick piece must not turn into a batch of slow matches) and at most a batch."""

    size: int = FIRST_PIECE
    """Matches of the next piece."""
    per_second: float = 0.0
    """Matches a second of the last piece on one core (0: none played yet)."""

    def record(self, matches: int, seconds: float) -> None:
        """Size the next piece from one piece's `matches` and the `seconds` it took."""
        fitted = int(PIECE_SECONDS * matches / seconds) if seconds > 0 else BATCH_SIZE
        self.size = max(1, min(BATCH_SIZE, fitted, 4 * max(self.size, matches)))
        self.per_second = matches / seconds if seconds > 0 else math.inf

    def seconds_for(self, matches: int) -> float:
        """Seconds `matches` more take on one core at the last piece's pace (0 before any piece)."""
        return matches / self.per_second if self.per_second > 0 else 0.0


def _piece(job: Job, start: int, stop: int) -> Job:
    """The matches `start` to `stop` of a job, with their own seeds and first players."""
    return Job(job.deck_a, job.deck_b, job.seeds[start:stop], job.first[start:stop], job.policy_a, job.policy_b)


def _joined(parts: Sequence[BatchOutcome]) -> BatchOutcome:
    """One batch's outcome from its pieces' outcomes, in order: per-match arrays joined, counters added."""
    if len(parts) == 1:
        return parts[0]
    winners = np.concatenate([part[0] for part in parts])
    turns = np.concatenate([part[1] for part in parts])
    counters = parts[0][2].copy()
    for part in parts[1:]:
        counters += part[2]
    if all(len(part) > 3 for part in parts):
        extras = {key: np.concatenate([part[3][key] for part in parts]) for key in parts[0][3]}
        return winners, turns, counters, extras
    return winners, turns, counters


def _unchanged(index: int, outcome: BatchOutcome) -> BatchOutcome:
    return outcome


@dataclass
class CounterRows:
    """Some cards' rows of a batch's counters, in place of the whole card table's: `counts[side, i, counter]` is
    card `rows[i]`'s (`keep_counter_rows`). Adds up as the full counters do, so pieces of a batch still join."""

    rows: tuple[int, ...]
    counts: np.ndarray

    def copy(self) -> CounterRows:
        return CounterRows(self.rows, self.counts.copy())

    def __iadd__(self, other: CounterRows) -> CounterRows:
        if other.rows != self.rows:
            raise ValueError("counter rows of different cards cannot be added")
        self.counts += other.counts
        return self

    def of(self, card: int) -> np.ndarray:
        """The card's counters, shape (sides, 1, counters): the full table's `counters[:, card : card + 1]`."""
        row = self.rows.index(card)
        return self.counts[:, row : row + 1]


def _counter_rows_of(outcome: BatchOutcome, rows: tuple[int, ...]) -> BatchOutcome:
    """The outcome with its per-card counters cut down to `rows` (`CounterRows`); an outcome already cut, or whose
    counters are not per card (not three axes), as it is."""
    counters = outcome[2]
    if isinstance(counters, CounterRows) or np.ndim(counters) != 3:
        return outcome
    kept = CounterRows(rows, np.ascontiguousarray(np.asarray(counters)[:, list(rows), :]))
    return (outcome[0], outcome[1], kept, *outcome[3:])


@dataclass(frozen=True)
class KeepCounterRows:
    """A `run_jobs` reducer keeping, of each outcome's per-card counters (sides, cards, counters), only the rows of
    the cards `rows_of_job(job_index)` names (as `CounterRows`); winners, turns and extras are kept whole. An engine
    without per-card counters (not three axes) keeps what it returned.

    A local pool cuts the counters in the worker (`run_jobs` sends each piece's rows along), so only the kept rows
    come back through the pipe; here the outcome is then already cut and passes unchanged."""

    rows_of_job: Callable[[int], Sequence[int]]

    def rows(self, index: int) -> tuple[int, ...]:
        return tuple(int(card) for card in self.rows_of_job(index))

    def __call__(self, index: int, outcome: BatchOutcome) -> BatchOutcome:
        counters = outcome[2]
        if isinstance(counters, CounterRows) or np.ndim(counters) != 3:
            return outcome
        return _counter_rows_of(outcome, self.rows(index))


def keep_counter_rows(rows_of_job: Callable[[int], Sequence[int]]) -> Reducer:
    """The reducer that keeps only the counter rows of the cards `rows_of_job(job_index)` names (`KeepCounterRows`)."""
    return KeepCounterRows(rows_of_job)


def _timed_piece(engine_module: str, compiled: CompiledCards, job: Job, pace: _Pace) -> BatchOutcome:
    """Play one piece here, and size the next from the time it took."""
    started = time.perf_counter()
    outcome = _play_job(engine_module, compiled, job)
    pace.record(len(job.seeds), time.perf_counter() - started)
    return outcome


def run_jobs(
    engine_module: str,
    compiled: CompiledCards,
    jobs: Sequence[Job],
    workers: int | None = None,
    progress: Progress | None = None,
    executor: str | None = None,
    reduce: Reducer | None = None,
) -> list[BatchOutcome]:
    """Play every job, in order: on `workers` local processes (default: all cores; 1 = in this process), or on the
    Dask `executor` (`dask-local`, `dask://HOST:PORT`; see workbench.distributed).

    `reduce(job_index, outcome)`, when given, is applied to each outcome (or piece of one) as soon as it comes back,
    before the next is awaited, so a run keeps only what its caller reads: a power curve keeps the counters of the
    measured card's rows, not the whole card table's for every job (20,000 cards held 7 GB). It must commute with
    joining pieces (per-match arrays concatenated, counters added), as taking rows of the counters does.

    Locally, each job is played in pieces of about PIECE_SECONDS (see there) with a progress report after each, so
    a progress callback that raises (the app's Cancel) stops the run within a second, whatever the turn cap; on
    processes, the first pieces play here to measure the engine's speed and the rest are sized from it.
    """
    executor = check_executor(executor)
    if executor != "local":
        return run_jobs_on_dask(executor, engine_module, compiled, jobs, progress, reduce)
    kept = reduce or _unchanged
    total = sum(len(job.seeds) for job in jobs)
    workers = default_workers() if workers is None else max(1, workers)
    done = 0
    parts: list[list[BatchOutcome]] = [[] for _ in jobs]
    if progress:
        progress(0, total)
    # Compile (or load) the engine here first, once per process and policy pair, timed and recorded (workbench.warm):
    # the workers then load Numba's on-disk cache instead of each compiling the same kernels at once (souls: about 75 s
    # of CPU per worker on a cold cache). Only the pairs the jobs play: a search run does not compile greedy's batch.
    first_job_of_pair: dict[tuple[int, int], Job] = {}
    for job in jobs:
        first_job_of_pair.setdefault((job.policy_a, job.policy_b), job)
    for policies, job in first_job_of_pair.items():
        load_engine(engine_module, compiled, job.deck_a, job.deck_b, traced=False, policies=policies)
    pace = _Pace()
    # On processes, only the first job's opening pieces play here: until one has run a quarter of PIECE_SECONDS,
    # the speed is not known well enough to size the pieces sent to the workers.
    measured_enough = workers == 1
    first_job_start = 0
    while jobs and not measured_enough and first_job_start < len(jobs[0].seeds):
        stop = min(len(jobs[0].seeds), first_job_start + pace.size)
        started = time.perf_counter()
        parts[0].append(kept(0, _timed_piece(engine_module, compiled, _piece(jobs[0], first_job_start, stop), pace)))
        measured_enough = time.perf_counter() - started >= PIECE_SECONDS / 4
        done += stop - first_job_start
        first_job_start = stop
        if progress:
            progress(done, total)
    # A run of fewer than PARALLEL_THRESHOLD matches goes to the workers only if it is slow, which its first pieces,
    # played here as for any run on processes, tell.
    if plays_in_one_process(total, pace.seconds_for(total - done)):
        workers = 1
    if workers == 1:
        for index, job in enumerate(jobs):
            start = first_job_start if index == 0 else 0
            while start < len(job.seeds):
                stop = min(len(job.seeds), start + pace.size)
                parts[index].append(kept(index, _timed_piece(engine_module, compiled, _piece(job, start, stop), pace)))
                done += stop - start
                start = stop
                if progress:
                    progress(done, total)
        return [_joined(job_parts) for job_parts in parts]
    pool = local_pool(workers)
    pieces = [
        (index, start, min(len(job.seeds), start + pace.size))
        for index, job in enumerate(jobs)
        for start in range(first_job_start if index == 0 else 0, len(job.seeds), pace.size)
    ]
    # The card table goes to each worker once, through a file (SharedCards), not pickled into every piece; and where
    # the caller keeps some counter rows only, the worker cuts them before sending the outcome back.
    folder = tempfile.mkdtemp(prefix="workbench-cards-")
    futures: list[Future[BatchOutcome] | None] = []
    try:
        cards = _shared_cards(compiled, folder)
        rows_of = kept.rows if isinstance(kept, KeepCounterRows) else None
        futures = [
            pool.submit(
                _play_job_in_worker,
                engine_module,
                cards,
                _piece(jobs[index], start, stop),
                None if rows_of is None else rows_of(index),
            )
            for index, start, stop in pieces
        ]

        def take(position: int, outcome: BatchOutcome) -> None:
            index = pieces[position][0]
            parts[index].append(kept(index, outcome))

        gather_in_order(
            futures, [stop - start for _, start, stop in pieces], take, progress, done, total, workers, PIECE_SECONDS
        )
    finally:
        # Every piece has come back (or the run ended): a piece still queued after a cancel fails to find the file,
        # and nobody waits for it.
        shutil.rmtree(folder, ignore_errors=True)
    return [_joined(job_parts) for job_parts in parts]


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
    """What every simulated figure carries, so it can be reproduced and compared (and the engine's caveats, when it
    has any, so that they travel with the figure)."""
    caveats = {"caveats": list(engine.caveats)} if engine.caveats else {}
    return {
        **caveats,
        "ruleset": cardset.ruleset.id,
        "ruleset_version": cardset.ruleset.version,
        "engine_version": engine.version,
        "options": dict(options),
        "seed": seed,
        "matches": matches,
        "policies": [
            policy_name(policy_word(name, engine.policies, engine.search_settings)) for name in policies
        ],  # `epsilon` as epsilon:0.1
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


def compile_for(
    cardset: CardSet, options: Mapping[str, OptionValue | str] | None = None
) -> tuple[Engine, CompiledCards, dict[str, OptionValue]]:
    """The engine, the compiled cards and the resolved options for a card set."""
    engine = engine_for(cardset)
    resolved = cardset.ruleset.resolve_options(options)
    return engine, engine.compile_cards(cardset, resolved), resolved


def simulate(
    cardset: CardSet,
    deck_a: Deck,
    deck_b: Deck | None = None,
    matches: int = 10_000,
    run: RunSettings = RunSettings(),
    *,
    policy_b: str | None = None,
    first_player: FirstPlayer = "alternate",
) -> MatchResults:
    """Play `matches` matches of deck A against deck B (a mirror match when B is omitted), under `run`'s seed, rule
    options and workers; deck A plays `run.policy`, deck B `policy_b` (None: the same policy).

    Rule options that ask for whole games (`game=full`) are refused with a pointer to `workbench.full_game`, whose
    results (final VP per seat and its parts) are not matches between two decks."""
    if is_full_game(cardset.ruleset, run.options):
        raise WorkbenchInputError(
            "simulate() plays matches between two decks; the rule option game=full plays whole games.",
            expected="workbench.full_game.run_full_games(cardset, options, games, seed) (or game=tournament)",
        )
    seed = run.seed
    check_run_parameters(seed=seed, matches=matches, workers=run.workers, executor=run.executor)
    deck_b = deck_b or deck_a
    engine, compiled, resolved = compile_for(cardset, run.options)
    policy_ids = [
        policy_word(name, engine.policies, engine.search_settings)
        for name in (run.policy, run.policy if policy_b is None else policy_b)
    ]
    policy_names = (policy_name(policy_ids[0]), policy_name(policy_ids[1]))  # as stamped: `epsilon` -> epsilon:0.1
    array_a, array_b = compiled.deck_array(deck_a), compiled.deck_array(deck_b)
    batches = batch_seeds(seed, matches, first_player)
    jobs = [Job(array_a, array_b, seeds, first, policy_ids[0], policy_ids[1]) for seeds, first in batches]
    outcomes = run_jobs(engine_module_of(cardset), compiled, jobs, run.workers, run.progress, run.executor)
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
    check_seed(seed)
    deck_b = deck_b or deck_a
    engine, compiled, resolved = compile_for(cardset, options)
    words = [
        policy_word(name, engine.policies, engine.search_settings)
        for name in ((policies, policies) if isinstance(policies, str) else policies)
    ]
    policy_names = tuple(policy_name(word) for word in words)
    seeds, _ = batch_seeds(seed, 1)[0]
    array_a, array_b = compiled.deck_array(deck_a), compiled.deck_array(deck_b)
    load_engine(engine_module_of(cardset), compiled, array_a, array_b)  # a first compile is timed and recorded
    winner, turns, events = engine.play_traced(
        compiled,
        array_a,
        array_b,
        int(seeds[0]),
        0 if a_goes_first else 1,
        words[0],
        words[1],
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
