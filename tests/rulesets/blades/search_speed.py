"""The Blades search policy's speed on one core: tournaments/s, searched decisions and rollouts.

    PYTHONPATH=<tree> python tests/rulesets/blades/search_speed.py 300 [best=R] [KEY=VALUE ...]

plays each bundled deck against itself, search (seat A) against greedy (the other seats), first player alternating,
after a warm-up batch of 5, under the options' defaults or the rule options given (e.g. players=2
search_rollouts=4), and prints tournaments/s (wall clock, and per CPU second: the figure that holds on a busy
machine), decisions and rollouts a tournament, mean turns and search's win share. `best=R` plays each deck's batch R
times and prints the best of them.
"""

from __future__ import annotations

import sys
import time

import numpy as np

import workbench.rulesets.blades.engine as E
from workbench.bench import bundled_cardset_and_decks
from workbench.play.policies import GREEDY, SEARCH
from workbench.rulesets.blades import RULESET as BLADES
from workbench.simulate import compile_for


def main(matches: int, options: dict[str, str]) -> None:
    best = int(options.pop("best", "1"))
    cardset, decks = bundled_cardset_and_decks(BLADES)
    _, compiled, _ = compile_for(cardset, options)
    for deck in decks:
        ids = compiled.deck_array(deck)
        first = (np.arange(matches) % 2).astype(np.int8)
        E.play_batch_detailed(compiled, ids, ids, np.arange(5, dtype=np.int64), first[:5], SEARCH, GREEDY)
        seeds = np.arange(1000, 1000 + matches, dtype=np.int64)
        took = cpu = float("inf")
        for _ in range(best):
            start = time.perf_counter()
            cpu_start = time.process_time()
            result = E.play_batch_detailed(compiled, ids, ids, seeds, first, SEARCH, GREEDY)
            took = min(took, time.perf_counter() - start)
            cpu = min(cpu, time.process_time() - cpu_start)
        decisions, rollouts = result["search_decisions"], result["search_rollouts"]
        print(
            f"{deck.name}: {matches / took:.0f} matches/s ({matches / cpu:.0f} per CPU second), "
            f"{decisions / matches:.1f} decisions and {rollouts / matches:.1f} rollouts a match, "
            f"mean turns {result['turns'].mean():.1f}, search won {(result['winner'] == 0).mean():.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main(int(sys.argv[1]), dict(arg.split("=", 1) for arg in sys.argv[2:]))
