"""Many whole games (`market.py`) from one seed: per-seat and per-round VP with their parts, and game health.

Pure: numpy only. Game k draws from `np.random.default_rng(SeedSequence(seed).spawn(games)[k])`, so a game depends
on the seed and its index alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from workbench.cards import CardSet, OptionValue, WorkbenchInputError
from workbench.rulesets.blades.market import SEATS, GameResult, MarketCards, compile_market, play_game
from workbench.rulesets.blades.market_policy import MARKET_POLICIES, make_policy

MAX_GAMES = 100_000
"""The most whole games one run plays."""


def seat_policies(policy: str, players: int, policy_b: str | None = None) -> list[str]:
    """Seat A plays `policy`, every other seat `policy_b` (default: the same)."""
    for name in (policy, policy_b or policy):
        if name not in MARKET_POLICIES:
            raise WorkbenchInputError(
                f"unknown policy '{name}' for the whole game.", expected=" or ".join(MARKET_POLICIES)
            )
    return [policy] + [policy_b or policy] * (players - 1)


def game_rngs(seed: int, games: int) -> list[np.random.Generator]:
    """One independent generator per game (NumPy's SeedSequence.spawn)."""
    return [np.random.default_rng(child) for child in np.random.SeedSequence(seed).spawn(games)]


def play_one(
    cards: MarketCards, rng: np.random.Generator, policies: Sequence[str], trace: bool = False
) -> tuple[GameResult, list[str]]:
    """One whole game with fresh policy objects."""
    return play_game(
        cards, rng, [make_policy(name) for name in policies], [MARKET_POLICIES.index(n) for n in policies], trace
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
        rounds = len(self.results[0].tournament_vp[0]) if games else 0
        collection_rounds = len(self.results[0].collection_vp[0]) if games else 0
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
                        float(np.mean([r.tournament_vp[p][k] for r in self.results])) for k in range(rounds)
                    ],
                    "collections_by_round": [
                        float(np.mean([r.collection_vp[p][k] for r in self.results])) for k in range(collection_rounds)
                    ],
                }
            )
        bought = np.sum([r.bought for r in self.results], axis=0) if games else np.zeros(0)
        store_ids = sorted(set(self.cards.store_cards))
        never = [self.cards.cards[i].name for i in store_ids if bought[i] == 0]
        first_wins = np.mean(
            [1.0 / sum(1 for x in r.rank if x == 1) if r.rank[r.first_seat] == 1 else 0.0 for r in self.results]
        )
        return {
            "games": games,
            "players": n,
            "seed": self.seed,
            "policies": self.policies,
            "rounds": rounds,
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


def play_full_games(
    cardset: CardSet,
    options: Mapping[str, OptionValue],
    games: int,
    seed: int,
    policy: str = "greedy",
    policy_b: str | None = None,
) -> FullGameRuns:
    """`games` whole games of `options["players"]` seats, seat A playing `policy`, the others `policy_b`."""
    import time

    if not 1 <= games <= MAX_GAMES:
        raise WorkbenchInputError(f"{games} whole games is out of range.", expected=f"1 to {MAX_GAMES:,} games")
    cards = compile_market(cardset, options)
    policies = seat_policies(policy, int(options["players"]), policy_b)
    started = time.perf_counter()
    results = [play_one(cards, rng, policies)[0] for rng in game_rngs(seed, games)]
    return FullGameRuns(cards, policies, seed, results, time.perf_counter() - started)


def trace_full_game(
    cardset: CardSet, options: Mapping[str, OptionValue], seed: int, policy: str = "greedy", policy_b: str | None = None
) -> list[str]:
    """Game 0 of the seed, every market action and tournament event as a line."""
    cards = compile_market(cardset, options)
    policies = seat_policies(policy, int(options["players"]), policy_b)
    _, lines = play_one(cards, game_rngs(seed, 1)[0], policies, trace=True)
    return lines


def summary_lines(summary: Mapping[str, Any]) -> list[str]:
    """The summary as text: per seat final VP with its parts, then per round, then game health."""
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
