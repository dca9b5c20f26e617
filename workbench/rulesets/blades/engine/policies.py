"""The Millennium Blades policies: greedy's estimates and choice per decision kind, random's choice, a `search`
seat's single (`search_single`: the one `search_decision` chose for the turn), the open decision's choice by the
deciding seat's policy (`decide`), and the tournament played by the play layer's loop
(`workbench.play.loop.play_out`: `play_tournament`, the greedy, random and epsilon batch `play_matches`, and
`settle`, what a scenario test plays after calling one rule).

Imports `layout` and `rules` (greedy weighs an Action with the rules' own readers and listers; the loop plays the
rules' `apply`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engines import EngineInt, IntArray, inline_kernel, lowest_set_bit, rng_below, rules_kernel
from workbench.play.loop import NO_CONTEXT, batch_loop, play_out
from workbench.play.policies import GREEDY, P_CODE, SEARCH, plays_random, random_played
from workbench.rulesets.blades.engine.layout import (
    A_AMOUNT,
    A_ARG,
    A_PER,
    A_PICK,
    A_VERB,
    A_WHOSE,
    ACTION_BASE,
    ACTION_WIDTH,
    BLAST_OFF_TOKENS,
    COPY_LEFT,
    D_ACTION_AFTER,
    D_ACTION_BEFORE,
    D_CLASH_OPPONENT,
    D_DISCARDER,
    D_FLIP_OPPONENT,
    D_FLIP_OWN,
    D_GIVE_UP,
    D_NONE,
    D_REACTION,
    D_SCURRY,
    D_SINGLE,
    DECLINE,
    E_TIMING,
    F_HAS_SCORE,
    G_ACTOR,
    G_DECISION,
    G_DX_ARG,
    G_DX_CARD,
    G_DX_LIMIT,
    G_LISTED,
    G_PLACING,
    G_PLAYERS,
    MAX_CLAUSES,
    MAX_SLOTS,
    NO_ACTION,
    PER_CARD,
    PER_STARS_AT_LEAST,
    PER_STARS_AT_MOST,
    PER_SYMBOL,
    PICK_CHOICE,
    S_CARDS,
    S_HAND,
    S_RP,
    S_SLOTS,
    S_USED,
    SR_WANTED,
    T_CLAUSES,
    T_FLAGS,
    T_ONGOING_STARS,
    T_STARS,
    T_SYMBOLS,
    T_TOP_STARS,
    TB_CARD,
    TB_UP,
    TM_ACTION,
    TM_PLAY,
    USE,
    V_ANVIL,
    V_BLAST_OFF,
    V_CLASH,
    V_COPY,
    V_DISCARD,
    V_FLIP,
    V_GAIN,
    V_SLOT,
    V_STAR,
    V_THWOMP,
    WHOSE_OPPONENT,
    WHOSE_YOURS,
    policy_of,
)
from workbench.rulesets.blades.engine.rules import (
    apply,
    clauses_timed,
    copy_target,
    count_per,
    finish_batch_tournament,
    is_over,
    legal_discarders,
    legal_opponent_flips,
    open_tournament,
    resolve_effects,
    source_card,
    source_stars,
    stars_of,
    start_batch_tournament,
    take,
    top_slot,
    top_stars,
)

# =====================================================================================================================
# Policies: each chooses one of the actions the rules listed (out[0:n]); none changes a rule
#
# `decide` hands the open decision to the deciding seat's policy (its block, `policy_of`: read here alone) through
# `choose` (and, for the turn's own decisions, `choose_turn_action` and `choose_single`). A policy may read the
# whole state and keep its own words (the search: st.search; epsilon-greedy: its block's generator); it returns one
# of the listed actions. A new policy is a policy code (`workbench.play.policies`; its name in `ENGINE.policies`), a
# function per decision kind it plays differently, and a branch in `choose`: no rule changes.
# Random's branch in each door is entered through `plays_random` and its choice handed to `random_played`: an
# exploring `epsilon` seat's random choice draws from its own generator, never the tournament's, and nothing but
# that choice is drawn in between.
# =====================================================================================================================


@rules_kernel
def opponents_lowest_top(g: Any, st: Any, p: EngineInt) -> int:
    """The lowest Top-card star rating among opponents with a Top card, or -1 when none has one."""
    best = -1
    for k in range(1, st.game[G_PLAYERS]):
        q = (p + k) % st.game[G_PLAYERS]
        t = top_slot(st, q)
        if t >= 0:
            v = top_stars(g, st, q, t)
            if best < 0 or v < best:
                best = v
    return best


@rules_kernel
def action_value(g: Any, st: Any, p: EngineInt, where: EngineInt, card: EngineInt, clause: EngineInt) -> int:
    """Greedy's estimate of an Action's worth now (0 or less: not worth flipping the card for); a copy is worth the
    best Action of the card it copies."""
    if g.table[card, T_FLAGS] & F_HAS_SCORE:
        return 0  # flipping it would lose its Score clause
    if g.effects[card, clause, ACTION_BASE + A_VERB] != V_COPY:
        return plain_action_value(g, st, p, where, card, clause)
    target = copy_target(st, p, where, g.effects[card, clause, ACTION_BASE + A_PICK])
    if target < 0:
        return 0
    copied = st.tab[p, target, TB_CARD]
    best = 0
    for c in range(g.table[copied, T_CLAUSES]):
        if g.effects[copied, c, E_TIMING] == TM_ACTION and g.effects[copied, c, ACTION_BASE + A_VERB] != V_COPY:
            v = plain_action_value(g, st, p, where, copied, c)
            if v > best:
                best = v
    return best


@rules_kernel
def plain_action_value(g: Any, st: Any, p: EngineInt, where: EngineInt, card: EngineInt, clause: EngineInt) -> int:
    """Greedy's estimate of one Action clause performed from `where` (not a copy)."""
    verb = g.effects[card, clause, ACTION_BASE + A_VERB]
    amount = g.effects[card, clause, ACTION_BASE + A_AMOUNT]
    if verb == V_GAIN:
        n = count_per(
            g,
            st,
            p,
            where,
            g.effects[card, clause, ACTION_BASE + A_PER],
            g.effects[card, clause, ACTION_BASE + A_ARG],
        )
        return amount * n
    if verb == V_CLASH:
        mine = top_slot(st, p)
        theirs = opponents_lowest_top(g, st, p)
        if mine < 0 or theirs < 0:
            return 0
        # With my Top card at least the opponent's, the clash is at least even.
        return 2 if top_stars(g, st, p, mine) >= theirs else 0
    if verb == V_FLIP:
        if g.effects[card, clause, ACTION_BASE + A_WHOSE] == WHOSE_YOURS:
            return 0
        pick = g.effects[card, clause, ACTION_BASE + A_PICK]
        return 3 if legal_opponent_flips(g, st, p, pick, np.int64(-1), st.probe) > 0 else 0
    if verb == V_ANVIL:
        mine = source_stars(g, st, p, where)
        return 3 if legal_opponent_flips(g, st, p, np.int64(PICK_CHOICE), mine, st.probe) > 0 else 0
    if verb == V_STAR:
        return amount if top_slot(st, p) >= 0 else 0
    if verb == V_BLAST_OFF:
        return BLAST_OFF_TOKENS
    if verb == V_DISCARD:
        if g.effects[card, clause, ACTION_BASE + A_WHOSE] == WHOSE_YOURS:
            return 0
        return 2 if legal_discarders(st, p, st.probe) > 0 else 0
    if verb == V_SLOT:
        # Worth it while the hand holds more singles than the open slots can take.
        room = st.side[p, S_SLOTS] - st.side[p, S_USED]
        return 3 if st.side[p, S_HAND] > room and st.side[p, S_SLOTS] < MAX_SLOTS else 0
    return 0


