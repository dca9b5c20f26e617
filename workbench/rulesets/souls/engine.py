"""The souls match engine: flat integer state, effect opcodes, one compiled kernel per batch.

Pure: numpy and numba only. The validated cards are compiled once into an
integer card table (one row per card, `C_*` columns) and an effect-opcode
table (`fx[card, i] = (opcode, argument)`, opcodes from `effects.py`).

The game data and the match state are one int64 buffer each. `G` (`game_data`)
holds what never changes during a batch: a header (GD_*), the rule options, the
card table and the opcode table; every kernel that reads a card, an effect or
an option takes it first. `st` holds the match, at offsets kept in its own
header:

- the xorshift words (st[0:4], so the shared generator draws from it directly)
  and the game fields (turn, result, the side whose turn it is, offsets, the
  decision an action left open);
- both sides, the board, the zones (deck, hand, set traps), the rules' scratch
  plan for sacrifices, the policies' scratch words and the action list;
- the batch's per-card counters and, when tracing, the event rows.

Every kernel is a `rules_kernel` (compiled without Numba's reference counting:
none allocates), because Numba otherwise reference-counts each array argument,
atomically, on every call it does not inline, and with a dozen arrays per call
that bookkeeping cost more than the game itself (the figures of each step:
docs/rulesets/souls.md, Speed); so `G` and `st` are two arrays, not a dozen.
`MatchArrays` holds `G` and gives numpy views of `st` (board[side, unit, U_*],
sides[side, S_*], zones[side, Z_*, i], counters[side, card, counter], events)
for tests and traces. Every rule is a small kernel (`draw_cards`, `summon`,
`attack`, `support`, `move_unit`, `cast_spell`, `equip`, `activate`,
`set_trap`, `react`, `apply_element`, `tick_statuses`, `start_turn`,
`end_turn`), so a scenario sets up a board and calls one rule.

The engine keeps the engine contract (docs/simulation.md, *The engine
contract*; as pgx and OpenSpiel): the rules meet the policies at four kernels,
`legal_actions(G, st, out) -> n` (every legal action of the side whose
decision is open, st[G_ACTIVE], as a row (kind, a, b, c) written at word `out`
of `st`), `apply(G, st, row)` (one row, for that side), `clone(st, into)` and
`determinize(G, st, side, rng)` (what `side` cannot see dealt anew from the
generator `rng`); the policies, which play a side they are given, list and
apply through `legal_actions_of` and `apply_of`, the same kernels with the side
explicit. Chance in a match comes only from st's own generator (`determinize`
deals from the one it is given). An action whose damage
target is still open (a summon Trigger's, an Equip card's) leaves a decision in
`st` that the next `legal_actions` lists. The policies, in one section apart
from the rules, choose among the listed rows: `greedy` (curve out, trade well,
go face when lethal: each of its phases works out the one row it wants with the
tests the listing makes, and takes it by the rule `apply` calls for that row),
`random` (a uniformly random row, or "end turn") and `search` (determinized
Monte Carlo over the rows by successive halving, its rollouts played in a clone
of `st` and cut off by an evaluation: the section "The search policy"), and
`epsilon:E` (`workbench.policies`: each turn random with probability E, greedy
otherwise; `take_turn` is the door). Randomness comes only from the xorshift
words seeded per match (the search's and an epsilon side's own generators are
seeded from the match's seed), and all arithmetic stays in
small int64 ranges, so the same code runs under `NUMBA_DISABLE_JIT=1`.

The readings of everything the document leaves open are rule options
(`options.py`); `ENGINE_OPTION_ORDER` lists the ones the kernel reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np

from workbench.cards import CardSet, Finding, OptionValue, WorkbenchInputError
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
    MAX_TRACE_EVENTS,
    NEXT_PLAYED,
    PLAYED,
    PLAYED_MATCH_TURNS,
    THIS_MATCH,
    BatchRun,
    CompiledCards,
    Engine,
    EngineBool,
    EngineInt,
    IntArray,
    batch_and_trace,
    inline_kernel,
    published_counters,
    rng_below,
    rng_seed,
    rules_kernel,
    shuffle_in_place,
)
from workbench.policies import (
    GREEDY,
    P_CODE,
    POLICY_NAMES,
    POLICY_WORDS,
    SEARCH,
    plays_random,
    random_played,
    start_policy,
)
from workbench.rulesets.souls import effects as effect_vocabulary
from workbench.rulesets.souls.cards import SoulsCard
from workbench.rulesets.souls.costs import attack_range, has_ability
from workbench.rulesets.souls.effects import (
    ELEMENTS,
    OP_APPLY,
    OP_ATK,
    OP_DAMAGE,
    OP_DEF,
    OP_DRAW,
    OP_SHIELD,
    TIMINGS,
    Effect,
    as_played,
    direct_amount,
    parse_effects,
    uncovered_for_kind,
)
from workbench.search_kernels import (
    DRAW_POINTS,
    WIN_POINTS,
    halving_search,
    position_points,
)

ENGINE_VERSION = "6"


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
"""A random turn ends after this many actions (it ends sooner: every action spends a card or a use)."""
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
_CHOICE_CODES: dict[str, tuple[str, ...]] = {
    "empty_deck": ("skip", "lose"),
    "sacrifice_from": ("either", "field", "hand"),
    "direct_attack": ("always", "reach"),
    "destroy_when": ("reaches", "exceeds"),
    "unlisted_combo": ("replace", "keep"),
    "status_ticks": ("own_turn", "every_turn"),
    "search_rollout_policy": ("greedy", "random"),  # by index: GREEDY, RANDOM (workbench.policies)
}
_RANGES: dict[str, tuple[int, int]] = {
    "hand_size": (0, 60),
    "draw_per_turn": (0, 10),
    "turn_cap": (1, 10_000),
    "row_slots": (1, MAX_ROW_SLOTS),
    "summons_per_turn": (0, 99),
    "burning_turns": (0, 99),
    "trap_slots": (1, MAX_TRAP_SLOTS),
    "search_rollouts": (1, 1_000),
    "search_depth": (0, 10_000),
}

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
) = range(4, 23)
"""G_ACTIVE: the side whose turn it is, so whose decision is open (set by `start_turn`; `legal_actions` and `apply`
read it). G_NCARDS: the card count, which the counters block's layout needs. G_PENDING: the decision an action left
open (PENDING_NONE, or the kind of the action waiting for its target: A_SUMMON, A_EQUIP); G_PENDING_A..C: what that
action needs to finish (the summoned unit's id; the Equip card's hand index, host side and host)."""
SIDES_BASE = 23
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
"""S_POLICY: the first word of the side's policy block (`workbench.policies`: code, parameter, own generator), the
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
A_SUMMON, A_CAST, A_EQUIP, A_TRAP, A_ATTACK, A_SUPPORT, A_MOVE, A_ACTIVATE, A_TARGET = int64_constants(0, 9)
"""Rows: summon (hand index, row, 0), cast (hand index, target or -1, 0), equip (hand index, host side, host), set a
trap (hand index, 0, 0), attack (unit, target or -1 for the player, 0), Support (unit, supported unit, 0), move (unit,
row, 0), activate (unit, target or -1, timing), and the answer to an open target (target, 0, 0)."""
ALL_ACTIONS = np.int64((1 << 9) - 1)
"""Every kind, as the bit mask `legal_actions_of` takes (bit 1 << A_*)."""
PENDING_NONE = -1
"""No decision is open (G_PENDING)."""
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


