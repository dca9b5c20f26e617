"""Greedy's speed on one core, per wall-clock second and per CPU second (the machine is shared: wall clock moves
with the other processes, CPU time much less).

    PYTHONPATH=<tree> python tests/rulesets/plasma/greedy_speed.py 30000 3

plays bulwark against nightfall (the first two bundled decks, as `workbench bench --only engines` does) with greedy
on both sides, first player alternating, in one `play_batch` as `bench_engine` runs it, after a warm-up batch of 10,
and prints the best of the given number of runs as matches per wall-clock second and matches per CPU second of this
process, with the total turns and first-deck wins (the same in every tree that plays the same matches) and the load.
Run it with each tree in turn (old, new, old, ...) to compare two commits; it imports nothing of the tree but what
`workbench bench` does, so it runs against any commit since 41677e2.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

from workbench.bench import bundled_cardset_and_decks
from workbench.play.policies import policy_word
from workbench.rulesets.plasma import RULESET as PLASMA
from workbench.simulate import batch_seeds, compile_for


def main(matches: int, runs: int) -> None:
    """Time `runs` greedy batches of `matches` matches and print the best rates."""
    cardset, decks = bundled_cardset_and_decks(PLASMA)
    engine, compiled, _ = compile_for(cardset, None)
    deck_a = compiled.deck_array(decks[0])
    deck_b = compiled.deck_array(decks[1])
    greedy = policy_word("greedy", engine.policies)
    seeds = np.concatenate([batch for batch, _ in batch_seeds(0, matches)])
    first = (np.arange(matches) % 2).astype(np.int8)
    engine.play_batch(compiled, deck_a, deck_b, seeds[:10], first[:10], greedy, greedy)  # compiles or loads the cache
    best_wall = best_cpu = float("inf")
    result = None
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        result = engine.play_batch(compiled, deck_a, deck_b, seeds, first, greedy, greedy)
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    assert result is not None
    print(
        f"{os.environ.get('PYTHONPATH', '')}: wall {matches / best_wall:,.0f} cpu {matches / best_cpu:,.0f}"
        f" turns {int(result[1].sum())} wins {int((result[0] == 0).sum())} load {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30_000, int(sys.argv[2]) if len(sys.argv) > 2 else 3)
