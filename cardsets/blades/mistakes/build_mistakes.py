"""Build `mistakes.xlsx`: a Millennium Blades card sheet with one deliberate mistake per check.

Run from anywhere: `python cardsets/blades/mistakes/build_mistakes.py`. The
README beside this script explains each mistake and lists the exact findings
`workbench validate` gives for the workbook and the decklists in this folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from workbench.templates import write_card_workbook

HERE = Path(__file__).resolve().parent
HEADERS = ["name", "kind", "set", "set_kind", "stars", "elements", "types", "rarity", "copies", "text", "effects"]

CORE = "Practice Core"
EXPANSION = "Broken Expansion"
PROMO = "Broken Promo"
STARTER = "Broken Starter"

CARDS: list[list[Any]] = [
    # A valid core set the decklists draw on (the core set is exempt from the copy rule and the set size).
    ["Ash Cadet", "single", CORE, "core", 1, "Fire", "Soldier", "Rare", 3, "Play: Gain 2 RP.", "Play: gain 2 RP"],
    ["Ember Guard", "single", CORE, "core", 2, "Fire", "Soldier", "Rare", 3, "Play: Gain 3 RP.", "Play: gain 3 RP"],
    ["Flame Corporal", "single", CORE, "core", 3, "Fire", "Soldier", "Rare", 2, "", ""],
    ["Blaze Lieutenant", "single", CORE, "core", 4, "Fire", "Soldier", "Rare", 2, "", ""],
    ["Tide Hound", "single", CORE, "core", 5, "Water", "Beast", "Rare", 2, "", ""],
    ["Deep Hound", "single", CORE, "core", 6, "Water", "Beast", "Rare", 2, "", ""],
    ["Harbor Guard", "single", CORE, "core", 2, "Water", "Soldier", "Rare", 2, "", ""],
    # A clause outside the effects vocabulary: info.
    ["Gear Scribe", "single", CORE, "core", 3, "Earth", "Machine", "Rare", 2, "Play: Draw 2.", "Play: draw 2 cards"],
    # A `per` condition naming a symbol no card has: info.
    ["Gear Tallier", "single", CORE, "core", 4, "Earth", "Machine", "Rare", 2, "", "Score: gain 1 RP per shadow"],
    ["Plain Deck Box", "deck_box", CORE, "core", 2, "", "", "Rare", 3, "", ""],
    ["Spare Deck Box", "deck_box", CORE, "core", 3, "", "", "Rare", 2, "", ""],
    ["Lucky Charm", "accessory", CORE, "core", 1, "", "", "Rare", 3, "", ""],
    ["Grip Tape", "accessory", CORE, "core", 2, "", "", "Rare", 3, "", ""],
    ["Dice Bag", "accessory", CORE, "core", 2, "", "", "Rare", 3, "", ""],
    # 9 stars: legal but unusual (warning).
    ["Lofty Sage", "single", CORE, "core", 9, "Light; Air", "Mage", "Ultra Rare", 1, "", ""],
    # 0 stars: outside 1-10 (error).
    ["Zero Hero", "single", CORE, "core", 0, "Dark", "Mage", "Rare", 2, "", ""],
    # The seventh different element, a typo for Fire (warning).
    ["Typo Torch", "single", CORE, "core", 2, "Fyre", "Soldier", "Rare", 2, "", ""],
    # An expansion that breaks the copy rule and the set size.
    ["Rookie Gunner", "single", EXPANSION, "expansion", 2, "Fire", "Soldier", "Rare", 3, "", ""],
    ["Steady Gunner", "single", EXPANSION, "expansion", 3, "Fire", "Soldier", "Rare", 2, "", ""],
    # Its set's highest-star card, with 2 copies instead of 1 (error).
    ["Ace Gunner", "single", EXPANSION, "expansion", 6, "Fire", "Soldier", "Super Rare", 2, "", ""],
    # 11 stars (error); it does not count as the set's highest card.
    ["Overcharged Gunner", "single", EXPANSION, "expansion", 11, "Fire", "Soldier", "Ultra Rare", 1, "", ""],
    # Says premium in an expansion set (error).
    ["Misfiled Gunner", "single", EXPANSION, "premium", 4, "Fire", "Soldier", "Rare", 2, "", ""],
    # A promo card with 2 copies (error), in a promo set of 2 cards, not 6 (warning).
    ["Shiny Gunner", "single", PROMO, "promo", 5, "Fire", "Soldier", "Promo", 2, "", ""],
    # A starter card with 2 copies (warning), in a starter of 2 cards, not 9 (warning).
    ["Starter Gunner", "single", STARTER, "starter", 1, "Fire", "Soldier", "Starter", 2, "", ""],
    # Bad cells: each row is an error and the card is not checked further.
    ["Word Star", "single", CORE, "core", "five", "Fire", "Soldier", "Rare", 2, "", ""],
    ["Half Copy", "single", CORE, "core", 3, "Fire", "Soldier", "Rare", 1.5, "", ""],
    ["Negative Nancy", "single", CORE, "core", -2, "Fire", "Soldier", "Rare", 2, "", ""],
    ["Booster Pack", "booster", CORE, "core", 3, "", "", "Rare", 2, "", ""],
    ["Mega Card", "single", "Mega Set", "mega", 3, "Fire", "", "Rare", 2, "", ""],
    ["Ash Cadet", "single", CORE, "core", 1, "Fire", "Soldier", "Rare", 3, "", ""],
    ["Formula Fiend", "single", CORE, "core", 3, "Dark", "Fiend", "Rare", "=1+1", "", ""],
    ["Setless Card", "single", "", "core", 3, "Dark", "Fiend", "Rare", 2, "", ""],
    # A metagame card outside a meta set (error): the meta sets are the metagame stacks.
    ["Stray Meta", "metagame", CORE, "core", "", "Fire", "", "Meta", 1, "", "Score: gain 3 RP per fire"],
]


def build(out: Path = HERE / "mistakes.xlsx") -> Path:
    """Write the workbook (through a temporary file, so a failed run leaves the old one whole)."""
    return write_card_workbook(out, HEADERS, CARDS, {"ruleset": "blades", "name": "Millennium Blades mistakes", "version": "1"})


if __name__ == "__main__":
    print(build())
