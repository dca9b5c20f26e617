"""This machine's pace: the one-core figures `workbench bench` measured, kept so the app can say how long a run takes.

`workbench bench` measures, per engine, matches a second on one core under greedy (or `--policy`) and under the
search, and whole games a second where a ruleset plays them. `keep_bench_figures` writes those figures (each with
its ruleset and engine versions, policy, the date, `os.cpu_count()` and the workbench version) into a small JSON
record in the user cache (`pace_path()`: `$XDG_CACHE_HOME/card-workbench/pace.json`), atomically and merged with what
is there. `pace_for` reads one back; a figure measured on another engine version is stale and never used, and a
corrupt or foreign record reads as empty (the next bench writes it afresh).

The estimates (`estimate_text`, `study_estimate`, `health_estimate`, `proposals_estimate`, `whole_games_estimate`,
`whole_game_power_estimate`) turn a run's match count into seconds: the matches divided by one core's rate times the
cores the run uses (capped at `os.cpu_count()`, one when the runner plays it in one process), in words with the
figure's provenance. Without a figure they say so and name the command that measures one: never a made-up figure.
They count the matches alone: loading or compiling the engine, starting the workers, a power curve's second look and
its suggested-cost checks come on top, and they say so.

A run's match count is what its first progress report says (`first_report`): the run is started with a progress
callback that stops it at that report, which every runner makes before its first match (`run_jobs` reports
`(0, total)` before it loads the engine), so the count is the runner's own and never written twice.

Pure: no Streamlit, pandas or plotly (the heavy modules are imported inside the functions that count a run).
"""

from __future__ import annotations

import datetime
import importlib
import json
import logging
import os
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench import __version__
from workbench.cards import WorkbenchInputError
from workbench.warm import read_record, record_lock, user_cache_root, write_record

if TYPE_CHECKING:
    from workbench.balance_study import StudySettings
    from workbench.cards import CardSet, Deck, OptionValue
    from workbench.rulesets.base import Ruleset

_log = logging.getLogger(__name__)

PACE_FILE_NAME = "pace.json"
PACE_FORMAT = 1
"""Bumped if the record's shape changes; a record of another format is read as empty (and rewritten by a bench)."""
MATCHES = "matches"
"""The unit of a match engine's figure: matches between two decks."""
WHOLE_GAMES = "whole games"
"""The unit of a whole-game figure (`--option game=full`)."""
MIN_MEASURED = {MATCHES: 100, WHOLE_GAMES: 10}
"""The fewest matches (whole games) a figure is kept from. Match lengths vary (a match's time spreads about half its
mean), so the mean of 100 is good to about 5%; fewer (a test's `--matches 50`, 6 search matches) would set every
estimate from noise. Whole games vary less, and 10 of them take a second or two in Python."""


# --------------------------------------------------------------------------------------------------------------
# The record


@dataclass(frozen=True)
class Pace:
    """One figure `workbench bench` measured on this machine: units a second on one core."""

    ruleset: str
    """The ruleset id."""
    unit: str
    """`matches` (between two decks) or `whole games`."""
    policy: str
    """The policy both sides played (`greedy`, `search`, ...); for whole games, every seat's (`greedy`) or seat A's
    and the other seats' (`greedy v random`)."""
    per_second: float
    """Units a second on one core (one process)."""
    engine_version: str
    """The engine's version when measured (for whole games, the tournament engine's and the market's); a figure of
    another version is stale."""
    ruleset_version: str
    """The ruleset's version when measured."""
    measured: int
    """How many matches (whole games) the figure was timed over."""
    recorded_on: str
    """The date it was measured, ISO 8601 (`2026-11-29`)."""
    cpus: int
    """`os.cpu_count()` of the machine when measured."""
    workbench_version: str
    """The workbench's version when measured."""

    @property
    def key(self) -> str:
        """Where the record keeps it: one figure per ruleset, unit and policy (the newest bench wins)."""
        return _key(self.ruleset, self.unit, self.policy)

    def describe(self) -> str:
        """Where the figure comes from, in words: `workbench bench on 2026-11-29: 29,000 matches a second on one core,
        greedy, source engine 6`."""
        return (
            f"workbench bench on {self.recorded_on}: {rate_text(self.per_second)} {self.unit} a second on one core, "
            f"{policy_words(self.policy, self.unit)}, {self.ruleset} engine {self.engine_version}"
        )


