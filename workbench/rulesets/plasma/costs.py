"""The plasma cost checks: a cost formula fitted from the set itself, and per-card checks.

The document gives no cost formula, so the set is its own yardstick: a least
squares fit of cost on power and resolve over the set's creatures,
`cost ≈ a·power + b·resolve + c`, reported as an info finding with its R².
A creature whose cost lies `cost_tolerance` plasma or more from the fitted
value gets a warning saying what the fit expects. The document sets no
minimum resolve, so resolve 0 is never an error: a warning when
`lethal_damage=at_least` destroys such a creature as it enters, else a note.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from workbench.cards import CardEntry, CardSet, Finding, Options
from workbench.rulesets.base import BudgetPoint, StatBudget
from workbench.rulesets.plasma.effects import ACTIVATE_FORM, CLAUSE_FORMS, EffectClause, UnknownClause, parse_effects

FIT_UNKNOWNS = 3
"""a, b and c: a fit needs more creatures than this to leave any residual."""


@dataclass(frozen=True)
class CostFit:
    """The least-squares line `cost ≈ power_weight·power + resolve_weight·resolve + intercept`."""

    power_weight: float
    """a: plasma per point of power."""
    resolve_weight: float
    """b: plasma per point of resolve."""
    intercept: float
    """c: plasma of a 0/0 creature."""
    r_squared: float | None
    """Share of the cost variance the fit explains; None when every creature costs the same."""
    creatures: int
    """How many creatures the fit rests on."""
    independent: bool
    """False when power and resolve do not vary independently (a and b are then one of many equal splits)."""

    def expected_cost(self, power: int, resolve: int) -> float:
        """The plasma the fit says a creature with this power and resolve is worth."""
        return self.power_weight * power + self.resolve_weight * resolve + self.intercept

    def formula(self) -> str:
        """`cost ≈ 0.50·power + 0.50·resolve − 0.50`."""
        sign = "−" if self.intercept < 0 else "+"
        return (
            f"cost ≈ {self.power_weight:.2f}·power + {self.resolve_weight:.2f}·resolve {sign} {abs(self.intercept):.2f}"
        )


def fit_cost(stats: Sequence[tuple[float, float, float]]) -> CostFit:
    """Least squares of cost on (power, resolve, 1) over (power, resolve, cost) triples; needs 1 or more."""
    data = np.asarray(stats, dtype=np.float64).reshape(-1, 3)
    design = np.column_stack([data[:, 0], data[:, 1], np.ones(len(data))])
    costs = data[:, 2]
    weights, _, rank, _ = np.linalg.lstsq(design, costs, rcond=None)
    fitted = design @ weights
    total = float(((costs - costs.mean()) ** 2).sum())
    residual = float(((costs - fitted) ** 2).sum())
    r_squared = None if total <= 1e-12 else max(0.0, 1.0 - residual / total)
    return CostFit(
        power_weight=float(weights[0]),
        resolve_weight=float(weights[1]),
        intercept=float(weights[2]),
        r_squared=r_squared,
        creatures=len(data),
        independent=int(rank) == FIT_UNKNOWNS,
    )


def creature_entries(cardset: CardSet) -> list[CardEntry]:
    """The set's creatures, in sheet order."""
    return cardset.of_kind("creature")


def fit_minimum(options: Options) -> int:
    """The fewest creatures a fit is made from (the `min_creatures_to_fit` option, at least 1)."""
    return max(1, int(options["min_creatures_to_fit"]))


def set_fit(cardset: CardSet, options: Options) -> CostFit | None:
    """The set's cost fit, or None when it has fewer creatures than `min_creatures_to_fit`."""
    creatures = creature_entries(cardset)
    if len(creatures) < fit_minimum(options):
        return None
    return fit_cost([(e.card.power, e.card.resolve, e.card.cost) for e in creatures])  # type: ignore[attr-defined]


