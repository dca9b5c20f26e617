"""The plasma match engine: whole matches on integer arrays, compiled by Numba.

Pure: numpy and numba only. `compile_cards` turns a validated card set into
one integer card table once (stats, per-opcode totals and the effect clauses
as opcode/amount pairs); the kernels only ever see that table and one state
record per match (STATE_DTYPE: fixed-shape integer arrays), and all randomness
comes from the xorshift state seeded per match. Every step of a match is a
small kernel (setup, start of turn, one play, one attack, one fight, end of
turn) so scenario tests can set up a board and call exactly the rule they
test.

How a match runs (readings of silent rules are options, see options.py):

1. Setup: shuffle, 20 Healthshards, draw 5; each player may mulligan up to 3
   cards (set aside, draw 1 each, then shuffle them back into the deck). The
   second player holds the coin.
2. Start of turn: untap (your creatures, or all with `untap_every_turn`),
   summoning sickness ends, unspent plasma is lost and you gain plasma equal to
   your turn number, draw 1, then your battlefield's non-stat clauses fire
   (`battlefield_effects=each_turn`).
   Then (`instants_any_time`) the other player may play Instants with the
   plasma left from their own turn, until they pass.
3. Play phase: the policy plays cards and activates its creatures' abilities
   (`activate N: ...`, up to `activations_per_turn` times a creature) while it
   can pay (the coin gives +1 once per game). Creatures enter untapped and may
   attack this turn (unless the `summoning_sickness` house rule is on). After
   each card or ability has gone in effect (never between it and its effect),
   the other player may play Instants until they pass (`instants_any_time`).
4. Battle phase: each untapped creature may attack directly (the defender may
   block with an untapped creature) or attack a creature of its choice. Once
   the attack and its blocker are known, the attacker then the defender may
   play one Instant each (`instants_before_damage`); then fighters deal their
   power to each other at once, and both are tapped.
5. End of turn: the other player may spend the plasma left from their own turn
   on Instants; "this turn" bonuses end (a creature losing a resolve bonus
   keeps its resolve's worth of damage, unless `resolve_bonus_end_destroys`);
   damage wears off only with `damage_wears_off`.

A match ends when a player reaches 0 Healthshards, or as a draw at `turn_cap`
turns (both players' turns counted).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

from workbench.cards import CardSet, Finding, OptionValue, WorkbenchInputError
from workbench.engines import (
    ATTACKED,
    COUNTERS,
    DAMAGE_DEALT,
    DESTROYED,
    EVENT_WIDTH,
    MAX_TRACE_EVENTS,
    BatchRun,
    CompiledCards,
    Engine,
    EngineBool,
    EngineInt,
    IntArray,
    batch_and_trace,
    begin_match_counters,
    count_draw,
    count_play,
    end_match_counters,
    inline_kernel,
    llvm_inline_kernel,
    new_counters,
    published_counters,
    rng_below,
    rng_seed,
    rules_kernel,
    shuffle_in_place,
    trace_event,
)
from workbench.policies import (
    GREEDY,
    POLICY_NAMES,
    POLICY_WORDS,
    RANDOM,
    SEARCH,
    plays_random,
    random_played,
    start_policy,
)
from workbench.rulesets.plasma.cards import KINDS
from workbench.rulesets.plasma.costs import effect_findings
from workbench.rulesets.plasma.effects import Opcode, parse_effects
from workbench.search_kernels import (
    DRAW_POINTS,
    WIN_POINTS,
    halving_search,
    position_points,
)

# ---- card table columns -------------------------------------------------------------------------------------------
T_KIND = 0
T_COST = 1
T_POWER = 2
T_RESOLVE = 3
T_CLAUSES = 4
T_TOTAL = 4
"""Column T_TOTAL + opcode (opcodes are 1-8) holds the card's summed amount of that opcode."""
T_CLAUSE0 = 13
"""Clause c of a card is (opcode, amount) in columns T_CLAUSE0 + 2c and T_CLAUSE0 + 2c + 1, in cell order."""
MAX_CLAUSES = 6
"""Clauses simulated per card; more are reported and left out."""
T_PLAY_VALUE = T_CLAUSE0 + 2 * MAX_CLAUSES
"""Greedy's worth of playing the card in the play phase when it depends on the card alone (see
`greedy_play_value`), or PLAY_VALUE_OF_BOARD when it depends on the board."""
ABILITY = T_PLAY_VALUE + 1
"""A creature's activated ability (`activate N: ...`) is a second block of columns laid out as the card's own, from
column ABILITY on: ABILITY + T_COST is its plasma cost, ABILITY + T_CLAUSES its clause count, ABILITY + T_TOTAL + op
its per-opcode totals, ABILITY + T_CLAUSE0 + 2c its clauses; so the kernels that read a card's clauses read an
ability's by adding ABILITY (`blk`)."""
T_HAS_ABILITY = ABILITY + T_KIND
"""1 when the card is a creature with an activated ability."""
T_INSTANT_COST = ABILITY + T_CLAUSE0 + 2 * MAX_CLAUSES
"""An Instant's cost, NO_INSTANT for any other card: whether a hand holds an Instant p can pay for is one load and one
comparison per card (`has_instant_to_play`, asked before every attack's damage and at every end of turn)."""
TABLE_WIDTH = T_INSTANT_COST + 1
PLAY_VALUE_OF_BOARD = -1
MAX_DECK = 80
"""The largest deck the engine plays (a legal deck holds 40); the state's arrays have this fixed size."""

K_CREATURE, K_EQUIPMENT, K_EVENT, K_INSTANT, K_BATTLEFIELD = range(5)

OP_DAMAGE = int(Opcode.DAMAGE)
OP_DAMAGE_PLAYER = int(Opcode.DAMAGE_PLAYER)
OP_HEAL = int(Opcode.HEAL)
OP_DRAW = int(Opcode.DRAW)
OP_POWER = int(Opcode.POWER)
OP_RESOLVE = int(Opcode.RESOLVE)
OP_DESTROY = int(Opcode.DESTROY)
OP_PLASMA = int(Opcode.PLASMA)

# ---- rule options, in the order of the options array ---------------------------------------------------------------
OPTION_ORDER: tuple[str, ...] = (
    "turn_cap",
    "summoning_sickness",
    "untap_every_turn",
    "attack_tapped_creatures",
    "damage_wears_off",
    "lethal_damage",
    "healthshards_cap",
    "battlefield_effects",
    "replace_battlefield",
    "deck_out_loses",
    "instants_before_damage",
    "activations_per_turn",
    "activation_sickness",
    "resolve_bonus_end_destroys",
    "instants_any_time",
    "search_rollouts",
    "search_rollout_policy",
    "search_depth",
)
(
    O_TURN_CAP,
    O_SICKNESS,
    O_UNTAP_EVERY_TURN,
    O_ATTACK_TAPPED,
    O_DAMAGE_WEARS_OFF,
    O_MORE_THAN,
    O_HEAL_CAP,
    O_BATTLEFIELD_EACH_TURN,
    O_REPLACE_BATTLEFIELD,
    O_DECK_OUT_LOSES,
    O_INSTANTS_BEFORE_DAMAGE,
    O_ACTIVATIONS,
    O_ACTIVATION_SICKNESS,
    O_BONUS_END_DESTROYS,
    O_INSTANTS_ANY_TIME,
    O_SEARCH_ROLLOUTS,
    O_SEARCH_ROLLOUT_POLICY,
    O_SEARCH_DEPTH,
) = range(len(OPTION_ORDER))

STARTING_HEALTHSHARDS = 20
OPENING_HAND = 5
MULLIGANS_MAX = 3

# ---- per-creature board fields --------------------------------------------------------------------------------------
(
    B_CARD,
    B_UID,
    B_DAMAGE,
    B_TAPPED,
    B_SICK,
    B_EQ_POWER,
    B_EQ_RESOLVE,
    B_TMP_POWER,
    B_TMP_RESOLVE,
    B_HELD,
    B_POWER,
    B_RESOLVE,
    B_ACTIVATED,
) = range(13)
"""B_POWER and B_RESOLVE cache the effective stats; `refresh_stats` recomputes them wherever a bonus changes.
B_ACTIVATED counts the creature's activations this turn (reset at the start of its owner's turn)."""
BOARD_WIDTH = 13

# ---- per-player fields ----------------------------------------------------------------------------------------------
(
    S_LIFE,
    S_PLASMA,
    S_TURNS,
    S_COIN,
    S_BATTLEFIELD,
    S_HAND,
    S_DECK,
    S_DRAWN,
    S_BOARD,
    S_CHEAPEST,
    S_HAND_INSTANT,
    S_FIELD_ABILITIES,
    S_POLICY,
) = range(13)
"""S_CHEAPEST is the lowest cost of a card or activated ability in p's deck (0 when unknown): with less plasma, p can
play nothing, so the hand need not be read. S_HAND_INSTANT is the lowest cost of an Instant in p's hand (NO_INSTANT:
none), kept by
every change of a hand (`draw_card`, `remove_from_hand`, `count_hand_instants`), so whether p can pay for an Instant
is one comparison (`has_instant_to_play`, asked before every attack's damage, after every card of a play phase and at
every start and end of turn).
S_FIELD_ABILITIES counts p's creatures on the field that have an activated ability (`enter_field`, `remove_creature`):
a play decision reads p's field for abilities only when there is one (the deck's flag that did this read the field
whenever the deck held one).
S_POLICY is the first of the side's policy block, POLICY_WORDS words (`workbench.policies`: the code, the parameter and
the policy's own generator; `policy_block`), the row's last."""
SIDE_WIDTH = S_POLICY + POLICY_WORDS
NO_INSTANT = 1 << 40

