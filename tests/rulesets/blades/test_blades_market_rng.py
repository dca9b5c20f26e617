"""The whole game's generator is the engines' xorshift128, draw for draw (issue 33, item 1: a compiled market must
make the reference's draws in the same order)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from workbench.engines import rng_below, rng_next, rng_seed, shuffle_in_place
from workbench.rulesets.blades.market_rng import BLOCK, SEED_BITS, MarketRng
from workbench.rulesets.blades.market_runs import game_rngs

SEEDS = [0, 1, 7, 2**31 - 1, 2**40 + 3, 2**62 - 1, 2**63 - 1]


def kernel_state(seed: int) -> np.ndarray:
    state = np.zeros(4, dtype=np.int64)
    rng_seed(state, np.int64(seed))
    return state


@pytest.mark.parametrize("seed", SEEDS)
def test_draws_are_the_engines_rng_next_and_rng_below(seed: int) -> None:
    ours, theirs = MarketRng(seed), kernel_state(seed)
    assert list(ours.words()) == [int(word) for word in theirs]
    for n in (1, 2, 3, 10, 61, 2**20, 2**31 - 1):
        for _ in range(25):
            assert ours.below(n) == int(rng_below(theirs, np.int64(n)))
    assert [ours.next() for _ in range(50)] == [int(rng_next(theirs)) for _ in range(50)]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_permutation_is_the_engines_shuffle(seed: int) -> None:
    ours, theirs = MarketRng(seed), kernel_state(seed)
    for n in (0, 1, 2, 5, 40):
        values = np.arange(n, dtype=np.int64)
        shuffle_in_place(values, np.int64(n), theirs)
        assert ours.permutation(n) == values.tolist()
    assert ours.next() == int(rng_next(theirs))  # the same number of draws


def test_a_sample_is_distinct_drawn_from_the_front_and_uniform_enough() -> None:
    rng = MarketRng(11)
    for n, k in ((10, 0), (10, 3), (10, 10), (1, 1)):
        drawn = rng.sample(n, k)
        assert len(drawn) == k == len(set(drawn)) and all(0 <= i < n for i in drawn)
    # A partial Fisher-Yates from the front: the first index is below(n), the second i + below(n - 1) ...
    a, b = MarketRng(5), MarketRng(5)
    first = a.below(8)
    assert b.sample(8, 1) == [first]
    # Each of 6 values first in about a sixth of 60,000 draws (the 0.1% band of the binomial is about +-3.2 sd).
    counts = Counter(rng.sample(6, 2)[0] for _ in range(60_000))
    assert all(abs(count - 10_000) < 3.3 * (60_000 * (1 / 6) * (5 / 6)) ** 0.5 for count in counts.values())


def test_between_coin_seed_and_unit_stay_in_their_ranges() -> None:
    rng = MarketRng(3)
    assert {rng.between(2, 5) for _ in range(400)} == {2, 3, 4}
    assert {rng.coin() for _ in range(100)} == {True, False}
    seeds = [rng.seed() for _ in range(200)]
    assert all(0 <= s < 2**SEED_BITS for s in seeds) and len(set(seeds)) == 200
    units = [rng.unit() for _ in range(2000)]
    assert all(0.0 <= u < 1.0 for u in units) and 0.45 < sum(units) / len(units) < 0.55


def test_a_run_s_games_depend_on_the_seed_and_the_index_alone() -> None:
    firsts = [rng.next() for rng in game_rngs(4, 6)]
    assert firsts == [rng.next() for rng in game_rngs(4, 6)]
    assert firsts[:3] == [rng.next() for rng in game_rngs(4, 3)]  # game k of a shorter run is the same game
    assert len(set(firsts)) == 6 and firsts != [rng.next() for rng in game_rngs(5, 6)]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_skipped_sample_leaves_the_sample_s_state_and_a_copy_makes_it(seed: int) -> None:
    # What the random policy relies on: a fusion's sample skipped, then made from a copy only if it is drawn.
    for n, k in ((21, 0), (21, 7), (9, 9), (40, 5)):
        sampled, skipped = MarketRng(seed), MarketRng(seed)
        twin = skipped.copy()
        expected = sampled.sample(n, k)
        skipped.skip(k)
        assert skipped.words() == sampled.words()
        assert twin.sample(n, k) == expected
        assert (
            [twin.next() for _ in range(5)] == [skipped.next() for _ in range(5)] == [sampled.next() for _ in range(5)]
        )


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_draws_made_a_block_ahead_are_the_kernels_across_blocks_skips_and_copies(seed: int) -> None:
    # The draws are worked out BLOCK at a time: the state a caller sees (`words`), the draws, skips past the end of a
    # block and copies made before a block ran out must all be as if each draw were made when asked for.
    ours, theirs = MarketRng(seed), kernel_state(seed)
    copies: list[tuple[MarketRng, np.ndarray]] = []
    steps = [1, 3, BLOCK - 5, 2, 7, BLOCK, 2 * BLOCK + 1, 0, 4, BLOCK - 1, 1]
    for i, draws in enumerate(steps):
        if i % 2:
            ours.skip(draws)
            for _ in range(draws):
                rng_next(theirs)
        else:
            assert [ours.next() for _ in range(draws)] == [int(rng_next(theirs)) for _ in range(draws)]
        assert list(ours.words()) == [int(word) for word in theirs]
        copies.append((ours.copy(), theirs.copy()))
    for twin, state in copies:  # each copy goes on from where it was made, past the blocks the original made since
        assert [twin.next() for _ in range(BLOCK + 3)] == [int(rng_next(state)) for _ in range(BLOCK + 3)]
