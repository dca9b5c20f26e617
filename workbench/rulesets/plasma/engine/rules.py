"""The plasma rules: reading and changing the board, effects, playing cards and abilities, Instants, combat, turns
and matches, and the rules' interface: the contract's four functions, `legal_actions(table, st, out) -> n`,
`apply(table, st, action)`, `clone(st, into)` and `determinize(table, st, p, seed)` (the game data is the pairing's
card table, `python_side.pairing`; the match state one record with its counters and, TRACED_STATE_DTYPE, its trace
inside: `trace`), and `advance`, which plays the match on from where it stands until a decision is open and returns.

Of the package, imports only `layout`: no rule reads which policy a side plays, and no rule asks one. The rules stop
at each decision (engine 6); who chooses, and how, is the play layer's (`workbench.play.loop`, `greedy.decide`).

Most kernels are copied into their callers by LLVM (`llvm_inline_kernel`): typed and optimised once. Numba compiles
each such kernel on its own as well, with every kernel it calls linked in, so a small body over a deep call tree
(an Instant window's step, `apply_instant`; the taking of an action, `take`) is copied in by Numba instead
(`inline_kernel`), and the tree below it is compiled only in the kernels that call it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import from_dtype
from numba.core import types
from numba.core.extending import intrinsic, overload

from workbench.engines import (
    ATTACKED,
    DAMAGE_DEALT,
    DESTROYED,
    EngineBool,
    EngineInt,
    IntArray,
    count_draw,
    count_play,
    inline_kernel,
    llvm_inline_kernel,
    log_event,
    no_nrt_options,
    rng_seed,
    rules_kernel,
    shuffle_in_place,
)
from workbench.play.policies import POLICY_WORDS, start_policy
from workbench.rulesets.plasma.engine.layout import (
    ABILITY,
    ACTIVATE,
    ATTACK_STEPS,
    B_ACTIVATED,
    B_CARD,
    B_DAMAGE,
    B_EQ_POWER,
    B_EQ_RESOLVE,
    B_HELD,
    B_POWER,
    B_RESOLVE,
    B_SICK,
    B_TAPPED,
    B_TMP_POWER,
    B_TMP_RESOLVE,
    B_UID,
    BOARD_WIDTH,
    COIN,
    D_ATTACKER,
    D_BLOCK,
    D_ENEMY_TARGET,
    D_EQUIP_TARGET,
    D_INSTANT,
    D_MULLIGAN,
    D_NONE,
    D_OWN_TARGET,
    D_PLAY,
    D_TARGET,
    DIRECT,
    EV_ACTIVATE,
    EV_ATTACK_CREATURE,
    EV_ATTACK_DIRECT,
    EV_ATTACK_ENDS,
    EV_BATTLEFIELD_REPLACED,
    EV_BLOCK,
    EV_COIN,
    EV_DAMAGE,
    EV_DECK_EMPTY,
    EV_DESTROYED,
    EV_DRAW,
    EV_EQUIP,
    EV_HEAL,
    EV_HIT,
    EV_LIFE,
    EV_MULLIGAN,
    EV_NO_BLOCK,
    EV_PLASMA,
    EV_PLAY,
    EV_POWER,
    EV_RESOLVE,
    EV_TRIGGER,
    EV_TURN,
    EV_TURN_CAP,
    G_ACTOR,
    G_ASIDE,
    G_ATTACKER,
    G_ATTACKER_CARD,
    G_ATTACKER_UID,
    G_ATTACKING,
    G_BONUS,
    G_DECISION,
    G_DEFENDER,
    G_DEFENDER_UID,
    G_FX_CARD,
    G_FX_CLAUSE,
    G_FX_ENEMY,
    G_FX_MODE,
    G_FX_OWN,
    G_FX_PLAYER,
    G_NEXT_UID,
    G_OVER,
    G_PENDING,
    G_PLAYER,
    G_STAGE,
    G_STEPS,
    G_TURN,
    G_UNCHECKED,
    G_WINDOW,
    G_WINNER,
    GAME_WIDTH,
    HOLD,
    K_BATTLEFIELD,
    K_CREATURE,
    K_EQUIPMENT,
    K_INSTANT,
    KEEP,
    MAX_DECK,
    MODE_ACTIVATE,
    MODE_EQUIP,
    MODE_PLAY,
    MODE_TRIGGER,
    MULLIGANS_MAX,
    NO_BLOCK,
    NO_COUNT,
    NO_INSTANT,
    NO_STAGE,
    O_ACTIVATION_SICKNESS,
    O_ACTIVATIONS,
    O_ATTACK_TAPPED,
    O_BATTLEFIELD_EACH_TURN,
    O_BONUS_END_DESTROYS,
    O_DAMAGE_WEARS_OFF,
    O_DECK_OUT_LOSES,
    O_HEAL_CAP,
    O_INSTANTS_ANY_TIME,
    O_INSTANTS_BEFORE_DAMAGE,
    O_MORE_THAN,
    O_REPLACE_BATTLEFIELD,
    O_SICKNESS,
    O_TURN_CAP,
    O_UNTAP_EVERY_TURN,
    OP_DAMAGE,
    OP_DAMAGE_PLAYER,
    OP_DESTROY,
    OP_DRAW,
    OP_HEAL,
    OP_PLASMA,
    OP_POWER,
    OP_RESOLVE,
    OPENING_HAND,
    OPTION_ORDER,
    PASS,
    PLAY_STEPS,
    S_BATTLEFIELD,
    S_BOARD,
    S_CHEAPEST,
    S_COIN,
    S_DECK,
    S_DRAWN,
    S_FIELD_ABILITIES,
    S_HAND,
    S_HAND_INSTANT,
    S_LIFE,
    S_PLASMA,
    S_POLICY,
    S_TURNS,
    SEARCH_SEED,
    SIDE_WIDTH,
    STAGE_BATTLE,
    STAGE_CLOSE,
    STAGE_DEAL_FIRST,
    STAGE_DEAL_SECOND,
    STAGE_END,
    STAGE_OVER,
    STAGE_PLAY,
    STAGE_START_WINDOW,
    STAGE_TURN,
    STARTING_HEALTHSHARDS,
    STATE_DTYPE,
    STOP,
    T_CLAUSE0,
    T_CLAUSES,
    T_COST,
    T_HAS_ABILITY,
    T_INSTANT_COST,
    T_KIND,
    T_POWER,
    T_RESOLVE,
    T_TOTAL,
    TRACED_STATE_DTYPE,
    WINDOW_ATTACK,
    WINDOW_DEFEND,
    WINDOW_DONE,
    WINDOW_END,
    WINDOW_PLAY,
    WINDOW_START,
)

# ---------------------------------------------------------------------------------------------------------------------
# The trace, in the state record when there is one


def trace(
    st: Any, turn: EngineInt, player: EngineInt, code: EngineInt, card: EngineInt, other: EngineInt, amount: EngineInt
) -> None:
    """Log one event row into st's trace (`log_event`) when st is a TRACED_STATE_DTYPE record; nothing when it is a
    STATE_DTYPE one (no `events` field). Uncompiled, this function; compiled, `_compiled_trace`."""
    if "events" in st.dtype.names:
        log_event(st.events, st.ecount, turn, player, code, card, other, amount)


@overload(trace, jit_options=no_nrt_options(), strict=False)
def _compiled_trace(st: Any, turn: Any, player: Any, code: Any, card: Any, other: Any, amount: Any) -> Any:
    """`trace` for Numba: chosen by the record type of `st` when compiling, not tested per call, so an untraced
    batch's kernels are a specialisation of their own with every trace call gone (as `workbench.engines.trace_event`
    does for an events buffer that is None)."""
    if isinstance(st, types.Record) and "events" in st.fields:
        return lambda st, turn, player, code, card, other, amount: log_event(
            st.events, st.ecount, turn, player, code, card, other, amount
        )
    return lambda st, turn, player, code, card, other, amount: None


def _offsets(dtype: Any) -> dict[str, int]:
    """Each field's byte offset in a record of `dtype`."""
    return {name: int(dtype.fields[name][1]) for name in dtype.names}


UNTRACED_AT = TRACED_STATE_DTYPE.itemsize - STATE_DTYPE.itemsize
"""Where STATE_DTYPE's fields begin in a TRACED_STATE_DTYPE record: after the trace, in the same order and at the same
distances from one another (checked below), so the traced record from there on is an untraced one."""
assert all(
    _offsets(TRACED_STATE_DTYPE)[name] == UNTRACED_AT + offset for name, offset in _offsets(STATE_DTYPE).items()
), "TRACED_STATE_DTYPE must be the trace, then STATE_DTYPE's fields as they are laid out there"


def untraced(st: Any) -> Any:
    """st as an untraced record (STATE_DTYPE): what `decide` hands the policies (`choose_*`) and the search hands
    greedy. Those never trace nor count, so the compiled policies are one copy for batches and traces alike (as
    when the trace travelled beside the record), not a second one for the traced record type: about 10 s less of
    cold compile. Uncompiled, st itself (every field a policy reads is in it); compiled, `_compiled_untraced`."""
    return st


