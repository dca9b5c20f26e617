"""Deck construction for the soul-cost game.

The document states no deck-construction rule (no size, no copy limit). Two
warnings rest on the rule-options ledger instead, so a designer's decks fit
the way the simulator plays them:

- `souls.deck_size`: a deck whose size is not the `deck_size` reading (30).
- `souls.no_free_summon`: with sacrifices taken from the field (the default
  reading of `sacrifice_from`), a deck without a soul-cost-0 monster can never
  summon anything, because every summon needs monsters already in play.

Unknown card names are the shared `souls.unknown_card` error, made when the
decklist is read.
"""

from __future__ import annotations

from typing import cast

from workbench.cards import CardSet, Deck, Finding, Options
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
    if options["sacrifice_from"] == "field" and monsters and not any(card.soul_cost == 0 for card in monsters):
        cheapest = min(card.soul_cost for card in monsters)
        findings.append(
            deck.finding(
                "warning",
                "souls.no_free_summon",
                "no monster in this deck has soul cost 0, so with sacrifices taken from the field "
                "(option sacrifice_from=field) nothing can ever be summoned.",
                expected="at least one soul-cost-0 monster",
                actual=f"cheapest monster costs {cheapest}",
            )
        )
    return findings
