"""The Millennium Blades tournament rules: reading the tableau, ranking points, the effect queue and flips, choosing
targets, the store and clashes, resolving effects, a turn, setup and the end of the tournament, the tournament's
steps (`advance`), with the contract's four functions: `legal_actions(g, st, out) -> n`, `apply(g, st, action)`,
`clone(st, into)` and `determinize(g, st, p, rng)`. The game data `g` is one GAME_DTYPE record (the batch's own card
and effect tables), the match state `st` one STATE_DTYPE record with its counters and trace inside (layout.py).

Imports only `layout`: no rule reads which policy a seat plays, and no rule asks one. The rules stop at each
decision and return (`advance`); the play loop above them (`workbench.play.loop.play_out`, in `policies` and
`search`) asks the deciding seat's policy and hands its answer to `apply`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engines import (
    ATTACKED,
    DAMAGE_DEALT,
    DESTROYED,
    EngineBool,
    EngineInt,
    IntArray,
    begin_match_counters,
    count_draw,
    count_play,
    end_match_counters,
    inline_kernel,
    llvm_inline_kernel,
    log_event,
    lowest_set_bit,
    rng_below,
    rng_seed,
    rules_kernel,
    shuffle_in_place,
)
from workbench.play.loop import BATCH_TURNS, BATCH_WINNERS, batch_match
from workbench.play.policies import start_policy
from workbench.rulesets.blades.engine.layout import (
    A_AMOUNT,
    A_ARG,
    A_PER,
    A_PICK,
    A_VERB,
    A_WHOSE,
    ACTION_BASE,
    ACTION_WIDTH,
    AFTERMARKET_LIMIT,
    AR_CARD,
    AR_UP,
    AREA_ACCESSORY_1,
    AREA_BOX,
    BLAST_OFF_TOKENS,
    CLAUSE_BITS,
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
    E_CLASH_ALL,
    E_TIMING,
    E_TRIGGER,
    EV_ACTION,
    EV_AFTERMARKET_CLEARED,
    EV_ATTACH,
    EV_CLASH,
    EV_CLASH_RESULT,
    EV_COPY,
    EV_DETACH,
    EV_DISCARD,
    EV_END,
    EV_FLIP,
    EV_META,
    EV_NO_CLASH,
    EV_NO_TARGET,
    EV_OPENS,
    EV_PASS,
    EV_PLACE,
    EV_PLAY,
    EV_REACTION,
    EV_REVEAL,
    EV_RP,
    EV_SEAT,
    EV_SLOT,
    EV_STORE_RESHUFFLED,
    EV_TOKENS,
    EV_TRIMMED,
    EV_TURN,
    F_HAS_NEXT,
    F_MIMICRY,
    F_ONGOING_PROTECT_ADJACENT,
    F_ONGOING_PROTECT_SELF,
    F_SCURRY,
    F_TOP_PROTECT_ADJACENT,
    F_TOP_PROTECT_SELF,
    G_ACTED,
    G_ACTOR,
    G_AFTERMARKET,
    G_CONT_A,
    G_CONT_B,
    G_CURRENT,
    G_DECISION,
    G_DX_ARG,
    G_DX_BY,
    G_DX_CARD,
    G_DX_CLAUSE,
    G_DX_LIMIT,
    G_DX_WHERE,
    G_FIRST,
    G_IT_A,
    G_IT_B,
    G_IT_C,
    G_IT_D,
    G_IT_E,
    G_IT_F,
    G_IT_SEAT,
    G_ITEM,
    G_LISTED,
    G_META,
    G_PASSES,
    G_PLACING,
    G_PLAYERS,
    G_QHEAD,
    G_QTAIL,
    G_RIVAL,
    G_SEAT,
    G_SLOTS,
    G_STAGE,
    G_STORE_LEFT,
    G_STORE_TOTAL,
    G_TURN,
    GAME_WIDTH,
    GIVE_ATTACH,
    GIVE_DISCARD,
    HAND_LIMIT,
    IT_DISCARD,
    IT_NONE,
    IT_REACT,
    K_ACCESSORY,
    K_DECK_BOX,
    K_SINGLE,
    MAX_CLAUSES,
    MAX_HAND,
    MAX_META_STACKS,
    MAX_PLAYERS,
    MAX_SLOTS,
    MG_REVEALED,
    MR_FIRST_PLACE,
    NO_ACTION,
    NONE,
    O_MATCH_RESULT,
    O_METAGAME,
    O_PLAYERS,
    O_SLOTS,
    O_VP_ROUND,
    OPTION_ORDER,
    PART_LOSE,
    PART_MAIN,
    PART_TIE,
    PART_WIN,
    PER_ATTACHED,
    PER_CARD,
    PER_CARD_LEFT,
    PER_FACE_DOWN,
    PER_NONE,
    PER_REVEALED,
    PER_STARS_AT_LEAST,
    PER_STARS_AT_MOST,
    PER_SYMBOL,
    PICK_CHOICE,
    PICK_HIGHEST,
    PICK_LOWEST,
    Q_ARG,
    Q_CARD,
    Q_CLAUSE,
    Q_KIND,
    Q_PART,
    Q_PLAYER,
    Q_WHERE,
    QK_EFFECT,
    QK_REACT,
    QUEUE_SIZE,
    QUEUE_WIDTH,
    S_CARDS,
    S_DECKSIDE,
    S_HAND,
    S_NEXT_TOKENS,
    S_PASSED,
    S_PLACE,
    S_PLAYED,
    S_REACTS,
    S_RP,
    S_SLOTS,
    S_TOP,
    S_USED,
    S_VP,
    SIDE_WIDTH,
    STAGE_ACTION_DONE,
    STAGE_ACTION_FLIP,
    STAGE_OVER,
    STAGE_PLACED,
    STAGE_SEAT,
    STAGE_TURN_OVER,
    T_CLAUSES,
    T_FLAGS,
    T_KIND,
    T_ONGOING_STARS,
    T_REACTIONS,
    T_STARS,
    T_SYMBOLS,
    T_TIMINGS,
    T_TOP_STARS,
    TAB_SLOTS,
    TAB_WIDTH,
    TB_ATTACHED,
    TB_CARD,
    TB_NEXT,
    TB_TOKENS,
    TB_UP,
    TM_ACTION,
    TM_FLIP,
    TM_NEXT,
    TM_PLAY,
    TM_REACTION,
    TM_SCORE,
    TR_DISCARDED,
    TR_FLIPPED,
    TR_LOSE,
    TR_WIN,
    USE,
    V_ANVIL,
    V_ATTACH,
    V_BLAST_OFF,
    V_CLASH,
    V_COPY,
    V_DISCARD,
    V_FLIP,
    V_GAIN,
    V_NONE,
    V_SLOT,
    V_STAR,
    V_THWOMP,
    VP_CHART,
    W_BOX,
    W_META,
    WHOSE_YOURS,
    ZERO,
    policy_of,
)

# =====================================================================================================================
# Reading the tableau
#
# The small helpers here and below are ordinary kernels, not inline ones: Numba types an inline kernel's body anew at
# every call site, which cost cold compile time (figures in docs/rulesets/blades.md, Simulation) and bought no speed.
# =====================================================================================================================


@rules_kernel
def top_slot(st: Any, p: EngineInt) -> int:
    """The slot of p's Top card: the right-most face-up card, or -1 when every card is face-down (or none); kept in
    side[p, S_TOP] by the rules that turn cards over or place them."""
    return st.side[p, S_TOP]


@rules_kernel
def rightmost_face_up(st: Any, p: EngineInt, s: EngineInt) -> int:
    """The slot of p's right-most face-up card left of slot s, or -1 when there is none: the Top card after the Top
    card in slot s is flipped, and from s = side[p, S_USED] the Top card of the whole tableau (`seat_summaries`)."""
    for t in range(s - 1, -1, -1):
        if st.tab[p, t, TB_UP] == 1:
            return t
    return -1


@rules_kernel
def seat_summaries(g: Any, st: Any, p: EngineInt) -> None:
    """Seat p's S_TOP and S_REACTS worked out afresh from its tableau and its deck box and accessories: at setup,
    after a Reaction card is turned over, and for a board a test builds by hand."""
    st.side[p, S_TOP] = rightmost_face_up(st, p, st.side[p, S_USED])
    bits = 0
    for s in range(st.side[p, S_USED]):
        if st.tab[p, s, TB_UP] == 1:
            bits |= g.table[st.tab[p, s, TB_CARD], T_REACTIONS]
    for a in range(3):
        if st.area[p, a, AR_UP] == 1 and st.area[p, a, AR_CARD] >= 0:
            bits |= g.table[st.area[p, a, AR_CARD], T_REACTIONS]
    st.side[p, S_REACTS] = bits


@rules_kernel
def clauses_timed(g: Any, card: EngineInt, timing: EngineInt) -> int:
    """The card's clauses of this timing, a bit each (clause c: bit c), from its T_TIMINGS column."""
    return (g.table[card, T_TIMINGS] >> (timing * MAX_CLAUSES)) & CLAUSE_BITS


@rules_kernel
def reactions_to(g: Any, card: EngineInt, trigger: EngineInt) -> int:
    """The card's Reaction clauses on this trigger, a bit each (clause c: bit c), from its T_REACTIONS column."""
    return (g.table[card, T_REACTIONS] >> (trigger * MAX_CLAUSES)) & CLAUSE_BITS


@rules_kernel
def stars_of(g: Any, st: Any, p: EngineInt, s: EngineInt) -> int:
    """Star rating of p's card in slot s: printed + tokens + Ongoing bonus (+ Top bonus when it is the Top card).
    A face-down card has no star rating: -1."""
    if st.tab[p, s, TB_UP] == 0:
        return -1
    card = st.tab[p, s, TB_CARD]
    value = g.table[card, T_STARS] + st.tab[p, s, TB_TOKENS] + g.table[card, T_ONGOING_STARS]
    if g.table[card, T_TOP_STARS] != 0 and top_slot(st, p) == s:
        value += g.table[card, T_TOP_STARS]
    return value


@rules_kernel
def top_stars(g: Any, st: Any, p: EngineInt, t: EngineInt) -> int:
    """`stars_of` p's Top card, t = top_slot(st, p) >= 0, without looking for the Top card again."""
    card = st.tab[p, t, TB_CARD]
    return (
        g.table[card, T_STARS] + st.tab[p, t, TB_TOKENS] + g.table[card, T_ONGOING_STARS] + g.table[card, T_TOP_STARS]
    )


