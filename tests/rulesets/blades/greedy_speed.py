"""Greedy tournaments per CPU second on one core, each bundled deck against itself.

    PYTHONPATH=<tree> python tests/rulesets/blades/greedy_speed.py 20000 [best=R] [policy=random] [KEY=VALUE ...]

plays each bundled deck's mirror with greedy in every seat, first player alternating, seeds 1000 on, after a warm-up
batch of 5, under the options' defaults (4 players) or the rule options given (e.g. players=2), and prints
tournaments per CPU second of this process (the figure that holds on a busy machine), mean turns and seat A's win
share (which must not move when only speed changed). `best=R` plays each deck's batch R times and prints the best
(the figure least touched by other work on a shared machine); `policy=random` plays random in every seat. Run it
with each tree in turn (old, new, old, ...) to compare two commits.
"""

from __future__ import annotations

import sys
import time

import numpy as np

import workbench.rulesets.blades.engine as E
from workbench.bench import bundled_cardset_and_decks
from workbench.play.policies import GREEDY, RANDOM
from workbench.rulesets.blades import RULESET as BLADES
from workbench.simulate import compile_for


def main(matches: int, options: dict[str, str]) -> None:
    best = int(options.pop("best", "1"))
    policy = {"greedy": GREEDY, "random": RANDOM}[options.pop("policy", "greedy")]
    cardset, decks = bundled_cardset_and_decks(BLADES)
    _, compiled, _ = compile_for(cardset, options)
    first = (np.arange(matches) % 2).astype(np.int8)
    seeds = np.arange(1000, 1000 + matches, dtype=np.int64)
    for deck in decks:
        ids = compiled.deck_array(deck)
        E.play_batch_detailed(compiled, ids, ids, np.arange(5, dtype=np.int64), first[:5], policy, policy)
        cpu = float("inf")
        for _ in range(best):
            cpu_start = time.process_time()
            result = E.play_batch_detailed(compiled, ids, ids, seeds, first, policy, policy)
            cpu = min(cpu, time.process_time() - cpu_start)
        print(
            f"{deck.name}: {matches / cpu:,.0f} tournaments per CPU second, mean turns {result['turns'].mean():.1f}, "
            f"A won {(result['winner'] == 0).mean():.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main(int(sys.argv[1]), dict(arg.split("=", 1) for arg in sys.argv[2:]))
