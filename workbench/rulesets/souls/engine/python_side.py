"""The souls engine's Python side: compiling the card set (`compile_cards`), the batch kernel (`play_batch_kernel`,
which plays each match through `workbench.play.loop.play_out`), scenario state (`MatchArrays`), the search's
buffers, batches (`play_batch`, `play_traced`), trace text (`describe_event`) and the `ENGINE` record.

The top of the engine package: imports `layout`, `rules` (a match's start and end, `apply`), `policies` (`decide`)
and `search` (`decide_searched` and the size of its words).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np

from workbench.cards import CardSet, Finding, OptionValue, WorkbenchInputError
from workbench.engines import (
    EVENT_WIDTH,
    MAX_TRACE_EVENTS,
    THIS_MATCH,
    CompiledCards,
    EngineInt,
    IntArray,
    inline_kernel,
    published_counters,
    rng_seed,
    rules_kernel,
)
from workbench.play.assembly import BatchRun, Engine, batch_and_trace
from workbench.play.loop import (
    BATCH_POLICY_A,
    BATCH_POLICY_B,
    BATCH_SEEDS,
    BATCH_TURNS,
    BATCH_WINNERS,
    NO_CONTEXT,
    batch_loop,
    batch_match,
    new_batch,
    play_out,
    record_result,
)
from workbench.play.policies import CODE_MASK, POLICY_NAMES, SEARCH, policy_code
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
from workbench.rulesets.souls.engine.layout import (
    BOARD_BASE,
    BODY_VALUE,
    BURNING,
    C_APPLIES,
    C_ATK,
    C_BONUS,
    C_CAN_ATTACK,
    C_COST,
    C_DAMAGE,
    C_DEF,
    C_DIRECT,
    C_DRAW,
    C_EQUIP,
    C_EQUIP_ATK,
    C_EQUIP_DEF,
    C_KIND,
    C_MOBILE,
    C_RANGE,
    C_REACTS,
    C_SHIELD,
    C_SUPPORT,
    C_TIMED,
    C_VALUE,
    CARD_COLUMNS,
    COMBO_NAMES,
    ENGINE_OPTION_ORDER,
    ENGINE_VERSION,
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
    G_CAPACITY,
    G_COUNTERS,
    G_EVENT_BASE,
    G_EVENTS,
    G_TURN,
    G_WINNER,
    G_ZONES,
    KIND_MONSTER,
    KINDS,
    MAX_EFFECTS,
    MAX_ROW_SLOTS,
    MAX_TRAP_SLOTS,
    MAX_UNITS,
    N_COUNTERS,
    PERMANENT,
    SIDE_FIELDS,
    SIDES_BASE,
    SPELL_VALUE,
    T_PLAIN,
    T_USE,
    TV_APPLIES,
    TV_DAMAGE,
    TV_DRAW,
    TV_SHIELD,
    UNIT_FIELDS,
    ZONES_BASE,
    end_match_counted,
    game_data,
    new_state,
)
from workbench.rulesets.souls.engine.policies import forget_turn, play_on
from workbench.rulesets.souls.engine.rules import apply, is_over, open_match
from workbench.rulesets.souls.engine.search import SEARCH_SEED, SEARCH_WORDS, decide_searched

# ---------------------------------------------------------------------------------------------------------------
# Compiling the card set


_CHOICE_CODES: dict[str, tuple[str, ...]] = {
    "empty_deck": ("skip", "lose"),
    "sacrifice_from": ("either", "field", "hand"),
    "direct_attack": ("always", "reach"),
    "destroy_when": ("reaches", "exceeds"),
    "unlisted_combo": ("replace", "keep"),
    "status_ticks": ("own_turn", "every_turn"),
    "search_rollout_policy": ("greedy", "random"),  # by index: GREEDY, RANDOM (workbench.play.policies)
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
# Matches and batches


BATCH_SEARCH = BATCH_TURNS + 1
"""A souls batch's own place after the play layer's (`play.loop.new_batch`): the search's words (`search_buffers`),
whose generator a searching batch seeds for each match."""


@inline_kernel
def start_batch_match(G: IntArray, st: IntArray, batch: Any, m: EngineInt) -> None:
    """Match m of a batch (`play.loop.batch_loop`) set up on the state every match reuses: the match's generator
    seeded, its number noted for the counters, the policies' turn words forgotten, its deal (`open_match`)."""
    deck_a, deck_b, seed, first, policy_a, policy_b = batch_match(batch, m)
    rng_seed(st, seed)
    st[st[G_COUNTERS] + THIS_MATCH] = m  # counters[0, 0, THIS_MATCH]: which match of the batch this is
    forget_turn(st)  # the policies' turn words are the last match's
    open_match(G, st, deck_a, deck_b, np.int64(first), policy_a, policy_b, seed)


@inline_kernel
def start_searched_match(G: IntArray, st: IntArray, batch: Any, m: EngineInt) -> None:
    """`start_batch_match`, then the search's own generator (in its words, BATCH_SEARCH) seeded from the match's seed,
    apart from the match's."""
    start_batch_match(G, st, batch, m)
    rng_seed(batch[BATCH_SEARCH], batch[BATCH_SEEDS][m] ^ SEARCH_SEED)


@inline_kernel
def play_searched(G: IntArray, st: IntArray, context: Any) -> None:
    """A match where a side plays `search` played on to its end: the play loop with `decide_searched` (`context`:
    the search's rollout buffers and words)."""
    play_out(G, st, context, decide_searched, apply, is_over)


@inline_kernel
def finish_batch_match(_G: IntArray, st: IntArray, batch: Any, m: EngineInt) -> None:
    """Match m of a batch is over: its counters closed, its winner and turn count written (`record_result`)."""
    end_match_counted(st)
    record_result(batch, m, st[G_WINNER], st[G_TURN])


@rules_kernel
def play_batch_kernel(G: IntArray, st: IntArray, batch: Any, work: IntArray) -> None:
    """Play a batch (`play.loop.new_batch`, then the search's words, BATCH_SEARCH) on one state array (its counters
    add up over the batch): `play.loop.batch_loop`, each match played by `play_on`, or where a side plays `search`
    with the search's own generator seeded and played by `play_searched`. `work` and the search's words are the
    search policy's rollout buffers and words (`new_search_buffers`; unused unless a side plays `search`)."""
    # Policy words: the code is the low bits (`search:R` holds R above them).
    if (batch[BATCH_POLICY_A] & CODE_MASK) == SEARCH or (batch[BATCH_POLICY_B] & CODE_MASK) == SEARCH:
        batch_loop(G, st, batch, (work, batch[BATCH_SEARCH]), start_searched_match, play_searched, finish_batch_match)
    else:
        batch_loop(G, st, batch, NO_CONTEXT, start_batch_match, play_on, finish_batch_match)


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
    if SEARCH not in (policy_code(policy_a), policy_code(policy_b)):
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
    work, search = search_buffers(arrays, policy_a, policy_b)
    deck_a, deck_b = (np.ascontiguousarray(deck, dtype=np.int64) for deck in (deck_a, deck_b))
    batch = new_batch(deck_a, deck_b, seeds, first, int(policy_a), int(policy_b), search)
    winners, turns = batch[BATCH_WINNERS], batch[BATCH_TURNS]
    play_batch_kernel(arrays.G, arrays.st, batch, work)
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
