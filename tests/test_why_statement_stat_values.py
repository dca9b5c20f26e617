"""The power curve's Why statement names the attributes that carry no value in play (issue 34, item 4) when a
stat-values result of the very same card set, rule options and policy is given, and names the command otherwise."""

from __future__ import annotations

from typing import Any

import pandas as pd
from falling_curve import falling_curve

from workbench.analysis import worth_statement
from workbench.stat_values import StatValues

SAME = {
    "cardset_hash": "abc123",
    "options": {"hand_size": 5},
    "policies": ["greedy", "greedy"],
    "cost_axis": "soul cost",
    "seed": 0,
    "gauntlet": ["one", "two"],
    "auto_decks": {},
    "min_play_share": 0.05,
}


def _values(meta: dict[str, Any]) -> StatValues:
    """Measured rates: Atk and Def worth score, Ranged 2 and Mobile not (their intervals hold 0), the table pricing
    Atk and Def and (here, to test the words) Ranged 2."""
    rates = pd.DataFrame(
        {
            "attribute": ["Atk", "Def", "soul cost", "Ranged 2", "Mobile"],
            "kind": ["stat", "stat", "cost", "keyword", "keyword"],
            "rate": [0.007, 0.014, -0.16, -0.005, 0.001],
            "low": [0.004, 0.011, -0.17, -0.025, -0.02],
            "high": [0.010, 0.018, -0.14, 0.014, 0.022],
            "formula": [0.257, 0.257, None, 0.5, None],
        }
    )
    empty = pd.DataFrame()
    return StatValues(rates, empty, empty, empty, 0.9, 1.2, 40, [], meta | {"design_cards": 48})


def test_the_attributes_worth_nothing_in_play_are_named_for_the_same_set() -> None:
    curve = falling_curve(SAME)
    said = curve.why_statement(stat_values=_values(SAME))
    assert said is not None
    assert (
        "What each stat is worth in play, measured on this set (workbench stat-values, seed 0, 48 synthetic cards): "
        "Ranged 2, Mobile carry no measurable value in play (each 95% interval holds 0); the cost formula charges for "
        "Ranged 2 all the same." in said
    )
    assert "is measured by the command workbench stat-values" not in said


def test_a_result_of_another_set_options_or_policy_is_not_used() -> None:
    curve = falling_curve(SAME)
    plain = curve.why_statement()
    assert plain is not None and "is measured by the command workbench stat-values" in plain
    for other in (
        {"cardset_hash": "other"},
        {"options": {"hand_size": 6}},
        {"policies": ["random", "random"]},
    ):
        assert curve.why_statement(stat_values=_values(SAME | other)) == plain


def test_when_every_attribute_is_worth_score_the_command_is_named() -> None:
    values = _values(SAME)
    rates = values.rates.copy()
    rates.loc[rates["kind"] == "keyword", ["low", "high"]] = [[0.001, 0.02], [0.002, 0.03]]
    worthy = StatValues(rates, values.curves, values.cost_levels, values.cards, 0.9, 1.2, 40, [], values.meta)
    assert worth_statement(worthy) is None
    said = falling_curve(SAME).why_statement(stat_values=worthy)
    assert said is not None and "is measured by the command workbench stat-values" in said
