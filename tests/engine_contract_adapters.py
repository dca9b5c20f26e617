"""The engine contract's adapters (DESIGN.md section 4, issue 31 items 5 and 6), read by test_engine_contract.py.

The contract: game data `G` and the whole match state `S` as one record each; `legal_actions(G, S, out) -> n`,
`apply(G, S, row)`, `clone(S, into)`, `determinize(G, S, seat, rng)`. Today's five engines keep it in five shapes.
Each adapter below is the map from the contract's names to one engine's functions, so it also says what that
engine has today: where its G and S live (`SHAPE`), which functions answer to the contract's four names
(`CONTRACT`), how a match's state is reached and compared array by array (`parts`), what its clone leaves as the
target's own (`clone_leaves`), and what its seat cannot see (`hidden`).

Run as a script (under NUMBA_DISABLE_JIT=1: the wrappers replace module functions, which only the uncompiled engine
looks up at each call), it plays a few seeded matches of one engine with every door through which a policy's
answer or an applied row goes wrapped, and prints what it checked as JSON (`replay`):

    NUMBA_DISABLE_JIT=1 .venv/bin/python tests/engine_contract_adapters.py RULESET
"""

from __future__ import annotations

import functools
import importlib.util
import json
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from workbench.decklists import read_decklist
from workbench.engines import THIS_MATCH, rng_seed
from workbench.loading import load_cardset
from workbench.paths import bundled_decks, bundled_sets
from workbench.play.loop import new_batch
from workbench.play.policies import GREEDY, RANDOM
from workbench.rulesets import RULESETS
from workbench.rulesets.blades import engine as blades
from workbench.rulesets.circles import engine as circles
from workbench.rulesets.plasma import engine as plasma
from workbench.rulesets.souls import engine as souls
from workbench.rulesets.source import engine as source
from workbench.simulate import compile_for

Index = tuple[Any, ...]
"""Where in one array of the state: a numpy index (ints and slices)."""
Pool = list[tuple[str, Index]]
"""Places of the state whose cards a seat cannot tell apart: any permutation of their cards among them is a state
the seat cannot tell from the real one."""


@dataclass
class Match:
    """One match as today's engine keeps it: `G` the game data its kernels take (read only), `arrays` every array
    its state travels in (owned here: copying them copies the match), `extra` what a blank state of its sizes needs
    and how many seats it has."""

    G: dict[str, Any]
    arrays: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)

    def copy(self) -> Match:
        return Match(self.G, {k: v.copy() for k, v in self.arrays.items()}, dict(self.extra))


def _bundled(ruleset_id: str, options: dict[str, Any] | None = None) -> tuple[Any, Any, list[Any]]:
    """The bundled set's engine, compiled cards (under `options`) and deck arrays (made once per options)."""
    return _bundled_once(ruleset_id, tuple(sorted((options or {}).items())))


@functools.cache
def _bundled_once(ruleset_id: str, options: tuple[tuple[str, Any], ...]) -> tuple[Any, Any, list[Any]]:
    cardset = load_cardset(bundled_sets(ruleset_id)[0], RULESETS[ruleset_id])
    engine, compiled, _ = compile_for(cardset, dict(options))
    decks = [compiled.deck_array(read_decklist(path, cardset)) for path in bundled_decks(ruleset_id)]
    return engine, compiled, decks


def _record(dtype: np.dtype[Any]) -> Any:
    """A zeroed one-element record array (the record a kernel takes is its element 0)."""
    return np.zeros(1, dtype=dtype).view(np.recarray)


def _fields(record_array: Any) -> dict[str, Any]:
    """The fields of a one-element record array, as views."""
    record = record_array[0]
    return {name: record[name] for name in record_array.dtype.names}


def _one_match_args(seed: int, first: int) -> tuple[Any, Any]:
    return np.array([seed], dtype=np.int64), np.array([first], dtype=np.int8)


class Adapter(ABC):
    """What every adapter answers: the six abstract methods are each engine's own (all five adapters below define
    them); the other defaults suit an engine with nothing to say."""

    ruleset = ""
    E: Any = None
    """The engine module."""
    SHAPE: dict[str, str] = {}
    """Where today's engine keeps the contract's G and S."""
    CONTRACT: dict[str, str] = {}
    """The contract's four names -> today's function and signature."""
    ROLES: dict[str, tuple[str, ...]] = {}
    """The contract's four names -> what each parameter of today's function is, in order: "G" game data, "S" the
    state record, "GS" a buffer holding both, "S+" an array of the state beside its record (counters, events, piles,
    store), "seat", "rng" (a generator or a seed), "out" (where rows are listed), "row", "into" (a clone's target)
    and "into+" (an array of the target beside its record)."""
    clone_leaves: dict[str, str] = {}
    """Arrays of the state today's clone does not copy (they stay the target's own), and why."""
    clone_misses: dict[str, str] = {}
    """Of `clone_leaves`, those the rules read as the match plays on: a clone that leaves them does not play on as
    its source would, so the engine's clone is not the contract's exact clone."""
    determinize_scratch: frozenset[str] = frozenset()
    """Arrays `determinize` may change besides the hidden places: its generator and its scratch."""
    extra_states: tuple[tuple[int, int, dict[str, Any]], ...] = ()
    """(seed, turn cap, options) of states the checks start from besides the common ones: where something hidden
    that the common ones lack comes up (a face-down trap, a blind symbol draw)."""

    @abstractmethod
    def match(
        self,
        seed: int,
        turn_cap: int,
        policies: tuple[int, int] = (GREEDY, RANDOM),
        options: dict[str, Any] | None = None,
    ) -> Match:
        raise NotImplementedError

    @abstractmethod
    def blank(self, m: Match) -> Match:
        """A state of the same cards and sizes as m's, for a clone to go into."""
        raise NotImplementedError

    @abstractmethod
    def parts(self, m: Match) -> dict[str, Any]:
        """Every array of m's state, by name (views: writing one writes the state)."""
        raise NotImplementedError

    def live(self, m: Match) -> dict[str, Any]:
        """`parts` copied, with the words no rule reads (slots past the count in use) set to 0."""
        return {name: np.array(part, copy=True) for name, part in self.parts(m).items()}

    @abstractmethod
    def clone(self, m: Match, into: Match) -> None:
        raise NotImplementedError

    @abstractmethod
    def determinize(self, m: Match, seat: int, seed: int) -> None:
        """Today's determinize, its randomness seeded with `seed` (a generator argument, or the state's own words)."""
        raise NotImplementedError

    @abstractmethod
    def hidden(self, m: Match, seat: int) -> list[Pool]:
        raise NotImplementedError

    def kind_of(self, m: Match, place: tuple[str, Index]) -> int:
        """What a place of a hidden pool may hold: a state moves cards only between places of one kind (a trap slot
        holds a trap card); `determinize` deals the whole pool."""
        return 0

    def derived(self, m: Match, seat: int) -> list[tuple[str, Index]]:
        """Words the state keeps about cards the seat cannot see (worked out from them), which `determinize` works
        out again for the cards it deals."""
        return []

    def refresh(self, m: Match) -> None:  # noqa: B027 (a default: an engine with no derived words has nothing to do)
        """Work out the `derived` words again (after the hidden cards were moved)."""

    fewest_decisions = 20
    """The fewest rows each of the contract test's stepped matches must apply: several turns' decisions."""

    not_stepped = "its rules call the policies' doors in the middle of a turn: a match cannot be stepped from outside"
    """Why `stepped_match` cannot play this engine's match decision by decision (docs/simulation.md's table)."""

    def stepped_match(
        self, seed: int, turn_cap: int, policies: tuple[int, int], choose: Callable[[Match, list[int]], int] | None
    ) -> tuple[Match, int]:
        """The match of `match(seed, turn_cap, policies)` played from outside, one decision at a time through the
        contract: the rules set it up and stop at its first decision; then, until it is over, `legal_actions` lists
        the open decision's rows, a row is chosen (`choose(m, rows)`, or with None the deciding side's own policy,
        the engine's `decide`), it must be listed, and `apply` takes it. Returns the final state and how many rows
        were applied. An engine whose rules do not stop at a decision raises NotImplementedError."""
        raise NotImplementedError(self.not_stepped)


