"""The circles policies and the match loop: `choose` (the one place a side's policy is read), greedy's judgement of
the coming combat and its rule of thumb per decision kind, the random policy, and the loop that plays a match over the
rules' decisions (`play_stages`, `play_matches`, the rule tests' entries).

Imports `layout` and `rules` (the rules' predictions a policy may ask; `advance` and `take_answer`, which the loop
plays through). The rules never call a policy: they stop at each decision, and the loop here asks `answer`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from workbench.engines import (
    EngineBool,
    EngineInt,
    IntArray,
    inline_kernel,
    lowest_set_bit,
    rng_below,
    rules_kernel,
)
from workbench.play.loop import BATCH_TURNS, BATCH_WINNERS, NO_CONTEXT, batch_loop, batch_match, play_until
from workbench.play.policies import GREEDY, plays_random, random_played
from workbench.rulesets.circles.engine.layout import (
    A_ACTIVATION,
    A_NUMBER,
    A_QUARTER_OF_THE_TIME,
    COIN,
    D_ARG,
    D_KIND,
    D_LANE,
    D_N,
    D_OTHER,
    D_SIDE,
    DECK,
    DISCARD,
    FOUR,
    G_ACTIVE,
    G_CHAIN_GROWS,
    G_MINE,
    G_PENDING,
    G_STAGE,
    G_STEP,
    G_STOPPED,
    G_THEIRS,
    HALF_THE_TIME,
    HAND,
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
    L_DAMAGE,
    L_MODE,
    L_TARGET,
    MODE_LONG_RANGE,
    MODE_SELF_DESTRUCT,
    MODE_TARGET,
    NO_COLOUR,
    NOTHING,
    O_DESTROY_AT_LEAST,
    O_RESOURCES_PER_TURN,
    ONE,
    ORDER_BITS,
    P_RESOURCES,
    REST_COMBAT,
    REST_DONE,
    REST_FUTURE_VISION,
    REST_LANE_MODES,
    REST_PRECOMBAT,
    REST_RESTORE,
    REST_RESTORED_PLAY,
    REST_SERENITY,
    S_BOARD_N,
    S_DECK_TOP,
    S_HAND_N,
    S_LIFE,
    S_POLICY,
    S_READY,
    S_TOTAL,
    STAGE_CHARACTERS,
    STAGE_EXTRA_CARDS,
    STAGE_OVER,
    STAGE_READY,
    STAGE_TURN,
    STOP,
    T_ATTACK,
    T_CIRCLES,
    T_COLOUR,
    T_FAST,
    T_HEALTH,
    T_KIND,
    T_RED,
    T_REFLECT,
    UNLISTED,
    ability_table_of,
    actions_of,
    decision_of,
    game_of,
    lanes_of,
    options_of,
    policy_of,
    rng_of,
    side_of,
    table_of,
    zones_of,
)
from workbench.rulesets.circles.engine.rules import (
    absorbable,
    advance,
    attack_of,
    attacks_now,
    begin_card_management,
    begin_lanes,
    begin_resources,
    begin_rest,
    begin_turns,
    combat_damage,
    destroyed_by,
    direct_damage,
    enter_step,
    finish_match,
    health_of,
    identity_order,
    is_hand_decision,
    lane_card,
    legal_actions,
    list_characters,
    list_resources,
    no_decision_open,
    opposed,
    order_digit,
    room_for_damage,
    shielded,
    side_abilities,
    start_match,
    start_turn,
    swap_lanes,
    take_answer,
)

# Greedy weights: a Life Point is worth about 4 circles of cards (a player has only 2).
LIFE_WEIGHT = 4
LETHAL_BONUS = 1000


# ---------------------------------------------------------------------------------------------------------------
# The greedy policy's judgement: what a lane's fight would do


@rules_kernel
def predict_fight(R: IntArray, S: IntArray, a: EngineInt, i: EngineInt, d: EngineInt, j: EngineInt) -> int:
    """What the fight would do, ignoring paid reactions: bit 0 = attacker destroyed, bit 1 = defender destroyed."""
    table = table_of(R)
    to_d = combat_damage(R, S, a, i, d, j)
    to_a = combat_damage(R, S, d, j, a, i)
    fast_a = table[lane_card(S, a, i), T_FAST] > 0
    fast_d = table[lane_card(S, d, j), T_FAST] > 0
    total_d = to_d + ((to_a + 1) // 2 if table[lane_card(S, a, i), T_REFLECT] > 0 else 0)
    total_a = to_a + ((to_d + 1) // 2 if table[lane_card(S, d, j), T_REFLECT] > 0 else 0)
    if fast_a and not fast_d and destroyed_by(R, S, d, j, to_d):
        return 2
    if fast_d and not fast_a and destroyed_by(R, S, a, i, to_a):
        return 1
    outcome = 0
    if destroyed_by(R, S, a, i, total_a):
        outcome |= 1
    if destroyed_by(R, S, d, j, total_d):
        outcome |= 2
    return outcome


@rules_kernel
def lane_direct(R: IntArray, S: IntArray, a: EngineInt, i: EngineInt) -> int:
    """The Life Points lane i's attacker would take from the defending player, by its chosen mode, in `combat`'s
    order: Self Destruct with a card in front and Target with a card to hit deal none; Long Range deals its Attack
    over the defender; otherwise an unopposed attacker deals its direct damage."""
    lanes = lanes_of(S)
    d = 1 - a
    if not attacks_now(R, S, a, i):
        return 0
    mode = lanes[a, i, L_MODE]
    if mode == MODE_SELF_DESTRUCT and lane_card(S, d, i) >= 0:
        return 0
    if mode == MODE_LONG_RANGE:
        return attack_of(R, S, a, i)
    if mode == MODE_TARGET and lane_card(S, d, lanes[a, i, L_TARGET]) >= 0:
        return 0
    if not opposed(R, S, d, i):
        return direct_damage(R, S, a, i)
    return 0


@rules_kernel
def predict_target(R: IntArray, S: IntArray, a: EngineInt, i: EngineInt) -> int:
    """Target's worth, as `combat` plays it: the attacker hits the card it chose, the awake card in front still hits
    the attacker, Reflect sends half back; circles destroyed minus circles lost (paid reactions ignored)."""
    table, lanes = table_of(R), lanes_of(S)
    d = 1 - a
    j = lanes[a, i, L_TARGET]
    card = lane_card(S, a, i)
    to_target = combat_damage(R, S, a, i, d, j)
    to_attacker = 0
    if table[lane_card(S, d, j), T_REFLECT] > 0:
        to_attacker += (to_target + 1) // 2
    in_front = lane_card(S, d, i) >= 0 and lanes[d, i, L_ASLEEP] == 0
    to_front = 0
    if in_front:
        from_front = combat_damage(R, S, d, i, a, i)
        to_attacker += from_front
        if table[card, T_REFLECT] > 0:
            to_front = (from_front + 1) // 2
    if j == i:  # (greedy and random never pick the card in front, but a set-up board may)
        to_target += to_front
        to_front = 0
    value = 0
    if destroyed_by(R, S, d, j, to_target):
        value += table[lane_card(S, d, j), T_CIRCLES]
    if to_front > 0 and destroyed_by(R, S, d, i, to_front):
        value += table[lane_card(S, d, i), T_CIRCLES]
    if destroyed_by(R, S, a, i, to_attacker):
        value -= table[card, T_CIRCLES]
    return value


@rules_kernel
def lane_value(R: IntArray, S: IntArray, a: EngineInt, i: EngineInt) -> int:
    """Lane i's worth to attacker a by its chosen mode: circles destroyed minus circles lost, plus Life Points taken
    times a Life Point's worth (Self Destruct: both cards; Long Range: its Attack; Target: `predict_target`)."""
    table, lanes = table_of(R), lanes_of(S)
    d = 1 - a
    card = lane_card(S, a, i)
    if not attacks_now(R, S, a, i):
        return 0
    mode = lanes[a, i, L_MODE]
    if mode == MODE_SELF_DESTRUCT and lane_card(S, d, i) >= 0:
        return table[lane_card(S, d, i), T_CIRCLES] - table[card, T_CIRCLES]
    if mode == MODE_LONG_RANGE:
        return attack_of(R, S, a, i) * LIFE_WEIGHT
    if mode == MODE_TARGET and lane_card(S, d, lanes[a, i, L_TARGET]) >= 0:
        return predict_target(R, S, a, i)
    if not opposed(R, S, d, i):
        return direct_damage(R, S, a, i) * LIFE_WEIGHT
    if lanes[d, i, L_ASLEEP] == 1:
        return 0
    outcome = predict_fight(R, S, a, i, d, i)
    value = 0
    if outcome & 2:
        value += table[lane_card(S, d, i), T_CIRCLES]
    if outcome & 1:
        value -= table[card, T_CIRCLES]
    return value


