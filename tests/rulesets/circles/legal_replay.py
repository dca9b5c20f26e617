"""Plays circles matches in plain Python with the policies' entry points and `apply` wrapped, to show every action a
policy chose and every row the rules applied was one `legal_actions` listed. Run by test_circles_engine.py in a
subprocess under NUMBA_DISABLE_JIT=1 (the wrappers replace the module's `choose`, `greedy_hand` and `apply`, which
only the uncompiled engine looks up at each call); not collected by pytest.

    NUMBA_DISABLE_JIT=1 .venv/bin/python tests/rulesets/circles/legal_replay.py POLICY MATCHES

Prints JSON: per ordered deck pair, each match's winner and turns and the counters' sum, and how many decisions of each
kind the policy answered.
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
    jit_off = numba.config.DISABLE_JIT  # type: ignore[attr-defined]
    assert jit_off, "run under NUMBA_DISABLE_JIT=1: the compiled engine does not look `choose` and `apply` up"
    policy, matches = int(sys.argv[1]), int(sys.argv[2])
    chosen = [0] * 18
    policy_choice, greedy_pick, rule_apply = E.choose, E.greedy_hand, E.apply

    def listed_now(R: np.ndarray, S: np.ndarray) -> int:
        """The pending decision's rows are exactly what `legal_actions` lists now (into a buffer of its own)."""
        decision = E.decision_of(S)
        n = int(decision[E.D_N])
        fresh = np.zeros_like(E.actions_of(S))
        again = E.legal_actions(R, S, fresh)
        assert again == n and (fresh[:n] == E.actions_of(S)[:n]).all(), "the rows are not legal_actions' rows"
        return n

    def checked_choose(R: np.ndarray, S: np.ndarray) -> Any:
        n = listed_now(R, S)
        k = policy_choice(R, S)
        assert 0 <= k < n, f"the policy chose row {k} of {n} (kind {E.decision_of(S)[E.D_KIND]})"
        chosen[int(E.decision_of(S)[E.D_KIND])] += 1
        return k

    def checked_greedy_hand(R: np.ndarray, S: np.ndarray) -> Any:
        # Greedy answers a hand decision without a list: its card must be one `legal_actions` lists (or, with nothing
        # listed, none), and the row greedy's rule of thumb takes among the listed rows.
        decision = E.decision_of(S)
        kind = int(decision[E.D_KIND])
        assert decision[E.D_N] == E.UNLISTED, "greedy answers a hand decision before any listing"
        h = greedy_pick(R, S)
        fresh = E.actions_of(S)
        n = E.legal_actions(R, S, fresh)
        decision[E.D_N] = n
        rows = [int(a) for a in fresh[:n, 0]]
        assert (n == 0 and h == E.STOP) or h in rows, f"greedy played hand position {h}, listed {rows} (kind {kind})"
        if n > 0:
            by_rows = E.greedy_resource(R, S) if kind == E.K_RESOURCE else E.greedy_character(R, S)
            assert rows[by_rows] == h, f"greedy's row {by_rows} among {rows} is not its hand position {h}"
        decision[E.D_N] = E.UNLISTED
        chosen[kind] += 1
        return h

    def checked_apply(R: np.ndarray, S: np.ndarray, k: int) -> Any:
        n = listed_now(R, S)
        assert (n == 0 and k == -1) or 0 <= k < n, f"row {k} of {n} applied (kind {E.decision_of(S)[E.D_KIND]})"
        return rule_apply(R, S, k)

    E.choose = checked_choose
    E.greedy_hand = checked_greedy_hand
    E.apply = checked_apply  # type: ignore[assignment]
    print(json.dumps({"results": play(policy, matches), "chosen": chosen}))


if __name__ == "__main__":
    main()
