"""Whole games of a market game (`--option game=full`): the one entry the command line, the app and the reports call.

A ruleset whose rule options offer `game=full` and whose package plays whole games (today Millennium Blades:
`workbench/rulesets/blades/market_runs.py`) is run from here, so no page or command computes a rule:

- `run_full_games`: many whole games from one seed; final VP per seat with its parts (tournament, collections,
  money, friendship) and per round, each with a 95% interval, the game-health figures and the store on the buy-cost
  axis;
- `full_game_power`: each store card's power in the whole game on the buy-cost axis;
- `full_game_sweep`: one card's set at each buy cost.

Each result carries its provenance (`meta`): ruleset and engine versions, market version, rule options, seed, games,
policies, card-set hash and workbench version. `FULL_GAME_DEFAULTS` is the one place the whole game's default counts
live (the CLI's `--matches` / `--matches-per-card` and the app's inputs read it). This module's top imports nothing
heavy, so the command line builds its help from it without loading the simulator.

Layers: this module sits above `workbench.simulate` and `workbench.analysis` and reads only their public names; which
rulesets play whole games lives below both, in `workbench.full_game_registry` (re-exported here), so the simulator
never asks this module. The simulator, the analysis, `workbench.judging`, `workbench.rulesets`, pandas and numpy are
imported inside the functions that use them, and only there: each loads numpy, pandas or Numba (hundreds of
milliseconds), and the command line imports this module at start.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from workbench.cards import CardSet, OptionValue, WorkbenchInputError
from workbench.full_game_registry import (  # noqa: F401 - is_full_game is read from here too
    FULL_GAME_MODULES,
    FULL_GAME_RUNNERS,
    is_full_game,
    supports_full_game,
)

if TYPE_CHECKING:
    import pandas as pd

    from workbench.judging import Decision, VerdictRule
    from workbench.rulesets.base import Ruleset

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True)
class FullGameDefaults:
    """The whole game's counts when a person does not choose them (the CLI and the app read these)."""

    games: int = 100
    """Whole games of `simulate --option game=full` and of the app's whole-game run. Measured on the bundled set with
    four greedy seats (`simulate blades/blades_sample --option game=full --matches 100 --seed 1`, load 6-8): 14-18
    games a second, final VP intervals about ±3 VP per seat; the tournament's 10,000 matches as whole games would
    take about ten minutes."""
    health_games: int = 400
    """Whole games of `health --option game=full`. Why 400: the first seat's win share is a share of games, so its
    95% interval is about ±4.2 points at four seats (fair 25%) and ±4.9 at two; only an interval narrower than the
    healthy band's five points each side of fair can lie wholly outside it, so fewer games could never warn of an
    advantage of about ten points. Measured on the bundled set with four greedy seats (`health blades/blades_sample
    --option game=full`, seed 0): 21 seconds of one core (about 19 games a second), 70 seconds of wall time on two
    cores shared at load 6; `--matches` chooses another count."""
    games_per_card: int = 50
    """Whole games per store card of `power-curve --option game=full` (played twice: with the card and without).
    On the bundled set 60 games a card gave intervals of about ±2.2 VP (docs/rulesets/blades.md), so 50 gives about
    ±2.4."""
    games_per_value: int = 50
    """Whole games per buy cost of `sweep --option game=full --field buy_cost`."""
    min_buy_share: float = 0.10
    """A store card seat A bought in fewer than this share of the power curve's games with its copies in the store
    is `rarely bought`: no verdict (the whole game's `min_play_share`). Why 10%: with 50 games per card that is 5
    games; in the others the card's power comes from the deals that hand it out free, the store's other draws and
    the rivals' use of it, none of which depends on its buy cost. Measured on the bundled set (`power-curve
    blades/blades_sample --option game=full`, seed 0): Cathedral Engine, bought by seat A in 1 of 50 games, read
    -2.4 VP with an interval wholly below 0."""
    tolerance_vp: float = 1.0
    """The whole game's verdict tolerance, in final VP (its power is a change in VP, not a share of a score as the
    tournament's is, so the tournament's 0.02 would mean nothing here): one VP, the smallest step the game scores
    in. A store card is over or under only beyond its band plus this, on curve only when shown within it."""
    policy: str = "greedy"
    """Seat A's market policy."""
    power_rivals: str = "random"
    """The other seats' policy in the power curve when seat A is greedy: against seats of its own policy seat A's VP
    moves only by chance (the tournament chart pays out the same VP whatever the cards)."""

    def rivals_for_power(self, policy: str) -> str:
        """The other seats' policy in the power curve: `power_rivals` against greedy, greedy against search (search
        seats among search seats would cost every rival's clashes too, for a figure that moves only by chance), else
        the same policy."""
        if policy == "greedy":
            return self.power_rivals
        return "greedy" if policy == "search" else policy


FULL_GAME_DEFAULTS = FullGameDefaults()
"""The one set of whole-game defaults."""