@rules_kernel
def lethal_attack(R: IntArray, S: IntArray, a: EngineInt) -> bool:
    """Would attacker a's coming combat take the defending player's last Life Points? (Serenity not yet used.)"""
    side = side_of(S)
    d = 1 - a
    if shielded(R, S, d):
        return False
    direct = 0
    for i in range(side[a, S_BOARD_N]):
        direct += lane_direct(R, S, a, i)
    return direct >= side[d, S_LIFE]


@rules_kernel
def board_value(R: IntArray, S: IntArray, a: EngineInt) -> int:
    """The coming combat's worth to attacker a: the lanes' worth, and a win outright above everything."""
    total = 0
    for i in range(side_of(S)[a, S_BOARD_N]):
        total += lane_value(R, S, a, i)
    if lethal_attack(R, S, a):
        total += LETHAL_BONUS
    return total


@rules_kernel
def side_value(R: IntArray, S: IntArray, s: EngineInt) -> int:
    """The coming combat's worth to side s, whether s attacks or defends."""
    if game_of(S)[G_ACTIVE] == s:
        return board_value(R, S, s)
    return -board_value(R, S, 1 - s)


# ---------------------------------------------------------------------------------------------------------------
# The policies: each chooses one of the pending decision's listed actions; none changes a rule
#
# `choose` is the one place a side's policy is read (and the search's loop, which answers a `search` side: search.py).
# A policy reads the decision (`decision_of(S)`: kind, side, lane, amount), its D_N listed rows (`actions_of(S)`) and
# what the side can see of the state; it may ask the rules' predictions (`predict_fight`, `lane_value`, `side_value`:
# they change nothing, or put back what they try), keep its own words (P_*), and returns the index of a listed row. A
# new policy is a function here and one branch in `choose`: no rule changes.