@rules_kernel
def play_value(g: Any, st: Any, p: EngineInt, card: EngineInt) -> int:
    """Greedy's estimate of the RP a single's Play clauses bring if played now (as the new right-most card)."""
    value = 0
    used = st.side[p, S_USED]
    clauses = clauses_timed(g, card, np.int64(TM_PLAY))
    while clauses:
        c = lowest_set_bit(clauses)
        clauses &= clauses - 1
        verb = g.effects[card, c, ACTION_BASE + A_VERB]
        amount = g.effects[card, c, ACTION_BASE + A_AMOUNT]
        if verb == V_GAIN:
            per = g.effects[card, c, ACTION_BASE + A_PER]
            arg = g.effects[card, c, ACTION_BASE + A_ARG]
            n = count_per(g, st, p, used, per, arg)
            stars = g.table[card, T_STARS] + g.table[card, T_ONGOING_STARS] + g.table[card, T_TOP_STARS]
            if (
                per == PER_CARD
                or (per == PER_SYMBOL and g.table[card, T_SYMBOLS] & arg)
                or (per == PER_STARS_AT_LEAST and stars >= arg)
                or (per == PER_STARS_AT_MOST and stars <= arg)
            ):
                n += 1
            value += amount * n
        elif verb == V_CLASH:
            theirs = opponents_lowest_top(g, st, p)
            mine = g.table[card, T_STARS] + g.table[card, T_ONGOING_STARS] + g.table[card, T_TOP_STARS]
            if theirs >= 0 and mine >= theirs:
                value += g.effects[card, c, ACTION_BASE + ACTION_WIDTH + A_AMOUNT]
        elif verb == V_FLIP and g.effects[card, c, ACTION_BASE + A_WHOSE] == WHOSE_OPPONENT:
            value += 3
        elif verb == V_DISCARD and g.effects[card, c, ACTION_BASE + A_WHOSE] == WHOSE_OPPONENT:
            value += 2
        elif verb == V_COPY and g.effects[card, c, ACTION_BASE + A_PICK] == COPY_LEFT:
            # The card will land at slot `used`: a copy left takes the Play gains of the card now on the right end.
            if used >= 1 and st.tab[p, used - 1, TB_UP] == 1:
                left = st.tab[p, used - 1, TB_CARD]
                for c2 in range(g.table[left, T_CLAUSES]):
                    if g.effects[left, c2, E_TIMING] == TM_PLAY and g.effects[left, c2, ACTION_BASE + A_VERB] == V_GAIN:
                        value += g.effects[left, c2, ACTION_BASE + A_AMOUNT] * count_per(
                            g,
                            st,
                            p,
                            used,
                            g.effects[left, c2, ACTION_BASE + A_PER],
                            g.effects[left, c2, ACTION_BASE + A_ARG],
                        )
        elif verb == V_THWOMP:
            if used >= 1 and st.tab[p, used - 1, TB_UP] == 1 and stars_of(g, st, p, used - 1) < g.table[card, T_STARS]:
                value += amount
    return value


