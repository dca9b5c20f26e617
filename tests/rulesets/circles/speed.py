"""circles matches per CPU second on one core, under a policy (greedy unless given), best of 3.

    PYTHONPATH=<tree> python tests/rulesets/circles/speed.py 300000 [POLICY]
    ALL=1 PYTHONPATH=<tree> python tests/rulesets/circles/speed.py 1000 search

plays the bench's decks and seeds (the first two bundled decks, `workbench bench`'s pair, seeds from `batch_seeds(0,
N)`, first player alternating) with POLICY on both sides after a warm-up batch of 10, or with ALL=1 every ordered
pair of the bundled decks (the ability-heavy ones too), and prints matches per CPU second of this process, the best
of three runs. It prints only the speed. Run it in two trees at once, each pinned to its own core, to compare them.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

from workbench.bench import bundled_cardset_and_decks
from workbench.play.policies import policy_word
from workbench.rulesets import get_ruleset
from workbench.simulate import batch_seeds, compile_for


def main(matches: int, policy: str, every_pair: bool) -> None:
    cardset, decks = bundled_cardset_and_decks(get_ruleset("circles"))
    engine, compiled, _ = compile_for(cardset, None)
    word = policy_word(policy, engine.policies, engine.search_settings)
    pairs = [(a, b) for a in range(len(decks)) for b in range(len(decks))] if every_pair else [(0, 1)]
    seeds = np.concatenate([chunk for chunk, _ in batch_seeds(0, matches)])
    first = (np.arange(matches) % 2).astype(np.int8)
    arrays = [compiled.deck_array(deck) for deck in decks]
    engine.play_batch(compiled, arrays[0], arrays[1], seeds[:10], first[:10], word, word)
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for a, b in pairs:
            engine.play_batch(compiled, arrays[a], arrays[b], seeds, first, word, word)
        best = min(best, time.process_time() - start)
    print(f"{matches * len(pairs) / best:,.0f}")


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000,
        sys.argv[2] if len(sys.argv) > 2 else "greedy",
        bool(os.environ.get("ALL")),
    )
