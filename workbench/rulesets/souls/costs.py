"""The soul-cost rule of thumb, the info-box abilities, and the per-card checks built on them."""

from __future__ import annotations

import re
from typing import cast

from workbench.cards import CardEntry, CardSet, Finding, Options, Severity, closest_names
from workbench.rulesets.base import BudgetPoint, StatBudget
from workbench.rulesets.souls.cards import SoulsCard
from workbench.rulesets.souls.effects import applied_elements, parse_effects, uncovered_for_kind

SOUL_COST_TABLE: tuple[tuple[int, int], ...] = ((5, 0), (10, 1), (14, 2), (17, 3), (20, 4), (22, 5))
"""(largest Atk + Def, soul cost) rows of the document's table; above 22 the cost is 6 or more."""
OPEN_ENDED_COST = 6
"""The table's last row: Atk + Def above 22 costs "6+"."""

ABILITY_NAMES = ("Atk", "Effect", "Support", "Ranged", "Mobile", "Equip")
"""The info-box abilities; `Ranged` is written `Ranged X` with X a whole number of rows (1 or more)."""
_RANGED = re.compile(r"^ranged\s*(?P<rows>\d+)$", re.IGNORECASE)


def soul_cost_for(atk: int, defense: int) -> int:
    """The table's base soul cost for Atk + Def (the floor, 6, for sums above 22)."""
    total = atk + defense
    for largest, cost in SOUL_COST_TABLE:
        if total <= largest:
            return cost
    return OPEN_ENDED_COST


def adjustment_for(effect_weight: str | None, element: str | None, element_counts_as_powerful: bool) -> int:
    """+1 for a powerful effect (or, by option, an applied element), -1 for a detrimental one.

    The document lists the two as separate rules, so a card that applies an element and also carries a
    detrimental effect gets both: +1 - 1 = 0. An element on a card already marked powerful adds nothing more
    (the element is its powerful effect).
    """
    powerful = effect_weight == "powerful" or (element_counts_as_powerful and element is not None)
    return (1 if powerful else 0) - (1 if effect_weight == "detrimental" else 0)


def expected_soul_cost(atk: int, defense: int, adjustment: int) -> tuple[int, bool]:
    """(lowest allowed cost, open-ended) after the adjustment; never below 0 (a card cannot refund souls)."""
    base = soul_cost_for(atk, defense)
    return max(0, base + adjustment), atk + defense > SOUL_COST_TABLE[-1][0]


def normalize_ability(ability: str) -> str:
    """`Atk/`, ` atk ` and `ATK` all mean `atk` (the document writes abilities as `Atk/`, `Ranged X/`)."""
    return " ".join(ability.strip().rstrip("/").split()).casefold()


def ranged_rows(ability: str) -> int | None:
    """X for `Ranged X` (X may be 0 here; the check rejects it), else None."""
    match = _RANGED.match(normalize_ability(ability))
    return int(match.group("rows")) if match else None


def is_known_ability(ability: str) -> bool:
    """True for the five plain abilities and for `Ranged X` with a whole X of 1 or more."""
    plain = {name.casefold() for name in ABILITY_NAMES if name != "Ranged"}
    rows = ranged_rows(ability)
    return normalize_ability(ability) in plain or (rows is not None and rows >= 1)


def has_ability(abilities: tuple[str, ...], name: str) -> bool:
    """True when the card lists the plain ability `name` (Atk, Effect, Support, Mobile, Equip)."""
    return any(normalize_ability(a) == name.casefold() for a in abilities)


def attack_range(abilities: tuple[str, ...]) -> int:
    """Rows an attack reaches: the largest `Ranged X`, else 1 (the document: range 1 unless Ranged X)."""
    ranges = [rows for rows in (ranged_rows(a) for a in abilities) if rows is not None and rows >= 1]
    return max(ranges) if ranges else 1


def check_cards(cardset: CardSet, options: Options) -> list[Finding]:
    """Soul cost against the table, ability names and their fit to the card, and the effects vocabulary."""
    findings: list[Finding] = []
    for entry in cardset:
        findings.extend(_check_cost(cardset, entry, options))
        findings.extend(_check_abilities(cardset, entry))
        findings.extend(_check_effects(cardset, entry))
    return findings


def _costed(card: SoulsCard, options: Options) -> bool:
    """Whether the table prices this card: monsters always, magic and traps by option, and only with Atk and Def."""
    if card.kind != "monster" and not options["check_spell_costs"]:
        return False
    return card.atk is not None and card.defense is not None


