"""Build `mistakes.xlsx`: a SOURCE card sheet with one deliberate mistake per check (see README.md).

Run from anywhere: `python cardsets/source/mistakes/build_mistakes.py`. The rows are listed in sheet order; the
README's table names them by row, so keep the order when adding a mistake (append new rows at the end).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from workbench.templates import write_card_workbook

HEADERS = [
    "name", "kind", "type", "terrestrial", "otherworldly", "alpha", "beta", "gamma", "delta",
    "turns", "active", "uses", "symbols", "brackets", "starter_copies", "text", "effects",
]  # fmt: skip


def monster(name: str, type_: Any, t: Any, o: Any, st: tuple[Any, Any, Any, Any], effects: str = "", text: str = "") -> dict[str, Any]:
    return {"name": name, "kind": "monster", "type": type_, "terrestrial": t, "otherworldly": o,
            "alpha": st[0], "beta": st[1], "gamma": st[2], "delta": st[3], "effects": effects, "text": text}  # fmt: skip


def channeled(name: str, uses: Any, symbols: str, brackets: str, effects: str = "") -> dict[str, Any]:
    return {"name": name, "kind": "channeled", "uses": uses, "symbols": symbols, "active": "Y",
            "brackets": brackets, "effects": effects}  # fmt: skip


CARDS: list[dict[str, Any]] = [
    # row 2: a valid card the decks use
    monster("Bog Imp", "GA", 0, 0, (10, 10, 15, 15), "foe push back 1"),
    # row 3: ST total 120, but requirement 1 means 75
    monster("Overgrown Ogre", "BE", 1, 0, (30, 30, 30, 30)),
    # row 4: requirement 3 + 2 = 5, above the table's 4
    monster("Skyscraper Wyrm", "FL", 3, 2, (40, 40, 40, 40)),
    # row 5: an equipment requiring 0 + 5 = 5 spaces
    {"name": "Overclocked Gauntlet", "kind": "equipment", "terrestrial": 0, "otherworldly": 5, "turns": 2,
     "active": "Y", "effects": "st +20"},  # fmt: skip
    # row 6: a token with an 80 ST total (tokens are expected below 50)
    {"name": "Bloated Spawn", "kind": "token", "type": "TO", "alpha": 20, "beta": 20, "gamma": 20, "delta": 20},
    # row 7: text in a number column
    monster("Paper Tiger", "BE", 0, 0, ("ten", 10, 15, 15)),
    # row 8: a negative requirement
    monster("Sinkhole Sprite", "GR", -1, 0, (10, 10, 15, 15)),
    # row 9: a fractional ST
    monster("Half Golem", "RO", 0, 0, (12.5, 12, 13, 12)),
    # row 10: a type code the document's index does not have
    monster("Plantasaur", "PL", 0, 0, (10, 10, 15, 15)),
    # row 11: equipment lasting 0 turns
    {"name": "Blink Boots", "kind": "equipment", "terrestrial": 0, "otherworldly": 0, "turns": 0, "active": "Y"},
    # row 12: `active` must be Y, O or Y/O
    {"name": "Twin Buckler", "kind": "equipment", "terrestrial": 1, "otherworldly": 0, "turns": 2, "active": "both"},
    # row 13: a channeled effect with 0 uses
    channeled("Dud Channel", 0, "Alpha", "0-29: nothing; 30+: draw a card", "0-29: draw 1; 30+: draw 2"),
    # row 14: no activating symbol
    channeled("Silent Hymn", 1, "", "0-29: draw a card; 30+: draw two cards", "0-29: draw 1; 30+: draw 2"),
    # row 15: Alpha twice and a symbol that does not exist
    channeled("Epsilon Ray", 1, "Alpha; Alpha; Epsilon", "0-29: weak; 30+: strong", "0-29: st -5; 30+: foe destroy"),
    # row 16: brackets 0-29 and 20-49 overlap
    channeled("Crossed Wires", 1, "Beta", "0-29: push back 1; 20-49: push back 2; 50+: destroy"),
    # row 17: brackets that are not `low-high: effect`
    channeled("Formless Chant", 1, "Gamma", "weak below thirty, strong above"),
    # row 18: nothing covers ST 0-9 or 30-39 (a warning)
    channeled("Gapped Hymn", 1, "Delta", "10-29: push back 1; 40+: destroy", "10-29: foe push back 1; 40+: foe destroy"),
    # row 19: an effect the vocabulary does not have (info)
    monster("Glitter Moth", "IN", 0, 0, (15, 15, 10, 10), "sparkle wildly"),
    # row 20: summons a token the set does not have (warning)
    monster("Lonely Caller", "SP", 0, 0, (10, 20, 10, 10), "summon token Phantom Pup"),
    # row 21: the same name as row 2
    monster("Bog Imp", "AQ", 0, 0, (20, 10, 10, 10)),
    # row 22: a formula instead of a value
    monster("Sum Beast", "BE", 0, 0, ("=10+5", 10, 10, 15)),
    # row 23: a kind SOURCE does not have
    {"name": "Mystery Box", "kind": "artifact"},
    # rows 24-26: valid traps and equipment for the decks; Pitfall says `foe` on a trap (info)
    {"name": "Goop", "kind": "trap", "terrestrial": 1, "otherworldly": 0, "effects": "cannot attack; cannot move"},
    {"name": "Pitfall", "kind": "trap", "terrestrial": 0, "otherworldly": 0, "effects": "foe push back 1"},
    {"name": "Spiked Greaves", "kind": "equipment", "terrestrial": 1, "otherworldly": 0, "turns": 2, "active": "Y",
     "effects": "st alpha +10"},  # fmt: skip
    # rows 27-28: two monsters requiring 4 spaces
    monster("Worldbreaker", "AL", 2, 2, (40, 40, 35, 35), "foe destroy"),
    monster("Starmaw", "OT", 0, 4, (38, 38, 37, 37), "sourcepoints -15"),
    # rows 29-34: six monsters requiring 3 spaces
    monster("Ironclad Behemoth", "RO", 3, 0, (35, 30, 30, 30)),
    monster("Abyssal Tyrant", "DE", 2, 1, (40, 30, 30, 25)),
    monster("Glacial Hydra", "FR", 1, 2, (25, 40, 30, 30)),
    monster("Cinder Titan", "FL", 3, 0, (45, 30, 25, 25)),
    monster("Tempest Djinn", "GA", 0, 3, (30, 30, 35, 30)),
    monster("Hive Sovereign", "IN", 1, 2, (30, 25, 40, 30)),
    # row 35: a monster requiring 1 space (1 copy per deck)
    monster("Hedge Knight", "BE", 1, 0, (20, 20, 20, 15)),
    # rows 36-37: a token and the monster that summons it
    {"name": "Wisp Token", "kind": "token", "type": "TO", "alpha": 10, "beta": 10, "gamma": 10, "delta": 10,
     "effects": "cannot attack; expire 2"},  # fmt: skip
    monster("Wisp Caller", "SP", 0, 0, (15, 15, 10, 10), "summon token Wisp Token"),
    # rows 38-48: eleven channeled effects; Ember Chant's effects sit under a bracket it lacks (info)
    channeled("Ember Chant", 1, "Alpha", "0-29: weak; 30+: strong", "0-29: st -5; 30+: foe push back 1; 60+: foe destroy"),
    channeled("Frost Chant", 1, "Beta", "0-29: weak; 30+: strong", "0-29: st -5; 30+: foe move -1"),
    channeled("Gale Chant", 1, "Gamma", "0-29: weak; 30+: strong", "0-29: st -5; 30+: move +1"),
    channeled("Stone Chant", 1, "Delta", "0-29: weak; 30+: strong", "0-29: st -5; 30+: st +5"),
    channeled("Tide Chant", 1, "Alpha; Beta", "0-29: weak; 30+: strong", "0-29: st -5; 30+: foe push back 2"),
    channeled("Void Chant", 1, "Gamma; Delta", "0-29: weak; 30+: strong", "0-29: st -5; 30+: sourcepoints -5"),
    channeled("Spark Chant", 1, "Alpha; Gamma", "0-29: weak; 30+: strong", "0-29: st -5; 30+: draw 1"),
    channeled("Moss Chant", 1, "Beta; Delta", "0-29: weak; 30+: strong", "0-29: st -5; 30+: foe st -10"),
    channeled("Ash Chant", 1, "Alpha; Delta", "0-29: weak; 30+: strong", "0-29: st -5; 30+: foe cannot attack"),
    channeled("Dusk Chant", 1, "Beta; Gamma", "0-29: weak; 30+: strong", "0-29: st -5; 30+: sourcepoints +10"),
    channeled("Star Chant", 1, "Alpha; Beta; Gamma", "0-29: weak; 30+: strong", "0-29: st -5; 30+: foe destroy"),
]


def build(out_path: Path) -> Path:
    """Write the workbook (sheet `Cards` plus a `Set` sheet) and return its path."""
    # A string starting with "=" is written as a formula: that is the formula-cell mistake (row 22).
    rows = ([card.get(header) for header in HEADERS] for card in CARDS)
    return write_card_workbook(out_path, HEADERS, rows, {"ruleset": "source", "name": "SOURCE mistakes", "version": "1"})


if __name__ == "__main__":
    print(build(Path(__file__).resolve().parent / "mistakes.xlsx"))