def _key(ruleset_id: str, unit: str, policy: str) -> str:
    return f"{ruleset_id} | {unit} | {policy}"


def pace_path() -> Path:
    """The record of this machine's bench figures: `user_cache_root()/pace.json`."""
    return user_cache_root() / PACE_FILE_NAME


def read_paces(path: Path | None = None) -> dict[str, Pace]:
    """The record, by `Pace.key`; a missing, unreadable, corrupt or foreign record reads as empty (never an error),
    and a damaged entry loses that figure only."""
    entries = read_record(pace_path() if path is None else path, PACE_FORMAT, "paces", list)
    if entries is None:
        return {}
    paces: dict[str, Pace] = {}
    for entry in entries:
        try:
            pace = Pace(
                ruleset=str(entry["ruleset"]),
                unit=str(entry["unit"]),
                policy=str(entry["policy"]),
                per_second=float(entry["per_second"]),
                engine_version=str(entry["engine_version"]),
                ruleset_version=str(entry["ruleset_version"]),
                measured=int(entry["measured"]),
                recorded_on=str(entry["recorded_on"]),
                cpus=int(entry["cpus"]),
                workbench_version=str(entry["workbench_version"]),
            )
        except (KeyError, TypeError, ValueError):
            continue
        if pace.per_second > 0 and pace.per_second != float("inf"):
            paces[pace.key] = pace
    return paces


def keep_paces(paces: Iterable[Pace], path: Path | None = None) -> Path:
    """Merge `paces` into the record (a figure replaces the one of its ruleset, unit and policy; the others stay) and
    write it atomically (a temporary file, then `os.replace`). A corrupt or foreign record is replaced. Raises
    `OSError` (`workbench.spreadsheets.OutputError`) when the user cache cannot be written."""
    path = pace_path() if path is None else path
    path.parent.mkdir(parents=True, exist_ok=True)
    with record_lock(path):
        record = read_paces(path)
        record.update({pace.key: pace for pace in paces})
        data = {
            "format": PACE_FORMAT,
            "about": "One-core figures `workbench bench` measured on this machine, read by the app's time "
            "estimates (units a second on one core; a figure of another engine version is not used).",
            "paces": [asdict(record[key]) for key in sorted(record)],
        }
        write_record(path, data)
    return path


def pace_for(
    ruleset_id: str, engine_version: str, policy: str, unit: str = MATCHES, path: Path | None = None
) -> Pace | None:
    """The figure on record for this ruleset, engine version, policy and unit, or None (none measured, or measured
    on another engine version: stale)."""
    pace = read_paces(path).get(_key(ruleset_id, unit, policy))
    return pace if pace is not None and pace.engine_version == str(engine_version) else None


# --------------------------------------------------------------------------------------------------------------
# From `workbench bench`


def whole_game_version(ruleset: Ruleset) -> str:
    """The version a whole-game figure is kept under: the tournament engine's and the market's (`3 / market 2`), since
    a whole game plays both and a change in either changes its speed."""
    from workbench.full_game_registry import FULL_GAME_MODULES

    engine = ruleset.engine
    market = importlib.import_module(FULL_GAME_MODULES[ruleset.id]).MARKET_VERSION
    return f"{engine.version if engine is not None else '-'} / market {market}"


def whole_game_policy(policy: str, others: str | None = None) -> str:
    """How a whole game's seats are named in the record: `greedy` (every seat), `greedy v random` (seat A v the
    others)."""
    return policy if others is None or others == policy else f"{policy} v {others}"


