"""The souls search policy: determinized Monte Carlo over the legal actions of each step of its own turn (its
candidates, rollouts and evaluation, shared out by successive halving), and the decision in a match where a side
plays `search` (`decide_searched`).

Imports `layout`, `rules` (`clone`, `determinize`, the listing, `apply_of`) and `policies` (a rollout is played on by
`play_on`, each side's decisions greedy's or random's; targets the search leaves open are greedy's).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engines import (
    EngineBool,
    EngineInt,
    IntArray,
    inline_kernel,
    rng_seed,
    rules_kernel,
)
from workbench.play.loop import NO_CONTEXT
from workbench.play.policies import P_CODE, SEARCH, search_depth_of, search_rollout_policy_of, search_rollouts_of
from workbench.play.search import DRAW_POINTS, WIN_POINTS, halving_search, position_points
from workbench.rulesets.souls.engine.layout import (
    A_CAST,
    A_END,
    A_EQUIP,
    A_SUMMON,
    A_TRAP,
    ALL_ACTIONS,
    C_COST,
    C_KIND,
    C_VALUE,
    G_ACTIONS,
    G_ACTIVE,
    G_LAST_TURN,
    G_OVER,
    G_PENDING,
    G_TURN,
    G_WINNER,
    KIND_MONSTER,
    MAX_ACTIONS,
    MAX_RANDOM_STEPS,
    NONE,
    O_SEARCH_DEPTH,
    O_SEARCH_POLICY,
    O_SEARCH_ROLLOUTS,
    PENDING_NONE,
    S_BURNING,
    S_EVERFLAME,
    S_HAND,
    S_PLAGUE,
    S_SHIELD,
    S_TRAPS,
    S_UNITS,
    SIDE_A,
    SIDE_B,
    Z_HAND,
    ZERO,
    cv,
    match_rng,
    opt,
    policy_of,
    sx,
    zx,
)
from workbench.rulesets.souls.engine.policies import (
    TW_STEPS,
    decide,
    forget_turn,
    greedy_answer,
    play_on,
    preferred_row,
    turn_words_now,
)
from workbench.rulesets.souls.engine.rules import (
    add_action,
    apply_of,
    clone,
    determinize,
    legal_actions_of,
    unit_value,
)

# ---------------------------------------------------------------------------------------------------------------
# The search policy: determinized Monte Carlo over the legal actions of each step of its own turn, its rollouts
# shared out by successive halving and cut off with the game's own evaluation
#
# A `search` side's turn is a run of steps. At each step its candidates are every distinct row of `legal_actions`
# (a summon into its card's preferred row only, when that row has room) and "end the turn now", in that order
# (`search_candidates`: a tie goes to the first, so the search acts rather than ends its turn). The step's budget,
# `search_rollouts` rollouts per candidate, is spent by successive halving (`workbench.play.search`): ceil(log2 m)
# rounds, in each every surviving candidate gets the same number of rollouts and the worse half is dropped. A
# rollout: the state cloned into a work buffer, what the side cannot see dealt anew (`determinize`, once per sampled
# world for all candidates), the candidate taken, the rest of the turn and `search_depth` more turns (0: the rest of
# the match) played by `search_rollout_policy` for both sides, the position then scored by `search_evaluation`. In a
# round all candidates meet the same sampled worlds with the same later dice (common random numbers). The best
# survivor is taken: an action is played and the next step searched, until the turn's end is chosen or no action is
# left.

SR_RNG, SR_DECISIONS, SR_ROLLOUTS, SR_N, SR_CHOICE, SR_CAND = 0, 4, 5, 6, 7, 8
"""The search's words: its own xorshift generator (4 words), decisions searched and rollouts played (summed over
the batch), the last decision's candidate count and choice, then its candidates, their points, the rollouts each
was given, and the survivors' order (best first after the last round: its first word is the choice)."""
MAX_CANDIDATES = MAX_ACTIONS + 2
SR_POINTS = np.int64(SR_CAND + MAX_CANDIDATES)
"""Points per candidate of the last decision, summed over its rollouts: WIN_POINTS (2,000) a rollout won, DRAW_POINTS
(1,000) drawn, 0 lost, and a cut-off rollout its position's points (`search_evaluation`, `position_points`)."""
SR_TRIED = np.int64(SR_POINTS + MAX_CANDIDATES)
"""Rollouts each candidate of the last decision was given (candidates dropped early were given fewer)."""
SR_ORDER = np.int64(SR_TRIED + MAX_CANDIDATES)
"""The candidates still in, best first once ranked (successive halving's list, `play.search.halving_keep`)."""
SEARCH_WORDS = int(SR_ORDER + MAX_CANDIDATES)
SEARCH_SEED = 0x5EA7C4
"""Mixed into the match's seed to seed the search's own generator (never the match's: that would foretell the
match's later draws)."""

