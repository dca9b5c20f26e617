"""The Millennium Blades engine's Python side: compiling cards (`compile_cards`, `option_array`), a batch's own cards
(`batch_cards`, `game_data`: the game data record; `workbench.play.assembly.pairing_counters` and `pairing_trace` map
the counters and the trace back to the set's card ids), state records (`new_state`, `search_state`), batches
(`run_batch`, `play_batch`, `play_traced`, `play_batch_detailed`), trace text (`describe_event`) and the `ENGINE`
record.

The top of the engine package: imports `layout`, `rules`, `policies` (the greedy, random and epsilon batch loop,
`play_matches`) and `search` (the search's batch loop).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.cards import CardSet, Finding, OptionValue, WorkbenchInputError
from workbench.engines import MAX_TRACE_EVENTS, CompiledCards, IntArray
from workbench.limits import over_limit
from workbench.play.assembly import BatchRun, Engine, batch_and_trace, pairing_counters, pairing_trace
from workbench.play.loop import BATCH_TURNS, BATCH_WINNERS, new_batch
from workbench.play.policies import POLICY_NAMES, SEARCH, policy_code
from workbench.rulesets.blades.cards import BladesCard
from workbench.rulesets.blades.costs import check_effects as effect_findings
from workbench.rulesets.blades.effects import EffectAction, parse_effects
from workbench.rulesets.blades.engine.layout import (
    A_AMOUNT,
    A_ARG,
    A_PER,
    A_PICK,
    A_VERB,
    A_WHOSE,
    ACTION_BASE,
    ACTION_WIDTH,
    AR_CARD,
    BOOSTER_SET_KINDS,
    COPY_LEFT,
    COPY_RIGHT,
    E_CLASH_ALL,
    E_TIMING,
    E_TRIGGER,
    EFFECT_WIDTH,
    EV_ACTION,
    EV_AFTERMARKET_CLEARED,
    EV_ATTACH,
    EV_CARD_IS_NOT_CARD,
    EV_CLASH,
    EV_CLASH_RESULT,
    EV_COPY,
    EV_DETACH,
    EV_DISCARD,
    EV_END,
    EV_FLIP,
    EV_META,
    EV_NO_CLASH,
    EV_NO_TARGET,
    EV_OPENS,
    EV_OTHER_IS_CARD,
    EV_PASS,
    EV_PLACE,
    EV_PLAY,
    EV_REACTION,
    EV_REVEAL,
    EV_RP,
    EV_SEAT,
    EV_SLOT,
    EV_STORE_RESHUFFLED,
    EV_TOKENS,
    EV_TRIMMED,
    EV_TURN,
    F_HAS_NEXT,
    F_HAS_SCORE,
    F_MIMICRY,
    F_ONGOING_PROTECT_ADJACENT,
    F_ONGOING_PROTECT_SELF,
    F_SCURRY,
    F_TOP_PROTECT_ADJACENT,
    F_TOP_PROTECT_SELF,
    G_META,
    GAME_DTYPE,
    HAND_LIMIT,
    K_ACCESSORY,
    K_DECK_BOX,
    K_METAGAME,
    K_SINGLE,
    KEYWORD_VERBS,
    KIND_NAMES,
    MATCH_RESULTS,
    MAX_CLAUSES,
    MAX_HAND,
    MAX_LOCAL,
    MAX_META_STACKS,
    MAX_PLAYERS,
    MAX_SLOTS,
    MAX_STORE,
    MAX_SYMBOLS,
    META_ROOM,
    METAGAME_MODES,
    O_STORE_KINDS,
    O_VP_ROUND,
    PART_LOSE,
    PART_TIE,
    PART_WIN,
    PER_CODES,
    PER_NONE,
    PER_REVEALED,
    SEARCH_ROLLOUT_POLICIES,
    SEARCH_WORDS,
    SR_DECISIONS,
    SR_ROLLOUTS,
    SR_WANTED,
    STATE_DTYPE,
    STORE_KINDS,
    T_CLAUSES,
    T_FLAGS,
    T_KIND,
    T_ONGOING_STARS,
    T_REACTIONS,
    T_STARS,
    T_SYMBOLS,
    T_TIMINGS,
    T_TOP_STARS,
    TABLE_WIDTH,
    TIMING_CODES,
    TM_NEXT,
    TM_ONGOING,
    TM_REACTION,
    TM_SCORE,
    TM_TOP,
    TRIGGER_CODES,
    V_NONE,
    VERB_CODES,
    VP_CHART,
    VP_ROUNDS,
    W_ACCESSORY_1,
    W_ACCESSORY_2,
    W_BOX,
    WHOSE_OPPONENT,
    WHOSE_YOURS,
)
from workbench.rulesets.blades.engine.policies import play_matches
from workbench.rulesets.blades.engine.search import play_searched_matches
from workbench.rulesets.blades.options import SEARCH_DEPTH, SEARCH_ROLLOUTS

# =====================================================================================================================
# The Python edge: compiling cards, batches, traces
# =====================================================================================================================


def option_array(options: Mapping[str, OptionValue]) -> IntArray:
    """The engine's rule options as integers, in OPTION_ORDER (a player count or slot count out of range is a clear
    error)."""
    players, slots = int(options["players"]), int(options["tableau_slots"])
    if not 2 <= players <= MAX_PLAYERS:
        raise WorkbenchInputError(f"option players={players} is out of range.", expected=f"2 to {MAX_PLAYERS} players")
    if not 1 <= slots <= MAX_SLOTS:
        raise WorkbenchInputError(f"option tableau_slots={slots} is out of range.", expected=f"1 to {MAX_SLOTS} slots")
    return np.array(
        [
            int(options["players"]),
            int(options["tableau_slots"]),
            VP_ROUNDS.index(str(options["vp_round"])),
            MATCH_RESULTS.index(str(options["match_result"])),
            STORE_KINDS.index(str(options["store_kinds"])),
            METAGAME_MODES.index(str(options["metagame"])),
            # The search policy's budget; .get because the whole game's option set compiles this table too.
            int(options.get("search_rollouts", SEARCH_ROLLOUTS)),
            SEARCH_ROLLOUT_POLICIES.index(str(options.get("search_rollout_policy", "greedy"))),
            int(options.get("search_depth", SEARCH_DEPTH)),
        ],
        dtype=np.int64,
    )


def _encode_action(action: EffectAction, symbol_bits: Mapping[str, int]) -> list[int]:
    """One action as ACTION_WIDTH integers (verb, amount, per, per argument, whose, pick or copy direction)."""
    row = [V_NONE, 0, PER_NONE, 0, 0, 0]
    if action.verb == "keyword":
        assert action.keyword is not None
        row[A_VERB] = KEYWORD_VERBS[action.keyword]
        row[A_AMOUNT] = action.amount
        return row
    row[A_VERB] = VERB_CODES[action.verb]
    row[A_AMOUNT] = action.amount
    if action.per is not None:
        row[A_PER] = PER_CODES[action.per.kind] + (PER_REVEALED if action.per.revealed else 0)
        if action.per.kind == "symbol":
            row[A_ARG] = symbol_bits.get((action.per.symbol or "").casefold(), 0)
        elif action.per.stars is not None:
            row[A_ARG] = action.per.stars
    if action.whose is not None:
        row[A_WHOSE] = WHOSE_YOURS if action.whose == "yours" else WHOSE_OPPONENT
    if action.pick is not None:
        row[A_PICK] = ("highest", "lowest", "choice").index(action.pick)
    if action.direction is not None:
        row[A_PICK] = COPY_LEFT if action.direction == "left" else COPY_RIGHT
    return row


def compile_cards(cardset: CardSet, options: Mapping[str, OptionValue]) -> CompiledCards:
    """The card table, the effect opcode table and the store deck (card ids, one per physical copy)."""
    entries = list(cardset)
    cards: list[BladesCard] = [entry.card for entry in entries]  # type: ignore[misc]
    # Clauses outside the vocabulary (and `per` names no card has) are simulated without, as the checks report.
    findings: list[Finding] = list(effect_findings(cardset))
    symbol_bits: dict[str, int] = {}
    for card in cards:
        for name in (*card.elements, *card.types):
            key = name.casefold()
            if key not in symbol_bits and len(symbol_bits) < MAX_SYMBOLS:
                symbol_bits[key] = 1 << len(symbol_bits)
    table = np.zeros((len(cards), TABLE_WIDTH), dtype=np.int64)
    effects = np.zeros((len(cards), MAX_CLAUSES, EFFECT_WIDTH), dtype=np.int64)
    for index, (entry, card) in enumerate(zip(entries, cards, strict=False)):
        table[index, T_KIND] = KIND_NAMES.index(card.kind)
        table[index, T_STARS] = card.stars
        bits = 0
        for name in (*card.elements, *card.types):
            bits |= symbol_bits.get(name.casefold(), 0)
            if name.casefold() not in symbol_bits:
                findings.append(
                    cardset.finding(
                        "info",
                        "blades.engine_symbols",
                        f"the simulator counts at most {MAX_SYMBOLS} different elements and types; '{name}' is past "
                        "that, so `per` conditions do not see it on this card.",
                        entry,
                        "elements" if name in card.elements else "types",
                        expected=f"at most {MAX_SYMBOLS} different symbols",
                        actual=name,
                    )
                )
        table[index, T_SYMBOLS] = bits
        clauses = parse_effects(card.effects).clauses
        if len(clauses) > MAX_CLAUSES:
            findings.append(
                cardset.finding(
                    "info",
                    "blades.engine_clauses",
                    f"the simulator plays the first {MAX_CLAUSES} effect clauses of a card; the other "
                    f"{len(clauses) - MAX_CLAUSES} are left out.",
                    entry,
                    "effects",
                    expected=f"at most {MAX_CLAUSES} clauses",
                    actual=len(clauses),
                )
            )
            clauses = clauses[:MAX_CLAUSES]
        table[index, T_CLAUSES] = len(clauses)
        flags = 0
        for c, clause in enumerate(clauses):
            timing = TIMING_CODES.index(clause.timing)
            effects[index, c, E_TIMING] = timing
            effects[index, c, E_TRIGGER] = TRIGGER_CODES.index(clause.trigger) if clause.trigger else -1
            table[index, T_TIMINGS] |= 1 << (timing * MAX_CLAUSES + c)
            if timing == TM_REACTION and clause.trigger:
                table[index, T_REACTIONS] |= 1 << (TRIGGER_CODES.index(clause.trigger) * MAX_CLAUSES + c)
            action = clause.action
            effects[index, c, E_CLASH_ALL] = 1 if action.clash_with == "all" else 0
            effects[index, c, ACTION_BASE : ACTION_BASE + ACTION_WIDTH] = _encode_action(action, symbol_bits)
            for outcome, outcome_action in action.outcomes:
                part = {"win": PART_WIN, "lose": PART_LOSE, "tie": PART_TIE}[outcome]
                start = ACTION_BASE + part * ACTION_WIDTH
                effects[index, c, start : start + ACTION_WIDTH] = _encode_action(outcome_action, symbol_bits)
            if action.verb == "star" and timing == TM_ONGOING:
                table[index, T_ONGOING_STARS] += action.amount
            elif action.verb == "star" and timing == TM_TOP:
                table[index, T_TOP_STARS] += action.amount
            elif action.verb == "protect":
                if timing == TM_ONGOING:
                    flags |= F_ONGOING_PROTECT_SELF if action.guards == "self" else F_ONGOING_PROTECT_ADJACENT
                else:
                    flags |= F_TOP_PROTECT_SELF if action.guards == "self" else F_TOP_PROTECT_ADJACENT
            elif action.keyword == "Mimicry":
                flags |= F_MIMICRY
            elif action.keyword == "Scurry":
                flags |= F_SCURRY
            if timing == TM_SCORE:
                flags |= F_HAS_SCORE
            if timing == TM_NEXT:
                flags |= F_HAS_NEXT
        table[index, T_FLAGS] = flags
    resolved = option_array(options)
    store_ids: list[int] = []
    # Metagame cards sit on the Aftermarket Board, never in the store, whatever `store_kinds` says.
    for index, card in enumerate(cards):
        if card.kind == "metagame":
            continue
        if resolved[O_STORE_KINDS] == STORE_KINDS.index("all") or card.set_kind in BOOSTER_SET_KINDS:
            store_ids.extend([index] * card.copies)
    if not store_ids:
        # A set without booster cards (only starters, promos, pro cards): clash against the whole set instead.
        for index, card in enumerate(cards):
            if card.kind != "metagame":
                store_ids.extend([index] * card.copies)
        findings.append(
            Finding(
                severity="info",
                rule="blades.engine_store",
                message="the set has no core, expansion, premium or master cards, so the simulated store holds every "
                "card of the set (each `copies` times).",
                sheet=cardset.sheet,
                expected="booster cards for the store",
                actual="none",
            )
        )
    # Refused before any tournament is played: the state record's store holds MAX_STORE cards.
    check_store(np.asarray(store_ids, dtype=np.int64))
    meta, meta_findings = _meta_stacks(cardset, entries, cards)
    findings.extend(meta_findings)
    return CompiledCards(
        names=tuple(card.name for card in cards),
        table=table,
        # Metagame cards are nobody's to play and have no star rating: no cost axis, so no power is measured.
        cost=np.where(table[:, T_KIND] == K_METAGAME, np.nan, table[:, T_STARS].astype(np.float64)),
        slot=table[:, T_KIND].copy(),
        options=resolved,
        findings=tuple(findings),
        extra={"effects": effects, "store": np.asarray(store_ids, dtype=np.int64), "meta": meta},
    )


def _meta_stacks(
    cardset: CardSet, entries: Sequence[Any], cards: Sequence[BladesCard]
) -> tuple[IntArray, list[Finding]]:
    """The metagame stacks: one per meta set, in order of first appearance, as rows (count, card ids ...); a set
    with more than MAX_META_STACKS meta sets has the later ones left out (info finding)."""
    stacks: dict[str, list[int]] = {}
    findings: list[Finding] = []
    for index, (entry, card) in enumerate(zip(entries, cards, strict=True)):
        if card.kind != "metagame":
            continue
        key = " ".join(card.set.casefold().split())
        if key not in stacks and len(stacks) == MAX_META_STACKS:
            findings.append(
                cardset.finding(
                    "info",
                    "blades.engine_metagame",
                    f"the simulator reveals a card from at most {MAX_META_STACKS} meta sets (the document has two "
                    f"stacks); meta set '{card.set}' is left out.",
                    entry,
                    "set",
                    expected=f"at most {MAX_META_STACKS} meta sets",
                    actual=card.set,
                )
            )
            continue
        stacks.setdefault(key, []).append(index)
    width = 1 + max((len(ids) for ids in stacks.values()), default=0)
    meta = np.zeros((len(stacks), width), dtype=np.int64)
    for m, ids in enumerate(stacks.values()):
        meta[m, 0] = len(ids)
        meta[m, 1 : 1 + len(ids)] = ids
    return meta, findings


def check_store(store: IntArray) -> IntArray:
    """`store` (card ids) if a tournament's state record holds it (at most MAX_STORE cards, the `store_cards`
    limit), else the limit's refusal."""
    if store.shape[0] > MAX_STORE:
        raise over_limit("store_cards", f"the store holds {store.shape[0]:,} cards")
    return store


