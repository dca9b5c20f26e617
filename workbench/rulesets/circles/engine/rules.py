"""The circles rules: a decision and its legal actions, applying one, and every rule kernel of a turn and a match
(the rules document's steps, as the package docstring lists them), with the contract's four functions:
`legal_actions(R, S, out) -> n`, `apply(R, S, k)`, `clone(S, into)` and `determinize(R, S, s, rng)`.

Imports only `layout`: no rule reads which policy a side plays, and no module of the policies is imported here. The
turn goes by stages (`advance`, layout's STAGE_*) and stops at its two hand decisions (a resource, a character);
`play_stages` answers them through the policies' door `choose_hand` and takes the answer (`take_hand`). The decisions
asked while a rule resolves (abilities, damage, Extra Card's free characters) still go to the door inline (`ask` calls
`choose`, `ask_hand` calls `choose_hand`); the package binds those two names here before any kernel compiles (see
below and `engine/__init__.py`).
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
    rng_below,
    rng_seed,
    rules_kernel,
    shuffle_in_place,
)
from workbench.policies import start_policy
from workbench.rulesets.circles.engine.layout import (
    A_ACTIVATION,
    A_COLOUR,
    A_NUMBER,
    ATTACK_BOOST_2,
    AVOID_DAMAGE,
    BOARD,
    CARD_MANAGEMENT_ABILITIES,
    CARDS_WHEN_OUT,
    CHANGE_THE_FUTURE,
    D_ARG,
    D_KIND,
    D_LANE,
    D_N,
    D_OTHER,
    D_SIDE,
    DECK,
    DISCARD,
    DISPERSE,
    EV_ABILITY,
    EV_ARRANGED,
    EV_DESTROYED,
    EV_DIRECT,
    EV_DRAW,
    EV_FREE_PLAY,
    EV_HIT,
    EV_IGNORED,
    EV_JUST_ARRIVED,
    EV_LANE,
    EV_NO_CARD,
    EV_OUT_OF_CARDS,
    EV_PLAY,
    EV_REFLECTED,
    EV_RESHUFFLE,
    EV_RESOURCE,
    EV_RESOURCES,
    EV_RESTORED,
    EV_SEE,
    EV_SLEEPING,
    EV_SPREAD,
    EV_SWAP,
    EV_TURN,
    EV_TURN_CAP,
    EV_WIN,
    EVENT_COUNT_AT,
    FIREBALL,
    FUTURE_VISION,
    G_ACTIVE,
    G_IN_COMBAT,
    G_NEXT,
    G_PLAYED,
    G_SHIELD,
    G_STAGE,
    G_TURN,
    G_WINNER,
    H_EVENT_ROWS,
    HAND,
    HEAL_1,
    HEAL_2,
    HEAL_ABILITIES,
    K_ARRANGE,
    K_ATTACK_BOOST,
    K_AVOID,
    K_CHARACTER,
    K_DISPERSE,
    K_FIREBALL,
    K_FUTURE_SIGHT,
    K_HEAL,
    K_LONG_RANGE,
    K_REORDER,
    K_RESOURCE,
    K_RESTORE,
    K_SELF_DESTRUCT,
    K_SERENITY,
    K_SLEEP,
    K_SPREAD_AMOUNT,
    K_SPREAD_CARD,
    K_TARGET,
    KIND_CHARACTER,
    KIND_RESOURCE,
    L_ASLEEP,
    L_ATTACK_BONUS,
    L_AVOIDING,
    L_BOOSTED,
    L_DAMAGE,
    L_ENTERED,
    L_HEALTH_BONUS,
    L_MODE,
    L_TARGET,
    L_USED,
    LANE_COLUMNS,
    LANE_MODE_ABILITIES,
    LONG_RANGE,
    MODE_FIGHT,
    MODE_LONG_RANGE,
    MODE_SELF_DESTRUCT,
    MODE_TARGET,
    NO,
    NO_CARD,
    NO_COLOUR,
    NOTHING,
    O_DESTROY_AT_LEAST,
    O_EXTRA_EACH_TURN,
    O_NEW_CHARACTERS_ATTACK,
    O_ONE_PER_ATTACKER,
    O_RESHUFFLE,
    O_RESOURCES_PER_TURN,
    O_RESPOND,
    O_SERENITY_EVERYONE,
    O_SLEEP_OPENS_LANE,
    O_TURN_CAP,
    ONE,
    ORDER_BITS,
    PRECOMBAT_ABILITIES,
    REORDER,
    RESTORE,
    S_BOARD_N,
    S_DECK_N,
    S_DECK_TOP,
    S_DISCARD_N,
    S_HAND_N,
    S_LIFE,
    S_POLICY,
    S_READY,
    S_TOTAL,
    SELF_DESTRUCT,
    SERENITY,
    SERENITY_ABILITY,
    SLEEP,
    STAGE_CHARACTERS,
    STAGE_OVER,
    STAGE_READY,
    STAGE_RESOURCES,
    STAGE_REST,
    STAGE_TURN,
    STARTING_HAND,
    STARTING_LIFE,
    STOP,
    T_ACTIVATED,
    T_ARMOR,
    T_ATTACK,
    T_BOOST,
    T_COLOUR,
    T_EXTRA,
    T_FAST,
    T_GUARD,
    T_HEALTH,
    T_KIND,
    T_PIERCE,
    T_RED,
    T_REFLECT,
    TARGET,
    UNDECIDED,
    YES,
    abilities_of,
    ability_table_of,
    actions_of,
    counters_of,
    decision_of,
    event_count_of,
    events_of,
    game_of,
    lanes_of,
    options_of,
    policy_of,
    rng_of,
    side_of,
    state_words,
    table_of,
    zones_of,
)

# ---------------------------------------------------------------------------------------------------------------
# The policies' door, as the rules see it
#
# `ask` and `ask_hand` hand each decision to the deciding side's policy through `choose` and `choose_hand`, which
# live with the policies (greedy.py, above the rules: a rule that imported them could read a policy). The package
# binds the two names here (`bind_policy_door` in engine/__init__.py) as it is imported, before any kernel compiles:
# Numba reads a kernel's globals when it compiles it, so the compiled rules call the policies' door directly, as they
# did when both were one module. These stand-ins are never called: uncompiled they raise, and Numba compiles no call
# to a plain Python function.


def choose(R: IntArray, S: IntArray) -> EngineInt:
    """The policies' `choose` (greedy.py), bound here by the package."""
    raise NotImplementedError("the policies' door is bound by workbench.rulesets.circles.engine")


def choose_hand(R: IntArray, S: IntArray) -> EngineInt:
    """The policies' `choose_hand` (greedy.py), bound here by the package."""
    raise NotImplementedError("the policies' door is bound by workbench.rulesets.circles.engine")


# ---------------------------------------------------------------------------------------------------------------
# Small helpers: the card in a lane, resources, timing


@rules_kernel
def lane_card(S: IntArray, s: EngineInt, i: EngineInt) -> int:
    """The card id in lane i of side s, or -1 (no card, or past the board's end)."""
    zones, side = zones_of(S), side_of(S)
    if i < 0 or i >= side[s, S_BOARD_N]:
        return -1
    return zones[s, BOARD, i]


@rules_kernel
def may_act(R: IntArray, S: IntArray, s: EngineInt) -> bool:
    """Side s may use abilities now: it is their turn, or the opponent's and `respond_in_opponent_turn` is on."""
    return game_of(S)[G_ACTIVE] == s or options_of(R)[O_RESPOND] == 1


@rules_kernel
def can_activate(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt, ability: EngineInt) -> bool:
    """The card in lane i has the ability, has not used it this turn, its side may act and can pay."""
    table, ability_table = table_of(R), ability_table_of(R)
    side, lanes = side_of(S), lanes_of(S)
    card = lane_card(S, s, i)
    if card < 0 or (table[card, T_ACTIVATED] >> ability) & 1 == 0:
        return False
    if (lanes[s, i, L_USED] >> ability) & 1:
        return False
    if not may_act(R, S, s):
        return False
    return side[s, S_READY + ability_table[ability, A_COLOUR]] >= ability_table[ability, A_ACTIVATION]


@rules_kernel
def activate(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt, ability: EngineInt, other: EngineInt) -> None:
    """Pay the ability's activation, mark it used this turn, and log it (other = the card it acts on, or -1)."""
    ability_table = ability_table_of(R)
    side, lanes, game, events, event_count = side_of(S), lanes_of(S), game_of(S), events_of(S), event_count_of(S)
    side[s, S_READY + ability_table[ability, A_COLOUR]] -= ability_table[ability, A_ACTIVATION]
    lanes[s, i, L_USED] |= 1 << ability
    log_event(events, event_count, game[G_TURN], s, EV_ABILITY, lane_card(S, s, i), other, ability)


@inline_kernel
def can_pay_card(R: IntArray, S: IntArray, s: EngineInt, card: EngineInt) -> bool:
    """Side s has enough ready resources of each colour to bring the card into play."""
    table, side = table_of(R), side_of(S)
    for colour in range(3):
        if side[s, S_READY + colour] < table[card, T_RED + colour]:
            return False
    return True


@rules_kernel
def side_abilities(R: IntArray, S: IntArray, s: EngineInt) -> int:
    """The activated abilities side s has in play, one bit each."""
    table = table_of(R)
    mask = 0
    for i in range(side_of(S)[s, S_BOARD_N]):
        card = lane_card(S, s, i)
        if card >= 0:
            mask |= table[card, T_ACTIVATED]
    return mask


