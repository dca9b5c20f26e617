"""The souls policies: greedy (`greedy_decide`: the answer to an open target, else the next row of its turn's
phases), random (`random_decide`), and the decision of a greedy, random or epsilon side in a match (`decide`, which a
play loop asks at every decision; `play_on` plays a match on with it).

Imports `layout` and `rules` (the listing, the tests greedy lists its rows by, and `apply` for `play_on`).
"""

from __future__ import annotations

from typing import Any

from workbench.engines import (
    EngineBool,
    EngineInt,
    IntArray,
    inline_kernel,
    llvm_inline_kernel,
    rng_below,
    rules_kernel,
)
from workbench.play.loop import NO_CONTEXT, play_out
from workbench.play.policies import GREEDY, P_CODE, plays_random, random_played
from workbench.rulesets.souls.engine.layout import (
    A_ACTIVATE,
    A_ATTACK,
    A_CAST,
    A_END,
    A_EQUIP,
    A_MOVE,
    A_SUMMON,
    A_SUPPORT,
    A_TARGET,
    A_TRAP,
    ALL_ACTIONS,
    ANY_TARGET,
    C_APPLIES,
    C_CAN_ATTACK,
    C_COST,
    C_DAMAGE,
    C_DIRECT,
    C_DRAW,
    C_EQUIP,
    C_EQUIP_ATK,
    C_EQUIP_DEF,
    C_KIND,
    C_MOBILE,
    C_RANGE,
    C_SHIELD,
    C_SUPPORT,
    COMBO_NONE,
    G_ACTIONS,
    G_ACTIVE,
    G_CAPACITY,
    G_OVER,
    G_PENDING,
    G_PENDING_A,
    G_SCRATCH,
    G_TURN,
    KIND_MAGIC,
    KIND_MONSTER,
    KIND_TRAP,
    MAX_RANDOM_STEPS,
    MAX_UNITS,
    NONE,
    O_ROW_SLOTS,
    O_SACRIFICE,
    O_SUMMONS,
    O_TRAP_SLOTS,
    PENDING_NONE,
    ROWS,
    S_HAND,
    S_POLICY,
    S_ROW0,
    S_SHIELD,
    S_STANDARD,
    S_SUMMONS,
    S_TRAPS,
    S_UNITS,
    SACRIFICE_FIELD,
    SACRIFICE_HAND,
    SHIELD_POINTS,
    T_FOE_ATTACKS,
    T_PLAIN,
    T_SUMMON,
    T_USE,
    TURN_WORDS,
    TV_APPLIES,
    TV_DAMAGE,
    TV_DRAW,
    TV_SHIELD,
    U_CARD,
    U_DIRECT,
    U_ID,
    U_ROW,
    Z_HAND,
    ZERO,
    cv,
    match_rng,
    opt,
    policy_of,
    sx,
    tv,
    ux,
    zx,
)
from workbench.rulesets.souls.engine.rules import (
    add_action,
    apply,
    apply_of,
    can_activate,
    can_attack_player,
    can_pay,
    can_use,
    card_value,
    combo_of,
    damage_to_destroy,
    find_row,
    find_unit,
    hand_sacrifice_worth,
    has_timed_effect,
    in_range,
    is_over,
    legal_actions_of,
    planned_unit,
    room_in_row,
    traps_for,
    unit_atk,
    unit_value,
)

# ---------------------------------------------------------------------------------------------------------------
# Policies: each chooses a row `legal_actions` lists, and returns it (the word where it is written); none changes a
# rule
#
# A play loop asks the policy of the side whose decision is open (st[G_ACTIVE]) for each decision and takes the row
# it returns with `apply` (`workbench.play.loop.play_out`; `decide` here). A policy lists the legal actions into the
# action list (st[G_ACTIONS]; `legal_actions_of` with its side and the kinds it weighs), or works out its row with
# the tests the listing makes for it and writes it there (`add_action`); "end the turn" is a row too. It may read
# the state (what the side could see: the search's rollouts deal the unseen cards anew) and keep its own words in the
# scratch area st[G_SCRATCH], which no rule touches: where its turn is up to in the turn words (`turn_words_now`). A
# new policy is a new decision function here and one branch in `decide`: no rule changes.