@rules_kernel
def greedy_turn_action(g: Any, st: Any, p: EngineInt, out: IntArray, n: EngineInt) -> int:
    """Greedy's Action: Blast Off before playing (it boosts the card about to be played), anything else after, the
    most valuable listed one with a positive estimate (`action_value`; the first of equals), else NO_ACTION."""
    before = st.game[G_DECISION] == D_ACTION_BEFORE
    best = NO_ACTION
    best_value = 0
    for k in range(n - 1):
        where = out[k] // MAX_CLAUSES - 3
        c = out[k] % MAX_CLAUSES
        card = source_card(st, p, where)
        if (g.effects[card, c, ACTION_BASE + A_VERB] == V_BLAST_OFF) != before:
            continue
        v = action_value(g, st, p, where, card, c)
        if v > best_value:
            best_value = v
            best = out[k]
    return best


@rules_kernel
def greedy_single(g: Any, st: Any, p: EngineInt, out: IntArray, n: EngineInt) -> int:
    """Greedy's single: the most immediate RP from Play clauses (`play_value`), then the fewest stars (high-star
    cards are kept to be the Top card late, for clashes); the first of equals."""
    best = out[0]
    best_value = -(1 << 40)
    best_stars = 1 << 40
    for k in range(n):
        card = st.side[p, S_CARDS + out[k]]
        v = play_value(g, st, p, card)
        stars = g.table[card, T_STARS]
        if v > best_value or (v == best_value and stars < best_stars):
            best = out[k]
            best_value = v
            best_stars = stars
    return best


