"""How a card's verdict is decided from its measured power: a decision, made like one.

Every power curve (the tournament's in `workbench.analysis`, the whole Blades game's in `workbench.full_game`) hands
this module each card's cost, power and standard error, which cards may serve as comparators and which get a
verdict, and gets back one decision per card. docs/simulation.md ("How a verdict is decided") says the same in a
designer's words.

1. **The comparator.** When the fitted line rises with cost (Theil-Sen, Sen's 95% slope interval above 0), a card is
   compared with the line fitted over the *other* comparator cards (leave one out, so a card never pulls its own
   band towards itself): its band is the line from cost - 1/2 to cost + 1/2. Otherwise it is compared with the mean
   power of the other comparator cards of its own cost (the band is that mean); a card whose cost has no other
   comparator card and no rising line gets **no comparator**, never a verdict against other costs.
2. **The band's own uncertainty.** The line's value at a cost carries the scatter of the cards around it
   (a robust residual scale, 1.4826 x the median absolute residual, times sqrt(1/m + (c - mean c)^2 / Sxx)); a tier
   mean carries the pooled spread of powers within tiers (the card's own deviation left out) over the number of
   cards it rests on. The card's own
   standard error and the band's are added in quadrature: interval against interval.
3. **A tolerance that matters.** A designer-set tolerance (`POWER_CURVE_DEFAULTS.tolerance`, 0.02 of score) is
   added to each side of the band: a card is mispriced only when it lies beyond band + tolerance.
4. **False-discovery control.** Each judged card with a comparator gets the exact p-value of the interval null
   "lies within band + tolerance" (Hodges & Lehmann 1954, JRSS B 16:261-268: the chance of an estimate at least this
   far from the band's centre, either way, for a card sitting at the tolerance's edge; a doubled one-sided test,
   used before, was up to twice too conservative), and the flags are the cards whose
   Benjamini-Hochberg adjusted p-value (q-value) is at most `false_discovery_rate` (5%): among the cards flagged
   over or under, the expected share of wrong flags is at most 5% (Benjamini & Hochberg 1995, JRSS B 57:289-300).
5. **On curve is an equivalence test.** A card not flagged is on curve only when both one-sided tests at 5% put
   it inside band + tolerance (Schuirmann's two one-sided tests, 1987, J. Pharmacokinet. Biopharm. 15:657-680):
   |excess| + 1.645 sd <= half band + tolerance. Otherwise it is **undecided**.
6. **What the run could detect, and what would decide it.** `detectable` is the smallest distance beyond the band's
   edge that this run flags four times in five (z of the Bonferroni threshold, the strictest BH can be, plus
   z(0.8), times sd, plus the tolerance). For an undecided card, `matches_to_decide` is the matches per card that
   would bring its sd down far enough to decide it at its current estimate, holding fixed the part of the band's
   uncertainty that more matches cannot shrink (the spread between cards); None when that part alone is too wide.
7. **Stability.** The whole decision (comparators, false-discovery control, tests) is made again on resampled
   powers (a bootstrap of the matches, resampled jointly for every card so common random numbers stay paired,
   Efron & Tibshirani 1993), and each card's stability is the share of resamples that give its verdict again.

Pure numpy and the standard library: no pandas here, so the decision can be tested on plain arrays.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from statistics import NormalDist

import numpy as np

from workbench.power_defaults import POWER_CURVE_DEFAULTS

OVER = "over"
"""Stronger than its cost buys, beyond band + tolerance, with the false-discovery rate controlled."""
UNDER = "under"
"""Weaker than its cost buys, beyond band + tolerance, with the false-discovery rate controlled."""
ON_CURVE = "on curve"
"""Within band + tolerance, by the equivalence test."""
UNDECIDED = "undecided"
"""Neither flagged nor shown within tolerance: the run cannot tell; `matches_to_decide` says what would."""
NO_COMPARATOR = "no comparator"
"""No other judged card shares its cost and the line does not rise: nothing to compare it with."""
VERDICT_FLAGS = (OVER, UNDER, ON_CURVE, UNDECIDED, NO_COMPARATOR)
"""Every outcome of the decision for a judged card."""
Z95 = 1.959964
"""Two-sided 95% normal quantile."""
LEAVE_ONE_OUT_LIMIT = 400
"""Up to this many comparator cards, each card's line is fitted without it; above, one line serves all (one card of
so many cannot move a median slope) and keeps the work in proportion to the set."""
RESAMPLED_CARDS = 40_000
"""A stability figure decides each card again at most about this many times in all: above 200 cards the resamples
shrink (never below `MIN_RESAMPLES`), so a large set's work stays in proportion to its cards."""
MIN_RESAMPLES = 20
"""The fewest resamples a stability figure rests on when any are asked for."""
NAMED_COMPARATORS = 12
"""A band names at most this many of the cards it rests on (and counts them all)."""
LINE_FIT_LIMIT = 1_500
"""A line is fitted over at most this many cards (an even spread of them by cost, chosen without chance): Theil-Sen
weighs every pair, so the work grows with the square of the cards."""
_NORMAL = NormalDist()