TW_TURN, TW_PHASE, TW_AT, TW_TIMING, TW_COUNT, TW_LETHAL, TW_STEPS = range(7)
"""The turn words (TURN_WORDS at the end of the scratch area, `turn_words`): the turn they are about (G_TURN when
they were started; -1 forgets them), greedy's phase, the phase's place (a unit index or a list entry, and for the
activations which of the two timings), the length of the phase's list of unit ids (the activations' units, the
attackers sitting the turn out), whether the attacks are lethal, and how many actions the side took this turn (a
random or search side ends its turn after MAX_RANDOM_STEPS)."""
(
    PHASE_PLAYS,
    PHASE_SUMMONS,
    PHASE_EQUIPS,
    PHASE_ACTIVATIONS,
    PHASE_SUPPORTS,
    PHASE_MOVES,
    PHASE_ATTACKS,
    PHASE_FINISHERS,
    PHASE_DONE,
) = range(9)
"""Greedy's phases, in the order of its turn (TW_PHASE); after the last it ends the turn."""


@inline_kernel
def turn_words(st: IntArray) -> EngineInt:
    """Where the turn words start: the last TURN_WORDS of the scratch area (`layout.scratch_size`)."""
    return st[G_SCRATCH] + 4 * (MAX_UNITS + st[G_CAPACITY]) + 2


@llvm_inline_kernel
def turn_words_now(st: IntArray) -> EngineInt:
    """Where the turn words start, cleared first when they are about another turn than this one (greedy at its first
    phase, no action taken yet)."""
    turn = turn_words(st)
    if st[turn + TW_TURN] != st[G_TURN]:
        st[turn + TW_TURN] = st[G_TURN]
        for k in range(1, TURN_WORDS):
            st[turn + k] = 0
    return turn


@rules_kernel
def forget_turn(st: IntArray) -> None:
    """Clear the turn words at the next decision (`turn_words_now`): a match begins, or a search's rollout plays the
    rest of a turn by its own policy from the turn's start."""
    st[turn_words(st) + TW_TURN] = -1


@rules_kernel
def policy_flags(st: IntArray) -> int:
    """Where the policies' per-card words start in the scratch area (after greedy's sorted worths): one per hand
    card or unit."""
    return st[G_SCRATCH] + 3 * (MAX_UNITS + st[G_CAPACITY]) + 1


# The greedy policy: curve out, trade well, go face when lethal. Its turn is a run of phases (plays, summons,
# equipment, activations, Support, moves, attacks, finishers); at each decision the phase it is at weighs a card by
# the phase's rule of thumb and works out the one row it wants, legal by the tests `legal_actions` lists that kind of
# row by, without listing, and writes it; a phase with nothing left hands over to the next (`greedy_decide`). A
# decision a row left open is answered from the listed targets (`greedy_answer`). The legality replay test checks
# every row greedy chooses against the list. The phases are inline kernels, copied into `greedy_phase_row`.


@rules_kernel
def preferred_row(G: IntArray, card: EngineInt) -> int:
    """Short-range attackers in front, Ranged X at row X-1 (still reaching the front), cards that never attack
    behind."""
    if cv(G, card, C_CAN_ATTACK) == 0:
        return ROWS - 1
    row = cv(G, card, C_RANGE) - 1
    return row if row < ROWS - 1 else ROWS - 1


@rules_kernel
def greedy_kill_target(G: IntArray, st: IntArray, side: EngineInt, u: EngineInt, extra_atk: EngineInt) -> int:
    """The most valuable opposing unit in range that this attack (plus `extra_atk`) destroys; -1: none."""
    foe = 1 - side
    amount = unit_atk(G, st, side, u) + extra_atk
    best = -1
    best_value = -1
    for v in range(st[sx(foe, S_UNITS)]):
        if damage_to_destroy(G, st, foe, v) <= amount and in_range(G, st, side, u, v):
            value = unit_value(G, st, foe, v)
            if value > best_value:
                best_value = value
                best = v
    return best


@rules_kernel
def support_turns_into_kill(G: IntArray, st: IntArray, side: EngineInt, u: EngineInt) -> bool:
    """True when +1 Atk lets this unit destroy a card in range that it cannot destroy now."""
    foe = 1 - side
    amount = unit_atk(G, st, side, u)
    found = False
    for v in range(st[sx(foe, S_UNITS)]):
        need = damage_to_destroy(G, st, foe, v)
        if need <= amount + 1 and in_range(G, st, side, u, v):
            if need <= amount:
                return False
            found = True
    return found


@rules_kernel
def greedy_spell_target(G: IntArray, st: IntArray, foe: EngineInt, amount: EngineInt, any_target: EngineBool) -> int:
    """The most valuable opposing unit `amount` damage destroys; with `any_target`, else the most valuable one
    (-1: none, or none it destroys)."""
    best = -1
    # With any_target some card is always chosen (engine 4): a start at -1 passed over every card worth less than 0.
    best_score = -(1 << 40) if any_target else -1
    for v in range(st[sx(foe, S_UNITS)]):
        kills = damage_to_destroy(G, st, foe, v) <= amount
        if not kills and not any_target:
            continue
        score = unit_value(G, st, foe, v) + (1000 if kills else 0)
        if score > best_score:
            best_score = score
            best = v
    return best


