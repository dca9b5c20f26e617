"""The soul-cost rule of thumb, and the per-card checks built on it."""

from __future__ import annotations

import re

from workbench.cards import CardEntry, CardSet, Finding, Options, closest_names
from workbench.rulesets.base import BudgetPoint, StatBudget

SOUL_COST_TABLE: tuple[tuple[int, int], ...] = ((5, 0), (10, 1), (14, 2), (17, 3), (20, 4), (22, 5))
"""(largest Atk + Def, soul cost) rows of the document's table; above 22 the cost is 6 or more."""
OPEN_ENDED_COST = 6
"""The table's last row: Atk + Def above 22 costs "6+"."""

ABILITY_NAMES = ("Atk", "Effect", "Support", "Ranged", "Mobile", "Equip")
"""The info-box abilities; `Ranged` is written `Ranged X` with X a whole number of rows."""
_RANGED = re.compile(r"^ranged\s*(?P<rows>\d+)$", re.IGNORECASE)


def soul_cost_for(atk: int, defense: int) -> int:
    """The table's base soul cost for Atk + Def (the floor, 6, for sums above 22)."""
    total = atk + defense
    for largest, cost in SOUL_COST_TABLE:
        if total <= largest:
            return cost
    return OPEN_ENDED_COST


def adjustment_for(effect_weight: str | None, element: str | None, element_counts_as_powerful: bool) -> int:
    """+1 for a powerful effect (or, by option, an applied element), -1 for a detrimental one."""
    if effect_weight == "detrimental":
        return -1
    if effect_weight == "powerful" or (element_counts_as_powerful and element is not None):
        return 1
    return 0


def expected_soul_cost(atk: int, defense: int, adjustment: int) -> tuple[int, bool]:
    """(lowest allowed cost, open-ended) after the adjustment; never below 0."""
    base = soul_cost_for(atk, defense)
    return max(0, base + adjustment), atk + defense > SOUL_COST_TABLE[-1][0]


def ranged_rows(ability: str) -> int | None:
    """X for `Ranged X`, else None."""
    match = _RANGED.match(ability.strip())
    return int(match.group("rows")) if match else None


def check_cards(cardset: CardSet, options: Options) -> list[Finding]:
    """Soul cost against the table, and every ability name against the info-box list."""
    findings: list[Finding] = []
    for entry in cardset:
        findings.extend(_check_cost(cardset, entry, options))
        findings.extend(_check_abilities(cardset, entry))
    return findings


def _check_cost(cardset: CardSet, entry: CardEntry, options: Options) -> list[Finding]:
    card = entry.card
    if card.kind != "monster" and not options["check_spell_costs"]:
        return []
    if card.atk is None or card.defense is None:
        return []
    adjustment = adjustment_for(card.effect_weight, card.element, bool(options["element_counts_as_powerful"]))
    lowest, open_ended = expected_soul_cost(card.atk, card.defense, adjustment)
    fits = card.soul_cost >= lowest if open_ended else card.soul_cost == lowest
    if fits:
        return []
    expected: int | str = f">= {lowest}" if open_ended else lowest
    why = f"Atk {card.atk} + Def {card.defense} = {card.atk + card.defense}"
    if adjustment:
        why += f", {'+1 powerful effect' if adjustment > 0 else '-1 detrimental effect'}"
    severity = "error" if options["strict_costs"] else "warning"
    return [
        cardset.finding(
            severity,
            "souls.soul_cost",
            f"soul cost {card.soul_cost} does not match the table ({why} gives {expected}).",
            entry,
            "soul_cost",
            expected=expected,
            actual=card.soul_cost,
        )
    ]


def is_known_ability(ability: str) -> bool:
    """True for the five plain abilities and for `Ranged X` with a whole X."""
    plain = {name.casefold() for name in ABILITY_NAMES if name != "Ranged"}
    return ability.strip().casefold() in plain or ranged_rows(ability) is not None


def _check_abilities(cardset: CardSet, entry: CardEntry) -> list[Finding]:
    findings = []
    for ability in entry.card.abilities:
        if is_known_ability(ability):
            continue
        if ability.strip().casefold() == "ranged":
            message = "'Ranged' needs its range: write 'Ranged X' with X the number of rows."
        else:
            hints = closest_names(ability, ["Atk", "Effect", "Support", "Ranged 2", "Mobile", "Equip"])
            message = f"'{ability}' is not an info-box ability." + (f" Did you mean '{hints[0]}'?" if hints else "")
        findings.append(
            cardset.finding(
                "error",
                "souls.unknown_ability",
                message,
                entry,
                "abilities",
                expected="Atk, Effect, Support, Ranged X, Mobile, Equip",
                actual=ability,
            )
        )
    return findings


def stat_budget(cardset: CardSet, options: Options) -> StatBudget:
    """Atk + Def against soul cost; the line is the most Atk + Def the table allows at each cost."""
    points = []
    for entry in cardset:
        card = entry.card
        if card.kind != "monster" and not options["check_spell_costs"]:
            continue
        if card.atk is None or card.defense is None:
            continue
        adjustment = adjustment_for(card.effect_weight, card.element, bool(options["element_counts_as_powerful"]))
        table_cost = card.soul_cost - adjustment
        allowed = dict((cost, largest) for largest, cost in SOUL_COST_TABLE).get(table_cost)
        points.append(
            BudgetPoint(
                card=card.name,
                row=entry.row,
                kind=card.kind,
                cost=float(card.soul_cost),
                budget=float(card.atk + card.defense),
                expected_budget=None if allowed is None else float(allowed),
            )
        )
    return StatBudget(
        cost_label="soul cost",
        budget_label="Atk + Def",
        points=tuple(points),
        line=tuple((float(cost), float(largest)) for largest, cost in SOUL_COST_TABLE),
        line_label="soul-cost table: the most Atk + Def each cost allows (before the ±1 for effects)",
    )