# ---- match fields ---------------------------------------------------------------------------------------------------
(
    G_TURN,
    G_OVER,
    G_WINNER,
    G_NEXT_UID,
    G_FIRST,
    G_UNCHECKED,
    G_BONUS,
    G_DECISION,
    G_ACTOR,
    G_ATTACKER,
    G_ASIDE,
    G_ATTACKING,
    G_ATTACKER_UID,
    G_ATTACKER_CARD,
    G_DEFENDER_UID,
    G_WINDOW,
    G_PENDING,
    G_FX_PLAYER,
    G_FX_CARD,
    G_FX_MODE,
    G_FX_OWN,
    G_FX_ENEMY,
    G_FX_CLAUSE,
    G_DEFENDER,
) = range(24)
"""G_UNCHECKED is 1 when a creature may be on the field already destroyed (it entered with resolve 0 or less) and
no check has run since; the end of turn checks only then or when a bonus ends. G_BONUS is 1 when a "this turn"
bonus was given since the last end of turn, which reads the field for bonuses to end only then. G_DECISION is the
kind of decision open (D_*), G_ACTOR the player who takes it; G_ATTACKER the field slot of the attacker whose target
is open (D_TARGET), G_ASIDE the cards set aside so far in an open mulligan (D_MULLIGAN). An attack under way
(between its target and its damage) keeps its side G_ATTACKING, its attacker's uid and card, its defender's uid (-1:
none, a direct hit) and G_WINDOW, the instant window open or next (WINDOW_*). G_PENDING is a target a card's
effects left open (D_ENEMY_TARGET, D_OWN_TARGET, D_EQUIP_TARGET; D_NONE: none), decided before anything else;
G_FX_* keep what its effects need to go on (player, card, mode, own and enemy uid, the clause waiting). G_DEFENDER is
the defender's field slot when it was declared (a hint: `resolve_attack` trusts it only while that slot still holds
G_DEFENDER_UID)."""
GAME_WIDTH = 24

MAX_CHOICES = 2 * MAX_DECK + 2
"""As many actions as one decision can have: every hand card, every creature's ability, the coin and stop (or,
attacking: every enemy creature, hold and direct)."""
OWN_WORDS = 2
"""The policies' own words per side in the state (`words`)."""
NO_COUNT = -1
"""st.words[p, 0] before random has drawn how many cards p mulligans (set at each match's setup): an epsilon-greedy
side whose first ask of the mulligan went to greedy draws it at its first random ask."""

STATE_DTYPE = np.dtype(
    [
        ("board", np.int64, (2, MAX_DECK, BOARD_WIDTH)),
        ("hand", np.int64, (2, MAX_DECK)),
        ("library", np.int64, (2, MAX_DECK)),
        ("side", np.int64, (2, SIDE_WIDTH)),
        ("game", np.int64, (GAME_WIDTH,)),
        ("rng", np.int64, (4,)),
        ("options", np.int64, (len(OPTION_ORDER),)),
        ("ecount", np.int64, (1,)),
        ("srng", np.int64, (4,)),
        ("pool", np.int64, (MAX_DECK,)),
        ("choice", np.int64, (MAX_CHOICES,)),
        ("score", np.int64, (3 * MAX_CHOICES,)),
        ("searched", np.int64, (2,)),
        ("actions", np.int64, (MAX_CHOICES,)),
        ("words", np.int64, (2, OWN_WORDS)),
    ]
)
"""One match's whole state as a single record: a kernel call passes one pointer, and every array has a shape
known when compiling. `board[p, i]` is p's creature in field slot i (B_* fields), `hand[p]` and `library[p]` hold
card ids (the library from `side[p, S_DRAWN]` on is still to be drawn), `side[p]` holds S_* fields, `game` the
G_* fields, `rng` the xorshift state, `options` the rule options in OPTION_ORDER, `ecount` the trace length.
The last five belong to the search policy alone (no other policy reads or writes them): `srng` its own xorshift
state (seeded from the match's seed, never drawn by the rules), `pool` the cards it deals anew before a rollout,
`choice` the legal choices of the decision it searches (greedy's first), `score` successive halving's three blocks
for them (SC_POINTS: their points summed over their rollouts, SC_TRIED: the rollouts each was given, SC_ORDER: the
candidates still in, best first), and `searched` the decisions searched and rollouts played since the state was made
(for speed figures). `actions` is the out buffer `legal_actions` lists the open decision's legal actions into, and
`words` the policies' own words per side (the rules never read them: the random policy keeps there how many cards it
mulligans, NO_COUNT until it has drawn it). The side's policy block is in `side` (S_POLICY on, `policy_block`)."""

STAGE_TURN, STAGE_PLAY, STAGE_BATTLE, STAGE_BATTLE_ON, STAGE_END = 0, 1, 2, 3, 4
"""Where `play_turns` takes a turn up: from its start, or (a search's rollout, after the choice under test) in the
play phase (a card played or an ability activated), at the battle phase (the play phase stopped), or within the
battle phase (an attack chosen); or at its end (a searching side's turn, its phases searched)."""
MODE_PLAY, MODE_EQUIP, MODE_TRIGGER, MODE_ACTIVATE = 0, 1, 2, 3
ACTIVATE = MAX_DECK
"""A play-phase choice of ACTIVATE + i activates p's creature in field slot i (choices below it are hand positions)."""
MAX_ACTIVATIONS = 99
"""The largest `activations_per_turn` (options.py)."""
PLAY_STEPS = MAX_DECK * (1 + MAX_ACTIVATIONS) + 1
"""More play-phase choices than a turn can hold: every card of a deck, and every creature's activations."""
WINDOW_ATTACK, WINDOW_DEFEND, WINDOW_DONE, WINDOW_END, WINDOW_START, WINDOW_PLAY = 0, 1, 2, 3, 4, 5
"""An attack's windows (the attacker's, then the defender's) and none left before its damage (WINDOW_DONE); then the
windows outside an attack, each open to the player whose turn it is not until they pass (`is_open_window`): the end
of the turn's, and with `instants_any_time` the start of the turn's (after its draw and battlefield) and the one after
each card or ability of the play phase has gone in effect."""
DIRECT = -1
HOLD = -2
STOP = -1
"""The play decision's action that ends the play phase (the others: a hand position, ACTIVATE + a field slot, COIN)."""
COIN = -3
"""The play decision's action that flips the coin (listed while p holds it)."""
KEEP = -1
"""The mulligan decision's action that keeps the hand (the others: the hand position of the card set aside)."""
NO_BLOCK = -1
"""The block decision's action that takes the hit (the others: the blocker's field slot)."""
PASS = -1
"""The instant decision's action that plays none (the others: the Instant's hand position)."""

# ---- decisions: what `legal_actions` lists and `apply` takes (G_DECISION) ----------------------------------------
D_NONE, D_MULLIGAN, D_PLAY, D_ATTACKER, D_TARGET, D_BLOCK, D_INSTANT, D_ENEMY_TARGET, D_OWN_TARGET, D_EQUIP_TARGET = (
    range(10)
)
"""D_MULLIGAN: set a hand card aside (its hand position) or KEEP. D_PLAY: play a hand card (its hand position),
activate a creature's ability (ACTIVATE + its field slot), flip the COIN, or STOP. D_ATTACKER: the field slot of the
creature that attacks next (none listed: the battle phase is over). D_TARGET: where that attacker goes: HOLD (it sits
this battle phase out), DIRECT, or an enemy creature's field slot. D_BLOCK: the defender's untapped creature that
blocks a direct attack (its field slot) or NO_BLOCK. D_INSTANT: an Instant to play in window G_WINDOW (its hand
position) or PASS. Targets a card's effects leave open (G_PENDING, before the decision under way): D_ENEMY_TARGET
the enemy creature a damage or destroy clause hits, D_OWN_TARGET the own creature a bonus goes to, D_EQUIP_TARGET
the creature an equipment goes under (each a field slot)."""

# ---- trace event codes (row: turn, player, code, card, other, amount) -----------------------------------------------
(
    EV_TURN,
    EV_LIFE,
    EV_DRAW,
    EV_MULLIGAN,
    EV_PLAY,
    EV_EQUIP,
    EV_DAMAGE,
    EV_HIT,
    EV_HEAL,
    EV_POWER,
    EV_RESOLVE,
    EV_DESTROYED,
    EV_PLASMA,
    EV_COIN,
    EV_ATTACK_DIRECT,
    EV_ATTACK_CREATURE,
    EV_BLOCK,
    EV_NO_BLOCK,
    EV_DECK_EMPTY,
    EV_BATTLEFIELD_REPLACED,
    EV_TRIGGER,
    EV_TURN_CAP,
    EV_ATTACK_ENDS,
    EV_ACTIVATE,
) = range(24)


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
def destroy_creature(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
    i: EngineInt,
    source: EngineInt,
) -> None:
    """Destroy p's creature in slot i (`source` is the card that destroyed it outright, or -1)."""
    card = st.board[p, i, B_CARD]
    counters[p, card, DESTROYED] += 1
    trace_event(events, st.ecount, st.game[G_TURN], p, EV_DESTROYED, card, source, 0)
    remove_creature(table, st, p, i)


@llvm_inline_kernel
def remove_the_dead(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
) -> None:
    """Destroy every creature whose damage has reached its resolve (checked after damage and when bonuses end)."""
    for p in range(2):
        i = 0
        while i < st.side[p, S_BOARD]:
            if damage_to_destroy(table, st, p, i) <= 0:
                destroy_creature(table, st, counters, events, p, i, -1)
            else:
                i += 1
    st.game[G_UNCHECKED] = 0


