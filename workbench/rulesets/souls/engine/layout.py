"""The souls engine's layout: its constants (the card table's columns, the options' order, the action kinds, the
trace's event codes, ...) and where things are in the two flat int64 buffers every kernel takes, the game data `G` and
the match state `st`: their headers and offsets, the tiny index kernels (`opt`, `cv`, `tv`, `sx`, `ux`, `zx`, ...),
the counters and the trace's `log`, and `game_data`, `new_state`, `reset_state`.

The bottom of the engine package (`workbench/rulesets/souls/engine/__init__.py` says how its modules stand): it imports
none of them.
"""

from __future__ import annotations

import numpy as np

from workbench.engines import (
    ATTACKED,
    COUNTER_COLUMNS,
    DAMAGE_DEALT,
    DESTROYED,
    DRAWN,
    EVENT_WIDTH,
    FIRST_PLAYED,
    FIRST_PLAYED_TURN,
    FIRST_TURN_THIS_MATCH,
    LAST_MATCH_DRAWN,
    LAST_MATCH_PLAYED,
    MATCHES_DRAWN,
    MATCHES_PLAYED,
    MATCHES_PLAYED_WITH_A_ROUND_LEFT,
    NEXT_PLAYED,
    PLAYED,
    PLAYED_MATCH_TURNS,
    THIS_MATCH,
    CompiledCards,
    EngineInt,
    IntArray,
    inline_kernel,
    rules_kernel,
)
from workbench.play.policies import POLICY_WORDS
from workbench.rulesets.souls import effects as effect_vocabulary
from workbench.rulesets.souls.effects import TIMINGS

ENGINE_VERSION = "7"


def int64_constants(start: int, stop: int) -> tuple[np.int64, ...]:
    """The integers start ... stop - 1 as np.int64, for constants the kernels are passed.

    Numba types a Python int written in a call as a `Literal[int]` of its own value and compiles the kernel called
    once per distinct value (`ux` was compiled 38 times, `log` 60), while a global np.int64 is a plain int64: one
    compiled copy, whichever constant is passed. Python code reads them as ever (an np.int64 indexes, compares and
    hashes like the int).
    """
    return tuple(np.int64(value) for value in range(start, stop))


# The effect timings (effects.py keeps them Python ints for validation and the reference engine).
T_PLAIN, T_USE, T_SUMMON, T_FOE_ATTACKS, T_FOE_SUMMONS, T_FOE_ACTIVATES = (
    np.int64(effect_vocabulary.T_PLAIN),
    np.int64(effect_vocabulary.T_USE),
    np.int64(effect_vocabulary.T_SUMMON),
    np.int64(effect_vocabulary.T_FOE_ATTACKS),
    np.int64(effect_vocabulary.T_FOE_SUMMONS),
    np.int64(effect_vocabulary.T_FOE_ACTIVATES),
)
ATTACKED_COUNTER = np.int64(ATTACKED)
DESTROYED_COUNTER = np.int64(DESTROYED)
"""workbench.engines' counter columns the kernels pass to `count`, as np.int64 for the same reason."""
SHIELD_POINTS = 8
"""Each player begins the game with 8 shield points (the document)."""
ROWS = 3
"""Each player has 3 rows; row 0 is the front."""
MAX_ROW_SLOTS = 5
MAX_UNITS = ROWS * MAX_ROW_SLOTS
MAX_TRAP_SLOTS = 5
MAX_EFFECTS = 6
"""Effects kept per card (a cell with more is cut here, with an info finding)."""
MAX_ACTIONS = 4096
"""Room for every legal action of one step (the random policy lists them all)."""
MAX_RANDOM_STEPS = 200
"""A random or search side ends its turn after this many actions (it ends sooner: every action spends a card or a
use)."""
N_COUNTERS = COUNTER_COLUMNS
"""Words per (side, card) in the counters block of `st`: COUNTERS, then the scratch columns (workbench.engines)."""

KIND_MONSTER, KIND_MAGIC, KIND_TRAP = 0, 1, 2
KINDS = ("monster", "magic", "trap")

