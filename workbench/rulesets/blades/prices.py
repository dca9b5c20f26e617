"""Buy costs: the store's price of a face-down card, and the checks the document's market rules imply.

The document prices the two markets differently: "Pay Millennium Dollars equal to the buy cost (the number in its
top right) of any face-down card you want" in the store, and "take Millennium Dollars equal to that card's Star
Rating" when selling to (and paying it when buying from) the aftermarket. A face-down store card shows only its
back, so its buy cost belongs to its set ("Fulton decides to buy a 5-cost Clockwork Empire card"); the document
gives no formula from stars to buy cost. What follows from the rules is checked:

- `blades.buy_cost_set`: every card of a set has the same buy cost (a face-down card shows only its set), or none
  has one. A sheet without buy costs is a tournament-only sheet: the full-game simulation sells such a store card
  at its star rating and says so (`blades.market_prices`, info).
- `blades.buy_cost_below_resale`: a store set's average star rating (over its copies) is above its buy cost, so
  buying its cards blind and selling them to the aftermarket at their star rating earns money on average.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from workbench.cards import CardSet, Finding
from workbench.rulesets.blades.cards import BladesCard, card_of

if TYPE_CHECKING:
    from workbench.rulesets.blades.costs import CardSetGroup

STORE_SET_KINDS = frozenset({"core", "expansion", "premium", "master"})
"""Set kinds shuffled into the store ("Take the Core set, five Expansion Sets, four Premium Sets, and three Master
Sets ... Shuffle all thirteen of these together to form the Store")."""


def store_price(card: BladesCard) -> int:
    """What the store charges for the card: its buy cost, or its star rating when it has none (a promo or starter
    card that came back into the store through the store discard: "Any promo cards that come up in the store can
    be bought for cash")."""
    return card.buy_cost if card.buy_cost is not None else card.stars


def average_stars(cards: Iterable[BladesCard]) -> float:
    """The star rating of a random physical card of these cards (each weighted by its copies)."""
    total = 0
    count = 0
    for card in cards:
        total += card.stars * card.copies
        count += card.copies
    return total / count if count else 0.0


def check_buy_costs(cardset: CardSet, group: CardSetGroup) -> list[Finding]:
    """The buy-cost findings of one set (see the module docstring)."""
    findings: list[Finding] = []
    priced = [e for e in group.entries if card_of(e).buy_cost is not None]
    if priced:
        first = card_of(priced[0]).buy_cost
        for entry in priced[1:]:
            cost = card_of(entry).buy_cost
            if cost != first:
                findings.append(
                    cardset.finding(
                        "warning",
                        "blades.buy_cost_set",
                        f"set '{group.name}' costs {first} on row {priced[0].row} but {cost} here; a face-down "
                        "store card shows only its set, so a set has one buy cost.",
                        entry,
                        "buy_cost",
                        expected=first,
                        actual=cost,
                    )
                )
    if priced:
        for entry in group.entries:
            if card_of(entry).buy_cost is None:
                findings.append(
                    cardset.finding(
                        "warning",
                        "blades.buy_cost_set",
                        f"set '{group.name}' costs {first} on row {priced[0].row} but this card has no buy cost; a "
                        "face-down store card shows only its set, so a set has one buy cost.",
                        entry,
                        "buy_cost",
                        expected=first,
                        actual=None,
                    )
                )
    if group.kind not in STORE_SET_KINDS:
        return findings
    if priced and len(priced) == len(group.entries):
        cost = card_of(priced[0]).buy_cost
        mean = average_stars(card_of(e) for e in group.entries)
        if cost is not None and mean > cost:
            findings.append(
                cardset.finding(
                    "warning",
                    "blades.buy_cost_below_resale",
                    f"a card of set '{group.name}' sells to the aftermarket for {mean:.2f} dollars on average (its "
                    f"star rating) but costs {cost} in the store: buying blind and selling earns money.",
                    group.first,
                    "buy_cost",
                    expected=f"at least {mean:.2f}",
                    actual=cost,
                )
            )
    return findings
