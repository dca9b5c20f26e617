"""The circles rules: a decision and its legal actions, taking an answer, and every rule kernel of a turn and a match
(the rules document's steps, as the package docstring lists them), with the contract's four functions:
`legal_actions(R, S, out) -> n`, `apply(R, S, k)`, `clone(S, into)` and `determinize(R, S, s, rng)`.

Imports only `layout`: no rule reads which policy a side plays, and no rule calls a policy. The rules stop at every
decision and return: the turn goes by stages (`advance`, layout's STAGE_*), the rest of the turn by steps (REST_*,
`rest_stage`), and a rule that asks while it resolves (an ability's use, damage's prevention and Disperse's spreading,
a Heal, an Extra Card's free characters) opens its decision (`open_question`, `open_hand`) and keeps where it stands
in the game words (a lane's op, the damage being dealt, the card waiting for a Heal), to go on from there once the
answer is taken (`take`, `take_hand`). The play loop (greedy.py's `play_stages`, search.py's for a batch with a
`search` side) asks the deciding side's policy.
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
from workbench.play.policies import start_policy
from workbench.rulesets.circles.engine.layout import (
    A_ACTIVATION,
    A_COLOUR,
    A_NUMBER,
    ASKED,
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
    DAMAGE_AVOID,
    DAMAGE_DISPERSE,
    DAMAGE_NONE,
    DAMAGE_OTHERS,
    DAMAGE_SPREAD_AMOUNT,
    DAMAGE_SPREAD_CARD,
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
    G_ANSWER,
    G_BACK_A,
    G_BACK_D,
    G_BOUND,
    G_CHAIN_GROWS,
    G_CURSOR,
    G_DAMAGE,
    G_DAMAGE_AMOUNT,
    G_DAMAGE_BOUND,
    G_DAMAGE_CURSOR,
    G_DAMAGE_EVENT,
    G_DAMAGE_KEEP,
    G_DAMAGE_LANE,
    G_DAMAGE_LEFT,
    G_DAMAGE_SI,
    G_DAMAGE_SRC,
    G_DAMAGE_T,
    G_DAMAGE_TI,
    G_HEALING,
    G_HEALING_LANE,
    G_HEALING_SIDE,
    G_IN_COMBAT,
    G_IN_FRONT,
    G_J,
    G_LANE_KIND,
    G_MINE,
    G_NEXT,
    G_OP,
    G_OPEN,
    G_PENDING,
    G_PHASE,
    G_PLAYED,
    G_REST_LAST,
    G_RESTORED,
    G_SHIELD,
    G_SIDE,
    G_SOURCE,
    G_STAGE,
    G_STEP,
    G_STOPPED,
    G_THEIRS,
    G_TO_A,
    G_TO_D,
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
    LANE_ATTACKER_FIRST,
    LANE_COLUMNS,
    LANE_DEFENDER_FIRST,
    LANE_FIGHT,
    LANE_MODE_ABILITIES,
    LANE_NONE,
    LANE_TARGET,
    LONG_RANGE,
    MODE_FIGHT,
    MODE_LONG_RANGE,
    MODE_SELF_DESTRUCT,
    MODE_TARGET,
    NO,
    NO_CARD,
    NO_COLOUR,
    NO_OP,
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
    PHASE_ATTACK_BOOST,
    PHASE_FIREBALL,
    PHASE_REORDER,
    PHASE_SLEEP,
    PRECOMBAT_ABILITIES,
    REORDER,
    REST_CHANGE_FUTURE,
    REST_COMBAT,
    REST_DONE,
    REST_FUTURE_VISION,
    REST_HEAL,
    REST_LANE_MODES,
    REST_PRECOMBAT,
    REST_RESTORE,
    REST_RESTORED_PLAY,
    REST_SERENITY,
    REST_THEIR_PRECOMBAT,
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
    STAGE_EXTRA_CARDS,
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
# The rules' interface: a decision, its legal actions, and taking an answer
#
# Where a rule leaves something to the player, it opens a decision (`open_question`: the kind, the side, the lane and
# amount it is about, in `decision_of(S)`; `open_hand` for the hand decisions) and stops; `legal_actions` lists its
# answers as rows (a, b) in the action list, a policy chooses one row, and `take` takes it (`carry_out`: pays, marks,
# moves cards, logs), keeping its answer for the rule that asked, which goes on when the rules are played on
# (`advance`); the contract's `apply` takes a row and plays on to the next decision. A decision is opened even with
# one legal action: the random policy draws its dice there as it always did.


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
def open_question(
    R: IntArray, S: IntArray, kind: EngineInt, s: EngineInt, i: EngineInt, arg: EngineInt, other: EngineInt
) -> bool:
    """Open a decision of `kind` for side s (about lane i, with `arg` and `other` as the kind says) and list its legal
    actions: True, the rules stop there until `take` takes its answer; False, nothing was opened (no legal action,
    which counts as declining)."""
    decision = decision_of(S)
    decision[D_KIND] = kind
    decision[D_SIDE] = s
    decision[D_LANE] = i
    decision[D_ARG] = arg
    decision[D_OTHER] = other
    n = legal_actions(R, S, actions_of(S))
    decision[D_N] = n
    if n == 0:
        return False
    game_of(S)[G_OPEN] = 1
    return True


@inline_kernel
def declined(S: IntArray, k: EngineInt) -> EngineBool:
    """Row k is the declining row (stop, none, keep), or there was no legal action (k = -1)."""
    return k < 0 or actions_of(S)[k, 0] < 0


@inline_kernel
def take(R: IntArray, S: IntArray, k: EngineInt) -> None:
    """The open decision's row k taken (`carry_out`, but not called when row k declines: stop, none, no, keep; most
    answers of the ability decisions are no, and the call was a tenth of greedy's time): its answer is kept in
    game[G_ANSWER] for the rule that asked, which goes on from there (`advance`)."""
    game = game_of(S)
    game[G_ANSWER] = STOP if declined(S, k) else carry_out(R, S, k)
    game[G_OPEN] = 0


@inline_kernel
def is_hand_decision(S: IntArray) -> bool:
    """The open decision is a hand decision (K_RESOURCE, K_CHARACTER): its answer is a hand position (`take_hand`),
    which greedy finds without listing the rows (`greedy.choose_hand`)."""
    kind = decision_of(S)[D_KIND]
    return kind == K_RESOURCE or kind == K_CHARACTER


@inline_kernel
def decision_open(S: IntArray) -> bool:
    """The rules have stopped at a decision (`advance`), which waits for its answer."""
    return game_of(S)[G_OPEN] == 1


@inline_kernel
def no_decision_open(S: IntArray) -> bool:
    """`decision_open`'s negation: the rules have played on as far as they were asked to (`advance`'s `until`)."""
    return game_of(S)[G_OPEN] == 0


@inline_kernel
def open_hand(S: IntArray, kind: EngineInt, s: EngineInt, arg: EngineInt, other: EngineInt) -> None:
    """Open a hand decision (K_RESOURCE or K_CHARACTER; `arg` 1: the character comes in free, by `other`'s Extra Card)
    for side s: the rules stop there until `take_hand` takes its answer. Its rows are not listed here: greedy reads
    the hand instead (`greedy.choose_hand`), and `legal_actions` lists them for any other policy."""
    decision = decision_of(S)
    decision[D_KIND] = kind
    decision[D_SIDE] = s
    decision[D_LANE] = NO_CARD
    decision[D_ARG] = arg
    decision[D_OTHER] = other
    game_of(S)[G_OPEN] = 1


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
def carry_out(R: IntArray, S: IntArray, k: EngineInt) -> EngineInt:
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
def apply(R: IntArray, S: IntArray, k: EngineInt) -> None:
    """The contract's `apply`: row k of the open decision's rows (as `legal_actions` lists them; -1, none) taken, a
    hand decision's by its hand position (`take_hand`), any other by `take`, and the match played on to the next
    decision or to its end (`advance`)."""
    if is_hand_decision(S):
        take_hand(R, S, actions_of(S)[k, 0] if k >= 0 else STOP)
    else:
        take(R, S, k)
    advance(R, S, np.int64(STAGE_OVER))


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
def hand_holds_character(R: IntArray, S: IntArray, s: EngineInt) -> bool:
    """Side s has a character in hand (one an Extra Card could bring in)."""
    table, zones = table_of(R), zones_of(S)
    for h in range(side_of(S)[s, S_HAND_N]):
        if table[zones[s, HAND, h], T_KIND] == KIND_CHARACTER:
            return True
    return False


@rules_kernel
def owed_characters(R: IntArray, S: IntArray, s: EngineInt) -> bool:
    """Extra Card: the next of the free characters still owed (game[G_PENDING], brought by game[G_SOURCE]) asked of
    side s (True: the rules stop there, K_CHARACTER free), or False: none owed, or no character in hand to bring,
    which ends what is owed (G_PENDING -1)."""
    game = game_of(S)
    if game[G_PENDING] <= 0:
        return False
    game[G_PENDING] -= 1
    if hand_holds_character(R, S, s):
        open_hand(S, K_CHARACTER, s, ONE, game[G_SOURCE])
        return True
    game[G_PENDING] = -1
    return False


@rules_kernel
def each_turn_characters(R: IntArray, S: IntArray, s: EngineInt) -> bool:
    """STAGE_EXTRA_CARDS (option `extra_card=each_turn`): each Extra Card in play, left to right (the board as the
    stage began), brings its count of characters from hand in, free, each a decision; the first time the hand holds
    no character, the stage ends. True: a decision is open."""
    table, zones, game = table_of(R), zones_of(S), game_of(S)
    while game[G_PENDING] >= 0:
        if owed_characters(R, S, s):
            return True
        if game[G_PENDING] < 0 or game[G_CURSOR] >= game[G_BOUND]:
            return False
        source = zones[s, BOARD, game[G_CURSOR]]
        game[G_CURSOR] += 1
        if source >= 0:
            game[G_PENDING] = table[source, T_EXTRA]
            game[G_SOURCE] = source
    return False


@inline_kernel
def characters_step(R: IntArray, S: IntArray, s: EngineInt) -> bool:
    """\u201cYou may bring as many Characters into play, as you can afford to\u201d: side s's characters, one paid
    decision each (K_CHARACTER) until it declines (game[G_STOPPED]), each followed by the free characters its Extra Card
    brings. STAGE_CHARACTERS, and Restore's step (REST_RESTORED_PLAY). True: a decision is open."""
    if game_of(S)[G_PENDING] > 0 and owed_characters(R, S, s):
        return True
    if game_of(S)[G_STOPPED] == 1:
        return False
    open_hand(S, K_CHARACTER, s, NOTHING, NO_CARD)
    return True


@inline_kernel
def play_character(R: IntArray, S: IntArray, s: EngineInt, h: EngineInt) -> None:
    """The character at hand position h comes into play, paid for; with `extra_card=on_entry` the characters its
    Extra Card brings are owed (`owed_characters`; one brought in adds its own)."""
    game = game_of(S)
    card = enter_play(R, S, s, h, NOTHING, NO_CARD)
    if table_of(R)[card, T_EXTRA] > 0 and options_of(R)[O_EXTRA_EACH_TURN] == 0:
        game[G_PENDING] = table_of(R)[card, T_EXTRA]
        game[G_SOURCE] = card
        game[G_CHAIN_GROWS] = 1


# ---------------------------------------------------------------------------------------------------------------
# Damage: prevention, Disperse, Reflect, Heal, destruction, Life Points


@rules_kernel
def absorbable(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt) -> int:
    """Damage the side's other cards could take without any being destroyed (what greedy Disperse can move)."""
    total = 0
    for j in range(side_of(S)[s, S_BOARD_N]):
        if j != i and lane_card(S, s, j) >= 0:
            total += room_for_damage(R, S, s, j)
    return total


@inline_kernel
def hold_damage(
    S: IntArray,
    step: EngineInt,
    t: EngineInt,
    ti: EngineInt,
    amount: EngineInt,
    src: EngineInt,
    si: EngineInt,
    event: EngineInt,
) -> None:
    """The damage being dealt waits at `step` (DAMAGE_*) for a decision of its prevention: kept in game[G_DAMAGE*]."""
    game = game_of(S)
    game[G_DAMAGE] = step
    game[G_DAMAGE_T] = t
    game[G_DAMAGE_TI] = ti
    game[G_DAMAGE_AMOUNT] = amount
    game[G_DAMAGE_SRC] = src
    game[G_DAMAGE_SI] = si
    game[G_DAMAGE_EVENT] = event


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
    damage, which is not reflected again), or ASKED: a decision of the prevention is open (Serenity, Avoid Damage and
    Disperse come first), and `damage_goes_on` finishes the damage once it is answered."""
    game, lanes, events, event_count = game_of(S), lanes_of(S), events_of(S), event_count_of(S)
    target = lane_card(S, t, ti)
    if target < 0 or amount <= 0:
        return 0
    if shielded(R, S, t):
        log_event(events, event_count, game[G_TURN], t, EV_IGNORED, target, SERENITY, amount)
        return 0
    if lanes[t, ti, L_AVOIDING] == 1:
        log_event(events, event_count, game[G_TURN], t, EV_IGNORED, target, AVOID_DAMAGE, amount)
        return 0
    if can_activate(R, S, t, ti, AVOID_DAMAGE):
        hold_damage(S, np.int64(DAMAGE_AVOID), t, ti, amount, src, si, event)
        if open_question(R, S, K_AVOID, t, ti, amount, NO_CARD):
            return ASKED
        game[G_DAMAGE] = DAMAGE_NONE
    return disperse_or_take(R, S, t, ti, amount, src, si, event)


@inline_kernel
def disperse_or_take(
    R: IntArray,
    S: IntArray,
    t: EngineInt,
    ti: EngineInt,
    amount: EngineInt,
    src: EngineInt,
    si: EngineInt,
    event: EngineInt,
) -> EngineInt:
    """`deal_damage` after Avoid Damage: Disperse's decision when the card would keep more than it can take (ASKED),
    else the damage taken (`damage_taken`)."""
    game = game_of(S)
    if can_activate(R, S, t, ti, DISPERSE):
        keep = room_for_damage(R, S, t, ti)
        excess = amount - keep
        if excess > 0:
            hold_damage(S, np.int64(DAMAGE_DISPERSE), t, ti, amount, src, si, event)
            game[G_DAMAGE_KEEP] = keep
            game[G_DAMAGE_LEFT] = excess
            if open_question(R, S, K_DISPERSE, t, ti, amount, NO_CARD):
                return ASKED
            game[G_DAMAGE] = DAMAGE_NONE
    return damage_taken(R, S, t, ti, amount, src, si, event)


@inline_kernel
def damage_taken(
    R: IntArray,
    S: IntArray,
    t: EngineInt,
    ti: EngineInt,
    taken: EngineInt,
    src: EngineInt,
    si: EngineInt,
    event: EngineInt,
) -> EngineInt:
    """The damage the card in lane ti takes after prevention (`taken`) put on it, counted and logged; returns what its
    Reflect owes back (0 for reflected damage)."""
    table, lanes, game, counters, events, event_count = (
        table_of(R),
        lanes_of(S),
        game_of(S),
        counters_of(S),
        events_of(S),
        event_count_of(S),
    )
    if taken <= 0:
        return 0
    target = lane_card(S, t, ti)
    lanes[t, ti, L_DAMAGE] += taken
    # The source is on the other side: preventing damage (Disperse's resolving, Heal) touches only side t's cards.
    source = lane_card(S, src, si)
    if source >= 0:
        counters[src, source, DAMAGE_DEALT] += taken
    log_event(events, event_count, game[G_TURN], src, event, source, target, taken)
    if event == EV_HIT and table[target, T_REFLECT] > 0:
        return (taken + 1) // 2
    return 0


@rules_kernel
def damage_goes_on(R: IntArray, S: IntArray) -> EngineInt:
    """The damage `deal_damage` left waiting (game[G_DAMAGE*]) goes on from the decision just answered: Avoid Damage,
    Disperse, the card it spreads onto and how much (a card and an amount at a time, as the side decides), or a Heal
    while Disperse's other cards are resolved; returns what `deal_damage` returns (ASKED again at the next
    decision)."""
    game = game_of(S)
    if game[G_HEALING] == 1:
        resolve_goes_on(R, S)
        return damage_others(R, S)
    step, answer = game[G_DAMAGE], game[G_ANSWER]
    t, ti, amount = game[G_DAMAGE_T], game[G_DAMAGE_TI], game[G_DAMAGE_AMOUNT]
    src, si, event = game[G_DAMAGE_SRC], game[G_DAMAGE_SI], game[G_DAMAGE_EVENT]
    if step == DAMAGE_AVOID:
        game[G_DAMAGE] = DAMAGE_NONE
        if answer == 1:
            return 0
        return disperse_or_take(R, S, t, ti, amount, src, si, event)
    if step == DAMAGE_DISPERSE:
        if answer != 1:
            game[G_DAMAGE] = DAMAGE_NONE
            return damage_taken(R, S, t, ti, amount, src, si, event)
    elif step == DAMAGE_SPREAD_CARD:
        if answer < 0:
            return damage_others_begin(R, S)
        game[G_DAMAGE] = DAMAGE_SPREAD_AMOUNT
        game[G_DAMAGE_LANE] = answer
        if open_question(R, S, K_SPREAD_AMOUNT, t, ti, game[G_DAMAGE_LEFT], answer):
            return ASKED
        return damage_others_begin(R, S)
    else:  # DAMAGE_SPREAD_AMOUNT
        game[G_DAMAGE_LEFT] -= answer
    if game[G_DAMAGE_LEFT] > 0:
        game[G_DAMAGE] = DAMAGE_SPREAD_CARD
        if open_question(R, S, K_SPREAD_CARD, t, ti, game[G_DAMAGE_LEFT], NO_CARD):
            return ASKED
    return damage_others_begin(R, S)


@rules_kernel
def damage_others_begin(R: IntArray, S: IntArray) -> EngineInt:
    """Disperse has spread what it will: the side's other cards are resolved, left to right (`damage_others`)."""
    game = game_of(S)
    game[G_DAMAGE] = DAMAGE_OTHERS
    game[G_DAMAGE_CURSOR] = 0
    game[G_DAMAGE_BOUND] = side_of(S)[game[G_DAMAGE_T], S_BOARD_N]
    return damage_others(R, S)