@inline_kernel
def greedy_answer(G: IntArray, st: IntArray, side: EngineInt) -> EngineInt:
    """The answer to the decision the last row left open, as the word of its listed row: the damage target of a
    summon Trigger or an Equip card, the most valuable opposing card it destroys, else the most valuable one."""
    out = st[G_ACTIONS]
    n = legal_actions_of(G, st, side, out, ALL_ACTIONS, NONE)
    foe = 1 - side
    if st[G_PENDING] == A_SUMMON:
        amount = tv(G, st[ux(side, find_unit(st, side, st[G_PENDING_A]), U_CARD)], T_SUMMON, TV_DAMAGE)
    else:
        amount = cv(G, st[zx(st, side, Z_HAND, st[G_PENDING_A])], C_DAMAGE)
    k = find_row(st, out, n, A_TARGET, greedy_spell_target(G, st, foe, amount, ANY_TARGET), ZERO, ZERO)
    return out + 4 * k


@inline_kernel
def greedy_wants_played(G: IntArray, st: IntArray, side: EngineInt, card: EngineInt) -> bool:
    """Greedy's rule of thumb for a card it plays at once: every trap; a magic card without Equip or damage that
    draws, restores shield that fits under 8, or applies an element that starts a status or makes a combo."""
    kind = cv(G, card, C_KIND)
    if kind == KIND_TRAP:
        return True
    if kind != KIND_MAGIC or cv(G, card, C_EQUIP) != 0 or cv(G, card, C_DAMAGE) != 0:
        return False
    shield = cv(G, card, C_SHIELD)
    play = cv(G, card, C_DRAW) > 0 or (shield > 0 and st[sx(side, S_SHIELD)] + shield <= SHIELD_POINTS)
    applies = cv(G, card, C_APPLIES)
    standard = st[sx(1 - side, S_STANDARD)]
    for element in range(4):
        if (applies >> element) & 1 == 1:
            if standard < 0 or (standard != element and combo_of(standard, element) != COMBO_NONE):
                play = True
    return play


@inline_kernel
def greedy_plays(G: IntArray, st: IntArray, side: EngineInt, out: EngineInt) -> bool:
    """Set traps; play card draw, shields that fit, and elements that start a status or make a combo: the first such
    card in hand order that has a legal row (a trap slot free, its cost paid), written at word `out`; false when
    none has."""
    for i in range(st[sx(side, S_HAND)]):
        card = st[zx(st, side, Z_HAND, i)]
        if greedy_wants_played(G, st, side, card):
            # Its one row, when `legal_actions` would list it (a trap slot free, its cost paid: the tests it lists
            # these rows by): a trap (i, 0, 0), a magic card with no target (i, -1, 0).
            trap = cv(G, card, C_KIND) == KIND_TRAP
            if (not trap or st[sx(side, S_TRAPS)] < opt(G, O_TRAP_SLOTS)) and can_pay(G, st, side, i):
                if trap:
                    add_action(st, out, ZERO, A_TRAP, i, ZERO, ZERO)
                else:
                    add_action(st, out, ZERO, A_CAST, i, NONE, ZERO)
                return True
    return False


@rules_kernel
def sorted_sacrifice_values(G: IntArray, st: IntArray, side: EngineInt) -> int:
    """Every card `sacrifice_from` allows, by greedy worth ascending, in the scratch area; returns how many.

    Entry i is (worth, hand index or -1 for a unit) at scratch words 2i, 2i+1; word 2n onwards holds the running
    sums, prefix[k] = the worth of the k weakest.
    """
    mode = opt(G, O_SACRIFICE)
    base = st[G_SCRATCH]
    n = 0
    n_units = st[sx(side, S_UNITS)] if mode != SACRIFICE_HAND else 0
    n_hand = st[sx(side, S_HAND)] if mode != SACRIFICE_FIELD else 0
    hand = zx(st, side, Z_HAND, ZERO)  # once: the loop's stores into `st` would have its layout words read again
    for i in range(n_units + n_hand):
        if i < n_units:
            value = unit_value(G, st, side, i)
            where = -1
        else:
            where = i - n_units
            value = hand_sacrifice_worth(G, st[hand + where])
        j = n
        while j > 0 and st[base + 2 * (j - 1)] > value:  # insertion sort: the list is short
            st[base + 2 * j] = st[base + 2 * (j - 1)]
            st[base + 2 * j + 1] = st[base + 2 * (j - 1) + 1]
            j -= 1
        st[base + 2 * j] = value
        st[base + 2 * j + 1] = where
        n += 1
    total = 0
    st[base + 2 * n] = 0
    for k in range(n):
        total += st[base + 2 * k]
        st[base + 2 * n + k + 1] = total
    return n


