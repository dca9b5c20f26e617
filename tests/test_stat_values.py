"""What each stat is worth in play (workbench.stat_values): the designed experiment recovers a known truth, and the
same seed gives the same figures.

The toy game (tests/toy_engine.py) reveals five cards of twelve per side; each adds its strength to its side's total,
plus a die (0-5) and one for the first player; the higher total wins, equal totals draw. A card costing more than
the treasury (10) is drawn but never played. So the score of any deck against another is an exact sum over hands and
dice, computed here by hand: the truth a measured rate is tested against.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from itertools import product
from math import comb
from typing import Any

import numpy as np
import pandas as pd
import pytest
from toy_engine import TOY, TREASURY

from workbench.cards import CardSet, Deck, WorkbenchInputError
from workbench.decklists import set_decks
from workbench.loading import load_cardset
from workbench.paths import decks_folder_beside, find_bundled_set
from workbench.rulesets.plasma.costs import set_fit
from workbench.rulesets.plasma.effects import parse_effects
from workbench.rulesets.souls.cards import Monster
from workbench.rulesets.souls.costs import soul_cost_for
from workbench.run_settings import RunSettings
from workbench.simulate import compile_for
from workbench.stat_values import (
    DESIGNS,
    NOT_COVERED,
    Attribute,
    Fit,
    StatDesign,
    _implied_costs,
    design_for,
    stat_values,
    t_quantile,
    weighted_fit,
    with_cards,
)

FILLER, OTHER = 2, 4
"""Strengths of the toy reference deck's two cards: 8 Filler and 4 Other, twelve cards."""
REFERENCE = "8 Filler\n4 Other"
HAND, DIE = 5, 6

TOY_DESIGN = StatDesign(
    kind="unit",
    stats=(Attribute("strength", 0, 5),),
    cost=Attribute("cost", 0, 12, "cost"),
    keywords=(),
    card_fields=lambda point, template: {"strength": point["strength"], "cost": point["cost"]},
    formula_cost=lambda point: point["strength"] / 2,
    formula="half a cost per point of strength (a toy formula)",
    cost_unit="coin",
)


def _hand_totals(deck: Mapping[int, int]) -> dict[int, float]:
    """The exact distribution of the total strength of the first five cards of a shuffled deck {strength: copies}."""
    strengths = list(deck)
    size = sum(deck.values())
    totals: dict[int, float] = {}
    for counts in product(*(range(min(deck[s], HAND) + 1) for s in strengths)):
        if sum(counts) != HAND:
            continue
        chance = math.prod(comb(deck[s], k) for s, k in zip(strengths, counts, strict=True)) / comb(size, HAND)
        total = sum(s * k for s, k in zip(strengths, counts, strict=True))
        totals[total] = totals.get(total, 0.0) + chance
    return totals


def _exact_score(deck_a: Mapping[int, int], deck_b: Mapping[int, int]) -> float:
    """Deck A's exact expected score (win 1, draw 1/2) against deck B, each side first in half the matches."""
    hands_a, hands_b = _hand_totals(deck_a), _hand_totals(deck_b)
    score = 0.0
    for a_first in (True, False):
        for (ta, pa), (tb, pb), da, db in product(hands_a.items(), hands_b.items(), range(DIE), range(DIE)):
            a, b = ta + da + (1 if a_first else 0), tb + db + (0 if a_first else 1)
            score += 0.5 * pa * pb / DIE**2 * (1.0 if a > b else 0.5 if a == b else 0.0)
    return score


def _true_power(strength: int, cost: int) -> float:
    """A card's exact power: 3 copies replace 3 Fillers in the reference deck, which it then plays (a mirror)."""
    played = strength if cost <= TREASURY else 0
    variant = {FILLER: 5, OTHER: 4}
    variant[played] = variant.get(played, 0) + 3
    return _exact_score(variant, {FILLER: 8, OTHER: 4}) - 0.5


@pytest.fixture
def toy(make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]) -> tuple[CardSet, Deck]:
    rows = [
        {"name": "Filler", "kind": "unit", "cost": 2, "strength": FILLER},
        {"name": "Other", "kind": "unit", "cost": 3, "strength": OTHER},
    ]
    cardset = make_cardset(TOY, rows)
    return cardset, make_deck(cardset, REFERENCE, name="reference")