@inline_kernel
def choose(R: IntArray, S: IntArray) -> EngineInt:
    """The deciding side's policy's choice among the listed actions (a row index). Copied into the loop (`answer`)."""
    s = decision_of(S)[D_SIDE]
    policy = side_of(S)[s, S_POLICY]  # the block's code (P_CODE), read without making the block's view
    if policy == GREEDY:
        return greedy_choice(R, S)
    block = policy_of(S, s)
    if plays_random(block, rng_of(S)):
        return random_played(block, rng_of(S), random_choice(R, S))
    return greedy_choice(R, S)


@inline_kernel
def choose_hand(R: IntArray, S: IntArray) -> EngineInt:
    """The deciding side's policy's answer to a hand decision (K_RESOURCE, K_CHARACTER), as the chosen row's first
    column: a hand position, or STOP. Copied into the loop (`answer`).

    Greedy picks without the list: `greedy_hand` scans the hand for the card its rule of thumb takes from the listed
    rows (`greedy_resource` and `greedy_character` are that pick's row), so greedy's two decisions of every turn cost
    no listing and no call (they were 0.15 of greedy's time). tests/rulesets/circles/legal_replay.py checks each of
    its answers against a fresh `legal_actions` list. The other policies choose a listed row (`choose_listed`)."""
    if side_of(S)[decision_of(S)[D_SIDE], S_POLICY] == GREEDY:
        decision_of(S)[D_N] = UNLISTED
        return greedy_hand(R, S)
    return choose_listed(R, S)


@inline_kernel
def listed_hand_row(R: IntArray, S: IntArray, pick: Callable[..., Any]) -> EngineInt:
    """A hand decision (K_RESOURCE, K_CHARACTER) answered among its listed rows: the rows `legal_actions` lists for it
    (its own two listings copied in) and their count (D_N), the row `pick(R, S)` chooses, and that row's first column
    (STOP: none listed). `choose_listed` picks by the side's policy, the search's `search_answer` by the search."""
    # Typed for mypy only (a bare annotation runs no code).
    n: EngineInt
    decision, out = decision_of(S), actions_of(S)
    s = decision[D_SIDE]
    if decision[D_KIND] == K_RESOURCE:
        n = list_resources(R, S, s, out)
    else:
        n = list_characters(R, S, s, decision[D_ARG], out)
    decision[D_N] = n
    if n == 0:
        return STOP
    return out[pick(R, S), 0]


@rules_kernel
def choose_listed(R: IntArray, S: IntArray) -> EngineInt:
    """`choose_hand` for the policies that choose among listed rows (`listed_hand_row`, by `choose`)."""
    return listed_hand_row(R, S, choose)


@inline_kernel
def yes_no(answer: EngineBool) -> EngineInt:
    """The row of a yes/no decision: 1 is yes, 0 no."""
    return ONE if answer else NOTHING


@rules_kernel
def find_row(S: IntArray, a: EngineInt, b: EngineInt) -> EngineInt:
    """The index of the listed row (a, b), or 0 (the declining row) when it is not listed."""
    out = actions_of(S)
    for k in range(decision_of(S)[D_N]):
        if out[k, 0] == a and out[k, 1] == b:
            return k
    return 0


# The greedy policy: a rule of thumb per decision kind, judged on the coming combat (`lane_value`, `board_value`).


@inline_kernel
def greedy_hand(R: IntArray, S: IntArray) -> EngineInt:
    """Greedy's answer to the pending hand decision, read off the hand: the hand position of the card it plays, or
    STOP. Its rows among the listed ones: `greedy_resource`, `greedy_character`."""
    decision = decision_of(S)
    if decision[D_KIND] == K_RESOURCE:
        return greedy_resource_card(R, S, decision[D_SIDE])
    return greedy_character_card(R, S, decision[D_SIDE], decision[D_ARG])


HAND_BITS = 62
"""The longest hand `greedy_resource_card` reads in one pass, a bit per card in an int64 (longer ones are scanned)."""


