"""The souls rules: reading the board, shields, cards and units, elements, sacrifices, effects when played, the
actions, the turn's structure, and the contract's four functions (`legal_actions(G, st, out) -> n`,
`apply(G, st, row)`, `clone(st, into)` and `determinize(G, st, side, rng)`; `legal_actions_of` and `apply_of` with the
side given), then a match's start (`open_match`) and end (`is_over`).

Imports only `layout`: no rule reads which policy a side plays, and no module of the policies is imported here. The
rules stop at each decision and return: a turn is the side's rows, one `apply` each, until its "end the turn" row,
whose `apply` begins the other side's turn; `workbench.play.loop.play_out` plays a match over them.
"""

from __future__ import annotations

from workbench.engines import (
    EngineBool,
    EngineInt,
    IntArray,
    inline_kernel,
    llvm_inline_kernel,
    rules_kernel,
    shuffle_in_place,
)
from workbench.play.policies import start_policy
from workbench.rulesets.souls.effects import OP_APPLY, OP_DAMAGE, OP_DRAW, OP_SHIELD
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
    ATTACKED_COUNTER,
    BURNING,
    C_APPLIES,
    C_ATK,
    C_BONUS,
    C_CAN_ATTACK,
    C_COST,
    C_DAMAGE,
    C_DEF,
    C_DIRECT,
    C_EQUIP,
    C_EQUIP_ATK,
    C_EQUIP_DEF,
    C_KIND,
    C_MOBILE,
    C_RANGE,
    C_REACTS,
    C_SUPPORT,
    C_VALUE,
    COMBO_NONE,
    CURSE,
    DESTROYED_COUNTER,
    DIRECT_ALWAYS,
    EV_ACTIVATE,
    EV_ATTACK,
    EV_CAST,
    EV_COMBO,
    EV_DECK_EMPTY,
    EV_DESTROYED,
    EV_DIRECT,
    EV_DISCARD,
    EV_DRAW,
    EV_EFFECT_DAMAGE,
    EV_ELEMENT,
    EV_EQUIP,
    EV_FIELD_DAMAGE,
    EV_FIZZLE,
    EV_MOVE,
    EV_NO_TARGET,
    EV_REACT,
    EV_SACRIFICE,
    EV_SET_TRAP,
    EV_SHIELD,
    EV_STATUS_DAMAGE,
    EV_SUMMON,
    EV_SUPPORT,
    EV_TRAP,
    EV_TURN,
    EVERFLAME,
    EXPLOSION,
    FIRE,
    G_ACTIONS,
    G_ACTIVE,
    G_CAPACITY,
    G_EVENT_ROWS,
    G_EVENTS,
    G_LAST_TURN,
    G_NCARDS,
    G_NEXT_ID,
    G_OVER,
    G_PENDING,
    G_PENDING_A,
    G_PENDING_B,
    G_PENDING_C,
    G_PLAN,
    G_PLANNED,
    G_TURN,
    HAND_SACRIFICE_PERCENT,
    KIND_MAGIC,
    KIND_MONSTER,
    KIND_TRAP,
    MAX_ACTIONS,
    MAX_EFFECTS,
    MAX_UNITS,
    MIASMA,
    NO_PLAN,
    NONE,
    O_ATTACKER_COLLAPSE,
    O_BURNING_TURNS,
    O_COMBO_CONSUMES,
    O_DAMAGE_PERSISTS,
    O_DESTROY_EXCEEDS,
    O_DIRECT,
    O_DRAW,
    O_EMPTY_LOSES,
    O_FIRST_DRAWS,
    O_HAND_SIZE,
    O_ROW_SLOTS,
    O_SACRIFICE,
    O_SICKNESS,
    O_SUMMONS,
    O_TICKS_EVERY,
    O_TRAP_SLOTS,
    O_TURN_CAP,
    O_UNLISTED_KEEP,
    OIL,
    ONE,
    PENDING_NONE,
    PERMANENT,
    PLAGUE,
    PLAN_FIELD,
    PLAN_HAND,
    POISON,
    POISON_DAMAGE,
    ROWS,
    S_BURNING,
    S_DECK_LEN,
    S_DECK_TOP,
    S_EVERFLAME,
    S_HAND,
    S_PLAGUE,
    S_ROW0,
    S_ROW1,
    S_ROW2,
    S_SHIELD,
    S_STANDARD,
    S_SUMMONS,
    S_TRAPS,
    S_UNITS,
    SACRIFICE_FIELD,
    SACRIFICE_HAND,
    SHIELD_POINTS,
    SIDE_A,
    SIDE_B,
    T_FOE_ACTIVATES,
    T_FOE_ATTACKS,
    T_FOE_SUMMONS,
    T_PLAIN,
    T_SUMMON,
    T_USE,
    TAKEN,
    TV_DAMAGE,
    U_ACTED,
    U_ATK_BONUS,
    U_CARD,
    U_DAMAGE,
    U_DEF_BONUS,
    U_DIRECT,
    U_ELEMENTS,
    U_ID,
    U_REACTED,
    U_ROW,
    U_SUMMONED,
    U_TEMP_ATK,
    U_USED,
    UNAVAILABLE,
    UNIT_FIELDS,
    UNPLANNED,
    Z_DECK,
    Z_HAND,
    Z_TRAPS,
    ZERO,
    count,
    count_damage,
    count_drawn,
    count_played,
    cv,
    end_match,
    fx_argument,
    fx_opcode,
    fx_timing,
    log,
    opt,
    plan_size,
    policy_of,
    px,
    reset_state,
    sx,
    tv,
    ux,
    zx,
)

# ---------------------------------------------------------------------------------------------------------------
# Reading the board


@rules_kernel
def units(st: IntArray, side: EngineInt) -> int:
    """How many monsters the side has in play."""
    return st[sx(side, S_UNITS)]


@rules_kernel
def hand_size(st: IntArray, side: EngineInt) -> int:
    """How many cards the side holds."""
    return st[sx(side, S_HAND)]


@rules_kernel
def hand_card(st: IntArray, side: EngineInt, i: EngineInt) -> int:
    """The card id at position i of the hand."""
    return st[zx(st, side, Z_HAND, i)]


@rules_kernel
def unit_card(st: IntArray, side: EngineInt, u: EngineInt) -> int:
    """The card id of a unit in play."""
    return st[ux(side, u, U_CARD)]


@rules_kernel
def unit_atk(G: IntArray, st: IntArray, side: EngineInt, u: EngineInt) -> int:
    """Attack now: printed Atk + equipment + this turn's Support, never below 0."""
    value = cv(G, st[ux(side, u, U_CARD)], C_ATK) + st[ux(side, u, U_ATK_BONUS)] + st[ux(side, u, U_TEMP_ATK)]
    return value if value > 0 else 0


@rules_kernel
def unit_def(G: IntArray, st: IntArray, side: EngineInt, u: EngineInt) -> int:
    """Def now: printed Def + equipment, never below 0."""
    value = cv(G, st[ux(side, u, U_CARD)], C_DEF) + st[ux(side, u, U_DEF_BONUS)]
    return value if value > 0 else 0


@rules_kernel
def damage_to_destroy(G: IntArray, st: IntArray, side: EngineInt, u: EngineInt) -> int:
    """How much more damage destroys this unit (its Def reached, or exceeded by option)."""
    return unit_def(G, st, side, u) - st[ux(side, u, U_DAMAGE)] + opt(G, O_DESTROY_EXCEEDS)


@rules_kernel
def unit_value(G: IntArray, st: IntArray, side: EngineInt, u: EngineInt) -> int:
    """The greedy policy's worth of a unit in play: Atk + remaining Def + its card's bonus."""
    return (
        unit_atk(G, st, side, u)
        + unit_def(G, st, side, u)
        - st[ux(side, u, U_DAMAGE)]
        + cv(G, st[ux(side, u, U_CARD)], C_BONUS)
    )


@rules_kernel
def card_value(G: IntArray, card: EngineInt) -> int:
    """The greedy policy's worth of a card in hand (monsters: Atk + Def + bonus; magic and traps: SPELL_VALUE)."""
    return cv(G, card, C_VALUE)


@rules_kernel
def hand_sacrifice_worth(G: IntArray, card: EngineInt) -> int:
    """What sacrificing this hand card costs the greedy policy (HAND_SACRIFICE_PERCENT of its worth)."""
    return cv(G, card, C_VALUE) * HAND_SACRIFICE_PERCENT // 100