def bench_paces(ruleset: Ruleset, result: Mapping[str, Any]) -> tuple[list[Pace], list[str]]:
    """The figures of one engine's `workbench bench` result worth keeping, and why any others are not (in words).

    The main figure (`matches_per_second` under `policy`), `search` and `whole_games` (with its `against_random`)
    each give one; a figure timed over fewer than `MIN_MEASURED` units is left out."""
    today = datetime.date.today().isoformat()
    cpus = os.cpu_count() or 1

    def pace(unit: str, policy: str, per_second: Any, measured: Any, engine_version: str) -> Pace:
        return Pace(
            ruleset=ruleset.id,
            unit=unit,
            policy=policy,
            per_second=float(per_second),
            engine_version=str(engine_version),
            ruleset_version=str(ruleset.version),
            measured=int(measured),
            recorded_on=today,
            cpus=cpus,
            workbench_version=__version__,
        )

    found = [pace(MATCHES, result["policy"], result["matches_per_second"], result["matches"], result["engine_version"])]
    search = result.get("search")
    if isinstance(search, Mapping):
        found.append(
            pace(MATCHES, search["policy"], search["matches_per_second"], search["matches"], result["engine_version"])
        )
    whole = result.get("whole_games")
    if isinstance(whole, Mapping):
        version = str(whole.get("engine_version") or whole_game_version(ruleset))
        found.append(pace(WHOLE_GAMES, whole["policy"], whole["games_per_second"], whole["games"], version))
        mixed = whole.get("against_random")
        if isinstance(mixed, Mapping):
            found.append(pace(WHOLE_GAMES, mixed["policy"], mixed["games_per_second"], whole["games"], version))
    kept = [p for p in found if p.measured >= MIN_MEASURED[p.unit] and p.per_second > 0]
    left = [
        f"{policy_words(p.policy, p.unit)} {p.unit} (timed over {p.measured:,}, fewer than {MIN_MEASURED[p.unit]:,})"
        for p in found
        if p not in kept
    ]
    return kept, left


def keep_bench_figures(
    ruleset: Ruleset, result: Mapping[str, Any], options_given: bool = False, path: Path | None = None
) -> dict[str, Any]:
    """Keep one engine's `workbench bench` figures for the app's estimates (`bench_paces`, `keep_paces`) and say what
    was kept and where, as the bench reports it: `{"file": path or None, "kept": [{"unit", "policy", "per_second"}],
    "not_kept": [why, ...]}`. Figures measured under `--option` are not kept (the estimates read figures under the
    default rules), and a user cache that cannot be written costs the record, never the bench."""
    if options_given:
        return {"file": None, "kept": [], "not_kept": ["measured under --option: only default-rule figures are kept"]}
    paces, left = bench_paces(ruleset, result)
    if not paces:
        return {"file": None, "kept": [], "not_kept": left}
    try:
        written = keep_paces(paces, path)
    except OSError as error:
        where = pace_path() if path is None else path
        return {"file": None, "kept": [], "not_kept": [*left, f"could not write {where}: {error}"]}
    return {
        "file": str(written),
        "kept": [{"unit": p.unit, "policy": p.policy, "per_second": p.per_second} for p in paces],
        "not_kept": left,
    }


def kept_text(kept: Mapping[str, Any]) -> str:
    """What `keep_bench_figures` did, in one line: `kept for the app's time estimates in FILE: greedy 104,000
    matches/s, search 1,030 matches/s` and why any figure was not kept."""
    figures = [
        f"{policy_words(str(k['policy']), str(k['unit']))} {rate_text(float(k['per_second']))} {k['unit']}/s"
        for k in kept.get("kept", [])
    ]
    said = f"kept for the app's time estimates in {kept['file']}: {', '.join(figures)}" if figures else "none kept"
    left = kept.get("not_kept") or []
    return said + (f"; not kept: {'; '.join(left)}" if left else "")


# --------------------------------------------------------------------------------------------------------------
# Estimates in words


def rate_text(per_second: float) -> str:
    """`29,000`, `230`, `14.1`, `0.52`: three significant figures, whole numbers from 100."""
    if per_second >= 100:
        return f"{float(f'{per_second:.3g}'):,.0f}"
    return f"{per_second:.3g}"