# ---------------------------------------------------------------------------------------------------------------------
# circles: R and S, two flat int64 buffers


class CirclesAdapter(Adapter):
    ruleset = "circles"
    E = circles
    SHAPE = {
        "G": "`R`: one flat int64 buffer (options, ability table, card table)",
        "S": "`S`: one flat int64 buffer (header, sides, game, dice, search tape, decision, zones, lanes, action "
        "list, counters, trace)",
    }
    CONTRACT = {
        "legal_actions": "legal_actions(R, S, out) -> n",
        "apply": "apply(R, S, k)",
        "clone": "clone(S, into)",
        "determinize": "determinize(R, S, s, rng)",
    }
    ROLES = {
        "legal_actions": ("G", "S", "out"),
        "apply": ("G", "S", "row"),
        "clone": ("S", "into"),
        "determinize": ("G", "S", "seat", "rng"),
    }
    clone_leaves = {
        "event_rows": "into's own trace room (H_EVENT_ROWS)",
        "event_count": "set to 0: the clone logs from scratch",
        "actions": "the action list, rewritten by the next listing",
        "counters": "the batch's counters",
        "events": "the trace",
    }

    def match(
        self,
        seed: int,
        turn_cap: int,
        policies: tuple[int, int] = (GREEDY, RANDOM),
        options: dict[str, Any] | None = None,
    ) -> Match:
        E = self.E
        _, compiled, decks = _bundled("circles", {"turn_cap": turn_cap} | (options or {}))
        deck_a, deck_b = decks[0], decks[-1]
        capacity = max(len(deck_a), len(deck_b)) + 1
        state, _ = E.state_buffer(capacity, len(compiled.names), 0)
        R = E.rules_buffer(compiled)
        seeds, first = _one_match_args(seed, seed % 2)
        E.play_matches(R, state, new_batch(deck_a, deck_b, seeds, first, *policies))
        return Match({"R": R, "compiled": compiled}, {"S": state}, {"capacity": capacity})

    def blank(self, m: Match) -> Match:
        state, _ = self.E.state_buffer(m.extra["capacity"], len(m.G["compiled"].names), 0)
        return Match(m.G, {"S": state}, dict(m.extra))

    def parts(self, m: Match) -> dict[str, Any]:
        E, S = self.E, m.arrays["S"]
        capacity, cards = int(S[E.H_CAPACITY]), int(S[E.H_CARDS])
        lanes_at = E.ZONES_AT + 8 * capacity
        actions_at = lanes_at + 2 * capacity * E.LANE_COLUMNS
        counters_at = actions_at + E.ACTION_WIDTH * int(S[E.H_ACTION_ROWS])
        events_at = counters_at + 2 * cards * E.COUNTER_COLUMNS
        return {
            "sizes": S[E.H_CAPACITY : E.H_EVENT_ROWS],
            "event_rows": S[E.H_EVENT_ROWS : E.H_ACTION_ROWS],
            "action_rows": S[E.H_ACTION_ROWS : E.SIDE_AT],
            "side": S[E.SIDE_AT : E.GAME_AT],
            "game": S[E.GAME_AT : E.RNG_AT],
            "rng": S[E.RNG_AT : E.EVENT_COUNT_AT],
            "event_count": S[E.EVENT_COUNT_AT : E.SEARCH_AT],
            "search": S[E.SEARCH_AT : E.DECISION_AT],
            "decision": S[E.DECISION_AT : E.ZONES_AT],
            "zones": S[E.ZONES_AT : lanes_at].reshape(2, 4, capacity),
            "lanes": S[lanes_at:actions_at],
            "actions": S[actions_at:counters_at],
            "counters": S[counters_at:events_at],
            "events": S[events_at:],
        }

    def live(self, m: Match) -> dict[str, Any]:
        # The action list and its row count (D_N) are what the last listing wrote: greedy answers a hand decision
        # without one (D_N UNLISTED), a match played from outside lists every decision, and no rule reads them before
        # the next listing.
        parts = super().live(m)
        parts["actions"][:] = 0
        parts["decision"][self.E.D_N] = 0
        return parts

    fewest_decisions = 10
    """A circles match is short (2 Life Points each): the test's greedy-against-random seed 1 ends after 4 turns and 12
    decisions."""

    not_stepped = ""

    def stepped_match(
        self, seed: int, turn_cap: int, policies: tuple[int, int], choose: Callable[[Match, list[int]], int] | None
    ) -> tuple[Match, int]:
        # `match`'s batch of one, played here decision by decision: set up and played to the first decision
        # (`open_match`), then each open decision's rows listed (`legal_actions`), a row chosen (the deciding side's
        # `decide`, which lists them itself, or `choose`'s among them) and taken (`apply`), until `is_over`.
        E = self.E
        _, compiled, decks = _bundled("circles", {"turn_cap": turn_cap})
        deck_a, deck_b = decks[0], decks[-1]
        capacity = max(len(deck_a), len(deck_b)) + 1
        S, _ = E.state_buffer(capacity, len(compiled.names), 0)
        R = E.rules_buffer(compiled)
        m = Match({"R": R, "compiled": compiled}, {"S": S}, {"capacity": capacity})
        seeds, first = _one_match_args(seed, seed % 2)
        E.open_match(R, S, deck_a, deck_b, policies[0], policies[1], seeds[0], np.int64(first[0]))
        actions = self.parts(m)["actions"].reshape(-1, E.ACTION_WIDTH)
        applied = 0
        while not E.is_over(S):
            n = int(E.legal_actions(R, S, actions))
            assert n > 0, "the rules stopped at a decision with no legal action"
            k = int(E.decide(R, S, 0)) if choose is None else choose(m, list(range(n)))
            assert 0 <= k < n, (k, n)
            E.apply(R, S, np.int64(k))
            applied += 1
        E.finish_match(S, np.int64(0), np.zeros(1, dtype=np.int8), np.zeros(1, dtype=np.int32))
        return m, applied

    def clone(self, m: Match, into: Match) -> None:
        self.E.clone(m.arrays["S"], into.arrays["S"])

    def determinize(self, m: Match, seat: int, seed: int) -> None:
        rng = np.zeros(4, dtype=np.int64)
        rng_seed(rng, seed)
        self.E.determinize(m.G["R"], m.arrays["S"], np.int64(seat), rng)

    def hidden(self, m: Match, seat: int) -> list[Pool]:
        E = self.E
        side = self.parts(m)["side"].reshape(2, E.SIDE_COLUMNS)
        foe = 1 - seat
        top, end = int(side[foe, E.S_DECK_TOP]), int(side[foe, E.S_DECK_N])
        own_top, own_end = int(side[seat, E.S_DECK_TOP]), int(side[seat, E.S_DECK_N])
        return [
            [("zones", (foe, E.HAND, slice(0, int(side[foe, E.S_HAND_N])))), ("zones", (foe, E.DECK, slice(top, end)))],
            [("zones", (seat, E.DECK, slice(own_top, own_end)))],
        ]


