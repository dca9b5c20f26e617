"""The SOURCE engine's Python edge: compiling cards (`compile_cards`), the rules and state records, batches
(`play_batch`, `play_traced`), the trace's text (`describe_event`) and `ENGINE`.
"""

from __future__ import annotations

from collections.abc import (
    Mapping,
    Sequence,
)
from dataclasses import dataclass
from typing import Any

import numpy as np

from workbench.cards import (
    CardSet,
    Finding,
    OptionValue,
    WorkbenchInputError,
)
from workbench.engines import MAX_TRACE_EVENTS, CompiledCards, IntArray, check_deck_size
from workbench.play.assembly import BatchRun, Engine, batch_and_trace, pairing_counters, pairing_trace
from workbench.play.loop import BATCH_TURNS, BATCH_WINNERS, new_batch
from workbench.play.policies import GREEDY, POLICY_NAMES, RANDOM, SEARCH, policy_code
from workbench.rulesets.source.costs import (
    canonical_symbol,
    parse_brackets,
)
from workbench.rulesets.source.effects import (
    EffectClause,
    EffectProblem,
    parse_effects,
)
from workbench.rulesets.source.engine.greedy import play_matches
from workbench.rulesets.source.engine.layout import (
    ACTIVE_O,
    ACTIVE_Y,
    ALL_SYMBOLS,
    C_ARG,
    C_LOW,
    C_OP,
    CLAUSE_WIDTH,
    EC_COUNT,
    EC_ROOM,
    ENGINE_VERSION,
    EV_ATTACK,
    EV_CHANNEL,
    EV_CHANNEL_DONE,
    EV_CHANNEL_MISS,
    EV_CHANNEL_PLACE,
    EV_DECK_EMPTY,
    EV_DECK_OUT,
    EV_DESTROYED,
    EV_DISCARD,
    EV_DRAW,
    EV_EQUIP,
    EV_EQUIP_END,
    EV_EXPIRE,
    EV_EXPIRE_SET,
    EV_GEN_ATTACK,
    EV_MOVE,
    EV_MOVEMOD,
    EV_NO_RECALL,
    EV_NO_SUMMON,
    EV_NO_TOKEN,
    EV_NO_WEB,
    EV_NOATTACK,
    EV_NOMOVE,
    EV_OTHER_IS_CARD,
    EV_PARALLEL_SET,
    EV_PUSH,
    EV_RECALL,
    EV_SIDESTEP,
    EV_SP_CHANGE,
    EV_ST,
    EV_SUMMON,
    EV_SWAP,
    EV_SYMBOL,
    EV_TIE,
    EV_TRAP_SET,
    EV_TRAP_SPRING,
    EV_TURN,
    EV_TURN_CAP,
    EV_WEB_CLEARED,
    EV_WEB_SET,
    EV_WEBBED,
    FROM_DECK,
    FROM_HAND,
    GAME_DTYPE,
    K_CHANNELED,
    K_EQUIPMENT,
    K_MONSTER,
    K_TOKEN,
    K_TRAP,
    KINDS,
    MAX_BRACKETS,
    MAX_CLAUSES,
    MAX_DECK,
    MAX_PAIRING,
    O_BLIND,
    O_CARDS,
    O_CHANNEL_AT_START,
    O_DECK_OUT_LOSES,
    O_DECK_WIDTH,
    O_EFFECT_SUMMON_IGNORES,
    O_FLUX,
    O_HIT_GEN_FOR_GOOD,
    O_PARALLEL_ATTACKS,
    O_PARALLEL_STEPS,
    O_PARALLEL_WHEN_BLOCKED,
    O_RECALL_TO_DECK,
    O_SEARCH_DEPTH,
    O_SEARCH_POLICY,
    O_SEARCH_ROLLOUTS,
    O_SOURCEPOINTS,
    O_SP_CAP,
    O_SPACES,
    O_SUMMON_NEAREST,
    O_SUMMONING,
    O_SUPPORT,
    O_TIE,
    O_TOKEN_COPIES,
    O_TURN_CAP,
    O_WEB_BLOCKS,
    OP_TOKEN,
    OPCODES,
    OPEN_BRACKET,
    OPTIONS_WIDTH,
    RECALL_OPPONENT,
    SOURCEPOINTS_BY_LENGTH,
    STATE_DTYPE,
    SUMMON_CONVENTIONAL,
    SUMMON_EFFECT_DECK,
    SUMMON_EFFECT_HAND,
    SUMMON_REACTIONARY,
    SUMMON_TOKEN,
    SYMBOL_NAMES,
    SYMBOLS,
    T_ACTIVE,
    T_EQ_MOVE,
    T_EQ_NCOND,
    T_EQ_NOATTACK,
    T_EQ_NOMOVE,
    T_EQ_PARALLEL,
    T_EQ_ST,
    T_EQ_TYPES,
    T_KIND,
    T_NBRACKET,
    T_NCLAUSE,
    T_OTHER,
    T_ST,
    T_SYMBOLS,
    T_TERR,
    T_TURNS,
    T_TYPE,
    T_USES,
    T_VALUE,
    TABLE_WIDTH,
    TIES,
    TYPE_CODES,
    Z_CARDS,
    Z_DECK_WIDTH,
    Z_SPACES,
)
from workbench.rulesets.source.engine.search import play_searched_matches
from workbench.rulesets.source.map import (
    NO_SPACE,
    BoardMap,
    load_board,
)

