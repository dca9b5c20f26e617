"""Digest of the search's and epsilon-greedy's results, to show a change leaves the search bit-identical.

    PYTHONPATH=<tree> python tests/rulesets/souls/search_fingerprint.py 20

prints one sha256 prefix per case (search under the defaults, with random rollouts, to the match's end with 2
rollouts a candidate, `search:3` cut off after 1 turn; `epsilon:0.3`) over the first two bundled decks against the
last two (winners, turns and per-card counters of `matches` matches each, seed 5, one worker, both sides playing the
case's policy). Run it on two trees and compare.
"""

from __future__ import annotations

import hashlib
import sys

from workbench.bench import bundled_cardset_and_decks
from workbench.rulesets.souls import RULESET as SOULS
from workbench.run_settings import RunSettings
from workbench.simulate import simulate

CASES: tuple[tuple[str, dict[str, int | str]], ...] = (
    ("search", {}),
    ("search", {"search_rollout_policy": "random"}),
    ("search", {"search_depth": 0, "search_rollouts": 2}),
    ("search:3", {"search_depth": 1}),
    ("epsilon:0.3", {}),
)


def main(matches: int) -> None:
    cardset, decks = bundled_cardset_and_decks(SOULS)
    for policy, options in CASES:
        digest = hashlib.sha256()
        for deck_a in decks[:2]:
            for deck_b in decks[-2:]:
                run = RunSettings(seed=5, policy=policy, workers=1, options=dict(options))
                result = simulate(cardset, deck_a, deck_b, matches=matches, run=run)
                digest.update(result.matches.to_csv(index=False).encode())
                digest.update(result.counters.to_csv(index=False).encode())
        print(policy, options, digest.hexdigest()[:16])


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