def seated_deck(table: IntArray, deck: IntArray) -> IntArray:
    """The cards of `deck` (set ids) a tournament reads, in deck order: its first MAX_HAND singles, its first deck box
    and its first two accessories (`setup_seat` reads no other: a metagame card in a deck, a later deck box or
    accessory, or a single past the hand's room is never dealt). At most DECK_ROOM cards."""
    deck = np.ascontiguousarray(deck, dtype=np.int64)
    # Counted in a plain loop: a deck is a dozen cards, for which three numpy cumsums cost about ten times as much
    # (the whole game seats four decks a tournament).
    room = {K_SINGLE: MAX_HAND, K_DECK_BOX: 1, K_ACCESSORY: 2}
    kept = []
    for place, kind in enumerate(table[deck, T_KIND].tolist()):
        left = room.get(kind, 0)
        if left > 0:
            room[kind] = left - 1
            kept.append(place)
    return deck[kept]


def _game_record(compiled: CompiledCards, ids: IntArray) -> Any:
    """A GAME_DTYPE record of the card and effect tables' rows of `ids` (at most MAX_LOCAL), in that order."""
    g = np.zeros(1, dtype=GAME_DTYPE).view(np.recarray)[0]
    g.table[: ids.shape[0]] = compiled.table[ids]
    g.effects[: ids.shape[0]] = compiled.extra["effects"][ids]
    return g


