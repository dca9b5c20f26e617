"""Tournament decks and collections for Millennium Blades.

A decklist's main section is the tournament deck: up to eight singles, up to
one deck box and up to two accessories, and only one copy of any card. Each
`Collection:` line starts a collection: 2-8 cards, each sharing at least one
element or type with all the others, each with a different star rating; a card
with neither an element nor a type cannot be in one. A valid collection's
Victory Points from the document's chart are reported as an `info` finding.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from workbench.cards import CardSet, Deck, DeckLine, Finding, Options
from workbench.rulesets.blades.cards import BladesCard, card_of

DECK_LIMITS: dict[str, int] = {"single": 8, "deck_box": 1, "accessory": 2}
"""The most cards of each kind a tournament deck holds."""
DECK_RULE_IDS: dict[str, str] = {
    "single": "blades.deck_singles",
    "deck_box": "blades.deck_boxes",
    "accessory": "blades.deck_accessories",
}
"""The rule id of each kind's limit."""
KIND_NOUNS: dict[str, tuple[str, str]] = {
    "single": ("single", "singles"),
    "deck_box": ("deck box", "deck boxes"),
    "accessory": ("accessory", "accessories"),
}
"""Each kind's name in a sentence, singular and plural."""
COPIES_PER_CARD = 1
"""'You may only have one copy of any card in your deck!'"""

COLLECTION_MIN_CARDS = 2
"""The fewest cards in a collection."""
COLLECTION_VP_CHART: tuple[tuple[int, int], ...] = ((2, 2), (3, 4), (4, 7), (5, 9), (6, 12), (7, 16), (8, 21))
"""The document's Collection Points chart: (cards, VP); the last column reads `8+`."""
DUEL_RP_PER_CARD = 10
"""Duel Mode converts a collection to 10 RP per card instead of VP."""


@dataclass(frozen=True)
class CollectionCard:
    """One copy of a card in a collection, with the decklist line it came from."""

    card: BladesCard
    """The card."""
    line: DeckLine
    """The decklist line that put it in the collection."""


def collection_vp(cards: int) -> int:
    """Victory Points for a collection of `cards` cards by the chart (0 below 2 cards; 8 and up score as 8+)."""
    if cards < COLLECTION_MIN_CARDS:
        return 0
    points = dict(COLLECTION_VP_CHART)
    return points[min(cards, COLLECTION_VP_CHART[-1][0])]


def check_deck(cardset: CardSet, deck: Deck, options: Options) -> list[Finding]:
    """The tournament deck's limits, then every collection in the decklist."""
    collections = collections_of(deck)
    deck_lines = [line for line in deck.lines if line.entry is not None and line.section == "main"]
    if options["collection_counts_toward_deck"]:
        deck_lines = [line for line in deck.lines if line.entry is not None]
    findings = _check_metagame(deck) + _check_limits(deck, deck_lines) + _check_copies(deck, deck_lines)
    for number, collection in enumerate(collections):
        findings.extend(_check_collection(deck, collection, options))
        if number == 1 and options["one_collection_per_decklist"]:
            findings.append(
                deck.finding(
                    "warning",
                    "blades.collection_count",
                    f"this decklist holds {len(collections)} collections; a player builds one per deckbuilding phase.",
                    collection[0],
                    expected=1,
                    actual=len(collections),
                )
            )
    return findings


def _check_metagame(deck: Deck) -> list[Finding]:
    """Metagame cards sit on the Aftermarket Board and belong to no player: they go in no deck and no collection."""
    return [
        deck.finding(
            "error",
            "blades.deck_metagame",
            "is a metagame card: the metagame stacks sit on the Aftermarket Board and every player scores the "
            "revealed card, so it is in no deck or collection.",
            line,
            expected="a single, deck box or accessory",
            actual="metagame",
        )
        for line in deck.lines
        if line.entry is not None and card_of(line.entry).kind == "metagame"
    ]


def collections_of(deck: Deck) -> list[list[DeckLine]]:
    """Each `Collection:` block's lines (unknown names included), in decklist order; empty blocks are left out."""
    blocks: dict[int, list[DeckLine]] = defaultdict(list)
    for line in deck.lines:
        if line.section == "collection":
            blocks[line.group].append(line)
    return [blocks[group] for group in sorted(blocks)]


def _copies(lines: list[DeckLine]) -> list[tuple[DeckLine, BladesCard]]:
    return [(line, card_of(line.entry)) for line in lines if line.entry is not None for _ in range(line.count)]


def _check_limits(deck: Deck, lines: list[DeckLine]) -> list[Finding]:
    findings: list[Finding] = []
    by_kind: dict[str, list[DeckLine]] = defaultdict(list)
    for line, card in _copies(lines):
        by_kind[card.kind].append(line)
    for kind, limit in DECK_LIMITS.items():
        copies = by_kind.get(kind, [])
        if len(copies) <= limit:
            continue
        singular, plural = KIND_NOUNS[kind]
        allowed = f"{limit} {singular if limit == 1 else plural}"
        findings.append(
            deck.finding(
                "error",
                DECK_RULE_IDS[kind],
                f"the deck holds {len(copies)} {plural}; a deck holds at most {allowed} (this line goes over).",
                copies[limit],
                expected=f"at most {limit}",
                actual=len(copies),
            )
        )
    return findings