# ---------------------------------------------------------------------------------------------------------------
# The rules' interface: a decision, its legal actions, and applying one
#
# Where a rule leaves something to the player, it opens a decision (`ask`: the kind, the side, the lane and amount
# it is about, in `decision_of(S)`), `legal_actions` lists its answers as rows (a, b) in the action list, a policy
# chooses one row (`choose`, in greedy.py: the rules never read which policy a side plays), and `apply`
# takes it. `apply` only takes the action itself (pays, marks, moves cards, logs); what follows from it (Fireball's
# damage and the reactions to it, the characters an Extra Card brings) is the rules' code after it, which asks its
# own decisions. A decision is asked even with one legal action: the random policy draws its dice there as it
# always did.


@inline_kernel
def add_row(out: IntArray, n: EngineInt, a: EngineInt, b: EngineInt) -> EngineInt:
    """Write row n of an action list; returns the new count."""
    out[n, 0] = a
    out[n, 1] = b
    return n + 1


@inline_kernel
def list_resources(R: IntArray, S: IntArray, s: EngineInt, out: IntArray) -> EngineInt:
    """K_RESOURCE: each resource in hand that has a colour, in hand order, then stopping."""
    table, zones, side = table_of(R), zones_of(S), side_of(S)
    n = 0
    for h in range(side[s, S_HAND_N]):
        card = zones[s, HAND, h]
        if table[card, T_KIND] == KIND_RESOURCE and table[card, T_COLOUR] != NO_COLOUR:
            out[n, 0] = h
            out[n, 1] = 0
            n += 1
    return add_row(out, np.int64(n), STOP, NOTHING)


@inline_kernel
def list_characters(R: IntArray, S: IntArray, s: EngineInt, free: EngineInt, out: IntArray) -> EngineInt:
    """K_CHARACTER: each character in hand it can pay for (any, when free), in hand order, then stopping (a card an
    Extra Card brings in free is not declined: the rule says it comes in)."""
    table, zones, side = table_of(R), zones_of(S), side_of(S)
    n = 0
    for h in range(side[s, S_HAND_N]):
        card = zones[s, HAND, h]
        if table[card, T_KIND] == KIND_CHARACTER and (free == 1 or can_pay_card(R, S, s, card)):
            out[n, 0] = h
            out[n, 1] = 0
            n += 1
    if free == 1:
        return n
    return add_row(out, np.int64(n), STOP, NOTHING)


@rules_kernel
def list_lanes(S: IntArray, o: EngineInt, skip: EngineInt, awake_only: EngineBool, out: IntArray) -> EngineInt:
    """Not acting, then each card of side o left to right (but lane `skip`; awake ones only, if asked)."""
    lanes = lanes_of(S)
    n = add_row(out, NOTHING, STOP, NOTHING)
    for j in range(side_of(S)[o, S_BOARD_N]):
        if lane_card(S, o, j) >= 0 and j != skip and not (awake_only and lanes[o, j, L_ASLEEP] == 1):
            n = add_row(out, n, np.int64(j), NOTHING)
    return n


@rules_kernel
def list_heals(R: IntArray, S: IntArray, s: EngineInt, out: IntArray) -> EngineInt:
    """K_HEAL: not healing, then each usable Heal 1, then each usable Heal 2, left to right."""
    n = add_row(out, NOTHING, STOP, NOTHING)
    for heal in (HEAL_1, HEAL_2):
        for j in range(side_of(S)[s, S_BOARD_N]):
            if can_activate(R, S, s, j, heal):
                n = add_row(out, n, np.int64(j), heal)
    return n


@rules_kernel
def list_pairs(S: IntArray, s: EngineInt, out: IntArray) -> EngineInt:
    """K_REORDER: not swapping, then each ordered pair of lanes holding cards (x, y), x first."""
    n = add_row(out, NOTHING, STOP, STOP)
    board = side_of(S)[s, S_BOARD_N]
    for x in range(board):
        if lane_card(S, s, x) < 0:
            continue
        for y in range(board):
            if y != x and lane_card(S, s, y) >= 0:
                n = add_row(out, n, np.int64(x), np.int64(y))
    return n


@rules_kernel
def list_orders(seen: EngineInt, out: IntArray) -> EngineInt:
    """K_ARRANGE: every order of the top `seen` cards (the order they are in first), as ORDER_BITS digits."""
    # Typed for mypy only (a bare annotation runs no code): ints at first, then EngineInts.
    n: EngineInt
    total: EngineInt
    rest: EngineInt
    order: EngineInt
    used: EngineInt
    n = 0
    total = 1
    for _ in range(seen):
        total *= seen
    for code in range(total):
        order = 0
        used = 0
        rest = code
        valid = True
        for p in range(seen):
            digit = rest % seen
            rest //= seen
            if (used >> digit) & 1:
                valid = False
                break
            used |= 1 << digit
            order |= digit << (ORDER_BITS * p)
        if valid:
            n = add_row(out, np.int64(n), np.int64(order), NOTHING)
    return n


@inline_kernel
def identity_order(seen: EngineInt) -> EngineInt:
    """The order that leaves the top `seen` cards as they are."""
    order = np.int64(0)  # not `0`: a literal would type `find_row` a second time in the callers it is copied into
    for p in range(seen):
        order |= p << (ORDER_BITS * p)
    return order


@inline_kernel
def order_digit(order: EngineInt, p: EngineInt) -> EngineInt:
    """Which of the top cards (offset from the top, as they were) goes to position p."""
    return (order >> (ORDER_BITS * p)) & 7


@inline_kernel
def legal_actions(R: IntArray, S: IntArray, out: IntArray) -> EngineInt:
    """The pending decision's legal actions (`decision_of(S)`), as rows (a, b) written into `out` (the action list,
    `actions_of(S)`, unless the caller keeps its own); returns how many. The rows of each kind: the K_* list."""
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    n: EngineInt
    decision = decision_of(S)
    kind, s, i = decision[D_KIND], decision[D_SIDE], decision[D_LANE]
    if kind == K_RESOURCE:
        return list_resources(R, S, s, out)
    if kind == K_CHARACTER:
        return list_characters(R, S, s, decision[D_ARG], out)
    if kind == K_SPREAD_CARD:
        return list_lanes(S, s, i, NO, out)
    if kind == K_SPREAD_AMOUNT:
        n = 0
        for m in range(1, min(decision[D_ARG], out.shape[0]) + 1):
            n = add_row(out, np.int64(n), np.int64(m), NOTHING)
        return n
    if kind == K_HEAL:
        return list_heals(R, S, s, out)
    if kind == K_TARGET:
        return list_lanes(S, 1 - s, i, NO, out)
    if kind == K_FIREBALL:
        return list_lanes(S, 1 - s, NO_CARD, NO, out)
    if kind == K_SLEEP:
        return list_lanes(S, 1 - s, NO_CARD, YES, out)
    if kind == K_REORDER:
        return list_pairs(S, s, out)
    if kind == K_RESTORE:
        n = add_row(out, NOTHING, STOP, NOTHING)
        for k in range(side_of(S)[s, S_DISCARD_N]):
            n = add_row(out, n, np.int64(k), NOTHING)
        return n
    if kind == K_ARRANGE:
        return list_orders(decision[D_ARG], out)
    # The yes/no decisions: Avoid Damage, Disperse, Long Range, Self Destruct, Attack Boost 2, Future Vision and
    # Change the Future, Serenity.
    n = add_row(out, NOTHING, STOP, NOTHING)
    return add_row(out, n, ONE, NOTHING)


@rules_kernel
def ask(
    R: IntArray, S: IntArray, kind: EngineInt, s: EngineInt, i: EngineInt, arg: EngineInt, other: EngineInt
) -> EngineInt:
    """Open a decision of `kind` for side s (about lane i, with `arg` and `other` as the kind says), list its legal
    actions and let the side's policy choose; returns the chosen row for `apply` (-1: no legal action)."""
    decision = decision_of(S)
    decision[D_KIND] = kind
    decision[D_SIDE] = s
    decision[D_LANE] = i
    decision[D_ARG] = arg
    decision[D_OTHER] = other
    n = legal_actions(R, S, actions_of(S))
    decision[D_N] = n
    if n == 0:
        return -1
    return choose(R, S)


@inline_kernel
def declined(S: IntArray, k: EngineInt) -> EngineBool:
    """Row k is the declining row (stop, none, keep), or there was no legal action (k = -1)."""
    return k < 0 or actions_of(S)[k, 0] < 0


@inline_kernel
def take(R: IntArray, S: IntArray, k: EngineInt) -> EngineInt:
    """`apply(R, S, k)`, without the call when row k declines (stop, none, no, keep) or k = -1: most answers of the
    ability decisions are no, and the call was a tenth of greedy's time."""
    if declined(S, k):
        return STOP
    return apply(R, S, k)


@inline_kernel
def ask_hand(R: IntArray, S: IntArray, kind: EngineInt, s: EngineInt, arg: EngineInt, other: EngineInt) -> EngineInt:
    """`ask` for the decisions of every turn, K_RESOURCE and K_CHARACTER (`arg` 1: the character comes in free, by
    `other`'s Extra Card): opens the decision and returns the policy's answer as the action's first column, the hand
    position of the card to play (STOP: none), which the caller plays as `apply` would (`play_resource`,
    `enter_play`). The answer comes from `choose_hand`, which lists the rows only for a policy that needs them."""
    open_hand(S, kind, s, arg, other)
    return choose_hand(R, S)