EVAL_SHIELD = 80
"""What `search_evaluation` counts one shield point as worth, up to EVAL_SHIELD_CAP points, in tenths of greedy's worth
units (a monster's Atk + Def left + bonus, `unit_value`, counts 10 a point). The weights are a logistic fit of who went
on to win from the positions of greedy-against-greedy mirror matches (docs/rulesets/souls.md, *The search policy*)."""
EVAL_SHIELD_CAP = 5
"""Shield points above this many told nothing more about who wins, in the fit: the shield counts up to here."""
EVAL_BOARD = 10
"""A point of greedy worth of a monster in play (`unit_value`)."""
EVAL_HAND_MONSTER = 54
"""A monster card in hand, less EVAL_HAND_MONSTER_WORTH per point of its greedy worth (a big monster waits for
sacrifices), plus EVAL_HAND_FREE when it costs no sacrifice (it can be summoned at once)."""
EVAL_HAND_MONSTER_WORTH = 3
EVAL_HAND_FREE = 73
EVAL_HAND_SPELL = 26
"""A magic or trap card in hand."""
EVAL_TRAP_SET = 45
"""A trap set face down."""
EVAL_STATUS = 300
"""A status that strikes a side's shield at the start of every turn for the rest of the match (Burning, Everflame,
Plague) costs it this much."""
EVAL_HALF = np.int64(100)
"""The advantage that scores three quarters of a win (`play.search.position_points`): in the fit an advantage of
about 100 (10 worth points) won three times in four."""


@rules_kernel
def search_side_worth(G: IntArray, st: IntArray, side: EngineInt) -> int:
    """One side's worth in `search_evaluation` (EVAL_* weights): its shield points (up to EVAL_SHIELD_CAP), the greedy
    worth of its monsters in play (Atk + Def left + bonus), its cards in hand (a monster by what it costs and is
    worth) and traps set, less what its statuses will take from its shield."""
    shield = st[sx(side, S_SHIELD)]
    worth = EVAL_SHIELD * min(shield, EVAL_SHIELD_CAP) + EVAL_TRAP_SET * st[sx(side, S_TRAPS)]
    for u in range(st[sx(side, S_UNITS)]):
        worth += EVAL_BOARD * unit_value(G, st, side, u)
    for i in range(st[sx(side, S_HAND)]):
        card = st[zx(st, side, Z_HAND, i)]
        if cv(G, card, C_KIND) == KIND_MONSTER:
            worth += EVAL_HAND_MONSTER - EVAL_HAND_MONSTER_WORTH * cv(G, card, C_VALUE)
            if cv(G, card, C_COST) == 0:
                worth += EVAL_HAND_FREE
        else:
            worth += EVAL_HAND_SPELL
    if st[sx(side, S_BURNING)] > 0:
        worth -= EVAL_STATUS
    if st[sx(side, S_EVERFLAME)] > 0:
        worth -= EVAL_STATUS
    if st[sx(side, S_PLAGUE)] > 0:
        worth -= EVAL_STATUS
    return worth


@rules_kernel
def search_evaluation(G: IntArray, st: IntArray, side: EngineInt, cut_off: EngineBool) -> EngineInt:
    """A rollout's points for `side`: when it was cut off before the match's end (`cut_off`), the difference of the
    two sides' worth (`search_side_worth`), squashed into (0, WIN_POINTS) by `position_points`; else WIN_POINTS,
    DRAW_POINTS or 0 as the match ended."""
    if not cut_off:
        if st[G_WINNER] == side:
            return WIN_POINTS
        return DRAW_POINTS if st[G_WINNER] == -1 else 0
    advantage = search_side_worth(G, st, side) - search_side_worth(G, st, 1 - side)
    return position_points(advantage, EVAL_HALF)


