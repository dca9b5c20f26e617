"""The circles engine's layout: its constants and the two flat int64 buffers every kernel takes, the state `S` and
the rules `R`, with their header, offsets and views by name (`side_of(S)`, `table_of(R)`, ...).

The bottom of the engine package (`workbench/rulesets/circles/engine/__init__.py` says how its modules stand): it
imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba
import numpy as np
from numba import types
from numba.core import cgutils
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

from workbench.engines import COUNTER_COLUMNS, EVENT_WIDTH, EngineInt, IntArray, inline_kernel, rules_kernel
from workbench.play.policies import POLICY_WORDS
from workbench.rulesets.circles.abilities import ABILITIES, ABILITY_INDEX

STARTING_LIFE = 2
"""\u201cEach Player has 2 Life Points.\u201d"""
STARTING_HAND = 5
"""\u201cDraw 5 cards.\u201d"""
CARDS_WHEN_OUT = 3
"""\u201cIf you ever run completely out of cards, you should draw 3 cards.\u201d"""
UNDECIDED = -2

# Arguments are passed as numpy scalars, never Python literals: Numba compiles a separate copy of a function for
# every literal value it is called with, which multiplied compile time several times over.
NO_CARD = np.int64(-1)
NOTHING = np.int64(0)
YES = np.bool_(True)
NO = np.bool_(False)
HALF_THE_TIME = np.int64(2)
"""The random policy says yes to most yes/no decisions 2 times in 4 (`rng_below(rng, FOUR) < HALF_THE_TIME`)."""
A_QUARTER_OF_THE_TIME = np.int64(1)
ONE = np.int64(1)
COIN = np.int64(2)
"""`rng_below(rng, COIN)`: a coin toss."""
FOUR = np.int64(4)

# Ability ids: positions in the shared data table, so the engine and the checks cannot disagree.
ARMOR_PIERCING_1 = np.int64(ABILITY_INDEX["Armor Piercing 1"])
ARMOR_PIERCING_2 = np.int64(ABILITY_INDEX["Armor Piercing 2"])
SELF_DESTRUCT = np.int64(ABILITY_INDEX["Self Destruct"])
ATTACK_BOOST_1 = np.int64(ABILITY_INDEX["Attack Boost 1"])
ATTACK_BOOST_2 = np.int64(ABILITY_INDEX["Attack Boost 2"])
TARGET = np.int64(ABILITY_INDEX["Target"])
FIREBALL = np.int64(ABILITY_INDEX["Fireball"])
LONG_RANGE = np.int64(ABILITY_INDEX["Long Range"])
ARMOR_1 = np.int64(ABILITY_INDEX["Armor 1"])
ARMOR_2 = np.int64(ABILITY_INDEX["Armor 2"])
HEAL_1 = np.int64(ABILITY_INDEX["Heal 1"])
HEAL_2 = np.int64(ABILITY_INDEX["Heal 2"])
DEFENDER = np.int64(ABILITY_INDEX["Defender"])
DISPERSE = np.int64(ABILITY_INDEX["Disperse"])
AVOID_DAMAGE = np.int64(ABILITY_INDEX["Avoid Damage"])
SERENITY = np.int64(ABILITY_INDEX["Serenity"])
FAST = np.int64(ABILITY_INDEX["Fast"])
RESTORE = np.int64(ABILITY_INDEX["Restore"])
FUTURE_VISION = np.int64(ABILITY_INDEX["Future Vision"])
CHANGE_THE_FUTURE = np.int64(ABILITY_INDEX["Change the Future"])
REFLECT = np.int64(ABILITY_INDEX["Reflect"])
REORDER = np.int64(ABILITY_INDEX["Reorder"])
EXTRA_CARD = np.int64(ABILITY_INDEX["Extra Card"])
SLEEP = np.int64(ABILITY_INDEX["Sleep"])
N_ABILITIES = len(ABILITIES)

# Card table columns.
T_KIND, T_COLOUR, T_RED, T_BLUE, T_GREEN, T_CIRCLES, T_ATTACK, T_HEALTH = range(8)
T_ARMOR, T_PIERCE, T_BOOST, T_GUARD, T_FAST, T_REFLECT, T_EXTRA = range(8, 15)
T_ACTIVATED = 15  # bit per activated ability the card has, so lanes without any are passed over quickly
TABLE_COLUMNS = 16
KIND_CHARACTER, KIND_RESOURCE = np.int64(0), np.int64(1)
NO_COLOUR = -1

# Ability table columns (one row per ability id).
A_COLOUR, A_CIRCLES, A_ACTIVATION, A_NUMBER, A_DISCARDS = range(5)

# Option array positions (the order `compile_cards` writes them in).
O_RESOURCES_PER_TURN, O_DESTROY_AT_LEAST, O_RESHUFFLE, O_RESPOND, O_SLEEP_OPENS_LANE = range(5)
O_SERENITY_EVERYONE, O_EXTRA_EACH_TURN, O_TURN_CAP, O_NEW_CHARACTERS_ATTACK, O_ONE_PER_ATTACKER = range(5, 10)
O_SEARCH_ROLLOUTS, O_SEARCH_ROLLOUT_POLICY = range(10, 12)
OPTION_COUNT = 12

# Zones.
DECK, HAND, DISCARD, BOARD = range(4)
# Side columns.
S_LIFE, S_DECK_N, S_DECK_TOP, S_HAND_N, S_DISCARD_N, S_BOARD_N = range(6)
S_READY = 6  # + colour: ready resources of red, blue, green
S_TOTAL = 9  # + colour: resources in play of red, blue, green
S_POLICY = 12  # the side's policy block (`workbench.play.policies`: code, parameter, own generator)
SIDE_COLUMNS = S_POLICY + POLICY_WORDS
# Lane columns.
L_DAMAGE, L_ASLEEP, L_AVOIDING, L_BOOSTED, L_USED, L_MODE, L_TARGET, L_ATTACK_BONUS, L_HEALTH_BONUS = range(9)
L_ENTERED = 9  # the turn the card came into play
LANE_COLUMNS = 10
MODE_FIGHT, MODE_LONG_RANGE, MODE_SELF_DESTRUCT, MODE_TARGET = range(4)
# Game columns.
G_TURN, G_ACTIVE, G_WINNER, G_IN_COMBAT, G_SHIELD = range(5)
G_STAGE = 5  # where the turn stands (STAGE_*): the stage `advance` plays next
G_PLAYED = 6  # resource cards played this turn
G_NEXT = 7  # the side whose turn comes next (STAGE_TURN)
G_OPEN = 8  # 1 while a decision is open (`decision_of(S)`): the rules have stopped there and wait for `take`
G_ANSWER = 9  # the open decision's answer once taken (`take`): its row's first column (1 for yes), or STOP
G_STOPPED = 10  # the last paid character decision was declined: the loop that asked it (a stage, Restore's) ends
G_STEP = 11  # where STAGE_REST stands (REST_*): the step `rest_stage` plays next
G_SIDE = 12  # the side whose turn STAGE_REST plays (the opponent's precombat answers and Serenity: 1 - G_SIDE)
G_CURSOR = 13  # the next lane of the step's loop over lanes
G_BOUND = 14  # that loop's end, fixed as it began (the rules' `for i in range(board)`)
G_PHASE = 15  # where the step stands inside a lane (PHASE_*: precombat's ability, Change the Future's order)
G_MINE = 16  # the abilities side G_SIDE has in play, read at the start of the rest of its turn and after Restore
G_RESTORED = 17  # Restore brought a card back this turn (its characters may then be played)
G_PENDING = 18  # Extra Card: free characters still owed (a chain on entry, or this card's count each turn)
G_SOURCE = 19  # the card whose Extra Card brings them
G_CHAIN_GROWS = 20  # 1: a character brought in free adds its own Extra Card (`extra_card=on_entry`); 0: each turn
G_OP = 21  # the op of a lane's combat (or a Fireball's) that asked (OP_*); NO_OP: none in progress
G_LANE_KIND = 22  # the lane's combat (LANE_*: a fight, who strikes first, or Target)
G_TO_A, G_TO_D, G_BACK_A, G_BACK_D = 23, 24, 25, 26  # a fight's damage each way, and Reflect's owed back each way
G_J = 27  # the enemy lane the lane's attacker (or a Fireball) deals its damage to
G_IN_FRONT = 28  # Target: a card awake in front of the attacker, which it must still defend against
G_DAMAGE = 29  # where the damage being dealt stands (DAMAGE_*; DAMAGE_NONE: none), as `deal_damage` left it
G_DAMAGE_T, G_DAMAGE_TI, G_DAMAGE_AMOUNT, G_DAMAGE_SRC, G_DAMAGE_SI, G_DAMAGE_EVENT = 30, 31, 32, 33, 34, 35
G_DAMAGE_KEEP, G_DAMAGE_LEFT, G_DAMAGE_LANE, G_DAMAGE_CURSOR, G_DAMAGE_BOUND = 36, 37, 38, 39, 40
"""The damage being dealt: to lane TI of side T, AMOUNT from lane SI of side SRC, logged as EVENT; Disperse's KEEP (what
the card keeps) and LEFT (what is still to spread), the LANE it spreads onto, and the loop over the side's other cards
(CURSOR, BOUND) that may be destroyed by it."""
G_HEALING, G_HEALING_SIDE, G_HEALING_LANE = 41, 42, 43
"""A card past its Health waits for the Heal decision (`resolve`): 1 while it does, its side and lane."""
G_THEIRS = 44  # the abilities the opponent of G_SIDE has in play, read before its precombat answers
G_REST_LAST = 45  # the last step of STAGE_REST to play (REST_COMBAT in a turn; a rule test's own step alone)
GAME_COLUMNS = 46
STAGE_TURN, STAGE_RESOURCES, STAGE_READY, STAGE_CHARACTERS, STAGE_REST, STAGE_OVER, STAGE_EXTRA_CARDS = range(7)
"""The stages of a turn (game[G_STAGE]), in order, as `advance` plays them: STAGE_TURN, the turn cap or the winner,
else the next side's turn begins (its draw); STAGE_RESOURCES, a resource card (K_RESOURCE, one decision each, up to
`resources_per_turn`); STAGE_READY, every resource readied; STAGE_EXTRA_CARDS, with `extra_card=each_turn`, each
Extra Card in play brings its characters in (K_CHARACTER, free); STAGE_CHARACTERS, a character
(K_CHARACTER, one decision each, until the side stops); STAGE_REST, the turn's healing, abilities and combat;
STAGE_OVER, the match is over. At every decision the rules stop and return (`advance`), the hand decisions of the
stages and the questions asked while a rule resolves alike (the steps of STAGE_REST, REST_*; an Extra Card's free
characters; damage's prevention and a Heal: the words above keep where each stands)."""
(
    REST_HEAL,
    REST_RESTORE,
    REST_RESTORED_PLAY,
    REST_CHANGE_FUTURE,
    REST_FUTURE_VISION,
    REST_PRECOMBAT,
    REST_LANE_MODES,
    REST_THEIR_PRECOMBAT,
    REST_SERENITY,
    REST_COMBAT,
    REST_DONE,
) = range(11)
"""The steps of STAGE_REST (game[G_STEP]), in order: the turn's side heals; card management (Restore lane by lane,
the characters it brought back, Change the Future, Future Vision); its precombat abilities (Fireball, Sleep, Reorder,
Attack Boost 2); its lane modes; the opponent's precombat answers and Serenity; combat lane by lane."""
PHASE_FIREBALL, PHASE_SLEEP, PHASE_REORDER, PHASE_ATTACK_BOOST = range(4)
"""Precombat's abilities, in the order they are used (game[G_PHASE])."""
PHASE_SEE, PHASE_ARRANGE = range(2)
"""Change the Future: whether to look, then the order (game[G_PHASE])."""
NO_OP = 0
"""game[G_OP]: no lane's combat (or Fireball's damage) in progress; its ops are numbered from 1."""
LANE_NONE, LANE_FIGHT, LANE_ATTACKER_FIRST, LANE_DEFENDER_FIRST, LANE_TARGET = range(5)
"""A lane's combat (game[G_LANE_KIND]): none (no card blocks or the attacker hit the player), both strike at once,
one of them Fast, or Target's."""
DAMAGE_NONE, DAMAGE_AVOID, DAMAGE_DISPERSE, DAMAGE_SPREAD_CARD, DAMAGE_SPREAD_AMOUNT, DAMAGE_OTHERS = range(6)
"""Where the damage being dealt stands (game[G_DAMAGE]): none; the Avoid Damage decision asked; Disperse's; the card
Disperse spreads onto; how much; the side's other cards being resolved after it."""
ASKED = np.int64(-1)
"""What a rule kernel that may stop returns when it has opened a decision (its value comes once it is answered)."""

LANE_MODE_ABILITIES = (1 << LONG_RANGE) | (1 << SELF_DESTRUCT) | (1 << TARGET)
PRECOMBAT_ABILITIES = (1 << FIREBALL) | (1 << SLEEP) | (1 << REORDER) | (1 << ATTACK_BOOST_2)
CARD_MANAGEMENT_ABILITIES = (1 << RESTORE) | (1 << CHANGE_THE_FUTURE) | (1 << FUTURE_VISION)
HEAL_ABILITIES = (1 << HEAL_1) | (1 << HEAL_2)
SERENITY_ABILITY = 1 << SERENITY  # (activated: its price is discarding the card, so it has its T_ACTIVATED bit)

# Trace event codes.
EV_DRAW, EV_OUT_OF_CARDS, EV_RESHUFFLE, EV_NO_CARD, EV_RESOURCE, EV_PLAY, EV_FREE_PLAY = (
    np.int64(code) for code in range(7)
)
EV_TURN, EV_ABILITY, EV_SEE, EV_SWAP, EV_RESTORED, EV_LANE, EV_HIT, EV_REFLECTED = (
    np.int64(code) for code in range(7, 15)
)
EV_IGNORED, EV_SPREAD, EV_DESTROYED, EV_DIRECT, EV_WIN, EV_TURN_CAP, EV_RESOURCES = (
    np.int64(code) for code in range(15, 22)
)
EV_ARRANGED, EV_SLEEPING, EV_JUST_ARRIVED = (np.int64(code) for code in range(22, 25))


# The search policy's part of the state (`search_of`): what a turn of a `search` side has decided so far, so the turn
# can be played again from its start up to the next decision (a decision is searched by replaying the turn from a
# snapshot taken after its draw: see search.py).
C_MODE, C_SEARCHER, C_TAPE_LEN, C_TAPE_POS, C_ABORTED, C_NEED_N, C_NEED_DEFAULT, C_RESEED = range(8)
C_RNG = 8  # 4 words: the search's own generator (determinizations, rollouts' dice), never the match's
C_ROLLOUT_POLICY = 12  # the policy both sides play in a rollout once the tape is replayed
C_SEARCHED = 13  # decisions searched in the whole batch (for the figures of docs/rulesets/circles.md)
C_TAPE = 14  # the decisions of the turn so far, in the order they were asked
TAPE_MAX = 256
C_STATS = C_TAPE + TAPE_MAX  # per listed row of the decision searched: rollouts, then points (play.search' scale)
MAX_CHOICES = 64
"""A decision with more listed actions than this is left to greedy (a hand of 63 payable characters)."""
C_DISTINCT = C_STATS + 2 * MAX_CHOICES  # per listed action of the decision being searched: 1 if no earlier one is alike
C_CAND = C_DISTINCT + MAX_CHOICES
"""Successive halving's candidates (`search_decision`), by candidate number: the listed row each stands for, greedy's
row first (number 0, so a tie keeps it), then every other distinct row in listed order."""
C_POINTS = C_CAND + MAX_CHOICES
"""Points per candidate, summed over its rollouts (`play.search.WIN_POINTS` a win, `DRAW_POINTS` a draw)."""
C_TRIED = C_POINTS + MAX_CHOICES
"""Rollouts per candidate (a candidate dropped early was given fewer)."""
C_ORDER = C_TRIED + MAX_CHOICES
"""The candidates still in, best first once ranked (`play.search.halving_keep`)."""
SEARCH_SIZE = C_ORDER + MAX_CHOICES
SEARCH_SEED = 0x5EA2C4
"""Mixed into a match's seed for the search's own generator, so the search never draws the match's dice."""
SEARCH_OFF, SEARCH_LIVE, SEARCH_REPLAY = 0, 1, 2
"""C_MODE: no search side in the match; the real match of a search side; a rollout replaying the turn's tape."""

# The pending decision (`decision_of`): what the rules ask now, of which side, about which lane; `legal_actions` lists
# its answers as rows (a, b) in the action list (`actions_of`, after the lanes) and `apply` takes one.
D_KIND, D_SIDE, D_LANE, D_ARG, D_OTHER, D_N = range(6)
P_RESOURCES = 6  # the random policy's own word: how many resources it plays this turn (the rules never read it)
DECISION_SIZE = 7
ACTION_WIDTH = 2
STOP = np.int64(-1)
"""Column 0 of the row that declines: stop playing cards, do not use the ability, keep the damage."""
UNLISTED = np.int64(-1)
"""D_N of a hand decision greedy answered without listing its rows (`choose_hand`)."""
# Decision kinds (D_KIND) and their rows (a, b):
(
    K_RESOURCE,  # (hand position, 0) per resource with a colour, then (STOP, 0)
    K_CHARACTER,  # D_ARG 1 if free (D_OTHER: the card whose Extra Card brings it): (hand position, 0) per character
    # it can pay (any, if free), then (STOP, 0) unless free
    K_AVOID,  # yes/no, rows (STOP, 0) and (1, 0): Avoid Damage on lane D_LANE's card, about to take D_ARG damage
    K_DISPERSE,  # yes/no: Disperse on lane D_LANE's card, about to take D_ARG damage
    K_SPREAD_CARD,  # Disperse's damage left (D_ARG) from lane D_LANE: (STOP, 0) keeps it, (lane, 0) per other card
    K_SPREAD_AMOUNT,  # how much of it (D_ARG) goes onto lane D_OTHER: (m, 0) for m = 1..D_ARG
    K_HEAL,  # lane D_LANE's card is destroyed unless healed: (STOP, 0), then (healer lane, Heal id) per usable Heal
    K_LONG_RANGE,  # yes/no for lane D_LANE's attacker
    K_SELF_DESTRUCT,  # yes/no for lane D_LANE's attacker
    K_TARGET,  # (STOP, 0), then (lane, 0) per enemy card outside lane D_LANE
    K_FIREBALL,  # (STOP, 0), then (lane, 0) per enemy card
    K_SLEEP,  # (STOP, 0), then (lane, 0) per awake enemy card
    K_REORDER,  # (STOP, STOP), then (lane, other lane) per ordered pair of the side's cards
    K_ATTACK_BOOST,  # yes/no for lane D_LANE's Attack Boost 2
    K_RESTORE,  # (STOP, 0), then (discard position, 0) per card in the discard pile
    K_FUTURE_SIGHT,  # yes/no for lane D_LANE's Future Vision or Change the Future (D_ARG: which)
    K_ARRANGE,  # Change the Future: (order, 0) per order of the top D_ARG cards (`arranged_card`)
    K_SERENITY,  # yes/no for the Serenity card in lane D_LANE
) = (np.int64(kind) for kind in range(18))
ORDER_BITS = 3
"""K_ARRANGE's order: position p of the top gets the card now at offset (order >> ORDER_BITS * p) & 7."""

# ---------------------------------------------------------------------------------------------------------------
# The state and the rules, each one flat int64 buffer with named offsets
#
# A kernel call passes each array as its data pointer, shapes and strides: the eight state arrays and four rule arrays
# as tuples came to about 110 machine words a call. As two flat buffers they are 14, and each kernel takes the views
# it reads by name (`side_of(S)`, `table_of(R)`), built from offsets: fixed ones for the fixed-size parts, and from
# the header for the parts sized by the deck, the card set and the trace.

# State buffer header: sizes the variable parts are built from.
H_CAPACITY, H_CARDS, H_EVENT_ROWS, H_ACTION_ROWS = 0, 1, 2, 3
SIDE_AT = 4
GAME_AT = SIDE_AT + 2 * SIDE_COLUMNS
RNG_AT = GAME_AT + GAME_COLUMNS
EVENT_COUNT_AT = RNG_AT + 4
SEARCH_AT = EVENT_COUNT_AT + 1
DECISION_AT = SEARCH_AT + SEARCH_SIZE
ZONES_AT = DECISION_AT + DECISION_SIZE
# Rules buffer: the option array and the ability table at fixed offsets, then the card table and ability counts.
H_RULE_CARDS = 0
OPTIONS_AT = 1
ABILITY_TABLE_AT = OPTIONS_AT + OPTION_COUNT
ABILITY_TABLE_COLUMNS = 5
TABLE_AT = ABILITY_TABLE_AT + N_ABILITIES * ABILITY_TABLE_COLUMNS


@intrinsic
def _compiled_view_of(typingctx: Any, buffer: Any, at: Any, shape: Any) -> Any:
    """The C-ordered int64 array of `shape` starting at `buffer[at]`, sharing the buffer's memory.

    What `buffer[at:...].reshape(shape)` gives, built in place: Numba's reshape calls a C helper each time, which
    made every view cost more than the call it saved.
    """
    dims = len(shape)
    result = types.Array(types.int64, dims, "C")

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        source = make_array(signature.args[0])(context, builder, args[0])
        view = make_array(result)(context, builder)
        sizes = cgutils.unpack_tuple(builder, args[2], dims)
        itemsize = context.get_constant(types.intp, 8)
        strides: list[Any] = []
        step = itemsize
        for size in reversed(sizes):
            strides.insert(0, step)
            step = builder.mul(step, size)
        populate_array(
            view,
            data=builder.gep(source.data, [args[1]]),
            shape=sizes,
            strides=strides,
            itemsize=itemsize,
            meminfo=source.meminfo,
            parent=source.parent,
        )
        return impl_ret_borrowed(context, builder, result, view._getvalue())

    return result(buffer, at, shape), codegen


def _python_view_of(buffer: IntArray, at: int, shape: tuple[int, ...]) -> IntArray:
    """`view_of` as plain numpy, for NUMBA_DISABLE_JIT=1 (an intrinsic runs only compiled)."""
    return buffer[at : at + int(np.prod(shape))].reshape(shape)


view_of: Callable[[IntArray, Any, tuple[Any, ...]], IntArray] = (
    _python_view_of if numba.config.DISABLE_JIT else _compiled_view_of  # type: ignore[attr-defined,assignment]
)


# Sizes as numpy scalars, so every view's shape is a tuple of int64 (one compiled copy of view_of per rank).
_TWO, _FOUR, _EIGHT = np.int64(2), np.int64(4), np.int64(8)
_POLICY_WORDS = np.int64(POLICY_WORDS)
_SIDE_COLUMNS, _LANE_COLUMNS, _COUNTER_COLUMNS = (
    np.int64(SIDE_COLUMNS),
    np.int64(LANE_COLUMNS),
    np.int64(COUNTER_COLUMNS),
)
_EVENT_WIDTH, _TABLE_COLUMNS = np.int64(EVENT_WIDTH), np.int64(TABLE_COLUMNS)
_N_ABILITIES, _ABILITY_TABLE_COLUMNS = np.int64(N_ABILITIES), np.int64(ABILITY_TABLE_COLUMNS)


@inline_kernel
def side_of(S: IntArray) -> IntArray:
    """side[side, S_* column]."""
    return view_of(S, np.int64(SIDE_AT), (_TWO, _SIDE_COLUMNS))


@inline_kernel
def policy_of(S: IntArray, s: EngineInt) -> IntArray:
    """Side s's policy block (`workbench.play.policies`)."""
    return view_of(S, SIDE_AT + s * SIDE_COLUMNS + S_POLICY, (_POLICY_WORDS,))


@inline_kernel
def game_of(S: IntArray) -> IntArray:
    """game[G_* column]."""
    return view_of(S, np.int64(GAME_AT), (np.int64(GAME_COLUMNS),))


@inline_kernel
def rng_of(S: IntArray) -> IntArray:
    """The xorshift state."""
    return view_of(S, np.int64(RNG_AT), (_FOUR,))


@inline_kernel
def event_count_of(S: IntArray) -> IntArray:
    """How many events are logged (one value)."""
    return view_of(S, np.int64(EVENT_COUNT_AT), (np.int64(1),))


@inline_kernel
def search_of(S: IntArray) -> IntArray:
    """The search policy's control words and tape (C_* positions)."""
    return view_of(S, np.int64(SEARCH_AT), (np.int64(SEARCH_SIZE),))


@inline_kernel
def search_rng_of(S: IntArray) -> IntArray:
    """The search's own generator (4 words in the search part of S)."""
    return view_of(S, np.int64(SEARCH_AT + C_RNG), (_FOUR,))


@inline_kernel
def zones_of(S: IntArray) -> IntArray:
    """zones[side, DECK|HAND|DISCARD|BOARD, position]."""
    return view_of(S, np.int64(ZONES_AT), (_TWO, _FOUR, S[H_CAPACITY]))


@inline_kernel
def lanes_of(S: IntArray) -> IntArray:
    """lanes[side, lane, L_* column]."""
    capacity = S[H_CAPACITY]
    return view_of(S, ZONES_AT + _EIGHT * capacity, (_TWO, capacity, _LANE_COLUMNS))


@inline_kernel
def decision_of(S: IntArray) -> IntArray:
    """The pending decision (D_* positions) and the policies' own words (P_*)."""
    return view_of(S, np.int64(DECISION_AT), (np.int64(DECISION_SIZE),))


@inline_kernel
def actions_of(S: IntArray) -> IntArray:
    """actions[row, column]: the pending decision's legal actions as `legal_actions` lists them (D_N rows)."""
    return view_of(S, ZONES_AT + (_EIGHT + _TWO * _LANE_COLUMNS) * S[H_CAPACITY], (S[H_ACTION_ROWS], _TWO))


@inline_kernel
def counters_of(S: IntArray) -> IntArray:
    """counters[side, card, counter] of the whole batch."""
    capacity = S[H_CAPACITY]
    at = ZONES_AT + (_EIGHT + _TWO * _LANE_COLUMNS) * capacity + _TWO * S[H_ACTION_ROWS]
    return view_of(S, at, (_TWO, S[H_CARDS], _COUNTER_COLUMNS))


@inline_kernel
def events_of(S: IntArray) -> IntArray:
    """The trace's events (no rows in a batch: nothing is logged)."""
    capacity, cards = S[H_CAPACITY], S[H_CARDS]
    at = (
        ZONES_AT
        + (_EIGHT + _TWO * _LANE_COLUMNS) * capacity
        + _TWO * S[H_ACTION_ROWS]
        + _TWO * cards * _COUNTER_COLUMNS
    )
    return view_of(S, at, (S[H_EVENT_ROWS], _EVENT_WIDTH))


@inline_kernel
def options_of(R: IntArray) -> IntArray:
    """The rule options (O_* positions)."""
    return view_of(R, np.int64(OPTIONS_AT), (np.int64(OPTION_COUNT),))


@inline_kernel
def ability_table_of(R: IntArray) -> IntArray:
    """ability_table[ability, A_* column]."""
    return view_of(R, np.int64(ABILITY_TABLE_AT), (_N_ABILITIES, _ABILITY_TABLE_COLUMNS))


@inline_kernel
def table_of(R: IntArray) -> IntArray:
    """table[card, T_* column]."""
    return view_of(R, np.int64(TABLE_AT), (R[H_RULE_CARDS], _TABLE_COLUMNS))


@inline_kernel
def abilities_of(R: IntArray) -> IntArray:
    """abilities[card, ability]: how many times the card has it."""
    cards = R[H_RULE_CARDS]
    return view_of(R, TABLE_AT + cards * _TABLE_COLUMNS, (cards, _N_ABILITIES))


# ---------------------------------------------------------------------------------------------------------------
# How much of a state buffer is used: the match state, then the whole buffer up to its last logged event


@inline_kernel
def state_words(S: IntArray) -> int:
    """Where a state buffer's match state ends: the counters and the trace follow it."""
    return ZONES_AT + (_EIGHT + _TWO * _LANE_COLUMNS) * S[H_CAPACITY]


@rules_kernel
def restore(snapshot: IntArray, S: IntArray) -> None:
    """Everything of `snapshot` back into S, counters and logged events included (a buffer of the same size)."""
    logged = snapshot[EVENT_COUNT_AT]
    end = (
        state_words(snapshot)
        + _TWO * snapshot[H_ACTION_ROWS]
        + 2 * snapshot[H_CARDS] * _COUNTER_COLUMNS
        + logged * _EVENT_WIDTH
    )
    for k in range(end):
        S[k] = snapshot[k]
