"""Many whole games (`market.py`) from one seed: per-seat and per-round VP with their parts, and game health.

Pure: numpy only. Game k draws from `MarketRng.from_sequence(SeedSequence(seed).spawn(games)[k])`, so a game depends
on the seed and its index alone, and a run gives the same games on one process or many (`play_game_runs`: from
`PARALLEL_GAMES` games on, pieces of `PIECE_GAMES` go to the worker processes `workbench.simulate` uses too).
"""

from __future__ import annotations

import dataclasses
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

import numpy as np

from workbench.cards import CardSet, OptionValue, WorkbenchInputError
from workbench.jobs import default_workers, gather_in_order, local_pool
from workbench.rulesets.blades import market_segments
from workbench.rulesets.blades.market import (
    CHARACTERS,
    SEATS,
    GameResult,
    MarketCards,
    compile_market,
    new_game,
    play_game,
)
from workbench.rulesets.blades.market_policy import MARKET_POLICIES, Appraisal, make_policy
from workbench.rulesets.blades.market_rng import MarketRng

MAX_GAMES = 100_000
"""The most whole games one run plays."""
GameProgress = Callable[[int, int], None]
"""Called as `progress(done, total)` after every whole game (the app's progress bar and Cancel); on worker
processes, after every piece of `PIECE_GAMES` and every `PATIENCE_SECONDS` while one is awaited."""
PARALLEL_GAMES = 200
"""From this many whole games in one run on, they play on worker processes. Fewer play in this process: starting a
worker costs seconds: in a fresh process, importing the workbench took 0.6-0.7 s and its first game (loading the
engine from the cache) 0.2 s, before the spawn itself. With greedy's compiled appraisal 200 games are about where
the two break even (`workbench simulate blades/blades_sample --option game=full --matches N --seed 1 --workers W`,
2026-11-30, 2 cores, wall clock, two rounds): a greedy seat against random ones, 200 games 4.12 / 4.08 s on one
process and 4.05 / 3.96 s on two, 300 games 5.51 / 5.38 s and 4.63 / 4.72 s; four greedy seats, 200 games 3.24 /
3.09 s and 3.44 / 3.38 s, 400 games 4.67 / 4.60 s and 4.15 / 4.09 s."""
PIECE_GAMES = 25
"""Whole games per piece sent to a worker: about a third of a second of greedy play, small enough
that two workers end together and a Cancel is heard soon, large enough that sending the cards (82 KB pickled)
costs nothing."""
PATIENCE_SECONDS = 0.25
"""How often a run waiting on its workers reports its progress anyway (a raising progress is the app's Cancel)."""
GameRun = tuple[MarketCards, int, int]
"""One configuration of a run: the cards (with their store), the seed and the number of games (`play_game_runs`)."""


def seat_policies(policy: str, players: int, policy_b: str | None = None) -> list[str]:
    """Seat A plays `policy`, every other seat `policy_b` (default: the same)."""
    for name in (policy, policy_b or policy):
        if name not in MARKET_POLICIES:
            raise WorkbenchInputError(
                f"unknown policy '{name}' for the whole game.", expected=" or ".join(MARKET_POLICIES)
            )
    return [policy] + [policy_b or policy] * (players - 1)


def game_rngs(seed: int, games: int) -> list[MarketRng]:
    """One independent generator per game, seeded from NumPy's SeedSequence.spawn (`MarketRng.from_sequence`)."""
    return [MarketRng.from_sequence(child) for child in np.random.SeedSequence(seed).spawn(games)]


def play_one(
    cards: MarketCards, rng: MarketRng, policies: Sequence[str], trace: bool = False
) -> tuple[GameResult, list[str]]:
    """One whole game with fresh policy objects; its timer segments compiled when every seat is greedy or random
    (`market_segments.run_segments`: the same games as the Python market's)."""
    return play_game(
        cards,
        rng,
        [make_policy(name) for name in policies],
        [MARKET_POLICIES.index(n) for n in policies],
        trace,
        market_segments.run_segments,
    )