@rules_kernel
def damage_others(R: IntArray, S: IntArray) -> EngineInt:
    """Disperse's other cards resolved from game[G_DAMAGE_CURSOR] on (a Heal decision: ASKED), then the damage the card
    keeps taken (`damage_taken`: what it could take and live, and what was not spread)."""
    game = game_of(S)
    t, ti = game[G_DAMAGE_T], game[G_DAMAGE_TI]
    j = game[G_DAMAGE_CURSOR]
    while j < game[G_DAMAGE_BOUND]:
        if j != ti and lane_card(S, t, j) >= 0:
            game[G_DAMAGE_CURSOR] = j + 1
            if resolve(R, S, t, j) == ASKED:
                return ASKED
        j += 1
    game[G_DAMAGE] = DAMAGE_NONE
    taken = game[G_DAMAGE_KEEP] + game[G_DAMAGE_LEFT]
    return damage_taken(R, S, t, ti, taken, game[G_DAMAGE_SRC], game[G_DAMAGE_SI], game[G_DAMAGE_EVENT])


@rules_kernel
def resolve(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt) -> EngineInt:
    """Destroy the card in lane i if its damage is past its Health, unless a Heal saves it: 1 if destroyed, 0 if not,
    ASKED: the Heal decision is open (`resolve_goes_on` finishes it)."""
    card = lane_card(S, s, i)
    if card < 0:
        return 0
    if not destroyed_by(R, S, s, i, NOTHING):
        return 0
    if side_abilities(R, S, s) & HEAL_ABILITIES != 0:
        if open_question(R, S, K_HEAL, s, i, NOTHING, card):
            game = game_of(S)
            game[G_HEALING] = 1
            game[G_HEALING_SIDE] = s
            game[G_HEALING_LANE] = i
            return ASKED
    destroy(R, S, s, i)
    return 1