@inline_kernel
def open_hand(S: IntArray, kind: EngineInt, s: EngineInt, arg: EngineInt, other: EngineInt) -> None:
    """Open a hand decision (K_RESOURCE or K_CHARACTER) for side s, `arg` and `other` as `ask_hand` takes them."""
    decision = decision_of(S)
    decision[D_KIND] = kind
    decision[D_SIDE] = s
    decision[D_LANE] = NO_CARD
    decision[D_ARG] = arg
    decision[D_OTHER] = other


@inline_kernel
def enter_play(R: IntArray, S: IntArray, s: EngineInt, h: EngineInt, free: EngineInt, source: EngineInt) -> int:
    """The character at hand position h comes into play in the next lane (paid for unless free; `source` is the
    card whose Extra Card brings it, for the log); returns the card."""
    table, side, game, counters, events, event_count = (
        table_of(R),
        side_of(S),
        game_of(S),
        counters_of(S),
        events_of(S),
        event_count_of(S),
    )
    card = take_from_hand(S, s, h)
    if free == 0:
        for colour in range(3):
            side[s, S_READY + colour] -= table[card, T_RED + colour]
    lane = place_on_board(S, s, card)
    count_play(counters, s, card, game[G_TURN])
    if free == 0:
        log_event(events, event_count, game[G_TURN], s, EV_PLAY, card, NO_CARD, lane)
    else:
        log_event(events, event_count, game[G_TURN], s, EV_FREE_PLAY, card, source, lane)
    return card


@rules_kernel
def arrange(R: IntArray, S: IntArray, s: EngineInt, seen: EngineInt, order: EngineInt) -> None:
    """Change the Future: put the top `seen` cards of the draw deck in `order` (K_ARRANGE's rows)."""
    zones, side, game, events, event_count = zones_of(S), side_of(S), game_of(S), events_of(S), event_count_of(S)
    top = side[s, S_DECK_TOP]
    deck = zones[s, DECK]
    at = identity_order(seen)  # which card (offset as it was) is at each position now
    for p in range(seen):
        wanted = order_digit(order, p)
        q = p
        while order_digit(at, q) != wanted:
            q += 1
        if q != p:
            value = deck[top + p]
            deck[top + p] = deck[top + q]
            deck[top + q] = value
            moved = order_digit(at, p)
            at = (at & ~(7 << (ORDER_BITS * q))) | (moved << (ORDER_BITS * q))
            at = (at & ~(7 << (ORDER_BITS * p))) | (wanted << (ORDER_BITS * p))
    for k in range(seen):
        log_event(events, event_count, game[G_TURN], s, EV_ARRANGED, deck[top + k], NO_CARD, k + 1)


@rules_kernel
def apply(R: IntArray, S: IntArray, k: EngineInt) -> EngineInt:
    """Take row k of the pending decision's listed actions; returns its first column (the hand position, lane,
    card brought in, 1 for yes; -1 for declining or for k = -1, no legal action).

    Resources and characters are played (paid, counted, logged), an ability is paid and its mark or choice set
    (Long Range, Self Destruct and Target as the lane's mode; Sleep; Attack Boost 2; Avoid Damage; a Heal's
    damage taken off; Reorder's swap; Restore's card to the hand; what Future Vision sees; Change the Future's
    order; Serenity's discard and shield), Disperse's damage moved onto a card.
    """
    if k < 0:
        return STOP
    decision, out = decision_of(S), actions_of(S)
    kind, s, i = decision[D_KIND], decision[D_SIDE], decision[D_LANE]
    a, b = out[k, 0], out[k, 1]
    if a < 0:
        return STOP
    lanes, zones, side, game, events, event_count = (
        lanes_of(S),
        zones_of(S),
        side_of(S),
        game_of(S),
        events_of(S),
        event_count_of(S),
    )
    o = 1 - s
    if kind == K_RESOURCE:
        play_resource(R, S, s, a)
        return a
    if kind == K_CHARACTER:
        return enter_play(R, S, s, a, decision[D_ARG], decision[D_OTHER])
    if kind == K_SPREAD_CARD:
        return a
    if kind == K_SPREAD_AMOUNT:
        j = decision[D_OTHER]
        lanes[s, j, L_DAMAGE] += a
        log_event(events, event_count, game[G_TURN], s, EV_SPREAD, lane_card(S, s, i), lane_card(S, s, j), a)
        return a
    if kind == K_HEAL:
        activate(R, S, s, a, b, lane_card(S, s, i))
        lanes[s, i, L_DAMAGE] = max(0, lanes[s, i, L_DAMAGE] - ability_table_of(R)[b, A_NUMBER])
        return a
    if kind == K_TARGET:
        activate(R, S, s, i, TARGET, lane_card(S, o, a))
        lanes[s, i, L_MODE] = MODE_TARGET
        lanes[s, i, L_TARGET] = a
        return a
    if kind == K_FIREBALL:
        activate(R, S, s, i, FIREBALL, lane_card(S, o, a))
        return a
    if kind == K_SLEEP:
        activate(R, S, s, i, SLEEP, lane_card(S, o, a))
        lanes[o, a, L_ASLEEP] = 1
        return a
    if kind == K_REORDER:
        activate(R, S, s, i, REORDER, NO_CARD)
        log_event(events, event_count, game[G_TURN], s, EV_SWAP, lane_card(S, s, a), lane_card(S, s, b), NOTHING)
        swap_lanes(S, s, a, b)
        return a
    if kind == K_RESTORE:
        n = side[s, S_DISCARD_N]
        card = zones[s, DISCARD, a]
        for j in range(a, n - 1):
            zones[s, DISCARD, j] = zones[s, DISCARD, j + 1]
        side[s, S_DISCARD_N] = n - 1
        zones[s, HAND, side[s, S_HAND_N]] = card
        side[s, S_HAND_N] += 1
        activate(R, S, s, i, RESTORE, card)
        log_event(events, event_count, game[G_TURN], s, EV_RESTORED, card, NO_CARD, NOTHING)
        return a
    if kind == K_ARRANGE:
        arrange(R, S, s, decision[D_ARG], a)
        return a
    # The yes/no decisions: row 0 is no (declining, above), row 1 yes.
    card = lane_card(S, s, i)
    if kind == K_AVOID:
        activate(R, S, s, i, AVOID_DAMAGE, card)
        lanes[s, i, L_AVOIDING] = 1
        log_event(events, event_count, game[G_TURN], s, EV_IGNORED, card, AVOID_DAMAGE, decision[D_ARG])
    elif kind == K_DISPERSE:
        activate(R, S, s, i, DISPERSE, card)
    elif kind == K_LONG_RANGE:
        activate(R, S, s, i, LONG_RANGE, NO_CARD)
        lanes[s, i, L_MODE] = MODE_LONG_RANGE
    elif kind == K_SELF_DESTRUCT:
        activate(R, S, s, i, SELF_DESTRUCT, lane_card(S, o, i))
        lanes[s, i, L_MODE] = MODE_SELF_DESTRUCT
    elif kind == K_ATTACK_BOOST:
        activate(R, S, s, i, ATTACK_BOOST_2, NO_CARD)
        lanes[s, i, L_BOOSTED] += 1
    elif kind == K_FUTURE_SIGHT:
        ability = decision[D_ARG]
        top = side[s, S_DECK_TOP]
        activate(R, S, s, i, ability, NO_CARD)
        for j in range(cards_to_see(R, S, s, ability)):
            log_event(events, event_count, game[G_TURN], s, EV_SEE, zones[s, DECK, top + j], NO_CARD, j + 1)
    elif kind == K_SERENITY:
        log_event(events, event_count, game[G_TURN], s, EV_ABILITY, card, NO_CARD, SERENITY)
        zones[s, BOARD, i] = -1
        to_discard(S, s, card)
        game[G_SHIELD] |= 3 if options_of(R)[O_SERENITY_EVERYONE] == 1 else 1 << s
    return a


@rules_kernel
def cards_to_see(R: IntArray, S: IntArray, s: EngineInt, ability: EngineInt) -> EngineInt:
    """How many cards Future Vision or Change the Future shows: its number, or what is left of the draw deck."""
    side = side_of(S)
    return min(ability_table_of(R)[ability, A_NUMBER], side[s, S_DECK_N] - side[s, S_DECK_TOP])


# ---------------------------------------------------------------------------------------------------------------
# Health, attack and the bonuses neighbours give


@rules_kernel
def live_attack_bonus(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt) -> int:
    """Attack the neighbours in lanes i-1 and i+1 give (Attack Boost 1, and Attack Boost 2 when activated)."""
    table, ability_table, lanes = table_of(R), ability_table_of(R), lanes_of(S)
    bonus = 0
    for j in (i - 1, i + 1):
        card = lane_card(S, s, j)
        if card >= 0:
            bonus += table[card, T_BOOST]
            if lanes[s, j, L_BOOSTED] > 0:
                bonus += ability_table[ATTACK_BOOST_2, A_NUMBER] * lanes[s, j, L_BOOSTED]
    return bonus


@rules_kernel
def live_health_bonus(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt) -> int:
    """Health the neighbours in lanes i-1 and i+1 give (Defender)."""
    table = table_of(R)
    bonus = 0
    for j in (i - 1, i + 1):
        card = lane_card(S, s, j)
        if card >= 0:
            bonus += table[card, T_GUARD]
    return bonus


@llvm_inline_kernel
def attack_of(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt) -> int:
    """Attack of the card in lane i with its bonuses (as fixed at the start of combat, during combat)."""
    table, lanes, game = table_of(R), lanes_of(S), game_of(S)
    card = lane_card(S, s, i)
    if game[G_IN_COMBAT] == 1:
        return table[card, T_ATTACK] + lanes[s, i, L_ATTACK_BONUS]
    return table[card, T_ATTACK] + live_attack_bonus(R, S, s, i)