# ---------------------------------------------------------------------------------------------------------------
# Compiling the card set


def option_codes(options: Mapping[str, OptionValue]) -> IntArray:
    """The engine's options as integers in ENGINE_OPTION_ORDER (choices by index; out-of-range numbers refused)."""
    codes: list[int] = []
    for key in ENGINE_OPTION_ORDER:
        value = options[key]
        if key in _CHOICE_CODES:
            codes.append(_CHOICE_CODES[key].index(str(value)))
            continue
        number = int(value)
        low, high = _RANGES.get(key, (0, 1))
        if not low <= number <= high:
            raise WorkbenchInputError(
                f"option '{key}' is {number}, outside what the souls engine plays.", expected=f"{low} to {high}"
            )
        codes.append(number)
    return np.asarray(codes, dtype=np.int64)


def compile_cards(cardset: CardSet, options: Mapping[str, OptionValue]) -> CompiledCards:
    """The validated cards as the kernel's integer table and opcode table; uncovered effects become info findings."""
    cards = [cast(SoulsCard, entry.card) for entry in cardset]
    table = np.zeros((len(cards), CARD_COLUMNS), dtype=np.int64)
    fx = np.full((len(cards), MAX_EFFECTS, 3), -1, dtype=np.int64)
    findings: list[Finding] = []
    for index, (entry, card) in enumerate(zip(cardset, cards, strict=False)):
        equips = has_ability(card.abilities, "equip")
        effects, unknown = parse_effects(card.effects)
        uncovered = uncovered_for_kind(effects, card.kind, equips)
        kept = [effect for effect in effects if effect not in uncovered]
        if card.element is not None and not any(effect.opcode == OP_APPLY for effect in kept):
            # The element column says what the card applies; without an `apply` effect it is the card's element (on
            # a trap, with its first effect's Trigger).
            timing = kept[0].timing if card.kind == "trap" and kept else effect_vocabulary.T_PLAIN
            kept.insert(0, Effect(OP_APPLY, ELEMENTS.index(card.element), f"apply {card.element}", timing))
        kept = [as_played(effect, card.kind) for effect in kept]
        dropped = unknown + [effect.text for effect in uncovered] + [effect.text for effect in kept[MAX_EFFECTS:]]
        if dropped:
            findings.append(
                cardset.finding(
                    "info",
                    "souls.effect_not_simulated",
                    f"simulated without {', '.join(repr(text) for text in dropped)}: the souls engine does not cover "
                    f"it on a {card.kind}{' with Equip' if equips else ''}.",
                    entry,
                    "effects",
                    expected=(
                        "apply <element>; damage N; draw N; shield +N; atk +N / def +N (Equip only); "
                        "direct N (monster or Equip); use: or summon: before a monster's effect"
                    ),
                    actual="; ".join(dropped),
                )
            )
        kept = kept[:MAX_EFFECTS]
        for slot, effect in enumerate(kept):
            fx[index, slot, 0] = effect.opcode
            fx[index, slot, 1] = effect.argument
            fx[index, slot, 2] = effect.timing
        can_attack = card.kind == "monster" and has_ability(card.abilities, "atk")
        row = table[index]
        row[C_KIND] = KINDS.index(card.kind)
        row[C_COST] = card.soul_cost
        row[C_ATK] = card.atk or 0
        row[C_DEF] = card.defense or 0
        row[C_CAN_ATTACK] = int(can_attack)
        row[C_RANGE] = attack_range(card.abilities) if can_attack else 0
        row[C_SUPPORT] = int(card.kind == "monster" and has_ability(card.abilities, "support"))
        row[C_MOBILE] = int(card.kind == "monster" and has_ability(card.abilities, "mobile"))
        row[C_EQUIP] = int(card.kind == "magic" and equips)
        row[C_EQUIP_ATK] = sum(e.argument for e in kept if e.opcode == OP_ATK)
        row[C_EQUIP_DEF] = sum(e.argument for e in kept if e.opcode == OP_DEF)
        row[C_DAMAGE] = sum(e.argument for e in kept if e.opcode == OP_DAMAGE)
        row[C_DRAW] = sum(e.argument for e in kept if e.opcode == OP_DRAW)
        row[C_SHIELD] = sum(e.argument for e in kept if e.opcode == OP_SHIELD)
        row[C_DIRECT] = direct_amount(kept)
        # What the card's attacks (or its play, for magic and traps) apply: a monster's prefixed `apply` is not here.
        row[C_APPLIES] = sum(
            1 << element for element in {e.argument for e in kept if e.opcode == OP_APPLY and e.timing == T_PLAIN}
        )
        if card.kind in ("monster", "trap"):
            for timing in range(TIMINGS):
                timed = [e for e in kept[:MAX_EFFECTS] if e.timing == timing]
                base = C_TIMED + timing * 4
                row[base + TV_DAMAGE] = sum(e.argument for e in timed if e.opcode == OP_DAMAGE)
                row[base + TV_DRAW] = sum(e.argument for e in timed if e.opcode == OP_DRAW)
                row[base + TV_SHIELD] = sum(e.argument for e in timed if e.opcode == OP_SHIELD)
                if timing != T_PLAIN:
                    row[base + TV_APPLIES] = sum(1 << a for a in {e.argument for e in timed if e.opcode == OP_APPLY})
                if (
                    row[base + TV_DAMAGE] > 0
                    or row[base + TV_DRAW] != 0
                    or row[base + TV_SHIELD] != 0
                    or row[base + TV_APPLIES] != 0
                ):
                    row[C_REACTS] |= 1 << timing
        row[C_BONUS] = (
            BODY_VALUE
            + 2 * (max(int(row[C_RANGE]), 1) - 1)
            + 2 * row[C_SUPPORT]
            + row[C_MOBILE]
            + 3 * int(any(e.opcode == OP_APPLY for e in kept))
            + 2 * row[C_DRAW]
            + 2 * row[C_DAMAGE]
            + row[C_SHIELD]
            # A monster whose direct attacks deal N is worth 2 per point over the usual 1, as damage is.
            + (2 * (row[C_DIRECT] - 1) if card.kind == "monster" and row[C_DIRECT] >= 0 else 0)
        )
        row[C_VALUE] = row[C_ATK] + row[C_DEF] + row[C_BONUS] if card.kind == "monster" else SPELL_VALUE
    is_monster = table[:, C_KIND] == KIND_MONSTER
    codes = option_codes(options)
    return CompiledCards(
        names=tuple(card.name for card in cards),
        table=table,
        # The power curve's x axis is the soul cost of monsters; magic and traps are not measured on it.
        cost=np.where(is_monster, table[:, C_COST], np.nan).astype(np.float64),
        slot=np.where(is_monster, 0, 1).astype(np.int64),
        options=codes,
        findings=tuple(findings),
        extra={"fx": fx},
    )


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
    """The side's policy block (`workbench.policies`: POLICY_WORDS words from S_POLICY): a view of `st`."""
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


