"""The search policy's speed on one core, as `workbench bench --policy search` measures it, without its power curve.

    PYTHONPATH=<tree> python tests/rulesets/source/search_speed.py 200 [KEY=VALUE ...]

plays the first two bundled decks (Ember Rush against Tidal Fortress, as `workbench bench` does) with search on both
sides, seeds 1..N, first player alternating, after a warm-up batch of 2, under the defaults or the rule options given
(e.g. search_rollouts=4 search_depth=2), and prints matches per second (wall clock, and per CPU second of this
process: the figure that holds on a busy machine) and the turns played. The same calls in every tree since the search
began (`play_batch`), so two commits are compared by running it with each tree in turn.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from workbench.bench import bundled_cardset_and_decks
from workbench.play.policies import policy_word
from workbench.rulesets import get_ruleset
from workbench.simulate import compile_for


def main(matches: int, options: dict[str, str]) -> None:
    cardset, decks = bundled_cardset_and_decks(get_ruleset("source"))
    engine, compiled, _ = compile_for(cardset, options)
    deck_a, deck_b = (compiled.deck_array(d) for d in decks[:2])
    search = policy_word("search", engine.policies)
    seeds = np.arange(1, matches + 1, dtype=np.int64)
    first = (np.arange(matches) % 2).astype(np.int8)
    engine.play_batch(compiled, deck_a, deck_b, seeds[:2], first[:2], search, search)  # compile or load the kernels
    start = time.perf_counter()
    cpu_start = time.process_time()
    _, turns, _ = engine.play_batch(compiled, deck_a, deck_b, seeds, first, search, search)
    took = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    print(
        f"{matches} matches in {took:.2f} s: {matches / took:.1f} matches/s ({matches / cpu:.1f} per CPU second), "
        f"{int(np.asarray(turns).sum())} turns"
    )


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 200,
        dict(argument.split("=", 1) for argument in sys.argv[2:]),
    )
