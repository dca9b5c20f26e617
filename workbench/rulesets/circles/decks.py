"""Deck construction for the resource-circle game.

The document gives advice, not rules: roughly 14 characters and 16
resources per player. Straying from it is a warning. A character whose
circles of one colour outnumber the deck's resources of that colour can
never be brought into play, which is also worth a warning.
"""

from __future__ import annotations

from workbench.cards import CardSet, Deck, Finding, Options
from workbench.rulesets.circles.abilities import COLOURS, Colour
from workbench.rulesets.circles.cards import Resource
from workbench.rulesets.circles.costs import resource_colour


def check_deck(cardset: CardSet, deck: Deck, options: Options) -> list[Finding]:
    """Character and resource counts against the document's advice, and characters the deck cannot pay for."""
    findings: list[Finding] = []
    counts = deck.counts()
    characters = sum(copies for entry, copies, _ in counts.values() if entry.card.kind == "character")
    resources: dict[Colour, int] = {colour: 0 for colour in COLOURS}
    for entry, copies, _ in counts.values():
        colour = resource_colour(entry.card) if isinstance(entry.card, Resource) else None
        if colour is not None:
            resources[colour] += copies
    resource_total = sum(copies for entry, copies, _ in counts.values() if entry.card.kind == "resource")
    tolerance = int(options["deck_tolerance"])
    for label, have, target in (
        ("character", characters, int(options["deck_characters"])),
        ("resource", resource_total, int(options["deck_resources"])),
    ):
        if abs(have - target) > tolerance:
            findings.append(
                deck.finding(
                    "warning",
                    "circles.deck_balance",
                    f"{have} {label} cards; the document advises roughly {target} (within {tolerance}).",
                    expected=f"{target - tolerance}-{target + tolerance}",
                    actual=have,
                )
            )
    for entry, _copies, line_number in counts.values():
        card = entry.card
        if card.kind != "character":
            continue
        short = {c: getattr(card, c) for c in COLOURS if getattr(card, c) > resources[c]}
        if short:
            line = next(line for line in deck.section() if line.line == line_number)
            needs = " and ".join(f"{n} {c}" for c, n in short.items())
            has = " and ".join(f"{resources[c]} {c}" for c in short)
            findings.append(
                deck.finding(
                    "warning",
                    "circles.unpayable",
                    f"needs {needs} resources but the deck has {has}, so it can never be brought into play.",
                    line,
                    expected={c: n for c, n in short.items()},
                    actual={c: resources[c] for c in short},
                )
            )
    return findings