def test_the_measured_rates_recover_a_known_truth_within_their_intervals(toy: tuple[CardSet, Deck]) -> None:
    cardset, reference = toy
    values = stat_values(cardset, [reference], 28, 3_000, RunSettings(seed=11, workers=1), design=TOY_DESIGN)
    # The probe: costs above the treasury are never played, so they are out of play and left out of the design.
    levels = values.cost_levels.set_index("cost")
    assert levels.loc[11, "played"] == 0 and levels.loc[12, "played"] == 0
    assert not levels.loc[11, "in_play"] and not levels.loc[12, "in_play"]
    assert levels.loc[0:10, "in_play"].all()
    assert values.meta["cost_levels_in_play"] == list(range(11))
    assert set(values.cards["cost"]) <= set(range(11))
    # The truth the straight fit aims at: the same weighted projection of the exact powers of the design's cards.
    cards = values.cards
    truth = np.array([_true_power(int(s), int(c)) for s, c in zip(cards["strength"], cards["cost"], strict=True)])
    projected = weighted_fit(
        cards[["strength", "cost"]].to_numpy(float), truth, cards["fit_se"].to_numpy(float), ["strength", "cost"]
    )
    rates = values.rates.set_index("attribute")
    for i, name in enumerate(["strength", "cost"], start=1):
        assert rates.loc[name, "low"] <= projected.coef[i] <= rates.loc[name, "high"], name
    # Strength measurably wins; cost below the treasury is worth nothing in this game, and the fit says so.
    assert rates.loc["strength", "low"] > 0
    assert rates.loc["cost", "low"] < 0 < rates.loc["cost", "high"]
    assert rates.loc["strength", "in_cost"] is None  # a cost that costs nothing cannot be a unit
    assert rates.loc["strength", "formula"] == pytest.approx(0.5)
    # Each level of the strength curve (cost has no effect, so the truth is the exact power at that strength).
    curve = values.curves[values.curves["attribute"] == "strength"]
    for row in curve.itertuples():
        exact = _true_power(int(row.level), 0)
        assert row.low - 1e-9 <= exact <= row.high + 1e-9, row.level  # the filler's own strength: exactly 0
    assert values.meta["seed"] == 11 and values.meta["matches_per_card"] == 3_000
    assert values.meta["ruleset"] == "toy" and values.meta["policy"] == "greedy"
    assert "cardset_hash" in values.meta and "workbench_version" in values.meta
    text = values.to_text()
    assert "strength" in text and "out of play" in text


def _souls() -> tuple[CardSet, list[Deck]]:
    bundled = find_bundled_set("souls/ashfall")
    assert bundled is not None
    cardset = load_cardset(bundled.path)
    return cardset, set_decks(cardset, decks_folder_beside(bundled.path)).decks


def test_souls_same_seed_same_figures_and_another_seed_within_the_intervals() -> None:
    cardset, decks = _souls()
    first = stat_values(cardset, decks, 24, 150, RunSettings(seed=3, workers=1))
    again = stat_values(cardset, decks, 24, 150, RunSettings(seed=3, workers=1))
    assert first.to_json() == again.to_json()
    # A 6/6 for 2 souls is never summoned in ember_rush, a 12/12 is: cost 2 is in play, 3+ not even at 12/12.
    assert first.meta["cost_levels_in_play"] == [0, 1, 2]
    other = stat_values(cardset, decks, 24, 150, RunSettings(seed=4, workers=1))
    assert not first.cards["power"].equals(other.cards["power"])
    a, b = first.rates.set_index("attribute"), other.rates.set_index("attribute")
    assert list(a.index) == list(b.index) == ["Atk", "Def", "soul cost", "Ranged 2", "Mobile"]
    for name in a.index:
        # Two independent estimates: their difference lies within the 95% interval of a difference.
        half = 1.96 * math.hypot(a.loc[name, "se"], b.loc[name, "se"])
        assert abs(a.loc[name, "rate"] - b.loc[name, "rate"]) <= half, name
    # A soul of cost measurably costs score, so each stat's worth is also given in souls, beside the table's price.
    assert a.loc["soul cost", "high"] < 0
    assert a.loc["Atk", "in_cost"] is not None and a.loc["Atk", "formula"] > 0
    payload = first.to_json()
    assert payload["ruleset"] == "souls" and payload["seed"] == 3 and payload["design_cards"] == 24
    assert {"rates", "curves", "cost_levels", "cards", "fit", "statements"} <= set(payload)