@rules_kernel
def resolve_goes_on(R: IntArray, S: IntArray) -> EngineInt:
    """The card `resolve` left waiting for the Heal decision: saved if a Heal was used and brought it within its
    Health (0), else destroyed (1)."""
    game = game_of(S)
    game[G_HEALING] = 0
    s, i = game[G_HEALING_SIDE], game[G_HEALING_LANE]
    if game[G_ANSWER] >= 0 and not destroyed_by(R, S, s, i, NOTHING):
        return 0
    destroy(R, S, s, i)
    return 1


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
def hit_op(
    R: IntArray,
    S: IntArray,
    op: EngineInt,
    k: EngineInt,
    t: EngineInt,
    ti: EngineInt,
    amount: EngineInt,
    src: EngineInt,
    si: EngineInt,
    event: EngineInt,
) -> EngineInt:
    """Op k of a lane's combat, damage dealt (`deal_damage`); when op k is the one that asked (`op`, game[G_OP] as the
    lane went on), the damage goes on from the answer instead (`damage_goes_on`)."""
    if op == k:
        return damage_goes_on(R, S)
    return deal_damage(R, S, t, ti, amount, src, si, event)


@inline_kernel
def resolve_op(R: IntArray, S: IntArray, op: EngineInt, k: EngineInt, s: EngineInt, i: EngineInt) -> EngineInt:
    """Op k of a lane's combat, a card resolved (`resolve`), or its Heal decision's answer taken up when op k asked."""
    if op == k:
        return resolve_goes_on(R, S)
    return resolve(R, S, s, i)