@inline_kernel
def greedy_summon_row(G: IntArray, st: IntArray, side: EngineInt, h: EngineInt, wanted: EngineInt) -> EngineInt:
    """The row of hand card h's summon row (A_SUMMON, h, row): the wanted row, else the nearest with room (forward
    first); -1: h has no summon row (it cannot be paid, or no row has room).

    The row is one `legal_actions` lists, worked out without the list: a summon is left (the caller's loop), the
    card is a monster whose cost `can_pay` finds, and `room_in_row` (after the sacrifices `can_pay` planned) is the
    test the rows are listed by; the legality replay test checks every summon greedy takes. Copied into
    `greedy_summons`: no call per summon."""
    if not can_pay(G, st, side, h):
        return NONE
    for step in range(ROWS):
        if step == 0:
            if room_in_row(G, st, side, wanted):
                return wanted
            continue
        if wanted - step >= 0 and room_in_row(G, st, side, wanted - step):
            return wanted - step
        if wanted + step < ROWS and room_in_row(G, st, side, wanted + step):
            return wanted + step
    return NONE


@inline_kernel
def greedy_summons(G: IntArray, st: IntArray, side: EngineInt, out: EngineInt) -> bool:
    """Summon the monster whose worth most exceeds what it sacrifices (any soul-cost-0 monster is worth summoning):
    its row written at word `out`; false when no monster is worth it, or no summon is left this turn.

    What a card would sacrifice is priced from one sorted list of worths (the sum of the `cost` weakest, leaving
    out the card itself); equal gains go to the lower soul cost. The winner is summoned by its listed row into its
    preferred row or the nearest with room; a winner without a summon row (no row has room) is passed over and the
    next best tried.
    """
    limit = opt(G, O_SUMMONS)
    if limit != 0 and st[sx(side, S_SUMMONS)] >= limit:
        return False
    mode = opt(G, O_SACRIFICE)
    base = st[G_SCRATCH]
    held = st[sx(side, S_HAND)]
    n = -1  # the sorted worths are made on first need: soul-cost-0 monsters need none
    prefix = base
    # How many cards a monster in hand may sacrifice (`sacrifice_from`'s units and hand cards, but itself): one
    # costing more cannot be paid, known without the sorted worths.
    offered = st[sx(side, S_UNITS)] if mode != SACRIFICE_HAND else 0
    if mode != SACRIFICE_FIELD:
        offered += held - 1
    # The hand cards passed over (no summon row: rare), a list of n_excluded hand indices; with no monster in
    # hand no card is chosen, and the phase ends.
    excluded = policy_flags(st)
    n_excluded = 0
    for _ in range(held):
        best: EngineInt = NONE
        best_gain = -(1 << 40)
        best_cost = 1 << 40
        for h in range(held):
            card = st[zx(st, side, Z_HAND, h)]
            if cv(G, card, C_KIND) != KIND_MONSTER or card_value(G, card) < best_gain:
                continue
            passed_over = False
            for j in range(n_excluded):
                if st[excluded + j] == h:
                    passed_over = True
                    break
            if passed_over:
                continue
            cost = cv(G, card, C_COST)
            sacrificed = 0
            if cost > 0:
                if cost > offered:
                    continue
                if n < 0:
                    n = sorted_sacrifice_values(G, st, side)
                    prefix = base + 2 * n
                position = -1
                for k in range(n):
                    if st[base + 2 * k + 1] == h:
                        position = k
                        break
                if 0 <= position < cost:
                    sacrificed = st[prefix + cost + 1] - st[base + 2 * position]
                else:
                    sacrificed = st[prefix + cost]
            gain = card_value(G, card) - sacrificed
            # Equal gains go to the cheaper card: the same worth for fewer cards spent.
            if (cost > 0 and gain <= 0) or gain < best_gain or (gain == best_gain and cost >= best_cost):
                continue
            best_gain = gain
            best_cost = cost
            best = h
        if best < 0:
            return False
        row = greedy_summon_row(G, st, side, best, preferred_row(G, st[zx(st, side, Z_HAND, best)]))
        if row >= 0:
            # The row (A_SUMMON, best, row); a target its summon Trigger leaves open is answered as any other.
            add_action(st, out, ZERO, A_SUMMON, best, row, ZERO)
            return True
        st[excluded + n_excluded] = best
        n_excluded += 1
    return False


