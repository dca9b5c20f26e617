"""What every match engine stands on: the compiled card table and the kernels' helpers (the engine record and the
play layer are `workbench.play`).

Engines are pure: they import numpy and numba, never Streamlit, pandas or
plotly. Pydantic stays at the edge: `compile_cards` turns a validated card
set into integer arrays once, and the kernels only ever see arrays.

Randomness is an input. A kernel receives one 63-bit seed per match and
drives a small xorshift128 generator held in an int64 array. Every operation
stays inside 64-bit signed range, so the kernel gives identical results
compiled by Numba and run as plain Python under `NUMBA_DISABLE_JIT=1`, which
is how engines are debugged.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias, TypeVar, cast

import numpy as np
import numpy.typing as npt
from numba import njit
from numba.core.extending import overload
from numba.cpython.unsafe.numbers import trailing_zeros

from workbench.cards import Deck, Finding, WorkbenchInputError

IntArray = npt.NDArray[np.int64]

EngineInt: TypeAlias = int | np.signedinteger[Any]
"""An integer a kernel takes: a Python int or a numpy integer, alike.

Kernels are passed both. Loop counters are Python ints, but a value read from a state or table array (a card id, a
side, a turn) is a numpy integer (`np.int64`) when the kernels run as plain Python under `NUMBA_DISABLE_JIT=1`, and
the constants engines pass to kernels are `np.int64` values on purpose (see `rules_kernel`). Numba ignores
annotations (compiled, both are machine integers), so this alias only tells type checkers what a kernel is
really given; kernels' integer parameters use it instead of `int`. Signed only, as every array a kernel reads is
(int64; seeds are made int64 before a batch): numpy's stubs type `int + np.integer` as Any, and an array indexed
by Any as an array, where `int + np.signedinteger` stays a numpy integer and indexes to a scalar."""

EngineBool: TypeAlias = bool | np.bool_
"""A yes/no a kernel takes: a Python bool or a numpy bool (engines pass `np.bool_(True)` constants, for the same
reason as `np.int64(...)` ones: one compiled copy of a kernel, not one per literal)."""

F = TypeVar("F", bound=Callable[..., Any])

COUNTERS: tuple[str, ...] = (
    "drawn",
    "played",
    "attacked",
    "destroyed",
    "damage_dealt",
    "matches_drawn",
    "matches_played",
    "first_played_turn",
    "played_match_turns",
    "matches_played_with_a_round_left",
)
"""Per-card counters every engine keeps, per side, summed over a batch (index order of the last axis).

The first five count events: a card with three copies can be drawn or played three times in one match. The last
three count matches, so a share of matches can be read from them: `matches_drawn` is the number of matches in which
at least one copy was drawn (the opening hand included), `matches_played` the number in which at least one copy was
played (the engine's own notion of played: the same events as `played`), and `first_played_turn` the sum, over
those matches, of the turn of the match's first play, so the mean first turn is
`first_played_turn / matches_played`. The turn is the engine's own, numbered from 1 as `MatchResults.matches.turns`
counts it: in SOURCE, circles, plasma and souls every player's turn counts (the second player's first turn is turn
2); in Millennium Blades every seat's turn of the tournament counts (with four seats, a seat's third turn is about
turn 9-12). They are kept by `count_draw` and `count_play`, which every engine calls where it counts a draw or a
play, so they never change a decision: results stay the same bit for bit.

