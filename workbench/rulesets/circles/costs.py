"""The circle budget: base resources buy Attack + Health points, abilities buy circles of their colour.

A character has at most 5 cost circles. The listed abilities fill their
circles in their own colours; the circles left over are the base resources
(1, 2 or 3), each worth 3 points split between Attack and Health.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.cards import CardEntry, CardSet, Finding, Options, closest_names
from workbench.rulesets.base import BudgetPoint, StatBudget
from workbench.rulesets.circles.abilities import ABILITIES, COLOURS, Ability, Colour, circles_by_colour, find_ability
from workbench.rulesets.circles.cards import Character, CirclesCard, Resource

MAX_CIRCLES = 5
"""\u201cThere are 5 circles at the top of a Character Card.\u201d"""
POINTS_PER_BASE_RESOURCE = 3
"""1, 2 or 3 base resources give 3, 6 or 9 points to split between Attack and Health."""
BASE_RESOURCE_CHOICES: tuple[int, ...] = (1, 2, 3)
"""The document's three choices of base resources."""
ABILITY_NAMES: tuple[str, ...] = tuple(ability.name for ability in ABILITIES)


@dataclass(frozen=True)
class CircleBudget:
    """How a character's circles split into ability circles and base resources."""

    circles: dict[Colour, int]
    """Cost circles per colour, as written on the card."""
    ability_circles: dict[Colour, int]
    """Circles the listed (known) abilities fill, per colour."""

    @property
    def total(self) -> int:
        """All cost circles."""
        return sum(self.circles.values())

    @property
    def ability_total(self) -> int:
        """All circles the abilities fill."""
        return sum(self.ability_circles.values())

    @property
    def base(self) -> int:
        """Circles left for base resources (total minus ability circles)."""
        return self.total - self.ability_total

    @property
    def uncovered(self) -> dict[Colour, int]:
        """Colours whose circles are fewer than their abilities need, with the shortfall."""
        return {
            c: self.ability_circles[c] - self.circles[c] for c in COLOURS if self.ability_circles[c] > self.circles[c]
        }

    @property
    def points(self) -> int:
        """Attack + Health points the base resources give."""
        return POINTS_PER_BASE_RESOURCE * self.base


def known_abilities(names: tuple[str, ...]) -> list[Ability]:
    """The listed abilities that are on the document's list (unknown names are reported separately)."""
    return [ability for ability in (find_ability(name) for name in names) if ability is not None]


def circle_budget(card: CirclesCard) -> CircleBudget:
    """The card's circles and the share its abilities take."""
    circles: dict[Colour, int] = {colour: int(getattr(card, colour)) for colour in COLOURS}
    return CircleBudget(circles, circles_by_colour(known_abilities(card.abilities)))


def check_cards(cardset: CardSet, options: Options) -> list[Finding]:
    """Every character against the circle budget, every resource against its one colour."""
    findings: list[Finding] = []
    for entry in cardset:
        card = entry.card
        if isinstance(card, Character):
            findings.extend(_check_abilities(cardset, entry, card, options))
            findings.extend(_check_minimum_stats(cardset, entry))
            # An unknown ability has no known price, so the budget cannot be judged until it is fixed.
            if all(find_ability(name) is not None for name in card.abilities):
                findings.extend(_check_circles(cardset, entry, card, options))
        elif isinstance(card, Resource):
            findings.extend(_check_resource(cardset, entry, card))
    return findings


def _check_abilities(cardset: CardSet, entry: CardEntry, card: Character, options: Options) -> list[Finding]:
    findings: list[Finding] = []
    seen: set[str] = set()
    for written in card.abilities:
        ability = find_ability(written)
        if ability is None:
            hints = closest_names(written, ABILITY_NAMES, limit=1)
            findings.append(
                cardset.finding(
                    "error",
                    "circles.unknown_ability",
                    f"'{written}' is not on the document's list of 24 abilities."
                    + (f" Did you mean '{hints[0]}'?" if hints else ""),
                    entry,
                    "abilities",
                    expected=hints[0] if hints else "an ability from the list",
                    actual=written,
                )
            )
            continue
        if ability.name in seen and not options["allow_duplicate_abilities"]:
            findings.append(
                cardset.finding(
                    "error",
                    "circles.duplicate_ability",
                    f"'{ability.name}' is listed twice; list each ability once (or set "
                    "allow_duplicate_abilities=true).",
                    entry,
                    "abilities",
                    expected="each ability once",
                    actual=ability.name,
                )
            )
        seen.add(ability.name)
    return findings


def _check_minimum_stats(cardset: CardSet, entry: CardEntry) -> list[Finding]:
    findings = []
    for stat, label in (("attack", "Attack"), ("health", "Health")):
        value = getattr(entry.card, stat)
        if value < 1:
            findings.append(
                cardset.finding(
                    "error",
                    "circles.minimum_stats",
                    f"a character must have at least 1 {label}.",
                    entry,
                    stat,
                    expected=">= 1",
                    actual=value,
                )
            )
    return findings


def _fullest_circle_column(budget: CircleBudget) -> str:
    """The colour column holding the most circles (first of red, blue, green on a tie): where a total is pointed at."""
    return max(COLOURS, key=lambda colour: (budget.circles[colour], -COLOURS.index(colour)))