@intrinsic
def _untraced_record(typingctx: Any, st: Any) -> Any:
    """The STATE_DTYPE record that begins UNTRACED_AT bytes into a TRACED_STATE_DTYPE record (a pointer moved and
    retyped: nothing is copied, and the policies' writes, random's words and greedy's held attackers, land in st)."""
    target = from_dtype(STATE_DTYPE)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        byte = context.get_value_type(types.int8).as_pointer()
        moved = builder.gep(builder.bitcast(args[0], byte), [context.get_constant(types.intp, UNTRACED_AT)])
        return builder.bitcast(moved, context.get_value_type(target))

    return target(st), codegen


@overload(untraced, jit_options=no_nrt_options(), strict=False)
def _compiled_untraced(st: Any) -> Any:
    """`untraced` for Numba: st itself when it is untraced, the record within it (`_untraced_record`) when traced."""
    if isinstance(st, types.Record) and "events" in st.fields:
        # Numba's stubs type an intrinsic's call with its definition's (typing context, value) parameters.
        return lambda st: _untraced_record(st)  # type: ignore[call-arg]
    return lambda st: st


# =====================================================================================================================
# Reading the board
# =====================================================================================================================


@llvm_inline_kernel
def refresh_stats(table: IntArray, st: Any, p: EngineInt, i: EngineInt) -> None:
    """Recompute the effective power and resolve of p's creature in slot i: printed + equipment + this turn +
    battlefield. Called wherever one of those changes, so reading them is one load."""
    card = st.board[p, i, B_CARD]
    power = table[card, T_POWER] + st.board[p, i, B_EQ_POWER] + st.board[p, i, B_TMP_POWER]
    resolve = table[card, T_RESOLVE] + st.board[p, i, B_EQ_RESOLVE] + st.board[p, i, B_TMP_RESOLVE]
    field = st.side[p, S_BATTLEFIELD]
    if field >= 0:
        power += table[field, T_TOTAL + OP_POWER]
        resolve += table[field, T_TOTAL + OP_RESOLVE]
    st.board[p, i, B_POWER] = power
    st.board[p, i, B_RESOLVE] = resolve


@llvm_inline_kernel
def refresh_side(table: IntArray, st: Any, p: EngineInt) -> None:
    """Recompute every creature of p (after a battlefield change or when this turn's bonuses end)."""
    for i in range(st.side[p, S_BOARD]):
        refresh_stats(table, st, p, i)


@llvm_inline_kernel
def creature_power(table: IntArray, st: Any, p: EngineInt, i: EngineInt) -> int:
    """Power of p's creature in slot i: printed + equipment + this turn + battlefield."""
    return st.board[p, i, B_POWER]


@llvm_inline_kernel
def creature_resolve(table: IntArray, st: Any, p: EngineInt, i: EngineInt) -> int:
    """Resolve of p's creature in slot i: printed + equipment + this turn + battlefield."""
    return st.board[p, i, B_RESOLVE]


@llvm_inline_kernel
def damage_to_destroy(table: IntArray, st: Any, p: EngineInt, i: EngineInt) -> int:
    """How much more damage destroys p's creature in slot i (0 or less: it is already destroyed)."""
    left = creature_resolve(table, st, p, i) - st.board[p, i, B_DAMAGE]
    if st.options[O_MORE_THAN] == 1:
        left += 1
    return left


@llvm_inline_kernel
def find_uid(st: Any, p: EngineInt, uid: EngineInt) -> int:
    """The slot of p's creature with this uid, or -1 when it has left the field."""
    if uid < 0:
        return -1
    for i in range(st.side[p, S_BOARD]):
        if st.board[p, i, B_UID] == uid:
            return i
    return -1


@llvm_inline_kernel
def find_uid_from(st: Any, p: EngineInt, uid: EngineInt, slot: EngineInt) -> EngineInt:
    """`find_uid`, looking first in the slot the creature was in: uids are unique, so a match there is the answer
    (the usual case: no Instant moved anything since), and the field is read only when it is not."""
    if uid >= 0 and slot >= 0 and slot < st.side[p, S_BOARD] and st.board[p, slot, B_UID] == uid:
        return slot
    return find_uid(st, p, uid)


@llvm_inline_kernel
def can_attack(st: Any, p: EngineInt, i: EngineInt) -> bool:
    """Untapped, not held back this battle phase, and (with summoning sickness) not played this turn."""
    if st.board[p, i, B_TAPPED] == 1 or st.board[p, i, B_HELD] == 1:
        return False
    return not (st.options[O_SICKNESS] == 1 and st.board[p, i, B_SICK] == 1)


@llvm_inline_kernel
def can_be_attacked(st: Any, q: EngineInt, i: EngineInt) -> bool:
    """Any enemy creature may be chosen, or only untapped ones when `attack_tapped_creatures` is off."""
    return st.options[O_ATTACK_TAPPED] == 1 or st.board[q, i, B_TAPPED] == 0


# =====================================================================================================================
# Changing the board
# =====================================================================================================================


@llvm_inline_kernel
def end_match(st: Any, winner: EngineInt) -> None:
    """The first result sticks: later damage in the same step cannot change it."""
    if st.game[G_OVER] == 0:
        st.game[G_OVER] = 1
        st.game[G_WINNER] = winner


@llvm_inline_kernel
def remove_creature(table: IntArray, st: Any, p: EngineInt, i: EngineInt) -> None:
    """Take slot i off p's field, keeping the order of the others (equipment under it goes with it)."""
    st.side[p, S_FIELD_ABILITIES] -= table[st.board[p, i, B_CARD], T_HAS_ABILITY]
    n = st.side[p, S_BOARD]
    for j in range(i, n - 1):
        for f in range(BOARD_WIDTH):
            st.board[p, j, f] = st.board[p, j + 1, f]
    st.side[p, S_BOARD] = n - 1


@llvm_inline_kernel
def destroy_creature(table: IntArray, st: Any, p: EngineInt, i: EngineInt, source: EngineInt) -> None:
    """Destroy p's creature in slot i (`source` is the card that destroyed it outright, or -1)."""
    card = st.board[p, i, B_CARD]
    st.counters[p, card, DESTROYED] += 1
    trace(st, st.game[G_TURN], p, EV_DESTROYED, card, source, 0)
    remove_creature(table, st, p, i)


@llvm_inline_kernel
def remove_the_dead(table: IntArray, st: Any) -> None:
    """Destroy every creature whose damage has reached its resolve (checked after damage and when bonuses end)."""
    for p in range(2):
        i = np.int64(0)  # not `0`: a literal would type the kernels below a second time
        while i < st.side[p, S_BOARD]:
            if damage_to_destroy(table, st, p, i) <= 0:
                destroy_creature(table, st, p, i, np.int64(-1))
            else:
                i += 1
    st.game[G_UNCHECKED] = 0


@llvm_inline_kernel
def remove_if_destroyed(table: IntArray, st: Any, p: EngineInt, i: EngineInt, q: EngineInt, j: EngineInt) -> None:
    """`remove_the_dead` after damage to p's creature in slot i and q's in slot j (q != p; j = -1 when only one
    creature took damage): only those can have been destroyed, since every other creature was checked when it last
    took damage or lost resolve (G_UNCHECKED says when one may have entered the field destroyed)."""
    if st.game[G_UNCHECKED] == 1:
        remove_the_dead(table, st)
        return
    if p == 1 and j >= 0:
        # `remove_the_dead` destroys player 0's creatures first; the trace keeps that order.
        p, i, q, j = q, j, p, i
    if damage_to_destroy(table, st, p, i) <= 0:
        destroy_creature(table, st, p, i, np.int64(-1))
    if j >= 0 and damage_to_destroy(table, st, q, j) <= 0:
        destroy_creature(table, st, q, j, np.int64(-1))


@llvm_inline_kernel
def hit_player(st: Any, owner: EngineInt, source: EngineInt, amount: EngineInt) -> None:
    """`owner`'s card `source` deals `amount` to the opponent's Healthshards."""
    target = 1 - owner
    st.side[target, S_LIFE] -= amount
    st.counters[owner, source, DAMAGE_DEALT] += amount
    trace(st, st.game[G_TURN], owner, EV_HIT, source, st.side[target, S_LIFE], amount)
    if st.side[target, S_LIFE] <= 0:
        end_match(st, owner)


@llvm_inline_kernel
def damage_creature(
    st: Any, owner: EngineInt, source: EngineInt, q: EngineInt, i: EngineInt, amount: EngineInt
) -> None:
    """`owner`'s card `source` puts `amount` damage on q's creature in slot i (destruction is checked after)."""
    st.board[q, i, B_DAMAGE] += amount
    st.counters[owner, source, DAMAGE_DEALT] += amount
    trace(st, st.game[G_TURN], owner, EV_DAMAGE, source, st.board[q, i, B_CARD], amount)


