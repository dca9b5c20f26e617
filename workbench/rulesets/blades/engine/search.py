"""The Millennium Blades search policy: determinized Monte Carlo over the single a `search` seat plays on its turn
(its candidates, sampled worlds, rollouts, successive halving) and the tournament loop of a batch where a seat plays
`search` (`play_searched_matches`).

Imports `layout`, `rules` (a rollout plays the rules' turns on a clone of a world `determinize` dealt) and `policies`
(greedy's single, whose play is greedy's turn, the first candidate).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engines import (
    MAX_TRACE_EVENTS,
    EngineInt,
    inline_kernel,
    rng_seed,
    rules_kernel,
    shuffle_in_place,
)
from workbench.play.loop import BATCH_SEEDS, NO_CONTEXT, batch_loop, play_out
from workbench.play.policies import SEARCH, search_depth_of, search_rollout_policy_of, search_rollouts_of
from workbench.play.search import WIN_POINTS, halving_search, position_points
from workbench.rulesets.blades.engine.layout import (
    D_ACTION_BEFORE,
    D_NONE,
    D_SINGLE,
    EVAL_PLAY_TENTHS,
    EVAL_RP_HALF,
    G_ACTOR,
    G_CURRENT,
    G_DECISION,
    G_PLAYERS,
    G_STORE_LEFT,
    G_STORE_TOTAL,
    G_TURN,
    MAX_STORE,
    O_SEARCH_DEPTH,
    O_SEARCH_POLICY,
    O_SEARCH_ROLLOUTS,
    O_VP_ROUND,
    S_CARDS,
    S_HAND,
    S_POLICY,
    S_RP,
    S_SLOTS,
    S_USED,
    S_VP,
    SEARCH_SEED,
    SR_CAND,
    SR_CHOICE,
    SR_DECISIONS,
    SR_N,
    SR_ORDER,
    SR_POINTS,
    SR_ROLLOUTS,
    SR_TRIED,
    SR_TURN,
    SR_WANTED,
    policy_of,
)
from workbench.rulesets.blades.engine.policies import decide, greedy_single, play_on
from workbench.rulesets.blades.engine.rules import (
    advance,
    apply,
    clone_in_play,
    deal_unseen_hands,
    final_scoring,
    finish_batch_tournament,
    is_over,
    legal_singles,
    open_tournament,
    sort_words,
    start_batch_tournament,
    take,
)

# =====================================================================================================================
# The search policy: determinized Monte Carlo over the single a `search` seat plays on its turn, its rollouts shared
# out by successive halving
#
# On its own turn a `search` seat's candidates are greedy's whole turn (number 0: it keeps a tie) and each other
# distinct single in its hand (greedy's own single would repeat greedy's turn), played with greedy's Actions, Scurry
# position, targets and reactions. The decision's budget, `search_rollouts` times its candidates, is spent by
# successive halving (`workbench.play.search`): ceil(log2 m) rounds, in each every surviving candidate gets the
# same number of rollouts and the worse half is dropped. A sampled world: the state record cloned into the world
# record, what the seat cannot see dealt anew there (`determinize`'s deal, once per world for every candidate of a
# round; `rollout_world`). A rollout: the world cloned into the rollout's work record (both copies `clone_in_play`:
# what the rules read), the candidate's turn played, then the rest of the
# tournament by `search_rollout_policy` for every seat, scored by the seat's VP by the round's chart and its RP lead
# (`rollout_points`). In a round all candidates meet the same sampled worlds with the same later dice (common random
# numbers); the best survivor is played. Turns are sequential ("The Tournament Phase is a turn-based phase. Players
# will take turns in clockwise order around the table, each making a single turn."), so each decision is one seat's,
# on its own turn alone; its Reactions in another seat's turn are greedy's.
# =====================================================================================================================


@rules_kernel
def project_rp(st: Any) -> None:
    """The cut-off's evaluation, before the final scoring scores the position: each seat's RP raised by what its
    singles still to play are worth, EVAL_PLAY_TENTHS tenths of an RP for each (as many as its hand holds and its
    open slots take), rounded."""
    for q in range(st.game[G_PLAYERS]):
        plays = min(st.side[q, S_HAND], st.side[q, S_SLOTS] - st.side[q, S_USED])
        if plays > 0:
            st.side[q, S_RP] += (plays * EVAL_PLAY_TENTHS + 5) // 10


@rules_kernel
def play_turn_out(g: Any, st: Any) -> None:
    """The turn under way played to its end, every decision (the seat's own and the other seats' Reactions, targets
    and discards) by its seat's policy (`decide`), the rules stopping once the turn is over (`advance`'s
    `turn_end`)."""
    while st.game[G_DECISION] != D_NONE:
        take(g, st, decide(g, st, NO_CONTEXT))
        advance(g, st, True)


@rules_kernel
def finish_rollout(
    g: Any,
    st: Any,
    depth: EngineInt,
) -> None:
    """A rollout's rest of the tournament from the end of a turn: the seat loop's turns (`advance`, `play_turn_out`),
    every seat by its own policy (`search` plays as greedy), to the final scoring; with `depth` > 0 cut off once
    `depth` turns are played, the position then scored as if the tournament ended (`project_rp`, then the final
    scoring: Score clauses, the metagame, placement and VP)."""
    if depth <= 0:
        # To the end: the batch's own play loop, from the next turn's first decision.
        advance(g, st, False)
        play_on(g, st, NO_CONTEXT)
        return
    turns = 0
    while True:
        if turns >= depth:
            project_rp(st)
            st.game[G_TURN] += 1
            final_scoring(g, st, st.options[O_VP_ROUND])
            return
        advance(g, st, True)
        if is_over(st):
            return
        play_turn_out(g, st)
        turns += 1


@rules_kernel
def rollout_points(st: Any, p: EngineInt) -> EngineInt:
    """A finished rollout's points for seat p: its VP times `WIN_POINTS`, plus its RP lead over the best other seat
    (negative when behind) squashed into (0, WIN_POINTS) by `position_points` (EVAL_RP_HALF). VP decide; the lead
    tells apart rollouts whose VP are even, so few rollouts still rank candidates (a VP is worth more than any
    lead)."""
    best = -(1 << 40)
    for q in range(st.game[G_PLAYERS]):
        if q != p and st.side[q, S_RP] > best:
            best = st.side[q, S_RP]
    return st.side[p, S_VP] * WIN_POINTS + position_points(st.side[p, S_RP] - best, np.int64(EVAL_RP_HALF))


@rules_kernel
def sort_unseen_store(st: Any, world: Any) -> None:
    """The undrawn store of the decision's state (`st.store[:left]`) sorted once, for every world of the decision, into
    the world record's room past its store's cards (`world.store[total:total + left]`, which no rule reads and
    `clone_in_play` leaves): `rollout_world` deals each world's store from it. When the room is short (a store of
    more than MAX_STORE / 2 cards), each world sorts its own."""
    left = st.game[G_STORE_LEFT]
    total = st.game[G_STORE_TOTAL]
    if total + left <= MAX_STORE:
        for k in range(left):
            world.store[total + k] = st.store[k]
        sort_words(world.store, total, left)


@rules_kernel
def rollout_world(g: Any, st: Any, world: Any, p: EngineInt, seed: EngineInt) -> None:
    """One sampled world for a round of rollouts: the state cloned into the work record `world` (`clone_in_play`),
    what seat p cannot see dealt anew there from `seed`, drawing from the world's own generator, seeded so. Each
    candidate's rollout of the round starts from a clone of it, so the world is dealt once a round.

    The deal is `determinize`'s, draw for draw: the unseen hands (`deal_unseen_hands`), then the undrawn store sorted
    and shuffled; the sorted store is copied from where `sort_unseen_store` put it for the decision rather than
    sorted again (the same words: a world's store before its deal is the state's), which was a twentieth of a
    searched tournament's time."""
    clone_in_play(st, world)
    rng_seed(world.rng, seed)
    deal_unseen_hands(world, p, world.rng)
    left = world.game[G_STORE_LEFT]
    total = world.game[G_STORE_TOTAL]
    if total + left <= MAX_STORE:
        for k in range(left):
            world.store[k] = world.store[total + k]
    else:
        sort_words(world.store, np.int64(0), left)
    shuffle_in_place(world.store, left, world.rng)


