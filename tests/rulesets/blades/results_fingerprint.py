"""Digest of the blades policies' results, to show a change leaves them bit-identical.

    PYTHONPATH=<tree> python tests/rulesets/blades/results_fingerprint.py 500 8

prints one sha256 per policy pairing and player count over every bundled deck pair (winners, turns, per-match VP,
place and RP, and per-card counters of `matches` tournaments each for greedy-greedy, greedy-random and random-random
at 2, 4 and 5 players, and of `searched` tournaments for search against greedy at 4 players; seed 11, one worker).
Run it on two trees and compare.
"""

from __future__ import annotations

import hashlib
import sys

from workbench.bench import bundled_cardset_and_decks
from workbench.rulesets.blades import RULESET as BLADES
from workbench.run_settings import RunSettings
from workbench.simulate import simulate

PAIRINGS = (
    ("greedy", "greedy", (2, 4, 5)),
    ("greedy", "random", (2, 4, 5)),
    ("random", "random", (2, 4, 5)),
    ("search", "greedy", (4,)),
)
"""Seat A's policy, deck B's seats' policy, and the player counts each pairing is played at."""


def main(matches: int, searched: int) -> None:
    """Print the digest of each pairing's results over every bundled deck pair."""
    cardset, decks = bundled_cardset_and_decks(BLADES)
    for policy, policy_b, player_counts in PAIRINGS:
        for players in player_counts:
            count = searched if policy == "search" else matches
            digest = hashlib.sha256()
            for deck_a in decks:
                for deck_b in decks:
                    run = RunSettings(seed=11, policy=policy, workers=1, options={"players": players})
                    result = simulate(cardset, deck_a, deck_b, matches=count, run=run, policy_b=policy_b)
                    digest.update(result.matches.to_csv(index=False).encode())
                    digest.update(result.counters.to_csv(index=False).encode())
            print(f"{policy}-{policy_b} players={players}", digest.hexdigest(), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500, int(sys.argv[2]) if len(sys.argv) > 2 else 8)
