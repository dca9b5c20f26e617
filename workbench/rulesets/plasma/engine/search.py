"""The plasma search policy: determinized rollouts of its own plays and attackers' targets (`search_decision`, each
rollout the choice taken by the rules' `apply` and the match played on by `greedy.play_on`), the choice of a side that
searches at any decision (`decide_searched`), and the search's batch loop (`play_matches_searched`).

Imports `layout`, `rules` (`apply`, `clone`, `determinize`, the listers) and `greedy` (the rollouts' match, greedy's
choices, `decide`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from workbench.engines import (
    EngineInt,
    IntArray,
    inline_kernel,
    llvm_inline_kernel,
    rules_kernel,
)
from workbench.play.loop import NO_CONTEXT, batch_loop, play_out
from workbench.play.policies import POLICY_WORDS, SEARCH, search_depth_of, search_rollout_policy_of, search_rollouts_of
from workbench.play.search import DRAW_POINTS, WIN_POINTS, halving_search, position_points
from workbench.rulesets.plasma.engine.greedy import (
    decide,
    finish_batch_match,
    greedy_attack_choice,
    greedy_attacker,
    greedy_play,
    is_over,
    play_on,
    start_batch_match,
)
from workbench.rulesets.plasma.engine.layout import (
    ACTIVATE,
    B_DAMAGE,
    COIN,
    D_ATTACKER,
    D_NONE,
    D_PLAY,
    D_TARGET,
    G_ACTOR,
    G_ATTACKER,
    G_DECISION,
    G_PENDING,
    G_PLAYER,
    G_TURN,
    G_WINNER,
    MAX_CHOICES,
    O_SEARCH_DEPTH,
    O_SEARCH_ROLLOUT_POLICY,
    O_SEARCH_ROLLOUTS,
    O_TURN_CAP,
    S_BATTLEFIELD,
    S_BOARD,
    S_HAND,
    S_LIFE,
    S_POLICY,
    STOP,
)
from workbench.rulesets.plasma.engine.rules import (
    apply,
    clone,
    creature_power,
    creature_resolve,
    determinize,
    legal_plays,
    legal_targets,
    untraced,
)

# =====================================================================================================================
# The search policy
# =====================================================================================================================

KernelT = TypeVar("KernelT", bound=Callable[..., Any])


def called(function: KernelT) -> KernelT:
    """A copy of an inline kernel that its callers call instead of copying it in: the search's code runs whole
    phases and attacks in several places, and one compiled copy of each keeps its compile time near the greedy
    batch's (plain Python under NUMBA_DISABLE_JIT, where there is nothing to inline)."""
    return rules_kernel(getattr(function, "py_func", function))


greedy_play_called = called(greedy_play)
"""Greedy's play decision for the search's play phase: one compiled copy, called (greedy's board weighing is inline
in it)."""


SC_POINTS = np.int64(0)
"""`score`'s first block: each candidate's points summed over its rollouts (`play.search`: WIN_POINTS a rollout
won, DRAW_POINTS drawn, 0 lost, and a cut-off rollout its position's points, `search_evaluation`)."""
SC_TRIED = np.int64(MAX_CHOICES)
"""`score`'s second block: the rollouts each candidate was given (candidates dropped early were given fewer)."""
SC_ORDER = np.int64(2 * MAX_CHOICES)
"""`score`'s third block: the candidates still in, best first once ranked (its first word is the choice)."""