def _check_circles(cardset: CardSet, entry: CardEntry, card: Character, options: Options) -> list[Finding]:
    budget = circle_budget(card)
    findings: list[Finding] = []
    column = _fullest_circle_column(budget)
    if budget.total > MAX_CIRCLES:
        findings.append(
            cardset.finding(
                "error",
                "circles.too_many_circles",
                f"{budget.total} cost circles; a character card has only {MAX_CIRCLES}.",
                entry,
                column,
                expected=f"<= {MAX_CIRCLES}",
                actual=budget.total,
            )
        )
    for colour, short in budget.uncovered.items():
        needs = ", ".join(a.name for a in known_abilities(card.abilities) if a.colour == colour)
        findings.append(
            cardset.finding(
                "error",
                "circles.ability_colour",
                f"its {colour} abilities ({needs}) fill {budget.ability_circles[colour]} {colour} circle(s), but "
                f"the card has {budget.circles[colour]} {colour} ({short} short).",
                entry,
                colour,
                expected=f">= {budget.ability_circles[colour]}",
                actual=budget.circles[colour],
            )
        )
    if budget.uncovered:
        return findings
    if budget.base not in BASE_RESOURCE_CHOICES:
        why = (
            "no circles are left for base resources"
            if budget.base <= 0
            else f"{budget.base} circles are left for base resources"
        )
        findings.append(
            cardset.finding(
                "error",
                "circles.base_resources",
                f"{budget.total} circles minus {budget.ability_total} for abilities: {why}; pick 1, 2 or 3.",
                entry,
                column,
                expected="1, 2 or 3",
                actual=budget.base,
            )
        )
        return findings
    spent = card.attack + card.health
    stats = f"{card.attack} Attack + {card.health} Health = {spent}"
    allowance = f"the {budget.points} points {budget.base} base " + (
        "resources give" if budget.base > 1 else "resource gives"
    )
    if spent > budget.points:
        findings.append(
            cardset.finding(
                "error",
                "circles.over_budget",
                f"{stats}, more than {allowance} ({spent - budget.points} over).",
                entry,
                "attack",
                expected=f"<= {budget.points}",
                actual=spent,
            )
        )
    elif spent < budget.points:
        unspent = budget.points - spent
        findings.append(
            cardset.finding(
                "error" if options["points_must_be_spent"] else "warning",
                "circles.unspent_points",
                f"{stats} of {allowance}: {unspent} point{'s' if unspent > 1 else ''} unspent.",
                entry,
                "attack",
                expected=budget.points,
                actual=spent,
            )
        )
    return findings


def resource_colour(card: CirclesCard) -> Colour | None:
    """The resource's colour when its `color` cell names exactly one of red, blue, green."""
    written = card.color
    if len(written) != 1:
        return None
    colour = written[0].strip().casefold()
    return colour if colour in COLOURS else None


def _check_resource(cardset: CardSet, entry: CardEntry, card: Resource) -> list[Finding]:
    findings: list[Finding] = []
    written = card.color
    if resource_colour(card) is None:
        if not written:
            problem = "a resource card must be one colour, but its color cell is empty."
        elif len(written) > 1:
            problem = f"a resource card is one colour, not {len(written)} ({', '.join(written)})."
        else:
            problem = f"'{written[0]}' is not a resource colour."
        findings.append(
            cardset.finding(
                "error",
                "circles.resource_colour",
                problem,
                entry,
                "color",
                expected="one of: red, blue, green",
                actual="; ".join(written),
            )
        )
    stray: list[str] = [colour for colour in COLOURS if getattr(card, colour)]
    stray += [stat for stat in ("attack", "health") if getattr(card, stat) is not None]
    stray += ["abilities"] if card.abilities else []
    if stray:
        findings.append(
            cardset.finding(
                "warning",
                "circles.resource_fields",
                f"resource cards have no cost, stats or abilities; {', '.join(stray)} is ignored.",
                entry,
                stray[0],
                expected="empty",
                actual={name: _shown(getattr(card, name)) for name in stray},
            )
        )
    return findings


def _shown(value: object) -> object:
    return "; ".join(value) if isinstance(value, tuple) else value


def stat_budget(cardset: CardSet, options: Options) -> StatBudget:
    """Points spent against circles: Attack + Health + 3 per ability circle, on the line 3 x circles."""
    points = []
    for entry in cardset:
        card = entry.card
        if not isinstance(card, Character):
            continue
        budget = circle_budget(card)
        points.append(
            BudgetPoint(
                card=card.name,
                row=entry.row,
                kind="character",
                cost=float(budget.total),
                budget=float(card.attack + card.health + POINTS_PER_BASE_RESOURCE * budget.ability_total),
                expected_budget=float(POINTS_PER_BASE_RESOURCE * budget.total),
            )
        )
    return StatBudget(
        cost_label="cost circles (all colours)",
        budget_label="Attack + Health + 3 x ability circles (each circle is worth 3 points)",
        points=tuple(points),
        line=tuple((float(c), float(POINTS_PER_BASE_RESOURCE * c)) for c in range(1, MAX_CIRCLES + 1)),
        line_label="3 points per circle: 1, 2, 3 base resources give 3, 6, 9 points; an ability costs its circles",
    )