@dataclass(frozen=True)
class VerdictRule:
    """What a designer decides a verdict with: how much mispricing matters and how sure a flag must be."""

    tolerance: float = POWER_CURVE_DEFAULTS.tolerance
    """Mispricing that does not matter, in score: added to each side of a card's band."""
    false_discovery_rate: float = POWER_CURVE_DEFAULTS.false_discovery_rate
    """Benjamini-Hochberg level over the cards of one curve: the expected share of wrong flags among the flags."""
    equivalence_alpha: float = 0.05
    """Each one-sided test of the equivalence (on curve) test is at this level."""
    resamples: int = POWER_CURVE_DEFAULTS.resamples
    """Bootstrap resamples behind each card's stability figure (0: no stability figure)."""
    detect_power: float = 0.8
    """`detectable` is the mispricing flagged this often."""
    follow_up: float = POWER_CURVE_DEFAULTS.follow_up
    """The second look of a power curve: an undecided card that more matches would decide within this many times its
    matches is measured again and decided on all of them (1: no second look). Comparisons on common random numbers
    (sweeps, suggested-cost checks, stat values, proposals, version diffs) turn it off: their match sets must not
    depend on what was measured."""
    second_look_level: float = 0.2
    """A card measured again by a second look is decided at this share of each level (the equivalence test at
    5% x 0.2 = 1% a side, flagged at a q-value of 1%): looking twice at a card, each time at the full level, gives a
    card at the tolerance's edge a wrong "on curve" about 7% of the time instead of 5%; at a fifth, about 5%
    (measured: tests/test_judging.py)."""

    def __post_init__(self) -> None:
        if not (math.isfinite(self.tolerance) and self.tolerance >= 0):
            raise ValueError("the tolerance is a score of 0 or more")
        if not 0 < self.false_discovery_rate < 1:
            raise ValueError("the false-discovery rate is a share between 0 and 1")
        if not (math.isfinite(self.follow_up) and self.follow_up >= 1):
            raise ValueError("the second look's cap is a number of times the matches, 1 (none) or more")
        if not 0 < self.second_look_level <= 1:
            raise ValueError("the second look's level is a share of each level, above 0 and at most 1")


@dataclass(frozen=True)
class Line:
    """A Theil-Sen line of power on cost with Sen's 95% interval of its slope."""

    intercept: float
    """Power at cost 0."""
    slope: float
    """Power per cost step."""
    slope_low: float | None = None
    """Lower end of the slope's 95% interval (None with fewer than two distinct costs)."""
    slope_high: float | None = None
    """Upper end of the slope's 95% interval (None with fewer than two distinct costs)."""

    @property
    def rises(self) -> bool:
        """True when the slope and the whole of its interval are above 0."""
        return self.slope > 0 and self.slope_low is not None and self.slope_low > 0

    def at(self, cost: float) -> float:
        """The line's power at a cost."""
        return self.intercept + self.slope * cost