The last two say whether a play came in time to matter, counted by `end_match_counters` when a match ends:
`played_match_turns` is the sum, over the matches in which the card was played, of the match's last turn (so the
mean number of turns left after its first play is `(played_match_turns - first_played_turn) / matches_played`), and
`matches_played_with_a_round_left` the number of those matches that went on for at least one whole round after the
turn of its first play (its side had another turn: two turns later with two players). A card first played on the
turn a match is decided took part in that match, but could hardly change it. In Millennium Blades every play counts
as in time: the clash that scores a tournament adds up every card played, however late.
"""
(
    DRAWN,
    PLAYED,
    ATTACKED,
    DESTROYED,
    DAMAGE_DEALT,
    MATCHES_DRAWN,
    MATCHES_PLAYED,
    FIRST_PLAYED_TURN,
    PLAYED_MATCH_TURNS,
    MATCHES_PLAYED_WITH_A_ROUND_LEFT,
) = range(len(COUNTERS))

COUNTER_SCRATCH: tuple[str, ...] = (
    "last_match_drawn",
    "last_match_played",
    "this_match",
    "first_turn_this_match",
    "next_played",
    "first_played",
)
"""Columns a kernel's counters array has after COUNTERS, never returned: for each side and card, 1 + the number (in
the batch) of the last match in which it was drawn and in which it was played, and in `counters[0, 0, THIS_MATCH]`
the number of the match being played. Comparing the two tells `count_draw` and `count_play` whether this is the
match's first draw or play of the card with one compare: no per-match reset, no pass over the cards.

The cards a side played in the match being played form a list threaded through the scratch columns, so that
`end_match_counters` visits only them (not every card of the table): `counters[side, 0, FIRST_PLAYED]` is 1 + the
card played first (0: none yet), each card's `NEXT_PLAYED` 1 + the card played before it (0 ends the list), and
`FIRST_TURN_THIS_MATCH` the turn of the card's first play in this match."""
LAST_MATCH_DRAWN, LAST_MATCH_PLAYED, THIS_MATCH, FIRST_TURN_THIS_MATCH, NEXT_PLAYED, FIRST_PLAYED = range(
    len(COUNTERS), len(COUNTERS) + len(COUNTER_SCRATCH)
)
COUNTER_COLUMNS = len(COUNTERS) + len(COUNTER_SCRATCH)
"""Width of the last axis of the counters array a kernel fills (see `new_counters`)."""

EVENT_WIDTH = 6
"""An event row in a trace: turn, player, event code, card id, other card id (or -1), amount."""
MAX_TRACE_EVENTS = 20_000

PLAYER_A, PLAYER_B, DRAW = 0, 1, -1
"""Winner codes in a batch result."""


def no_nrt_options() -> Any:
    """Numba's `_nrt=False` option (no reference counting), as keyword options for `njit` or `overload(jit_options=)`.

    `_nrt` is a Numba option without documentation, so it is written here only, in one place (see `rules_kernel`).
    Typed Any because Numba's typed options (`_JITOptions` in its stubs) do not list it; a new dict each call, so no
    two callers share one mutable mapping.
    """
    return {"_nrt": False}


SHARED_KERNEL_FILES = ("engines.py", "play/search.py", "play/policies.py", "play/loop.py")
"""The workbench modules whose kernels and constants every engine's kernels call, inline or read: this one and the play
layer's (`workbench.play`), as paths under `workbench/`."""


@functools.cache
def sources_stamp(paths: tuple[Path, ...]) -> str:
    """A digest of the files' names and contents, in the order given (a name with its folder: `play/loop.py`)."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(f"{path.parent.name}/{path.name}".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


@functools.cache  # asked once per kernel at import (about 150 an engine): one lookup and glob per module
def kernel_sources(module_name: str) -> tuple[Path, ...]:
    """The source files a kernel of `module_name` depends on beyond its own: the shared kernel files, and for a
    ruleset's engine every module of its ruleset package, those of a package inside it included (constants its
    kernels read at compile time: ability ids, option orders, effect codes; and an engine split into modules, whose
    kernels call and copy in each other's)."""
    here = Path(__file__).parent
    shared = tuple(here / name for name in SHARED_KERNEL_FILES)
    play = here / "play"
    try:
        spec = importlib.util.find_spec(module_name)
    except (ImportError, ValueError):  # `__main__` (a script) has no spec
        spec = None
    source = spec.origin if spec is not None else getattr(sys.modules.get(module_name), "__file__", None)
    if source is None or not source.endswith(".py") or Path(source).parent in (here, play):
        return shared
    folder, rulesets = Path(source).parent, here / "rulesets"
    if rulesets not in folder.parents:
        return shared + tuple(sorted(folder.glob("*.py")))
    while folder.parent != rulesets:
        folder = folder.parent
    return shared + tuple(sorted(folder.rglob("*.py")))