@dataclass
class FullGameRuns:
    """The results of many whole games of one card set."""

    cards: MarketCards
    """The compiled card set."""
    policies: list[str]
    """Policy by seat."""
    seed: int
    """The run's seed."""
    results: list[GameResult]
    """One result per game, in order."""
    seconds: float
    """Wall time of the games (for games per second)."""

    @property
    def players(self) -> int:
        """Seats per game."""
        return len(self.policies)

    def summary(self) -> dict[str, Any]:
        """Per seat: mean final VP and its parts, mean VP by round, win share; game health; speed."""
        n = self.players
        games = len(self.results)
        # A Duel Mode game ends early when a seat wins two tournaments: per-round means are over the games that
        # played the round.
        rounds = max((len(r.tournament_vp[0]) for r in self.results), default=0)
        collection_rounds = max((len(r.collection_vp[0]) for r in self.results), default=0)
        duel = games > 0 and self.results[0].duel
        seats = []
        for p in range(n):
            tournament = np.array([sum(r.tournament_vp[p]) for r in self.results], dtype=float)
            collections = np.array([sum(r.collection_vp[p]) for r in self.results], dtype=float)
            money = np.array([r.money_vp[p] for r in self.results], dtype=float)
            friendship = np.array([r.friendship_vp[p] for r in self.results], dtype=float)
            total = np.array([r.total[p] for r in self.results], dtype=float)
            wins = np.array([1.0 / sum(1 for x in r.rank if x == 1) if r.rank[p] == 1 else 0.0 for r in self.results])
            seats.append(
                {
                    "seat": SEATS[p],
                    "policy": self.policies[p],
                    "total": float(total.mean()),
                    "total_sd": float(total.std()),
                    "tournament": float(tournament.mean()),
                    "collections": float(collections.mean()),
                    "money": float(money.mean()),
                    "dollars_left": float(np.mean([r.money[p] for r in self.results])),
                    "friendship": float(friendship.mean()),
                    "win_share": float(wins.mean()),
                    "tournament_by_round": [
                        float(np.mean([r.tournament_vp[p][k] for r in self.results if len(r.tournament_vp[p]) > k]))
                        for k in range(rounds)
                    ],
                    "collections_by_round": [
                        float(np.mean([r.collection_vp[p][k] for r in self.results if len(r.collection_vp[p]) > k]))
                        for k in range(collection_rounds)
                    ],
                }
            )
            if duel:
                seats[-1].update(duel_seat(self.results, p, rounds))
        bought = np.sum([r.bought for r in self.results], axis=0) if games else np.zeros(0)
        store_ids = sorted(set(self.cards.store_cards))
        never = [self.cards.cards[i].name for i in store_ids if bought[i] == 0]
        first_wins = np.mean(
            [1.0 / sum(1 for x in r.rank if x == 1) if r.rank[r.first_seat] == 1 else 0.0 for r in self.results]
        )
        lengths = [len(r.tournament_vp[0]) for r in self.results]
        by_character = character_figures(self.results)
        return {
            **({"characters": by_character} if by_character else {}),
            "games": games,
            "players": n,
            "seed": self.seed,
            "policies": self.policies,
            "rounds": rounds,
            "two_player_rules": "duel" if duel else ("normal" if n == 2 else None),
            "tournaments_played": {str(k): lengths.count(k) / games for k in sorted(set(lengths))},
            "games_per_second": games / self.seconds if self.seconds > 0 else None,
            "seats": seats,
            "health": {
                "first_seat_win_share": float(first_wins),
                "fair_win_share": 1.0 / n,
                "cards_short_in_deals_mean": float(np.mean([r.short for r in self.results])),
                "dollars_left_mean": float(np.mean([np.mean(r.money) for r in self.results])),
                "store_cards_never_bought": never,
                "store_cards_never_bought_share": len(never) / len(store_ids) if store_ids else 0.0,
                "copies_bought": {self.cards.cards[i].name: int(bought[i]) for i in store_ids},
            },
        }


def character_figures(results: Sequence[GameResult]) -> list[dict[str, Any]]:
    """Per character dealt in the games (option `characters`): seats that played it, their mean final VP (in Duel
    Mode tournaments won) with its standard deviation, and their share of wins; empty without characters."""
    totals: dict[int, list[float]] = {}
    wins: dict[int, list[float]] = {}
    for r in results:
        winners = sum(1 for x in r.rank if x == 1)
        for p, character in enumerate(r.characters):
            totals.setdefault(character, []).append(float(r.total[p]))
            wins.setdefault(character, []).append(1.0 / winners if r.rank[p] == 1 else 0.0)
    return [
        {
            "character": CHARACTERS[c].name,
            "seats": len(totals[c]),
            "total": float(np.mean(totals[c])),
            "total_sd": float(np.std(totals[c])),
            "win_share": float(np.mean(wins[c])),
        }
        for c in sorted(totals)
    ]


