"""The souls policies: greedy (its phases, `greedy_turn`, and `greedy_answer` for a decision a row left open), random
(`random_turn`), and the policies' door in a match, `take_turn` (where a greedy, random or epsilon side's policy is
read, once a turn).

Imports `layout` and `rules` (the listing, and the rules a policy takes its rows by). The rules' match loop calls the
door without importing it: the package binds `take_turn` into `rules` (`engine/__init__.py`).
"""

from __future__ import annotations

from workbench.engines import EngineBool, EngineInt, IntArray, inline_kernel, rng_below, rules_kernel
from workbench.policies import plays_random, random_played
from workbench.rulesets.souls.engine.layout import (
    A_EQUIP,
    A_SUMMON,
    A_TARGET,
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
    G_CAPACITY,
    G_OVER,
    G_PENDING,
    G_PENDING_A,
    G_SCRATCH,
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
    PLANNED,
    ROWS,
    S_HAND,
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
    activate,
    add_action,
    apply_of,
    attack,
    can_activate,
    can_attack_player,
    can_pay,
    can_use,
    card_value,
    cast_spell,
    combo_of,
    damage_to_destroy,
    end_turn,
    find_row,
    find_unit,
    hand_sacrifice_worth,
    has_timed_effect,
    in_range,
    legal_actions_of,
    move_unit,
    planned_unit,
    room_in_row,
    set_trap,
    start_turn,
    summon,
    support,
    traps_for,
    unit_atk,
    unit_value,
)

# ---------------------------------------------------------------------------------------------------------------
# Policies: each chooses among `legal_actions` and takes its choice with `apply`; none changes a rule
#
# A policy plays a side's turn after its draw (`take_turn` calls it between `start_turn` and `end_turn`, which makes
# it the side whose decision is open, st[G_ACTIVE]): it lists the legal actions into the action list (st[G_ACTIONS];
# `legal_actions_of` with its side, the rows `legal_actions` lists), picks a row, takes it (`apply_of`, `apply` for
# its side), and answers any decision the row left open (G_PENDING) the same way, until it chooses to end the turn
# by returning. It may read the state (what the side could see: the search's rollouts deal the unseen cards anew)
# and keep its own words in the scratch area st[G_SCRATCH], which no rule touches. A new policy is a new turn
# function here and one branch in `take_turn` (and in `play_searched_match`): no rule changes.


@rules_kernel
def policy_flags(st: IntArray) -> int:
    """Where the policies' per-card words start in the scratch area (after greedy's sorted worths): one per hand
    card or unit."""
    return st[G_SCRATCH] + 3 * (MAX_UNITS + st[G_CAPACITY]) + 1


