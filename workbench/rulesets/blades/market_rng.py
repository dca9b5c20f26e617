"""The whole game's generator: the engines' xorshift128, seeded by their `rng_seed` and stepped by their `rng_next`,
so the market's draws are ones a compiled market can make in the same order (issue 33: the compiled whole game must
give games identical to this reference).

Every draw the market makes is one of the methods below, each defined by the engines' own primitives: `below(n)`
is `rng_below`, `permutation(n)` is `shuffle_in_place` over 0..n-1, `sample(n, k)` is a partial Fisher-Yates from
the front, `seed()` is two draws made one 62-bit seed (for the tournament engine's and a search's own generators),
`unit()` one draw over 2**32. A game's generator is seeded from its `SeedSequence` child (`from_sequence`), so game k
of a run still depends on the run's seed and k alone.

The draws are worked out BLOCK at a time by one compiled call (`draws_ahead`) and handed out from a Python list: a
NumPy `Generator` call costs microseconds of its own and a compiled call from Python more than one draw, while a list
read costs tens of nanoseconds, and skipping draws (a random seat skips a possible fusion's sample at every turn)
only moves the place in the list.
"""

from __future__ import annotations

import numpy as np

from workbench.engines import IntArray, rng_next, rng_seed, rules_kernel

SEED_BITS = 62
"""A seed handed to the tournament engine or a search: below 2**62, as `numpy`'s integers(0, 2**62) gave before."""
BLOCK = 256
"""Draws worked out at a time."""
FIRST_BLOCK = 32
"""Draws worked out at a time first, when a generator starts or resumes (`resume`): a compiled segment resumes it
once a round, and the few draws before the next one (a tournament's seed, a tie's break, prize support) cost less
than the full block's list (about 7.5 us)."""


@rules_kernel
def draws_ahead(words: IntArray, out: IntArray) -> None:
    """Fill `out` with the next draws of the xorshift128 state `words` (`rng_next` after `rng_next`), leaving `words`
    at the state after the last."""
    for i in range(out.shape[0]):
        out[i] = rng_next(words)


class MarketRng:
    """A xorshift128 generator: the engines' `rng_*` kernels, draw for draw.

    Its draws are made BLOCK at a time by one compiled call (`draws_ahead`) and handed out from a list: a draw is
    then a list read, and `skip` moves the place in the list without making the skipped draws one by one (a random
    seat skips a possible fusion's sample at every turn). Which draws come, and in which order, is the generator's
    alone: the block only says when they are worked out."""

    __slots__ = ("_after", "_drawn", "_at", "_before")

    def __init__(self, seed: int) -> None:
        # Seeded by the engines' own `rng_seed` (once a game, so its call costs nothing worth counting).
        words = np.zeros(4, dtype=np.int64)
        rng_seed(words, np.int64(int(seed) & 0x7FFFFFFFFFFFFFFF))
        self._before: tuple[int, int, int, int] = (int(words[0]), int(words[1]), int(words[2]), int(words[3]))
        """The state before the block's first draw."""
        self._after = words
        """The state after the block's last draw (shared with a copy: a block is made from a copy of it)."""
        self._drawn: list[int] = []
        """The block's draws."""
        self._at = 0
        """How many of them are spent."""

    def _next_block(self) -> None:
        """Work out the next block of draws (BLOCK, FIRST_BLOCK the first), once every draw of the block is spent (a
        copy may still hold the old one)."""
        words = self._after.copy()
        # The first block after a start or a resume is short (FIRST_BLOCK); the rest are full.
        out = np.empty(BLOCK if self._drawn else FIRST_BLOCK, dtype=np.int64)
        draws_ahead(words, out)
        self._before = self.words()
        self._after = words
        self._drawn = out.tolist()
        self._at = 0

    def words(self) -> tuple[int, int, int, int]:
        """The four xorshift words as the engines' `rng_next` would hold them now: each draw is the next first word,
        the others shift down one."""
        at, drawn = self._at, self._drawn
        recent = list(self._before[::-1]) + drawn[:at] if at < 4 else drawn[at - 4 : at]
        return (recent[-1], recent[-2], recent[-3], recent[-4])

    @classmethod
    def from_sequence(cls, sequence: np.random.SeedSequence) -> MarketRng:
        """A game's generator from its `SeedSequence` child (the first 63 bits of its first 64-bit state word)."""
        return cls(int(sequence.generate_state(1, np.uint64)[0]) >> 1)

    def next(self) -> int:
        """The next 32-bit value (`rng_next`); `tests/rulesets/blades/test_blades_market_rng.py` holds the two to the
        same values."""
        at = self._at
        if at == len(self._drawn):
            self._next_block()
            at = 0
        self._at = at + 1
        return self._drawn[at]

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
        below = self.below
        for i in range(n - 1, 0, -1):
            j = below(i + 1)
            values[i], values[j] = values[j], values[i]
        return values

    def sample(self, n: int, k: int) -> list[int]:
        """k distinct integers of 0..n-1 (k <= n), in the order drawn: Fisher-Yates from the front, stopped after
        k, position i swapped with `i + below(n - i)`."""
        values = list(range(n))
        below = self.below
        for i in range(k):
            j = i + below(n - i)
            values[i], values[j] = values[j], values[i]
        return values[:k]

    def copy(self) -> MarketRng:
        """A generator in this one's state: its draws are the ones this one makes next (the block is shared, never
        changed)."""
        twin = MarketRng.__new__(MarketRng)
        twin._before, twin._after, twin._drawn, twin._at = self._before, self._after, self._drawn, self._at
        return twin

    def resume(self, words: IntArray) -> None:
        """Go on from the xorshift words `words` (`words()`'s order), as a compiled kernel left them after drawing
        from this generator's state: the next draw is the one `rng_next` makes from them."""
        self._before = (int(words[0]), int(words[1]), int(words[2]), int(words[3]))
        self._after = np.array(self._before, dtype=np.int64)
        self._drawn = []
        self._at = 0

    def skip(self, draws: int) -> None:
        """Make `draws` draws and drop them. A `below` is one `next`, so `sample(n, k)` leaves the state `skip(k)`
        leaves, and a `copy` made before the skip can make the sample itself when it is wanted after all."""
        left = len(self._drawn) - self._at
        while draws > left:
            draws -= left
            self._at = len(self._drawn)
            self._next_block()
            left = len(self._drawn)
        self._at += draws

    def seed(self) -> int:
        """A fresh 62-bit seed from two draws (high word first), for a generator of its own."""
        return ((self.next() << 32) | self.next()) & ((1 << SEED_BITS) - 1)

    def unit(self) -> float:
        """A uniform float in [0, 1): one draw over 2**32."""
        return self.next() / 4294967296.0