@rules_kernel
def greedy_flip_own(g: Any, st: Any, p: EngineInt, out: IntArray, n: EngineInt) -> int:
    """Greedy's own card to flip: the left-most listed, or with a free choice the left-most of the fewest stars."""
    best = out[0]
    if st.game[G_DX_ARG] != PICK_CHOICE:
        return best
    best_value = stars_of(g, st, p, best)
    for k in range(1, n):
        v = stars_of(g, st, p, out[k])
        if v < best_value:
            best = out[k]
            best_value = v
    return best


@rules_kernel
def greedy_flip_opponent(g: Any, st: Any, out: IntArray, n: EngineInt) -> int:
    """Greedy's opponent card to flip: the RP leader's (the first in turn order among equals), and of its listed
    cards the right-most, or with a free choice (or Anvil Drop) the right-most of the most stars."""
    by_stars = st.game[G_DX_ARG] == PICK_CHOICE or st.game[G_DX_LIMIT] >= 0
    best = -1
    best_rp = -1
    k = 0
    while k < n:
        q = out[k] // MAX_SLOTS
        s = -1
        best_v = -1
        while k < n and out[k] // MAX_SLOTS == q:
            t = out[k] % MAX_SLOTS
            if not by_stars:
                s = t
            else:
                v = stars_of(g, st, q, t)
                if s < 0 or v >= best_v:
                    s = t
                    best_v = v
            k += 1
        if st.side[q, S_RP] > best_rp:
            best_rp = st.side[q, S_RP]
            best = q * MAX_SLOTS + s
    return best


@rules_kernel
def greedy_rp_leader(st: Any, out: IntArray, n: EngineInt) -> int:
    """Greedy's opponent to make discard: the RP leader (the first in turn order among equals)."""
    best = out[0]
    for k in range(1, n):
        if st.side[out[k], S_RP] > st.side[best, S_RP]:
            best = out[k]
    return best


@rules_kernel
def greedy_give_up(g: Any, st: Any, q: EngineInt, out: IntArray, n: EngineInt) -> int:
    """Greedy's single to give up: the fewest stars (the high-star cards are its future Top cards), the first of
    equals."""
    best = out[0]
    for k in range(1, n):
        if g.table[st.side[q, S_CARDS + out[k]], T_STARS] < g.table[st.side[q, S_CARDS + best], T_STARS]:
            best = out[k]
    return best


@rules_kernel
def greedy_clash_opponent(g: Any, st: Any, out: IntArray, n: EngineInt) -> int:
    """Greedy's clash opponent: the lowest Top card, the most RP among equals (the first in turn order)."""
    opponent = -1
    best_stars = 0
    for k in range(n):
        q = out[k]
        v = top_stars(g, st, q, top_slot(st, q))
        if opponent < 0 or v < best_stars or (v == best_stars and st.side[q, S_RP] > st.side[opponent, S_RP]):
            opponent = q
            best_stars = v
    return opponent