@inline_kernel
def hold_lane(
    S: IntArray, k: EngineInt, kind: EngineInt, to_a: EngineInt, to_d: EngineInt, back_a: EngineInt, back_d: EngineInt
) -> bool:
    """A lane's combat stops at op k, which asked: where it stands kept in the game words; True (ASKED)."""
    game = game_of(S)
    game[G_OP] = k
    game[G_LANE_KIND] = kind
    game[G_TO_A] = to_a
    game[G_TO_D] = to_d
    game[G_BACK_A] = back_a
    game[G_BACK_D] = back_d
    return True


@inline_kernel
def end_lane(S: IntArray, op: EngineInt) -> None:
    """A lane's combat is over: nothing of it is left in progress (a lane that never asked left nothing)."""
    if op != NO_OP:
        game_of(S)[G_OP] = NO_OP


@inline_kernel
def fight(R: IntArray, S: IntArray, a: EngineInt, i: EngineInt, d: EngineInt, j: EngineInt, op: EngineInt) -> bool:
    """Lane i's attacker against the card in lane j: damage at once, unless exactly one of them is Fast, which strikes
    first. A lane whose damage or destruction asks stops there (True) and goes on from its op (`op`, game[G_OP] as it
    stopped; NO_OP: from the start) once answered."""
    # Typed for mypy only (a bare annotation runs no code): ints at first, then EngineInts.
    to_a: EngineInt
    to_d: EngineInt
    back_a: EngineInt
    back_d: EngineInt
    kind: EngineInt
    table, game = table_of(R), game_of(S)
    if op == NO_OP:
        to_d = combat_damage(R, S, a, i, d, j)
        to_a = combat_damage(R, S, d, j, a, i)
        fast_a = table[lane_card(S, a, i), T_FAST] > 0
        fast_d = table[lane_card(S, d, j), T_FAST] > 0
        kind = np.int64(LANE_FIGHT)
        if fast_a and not fast_d:
            kind = np.int64(LANE_ATTACKER_FIRST)
        elif fast_d and not fast_a:
            kind = np.int64(LANE_DEFENDER_FIRST)
        back_a = 0
        back_d = 0
    else:
        kind, to_a, to_d = game[G_LANE_KIND], game[G_TO_A], game[G_TO_D]
        back_a, back_d = game[G_BACK_A], game[G_BACK_D]
    if op <= 1:  # the first blow: the Fast one's, or the attacker's
        if kind == LANE_DEFENDER_FIRST:
            back_d = hit_op(R, S, op, np.int64(1), a, i, to_a, d, j, EV_HIT)
            if back_d == ASKED:
                return hold_lane(S, np.int64(1), kind, to_a, to_d, back_a, back_d)
        else:
            back_a = hit_op(R, S, op, np.int64(1), d, j, to_d, a, i, EV_HIT)
            if back_a == ASKED:
                return hold_lane(S, np.int64(1), kind, to_a, to_d, back_a, back_d)
    # \u201cIf enemy card is destroyed, this card takes no damage\u201d (reflected damage included)
    if op <= 2 and kind != LANE_FIGHT:
        if kind == LANE_ATTACKER_FIRST:
            gone = resolve_op(R, S, op, np.int64(2), d, j)
        else:
            gone = resolve_op(R, S, op, np.int64(2), a, i)
        if gone == ASKED:
            return hold_lane(S, np.int64(2), kind, to_a, to_d, back_a, back_d)
        if gone == 1:
            end_lane(S, op)
            return False
    if op <= 3:  # the second blow
        if kind == LANE_DEFENDER_FIRST:
            back_a = hit_op(R, S, op, np.int64(3), d, j, to_d, a, i, EV_HIT)
            if back_a == ASKED:
                return hold_lane(S, np.int64(3), kind, to_a, to_d, back_a, back_d)
        else:
            back_d = hit_op(R, S, op, np.int64(3), a, i, to_a, d, j, EV_HIT)
            if back_d == ASKED:
                return hold_lane(S, np.int64(3), kind, to_a, to_d, back_a, back_d)
    if op <= 4 and hit_op(R, S, op, np.int64(4), a, i, back_a, d, j, EV_REFLECTED) == ASKED:
        return hold_lane(S, np.int64(4), kind, to_a, to_d, back_a, back_d)
    if op <= 5 and hit_op(R, S, op, np.int64(5), d, j, back_d, a, i, EV_REFLECTED) == ASKED:
        return hold_lane(S, np.int64(5), kind, to_a, to_d, back_a, back_d)
    if op <= 6 and resolve_op(R, S, op, np.int64(6), d, j) == ASKED:
        return hold_lane(S, np.int64(6), kind, to_a, to_d, back_a, back_d)
    if op <= 7 and resolve_op(R, S, op, np.int64(7), a, i) == ASKED:
        return hold_lane(S, np.int64(7), kind, to_a, to_d, back_a, back_d)
    end_lane(S, op)
    return False