@rules_kernel
def symbols_of(g: Any, st: Any, p: EngineInt, s: EngineInt) -> int:
    """Symbol bits of a face-up card; Mimicry takes the printed symbols of the face-up card to its immediate left
    (copy effects are never copied), and its own when there is none."""
    if st.tab[p, s, TB_UP] == 0:
        return 0
    card = st.tab[p, s, TB_CARD]
    if g.table[card, T_FLAGS] & F_MIMICRY and s > 0 and st.tab[p, s - 1, TB_UP] == 1:
        return g.table[st.tab[p, s - 1, TB_CARD], T_SYMBOLS]
    return g.table[card, T_SYMBOLS]


@rules_kernel
def is_protected(g: Any, st: Any, p: EngineInt, s: EngineInt) -> bool:
    """Whether opponents' effects cannot flip p's card in slot s (protect self / adjacent, Ongoing or Top)."""
    top = top_slot(st, p)
    card = st.tab[p, s, TB_CARD]
    flags = g.table[card, T_FLAGS]
    if flags & F_ONGOING_PROTECT_SELF or (flags & F_TOP_PROTECT_SELF and top == s):
        return True
    for n in (s - 1, s + 1):
        if 0 <= n < st.side[p, S_USED] and st.tab[p, n, TB_UP] == 1:
            nflags = g.table[st.tab[p, n, TB_CARD], T_FLAGS]
            if nflags & F_ONGOING_PROTECT_ADJACENT or (nflags & F_TOP_PROTECT_ADJACENT and top == n):
                return True
    return False


@rules_kernel
def count_per(g: Any, st: Any, p: EngineInt, where: EngineInt, per: EngineInt, arg: EngineInt) -> EngineInt:
    """How many cards of p's tableau meet a `per` condition (face-up cards unless the condition says otherwise);
    `per revealed ...` counts the singles of p's hand by their printed stars and symbols instead (revealing them
    returns them to the hand, so every matching one is revealed), and `attached` the singles under this card."""
    if per == PER_NONE:
        return 1
    if per == PER_CARD_LEFT:
        return where if where > 0 else 0
    if per == PER_ATTACHED:
        if where >= 0 and st.tab[p, where, TB_UP] == 1:
            return st.tab[p, where, TB_ATTACHED]
        return 0
    n = 0
    if per >= PER_REVEALED:
        base = per - PER_REVEALED
        for h in range(st.side[p, S_HAND]):
            card = st.side[p, S_CARDS + h]
            if (
                base == PER_CARD
                or (base == PER_STARS_AT_LEAST and g.table[card, T_STARS] >= arg)
                or (base == PER_STARS_AT_MOST and g.table[card, T_STARS] <= arg)
                or (base == PER_SYMBOL and g.table[card, T_SYMBOLS] & arg)
            ):
                n += 1
        return n
    for s in range(st.side[p, S_USED]):
        up = st.tab[p, s, TB_UP] == 1
        if per == PER_CARD:
            n += 1
        elif per == PER_FACE_DOWN:
            if not up:
                n += 1
        elif up:
            if per == PER_STARS_AT_LEAST:
                if stars_of(g, st, p, s) >= arg:
                    n += 1
            elif per == PER_STARS_AT_MOST:
                if stars_of(g, st, p, s) <= arg:
                    n += 1
            elif per == PER_SYMBOL:
                if symbols_of(g, st, p, s) & arg:
                    n += 1
    return n


@rules_kernel
def source_card(st: Any, p: EngineInt, where: EngineInt) -> int:
    if where >= 0:
        return st.tab[p, where, TB_CARD]
    return st.area[p, -where - 1, AR_CARD]


@rules_kernel
def source_up(st: Any, p: EngineInt, where: EngineInt) -> bool:
    if where >= 0:
        return st.tab[p, where, TB_UP] == 1
    return st.area[p, -where - 1, AR_UP] == 1 and st.area[p, -where - 1, AR_CARD] >= 0


@rules_kernel
def source_stars(g: Any, st: Any, p: EngineInt, where: EngineInt) -> int:
    if where >= 0:
        return stars_of(g, st, p, where)
    return g.table[st.area[p, -where - 1, AR_CARD], T_STARS]


# =====================================================================================================================
# Ranking points, the queue, flips
# =====================================================================================================================


@rules_kernel
def gain_rp(st: Any, p: EngineInt, card: EngineInt, amount: EngineInt) -> None:
    """Add RP (or lose it, never below 0: the FAQ's 'lose as much as you can and stop at zero')."""
    before = st.side[p, S_RP]
    after = before + amount
    if after < 0:
        after = 0
    st.side[p, S_RP] = after
    if amount > 0 and card >= 0:
        st.counters[st.side[p, S_DECKSIDE], card, DAMAGE_DEALT] += amount
    log_event(st.events, st.ecount, st.game[G_TURN], p, EV_RP, card, after, after - before)


@rules_kernel
def enqueue(
    st: Any,
    kind: EngineInt,
    p: EngineInt,
    where: EngineInt,
    card: EngineInt,
    clause: EngineInt,
    part: EngineInt,
    arg: EngineInt,
) -> None:
    t = st.game[G_QTAIL]
    if t - st.game[G_QHEAD] >= QUEUE_SIZE:
        # Cannot happen with at most 5 x (12 + 3) cards each firing at most MAX_CLAUSES effects once.
        raise RuntimeError("blades engine: effect queue overflow")
    i = t % QUEUE_SIZE
    st.queue[i, Q_KIND] = kind
    st.queue[i, Q_PLAYER] = p
    st.queue[i, Q_WHERE] = where
    st.queue[i, Q_CARD] = card
    st.queue[i, Q_CLAUSE] = clause
    st.queue[i, Q_PART] = part
    st.queue[i, Q_ARG] = arg
    st.game[G_QTAIL] = t + 1


@rules_kernel
def enqueue_timing(
    g: Any,
    st: Any,
    p: EngineInt,
    where: EngineInt,
    card: EngineInt,
    timing: EngineInt,
    arg: EngineInt,
) -> None:
    """Queue every clause of `card` with this timing, in the order the cell lists them."""
    clauses = clauses_timed(g, card, timing)
    while clauses:
        enqueue(st, QK_EFFECT, p, where, card, lowest_set_bit(clauses), PART_MAIN, arg)
        clauses &= clauses - 1


@rules_kernel
def flip_slot(
    g: Any,
    st: Any,
    q: EngineInt,
    s: EngineInt,
    by: EngineInt,
    by_card: EngineInt,
) -> None:
    """Flip q's tableau card in slot s face-down (it loses its star tokens); its Flip clauses fire, and when an
    opponent's effect (player `by`) did it, q may react."""
    card = st.tab[q, s, TB_CARD]
    st.tab[q, s, TB_UP] = 0
    if g.table[card, T_REACTIONS] != 0:
        seat_summaries(g, st, q)
    elif st.side[q, S_TOP] == s:
        st.side[q, S_TOP] = rightmost_face_up(st, q, s)
    st.tab[q, s, TB_TOKENS] = 0
    st.tab[q, s, TB_NEXT] = 0
    st.counters[st.side[q, S_DECKSIDE], card, DESTROYED] += 1
    log_event(st.events, st.ecount, st.game[G_TURN], q, EV_FLIP, card, by_card, by)
    if st.tab[q, s, TB_ATTACHED] > 0:
        # FAQ: "If a card that has an attachment becomes flipped, the attached card is put back in your binder."
        log_event(st.events, st.ecount, st.game[G_TURN], q, EV_DETACH, card, -1, st.tab[q, s, TB_ATTACHED])
        st.tab[q, s, TB_ATTACHED] = 0
    enqueue_timing(g, st, q, s, card, np.int64(TM_FLIP), np.int64(-1))
    if by != q:
        enqueue(st, QK_REACT, q, ZERO, NONE, NONE, ZERO, TR_FLIPPED)


@rules_kernel
def flip_source(g: Any, st: Any, p: EngineInt, where: EngineInt) -> None:
    """Flip the card that used its own Action or Reaction (a tableau card, the deck box or an accessory)."""
    if where >= 0:
        if st.tab[p, where, TB_UP] == 1:
            flip_slot(g, st, p, where, p, np.int64(-1))
        return
    a = -where - 1
    if st.area[p, a, AR_UP] == 1:
        st.area[p, a, AR_UP] = 0
        card = st.area[p, a, AR_CARD]
        if g.table[card, T_REACTIONS] != 0:
            seat_summaries(g, st, p)
        st.counters[st.side[p, S_DECKSIDE], card, DESTROYED] += 1
        log_event(st.events, st.ecount, st.game[G_TURN], p, EV_FLIP, card, -1, p)
        enqueue_timing(g, st, p, where, card, np.int64(TM_FLIP), np.int64(-1))


# =====================================================================================================================
# Choosing targets
# =====================================================================================================================


@inline_kernel
def open_decision(st: Any, decision: EngineInt, p: EngineInt, n: EngineInt) -> None:
    """Open a decision of kind `decision` (D_*) for seat p, whose n legal actions the caller has just listed into
    st.actions (the kind's own lister, as `legal_actions` lists them): the open decision's list, kept in the state
    with it (G_LISTED), which the deciding policy reads (`policies.decide`) and `clone` copies."""
    st.game[G_DECISION] = decision
    st.game[G_ACTOR] = p
    st.game[G_LISTED] = n


@rules_kernel
def list_flip_targets(
    g: Any,
    st: Any,
    q: EngineInt,
    pick: EngineInt,
    guarded: EngineBool,
    below: EngineInt,
    base: EngineInt,
    out: IntArray,
    n: EngineInt,
) -> EngineInt:
    """Append to out[n:] (as base + slot) the cards of q a flip may take, left to right; the new count.

    highest/lowest: the cards at the extreme star rating among ALL of q's face-up cards; if every card at that
    rating is protected there is no legal target (the document's Orella example). choice: any face-up card that is
    not protected. `guarded`: the flip is an opponent's effect, so protection counts. `below` >= 0 (Anvil Drop):
    any unprotected face-up card with fewer stars."""
    used = st.side[q, S_USED]
    if below >= 0:
        for t in range(used):
            if st.tab[q, t, TB_UP] == 1 and not is_protected(g, st, q, t) and stars_of(g, st, q, t) < below:
                out[n] = base + t
                n += 1
        return n
    extreme = -1
    if pick != PICK_CHOICE:
        for s in range(used):
            if st.tab[q, s, TB_UP] == 1:
                v = stars_of(g, st, q, s)
                if extreme < 0 or (pick == PICK_HIGHEST and v > extreme) or (pick == PICK_LOWEST and v < extreme):
                    extreme = v
        if extreme < 0:
            return n
    for s in range(used):
        if st.tab[q, s, TB_UP] == 0:
            continue
        if pick != PICK_CHOICE and stars_of(g, st, q, s) != extreme:
            continue
        if guarded and is_protected(g, st, q, s):
            continue
        out[n] = base + s
        n += 1
    return n


