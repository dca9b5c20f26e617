"""The resource-circle game's match engine: array state, Numba kernels, greedy, random and search policies.

Rules played (the rule document as docs/rulesets/circles.md quotes it; readings in options.py and there):

- Setup: each side shuffles its deck, has 2 Life Points and draws 5 cards.
- A turn: draw 1 (the out-of-cards reading is the option `out_of_cards`), play up to `resources_per_turn`
  resource cards, ready every resource, bring characters into play (paying their coloured circles) left to
  right, the turn player's characters heal, abilities are used, then combat lane by lane: each attacker fights the
  enemy card in front, both dealing damage at once (Fast strikes first); an attacker with nothing in front hits
  the player for its Attack. A card is destroyed when its damage is more than its Health (`destroy_when`).
  After combat, both sides' characters shift left to close gaps.
- All 24 abilities of `abilities.py` are played; activated ones are paid from ready resources once per card per
  turn, in the owner's turn or (option `respond_in_opponent_turn`) in the opponent's.

State lives in one flat int64 buffer `S` (one match at a time, reused across the batch), read through views by
name (`zones_of(S)`, `side_of(S)`, ...; offsets under "The state and the rules"):

- `zones[side, zone, position]`: the deck (`DECK`, drawn from `S_DECK_TOP` on), the hand, the discard pile, and the
  board (`BOARD`, lanes left to right; -1 is an empty lane).
- `side[side, column]`: Life Points, zone sizes, ready and total resources per colour, policy.
- `lanes[side, lane, column]`: damage and per-turn flags of the card in that lane (moves with the card).
- `game[column]`: turn, whose turn, winner, combat and Serenity flags.

- `rng`, the batch's `counters` and the trace's `events` and `event_count` are parts of `S` too.

The rules are a second buffer `R` (`options_of`, `ability_table_of`, `table_of`, `abilities_of`). Kernels take
`(R, S, ...)`: two arrays, 14 machine words a call. `MatchArrays` builds both from Python so scenario tests can set
a board and call one step.

Rules and policies meet at a decision (section "The rules' interface"): where a rule leaves something to the player
it opens one (`ask`: kind, side, lane, in `decision_of(S)`), `legal_actions(R, S, out) -> n` lists its answers as
rows in the action list (`actions_of(S)`), the side's policy picks a row (`choose`), and `apply(R, S, k)` takes it.
The policies (section "The policies") only choose among the listed rows: greedy by a rule of thumb per decision kind,
random by the draws the engine always made, and `search` by determinized Monte Carlo over its own turn's decisions
(section "The search policy", and docs/rulesets/circles.md). The rules never read which policy a side plays.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numba
import numpy as np
from numba import types
from numba.core import cgutils
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

from workbench.cards import CardSet, Finding, OptionValue
from workbench.engines import (
    ATTACKED,
    COUNTER_COLUMNS,
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
    log_event,
    published_counters,
    rng_below,
    rng_seed,
    rules_kernel,
    shuffle_in_place,
)
from workbench.policies import (
    GREEDY,
    POLICY_NAMES,
    POLICY_WORDS,
    SEARCH,
    plays_random,
    random_played,
    start_policy,
)
from workbench.rulesets.circles.abilities import (
    ABILITIES,
    ABILITY_INDEX,
    COLOURS,
    find_ability,
)
from workbench.rulesets.circles.cards import Character, Resource
from workbench.rulesets.circles.costs import resource_colour
from workbench.search_kernels import (
    DRAW_POINTS,
    WIN_POINTS,
    halving_search,
)

F = TypeVar("F", bound=Callable[..., Any])


ENGINE_VERSION = "3"
"""1: the first engine. 2: greedy judges each lane by its chosen mode (Long Range, Self Destruct, Target) and keeps
Serenity for an attack that is lethal whatever the lanes' other worth (engine 1 could miss one). 3: the search
spends its rollouts by successive halving over its candidates (`search_decision`); greedy and random play as in
engine 2 (golden trace and both digests of tests/rulesets/circles/results_fingerprint.py unchanged)."""
POLICIES = POLICY_NAMES

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
S_POLICY = 12  # the side's policy block (`workbench.policies`: code, parameter, own generator)
SIDE_COLUMNS = S_POLICY + POLICY_WORDS
# Lane columns.
L_DAMAGE, L_ASLEEP, L_AVOIDING, L_BOOSTED, L_USED, L_MODE, L_TARGET, L_ATTACK_BONUS, L_HEALTH_BONUS = range(9)
L_ENTERED = 9  # the turn the card came into play
LANE_COLUMNS = 10
MODE_FIGHT, MODE_LONG_RANGE, MODE_SELF_DESTRUCT, MODE_TARGET = range(4)
# Game columns.
G_TURN, G_ACTIVE, G_WINNER, G_IN_COMBAT, G_SHIELD = range(5)
GAME_COLUMNS = 5

LANE_MODE_ABILITIES = (1 << LONG_RANGE) | (1 << SELF_DESTRUCT) | (1 << TARGET)
PRECOMBAT_ABILITIES = (1 << FIREBALL) | (1 << SLEEP) | (1 << REORDER) | (1 << ATTACK_BOOST_2)
CARD_MANAGEMENT_ABILITIES = (1 << RESTORE) | (1 << CHANGE_THE_FUTURE) | (1 << FUTURE_VISION)
HEAL_ABILITIES = (1 << HEAL_1) | (1 << HEAL_2)
SERENITY_ABILITY = 1 << SERENITY  # (activated: its price is discarding the card, so it has its T_ACTIVATED bit)

# Greedy weights: a Life Point is worth about 4 circles of cards (a player has only 2).
LIFE_WEIGHT = 4
LETHAL_BONUS = 1000

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
# can be played again from its start up to the next decision (the engine's control flow cannot stop and resume in
# the middle of a turn, so a decision is searched by replaying the turn: see "The search policy" below).
C_MODE, C_SEARCHER, C_TAPE_LEN, C_TAPE_POS, C_ABORTED, C_NEED_N, C_NEED_DEFAULT, C_RESEED = range(8)
C_RNG = 8  # 4 words: the search's own generator (determinizations, rollouts' dice), never the match's
C_ROLLOUT_POLICY = 12  # the policy both sides play in a rollout once the tape is replayed
C_SEARCHED = 13  # decisions searched in the whole batch (for the figures of docs/rulesets/circles.md)
C_TAPE = 14  # the decisions of the turn so far, in the order they were asked
TAPE_MAX = 256
C_STATS = C_TAPE + TAPE_MAX  # per listed row of the decision searched: rollouts, then points (search_kernels' scale)
MAX_CHOICES = 64
"""A decision with more listed actions than this is left to greedy (a hand of 63 payable characters)."""
C_DISTINCT = C_STATS + 2 * MAX_CHOICES  # per listed action of the decision being searched: 1 if no earlier one is alike
C_CAND = C_DISTINCT + MAX_CHOICES
"""Successive halving's candidates (`search_decision`), by candidate number: the listed row each stands for, greedy's
row first (number 0, so a tie keeps it), then every other distinct row in listed order."""
C_POINTS = C_CAND + MAX_CHOICES
"""Points per candidate, summed over its rollouts (`search_kernels.WIN_POINTS` a win, `DRAW_POINTS` a draw)."""
C_TRIED = C_POINTS + MAX_CHOICES
"""Rollouts per candidate (a candidate dropped early was given fewer)."""
C_ORDER = C_TRIED + MAX_CHOICES
"""The candidates still in, best first once ranked (`search_kernels.halving_keep`)."""
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
    """Side s's policy block (`workbench.policies`)."""
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
# chooses one row (`choose`, in "The policies" below: the rules never read which policy a side plays), and `apply`
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
    order = 0
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
    decision = decision_of(S)
    decision[D_KIND] = kind
    decision[D_SIDE] = s
    decision[D_LANE] = NO_CARD
    decision[D_ARG] = arg
    decision[D_OTHER] = other
    return choose_hand(R, S)


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