# The greedy policy: curve out, trade well, go face when lethal. Its turn is a run of phases (plays, summons,
# equipment, activations, Support and moves, attacks, finishers); each phase weighs a card by the phase's rule of
# thumb and works out the one row it wants, legal by the tests `legal_actions` lists that kind of row by, without
# listing. It takes the row by calling the rule `apply` calls for it (`attack`, `summon`, `set_trap`, `cast_spell`,
# `activate`, `support`, `move_unit`: the same kernel with the same arguments, without `apply`'s call and dispatch;
# a card it pays for is paid on the sacrifice plan its `can_pay` just made, PLANNED, where `apply` plans again),
# equipment through `apply_of` itself (its target is an open decision), and answers any decision left open through
# `legal_actions_of` and `apply_of`. The legality replay test checks every row taken either way against the list, and
# every plan paid against one made anew. The phases are inline kernels, copied into `greedy_turn`: one call per turn,
# not seven.


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
def greedy_answer(G: IntArray, st: IntArray, side: EngineInt) -> None:
    """Answer the decision the last row left open: the damage target of a summon Trigger or an Equip card, the most
    valuable opposing card it destroys, else the most valuable one."""
    while st[G_PENDING] != PENDING_NONE and st[G_OVER] == 0:
        out = st[G_ACTIONS]
        n = legal_actions_of(G, st, side, out, ALL_ACTIONS, NONE)
        foe = 1 - side
        if st[G_PENDING] == A_SUMMON:
            amount = tv(
                G,
                st[ux(side, find_unit(st, side, st[G_PENDING_A]), U_CARD)],
                T_SUMMON,
                TV_DAMAGE,
            )
        else:
            amount = cv(G, st[zx(st, side, Z_HAND, st[G_PENDING_A])], C_DAMAGE)
        k = find_row(
            st,
            out,
            n,
            A_TARGET,
            greedy_spell_target(G, st, foe, amount, ANY_TARGET),
            ZERO,
            ZERO,
        )
        apply_of(G, st, side, out + 4 * k)


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
def greedy_plays(G: IntArray, st: IntArray, side: EngineInt) -> None:
    """Set traps; play card draw, shields that fit, and elements that start a status or make a combo: the first such
    card in hand order that has a legal row (a trap slot free, its cost paid), each time."""
    i = ZERO
    while i < st[sx(side, S_HAND)] and st[G_OVER] == 0:
        card = st[zx(st, side, Z_HAND, i)]
        if greedy_wants_played(G, st, side, card):
            # Its one row, when `legal_actions` would list it (a trap slot free, its cost paid: the tests it lists
            # these rows by): a trap (i, 0, 0), a magic card with no target (i, -1, 0), taken by the rule `apply`
            # calls for it (`set_trap`, `cast_spell`; neither leaves a decision open).
            trap = cv(G, card, C_KIND) == KIND_TRAP
            if (not trap or st[sx(side, S_TRAPS)] < opt(G, O_TRAP_SLOTS)) and can_pay(G, st, side, i):
                # The plan `can_pay` just made for card i is the one paid (PLANNED): no second plan.
                if trap:
                    set_trap(G, st, side, i, PLANNED)
                else:
                    cast_spell(G, st, side, i, NONE, PLANNED)
                i = ZERO  # the hand changed (draws, sacrifices): look again from the start
                continue
        i += 1


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
def greedy_summons(G: IntArray, st: IntArray, side: EngineInt) -> None:
    """Summon the monster whose worth most exceeds what it sacrifices (any soul-cost-0 monster is worth summoning).

    What a card would sacrifice is priced from one sorted list of worths (the sum of the `cost` weakest, leaving
    out the card itself); equal gains go to the lower soul cost. The winner is summoned by its listed row into its
    preferred row or the nearest with room; a winner without a summon row (no row has room) is passed over and the
    next best tried.
    """
    limit = opt(G, O_SUMMONS)
    mode = opt(G, O_SACRIFICE)
    base = st[G_SCRATCH]
    while st[G_OVER] == 0 and (limit == 0 or st[sx(side, S_SUMMONS)] < limit):
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
        # Typed for mypy only (a bare annotation runs no code): a numpy int at first, then an EngineInt.
        chosen: EngineInt = NONE
        row: EngineInt
        row = -1
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
                break
            row = greedy_summon_row(G, st, side, best, preferred_row(G, st[zx(st, side, Z_HAND, best)]))
            if row >= 0:
                chosen = best
                break
            st[excluded + n_excluded] = best
            n_excluded += 1
        if chosen < 0:
            return
        # The row (A_SUMMON, chosen, row), taken by the rule `apply` calls for it; a target its summon Trigger leaves
        # open is answered as any other.
        # `greedy_summon_row`'s `can_pay` for `chosen` made the plan paid (PLANNED): no second plan.
        summon(G, st, side, chosen, row, PLANNED)
        greedy_answer(G, st, side)


