"""Deck advice: roughly 14 characters and 16 resources; characters the deck cannot pay for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from workbench.cards import CardSet, Deck, Finding
from workbench.rulesets.circles import RULESET
from workbench.validate import validate

ROWS = [
    {"name": "Pup", "kind": "character", "color": "", "red": 1, "blue": 0, "green": 0, "attack": 2, "health": 1},
    {"name": "Giant", "kind": "character", "color": "", "red": 0, "blue": 3, "green": 0, "attack": 4, "health": 5},
    {"name": "Ruby", "kind": "resource", "color": "red"},
    {"name": "Pool", "kind": "resource", "color": "blue"},
]


@pytest.fixture
def cardset(make_cardset: Callable[..., CardSet]) -> CardSet:
    return make_cardset(RULESET, ROWS)


def deck_findings(cardset: CardSet, make_deck: Callable[..., Deck], text: str, **options: Any) -> list[Finding]:
    deck = make_deck(cardset, text, name="test")
    return [f for f in validate(cardset, [deck], options).findings if f.deck]


@pytest.mark.parametrize(
    ("characters", "resources", "warned"),
    [
        (14, 16, []),  # "roughly 14 character cards, and 16 resource cards"
        (12, 18, []),  # within the default tolerance of 2
        (16, 14, []),
        (17, 16, ["character"]),
        (14, 13, ["resource"]),
        (20, 4, ["character", "resource"]),
    ],
)
def test_deck_balance_warns_outside_the_tolerance(
    cardset: CardSet, make_deck: Callable[..., Deck], characters: int, resources: int, warned: list[str]
) -> None:
    text = f"{characters - 2} Pup\n2 Giant\n{resources - 3} Ruby\n3 Pool\n"
    findings = deck_findings(cardset, make_deck, text)
    assert [f.message.split()[1] for f in findings] == warned
    for finding in findings:
        assert (finding.severity, finding.rule, finding.deck, finding.row, finding.column) == (
            "warning",
            "circles.deck_balance",
            "test",
            None,
            None,
        )


@pytest.mark.parametrize(
    ("options", "warned"),
    [
        ({}, 0),
        ({"deck_characters": 12}, 1),  # the other reading: 24 characters in total, 12 each
        ({"deck_tolerance": 0}, 2),
        ({"deck_resources": 11, "deck_tolerance": 3}, 1),
    ],
)
def test_deck_targets_are_options(
    cardset: CardSet, make_deck: Callable[..., Deck], options: dict[str, int], warned: int
) -> None:
    findings = deck_findings(cardset, make_deck, "13 Pup\n2 Giant\n11 Ruby\n4 Pool\n", **options)  # 15 and 15
    assert len(findings) == warned and all(f.rule == "circles.deck_balance" for f in findings)


def test_a_character_the_deck_cannot_pay_for_is_pointed_at_its_line(
    cardset: CardSet, make_deck: Callable[..., Deck]
) -> None:
    findings = deck_findings(cardset, make_deck, "# two blue are not three\n12 Pup\n2 Giant\n14 Ruby\n2 Pool\n")
    (finding,) = findings
    assert (finding.severity, finding.rule, finding.card, finding.row) == ("warning", "circles.unpayable", "Giant", 3)
    assert (finding.expected, finding.actual) == ({"blue": 3}, {"blue": 2})


def test_an_unknown_card_suggests_the_closest_name(cardset: CardSet, make_deck: Callable[..., Deck]) -> None:
    findings = deck_findings(cardset, make_deck, "12 Pup\n2 Gaint\n12 Ruby\n4 Pool\n")
    unknown = [f for f in findings if f.rule == "circles.unknown_card"]
    assert len(unknown) == 1 and unknown[0].row == 2 and unknown[0].expected == ["Giant"]