Progress = Callable[[int, int], None]
"""`progress(done, total)` after every whole game."""

RARELY_BOUGHT = "rarely bought"
"""The flag of a store card seat A bought in fewer than `min_buy_share` of its games: not measured, no verdict."""
NO_INTERVAL = "no interval"
"""The flag of every card when one game per card was played: a single difference has no 95% interval to judge."""
NOT_JUDGED = (RARELY_BOUGHT, NO_INTERVAL)
"""The flags of cards kept out of the fitted line and the tier means (the verdicts are over, under, on curve)."""


def _runner(ruleset: Ruleset) -> Any:
    if not supports_full_game(ruleset):
        from workbench.rulesets import RULESETS  # here, not at the top: loads every ruleset (see the docstring)

        titles = " or ".join(RULESETS[i].title for i in FULL_GAME_RUNNERS if i in RULESETS)
        raise WorkbenchInputError(
            f"--option game=full is a {titles} option; this set is {ruleset.id}.",
            expected="a " + " or ".join(FULL_GAME_RUNNERS) + " card set",
        )
    return importlib.import_module(FULL_GAME_RUNNERS[ruleset.id])


def whole_games_parallel_from(ruleset: Ruleset) -> int:
    """The fewest whole games in one run that the ruleset's runner plays on worker processes (its `PARALLEL_GAMES`)."""
    return int(_runner(ruleset).PARALLEL_GAMES)


def _resolved(cardset: CardSet, options: Mapping[str, OptionValue | str] | None) -> dict[str, OptionValue]:
    """The options resolved, with `game=full` (every entry here plays whole games)."""
    resolved = cardset.ruleset.resolve_options({**(options or {}), "game": "full"})
    return dict(resolved)


def _meta(
    cardset: CardSet, resolved: Mapping[str, OptionValue], seed: int, games: int, policies: Sequence[str]
) -> dict[str, Any]:
    """The provenance stamp: `workbench.simulate.provenance` plus the whole game's rules version."""
    from workbench.simulate import provenance  # here, not at the top: loads pandas and Numba (see the docstring)

    engine = cardset.ruleset.engine
    assert engine is not None  # a ruleset with whole games has a tournament engine
    meta = provenance(cardset, engine, resolved, seed, games, policies)
    meta["market_version"] = importlib.import_module(FULL_GAME_MODULES[cardset.ruleset.id]).MARKET_VERSION
    return meta


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal interval (NaN bounds from one value)."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = sum(values) / n
    if n < 2:
        return mean, math.nan, math.nan
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


PARTS = ("total", "tournament", "collections", "money", "friendship")
"""Final VP and its parts, in the order the tables show them."""


@dataclass
class FullGames:
    """Many whole games of one card set, from one seed."""

    meta: dict[str, Any]
    """Provenance (`_meta`), with the engine's findings about the set."""
    summary: dict[str, Any]
    """Per seat: mean final VP, its parts, VP by round, win share; game health; speed (the runner's summary)."""
    stores: list[dict[str, Any]]
    """Per store card: buy cost, stars, copies, copies bought per game, opening value per dollar."""
    per_game: dict[str, list[list[float]]] = field(default_factory=dict)
    """Per part (`PARTS`, and `tournament R1`.. / `collections R1`..): per seat, the value of each game (for the
    intervals)."""
    round_labels: list[str] = field(default_factory=list)
    """The tournaments in order: `pre-release` (with that option), `R1`, `R2`, ..."""
    records: dict[str, Any] = field(default_factory=dict)
    """What the game's health reads of each game, in plain numbers (the runner's `health_records`: per game the
    first seat, final VP and places, tournaments played and VP after each; per store card the games it was bought
    in); empty for a runner without it."""

    def json(self) -> dict[str, Any]:
        """What `simulate --option game=full --format json` prints."""
        return {**self.meta, **self.summary, "store_cards": self.stores}

    def lines(self) -> list[str]:
        """The text the command line prints after its provenance line."""
        runner = importlib.import_module(FULL_GAME_RUNNERS[self.meta["ruleset"]])
        return [*runner.summary_lines(self.summary), *runner.store_lines(self.stores)]

    def seat_frame(self) -> pd.DataFrame:
        """One row per seat and part: mean VP over the games, 95% interval."""
        import pandas as pd

        rows = []
        for p, seat in enumerate(self.summary["seats"]):
            for part in PARTS:
                mean, low, high = interval(self.per_game[part][p])
                rows.append(
                    {"seat": seat["seat"], "policy": seat["policy"], "part": part, "vp": mean, "low": low, "high": high}
                )
        return pd.DataFrame(rows, columns=["seat", "policy", "part", "vp", "low", "high"])

    def seat_table(self) -> pd.DataFrame:
        """One row per seat: each part's mean with its interval in words, dollars left and win share."""
        import pandas as pd

        frame = self.seat_frame()
        rows = []
        for seat in self.summary["seats"]:
            row: dict[str, Any] = {"seat": seat["seat"], "policy": seat["policy"]}
            for part in PARTS:
                cell = frame[(frame["seat"] == seat["seat"]) & (frame["part"] == part)].iloc[0]
                row[part] = float(cell["vp"])
                row[f"{part} 95%"] = interval_text(float(cell["vp"]), float(cell["low"]), float(cell["high"]))
            row["dollars_left"] = seat["dollars_left"]
            row["win_share"] = seat["win_share"]
            rows.append(row)
        return pd.DataFrame(rows)

    def round_frame(self) -> pd.DataFrame:
        """One row per seat and tournament: tournament VP and the round's collection VP (none after a pre-release
        tournament), each with its 95% interval."""
        import pandas as pd

        rows = []
        for p, seat in enumerate(self.summary["seats"]):
            for label in self.round_labels:
                t, t_low, t_high = interval(self.per_game[f"tournament {label}"][p])
                c, c_low, c_high = (
                    interval(self.per_game[f"collections {label}"][p])
                    if f"collections {label}" in self.per_game
                    else (math.nan, math.nan, math.nan)
                )
                rows.append(
                    {
                        "seat": seat["seat"],
                        "round": label,
                        "tournament": t,
                        "tournament_low": t_low,
                        "tournament_high": t_high,
                        "collections": c,
                        "collections_low": c_low,
                        "collections_high": c_high,
                    }
                )
        return pd.DataFrame(rows)

    def stores_frame(self) -> pd.DataFrame:
        """The store cards on the buy-cost axis."""
        import pandas as pd

        return pd.DataFrame(self.stores)

    def health_rows(self) -> list[tuple[str, Any]]:
        """The game-health figures as (label, value) pairs."""
        health = self.summary["health"]
        return [
            ("first seat's win share", health["first_seat_win_share"]),
            ("fair win share", health["fair_win_share"]),
            ("dollars left per seat", health["dollars_left_mean"]),
            ("store cards never bought (share)", health["store_cards_never_bought_share"]),
            ("store cards never bought", ", ".join(health["store_cards_never_bought"]) or "none"),
            ("cards short in deals per game", health["cards_short_in_deals_mean"]),
        ]