# =====================================================================================================================
# The Python edge: compiling cards, state, batches, traces
# =====================================================================================================================


def option_array(options: Mapping[str, OptionValue], board: BoardMap) -> IntArray:
    """Rule options and the map's fixed spaces as the kernel's integer array (order: OPTION_ORDER, then the map)."""
    values = np.zeros(OPTIONS_WIDTH, dtype=np.int64)
    values[O_TURN_CAP] = int(options["turn_cap"])
    values[O_SOURCEPOINTS] = SOURCEPOINTS_BY_LENGTH[str(options["game_length"])]
    values[O_BLIND] = 1 if options["symbol_draw"] == "blind" else 0
    values[O_TIE] = TIES.index(str(options["combat_tie"]))
    values[O_TOKEN_COPIES] = int(options["token_deck_copies"])
    values[O_SP_CAP] = int(bool(options["sourcepoints_cap"]))
    values[O_DECK_OUT_LOSES] = int(bool(options["deck_out_loses"]))
    values[O_SUMMONING], values[O_SUMMONING + 1] = board.summoning
    values[O_FLUX], values[O_FLUX + 1] = board.flux
    values[O_SUPPORT] = board.half.support_spaces
    values[O_SPACES] = board.packed.shape[0]
    values[O_HIT_GEN_FOR_GOOD] = 1 if options["hit_generator_blocks"] == "for_good" else 0
    values[O_EFFECT_SUMMON_IGNORES] = 1 if options["effect_summon_requirements"] == "ignored" else 0
    values[O_RECALL_TO_DECK] = 1 if options["recall_to"] == "deck" else 0
    values[O_PARALLEL_STEPS] = int(options["parallel_steps"])
    values[O_WEB_BLOCKS] = 1 if options["web_hinders"] == "block" else 0
    values[O_SEARCH_ROLLOUTS] = int(options["search_rollouts"])
    values[O_SEARCH_POLICY] = RANDOM if options["search_rollout_policy"] == "random" else GREEDY
    values[O_SUMMON_NEAREST] = 1 if options["summon_placement"] == "nearest" else 0
    values[O_PARALLEL_WHEN_BLOCKED] = 1 if options["parallel_move"] == "when_blocked" else 0
    values[O_PARALLEL_ATTACKS] = 1 if options["parallel_attacks"] == "with_move_parallel" else 0
    values[O_CHANNEL_AT_START] = 1 if options["channel_on_opponent_turn"] == "turn_start" else 0
    values[O_SEARCH_DEPTH] = int(options["search_depth"])
    return values


EQUIPMENT_LASTING_VERBS = ("st", "move", "cannot_attack", "cannot_move", "move_parallel")
"""An equipment card's clauses that hold while it is active (kept in the card table), not run once."""


def _not_simulated(cardset: CardSet, entry: Any, message: str, actual: str) -> Finding:
    return cardset.finding(
        "info",
        "source.effect_not_simulated",
        f"{message} The simulator plays the card without it.",
        entry,
        "effects",
        expected="a clause of the SOURCE effects vocabulary the engine plays",
        actual=actual,
    )