@rules_kernel
def rollout_world(G: IntArray, st: IntArray, world: IntArray, side: EngineInt, seed: EngineInt) -> None:
    """One sampled world for a round of rollouts: `st` cloned into `world`, what `side` cannot see dealt anew from
    `seed`. Every candidate's rollout starts from a copy of it."""
    clone(st, world)
    # Dealt from the world's own dice words, seeded here (a rollout seeds its own again): the draws of the search as
    # it was when determinize drew from the state's generator.
    rng_seed(world, seed)
    determinize(G, world, side, match_rng(world))


@rules_kernel
def rollout(
    G: IntArray,
    st: IntArray,
    world: IntArray,
    work: IntArray,
    search: IntArray,
    side: EngineInt,
    k: EngineInt,
    dice: EngineInt,
) -> EngineInt:
    """One rollout of candidate k for `side` in the sampled `world` (`rollout_world`), played in `work` with the later
    dice from seed `dice`: the candidate (a target it leaves open answered by greedy), then the rest of the turn and
    `search_depth` more turns (0: to the match's end) by `search_rollout_policy` for both sides (`play_on`); its
    points (`search_evaluation`).

    The cut-off is the rules' own last turn, lowered in the rollout's copy (G_LAST_TURN): the match then ends as a
    draw before the next turn begins, so no rule learns of a search. A draw there, before the match's own last turn,
    is a cut-off, scored by the position (a match is drawn only at its last turn)."""
    clone(world, work)
    rng_seed(work, dice)
    own = policy_of(work, side)
    policy = search_rollout_policy_of(own, opt(G, O_SEARCH_POLICY))
    depth = search_depth_of(own, opt(G, O_SEARCH_DEPTH))
    # The rollouts' policy plays both sides: each block's code word (greedy or random draw nothing of their own).
    policy_of(work, SIDE_A)[P_CODE] = policy
    policy_of(work, SIDE_B)[P_CODE] = policy
    last = work[G_LAST_TURN]
    cut = work[G_TURN] + depth if depth > 0 else last
    if cut < last:
        work[G_LAST_TURN] = cut
    # The candidate's row, copied into the rollout's own action list, taken there.
    base = st[G_ACTIONS] + search[SR_CAND + k] * 4
    row = work[G_ACTIONS]
    for j in range(4):
        work[row + j] = st[base + j]
    apply_of(G, work, side, row)
    while work[G_PENDING] != PENDING_NONE and work[G_OVER] == 0:
        apply_of(G, work, side, greedy_answer(G, work, side))
    forget_turn(work)  # the rest of the turn is the rollout policy's, from its start
    play_on(G, work, NO_CONTEXT)
    return search_evaluation(G, work, side, work[G_WINNER] == -1 and cut < last)


@rules_kernel
def same_action(st: IntArray, side: EngineInt, i: EngineInt, j: EngineInt) -> bool:
    """Whether action rows i and j do the same thing: equal rows, or the same card from two places in the hand."""
    first = st[G_ACTIONS] + i * 4
    second = st[G_ACTIONS] + j * 4
    kind = st[first]
    if kind != st[second] or st[first + 2] != st[second + 2] or st[first + 3] != st[second + 3]:
        return False
    if kind == A_SUMMON or kind == A_CAST or kind == A_EQUIP or kind == A_TRAP:
        return st[zx(st, side, Z_HAND, st[first + 1])] == st[zx(st, side, Z_HAND, st[second + 1])]
    return st[first + 1] == st[second + 1]


@rules_kernel
def summon_elsewhere(G: IntArray, st: IntArray, side: EngineInt, i: EngineInt, n: EngineInt) -> bool:
    """Whether listed row i is a summon into another row than its card's preferred one (greedy's: short-range
    attackers in front, Ranged X at row X-1, cards that never attack behind) while a summon of the same card into the
    preferred row is listed among the n rows too: the search leaves it out."""
    out = st[G_ACTIONS]
    if st[out + 4 * i] != A_SUMMON:
        return False
    card = st[zx(st, side, Z_HAND, st[out + 4 * i + 1])]
    wanted = preferred_row(G, card)
    if st[out + 4 * i + 2] == wanted:
        return False
    for j in range(n):
        row = out + 4 * j
        if st[row] == A_SUMMON and st[row + 2] == wanted and st[zx(st, side, Z_HAND, st[row + 1])] == card:
            return True
    return False