EVAL_LIFE = 22
"""What `search_evaluation` counts a Healthshard as worth, up to EVAL_LIFE_CAP of them (EVAL_MOVER_LIFE less for the
side whose turn is next, as much more for the other). The weights are a logistic fit of who went on to win from the
end-of-turn positions of greedy-against-greedy mirror matches, scaled so that EVAL_HALF is the advantage that won
three times in four (docs/rulesets/plasma.md, *The search policy*; tests/rulesets/plasma/eval_fit.py refits them)."""
EVAL_LIFE_CAP = 20
"""Healthshards above this many (the starting 20) told nothing more about who wins, in the fit: they count up to
here."""
EVAL_MOVER_LIFE = -5
"""Added to EVAL_LIFE for the side whose turn is next, taken from it for the other: in the fit the Healthshards of the
side about to be attacked told more than those of the side about to attack."""
EVAL_POWER = 22
"""A point of power of a creature on the field (its effective power: printed, equipment and this turn's bonuses), and
EVAL_MOVER_POWER more for the side whose turn is next (its creatures attack first), as much less for the other."""
EVAL_MOVER_POWER = 4
EVAL_RESOLVE = 8
"""A point of resolve a creature on the field has left (its effective resolve less the damage on it)."""
EVAL_CREATURE = 27
"""A creature on the field, besides its power and resolve."""
EVAL_HAND = 45
"""A card in hand."""
EVAL_BATTLEFIELD = 92
"""A battlefield in play."""
EVAL_TEMPO = 229
"""The side whose turn is next (it draws, gains plasma and attacks first); with the mover's terms above, an even
position of 20 Healthshards and no creatures a side is worth 229 - 2 x 5 x 20 = 29 to it."""
EVAL_HALF = 100
"""The advantage that scores three quarters of a win (`play.search.position_points`)."""


@llvm_inline_kernel
def search_side_worth(table: IntArray, st: Any, p: EngineInt, moving: EngineInt) -> int:
    """p's worth in `search_evaluation` (EVAL_* weights): its Healthshards (up to EVAL_LIFE_CAP), each creature on
    the field by its power, the resolve it has left and itself, its cards in hand and its battlefield; `moving` (1:
    p's turn is next, 0: not) gives the tempo and the mover's terms."""
    sign = 2 * moving - 1
    worth = (EVAL_LIFE + sign * EVAL_MOVER_LIFE) * min(st.side[p, S_LIFE], EVAL_LIFE_CAP)
    worth += EVAL_HAND * st.side[p, S_HAND] + EVAL_TEMPO * moving
    if st.side[p, S_BATTLEFIELD] >= 0:
        worth += EVAL_BATTLEFIELD
    power_weight = EVAL_POWER + sign * EVAL_MOVER_POWER
    for i in range(st.side[p, S_BOARD]):
        left = max(creature_resolve(table, st, p, i) - st.board[p, i, B_DAMAGE], 0)
        worth += EVAL_CREATURE + power_weight * creature_power(table, st, p, i) + EVAL_RESOLVE * left
    return worth


@llvm_inline_kernel
def search_evaluation(table: IntArray, st: Any, p: EngineInt, mover: EngineInt) -> EngineInt:
    """A cut-off rollout's points for p: the difference of the two sides' worth (`search_side_worth`, `mover` the
    side whose turn is next), squashed into (0, WIN_POINTS) by `position_points`."""
    moving = np.int64(1) if mover == p else np.int64(0)
    advantage = search_side_worth(table, st, p, moving) - search_side_worth(table, st, 1 - p, 1 - moving)
    return position_points(advantage, np.int64(EVAL_HALF))