def interval_text(value: float, low: float, high: float) -> str:
    """`59.2 [55.1, 63.3]`, or the mean alone without an interval (one game)."""
    if math.isnan(value):
        return ""
    return f"{value:.1f}" if math.isnan(low) else f"{value:.1f} [{low:.1f}, {high:.1f}]"


def run_full_games(
    cardset: CardSet,
    options: Mapping[str, OptionValue | str] | None = None,
    games: int | None = None,
    seed: int = 0,
    policy: str = FULL_GAME_DEFAULTS.policy,
    policy_b: str | None = None,
    progress: Progress | None = None,
    workers: int | None = None,
) -> FullGames:
    """`games` whole games (default `FULL_GAME_DEFAULTS.games`) of the set, seat A playing `policy`, the other seats
    `policy_b` (default: the same). Game k plays from `SeedSequence(seed).spawn(games)[k]`, the same games on any
    number of `workers` (default: every core; a run of fewer than the runner's `PARALLEL_GAMES` plays here)."""
    runner = _runner(cardset.ruleset)
    resolved = _resolved(cardset, options)
    count = FULL_GAME_DEFAULTS.games if games is None else games
    runs = runner.play_full_games(cardset, resolved, count, seed, policy, policy_b, progress, workers)
    meta = _meta(cardset, resolved, seed, count, runs.policies)
    meta["engine_findings"] = [f.to_json() for f in runs.cards.findings]
    summary = runs.summary()
    result = FullGames(meta, summary, runner.store_figures(runs))
    n = runs.players
    results = runs.results
    result.per_game = {
        "total": [[float(r.total[p]) for r in results] for p in range(n)],
        "tournament": [[float(sum(r.tournament_vp[p])) for r in results] for p in range(n)],
        "collections": [[float(sum(r.collection_vp[p])) for r in results] for p in range(n)],
        "money": [[float(r.money_vp[p]) for r in results] for p in range(n)],
        "friendship": [[float(r.friendship_vp[p]) for r in results] for p in range(n)],
    }
    tournaments = summary["rounds"]
    collection_rounds = len(summary["seats"][0]["collections_by_round"]) if summary["seats"] else 0
    # With a pre-release tournament there is one tournament more than deckbuilding rounds, and it comes first.
    offset = tournaments - collection_rounds
    labels = ["pre-release"] * offset + [f"R{k + 1}" for k in range(collection_rounds)]
    result.round_labels = labels
    if hasattr(runner, "health_records"):
        result.records = runner.health_records(runs)
    # A Duel Mode game ends when a seat has won two tournaments: a round's figures are over the games that played it.
    for k, label in enumerate(labels):
        result.per_game[f"tournament {label}"] = [
            [float(r.tournament_vp[p][k]) for r in results if len(r.tournament_vp[p]) > k] for p in range(n)
        ]
        if k >= offset:
            result.per_game[f"collections {label}"] = [
                [float(r.collection_vp[p][k - offset]) for r in results if len(r.collection_vp[p]) > k - offset]
                for p in range(n)
            ]
    return result


