"""Greedy's remembered arithmetic (`market_policy.Valuation`, the shared appraisals) gives exactly the values of the
plain definitions, so the whole game's speed-up changes no decision."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from workbench.loading import load_cardset
from workbench.paths import bundled_sets
from workbench.rulesets.blades import RULESET as BLADES
from workbench.rulesets.blades import market as M
from workbench.rulesets.blades.market_policy import (
    DECK_LIMITS,
    Appraisal,
    _deck_context,
    appraise,
    card_value,
    valuation,
)
from workbench.rulesets.blades.market_rng import MarketRng

SAMPLE = load_cardset(bundled_sets("blades")[0], BLADES)
CARDS = M.compile_market(SAMPLE, BLADES.resolve_options({"game": "full"}))


def plain_best_deck(cards: M.MarketCards, owned: Sequence[int], metagame: Sequence[int] = ()) -> list[int]:
    """The best deck as first written: values against every owned card, then against the deck (no memo)."""
    distinct = list(dict.fromkeys(owned))
    context: list[int] = distinct
    deck: list[int] = []
    for _ in range(2):
        bits, stars = _deck_context(cards, context)
        ranked = sorted(distinct, key=lambda c: (-card_value(cards, c, bits, stars, metagame), c))
        deck = []
        for kind, limit in DECK_LIMITS.items():
            deck.extend([c for c in ranked if cards.kind[c] == kind][:limit])
        context = deck
    return deck


def random_binders(count: int, seed: int) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    ids = np.arange(len(CARDS.cards))
    return [[int(c) for c in rng.choice(ids, size=int(rng.integers(4, 30)))] for _ in range(count)]


def name_ids(*names: str) -> tuple[int, ...]:
    return tuple(CARDS.compiled.names.index(name) for name in names)


# The revealed metagame cards a valuation is made for: none, the Elemental card alone (before the first timer
# ends), both.
METAGAMES = [(), name_ids("Fire Ascendant"), name_ids("Water Ascendant", "Mage Season")]


@pytest.mark.parametrize("metagame", METAGAMES)
def test_valuation_values_are_card_value_bit_for_bit(metagame: tuple[int, ...]) -> None:
    memo = valuation(CARDS, metagame)
    assert memo is valuation(CARDS, metagame)
    for deck in random_binders(40, 1):
        bits, stars = _deck_context(CARDS, deck)
        scope = memo.context(deck)
        for card in range(len(CARDS.cards)):
            # Equal floats, not close ones: a last-bit difference could flip a ranking or a ratio.
            assert memo.value(card, scope) == card_value(CARDS, card, bits, stars, metagame)


@pytest.mark.parametrize("metagame", METAGAMES)
def test_remembered_best_deck_is_the_plain_one_whatever_the_binder_order(metagame: tuple[int, ...]) -> None:
    memo = valuation(CARDS, metagame)
    for binder in random_binders(60, 2):
        expected = plain_best_deck(CARDS, binder, metagame)
        assert list(memo.best_deck(binder)) == expected
        assert list(memo.best_deck(list(reversed(binder)))) == expected


def test_a_shared_appraisal_is_a_fresh_one() -> None:
    state = M.new_game(CARDS, MarketRng(3), [0] * 4)
    M.deal(state, 6)
    for p in range(4):
        shared, fresh = appraise(state, p), Appraisal(state, p)
        assert shared is appraise(state, p)
        assert (shared.deck, shared.collection, shared.spare, shared.kept) == (
            fresh.deck,
            fresh.collection,
            fresh.spare,
            fresh.kept,
        )
        # Every card a seat can be offered (metagame cards never are: they are not deck cards).
        for card in (c for c in range(len(CARDS.cards)) if int(CARDS.kind[c]) in DECK_LIMITS):
            assert shared.worth(card) == fresh.worth(card)
    # A changed binder or segment is a new appraisal.
    before = appraise(state, 0)
    state.seats[0].binder.append(state.seats[1].binder[0])
    assert appraise(state, 0) is not before
    state.segment = M.LAST_CALL
    assert appraise(state, 0).can_resell is False
    # So is a newly revealed metagame card ("reveal the top card of the Type Meta stack").
    before = appraise(state, 0)
    M.reveal_metagame(state, M.META_TYPE)
    assert M.revealed_metagame(state) and appraise(state, 0) is not before
    assert appraise(state, 0).metagame == M.revealed_metagame(state)