def stamp_cache(dispatcher: Any, function: Callable[..., Any]) -> Any:
    """`dispatcher` with its on-disk cache tied to the sources it depends on, not only its own file.

    Numba keeps a cached kernel while the file that defines it is unchanged (its "source stamp": that file's content
    in Numba 0.68, its time and size before). But a kernel's machine code also holds every kernel it inlines or calls
    from other files and every constant it read there, so a change to `policies.py` alone would leave each engine's
    old kernels in use: measured this way, plasma kept epsilon-greedy's old seeding after `start_policy` changed.
    The stamp is extended with `sources_stamp(kernel_sources(...))`, so such a change recompiles instead.
    Under NUMBA_DISABLE_JIT=1 (no dispatcher, no cache) nothing is done."""
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if cache_file is None or not hasattr(cache_file, "_source_stamp"):
        return dispatcher
    cache_file._source_stamp = (cache_file._source_stamp, sources_stamp(kernel_sources(function.__module__)))
    return dispatcher


def kernel(function: F) -> F:
    """Compile an engine function with Numba, caching the machine code on disk between runs (for functions that
    allocate arrays, such as a batch's entry point).

    `forceinline=False` is written out, not left to Numba's default, because Numba gives a kernel first compiled while
    an `llvm_inline_kernel` is being typed that kernel's `forceinline`: a called kernel would be inlined or not
    depending on which caller happened to compile it first."""
    return cast(F, stamp_cache(njit(cache=True, nogil=True, forceinline=False)(function), function))


def rules_kernel(function: F) -> F:
    """`kernel` without Numba's reference counting, for every function that allocates nothing.

    With reference counting on, each call that passes arrays pays atomic increments and decrements on each of them,
    many times the cost of a small lookup (figures in docs/simulation.md, Speed). `_nrt` is a Numba option without
    documentation, so it is set in one place only: `no_nrt_options`.

    Numba compiles a called kernel once per distinct literal argument, so the constants engines pass are `np.int64`
    values, not literals: defined so at module level (circles' `NO_CARD`, souls' field and option constants) or
    wrapped as `np.int64(...)` at the call. One machine-code copy per kernel, not one per constant (less compile time
    and code).
    """
    return cast(F, stamp_cache(njit(cache=True, nogil=True, forceinline=False, **no_nrt_options())(function), function))


def inline_kernel(function: F) -> F:
    """A small, hot `rules_kernel` that Numba copies into each caller as its own IR, typed again there.

    Needed where the body must be typed in its caller: a kernel that returns a view of a buffer it was given (without
    reference counting Numba compiles no function that returns an array it did not receive). For a big body prefer
    `llvm_inline_kernel`: Numba re-reads the body and deep-copies its IR twice at every call site, block by block with
    the whole variable scope each time, so the compile grows with the square of the body's size."""
    return cast(F, stamp_cache(njit(cache=True, nogil=True, inline="always", **no_nrt_options())(function), function))


def llvm_inline_kernel(function: F) -> F:
    """A hot `rules_kernel` that is compiled once and that LLVM copies into each caller (Numba's `forceinline` option,
    LLVM's `alwaysinline`).

    Numba's own documentation says inlining at its IR level is for typing across a call, and LLVM's for speed
    (developer guide, "Notes on Inlining"). Typed and optimised once, copied as LLVM IR: plasma's engine, whose every
    inline kernel is one, plays the same matches as fast as with `inline_kernel` and compiles in half the time, which
    paid for copying four more of its kernels in (docs/rulesets/plasma.md, Speed, Round 7). `forceinline` is a Numba
    compiler flag without a page in its user guide (its docstring: "Force inlining of the function"), so it is
    written in these decorators only.
    """
    return cast(F, stamp_cache(njit(cache=True, nogil=True, forceinline=True, **no_nrt_options())(function), function))