def full_game_trace(
    cardset: CardSet,
    options: Mapping[str, OptionValue | str] | None = None,
    seed: int = 0,
    policy: str = FULL_GAME_DEFAULTS.policy,
    policy_b: str | None = None,
) -> list[str]:
    """Game 0 of the seed (the first game `run_full_games` plays), every market action and tournament event."""
    runner = _runner(cardset.ruleset)
    return list(runner.trace_full_game(cardset, _resolved(cardset, options), seed, policy, policy_b))


TRACE_MAX_LINES = 3_000
"""The most lines of game 0's trace a report holds. Measured on the bundled set (`full_game_trace`, seeds 0-4):
259 to 721 lines for two to five greedy seats (16 to 41 KB), and 1,811 lines (90 KB) for five random seats at 200
actions a timer segment, the most the ledger allows. So 3,000 keeps every trace of the bundled set whole, while a set
whose games run far longer still cannot make a report of more than 3,000 rows of text (about 150 KB at the traces'
50 characters a line) beside its charts."""
TRACE_LINE_CHARS = 1_000
"""The most characters of one trace line a report keeps. The longest measured is 278 (a fusion names up to nine
cards); card names are bounded only by a cell (32,767 characters), so nine long names could pass a spreadsheet cell's
own limit without this."""


@dataclass
class GameTrace:
    """Game 0 of a run of whole games, action by action, bounded for a report."""

    lines: list[str]
    """At most `TRACE_MAX_LINES` lines, each at most `TRACE_LINE_CHARS` characters (a cut line ends in "…")."""
    total_lines: int
    """The lines the game's trace had."""
    seed: int
    """The run's seed: game 0 plays from `SeedSequence(seed).spawn(games)[0]`."""
    policies: list[str]
    """Policy by seat."""

    @property
    def cut(self) -> bool:
        """True when lines were left out or cut short."""
        return self.total_lines > len(self.lines) or any(line.endswith("…") for line in self.lines)

    def note(self) -> str:
        """What the trace is, and what was left out, in words."""
        said = (
            f"Game 0 of seed {self.seed} (policies {', '.join(self.policies)}), every market action and tournament "
            f"event: {self.total_lines:,} lines"
        )
        if self.total_lines > len(self.lines):
            said += (
                f"; a report holds at most {TRACE_MAX_LINES:,}, so the middle is left out and the last "
                f"{TRACE_TAIL_LINES} (the final score) are kept"
            )
        if any(line.endswith("…") for line in self.lines):
            said += f"; a line longer than {TRACE_LINE_CHARS:,} characters is cut short (…)"
        return f"{said}. `workbench simulate --option game=full --trace` with the same seed prints it whole."


TRACE_TAIL_LINES = 40
"""Lines kept from the end of a trace too long for a report: the last tournament and the final score (a 5-seat game
ends in about 25)."""


def bounded_trace(lines: Sequence[str], seed: int, policies: Sequence[str]) -> GameTrace:
    """A trace cut to `TRACE_MAX_LINES` lines of at most `TRACE_LINE_CHARS` characters each: a longer one keeps its
    beginning and its last `TRACE_TAIL_LINES` (the final score), with one line saying how many were left out."""
    chosen = list(lines)
    if len(chosen) > TRACE_MAX_LINES:
        head = TRACE_MAX_LINES - TRACE_TAIL_LINES - 1
        left_out = len(chosen) - head - TRACE_TAIL_LINES
        chosen = [*chosen[:head], f"… {left_out:,} lines left out …", *chosen[-TRACE_TAIL_LINES:]]
    kept = [line if len(line) <= TRACE_LINE_CHARS else line[: TRACE_LINE_CHARS - 1] + "…" for line in chosen]
    return GameTrace(kept, len(lines), seed, list(policies))


def report_trace(
    cardset: CardSet,
    options: Mapping[str, OptionValue | str] | None,
    seed: int,
    policies: Sequence[str],
) -> GameTrace:
    """Game 0's trace of a run whose seats played `policies` (seat A the first, the others the last), bounded."""
    lines = full_game_trace(cardset, options, seed, policies[0], policies[-1])
    return bounded_trace(lines, seed, policies)