def character_lines(summary: Mapping[str, Any]) -> list[str]:
    """The per-character figures as text (none without characters)."""
    rows = summary.get("characters") or []
    if not rows:
        return []
    unit = "tournaments won" if summary.get("two_player_rules") == "duel" else "final VP"
    lines = [f"by character (seats dealt it, mean {unit} with its standard deviation, share of wins):"]
    for row in rows:
        lines.append(
            f"  {row['character']:<18}{row['seats']:>6}{row['total']:>8.1f} (sd {row['total_sd']:.1f})"
            f"{row['win_share']:>8.1%}"
        )
    return lines


def play_full_games(
    cardset: CardSet,
    options: Mapping[str, OptionValue],
    games: int,
    seed: int,
    policy: str = "greedy",
    policy_b: str | None = None,
    progress: GameProgress | None = None,
    workers: int | None = None,
) -> FullGameRuns:
    """`games` whole games of `options["players"]` seats, seat A playing `policy`, the others `policy_b`;
    `progress(done, games)` after each game (or piece of games: `play_game_runs`, on `workers` processes)."""
    check_games(games)
    cards = compile_market(cardset, options)
    policies = seat_policies(policy, int(options["players"]), policy_b)
    started = time.perf_counter()
    results = play_game_runs([(cards, seed, games)], policies, progress, workers)[0]
    return FullGameRuns(cards, policies, seed, results, time.perf_counter() - started)


def warm_whole_game(cardset: CardSet, options: Mapping[str, OptionValue]) -> None:
    """Compile (or load from Numba's cache) what a whole game compiles beside the tournament engine: greedy's
    appraisal (`appraisal_kernels`), by appraising seat A's opening binder once, and the compiled timer segments
    (`market_kernels`), by playing the opening state's first segment, then a round's three segments, with a greedy
    seat A and random others.
    `workbench warm blades` and the app's background warm-up call it in a second process while they compile the
    engine, then again after it (loading what that process compiled), so a designer's first whole-game run does not
    wait for it."""
    cards = compile_market(cardset, options)
    players = int(options["players"])
    state = new_game(cards, MarketRng(0), [0] * players)
    Appraisal(state, 0)
    policies = [make_policy("greedy")] + [make_policy("random")] * (players - 1)
    market_segments.run_segment(state, policies)
    market_segments.run_segments(state, policies)


def check_games(games: int) -> None:
    """An error unless 1 <= games <= MAX_GAMES."""
    if not 1 <= games <= MAX_GAMES:
        raise WorkbenchInputError(f"{games} whole games is out of range.", expected=f"1 to {MAX_GAMES:,} games")


