"""The compiled appraisal (`appraisal_kernels.appraise_binder`, behind `market_policy.Appraisal`) gives exactly what
greedy's Python appraisal gave: the same deck, collection, spare cards and kept cards, and the same worth of every
card and every set, float for float, over random binders in both game modes, with the aftermarket open and closed,
under three revealed metagames. `PlainAppraisal` below is that Python appraisal as it stood before it was compiled
(commit 8d979e2), the reference the kernel is held to."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from workbench.loading import load_cardset
from workbench.paths import bundled_sets
from workbench.rulesets.blades import RULESET as BLADES
from workbench.rulesets.blades import market as M
from workbench.rulesets.blades.market_policy import (
    DECK_DOLLARS,
    DECK_LIMITS,
    Appraisal,
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


class PlainAppraisal:
    """Greedy's appraisal in plain Python, as `market_policy.Appraisal` was before it was compiled."""

    def __init__(self, state: M.MarketState, p: int, metagame: tuple[int, ...]) -> None:
        cards = state.cards
        known = facts(cards)
        binder = state.seats[p].binder
        self.valuation = valuation(cards, metagame)
        self.deck = list(self.valuation.best_deck(binder))
        scope = self.valuation.context(self.deck)
        self.weakest: dict[int, float] = {}
        for kind, limit in DECK_LIMITS.items():
            values = [self.valuation.value(c, scope) for c in self.deck if known.kind[c] == kind]
            self.weakest[kind] = min(values) if len(values) >= limit else 0.0
        self.scope = scope
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
        self.known = known
        self.cards = cards

    def deck_gain(self, card: int) -> float:
        if card in self.owned:
            return 0.0
        return max(0.0, self.valuation.value(card, self.scope) - self.weakest[self.known.kind[card]])

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