def lowest_set_bit(bits: EngineInt) -> int:
    """The index of the lowest set bit of a non-zero bit set (a 63-bit one: the sign bit stays clear).

    Engines keep small sets (a player's occupied monster slots) as bits of one int64, and walk them lowest first
    with `m = lowest_set_bit(bits); bits &= bits - 1`: no pass over empty slots and no branch per slot. Compiled,
    this is one instruction (`overload` below); the plain Python body serves `NUMBA_DISABLE_JIT=1`.
    """
    value = int(bits)
    return (value & -value).bit_length() - 1


@overload(lowest_set_bit)
def _lowest_set_bit_compiled(bits: Any) -> Callable[[Any], Any]:
    def count_trailing_zeros(bits: Any) -> Any:
        # Numba's stubs type an intrinsic's call with its definition's (typing context, value) parameters.
        return trailing_zeros(bits)  # type: ignore[call-arg]

    return count_trailing_zeros


_MASK32 = 0xFFFFFFFF


@rules_kernel
def rng_seed(state: IntArray, seed: EngineInt) -> None:
    """Fill the four xorshift128 words from one seed (a 32-bit integer hash per word; never all zero)."""
    x = seed & 0x7FFFFFFFFFFFFFFF
    low = x & _MASK32
    high = (x >> 32) & _MASK32
    for i in range(4):
        h = (low + 0x9E3779B9 * (i + 1) + high * 0x27D4EB2D) & _MASK32
        h = (((h >> 16) ^ h) * 0x45D9F3B) & _MASK32
        h = (((h >> 16) ^ h) * 0x45D9F3B) & _MASK32
        h = (h >> 16) ^ h
        state[i] = h
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = 1


@inline_kernel
def rng_next(state: IntArray) -> int:
    """The next 32-bit value (xorshift128, Marsaglia 2003)."""
    t = state[3]
    s = state[0]
    state[3] = state[2]
    state[2] = state[1]
    state[1] = s
    t ^= (t << 11) & _MASK32
    t ^= t >> 8
    value = (t ^ s ^ (s >> 19)) & _MASK32
    state[0] = value
    return value


@inline_kernel
def rng_below(state: IntArray, n: EngineInt) -> EngineInt:
    """A uniform integer in [0, n) for 0 < n < 2**31 (multiply-shift: no modulo bias worth measuring)."""
    return (rng_next(state) * n) >> 32


@rules_kernel
def shuffle_in_place(values: IntArray, count: EngineInt, state: IntArray) -> None:
    """Fisher-Yates over the first `count` values, drawing exactly what `rng_below(state, i + 1)` would draw.

    The generator's four words stay in registers for the whole shuffle: stepping them through `state` (as
    `rng_next` does) makes each draw wait on the previous draw's stores, which was most of a shuffle's time.
    """
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    for i in range(count - 1, 0, -1):
        t = s3
        s3 = s2
        s2 = s1
        s1 = s0
        t ^= (t << 11) & _MASK32
        t ^= t >> 8
        s0 = (t ^ s1 ^ (s1 >> 19)) & _MASK32
        j = (s0 * (i + 1)) >> 32
        tmp = values[i]
        values[i] = values[j]
        values[j] = tmp
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3


def new_counters(cards: int) -> IntArray:
    """A zeroed counters array for a batch: counters[side, card, column], COUNTERS then COUNTER_SCRATCH."""
    return np.zeros((2, cards, COUNTER_COLUMNS), dtype=np.int64)