@llvm_inline_kernel
def rollout(table: IntArray, world: Any, sim: Any, p: EngineInt, choice: EngineInt, cut: EngineInt) -> EngineInt:
    """One rollout of `choice` for p in the sampled `world` (`determinize`d once for every candidate of a round),
    played on `sim`: both sides play `search_rollout_policy` from here, the choice is taken (`apply`: the rules play
    on to the next decision), and the match is played on (`play_on`) until the turn cap `cut`; p's points. Nothing is
    traced (`clone` puts sim's trace count past the end of any trace), and sim's counters, which nobody reads, count
    what it plays.

    The cut-off is the rules' own turn cap, lowered in the rollout's copy of the options before the choice is taken
    (a cap ends the match as a draw before the next turn starts): so no rule learns of a search. A draw at a `cut`
    below the match's own cap is a cut-off, scored by `search_evaluation`."""
    clone(world, sim)
    policy = search_rollout_policy_of(
        sim.side[p, S_POLICY : S_POLICY + POLICY_WORDS], sim.options[O_SEARCH_ROLLOUT_POLICY]
    )
    sim.side[0, S_POLICY] = policy
    sim.side[1, S_POLICY] = policy
    cap = sim.options[O_TURN_CAP]
    sim.options[O_TURN_CAP] = cut
    apply(table, sim, choice)
    play_on(table, sim, NO_CONTEXT)
    winner = sim.game[G_WINNER]
    if winner == p:
        return WIN_POINTS
    if winner >= 0:
        return 0
    if cut < cap:
        # The side to move after the cut: p when an odd number of turns followed p's (turn `cut` was the last played).
        mover = p if (cut - world.game[G_TURN]) % 2 == 1 else 1 - p
        return search_evaluation(table, sim, p, mover)
    return DRAW_POINTS


@inline_kernel
def context_world(context: Any, seed: EngineInt) -> None:
    """`halving_search`'s world dealer: the state cloned into the world record, what p cannot see dealt anew."""
    table, st, world, _sim, p, _cut = context
    clone(st, world)
    determinize(table, world, p, seed)


@inline_kernel
def context_rollout(context: Any, k: EngineInt, _world_seed: EngineInt, _dice: EngineInt) -> EngineInt:
    """`halving_search`'s rollout: choice k (st.choice[k]) from the world `context_world` dealt. Its later dice are
    the world's own generator's, seeded by `determinize`, so every candidate of a round rolls the same (the dice seed
    is not needed)."""
    table, st, world, sim, p, cut = context
    return rollout(table, world, sim, p, st.choice[k], cut)


@rules_kernel
def search_decision(table: IntArray, st: Any, world: Any, sim: Any, p: EngineInt, n: EngineInt) -> EngineInt:
    """The index, among st.choice[:n] (greedy's choice first), of p's choice after successive halving over
    `search_rollouts` x n rollouts (the side's own `search:R` in place of the option: `search_rollouts_of`); a tie
    goes to the lower index, so greedy's choice is kept on a tie.

    The budget is spent in ceil(log2 n) rounds (`workbench.play.search`): in each, every candidate still in gets
    the round's even share of rollouts, then the better half (by points) go on. A rollout of a round deals one world
    (the state cloned into `world`, what p cannot see dealt anew with `determinize`, the seed drawn from the search's
    own generator) and plays every candidate still in from it on `sim` (`rollout`): the same sampled cards and the
    same later dice for each (common random numbers), the world's deal shared. Each rollout stops `search_depth`
    turns after p's (0: at the match's end) and the position is scored by `search_evaluation`.
    """
    words = st.score
    block = st.side[p, S_POLICY : S_POLICY + POLICY_WORDS]
    depth = search_depth_of(block, st.options[O_SEARCH_DEPTH])
    cut = st.options[O_TURN_CAP]
    if depth > 0 and st.game[G_TURN] + depth < cut:
        cut = st.game[G_TURN] + depth
    context = (table, st, world, sim, p, cut)
    budget = search_rollouts_of(block, st.options[O_SEARCH_ROLLOUTS]) * n
    st.searched[1] += halving_search(
        context_world, context_rollout, context, words, SC_ORDER, SC_POINTS, SC_TRIED, n, budget, st.srng
    )
    st.searched[0] += 1
    return words[SC_ORDER]