@rules_kernel
def scratch_size(capacity: EngineInt) -> EngineInt:
    """The policies' scratch words (the rules never touch them): room for greedy's sorted worths (3 words per unit
    and hand card, and one), then one flag per hand card or unit."""
    return 4 * (MAX_UNITS + capacity) + 2


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


@rules_kernel
def end_match(st: IntArray, winner: EngineInt) -> None:
    """Finish the match (the first result stands; -1 is a draw)."""
    if st[G_OVER] == 0:
        st[G_OVER] = 1
        st[G_WINNER] = winner


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
    card = st[zx(st, side, Z_HAND, index)]
    last = st[sx(side, S_HAND)] - 1
    for i in range(index, last):
        st[zx(st, side, Z_HAND, i)] = st[zx(st, side, Z_HAND, i + 1)]
    st[zx(st, side, Z_HAND, last)] = -1
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
    for h in range(n_hand):
        st[hand_values + h] = UNAVAILABLE if h == skip_hand else hand_sacrifice_worth(G, st[zx(st, side, Z_HAND, h)])
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
    n_field = 0
    for u in range(n_units):
        if st[unit_values + u] == TAKEN:
            st[px(st, 2 + n_field)] = u
            n_field += 1
    n_from_hand = 0
    for h in range(n_hand):
        if st[hand_values + h] == TAKEN:
            st[px(st, 2 + n_field + n_from_hand)] = h
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
    """Whether the hand card's soul cost can be paid (leaves the plan in `st`)."""
    cost = cv(G, st[zx(st, side, Z_HAND, hand_index)], C_COST)
    return plan_sacrifices(G, st, side, cost, hand_index) >= cost


@rules_kernel
def take_and_pay(G: IntArray, st: IntArray, side: EngineInt, hand_index: EngineInt) -> int:
    """Take the card out of the hand and pay its sacrifices (planned again on the remaining hand)."""
    card = take_from_hand(st, side, hand_index)
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
def summon(G: IntArray, st: IntArray, side: EngineInt, hand_index: EngineInt, row: EngineInt) -> EngineInt:
    """Summon the monster at `hand_index` onto `row`, sacrificing its soul cost; returns its unit index (-1: gone).

    When its summon Trigger deals damage and an opposing card is there to take it, the target is the player's
    decision: the summon stops there with that decision open (G_PENDING = A_SUMMON), and `legal_actions` lists the
    targets; `summon_resolves` finishes it. Otherwise it finishes now.
    """
    card = take_and_pay(G, st, side, hand_index)
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
        target_id = st[ux(foe, target, U_ID)] if target >= 0 else -1
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
    target_id = st[ux(foe, target, U_ID)] if target >= 0 else -1
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
def cast_spell(G: IntArray, st: IntArray, side: EngineInt, hand_index: EngineInt, target: EngineInt) -> None:
    """Play a magic card without Equip; its `damage N` hits the opposing unit `target` (-1: none)."""
    foe = 1 - side
    target_id = st[ux(foe, target, U_ID)] if target >= 0 else -1
    card = take_and_pay(G, st, side, hand_index)
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
    target_id = st[ux(foe, target, U_ID)] if target >= 0 else -1
    card = take_and_pay(G, st, side, hand_index)
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
def set_trap(G: IntArray, st: IntArray, side: EngineInt, hand_index: EngineInt) -> None:
    """Set a trap face down; it springs on its Trigger (`react`): an opposing attack unless its effects say
    otherwise."""
    card = take_and_pay(G, st, side, hand_index)
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
    target_id = st[ux(foe, target, U_ID)] if target >= 0 else -1
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
# through `legal_actions_of` and `apply_of` with the side it plays; `determinize` is with the search)


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
    return n


@rules_kernel
def legal_actions(G: IntArray, st: IntArray, out: EngineInt) -> EngineInt:
    """Every legal action of the side whose decision is open (st[G_ACTIVE], the side whose turn it is) now, as rows
    (kind, a, b, c) written at word `out` of `st` (the action list, st[G_ACTIONS], unless the caller keeps its own);
    returns how many. "End the turn" is always legal and is not a row: a policy ends its turn by returning. The
    policies, which play a side they are given, list through `legal_actions_of` with that side (the same rows: the
    side they play is the active one)."""
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


@rules_kernel
def apply_of(G: IntArray, st: IntArray, side: EngineInt, row: EngineInt) -> None:
    """`side` takes the action row at word `row` of `st` (one that `legal_actions_of` listed for it): summon, cast,
    equip, set a trap, attack, Support, move, activate, or answer the open decision. The policies take their rows
    here, with the side they play (the active one); `apply` is this for the active side.

    An action whose damage target is still to choose opens a decision instead of finishing (G_PENDING): a summon
    whose summon Trigger deals damage (the monster is in play, the Trigger waits), an Equip card with `damage N`
    (nothing happens until the target is chosen). The next `legal_actions` lists the targets, and the A_TARGET row
    chosen finishes the action. Chance (shuffles, draws) only ever comes from st's own generator, st[0:4].
    """
    kind = st[row]
    a = st[row + 1]
    b = st[row + 2]
    c = st[row + 3]
    if kind == A_ATTACK:  # the commonest row first
        attack(G, st, side, a, b)
    elif kind == A_TARGET:
        pending = st[G_PENDING]
        st[G_PENDING] = PENDING_NONE
        if pending == A_SUMMON:
            summon_resolves(G, st, side, st[G_PENDING_A], a)
        else:
            equip(G, st, side, st[G_PENDING_A], st[G_PENDING_B], st[G_PENDING_C], a)
    elif kind == A_SUMMON:
        summon(G, st, side, a, b)
    elif kind == A_TRAP:
        set_trap(G, st, side, a)
    elif kind == A_CAST:
        cast_spell(G, st, side, a, b)
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


