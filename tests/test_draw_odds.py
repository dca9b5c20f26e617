"""Exact hypergeometric draw odds, checked against hand-computed and published figures."""

from __future__ import annotations

import itertools
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


def _brute_force_at_least(deck: int, copies: int, seen: int, wanted: int) -> Fraction:
    """Every hand of `seen` cards counted one by one (copies are cards 0..copies-1)."""
    hands = list(itertools.combinations(range(deck), min(seen, deck)))
    hits = sum(1 for hand in hands if sum(card < copies for card in hand) >= wanted)
    return Fraction(hits, len(hands))


def test_every_valid_input_of_small_decks_matches_a_brute_force_count() -> None:
    for deck in range(0, 9):
        for copies in range(0, deck + 1):
            for seen in range(0, deck + 2):
                for wanted in range(0, 6):
                    assert probability_at_least(deck, copies, seen, wanted) == _brute_force_at_least(
                        deck, copies, seen, wanted
                    ), (deck, copies, seen, wanted)


def test_a_forty_card_deck_has_odds_for_every_count_seen_and_wanted() -> None:
    # The grid the Decks page offers: 0-10 copies, 0-8 seen, 0-8 wanted; none of it is an error.
    for copies in range(0, 11):
        for wanted in range(0, 9):
            odds = [probability_at_least(40, copies, seen, wanted) for seen in range(0, 9)]
            assert all(0 <= p <= 1 for p in odds)
            assert odds == sorted(odds), (copies, wanted)  # seeing more cards never lowers the odds
            if wanted > copies:
                assert odds == [0] * 9
    assert probability_at_least(40, 10, 5, 8) == 0