# ---------------------------------------------------------------------------------------------------------------------
# souls: `G` and `st`, two flat int64 buffers


class SoulsAdapter(Adapter):
    ruleset = "souls"
    E = souls
    SHAPE = {
        "G": "`G`: one flat int64 buffer (header, options, card table, effect table)",
        "S": "`st`: one flat int64 buffer (dice, game words, sides, board, zones, sacrifice plan, policy scratch, "
        "action list, counters, trace)",
    }
    CONTRACT = {
        "legal_actions": "legal_actions(G, st, out) -> n (the side: st[G_ACTIVE]; out: a word offset into st)",
        "apply": "apply(G, st, row) (the side: st[G_ACTIVE]; row: a word offset into st)",
        "clone": "clone(st, into)",
        "determinize": "determinize(G, st, side, rng)",
    }
    ROLES = {
        "legal_actions": ("G", "S", "out"),
        "apply": ("G", "S", "row"),
        "clone": ("S", "into"),
        "determinize": ("G", "S", "seat", "rng"),
    }
    clone_leaves = {
        "trace_count": "into's trace: none (G_EVENTS, G_EVENT_ROWS set to 0)",
        "actions": "the action list, rewritten by the next listing",
        "counters": "the batch's counters",
        "events": "the trace",
    }
    determinize_scratch = frozenset({"actions"})
    extra_states = ((6, 12, {}),)  # B has a trap set face down

    def match(
        self,
        seed: int,
        turn_cap: int,
        policies: tuple[int, int] = (GREEDY, RANDOM),
        options: dict[str, Any] | None = None,
    ) -> Match:
        E = self.E
        _, compiled, decks = _bundled("souls", {"turn_cap": turn_cap} | (options or {}))
        deck_a, deck_b = decks[0], decks[-1]
        arrays = E.MatchArrays(compiled, max(len(deck_a), len(deck_b)))
        work, search = E.search_buffers(arrays, policies[0], policies[1])
        seeds, first = _one_match_args(seed, seed % 2)
        E.play_batch_kernel(arrays.G, arrays.st, new_batch(deck_a, deck_b, seeds, first, *policies, search), work)
        capacity = max(len(deck_a), len(deck_b))
        return Match({"G": arrays.G, "compiled": compiled}, {"st": arrays.st}, {"capacity": capacity})

    def blank(self, m: Match) -> Match:
        return Match(m.G, {"st": self.E.new_state(m.G["compiled"], m.extra["capacity"])}, dict(m.extra))

    not_stepped = ""

    def stepped_match(
        self, seed: int, turn_cap: int, policies: tuple[int, int], choose: Callable[[Match, list[int]], int] | None
    ) -> tuple[Match, int]:
        # The batch kernel's steps for one match, with its loop played here: each row the deciding side's policy
        # chooses (`decide`, into st's action list), or `choose`'s among the listed rows (listed on a copy: listing
        # writes the sacrifice plan, which the batch's match never saw), written at the action list's start.
        E = self.E
        _, compiled, decks = _bundled("souls", {"turn_cap": turn_cap})
        deck_a, deck_b = decks[0], decks[-1]
        arrays = E.MatchArrays(compiled, max(len(deck_a), len(deck_b)))
        G, st = arrays.G, arrays.st
        m = Match({"G": G, "compiled": compiled}, {"st": st}, {"capacity": max(len(deck_a), len(deck_b))})
        rng_seed(st, seed)
        st[int(st[E.G_COUNTERS]) + THIS_MATCH] = 0
        E.forget_turn(st)
        E.open_match(G, st, deck_a, deck_b, np.int64(seed % 2), policies[0], policies[1], np.int64(seed))
        applied = 0
        while not E.is_over(st):
            probe = st.copy()
            out = int(probe[E.G_ACTIONS])
            listed = [
                tuple(int(v) for v in probe[out + 4 * i : out + 4 * i + 4])
                for i in range(E.legal_actions(G, probe, out))
            ]
            if choose is None:
                at = int(E.decide(G, st, 0))
            else:
                at = int(st[E.G_ACTIONS])
                st[at : at + 4] = listed[choose(m, list(range(len(listed))))]
            row = tuple(int(v) for v in st[at : at + 4])
            assert listed and row in listed, (row, listed)
            E.apply(G, st, np.int64(at))
            applied += 1
        E.end_match_counted(st)
        return m, applied

    def parts(self, m: Match) -> dict[str, Any]:
        E, st = self.E, m.arrays["st"]
        at = {name: int(st[getattr(E, name)]) for name in ("G_ZONES", "G_PLAN", "G_SCRATCH", "G_ACTIONS")}
        at |= {name: int(st[getattr(E, name)]) for name in ("G_COUNTERS", "G_EVENT_BASE")}
        capacity = int(st[E.G_CAPACITY])
        return {
            "rng": st[0:4],
            "game": st[4 : E.G_EVENTS],
            "trace_count": st[E.G_EVENTS : E.G_EVENT_BASE],
            "layout": st[E.G_EVENT_BASE : E.G_PENDING],
            "pending": st[E.G_PENDING : E.SIDES_BASE],
            "sides": st[E.SIDES_BASE : E.BOARD_BASE],
            "board": st[E.BOARD_BASE : E.ZONES_BASE],
            "zones": st[at["G_ZONES"] : at["G_PLAN"]].reshape(2, 3, capacity),
            "plan": st[at["G_PLAN"] : at["G_SCRATCH"]],
            "scratch": st[at["G_SCRATCH"] : at["G_ACTIONS"]],
            "actions": st[at["G_ACTIONS"] : at["G_COUNTERS"]],
            "counters": st[at["G_COUNTERS"] : at["G_EVENT_BASE"]],
            "events": st[at["G_EVENT_BASE"] :],
        }

    def clone(self, m: Match, into: Match) -> None:
        self.E.clone(m.arrays["st"], into.arrays["st"])

    def determinize(self, m: Match, seat: int, seed: int) -> None:
        rng = np.zeros(4, dtype=np.int64)
        rng_seed(rng, seed)
        self.E.determinize(m.G["G"], m.arrays["st"], np.int64(seat), rng)

    def hidden(self, m: Match, seat: int) -> list[Pool]:
        E, st = self.E, m.arrays["st"]
        foe = 1 - seat

        def side(q: int, f: Any) -> int:
            return int(st[E.SIDES_BASE + q * E.SIDE_FIELDS + f])

        unseen: Pool = [("zones", (foe, int(E.Z_TRAPS), t)) for t in range(side(foe, E.S_TRAPS))]
        unseen += [("zones", (foe, int(E.Z_HAND), h)) for h in range(side(foe, E.S_HAND))]
        unseen += [("zones", (foe, int(E.Z_DECK), k)) for k in range(side(foe, E.S_DECK_TOP), side(foe, E.S_DECK_LEN))]
        own = slice(side(seat, E.S_DECK_TOP), side(seat, E.S_DECK_LEN))
        return [unseen, [("zones", (seat, int(E.Z_DECK), own))]]

    def kind_of(self, m: Match, place: tuple[str, Index]) -> int:
        # A trap card or not: a trap slot holds a trap.
        E = self.E
        if not isinstance(place[1][-1], int):
            return 0  # a run of the seat's own deck
        card = int(self.parts(m)["zones"][place[1]])
        return int(int(m.G["G"][E.TABLE_BASE + card * E.CARD_COLUMNS + E.C_KIND]) == E.KIND_TRAP)