@inline_kernel
def greedy_choice(g: Any, st: Any, out: IntArray, n: EngineInt) -> int:
    """Greedy's action for the open decision (see each kind's greedy_*)."""
    decision = st.game[G_DECISION]
    p = st.game[G_ACTOR]
    if decision == D_ACTION_BEFORE or decision == D_ACTION_AFTER:
        return greedy_turn_action(g, st, p, out, n)
    if decision == D_SINGLE:
        return greedy_single(g, st, p, out, n)
    if decision == D_SCURRY:
        # The far left when the current Top card has at least as many stars (so it stays Top), else the right end.
        t = top_slot(st, p)
        if t >= 0 and top_stars(g, st, p, t) >= g.table[st.game[G_PLACING], T_STARS]:
            return out[0]
        return out[n - 1]
    if decision == D_REACTION:
        # Each Reaction is used unless flipping the card would lose a Score clause.
        return DECLINE if g.table[st.game[G_DX_CARD], T_FLAGS] & F_HAS_SCORE else USE
    if decision == D_FLIP_OWN:
        return greedy_flip_own(g, st, p, out, n)
    if decision == D_FLIP_OPPONENT:
        return greedy_flip_opponent(g, st, out, n)
    if decision == D_DISCARDER:
        return greedy_rp_leader(st, out, n)
    if decision == D_GIVE_UP:
        return greedy_give_up(g, st, p, out, n)
    return greedy_clash_opponent(g, st, out, n)


@rules_kernel
def random_choice(st: Any, out: IntArray, n: EngineInt) -> int:
    """Random's action for the open decision, drawn from the state's generator: any listed action equally likely,
    but for an Action decision (a random listed Action, then none half the time) and an opponent's card to flip
    (each opponent with a target equally likely, then each of its cards). One pass over the list, each candidate
    kept with chance 1 / (candidates so far)."""
    decision = st.game[G_DECISION]
    if decision == D_ACTION_BEFORE or decision == D_ACTION_AFTER:
        best = NO_ACTION
        for k in range(n - 1):
            if rng_below(st.rng, k + 1) == 0:
                best = out[k]
        if best != NO_ACTION and rng_below(st.rng, 2) == 0:
            return NO_ACTION
        return best
    if decision == D_FLIP_OPPONENT:
        best = -1
        seen = 0
        k = 0
        while k < n:
            q = out[k] // MAX_SLOTS
            pick = -1
            count = 0
            while k < n and out[k] // MAX_SLOTS == q:
                count += 1
                if rng_below(st.rng, count) == 0:
                    pick = out[k]
                k += 1
            seen += 1
            if rng_below(st.rng, seen) == 0:
                best = pick
        return best
    if decision == D_FLIP_OWN or decision == D_DISCARDER or decision == D_CLASH_OPPONENT:
        best = -1
        for k in range(n):
            if rng_below(st.rng, k + 1) == 0:
                best = out[k]
        return best
    return out[rng_below(st.rng, n)]


@rules_kernel
def search_single(g: Any, st: Any, p: EngineInt, out: IntArray, n: EngineInt) -> int:
    """The search's single: the card `search_decision` chose for this turn (st.search[SR_WANTED], used once) if it is
    still in hand, else greedy's."""
    wanted = st.search[SR_WANTED]
    st.search[SR_WANTED] = -1
    if wanted >= 0:
        for k in range(n):
            if st.side[p, S_CARDS + out[k]] == wanted:
                return out[k]
    return greedy_single(g, st, p, out, n)


@inline_kernel
def choose_turn_action(g: Any, st: Any, out: IntArray, n: EngineInt) -> EngineInt:
    """`choose` for an Action decision (D_ACTION_BEFORE, D_ACTION_AFTER; the rules open one only with an Action to
    use: n > 1)."""
    p = st.game[G_ACTOR]
    block = policy_of(st, p)
    if block[P_CODE] != GREEDY and plays_random(block, st.rng):  # greedy's and search's Actions: greedy's
        return random_played(block, st.rng, random_choice(st, out, n))
    return greedy_turn_action(g, st, p, out, n)