# Card table columns.
(
    C_KIND,
    C_COST,
    C_ATK,
    C_DEF,
    C_CAN_ATTACK,
    C_RANGE,
    C_SUPPORT,
    C_MOBILE,
    C_EQUIP,
    C_BONUS,
    C_EQUIP_ATK,
    C_EQUIP_DEF,
    C_DAMAGE,
    C_DRAW,
    C_SHIELD,
    C_APPLIES,
    C_VALUE,
    C_REACTS,
    C_DIRECT,
    C_TIMED,
) = int64_constants(0, 20)
"""C_REACTS: one bit per timing the card has an effect for (1 << T_*), so asking "does it react?" is one read.
C_DIRECT: what its `direct N` says direct attacks deal (a monster's own, an Equip card's for its host); -1: nothing
said, so a monster's direct attacks deal 1."""
"""C_TIMED starts a monster's or trap's effects by timing: 4 columns per timing (T_PLAIN ... T_FOE_ACTIVATES), holding
the damage, draw and shield totals and the mask of elements the activation applies (0 for a monster's T_PLAIN, whose
`apply` rides on its attacks). Use `tv(G, card, timing, TV_*)`."""
TV_DAMAGE, TV_DRAW, TV_SHIELD, TV_APPLIES = int64_constants(0, 4)
CARD_COLUMNS = C_TIMED + TIMINGS * 4

BODY_VALUE = 4
"""What the greedy policy counts a monster in play as worth beyond its stats: one more attack every turn."""
SPELL_VALUE = 6
"""What the greedy policy counts a magic or trap card in hand as worth."""
HAND_SACRIFICE_PERCENT = 50
"""A card in hand is sacrificed at half its worth: with one summon a turn most of a hand waits turns to be played,
while a unit in play attacks every turn."""

# Options, in the order of CompiledCards.options.
ENGINE_OPTION_ORDER: tuple[str, ...] = (
    "hand_size",
    "draw_per_turn",
    "first_player_draws",
    "empty_deck",
    "turn_cap",
    "row_slots",
    "summons_per_turn",
    "sacrifice_from",
    "direct_attack",
    "attacker_rows_collapse",
    "destroy_when",
    "damage_persists",
    "summoning_sickness",
    "burning_turns",
    "combo_consumes",
    "unlisted_combo",
    "status_ticks",
    "trap_slots",
    "search_rollouts",
    "search_rollout_policy",
    "search_depth",
)
(
    O_HAND_SIZE,
    O_DRAW,
    O_FIRST_DRAWS,
    O_EMPTY_LOSES,
    O_TURN_CAP,
    O_ROW_SLOTS,
    O_SUMMONS,
    O_SACRIFICE,
    O_DIRECT,
    O_ATTACKER_COLLAPSE,
    O_DESTROY_EXCEEDS,
    O_DAMAGE_PERSISTS,
    O_SICKNESS,
    O_BURNING_TURNS,
    O_COMBO_CONSUMES,
    O_UNLISTED_KEEP,
    O_TICKS_EVERY,
    O_TRAP_SLOTS,
    O_SEARCH_ROLLOUTS,
    O_SEARCH_POLICY,
    O_SEARCH_DEPTH,
) = int64_constants(0, len(ENGINE_OPTION_ORDER))
SACRIFICE_EITHER, SACRIFICE_FIELD, SACRIFICE_HAND = 0, 1, 2
DIRECT_ALWAYS, DIRECT_REACH = 0, 1

# The game data `G`: what never changes during a batch (the rule options, the card table, the effect opcodes), one
# int64 buffer apart from the match state, so that a state holds only the match (clone copies no table) and every
# state of a batch, the search's rollout buffers included, reads the same one.
GD_CARDS, GD_FX = int64_constants(0, 2)
"""G's header: how many cards the set has, and where the effect table starts (it follows the card table, whose size
is the card count's)."""
OPTS_BASE = 2
"""Where G's options start, in ENGINE_OPTION_ORDER (`opt`)."""
TABLE_BASE = OPTS_BASE + len(ENGINE_OPTION_ORDER)
"""Where G's card table starts (`cv`, `tv`): a constant, as the options before it are a fixed number, so a card
lookup reads no offset first."""

