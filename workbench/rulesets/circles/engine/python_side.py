"""The circles engine's Python side: compiling cards, the rules and state buffers, batches (`play_batch`,
`play_traced`), trace text (`describe_event`), the `ENGINE` record, and scenario state (`MatchArrays`).

The top of the engine package: imports `layout`, `rules` (the greedy and random batch loop) and `search` (the
search's batch loop).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from workbench.cards import CardSet, Finding, OptionValue
from workbench.engines import (
    COUNTER_COLUMNS,
    EVENT_WIDTH,
    MAX_TRACE_EVENTS,
    CompiledCards,
    EngineInt,
    IntArray,
    published_counters,
    rng_seed,
)
from workbench.play.assembly import BatchRun, Engine, batch_and_trace
from workbench.play.loop import BATCH_TURNS, BATCH_WINNERS, new_batch
from workbench.play.policies import GREEDY, POLICY_NAMES, SEARCH, policy_code
from workbench.rulesets.circles.abilities import ABILITIES, ABILITY_INDEX, COLOURS, find_ability
from workbench.rulesets.circles.cards import Character, Resource
from workbench.rulesets.circles.costs import resource_colour
from workbench.rulesets.circles.engine.greedy import play_matches
from workbench.rulesets.circles.engine.layout import (
    ABILITY_TABLE_AT,
    ACTION_WIDTH,
    BOARD,
    DECISION_AT,
    DECK,
    DISCARD,
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
    FAST,
    G_TURN,
    G_WINNER,
    GAME_AT,
    H_ACTION_ROWS,
    H_CAPACITY,
    H_CARDS,
    H_EVENT_ROWS,
    H_RULE_CARDS,
    HAND,
    KIND_CHARACTER,
    KIND_RESOURCE,
    L_DAMAGE,
    L_TARGET,
    LANE_COLUMNS,
    N_ABILITIES,
    NO_COLOUR,
    O_DESTROY_AT_LEAST,
    O_EXTRA_EACH_TURN,
    O_NEW_CHARACTERS_ATTACK,
    O_ONE_PER_ATTACKER,
    O_RESHUFFLE,
    O_RESOURCES_PER_TURN,
    O_RESPOND,
    O_SEARCH_ROLLOUT_POLICY,
    O_SEARCH_ROLLOUTS,
    O_SERENITY_EVERYONE,
    O_SLEEP_OPENS_LANE,
    O_TURN_CAP,
    OPTION_COUNT,
    OPTIONS_AT,
    REFLECT,
    RNG_AT,
    S_BOARD_N,
    S_DECK_N,
    S_DECK_TOP,
    S_DISCARD_N,
    S_HAND_N,
    S_LIFE,
    S_POLICY,
    S_READY,
    S_TOTAL,
    SEARCH_AT,
    SIDE_AT,
    SIDE_COLUMNS,
    STARTING_LIFE,
    T_ATTACK,
    T_CIRCLES,
    T_HEALTH,
    T_KIND,
    T_RED,
    TABLE_AT,
    TABLE_COLUMNS,
    UNDECIDED,
    ZONES_AT,
)
from workbench.rulesets.circles.engine.search import play_searched_matches

ENGINE_VERSION = "3"
"""1: the first engine. 2: greedy judges each lane by its chosen mode (Long Range, Self Destruct, Target) and keeps
Serenity for an attack that is lethal whatever the lanes' other worth (engine 1 could miss one). 3: the search
spends its rollouts by successive halving over its candidates (`search_decision`); greedy and random play as in
engine 2 (golden trace and both digests of tests/rulesets/circles/results_fingerprint.py unchanged)."""
POLICIES = POLICY_NAMES


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
    capacity = max(len(deck_a), len(deck_b)) + 1
    state, views = state_buffer(capacity, len(compiled.names), MAX_TRACE_EVENTS if traced else 0)
    deck_a, deck_b = (np.ascontiguousarray(deck, dtype=np.int64) for deck in (deck_a, deck_b))
    batch = new_batch(deck_a, deck_b, seeds, first, policy_a, policy_b)
    R = rules_buffer(compiled)
    if SEARCH in (policy_code(policy_a), policy_code(policy_b)):
        # The search policy's turn snapshot (the whole buffer: counters and trace go back with it), its copy with the
        # unseen cards sorted, a round's sampled world and the rollouts' buffer.
        snapshot = np.zeros_like(state)
        sorted_snapshot, world, scratch = (state_buffer(capacity, len(compiled.names), 0)[0] for _ in range(3))
        play_searched_matches(R, state, batch, snapshot, sorted_snapshot, world, scratch)
    else:
        play_matches(R, state, batch)
    events = views.events[: int(views.event_count[0])].copy()
    return BatchRun(batch[BATCH_WINNERS], batch[BATCH_TURNS], published_counters(views.counters), events)


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
    search_settings=("rollouts", "rollout_policy"),  # its rollouts play every match to the end: no cut-off
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