def _check_cost(cardset: CardSet, entry: CardEntry, options: Options) -> list[Finding]:
    card = cast(SoulsCard, entry.card)
    if not _costed(card, options):
        return []
    assert card.atk is not None and card.defense is not None
    adjustment = adjustment_for(card.effect_weight, card.element, bool(options["element_counts_as_powerful"]))
    lowest, open_ended = expected_soul_cost(card.atk, card.defense, adjustment)
    fits = card.soul_cost >= lowest if open_ended else card.soul_cost == lowest
    if fits:
        return []
    expected: int | str = f">= {lowest}" if open_ended else lowest
    why = f"Atk {card.atk} + Def {card.defense} = {card.atk + card.defense}"
    if card.effect_weight == "powerful" or (options["element_counts_as_powerful"] and card.element):
        why += ", +1 powerful effect" + ("" if card.effect_weight == "powerful" else f" (applies {card.element})")
    if card.effect_weight == "detrimental":
        why += ", -1 detrimental effect"
    severity: Severity = "error" if options["strict_costs"] else "warning"
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


def _check_abilities(cardset: CardSet, entry: CardEntry) -> list[Finding]:
    card = cast(SoulsCard, entry.card)
    findings = []
    for ability in card.abilities:
        if is_known_ability(ability):
            continue
        rows = ranged_rows(ability)
        if normalize_ability(ability) == "ranged":
            message = "'Ranged' needs its range: write 'Ranged X' with X the number of rows."
        elif rows is not None:
            message = f"'{ability}' reaches no row: X in 'Ranged X' is 1 or more."
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
    abilities = card.abilities
    if any((ranged_rows(a) or 0) >= 1 for a in abilities) and not has_ability(abilities, "atk"):
        findings.append(
            cardset.finding(
                "warning",
                "souls.ranged_without_atk",
                "'Ranged X' extends attacks, but this card has no Atk ability, so it never attacks.",
                entry,
                "abilities",
                expected="Atk with Ranged X",
                actual="; ".join(abilities),
            )
        )
    if has_ability(abilities, "equip") and card.kind != "magic":
        findings.append(
            cardset.finding(
                "warning",
                "souls.equip_not_magic",
                f"Equip is a Magic card's ability in the document; this card is a {card.kind}.",
                entry,
                "kind",
                expected="magic",
                actual=card.kind,
            )
        )
    return findings


def _check_effects(cardset: CardSet, entry: CardEntry) -> list[Finding]:
    card = cast(SoulsCard, entry.card)
    effects, unknown = parse_effects(card.effects)
    findings = []
    equips = has_ability(card.abilities, "equip")
    not_covered = unknown + [effect.text for effect in uncovered_for_kind(effects, card.kind, equips)]
    if not_covered:
        findings.append(
            cardset.finding(
                "info",
                "souls.effect_not_simulated",
                f"the simulator does not cover {', '.join(repr(t) for t in not_covered)} on a "
                f"{card.kind}{' with Equip' if equips else ''}; matches are played without it.",
                entry,
                "effects",
                expected="apply <element>; damage N; draw N; shield +N; atk +N / def +N (Equip only); direct N",
                actual="; ".join(not_covered),
            )
        )
    applied = applied_elements(effects)
    element = card.element
    strays = [name for name in applied if name != element]
    if strays:
        findings.append(
            cardset.finding(
                "warning",
                "souls.element_effect",
                f"the effects apply {', '.join(strays)} but the element column says "
                f"{element or 'nothing'}; the soul cost's +1 for elemental application reads the element column.",
                entry,
                "element",
                expected=strays[0],
                actual=element,
            )
        )
    return findings


def stat_budget(cardset: CardSet, options: Options) -> StatBudget:
    """Atk + Def against soul cost; the line is the most Atk + Def the table allows at each cost."""
    points = []
    allowed_at = {cost: largest for largest, cost in SOUL_COST_TABLE}
    for entry in cardset:
        card = cast(SoulsCard, entry.card)
        if not _costed(card, options):
            continue
        assert card.atk is not None and card.defense is not None
        adjustment = adjustment_for(card.effect_weight, card.element, bool(options["element_counts_as_powerful"]))
        allowed = allowed_at.get(card.soul_cost - adjustment)
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