def check_cards(cardset: CardSet, options: Options) -> list[Finding]:
    """The fitted cost formula and each creature against it; resolve, stray stats and effect clauses per card."""
    findings = _check_fit(cardset, options)
    for entry in cardset:
        card = entry.card
        if card.kind == "creature":
            findings.extend(_check_resolve(cardset, entry, options))
        else:
            findings.extend(_check_stray_stats(cardset, entry))
    findings.extend(effect_findings(cardset))
    return findings


def _check_fit(cardset: CardSet, options: Options) -> list[Finding]:
    creatures = creature_entries(cardset)
    fit = set_fit(cardset, options)
    if fit is None:
        minimum = fit_minimum(options)
        return [
            cardset.finding(
                "info",
                "plasma.cost_fit",
                f"the set has {len(creatures)} creature(s); fitting cost on power and resolve needs at least "
                f"{minimum}, so no creature's cost is judged.",
                expected=f">= {minimum} creatures",
                actual=len(creatures),
            )
        ]
    r_squared = "undefined (every creature costs the same)" if fit.r_squared is None else f"{fit.r_squared:.2f}"
    note = (
        ""
        if fit.independent
        else " Power and resolve do not vary independently here, so a and b are one of many equally good splits."
    )
    findings = [
        cardset.finding(
            "info",
            "plasma.cost_fit",
            f"the set's creatures fit {fit.formula()} (R² = {r_squared}, {fit.creatures} creatures).{note}",
            expected={
                "power": round(fit.power_weight, 4),
                "resolve": round(fit.resolve_weight, 4),
                "intercept": round(fit.intercept, 4),
            },
            actual={
                "r_squared": None if fit.r_squared is None else round(fit.r_squared, 4),
                "creatures": fit.creatures,
            },
        )
    ]
    tolerance = float(options["cost_tolerance"])
    for entry in creatures:
        card = entry.card
        expected = fit.expected_cost(card.power, card.resolve)  # type: ignore[attr-defined]
        gap = card.cost - expected  # type: ignore[attr-defined]
        # A small epsilon keeps a gap of exactly the tolerance (in exact arithmetic) on the warning side.
        if abs(gap) + 1e-9 < tolerance:
            continue
        findings.append(
            cardset.finding(
                "warning",
                "plasma.cost_off_curve",
                f"cost {card.cost} is {abs(gap):.1f} plasma {'above' if gap > 0 else 'below'} what the set's fit "  # type: ignore[attr-defined]
                f"expects for power {card.power} / resolve {card.resolve}: {expected:.1f} ({fit.formula()}).",  # type: ignore[attr-defined]
                entry,
                "cost",
                expected=round(expected, 2),
                actual=card.cost,  # type: ignore[attr-defined]
            )
        )
    return findings


def _check_resolve(cardset: CardSet, entry: CardEntry, options: Options) -> list[Finding]:
    """Resolve 0: the document sets no minimum ("how much damage they can take before being destroyed" can be none),
    so it is never an error. Under `lethal_damage=at_least` the creature's 0 damage already reaches its resolve and
    it is destroyed as it enters the field: a warning. Under `more_than` it stays until any damage: an info."""
    card = entry.card
    if card.resolve >= 1:  # type: ignore[attr-defined]
        return []
    if options["lethal_damage"] == "at_least":
        return [
            cardset.finding(
                "warning",
                "plasma.resolve_minimum",
                "a creature with 0 resolve is destroyed as soon as it enters the field under lethal_damage=at_least "
                "(its damage, 0, already reaches its resolve); give it resolve 1 or more, or play the default "
                "reading, lethal_damage=more_than, under which it survives until it takes any damage.",
                entry,
                "resolve",
                expected=">= 1 under lethal_damage=at_least",
                actual=card.resolve,  # type: ignore[attr-defined]
            )
        ]
    return [
        cardset.finding(
            "info",
            "plasma.resolve_minimum",
            "a creature with 0 resolve takes no damage before being destroyed: any damage destroys it (the document "
            "sets no minimum resolve).",
            entry,
            "resolve",
            expected="resolve 1 or more survives that much damage",
            actual=card.resolve,  # type: ignore[attr-defined]
        )
    ]