@inline_kernel
def choose_single(g: Any, st: Any, out: IntArray, n: EngineInt) -> EngineInt:
    """`choose` for the single decision (D_SINGLE)."""
    p = st.game[G_ACTOR]
    block = policy_of(st, p)
    policy = block[P_CODE]
    if policy == SEARCH:
        return search_single(g, st, p, out, n)
    if policy != GREEDY and plays_random(block, st.rng):
        return random_played(block, st.rng, out[rng_below(st.rng, n)])
    return greedy_single(g, st, p, out, n)


@rules_kernel
def choose(g: Any, st: Any, out: IntArray, n: EngineInt) -> EngineInt:
    """The deciding seat's policy's choice among the open decision's n listed actions (n >= 1)."""
    p = st.game[G_ACTOR]
    block = policy_of(st, p)
    policy = block[P_CODE]
    if policy == SEARCH and st.game[G_DECISION] == D_SINGLE:
        return search_single(g, st, p, out, n)
    if n == 1 and (policy == GREEDY or policy == SEARCH):
        return out[0]  # greedy's answer to any decision with one row (a two-player clash's opponent), unweighed
    if policy != GREEDY and plays_random(block, st.rng):  # a search seat's other decisions: greedy's
        return random_played(block, st.rng, random_choice(st, out, n))
    return greedy_choice(g, st, out, n)


# =====================================================================================================================
# The open decision's choice, and the tournament played by the play layer's loop
# =====================================================================================================================


@inline_kernel
def decide(g: Any, st: Any, _context: Any) -> EngineInt:
    """The choice of the seat whose decision is open (G_ACTOR) by its policy, among its rows (the list the rules kept
    as they opened it: st.actions[:G_LISTED], what `legal_actions` lists). Takes a context it does not read, as
    `workbench.play.loop.play_out` passes one (a `search` seat's own turn: `search.decide_searched`)."""
    n = st.game[G_LISTED]
    decision = st.game[G_DECISION]
    if decision == D_SINGLE:
        return choose_single(g, st, st.actions, n)
    if decision == D_ACTION_BEFORE or decision == D_ACTION_AFTER:
        return choose_turn_action(g, st, st.actions, n)
    return choose(g, st, st.actions, n)


@rules_kernel
def play_on(g: Any, st: Any, _context: Any) -> None:
    """The tournament played on from its open decision to its end, each decision by its seat's policy (`decide`): a
    greedy, random or epsilon batch's tournament."""
    play_out(g, st, NO_CONTEXT, decide, apply, is_over)


@rules_kernel
def play_tournament(g: Any, st: Any) -> None:
    """A tournament set up in `st` (`setup_tournament`, or the whole game's own set-up, `market.py`) played from its
    start to its end and scored, every seat by its own policy (`open_tournament`, then `play_on`)."""
    open_tournament(g, st)
    play_on(g, st, NO_CONTEXT)


@inline_kernel
def play_started(g: Any, st: Any, _context: Any) -> None:
    """`play.loop.batch_loop`'s play of a batch's tournament, set up: `play_tournament`."""
    play_tournament(g, st)


@rules_kernel
def play_matches(g: Any, st: Any, batch: Any) -> None:
    """A batch (`play.loop.new_batch`, then the tournament's own places, BATCH_STORE ...) of greedy, random and
    epsilon-greedy seats (`play.loop.batch_loop`, each tournament played by `play_tournament`; a search seat's batch:
    `search.play_searched_matches`)."""
    batch_loop(g, st, batch, NO_CONTEXT, start_batch_tournament, play_started, finish_batch_tournament)


@rules_kernel
def settle(g: Any, st: Any) -> None:
    """What waits after one rule was called outside a tournament's steps (a scenario test's `perform`, `clash`,
    `place_single` ...): each decision it opens answered by its seat's policy (`decide`, then `take`) and the
    effects waiting resolved (`resolve_effects`), until nothing waits; the tournament's stage is not played on."""
    while True:
        if st.game[G_DECISION] != D_NONE:
            take(g, st, decide(g, st, NO_CONTEXT))
        elif resolve_effects(g, st):
            return
