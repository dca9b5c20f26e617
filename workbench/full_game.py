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
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from workbench.cards import CardSet, OptionValue, WorkbenchInputError

if TYPE_CHECKING:
    import pandas as pd

    from workbench.rulesets.base import Ruleset

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True)
class FullGameDefaults:
    """The whole game's counts when a person does not choose them (the CLI and the app read these)."""

    games: int = 100
    """Whole games of `simulate --option game=full` and of the app's whole-game run. Measured on the bundled set with
    four seats (`run_full_games(sample, {}, 100, 0)`, warm): 16.2 s, 6.2 games a second, final VP intervals about
    ±3 VP per seat; the tournament's 10,000 matches as whole games would take about half an hour."""
    games_per_card: int = 50
    """Whole games per store card of `power-curve --option game=full` (played twice: with the card and without).
    On the bundled set 60 games a card gave intervals of about ±2.2 VP (docs/rulesets/blades.md), so 50 gives about
    ±2.4."""
    games_per_value: int = 50
    """Whole games per buy cost of `sweep --option game=full --field buy_cost`."""
    policy: str = "greedy"
    """Seat A's market policy."""
    power_rivals: str = "random"
    """The other seats' policy in the power curve when seat A is greedy: against seats of its own policy seat A's VP
    moves only by chance (the tournament chart pays out the same VP whatever the cards)."""

    def rivals_for_power(self, policy: str) -> str:
        """The other seats' policy in the power curve: `power_rivals` against greedy, else the same policy."""
        return self.power_rivals if policy == "greedy" else policy


FULL_GAME_DEFAULTS = FullGameDefaults()
"""The one set of whole-game defaults."""

FULL_GAME_RUNNERS: dict[str, str] = {"blades": "workbench.rulesets.blades.market_runs"}
"""Ruleset id -> the module that plays its whole games (`play_full_games`, `store_power`, `buy_cost_sweep`, ...)."""

FULL_GAME_MODULES: dict[str, str] = {"blades": "workbench.rulesets.blades.market"}
"""Ruleset id -> the module of the whole game's rules, whose `MARKET_VERSION` every result carries."""

Progress = Callable[[int, int], None]
"""`progress(done, total)` after every whole game."""


def supports_full_game(ruleset: Ruleset) -> bool:
    """True when the ruleset plays whole games: a runner module and a rule option `game` offering `full`."""
    option = next((o for o in ruleset.options if o.key == "game"), None)
    return ruleset.id in FULL_GAME_RUNNERS and option is not None and "full" in (option.choices or ())


def is_full_game(ruleset: Ruleset, options: Mapping[str, Any] | None) -> bool:
    """True when these rule options ask the ruleset for whole games (`game=full`)."""
    return supports_full_game(ruleset) and options is not None and str(options.get("game", "")) == "full"


def _runner(ruleset: Ruleset) -> Any:
    if not supports_full_game(ruleset):
        from workbench.rulesets import RULESETS

        titles = " or ".join(RULESETS[i].title for i in FULL_GAME_RUNNERS if i in RULESETS)
        raise WorkbenchInputError(
            f"--option game=full is a {titles} option; this set is {ruleset.id}.",
            expected="a " + " or ".join(FULL_GAME_RUNNERS) + " card set",
        )
    return importlib.import_module(FULL_GAME_RUNNERS[ruleset.id])


def _resolved(cardset: CardSet, options: Mapping[str, OptionValue | str] | None) -> dict[str, OptionValue]:
    """The options resolved, with `game=full` (every entry here plays whole games)."""
    resolved = cardset.ruleset.resolve_options({**(options or {}), "game": "full"})
    return dict(resolved)


