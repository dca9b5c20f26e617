"""A card as its ruleset's model, for tests that read a field only that model has (`atk`, `cost`, `requirement` ...).

`CardEntry.card` is typed as `CardBase`, the fields every game's cards share (`name`, `text`, `kind`). A test that
reads another field names the model it expects; the check fails, naming the card, when the card is another model.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from workbench.cards import CardEntry
from workbench.rulesets.base import CardBase

Card = TypeVar("Card", bound=CardBase)


def card_as(entry: CardEntry | None, model: type[Card]) -> Card:
    """The entry's card, checked to be a `model` (an entry of None, as `CardSet.find` gives for no card, fails)."""
    assert entry is not None, f"no card where a {model.__name__} was expected"
    card = entry.card
    assert isinstance(card, model), f"{card.name!r} is a {type(card).__name__}, not a {model.__name__}"
    return card


def cards_as(entries: Iterable[CardEntry], model: type[Card]) -> list[Card]:
    """Every entry's card, each checked to be a `model`."""
    return [card_as(entry, model) for entry in entries]