@rules_kernel
def effective_row(st: IntArray, side: EngineInt, row: EngineInt) -> int:
    """The row's place counting only occupied rows in front of it (empty rows are ignored)."""
    place = 0
    for r in range(row):
        if st[sx(side, S_ROW0 + r)] > 0:
            place += 1
    return place


@rules_kernel
def occupied_rows(st: IntArray, side: EngineInt) -> int:
    """How many of the side's rows hold a card."""
    return int(st[sx(side, S_ROW0)] > 0) + int(st[sx(side, S_ROW1)] > 0) + int(st[sx(side, S_ROW2)] > 0)


@rules_kernel
def attacker_place(G: IntArray, st: IntArray, side: EngineInt, row: EngineInt) -> EngineInt:
    """How far forward an attacker stands: its effective row, or its printed row when only the defender collapses."""
    if opt(G, O_ATTACKER_COLLAPSE) == 1:
        return effective_row(st, side, row)
    return row


@rules_kernel
def can_use(G: IntArray, st: IntArray, side: EngineInt, u: EngineInt) -> bool:
    """Not used this turn (and not summoned this turn when summoning sickness is on)."""
    if st[ux(side, u, U_USED)] != 0:
        return False
    return not (opt(G, O_SICKNESS) == 1 and st[ux(side, u, U_SUMMONED)] == st[G_TURN])


@rules_kernel
def in_range(G: IntArray, st: IntArray, side: EngineInt, u: EngineInt, target: EngineInt) -> EngineBool:
    """Whether unit `u` can attack the opposing unit `target` (range, with empty rows ignored)."""
    foe = 1 - side
    distance = (
        attacker_place(G, st, side, st[ux(side, u, U_ROW)]) + effective_row(st, foe, st[ux(foe, target, U_ROW)]) + 1
    )
    return distance <= cv(G, st[ux(side, u, U_CARD)], C_RANGE)


@rules_kernel
def can_attack_player(G: IntArray, st: IntArray, side: EngineInt, u: EngineInt) -> EngineBool:
    """Whether unit `u` may attack the opponent directly under the `direct_attack` reading."""
    card = st[ux(side, u, U_CARD)]
    if cv(G, card, C_CAN_ATTACK) == 0:
        return False
    if opt(G, O_DIRECT) == DIRECT_ALWAYS:
        return True
    distance = attacker_place(G, st, side, st[ux(side, u, U_ROW)]) + occupied_rows(st, 1 - side) + 1
    return distance <= cv(G, card, C_RANGE)


@rules_kernel
def find_unit(st: IntArray, side: EngineInt, unit_id: EngineInt) -> int:
    """The index of the unit with this id, or -1 when it has left play."""
    for u in range(st[sx(side, S_UNITS)]):
        if st[ux(side, u, U_ID)] == unit_id:
            return u
    return -1


# ---------------------------------------------------------------------------------------------------------------
# Shields, cards and units


@rules_kernel
def change_shield(st: IntArray, side: EngineInt, delta: EngineInt, card: EngineInt) -> None:
    """Restore (never above 8) or lose shield points; a depleted shield loses the match."""
    value = st[sx(side, S_SHIELD)] + delta
    if value > SHIELD_POINTS:
        value = SHIELD_POINTS
    st[sx(side, S_SHIELD)] = value
    log(st, side, EV_SHIELD, card, delta, value)
    if value <= 0:
        end_match(st, 1 - side)


@rules_kernel
def draw_cards(G: IntArray, st: IntArray, side: EngineInt, number: EngineInt) -> None:
    """Draw `number` cards; from an empty deck nothing is drawn (or the player loses, by option)."""
    for _ in range(number):
        top = st[sx(side, S_DECK_TOP)]
        if top >= st[sx(side, S_DECK_LEN)]:
            log(st, side, EV_DECK_EMPTY, NONE, NONE, ZERO)
            if opt(G, O_EMPTY_LOSES) == 1:
                end_match(st, 1 - side)
            return
        card = st[zx(st, side, Z_DECK, top)]
        st[sx(side, S_DECK_TOP)] = top + 1
        held = st[sx(side, S_HAND)]
        st[zx(st, side, Z_HAND, held)] = card
        st[sx(side, S_HAND)] = held + 1
        count_drawn(st, side, card)
        log(st, side, EV_DRAW, card, NONE, held + 1)


@rules_kernel
def take_from_hand(st: IntArray, side: EngineInt, index: EngineInt) -> int:
    """Remove the hand card at `index` (the rest keep their order) and return it."""
    hand = zx(st, side, Z_HAND, ZERO)  # once: the loop's stores into `st` would have its layout words read again
    card = st[hand + index]
    last = st[sx(side, S_HAND)] - 1
    for i in range(index, last):
        st[hand + i] = st[hand + i + 1]
    st[hand + last] = -1
    st[sx(side, S_HAND)] = last
    return card


@rules_kernel
def add_unit(G: IntArray, st: IntArray, side: EngineInt, card: EngineInt, row: EngineInt) -> int:
    """Put a monster into play on `row`; returns its unit index."""
    u = st[sx(side, S_UNITS)]
    st[ux(side, u, U_CARD)] = card
    st[ux(side, u, U_ROW)] = row
    st[ux(side, u, U_DAMAGE)] = 0
    st[ux(side, u, U_USED)] = 0
    st[ux(side, u, U_ATK_BONUS)] = 0
    st[ux(side, u, U_DEF_BONUS)] = 0
    st[ux(side, u, U_TEMP_ATK)] = 0
    st[ux(side, u, U_ELEMENTS)] = 0
    st[ux(side, u, U_SUMMONED)] = st[G_TURN]
    st[ux(side, u, U_ID)] = st[G_NEXT_ID]
    st[ux(side, u, U_ACTED)] = 0
    st[ux(side, u, U_REACTED)] = 0
    direct = cv(G, card, C_DIRECT)
    st[ux(side, u, U_DIRECT)] = direct if direct >= 0 else ONE
    st[G_NEXT_ID] += 1
    st[sx(side, S_UNITS)] = u + 1
    st[sx(side, S_ROW0 + row)] += 1
    return u


@rules_kernel
def remove_unit(st: IntArray, side: EngineInt, u: EngineInt) -> None:
    """Take a unit out of play (its equipment goes with it); later units keep their order."""
    st[sx(side, S_ROW0 + st[ux(side, u, U_ROW)])] -= 1
    last = st[sx(side, S_UNITS)] - 1
    for i in range(ux(side, u, U_CARD), ux(side, last, U_CARD)):
        st[i] = st[i + UNIT_FIELDS]
    st[ux(side, last, U_CARD)] = -1
    st[sx(side, S_UNITS)] = last


@rules_kernel
def destroy_if_dead(G: IntArray, st: IntArray, side: EngineInt, u: EngineInt) -> bool:
    """Destroy the unit when its damage reaches (or exceeds) its Def; True if it was destroyed."""
    if damage_to_destroy(G, st, side, u) > 0:
        return False
    card = st[ux(side, u, U_CARD)]
    count(st, side, card, DESTROYED_COUNTER)
    log(st, side, EV_DESTROYED, card, NONE, st[ux(side, u, U_DAMAGE)])
    remove_unit(st, side, u)
    return True


@rules_kernel
def damage_unit(G: IntArray, st: IntArray, side: EngineInt, u: EngineInt, amount: EngineInt) -> bool:
    """Deal damage to a unit; True if it was destroyed."""
    st[ux(side, u, U_DAMAGE)] += amount
    return destroy_if_dead(G, st, side, u)


@rules_kernel
def damage_every_unit(G: IntArray, st: IntArray, side: EngineInt, amount: EngineInt) -> None:
    """Damage to all cards on a field (Explosion, Plague)."""
    for u in range(st[sx(side, S_UNITS)] - 1, -1, -1):
        damage_unit(G, st, side, u, amount)


# ---------------------------------------------------------------------------------------------------------------
# Elements


@rules_kernel
def combo_of(first: EngineInt, second: EngineInt) -> EngineInt:
    """The combo status two different elements make (COMBO_NONE for oil + curse, which the document omits)."""
    low = min(first, second)
    high = max(first, second)
    if low == FIRE and high == OIL:
        return BURNING
    if low == FIRE and high == MIASMA:
        return EXPLOSION
    if low == FIRE and high == CURSE:
        return EVERFLAME
    if low == OIL and high == MIASMA:
        return POISON
    if low == MIASMA and high == CURSE:
        return PLAGUE
    return COMBO_NONE