@rules_kernel
def target_lane(R: IntArray, S: IntArray, a: EngineInt, i: EngineInt, d: EngineInt, op: EngineInt) -> bool:
    """Target: lane i's attacker strikes the card in lane game[G_J] instead, and \u201cIt must still defend against the
    same location\u201d (a card awake in front of it). Stops where a decision asks (True), as `fight` does."""
    # Typed for mypy only (a bare annotation runs no code): ints at first, then EngineInts.
    back_a: EngineInt
    back_d: EngineInt
    in_front: EngineInt
    lanes, game = lanes_of(S), game_of(S)
    j = game[G_J]
    if op == NO_OP:
        back_a = 0
        back_d = 0
        in_front = 0
    else:
        back_a, back_d, in_front = game[G_BACK_A], game[G_BACK_D], game[G_IN_FRONT]
    if op <= 1:
        amount = combat_damage(R, S, a, i, d, j) if op < 1 else NOTHING
        back_a = hit_op(R, S, op, np.int64(1), d, j, amount, a, i, EV_HIT)
        if back_a == ASKED:
            return hold_target(S, np.int64(1), back_a, back_d, in_front)
        in_front = 1 if lane_card(S, d, i) >= 0 and lanes[d, i, L_ASLEEP] == 0 else 0
    if op <= 2 and in_front == 1:
        amount = combat_damage(R, S, d, i, a, i) if op < 2 else NOTHING
        back_d = hit_op(R, S, op, np.int64(2), a, i, amount, d, i, EV_HIT)
        if back_d == ASKED:
            return hold_target(S, np.int64(2), back_a, back_d, in_front)
    if op <= 3 and hit_op(R, S, op, np.int64(3), a, i, back_a, d, j, EV_REFLECTED) == ASKED:
        return hold_target(S, np.int64(3), back_a, back_d, in_front)
    if op <= 4 and in_front == 1 and hit_op(R, S, op, np.int64(4), d, i, back_d, a, i, EV_REFLECTED) == ASKED:
        return hold_target(S, np.int64(4), back_a, back_d, in_front)
    if op <= 5 and resolve_op(R, S, op, np.int64(5), d, j) == ASKED:
        return hold_target(S, np.int64(5), back_a, back_d, in_front)
    if op <= 6 and in_front == 1 and resolve_op(R, S, op, np.int64(6), d, i) == ASKED:
        return hold_target(S, np.int64(6), back_a, back_d, in_front)
    if op <= 7 and resolve_op(R, S, op, np.int64(7), a, i) == ASKED:
        return hold_target(S, np.int64(7), back_a, back_d, in_front)
    end_lane(S, op)
    return False


@inline_kernel
def hold_target(S: IntArray, k: EngineInt, back_a: EngineInt, back_d: EngineInt, in_front: EngineInt) -> bool:
    """Target's lane stops at op k, which asked (`hold_lane`, with whether a card defends in front)."""
    game_of(S)[G_IN_FRONT] = in_front
    return hold_lane(S, k, np.int64(LANE_TARGET), NOTHING, NOTHING, back_a, back_d)


@inline_kernel
def fix_bonuses(R: IntArray, S: IntArray) -> None:
    """\u201cRemember to apply any Special Abilities that are appropriate, first, such as Health or Attack
    bonuses.\u201d"""
    side, lanes = side_of(S), lanes_of(S)
    for s in range(2):
        for i in range(side[s, S_BOARD_N]):
            lanes[s, i, L_ATTACK_BONUS] = live_attack_bonus(R, S, s, i)
            lanes[s, i, L_HEALTH_BONUS] = live_health_bonus(R, S, s, i)


@inline_kernel
def begin_combat(R: IntArray, S: IntArray, a: EngineInt) -> None:
    """Combat begins: bonuses fixed, the lanes logged, the loop over side a's lanes at its start."""
    side, game, events, event_count = side_of(S), game_of(S), events_of(S), event_count_of(S)
    d = 1 - a
    fix_bonuses(R, S)
    game[G_IN_COMBAT] = 1
    for i in range(max(side[a, S_BOARD_N], side[d, S_BOARD_N])):
        if lane_card(S, a, i) >= 0 or lane_card(S, d, i) >= 0:
            log_event(events, event_count, game[G_TURN], a, EV_LANE, lane_card(S, a, i), lane_card(S, d, i), i)
    game[G_CURSOR] = 0
    game[G_BOUND] = side[a, S_BOARD_N]
    game[G_OP] = NO_OP


@llvm_inline_kernel
def combat_step(R: IntArray, S: IntArray, a: EngineInt) -> bool:
    """REST_COMBAT: side a's characters attack, lane by lane from the left (`begin_combat` began it); then both
    boards shift left. A lane whose combat asks stops it (True; the lane kept in game[G_CURSOR]) and is played on from
    there when answered."""
    lanes, game, counters, events, event_count = (
        lanes_of(S),
        game_of(S),
        counters_of(S),
        events_of(S),
        event_count_of(S),
    )
    d = 1 - a
    # The lane and its op are kept in the game words only when a lane asks (the calls below may write S, so a word
    # read there would be read again after each of them).
    i = game[G_CURSOR]
    bound = game[G_BOUND]
    op = game[G_OP]  # the op of the lane that asked, which goes on; NO_OP: none
    while i < bound:
        lane = np.int64(LANE_NONE)  # what the lane's combat is
        if op != NO_OP:
            lane = game[G_LANE_KIND]
        else:
            card = lane_card(S, a, i)
            if card < 0:
                i += 1
                continue
            if lanes[a, i, L_ASLEEP] == 1:
                log_event(events, event_count, game[G_TURN], a, EV_SLEEPING, card, NO_CARD, i)
                i += 1
                continue
            if not attacks_now(R, S, a, i):
                log_event(events, event_count, game[G_TURN], a, EV_JUST_ARRIVED, card, NO_CARD, i)
                i += 1
                continue
            counters[a, card, ATTACKED] += 1
            mode = lanes[a, i, L_MODE]
            if mode == MODE_SELF_DESTRUCT and lane_card(S, d, i) >= 0:
                destroy(R, S, d, i)
                destroy(R, S, a, i)
                i += 1
                continue
            if mode == MODE_LONG_RANGE:
                hit_player(R, S, d, attack_of(R, S, a, i), a, i)
            elif mode == MODE_TARGET and lane_card(S, d, lanes[a, i, L_TARGET]) >= 0:
                game[G_J] = lanes[a, i, L_TARGET]
                lane = np.int64(LANE_TARGET)
            elif not opposed(R, S, d, i):
                hit_player(R, S, d, direct_damage(R, S, a, i), a, i)
            elif lanes[d, i, L_ASLEEP] == 0:
                lane = np.int64(LANE_FIGHT)
        # One call site each, so the fight is copied in once.
        if lane == LANE_TARGET:
            if target_lane(R, S, a, i, d, op):
                game[G_CURSOR] = i
                return True
        elif lane != LANE_NONE and fight(R, S, a, i, d, i, op):
            game[G_CURSOR] = i
            return True
        op = np.int64(NO_OP)
        i += 1
        if game[G_WINNER] != UNDECIDED:
            break
    game[G_IN_COMBAT] = 0
    shift_left(S, a)
    shift_left(S, d)
    return False


