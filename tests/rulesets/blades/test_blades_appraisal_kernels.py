"""Greedy's whole-game arithmetic, remembered and compiled (`market_policy.Valuation`, the shared appraisals,
`appraisal_kernels`), gives exactly what the plain definitions give, so the whole game's speed-ups change no
decision.

The compiled appraisal (`appraisal_kernels.appraise_binder`, behind `market_policy.Appraisal`) gives exactly what
greedy's Python appraisal gave: the same deck, collection, spare cards and kept cards, and the same worth of every
card and every set, float for float, over random binders in both game modes, with the aftermarket open and closed,
under three revealed metagames. `PlainAppraisal` below is that Python appraisal as it stood before it was compiled
(commit 8d979e2), with its deck and values from the plain definitions (`plain_best_deck`, `card_value`, no memo and
no kernel): the reference the kernel is held to."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from workbench.loading import load_cardset
from workbench.paths import bundled_sets
from workbench.rulesets.blades import RULESET as BLADES
from workbench.rulesets.blades import appraisal_kernels as AK
from workbench.rulesets.blades import market as M
from workbench.rulesets.blades.market import MarketCards
from workbench.rulesets.blades.market_policy import (
    CONSTANT,
    DECK_DOLLARS,
    DECK_LIMITS,
    PER_STARS_AT_LEAST_COUNT,
    PER_SYMBOL_COUNT,
    PLAYED_SHARE,
    Appraisal,
    appraisal_tables,
    appraise,
    appraised,
    best_collection,
    best_duel_collections,
    collection_groups,
    facts,
    set_distribution,
    valuation,
)
from workbench.rulesets.blades.market_rng import MarketRng

SAMPLE = load_cardset(bundled_sets("blades")[0], BLADES)
CARDS = M.compile_market(SAMPLE, BLADES.resolve_options({"game": "full"}))
DECK_CARDS = [c for c in range(len(CARDS.cards)) if int(CARDS.kind[c]) in DECK_LIMITS]
"""The cards a binder can hold and a seat can be offered (metagame cards are neither)."""


def name_ids(*names: str) -> tuple[int, ...]:
    return tuple(CARDS.compiled.names.index(name) for name in names)


METAGAMES = [(), name_ids("Fire Ascendant"), name_ids("Water Ascendant", "Mage Season")]


def plain_without(pool: Sequence[int], taken: Sequence[int]) -> list[int]:
    """`pool` less one copy of each card of `taken`, as `list.remove` takes them."""
    kept = list(pool)
    for c in taken:
        kept.remove(c)
    return kept


def deck_context(cards: MarketCards, deck: Sequence[int]) -> tuple[list[int], list[int]]:
    """Symbol bits and star ratings of the deck's singles: what `per symbol` and `per stars` conditions count."""
    known = facts(cards)
    singles = [c for c in deck if known.single[c]]
    return [known.bits[c] for c in singles], [known.stars[c] for c in singles]


def card_value(
    cards: MarketCards, card: int, bits: Sequence[int], stars: Sequence[int], metagame: Sequence[int] = ()
) -> float:
    """Estimated RP a card brings to a deck whose singles have these symbol bits and star ratings, under the
    revealed `metagame` cards: the card's `Valuation` terms, counted afresh against this deck (the plain definition,
    as greedy's value was first written)."""
    value, terms = valuation(cards, metagame).terms[card]
    for kind, arg, amount in terms:
        if kind == CONSTANT:
            value += amount
            continue
        if kind == PER_SYMBOL_COUNT:
            count = sum(1 for b in bits if b & arg)
        elif kind == PER_STARS_AT_LEAST_COUNT:
            count = sum(1 for s in stars if s >= arg)
        else:
            count = sum(1 for s in stars if s <= arg)
        value += amount * (PLAYED_SHARE * count)
    return value


def plain_best_deck(cards: M.MarketCards, owned: Sequence[int], metagame: Sequence[int] = ()) -> list[int]:
    """The best deck as first written: values against every owned card, then against the deck (no memo)."""
    distinct = list(dict.fromkeys(owned))
    context: list[int] = distinct
    deck: list[int] = []
    for _ in range(2):
        bits, stars = deck_context(cards, context)
        ranked = sorted(distinct, key=lambda c: (-card_value(cards, c, bits, stars, metagame), c))
        deck = []
        for kind, limit in DECK_LIMITS.items():
            deck.extend([c for c in ranked if cards.kind[c] == kind][:limit])
        context = deck
    return deck