@rules_kernel
def apply_element(G: IntArray, st: IntArray, victim: EngineInt, element: EngineInt, card: EngineInt) -> None:
    """Apply an element to a player: a standard status, or with a different one already there, a combo."""
    standard = st[sx(victim, S_STANDARD)]
    if standard < 0:
        st[sx(victim, S_STANDARD)] = element
        log(st, victim, EV_ELEMENT, card, element, NONE)
        return
    if standard == element:
        log(st, victim, EV_ELEMENT, card, element, standard)
        return
    combo = combo_of(standard, element)
    if combo == COMBO_NONE:
        if opt(G, O_UNLISTED_KEEP) == 0:
            st[sx(victim, S_STANDARD)] = element
            log(st, victim, EV_ELEMENT, card, element, standard + 4)
        else:
            log(st, victim, EV_ELEMENT, card, element, standard)
        return
    if opt(G, O_COMBO_CONSUMES) == 1:
        st[sx(victim, S_STANDARD)] = -1
    log(st, victim, EV_COMBO, card, combo, standard * 4 + element)
    if combo == BURNING:
        turns = opt(G, O_BURNING_TURNS)
        st[sx(victim, S_BURNING)] = turns if turns > 0 else PERMANENT
    elif combo == EVERFLAME:
        st[sx(victim, S_EVERFLAME)] = 1
    elif combo == PLAGUE:
        st[sx(victim, S_PLAGUE)] = 1
    elif combo == POISON:
        change_shield(st, victim, -POISON_DAMAGE, card)
    else:  # EXPLOSION
        change_shield(st, victim, -ONE, card)
        if st[G_OVER] == 0:
            log(st, victim, EV_FIELD_DAMAGE, card, EXPLOSION, ONE)
            damage_every_unit(G, st, victim, ONE)


@rules_kernel
def apply_elements(G: IntArray, st: IntArray, victim: EngineInt, mask: EngineInt, card: EngineInt) -> None:
    """Apply every element in a bit mask, in the order fire, oil, miasma, curse."""
    for element in range(4):
        if st[G_OVER] == 0 and (mask >> element) & 1 == 1:
            apply_element(G, st, victim, element, card)


@rules_kernel
def tick_statuses(G: IntArray, st: IntArray, side: EngineInt) -> None:
    """Burning and Everflame: 1 damage; Plague: 1 damage and 1 to every card on the field."""
    if st[sx(side, S_BURNING)] > 0 and st[G_OVER] == 0:
        if st[sx(side, S_BURNING)] < PERMANENT:
            st[sx(side, S_BURNING)] -= 1
        log(st, side, EV_STATUS_DAMAGE, NONE, BURNING, st[sx(side, S_BURNING)])
        change_shield(st, side, -ONE, NONE)
    if st[sx(side, S_EVERFLAME)] > 0 and st[G_OVER] == 0:
        log(st, side, EV_STATUS_DAMAGE, NONE, EVERFLAME, PERMANENT)
        change_shield(st, side, -ONE, NONE)
    if st[sx(side, S_PLAGUE)] > 0 and st[G_OVER] == 0:
        log(st, side, EV_STATUS_DAMAGE, NONE, PLAGUE, PERMANENT)
        change_shield(st, side, -ONE, NONE)
        if st[G_OVER] == 0:
            log(st, side, EV_FIELD_DAMAGE, NONE, PLAGUE, ONE)
            damage_every_unit(G, st, side, ONE)


# ---------------------------------------------------------------------------------------------------------------
# Sacrifices


@rules_kernel
def plan_sacrifices(G: IntArray, st: IntArray, side: EngineInt, cost: EngineInt, skip_hand: EngineInt) -> EngineInt:
    """Choose the `cost` weakest sacrifices `sacrifice_from` allows (units in play, hand cards at
    HAND_SACRIFICE_PERCENT).

    The plan (in `st`, read with `px`): word 0 = field sacrifices, word 1 = hand sacrifices, then their unit
    indices and their hand indices, each ascending. Weakest is the lowest greedy worth; ties go to the unit summoned
    earliest, then the leftmost hand card. Returns how many were found (fewer than `cost`: it cannot be paid).
    """
    st[px(st, PLAN_FIELD)] = 0
    st[px(st, PLAN_HAND)] = 0
    if cost <= 0:
        return 0
    mode = opt(G, O_SACRIFICE)
    n_units = st[sx(side, S_UNITS)] if mode != SACRIFICE_HAND else 0
    n_hand = st[sx(side, S_HAND)] if mode != SACRIFICE_FIELD else 0
    available = n_units + n_hand - (1 if 0 <= skip_hand < n_hand else 0)
    if available < cost:
        return available
    # The plan's second half holds each candidate's worth (TAKEN once chosen): units, then hand cards.
    unit_values = st[G_PLAN] + plan_size(st[G_CAPACITY]) // 2
    hand_values = unit_values + MAX_UNITS
    for u in range(n_units):
        st[unit_values + u] = unit_value(G, st, side, u)
    hand = zx(st, side, Z_HAND, ZERO)  # once: the loops' stores into `st` would have its layout words read again
    for h in range(n_hand):
        st[hand_values + h] = UNAVAILABLE if h == skip_hand else hand_sacrifice_worth(G, st[hand + h])
    for _ in range(cost):
        best_value = UNAVAILABLE
        best_where = 0
        for u in range(n_units):
            if st[unit_values + u] < best_value:
                best_value = st[unit_values + u]
                best_where = unit_values + u
        for h in range(n_hand):
            if st[hand_values + h] < best_value:
                best_value = st[hand_values + h]
                best_where = hand_values + h
        st[best_where] = TAKEN
    plan = px(st, ZERO)
    n_field = 0
    for u in range(n_units):
        if st[unit_values + u] == TAKEN:
            st[plan + 2 + n_field] = u
            n_field += 1
    n_from_hand = 0
    for h in range(n_hand):
        if st[hand_values + h] == TAKEN:
            st[plan + 2 + n_field + n_from_hand] = h
            n_from_hand += 1
    st[px(st, PLAN_FIELD)] = n_field
    st[px(st, PLAN_HAND)] = n_from_hand
    return cost


@rules_kernel
def plan_value(G: IntArray, st: IntArray, side: EngineInt) -> int:
    """The greedy policy's worth of what the current plan sacrifices."""
    n_field = st[px(st, PLAN_FIELD)]
    total = 0
    for i in range(n_field):
        total += unit_value(G, st, side, st[px(st, 2 + i)])
    for i in range(st[px(st, PLAN_HAND)]):
        total += hand_sacrifice_worth(G, st[zx(st, side, Z_HAND, st[px(st, 2 + n_field + i)])])
    return total


@rules_kernel
def planned_unit(st: IntArray, u: EngineInt) -> bool:
    """Whether the current plan sacrifices unit `u`."""
    for i in range(st[px(st, PLAN_FIELD)]):
        if st[px(st, 2 + i)] == u:
            return True
    return False


@rules_kernel
def room_in_row(G: IntArray, st: IntArray, side: EngineInt, row: EngineInt) -> bool:
    """Whether `row` has a free slot once the current plan's field sacrifices have left it."""
    freed = 0
    for i in range(st[px(st, PLAN_FIELD)]):
        if st[ux(side, st[px(st, 2 + i)], U_ROW)] == row:
            freed += 1
    return st[sx(side, S_ROW0 + row)] - freed < opt(G, O_ROW_SLOTS)


@rules_kernel
def can_pay(G: IntArray, st: IntArray, side: EngineInt, hand_index: EngineInt) -> EngineBool:
    """Whether the hand card's soul cost can be paid (leaves the plan in `st`, noted as this card's in G_PLANNED)."""
    st[G_PLANNED] = planned_key(side, hand_index)
    cost = cv(G, st[zx(st, side, Z_HAND, hand_index)], C_COST)
    if cost <= 0:  # most cards: the plan is empty (`plan_sacrifices` for no cost), without a call
        st[px(st, PLAN_FIELD)] = 0
        st[px(st, PLAN_HAND)] = 0
        return True
    return plan_sacrifices(G, st, side, cost, hand_index) >= cost


@inline_kernel
def planned_key(side: EngineInt, hand_index: EngineInt) -> EngineInt:
    """What G_PLANNED holds when the sacrifice plan in `st` is the one `can_pay` made for this hand card of `side`."""
    return side + 2 * hand_index