@dataclass
class FullGamePower:
    """Each store card's power in the whole game, on the buy-cost axis, with its verdict."""

    meta: dict[str, Any]
    """Provenance, with `games` per card, `cost_axis` = buy cost and `min_buy_share`."""
    rows: list[dict[str, Any]]
    """Per store card, by buy cost: card, set, buy_cost, stars, power, low, high (95%), bought (the share of the
    games with its copies in the store in which seat A bought one), bought_any (any seat), flag (over, under, on
    curve, or `rarely bought` / `no interval`: not judged), suggested_buy_cost (None unless the line rises with buy
    cost) and reason (the flag in words)."""
    line: dict[str, Any] = field(default_factory=dict)
    """The Theil-Sen line of power on buy cost over the judged cards: intercept, slope, slope_low, slope_high (Sen's
    95% interval; None with fewer than two judged buy costs) and rises (the whole interval above 0)."""
    tiers: list[dict[str, Any]] = field(default_factory=list)
    """Per buy cost: cards judged, their mean power and its interval (`workbench.analysis` tiers)."""

    @property
    def policy(self) -> str:
        """Seat A's policy."""
        return str(self.meta["policies"][0])

    @property
    def rivals(self) -> str:
        """The other seats' policy."""
        return str(self.meta["policies"][1])

    @property
    def min_buy_share(self) -> float:
        """The bought share under which a card is `rarely bought`."""
        return float(self.meta.get("min_buy_share", FULL_GAME_DEFAULTS.min_buy_share))

    def statement(self) -> str:
        """How power was measured, in words (the CLI's second line)."""
        return (
            f"power = seat A's ({self.policy}) mean final VP with the card's copies in the store minus with them "
            f"replaced by its set's other cards, against {self.rivals} seats, the same seeds both ways; cost axis: "
            "buy cost"
        )

    def flagged(self, flag: str) -> list[str]:
        """The cards with this flag, by buy cost."""
        return [str(row["card"]) for row in self.rows if row.get("flag") == flag]

    def line_statement(self) -> str:
        """What the fitted line says, in words: whether a dearer buy cost buys more VP, and so whether buy costs are
        suggested."""
        low, high, slope = self.line.get("slope_low"), self.line.get("slope_high"), float(self.line.get("slope", 0.0))
        if low is None or high is None:
            return (
                "The judged cards have fewer than two different buy costs, so no line of power on buy cost can be "
                "fitted: each card is judged against the other judged cards of its buy cost, and no buy cost is "
                "suggested."
            )
        interval = f"95% interval {low:+.3f} to {high:+.3f}"
        if self.line.get("rises"):
            return (
                f"Power rises with buy cost: {slope:+.3f} VP per dollar ({interval}). A card above or below its buy "
                "cost's band is over or under; its suggested buy cost is where the line meets its power."
            )
        trend = (
            f"falls by {abs(slope):.3f} VP per dollar"
            if slope < 0
            else "is flat"
            if slope == 0
            else f"rises by {slope:.3f} VP per dollar, but the interval includes 0"
        )
        # workbench.judging bands a card on the line only where it rises; else on its buy cost's other cards.
        against = (
            "the mean power of the other judged cards of the same buy cost (a card alone at its buy cost has no "
            "comparator)"
        )
        return (
            f"Power does not rise with buy cost here: the fitted line {trend} ({interval}). Paying more in the store "
            f"does not buy seat A ({self.policy}) more final VP against {self.rivals} seats, so no buy cost is "
            f"suggested; over and under are judged against {against}."
        )

    def rarely_bought_statement(self) -> str | None:
        """How many cards seat A bought too seldom to be judged, and the threshold; None when none."""
        names = self.flagged(RARELY_BOUGHT)
        if not names:
            return None
        from workbench.analysis import threshold_text  # here, not at the top: loads pandas (see the docstring)

        shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
        return (
            f"{len(names)} of {len(self.rows)} store cards were bought by seat A ({self.policy}) in fewer than "
            f"{threshold_text(self.min_buy_share)} of the games with their copies in the store ({shown}): rarely "
            "bought, so not judged (their power then comes from the free deals and the rivals' use of them, not "
            "from paying their buy cost: no verdict, no suggested buy cost, left out of the line and the tier "
            "means); each one's reason says why."
        )

    def statements(self) -> list[str]:
        """The sentences shown above the curve: the line's, then the rarely bought cards' (if any), then a run of one
        game per card's."""
        single = (
            "One game per card gives no 95% interval, so no card is judged: play two or more games per card."
            if self.rows and all(row.get("flag") == NO_INTERVAL for row in self.rows)
            else None
        )
        return [self.line_statement(), *filter(None, [self.rarely_bought_statement(), single])]

    def json(self) -> dict[str, Any]:
        """What `power-curve --option game=full --format json` prints."""
        return {
            **self.meta,
            "cost_axis": "buy cost",
            "line": self.line,
            "tiers": self.tiers,
            "statements": self.statements(),
            # One game per card has no interval: null, not NaN (which is not JSON).
            "cards": [
                {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in r.items()} for r in self.rows
            ],
        }

    def lines(self) -> list[str]:
        """The table the command line prints, then each card's reason for its flag."""
        runner = importlib.import_module(FULL_GAME_RUNNERS[self.meta["ruleset"]])
        lines = list(runner.power_lines(self.rows))
        if self.rows and "flag" in self.rows[0]:
            lines = [
                f"{line}  {row['flag']}" if index else f"{line}  flag"
                for index, (line, row) in enumerate(zip(lines, [{}, *self.rows], strict=True))
            ]
            lines += ["", "why:"] + [f"  {row['card']}: {row['flag']}: {row['reason']}" for row in self.rows]
        return lines

    def frame(self) -> pd.DataFrame:
        """The rows as a table, with `sign` after the interval: above / below 0 when the interval lies wholly there
        (whether the card helps seat A at all, beside its verdict on its buy cost), and the verdict's stability and
        q-value after its flag where the rows carry them."""
        import pandas as pd

        columns = ["card", "set", "buy_cost", "stars", "power", "low", "high", "bought", "bought_any", "flag"]
        # The decision's figures (`workbench.judging`), where the rows carry them.
        columns += [c for c in ("stability", "q_value") if any(c in row for row in self.rows)]
        columns += ["suggested_buy_cost", "reason"]
        frame = pd.DataFrame(self.rows, columns=columns)
        frame.insert(
            columns.index("high") + 1,
            "sign",
            [
                "above 0" if low > 0 else "below 0" if high < 0 else "within noise"
                for low, high in zip(frame["low"], frame["high"], strict=True)
            ],
        )
        return frame


