"""The verdict decision (workbench.judging) on sets where the truth is known: powers drawn around a known line or known
tier means, with known noise, so which cards are mispriced beyond the tolerance is decided before the test runs."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from workbench.judging import (
    NO_COMPARATOR,
    ON_CURVE,
    OVER,
    UNDECIDED,
    UNDER,
    Measured,
    VerdictRule,
    benjamini_hochberg,
    chance_statement,
    decide,
    decide_with_stability,
    fit_line,
    hodges_lehmann,
    normal_resampler,
    planning_statement,
    second_look_plan,
)

RULE = VerdictRule()


def _measured(cost: list[float], power: list[float], se: float | list[float], **masks: list[bool]) -> Measured:
    n = len(cost)
    ses = np.full(n, se) if isinstance(se, float) else np.asarray(se, dtype=float)
    judged = np.asarray(masks.get("judged", [True] * n))
    return Measured(
        names=[f"card {i}" for i in range(n)],
        cost=np.asarray(cost, dtype=float),
        power=np.asarray(power, dtype=float),
        se=ses,
        judged=judged,
        in_line=np.asarray(masks.get("in_line", [True] * n)) & judged,
        rare=np.asarray(masks.get("rare", [False] * n)),
    )


def _line_set(rng: np.random.Generator, noise: float = 0.004, per_cost: int = 6) -> tuple[list[float], list[float]]:
    """Cards on the line power = 0.08 x cost - 0.2 (one cost step: 0.08), `per_cost` at each cost 1-5, each measured
    with `noise`."""
    cost = [float(c) for c in range(1, 6) for _ in range(per_cost)]
    power = [0.08 * c - 0.2 + rng.normal(0, noise) for c in cost]
    return cost, power


def test_benjamini_hochberg_matches_the_procedure_worked_by_hand() -> None:
    # Benjamini & Hochberg (1995), the step-up rule: sort, p_(k) x m / k, running minimum from the top.
    p = np.array([0.01, 0.04, 0.03, 0.005, 0.2])
    by_hand = {0.005: 0.025, 0.01: 0.025, 0.03: 0.05, 0.04: 0.05, 0.2: 0.2}
    assert benjamini_hochberg(p) == pytest.approx([by_hand[v] for v in p])
    assert benjamini_hochberg(np.array([])).size == 0


def test_identical_cards_get_identical_verdicts_and_figures() -> None:
    rng = np.random.default_rng(1)
    cost, power = _line_set(rng)
    # Three exact clones of an over card and three of an on-curve one, at the same cost, with the same measurement.
    cost += [3.0] * 6
    power += [0.2] * 3 + [0.04] * 3
    measured = _measured(cost, power, 0.004)
    decision = decide_with_stability(measured, RULE, normal_resampler(measured.power, measured.se), seed=0)
    for clones in ([30, 31, 32], [33, 34, 35]):
        assert len({decision.flag[i] for i in clones}) == 1
        assert len({decision.q_value[i] for i in clones}) == 1
        assert len({round(decision.centre[i], 12) for i in clones}) == 1
    assert decision.flag[30] == OVER


def test_a_set_of_identical_cards_flags_none_and_shows_them_on_curve() -> None:
    measured = _measured([2.0] * 12, [0.05] * 12, 0.003)
    decision = decide(measured)
    assert set(decision.flag) == {ON_CURVE}
    assert decision.basis == ["tier"] * 12


def test_planted_mispricing_beyond_the_tolerance_is_found_and_within_it_is_not_flagged() -> None:
    found_over = found_under = 0
    seeds = range(10)
    for seed in seeds:
        rng = np.random.default_rng(seed)
        cost, power = _line_set(rng)
        # One card one and a half cost steps too strong, one as much too weak; one 0.01 off (within tolerance).
        cost += [2.0, 4.0, 3.0]
        power += [0.08 * 2 - 0.2 + 0.12, 0.08 * 4 - 0.2 - 0.12, 0.08 * 3 - 0.2 + 0.01]
        decision = decide(_measured(cost, power, 0.004))
        assert decision.line.rises
        found_over += decision.flag[30] == OVER
        found_under += decision.flag[31] == UNDER
        assert decision.flag[32] in (ON_CURVE, UNDECIDED)
        # Cards exactly on the line are never flagged.
        assert not {OVER, UNDER} & set(decision.flag[:30])
    assert found_over == found_under == len(seeds)


def test_the_false_discovery_rate_holds_when_no_card_is_mispriced_beyond_the_tolerance() -> None:
    """Every card's true power sits exactly at the tolerance's edge (the hardest null): flags are false discoveries,
    and their share over many sets stays near or under 5%; testing each card alone would flag far more."""
    rng = np.random.default_rng(7)
    false_flags = sets = 0
    for _ in range(300):
        tiers = np.repeat([1.0, 2.0, 3.0], 8)
        truth = np.where(np.arange(24) % 2 == 0, RULE.tolerance, -RULE.tolerance) + 0.1 * tiers
        # With a tier comparator the band is the other cards' mean; plant the edge on half the cards only, so that
        # the mean of the others stays near the tier's own value.
        truth[np.arange(24) % 4 >= 2] = 0.1 * tiers[np.arange(24) % 4 >= 2]
        power = truth + rng.normal(0, 0.01, 24)
        decision = decide(_measured(tiers.tolist(), power.tolist(), 0.01))
        false_flags += sum(flag in (OVER, UNDER) for flag in decision.flag)
        sets += 1
    # At most 5% of the cards at the edge (12 a set) may be flagged on average; the hard null gives fewer.
    assert false_flags / (sets * 12) <= 0.05


def test_the_p_value_is_exact_at_the_tolerance_s_edge_not_twice_too_conservative() -> None:
    """A card whose true excess sits exactly at band + tolerance: its p-value is uniform there (Hodges & Lehmann's
    interval null), so a 5% test flags it about 5% of the time, where the doubled one-sided test flagged 2.5%."""
    rng = np.random.default_rng(11)
    flagged = trials = 0
    for _ in range(400):
        # Twenty cards at cost 1, all on the tier mean but card 0, planted at the edge; the others' mean is exact.
        power = np.zeros(20)
        power[0] = RULE.tolerance + rng.normal(0, 0.01)
        decision = decide(_measured([1.0] * 20, power.tolist(), [0.01] + [0.0] * 19))
        flagged += bool(decision.p_value[0] <= 0.05)
        trials += 1
    assert 0.03 <= flagged / trials <= 0.07
    # Far inside the band with no noise: no evidence at all; far outside: certain.
    inside = decide(_measured([1.0] * 3, [0.0, 0.0, 0.0], 0.0))
    assert inside.p_value == pytest.approx([1.0, 1.0, 1.0])
    outside = decide(_measured([1.0] * 3, [0.5, 0.0, 0.0], [0.01, 0.0, 0.0]))
    assert outside.p_value[0] < 1e-12


def test_a_card_alone_at_its_cost_with_no_rising_line_has_no_comparator() -> None:
    # Power falls with cost, so each card is set against the other cards of its own cost: cost 5 has one card.
    cost = [1.0] * 5 + [2.0] * 5 + [5.0]
    power = [0.1] * 5 + [0.0] * 5 + [-0.5]
    decision = decide(_measured(cost, power, 0.005))
    assert not decision.line.rises
    assert decision.flag[10] == NO_COMPARATOR
    assert decision.basis[10] is None and math.isnan(decision.p_value[10])
    assert decision.tested == 10


def test_the_band_rests_on_the_other_cards_never_on_the_card_itself() -> None:
    # A tier of two: each card is compared with the other one alone.
    decision = decide(_measured([1.0, 1.0, 2.0, 2.0], [0.0, 0.3, 0.1, 0.1], 0.005))
    assert decision.comparator_cards[0] == ["card 1"] and decision.comparator_cards[1] == ["card 0"]
    assert decision.centre[0] == pytest.approx(0.3) and decision.centre[1] == pytest.approx(0.0)


def test_a_precise_card_inside_the_tolerance_is_on_curve_and_a_noisy_one_is_undecided() -> None:
    cost = [1.0] * 10 + [1.0, 1.0]
    power = [0.0] * 10 + [0.01, 0.01]
    decision = decide(_measured(cost, power, [0.001] * 10 + [0.002, 0.05]))
    assert decision.flag[10] == ON_CURVE
    assert decision.flag[11] == UNDECIDED
    assert math.isfinite(decision.matches_factor[11]) and decision.matches_factor[11] > 1


def test_the_matches_to_decide_decide_the_card_at_its_estimate() -> None:
    cost = [1.0] * 10 + [1.0]
    power = [0.0] * 10 + [0.045]
    se = [0.001] * 10 + [0.02]
    decision = decide(_measured(cost, power, se))
    assert decision.flag[10] == UNDECIDED
    factor = decision.matches_factor[10]
    assert math.isfinite(factor)
    # The same estimate measured on `factor` times the matches: its error shrinks as 1/sqrt(matches).
    again = decide(_measured(cost, power, se[:10] + [0.02 / math.sqrt(factor * 1.01)]))
    assert again.flag[10] == OVER


def test_a_tolerance_wider_than_the_mispricing_keeps_a_card_from_being_flagged() -> None:
    cost = [1.0] * 10 + [1.0]
    power = [0.0] * 10 + [0.05]
    assert decide(_measured(cost, power, 0.002), VerdictRule(tolerance=0.02)).flag[10] == OVER
    assert decide(_measured(cost, power, 0.002), VerdictRule(tolerance=0.08)).flag[10] == ON_CURVE


def test_a_rarely_played_card_gets_a_clear_verdict_and_otherwise_its_rare_label() -> None:
    cost = [1.0] * 10 + [1.0, 1.0]
    power = [0.0] * 10 + [0.3, 0.01]
    rare = [False] * 10 + [True, True]
    decision = decide(_measured(cost, power, 0.004, rare=rare, in_line=[not r for r in rare]))
    assert decision.flag[10] == OVER
    assert decision.flag[11] == "rarely played"
    assert "card 10" not in decision.comparator_cards[0]


def test_the_stability_figure_is_a_share_and_a_clear_verdict_is_stable() -> None:
    rng = np.random.default_rng(3)
    cost, power = _line_set(rng)
    cost.append(3.0)
    power.append(0.04 + 0.3)
    measured = _measured(cost, power, 0.004)
    decision = decide_with_stability(measured, RULE, normal_resampler(measured.power, measured.se), seed=4)
    assert decision.resamples == RULE.resamples
    assert decision.stability[-1] == 1.0
    assert np.all((decision.stability >= 0) & (decision.stability <= 1))
    again = decide_with_stability(measured, RULE, normal_resampler(measured.power, measured.se), seed=4)
    assert np.array_equal(decision.stability, again.stability)


def test_theil_sen_with_sen_s_interval_rises_only_when_the_interval_is_above_zero() -> None:
    line = fit_line(np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]))
    assert line.slope == pytest.approx(0.1) and line.rises
    flat = fit_line(np.array([1.0, 2.0, 3.0]), np.array([0.2, 0.1, 0.25]))
    assert not flat.rises
    assert fit_line(np.array([2.0, 2.0]), np.array([0.1, 0.3])).slope_low is None


def test_hodges_lehmann_is_the_median_of_the_walsh_averages_and_shrugs_off_a_wild_value() -> None:
    # Walsh averages of (0, 1, 5): 0, 0.5, 2.5, 1, 3, 5 -> median 1.75.
    assert hodges_lehmann(np.array([0.0, 1.0, 5.0])) == pytest.approx(1.75)
    assert hodges_lehmann(np.array([0.2])) == pytest.approx(0.2)
    calm = np.linspace(-0.01, 0.01, 11)
    wild = calm.copy()
    wild[-1] = 5.0  # one card wildly mispriced: a mean would move by 0.45
    assert abs(hodges_lehmann(wild) - hodges_lehmann(calm)) < 0.005


def test_the_line_s_intercept_moves_less_with_the_cards_noise_than_the_median_of_residuals_did() -> None:
    # 40 cards around a known line (most at the cheap costs, as in SOURCE's set), each truly off it by its own amount
    # (sd 0.02: cards of one cost are not priced alike), each run measuring them with noise of 0.004: over 300 seeded
    # runs the fitted line at cost 2 scatters less with the Hodges-Lehmann intercept than with the median of the
    # residuals (the estimator before issue 29's change: it jumps from one card to its neighbour as their noise
    # reorders them), and stays centred on the truth.
    cost = np.array([0.0] * 14 + [1.0] * 12 + [2.0] * 8 + [3.0] * 4 + [4.0] * 2)
    generator = np.random.default_rng(29)
    truth = 0.033 * cost - 0.006 + generator.normal(0.0, 0.02, len(cost))
    now, before = [], []
    for _ in range(300):
        power = truth + generator.normal(0.0, 0.004, len(cost))
        line = fit_line(cost, power)
        now.append(line.at(2.0))
        before.append(line.slope * 2.0 + float(np.median(power - line.slope * cost)))
    assert np.std(now) < 0.8 * np.std(before)
    assert abs(np.mean(now) - fit_line(cost, truth).at(2.0)) < 0.002


def test_the_sentences_say_the_chance_of_a_wrong_flag_and_the_matches_that_decide() -> None:
    decision = decide(_measured([1.0] * 10 + [1.0], [0.0] * 10 + [0.3], 0.004))
    said = chance_statement(decision, RULE)
    assert said.startswith("1 of 11 tested cards flagged over or under")
    assert "Benjamini-Hochberg" in said and "0.6 of the 11 cards by chance alone" in said
    factor = np.array([math.nan, 2.0, math.inf])
    plan = planning_statement(["a", "b", "c"], factor, np.array([2000.0, 2000.0, 2000.0]), 10_000_000)
    assert plan is not None
    assert "run about 4,000 matches per card" in plan and "will not decide c" in plan
    assert planning_statement(["a"], np.array([math.nan]), np.array([1.0]), 10) is None


def test_a_tolerance_below_zero_is_refused() -> None:
    with pytest.raises(ValueError, match="tolerance"):
        VerdictRule(tolerance=-0.01)


def _two_looks(true_excess: float, rule: VerdictRule, trials: int, seed: int) -> tuple[float, float]:
    """The share of trials a card with this true power (against six exact cards of its cost at 0) reads on curve
    after one look, and after the power curve's second look (`second_look_plan`, as `power_curve` makes it): an
    undecided card a second look decides within the cap is measured again up to the plan's multiple of its matches
    and decided on all."""
    rng = np.random.default_rng(seed)
    se1, cost = 0.01, [1.0] * 7
    once = twice = 0
    for _ in range(trials):
        first = rng.normal(true_excess, se1)
        decision = decide(_measured(cost, [first, *[0.0] * 6], [se1, *[1e-9] * 6]), rule)
        once += decision.flag[0] == ON_CURVE
        plan = second_look_plan(decision, rule)
        if 0 in plan.cards:
            more = plan.times - 1.0
            pooled = (first + more * rng.normal(true_excess, se1 / math.sqrt(more))) / (1.0 + more)
            again = replace(
                _measured(cost, [pooled, *[0.0] * 6], [se1 / math.sqrt(1.0 + more), *[1e-9] * 6]),
                second_look=np.array([True, *[False] * 6]),
            )
            decision = decide(again, rule)
        twice += decision.flag[0] == ON_CURVE
    return once / trials, twice / trials


def test_a_second_look_decides_more_cards_and_holds_a_wrong_on_curve_near_five_percent() -> None:
    """Issue 29: looking twice at a card at the tolerance's edge (the least favourable truth), each look at the full
    5%, reads it on curve about 7% of the time; the second look's stricter level (a fifth of each) brings that back
    to about 5%, while a card truly on its band is still decided far more often than by one look."""
    trials = 3_000
    _, full_level = _two_looks(RULE.tolerance, replace(RULE, second_look_level=1.0), trials, seed=5)
    once, stricter = _two_looks(RULE.tolerance, RULE, trials, seed=5)
    margin = 2.6 * math.sqrt(0.05 * 0.95 / trials)
    assert once <= 0.05 + margin and stricter <= 0.05 + margin < full_level
    on_band_once, on_band_twice = _two_looks(0.0, RULE, 1_000, seed=6)
    assert on_band_twice > on_band_once + 0.15
