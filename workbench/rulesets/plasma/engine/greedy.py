"""The plasma policies and the match played by them: greedy's worth of a card, an ability or an Instant on the board
(`spell_value`, `ability_value`, `combat_instant_value`, `play_value_of_card` for the card table), a `choose_*` per
decision kind, each answering by the side's policy (greedy's rule of thumb, random, epsilon-greedy through
`workbench.play.policies`) among the actions `legal_actions` lists, `decide` (the choice of the side whose decision is
open), and the match played by the play layer's loop (`workbench.play.loop.play_out`): `play_on`, the batch
`play_matches`, and the phases and attacks the rule tests play alone.

Imports `layout` and `rules` (the listers it answers from, the board it reads, `apply` and `advance`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engines import (
    EngineBool,
    EngineInt,
    IntArray,
    begin_match_counters,
    end_match_counters,
    inline_kernel,
    llvm_inline_kernel,
    rng_below,
    rules_kernel,
)
from workbench.play.loop import NO_CONTEXT, batch_loop, batch_match, play_out, play_until, record_result
from workbench.play.policies import plays_random, random_played
from workbench.rulesets.plasma.engine.layout import (
    ABILITY,
    ACTIVATE,
    B_CARD,
    B_HELD,
    B_SICK,
    B_TAPPED,
    COIN,
    D_ATTACKER,
    D_BLOCK,
    D_ENEMY_TARGET,
    D_INSTANT,
    D_NONE,
    D_PLAY,
    D_TARGET,
    DIRECT,
    G_ACTOR,
    G_ASIDE,
    G_ATTACKER,
    G_DECISION,
    G_FX_CARD,
    G_FX_CLAUSE,
    G_FX_MODE,
    G_FX_PLAYER,
    G_OVER,
    G_PENDING,
    G_PLAYER,
    G_STAGE,
    G_TURN,
    G_WINDOW,
    G_WINNER,
    HOLD,
    K_BATTLEFIELD,
    K_CREATURE,
    K_EQUIPMENT,
    K_EVENT,
    K_INSTANT,
    KEEP,
    MODE_ACTIVATE,
    MULLIGANS_MAX,
    NO_BLOCK,
    NO_COUNT,
    O_HEAL_CAP,
    O_REPLACE_BATTLEFIELD,
    O_SICKNESS,
    O_UNTAP_EVERY_TURN,
    OP_DAMAGE,
    OP_DAMAGE_PLAYER,
    OP_DESTROY,
    OP_DRAW,
    OP_HEAL,
    OP_PLASMA,
    OP_POWER,
    OP_RESOLVE,
    PASS,
    PLAY_VALUE_OF_BOARD,
    S_BATTLEFIELD,
    S_BOARD,
    S_CHEAPEST,
    S_COIN,
    S_DECK,
    S_DRAWN,
    S_FIELD_ABILITIES,
    S_HAND,
    S_LIFE,
    S_PLASMA,
    STAGE_BATTLE,
    STAGE_END,
    STAGE_PLAY,
    STAGE_TURN,
    STOP,
    T_CLAUSE0,
    T_COST,
    T_KIND,
    T_PLAY_VALUE,
    T_TOTAL,
    WINDOW_ATTACK,
    WINDOW_END,
)
from workbench.rulesets.plasma.engine.rules import (
    advance,
    apply,
    can_activate,
    can_attack,
    can_be_attacked,
    can_play,
    creature_power,
    damage_to_destroy,
    declare_attack,
    find_uid,
    is_open_window,
    legal_attackers,
    legal_blocks,
    legal_effect_targets,
    legal_instants,
    legal_mulligan,
    legal_plays,
    legal_targets,
    playable_card,
    policy_block,
    setup_match,
    take,
    untraced,
    window_uids,
)

# =====================================================================================================================
# Greedy's worth of a card, an ability or an Instant on the board (the rules' sections of playing cards and
# Instants held these; only the policies below and the card table's T_PLAY_VALUE read them)
# =====================================================================================================================


@llvm_inline_kernel
def kills_best_enemy(table: IntArray, st: Any, p: EngineInt, card: EngineInt, blk: EngineInt) -> int:
    """The cost of the costliest enemy creature this card's damage or destroy clauses (its ability's, with
    blk = ABILITY) would destroy, or -1."""
    q = 1 - p
    best = -1
    damage = table[card, blk + T_TOTAL + OP_DAMAGE]
    destroys = table[card, blk + T_TOTAL + OP_DESTROY] > 0
    if damage == 0 and not destroys:
        return -1
    for i in range(st.side[q, S_BOARD]):
        if destroys or damage >= damage_to_destroy(table, st, q, i):
            cost = table[st.board[q, i, B_CARD], T_COST]
            if cost > best:
                best = cost
    return best


@llvm_inline_kernel
def spell_value(
    table: IntArray,
    st: Any,
    p: EngineInt,
    card: EngineInt,
    with_bonuses: EngineBool,
    with_plasma: EngineBool,
    blk: EngineInt,
) -> int:
    """Greedy's worth of playing a non-creature effect now, or (blk = ABILITY) of activating a creature's ability
    (0: not worth a card or the plasma): `weigh_spell`, typed once for the ability and end-of-turn weighing and
    copied in by LLVM."""
    return weigh_spell(table, st, p, card, with_bonuses, with_plasma, blk)


@llvm_inline_kernel
def weigh_spell(
    table: IntArray,
    st: Any,
    p: EngineInt,
    card: EngineInt,
    with_bonuses: EngineBool,
    with_plasma: EngineBool,
    blk: EngineInt,
) -> int:
    """`spell_value`'s body. `with_bonuses`: count power/resolve bonuses (worth something only before attacking);
    `with_plasma`: count extra plasma (worth something only when it pays for another card now). Inlined into
    `greedy_play_value` (a play decision's events, the most frequent weighing), where its flags are constants."""
    value = 0
    victim = kills_best_enemy(table, st, p, card, blk)
    if victim >= 0:
        value += 30 + 10 * victim
    hits = table[card, blk + T_TOTAL + OP_DAMAGE_PLAYER]
    if hits > 0:
        value += 10 + 5 * hits
    draws = table[card, blk + T_TOTAL + OP_DRAW]
    if draws > 0 and st.side[p, S_DRAWN] < st.side[p, S_DECK]:
        value += 15 * draws
    heals = table[card, blk + T_TOTAL + OP_HEAL]
    if heals > 0:
        cap = st.options[O_HEAL_CAP]
        room = heals if cap == 0 else min(heals, cap - st.side[p, S_LIFE])
        if room > 0:
            value += 5 * room
    if with_bonuses:
        bonus = table[card, blk + T_TOTAL + OP_POWER] + table[card, blk + T_TOTAL + OP_RESOLVE]
        if bonus > 0:
            for i in range(st.side[p, S_BOARD]):
                if can_attack(st, p, i):
                    value += 5 * bonus
                    break
    gain = table[card, blk + T_TOTAL + OP_PLASMA]
    cost = table[card, blk + T_COST]
    if with_plasma and gain > cost:
        # Extra plasma is worth a card only when it pays for something that could not be paid for otherwise.
        budget = st.side[p, S_PLASMA] - cost + gain
        for h in range(st.side[p, S_HAND]):
            other = st.hand[p, h]
            # An ability's creature is on the field, so a copy of it in hand is another card.
            if (blk != 0 or other != card) and st.side[p, S_PLASMA] < table[other, T_COST] <= budget:
                value += 1000
                break
    return value


@llvm_inline_kernel
def greedy_play_value(
    table: IntArray,
    st: Any,
    p: EngineInt,
    h: EngineInt,
) -> int:
    """Greedy's worth of playing hand card h in the play phase: curve out (the costliest creature first).

    Creatures, equipment, battlefields and most instants are worth what `play_value_of_card` says; events and
    instants that gain more plasma than they cost are weighed on the board (`weigh_spell`, inlined here: about 30
    weighings a greedy match). Inline itself, in `greedy_play` and `greedy_wants_coin`: the match loop's play
    decision then weighs without a call (greedy about 6% faster, for several seconds more compile of the match loop);
    the search's play decision calls one compiled copy of `greedy_play` (`greedy_play_called`), so its own compile
    does not grow too.
    """
    card = st.hand[p, h]
    kind = table[card, T_KIND]
    value = table[card, T_PLAY_VALUE]
    if value != PLAY_VALUE_OF_BOARD:
        return 0 if kind == K_BATTLEFIELD and st.side[p, S_BATTLEFIELD] >= 0 else value
    value = weigh_spell(table, st, p, card, kind == K_EVENT, np.bool_(True), np.int64(0))
    if kind == K_INSTANT:
        return 1000 if value >= 1000 else 0
    return value


def play_value_of_card(kind: int, cost: int, plasma_gain: int) -> int:
    """Greedy's worth of playing a card when it does not depend on the board (else PLAY_VALUE_OF_BOARD).

    Curve out: the costliest creature first, then equipment and a first battlefield (worth nothing while one is
    in play). Instants wait for a fight or the end of the opponent's turn, except extra plasma that pays for a
    play now, which is weighed on the board like an event.
    """
    if kind == K_CREATURE:
        return 50 + 10 * cost
    if kind == K_EQUIPMENT:
        return 20 + 10 * cost
    if kind == K_BATTLEFIELD:
        return 25 + 10 * cost
    if kind == K_INSTANT and plasma_gain <= cost:
        return 0
    return PLAY_VALUE_OF_BOARD


@llvm_inline_kernel
def ability_value(table: IntArray, st: Any, p: EngineInt, i: EngineInt) -> int:
    """Greedy's worth of activating p's creature in slot i now: as an event's effects would be worth
    (`spell_value`), its power and resolve bonuses counting only when the creature itself can still attack."""
    card = st.board[p, i, B_CARD]
    value = spell_value(table, st, p, card, np.bool_(False), np.bool_(True), np.int64(ABILITY))
    bonus = table[card, ABILITY + T_TOTAL + OP_POWER] + table[card, ABILITY + T_TOTAL + OP_RESOLVE]
    if bonus > 0 and can_attack(st, p, i):
        value += 5 * bonus
    return value


@llvm_inline_kernel
def combat_instant_value(
    table: IntArray,
    st: Any,
    x: EngineInt,
    card: EngineInt,
    own: EngineInt,
    enemy: EngineInt,
    window: EngineInt,
) -> int:
    """Greedy's worth of instant `card` for x around an attack: own/enemy are the fighting slots (-1: none)."""
    y = 1 - x
    enemy_dies_anyway = False
    own_dies = False
    if own >= 0 and enemy >= 0:
        own_dies = creature_power(table, st, y, enemy) >= damage_to_destroy(table, st, x, own)
        enemy_dies_anyway = creature_power(table, st, x, own) >= damage_to_destroy(table, st, y, enemy)
    if enemy >= 0 and (
        table[card, T_TOTAL + OP_DESTROY] > 0
        or table[card, T_TOTAL + OP_DAMAGE] >= damage_to_destroy(table, st, y, enemy)
    ):
        if own < 0 or own_dies or not enemy_dies_anyway:
            return 100 + 10 * table[st.board[y, enemy, B_CARD], T_COST]
    if own >= 0 and enemy >= 0:
        power = table[card, T_TOTAL + OP_POWER]
        resolve = table[card, T_TOTAL + OP_RESOLVE]
        value = 0
        if (
            own_dies
            and resolve > 0
            and creature_power(table, st, y, enemy) < damage_to_destroy(table, st, x, own) + resolve
        ):
            value += 50 + 10 * table[st.board[x, own, B_CARD], T_COST]
        if (
            not enemy_dies_anyway
            and power > 0
            and creature_power(table, st, x, own) + power >= damage_to_destroy(table, st, y, enemy)
        ):
            value += 50 + 10 * table[st.board[y, enemy, B_CARD], T_COST]
        return value
    if window == WINDOW_ATTACK and own >= 0 and enemy < 0:
        # An unblocked direct attack: a power bonus is worth a card when it makes the hit lethal.
        power = table[card, T_TOTAL + OP_POWER]
        if power > 0 and creature_power(table, st, x, own) + power >= st.side[y, S_LIFE]:
            return 1000
    return 0


# =====================================================================================================================
# Policies: each chooses one of the actions `legal_actions` listed (out[0:n]); none changes a rule
#
# A policy may read the whole state (the search deals what its player cannot see anew before reading) and keep its
# own words in st.words; it returns an action of the list. `choose_*` picks the side's policy (S_POLICY: only the
# policies and the play loops read it). Each is a door of `workbench.play.policies`: it asks `plays_random` whether the
# side plays this decision by random (`random` always; `epsilon:E` with probability E, from its own generator, which it
# trades in for the match's until `random_played` takes random's choice), and every other side plays greedy (a
# search side's own plays and attackers' targets are searched, `search.decide_searched`). Random's draws are all made
# between the two, and no rule draws there. A new policy is a new function per decision kind and a branch in each
# `choose_*`: no rule changes.
# =====================================================================================================================


@llvm_inline_kernel
def greedy_wants_coin(table: IntArray, st: Any, p: EngineInt) -> bool:
    """Greedy flips the coin when +1 plasma pays for a card that costs exactly one more."""
    for h in range(st.side[p, S_HAND]):
        card = st.hand[p, h]
        if table[card, T_COST] == st.side[p, S_PLASMA] + 1 and table[card, T_KIND] != K_INSTANT:
            # Weighed as if the coin were flipped (the plasma is given back at once).
            st.side[p, S_PLASMA] += 1
            value = greedy_play_value(table, st, p, h)
            st.side[p, S_PLASMA] -= 1
            if value > 0:
                return True
    return False


@llvm_inline_kernel
def greedy_play(table: IntArray, st: Any, p: EngineInt) -> int:
    """Greedy's play action among those `legal_plays` lists: the coin when it pays for a card now
    (`greedy_wants_coin`); else the card or ability worth most (`greedy_play_value`, `ability_value`; the first of
    equals in the list's order), or STOP when none is worth anything.

    Weighed on the state in one pass, without writing the list: the actions weighed are the listed ones (the same
    tests as `legal_plays`, in its order), so the choice is the list's; `test_the_policies_apply_only_actions_the_
    rules_listed` lists the decision again at each action greedy takes and finds it there."""
    if st.side[p, S_COIN] == 1 and greedy_wants_coin(table, st, p):
        return COIN
    best = STOP
    best_value = 0
    plasma = st.side[p, S_PLASMA]
    # Below the deck's cheapest cost or ability nothing is listed: the hand need not be read.
    if plasma < st.side[p, S_CHEAPEST]:
        return best
    has_creature = st.side[p, S_BOARD] > 0
    no_battlefield = st.side[p, S_BATTLEFIELD] < 0
    room_for_field = no_battlefield | (st.options[O_REPLACE_BATTLEFIELD] == 1)
    for h in range(st.side[p, S_HAND]):
        card = st.hand[p, h]
        kind = table[card, T_KIND]
        # `legal_plays`' test, and a battlefield being worth nothing while one is in play, as arithmetic.
        playable = playable_card(table, card, plasma, has_creature, room_for_field)
        value = table[card, T_PLAY_VALUE] * (playable & ((kind != K_BATTLEFIELD) | no_battlefield))
        if value == PLAY_VALUE_OF_BOARD:
            value = greedy_play_value(table, st, p, h)
        if value > best_value:
            best_value = value
            best = h
    if st.side[p, S_FIELD_ABILITIES] > 0:
        for i in range(st.side[p, S_BOARD]):
            if can_activate(table, st, p, i):
                value = ability_value(table, st, p, i)
                if value > best_value:
                    best_value = value
                    best = ACTIVATE + i
    return best


@rules_kernel
def random_play(st: Any, out: IntArray, n: EngineInt) -> int:
    """Random's play action: the coin one time in four while listed; else any other listed action (each card,
    ability and stop) equally likely. Kept out of greedy's inlined path."""
    start = 0
    if out[0] == COIN:
        if rng_below(st.rng, 4) == 0:
            return COIN
        start = 1
    return out[start + rng_below(st.rng, n - start)]


@llvm_inline_kernel
def choose_play(table: IntArray, st: Any, p: EngineInt, out: IntArray) -> EngineInt:
    """p's policy's choice among the play decision's legal actions (random: listed into `out` by `legal_plays`;
    greedy weighs the same actions without the list, `greedy_play`)."""
    block = policy_block(st, p)
    if plays_random(block, st.rng):
        return random_played(block, st.rng, random_play(st, out, legal_plays(table, st, p, out)))
    return greedy_play(table, st, p)


@llvm_inline_kernel
def greedy_attacker(table: IntArray, st: Any, p: EngineInt) -> int:
    """Greedy sends its strongest creature among those `legal_attackers` lists first (the first of equals in field
    order), or -1 when none is listed. Read on the state in one pass with `legal_attackers`' test, not from the list
    (as `greedy_play`)."""
    sickness = st.options[O_SICKNESS]
    a = -1
    best_power = -1
    for i in range(st.side[p, S_BOARD]):
        blocked = st.board[p, i, B_TAPPED] | st.board[p, i, B_HELD] | (sickness & st.board[p, i, B_SICK])
        # An unlisted creature weighs -1, which never beats the start.
        power = creature_power(table, st, p, i) if blocked == 0 else -1
        if power > best_power:
            best_power = power
            a = i
    return a


@llvm_inline_kernel
def choose_attacker(table: IntArray, st: Any, p: EngineInt, out: IntArray) -> EngineInt:
    """p's policy's choice among the listed attackers, or -1 when none is listed (p's battle phase is over). Random:
    any of `legal_attackers`' list in `out`, equally likely; greedy: `greedy_attacker`."""
    block = policy_block(st, p)
    if plays_random(block, st.rng):
        n = legal_attackers(st, p, out)
        return random_played(block, st.rng, out[rng_below(st.rng, n)] if n > 0 else -1)
    return greedy_attacker(table, st, p)


@llvm_inline_kernel
def greedy_keeps_blocker(table: IntArray, st: Any, p: EngineInt, a: EngineInt) -> bool:
    """Whether greedy keeps p's creature in slot a home as a blocker rather than attack directly with it.

    Attacking taps a creature, and a tapped creature cannot block ("When they block it they choose one of their
    untapped units"); with creatures untapping at the start of their owner's turn (`untap_every_turn` off), a
    creature that attacks cannot block in the opponent's next turn. So greedy races only while the race is clearly
    its own: when p's whole board brings q to 0 Healthshards in fewer of p's turns than q's whole board needs for p
    (on a tie it keeps blockers: in mirror matches against the race-on-a-tie reading it won more). Otherwise it
    keeps a home when q's board is lethal next turn, or when a would block one of q's creatures well (survive it,
    or destroy it at a cost no higher than its own), unless p already keeps as many untapped creatures home as q
    has creatures. A policy's choice, read on the state (the options are the rules both players know): no rule
    reads it.
    """
    if st.options[O_UNTAP_EVERY_TURN] == 1:
        return False  # every creature untaps at the start of the opponent's turn: attacking costs no blocker
    q = 1 - p
    threat = 0
    for e in range(st.side[q, S_BOARD]):
        threat += creature_power(table, st, q, e)
    if threat <= 0:
        return False
    mine = 0
    home = 0
    for i in range(st.side[p, S_BOARD]):
        mine += creature_power(table, st, p, i)
        if i != a and st.board[p, i, B_TAPPED] == 0 and not can_attack(st, p, i):
            home += 1
    if home >= st.side[q, S_BOARD]:
        return False
    if mine > 0:
        my_turns = (st.side[q, S_LIFE] + mine - 1) // mine
        their_turns = (st.side[p, S_LIFE] + threat - 1) // threat
        if my_turns < their_turns:
            return False
        if their_turns <= 1:
            return True  # q's board is lethal next turn: any creature home may save the match
    power_a = creature_power(table, st, p, a)
    left_a = damage_to_destroy(table, st, p, a)
    cost_a = table[st.board[p, a, B_CARD], T_COST]
    for e in range(st.side[q, S_BOARD]):
        if creature_power(table, st, q, e) < left_a:
            return True
        if power_a >= damage_to_destroy(table, st, q, e) and table[st.board[q, e, B_CARD], T_COST] >= cost_a:
            return True
    return False


@llvm_inline_kernel
def greedy_attack_choice(table: IntArray, st: Any, p: EngineInt, a: EngineInt) -> int:
    """Where greedy sends p's attacker in slot a: DIRECT, an enemy slot, or HOLD.

    In order: a direct attack when the ready attackers are lethal and nothing can block; an attack that destroys a
    creature and survives (the costliest); a direct attack when no untapped enemy would destroy the attacker and
    survive, unless greedy keeps it home as a blocker (`greedy_keeps_blocker`); an even-or-better trade; else hold
    back.
    """
    q = 1 - p
    power_a = creature_power(table, st, p, a)
    left_a = damage_to_destroy(table, st, p, a)
    cost_a = table[st.board[p, a, B_CARD], T_COST]
    blockers = 0
    safe = True
    best = -1
    best_cost = -1
    trade = -1
    trade_cost = -1
    for i in range(st.side[q, S_BOARD]):
        kills = power_a >= damage_to_destroy(table, st, q, i)
        survives = creature_power(table, st, q, i) < left_a
        if st.board[q, i, B_TAPPED] == 0:
            blockers += 1
            if not survives and not kills:
                safe = False
        if not can_be_attacked(st, q, i):
            continue
        cost = table[st.board[q, i, B_CARD], T_COST]
        if kills and survives and cost > best_cost:
            best = i
            best_cost = cost
        elif kills and cost >= cost_a and cost > trade_cost:
            trade = i
            trade_cost = cost
    if blockers == 0:
        ready = 0
        for i in range(st.side[p, S_BOARD]):
            if can_attack(st, p, i):
                ready += creature_power(table, st, p, i)
        if ready >= st.side[q, S_LIFE]:
            return DIRECT
    if best >= 0:
        return best
    if safe and power_a > 0 and not greedy_keeps_blocker(table, st, p, a):
        return DIRECT
    if trade >= 0:
        return trade
    return HOLD


@llvm_inline_kernel
def choose_target(table: IntArray, st: Any, p: EngineInt, out: IntArray) -> EngineInt:
    """p's policy's choice among the legal targets of its attacker in slot G_ATTACKER (random: hold, direct or any
    creature it may attack, listed into `out` by `legal_targets`, equally likely; greedy: `greedy_attack_choice`,
    which reads the state, not the list)."""
    block = policy_block(st, p)
    if plays_random(block, st.rng):
        return random_played(block, st.rng, out[rng_below(st.rng, legal_targets(st, p, out))])
    return greedy_attack_choice(table, st, p, st.game[G_ATTACKER])


@llvm_inline_kernel
def greedy_mulligan_choice(table: IntArray, st: Any, p: EngineInt) -> int:
    """The hand position greedy sends back, or -1 to keep: the costliest card when it costs 5 or more, or when the
    hand has nothing to play on the first two turns."""
    n = st.side[p, S_HAND]
    costliest = -1
    cheap = 0
    for h in range(n):
        cost = table[st.hand[p, h], T_COST]
        if cost <= 2:
            cheap += 1
        if costliest < 0 or cost > table[st.hand[p, costliest], T_COST]:
            costliest = h
    if costliest < 0:
        return -1
    if table[st.hand[p, costliest], T_COST] >= 5 or cheap == 0:
        return costliest
    return -1


@llvm_inline_kernel
def random_mulligan(st: Any, p: EngineInt, out: IntArray, n: EngineInt) -> int:
    """Random's mulligan action among the n listed: at its first ask of the mulligan (st.words[p, 0] still
    NO_COUNT, or no card yet set aside), how many cards to set aside (0 to 3, equally likely, kept in st.words);
    then any hand card while that many are not yet set aside, else KEEP."""
    if st.game[G_ASIDE] == 0 or st.words[p, 0] == NO_COUNT:
        st.words[p, 0] = rng_below(st.rng, MULLIGANS_MAX + 1)
    if st.game[G_ASIDE] < st.words[p, 0] and n > 1:
        return out[rng_below(st.rng, n - 1)]
    return KEEP


@llvm_inline_kernel
def choose_mulligan(table: IntArray, st: Any, p: EngineInt, out: IntArray, n: EngineInt) -> EngineInt:
    """p's policy's choice among the n listed mulligan actions.

    Greedy: `greedy_mulligan_choice` while cards may still be set aside. Random (`random_mulligan`): at the first
    ask, how many cards to set aside (0 to 3, equally likely, kept in st.words), then each time any hand card while
    that many are not yet set aside.
    """
    block = policy_block(st, p)
    if plays_random(block, st.rng):
        return random_played(block, st.rng, random_mulligan(st, p, out, n))
    if n > 1:
        h = greedy_mulligan_choice(table, st, p)
        if h >= 0:
            return h
    return KEEP


@llvm_inline_kernel
def greedy_block(table: IntArray, st: Any, q: EngineInt) -> int:
    """Greedy's block of the attacker in slot G_ATTACKER among those `legal_blocks` lists (q's untapped creatures,
    read on the state in field order, not from the list, as `greedy_play`): a blocker that destroys the attacker and
    survives; else one that survives; else an even-or-better trade; else, when the hit would be lethal, the cheapest
    creature; else NO_BLOCK."""
    p = 1 - q
    a = st.game[G_ATTACKER]
    power_a = creature_power(table, st, p, a)
    left_a = damage_to_destroy(table, st, p, a)
    cost_a = table[st.board[p, a, B_CARD], T_COST]
    best = NO_BLOCK
    best_rank = 0
    best_cost = 0
    for i in range(st.side[q, S_BOARD]):
        if st.board[q, i, B_TAPPED] == 1:
            continue
        kills = creature_power(table, st, q, i) >= left_a
        survives = power_a < damage_to_destroy(table, st, q, i)
        cost = table[st.board[q, i, B_CARD], T_COST]
        rank = 0
        if kills and survives:
            rank = 4
        elif survives:
            rank = 3
        elif kills and cost <= cost_a:
            rank = 2
        elif power_a >= st.side[q, S_LIFE]:
            rank = 1
        if rank > best_rank or (rank == best_rank and rank > 0 and cost < best_cost):
            best = i
            best_rank = rank
            best_cost = cost
    return best


@llvm_inline_kernel
def choose_block(table: IntArray, st: Any, q: EngineInt, out: IntArray) -> EngineInt:
    """q's policy's choice among the legal blocks (random: each blocker and the hit of `legal_blocks`' list in `out`,
    equally likely; greedy: `greedy_block`)."""
    block = policy_block(st, q)
    if plays_random(block, st.rng):
        return random_played(block, st.rng, out[rng_below(st.rng, legal_blocks(st, q, out))])
    return greedy_block(table, st, q)


@llvm_inline_kernel
def greedy_instant(table: IntArray, st: Any, x: EngineInt) -> int:
    """Greedy's Instant in the open window among those `legal_instants` lists (read on the state with its test, in
    hand order, as `greedy_play`): the one worth most, the cheaper of equals; PASS when none is worth anything.
    Around an attack, `combat_instant_value` (a trick that saves its fighter or destroys the enemy one, removal of the
    attacker); at the end of a turn its lasting effects (`spell_value`). At the start of the opponent's turn and after
    each card of their play phase (`instants_any_time`), only an answer: removal that destroys an enemy creature (the
    costliest it can, as its target is chosen), so a creature that has just landed goes before it can attack or be
    equipped; a combat trick waits for a fight, and draws, healing and damage to the opponent for the end of the turn,
    where the same plasma buys them with more known."""
    window = st.game[G_WINDOW]
    own_uid, enemy_uid = window_uids(st)
    own = find_uid(st, x, own_uid)
    enemy = find_uid(st, 1 - x, enemy_uid)
    best = PASS
    best_value = 0
    best_cost = 0
    for h in range(st.side[x, S_HAND]):
        card = st.hand[x, h]
        if table[card, T_KIND] != K_INSTANT or not can_play(table, st, x, h):
            continue
        if window == WINDOW_END:
            # This turn's bonuses and plasma would end with the turn, so only lasting effects count.
            value = spell_value(table, st, x, card, np.bool_(False), np.bool_(False), np.int64(0))
        elif is_open_window(window):
            victim = kills_best_enemy(table, st, x, card, np.int64(0))
            value = 30 + 10 * victim if victim >= 0 else 0
        else:
            value = combat_instant_value(table, st, x, card, own, enemy, window)
        cost = table[card, T_COST]
        if value > best_value or (value == best_value and value > 0 and cost < best_cost):
            best_value = value
            best = h
            best_cost = cost
    return best


@llvm_inline_kernel
def choose_instant(table: IntArray, st: Any, x: EngineInt, out: IntArray) -> EngineInt:
    """x's policy's choice among the legal instant actions (random: PASS when it is the only one of `legal_instants`'
    list in `out`, else each Instant and PASS equally likely; greedy: `greedy_instant`)."""
    block = policy_block(st, x)
    if plays_random(block, st.rng):
        n = legal_instants(table, st, x, out)
        return random_played(block, st.rng, PASS if n == 1 else out[rng_below(st.rng, n)])
    return greedy_instant(table, st, x)


@llvm_inline_kernel
def greedy_enemy_target(
    table: IntArray,
    st: Any,
    p: EngineInt,
    amount: EngineInt,
    destroys: EngineBool,
) -> EngineInt:
    """Greedy's enemy creature for p's damage or destroy clause: one the clause destroys, the costliest first (then
    the strongest); else the strongest."""
    q = 1 - p
    n = st.side[q, S_BOARD]
    best = -1
    best_score = -1
    for i in range(n):
        kills = destroys or amount >= damage_to_destroy(table, st, q, i)
        score = (
            (100_000 if kills else 0) + table[st.board[q, i, B_CARD], T_COST] * 100 + creature_power(table, st, q, i)
        )
        if score > best_score:
            best_score = score
            best = i
    return best


@llvm_inline_kernel
def greedy_own_target(
    table: IntArray,
    st: Any,
    p: EngineInt,
) -> EngineInt:
    """Greedy's own creature for p's bonus or equipment: the strongest creature that can still attack."""
    n = st.side[p, S_BOARD]
    best = -1
    best_score = -1
    for i in range(n):
        score = creature_power(table, st, p, i) + (1000 if can_attack(st, p, i) else 0)
        if score > best_score:
            best_score = score
            best = i
    return best


@llvm_inline_kernel
def choose_effect_target(table: IntArray, st: Any, out: IntArray) -> EngineInt:
    """The choice of the player whose card waits for a target, among the legal field slots (random: any of
    `legal_effect_targets`' list in `out`, equally likely; greedy, on the state: `greedy_enemy_target` for the
    waiting damage or destroy clause, `greedy_own_target` for a bonus or an equipment)."""
    p = st.game[G_FX_PLAYER]
    block = policy_block(st, p)
    if plays_random(block, st.rng):
        return random_played(block, st.rng, out[rng_below(st.rng, legal_effect_targets(st, out))])
    if st.game[G_PENDING] != D_ENEMY_TARGET:
        return greedy_own_target(table, st, p)
    card = st.game[G_FX_CARD]
    at = (ABILITY if st.game[G_FX_MODE] == MODE_ACTIVATE else 0) + T_CLAUSE0 + 2 * st.game[G_FX_CLAUSE]
    return greedy_enemy_target(table, st, p, table[card, at + 1], table[card, at] == OP_DESTROY)


# =====================================================================================================================
# The deciding side's policy, at whatever decision is open, and the match played on by it
# =====================================================================================================================


@llvm_inline_kernel
def decide(table: IntArray, st: Any, _context: Any) -> EngineInt:
    """The choice of the side whose decision is open, by its policy (the `choose_*` of the decision's kind): a target
    left open (G_PENDING) first, then the decision G_DECISION of G_ACTOR. A search side's choices here are greedy's
    (`search.decide_searched` weighs the ones it searches)."""
    if st.game[G_PENDING] != D_NONE:
        return choose_effect_target(table, untraced(st), st.actions)
    p = st.game[G_ACTOR]
    decision = st.game[G_DECISION]
    if decision == D_PLAY:
        return choose_play(table, untraced(st), p, st.actions)
    if decision == D_ATTACKER:
        return choose_attacker(table, untraced(st), p, st.actions)
    if decision == D_TARGET:
        return choose_target(table, untraced(st), p, st.actions)
    if decision == D_BLOCK:
        return choose_block(table, untraced(st), p, st.actions)
    if decision == D_INSTANT:
        return choose_instant(table, untraced(st), p, st.actions)
    return choose_mulligan(table, untraced(st), p, st.actions, legal_mulligan(st, p, st.actions))


@llvm_inline_kernel
def is_over(st: Any) -> bool:
    """Whether the match is over, as far as a play loop goes: it is, or no decision is open (the rules stopped with no
    stage next: a board a test built by hand), so a loop never asks a policy about nothing."""
    return st.game[G_OVER] == 1 or (st.game[G_PENDING] == D_NONE and st.game[G_DECISION] == D_NONE)


@rules_kernel
def play_on(table: IntArray, st: Any, _context: Any) -> None:
    """The match played on from its open decision to its end, each decision by its side's policy (`decide`): a greedy
    or random batch's match, and a search's rollout (one compiled copy of the whole match, called). Takes a context
    it does not read, as `play.loop.batch_loop` passes one."""
    play_out(table, st, NO_CONTEXT, decide, apply, is_over)


@rules_kernel
def play_stage(table: IntArray, st: Any, p: EngineInt, stage: EngineInt, until: EngineInt) -> None:
    """p's turn taken up at `stage` (STAGE_*, no decision open), each decision by its side's policy, until the stage
    `until` is next (NO_STAGE: the match's end): a phase played alone, as the rule tests play them."""
    st.game[G_PLAYER] = p
    st.game[G_STAGE] = stage
    st.game[G_DECISION] = D_NONE
    play_until(table, st, NO_CONTEXT, decide, take, advance, is_over, until)


@rules_kernel
def attack(table: IntArray, st: Any, p: EngineInt, a: EngineInt, target: EngineInt) -> None:
    """p's creature in slot a attacks `target` (DIRECT or an enemy slot), and the decisions the attack opens (the
    defender's block, the instant windows, the targets their Instants leave open) each by its side's policy, until
    the attack is done: one whole attack, as the rule tests play it."""
    declare_attack(table, st, p, a, target)
    while st.game[G_OVER] == 0 and (
        st.game[G_PENDING] != D_NONE or st.game[G_DECISION] == D_BLOCK or st.game[G_DECISION] == D_INSTANT
    ):
        take(table, st, decide(table, st, NO_CONTEXT))


@rules_kernel
def play_phase(table: IntArray, st: Any, p: EngineInt) -> None:
    """p's play phase, and the windows and targets it opens (`play_stage`)."""
    play_stage(table, st, p, np.int64(STAGE_PLAY), np.int64(STAGE_BATTLE))


@rules_kernel
def battle_phase(table: IntArray, st: Any, p: EngineInt) -> None:
    """p's battle phase: each attacker and target, and the blocks, windows and targets they open (`play_stage`)."""
    play_stage(table, st, p, np.int64(STAGE_BATTLE), np.int64(STAGE_END))


@rules_kernel
def end_turn(table: IntArray, st: Any, p: EngineInt) -> None:
    """The end of p's turn: the opponent's end-of-turn window, then its close (`play_stage`)."""
    play_stage(table, st, p, np.int64(STAGE_END), np.int64(STAGE_TURN))


@inline_kernel
def start_batch_match(table: IntArray, st: Any, batch: Any, m: EngineInt) -> None:
    """Match m of a batch (`play.loop.batch_loop`) set up on the record every match reuses: its counters begun, its
    deal (`setup_match`)."""
    deck_a, deck_b, seed, first, policy_a, policy_b = batch_match(batch, m)
    begin_match_counters(st.counters, m)
    setup_match(table, st, deck_a, deck_b, seed, first, policy_a, policy_b)


@inline_kernel
def finish_batch_match(_table: IntArray, st: Any, batch: Any, m: EngineInt) -> None:
    """Match m of a batch is over: its counters closed, its winner and turn count written (`record_result`)."""
    end_match_counters(st.counters, st.game[G_TURN], np.int64(2))
    record_result(batch, m, st.game[G_WINNER], st.game[G_TURN])


@rules_kernel
def play_matches(table: IntArray, st: Any, batch: Any) -> None:
    """A batch (`play.loop.new_batch`) of greedy, random and epsilon-greedy sides (`play.loop.batch_loop`, each match
    played by `play_on`; a search side's batch: `search.play_matches_searched`)."""
    batch_loop(table, st, batch, NO_CONTEXT, start_batch_match, play_on, finish_batch_match)