def _check_stray_stats(cardset: CardSet, entry: CardEntry) -> list[Finding]:
    card = entry.card
    article = "an" if card.kind[0] in "aeiou" else "a"
    findings = []
    for field_name in ("power", "resolve"):
        value = getattr(card, field_name)
        if value is None:
            continue
        findings.append(
            cardset.finding(
                "warning",
                "plasma.stats_on_non_creature",
                f"{article} {card.kind} has no {field_name}, so this value is not used; write its bonus in "
                f"effects as '{field_name} +{value}' if that is what it means.",
                entry,
                field_name,
                expected="empty",
                actual=value,
            )
        )
    return findings


def clause_positions(text: str | None, clauses: Sequence[EffectClause]) -> list[tuple[int, EffectClause]]:
    """Each understood clause with its position in the cell (1 for the first non-empty clause), as `UnknownClause`
    numbers them."""
    written = [" ".join(part.split()) for part in re.split(r"[;\n]", str(text or "")) if part.strip()]
    positions = []
    start = 0
    for clause in clauses:
        index = written.index(clause.text, start)
        positions.append((index + 1, clause))
        start = index + 1
    return positions


def effect_findings(cardset: CardSet) -> list[Finding]:
    """An info finding for each card whose `effects` cell holds clauses the simulator does not play: clauses outside
    the vocabulary, and `activate` clauses on a card that is not a creature (only creatures have abilities)."""
    findings = []
    vocabulary = ", ".join((*CLAUSE_FORMS.values(), ACTIVATE_FORM))
    for entry in cardset:
        parsed = parse_effects(entry.card.effects)  # type: ignore[attr-defined]
        unknown = list(parsed.unknown)
        if entry.card.kind != "creature":
            unknown.extend(
                UnknownClause(
                    clause.text,
                    position,
                    f"'{clause.text}': only a creature has an activated ability (this card is "
                    f"{'an' if entry.card.kind[0] in 'aeiou' else 'a'} {entry.card.kind}).",
                )
                for position, clause in clause_positions(entry.card.effects, parsed.clauses)  # type: ignore[attr-defined]
                if clause.activation is not None
            )
            unknown.sort(key=lambda clause: clause.position)
        if not unknown:
            continue
        reasons = " ".join(clause.reason for clause in unknown)
        findings.append(
            cardset.finding(
                "info",
                "plasma.effect_not_simulated",
                f"the simulator does not cover {len(unknown)} clause(s) and plays the card without them: {reasons}",
                entry,
                "effects",
                expected=vocabulary,
                actual="; ".join(clause.text for clause in unknown),
            )
        )
    return findings


def stat_budget(cardset: CardSet, options: Options) -> StatBudget:
    """Plasma cost against the plasma the set's fit says each creature's power and resolve are worth; line y = x."""
    fit = set_fit(cardset, options)
    points = []
    if fit is not None:
        for entry in creature_entries(cardset):
            card = entry.card
            points.append(
                BudgetPoint(
                    card=card.name,
                    row=entry.row,
                    kind=card.kind,
                    cost=float(card.cost),  # type: ignore[attr-defined]
                    budget=fit.expected_cost(card.power, card.resolve),  # type: ignore[attr-defined]
                    expected_budget=float(card.cost),  # type: ignore[attr-defined]
                )
            )
    costs = [point.cost for point in points] or [float(entry.card.cost) for entry in cardset]  # type: ignore[attr-defined]
    low, high = (min(costs), max(costs)) if costs else (0.0, 0.0)
    if fit is None:
        line_label = "y = x over the set's cost range (too few creatures to fit a cost formula, so no card is plotted)"
    else:
        line_label = (
            f"y = x over the set's cost range: a creature on the line is worth exactly its cost under the set's own "
            f"fit, {fit.formula()} (the document gives no formula)"
        )
    return StatBudget(
        cost_label="plasma cost",
        budget_label="plasma the fit says power and resolve are worth",
        points=tuple(points),
        line=((low, low), (high, high)),
        line_label=line_label,
    )
