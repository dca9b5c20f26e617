"""Plays circles matches in plain Python with `apply` wrapped, to show every action taken was one `legal_actions`
listed. Run by test_circles_engine.py in a subprocess under NUMBA_DISABLE_JIT=1 (the wrapper replaces the module's
`apply`, which only the uncompiled engine looks up at each call); not collected by pytest.

    NUMBA_DISABLE_JIT=1 .venv/bin/python tests/rulesets/circles/legal_replay.py POLICY MATCHES

Prints JSON: per ordered deck pair, each match's winner and turns and the counters' sum, and how many actions of each
decision kind were applied.
"""

import json
import sys
from typing import Any

import numba
import numpy as np

from workbench.bench import _bundled_cardset_and_decks
from workbench.rulesets import get_ruleset
from workbench.rulesets.circles import engine as E
from workbench.simulate import compile_for

# Decks built so that every ability fires (as results_fingerprint.py builds them).
ABILITY_DECKS = (
    "Siege Ballista*3,Hawkeye Archer*3,Powder Keg Imp*3,Battle Herald*2,Fire Adept*2,War Drummer*2,Spark Lancer*1,"
    "Forge Breaker*1,Ruby Shard*13",
    "Herd Caller*3,Grove Keeper*2,Fate Gardener*2,Seer of Leaves*2,Vine Trickster*2,Dream Weaver*2,Mirror Moth*2,"
    "Thorn Sprinter*2,Emerald Leaf*13",
    "Coral Bastion*2,Shell Knight*2,Harbor Colossus*2,Spring Oracle*2,Fog Dancer*2,Mist Weaver*2,Still Water Monk*2,"
    "Brook Healer*2,Tidal Duelist*1,Sapphire Pool*11,Ruby Shard*2",
)


def play(policy: int, matches: int) -> dict[str, list[Any]]:
    """Every ordered pair of the bundled decks and ABILITY_DECKS, `matches` matches each, both sides `policy`: per
    pair, [winners, turns, the counters' sum]."""
    ruleset = get_ruleset("circles")
    cardset, decks = _bundled_cardset_and_decks(ruleset)
    engine, compiled, _ = compile_for(cardset, None)
    arrays = [compiled.deck_array(d) for d in decks]
    for text in ABILITY_DECKS:
        ids: list[int] = []
        for part in text.split(","):
            card, copies = part.split("*")
            ids += [compiled.card_id(card)] * int(copies)
        arrays.append(np.array(ids, dtype=np.int64))
    results = {}
    seeds = np.arange(1, matches + 1, dtype=np.int64) * 7919
    first = (np.arange(matches) % 2).astype(np.int8)
    for a, deck_a in enumerate(arrays):
        for b, deck_b in enumerate(arrays):
            winners, turns, counters = engine.play_batch(compiled, deck_a, deck_b, seeds, first, policy, policy)
            results[f"{a},{b}"] = [[int(v) for v in winners], [int(v) for v in turns], int(np.asarray(counters).sum())]
    return results


def main() -> None:
    assert numba.config.DISABLE_JIT, "run under NUMBA_DISABLE_JIT=1: the compiled engine does not look `apply` up"  # type: ignore[attr-defined]
    policy, matches = int(sys.argv[1]), int(sys.argv[2])
    applied = [0] * 18
    taken = E.apply

    def checked_apply(R: np.ndarray, S: np.ndarray, k: int) -> Any:
        decision = E.decision_of(S)
        n = int(decision[E.D_N])
        listed = E.actions_of(S)[:n].copy()
        fresh = np.zeros_like(E.actions_of(S))
        again = E.legal_actions(R, S, fresh)
        assert again == n and (fresh[:n] == listed).all(), "the list changed between listing and applying"
        assert (n == 0 and k == -1) or 0 <= k < n, f"row {k} of {n} listed (kind {decision[E.D_KIND]})"
        if n > 0:
            applied[int(decision[E.D_KIND])] += 1
        return taken(R, S, k)

    E.apply = checked_apply  # type: ignore[assignment]
    print(json.dumps({"results": play(policy, matches), "applied": applied}))


if __name__ == "__main__":
    main()