def _check_copies(deck: Deck, lines: list[DeckLine]) -> list[Finding]:
    seen: dict[str, int] = defaultdict(int)
    over_at: dict[str, DeckLine] = {}
    for line, card in _copies(lines):
        seen[card.name] += 1
        if seen[card.name] > COPIES_PER_CARD and card.name not in over_at:
            over_at[card.name] = line
    return [
        deck.finding(
            "error",
            "blades.deck_copies",
            f"the deck holds {seen[name]} copies of '{name}'; a deck holds only one copy of any card.",
            line,
            expected=COPIES_PER_CARD,
            actual=seen[name],
        )
        for name, line in over_at.items()
    ]


def _check_collection(deck: Deck, lines: list[DeckLine], options: Options) -> list[Finding]:
    # A metagame line has its own error (blades.deck_metagame); the collection is judged without it.
    lines = [line for line in lines if line.entry is None or card_of(line.entry).kind != "metagame"]
    if not lines:
        return []
    cards = [CollectionCard(card, line) for line, card in _copies(lines)]
    findings: list[Finding] = []
    for item in cards:
        if not item.card.symbols:
            findings.append(
                deck.finding(
                    "error",
                    "blades.collection_blank",
                    f"'{item.card.name}' has neither an element nor a type, so it cannot be part of a collection.",
                    item.line,
                    expected="a card with an element or a type",
                    actual="no element, no type",
                )
            )
    findings.extend(_check_collection_stars(deck, cards))
    symbol_cards = [item for item in cards if item.card.symbols]
    if options["collection_symbol"] == "common":
        findings.extend(_check_common_symbol(deck, symbol_cards))
    else:
        findings.extend(_check_pairwise_symbols(deck, symbol_cards))
    largest = int(options["collection_max_cards"])
    # A name the set lacks is still a card the designer put in the collection (its own error says which).
    size = sum(line.count for line in lines)
    if not COLLECTION_MIN_CARDS <= size <= largest:
        findings.append(
            deck.finding(
                "error",
                "blades.collection_size",
                f"this collection has {size} {'card' if size == 1 else 'cards'}; a collection is made up of "
                f"{COLLECTION_MIN_CARDS}-{largest} cards.",
                lines[0],
                expected=f"{COLLECTION_MIN_CARDS}-{largest}",
                actual=size,
            )
        )
    complete = all(line.entry is not None for line in lines)
    if not findings and complete:
        findings.append(_collection_score(deck, cards, lines[0], str(options["collection_scoring"])))
    return findings


def _check_collection_stars(deck: Deck, cards: list[CollectionCard]) -> list[Finding]:
    findings: list[Finding] = []
    first_at: dict[int, CollectionCard] = {}
    for item in cards:
        earlier = first_at.setdefault(item.card.stars, item)
        if earlier is item:
            continue
        same = "another copy of it" if earlier.card.name == item.card.name else f"'{earlier.card.name}'"
        findings.append(
            deck.finding(
                "error",
                "blades.collection_stars",
                f"'{item.card.name}' has {item.card.stars} stars, like {same} (line {earlier.line.line}); every card "
                "of a collection has a different star rating.",
                item.line,
                expected="a star rating no other card of the collection has",
                actual=item.card.stars,
            )
        )
    return findings


def _symbol_names(symbols: frozenset[tuple[str, str]], card: BladesCard) -> str:
    """`Dark (element), Soldier (type)`, spelt as `card` spells them (symbols compare case-folded)."""
    spelling = {("element", e.casefold()): e for e in card.elements} | {("type", t.casefold()): t for t in card.types}
    named = sorted((spelling.get(symbol, symbol[1]), symbol[0]) for symbol in symbols)
    return ", ".join(f"{name} ({category})" for name, category in named)


def _check_pairwise_symbols(deck: Deck, cards: list[CollectionCard]) -> list[Finding]:
    findings: list[Finding] = []
    for index, item in enumerate(cards):
        strangers = [other for other in cards[:index] if not item.card.symbols & other.card.symbols]
        if not strangers:
            continue
        names = ", ".join(f"'{other.card.name}'" for other in strangers)
        findings.append(
            deck.finding(
                "error",
                "blades.collection_symbol",
                f"'{item.card.name}' shares no element or type with {names}; every card of a collection shares at "
                "least one with all the others.",
                item.line,
                expected="a shared element or type with " + names,
                actual=_symbol_names(item.card.symbols, item.card),
            )
        )
    return findings


def _check_common_symbol(deck: Deck, cards: list[CollectionCard]) -> list[Finding]:
    if not cards:
        return []
    common = cards[0].card.symbols
    for item in cards[1:]:
        narrowed = common & item.card.symbols
        if narrowed:
            common = narrowed
            continue
        return [
            deck.finding(
                "error",
                "blades.collection_symbol",
                f"'{item.card.name}' has none of the symbols all the cards before it share "
                f"({_symbol_names(common, cards[0].card)}); a collection is built around one element or type.",
                item.line,
                expected="one of: " + _symbol_names(common, cards[0].card),
                actual=_symbol_names(item.card.symbols, item.card),
            )
        ]
    return []


def _collection_score(deck: Deck, cards: list[CollectionCard], first: DeckLine, scoring: str) -> Finding:
    shared = frozenset.intersection(*(item.card.symbols for item in cards))
    around = f" around {_symbol_names(shared, cards[0].card)}" if shared else ""
    if scoring == "duel":
        rp = DUEL_RP_PER_CARD * len(cards)
        message = f"a valid collection of {len(cards)} cards{around}: {rp} RP in Duel Mode (10 RP per card)."
    else:
        vp = collection_vp(len(cards))
        message = f"a valid collection of {len(cards)} cards{around}: {vp} VP by the Collection Points chart."
    return deck.finding("info", "blades.collection_vp", message, first)