def check_min_buy_share(share: float) -> float:
    """The bought share under which a card is `rarely bought`, checked: from 0 (judge every card) below 1."""
    if not (isinstance(share, (int, float)) and not isinstance(share, bool) and 0 <= share < 1):
        raise WorkbenchInputError(
            f"{share!r} is not a bought-share threshold.",
            expected="a share of games from 0 up to (not including) 1, e.g. 0.1 for 10%",
        )
    return float(share)


def judge_power(
    rows: Sequence[Mapping[str, Any]],
    games: int,
    min_buy_share: float,
    policy: str,
    rivals: str,
    rule: VerdictRule | None = None,
    seed: int = 0,
) -> tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:
    """Each store card's verdict on the buy-cost axis, decided as the tournament's power curve decides it
    (`workbench.judging`: a leave-one-out line or tier comparator with its own uncertainty, the tolerance, the
    false-discovery control, the equivalence test; stability from resamples of each card's interval, as the whole
    game keeps no per-game scores). A card seat A bought in fewer than `min_buy_share` of the games is `rarely
    bought` and one game per card gives `no interval`: neither is judged nor in the line. Returns
    (rows with flag, suggested_buy_cost, stability, q_value and reason; the line; the tiers)."""
    import numpy as np
    import pandas as pd

    # Here, not at the top: these load numpy, pandas and Numba (see the docstring).
    from workbench.analysis import share_text, tier_means
    from workbench.judging import OVER, UNDER, Measured, VerdictRule, decide_with_stability, normal_resampler

    rule = rule or VerdictRule(tolerance=FULL_GAME_DEFAULTS.tolerance_vp)
    power = np.array([float(r["power"]) for r in rows])
    low = np.array([float(r["low"]) for r in rows])
    high = np.array([float(r["high"]) for r in rows])
    cost = np.array([float(r["buy_cost"]) for r in rows])
    bought = [float(r.get("bought", math.nan)) for r in rows]
    rare = np.array([not math.isnan(b) and b < min_buy_share for b in bought], dtype=bool)
    no_interval = np.isnan(low) | np.isnan(high)
    se = np.where(no_interval, math.nan, (high - low) / (2 * Z95))
    # Unlike a rarely played tournament card, a rarely bought store card gets no verdict even when its power is
    # clear: its power then comes from the free deals and the rivals' use of it, so it measures nothing about the
    # buy cost the verdict is on.
    measured = Measured(
        names=[str(r["card"]) for r in rows],
        cost=cost,
        power=power,
        se=se,
        judged=~no_interval & ~rare,
        in_line=~no_interval & ~rare,
    )
    decision = decide_with_stability(measured, rule, normal_resampler(power, np.nan_to_num(se)), seed)
    line = decision.line
    judged_costs = cost[~no_interval & ~rare].tolist()
    dearest_bought = max(judged_costs) if judged_costs else None
    out = []
    for i, (row, b) in enumerate(zip(rows, bought, strict=True)):
        any_share = float(row.get("bought_any", math.nan))
        of_games = f"of the {games:,} games with its copies in the store"
        by_any = "" if math.isnan(any_share) else f", by any seat in {share_text(any_share)}"
        bought_text = "" if math.isnan(b) else f"bought by seat A in {share_text(b)} {of_games}{by_any}"
        flag, suggested = decision.flag[i], None
        if no_interval[i]:
            flag = NO_INTERVAL
            reason = "one game per card gives no 95% interval, so no verdict" + (
                f"; {bought_text}" if bought_text else ""
            )
        elif rare[i]:
            flag = RARELY_BOUGHT
            reason = _rarely_bought_reason(row, b, any_share, games, policy, rivals, dearest_bought)
        else:
            reason = _decision_words(decision, i, rule, power[i], low[i], high[i], cost[i], games)
            if flag in (OVER, UNDER) and decision.basis[i] == "line":
                # The whole game cannot replay one card at another buy cost yet, so the line's cost is said, not
                # suggested: a suggestion is only given where it was measured.
                meets = round((power[i] - decision.line_intercept[i]) / decision.line_slope[i])
                reason += (
                    f"; the line meets its power at buy cost {meets:g}, not measured at that cost, so no buy cost is "
                    "suggested"
                )
            reason += f"; {bought_text}" if bought_text else ""
        stability = decision.stability[i] if len(decision.stability) else math.nan
        if not math.isnan(stability):
            reason += f"; {flag} in {round(stability * decision.resamples)} of {decision.resamples} resamples"
        out.append(
            {
                **row,
                "flag": flag,
                "suggested_buy_cost": suggested,
                "stability": None if math.isnan(stability) else float(stability),
                "q_value": None if math.isnan(decision.q_value[i]) else float(decision.q_value[i]),
                "reason": reason,
            }
        )
    line_json = {
        "intercept": line.intercept,
        "slope": line.slope,
        "slope_low": line.slope_low,
        "slope_high": line.slope_high,
        "rises": line.rises,
    }
    judged = pd.DataFrame({"cost": cost, "power": power, "low": low, "high": high})[~no_interval & ~rare]
    tiers = [
        {
            "buy_cost": float(t["cost"]),
            "cards": int(t["cards"]),
            "mean_power": t["mean_power"],
            "low": t["low"],
            "high": t["high"],
        }
        for t in tier_means(judged).to_dict("records")
    ]
    return out, line_json, tiers