_WHOLE_SETS: dict[int, tuple[Any, Any, IntArray, Any]] = {}
"""The whole-set game data made so far (`whole_set`), by the id of the card table: weak references to the card and
effect tables it was made of (a dead one, or another table at the same id, means it is stale), its ids and its
GAME_DTYPE record (read-only: every batch of the set shares it)."""


def _whole_set(compiled: CompiledCards) -> tuple[IntArray, Any]:
    """`game_data` of every card of a set of at most MAX_LOCAL cards: its ids are the set's own (0, 1, ...), made once
    per card table (a batch of few tournaments, as the whole game's market plays, would otherwise spend more time
    making its record than playing)."""
    table, effects = compiled.table, compiled.extra["effects"]
    made = _WHOLE_SETS.get(id(table))
    if made is not None and made[0]() is table and made[1]() is effects:
        return made[2], made[3]
    for key in [key for key, entry in list(_WHOLE_SETS.items()) if entry[0]() is None]:
        _WHOLE_SETS.pop(key, None)  # not `del`: the app's threads may drop the same stale entry at once
    ids = np.arange(len(compiled.names), dtype=np.int64)
    g = _game_record(compiled, ids)
    _WHOLE_SETS[id(table)] = (weakref.ref(table), weakref.ref(effects), ids, g)
    return ids, g


