"""A fingerprint of everything the circles engine decides, to show a speed change changed no result.

Not a test (pytest does not collect it): run it before and after an engine change and compare the digests.

    .venv/bin/python tests/rulesets/circles/results_fingerprint.py [MATCHES] [SEARCH_MATCHES]

Batches: every ordered pair of seven decks (the four bundled ones and three decks built here so that every ability
fires), greedy/greedy, random/random and greedy/random, under the default options; four pairs under each other
option value. Each batch's winners, turns and counters go into one SHA-256 digest. Traces: all 16 ordered pairs of
bundled decks, 40 seeds, the three policy pairs, under three option sets; every event goes into a second digest.
Search: all 16 ordered pairs of bundled decks, search/greedy, greedy/search and search/random, SEARCH_MATCHES
matches each (default 40: the search plays about 3,000 matches a second) under the default options, into a third.
"""

import hashlib
import sys

import numpy as np

from workbench.bench import bundled_cardset_and_decks
from workbench.play.policies import policy_word
from workbench.rulesets import get_ruleset
from workbench.simulate import batch_seeds, compile_for

n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
search_matches = int(sys.argv[2]) if len(sys.argv) > 2 else 40
ruleset = get_ruleset("circles")
cardset, decks = bundled_cardset_and_decks(ruleset)
variants = [
    None,
    {"resources_per_turn": 1},
    {"destroy_when": "at_least"},
    {"out_of_cards": "reshuffle_discard_draws_3"},
    {"respond_in_opponent_turn": False},
    {"sleeping_card_opens_lane": False},
    {"serenity_protects": "own_side"},
    {"extra_card": "each_turn"},
    {"new_characters_attack": False},
    {"direct_damage": "one_per_attacker"},
    {"turn_cap": 200},
]
RED = (
    "Siege Ballista*3,Hawkeye Archer*3,Powder Keg Imp*3,Battle Herald*2,Fire "
    "Adept*2,War Drummer*2,Spark Lancer*1,Forge Breaker*1,Ruby Shard*13"
)
GREEN = (
    "Herd Caller*3,Grove Keeper*2,Fate Gardener*2,Seer of Leaves*2,Vine "
    "Trickster*2,Dream Weaver*2,Mirror Moth*2,Thorn Sprinter*2,Emerald Leaf*13"
)
WALL = (
    "Coral Bastion*2,Shell Knight*2,Harbor Colossus*2,Spring Oracle*2,Fog Dancer*2,Mist "
    "Weaver*2,Still Water Monk*2,Brook Healer*2,Tidal Duelist*1,Sapphire Pool*11,Ruby Shard*2"
)
seeds = np.concatenate([s for s, _ in batch_seeds(7, n)])
first = (np.arange(n) % 2).astype(np.int8)
res = {}
h = hashlib.sha256()
for vi, opts in enumerate(variants):
    engine, compiled, _ = compile_for(cardset, opts)
    arrays = [(d.name, compiled.deck_array(d)) for d in decks]
    for text, name in ((RED, "red"), (GREEN, "green"), (WALL, "wall")):
        ids = []
        for part in text.split(","):
            card, copies = part.split("*")
            ids += [compiled.card_id(card)] * int(copies)
        arrays.append((name, np.array(ids, dtype=np.int64)))
    pairs = (
        [(a, b) for a in arrays for b in arrays]
        if vi == 0
        else [(arrays[i], arrays[j]) for i, j in ((0, 1), (4, 5), (6, 2), (3, 4))]
    )
    for (na, da), (nb, db) in pairs:
        for pa, pb in ((0, 0), (1, 1), (0, 1)):
            m = n if (pa, pb) == (0, 0) else n // 5
            w, t, c = engine.play_batch(compiled, da, db, seeds[:m], first[:m], pa, pb)
            key = f"{vi}|{na}|{nb}|{pa}{pb}"
            res[key + "|w"] = w
            res[key + "|t"] = t
            res[key + "|c"] = c
            for part in (w, t, c):
                h.update(np.ascontiguousarray(part).tobytes())
print(len(res) // 3, "batches; digest", h.hexdigest())

h = hashlib.sha256()
total = 0
for opts in (None, {"out_of_cards": "reshuffle_discard_draws_3"}, {"extra_card": "each_turn"}):
    engine, compiled, _ = compile_for(cardset, opts)
    arr = [compiled.deck_array(d) for d in decks]
    for a in range(4):
        for b in range(4):
            for seed in range(40):
                for pa, pb in ((0, 0), (1, 1), (0, 1)):
                    w, t, ev = engine.play_traced(compiled, arr[a], arr[b], seed * 7919 + 1, seed % 2, pa, pb)
                    h.update(np.array([w, t], dtype=np.int64).tobytes())
                    h.update(np.ascontiguousarray(ev).tobytes())
                    total += len(ev)
print(total, "trace events; digest", h.hexdigest())

h = hashlib.sha256()
engine, compiled, _ = compile_for(cardset, None)
arr = [compiled.deck_array(d) for d in decks]
search_p, greedy_p, random_p = (policy_word(name, engine.policies) for name in ("search", "greedy", "random"))
search_seeds = np.arange(1, search_matches + 1, dtype=np.int64) * 7919
search_first = (np.arange(search_matches) % 2).astype(np.int8)
for a in range(4):
    for b in range(4):
        for pa, pb in ((search_p, greedy_p), (greedy_p, search_p), (search_p, random_p)):
            w, t, c = engine.play_batch(compiled, arr[a], arr[b], search_seeds, search_first, pa, pb)[:3]
            for part in (w, t, c):
                h.update(np.ascontiguousarray(part).tobytes())
print(f"48 search batches of {search_matches}; digest", h.hexdigest())