@inline_kernel
def greedy_equips(G: IntArray, st: IntArray, side: EngineInt, out: EngineInt) -> bool:
    """Bonuses on your strongest attacker (def-only ones on your best card), penalties on the opponent's best: the
    first Equip card in hand order whose wanted host is listed, its row written at word `out`; false when none."""
    foe = 1 - side
    for i in range(st[sx(side, S_HAND)]):
        card = st[zx(st, side, Z_HAND, i)]
        if cv(G, card, C_KIND) != KIND_MAGIC or cv(G, card, C_EQUIP) == 0:
            continue
        bonus_atk = cv(G, card, C_EQUIP_ATK)
        direct = cv(G, card, C_DIRECT)
        bonus_direct = direct - 1 if direct >= 0 else 0  # over the usual 1 (a host's own `direct N` aside)
        helpful = bonus_atk + cv(G, card, C_EQUIP_DEF) + bonus_direct >= 0
        host_side = side if helpful else foe
        for_attackers = helpful and (bonus_atk > 0 or cv(G, card, C_APPLIES) != 0 or bonus_direct > 0)
        host: EngineInt = NONE
        best_score = -1
        for u in range(st[sx(host_side, S_UNITS)]):
            if for_attackers and cv(G, st[ux(host_side, u, U_CARD)], C_CAN_ATTACK) == 0:
                continue
            if helpful and not for_attackers:
                score = unit_value(G, st, host_side, u)
            else:
                score = unit_atk(G, st, host_side, u) * 4 + unit_value(G, st, host_side, u)
            if score > best_score:
                best_score = score
                host = u
        # Its row (A_EQUIP, i, host_side, host) is listed when the card can be paid and its own sacrifice does not
        # take the host (the tests `legal_actions` lists equipment by); a target it leaves open is answered as any
        # other.
        if host >= 0 and can_pay(G, st, side, i) and not (host_side == side and planned_unit(st, host)):
            add_action(st, out, ZERO, A_EQUIP, i, host_side, host)
            return True
    return False


@rules_kernel
def greedy_activation_worth(
    G: IntArray, st: IntArray, side: EngineInt, card: EngineInt, timing: EngineInt, target: EngineInt
) -> int:
    """What activating the effect is worth to the greedy policy: 2 per card drawn, 2 per point of damage when it has a
    target, the shield change (a gain only as far as it fits under 8), 3 for an element that starts a status or makes
    a combo."""
    foe = 1 - side
    worth = 2 * tv(G, card, timing, TV_DRAW)
    if target >= 0:
        worth += 2 * tv(G, card, timing, TV_DAMAGE)
    shield = tv(G, card, timing, TV_SHIELD)
    if shield < 0 or st[sx(side, S_SHIELD)] + shield <= SHIELD_POINTS:
        worth += shield
    applies = tv(G, card, timing, TV_APPLIES)
    standard = st[sx(foe, S_STANDARD)]
    for element in range(4):
        if (applies >> element) & 1 == 1:
            if standard < 0 or (standard != element and combo_of(standard, element) != COMBO_NONE):
                worth += 3
    return worth


@inline_kernel
def greedy_activations(G: IntArray, st: IntArray, side: EngineInt, turn: EngineInt, out: EngineInt) -> bool:
    """Activate every once-per-turn effect worth something; a "use" effect only on a card that cannot attack, or
    when its damage destroys an opposing card (otherwise the card attacks): the next one after the phase's place
    (TW_AT, TW_TIMING of the turn words at `turn`), its row written at word `out`; false when none is left.

    The units with an effect to activate were listed by id when the phase began (`greedy_phase_begins`: few have
    one, and a unit's card never changes); a reaction to an activation can destroy the activating unit (or, by
    Explosion, others of the side), so each is found again before it acts."""
    foe = 1 - side
    ids = policy_flags(st)
    while st[turn + TW_AT] < st[turn + TW_COUNT]:
        i = st[turn + TW_AT]
        timing = T_PLAIN if st[turn + TW_TIMING] == 0 else T_USE
        if st[turn + TW_TIMING] == 0:
            st[turn + TW_TIMING] = 1
        else:
            st[turn + TW_TIMING] = 0
            st[turn + TW_AT] = i + 1
        u = find_unit(st, side, st[ids + i])
        if u < 0 or not can_activate(G, st, side, u, timing):
            continue
        card = st[ux(side, u, U_CARD)]
        amount = tv(G, card, timing, TV_DAMAGE)
        target = greedy_spell_target(G, st, foe, amount, ANY_TARGET) if amount > 0 else -1
        if timing == T_USE and cv(G, card, C_CAN_ATTACK) == 1:
            if target < 0 or damage_to_destroy(G, st, foe, target) > amount:
                continue
        # The row (A_ACTIVATE, u, target, timing) is listed: `can_activate` held, and the target is an opposing
        # card exactly when the effect deals damage and one is there (greedy_spell_target with any_target).
        if greedy_activation_worth(G, st, side, card, timing, target) > 0:
            add_action(st, out, ZERO, A_ACTIVATE, u, target, timing)
            return True
    return False