def published_counters(counters: IntArray) -> IntArray:
    """The COUNTERS columns of a kernel's counters array, without the scratch columns (a contiguous copy)."""
    return np.ascontiguousarray(counters[:, :, : len(COUNTERS)])


@inline_kernel
def begin_match_counters(counters: IntArray, match: EngineInt) -> None:
    """Say which match of the batch (from 0) is about to be played, before its first draw.

    A counters array only COUNTERS wide (as a scenario test may build) has no scratch columns: the per-match
    counters are then left alone, here and in `count_draw` and `count_play`. The lists of cards played start empty
    (`end_match_counters` empties them too; a match that ends without it, as a scenario may, leaves none behind).
    """
    if counters.shape[2] > FIRST_PLAYED and counters.shape[1] > 0:
        counters[0, 0, THIS_MATCH] = match
        counters[0, 0, FIRST_PLAYED] = 0
        counters[1, 0, FIRST_PLAYED] = 0


@inline_kernel
def count_draw(counters: IntArray, side: EngineInt, card: EngineInt) -> None:
    """Count one draw of `card` by `side` (into the opening hand or later): `drawn`, and `matches_drawn` once per
    match."""
    counters[side, card, DRAWN] += 1
    if counters.shape[2] > THIS_MATCH:
        stamp = counters[0, 0, THIS_MATCH] + 1
        if counters[side, card, LAST_MATCH_DRAWN] != stamp:
            counters[side, card, LAST_MATCH_DRAWN] = stamp
            counters[side, card, MATCHES_DRAWN] += 1


@inline_kernel
def count_play(counters: IntArray, side: EngineInt, card: EngineInt, turn: EngineInt) -> None:
    """Count one play of `card` by `side` in `turn`: `played`, and once per match `matches_played` and the turn of
    the match's first play in `first_played_turn`."""
    counters[side, card, PLAYED] += 1
    if counters.shape[2] > THIS_MATCH:
        stamp = counters[0, 0, THIS_MATCH] + 1
        if counters[side, card, LAST_MATCH_PLAYED] != stamp:
            counters[side, card, LAST_MATCH_PLAYED] = stamp
            counters[side, card, MATCHES_PLAYED] += 1
            counters[side, card, FIRST_PLAYED_TURN] += turn
            counters[side, card, FIRST_TURN_THIS_MATCH] = turn
            counters[side, card, NEXT_PLAYED] = counters[side, 0, FIRST_PLAYED]
            counters[side, 0, FIRST_PLAYED] = card + 1


@inline_kernel
def end_match_counters(counters: IntArray, last_turn: EngineInt, round_turns: EngineInt) -> None:
    """Count, for every card each side played in the match just ended, the match's last turn in
    `played_match_turns`, and in `matches_played_with_a_round_left` whether the match went on for `round_turns`
    turns or more after the card's first play (2 with two players; 0 counts every play, as Millennium Blades does).

    Visits only the cards played (the list `count_play` threads through the scratch columns), then empties the
    lists for the next match. A counters array without scratch columns is left alone, as in `count_play`.
    """
    if counters.shape[2] > FIRST_PLAYED and counters.shape[1] > 0:
        for side in range(2):
            link = counters[side, 0, FIRST_PLAYED]
            while link > 0:
                card = link - 1
                counters[side, card, PLAYED_MATCH_TURNS] += last_turn
                if last_turn - counters[side, card, FIRST_TURN_THIS_MATCH] >= round_turns:
                    counters[side, card, MATCHES_PLAYED_WITH_A_ROUND_LEFT] += 1
                link = counters[side, card, NEXT_PLAYED]
            counters[side, 0, FIRST_PLAYED] = 0


@inline_kernel
def log_event(
    events: IntArray,
    count: IntArray,
    turn: EngineInt,
    player: EngineInt,
    code: EngineInt,
    card: EngineInt,
    other: EngineInt,
    amount: EngineInt,
) -> None:
    """Append one trace event when tracing (an events buffer with rows); a no-op for the (0, 6) buffer."""
    n = count[0]
    if n < events.shape[0]:
        events[n, 0] = turn
        events[n, 1] = player
        events[n, 2] = code
        events[n, 3] = card
        events[n, 4] = other
        events[n, 5] = amount
        count[0] = n + 1


