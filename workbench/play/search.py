"""Kernels a search policy shares, whatever the game: how a decision's rollouts are shared out among its candidates,
and how a rollout's end is scored.

Pure: numpy and numba only, compiled with `workbench.engines`' decorators, so any engine's search can call them from
its own kernels (souls' does; docs/simulation.md, *Policies*, says how).

**Successive halving** (Karnin, Koren and Somekh 2013, "Almost optimal exploration in multi-armed bandits", ICML,
algorithm *Sequential Halving*). A decision has `m` candidates and a budget of `budget` rollouts in all. It is spent
in `halving_rounds(m)` = ceil(log2 m) rounds: in each, every surviving candidate gets the same number of rollouts
(`halving_share`), all of them in the same sampled worlds with the same later dice (common random numbers, which
the engine's rollouts provide), then the candidates are ranked by their points (`halving_rank`) and the better half
kept (`halving_keep`). A candidate kept has had as many rollouts as every other one still in, so points are compared
as sums. What a round cannot spend evenly is carried to the next, so the last round spends what is left (all of it,
or all but fewer rollouts than candidates still in); a round whose survivors cannot each have one rollout more ends
the search with the ranking as it stands.

The survivors live in a list of candidate numbers on the caller's int64 buffer (`order`, `alive` long, best first
once ranked), their points and rollouts played in two blocks of it indexed by candidate number (`points + k`,
`tried + k`). Ties in points go to the lower candidate number, so a caller that numbers its default choice 0 (greedy's
move, as every engine's search does) keeps it on a tie, and the same figures always give the same order.

**Points.** A rollout scores `WIN_POINTS` for a win, `DRAW_POINTS` for a draw, 0 for a loss; a rollout cut off before
the end scores its position by the game's own evaluation, a difference in the deciding side's favour squashed into
the open interval (0, `WIN_POINTS`) by `position_points`, so a finished win always counts more than any position and
a finished loss less.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from workbench.engines import EngineInt, IntArray, inline_kernel, rng_next, rules_kernel

WIN_POINTS = 2000
"""What a won rollout scores (a lost one 0, a drawn one `DRAW_POINTS`): 2 points a win as before, in thousandths,
so a position cut off before the end can score the fractions between."""
DRAW_POINTS = WIN_POINTS // 2
"""What a drawn rollout scores (and an even position)."""


@rules_kernel
def halving_rounds(candidates: EngineInt) -> int:
    """Rounds successive halving takes to bring `candidates` down to one: ceil(log2 candidates), 0 for one or none."""
    rounds = 0
    alive = 1
    while alive < candidates:
        alive *= 2
        rounds += 1
    return rounds


@rules_kernel
def halving_share(budget_left: EngineInt, alive: EngineInt, rounds_left: EngineInt) -> EngineInt:
    """Rollouts each of `alive` survivors gets this round: an even share of what is left over the rounds left
    (floor), at least one while the budget gives every survivor one, and 0 once it does not (the search ends)."""
    if alive <= 0 or rounds_left <= 0:
        return 0
    share = budget_left // (alive * rounds_left)
    if share == 0 and budget_left >= alive:
        share = 1
    return share


@rules_kernel
def halving_start(
    words: IntArray, order: EngineInt, points: EngineInt, tried: EngineInt, candidates: EngineInt
) -> None:
    """Every candidate 0 .. candidates - 1 alive, in order, with no points and no rollouts yet."""
    for k in range(candidates):
        words[order + k] = k
        words[points + k] = 0
        words[tried + k] = 0


@rules_kernel
def halving_rank(words: IntArray, order: EngineInt, points: EngineInt, alive: EngineInt) -> None:
    """Sort the `alive` candidate numbers at `order` best first: most points, then the lower number (insertion sort:
    a decision has tens of candidates, and the list is mostly in order after the first round)."""
    j: EngineInt
    for i in range(1, alive):
        k = words[order + i]
        value = words[points + k]
        j = i
        while j > 0:
            other = words[order + j - 1]
            if words[points + other] > value or (words[points + other] == value and other < k):
                break
            words[order + j] = other
            j -= 1
        words[order + j] = k


@rules_kernel
def halving_keep(words: IntArray, order: EngineInt, points: EngineInt, alive: EngineInt) -> EngineInt:
    """Rank the survivors and keep the better half (ceil(alive / 2), the first of the ranking); returns how many."""
    halving_rank(words, order, points, alive)
    return (alive + 1) // 2


@rules_kernel
def halving_plan(budget: EngineInt, candidates: EngineInt, out: IntArray) -> int:
    """The whole schedule, without playing it: for each round r, out[r, 0] survivors each get out[r, 1] rollouts.
    Returns the rounds played (fewer than `halving_rounds` when the budget runs out first). For tests and tables;
    a search runs the same arithmetic round by round (`halving_share`, `halving_keep`)."""
    rounds = halving_rounds(candidates)
    alive = candidates
    left = budget
    played = 0
    for r in range(rounds):
        share = halving_share(left, alive, rounds - r)
        if share == 0:
            break
        out[r, 0] = alive
        out[r, 1] = share
        left -= share * alive
        alive = (alive + 1) // 2
        played += 1
    return played


@rules_kernel
def rollout_seed(words: IntArray) -> int:
    """A 62-bit seed for one rollout's world or dice, from the search's own xorshift generator (words[0:4])."""
    return (rng_next(words) << 31) ^ rng_next(words)


@rules_kernel
def position_points(advantage: EngineInt, half: EngineInt) -> EngineInt:
    """A cut-off rollout's points from the evaluation's `advantage` for the deciding side: DRAW_POINTS when even,
    rising towards WIN_POINTS (never reaching it) as the advantage grows; `half` is the advantage worth three
    quarters of a win (DRAW_POINTS + DRAW_POINTS / 2). Integer arithmetic, the same compiled and in plain Python."""
    magnitude = advantage if advantage >= 0 else -advantage
    return DRAW_POINTS + (DRAW_POINTS - 1) * advantage // (magnitude + half)


@inline_kernel
def halving_search(
    sample_world: Callable[..., None],
    rollout: Callable[..., EngineInt],
    context: Any,
    words: IntArray,
    order: EngineInt,
    points: EngineInt,
    tried: EngineInt,
    candidates: EngineInt,
    budget: EngineInt,
    rng: IntArray,
) -> EngineInt:
    """Successive halving over a decision's `candidates`, written once for every engine's search; returns the
    rollouts played. Afterwards the best candidate is `words[order]` (the survivors best first), and each
    candidate's points and rollouts are at `words[points + k]` and `words[tried + k]`.

    Each round gives every candidate still in `halving_share` rollouts: for each, a world's seed and a dice seed are
    drawn from the search's own generator `rng` (in that order), `sample_world(context, world_seed)` deals the sampled
    world once (the work every candidate of the round shares: a determinization), and `rollout(context, k,
    world_seed, dice)` plays candidate k in it and returns its points (`WIN_POINTS`, `DRAW_POINTS`, 0, or a cut-off
    position's `position_points`). So every candidate of a round meets the same worlds with the same later dice
    (common random numbers). Then `halving_keep` keeps the better half.

    `sample_world` and `rollout` are the engine's kernels and `context` a tuple of what they read (its state, work
    buffers, the deciding side): Numba copies this body into the engine's kernel that calls it (an `inline_kernel`),
    where both are known functions, so the engine's compiled search is cached as before and calls them directly."""
    halving_start(words, order, points, tried, candidates)
    rounds = halving_rounds(candidates)
    # Typed for mypy only (numba ignores the annotations): ints at first, then what the kernels return.
    left: EngineInt = budget
    alive: EngineInt = candidates
    played: EngineInt = 0
    for r in range(rounds):
        share = halving_share(left, alive, rounds - r)
        if share == 0:
            break
        for _ in range(share):
            world = rollout_seed(rng)
            sample_world(context, world)
            dice = rollout_seed(rng)
            for i in range(alive):
                k = words[order + i]
                words[points + k] += rollout(context, k, world, dice)
        for i in range(alive):
            words[tried + words[order + i]] += share
        left -= share * alive
        played += share * alive
        alive = halving_keep(words, order, points, alive)
    return played


def schedule(budget: int, candidates: int) -> list[tuple[int, int]]:
    """`halving_plan` as a list of (survivors, rollouts each), for tests and docs."""
    out = np.zeros((max(halving_rounds(candidates), 1), 2), dtype=np.int64)
    rounds = halving_plan(np.int64(budget), np.int64(candidates), out)
    return [(int(out[r, 0]), int(out[r, 1])) for r in range(rounds)]


def rollouts_given(budget: int, candidates: int) -> list[int]:
    """The rollouts `halving_search` gives each of `candidates` on `budget`, ascending (for tests and docs): a
    candidate dropped after round j was given the shares of rounds 0..j, those in the last round every share."""
    plan = schedule(budget, candidates)
    if not plan:
        return [0] * candidates
    given: list[int] = []
    so_far = 0
    for j, (alive, share) in enumerate(plan):
        so_far += share
        given += [so_far] * (alive - (plan[j + 1][0] if j + 1 < len(plan) else 0))
    return sorted(given)
