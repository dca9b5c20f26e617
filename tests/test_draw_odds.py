"""Exact hypergeometric draw odds, checked against hand-computed and published figures."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from workbench.cards import WorkbenchInputError
from workbench.draw_odds import cards_seen_by_turn, odds_by_turn, probability_at_least


@pytest.mark.parametrize(
    ("deck", "copies", "seen", "wanted", "expected"),
    [
        # The classic figure: a 60-card deck with 4 copies, 7-card opening hand: 39.95%.
        (60, 4, 7, 1, 1 - Fraction(comb(56, 7), comb(60, 7))),
        (40, 3, 7, 1, 1 - Fraction(comb(37, 7), comb(40, 7))),
        (30, 1, 5, 1, Fraction(5, 30)),  # one copy: seen / deck
        (30, 0, 10, 1, Fraction(0)),  # no copies, never
        (30, 30, 1, 1, Fraction(1)),  # every card counts
        (10, 4, 10, 4, Fraction(1)),  # whole deck seen
        (10, 2, 3, 2, Fraction(comb(2, 2) * comb(8, 1), comb(10, 3))),  # both copies in 3 cards
        (20, 5, 0, 1, Fraction(0)),  # nothing seen
        (20, 5, 50, 1, Fraction(1)),  # more seen than the deck holds: capped at the deck
        (20, 5, 6, 0, Fraction(1)),  # at least zero is certain
    ],
)
def test_probability_at_least_is_exact(deck: int, copies: int, seen: int, wanted: int, expected: Fraction) -> None:
    assert probability_at_least(deck, copies, seen, wanted) == expected


def test_the_published_sixty_card_figure() -> None:
    assert float(probability_at_least(60, 4, 7)) == pytest.approx(0.3995, abs=5e-5)


@pytest.mark.parametrize(("deck", "copies", "seen"), [(10, 11, 3), (-1, 0, 0), (10, -2, 3), (10, 2, -1)])
def test_impossible_counts_are_refused(deck: int, copies: int, seen: int) -> None:
    with pytest.raises(WorkbenchInputError):
        probability_at_least(deck, copies, seen)


@pytest.mark.parametrize(
    ("turn", "hand", "per_turn", "draw_first", "seen"),
    [(1, 5, 1, False, 5), (1, 5, 1, True, 6), (3, 5, 1, False, 7), (3, 7, 2, True, 13), (4, 0, 1, False, 3)],
)
def test_cards_seen_by_turn(turn: int, hand: int, per_turn: int, draw_first: bool, seen: int) -> None:
    assert cards_seen_by_turn(turn, hand, per_turn, draw_first) == seen


def test_turn_zero_is_refused() -> None:
    with pytest.raises(WorkbenchInputError):
        cards_seen_by_turn(0, 5, 1, True)


def test_odds_by_turn_rise_and_cap_at_the_deck() -> None:
    rows = odds_by_turn(deck_size=12, copies=2, turns=10, opening_hand=5, draws_per_turn=1, draw_on_first_turn=False)
    assert [row.turn for row in rows] == list(range(1, 11))
    assert [row.seen for row in rows] == [5, 6, 7, 8, 9, 10, 11, 12, 12, 12]
    probabilities = [row.probability for row in rows]
    assert probabilities == sorted(probabilities)
    assert probabilities[0] == 1 - Fraction(comb(10, 5), comb(12, 5))
    assert probabilities[-1] == 1