@inline_kernel
def greedy_resource_card(R: IntArray, S: IntArray, s: EngineInt) -> EngineInt:
    """The resource whose colour the hand's characters lack most (the first such in hand order, among the resources
    `list_resources` lists: those with a colour), as a hand position; STOP only without one."""
    # Typed for mypy only (a bare annotation runs no code): STOP at first, then a hand position; the bit sets are ints
    # at first, then EngineInts.
    best: EngineInt
    held_0: EngineInt
    held_1: EngineInt
    held_2: EngineInt
    table, zones, side = table_of(R), zones_of(S), side_of(S)
    hand = side[s, S_HAND_N]
    if hand > HAND_BITS:
        return greedy_resource_scan(R, S, s)
    # A resource's score depends on its colour only: what the hand's characters lack of it (their largest cost over
    # the resources of that colour in play, never below 0) and ask of it in all. One pass over the hand sums both for
    # the three colours and sets a bit per resource of each colour; the best colour's first resource (its lowest
    # bit) is the first best in hand order. The pass has no branch on the cards, whose kinds' mix the processor
    # cannot guess: it reads every card's costs without asking its kind (a resource's are 0 in the table, see
    # `compile_cards`, which adds no demand and no shortfall, resources in play being never negative), and only
    # resources have a colour. A pass per resource, each asking every card's kind, was about a fifth of greedy's
    # time in a profile; written so, greedy played about 3% more matches a second (2026-11-29), but with a branch
    # per card (one pass per resource, or a test of each card's colour) it played 3 to 10% fewer.
    owned_0, owned_1, owned_2 = side[s, S_TOTAL], side[s, S_TOTAL + 1], side[s, S_TOTAL + 2]
    lacking_0, lacking_1, lacking_2 = 0, 0, 0
    demand_0, demand_1, demand_2 = 0, 0, 0
    held_0, held_1, held_2 = 0, 0, 0
    for h in range(hand):
        card = zones[s, HAND, h]
        cost_0, cost_1, cost_2 = table[card, T_RED], table[card, T_RED + 1], table[card, T_RED + 2]
        lacking_0 = max(lacking_0, cost_0 - owned_0)
        lacking_1 = max(lacking_1, cost_1 - owned_1)
        lacking_2 = max(lacking_2, cost_2 - owned_2)
        demand_0 += cost_0
        demand_1 += cost_1
        demand_2 += cost_2
        colour = table[card, T_COLOUR]
        held_0 |= np.int64(colour == 0) << h
        held_1 |= np.int64(colour == 1) << h
        held_2 |= np.int64(colour == 2) << h
    best, best_score = STOP, -(1 << 40)
    for held, score in (
        (held_0, lacking_0 * 1000 + demand_0 * 10 - owned_0),
        (held_1, lacking_1 * 1000 + demand_1 * 10 - owned_1),
        (held_2, lacking_2 * 1000 + demand_2 * 10 - owned_2),
    ):
        if held != 0:
            first = lowest_set_bit(held)
            if score > best_score or (score == best_score and first < best):
                best, best_score = first, score
    return best


@rules_kernel
def greedy_resource_scan(R: IntArray, S: IntArray, s: EngineInt) -> EngineInt:
    """`greedy_resource_card` for a hand of more than `HAND_BITS` cards: the same answer, by a pass over the hand for
    each resource in it."""
    # Typed for mypy only (a bare annotation runs no code): STOP at first, then a hand position.
    best: EngineInt
    table, zones, side = table_of(R), zones_of(S), side_of(S)
    best, best_score = STOP, -(1 << 40)
    hand = side[s, S_HAND_N]
    for k in range(hand):
        card = zones[s, HAND, k]
        colour = table[card, T_COLOUR]
        if table[card, T_KIND] != KIND_RESOURCE or colour == NO_COLOUR:
            continue
        lacking = 0
        demand = 0
        owned = side[s, S_TOTAL + colour]
        for h in range(hand):
            other = zones[s, HAND, h]
            if table[other, T_KIND] == KIND_CHARACTER:
                cost = table[other, T_RED + colour]
                if cost - owned > lacking:
                    lacking = cost - owned
                demand += cost
        score = lacking * 1000 + demand * 10 - owned
        if score > best_score:
            best, best_score = k, score
    return best


@inline_kernel
def greedy_character_card(R: IntArray, S: IntArray, s: EngineInt, free: EngineInt) -> EngineInt:
    """The character with the most circles (then the most Attack + Health), the first such in hand order among
    those `list_characters` lists (payable, or any when free), as a hand position; STOP only without one."""
    # Typed for mypy only (a bare annotation runs no code): STOP at first, then a hand position.
    best: EngineInt
    table, zones, side = table_of(R), zones_of(S), side_of(S)
    best, best_score = STOP, -1
    ready_0, ready_1, ready_2 = side[s, S_READY], side[s, S_READY + 1], side[s, S_READY + 2]
    for h in range(side[s, S_HAND_N]):
        card = zones[s, HAND, h]
        # Whether the card may come in, found without a branch (`can_pay_card`'s test, every colour asked), since the
        # processor cannot guess a hand's mix of kinds: greedy played about 5% more matches a second so (2026-11-29).
        # A card that may not scores -1, which never beats the best so far.
        wanted = (table[card, T_KIND] == KIND_CHARACTER) & (
            (free == 1)
            | (
                (ready_0 >= table[card, T_RED])
                & (ready_1 >= table[card, T_RED + 1])
                & (ready_2 >= table[card, T_RED + 2])
            )
        )
        score = (table[card, T_CIRCLES] * 1000 + table[card, T_ATTACK] + table[card, T_HEALTH] + 1) * np.int64(
            wanted
        ) - 1
        if score > best_score:
            best, best_score = h, score
    return best


@rules_kernel
def row_of(S: IntArray, a: EngineInt) -> EngineInt:
    """The first listed row whose first column is `a` (a hand position, or STOP for the stopping row), or -1."""
    out = actions_of(S)
    for k in range(decision_of(S)[D_N]):
        if out[k, 0] == a:
            return k
    return -1


@rules_kernel
def greedy_resource(R: IntArray, S: IntArray) -> EngineInt:
    """Greedy's row for K_RESOURCE among the listed rows: `greedy_resource_card`'s."""
    return row_of(S, greedy_resource_card(R, S, decision_of(S)[D_SIDE]))


@rules_kernel
def greedy_character(R: IntArray, S: IntArray) -> EngineInt:
    """Greedy's row for K_CHARACTER among the listed rows: `greedy_character_card`'s."""
    decision = decision_of(S)
    return row_of(S, greedy_character_card(R, S, decision[D_SIDE], decision[D_ARG]))


