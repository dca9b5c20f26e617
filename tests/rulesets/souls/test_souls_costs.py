"""The soul-cost table, its +1/-1, ability names and the effects column, from the document's own numbers.

Rules of Thumb / Souls cost (# sacrifices req.):
    Atk + Def <=5 -> 0, <=10 -> 1, <=14 -> 2, <=17 -> 3, <=20 -> 4, <=22 -> 5, >22 -> 6+
    Increases by 1 if it has a powerful effect like elemental application
    Decreases by 1 if it has a bad detrimental effect
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from workbench.cards import CardSet, Finding
from workbench.rulesets.souls import RULESET as SOULS
from workbench.rulesets.souls.costs import (
    adjustment_for,
    attack_range,
    expected_soul_cost,
    is_known_ability,
    soul_cost_for,
    stat_budget,
)
from workbench.rulesets.souls.effects import OP_APPLY, OP_ATK, OP_DAMAGE, OP_DEF, OP_DRAW, OP_SHIELD, parse_effects
from workbench.validate import validate

MakeCardSet = Callable[..., CardSet]

# (Atk + Def, soul cost): both sides of every row boundary of the table, and its open end.
TABLE_BOUNDARIES = [
    (0, 0),
    (5, 0),
    (6, 1),
    (10, 1),
    (11, 2),
    (14, 2),
    (15, 3),
    (17, 3),
    (18, 4),
    (20, 4),
    (21, 5),
    (22, 5),
    (23, 6),
    (40, 6),
]


def monster(name: str, cost: int, atk: int, defense: int, **extra: Any) -> dict[str, Any]:
    return {"name": name, "kind": "monster", "soul_cost": cost, "atk": atk, "def": defense, "abilities": "Atk"} | extra


def findings_of(cardset: CardSet, rule: str, **options: Any) -> list[Finding]:
    return [f for f in validate(cardset, options=options).findings if f.rule == rule]


@pytest.mark.parametrize(("total", "cost"), TABLE_BOUNDARIES)
def test_table_row_boundaries(total: int, cost: int) -> None:
    assert soul_cost_for(total // 2, total - total // 2) == cost
    assert soul_cost_for(total, 0) == cost == soul_cost_for(0, total)


@pytest.mark.parametrize(("total", "cost"), TABLE_BOUNDARIES)
def test_a_card_on_the_table_has_no_finding_and_one_off_is_a_warning_at_its_cell(
    make_cardset: MakeCardSet, total: int, cost: int
) -> None:
    atk, defense = total // 2, total - total // 2
    rows = [
        monster("On Table", cost, atk, defense),
        monster("One Over", cost + 1, atk, defense),
        monster("One Under", cost - 1, atk, defense) if cost > 0 else monster("Filler", 0, 1, 1),
    ]
    findings = findings_of(make_cardset(SOULS, rows), "souls.soul_cost")
    by_card = {f.card: f for f in findings}
    assert "On Table" not in by_card and "Filler" not in by_card
    if total > 22:  # "6+": more souls than 6 is allowed, fewer is not
        assert "One Over" not in by_card
        under = by_card["One Under"]
        assert (under.expected, under.actual, under.row, under.column) == (">= 6", cost - 1, 4, "soul_cost")
        return
    over = by_card["One Over"]
    assert (over.severity, over.expected, over.actual, over.row, over.column) == (
        "warning",
        cost,
        cost + 1,
        3,
        "soul_cost",
    )
    if cost > 0:
        assert (by_card["One Under"].expected, by_card["One Under"].row) == (cost, 4)


@pytest.mark.parametrize(
    ("total", "weight", "element", "counts_element", "expected"),
    [
        (10, None, None, True, 1),  # plain
        (10, "powerful", None, True, 2),  # +1
        (10, None, "fire", True, 2),  # elemental application is the document's powerful effect
        (10, None, "fire", False, 1),  # ... unless the option says the element column alone does not count
        (10, "powerful", "fire", True, 2),  # the element is its powerful effect: +1 once
        (10, "detrimental", None, True, 0),  # -1
        (10, "detrimental", "oil", True, 1),  # element +1, detrimental -1
        (10, "detrimental", "oil", False, 0),
        (5, "detrimental", None, True, 0),  # never below 0 sacrifices
        (22, "powerful", None, True, 6),
        (23, "powerful", None, True, 7),  # 6+ then +1: 7 or more
        (23, "detrimental", None, True, 5),  # 6+ then -1: 5 or more
    ],
)
def test_plus_one_and_minus_one(
    make_cardset: MakeCardSet, total: int, weight: str | None, element: str | None, counts_element: bool, expected: int
) -> None:
    adjustment = adjustment_for(weight, element, counts_element)
    lowest, open_ended = expected_soul_cost(total - total // 2, total // 2, adjustment)
    assert lowest == expected and open_ended == (total > 22)
    rows = [
        monster("Right", expected, total - total // 2, total // 2, effect_weight=weight, element=element),
        monster(
            "Wrong",
            expected + 1 if total <= 22 else expected - 1,
            total - total // 2,
            total // 2,
            effect_weight=weight,
            element=element,
        ),
    ]
    findings = findings_of(make_cardset(SOULS, rows), "souls.soul_cost", element_counts_as_powerful=counts_element)
    assert [f.card for f in findings] == ["Wrong"]
    assert findings[0].expected == (f">= {expected}" if total > 22 else expected)


@pytest.mark.parametrize(("strict", "severity"), [(False, "warning"), (True, "error")])
def test_strict_costs_turns_the_warning_into_an_error(make_cardset: MakeCardSet, strict: bool, severity: str) -> None:
    cardset = make_cardset(SOULS, [monster("Ogre", 0, 6, 6)])
    (finding,) = findings_of(cardset, "souls.soul_cost", strict_costs=strict)
    assert finding.severity == severity and (finding.expected, finding.actual) == (2, 0)
    assert validate(cardset, options={"strict_costs": strict}).has_errors is strict


@pytest.mark.parametrize(("check_spells", "flagged"), [(False, []), (True, ["Priced Spell"])])
def test_check_spell_costs_prices_magic_and_traps_only_when_on(
    make_cardset: MakeCardSet, check_spells: bool, flagged: list[str]
) -> None:
    rows = [
        {"name": "Priced Spell", "kind": "magic", "soul_cost": 0, "atk": 4, "def": 4, "abilities": "Effect"},
        {"name": "Fair Trap", "kind": "trap", "soul_cost": 1, "atk": 3, "def": 3, "abilities": "Effect"},
        {"name": "No Stats", "kind": "magic", "soul_cost": 3, "abilities": "Effect"},
    ]
    findings = findings_of(make_cardset(SOULS, rows), "souls.soul_cost", check_spell_costs=check_spells)
    assert [f.card for f in findings] == flagged
    if flagged:
        assert (findings[0].row, findings[0].column, findings[0].expected) == (2, "soul_cost", 1)


def test_finding_names_the_header_as_the_designer_wrote_it(make_cardset: MakeCardSet) -> None:
    rows = [
        {"Name": "Imp", "Kind": "Monster", "Soul Cost": 0, "Attack": 2, "DEF": 2},
        {"Name": "Troll", "Kind": "Monster", "Soul Cost": 4, "Attack": 6, "DEF": 6},
    ]
    (finding,) = findings_of(make_cardset(SOULS, rows), "souls.soul_cost")
    assert (finding.card, finding.sheet, finding.row, finding.column) == ("Troll", "cards.csv", 3, "Soul Cost")
    assert "Atk 6 + Def 6 = 12 gives 2" in finding.message


@pytest.mark.parametrize(
    ("ability", "known"),
    [
        ("Atk", True),
        ("atk/", True),
        ("Effect", True),
        ("Support", True),
        ("Mobile", True),
        ("Equip", True),
        ("Ranged 2", True),
        ("ranged 3/", True),
        ("Ranged1", True),
        ("Ranged", False),
        ("Ranged 0", False),
        ("Ranged X", False),
        ("Mobil", False),
        ("Flying", False),
    ],
)
def test_info_box_ability_names(ability: str, known: bool) -> None:
    assert is_known_ability(ability) is known


@pytest.mark.parametrize(
    ("abilities", "rows"), [((), 1), (("Atk",), 1), (("Atk", "Ranged 2"), 2), (("Ranged 3", "Atk"), 3)]
)
def test_attack_range_is_one_unless_ranged_x(abilities: tuple[str, ...], rows: int) -> None:
    assert attack_range(abilities) == rows


@pytest.mark.parametrize(
    ("abilities", "kind", "rule", "message_part", "column"),
    [
        ("Atk; Flying", "monster", "souls.unknown_ability", "'Flying' is not an info-box ability", "abilities"),
        ("Atk; Mobil", "monster", "souls.unknown_ability", "Did you mean 'Mobile'", "abilities"),
        ("Atk; Ranged", "monster", "souls.unknown_ability", "needs its range", "abilities"),
        ("Atk; Ranged 0", "monster", "souls.unknown_ability", "reaches no row", "abilities"),
        ("Ranged 2", "monster", "souls.ranged_without_atk", "no Atk ability", "abilities"),
        ("Atk; Equip", "monster", "souls.equip_not_magic", "this card is a monster", "kind"),
        ("Equip", "trap", "souls.equip_not_magic", "this card is a trap", "kind"),
    ],
)
def test_ability_findings_point_at_their_cell(
    make_cardset: MakeCardSet, abilities: str, kind: str, rule: str, message_part: str, column: str
) -> None:
    rows = [monster("Fine", 0, 2, 2), {**monster("Odd", 1, 4, 4), "kind": kind, "abilities": abilities}]
    findings = findings_of(make_cardset(SOULS, rows), rule)
    assert len(findings) == 1
    assert (findings[0].card, findings[0].row, findings[0].column) == ("Odd", 3, column)
    assert message_part in findings[0].message


def test_equip_on_magic_and_ranged_with_atk_are_fine(make_cardset: MakeCardSet) -> None:
    rows = [
        monster("Archer", 1, 4, 4, abilities="Atk; Ranged 2"),
        {"name": "Blade", "kind": "magic", "abilities": "Equip; Effect", "effects": "atk +2"},
    ]
    assert validate(make_cardset(SOULS, rows)).findings == []


@pytest.mark.parametrize(
    ("cell", "parsed", "unknown"),
    [
        ("apply fire", [(OP_APPLY, 0)], []),
        ("Apply Curse; damage 2", [(OP_APPLY, 3), (OP_DAMAGE, 2)], []),
        ("draw 1, shield +2", [(OP_DRAW, 1), (OP_SHIELD, 2)], []),
        ("shield -1", [(OP_SHIELD, -1)], []),
        ("atk +2; def -3", [(OP_ATK, 2), (OP_DEF, -3)], []),
        ("apply water; damage lots", [], ["apply water", "damage lots"]),
        ("damage 500", [], ["damage 500"]),
        ("", [], []),
    ],
)
def test_effects_vocabulary(cell: str, parsed: list[tuple[int, int]], unknown: list[str]) -> None:
    effects, rest = parse_effects(cell)
    assert [(e.opcode, e.argument) for e in effects] == parsed and rest == unknown


@pytest.mark.parametrize(
    ("kind", "abilities", "effects", "not_covered"),
    [
        ("monster", "Atk; Effect", "summon a wolf", "'summon a wolf'"),
        ("monster", "Atk; Effect", "atk +2", "'atk +2'"),  # atk/def belong to Equip cards
        ("magic", "Effect", "def +1", "'def +1'"),
        ("trap", "Effect", "damage 2; atk +1", "'atk +1'"),
        ("magic", "Equip", "atk +2; def +1", None),
        ("monster", "Atk; Effect", "apply fire; damage 2; draw 1; shield +1", None),
    ],
)
def test_effects_the_simulator_does_not_cover_are_an_info(
    make_cardset: MakeCardSet, kind: str, abilities: str, effects: str, not_covered: str | None
) -> None:
    element = "fire" if "apply fire" in effects else None
    row = {
        "name": "Card",
        "kind": kind,
        "soul_cost": 2 if element else 1,
        "atk": 4 if kind == "monster" else None,
        "def": 4 if kind == "monster" else None,
        "abilities": abilities,
        "element": element,
        "effects": effects,
    }
    findings = findings_of(make_cardset(SOULS, [row]), "souls.effect_not_simulated")
    if not_covered is None:
        assert findings == []
        return
    (finding,) = findings
    assert (finding.severity, finding.row, finding.column) == ("info", 2, "effects")
    assert not_covered in finding.message


@pytest.mark.parametrize(
    ("element", "effects", "expected", "actual"),
    [
        ("fire", "apply oil", "oil", "fire"),
        (None, "apply curse", "curse", None),
        ("miasma", "apply fire; apply miasma", "fire", "miasma"),
    ],
)
def test_element_column_and_apply_effects_must_agree(
    make_cardset: MakeCardSet, element: str | None, effects: str, expected: str, actual: str | None
) -> None:
    row = {"name": "Vial", "kind": "magic", "abilities": "Effect", "element": element, "effects": effects}
    (finding,) = findings_of(make_cardset(SOULS, [monster("Imp", 0, 1, 1), row]), "souls.element_effect")
    assert (finding.severity, finding.row, finding.column, finding.expected, finding.actual) == (
        "warning",
        3,
        "element",
        expected,
        actual,
    )


def test_element_column_without_apply_is_fine(make_cardset: MakeCardSet) -> None:
    row = {"name": "Vial", "kind": "magic", "abilities": "Effect", "element": "oil", "effects": ""}
    assert findings_of(make_cardset(SOULS, [row]), "souls.element_effect") == []


@pytest.mark.parametrize(
    ("check_spells", "cards"),
    [(False, ["Imp", "Wolf", "Firebug", "Giant"]), (True, ["Imp", "Wolf", "Firebug", "Giant", "Bolt"])],
)
def test_stat_budget_points_and_the_table_line(make_cardset: MakeCardSet, check_spells: bool, cards: list[str]) -> None:
    rows = [
        monster("Imp", 0, 3, 2),
        monster("Wolf", 1, 4, 4),
        monster("Firebug", 2, 5, 5, element="fire"),  # table cost 1 + 1: its budget line is cost 1's 10
        monster("Giant", 6, 12, 12),  # the open row: no upper budget
        {"name": "Bolt", "kind": "magic", "soul_cost": 1, "atk": 3, "def": 3, "abilities": "Effect"},
        {"name": "Vial", "kind": "magic", "abilities": "Effect"},
    ]
    budget = stat_budget(make_cardset(SOULS, rows), SOULS.resolve_options({"check_spell_costs": check_spells}))
    assert (budget.cost_label, budget.budget_label) == ("soul cost", "Atk + Def")
    assert budget.line == ((0.0, 5.0), (1.0, 10.0), (2.0, 14.0), (3.0, 17.0), (4.0, 20.0), (5.0, 22.0))
    points = {p.card: p for p in budget.points}
    assert list(points) == cards
    assert (points["Imp"].cost, points["Imp"].budget, points["Imp"].expected_budget, points["Imp"].row) == (0, 5, 5, 2)
    assert (points["Wolf"].budget, points["Wolf"].expected_budget) == (8, 10)
    assert (points["Firebug"].cost, points["Firebug"].expected_budget) == (2, 10)
    assert points["Giant"].expected_budget is None and points["Giant"].kind == "monster"
    if check_spells:
        assert (points["Bolt"].kind, points["Bolt"].budget, points["Bolt"].expected_budget) == ("magic", 6, 10)


def test_stat_budget_follows_the_element_option(make_cardset: MakeCardSet) -> None:
    cardset = make_cardset(SOULS, [monster("Firebug", 2, 5, 5, element="fire")])
    counted = stat_budget(cardset, SOULS.resolve_options({"element_counts_as_powerful": True}))
    ignored = stat_budget(cardset, SOULS.resolve_options({"element_counts_as_powerful": False}))
    assert counted.points[0].expected_budget == 10 and ignored.points[0].expected_budget == 14
