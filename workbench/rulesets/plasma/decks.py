"""Plasma deck construction: exactly 40 cards, at most 4 copies of a card, and the optional 3-subtype rule."""

from __future__ import annotations

from workbench.cards import CardEntry, CardSet, Deck, DeckLine, Finding, Options
from workbench.rulesets.plasma.cards import PlasmaCard

DECK_SIZE = 40
"""Two decks of exactly 40 cards."""
COPIES_MAX = 4
"""No more than 4 copies of a single card in the deck."""
SUBTYPES_MAX = 3
"""You can only have 3 card subtypes on your deck (only with the `subtype_rule` option)."""


def check_deck(cardset: CardSet, deck: Deck, options: Options) -> list[Finding]:
    """Deck size, copies per card, and (with `subtype_rule`) the number of distinct subtypes."""
    findings: list[Finding] = []
    size = deck.size()
    if size != DECK_SIZE:
        findings.append(
            deck.finding(
                "error",
                "plasma.deck_size",
                f"the deck has {size} cards; a deck holds exactly {DECK_SIZE}.",
                expected=DECK_SIZE,
                actual=size,
            )
        )
    counts = deck.counts()
    for _entry, copies, first in counts.values():
        if copies > COPIES_MAX:
            findings.append(
                deck.finding(
                    "error",
                    "plasma.copies",
                    f"{copies} copies; no more than {COPIES_MAX} copies of a single card are allowed.",
                    _line(deck, first),
                    expected=COPIES_MAX,
                    actual=copies,
                )
            )
    if options["subtype_rule"]:
        findings.extend(_check_subtypes(deck, counts))
    return findings


def _line(deck: Deck, number: int) -> DeckLine:
    return next(line for line in deck.lines if line.line == number)


def _subtype(entry: CardEntry) -> str:
    return entry.card.subtype.strip() if isinstance(entry.card, PlasmaCard) else ""


def _check_subtypes(deck: Deck, counts: dict[str, tuple[CardEntry, int, int]]) -> list[Finding]:
    first_line_of: dict[str, int] = {}
    for entry, _copies, first in sorted(counts.values(), key=lambda item: item[2]):
        subtype = _subtype(entry)
        if subtype:
            first_line_of.setdefault(subtype.casefold(), first)
    if len(first_line_of) <= SUBTYPES_MAX:
        return []
    names = []
    for entry, _copies, first in sorted(counts.values(), key=lambda item: item[2]):
        subtype = _subtype(entry)
        if subtype and subtype.casefold() in first_line_of and first_line_of[subtype.casefold()] == first:
            names.append(subtype)
    # Point at the line that brings in the fourth subtype: that is the card to reconsider.
    fourth = sorted(first_line_of.values())[SUBTYPES_MAX]
    return [
        deck.finding(
            "error",
            "plasma.subtypes",
            f"the deck mixes {len(names)} subtypes ({', '.join(names)}); with subtype_rule on, a deck holds at most "
            f"{SUBTYPES_MAX}.",
            _line(deck, fourth),
            expected=SUBTYPES_MAX,
            actual=len(names),
        )
    ]