# ---------------------------------------------------------------------------------------------------------------------
# plasma: the pairing's card table, and one STATE_DTYPE record with the counters (and trace) inside it


class PlasmaAdapter(Adapter):
    ruleset = "plasma"
    E = plasma
    SHAPE = {
        "G": "`table` (the pairing's card table, `pairing`; the options are in the state record)",
        "S": "`st`: one STATE_DTYPE record, its counters inside (TRACED_STATE_DTYPE: its trace too)",
    }
    CONTRACT = {
        "legal_actions": "legal_actions(table, st, out) -> n",
        "apply": "apply(table, st, action)",
        "clone": "clone(st, into)",
        "determinize": "determinize(table, st, p, seed)",
    }
    ROLES = {
        "legal_actions": ("G", "S", "out"),
        "apply": ("G", "S", "row"),
        "clone": ("S", "into"),
        "determinize": ("G", "S", "seat", "rng"),
    }
    clone_leaves = {
        "ecount": "set past any trace: the clone logs nothing",
        "srng": "the search's own generator",
        "pool": "determinize's scratch",
        "choice": "the search's candidates",
        "score": "the search's points",
        "searched": "the search's figures",
        "actions": "the action list, rewritten by the next listing",
        "words": "the policies' own words (random's mulligan count)",
        "counters": "the batch's counters, the record's own",
    }
    determinize_scratch = frozenset({"pool", "rng"})

    def match(
        self,
        seed: int,
        turn_cap: int,
        policies: tuple[int, int] = (GREEDY, RANDOM),
        options: dict[str, Any] | None = None,
    ) -> Match:
        E = self.E
        _, compiled, decks = _bundled("plasma", {"turn_cap": turn_cap} | (options or {}))
        pair = E.pairing(compiled.table, decks[0], decks[-1])
        record = _record(E.STATE_DTYPE)
        record[0] = E.new_state(compiled.options)
        seeds, first = _one_match_args(seed, seed % 2)
        E.play_matches(pair.table, record[0], new_batch(pair.deck_a, pair.deck_b, seeds, first, *policies))
        return Match({"table": pair.table, "compiled": compiled}, {"st": record})

    def blank(self, m: Match) -> Match:
        return Match(m.G, {"st": _record(self.E.STATE_DTYPE)})

    def parts(self, m: Match) -> dict[str, Any]:
        return _fields(m.arrays["st"])

    def live(self, m: Match) -> dict[str, Any]:
        live = super().live(m)
        side = live["side"]
        for p in range(2):
            live["board"][p, int(side[p, self.E.S_BOARD]) :] = 0  # field slots not in use: no rule reads them
        return live

    def clone(self, m: Match, into: Match) -> None:
        self.E.clone(m.arrays["st"][0], into.arrays["st"][0])

    def determinize(self, m: Match, seat: int, seed: int) -> None:
        self.E.determinize(m.G["table"], m.arrays["st"][0], np.int64(seat), np.int64(seed))

    not_stepped = ""

    def stepped_match(
        self, seed: int, turn_cap: int, policies: tuple[int, int], choose: Callable[[Match, list[int]], int] | None
    ) -> tuple[Match, int]:
        E = self.E
        _, compiled, decks = _bundled("plasma", {"turn_cap": turn_cap})
        pair = E.pairing(compiled.table, decks[0], decks[-1])
        record = _record(E.STATE_DTYPE)
        record[0] = E.new_state(compiled.options)
        st, table = record[0], pair.table
        m = Match({"table": table, "compiled": compiled}, {"st": record})
        E.begin_match_counters(st.counters, np.int64(0))
        E.setup_match(table, st, pair.deck_a, pair.deck_b, np.int64(seed), np.int8(seed % 2), *policies)
        out = np.zeros(E.MAX_CHOICES, dtype=np.int64)
        applied = 0
        while not st.game[E.G_OVER]:
            rows = [int(v) for v in out[: E.legal_actions(table, st, out)]]
            row = int(E.decide(table, st, 0)) if choose is None else choose(m, rows)
            assert rows and row in rows, (row, rows)
            E.apply(table, st, np.int64(row))
            applied += 1
        E.end_match_counters(st.counters, st.game[E.G_TURN], np.int64(2))
        return m, applied

    def hidden(self, m: Match, seat: int) -> list[Pool]:
        E, st = self.E, m.arrays["st"][0]
        foe = 1 - seat
        side = st.side
        return [
            [
                ("hand", (foe, slice(0, int(side[foe, E.S_HAND])))),
                ("library", (foe, slice(int(side[foe, E.S_DRAWN]), int(side[foe, E.S_DECK])))),
            ],
            [("library", (seat, slice(int(side[seat, E.S_DRAWN]), int(side[seat, E.S_DECK]))))],
        ]

    def derived(self, m: Match, seat: int) -> list[tuple[str, Index]]:
        return [("side", (1 - seat, self.E.S_HAND_INSTANT))]

    def refresh(self, m: Match) -> None:
        # S_HAND_INSTANT: the cheapest Instant in each hand, which the rules keep instead of reading the hand.
        E, st, table = self.E, m.arrays["st"][0], m.G["table"]
        for p in range(2):
            costs = [int(table[st.hand[p, h], E.T_INSTANT_COST]) for h in range(int(st.side[p, E.S_HAND]))]
            st.side[p, E.S_HAND_INSTANT] = min(costs, default=E.NO_INSTANT)