def policy_words(policy: str, unit: str = MATCHES) -> str:
    """A policy as the estimate names it: `greedy`; for whole games `every seat greedy`, `seat A greedy and the other
    seats random`."""
    if unit != WHOLE_GAMES:
        return policy
    first, _, others = policy.partition(" v ")
    return f"seat A {first} and the other seats {others}" if others else f"every seat {first}"


def about_text(seconds: float) -> str:
    """A duration as an estimate gives it: `under a second`, `about 40 s`, `about 3 min 10 s`, `about 2 min`,
    `about 14 min`, `about 2 h 5 min` (no more precision than an estimate has: tens of seconds from a minute, whole
    minutes from ten)."""
    if seconds < 1:
        return "under a second"
    if round(seconds) < 60:
        return f"about {round(seconds)} s"
    if round(seconds / 10) < 60:
        minutes, tens = divmod(round(seconds / 10), 6)
        return f"about {minutes} min {tens * 10} s" if tens else f"about {minutes} min"
    if round(seconds / 60) < 60:
        return f"about {round(seconds / 60)} min"
    hours, minutes = divmod(round(seconds / 60), 60)
    return f"about {hours} h {minutes} min" if minutes else f"about {hours} h"


def cores_for(
    run_size: int, workers: int | None = None, parallel_from: int | None = None, one_core_seconds: float = 0.0
) -> int:
    """The cores a run of `run_size` matches uses: the workers asked for (None: every core this process may use),
    capped at `os.cpu_count()`; one below `parallel_from` (None: the matches' `PARALLEL_THRESHOLD`), where the runner
    plays in this process (`workbench.simulate.run_jobs`; whole games: their runner's `PARALLEL_GAMES`), unless a run
    of matches would take `PARALLEL_SECONDS` or more on one core (`one_core_seconds`), as `run_jobs` decides."""
    from workbench.jobs import default_workers
    from workbench.simulate import plays_in_one_process

    if parallel_from is not None and run_size < parallel_from:
        return 1
    if parallel_from is None and plays_in_one_process(run_size, one_core_seconds):
        return 1
    wanted = default_workers() if workers is None else max(1, workers)
    return max(1, min(wanted, os.cpu_count() or 1))


def estimate_seconds(units: int, pace: Pace, cores: int) -> float:
    """Seconds `units` matches (whole games) take on `cores` cores at one core's `pace`."""
    return units / (pace.per_second * max(1, cores))


def cores_text(cores: int) -> str:
    return "1 core" if cores == 1 else f"{cores} cores"


MATCHES_ALONE = "loading (or compiling) the engine and starting the workers come on top"
"""What a run of matches leaves out, when it is only matches: the workers start and load the engine in a second or
two (souls at the defaults under greedy: 1 s of matches, 3.3 s in all), compiling takes minutes on a cold cache."""
CURVE_ALONE = (
    "loading (or compiling) the engine, starting the workers, the second look at undecided cards and the checks of "
    "suggested costs come on top"
)
"""What a power curve's estimate leaves out."""


def estimate_text(
    units: int,
    pace: Pace | Sequence[Pace],
    cores: int,
    on_top: str = MATCHES_ALONE,
    *,
    seconds: float | None = None,
    note: str = "",
    at_most: bool = False,
) -> str:
    """One run's estimate in words: `About 40 s on 2 cores at this machine's pace (workbench bench on 2026-11-29:
    29,000 matches a second on one core, greedy, source engine 6), for the 2,320,000 matches alone: loading (or
    compiling) the engine and starting the workers come on top.` With several figures (a greedy side against a search
    side), give `seconds` (see `run_estimate`); every figure is named."""
    paces = [pace] if isinstance(pace, Pace) else list(pace)
    if seconds is None:
        seconds = estimate_seconds(units, paces[0], cores)
    provenance = "; ".join(p.describe() for p in paces)
    return (
        f"{about_text(seconds).capitalize()}{' at most' if at_most else ''} on {cores_text(cores)} at this machine's "
        f"pace ({provenance}), for the {units:,} {paces[0].unit} alone{' (' + note + ')' if note else ''}: {on_top}."
    )


