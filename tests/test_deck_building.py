"""Decks built from picks go through the ordinary decklist parser; cost curves use the ruleset's cost axis."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from workbench.cards import CardSet, Deck
from workbench.deck_building import Pick, copies_at_cost, cost_curve, costs_by_card, deck_table, decklist_text
from workbench.rulesets import get_ruleset
from workbench.rulesets.base import BudgetPoint, StatBudget

ROWS = [
    {"name": "Ember Imp", "kind": "monster", "soul_cost": 0, "atk": 3, "def": 2},
    {"name": "Marsh Lurker", "kind": "monster", "soul_cost": 1, "atk": 4, "def": 5},
    {"name": "Stone Warden", "kind": "monster", "soul_cost": 2, "atk": 5, "def": 9},
    {"name": "Healing Rain", "kind": "magic", "soul_cost": 0},
]


@pytest.fixture
def cards(make_cardset: Callable[..., CardSet]) -> CardSet:
    return make_cardset(get_ruleset("souls"), ROWS)


@pytest.mark.parametrize(
    ("picks", "sections", "text"),
    [
        ([Pick("Ember Imp", 3), Pick("Marsh Lurker", 2)], ("main",), "3 Ember Imp\n2 Marsh Lurker\n"),
        ([Pick("A", 1, "tokens"), Pick("B", 2)], ("main", "tokens"), "2 B\nTokens:\n1 A\n"),
        ([Pick("A", 0), Pick("", 3)], ("main",), ""),
        ([Pick("A", 1, "collection")], ("main", "collection"), "Collection:\n1 A\n"),
    ],
)
def test_decklist_text(picks: list[Pick], sections: tuple[str, ...], text: str) -> None:
    assert decklist_text(picks, sections) == text


def test_a_built_deck_parses_like_a_pasted_one(cards: CardSet, make_deck: Callable[..., Deck]) -> None:
    deck = make_deck(cards, decklist_text([Pick("Ember Imp", 3), Pick("Stone Warden", 1)]))
    assert deck.size() == 4 and not deck.load_findings


def test_cost_curve_counts_copies_per_cost_and_leaves_uncosted_cards_out(
    cards: CardSet, make_deck: Callable[..., Deck]
) -> None:
    deck = make_deck(cards, "3 Ember Imp\n2 Marsh Lurker\n1 Stone Warden\n4 Healing Rain")
    souls = get_ruleset("souls")
    assert souls.stat_budget is not None
    budget = souls.stat_budget(cards, souls.resolve_options())
    costs = costs_by_card(budget)
    assert "Healing Rain" not in costs  # magic has no place on the souls budget chart by default
    curve = cost_curve(deck, costs)
    assert curve[["cost", "copies"]].values.tolist() == [[0.0, 3], [1.0, 2], [2.0, 1]]
    assert copies_at_cost(deck, costs, 0.0) == 3
    table = deck_table(deck, costs)
    assert table.loc[table["card"] == "Healing Rain", "cost"].isna().all()
    assert table["line"].tolist() == [1, 2, 3, 4]


def test_costs_by_card_without_a_budget() -> None:
    assert costs_by_card(None) == {}
    budget = StatBudget("c", "b", (BudgetPoint("X", 2, "k", 3.0, 5.0, None),), (), "line")
    assert costs_by_card(budget) == {"X": 3.0}


def test_cost_curve_of_a_deck_without_costed_cards_is_empty(cards: CardSet, make_deck: Callable[..., Deck]) -> None:
    deck = make_deck(cards, "4 Healing Rain")
    assert cost_curve(deck, {}).empty