@llvm_inline_kernel
def heal_player(st: Any, p: EngineInt, source: EngineInt, amount: EngineInt) -> None:
    """p gains Healthshards, up to `healthshards_cap` (0: no cap)."""
    life = st.side[p, S_LIFE] + amount
    cap = st.options[O_HEAL_CAP]
    if cap > 0 and life > cap:
        life = max(cap, st.side[p, S_LIFE])
    gained = life - st.side[p, S_LIFE]
    st.side[p, S_LIFE] = life
    trace(st, st.game[G_TURN], p, EV_HEAL, source, life, gained)


@llvm_inline_kernel
def draw_card(table: IntArray, st: Any, p: EngineInt) -> None:
    """p draws the top card; from an empty deck p draws nothing (or loses, with `deck_out_loses`)."""
    if st.side[p, S_DRAWN] >= st.side[p, S_DECK]:
        trace(st, st.game[G_TURN], p, EV_DECK_EMPTY, -1, -1, 0)
        if st.options[O_DECK_OUT_LOSES] == 1:
            end_match(st, 1 - p)
        return
    card = st.library[p, st.side[p, S_DRAWN]]
    st.side[p, S_DRAWN] += 1
    st.hand[p, st.side[p, S_HAND]] = card
    st.side[p, S_HAND] += 1
    st.side[p, S_HAND_INSTANT] = min(st.side[p, S_HAND_INSTANT], table[card, T_INSTANT_COST])
    count_draw(st.counters, p, card)
    trace(st, st.game[G_TURN], p, EV_DRAW, card, -1, 0)


@llvm_inline_kernel
def count_hand_instants(table: IntArray, st: Any, p: EngineInt) -> None:
    """S_HAND_INSTANT read afresh from p's hand (after a hand is dealt or an Instant leaves it)."""
    cheapest = NO_INSTANT
    for h in range(st.side[p, S_HAND]):
        cheapest = min(cheapest, table[st.hand[p, h], T_INSTANT_COST])
    st.side[p, S_HAND_INSTANT] = cheapest


@llvm_inline_kernel
def remove_from_hand(table: IntArray, st: Any, p: EngineInt, h: EngineInt) -> int:
    """Take hand position h out of p's hand (order kept); returns the card."""
    card = st.hand[p, h]
    n = st.side[p, S_HAND]
    for j in range(h, n - 1):
        st.hand[p, j] = st.hand[p, j + 1]
    st.side[p, S_HAND] = n - 1
    cost = table[card, T_INSTANT_COST]
    # Not an Instant: NO_INSTANT, which S_HAND_INSTANT also holds while the hand has no Instant (nothing to read).
    if cost == st.side[p, S_HAND_INSTANT] and cost != NO_INSTANT:
        # The cheapest Instant may have left (rare: an Instant played or set aside).
        count_hand_instants(table, st, p)
    return card


@llvm_inline_kernel
def enter_field(table: IntArray, st: Any, p: EngineInt, card: EngineInt) -> int:
    """Put a creature on p's field, untapped and (for summoning sickness) just played; returns its uid."""
    i = st.side[p, S_BOARD]
    for f in range(BOARD_WIDTH):
        st.board[p, i, f] = 0
    st.board[p, i, B_CARD] = card
    st.board[p, i, B_UID] = st.game[G_NEXT_UID]
    st.board[p, i, B_SICK] = 1
    st.game[G_NEXT_UID] += 1
    st.side[p, S_BOARD] = i + 1
    st.side[p, S_FIELD_ABILITIES] += table[card, T_HAS_ABILITY]
    refresh_stats(table, st, p, i)
    if damage_to_destroy(table, st, p, i) <= 0:
        st.game[G_UNCHECKED] = 1
    return st.board[p, i, B_UID]


# =====================================================================================================================
# Effects
# =====================================================================================================================


@llvm_inline_kernel
def leave_target_open(
    st: Any,
    pending: EngineInt,
    p: EngineInt,
    card: EngineInt,
    mode: EngineInt,
    own_uid: EngineInt,
    enemy_uid: EngineInt,
    clause: EngineInt,
) -> None:
    """p's card waits for a target (G_PENDING = `pending`): what its effects need to go on is kept in G_FX_*."""
    st.game[G_PENDING] = pending
    st.game[G_FX_PLAYER] = p
    st.game[G_FX_CARD] = card
    st.game[G_FX_MODE] = mode
    st.game[G_FX_OWN] = own_uid
    st.game[G_FX_ENEMY] = enemy_uid
    st.game[G_FX_CLAUSE] = clause


@llvm_inline_kernel
def clause_on(
    table: IntArray,
    st: Any,
    p: EngineInt,
    card: EngineInt,
    mode: EngineInt,
    op: EngineInt,
    amount: EngineInt,
    slot: EngineInt,
) -> None:
    """p's card's clause `op amount` on its target: the enemy creature in `slot` (damage, destroy) or p's own
    (power, resolve: this turn, or for as long as it lives with MODE_EQUIP)."""
    q = 1 - p
    if op == OP_DAMAGE:
        damage_creature(st, p, card, q, slot, amount)
        remove_if_destroyed(table, st, q, slot, p, np.int64(-1))
    elif op == OP_DESTROY:
        destroy_creature(table, st, q, slot, card)
    else:
        if mode != MODE_EQUIP:
            st.game[G_BONUS] = 1
        if op == OP_POWER:
            st.board[p, slot, B_EQ_POWER if mode == MODE_EQUIP else B_TMP_POWER] += amount
            refresh_stats(table, st, p, slot)
            trace(st, st.game[G_TURN], p, EV_POWER, card, st.board[p, slot, B_CARD], amount)
        else:
            st.board[p, slot, B_EQ_RESOLVE if mode == MODE_EQUIP else B_TMP_RESOLVE] += amount
            refresh_stats(table, st, p, slot)
            trace(st, st.game[G_TURN], p, EV_RESOLVE, card, st.board[p, slot, B_CARD], amount)


@rules_kernel
def apply_effects(
    table: IntArray,
    st: Any,
    p: EngineInt,
    card: EngineInt,
    mode: EngineInt,
    own_uid: EngineInt,
    enemy_uid: EngineInt,
    first: EngineInt,
) -> None:
    """Run p's card's clauses in order, from clause `first`.

    MODE_PLAY (events, instants, creatures): bonuses go to `own_uid` (or a chosen creature) for this turn.
    MODE_EQUIP: bonuses go to the equipped creature `own_uid` for as long as it lives; other clauses happen once.
    MODE_TRIGGER (battlefields): bonuses are read from the battlefield itself, so only the other clauses happen.
    MODE_ACTIVATE (a creature's activated ability): the ability's clauses; bonuses go to the creature `own_uid`
    itself, this turn.
    Damage and destroy clauses hit `enemy_uid` when it is still on the field. Otherwise the target is p's choice:
    the clauses stop there with the target left open (G_PENDING: D_ENEMY_TARGET, or D_OWN_TARGET for a MODE_PLAY
    bonus), and `apply_effect_target` goes on from that clause once it is chosen. A clause with no creature to
    target is left out.
    """
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    slot: EngineInt
    q = 1 - p
    blk = ABILITY if mode == MODE_ACTIVATE else 0
    for c in range(first, table[card, blk + T_CLAUSES]):
        if st.game[G_OVER] == 1:
            return
        op = table[card, blk + T_CLAUSE0 + 2 * c]
        amount = table[card, blk + T_CLAUSE0 + 2 * c + 1]
        if op == OP_DAMAGE or op == OP_DESTROY or op == OP_POWER or op == OP_RESOLVE:
            enemy = op == OP_DAMAGE or op == OP_DESTROY
            if not enemy and mode == MODE_TRIGGER:
                continue
            side = q if enemy else p
            slot = find_uid(st, side, enemy_uid if enemy else own_uid)
            if slot < 0:
                if (enemy or mode == MODE_PLAY) and st.side[side, S_BOARD] > 0:
                    pending = D_ENEMY_TARGET if enemy else D_OWN_TARGET
                    leave_target_open(st, np.int64(pending), p, card, mode, own_uid, enemy_uid, c)
                    return
                continue
            # One call site: each inlined copy of a clause's work adds to the cold compile.
            clause_on(table, st, p, card, mode, op, amount, slot)
        elif op == OP_DAMAGE_PLAYER:
            hit_player(st, p, card, amount)
        elif op == OP_HEAL:
            heal_player(st, p, card, amount)
        elif op == OP_DRAW:
            for _ in range(amount):
                draw_card(table, st, p)
        elif op == OP_PLASMA:
            st.side[p, S_PLASMA] += amount
            trace(st, st.game[G_TURN], p, EV_PLASMA, card, st.side[p, S_PLASMA], amount)