@rules_kernel
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
# `activate`, `support`, `move_unit`: the same kernel with the same arguments, without `apply`'s call and dispatch),
# equipment through `apply_of` itself (its target is an open decision), and answers any decision left open through
# `legal_actions_of` and `apply_of`. The legality replay test checks every row taken either way against the list. The
# phases are inline kernels, copied into `greedy_turn`: one call per turn, not seven.


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
    i = 0
    while i < st[sx(side, S_HAND)] and st[G_OVER] == 0:
        card = st[zx(st, side, Z_HAND, i)]
        if greedy_wants_played(G, st, side, card):
            # Its one row, when `legal_actions` would list it (a trap slot free, its cost paid: the tests it lists
            # these rows by): a trap (i, 0, 0), a magic card with no target (i, -1, 0), taken by the rule `apply`
            # calls for it (`set_trap`, `cast_spell`; neither leaves a decision open).
            trap = cv(G, card, C_KIND) == KIND_TRAP
            if (not trap or st[sx(side, S_TRAPS)] < opt(G, O_TRAP_SLOTS)) and can_pay(G, st, side, i):
                if trap:
                    set_trap(G, st, side, i)
                else:
                    cast_spell(G, st, side, i, NONE)
                i = 0  # the hand changed (draws, sacrifices): look again from the start
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
    for i in range(n_units + n_hand):
        if i < n_units:
            value = unit_value(G, st, side, i)
            where = -1
        else:
            where = i - n_units
            value = hand_sacrifice_worth(G, st[zx(st, side, Z_HAND, where)])
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
    base = st[G_SCRATCH]
    while st[G_OVER] == 0 and (limit == 0 or st[sx(side, S_SUMMONS)] < limit):
        held = st[sx(side, S_HAND)]
        any_monster = False
        for h in range(held):
            if cv(G, st[zx(st, side, Z_HAND, h)], C_KIND) == KIND_MONSTER:
                any_monster = True
                break
        if not any_monster:
            return
        n = -1  # the sorted worths are made on first need: soul-cost-0 monsters need none
        prefix = base
        excluded = policy_flags(st)  # one flag per hand card: passed over, it has no summon row
        for h in range(held):
            st[excluded + h] = 0
        chosen = -1
        # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
        row: EngineInt
        row = -1
        for _ in range(held):
            best = -1
            best_gain = -(1 << 40)
            best_cost = 1 << 40
            for h in range(held):
                card = st[zx(st, side, Z_HAND, h)]
                if st[excluded + h] == 1 or cv(G, card, C_KIND) != KIND_MONSTER or card_value(G, card) < best_gain:
                    continue
                cost = cv(G, card, C_COST)
                sacrificed = 0
                if cost > 0:
                    if n < 0:
                        n = sorted_sacrifice_values(G, st, side)
                        prefix = base + 2 * n
                    position = -1
                    for k in range(n):
                        if st[base + 2 * k + 1] == h:
                            position = k
                            break
                    if cost > n - (1 if position >= 0 else 0):
                        continue
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
            st[excluded + best] = 1
        if chosen < 0:
            return
        # The row (A_SUMMON, chosen, row), taken by the rule `apply` calls for it; a target its summon Trigger leaves
        # open is answered as any other.
        summon(G, st, side, chosen, row)
        greedy_answer(G, st, side)


@inline_kernel
def greedy_equips(G: IntArray, st: IntArray, side: EngineInt) -> None:
    """Bonuses on your strongest attacker (def-only ones on your best card), penalties on the opponent's best: for
    each Equip card in hand order, the host it wants, taken when that row is listed."""
    foe = 1 - side
    out = st[G_ACTIONS]
    i = 0
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
        host = -1
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
            i = 0
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
    # The units in play now, by id: a reaction to an activation can destroy the activating unit (or, by Explosion,
    # others of the side), so each is found again before it acts.
    ids = policy_flags(st)
    n = st[sx(side, S_UNITS)]
    for i in range(n):
        st[ids + i] = st[ux(side, i, U_ID)]
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
    for u in range(st[sx(side, S_UNITS)]):
        if can_use(G, st, side, u) and can_attack_player(G, st, side, u):
            direct_ready += st[ux(side, u, U_DIRECT)]
    lethal = direct_ready >= st[sx(foe, S_SHIELD)] and traps_for(G, st, foe, T_FOE_ATTACKS) == 0
    sitting = policy_flags(st)  # the ids of attackers that found nothing in reach: they sit this turn out
    n_sitting = 0
    while st[G_OVER] == 0:
        u = -1
        best_atk = -1
        for w in range(st[sx(side, S_UNITS)]):
            if cv(G, st[ux(side, w, U_CARD)], C_CAN_ATTACK) == 1 and can_use(G, st, side, w):
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
    i = 0
    while i < st[sx(side, S_HAND)] and st[G_OVER] == 0:
        card = st[zx(st, side, Z_HAND, i)]
        if cv(G, card, C_KIND) == KIND_MAGIC and cv(G, card, C_EQUIP) == 0 and cv(G, card, C_DAMAGE) > 0:
            target = greedy_spell_target(G, st, foe, cv(G, card, C_DAMAGE), st[sx(side, S_HAND)] >= 7)
            # The row (A_CAST, i, target) is listed when the card can be paid: the target is an opposing card.
            if target >= 0 and can_pay(G, st, side, i):
                cast_spell(G, st, side, i, target)  # the rule `apply` calls for the row
                i = 0
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


# The search policy: determinized Monte Carlo over the legal actions of each step of its own turn, its rollouts
# shared out by successive halving and cut off with the game's own evaluation
#
# A `search` side's turn is a run of steps. At each step its candidates are every distinct row of `legal_actions`
# (a summon into its card's preferred row only, when that row has room) and "end the turn now", in that order
# (`search_candidates`: a tie goes to the first, so the search acts rather than ends its turn). The step's budget,
# `search_rollouts` rollouts per candidate, is spent by successive halving (`workbench.search_kernels`): ceil(log2 m)
# rounds, in each every surviving candidate gets the same number of rollouts and the worse half is dropped. A
# rollout: the state cloned into a work buffer, what the side cannot see dealt anew (`determinize`, once per sampled
# world for all candidates), the candidate taken, the rest of the turn and `search_depth` more turns (0: the rest of
# the match) played by `search_rollout_policy` for both sides, the position then scored by `search_evaluation`. In a
# round all candidates meet the same sampled worlds with the same later dice (common random numbers). The best
# survivor is taken: an action is played and the next step searched, until the turn's end is chosen or no action is
# left.