# ---------------------------------------------------------------------------------------------------------------
# The rest of the turn's abilities, step by step: card management, precombat abilities, lane modes, Serenity


@inline_kernel
def begin_lanes(S: IntArray, s: EngineInt) -> None:
    """A step's loop over side s's lanes begins: at lane 0, up to the board as it is now (the rules' `for i in
    range(board)`), nothing of a lane in progress."""
    game = game_of(S)
    game[G_CURSOR] = 0
    game[G_BOUND] = side_of(S)[s, S_BOARD_N]
    game[G_PHASE] = 0
    game[G_OP] = NO_OP


@rules_kernel
def next_lane_with(R: IntArray, S: IntArray, s: EngineInt, ability: EngineInt) -> EngineInt:
    """The step's next lane (from game[G_CURSOR]) whose card can use `ability` now, the cursor moved past it; -1 when
    the loop is done."""
    game = game_of(S)
    i = game[G_CURSOR]
    while i < game[G_BOUND]:
        game[G_CURSOR] = i + 1
        if can_activate(R, S, s, i, ability):
            return i
        i += 1
    game[G_CURSOR] = i
    return NO_CARD


@rules_kernel
def fireball_lane(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt) -> bool:
    """Fireball of lane i: 1 damage to an enemy card before combat (or not used), then that card resolved. Its decision,
    the damage's and the Heal's stop it (True; game[G_OP] says where it stands)."""
    game = game_of(S)
    o = 1 - s
    op = game[G_OP]
    if op == NO_OP:
        if open_question(R, S, K_FIREBALL, s, i, NOTHING, NO_CARD):
            game[G_OP] = 1
            return True
        return False
    if op == 1:
        if game[G_ANSWER] < 0:
            game[G_OP] = NO_OP
            return False
        game[G_J] = game[G_ANSWER]
    j = game[G_J]
    if op <= 2 and hit_op(R, S, op, np.int64(2), o, j, ability_table_of(R)[FIREBALL, A_NUMBER], s, i, EV_HIT) == ASKED:
        game[G_OP] = 2
        return True
    if op <= 3 and resolve_op(R, S, op, np.int64(3), o, j) == ASKED:
        game[G_OP] = 3
        return True
    game[G_OP] = NO_OP
    return False


@rules_kernel
def precombat_step(R: IntArray, S: IntArray, s: EngineInt) -> bool:
    """Fireball, Sleep, Reorder and Attack Boost 2 of side s, each lane by lane (REST_PRECOMBAT, and in the opponent's
    turn REST_THEIR_PRECOMBAT); each use is a decision (True: the rules stop there)."""
    game = game_of(S)
    while game[G_PHASE] <= PHASE_ATTACK_BOOST:
        phase = game[G_PHASE]
        if game[G_OP] != NO_OP:  # a Fireball in progress, of the lane before the cursor
            if fireball_lane(R, S, s, game[G_CURSOR] - 1):
                return True
            continue
        if phase == PHASE_FIREBALL:
            i = next_lane_with(R, S, s, FIREBALL)
            if i >= 0:
                if fireball_lane(R, S, s, i):
                    return True
                continue
        elif phase == PHASE_SLEEP:
            i = next_lane_with(R, S, s, SLEEP)
            if i >= 0 and open_question(R, S, K_SLEEP, s, i, NOTHING, NO_CARD):
                return True
        elif phase == PHASE_REORDER:
            i = next_lane_with(R, S, s, REORDER)
            if i >= 0 and open_question(R, S, K_REORDER, s, i, NOTHING, NO_CARD):
                return True
        else:
            i = next_lane_with(R, S, s, ATTACK_BOOST_2)
            if i >= 0 and open_question(R, S, K_ATTACK_BOOST, s, i, NOTHING, NO_CARD):
                return True
        if i < 0:
            begin_lanes(S, s)
            game[G_PHASE] = phase + 1
    return False


@rules_kernel
def lane_modes_step(R: IntArray, S: IntArray, a: EngineInt) -> bool:
    """REST_LANE_MODES: Long Range, Self Destruct and Target are chosen (and paid) for each blocked attacker before
    combat, in that order until one is used; each a decision (True: the rules stop there)."""
    table, lanes, game = table_of(R), lanes_of(S), game_of(S)
    d = 1 - a
    while True:
        op = game[G_OP]
        if op == NO_OP:
            i = game[G_CURSOR]
            if i >= game[G_BOUND]:
                return False
            game[G_CURSOR] = i + 1
            card = lane_card(S, a, i)
            if not attacks_now(R, S, a, i) or (table[card, T_ACTIVATED] & LANE_MODE_ABILITIES) == 0:
                continue
            if not (opposed(R, S, d, i) and lanes[d, i, L_ASLEEP] == 0):
                continue
        else:
            i = game[G_CURSOR] - 1
            game[G_OP] = NO_OP
            if op == 3 or game[G_ANSWER] == 1:
                continue
        if op < 1 and can_activate(R, S, a, i, LONG_RANGE):
            if open_question(R, S, K_LONG_RANGE, a, i, NOTHING, NO_CARD):
                game[G_OP] = 1
                return True
        if op < 2 and can_activate(R, S, a, i, SELF_DESTRUCT):
            if open_question(R, S, K_SELF_DESTRUCT, a, i, NOTHING, NO_CARD):
                game[G_OP] = 2
                return True
        if can_activate(R, S, a, i, TARGET):
            if open_question(R, S, K_TARGET, a, i, NOTHING, NO_CARD):
                game[G_OP] = 3
                return True


