"""Build cardsets/plasma/mistakes/mistakes.xlsx: a plasma card sheet full of deliberate mistakes.

Run from anywhere: `python cardsets/plasma/mistakes/build_mistakes.py`. The
README beside it explains each mistake and lists the findings
`workbench validate` gives for it (the conformance suite checks that list).
"""

from __future__ import annotations

from pathlib import Path

from workbench.templates import write_card_workbook

HERE = Path(__file__).resolve().parent
HEADERS = ["Name", "Kind", "Cost", "Power", "Resolve", "Subtype", "Text", "Effects"]

# Rows 2-17: creatures on the curve cost = (power + resolve - 1) / 2, so the fit has something to stand on.
ON_CURVE = [
    ["Spark Drone", "creature", 1, 2, 1, "Drone", "", ""],
    ["Shield Cadet", "creature", 1, 1, 2, "Warden", "", ""],
    ["Arc Hound", "creature", 2, 3, 2, "Beast", "", ""],
    ["Bastion Page", "creature", 2, 2, 3, "Warden", "", ""],
    ["Volt Jackal", "creature", 3, 4, 3, "Beast", "", ""],
    ["Ironbark Warden", "creature", 3, 3, 4, "Warden", "", ""],
    ["Storm Ram", "creature", 4, 5, 4, "Beast", "", ""],
    ["Aegis Keeper", "creature", 4, 4, 5, "Warden", "", ""],
    ["Thunder Mammoth", "creature", 5, 6, 5, "Beast", "", ""],
    ["Citadel Golem", "creature", 6, 6, 7, "Golem", "", ""],
    ["Cinder Mite", "creature", 1, 2, 1, "Beast", "", ""],
    ["Rivet Drone", "creature", 2, 3, 2, "Drone", "", ""],
    ["Dusk Wraith", "creature", 3, 3, 4, "Wraith", "", ""],
    ["Veil Stalker", "creature", 4, 4, 5, "Wraith", "", ""],
    ["Night Choir", "creature", 5, 5, 6, "Wraith", "", ""],
    ["Tempest Wyrm", "creature", 6, 7, 6, "Beast", "", ""],
]
MISTAKES = [
    # Row 18: far too expensive for a 2/2 (warning: cost off the fitted curve).
    ["Overpriced Ox", "creature", 4, 2, 2, "Beast", "Costs far more than its stats.", ""],
    # Row 19: far too cheap for a 6/5 (warning: cost off the fitted curve).
    ["Bargain Brute", "creature", 3, 6, 5, "Golem", "Costs far less than its stats.", ""],
    # Row 20: resolve 0 (info: no minimum in the document; any damage destroys it under lethal_damage=more_than).
    ["Paper Soldier", "creature", 1, 3, 0, "Warden", "Falls over if you look at it.", ""],
    # Row 21: text in a number column (error: cell value).
    ["Wordy Wisp", "creature", "three", 2, 2, "Wraith", "", ""],
    # Row 22: a negative power (error: cell value).
    ["Backwards Bat", "creature", 1, -1, 2, "Beast", "", ""],
    # Row 23: a fractional cost (error: cell value).
    ["Half Hound", "creature", 2.5, 3, 3, "Beast", "", ""],
    # Row 24: a kind the game does not have (error: cell value).
    ["Mystery Card", "spell", 1, None, None, "", "", "draw 1"],
    # Row 25: a creature without its resolve (error: cell value).
    ["Hollow Shell", "creature", 2, 3, None, "Golem", "", ""],
    # Row 26: a second card with an existing name (error: duplicate name).
    ["Arc Hound", "creature", 2, 2, 3, "Beast", "", ""],
    # Row 27: a formula instead of a value (error: formula cell).
    ["Formula Fiend", "creature", "=1+2", 4, 3, "Wraith", "", ""],
    # Row 28: power on an equipment (warning: stats on a non-creature; the bonus belongs in effects).
    ["Ion Blade", "equipment", 2, 2, None, "", "Equip: +2 power.", "power +2"],
    # Row 29: an effect clause outside the vocabulary (info: simulated without it).
    ["Frost Nova", "event", 3, None, None, "", "Freeze every creature; draw a card.", "freeze 2; draw 1"],
    # Rows 30-31: correct non-creatures, used by the decklist.
    ["Plasma Bolt", "event", 2, None, None, "", "Deal 3 damage to target creature.", "damage 3"],
    ["Forge of Sparks", "battlefield", 3, None, None, "", "Your creatures get +1 power.", "power +1"],
]


def build(out_path: Path = HERE / "mistakes.xlsx") -> Path:
    """Write the workbook: a `Cards` sheet and a `Set` sheet naming the ruleset."""
    return write_card_workbook(
        out_path, HEADERS, ON_CURVE + MISTAKES, {"ruleset": "plasma", "name": "Plasma mistakes", "version": "1"}
    )


if __name__ == "__main__":
    print(f"wrote {build()}")