# `st` layout: the match state. st[0:4] are the xorshift words; the game fields follow, at absolute positions, then
# the sides.
(
    G_TURN,
    G_OVER,
    G_WINNER,
    G_NEXT_ID,
    G_ACTIVE,
    G_EVENTS,
    G_EVENT_ROWS,
    G_EVENT_BASE,
    G_CAPACITY,
    G_NCARDS,
    G_ZONES,
    G_PLAN,
    G_ACTIONS,
    G_COUNTERS,
    G_SCRATCH,
    G_PENDING,
    G_PENDING_A,
    G_PENDING_B,
    G_PENDING_C,
    G_LAST_TURN,
    G_PLANNED,
) = range(4, 25)
"""G_ACTIVE: the side whose turn it is, so whose decision is open (set by `start_turn`; `legal_actions` and `apply`
read it). G_NCARDS: the card count, which the counters block's layout needs. G_PENDING: the decision an action left
open (PENDING_NONE, or the kind of the action waiting for its target: A_SUMMON, A_EQUIP); G_PENDING_A..C: what that
action needs to finish (the summoned unit's id; the Equip card's hand index, host side and host). G_LAST_TURN: the
last turn a match plays (the option `turn_cap`, set by `new_state` and `open_match`): when it ends, the match is a
draw. A search's rollout lowers it in its copy to cut the rollout off (`search.rollout`): no rule learns of a
search. G_PLANNED: which hand card the sacrifice plan in `st` was made for (`planned_key`, or NO_PLAN): `can_pay`
sets it, and the next `apply_of` pays a card on that plan when it is the one (the board has not changed since:
nothing changes it between a policy's listing and its row being taken), then forgets it."""
SIDES_BASE = 25
(
    S_SHIELD,
    S_STANDARD,
    S_BURNING,
    S_EVERFLAME,
    S_PLAGUE,
    S_DECK_TOP,
    S_DECK_LEN,
    S_HAND,
    S_TRAPS,
    S_UNITS,
    S_SUMMONS,
    S_ROW0,
    S_ROW1,
    S_ROW2,
    S_POLICY,
) = int64_constants(0, 15)
"""S_POLICY: the first word of the side's policy block (`workbench.play.policies`: code, parameter, own generator), the
last of the side's fields (`policy_of`)."""
SIDE_FIELDS = int(S_POLICY) + POLICY_WORDS
"""Words per side: the named fields, the policy block taking POLICY_WORDS from S_POLICY on."""
BOARD_BASE = SIDES_BASE + 2 * SIDE_FIELDS
(
    U_CARD,
    U_ROW,
    U_DAMAGE,
    U_USED,
    U_ATK_BONUS,
    U_DEF_BONUS,
    U_TEMP_ATK,
    U_ELEMENTS,
    U_SUMMONED,
    U_ID,
    U_ACTED,
    U_REACTED,
    U_DIRECT,
) = int64_constants(0, 13)
"""U_ACTED: its once-per-turn effect was activated this turn (that does not use the card); U_REACTED: one of its
Trigger effects fired this turn (a monster reacts once a turn); U_DIRECT: what its direct attacks deal (1 unless its
card's or its latest equipment's `direct N` says otherwise)."""
UNIT_FIELDS = 13
ZONES_BASE = BOARD_BASE + 2 * MAX_UNITS * UNIT_FIELDS
Z_DECK, Z_HAND, Z_TRAPS = int64_constants(0, 3)
PERMANENT = np.int64(1 << 30)
"""Turns left on a status that never ends."""

TAKEN = 1 << 50
UNAVAILABLE = 1 << 51
"""Sacrifice-plan marks: chosen, and not a candidate (the card being played); both above any worth."""

# Combo statuses.
COMBO_NONE, BURNING, EXPLOSION, EVERFLAME, POISON, PLAGUE = int64_constants(-1, 5)
COMBO_NAMES = ("Burning", "Explosion", "Everflame", "Poison", "Plague")
FIRE, OIL, MIASMA, CURSE = 0, 1, 2, 3

# Trace events: (turn, player, code, card, other, amount).
(
    EV_TURN,
    EV_DRAW,
    EV_DECK_EMPTY,
    EV_SUMMON,
    EV_SACRIFICE,
    EV_DISCARD,
    EV_CAST,
    EV_EQUIP,
    EV_SET_TRAP,
    EV_TRAP,
    EV_ATTACK,
    EV_DIRECT,
    EV_EFFECT_DAMAGE,
    EV_DESTROYED,
    EV_SUPPORT,
    EV_MOVE,
    EV_ELEMENT,
    EV_COMBO,
    EV_STATUS_DAMAGE,
    EV_SHIELD,
    EV_FIELD_DAMAGE,
    EV_NO_TARGET,
    EV_FIZZLE,
    EV_ACTIVATE,
    EV_REACT,
) = int64_constants(0, 25)

