"""The play layer's match loop, written once for every engine whose rules stop at each decision and return.

Such an engine keeps the contract of docs/simulation.md (*The engine contract*): its rules play on from where a match
stands until a decision is open, and return; `legal_actions(G, S, out) -> n` lists the open decision's rows and
`apply(G, S, row)` takes one and plays the rules on to the next decision (or the match's end). No rule asks a policy.
The loop here is then the whole of how a match is played: while the match is not over, the deciding side's policy
chooses (`decide`) and the rules take the choice (`apply`). A batch, a trace, a search's rollout and a test that plays
a match decision by decision all play through it; an engine brings its rules, its `decide` (the policy of the side
whose decision is open: greedy as the game's own scoring of the listed rows, random, epsilon-greedy
through `workbench.play.policies`, search) and its `is_over`. A batch of matches is `batch_loop`: the engine brings
how a batch's match is dealt and how its result is written.

Pure: numpy and numba only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from workbench.engines import EngineInt, inline_kernel

NO_CONTEXT = 0
"""The `context` of a `decide` that reads nothing besides the game and the state."""


@inline_kernel
def play_out(
    game: Any,
    state: Any,
    context: Any,
    decide: Callable[..., Any],
    apply: Callable[..., None],
    is_over: Callable[..., bool],
) -> None:
    """Play the match in `state` on to its end: while `is_over(state)` is false, the open decision's choice
    `decide(game, state, context)` is taken by `apply(game, state, row)`, which plays the rules on to the next
    decision. `context` is what `decide` reads besides the game and the state (a search's work records; NO_CONTEXT for
    none).

    An `inline_kernel`: Numba copies this body into the engine's kernel that calls it, where `decide`, `apply` and
    `is_over` are known functions (as `play.search.halving_search` takes its two), so the engine's compiled loop
    is cached with it and calls them directly."""
    while not is_over(state):
        apply(game, state, decide(game, state, context))


@inline_kernel
def play_until(
    game: Any,
    state: Any,
    context: Any,
    decide: Callable[..., Any],
    take: Callable[..., None],
    advance: Callable[..., None],
    is_over: Callable[..., bool],
    until: Any,
) -> None:
    """Play the match in `state` on from where it stands until the rules stop with no decision open: `advance(game,
    state, until)` plays the rules on to the next decision or to the stage `until` (the engine's own: a turn's end,
    a phase's), and each decision's choice `decide(game, state, context)` is taken by `take(game, state, row)`, which
    takes it without playing on. A part of a match (a rollout's turn, a phase a rule test plays) where `play_out`
    plays a whole one."""
    advance(game, state, until)
    while not is_over(state):
        take(game, state, decide(game, state, context))
        advance(game, state, until)


BATCH_DECK_A, BATCH_DECK_B, BATCH_SEEDS, BATCH_FIRST = 0, 1, 2, 3
BATCH_POLICY_A, BATCH_POLICY_B, BATCH_WINNERS, BATCH_TURNS = 4, 5, 6, 7
"""A batch's places in its tuple (`new_batch`): the two decks (engine card ids), the seeds (one match each), the first
sides, the two sides' policy words, and the columns each match's winner and turn count are written into. An engine's
own entries (Millennium Blades' store, result columns and metagame) come after them."""


def new_batch(
    deck_a: Any, deck_b: Any, seeds: Any, first: Any, policy_a: int, policy_b: int, *extra: Any
) -> tuple[Any, ...]:
    """A batch for an engine's batch kernel (`batch_loop`): its BATCH_* places, the seeds as int64 and the first sides
    as int8 (contiguous), zeroed winners (int8) and turns (int32) columns one per seed, then the engine's `extra`.

    One first side per seed, each 0 or 1, else a ValueError: a compiled kernel reads them unchecked."""
    seeds = np.ascontiguousarray(seeds, dtype=np.int64)
    first = np.ascontiguousarray(first, dtype=np.int8)
    if seeds.ndim != 1 or first.shape != seeds.shape:
        raise ValueError(f"a batch needs one first side per seed: {first.shape} first sides for {seeds.shape} seeds")
    if first.size and (first.min() < 0 or first.max() > 1):
        raise ValueError("a batch's first sides are 0 (deck A) or 1 (deck B)")
    winners, turns = np.zeros(seeds.shape[0], dtype=np.int8), np.zeros(seeds.shape[0], dtype=np.int32)
    return (deck_a, deck_b, seeds, first, policy_a, policy_b, winners, turns, *extra)


@inline_kernel
def batch_match(batch: Any, m: EngineInt) -> tuple[Any, Any, EngineInt, EngineInt, EngineInt, EngineInt]:
    """Match m of a batch as an engine's `start` deals it: the two decks, its seed, its first side and the two policy
    words."""
    return (
        batch[BATCH_DECK_A],
        batch[BATCH_DECK_B],
        batch[BATCH_SEEDS][m],
        batch[BATCH_FIRST][m],
        batch[BATCH_POLICY_A],
        batch[BATCH_POLICY_B],
    )


@inline_kernel
def record_result(batch: Any, m: EngineInt, winner: EngineInt, turns: EngineInt) -> None:
    """Match m's winner and turn count written into the batch's columns (an engine's `finish`)."""
    batch[BATCH_WINNERS][m] = winner
    batch[BATCH_TURNS][m] = turns


@inline_kernel
def batch_loop(
    game: Any,
    state: Any,
    batch: Any,
    context: Any,
    start: Callable[..., None],
    play: Callable[..., None],
    finish: Callable[..., None],
) -> None:
    """A batch (`new_batch`): one match per seed in the one state, which every match reuses (its counters add up over
    the batch). Match m is set up by `start(game, state, batch, m)` (its counters begun, its deal from its seed
    (`batch_match`), its first side, its sides' policies, and a search's own generator seeded from the match's seed),
    played by `play(game, state, context)` (`play_out` with the engine's `decide`, or with a search's) and its result
    written by `finish(game, state, batch, m)` (`record_result`).

    Every engine's greedy, random and search batches play through this loop (an `inline_kernel`, copied into the
    engine's batch kernel as `play_out` is)."""
    for m in range(batch[BATCH_SEEDS].shape[0]):
        start(game, state, batch, m)
        play(game, state, context)
        finish(game, state, batch, m)