@inline_kernel
def greedy_supports(G: IntArray, st: IntArray, side: EngineInt, turn: EngineInt, out: EngineInt) -> bool:
    """Support where +1 Atk turns an attack into a kill (or from a card that never attacks): the next Support card
    from the phase's place (TW_AT) on that gives it, its row written at word `out`; false when none is left."""
    while st[turn + TW_AT] < st[sx(side, S_UNITS)]:
        s = st[turn + TW_AT]
        st[turn + TW_AT] = s + 1
        card = st[ux(side, s, U_CARD)]
        if cv(G, card, C_SUPPORT) == 0 or not can_use(G, st, side, s):
            continue
        attacks_itself = cv(G, card, C_CAN_ATTACK) == 1
        if attacks_itself and greedy_kill_target(G, st, side, s, ZERO) >= 0:
            continue
        chosen = -1
        fallback = -1
        fallback_atk = -1
        for a in range(st[sx(side, S_UNITS)]):
            if a == s or cv(G, st[ux(side, a, U_CARD)], C_CAN_ATTACK) == 0 or not can_use(G, st, side, a):
                continue
            if support_turns_into_kill(G, st, side, a):
                chosen = a
                break
            if unit_atk(G, st, side, a) > fallback_atk:
                fallback_atk = unit_atk(G, st, side, a)
                fallback = a
        if chosen < 0 and not attacks_itself:
            chosen = fallback
        if chosen >= 0:
            # The row (A_SUPPORT, s, chosen) is listed: s is a Support card `can_use` allows, chosen another unit.
            add_action(st, out, ZERO, A_SUPPORT, s, chosen, ZERO)
            return True
    return False


@inline_kernel
def greedy_moves(G: IntArray, st: IntArray, side: EngineInt, turn: EngineInt, out: EngineInt) -> bool:
    """Mobile cards with nothing in reach step forward: the next from the phase's place (TW_AT) on, its row written
    at word `out`; false when none is left."""
    foe = 1 - side
    while st[turn + TW_AT] < st[sx(side, S_UNITS)]:
        u = st[turn + TW_AT]
        st[turn + TW_AT] = u + 1
        card = st[ux(side, u, U_CARD)]
        if cv(G, card, C_MOBILE) == 0 or cv(G, card, C_CAN_ATTACK) == 0 or not can_use(G, st, side, u):
            continue
        row = st[ux(side, u, U_ROW)]
        if row == 0 or st[sx(side, S_ROW0 + row - 1)] >= opt(G, O_ROW_SLOTS) or can_attack_player(G, st, side, u):
            continue
        reach = False
        for v in range(st[sx(foe, S_UNITS)]):
            if in_range(G, st, side, u, v):
                reach = True
                break
        if not reach:
            # The row (A_MOVE, u, row - 1) is listed: a Mobile card `can_use` allows, a row in front with room.
            add_action(st, out, ZERO, A_MOVE, u, row - 1, ZERO)
            return True
    return False