def bench_command(ruleset_id: str, policy: str, unit: str = MATCHES) -> str | None:
    """The command that measures this figure, or None when the bench measures no such figure."""
    if unit == WHOLE_GAMES:
        return f"workbench bench --ruleset {ruleset_id}" if policy in ("greedy", "greedy v random") else None
    extra = "" if policy in ("greedy", "search") else f" --policy {policy}"
    return f"workbench bench --ruleset {ruleset_id}{extra}"


def no_pace_text(
    ruleset_id: str, engine_version: str, policy: str, unit: str = MATCHES, path: Path | None = None
) -> str:
    """Why there is no figure, and how to get one: `no bench figure for search with the souls engine on this machine:
    `workbench bench --ruleset souls` measures one` (or that the one on record is for another engine version)."""
    what = (
        f"{unit} with {policy_words(policy, unit)}" if unit == WHOLE_GAMES else f"{policy} with the {ruleset_id} engine"
    )
    stale = read_paces(path).get(_key(ruleset_id, unit, policy))
    if stale is not None:
        said = (
            f"the bench figure for {what} on this machine is for engine {stale.engine_version} "
            f"({stale.recorded_on}), not engine {engine_version}"
        )
    else:
        said = f"no bench figure for {what} on this machine"
    command = bench_command(ruleset_id, policy, unit)
    if command is None:
        return f"{said}, and `workbench bench` measures whole games only with every seat greedy and with seat A " + (
            "greedy against random seats"
        )
    return f"{said}: `{command}` measures one"


# --------------------------------------------------------------------------------------------------------------
# A run in parts


@dataclass(frozen=True)
class Part:
    """One phase of a run: its matches (or whole games), the sides' policies and how it is played."""

    label: str
    """What it is, as the estimate names it (`the power curve`)."""
    units: int
    """Matches (whole games) in it."""
    policies: tuple[str, ...]
    """The policy of each side of a match; a match's time is the mean of its sides' (a greedy side against a search
    side: half a search match). Whole games: one entry, the seats' (`whole_game_policy`)."""
    run_size: int
    """Matches in each call of the runner (decides the cores: `cores_for`); the matchups play one pair a call."""
    unit: str = MATCHES
    """`matches` or `whole games`."""
    parallel_from: int | None = None
    """The run size from which the runner plays on worker processes (`cores_for`); None: the matches' threshold."""
    note: str = ""
    """Words after its count (`one pair at a time`)."""


@dataclass(frozen=True)
class Estimate:
    """A run's estimate: the seconds (None without a figure) and the words the page shows."""

    seconds: float | None
    """Seconds of the matches at this machine's pace, or None."""
    text: str
    """The estimate, or why there is none, in words."""
    paces: tuple[Pace, ...] = field(default=())
    """The figures it used."""


def run_estimate(
    ruleset_id: str,
    engine_version: str,
    parts: Sequence[Part],
    on_top: str = MATCHES_ALONE,
    workers: int | None = None,
    at_most: bool = False,
    path: Path | None = None,
) -> Estimate:
    """The estimate of a run made of `parts`, each at its own policy's figure (`pace_for`); without a figure for
    every policy a part plays, none (the words say which is missing and the command that measures it)."""
    parts = [part for part in parts if part.units > 0]
    if not parts:
        return Estimate(None, "No time estimate: these settings play no match.")
    wanted = list(dict.fromkeys((policy, part.unit) for part in parts for policy in part.policies))
    paces = {(policy, unit): pace_for(ruleset_id, engine_version, policy, unit, path) for policy, unit in wanted}
    missing = [key for key, pace in paces.items() if pace is None]
    if missing:
        reasons = "; ".join(no_pace_text(ruleset_id, engine_version, policy, unit, path) for policy, unit in missing)
        return Estimate(None, f"No time estimate: {reasons}.")
    found = {key: pace for key, pace in paces.items() if pace is not None}
    timed = []
    for part in parts:
        per_unit = sum(1.0 / found[(policy, part.unit)].per_second for policy in part.policies) / len(part.policies)
        cores = cores_for(part.run_size, workers, part.parallel_from, part.run_size * per_unit)
        timed.append((part, cores, part.units * per_unit / cores))
    total = sum(seconds for _, _, seconds in timed)
    used = tuple(dict.fromkeys(found.values()))
    provenance = "; ".join(pace.describe() for pace in used)
    unit = parts[0].unit
    limit = " at most" if at_most else ""
    if len(timed) == 1:
        part, cores, seconds = timed[0]
        text = estimate_text(part.units, used, cores, on_top, seconds=seconds, note=part.note, at_most=at_most)
    else:
        each = ", ".join(
            f"{part.label} {about_text(seconds)} ({part.units:,} {part.unit}"
            f"{', ' + part.note if part.note else ''} on {cores_text(cores)})"
            for part, cores, seconds in timed
        )
        text = (
            f"{about_text(total).capitalize()}{limit} at this machine's pace: {each}. Pace: {provenance}. "
            f"That counts the {unit} alone: {on_top}."
        )
    return Estimate(total, text, used)


