"""The circles search policy: determinized Monte Carlo over each decision of its own turn (`decide_searched`, the
rollouts, successive halving over the candidates), and the loops of a batch where a side plays `search`.

Imports `layout`, `rules` (a searched turn is the rules' turn, played again from a snapshot) and `greedy` (the other
policies, and greedy's row as the search's default).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engines import EngineInt, IntArray, inline_kernel, rng_seed, rules_kernel
from workbench.play.loop import BATCH_SEEDS, NO_CONTEXT, batch_loop, play_until
from workbench.play.policies import SEARCH, search_rollout_policy_of, search_rollouts_of
from workbench.play.search import DRAW_POINTS, WIN_POINTS, halving_search
from workbench.rulesets.circles.engine.greedy import (
    choose,
    choose_hand,
    finish_batch_match,
    greedy_choice,
    listed_hand_row,
    start_batch_match,
)
from workbench.rulesets.circles.engine.layout import (
    C_ABORTED,
    C_CAND,
    C_DISTINCT,
    C_MODE,
    C_NEED_DEFAULT,
    C_NEED_N,
    C_ORDER,
    C_POINTS,
    C_RESEED,
    C_ROLLOUT_POLICY,
    C_SEARCHED,
    C_SEARCHER,
    C_STATS,
    C_TAPE,
    C_TAPE_LEN,
    C_TAPE_POS,
    C_TRIED,
    D_KIND,
    D_N,
    D_SIDE,
    G_NEXT,
    G_WINNER,
    HAND,
    K_CHARACTER,
    K_REORDER,
    K_RESOURCE,
    KIND_RESOURCE,
    MAX_CHOICES,
    O_SEARCH_ROLLOUT_POLICY,
    O_SEARCH_ROLLOUTS,
    S_POLICY,
    SEARCH_LIVE,
    SEARCH_OFF,
    SEARCH_REPLAY,
    SEARCH_SEED,
    STAGE_TURN,
    T_COLOUR,
    T_KIND,
    TAPE_MAX,
    UNDECIDED,
    actions_of,
    decision_of,
    game_of,
    options_of,
    policy_of,
    restore,
    rng_of,
    search_of,
    search_rng_of,
    side_of,
    table_of,
    zones_of,
)
from workbench.rulesets.circles.engine.rules import (
    advance,
    begin_resources,
    clone,
    determinize,
    is_hand_decision,
    no_decision_open,
    sort_unseen,
    start_turn,
    take_answer,
    turn_cap_reached,
)

# ---------------------------------------------------------------------------------------------------------------
# The search policy: determinized Monte Carlo over each decision of its own turn
#
# A `search` side's turn is played from a snapshot taken after its draw, with the decisions taken so far on a tape;
# at the first decision not on the tape the turn stops (its effects are thrown away by going back to the snapshot),
# the decision is searched, its choice goes on the tape, and the turn is played again. A sampled world is a clone of
# the snapshot with the hidden cards resampled (`determinize`), dealt once for every candidate of a round; a rollout
# is a clone of that world, the tape plus the choice under test replayed, and the rest of the match played by the
# rollout policy. In the opponent's turn the search side answers as greedy does: a rollout from that turn's start
# would replay the opponent's plays from a hand it cannot see. Every decision reaches the search through this
# module's own loop over the rules' decisions (`play_stages_searching`: the policies' `answer`, with `search`'s
# sides answered by `decide_searched`).


@rules_kernel
def decide_searched(R: IntArray, S: IntArray, s: EngineInt, n: EngineInt, default: EngineInt) -> EngineInt:
    """A `search` side's row among the n listed actions of the pending decision (`default` is greedy's).

    In the searching side's own turn of the real match: the row already taken at this point of the turn (the
    tape), or, at a decision not yet taken, greedy's row and a note that the turn must stop here (C_ABORTED, with
    which listed rows are alike in C_DISTINCT): the match loop searches this decision and plays the turn again from
    its start (`play_searched_matches`). In a rollout: the tape's rows, the last being the one under test; then the
    rollout policy takes over (`end_replay`). Anywhere else (the opponent's turn, a single row): greedy's row.
    """
    control = search_of(S)
    mode = control[C_MODE]
    if n <= 1 or mode == SEARCH_OFF or control[C_SEARCHER] != s:
        return default
    position = control[C_TAPE_POS]
    if position < control[C_TAPE_LEN]:
        choice = control[C_TAPE + position]
        control[C_TAPE_POS] = position + 1
        if mode == SEARCH_REPLAY and position + 1 == control[C_TAPE_LEN]:
            end_replay(S)
        return choice if choice < n else default
    if mode == SEARCH_LIVE and control[C_ABORTED] == 0 and control[C_TAPE_LEN] < TAPE_MAX:
        control[C_ABORTED] = 1
        control[C_NEED_N] = n
        control[C_NEED_DEFAULT] = default
        for k in range(min(n, MAX_CHOICES)):
            distinct = 1
            for j in range(k):
                if same_choice(R, S, k, j):
                    distinct = 0
                    break
            control[C_DISTINCT + k] = distinct
    return default


@rules_kernel
def end_replay(S: IntArray) -> None:
    """A rollout has replayed its tape: both sides now play the rollout policy, with fresh dice from the search's
    generator (the match's own generator would foretell the real match's later random choices)."""
    control, side = search_of(S), side_of(S)
    side[0, S_POLICY] = control[C_ROLLOUT_POLICY]
    side[1, S_POLICY] = control[C_ROLLOUT_POLICY]
    rng_seed(rng_of(S), control[C_RESEED])
    control[C_MODE] = SEARCH_OFF


@rules_kernel
def hand_choice_key(R: IntArray, card: EngineInt) -> EngineInt:
    """What tells two hand cards apart as choices: a resource's colour (two red resources play alike), else the
    card."""
    table = table_of(R)
    if table[card, T_KIND] == KIND_RESOURCE:
        return -2 - table[card, T_COLOUR]
    return card


@rules_kernel
def same_choice(R: IntArray, S: IntArray, k: EngineInt, j: EngineInt) -> bool:
    """Listed rows k and j play alike, so the search weighs only the first: two resources of one colour, two
    copies of a character, a swap and its mirror."""
    zones, decision, out = zones_of(S), decision_of(S), actions_of(S)
    kind, s = decision[D_KIND], decision[D_SIDE]
    if kind == K_RESOURCE or kind == K_CHARACTER:
        if out[k, 0] < 0 or out[j, 0] < 0:
            return False
        return hand_choice_key(R, zones[s, HAND, out[k, 0]]) == hand_choice_key(R, zones[s, HAND, out[j, 0]])
    if kind == K_REORDER:
        return out[k, 0] == out[j, 1] and out[k, 1] == out[j, 0]
    return False


@inline_kernel
def choose_searching(R: IntArray, S: IntArray) -> EngineInt:
    """The deciding side's row among the listed actions: a `search` side's by `decide_searched` (greedy's row its
    default), any other side's by its own policy (`greedy.choose`)."""
    decision = decision_of(S)
    s = decision[D_SIDE]
    if side_of(S)[s, S_POLICY] == SEARCH:
        return decide_searched(R, S, s, decision[D_N], greedy_choice(R, S))
    return choose(R, S)


@inline_kernel
def search_answer(R: IntArray, S: IntArray, _context: Any) -> EngineInt:
    """`greedy.answer` with the search among the policies: a `search` side's hand decision is listed and its row
    chosen (`choose_searching`), and answered by that row's hand position."""
    if not is_hand_decision(S):
        return choose_searching(R, S)
    if side_of(S)[decision_of(S)[D_SIDE], S_POLICY] != SEARCH:
        return choose_hand(R, S)
    return listed_hand_row(R, S, choose_searching)


@inline_kernel
def play_stages_searching(R: IntArray, S: IntArray, until: EngineInt) -> None:
    """`greedy.play_stages` with the search among the policies (`search_answer`)."""
    play_until(R, S, NO_CONTEXT, search_answer, take_answer, advance, no_decision_open, until)


@rules_kernel
def turn_body_searching(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """Side s's turn after the draw, played with the search among the policies: one call, which the search's batch
    loop, its turns and its rollouts share (one compiled copy for the three)."""
    begin_resources(S, s)
    play_stages_searching(R, S, np.int64(STAGE_TURN))


@inline_kernel
def play_turns_searching(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """The match played on, turn by turn, from side s's turn until it is over (a rollout's rest of the match): each
    turn its start (`start_turn`) and then `turn_body_searching`, the call the search's turns make, so the rollouts
    compile no match loop of their own."""
    game = game_of(S)
    while game[G_WINNER] == UNDECIDED and not turn_cap_reached(R, S, s):
        start_turn(R, S, s)
        turn_body_searching(R, S, s)
        s = 1 - s


@inline_kernel
def deal_world(R: IntArray, sorted_snapshot: IntArray, world: IntArray, s: EngineInt, seed: EngineInt) -> None:
    """One sampled world for a round of rollouts: the turn's snapshot, its unseen cards already sorted
    (`sorted_snapshot`, made once a decision by `search_decision`), cloned into the work buffer `world`, then what
    side s cannot see dealt anew there (`determinize`) from the search's generator seeded with `seed`: the world the
    snapshot itself would be dealt, since `determinize` sorts before it shuffles. Every candidate's rollout of the
    round starts from a clone of it, so a world is dealt once a round and the unseen cards sorted once a decision,
    not both once a rollout (that sort was about half of a searched match's time)."""
    clone(sorted_snapshot, world)
    rng = search_rng_of(world)
    rng_seed(rng, seed)
    determinize(R, world, s, rng)


@inline_kernel
def rollout(
    R: IntArray,
    world: IntArray,
    scratch: IntArray,
    s: EngineInt,
    choice: EngineInt,
    dice: EngineInt,
) -> int:
    """One rollout of `choice` for side s in the sampled world `world` (`deal_world`), with the dice of seed `dice`
    after the choice: WIN_POINTS if s wins, DRAW_POINTS for a draw, 0 if it loses."""
    opts = options_of(R)
    clone(world, scratch)
    control, game = search_of(scratch), game_of(scratch)
    control[C_MODE] = SEARCH_REPLAY
    control[C_TAPE + control[C_TAPE_LEN]] = choice
    control[C_TAPE_LEN] += 1
    control[C_TAPE_POS] = 0
    control[C_ABORTED] = 0
    control[C_RESEED] = dice
    control[C_ROLLOUT_POLICY] = search_rollout_policy_of(policy_of(world, s), opts[O_SEARCH_ROLLOUT_POLICY])
    turn_body_searching(R, scratch, s)
    if control[C_MODE] == SEARCH_REPLAY:  # the choice under test was not asked again (cannot happen: same state)
        end_replay(scratch)
    play_turns_searching(R, scratch, 1 - s)
    if game[G_WINNER] == s:
        return WIN_POINTS
    return DRAW_POINTS if game[G_WINNER] == -1 else 0


@inline_kernel
def context_world(context: Any, seed: EngineInt) -> None:
    """`halving_search`'s world dealer: `deal_world` into the world buffer."""
    R, sorted_snapshot, world, _scratch, s, _control = context
    deal_world(R, sorted_snapshot, world, s, seed)


@inline_kernel
def candidate_rollout(context: Any, c: EngineInt, _world: EngineInt, dice: EngineInt) -> EngineInt:
    """`halving_search`'s rollout: candidate c, the listed row C_CAND + c, rolled out in the world `context_world`
    has just dealt into the world buffer."""
    R, _sorted_snapshot, world, scratch, s, control = context
    return rollout(R, world, scratch, s, control[C_CAND + c], dice)


@inline_kernel
def search_decision(
    R: IntArray,
    snapshot: IntArray,
    sorted_snapshot: IntArray,
    world: IntArray,
    scratch: IntArray,
    s: EngineInt,
    n: EngineInt,
    default: EngineInt,
) -> EngineInt:
    """The listed row among n that successive halving finds best (`workbench.play.search`): its candidates are
    greedy's row (`default`, candidate 0, so a tie keeps it) and every other distinct listed row (C_DISTINCT: a row
    alike an earlier one is not weighed again); its budget, `search_rollouts` rollouts per candidate (the side's own
    `search:R` in its place: `search_rollouts_of`), is spent in ceil(log2 candidates) rounds, each giving every
    candidate still in the same number of rollouts and keeping the better half.

    In a round every candidate is played in the same sampled worlds with the same later dice (common random numbers):
    the comparison between choices then carries only the noise of what the choices change, not of which hidden cards
    each happened to meet, which with independent samples drowned most differences at this budget. The rollouts and
    points of each listed row are left in the snapshot's C_STATS (0 for a row not weighed). The worlds are dealt from
    `sorted_snapshot`, a copy of the snapshot with the cards s cannot see sorted (`sort_unseen`), made here once.
    """
    control = search_of(snapshot)
    if n > MAX_CHOICES:
        return default
    control[C_CAND] = default
    m = 1
    for k in range(n):
        control[C_STATS + k] = 0
        control[C_STATS + MAX_CHOICES + k] = 0
        if k != default and control[C_DISTINCT + k] == 1:
            control[C_CAND + m] = k
            m += 1
    budget = search_rollouts_of(policy_of(snapshot, s), options_of(R)[O_SEARCH_ROLLOUTS]) * m
    if m > 1:  # one candidate plays no rollout (`halving_search`): no world to deal
        clone(snapshot, sorted_snapshot)
        sort_unseen(sorted_snapshot, s)
    context = (R, sorted_snapshot, world, scratch, s, control)
    rng = search_rng_of(snapshot)
    halving_search(context_world, candidate_rollout, context, control, C_ORDER, C_POINTS, C_TRIED, m, budget, rng)
    for c in range(m):
        row = control[C_CAND + c]
        control[C_STATS + row] = control[C_TRIED + c]
        control[C_STATS + MAX_CHOICES + row] = control[C_POINTS + c]
    return control[C_CAND + control[C_ORDER]]


@inline_kernel
def play_searched_turn(
    R: IntArray,
    S: IntArray,
    snapshot: IntArray,
    sorted_snapshot: IntArray,
    world: IntArray,
    scratch: IntArray,
    s: EngineInt,
) -> None:
    """The rest of side s's turn after its draw, each of its decisions searched; the tape of its choices is left in
    S's search part (C_TAPE, C_TAPE_LEN) and the last decision's statistics in C_STATS."""
    control, taped = search_of(S), search_of(snapshot)
    control[C_MODE] = SEARCH_LIVE
    control[C_SEARCHER] = s
    control[C_TAPE_LEN] = 0
    control[C_TAPE_POS] = 0
    control[C_ABORTED] = 0
    restore(S, snapshot)
    while True:
        turn_body_searching(R, S, s)
        if control[C_ABORTED] == 0:
            return
        n, default = control[C_NEED_N], control[C_NEED_DEFAULT]
        for k in range(min(n, MAX_CHOICES)):
            taped[C_DISTINCT + k] = control[C_DISTINCT + k]
        choice = search_decision(R, snapshot, sorted_snapshot, world, scratch, s, n, default)
        taped[C_SEARCHED] += 1
        taped[C_TAPE + taped[C_TAPE_LEN]] = choice
        taped[C_TAPE_LEN] += 1
        restore(snapshot, S)


@rules_kernel
def play_searched_matches(
    R: IntArray,
    S: IntArray,
    batch: Any,
    snapshot: IntArray,
    sorted_snapshot: IntArray,
    world: IntArray,
    scratch: IntArray,
) -> None:
    """`play_matches` when a side plays `search`, with the turn's snapshot, its copy with the unseen cards sorted, a
    round's sampled world and the rollouts' buffer: the play layer's loop (`play.loop.batch_loop`), each match set up
    by `start_searched_match` and played by `play_searched_match`.

    The search's match loop, its decisions and its rollouts are copied into this one kernel (one call site each):
    each kernel links, optimizes and code-generates again everything it calls, the whole turn included, so each level
    of calls between this loop and `turn_body_searching` cost about 2 s of compile CPU. Every turn, the real match's
    and the rollouts', is a call of `turn_body_searching` (`play_turns_searching`): a second match loop copied in for
    the rollouts took the search's compile from 52 to 102 s of CPU."""
    context = (snapshot, sorted_snapshot, world, scratch)
    batch_loop(R, S, batch, context, start_searched_match, play_searched_match, finish_batch_match)


@inline_kernel
def start_searched_match(R: IntArray, S: IntArray, batch: Any, m: EngineInt) -> None:
    """`greedy.start_batch_match`, then the search's own generator seeded from the match's seed (apart from the
    match's) and the search live (C_MODE)."""
    start_batch_match(R, S, batch, m)
    rng_seed(search_rng_of(S), batch[BATCH_SEEDS][m] ^ SEARCH_SEED)
    search_of(S)[C_MODE] = SEARCH_LIVE


@inline_kernel
def play_searched_match(R: IntArray, S: IntArray, context: Any) -> None:
    """A batch's match where a side plays `search`, played from its first side's turn (game[G_NEXT], as
    `start_batch_match` begins the turns) to its end: `greedy.play_match` but for a `search` side, each of whose
    turns is played from a snapshot after its draw, and again after each decision searched (see the module's first
    comment). `context`: the turn's snapshot, its sorted copy, a round's world and the rollouts' buffer."""
    snapshot, sorted_snapshot, world, scratch = context
    side, game, control = side_of(S), game_of(S), search_of(S)
    s = game[G_NEXT]
    while game[G_WINNER] == UNDECIDED and not turn_cap_reached(R, S, s):
        start_turn(R, S, s)
        if side[s, S_POLICY] == SEARCH:
            play_searched_turn(R, S, snapshot, sorted_snapshot, world, scratch, s)
        else:
            control[C_SEARCHER] = -1
            turn_body_searching(R, S, s)
        s = 1 - s
