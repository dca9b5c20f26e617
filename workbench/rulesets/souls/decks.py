"""Deck construction for the soul-cost game.

The document states no deck-construction rule (no size, no copy limit), so
the only deck finding is the shared one for unknown card names, made when the
decklist is read. The engine's deck size and hand size are rule options of the
simulator, not construction rules.
"""

from __future__ import annotations

from workbench.cards import CardSet, Deck, Finding, Options


def check_deck(cardset: CardSet, deck: Deck, options: Options) -> list[Finding]:
    """No construction rule exists in the document; nothing to check beyond card names."""
    return []
