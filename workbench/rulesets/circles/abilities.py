"""The document's closed list of 24 special abilities, as one data table.

Both the card checks (circle costs, unknown names) and the match engine
(activation costs, numbers) read this table, so a change to an ability's
price is made in one place. Order matters to the engine: an ability's index
in `ABILITIES` is its integer id in the compiled card table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Colour = Literal["red", "blue", "green"]
COLOURS: tuple[Colour, ...] = ("red", "blue", "green")
"""The three resource colours, in the order of the `red`, `blue`, `green` columns (and the engine's colour ids)."""


@dataclass(frozen=True)
class Ability:
    """One special ability from the document's list."""

    name: str
    """The name written on the card, e.g. `Armor Piercing 1` (the number is part of the name)."""
    colour: Colour
    """The colour of the circles it fills (the list's heading: Red, Blue or Green)."""
    circles: int
    """Cost circles it fills, in its colour (the left column of the document's list)."""
    activation: int
    """Resources of its colour spent each turn it is used (0 for an automatic ability)."""
    number: int
    """The number the ability carries (armor ignored, attack given, damage dealt, health restored); 0 if none."""
    rules: str
    """The document's own text for it."""
    discards_itself: bool = False
    """Serenity's price: the card is discarded instead of paying resources."""

    @property
    def activated(self) -> bool:
        """True when using the ability costs something each turn (resources, or discarding the card)."""
        return self.activation > 0 or self.discards_itself


ABILITIES: tuple[Ability, ...] = (
    # Red (Attack)
    Ability("Armor Piercing 1", "red", 1, 0, 1, "Ignore 1 armor on enemy"),
    Ability("Armor Piercing 2", "red", 2, 0, 2, "Ignore 2 armor on enemy"),
    Ability("Self Destruct", "red", 2, 1, 0, "Spend 1 Red to destroy this card and blocking card"),
    Ability("Attack Boost 1", "red", 1, 0, 1, "Card on each side gets +1 attack"),
    Ability("Attack Boost 2", "red", 2, 1, 2, "Spend 1 Red resource. The cards on each side gets +2 attack"),
    Ability(
        "Target",
        "red",
        1,
        1,
        0,
        "Spend 1 Red. Select which enemy this card attacks. It must still defend against the same location",
    ),
    Ability("Fireball", "red", 1, 1, 1, "Spend 1 Red. Deal 1 damage to an enemy of your choice, before combat begins"),
    Ability(
        "Long Range",
        "red",
        3,
        3,
        0,
        "Spend 3 Red. Ignore the defending character and damage the enemy player directly (Damage equal to attack "
        "power)",
    ),
    # Blue (Defense)
    Ability("Armor 1", "blue", 2, 0, 1, "Ignore 1 damage from attack"),
    Ability("Armor 2", "blue", 3, 0, 2, "Ignore 2 damage from attack"),
    Ability("Heal 1", "blue", 1, 1, 1, "Spend 1 Blue. Restore 1 health point to any card"),
    Ability("Heal 2", "blue", 2, 2, 2, "Spend 2 Blue. Restore 2 health points to any card"),
    Ability("Defender", "blue", 1, 0, 1, "Card on each side gets +1 health"),
    Ability("Disperse", "blue", 1, 1, 0, "Spend 1 Blue. The damage may be spread across any of your other cards"),
    Ability("Avoid Damage", "blue", 2, 2, 0, "Spend 2 Blue. Damage dealt is ignored"),
    Ability("Serenity", "blue", 3, 0, 0, "Discard this card. All damage this turn is ignored.", discards_itself=True),
    # Green (Special)
    Ability("Fast", "green", 1, 0, 0, "Deals damage first. If enemy card is destroyed, this card takes no damage"),
    Ability("Restore", "green", 2, 2, 0, "Spend 2 Green. Take a card out of discard and put it in your hand"),
    Ability("Future Vision", "green", 1, 1, 3, "Spend 1 Green. See the top 3 cards of your draw deck"),
    Ability("Change the Future", "green", 2, 2, 3, "Spend 2 Green. Rearrange the top 3 cards on your draw deck"),
    Ability("Reflect", "green", 1, 0, 0, "Half the damage (rounded up) is also taken by the attacking card"),
    Ability("Reorder", "green", 1, 1, 0, "Spend 1 Green. Swap the placement of any 2 of your characters in play"),
    Ability("Extra Card", "green", 3, 0, 1, "Bring an additional card into play for free"),
    Ability("Sleep", "green", 1, 1, 0, "Spend 1 Green. Flip enemy card, it does not attack or defend this turn"),
)
"""The closed list, in the document's order (red, blue, green); index = the engine's ability id."""

ABILITY_INDEX: dict[str, int] = {ability.name: index for index, ability in enumerate(ABILITIES)}
"""Ability name -> its index in `ABILITIES` (the engine's ability id)."""


def ability_key(text: str) -> str:
    """How a written ability name is matched: case, spacing and punctuation ignored (`armor-piercing  1` works)."""
    return re.sub(r"[^0-9a-z]+", " ", text.casefold()).strip()


_BY_KEY: dict[str, Ability] = {ability_key(ability.name): ability for ability in ABILITIES}
# British spelling is common on hand-made cards; it names the same abilities.
_BY_KEY.update({key.replace("armor", "armour"): ability for key, ability in list(_BY_KEY.items()) if "armor" in key})


def find_ability(text: str) -> Ability | None:
    """The ability a cell entry names, or None when it is not on the document's list."""
    return _BY_KEY.get(ability_key(text))


def circles_by_colour(abilities: list[Ability] | tuple[Ability, ...]) -> dict[Colour, int]:
    """Circles the abilities fill, per colour."""
    totals: dict[Colour, int] = {colour: 0 for colour in COLOURS}
    for ability in abilities:
        totals[ability.colour] += ability.circles
    return totals