# Action kinds: column 0 of an action row (kind, a, b, c).
A_SUMMON, A_CAST, A_EQUIP, A_TRAP, A_ATTACK, A_SUPPORT, A_MOVE, A_ACTIVATE, A_TARGET, A_END = int64_constants(0, 10)
"""Rows: summon (hand index, row, 0), cast (hand index, target or -1, 0), equip (hand index, host side, host), set a
trap (hand index, 0, 0), attack (unit, target or -1 for the player, 0), Support (unit, supported unit, 0), move (unit,
row, 0), activate (unit, target or -1, timing), the answer to an open target (target, 0, 0), and "end the turn"
(0, 0, 0), always legal while no target is open and listed last."""
ALL_ACTIONS = np.int64((1 << 10) - 1)
"""Every kind, as the bit mask `legal_actions_of` takes (bit 1 << A_*)."""
PENDING_NONE = -1
"""No decision is open (G_PENDING)."""
NO_PLAN = -1
"""No card's sacrifice plan is kept (G_PLANNED)."""
NONE = np.int64(-1)
"""-1 passed to a kernel: no card, unit, target or winner (a trace row's empty word)."""
ZERO = np.int64(0)
"""0 passed to a kernel: an action row's or a trace row's unused word, the first index."""
ONE = np.int64(1)
"""1 passed to a kernel: one point of damage or shield."""
POISON_DAMAGE = np.int64(2)
"""Poison (oil + miasma): 2 damage to the player's shield."""
SIDE_A, SIDE_B = int64_constants(0, 2)
PLAN_FIELD, PLAN_HAND = int64_constants(0, 2)
"""The sacrifice plan's first two words: how many field and how many hand sacrifices (`px`)."""
ANY_TARGET = np.bool_(True)
"""`greedy_spell_target`'s any_target: pick the best card even when it does not destroy one."""
PLANNED = np.bool_(True)
"""A paying action's `planned` (`take_and_pay`): the sacrifice plan in `st` is the one `can_pay` left for this very
card on this board (`apply_of` finds G_PLANNED is this card's), so it is not made again."""
UNPLANNED = np.bool_(False)
"""A paying action's `planned`: the plan is made anew for the card."""


# ---------------------------------------------------------------------------------------------------------------
# Where things are in `G` and `st` (tiny functions: LLVM inlines them)


@rules_kernel
def opt(G: IntArray, key: EngineInt) -> int:
    """An option's integer value."""
    return G[OPTS_BASE + key]


@rules_kernel
def cv(G: IntArray, card: EngineInt, column: EngineInt) -> int:
    """A card-table value."""
    return G[TABLE_BASE + card * CARD_COLUMNS + column]


@rules_kernel
def fx_opcode(G: IntArray, card: EngineInt, i: EngineInt) -> int:
    """The card's i-th effect opcode (-1: none)."""
    return G[G[GD_FX] + (card * MAX_EFFECTS + i) * 3]


@rules_kernel
def fx_argument(G: IntArray, card: EngineInt, i: EngineInt) -> int:
    """The card's i-th effect argument."""
    return G[G[GD_FX] + (card * MAX_EFFECTS + i) * 3 + 1]


@rules_kernel
def fx_timing(G: IntArray, card: EngineInt, i: EngineInt) -> int:
    """When the card's i-th effect is activated (T_PLAIN, T_USE, T_SUMMON; always T_PLAIN off a monster)."""
    return G[G[GD_FX] + (card * MAX_EFFECTS + i) * 3 + 2]


@rules_kernel
def tv(G: IntArray, card: EngineInt, timing: EngineInt, field: EngineInt) -> int:
    """A monster's effect total for one timing (TV_DAMAGE, TV_DRAW, TV_SHIELD, TV_APPLIES)."""
    return G[TABLE_BASE + card * CARD_COLUMNS + C_TIMED + timing * 4 + field]


@rules_kernel
def sx(side: EngineInt, field: EngineInt) -> EngineInt:
    """Index of a side field in `st`."""
    return SIDES_BASE + side * SIDE_FIELDS + field


@inline_kernel
def policy_of(st: IntArray, side: EngineInt) -> IntArray:
    """The side's policy block (`workbench.play.policies`: POLICY_WORDS words from S_POLICY): a view of `st`."""
    at = sx(side, S_POLICY)
    return st[at : at + POLICY_WORDS]