def plays_whole_set(compiled: CompiledCards) -> bool:
    """Whether a batch of this set plays on every card of it, by the set's own ids (`game_data`): a set of at most
    MAX_LOCAL cards. Its decks are then seated as they are (`setup_seat` reads only what `seated_deck` keeps)."""
    return len(compiled.names) <= MAX_LOCAL


def game_data(compiled: CompiledCards, cards: IntArray) -> tuple[IntArray, Any]:
    """The game data `G` of a batch that can reach `cards` (set ids, repeats allowed): the set's ids of its own card
    ids (ascending: every comparison or tie-break of card ids keeps its order) and its GAME_DTYPE record, the card and
    effect tables' rows of those cards in that order. A set of at most MAX_LOCAL cards plays on all of them, its ids
    its own (`_whole_set`, made once); a larger one on the distinct `cards` alone, more than MAX_LOCAL of which is a
    clear error."""
    if plays_whole_set(compiled):
        return _whole_set(compiled)
    ids = np.unique(np.asarray(cards, dtype=np.int64))
    if ids.shape[0] > MAX_LOCAL:
        raise WorkbenchInputError(
            f"a tournament here can reach {ids.shape[0]:,} different cards (its decks, store and metagame cards), more "
            "than the simulator holds.",
            expected=f"at most {MAX_LOCAL:,} different cards (at most {META_ROOM:,} metagame cards)",
        )
    return ids, _game_record(compiled, ids)