@inline_kernel
def greedy_equips(G: IntArray, st: IntArray, side: EngineInt) -> None:
    """Bonuses on your strongest attacker (def-only ones on your best card), penalties on the opponent's best: for
    each Equip card in hand order, the host it wants, taken when that row is listed."""
    foe = 1 - side
    out = st[G_ACTIONS]
    i = ZERO
    while i < st[sx(side, S_HAND)] and st[G_OVER] == 0:
        card = st[zx(st, side, Z_HAND, i)]
        if cv(G, card, C_KIND) != KIND_MAGIC or cv(G, card, C_EQUIP) == 0:
            i += 1
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
        # take the host (the tests `legal_actions` lists equipment by); taken through `apply`, whose open target
        # `greedy_answer` answers.
        if host >= 0 and can_pay(G, st, side, i) and not (host_side == side and planned_unit(st, host)):
            add_action(st, out, ZERO, A_EQUIP, i, host_side, host)
            apply_of(G, st, side, out)
            greedy_answer(G, st, side)
            i = ZERO
            continue
        i += 1


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
def greedy_activations(G: IntArray, st: IntArray, side: EngineInt) -> None:
    """Activate every once-per-turn effect worth something; a "use" effect only on a card that cannot attack, or
    when its damage destroys an opposing card (otherwise the card attacks)."""
    foe = 1 - side
    # The units in play now with an effect to activate (few have one: `can_activate` refuses the others at every
    # look, and a unit's card never changes), by id: a reaction to an activation can destroy the activating unit (or,
    # by Explosion, others of the side), so each is found again before it acts.
    ids = policy_flags(st)
    n = 0
    for u in range(st[sx(side, S_UNITS)]):
        card = st[ux(side, u, U_CARD)]
        if has_timed_effect(G, card, T_PLAIN) or has_timed_effect(G, card, T_USE):
            st[ids + n] = st[ux(side, u, U_ID)]
            n += 1
    for i in range(n):
        for timing in (T_PLAIN, T_USE):
            u = find_unit(st, side, st[ids + i])
            if st[G_OVER] == 1 or u < 0 or not can_activate(G, st, side, u, timing):
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
                activate(G, st, side, u, timing, target)  # the rule `apply` calls for the row


@inline_kernel
def greedy_supports_and_moves(G: IntArray, st: IntArray, side: EngineInt) -> None:
    """Support where +1 Atk turns an attack into a kill (or from a card that never attacks); Mobile cards with
    nothing in reach step forward."""
    foe = 1 - side
    for s in range(st[sx(side, S_UNITS)]):
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
            support(st, side, s, chosen)  # the rule `apply` calls for the row
    for u in range(st[sx(side, S_UNITS)]):
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
            move_unit(st, side, u, row - 1)  # the rule `apply` calls for the row


@inline_kernel
def greedy_attacks(G: IntArray, st: IntArray, side: EngineInt) -> None:
    """Strongest attacker first: destroy the most valuable card in reach, else hit the player, else the best card
    in reach, each among the attacker's listed rows; an attacker with no row sits the turn out. With enough attackers
    to empty the shield (and no trap set that springs on an attack), everyone goes for the player."""
    foe = 1 - side
    direct_ready = 0
    for w in range(st[sx(side, S_UNITS)]):
        if can_use(G, st, side, w) and can_attack_player(G, st, side, w):
            direct_ready += st[ux(side, w, U_DIRECT)]
    lethal = direct_ready >= st[sx(foe, S_SHIELD)] and traps_for(G, st, foe, T_FOE_ATTACKS) == 0
    sitting = policy_flags(st)  # the ids of attackers that found nothing in reach: they sit this turn out
    n_sitting = 0
    while st[G_OVER] == 0:
        u: EngineInt = NONE
        best_atk = -1
        for w in range(st[sx(side, S_UNITS)]):
            # `can_use` first: once a unit has attacked it is used, and its card need not be read.
            if can_use(G, st, side, w) and cv(G, st[ux(side, w, U_CARD)], C_CAN_ATTACK) == 1:
                sits = False
                for j in range(n_sitting):
                    if st[sitting + j] == st[ux(side, w, U_ID)]:
                        sits = True
                        break
                atk = unit_atk(G, st, side, w)
                if not sits and atk > best_atk:
                    best_atk = atk
                    u = w
        if u < 0:
            return
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
            st[sitting + n_sitting] = st[ux(side, u, U_ID)]
            n_sitting += 1
            continue
        # A listed row without asking `is_legal`: the player when `can_attack_player`, a card that `in_range` says
        # it reaches, the tests `legal_actions` lists attacks by (the legality replay test checks every one); taken
        # by the rule `apply` calls for it.
        attack(G, st, side, u, target)