@inline_kernel
def match_rng(st: IntArray) -> IntArray:
    """The match's generator words, st[0:4]: a view of `st` (what a policy door trades with the policy's own, and
    what a sampled world is dealt from, `rollout_world`)."""
    return st[0:4]


@rules_kernel
def ux(side: EngineInt, u: EngineInt, field: EngineInt) -> EngineInt:
    """Index of a unit field in `st`."""
    return BOARD_BASE + (side * MAX_UNITS + u) * UNIT_FIELDS + field


@rules_kernel
def zx(st: IntArray, side: EngineInt, zone: EngineInt, i: EngineInt) -> int:
    """Index of the i-th card of a zone (deck, hand, traps) in `st`."""
    return st[G_ZONES] + (side * 3 + zone) * st[G_CAPACITY] + i


@rules_kernel
def px(st: IntArray, i: EngineInt) -> int:
    """Index of the i-th word of the sacrifice plan in `st`."""
    return st[G_PLAN] + i


@rules_kernel
def count(st: IntArray, side: EngineInt, card: EngineInt, counter: EngineInt) -> None:
    """Add one to a per-card counter."""
    st[st[G_COUNTERS] + (side * st[G_NCARDS] + card) * N_COUNTERS + counter] += 1


@rules_kernel
def count_drawn(st: IntArray, side: EngineInt, card: EngineInt) -> None:
    """Count a draw: `drawn`, and `matches_drawn` at the match's first draw of the card (as `engines.count_draw`)."""
    base = st[G_COUNTERS] + (side * st[G_NCARDS] + card) * N_COUNTERS
    st[base + DRAWN] += 1
    stamp = st[st[G_COUNTERS] + THIS_MATCH] + 1
    if st[base + LAST_MATCH_DRAWN] != stamp:
        st[base + LAST_MATCH_DRAWN] = stamp
        st[base + MATCHES_DRAWN] += 1


@rules_kernel
def count_played(st: IntArray, side: EngineInt, card: EngineInt) -> None:
    """Count a play (summon, cast, equip, set trap) in this turn: `played`, and at the match's first play of the
    card `matches_played` and the turn in `first_played_turn` (as `engines.count_play`)."""
    base = st[G_COUNTERS] + (side * st[G_NCARDS] + card) * N_COUNTERS
    st[base + PLAYED] += 1
    stamp = st[st[G_COUNTERS] + THIS_MATCH] + 1
    if st[base + LAST_MATCH_PLAYED] != stamp:
        st[base + LAST_MATCH_PLAYED] = stamp
        st[base + MATCHES_PLAYED] += 1
        st[base + FIRST_PLAYED_TURN] += st[G_TURN]
        st[base + FIRST_TURN_THIS_MATCH] = st[G_TURN]
        head = st[G_COUNTERS] + side * st[G_NCARDS] * N_COUNTERS + FIRST_PLAYED
        st[base + NEXT_PLAYED] = st[head]
        st[head] = card + 1


@rules_kernel
def end_match_counted(st: IntArray) -> None:
    """At a match's end, count its last turn for every card each side played (as `engines.end_match_counters`,
    two turns to a round) and empty the lists of cards played."""
    if st[G_NCARDS] == 0:
        return
    last_turn = st[G_TURN]
    for side in range(2):
        head = st[G_COUNTERS] + side * st[G_NCARDS] * N_COUNTERS + FIRST_PLAYED
        link = st[head]
        while link > 0:
            base = st[G_COUNTERS] + (side * st[G_NCARDS] + link - 1) * N_COUNTERS
            st[base + PLAYED_MATCH_TURNS] += last_turn
            if last_turn - st[base + FIRST_TURN_THIS_MATCH] >= 2:
                st[base + MATCHES_PLAYED_WITH_A_ROUND_LEFT] += 1
            link = st[base + NEXT_PLAYED]
        st[head] = 0


@rules_kernel
def count_damage(st: IntArray, side: EngineInt, card: EngineInt, amount: EngineInt) -> None:
    """Add to a card's damage-dealt counter."""
    st[st[G_COUNTERS] + (side * st[G_NCARDS] + card) * N_COUNTERS + DAMAGE_DEALT] += amount