def play_game_runs(
    runs: Sequence[GameRun],
    policies: Sequence[str],
    progress: GameProgress | None = None,
    workers: int | None = None,
) -> list[list[GameResult]]:
    """Every run's games (`games` from `seed`, on its cards), in order: the same games whatever `workers` is.

    With `workers` above 1 (default: every core) and at least `PARALLEL_GAMES` games in all, game 0 plays here first,
    so the tournament engine is compiled (or loaded) once and the workers load it from Numba's cache instead of each
    compiling it; the rest go to the worker processes in pieces of `PIECE_GAMES`. A worker keeps the cards of a run,
    with what greedy derives from them alone (`MarketCards.memo`) and the tournament engine's tables, across its
    pieces, as one process does across its games, and shares them between the runs whose cards share `memo` here:
    such cards must differ in their store alone (as `dataclasses.replace(cards, store_cards=...)` makes them)."""
    total = sum(games for _, _, games in runs)
    done = 0
    results: list[list[GameResult]] = [[] for _ in runs]
    workers = default_workers() if workers is None else max(1, workers)
    if workers == 1 or total < PARALLEL_GAMES:
        for index, (cards, seed, games) in enumerate(runs):
            for rng in game_rngs(seed, games):
                results[index].append(play_one(cards, rng, policies)[0])
                done += 1
                if progress is not None:
                    progress(done, total)
        return results
    seeds = [np.random.SeedSequence(seed).spawn(games) for _, seed, games in runs]
    if progress is not None:
        progress(0, total)
    results[0].append(play_one(runs[0][0], MarketRng.from_sequence(seeds[0][0]), policies)[0])
    done = 1
    if progress is not None:
        progress(done, total)
    # The cards go to every piece without what greedy derived from them: a worker keeps the first it gets of a token.
    tokens: dict[int, str] = {}
    pieces: list[tuple[int, int, int]] = []
    for index, (cards, _, games) in enumerate(runs):
        tokens.setdefault(id(cards.memo), uuid.uuid4().hex)
        start = 1 if index == 0 else 0
        pieces += [(index, at, min(games, at + PIECE_GAMES)) for at in range(start, games, PIECE_GAMES)]
    pool = local_pool(workers)
    futures: list[Future[list[GameResult]] | None] = [
        pool.submit(
            play_piece,
            dataclasses.replace(runs[index][0], memo={}),
            tokens[id(runs[index][0].memo)],
            seeds[index][start:stop],
            tuple(policies),
        )
        for index, start, stop in pieces
    ]

    def take(position: int, played: list[GameResult]) -> None:
        results[pieces[position][0]].extend(played)

    gather_in_order(
        futures, [stop - start for _, start, stop in pieces], take, progress, done, total, workers, PATIENCE_SECONDS
    )
    return results


_WORKER_CARDS: OrderedDict[str, MarketCards] = OrderedDict()
"""In a worker process: the first cards of each run token it was sent, the last `WORKER_RUNS` runs' (a memo can hold
megabytes)."""
WORKER_RUNS = 4
"""Run tokens whose cards a worker keeps."""


def play_piece(
    cards: MarketCards, token: str, seeds: Sequence[np.random.SeedSequence], policies: Sequence[str]
) -> list[GameResult]:
    """In a worker: the games of `seeds` on `cards`' store, with the tournament tables and the memo of the cards first
    sent with `token` (`play_game_runs`: the cards that share a token differ in their store only), so the tables the
    tournament engine makes of a card table (`workbench.rulesets.blades.engine`) are made once a run, not a piece."""
    kept = _WORKER_CARDS.get(token)
    if kept is None:
        kept = _WORKER_CARDS[token] = cards
        while len(_WORKER_CARDS) > WORKER_RUNS:
            _WORKER_CARDS.popitem(last=False)
    played = dataclasses.replace(kept, store_cards=cards.store_cards)
    return [play_one(played, MarketRng.from_sequence(seed), policies)[0] for seed in seeds]


def trace_full_game(
    cardset: CardSet, options: Mapping[str, OptionValue], seed: int, policy: str = "greedy", policy_b: str | None = None
) -> list[str]:
    """Game 0 of the seed, every market action and tournament event as a line."""
    cards = compile_market(cardset, options)
    policies = seat_policies(policy, int(options["players"]), policy_b)
    _, lines = play_one(cards, game_rngs(seed, 1)[0], policies, trace=True)
    return lines


def duel_seat(results: Sequence[GameResult], p: int, rounds: int) -> dict[str, Any]:
    """Duel Mode figures of seat p: mean tournaments won, RP (with collections) and collection RP per game, and per
    round the share of games whose tournament the seat won and its mean RP in the games that played the round."""
    return {
        "tournaments_won": float(np.mean([sum(r.tournament_vp[p]) for r in results])),
        "rp": float(np.mean([sum(r.tournament_rp[p]) for r in results])),
        "collection_rp": float(np.mean([sum(r.collection_rp[p]) for r in results])),
        "won_by_round": [
            float(np.mean([r.tournament_vp[p][k : k + 1] == [1] for r in results])) for k in range(rounds)
        ],
        "rp_by_round": [
            float(np.mean([r.tournament_rp[p][k] for r in results if len(r.tournament_rp[p]) > k]))
            for k in range(rounds)
        ],
    }