@rules_kernel
def take_and_pay(G: IntArray, st: IntArray, side: EngineInt, hand_index: EngineInt, planned: EngineBool) -> int:
    """Take the card out of the hand and pay its sacrifices: planned again on the remaining hand, or, when `planned`
    (the plan in `st` is the one `can_pay` left for this card on this board), that plan with its hand indices moved
    past the card taken.

    Both are the same sacrifices: `can_pay` plans with the card left out, and the weakest are chosen with ties to the
    earlier unit, then the earlier hand card, an order taking the card out does not change."""
    card = take_from_hand(st, side, hand_index)
    n_field = st[px(st, PLAN_FIELD)]
    if planned:
        plan = px(st, ZERO)
        for i in range(plan + 2 + n_field, plan + 2 + n_field + st[plan + PLAN_HAND]):
            if st[i] > hand_index:
                st[i] -= 1
    else:
        plan_sacrifices(G, st, side, cv(G, card, C_COST), NONE)
        n_field = st[px(st, PLAN_FIELD)]
    for i in range(n_field - 1, -1, -1):
        u = st[px(st, 2 + i)]
        log(
            st,
            side,
            EV_SACRIFICE,
            st[ux(side, u, U_CARD)],
            NONE,
            st[ux(side, u, U_ROW)],
        )
        remove_unit(st, side, u)
    for i in range(st[px(st, PLAN_HAND)] - 1, -1, -1):
        discarded = take_from_hand(st, side, st[px(st, 2 + n_field + i)])
        log(st, side, EV_DISCARD, discarded, NONE, ZERO)
    return card


# ---------------------------------------------------------------------------------------------------------------
# Effects when played


@rules_kernel
def resolve_played_effects(
    G: IntArray, st: IntArray, side: EngineInt, card: EngineInt, target_id: EngineInt, timing: EngineInt
) -> None:
    """Run a card's damage / draw / shield opcodes in order, and a plain magic card's `apply` on the opponent.

    A monster runs only its effects of `timing` (T_PLAIN: once per turn, T_USE, T_SUMMON), and applies an element
    only from a prefixed effect (a plain `apply` rides on its attacks). `target_id` is the id of the opposing unit
    that `damage N` hits (-1: no target, the damage is lost).
    """
    foe = 1 - side
    plain_magic = cv(G, card, C_KIND) == KIND_MAGIC and cv(G, card, C_EQUIP) == 0
    monster = cv(G, card, C_KIND) == KIND_MONSTER
    for i in range(MAX_EFFECTS):
        if st[G_OVER] == 1:
            return
        opcode = fx_opcode(G, card, i)
        argument = fx_argument(G, card, i)
        if monster and fx_timing(G, card, i) != timing:
            continue
        if opcode == OP_DAMAGE:
            u = find_unit(st, foe, target_id) if target_id >= 0 else -1
            if u < 0:
                log(st, side, EV_NO_TARGET, card, NONE, argument)
                continue
            log(st, side, EV_EFFECT_DAMAGE, card, st[ux(foe, u, U_CARD)], argument)
            count_damage(st, side, card, argument)
            damage_unit(G, st, foe, u, argument)
        elif opcode == OP_DRAW:
            draw_cards(G, st, side, argument)
        elif opcode == OP_SHIELD:
            change_shield(st, side, argument, card)
        elif opcode == OP_APPLY and (plain_magic or (monster and timing != T_PLAIN)):
            apply_element(G, st, foe, argument, card)


# ---------------------------------------------------------------------------------------------------------------
# Actions (`apply` takes them once `legal_actions` has listed them: can_pay, room_in_row, can_use, in_range)


@rules_kernel
def summon(
    G: IntArray, st: IntArray, side: EngineInt, hand_index: EngineInt, row: EngineInt, planned: EngineBool
) -> EngineInt:
    """Summon the monster at `hand_index` onto `row`, sacrificing its soul cost (`take_and_pay`, `planned` as there);
    returns its unit index (-1: gone).

    When its summon Trigger deals damage and an opposing card is there to take it, the target is the player's
    decision: the summon stops there with that decision open (G_PENDING = A_SUMMON), and `legal_actions` lists the
    targets; `summon_resolves` finishes it. Otherwise it finishes now.
    """
    card = take_and_pay(G, st, side, hand_index, planned)
    paid = st[px(st, PLAN_FIELD)] + st[px(st, PLAN_HAND)]
    u = add_unit(G, st, side, card, row)
    st[sx(side, S_SUMMONS)] += 1
    count_played(st, side, card)
    log(st, side, EV_SUMMON, card, paid, row)
    my_id = st[ux(side, u, U_ID)]
    if tv(G, card, T_SUMMON, TV_DAMAGE) > 0 and st[sx(1 - side, S_UNITS)] > 0:
        st[G_PENDING] = A_SUMMON
        st[G_PENDING_A] = my_id
        return u
    return summon_finishes(G, st, side, u, NONE)


@rules_kernel
def summon_resolves(G: IntArray, st: IntArray, side: EngineInt, unit_id: EngineInt, target: EngineInt) -> None:
    """The rest of a summon whose target was left open (the unit with id `unit_id`, target the opposing unit
    `target`): `summon_finishes`."""
    summon_finishes(G, st, side, find_unit(st, side, unit_id), target)


@inline_kernel
def summon_finishes(G: IntArray, st: IntArray, side: EngineInt, u: EngineInt, target: EngineInt) -> EngineInt:
    """The rest of a summon of unit `u`: its summon Trigger's effects (`damage N` on the opposing unit `target`, -1:
    none), then the opponent's reaction to the summon; returns the unit's index (-1: gone). Copied into `summon`
    and `summon_resolves`: no call on the way of every summon."""
    foe = 1 - side
    unit_id = st[ux(side, u, U_ID)]
    card = st[ux(side, u, U_CARD)]
    if has_timed_effect(G, card, T_SUMMON):
        # The summon Trigger: its effects resolve once, now.
        target_id = st[ux(foe, target, U_ID)] if target >= 0 else NONE
        resolve_played_effects(G, st, side, card, target_id, T_SUMMON)
        u = find_unit(st, side, unit_id)
    if st[G_OVER] == 0 and u >= 0:
        # The opponent may react to the summon (once the summon and its own Trigger have resolved).
        react(G, st, foe, T_FOE_SUMMONS, unit_id, card)
        u = find_unit(st, side, unit_id)
    return u


@rules_kernel
def has_timed_effect(G: IntArray, card: EngineInt, timing: EngineInt) -> bool:
    """Whether a monster has an effect of this timing to activate (damage, draw, shield, or a prefixed apply)."""
    return cv(G, card, C_KIND) == KIND_MONSTER and (cv(G, card, C_REACTS) >> timing) & 1 == 1


@rules_kernel
def can_activate(G: IntArray, st: IntArray, side: EngineInt, u: EngineInt, timing: EngineInt) -> bool:
    """Whether unit `u` may activate its effect of `timing` now: once per turn (T_PLAIN), or by using it (T_USE)."""
    if not has_timed_effect(G, st[ux(side, u, U_CARD)], timing):
        return False
    if timing == T_PLAIN:
        return st[ux(side, u, U_ACTED)] == 0
    return can_use(G, st, side, u)


@rules_kernel
def activate(G: IntArray, st: IntArray, side: EngineInt, u: EngineInt, timing: EngineInt, target: EngineInt) -> None:
    """Activate unit `u`'s effect of `timing` on your turn: T_USE uses the card, T_PLAIN is its once this turn.

    `target` is the opposing unit its `damage N` hits (-1: none).
    """
    foe = 1 - side
    card = st[ux(side, u, U_CARD)]
    target_id = st[ux(foe, target, U_ID)] if target >= 0 else NONE
    if timing == T_USE:
        st[ux(side, u, U_USED)] = 1
    else:
        st[ux(side, u, U_ACTED)] = 1
    log(st, side, EV_ACTIVATE, card, timing, ZERO)
    # "When a card is used to ... activate an effect, the opponent can react": before it resolves; if the reaction
    # destroys the card, its effect does not resolve.
    my_id = st[ux(side, u, U_ID)]
    react(G, st, foe, T_FOE_ACTIVATES, my_id, card)
    if st[G_OVER] == 1 or find_unit(st, side, my_id) < 0:
        return
    resolve_played_effects(G, st, side, card, target_id, timing)