class PlainAppraisal:
    """Greedy's appraisal in plain Python, as `market_policy.Appraisal` was before it was compiled."""

    def __init__(self, state: M.MarketState, p: int, metagame: tuple[int, ...]) -> None:
        cards = self.cards = state.cards
        known = self.known = facts(cards)
        binder = state.seats[p].binder
        self.metagame = metagame
        self.deck = plain_best_deck(cards, binder, metagame)
        self.context = deck_context(cards, self.deck)
        self.weakest: dict[int, float] = {}
        for kind, limit in DECK_LIMITS.items():
            values = [self.value(c) for c in self.deck if known.kind[c] == kind]
            self.weakest[kind] = min(values) if len(values) >= limit else 0.0
        rest = plain_without(binder, self.deck)
        self.duel = state.duel
        self.groups = collection_groups(cards, rest)
        if state.duel:
            elemental, typed = best_duel_collections(cards, rest, self.groups)
            self.collection = elemental + typed
            self.duel_sizes = {M.DUEL_KINDS[0]: len(elemental), M.DUEL_KINDS[1]: len(typed)}
        else:
            self.collection = best_collection(cards, rest, groups=self.groups)
        best = M.collection_vp(len(self.collection)) if len(self.collection) >= 2 else 0
        self.gains = [M.collection_vp(size) - best for size in range(cards.collection_max + 1)]
        self.owned = set(binder)
        self.can_resell = state.segment < M.LAST_CALL
        self.spare = plain_without(rest, self.collection)
        self.kept = set(self.deck) | set(self.collection)

    def value(self, card: int) -> float:
        """The card's deck value against the deck (`card_value`, no memo)."""
        bits, stars = self.context
        return card_value(self.cards, card, bits, stars, self.metagame)

    def deck_gain(self, card: int) -> float:
        if card in self.owned:
            return 0.0
        return max(0.0, self.value(card) - self.weakest[self.known.kind[card]])

    def collection_gain(self, card: int) -> int:
        stars = self.known.stars[card]
        gain = 0
        for symbol in self.known.symbols[card]:
            group = self.groups.get(symbol)
            if self.duel:
                size = min(len(group or {}) + (0 if group and stars in group else 1), self.cards.collection_max)
                now = self.duel_sizes[symbol[0]]
                if size >= 2 and size > now:
                    gain = max(gain, M.DUEL_RP_PER_CARD * (size - now))
            elif group is not None:
                size = min(len(group) + (0 if stars in group else 1), self.cards.collection_max)
                if size >= 2 and self.gains[size] > gain:
                    gain = self.gains[size]
        return gain

    def use_worth(self, card: int) -> float:
        rate = DECK_DOLLARS if self.duel else float(M.MONEY_PER_VP)
        return max(DECK_DOLLARS * self.deck_gain(card), rate * self.collection_gain(card))

    def worth(self, card: int) -> float:
        resale = float(self.known.stars[card]) if self.can_resell else 0.0
        return max(self.use_worth(card), resale)

    def set_worth(self, set_index: int) -> float:
        return sum([p * self.worth(c) for c, p in set_distribution(self.cards, set_index)])


def states(duel: bool, count: int, seed: int) -> list[M.MarketState]:
    """Market states of one seat each holding a random binder (repeats and all: a binder holds copies), at a random
    segment."""
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(count):
        state = M.new_game(CARDS, MarketRng(seed), [0, 0] if duel else [0] * 4)
        state.duel = duel
        state.segment = int(rng.integers(0, 3))
        state.seats[0].binder = [int(c) for c in rng.choice(DECK_CARDS, size=int(rng.integers(0, 34)))]
        found.append(state)
    return found