# ---------------------------------------------------------------------------------------------------------------------
# SOURCE: table, clauses and RULES_DTYPE record; one STATE_DTYPE record with piles, counters and trace beside it


class SourceAdapter(Adapter):
    ruleset = "source"
    E = source
    SHAPE = {
        "G": "`G`: one GAME_DTYPE record (the pairing's card and clause tables, options, map, distances)",
        "S": "`state`: one STATE_DTYPE record (piles, counters and trace inside)",
    }
    CONTRACT = {
        "legal_actions": "legal_actions(G, state, out) -> n",
        "apply": "apply(G, state, action)",
        "clone": "clone_state(state, work)",
        "determinize": "determinize(G, state, p, rng)",
    }
    ROLES = {
        "legal_actions": ("G", "S", "out"),
        "apply": ("G", "S", "row"),
        "clone": ("S", "into"),
        "determinize": ("G", "S", "seat", "rng"),
    }
    clone_leaves = {
        "ec": "the trace's length and room",
        "scratch": "greedy's look-ahead",
        "search": "the search's words",
        "actions": "the action list, rewritten by the next listing",
        "piles.pool": "determinize's scratch",
        "counters": "the batch's counters",
        "events": "the trace",
    }
    determinize_scratch = frozenset({"piles.pool", "rng"})
    extra_states = ((5, 12, {}), (2, 5, {"symbol_draw": "blind"}))  # a trap face down; symbols drawn blind

    def match(
        self,
        seed: int,
        turn_cap: int,
        policies: tuple[int, int] = (GREEDY, RANDOM),
        options: dict[str, Any] | None = None,
    ) -> Match:
        E = self.E
        _, compiled, decks = _bundled("source", {"turn_cap": turn_cap} | (options or {}))
        pair = E.pairing(compiled, decks[0], decks[-1])
        game = E.new_game(compiled, pair.ids, max(len(decks[0]), len(decks[-1])))
        record = _record(E.STATE_DTYPE)
        record[0] = E.new_state(game)
        seeds, first = _one_match_args(seed, seed % 2)
        E.play_matches(game, record[0], new_batch(pair.deck_a, pair.deck_b, seeds, first, *policies))
        return Match({"G": game, "compiled": compiled}, {"state": record})

    def kind_of(self, m: Match, place: tuple[str, Index]) -> int:
        # A trap card or not: a trap space holds a trap.
        if not isinstance(place[1][-1], int):
            return 0  # a run of the seat's own deck, or of the symbols
        card = int(self.parts(m)[place[0]][place[1]])
        return int(int(m.G["G"].table[card, self.E.T_KIND]) == self.E.K_TRAP)

    def blank(self, m: Match) -> Match:
        record = _record(self.E.STATE_DTYPE)
        record[0] = self.E.new_state(m.G["G"])
        return Match(m.G, {"state": record}, dict(m.extra))

    def parts(self, m: Match) -> dict[str, Any]:
        E, fields = self.E, _fields(m.arrays["state"])
        piles = fields.pop("piles")
        return fields | {
            "piles.library": piles[E.PILE_LIBRARY],
            "piles.tokens": piles[E.PILE_TOKENS],
            "piles.pool": piles[E.PILE_POOL],
        }

    def live(self, m: Match) -> dict[str, Any]:
        # Only the map's spaces, the cards in hand, the deck's width and the pairing's token columns are read.
        E, opts = self.E, m.G["G"].opts
        live = super().live(m)
        spaces, width, cards = int(opts[E.O_SPACES]), int(opts[E.O_DECK_WIDTH]), int(opts[E.O_CARDS])
        live["mon"][spaces:] = 0
        live["cells"][spaces:] = 0
        for q in range(2):
            live["hand"][q, int(live["side"][q, E.S_HAND]) :] = 0
        live["piles.library"][:, width:] = 0
        live["piles.tokens"][:, 2 * cards :] = 0
        live["frames"][int(live["game"][E.G_FRAMES]) :] = 0  # the resolution frames in use only
        return live

    def clone(self, m: Match, into: Match) -> None:
        self.E.clone_state(m.arrays["state"][0], into.arrays["state"][0])

    not_stepped = ""

    def stepped_match(
        self, seed: int, turn_cap: int, policies: tuple[int, int], choose: Callable[[Match, list[int]], int] | None
    ) -> tuple[Match, int]:
        E = self.E
        _, compiled, decks = _bundled("source", {"turn_cap": turn_cap})
        pair = E.pairing(compiled, decks[0], decks[-1])
        game = E.new_game(compiled, pair.ids, max(len(decks[0]), len(decks[-1])))
        record = _record(E.STATE_DTYPE)
        record[0] = E.new_state(game)
        state = record[0]
        m = Match({"G": game, "compiled": compiled}, {"state": record})
        E.begin_match_counters(state.counters, np.int64(0))
        E.setup_match(game, state, pair.deck_a, pair.deck_b, np.int64(seed), np.int8(seed % 2))
        E.setup_policies(state, *(np.int64(p) for p in policies), np.int64(seed))
        E.advance(game, state, np.int64(E.NO_STAGE))
        out = np.zeros(E.MAX_ACTIONS, dtype=np.int64)
        applied = 0
        while state.game[E.G_DECISION] != E.D_NONE:
            rows = [int(v) for v in out[: E.legal_actions(game, state, out)]]
            # A decision that lists nothing is answered STOP (the contract's `legal_actions`), as the policies answer.
            row = int(E.choose(game, state)) if choose is None else (choose(m, rows) if rows else E.STOP)
            assert row in rows or (not rows and row == E.STOP), (row, rows)
            E.apply(game, state, np.int64(row))
            applied += 1
        E.end_match_counters(state.counters, state.game[E.G_TURN], np.int64(2))
        return m, applied

    def determinize(self, m: Match, seat: int, seed: int) -> None:
        # The state's own generator, as the search passes it (its sampled world's): the same draws as before.
        state = m.arrays["state"][0]
        rng_seed(state.rng, seed)
        self.E.determinize(m.G["G"], state, np.int64(seat), state.rng)

    def hidden(self, m: Match, seat: int) -> list[Pool]:
        E, state, opts = self.E, m.arrays["state"][0], m.G["G"].opts
        foe, side, cells = 1 - seat, state.side, state.cells
        unseen: Pool = [
            ("cells", (space, E.C_TRAP))
            for space in range(int(opts[E.O_SPACES]))
            if cells[space, E.C_TRAP] >= 0 and cells[space, E.C_TRAP_OWNER] == foe
        ]
        unseen += [("hand", (foe, h)) for h in range(int(side[foe, E.S_HAND]))]
        unseen += [("piles.library", (foe, k)) for k in range(int(side[foe, E.S_DECK]), int(side[foe, E.S_DECK_N]))]
        own = slice(int(side[seat, E.S_DECK]), int(side[seat, E.S_DECK_N]))
        pools: list[Pool] = [unseen, [("piles.library", (seat, own))]]
        if opts[E.O_BLIND] == 1:
            for q in range(2):
                pools.append([("side", (q, slice(E.S_ORDER0 + int(side[q, E.S_NEXT]), E.S_ORDER0 + E.SYMBOLS)))])
        return pools


