"""The whole game's generator: the engines' xorshift128 (`workbench.engines.rng_seed`, `rng_next`, `rng_below`,
`shuffle_in_place`), written over four Python integers, so the market's draws are ones a compiled market can make
in the same order (issue 33: the compiled whole game must give games identical to this reference).

Every draw the market makes is one of the methods below, each defined by the engines' own primitives: `below(n)`
is `rng_below`, `permutation(n)` is `shuffle_in_place` over 0..n-1, `sample(n, k)` is a partial Fisher-Yates from
the front, `seed()` is two draws made one 62-bit seed (for the tournament engine's and a search's own generators),
`unit()` one draw over 2**32. A game's generator is seeded from its `SeedSequence` child (`from_sequence`), so game k
of a run still depends on the run's seed and k alone.

Pure Python: no numpy in a draw. A NumPy `Generator` call costs microseconds of its own; these cost a few hundred
nanoseconds.
"""

from __future__ import annotations

import numpy as np

MASK32 = 0xFFFFFFFF
"""A xorshift word's bits."""
SEED_BITS = 62
"""A seed handed to the tournament engine or a search: below 2**62, as `numpy`'s integers(0, 2**62) gave before."""


class MarketRng:
    """A xorshift128 generator: the engines' `rng_*` kernels, draw for draw."""

    __slots__ = ("s0", "s1", "s2", "s3")

    def __init__(self, seed: int) -> None:
        # `rng_seed`: a 32-bit integer hash of the seed's two halves per word; never all zero.
        x = int(seed) & 0x7FFFFFFFFFFFFFFF
        low = x & MASK32
        high = (x >> 32) & MASK32
        words = []
        for i in range(4):
            h = (low + 0x9E3779B9 * (i + 1) + high * 0x27D4EB2D) & MASK32
            h = (((h >> 16) ^ h) * 0x45D9F3B) & MASK32
            h = (((h >> 16) ^ h) * 0x45D9F3B) & MASK32
            words.append((h >> 16) ^ h)
        if not any(words):
            words[0] = 1
        self.s0, self.s1, self.s2, self.s3 = words

    @classmethod
    def from_sequence(cls, sequence: np.random.SeedSequence) -> MarketRng:
        """A game's generator from its `SeedSequence` child (the first 63 bits of its first 64-bit state word)."""
        return cls(int(sequence.generate_state(1, np.uint64)[0]) >> 1)

    def next(self) -> int:
        """The next 32-bit value (`rng_next`)."""
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

    def seed(self) -> int:
        """A fresh 62-bit seed from two draws (high word first), for a generator of its own."""
        return ((self.next() << 32) | self.next()) & ((1 << SEED_BITS) - 1)

    def unit(self) -> float:
        """A uniform float in [0, 1): one draw over 2**32."""
        return self.next() / 4294967296.0