@llvm_inline_kernel
def legal_effect_targets(st: Any, out: IntArray) -> int:
    """The open target's legal actions into `out` (how many): the field slot of each enemy creature
    (D_ENEMY_TARGET) or of each of the player's own (D_OWN_TARGET, D_EQUIP_TARGET), in field order."""
    p = st.game[G_FX_PLAYER]
    side = 1 - p if st.game[G_PENDING] == D_ENEMY_TARGET else p
    n = st.side[side, S_BOARD]
    for i in range(n):
        out[i] = i
    return n


@rules_kernel
def apply_effect_target(table: IntArray, st: Any, slot: EngineInt) -> None:
    """The open target is the creature in field `slot`: the waiting clause takes it and the card's effects go on
    (an equipment goes under it, then its effects run). Once they are done, an Instant's window goes on, and a card
    or ability of a play phase has gone in effect: the opponent's window after it opens (`open_window`)."""
    pending = st.game[G_PENDING]
    p = st.game[G_FX_PLAYER]
    card = st.game[G_FX_CARD]
    mode = st.game[G_FX_MODE]
    enemy_uid = st.game[G_FX_ENEMY]
    st.game[G_PENDING] = D_NONE
    if pending == D_EQUIP_TARGET:
        trace(st, st.game[G_TURN], p, EV_EQUIP, card, st.board[p, slot, B_CARD], 0)
        if table[card, T_CLAUSES] > 0:
            apply_effects(
                table,
                st,
                p,
                card,
                np.int64(MODE_EQUIP),
                np.int64(st.board[p, slot, B_UID]),
                np.int64(enemy_uid),
                np.int64(0),
            )
    else:
        clause = st.game[G_FX_CLAUSE]
        blk = ABILITY if mode == MODE_ACTIVATE else 0
        op = table[card, blk + T_CLAUSE0 + 2 * clause]
        amount = table[card, blk + T_CLAUSE0 + 2 * clause + 1]
        clause_on(table, st, p, card, mode, op, amount, slot)
        apply_effects(
            table, st, p, card, np.int64(mode), np.int64(st.game[G_FX_OWN]), np.int64(enemy_uid), np.int64(clause + 1)
        )
    if st.game[G_PENDING] == D_NONE:
        if st.game[G_DECISION] == D_INSTANT:
            instant_done(table, st)
        elif st.game[G_DECISION] == D_PLAY:
            open_window(table, st, 1 - st.game[G_ACTOR], np.int64(WINDOW_PLAY))


# =====================================================================================================================
# Playing cards
# =====================================================================================================================


@llvm_inline_kernel
def can_play(table: IntArray, st: Any, p: EngineInt, h: EngineInt) -> bool:
    """p can pay for hand card h, and it has somewhere to go (equipment needs a creature; one battlefield)."""
    card = st.hand[p, h]
    if table[card, T_COST] > st.side[p, S_PLASMA]:
        return False
    kind = table[card, T_KIND]
    if kind == K_EQUIPMENT:
        return st.side[p, S_BOARD] > 0
    if kind == K_BATTLEFIELD:
        return st.side[p, S_BATTLEFIELD] < 0 or st.options[O_REPLACE_BATTLEFIELD] == 1
    return True


@llvm_inline_kernel
def play_card(table: IntArray, st: Any, p: EngineInt, h: EngineInt, own_uid: EngineInt, enemy_uid: EngineInt) -> None:
    """p pays for and plays hand card h (legality is the caller's: see `can_play`).

    `own_uid` is the creature an equipment goes under (or a bonus's target), `enemy_uid` a damage target; when
    either is not on the field, the choice is p's (a target left open: G_PENDING, see `apply_effects`).
    """
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    slot: EngineInt
    card = remove_from_hand(table, st, p, h)
    cost = table[card, T_COST]
    st.side[p, S_PLASMA] -= cost
    count_play(st.counters, p, card, st.game[G_TURN])
    trace(st, st.game[G_TURN], p, EV_PLAY, card, st.side[p, S_PLASMA], cost)
    kind = table[card, T_KIND]
    mode = MODE_PLAY
    if kind == K_CREATURE:
        enter_field(table, st, p, card)
    elif kind == K_EQUIPMENT:
        slot = find_uid(st, p, own_uid)
        if slot < 0:
            if st.side[p, S_BOARD] > 0:
                # Which creature it goes under is p's decision.
                leave_target_open(
                    st, np.int64(D_EQUIP_TARGET), p, card, np.int64(MODE_EQUIP), own_uid, enemy_uid, np.int64(-1)
                )
            return
        trace(st, st.game[G_TURN], p, EV_EQUIP, card, st.board[p, slot, B_CARD], 0)
        mode = MODE_EQUIP
        own_uid = st.board[p, slot, B_UID]
    elif kind == K_BATTLEFIELD:
        old = st.side[p, S_BATTLEFIELD]
        if old >= 0:
            trace(st, st.game[G_TURN], p, EV_BATTLEFIELD_REPLACED, card, old, 0)
        st.side[p, S_BATTLEFIELD] = card
        refresh_side(table, st, p)
        # Replacing a battlefield can take away resolve, and with it creatures.
        remove_the_dead(table, st)
        if st.options[O_BATTLEFIELD_EACH_TURN] == 1:
            return
        mode = MODE_TRIGGER
    if table[card, T_CLAUSES] > 0:
        apply_effects(table, st, p, card, np.int64(mode), np.int64(own_uid), np.int64(enemy_uid), np.int64(0))


@llvm_inline_kernel
def can_activate(table: IntArray, st: Any, p: EngineInt, i: EngineInt) -> bool:
    """p's creature in slot i has an activated ability p can pay for, used fewer than `activations_per_turn` times
    this turn (and, with `activation_sickness`, was not played this turn)."""
    card = st.board[p, i, B_CARD]
    if table[card, T_HAS_ABILITY] == 0 or table[card, ABILITY + T_COST] > st.side[p, S_PLASMA]:
        return False
    if st.board[p, i, B_ACTIVATED] >= st.options[O_ACTIVATIONS]:
        return False
    return not (st.options[O_ACTIVATION_SICKNESS] == 1 and st.board[p, i, B_SICK] == 1)


@rules_kernel
def activate(table: IntArray, st: Any, p: EngineInt, i: EngineInt) -> None:
    """p pays for and activates the ability of its creature in slot i (legality is the caller's: `can_activate`)."""
    card = st.board[p, i, B_CARD]
    cost = table[card, ABILITY + T_COST]
    st.side[p, S_PLASMA] -= cost
    st.board[p, i, B_ACTIVATED] += 1
    trace(st, st.game[G_TURN], p, EV_ACTIVATE, card, st.side[p, S_PLASMA], cost)
    apply_effects(
        table, st, p, card, np.int64(MODE_ACTIVATE), np.int64(st.board[p, i, B_UID]), np.int64(-1), np.int64(0)
    )


@llvm_inline_kernel
def flip_coin(st: Any, p: EngineInt) -> None:
    """Once per game, the second player's coin: +1 plasma this turn."""
    st.side[p, S_COIN] = 0
    st.side[p, S_PLASMA] += 1
    trace(st, st.game[G_TURN], p, EV_COIN, -1, -1, st.side[p, S_PLASMA])


@llvm_inline_kernel
def playable_card(
    table: IntArray, card: EngineInt, plasma: EngineInt, has_creature: EngineBool, room_for_field: EngineBool
) -> bool:
    """`can_play`'s test for a hand card, with p's plasma and board read once by the caller: `legal_plays` lists by
    it and greedy weighs by it, so the two cannot disagree. Arithmetic, not branches: which cards are affordable is
    hard for the processor to predict, and a wrong guess costs more than the rest of the loop."""
    kind = table[card, T_KIND]
    return (
        (table[card, T_COST] <= plasma)
        & ((kind != K_EQUIPMENT) | has_creature)
        & ((kind != K_BATTLEFIELD) | room_for_field)
    )


@llvm_inline_kernel
def legal_plays(table: IntArray, st: Any, p: EngineInt, out: IntArray) -> int:
    """The play decision's legal actions into `out` (how many): COIN first while p holds it, then each hand card p
    can play (`can_play`) in hand order, each creature whose ability p can activate (`can_activate`) in field order,
    and STOP last."""
    n = 0
    if st.side[p, S_COIN] == 1:
        out[0] = COIN
        n = 1
    plasma = st.side[p, S_PLASMA]
    # Below the deck's cheapest cost or ability nothing can be paid for: the hand need not be read.
    if plasma >= st.side[p, S_CHEAPEST]:
        has_creature = st.side[p, S_BOARD] > 0
        room_for_field = (st.side[p, S_BATTLEFIELD] < 0) | (st.options[O_REPLACE_BATTLEFIELD] == 1)
        for h in range(st.side[p, S_HAND]):
            # The slot written always and kept when playable, for the same reason as `playable_card`'s arithmetic.
            out[n] = h
            n += int(playable_card(table, st.hand[p, h], plasma, has_creature, room_for_field))
        if st.side[p, S_FIELD_ABILITIES] > 0:
            for i in range(st.side[p, S_BOARD]):
                if can_activate(table, st, p, i):
                    out[n] = ACTIVATE + i
                    n += 1
    out[n] = STOP
    return n + 1