@inline_kernel
def greedy_finishers(G: IntArray, st: IntArray, side: EngineInt) -> None:
    """Damage spells finish what the attacks started (or hit the best card when the hand is full)."""
    foe = 1 - side
    i = ZERO
    while i < st[sx(side, S_HAND)] and st[G_OVER] == 0:
        card = st[zx(st, side, Z_HAND, i)]
        if cv(G, card, C_KIND) == KIND_MAGIC and cv(G, card, C_EQUIP) == 0 and cv(G, card, C_DAMAGE) > 0:
            target = greedy_spell_target(G, st, foe, cv(G, card, C_DAMAGE), st[sx(side, S_HAND)] >= 7)
            # The row (A_CAST, i, target) is listed when the card can be paid: the target is an opposing card.
            if target >= 0 and can_pay(G, st, side, i):
                cast_spell(G, st, side, i, target, PLANNED)  # the rule `apply` calls for the row, on can_pay's plan
                i = ZERO
                continue
        i += 1


@rules_kernel
def greedy_turn(G: IntArray, st: IntArray, side: EngineInt) -> None:
    """Curve out, trade well, attack when ahead: plays, summons, equipment, Support and moves, attacks, finishers."""
    greedy_plays(G, st, side)
    greedy_summons(G, st, side)
    greedy_equips(G, st, side)
    greedy_activations(G, st, side)
    if st[G_OVER] == 0:
        greedy_supports_and_moves(G, st, side)
    greedy_attacks(G, st, side)
    greedy_finishers(G, st, side)


# The random-legal policy


@rules_kernel
def random_answer(G: IntArray, st: IntArray, side: EngineInt) -> None:
    """Answer the decision the last row left open with a uniformly random listed answer."""
    while st[G_PENDING] != PENDING_NONE and st[G_OVER] == 0:
        out = st[G_ACTIONS]
        n = legal_actions_of(G, st, side, out, ALL_ACTIONS, NONE)
        apply_of(G, st, side, out + 4 * rng_below(st, n))


@rules_kernel
def random_turn(G: IntArray, st: IntArray, side: EngineInt) -> None:
    """Pick uniformly among the legal actions and "end turn" until "end turn" comes up."""
    out = st[G_ACTIONS]
    for _ in range(MAX_RANDOM_STEPS):
        if st[G_OVER] == 1:
            return
        n = legal_actions_of(G, st, side, out, ALL_ACTIONS, NONE)
        pick = rng_below(st, n + 1)
        if pick == n:
            return
        apply_of(G, st, side, out + 4 * pick)
        random_answer(G, st, side)


# ---------------------------------------------------------------------------------------------------------------
# The policies' door in a match: a whole turn of a side, played by its policy (the rules' match loop calls it,
# `play_match`; the package binds it into `rules`)


@rules_kernel
def take_turn(G: IntArray, st: IntArray, side: EngineInt) -> None:
    """One whole turn of `side`: start, the side's policy, end.

    The policies' one door in a match (a `search` side's turns go through `search_turn` instead): the side plays the
    turn by the random policy when `plays_random` says so (always for `random`; for `epsilon:E` with probability E,
    a coin per turn), by greedy otherwise. An exploring epsilon side's random turn draws from the policy's own
    generator (traded into st[0:4] by `plays_random`, traded back by `random_played`): nothing else in a turn after
    its draw draws from the generator (the rules' only chance is the shuffle at `setup_match`), so the match's own
    stream is the one greedy would have met."""
    start_turn(G, st, side)
    if st[G_OVER] == 1:
        return
    block = policy_of(st, side)
    if plays_random(block, match_rng(st)):
        random_turn(G, st, side)
        random_played(block, match_rng(st), ZERO)
    else:
        greedy_turn(G, st, side)
    end_turn(G, st, side)
