"""Card models for SOURCE: monsters, equipment, traps, channeled effects and monster tokens.

Requirements (`terrestrial`, `otherworldly`) are counts of map spaces your
monsters must occupy before the card can be summoned, equipped or placed;
their sum is the card's occupied-space requirement, the number every cost and
deck rule is keyed on.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from workbench.rulesets.base import CardBase, CellList, CellText, empty_to_none

MONSTER_TYPE_NAMES: dict[str, str] = {
    "AL": "Alien",
    "AQ": "Aquatic",
    "BE": "Beast",
    "DE": "Demon",
    "FL": "Flame",
    "FR": "Frost",
    "GA": "Gas",
    "GR": "Ground",
    "IN": "Insect/Arachnid",
    "OT": "Otherworldly",
    "RO": "Robot",
    "SP": "Spirit",
    "ST": "Static",
    "TO": "Token (Monster)",
}
"""The document's Type Index, monster card types: code -> name."""


def monster_type_code(value: Any) -> Any:
    """`ga`, `Gas` and `GA` all mean `GA`; `Insect`, `Arachnid` and `Token` are accepted for their codes."""
    value = empty_to_none(value)
    if not isinstance(value, str):
        return value
    text = value.strip()
    if text.upper() in MONSTER_TYPE_NAMES:
        return text.upper()
    wanted = text.casefold()
    for code, name in MONSTER_TYPE_NAMES.items():
        spellings = {
            name.casefold(),
            *(part.strip().casefold() for part in name.replace("(", "/").rstrip(")").split("/")),
        }
        if wanted in spellings:
            return code
    return text


def turn_code(value: Any) -> Any:
    """`y`, `Y`, `o`, `y/o`, `Y / O` and `YO` become `Y`, `O` or `Y/O`."""
    value = empty_to_none(value)
    if not isinstance(value, str):
        return value
    compact = "".join(value.split()).upper()
    return {"YO": "Y/O", "Y/O": "Y/O", "O/Y": "Y/O", "Y": "Y", "O": "O"}.get(compact, value.strip())


MonsterType = Annotated[
    Literal["AL", "AQ", "BE", "DE", "FL", "FR", "GA", "GR", "IN", "OT", "RO", "SP", "ST", "TO"],
    BeforeValidator(monster_type_code),
]
ActiveTurns = Annotated[Literal["Y", "O", "Y/O"], BeforeValidator(turn_code)]
OptionalActiveTurns = Annotated[Literal["Y", "O", "Y/O"] | None, BeforeValidator(turn_code)]
Requirement = Annotated[int, BeforeValidator(lambda v: 0 if empty_to_none(v) is None else v), Field(ge=0)]
StValue = Annotated[int, Field(ge=0)]


class SourceCard(CardBase):
    """Fields shared by every SOURCE card."""

    terrestrial: Requirement = 0
    """Terrestrial (purple) spaces your monsters must occupy to summon, equip or place this card."""
    otherworldly: Requirement = 0
    """Otherworldly (green) spaces your monsters must occupy to summon, equip or place this card."""
    effects: CellText = ""
    """Effects for the simulator: `;`-separated clauses such as `st +10`, `foe push back 1`, `summon token Sproutling`;
    channeled effects put them under bracket heads (`50-99: ...`). See docs/rulesets/source.md."""

    @property
    def requirement(self) -> int:
        """Occupied spaces required in all: terrestrial + otherworldly."""
        return self.terrestrial + self.otherworldly


class Monster(SourceCard):
    """A monster: summoned onto your summoning space once its requirements are met."""

    kind: Literal["monster"]
    """Card kind: monster, equipment, trap, channeled or token."""
    type: MonsterType
    """Monster type code from the Type Index: AL AQ BE DE FL FR GA GR IN OT RO SP ST TO (names accepted too)."""
    alpha: StValue
    """Alpha [α] ST: whole number >= 0."""
    beta: StValue
    """Beta [β] ST: whole number >= 0."""
    gamma: StValue
    """Gamma [γ] ST: whole number >= 0."""
    delta: StValue
    """Delta [Δ] ST: whole number >= 0."""
    # Optional[...] rather than `int | None`: the template's column guide describes typing.Union, not types.UnionType.
    starter_copies: int | None = Field(default=None, ge=1)  # noqa: UP007
    """Copies of this monster in the starter deck; a deck may hold that many instead of 1 (empty: not in it)."""

    @property
    def st_total(self) -> int:
        """Alpha + beta + gamma + delta."""
        return self.alpha + self.beta + self.gamma + self.delta


class Token(SourceCard):
    """A monster token: kept in the separate token deck and summoned by other cards' effects."""

    kind: Literal["token"]
    """Card kind: monster, equipment, trap, channeled or token."""
    type: Annotated[MonsterType | None, BeforeValidator(monster_type_code)] = None
    """Monster type code (usually TO); may be empty."""
    alpha: StValue
    """Alpha [α] ST: whole number >= 0."""
    beta: StValue
    """Beta [β] ST: whole number >= 0."""
    gamma: StValue
    """Gamma [γ] ST: whole number >= 0."""
    delta: StValue
    """Delta [Δ] ST: whole number >= 0."""

    @property
    def st_total(self) -> int:
        """Alpha + beta + gamma + delta."""
        return self.alpha + self.beta + self.gamma + self.delta


class Equipment(SourceCard):
    """An equipment card: placed on a support space, equipped to one monster for a number of turns."""

    kind: Literal["equipment"]
    """Card kind: monster, equipment, trap, channeled or token."""
    turns: int = Field(ge=1)
    """Turns the equipment stays on the field, counting the turn it is equipped (each player's turn uses one)."""
    active: ActiveTurns
    """Whose turns its effect applies on: Y (yours), O (opponent's) or Y/O (both)."""


class Trap(SourceCard):
    """A trap card: placed face down next to one of your monsters, sprung by an opponent's monster."""

    kind: Literal["trap"]
    """Card kind: monster, equipment, trap, channeled or token."""


class Channeled(SourceCard):
    """A channeled effect card: used by a monster on your Source Flux space, its effect chosen by ST bracket."""

    kind: Literal["channeled"]
    """Card kind: monster, equipment, trap, channeled or token."""
    uses: int = Field(ge=1)
    """How often the card may be used before it goes to the Done Zone."""
    symbols: CellList = ()
    """The symbol cards that activate it: a non-empty subset of Alpha, Beta, Gamma, Delta (separated by ; or ,)."""
    brackets: CellText = ""
    """ST brackets and their effects, lowest first, e.g. `0-49: ...; 50-99: ...; 100+: ...`."""
    active: OptionalActiveTurns = None
    """Whose turns it may be activated on: Y, O or Y/O (empty: not stated)."""


CARD_MODELS = (Monster, Equipment, Trap, Channeled, Token)