@llvm_inline_kernel
def remove_if_destroyed(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
    i: EngineInt,
    q: EngineInt,
    j: EngineInt,
) -> None:
    """`remove_the_dead` after damage to p's creature in slot i and q's in slot j (q != p; j = -1 when only one
    creature took damage): only those can have been destroyed, since every other creature was checked when it last
    took damage or lost resolve (G_UNCHECKED says when one may have entered the field destroyed)."""
    if st.game[G_UNCHECKED] == 1:
        remove_the_dead(table, st, counters, events)
        return
    if p == 1 and j >= 0:
        # `remove_the_dead` destroys player 0's creatures first; the trace keeps that order.
        p, i, q, j = q, j, p, i
    if damage_to_destroy(table, st, p, i) <= 0:
        destroy_creature(table, st, counters, events, p, i, -1)
    if j >= 0 and damage_to_destroy(table, st, q, j) <= 0:
        destroy_creature(table, st, counters, events, q, j, -1)


@llvm_inline_kernel
def hit_player(
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    owner: EngineInt,
    source: EngineInt,
    amount: EngineInt,
) -> None:
    """`owner`'s card `source` deals `amount` to the opponent's Healthshards."""
    target = 1 - owner
    st.side[target, S_LIFE] -= amount
    counters[owner, source, DAMAGE_DEALT] += amount
    trace_event(events, st.ecount, st.game[G_TURN], owner, EV_HIT, source, st.side[target, S_LIFE], amount)
    if st.side[target, S_LIFE] <= 0:
        end_match(st, owner)


@llvm_inline_kernel
def damage_creature(
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    owner: EngineInt,
    source: EngineInt,
    q: EngineInt,
    i: EngineInt,
    amount: EngineInt,
) -> None:
    """`owner`'s card `source` puts `amount` damage on q's creature in slot i (destruction is checked after)."""
    st.board[q, i, B_DAMAGE] += amount
    counters[owner, source, DAMAGE_DEALT] += amount
    trace_event(events, st.ecount, st.game[G_TURN], owner, EV_DAMAGE, source, st.board[q, i, B_CARD], amount)


@llvm_inline_kernel
def heal_player(
    st: Any,
    events: IntArray | None,
    p: EngineInt,
    source: EngineInt,
    amount: EngineInt,
) -> None:
    """p gains Healthshards, up to `healthshards_cap` (0: no cap)."""
    life = st.side[p, S_LIFE] + amount
    cap = st.options[O_HEAL_CAP]
    if cap > 0 and life > cap:
        life = max(cap, st.side[p, S_LIFE])
    gained = life - st.side[p, S_LIFE]
    st.side[p, S_LIFE] = life
    trace_event(events, st.ecount, st.game[G_TURN], p, EV_HEAL, source, life, gained)


@llvm_inline_kernel
def draw_card(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
) -> None:
    """p draws the top card; from an empty deck p draws nothing (or loses, with `deck_out_loses`)."""
    if st.side[p, S_DRAWN] >= st.side[p, S_DECK]:
        trace_event(events, st.ecount, st.game[G_TURN], p, EV_DECK_EMPTY, -1, -1, 0)
        if st.options[O_DECK_OUT_LOSES] == 1:
            end_match(st, 1 - p)
        return
    card = st.library[p, st.side[p, S_DRAWN]]
    st.side[p, S_DRAWN] += 1
    st.hand[p, st.side[p, S_HAND]] = card
    st.side[p, S_HAND] += 1
    st.side[p, S_HAND_INSTANT] = min(st.side[p, S_HAND_INSTANT], table[card, T_INSTANT_COST])
    count_draw(counters, p, card)
    trace_event(events, st.ecount, st.game[G_TURN], p, EV_DRAW, card, -1, 0)


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
    counters: IntArray,
    events: IntArray | None,
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
        damage_creature(st, counters, events, p, card, q, slot, amount)
        remove_if_destroyed(table, st, counters, events, q, slot, p, np.int64(-1))
    elif op == OP_DESTROY:
        destroy_creature(table, st, counters, events, q, slot, card)
    else:
        if mode != MODE_EQUIP:
            st.game[G_BONUS] = 1
        if op == OP_POWER:
            st.board[p, slot, B_EQ_POWER if mode == MODE_EQUIP else B_TMP_POWER] += amount
            refresh_stats(table, st, p, slot)
            trace_event(events, st.ecount, st.game[G_TURN], p, EV_POWER, card, st.board[p, slot, B_CARD], amount)
        else:
            st.board[p, slot, B_EQ_RESOLVE if mode == MODE_EQUIP else B_TMP_RESOLVE] += amount
            refresh_stats(table, st, p, slot)
            trace_event(events, st.ecount, st.game[G_TURN], p, EV_RESOLVE, card, st.board[p, slot, B_CARD], amount)


