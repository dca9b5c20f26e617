"""Card models for Millennium Blades: singles, deck boxes, accessories and metagame cards.

Every card, whatever its kind, comes from a set and carries a star rating (its
price on the aftermarket and its strength in a clash), elements and types (the
symbols collections are built from), a rarity, and how many copies of it its
set holds. Singles, deck boxes and accessories differ in where they sit in a
tournament deck, not in their columns. Metagame cards belong to no player: each
meta set is a stack on the Aftermarket Board, one card of each stack is revealed
per round, and every player scores its Score effects for themselves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, cast

from pydantic import BeforeValidator, Field

from workbench.rulesets.base import CardBase, CellList, CellText, empty_to_none, normalize_choice

if TYPE_CHECKING:
    from workbench.cards import CardEntry

SET_KINDS: tuple[str, ...] = ("starter", "core", "expansion", "premium", "master", "promo", "pro", "meta")
"""The set kinds of the document's Set Breakdown (promo covers bronze, silver and gold promo sets) and its
Components list's "2 Meta Card Sets": a meta set is one stack of metagame cards."""

_SET_KIND_SPELLINGS: dict[str, str] = {
    "bronze_promo": "promo",
    "silver_promo": "promo",
    "gold_promo": "promo",
    "promotional": "promo",
    "pro_player": "pro",
    "starter_deck": "starter",
    "core_set": "core",
    "expansion_set": "expansion",
    "premium_set": "premium",
    "master_set": "master",
    "promo_set": "promo",
    "pro_player_card_set": "pro",
    "meta_set": "meta",
    "meta_card_set": "meta",
    "metagame": "meta",
}
"""The document's longer names for set kinds ("Bronze Promo Sets", "Pro Player Card Sets"), as the short kind."""


def set_kind_code(value: Any) -> Any:
    """`Expansion`, `Bronze Promo` and `pro player` become `expansion`, `promo` and `pro`."""
    value = normalize_choice(empty_to_none(value))
    if isinstance(value, str):
        return _SET_KIND_SPELLINGS.get(value, value)
    return value


SetKind = Annotated[
    Literal["starter", "core", "expansion", "premium", "master", "promo", "pro", "meta"],
    BeforeValidator(set_kind_code),
]
SetName = Annotated[str, BeforeValidator(lambda v: v if v is None else " ".join(str(v).split())), Field(min_length=1)]


class BladesCard(CardBase):
    """Fields every Millennium Blades card has."""

    set: SetName
    """The set the card comes from (its logo on the card); cards with the same set name form one set."""
    set_kind: SetKind
    """The set's kind: starter, core, expansion, premium, master, promo (bronze, silver or gold), pro or meta."""
    stars: int = Field(ge=0)
    """Star rating, 1-10 (usually 1-8): the card's price and its strength in a clash."""
    elements: CellList = ()
    """The card's elements (the document has six), separated by ; or ,; empty for none."""
    types: CellList = ()
    """The card's types (the document has six, plus one per pro player), separated by ; or ,; empty for none."""
    rarity: CellText = ""
    """The card's rarity as printed (free text; no rule reads it)."""
    copies: int = Field(ge=1)
    """How many copies of this card its set holds (highest star 1, lowest 3, others 2; promo 1 each)."""
    buy_cost: int | None = Field(default=None, ge=0)
    """Millennium Dollars to buy this card face-down from the store ("the buy cost (the number in its top right)");
    one figure per set. Empty for cards that never sit in the store (starters, promos, pro cards): bought there
    after all, they cost their star rating (see option `game`)."""
    effects: CellText = ""
    """Effects for the simulator, one `Timing: effect` clause per `;` (see docs/rulesets/blades.md)."""

    @property
    def symbols(self) -> frozenset[tuple[str, str]]:
        """Every (category, name) symbol on the card, names case-folded: what collections match on."""
        return frozenset(
            [("element", e.casefold()) for e in self.elements] + [("type", t.casefold()) for t in self.types]
        )


class Single(BladesCard):
    """A single: the cards played into the tableau during a tournament (up to eight in a deck)."""

    kind: Literal["single"]
    """Card kind: single, deck_box, accessory or metagame."""


class DeckBox(BladesCard):
    """A deck box: the engine of a deck, usually a second way to score (one in a deck)."""

    kind: Literal["deck_box"]
    """Card kind: single, deck_box, accessory or metagame."""


class Accessory(BladesCard):
    """An accessory: protects or enhances a deck (two in a deck)."""

    kind: Literal["accessory"]
    """Card kind: single, deck_box, accessory or metagame."""


class Metagame(BladesCard):
    """A metagame card: no player owns it; one card of each meta set (stack) is revealed for a tournament, and every
    player activates its Score effects for themselves after their accessories'."""

    kind: Literal["metagame"]
    """Card kind: single, deck_box, accessory or metagame."""
    stars: int = Field(default=0, ge=0)
    """Metagame cards are never dueled, sold or collected, so they need no star rating (0 when left empty)."""


CARD_MODELS = (Single, DeckBox, Accessory, Metagame)


def card_of(entry: CardEntry) -> BladesCard:
    """The entry's card, typed as the Millennium Blades card it is."""
    return cast(BladesCard, entry.card)