def compile_cards(cardset: CardSet, options: Mapping[str, OptionValue]) -> CompiledCards:
    """The card table, the effect-clause and bracket tables, and the joined map."""
    turn_cap = int(options["turn_cap"])
    if turn_cap < 1 or int(options["token_deck_copies"]) < 0:
        raise WorkbenchInputError(
            "turn_cap must be at least 1 and token_deck_copies at least 0.",
            expected="turn_cap >= 1, token_deck_copies >= 0",
        )
    board = load_board(str(options["map"]), str(options["map_alignment"]))
    entries = list(cardset)
    names = [entry.card.name for entry in entries]
    table = np.zeros((len(entries), TABLE_WIDTH), dtype=np.int64)
    clause_table = np.zeros((len(entries), MAX_CLAUSES, CLAUSE_WIDTH), dtype=np.int64)
    bracket_table = np.zeros((len(entries), MAX_BRACKETS, 2), dtype=np.int64)
    findings: list[Finding] = []
    default_active = str(options["channeled_active_default"])
    for index, entry in enumerate(entries):
        card = entry.card
        kind = KINDS.index(card.kind)
        table[index, T_KIND] = kind
        table[index, T_TERR] = card.terrestrial  # type: ignore[attr-defined]
        table[index, T_OTHER] = card.otherworldly  # type: ignore[attr-defined]
        requirement = card.terrestrial + card.otherworldly  # type: ignore[attr-defined]
        if kind in (K_MONSTER, K_TOKEN):
            for s, field_name in enumerate(("alpha", "beta", "gamma", "delta")):
                table[index, T_ST + s] = getattr(card, field_name)
            table[index, T_VALUE] = sum(getattr(card, f) for f in ("alpha", "beta", "gamma", "delta"))
            monster_type = getattr(card, "type", None)
            if monster_type in TYPE_CODES:
                table[index, T_TYPE] = 1 << TYPE_CODES.index(monster_type)
        elif kind == K_EQUIPMENT:
            table[index, T_TURNS] = card.turns  # type: ignore[attr-defined]
            table[index, T_VALUE] = 40 + 25 * requirement
        elif kind == K_TRAP:
            table[index, T_VALUE] = 30 + 25 * requirement
        else:
            table[index, T_VALUE] = 45
        active = getattr(card, "active", None) or (default_active if kind == K_CHANNELED else "Y/O")
        table[index, T_ACTIVE] = {"Y": ACTIVE_Y, "O": ACTIVE_O, "Y/O": ACTIVE_Y | ACTIVE_O}[active]
        labels: list[str] = []
        if kind == K_CHANNELED:
            table[index, T_USES] = card.uses  # type: ignore[attr-defined]
            for symbol in card.symbols:  # type: ignore[attr-defined]
                name = canonical_symbol(symbol)
                if name is not None:
                    table[index, T_SYMBOLS] |= 1 << SYMBOL_NAMES.index(name)
            parsed = parse_brackets(card.brackets) or []  # type: ignore[attr-defined]
            for b, written in enumerate(parsed[:MAX_BRACKETS]):
                bracket_table[index, b] = (written.low, OPEN_BRACKET if written.high is None else written.high)
                labels.append(written.label())
            table[index, T_NBRACKET] = min(len(parsed), MAX_BRACKETS)
        count = 0
        for item in parse_effects(card.effects, card.kind):  # type: ignore[attr-defined]
            if isinstance(item, EffectProblem):
                findings.append(_not_simulated(cardset, entry, item.reason, item.text))
                continue
            assert isinstance(item, EffectClause)
            bracket = -1
            if item.bracket is not None:
                if item.bracket not in labels:
                    findings.append(
                        _not_simulated(
                            cardset,
                            entry,
                            f"the clause `{item.text}` sits under bracket {item.bracket}, which the "
                            "brackets column does not have.",
                            item.text,
                        )
                    )
                    continue
                bracket = labels.index(item.bracket)
            arg = 0
            if item.verb == "st":
                arg = ALL_SYMBOLS if item.symbol is None else ("alpha", "beta", "gamma", "delta").index(item.symbol)
            if item.verb == "summon_token":
                target = cardset.find(item.token or "")
                if target is None or target.card.kind != "token":
                    findings.append(
                        _not_simulated(cardset, entry, f"`{item.text}` names no token of this set.", item.text)
                    )
                    continue
                if kind == K_TOKEN:
                    findings.append(
                        _not_simulated(cardset, entry, "a token summoning a token is not simulated.", item.text)
                    )
                    continue
                arg = names.index(target.card.name)
            if item.verb == "summon_from":
                arg = FROM_DECK if item.source == "deck" else FROM_HAND
            if item.verb == "recall":
                arg = (0 if item.card_kind is None else KINDS.index(item.card_kind) + 1) + (
                    RECALL_OPPONENT if item.source == "opponent" else 0
                )
            if kind == K_TOKEN and (
                item.foe or item.verb not in ("st", "move", "cannot_attack", "expire", "move_parallel")
            ):
                findings.append(
                    _not_simulated(
                        cardset,
                        entry,
                        f"a token's `{item.text}` is not simulated: only its own ST, move, cannot attack, "
                        "expire and move parallel clauses are.",
                        item.text,
                    )
                )
                continue
            types = sum(1 << TYPE_CODES.index(code) for code in item.types)
            lasting_own = not item.foe and item.verb in (
                "st",
                "move",
                "cannot_attack",
                "cannot_move",
                "expire",
                "move_parallel",
            )
            if types and kind in (K_MONSTER, K_TOKEN) and lasting_own:
                # A monster's own lasting clause: its type is known now, so the condition holds always or never.
                if not table[index, T_TYPE] & types:
                    findings.append(
                        _not_simulated(
                            cardset,
                            entry,
                            f"`{item.text}` asks its own monster for a type it does not have, so it never applies.",
                            item.text,
                        )
                    )
                    continue
                types = 0
            if kind == K_EQUIPMENT and not item.foe and item.verb in EQUIPMENT_LASTING_VERBS:
                # Lasting while the equipment is active: kept in the card table, not run as a one-off clause. One
                # `if TYPE` holds for all of a card's lasting clauses, so they apply to one monster all or none.
                if table[index, T_EQ_NCOND] and table[index, T_EQ_TYPES] != types:
                    findings.append(
                        _not_simulated(
                            cardset,
                            entry,
                            f"`{item.text}` asks for other types than the card's other lasting clauses; an "
                            "equipment card's lasting clauses share one `if TYPE`.",
                            item.text,
                        )
                    )
                    continue
                table[index, T_EQ_NCOND] = 1
                table[index, T_EQ_TYPES] = types
                if item.verb == "st":
                    for s in range(SYMBOLS):
                        if arg in (ALL_SYMBOLS, s):
                            table[index, T_EQ_ST + s] += item.amount or 0
                elif item.verb == "move":
                    table[index, T_EQ_MOVE] += item.amount or 0
                elif item.verb == "move_parallel":
                    table[index, T_EQ_PARALLEL] = 1
                elif item.verb == "cannot_move":
                    table[index, T_EQ_NOMOVE] = 1
                else:
                    table[index, T_EQ_NOATTACK] = 1
                continue
            if count == MAX_CLAUSES:
                findings.append(
                    _not_simulated(cardset, entry, f"only the first {MAX_CLAUSES} clauses are simulated.", item.text)
                )
                continue
            clause_table[index, count, :C_LOW] = (
                OPCODES[item.verb],
                int(item.foe),
                item.amount or 0,
                arg,
                bracket,
                types,
            )
            count += 1
        table[index, T_NCLAUSE] = count
        clause_table[index, :, C_LOW:] = bracket_table[index]
    cost = np.array([float(table[i, T_TERR] + table[i, T_OTHER]) for i in range(len(entries))], dtype=np.float64)
    cost[table[:, T_KIND] == K_TOKEN] = np.nan  # tokens live in the token deck, never in a measured main deck
    return CompiledCards(
        names=tuple(names),
        table=table,
        cost=cost,
        slot=table[:, T_KIND].copy(),
        options=option_array(options, board),
        findings=tuple(findings),
        max_deck_cards=MAX_DECK,
        extra={
            # A card's clauses with its brackets in columns C_LOW and C_HIGH: what the kernels read.
            "clauses": clause_table,
            # The brackets alone (the trace's labels read them).
            "brackets": bracket_table,
            "map": board.packed,
            "distance": board.distance,
            "space_names": board.names,
        },
    )


