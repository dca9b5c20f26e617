"""Card models for the soul-cost game: monsters, magic and traps.

Every card shows a soul cost and Atk / Def in the document's card layout
("(Soul Cost) Atk / Def"); monsters must fill in all three, magic and trap
cards only when they have them.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field

from workbench.rulesets.base import CardBase, CellList, CellText, empty_to_none, normalize_choice

EffectWeight = Annotated[
    Literal["powerful", "detrimental"] | None, BeforeValidator(lambda v: normalize_choice(empty_to_none(v)))
]
Element = Annotated[
    Literal["fire", "oil", "miasma", "curse"] | None, BeforeValidator(lambda v: normalize_choice(empty_to_none(v)))
]


class SoulsCard(CardBase):
    """Fields shared by every soul-cost card."""

    kind: Literal["monster", "magic", "trap"]
    """Card kind: monster, magic or trap."""
    color: CellText = ""
    """The card's colour as printed beside its type (flavour; no rule reads it)."""
    soul_cost: int = Field(default=0, ge=0)
    """Soul cost: how many of your cards must be sacrificed to summon (or play) this one."""
    atk: int | None = Field(default=None, ge=0)
    """Attack: damage dealt to the target card when this card attacks (empty on magic and traps without one)."""
    defense: int | None = Field(default=None, ge=0)
    """Defence (the `Def` column): the damage this card takes before it is destroyed."""
    abilities: CellList = ()
    """Info-box abilities: Atk, Effect, Support, Ranged X, Mobile, Equip (separated by ; or ,)."""
    effect_weight: EffectWeight = None
    """`powerful` (+1 soul cost, e.g. elemental application), `detrimental` (-1), or empty."""
    element: Element = None
    """The element the card applies: fire, oil, miasma, curse, or empty (counts as a powerful effect by default)."""
    effects: CellText = ""
    """Effects for the simulator, separated by `;`: apply <element>, damage N, draw N, shield +N, atk +N, def +N."""


class Monster(SoulsCard):
    """A monster: summoned onto one of your three rows by sacrificing as many cards as its soul cost."""

    kind: Literal["monster"]
    """Card kind: monster, magic or trap."""
    soul_cost: int = Field(ge=0)
    """Soul cost: how many of your cards must be sacrificed to summon this one."""
    atk: int = Field(ge=0)
    """Attack: damage dealt to the target card when this card attacks."""
    defense: int = Field(ge=0)
    """Defence (the `Def` column): the damage this card takes before it is destroyed."""


class Magic(SoulsCard):
    """A magic card: played for its effect, or attached to a card in play when it has Equip."""

    kind: Literal["magic"]
    """Card kind: monster, magic or trap."""


class Trap(SoulsCard):
    """A trap card: set face down, its effect fires on a trigger condition (an opposing attack)."""

    kind: Literal["trap"]
    """Card kind: monster, magic or trap."""


CARD_MODELS = (Monster, Magic, Trap)