SR_RNG, SR_DECISIONS, SR_ROLLOUTS, SR_N, SR_CHOICE, SR_CAND = 0, 4, 5, 6, 7, 8
"""The search's words: its own xorshift generator (4 words), decisions searched and rollouts played (summed over
the batch), the last decision's candidate count and choice, then its candidates, their points, the rollouts each
was given, and the survivors' order (best first after the last round: its first word is the choice)."""
MAX_CANDIDATES = MAX_ACTIONS + 2
SR_POINTS = np.int64(SR_CAND + MAX_CANDIDATES)
"""Points per candidate of the last decision, summed over its rollouts: WIN_POINTS (2,000) a rollout won, DRAW_POINTS
(1,000) drawn, 0 lost, and a cut-off rollout its position's points (`search_evaluation`, `position_points`)."""
SR_TRIED = np.int64(SR_POINTS + MAX_CANDIDATES)
"""Rollouts each candidate of the last decision was given (candidates dropped early were given fewer)."""
SR_ORDER = np.int64(SR_TRIED + MAX_CANDIDATES)
"""The candidates still in, best first once ranked (successive halving's list, `search_kernels.halving_keep`)."""
SEARCH_WORDS = int(SR_ORDER + MAX_CANDIDATES)
CAND_END = -2
"""The candidate that is not an action row: the turn ends now."""
SEARCH_SEED = 0x5EA7C4
"""Mixed into the match's seed to seed the search's own generator (never the match's: that would foretell the
match's later draws)."""

EVAL_SHIELD = 80
"""What `search_evaluation` counts one shield point as worth, up to EVAL_SHIELD_CAP points, in tenths of greedy's worth
units (a monster's Atk + Def left + bonus, `unit_value`, counts 10 a point). The weights are a logistic fit of who went
on to win from the positions of greedy-against-greedy mirror matches (docs/rulesets/souls.md, *The search policy*)."""
EVAL_SHIELD_CAP = 5
"""Shield points above this many told nothing more about who wins, in the fit: the shield counts up to here."""
EVAL_BOARD = 10
"""A point of greedy worth of a monster in play (`unit_value`)."""
EVAL_HAND_MONSTER = 54
"""A monster card in hand, less EVAL_HAND_MONSTER_WORTH per point of its greedy worth (a big monster waits for
sacrifices), plus EVAL_HAND_FREE when it costs no sacrifice (it can be summoned at once)."""
EVAL_HAND_MONSTER_WORTH = 3
EVAL_HAND_FREE = 73
EVAL_HAND_SPELL = 26
"""A magic or trap card in hand."""
EVAL_TRAP_SET = 45
"""A trap set face down."""
EVAL_STATUS = 300
"""A status that strikes a side's shield at the start of every turn for the rest of the match (Burning, Everflame,
Plague) costs it this much."""
EVAL_HALF = 100
"""The advantage that scores three quarters of a win (`search_kernels.position_points`): in the fit an advantage of
about 100 (10 worth points) won three times in four."""


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
    pool = st[G_ACTIONS]  # the action list is free scratch in a rollout's buffer
    held = st[sx(foe, S_HAND)]
    traps = st[sx(foe, S_TRAPS)]
    top = st[sx(foe, S_DECK_TOP)]
    length = st[sx(foe, S_DECK_LEN)]
    n = 0
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
    placed = 0
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


@rules_kernel
def search_side_worth(G: IntArray, st: IntArray, side: EngineInt) -> int:
    """One side's worth in `search_evaluation` (EVAL_* weights): its shield points (up to EVAL_SHIELD_CAP), the greedy
    worth of its monsters in play (Atk + Def left + bonus), its cards in hand (a monster by what it costs and is
    worth) and traps set, less what its statuses will take from its shield."""
    shield = st[sx(side, S_SHIELD)]
    worth = EVAL_SHIELD * min(shield, EVAL_SHIELD_CAP) + EVAL_TRAP_SET * st[sx(side, S_TRAPS)]
    for u in range(st[sx(side, S_UNITS)]):
        worth += EVAL_BOARD * unit_value(G, st, side, u)
    for i in range(st[sx(side, S_HAND)]):
        card = st[zx(st, side, Z_HAND, i)]
        if cv(G, card, C_KIND) == KIND_MONSTER:
            worth += EVAL_HAND_MONSTER - EVAL_HAND_MONSTER_WORTH * cv(G, card, C_VALUE)
            if cv(G, card, C_COST) == 0:
                worth += EVAL_HAND_FREE
        else:
            worth += EVAL_HAND_SPELL
    if st[sx(side, S_BURNING)] > 0:
        worth -= EVAL_STATUS
    if st[sx(side, S_EVERFLAME)] > 0:
        worth -= EVAL_STATUS
    if st[sx(side, S_PLAGUE)] > 0:
        worth -= EVAL_STATUS
    return worth


@rules_kernel
def search_evaluation(G: IntArray, st: IntArray, side: EngineInt) -> EngineInt:
    """A rollout's points for `side` when it is cut off before the match ends: the difference of the two sides'
    worth (`search_side_worth`), squashed into (0, WIN_POINTS) by `position_points`; WIN_POINTS, DRAW_POINTS or 0
    once the match is over."""
    if st[G_OVER] == 1:
        if st[G_WINNER] == side:
            return WIN_POINTS
        return DRAW_POINTS if st[G_WINNER] == -1 else 0
    advantage = search_side_worth(G, st, side) - search_side_worth(G, st, 1 - side)
    return position_points(advantage, EVAL_HALF)


@rules_kernel
def rollout_world(G: IntArray, st: IntArray, world: IntArray, side: EngineInt, seed: EngineInt) -> None:
    """One sampled world for a round of rollouts: `st` cloned into `world`, what `side` cannot see dealt anew from
    `seed`. Every candidate's rollout starts from a copy of it."""
    clone(st, world)
    # Dealt from the world's own dice words, seeded here (a rollout seeds its own again): the draws of the search as
    # it was when determinize drew from the state's generator.
    rng_seed(world, seed)
    determinize(G, world, side, match_rng(world))