def whole_set(compiled: CompiledCards) -> Any:
    """The game data of every card of the set (at most MAX_LOCAL), whose card ids are then the set's: what a scenario
    that names cards of a small set plays on."""
    return _whole_set(compiled)[1]


def local_ids(ids: IntArray, cards: IntArray) -> IntArray:
    """`cards` (set ids, each one of `ids`) as the batch's card ids."""
    return np.searchsorted(ids, np.asarray(cards, dtype=np.int64)).astype(np.int64)


@dataclass(frozen=True)
class BatchCards:
    """What a batch of tournaments plays on, in the batch's own card ids (`game_data`): every card it can reach (the
    seats' decks, the store, the meta stacks), so the state record's counters have a fixed size (MAX_LOCAL rows)."""

    ids: IntArray
    """The set's card id of each of the batch's card ids, ascending."""
    g: Any
    """The game data: a GAME_DTYPE record of those cards' table and effect rows."""
    deck_a: IntArray
    """Deck A's cards a tournament reads (`seated_deck`), in the batch's ids."""
    deck_b: IntArray
    """Deck B's, likewise."""
    store: IntArray
    """The store deck (`compile_cards`' `store`, checked by `check_store`), in the batch's ids."""
    meta: IntArray
    """The meta stacks (`compile_cards`' `meta`: rows of count, card ids ...), the card ids the batch's."""


def batch_cards(compiled: CompiledCards, deck_a: IntArray, deck_b: IntArray) -> BatchCards:
    """The batch of deck_a against deck_b (set ids) on its own cards (`BatchCards`; a set of at most MAX_LOCAL cards:
    all of them, by the set's ids, `game_data`)."""
    store = check_store(compiled.extra["store"])
    if plays_whole_set(compiled):
        ids, g = _whole_set(compiled)
        deck_a, deck_b = (np.ascontiguousarray(deck, dtype=np.int64) for deck in (deck_a, deck_b))
        return BatchCards(ids, g, deck_a, deck_b, store, compiled.extra["meta"])
    table = compiled.table
    deck_a, deck_b = seated_deck(table, deck_a), seated_deck(table, deck_b)
    meta = np.array(compiled.extra["meta"], dtype=np.int64, copy=True)
    stacks = [meta[m, 1 : 1 + meta[m, 0]] for m in range(meta.shape[0])]
    ids, g = game_data(compiled, np.concatenate([deck_a, deck_b, store, *stacks]))
    for m, stack in enumerate(stacks):
        meta[m, 1 : 1 + stack.shape[0]] = local_ids(ids, stack)
    return BatchCards(ids, g, local_ids(ids, deck_a), local_ids(ids, deck_b), local_ids(ids, store), meta)


