"""The search policy's speed on one core: matches/s and searched decisions/s.

    PYTHONPATH=<tree> python tests/rulesets/souls/search_speed.py 300 [KEY=VALUE ...]

plays each bundled deck against itself, search (A) against greedy (B), first player alternating, after a warm-up
batch of 5, under the options' defaults or the rule options given (e.g. search_rollouts=4 search_depth=2), and
prints matches/s (wall clock, and per CPU second: the figure that holds on a busy machine), decisions/s (steps searched
with rollouts), rollouts/s and search's win share.
"""

from __future__ import annotations

import sys
import time

import numpy as np

import workbench.rulesets.souls.engine as E
from workbench.bench import bundled_cardset_and_decks
from workbench.play.loop import BATCH_TURNS, BATCH_WINNERS, new_batch
from workbench.play.policies import GREEDY, SEARCH
from workbench.rulesets.souls import RULESET as SOULS
from workbench.simulate import compile_for


def run(
    arrays: E.MatchArrays, ids: np.ndarray, work: np.ndarray, search: np.ndarray, seeds: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(winners, turns) of one batch, search (A) against greedy (B), first player alternating."""
    first = (np.arange(len(seeds)) % 2).astype(np.int8)
    batch = new_batch(ids, ids, seeds, first, SEARCH, GREEDY, search)
    E.play_batch_kernel(arrays.G, arrays.st, batch, work)
    return batch[BATCH_WINNERS], batch[BATCH_TURNS]


def main(matches: int, options: dict[str, str]) -> None:
    cardset, decks = bundled_cardset_and_decks(SOULS)
    _, compiled, _ = compile_for(cardset, options)
    for deck in decks:
        ids = np.ascontiguousarray(compiled.deck_array(deck), dtype=np.int64)
        arrays = E.MatchArrays(compiled, len(ids))
        work, search = E.search_buffers(arrays, SEARCH, GREEDY)

        run(arrays, ids, work, search, np.arange(5, dtype=np.int64))
        search[E.SR_DECISIONS] = 0
        search[E.SR_ROLLOUTS] = 0
        start = time.perf_counter()
        cpu_start = time.process_time()
        winners, turns = run(arrays, ids, work, search, np.arange(1000, 1000 + matches, dtype=np.int64))
        took = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        decisions, rollouts = int(search[E.SR_DECISIONS]), int(search[E.SR_ROLLOUTS])
        print(
            f"{deck.name}: {matches} matches in {took:.2f} s: {matches / took:.1f} matches/s "
            f"({matches / cpu:.1f} per CPU second), {decisions} decisions ({decisions / took:.0f}/s), {rollouts} "
            f"rollouts ({rollouts / took:.0f}/s), search won {(winners == 0).mean():.3f}, mean turns {turns.mean():.1f}"
        )


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 300,
        dict(argument.split("=", 1) for argument in sys.argv[2:]),
    )
