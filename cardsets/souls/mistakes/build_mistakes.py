"""Rebuild mistakes.xlsx: one deliberate mistake per row, covering every souls check.

Run from anywhere: `python cardsets/souls/mistakes/build_mistakes.py`. The
README beside this file explains each row and lists the exact findings.
"""

from __future__ import annotations

from pathlib import Path

from workbench.templates import write_card_workbook

HEADERS = ["Name", "Kind", "Color", "Soul Cost", "Atk", "Def", "Abilities", "Effect Weight", "Element", "Effects", "Text"]

ROWS: list[list[object]] = [
    # row 2: Atk + Def = 10 costs 1, not 3
    ["Overpriced Ogre", "monster", "Verdant", 3, 5, 5, "Atk", None, None, None, "Costs two souls too many."],
    # row 3: Atk + Def = 24 is above 22, so 6 or more
    ["Bargain Giant", "monster", "Ivory", 5, 12, 12, "Atk", None, None, None, "Too cheap for its size."],
    # row 4: an element is a powerful effect: 1 + 1 = 2
    ["Unpriced Firebug", "monster", "Crimson", 1, 5, 5, "Atk; Effect", None, "fire", "apply fire", "Forgot its +1."],
    # row 5: a detrimental effect takes 1 off: 2 - 1 = 1
    ["Greedy Brute", "monster", "Crimson", 2, 6, 7, "Atk; Effect", "detrimental", None, "shield -1", "Forgot its -1."],
    # row 6: not an info-box ability
    ["Sky Raptor", "monster", "Azure", 1, 4, 4, "Atk; Flying", None, None, None, "There is no flying here."],
    # row 7: Ranged without its X
    ["Long Shot", "monster", "Verdant", 1, 4, 4, "Atk; Ranged", None, None, None, "How far?"],
    # row 8: a misspelt ability
    ["Wobbly Scout", "monster", "Verdant", 0, 2, 2, "Atk; Mobil", None, None, None, "Did you mean Mobile?"],
    # row 9: Ranged X on a card that cannot attack
    ["Far Watcher", "monster", "Azure", 1, 3, 5, "Ranged 3", None, None, None, "Sees far, hits nothing."],
    # row 10: Equip on a monster
    ["Armored Beast", "monster", "Ivory", 2, 6, 8, "Atk; Equip", None, None, None, "Monsters are not equipment."],
    # row 11: the effects apply oil, the element column says fire
    ["Mixed Flask", "magic", "Umbral", 0, None, None, "Effect", None, "fire", "apply oil", "Which is it?"],
    # row 12: an effect outside the simulator's vocabulary
    ["Mystery Rune", "magic", "Azure", 0, None, None, "Effect", None, None, "summon a wolf", "Not simulated."],
    # row 13: text in a number column
    ["Stone Troll", "monster", "Verdant", 2, "lots", 6, "Atk", None, None, None, "How much is lots?"],
    # row 14: a negative Def
    ["Negative Nymph", "monster", "Azure", 0, 2, -2, "Atk", None, None, None, "Less than nothing."],
    # row 15: the same name as row 2 (names match ignoring case)
    ["overpriced ogre", "monster", "Verdant", 1, 5, 5, "Atk", None, None, None, "A second ogre by the same name."],
    # row 16: a formula instead of a value
    ["Formula Fiend", "monster", "Crimson", 1, "=2+3", 5, "Atk", None, None, None, "A formula has no value here."],
    # row 17: a kind the game does not have
    ["Wandering Spirit", "spirit", "Ivory", 0, 2, 2, "Atk", None, None, None, "Not a monster, magic or trap."],
    # row 18: an element the game does not have
    ["Storm Elemental", "monster", "Azure", 2, 5, 5, "Atk; Effect", None, "water", "apply water", "No water element."],
    # row 19: Ranged 0 reaches nothing
    ["Ranged Zero", "monster", "Verdant", 0, 2, 2, "Atk; Ranged 0", None, None, None, "Reaches no row."],
    # row 20: a correct card, so the decklists have something legal to hold
    ["Good Imp", "monster", "Crimson", 0, 3, 2, "Atk", None, None, None, "Nothing wrong with this one."],
]


def build(out: Path) -> Path:
    """Write the workbook: a `Cards` sheet of mistakes and a `Set` sheet naming the ruleset."""
    return write_card_workbook(out, HEADERS, ROWS, {"ruleset": "souls", "name": "souls mistakes", "version": "1"})


if __name__ == "__main__":
    print(build(Path(__file__).resolve().parent / "mistakes.xlsx"))