# --------------------------------------------------------------------------------------------------------------
# Counting a run's matches without playing them


class _Counted(Exception):
    """Raised by `first_report`'s progress callback to stop the run at its first report."""

    def __init__(self, total: int) -> None:
        super().__init__(total)
        self.total = total


def first_report(start: Callable[[Callable[[int, int], None]], object]) -> int | None:
    """The match count a run reports first (`progress(0, total)`), without playing a match: `start(progress)` begins
    the run, and `progress` stops it at that first report. None when the run refuses its settings (they are said on
    the page already) or cannot start, or never reports."""

    def stop(done: int, total: int) -> None:
        raise _Counted(int(total))

    try:
        start(stop)
    except _Counted as counted:
        return counted.total
    except WorkbenchInputError:
        return None
    except Exception:  # a caption must not take the page down: the run itself will say what is wrong
        _log.warning("could not count a run's matches for its estimate", exc_info=True)
        return None
    return None


_COUNTS: OrderedDict[str, Any] = OrderedDict()
"""Counts already made, by the run's settings (the Balance page asks again on every rerun)."""
_COUNTS_KEPT = 64


def _remembered(key: Sequence[Any], count: Callable[[], Any]) -> Any:
    text = json.dumps(list(key), default=str)
    if text in _COUNTS:
        _COUNTS.move_to_end(text)
        return _COUNTS[text]
    value = count()
    _COUNTS[text] = value
    while len(_COUNTS) > _COUNTS_KEPT:
        _COUNTS.popitem(last=False)
    return value


def _decks_key(decks: Sequence[Deck]) -> list[Any]:
    return [[deck.name, [[line.name, line.count, line.section, line.group] for line in deck.lines]] for deck in decks]


def _options_key(options: Mapping[str, OptionValue | str] | None) -> list[Any]:
    return sorted((options or {}).items())


def _curve_matches(
    cardset: CardSet, decks: Sequence[Deck], matches_per_card: int, options: Any, auto_decks: int
) -> int | None:
    """The matches of a power curve's first stage (the reference decks and every card against the gauntlet), as its
    progress counts them: without the second look and the suggested-cost checks, which depend on what it finds."""
    from workbench.analysis import power_curve
    from workbench.auto_decks import GauntletChoice
    from workbench.run_settings import RunSettings

    return first_report(
        lambda progress: power_curve(
            cardset,
            decks,
            matches_per_card,
            RunSettings(options=options, progress=progress),
            gauntlet=GauntletChoice(auto_decks),
            check_suggestions=False,
        )
    )


def _pair_matches(cardset: CardSet, decks: Sequence[Deck], matches: int, options: Any) -> int | None:
    """The matches of every ordered pair of `decks` (`workbench.analysis.play_every_pair`), as its progress counts."""
    from workbench.analysis import play_every_pair
    from workbench.run_settings import RunSettings

    return first_report(
        lambda progress: play_every_pair(cardset, decks, matches, RunSettings(options=options, progress=progress))
    )


def _uncounted(what: str) -> Estimate:
    return Estimate(None, f"No time estimate: the matches of {what} could not be counted with these settings.")