@dataclass(frozen=True)
class Pairing:
    """A pairing's own card table: the distinct cards of its two decks and the tokens their clauses summon, which the
    kernels play on instead of the whole set's table, so that the state's piles and counters (STATE_DTYPE) have a
    fixed size (MAX_PAIRING rows)."""

    ids: IntArray
    """The pairing's cards as the set's card ids, ascending: pairing id i is set id ids[i], so every comparison of
    card ids (an order, a tie broken by id) is the same on either."""
    deck_a: IntArray
    """Deck A in the pairing's ids."""
    deck_b: IntArray
    """Deck B in the pairing's ids."""


def pairing(compiled: CompiledCards, deck_a: IntArray, deck_b: IntArray) -> Pairing:
    """The pairing of deck_a and deck_b (card ids of `compiled`, each checked by `check_deck_size`) on its own
    table: their cards and the tokens their `summon_token` clauses name (the only cards a match can bring in)."""
    deck_a, deck_b = check_deck_size(deck_a, MAX_DECK), check_deck_size(deck_b, MAX_DECK)
    cards = np.unique(np.concatenate([deck_a, deck_b]))
    clauses = compiled.extra["clauses"][cards]
    tokens = clauses[:, :, C_ARG][clauses[:, :, C_OP] == OP_TOKEN]
    ids = np.unique(np.concatenate([cards, tokens])).astype(np.int64)
    if len(ids) > MAX_PAIRING:
        raise WorkbenchInputError(
            f"the two decks hold {len(ids)} distinct cards (tokens included), more than the simulator plays.",
            expected=f"at most {MAX_PAIRING} distinct cards in a pairing",
        )
    return Pairing(
        ids=ids,
        deck_a=np.searchsorted(ids, deck_a).astype(np.int64),
        deck_b=np.searchsorted(ids, deck_b).astype(np.int64),
    )