@rules_kernel
def apply_effects(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
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
            clause_on(table, st, counters, events, p, card, mode, op, amount, slot)
        elif op == OP_DAMAGE_PLAYER:
            hit_player(st, counters, events, p, card, amount)
        elif op == OP_HEAL:
            heal_player(st, events, p, card, amount)
        elif op == OP_DRAW:
            for _ in range(amount):
                draw_card(table, st, counters, events, p)
        elif op == OP_PLASMA:
            st.side[p, S_PLASMA] += amount
            trace_event(events, st.ecount, st.game[G_TURN], p, EV_PLASMA, card, st.side[p, S_PLASMA], amount)


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
def apply_effect_target(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    slot: EngineInt,
) -> None:
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
        trace_event(events, st.ecount, st.game[G_TURN], p, EV_EQUIP, card, st.board[p, slot, B_CARD], 0)
        if table[card, T_CLAUSES] > 0:
            apply_effects(
                table,
                st,
                counters,
                events,
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
        clause_on(table, st, counters, events, p, card, mode, op, amount, slot)
        apply_effects(
            table,
            st,
            counters,
            events,
            p,
            card,
            np.int64(mode),
            np.int64(st.game[G_FX_OWN]),
            np.int64(enemy_uid),
            np.int64(clause + 1),
        )
    if st.game[G_PENDING] == D_NONE:
        if st.game[G_DECISION] == D_INSTANT:
            instant_done(table, st, counters, events)
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
def play_card(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
    h: EngineInt,
    own_uid: EngineInt,
    enemy_uid: EngineInt,
) -> None:
    """p pays for and plays hand card h (legality is the caller's: see `can_play`).

    `own_uid` is the creature an equipment goes under (or a bonus's target), `enemy_uid` a damage target; when
    either is not on the field, the choice is p's (a target left open: G_PENDING, see `apply_effects`).
    """
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    slot: EngineInt
    card = remove_from_hand(table, st, p, h)
    cost = table[card, T_COST]
    st.side[p, S_PLASMA] -= cost
    count_play(counters, p, card, st.game[G_TURN])
    trace_event(events, st.ecount, st.game[G_TURN], p, EV_PLAY, card, st.side[p, S_PLASMA], cost)
    kind = table[card, T_KIND]
    mode = MODE_PLAY
    if kind == K_CREATURE:
        enter_field(table, st, p, card)
    elif kind == K_EQUIPMENT:
        slot = find_uid(st, p, own_uid)
        if slot < 0:
            if st.side[p, S_BOARD] > 0:
                # Which creature it goes under is p's decision.
                leave_target_open(st, np.int64(D_EQUIP_TARGET), p, card, np.int64(MODE_EQUIP), own_uid, enemy_uid, -1)
            return
        trace_event(events, st.ecount, st.game[G_TURN], p, EV_EQUIP, card, st.board[p, slot, B_CARD], 0)
        mode = MODE_EQUIP
        own_uid = st.board[p, slot, B_UID]
    elif kind == K_BATTLEFIELD:
        old = st.side[p, S_BATTLEFIELD]
        if old >= 0:
            trace_event(events, st.ecount, st.game[G_TURN], p, EV_BATTLEFIELD_REPLACED, card, old, 0)
        st.side[p, S_BATTLEFIELD] = card
        refresh_side(table, st, p)
        # Replacing a battlefield can take away resolve, and with it creatures.
        remove_the_dead(table, st, counters, events)
        if st.options[O_BATTLEFIELD_EACH_TURN] == 1:
            return
        mode = MODE_TRIGGER
    if table[card, T_CLAUSES] > 0:
        apply_effects(
            table, st, counters, events, p, card, np.int64(mode), np.int64(own_uid), np.int64(enemy_uid), np.int64(0)
        )


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
    decision then weighs without a call (greedy about 6% faster, for several seconds more compile of `play_turns`); the
    search's play phase calls one compiled copy of `greedy_play` (`greedy_play_called`), so its own compile does not
    grow too.
    """
    card = st.hand[p, h]
    kind = table[card, T_KIND]
    value = table[card, T_PLAY_VALUE]
    if value != PLAY_VALUE_OF_BOARD:
        return 0 if kind == K_BATTLEFIELD and st.side[p, S_BATTLEFIELD] >= 0 else value
    value = weigh_spell(table, st, p, card, kind == K_EVENT, True, 0)
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
def activate(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
    i: EngineInt,
) -> None:
    """p pays for and activates the ability of its creature in slot i (legality is the caller's: `can_activate`)."""
    card = st.board[p, i, B_CARD]
    cost = table[card, ABILITY + T_COST]
    st.side[p, S_PLASMA] -= cost
    st.board[p, i, B_ACTIVATED] += 1
    trace_event(events, st.ecount, st.game[G_TURN], p, EV_ACTIVATE, card, st.side[p, S_PLASMA], cost)
    apply_effects(
        table,
        st,
        counters,
        events,
        p,
        card,
        np.int64(MODE_ACTIVATE),
        np.int64(st.board[p, i, B_UID]),
        np.int64(-1),
        np.int64(0),
    )


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
def flip_coin(st: Any, events: IntArray | None, p: EngineInt) -> None:
    """Once per game, the second player's coin: +1 plasma this turn."""
    st.side[p, S_COIN] = 0
    st.side[p, S_PLASMA] += 1
    trace_event(events, st.ecount, st.game[G_TURN], p, EV_COIN, -1, -1, st.side[p, S_PLASMA])


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
def apply_play(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
    action: EngineInt,
) -> None:
    """p takes a listed action of the play decision (STOP takes nothing: the match loop ends the play phase). Once a
    card or an ability has gone in effect (a target it leaves open chosen: `apply_effect_target`), the opponent's
    instant window after it opens (`open_window`; the coin is not a card and opens none)."""
    if action == COIN:
        flip_coin(st, events, p)
    elif action >= 0:
        if action >= ACTIVATE:
            activate(table, st, counters, events, p, action - ACTIVATE)
        else:
            play_card(table, st, counters, events, p, action, np.int64(-1), np.int64(-1))
        if st.game[G_PENDING] == D_NONE:
            open_window(table, st, 1 - p, np.int64(WINDOW_PLAY))


# =====================================================================================================================
# Instants
# =====================================================================================================================


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
def fight(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
    a: EngineInt,
    q: EngineInt,
    d: EngineInt,
) -> None:
    """p's creature in slot a and q's in slot d deal their power to each other at once; both end tapped."""
    power_a = creature_power(table, st, p, a)
    power_d = creature_power(table, st, q, d)
    st.board[p, a, B_TAPPED] = 1
    st.board[q, d, B_TAPPED] = 1
    damage_creature(st, counters, events, p, st.board[p, a, B_CARD], q, d, power_a)
    damage_creature(st, counters, events, q, st.board[q, d, B_CARD], p, a, power_d)
    remove_if_destroyed(table, st, counters, events, p, a, q, d)


@llvm_inline_kernel
def declare_attack(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
    a: EngineInt,
    target: EngineInt,
) -> None:
    """p's creature in slot a attacks: directly (target = DIRECT) or the enemy creature in slot `target`.

    A direct attack opens the defender's block decision when they have an untapped creature; otherwise the attack
    goes on to its instant windows and damage (`attack_goes_on`; a window is opened here, without its call).
    """
    q = 1 - p
    attacker_card = st.board[p, a, B_CARD]
    counters[p, attacker_card, ATTACKED] += 1
    st.game[G_ATTACKING] = p
    st.game[G_ATTACKER] = a
    st.game[G_ATTACKER_UID] = st.board[p, a, B_UID]
    st.game[G_ATTACKER_CARD] = attacker_card
    st.game[G_DEFENDER_UID] = -1
    st.game[G_WINDOW] = WINDOW_ATTACK
    if target == DIRECT:
        trace_event(
            events, st.ecount, st.game[G_TURN], p, EV_ATTACK_DIRECT, attacker_card, -1, creature_power(table, st, p, a)
        )
        for i in range(st.side[q, S_BOARD]):
            if st.board[q, i, B_TAPPED] == 0:
                open_decision(st, np.int64(D_BLOCK), q)
                return
        trace_event(events, st.ecount, st.game[G_TURN], q, EV_NO_BLOCK, -1, attacker_card, 0)
    else:
        st.game[G_DEFENDER_UID] = st.board[q, target, B_UID]
        st.game[G_DEFENDER] = target
        trace_event(
            events, st.ecount, st.game[G_TURN], p, EV_ATTACK_CREATURE, attacker_card, st.board[q, target, B_CARD], 0
        )
    # The first window opened here, without a call; the damage stays in `attack_goes_on`, a kernel of its own that
    # LLVM copies in: written out here it was typed again at every level and cost compile (plasma.md, Speed, round 4).
    if open_instant_window(table, st, p):
        return
    attack_goes_on(table, st, counters, events)


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
def apply_block(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    d: EngineInt,
) -> None:
    """The defender blocks the direct attack with its creature in slot d (or takes the hit: NO_BLOCK); the attack
    goes on."""
    q = st.game[G_ACTOR]
    attacker_card = st.game[G_ATTACKER_CARD]
    if d >= 0:
        st.game[G_DEFENDER_UID] = st.board[q, d, B_UID]
        st.game[G_DEFENDER] = d
        trace_event(events, st.ecount, st.game[G_TURN], q, EV_BLOCK, st.board[q, d, B_CARD], attacker_card, 0)
    else:
        trace_event(events, st.ecount, st.game[G_TURN], q, EV_NO_BLOCK, -1, attacker_card, 0)
    attack_goes_on(table, st, counters, events)


@llvm_inline_kernel
def attack_goes_on(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
) -> None:
    """The attack once its fighters are known: with `instants_before_damage`, the attacker's then the defender's
    instant window, each opened (D_INSTANT) when that player holds an Instant they can pay for; then damage
    (`resolve_attack`). Copied in by LLVM (`llvm_inline_kernel`): typed once, so the several decisions that lead here
    cost little compile, and greedy saves a call per attack (plasma.md, Speed, Round 7)."""
    if open_instant_window(table, st, st.game[G_ATTACKING]):
        return
    st.game[G_WINDOW] = WINDOW_DONE
    resolve_attack(table, st, counters, events)


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
def resolve_attack(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
) -> None:
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
        trace_event(events, st.ecount, st.game[G_TURN], p, EV_ATTACK_ENDS, attacker_card, -1, 0)
        return
    if defender_uid < 0:
        st.board[p, a, B_TAPPED] = 1
        hit_player(st, counters, events, p, attacker_card, creature_power(table, st, p, a))
        return
    if d < 0:
        # The blocker or the attacked creature left the field before damage: the attack ends, the attacker tapped.
        st.board[p, a, B_TAPPED] = 1
        trace_event(events, st.ecount, st.game[G_TURN], p, EV_ATTACK_ENDS, attacker_card, -1, 0)
        return
    fight(table, st, counters, events, p, a, q, d)


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


@llvm_inline_kernel
def apply_instant(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    h: EngineInt,
) -> None:
    """The deciding player plays the Instant at hand position h (or PASS). Around an attack a window holds one
    Instant: the attack goes on. A window outside an attack stays open until PASS, which closes it: after a card of
    the opponent's play phase (WINDOW_PLAY) the opponent's play decision opens again; at the start or the end of a
    turn no decision is left open (the match loop goes on). A PASS, the usual answer, is taken here; an Instant is
    played by `play_instant` (called)."""
    window = st.game[G_WINDOW]
    if h != PASS:
        play_instant(table, st, counters, events, h)
    elif window == WINDOW_PLAY:
        open_decision(st, np.int64(D_PLAY), 1 - st.game[G_ACTOR])
    elif is_open_window(window):
        st.game[G_DECISION] = D_NONE
    else:
        instant_done(table, st, counters, events)


@rules_kernel
def play_instant(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    h: EngineInt,
) -> None:
    """`apply_instant` of an Instant (hand position h): it is played on the window's fighters; then, unless its
    target is left open, the attack goes on."""
    own_uid, enemy_uid = window_uids(st)
    play_card(table, st, counters, events, st.game[G_ACTOR], h, np.int64(own_uid), np.int64(enemy_uid))
    if st.game[G_PENDING] != D_NONE:
        # The window goes on once the Instant's target is chosen (`apply_effect_target`).
        return
    instant_done(table, st, counters, events)


@llvm_inline_kernel
def instant_done(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
) -> None:
    """An attack's window has had its one Instant (or none): the attack goes on. A window outside an attack stays
    open."""
    window = st.game[G_WINDOW]
    if is_open_window(window):
        return
    st.game[G_WINDOW] = WINDOW_DEFEND if window == WINDOW_ATTACK else WINDOW_DONE
    attack_goes_on(table, st, counters, events)


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
def apply_target(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
    target: EngineInt,
) -> None:
    """p sends its attacker in slot G_ATTACKER to a listed target: HOLD marks it held back for the rest of this
    battle phase, anything else declares the attack (which may open the defender's block or an instant window)."""
    a = st.game[G_ATTACKER]
    if target == HOLD:
        st.board[p, a, B_HELD] = 1
        open_decision(st, np.int64(D_ATTACKER), p)
    else:
        declare_attack(table, st, counters, events, p, a, target)


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
def start_turn(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
) -> None:
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
    trace_event(events, st.ecount, st.game[G_TURN], p, EV_TURN, -1, st.side[p, S_TURNS], st.side[p, S_PLASMA])
    trace_event(events, st.ecount, st.game[G_TURN], p, EV_LIFE, -1, st.side[1, S_LIFE], st.side[0, S_LIFE])
    draw_card(table, st, counters, events, p)
    field = st.side[p, S_BATTLEFIELD]
    if st.game[G_OVER] == 0 and field >= 0 and st.options[O_BATTLEFIELD_EACH_TURN] == 1 and has_trigger(table, field):
        trace_event(events, st.ecount, st.game[G_TURN], p, EV_TRIGGER, field, -1, 0)
        apply_effects(
            table, st, counters, events, p, field, np.int64(MODE_TRIGGER), np.int64(-1), np.int64(-1), np.int64(0)
        )


@llvm_inline_kernel
def close_turn(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
) -> None:
    """After the opponent's end-of-turn window (`end_turn`): "this turn" bonuses end (and damage, by option)."""
    # Damage only ever destroys at once (every damage is followed by a check), so at the end of turn a creature can
    # only be destroyed by losing a resolve bonus (`resolve_bonus_end_destroys`), or when it entered the field
    # already destroyed.
    bonus_ended = False
    if st.game[G_BONUS] == 0 and st.options[O_DAMAGE_WEARS_OFF] == 0:
        if st.game[G_UNCHECKED] == 1:
            remove_the_dead(table, st, counters, events)
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
        remove_the_dead(table, st, counters, events)


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
def apply_mulligan(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
    action: EngineInt,
) -> None:
    """p takes a listed mulligan action: set hand card `action` aside and draw 1; or KEEP, which ends the mulligan:
    the set-aside cards are shuffled back into the deck."""
    # The cards drawn so far left the front of the library, so its first slots hold the set-aside cards.
    aside = st.game[G_ASIDE]
    if action != KEEP:
        card = remove_from_hand(table, st, p, action)
        st.library[p, aside] = card
        st.game[G_ASIDE] = aside + 1
        trace_event(events, st.ecount, st.game[G_TURN], p, EV_MULLIGAN, card, -1, 0)
        draw_card(table, st, counters, events, p)
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
    """p's policy block (`workbench.policies`: the code at S_POLICY, the parameter, the policy's own generator)."""
    return st.side[p, S_POLICY : S_POLICY + POLICY_WORDS]


@rules_kernel
def setup_match(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    deck_a: IntArray,
    deck_b: IntArray,
    seed: EngineInt,
    first: EngineInt,
    policy_a: EngineInt,
    policy_b: EngineInt,
) -> None:
    """Shuffle both decks, 20 Healthshards each, draw 5 and mulligan (first player first); the second gets the coin.
    Each side's policy block is filled from its policy word and the match's seed (`start_policy`)."""
    p: EngineInt  # a loop counter, then `first` or `1 - first`
    rng_seed(st.rng, seed)
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
    st.game[G_FIRST] = first
    st.game[G_UNCHECKED] = 0
    st.game[G_BONUS] = 0
    for k in range(2):
        p = first if k == 0 else 1 - first
        for _ in range(OPENING_HAND):
            draw_card(table, st, counters, events, p)
        mulligan(table, st, counters, events, p)


@rules_kernel
def play_turns(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    stage: EngineInt,
) -> None:
    """Alternate turns from player G_FIRST's until someone reaches 0 Healthshards or the turn cap.

    `stage` is where G_FIRST's turn is taken up: STAGE_TURN from its start, or (a search's rollout, in a turn under
    way) STAGE_PLAY in its play phase, STAGE_BATTLE at its battle phase, STAGE_BATTLE_ON within it, or STAGE_END at
    its end. Returns once a turn of a side that plays `search` has started, G_FIRST then that side
    (`play_turns_searched` plays its phases, then takes it up at STAGE_END), so one compiled copy of the whole turn
    serves batches, traces, rollouts and a search's opponent, and the start and end of a search's own turns.
    """
    p = st.game[G_FIRST]
    while st.game[G_OVER] == 0:
        if stage == STAGE_TURN:
            if st.game[G_TURN] >= st.options[O_TURN_CAP]:
                trace_event(events, st.ecount, st.game[G_TURN], -1, EV_TURN_CAP, -1, -1, st.options[O_TURN_CAP])
                end_match(st, -1)
                break
            start_turn(table, st, counters, events, p)
            if st.game[G_PENDING] != D_NONE:
                answer_targets(table, st, counters, events)
            # The opponent's window at the start of the turn (`instants_any_time`), once the draw and battlefield are
            # done.
            if open_window(table, st, 1 - p, np.int64(WINDOW_START)):
                answer_window(table, st, counters, events)
                st.game[G_DECISION] = D_NONE
            if st.side[p, S_POLICY] == SEARCH:
                st.game[G_FIRST] = p
                return
        if st.game[G_OVER] == 0 and stage <= STAGE_PLAY:
            play_phase(table, st, counters, events, p)
        if st.game[G_OVER] == 0 and stage <= STAGE_BATTLE_ON:
            if stage != STAGE_BATTLE_ON:
                # A battle phase starts with no creature held back (`battle_phase`).
                for i in range(st.side[p, S_BOARD]):
                    st.board[p, i, B_HELD] = 0
            battle_on(table, st, counters, events, p)
        if st.game[G_OVER] == 0:
            end_turn(table, st, counters, events, p)
        p = 1 - p
        stage = STAGE_TURN


# =====================================================================================================================
# The rules' interface: legal_actions, apply, clone (every policy plays through these)
#
# A decision is open in the state (G_DECISION, taken by player G_ACTOR): `legal_actions` lists its legal actions
# into an out buffer (st.actions, unless the caller keeps its own), and `apply` takes one of them. Each kind has its
# own lister and applier above (`legal_plays` / `apply_play`, `legal_attackers` / `apply_attacker`,
# `legal_targets` / `apply_target`, `legal_mulligan` / `apply_mulligan`), which the match loop calls directly on its
# hot path; the two kernels here dispatch on G_DECISION for a caller that does not know the kind (the search, tests).
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


@rules_kernel
def apply(table: IntArray, st: Any, counters: IntArray, events: IntArray | None, action: EngineInt) -> None:
    """Take one action that `legal_actions` listed for the open decision, and open the one that follows it within
    the same step: after an attacker its target; after a target the defender's block, an instant window or (the
    attack done, or a hold) the next attacker; after a card or ability of the play phase has gone in effect, the
    opponent's window (`instants_any_time`), whose PASS opens the play decision again; after an Instant in a window
    outside an attack the same window. STOP, KEEP and the PASS of a start- or end-of-turn window close the decision
    (the match loop goes on to the next phase). A target left open (G_PENDING) is answered first: the action is its
    field slot."""
    if st.game[G_PENDING] != D_NONE:
        apply_effect_target(table, st, counters, events, action)
        return
    p = st.game[G_ACTOR]
    decision = st.game[G_DECISION]
    if decision == D_PLAY:
        if action == STOP:
            st.game[G_DECISION] = D_NONE
        else:
            apply_play(table, st, counters, events, p, action)
    elif decision == D_ATTACKER:
        apply_attacker(st, action)
    elif decision == D_TARGET:
        apply_target(table, st, counters, events, p, action)
    elif decision == D_BLOCK:
        apply_block(table, st, counters, events, action)
    elif decision == D_INSTANT:
        apply_instant(table, st, counters, events, action)
    elif decision == D_MULLIGAN:
        apply_mulligan(table, st, counters, events, p, action)


@rules_kernel
def apply_choice(table: IntArray, st: Any, counters: IntArray, events: IntArray | None, action: EngineInt) -> None:
    """`apply` for the two decisions the search chooses in, with no target left open: a play (not STOP, which the
    search takes itself) or an attacker's target. One kernel of two appliers, not `apply`'s six: less for the search
    line to compile."""
    if st.game[G_DECISION] == D_PLAY:
        apply_play(table, st, counters, events, st.game[G_ACTOR], action)
    else:
        apply_target(table, st, counters, events, st.game[G_ACTOR], action)


# =====================================================================================================================
# Policies: each chooses one of the actions `legal_actions` listed (out[0:n]); none changes a rule
#
# A policy may read the whole state (the search deals what its player cannot see anew before reading) and keep its
# own words in st.words; it returns an action of the list. `choose_*` picks the side's policy (S_POLICY: only the
# policies and the match loop read it). Each is a door of `workbench.policies`: it asks `plays_random` whether the side
# plays this decision by random (`random` always; `epsilon:E` with probability E, from its own generator, which it
# trades in for the match's until `random_played` takes random's choice), and every other side plays greedy (a
# search side's own play and battle phases are searched, `play_turns_searched`). Random's draws are all made between
# the two, and no rule draws there. A new policy is a new function per decision kind and a branch in each `choose_*`:
# no rule changes.
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
# The match loop: opens each decision, lists its actions, asks the deciding side's policy, applies its choice
# =====================================================================================================================


@rules_kernel
def answer_targets(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
) -> None:
    """Each target a card's effects leave open, asked of its player's policy, until none is (one per clause, and an
    equipment's creature; rare, so one compiled copy, called)."""
    for _ in range(MAX_CLAUSES + 2):
        if st.game[G_PENDING] == D_NONE or st.game[G_OVER] == 1:
            return
        apply_effect_target(table, st, counters, events, choose_effect_target(table, st, st.actions))


@llvm_inline_kernel
def ask_instant(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
) -> EngineInt:
    """The open instant decision asked of its player's policy and applied; returns the action (copied in by LLVM,
    with `attack_goes_on`: plasma.md, Speed, Round 7)."""
    h = choose_instant(table, st, st.game[G_ACTOR], st.actions)
    apply_instant(table, st, counters, events, h)
    return h


@rules_kernel
def answer_window(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
) -> None:
    """An open instant window outside an attack (`open_window`: the end of a turn; with `instants_any_time` the start
    of the opponent's turn and after each card of their play phase), asked of its player's policy until they pass,
    and the targets their Instants leave open. One compiled copy, called: a window opens only when its player holds
    an Instant they can pay for."""
    for _ in range(2 * MAX_DECK + 2):
        if st.game[G_OVER] == 1 or st.game[G_DECISION] != D_INSTANT:
            return
        if st.game[G_PENDING] != D_NONE:
            answer_targets(table, st, counters, events)
        elif ask_instant(table, st, counters, events) == PASS:
            return


@llvm_inline_kernel
def answer_attack(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
) -> None:
    """The decisions a declared attack opens, each asked of its player's policy: the defender's block, then the
    attacker's and the defender's instant windows (and the targets their Instants leave open), until the attack is
    done. Also answers a target any other action left open, and the window after a card of a play phase (its
    Instants until its player passes)."""
    for _ in range(2 * MAX_DECK + 3 * (MAX_CLAUSES + 2)):
        if st.game[G_OVER] == 1:
            return
        decision = st.game[G_DECISION]
        if st.game[G_PENDING] != D_NONE:
            answer_targets(table, st, counters, events)
        elif decision == D_BLOCK:
            apply_block(table, st, counters, events, choose_block(table, st, st.game[G_ACTOR], st.actions))
        elif decision == D_INSTANT:
            ask_instant(table, st, counters, events)
        else:
            return


@llvm_inline_kernel
def attack(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
    a: EngineInt,
    target: EngineInt,
) -> None:
    """p's creature in slot a attacks `target` (DIRECT or an enemy slot), the decisions it opens answered by the
    players' policies: the whole attack."""
    declare_attack(table, st, counters, events, p, a, target)
    answer_attack(table, st, counters, events)


@llvm_inline_kernel
def end_turn(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
) -> None:
    """The opponent's last use of their leftover plasma (an instant window, asked until they pass, when they hold an
    Instant they can pay for), then "this turn" bonuses end (`close_turn`)."""
    if open_window(table, st, 1 - p, np.int64(WINDOW_END)):
        answer_window(table, st, counters, events)
        st.game[G_DECISION] = D_NONE
    close_turn(table, st, counters, events, p)


@rules_kernel
def mulligan(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
) -> None:
    """p's mulligan: up to 3 times set a card aside and draw 1, until p keeps; the set-aside cards are then shuffled
    back into the deck."""
    open_decision(st, np.int64(D_MULLIGAN), p)
    st.game[G_ASIDE] = 0
    for _ in range(MULLIGANS_MAX + 1):
        n = legal_mulligan(st, p, st.actions)
        action = choose_mulligan(table, st, p, st.actions, n)
        apply_mulligan(table, st, counters, events, p, action)
        if action == KEEP:
            return


@llvm_inline_kernel
def play_phase(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
) -> None:
    """p's play phase: the play decision, asked again after each action until p's policy stops; after each card or
    ability has gone in effect, the opponent's window (`instants_any_time`) is asked of their policy first."""
    open_decision(st, np.int64(D_PLAY), p)
    for _ in range(PLAY_STEPS + 1):
        if st.game[G_OVER] == 1:
            break
        action = choose_play(table, st, p, st.actions)
        if action == STOP:
            break
        apply_play(table, st, counters, events, p, action)
        if st.game[G_PENDING] != D_NONE:
            answer_targets(table, st, counters, events)
        if st.game[G_DECISION] == D_INSTANT:
            answer_window(table, st, counters, events)
    st.game[G_DECISION] = D_NONE


@llvm_inline_kernel
def battle_phase(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
) -> None:
    """p's battle phase: no creature held back yet, then the attacker and target decisions, one attack (or hold) at a
    time, while a creature can attack (`battle_on`; `play_turns` writes the two steps out itself, so its compile types
    `battle_on` once)."""
    for i in range(st.side[p, S_BOARD]):
        st.board[p, i, B_HELD] = 0
    battle_on(table, st, counters, events, p)


@llvm_inline_kernel
def battle_on(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
) -> None:
    """The rest of p's battle phase (creatures held back so far stay held): the attacker and target decisions, one
    attack (or hold) at a time, while a creature can attack. A search's rollout takes it up here."""
    for _ in range(2 * MAX_DECK + 2):
        if st.game[G_OVER] == 1:
            break
        open_decision(st, np.int64(D_ATTACKER), p)
        a = choose_attacker(table, st, p, st.actions)
        if a < 0:
            break
        apply_attacker(st, a)
        apply_target(table, st, counters, events, p, choose_target(table, st, p, st.actions))
        answer_attack(table, st, counters, events)
    st.game[G_DECISION] = D_NONE


# =====================================================================================================================
# The search policy
# =====================================================================================================================

N_OPTIONS = len(OPTION_ORDER)
KernelT = TypeVar("KernelT", bound=Callable[..., Any])


def called(function: KernelT) -> KernelT:
    """A copy of an inline kernel that its callers call instead of copying it in: the search's code runs whole
    phases and attacks in several places, and one compiled copy of each keeps its compile time near the greedy
    batch's (plain Python under NUMBA_DISABLE_JIT, where there is nothing to inline)."""
    return rules_kernel(getattr(function, "py_func", function))


answer_attack_called = called(answer_attack)
greedy_play_called = called(greedy_play)
"""Greedy's play decision for the search's play phase: one compiled copy, called (greedy's board weighing is inline
in it)."""
NO_TRACE = 1 << 62
"""A clone's trace count (`clone`): larger than any events buffer, so a rollout traces nothing."""
SEARCH_SEED = 0x5EA4C4
"""Mixed into a match's seed for the search's own generator, so it never repeats the match's."""


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
    # Past the end of any events buffer: a traced match's rollouts write nothing, though they are passed its buffer.
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


SC_POINTS = np.int64(0)
"""`score`'s first block: each candidate's points summed over its rollouts (`search_kernels`: WIN_POINTS a rollout
won, DRAW_POINTS drawn, 0 lost, and a cut-off rollout its position's points, `search_evaluation`)."""
SC_TRIED = np.int64(MAX_CHOICES)
"""`score`'s second block: the rollouts each candidate was given (candidates dropped early were given fewer)."""
SC_ORDER = np.int64(2 * MAX_CHOICES)
"""`score`'s third block: the candidates still in, best first once ranked (its first word is the choice)."""

EVAL_LIFE = 22
"""What `search_evaluation` counts a Healthshard as worth, up to EVAL_LIFE_CAP of them (EVAL_MOVER_LIFE less for the
side whose turn is next, as much more for the other). The weights are a logistic fit of who went on to win from the
end-of-turn positions of greedy-against-greedy mirror matches, scaled so that EVAL_HALF is the advantage that won
three times in four (docs/rulesets/plasma.md, *The search policy*; tests/rulesets/plasma/eval_fit.py refits them)."""
EVAL_LIFE_CAP = 20
"""Healthshards above this many (the starting 20) told nothing more about who wins, in the fit: they count up to
here."""
EVAL_MOVER_LIFE = -5
"""Added to EVAL_LIFE for the side whose turn is next, taken from it for the other: in the fit the Healthshards of the
side about to be attacked told more than those of the side about to attack."""
EVAL_POWER = 22
"""A point of power of a creature on the field (its effective power: printed, equipment and this turn's bonuses), and
EVAL_MOVER_POWER more for the side whose turn is next (its creatures attack first), as much less for the other."""
EVAL_MOVER_POWER = 4
EVAL_RESOLVE = 8
"""A point of resolve a creature on the field has left (its effective resolve less the damage on it)."""
EVAL_CREATURE = 27
"""A creature on the field, besides its power and resolve."""
EVAL_HAND = 45
"""A card in hand."""
EVAL_BATTLEFIELD = 92
"""A battlefield in play."""
EVAL_TEMPO = 229
"""The side whose turn is next (it draws, gains plasma and attacks first); with the mover's terms above, an even
position of 20 Healthshards and no creatures a side is worth 229 - 2 x 5 x 20 = 29 to it."""
EVAL_HALF = 100
"""The advantage that scores three quarters of a win (`search_kernels.position_points`)."""


@llvm_inline_kernel
def search_side_worth(table: IntArray, st: Any, p: EngineInt, moving: EngineInt) -> int:
    """p's worth in `search_evaluation` (EVAL_* weights): its Healthshards (up to EVAL_LIFE_CAP), each creature on
    the field by its power, the resolve it has left and itself, its cards in hand and its battlefield; `moving` (1:
    p's turn is next, 0: not) gives the tempo and the mover's terms."""
    sign = 2 * moving - 1
    worth = (EVAL_LIFE + sign * EVAL_MOVER_LIFE) * min(st.side[p, S_LIFE], EVAL_LIFE_CAP)
    worth += EVAL_HAND * st.side[p, S_HAND] + EVAL_TEMPO * moving
    if st.side[p, S_BATTLEFIELD] >= 0:
        worth += EVAL_BATTLEFIELD
    power_weight = EVAL_POWER + sign * EVAL_MOVER_POWER
    for i in range(st.side[p, S_BOARD]):
        left = max(creature_resolve(table, st, p, i) - st.board[p, i, B_DAMAGE], 0)
        worth += EVAL_CREATURE + power_weight * creature_power(table, st, p, i) + EVAL_RESOLVE * left
    return worth


@llvm_inline_kernel
def search_evaluation(table: IntArray, st: Any, p: EngineInt, mover: EngineInt) -> EngineInt:
    """A cut-off rollout's points for p: the difference of the two sides' worth (`search_side_worth`, `mover` the
    side whose turn is next), squashed into (0, WIN_POINTS) by `position_points`."""
    moving = np.int64(1) if mover == p else np.int64(0)
    advantage = search_side_worth(table, st, p, moving) - search_side_worth(table, st, 1 - p, 1 - moving)
    return position_points(advantage, np.int64(EVAL_HALF))


@llvm_inline_kernel
def rollout(
    table: IntArray,
    world: Any,
    sim: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
    choice: EngineInt,
    stage: EngineInt,
    cut: EngineInt,
) -> EngineInt:
    """One rollout of `choice` for p in the sampled `world` (`determinize`d once for every candidate of a round),
    played on `sim`: the choice, the rest of p's turn from `stage`, then whole turns until the turn cap `cut`; p's
    points. Nothing is traced (`clone` puts sim's trace count past the end of any events buffer), and `counters` is
    the search's own scratch. Copied into its one caller, `search_decision`: one compiled module fewer holding a copy
    of `play_turns`.

    The cut-off is the rules' own turn cap, lowered in the rollout's copy of the options (a cap ends the match as a
    draw before the next turn starts): so the rollout runs `play_turns` itself, and no rule learns of a search. A
    draw at a `cut` below the match's own cap is a cut-off, scored by `search_evaluation`."""
    clone(world, sim)
    after = stage
    if stage == STAGE_PLAY and choice == STOP:
        after = STAGE_BATTLE
    else:
        apply_choice(table, sim, counters, events, choice)
        # The targets, block and instants it leaves open, by the policies the sides hold at the decision (p's:
        # greedy's).
        answer_attack_called(table, sim, counters, events)
    policy = sim.options[O_SEARCH_ROLLOUT_POLICY]
    sim.side[0, S_POLICY] = policy
    sim.side[1, S_POLICY] = policy
    cap = sim.options[O_TURN_CAP]
    sim.options[O_TURN_CAP] = cut
    # `play_turns` takes p's turn up at `stage`; its machine code is the greedy batch's own (same types), so a rollout
    # compiles no second copy of a turn or a match.
    sim.game[G_FIRST] = p
    play_turns(table, sim, counters, events, after)
    winner = sim.game[G_WINNER]
    if winner == p:
        return WIN_POINTS
    if winner >= 0:
        return 0
    if cut < cap:
        # The side to move after the cut: p when an odd number of turns followed p's (turn `cut` was the last played).
        mover = p if (cut - world.game[G_TURN]) % 2 == 1 else 1 - p
        return search_evaluation(table, sim, p, mover)
    return DRAW_POINTS


@inline_kernel
def context_world(context: Any, seed: EngineInt) -> None:
    """`halving_search`'s world dealer: the state cloned into the world record, what p cannot see dealt anew."""
    table, st, world, _sim, _counters, _events, p, _stage, _cut = context
    clone(st, world)
    determinize(table, world, p, seed)


@inline_kernel
def context_rollout(context: Any, k: EngineInt, _world_seed: EngineInt, _dice: EngineInt) -> EngineInt:
    """`halving_search`'s rollout: choice k (st.choice[k]) from the world `context_world` dealt. Its later dice are
    the world's own generator's, seeded by `determinize`, so every candidate of a round rolls the same (the dice seed
    is not needed)."""
    table, st, world, sim, counters, events, p, stage, cut = context
    return rollout(table, world, sim, counters, events, p, st.choice[k], stage, cut)


@rules_kernel
def search_decision(
    table: IntArray,
    st: Any,
    world: Any,
    sim: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
    n: EngineInt,
    stage: EngineInt,
) -> EngineInt:
    """The index, among st.choice[:n] (greedy's choice first), of p's choice after successive halving over
    `search_rollouts` x n rollouts; a tie goes to the lower index, so greedy's choice is kept on a tie.

    The budget is spent in ceil(log2 n) rounds (`workbench.search_kernels`): in each, every candidate still in gets
    the round's even share of rollouts, then the better half (by points) go on. A rollout of a round deals one world
    (the state cloned into `world`, what p cannot see dealt anew with `determinize`, the seed drawn from the search's
    own generator) and plays every candidate still in from it on `sim` (`rollout`): the same sampled cards and the
    same later dice for each (common random numbers), the world's deal shared. Each rollout stops `search_depth`
    turns after p's (0: at the match's end) and the position is scored by `search_evaluation`.
    """
    words = st.score
    depth = st.options[O_SEARCH_DEPTH]
    cut = st.options[O_TURN_CAP]
    if depth > 0 and st.game[G_TURN] + depth < cut:
        cut = st.game[G_TURN] + depth
    context = (table, st, world, sim, counters, events, p, stage, cut)
    budget = st.options[O_SEARCH_ROLLOUTS] * n
    st.searched[1] += halving_search(
        context_world, context_rollout, context, words, SC_ORDER, SC_POINTS, SC_TRIED, n, budget, st.srng
    )
    st.searched[0] += 1
    return words[SC_ORDER]


@llvm_inline_kernel
def play_choices(table: IntArray, st: Any, p: EngineInt, greedy: EngineInt, listed: EngineInt) -> int:
    """Fill st.choice with the play decision's actions the search weighs, from the `listed` ones in st.actions:
    greedy's choice first (it keeps a tie), then STOP, the first hand position of each different card, and each
    ability, in listed order (not the coin, which it flips as greedy does). Returns how many. A hand position of the
    same card as greedy's is greedy's choice."""
    st.choice[0] = STOP
    n = 1
    at = 0
    for k in range(listed):
        action = st.actions[k]
        if action == COIN or action == STOP:
            continue
        if action < ACTIVATE:
            card = st.hand[p, action]
            seen = False
            for c in range(1, n):
                if st.choice[c] < ACTIVATE and st.hand[p, st.choice[c]] == card:
                    seen = True
            if seen:
                continue
            if 0 <= greedy < ACTIVATE and st.hand[p, greedy] == card:
                at = n
                action = greedy
        elif greedy == action:
            at = n
        st.choice[n] = action
        n += 1
    # Greedy's choice to the front, the others keeping their order.
    first = st.choice[at]
    for c in range(at, 0, -1):
        st.choice[c] = st.choice[c - 1]
    st.choice[0] = first
    return n


@rules_kernel
def searched_play_phase(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
    world: Any,
    sim: Any,
    scratch: IntArray,
) -> None:
    """`play_phase` for a search side: each play (or stop) is the searched best of its legal choices; the coin as
    greedy flips it."""
    for _ in range(PLAY_STEPS + 1):
        if st.game[G_OVER] == 1:
            break
        open_decision(st, np.int64(D_PLAY), p)
        listed = legal_plays(table, st, p, st.actions)
        greedy = greedy_play_called(table, st, p)
        action = greedy
        if greedy != COIN:
            n = play_choices(table, st, p, greedy, listed)
            if n > 1:
                # Counts passed as np.int64: Numba types a small constant count as a literal and would compile
                # search_decision once per value.
                index = search_decision(table, st, world, sim, scratch, events, p, np.int64(n), np.int64(STAGE_PLAY))
                action = st.choice[index]
        if action == STOP:
            break
        apply_choice(table, st, counters, events, action)
        answer_attack_called(table, st, counters, events)
    st.game[G_DECISION] = D_NONE


@rules_kernel
def searched_battle_phase(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    p: EngineInt,
    world: Any,
    sim: Any,
    scratch: IntArray,
) -> None:
    """`battle_phase` for a search side: its attackers in greedy's order, each sent where the search finds best
    among its listed targets (hold, direct, and each enemy creature it may attack; greedy's first)."""
    for i in range(st.side[p, S_BOARD]):
        st.board[p, i, B_HELD] = 0
    for _ in range(MAX_DECK + 1):
        if st.game[G_OVER] == 1:
            break
        open_decision(st, np.int64(D_ATTACKER), p)
        a = greedy_attacker(table, st, p)
        if a < 0:
            break
        apply_attacker(st, a)
        n = legal_targets(st, p, st.actions)
        greedy = greedy_attack_choice(table, st, p, a)
        st.choice[0] = greedy
        at = 1
        for k in range(n):
            if st.actions[k] != greedy:
                st.choice[at] = st.actions[k]
                at += 1
        index = search_decision(table, st, world, sim, scratch, events, p, np.int64(n), np.int64(STAGE_BATTLE_ON))
        apply_choice(table, st, counters, events, st.choice[index])
        answer_attack_called(table, st, counters, events)
    st.game[G_DECISION] = D_NONE


@rules_kernel
def play_turns_searched(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray | None,
    world: Any,
    sim: Any,
    scratch: IntArray,
) -> None:
    """`play_turns` when a side plays `search`: its play and battle phases are searched (`world` holds a round's
    sampled world, `sim` is the state a rollout plays on, `scratch` the rollouts' counters); everything else, and
    the other side, as `play_turns`."""
    # The turns of a side that does not search, the turn cap, and the start and end of a searching side's turns, as
    # `play_turns` plays them; it returns once a searching side's turn (G_FIRST) has started.
    play_turns(table, st, counters, events, np.int64(STAGE_TURN))
    while st.game[G_OVER] == 0:
        p = st.game[G_FIRST]
        searched_play_phase(table, st, counters, events, p, world, sim, scratch)
        if st.game[G_OVER] == 0:
            searched_battle_phase(table, st, counters, events, p, world, sim, scratch)
        st.game[G_FIRST] = p
        play_turns(table, st, counters, events, np.int64(STAGE_END))


@rules_kernel
def play_matches_searched(
    table: IntArray,
    st: Any,
    world: Any,
    sim: Any,
    scratch: IntArray,
    deck_a: IntArray,
    deck_b: IntArray,
    seeds: IntArray,
    first: Any,
    policy_a: EngineInt,
    policy_b: EngineInt,
    winners: Any,
    turns: Any,
    counters: IntArray,
    events: IntArray | None,
) -> None:
    """`play_matches` when a side plays `search` (a kernel of its own, so greedy and random batches compile and run
    exactly as before). The search's generator is seeded from each match's seed."""
    for m in range(seeds.shape[0]):
        begin_match_counters(counters, m)
        setup_match(table, st, counters, events, deck_a, deck_b, seeds[m], first[m], policy_a, policy_b)
        rng_seed(st.srng, seeds[m] ^ SEARCH_SEED)
        play_turns_searched(table, st, counters, events, world, sim, scratch)
        end_match_counters(counters, st.game[G_TURN], np.int64(2))
        winners[m] = st.game[G_WINNER]
        turns[m] = st.game[G_TURN]


def new_state(options: IntArray) -> Any:
    """A fresh match state record (see STATE_DTYPE) holding these rule options."""
    state = np.zeros(1, dtype=STATE_DTYPE).view(np.recarray)
    state.options[0] = options
    return state[0]


@rules_kernel
def play_matches(
    table: IntArray,
    st: Any,
    deck_a: IntArray,
    deck_b: IntArray,
    seeds: IntArray,
    first: Any,
    policy_a: EngineInt,
    policy_b: EngineInt,
    winners: Any,
    turns: Any,
    counters: IntArray,
    events: IntArray | None,
) -> None:
    """Play one match per seed on the given state arrays (see `new_state`), which every match reuses."""
    for m in range(seeds.shape[0]):
        begin_match_counters(counters, m)
        setup_match(table, st, counters, events, deck_a, deck_b, seeds[m], first[m], policy_a, policy_b)
        play_turns(table, st, counters, events, np.int64(STAGE_TURN))
        end_match_counters(counters, st.game[G_TURN], np.int64(2))
        winners[m] = st.game[G_WINNER]
        turns[m] = st.game[G_TURN]


# =====================================================================================================================
# The Python edge: compiling cards, batches, traces
# =====================================================================================================================


def option_array(options: Mapping[str, OptionValue]) -> IntArray:
    """The rule options as integers, in OPTION_ORDER."""
    values = {
        "lethal_damage": 1 if options["lethal_damage"] == "more_than" else 0,
        "battlefield_effects": 1 if options["battlefield_effects"] == "each_turn" else 0,
        "search_rollout_policy": RANDOM if options["search_rollout_policy"] == "random" else GREEDY,
    }
    return np.array([int(values.get(key, options[key])) for key in OPTION_ORDER], dtype=np.int64)


def compile_cards(cardset: CardSet, options: Mapping[str, OptionValue]) -> CompiledCards:
    """One card table: kind, cost, power, resolve, clause count, per-opcode totals, then the clauses in order."""
    entries = list(cardset)
    table = np.zeros((len(entries), TABLE_WIDTH), dtype=np.int64)
    findings: list[Finding] = list(effect_findings(cardset))
    for index, entry in enumerate(entries):
        card = entry.card
        table[index, T_KIND] = KINDS.index(card.kind)
        table[index, T_COST] = card.cost  # type: ignore[attr-defined]
        table[index, T_POWER] = card.power or 0  # type: ignore[attr-defined]
        table[index, T_RESOLVE] = card.resolve or 0  # type: ignore[attr-defined]
        parsed = parse_effects(card.effects)  # type: ignore[attr-defined]
        pairs = parsed.pairs
        if len(pairs) > MAX_CLAUSES:
            findings.append(
                cardset.finding(
                    "info",
                    "plasma.effect_not_simulated",
                    f"the simulator plays the first {MAX_CLAUSES} effect clauses of a card; the other "
                    f"{len(pairs) - MAX_CLAUSES} are left out.",
                    entry,
                    "effects",
                    expected=f"at most {MAX_CLAUSES} clauses",
                    actual=len(pairs),
                )
            )
            pairs = pairs[:MAX_CLAUSES]
        table[index, T_CLAUSES] = len(pairs)
        for clause, (opcode, amount) in enumerate(pairs):
            table[index, T_CLAUSE0 + 2 * clause] = opcode
            table[index, T_CLAUSE0 + 2 * clause + 1] = amount
            table[index, T_TOTAL + opcode] += amount
        table[index, T_INSTANT_COST] = card.cost if card.kind == "instant" else NO_INSTANT  # type: ignore[attr-defined]
        table[index, T_PLAY_VALUE] = play_value_of_card(
            int(table[index, T_KIND]), int(table[index, T_COST]), int(table[index, T_TOTAL + OP_PLASMA])
        )
        ability = parsed.ability_pairs
        # Only creatures have abilities; `effect_findings` reports an `activate` clause on another kind.
        if card.kind != "creature" or not ability:
            continue
        if len(ability) > MAX_CLAUSES:
            findings.append(
                cardset.finding(
                    "info",
                    "plasma.effect_not_simulated",
                    f"the simulator plays the first {MAX_CLAUSES} clauses of an activated ability; the other "
                    f"{len(ability) - MAX_CLAUSES} are left out.",
                    entry,
                    "effects",
                    expected=f"at most {MAX_CLAUSES} activate clauses",
                    actual=len(ability),
                )
            )
            ability = ability[:MAX_CLAUSES]
        table[index, T_HAS_ABILITY] = 1
        table[index, ABILITY + T_COST] = parsed.ability_cost or 0
        table[index, ABILITY + T_CLAUSES] = len(ability)
        for clause, (opcode, amount) in enumerate(ability):
            table[index, ABILITY + T_CLAUSE0 + 2 * clause] = opcode
            table[index, ABILITY + T_CLAUSE0 + 2 * clause + 1] = amount
            table[index, ABILITY + T_TOTAL + opcode] += amount
    return CompiledCards(
        names=tuple(entry.card.name for entry in entries),
        table=table,
        cost=table[:, T_COST].astype(np.float64),
        slot=(table[:, T_KIND] != K_CREATURE).astype(np.int64),
        options=option_array(options),
        findings=tuple(findings),
    )


def check_deck_size(deck: IntArray) -> IntArray:
    """The deck as a contiguous int64 array, or a clear error when it is larger than the engine's state holds."""
    if len(deck) > MAX_DECK:
        raise WorkbenchInputError(
            f"a deck of {len(deck)} cards is larger than the simulator plays.",
            expected=f"decks of at most {MAX_DECK} cards (a legal deck holds exactly 40)",
        )
    return np.ascontiguousarray(deck, dtype=np.int64)


def _run(
    compiled: CompiledCards,
    deck_a: IntArray,
    deck_b: IntArray,
    seeds: IntArray,
    first: Any,
    policy_a: int,
    policy_b: int,
    events: IntArray | None,
) -> tuple[Any, Any, Any, IntArray]:
    n = seeds.shape[0]
    winners = np.zeros(n, dtype=np.int8)
    turns = np.zeros(n, dtype=np.int32)
    counters = new_counters(len(compiled.names))
    state = new_state(compiled.options)
    decks = (check_deck_size(deck_a), check_deck_size(deck_b))
    seeds = np.ascontiguousarray(seeds, dtype=np.int64)
    first = np.ascontiguousarray(first, dtype=np.int8)
    if SEARCH in (policy_a, policy_b):
        # The rollouts' own state and counters (no scratch columns: nothing of a rollout is counted per match).
        world = new_state(compiled.options)
        sim = new_state(compiled.options)
        scratch = np.zeros((2, len(compiled.names), len(COUNTERS)), dtype=np.int64)
        play_matches_searched(
            compiled.table,
            state,
            world,
            sim,
            scratch,
            *decks,
            seeds,
            first,
            policy_a,
            policy_b,
            winners,
            turns,
            counters,
            events,
        )
    else:
        play_matches(compiled.table, state, *decks, seeds, first, policy_a, policy_b, winners, turns, counters, events)
    trace = np.zeros((0, EVENT_WIDTH), dtype=np.int64) if events is None else events[: int(state.ecount[0])]
    return winners, turns, published_counters(counters), trace


def run_batch(
    compiled: CompiledCards,
    deck_a: IntArray,
    deck_b: IntArray,
    seeds: IntArray,
    first: Any,
    policy_a: int,
    policy_b: int,
    traced: bool,
) -> BatchRun:
    """One batch (`_run`), with the trace's room when `traced`; `batch_and_trace` makes the engine's `play_batch` and
    `play_traced` of it. Untraced, no events buffer: the batch compiles apart from the trace's kernels, with every trace
    call gone (`trace_event`)."""
    events = np.zeros((MAX_TRACE_EVENTS, EVENT_WIDTH), dtype=np.int64) if traced else None
    winners, turns, counters, trace = _run(compiled, deck_a, deck_b, seeds, first, policy_a, policy_b, events)
    return BatchRun(winners, turns, counters, trace)


play_batch, play_traced = batch_and_trace(run_batch)


def describe_event(compiled: CompiledCards, row: Sequence[int]) -> str:
    """One trace row as a line a designer can read."""
    _turn, player, code, card, other, amount = (int(v) for v in row)
    me = "AB"[player] if player in (0, 1) else ""
    them = "AB"[1 - player] if player in (0, 1) else ""

    def name(card_id: int) -> str:
        return compiled.names[card_id] if card_id >= 0 else "?"

    def kind(card_id: int) -> str:
        return KINDS[int(compiled.table[card_id, T_KIND])]

    lasting = "while equipped" if card >= 0 and kind(card) == "equipment" else "this turn"
    lines = {
        EV_TURN: lambda: f"{me} starts turn {other} with {amount} plasma",
        EV_LIFE: lambda: f"Healthshards: A {amount}, B {other}",
        EV_DRAW: lambda: f"{me} draws {name(card)}",
        EV_MULLIGAN: lambda: f"{me} mulligans {name(card)} (shuffled back in after the mulligan)",
        EV_PLAY: lambda: f"{me} plays {name(card)} ({kind(card)}, {amount} plasma; {other} left)",
        EV_EQUIP: lambda: f"{me} puts {name(card)} under {name(other)}",
        EV_DAMAGE: lambda: f"{name(card)} ({me}) deals {amount} damage to {name(other)} ({them})",
        EV_HIT: lambda: f"{name(card)} ({me}) hits {them} for {amount}: {them} has {other} Healthshards",
        EV_HEAL: lambda: f"{name(card)}: {me} gains {amount} Healthshards ({other})",
        EV_POWER: lambda: f"{name(card)}: {name(other)} ({me}) gets +{amount} power {lasting}",
        EV_RESOLVE: lambda: f"{name(card)}: {name(other)} ({me}) gets +{amount} resolve {lasting}",
        EV_DESTROYED: lambda: f"{name(card)} ({me}) is destroyed" + (f" by {name(other)}" if other >= 0 else ""),
        EV_PLASMA: lambda: f"{name(card)}: {me} gains {amount} plasma ({other} now)",
        EV_COIN: lambda: f"{me} flips the coin: +1 plasma ({amount} now)",
        EV_ATTACK_DIRECT: lambda: f"{name(card)} ({me}, power {amount}) attacks {them} directly",
        EV_ATTACK_CREATURE: lambda: f"{name(card)} ({me}) attacks {name(other)} ({them})",
        EV_BLOCK: lambda: f"{me} blocks {name(other)} with {name(card)}",
        EV_NO_BLOCK: lambda: f"{me} does not block {name(other)}",
        EV_DECK_EMPTY: lambda: f"{me} has no card left to draw",
        EV_BATTLEFIELD_REPLACED: lambda: f"{name(card)} replaces {me}'s battlefield {name(other)}",
        EV_TRIGGER: lambda: f"{me}'s battlefield {name(card)} takes effect",
        EV_TURN_CAP: lambda: f"turn cap of {amount} turns reached: the match is a draw",
        EV_ATTACK_ENDS: lambda: f"{name(card)}'s ({me}) attack ends: its opponent left the field",
        EV_ACTIVATE: lambda: f"{me} activates {name(card)}'s ability ({amount} plasma; {other} left)",
    }
    describe = lines.get(code)
    return describe() if describe else f"event {code} (player {player}, card {card}, other {other}, amount {amount})"


ENGINE = Engine(
    version="5",
    policies=POLICY_NAMES,
    cost_axis="plasma cost",
    compile_cards=compile_cards,
    play_batch=play_batch,
    play_traced=play_traced,
    describe_event=describe_event,
)