# ---------------------------------------------------------------------------------------------------------------------
# Millennium Blades: one GAME_DTYPE record (the batch's own card and effect tables); one STATE_DTYPE record (the store,
# counters and trace inside)


class BladesAdapter(Adapter):
    ruleset = "blades"
    E = blades
    SHAPE = {
        "G": "`g`: one GAME_DTYPE record, the batch's own card and effect tables (`batch_cards`; the options are in "
        "the state record)",
        "S": "`st`: one STATE_DTYPE record (the store inside, MAX_STORE long; the counters and the trace inside)",
    }
    CONTRACT = {
        "legal_actions": "legal_actions(g, st, out) -> n",
        "apply": "apply(g, st, action)",
        "clone": "clone(st, into)",
        "determinize": "determinize(g, st, p, rng)",
    }
    ROLES = {
        "legal_actions": ("G", "S", "out"),
        "apply": ("G", "S", "row"),
        "clone": ("S", "into"),
        "determinize": ("G", "S", "seat", "rng"),
    }
    clone_leaves = {
        "ecount": "the trace's length (the trace is the record's own)",
        "events": "the trace, the record's own",
        "search": "the search's words",
        "pool": "determinize's scratch",
        "probe": "a policy's second action list",
        "counters": "the batch's counters, the record's own",
    }
    determinize_scratch = frozenset({"pool"})

    def match(
        self,
        seed: int,
        turn_cap: int,
        policies: tuple[int, int] = (GREEDY, RANDOM),
        options: dict[str, Any] | None = None,
    ) -> Match:
        # No turn cap in a tournament: the state after `turn_cap` turns of the tournament, at the next turn's first
        # decision (or its end).
        m = self._set_up(seed, policies, options)
        E, st, g = self.E, m.arrays["st"][0], m.G["g"]
        E.open_tournament(g, st)
        for _ in range(turn_cap):
            if E.is_over(st):
                break
            E.play_turn_out(g, st)
            E.advance(g, st, False)
        if E.is_over(st):
            self._record(st)
        return m

    def _record(self, st: Any) -> None:
        """The tournament's counters closed as the batch closes them (`record_tournament`)."""
        n = np.zeros(1, dtype=np.int64)
        self.E.record_tournament(st, np.int64(0), n.astype(np.int8), n.astype(np.int32), n, n.copy(), n.copy())

    def _set_up(self, seed: int, policies: tuple[int, int], options: dict[str, Any] | None = None) -> Match:
        """The tournament of `seed` set up on the bundled set's first deck against its last, three seats."""
        E = self.E
        _, compiled, decks = _bundled("blades", {"players": 3} | (options or {}))
        cards = E.batch_cards(compiled, decks[0], decks[-1])
        record = _record(E.STATE_DTYPE)
        record[0] = E.new_state(compiled.options)
        st = record[0]
        st.store[: len(cards.store)] = cards.store
        E.begin_match_counters(st.counters, np.int64(0))
        E.setup_tournament(
            cards.g, st, cards.deck_a, cards.deck_b, seed, seed % 2, policies[0], policies[1], len(cards.store),
            cards.meta,
        )  # fmt: skip
        return Match({"g": cards.g, "compiled": compiled}, {"st": record}, {"seats": int(st.game[E.G_PLAYERS])})

    not_stepped = ""

    def stepped_match(
        self, seed: int, turn_cap: int, policies: tuple[int, int], choose: Callable[[Match, list[int]], int] | None
    ) -> tuple[Match, int]:
        # A whole tournament (it has no turn cap), three seats; the batch's counters are closed as the batch closes
        # them (`record_tournament`).
        E = self.E
        m = self._set_up(seed, policies)
        st, g = m.arrays["st"][0], m.G["g"]
        E.open_tournament(g, st)
        out = np.zeros(E.MAX_ACTIONS, dtype=np.int64)
        applied = 0
        while not E.is_over(st):
            rows = [int(v) for v in out[: E.legal_actions(g, st, out)]]
            # The rows the rules kept as they opened the decision (what `decide` reads) are the ones listed now.
            assert [int(v) for v in st.actions[: int(st.game[E.G_LISTED])]] == rows
            row = int(E.decide(g, st, 0)) if choose is None else choose(m, rows)
            assert rows and row in rows, (row, rows)
            E.apply(g, st, np.int64(row))
            applied += 1
        self._record(st)
        return m, applied

    def blank(self, m: Match) -> Match:
        return Match(m.G, {"st": _record(self.E.STATE_DTYPE)}, dict(m.extra))

    def parts(self, m: Match) -> dict[str, Any]:
        return _fields(m.arrays["st"])

    def live(self, m: Match) -> dict[str, Any]:
        # The effect queue's rows from its head to its tail (a ring): the rest is spent; the store's cards past its
        # total are room no rule reads; the action list past the open decision's rows (G_LISTED) likewise.
        E, live = self.E, super().live(m)
        live["actions"][int(live["game"][E.G_LISTED]) :] = 0
        # The trace's rows past its length (an untraced record counts its trace full and never writes it: `new_state`
        # leaves those rows unwritten).
        if int(live["ecount"][0]) >= E.MAX_TRACE_EVENTS:
            live["events"][:] = 0
        else:
            live["events"][int(live["ecount"][0]) :] = 0
        head, tail = int(live["game"][E.G_QHEAD]), int(live["game"][E.G_QTAIL])
        waiting = [row % E.QUEUE_SIZE for row in range(head, tail)]
        spent = np.ones(E.QUEUE_SIZE, dtype=bool)
        spent[waiting] = False
        live["queue"][spent] = 0
        live["store"][int(live["game"][E.G_STORE_TOTAL]) :] = 0
        return live

    def clone(self, m: Match, into: Match) -> None:
        self.E.clone(m.arrays["st"][0], into.arrays["st"][0])

    def determinize(self, m: Match, seat: int, seed: int) -> None:
        rng = np.zeros(4, dtype=np.int64)
        rng_seed(rng, seed)
        self.E.determinize(m.G["g"], m.arrays["st"][0], np.int64(seat), rng)

    def hidden(self, m: Match, seat: int) -> list[Pool]:
        E, st = self.E, m.arrays["st"][0]
        hands: Pool = [
            ("side", (q, slice(E.S_CARDS, E.S_CARDS + int(st.side[q, E.S_HAND]))))
            for q in range(int(st.game[E.G_PLAYERS]))
            if q != seat
        ]
        return [hands, [("store", (slice(0, int(st.game[E.G_STORE_LEFT])),))]]