@inline_kernel
def greedy_attacks(G: IntArray, st: IntArray, side: EngineInt, turn: EngineInt, out: EngineInt) -> bool:
    """Strongest attacker first: destroy the most valuable card in reach, else hit the player, else the best card
    in reach, each among the attacker's listed rows; an attacker with no row sits the turn out (its id kept in the
    phase's list, TW_COUNT long). With enough attackers to empty the shield (and no trap set that springs on an
    attack; TW_LETHAL, judged as the phase began), everyone goes for the player. The attack's row is written at word
    `out`; false when no attacker is left."""
    foe = 1 - side
    lethal = st[turn + TW_LETHAL] == 1
    sitting = policy_flags(st)  # the ids of attackers that found nothing in reach: they sit this turn out
    while True:
        u: EngineInt = NONE
        best_atk = -1
        for w in range(st[sx(side, S_UNITS)]):
            # `can_use` first: once a unit has attacked it is used, and its card need not be read.
            if can_use(G, st, side, w) and cv(G, st[ux(side, w, U_CARD)], C_CAN_ATTACK) == 1:
                sits = False
                for j in range(st[turn + TW_COUNT]):
                    if st[sitting + j] == st[ux(side, w, U_ID)]:
                        sits = True
                        break
                atk = unit_atk(G, st, side, w)
                if not sits and atk > best_atk:
                    best_atk = atk
                    u = w
        if u < 0:
            return False
        # Its target, worked out without listing its rows (the player when it may attack them, the opposing cards
        # in reach): the most valuable card it destroys, else the player, else the most valuable card in reach.
        direct = can_attack_player(G, st, side, u)
        target = -1 if lethal and direct else greedy_kill_target(G, st, side, u, ZERO)
        if target < 0 and not direct:
            best_value = -1
            for v in range(st[sx(foe, S_UNITS)]):
                if in_range(G, st, side, u, v):
                    value = unit_value(G, st, foe, v)
                    if value > best_value:
                        best_value = value
                        target = v
        if target < 0 and not direct:
            st[sitting + st[turn + TW_COUNT]] = st[ux(side, u, U_ID)]
            st[turn + TW_COUNT] += 1
            continue
        # A listed row without asking `is_legal`: the player when `can_attack_player`, a card that `in_range` says
        # it reaches, the tests `legal_actions` lists attacks by (the legality replay test checks every one).
        add_action(st, out, ZERO, A_ATTACK, u, target, ZERO)
        return True


@inline_kernel
def greedy_finishers(G: IntArray, st: IntArray, side: EngineInt, out: EngineInt) -> bool:
    """Damage spells finish what the attacks started (or hit the best card when the hand is full): the first in hand
    order with a target that can be paid, its row written at word `out`; false when none."""
    foe = 1 - side
    for i in range(st[sx(side, S_HAND)]):
        card = st[zx(st, side, Z_HAND, i)]
        if cv(G, card, C_KIND) == KIND_MAGIC and cv(G, card, C_EQUIP) == 0 and cv(G, card, C_DAMAGE) > 0:
            target = greedy_spell_target(G, st, foe, cv(G, card, C_DAMAGE), st[sx(side, S_HAND)] >= 7)
            # The row (A_CAST, i, target) is listed when the card can be paid: the target is an opposing card.
            if target >= 0 and can_pay(G, st, side, i):
                add_action(st, out, ZERO, A_CAST, i, target, ZERO)
                return True
    return False


@llvm_inline_kernel
def greedy_phase_begins(G: IntArray, st: IntArray, side: EngineInt, turn: EngineInt, phase: EngineInt) -> None:
    """Greedy's turn is at `phase` now (TW_PHASE), with the phase's place at its start: the activations list the
    units with an effect to activate, by id; the attacks judge whether the attackers are lethal."""
    st[turn + TW_PHASE] = phase
    st[turn + TW_AT] = 0
    st[turn + TW_TIMING] = 0
    st[turn + TW_COUNT] = 0
    if phase == PHASE_ACTIVATIONS:
        ids = policy_flags(st)
        n = 0
        for u in range(st[sx(side, S_UNITS)]):
            card = st[ux(side, u, U_CARD)]
            if has_timed_effect(G, card, T_PLAIN) or has_timed_effect(G, card, T_USE):
                st[ids + n] = st[ux(side, u, U_ID)]
                n += 1
        st[turn + TW_COUNT] = n
    elif phase == PHASE_ATTACKS:
        foe = 1 - side
        direct_ready = 0
        for w in range(st[sx(side, S_UNITS)]):
            if can_use(G, st, side, w) and can_attack_player(G, st, side, w):
                direct_ready += st[ux(side, w, U_DIRECT)]
        lethal = direct_ready >= st[sx(foe, S_SHIELD)] and traps_for(G, st, foe, T_FOE_ATTACKS) == 0
        st[turn + TW_LETHAL] = 1 if lethal else 0


@llvm_inline_kernel
def greedy_phase_row(G: IntArray, st: IntArray, side: EngineInt, turn: EngineInt, out: EngineInt) -> bool:
    """The row greedy's phase (TW_PHASE) takes next, written at word `out`; false when the phase is done."""
    phase = st[turn + TW_PHASE]
    if phase == PHASE_PLAYS:
        return greedy_plays(G, st, side, out)
    if phase == PHASE_SUMMONS:
        return greedy_summons(G, st, side, out)
    if phase == PHASE_EQUIPS:
        return greedy_equips(G, st, side, out)
    if phase == PHASE_ACTIVATIONS:
        return greedy_activations(G, st, side, turn, out)
    if phase == PHASE_SUPPORTS:
        return greedy_supports(G, st, side, turn, out)
    if phase == PHASE_MOVES:
        return greedy_moves(G, st, side, turn, out)
    if phase == PHASE_ATTACKS:
        return greedy_attacks(G, st, side, turn, out)
    if phase == PHASE_FINISHERS:
        return greedy_finishers(G, st, side, out)
    return False