@rules_kernel
def serenity_step(R: IntArray, S: IntArray, d: EngineInt) -> bool:
    """REST_SERENITY: Serenity (discard the card; damage is ignored for the rest of the turn), asked of each Serenity
    card of side d until one is used (True: the rules stop at its decision)."""
    game = game_of(S)
    if game[G_OP] != NO_OP:
        game[G_OP] = NO_OP
        if game[G_ANSWER] == 1:
            game[G_CURSOR] = game[G_BOUND]
            return False
    while game[G_CURSOR] < game[G_BOUND]:
        i = game[G_CURSOR]
        game[G_CURSOR] = i + 1
        card = lane_card(S, d, i)
        if card < 0 or abilities_of(R)[card, SERENITY] == 0 or not may_act(R, S, d):
            continue
        if open_question(R, S, K_SERENITY, d, i, NOTHING, NO_CARD):
            game[G_OP] = 1
            return True
    return False


@rules_kernel
def restore_step(R: IntArray, S: IntArray, s: EngineInt) -> bool:
    """REST_RESTORE: Restore, lane by lane, a card from the discard pile to the hand (or not used; not asked with the
    pile empty); game[G_RESTORED] notes that one came back. True: the rules stop at its decision."""
    game = game_of(S)
    if game[G_OP] != NO_OP:
        game[G_OP] = NO_OP
        if game[G_ANSWER] >= 0:
            game[G_RESTORED] = 1
    while True:
        i = next_lane_with(R, S, s, RESTORE)
        if i < 0:
            return False
        if side_of(S)[s, S_DISCARD_N] > 0 and open_question(R, S, K_RESTORE, s, i, NOTHING, NO_CARD):
            game[G_OP] = 1
            return True


@rules_kernel
def future_sight_step(R: IntArray, S: IntArray, s: EngineInt, ability: EngineInt) -> bool:
    """REST_CHANGE_FUTURE and REST_FUTURE_VISION: lane by lane, Future Vision (look at the top 3) or Change the Future
    (look, then put them in an order), when there is a card to see; each a decision (True: the rules stop there)."""
    game = game_of(S)
    if game[G_OP] == 1 and game[G_ANSWER] == 1 and ability == CHANGE_THE_FUTURE:
        i = game[G_CURSOR] - 1
        game[G_OP] = 2
        if open_question(R, S, K_ARRANGE, s, i, cards_to_see(R, S, s, ability), NO_CARD):
            return True
    game[G_OP] = NO_OP
    while True:
        i = next_lane_with(R, S, s, ability)
        if i < 0:
            return False
        if cards_to_see(R, S, s, ability) > 0 and open_question(R, S, K_FUTURE_SIGHT, s, i, ability, NO_CARD):
            game[G_OP] = 1
            return True


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


@inline_kernel
def enter_step(R: IntArray, S: IntArray, step: EngineInt) -> None:
    """STAGE_REST goes to `step`, or past it to the first later step with something to do (a step whose abilities
    no card in play has does nothing and draws no random number), and that step's loop over lanes begins; never past
    game[G_REST_LAST]. The sets of abilities are read as the rules read them: the turn's side's after card management
    (game[G_MINE]), the opponent's once, before its precombat answers (game[G_THEIRS]), which hold through them up
    to Serenity."""
    game = game_of(S)
    s = game[G_SIDE]
    o = 1 - s
    while step <= game[G_REST_LAST]:
        if step == REST_PRECOMBAT:
            if game[G_MINE] & PRECOMBAT_ABILITIES != 0 and may_act(R, S, s):
                begin_lanes(S, s)
                break
        elif step == REST_LANE_MODES:
            if game[G_MINE] & LANE_MODE_ABILITIES != 0:
                begin_lanes(S, s)
                break
        elif step == REST_THEIR_PRECOMBAT:
            theirs = side_abilities(R, S, o)
            game[G_THEIRS] = theirs
            if options_of(R)[O_RESPOND] == 1 and theirs & PRECOMBAT_ABILITIES != 0 and may_act(R, S, o):
                begin_lanes(S, o)
                break
        elif step == REST_SERENITY:
            if game[G_THEIRS] & SERENITY_ABILITY != 0:
                begin_lanes(S, o)
                break
        else:
            begin_combat(R, S, s)
            break
        step += 1
    game[G_STEP] = step


@inline_kernel
def begin_card_management(R: IntArray, S: IntArray, s: EngineInt) -> bool:
    """The abilities side s has in play read (game[G_MINE]); with Restore, Change the Future or Future Vision among
    them, card management begins (REST_RESTORE: True)."""
    game = game_of(S)
    mine = side_abilities(R, S, s)
    game[G_MINE] = mine
    if mine & CARD_MANAGEMENT_ABILITIES == 0:
        return False
    begin_lanes(S, s)
    game[G_RESTORED] = 0
    game[G_STEP] = REST_RESTORE
    return True


@llvm_inline_kernel
def rest_stage(R: IntArray, S: IntArray) -> bool:
    """STAGE_REST, from game[G_STEP] on (REST_*) to game[G_REST_LAST]: side game[G_SIDE]'s characters heal, then
    card management (Restore, and the characters it brought back; Change the Future; Future Vision), its precombat
    abilities, its lane modes, the opponent's precombat answers and Serenity, then combat. True: a decision is open
    (the step keeps where it stands); False: the rest is played. Copied by LLVM into `advance`: typed and optimised
    once, copied as LLVM IR (Numba's IR inliner costs with the square of the body's size)."""
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    following: EngineInt
    side, lanes, game = side_of(S), lanes_of(S), game_of(S)
    s = game[G_SIDE]
    o = 1 - s
    while True:
        step = game[G_STEP]
        if step > game[G_REST_LAST]:
            return False
        # A step that ends goes on to the next with something to do (`enter_step`, copied in here once).
        if step == REST_HEAL:  # \u201cthey are now considered back to full health\u201d
            for i in range(side[s, S_BOARD_N]):
                lanes[s, i, L_DAMAGE] = 0
            if begin_card_management(R, S, s):
                continue
            following = np.int64(REST_PRECOMBAT)
        elif step == REST_RESTORE:
            if restore_step(R, S, s):
                return True
            begin_lanes(S, s)
            if game[G_RESTORED] == 1:
                game[G_STOPPED] = 0
                game[G_STEP] = REST_RESTORED_PLAY
            else:
                game[G_STEP] = REST_CHANGE_FUTURE
            continue
        elif step == REST_RESTORED_PLAY:
            if characters_step(R, S, s):
                return True
            begin_lanes(S, s)
            game[G_STEP] = REST_CHANGE_FUTURE
            continue
        elif step == REST_CHANGE_FUTURE:
            if future_sight_step(R, S, s, CHANGE_THE_FUTURE):
                return True
            begin_lanes(S, s)
            game[G_STEP] = REST_FUTURE_VISION
            continue
        elif step == REST_FUTURE_VISION:
            if future_sight_step(R, S, s, FUTURE_VISION):
                return True
            game[G_MINE] = side_abilities(R, S, s)  # Restore's characters may have brought abilities in
            following = np.int64(REST_PRECOMBAT)
        elif step == REST_PRECOMBAT:
            if precombat_step(R, S, s):
                return True
            following = np.int64(REST_LANE_MODES)
        elif step == REST_LANE_MODES:
            if lane_modes_step(R, S, s):
                return True
            following = np.int64(REST_THEIR_PRECOMBAT)
        elif step == REST_THEIR_PRECOMBAT:
            if precombat_step(R, S, o):
                return True
            following = np.int64(REST_SERENITY)
        elif step == REST_SERENITY:
            if serenity_step(R, S, o):
                return True
            following = np.int64(REST_COMBAT)
        else:
            if combat_step(R, S, s):
                return True
            game[G_STEP] = REST_DONE
            continue
        enter_step(R, S, following)