ADAPTERS: dict[str, Adapter] = {
    adapter.ruleset: adapter
    for adapter in (CirclesAdapter(), SoulsAdapter(), PlasmaAdapter(), SourceAdapter(), BladesAdapter())
}


# ---------------------------------------------------------------------------------------------------------------------
# The legality replay: every row a match applies was listed by `legal_actions` at that point


@dataclass
class Checks:
    """What the wrapped doors checked: how many answers or rows per door and decision kind, and the refused ones."""

    checked: dict[str, int] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)
    G: dict[str, Any] = field(default_factory=dict)
    """The game data of the batch being played (for doors whose arguments do not carry it)."""

    def check(self, door: str, ok: bool, detail: Callable[[], str]) -> None:
        self.checked[door] = self.checked.get(door, 0) + 1
        if not ok and len(self.refused) < 20:
            self.refused.append(f"{door}: {detail()}")


def _wrap(E: Any, name: str, before: Callable[..., None] | None, after: Callable[..., None] | None = None) -> None:
    """Replace E.`name` by a function that calls `before(*args)`, the real one, then `after(result, *args)`."""
    inner = getattr(E, name)

    def wrapped(*args: Any) -> Any:
        if before is not None:
            before(*args)
        result = inner(*args)
        if after is not None:
            after(result, *args)
        return result

    setattr(E, name, wrapped)


def _circles_doors(E: Any, log: Checks) -> None:
    """circles: `carry_out(R, S, k)` (what `take` calls, and the contract's `apply` through it) takes row k of the list
    in S, which must be `legal_actions`' list now; the policies' `choose` picks a row of it; greedy answers the hand
    decisions (`greedy_hand`) without a list, with a hand position that must be a listed row's."""

    def fresh(R: Any, S: Any) -> tuple[int, Any]:
        out = np.zeros_like(E.actions_of(S))
        return int(E.legal_actions(R, S, out)), out

    def same_list(R: Any, S: Any) -> tuple[int, bool]:
        n = int(E.decision_of(S)[E.D_N])
        again, out = fresh(R, S)
        return n, again == n and bool((out[:n] == E.actions_of(S)[:n]).all())

    def kind(S: Any) -> int:
        return int(E.decision_of(S)[E.D_KIND])

    def on_choose(k: Any, R: Any, S: Any) -> None:
        n, same = same_list(R, S)
        log.check(f"choose, kind {kind(S)}", same and 0 <= int(k) < n, lambda: f"row {k} of {n}, list fresh: {same}")

    def on_greedy_hand(h: Any, R: Any, S: Any) -> None:
        n, out = fresh(R, S)
        rows = [int(a) for a in out[:n, 0]]
        ok = (n == 0 and int(h) == E.STOP) or int(h) in rows
        log.check(f"greedy_hand, kind {kind(S)}", ok, lambda: f"hand position {h}, listed {rows}")

    def on_carry_out(R: Any, S: Any, k: Any) -> None:
        n, same = same_list(R, S)
        ok = same and ((n == 0 and int(k) == -1) or 0 <= int(k) < n)
        log.check(f"carry_out, kind {kind(S)}", ok, lambda: f"row {k} of {n}, list fresh: {same}")

    # The callers look each door up in their own module (`rules` calls `carry_out`, `greedy` and `search` call
    # `choose`, `greedy` calls `greedy_hand`): the package's wrapper goes into every module of the engine that holds
    # the name.
    _wrap(E, "choose", None, on_choose)
    _wrap(E, "greedy_hand", None, on_greedy_hand)
    _wrap(E, "carry_out", on_carry_out)
    for name in ("choose", "greedy_hand", "carry_out"):
        E.replace_everywhere(name, getattr(E, name))


def _souls_doors(E: Any, log: Checks) -> None:
    """souls: every row is taken with `apply_of(G, st, side, row)` (the row at word `row`; `apply` is it for the side
    whose decision is open), whoever chose it (the play loop's policies, the search's rollouts). Listed by the
    contract's `legal_actions(G, st, out)`, which reads the side from the state, so the side a row is taken for must
    be the one whose decision is open; on a copy (listing writes the sacrifice plan and the action list)."""

    def listed(G: Any, st: Any) -> set[tuple[int, ...]]:
        probe = st.copy()
        out = int(probe[E.G_ACTIONS])
        n = int(E.legal_actions(G, probe, out))
        return {tuple(int(v) for v in probe[out + 4 * i : out + 4 * i + 4]) for i in range(n)}

    real_apply = E.apply_of

    def checked_apply(G: Any, st: Any, side: Any, row: Any) -> Any:
        taken = tuple(int(v) for v in st[row : row + 4])
        rows, active = listed(G, st), int(st[E.G_ACTIVE])
        ok = taken in rows and active == int(side)
        log.check(
            f"apply, kind {taken[0]}", ok, lambda: f"row {taken} of side {side} (open: {active}), listed {sorted(rows)}"
        )
        return real_apply(G, st, side, row)

    E.replace_everywhere("apply_of", checked_apply)