@llvm_inline_kernel
def health_of(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt) -> int:
    """Health of the card in lane i with its bonuses (as fixed at the start of combat, during combat)."""
    table, lanes, game = table_of(R), lanes_of(S), game_of(S)
    card = lane_card(S, s, i)
    if game[G_IN_COMBAT] == 1:
        return table[card, T_HEALTH] + lanes[s, i, L_HEALTH_BONUS]
    return table[card, T_HEALTH] + live_health_bonus(R, S, s, i)


@rules_kernel
def room_for_damage(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt) -> int:
    """How much more damage the card in lane i can take and survive (0 or more)."""
    room = health_of(R, S, s, i) - lanes_of(S)[s, i, L_DAMAGE]
    if options_of(R)[O_DESTROY_AT_LEAST] == 1:
        room -= 1
    return max(room, 0)


@rules_kernel
def destroyed_by(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt, extra: EngineInt) -> bool:
    """Would the card in lane i be destroyed with `extra` more damage? (\u201cmore Damage than\u201d, or by option
    \u201cat least\u201d)."""
    total = lanes_of(S)[s, i, L_DAMAGE] + extra
    health = health_of(R, S, s, i)
    if options_of(R)[O_DESTROY_AT_LEAST] == 1:
        return total >= health
    return total > health


@llvm_inline_kernel
def combat_damage(R: IntArray, S: IntArray, src: EngineInt, si: EngineInt, dst: EngineInt, di: EngineInt) -> int:
    """Damage the card in lane si deals the card in lane di: its Attack less the target's Armor not pierced."""
    table = table_of(R)
    source = lane_card(S, src, si)
    target = lane_card(S, dst, di)
    armor = table[target, T_ARMOR] - table[source, T_PIERCE]
    if armor < 0:
        armor = 0
    damage = attack_of(R, S, src, si) - armor
    return damage if damage > 0 else 0


@rules_kernel
def shielded(R: IntArray, S: IntArray, s: EngineInt) -> bool:
    """Damage to side s is ignored for the rest of the turn (Serenity)."""
    return (game_of(S)[G_SHIELD] >> s) & 1 == 1


@rules_kernel
def attacks_now(R: IntArray, S: IntArray, a: EngineInt, i: EngineInt) -> bool:
    """The card in lane i takes part in its side's attack: awake, and not brought in this turn unless new ones
    attack."""
    lanes, game = lanes_of(S), game_of(S)
    if lane_card(S, a, i) < 0 or lanes[a, i, L_ASLEEP] == 1:
        return False
    return options_of(R)[O_NEW_CHARACTERS_ATTACK] == 1 or lanes[a, i, L_ENTERED] != game[G_TURN]


@rules_kernel
def direct_damage(R: IntArray, S: IntArray, a: EngineInt, i: EngineInt) -> int:
    """What an unopposed attacker takes from the player: its Attack, or 1 (option `direct_damage`)."""
    if options_of(R)[O_ONE_PER_ATTACKER] == 1:
        return 1
    return attack_of(R, S, a, i)


@rules_kernel
def opposed(R: IntArray, S: IntArray, d: EngineInt, i: EngineInt) -> bool:
    """An attacker in lane i meets a defender: a card is there, awake (a sleeping one blocks only by option)."""
    if lane_card(S, d, i) < 0:
        return False
    return lanes_of(S)[d, i, L_ASLEEP] == 0 or options_of(R)[O_SLEEP_OPENS_LANE] == 0


# ---------------------------------------------------------------------------------------------------------------
# Zones: drawing, playing, discarding, moving cards between lanes


@inline_kernel
def draw_one(R: IntArray, S: IntArray, s: EngineInt) -> int:
    """Draw the top card into the hand; -1 when the deck is empty."""
    zones, side, game, counters, events, event_count = (
        zones_of(S),
        side_of(S),
        game_of(S),
        counters_of(S),
        events_of(S),
        event_count_of(S),
    )
    top = side[s, S_DECK_TOP]
    if top >= side[s, S_DECK_N]:
        log_event(events, event_count, game[G_TURN], s, EV_NO_CARD, NO_CARD, NO_CARD, NOTHING)
        return -1
    card = zones[s, DECK, top]
    side[s, S_DECK_TOP] = top + 1
    zones[s, HAND, side[s, S_HAND_N]] = card
    side[s, S_HAND_N] += 1
    count_draw(counters, s, card)
    log_event(events, event_count, game[G_TURN], s, EV_DRAW, card, NO_CARD, NOTHING)
    return card