def new_game(compiled: CompiledCards, ids: IntArray, deck_size: int) -> Any:
    """The game record G (GAME_DTYPE) of a batch on the cards `ids` (the set's ids, ascending: a pairing's, or every
    card of a small set for a scenario) with decks of up to `deck_size` cards."""
    ids = np.asarray(ids, dtype=np.int64)
    if len(ids) > MAX_PAIRING:
        raise WorkbenchInputError(
            f"{len(ids)} distinct cards are more than the simulator plays at once.",
            expected=f"at most {MAX_PAIRING}",
        )
    spaces = int(compiled.options[O_SPACES])
    game = np.zeros(1, dtype=GAME_DTYPE).view(np.recarray)[0]
    game.table[: len(ids)] = compiled.table[ids]
    clauses = compiled.extra["clauses"][ids].copy()
    # A `summon_token` clause names its token by the set's id: the pairing's here.
    tokens = clauses[:, :, C_OP] == OP_TOKEN
    clauses[:, :, C_ARG][tokens] = np.searchsorted(ids, clauses[:, :, C_ARG][tokens])
    game.clauses[: len(ids)] = clauses
    game.opts[:OPTIONS_WIDTH] = compiled.options
    game.opts[O_DECK_WIDTH] = max(deck_size, 1)
    game.opts[O_CARDS] = len(ids)
    game.mp[:, :] = NO_SPACE
    game.mp[:spaces] = compiled.extra["map"]
    game.dist[:spaces, :spaces] = compiled.extra["distance"]
    return game


def new_state(game: Any, trace_room: int = 0) -> Any:
    """An empty match state S (STATE_DTYPE record) for batches on the game record `game`, its trace room for
    `trace_room` rows (0: untraced)."""
    state = np.zeros(1, dtype=STATE_DTYPE).view(np.recarray)[0]
    state.mon[:, :] = -1
    state.cells[:, :] = -1
    state.sup[:, :, :] = -1
    state.ec[EC_ROOM] = min(trace_room, MAX_TRACE_EVENTS)
    state.sizes[Z_SPACES] = game.opts[O_SPACES]
    state.sizes[Z_DECK_WIDTH] = game.opts[O_DECK_WIDTH]
    state.sizes[Z_CARDS] = game.opts[O_CARDS]
    return state


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
    """One batch on the pairing's own game data (`pairing`, `new_game`), with the trace's room when `traced`;
    `batch_and_trace` makes the engine's `play_batch` and `play_traced` of it. The state's counters, by the pairing's
    card ids, are the set's after the batch (`pairing_counters`)."""
    pair = pairing(compiled, deck_a, deck_b)
    game = new_game(compiled, pair.ids, max(len(deck_a), len(deck_b)))
    state = new_state(game, MAX_TRACE_EVENTS if traced else 0)
    batch = new_batch(pair.deck_a, pair.deck_b, seeds, first, policy_a, policy_b)
    if SEARCH in (policy_code(policy_a), policy_code(policy_b)):
        # The rollouts' records (untraced: their counters and trace nobody reads).
        play_searched_matches(game, state, batch, new_state(game), new_state(game))
    else:
        play_matches(game, state, batch)
    counters = pairing_counters(len(compiled.names), pair.ids, state.counters)
    trace = pairing_trace(pair.ids, state.events[: int(state.ec[EC_COUNT])] if traced else None, EV_OTHER_IS_CARD)
    return BatchRun(batch[BATCH_WINNERS], batch[BATCH_TURNS], counters, trace)


