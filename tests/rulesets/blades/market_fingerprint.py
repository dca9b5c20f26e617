"""Digest of whole Millennium Blades games (`market.py` with `market_policy.py`), to show a change leaves them
bit-identical.

    PYTHONPATH=<tree> python tests/rulesets/blades/market_fingerprint.py 40 1

prints one sha256 per configuration (policies, players, rule options) over every field of every game's
`GameResult`, `games` games each from `seed` (search seat A plays `games // 10` games, at least 1: each of its
decisions plays compiled tournaments). Run it on two trees and compare.
"""

from __future__ import annotations

import dataclasses
import hashlib
import sys
from typing import Any

import numpy as np

from workbench.cards import OptionValue
from workbench.loading import load_cardset
from workbench.paths import bundled_sets
from workbench.rulesets.blades import RULESET as BLADES
from workbench.rulesets.blades.market import GameResult
from workbench.rulesets.blades.market_runs import play_full_games

CONFIGURATIONS: tuple[tuple[str, str, str, dict[str, OptionValue]], ...] = (
    ("4 greedy", "greedy", "greedy", {}),
    ("greedy A vs 3 random", "greedy", "random", {}),
    ("4 random", "random", "random", {}),
    ("2 greedy, Duel Mode", "greedy", "greedy", {"players": 2}),
    ("2 greedy, normal rules", "greedy", "greedy", {"players": 2, "two_player_rules": "normal"}),
    ("greedy A vs random, Duel Mode", "greedy", "random", {"players": 2}),
    ("5 greedy", "greedy", "greedy", {"players": 5}),
    ("5: greedy A vs random", "greedy", "random", {"players": 5}),
    ("3 greedy, clockwise, no trades", "greedy", "greedy", {"players": 3, "market_order": "clockwise", "trades": 0}),
    ("4 greedy, pre-release", "greedy", "greedy", {"prerelease": True}),
    ("4 greedy, characters and pro cards", "greedy", "greedy", {"characters": "random", "pro_cards": True}),
    ("greedy A vs random, characters", "greedy", "random", {"characters": "random", "pro_cards": True}),
    ("search A vs greedy", "search", "greedy", {}),
)
"""Name, seat A's policy, the other seats' policy and the rule options over `game=full` of each configuration."""


def plain(value: Any) -> Any:
    """A field's value with numpy arrays as nested lists (a numpy repr elides long arrays)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value


def result_text(result: GameResult) -> str:
    """Every field of a game's result, by name."""
    return repr([(f.name, plain(getattr(result, f.name))) for f in dataclasses.fields(result)])


def main(games: int, seed: int) -> None:
    """Print the digest of each configuration's games."""
    cardset = load_cardset(bundled_sets("blades")[0], BLADES)
    for name, policy, policy_b, overrides in CONFIGURATIONS:
        options = BLADES.resolve_options({"game": "full", **{k: str(v) for k, v in overrides.items()}})
        count = max(1, games // 10) if policy == "search" else games
        runs = play_full_games(cardset, options, count, seed, policy, policy_b)
        digest = hashlib.sha256()
        for result in runs.results:
            digest.update(result_text(result).encode())
        print(f"{name} ({count} games)", digest.hexdigest(), flush=True)
        # Timing on stderr, so two trees' digests compare with `diff`.
        print(f"  {runs.seconds:.1f} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40, int(sys.argv[2]) if len(sys.argv) > 2 else 1)