def _decision_words(
    decision: Decision, i: int, rule: VerdictRule, power: float, low: float, high: float, cost: float, games: int
) -> str:
    """The decision in words, with the tournament curve's sentences (`workbench.analysis`)."""
    from types import SimpleNamespace

    from workbench.analysis import verdict_words  # here, not at the top: loads pandas (see the docstring)

    row = SimpleNamespace(power=power, low=low, high=high, cost=cost, matches=games)
    return verdict_words(row, decision, i, rule, "buy cost", unit="games", budget=games)


def _rarely_bought_reason(
    row: Mapping[str, Any],
    bought: float,
    bought_any: float,
    games: int,
    policy: str,
    rivals: str,
    dearest_judged: float | None,
) -> str:
    """Why a store card is not measured, in words: who bought it, how often, and what seat A does buy."""
    from workbench.analysis import share_text  # here, not at the top: loads pandas (see the docstring)

    in_store = f"the {games:,} games with its copies in the store"
    dearer = (
        f"; it costs more than any judged card (the dearest costs {dearest_judged:g})"
        if dearest_judged is not None and float(row["buy_cost"]) > dearest_judged
        else ""
    )
    # A store card also reaches the seats free, in the deals (six cards a seat a round from the store), so a card
    # nobody buys can still move seat A's VP: that power is real but says nothing about its buy cost.
    if not math.isnan(bought_any) and bought_any == 0:
        return (
            f"bought by no seat in {in_store}, at its buy cost of {row['buy_cost']}{dearer}: it reached the seats "
            "only free, in the deals, so its power (those deals and the store's other draws) does not depend on its "
            "buy cost and is no verdict on it"
        )
    count = round(bought * games)
    others = "" if math.isnan(bought_any) else f", by any seat in {share_text(bought_any)}"
    return (
        f"bought by seat A ({policy}) in {share_text(bought)} of {in_store} ({count:,} game{'' if count == 1 else 's'})"
        f"{others}{dearer}: its power comes mostly from the deals that hand it out free, the store's other draws and "
        f"the {rivals} seats' use of it, not from a seat paying its buy cost, so it is no verdict on that cost"
    )