def duel_lines(summary: Mapping[str, Any]) -> list[str]:
    """A Duel Mode summary as text: per seat tournaments won, RP and win share, then per round, then game length."""
    lines = [
        f"{summary['games']} whole game(s), 2 players by Duel Mode (the first to win two tournaments), seed "
        f"{summary['seed']}, policies {', '.join(summary['policies'])}; mean per seat:",
        f"{'seat':<5}{'policy':<8}{'t. won':>8}{'RP':>8}{'coll.RP':>8}{'$ left':>8}{'wins':>8}",
    ]
    for seat in summary["seats"]:
        lines.append(
            f"{seat['seat']:<5}{seat['policy']:<8}{seat['tournaments_won']:>8.2f}{seat['rp']:>8.1f}"
            f"{seat['collection_rp']:>8.1f}{seat['dollars_left']:>8.1f}{seat['win_share']:>8.1%}"
        )
    lines.append("per round (tournament won, share of games / mean RP with collections, games that played it):")
    for seat in summary["seats"]:
        pairs = zip(seat["won_by_round"], seat["rp_by_round"], strict=True)
        lines.append(
            f"  {seat['seat']}: " + "; ".join(f"R{k + 1} {w:.0%} / {rp:.1f}" for k, (w, rp) in enumerate(pairs))
        )
    played = summary["tournaments_played"]
    lines.append("game length: " + ", ".join(f"{k} tournaments in {v:.0%}" for k, v in played.items()))
    return lines


def summary_lines(summary: Mapping[str, Any]) -> list[str]:
    """The summary as text: per seat final VP with its parts, then per round, then game health."""
    if summary.get("two_player_rules") == "duel":
        return [*duel_lines(summary), *character_lines(summary), *health_lines(summary)]
    lines = [
        f"{summary['games']} whole game(s), {summary['players']} players, seed {summary['seed']}, policies "
        f"{', '.join(summary['policies'])}; mean VP per seat:",
        f"{'seat':<5}{'policy':<8}{'total':>8}{'tourn.':>8}{'coll.':>8}{'money':>8}{'friend.':>8}{'$ left':>8}"
        f"{'wins':>8}",
    ]
    for seat in summary["seats"]:
        lines.append(
            f"{seat['seat']:<5}{seat['policy']:<8}{seat['total']:>8.1f}{seat['tournament']:>8.1f}"
            f"{seat['collections']:>8.1f}{seat['money']:>8.1f}{seat['friendship']:>8.1f}{seat['dollars_left']:>8.1f}"
            f"{seat['win_share']:>8.1%}"
        )
    lines.append("per round (tournament VP / collection VP):")
    for seat in summary["seats"]:
        tournaments, collections = seat["tournament_by_round"], seat["collections_by_round"]
        # With a pre-release tournament there is one tournament more than deckbuilding rounds, and it comes first.
        offset = len(tournaments) - len(collections)
        parts = [f"pre-release {t:.1f}" for t in tournaments[:offset]]
        pairs = zip(tournaments[offset:], collections, strict=True)
        parts += [f"R{k + 1} {t:.1f} / {c:.1f}" for k, (t, c) in enumerate(pairs)]
        lines.append(f"  {seat['seat']}: " + "; ".join(parts))
    return lines + character_lines(summary) + health_lines(summary)


def health_lines(summary: Mapping[str, Any]) -> list[str]:
    """Game health and speed as text."""
    lines = []
    health = summary["health"]
    lines.append(
        f"health: first seat wins {health['first_seat_win_share']:.1%} (fair {health['fair_win_share']:.1%}); "
        f"dollars left {health['dollars_left_mean']:.1f} per seat; store cards never bought "
        f"{health['store_cards_never_bought_share']:.0%}"
        + (f" ({', '.join(health['store_cards_never_bought'])})" if health["store_cards_never_bought"] else "")
        + f"; cards short in deals (store and discard empty) {health['cards_short_in_deals_mean']:.1f} per game"
    )
    if summary.get("games_per_second"):
        lines.append(f"speed: {summary['games_per_second']:.1f} whole games per second")
    return lines


def opening_value_per_dollar(cards: MarketCards) -> dict[int, float]:
    """Per store card: what it is worth to a seat holding only its opening cards (greedy's appraisal: deck value,
    collection value or resale, in dollars) per dollar of its store price. Averaged over the starter sets."""
    players = int(cards.options["players"])
    ratios: dict[int, list[float]] = {c: [] for c in set(cards.store_cards)}
    for starter in range(len(cards.starters)):
        state = new_game(cards, MarketRng(starter), [0] * players)
        seat = state.seats[0]
        seat.binder = list(cards.starters[starter])
        appraisal = Appraisal(state, 0)
        for c in ratios:
            ratios[c].append(appraisal.worth(c) / max(int(cards.price[c]), 1))
    return {c: float(np.mean(v)) for c, v in ratios.items()}