@rules_kernel
def attack_of(R: IntArray, S: IntArray, s: EngineInt, i: EngineInt) -> int:
    """Attack of the card in lane i with its bonuses (as fixed at the start of combat, during combat)."""
    table, lanes, game = table_of(R), lanes_of(S), game_of(S)
    card = lane_card(S, s, i)
    if game[G_IN_COMBAT] == 1:
        return table[card, T_ATTACK] + lanes[s, i, L_ATTACK_BONUS]
    return table[card, T_ATTACK] + live_attack_bonus(R, S, s, i)


@rules_kernel
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


@rules_kernel
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


@rules_kernel
def draw_step(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """Draw 1; when out of cards, draw 3 (which \u201cout of cards\u201d means is the option `out_of_cards`). One call a
    turn, with `draw_one` copied in once (the start of a turn is copied into the batch loop, the search's match loop
    and its rollouts)."""
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


@llvm_inline_kernel
def play_resources(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """Play up to `resources_per_turn` resource cards, one decision each (the policy may stop early)."""
    for played in range(options_of(R)[O_RESOURCES_PER_TURN]):
        h = ask_hand(R, S, K_RESOURCE, s, np.int64(played), NO_CARD)
        if h < 0:
            return
        play_resource(R, S, s, h)


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


@rules_kernel
def play_characters(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """\u201cYou may bring as many Characters into play, as you can afford to.\u201d (One call a turn, so its decisions
    are compiled once for the turn and for Restore's phase.)"""
    while True:
        h = ask_hand(R, S, K_CHARACTER, s, NOTHING, NO_CARD)
        if h < 0:
            return
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


@rules_kernel
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


@rules_kernel
def side_value(R: IntArray, S: IntArray, s: EngineInt) -> int:
    """The coming combat's worth to side s, whether s attacks or defends."""
    if game_of(S)[G_ACTIVE] == s:
        return board_value(R, S, s)
    return -board_value(R, S, 1 - s)


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
# The policies: each chooses one of the pending decision's listed actions; none changes a rule
#
# `choose` is the one place a side's policy is read. A policy reads the decision (`decision_of(S)`: kind, side,
# lane, amount), its D_N listed rows (`actions_of(S)`) and what the side can see of the state; it may ask the rules'
# predictions (`predict_fight`, `lane_value`, `side_value`: they change nothing, or put back what they try), keep
# its own words (P_*), and returns the index of a listed row. A new policy is a function here and one branch in
# `choose`: no rule changes.


@inline_kernel
def choose(R: IntArray, S: IntArray) -> EngineInt:
    """The deciding side's policy's choice among the listed actions (a row index). Copied into `ask`."""
    s = decision_of(S)[D_SIDE]
    policy = side_of(S)[s, S_POLICY]  # the block's code (P_CODE), read without making the block's view
    if policy == GREEDY:
        return greedy_choice(R, S)
    if policy == SEARCH:
        return search_choice(R, S)
    block = policy_of(S, s)
    if plays_random(block, rng_of(S)):
        return random_played(block, rng_of(S), random_choice(R, S))
    return greedy_choice(R, S)


@inline_kernel
def choose_hand(R: IntArray, S: IntArray) -> EngineInt:
    """The deciding side's policy's answer to a hand decision (K_RESOURCE, K_CHARACTER), as the chosen row's first
    column: a hand position, or STOP. Copied into `ask_hand`.

    Greedy picks without the list: `greedy_hand` scans the hand for the card its rule of thumb takes from the listed
    rows (`greedy_resource` and `greedy_character` are that pick's row), so greedy's two decisions of every turn cost
    no listing and no call (they were 0.15 of greedy's time). tests/rulesets/circles/legal_replay.py checks each of
    its answers against a fresh `legal_actions` list. The other policies choose a listed row (`choose_listed`)."""
    if side_of(S)[decision_of(S)[D_SIDE], S_POLICY] == GREEDY:
        decision_of(S)[D_N] = UNLISTED
        return greedy_hand(R, S)
    return choose_listed(R, S)


@rules_kernel
def choose_listed(R: IntArray, S: IntArray) -> EngineInt:
    """`choose_hand` for the policies that choose among listed rows: the rows `legal_actions` lists for the hand
    decision (its own listing copied in), the policy's row, and that row's first column (STOP: none listed)."""
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
    return out[choose(R, S), 0]


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


@inline_kernel
def greedy_resource_card(R: IntArray, S: IntArray, s: EngineInt) -> EngineInt:
    """The resource whose colour the hand's characters lack most (the first such in hand order, among the resources
    `list_resources` lists: those with a colour), as a hand position; STOP only without one."""
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
    for h in range(side[s, S_HAND_N]):
        card = zones[s, HAND, h]
        if table[card, T_KIND] != KIND_CHARACTER:
            continue
        score = table[card, T_CIRCLES] * 1000 + table[card, T_ATTACK] + table[card, T_HEALTH]
        if score > best_score and (free == 1 or can_pay_card(R, S, s, card)):
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


# The search policy's entry (the search itself: "The search policy" below).


@rules_kernel
def search_choice(R: IntArray, S: IntArray) -> EngineInt:
    """Search's row: the one taken at this point of the turn, or greedy's while the turn is being searched."""
    decision = decision_of(S)
    return decide(R, S, decision[D_SIDE], decision[D_N], greedy_choice(R, S))


@rules_kernel
def hand_choice_key(R: IntArray, card: EngineInt) -> EngineInt:
    """What tells two hand cards apart as choices: a resource's colour (two red resources play alike), else the
    card."""
    table = table_of(R)
    if table[card, T_KIND] == KIND_RESOURCE:
        return -2 - table[card, T_COLOUR]
    return card


@rules_kernel
def same_choice(R: IntArray, S: IntArray, k: EngineInt, j: EngineInt) -> bool:
    """Listed rows k and j play alike, so the search weighs only the first: two resources of one colour, two
    copies of a character, a swap and its mirror."""
    zones, decision, out = zones_of(S), decision_of(S), actions_of(S)
    kind, s = decision[D_KIND], decision[D_SIDE]
    if kind == K_RESOURCE or kind == K_CHARACTER:
        if out[k, 0] < 0 or out[j, 0] < 0:
            return False
        return hand_choice_key(R, zones[s, HAND, out[k, 0]]) == hand_choice_key(R, zones[s, HAND, out[j, 0]])
    if kind == K_REORDER:
        return out[k, 0] == out[j, 1] and out[k, 1] == out[j, 0]
    return False


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
def play_turn(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """One whole turn of side s, in the document's order."""
    start_turn(R, S, s)
    turn_body_call(R, S, s)


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
    """Turns alternate from `first` until a player has no Life Points or the turn cap is reached (a draw)."""
    game = game_of(S)
    s = first
    while game[G_WINNER] == UNDECIDED and not turn_cap_reached(R, S, s):
        play_turn(R, S, s)
        s = 1 - s


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

    Every once-a-turn phase is copied (`inline_kernel`) into this loop (setup, start of turn and draw) or into
    `turn_body_call` (the rest of a turn after the draw as one call, shared with the search's batch: every first
    simulate compiles a greedy batch to warm the engine, so a second copy of the turn here would compile in the search
    line too, for about 6% of greedy's speed), so a turn makes few calls, and the loop runs without reference
    counting. The search's kernels are not reached from here, so a greedy or random batch does not compile them. The
    ability phases (Restore, Fireball, lane modes, Serenity) stay out of line and are called only when a card in play
    has them (`turn_body_call`): copying them in as well doubled the compile time and was no faster.
    """
    for m in range(seeds.shape[0]):
        start_match(R, S, deck_a, deck_b, policy_a, policy_b, seeds[m], m)
        play_match(R, S, np.int64(first[m]))
        finish_match(S, m, winners, turns)


# ---------------------------------------------------------------------------------------------------------------
# The search policy: determinized Monte Carlo over each decision of its own turn
#
# The rules call the policy at each decision (`decide`); they cannot stop in the middle of a turn and resume later.
# So a `search` side's turn is played from a snapshot taken after its draw, with the decisions taken so far on a
# tape; at the first decision not on the tape the turn stops (its effects are thrown away by going back to the
# snapshot), the decision is searched, its choice goes on the tape, and the turn is played again. A rollout is a clone
# of the snapshot with the hidden cards resampled (`determinize`), the tape plus the choice under test replayed, and
# the rest of the match played by the rollout policy. In the opponent's turn the search side answers as greedy does:
# a rollout from that turn's start would replay the opponent's plays from a hand it cannot see.


@rules_kernel
def decide(R: IntArray, S: IntArray, s: EngineInt, n: EngineInt, default: EngineInt) -> EngineInt:
    """A `search` side's row among the n listed actions of the pending decision (`default` is greedy's).

    In the searching side's own turn of the real match: the row already taken at this point of the turn (the
    tape), or, at a decision not yet taken, greedy's row and a note that the turn must stop here (C_ABORTED, with
    which listed rows are alike in C_DISTINCT): the match loop searches this decision and plays the turn again from
    its start (`play_searched_matches`). In a rollout: the tape's rows, the last being the one under test; then the
    rollout policy takes over (`end_replay`). Anywhere else (the opponent's turn, a single row): greedy's row.
    """
    control = search_of(S)
    mode = control[C_MODE]
    if n <= 1 or mode == SEARCH_OFF or control[C_SEARCHER] != s:
        return default
    position = control[C_TAPE_POS]
    if position < control[C_TAPE_LEN]:
        choice = control[C_TAPE + position]
        control[C_TAPE_POS] = position + 1
        if mode == SEARCH_REPLAY and position + 1 == control[C_TAPE_LEN]:
            end_replay(S)
        return choice if choice < n else default
    if mode == SEARCH_LIVE and control[C_ABORTED] == 0 and control[C_TAPE_LEN] < TAPE_MAX:
        control[C_ABORTED] = 1
        control[C_NEED_N] = n
        control[C_NEED_DEFAULT] = default
        for k in range(min(n, MAX_CHOICES)):
            distinct = 1
            for j in range(k):
                if same_choice(R, S, k, j):
                    distinct = 0
                    break
            control[C_DISTINCT + k] = distinct
    return default


@rules_kernel
def end_replay(S: IntArray) -> None:
    """A rollout has replayed its tape: both sides now play the rollout policy, with fresh dice from the search's
    generator (the match's own generator would foretell the real match's later random choices)."""
    control, side = search_of(S), side_of(S)
    side[0, S_POLICY] = control[C_ROLLOUT_POLICY]
    side[1, S_POLICY] = control[C_ROLLOUT_POLICY]
    rng_seed(rng_of(S), control[C_RESEED])
    control[C_MODE] = SEARCH_OFF


@rules_kernel
def turn_body_call(R: IntArray, S: IntArray, s: EngineInt) -> None:
    """Side s's turn after the draw: resources, characters, healing, abilities, combat. One call of its own, the one
    compiled copy of the turn after the draw: the greedy and random batch loop, the search's batch loop, its turns
    and its rollouts all call it. A second copy inside `play_matches` made greedy about 6% faster but compiled in the
    search line as well (every first simulate warms the engine with a greedy batch), about 12 s more CPU. The body
    is written here rather than copied in from an inline kernel: Numba's IR inliner costs with the square of the
    body's size (about 2.4 s of this kernel's compile)."""
    opts, side, lanes, game, events, event_count = (
        options_of(R),
        side_of(S),
        lanes_of(S),
        game_of(S),
        events_of(S),
        event_count_of(S),
    )
    o = 1 - s
    play_resources(R, S, s)
    ready_resources(S, s)
    totals = side[s, S_READY] * 10000 + side[s, S_READY + 1] * 100 + side[s, S_READY + 2]
    log_event(events, event_count, game[G_TURN], s, EV_RESOURCES, NO_CARD, totals, side[s, S_HAND_N])
    if opts[O_EXTRA_EACH_TURN] == 1:
        extra_cards_each_turn(R, S, s)
    play_characters(R, S, s)
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
def state_words(S: IntArray) -> int:
    """Where a state buffer's match state ends: the counters and the trace follow it."""
    return ZONES_AT + (_EIGHT + _TWO * _LANE_COLUMNS) * S[H_CAPACITY]


@rules_kernel
def clone(S: IntArray, into: IntArray) -> None:
    """The match state of S copied into `into` (a state buffer of the same deck capacity): zones, lanes, Life
    Points, turn, dice and the search's tape; not the batch's counters nor the trace, which stay `into`'s own."""
    rows = into[H_EVENT_ROWS]
    for k in range(state_words(S)):
        into[k] = S[k]
    into[H_EVENT_ROWS] = rows
    into[EVENT_COUNT_AT] = 0


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


@inline_kernel
def search_rng_of(S: IntArray) -> IntArray:
    """The search's own generator (4 words in the search part of S)."""
    return view_of(S, np.int64(SEARCH_AT + C_RNG), (_FOUR,))


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
def resample(
    zones: IntArray, o: EngineInt, in_hand: EngineInt, top: EngineInt, count: EngineInt, rng: IntArray
) -> None:
    """Sort the row of `count` unseen cards (so their order before cannot matter), then shuffle it with `rng`."""
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    j: EngineInt
    for k in range(1, count):
        card = pooled(zones, o, in_hand, top, k)
        j = k
        while j > 0 and pooled(zones, o, in_hand, top, j - 1) > card:
            put_pooled(zones, o, in_hand, top, j, pooled(zones, o, in_hand, top, j - 1))
            j -= 1
        put_pooled(zones, o, in_hand, top, j, card)
    for k in range(count - 1, 0, -1):
        j = rng_below(rng, k + 1)
        card = pooled(zones, o, in_hand, top, k)
        put_pooled(zones, o, in_hand, top, k, pooled(zones, o, in_hand, top, j))
        put_pooled(zones, o, in_hand, top, j, card)


@rules_kernel
def determinize(R: IntArray, S: IntArray, s: EngineInt, rng: IntArray) -> None:
    """What side s cannot see, drawn again from what it can know: the opponent's hand and draw deck are one pool
    of unseen cards (their sizes are seen) dealt anew, and s's own draw deck is shuffled anew. Both pools are sorted
    first, so the draw depends on which cards they hold and on `rng`, never on where the cards really are. (Cards s
    saw on top of its deck with Future Vision are shuffled back in too: forgetting is never peeking.)"""
    zones, side = zones_of(S), side_of(S)
    o = 1 - s
    top = side[o, S_DECK_TOP]
    in_hand = side[o, S_HAND_N]
    resample(zones, o, in_hand, top, in_hand + side[o, S_DECK_N] - top, rng)
    top = side[s, S_DECK_TOP]
    resample(zones, s, np.int64(0), top, side[s, S_DECK_N] - top, rng)


@inline_kernel
def rollout(
    R: IntArray,
    snapshot: IntArray,
    scratch: IntArray,
    s: EngineInt,
    choice: EngineInt,
    world: EngineInt,
    dice: EngineInt,
) -> int:
    """One rollout of `choice` for side s from the turn's snapshot, in the hidden world drawn from seed `world` and
    with the dice of seed `dice` after the choice: WIN_POINTS if s wins, DRAW_POINTS for a draw, 0 if it loses."""
    opts = options_of(R)
    clone(snapshot, scratch)
    rng = search_rng_of(scratch)
    rng_seed(rng, world)
    determinize(R, scratch, s, rng)
    control, game = search_of(scratch), game_of(scratch)
    control[C_MODE] = SEARCH_REPLAY
    control[C_TAPE + control[C_TAPE_LEN]] = choice
    control[C_TAPE_LEN] += 1
    control[C_TAPE_POS] = 0
    control[C_ABORTED] = 0
    control[C_RESEED] = dice
    control[C_ROLLOUT_POLICY] = opts[O_SEARCH_ROLLOUT_POLICY]
    turn_body_call(R, scratch, s)
    if control[C_MODE] == SEARCH_REPLAY:  # the choice under test was not asked again (cannot happen: same state)
        end_replay(scratch)
    play_match(R, scratch, 1 - s)
    if game[G_WINNER] == s:
        return WIN_POINTS
    return DRAW_POINTS if game[G_WINNER] == -1 else 0


@inline_kernel
def no_world(_context: Any, _seed: EngineInt) -> None:
    """`halving_search`'s world dealer: nothing to deal ahead, as each rollout deals its world from the seed itself
    (`rollout`: the snapshot cloned, then `determinize`)."""


@inline_kernel
def candidate_rollout(context: Any, c: EngineInt, world: EngineInt, dice: EngineInt) -> EngineInt:
    """`halving_search`'s rollout: candidate c, the listed row C_CAND + c, rolled out in the world of seed `world`."""
    R, snapshot, scratch, s, control = context
    return rollout(R, snapshot, scratch, s, control[C_CAND + c], world, dice)


@inline_kernel
def search_decision(
    R: IntArray, snapshot: IntArray, scratch: IntArray, s: EngineInt, n: EngineInt, default: EngineInt
) -> EngineInt:
    """The listed row among n that successive halving finds best (`workbench.search_kernels`): its candidates are
    greedy's row (`default`, candidate 0, so a tie keeps it) and every other distinct listed row (C_DISTINCT: a row
    alike an earlier one is not weighed again); its budget, `search_rollouts` rollouts per candidate, is spent in
    ceil(log2 candidates) rounds, each giving every candidate still in the same number of rollouts and keeping the
    better half.

    In a round every candidate is played in the same sampled worlds with the same later dice (common random numbers):
    the comparison between choices then carries only the noise of what the choices change, not of which hidden cards
    each happened to meet, which with independent samples drowned most differences at this budget. The rollouts and
    points of each listed row are left in the snapshot's C_STATS (0 for a row not weighed).
    """
    control = search_of(snapshot)
    if n > MAX_CHOICES:
        return default
    control[C_CAND] = default
    m = 1
    for k in range(n):
        control[C_STATS + k] = 0
        control[C_STATS + MAX_CHOICES + k] = 0
        if k != default and control[C_DISTINCT + k] == 1:
            control[C_CAND + m] = k
            m += 1
    budget = options_of(R)[O_SEARCH_ROLLOUTS] * m
    context = (R, snapshot, scratch, s, control)
    halving_search(
        no_world, candidate_rollout, context, control, C_ORDER, C_POINTS, C_TRIED, m, budget, search_rng_of(snapshot)
    )
    for c in range(m):
        row = control[C_CAND + c]
        control[C_STATS + row] = control[C_TRIED + c]
        control[C_STATS + MAX_CHOICES + row] = control[C_POINTS + c]
    return control[C_CAND + control[C_ORDER]]


@inline_kernel
def play_searched_turn(R: IntArray, S: IntArray, snapshot: IntArray, scratch: IntArray, s: EngineInt) -> None:
    """The rest of side s's turn after its draw, each of its decisions searched; the tape of its choices is left in
    S's search part (C_TAPE, C_TAPE_LEN) and the last decision's statistics in C_STATS."""
    control, taped = search_of(S), search_of(snapshot)
    control[C_MODE] = SEARCH_LIVE
    control[C_SEARCHER] = s
    control[C_TAPE_LEN] = 0
    control[C_TAPE_POS] = 0
    control[C_ABORTED] = 0
    restore(S, snapshot)
    while True:
        turn_body_call(R, S, s)
        if control[C_ABORTED] == 0:
            return
        n, default = control[C_NEED_N], control[C_NEED_DEFAULT]
        for k in range(min(n, MAX_CHOICES)):
            taped[C_DISTINCT + k] = control[C_DISTINCT + k]
        choice = search_decision(R, snapshot, scratch, s, n, default)
        taped[C_SEARCHED] += 1
        taped[C_TAPE + taped[C_TAPE_LEN]] = choice
        taped[C_TAPE_LEN] += 1
        restore(snapshot, S)


@rules_kernel
def play_searched_matches(
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
    snapshot: IntArray,
    scratch: IntArray,
) -> None:
    """`play_matches` when a side plays `search`, with the turn's snapshot and the rollouts' buffer.

    Each match is `play_match` but for a `search` side, each of whose turns is played from a snapshot after its
    draw, and again after each decision searched (see the section's comment).

    The search's match loop, its turns, its decisions and its rollouts are copied into this one kernel (one call
    site each): each kernel links, optimizes and code-generates again everything it calls, the whole turn included,
    so each level of calls between this loop and `turn_body_call` cost about 2 s of compile CPU. The match loop is
    written here rather than copied in from an inline kernel (Numba's IR inliner costs with the square of what it
    copies: about 0.8 s)."""
    side, game, control = side_of(S), game_of(S), search_of(S)
    for m in range(seeds.shape[0]):
        start_match(R, S, deck_a, deck_b, policy_a, policy_b, seeds[m], m)
        rng_seed(search_rng_of(S), seeds[m] ^ SEARCH_SEED)
        control[C_MODE] = SEARCH_LIVE
        s = np.int64(first[m])
        while game[G_WINNER] == UNDECIDED and not turn_cap_reached(R, S, s):
            start_turn(R, S, s)
            if side[s, S_POLICY] == SEARCH:
                play_searched_turn(R, S, snapshot, scratch, s)
            else:
                control[C_SEARCHER] = -1
                turn_body_call(R, S, s)
            s = 1 - s
        finish_match(S, m, winners, turns)


# ---------------------------------------------------------------------------------------------------------------
# Python side: compiling cards, batches, traces, scenario state


def _option_array(options: Mapping[str, OptionValue]) -> IntArray:
    values = np.zeros(OPTION_COUNT, dtype=np.int64)
    values[O_RESOURCES_PER_TURN] = int(options["resources_per_turn"])
    values[O_DESTROY_AT_LEAST] = int(options["destroy_when"] == "at_least")
    values[O_RESHUFFLE] = int(options["out_of_cards"] == "reshuffle_discard_draws_3")
    values[O_RESPOND] = int(bool(options["respond_in_opponent_turn"]))
    values[O_SLEEP_OPENS_LANE] = int(bool(options["sleeping_card_opens_lane"]))
    values[O_SERENITY_EVERYONE] = int(options["serenity_protects"] == "everyone")
    values[O_EXTRA_EACH_TURN] = int(options["extra_card"] == "each_turn")
    values[O_TURN_CAP] = int(options["turn_cap"])
    values[O_NEW_CHARACTERS_ATTACK] = int(bool(options["new_characters_attack"]))
    values[O_ONE_PER_ATTACKER] = int(options["direct_damage"] == "one_per_attacker")
    values[O_SEARCH_ROLLOUTS] = int(options["search_rollouts"])
    values[O_SEARCH_ROLLOUT_POLICY] = POLICIES.index(str(options["search_rollout_policy"]))
    return values


def ability_table() -> IntArray:
    """The data table as the kernel reads it: colour, circles, activation, number, discards itself."""
    return np.array(
        [[COLOURS.index(a.colour), a.circles, a.activation, a.number, int(a.discards_itself)] for a in ABILITIES],
        dtype=np.int64,
    )


def compile_cards(cardset: CardSet, options: Mapping[str, OptionValue]) -> CompiledCards:
    """Every card as a row of integers, every ability as a count per card; info findings for what is skipped."""
    rows: list[list[EngineInt]] = []
    counts = np.zeros((len(cardset), N_ABILITIES), dtype=np.int64)
    findings: list[Finding] = []
    stack = bool(options["allow_duplicate_abilities"])
    for index, entry in enumerate(cardset):
        card = entry.card
        if isinstance(card, Resource):
            colour = resource_colour(card)
            if colour is None:
                findings.append(
                    cardset.finding(
                        "info",
                        "circles.not_simulated",
                        "a resource without exactly one colour cannot be played in simulated matches.",
                        entry,
                        "color",
                    )
                )
            resource_row: list[EngineInt] = [KIND_RESOURCE, NO_COLOUR if colour is None else COLOURS.index(colour)]
            rows.append(resource_row + [0] * (TABLE_COLUMNS - 2))
            continue
        assert isinstance(card, Character), "a circles card is a character or a resource"
        for written in card.abilities:
            ability = find_ability(written)
            if ability is None:
                findings.append(
                    cardset.finding(
                        "info",
                        "circles.not_simulated",
                        f"'{written}' is not one of the 24 abilities; simulated matches play the card without it.",
                        entry,
                        "abilities",
                        actual=written,
                    )
                )
                continue
            index_of = ABILITY_INDEX[ability.name]
            counts[index, index_of] = counts[index, index_of] + 1 if stack else 1
        row = counts[index]

        def number(*names: str, row: IntArray = row) -> int:
            return sum(int(row[ABILITY_INDEX[n]]) * ABILITIES[ABILITY_INDEX[n]].number for n in names)

        red, blue, green = card.red, card.blue, card.green
        rows.append(
            [
                KIND_CHARACTER,
                NO_COLOUR,
                red,
                blue,
                green,
                red + blue + green,
                card.attack,
                card.health,
                number("Armor 1", "Armor 2"),
                number("Armor Piercing 1", "Armor Piercing 2"),
                number("Attack Boost 1"),
                number("Defender"),
                int(row[FAST] > 0),
                int(row[REFLECT] > 0),
                number("Extra Card"),
                sum(1 << k for k, a in enumerate(ABILITIES) if a.activated and row[k] > 0),
            ]
        )
    table = np.array(rows, dtype=np.int64).reshape(len(rows), TABLE_COLUMNS)
    characters = table[:, T_KIND] == KIND_CHARACTER
    return CompiledCards(
        names=tuple(entry.card.name for entry in cardset),
        table=table,
        cost=np.where(characters, table[:, T_CIRCLES].astype(np.float64), math.nan),
        slot=np.where(characters, 0, 1).astype(np.int64),
        options=_option_array(options),
        findings=tuple(findings),
        extra={"abilities": counts, "ability_table": ability_table()},
    )


def rules_buffer(compiled: CompiledCards) -> IntArray:
    """The rules as the kernels take them (R): options, ability table, card table and ability counts in one buffer."""
    table, counts = compiled.table, compiled.extra["abilities"]
    cards = table.shape[0]
    rules = np.zeros(TABLE_AT + cards * (TABLE_COLUMNS + N_ABILITIES), dtype=np.int64)
    rules[H_RULE_CARDS] = cards
    rules[OPTIONS_AT : OPTIONS_AT + OPTION_COUNT] = compiled.options
    rules[ABILITY_TABLE_AT:TABLE_AT] = compiled.extra["ability_table"].ravel()
    rules[TABLE_AT : TABLE_AT + cards * TABLE_COLUMNS] = table.ravel()
    rules[TABLE_AT + cards * TABLE_COLUMNS :] = counts.ravel()
    return rules


@dataclass
class StateViews:
    """Numpy views of one state buffer (S), part by part; writing to a view writes the buffer the kernels read."""

    zones: IntArray
    """zones[side, DECK|HAND|DISCARD|BOARD, position]; -1 where empty."""
    side: IntArray
    """side[side, S_* column]."""
    lanes: IntArray
    """lanes[side, lane, L_* column]."""
    game: IntArray
    """game[G_* column]."""
    rng: IntArray
    """The xorshift state."""
    counters: IntArray
    """counters[side, card, counter], scratch columns included."""
    events: IntArray
    """Logged events (no rows when nothing is traced)."""
    event_count: IntArray
    """How many events are logged (one value)."""
    search: IntArray
    """The search policy's control words and tape (C_* positions)."""
    decision: IntArray
    """The pending decision (D_* positions) and the policies' own words (P_*)."""
    actions: IntArray
    """actions[row, column]: the pending decision's legal actions (decision[D_N] rows)."""


def action_rows(capacity: int) -> int:
    """Room in the action list for the longest one: Reorder's ordered pairs of lanes (or a hand, a discard pile,
    Disperse's amounts), and one declining row."""
    return capacity * capacity + 2 * capacity + 8


def state_buffer(capacity: int, cards: int, event_rows: int) -> tuple[IntArray, StateViews]:
    """A zeroed state buffer (S) for decks of up to `capacity` - 1 cards, `cards` cards in the set and room for
    `event_rows` trace events, with its views (the same offsets as `zones_of`, `lanes_of` and the rest)."""
    lanes_at = ZONES_AT + 8 * capacity
    actions_at = lanes_at + 2 * capacity * LANE_COLUMNS
    counters_at = actions_at + ACTION_WIDTH * action_rows(capacity)
    events_at = counters_at + 2 * cards * COUNTER_COLUMNS
    state = np.zeros(events_at + event_rows * EVENT_WIDTH, dtype=np.int64)
    state[H_CAPACITY], state[H_CARDS], state[H_EVENT_ROWS] = capacity, cards, event_rows
    state[H_ACTION_ROWS] = action_rows(capacity)
    views = StateViews(
        zones=state[ZONES_AT:lanes_at].reshape(2, 4, capacity),
        side=state[SIDE_AT:GAME_AT].reshape(2, SIDE_COLUMNS),
        lanes=state[lanes_at:actions_at].reshape(2, capacity, LANE_COLUMNS),
        game=state[GAME_AT:RNG_AT],
        rng=state[RNG_AT:EVENT_COUNT_AT],
        counters=state[counters_at:events_at].reshape(2, cards, COUNTER_COLUMNS),
        events=state[events_at:].reshape(event_rows, EVENT_WIDTH),
        event_count=state[EVENT_COUNT_AT:SEARCH_AT],
        search=state[SEARCH_AT:DECISION_AT],
        decision=state[DECISION_AT:ZONES_AT],
        actions=state[actions_at:counters_at].reshape(-1, ACTION_WIDTH),
    )
    views.zones[:] = -1
    return state, views


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
    """One batch in one state buffer (with the trace's room when `traced`); `batch_and_trace` makes the engine's
    `play_batch` and `play_traced` of it."""
    n = seeds.shape[0]
    winners = np.zeros(n, dtype=np.int8)
    turns = np.zeros(n, dtype=np.int32)
    capacity = max(len(deck_a), len(deck_b)) + 1
    state, views = state_buffer(capacity, len(compiled.names), MAX_TRACE_EVENTS if traced else 0)
    arguments = (
        rules_buffer(compiled),
        state,
        np.ascontiguousarray(deck_a, dtype=np.int64),
        np.ascontiguousarray(deck_b, dtype=np.int64),
        np.ascontiguousarray(seeds, dtype=np.int64),
        np.ascontiguousarray(first, dtype=np.int8),
        policy_a,
        policy_b,
        winners,
        turns,
    )
    if SEARCH in (policy_a, policy_b):
        # The search policy's turn snapshot (the whole buffer: counters and trace go back with it) and rollout buffer.
        snapshot = np.zeros_like(state)
        scratch = state_buffer(capacity, len(compiled.names), 0)[0]
        play_searched_matches(*arguments, snapshot, scratch)
    else:
        play_matches(*arguments)
    events = views.events[: int(views.event_count[0])].copy()
    return BatchRun(winners, turns, published_counters(views.counters), events)


play_batch, play_traced = batch_and_trace(run_batch)


def _player(side: int) -> str:
    return "AB"[side]


def _resources(encoded: int) -> str:
    red, blue, green = encoded // 10000, (encoded // 100) % 100, encoded % 100
    return f"{red} red, {blue} blue, {green} green"


def describe_event(compiled: CompiledCards, row: Sequence[int]) -> str:
    """One trace event as a line a designer can read."""
    _turn, side, code, card, other, amount = (int(v) for v in row)
    who = _player(side)
    foe = _player(1 - side)
    names = compiled.names

    def name(card_id: int) -> str:
        return names[card_id] if card_id >= 0 else "-"

    def stats(card_id: int) -> str:
        return f"{names[card_id]} ({compiled.table[card_id, T_ATTACK]}/{compiled.table[card_id, T_HEALTH]})"

    if code == EV_TURN:
        return f"{who}'s turn. Life Points: A {other}, B {amount}."
    if code == EV_DRAW:
        return f"{who} draws {name(card)}."
    if code == EV_NO_CARD:
        return f"{who}'s draw deck is empty: no card drawn."
    if code == EV_OUT_OF_CARDS:
        return f"{who} is out of cards and draws {amount}."
    if code == EV_RESHUFFLE:
        return f"{who} shuffles {amount} discarded cards into a new draw deck."
    if code == EV_RESOURCE:
        return f"{who} plays resource {name(card)} ({COLOURS[amount]}); in play: {_resources(other)}."
    if code == EV_RESOURCES:
        return f"{who} readies {_resources(other)}; {amount} cards in hand."
    if code == EV_PLAY:
        cost = ", ".join(
            f"{compiled.table[card, T_RED + c]} {COLOURS[c]}" for c in range(3) if compiled.table[card, T_RED + c]
        )
        return f"{who} brings {stats(card)} into play in lane {amount + 1}, paying {cost}."
    if code == EV_FREE_PLAY:
        why = f"Extra Card of {name(other)}" if other >= 0 else "Extra Card"
        return f"{who} brings {stats(card)} into play in lane {amount + 1} for free ({why})."
    if code == EV_ABILITY:
        ability = ABILITIES[amount]
        on = f" on {name(other)}" if other >= 0 else ""
        price = "discarding it" if ability.discards_itself else f"{ability.activation} {ability.colour}"
        return f"{who}'s {name(card)} uses {ability.name}{on} ({price})."
    if code == EV_SEE:
        return f"{who} sees card {amount} of the draw deck: {name(card)}."
    if code == EV_ARRANGED:
        return f"{who} puts {name(card)} at position {amount} of the draw deck."
    if code == EV_SWAP:
        return f"{who} swaps {name(card)} and {name(other)}."
    if code == EV_RESTORED:
        return f"{who} takes {name(card)} from the discard pile into the hand."
    if code == EV_LANE:
        left = stats(card) if card >= 0 else "(empty)"
        right = stats(other) if other >= 0 else "(empty)"
        return f"lane {amount + 1}: {who} {left} vs {foe} {right}"
    if code == EV_SLEEPING:
        return f"{name(card)} is asleep and does not attack."
    if code == EV_JUST_ARRIVED:
        return f"{name(card)} came into play this turn and does not attack yet."
    if code == EV_HIT:
        return f"{name(card)} deals {amount} damage to {name(other)}."
    if code == EV_REFLECTED:
        return f"{name(card)} reflects {amount} damage onto {name(other)}."
    if code == EV_IGNORED:
        target = name(card) if card >= 0 else f"player {who}"
        return f"{amount} damage to {target} is ignored ({ABILITIES[other].name})."
    if code == EV_SPREAD:
        return f"{who} spreads {amount} damage from {name(card)} onto {name(other)} (Disperse)."
    if code == EV_DESTROYED:
        return f"{who}'s {name(card)} is destroyed."
    if code == EV_DIRECT:
        return (
            f"{name(card)} hits {foe} directly for {amount}: {foe} has {other} Life Point{'s' if other != 1 else ''}."
        )
    if code == EV_WIN:
        return f"{who} wins: {foe} has no Life Points left."
    if code == EV_TURN_CAP:
        return f"turn cap of {amount} reached: the match is a draw."
    return f"event {code}: {card} {other} {amount}"


ENGINE = Engine(
    version=ENGINE_VERSION,
    policies=POLICIES,
    cost_axis="circles",
    compile_cards=compile_cards,
    play_batch=play_batch,
    play_traced=play_traced,
    describe_event=describe_event,
)


@dataclass
class MatchArrays:
    """One match's state built in Python, so a scenario test can set a board and call a single kernel step.

    `R` and `S` are the two buffers the kernels take; the other fields are views of `S`, so a write to them is what
    the next kernel call sees, and a kernel's writes show in them.
    """

    compiled: CompiledCards
    """The compiled card set the state refers to."""
    R: IntArray
    """The rules buffer (`rules_buffer`)."""
    S: IntArray
    """The state buffer (`state_buffer`)."""
    zones: IntArray
    """zones[side, DECK|HAND|DISCARD|BOARD, position]; -1 where empty."""
    side: IntArray
    """side[side, S_* column]."""
    lanes: IntArray
    """lanes[side, lane, L_* column]."""
    game: IntArray
    """game[G_* column]."""
    rng: IntArray
    """The xorshift state."""
    counters: IntArray
    """counters[side, card, counter]."""
    events: IntArray
    """Logged events (room for MAX_TRACE_EVENTS)."""
    event_count: IntArray
    """How many events are logged."""

    @classmethod
    def new(
        cls, compiled: CompiledCards, capacity: int = 40, seed: int = 1, policies: tuple[int, int] = (GREEDY, GREEDY)
    ) -> MatchArrays:
        """Empty zones, 2 Life Points each, side 0's turn (turn 1), nothing in play."""
        state, views = state_buffer(capacity, len(compiled.names), MAX_TRACE_EVENTS)
        arrays = cls(
            compiled=compiled,
            R=rules_buffer(compiled),
            S=state,
            zones=views.zones,
            side=views.side,
            lanes=views.lanes,
            game=views.game,
            rng=views.rng,
            counters=views.counters,
            events=views.events,
            event_count=views.event_count,
        )
        arrays.lanes[:, :, L_TARGET] = -1
        arrays.side[:, S_LIFE] = STARTING_LIFE
        arrays.side[:, S_POLICY] = policies
        arrays.game[G_TURN] = 1
        arrays.game[G_WINNER] = UNDECIDED
        rng_seed(arrays.rng, seed)
        return arrays

    def _ids(self, names: Sequence[str | None]) -> list[int]:
        return [-1 if n is None else self.compiled.card_id(n) for n in names]

    def set_board(self, side: int, names: Sequence[str | None]) -> None:
        """Lanes left to right (None = an empty lane), damage and flags cleared."""
        ids = self._ids(names)
        self.zones[side, BOARD, :] = -1
        self.zones[side, BOARD, : len(ids)] = ids
        self.lanes[side, :, :] = 0
        self.lanes[side, :, L_TARGET] = -1
        self.side[side, S_BOARD_N] = len(ids)

    def set_zone(self, side: int, zone: int, names: Sequence[str]) -> None:
        """The hand, deck (top first) or discard pile of a side."""
        ids = self._ids(names)
        self.zones[side, zone, :] = -1
        self.zones[side, zone, : len(ids)] = ids
        if zone == HAND:
            self.side[side, S_HAND_N] = len(ids)
        elif zone == DISCARD:
            self.side[side, S_DISCARD_N] = len(ids)
        else:
            self.side[side, S_DECK_N] = len(ids)
            self.side[side, S_DECK_TOP] = 0

    def set_resources(self, side: int, red: int = 0, blue: int = 0, green: int = 0, ready: bool = True) -> None:
        """Resources in play (all ready unless told otherwise)."""
        for colour, count in enumerate((red, blue, green)):
            self.side[side, S_TOTAL + colour] = count
            self.side[side, S_READY + colour] = count if ready else 0

    def board(self, side: int) -> list[str | None]:
        """Card names lane by lane."""
        return [
            None if c < 0 else self.compiled.names[c] for c in self.zones[side, BOARD, : self.side[side, S_BOARD_N]]
        ]

    def zone(self, side: int, zone: int) -> list[str]:
        """Card names in a zone (the deck from its top)."""
        if zone == HAND:
            ids = self.zones[side, HAND, : self.side[side, S_HAND_N]]
        elif zone == DISCARD:
            ids = self.zones[side, DISCARD, : self.side[side, S_DISCARD_N]]
        else:
            ids = self.zones[side, DECK, self.side[side, S_DECK_TOP] : self.side[side, S_DECK_N]]
        return [self.compiled.names[c] for c in ids]

    def damage(self, side: int) -> list[int]:
        """Damage on each lane's card."""
        return [int(v) for v in self.lanes[side, : self.side[side, S_BOARD_N], L_DAMAGE]]

    def ready(self, side: int) -> tuple[int, int, int]:
        """Ready resources: red, blue, green."""
        return tuple(int(v) for v in self.side[side, S_READY : S_READY + 3])  # type: ignore[return-value]

    def trace(self) -> list[str]:
        """The logged events as trace lines."""
        return [describe_event(self.compiled, row) for row in self.events[: int(self.event_count[0])]]