def hodges_lehmann(values: np.ndarray) -> float:
    """The Hodges-Lehmann location of `values`: the median of the Walsh averages (v_i + v_j) / 2 over i <= j (Hodges &
    Lehmann 1963, Ann. Math. Statist. 34:598-611). As robust as a median to a few wild values (29% breakdown) but
    about as efficient as a mean on normal noise (95% against the median's 64%), so it moves less with each card's
    measurement noise from one seed to the next."""
    values = np.asarray(values, dtype=float)
    i, j = np.triu_indices(len(values))
    return float(np.median((values[i] + values[j]) / 2.0))


def theil_sen(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """(intercept, slope): the median slope over pairs of distinct x (Sen 1968), and the Hodges-Lehmann location of
    the residuals y - slope * x as the intercept, the intercept of a rank-based fit (Hettmansperger & McKean 2011,
    Robust Nonparametric Statistical Methods, 2nd ed., section 3.5.2). The median of the residuals, used before,
    moved a line's value at a cost about 1.6 times as much between seeds (SOURCE's bundled set at the defaults,
    seeds 0-4: 0.0039 against 0.0025 of score, issue 29)."""
    i, j = np.triu_indices(len(x), k=1)
    distinct = x[i] != x[j]
    slope = float(np.median((y[j] - y[i])[distinct] / (x[j] - x[i])[distinct]))
    return hodges_lehmann(y - slope * x), slope


def _thinned(cost: np.ndarray) -> np.ndarray:
    """Indices of at most `LINE_FIT_LIMIT` cards spread evenly over the cards ordered by cost (all of them when
    there are fewer)."""
    if len(cost) <= LINE_FIT_LIMIT:
        return np.arange(len(cost))
    order = np.argsort(cost, kind="stable")
    return order[np.linspace(0, len(cost) - 1, LINE_FIT_LIMIT).round().astype(int)]


def fit_line(cost: np.ndarray, power: np.ndarray) -> Line:
    """Theil-Sen line of power on cost (the median pairwise slope: a few mispriced cards cannot tilt it), with Sen's
    (1968) 95% interval of the slope (equation 2.6, ties in cost and in power corrected, as scipy.stats.theilslopes
    computes it). Fewer than two distinct costs: a flat line at the powers' Hodges-Lehmann location."""
    cost = np.asarray(cost, dtype=float)
    power = np.asarray(power, dtype=float)
    if len(cost) == 0:
        return Line(0.0, 0.0)
    if len(np.unique(cost)) < 2:
        return Line(hodges_lehmann(power), 0.0)
    keep = _thinned(cost)
    cost, power = cost[keep], power[keep]
    intercept, slope = theil_sen(cost, power)
    i, j = np.triu_indices(len(cost), k=1)
    distinct = cost[i] != cost[j]
    slopes = np.sort((power[j] - power[i])[distinct] / (cost[j] - cost[i])[distinct])
    n, pairs = len(cost), len(slopes)

    def ties(values: np.ndarray) -> float:
        counts = np.unique(values, return_counts=True)[1]
        return float(np.sum(counts * (counts - 1) * (2 * counts + 5)))

    sigma = math.sqrt(max(0.0, (n * (n - 1) * (2 * n + 5) - ties(cost) - ties(power)) / 18.0))
    upper = min(int(np.round((pairs + Z95 * sigma) / 2.0)), pairs - 1)
    lower = max(int(np.round((pairs - Z95 * sigma) / 2.0)) - 1, 0)
    return Line(intercept, slope, float(slopes[lower]), float(slopes[upper]))


def benjamini_hochberg(p_values: np.ndarray) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (q-values): reject every hypothesis whose q is at most the chosen
    false-discovery rate (Benjamini & Hochberg 1995, step-up procedure)."""
    p = np.asarray(p_values, dtype=float)
    m = len(p)
    if m == 0:
        return p.copy()
    order = np.argsort(p, kind="stable")
    ranked = p[order] * m / np.arange(1, m + 1)
    adjusted = np.minimum.accumulate(ranked[::-1])[::-1]
    out = np.empty(m)
    out[order] = np.minimum(adjusted, 1.0)
    return out


@dataclass(frozen=True)
class Measured:
    """What a verdict is decided from: one entry per card of the curve."""

    names: Sequence[str]
    """Card names, in the curve's order."""
    cost: np.ndarray
    """Each card's cost."""
    power: np.ndarray
    """Each card's measured power (change in score)."""
    se: np.ndarray
    """The standard error of each card's power."""
    judged: np.ndarray
    """True for the cards that get a verdict (not a baseline, an interval measured)."""
    in_line: np.ndarray
    """True for the cards a band may rest on (judged and played often enough to be measured)."""
    rare: np.ndarray | None = None
    """True for the judged cards played too seldom to be measured: they keep out of every band, and unless they
    lie clearly beyond theirs (over or under), they are flagged `rare_label` instead of a verdict."""
    rare_label: str = "rarely played"
    """The flag of a rare card with no clear verdict."""
    second_look: np.ndarray | None = None
    """True for the cards measured again by a second look (`VerdictRule.follow_up`): each is decided at
    `VerdictRule.second_look_level` of each level."""


@dataclass(frozen=True)
class Decision:
    """The decision for every card of a curve, as arrays in the curve's order (NaN / None where not judged)."""

    flag: list[str | None]
    """One of `VERDICT_FLAGS` (or the rare label) for a judged card, None for the others."""
    basis: list[str | None]
    """`line` (the leave-one-out line) or `tier` (the other cards of its cost), None without a comparator."""
    centre: np.ndarray
    """The comparator's power at the card's cost."""
    band_low: np.ndarray
    """The band's lower edge (the line at cost - 1/2, or the tier mean)."""
    band_high: np.ndarray
    """The band's upper edge (the line at cost + 1/2, or the tier mean)."""
    comparator_se: np.ndarray
    """The band's own standard error."""
    comparator_fixed_se: np.ndarray
    """The part of `comparator_se` that more matches cannot shrink (the spread between cards)."""
    comparator_cards: list[list[str]]
    """The cards each band rests on (the first `NAMED_COMPARATORS` of them, in the curve's order)."""
    comparator_count: np.ndarray
    """How many cards each band rests on."""
    line_intercept: np.ndarray
    """Intercept of the card's own (leave-one-out) line, NaN with a tier comparator."""
    line_slope: np.ndarray
    """Slope of the card's own (leave-one-out) line, NaN with a tier comparator."""
    excess: np.ndarray
    """Power minus the band's centre."""
    sd: np.ndarray
    """Standard error of `excess`: the card's and the band's, in quadrature."""
    p_value: np.ndarray
    """P-value of "lies beyond band + tolerance" (both directions)."""
    q_value: np.ndarray
    """Benjamini-Hochberg adjusted p-value over the judged cards with a comparator."""
    detectable: np.ndarray
    """Smallest distance beyond the band's edge that this run flags `detect_power` of the time."""
    matches_factor: np.ndarray
    """For an undecided card, how many times its matches would decide it (inf: more matches alone cannot)."""
    line: Line
    """The line over every comparator card (the one a designer sees)."""
    tested: int
    """How many cards were tested (judged, with a comparator)."""
    stability: np.ndarray = field(default_factory=lambda: np.array([]))
    """Share of bootstrap resamples that give the card's verdict again (NaN when not judged or not resampled)."""
    resamples: int = 0
    """How many resamples `stability` rests on."""


def _band_scale(residuals: np.ndarray) -> float:
    """A robust scale of the cards' scatter around their comparator: 1.4826 x the median absolute deviation, or the
    standard deviation when half the residuals are 0."""
    if len(residuals) < 2:
        return 0.0
    mad = 1.4826 * float(np.median(np.abs(residuals - np.median(residuals))))
    return mad if mad > 0 else float(np.std(residuals, ddof=1))


def decide(measured: Measured, rule: VerdictRule = VerdictRule()) -> Decision:
    """Each judged card's verdict (see the module docstring), without stability (see `decide_with_stability`)."""
    names = list(measured.names)
    cost = np.asarray(measured.cost, dtype=float)
    power = np.asarray(measured.power, dtype=float)
    se = np.asarray(measured.se, dtype=float)
    judged = np.asarray(measured.judged, dtype=bool)
    in_line = np.asarray(measured.in_line, dtype=bool) & judged
    n = len(names)
    members = np.flatnonzero(in_line)
    line = fit_line(cost[members], power[members])
    nan = np.full(n, math.nan)
    centre, band_low, band_high = nan.copy(), nan.copy(), nan.copy()
    comp_se, comp_fixed = nan.copy(), nan.copy()
    intercepts, slopes = nan.copy(), nan.copy()
    basis: list[str | None] = [None] * n
    rests_on: list[list[str]] = [[] for _ in range(n)]
    counts = np.zeros(n, dtype=int)
    noise = float(np.mean(se[members] ** 2)) if len(members) else 0.0
    if line.rises:
        own_lines = _leave_one_out_lines(cost, power, members, np.flatnonzero(judged))
        mean_cost = float(cost[members].mean())
        sxx = float(((cost[members] - mean_cost) ** 2).sum())
        residuals = power[members] - (line.intercept + line.slope * cost[members])
        scatter = _band_scale(residuals) ** 2
        for i in np.flatnonzero(judged):
            intercept, slope = own_lines[int(i)]
            m = len(members) - (1 if in_line[i] else 0)
            leverage = 1.0 / max(m, 1) + ((cost[i] - mean_cost) ** 2 / sxx if sxx > 0 else 0.0)
            basis[i] = "line"
            intercepts[i], slopes[i] = intercept, slope
            centre[i] = intercept + slope * cost[i]
            band_low[i], band_high[i] = intercept + slope * (cost[i] - 0.5), intercept + slope * (cost[i] + 0.5)
            comp_se[i] = math.sqrt(scatter * leverage)
            comp_fixed[i] = math.sqrt(max(scatter - noise, 0.0) * leverage)
            counts[i] = m
            rests_on[i] = [names[j] for j in members[: NAMED_COMPARATORS + 1] if j != i][:NAMED_COMPARATORS]
    else:
        tiers: dict[float, list[int]] = {}
        for j in members:
            tiers.setdefault(float(cost[j]), []).append(int(j))
        # The pooled spread within tiers, each card's own deviation left out of its own band's spread.
        sums = {c: float(((power[g] - power[g].mean()) ** 2).sum()) for c, g in tiers.items()}
        total_ss = sum(sums.values())
        total_dof = sum(len(g) - 1 for g in tiers.values())
        noise_sum = float((se[members] ** 2).sum())
        group_sums = {c: float(power[g].sum()) for c, g in tiers.items()}
        group_means = {c: group_sums[c] / len(g) for c, g in tiers.items()}
        for i in np.flatnonzero(judged):
            key = float(cost[i])
            group = tiers.get(key, [])
            member = bool(in_line[i])  # a member of the band's cards is a member of its own cost's group
            count = len(group) - (1 if member else 0)
            if count == 0:
                continue
            ss, dof, own_noise = total_ss, total_dof, noise_sum
            if member:
                ss -= len(group) / (len(group) - 1) * (power[i] - group_means[key]) ** 2
                dof -= 1
                own_noise -= float(se[i] ** 2)
            kept = len(members) - (1 if member else 0)
            noise_i = own_noise / kept if kept else 0.0
            pooled = max(ss, 0.0) / dof if dof > 0 else noise_i
            basis[i] = "tier"
            centre[i] = band_low[i] = band_high[i] = (group_sums[key] - (float(power[i]) if member else 0.0)) / count
            comp_se[i] = math.sqrt(pooled / count)
            comp_fixed[i] = math.sqrt(max(pooled - noise_i, 0.0) / count)
            counts[i] = count
            rests_on[i] = [names[j] for j in group[: NAMED_COMPARATORS + 1] if j != i][:NAMED_COMPARATORS]
    has = np.array([b is not None for b in basis], dtype=bool)
    tested = int(has.sum())
    half = (band_high - band_low) / 2
    excess = power - centre
    sd = np.sqrt(se**2 + comp_se**2)
    margin = half + rule.tolerance
    # The null "within band + tolerance" is least favourable at its edge: an estimate this far out, either way.
    p_value = np.where(
        has,
        np.minimum(1.0, _upper_tail(np.abs(excess) - margin, sd) + _upper_tail(np.abs(excess) + margin, sd)),
        math.nan,
    )
    q_value = nan.copy()
    q_value[has] = benjamini_hochberg(p_value[has])
    z_eq = _NORMAL.inv_cdf(1 - rule.equivalence_alpha)
    z_eq_again = _NORMAL.inv_cdf(1 - rule.equivalence_alpha * rule.second_look_level)
    again = np.zeros(n, dtype=bool) if measured.second_look is None else np.asarray(measured.second_look, dtype=bool)
    z_flag = _NORMAL.inv_cdf(1 - rule.false_discovery_rate / (2 * max(tested, 1)))
    z_flag_again = _NORMAL.inv_cdf(1 - rule.false_discovery_rate * rule.second_look_level / (2 * max(tested, 1)))
    z_power = _NORMAL.inv_cdf(rule.detect_power)
    flags: list[str | None] = [None] * n
    factor = nan.copy()
    rare = np.zeros(n, dtype=bool) if measured.rare is None else np.asarray(measured.rare, dtype=bool)
    for i in np.flatnonzero(judged):
        level = rule.second_look_level if again[i] else 1.0
        flagged = bool(has[i]) and q_value[i] <= rule.false_discovery_rate * level
        if rare[i] and not flagged:
            # Its power is mostly the filler's matches: only a clear verdict is given.
            flags[i] = measured.rare_label
        elif not has[i]:
            flags[i] = NO_COMPARATOR
        elif flagged:
            flags[i] = OVER if excess[i] > 0 else UNDER
        elif abs(excess[i]) + (z_eq_again if again[i] else z_eq) * sd[i] <= half[i] + rule.tolerance:
            flags[i] = ON_CURVE
        else:
            flags[i] = UNDECIDED
            factor[i] = _matches_factor(
                abs(excess[i]) - half[i] - rule.tolerance,
                se[i],
                comp_se[i],
                comp_fixed[i],
                z_flag_again if again[i] else z_flag,
                z_eq_again if again[i] else z_eq,
            )
    detectable = np.where(has, rule.tolerance + (z_flag + z_power) * sd, math.nan)
    return Decision(
        flags,
        basis,
        centre,
        band_low,
        band_high,
        comp_se,
        comp_fixed,
        rests_on,
        counts,
        intercepts,
        slopes,
        excess,
        sd,
        p_value,
        q_value,
        detectable,
        factor,
        line,
        tested,
    )


def _upper_tail(distance: np.ndarray, sd: np.ndarray) -> np.ndarray:
    """P(a normal with mean 0 and this sd exceeds `distance`'s estimate) per card: the one-sided p-value of
    "lies beyond" (0 or 1 when the sd is 0, NaN stays NaN)."""
    out = np.full(len(distance), math.nan)
    for i, (d, s) in enumerate(zip(distance, sd, strict=True)):
        if math.isnan(d) or math.isnan(s):
            continue
        out[i] = (0.0 if d > 0 else 1.0) if s <= 0 else 1.0 - _NORMAL.cdf(d / s)
    return out


def _matches_factor(margin: float, se: float, comp_se: float, comp_fixed: float, z_flag: float, z_eq: float) -> float:
    """How many times its matches an undecided card needs to be decided at its current estimate: flagged when it
    lies beyond band + tolerance (margin > 0), on curve when within (margin <= 0). inf when the part of the band's
    uncertainty that matches cannot shrink is already too wide, or the card sits on the edge."""
    target = abs(margin) / (z_flag if margin > 0 else z_eq)
    shrinking = se**2 + max(comp_se**2 - comp_fixed**2, 0.0)
    room = target**2 - comp_fixed**2
    if room <= 0 or shrinking <= 0:
        return math.inf
    return max(1.0, shrinking / room)


def second_look_factors(decision: Decision, rule: VerdictRule) -> np.ndarray:
    """For each undecided card, how many times its matches would decide it at a second look's levels
    (`VerdictRule.second_look_level`) at its current estimate (inf: more matches alone cannot); NaN for the others."""
    tested = max(decision.tested, 1)
    z_flag = _NORMAL.inv_cdf(1 - rule.false_discovery_rate * rule.second_look_level / (2 * tested))
    z_eq = _NORMAL.inv_cdf(1 - rule.equivalence_alpha * rule.second_look_level)
    out = np.full(len(decision.flag), math.nan)
    for i, flag in enumerate(decision.flag):
        if flag != UNDECIDED:
            continue
        comp_se = float(decision.comparator_se[i])
        se = math.sqrt(max(float(decision.sd[i]) ** 2 - comp_se**2, 0.0))
        half = (decision.band_high[i] - decision.band_low[i]) / 2
        margin = abs(float(decision.excess[i])) - half - rule.tolerance
        out[i] = _matches_factor(margin, se, comp_se, float(decision.comparator_fixed_se[i]), z_flag, z_eq)
    return out


FOLLOW_UP_MARGIN = 1.25
"""A second look runs this many times the matches the neediest card's estimate asks for (within the cap): the
estimate moves as matches come in, and a look that lands just short decides nothing."""


@dataclass(frozen=True)
class SecondLook:
    """Which cards a second look measures again, and how many times their matches it brings them to in all."""

    cards: list[int]
    """Undecided cards that more matches would decide within the cap, at their current estimate, in the curve's
    order."""
    times: float
    """Their matches after the second look, as a multiple of the first look's (1: no second look)."""


def second_look_plan(decision: Decision, rule: VerdictRule) -> SecondLook:
    """The second look a power curve makes after `decision`: the undecided cards that more matches would decide
    within `rule.follow_up` times theirs, at the second look's levels, brought to as many matches as the neediest
    of them asks for (times `FOLLOW_UP_MARGIN`, within the cap). None when `rule.follow_up` is 1 or less."""
    if rule.follow_up <= 1:
        return SecondLook([], 1.0)
    needed = second_look_factors(decision, rule)
    cards = [i for i, times in enumerate(needed) if math.isfinite(times) and times <= rule.follow_up]
    if not cards:
        return SecondLook([], 1.0)
    return SecondLook(cards, min(rule.follow_up, FOLLOW_UP_MARGIN * max(float(needed[i]) for i in cards)))


def _leave_one_out_lines(
    cost: np.ndarray, power: np.ndarray, members: np.ndarray, targets: np.ndarray
) -> dict[int, tuple[float, float]]:
    """(intercept, slope) of the Theil-Sen line over `members` without the target card, for each target (a card
    that is not a member gets the line over all members). Above `LEAVE_ONE_OUT_LIMIT` members, every target gets
    the whole line."""
    whole = fit_line(cost[members], power[members])
    if len(members) > LEAVE_ONE_OUT_LIMIT:
        return {int(t): (whole.intercept, whole.slope) for t in targets}
    x, y = cost[members], power[members]
    a, b = np.triu_indices(len(members), k=1)
    distinct = x[a] != x[b]
    a, b = a[distinct], b[distinct]
    pair_slopes = (y[b] - y[a]) / (x[b] - x[a])
    position = {int(card): k for k, card in enumerate(members)}
    out: dict[int, tuple[float, float]] = {}
    for t in targets:
        k = position.get(int(t))
        if k is None:
            out[int(t)] = (whole.intercept, whole.slope)
            continue
        keep = (a != k) & (b != k)
        if not keep.any():
            out[int(t)] = (whole.intercept, whole.slope)
            continue
        slope = float(np.median(pair_slopes[keep]))
        rest = np.arange(len(members)) != k
        out[int(t)] = (hodges_lehmann(y[rest] - slope * x[rest]), slope)
    return out


Resampler = Callable[[np.random.Generator, int], np.ndarray]
"""(generator, count) -> a (count, cards) array of resampled powers, in the curve's order."""


def decide_with_stability(measured: Measured, rule: VerdictRule, resample: Resampler | None, seed: int) -> Decision:
    """`decide`, then the whole decision made again on `rule.resamples` resampled powers (fewer above 200 cards:
    `RESAMPLED_CARDS`; each card's standard error kept): `stability` is the share of resamples giving each judged
    card its verdict again. The resamples draw from their own generator (seeded from `seed`), so the same seed gives
    the same figures."""
    decision = decide(measured, rule)
    if resample is None or rule.resamples <= 0:
        return decision
    generator = np.random.default_rng(np.random.SeedSequence([seed, 29]))
    powers = resample(
        generator, min(rule.resamples, max(MIN_RESAMPLES, RESAMPLED_CARDS // max(len(measured.names), 1)))
    )
    same = np.zeros(len(measured.names))
    for replicate in powers:
        again = decide(replace(measured, power=replicate), rule)
        same += np.array([a == b and a is not None for a, b in zip(again.flag, decision.flag, strict=True)])
    stability = np.where(np.asarray(measured.judged, dtype=bool), same / len(powers), math.nan)
    return replace(decision, stability=stability, resamples=len(powers))


def normal_resampler(power: np.ndarray, se: np.ndarray) -> Resampler:
    """Resampled powers drawn from each card's normal (its power, its standard error): for curves that keep no
    per-match scores (the whole Blades game). Cards are drawn apart, so two cards measured on the same matches are
    resampled as if they were not."""

    def draw(generator: np.random.Generator, count: int) -> np.ndarray:
        return generator.normal(power, se, size=(count, len(power)))

    return draw


def chance_statement(decision: Decision, rule: VerdictRule) -> str:
    """In words: how many cards were flagged, how many of those could be wrong, and how many flags chance alone would
    give without the false-discovery control."""
    flagged = sum(flag in (OVER, UNDER) for flag in decision.flag)
    tested = decision.tested
    if tested == 0:
        return "No card has a comparator, so none was tested."
    q = rule.false_discovery_rate
    flags = (
        f"{flagged} of {tested} tested cards flagged over or under, each beyond its band by more than the tolerance "
        f"({rule.tolerance:g} of score). The flags control the false-discovery rate at {q:.0%} (Benjamini-Hochberg): "
        f"on average at most {q * flagged:.1f} of them would be wrong."
        if flagged
        else f"No card of the {tested} tested is flagged over or under: not one lies beyond its band by more than the "
        f"tolerance ({rule.tolerance:g} of score) with the false-discovery rate held at {q:.0%} (Benjamini-Hochberg)."
    )
    return (
        f"{flags} Testing each card alone at 5% instead would flag about {0.05 * tested:.1f} of the {tested} cards by "
        "chance alone if every one of them were mispriced by exactly the tolerance."
    )


def planning_statement(names: Sequence[str], factor: np.ndarray, matches: np.ndarray, limit: int) -> str | None:
    """In words: the matches per card that would decide every undecided card more matches can decide, and which
    cannot be decided by matches (None when no card is undecided)."""
    undecided = [i for i in range(len(names)) if not math.isnan(factor[i])]
    if not undecided:
        return None
    finite = [i for i in undecided if math.isfinite(factor[i])]
    needed = [int(math.ceil(factor[i] * matches[i])) for i in finite]
    within = [n for n in needed if n <= limit]
    stuck = [names[i] for i in undecided if not math.isfinite(factor[i])] + [
        names[i] for i, n in zip(finite, needed, strict=True) if n > limit
    ]
    parts = []
    if within:
        parts.append(
            f"To decide {len(within)} of the {len(undecided)} undecided cards at this tolerance, run about "
            f"{round_up(max(within)):,} matches per card."
        )
    if stuck:
        shown = ", ".join(stuck[:6]) + (f" and {len(stuck) - 6} more" if len(stuck) > 6 else "")
        parts.append(
            f"More matches alone will not decide {shown} (within {limit:,} matches per card): "
            "each sits on its band's edge, or the band's spread between cards is as wide as its margin; more cards "
            "at its cost, or a tolerance set further from its estimate, would."
        )
    return " ".join(parts)


def round_up(matches: int) -> int:
    """A match count rounded up to two significant figures (3,140 -> 3,200)."""
    if matches <= 100:
        return int(matches)
    step = 10 ** (len(str(int(matches))) - 2)
    return int(math.ceil(matches / step) * step)