@rules_kernel
def rollout(
    G: IntArray,
    st: IntArray,
    world: IntArray,
    work: IntArray,
    search: IntArray,
    side: EngineInt,
    k: EngineInt,
    dice: EngineInt,
) -> EngineInt:
    """One rollout of candidate k for `side` in the sampled `world` (`rollout_world`), played in `work` with the later
    dice from seed `dice`: the candidate, the rest of the turn, then `search_depth` more turns (0: to the match's
    end); its points (`search_evaluation`)."""
    clone(world, work)
    rng_seed(work, dice)
    policy = opt(G, O_SEARCH_POLICY)
    # The rollouts' policy plays both sides: each block's code word (greedy or random draw nothing of their own).
    policy_of(work, SIDE_A)[P_CODE] = policy
    policy_of(work, SIDE_B)[P_CODE] = policy
    candidate = search[SR_CAND + k]
    if candidate >= 0:
        # The candidate's row, copied into the rollout's own action list, taken there; a target it leaves open is
        # greedy's; then the rest of the turn by the rollouts' policy.
        base = st[G_ACTIONS] + candidate * 4
        row = work[G_ACTIONS]
        for j in range(4):
            work[row + j] = st[base + j]
        apply_of(G, work, side, row)
        greedy_answer(G, work, side)
        if work[G_OVER] == 0:
            if policy == GREEDY:
                greedy_turn(G, work, side)
            else:
                random_turn(G, work, side)
    end_turn(G, work, side)
    turn_of = 1 - side
    depth = opt(G, O_SEARCH_DEPTH)
    turns = 0
    while work[G_OVER] == 0:
        if work[G_TURN] >= opt(G, O_TURN_CAP):
            end_match(work, NONE)
            break
        if depth > 0 and turns >= depth:
            break
        take_turn(G, work, turn_of)
        turn_of = 1 - turn_of
        turns += 1
    return search_evaluation(G, work, side)


@rules_kernel
def same_action(st: IntArray, side: EngineInt, i: EngineInt, j: EngineInt) -> bool:
    """Whether action rows i and j do the same thing: equal rows, or the same card from two places in the hand."""
    first = st[G_ACTIONS] + i * 4
    second = st[G_ACTIONS] + j * 4
    kind = st[first]
    if kind != st[second] or st[first + 2] != st[second + 2] or st[first + 3] != st[second + 3]:
        return False
    if kind == A_SUMMON or kind == A_CAST or kind == A_EQUIP or kind == A_TRAP:
        return st[zx(st, side, Z_HAND, st[first + 1])] == st[zx(st, side, Z_HAND, st[second + 1])]
    return st[first + 1] == st[second + 1]


@rules_kernel
def summon_elsewhere(G: IntArray, st: IntArray, side: EngineInt, i: EngineInt, n: EngineInt) -> bool:
    """Whether listed row i is a summon into another row than its card's preferred one (greedy's: short-range
    attackers in front, Ranged X at row X-1, cards that never attack behind) while a summon of the same card into the
    preferred row is listed among the n rows too: the search leaves it out."""
    out = st[G_ACTIONS]
    if st[out + 4 * i] != A_SUMMON:
        return False
    card = st[zx(st, side, Z_HAND, st[out + 4 * i + 1])]
    wanted = preferred_row(G, card)
    if st[out + 4 * i + 2] == wanted:
        return False
    for j in range(n):
        row = out + 4 * j
        if st[row] == A_SUMMON and st[row + 2] == wanted and st[zx(st, side, Z_HAND, st[row + 1])] == card:
            return True
    return False


@rules_kernel
def search_candidates(G: IntArray, st: IntArray, search: IntArray, side: EngineInt) -> int:
    """List a step's candidates in the search's words and return how many: each distinct legal action (the same card
    from two places in the hand is one; a summon only into its card's preferred row when that row has room,
    `summon_elsewhere`), in the order `legal_actions` lists them (into st's action list), then "end the turn now".
    Lower numbers win ties, so on a tie the search acts rather than ends its turn."""
    n = legal_actions_of(G, st, side, st[G_ACTIONS], ALL_ACTIONS, NONE)
    m = 0
    for i in range(n):
        if summon_elsewhere(G, st, side, i, n):
            continue
        repeated = False
        for j in range(m):
            if same_action(st, side, i, search[SR_CAND + j]):
                repeated = True
                break
        if not repeated:
            search[SR_CAND + m] = i
            m += 1
    search[SR_CAND + m] = CAND_END
    return m + 1


@inline_kernel
def context_world(context: Any, seed: EngineInt) -> None:
    """`halving_search`'s world dealer: `rollout_world` into the context's world buffer."""
    G, st, world, _play, _search, side = context
    rollout_world(G, st, world, side, seed)


@inline_kernel
def context_rollout(context: Any, k: EngineInt, _world_seed: EngineInt, dice: EngineInt) -> EngineInt:
    """`halving_search`'s rollout: candidate k from the world `context_world` dealt (its seed is not needed again)."""
    G, st, world, play, search, side = context
    return rollout(G, st, world, play, search, side, k, dice)


@rules_kernel
def search_decision(G: IntArray, st: IntArray, work: IntArray, search: IntArray, side: EngineInt) -> int:
    """One step of a search side's turn: its candidates (`search_candidates`) and the best after successive halving
    over `search_rollouts` x candidates rollouts (`work[0]` holds each sampled world, `work[1]` a rollout); returns
    its candidate number. With no legal action, "end the turn" without a rollout."""
    m = search_candidates(G, st, search, side)
    search[SR_N] = m
    search[SR_CHOICE] = m - 1
    if m == 1:
        return m - 1
    # The search's words hold its generator first (SR_RNG = 0), so they are halving_search's `rng` too.
    context = (G, st, work[0], work[1], search, side)
    search[SR_ROLLOUTS] += halving_search(
        context_world,
        context_rollout,
        context,
        search,
        SR_ORDER,
        SR_POINTS,
        SR_TRIED,
        m,
        opt(G, O_SEARCH_ROLLOUTS) * m,
        search,
    )
    search[SR_DECISIONS] += 1
    best = search[SR_ORDER]
    search[SR_CHOICE] = best
    return best


@rules_kernel
def search_turn(G: IntArray, st: IntArray, work: IntArray, search: IntArray, side: EngineInt) -> None:
    """A search side's turn after its draw: search a step, take its choice, until ending the turn is chosen (or no
    action is left, or the match ends)."""
    for _ in range(MAX_RANDOM_STEPS):
        if st[G_OVER] == 1:
            return
        candidate = search[SR_CAND + search_decision(G, st, work, search, side)]
        if candidate == CAND_END:
            return
        apply_of(G, st, side, st[G_ACTIONS] + candidate * 4)
        greedy_answer(G, st, side)  # targets a row leaves open are greedy's


