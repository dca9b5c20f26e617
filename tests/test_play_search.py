"""The search kernels every engine can share (workbench/play/search.py): successive halving's schedule and
ranking, and the points of a cut-off rollout."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, cast

import numba
import numpy as np
import pytest

from workbench.engines import rng_seed
from workbench.play.search import (
    DRAW_POINTS,
    WIN_POINTS,
    halving_keep,
    halving_rank,
    halving_rounds,
    halving_search,
    halving_share,
    halving_start,
    position_points,
    rollouts_given,
    schedule,
)

ORDER, POINTS, TRIED = np.int64(0), np.int64(64), np.int64(128)
"""Where a test's buffer keeps the survivors' list, the points and the rollouts given (64 candidates at most)."""


@pytest.mark.parametrize(("candidates", "rounds"), [(0, 0), (1, 0), (2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4)])
def test_rounds_are_ceil_log2_of_the_candidates(candidates: int, rounds: int) -> None:
    assert halving_rounds(np.int64(candidates)) == rounds


@pytest.mark.parametrize("candidates", range(2, 41))
@pytest.mark.parametrize("per_candidate", [1, 2, 3, 4, 8, 16])
def test_the_schedule_spends_the_budget_and_halves_the_survivors(candidates: int, per_candidate: int) -> None:
    budget = per_candidate * candidates
    plan = schedule(budget, candidates)
    spent = sum(alive * share for alive, share in plan)
    # Budget conserved: never more than the budget, and what is left could not give every survivor one more rollout.
    assert plan and spent <= budget and budget - spent < plan[-1][0]
    # Survivors halve: all candidates in the first round, ceil(half) of the survivors in the next.
    assert plan[0][0] == candidates
    for (alive, _), (next_alive, _) in zip(plan, plan[1:], strict=False):
        assert next_alive == math.ceil(alive / 2)
    # Every round gives each survivor at least one rollout; a schedule that ran every round ends with two.
    assert all(share >= 1 for _, share in plan)
    if len(plan) == halving_rounds(np.int64(candidates)):
        assert plan[-1][0] == 2
    # With a budget of at least one rollout a candidate per round, every round is played.
    if per_candidate >= halving_rounds(np.int64(candidates)):
        assert len(plan) == halving_rounds(np.int64(candidates))


def test_a_schedule_by_hand() -> None:
    # 9 candidates, 4 rollouts each on average: 36 over ceil(log2 9) = 4 rounds. Round 1: 36 // (9 * 4) = 1 each
    # (27 left); round 2: 5 survivors, 27 // (5 * 3) = 1 each (22 left); round 3: 3, 22 // (3 * 2) = 3 each (13
    # left); round 4: 2, 13 // 2 = 6 each (1 left).
    assert schedule(36, 9) == [(9, 1), (5, 1), (3, 3), (2, 6)]
    # What a round cannot spend evenly carries to the next; once survivors cannot each have one more, it stops.
    assert schedule(18, 9) == [(9, 1), (5, 1), (3, 1)]
    assert schedule(9, 9) == [(9, 1)]
    assert halving_share(np.int64(1), np.int64(2), np.int64(1)) == 0


def buffer(points: list[int]) -> np.ndarray:
    words = np.zeros(192, dtype=np.int64)
    halving_start(words, ORDER, POINTS, TRIED, np.int64(len(points)))
    words[POINTS : POINTS + len(points)] = points
    return words


def test_keep_ranks_by_points_and_keeps_the_better_half() -> None:
    words = buffer([5, 9, 1, 9, 7])
    kept = halving_keep(words, ORDER, POINTS, np.int64(5))
    assert kept == 3
    assert list(words[ORDER : ORDER + 5]) == [1, 3, 4, 0, 2]  # 9, 9 (the lower number first), 7, 5, 1


def test_ties_go_to_the_lower_candidate_whatever_the_order_the_list_was_in() -> None:
    rng = np.random.default_rng(0)
    points = [int(p) for p in rng.integers(0, 4, size=12)]  # few values: many ties
    expected = sorted(range(12), key=lambda k: (-points[k], k))
    for _ in range(20):
        words = buffer(points)
        words[ORDER : ORDER + 12] = rng.permutation(12)
        halving_rank(words, ORDER, POINTS, np.int64(12))
        assert list(words[ORDER : ORDER + 12]) == expected
    # All equal: the order is the candidates' own, so a caller's candidate 0 is kept on a tie.
    words = buffer([3] * 6)
    assert halving_keep(words, ORDER, POINTS, np.int64(6)) == 3
    assert list(words[ORDER : ORDER + 3]) == [0, 1, 2]


def test_halving_finds_the_best_arm_with_common_random_numbers() -> None:
    # Ten arms whose rollouts share each round's noise (as rollouts in one sampled world do): arm 6 is best by 1
    # point a rollout, on noise of +-500. Halving on sums finds it with 4 rollouts an arm on average.
    means = [0, 3, -2, 1, 0, 2, 4, -1, 3, 2]
    rng = np.random.default_rng(1)
    m = len(means)
    words = buffer([0] * m)
    rounds = halving_rounds(np.int64(m))
    left = 4 * m
    alive = m
    for r in range(rounds):
        share = int(halving_share(np.int64(left), np.int64(alive), np.int64(rounds - r)))
        for _ in range(share):
            world = int(rng.integers(-500, 500))
            for i in range(alive):
                k = int(words[ORDER + i])
                words[POINTS + k] += 1000 + world + means[k]
        left -= share * alive
        alive = int(halving_keep(words, ORDER, POINTS, np.int64(alive)))
    assert alive == 1 and int(words[ORDER]) == 6


def test_position_points_lie_between_a_loss_and_a_win_and_rise_with_the_advantage() -> None:
    half = np.int64(100)
    advantages = list(range(-5000, 5001, 37)) + [-(10**9), 10**9]
    points = [int(position_points(np.int64(a), half)) for a in sorted(advantages)]
    assert all(0 < p < WIN_POINTS for p in points)
    assert points == sorted(points)
    assert position_points(np.int64(0), half) == DRAW_POINTS
    assert position_points(np.int64(100), half) == DRAW_POINTS + (DRAW_POINTS - 1) // 2  # three quarters of a win
    for a in (1, 7, 100, 999):
        assert abs(int(position_points(np.int64(a), half)) + int(position_points(np.int64(-a), half)) - WIN_POINTS) <= 1


def plain(kernel: Callable[..., Any]) -> Callable[..., Any]:
    """A kernel's Python body, as `NUMBA_DISABLE_JIT=1` runs it."""
    return cast(Callable[..., Any], kernel.py_func)  # type: ignore[attr-defined]


