"""Exact clash odds (workbench/rulesets/blades/clash.py), checked by hand-counted stores and the document's example."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import pytest
from typed_cards import cards_as

from workbench.cards import WorkbenchInputError
from workbench.loading import load_cardset
from workbench.paths import bundled_sets
from workbench.rulesets.blades import RULESET
from workbench.rulesets.blades.cards import BladesCard
from workbench.rulesets.blades.clash import (
    ClashOdds,
    clash_odds,
    clash_odds_table,
    store_star_counts,
    win_chance_rows,
)

SAMPLE = load_cardset(bundled_sets("blades")[0], RULESET)


def test_the_documents_example() -> None:
    # Deques' Top card 10 against Cardine's 8; the store holds a 3 and a 6. 10 + 3 = 13 loses to 8 + 6 = 14, the
    # other order (10 + 6 against 8 + 3) wins: exactly one half each.
    assert clash_odds(10, 8, {3: 1, 6: 1}) == ClashOdds(Fraction(1, 2), Fraction(0), Fraction(1, 2))


@pytest.mark.parametrize(
    ("top", "other", "store", "win", "tie", "lose"),
    [
        # every store card the same: the totals keep the Top cards' order
        (5, 4, {3: 10}, 1, 0, 0),
        (4, 4, {3: 10}, 0, 1, 0),
        # store {1, 1, 2}: ordered pairs without replacement (1,1) x2, (1,2) x2, (2,1) x2 of 6
        (3, 3, {1: 2, 2: 1}, Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)),
        (4, 3, {1: 2, 2: 1}, Fraction(2, 3), Fraction(1, 3), Fraction(0)),  # a 1-star edge; ties only on (1,2)
        # five 1s and a 9: only revealing the 9 against a 1 (5 of 30 pairs) lifts a 1 over an 8 (10 against 9)
        (1, 8, {1: 5, 9: 1}, Fraction(1, 6), Fraction(0), Fraction(5, 6)),
    ],
)
def test_small_stores_against_brute_force(
    top: int, other: int, store: dict[int, int], win: object, tie: object, lose: object
) -> None:
    cards = [stars for stars, count in store.items() for _ in range(count)]
    pairs = list(permutations(range(len(cards)), 2))
    brute = {"win": 0, "tie": 0, "lose": 0}
    for i, j in pairs:
        a, b = top + cards[i], other + cards[j]
        brute["win" if a > b else "tie" if a == b else "lose"] += 1
    odds = clash_odds(top, other, store)
    assert odds == ClashOdds(*(Fraction(brute[k], len(pairs)) for k in ("win", "tie", "lose")))
    assert (odds.win, odds.tie, odds.lose) == (win, tie, lose)


def test_with_replacement_counts_every_ordered_pair() -> None:
    # {1, 2}: with replacement (1,1) (1,2) (2,1) (2,2); equal Top cards tie on (1,1) and (2,2)
    assert clash_odds(3, 3, {1: 1, 2: 1}, with_replacement=True) == ClashOdds(
        Fraction(1, 4), Fraction(1, 2), Fraction(1, 4)
    )
    # without replacement only (1,2) and (2,1) remain
    assert clash_odds(3, 3, {1: 1, 2: 1}) == ClashOdds(Fraction(1, 2), Fraction(0), Fraction(1, 2))


def test_table_is_complete_consistent_and_symmetric() -> None:
    store = store_star_counts(SAMPLE)
    table = clash_odds_table(store)
    assert len(table) == 100
    for (a, b), odds in table.items():
        assert odds.win + odds.tie + odds.lose == 1
        assert table[(b, a)].win == odds.lose  # a clash seen from the other side
        if a == b:
            assert odds.win == odds.lose
    for a in range(1, 10):
        for b in range(1, 11):
            assert table[(a + 1, b)].win >= table[(a, b)].win  # more stars never hurt


def test_the_bundled_store_is_built_like_the_engines() -> None:
    from workbench.rulesets.blades.engine import compile_cards

    store = store_star_counts(SAMPLE)
    assert store == {1: 11, 2: 21, 3: 24, 4: 12, 5: 10, 6: 6, 7: 1, 8: 1}
    compiled = compile_cards(SAMPLE, RULESET.resolve_options())
    stars = compiled.table[compiled.extra["store"], 1]
    assert {int(s): int((stars == s).sum()) for s in set(stars.tolist())} == store
    everything = store_star_counts(SAMPLE, "all")
    assert sum(everything.values()) == sum(card.copies for card in cards_as(SAMPLE, BladesCard))


def test_rows_for_pages() -> None:
    rows = win_chance_rows({3: 4}, ratings=[1, 2])
    assert rows == [
        {"top": 1, "other": 1, "win": 0.0, "tie": 1.0, "lose": 0.0},
        {"top": 1, "other": 2, "win": 0.0, "tie": 0.0, "lose": 1.0},
        {"top": 2, "other": 1, "win": 1.0, "tie": 0.0, "lose": 0.0},
        {"top": 2, "other": 2, "win": 0.0, "tie": 1.0, "lose": 0.0},
    ]


@pytest.mark.parametrize("store", [{3: 1}, {}, {3: -1, 4: 5}])
def test_bad_stores_are_clear_errors(store: dict[int, int]) -> None:
    with pytest.raises(WorkbenchInputError):
        clash_odds(3, 3, store)


def test_unknown_store_kinds_is_a_clear_error() -> None:
    with pytest.raises(WorkbenchInputError, match="store_kinds"):
        store_star_counts(SAMPLE, "everything")
