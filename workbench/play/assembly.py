"""How an engine is put together from its kernels, written once for every engine: the `Engine` record the workbench
plays through, its batch and trace entry points (`batch_and_trace`), the card ids of a pairing's batch made the set's
(`pairing_counters`, `pairing_trace`, `global_trace`), and the package door of an engine split into modules
(`names_of_modules`, `replace_in_modules`).

Plain Python at the edge of the kernels (no kernel of its own); no Streamlit, pandas or plotly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from workbench.engines import EVENT_WIDTH, CompiledCards, IntArray, new_counters, published_counters
from workbench.play.policies import SEARCH_SETTINGS


def global_trace(
    ids: IntArray, events: IntArray, other_is_card: Sequence[int], card_is_not_card: Sequence[int] = ()
) -> IntArray:
    """A trace's rows (turn, player, code, card, other, amount) with a batch's own card ids made the set's: the batch
    played on the cards `ids` (set ids, ascending: its id i is set id ids[i]). `card` is a card id but in the codes
    `card_is_not_card`, `other` only in the codes `other_is_card`; -1 (no card) stays."""
    trace = np.array(events, dtype=np.int64, copy=True)
    code, card, other = trace[:, 2], trace[:, 3], trace[:, 4]
    mapped = ~np.isin(code, card_is_not_card) & (card >= 0)
    card[mapped] = ids[card[mapped]]
    mapped = np.isin(code, other_is_card) & (other >= 0)
    other[mapped] = ids[other[mapped]]
    return trace


def pairing_counters(cards: int, ids: IntArray, counters: IntArray) -> IntArray:
    """The published counters (`published_counters`) of a set of `cards` cards from a batch's `counters`, which are
    by the batch's own card ids: the batch played on the cards `ids` (set ids, ascending and distinct: its id i is set
    id ids[i]), so when it played every card of the set its ids are the set's."""
    if ids.shape[0] == cards:
        return published_counters(counters[:, :cards])
    whole = new_counters(cards)
    whole[:, ids] += counters[:, : ids.shape[0]]
    return published_counters(whole)


def pairing_trace(
    ids: IntArray, events: IntArray | None, other_is_card: Sequence[int], card_is_not_card: Sequence[int] = ()
) -> IntArray:
    """A batch's trace `events` with its card ids made the set's (`global_trace`), or no rows when the batch was not
    traced (`events` None: an untraced record may have no trace at all)."""
    if events is None:
        return np.zeros((0, EVENT_WIDTH), dtype=np.int64)
    return global_trace(ids, events, other_is_card, card_is_not_card)


@dataclass(frozen=True)
class BatchRun:
    """What an engine's run of a batch gives back (`run_batch` below): per match, then over the batch."""

    winners: Any
    """The winner of each match (int8: 0 side A, 1 side B, -1 a draw)."""
    turns: Any
    """Each match's length in turns (int32)."""
    counters: Any
    """The batch's counters, published (`published_counters`): int64[side, card, counter]."""
    events: IntArray
    """The trace's events, one row each (turn, player, code, card, other, amount); empty for an untraced run."""
    extras: dict[str, Any] = field(default_factory=dict)
    """Per-match arrays beyond the three (Millennium Blades' `vp`, `place`, `rp`, `score`); `play_batch` returns them
    as its fourth element when there are any."""


RunBatch = Callable[[CompiledCards, IntArray, IntArray, IntArray, Any, int, int, bool], BatchRun]
"""An engine's one run of a batch: (compiled, deck_a, deck_b, seeds, first, policy_a, policy_b, traced) -> BatchRun,
`traced` asking for the trace's room and events."""