def test_compiled_kernels_and_their_plain_python_agree() -> None:
    # Engines are debugged under NUMBA_DISABLE_JIT=1: the kernels' Python bodies must give the compiled figures.
    for a in range(-300, 301, 7):
        assert position_points(np.int64(a), np.int64(40)) == plain(position_points)(a, 40)
    for budget in range(1, 60):
        for alive in range(1, 12):
            for rounds_left in range(1, 5):
                compiled = halving_share(np.int64(budget), np.int64(alive), np.int64(rounds_left))
                assert compiled == plain(halving_share)(budget, alive, rounds_left)
    for candidates in range(12):
        assert halving_rounds(np.int64(candidates)) == plain(halving_rounds)(candidates)
    words = buffer([4, 1, 4, 0, 9, 2, 2])
    by_python = words.copy()
    halving_rank(words, ORDER, POINTS, np.int64(7))
    plain(halving_rank)(by_python, ORDER, POINTS, 7)
    assert (words == by_python).all()


# ---- halving_search: the round loop written once, over an engine's own world dealer and rollout ------------------

TOY_WORDS = 192
"""A toy search's words: the survivors' list, points and rollouts given (ORDER, POINTS, TRIED), 64 candidates."""


def toy_world(context: Any, seed: int) -> None:
    """Deals the toy's world: its seed, kept in the context's log (one entry a world)."""
    log, _truth = context
    log[0] += 1
    log[log[0]] = seed


