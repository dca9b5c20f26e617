"""Digest of the plasma policies' results, to show a change leaves them bit-identical.

    PYTHONPATH=<tree> python tests/rulesets/plasma/results_fingerprint.py 2000 20

prints one sha256 per policy over every bundled deck pair (winners, turns and per-card counters of `matches` matches
each for greedy and random, `searched` for search against greedy; seed 11, one worker). Run it on two trees and
compare.
"""

from __future__ import annotations

import hashlib
import sys

from workbench.bench import bundled_cardset_and_decks
from workbench.rulesets.plasma import RULESET as PLASMA
from workbench.run_settings import RunSettings
from workbench.simulate import simulate


def main(matches: int, searched: int) -> None:
    """Print the digest of each policy's results over every bundled deck pair."""
    cardset, decks = bundled_cardset_and_decks(PLASMA)
    for policy, policy_b, count in (
        ("greedy", None, matches),
        ("random", None, matches),
        ("search", "greedy", searched),
    ):
        digest = hashlib.sha256()
        for deck_a in decks:
            for deck_b in decks:
                run = RunSettings(seed=11, policy=policy, workers=1)
                result = simulate(cardset, deck_a, deck_b, matches=count, run=run, policy_b=policy_b)
                digest.update(result.matches.to_csv(index=False).encode())
                digest.update(result.counters.to_csv(index=False).encode())
        print(policy, digest.hexdigest())


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000, int(sys.argv[2]) if len(sys.argv) > 2 else 20)
