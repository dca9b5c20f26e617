"""Digest of the SOURCE policies' results, to show a change leaves them bit-identical.

    PYTHONPATH=<tree> python tests/rulesets/source/results_fingerprint.py 500 10

prints one sha256 per run kind over every bundled deck pair: winners, turns and per-card counters of `matches`
matches each for greedy-greedy, greedy-random, random-greedy and random-random, under both symbol draws
(`intentional`, `blind`) and under `combat_tie=both` (attack values' tie branch), then `searched` matches of search
against greedy (seed 11, one worker). Run it on two trees and compare.
"""

from __future__ import annotations

import hashlib
import sys

from workbench.bench import _bundled_cardset_and_decks
from workbench.rulesets.source import RULESET as SOURCE
from workbench.run_settings import RunSettings
from workbench.simulate import simulate

RUNS: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("greedy", "greedy", {}),
    ("greedy", "random", {}),
    ("random", "greedy", {}),
    ("random", "random", {}),
    ("greedy", "greedy", {"symbol_draw": "blind"}),
    ("greedy", "random", {"symbol_draw": "blind"}),
    ("random", "random", {"symbol_draw": "blind"}),
    ("greedy", "greedy", {"combat_tie": "both"}),
)


def main(matches: int, searched: int) -> None:
    """Print the digest of each run kind's results over every bundled deck pair."""
    cardset, decks = _bundled_cardset_and_decks(SOURCE)
    runs = [(a, b, options, matches) for a, b, options in RUNS] + [("search", "greedy", {}, searched)]
    for policy, policy_b, options, count in runs:
        digest = hashlib.sha256()
        for deck_a in decks:
            for deck_b in decks:
                run = RunSettings(seed=11, policy=policy, options=options, workers=1)
                result = simulate(cardset, deck_a, deck_b, matches=count, run=run, policy_b=policy_b)
                digest.update(result.matches.to_csv(index=False).encode())
                digest.update(result.counters.to_csv(index=False).encode())
        label = "-".join([policy, policy_b] + [f"{k}={v}" for k, v in options.items()])
        print(label, digest.hexdigest(), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500, int(sys.argv[2]) if len(sys.argv) > 2 else 10)
