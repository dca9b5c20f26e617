"""Plays circles matches in plain Python with the policies' entry points and `carry_out` wrapped, to show every action a
policy chose and every row the rules took was one `legal_actions` listed. Run by test_circles_engine.py in a
subprocess under NUMBA_DISABLE_JIT=1 (the wrappers replace `choose`, `greedy_hand` and `carry_out`, which `take` calls
to take a row, in every module of the engine package that calls them, `replace_everywhere`, where only the uncompiled
engine looks them up at each call); not collected by pytest.

    NUMBA_DISABLE_JIT=1 .venv/bin/python tests/rulesets/circles/legal_replay.py POLICY MATCHES

Whole matches: every ordered pair of the bundled decks and ABILITY_DECKS. Midgames: matches played on from a board
set up so that the decisions whole matches rarely or never reach are asked (they are short, about 3 turns, so the
dearest abilities seldom come into play): MIDGAMES, each from MATCHES seeds.

Prints JSON: per ordered deck pair, each match's winner and turns and the counters' sum; per midgame, each match's
winner and turns; and how many decisions of each kind the policy answered.
"""

import json
import sys
from typing import Any

import numba
import numpy as np

from workbench.bench import bundled_cardset_and_decks
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

# Midgames: side A (0) is about to take its turn; each side's board (lanes left to right, cards in play since an
# earlier turn, so they attack), resources in play (red, blue, green; all ready), Life Points, hand, and draw deck
# (top first). The comment says which decisions the set-up asks on A's first turn; the match then plays on.
MIDGAMES: tuple[dict[str, Any], ...] = (
    {  # A's Magma Brute meets Fog Dancer (K_AVOID) and Mist Weaver with Harbor Colossus beside it (K_DISPERSE,
        # K_SPREAD_CARD, K_SPREAD_AMOUNT), in A's turn (B answers: `respond_in_opponent_turn` is on by default)
        "board": (["Magma Brute", "Magma Brute"], ["Fog Dancer", "Mist Weaver", "Harbor Colossus"]),
        "resources": ((3, 0, 0), (0, 4, 0)),
        "life": (2, 2),
        "hand": ([], ["Sapphire Pool"]),
        "deck": (["Ruby Shard"] * 8, ["Sapphire Pool"] * 8),
    },
    {  # A's blocked Siege Ballista with 3 red (K_LONG_RANGE), blocked Powder Keg Imp (K_SELF_DESTRUCT), blocked
        # Hawkeye Archer (K_TARGET), Battle Herald between two cards (K_ATTACK_BOOST), Fire Adept (K_FIREBALL),
        # Vine Trickster (K_REORDER)
        "board": (
            ["Siege Ballista", "Powder Keg Imp", "Hawkeye Archer", "Battle Herald", "Fire Adept", "Vine Trickster"],
            ["Reef Guardian", "Moss Elk", "Reef Guardian", "Sapling", "Tide Sprite", "Ember Pup"],
        ),
        "resources": ((9, 0, 2), (2, 2, 2)),
        "life": (2, 2),
        "hand": ([], []),
        "deck": (["Sapphire Pool"] * 8, ["Emerald Leaf"] * 8),
    },
    {  # A's Grove Keeper with a character in the discard pile (K_RESTORE), Fate Gardener (K_FUTURE_SIGHT,
        # K_ARRANGE), Seer of Leaves, Dream Weaver (K_SLEEP); B's Brook Healer (K_HEAL)
        "board": (
            ["Grove Keeper", "Fate Gardener", "Seer of Leaves", "Dream Weaver"],
            ["Magma Brute", "Brook Healer", "Moss Elk"],
        ),
        "resources": ((0, 0, 12), (0, 3, 0)),
        "life": (2, 2),
        "hand": ([], ["Sapphire Pool"]),
        "deck": (["Moss Elk", "Emerald Leaf", "Sapling", "Mossy Field", "Emerald Leaf"] * 2, ["Sapphire Pool"] * 8),
        "discard": (["Herd Caller", "Emerald Leaf"], []),
    },
    {  # A's attack would take B's last Life Point through the open lane 2: B's Still Water Monk (K_SERENITY)
        "board": (["Cinder Scout", "Cinder Scout"], ["Still Water Monk"]),
        "resources": ((2, 0, 0), (0, 5, 0)),
        "life": (2, 1),
        "hand": ([], []),
        "deck": (["Ruby Shard"] * 8, ["Sapphire Pool"] * 8),
    },
)