@pytest.mark.parametrize(
    ("options", "in_play"), [(None, [0, 1, 2]), ({"sacrifice_from": "either"}, [0, 1, 2, 3])], ids=["field", "either"]
)
def test_a_cost_level_is_out_of_play_only_when_even_the_strongest_card_is_not_played(
    options: dict[str, str] | None, in_play: list[int]
) -> None:
    """The souls greedy policy summons a monster only when its worth (Atk + Def + a bonus) exceeds that of what it
    sacrifices, so at 2 souls (3 under sacrifice_from=either) a mid-stat 6/6 is (almost) never summoned in ember_rush
    while a 12/12 is: a probe of the mid-stat card alone called that cost out of play. A level is out of play only when
    the strongest design card (every stat at the top of its range) is not played there either."""
    cardset, decks = _souls()
    values = stat_values(cardset, decks, 8, 120, RunSettings(seed=5, workers=1, options=options), replicates=2)
    levels = values.cost_levels.set_index("cost")
    assert values.meta["cost_levels_in_play"] == in_play
    hinge = max(in_play)  # field: 2 souls; either (hand cards sacrificed at half their worth too): 3 souls
    assert levels.loc[hinge, "played"] < 0.05 <= levels.loc[hinge, "top_played"]  # its stats decide if it is played
    for cost in range(max(in_play) + 1, 7):
        assert levels.loc[cost, "top_played"] < 0.05 and not levels.loc[cost, "in_play"]
    assert set(values.cards["soul cost"]) == set(in_play)  # the design spends matches on every level in play
    assert values.meta["probe_matches_per_card"] == 120
    dead = f"{max(in_play) + 1}-6 souls was played in fewer than 5% of its matches even with every stat at the top"
    assert any(dead in s and "(Atk 12, Def 12)" in s for s in values.statements)
    assert any(s.startswith(f"At {hinge} souls the mid-stat card was played in fewer") for s in values.statements)
    assert "strongest" in values.to_text()


