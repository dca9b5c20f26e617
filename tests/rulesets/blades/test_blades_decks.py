"""Tournament decks and collections, from the document's limits, collection rule and Collection Points chart."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from workbench.cards import CardSet, Deck, Finding
from workbench.decklists import read_decklist
from workbench.rulesets.blades import RULESET as BLADES
from workbench.rulesets.blades.decks import collection_vp, collections_of
from workbench.validate import validate

MakeCardSet = Callable[..., CardSet]
MakeDeck = Callable[..., Deck]

# (name, kind, stars, elements, types)
POOL: list[tuple[str, str, int, str, str]] = [
    *[(f"Soldier {n}", "single", n, "Fire", "Soldier") for n in range(1, 10)],
    ("Water Beast", "single", 5, "Water", "Beast"),
    ("Fire Beast", "single", 6, "Fire", "Beast"),
    ("Water Soldier", "single", 7, "Water", "Soldier"),
    ("Other Soldier 2", "single", 2, "Earth", "Soldier"),
    ("Beast Soldier", "single", 8, "Water", "Soldier; Beast"),
    ("Box One", "deck_box", 2, "", ""),
    ("Box Two", "deck_box", 3, "", ""),
    ("Fire Box", "deck_box", 8, "Fire", ""),
    ("Acc One", "accessory", 1, "", ""),
    ("Acc Two", "accessory", 2, "", ""),
    ("Acc Three", "accessory", 3, "", ""),
]


@pytest.fixture
def pool(make_cardset: MakeCardSet) -> CardSet:
    rows = [
        {"name": n, "kind": k, "set": "Core", "set_kind": "core", "stars": s, "elements": e, "types": t, "copies": 3}
        for n, k, s, e, t in POOL
    ]
    return make_cardset(BLADES, rows)


def deck_findings(cardset: CardSet, deck: Deck, **options: Any) -> list[Finding]:
    return [f for f in validate(cardset, [deck], options=options).findings if f.deck]


def rules(findings: list[Finding]) -> list[tuple[str, int | None]]:
    return [(f.rule, f.row) for f in findings]


LEGAL_DECK = "\n".join([*(f"1 Soldier {n}" for n in range(1, 9)), "1 Box One", "1 Acc One", "1 Acc Two"])


def test_a_full_legal_deck_has_no_findings(pool: CardSet, make_deck: MakeDeck) -> None:
    assert deck_findings(pool, make_deck(pool, LEGAL_DECK)) == []


def test_an_empty_decklist_has_no_findings(pool: CardSet, make_deck: MakeDeck) -> None:
    assert deck_findings(pool, make_deck(pool, "# nothing yet")) == []


# "The Deck Area can contain up to eight singles, up to one Deck Box, and up to two Accessories."
@pytest.mark.parametrize(
    ("extra", "rule", "limit"),
    [
        ("1 Soldier 9", "blades.deck_singles", 8),
        ("1 Box Two", "blades.deck_boxes", 1),
        ("1 Acc Three", "blades.deck_accessories", 2),
    ],
)
def test_deck_limits(pool: CardSet, make_deck: MakeDeck, extra: str, rule: str, limit: int) -> None:
    (finding,) = deck_findings(pool, make_deck(pool, LEGAL_DECK + "\n" + extra))
    assert (finding.rule, finding.severity, finding.row, finding.column) == (rule, "error", 12, None)
    assert finding.deck == "deck"
    assert (finding.expected, finding.actual) == (f"at most {limit}", limit + 1)


def test_the_limit_finding_points_at_the_line_that_goes_over(pool: CardSet, make_deck: MakeDeck) -> None:
    text = "\n".join(f"1 Soldier {n}" for n in range(1, 10)) + "\n1 Water Beast"
    (finding,) = deck_findings(pool, make_deck(pool, text))
    assert (finding.rule, finding.row, finding.card, finding.actual) == ("blades.deck_singles", 9, "Soldier 9", 10)


# "You may only have one copy of any card in your deck!"
@pytest.mark.parametrize(("text", "line"), [("2 Soldier 1", 1), ("1 Soldier 1\n1 Soldier 2\n1 soldier 1", 3)])
def test_one_copy_of_any_card(pool: CardSet, make_deck: MakeDeck, text: str, line: int) -> None:
    (finding,) = deck_findings(pool, make_deck(pool, text))
    assert (finding.rule, finding.row, finding.card, finding.expected, finding.actual) == (
        "blades.deck_copies",
        line,
        "Soldier 1",
        1,
        2,
    )


# --- collections: "Your Collection is made up of 2-8 cards, each having at least one matching symbol with all the
# others, and each having a different star rating than all the others."


# The Collection Points chart: Cards 2 3 4 5 6 7 8+ / Victory Points 2 4 7 9 12 16 21
@pytest.mark.parametrize(("cards", "vp"), [(2, 2), (3, 4), (4, 7), (5, 9), (6, 12), (7, 16), (8, 21), (9, 21), (1, 0)])
def test_collection_points_chart(cards: int, vp: int) -> None:
    assert collection_vp(cards) == vp


@pytest.mark.parametrize(("cards", "vp"), [(2, 2), (3, 4), (4, 7), (5, 9), (6, 12), (7, 16), (8, 21)])
def test_a_valid_collection_reports_its_vp(pool: CardSet, make_deck: MakeDeck, cards: int, vp: int) -> None:
    text = "Collection:\n" + "\n".join(f"1 Soldier {n}" for n in range(1, cards + 1))
    (finding,) = deck_findings(pool, make_deck(pool, text))
    assert (finding.rule, finding.severity, finding.row) == ("blades.collection_vp", "info", 2)
    assert finding.card == "Soldier 1"
    assert f"{cards} cards" in finding.message and f": {vp} VP" in finding.message


@pytest.mark.parametrize(("cards", "line"), [(1, 2), (9, 2)])
def test_collection_size(pool: CardSet, make_deck: MakeDeck, cards: int, line: int) -> None:
    text = "Collection:\n" + "\n".join(f"1 Soldier {n}" for n in range(1, cards + 1))
    (finding,) = deck_findings(pool, make_deck(pool, text))
    assert (finding.rule, finding.severity, finding.row) == ("blades.collection_size", "error", line)
    assert (finding.expected, finding.actual) == ("2-8", cards)


@pytest.mark.parametrize(("largest", "rule"), [(8, "blades.collection_size"), (9, "blades.collection_vp")])
def test_collection_max_cards_option(pool: CardSet, make_deck: MakeDeck, largest: int, rule: str) -> None:
    text = "Collection:\n" + "\n".join(f"1 Soldier {n}" for n in range(1, 10))
    (finding,) = deck_findings(pool, make_deck(pool, text), collection_max_cards=largest)
    assert finding.rule == rule
    if rule == "blades.collection_vp":
        assert ": 21 VP" in finding.message  # the chart's 8+ column


def test_a_card_sharing_nothing_is_an_error_on_its_line(pool: CardSet, make_deck: MakeDeck) -> None:
    deck = make_deck(pool, "Collection:\n1 Soldier 1\n1 Water Beast")
    (finding,) = deck_findings(pool, deck)
    assert (finding.rule, finding.row, finding.card) == ("blades.collection_symbol", 3, "Water Beast")
    assert finding.actual == "Beast (type), Water (element)"


def test_elements_match_elements_and_types_match_types(pool: CardSet, make_deck: MakeDeck) -> None:
    # Fire Beast shares Fire with Soldier 1 and Beast with Water Beast; Water Beast and Soldier 1 share nothing.
    deck = make_deck(pool, "Collection:\n1 Soldier 1\n1 Fire Beast\n1 Water Beast")
    assert rules(deck_findings(pool, deck)) == [("blades.collection_symbol", 4)]


# A chain: Soldier 1 (Fire; Soldier), Fire Beast (Fire; Beast), Beast Soldier (Water; Soldier, Beast) share
# pairwise (Fire, Soldier, Beast) but no one symbol is on all three.
CHAIN = "Collection:\n1 Soldier 1\n1 Fire Beast\n1 Beast Soldier"


@pytest.mark.parametrize(
    ("mode", "expected"),
    [("pairwise", [("blades.collection_symbol", 4)]), ("common", [("blades.collection_symbol", 4)])],
)
def test_collection_symbol_option_on_a_set_with_no_pair(
    pool: CardSet, make_deck: MakeDeck, mode: str, expected: list[tuple[str, int]]
) -> None:
    deck = make_deck(pool, "Collection:\n1 Soldier 1\n1 Fire Beast\n1 Water Beast\n")
    # Water Beast misses Soldier 1 (pairwise) and the common Fire (common): both readings reject line 4.
    assert rules(deck_findings(pool, deck, collection_symbol=mode)) == expected


@pytest.mark.parametrize(
    ("mode", "expected"),
    [("pairwise", [("blades.collection_vp", 2)]), ("common", [("blades.collection_symbol", 4)])],
)
def test_collection_symbol_option_on_a_chain(
    pool: CardSet, make_deck: MakeDeck, mode: str, expected: list[tuple[str, int]]
) -> None:
    assert rules(deck_findings(pool, make_deck(pool, CHAIN), collection_symbol=mode)) == expected


def test_repeated_star_ratings(pool: CardSet, make_deck: MakeDeck) -> None:
    deck = make_deck(pool, "Collection:\n1 Soldier 1\n1 Soldier 2\n1 Other Soldier 2")
    (finding,) = deck_findings(pool, deck)
    assert (finding.rule, finding.row, finding.card, finding.actual) == (
        "blades.collection_stars",
        4,
        "Other Soldier 2",
        2,
    )
    assert "'Soldier 2' (line 3)" in finding.message


def test_two_copies_of_one_card_share_a_rating(pool: CardSet, make_deck: MakeDeck) -> None:
    (finding,) = deck_findings(pool, make_deck(pool, "Collection:\n2 Soldier 3"))
    assert (finding.rule, finding.row) == ("blades.collection_stars", 2)


def test_a_card_with_no_symbol_cannot_be_collected(pool: CardSet, make_deck: MakeDeck) -> None:
    deck = make_deck(pool, "Collection:\n1 Soldier 1\n1 Box One")
    assert rules(deck_findings(pool, deck)) == [("blades.collection_blank", 3)]


def test_a_deck_box_with_an_element_can_be_collected(pool: CardSet, make_deck: MakeDeck) -> None:
    deck = make_deck(pool, "Collection:\n1 Soldier 1\n1 Fire Box")
    assert rules(deck_findings(pool, deck)) == [("blades.collection_vp", 2)]


def test_each_collection_line_starts_a_new_collection(pool: CardSet, make_deck: MakeDeck) -> None:
    text = "1 Soldier 9\nCollection:\n1 Soldier 1\n1 Soldier 2\nCollection:\n1 Water Beast\n1 Water Soldier\n"
    deck = make_deck(pool, text)
    assert [[line.name for line in block] for block in collections_of(deck)] == [
        ["Soldier 1", "Soldier 2"],
        ["Water Beast", "Water Soldier"],
    ]
    # Together they would break the symbol rule; apart each is a valid 2-card collection.
    assert rules(deck_findings(pool, deck)) == [("blades.collection_vp", 3), ("blades.collection_vp", 6)]


def test_a_sheet_decklist_tells_sections_apart(pool: CardSet, tmp_path: Path) -> None:
    path = tmp_path / "sheet_deck.csv"
    path.write_text(
        "name,count,section\nSoldier 9,1,main\nSoldier 1,1,collection\nSoldier 2,1,collection\n"
        "Box One,1,main\nWater Beast,1,collection\nWater Soldier,1,collection\n",
        encoding="utf-8",
    )
    deck = read_decklist(path, pool)
    assert [len(block) for block in collections_of(deck)] == [2, 2]
    assert [f.rule for f in deck_findings(pool, deck)] == ["blades.collection_vp", "blades.collection_vp"]


@pytest.mark.parametrize(("on", "expected"), [(False, []), (True, [("blades.collection_count", 5)])])
def test_one_collection_per_decklist_option(
    pool: CardSet, make_deck: MakeDeck, on: bool, expected: list[tuple[str, int]]
) -> None:
    deck = make_deck(pool, "Collection:\n1 Soldier 1\n1 Soldier 2\nCollection:\n1 Soldier 3\n1 Soldier 4")
    found = [f for f in deck_findings(pool, deck, one_collection_per_decklist=on) if f.rule != "blades.collection_vp"]
    assert rules(found) == expected
    assert all(f.severity == "warning" and f.actual == 2 for f in found)


@pytest.mark.parametrize(
    ("counts", "expected"),
    [(False, []), (True, [("blades.deck_copies", 13), ("blades.deck_singles", 13)])],
)
def test_collection_counts_toward_deck_option(
    pool: CardSet, make_deck: MakeDeck, counts: bool, expected: list[tuple[str, int]]
) -> None:
    # A full deck, and a collection that repeats Soldier 1 and adds a ninth single.
    deck = make_deck(pool, LEGAL_DECK + "\nCollection:\n1 Soldier 1\n1 Soldier 9")
    found = [f for f in deck_findings(pool, deck, collection_counts_toward_deck=counts) if f.severity == "error"]
    assert rules(found) == expected


@pytest.mark.parametrize(
    ("scoring", "words"), [("chart", ": 7 VP by the Collection Points chart"), ("duel", ": 40 RP in Duel Mode")]
)
def test_collection_scoring_option(pool: CardSet, make_deck: MakeDeck, scoring: str, words: str) -> None:
    deck = make_deck(pool, "Collection:\n" + "\n".join(f"1 Soldier {n}" for n in range(1, 5)))
    (finding,) = deck_findings(pool, deck, collection_scoring=scoring)
    assert finding.rule == "blades.collection_vp" and words in finding.message


def test_an_unknown_name_in_a_collection_counts_but_blocks_the_vp(pool: CardSet, make_deck: MakeDeck) -> None:
    deck = make_deck(pool, "Collection:\n1 Soldier 1\n1 Soldier Too")
    # Two cards were written, so the size is fine; the unknown name is its own error and no VP is claimed.
    assert rules(deck_findings(pool, deck)) == [("blades.unknown_card", 3)]


def test_by_default_a_collection_shares_one_symbol_as_the_documents_caption_says(
    make_cardset: MakeCardSet, make_deck: MakeDeck
) -> None:
    # "each having at least one matching symbol with all the others" / "could not be part of this collection,
    # because it doesn't match the element of the collection": Fire/Soldier, Fire/Mage, Water/Soldier+Mage share
    # a symbol two by two, but no one symbol stands on all three, so by default the third card is refused.
    rows = [
        {
            "name": n,
            "kind": "single",
            "set": "Core",
            "set_kind": "core",
            "stars": s,
            "elements": e,
            "types": t,
            "copies": 3,
        }
        for n, s, e, t in [
            ("Fire Soldier", 2, "Fire", "Soldier"),
            ("Fire Mage", 3, "Fire", "Mage"),
            ("Water Duelist", 4, "Water", "Soldier; Mage"),
        ]
    ]
    cardset = make_cardset(BLADES, rows)
    deck = make_deck(cardset, "Collection:\n1 Fire Soldier\n1 Fire Mage\n1 Water Duelist")
    assert BLADES.resolve_options({})["collection_symbol"] == "common"
    assert rules(deck_findings(cardset, deck)) == [("blades.collection_symbol", 4)]
    assert rules(deck_findings(cardset, deck, collection_symbol="pairwise")) == [("blades.collection_vp", 2)]


def test_a_metagame_card_goes_in_no_deck_and_no_collection(make_cardset: MakeCardSet, make_deck: MakeDeck) -> None:
    # The metagame stacks sit "into their slots on the Aftermarket Board" and "Every Player activates the Metagame
    # Score effects for themselves": nobody owns a metagame card.
    rows = [
        {
            "name": n,
            "kind": k,
            "set": s,
            "set_kind": sk,
            "stars": st,
            "elements": "Fire",
            "types": "Soldier",
            "copies": c,
        }
        for n, k, s, sk, st, c in [
            ("Soldier 1", "single", "Core", "core", 1, 3),
            ("Soldier 2", "single", "Core", "core", 2, 3),
            ("Fire Ascendant", "metagame", "Elemental Meta", "meta", "", 1),
        ]
    ]
    cardset = make_cardset(BLADES, rows)
    deck = make_deck(cardset, "1 Soldier 1\n1 Fire Ascendant\nCollection:\n1 Soldier 2\n1 Fire Ascendant\n1 Soldier 1")
    assert rules(deck_findings(cardset, deck)) == [
        ("blades.deck_metagame", 2),
        ("blades.collection_vp", 4),  # Soldier 2 and Soldier 1: a 2-card collection without the metagame card
        ("blades.deck_metagame", 5),
    ]