@rules_kernel
def greedy_heal(R: IntArray, S: IntArray) -> EngineInt:
    """The cheapest listed Heal that saves the card (the first such), or none."""
    ability_table, lanes, decision, out = ability_table_of(R), lanes_of(S), decision_of(S), actions_of(S)
    s, i = decision[D_SIDE], decision[D_LANE]
    # The damage that must go: down to Health (\u201cmore than\u201d), or below it (\u201cat least\u201d).
    excess = lanes[s, i, L_DAMAGE] - health_of(R, S, s, i)
    if options_of(R)[O_DESTROY_AT_LEAST] == 1:
        excess += 1
    best, best_cost = 0, 1 << 30
    for k in range(1, decision[D_N]):
        heal = out[k, 1]
        if ability_table[heal, A_NUMBER] >= excess and ability_table[heal, A_ACTIVATION] < best_cost:
            best, best_cost = k, ability_table[heal, A_ACTIVATION]
    return best


@rules_kernel
def greedy_fireball(R: IntArray, S: IntArray) -> EngineInt:
    """An enemy card Fireball destroys (the most circles), else one whose fight it turns; in the opponent's turn,
    red is kept for such a shot only."""
    lanes, decision, out = lanes_of(S), decision_of(S), actions_of(S)
    s = decision[D_SIDE]
    o = 1 - s
    my_turn = game_of(S)[G_ACTIVE] == s
    attacker = s if my_turn else o
    best, best_score = 0, 0
    for k in range(1, decision[D_N]):
        j = out[k, 0]
        score = 1
        if destroyed_by(R, S, o, j, ONE):
            score += 1000 + table_of(R)[lane_card(S, o, j), T_CIRCLES]
        elif lane_card(S, s, j) >= 0 and lanes[s, j, L_ASLEEP] == 0:
            before = predict_fight(R, S, attacker, j, 1 - attacker, j)
            lanes[o, j, L_DAMAGE] += 1
            after = predict_fight(R, S, attacker, j, 1 - attacker, j)
            lanes[o, j, L_DAMAGE] -= 1
            if ((after >> (1 if attacker == s else 0)) & 1) > ((before >> (1 if attacker == s else 0)) & 1):
                score += 500
        if not my_turn and score < 500:
            continue
        if score > best_score:
            best, best_score = k, score
    return best


@rules_kernel
def greedy_sleep(R: IntArray, S: IntArray) -> EngineInt:
    """The enemy card whose sleep gains most in the coming combat (in the opponent's turn: the attacker that would
    win most), if any gains."""
    lanes, decision, out = lanes_of(S), decision_of(S), actions_of(S)
    s = decision[D_SIDE]
    o = 1 - s
    my_turn = game_of(S)[G_ACTIVE] == s
    best, best_gain = 0, 0
    for k in range(1, decision[D_N]):
        j = out[k, 0]
        if my_turn:
            before = lane_value(R, S, s, j)
            lanes[o, j, L_ASLEEP] = 1
            after = lane_value(R, S, s, j)
            lanes[o, j, L_ASLEEP] = 0
            gain = after - before
        else:
            gain = lane_value(R, S, o, j)
        if gain > best_gain:
            best, best_gain = k, gain
    return best


@rules_kernel
def greedy_reorder(R: IntArray, S: IntArray) -> EngineInt:
    """The swap that most improves the coming combat (each pair weighed once, left lane first), if any does."""
    decision, out = decision_of(S), actions_of(S)
    s = decision[D_SIDE]
    base = side_value(R, S, s)
    best, best_gain = 0, 0
    for k in range(1, decision[D_N]):
        x, y = out[k, 0], out[k, 1]
        if x > y:
            continue
        swap_lanes(S, s, x, y)
        gain = side_value(R, S, s) - base
        swap_lanes(S, s, x, y)
        if gain > best_gain:
            best, best_gain = k, gain
    return best


@rules_kernel
def greedy_target(R: IntArray, S: IntArray) -> EngineInt:
    """The enemy card (most circles) the attacker's hit destroys, unless the card in front falls anyway."""
    table, decision, out = table_of(R), decision_of(S), actions_of(S)
    a, i = decision[D_SIDE], decision[D_LANE]
    d = 1 - a
    if predict_fight(R, S, a, i, d, i) & 2:
        return 0
    best, best_score = 0, 0
    for k in range(1, decision[D_N]):
        j = out[k, 0]
        circles = table[lane_card(S, d, j), T_CIRCLES]
        if destroyed_by(R, S, d, j, combat_damage(R, S, a, i, d, j)) and circles > best_score:
            best, best_score = k, circles
    return best


@rules_kernel
def greedy_restore(R: IntArray, S: IntArray) -> EngineInt:
    """The character in the discard pile with the most circles (the first such), if any."""
    table, zones, decision, out = table_of(R), zones_of(S), decision_of(S), actions_of(S)
    s = decision[D_SIDE]
    best, best_score = 0, 0
    for k in range(1, decision[D_N]):
        card = zones[s, DISCARD, out[k, 0]]
        if table[card, T_KIND] == KIND_CHARACTER and table[card, T_CIRCLES] > best_score:
            best, best_score = k, table[card, T_CIRCLES]
    return best


