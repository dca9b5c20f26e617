"""Draw odds: the chance to hold a card by a given turn, exact (hypergeometric, in fractions).

A deck of `deck_size` cards holds `copies` cards that count (copies of one
card, or every card of one cost). Drawing `seen` cards without replacement,
the chance to hold at least `wanted` of them is the hypergeometric tail

    P(X >= k) = 1 - sum_{i < k} C(copies, i) C(deck_size - copies, seen - i) / C(deck_size, seen)

computed with whole numbers and `fractions.Fraction`, so the figures are
exact, not sampled. Cards seen by turn N are the opening hand plus the draws
of turns 1..N (the player going first often skips the draw of turn 1: that
is the `draw_on_first_turn` switch). Mulligans and search effects are not
modelled; the page says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from workbench.cards import WorkbenchInputError


def probability_at_least(deck_size: int, copies: int, seen: int, wanted: int = 1) -> Fraction:
    """Exact chance that `seen` cards drawn from `deck_size` include at least `wanted` of the `copies`."""
    if deck_size < 0 or copies < 0 or seen < 0 or wanted < 0:
        raise WorkbenchInputError("draw odds need counts of zero or more.", expected="whole numbers >= 0")
    if copies > deck_size:
        raise WorkbenchInputError(
            f"{copies} copies do not fit in a {deck_size}-card deck.", expected=f"at most {deck_size} copies"
        )
    seen = min(seen, deck_size)
    if wanted == 0:
        return Fraction(1)
    if wanted > min(copies, seen):
        # More hits than there are copies, or than cards seen: impossible, not an error.
        return Fraction(0)
    total = comb(deck_size, seen)
    # A hand of i copies also needs seen - i other cards; where the deck has too few, that hand cannot happen.
    below = sum(
        comb(copies, i) * comb(deck_size - copies, seen - i) for i in range(max(0, seen - (deck_size - copies)), wanted)
    )
    return 1 - Fraction(below, total)


def cards_seen_by_turn(turn: int, opening_hand: int, draws_per_turn: int, draw_on_first_turn: bool) -> int:
    """Cards a player has seen by the end of their draw on `turn` (turn 1 = their first turn)."""
    if turn < 1:
        raise WorkbenchInputError(f"turn {turn} is before the first turn.", expected="a turn of 1 or more")
    draws = turn if draw_on_first_turn else turn - 1
    return opening_hand + draws_per_turn * draws


@dataclass(frozen=True)
class DrawOdds:
    """The chance to hold what you want by one turn."""

    turn: int
    """The player's own turn number (1 = their first turn)."""
    seen: int
    """Cards seen by then (opening hand plus draws), at most the deck size."""
    probability: Fraction
    """Exact chance to hold at least `wanted` of the counted cards."""


def odds_by_turn(
    deck_size: int,
    copies: int,
    turns: int,
    opening_hand: int,
    draws_per_turn: int = 1,
    draw_on_first_turn: bool = False,
    wanted: int = 1,
) -> list[DrawOdds]:
    """The chance to hold at least `wanted` of the counted cards on each of turns 1..`turns`."""
    rows = []
    for turn in range(1, turns + 1):
        seen = min(deck_size, cards_seen_by_turn(turn, opening_hand, draws_per_turn, draw_on_first_turn))
        rows.append(DrawOdds(turn, seen, probability_at_least(deck_size, copies, seen, wanted)))
    return rows
