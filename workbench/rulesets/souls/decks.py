"""Deck construction for the soul-cost game.

The document states no deck-construction rule (no size, no copy limit). Two
findings rest on the rule-options ledger instead, so a designer's decks fit the
way the simulator plays them:

- `souls.deck_size` (warning): a deck whose size is not the `deck_size`
  reading (30).
- `souls.no_free_summon`: a deck with monsters but no soul-cost-0 monster. With
  sacrifices taken only from the field (`sacrifice_from=field`) nothing in it
  can ever be summoned: a warning. Under the other readings every summon costs
  cards from the hand first: an info.

Unknown card names are the shared `souls.unknown_card` error, made when the
decklist is read.
"""

from __future__ import annotations

from typing import cast

from workbench.cards import CardSet, Deck, Finding, Options, Severity
from workbench.rulesets.souls.cards import SoulsCard


def check_deck(cardset: CardSet, deck: Deck, options: Options) -> list[Finding]:
    """Deck size against the ledger's reading, and whether anything can be summoned at all."""
    findings: list[Finding] = []
    wanted = int(options["deck_size"])
    size = deck.size()
    if wanted > 0 and size != wanted:
        findings.append(
            deck.finding(
                "warning",
                "souls.deck_size",
                f"the deck has {size} cards; the ledger's reading (option deck_size) is {wanted}.",
                expected=wanted,
                actual=size,
            )
        )
    cards = [cast(SoulsCard, line.entry.card) for line in deck.section() if line.entry is not None]
    monsters = [card for card in cards if card.kind == "monster"]
    if monsters and not any(card.soul_cost == 0 for card in monsters):
        cheapest = min(card.soul_cost for card in monsters)
        severity: Severity
        if options["sacrifice_from"] == "field":
            severity = "warning"
            message = (
                "no monster in this deck has soul cost 0, so with sacrifices taken only from the field "
                "(option sacrifice_from=field) nothing can ever be summoned."
            )
        else:
            severity = "info"
            message = (
                "no monster in this deck has soul cost 0, so every summon sacrifices cards from the hand first "
                "(and with option sacrifice_from=field nothing could be summoned at all)."
            )
        findings.append(
            deck.finding(
                severity,
                "souls.no_free_summon",
                message,
                expected="at least one soul-cost-0 monster",
                actual=f"cheapest monster costs {cheapest}",
            )
        )
    return findings
