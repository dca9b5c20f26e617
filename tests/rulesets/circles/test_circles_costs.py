"""The circle budget, from the document's own numbers: 1/2/3 base resources give 3/6/9 points, 5 circles, 24
abilities."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from workbench.cards import CardSet, Finding
from workbench.rulesets.circles import RULESET
from workbench.rulesets.circles.abilities import ABILITIES, find_ability
from workbench.rulesets.circles.costs import stat_budget
from workbench.validate import validate

MakeCardSet = Callable[..., CardSet]

# The document's list, transcribed by hand (left column = circles of the heading's colour), so the data table is
# checked against the text rather than against itself.
DOCUMENT_LIST: list[tuple[str, str, int]] = [
    ("Armor Piercing 1", "red", 1),
    ("Armor Piercing 2", "red", 2),
    ("Self Destruct", "red", 2),
    ("Attack Boost 1", "red", 1),
    ("Attack Boost 2", "red", 2),
    ("Target", "red", 1),
    ("Fireball", "red", 1),
    ("Long Range", "red", 3),
    ("Armor 1", "blue", 2),
    ("Armor 2", "blue", 3),
    ("Heal 1", "blue", 1),
    ("Heal 2", "blue", 2),
    ("Defender", "blue", 1),
    ("Disperse", "blue", 1),
    ("Avoid Damage", "blue", 2),
    ("Serenity", "blue", 3),
    ("Fast", "green", 1),
    ("Restore", "green", 2),
    ("Future Vision", "green", 1),
    ("Change the Future", "green", 2),
    ("Reflect", "green", 1),
    ("Reorder", "green", 1),
    ("Extra Card", "green", 3),
    ("Sleep", "green", 1),
]
ACTIVATION_COSTS: dict[str, int] = {
    "Self Destruct": 1,
    "Attack Boost 2": 1,
    "Target": 1,
    "Fireball": 1,
    "Long Range": 3,
    "Heal 1": 1,
    "Heal 2": 2,
    "Disperse": 1,
    "Avoid Damage": 2,
    "Restore": 2,
    "Future Vision": 1,
    "Change the Future": 2,
    "Reorder": 1,
    "Sleep": 1,
}


def character(
    name: str = "Hero",
    red: int = 0,
    blue: int = 0,
    green: int = 0,
    attack: int = 1,
    health: int = 2,
    abilities: str = "",
) -> dict[str, Any]:
    return {
        "name": name,
        "kind": "character",
        "color": "",
        "red": red,
        "blue": blue,
        "green": green,
        "attack": attack,
        "health": health,
        "abilities": abilities,
    }


def resource(name: str, color: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "kind": "resource", "color": color, **extra}


def findings_for(make_cardset: MakeCardSet, rows: list[dict[str, Any]], **options: Any) -> list[Finding]:
    cardset = make_cardset(RULESET, rows)
    assert not cardset.load_findings, [f.to_text() for f in cardset.load_findings]
    return validate(cardset, options=options).findings


def test_the_data_table_is_the_documents_list() -> None:
    assert [(a.name, a.colour, a.circles) for a in ABILITIES] == DOCUMENT_LIST
    assert {a.name: a.activation for a in ABILITIES if a.activation} == ACTIVATION_COSTS
    assert [a.name for a in ABILITIES if a.discards_itself] == ["Serenity"]


def test_the_documents_worked_example_is_valid_with_one_point_unspent(make_cardset: MakeCardSet) -> None:
    # "you pick “2 Resources (Red)” and give the card 3 Attack, 2 Health. You then give it Defender.
    #  This card would cost 2 Red, 1 Blue, to bring into play."
    (finding,) = findings_for(
        make_cardset, [character("Example", red=2, blue=1, attack=3, health=2, abilities="Defender")]
    )
    assert (finding.severity, finding.rule, finding.row, finding.column) == (
        "warning",
        "circles.unspent_points",
        2,
        "attack",
    )
    assert (finding.expected, finding.actual) == (6, 5)
    assert "1 point unspent" in finding.message


@pytest.mark.parametrize(
    ("circles", "attack", "health"),
    [
        ({"red": 1}, 2, 1),  # "1 Resource (any color): 3 points to distribute"
        ({"blue": 1}, 1, 2),
        ({"red": 2}, 3, 3),  # "You could decide to give your character 3 Attack, 3 Health."
        ({"red": 2}, 2, 4),  # "Or 2 Attack and 4 Health."
        ({"red": 1, "green": 1}, 5, 1),  # "2 Resources (any colors)"
        ({"blue": 3}, 4, 5),  # "3 Resources (any colors): 9 points"
        ({"red": 1, "blue": 1, "green": 1}, 1, 8),
    ],
)
def test_base_resources_spending_every_point_are_clean(
    make_cardset: MakeCardSet, circles: dict[str, int], attack: int, health: int
) -> None:
    assert findings_for(make_cardset, [character("Hero", attack=attack, health=health, abilities="", **circles)]) == []


@pytest.mark.parametrize(("name", "colour", "cost"), DOCUMENT_LIST)
def test_each_ability_fills_its_circles_in_its_colour(
    make_cardset: MakeCardSet, name: str, colour: str, cost: int
) -> None:
    # One base resource of another colour (3 points) plus the ability's circles in its colour: exactly on budget.
    circles = {"red": 0, "blue": 0, "green": 0}
    circles["blue" if colour == "red" else "red"] = 1
    circles[colour] += cost
    assert findings_for(make_cardset, [character("Hero", attack=2, health=1, abilities=name, **circles)]) == []
    # One circle short in the ability's colour: the colour does not cover it.
    short = dict(circles)
    short[colour] -= 1
    rules = {
        f.rule for f in findings_for(make_cardset, [character("Hero", attack=2, health=1, abilities=name, **short)])
    }
    assert rules == {"circles.ability_colour"}


@pytest.mark.parametrize(
    ("circles", "abilities", "attack", "health", "rule", "column", "expected", "actual"),
    [
        # "if you had chosen “2 Resources (Red)”, you would have 3 more Circles to fill in": a sixth is too many.
        ({"red": 2, "blue": 4}, "Armor 2; Defender", 3, 3, "circles.too_many_circles", "blue", "<= 5", 6),
        ({"red": 3, "blue": 3}, "Armor 2", 5, 4, "circles.too_many_circles", "red", "<= 5", 6),  # a tie points at red
        # 4 circles and no ability: 4 base resources is not one of the three choices.
        ({"red": 4}, "", 6, 6, "circles.base_resources", "red", "1, 2 or 3", 4),
        # Extra Card fills all 3 green circles: no base resource is left.
        ({"green": 3}, "Extra Card", 1, 1, "circles.base_resources", "green", "1, 2 or 3", 0),
        # Fireball is red; the card has no red circle.
        ({"blue": 2}, "Fireball", 2, 1, "circles.ability_colour", "red", ">= 1", 0),
        # 2 base resources give 6 points, not 7.
        ({"red": 2}, "", 4, 3, "circles.over_budget", "attack", "<= 6", 7),
        # "A Character must have at least 1 Health, and at least 1 Attack."
        ({"red": 1}, "", 0, 3, "circles.minimum_stats", "attack", ">= 1", 0),
        ({"red": 1}, "", 3, 0, "circles.minimum_stats", "health", ">= 1", 0),
    ],
)
def test_card_errors_point_at_their_cell(
    make_cardset: MakeCardSet,
    circles: dict[str, int],
    abilities: str,
    attack: int,
    health: int,
    rule: str,
    column: str,
    expected: Any,
    actual: Any,
) -> None:
    rows = [
        character("Fine", red=1, attack=2, health=1),
        character("Broken", attack=attack, health=health, abilities=abilities, **circles),
    ]
    (finding,) = findings_for(make_cardset, rows)
    assert (finding.severity, finding.rule, finding.card, finding.row, finding.column) == (
        "error",
        rule,
        "Broken",
        3,
        column,
    )
    assert (finding.expected, finding.actual) == (expected, actual)


@pytest.mark.parametrize(
    ("written", "suggestion"),
    [
        ("Armor Peircing 1", "Armor Piercing 1"),
        ("Fire Ball", "Fireball"),
        ("Sleeep", "Sleep"),
        ("Avoid Damages", "Avoid Damage"),
        ("Heal 3", "Heal 2"),
    ],
)
def test_an_unknown_ability_is_an_error_that_suggests_the_closest(
    make_cardset: MakeCardSet, written: str, suggestion: str
) -> None:
    (finding,) = findings_for(make_cardset, [character(red=2, attack=2, health=1, abilities=written)])
    assert (finding.severity, finding.rule, finding.row, finding.column) == (
        "error",
        "circles.unknown_ability",
        2,
        "abilities",
    )
    assert finding.expected == suggestion and f"Did you mean '{suggestion}'?" in finding.message


@pytest.mark.parametrize("written", ["armor piercing 1", "ARMOR PIERCING 1", "Armour Piercing 1", "armor-piercing  1"])
def test_ability_names_match_ignoring_case_spacing_and_british_spelling(written: str) -> None:
    ability = find_ability(written)
    assert ability is not None and ability.name == "Armor Piercing 1"


@pytest.mark.parametrize(("allow", "rules"), [(False, ["circles.duplicate_ability"]), (True, [])])
def test_duplicate_abilities_follow_the_option(make_cardset: MakeCardSet, allow: bool, rules: list[str]) -> None:
    # Defender twice fills 2 blue circles; with 2 base resources: 2 + 2 = 4 circles, 6 points.
    row = character(red=2, blue=2, attack=3, health=3, abilities="Defender; Defender")
    findings = findings_for(make_cardset, [row], allow_duplicate_abilities=allow)
    assert [f.rule for f in findings] == rules
    assert all((f.row, f.column) == (2, "abilities") for f in findings)


@pytest.mark.parametrize(("strict", "severity"), [(False, "warning"), (True, "error")])
def test_unspent_points_follow_the_option(make_cardset: MakeCardSet, strict: bool, severity: str) -> None:
    (finding,) = findings_for(make_cardset, [character(green=3, attack=2, health=2)], points_must_be_spent=strict)
    assert (finding.severity, finding.rule) == (severity, "circles.unspent_points")
    assert "5 points unspent" in finding.message and (finding.expected, finding.actual) == (9, 4)


@pytest.mark.parametrize(
    ("color", "message"),
    [("", "color cell is empty"), ("red; blue", "not 2 (red, blue)"), ("purple", "'purple' is not a resource colour")],
)
def test_a_resource_has_exactly_one_colour(make_cardset: MakeCardSet, color: str, message: str) -> None:
    rows = [resource("Ruby", "red"), resource("Odd", color)]
    (finding,) = findings_for(make_cardset, rows)
    assert (finding.severity, finding.rule, finding.row, finding.column) == (
        "error",
        "circles.resource_colour",
        3,
        "color",
    )
    assert message in finding.message


def test_resource_colours_match_ignoring_case(make_cardset: MakeCardSet) -> None:
    assert (
        findings_for(make_cardset, [resource("Ruby", "Red"), resource("Leaf", "GREEN"), resource("Pool", " blue ")])
        == []
    )


def test_a_resource_with_stats_gets_a_warning_on_the_first_filled_cell(make_cardset: MakeCardSet) -> None:
    (finding,) = findings_for(make_cardset, [resource("Angry Ruby", "red", attack=2, abilities="Fast")])
    assert (finding.severity, finding.rule, finding.row, finding.column) == (
        "warning",
        "circles.resource_fields",
        2,
        "attack",
    )
    assert finding.actual == {"attack": 2, "abilities": "Fast"}


def test_headers_as_a_designer_writes_them(make_cardset: MakeCardSet) -> None:
    rows = [
        {
            "Name": "Hero",
            "Kind": "Character",
            "Colour": "",
            "Red": 2,
            "Blue": "",
            "Green": "",
            "ATK": 5,
            "HP": 1,
            "Special Abilities": "",
        }
    ]
    cardset = make_cardset(RULESET, rows)
    assert not cardset.load_findings and validate(cardset).findings == []
    assert cardset.headers["attack"] == "ATK"


def test_stat_budget_puts_each_character_against_three_points_per_circle(make_cardset: MakeCardSet) -> None:
    rows = [
        character("Example", red=2, blue=1, attack=3, health=2, abilities="Defender"),
        character("Plain", green=3, attack=4, health=5),
        character("Greedy", red=1, attack=3, health=1),
        resource("Ruby", "red"),
    ]
    budget = stat_budget(make_cardset(RULESET, rows), RULESET.resolve_options())
    assert [(p.card, p.row, p.cost, p.budget, p.expected_budget) for p in budget.points] == [
        ("Example", 2, 3.0, 8.0, 9.0),  # 3 + 2 + 3 x 1 ability circle, one point under the line
        ("Plain", 3, 3.0, 9.0, 9.0),
        ("Greedy", 4, 1.0, 4.0, 3.0),
    ]
    assert budget.line == ((1.0, 3.0), (2.0, 6.0), (3.0, 9.0), (4.0, 12.0), (5.0, 15.0))
    assert "circles" in budget.cost_label and "3 x ability circles" in budget.budget_label