@rules_kernel
def log(st: IntArray, player: EngineInt, code: EngineInt, card: EngineInt, other: EngineInt, amount: EngineInt) -> None:
    """Append a trace event (turn, player, code, card, other, amount) when tracing; a no-op otherwise."""
    n = st[G_EVENTS]
    if n < st[G_EVENT_ROWS]:
        base = st[G_EVENT_BASE] + n * EVENT_WIDTH
        st[base] = st[G_TURN]
        st[base + 1] = player
        st[base + 2] = code
        st[base + 3] = card
        st[base + 4] = other
        st[base + 5] = amount
        st[G_EVENTS] = n + 1


@rules_kernel
def plan_size(capacity: EngineInt) -> EngineInt:
    """Sacrifice-plan words: counts and picks, then as many taken-flags."""
    return 2 * (2 + MAX_UNITS + capacity)


TURN_WORDS = 7
"""The policies' words that last a turn, at the end of the scratch area (`scratch_size`): where a policy that plays
its turn in steps is up to (greedy's phase, random's count of actions; `policies.turn_words`)."""


@rules_kernel
def scratch_size(capacity: EngineInt) -> EngineInt:
    """The policies' scratch words (the rules never touch them): room for greedy's sorted worths (3 words per unit
    and hand card, and one), then one flag per hand card or unit, then the TURN_WORDS."""
    return 4 * (MAX_UNITS + capacity) + 2 + TURN_WORDS


def game_data(compiled: CompiledCards) -> IntArray:
    """The game data `G` every kernel reading a card, an effect or an option takes: a header (GD_*), the options in
    ENGINE_OPTION_ORDER, the card table, the effect opcodes. Read only: one per batch, shared by all its states."""
    cards = len(compiled.names)
    fx_at = TABLE_BASE + cards * CARD_COLUMNS
    G = np.zeros(fx_at + cards * MAX_EFFECTS * 3, dtype=np.int64)
    G[GD_CARDS] = cards
    G[GD_FX] = fx_at
    G[OPTS_BASE:TABLE_BASE] = compiled.options
    G[TABLE_BASE:fx_at] = compiled.table.ravel()
    G[fx_at:] = compiled.extra["fx"].ravel()
    return G


def new_state(compiled: CompiledCards, capacity: int, event_rows: int = 0) -> IntArray:
    """A fresh match state `st` for the compiled cards (its counters have a row per card), for decks of up to
    `capacity` cards; the cards and options themselves are in `G` (`game_data`)."""
    cards = len(compiled.names)
    capacity = max(capacity, MAX_TRAP_SLOTS, 1)
    offsets = {}
    position: EngineInt = ZONES_BASE  # plan_size, a kernel, returns an EngineInt
    for field, size in (
        (G_ZONES, 2 * 3 * capacity),
        (G_PLAN, plan_size(capacity)),
        (G_SCRATCH, scratch_size(capacity)),
        (G_ACTIONS, MAX_ACTIONS * 4),
        (G_COUNTERS, 2 * cards * N_COUNTERS),
        (G_EVENT_BASE, event_rows * EVENT_WIDTH),
    ):
        offsets[field] = position
        position += size
    st = np.zeros(position, dtype=np.int64)
    for field, offset in offsets.items():
        st[field] = offset
    st[G_CAPACITY] = capacity
    st[G_NCARDS] = cards
    st[G_EVENT_ROWS] = event_rows
    st[G_PENDING] = PENDING_NONE
    st[G_PLANNED] = NO_PLAN
    st[G_LAST_TURN] = compiled.options[O_TURN_CAP]
    return st


@rules_kernel
def reset_state(st: IntArray) -> None:
    """Clear the match (not the counters) for a new one: empty board, full shields, no statuses."""
    for side in range(2):
        for u in range(MAX_UNITS):
            st[ux(side, u, U_CARD)] = -1
        for f in range(SIDE_FIELDS):
            st[sx(side, f)] = 0
        st[sx(side, S_SHIELD)] = SHIELD_POINTS
        st[sx(side, S_STANDARD)] = -1
    st[G_TURN] = 0
    st[G_OVER] = 0
    st[G_WINNER] = -1
    st[G_NEXT_ID] = 0
    st[G_ACTIVE] = 0
    st[G_PENDING] = PENDING_NONE
    st[G_PLANNED] = NO_PLAN


@rules_kernel
def end_match(st: IntArray, winner: EngineInt) -> None:
    """Finish the match (the first result stands; -1 is a draw)."""
    if st[G_OVER] == 0:
        st[G_OVER] = 1
        st[G_WINNER] = winner
