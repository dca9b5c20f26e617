"""Card models for the resource-circle game: characters and resources."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from workbench.rulesets.base import CardBase, CellList


class CirclesCard(CardBase):
    """Fields shared by both kinds of card."""

    color: CellList = ()
    """Resource cards: the one colour the card is (red, blue or green). Characters leave it empty."""
    red: int = Field(default=0, ge=0)
    """Characters: red cost circles (red resources spent to bring it into play). Empty means 0."""
    blue: int = Field(default=0, ge=0)
    """Characters: blue cost circles. Empty means 0."""
    green: int = Field(default=0, ge=0)
    """Characters: green cost circles. Empty means 0."""
    abilities: CellList = ()
    """Characters: special abilities from the document's list, separated by ; (e.g. `Armor Piercing 1; Defender`)."""


class Character(CirclesCard):
    """A character: costs its coloured circles to bring into play, fights in its lane."""

    kind: Literal["character"]
    """Card kind: character or resource."""
    attack: int = Field(ge=0)
    """Attack: damage dealt to the enemy card in front (or to the enemy player when nothing is in front)."""
    health: int = Field(ge=0)
    """Health: the card is destroyed when it takes more damage than this in one turn."""


class Resource(CirclesCard):
    """A resource card: spent (flipped) to pay one circle of its colour each turn."""

    kind: Literal["resource"]
    """Card kind: character or resource."""
    attack: int | None = Field(default=None, ge=0)
    """Resources have no Attack; leave it empty."""
    health: int | None = Field(default=None, ge=0)
    """Resources have no Health; leave it empty."""


CARD_MODELS = (Character, Resource)