def study_estimate(
    cardset: CardSet,
    decks: Sequence[Deck],
    settings: StudySettings,
    options: Mapping[str, OptionValue | str] | None = None,
    workers: int | None = None,
) -> Estimate:
    """How long `workbench.balance_study.run_study` takes on these settings at this machine's pace: the match of A
    against B, the power curve under each policy asked for (with the hand-made decks and, with auto decks, with
    them too, as `workbench.verdicts.power_curve_runs` runs it) and the matchups (one pair at a time, so below
    `PARALLEL_THRESHOLD` matches a pair on one core unless a pair takes `PARALLEL_SECONDS` there)."""
    from workbench.simulate import simulate

    engine = cardset.ruleset.engine
    if engine is None or not decks:
        return Estimate(None, "No time estimate: no engine or no deck to play.")
    deck_a, deck_b = decks[0], decks[1] if len(decks) > 1 else decks[0]
    base = [cardset.content_hash(), _options_key(options), _decks_key(decks)]

    def count() -> tuple[int | None, int | None, int | None, int | None]:
        from workbench.run_settings import RunSettings

        match = first_report(
            lambda progress: simulate(
                cardset, deck_a, deck_b, settings.matches, RunSettings(options=options, progress=progress)
            )
        )
        curve = settings.with_power_curve
        per_card = settings.matches_per_card
        hand = _curve_matches(cardset, decks, per_card, options, 0) if curve else 0
        auto = (
            _curve_matches(cardset, decks, per_card, options, settings.auto_decks)
            if curve and settings.auto_decks
            else 0
        )
        pairs = (
            _pair_matches(cardset, decks, settings.matches, options) if settings.with_matchups and len(decks) > 1 else 0
        )
        return match, hand, auto, pairs

    key = [
        "study",
        *base,
        settings.matches,
        settings.matches_per_card,
        settings.with_power_curve,
        settings.auto_decks,
        settings.with_matchups,
    ]
    match, hand, auto, pairs = _remembered(key, count)
    if match is None or hand is None or auto is None or pairs is None:
        return _uncounted("this simulation")
    parts = [Part("the match", match, (settings.policy_a, settings.policy_b), match)]
    for policy in settings.curve_policies if settings.with_power_curve else []:
        label = "the power curve" if policy == settings.policy_a else f"the power curve under {policy}"
        parts.append(Part(label, hand, (policy,), hand))
        if auto:
            parts.append(Part(f"{label} with auto decks", auto, (policy,), auto))
    if pairs:
        parts.append(Part("the matchups", pairs, (settings.policy_a,), settings.matches, note="one pair at a time"))
    on_top = CURVE_ALONE if settings.with_power_curve else MATCHES_ALONE
    return run_estimate(cardset.ruleset_id, engine.version, parts, on_top, workers)


def health_estimate(
    cardset: CardSet,
    decks: Sequence[Deck],
    matches_per_pair: int,
    policy: str,
    options: Mapping[str, OptionValue | str] | None = None,
    workers: int | None = None,
) -> Estimate:
    """How long the game health check (`workbench.health.game_health`: every ordered pair of the decks, one pair at a
    time) takes at this machine's pace."""
    engine = cardset.ruleset.engine
    if engine is None or not decks:
        return Estimate(None, "No time estimate: no engine or no deck to play.")
    key = ["health", cardset.content_hash(), _options_key(options), _decks_key(decks), matches_per_pair]
    pairs = _remembered(key, lambda: _pair_matches(cardset, decks, matches_per_pair, options))
    if pairs is None:
        return _uncounted("this health check")
    part = Part("the health check", pairs, (policy,), matches_per_pair, note="one pair at a time")
    return run_estimate(cardset.ruleset_id, engine.version, [part], MATCHES_ALONE, workers)