# ---------------------------------------------------------------------------------------------------------------
# Matches and batches


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


@rules_kernel
def open_match(
    G: IntArray,
    st: IntArray,
    deck_a: IntArray,
    deck_b: IntArray,
    policy_a: EngineInt,
    policy_b: EngineInt,
    seed: EngineInt,
) -> None:
    """A match's start: the state cleared, each side's policy block started from its policy word
    (`workbench.policies.policy_word`) and the match's seed, the decks shuffled and dealt."""
    reset_state(st)
    start_policy(policy_of(st, SIDE_A), policy_a, seed, SIDE_A)
    start_policy(policy_of(st, SIDE_B), policy_b, seed, SIDE_B)
    setup_match(G, st, deck_a, deck_b)


@rules_kernel
def play_match(
    G: IntArray,
    st: IntArray,
    deck_a: IntArray,
    deck_b: IntArray,
    first: EngineInt,
    policy_a: EngineInt,
    policy_b: EngineInt,
    seed: EngineInt,
) -> None:
    """One whole match from the generator in st[0:4], seeded from `seed`; the result is st[G_WINNER] (-1 draw) and
    st[G_TURN]. The policies are policy words (`workbench.policies.policy_word`), unpacked into the sides' blocks."""
    open_match(G, st, deck_a, deck_b, policy_a, policy_b, seed)
    side = first
    while st[G_OVER] == 0:
        if st[G_TURN] >= opt(G, O_TURN_CAP):
            end_match(st, NONE)
            return
        take_turn(G, st, side)
        side = 1 - side


@rules_kernel
def play_searched_match(
    G: IntArray,
    st: IntArray,
    work: IntArray,
    search: IntArray,
    deck_a: IntArray,
    deck_b: IntArray,
    first: EngineInt,
    policy_a: EngineInt,
    policy_b: EngineInt,
    seed: EngineInt,
) -> None:
    """`play_match` when a side plays `search`: its turns go through `search_turn` (with `work` as the rollouts'
    buffer), the search's generator seeded from the match's seed."""
    open_match(G, st, deck_a, deck_b, policy_a, policy_b, seed)
    rng_seed(search, seed ^ SEARCH_SEED)
    side = first
    while st[G_OVER] == 0:
        if st[G_TURN] >= opt(G, O_TURN_CAP):
            end_match(st, NONE)
            return
        if policy_of(st, side)[P_CODE] == SEARCH:
            start_turn(G, st, side)
            if st[G_OVER] == 0:
                search_turn(G, st, work, search, side)
                end_turn(G, st, side)
        else:
            take_turn(G, st, side)
        side = 1 - side


@rules_kernel
def play_batch_kernel(
    G: IntArray,
    st: IntArray,
    deck_a: IntArray,
    deck_b: IntArray,
    seeds: IntArray,
    first: Any,
    policy_a: EngineInt,
    policy_b: EngineInt,
    winners: Any,
    turns: Any,
    work: IntArray,
    search: IntArray,
) -> None:
    """Play one match per seed on one state array (its counters add up over the batch). `work` and `search` are
    the search policy's rollout buffers and words (`new_search_buffers`; unused unless a side plays `search`)."""
    searched = policy_a == SEARCH or policy_b == SEARCH  # policy words: an epsilon word is never SEARCH
    for m in range(seeds.shape[0]):
        rng_seed(st, seeds[m])
        st[st[G_COUNTERS] + THIS_MATCH] = m  # counters[0, 0, THIS_MATCH]: which match of the batch this is
        if searched:
            play_searched_match(G, st, work, search, deck_a, deck_b, np.int64(first[m]), policy_a, policy_b, seeds[m])
        else:
            play_match(G, st, deck_a, deck_b, np.int64(first[m]), policy_a, policy_b, seeds[m])
        end_match_counted(st)
        winners[m] = st[G_WINNER]
        turns[m] = st[G_TURN]


class MatchArrays:
    """One match: the game data and a packed match state, with numpy views for setting up scenarios and reading
    results."""

    def __init__(self, compiled: CompiledCards, deck_capacity: int, event_rows: int = 0) -> None:
        self.compiled = compiled
        """The compiled card set."""
        self.G: IntArray = game_data(compiled)
        """The game data (options, card table, effect opcodes): every kernel that reads a card or an option takes it."""
        self.st: IntArray = new_state(compiled, deck_capacity, event_rows)
        """The packed match state (xorshift words first); every kernel takes it."""
        st = self.st
        capacity = int(st[G_CAPACITY])
        cards = len(compiled.names)
        self.board: IntArray = st[BOARD_BASE:ZONES_BASE].reshape(2, MAX_UNITS, UNIT_FIELDS)
        """board[side, unit, U_*]: a view of `st`."""
        self.sides: IntArray = st[SIDES_BASE:BOARD_BASE].reshape(2, SIDE_FIELDS)
        """sides[side, S_*]: a view of `st`."""
        self.zones: IntArray = st[st[G_ZONES] : st[G_ZONES] + 6 * capacity].reshape(2, 3, capacity)
        """zones[side, Z_DECK | Z_HAND | Z_TRAPS, i]: a view of `st`."""
        self.counters: IntArray = st[st[G_COUNTERS] : st[G_EVENT_BASE]].reshape(2, cards, N_COUNTERS)
        """counters[side, card, counter], summed over every match played on this state: a view of `st`."""
        self._events: IntArray = st[st[G_EVENT_BASE] :].reshape(event_rows, EVENT_WIDTH)

    @property
    def events(self) -> IntArray:
        """The trace events logged so far, one row each: (turn, player, code, card, other, amount)."""
        return self._events[: int(self.st[G_EVENTS])]


def new_search_buffers(compiled: CompiledCards, capacity: int) -> tuple[IntArray, IntArray]:
    """The search policy's rollout buffers and its words: `work[0]` a round's sampled world and `work[1]` a rollout,
    each a state of the same cards and capacity that logs nothing, and SEARCH_WORDS words."""
    state = new_state(compiled, capacity)
    return np.stack([state, state.copy()]), np.zeros(SEARCH_WORDS, dtype=np.int64)