@rules_kernel
def cast_spell(
    G: IntArray, st: IntArray, side: EngineInt, hand_index: EngineInt, target: EngineInt, planned: EngineBool
) -> None:
    """Play a magic card without Equip; its `damage N` hits the opposing unit `target` (-1: none). Its sacrifices:
    `take_and_pay`, `planned` as there."""
    foe = 1 - side
    target_id = st[ux(foe, target, U_ID)] if target >= 0 else NONE
    card = take_and_pay(G, st, side, hand_index, planned)
    count_played(st, side, card)
    log(st, side, EV_CAST, card, NONE, ZERO)
    react(G, st, foe, T_FOE_ACTIVATES, NONE, card)  # the opponent may react to the magic card's effect first
    if st[G_OVER] == 1:
        return
    resolve_played_effects(G, st, side, card, target_id, T_PLAIN)


@rules_kernel
def equip(
    G: IntArray,
    st: IntArray,
    side: EngineInt,
    hand_index: EngineInt,
    host_side: EngineInt,
    host: EngineInt,
    target: EngineInt,
) -> None:
    """Attach an Equip card to a unit in play (either side's): its atk/def bonus and element last while attached.

    `target` is the opposing unit its `damage N` hits, if it has one (-1: none).
    """
    foe = 1 - side
    host_id = st[ux(host_side, host, U_ID)]
    target_id = st[ux(foe, target, U_ID)] if target >= 0 else NONE
    card = take_and_pay(G, st, side, hand_index, UNPLANNED)
    count_played(st, side, card)
    host = find_unit(st, host_side, host_id)
    if host < 0:  # its own sacrifice took the host: the card is spent for nothing
        log(st, side, EV_FIZZLE, card, NONE, ZERO)
        return
    log(st, side, EV_EQUIP, card, st[ux(host_side, host, U_CARD)], host_side)
    st[ux(host_side, host, U_ATK_BONUS)] += cv(G, card, C_EQUIP_ATK)
    st[ux(host_side, host, U_DEF_BONUS)] += cv(G, card, C_EQUIP_DEF)
    st[ux(host_side, host, U_ELEMENTS)] |= cv(G, card, C_APPLIES)
    if cv(G, card, C_DIRECT) >= 0:  # its `direct N` replaces what the host's direct attacks dealt
        st[ux(host_side, host, U_DIRECT)] = cv(G, card, C_DIRECT)
    if cv(G, card, C_EQUIP_DEF) < 0:
        destroy_if_dead(G, st, host_side, host)
    resolve_played_effects(G, st, side, card, target_id, T_PLAIN)


@rules_kernel
def set_trap(G: IntArray, st: IntArray, side: EngineInt, hand_index: EngineInt, planned: EngineBool) -> None:
    """Set a trap face down; it springs on its Trigger (`react`): an opposing attack unless its effects say
    otherwise. Its sacrifices: `take_and_pay`, `planned` as there."""
    card = take_and_pay(G, st, side, hand_index, planned)
    set_count = st[sx(side, S_TRAPS)]
    st[zx(st, side, Z_TRAPS, set_count)] = card
    st[sx(side, S_TRAPS)] = set_count + 1
    count_played(st, side, card)
    log(st, side, EV_SET_TRAP, card, NONE, set_count + 1)


@rules_kernel
def has_reaction(G: IntArray, card: EngineInt, timing: EngineInt) -> bool:
    """Whether a trap or monster has an effect bound to this Trigger (damage, draw, shield or apply)."""
    return (cv(G, card, C_REACTS) >> timing) & 1 == 1


@rules_kernel
def traps_for(G: IntArray, st: IntArray, owner: EngineInt, timing: EngineInt) -> int:
    """How many of the owner's set traps react to this Trigger."""
    found = 0
    for i in range(st[sx(owner, S_TRAPS)]):
        if has_reaction(G, st[zx(st, owner, Z_TRAPS, i)], timing):
            found += 1
    return found


@rules_kernel
def resolve_reaction(
    G: IntArray, st: IntArray, owner: EngineInt, card: EngineInt, timing: EngineInt, trigger_id: EngineInt
) -> None:
    """A Trigger's effects: `damage N` to the card that set it off (its unit id; -1: a magic card, not in play),
    `apply` on that card's player, `draw` and `shield` for the owner."""
    trigger_side = 1 - owner
    for i in range(MAX_EFFECTS):
        if st[G_OVER] == 1:
            return
        if fx_timing(G, card, i) != timing:
            continue
        opcode = fx_opcode(G, card, i)
        argument = fx_argument(G, card, i)
        if opcode == OP_DAMAGE:
            if trigger_id < 0:
                log(st, owner, EV_NO_TARGET, card, NONE, argument)
                continue
            u = find_unit(st, trigger_side, trigger_id)
            if u >= 0:
                log(st, owner, EV_EFFECT_DAMAGE, card, st[ux(trigger_side, u, U_CARD)], argument)
                count_damage(st, owner, card, argument)
                damage_unit(G, st, trigger_side, u, argument)
        elif opcode == OP_APPLY:
            apply_element(G, st, trigger_side, argument, card)
        elif opcode == OP_DRAW:
            draw_cards(G, st, owner, argument)
        elif opcode == OP_SHIELD:
            change_shield(st, owner, argument, card)


@rules_kernel
def react(
    G: IntArray, st: IntArray, owner: EngineInt, timing: EngineInt, trigger_id: EngineInt, trigger_card: EngineInt
) -> None:
    """The owner reacts to the opponent's action ("At the moment the condition indicated by the trigger is
    fulfilled, the associated effect can be activated"): the oldest set trap bound to this Trigger springs (and
    leaves play), then each of the owner's monsters with an effect bound to it fires, once a turn each.

    `trigger_id` is the unit that set it off (-1: a magic card), `trigger_card` its card.
    """
    n_traps = st[sx(owner, S_TRAPS)]
    for t in range(n_traps):
        trap = st[zx(st, owner, Z_TRAPS, t)]
        if not has_reaction(G, trap, timing):
            continue
        for i in range(t, n_traps - 1):
            st[zx(st, owner, Z_TRAPS, i)] = st[zx(st, owner, Z_TRAPS, i + 1)]
        st[zx(st, owner, Z_TRAPS, n_traps - 1)] = -1
        st[sx(owner, S_TRAPS)] = n_traps - 1
        log(st, owner, EV_TRAP, trap, trigger_card, timing)
        resolve_reaction(G, st, owner, trap, timing, trigger_id)
        break
    for u in range(st[sx(owner, S_UNITS)]):
        if st[G_OVER] == 1:
            return
        card = st[ux(owner, u, U_CARD)]
        if st[ux(owner, u, U_REACTED)] == 1 or not has_reaction(G, card, timing):
            continue
        st[ux(owner, u, U_REACTED)] = 1
        log(st, owner, EV_REACT, card, trigger_card, timing)
        resolve_reaction(G, st, owner, card, timing, trigger_id)


@rules_kernel
def attack(G: IntArray, st: IntArray, side: EngineInt, u: EngineInt, target: EngineInt) -> None:
    """Attack the opposing unit `target` (or the opponent directly when -1); this uses the attacker.

    The defender reacts first (`react`: its oldest trap bound to an attack, its monsters bound to one); if that
    destroys the attacker, the attack never resolves. A card attack deals the attacker's Atk; a direct attack deals 1
    to the shield, or what a `direct N` on the attacker or its equipment says ("Direct attacks always deal 1 damage
    ... unless otherwise specified"). Either way the attacker's elements (its own `apply` and its equipment's) are
    then applied to the opponent.
    """
    foe = 1 - side
    card = st[ux(side, u, U_CARD)]
    attacker_id = st[ux(side, u, U_ID)]
    target_id = st[ux(foe, target, U_ID)] if target >= 0 else NONE
    st[ux(side, u, U_USED)] = 1
    count(st, side, card, ATTACKED_COUNTER)
    react(G, st, foe, T_FOE_ATTACKS, attacker_id, card)
    if st[G_OVER] == 1:
        return
    u = find_unit(st, side, attacker_id)
    if u < 0:
        return
    mask = cv(G, card, C_APPLIES) | st[ux(side, u, U_ELEMENTS)]
    if target_id < 0:
        amount = st[ux(side, u, U_DIRECT)]
        log(st, side, EV_DIRECT, card, NONE, amount)
        count_damage(st, side, card, amount)
        if amount > 0:
            change_shield(st, foe, -amount, card)
    else:
        t = find_unit(st, foe, target_id)
        if t < 0:
            return
        amount = unit_atk(G, st, side, u)
        log(st, side, EV_ATTACK, card, st[ux(foe, t, U_CARD)], amount)
        count_damage(st, side, card, amount)
        damage_unit(G, st, foe, t, amount)
    if mask != 0 and st[G_OVER] == 0:
        apply_elements(G, st, foe, mask, card)