def _plasma_doors(E: Any, log: Checks) -> None:
    """plasma: `apply` (its `take`) dispatches to an applier per decision kind, whoever chose the action (the play
    loop's policies, the search's rollouts): each applier's action must be listed for the decision open then."""
    kinds = {E.D_PLAY: "play", E.D_ATTACKER: "attacker", E.D_TARGET: "target", E.D_MULLIGAN: "mulligan"}
    kinds |= {E.D_BLOCK: "block", E.D_INSTANT: "instant"}
    appliers = [
        ("apply_play", "play", 1, 3),
        ("apply_attacker", "attacker", 0, 1),
        ("apply_target", "target", 1, 3),
        ("apply_mulligan", "mulligan", 1, 3),
        ("apply_block", "block", 1, 2),
        ("apply_instant", "instant", 1, 2),
        ("apply_effect_target", "effect target", 1, 2),
    ]
    for name, kind, st_at, action_at in appliers:

        def before(
            *args: Any, name: str = name, kind: str = kind, st_at: int = st_at, action_at: int = action_at
        ) -> None:
            st, action = args[st_at], int(args[action_at])
            # The kernels play on the pairing's own table (`pairing`), the applier's first argument; `apply_attacker`
            # takes none, and the attacker decision's listing reads no table.
            table = args[0] if st_at == 1 else log.G["table"]
            out = np.zeros(E.MAX_CHOICES, dtype=np.int64)
            listed = [int(v) for v in out[: E.legal_actions(table, st, out)]]
            pending = int(st.game[E.G_PENDING]) != E.D_NONE
            open_kind = "effect target" if pending else kinds.get(int(st.game[E.G_DECISION]))
            ok = open_kind == kind and action in listed
            log.check(f"{name}", ok, lambda: f"action {action} for {kind}, open: {open_kind}, listed {listed}")

        # The appliers are called from `rules` (`take`) and tests call them through the package: the package's
        # wrapper goes into every module of the engine that holds the name.
        _wrap(E, name, before)
        E.replace_everywhere(name, getattr(E, name))


def _source_doors(E: Any, log: Checks) -> None:
    """SOURCE: every row is taken with `take(G, state, row)` (`apply` takes it so, then plays on; so do the search's
    rollouts and the loops that play parts of a turn), whoever chose it: each must be listed by `legal_actions` for
    the decision open then, the turn's own and the questions a move or an effect asks (STOP when none is listed)."""
    real_take = E.take

    def checked_take(G: Any, state: Any, action: Any) -> None:
        out = np.zeros_like(state.actions)
        rows = [int(a) for a in out[: E.legal_actions(G, state, out)]]
        kind = E.D_KINDS[int(state.game[E.G_DECISION])]
        ok = int(action) in rows or (not rows and int(action) == E.STOP)
        log.check(f"take, {kind}", ok, lambda: f"answer {action}, listed {rows}")
        real_take(G, state, action)

    # `rules` calls `take` (in `apply`), `greedy` and `search` call it in their loops: the wrapper goes into every
    # module of the engine that holds the name.
    E.replace_everywhere("take", checked_take)


def _blades_doors(E: Any, log: Checks) -> None:
    """Millennium Blades: every row is taken with `take(g, st, row)` (`apply` takes it so, then plays on), whoever
    chose it (the play loop's policies, the search's rollouts): each must be listed by `legal_actions` for the
    decision open then."""
    real_take = E.take

    def checked_take(g: Any, st: Any, action: Any) -> None:
        out = np.zeros(E.MAX_ACTIONS, dtype=np.int64)
        listed = [int(v) for v in out[: E.legal_actions(g, st, out)]]
        kind = E.DECISION_NAMES[int(st.game[E.G_DECISION])]
        log.check(f"take, {kind}", int(action) in listed, lambda: f"action {action}, listed {listed}")
        real_take(g, st, action)

    # `rules` calls `take` (in `apply`), `search` calls it in a rollout's turn: the wrapper goes into every module of
    # the engine that holds the name.
    E.replace_everywhere("take", checked_take)


DOORS: dict[str, Callable[[Any, Checks], None]] = {
    "circles": _circles_doors,
    "souls": _souls_doors,
    "plasma": _plasma_doors,
    "source": _source_doors,
    "blades": _blades_doors,
}
"""Per engine, the doors through which a policy's answer or an applied row goes, wrapped with the check."""

REPLAY_POLICIES = ((GREEDY, GREEDY), (RANDOM, RANDOM), (GREEDY, RANDOM))
REPLAY_SEEDS = (7919, 2 * 7919)


def _circles_ability_decks(compiled: Any) -> list[Any]:
    """tests/rulesets/circles/legal_replay.py's ABILITY_DECKS (the bundled set's cards, so that every ability fires:
    no bundled deck brings an ability decision, through which `carry_out` is called), as deck arrays."""
    script = Path(__file__).with_name("rulesets") / "circles" / "legal_replay.py"
    spec = importlib.util.spec_from_file_location("circles_legal_replay", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.ability_deck_arrays(compiled))


def replay_batches(ruleset_id: str) -> list[tuple[Any, Any, Any, tuple[int, int], Any, Any]]:
    """The matches the replay plays: the bundled set at its default options, its first deck against its last and
    back (circles: and its ability decks, each against the next), two seeds each, under greedy, random, and greedy
    against random."""
    engine, compiled, decks = _bundled(ruleset_id)
    pairs = [(decks[0], decks[-1]), (decks[-1], decks[0])]
    if ruleset_id == "circles":
        extra = _circles_ability_decks(compiled)
        pairs += [(extra[k], extra[(k + 1) % len(extra)]) for k in range(len(extra))]
    seeds = np.array(REPLAY_SEEDS, dtype=np.int64)
    first = (np.arange(len(REPLAY_SEEDS)) % 2).astype(np.int8)
    return [(engine, compiled, pair, policies, seeds, first) for policies in REPLAY_POLICIES for pair in pairs]


def batch_results(ruleset_id: str) -> list[list[list[int]]]:
    """Winners and turns of every replayed batch (compiled, or as plain Python when NUMBA_DISABLE_JIT=1)."""
    results = []
    for engine, compiled, (deck_a, deck_b), (policy_a, policy_b), seeds, first in replay_batches(ruleset_id):
        played = engine.play_batch(compiled, deck_a, deck_b, seeds, first, policy_a, policy_b)
        results.append([[int(v) for v in played[0]], [int(v) for v in played[1]]])
    return results


def replay(ruleset_id: str) -> dict[str, Any]:
    """`batch_results` with the engine's doors wrapped (`DOORS`): what was checked, what was refused."""
    import numba

    jit_off = numba.config.DISABLE_JIT  # type: ignore[attr-defined]
    assert jit_off, "run under NUMBA_DISABLE_JIT=1: the compiled engine looks no wrapper up"
    E = ADAPTERS[ruleset_id].E
    log = Checks()
    DOORS[ruleset_id](E, log)
    results = []
    for engine, compiled, (deck_a, deck_b), (policy_a, policy_b), seeds, first in replay_batches(ruleset_id):
        log.G.update(table=compiled.table, effects=compiled.extra.get("effects"))
        played = engine.play_batch(compiled, deck_a, deck_b, seeds, first, policy_a, policy_b)
        results.append([[int(v) for v in played[0]], [int(v) for v in played[1]]])
    return {"checked": log.checked, "refused": log.refused, "results": results}


if __name__ == "__main__":
    print(json.dumps(replay(sys.argv[1])))