@rules_kernel
def card_wanted(R: IntArray, S: IntArray, s: EngineInt, card: EngineInt) -> int:
    """Greedy's wish for the next draw: resources while short of them, else the biggest character it could pay."""
    table, side = table_of(R), side_of(S)
    resources = side[s, S_TOTAL] + side[s, S_TOTAL + 1] + side[s, S_TOTAL + 2]
    if table[card, T_KIND] == KIND_RESOURCE:
        return 100 if resources < 5 else 1
    for colour in range(3):
        if table[card, T_RED + colour] > side[s, S_TOTAL + colour] + 1:
            return 0
    return 10 + table[card, T_CIRCLES]


@rules_kernel
def greedy_arrange(R: IntArray, S: IntArray) -> EngineInt:
    """The top cards most wanted first (`card_wanted`); equally wanted cards keep their order."""
    zones, side, decision = zones_of(S), side_of(S), decision_of(S)
    s, seen = decision[D_SIDE], decision[D_ARG]
    top = side[s, S_DECK_TOP]
    order = identity_order(seen)
    for k in range(seen):
        best = k
        for j in range(k + 1, seen):
            wanted_j = card_wanted(R, S, s, zones[s, DECK, top + order_digit(order, j)])
            if wanted_j > card_wanted(R, S, s, zones[s, DECK, top + order_digit(order, best)]):
                best = j
        value = order_digit(order, best)
        for j in range(best, k, -1):
            order = (order & ~(7 << (ORDER_BITS * j))) | (order_digit(order, j - 1) << (ORDER_BITS * j))
        order = (order & ~(7 << (ORDER_BITS * k))) | (value << (ORDER_BITS * k))
    return find_row(S, order, NOTHING)


@rules_kernel
def greedy_choice(R: IntArray, S: IntArray) -> EngineInt:
    """Greedy's row for the pending decision."""
    table, decision, out = table_of(R), decision_of(S), actions_of(S)
    kind, s, i = decision[D_KIND], decision[D_SIDE], decision[D_LANE]
    if kind == K_RESOURCE:
        return greedy_resource(R, S)
    if kind == K_CHARACTER:
        return greedy_character(R, S)
    if kind == K_AVOID:  # when the damage would destroy the card
        return yes_no(destroyed_by(R, S, s, i, decision[D_ARG]))
    if kind == K_DISPERSE:  # when the damage would destroy it and the others can take the excess and live
        amount = decision[D_ARG]
        excess = amount - room_for_damage(R, S, s, i)
        return yes_no(destroyed_by(R, S, s, i, amount) and absorbable(R, S, s, i) >= excess)
    if kind == K_SPREAD_CARD:  # the first other card that can take more and live
        for k in range(1, decision[D_N]):
            if room_for_damage(R, S, s, out[k, 0]) > 0:
                return k
        return 0
    if kind == K_SPREAD_AMOUNT:  # as much as it can take and live
        return max(min(decision[D_ARG], room_for_damage(R, S, s, decision[D_OTHER])), 1) - 1
    if kind == K_HEAL:
        return greedy_heal(R, S)
    if kind == K_LONG_RANGE or kind == K_FUTURE_SIGHT:
        return ONE
    if kind == K_SELF_DESTRUCT:  # when the fight would lose the attacker alone, or trade it for a bigger card
        d = 1 - s
        outcome = predict_fight(R, S, s, i, d, i)
        card = lane_card(S, s, i)
        worth = outcome == 1 or ((outcome & 2) == 0 and table[lane_card(S, d, i), T_CIRCLES] > table[card, T_CIRCLES])
        return yes_no(worth)
    if kind == K_TARGET:
        return greedy_target(R, S)
    if kind == K_FIREBALL:
        return greedy_fireball(R, S)
    if kind == K_SLEEP:
        return greedy_sleep(R, S)
    if kind == K_REORDER:
        return greedy_reorder(R, S)
    if kind == K_ATTACK_BOOST:  # whenever it has a neighbour to boost
        return yes_no(lane_card(S, s, i - 1) >= 0 or lane_card(S, s, i + 1) >= 0)
    if kind == K_RESTORE:
        return greedy_restore(R, S)
    if kind == K_ARRANGE:
        return greedy_arrange(R, S)
    # K_SERENITY: only to stop an attack that would take the last Life Points. Asked of the attack itself: the lanes'
    # worth may be negative, so board_value could fall short of the bonus.
    return yes_no(game_of(S)[G_ACTIVE] != s and lethal_attack(R, S, 1 - s))


# The random policy: a random listed row, drawn as the engine always drew it (yes 2 times in 4, or 1 in 4 for Self
# Destruct and Serenity; a random number of resources, then random ones; a target, or none on a coin toss).