@llvm_inline_kernel
def play_choices(table: IntArray, st: Any, p: EngineInt, greedy: EngineInt, listed: EngineInt) -> int:
    """Fill st.choice with the play decision's actions the search weighs, from the `listed` ones in st.actions:
    greedy's choice first (it keeps a tie), then STOP, the first hand position of each different card, and each
    ability, in listed order (not the coin, which it flips as greedy does). Returns how many. A hand position of the
    same card as greedy's is greedy's choice."""
    st.choice[0] = STOP
    n = 1
    at = 0
    for k in range(listed):
        action = st.actions[k]
        if action == COIN or action == STOP:
            continue
        if action < ACTIVATE:
            card = st.hand[p, action]
            seen = False
            for c in range(1, n):
                if st.choice[c] < ACTIVATE and st.hand[p, st.choice[c]] == card:
                    seen = True
            if seen:
                continue
            if 0 <= greedy < ACTIVATE and st.hand[p, greedy] == card:
                at = n
                action = greedy
        elif greedy == action:
            at = n
        st.choice[n] = action
        n += 1
    # Greedy's choice to the front, the others keeping their order.
    first = st.choice[at]
    for c in range(at, 0, -1):
        st.choice[c] = st.choice[c - 1]
    st.choice[0] = first
    return n


@rules_kernel
def searched_play(table: IntArray, st: Any, world: Any, sim: Any, p: EngineInt) -> EngineInt:
    """A search side's play decision: the searched best of its legal choices (`play_choices`); the coin as greedy
    flips it."""
    listed = legal_plays(table, st, p, st.actions)
    greedy = greedy_play_called(table, untraced(st), p)
    if greedy == COIN:
        return greedy
    n = play_choices(table, st, p, greedy, listed)
    if n == 1:
        return greedy
    # Counts passed as np.int64: Numba types a small constant count as a literal and would compile search_decision
    # once per value.
    return st.choice[search_decision(table, st, world, sim, p, np.int64(n))]


@rules_kernel
def searched_target(table: IntArray, st: Any, world: Any, sim: Any, p: EngineInt) -> EngineInt:
    """A search side's target decision for its attacker in slot G_ATTACKER: the searched best of its listed targets
    (hold, direct, and each enemy creature it may attack; greedy's first)."""
    n = legal_targets(st, p, st.actions)
    greedy = greedy_attack_choice(table, untraced(st), p, st.game[G_ATTACKER])
    st.choice[0] = greedy
    at = 1
    for k in range(n):
        if st.actions[k] != greedy:
            st.choice[at] = st.actions[k]
            at += 1
    return st.choice[search_decision(table, st, world, sim, p, np.int64(n))]


@llvm_inline_kernel
def decide_searched(table: IntArray, st: Any, context: Any) -> EngineInt:
    """`decide` when a side plays `search`: in its own turn its plays and its attackers' targets are searched
    (`searched_play`, `searched_target`) and its attackers go in greedy's order; every other decision, and the other
    side's, is `decide`'s. `context` holds the search's two work records: `world`, a round's sampled world, and
    `sim`, the record a rollout plays on (each of st's type)."""
    world, sim = context
    if st.game[G_PENDING] == D_NONE:
        p = st.game[G_ACTOR]
        if st.side[p, S_POLICY] == SEARCH and p == st.game[G_PLAYER]:
            decision = st.game[G_DECISION]
            if decision == D_PLAY:
                return searched_play(table, st, world, sim, p)
            if decision == D_ATTACKER:
                return greedy_attacker(table, untraced(st), p)
            if decision == D_TARGET:
                return searched_target(table, st, world, sim, p)
    return decide(table, st, context)


@inline_kernel
def play_searched(table: IntArray, st: Any, context: Any) -> None:
    """A match in which a side plays `search` played on to its end: the play loop with `decide_searched` (`context`:
    the search's two work records)."""
    play_out(table, st, context, decide_searched, apply, is_over)


@rules_kernel
def play_matches_searched(table: IntArray, st: Any, batch: Any, world: Any, sim: Any) -> None:
    """`play_matches` when a side plays `search` (a kernel of its own, so greedy and random batches compile and run
    as before): `play.loop.batch_loop` with `play_searched`, the search's work records `world` and `sim` (each of
    st's type) its context."""
    batch_loop(table, st, batch, (world, sim), start_batch_match, play_searched, finish_batch_match)