@rules_kernel
def rollout(
    g: Any,
    world: Any,
    sim: Any,
    p: EngineInt,
    wanted: EngineInt,
    dice: EngineInt,
) -> EngineInt:
    """One rollout of seat p playing `wanted` (-1: greedy's turn) from its turn's first decision in the sampled world
    `world` (`rollout_world`), on the work record `sim` (a clone of the world) with its own counters, the later dice
    from seed `dice`. Its points (`rollout_points`)."""
    clone_in_play(world, sim)
    rng_seed(sim.rng, dice)
    # The trace counted as full: a rollout logs nothing (log_event writes only below the trace's length).
    sim.ecount[0] = MAX_TRACE_EVENTS
    players = sim.game[G_PLAYERS]
    own = policy_of(sim, p)
    policy = search_rollout_policy_of(own, sim.options[O_SEARCH_POLICY])
    depth = search_depth_of(own, sim.options[O_SEARCH_DEPTH])
    for q in range(players):
        sim.side[q, S_POLICY] = policy
    # The candidate's own turn is greedy's but for the single (greedy's turn itself when wanted is -1): the search
    # policy's, told the single.
    sim.side[p, S_POLICY] = SEARCH
    sim.search[SR_WANTED] = wanted
    play_turn_out(g, sim)
    sim.side[p, S_POLICY] = policy
    finish_rollout(g, sim, depth)
    return rollout_points(sim, p)