def test_games_without_a_design_are_refused_with_the_reason(
    toy: tuple[CardSet, Deck], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every bundled game has a design (Blades' since its star rating became a cost that is a stat); a ruleset with
    none is refused with why, in words, before any match: the reason NOT_COVERED gives, else that no design is
    written."""
    assert set(DESIGNS) == {"souls", "circles", "plasma", "source", "blades"}
    assert NOT_COVERED == {}
    cardset, reference = toy
    with pytest.raises(WorkbenchInputError, match="not measured for 'toy': no designed experiment is written"):
        design_for("toy")
    with pytest.raises(WorkbenchInputError, match="not measured for 'toy'"):
        stat_values(cardset, [reference], 12, 40, RunSettings(seed=1, workers=1))
    monkeypatch.setitem(NOT_COVERED, "toy", "a reason in words")
    with pytest.raises(WorkbenchInputError, match="not measured for 'toy': a reason in words"):
        design_for("toy")


def test_synthetic_cards_are_validated_copies_and_never_replace_a_card(toy: tuple[CardSet, Deck]) -> None:
    cardset, _ = toy
    extended = with_cards(cardset, "Filler", {"New": {"strength": 5}})
    new = extended.find("New")
    assert new is not None and new.card.strength == 5 and new.card.cost == 2  # type: ignore[attr-defined]
    assert len(extended) == len(cardset) + 1 and cardset.find("New") is None
    with pytest.raises(WorkbenchInputError, match="already has"):
        with_cards(cardset, "Filler", {"Other": {"strength": 1}})
    with pytest.raises(ValueError):
        with_cards(cardset, "Filler", {"Bad": {"strength": -1}})


@pytest.mark.parametrize(("df", "expected"), [(5, 2.5706), (10, 2.2281), (30, 2.0423), (math.inf, 1.9600)])
def test_t_quantile_matches_the_table(df: float, expected: float) -> None:
    assert t_quantile(df) == pytest.approx(expected, abs=2e-3)


def test_weighted_fit_recovers_an_exact_line_and_scales_by_the_misfit() -> None:
    x = np.arange(10, dtype=float)[:, None]
    exact = weighted_fit(x, 1 + 2 * x[:, 0], np.full(10, 0.1), ["x"])
    assert exact.coef == pytest.approx([1, 2]) and exact.r2 == pytest.approx(1.0)
    noisy: Any = weighted_fit(x, 1 + 2 * x[:, 0] + np.tile([1.0, -1.0], 5), np.full(10, 0.1), ["x"])
    assert noisy.scale > 5  # residuals ten times the stated noise: the intervals widen with them
    assert noisy.interval(1)[1] - noisy.interval(1)[0] > 0.1


def test_implied_cost_is_the_design_mean_cost_plus_the_worth_of_each_stat_s_distance_from_its_mean() -> None:
    """Issue 34, item 3: one Atk worth 0.01 of score and one soul of cost -0.1 make a point of Atk worth 0.1 souls;
    a card two points of Atk above the design's mean costs 0.2 souls more than the design's mean cost (1). A card the
    design cannot describe, or whose result lies beyond the costs in play, gets the reason instead of a figure."""
    design = StatDesign(
        kind="monster",
        stats=(Attribute("Atk", 0, 12),),
        cost=Attribute("soul cost", 0, 2, "cost"),
        keywords=(),
        card_fields=lambda point, template: {},
        formula_cost=lambda point: point["Atk"] / 5,
        formula="one soul per five Atk (a test formula)",
        cost_unit="soul",
    )
    fit = Fit(["intercept", "Atk", "soul cost"], np.array([0.0, 0.01, -0.1]), np.eye(3) * 1e-8, 40, 0.9, 1.0)
    table = pd.DataFrame({"Atk": [3, 5, 7], "soul cost": [0, 1, 2]})
    own: list[tuple[str, float, dict[str, int] | str]] = [("Seven", 1.0, {"Atk": 7})]
    own += [("Effects", 1.0, "it has effects, which the design does not vary")]
    own += [("Far", 0.0, {"Atk": 12}), ("Huge", 2.0, {"Atk": 14})]
    implied = _implied_costs(design, fit, table, own, [0, 1], True).set_index("card")
    assert implied.loc["Seven", "implied"] == pytest.approx(1.2)
    assert implied.loc["Seven", "implied_low"] < 1.2 < implied.loc["Seven", "implied_high"]
    assert implied.loc["Seven", "formula_cost"] == pytest.approx(1.4) and implied.loc["Seven", "reason"] is None
    assert implied.loc["Effects", "implied"] is None and "effects" in implied.loc["Effects", "reason"]
    assert (
        implied.loc["Far", "implied"] is None
        and "beyond the costs measured in play (0-1)" in implied.loc["Far", "reason"]
    )
    assert "Atk 14 is beyond the design's 0-12" in implied.loc["Huge", "reason"]
    unpriced = _implied_costs(design, fit, table, own[:1], [0, 1], False)
    assert unpriced["implied"].iloc[0] is None and "not measurably worth score" in unpriced["reason"].iloc[0]


def test_souls_implied_costs_cover_every_monster_with_a_figure_or_a_reason() -> None:
    cardset, decks = _souls()
    values = stat_values(cardset, decks, 24, 150, RunSettings(seed=3, workers=1))
    monsters = [e.card for e in cardset.entries if isinstance(e.card, Monster)]
    implied = values.implied.set_index("card")
    assert list(implied.index) == [card.name for card in monsters]
    for card in monsters:
        row = implied.loc[card.name]
        if row["implied"] is None:
            assert isinstance(row["reason"], str) and row["reason"]
        else:
            assert row["implied_low"] <= row["implied"] <= row["implied_high"]
            assert row["formula_cost"] == soul_cost_for(card.atk, card.defense)
        if str(card.effects).strip():
            assert "effects" in row["reason"]
    assert values.to_json()["implied_costs"][0]["card"] == monsters[0].name
    assert "the set's own cards at the measured rates" in values.to_text()


def _plasma() -> tuple[CardSet, list[Deck]]:
    bundled = find_bundled_set("plasma/plasma_core")
    assert bundled is not None
    cardset = load_cardset(bundled.path)
    return cardset, set_decks(cardset, decks_folder_beside(bundled.path)).decks


def test_plasma_rates_stand_beside_the_set_s_fitted_line_which_prices_power_and_resolve_only() -> None:
    """The plasma document gives no cost formula, so the rates stand beside the line the workbench fits from the set
    (plasma/costs.py, as `validate` reports it): its weights are what it charges per point of power and resolve, and
    it prices no ability, which the output says in words instead of printing a 0."""
    cardset, decks = _plasma()
    fit = set_fit(cardset, cardset.ruleset.resolve_options(None))
    assert fit is not None
    values = stat_values(cardset, decks, 12, 120, RunSettings(seed=2, workers=1), replicates=2)
    again = stat_values(cardset, decks, 12, 120, RunSettings(seed=2, workers=1), replicates=2)
    assert values.to_json() == again.to_json()
    rates = values.rates.set_index("attribute")
    assert list(rates.index) == ["Power", "Resolve", "plasma cost", "Ping", "Draw"]
    # The fitted line is straight, so its average charge per point is its weight exactly.
    assert rates.loc["Power", "formula"] == pytest.approx(fit.power_weight)
    assert rates.loc["Resolve", "formula"] == pytest.approx(fit.resolve_weight)
    assert pd.isna(rates.loc["Ping", "formula"]) and pd.isna(rates.loc["Draw", "formula"])  # null in JSON
    assert pd.isna(rates.loc["Ping", "mispriced"]) and pd.isna(rates.loc["Draw", "mispriced"])
    assert [r["formula"] for r in values.to_json()["rates"]][3:] == [None, None]
    for name in ("Ping", "Draw"):
        said = next(s for s in values.statements if s.startswith(f"{name}: "))
        assert said.endswith("the set's fitted line does not price it.") and "charges" not in said
    assert not any("the formula" in s for s in values.statements)
    assert values.meta["formula"].startswith(f"the set's fitted line, {fit.formula()}")
    assert "the document gives no cost formula" in values.meta["formula"]
    assert values.meta["cost_unit"] == values.meta["cost_units"] == "plasma"
    cards = values.cards
    assert cards["formula_cost"].to_numpy() == pytest.approx(
        [fit.expected_cost(p, r) for p, r in zip(cards["Power"], cards["Resolve"], strict=True)]
    )
    # Every cost of the set's range is reached by the plasma ramp: none is out of play.
    assert values.meta["cost_levels_in_play"] == list(range(1, 8))
    assert "plasmas" not in values.to_text()
    # The set's own creatures: Storm Caller's ability is the design's Ping; Gloom Seer's costs 2, not varied.
    implied = values.implied.set_index("card")
    assert list(implied.index) == [e.card.name for e in cardset.entries if e.card.kind == "creature"]
    assert "'activate 2: draw 1'" in implied.loc["Gloom Seer", "reason"]
    assert implied.loc["Storm Caller", "formula_cost"] == pytest.approx(fit.expected_cost(3, 4))


def test_plasma_synthetic_creatures_carry_abilities_the_engine_plays() -> None:
    """Ping and Draw share one activation cost, so a card with both has one ability that the engine simulates whole
    (two costs would be two abilities, and the second would be dropped with an info finding)."""
    cardset, _ = _plasma()
    design = DESIGNS["plasma"]
    point = {"Power": 9, "Resolve": 1, "plasma cost": 7, "Ping": 1, "Draw": 1}
    extended = with_cards(cardset, "Shield Cadet", {"Both": design.card_fields(point, cardset.entries[0].card)})
    both = extended.find("Both")
    assert both is not None
    card = both.card
    assert (card.power, card.resolve, card.cost) == (9, 1, 7)  # type: ignore[attr-defined]
    assert parse_effects(card.effects).unknown == ()  # type: ignore[attr-defined]
    assert design.attributes_of is not None
    assert design.attributes_of(card) == {"Power": 9, "Resolve": 1, "Ping": 1, "Draw": 1}
    _, compiled, _ = compile_for(extended)
    assert not [f for f in compiled.findings if f.card == "Both"]
    unfitted = DESIGNS["plasma"].bind
    assert unfitted is not None
    bound = unfitted(cardset, cardset.ruleset.resolve_options({"min_creatures_to_fit": 100}))
    assert bound.formula.startswith("none: the document gives no cost formula, and the set's 32 creature(s)")
    assert not bound.prices("Power") and math.isnan(bound.formula_cost(point))


def test_plasma_another_seed_gives_rates_within_the_intervals() -> None:
    """Each seed draws its own design: the intervals carry the design's share (the sandwich covariance) beside the
    replicates' spread, so a re-run with another seed lands within them: every one of the five differences within
    the 95% interval of a difference, Bonferroni-adjusted for five (z 2.576), so the test as a whole is at 95%."""
    cardset, decks = _plasma()
    first = stat_values(cardset, decks, 16, 160, RunSettings(seed=0, workers=1))
    other = stat_values(cardset, decks, 16, 160, RunSettings(seed=1, workers=1))
    a, b = first.rates.set_index("attribute"), other.rates.set_index("attribute")
    assert len(a.index) == 5
    for name in a.index:
        half = 2.576 * math.hypot(a.loc[name, "se"], b.loc[name, "se"])
        assert abs(a.loc[name, "rate"] - b.loc[name, "rate"]) <= half, name
