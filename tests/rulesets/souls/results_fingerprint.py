"""Digest of the greedy and random policies' results, to show a change leaves them bit-identical.

    PYTHONPATH=<tree> python tests/rulesets/souls/results_fingerprint.py 2000 [KEY=VALUE ...]

prints one sha256 per policy over every bundled deck pair (winners, turns and per-card counters of `matches`
matches each, seed 11, one worker), under the ruleset's defaults or the rule options given. Run it on two trees
and compare (with `summons_per_turn=1`, ruleset 1.6 plays 1.5's defaults).
"""

from __future__ import annotations

import hashlib
import sys

from workbench.bench import bundled_cardset_and_decks
from workbench.rulesets.souls import RULESET as SOULS
from workbench.run_settings import RunSettings
from workbench.simulate import simulate


def main(matches: int, options: dict[str, str]) -> None:
    cardset, decks = bundled_cardset_and_decks(SOULS)
    for policy in ("greedy", "random"):
        digest = hashlib.sha256()
        for deck_a in decks:
            for deck_b in decks:
                run = RunSettings(seed=11, policy=policy, workers=1, options=dict(options))
                result = simulate(cardset, deck_a, deck_b, matches=matches, run=run)
                digest.update(result.matches.to_csv(index=False).encode())
                digest.update(result.counters.to_csv(index=False).encode())
        print(policy, digest.hexdigest())


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 2000,
        dict(argument.split("=", 1) for argument in sys.argv[2:]),
    )
