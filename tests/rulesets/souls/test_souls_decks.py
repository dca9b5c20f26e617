"""Deck warnings that rest on the rule-options ledger (the document has no construction rules), and card names."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from workbench.cards import CardSet, Deck, Finding
from workbench.rulesets.souls import RULESET as SOULS
from workbench.validate import validate

ROWS = [
    {"name": "Imp", "kind": "monster", "soul_cost": 0, "atk": 3, "def": 2, "abilities": "Atk"},
    {"name": "Wolf", "kind": "monster", "soul_cost": 1, "atk": 5, "def": 5, "abilities": "Atk"},
    {"name": "Golem", "kind": "monster", "soul_cost": 4, "atk": 8, "def": 12, "abilities": "Atk"},
    {"name": "Charm", "kind": "magic", "abilities": "Effect", "effects": "damage 4"},
]


@pytest.fixture
def cardset(make_cardset: Callable[..., CardSet]) -> CardSet:
    return make_cardset(SOULS, ROWS)


def deck_findings(cardset: CardSet, deck: Deck, rule: str, **options: Any) -> list[Finding]:
    return [f for f in validate(cardset, [deck], options).findings if f.rule == rule]


@pytest.mark.parametrize(
    ("text", "deck_size", "warned"),
    [
        ("10 Imp\n10 Wolf\n10 Charm", 30, False),
        ("10 Imp\n10 Wolf\n9 Charm", 30, True),
        ("10 Imp\n10 Wolf\n11 Charm", 30, True),
        ("10 Imp\n10 Wolf\n9 Charm", 29, False),
        ("2 Imp", 0, False),  # 0 turns the warning off
    ],
)
def test_deck_size_follows_the_ledger(
    cardset: CardSet, make_deck: Callable[..., Deck], text: str, deck_size: int, warned: bool
) -> None:
    deck = make_deck(cardset, text, name="mine")
    findings = deck_findings(cardset, deck, "souls.deck_size", deck_size=deck_size)
    assert bool(findings) is warned
    if warned:
        (finding,) = findings
        assert (finding.severity, finding.deck, finding.sheet, finding.row, finding.column) == (
            "warning",
            "mine",
            "mine.txt",
            None,
            None,
        )
        assert (finding.expected, finding.actual) == (deck_size, deck.size())


@pytest.mark.parametrize(
    ("text", "sacrifice_from", "severity"),
    [
        ("15 Wolf\n15 Golem", "field", "warning"),  # nothing can ever be summoned
        ("15 Wolf\n15 Golem", "hand", "info"),  # every summon costs hand cards first
        ("15 Wolf\n15 Golem", "either", "info"),
        ("1 Imp\n14 Wolf\n15 Golem", "field", None),
        ("1 Imp\n14 Wolf\n15 Golem", "either", None),
        ("30 Charm", "field", None),  # no monsters at all: nothing to summon, nothing to say
    ],
)
def test_a_deck_without_a_free_summon(
    cardset: CardSet, make_deck: Callable[..., Deck], text: str, sacrifice_from: str, severity: str | None
) -> None:
    findings = deck_findings(cardset, make_deck(cardset, text), "souls.no_free_summon", sacrifice_from=sacrifice_from)
    assert [f.severity for f in findings] == ([severity] if severity else [])
    if findings:
        assert findings[0].actual == "cheapest monster costs 1" and (findings[0].row, findings[0].column) == (
            None,
            None,
        )


def test_unknown_card_is_an_error_at_its_line_with_the_closest_name(
    cardset: CardSet, make_deck: Callable[..., Deck]
) -> None:
    deck = make_deck(cardset, "10 Imp\n10 Wolf\n10 Golme", name="typo")
    report = validate(cardset, [deck])
    (finding,) = [f for f in report.findings if f.severity == "error"]
    assert (finding.rule, finding.deck, finding.row, finding.card) == ("souls.unknown_card", "typo", 3, "Golme")
    assert "Did you mean 'Golem'" in finding.message
