"""Card models for the soul-cost game: monsters, magic and traps."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field

from workbench.rulesets.base import CardBase, CellList, CellText, empty_to_none, normalize_choice

EffectWeight = Annotated[Literal["powerful", "detrimental"] | None, BeforeValidator(lambda v: normalize_choice(empty_to_none(v)))]
Element = Annotated[
    Literal["fire", "oil", "miasma", "curse"] | None, BeforeValidator(lambda v: normalize_choice(empty_to_none(v)))
]


class SoulsCard(CardBase):
    """Fields shared by every soul-cost card."""

    color: CellText = ""
    """The card's colour as printed under its type (flavour; not used by any rule)."""
    soul_cost: int = Field(default=0, ge=0)
    """Soul cost: how many of your cards must be sacrificed to summon this one."""
    abilities: CellList = ()
    """Info-box abilities: Atk, Effect, Support, Ranged X, Mobile, Equip (separated by ; or ,)."""
    effect_weight: EffectWeight = None
    """`powerful` (+1 soul cost, e.g. applies an element), `detrimental` (-1), or empty."""
    element: Element = None
    """The element the card applies: fire, oil, miasma, curse, or empty."""
    effects: CellText = ""
    """Effect vocabulary for the simulator (e.g. `apply fire; damage 2`)."""


class Monster(SoulsCard):
    """A monster: summoned by sacrificing as many cards as its soul cost."""

    kind: Literal["monster"]
    """Card kind: monster, magic or trap."""
    soul_cost: int = Field(ge=0)
    """Soul cost: how many of your cards must be sacrificed to summon this one."""
    atk: int = Field(ge=0)
    """Attack: damage dealt to the target card when this card attacks."""
    defense: int = Field(ge=0)
    """Defence (the `Def` column): damage this card takes before it is destroyed."""


class Magic(SoulsCard):
    """A magic card (some carry Equip)."""

    kind: Literal["magic"]
    """Card kind: monster, magic or trap."""
    atk: int | None = Field(default=None, ge=0)
    """Attack, if the card has one."""
    defense: int | None = Field(default=None, ge=0)
    """Defence (the `Def` column), if the card has one."""


class Trap(SoulsCard):
    """A trap card: its effect fires on a trigger condition."""

    kind: Literal["trap"]
    """Card kind: monster, magic or trap."""
    atk: int | None = Field(default=None, ge=0)
    """Attack, if the card has one."""
    defense: int | None = Field(default=None, ge=0)
    """Defence (the `Def` column), if the card has one."""


CARD_MODELS = (Monster, Magic, Trap)