def trace_event(
    events: IntArray | None,
    count: IntArray,
    turn: EngineInt,
    player: EngineInt,
    code: EngineInt,
    card: EngineInt,
    other: EngineInt,
    amount: EngineInt,
) -> None:
    """`log_event` when tracing; nothing when `events` is None, as an engine's batches may pass it.

    Compiled, a batch's kernels are then a specialisation of their own with every trace call gone, not merely
    skipped: plasma's greedy plays about 4% more matches per second so than testing a (0, 6) buffer at each call
    (docs/rulesets/plasma.md, Speed), at the price of a second compile for traces, which
    `workbench.warm.load_engine` makes only when a trace is asked for.
    """
    if events is not None:
        log_event(events, count, turn, player, code, card, other, amount)


@overload(trace_event, jit_options=no_nrt_options(), strict=False)
def _compiled_trace_event(
    events: Any, count: Any, turn: Any, player: Any, code: Any, card: Any, other: Any, amount: Any
) -> Any:
    """`trace_event` for Numba: chosen by the type of `events` when compiling, not tested per call."""
    from numba.core import types

    if isinstance(events, types.NoneType):
        return lambda events, count, turn, player, code, card, other, amount: None
    return lambda events, count, turn, player, code, card, other, amount: log_event(
        events, count, turn, player, code, card, other, amount
    )


def check_deck_size(deck: Sequence[int] | IntArray, max_cards: int, which: str = "a deck") -> IntArray:
    """The deck as a contiguous int64 array, or a clear error when it holds more cards than an engine's match state
    does (`which` names it in the message)."""
    if len(deck) > max_cards:
        raise WorkbenchInputError(
            f"{which} holds {len(deck)} cards, more than the simulator plays in one deck.",
            expected=f"decks of at most {max_cards} cards (docs/formats.md, Limits: engine sizes)",
        )
    return np.ascontiguousarray(deck, dtype=np.int64)


@dataclass(frozen=True)
class CompiledCards:
    """A validated card set as arrays: card id = position in `names`."""

    names: tuple[str, ...]
    """Card names by card id."""
    table: IntArray
    """Per-card integer attributes, shape (cards, engine-specific columns)."""
    cost: npt.NDArray[np.float64]
    """The ruleset's cost axis per card (circles, soul cost, plasma); NaN where a card has none (e.g. resources)."""
    slot: IntArray
    """Cards only replace cards of the same slot in power-curve decks (e.g. characters vs resources)."""
    options: IntArray
    """Rule options as integers, in the engine's documented order."""
    findings: tuple[Finding, ...] = ()
    """Info findings made while compiling (e.g. an effect the engine does not cover)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Engine-specific arrays (e.g. an effect opcode table)."""
    max_deck_cards: int | None = None
    """The most cards one deck may hold in the engine's match state (plasma's and SOURCE's hold a deck in a field of
    fixed size); None: no bound. `deck_array` refuses a larger deck by its name."""

    def card_id(self, name: str) -> int:
        """The id of a card by exact name."""
        return self.names.index(name)

    def deck_array(self, deck: Deck, section: str = "main") -> IntArray:
        """The deck as a flat array of card ids, one entry per copy, in decklist order."""
        ids: list[int] = []
        for entry, copies, _line in deck.counts(section).values():
            ids.extend([self.names.index(entry.card.name)] * copies)
        if not ids:
            raise WorkbenchInputError(f"deck '{deck.name}' has no cards to play.", expected="a decklist with cards")
        if self.max_deck_cards is not None:
            check_deck_size(ids, self.max_deck_cards, f"deck '{deck.name}'")
        return np.asarray(ids, dtype=np.int64)