play_batch, play_traced = batch_and_trace(run_batch)


def describe_event(compiled: CompiledCards, row: Sequence[int]) -> str:
    """One trace row as a line a designer can read."""
    _turn, player, code, card, other, amount = (int(v) for v in row)
    me = "AB"[player] if player in (0, 1) else ""
    spaces: tuple[str, ...] = compiled.extra["space_names"]

    def name(card_id: int) -> str:
        return compiled.names[card_id] if card_id >= 0 else "?"

    def space(index: int) -> str:
        return spaces[index] if 0 <= index < len(spaces) else "?"

    def symbols(which: int) -> str:
        return "each ST" if which == ALL_SYMBOLS else f"{SYMBOL_NAMES[which]} ST"

    how = {
        SUMMON_CONVENTIONAL: "summons",
        SUMMON_REACTIONARY: "makes a reactionary summon of",
        SUMMON_TOKEN: "summons the token",
        SUMMON_EFFECT_HAND: "summons by an effect, from hand,",
        SUMMON_EFFECT_DECK: "summons by an effect, from the deck,",
    }
    lines = {
        EV_TURN: lambda: f"{me}'s turn (SourcePoints: {me} {amount}, {'AB'[1 - player]} {other})",
        EV_DRAW: lambda: f"{me} draws {name(card)}",
        EV_DECK_EMPTY: lambda: f"{me} has no card left to draw",
        EV_DECK_OUT: lambda: f"{me} must draw from an empty deck and loses",
        EV_SUMMON: lambda: f"{me} {how.get(amount, 'summons')} {name(card)} onto {space(other)}",
        EV_PUSH: lambda: f"{name(card)} ({me}) is pushed back from {space(other)} to {space(amount)}",
        EV_SYMBOL: lambda: (
            f"{me} draws the {SYMBOL_NAMES[other]} symbol: {name(card)}'s {SYMBOL_NAMES[other]} ST is {amount}"
        ),
        EV_MOVE: lambda: (
            f"{name(card)} ({me}) moves from {space(other)} to {space(amount)}"
            if other != amount
            else f"{name(card)} ({me}) cannot move from {space(other)}"
        ),
        EV_SWAP: lambda: f"{name(card)} ({me}) swaps back from {space(other)} to {space(amount)}",
        EV_ATTACK: lambda: f"{me} attacks {name(other)} (ST {amount}) with {name(card)}",
        EV_DESTROYED: lambda: f"{name(card)} ({me}) is destroyed" + (f" by {name(other)}" if other >= 0 else ""),
        EV_TIE: lambda: f"{name(card)} and {name(other)} tie at {amount}: neither is destroyed",
        EV_GEN_ATTACK: lambda: (
            f"{name(card)} ({me}) attacks {'AB'[1 - player]}'s SOURCE generator for {amount}: "
            f"{'AB'[1 - player]} has {other} SourcePoints; {me}'s turn ends"
        ),
        EV_EQUIP: lambda: f"{me} equips {name(other)} with {name(card)} ({amount} turns)",
        EV_EQUIP_END: lambda: f"{me}'s {name(card)} goes to the Done Zone",
        EV_TRAP_SET: lambda: f"{me} sets a trap face down on {space(other)} ({name(card)})",
        EV_TRAP_SPRING: lambda: f"{me}'s trap {name(card)} springs on {name(other)} at {space(amount)}",
        EV_CHANNEL_PLACE: lambda: f"{me} places the channeled effect {name(card)} ({amount} uses)",
        EV_CHANNEL: lambda: (
            f"{me} channels {name(card)} through {name(other)} (bracket {_bracket_label(compiled, card, amount)})"
        ),
        EV_CHANNEL_MISS: lambda: (
            f"{me}'s {name(card)} is not activated: "
            + (
                f"the {SYMBOL_NAMES[other]} symbol is not one of its symbols"
                if amount == 0
                else "no bracket holds the ST"
            )
        ),
        EV_CHANNEL_DONE: lambda: f"{me}'s {name(card)} is used up and goes to the Done Zone",
        EV_ST: lambda: (
            f"{name(card)} ({me}): {symbols(other % 10)} {amount:+d}" + (" this turn" if other >= 10 else "")
        ),
        EV_MOVEMOD: lambda: f"{name(card)} ({me}) moves {amount:+d} spaces" + (" this turn" if other == 1 else ""),
        EV_NOATTACK: lambda: f"{name(card)} ({me}) may not attack" + (" this turn" if other == 1 else ""),
        EV_NOMOVE: lambda: f"{name(card)} ({me}) may not move" + (" this turn" if other == 1 else ""),
        EV_EXPIRE_SET: lambda: (
            f"{name(card)} ({me}) will be destroyed at the end of the {_ordinal(amount)} turn, counting this one"
        ),
        EV_SP_CHANGE: lambda: f"{name(card)}: {me}'s SourcePoints {amount:+d} (now {other})",
        EV_DISCARD: lambda: f"{me} discards {name(card)} (hand limit 10)",
        EV_EXPIRE: lambda: f"{name(card)} ({me}) expires",
        EV_TURN_CAP: lambda: f"turn cap of {amount} turns reached: the match is a draw",
        EV_NO_TOKEN: lambda: (
            f"{me} cannot summon {name(card)}: "
            + ("no free space next to the card's subject" if amount == 1 else "no copy left in the token deck")
        ),
        EV_PARALLEL_SET: lambda: (
            f"{name(card)} ({me}) may move across parallel spaces" + (" this turn" if other == 1 else "")
        ),
        EV_SIDESTEP: lambda: f"{name(card)} ({me}) steps across from {space(other)} to the parallel {space(amount)}",
        EV_WEB_SET: lambda: f"{name(card)}: {me} lays a web tile on {space(other)}",
        EV_WEB_CLEARED: lambda: f"{name(card)}: {me} removes the opponent's web tile from {space(other)}",
        EV_WEBBED: lambda: (
            f"{name(card)} ({me}) is caught in {'AB'[other] if other in (0, 1) else '?'}'s web on {space(amount)}: "
            "its move ends"
        ),
        EV_NO_WEB: lambda: f"{name(card)}: {me} finds no space to lay a web tile on",
        EV_RECALL: lambda: (
            f"{me} brings {name(card)} back from "
            + ("their own" if other == player else f"{'AB'[other] if other in (0, 1) else '?'}'s")
            + (" Done Zone onto the top of their deck" if amount == 1 else " Done Zone into their hand")
        ),
        EV_NO_RECALL: lambda: (
            f"{me} brings nothing back: no "
            + (KINDS[amount - 1] + " " if 0 < amount <= len(KINDS) else "")
            + f"card in {'their own' if other == player else 'the opponent' + chr(39) + 's'} Done Zone"
        ),
        EV_NO_SUMMON: lambda: (
            f"{name(card)}: {me} summons nothing from {'the deck' if other == FROM_DECK else 'hand'} "
            + ("(no free space next to the card's subject)" if amount == 1 else "(no monster it may summon there)")
        ),
    }
    describe = lines.get(code)
    return describe() if describe else f"event {code} (player {player}, card {card}, other {other}, amount {amount})"


def _ordinal(n: int) -> str:
    return f"{n}" + ("th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th"))


def _bracket_label(compiled: CompiledCards, card: int, bracket: int) -> str:
    low, high = (int(v) for v in compiled.extra["brackets"][card, bracket])
    return f"{low}+" if high >= OPEN_BRACKET else f"{low}-{high}"


MAP_CAVEAT = (
    "SOURCE's map (its roads, forks and parallel spaces) is the workbench's reconstruction from the rule document's "
    "words, whose pictures are missing: every movement, and so every figure and verdict of this engine, rests on it "
    "(docs/rulesets/source.md, The map)."
)
"""Said with every SOURCE result (issue 32, item 10)."""

ENGINE = Engine(
    version=ENGINE_VERSION,
    policies=POLICY_NAMES,
    cost_axis="occupied spaces required",
    compile_cards=compile_cards,
    play_batch=play_batch,
    play_traced=play_traced,
    describe_event=describe_event,
    caveats=(MAP_CAVEAT,),
)