def toy_rollout(context: Any, k: int, world: int, dice: int) -> int:
    """Candidate k scores a win when its strength beats a number the world and the dice draw together; the world
    seed must be the one the last dealt world had (else a large loss the test sees in the points: no assert, which
    pytest rewrites into calls Numba cannot compile)."""
    log, truth = context
    if log[log[0]] != world:
        return -(10**9)
    return WIN_POINTS if (world ^ dice) % 100 < truth[k] else 0


compiled_toy_world = numba.njit(toy_world)
compiled_toy_rollout = numba.njit(toy_rollout)


@numba.njit
def compiled_toy_search(log: Any, truth: Any, words: Any, candidates: Any, budget: Any, rng: Any) -> Any:
    return halving_search(
        compiled_toy_world,
        compiled_toy_rollout,
        (log, truth),
        words,
        ORDER,
        POINTS,
        TRIED,
        candidates,
        budget,
        rng,
    )


def toy_search(compiled: bool, truth: list[int], budget: int, seed: int) -> tuple[int, list[int], list[int], int]:
    """(the best candidate, rollouts given and points per candidate, rollouts played), compiled or plain Python."""
    m = len(truth)
    words, rng = np.zeros(TOY_WORDS, dtype=np.int64), np.zeros(4, dtype=np.int64)
    log = np.zeros(4 * budget + 2, dtype=np.int64)
    rng_seed(rng, np.int64(seed))
    strengths = np.array(truth, dtype=np.int64)
    if compiled:
        played = compiled_toy_search(log, strengths, words, np.int64(m), np.int64(budget), rng)
    else:
        played = plain(halving_search)(
            toy_world, toy_rollout, (log, strengths), words, ORDER, POINTS, TRIED, m, budget, rng
        )
    tried = [int(words[TRIED + k]) for k in range(m)]
    points = [int(words[POINTS + k]) for k in range(m)]
    return int(words[ORDER]), tried, points, int(played)


@pytest.mark.parametrize("truth", [[50, 50, 90, 10, 50], [30, 80], [10, 20, 30, 40, 50, 60, 70, 80, 95]])
def test_halving_search_spends_the_schedule_and_keeps_the_strongest(truth: list[int]) -> None:
    m = len(truth)
    budget = 16 * m
    best, tried, points, played = toy_search(True, truth, budget, seed=7)
    plan = schedule(budget, m)
    # A candidate dropped after round j was given the shares of rounds 0..j; those in the last round, every share.
    assert played == sum(alive * share for alive, share in plan) == sum(tried)
    assert sorted(tried) == rollouts_given(budget, m)
    assert best == int(np.argmax(truth)) and tried[best] == max(tried)
    assert all(p % WIN_POINTS == 0 and 0 <= p <= WIN_POINTS * t for p, t in zip(points, tried, strict=True))


def test_halving_search_compiled_and_plain_python_agree_and_repeat() -> None:
    truth = [40, 55, 60, 20, 58, 10]
    for seed in (1, 2, 3):
        compiled = toy_search(True, truth, 24, seed)
        assert compiled == toy_search(False, truth, 24, seed) == toy_search(True, truth, 24, seed)


def test_rollouts_given_follow_the_schedule() -> None:
    # Five candidates, 10 rollouts: round 1 gives 5 x 1, round 2 3 x 1, round 3 2 x 1 (play.search.schedule):
    # two dropped after one rollout, one after two, the last two given three each.
    assert schedule(10, 5) == [(5, 1), (3, 1), (2, 1)]
    assert rollouts_given(10, 5) == [1, 1, 2, 3, 3]
    assert rollouts_given(8, 1) == [0] and rollouts_given(0, 3) == [0, 0, 0]
    for candidates in range(2, 20):
        for per in (1, 2, 4, 16):
            given = rollouts_given(per * candidates, candidates)
            assert len(given) == candidates and sum(given) <= per * candidates