@llvm_inline_kernel
def apply_play(table: IntArray, st: Any, p: EngineInt, action: EngineInt) -> None:
    """p takes a listed action of the play decision (STOP takes nothing: `take` closes the decision). Once a
    card or an ability has gone in effect (a target it leaves open chosen: `apply_effect_target`), the opponent's
    instant window after it opens (`open_window`; the coin is not a card and opens none)."""
    if action == COIN:
        flip_coin(st, p)
    elif action >= 0:
        if action >= ACTIVATE:
            activate(table, st, p, action - ACTIVATE)
        else:
            play_card(table, st, p, action, np.int64(-1), np.int64(-1))
        if st.game[G_PENDING] == D_NONE:
            open_window(table, st, 1 - p, np.int64(WINDOW_PLAY))


# =====================================================================================================================
# Instants
# =====================================================================================================================


@llvm_inline_kernel
def has_instant_to_play(table: IntArray, st: Any, x: EngineInt) -> bool:
    """Whether x holds an Instant it can pay for (checked before opening a window, which is costly to call): its
    hand's cheapest Instant (S_HAND_INSTANT), not the hand read card by card."""
    return st.side[x, S_PLASMA] >= st.side[x, S_HAND_INSTANT]


@llvm_inline_kernel
def is_open_window(window: EngineInt) -> EngineBool:
    """Whether an instant window is one outside an attack (the end of a turn's, the start of a turn's, or the one
    after a card of a play phase): open to its player until they pass, where an attack's windows hold one Instant."""
    return window >= WINDOW_END


@llvm_inline_kernel
def open_window(table: IntArray, st: Any, x: EngineInt, window: EngineInt) -> bool:
    """Open the instant decision (D_INSTANT) for x in a window outside an attack (G_WINDOW = `window`) when x holds an
    Instant it can pay for; the end of the opponent's turn always, the start of it (WINDOW_START) and the window
    after each card or ability of its play phase (WINDOW_PLAY) only with `instants_any_time`. False when none opens.

    "Instant cards ... can be played at any time ... and even on the opponent's turn! The main rules of it are that
    you cannot use an Instant card after the opponent activates a card but before it goes in effect": a window after
    a card opens once the card has gone in effect, never between."""
    if window != WINDOW_END and st.options[O_INSTANTS_ANY_TIME] == 0:
        return False
    if st.game[G_OVER] == 1 or not has_instant_to_play(table, st, x):
        return False
    open_decision(st, np.int64(D_INSTANT), x)
    st.game[G_WINDOW] = window
    return True


# =====================================================================================================================
# Combat
# =====================================================================================================================


@llvm_inline_kernel
def fight(table: IntArray, st: Any, p: EngineInt, a: EngineInt, q: EngineInt, d: EngineInt) -> None:
    """p's creature in slot a and q's in slot d deal their power to each other at once; both end tapped."""
    power_a = creature_power(table, st, p, a)
    power_d = creature_power(table, st, q, d)
    st.board[p, a, B_TAPPED] = 1
    st.board[q, d, B_TAPPED] = 1
    damage_creature(st, p, st.board[p, a, B_CARD], q, d, power_a)
    damage_creature(st, q, st.board[q, d, B_CARD], p, a, power_d)
    remove_if_destroyed(table, st, p, a, q, d)


@llvm_inline_kernel
def declare_attack(table: IntArray, st: Any, p: EngineInt, a: EngineInt, target: EngineInt) -> None:
    """p's creature in slot a attacks: directly (target = DIRECT) or the enemy creature in slot `target`.

    A direct attack opens the defender's block decision when they have an untapped creature; otherwise the attack
    goes on to its instant windows and damage (`attack_goes_on`; a window is opened here, without its call).
    """
    q = 1 - p
    attacker_card = st.board[p, a, B_CARD]
    st.counters[p, attacker_card, ATTACKED] += 1
    st.game[G_ATTACKING] = p
    st.game[G_ATTACKER] = a
    st.game[G_ATTACKER_UID] = st.board[p, a, B_UID]
    st.game[G_ATTACKER_CARD] = attacker_card
    st.game[G_DEFENDER_UID] = -1
    st.game[G_WINDOW] = WINDOW_ATTACK
    if target == DIRECT:
        trace(st, st.game[G_TURN], p, EV_ATTACK_DIRECT, attacker_card, -1, creature_power(table, st, p, a))
        for i in range(st.side[q, S_BOARD]):
            if st.board[q, i, B_TAPPED] == 0:
                open_decision(st, np.int64(D_BLOCK), q)
                return
        trace(st, st.game[G_TURN], q, EV_NO_BLOCK, -1, attacker_card, 0)
    else:
        st.game[G_DEFENDER_UID] = st.board[q, target, B_UID]
        st.game[G_DEFENDER] = target
        trace(st, st.game[G_TURN], p, EV_ATTACK_CREATURE, attacker_card, st.board[q, target, B_CARD], 0)
    # The first window opened here, without a call; the damage stays in `attack_goes_on`, a kernel of its own that
    # LLVM copies in: written out here it was typed again at every level and cost compile (plasma.md, Speed, round 4).
    if open_instant_window(table, st, p):
        return
    attack_goes_on(table, st)


@llvm_inline_kernel
def legal_blocks(st: Any, q: EngineInt, out: IntArray) -> int:
    """The block decision's legal actions into `out` (how many): each untapped creature of q in field order, then
    NO_BLOCK."""
    n = 0
    for i in range(st.side[q, S_BOARD]):
        out[n] = i
        n += int(st.board[q, i, B_TAPPED] == 0)
    out[n] = NO_BLOCK
    return n + 1


@llvm_inline_kernel
def apply_block(table: IntArray, st: Any, d: EngineInt) -> None:
    """The defender blocks the direct attack with its creature in slot d (or takes the hit: NO_BLOCK); the attack
    goes on."""
    q = st.game[G_ACTOR]
    attacker_card = st.game[G_ATTACKER_CARD]
    if d >= 0:
        st.game[G_DEFENDER_UID] = st.board[q, d, B_UID]
        st.game[G_DEFENDER] = d
        trace(st, st.game[G_TURN], q, EV_BLOCK, st.board[q, d, B_CARD], attacker_card, 0)
    else:
        trace(st, st.game[G_TURN], q, EV_NO_BLOCK, -1, attacker_card, 0)
    attack_goes_on(table, st)


@llvm_inline_kernel
def attack_goes_on(table: IntArray, st: Any) -> None:
    """The attack once its fighters are known: with `instants_before_damage`, the attacker's then the defender's
    instant window, each opened (D_INSTANT) when that player holds an Instant they can pay for; then damage
    (`resolve_attack`). Copied in by LLVM (`llvm_inline_kernel`): typed once, so the several decisions that lead here
    cost little compile, and greedy saves a call per attack (plasma.md, Speed, Round 7)."""
    if open_instant_window(table, st, st.game[G_ATTACKING]):
        return
    st.game[G_WINDOW] = WINDOW_DONE
    resolve_attack(table, st)


@llvm_inline_kernel
def open_instant_window(table: IntArray, st: Any, p: EngineInt) -> bool:
    """With `instants_before_damage`, the next instant window of p's attack: the attacker's (G_WINDOW =
    WINDOW_ATTACK), then the defender's (WINDOW_DEFEND), each opened (D_INSTANT) only when that player holds an
    Instant they can pay for. False when no window opens: the damage comes next."""
    if st.options[O_INSTANTS_BEFORE_DAMAGE] == 1 and st.game[G_OVER] == 0:
        if st.game[G_WINDOW] == WINDOW_ATTACK:
            if has_instant_to_play(table, st, p):
                open_decision(st, np.int64(D_INSTANT), p)
                return True
            st.game[G_WINDOW] = WINDOW_DEFEND
        if st.game[G_WINDOW] == WINDOW_DEFEND:
            if has_instant_to_play(table, st, 1 - p):
                open_decision(st, np.int64(D_INSTANT), 1 - p)
                return True
    return False


