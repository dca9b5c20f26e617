"""The SOURCE search policy: determinized Monte Carlo over the turn's main action, its rollouts shared out by
successive halving and cut off with the game's own evaluation, and the batch loop of a match with a search side.
Imports the modules before it (`layout`, `board`, `rules`, `greedy`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engines import (
    EngineInt,
    IntArray,
    inline_kernel,
    llvm_inline_kernel,
    lowest_set_bit,
    rng_seed,
    rules_kernel,
)
from workbench.play.loop import (
    BATCH_POLICY_A,
    BATCH_POLICY_B,
    BATCH_SEEDS,
    NO_CONTEXT,
    batch_loop,
    play_out,
    play_until,
)
from workbench.play.policies import (
    CODE_MASK,
    GREEDY,
    P_CODE,
    SEARCH,
    search_depth_of,
    search_rollout_policy_of,
    search_rollouts_of,
)
from workbench.play.search import DRAW_POINTS, WIN_POINTS, halving_search, position_points
from workbench.rulesets.source.engine.board import st_of
from workbench.rulesets.source.engine.greedy import (
    choose,
    deal_batch_match,
    decide,
    finish_batch_match,
    greedy_main,
    is_over,
    policy_of,
)
from workbench.rulesets.source.engine.layout import (
    C_TRAP,
    C_TRAP_OWNER,
    D_MAIN,
    D_NONE,
    G_ACTOR,
    G_DECISION,
    G_MONSTERS,
    G_OVER,
    G_PLAYER,
    G_STAGE,
    G_TURN,
    G_WINNER,
    K_MONSTER,
    M_SPACE,
    NO_STAGE,
    O_SEARCH_DEPTH,
    O_SEARCH_POLICY,
    O_SEARCH_ROLLOUTS,
    O_SPACES,
    O_SUMMONING,
    O_SUPPORT,
    S_HAND,
    S_POLICY,
    S_SP,
    SR_CAND,
    SR_CHOICE,
    SR_DECISIONS,
    SR_HOW,
    SR_N,
    SR_ORDER,
    SR_PASS,
    SR_POINTS,
    SR_ROLLOUTS,
    SR_SIDES,
    SR_TRIED,
    SR_TURN,
    STAGE_BEGIN,
    STAGE_NEXT,
    STOP,
    SU_CARD,
    SYMBOLS,
    T_KIND,
)
from workbench.rulesets.source.engine.rules import (
    action_code,
    action_x,
    action_y,
    advance,
    apply,
    clone_state,
    determinize,
    legal_main,
    pack_action,
    play_stage,
    take,
)

# =====================================================================================================================
# The search policy: determinized Monte Carlo over the turn's main action, its rollouts shared out by successive
# halving and cut off with the game's own evaluation
#
# A `search` side plays GREEDY in the state, and its turn's first main decision (after the opponent's channels and
# the draw) is searched here (`decide_searched`, the play loop's `decide` in a match with a search side). Its
# candidates are "greedy plays the turn" (candidate 0: kept on a tie), "no main action this turn" and a summon of each
# distinct monster it may summon now, each followed by greedy's rest of the turn. The
# decision's budget, `search_rollouts` rollouts per candidate on average, is spent by successive halving
# (`workbench.play.search`): ceil(log2 m) rounds, in each every surviving candidate gets the same number of
# rollouts and the worse half is dropped. A rollout: the sampled world (the state cloned, what the side cannot see
# dealt anew by `determinize`, once per world for every candidate of a round) cloned into a work state, the
# candidate taken, greedy's rest of the turn, then `search_depth` more turns (0: the rest of the match) by
# `search_rollout_policy` for both sides, the position then scored by `search_evaluation`. In a round every candidate
# meets the same sampled worlds with the same later dice (common random numbers).
# =====================================================================================================================

CAND_GREEDY, CAND_PASS = -1, -2
"""Candidates that are not a summon: greedy plays the turn; no main action this turn."""
SEARCH_SEED = 0x5EA7C4
"""Mixed into the match's seed to seed the search's own generator (never the match's: that would foretell the
match's later draws)."""

EVAL_SP = 10
"""What `search_evaluation` counts one SourcePoint as worth (its unit: a tenth of a SourcePoint). The EVAL_* weights
are a logistic fit of who went on to win from the positions of greedy-against-greedy matches of the bundled decks,
scaled so a SourcePoint is EVAL_SP (tests/rulesets/source/search_eval_fit.py; docs/rulesets/source.md, *The search
policy*)."""
EVAL_MONSTER = -189
"""A monster of the side's on the map."""
EVAL_ST = 31
"""Per ten points of a monster's ST, its four values summed (so per 2.5 points of the average)."""
EVAL_STEP = -1
"""Per road step a monster has come from its owner's summoning space towards the opponent's."""
EVAL_ON_GOAL = -30
"""Per ten points of the best ST of the side's monster on the opponent's summoning space (the generator attack it
threatens)."""
EVAL_HAND_MONSTER = 44
"""A monster card in hand."""
EVAL_HAND_OTHER = 47
"""Any other card in hand (equipment, trap, channeled effect)."""
EVAL_SUPPORT = 69
"""A card on one of the side's support spaces (equipment or channeled effect in play)."""
EVAL_TRAP = 59
"""A trap set face down on the map."""
EVAL_HALF = 508
"""The advantage that scores three quarters of a win (`play.search.position_points`)."""


@rules_kernel
def search_side_worth(G: Any, state: Any, p: EngineInt) -> int:
    """Player p's worth in `search_evaluation` (EVAL_* weights, in tenths of a SourcePoint): its SourcePoints; each
    of its monsters on the map, by its ST (the four values summed, on p's turn) and the road steps it has come from
    p's summoning space towards the opponent's, and the one standing on the opponent's summoning space by the
    generator attack it threatens (its best ST); its monster and other cards in hand; its cards on support spaces;
    its traps set."""
    opts = G.opts
    dist = G.dist
    mon = state.mon
    side = state.side
    goal = opts[O_SUMMONING + 1 - p]
    start = dist[opts[O_SUMMONING + p], goal]
    worth = EVAL_SP * side[p, S_SP]
    slots = state.game[G_MONSTERS + p]
    while slots != 0:
        m = lowest_set_bit(slots)
        slots &= slots - 1
        total = 0
        best = 0
        for s in range(SYMBOLS):
            value = st_of(G, state, m, s, p)
            total += value
            best = max(best, value)
        space = mon[m, M_SPACE]
        worth += EVAL_MONSTER + EVAL_ST * total // 10 + EVAL_STEP * (start - dist[space, goal])
        if space == goal:
            worth += EVAL_ON_GOAL * best // 10
    for i in range(side[p, S_HAND]):
        worth += EVAL_HAND_MONSTER if G.table[state.hand[p, i], T_KIND] == K_MONSTER else EVAL_HAND_OTHER
    sup = state.sup
    for k in range(opts[O_SUPPORT]):
        if sup[p, k, SU_CARD] >= 0:
            worth += EVAL_SUPPORT
    cells = state.cells
    for space in range(opts[O_SPACES]):
        if cells[space, C_TRAP] >= 0 and cells[space, C_TRAP_OWNER] == p:
            worth += EVAL_TRAP
    return worth


@rules_kernel
def search_evaluation(G: Any, state: Any, p: EngineInt) -> EngineInt:
    """A rollout's points for p: WIN_POINTS, DRAW_POINTS or 0 once the match is over; cut off before, the difference
    of the two players' worth (`search_side_worth`) squashed into (0, WIN_POINTS) by `position_points`."""
    game = state.game
    if game[G_OVER] == 1:
        if game[G_WINNER] == p:
            return WIN_POINTS
        return DRAW_POINTS if game[G_WINNER] == -1 else 0
    advantage = search_side_worth(G, state, p) - search_side_worth(G, state, 1 - p)
    return position_points(advantage, EVAL_HALF)


@inline_kernel
def candidate_answer(G: Any, state: Any, search: IntArray, p: EngineInt, k: EngineInt) -> EngineInt:
    """Candidate k of the decision in `search` (the searching state's words) as p's answer to the main decision
    open in `state`: greedy's own (`choose`, p playing greedy there), STOP (no main action), or the summon."""
    candidate = search[SR_CAND + k]
    if candidate == CAND_GREEDY:
        return choose(G, state)
    if candidate == CAND_PASS:
        return STOP
    return pack_action(np.int64(K_MONSTER), candidate, search[SR_HOW + k], np.int64(-1))


@rules_kernel
def search_world(
    G: Any,
    state: Any,
    world: Any,
    p: EngineInt,
    seed: EngineInt,
) -> None:
    """One sampled world for a round of rollouts: the state cloned into `world`, what p cannot see dealt anew from
    `seed`. Every candidate's rollout starts from a copy of it."""
    clone_state(state, world)
    rng_seed(world.rng, seed)
    determinize(G, world, p, world.rng)


@rules_kernel
def search_rollout(
    G: Any,
    search: IntArray,
    world: Any,
    work: Any,
    p: EngineInt,
    k: EngineInt,
    dice: EngineInt,
) -> EngineInt:
    """One rollout of candidate k (of the decision in `search`) for p in the sampled `world` (`search_world`, its main
    decision open), played in the work record with the later dice from seed `dice`: the candidate taken, greedy's rest
    of the turn (no main action at all after "no main action"), then `search_depth` more turns (0: to the match's end)
    by `search_rollout_policy` for both sides; its points (`search_evaluation`)."""
    opts = G.opts
    clone_state(world, work)
    rng_seed(work.rng, dice)
    w_side = work.side
    w_game = work.game
    own = policy_of(work, p)
    policy = search_rollout_policy_of(own, opts[O_SEARCH_POLICY])
    depth = search_depth_of(own, opts[O_SEARCH_DEPTH])
    w_side[p, S_POLICY + P_CODE] = GREEDY
    w_side[1 - p, S_POLICY + P_CODE] = policy
    passes = search[SR_CAND + k] == CAND_PASS
    take(G, work, candidate_answer(G, work, search, p, k))
    until = np.int64(STAGE_NEXT)
    play_until(G, work, passes, rest_of_turn_decide, take, advance, is_over, until)
    w_side[p, S_POLICY + P_CODE] = policy
    turns = 0
    while w_game[G_OVER] == 0 and (depth == 0 or turns < depth):
        # The next turn (the turn cap ends the match as a draw first), played by the sides' policies.
        play_stage(G, work)
        play_until(G, work, NO_CONTEXT, decide, take, advance, is_over, until)
        turns += 1
    return search_evaluation(G, work, p)


@llvm_inline_kernel
def rest_of_turn_decide(G: Any, state: Any, passes: bool) -> EngineInt:
    """A rollout's rest of the searching side's turn after its candidate: greedy's, but for a turn without a main
    action (`passes`: its later main decisions that turn are STOP); the other side's by its rollout policy
    (`choose`)."""
    if passes and state.game[G_DECISION] == D_MAIN:
        return STOP
    return choose(G, state)


@inline_kernel
def context_world(context: Any, seed: EngineInt) -> None:
    """`halving_search`'s world dealer: `search_world` into the world record."""
    G, state, world, _work, p = context
    search_world(G, state, world, p, seed)


@inline_kernel
def context_rollout(context: Any, k: EngineInt, _world_seed: EngineInt, dice: EngineInt) -> EngineInt:
    """`halving_search`'s rollout: candidate k from the world `context_world` dealt."""
    G, state, world, work, p = context
    return search_rollout(G, state.search, world, work, p, k, dice)


@rules_kernel
def search_decision(
    G: Any,
    state: Any,
    world: Any,
    work: Any,
    p: EngineInt,
) -> int:
    """The search side p's candidates for its turn's main decision (open in `state`; listed in `state.search`) and
    the best after successive halving over `search_rollouts` x candidates rollouts (`world` holds each sampled world,
    `work` a rollout); returns its index (0, greedy's turn, on a tie)."""
    opts = G.opts
    hand = state.hand
    search = state.search
    out = state.actions
    search[SR_CAND] = CAND_GREEDY
    search[SR_CAND + 1] = CAND_PASS
    m = 2
    # The summons are the main decision's listed summons, one per distinct monster. Its own lister, as the match loop
    # calls it (`legal_actions` would compile every kind's lister into the search).
    n = legal_main(G, state, p, out)
    # Greedy's own main action (it reads the state and draws nothing): a summon it would make is candidate 0 already,
    # so the same summon (the same card, the same way) is not listed again. Its rollouts would give it the very
    # figures of candidate 0, which wins the tie: leaving it out changes no choice and saves its rollouts.
    greedy = greedy_main(G, state, p, out, n)
    # Typed for mypy only (a bare annotation runs no code): ints at first, then what the hand and action words hold.
    greedy_card: EngineInt
    greedy_how: EngineInt
    greedy_card = -1
    greedy_how = -1
    if greedy != STOP and action_code(greedy) == K_MONSTER:
        greedy_card = hand[p, action_x(greedy)]
        greedy_how = action_y(greedy)
    for i in range(n):
        if out[i] == STOP or action_code(out[i]) != K_MONSTER:
            continue
        h = action_x(out[i])
        card = hand[p, h]
        if card == greedy_card and action_y(out[i]) == greedy_how:
            continue
        repeated = False
        for j in range(2, m):
            if hand[p, search[SR_CAND + j]] == card:
                repeated = True
                break
        if not repeated:
            search[SR_CAND + m] = h
            search[SR_HOW + m] = action_y(out[i])
            m += 1
    search[SR_N] = m
    context = (G, state, world, work, p)
    budget = search_rollouts_of(policy_of(state, p), opts[O_SEARCH_ROLLOUTS]) * m
    search[SR_ROLLOUTS] += halving_search(
        context_world, context_rollout, context, search, SR_ORDER, SR_POINTS, SR_TRIED, np.int64(m), budget, search
    )
    search[SR_DECISIONS] += 1
    best = search[SR_ORDER]
    search[SR_CHOICE] = best
    return best


@inline_kernel
def played_in_the_state(word: EngineInt) -> EngineInt:
    """The policy word a side plays in the state: a search side's with greedy's code and its own parameter kept
    (`search:R`: the block's parameter, which `search_rollouts_of` reads; greedy never reads it), since it plays
    greedy there and `decide_searched` picks its main action; any other side's as it is."""
    if (word & CODE_MASK) == SEARCH:
        return word - SEARCH + GREEDY
    return word


@llvm_inline_kernel
def decide_searched(G: Any, state: Any, context: Any) -> EngineInt:
    """`decide` in a match where a side plays `search` (its sides in state.search[SR_SIDES]): a search side's first
    main decision of a turn is searched (`search_decision`; its answer is the chosen candidate's, and after "no main
    action" its later main decisions that turn are STOP); every other decision, and the other side's, is greedy's or
    that side's policy (`choose`). `context` holds the search's two work records: `world`, a round's sampled world,
    and `work`, the record a rollout plays on (each of the state's type)."""
    game = state.game
    search = state.search
    p = game[G_ACTOR]
    if game[G_DECISION] == D_MAIN and ((search[SR_SIDES] >> p) & 1) == 1:
        if search[SR_TURN] != game[G_TURN]:
            world, work = context
            search[SR_TURN] = game[G_TURN]
            best = search_decision(G, state, world, work, p)
            search[SR_PASS] = 1 if search[SR_CAND + best] == CAND_PASS else 0
            return candidate_answer(G, state, search, p, np.int64(best))
        if search[SR_PASS] == 1:
            return STOP
    return choose(G, state)


@rules_kernel
def play_searched_matches(G: Any, state: Any, batch: Any, world: Any, work: Any) -> None:
    """`play_matches` when a side plays `search`: its main decisions go through `decide_searched` (the world and work
    records are the rollouts'), the search's generator seeded from each match's seed; in the state it plays greedy.
    `play.loop.batch_loop` with `start_searched_match` and `play_searched`."""
    batch_loop(G, state, batch, (world, work), start_searched_match, play_searched, finish_batch_match)


@inline_kernel
def start_searched_match(G: Any, state: Any, batch: Any, m: EngineInt) -> None:
    """Match m of a batch dealt with each search side seated as greedy (`played_in_the_state`), then the search's
    words: its own generator seeded from the match's seed (never from the match's generator: that would foretell its
    later draws) and the search sides, as bits."""
    policy_a, policy_b = batch[BATCH_POLICY_A], batch[BATCH_POLICY_B]
    deal_batch_match(G, state, batch, m, played_in_the_state(policy_a), played_in_the_state(policy_b))
    search = state.search
    rng_seed(search, batch[BATCH_SEEDS][m] ^ SEARCH_SEED)
    search[SR_SIDES] = (1 if (policy_a & CODE_MASK) == SEARCH else 0) | (2 if (policy_b & CODE_MASK) == SEARCH else 0)
    search[SR_TURN] = -1
    search[SR_PASS] = 0


@inline_kernel
def play_searched(G: Any, state: Any, context: Any) -> None:
    """A match where a side searches played on to its end with `decide_searched` (`context`: the rollouts' world and
    work records)."""
    advance(G, state, np.int64(NO_STAGE))
    play_out(G, state, context, decide_searched, apply, is_over)


@rules_kernel
def play_searched_turn(G: Any, state: Any, world: Any, work: Any, p: EngineInt) -> None:
    """Player p's whole turn with p searching (its first main decision by `search_decision`, the rest of its turn
    greedy's; the other side by its own policy), as a rule test plays one (`world` and `work`: the rollouts'
    records)."""
    search = state.search
    search[SR_SIDES] = 1 << p
    search[SR_TURN] = -1
    search[SR_PASS] = 0
    game = state.game
    game[G_PLAYER] = p
    game[G_STAGE] = STAGE_BEGIN
    game[G_DECISION] = D_NONE
    context = (world, work)
    advance(G, state, np.int64(STAGE_NEXT))
    while game[G_DECISION] != D_NONE:
        take(G, state, decide_searched(G, state, context))
        advance(G, state, np.int64(STAGE_NEXT))