def store_figures(runs: FullGameRuns) -> list[dict[str, Any]]:
    """Per store card, on the buy-cost axis: buy cost, stars, copies in the store, copies bought from the store per
    game, and the opening value per dollar (`opening_value_per_dollar`)."""
    cards = runs.cards
    games = max(len(runs.results), 1)
    bought = np.sum([r.bought for r in runs.results], axis=0)
    per_dollar = opening_value_per_dollar(cards)
    rows = []
    for c in sorted(set(cards.store_cards), key=lambda i: (int(cards.price[i]), cards.cards[i].name)):
        card = cards.cards[c]
        rows.append(
            {
                "card": card.name,
                "set": card.set,
                "buy_cost": int(cards.price[c]),
                "stars": card.stars,
                "copies": card.copies,
                "bought_per_game": float(bought[c]) / games,
                "value_per_dollar": per_dollar[c],
            }
        )
    return rows


def with_set_buy_cost(cardset: CardSet, card_name: str, value: int) -> CardSet:
    """A copy of the set in which every card of `card_name`'s set costs `value` (a set has one buy cost)."""
    from workbench.cards import CardEntry

    target = next((e for e in cardset.entries if e.card.name.casefold() == card_name.casefold()), None)
    if target is None:
        raise WorkbenchInputError(f"the set has no card '{card_name}'.", expected="a card name from the set")
    set_key = " ".join(target.card.set.casefold().split())  # type: ignore[attr-defined]
    entries = []
    for entry in cardset.entries:
        card = entry.card
        if " ".join(card.set.casefold().split()) == set_key:  # type: ignore[attr-defined]
            card = cardset.ruleset.card_adapter.validate_python({**card.model_dump(), "buy_cost": value})
            entry = CardEntry(card, entry.row)
        entries.append(entry)
    return dataclasses.replace(cardset, entries=entries)


def buy_cost_sweep(
    cardset: CardSet,
    options: Mapping[str, OptionValue],
    card_name: str,
    values: Sequence[int | float],
    games: int,
    seed: int,
    policy: str = "greedy",
    policy_b: str | None = None,
    progress: GameProgress | None = None,
    workers: int | None = None,
) -> list[dict[str, Any]]:
    """The card's set at each buy cost, the same seeds each time: how often the card and its set are bought, the
    opening value per dollar, and the seats' mean final VP and dollars left. Where `bought_per_game` reaches 0 the
    card has stopped being bought. `progress(done, total)` counts the games of every value."""
    check_games(games)
    for value in values:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise WorkbenchInputError(f"buy cost {value!r} is not a whole number >= 0.", expected="0, 1, 2, ...")
    policies = seat_policies(policy, int(options["players"]), policy_b)
    compiled = [compile_market(with_set_buy_cost(cardset, card_name, int(value)), options) for value in values]
    played = play_game_runs([(cards, seed, games) for cards in compiled], policies, progress, workers)
    rows = []
    for value, cards, results in zip(values, compiled, played, strict=True):
        card = next(i for i, c in enumerate(cards.cards) if c.name.casefold() == card_name.casefold())
        members = [i for i in set(cards.store_cards) if cards.set_of[i] == cards.set_of[card]]
        bought = np.sum([r.bought for r in results], axis=0)
        per_dollar = opening_value_per_dollar(cards)
        rows.append(
            {
                "buy_cost": value,
                "bought_per_game": float(bought[card]) / games,
                "set_bought_per_game": float(sum(bought[i] for i in members)) / games,
                "games_with_a_copy_bought": float(np.mean([r.bought[card] > 0 for r in results])),
                "value_per_dollar": per_dollar.get(card, 0.0),
                "mean_total_vp": float(np.mean([np.mean(r.total) for r in results])),
                "dollars_left": float(np.mean([np.mean(r.money) for r in results])),
            }
        )
    return rows


