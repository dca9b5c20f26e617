"""The plasma cost checks: the fitted formula, creatures off it, resolve, stray stats, effects, stat budget."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from workbench.cards import CardSet
from workbench.loading import load_cardset
from workbench.paths import bundled_sets
from workbench.rulesets.plasma import RULESET
from workbench.rulesets.plasma.cards import Creature
from workbench.rulesets.plasma.costs import fit_cost
from workbench.validate import validate

MakeCardSet = Callable[..., CardSet]


def creature(name: str, cost: Any, power: Any, resolve: Any, **extra: Any) -> dict[str, Any]:
    return {"name": name, "kind": "creature", "cost": cost, "power": power, "resolve": resolve, **extra}


def on_curve(count: int = 8) -> list[dict[str, Any]]:
    """Creatures exactly on cost = (power + resolve - 1) / 2 (a = b = 0.5, c = -0.5)."""
    stats = [(2, 1), (1, 2), (3, 2), (2, 3), (4, 3), (3, 4), (5, 4), (4, 5), (6, 5), (5, 6), (4, 1), (1, 4)]
    return [creature(f"Curve {i}", (p + r - 1) // 2, p, r) for i, (p, r) in enumerate(stats[:count])]


def findings(cardset: CardSet, **options: Any) -> list[Any]:
    return validate(cardset, options=options).findings


def of_rule(found: list[Any], rule: str) -> list[Any]:
    return [f for f in found if f.rule == rule]


@pytest.mark.parametrize(
    ("a", "b", "c"),
    [(0.5, 0.5, -0.5), (1.0, 1.0, -1.0), (0.75, 0.25, 0.0), (0.0, 1.0, 1.0)],
)
def test_least_squares_recovers_an_exact_formula(a: float, b: float, c: float) -> None:
    stats = [(p, r, a * p + b * r + c) for p, r in [(1, 1), (2, 1), (1, 3), (4, 2), (3, 5), (6, 6)]]
    # Costs with fractions, so that the exact weights come back.
    fit = fit_cost(stats)
    assert (fit.power_weight, fit.resolve_weight, fit.intercept) == pytest.approx((a, b, c), abs=1e-9)
    assert fit.r_squared == pytest.approx(1.0)
    assert fit.independent and fit.creatures == 6


def test_the_fit_is_an_info_finding_on_the_set_with_formula_and_r_squared(make_cardset: MakeCardSet) -> None:
    cardset = make_cardset(RULESET, on_curve())
    [fit] = of_rule(findings(cardset), "plasma.cost_fit")
    assert fit.severity == "info"
    assert "cost ≈ 0.50·power + 0.50·resolve − 0.50" in fit.message and "R² = 1.00" in fit.message
    assert (fit.card, fit.row, fit.column, fit.sheet) == (None, None, None, "cards.csv")
    assert fit.expected == {"power": 0.5, "resolve": 0.5, "intercept": -0.5}
    assert fit.actual == {"r_squared": 1.0, "creatures": 8}
    assert not of_rule(findings(cardset), "plasma.cost_off_curve")


@pytest.mark.parametrize(
    ("gap", "tolerance", "warned"),
    [
        (1, 1.0, True),  # "one plasma or more away": exactly one is warned
        (2, 1.0, True),
        (1, 1.5, False),
        (2, 1.5, True),
        (2, 3.0, False),
    ],
)
def test_a_creature_one_plasma_or_more_off_the_fit_is_warned(
    make_cardset: MakeCardSet, gap: int, tolerance: float, warned: bool
) -> None:
    # A pair with the same stats, one `gap` above and one `gap` below the curve, leaves the fit exactly where it was.
    rows = on_curve() + [creature("Too Dear", 3 + gap, 4, 3), creature("Too Cheap", 3 - gap, 4, 3)]
    cardset = make_cardset(RULESET, rows)
    off = of_rule(findings(cardset, cost_tolerance=tolerance), "plasma.cost_off_curve")
    if not warned:
        assert off == []
        return
    assert [(f.card, f.row, f.column, f.severity) for f in off] == [
        ("Too Dear", 10, "cost", "warning"),
        ("Too Cheap", 11, "cost", "warning"),
    ]
    assert [f.expected for f in off] == [3.0, 3.0]
    assert [f.actual for f in off] == [3 + gap, 3 - gap]
    assert f"{gap:.1f} plasma above what the set's fit expects for power 4 / resolve 3: 3.0" in off[0].message
    assert "below" in off[1].message


def test_half_a_plasma_off_is_within_the_default_tolerance(make_cardset: MakeCardSet) -> None:
    rows = on_curve() + [creature("Slightly Dear", 3, 3, 3), creature("Slightly Cheap", 2, 3, 3)]
    cardset = make_cardset(RULESET, rows)
    assert of_rule(findings(cardset), "plasma.cost_off_curve") == []


@pytest.mark.parametrize("creatures", [0, 1, 2, 3])
def test_too_few_creatures_to_fit_is_an_info_finding_not_a_crash(make_cardset: MakeCardSet, creatures: int) -> None:
    rows = on_curve(creatures) + [{"name": "Bolt", "kind": "event", "cost": 2, "effects": "damage 3"}]
    cardset = make_cardset(RULESET, rows)
    found = findings(cardset)
    [fit] = of_rule(found, "plasma.cost_fit")
    assert fit.severity == "info" and f"has {creatures} creature(s)" in fit.message and "at least 4" in fit.message
    assert fit.actual == creatures
    assert of_rule(found, "plasma.cost_off_curve") == []
    assert RULESET.stat_budget is not None
    budget = RULESET.stat_budget(cardset, RULESET.resolve_options())
    assert budget.points == () and "too few creatures" in budget.line_label


@pytest.mark.parametrize(("minimum", "fitted"), [(4, False), (3, True)])
def test_min_creatures_to_fit_option(make_cardset: MakeCardSet, minimum: int, fitted: bool) -> None:
    cardset = make_cardset(RULESET, on_curve(3))
    [fit] = of_rule(findings(cardset, min_creatures_to_fit=minimum), "plasma.cost_fit")
    assert ("R² =" in fit.message) is fitted


def test_power_equal_to_resolve_everywhere_is_reported_as_an_ambiguous_split(make_cardset: MakeCardSet) -> None:
    rows = [creature(f"Even {n}", n, n, n) for n in range(1, 6)]
    [fit] = of_rule(findings(make_cardset(RULESET, rows)), "plasma.cost_fit")
    assert "do not vary independently" in fit.message


def test_every_creature_costing_the_same_has_no_r_squared(make_cardset: MakeCardSet) -> None:
    rows = [creature(f"Same {n}", 2, n, 6 - n) for n in range(1, 6)]
    [fit] = of_rule(findings(make_cardset(RULESET, rows)), "plasma.cost_fit")
    assert "R² = undefined" in fit.message and fit.actual["r_squared"] is None


@pytest.mark.parametrize(
    ("resolve", "options", "severity"),
    [
        # The document sets no minimum: resolve 0 is "how much damage they can take before being destroyed", none.
        (0, {}, "info"),  # the default, more_than: it stays until it takes any damage
        (0, {"lethal_damage": "at_least"}, "warning"),  # destroyed as it enters the field
        (1, {}, None),
        (1, {"lethal_damage": "at_least"}, None),
        (7, {}, None),
    ],
)
def test_resolve_zero_is_never_an_error(
    make_cardset: MakeCardSet, resolve: int, options: dict[str, str], severity: str | None
) -> None:
    cardset = make_cardset(RULESET, on_curve() + [creature("Glass Knight", 1, 2, resolve)])
    result = validate(cardset, options=options)
    found = of_rule(result.findings, "plasma.resolve_minimum")
    if severity is None:
        assert found == []
        return
    [finding] = found
    assert (finding.severity, finding.card, finding.row, finding.column) == (severity, "Glass Knight", 10, "resolve")
    assert finding.actual == 0
    assert not any(f.severity == "error" for f in result.findings)


@pytest.mark.parametrize(
    ("column", "value", "message"),
    [
        ("cost", -1, "below the smallest allowed value, 0"),
        ("power", -2, "below the smallest allowed value, 0"),
        ("resolve", -1, "below the smallest allowed value, 0"),
        ("cost", "two", "not a whole number"),
        ("power", 1.5, "not a whole number"),
    ],
)
def test_cost_and_power_are_whole_numbers_at_least_zero(
    make_cardset: MakeCardSet, column: str, value: Any, message: str
) -> None:
    row = creature("Odd One", 2, 2, 3)
    row[column] = value
    cardset = make_cardset(RULESET, on_curve() + [row])
    [cell] = of_rule(findings(cardset), "plasma.cell_value")
    assert (cell.card, cell.row, cell.column) == ("Odd One", 10, column)
    assert message in cell.message


@pytest.mark.parametrize("kind", ["equipment", "event", "instant", "battlefield"])
def test_power_or_resolve_on_a_non_creature_is_a_warning(make_cardset: MakeCardSet, kind: str) -> None:
    rows = on_curve() + [{"name": "Stray", "kind": kind, "cost": 2, "power": 2, "resolve": 1, "effects": "draw 1"}]
    stray = of_rule(findings(make_cardset(RULESET, rows)), "plasma.stats_on_non_creature")
    assert [(f.severity, f.row, f.column, f.actual) for f in stray] == [
        ("warning", 10, "power", 2),
        ("warning", 10, "resolve", 1),
    ]
    assert "'power +2'" in stray[0].message


def test_an_effect_outside_the_vocabulary_is_an_info_finding_on_its_cell(make_cardset: MakeCardSet) -> None:
    rows = on_curve() + [
        {"name": "Frost Nova", "kind": "event", "cost": 3, "effects": "freeze 2; draw 1"},
        {"name": "Bolt", "kind": "instant", "cost": 1, "effects": "damage 2"},
    ]
    [info] = of_rule(findings(make_cardset(RULESET, rows)), "plasma.effect_not_simulated")
    assert (info.severity, info.card, info.row, info.column, info.actual) == (
        "info",
        "Frost Nova",
        10,
        "effects",
        "freeze 2",
    )


def test_an_activated_ability_is_a_creatures_own(make_cardset: MakeCardSet) -> None:
    """ "During the Play Phase you may play cards, activate effects and etc. ... activate monster effects": a creature's
    `activate` clause is in the vocabulary; on another kind it is reported in cell order with what is wrong."""
    rows = [
        *on_curve(8),
        creature("Pinger", 2, 2, 3, effects="activate 1: damage player 1"),
        {"name": "Relic", "kind": "equipment", "cost": 1, "effects": "freeze 1; power +1; activate 1: draw 1"},
    ]
    [info] = of_rule(findings(make_cardset(RULESET, rows)), "plasma.effect_not_simulated")
    assert (info.card, info.actual) == ("Relic", "freeze 1; activate 1: draw 1")
    assert "only a creature has an activated ability (this card is an equipment)" in info.message


def test_headers_are_matched_loosely_and_plasma_means_cost(make_cardset: MakeCardSet) -> None:
    rows = [
        {"Name": f"C{i}", "Card Type": "Creature", "Plasma": c, "Power": p, "Resolve": r}
        for i, (c, p, r) in enumerate([(1, 2, 1), (2, 3, 2), (3, 4, 3), (4, 5, 4)])
    ]
    cardset = make_cardset(RULESET, rows)
    assert [entry.card.cost if isinstance(entry.card, Creature) else None for entry in cardset] == [1, 2, 3, 4]


def test_the_bundled_set_sits_on_its_own_curve() -> None:
    cardset = load_cardset(bundled_sets("plasma")[0], RULESET)
    found = findings(cardset)
    assert [f for f in found if f.severity != "info"] == []
    [fit] = of_rule(found, "plasma.cost_fit")
    assert fit.actual["r_squared"] > 0.95 and fit.actual["creatures"] >= 25
    assert {entry.card.kind for entry in cardset} == {"creature", "equipment", "event", "instant", "battlefield"}
    assert len(cardset) >= 40


def test_stat_budget_plots_what_the_fit_says_each_creature_is_worth_against_its_cost(make_cardset: MakeCardSet) -> None:
    rows = on_curve() + [
        creature("Too Dear", 5, 4, 3),
        {"name": "Bolt", "kind": "event", "cost": 9, "effects": "damage 3"},
    ]
    cardset = make_cardset(RULESET, rows)
    assert RULESET.stat_budget is not None
    budget = RULESET.stat_budget(cardset, RULESET.resolve_options())
    assert budget.cost_label == "plasma cost"
    assert "plasma the fit says" in budget.budget_label
    assert [p.card for p in budget.points] == [f"Curve {i}" for i in range(8)] + ["Too Dear"]
    dear = budget.points[-1]
    assert (dear.row, dear.kind, dear.cost, dear.expected_budget) == (10, "creature", 5.0, 5.0)
    # The fit is pulled up a little by the dear card, so it is worth a bit more than 3 but far less than 5.
    assert 3.0 < dear.budget < 4.0
    assert budget.line == ((1.0, 1.0), (5.0, 5.0))  # the creatures' costs; the 9-plasma event is not plotted
    assert "y = x" in budget.line_label and "cost range" in budget.line_label