def search_buffers(arrays: MatchArrays, policy_a: int, policy_b: int) -> tuple[IntArray, IntArray]:
    """`new_search_buffers` for the match state's cards and capacity, or, when neither side searches, buffers of one
    word (of the same shapes: one compiled batch)."""
    if SEARCH not in (policy_a, policy_b):
        return np.zeros((2, 1), dtype=np.int64), np.zeros(1, dtype=np.int64)
    return new_search_buffers(arrays.compiled, int(arrays.st[G_CAPACITY]))


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
    """One batch in one match buffer (with the trace's room when `traced`); `batch_and_trace` makes the engine's
    `play_batch` and `play_traced` of it."""
    arrays = MatchArrays(compiled, max(len(deck_a), len(deck_b)), MAX_TRACE_EVENTS if traced else 0)
    n = seeds.shape[0]
    winners = np.zeros(n, dtype=np.int8)
    turns = np.zeros(n, dtype=np.int32)
    work, search = search_buffers(arrays, policy_a, policy_b)
    play_batch_kernel(
        arrays.G,
        arrays.st,
        np.ascontiguousarray(deck_a, dtype=np.int64),
        np.ascontiguousarray(deck_b, dtype=np.int64),
        np.ascontiguousarray(seeds, dtype=np.int64),
        np.ascontiguousarray(first, dtype=np.int8),
        int(policy_a),
        int(policy_b),
        winners,
        turns,
        work,
        search,
    )
    return BatchRun(winners, turns, published_counters(arrays.counters), arrays.events.copy())


play_batch, play_traced = batch_and_trace(run_batch)


# ---------------------------------------------------------------------------------------------------------------
# Trace lines


_TRIGGER_WORDS: dict[int, str] = {
    effect_vocabulary.T_FOE_ATTACKS: "",
    effect_vocabulary.T_FOE_SUMMONS: " (summoned)",
    effect_vocabulary.T_FOE_ACTIVATES: " (its effect)",
}
"""How a trace line names the Trigger (an attack, the bundled traps' one, says nothing more, as engine 1 did)."""


def describe_event(compiled: CompiledCards, row: Sequence[int]) -> str:
    """One trace event as a line a designer can read."""
    _turn, player, code, card, other, amount = (int(v) for v in row)
    me = "AB"[player]
    foe = "AB"[1 - player]
    names = compiled.names
    table = compiled.table

    def name(card_id: int) -> str:
        return names[card_id] if card_id >= 0 else "?"

    if code == EV_TURN:
        return (
            f"{me}'s turn. Shields A {card}, B {other}; {me} holds {amount // 1000} card(s), {amount % 1000} in deck."
        )
    if code == EV_DRAW:
        return f"{me} draws {name(card)}."
    if code == EV_DECK_EMPTY:
        return f"{me} cannot draw: the deck is empty."
    if code == EV_SUMMON:
        paid = f", sacrificing {other}" if other > 0 else ""
        stats = f"{table[card, C_ATK]}/{table[card, C_DEF]}, soul cost {table[card, C_COST]}"
        return f"{me} summons {name(card)} ({stats}) to row {amount + 1}{paid}."
    if code == EV_SACRIFICE:
        return f"{me} sacrifices {name(card)} from row {amount + 1}."
    if code == EV_DISCARD:
        return f"{me} sacrifices {name(card)} from the hand."
    if code == EV_CAST:
        return f"{me} plays {name(card)}."
    if code == EV_ACTIVATE:
        if other == T_USE:
            return f"{me} uses {name(card)} for its effect."
        return f"{me} activates {name(card)}'s effect (once this turn)."
    if code == EV_FIZZLE:
        return f"{me} plays {name(card)}, but its host was sacrificed for it: no effect."
    if code == EV_EQUIP:
        owner = me if amount == player else foe
        return f"{me} equips {name(card)} to {owner}'s {name(other)}."
    if code == EV_SET_TRAP:
        return f"{me} sets a trap ({name(card)}); {amount} set."
    if code == EV_TRAP:
        return f"{me}'s trap {name(card)} springs on {foe}'s {name(other)}{_TRIGGER_WORDS[amount]}."
    if code == EV_REACT:
        return f"{me}'s {name(card)} reacts to {foe}'s {name(other)}{_TRIGGER_WORDS[amount]}."
    if code == EV_ATTACK:
        return f"{me}'s {name(card)} attacks {foe}'s {name(other)} for {amount}."
    if code == EV_DIRECT:
        if amount == 1:
            return f"{me}'s {name(card)} attacks {foe} directly."
        return f"{me}'s {name(card)} attacks {foe} directly for {amount}."
    if code == EV_EFFECT_DAMAGE:
        return f"{me}'s {name(card)} deals {amount} damage to {foe}'s {name(other)}."
    if code == EV_NO_TARGET:
        return f"{me}'s {name(card)}: its {amount} damage finds no target."
    if code == EV_DESTROYED:
        return f"{me}'s {name(card)} is destroyed ({amount} damage)."
    if code == EV_SUPPORT:
        return f"{me}'s {name(card)} supports {name(other)}: +1 Atk this turn."
    if code == EV_MOVE:
        return f"{me}'s {name(card)} moves to row {amount + 1}."
    if code == EV_ELEMENT:
        source = f" by {name(card)}" if card >= 0 else ""
        applied = ELEMENTS[other]
        if amount < 0:
            return f"{applied} is applied to {me}{source}: {me} now has the {applied} status."
        if amount == other:
            return f"{applied} is applied to {me}{source}: {me} already has it, nothing happens."
        if amount >= 4:
            old = ELEMENTS[amount - 4]
            return f"{applied} is applied to {me}{source}: {old} + {applied} makes no combo; {applied} replaces {old}."
        old = ELEMENTS[amount]
        return f"{applied} is applied to {me}{source}: {old} + {applied} makes no combo; {old} stays."
    if code == EV_COMBO:
        source = f" by {name(card)}" if card >= 0 else ""
        return (
            f"{ELEMENTS[amount % 4]} is applied to {me}{source}: {ELEMENTS[amount // 4]} + {ELEMENTS[amount % 4]} "
            f"= {COMBO_NAMES[other]}."
        )
    if code == EV_STATUS_DAMAGE:
        left = f" ({amount} more turn(s))" if other == BURNING and amount < PERMANENT else ""
        return f"{COMBO_NAMES[other]} strikes {me}{left}."
    if code == EV_FIELD_DAMAGE:
        return f"{COMBO_NAMES[other]}: 1 damage to every card on {me}'s field."
    if code == EV_SHIELD:
        change = f"+{other}" if other > 0 else str(other)
        return f"{me}'s shield {change} -> {amount}."
    return f"{me}: event {code} ({card}, {other}, {amount})"


ENGINE = Engine(
    version=ENGINE_VERSION,
    policies=POLICY_NAMES,
    cost_axis="soul cost",
    compile_cards=compile_cards,
    play_batch=play_batch,
    play_traced=play_traced,
    describe_event=describe_event,
)
