"""Power-curve judgement on a toy game: the filler is the baseline, not a verdict; one set of defaults everywhere.

The toy game (tests/toy_engine.py) adds each revealed card's strength to its side's total, so a card's power
follows its strength and the expected verdicts are known in advance.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from itertools import combinations
from statistics import median

import pytest
from toy_engine import TOY

from workbench import cli
from workbench.analysis import (
    BASELINE,
    POWER_CURVE_DEFAULTS,
    VERDICTS,
    matchup_matrix,
    power_curve,
    sweep,
)
from workbench.balance_study import StudySettings
from workbench.cards import CardSet, Deck, WorkbenchInputError
from workbench.reports import build_report

# Mid shares the filler's cost and is twice as strong: with the filler counted, cost 2's tier mean and the line
# would be pulled towards the filler's 0.
ROWS = [
    {"name": "Filler", "kind": "unit", "cost": 2, "strength": 2},
    {"name": "Cheap", "kind": "unit", "cost": 1, "strength": 1},
    {"name": "Mid", "kind": "unit", "cost": 2, "strength": 4},
    {"name": "Big", "kind": "unit", "cost": 3, "strength": 6},
    {"name": "Bargain", "kind": "unit", "cost": 1, "strength": 6},
]
REFERENCE = "6 Filler\n2 Cheap\n2 Mid\n2 Big"
OTHER = "4 Filler\n4 Cheap\n4 Big"


@pytest.fixture
def toy(make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]) -> tuple[CardSet, Deck, Deck]:
    cardset = make_cardset(TOY, ROWS)
    return cardset, make_deck(cardset, REFERENCE, name="reference"), make_deck(cardset, OTHER, name="other")


def _theil_sen(points: list[tuple[float, float]]) -> tuple[float, float]:
    """The median pairwise slope and the median intercept, worked out by hand."""
    slopes = [(p2 - p1) / (c2 - c1) for (c1, p1), (c2, p2) in combinations(points, 2) if c1 != c2]
    slope = median(slopes)
    return median(p - slope * c for c, p in points), slope


def test_the_filler_is_the_baseline_with_no_verdict_and_no_suggested_cost(toy: tuple[CardSet, Deck, Deck]) -> None:
    cardset, reference, other = toy
    curve = power_curve(cardset, [reference, other], matches_per_card=2_000, seed=5, workers=1)
    rows = curve.cards.set_index("card")
    assert rows.loc["Filler", "flag"] == BASELINE
    assert rows.loc["Filler", "suggested_cost"] is None
    assert (rows.loc["Filler", "power"], rows.loc["Filler", "low"], rows.loc["Filler", "high"]) == (0.0, 0.0, 0.0)
    judged = rows.drop(index="Filler")
    assert set(judged["flag"]) <= set(VERDICTS)
    assert judged.loc["Bargain", "flag"] == "over"  # strength 6 at cost 1
    assert judged["suggested_cost"].notna().all()


def test_the_fitted_line_and_tier_means_leave_the_filler_out(toy: tuple[CardSet, Deck, Deck]) -> None:
    cardset, reference, other = toy
    curve = power_curve(cardset, [reference, other], matches_per_card=2_000, seed=5, workers=1)
    judged = curve.cards[curve.cards["flag"] != BASELINE]
    intercept, slope = _theil_sen(list(zip(judged["cost"], judged["power"], strict=True)))
    assert (curve.intercept, curve.slope) == pytest.approx((intercept, slope))
    with_filler = _theil_sen(list(zip(curve.cards["cost"], curve.cards["power"], strict=True)))
    assert with_filler != pytest.approx((intercept, slope)), "this set is built so the filler would move the line"
    tier = curve.tiers.set_index("cost").loc[2.0]
    mid = curve.cards.set_index("card").loc["Mid"]
    assert tier["cards"] == 1 and tier["mean_power"] == pytest.approx(mid["power"])


def test_a_card_that_is_its_own_baseline_cannot_be_swept(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    cardset = make_cardset(TOY, ROWS)
    alone = make_deck(cardset, "12 Big", name="only big")
    with pytest.raises(WorkbenchInputError, match="'Big' cannot be swept: it is the only card of its kind"):
        sweep(cardset, [alone], "Big", "strength", [3, 4], matches_per_card=100, seed=1, workers=1)


def _default(function: Callable[..., object], name: str) -> object:
    return inspect.signature(function).parameters[name].default


def test_one_set_of_power_curve_defaults_for_the_library_the_cli_and_the_app() -> None:
    defaults = POWER_CURVE_DEFAULTS
    assert (defaults.matches_per_card, defaults.seed, defaults.policy) == (2_000, 0, "greedy")
    for function in (power_curve, sweep, build_report):
        assert _default(function, "matches_per_card") == defaults.matches_per_card
        assert _default(function, "seed") == defaults.seed and _default(function, "policy") == defaults.policy
    assert _default(matchup_matrix, "matches") == _default(build_report, "matches") == defaults.matches_per_pair
    parser = cli._parser()
    for command in ("power-curve", "sweep", "report"):
        args = parser.parse_args([command, "set.csv", *(["--card", "A", "--field", "f", "--values", "1"] if command == "sweep" else []),
                                  *(["--out", "r.html"] if command == "report" else [])])
        assert (args.matches_per_card, args.seed, args.policy) == (defaults.matches_per_card, defaults.seed, defaults.policy)
    assert parser.parse_args(["report", "set.csv", "--out", "r.html"]).matches == defaults.matches_per_pair
    app = StudySettings.defaults(["b", "a", "c"], ["random", "greedy"])
    assert app.decks == ("b", "a", "c")  # every deck of the set, in the set's order
    assert (app.matches_per_card, app.matches, app.seed, app.policy_a, app.policy_b) == (
        defaults.matches_per_card, defaults.matches_per_pair, defaults.seed, defaults.policy, defaults.policy
    )
    assert StudySettings.defaults(["a"], ["random", "cautious"]).policy_a == "random"  # an engine without greedy
