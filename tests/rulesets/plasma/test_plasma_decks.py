"""Plasma deck construction, from the document's numbers: exactly 40 cards, at most 4 copies, 3 subtypes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from workbench.cards import CardSet, Deck
from workbench.cli import main
from workbench.paths import bundled_decks, bundled_sets
from workbench.rulesets.plasma import RULESET
from workbench.validate import validate

SUBTYPES = ["Drone", "Beast", "Warden", "Wraith", "Golem"]
ROWS: list[dict[str, Any]] = [
    {"name": f"{subtype} {n}", "kind": "creature", "cost": n, "power": n + 1, "resolve": n, "subtype": subtype}
    for subtype in SUBTYPES
    for n in range(1, 4)
] + [
    {"name": "Bolt", "kind": "event", "cost": 2, "effects": "damage 3"},
    {"name": "Lowercase Drone", "kind": "creature", "cost": 1, "power": 2, "resolve": 1, "subtype": "drone"},
]


@pytest.fixture
def cardset(make_cardset: Callable[..., CardSet]) -> CardSet:
    return make_cardset(RULESET, ROWS)


def deck_findings(cardset: CardSet, deck: Deck, **options: Any) -> list[Any]:
    return [f for f in validate(cardset, [deck], options).findings if f.deck]


def decklist(counts: list[tuple[int, str]]) -> str:
    return "\n".join(f"{count} {name}" for count, name in counts)


@pytest.mark.parametrize(("size", "error"), [(39, True), (40, False), (41, True), (20, True), (60, True)])
def test_a_deck_holds_exactly_40_cards(
    cardset: CardSet, make_deck: Callable[..., Deck], size: int, error: bool
) -> None:
    counts: list[tuple[int, str]] = []
    remaining = size
    for row in ROWS:
        if remaining:
            counts.append((min(4, remaining), row["name"]))
            remaining -= counts[-1][0]
    deck = make_deck(cardset, decklist(counts), name="sized")
    assert deck.size() == size
    found = [f for f in deck_findings(cardset, deck) if f.rule == "plasma.deck_size"]
    if not error:
        assert found == []
        return
    [finding] = found
    assert (finding.severity, finding.deck, finding.row, finding.column) == ("error", "sized", None, None)
    assert (finding.expected, finding.actual) == (40, size)


@pytest.mark.parametrize(("copies", "error"), [(1, False), (4, False), (5, True), (8, True)])
def test_no_more_than_4_copies_of_a_single_card(
    cardset: CardSet, make_deck: Callable[..., Deck], copies: int, error: bool
) -> None:
    text = "# copies\n" + decklist([(copies, "Drone 1"), (4, "Drone 2")])
    found = [f for f in deck_findings(cardset, make_deck(cardset, text, name="copies")) if f.rule == "plasma.copies"]
    if not error:
        assert found == []
        return
    [finding] = found
    assert (finding.card, finding.row, finding.expected, finding.actual) == ("Drone 1", 2, 4, copies)


def test_copies_on_separate_lines_add_up_and_the_first_line_is_named(
    cardset: CardSet, make_deck: Callable[..., Deck]
) -> None:
    deck = make_deck(cardset, "3 Drone 1\n2 Beast 1\n2 Drone 1")
    [finding] = [f for f in deck_findings(cardset, deck) if f.rule == "plasma.copies"]
    assert (finding.row, finding.actual) == (1, 5)


FOUR_SUBTYPES = [(4, "Drone 1"), (4, "Beast 1"), (4, "Warden 1"), (4, "Bolt"), (4, "Wraith 1"), (4, "Drone 2")]


@pytest.mark.parametrize(
    ("counts", "subtype_rule", "error_line"),
    [
        (FOUR_SUBTYPES, False, None),  # the document: "this rule can and should be ignored" (default)
        (FOUR_SUBTYPES, True, 5),  # the line bringing in the fourth subtype
        ([(4, "Drone 1"), (4, "Beast 1"), (4, "Warden 1"), (4, "Bolt"), (4, "Drone 3")], True, None),  # 3 is allowed
        ([(4, "Drone 1"), (4, "Lowercase Drone"), (4, "Beast 1"), (4, "Warden 1")], True, None),  # case-insensitive
    ],
)
def test_the_three_subtype_rule_is_an_option_off_by_default(
    cardset: CardSet,
    make_deck: Callable[..., Deck],
    counts: list[tuple[int, str]],
    subtype_rule: bool,
    error_line: int | None,
) -> None:
    deck = make_deck(cardset, decklist(counts), name="subtypes")
    found = [f for f in deck_findings(cardset, deck, subtype_rule=subtype_rule) if f.rule == "plasma.subtypes"]
    if error_line is None:
        assert found == []
        return
    [finding] = found
    assert (finding.severity, finding.row, finding.card, finding.expected, finding.actual) == (
        "error",
        error_line,
        "Wraith 1",
        3,
        4,
    )
    assert "Drone, Beast, Warden, Wraith" in finding.message


def test_an_unknown_card_name_suggests_the_closest(cardset: CardSet, make_deck: Callable[..., Deck]) -> None:
    deck = make_deck(cardset, "4 Drone 1\n2 Dronne 2")
    [finding] = [f for f in deck_findings(cardset, deck) if f.rule == "plasma.unknown_card"]
    assert (finding.row, finding.card) == (2, "Dronne 2") and "Drone 2" in finding.expected


@pytest.mark.parametrize(("option", "code"), [("subtype_rule=false", 0), ("subtype_rule=true", 1)])
def test_subtype_rule_toggles_from_the_command_line(tmp_path: Any, option: str, code: int, capsys: Any) -> None:
    deck = tmp_path / "five_subtypes.txt"
    deck.write_text(
        "4 Spark Drone\n4 Arc Hound\n4 Shield Cadet\n4 Glimmer Moth\n4 Cliff Golem\n"
        "4 Rivet Drone\n4 Volt Jackal\n4 Bastion Page\n4 Hollow Shade\n4 Quarry Golem\n",
        encoding="utf-8",
    )
    argv = ["validate", str(bundled_sets("plasma")[0]), "--deck", str(deck), "--option", option]
    assert main(argv) == code, capsys.readouterr()


def test_the_bundled_decks_are_legal_even_with_the_subtype_rule() -> None:
    from workbench.decklists import read_decklist
    from workbench.loading import load_cardset

    cardset = load_cardset(bundled_sets("plasma")[0], RULESET)
    for path in bundled_decks("plasma"):
        deck = read_decklist(path, cardset)
        assert deck.size() == 40
        assert [f.to_text() for f in validate(cardset, [deck], {"subtype_rule": True}).findings if f.deck] == []