@rules_kernel
def search_candidates(g: Any, st: Any, p: EngineInt) -> int:
    """List seat p's candidates in its search words and return how many: greedy's turn (-1) first, then each distinct
    single of its hand in hand order but greedy's own single (`greedy_single`, whose play greedy's turn already is)."""
    search = st.search
    # Listed into the policies' second list: the open decision's own (st.actions) is the one its policy reads.
    n = legal_singles(st, p, st.probe)
    greedy = st.side[p, S_CARDS + greedy_single(g, st, p, st.probe, n)]
    search[SR_CAND] = -1
    m = 1
    for k in range(n):
        card = st.side[p, S_CARDS + st.probe[k]]
        repeated = card == greedy
        for j in range(1, m):
            if search[SR_CAND + j] == card:
                repeated = True
                break
        if not repeated:
            search[SR_CAND + m] = card
            m += 1
    return m


@inline_kernel
def context_world(context: Any, seed: EngineInt) -> None:
    """`halving_search`'s world dealer: `rollout_world` into the world record."""
    g, st, world, _sim, p = context
    rollout_world(g, st, world, p, seed)


@inline_kernel
def context_rollout(context: Any, k: EngineInt, world: EngineInt, dice: EngineInt) -> EngineInt:
    """`halving_search`'s rollout: candidate k (its single, SR_CAND + k) in the world of seed `world`, which
    `context_world` has just dealt into the world record."""
    g, st, world_record, sim, p = context
    wanted = st.search[SR_CAND + k]
    return rollout(g, world_record, sim, p, wanted, dice)


@rules_kernel
def search_decision(
    g: Any,
    st: Any,
    sim: Any,
    world: Any,
    p: EngineInt,
) -> int:
    """Seat p's single for this turn (-1: greedy's turn): the best candidate (`search_candidates`) after successive
    halving over `search_rollouts` x candidates rollouts (the seat's own `search:R` in place of the option:
    `search_rollouts_of`), greedy's on a tie. With one distinct single in hand there
    is nothing to choose: no rollout. The search's words are `st.search` (SR_*); its work records are `world` (a
    round's sampled world) and `sim` (a rollout's play)."""
    search = st.search
    m = search_candidates(g, st, p)
    search[SR_N] = m
    search[SR_CHOICE] = 0
    if m <= 1:
        return -1
    sort_unseen_store(st, world)
    context = (g, st, world, sim, p)
    budget = search_rollouts_of(policy_of(st, p), st.options[O_SEARCH_ROLLOUTS]) * m
    search[SR_ROLLOUTS] += halving_search(
        context_world, context_rollout, context, search, SR_ORDER, SR_POINTS, SR_TRIED, np.int64(m), budget, search
    )
    search[SR_DECISIONS] += 1
    best = search[SR_ORDER]
    search[SR_CHOICE] = best
    return search[SR_CAND + best]


@inline_kernel
def decide_searched(g: Any, st: Any, context: Any) -> EngineInt:
    """`decide` when a seat plays `search`: at a `search` seat's first decision of its own turn (its Action before,
    or its single when it has no Action), the single for the turn is searched (`search_decision`, into
    st.search[SR_WANTED], which its single decision plays: `search_single`); every decision is then `decide`'s.
    `context` holds the search's two work records: `sim`, the record a rollout plays on, and `world`, a round's
    sampled world (each of st's type)."""
    p = st.game[G_ACTOR]
    if st.side[p, S_POLICY] == SEARCH and p == st.game[G_CURRENT] and st.search[SR_TURN] != st.game[G_TURN]:
        decision = st.game[G_DECISION]
        if decision == D_ACTION_BEFORE or decision == D_SINGLE:
            sim, world = context
            st.search[SR_TURN] = st.game[G_TURN]
            st.search[SR_WANTED] = search_decision(g, st, sim, world, p)
    return decide(g, st, context)


@rules_kernel
def play_searched_on(g: Any, st: Any, context: Any) -> None:
    """A tournament in which a seat plays `search` played from its start to its end (`open_tournament`, then the
    play loop with `decide_searched`; `context`: the search's two work records)."""
    st.search[SR_TURN] = -1
    open_tournament(g, st)
    play_out(g, st, context, decide_searched, apply, is_over)


@inline_kernel
def start_searched_tournament(g: Any, st: Any, batch: Any, m: EngineInt) -> None:
    """`rules.start_batch_tournament`, then the search's own generator seeded from the tournament's seed (never from
    the tournament's generator: that would foretell its later store draws)."""
    start_batch_tournament(g, st, batch, m)
    rng_seed(st.search, batch[BATCH_SEEDS][m] ^ SEARCH_SEED)


@rules_kernel
def play_searched_tournament(
    g: Any,
    st: Any,
    sim: Any,
    world: Any,
) -> None:
    """`policies.play_tournament` where a `search` seat's single is chosen by `search_decision` on its turn (the
    whole game's tournaments, `market.py`)."""
    play_searched_on(g, st, (sim, world))


@rules_kernel
def play_searched_matches(g: Any, st: Any, batch: Any, sim: Any, world: Any) -> None:
    """`policies.play_matches` when a seat plays `search` (`play.loop.batch_loop`, each tournament set up by
    `start_searched_tournament` and played by `play_searched_on`; `sim` and `world`: the search's work records)."""
    batch_loop(g, st, batch, (sim, world), start_searched_tournament, play_searched_on, finish_batch_tournament)
