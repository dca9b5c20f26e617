"""Card models for the plasma game: creatures, equipment, events, instants and battlefields.

Every card costs plasma. Only creatures have power and resolve; the other
kinds carry `power`/`resolve` cells only so that a value typed there by
mistake is reported (their bonuses are written in `effects`, e.g. `power +2`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from workbench.rulesets.base import CardBase, CellText


class PlasmaCard(CardBase):
    """Fields shared by every plasma card."""

    cost: int = Field(ge=0)
    """Plasma spent to play the card: a whole number >= 0."""
    subtype: CellText = ""
    """The card's subtype (e.g. Drone, Beast); the optional 3-subtype deck rule counts these."""
    effects: CellText = ""
    """Effect vocabulary for the simulator, clauses separated by `;`: damage N, damage player N, heal N, draw N,
    power +N, resolve +N, destroy, plasma +N (see docs/rulesets/plasma.md for what each does on each kind). On a
    creature, `activate N: CLAUSE` is part of its activated ability, paid N plasma in your play phase."""


class Creature(PlasmaCard):
    """A creature: stays on the field, attacks and blocks."""

    kind: Literal["creature"]
    """Card kind: creature, equipment, event, instant or battlefield."""
    power: int = Field(ge=0)
    """Power: the damage this creature deals in a fight or a direct attack (whole number >= 0)."""
    resolve: int = Field(ge=0)
    """Resolve: the damage this creature can take before it is destroyed (whole number >= 0; with 0 any damage
    destroys it, see `lethal_damage`)."""


class NonCreature(PlasmaCard):
    """Fields of the kinds that are not creatures."""

    power: int | None = Field(default=None, ge=0)
    """Creatures only: leave empty (an equipment's or battlefield's bonus goes in `effects` as `power +N`)."""
    resolve: int | None = Field(default=None, ge=0)
    """Creatures only: leave empty (an equipment's or battlefield's bonus goes in `effects` as `resolve +N`)."""


class Equipment(NonCreature):
    """Equipment: put underneath one of your creatures; its `power`/`resolve` clauses buff that creature."""

    kind: Literal["equipment"]
    """Card kind: creature, equipment, event, instant or battlefield."""


class Event(NonCreature):
    """An event: its effect applies when played in your play phase, then it goes to the discard pile."""

    kind: Literal["event"]
    """Card kind: creature, equipment, event, instant or battlefield."""


class Instant(NonCreature):
    """An instant: like an event, but playable at any time, even in the opponent's turn (never as a response)."""

    kind: Literal["instant"]
    """Card kind: creature, equipment, event, instant or battlefield."""


class Battlefield(NonCreature):
    """A battlefield: stays on the field without being a creature; one per player at a time."""

    kind: Literal["battlefield"]
    """Card kind: creature, equipment, event, instant or battlefield."""


CARD_MODELS = (Creature, Equipment, Event, Instant, Battlefield)
KINDS: tuple[str, ...] = ("creature", "equipment", "event", "instant", "battlefield")
"""Card kinds in the engine's integer order (creature = 0, ...)."""