@llvm_inline_kernel
def resolve_attack(table: IntArray, st: Any) -> None:
    """The attack's damage: a direct hit, or the fighters' fight; an Instant may have moved or removed either
    fighter, so both are found again by uid. The attacker decision opens again."""
    p = st.game[G_ATTACKING]
    q = 1 - p
    open_decision(st, np.int64(D_ATTACKER), p)
    if st.game[G_OVER] == 1:
        return
    attacker_card = st.game[G_ATTACKER_CARD]
    defender_uid = st.game[G_DEFENDER_UID]
    a = find_uid_from(st, p, st.game[G_ATTACKER_UID], st.game[G_ATTACKER])
    d = find_uid_from(st, q, defender_uid, st.game[G_DEFENDER])
    if a < 0:
        trace(st, st.game[G_TURN], p, EV_ATTACK_ENDS, attacker_card, -1, 0)
        return
    if defender_uid < 0:
        st.board[p, a, B_TAPPED] = 1
        hit_player(st, p, attacker_card, creature_power(table, st, p, a))
        return
    if d < 0:
        # The blocker or the attacked creature left the field before damage: the attack ends, the attacker tapped.
        st.board[p, a, B_TAPPED] = 1
        trace(st, st.game[G_TURN], p, EV_ATTACK_ENDS, attacker_card, -1, 0)
        return
    fight(table, st, p, a, q, d)


@llvm_inline_kernel
def window_uids(st: Any) -> tuple[int, int]:
    """(own, enemy): the uids of the fighters of the player whose instant window is open (-1, -1 in a window outside
    an attack)."""
    window = st.game[G_WINDOW]
    if window == WINDOW_ATTACK:
        return st.game[G_ATTACKER_UID], st.game[G_DEFENDER_UID]
    if window == WINDOW_DEFEND:
        return st.game[G_DEFENDER_UID], st.game[G_ATTACKER_UID]
    return -1, -1


@llvm_inline_kernel
def legal_instants(table: IntArray, st: Any, x: EngineInt, out: IntArray) -> int:
    """The instant decision's legal actions into `out` (how many): each Instant of x's hand x can pay for, in hand
    order, then PASS."""
    n = 0
    for h in range(st.side[x, S_HAND]):
        if table[st.hand[x, h], T_KIND] == K_INSTANT and can_play(table, st, x, h):
            out[n] = h
            n += 1
    out[n] = PASS
    return n + 1


@inline_kernel
def apply_instant(table: IntArray, st: Any, h: EngineInt) -> None:
    """The deciding player plays the Instant at hand position h (or PASS). Around an attack a window holds one
    Instant: the attack goes on. A window outside an attack stays open until PASS, which closes it: after a card of
    the opponent's play phase (WINDOW_PLAY) the opponent's play decision opens again; at the start or the end of a
    turn no decision is left open (`advance` goes on). A PASS, the usual answer, is taken here; an Instant is
    played by `play_instant` (called)."""
    window = st.game[G_WINDOW]
    if h != PASS:
        play_instant(table, st, h)
    elif window == WINDOW_PLAY:
        open_decision(st, np.int64(D_PLAY), 1 - st.game[G_ACTOR])
    elif is_open_window(window):
        st.game[G_DECISION] = D_NONE
    else:
        instant_done(table, st)


@rules_kernel
def play_instant(table: IntArray, st: Any, h: EngineInt) -> None:
    """`apply_instant` of an Instant (hand position h): it is played on the window's fighters; then, unless its
    target is left open, the attack goes on."""
    own_uid, enemy_uid = window_uids(st)
    play_card(table, st, st.game[G_ACTOR], h, np.int64(own_uid), np.int64(enemy_uid))
    if st.game[G_PENDING] != D_NONE:
        # The window goes on once the Instant's target is chosen (`apply_effect_target`).
        return
    instant_done(table, st)


@llvm_inline_kernel
def instant_done(table: IntArray, st: Any) -> None:
    """An attack's window has had its one Instant (or none): the attack goes on. A window outside an attack stays
    open."""
    window = st.game[G_WINDOW]
    if is_open_window(window):
        return
    st.game[G_WINDOW] = WINDOW_DEFEND if window == WINDOW_ATTACK else WINDOW_DONE
    attack_goes_on(table, st)


@llvm_inline_kernel
def legal_attackers(st: Any, p: EngineInt, out: IntArray) -> int:
    """The attacker decision's legal actions into `out` (how many): the field slot of each creature of p that can
    attack now (`can_attack`), in field order. None: p's battle phase is over."""
    sickness = st.options[O_SICKNESS]
    n = 0
    for i in range(st.side[p, S_BOARD]):
        # `can_attack` as arithmetic: tapped, held and sick creatures mix unpredictably, so fewer branches pay.
        blocked = st.board[p, i, B_TAPPED] | st.board[p, i, B_HELD] | (sickness & st.board[p, i, B_SICK])
        out[n] = i
        n += int(blocked == 0)
    return n


@llvm_inline_kernel
def legal_targets(st: Any, p: EngineInt, out: IntArray) -> int:
    """The target decision's legal actions into `out` (how many) for p's attacker in slot G_ATTACKER: HOLD, DIRECT,
    then each enemy creature it may attack (`can_be_attacked`), in field order."""
    q = 1 - p
    out[0] = HOLD
    out[1] = DIRECT
    n = 2
    for i in range(st.side[q, S_BOARD]):
        if can_be_attacked(st, q, i):
            out[n] = i
            n += 1
    return n


@llvm_inline_kernel
def apply_target(table: IntArray, st: Any, p: EngineInt, target: EngineInt) -> None:
    """p sends its attacker in slot G_ATTACKER to a listed target: HOLD marks it held back for the rest of this
    battle phase, anything else declares the attack (which may open the defender's block or an instant window)."""
    a = st.game[G_ATTACKER]
    if target == HOLD:
        st.board[p, a, B_HELD] = 1
        open_decision(st, np.int64(D_ATTACKER), p)
    else:
        declare_attack(table, st, p, a, target)


# =====================================================================================================================
# Turns and matches
# =====================================================================================================================


@llvm_inline_kernel
def has_trigger(table: IntArray, card: EngineInt) -> bool:
    """Whether a battlefield has clauses that happen (anything but its lasting power and resolve bonuses)."""
    for c in range(table[card, T_CLAUSES]):
        op = table[card, T_CLAUSE0 + 2 * c]
        if op != OP_POWER and op != OP_RESOLVE:
            return True
    return False


@llvm_inline_kernel
def start_turn(table: IntArray, st: Any, p: EngineInt) -> None:
    """Untap, summoning sickness ends, plasma = your turn number (the rest is lost), draw 1, battlefield fires."""
    st.game[G_TURN] += 1
    st.side[p, S_TURNS] += 1
    for i in range(st.side[p, S_BOARD]):
        st.board[p, i, B_TAPPED] = 0
        st.board[p, i, B_SICK] = 0
        st.board[p, i, B_ACTIVATED] = 0
    if st.options[O_UNTAP_EVERY_TURN] == 1:
        for i in range(st.side[1 - p, S_BOARD]):
            st.board[1 - p, i, B_TAPPED] = 0
    st.side[p, S_PLASMA] = st.side[p, S_TURNS]
    trace(st, st.game[G_TURN], p, EV_TURN, -1, st.side[p, S_TURNS], st.side[p, S_PLASMA])
    trace(st, st.game[G_TURN], p, EV_LIFE, -1, st.side[1, S_LIFE], st.side[0, S_LIFE])
    draw_card(table, st, p)
    field = st.side[p, S_BATTLEFIELD]
    if st.game[G_OVER] == 0 and field >= 0 and st.options[O_BATTLEFIELD_EACH_TURN] == 1 and has_trigger(table, field):
        trace(st, st.game[G_TURN], p, EV_TRIGGER, field, -1, 0)
        apply_effects(table, st, p, field, np.int64(MODE_TRIGGER), np.int64(-1), np.int64(-1), np.int64(0))


@llvm_inline_kernel
def close_turn(table: IntArray, st: Any, p: EngineInt) -> None:
    """After the opponent's end-of-turn window (`end_turn`): "this turn" bonuses end (and damage, by option)."""
    # Damage only ever destroys at once (every damage is followed by a check), so at the end of turn a creature can
    # only be destroyed by losing a resolve bonus (`resolve_bonus_end_destroys`), or when it entered the field
    # already destroyed.
    bonus_ended = False
    if st.game[G_BONUS] == 0 and st.options[O_DAMAGE_WEARS_OFF] == 0:
        if st.game[G_UNCHECKED] == 1:
            remove_the_dead(table, st)
        return
    st.game[G_BONUS] = 0
    for player in range(2):
        for i in range(st.side[player, S_BOARD]):
            if st.board[player, i, B_TMP_POWER] != 0 or st.board[player, i, B_TMP_RESOLVE] != 0:
                bonus_ended = True
                lost_resolve = st.board[player, i, B_TMP_RESOLVE] > 0
                st.board[player, i, B_TMP_POWER] = 0
                st.board[player, i, B_TMP_RESOLVE] = 0
                refresh_stats(table, st, player, i)
                if lost_resolve and st.options[O_BONUS_END_DESTROYS] == 0:
                    # Destroyed only by taking damage: the creature keeps as much damage as its resolve lets it
                    # take, and the next damage destroys it (`resolve_bonus_end_destroys` off).
                    most = creature_resolve(table, st, player, i) - 1 + st.options[O_MORE_THAN]
                    if st.board[player, i, B_DAMAGE] > most:
                        st.board[player, i, B_DAMAGE] = max(most, 0)
            if st.options[O_DAMAGE_WEARS_OFF] == 1:
                st.board[player, i, B_DAMAGE] = 0
    if bonus_ended or st.game[G_UNCHECKED] == 1:
        remove_the_dead(table, st)