@rules_kernel
def reshuffle_discard(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """The discard pile, shuffled, becomes the draw deck (option `out_of_cards=reshuffle_discard_draws_3`)."""
    zones, side, game, rng, events, event_count = (
        zones_of(S),
        side_of(S),
        game_of(S),
        rng_of(S),
        events_of(S),
        event_count_of(S),
    )
    count = side[s, S_DISCARD_N]
    for k in range(count):
        zones[s, DECK, k] = zones[s, DISCARD, k]
    side[s, S_DECK_N] = count
    side[s, S_DECK_TOP] = 0
    side[s, S_DISCARD_N] = 0
    shuffle_in_place(zones[s, DECK], count, rng)
    log_event(events, event_count, game[G_TURN], s, EV_RESHUFFLE, NO_CARD, NO_CARD, count)


@llvm_inline_kernel
def draw_step(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """Draw 1; when out of cards, draw 3 (which \u201cout of cards\u201d means is the option `out_of_cards`). Once a
    turn, with `draw_one` copied in once: compiled once and copied by LLVM where the start of a turn is (the batch
    loop, the search's match loop and its rollouts)."""
    opts, side, game, events, event_count = options_of(R), side_of(S), game_of(S), events_of(S), event_count_of(S)
    count = 1
    if opts[O_RESHUFFLE] == 1:
        if side[s, S_DECK_TOP] >= side[s, S_DECK_N] and side[s, S_DISCARD_N] > 0:
            reshuffle_discard(R, S, s)
            count = CARDS_WHEN_OUT
    elif side[s, S_HAND_N] == 0:
        count = CARDS_WHEN_OUT
    if count == CARDS_WHEN_OUT:
        log_event(events, event_count, game[G_TURN], s, EV_OUT_OF_CARDS, NO_CARD, NO_CARD, count)
    for _ in range(count):
        draw_one(R, S, s)


@inline_kernel
def take_from_hand(S: IntArray, s: EngineInt, h: EngineInt) -> int:
    """Remove the card at hand position h (keeping the hand's order) and return it."""
    zones, side = zones_of(S), side_of(S)
    card = zones[s, HAND, h]
    n = side[s, S_HAND_N]
    for k in range(h, n - 1):
        zones[s, HAND, k] = zones[s, HAND, k + 1]
    side[s, S_HAND_N] = n - 1
    return card


@rules_kernel
def clear_lane(S: IntArray, s: EngineInt, i: EngineInt) -> None:
    """Reset a lane's damage and flags."""
    lanes = lanes_of(S)
    for k in range(LANE_COLUMNS):
        lanes[s, i, k] = 0
    lanes[s, i, L_TARGET] = -1


@rules_kernel
def place_on_board(S: IntArray, s: EngineInt, card: EngineInt) -> int:
    """Put a card in the next lane to the right (\u201cEach Character played after that, is one space to the
    right\u201d)."""
    zones, side = zones_of(S), side_of(S)
    i = side[s, S_BOARD_N]
    zones[s, BOARD, i] = card
    clear_lane(S, s, i)
    lanes_of(S)[s, i, L_ENTERED] = game_of(S)[G_TURN]
    side[s, S_BOARD_N] = i + 1
    return i


@rules_kernel
def to_discard(S: IntArray, s: EngineInt, card: EngineInt) -> None:
    """Put a card on top of the discard pile."""
    zones, side = zones_of(S), side_of(S)
    zones[s, DISCARD, side[s, S_DISCARD_N]] = card
    side[s, S_DISCARD_N] += 1


@rules_kernel
def destroy(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt) -> None:
    """The card in lane i goes to the discard pile; its lane stays empty until the board shifts left."""
    zones, game, counters, events, event_count = (
        zones_of(S),
        game_of(S),
        counters_of(S),
        events_of(S),
        event_count_of(S),
    )
    card = zones[s, BOARD, i]
    if card < 0:
        return
    zones[s, BOARD, i] = -1
    to_discard(S, s, card)
    counters[s, card, DESTROYED] += 1
    log_event(events, event_count, game[G_TURN], s, EV_DESTROYED, card, NO_CARD, i)


@rules_kernel
def swap_lanes(S: IntArray, s: EngineInt, i: EngineInt, j: EngineInt) -> None:
    """Swap two lanes' cards with their damage and flags (Reorder)."""
    zones, lanes = zones_of(S), lanes_of(S)
    card = zones[s, BOARD, i]
    zones[s, BOARD, i] = zones[s, BOARD, j]
    zones[s, BOARD, j] = card
    for k in range(LANE_COLUMNS):
        value = lanes[s, i, k]
        lanes[s, i, k] = lanes[s, j, k]
        lanes[s, j, k] = value


@inline_kernel
def shift_left(S: IntArray, s: EngineInt) -> None:
    """\u201cAfter all combat has been resolved, move Character Cards to the left, to fill in the empty spaces.\u201d"""
    zones, side, lanes = zones_of(S), side_of(S), lanes_of(S)
    kept = 0
    for i in range(side[s, S_BOARD_N]):
        if zones[s, BOARD, i] >= 0:
            if i != kept:
                zones[s, BOARD, kept] = zones[s, BOARD, i]
                for k in range(LANE_COLUMNS):
                    lanes[s, kept, k] = lanes[s, i, k]
            kept += 1
    for i in range(kept, side[s, S_BOARD_N]):
        zones[s, BOARD, i] = -1
        clear_lane(S, s, i)
    side[s, S_BOARD_N] = kept


# ---------------------------------------------------------------------------------------------------------------
# Playing cards: resources and characters


@inline_kernel
def play_resource(R: IntArray, S: IntArray, s: EngineInt, h: EngineInt) -> None:
    """Put the resource at hand position h on the table (it is readied in the ready step)."""
    table, side, game, counters, events, event_count = (
        table_of(R),
        side_of(S),
        game_of(S),
        counters_of(S),
        events_of(S),
        event_count_of(S),
    )
    card = take_from_hand(S, s, h)
    colour = table[card, T_COLOUR]
    side[s, S_TOTAL + colour] += 1
    count_play(counters, s, card, game[G_TURN])
    totals = side[s, S_TOTAL] * 10000 + side[s, S_TOTAL + 1] * 100 + side[s, S_TOTAL + 2]
    log_event(events, event_count, game[G_TURN], s, EV_RESOURCE, card, totals, colour)


@rules_kernel
def play_resources(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """Side s's resource stage alone (up to `resources_per_turn` resource cards, one decision each, the policy
    answering): as the rule tests play it. A match plays it among the turn's stages (`advance`)."""
    begin_resources(S, s)
    play_stages(R, S, np.int64(STAGE_READY))


@inline_kernel
def begin_resources(S: IntArray, s: EngineInt) -> None:
    """Side s's turn is at its resource stage, no resource card played yet (after its draw)."""
    game = game_of(S)
    game[G_ACTIVE] = s
    game[G_PLAYED] = 0
    game[G_STAGE] = STAGE_RESOURCES


@rules_kernel
def ready_resources(S: IntArray, s: EngineInt) -> None:
    """\u201cIf you have any Resource Cards that have been Spent (flipped over) return them to their unused
    state.\u201d"""
    side = side_of(S)
    for colour in range(3):
        side[s, S_READY + colour] = side[s, S_TOTAL + colour]


@inline_kernel
def extra_card_chain(R: IntArray, S: IntArray, s: EngineInt, card: EngineInt) -> None:
    """Extra Card (option `extra_card=on_entry`): the card just brought in brings more characters in, free; a card
    brought in by it may carry Extra Card too."""
    table = table_of(R)
    pending = table[card, T_EXTRA]
    while pending > 0:
        pending -= 1
        extra = bring_free_character(R, S, s, card)
        if extra < 0:
            break
        pending += table[extra, T_EXTRA]


@inline_kernel
def extra_cards_each_turn(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """Option `extra_card=each_turn`: each Extra Card in play brings one character from hand in, free."""
    table, zones, side = table_of(R), zones_of(S), side_of(S)
    board = side[s, S_BOARD_N]
    for i in range(board):
        source = zones[s, BOARD, i]
        if source < 0:
            continue
        for _ in range(table[source, T_EXTRA]):
            if bring_free_character(R, S, s, source) < 0:
                return


@rules_kernel
def bring_free_character(R: IntArray, S: IntArray, s: EngineInt, source: EngineInt) -> EngineInt:
    """Extra Card: a character from hand, chosen by the side's policy, comes into play free (`source` is the card
    whose Extra Card brings it); returns the card, or -1 when the hand holds no character."""
    h = ask_hand(R, S, K_CHARACTER, s, ONE, source)
    if h < 0:
        return NO_CARD
    return enter_play(R, S, s, h, ONE, source)


@llvm_inline_kernel
def play_characters(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """\u201cYou may bring as many Characters into play, as you can afford to.\u201d In Restore's phase (the turn's own
    characters are a stage, `advance`): its decisions are typed and optimised once, and LLVM copies them in."""
    while True:
        h = ask_hand(R, S, K_CHARACTER, s, NOTHING, NO_CARD)
        if h < 0:
            return
        play_character(R, S, s, h)


@inline_kernel
def play_character(R: IntArray, S: IntArray, s: EngineInt, h: EngineInt) -> None:
    """The character at hand position h comes into play, paid for, and brings in what its Extra Card brings (option
    `extra_card=on_entry`)."""
    card = enter_play(R, S, s, h, NOTHING, NO_CARD)
    if table_of(R)[card, T_EXTRA] > 0 and options_of(R)[O_EXTRA_EACH_TURN] == 0:
        extra_card_chain(R, S, s, card)


# ---------------------------------------------------------------------------------------------------------------
# Damage: prevention, Disperse, Reflect, Heal, destruction, Life Points


@inline_kernel
def spread_damage(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt, amount: EngineInt) -> EngineInt:
    """Disperse: move `amount` damage from lane i onto the side's other cards, a card and an amount at a time, as
    the side decides; returns what it keeps on the card in lane i."""
    left = amount
    while left > 0:
        j = take(R, S, ask(R, S, K_SPREAD_CARD, s, i, left, NO_CARD))
        if j < 0:
            break
        left -= take(R, S, ask(R, S, K_SPREAD_AMOUNT, s, i, left, j))
    return left


@rules_kernel
def absorbable(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt) -> int:
    """Damage the side's other cards could take without any being destroyed (what greedy Disperse can move)."""
    total = 0
    for j in range(side_of(S)[s, S_BOARD_N]):
        if j != i and lane_card(S, s, j) >= 0:
            total += room_for_damage(R, S, s, j)
    return total


@inline_kernel
def damage_after_prevention(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt, amount: EngineInt) -> EngineInt:
    """The damage the card in lane i actually takes: Serenity, Avoid Damage and Disperse come first."""
    game, events, event_count, lanes = game_of(S), events_of(S), event_count_of(S), lanes_of(S)
    card = lane_card(S, s, i)
    if amount <= 0:
        return 0
    if shielded(R, S, s):
        log_event(events, event_count, game[G_TURN], s, EV_IGNORED, card, SERENITY, amount)
        return 0
    if lanes[s, i, L_AVOIDING] == 1:
        log_event(events, event_count, game[G_TURN], s, EV_IGNORED, card, AVOID_DAMAGE, amount)
        return 0
    if can_activate(R, S, s, i, AVOID_DAMAGE):
        if take(R, S, ask(R, S, K_AVOID, s, i, amount, NO_CARD)) == 1:
            return 0
    if can_activate(R, S, s, i, DISPERSE):
        keep = room_for_damage(R, S, s, i)
        excess = amount - keep
        if excess > 0 and take(R, S, ask(R, S, K_DISPERSE, s, i, amount, NO_CARD)) == 1:
            left = spread_damage(R, S, s, i, excess)
            for j in range(side_of(S)[s, S_BOARD_N]):
                if j != i and lane_card(S, s, j) >= 0:
                    resolve(R, S, s, j)
            return keep + left
    return amount


@rules_kernel
def deal_damage(
    R: IntArray,
    S: IntArray,
    t: EngineInt,
    ti: EngineInt,
    amount: EngineInt,
    src: EngineInt,
    si: EngineInt,
    event: EngineInt,
) -> EngineInt:
    """The card in lane si deals `amount` to the card in lane ti, logged as `event` (EV_HIT, or EV_REFLECTED for
    Reflect's damage sent back); returns the damage a hit card's Reflect owes back (not yet dealt; 0 for reflected
    damage, which is not reflected again). `hit` and `reflect_onto` in one kernel, with `damage_after_prevention`
    copied in: each kernel links, optimizes and code-generates again all it calls, and these three each held the whole
    of the decisions' code (about 1.2 s of compile CPU each)."""
    table, lanes, game, counters, events, event_count = (
        table_of(R),
        lanes_of(S),
        game_of(S),
        counters_of(S),
        events_of(S),
        event_count_of(S),
    )
    target = lane_card(S, t, ti)
    if target < 0 or amount <= 0:
        return 0
    taken = damage_after_prevention(R, S, t, ti, amount)
    if taken <= 0:
        return 0
    lanes[t, ti, L_DAMAGE] += taken
    # The source is on the other side: preventing damage (Disperse's resolving, Heal) touches only side t's cards.
    source = lane_card(S, src, si)
    if source >= 0:
        counters[src, source, DAMAGE_DEALT] += taken
    log_event(events, event_count, game[G_TURN], src, event, source, target, taken)
    if event == EV_HIT and table[target, T_REFLECT] > 0:
        return (taken + 1) // 2
    return 0


@inline_kernel
def hit(
    R: IntArray, S: IntArray, t: EngineInt, ti: EngineInt, amount: EngineInt, src: EngineInt, si: EngineInt
) -> EngineInt:
    """The card in lane si deals `amount` to the card in lane ti; returns Reflect's damage owed back (not yet dealt)."""
    return deal_damage(R, S, t, ti, amount, src, si, EV_HIT)


@inline_kernel
def reflect_onto(
    R: IntArray, S: IntArray, t: EngineInt, ti: EngineInt, amount: EngineInt, src: EngineInt, si: EngineInt
) -> None:
    """Reflect: the card in lane si (the one hit) sends `amount` back to the card in lane ti that hit it."""
    deal_damage(R, S, t, ti, amount, src, si, EV_REFLECTED)


@rules_kernel
def resolve(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt) -> bool:
    """Destroy the card in lane i if its damage is past its Health, unless a Heal saves it; True if destroyed."""
    card = lane_card(S, s, i)
    if card < 0:
        return False
    if not destroyed_by(R, S, s, i, NOTHING):
        return False
    if side_abilities(R, S, s) & HEAL_ABILITIES != 0:
        if take(R, S, ask(R, S, K_HEAL, s, i, NOTHING, card)) >= 0 and not destroyed_by(R, S, s, i, NOTHING):
            return False
    destroy(R, S, s, i)
    return True


@llvm_inline_kernel
def hit_player(R: IntArray, S: IntArray, d: EngineInt, amount: EngineInt, src: EngineInt, si: EngineInt) -> None:
    """Damage straight to the defending player's Life Points (\u201cthe Defending Player loses the appropriate
    amount\u201d)."""
    side, game, counters, events, event_count = side_of(S), game_of(S), counters_of(S), events_of(S), event_count_of(S)
    source = lane_card(S, src, si)
    if amount <= 0:
        return
    if shielded(R, S, d):
        log_event(events, event_count, game[G_TURN], d, EV_IGNORED, NO_CARD, SERENITY, amount)
        return
    side[d, S_LIFE] -= amount
    if source >= 0:
        counters[src, source, DAMAGE_DEALT] += amount
    log_event(events, event_count, game[G_TURN], src, EV_DIRECT, source, side[d, S_LIFE], amount)
    if side[d, S_LIFE] <= 0 and game[G_WINNER] == UNDECIDED:
        game[G_WINNER] = 1 - d
        log_event(events, event_count, game[G_TURN], 1 - d, EV_WIN, NO_CARD, NO_CARD, NOTHING)


# ---------------------------------------------------------------------------------------------------------------
# Combat


@inline_kernel
def fight(R: IntArray, S: IntArray, a: EngineInt, i: EngineInt, d: EngineInt, j: EngineInt) -> None:
    """Lane i's attacker against the card in lane j: damage at once, unless exactly one of them is Fast."""
    table = table_of(R)
    to_d = combat_damage(R, S, a, i, d, j)
    to_a = combat_damage(R, S, d, j, a, i)
    fast_a = table[lane_card(S, a, i), T_FAST] > 0
    fast_d = table[lane_card(S, d, j), T_FAST] > 0
    if fast_a and not fast_d:
        back_to_a = hit(R, S, d, j, to_d, a, i)
        if resolve(R, S, d, j):
            return  # \u201cIf enemy card is destroyed, this card takes no damage\u201d (reflected damage included)
        back_to_d = hit(R, S, a, i, to_a, d, j)
        reflect_onto(R, S, a, i, back_to_a, d, j)
        reflect_onto(R, S, d, j, back_to_d, a, i)
    elif fast_d and not fast_a:
        back_to_d = hit(R, S, a, i, to_a, d, j)
        if resolve(R, S, a, i):
            return
        back_to_a = hit(R, S, d, j, to_d, a, i)
        reflect_onto(R, S, a, i, back_to_a, d, j)
        reflect_onto(R, S, d, j, back_to_d, a, i)
    else:
        back_to_a = hit(R, S, d, j, to_d, a, i)
        back_to_d = hit(R, S, a, i, to_a, d, j)
        reflect_onto(R, S, a, i, back_to_a, d, j)
        reflect_onto(R, S, d, j, back_to_d, a, i)
    resolve(R, S, d, j)
    resolve(R, S, a, i)


@inline_kernel
def fix_bonuses(R: IntArray, S: IntArray) -> None:
    """\u201cRemember to apply any Special Abilities that are appropriate, first, such as Health or Attack
    bonuses.\u201d"""
    side, lanes = side_of(S), lanes_of(S)
    for s in range(2):
        for i in range(side[s, S_BOARD_N]):
            lanes[s, i, L_ATTACK_BONUS] = live_attack_bonus(R, S, s, i)
            lanes[s, i, L_HEALTH_BONUS] = live_health_bonus(R, S, s, i)


@llvm_inline_kernel
def combat(R: IntArray, S: IntArray, a: EngineInt) -> None:
    """Side a's characters attack, lane by lane from the left; then both boards shift left."""
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    back_to_d: EngineInt
    side, lanes, game, counters, events, event_count = (
        side_of(S),
        lanes_of(S),
        game_of(S),
        counters_of(S),
        events_of(S),
        event_count_of(S),
    )
    d = 1 - a
    fix_bonuses(R, S)
    game[G_IN_COMBAT] = 1
    for i in range(max(side[a, S_BOARD_N], side[d, S_BOARD_N])):
        if lane_card(S, a, i) >= 0 or lane_card(S, d, i) >= 0:
            log_event(events, event_count, game[G_TURN], a, EV_LANE, lane_card(S, a, i), lane_card(S, d, i), i)
    for i in range(side[a, S_BOARD_N]):
        card = lane_card(S, a, i)
        if card < 0:
            continue
        if lanes[a, i, L_ASLEEP] == 1:
            log_event(events, event_count, game[G_TURN], a, EV_SLEEPING, card, NO_CARD, i)
            continue
        if not attacks_now(R, S, a, i):
            log_event(events, event_count, game[G_TURN], a, EV_JUST_ARRIVED, card, NO_CARD, i)
            continue
        counters[a, card, ATTACKED] += 1
        mode = lanes[a, i, L_MODE]
        if mode == MODE_SELF_DESTRUCT and lane_card(S, d, i) >= 0:
            destroy(R, S, d, i)
            destroy(R, S, a, i)
            continue
        if mode == MODE_LONG_RANGE:
            hit_player(R, S, d, attack_of(R, S, a, i), a, i)
        elif mode == MODE_TARGET and lane_card(S, d, lanes[a, i, L_TARGET]) >= 0:
            j = lanes[a, i, L_TARGET]
            back_to_a = hit(R, S, d, j, combat_damage(R, S, a, i, d, j), a, i)
            back_to_d = 0
            in_front = lane_card(S, d, i) >= 0 and lanes[d, i, L_ASLEEP] == 0
            if in_front:  # \u201cIt must still defend against the same location\u201d
                back_to_d = hit(R, S, a, i, combat_damage(R, S, d, i, a, i), d, i)
            reflect_onto(R, S, a, i, back_to_a, d, j)
            if in_front:
                reflect_onto(R, S, d, i, back_to_d, a, i)
            resolve(R, S, d, j)
            if in_front:
                resolve(R, S, d, i)
            resolve(R, S, a, i)
        elif not opposed(R, S, d, i):
            hit_player(R, S, d, direct_damage(R, S, a, i), a, i)
        elif lanes[d, i, L_ASLEEP] == 0:
            fight(R, S, a, i, d, i)
        if game[G_WINNER] != UNDECIDED:
            break
    game[G_IN_COMBAT] = 0
    shift_left(S, a)
    shift_left(S, d)


# ---------------------------------------------------------------------------------------------------------------
# Activated abilities before combat


@inline_kernel
def use_fireball(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt) -> None:
    """Fireball: 1 damage to an enemy card before combat (or not used)."""
    o = 1 - s
    j = take(R, S, ask(R, S, K_FIREBALL, s, i, NOTHING, NO_CARD))
    if j < 0:
        return
    hit(R, S, o, j, ability_table_of(R)[FIREBALL, A_NUMBER], s, i)
    resolve(R, S, o, j)


@inline_kernel
def use_sleep(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt) -> None:
    """Sleep: an enemy card neither attacks nor defends this turn (or not used)."""
    take(R, S, ask(R, S, K_SLEEP, s, i, NOTHING, NO_CARD))


@inline_kernel
def use_reorder(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt) -> None:
    """Reorder: swap two of your characters (or not used)."""
    take(R, S, ask(R, S, K_REORDER, s, i, NOTHING, NO_CARD))


@inline_kernel
def use_attack_boost(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt) -> None:
    """Attack Boost 2: +2 Attack to the cards on each side this turn (or not used)."""
    take(R, S, ask(R, S, K_ATTACK_BOOST, s, i, NOTHING, NO_CARD))


@inline_kernel
def use_restore(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt) -> bool:
    """Restore: a card from the discard pile to the hand (or not used); True if a card came back."""
    if side_of(S)[s, S_DISCARD_N] == 0:
        return False
    return bool(take(R, S, ask(R, S, K_RESTORE, s, i, NOTHING, NO_CARD)) >= 0)


@inline_kernel
def use_future_sight(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt, ability: EngineInt) -> None:
    """Future Vision (look at the top 3) and Change the Future (look and rearrange them), when there is a card to
    see."""
    seen = cards_to_see(R, S, s, ability)
    if seen <= 0 or take(R, S, ask(R, S, K_FUTURE_SIGHT, s, i, ability, NO_CARD)) != 1:
        return
    if ability == CHANGE_THE_FUTURE:
        take(R, S, ask(R, S, K_ARRANGE, s, i, seen, NO_CARD))


@rules_kernel
def choose_lane_modes(R: IntArray, S: IntArray, a: EngineInt) -> None:
    """Long Range, Self Destruct and Target are chosen (and paid) for each blocked attacker before combat."""
    table, lanes = table_of(R), lanes_of(S)
    d = 1 - a
    for i in range(side_of(S)[a, S_BOARD_N]):
        card = lane_card(S, a, i)
        if not attacks_now(R, S, a, i) or (table[card, T_ACTIVATED] & LANE_MODE_ABILITIES) == 0:
            continue
        blocked = opposed(R, S, d, i) and lanes[d, i, L_ASLEEP] == 0
        if not blocked:
            continue
        if can_activate(R, S, a, i, LONG_RANGE):
            if take(R, S, ask(R, S, K_LONG_RANGE, a, i, NOTHING, NO_CARD)) == 1:
                continue
        if can_activate(R, S, a, i, SELF_DESTRUCT):
            if take(R, S, ask(R, S, K_SELF_DESTRUCT, a, i, NOTHING, NO_CARD)) == 1:
                continue
        if can_activate(R, S, a, i, TARGET):
            take(R, S, ask(R, S, K_TARGET, a, i, NOTHING, NO_CARD))


@rules_kernel
def precombat_abilities(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """Fireball, Sleep, Reorder and Attack Boost 2 of side s, lane by lane (in either side's turn)."""
    if side_abilities(R, S, s) & PRECOMBAT_ABILITIES == 0 or not may_act(R, S, s):
        return
    for i in range(side_of(S)[s, S_BOARD_N]):
        if can_activate(R, S, s, i, FIREBALL):
            use_fireball(R, S, s, i)
    for i in range(side_of(S)[s, S_BOARD_N]):
        if can_activate(R, S, s, i, SLEEP):
            use_sleep(R, S, s, i)
    for i in range(side_of(S)[s, S_BOARD_N]):
        if can_activate(R, S, s, i, REORDER):
            use_reorder(R, S, s, i)
    for i in range(side_of(S)[s, S_BOARD_N]):
        if can_activate(R, S, s, i, ATTACK_BOOST_2):
            use_attack_boost(R, S, s, i)


@rules_kernel
def card_management(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """Restore (then play what it brought back), Change the Future and Future Vision, in the owner's turn."""
    if side_abilities(R, S, s) & CARD_MANAGEMENT_ABILITIES == 0:
        return
    restored = False
    for i in range(side_of(S)[s, S_BOARD_N]):
        if can_activate(R, S, s, i, RESTORE):
            restored = use_restore(R, S, s, i) or restored
    if restored:
        play_characters(R, S, s)
    for i in range(side_of(S)[s, S_BOARD_N]):
        if can_activate(R, S, s, i, CHANGE_THE_FUTURE):
            use_future_sight(R, S, s, i, CHANGE_THE_FUTURE)
    for i in range(side_of(S)[s, S_BOARD_N]):
        if can_activate(R, S, s, i, FUTURE_VISION):
            use_future_sight(R, S, s, i, FUTURE_VISION)


@rules_kernel
def use_serenity(R: IntArray, S: IntArray, d: EngineInt) -> None:
    """Serenity: discard the card; damage is ignored for the rest of the turn (asked of each Serenity card until
    one is used)."""
    for i in range(side_of(S)[d, S_BOARD_N]):
        card = lane_card(S, d, i)
        if card < 0 or abilities_of(R)[card, SERENITY] == 0 or not may_act(R, S, d):
            continue
        if take(R, S, ask(R, S, K_SERENITY, d, i, NOTHING, NO_CARD)) == 1:
            return


# ---------------------------------------------------------------------------------------------------------------
# Turns and matches


@inline_kernel
def start_turn(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """A new turn for side s: per-turn flags clear on both sides, then the draw."""
    side, lanes, game, events, event_count = side_of(S), lanes_of(S), game_of(S), events_of(S), event_count_of(S)
    game[G_TURN] += 1
    game[G_ACTIVE] = s
    game[G_SHIELD] = 0
    for t in range(2):
        for i in range(side[t, S_BOARD_N]):
            lanes[t, i, L_ASLEEP] = 0
            lanes[t, i, L_AVOIDING] = 0
            lanes[t, i, L_BOOSTED] = 0
            lanes[t, i, L_USED] = 0
            lanes[t, i, L_MODE] = MODE_FIGHT
            lanes[t, i, L_TARGET] = -1
    log_event(events, event_count, game[G_TURN], s, EV_TURN, NO_CARD, side[0, S_LIFE], side[1, S_LIFE])
    draw_step(R, S, s)


@rules_kernel
def play_turn(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """One whole turn of side s, in the document's order (its draw, then `turn_body`): as the rule tests play it."""
    start_turn(R, S, s)
    turn_body(R, S, s)


@rules_kernel
def turn_body_call(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """`turn_body` as one call of its own: the search's batch loop, its turns and its rollouts call it, one compiled
    copy for the three."""
    turn_body(R, S, s)


@inline_kernel
def turn_body(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """Side s's turn after the draw (resources, characters, healing, abilities, combat): its stages played from
    STAGE_RESOURCES until the next turn's (`play_stages`)."""
    begin_resources(S, s)
    play_stages(R, S, np.int64(STAGE_TURN))


@llvm_inline_kernel
def ready_step(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """STAGE_READY: every resource of side s readied, logged, and with `extra_card=each_turn` each Extra Card in play
    brings a character in."""
    side, game, events, event_count = side_of(S), game_of(S), events_of(S), event_count_of(S)
    ready_resources(S, s)
    totals = side[s, S_READY] * 10000 + side[s, S_READY + 1] * 100 + side[s, S_READY + 2]
    log_event(events, event_count, game[G_TURN], s, EV_RESOURCES, NO_CARD, totals, side[s, S_HAND_N])
    if options_of(R)[O_EXTRA_EACH_TURN] == 1:
        extra_cards_each_turn(R, S, s)


@llvm_inline_kernel
def rest_of_turn(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """STAGE_REST: side s's characters heal, then the abilities, then combat. Copied by LLVM into `advance`: typed and
    optimised once, copied as LLVM IR (Numba's IR inliner costs with the square of the body's size)."""
    opts, side, lanes = options_of(R), side_of(S), lanes_of(S)
    o = 1 - s
    for i in range(side[s, S_BOARD_N]):  # \u201cthey are now considered back to full health\u201d
        lanes[s, i, L_DAMAGE] = 0
    # The ability phases stay out of line (see play_matches), called only when a card in play has such an ability;
    # without such a card a phase does nothing and draws no random number, so skipping the call changes nothing.
    # Which abilities each side has in play is read once: only Restore's phase brings cards in (so the side's set is
    # read again after it), and a side's Fireball, Sleep, Reorder, Attack Boost 2 and lane modes destroy none of its
    # own cards, so the opponent's set, read after them, holds through its own responses up to Serenity.
    mine = side_abilities(R, S, s)
    if mine & CARD_MANAGEMENT_ABILITIES != 0:
        card_management(R, S, s)
        mine = side_abilities(R, S, s)
    if mine & PRECOMBAT_ABILITIES != 0:
        precombat_abilities(R, S, s)
    if mine & LANE_MODE_ABILITIES != 0:
        choose_lane_modes(R, S, s)
    theirs = side_abilities(R, S, o)
    if opts[O_RESPOND] == 1 and theirs & PRECOMBAT_ABILITIES != 0:
        precombat_abilities(R, S, o)
    if theirs & SERENITY_ABILITY != 0:
        use_serenity(R, S, o)
    combat(R, S, s)


@inline_kernel
def advance(R: IntArray, S: IntArray, until: EngineInt) -> None:
    """Play the match on from game[G_STAGE] (STAGE_*) until a hand decision is open (STAGE_RESOURCES or
    STAGE_CHARACTERS, its decision in `decision_of(S)`), the stage `until` is next, or the match is over: the rules
    stop there and return. `take_hand` takes the open decision's answer."""
    game = game_of(S)
    while True:
        stage = game[G_STAGE]
        if stage == until or stage == STAGE_OVER:
            return
        s = game[G_ACTIVE]
        if stage == STAGE_TURN:
            s = game[G_NEXT]
            if game[G_WINNER] != UNDECIDED or turn_cap_reached(R, S, s):
                game[G_STAGE] = STAGE_OVER
                return
            start_turn(R, S, s)
            game[G_NEXT] = 1 - s
            begin_resources(S, s)
        elif stage == STAGE_RESOURCES:
            if game[G_PLAYED] < options_of(R)[O_RESOURCES_PER_TURN]:
                open_hand(S, K_RESOURCE, s, game[G_PLAYED], NO_CARD)
                return
            game[G_STAGE] = STAGE_READY
        elif stage == STAGE_READY:
            ready_step(R, S, s)
            game[G_STAGE] = STAGE_CHARACTERS
        elif stage == STAGE_CHARACTERS:
            open_hand(S, K_CHARACTER, s, NOTHING, NO_CARD)
            return
        else:
            rest_of_turn(R, S, s)
            game[G_STAGE] = STAGE_TURN


@inline_kernel
def take_hand(R: IntArray, S: IntArray, h: EngineInt) -> None:
    """The open hand decision's answer taken, as `apply` takes its row (the hand position of the card to play, or
    STOP, which ends the stage): a resource played (\u201cplay up to `resources_per_turn` resource cards\u201d), or a
    character brought into play (`play_character`)."""
    game = game_of(S)
    s = game[G_ACTIVE]
    if game[G_STAGE] == STAGE_RESOURCES:
        if h < 0:
            game[G_STAGE] = STAGE_READY
        else:
            play_resource(R, S, s, h)
            game[G_PLAYED] += 1
    elif h < 0:
        game[G_STAGE] = STAGE_REST
    else:
        play_character(R, S, s, h)


@inline_kernel
def in_hand_decision(S: IntArray) -> bool:
    """The rules stopped at a hand decision (`advance`)."""
    stage = game_of(S)[G_STAGE]
    return stage == STAGE_RESOURCES or stage == STAGE_CHARACTERS


@inline_kernel
def play_stages(R: IntArray, S: IntArray, until: EngineInt) -> None:
    """The match played on from game[G_STAGE] until the stage `until` is next or the match is over, each hand
    decision the rules stop at answered by the side's policy (`choose_hand`, the policies' door) and taken
    (`take_hand`)."""
    advance(R, S, until)
    while in_hand_decision(S):
        take_hand(R, S, choose_hand(R, S))
        advance(R, S, until)


@inline_kernel
def setup_match(
    R: IntArray, S: IntArray, deck_a: IntArray, deck_b: IntArray, policy_a: EngineInt, policy_b: EngineInt
) -> None:
    """Fresh arrays, both decks shuffled (A then B), 2 Life Points and 5 cards each."""
    zones, side, game, rng = zones_of(S), side_of(S), game_of(S), rng_of(S)
    # Zones are read only up to their counts and a lane is cleared when a card enters it, so no full clear.
    side[:, :] = 0
    game[:] = 0
    game[G_WINNER] = UNDECIDED
    for s in range(2):
        deck = deck_a if s == 0 else deck_b
        for k in range(deck.shape[0]):
            zones[s, DECK, k] = deck[k]
        side[s, S_DECK_N] = deck.shape[0]
        side[s, S_LIFE] = STARTING_LIFE
        side[s, S_POLICY] = policy_a if s == 0 else policy_b
        shuffle_in_place(zones[s, DECK], deck.shape[0], rng)
    for s in range(2):
        for _ in range(STARTING_HAND):
            draw_one(R, S, s)


@inline_kernel
def turn_cap_reached(R: IntArray, S: IntArray, s: EngineInt) -> bool:
    """Before side s's turn: True, the match a draw and logged so, if the turn cap is reached."""
    opts, game, events, event_count = options_of(R), game_of(S), events_of(S), event_count_of(S)
    if game[G_TURN] < opts[O_TURN_CAP]:
        return False
    game[G_WINNER] = -1
    log_event(events, event_count, game[G_TURN], s, EV_TURN_CAP, NO_CARD, NO_CARD, opts[O_TURN_CAP])
    return True


@inline_kernel
def play_match(R: IntArray, S: IntArray, first: EngineInt) -> None:
    """Turns alternate from `first` until a player has no Life Points or the turn cap is reached (a draw): the
    turn's stages from STAGE_TURN (`play_stages`)."""
    game = game_of(S)
    game[G_NEXT] = first
    game[G_STAGE] = STAGE_TURN
    play_stages(R, S, np.int64(STAGE_OVER))


@inline_kernel
def start_match(
    R: IntArray,
    S: IntArray,
    deck_a: IntArray,
    deck_b: IntArray,
    policy_a: EngineInt,
    policy_b: EngineInt,
    seed: EngineInt,
    m: EngineInt,
) -> None:
    """Match m of a batch: seed the state's generator, open the match's counters, shuffle and deal."""
    rng_seed(rng_of(S), seed)
    begin_match_counters(counters_of(S), m)
    setup_match(R, S, deck_a, deck_b, policy_a, policy_b)
    start_policy(policy_of(S, NOTHING), policy_a, seed, NOTHING)
    start_policy(policy_of(S, ONE), policy_b, seed, ONE)


@inline_kernel
def finish_match(S: IntArray, m: EngineInt, winners: Any, turns: Any) -> None:
    """Match m of a batch is over: close its counters, note its winner and turn count."""
    game = game_of(S)
    end_match_counters(counters_of(S), game[G_TURN], np.int64(2))
    winners[m] = game[G_WINNER]
    turns[m] = game[G_TURN]


@rules_kernel
def play_matches(
    R: IntArray,
    S: IntArray,
    deck_a: IntArray,
    deck_b: IntArray,
    seeds: IntArray,
    first: Any,
    policy_a: EngineInt,
    policy_b: EngineInt,
    winners: Any,
    turns: Any,
) -> None:
    """Play one match per seed with the same decks and policies (greedy or random) in the one state buffer, reused
    across the batch; a batch where a side plays `search` goes to `play_searched_matches`.

    Every once-a-turn phase is copied into this loop: setup and the turn's stages (`play_match`, `advance`) by Numba
    (`inline_kernel`), the ready step and the rest of the turn by LLVM (`llvm_inline_kernel`), so a turn makes few
    calls, and the loop runs without reference counting. The search's
    kernels are not reached from here, so a greedy or random batch does not compile them. The ability phases
    (Restore, Fireball, lane modes, Serenity) stay out of line and are called only when a card in play has them
    (`turn_body`): copying them in as well doubled the compile time and was no faster. So does `resolve` (a Heal's
    decision): copied into combat by LLVM, greedy played about 10% slower (2026-11-29).
    """
    for m in range(seeds.shape[0]):
        start_match(R, S, deck_a, deck_b, policy_a, policy_b, seeds[m], m)
        play_match(R, S, np.int64(first[m]))
        finish_match(S, m, winners, turns)


# ---------------------------------------------------------------------------------------------------------------
# The contract's copy and deal: a match state cloned, what a side cannot see dealt anew (the search's rollouts
# play from both)


@rules_kernel
def clone(S: IntArray, into: IntArray) -> None:
    """The match state of S copied into `into` (a state buffer of the same deck capacity): zones, lanes, Life
    Points, turn, dice and the search's tape; not the batch's counters nor the trace, which stay `into`'s own."""
    rows = into[H_EVENT_ROWS]
    for k in range(state_words(S)):
        into[k] = S[k]
    into[H_EVENT_ROWS] = rows
    into[EVENT_COUNT_AT] = 0


@inline_kernel
def pooled(zones: IntArray, o: EngineInt, in_hand: EngineInt, top: EngineInt, k: EngineInt) -> int:
    """Card k of side o's unseen cards taken as one row: the hand's `in_hand` cards, then the deck from `top`."""
    if k < in_hand:
        return zones[o, HAND, k]
    return zones[o, DECK, top + k - in_hand]


@inline_kernel
def put_pooled(
    zones: IntArray, o: EngineInt, in_hand: EngineInt, top: EngineInt, k: EngineInt, card: EngineInt
) -> None:
    """Write card k of the row `pooled` reads."""
    if k < in_hand:
        zones[o, HAND, k] = card
    else:
        zones[o, DECK, top + k - in_hand] = card


@rules_kernel
def sort_pool(zones: IntArray, o: EngineInt, in_hand: EngineInt, top: EngineInt, count: EngineInt) -> None:
    """Sort the row of `count` unseen cards (`pooled`) ascending, so their order before cannot matter (insertion
    sort: a row already sorted, as a search's worlds find it, costs one comparison a card)."""
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    j: EngineInt
    for k in range(1, count):
        card = pooled(zones, o, in_hand, top, k)
        j = k
        while j > 0 and pooled(zones, o, in_hand, top, j - 1) > card:
            put_pooled(zones, o, in_hand, top, j, pooled(zones, o, in_hand, top, j - 1))
            j -= 1
        put_pooled(zones, o, in_hand, top, j, card)


@rules_kernel
def shuffle_pool(
    zones: IntArray, o: EngineInt, in_hand: EngineInt, top: EngineInt, count: EngineInt, rng: IntArray
) -> None:
    """Shuffle the row of `count` unseen cards (`pooled`) with `rng` (Fisher-Yates, from the row's end)."""
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    j: EngineInt
    for k in range(count - 1, 0, -1):
        j = rng_below(rng, k + 1)
        card = pooled(zones, o, in_hand, top, k)
        put_pooled(zones, o, in_hand, top, k, pooled(zones, o, in_hand, top, j))
        put_pooled(zones, o, in_hand, top, j, card)


@inline_kernel
def unseen_rows(S: IntArray, s: EngineInt) -> tuple[EngineInt, EngineInt, EngineInt, EngineInt, EngineInt]:
    """The two rows of cards side s cannot see, as `pooled` reads them: the opponent's (its hand's size, its deck's
    top and the row's length: hand, then deck from the top), and s's own deck (its top and the row's length)."""
    side = side_of(S)
    o = 1 - s
    in_hand = side[o, S_HAND_N]
    return (
        in_hand,
        side[o, S_DECK_TOP],
        in_hand + side[o, S_DECK_N] - side[o, S_DECK_TOP],
        side[s, S_DECK_TOP],
        side[s, S_DECK_N] - side[s, S_DECK_TOP],
    )


@rules_kernel
def sort_unseen(S: IntArray, s: EngineInt) -> None:
    """`determinize`'s first step alone, in place: the two rows of cards side s cannot see (`unseen_rows`) sorted.
    A state so sorted is dealt by `determinize` exactly as the state it was sorted from (sorting again changes
    nothing), only sooner: the search sorts a copy of its snapshot once a decision (`search.search_decision`) rather
    than once a world."""
    zones = zones_of(S)
    in_hand, top_o, count_o, top_s, count_s = unseen_rows(S, s)
    sort_pool(zones, 1 - s, in_hand, top_o, count_o)
    sort_pool(zones, s, np.int64(0), top_s, count_s)


@rules_kernel
def determinize(R: IntArray, S: IntArray, s: EngineInt, rng: IntArray) -> None:
    """What side s cannot see, drawn again from what it can know: the opponent's hand and draw deck are one pool
    of unseen cards (their sizes are seen) dealt anew, and s's own draw deck is shuffled anew. Both pools are sorted
    first (`sort_unseen`), so the draw depends on which cards they hold and on `rng`, never on where the cards really
    are; then shuffled, the opponent's first. (Cards s saw on top of its deck with Future Vision are shuffled back in
    too: forgetting is never peeking.)"""
    sort_unseen(S, s)
    zones = zones_of(S)
    in_hand, top_o, count_o, top_s, count_s = unseen_rows(S, s)
    shuffle_pool(zones, 1 - s, in_hand, top_o, count_o, rng)
    shuffle_pool(zones, s, np.int64(0), top_s, count_s, rng)