_COUNTERS_AT = int(STATE_DTYPE.itemsize - STATE_DTYPE["counters"].itemsize - STATE_DTYPE["events"].itemsize)
"""The byte offset of the counters in a STATE_DTYPE record, the trace after them and nothing else: every field
before them is zeroed by `new_state` at once."""
assert tuple(STATE_DTYPE.names or ())[-2:] == ("counters", "events"), "new_state zeroes the fields before counters"


def new_state(options: IntArray | None = None, traced: bool = False, cards: int = MAX_LOCAL) -> Any:
    """A fresh tournament state record (see STATE_DTYPE) for up to MAX_PLAYERS seats, holding these rule options
    (`option_array`; none given: zeros, for scenario tests that fill the fields a kernel reads). No deck box,
    accessory or metagame card (-1) until setup deals them. Untraced, its trace counts as full (`ecount`), so the
    kernels log nothing into it.

    Zeros but for what nothing reads: the trace's rows when untraced, and the counters' rows past `cards` (the
    batch's card ids are below it). The two are most of the record (about 2.3 of its 2.6 MB), and zeroing them cost a
    batch of a few tournaments (as the whole game's market plays) a fifth of its time."""
    record = np.empty(1, dtype=STATE_DTYPE)
    # The fields before the counters in one copy of a record's head as it starts (`_fresh_head`): zeroing them and
    # setting the fields that start otherwise one by one took longer (20.5 against 13.2 us a record, in a loop).
    record.view(np.uint8)[:_COUNTERS_AT] = _fresh_head(traced)
    record["counters"][0, :, :cards] = 0
    if traced:
        record["events"] = 0
    if options is not None:
        record["options"][0] = options
    return record.view(np.recarray)[0]


class _ReusedRecord(threading.local):
    """A thread's own untraced state record for `reused_state`, with the views that reset it."""

    def __init__(self) -> None:
        record = np.empty(1, dtype=STATE_DTYPE)
        self.head = record.view(np.uint8)[:_COUNTERS_AT]
        """The bytes before the counters."""
        self.counters = record["counters"]
        """The counters (zeroed up to the cards a tournament has)."""
        self.options = record["options"]
        """The rule options."""
        self.state = record.view(np.recarray)[0]
        """The record as the kernels take it."""


_REUSED = _ReusedRecord()


def reused_state(options: IntArray, cards: int) -> Any:
    """`new_state(options, False, cards)` in the calling thread's own record, made once and reset at each call: for
    a caller that plays one tournament on it and keeps nothing of it past its next call (the whole game's market
    plays twelve a game, and a fresh 2.6 MB record each time cost about a tenth of the game: measured, 541-547
    against 565-591 games a second)."""
    reused = _REUSED
    reused.head[:] = _fresh_head(False)
    reused.counters[0, :, :cards] = 0
    reused.options[0] = options
    return reused.state


_FRESH_HEADS: dict[bool, NDArray[np.uint8]] = {}
"""The head of a fresh state record (its bytes before the counters), untraced and traced (`_fresh_head`)."""


def _fresh_head(traced: bool) -> NDArray[np.uint8]:
    """The bytes before the counters of a fresh state record, traced or not, with no options: zeros but for no deck
    box, accessory or metagame card (-1), no card wanted by the search (-1) and the trace's count (full when
    untraced). Made once each."""
    head = _FRESH_HEADS.get(traced)
    if head is None:
        record = np.zeros(1, dtype=STATE_DTYPE)
        state = record.view(np.recarray)[0]
        state.area[:, :, AR_CARD] = -1
        state.game[G_META : G_META + MAX_META_STACKS] = -1
        state.search[SR_WANTED] = -1
        state.ecount[0] = 0 if traced else MAX_TRACE_EVENTS
        head = _FRESH_HEADS[traced] = record.view(np.uint8)[:_COUNTERS_AT].copy()
    return head


def search_state(compiled: CompiledCards) -> dict[str, Any]:
    """The search policy's work: two state records of its own (`world`: a round's sampled world; `sim`: a rollout
    plays on a clone of it), whose counters nobody reads (nothing of a rollout is counted in the batch's)."""
    return {"sim": new_state(compiled.options), "world": new_state(compiled.options)}