def proposals_estimate(
    cardset: CardSet,
    decks: Sequence[Deck],
    matches_per_card: int,
    evaluations: int,
    policy: str,
    options: Mapping[str, OptionValue | str] | None = None,
    workers: int | None = None,
) -> Estimate:
    """The most a patch-proposal search (`workbench.propose.propose` at its other defaults) takes at this machine's
    pace: up to `evaluations` + 1 measured sets (the set as given, then the candidates), each a power curve without
    a second look or suggested-cost checks, with its match-ups at `SEARCH_MATCHES_PER_PAIR`. Proving the front on a
    new seed (up to `max_proofs` + 1 more power curves and match-ups) comes on top, and the words say so."""
    from workbench.propose import SEARCH_MATCHES_PER_PAIR

    engine = cardset.ruleset.engine
    if engine is None or not decks:
        return Estimate(None, "No time estimate: no engine or no deck to play.")
    played = list({deck.name: deck for deck in decks}.values())  # match-ups play each deck once, as propose does
    key = ["proposals", cardset.content_hash(), _options_key(options), _decks_key(decks), matches_per_card]

    def count() -> tuple[int | None, int | None]:
        return (
            _curve_matches(cardset, decks, matches_per_card, options, 0),
            _pair_matches(cardset, played, SEARCH_MATCHES_PER_PAIR, options),
        )

    curve, pairs = _remembered(key, count)
    if curve is None or pairs is None:
        return _uncounted("this proposal search")
    sets = evaluations + 1
    parts = [
        Part("the power curves", sets * curve, (policy,), curve, note=f"{sets:,} sets of {curve:,}"),
        Part("their match-ups", sets * pairs, (policy,), SEARCH_MATCHES_PER_PAIR, note="one pair at a time"),
    ]
    on_top = (
        "loading (or compiling) the engine, starting the workers and proving the best proposals on a new seed (a few "
        "more power curves) come on top"
    )
    return run_estimate(cardset.ruleset_id, engine.version, parts, on_top, workers, at_most=True)


WHOLE_GAMES_ALONE = "loading the engine comes on top"
"""What a run of whole games leaves out."""


def whole_games_estimate(cardset: CardSet, games: int, policy: str, others: str | None = None) -> Estimate:
    """How long `workbench.full_game.run_full_games` takes: `games` whole games at the figure of these seats'
    policies, on every core from the runner's `PARALLEL_GAMES` on (`whole_games_parallel_from`), else in this
    process."""
    if cardset.ruleset.engine is None:
        return Estimate(None, "No time estimate: no engine.")
    return _whole_games_run(cardset, "the whole games", games, whole_game_policy(policy, others))


def _whole_games_run(cardset: CardSet, label: str, games: int, seats: str, note: str = "") -> Estimate:
    """The estimate of one run of `games` whole games at the figure of the seats' policies (`whole_game_policy`), on
    the cores its runner uses (`whole_games_parallel_from`)."""
    from workbench.full_game import whole_games_parallel_from

    parallel_from = whole_games_parallel_from(cardset.ruleset)
    part = Part(label, games, (seats,), games, WHOLE_GAMES, parallel_from=parallel_from, note=note)
    return run_estimate(cardset.ruleset_id, whole_game_version(cardset.ruleset), [part], WHOLE_GAMES_ALONE)


def whole_game_power_estimate(
    cardset: CardSet,
    options: Mapping[str, OptionValue | str] | None,
    games: int,
    policy: str,
    rivals: str,
) -> Estimate:
    """How long `workbench.full_game.full_game_power` takes: `games` whole games with every store card in the store,
    then `games` more without each store card (its progress counts `games x (store cards + 1)`), on every core from
    the runner's `PARALLEL_GAMES` on."""
    from workbench.full_game import store_cards_of

    engine = cardset.ruleset.engine
    if engine is None:
        return Estimate(None, "No time estimate: no engine.")
    key = ["whole game store", cardset.content_hash(), _options_key(options)]

    def count() -> int | None:
        try:
            return len(store_cards_of(cardset, options))
        except WorkbenchInputError:
            return None

    store = _remembered(key, count)
    if store is None:
        return _uncounted("this power curve")
    played = games * (store + 1)
    note = f"{store + 1} runs of {games:,}"
    return _whole_games_run(cardset, "the power curve", played, whole_game_policy(policy, rivals), note)