@rules_kernel
def support(st: IntArray, side: EngineInt, u: EngineInt, target: EngineInt) -> None:
    """Use a Support card: +1 Atk to a monster you control for this turn."""
    st[ux(side, u, U_USED)] = 1
    st[ux(side, target, U_TEMP_ATK)] += 1
    log(
        st,
        side,
        EV_SUPPORT,
        st[ux(side, u, U_CARD)],
        st[ux(side, target, U_CARD)],
        ONE,
    )


@rules_kernel
def move_unit(st: IntArray, side: EngineInt, u: EngineInt, row: EngineInt) -> None:
    """Use a Mobile card: move it one row forward or back on its own field."""
    st[ux(side, u, U_USED)] = 1
    st[sx(side, S_ROW0 + st[ux(side, u, U_ROW)])] -= 1
    st[ux(side, u, U_ROW)] = row
    st[sx(side, S_ROW0 + row)] += 1
    log(st, side, EV_MOVE, st[ux(side, u, U_CARD)], NONE, row)


# ---------------------------------------------------------------------------------------------------------------
# Turn structure


@rules_kernel
def start_turn(G: IntArray, st: IntArray, side: EngineInt) -> None:
    """Ready the side's cards, let statuses strike, then draw (the first player skips their first draw by default)."""
    first_turn = st[G_TURN] == 0
    st[G_TURN] += 1
    st[G_ACTIVE] = side
    st[sx(side, S_SUMMONS)] = 0
    for u in range(st[sx(side, S_UNITS)]):
        st[ux(side, u, U_USED)] = 0
        st[ux(side, u, U_ACTED)] = 0
    for s in range(2):  # a monster's Trigger effect fires once a turn, whoever's turn it is
        for u in range(st[sx(s, S_UNITS)]):
            st[ux(s, u, U_REACTED)] = 0
    log(
        st,
        side,
        EV_TURN,
        st[sx(SIDE_A, S_SHIELD)],
        st[sx(SIDE_B, S_SHIELD)],
        st[sx(side, S_HAND)] * 1000 + st[sx(side, S_DECK_LEN)] - st[sx(side, S_DECK_TOP)],
    )
    tick_statuses(G, st, side)
    if opt(G, O_TICKS_EVERY) == 1:
        tick_statuses(G, st, 1 - side)
    if st[G_OVER] == 1:
        return
    if not first_turn or opt(G, O_FIRST_DRAWS) == 1:
        draw_cards(G, st, side, opt(G, O_DRAW))


@rules_kernel
def end_turn(G: IntArray, st: IntArray, side: EngineInt) -> None:
    """Support lasts one turn; without persistent damage, every card heals."""
    for u in range(st[sx(side, S_UNITS)]):
        st[ux(side, u, U_TEMP_ATK)] = 0
    if opt(G, O_DAMAGE_PERSISTS) == 0:
        for s in range(2):
            for u in range(st[sx(s, S_UNITS)]):
                st[ux(s, u, U_DAMAGE)] = 0


@rules_kernel
def begin_turn(G: IntArray, st: IntArray, side: EngineInt) -> None:
    """The side's turn begins (`start_turn`), unless the match's last turn (st[G_LAST_TURN]) has been played: then it
    ends as a draw."""
    if st[G_TURN] >= st[G_LAST_TURN]:
        end_match(st, NONE)
        return
    start_turn(G, st, side)


@rules_kernel
def shuffle_zone(st: IntArray, base: EngineInt, number: EngineInt) -> None:
    """Fisher-Yates over `number` words of `st` from `base`, drawing exactly what `rng_below(st, i + 1)` would draw:
    `engines.shuffle_in_place` on that zone with the generator's words st[0:4], which it holds in registers for the
    whole shuffle (stepping them through `st` made each draw wait on the previous swap's stores)."""
    shuffle_in_place(st[base : base + number], number, st[0:4])


@rules_kernel
def setup_match(G: IntArray, st: IntArray, deck_a: IntArray, deck_b: IntArray) -> None:
    """Shuffle both decks (A then B) and draw the starting hands."""
    for side in range(2):
        deck = deck_a if side == 0 else deck_b
        base = zx(st, side, Z_DECK, ZERO)
        for i in range(deck.shape[0]):
            st[base + i] = deck[i]
        st[sx(side, S_DECK_LEN)] = deck.shape[0]
        shuffle_zone(st, base, deck.shape[0])
    for side in range(2):
        draw_cards(G, st, side, opt(G, O_HAND_SIZE))


# ---------------------------------------------------------------------------------------------------------------
# The rules' interface: legal_actions, apply, clone (every policy plays through these three, listing and applying
# through `legal_actions_of` and `apply_of` with the side it plays), and `determinize` (the search deals its sampled
# worlds with it; `sort_cards` is its helper)


@inline_kernel
def add_action(
    st: IntArray, out: EngineInt, n: EngineInt, kind: EngineInt, a: EngineInt, b: EngineInt, c: EngineInt
) -> EngineInt:
    """Write one action row (kind, a, b, c) as row `n` of the list at word `out` of `st`; returns the new count."""
    base = out + n * 4
    st[base] = kind
    st[base + 1] = a
    st[base + 2] = b
    st[base + 3] = c
    return n + 1


@inline_kernel
def attack_rows(G: IntArray, st: IntArray, side: EngineInt, out: EngineInt, n: EngineInt, u: EngineInt) -> EngineInt:
    """Append the attack rows of unit `u` (one that can be used) after the n rows at word `out`: the player first
    (u, -1) when it may attack them, then each opposing card in reach, in order; returns the new count. Copied into
    `legal_actions_of`: no call per unit."""
    card = st[ux(side, u, U_CARD)]
    if cv(G, card, C_CAN_ATTACK) == 0:
        return n
    foe = 1 - side
    if can_attack_player(G, st, side, u):
        n = add_action(st, out, n, A_ATTACK, u, NONE, ZERO)
    # in_range(st, side, u, v), with the opposing side of the distance worked out once: attacker's place + the
    # target's place (counting only the occupied rows in front of it, effective_row) + 1 <= range.
    reach = cv(G, card, C_RANGE) - attacker_place(G, st, side, st[ux(side, u, U_ROW)]) - 1
    foe_place_1 = 1 if st[sx(foe, S_ROW0)] > 0 else 0
    foe_place_2 = foe_place_1 + (1 if st[sx(foe, S_ROW1)] > 0 else 0)
    for v in range(st[sx(foe, S_UNITS)]):
        row = st[ux(foe, v, U_ROW)]
        if (0 if row == 0 else (foe_place_1 if row == 1 else foe_place_2)) <= reach:
            n = add_action(st, out, n, A_ATTACK, u, v, ZERO)
    return n


