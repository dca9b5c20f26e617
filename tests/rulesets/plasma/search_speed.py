"""The search policy's speed on one core, and its strength: matches/s, searched decisions/s and its win share.

    PYTHONPATH=<tree> python tests/rulesets/plasma/search_speed.py 300 [KEY=VALUE ...]

plays each bundled deck against itself, search (A) against greedy (B), first player alternating, seeds 1,000 on,
after a warm-up batch of 5, under the options' defaults or the rule options given (e.g. search_rollouts=4
search_depth=2), through `play_matches_searched` as a batch calls it, and prints matches/s (wall clock, and per CPU
second: the figure that holds on a busy machine), decisions searched and rollouts played per match and search's win
share with its 95% interval (Wilson).
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np

from workbench.bench import bundled_cardset_and_decks
from workbench.play.loop import BATCH_TURNS, BATCH_WINNERS, new_batch
from workbench.rulesets.plasma import RULESET as PLASMA
from workbench.rulesets.plasma import engine as E
from workbench.simulate import compile_for


def run(compiled: Any, deck: Any, seeds: Any) -> tuple[Any, Any, Any]:
    """(winners, turns, the state's `searched` figures) of one batch, search (A) against greedy (B)."""
    first = (np.arange(len(seeds)) % 2).astype(np.int8)
    st, world, sim = (E.new_state(compiled.options) for _ in range(3))
    pair = E.pairing(compiled.table, deck, deck)
    batch = new_batch(pair.deck_a, pair.deck_b, seeds, first, E.SEARCH, E.GREEDY)
    E.play_matches_searched(pair.table, st, batch, world, sim)
    return batch[BATCH_WINNERS], batch[BATCH_TURNS], st.searched.copy()


def wilson(wins: float, n: int) -> tuple[float, float]:
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main(matches: int, options: dict[str, str]) -> None:
    cardset, decks = bundled_cardset_and_decks(PLASMA)
    _, compiled, _ = compile_for(cardset, options)
    for deck in decks:
        ids = compiled.deck_array(deck)
        run(compiled, ids, np.arange(5, dtype=np.int64))
        start = time.perf_counter()
        cpu_start = time.process_time()
        winners, turns, searched = run(compiled, ids, np.arange(1000, 1000 + matches, dtype=np.int64))
        took = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        score = float((winners == 0).sum() + 0.5 * (winners < 0).sum())
        low, high = wilson(score, matches)
        print(
            f"{deck.name}: {matches / took:.0f} matches/s ({matches / cpu:.0f} per CPU second), "
            f"{searched[0] / matches:.1f} decisions and {searched[1] / matches:.0f} rollouts a match, "
            f"search won {score / matches:.3f} [{low:.3f}, {high:.3f}], mean turns {turns.mean():.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 300,
        dict(argument.split("=", 1) for argument in sys.argv[2:]),
    )