@pytest.mark.parametrize("metagame", METAGAMES)
@pytest.mark.parametrize("duel", [False, True])
def test_the_compiled_appraisal_is_the_python_one_float_for_float(metagame: tuple[int, ...], duel: bool) -> None:
    offered_sets = {int(CARDS.set_of[c]) for c in CARDS.store_cards}
    checked = {"collections": 0, "deck gains": 0, "collection gains": 0, "resale wins": 0}
    for state in states(duel, 150, 7 + len(metagame) + 10 * duel):
        compiled, plain = Appraisal(state, 0, metagame), PlainAppraisal(state, 0, metagame)
        assert (compiled.deck, compiled.collection, compiled.spare) == (plain.deck, plain.collection, plain.spare)
        assert (compiled.kept, compiled.owned, compiled.can_resell) == (plain.kept, plain.owned, plain.can_resell)
        for card in DECK_CARDS:
            # Equal floats, not close ones: a last-bit difference could flip a ranking or a ratio.
            assert compiled.deck_gain(card) == plain.deck_gain(card), card
            assert compiled.collection_gain(card) == plain.collection_gain(card), card
            assert compiled.use_worth(card) == plain.use_worth(card), card
            assert compiled.worth(card) == plain.worth(card), card
            checked["deck gains"] += plain.deck_gain(card) > 0
            checked["collection gains"] += plain.collection_gain(card) > 0
            checked["resale wins"] += plain.worth(card) > plain.use_worth(card)
        for set_index in offered_sets:
            assert compiled.set_worths[set_index] == plain.set_worth(set_index), set_index
        checked["collections"] += len(plain.collection) > 0
    # The comparison met every branch: collections made, cards that would join the deck or a collection, resale.
    assert min(checked.values()) > 10, checked


def test_a_binder_of_no_cards_has_no_deck_and_no_collection() -> None:
    state = states(False, 1, 3)[0]
    state.seats[0].binder = []
    appraisal = Appraisal(state, 0, ())
    assert (appraisal.deck, appraisal.collection, appraisal.spare, appraisal.kept) == ([], [], [], set())
    assert all(appraisal.deck_gain(c) == PlainAppraisal(state, 0, ()).deck_gain(c) for c in DECK_CARDS)


def random_binders(count: int, seed: int) -> list[list[int]]:
    """Binders of any cards of the set, metagame cards too (no deck holds those, which the deck must show)."""
    rng = np.random.default_rng(seed)
    ids = np.arange(len(CARDS.cards))
    return [[int(c) for c in rng.choice(ids, size=int(rng.integers(4, 30)))] for _ in range(count)]


@pytest.mark.parametrize("metagame", METAGAMES)
def test_remembered_best_deck_is_the_plain_one_whatever_the_binder_order(metagame: tuple[int, ...]) -> None:
    memo = valuation(CARDS, metagame)
    for binder in random_binders(60, 2):
        expected = plain_best_deck(CARDS, binder, metagame)
        assert list(memo.best_deck(binder)) == expected
        assert list(memo.best_deck(list(reversed(binder)))) == expected


@pytest.mark.parametrize("metagame", METAGAMES)
def test_valuation_values_are_card_value_bit_for_bit(metagame: tuple[int, ...]) -> None:
    # The compiled appraisal's value of a card (`appraisal_kernels.card_value`, reading the Valuation's arrays)
    # against a deck is the plain definition's.
    memo = valuation(CARDS, metagame)
    assert memo is valuation(CARDS, metagame)
    tables = appraisal_tables(CARDS)
    for deck in random_binders(40, 1):
        bits, stars = deck_context(CARDS, deck)
        singles = np.array([c for c in deck if facts(CARDS).single[c]], dtype=np.int64)
        for card in range(len(CARDS.cards)):
            compiled = AK.card_value(
                tables.facts, memo.value_ints, memo.value_floats, PLAYED_SHARE, card, singles, len(singles)
            )
            # Equal floats, not close ones: a last-bit difference could flip a ranking or a ratio.
            assert compiled == card_value(CARDS, card, bits, stars, metagame)


def test_a_shared_appraisal_is_a_fresh_one() -> None:
    # Appraisals kept from other tests' games set aside: this one's are then never cleared for room.
    CARDS.memo.pop("appraisals", None)
    CARDS.memo.pop("last_appraisals", None)
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
    # A changed binder or segment is a new appraisal, the binder changed in place too (a seat's last appraisal is
    # asked first, and kept only while all it was made under is equal); put back, the binder is its old appraisal.
    before = appraise(state, 0)
    state.seats[0].binder.append(state.seats[1].binder[0])
    assert appraised(state, 0) is None
    assert appraise(state, 0) is not before
    assert appraised(state, 0) is appraise(state, 0)
    state.seats[0].binder.pop()
    assert appraised(state, 0) is before and appraise(state, 0) is before
    state.seats[0].binder.append(state.seats[1].binder[0])
    state.segment = M.LAST_CALL
    assert appraise(state, 0).can_resell is False
    # So is a newly revealed metagame card ("reveal the top card of the Type Meta stack").
    before = appraise(state, 0)
    M.reveal_metagame(state, M.META_TYPE)
    assert M.revealed_metagame(state) and appraise(state, 0) is not before
    assert appraise(state, 0).metagame == M.revealed_metagame(state)