def batch_and_trace(run: RunBatch) -> tuple[Callable[..., tuple[Any, ...]], Callable[..., tuple[int, int, IntArray]]]:
    """An engine's `play_batch` and `play_traced` (`Engine`'s two entry points) from its one `run`: the batch as run
    untraced; one match of `seed` traced. Written once here, not copied into each engine."""

    def play_batch(
        compiled: CompiledCards,
        deck_a: IntArray,
        deck_b: IntArray,
        seeds: IntArray,
        first: Any,
        policy_a: int,
        policy_b: int,
    ) -> tuple[Any, ...]:
        """(winner int8[], turns int32[], counters int64[2, cards, counters]) for one batch, and the engine's
        per-match arrays when it has any."""
        done = run(compiled, deck_a, deck_b, seeds, first, policy_a, policy_b, False)
        if done.extras:
            return done.winners, done.turns, done.counters, done.extras
        return done.winners, done.turns, done.counters

    def play_traced(
        compiled: CompiledCards, deck_a: IntArray, deck_b: IntArray, seed: int, first: int, policy_a: int, policy_b: int
    ) -> tuple[int, int, IntArray]:
        """One match with every event logged: (winner, turns, events int64[n, 6])."""
        seeds = np.array([seed], dtype=np.int64)
        done = run(compiled, deck_a, deck_b, seeds, np.array([first], dtype=np.int8), policy_a, policy_b, True)
        return int(done.winners[0]), int(done.turns[0]), done.events

    return play_batch, play_traced


@dataclass(frozen=True)
class Engine:
    """A ruleset's match engine: how to compile cards, play a batch, and narrate a trace."""

    version: str
    """Bumped whenever play changes; stamped into every result beside the ruleset version."""
    policies: tuple[str, ...]
    """Policy names, by code (`workbench.play.policies.POLICY_NAMES` and its codes); `policies.policy_word` turns a name
    into the integer a batch takes. The first is the default."""
    cost_axis: str
    """What the power curve's x axis is (e.g. `soul cost`)."""
    compile_cards: Callable[..., CompiledCards]
    """(cardset, options mapping) -> CompiledCards."""
    play_batch: Callable[..., tuple[Any, ...]]
    """(compiled, deck_a, deck_b, seeds, first, policy_a, policy_b) -> (winner int8[], turns int32[], counters), or
    with a fourth element: a dict of per-match arrays (`simulate` adds them as columns; a `score` array, deck A's
    score per match in [0, 1], replaces win 1 / draw 1/2 / loss 0 in power curves)."""
    play_traced: Callable[..., Any]
    """(compiled, deck_a, deck_b, seed, first, policy_a, policy_b) -> (winner, turns, events int64[n, 6])."""
    describe_event: Callable[[CompiledCards, Sequence[int]], str]
    """One trace event row -> one line a designer can read."""
    score_meaning: str = "win 1, draw 1/2, loss 0"
    """What a power curve's per-match score is (an engine returning a `score` array says what it measures)."""
    search_settings: tuple[str, ...] = SEARCH_SETTINGS
    """Which of the search policy's own settings its search takes (`search:R:depth=D:rollout_policy=P`,
    `workbench.play.policies.policy_word`): an engine whose rollouts always play to the match's end takes no `depth`."""
    caveats: tuple[str, ...] = ()
    """What a designer must know about every figure this engine gives (SOURCE: its map is reconstructed from the
    rule document's words): stamped into every result's provenance and said wherever the result is shown."""


# ---- An engine split into a package of modules ----------------------------------------------------------------------


def replace_in_modules(modules: Sequence[ModuleType], name: str, value: Any) -> None:
    """Set `name` to `value` in each of `modules` that holds it. In an uncompiled run (NUMBA_DISABLE_JIT=1) a kernel is
    looked up in the calling code's module at every call, so a test's wrapper must stand in every module of an engine
    package that calls the kernel, not in one."""
    for module in modules:
        if hasattr(module, name):
            setattr(module, name, value)


def names_of_modules(package: str, modules: Sequence[ModuleType]) -> Callable[[str], Any]:
    """An engine package's `__getattr__` (PEP 562): a public name of any of its `modules` that the package does not
    import itself (a constant a test or a tool reads by name, `getattr(engine, "EV_PLAY")`), so the package answers to
    every name the single module it was split from did."""

    def lookup(name: str) -> Any:
        if not name.startswith("_"):
            for module in modules:
                if name in vars(module):
                    return vars(module)[name]
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return lookup