@rules_kernel
def search_candidates(G: IntArray, st: IntArray, search: IntArray, side: EngineInt) -> int:
    """List a step's candidates in the search's words and return how many: each distinct legal action (the same card
    from two places in the hand is one; a summon only into its card's preferred row when that row has room,
    `summon_elsewhere`), in the order `legal_actions` lists them (into st's action list), "end the turn" last. Lower
    numbers win ties, so on a tie the search acts rather than ends its turn."""
    n = legal_actions_of(G, st, side, st[G_ACTIONS], ALL_ACTIONS, NONE)
    m = 0
    for i in range(n):
        if summon_elsewhere(G, st, side, i, n):
            continue
        repeated = False
        for j in range(m):
            if same_action(st, side, i, search[SR_CAND + j]):
                repeated = True
                break
        if not repeated:
            search[SR_CAND + m] = i
            m += 1
    return m


@inline_kernel
def context_world(context: Any, seed: EngineInt) -> None:
    """`halving_search`'s world dealer: `rollout_world` into the context's world buffer."""
    G, st, world, _play, _search, side = context
    rollout_world(G, st, world, side, seed)


@inline_kernel
def context_rollout(context: Any, k: EngineInt, _world_seed: EngineInt, dice: EngineInt) -> EngineInt:
    """`halving_search`'s rollout: candidate k from the world `context_world` dealt (its seed is not needed again)."""
    G, st, world, play, search, side = context
    return rollout(G, st, world, play, search, side, k, dice)


@rules_kernel
def search_decision(G: IntArray, st: IntArray, work: IntArray, search: IntArray, side: EngineInt) -> int:
    """One step of a search side's turn: its candidates (`search_candidates`) and the best after successive halving
    over `search_rollouts` x candidates rollouts (the side's own `search:R` in place of the option:
    `search_rollouts_of`; `work[0]` holds each sampled world, `work[1]` a rollout); returns its candidate number.
    With no legal action but "end the turn", that without a rollout."""
    m = search_candidates(G, st, search, side)
    search[SR_N] = m
    search[SR_CHOICE] = m - 1
    if m == 1:
        return m - 1
    # The search's words hold its generator first (SR_RNG = 0), so they are halving_search's `rng` too.
    context = (G, st, work[0], work[1], search, side)
    search[SR_ROLLOUTS] += halving_search(
        context_world,
        context_rollout,
        context,
        search,
        SR_ORDER,
        SR_POINTS,
        SR_TRIED,
        m,
        search_rollouts_of(policy_of(st, side), opt(G, O_SEARCH_ROLLOUTS)) * m,
        search,
    )
    search[SR_DECISIONS] += 1
    best = search[SR_ORDER]
    search[SR_CHOICE] = best
    return best


@rules_kernel
def decide_searched(G: IntArray, st: IntArray, context: Any) -> EngineInt:
    """`decide` in a match where a side plays `search` (`context`: the rollouts' buffers `work` and the search's words
    `search`): a search side's choice, as the word of its row, is its search's (`search_decision`), a target a row
    left open greedy's, and "end the turn" after MAX_RANDOM_STEPS actions in a turn (TW_STEPS of the turn words); any
    other side's is `decide`'s."""
    work, search = context
    side = st[G_ACTIVE]
    if policy_of(st, side)[P_CODE] != SEARCH:
        return decide(G, st, NO_CONTEXT)
    if st[G_PENDING] != PENDING_NONE:
        return greedy_answer(G, st, side)
    out = st[G_ACTIONS]
    turn = turn_words_now(st)
    if st[turn + TW_STEPS] >= MAX_RANDOM_STEPS:
        add_action(st, out, ZERO, A_END, ZERO, ZERO, ZERO)
        return out
    row = out + 4 * search[SR_CAND + search_decision(G, st, work, search, side)]
    if st[row] != A_END:
        st[turn + TW_STEPS] += 1
    return row