@rules_kernel
def legal_actions_of(
    G: IntArray, st: IntArray, side: EngineInt, out: EngineInt, kinds: EngineInt, only: EngineInt
) -> EngineInt:
    """The legal actions of the kinds in the bit mask `kinds` (bit 1 << A_*) and, unless `only` is -1, of one card
    only (the hand card at index `only` for kinds played from the hand, the unit `only` for the others): exactly
    `legal_actions`' rows for `side` that match, in its order, so a policy weighing one card or one kind need not
    list the rest. Written as rows (kind, a, b, c) at word `out` of `st`; returns how many. While a decision is open
    (G_PENDING), the only legal actions are its answers, whatever is asked: one (A_TARGET, v, 0, 0) per opposing
    unit v."""
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    n: EngineInt
    foe = 1 - side
    n = 0
    if st[G_PENDING] != PENDING_NONE:
        for v in range(st[sx(foe, S_UNITS)]):
            n = add_action(st, out, n, A_TARGET, v, ZERO, ZERO)
        return n
    hand_kinds = (1 << A_SUMMON) | (1 << A_TRAP) | (1 << A_EQUIP) | (1 << A_CAST)
    limit = opt(G, O_SUMMONS)
    summons_left = limit == 0 or st[sx(side, S_SUMMONS)] < limit
    # A policy weighing one card asks for its rows only: the loops then visit that card alone.
    hand_end = st[sx(side, S_HAND)] if kinds & hand_kinds != 0 else 0
    if only >= 0:
        hand_end = min(hand_end, only + 1)
    for h in range(only if only >= 0 else 0, hand_end):
        card = st[zx(st, side, Z_HAND, h)]
        kind = cv(G, card, C_KIND)
        if kind == KIND_MONSTER and (not summons_left or kinds & (1 << A_SUMMON) == 0):
            continue
        if kind == KIND_TRAP and (st[sx(side, S_TRAPS)] >= opt(G, O_TRAP_SLOTS) or kinds & (1 << A_TRAP) == 0):
            continue
        if kind == KIND_MAGIC:
            if kinds & (1 << (A_EQUIP if cv(G, card, C_EQUIP) == 1 else A_CAST)) == 0:
                continue
        if not can_pay(G, st, side, h):
            continue
        if kind == KIND_MONSTER:
            for row in range(ROWS):
                if room_in_row(G, st, side, row):
                    n = add_action(st, out, n, A_SUMMON, h, row, ZERO)
        elif kind == KIND_TRAP:
            n = add_action(st, out, n, A_TRAP, h, ZERO, ZERO)
        elif cv(G, card, C_EQUIP) == 1:
            for host_side in range(2):
                for u in range(st[sx(host_side, S_UNITS)]):
                    if not (host_side == side and planned_unit(st, u)):
                        n = add_action(st, out, n, A_EQUIP, h, host_side, u)
        elif cv(G, card, C_DAMAGE) > 0 and st[sx(foe, S_UNITS)] > 0:
            for v in range(st[sx(foe, S_UNITS)]):
                n = add_action(st, out, n, A_CAST, h, v, ZERO)
        else:
            n = add_action(st, out, n, A_CAST, h, NONE, ZERO)
    unit_kinds = (1 << A_ACTIVATE) | (1 << A_ATTACK) | (1 << A_SUPPORT) | (1 << A_MOVE)
    unit_end = st[sx(side, S_UNITS)] if kinds & unit_kinds != 0 else 0
    if only >= 0:
        unit_end = min(unit_end, only + 1)
    for u in range(only if only >= 0 else 0, unit_end):
        card = st[ux(side, u, U_CARD)]
        for timing in (T_PLAIN, T_USE):
            if kinds & (1 << A_ACTIVATE) != 0 and can_activate(G, st, side, u, timing):
                if tv(G, card, timing, TV_DAMAGE) > 0 and st[sx(foe, S_UNITS)] > 0:
                    for v in range(st[sx(foe, S_UNITS)]):
                        n = add_action(st, out, n, A_ACTIVATE, u, v, timing)
                else:
                    n = add_action(st, out, n, A_ACTIVATE, u, NONE, timing)
        if not can_use(G, st, side, u):
            continue
        if kinds & (1 << A_ATTACK) != 0:
            n = attack_rows(G, st, side, out, n, u)
        if kinds & (1 << A_SUPPORT) != 0 and cv(G, card, C_SUPPORT) == 1:
            for a in range(st[sx(side, S_UNITS)]):
                if a != u:
                    n = add_action(st, out, n, A_SUPPORT, u, a, ZERO)
        if kinds & (1 << A_MOVE) != 0 and cv(G, card, C_MOBILE) == 1:
            row = st[ux(side, u, U_ROW)]
            if row > 0 and st[sx(side, S_ROW0 + row - 1)] < opt(G, O_ROW_SLOTS):
                n = add_action(st, out, n, A_MOVE, u, row - 1, ZERO)
            if row < ROWS - 1 and st[sx(side, S_ROW0 + row + 1)] < opt(G, O_ROW_SLOTS):
                n = add_action(st, out, n, A_MOVE, u, row + 1, ZERO)
    if kinds & (1 << A_END) != 0 and only < 0:
        n = add_action(st, out, n, A_END, ZERO, ZERO, ZERO)
    return n


@rules_kernel
def legal_actions(G: IntArray, st: IntArray, out: EngineInt) -> EngineInt:
    """Every legal action of the side whose decision is open (st[G_ACTIVE], the side whose turn it is) now, as rows
    (kind, a, b, c) written at word `out` of `st` (the action list, st[G_ACTIONS], unless the caller keeps its own);
    returns how many. "End the turn" (A_END) is the last row while no target is open. The policies list through
    `legal_actions_of` with the side (the active one) and the kinds they weigh."""
    return legal_actions_of(G, st, st[G_ACTIVE], out, ALL_ACTIONS, NONE)


@rules_kernel
def find_row(
    st: IntArray, out: EngineInt, n: EngineInt, kind: EngineInt, a: EngineInt, b: EngineInt, c: EngineInt
) -> int:
    """The index of the row (kind, a, b, c) among the n rows listed at word `out` (-1: not listed)."""
    for i in range(n):
        base = out + 4 * i
        if st[base] == kind and st[base + 1] == a and st[base + 2] == b and st[base + 3] == c:
            return i
    return -1


@rules_kernel
def is_legal(G: IntArray, st: IntArray, side: EngineInt, row: EngineInt) -> EngineBool:
    """Whether the action row at word `row` of `st` is one that `legal_actions_of(G, st, side, ...)` lists now, asked of
    that one row: a policy that has worked out its action without the list may ask this instead of listing (greedy
    tests its rows with the listing's own tests, `can_pay`, `room_in_row`, `can_use`, ...: no call per row).

    Summons, traps, casts, equipment, activations and attacks are tested directly, with the tests `legal_actions_of`
    makes for them; any other row (Support, a move, an answer) is looked up among its card's listed rows, written in
    the words after `row` onwards (room the action list has: a policy asking writes its row at the list's start).
    While a decision is open only its answers are legal. Leaves the sacrifice plan of the card in `st`, as listing
    does.
    """
    kind = st[row]
    a = st[row + 1]
    b = st[row + 2]
    c = st[row + 3]
    pending = st[G_PENDING] != PENDING_NONE
    if kind == A_END:
        return not pending and a == 0 and b == 0 and c == 0
    if kind == A_ATTACK:
        if pending or c != 0 or a < 0 or a >= st[sx(side, S_UNITS)] or not can_use(G, st, side, a):
            return False
        if cv(G, st[ux(side, a, U_CARD)], C_CAN_ATTACK) == 0:
            return False
        if b == -1:
            return can_attack_player(G, st, side, a)
        return 0 <= b < st[sx(1 - side, S_UNITS)] and in_range(G, st, side, a, b)
    if kind == A_ACTIVATE:
        if pending or a < 0 or a >= st[sx(side, S_UNITS)] or (c != T_PLAIN and c != T_USE):
            return False
        if not can_activate(G, st, side, a, c):
            return False
        foe_units = st[sx(1 - side, S_UNITS)]
        if tv(G, st[ux(side, a, U_CARD)], c, TV_DAMAGE) > 0 and foe_units > 0:
            return 0 <= b < foe_units
        return b == -1
    if kind == A_EQUIP:
        if pending or a < 0 or a >= st[sx(side, S_HAND)] or b < 0 or b > 1 or c < 0 or c >= st[sx(b, S_UNITS)]:
            return False
        card = st[zx(st, side, Z_HAND, a)]
        if cv(G, card, C_KIND) != KIND_MAGIC or cv(G, card, C_EQUIP) != 1 or not can_pay(G, st, side, a):
            return False
        return not (b == side and planned_unit(st, c))
    if kind == A_SUMMON or kind == A_TRAP or kind == A_CAST:
        if pending or c != 0 or a < 0 or a >= st[sx(side, S_HAND)]:
            return False
        card = st[zx(st, side, Z_HAND, a)]
        if kind == A_SUMMON:
            limit = opt(G, O_SUMMONS)
            if cv(G, card, C_KIND) != KIND_MONSTER or not (limit == 0 or st[sx(side, S_SUMMONS)] < limit):
                return False
            if b < 0 or b >= ROWS or not can_pay(G, st, side, a):
                return False
            return room_in_row(G, st, side, b)
        if kind == A_TRAP:
            if cv(G, card, C_KIND) != KIND_TRAP or b != 0 or st[sx(side, S_TRAPS)] >= opt(G, O_TRAP_SLOTS):
                return False
            return can_pay(G, st, side, a)
        if cv(G, card, C_KIND) != KIND_MAGIC or cv(G, card, C_EQUIP) == 1:
            return False
        foe_units = st[sx(1 - side, S_UNITS)]
        targeted = cv(G, card, C_DAMAGE) > 0 and foe_units > 0
        if (targeted and not 0 <= b < foe_units) or (not targeted and b != -1):
            return False
        return can_pay(G, st, side, a)
    n = legal_actions_of(G, st, side, row + 4, 1 << kind, a)
    return find_row(st, row + 4, n, kind, a, b, c) >= 0


