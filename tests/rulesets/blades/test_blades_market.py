"""The whole game of Millennium Blades (`market.py`): buy costs, the store, selling and the aftermarket, fusion,
friendship, three rounds and final scoring, each case built from the document's words (quoted)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from workbench.cards import CardSet, Finding
from workbench.rulesets.blades import RULESET as BLADES
from workbench.validate import validate

MakeCardSet = Callable[..., CardSet]


def card(name: str, stars: int, copies: int, set_name: str, set_kind: str, **extra: Any) -> dict[str, Any]:
    """One sheet row; every card shares Fire/Soldier so no symbol check fires."""
    row: dict[str, Any] = {
        "name": name,
        "kind": "single",
        "set": set_name,
        "set_kind": set_kind,
        "stars": stars,
        "elements": "Fire",
        "types": "Soldier",
        "rarity": "Rare",
        "copies": copies,
        "effects": "",
    }
    row.update(extra)
    return row


def findings_of(cardset: CardSet, rule: str) -> list[Finding]:
    return [f for f in validate(cardset).findings if f.rule == rule]


# --- buy cost: "Pay Millennium Dollars equal to the buy cost (the number in its top right) of any face-down card"


def test_a_set_has_one_buy_cost(make_cardset: MakeCardSet) -> None:
    # A face-down card shows only its set: "Fulton decides to buy a 5-cost Clockwork Empire card."
    rows = [
        card("High", 6, 1, "Clockwork", "premium", buy_cost=5),
        card("Mid", 4, 2, "Clockwork", "premium", buy_cost=5),
        card("Low", 2, 3, "Clockwork", "premium", buy_cost=4),
    ]
    found = findings_of(make_cardset(BLADES, rows), "blades.buy_cost_set")
    assert [(f.card, f.expected, f.actual, f.column) for f in found] == [("Low", 5, 4, "buy_cost")]


def test_a_set_priced_in_part_is_flagged_but_an_unpriced_sheet_is_not(make_cardset: MakeCardSet) -> None:
    rows = [
        card("High", 6, 1, "Alley", "expansion"),
        card("Low", 2, 3, "Alley", "expansion", buy_cost=3),
        card("Relic", 6, 1, "Relics", "promo"),
        card("Other", 6, 1, "Tide", "expansion"),
    ]
    found = findings_of(make_cardset(BLADES, rows), "blades.buy_cost_set")
    assert [(f.card, f.expected, f.actual) for f in found] == [("High", 3, None)]


@pytest.mark.parametrize(("buy_cost", "warned"), [(2, True), (3, False), (4, False)])
def test_buy_cost_below_aftermarket_resale(make_cardset: MakeCardSet, buy_cost: int, warned: bool) -> None:
    # Selling pays the star rating: "take Millennium Dollars equal to that card's Star Rating from the bank."
    # Copies 1 x 5 stars + 2 x 3 + 3 x 1 = 14 stars over 6 cards: 2.33 dollars on average.
    rows = [
        card("High", 5, 1, "Alley", "expansion", buy_cost=buy_cost),
        card("Mid", 3, 2, "Alley", "expansion", buy_cost=buy_cost),
        card("Low", 1, 3, "Alley", "expansion", buy_cost=buy_cost),
    ]
    found = findings_of(make_cardset(BLADES, rows), "blades.buy_cost_below_resale")
    assert bool(found) is warned
    if warned:
        assert found[0].expected == "at least 2.33" and found[0].actual == buy_cost
