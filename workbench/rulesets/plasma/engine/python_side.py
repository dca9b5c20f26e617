"""The plasma engine's Python edge: compiling a card set into the card table, checking decks, a pairing's own
table, running a batch (greedy and random through `greedy.play_matches`, a search side through
`search.play_matches_searched`), trace text, and `ENGINE`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from workbench.cards import CardSet, Finding, OptionValue
from workbench.engines import CompiledCards, IntArray, check_deck_size
from workbench.play.assembly import BatchRun, Engine, batch_and_trace, pairing_counters, pairing_trace
from workbench.play.loop import BATCH_TURNS, BATCH_WINNERS, new_batch
from workbench.play.policies import GREEDY, POLICY_NAMES, RANDOM, SEARCH, policy_code
from workbench.rulesets.plasma.cards import KINDS
from workbench.rulesets.plasma.costs import effect_findings
from workbench.rulesets.plasma.effects import parse_effects
from workbench.rulesets.plasma.engine.greedy import play_matches, play_value_of_card
from workbench.rulesets.plasma.engine.layout import (
    ABILITY,
    EV_ACTIVATE,
    EV_ATTACK_CREATURE,
    EV_ATTACK_DIRECT,
    EV_ATTACK_ENDS,
    EV_BATTLEFIELD_REPLACED,
    EV_BLOCK,
    EV_COIN,
    EV_DAMAGE,
    EV_DECK_EMPTY,
    EV_DESTROYED,
    EV_DRAW,
    EV_EQUIP,
    EV_HEAL,
    EV_HIT,
    EV_LIFE,
    EV_MULLIGAN,
    EV_NO_BLOCK,
    EV_OTHER_IS_CARD,
    EV_PLASMA,
    EV_PLAY,
    EV_POWER,
    EV_RESOLVE,
    EV_TRIGGER,
    EV_TURN,
    EV_TURN_CAP,
    K_CREATURE,
    MAX_CLAUSES,
    MAX_DECK,
    NO_INSTANT,
    OP_PLASMA,
    OPTION_ORDER,
    T_CLAUSE0,
    T_CLAUSES,
    T_COST,
    T_HAS_ABILITY,
    T_INSTANT_COST,
    T_KIND,
    T_PLAY_VALUE,
    T_POWER,
    T_RESOLVE,
    T_TOTAL,
    TABLE_WIDTH,
)
from workbench.rulesets.plasma.engine.rules import new_state
from workbench.rulesets.plasma.engine.search import play_matches_searched

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
        max_deck_cards=MAX_DECK,
    )


@dataclass(frozen=True)
class Pairing:
    """A pairing's own card table: the distinct cards of its two decks, which the kernels play on instead of the whole
    set's table, so that the state record's counters (`STATE_DTYPE`) have a fixed size (MAX_PAIRING rows)."""

    ids: IntArray
    """The set's card id of each local card id, ascending: every comparison or tie-break of card ids in the kernels
    keeps its order."""
    table: IntArray
    """The set's card table rows of `ids`, in that order."""
    deck_a: IntArray
    """Deck A in local card ids."""
    deck_b: IntArray
    """Deck B in local card ids."""


def pairing(table: IntArray, deck_a: IntArray, deck_b: IntArray) -> Pairing:
    """The pairing of deck_a and deck_b (card ids of `table`, each checked by `check_deck_size`) on its own table."""
    deck_a, deck_b = check_deck_size(deck_a, MAX_DECK), check_deck_size(deck_b, MAX_DECK)
    ids = np.unique(np.concatenate([deck_a, deck_b]))
    return Pairing(
        ids=ids,
        table=np.ascontiguousarray(table[ids]),
        deck_a=np.searchsorted(ids, deck_a).astype(np.int64),
        deck_b=np.searchsorted(ids, deck_b).astype(np.int64),
    )


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
    """One batch on the pairing's own table (`pairing`), on a traced record (TRACED_STATE_DTYPE) when `traced`;
    `batch_and_trace` makes the engine's `play_batch` and `play_traced` of it. Untraced, the record has no
    trace: the batch compiles apart from the trace's kernels, with every trace call gone (`rules.trace`). The record's
    counters, by the pairing's card ids, are added into the set's after the batch."""
    pair = pairing(compiled.table, deck_a, deck_b)
    state = new_state(compiled.options, traced)
    batch = new_batch(pair.deck_a, pair.deck_b, seeds, first, policy_a, policy_b)
    if SEARCH in (policy_code(policy_a), policy_code(policy_b)):
        # The rollouts' records, of the state's own type: a rollout plays the batch's machine code, not a copy.
        world, sim = new_state(compiled.options, traced), new_state(compiled.options, traced)
        play_matches_searched(pair.table, state, batch, world, sim)
    else:
        play_matches(pair.table, state, batch)
    counters = pairing_counters(len(compiled.names), pair.ids, state.counters)
    trace = pairing_trace(pair.ids, state.events[: int(state.ecount[0])] if traced else None, EV_OTHER_IS_CARD)
    return BatchRun(batch[BATCH_WINNERS], batch[BATCH_TURNS], counters, trace)


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
    version="6",
    policies=POLICY_NAMES,
    cost_axis="plasma cost",
    compile_cards=compile_cards,
    play_batch=play_batch,
    play_traced=play_traced,
    describe_event=describe_event,
)