def ability_deck_arrays(compiled: Any) -> list[Any]:
    """ABILITY_DECKS as deck arrays of `compiled`'s card ids."""
    arrays = []
    for text in ABILITY_DECKS:
        ids: list[int] = []
        for part in text.split(","):
            card, copies = part.split("*")
            ids += [compiled.card_id(card)] * int(copies)
        arrays.append(np.array(ids, dtype=np.int64))
    return arrays


def midgame_arrays(compiled: Any, midgame: dict[str, Any], seed: int, policy: int) -> Any:
    """A `MatchArrays` set up as `midgame` says, both sides `policy`, side A (0) about to take its turn."""
    m = E.MatchArrays.new(compiled, seed=seed, policies=(policy, policy))
    for s in (0, 1):
        m.set_board(s, midgame["board"][s])
        m.lanes[s, : len(midgame["board"][s]), E.L_ENTERED] = 0
        m.set_resources(s, *midgame["resources"][s])
        m.side[s, E.S_LIFE] = midgame["life"][s]
        m.set_zone(s, E.HAND, midgame["hand"][s])
        m.set_zone(s, E.DECK, midgame["deck"][s])
        m.set_zone(s, E.DISCARD, midgame.get("discard", ([], []))[s])
    return m


def play(policy: int, matches: int) -> dict[str, list[Any]]:
    """Every ordered pair of the bundled decks and ABILITY_DECKS, `matches` matches each, both sides `policy`: per
    pair, [winners, turns, the counters' sum]."""
    ruleset = get_ruleset("circles")
    cardset, decks = bundled_cardset_and_decks(ruleset)
    engine, compiled, _ = compile_for(cardset, None)
    arrays = [compiled.deck_array(d) for d in decks] + ability_deck_arrays(compiled)
    results = {}
    seeds = np.arange(1, matches + 1, dtype=np.int64) * 7919
    first = (np.arange(matches) % 2).astype(np.int8)
    for a, deck_a in enumerate(arrays):
        for b, deck_b in enumerate(arrays):
            winners, turns, counters = engine.play_batch(compiled, deck_a, deck_b, seeds, first, policy, policy)
            results[f"{a},{b}"] = [[int(v) for v in winners], [int(v) for v in turns], int(np.asarray(counters).sum())]
    return results


def play_midgames(policy: int, matches: int) -> dict[str, list[Any]]:
    """Each of MIDGAMES played on to the end of the match from `matches` seeds, both sides `policy` (uncompiled:
    `play_match` is a kernel copied into the batch loop): per midgame, [winners, turns]."""
    cardset, _ = bundled_cardset_and_decks(get_ruleset("circles"))
    _, compiled, _ = compile_for(cardset, None)
    results = {}
    for number, midgame in enumerate(MIDGAMES):
        winners, turns = [], []
        for seed in range(1, matches + 1):
            m = midgame_arrays(compiled, midgame, seed * 7919, policy)
            E.play_match(m.R, m.S, np.int64(0))
            winners.append(int(m.game[E.G_WINNER]))
            turns.append(int(m.game[E.G_TURN]))
        results[str(number)] = [winners, turns]
    return results


def main() -> None:
    jit_off = numba.config.DISABLE_JIT  # type: ignore[attr-defined]
    assert jit_off, "run under NUMBA_DISABLE_JIT=1: the compiled engine does not look `choose` and `carry_out` up"
    policy, matches = int(sys.argv[1]), int(sys.argv[2])
    chosen = [0] * 18
    policy_choice, greedy_pick, rule_carry_out = E.choose, E.greedy_hand, E.carry_out

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

    def checked_carry_out(R: np.ndarray, S: np.ndarray, k: int) -> Any:
        n = listed_now(R, S)
        assert (n == 0 and k == -1) or 0 <= k < n, f"row {k} of {n} applied (kind {E.decision_of(S)[E.D_KIND]})"
        return rule_carry_out(R, S, k)

    E.replace_everywhere("choose", checked_choose)
    E.replace_everywhere("greedy_hand", checked_greedy_hand)
    E.replace_everywhere("carry_out", checked_carry_out)
    results = play(policy, matches)
    midgames = play_midgames(policy, matches)
    print(json.dumps({"results": results, "midgames": midgames, "chosen": chosen}))


if __name__ == "__main__":
    main()
