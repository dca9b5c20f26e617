"""The whole game's generator: the engines' xorshift128, seeded by their `rng_seed` and stepped over four Python
integers as their `rng_next`, `rng_below` and `shuffle_in_place` step it, so the market's draws are ones a compiled
market can make in the same order (issue 33: the compiled whole game must give games identical to this reference).

Every draw the market makes is one of the methods below, each defined by the engines' own primitives: `below(n)`
is `rng_below`, `permutation(n)` is `shuffle_in_place` over 0..n-1, `sample(n, k)` is a partial Fisher-Yates from
the front, `seed()` is two draws made one 62-bit seed (for the tournament engine's and a search's own generators),
`unit()` one draw over 2**32. A game's generator is seeded from its `SeedSequence` child (`from_sequence`), so game k
of a run still depends on the run's seed and k alone.

No numpy in a draw: a NumPy `Generator` call costs microseconds of its own; these cost a few hundred nanoseconds.
"""

from __future__ import annotations

import numpy as np

from workbench.engines import rng_seed

MASK32 = 0xFFFFFFFF
"""A xorshift word's bits."""
SEED_BITS = 62
"""A seed handed to the tournament engine or a search: below 2**62, as `numpy`'s integers(0, 2**62) gave before."""


class MarketRng:
    """A xorshift128 generator: the engines' `rng_*` kernels, draw for draw."""

    __slots__ = ("s0", "s1", "s2", "s3")

    def __init__(self, seed: int) -> None:
        # Seeded by the engines' own `rng_seed` (once a game, so its call costs nothing worth counting).
        words = np.zeros(4, dtype=np.int64)
        rng_seed(words, np.int64(int(seed) & 0x7FFFFFFFFFFFFFFF))
        self.s0, self.s1, self.s2, self.s3 = (int(word) for word in words)

    @classmethod
    def from_sequence(cls, sequence: np.random.SeedSequence) -> MarketRng:
        """A game's generator from its `SeedSequence` child (the first 63 bits of its first 64-bit state word)."""
        return cls(int(sequence.generate_state(1, np.uint64)[0]) >> 1)

    def next(self) -> int:
        """The next 32-bit value (`rng_next`). Written again over Python integers rather than calling the kernel: a
        compiled call from Python costs more than the draw itself, and the market draws thousands of times a game;
        `tests/rulesets/blades/test_blades_market_rng.py` holds the two to the same values."""
        t = self.s3
        s = self.s0
        self.s3 = self.s2
        self.s2 = self.s1
        self.s1 = s
        t ^= (t << 11) & MASK32
        t ^= t >> 8
        value = (t ^ s ^ (s >> 19)) & MASK32
        self.s0 = value
        return value

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) for 0 < n < 2**31 (`rng_below`)."""
        return (self.next() * n) >> 32

    def between(self, low: int, high: int) -> int:
        """A uniform integer in [low, high): `low + below(high - low)`."""
        return low + self.below(high - low)

    def coin(self) -> bool:
        """Heads or tails: `below(2) == 0`."""
        return self.below(2) == 0

    def permutation(self, n: int) -> list[int]:
        """0..n-1 shuffled as `shuffle_in_place` shuffles them: Fisher-Yates from the back, position i swapped with
        `below(i + 1)`."""
        values = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            values[i], values[j] = values[j], values[i]
        return values

    def sample(self, n: int, k: int) -> list[int]:
        """k distinct integers of 0..n-1 (k <= n), in the order drawn: Fisher-Yates from the front, stopped after
        k, position i swapped with `i + below(n - i)`."""
        values = list(range(n))
        for i in range(k):
            j = i + self.below(n - i)
            values[i], values[j] = values[j], values[i]
        return values[:k]

    def copy(self) -> MarketRng:
        """A generator in this one's state: its draws are the ones this one makes next."""
        twin = MarketRng.__new__(MarketRng)
        twin.s0, twin.s1, twin.s2, twin.s3 = self.s0, self.s1, self.s2, self.s3
        return twin

    def skip(self, draws: int) -> None:
        """Make `draws` draws and drop them. A `below` is one `next`, so `sample(n, k)` leaves the state `skip(k)`
        leaves, and a `copy` made before the skip can make the sample itself when it is wanted after all."""
        step = self.next
        for _ in range(draws):
            step()

    def seed(self) -> int:
        """A fresh 62-bit seed from two draws (high word first), for a generator of its own."""
        return ((self.next() << 32) | self.next()) & ((1 << SEED_BITS) - 1)

    def unit(self) -> float:
        """A uniform float in [0, 1): one draw over 2**32."""
        return self.next() / 4294967296.0