def _run(
    compiled: CompiledCards,
    deck_a: IntArray,
    deck_b: IntArray,
    seeds: IntArray,
    first: Any,
    policy_a: int,
    policy_b: int,
    traced: bool,
    search_words: IntArray | None = None,
) -> tuple[Any, Any, Any, IntArray, IntArray, IntArray, IntArray]:
    """Play the batch on its own cards (`batch_cards`); with a `search` seat through `play_searched_matches`, adding
    its decision and rollout counts into `search_words` (SR_DECISIONS, SR_ROLLOUTS) when given."""
    n = seeds.shape[0]
    vp_a, place_a, rp_a = (np.zeros(n, dtype=np.int64) for _ in range(3))
    cards = batch_cards(compiled, deck_a, deck_b)
    state = new_state(compiled.options, traced, cards.ids.shape[0])
    extra = (cards.store, vp_a, place_a, rp_a, cards.meta)  # BATCH_STORE ... BATCH_META
    batch = new_batch(cards.deck_a, cards.deck_b, seeds, first, policy_a, policy_b, *extra)
    winners, turns = batch[BATCH_WINNERS], batch[BATCH_TURNS]
    if SEARCH in (policy_code(policy_a), policy_code(policy_b)):
        work = search_state(compiled)
        play_searched_matches(cards.g, state, batch, work["sim"], work["world"])
        if search_words is not None:
            search_words[SR_DECISIONS] += state.search[SR_DECISIONS]
            search_words[SR_ROLLOUTS] += state.search[SR_ROLLOUTS]
    else:
        play_matches(cards.g, state, batch)
    events = state.events[: int(state.ecount[0])] if traced else None
    trace = pairing_trace(cards.ids, events, EV_OTHER_IS_CARD, EV_CARD_IS_NOT_CARD)
    counters = pairing_counters(len(compiled.names), cards.ids, state.counters)
    return winners, turns, counters, vp_a, place_a, rp_a, trace


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
    """One batch of tournaments (`_run`), with the trace's room when `traced`; `batch_and_trace` makes the engine's
    `play_batch` and `play_traced` of it. The per-match extras are seat A's `vp`, `place` and `rp`, and `score` = A's
    VP as a share of the first-place VP of the round (what power curves compare: a card's power is its change in
    average VP, in units of a first prize)."""
    winners, turns, counters, vp_a, place_a, rp_a, trace = _run(
        compiled, deck_a, deck_b, seeds, first, policy_a, policy_b, traced
    )
    first_prize = float(VP_CHART[int(compiled.options[O_VP_ROUND]), 0])
    extras = {"vp": vp_a, "place": place_a, "rp": rp_a, "score": vp_a / first_prize}
    return BatchRun(winners, turns, counters, trace, extras)


play_batch, play_traced = batch_and_trace(run_batch)


def play_batch_detailed(
    compiled: CompiledCards,
    deck_a: IntArray,
    deck_b: IntArray,
    seeds: IntArray,
    first: Any,
    policy_a: int,
    policy_b: int,
) -> dict[str, Any]:
    """Like `play_batch`, plus seat A's VP, placement (1 = first; tied seats share the best place) and RP, and the
    search policy's decisions searched and rollouts played over the batch (0 without a `search` seat)."""
    words = np.zeros(SEARCH_WORDS, dtype=np.int64)
    winners, turns, counters, vp_a, place_a, rp_a, _ = _run(
        compiled, deck_a, deck_b, seeds, first, policy_a, policy_b, False, words
    )
    return {
        "winner": winners,
        "turns": turns,
        "counters": counters,
        "vp_a": vp_a,
        "place_a": place_a,
        "rp_a": rp_a,
        "search_decisions": int(words[SR_DECISIONS]),
        "search_rollouts": int(words[SR_ROLLOUTS]),
    }


SEATS = "ABCDE"