def full_game_power(
    cardset: CardSet,
    options: Mapping[str, OptionValue | str] | None = None,
    games: int | None = None,
    seed: int = 0,
    policy: str = FULL_GAME_DEFAULTS.policy,
    policy_b: str | None = None,
    progress: Progress | None = None,
    min_buy_share: float = FULL_GAME_DEFAULTS.min_buy_share,
    rule: VerdictRule | None = None,
    workers: int | None = None,
) -> FullGamePower:
    """Each store card's change in seat A's mean final VP with its copies in the store against replaced by its
    set-mates, `games` games each way (default `FULL_GAME_DEFAULTS.games_per_card`); the other seats play `policy_b`
    (default `FULL_GAME_DEFAULTS.rivals_for_power(policy)`). Each card is judged on the buy-cost axis (`judge_power`,
    with `rule`'s tolerance): over / under / on curve / undecided / no comparator, or `rarely bought` when seat A
    bought it in fewer than `min_buy_share` of the games and it is not clearly over or under. The games play on
    `workers` processes (default: every core), the same games on any number."""
    min_buy_share = check_min_buy_share(min_buy_share)
    runner = _runner(cardset.ruleset)
    resolved = _resolved(cardset, options)
    count = FULL_GAME_DEFAULTS.games_per_card if games is None else games
    rivals = FULL_GAME_DEFAULTS.rivals_for_power(policy) if policy_b is None else policy_b
    rows = runner.store_power(cardset, resolved, count, seed, policy, rivals, progress, workers)
    judged, line, tiers = judge_power(rows, count, min_buy_share, policy, rivals, rule, seed)
    meta = _meta(cardset, resolved, seed, count, [policy, rivals])
    meta["min_buy_share"] = min_buy_share
    from workbench.judging import VerdictRule  # here, not at the top: loads numpy (see the docstring)

    chosen = rule or VerdictRule(tolerance=FULL_GAME_DEFAULTS.tolerance_vp)
    meta["verdict_rule"] = {
        "tolerance": chosen.tolerance,
        "false_discovery_rate": chosen.false_discovery_rate,
        "resamples": chosen.resamples,
    }
    return FullGamePower(meta, judged, line, tiers)


@dataclass
class FullGameSweep:
    """One card's set at each buy cost, whole games at each."""

    meta: dict[str, Any]
    """Provenance, with `games` per value, `card` and `field` = buy_cost."""
    rows: list[dict[str, Any]]
    """Per value: buy_cost, bought_per_game, set_bought_per_game, games_with_a_copy_bought, value_per_dollar,
    mean_total_vp, dollars_left."""

    @property
    def card(self) -> str:
        """The card whose set was swept."""
        return str(self.meta["card"])

    def json(self) -> dict[str, Any]:
        """What `sweep --option game=full --format json` prints."""
        return {**self.meta, "points": self.rows}

    def lines(self) -> list[str]:
        """The table the command line prints."""
        runner = importlib.import_module(FULL_GAME_RUNNERS[self.meta["ruleset"]])
        return list(runner.sweep_lines(self.card, self.rows))

    def frame(self) -> pd.DataFrame:
        """The rows as a table."""
        import pandas as pd

        return pd.DataFrame(self.rows)

    def stops_at(self) -> int | None:
        """The lowest swept buy cost from which on (in the order swept) the card was never bought, or None."""
        stop = None
        for row in reversed(self.rows):
            if row["bought_per_game"] != 0:
                break
            stop = int(row["buy_cost"])
        return stop


def full_game_sweep(
    cardset: CardSet,
    options: Mapping[str, OptionValue | str] | None,
    card: str,
    values: Sequence[int | float],
    games: int | None = None,
    seed: int = 0,
    policy: str = FULL_GAME_DEFAULTS.policy,
    policy_b: str | None = None,
    progress: Progress | None = None,
    workers: int | None = None,
) -> FullGameSweep:
    """The card's set at each buy cost in `values`, `games` games each (default `FULL_GAME_DEFAULTS.games_per_value`),
    the same seeds at every value, on `workers` processes (default: every core)."""
    runner = _runner(cardset.ruleset)
    resolved = _resolved(cardset, options)
    count = FULL_GAME_DEFAULTS.games_per_value if games is None else games
    rows = runner.buy_cost_sweep(
        cardset, resolved, card, list(values), count, seed, policy, policy_b, progress, workers
    )
    meta = _meta(cardset, resolved, seed, count, [policy])
    meta["card"] = card
    meta["field"] = "buy_cost"
    return FullGameSweep(meta, rows)


def store_cards_of(cardset: CardSet, options: Mapping[str, OptionValue | str] | None = None) -> list[str]:
    """The names of the cards the whole game's store sells, by buy cost then name (what a buy-cost sweep can vary)."""
    _runner(cardset.ruleset)  # says which rulesets have whole games when this one has none
    market = importlib.import_module(FULL_GAME_MODULES[cardset.ruleset.id])
    cards = market.compile_market(cardset, _resolved(cardset, options))
    ids = sorted(set(cards.store_cards), key=lambda i: (int(cards.price[i]), cards.cards[i].name))
    return [cards.cards[i].name for i in ids]


def buy_cost_of(cardset: CardSet, card: str, options: Mapping[str, OptionValue | str] | None = None) -> int:
    """The buy cost the whole game charges for the card (its set's)."""
    _runner(cardset.ruleset)
    market = importlib.import_module(FULL_GAME_MODULES[cardset.ruleset.id])
    cards = market.compile_market(cardset, _resolved(cardset, options))
    index = next((i for i, c in enumerate(cards.cards) if c.name.casefold() == card.casefold()), None)
    if index is None:
        raise WorkbenchInputError(f"the set has no card '{card}'.", expected="a card name from the set")
    return int(cards.price[index])


def full_game_policies(ruleset: Ruleset) -> list[str]:
    """The market policies a seat can play in the ruleset's whole game."""
    return list(_runner(ruleset).MARKET_POLICIES)