@llvm_inline_kernel
def greedy_decide(G: IntArray, st: IntArray, side: EngineInt) -> EngineInt:
    """Greedy's choice, as the word of its row: the answer to an open target (`greedy_answer`), else the next row of
    its turn's phases in order (plays, summons, equipment, activations, Support, moves, attacks, finishers), else
    "end the turn". Where the turn is up to lives in the turn words (`turn_words_now`)."""
    if st[G_PENDING] != PENDING_NONE:
        return greedy_answer(G, st, side)
    out = st[G_ACTIONS]
    turn = turn_words_now(st)
    while st[turn + TW_PHASE] < PHASE_DONE:
        if greedy_phase_row(G, st, side, turn, out):
            return out
        greedy_phase_begins(G, st, side, turn, st[turn + TW_PHASE] + 1)
    add_action(st, out, ZERO, A_END, ZERO, ZERO, ZERO)
    return out


@rules_kernel
def greedy_phase(G: IntArray, st: IntArray, side: EngineInt, phase: EngineInt) -> None:
    """One of greedy's phases played alone, from its start (`greedy_phase_begins`), each row taken by `apply_of` and
    each target it leaves open answered by greedy, until the phase has no row left: as the rule tests play them."""
    turn = turn_words_now(st)
    greedy_phase_begins(G, st, side, turn, phase)
    out = st[G_ACTIONS]
    while st[G_OVER] == 0:
        if st[G_PENDING] != PENDING_NONE:
            apply_of(G, st, side, greedy_answer(G, st, side))
        elif greedy_phase_row(G, st, side, turn, out):
            apply_of(G, st, side, out)
        else:
            return


# The random-legal policy


@rules_kernel
def random_decide(G: IntArray, st: IntArray, side: EngineInt) -> EngineInt:
    """A uniformly random listed row, as its word ("end the turn" among them, so a random turn ends when that comes
    up): the answer to an open target, or an action of the turn; after MAX_RANDOM_STEPS actions in a turn, "end the
    turn" (TW_STEPS of the turn words)."""
    out = st[G_ACTIONS]
    if st[G_PENDING] != PENDING_NONE:
        return out + 4 * rng_below(st, legal_actions_of(G, st, side, out, ALL_ACTIONS, NONE))
    turn = turn_words_now(st)
    if st[turn + TW_STEPS] >= MAX_RANDOM_STEPS:
        add_action(st, out, ZERO, A_END, ZERO, ZERO, ZERO)
        return out
    n = legal_actions_of(G, st, side, out, ALL_ACTIONS, NONE)
    pick = rng_below(st, n)
    if pick < n - 1:
        st[turn + TW_STEPS] += 1
    return out + 4 * pick


# ---------------------------------------------------------------------------------------------------------------
# The decision of a greedy, random or epsilon side (a play loop asks it at every decision; a search side's is in
# `search.decide_searched`)


@llvm_inline_kernel
def decide(G: IntArray, st: IntArray, _context: Any) -> EngineInt:
    """The choice of the side whose decision is open (st[G_ACTIVE]), as the word of its row, by its policy: random
    when `plays_random` says so (always for `random`; for `epsilon:E` with probability E, a coin per decision), greedy
    otherwise. An exploring epsilon side's random choice draws from the policy's own generator (traded into st[0:4] by
    `plays_random`, traded back by `random_played`), so the match's own stream is the one greedy would have met.
    Takes a context it does not read, as `workbench.play.loop.play_out` passes one."""
    side = st[G_ACTIVE]
    if st[sx(side, S_POLICY) + P_CODE] != GREEDY:  # greedy's own decisions skip the door's views of `st`
        block = policy_of(st, side)
        if plays_random(block, match_rng(st)):
            return random_played(block, match_rng(st), random_decide(G, st, side))
    return greedy_decide(G, st, side)


@rules_kernel
def play_on(G: IntArray, st: IntArray, _context: Any) -> None:
    """The match played on from its open decision to its end, each decision by its side's policy (`decide`): a greedy,
    random or epsilon batch's match, and a search's rollout (one compiled copy of the whole match, called)."""
    play_out(G, st, NO_CONTEXT, decide, apply, is_over)