def describe_event(compiled: CompiledCards, row: Sequence[int]) -> str:
    """One trace row as a line a designer can read."""
    _turn, player, code, card, other, amount = (int(v) for v in row)
    who = SEATS[player] if 0 <= player < len(SEATS) else ""

    def name(card_id: int) -> str:
        return compiled.names[card_id] if card_id >= 0 else "?"

    def stars(card_id: int) -> int:
        return int(compiled.table[card_id, T_STARS])

    trigger = TRIGGER_CODES[other] if 0 <= other < len(TRIGGER_CODES) else "?"
    where = {W_BOX: "deck box", W_ACCESSORY_1: "accessory", W_ACCESSORY_2: "accessory"}.get(other, "tableau")
    lines: dict[int, Callable[[], str]] = {
        EV_SEAT: lambda: f"seat {who} plays deck {'A' if amount == 0 else 'B'}",
        EV_TURN: lambda: f"{who}'s turn ({amount} singles in hand, {other} RP)",
        EV_PLAY: lambda: f"{who} plays {name(card)} ({amount} stars) into slot {other + 1}",
        EV_PASS: lambda: (
            f"{who} cannot play a single ({'tableau full' if amount > 0 else 'no singles left'}) and passes from now on"
        ),
        EV_RP: lambda: (
            f"{name(card)}: {who} {'gains' if amount >= 0 else 'loses'} {abs(amount)} RP ({other} RP)"
            if card >= 0
            else f"{who} {'gains' if amount >= 0 else 'loses'} {abs(amount)} RP ({other} RP)"
        ),
        EV_FLIP: lambda: (
            f"{who}'s {name(card)} is flipped face-down"
            + (f" by {name(other)}" if other >= 0 else "")
            + (f" ({SEATS[amount]}'s effect)" if amount != player and 0 <= amount < len(SEATS) else "")
        ),
        EV_TOKENS: lambda: (
            f"{name(other)}: {who} will put {amount} +1 star tokens on the next single played"
            if card < 0
            else f"{who}'s {name(card)} gets {amount} +1 star token(s)"
            + (f" from {name(other)}" if other >= 0 else " (Blast Off)")
        ),
        EV_ACTION: lambda: f"{who} uses the Action of {name(card)} ({where})",
        EV_REACTION: lambda: f"{who} reacts ({trigger}) with {name(card)}",
        EV_CLASH: lambda: (
            f"{name(card)}: {who} clashes with all players"
            if amount == 1
            else f"{name(card)}: {who} clashes with {SEATS[other] if other >= 0 else '?'}"
        ),
        EV_REVEAL: lambda: (
            f"  {who}: Top card {name(card)} + store card {name(other)} ({stars(other)}) = {amount}"
            if other >= 0
            else f"  {who}: Top card {name(card)} + no card left in the store = {amount}"
        ),
        EV_CLASH_RESULT: lambda: (
            f"  the clash is a tie at {amount}" if player < 0 else f"  {who} wins the clash with {amount}"
        ),
        EV_NO_CLASH: lambda: f"{name(card)}: no clash ({who} or every opponent lacks a Top card)",
        EV_NO_TARGET: lambda: f"{name(card)}: no legal target, nothing happens",
        EV_PLACE: lambda: f"{who} places {other} with {card} RP: {amount} VP",
        EV_END: lambda: "nobody can play a single: the tournament ends; Score effects",
        EV_TRIMMED: lambda: f"{who} has more than {HAND_LIMIT} singles: {name(card)} goes back to the binder",
        EV_STORE_RESHUFFLED: lambda: f"the store is empty: the store discard ({amount} cards) is shuffled into it",
        EV_AFTERMARKET_CLEARED: lambda: f"the aftermarket is full: its {amount} cards go to the store discard",
        EV_OPENS: lambda: (
            f"{who} takes the first turn (A is number {amount} in turn order); A's head-to-head rival is {SEATS[other]}"
        ),
        EV_META: lambda: f"metagame: {name(card)} is revealed from meta stack {other + 1}",
        EV_DISCARD: lambda: (
            f"{who} discards {name(card)} from hand to the binder"
            + (f" ({name(other)}, {SEATS[amount]}'s effect)" if 0 <= amount < len(SEATS) and other >= 0 else "")
        ),
        EV_ATTACH: lambda: f"{who} attaches {name(card)} from hand to {name(other)} ({amount} attached)",
        EV_DETACH: lambda: f"{who}'s {name(card)} was flipped: its {amount} attached card(s) go back to the binder",
        EV_SLOT: lambda: f"{name(card)}: {who} gains {amount} tableau slot(s) ({other} in all)",
        EV_COPY: lambda: f"{who}'s {name(card)} copies the effects of {name(other)} (slot {amount + 1})",
    }
    describe = lines.get(code)
    return describe() if describe else f"event {code} (player {player}, card {card}, other {other}, amount {amount})"


ENGINE = Engine(
    # 4: the search's rollouts shared out by successive halving (its results change; greedy and random do not).
    # 5: the search's rollouts cut off after 8 turns by default (search_depth; its results change, the rest do not).
    version="5",
    policies=POLICY_NAMES,
    cost_axis="star rating",
    compile_cards=compile_cards,
    play_batch=play_batch,
    play_traced=play_traced,
    describe_event=describe_event,
    score_meaning="seat A's VP as a share of the round's first-place VP (power: change in average VP / first prize)",
)