@rules_kernel
def legal_own_flips(g: Any, st: Any, p: EngineInt, pick: EngineInt, out: IntArray) -> EngineInt:
    """D_FLIP_OWN's legal actions: the slots of p's cards a `flip yours` may take (protection does not count)."""
    return list_flip_targets(g, st, p, pick, np.bool_(False), np.int64(-1), np.int64(0), out, np.int64(0))


@rules_kernel
def legal_opponent_flips(g: Any, st: Any, p: EngineInt, pick: EngineInt, below: EngineInt, out: IntArray) -> EngineInt:
    """D_FLIP_OPPONENT's legal actions: `q * MAX_SLOTS + slot` of every opponent's card an opponent-flip may take,
    opponents in turn order from p's left, each's cards left to right. `below` >= 0 limits them to cards with fewer
    stars (Anvil Drop)."""
    players = st.game[G_PLAYERS]
    # Typed for mypy only (a bare annotation runs no code); an int64 from the start, so one compiled copy.
    n: EngineInt
    n = np.int64(0)
    for k in range(1, players):
        q = (p + k) % players
        n = list_flip_targets(g, st, q, pick, np.bool_(True), below, q * MAX_SLOTS, out, n)
    return n


@inline_kernel
def apply_flip(g: Any, st: Any, action: EngineInt) -> None:
    """D_FLIP_OWN / D_FLIP_OPPONENT's action: the card it names is flipped by the deciding seat's effect."""
    p = st.game[G_ACTOR]
    if st.game[G_DECISION] == D_FLIP_OWN:
        st.game[G_DECISION] = D_NONE
        flip_slot(g, st, p, action, p, st.game[G_DX_CARD])
    else:
        st.game[G_DECISION] = D_NONE
        flip_slot(g, st, action // MAX_SLOTS, action % MAX_SLOTS, p, st.game[G_DX_CARD])


# =====================================================================================================================
# The store and clashes
# =====================================================================================================================


@rules_kernel
def reverse_range(store: IntArray, lo: EngineInt, hi: EngineInt) -> None:
    hi -= 1
    while lo < hi:
        tmp = store[lo]
        store[lo] = store[hi]
        store[hi] = tmp
        lo += 1
        hi -= 1


@rules_kernel
def reveal_from_store(st: Any, pending: EngineInt) -> int:
    """The top card of the store (a uniform draw from the undrawn part, which is the same as a shuffled deck), or
    -1 if no card is left anywhere. st.store[:left] is undrawn; drawn cards sit after it, most recent first: the
    `pending` cards revealed in this clash, then the aftermarket, then the store discard. An empty store is
    refilled by shuffling the store discard (FAQ)."""
    if st.game[G_STORE_LEFT] == 0:
        total = st.game[G_STORE_TOTAL]
        keep = st.game[G_AFTERMARKET] + pending
        if keep >= total:
            return -1
        # Rotate left by `keep`: the kept cards move to the end, the discard becomes the undrawn store.
        reverse_range(st.store, np.int64(0), keep)
        reverse_range(st.store, keep, total)
        reverse_range(st.store, np.int64(0), total)
        st.game[G_STORE_LEFT] = total - keep
        log_event(st.events, st.ecount, st.game[G_TURN], -1, EV_STORE_RESHUFFLED, -1, -1, total - keep)
    left = st.game[G_STORE_LEFT]
    j = rng_below(st.rng, left)
    store = st.store
    card = store[j]
    store[j] = store[left - 1]
    store[left - 1] = card
    st.game[G_STORE_LEFT] = left - 1
    return card


@rules_kernel
def legal_clash_opponents(st: Any, p: EngineInt, out: IntArray) -> EngineInt:
    """D_CLASH_OPPONENT's legal actions: the opponents with a Top card, in turn order from p's left."""
    players = st.game[G_PLAYERS]
    n = 0
    for k in range(1, players):
        q = (p + k) % players
        if top_slot(st, q) >= 0:
            out[n] = q
            n += 1
    return n


@rules_kernel
def clash(
    g: Any,
    st: Any,
    p: EngineInt,
    where: EngineInt,
    card: EngineInt,
    clause: EngineInt,
    with_all: EngineInt,
) -> int:
    """p clashes with one opponent (or all players) with a Top card. Returns the winner, -1 for a tie, -2 when the
    clash does not occur (fewer than two participants), -3 when the one opponent is p's choice: the decision
    D_CLASH_OPPONENT is open, and its `apply_clash_opponent` clashes."""
    players = st.game[G_PLAYERS]
    if top_slot(st, p) < 0:
        log_event(st.events, st.ecount, st.game[G_TURN], p, EV_NO_CLASH, card, -1, 0)
        return -2
    if with_all == 0:
        n = legal_clash_opponents(st, p, st.actions)
        if n == 0:
            log_event(st.events, st.ecount, st.game[G_TURN], p, EV_NO_CLASH, card, -1, 0)
            return -2
        open_decision(st, np.int64(D_CLASH_OPPONENT), p, n)
        st.game[G_DX_WHERE] = where
        st.game[G_DX_CARD] = card
        st.game[G_DX_CLAUSE] = clause
        return -3
    n = 0
    for q in range(players):
        if top_slot(st, q) >= 0:
            n += 1
    if n < 2:
        log_event(st.events, st.ecount, st.game[G_TURN], p, EV_NO_CLASH, card, -1, 1)
        return -2
    return clash_between(g, st, p, where, card, clause, with_all, np.int64(-1))


@inline_kernel
def apply_clash_opponent(
    g: Any,
    st: Any,
    action: EngineInt,
) -> int:
    """D_CLASH_OPPONENT's action: the deciding seat's clash with opponent `action`; the winner (-1: a tie)."""
    st.game[G_DECISION] = D_NONE
    return clash_between(
        g,
        st,
        st.game[G_ACTOR],
        st.game[G_DX_WHERE],
        st.game[G_DX_CARD],
        st.game[G_DX_CLAUSE],
        np.int64(0),
        action,
    )


@rules_kernel
def clash_between(
    g: Any,
    st: Any,
    p: EngineInt,
    where: EngineInt,
    card: EngineInt,
    clause: EngineInt,
    with_all: EngineInt,
    opponent: EngineInt,
) -> int:
    """The clash itself, p against `opponent` (or all players with a Top card): each reveals a store card, the
    highest total wins. Returns the winner, -1 for a tie. Queues p's outcome and the participants' reactions."""
    players = st.game[G_PLAYERS]
    log_event(st.events, st.ecount, st.game[G_TURN], p, EV_CLASH, card, opponent, with_all)
    best = -1
    best_total = -1
    tied = False
    # An int64 from the start: typed first as the constant 0, the call below would compile a second copy.
    revealed = np.int64(0)
    # The seats that take part (a bit each): those with a Top card, which the reveals below do not change.
    taking = 0
    # Reveal in turn order from the initiator ("starting with whoever initiated the clash and moving clockwise").
    for k in range(players):
        q = (p + k) % players
        if with_all == 0 and q != p and q != opponent:
            continue
        t = top_slot(st, q)
        if t < 0:
            continue
        taking |= 1 << q
        revealed_card = reveal_from_store(st, revealed)
        if revealed_card >= 0:
            revealed += 1
            extra = g.table[revealed_card, T_STARS]
        else:
            extra = 0
        total = top_stars(g, st, q, t) + extra
        st.counters[st.side[q, S_DECKSIDE], st.tab[q, t, TB_CARD], ATTACKED] += 1
        log_event(st.events, st.ecount, st.game[G_TURN], q, EV_REVEAL, st.tab[q, t, TB_CARD], revealed_card, total)
        if total > best_total:
            best_total = total
            best = q
            tied = False
        elif total == best_total:
            tied = True
    # The revealed cards go to the aftermarket; over 12, the aftermarket is first discarded to the store discard.
    if revealed > 0:
        if st.game[G_AFTERMARKET] + revealed > AFTERMARKET_LIMIT:
            log_event(st.events, st.ecount, st.game[G_TURN], -1, EV_AFTERMARKET_CLEARED, -1, -1, st.game[G_AFTERMARKET])
            st.game[G_AFTERMARKET] = revealed
        else:
            st.game[G_AFTERMARKET] += revealed
    winner = -1 if tied else best
    log_event(st.events, st.ecount, st.game[G_TURN], winner, EV_CLASH_RESULT, card, p, best_total)
    if winner == p:
        part = PART_WIN
    elif winner < 0:
        part = PART_TIE
    else:
        part = PART_LOSE
    if g.effects[card, clause, ACTION_BASE + part * ACTION_WIDTH + A_VERB] != V_NONE:
        enqueue(st, QK_EFFECT, p, where, card, clause, part, NONE)
    if winner >= 0:
        current = st.game[G_CURRENT]
        for k in range(players):
            q = (current + k) % players
            if (taking >> q) & 1 == 0:
                continue
            enqueue(st, QK_REACT, q, ZERO, NONE, NONE, ZERO, TR_WIN if q == winner else TR_LOSE)
    return winner


# =====================================================================================================================
# Resolving effects
# =====================================================================================================================


@rules_kernel
def put_tokens(g: Any, st: Any, p: EngineInt, s: EngineInt, amount: EngineInt, source: EngineInt) -> None:
    """+1 star tokens on a face-up card (face-down cards cannot hold them)."""
    if s < 0 or st.tab[p, s, TB_UP] == 0:
        log_event(st.events, st.ecount, st.game[G_TURN], p, EV_NO_TARGET, source, -1, 0)
        return
    st.tab[p, s, TB_TOKENS] += amount
    log_event(st.events, st.ecount, st.game[G_TURN], p, EV_TOKENS, st.tab[p, s, TB_CARD], source, amount)


@rules_kernel
def legal_give_up(st: Any, q: EngineInt, out: IntArray) -> EngineInt:
    """D_GIVE_UP's legal actions: the hand positions of q's singles (q gives up one "of their choice")."""
    n = st.side[q, S_HAND]
    for h in range(n):
        out[h] = h
    return n


@rules_kernel
def apply_give_up(st: Any, h: EngineInt) -> None:
    """D_GIVE_UP's action: the deciding seat's single at hand position h leaves the hand, to the binder (a discard
    by seat G_DX_BY's effect, card G_DX_CARD) or under the card in slot G_DX_WHERE (an attachment)."""
    st.game[G_DECISION] = D_NONE
    q = st.game[G_ACTOR]
    card = st.side[q, S_CARDS + h]
    st.side[q, S_HAND] -= 1
    st.side[q, S_CARDS + h] = st.side[q, S_CARDS + st.side[q, S_HAND]]
    if st.game[G_DX_ARG] == GIVE_DISCARD:
        log_event(st.events, st.ecount, st.game[G_TURN], q, EV_DISCARD, card, st.game[G_DX_CARD], st.game[G_DX_BY])
    else:
        where = st.game[G_DX_WHERE]
        st.tab[q, where, TB_ATTACHED] += 1
        log_event(
            st.events, st.ecount, st.game[G_TURN], q, EV_ATTACH, card, st.game[G_DX_CARD], st.tab[q, where, TB_ATTACHED]
        )


@inline_kernel
def give_up(
    st: Any,
    q: EngineInt,
    use: EngineInt,
    where: EngineInt,
    by: EngineInt,
    by_card: EngineInt,
) -> None:
    """q gives up a single of their choice (q's hand is not empty): the decision D_GIVE_UP opens, and its
    `apply_give_up` puts the single in the binder or under the card in slot `where`."""
    open_decision(st, np.int64(D_GIVE_UP), q, legal_give_up(st, q, st.actions))
    st.game[G_DX_ARG] = use
    st.game[G_DX_WHERE] = where
    st.game[G_DX_BY] = by
    st.game[G_DX_CARD] = by_card


@rules_kernel
def discard_from(
    st: Any,
    q: EngineInt,
    amount: EngineInt,
    by: EngineInt,
    by_card: EngineInt,
) -> None:
    """q discards `amount` singles of their choice from hand to the binder, unavailable for the rest of the
    tournament (as many as q has); when an opponent's effect made q discard, q may react (`discarded`). Each single
    is q's decision (D_GIVE_UP), so the discard is an effect the decisions interrupt (G_ITEM, IT_DISCARD): it goes on
    in `discard_on`."""
    st.game[G_ITEM] = IT_DISCARD
    st.game[G_IT_SEAT] = q
    st.game[G_IT_A] = amount
    st.game[G_IT_B] = by
    st.game[G_IT_C] = by_card
    st.game[G_IT_D] = 0
    discard_on(st)


@rules_kernel
def discard_on(st: Any) -> None:
    """The discard in G_IT_* goes on: q's next single to give up is q's decision (D_GIVE_UP), until `amount` are
    discarded or q's hand is empty; then the discard is over (a seat made to discard by an opponent may react)."""
    q = st.game[G_IT_SEAT]
    by = st.game[G_IT_B]
    by_card = st.game[G_IT_C]
    done = st.game[G_IT_D]
    if done < st.game[G_IT_A] and st.side[q, S_HAND] > 0:
        st.game[G_IT_D] = done + 1
        give_up(st, q, np.int64(GIVE_DISCARD), np.int64(-1), by, by_card)
        return
    st.game[G_ITEM] = IT_NONE
    if done == 0:
        log_event(st.events, st.ecount, st.game[G_TURN], q, EV_NO_TARGET, by_card, -1, 0)
    elif by != q:
        enqueue(st, QK_REACT, q, ZERO, NONE, NONE, ZERO, TR_DISCARDED)


@rules_kernel
def legal_discarders(st: Any, p: EngineInt, out: IntArray) -> EngineInt:
    """D_DISCARDER's legal actions: the opponents holding a single, in turn order from p's left."""
    players = st.game[G_PLAYERS]
    n = 0
    for k in range(1, players):
        q = (p + k) % players
        if st.side[q, S_HAND] > 0:
            out[n] = q
            n += 1
    return n


@inline_kernel
def apply_discarder(g: Any, st: Any, q: EngineInt) -> None:
    """D_DISCARDER's action: opponent q discards G_DX_ARG singles by the deciding seat's effect (card G_DX_CARD)."""
    st.game[G_DECISION] = D_NONE
    discard_from(st, q, st.game[G_DX_ARG], st.game[G_ACTOR], st.game[G_DX_CARD])


@rules_kernel
def copy_target(st: Any, p: EngineInt, where: EngineInt, direction: EngineInt) -> EngineInt:
    """The slot a `copy left|right` on p's slot `where` copies, or -1 (off the tableau, no card there, or the card
    is face-down)."""
    if where < 0:
        return -1
    t = where - 1 if direction == COPY_LEFT else where + 1
    if t < 0 or t >= st.side[p, S_USED] or st.tab[p, t, TB_UP] == 0:
        return -1
    return t


@rules_kernel
def perform(
    g: Any,
    st: Any,
    p: EngineInt,
    where: EngineInt,
    card: EngineInt,
    clause: EngineInt,
    part: EngineInt,
    arg: EngineInt,
) -> None:
    """Do one action of a clause (its main action, or a clash outcome) for player p. A copied clause is performed
    with `card` the copied card and `where` the copying card's slot."""
    timing = g.effects[card, clause, E_TIMING]
    if (timing == TM_PLAY or timing == TM_NEXT) and part == PART_MAIN and not source_up(st, p, where):
        return  # flipped before its turn came: a face-down card has no text
    base = ACTION_BASE + part * ACTION_WIDTH
    verb = g.effects[card, clause, base + A_VERB]
    amount = g.effects[card, clause, base + A_AMOUNT]
    if verb == V_GAIN:
        n = count_per(g, st, p, where, g.effects[card, clause, base + A_PER], g.effects[card, clause, base + A_ARG])
        gain_rp(st, p, card, amount * n)
    elif verb == V_DISCARD:
        if g.effects[card, clause, base + A_WHOSE] == WHOSE_YOURS:
            discard_from(st, p, amount, p, card)
        else:
            n = legal_discarders(st, p, st.actions)
            if n == 0:
                log_event(st.events, st.ecount, st.game[G_TURN], p, EV_NO_TARGET, card, -1, 0)
            else:
                open_decision(st, np.int64(D_DISCARDER), p, n)
                st.game[G_DX_ARG] = amount
                st.game[G_DX_CARD] = card
    elif verb == V_SLOT:
        slots = st.side[p, S_SLOTS] + amount
        st.side[p, S_SLOTS] = slots if slots < MAX_SLOTS else MAX_SLOTS
        log_event(st.events, st.ecount, st.game[G_TURN], p, EV_SLOT, card, st.side[p, S_SLOTS], amount)
    elif verb == V_ATTACH:
        if where < 0 or st.tab[p, where, TB_UP] == 0 or st.side[p, S_HAND] == 0:
            log_event(st.events, st.ecount, st.game[G_TURN], p, EV_NO_TARGET, card, -1, 0)
        else:
            give_up(st, p, np.int64(GIVE_ATTACH), where, p, card)
    elif verb == V_COPY:
        target = copy_target(st, p, where, g.effects[card, clause, base + A_PICK])
        if target < 0:
            # FAQ: "A copy effect that would target a face-down card does nothing".
            log_event(st.events, st.ecount, st.game[G_TURN], p, EV_NO_TARGET, card, -1, 0)
        else:
            copied = st.tab[p, target, TB_CARD]
            log_event(st.events, st.ecount, st.game[G_TURN], p, EV_COPY, card, copied, target)
            trigger = g.effects[card, clause, E_TRIGGER]
            for c in range(g.table[copied, T_CLAUSES]):
                if g.effects[copied, c, E_TIMING] != timing or g.effects[copied, c, ACTION_BASE + A_VERB] == V_COPY:
                    continue  # FAQ: "Copy effects can never be copied."
                if timing == TM_REACTION and g.effects[copied, c, E_TRIGGER] != trigger:
                    continue
                # Performed as this card's own effect: from this card's slot, with its tokens and neighbours.
                enqueue(st, QK_EFFECT, p, where, copied, c, PART_MAIN, arg)
    elif verb == V_FLIP:
        pick = g.effects[card, clause, base + A_PICK]
        if g.effects[card, clause, base + A_WHOSE] == WHOSE_YOURS:
            n = legal_own_flips(g, st, p, pick, st.actions)
            decision = D_FLIP_OWN
        else:
            n = legal_opponent_flips(g, st, p, pick, np.int64(-1), st.actions)
            decision = D_FLIP_OPPONENT
        if n == 0:
            log_event(st.events, st.ecount, st.game[G_TURN], p, EV_NO_TARGET, card, -1, 0)
        else:
            open_decision(st, np.int64(decision), p, n)
            st.game[G_DX_CARD] = card
            st.game[G_DX_ARG] = pick
            st.game[G_DX_LIMIT] = -1
    elif verb == V_STAR:
        if timing == TM_PLAY and part == PART_MAIN and where >= 0:
            put_tokens(g, st, p, where, amount, card)
        elif timing == TM_NEXT and part == PART_MAIN:
            put_tokens(g, st, p, arg, amount, card)
        else:
            put_tokens(g, st, p, top_slot(st, p), amount, card)
    elif verb == V_CLASH:
        clash(g, st, p, where, card, clause, g.effects[card, clause, E_CLASH_ALL])
    elif verb == V_BLAST_OFF:
        st.side[p, S_NEXT_TOKENS] += BLAST_OFF_TOKENS
        log_event(st.events, st.ecount, st.game[G_TURN], p, EV_TOKENS, -1, card, BLAST_OFF_TOKENS)
    elif verb == V_ANVIL:
        mine = source_stars(g, st, p, where)
        n = legal_opponent_flips(g, st, p, np.int64(PICK_CHOICE), mine, st.actions)
        if n == 0:
            log_event(st.events, st.ecount, st.game[G_TURN], p, EV_NO_TARGET, card, -1, 0)
        else:
            open_decision(st, np.int64(D_FLIP_OPPONENT), p, n)
            st.game[G_DX_CARD] = card
            st.game[G_DX_ARG] = PICK_CHOICE
            st.game[G_DX_LIMIT] = mine
    elif verb == V_THWOMP:
        if (
            where >= 1
            and st.tab[p, where - 1, TB_UP] == 1
            and stars_of(g, st, p, where - 1) < stars_of(g, st, p, where)
        ):
            flip_slot(g, st, p, where - 1, p, card)
            gain_rp(st, p, card, amount)
        else:
            log_event(st.events, st.ecount, st.game[G_TURN], p, EV_NO_TARGET, card, -1, 0)
    # V_PROTECT and V_MIMICRY are lasting (read from the card table); V_SCURRY acts when the card is placed.


@inline_kernel
def legal_reaction(out: IntArray) -> EngineInt:
    """D_REACTION's legal actions: Reactions are optional, so USE and DECLINE."""
    out[0] = USE
    out[1] = DECLINE
    return np.int64(2)  # not `2`: copied into its caller, a literal would type the caller's `n` apart


@inline_kernel
def apply_reaction(g: Any, st: Any, action: EngineInt) -> None:
    """D_REACTION's action: USE flips the reacting card face-down and queues its clause (G_DX_* name them)."""
    st.game[G_DECISION] = D_NONE
    if action != USE:
        return
    q = st.game[G_ACTOR]
    w = st.game[G_DX_WHERE]
    card = st.game[G_DX_CARD]
    log_event(st.events, st.ecount, st.game[G_TURN], q, EV_REACTION, card, st.game[G_DX_ARG], 0)
    if w < 0:  # a deck box's or accessory's reaction is its play; a single was played when placed
        count_play(st.counters, st.side[q, S_DECKSIDE], card, st.game[G_TURN])
    flip_source(g, st, q, w)
    enqueue(st, QK_EFFECT, q, w, card, st.game[G_DX_CLAUSE], PART_MAIN, NONE)


@rules_kernel
def react(g: Any, st: Any, q: EngineInt, trigger: EngineInt) -> None:
    """q's face-up cards (tableau, deck box, accessories) with a Reaction on this trigger, each offered to q
    (D_REACTION): each used one is flipped face-down and its action queued. Each offer is q's decision, so the
    offers are an effect the decisions interrupt (G_ITEM, IT_REACT): they go round in `react_on`."""
    if (st.side[q, S_REACTS] >> (trigger * MAX_CLAUSES)) & CLAUSE_BITS == 0:
        return
    st.game[G_ITEM] = IT_REACT
    st.game[G_IT_SEAT] = q
    st.game[G_IT_A] = trigger
    st.game[G_IT_B] = 0
    st.game[G_IT_C] = st.side[q, S_USED] + 3
    st.game[G_IT_D] = 0
    react_on(g, st)


@rules_kernel
def react_on(g: Any, st: Any) -> None:
    """The Reaction offers in G_IT_* go on from where the last one left them: the next clause of the source in hand
    (G_IT_D, G_IT_E, G_IT_F), else the next source (G_IT_B of G_IT_C: the tableau left to right, then the deck box
    and the accessories), each face-up card's clauses on the trigger in clause order, a card no longer face-up (a
    Reaction used flips it) offering nothing more. The next offer opens D_REACTION; none left ends the effect."""
    q = st.game[G_IT_SEAT]
    trigger = st.game[G_IT_A]
    k = st.game[G_IT_B]
    clauses = st.game[G_IT_D]
    w = st.game[G_IT_E]
    card = st.game[G_IT_F]
    while True:
        if clauses == 0:
            if k >= st.game[G_IT_C]:
                st.game[G_ITEM] = IT_NONE
                return
            used = st.side[q, S_USED]
            w = k if k < used else W_BOX - (k - used)
            k += 1
            if not source_up(st, q, w):
                continue
            card = source_card(st, q, w)
            clauses = reactions_to(g, card, trigger)
            continue
        c = lowest_set_bit(clauses)
        clauses &= clauses - 1
        if not source_up(st, q, w):
            continue
        st.game[G_IT_B] = k
        st.game[G_IT_D] = clauses
        st.game[G_IT_E] = w
        st.game[G_IT_F] = card
        open_decision(st, np.int64(D_REACTION), q, legal_reaction(st.actions))
        st.game[G_DX_WHERE] = w
        st.game[G_DX_CARD] = card
        st.game[G_DX_CLAUSE] = c
        st.game[G_DX_ARG] = trigger
        return


@llvm_inline_kernel
def resolve_effects(g: Any, st: Any) -> bool:
    """Resolve what is waiting until a decision opens (False) or nothing is left (True): first an effect a decision
    interrupted (G_ITEM: Reaction offers, a discard), then the queued effects, first in, first out."""
    while st.game[G_DECISION] == D_NONE:
        item = st.game[G_ITEM]
        if item == IT_REACT:
            react_on(g, st)
        elif item == IT_DISCARD:
            discard_on(st)
        elif st.game[G_QHEAD] < st.game[G_QTAIL]:
            i = st.game[G_QHEAD] % QUEUE_SIZE
            st.game[G_QHEAD] += 1
            if st.queue[i, Q_KIND] == QK_REACT:
                react(g, st, st.queue[i, Q_PLAYER], st.queue[i, Q_ARG])
            else:
                perform(
                    g,
                    st,
                    st.queue[i, Q_PLAYER],
                    st.queue[i, Q_WHERE],
                    st.queue[i, Q_CARD],
                    st.queue[i, Q_CLAUSE],
                    st.queue[i, Q_PART],
                    st.queue[i, Q_ARG],
                )
        else:
            return True
    return False


# =====================================================================================================================
# A turn: play a single, use an action
# =====================================================================================================================


@rules_kernel
def place_single(
    g: Any,
    st: Any,
    p: EngineInt,
    card: EngineInt,
    insert_at: EngineInt,
) -> int:
    """Put a single into p's left-most open slot (or, with Scurry, at `insert_at`, shifting cards right) and queue
    its Play clauses and the Next effects waiting for it; once they are resolved, `single_placed` ends the placing.
    Returns the slot it ended in."""
    used = st.side[p, S_USED]
    s = used
    if g.table[card, T_FLAGS] & F_SCURRY and 0 <= insert_at < used:
        s = insert_at
        for t in range(used, s, -1):
            for f in range(TAB_WIDTH):
                st.tab[p, t, f] = st.tab[p, t - 1, f]
    st.tab[p, s, TB_CARD] = card
    st.tab[p, s, TB_UP] = 1
    st.tab[p, s, TB_TOKENS] = 0
    st.tab[p, s, TB_NEXT] = 0
    st.tab[p, s, TB_ATTACHED] = 0
    st.side[p, S_USED] = used + 1
    # Placed face-up: the new Top card, unless a Scurry put it left of the Top card (which moved one slot right).
    top = st.side[p, S_TOP]
    st.side[p, S_TOP] = top + 1 if top >= s else s
    st.side[p, S_REACTS] |= g.table[card, T_REACTIONS]
    st.side[p, S_PLAYED] += 1
    count_play(st.counters, st.side[p, S_DECKSIDE], card, st.game[G_TURN])
    log_event(st.events, st.ecount, st.game[G_TURN], p, EV_PLAY, card, s, g.table[card, T_STARS])
    # Priority Top > Ongoing > Play > Next: Top and Ongoing are lasting, so Play resolves before Next.
    enqueue_timing(g, st, p, s, card, np.int64(TM_PLAY), np.int64(-1))
    for t in range(used + 1):
        if t != s and st.tab[p, t, TB_NEXT] == 1:
            st.tab[p, t, TB_NEXT] = 0
            if st.tab[p, t, TB_UP] == 1:
                enqueue_timing(g, st, p, t, st.tab[p, t, TB_CARD], np.int64(TM_NEXT), s)
    return s


@llvm_inline_kernel
def single_placed(g: Any, st: Any, p: EngineInt, s: EngineInt, card: EngineInt) -> None:
    """The end of placing `card` in p's slot s, once its Play and Next effects are resolved: the Blast Off tokens
    waiting go on it, and a face-up card with a Next clause waits for the next single."""
    if st.side[p, S_NEXT_TOKENS] > 0:
        put_tokens(g, st, p, s, st.side[p, S_NEXT_TOKENS], np.int64(-1))
        st.side[p, S_NEXT_TOKENS] = 0
    if g.table[card, T_FLAGS] & F_HAS_NEXT and st.tab[p, s, TB_UP] == 1:
        st.tab[p, s, TB_NEXT] = 1


@rules_kernel
def use_action(
    g: Any,
    st: Any,
    p: EngineInt,
    where: EngineInt,
    clause: EngineInt,
) -> None:
    """Use an Action clause: queue it; once it is resolved its card is flipped face-down ("perform the text on the
    card, then flip": STAGE_ACTION_FLIP in a turn)."""
    card = source_card(st, p, where)
    log_event(st.events, st.ecount, st.game[G_TURN], p, EV_ACTION, card, where, 0)
    if where < 0:
        count_play(st.counters, st.side[p, S_DECKSIDE], card, st.game[G_TURN])
    enqueue(st, QK_EFFECT, p, where, card, clause, PART_MAIN, NONE)


@inline_kernel
def legal_turn_actions(g: Any, st: Any, p: EngineInt, out: IntArray) -> EngineInt:
    """D_ACTION_BEFORE / D_ACTION_AFTER's legal actions: `(where + 3) * MAX_CLAUSES + clause` of each Action clause
    of p's face-up cards (the accessories, then the deck box, then the tableau left to right), then NO_ACTION."""
    n = 0
    for k in range(st.side[p, S_USED] + 3):
        where = k - 3  # -3 (accessory 2), -2 (accessory 1), -1 (deck box), then tableau slots 0, 1, ...
        if not source_up(st, p, where):
            continue
        clauses = clauses_timed(g, source_card(st, p, where), np.int64(TM_ACTION))
        while clauses:
            out[n] = k * MAX_CLAUSES + lowest_set_bit(clauses)
            n += 1
            clauses &= clauses - 1
    out[n] = NO_ACTION
    return n + 1


@inline_kernel
def apply_turn_action(
    g: Any,
    st: Any,
    action: EngineInt,
) -> None:
    """D_ACTION_BEFORE / D_ACTION_AFTER's action: the Action used (or none); once it is resolved and its card
    flipped, the turn's next decision (STAGE_ACTION_DONE): the single after D_ACTION_BEFORE (none when the Action
    emptied p's own hand: no single to play), none after D_ACTION_AFTER."""
    p = st.game[G_ACTOR]
    st.game[G_CONT_B] = st.game[G_DECISION] == D_ACTION_BEFORE
    st.game[G_DECISION] = D_NONE
    if action != NO_ACTION:
        st.game[G_ACTED] = 1
        where = action // MAX_CLAUSES - 3
        use_action(g, st, p, where, action % MAX_CLAUSES)
        st.game[G_CONT_A] = where
        st.game[G_STAGE] = STAGE_ACTION_FLIP
    else:
        st.game[G_STAGE] = STAGE_ACTION_DONE


@inline_kernel
def legal_singles(st: Any, p: EngineInt, out: IntArray) -> EngineInt:
    """D_SINGLE's legal actions: the hand positions of p's singles (the turn's caller saw an open tableau slot)."""
    n = st.side[p, S_HAND]
    for h in range(n):
        out[h] = h
    return n


@inline_kernel
def placing(st: Any, p: EngineInt, s: EngineInt, card: EngineInt) -> None:
    """The single `card` is placed in p's slot s: the turn goes on once its effects are resolved (STAGE_PLACED)."""
    st.game[G_DECISION] = D_NONE
    st.game[G_CONT_A] = s
    st.game[G_CONT_B] = card
    st.game[G_STAGE] = STAGE_PLACED


@inline_kernel
def apply_single(
    g: Any,
    st: Any,
    h: EngineInt,
) -> None:
    """D_SINGLE's action: the single at hand position h leaves the hand and is placed (a Scurry single's slot is
    the next decision, D_SCURRY); once it is placed, the Action after is the next decision unless one was taken
    before (STAGE_PLACED)."""
    p = st.game[G_ACTOR]
    card = st.side[p, S_CARDS + h]
    st.side[p, S_HAND] -= 1
    st.side[p, S_CARDS + h] = st.side[p, S_CARDS + st.side[p, S_HAND]]
    if g.table[card, T_FLAGS] & F_SCURRY:
        st.game[G_PLACING] = card
        open_decision(st, np.int64(D_SCURRY), p, legal_scurry(st, p, st.actions))
        return
    placing(st, p, place_single(g, st, p, card, np.int64(-1)), card)


@rules_kernel
def legal_scurry(st: Any, p: EngineInt, out: IntArray) -> EngineInt:
    """D_SCURRY's legal actions: the slots a Scurry single may go to ("anywhere"): before any card of p's tableau,
    or the right end (the last)."""
    n = st.side[p, S_USED] + 1
    for s in range(n):
        out[s] = s
    return n


@inline_kernel
def apply_scurry(
    g: Any,
    st: Any,
    s: EngineInt,
) -> None:
    """D_SCURRY's action: the single G_PLACING goes to slot s (cards from s on move right), then as D_SINGLE's."""
    p = st.game[G_ACTOR]
    card = st.game[G_PLACING]
    placing(st, p, place_single(g, st, p, card, s), card)


@inline_kernel
def open_single(st: Any, p: EngineInt) -> None:
    """Open p's single decision (D_SINGLE), its hand listed."""
    open_decision(st, np.int64(D_SINGLE), p, legal_singles(st, p, st.actions))


@inline_kernel
def open_action(g: Any, st: Any, p: EngineInt, decision: EngineInt) -> None:
    """Open p's Action decision (D_ACTION_BEFORE or D_ACTION_AFTER), or, when p has no Action to use (NO_ACTION
    alone listed), go on as if p took none: a decision with one row and no choice in it, which every policy answers
    NO_ACTION without a draw."""
    n = legal_turn_actions(g, st, p, st.actions)
    if n > 1:
        open_decision(st, decision, p, n)
    elif decision == D_ACTION_BEFORE:
        open_single(st, p)
    # After the single, no Action to use ends the turn: STAGE_TURN_OVER, set when the turn's decision opened.


@llvm_inline_kernel
def begin_turn(
    g: Any,
    st: Any,
    p: EngineInt,
) -> None:
    """A turn of a player who can play: an optional Action before, the single, an optional Action after, each
    p's decision (the Action before is the first open, or the single when p has no Action). Once the last one
    closes with nothing after it, the turn is over (STAGE_TURN_OVER)."""
    st.game[G_CURRENT] = p
    log_event(st.events, st.ecount, st.game[G_TURN], p, EV_TURN, -1, st.side[p, S_RP], st.side[p, S_HAND])
    st.game[G_ACTED] = 0
    st.game[G_STAGE] = STAGE_TURN_OVER
    open_action(g, st, p, np.int64(D_ACTION_BEFORE))


# =====================================================================================================================
# Setup, the end of the tournament, whole tournaments
# =====================================================================================================================


@rules_kernel
def setup_seat(
    g: Any,
    st: Any,
    p: EngineInt,
    deck: IntArray,
    policy: EngineInt,
    deckside: EngineInt,
    seed: EngineInt,
) -> None:
    """RP 0, the seat's policy block started from its policy word and the tournament's seed (`start_policy`), the
    deck's singles in hand (over 8: random ones go back to the binder), the first deck box and the first two
    accessories set out face-up (counted as drawn, and as played on turn 1: they start in play)."""
    st.side[p, S_RP] = 0
    st.side[p, S_HAND] = 0
    st.side[p, S_USED] = 0
    st.side[p, S_NEXT_TOKENS] = 0
    start_policy(policy_of(st, p), policy, seed, p)
    st.side[p, S_DECKSIDE] = deckside
    st.side[p, S_VP] = 0
    st.side[p, S_PLACE] = 0
    st.side[p, S_PLAYED] = 0
    st.side[p, S_PASSED] = 0
    st.side[p, S_SLOTS] = st.game[G_SLOTS]
    for a in range(3):
        st.area[p, a, AR_CARD] = -1
        st.area[p, a, AR_UP] = 0
    accessories = 0
    for k in range(deck.shape[0]):
        card = deck[k]
        kind = g.table[card, T_KIND]
        if kind == K_SINGLE:
            if st.side[p, S_HAND] < MAX_HAND:
                st.side[p, S_CARDS + st.side[p, S_HAND]] = card
                st.side[p, S_HAND] += 1
        elif kind == K_DECK_BOX:
            if st.area[p, AREA_BOX, AR_CARD] < 0:
                st.area[p, AREA_BOX, AR_CARD] = card
                st.area[p, AREA_BOX, AR_UP] = 1
        elif kind == K_ACCESSORY and accessories < 2:
            st.area[p, AREA_ACCESSORY_1 + accessories, AR_CARD] = card
            st.area[p, AREA_ACCESSORY_1 + accessories, AR_UP] = 1
            accessories += 1
    while st.side[p, S_HAND] > HAND_LIMIT:
        h = rng_below(st.rng, st.side[p, S_HAND])
        log_event(st.events, st.ecount, st.game[G_TURN], p, EV_TRIMMED, st.side[p, S_CARDS + h], -1, 0)
        st.side[p, S_HAND] -= 1
        st.side[p, S_CARDS + h] = st.side[p, S_CARDS + st.side[p, S_HAND]]
    seat_summaries(g, st, p)
    for h in range(st.side[p, S_HAND]):
        count_draw(st.counters, deckside, st.side[p, S_CARDS + h])
    for a in range(3):
        if st.area[p, a, AR_CARD] >= 0:
            # The deck box and the accessories set out start in play: drawn, and played on the tournament's first
            # turn (turn 1, as the turns are numbered), as a single is played when placed. Counters only: no
            # decision, no draw from the generator and no event follows from it.
            count_draw(st.counters, deckside, st.area[p, a, AR_CARD])
            count_play(st.counters, deckside, st.area[p, a, AR_CARD], np.int64(1))


@rules_kernel
def seat_players(
    g: Any,
    st: Any,
    decks: IntArray,
    deck_ends: IntArray,
    policies: IntArray,
    seed: EngineInt,
    extra_slots: IntArray,
) -> None:
    """The whole game's seats set up for a tournament (`market.play_tournament`), in seat order, in one call: seat p
    by `setup_seat` with its deck `decks[deck_ends[p - 1]:deck_ends[p]]` (from 0 for seat 0), its policy word
    `policies[p]` and deck side 0, then `extra_slots[p]` more tableau slots (Shur's power; at most MAX_SLOTS)."""
    start = 0
    for p in range(deck_ends.shape[0]):
        setup_seat(g, st, p, decks[start : deck_ends[p]], policies[p], np.int64(0), seed)
        if extra_slots[p] > 0:
            slots = st.side[p, S_SLOTS] + extra_slots[p]
            st.side[p, S_SLOTS] = slots if slots < MAX_SLOTS else MAX_SLOTS
        start = deck_ends[p]


@rules_kernel
def score_clause(
    g: Any,
    st: Any,
    p: EngineInt,
    where: EngineInt,
    card: EngineInt,
    c: EngineInt,
) -> None:
    """One `gain N RP [per ...]` Score clause of `card`, counted for p from `where`."""
    n = count_per(g, st, p, where, g.effects[card, c, ACTION_BASE + A_PER], g.effects[card, c, ACTION_BASE + A_ARG])
    gain_rp(st, p, card, g.effects[card, c, ACTION_BASE + A_AMOUNT] * n)


@rules_kernel
def final_scoring(g: Any, st: Any, vp_round: EngineInt) -> None:
    """Score clauses of face-up cards (tableau left to right, deck box, accessories), then of the revealed
    metagame cards, which every player activates for themselves; then placement by RP and VP by the round's chart;
    tied players split the VP of every place they cover, rounded down."""
    players = st.game[G_PLAYERS]
    for p in range(players):
        for k in range(st.side[p, S_USED] + 3):
            where = k if k < st.side[p, S_USED] else W_BOX - (k - st.side[p, S_USED])
            if not source_up(st, p, where):
                continue
            card = source_card(st, p, where)
            clauses = clauses_timed(g, card, np.int64(TM_SCORE))
            while clauses:
                c = lowest_set_bit(clauses)
                clauses &= clauses - 1
                if g.effects[card, c, ACTION_BASE + A_VERB] != V_COPY:
                    score_clause(g, st, p, where, card, c)
                    continue
                target = copy_target(st, p, where, g.effects[card, c, ACTION_BASE + A_PICK])
                if target < 0:
                    log_event(st.events, st.ecount, st.game[G_TURN], p, EV_NO_TARGET, card, -1, 0)
                    continue
                copied = st.tab[p, target, TB_CARD]
                log_event(st.events, st.ecount, st.game[G_TURN], p, EV_COPY, card, copied, target)
                for c2 in range(g.table[copied, T_CLAUSES]):
                    # Copy effects can never be copied; the copied Score clauses count from this card's slot.
                    if (
                        g.effects[copied, c2, E_TIMING] == TM_SCORE
                        and g.effects[copied, c2, ACTION_BASE + A_VERB] == V_GAIN
                    ):
                        score_clause(g, st, p, where, copied, c2)
        # "... then Accessories, and finally the Metagame Cards. Every Player activates the Metagame Score effects
        # for themselves."
        for m in range(MAX_META_STACKS):
            card = st.game[G_META + m]
            if card < 0:
                continue
            for c in range(g.table[card, T_CLAUSES]):
                if g.effects[card, c, E_TIMING] == TM_SCORE and g.effects[card, c, ACTION_BASE + A_VERB] == V_GAIN:
                    score_clause(g, st, p, np.int64(W_META), card, c)
    for p in range(players):
        above = 0
        same = 0
        for q in range(players):
            if st.side[q, S_RP] > st.side[p, S_RP]:
                above += 1
            elif st.side[q, S_RP] == st.side[p, S_RP]:
                same += 1
        total = 0
        for place in range(above, above + same):
            total += VP_CHART[vp_round, place]
        st.side[p, S_PLACE] = above + 1
        st.side[p, S_VP] = total // same
    for p in range(players):
        log_event(
            st.events, st.ecount, st.game[G_TURN], p, EV_PLACE, st.side[p, S_RP], st.side[p, S_PLACE], st.side[p, S_VP]
        )


@rules_kernel
def match_winner(st: Any, mode: EngineInt) -> int:
    """The two-sided result (see option `match_result`): 0 = seat A, 1 = deck B's side, -1 = even.

    head_to_head: A against the rival seat drawn for the match (more RP wins; equal RP, a shared place, is a draw),
    so a mirror is exactly even at any player count. first_place: A alone in first place wins, A sharing first
    place draws, anything else loses."""
    players = st.game[G_PLAYERS]
    if mode == MR_FIRST_PLACE:
        if st.side[0, S_PLACE] != 1:
            return 1
        for q in range(1, players):
            if st.side[q, S_PLACE] == 1:
                return -1
        return 0
    rival = st.game[G_RIVAL]
    if st.side[0, S_RP] > st.side[rival, S_RP]:
        return 0
    if st.side[0, S_RP] < st.side[rival, S_RP]:
        return 1
    return -1


@rules_kernel
def opening_seat(st: Any, players: EngineInt, first: EngineInt) -> EngineInt:
    """The seat that takes the first turn. The runner's `first` (0 = A, 1 = B, alternating) says which half of the
    turn order seat A sits in: A's position is (first * players + a uniform draw below players) // 2, so over the
    alternation every position is equally likely (an even mirror at any player count) and with two players A
    simply goes first when `first` is 0."""
    position = (first * players + rng_below(st.rng, players)) // 2
    return (players - position) % players


@rules_kernel
def setup_tournament(
    g: Any,
    st: Any,
    deck_a: IntArray,
    deck_b: IntArray,
    seed: EngineInt,
    first: EngineInt,
    policy_a: EngineInt,
    policy_b: EngineInt,
    store_total: EngineInt,
    meta: IntArray,
) -> None:
    """Seed the generator, reset the store (every card back in it), seat the players and reveal the metagame: one
    card drawn from each meta stack (`meta[m, 0]` cards in `meta[m, 1:]`), none in the pre-release round."""
    rng_seed(st.rng, seed)
    players = st.options[O_PLAYERS]
    opening = opening_seat(st, players, first)
    st.game[G_RIVAL] = 1 + rng_below(st.rng, players - 1)
    st.game[G_TURN] = 0
    st.game[G_PLAYERS] = players
    st.game[G_CURRENT] = opening
    st.game[G_STORE_LEFT] = store_total
    st.game[G_STORE_TOTAL] = store_total
    st.game[G_AFTERMARKET] = 0
    st.game[G_FIRST] = opening
    st.game[G_SLOTS] = st.options[O_SLOTS]
    st.game[G_QHEAD] = 0
    st.game[G_QTAIL] = 0
    for p in range(players):
        log_event(st.events, st.ecount, 0, p, EV_SEAT, -1, -1, 0 if p == 0 else 1)
        if p == 0:
            setup_seat(g, st, p, deck_a, policy_a, np.int64(0), seed)
        else:
            setup_seat(g, st, p, deck_b, policy_b, np.int64(1), seed)
    reveal_metagame(st, meta)
    log_event(st.events, st.ecount, 0, opening, EV_OPENS, -1, st.game[G_RIVAL], (players - opening) % players + 1)


@rules_kernel
def reveal_metagame(st: Any, meta: IntArray) -> None:
    """Reveal one card of each metagame stack for the tournament ("Every Player activates the Metagame Score effects
    for themselves"), or none (-1) in the pre-release or with `metagame=none`: a card drawn at random, the top card
    of a freshly shuffled stack, since a tournament played alone has no earlier rounds. The whole game (`market.py`)
    does not call it: it shuffles each stack once a game, reveals its cards during deckbuilding as the document
    says and sets G_META itself."""
    reveal = st.options[O_METAGAME] == MG_REVEALED and st.options[O_VP_ROUND] != 0
    for m in range(MAX_META_STACKS):
        st.game[G_META + m] = -1
        # "No Metagame is revealed during this tournament" (the pre-release, vp_round 0).
        if reveal and m < meta.shape[0] and meta[m, 0] > 0:
            st.game[G_META + m] = meta[m, 1 + rng_below(st.rng, meta[m, 0])]
            log_event(st.events, st.ecount, 0, -1, EV_META, st.game[G_META + m], m, 0)


@rules_kernel
def open_tournament(g: Any, st: Any) -> None:
    """The tournament set up in `st` (`setup_tournament`, or the whole game's own set-up) begins: the seat loop from
    the first player, nothing waiting, played on to the first decision (`advance`)."""
    st.game[G_SEAT] = st.game[G_FIRST]
    st.game[G_PASSES] = 0
    st.game[G_STAGE] = STAGE_SEAT
    st.game[G_DECISION] = D_NONE
    st.game[G_ITEM] = IT_NONE
    advance(g, st, False)


@llvm_inline_kernel
def seat_step(g: Any, st: Any) -> None:
    """The seat loop's step at seat G_SEAT (STAGE_SEAT): turns go round from the first player; a player who can play
    (a single in hand and an open slot) takes a turn, one who cannot passes; when every player in a row passed, the
    tournament ends (the final scoring; STAGE_OVER)."""
    players = st.game[G_PLAYERS]
    if st.game[G_PASSES] >= players:
        st.game[G_TURN] += 1
        log_event(st.events, st.ecount, st.game[G_TURN], -1, EV_END, -1, -1, 0)
        final_scoring(g, st, st.options[O_VP_ROUND])
        st.game[G_STAGE] = STAGE_OVER
        return
    p = st.game[G_SEAT]
    if st.side[p, S_HAND] > 0 and st.side[p, S_USED] < st.side[p, S_SLOTS]:
        st.game[G_TURN] += 1
        begin_turn(g, st, p)
        return
    st.game[G_PASSES] += 1
    if st.side[p, S_PASSED] == 0:
        # Said once: the hand only shrinks, and only a slot gained in another turn makes a player able again.
        st.side[p, S_PASSED] = 1
        log_event(st.events, st.ecount, st.game[G_TURN], p, EV_PASS, -1, -1, st.side[p, S_HAND])
    st.game[G_SEAT] = (p + 1) % players


@llvm_inline_kernel
def advance(g: Any, st: Any, turn_end: EngineBool) -> None:
    """Play the rules on from where the tournament stands until a decision is open, the tournament is over, or (with
    `turn_end`) a turn has just ended (the seat loop next: a rollout counts its turns there).

    The rules stop at each decision and return: the caller (`apply`, and the play loops above the rules) asks the
    deciding seat's policy and hands its choice to `apply`, which takes it and comes back here. What waits is
    resolved first (`resolve_effects`: an interrupted effect, then the queue), then the tournament goes on by
    G_STAGE (STAGE_*)."""
    while True:
        # Most steps find nothing waiting: the call to resolve it is skipped.
        if st.game[G_DECISION] != D_NONE:
            return
        if (st.game[G_ITEM] != IT_NONE or st.game[G_QHEAD] < st.game[G_QTAIL]) and not resolve_effects(g, st):
            return
        stage = st.game[G_STAGE]
        p = st.game[G_CURRENT]
        if stage == STAGE_SEAT:
            seat_step(g, st)
        elif stage == STAGE_TURN_OVER:
            st.game[G_PASSES] = 0
            st.game[G_SEAT] = (p + 1) % st.game[G_PLAYERS]
            st.game[G_STAGE] = STAGE_SEAT
            if turn_end:
                return
        elif stage == STAGE_PLACED:
            single_placed(g, st, p, st.game[G_CONT_A], st.game[G_CONT_B])
            st.game[G_STAGE] = STAGE_TURN_OVER
            if st.game[G_ACTED] == 0:
                open_action(g, st, p, np.int64(D_ACTION_AFTER))
        elif stage == STAGE_ACTION_FLIP:
            flip_source(g, st, p, st.game[G_CONT_A])
            st.game[G_STAGE] = STAGE_ACTION_DONE
        elif stage == STAGE_ACTION_DONE:
            st.game[G_STAGE] = STAGE_TURN_OVER
            if st.game[G_CONT_B] == 1 and st.side[p, S_HAND] > 0:
                open_single(st, p)
        else:
            return


@llvm_inline_kernel
def is_over(st: Any) -> bool:
    """Whether the tournament is scored and over (STAGE_OVER)."""
    return st.game[G_STAGE] == STAGE_OVER


@rules_kernel
def record_tournament(
    st: Any,
    m: EngineInt,
    winners: Any,
    turns: Any,
    vp_a: IntArray,
    place_a: IntArray,
    rp_a: IntArray,
) -> None:
    """Tournament m of a batch is over: its counters closed and seat A's result written into the batch's columns."""
    # Every card played takes part in the clash that scores the tournament, however late it came: a round of 0 turns
    # counts every play as in time. The last turn played is game[G_TURN] - 1 (as `turns` counts it).
    end_match_counters(st.counters, st.game[G_TURN] - 1, np.int64(0))
    winners[m] = match_winner(st, st.options[O_MATCH_RESULT])
    turns[m] = st.game[G_TURN] - 1
    vp_a[m] = st.side[0, S_VP]
    place_a[m] = st.side[0, S_PLACE]
    rp_a[m] = st.side[0, S_RP]


BATCH_STORE, BATCH_VP_A, BATCH_PLACE_A, BATCH_RP_A, BATCH_META = range(BATCH_TURNS + 1, BATCH_TURNS + 6)
"""A tournament batch's own places after the play layer's (`play.loop.new_batch`): the store's cards (at most
MAX_STORE), the columns of seat A's VP, place and RP (int64), and the metagame's cards."""


@inline_kernel
def start_batch_tournament(g: Any, st: Any, batch: Any, m: EngineInt) -> None:
    """Tournament m of a batch (`play.loop.batch_loop`) set up on the record every tournament reuses: its store dealt
    from the batch's (BATCH_STORE), its counters begun, its seats (`setup_tournament`)."""
    deck_a, deck_b, seed, first, policy_a, policy_b = batch_match(batch, m)
    store = batch[BATCH_STORE]
    store_total = store.shape[0]
    # Every tournament starts from the same store order, so a tournament depends on its seed alone.
    for k in range(store_total):
        st.store[k] = store[k]
    begin_match_counters(st.counters, m)
    setup_tournament(g, st, deck_a, deck_b, seed, first, policy_a, policy_b, store_total, batch[BATCH_META])


@inline_kernel
def finish_batch_tournament(_g: Any, st: Any, batch: Any, m: EngineInt) -> None:
    """Tournament m of a batch is over: `record_tournament` into the batch's columns."""
    record_tournament(
        st, m, batch[BATCH_WINNERS], batch[BATCH_TURNS], batch[BATCH_VP_A], batch[BATCH_PLACE_A], batch[BATCH_RP_A]
    )


# =====================================================================================================================
# Decisions: any open decision listed and applied
#
# A decision is open in the state (G_DECISION, taken by seat G_ACTOR, about what G_PLACING and G_DX_* say) and the
# rules have returned: `legal_actions` lists it (each kind has its own lister, `legal_turn_actions`,
# `legal_singles`, ...), the play loop asks the deciding seat's policy (`policies.decide`) and `apply` takes the
# answer with the kind's own applier (`take`, `apply_*`), then plays the rules on to the next decision (`advance`).
# The turn's decisions come in turn order; an effect's decision (a reaction, a target, a discard) interrupts the
# effect that opened it, which goes on after it (G_ITEM), the rest of the effect queue after that.
#
# Simultaneous choices: the document has none inside a tournament turn. Turns are sequential ("Players will take
# turns in clockwise order around the table, each making a single turn"), a clash's participants react in queue
# order ("the player whose turn it is first, then clockwise"), and a discard's victim chooses its singles when the
# effect resolves; each is one seat's decision in that order.
# =====================================================================================================================


@rules_kernel
def legal_actions(g: Any, st: Any, out: IntArray) -> EngineInt:
    """The open decision's legal actions into `out` (see D_*), in a fixed order: how many (0: none is open)."""
    decision = st.game[G_DECISION]
    p = st.game[G_ACTOR]
    if decision == D_ACTION_BEFORE or decision == D_ACTION_AFTER:
        return legal_turn_actions(g, st, p, out)
    if decision == D_SINGLE:
        return legal_singles(st, p, out)
    if decision == D_SCURRY:
        return legal_scurry(st, p, out)
    if decision == D_REACTION:
        return legal_reaction(out)
    if decision == D_FLIP_OWN:
        return legal_own_flips(g, st, p, st.game[G_DX_ARG], out)
    if decision == D_FLIP_OPPONENT:
        return legal_opponent_flips(g, st, p, st.game[G_DX_ARG], st.game[G_DX_LIMIT], out)
    if decision == D_DISCARDER:
        return legal_discarders(st, p, out)
    if decision == D_GIVE_UP:
        return legal_give_up(st, p, out)
    if decision == D_CLASH_OPPONENT:
        return legal_clash_opponents(st, p, out)
    return 0


@llvm_inline_kernel
def take(
    g: Any,
    st: Any,
    action: EngineInt,
) -> None:
    """Take one action `legal_actions` listed for the open decision, and close it: what it does now (a turn's
    decision sets where the turn goes on, G_STAGE; an effect's decision does what the effect does with it), the rest
    played on by `advance`."""
    decision = st.game[G_DECISION]
    if decision == D_SINGLE:  # the most frequent first: one a turn
        apply_single(g, st, action)
    elif decision == D_ACTION_BEFORE or decision == D_ACTION_AFTER:
        apply_turn_action(g, st, action)
    elif decision == D_SCURRY:
        apply_scurry(g, st, action)
    elif decision == D_REACTION:
        apply_reaction(g, st, action)
    elif decision == D_FLIP_OWN or decision == D_FLIP_OPPONENT:
        apply_flip(g, st, action)
    elif decision == D_DISCARDER:
        apply_discarder(g, st, action)
    elif decision == D_GIVE_UP:
        apply_give_up(st, action)
    elif decision == D_CLASH_OPPONENT:
        apply_clash_opponent(g, st, action)


@llvm_inline_kernel
def apply(
    g: Any,
    st: Any,
    action: EngineInt,
) -> None:
    """The contract's `apply`: take one listed action of the open decision (`take`), then play the rules on to the
    next decision or the tournament's end (`advance`)."""
    take(g, st, action)
    advance(g, st, False)


# =====================================================================================================================
# The contract's clone and determinize
#
# A copy of a match that plays on exactly as its source, and a deal anew of what a seat cannot see. The search
# policy samples its worlds and plays its rollouts with them (search.py); they are the rules' (the contract's), so a
# policy or tool that looks ahead reads them here without the search.
# =====================================================================================================================


@rules_kernel
def sort_words(values: IntArray, base: EngineInt, number: EngineInt) -> None:
    """Sort `number` words of `values` from `base` ascending (insertion sort: hands are short, and the store is
    mostly in order already after the first rollout's sort)."""
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    j: EngineInt
    for i in range(1, number):
        value = values[base + i]
        j = i
        while j > 0 and values[base + j - 1] > value:
            values[base + j] = values[base + j - 1]
            j -= 1
        values[base + j] = value


@rules_kernel
def deal_pool(st: Any, p: EngineInt) -> None:
    """Deal `st.pool` back to the seats other than p, each its count of singles in turn order: `determinize`'s
    deal."""
    n = np.int64(0)
    for q in range(st.game[G_PLAYERS]):
        if q != p:
            for h in range(st.side[q, S_HAND]):
                st.side[q, S_CARDS + h] = st.pool[n]
                n += 1


@rules_kernel
def deal_unseen_hands(st: Any, p: EngineInt, rng: IntArray) -> None:
    """`determinize`'s first deal: the other seats' hands, one pool of unseen singles (how many each holds is seen),
    sorted, then shuffled and dealt back, each seat its count."""
    n = np.int64(0)  # not the constant 0, which would compile the calls below twice
    for q in range(st.game[G_PLAYERS]):
        if q != p:
            for h in range(st.side[q, S_HAND]):
                st.pool[n] = st.side[q, S_CARDS + h]
                n += 1
    sort_words(st.pool, np.int64(0), n)
    shuffle_in_place(st.pool, n, rng)
    deal_pool(st, p)


@rules_kernel
def determinize(g: Any, st: Any, p: EngineInt, rng: IntArray) -> None:
    """What seat p cannot see, dealt anew from what it can know, drawing from the xorshift generator `rng` (4 words;
    the search passes its world record's own, seeded per world). The contract's `determinize(G, S, seat, rng)`: the
    game data `g` is taken as `legal_actions` takes it, though no deal reads it.

    The other seats' hands are one pool of unseen singles (how many each holds is seen): the pool (`st.pool`) is
    sorted, then shuffled and dealt back, each seat its count (`deal_unseen_hands`). The undrawn store
    (`st.store[:left]`) is sorted and shuffled too. Sorting first means the deal depends on which cards are unseen
    and on the generator, never on where they lie. Deck boxes, accessories, tableaus, the aftermarket and the
    metagame are face-up and stay; so does the state's own generator. (The search deals its worlds the same way with
    the store sorted once a decision: `search.rollout_world`.)"""
    deal_unseen_hands(st, p, rng)
    left = st.game[G_STORE_LEFT]
    sort_words(st.store, np.int64(0), left)
    shuffle_in_place(st.store, left, rng)


@inline_kernel
def copy_match_words(st: Any, into: Any) -> None:
    """What `clone` and `clone_in_play` copy beside the seats: the match fields, the effect queue's waiting rows, the
    open decision's list, the generator, the store's cards in use (game[G_STORE_TOTAL]) and the rule options."""
    for k in range(GAME_WIDTH):
        into.game[k] = st.game[k]
    # The queue's waiting rows only, head to tail round the ring: between turns (a rollout's clone) there are none.
    for r in range(st.game[G_QHEAD], st.game[G_QTAIL]):
        i = r % QUEUE_SIZE
        for f in range(QUEUE_WIDTH):
            into.queue[i, f] = st.queue[i, f]
    # The open decision's list (G_LISTED rows), which its policy reads.
    for k in range(st.game[G_LISTED]):
        into.actions[k] = st.actions[k]
    for k in range(4):
        into.rng[k] = st.rng[k]
    for k in range(st.game[G_STORE_TOTAL]):
        into.store[k] = st.store[k]
    for k in range(len(OPTION_ORDER)):
        into.options[k] = st.options[k]


@rules_kernel
def clone(st: Any, into: Any) -> None:
    """The contract's clone: the match of record `st` into record `into`, which then plays on exactly as `st` would:
    tableaus, areas, seats, match fields, the effect queue's waiting rows, the generator, the store's cards in use
    (game[G_STORE_TOTAL]) and the rule options. Left as `into`'s own, since no rule reads them: the trace and its
    length (`events`, `ecount`), the counters, the search's words, `determinize`'s scratch (`pool`) and the two action
    lists (each listing writes its list before anything reads it)."""
    # Element loops: the kernels run without Numba's reference-counted runtime, which slice assignment needs.
    for p in range(MAX_PLAYERS):
        for s in range(TAB_SLOTS):
            for f in range(TAB_WIDTH):
                into.tab[p, s, f] = st.tab[p, s, f]
        for a in range(3):
            for f in range(2):
                into.area[p, a, f] = st.area[p, a, f]
        for f in range(SIDE_WIDTH):
            into.side[p, f] = st.side[p, f]
    copy_match_words(st, into)


@rules_kernel
def clone_in_play(st: Any, into: Any) -> None:
    """`clone` of what the rules read, for a record that receives nothing but clones of states of one batch (the
    search's world and rollout records): as `clone`, but of the seats in play (game[G_PLAYERS]) only, and of each
    the tableau slots in use (side[p, S_USED]) and the hand's singles (side[p, S_HAND]). What it leaves of `into` the
    rules never read before writing it: every seat loop stops at G_PLAYERS, a slot is written whole when a card is
    placed in it (`place_single`), and a hand only shrinks after setup. With two players about a third of `clone`'s
    words, and a rollout starts with one (a sampled world too)."""
    players = st.game[G_PLAYERS]
    for p in range(players):
        for s in range(st.side[p, S_USED]):
            for f in range(TAB_WIDTH):
                into.tab[p, s, f] = st.tab[p, s, f]
        for a in range(3):
            for f in range(2):
                into.area[p, a, f] = st.area[p, a, f]
        for f in range(S_CARDS + st.side[p, S_HAND]):
            into.side[p, f] = st.side[p, f]
    copy_match_words(st, into)