@llvm_inline_kernel
def legal_mulligan(st: Any, p: EngineInt, out: IntArray) -> int:
    """The mulligan decision's legal actions into `out` (how many): while fewer than 3 cards are set aside, each hand
    position (that card set aside); then KEEP."""
    n = 0
    if st.game[G_ASIDE] < MULLIGANS_MAX:
        for h in range(st.side[p, S_HAND]):
            out[n] = h
            n += 1
    out[n] = KEEP
    return n + 1


@rules_kernel
def apply_mulligan(table: IntArray, st: Any, p: EngineInt, action: EngineInt) -> None:
    """p takes a listed mulligan action: set hand card `action` aside and draw 1; or KEEP, which ends the mulligan:
    the set-aside cards are shuffled back into the deck."""
    # The cards drawn so far left the front of the library, so its first slots hold the set-aside cards.
    aside = st.game[G_ASIDE]
    if action != KEEP:
        card = remove_from_hand(table, st, p, action)
        st.library[p, aside] = card
        st.game[G_ASIDE] = aside + 1
        trace(st, st.game[G_TURN], p, EV_MULLIGAN, card, -1, 0)
        draw_card(table, st, p)
        return
    st.game[G_DECISION] = D_NONE
    if aside == 0:
        return
    # Move them just before the undrawn cards; from the last one down, since the two ranges may overlap.
    start = st.side[p, S_DRAWN] - aside
    for k in range(aside - 1, -1, -1):
        st.library[p, start + k] = st.library[p, k]
    st.side[p, S_DRAWN] = start
    shuffle_in_place(st.library[p, start:], st.side[p, S_DECK] - start, st.rng)


@inline_kernel
def policy_block(st: Any, p: EngineInt) -> IntArray:
    """p's policy block (`workbench.play.policies`: the code at S_POLICY, the parameter, the policy's own generator)."""
    return st.side[p, S_POLICY : S_POLICY + POLICY_WORDS]


@rules_kernel
def setup_match(
    table: IntArray,
    st: Any,
    deck_a: IntArray,
    deck_b: IntArray,
    seed: EngineInt,
    first: EngineInt,
    policy_a: EngineInt,
    policy_b: EngineInt,
) -> None:
    """Shuffle both decks, 20 Healthshards each; the second player gets the coin; then (`advance`) the first player
    draws 5 and the mulligan decision opens. Each side's policy block is filled from its policy word and the match's
    seed (`start_policy`), and the search's own generator is seeded from it (SEARCH_SEED)."""
    p: EngineInt  # a loop counter, then `first` or `1 - first`
    rng_seed(st.rng, seed)
    rng_seed(st.srng, seed ^ SEARCH_SEED)
    for p in range(2):
        deck = deck_a if p == 0 else deck_b
        for k in range(deck.shape[0]):
            st.library[p, k] = deck[k]
        shuffle_in_place(st.library[p], deck.shape[0], st.rng)
        st.side[p, S_LIFE] = STARTING_HEALTHSHARDS
        st.side[p, S_PLASMA] = 0
        st.side[p, S_TURNS] = 0
        st.side[p, S_COIN] = 0 if p == first else 1
        st.side[p, S_BATTLEFIELD] = -1
        st.side[p, S_HAND] = 0
        st.side[p, S_HAND_INSTANT] = NO_INSTANT
        st.side[p, S_DECK] = deck.shape[0]
        st.side[p, S_DRAWN] = 0
        st.side[p, S_BOARD] = 0
        st.side[p, S_FIELD_ABILITIES] = 0
        start_policy(policy_block(st, p), policy_a if p == 0 else policy_b, seed, p)
        st.words[p, 0] = NO_COUNT
        cheapest = table[deck[0], T_COST] if deck.shape[0] > 0 else 0
        for k in range(deck.shape[0]):
            cheapest = min(cheapest, table[deck[k], T_COST])
            if table[deck[k], T_HAS_ABILITY] == 1:
                cheapest = min(cheapest, table[deck[k], ABILITY + T_COST])
        st.side[p, S_CHEAPEST] = cheapest
    st.game[G_TURN] = 0
    st.game[G_OVER] = 0
    st.game[G_WINNER] = -1
    st.game[G_NEXT_UID] = 0
    st.game[G_PLAYER] = first
    st.game[G_UNCHECKED] = 0
    st.game[G_BONUS] = 0
    st.game[G_DECISION] = D_NONE
    st.game[G_PENDING] = D_NONE
    st.game[G_STAGE] = STAGE_DEAL_FIRST
    advance(table, st, np.int64(NO_STAGE))


@llvm_inline_kernel
def any_attacker(st: Any, p: EngineInt) -> bool:
    """Whether `legal_attackers` would list a creature of p (its test, without writing the list)."""
    sickness = st.options[O_SICKNESS]
    for i in range(st.side[p, S_BOARD]):
        if st.board[p, i, B_TAPPED] | st.board[p, i, B_HELD] | (sickness & st.board[p, i, B_SICK]) == 0:
            return True
    return False


@llvm_inline_kernel
def opening_hand(table: IntArray, st: Any, p: EngineInt) -> None:
    """p draws the opening hand and the mulligan decision opens (`apply_mulligan` until KEEP)."""
    for _ in range(OPENING_HAND):
        draw_card(table, st, p)
    open_decision(st, np.int64(D_MULLIGAN), p)
    st.game[G_ASIDE] = 0


@llvm_inline_kernel
def advance(table: IntArray, st: Any, until: EngineInt) -> None:
    """Play the rules on from where the match stands until a decision is open (a target G_PENDING, or G_DECISION),
    the match is over, or (no decision open) the stage `until` is next (NO_STAGE: never).

    The rules stop at each decision and return: the caller (`apply`, and the play loops above the rules) asks the
    deciding side's policy and hands its choice to `apply`, which takes it and comes back here. G_STAGE is where the
    match goes on once the decision open closes (STAGE_*): the opening hands and mulligans (first player first), then
    each turn's start (the turn cap, `start_turn`), the opponent's start-of-turn window, the play phase, the battle
    phase, the opponent's end-of-turn window and the turn's close. The play and attacker decisions stay open after
    each action (`apply` opens them again); they close on STOP, when no creature can attack (`any_attacker`), or at
    their bounds (PLAY_STEPS + 1 plays, ATTACK_STEPS attackers). A match that ends in the end-of-turn window still
    closes that turn (`close_turn`), as a turn's end always does."""
    while st.game[G_OVER] == 0:
        if st.game[G_PENDING] != D_NONE:
            return
        decision = st.game[G_DECISION]
        if decision != D_NONE:
            if decision == D_PLAY:
                if st.game[G_STEPS] <= PLAY_STEPS:
                    return
            elif decision != D_ATTACKER or (st.game[G_STEPS] < ATTACK_STEPS and any_attacker(st, st.game[G_ACTOR])):
                return
            st.game[G_DECISION] = D_NONE
        if not play_stages(table, st, until):
            return
    if st.game[G_STAGE] == STAGE_CLOSE:
        close_turn(table, st, st.game[G_PLAYER])
        st.game[G_STAGE] = STAGE_OVER


@llvm_inline_kernel
def play_stages(table: IntArray, st: Any, until: EngineInt) -> bool:
    """`advance`'s stages, from G_STAGE on in the order a turn has them, each setting the next before its work: until
    one opens a decision, ends the match or leaves a target open (True: `advance` looks again), or until the stage
    `until` is next or the play decision is open (False: `advance` returns). Written in the turn's order, not as a
    dispatch on each stage, so a turn's stages run one after the other without a branch to guess for each."""
    stage = st.game[G_STAGE]
    p = st.game[G_PLAYER]
    if stage == until:
        return False
    if stage == STAGE_TURN:
        if st.game[G_TURN] >= st.options[O_TURN_CAP]:
            trace(st, st.game[G_TURN], -1, EV_TURN_CAP, -1, -1, st.options[O_TURN_CAP])
            end_match(st, np.int64(-1))
            st.game[G_STAGE] = STAGE_OVER
            return False
        stage = STAGE_START_WINDOW
        st.game[G_STAGE] = stage
        start_turn(table, st, p)
        if st.game[G_OVER] == 1 or st.game[G_PENDING] != D_NONE or stage == until:
            return True
    if stage == STAGE_START_WINDOW:
        # The opponent's window at the start of the turn (`instants_any_time`), once the draw and battlefield are
        # done (and the targets they left open chosen).
        stage = STAGE_PLAY
        st.game[G_STAGE] = stage
        if open_window(table, st, 1 - p, np.int64(WINDOW_START)) or stage == until:
            return True
    if stage == STAGE_PLAY:
        st.game[G_STAGE] = STAGE_BATTLE
        st.game[G_STEPS] = 0
        open_decision(st, np.int64(D_PLAY), p)
        return False
    if stage == STAGE_BATTLE:
        # A battle phase starts with no creature held back.
        for i in range(st.side[p, S_BOARD]):
            st.board[p, i, B_HELD] = 0
        st.game[G_STAGE] = STAGE_END
        st.game[G_STEPS] = 0
        open_decision(st, np.int64(D_ATTACKER), p)
        return True
    if stage == STAGE_END:
        # The opponent's last use of their leftover plasma, when they hold an Instant they can pay for.
        stage = STAGE_CLOSE
        st.game[G_STAGE] = stage
        if open_window(table, st, 1 - p, np.int64(WINDOW_END)) or stage == until:
            return True
    if stage == STAGE_CLOSE:
        close_turn(table, st, p)
        st.game[G_PLAYER] = 1 - p
        st.game[G_STAGE] = STAGE_TURN
        return True
    if stage == STAGE_DEAL_FIRST:
        st.game[G_STAGE] = STAGE_DEAL_SECOND
        opening_hand(table, st, p)
        return False
    if stage == STAGE_DEAL_SECOND:
        st.game[G_STAGE] = STAGE_TURN
        opening_hand(table, st, 1 - p)
        return False
    return False