def store_lines(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """`store_figures` as text, one line per set (copies-weighted), on the buy-cost axis."""
    sets: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        sets.setdefault(str(row["set"]), []).append(row)
    lines = [f"{'store set':<24}{'buy cost':>9}{'avg stars':>10}{'bought/game':>12}{'value/$':>9}"]
    for name, members in sorted(sets.items(), key=lambda item: (item[1][0]["buy_cost"], item[0])):
        copies = sum(int(m["copies"]) for m in members)
        stars = sum(int(m["stars"]) * int(m["copies"]) for m in members) / copies
        per_dollar = sum(float(m["value_per_dollar"]) * int(m["copies"]) for m in members) / copies
        bought = sum(float(m["bought_per_game"]) for m in members)
        lines.append(f"{name[:23]:<24}{members[0]['buy_cost']:>9}{stars:>10.2f}{bought:>12.2f}{per_dollar:>9.2f}")
    return lines


def sweep_lines(card: str, rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """`buy_cost_sweep` as text."""
    lines = [
        f"{card}: its set's buy cost swept (the same seeds at every value)",
        f"{'buy_cost':>8}{'card bought/game':>18}{'set bought/game':>17}{'games bought':>14}{'value/$':>9}"
        f"{'mean VP':>9}{'$ left':>8}",
    ]
    for row in rows:
        lines.append(
            f"{row['buy_cost']:>8}{row['bought_per_game']:>18.2f}{row['set_bought_per_game']:>17.2f}"
            f"{row['games_with_a_copy_bought']:>14.0%}{row['value_per_dollar']:>9.2f}{row['mean_total_vp']:>9.1f}"
            f"{row['dollars_left']:>8.1f}"
        )
    # The lowest swept cost from which on (in the order swept) the card was never bought.
    stop = None
    for row in reversed(rows):
        if row["bought_per_game"] != 0:
            break
        stop = row["buy_cost"]
    if stop is not None:
        lines.append(f"{card} was not bought from the store at a buy cost of {stop} or at any later value swept.")
    return lines


def replaced_by_set_mates(cards: MarketCards, card: int) -> tuple[int, ...]:
    """The store with every copy of `card` replaced by the other cards of its set, shared out by their copies
    (largest remainders, ties to the lower card id), so the store keeps its size and the set its make-up without the
    card. A set of one card loses its copies instead."""
    copies = sum(1 for i in cards.store_cards if i == card)
    mates = sorted({i for i in cards.store_cards if cards.set_of[i] == cards.set_of[card] and i != card})
    if not mates:
        return tuple(i for i in cards.store_cards if i != card)
    weights = {m: sum(1 for i in cards.store_cards if i == m) for m in mates}
    total = sum(weights.values())
    shares = {m: copies * w / total for m, w in weights.items()}
    given = {m: int(shares[m]) for m in mates}
    for m in sorted(mates, key=lambda m: (-(shares[m] - given[m]), m))[: copies - sum(given.values())]:
        given[m] += 1
    extra = [m for m in mates for _ in range(given[m])]
    return tuple(i for i in cards.store_cards if i != card) + tuple(extra)


def store_power(
    cardset: CardSet,
    options: Mapping[str, OptionValue],
    games: int,
    seed: int,
    policy: str = "greedy",
    policy_b: str | None = "random",
    progress: GameProgress | None = None,
    workers: int | None = None,
) -> list[dict[str, Any]]:
    """Each store card's power in the whole game: the change in seat A's mean final VP when the card's copies are in
    the store against when they are replaced by the other cards of its set (`replaced_by_set_mates`: the same store
    size, the set's distribution without the card), the same seeds both ways, with a 95% interval from the per-game
    differences. Seat A plays `policy`, the others `policy_b`: against seats of its own policy, seat A's VP moves
    only by chance (the tournament chart hands out the same VP whatever the cards), so the default measures what a
    greedy player gains from the card against random ones. Measured: leaving the copies out instead shrinks the
    store, and that alone cost greedy about 1 VP whichever card it was. Each row also carries `bought` and
    `bought_any`: the share of the games with every card in the store in which seat A, and any seat, bought a copy
    of it (`workbench.full_game` judges no card seat A rarely bought)."""
    check_games(games)
    cards = compile_market(cardset, options)
    policies = seat_policies(policy, int(options["players"]), policy_b)
    store = sorted(set(cards.store_cards), key=lambda i: (int(cards.price[i]), cards.cards[i].name))
    # The same seeds every way: with every card's copies in the store, then without each card's.
    runs = [(cards, seed, games)] + [
        (dataclasses.replace(cards, store_cards=replaced_by_set_mates(cards, c)), seed, games) for c in store
    ]
    played = play_game_runs(runs, policies, progress, workers)

    def seat_a_vp(results: list[GameResult]) -> np.ndarray:
        return np.array([r.total[0] for r in results], dtype=float)

    first = played[0]
    with_all = seat_a_vp(first)
    # The games with every card's copies in the store: the share in which seat A, and any seat, bought a copy.
    bought_by_a = np.mean([np.asarray(r.bought_by_seat)[0] > 0 for r in first], axis=0)
    bought_by_any = np.mean([r.bought > 0 for r in first], axis=0)
    rows = []
    for c, without in zip(store, played[1:], strict=True):
        totals = seat_a_vp(without)
        differences = with_all - totals
        half = 1.959964 * float(differences.std(ddof=1)) / np.sqrt(games) if games > 1 else float("nan")
        power = float(differences.mean())
        rows.append(
            {
                "card": cards.cards[c].name,
                "set": cards.cards[c].set,
                "buy_cost": int(cards.price[c]),
                "stars": cards.cards[c].stars,
                "power": power,
                "low": power - half,
                "high": power + half,
                "bought": float(bought_by_a[c]),
                "bought_any": float(bought_by_any[c]),
            }
        )
    return rows


def power_lines(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """`store_power` as text, by buy cost."""
    lines = [f"{'card':<26}{'set':<22}{'buy cost':>9}{'stars':>6}{'power (VP)':>11}  95% interval"]
    for row in rows:
        lines.append(
            f"{row['card'][:25]:<26}{row['set'][:21]:<22}{row['buy_cost']:>9}{row['stars']:>6}{row['power']:>+11.2f}"
            f"  [{row['low']:+.2f}, {row['high']:+.2f}]"
        )
    return lines


def health_records(runs: FullGameRuns) -> dict[str, Any]:
    """What the game's health (`workbench.health.full_game_health`) reads of each whole game, in plain numbers, so
    it needs nothing of the market's own types: per game the seat that opened the first tournament, each seat's final
    VP and place, the tournaments played and each seat's VP after every tournament (tournament VP and the collections
    turned in before it; money and friendship score only at the end); per store card the games in which any seat
    bought a copy of it from the store."""
    cards = runs.cards
    games = []
    for r in runs.results:
        n = len(r.total)
        played = len(r.tournament_vp[0])
        # With a pre-release tournament there is one tournament more than deckbuilding rounds, and it comes first.
        offset = played - len(r.collection_vp[0])
        vp_after = [
            [
                int(
                    sum(r.tournament_vp[p][: k + 1])
                    + (0 if r.duel else sum(r.collection_vp[p][: max(k + 1 - offset, 0)]))
                )
                for k in range(played)
            ]
            for p in range(n)
        ]
        games.append(
            {
                "first_seat": int(r.first_seat),
                "total": [int(v) for v in r.total],
                "rank": [int(v) for v in r.rank],
                "tournaments": played,
                "vp_after": vp_after,
            }
        )
    store_ids = sorted(set(cards.store_cards), key=lambda i: (int(cards.price[i]), cards.cards[i].name))
    bought = np.array([r.bought for r in runs.results]) if runs.results else np.zeros((0, len(cards.cards)))
    store = [
        {
            "card": cards.cards[c].name,
            "set": cards.cards[c].set,
            "buy_cost": int(cards.price[c]),
            "copies": int(cards.cards[c].copies),
            "games_bought": int((bought[:, c] > 0).sum()),
            "copies_bought": int(bought[:, c].sum()),
        }
        for c in store_ids
    ]
    return {
        "players": runs.players,
        "duel": bool(runs.results and runs.results[0].duel),
        "prerelease": bool(cards.options.get("prerelease", False)),
        "market_actions": int(cards.options["market_actions"]),
        "games": games,
        "store": store,
        "dollars_left_mean": float(np.mean([np.mean(r.money) for r in runs.results])) if runs.results else 0.0,
        "cards_short_in_deals_mean": float(np.mean([r.short for r in runs.results])) if runs.results else 0.0,
    }