@rules_kernel
def random_choice(R: IntArray, S: IntArray) -> EngineInt:
    """Random's row for the pending decision."""
    rng, decision, out = rng_of(S), decision_of(S), actions_of(S)
    kind, s, i, n = decision[D_KIND], decision[D_SIDE], decision[D_LANE], decision[D_N]
    if kind == K_RESOURCE:
        if decision[D_ARG] == 0:  # the turn's first: how many to play
            decision[P_RESOURCES] = rng_below(rng, min(options_of(R)[O_RESOURCES_PER_TURN], n - 1) + 1)
        if decision[D_ARG] >= decision[P_RESOURCES]:
            return n - 1
        return rng_below(rng, n - 1)
    if kind == K_CHARACTER:  # a card, or stopping with the same chance as each card (never for a free one)
        if out[0, 0] < 0:
            return 0
        return rng_below(rng, n)
    if kind == K_SPREAD_CARD:  # every point onto a random other card
        if n == 1:
            return 0
        return 1 + rng_below(rng, n - 1)
    if kind == K_SPREAD_AMOUNT:
        return 0
    if kind == K_HEAL:  # greedy's Heal, half the time
        best = greedy_heal(R, S)
        if best == 0 or rng_below(rng, FOUR) >= HALF_THE_TIME:
            return 0
        return best
    if kind == K_TARGET:
        if n > 1 and rng_below(rng, COIN) == 1:
            return 1 + rng_below(rng, n - 1)
        return 0
    if kind == K_FIREBALL or kind == K_SLEEP or kind == K_RESTORE:
        if n == 1 or rng_below(rng, COIN) == 0:
            return 0
        return 1 + rng_below(rng, n - 1)
    if kind == K_REORDER:  # two random lanes (a swap only if both hold a card)
        board = side_of(S)[s, S_BOARD_N]
        if board < 2 or rng_below(rng, COIN) == 0:
            return 0
        x = rng_below(rng, board)
        y = rng_below(rng, board - 1)
        if y >= x:
            y += 1
        if lane_card(S, s, x) < 0 or lane_card(S, s, y) < 0:
            return 0
        return find_row(S, x, y)
    if kind == K_ARRANGE:  # a shuffle of the top cards
        seen = decision[D_ARG]
        order = identity_order(seen)
        for k in range(seen - 1, 0, -1):
            j = rng_below(rng, k + 1)
            at_k, at_j = order_digit(order, k), order_digit(order, j)
            order = (order & ~(7 << (ORDER_BITS * k))) | (at_j << (ORDER_BITS * k))
            order = (order & ~(7 << (ORDER_BITS * j))) | (at_k << (ORDER_BITS * j))
        return find_row(S, order, NOTHING)
    if kind == K_ATTACK_BOOST and lane_card(S, s, i - 1) < 0 and lane_card(S, s, i + 1) < 0:
        return 0
    chance = A_QUARTER_OF_THE_TIME if kind == K_SELF_DESTRUCT or kind == K_SERENITY else HALF_THE_TIME
    return yes_no(rng_below(rng, FOUR) < chance)


# ---------------------------------------------------------------------------------------------------------------
# The match loop over the rules' decisions: the rules stop at each decision and return (`rules.advance`), the deciding
# side's policy answers here and the rules take the answer. A batch of greedy, random or epsilon sides plays through
# it; the search's batch loop has its own (search.py), with the search among the policies.


@inline_kernel
def answer(R: IntArray, S: IntArray, _context: Any) -> EngineInt:
    """The open decision's answer by its side's policy: a hand decision's hand position (`choose_hand`), any other's
    row (`choose`)."""
    if is_hand_decision(S):
        return choose_hand(R, S)
    return choose(R, S)


@rules_kernel
def decide(R: IntArray, S: IntArray, _context: Any) -> EngineInt:
    """The open decision's rows listed (`legal_actions`) and the deciding side's row among them (`choose`): the
    policies' step of a match played from outside through the contract's `apply`. The batch's own loop answers a hand
    decision without the list (`answer`)."""
    n = legal_actions(R, S, actions_of(S))
    decision_of(S)[D_N] = n
    if n == 0:
        return STOP
    return choose(R, S)


@inline_kernel
def play_stages(R: IntArray, S: IntArray, until: EngineInt) -> None:
    """The match played on from game[G_STAGE] until the stage `until` is next or the match is over, each decision the
    rules stop at answered by its side's policy (`answer`) and taken (`rules.take_answer`): the play layer's loop
    (`workbench.play.loop.play_until`)."""
    play_until(R, S, NO_CONTEXT, answer, take_answer, advance, no_decision_open, until)


@inline_kernel
def play_match(R: IntArray, S: IntArray, first: EngineInt) -> None:
    """Turns alternate from `first` until a player has no Life Points or the turn cap is reached (a draw): the
    turn's stages from STAGE_TURN (`play_stages`)."""
    begin_turns(S, first)
    play_stages(R, S, np.int64(STAGE_OVER))


@rules_kernel
def play_matches(R: IntArray, S: IntArray, batch: Any) -> None:
    """Play a batch (`play.loop.new_batch`: one match per seed with the same decks and policies, greedy, random or
    epsilon-greedy) in the one state buffer, reused across the batch; a batch where a side plays `search` goes to
    `search.play_searched_matches`.

    The loop is the play layer's (`play.loop.batch_loop`), each match set up by `start_batch_match` and played by
    `play_batch_match`. Every once-a-turn phase is copied into it: setup, the turn's stages and the decisions' loop
    (`play_stages`, `rules.advance`) by Numba (`inline_kernel`), the ready step and the rest of the turn by LLVM
    (`llvm_inline_kernel`), so a turn makes few calls, and the loop runs without reference counting. The search's
    kernels are not reached from here, so a greedy or random batch does not compile them. The steps of the rest of the
    turn that use abilities (Restore, Fireball, lane modes, Serenity) stay out of line and are entered only when a card
    in play has them (`rules.enter_step`): copying them in as well doubled the compile time and was no faster. So does
    `resolve` (a Heal's decision): copied into combat by LLVM, greedy played about 10% slower (2026-11-29).
    """
    batch_loop(R, S, batch, NO_CONTEXT, start_batch_match, play_batch_match, finish_batch_match)