@inline_kernel
def begin_rest(S: IntArray, s: EngineInt, first: EngineInt, last: EngineInt) -> None:
    """STAGE_REST is next, for side s, from step `first` (REST_HEAL in a turn) to step `last` (REST_COMBAT)."""
    game = game_of(S)
    game[G_STAGE] = STAGE_REST
    game[G_SIDE] = s
    game[G_STEP] = first
    game[G_REST_LAST] = last


@llvm_inline_kernel
def ready_step(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """STAGE_READY: every resource of side s readied and logged; with `extra_card=each_turn`, STAGE_EXTRA_CARDS is
    next (each Extra Card in play brings its characters in), else STAGE_CHARACTERS."""
    side, game, events, event_count = side_of(S), game_of(S), events_of(S), event_count_of(S)
    ready_resources(S, s)
    totals = side[s, S_READY] * 10000 + side[s, S_READY + 1] * 100 + side[s, S_READY + 2]
    log_event(events, event_count, game[G_TURN], s, EV_RESOURCES, NO_CARD, totals, side[s, S_HAND_N])
    if options_of(R)[O_EXTRA_EACH_TURN] == 1:
        begin_lanes(S, s)
        game[G_PENDING] = 0
        game[G_CHAIN_GROWS] = 0
        game[G_STAGE] = STAGE_EXTRA_CARDS
    else:
        begin_characters(S)


@inline_kernel
def begin_characters(S: IntArray) -> None:
    """STAGE_CHARACTERS is next, no character declined yet."""
    game = game_of(S)
    game[G_STOPPED] = 0
    game[G_STAGE] = STAGE_CHARACTERS


@inline_kernel
def advance(R: IntArray, S: IntArray, until: EngineInt) -> None:
    """Play the match on from game[G_STAGE] (STAGE_*) until a decision is open (`decision_open`: a hand decision of
    the stages, or one asked while a rule resolves, its kind in `decision_of(S)`), the stage `until` is next, or the
    match is over: the rules stop there and return. `take_hand` and `take` take the open decision's answer."""
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
        elif stage == STAGE_EXTRA_CARDS:
            if each_turn_characters(R, S, s):
                return
            begin_characters(S)
        elif stage == STAGE_CHARACTERS:
            if characters_step(R, S, s):
                return
            begin_rest(S, s, np.int64(REST_HEAL), np.int64(REST_COMBAT))
        else:
            if rest_stage(R, S):
                return
            game[G_STAGE] = STAGE_TURN


@inline_kernel
def take_answer(R: IntArray, S: IntArray, answer: EngineInt) -> None:
    """The open decision's answer taken: a hand decision's hand position (`take_hand`), any other's row (`take`)."""
    if is_hand_decision(S):
        take_hand(R, S, answer)
    else:
        take(R, S, answer)


@inline_kernel
def take_hand(R: IntArray, S: IntArray, h: EngineInt) -> None:
    """The open hand decision's answer taken, as `take` takes a row (the hand position of the card to play, or STOP):
    a resource played (\u201cplay up to `resources_per_turn` resource cards\u201d; STOP ends the stage), a character
    brought into play free by an Extra Card (STOP: none could come, and what was owed ends), or one paid for
    (`play_character`; STOP: the side brings no more in)."""
    game, decision = game_of(S), decision_of(S)
    s = decision[D_SIDE]
    game[G_OPEN] = 0
    if decision[D_KIND] == K_RESOURCE:
        if h < 0:
            game[G_STAGE] = STAGE_READY
        else:
            play_resource(R, S, s, h)
            game[G_PLAYED] += 1
    elif decision[D_ARG] == ONE:
        if h < 0:
            game[G_PENDING] = -1
        else:
            card = enter_play(R, S, s, h, ONE, decision[D_OTHER])
            if game[G_CHAIN_GROWS] == 1:
                game[G_PENDING] += table_of(R)[card, T_EXTRA]
    elif h < 0:
        game[G_STOPPED] = 1
    else:
        play_character(R, S, s, h)


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


@rules_kernel
def open_match(
    R: IntArray,
    S: IntArray,
    deck_a: IntArray,
    deck_b: IntArray,
    policy_a: EngineInt,
    policy_b: EngineInt,
    seed: EngineInt,
    first: EngineInt,
) -> None:
    """A match set up as a batch sets up its match 0 (`start_match`), then played on to its first decision
    (`begin_play`): a match played from outside, decision by decision, through `legal_actions` and `apply` until
    `is_over` (`finish_match` closes its counters)."""
    start_match(R, S, deck_a, deck_b, policy_a, policy_b, seed, NOTHING)
    begin_play(R, S, first)


@rules_kernel
def begin_play(R: IntArray, S: IntArray, first: EngineInt) -> None:
    """The match in S (dealt, or a board a test set up) played on from side `first`'s turn to its first decision."""
    begin_turns(S, first)
    advance(R, S, np.int64(STAGE_OVER))


@inline_kernel
def begin_turns(S: IntArray, first: EngineInt) -> None:
    """The turns of the match in S to begin with side `first`'s, at its first stage (STAGE_TURN): where a match is
    played on from, by the batch's loops and from outside."""
    game = game_of(S)
    game[G_NEXT] = first
    game[G_STAGE] = STAGE_TURN


@inline_kernel
def is_over(S: IntArray) -> bool:
    """The match is over (a player has no Life Points, or the turn cap made it a draw): no decision is left."""
    return game_of(S)[G_STAGE] == STAGE_OVER


@inline_kernel
def finish_match(S: IntArray, m: EngineInt, winners: Any, turns: Any) -> None:
    """Match m of a batch is over: close its counters, note its winner and turn count."""
    game = game_of(S)
    end_match_counters(counters_of(S), game[G_TURN], np.int64(2))
    winners[m] = game[G_WINNER]
    turns[m] = game[G_TURN]


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