@llvm_inline_kernel
def apply_of(G: IntArray, st: IntArray, side: EngineInt, row: EngineInt) -> None:
    """`side` takes the action row at word `row` of `st` (one that `legal_actions_of` listed for it): summon, cast,
    equip, set a trap, attack, Support, move, activate, answer the open decision, or end the turn (the other side's
    turn then begins, `begin_turn`, or the match ends at its last turn). `apply` is this for the active side.

    An action whose damage target is still to choose opens a decision instead of finishing (G_PENDING): a summon
    whose summon Trigger deals damage (the monster is in play, the Trigger waits), an Equip card with `damage N`
    (nothing happens until the target is chosen). The next `legal_actions` lists the targets, and the A_TARGET row
    chosen finishes the action. Chance (shuffles, draws) only ever comes from st's own generator, st[0:4].
    """
    kind = st[row]
    a = st[row + 1]
    b = st[row + 2]
    c = st[row + 3]
    # A card played from the hand is paid on the plan `can_pay` left for it, when that is the plan kept (a policy's
    # listing or its own test asked just before: the board is the same), else on a plan made anew; the same
    # sacrifices either way (`take_and_pay`). A plan is kept for one row at most.
    planned = st[G_PLANNED] == planned_key(side, a)
    st[G_PLANNED] = NO_PLAN
    if kind == A_ATTACK:  # the commonest rows first
        attack(G, st, side, a, b)
    elif kind == A_SUMMON:
        summon(G, st, side, a, b, planned)
    elif kind == A_END:
        end_turn(G, st, side)
        begin_turn(G, st, 1 - side)
    elif kind == A_TARGET:
        pending = st[G_PENDING]
        st[G_PENDING] = PENDING_NONE
        if pending == A_SUMMON:
            summon_resolves(G, st, side, st[G_PENDING_A], a)
        else:
            equip(G, st, side, st[G_PENDING_A], st[G_PENDING_B], st[G_PENDING_C], a)
    elif kind == A_TRAP:
        set_trap(G, st, side, a, planned)
    elif kind == A_CAST:
        cast_spell(G, st, side, a, b, planned)
    elif kind == A_EQUIP:
        if cv(G, st[zx(st, side, Z_HAND, a)], C_DAMAGE) > 0 and st[sx(1 - side, S_UNITS)] > 0:
            st[G_PENDING] = A_EQUIP
            st[G_PENDING_A] = a
            st[G_PENDING_B] = b
            st[G_PENDING_C] = c
        else:
            equip(G, st, side, a, b, c, NONE)
    elif kind == A_SUPPORT:
        support(st, side, a, b)
    elif kind == A_ACTIVATE:
        activate(G, st, side, a, c, b)
    else:
        move_unit(st, side, a, b)


@llvm_inline_kernel
def apply(G: IntArray, st: IntArray, row: EngineInt) -> None:
    """Take the action row at word `row` of `st` (one that `legal_actions` listed) for the side whose decision is
    open (st[G_ACTIVE]): `apply_of` for that side."""
    apply_of(G, st, st[G_ACTIVE], row)


@rules_kernel
def clone(st: IntArray, into: IntArray) -> None:
    """The match state of `st` (header, open decision, sides, board, zones, sacrifice plan, the policies' scratch)
    copied into `into`, a state of the same cards and capacity; not the action list, counters or trace, which stay
    `into`'s own. `into` logs nothing. The game data is not in a state: every state of a batch reads the one `G`."""
    for k in range(st[G_ACTIONS]):
        into[k] = st[k]
    into[G_EVENT_ROWS] = 0
    into[G_EVENTS] = 0


@rules_kernel
def sort_cards(st: IntArray, base: EngineInt, number: EngineInt) -> None:
    """Sort `number` card ids of `st` from `base` ascending: by counting each card id (a card set has fewer ids than
    a sort of a deck takes steps), in the last words of the action list, which `determinize` leaves free; by
    insertion sort when they are not free (a deck so long that its pool reaches them)."""
    cards = st[G_NCARDS]
    counts = st[G_ACTIONS] + 4 * MAX_ACTIONS - cards
    if base + number <= counts or base >= counts + cards:
        for card in range(cards):
            st[counts + card] = 0
        for i in range(number):
            st[counts + st[base + i]] += 1
        at = base
        for card in range(cards):
            for _ in range(st[counts + card]):
                st[at] = card
                at += 1
        return
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    j: EngineInt
    for i in range(1, number):
        value = st[base + i]
        j = i
        while j > 0 and st[base + j - 1] > value:
            st[base + j] = st[base + j - 1]
            j -= 1
        st[base + j] = value


@rules_kernel
def determinize(G: IntArray, st: IntArray, side: EngineInt, rng: IntArray) -> None:
    """What `side` cannot see, dealt anew with the generator `rng` (4 xorshift words) from what it can know.

    The opponent's hand, face-down traps and draw deck are one pool of unseen cards (how many of each is seen):
    the pool is sorted, then shuffled; its first trap cards in that order fill the set trap slots (only a trap is
    set), the rest fill the hand, then the deck. The side's own draw deck is sorted and shuffled too. Sorting first
    means the deal depends on which cards are unseen and on the generator, never on where they really lie.
    """
    foe = 1 - side
    st[G_PLANNED] = NO_PLAN  # a plan made before the deal is not trusted after it
    pool = st[G_ACTIONS]  # the action list is free scratch in a rollout's buffer
    held = st[sx(foe, S_HAND)]
    traps = st[sx(foe, S_TRAPS)]
    top = st[sx(foe, S_DECK_TOP)]
    length = st[sx(foe, S_DECK_LEN)]
    n = ZERO
    for i in range(held):
        st[pool + n] = st[zx(st, foe, Z_HAND, i)]
        n += 1
    for i in range(traps):
        st[pool + n] = st[zx(st, foe, Z_TRAPS, i)]
        n += 1
    for i in range(top, length):
        st[pool + n] = st[zx(st, foe, Z_DECK, i)]
        n += 1
    sort_cards(st, pool, n)
    shuffle_in_place(st[pool : pool + n], n, rng)
    placed = ZERO
    rest = 0
    for i in range(n):
        card = st[pool + i]
        if placed < traps and cv(G, card, C_KIND) == KIND_TRAP:
            st[zx(st, foe, Z_TRAPS, placed)] = card
            placed += 1
        else:
            st[pool + rest] = card
            rest += 1
    for i in range(rest):
        if i < held:
            st[zx(st, foe, Z_HAND, i)] = st[pool + i]
        else:
            st[zx(st, foe, Z_DECK, top + i - held)] = st[pool + i]
    own_top = st[sx(side, S_DECK_TOP)]
    base = zx(st, side, Z_DECK, own_top)
    number = st[sx(side, S_DECK_LEN)] - own_top
    sort_cards(st, base, number)
    shuffle_in_place(st[base : base + number], number, rng)


# ---------------------------------------------------------------------------------------------------------------
# Matches: a match's start, and where it stands for a play loop (`workbench.play.loop.play_out` plays it: the
# deciding side's policy chooses a listed row, `apply` takes it; "end the turn" starts the other side's turn)


@rules_kernel
def open_match(
    G: IntArray,
    st: IntArray,
    deck_a: IntArray,
    deck_b: IntArray,
    first: EngineInt,
    policy_a: EngineInt,
    policy_b: EngineInt,
    seed: EngineInt,
) -> None:
    """A match's start, up to the first decision: the state cleared, each side's policy block started from its policy
    word (`workbench.play.policies.policy_word`) and the match's seed, the decks shuffled and dealt, and the turn of
    `first` begun (`begin_turn`). The result is st[G_WINNER] (-1 draw) and st[G_TURN] once `is_over`."""
    reset_state(st)
    st[G_LAST_TURN] = opt(G, O_TURN_CAP)
    start_policy(policy_of(st, SIDE_A), policy_a, seed, SIDE_A)
    start_policy(policy_of(st, SIDE_B), policy_b, seed, SIDE_B)
    setup_match(G, st, deck_a, deck_b)
    begin_turn(G, st, first)


@llvm_inline_kernel
def is_over(st: IntArray) -> bool:
    """Whether the match is over (a play loop's stop): otherwise a decision of the side whose turn it is is open."""
    return st[G_OVER] == 1
