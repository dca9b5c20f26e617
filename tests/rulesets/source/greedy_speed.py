"""Greedy's speed on one core, per CPU second (the machine is shared: CPU time moves much less with the other
processes than wall-clock time).

    PYTHONPATH=<tree> python tests/rulesets/source/greedy_speed.py 20000

plays the first two bundled decks (Ember Rush against Tidal Fortress, as `workbench bench` does) with greedy on both
sides, seeds 1..N, first player alternating, after a warm-up batch of 50, and prints the best of three batches as
matches per CPU second of this process (`time.process_time`) and the turns played (equal on trees whose results are).
Run it with each tree in turn (old, new, old, ...) to compare two commits.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from workbench.bench import bundled_cardset_and_decks
from workbench.rulesets import get_ruleset
from workbench.simulate import compile_for


def main(matches: int) -> None:
    cardset, decks = bundled_cardset_and_decks(get_ruleset("source"))
    engine, compiled, _ = compile_for(cardset, {})
    deck_a, deck_b = (compiled.deck_array(d) for d in decks[:2])
    seeds = np.arange(1, matches + 1, dtype=np.int64)
    first = (np.arange(matches) % 2).astype(np.int8)
    engine.play_batch(compiled, deck_a, deck_b, seeds[:50], first[:50], 0, 0)  # compile or load the kernels
    best = 0.0
    turns_played = 0
    for _ in range(3):
        start = time.process_time()
        _, turns, _ = engine.play_batch(compiled, deck_a, deck_b, seeds, first, 0, 0)
        best = max(best, matches / (time.process_time() - start))
        turns_played = int(np.asarray(turns).sum())
    print(f"{best:.0f} matches per CPU second ({turns_played} turns)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20000)