def _meta(
    cardset: CardSet, resolved: Mapping[str, OptionValue], seed: int, games: int, policies: Sequence[str]
) -> dict[str, Any]:
    """The provenance stamp: `workbench.simulate.provenance` plus the whole game's rules version."""
    from workbench.simulate import provenance

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
) -> FullGames:
    """`games` whole games (default `FULL_GAME_DEFAULTS.games`) of the set, seat A playing `policy`, the other seats
    `policy_b` (default: the same). Game k plays from `SeedSequence(seed).spawn(games)[k]`."""
    runner = _runner(cardset.ruleset)
    resolved = _resolved(cardset, options)
    count = FULL_GAME_DEFAULTS.games if games is None else games
    runs = runner.play_full_games(cardset, resolved, count, seed, policy, policy_b, progress)
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


@dataclass
class FullGamePower:
    """Each store card's power in the whole game, on the buy-cost axis."""

    meta: dict[str, Any]
    """Provenance, with `games` per card and `cost_axis` = buy cost."""
    rows: list[dict[str, Any]]
    """Per store card: card, set, buy_cost, stars, power, low, high (95%)."""

    @property
    def policy(self) -> str:
        """Seat A's policy."""
        return str(self.meta["policies"][0])

    @property
    def rivals(self) -> str:
        """The other seats' policy."""
        return str(self.meta["policies"][1])

    def statement(self) -> str:
        """How power was measured, in words (the CLI's second line)."""
        return (
            f"power = seat A's ({self.policy}) mean final VP with the card's copies in the store minus with them "
            f"replaced by its set's other cards, against {self.rivals} seats, the same seeds both ways; cost axis: "
            "buy cost"
        )

    def json(self) -> dict[str, Any]:
        """What `power-curve --option game=full --format json` prints."""
        return {**self.meta, "cost_axis": "buy cost", "cards": self.rows}

    def lines(self) -> list[str]:
        """The table the command line prints."""
        return list(importlib.import_module(FULL_GAME_RUNNERS[self.meta["ruleset"]]).power_lines(self.rows))

    def frame(self) -> pd.DataFrame:
        """The rows as a table, with a verdict against zero: above / below when the interval lies wholly there."""
        import pandas as pd

        frame = pd.DataFrame(self.rows, columns=["card", "set", "buy_cost", "stars", "power", "low", "high"])
        frame["sign"] = [
            "above 0" if low > 0 else "below 0" if high < 0 else "within noise"
            for low, high in zip(frame["low"], frame["high"], strict=True)
        ]
        return frame


def full_game_power(
    cardset: CardSet,
    options: Mapping[str, OptionValue | str] | None = None,
    games: int | None = None,
    seed: int = 0,
    policy: str = FULL_GAME_DEFAULTS.policy,
    policy_b: str | None = None,
    progress: Progress | None = None,
) -> FullGamePower:
    """Each store card's change in seat A's mean final VP with its copies in the store against replaced by its
    set-mates, `games` games each way (default `FULL_GAME_DEFAULTS.games_per_card`); the other seats play `policy_b`
    (default `FULL_GAME_DEFAULTS.rivals_for_power(policy)`)."""
    runner = _runner(cardset.ruleset)
    resolved = _resolved(cardset, options)
    count = FULL_GAME_DEFAULTS.games_per_card if games is None else games
    rivals = FULL_GAME_DEFAULTS.rivals_for_power(policy) if policy_b is None else policy_b
    rows = runner.store_power(cardset, resolved, count, seed, policy, rivals, progress)
    return FullGamePower(_meta(cardset, resolved, seed, count, [policy, rivals]), rows)


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
) -> FullGameSweep:
    """The card's set at each buy cost in `values`, `games` games each (default `FULL_GAME_DEFAULTS.games_per_value`),
    the same seeds at every value."""
    runner = _runner(cardset.ruleset)
    resolved = _resolved(cardset, options)
    count = FULL_GAME_DEFAULTS.games_per_value if games is None else games
    rows = runner.buy_cost_sweep(cardset, resolved, card, list(values), count, seed, policy, policy_b, progress)
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