# =====================================================================================================================
# The rules' interface: legal_actions, apply, clone (every policy plays through these)
#
# A decision is open in the state (G_DECISION, taken by player G_ACTOR): `legal_actions` lists its legal actions
# into an out buffer (st.actions, unless the caller keeps its own), and `apply` takes one of them and plays the rules
# on to the next decision (`advance`). Each kind has its own lister and applier above (`legal_plays` / `apply_play`,
# `legal_attackers` / `apply_attacker`, `legal_targets` / `apply_target`, `legal_mulligan` / `apply_mulligan`); the
# kernels here dispatch on G_DECISION.
# =====================================================================================================================


@llvm_inline_kernel
def open_decision(st: Any, decision: EngineInt, p: EngineInt) -> None:
    """Open a decision of kind `decision` for player p."""
    st.game[G_DECISION] = decision
    st.game[G_ACTOR] = p


@llvm_inline_kernel
def apply_attacker(st: Any, a: EngineInt) -> None:
    """The attacker decision's action: p's creature in field slot `a` attacks next; its target is the next decision."""
    st.game[G_ATTACKER] = a
    st.game[G_DECISION] = D_TARGET


@rules_kernel
def legal_actions(table: IntArray, st: Any, out: IntArray) -> EngineInt:
    """The open decision's legal actions into `out`, in a fixed order (see D_*): how many (0: no decision is open).
    A target left open (G_PENDING) comes before the decision under way."""
    if st.game[G_PENDING] != D_NONE:
        return legal_effect_targets(st, out)
    p = st.game[G_ACTOR]
    decision = st.game[G_DECISION]
    if decision == D_PLAY:
        return legal_plays(table, st, p, out)
    if decision == D_ATTACKER:
        return legal_attackers(st, p, out)
    if decision == D_TARGET:
        return legal_targets(st, p, out)
    if decision == D_MULLIGAN:
        return legal_mulligan(st, p, out)
    if decision == D_BLOCK:
        return legal_blocks(st, p, out)
    if decision == D_INSTANT:
        return legal_instants(table, st, p, out)
    return 0


@inline_kernel
def take(table: IntArray, st: Any, action: EngineInt) -> None:
    """Take one action that `legal_actions` listed for the open decision, and open the one that follows it within
    the same step: after an attacker its target; after a target the defender's block, an instant window or (the
    attack done, or a hold) the attacker decision again; after a card or ability of the play phase has gone in
    effect, the opponent's window (`instants_any_time`), whose PASS opens the play decision again; after an Instant
    in a window outside an attack the same window. STOP, KEEP and the PASS of a start- or end-of-turn window close the
    decision (`advance` goes on to the next stage). A target left open (G_PENDING) is answered first: the action is
    its field slot. Counts the phase's plays and attackers (G_STEPS, for `advance`'s bounds)."""
    if st.game[G_PENDING] != D_NONE:
        apply_effect_target(table, st, action)
        return
    p = st.game[G_ACTOR]
    decision = st.game[G_DECISION]
    if decision == D_PLAY:
        if action == STOP:
            st.game[G_DECISION] = D_NONE
        else:
            st.game[G_STEPS] += 1
            apply_play(table, st, p, action)
    elif decision == D_ATTACKER:
        st.game[G_STEPS] += 1
        apply_attacker(st, action)
    elif decision == D_TARGET:
        apply_target(table, st, p, action)
    elif decision == D_BLOCK:
        apply_block(table, st, action)
    elif decision == D_INSTANT:
        apply_instant(table, st, action)
    elif decision == D_MULLIGAN:
        apply_mulligan(table, st, p, action)


@llvm_inline_kernel
def apply(table: IntArray, st: Any, action: EngineInt) -> None:
    """The contract's `apply`: take one listed action of the open decision (`take`), then play the rules on to the
    next decision or the match's end (`advance`)."""
    take(table, st, action)
    advance(table, st, np.int64(NO_STAGE))


# =====================================================================================================================
# The contract's clone and determinize (the search deals its worlds with them)
# =====================================================================================================================

N_OPTIONS = len(OPTION_ORDER)
NO_TRACE = 1 << 62
"""A clone's trace count (`clone`): larger than any trace, so a rollout traces nothing."""


@llvm_inline_kernel
def clone(st: Any, into: Any) -> None:
    """st's match into `into` (the field slots in use, hands, libraries, sides, game with its open decision, dice and
    options; not the trace, the action list, the policies' words nor the search's own fields), to be played untraced."""
    for p in range(2):
        for i in range(st.side[p, S_BOARD]):
            for f in range(BOARD_WIDTH):
                into.board[p, i, f] = st.board[p, i, f]
        for k in range(MAX_DECK):
            into.hand[p, k] = st.hand[p, k]
            into.library[p, k] = st.library[p, k]
        for f in range(SIDE_WIDTH):
            into.side[p, f] = st.side[p, f]
    for f in range(GAME_WIDTH):
        into.game[f] = st.game[f]
    for f in range(4):
        into.rng[f] = st.rng[f]
    for f in range(N_OPTIONS):
        into.options[f] = st.options[f]
    # Past the end of any trace: a traced match's rollouts (on records of its traced type) write nothing.
    into.ecount[0] = NO_TRACE


@llvm_inline_kernel
def sort_pool(st: Any, n: EngineInt) -> None:
    """Sort the first n cards of st.pool by id (insertion sort: a deck is at most MAX_DECK cards)."""
    for i in range(1, n):
        card = st.pool[i]
        j = i - 1
        while j >= 0 and st.pool[j] > card:
            st.pool[j + 1] = st.pool[j]
            j -= 1
        st.pool[j + 1] = card


@rules_kernel
def determinize(table: IntArray, st: Any, p: EngineInt, seed: EngineInt) -> None:
    """Deal anew, from a generator seeded with `seed`, everything p cannot see: the opponent's hand and draw deck
    together (their sizes are public), and the order of p's own draw deck. Each pool is sorted first, so the deal
    depends on which cards are unseen, never on where they lay. The rules never read a library slot below
    S_DRAWN (cards already drawn), so those are left as they are. The generator then rolls the rollout's dice."""
    rng_seed(st.rng, seed)
    q = 1 - p
    hand = st.side[q, S_HAND]
    drawn = st.side[q, S_DRAWN]
    n = 0
    for h in range(hand):
        st.pool[n] = st.hand[q, h]
        n += 1
    for k in range(drawn, st.side[q, S_DECK]):
        st.pool[n] = st.library[q, k]
        n += 1
    sort_pool(st, n)
    shuffle_in_place(st.pool, n, st.rng)
    for h in range(hand):
        st.hand[q, h] = st.pool[h]
    count_hand_instants(table, st, q)
    for k in range(hand, n):
        st.library[q, drawn + k - hand] = st.pool[k]
    drawn = st.side[p, S_DRAWN]
    n = st.side[p, S_DECK] - drawn
    for k in range(n):
        st.pool[k] = st.library[p, drawn + k]
    sort_pool(st, n)
    shuffle_in_place(st.pool, n, st.rng)
    for k in range(n):
        st.library[p, drawn + k] = st.pool[k]


# =====================================================================================================================
# A match's state record
# =====================================================================================================================


def new_state(options: IntArray, traced: bool = False) -> Any:
    """A fresh match state record (see STATE_DTYPE; TRACED_STATE_DTYPE when `traced`) holding these rule options, its
    counters zero."""
    state = np.zeros(1, dtype=TRACED_STATE_DTYPE if traced else STATE_DTYPE).view(np.recarray)
    state.options[0] = options
    return state[0]