@inline_kernel
def start_batch_match(R: IntArray, S: IntArray, batch: Any, m: EngineInt) -> None:
    """Match m of a batch (`play.loop.batch_loop`) dealt in the one state buffer (`start_match`), its turns to begin
    with its first side's (`begin_turns`)."""
    deck_a, deck_b, seed, first, policy_a, policy_b = batch_match(batch, m)
    start_match(R, S, deck_a, deck_b, policy_a, policy_b, seed, m)
    begin_turns(S, np.int64(first))


@inline_kernel
def play_batch_match(R: IntArray, S: IntArray, _context: Any) -> None:
    """A batch's match played from its first turn to its end (`play_stages`)."""
    play_stages(R, S, np.int64(STAGE_OVER))


@inline_kernel
def finish_batch_match(_R: IntArray, S: IntArray, batch: Any, m: EngineInt) -> None:
    """Match m of a batch is over: `finish_match` into the batch's columns."""
    finish_match(S, m, batch[BATCH_WINNERS], batch[BATCH_TURNS])


# The rule tests' entries: a turn, or a part of one, played through the same loop (a test sets a board and plays the
# part it checks, the policies answering).


@inline_kernel
def turn_body(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """Side s's turn after the draw (resources, characters, healing, abilities, combat): its stages played from
    STAGE_RESOURCES until the next turn's (`play_stages`)."""
    begin_resources(S, s)
    play_stages(R, S, np.int64(STAGE_TURN))


@rules_kernel
def turn_body_call(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """`turn_body` as one call of its own."""
    turn_body(R, S, s)


@rules_kernel
def play_turn(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """One whole turn of side s, in the document's order (its draw, then `turn_body`)."""
    start_turn(R, S, s)
    turn_body(R, S, s)


@rules_kernel
def play_resources(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """Side s's resource stage alone (up to `resources_per_turn` resource cards, one decision each)."""
    begin_resources(S, s)
    play_stages(R, S, np.int64(STAGE_READY))


@rules_kernel
def extra_cards_each_turn(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """STAGE_EXTRA_CARDS alone for side s (option `extra_card=each_turn`: each Extra Card in play brings its characters
    in)."""
    game = game_of(S)
    game[G_ACTIVE] = s
    begin_lanes(S, s)
    game[G_PENDING] = 0
    game[G_CHAIN_GROWS] = 0
    game[G_STAGE] = STAGE_EXTRA_CARDS
    play_stages(R, S, np.int64(STAGE_CHARACTERS))


@rules_kernel
def play_rest_steps(R: IntArray, S: IntArray, s: EngineInt, first: EngineInt, last: EngineInt) -> None:
    """Steps `first` to `last` of STAGE_REST alone (REST_*), for side s, entered as the turn enters them."""
    game = game_of(S)
    begin_rest(S, s, first, last)
    if first == REST_RESTORE:
        if not begin_card_management(R, S, s):
            game[G_STEP] = REST_DONE
    elif first == REST_RESTORED_PLAY:
        game[G_STOPPED] = 0
    else:
        game[G_MINE] = side_abilities(R, S, s)
        game[G_THEIRS] = side_abilities(R, S, 1 - s)
        enter_step(R, S, first)
    play_stages(R, S, np.int64(STAGE_TURN))


@rules_kernel
def card_management(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """Restore (then the characters it brought back), Change the Future and Future Vision of side s."""
    play_rest_steps(R, S, s, np.int64(REST_RESTORE), np.int64(REST_FUTURE_VISION))


@rules_kernel
def play_characters(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """The characters side s brings in after Restore, one decision each until it stops."""
    play_rest_steps(R, S, s, np.int64(REST_RESTORED_PLAY), np.int64(REST_RESTORED_PLAY))


@rules_kernel
def precombat_abilities(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """Fireball, Sleep, Reorder and Attack Boost 2 of side s, lane by lane (in either side's turn)."""
    play_rest_steps(R, S, s, np.int64(REST_PRECOMBAT), np.int64(REST_PRECOMBAT))


@rules_kernel
def choose_lane_modes(R: IntArray, S: IntArray, a: EngineInt) -> None:
    """Long Range, Self Destruct and Target chosen for side a's blocked attackers."""
    play_rest_steps(R, S, a, np.int64(REST_LANE_MODES), np.int64(REST_LANE_MODES))


@rules_kernel
def use_serenity(R: IntArray, S: IntArray, d: EngineInt) -> None:
    """Serenity asked of side d's Serenity cards (in the other side's turn) until one is used."""
    play_rest_steps(R, S, 1 - d, np.int64(REST_SERENITY), np.int64(REST_SERENITY))


@rules_kernel
def combat(R: IntArray, S: IntArray, a: EngineInt) -> None:
    """Side a's characters attack, lane by lane from the left; then both boards shift left."""
    play_rest_steps(R, S, a, np.int64(REST_COMBAT), np.int64(REST_COMBAT))
