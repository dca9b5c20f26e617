"""Rebuild mistakes.xlsx: deliberate mistakes covering every circles check.

Run from anywhere: `python cardsets/circles/mistakes/build_mistakes.py`. The
README beside this file explains each row and lists the exact findings.
"""

from __future__ import annotations

from pathlib import Path

from workbench.templates import write_card_workbook

HEADERS = ["Name", "Kind", "Colour", "Red", "Blue", "Green", "Attack", "Health", "Abilities", "Text"]

ROWS: list[list[object]] = [
    # row 2: the document's own worked example: 2 red + 1 blue, 3 Attack / 2 Health, Defender (1 point unspent)
    ["Worked Example", "character", None, 2, 1, None, 3, 2, "Defender", "Valid, with one point left unspent."],
    # row 3: 1 base resource gives 3 points, not 4
    ["Greedy Goblin", "character", None, 1, None, None, 3, 1, None, "One point over budget."],
    # row 4: six circles on a five-circle card
    ["Six Circle Titan", "character", None, 3, 3, None, 6, 3, "Armor 2", "No room for a sixth circle."],
    # row 5: Fireball is red, but the card has no red circle
    ["Colour-blind Mage", "character", None, None, 2, None, 2, 1, "Fireball", "Fireball needs a red circle."],
    # row 6: four circles and no ability: 4 base resources is not a choice
    ["Four Base Brute", "character", None, 4, None, None, 6, 6, None, "Base resources are 1, 2 or 3."],
    # row 7: every circle goes to abilities, none is left for base resources
    ["All Tricks", "character", None, None, None, 3, 1, 1, "Extra Card", "Nothing left for Attack or Health."],
    # row 8: Attack 0
    ["Pacifist Monk", "character", None, None, 1, None, 0, 3, None, "A character needs at least 1 Attack."],
    # row 9: a misspelt ability (British spelling is fine; the missing 'ing' is not)
    ["Drill Beetle", "character", None, 2, None, None, 2, 1, "Armour Pierce 1", "Did you mean Armor Piercing 1?"],
    # row 10: Defender listed twice
    ["Double Guard", "character", None, None, 4, None, 2, 4, "Defender; Defender", "One Defender is enough."],
    # row 11: a resource with two colours
    ["Muddy Puddle", "resource", "blue; green", None, None, None, None, None, None, "Mostly one colour, please."],
    # row 12: a colour the game does not have
    ["Amethyst", "resource", "purple", None, None, None, None, None, None, "Red, blue or green only."],
    # row 13: a resource with an Attack value
    ["Angry Ruby", "resource", "red", None, None, None, 2, None, None, "Resources do not fight."],
    # row 14: text in a number column
    ["Wordy Knight", "character", None, "two", None, None, 4, 2, None, "How many is two?"],
    # row 15: a negative circle count
    ["Negative Newt", "character", None, None, None, -1, 1, 2, None, "Less than no circles."],
    # row 16: the same name as row 3 (names match ignoring case)
    ["greedy goblin", "character", None, 1, None, None, 2, 1, None, "A second goblin by the same name."],
    # row 17: a formula instead of a value
    ["Formula Fox", "character", None, None, None, 1, "=1+1", 1, None, "A formula has no value here."],
    # row 18: a kind the game does not have
    ["Mystic Relic", "artifact", None, 1, None, None, 2, 1, None, "Only characters and resources."],
    # rows 19-21: correct cards, so the decklists have something legal to hold
    ["Ember Pup", "character", None, 1, None, None, 2, 1, None, "Nothing wrong with this one."],
    ["Deep Sea Giant", "character", None, None, 3, None, 4, 5, None, "Needs three blue resources."],
    ["Ruby Shard", "resource", "red", None, None, None, None, None, None, "A red resource."],
]


def build(out: Path) -> Path:
    """Write the workbook: a `Cards` sheet of mistakes and a `Set` sheet naming the ruleset."""
    return write_card_workbook(out, HEADERS, ROWS, {"ruleset": "circles", "name": "circles mistakes", "version": "1"})


if __name__ == "__main__":
    print(build(Path(__file__).resolve().parent / "mistakes.xlsx"))
