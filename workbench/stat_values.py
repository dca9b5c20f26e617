"""What each stat is worth in play: a designed experiment over synthetic cards, beside the document's cost formula.

How the worth is measured (documented in docs/simulation.md, "What each stat is worth in play"):

- A ruleset's `StatDesign` names the stats, the cost and the keywords a synthetic card varies, each within the range
  the document's cost formula covers, and how a card's fields are written from them. Every other field is the
  reference deck's filler's (the card the power curve's replacement test swaps out), with its effects cleared and
  its abilities set to the design's (near-vanilla cards). A stat a rule fixes from the cost is derived, not drawn
  (`StatDesign.derived`, from `StatDesign.draws`): SOURCE's printed ST total is the table's for the spaces, so the
  design draws an `st +N` and fits the ST total in play, every card legal.
- Step 1, the cost probe: two cards per cost level, measured with the power curve's replacement test: a mid-stat card
  (stats at the middle of their ranges, no keyword), whose powers are the cost curve ("a mid-stat card at each cost"),
  and the design's strongest card (every stat at the top of its range, no keyword; both placed as legal cards where
  the design places them: a circles card of 4 or 5 circles holds the 1 or 2 ability circles it must). A cost level
  where neither was played by its side in `min_play_share` of its matches is *out of play*: a card at that cost is
  drawn but (almost) never played before the matches end, whatever its stats within the design's ranges, so no stat on
  it can be worth anything there, and the design does not spend matches on it. The strongest card decides because
  whether a card is played can hang on its stats: the souls greedy policy summons a monster only when its worth (Atk +
  Def + a bonus) exceeds that of the monsters it sacrifices, so in ember_rush a 6/6 for 2 souls is never summoned
  while a 12/12 for 2 is, and a mid-stat probe alone called cost 2 out of play for every card.
- Step 2, the design: a seeded Latin hypercube of `cards` synthetic cards over the stats' ranges, the cost levels in
  play and the keywords (each level of each attribute used equally often, the attributes drawn independently, so
  cost is not confounded with the stats). Where a rule ties the attributes together, a design places each drawn
  point as a legal card (`StatDesign.place`: a circles ability fills circles of the cost, and a card keeps 1-3 base
  resources, so not every keyword fits every cost), and those attributes are then used about as often as the rule
  lets them. The design is played in `replicates` power-curve runs on independent seeds, each with its share of the
  matches; within a run every card plays the same seeded matches (common random numbers) against the same unchanged
  reference deck's matches.
- The exchange rates: a weighted least-squares fit of power on the attributes (weights 1 / se^2 of each card's
  power; cards whose every match ended alike are one measurement and share one card's weight). Within one run the
  cards' errors are correlated (the same seeds make similar cards' matches alike), so an interval from one run's
  residuals would be too narrow: the same fit is made in each replicate, and the spread of the replicates'
  coefficients gives their matches' share of the error (a batch-means covariance). Every replicate plays the same
  design, though, and where the game is not a straight line in the attributes (the usual case) the straight rates
  depend on which design points were drawn: a re-run with another seed draws another design, and its rates moved
  by two to six times the replicate spread alone (souls/ashfall, 8 seeds). So the design's share is added: the
  sandwich (heteroskedasticity-consistent, HC1) covariance of the pooled fit, which treats the design cards as
  draws and so carries how far the straight line misses them. The 95% intervals are Student's t on replicates - 1
  degrees of freedom over the sum (conservative: each card's own match noise is in both terms). R^2 (weighted) and
  the residual scale (1 = residuals as small as the measurement noise allows) of the fit to the pooled powers say
  how well a straight line describes the game.
- In cost units: where the cost's rate lies wholly below 0 (a dearer card measurably wins less), a stat's worth is
  its rate divided by the cost's (with a delta-method interval): "one Def is worth 0.02 souls in play". Beside it,
  the document's rate: the least-squares slope of the formula's cost over the same design points (the soul-cost
  table is a step function; its slope over the design is what it charges per point on average).
- Curves: for each attribute, the mean power at each level (stats with many levels in up to `CURVE_BINS` bins) with
  the other attributes held at their design means, with 95% intervals; a level whose interval misses the straight
  line's value says the effect is not linear there (e.g. Atk beyond what wins a fight).

Covered games: `souls` (plain stat cards and keywords beside the soul-cost table), `circles` (Attack, Health, the
colours of a card's circles and four abilities, each ability's circles in its own colour, beside the document's price
in circles: a circle per 3 points, and each ability its circles), `plasma` (power, resolve,
plasma cost and two activated abilities; the document gives no cost formula, so the formula beside the measured rates
is the set's own fitted line, `StatDesign.bind`, and it prices power and resolve only), `source` (monsters: the
ST total in play, how far the highest ST stands out and the lowest falls, the occupied spaces required, and two
effects; the formula is the ST-total table read backwards, 25 ST a space) and `blades` (singles: the star rating,
the number of elements and of types, written from the set's own lists, and four effects the tournament engine plays;
power is score, VP over the round's first prize). Blades' star rating is both the document's only price for a single
(the aftermarket's) and its strength in a clash, so its cost is one of its own stats (`StatDesign.cost_is_stat`): a
star is the unit where its rate lies wholly above 0, and the price charges 0 stars for every symbol and effect.
Where a step of cost does not measurably cost score, a statement says which priced attributes win score at no
measurable price ("Not paid in play"); where a star does not measurably win score, which attributes the price
charges nothing for win score ("Priced at nothing"). A ruleset with no design is refused with why (`NOT_COVERED`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from workbench.analysis import RARELY_PLAYED, choose_fillers, power_curve
from workbench.auto_decks import HAND_MADE, GauntletChoice
from workbench.cards import CardEntry, CardSet, Deck, WorkbenchInputError
from workbench.judging import VerdictRule
from workbench.power_defaults import POWER_CURVE_DEFAULTS, STAT_VALUES_DEFAULTS
from workbench.rulesets.base import CardBase
from workbench.run_settings import Progress, RunSettings
from workbench.simulate import compile_for, provenance

DESIGN_PREFIX = "stat-values design"
"""Synthetic cards are named `<prefix> NNN` (and `<prefix> cost N` and `<prefix> cost N top` for the cost probe's
mid-stat and strongest cards)."""
CURVE_BINS = 6
"""The most levels a stat's curve shows: a stat with more levels is grouped into this many bins of near-equal width."""
DEFAULT_CARDS = STAT_VALUES_DEFAULTS.cards
"""Synthetic cards in the design when a person does not choose (`StatValuesDefaults.cards`)."""
DEFAULT_MATCHES_PER_CARD = STAT_VALUES_DEFAULTS.matches_per_card
"""Matches per synthetic card when a person does not choose (`StatValuesDefaults.matches_per_card`)."""
DEFAULT_REPLICATES = STAT_VALUES_DEFAULTS.replicates
"""Independent runs of the design (`StatValuesDefaults.replicates`)."""
Z95 = 1.959964
RESERVED_COLUMNS = frozenset(
    {"card", "formula_cost", "power", "se", "low", "high", "played", "flag", "same_as", "fit_se", "fingerprint"}
)
"""Columns of the design's table (`StatValues.cards`): no attribute may be named so (plasma's stat is `Power`)."""


@dataclass(frozen=True)
class Attribute:
    """One thing a synthetic card varies: a stat, the cost, or a keyword (0 = without it, 1 = with it)."""

    name: str
    """The name a designer reads (`Atk`, `Def`, `soul cost`, `Ranged 2`)."""
    low: int
    """The lowest value the design uses."""
    high: int
    """The highest value the design uses (keywords: 0 and 1)."""
    kind: str = "stat"
    """`stat`, `cost` or `keyword`."""

    @property
    def levels(self) -> list[int]:
        """Every whole value from low to high."""
        return list(range(self.low, self.high + 1))


@dataclass(frozen=True)
class StatDesign:
    """A ruleset's designed experiment: what a synthetic card varies, and the document's price for it."""

    kind: str
    """The card kind the synthetic cards are (`monster`, `character`)."""
    stats: tuple[Attribute, ...]
    """The stats, each within the range the document's formula covers."""
    cost: Attribute
    """The cost axis, over the levels the formula gives (the probe narrows it to the levels in play)."""
    keywords: tuple[Attribute, ...]
    """Ability keywords a near-vanilla card may carry (empty: vanilla cards only)."""
    card_fields: Callable[[Mapping[str, int], CardBase], dict[str, Any]]
    """The card fields for one design point (attribute name -> value), given the template (filler) card."""
    formula_cost: Callable[[Mapping[str, int]], float]
    """The document's cost for one design point (stats and keywords; the design's own cost is not read, unless
    `cost_is_stat`, where the cost is the price itself)."""
    formula: str
    """The document's formula in words."""
    cost_unit: str
    """One step of cost, in words (`soul`, `circle`)."""
    unit_of: Mapping[str, str] = field(default_factory=dict)
    """Attribute name -> what one step of it is called in sentences (`point of Atk`); default `point of <name>`."""
    attributes_of: Callable[[CardBase], dict[str, int] | str] | None = None
    """A set's own card as the design sees it (its stats and keywords), or why the design cannot describe it (an
    effect or ability it does not vary): what each bundled card's implied cost is computed from. None: no implied
    costs."""
    priced: frozenset[str] | None = None
    """The attributes the formula prices (None: every stat and keyword). One it does not price gets no formula rate,
    and the output says the formula does not price it rather than print a 0 nobody wrote."""
    formula_name: str = "the formula"
    formula_heading: str = "The document's formula"
    """What the formula is called where it is shown whole (the app, the reports): plasma's is no document's."""
    """What the formula is called in sentences (`the formula`; plasma: `the set's fitted line`)."""
    cost_units: str = ""
    """The plural of `cost_unit` (empty: `cost_unit` + `s`; plasma: `plasma`)."""
    bind: Callable[[CardSet, Mapping[str, Any]], StatDesign] | None = None
    """For what the set itself gives: the design with its formula fitted to the set (the document giving none:
    plasma) or its cards written in the set's own vocabulary (Blades' elements and types), under the run's resolved
    rule options, made before any synthetic card is added. None: the design is fixed."""
    derived: Mapping[str, Callable[[Mapping[str, int]], int]] = field(default_factory=dict)
    """Stats a design point implies rather than draws (stat name -> its value from the drawn attributes and the
    cost): a stat a rule fixes from the cost cannot be drawn apart from it and stay legal (SOURCE's ST total in play
    is the table's for the spaces plus the `st +N` the design draws). Fitted like any stat, within its range."""
    draws: tuple[Attribute, ...] = ()
    """Attributes drawn and written into the cards in place of the derived stats, and not fitted (the fit reads
    them through the derived stats: SOURCE's `st +N`; or they spread what a stat counts over the set's vocabulary:
    which of Blades' elements a card has). Empty: the design draws exactly the stats it fits."""
    place: Callable[[Mapping[str, int], CardBase | None], dict[str, int]] | None = None
    """Makes a drawn design point (drawn stats, draws, cost, keywords) a legal card, given the template card (None:
    none known), before its derived stats follow from it: it may change the keywords and drawn stats and add fields
    the card is written from. Where a keyword takes part of the cost (a circles ability fills circles of the cost, and
    a card keeps 1-3 circles for base resources), not every keyword fits every cost, and some costs need one; where a
    stat hangs on the template (how many colours a circles card has, its base resources taking the template's colour
    first), the drawn value is a target the card comes as near as it can. Those attributes are then not each used as
    often as the Latin hypercube drew them. None: every point is legal as drawn."""
    strongest_with_keywords: bool = False
    """The cost probe's strongest card carries every keyword too, not only every stat at the top of its range: where
    whether a card is played hangs on its effects (Blades' greedy plays first the single whose Play clauses bring the
    most ranking points, then the fewest stars, so in a deck of more singles than tableau slots a high-star single
    with no Play clause stays in hand), a cost level is out of play only when even a card with them is not played."""
    cost_is_stat: bool = False
    """The cost is one of the card's own stats (Blades' star rating: its price on the aftermarket and its strength
    in a clash), so a step of it is expected to win score, not to cost it. A stat's worth in cost units is then its
    rate over the cost's where the cost's rate lies wholly above 0 ("an element is worth 0.3 stars in play"),
    `formula_cost` reads the cost (a point's price, its cost included), and a card's implied cost is its own cost
    plus the worth, in cost units, of each other attribute above the design's lowest value of it (the card the
    price charges for its cost alone)."""

    def __post_init__(self) -> None:
        names = [a.name for a in (*self.attributes, *self.draws)]
        clash = sorted(set(names) & RESERVED_COLUMNS)
        if clash:
            raise ValueError(f"attribute names {clash} are columns of the design's table; name them otherwise")
        if len(set(names)) != len(names) or not set(self.derived) <= {a.name for a in self.stats}:
            raise ValueError("attribute names must be distinct, and every derived attribute one of the stats")

    @property
    def attributes(self) -> tuple[Attribute, ...]:
        """Stats, then the cost, then the keywords: the attributes the fit reads."""
        return (*self.stats, self.cost, *self.keywords)

    @property
    def drawn(self) -> tuple[Attribute, ...]:
        """The stats the design draws: its stats but the derived ones, then `draws`."""
        return (*(a for a in self.stats if a.name not in self.derived), *self.draws)

    def complete(self, point: Mapping[str, int], template: CardBase | None = None) -> dict[str, int]:
        """A drawn design point (drawn stats, cost, keywords), placed (`place`) for the template card, with its derived
        stats added."""
        placed = self.place(point, template) if self.place is not None else point
        return {**placed, **{name: int(value(placed)) for name, value in self.derived.items()}}

    @property
    def units(self) -> str:
        """Several steps of cost, in words (`souls`, `plasma`)."""
        return self.cost_units or f"{self.cost_unit}s"

    def prices(self, name: str) -> bool:
        """Whether the formula prices this attribute (the cost itself is the formula's output, never priced)."""
        return name != self.cost.name and (self.priced is None or name in self.priced)

    def step(self, name: str) -> str:
        """What one step of an attribute is called: `point of Atk`, `soul of cost`, `Ranged 2 (having it)`."""
        if name in self.unit_of:
            return self.unit_of[name]
        attribute = next(a for a in self.attributes if a.name == name)
        if attribute.kind == "keyword":
            return f"{name} (having it)"
        if attribute.kind == "cost":
            return f"{self.cost_unit} of cost"
        return f"point of {name}"


def _souls_fields(point: Mapping[str, int], template: CardBase) -> dict[str, Any]:
    abilities = ["Atk"] + [name for name in ("Ranged 2", "Mobile") if point.get(name)]
    return {
        "atk": point["Atk"],
        "defense": point["Def"],
        "soul_cost": point["soul cost"],
        "abilities": abilities,
        "effects": "",
        "element": None,
        "effect_weight": None,
    }


def _souls_attributes(card: CardBase) -> dict[str, int] | str:
    if getattr(card, "kind", None) != "monster":
        return "not a monster"
    if str(getattr(card, "effects", "") or "").strip():
        return "it has effects, which the design does not vary"
    abilities = {str(a).strip() for a in getattr(card, "abilities", ()) or ()}
    other = sorted(abilities - {"Atk", "Ranged 2", "Mobile"})
    if other:
        return f"it has {', '.join(other)}, which the design does not vary"
    return {
        "Atk": int(getattr(card, "atk", 0) or 0),
        "Def": int(getattr(card, "defense", 0) or 0),
        "Ranged 2": int("Ranged 2" in abilities),
        "Mobile": int("Mobile" in abilities),
    }


def _souls_formula(point: Mapping[str, int]) -> float:
    from workbench.rulesets.souls.costs import soul_cost_for

    # The table prices Atk + Def; Ranged and Mobile are not a "powerful effect", so they add nothing.
    return float(soul_cost_for(point["Atk"], point["Def"]))


CIRCLES_KEYWORDS: tuple[str, ...] = ("Fireball", "Defender", "Fast", "Sleep")
"""The circles design's keywords: four of the document's 24 abilities, each priced at one circle of its own colour
(the left column of its list) and each on cards of the set: Fireball (1 red; "Spend 1 Red" to use; Fire Adept),
Defender (1 blue, automatic; Ember Warden, Shieldbearer), Fast (1 green, automatic; Thorn Sprinter, Storm Rider) and
Sleep (1 green; "Spend 1 Green" to use; Dream Weaver): every colour, automatic and activated. None of two or three
circles: a card keeps at least one base resource, so at the costs in play (1-3 circles at the defaults) a two-circle
ability fits only a 3-circle card with nothing else, and a three-circle one no card at all. Their order is the order a
design card's abilities are written in."""
CIRCLES_COLOURS = "colours"
"""The circles design's colour stat: how many of red, blue and green a card's circles use (1-3). The document prices
a base resource the same in any colour ("1 Resource (any color)"), but an ability's circles are its own colour, and in
a deck of three colours a card of two colours is brought into play sooner than one of one (in balanced_tricolour a
1/2 for 1 red + 1 green +0.033 of score over one for 2 red): without it in the fit, an ability's rate would carry the
colour its circle adds."""
CIRCLES_SPENT = "points spent"
"""The circles design's drawn Attack + Health, 2-9, at most the points its base resources give (3 a resource)."""
CIRCLES_SHARE = "Attack share"
"""The circles design's drawn split of the points spent: Attack gets this many eighths of the points above the
minimum 1 Attack + 1 Health (rounded half up), Health the rest."""
CIRCLES_ROOM = "ability circles"
"""The circles design's drawn most circles its abilities may fill (0-2): a cost's circles buy abilities or base
resources (points), so with the drawn keywords alone (each on half the cards) nearly every card of 2 or 3 circles
filled all but one with abilities, and its Attack + Health stayed at 3 or less."""
CIRCLES_ORDER = "ability order"
"""The circles design's drawn order of its keywords: the keyword it starts from when it keeps the drawn ones that fit
(then on round the list), so no keyword is kept first more often than another."""


def _circles_ability(name: str) -> Any:
    from workbench.rulesets.circles.abilities import find_ability

    ability = find_ability(name)
    assert ability is not None, name
    return ability


def _circles_ability_circles(point: Mapping[str, int]) -> int:
    """The circles a design point's keywords fill (each in its own colour)."""
    return sum(_circles_ability(name).circles for name in CIRCLES_KEYWORDS if point.get(name))


def _main_colour(template: CardBase | None) -> str:
    """The colour of the template's most circles (the first of red, blue, green on a tie; red without a template):
    the colour a design card's base resources take first, so the reference deck pays them as it paid the filler."""
    from workbench.rulesets.circles.abilities import COLOURS

    if template is None:
        return COLOURS[0]
    return max(COLOURS, key=lambda colour: (int(getattr(template, colour, 0) or 0), -COLOURS.index(colour)))


def _circles_place(point: Mapping[str, int], template: CardBase | None = None) -> dict[str, int]:
    """A drawn circles design point made a legal card, its circles placed colour by colour.

    The abilities: they leave 1, 2 or 3 of the card's circles for base resources ("1 Resource ... 2 Resources ... 3
    Resources"; `circles.base_resources`), so a card of `circles` circles holds between circles - 3 and circles - 1
    ability circles. The drawn keywords are kept, from the drawn `ability order` on round the list, while their
    circles fit in that and in the drawn `ability circles`; where the cost needs more ability circles than they fill
    (4 or 5 circles: at most 3 are base resources), keywords not drawn are added in the same order. A point with no
    keyword drawn keeps none up to 3 circles (the cost probe's cards).

    The colours: each ability's circles are its own colour ("color in the Circles up top, with the appropriate
    colors"); the base resources take "any color", as many colours as bring the card's colours nearest the drawn
    `colours` (the template's main colour first, then the fewest colours, then red, blue, green), split as evenly as
    they go, the first colour taking the extra. The point gets the circles of each colour (`red`, `blue`, `green`)
    and the colours it has. Without a drawn `colours`, the base resources are all the template's main colour."""
    from itertools import combinations

    from workbench.rulesets.circles.abilities import COLOURS
    from workbench.rulesets.circles.costs import BASE_RESOURCE_CHOICES

    total = int(point["circles"])
    fewest, most = total - max(BASE_RESOURCE_CHOICES), total - min(BASE_RESOURCE_CHOICES)
    room = min(most, max(fewest, int(point.get(CIRCLES_ROOM, most))))
    start = int(point.get(CIRCLES_ORDER, 0)) % len(CIRCLES_KEYWORDS)
    order = [CIRCLES_KEYWORDS[(start + j) % len(CIRCLES_KEYWORDS)] for j in range(len(CIRCLES_KEYWORDS))]
    kept: list[str] = []
    used = 0
    for name in order:
        circles = _circles_ability(name).circles
        if point.get(name) and used + circles <= room:
            kept.append(name)
            used += circles
    for name in order:
        circles = _circles_ability(name).circles
        if used < fewest and name not in kept and used + circles <= most:
            kept.append(name)
            used += circles
    placed = {**point, **{name: int(name in kept) for name in CIRCLES_KEYWORDS}}
    circles_of: dict[str, int] = dict.fromkeys(COLOURS, 0)
    for name in kept:
        ability = _circles_ability(name)
        circles_of[ability.colour] += ability.circles
    main = _main_colour(template)
    preference = [main, *(c for c in COLOURS if c != main)]
    base = total - used
    if CIRCLES_COLOURS in point:
        wanted = int(point[CIRCLES_COLOURS])
        held = {c for c in COLOURS if circles_of[c]}
        options = [
            list(chosen) for k in range(1, min(base, len(COLOURS)) + 1) for chosen in combinations(preference, k)
        ]
        chosen = min(
            options,
            key=lambda colours: (abs(len(held | set(colours)) - wanted), main not in colours, len(colours)),
        )
    else:
        chosen = [main]
    for i, colour in enumerate(chosen):
        circles_of[colour] += base // len(chosen) + (1 if i < base % len(chosen) else 0)
    return placed | circles_of | {CIRCLES_COLOURS: sum(1 for c in COLOURS if circles_of[c])}


def _circles_spent(point: Mapping[str, int]) -> int:
    """Attack + Health of a placed point: the drawn points spent, at most 3 a base resource (the circles its abilities
    leave), at least 2 (1 Attack and 1 Health)."""
    from workbench.rulesets.circles.costs import POINTS_PER_BASE_RESOURCE

    base = int(point["circles"]) - _circles_ability_circles(point)
    return max(2, min(int(point.get(CIRCLES_SPENT, 2)), POINTS_PER_BASE_RESOURCE * base))


def _circles_attack(point: Mapping[str, int]) -> int:
    spent = _circles_spent(point)
    return 1 + math.floor(int(point.get(CIRCLES_SHARE, 0)) / 8 * (spent - 2) + 0.5)


def _circles_health(point: Mapping[str, int]) -> int:
    return _circles_spent(point) - _circles_attack(point)


def _circles_fields(point: Mapping[str, int], template: CardBase) -> dict[str, Any]:
    """A character with the point's Attack, Health, abilities and circles of each colour (placed by `_circles_place`
    when the point does not hold them yet)."""
    from workbench.rulesets.circles.abilities import COLOURS

    placed = point if all(c in point for c in COLOURS) else _circles_place(point, template)
    return {
        "attack": point["Attack"],
        "health": point["Health"],
        "abilities": [name for name in CIRCLES_KEYWORDS if placed.get(name)],
        **{c: int(placed[c]) for c in COLOURS},
    }


def _circles_attributes(card: CardBase) -> dict[str, int] | str:
    from workbench.rulesets.circles.abilities import COLOURS, find_ability

    if getattr(card, "kind", None) != "character":
        return "not a character"
    written = [str(a).strip() for a in getattr(card, "abilities", ()) or () if str(a).strip()]
    unknown = [name for name in written if find_ability(name) is None]
    if unknown:
        return f"it has {', '.join(unknown)}, which is not on the document's list of abilities"
    names = [ability.name for ability in (find_ability(name) for name in written) if ability is not None]
    other = [name for name in dict.fromkeys(names) if name not in CIRCLES_KEYWORDS]
    if other:
        return f"it has {', '.join(other)}, which the design does not vary"
    twice = [name for name in dict.fromkeys(names) if names.count(name) > 1]
    if twice:
        return f"it has {', '.join(twice)} more than once, which the design does not vary"
    return {
        "Attack": int(getattr(card, "attack", 0) or 0),
        "Health": int(getattr(card, "health", 0) or 0),
        CIRCLES_COLOURS: sum(1 for c in COLOURS if int(getattr(card, c, 0) or 0) > 0),
        **{name: int(name in names) for name in CIRCLES_KEYWORDS},
    }


def _circles_formula(point: Mapping[str, int]) -> float:
    from workbench.rulesets.circles.costs import POINTS_PER_BASE_RESOURCE

    # Points are an upper bound (the worked example spends 5 of 6), so the fewest base resources that pay for them,
    # in any colour, and each ability its circles ("The column on the left determines how many Resources it costs (of
    # that color)"); what an activated ability costs to use is spent in play, not on the card.
    base = math.ceil((point["Attack"] + point["Health"]) / POINTS_PER_BASE_RESOURCE)
    return float(base + _circles_ability_circles(point))


def _circles_step(name: str) -> str:
    """What having one of the circles design's keywords is called: its circles and what it costs to use."""
    ability = _circles_ability(name)
    circles = f"{ability.circles} {ability.colour} circle{'s' if ability.circles > 1 else ''}"
    use = f"Spend {ability.activation} {ability.colour.title()} to use" if ability.activated else "automatic"
    return f"ability {name} (having it: {circles}, {use})"


PLASMA_ABILITIES: dict[str, tuple[int, str, int]] = {
    "Ping": (1, "damage player", 1),
    "Draw": (1, "draw", 1),
}
"""The plasma design's keywords: a creature's activated ability, as (activation cost, clause verb, amount). Ping is
Storm Caller's `activate 1: damage player 1`; Draw is Gloom Seer's draw (`activate 2: draw 1`) at Ping's activation
cost, since a card has one activated ability with one cost (effects.py), so the two can be on one card: with both,
its ability is `activate 1: draw 1; activate 1: damage player 1`."""


def _plasma_clause(name: str) -> str:
    cost, verb, amount = PLASMA_ABILITIES[name]
    return f"activate {cost}: {verb} {amount}"


def _plasma_fields(point: Mapping[str, int], template: CardBase) -> dict[str, Any]:
    return {
        "power": point["Power"],
        "resolve": point["Resolve"],
        "cost": point["plasma cost"],
        "effects": "; ".join(_plasma_clause(name) for name in PLASMA_ABILITIES if point.get(name)),
    }


def _plasma_attributes(card: CardBase) -> dict[str, int] | str:
    from workbench.rulesets.plasma.effects import Opcode, parse_effects

    if getattr(card, "kind", None) != "creature":
        return "not a creature"
    parsed = parse_effects(getattr(card, "effects", "") or "")
    if parsed.unknown:
        return "its effects hold clauses the simulator does not play"
    if parsed.pairs:
        return "it has effects when played, which the design does not vary"
    ability = {(c.activation, Opcode(c.opcode).name.lower().replace("_", " "), c.amount) for c in parsed.clauses}
    other = sorted(ability - set(PLASMA_ABILITIES.values()), key=str)
    if other:
        written = ", ".join(f"'activate {cost}: {verb} {amount}'" for cost, verb, amount in other)
        return f"it has the ability {written}, which the design does not vary"
    return {
        "Power": int(getattr(card, "power", 0) or 0),
        "Resolve": int(getattr(card, "resolve", 0) or 0),
        **{name: int(clause in ability) for name, clause in PLASMA_ABILITIES.items()},
    }


def _plasma_unfitted(point: Mapping[str, int]) -> float:
    return math.nan


def _plasma_bind(cardset: CardSet, options: Mapping[str, Any]) -> StatDesign:
    """The plasma design with its formula: the set's own fitted line (plasma/costs.py's `set_fit`, the line `workbench
    validate` reports), or none, said in words, when the set has too few creatures to fit one."""
    from workbench.rulesets.plasma.costs import creature_entries, fit_minimum, set_fit

    base = DESIGNS["plasma"]
    fit = set_fit(cardset, options)
    if fit is None:
        return replace(
            base,
            bind=None,
            priced=frozenset(),
            formula=f"none: the document gives no cost formula, and the set's {len(creature_entries(cardset))} "
            f"creature(s) are fewer than the {fit_minimum(options)} a fitted line needs (min_creatures_to_fit)",
        )
    r2 = "undefined" if fit.r_squared is None else f"{fit.r_squared:.2f}"
    split = "" if fit.independent else "; power and resolve do not vary independently, so its split is one of many"
    return replace(
        base,
        bind=None,
        formula_cost=lambda point: fit.expected_cost(point["Power"], point["Resolve"]),
        formula=f"the set's fitted line, {fit.formula()} (least squares of cost on power and resolve over the set's "
        f"{fit.creatures} creatures, R² {r2}{split}; the document gives no cost formula); abilities are not in the "
        "line",
    )


SOURCE_COST = "spaces required"
"""The SOURCE design's cost: occupied spaces required (terrestrial + otherworldly), the power curve's cost axis."""
SOURCE_SYMBOLS: tuple[str, ...] = ("alpha", "beta", "gamma", "delta")
"""The four ST fields, in the card's column order."""
SOURCE_KEYWORDS: tuple[str, ...] = ("move +1", "draw 1")
"""The SOURCE design's keywords: monster effects of the bundled set, each written as its own clause (Cinder Whelp,
Wisp of Ash and Emberhorn Ram's `move +1`, a lasting change; Brinekin Scout and Voidling Seer's `draw 1`, once when
summoned)."""


def _source_values(total: int, peak: int, dip: int) -> list[int]:
    """Four whole ST summing to `total`, highest first: the highest `peak` above the middle two (which are equal) and
    the lowest `dip` below them, rounded by largest remainder (order kept, the total exact)."""
    middle = (total - peak + dip) / 4
    exact = [middle + peak, middle, middle, middle - dip]
    values = [math.floor(v) for v in exact]
    # Ties in the remainders go to the higher value first, so the rounded values stay highest first.
    for i in sorted(range(4), key=lambda i: (-(exact[i] - values[i]), i))[: total - sum(values)]:
        values[i] += 1
    return values


def _source_rank(template: CardBase) -> list[str]:
    """The template's ST fields from its highest ST to its lowest (equal ST in column order)."""
    return sorted(SOURCE_SYMBOLS, key=lambda s: (-int(getattr(template, s, 0) or 0), SOURCE_SYMBOLS.index(s)))


def _source_printed(spaces: int) -> int:
    """The table's ST total for a monster requiring `spaces` occupied spaces (0 -> 50 ... 4 -> 150)."""
    from workbench.rulesets.source.costs import ST_TOTAL_BY_REQUIREMENT

    return ST_TOTAL_BY_REQUIREMENT[spaces]


def _source_total(point: Mapping[str, int]) -> int:
    """A design card's ST total in play: the table's for its spaces (its printed ST) plus its `st +N` on all four."""
    return _source_printed(point[SOURCE_COST]) + 4 * point["ST bonus"]


def _source_fields(point: Mapping[str, int], template: CardBase) -> dict[str, Any]:
    spaces = point[SOURCE_COST]
    # The requirement as evenly split as the count allows, terrestrial first: 1/0, 1/1, 2/1, 2/2 (Pyreclaw Drake
    # 1/1, Stormforge Colossus 2/1, Exzavier Devourer 2/2), so a synthetic card asks the deck for both kinds.
    terrestrial, otherworldly = (spaces + 1) // 2, spaces // 2
    values = _source_values(_source_printed(spaces), point["ST peak"], point["ST dip"])
    # The highest value goes on the template's highest symbol and so on down, so the symbol-keyed cards of the deck
    # (Emberlance's Alpha/Delta, Sunshard Blade's alpha +20) meet the synthetic card as they met its filler.
    clauses = [f"st +{point['ST bonus']}"] if point.get("ST bonus") else []
    clauses += [name for name in SOURCE_KEYWORDS if point.get(name)]
    return {
        **dict(zip(_source_rank(template), values, strict=True)),
        "terrestrial": terrestrial,
        "otherworldly": otherworldly,
        "effects": "; ".join(clauses),
        "text": "",
    }


def _source_attributes(card: CardBase) -> dict[str, int] | str:
    from workbench.rulesets.source.effects import EffectClause, parse_effects

    if getattr(card, "kind", None) != "monster":
        return "not a monster"
    parsed = parse_effects(str(getattr(card, "effects", "") or ""), "monster")
    if any(not isinstance(clause, EffectClause) for clause in parsed):
        return "its effects hold clauses the simulator does not play"
    bonus, keywords, other = 0, dict.fromkeys(SOURCE_KEYWORDS, 0), []
    for clause in parsed:
        assert isinstance(clause, EffectClause)
        plain = not clause.foe and not clause.types
        if plain and clause.verb == "st" and clause.symbol is None and (clause.amount or 0) > 0:
            bonus += clause.amount or 0
        elif plain and clause.verb == "move" and clause.amount == 1 and not keywords["move +1"]:
            keywords["move +1"] = 1
        elif plain and clause.verb == "draw" and clause.amount == 1 and not keywords["draw 1"]:
            keywords["draw 1"] = 1
        else:
            other.append(f"`{clause.text}`")
    if other:
        return f"it has {', '.join(other)}, which the design does not vary"
    values = sorted((int(getattr(card, s, 0) or 0) for s in SOURCE_SYMBOLS), reverse=True)
    middle = (values[1] + values[2]) / 2
    # Two middle ST that differ are read as their mean (the design keeps them equal); halves round up.
    return {
        "ST total": sum(values) + 4 * bonus,
        "ST peak": math.floor(values[0] - middle + 0.5),
        "ST dip": math.floor(middle - values[3] + 0.5),
        **keywords,
    }


def _source_formula(point: Mapping[str, int]) -> float:
    # The table read backwards: 50 ST at 0 spaces, 25 more a space. Over the ST a monster has in play: a design
    # card's printed total is the table's for its spaces (`source.st_total` is an error), so what the table would
    # charge differs from its spaces only by its `st +N`, 4N ST in play (a reading: the card check reads the printed
    # total, and the document prices effects only in words, "the more occupied spaces ... the better the effect").
    return (point["ST total"] - 50) / 25


BLADES_COST = "stars"
"""The Blades design's cost: the star rating, the power curve's cost axis (the engine's `cost_axis`) and the only
price the document puts on a single card (the aftermarket's)."""
BLADES_KEYWORDS: tuple[str, ...] = (
    "Play: gain 2 RP",
    "Play: clash: win gain 4 RP",
    "Score: gain 1 RP per card",
    "Top: star +2",
)
"""The Blades design's keywords: four of the bundled set's `Timing: effect` clauses, each in the vocabulary the
tournament engine compiles to opcodes (none left out), one of each kind a designer prices: ranking points when
played (Cinder Recruit's `Play: gain 2 RP`), a clash when played (Ember Lancer's, the reference deck's filler's own),
points at the end (Night Market Chef's and Sturdy Deck Box's `Score: gain 1 RP per card`) and stars while it is the
Top card (Blaze Marshal's and Breakwater Captain's `Top: star +2`). Four, because the engine plays at most four
clauses of a card (`MAX_CLAUSES`), so a card drawing all of them keeps all of them."""
BLADES_SYMBOLS = ("elements", "types")
"""The two symbol stats: how many elements and how many types a card has."""
BLADES_OFFSETS = {"elements": "element offset", "types": "type offset"}
"""The drawn attribute that says where in the set's list of elements (types) a card's symbols start."""


def _blades_vocabulary(cardset: CardSet) -> dict[str, tuple[str, ...]]:
    """The set's own elements and types, in order of first appearance (names compared ignoring case); a pro set's
    types are left out ("Pro Player cards have their own Type"), as the symbol-count check leaves them out."""
    found: dict[str, dict[str, str]] = {"elements": {}, "types": {}}
    for entry in cardset.entries:
        card = entry.card
        for column in BLADES_SYMBOLS:
            if column == "types" and getattr(card, "set_kind", None) == "pro":
                continue
            for name in getattr(card, column, ()) or ():
                found[column].setdefault(str(name).casefold(), str(name))
    return {column: tuple(names.values()) for column, names in found.items()}


def _blades_symbols(vocabulary: Sequence[str], start: int, count: int) -> list[str]:
    """`count` different names of the vocabulary, from position `start` on, wrapping round."""
    if not vocabulary:
        return []
    return [vocabulary[(start + j) % len(vocabulary)] for j in range(min(count, len(vocabulary)))]


def _blades_fields_in(
    vocabulary: Mapping[str, Sequence[str]],
) -> Callable[[Mapping[str, int], CardBase], dict[str, Any]]:
    def fields(point: Mapping[str, int], template: CardBase) -> dict[str, Any]:
        # The set, its kind, copies, rarity and buy cost stay the filler's: a starter card stays out of the store,
        # whose cards are the clashes' reveals, so adding the design's cards changes no reveal.
        return {
            "stars": point[BLADES_COST],
            **{
                column: _blades_symbols(vocabulary[column], point[BLADES_OFFSETS[column]], point[column])
                for column in BLADES_SYMBOLS
            },
            "effects": "; ".join(clause for clause in BLADES_KEYWORDS if point.get(clause)),
            "text": "",
        }

    return fields


def _blades_unbound(point: Mapping[str, int], template: CardBase) -> dict[str, Any]:
    raise ValueError(
        "the Blades design writes elements and types from the set's own vocabulary: bind it to the set first "
        "(DESIGNS['blades'].bind(cardset, options), as stat_values does)"
    )


def _blades_clause_key(clause: Any) -> tuple[Any, ...]:
    """What the engine reads of a clause: its timing, trigger and action (not the words it is written in)."""
    return (clause.timing, clause.trigger, clause.action)


def _blades_attributes(card: CardBase) -> dict[str, int] | str:
    from workbench.rulesets.blades.effects import parse_effects

    if getattr(card, "kind", None) != "single":
        return "not a single"
    parsed = parse_effects(str(getattr(card, "effects", "") or ""))
    if parsed.problems:
        return "its effects hold clauses the simulator does not play"
    keywords = {_blades_clause_key(parse_effects(k).clauses[0]): k for k in BLADES_KEYWORDS}
    held = dict.fromkeys(BLADES_KEYWORDS, 0)
    other = []
    for clause in parsed.clauses:
        keyword = keywords.get(_blades_clause_key(clause))
        if keyword is None or held[keyword]:
            other.append(f"`{clause.text}`")
        else:
            held[keyword] = 1
    if other:
        return f"it has {', '.join(other)}, which the design does not vary"
    return {
        **{column: len({str(n).casefold() for n in getattr(card, column, ()) or ()}) for column in BLADES_SYMBOLS},
        **held,
    }


def _blades_formula(point: Mapping[str, int]) -> float:
    # The aftermarket's price, a card's star rating, whatever its symbols and effects.
    return float(point[BLADES_COST])


def _blades_bind(cardset: CardSet, options: Mapping[str, Any]) -> StatDesign:
    """The Blades design writing the set's own elements and types: each symbol stat runs from 0 to two (as the
    set's singles, which have one or two of each) or as many as the set has, and its offset over the set's list."""
    base = DESIGNS["blades"]
    vocabulary = _blades_vocabulary(cardset)
    stats = tuple(Attribute(a.name, 0, min(a.high, len(vocabulary[a.name]))) for a in base.stats)
    draws = tuple(
        Attribute(BLADES_OFFSETS[column], 0, max(len(vocabulary[column]) - 1, 0)) for column in BLADES_SYMBOLS
    )

    def either(names: Sequence[str]) -> str:
        return " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else list(names)) or "none"

    unit_of = dict(base.unit_of) | {
        "elements": f"element ({either(vocabulary['elements'])}, each as often)",
        "types": f"type ({either(vocabulary['types'])}, each as often)",
    }
    return replace(
        base, bind=None, stats=stats, draws=draws, card_fields=_blades_fields_in(vocabulary), unit_of=unit_of
    )


DESIGNS: dict[str, StatDesign] = {
    "souls": StatDesign(
        kind="monster",
        # Atk + Def up to 24 reaches every row of the table, the open "6+" row included.
        stats=(Attribute("Atk", 0, 12), Attribute("Def", 0, 12)),
        cost=Attribute("soul cost", 0, 6, "cost"),
        keywords=(Attribute("Ranged 2", 0, 1, "keyword"), Attribute("Mobile", 0, 1, "keyword")),
        card_fields=_souls_fields,
        formula_cost=_souls_formula,
        attributes_of=_souls_attributes,
        formula="the soul-cost table by Atk + Def (<=5: 0, <=10: 1, <=14: 2, <=17: 3, <=20: 4, <=22: 5, >22: 6+); "
        "Ranged and Mobile are not priced",
        cost_unit="soul",
    ),
    "circles": StatDesign(
        kind="character",
        # A legal character: 1, 2 or 3 base resources give 3, 6 or 9 points, each stat at least 1, so Attack and
        # Health each run 1-8 and together at most 3 a base resource; the abilities fill the other circles, each in its
        # own colour, and the base resources take any colours. The design draws the cost, the keywords, the colours
        # (a target), the points spent (2-9, at most what the base resources give: points are an upper bound,
        # `circles.unspent_points` a warning), their split, the most circles abilities may fill and the order the
        # keywords are kept in (`_circles_place`); Attack and Health follow, so every card passes the card checks.
        stats=(Attribute("Attack", 1, 8), Attribute("Health", 1, 8), Attribute(CIRCLES_COLOURS, 1, 3)),
        cost=Attribute("circles", 1, 5, "cost"),
        keywords=tuple(Attribute(name, 0, 1, "keyword") for name in CIRCLES_KEYWORDS),
        card_fields=_circles_fields,
        formula_cost=_circles_formula,
        attributes_of=_circles_attributes,
        formula="1, 2 or 3 base resources of any colours give 3, 6 or 9 points of Attack + Health (one circle per 3 "
        "points, rounded up: the points are an upper bound; a colour costs nothing), and each ability fills its own "
        "circles in its colour (Fireball 1 red, Defender 1 blue, Fast 1 green, Sleep 1 green); what an activated "
        "ability costs to use (Fireball: Spend 1 Red; Sleep: Spend 1 Green) is spent in play each turn it is used, "
        "not priced in circles",
        cost_unit="circle",
        unit_of={
            "circles": "circle of cost (the stats, colours and abilities held)",
            CIRCLES_COLOURS: "colour more among its circles (its cost held)",
            **{name: _circles_step(name) for name in CIRCLES_KEYWORDS},
        },
        derived={"Attack": _circles_attack, "Health": _circles_health},
        draws=(
            Attribute(CIRCLES_SPENT, 2, 9),
            Attribute(CIRCLES_SHARE, 0, 8),
            Attribute(CIRCLES_ROOM, 0, 2),
            Attribute(CIRCLES_ORDER, 0, len(CIRCLES_KEYWORDS) - 1),
        ),
        place=_circles_place,
    ),
    "plasma": StatDesign(
        kind="creature",
        # The document sets no range; these are the bundled set's (plasma_core: power 1-9, resolve 1-7, cost 1-7),
        # the range its fitted line rests on.
        stats=(Attribute("Power", 1, 9), Attribute("Resolve", 1, 7)),
        cost=Attribute("plasma cost", 1, 7, "cost"),
        keywords=(Attribute("Ping", 0, 1, "keyword"), Attribute("Draw", 0, 1, "keyword")),
        card_fields=_plasma_fields,
        formula_cost=_plasma_unfitted,
        attributes_of=_plasma_attributes,
        formula="the set's fitted line (least squares of cost on power and resolve over the set's creatures, fitted "
        "when a set is measured; the document gives no cost formula)",
        cost_unit="plasma",
        cost_units="plasma",
        unit_of={
            "Ping": f"ability '{_plasma_clause('Ping')}' (having it)",
            "Draw": f"ability '{_plasma_clause('Draw')}' (having it)",
        },
        priced=frozenset({"Power", "Resolve"}),
        formula_name="the set's fitted line",
        formula_heading="Beside it, in place of a document formula",
        bind=_plasma_bind,
    ),
    "source": StatDesign(
        kind="monster",
        # The ST total is not free: "monsters requiring at least 0 occupied spaces have a 50 ST total ... 4 ... 150",
        # and `source.st_total` is an error, so a legal card's printed total follows from its spaces. What the rule
        # leaves free is the split, and the rules read the split one ST at a time: a move goes by the drawn symbol's
        # ST bracket, a fight compares one ST, a generator attack takes that ST off the SourcePoints. Under the
        # default intentional draw the player chooses which symbol each action uses, so which of the four holds a
        # value matters only through the few symbol-keyed cards; what a designer shapes is how far the highest ST
        # stands out (the longest move, the fight it wins, the hardest generator hit) and how deep the lowest falls
        # (the symbol an enemy attacks it with). So the design varies the total and those two, not each of the four
        # (whose sum is fixed, so one would be the others' remainder). Peak 0-20 and dip 0-10 keep the lowest ST at
        # 0 or more at a 50 total (20 + 3 x 10 = 50) and cover the set's monsters but Pyreclaw Drake's and
        # Stormforge Colossus's 12.5 dip (the set: peak 0-17.5, dip 0-12.5, two unequal middle ST read as their
        # mean). The total in play is varied apart from the spaces the only legal way, by an `st +N` of the
        # monster's own (Stormforge Colossus's `st +5`: "Each of its ST is 5 higher"), drawn 0-10 (up to 40 ST, 1.6
        # spaces by the table): so the fit sets a point of ST total against a space required with its ST held,
        # which is what the table prices (25 ST a space), where a step of spaces alone would bring its 25 ST along.
        stats=(Attribute("ST total", 50, 190), Attribute("ST peak", 0, 20), Attribute("ST dip", 0, 10)),
        # The table runs from 0 to 4 spaces (`source.requirement_range` above 4).
        cost=Attribute(SOURCE_COST, 0, 4, "cost"),
        keywords=tuple(Attribute(name, 0, 1, "keyword") for name in SOURCE_KEYWORDS),
        card_fields=_source_fields,
        formula_cost=_source_formula,
        attributes_of=_source_attributes,
        formula="the ST-total table read backwards: a monster requiring 0/1/2/3/4 occupied spaces has a "
        "50/75/100/125/150 ST total, so 25 ST a space, here over the ST total in play (the printed total plus 4N for "
        "an `st +N` of its own); it fixes the total only, so the split over the four symbols (peak, dip) costs 0 "
        "spaces, and the document gives effects no price in spaces",
        cost_unit="space",
        unit_of={
            SOURCE_COST: "occupied space required (the ST total held)",
            "ST total": "point of ST total in play",
            "ST peak": "point of ST peak (the highest ST 1 further above the middle two, the total kept)",
            "ST dip": "point of ST dip (the lowest ST 1 further below the middle two, the total kept)",
            **{name: f"effect `{name}` (having it)" for name in SOURCE_KEYWORDS},
        },
        priced=frozenset({"ST total", "ST peak", "ST dip"}),
        derived={"ST total": _source_total},
        draws=(Attribute("ST bonus", 0, 10),),
    ),
    "blades": StatDesign(
        kind="single",
        # What the tournament reads of a single: its stars (a clash adds the Top card's stars to a revealed store
        # card's; `N+ star` / `N- star` conditions; flips of the highest or lowest card; Anvil Drop, Thwomp!), its
        # symbols (`per <element or type>` conditions of the deck and of the revealed metagame cards, which every
        # player scores: "gain 3 RP per fire"), and its effects. The star rating is also the only price the
        # document gives a single (the aftermarket's), so the cost is a stat of the card (`cost_is_stat`). Stars
        # 1-8: "Star Ratings range from 1-10, but usually just 1-8", so no design card carries the 9-10 warning;
        # the set's singles run 1-8. Elements and types 0-2 (bound to the set's own lists, `_blades_bind`): the
        # set's singles have one or two of each ("Some cards have multiple Types or Elements"), none is legal.
        stats=(Attribute("elements", 0, 2), Attribute("types", 0, 2)),
        cost=Attribute(BLADES_COST, 1, 8, "cost"),
        keywords=tuple(Attribute(clause, 0, 1, "keyword") for clause in BLADES_KEYWORDS),
        card_fields=_blades_unbound,
        formula_cost=_blades_formula,
        attributes_of=_blades_attributes,
        formula="a card costs its star rating: the aftermarket, the only price the document puts on a single card, "
        "pays and charges 'Millennium Dollars equal to that card's Star Rating', and trades must match 'the total "
        "of all Star Ratings and Millennium Dollars'; so 1 star a star and 0 stars for an element, a type or an "
        "effect: the document prices symbols and effects at nothing (the store's buy cost is one figure per set, "
        "and the tournament never reads it)",
        cost_unit="star",
        unit_of={
            BLADES_COST: "star of rating",
            "elements": "element (one of the set's elements, each as often)",
            "types": "type (one of the set's types, each as often)",
            **{clause: f"effect `{clause}` (having it)" for clause in BLADES_KEYWORDS},
        },
        formula_name="the aftermarket price",
        formula_heading="The document's price (the aftermarket)",
        bind=_blades_bind,
        draws=(Attribute("element offset", 0, 5), Attribute("type offset", 0, 5)),
        # Greedy plays first the single whose Play clauses bring the most RP, then the fewest stars, so in a deck of
        # more singles than slots (the starter: 7 for 6) a single of 4+ stars with no Play clause is never played,
        # while one with `Play: gain 2 RP` is played at every rating: the probe's strongest card carries the
        # keywords, and a rating is out of play only when even such a card is not played.
        strongest_with_keywords=True,
        cost_is_stat=True,
    ),
}
"""The designed experiment of each covered ruleset."""

NOT_COVERED: dict[str, str] = {}
"""Rulesets with no designed experiment, and why (said in words, never a made-up figure): none since Blades' (its
star rating is both its price and its main stat, `StatDesign.cost_is_stat`)."""


def design_for(ruleset_id: str) -> StatDesign:
    """The ruleset's designed experiment, or a clear error saying why the game is not covered."""
    if ruleset_id in DESIGNS:
        return DESIGNS[ruleset_id]
    reason = NOT_COVERED.get(ruleset_id, "no designed experiment is written for this ruleset")
    raise WorkbenchInputError(
        f"what each stat is worth in play is not measured for '{ruleset_id}': {reason}.",
        expected="a card set of one of: " + ", ".join(sorted(DESIGNS)),
    )


def latin_hypercube(attributes: Sequence[Attribute], n: int, rng: np.random.Generator) -> list[dict[str, int]]:
    """`n` design points: for each attribute, its levels used as equally often as `n` allows (a random permutation of
    strata, one value per stratum), the attributes drawn independently of each other."""
    columns: dict[str, np.ndarray] = {}
    for attribute in attributes:
        levels = np.array(attribute.levels)
        strata = (rng.permutation(n) + rng.random(n)) / n
        columns[attribute.name] = levels[np.minimum((strata * len(levels)).astype(int), len(levels) - 1)]
    return [{name: int(values[i]) for name, values in columns.items()} for i in range(n)]


def with_cards(cardset: CardSet, template: str, cards: Mapping[str, Mapping[str, Any]]) -> CardSet:
    """A copy of the set with new cards added: each a copy of `template` under its new name with the fields given,
    validated by the ruleset's card model like a sheet row. Names already in the set are refused."""
    entry = cardset.find(template)
    if entry is None:
        raise WorkbenchInputError(f"the set has no card '{template}' to copy.", path=cardset.path)
    last_row = max((e.row for e in cardset.entries), default=1)
    added = []
    for offset, (name, fields) in enumerate(cards.items(), start=1):
        if cardset.find(name) is not None:
            raise WorkbenchInputError(f"the set already has a card named '{name}'.", path=cardset.path)
        card = cardset.ruleset.card_adapter.validate_python({**entry.card.model_dump(), **fields, "name": name})
        added.append(CardEntry(card, last_row + offset))
    return replace(cardset, entries=[*cardset.entries, *added])


def _refuse_illegal_design(extended: CardSet, names: Collection[str], run: RunSettings) -> None:
    """Refuse, before any match, a design whose cards the ruleset's own card checks call errors under the run's rule
    options (circles' `points_must_be_spent=true` against a design that leaves points unspent): rates measured on
    cards the designer's rules forbid would be no answer. Warnings (a cost off the formula) are what the design
    varies on purpose and pass."""
    options = extended.ruleset.resolve_options(run.options)
    errors = [f for f in extended.ruleset.check_cards(extended, options) if f.card in names and f.severity == "error"]
    if not errors:
        return
    rules = sorted({f.rule for f in errors})
    example = errors[0].message.rstrip(".")
    chosen = ", ".join(f"{key}={value}" for key, value in sorted((run.options or {}).items())) or "the defaults"
    raise WorkbenchInputError(
        f"under these rule options ({chosen}), {len({f.card for f in errors})} of the design's {len(names)} synthetic "
        f"cards would be errors by the ruleset's own checks ({', '.join(rules)}; e.g. {example}): the "
        "design writes cards these rules forbid, so no rate measured on them would mean anything.",
        expected="rule options under which the design's cards are legal (the ruleset's defaults are)",
    )


def t_quantile(df: float, p: float = 0.975) -> float:
    """Student's t quantile (Cornish-Fisher expansion about the normal; within 0.001 of the exact value from 4
    degrees of freedom up, and the normal quantile for infinite df). Only p = 0.975 is used here."""
    z = Z95 if p == 0.975 else float(np.sqrt(2) * _erfinv(2 * p - 1))
    if not math.isfinite(df):
        return z
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def _erfinv(y: float) -> float:
    """Inverse error function by Newton's method on math.erf."""
    x = 0.0
    for _ in range(60):
        x -= (math.erf(x) - y) / (2 / math.sqrt(math.pi) * math.exp(-x * x))
    return x


@dataclass(frozen=True)
class Fit:
    """A weighted least-squares fit with its covariance and quality."""

    names: list[str]
    """Column names, the intercept first (`intercept`)."""
    coef: np.ndarray
    """Coefficients, in the order of `names`."""
    cov: np.ndarray
    """Their covariance (scaled by the reduced chi-square when that exceeds 1)."""
    df: int
    """Residual degrees of freedom."""
    r2: float
    """Weighted R^2."""
    scale: float
    """Residual scale: the square root of the reduced chi-square (1 = residuals as small as the noise allows)."""

    def interval(self, i: int) -> tuple[float, float]:
        """The 95% interval of coefficient i."""
        half = t_quantile(max(self.df, 1)) * math.sqrt(max(float(self.cov[i, i]), 0.0))
        return float(self.coef[i]) - half, float(self.coef[i]) + half


def weighted_fit(x: np.ndarray, y: np.ndarray, se: np.ndarray, names: Sequence[str]) -> Fit:
    """Weighted least squares of y on the columns of x (an intercept is added), weights 1 / se^2."""
    w = 1.0 / se**2
    design = np.column_stack([np.ones(len(y)), x]) if x.size else np.ones((len(y), 1))
    root = np.sqrt(w)
    coef, *_ = np.linalg.lstsq(design * root[:, None], y * root, rcond=None)
    residual = y - design @ coef
    chi2 = float(np.sum(w * residual**2))
    df = len(y) - design.shape[1]
    reduced = chi2 / df if df > 0 else float("nan")
    unscaled = np.linalg.pinv(design.T @ (design * w[:, None]))
    cov = unscaled * (max(1.0, reduced) if math.isfinite(reduced) else 1.0)
    mean = float(np.sum(w * y) / np.sum(w))
    total = float(np.sum(w * (y - mean) ** 2))
    r2 = 1 - chi2 / total if total > 0 else float("nan")
    return Fit(["intercept", *names], coef, cov, df, r2, math.sqrt(reduced) if math.isfinite(reduced) else float("nan"))


def _floored_se(se: np.ndarray) -> np.ndarray:
    """Each card's standard error, floored at a quarter of the median positive one: a card whose every match ended
    as the filler's has a standard error of 0, an exact measurement but not an infinite weight in the fit.

    (The fit then multiplies it by the square root of the number of design cards whose matches all ended alike: with
    common random numbers, k cards that played identically are one measurement, so together they weigh as one.)"""
    positive = se[se > 0]
    floor = 0.25 * float(np.median(positive)) if positive.size else 1.0
    return np.maximum(se, floor)


def _bins(levels: list[int]) -> list[list[int]]:
    """Levels grouped into at most CURVE_BINS consecutive bins of near-equal width."""
    if len(levels) <= CURVE_BINS:
        return [[level] for level in levels]
    edges = np.linspace(0, len(levels), CURVE_BINS + 1).round().astype(int)
    return [levels[a:b] for a, b in zip(edges[:-1], edges[1:], strict=True) if b > a]


@dataclass(frozen=True)
class StatValues:
    """What each stat, keyword and step of cost is worth in play, beside the document's formula."""

    rates: pd.DataFrame
    """One row per attribute in the fit: attribute, kind (stat / cost / keyword), step (what one step is called),
    rate (power per step: score, win 1 / draw 1/2 / loss 0, gained per step), low, high (95%), se, in_cost,
    in_cost_low, in_cost_high (the rate in cost units: steps of cost one step of it is worth in play; None where the
    cost's rate is not measurably below 0, and for the cost itself), formula (cost units the document charges per
    step; None for the cost), and mispriced (in_cost - formula over the attribute's whole range, None when either is
    missing)."""
    curves: pd.DataFrame
    """One row per attribute level (or bin): attribute, level (text), mean_value, cards, power, low, high (95%, the
    other attributes at their design means), line (the straight fit's power there) and off_line (True when the
    interval misses the line)."""
    cost_levels: pd.DataFrame
    """The cost probe, one row per cost level: cost, power, low, high, played, played_in_time (the mid-stat card's),
    top_power, top_low, top_high, top_played (the strongest card's: every stat at the top of its range, no keyword),
    in_play (either card played in at least `min_play_share` of its matches)."""
    cards: pd.DataFrame
    """The design, one row per synthetic card: card, each attribute's value, formula_cost, power, se, low, high,
    played, flag, same_as (how many design cards, itself included, played every match exactly alike: with common
    random numbers they are one measurement, so each weighs 1 / same_as in the fit) and fit_se (the standard error
    the fit weighs the card by: se floored, times the square root of same_as). `power` is the replicates' mean and
    `se` its standard error as the replicates' own paired intervals give it."""
    r2: float
    """Weighted R^2 of the straight fit (None-like NaN when the powers do not vary)."""
    scale: float
    """Residual scale of the straight fit: 1 when the residuals are as small as the measurement noise allows; above
    1, the game is not a straight line in these attributes (see `curves`)."""
    df: int
    """Residual degrees of freedom of the fit."""
    statements: list[str]
    """The findings in words, most important first."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Provenance (ruleset and engine versions, options, seed, matches per card, policy, card-set hash, workbench
    version) plus the design: base card, attribute ranges, cost levels in play, cards, reference deck, gauntlet."""
    implied: pd.DataFrame = field(default_factory=pd.DataFrame)
    """Each of the set's own cards of the design's kind: card, cost (its cost now), formula_cost (the document's
    price for its stats), implied (the cost the measured rates give its stats: the design's mean cost plus each
    attribute's distance from the design's mean times its measured worth in cost units), implied_low, implied_high
    (95%, delta method) and reason (why no implied cost is given: an effect the design does not vary, a stat beyond
    its range, a cost the rates do not price, an implied cost beyond the costs measured in play; None when one is)."""

    @property
    def cost_units(self) -> str:
        """Several steps of cost, in words (`souls`, `plasma`)."""
        return str(self.meta.get("cost_units") or f"{self.meta.get('cost_unit', 'cost')}s")

    @property
    def formula_heading(self) -> str:
        """What the formula beside the rates is called where it is shown whole (`The document's formula`)."""
        return str(self.meta.get("formula_heading", "The document's formula"))

    def to_json(self) -> dict[str, Any]:
        """Everything as JSON-ready data (NaN as null)."""

        def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
            return json.loads(frame.to_json(orient="records"))

        return {
            **self.meta,
            "fit": {"r2": _finite(self.r2), "scale": _finite(self.scale), "df": self.df},
            "rates": records(self.rates),
            "curves": records(self.curves),
            "cost_levels": records(self.cost_levels),
            "cards": records(self.cards),
            "implied_costs": records(self.implied),
            "statements": self.statements,
        }

    def to_text(self) -> str:
        """A short rendering: the statements, the rates beside the formula, the cost probe and the curves."""
        unit, units = self.meta.get("cost_unit", "cost"), self.cost_units
        formula_name = self.meta.get("formula_name", "the formula")
        width = max([12, *(len(str(name)) for name in self.rates.get("attribute", []))])
        lines = [
            f"What each stat is worth in play: {self.meta.get('cardset', '')} ({self.meta.get('ruleset')} "
            f"{self.meta.get('ruleset_version')}), {self.meta.get('design_cards')} synthetic cards x "
            f"{self.meta.get('matches_per_card'):,} matches, seed {self.meta.get('seed')}, policy "
            f"{self.meta.get('policy')}",
            *[f"- {s}" for s in self.statements],
            "",
            f"{'attribute':<{width}} {'power per step':>26} {f'in {units} (measured)':>26} {'formula':>8}",
        ]
        for row in self.rates.itertuples():
            measured = (
                f"{row.in_cost:+.3f} [{row.in_cost_low:+.3f}, {row.in_cost_high:+.3f}]"
                if row.in_cost is not None and not _isnan(row.in_cost)
                else "-"
            )
            formula = "-" if row.formula is None or _isnan(row.formula) else f"{row.formula:+.3f}"
            lines.append(
                f"{row.attribute:<{width}} {f'{row.rate:+.4f} [{row.low:+.4f}, {row.high:+.4f}]':>26} {measured:>26} "
                f"{formula:>8}"
            )
        lines.append(f"fit: R^2 {self.r2:.2f}, residual scale {self.scale:.2f} on {self.df} degrees of freedom")
        lines.append("")
        lines.append(f"cost probe (a mid-stat card and the strongest card at each {unit} cost):")
        for row in self.cost_levels.itertuples():
            top = (
                f"; strongest {row.top_power:+.3f} [{row.top_low:+.3f}, {row.top_high:+.3f}], played "
                f"{_share(row.top_played)}"
                if hasattr(row, "top_power")
                else ""
            )
            lines.append(
                f"  {row.cost:>2}: power {row.power:+.3f} [{row.low:+.3f}, {row.high:+.3f}], played "
                f"{_share(row.played)}{top}{'' if row.in_play else '  (out of play)'}"
            )
        lines.append("")
        lines.append("curves (mean power per level, other attributes at their design means):")
        for attribute, rows in self.curves.groupby("attribute", sort=False):
            cells = [
                f"{r.level}: {r.power:+.3f} [{r.low:+.3f}, {r.high:+.3f}]{'*' if r.off_line else ''}"
                for r in rows.itertuples()
            ]
            lines.append(f"  {attribute}: " + "; ".join(cells))
        lines.append("  (* the interval misses the straight fit: not linear there)")
        if len(self.implied):
            lines.append("")
            lines.append(f"the set's own cards at the measured rates (implied {units}, 95%):")
            for row in self.implied.itertuples():
                implied = (
                    f"{row.implied:.2f} [{row.implied_low:.2f}, {row.implied_high:.2f}]"
                    if not isinstance(row.reason, str)
                    else f"none: {row.reason}"
                )
                document = (
                    "-"
                    if row.formula_cost is None or _isnan(row.formula_cost)
                    else f"{row.formula_cost:g}"
                    if float(row.formula_cost).is_integer()
                    else f"{row.formula_cost:.2f}"
                )
                lines.append(f"  {row.card}: costs {row.cost:g}, {formula_name} {document}, implied {implied}")
        return "\n".join(lines)


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _isnan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)


def _share(value: Any) -> str:
    return "-" if value is None or _isnan(value) else f"{float(value):.0%}"


def _progress_step(progress: Progress | None, step: int, steps: int) -> Progress | None:
    if progress is None:
        return None
    scale = 1_000_000

    def report(done: int, total: int) -> None:
        if total > 0:
            progress(step * scale + done * scale // total, steps * scale)

    return report


def _strongest(design: StatDesign) -> dict[str, int]:
    """The cost probe's strongest card: every drawn stat at the top of its range, no keyword, or every keyword where
    `StatDesign.strongest_with_keywords` (the cost is set per level; derived stats follow from the drawn ones)."""
    with_keywords = int(design.strongest_with_keywords)
    return {a.name: a.high for a in design.drawn} | {k.name: with_keywords for k in design.keywords}


def _template(cardset: CardSet, decks: Sequence[Deck], design: StatDesign, run: RunSettings) -> str:
    """The reference deck's filler of the design's kind: the card the replacement test swaps out, copied as the
    template of every synthetic card."""
    _, compiled, _ = compile_for(cardset, run.options)
    reference = compiled.deck_array(decks[0])
    fillers = choose_fillers(compiled, reference)
    kinds = {entry.card.name: entry.card.kind for entry in cardset}
    slots = {int(compiled.slot[i]) for i in set(reference.tolist()) if kinds.get(compiled.names[i]) == design.kind}
    for slot in sorted(slots):
        if slot in fillers:
            return compiled.names[fillers[slot]]
    raise WorkbenchInputError(
        f"the reference deck {decks[0].name} holds no {design.kind} card with a cost to replace, so no synthetic "
        f"{design.kind} can be measured in it.",
        expected=f"a reference deck (the first deck) with {design.kind} cards",
    )


def stat_values(
    cardset: CardSet,
    decks: Sequence[Deck],
    cards: int = DEFAULT_CARDS,
    matches_per_card: int = DEFAULT_MATCHES_PER_CARD,
    run: RunSettings = RunSettings(),
    *,
    gauntlet: GauntletChoice = HAND_MADE,
    min_play_share: float = POWER_CURVE_DEFAULTS.min_play_share,
    replicates: int = DEFAULT_REPLICATES,
    design: StatDesign | None = None,
) -> StatValues:
    """Measure what each stat, keyword and step of cost is worth in play (see the module docstring for the method).

    `decks`: the first is the reference deck, all of them the gauntlet (as for a power curve). `cards` synthetic
    cards are measured at `matches_per_card` matches each (split over `replicates` runs on independent seeds, whose
    spread gives the intervals), after a probe of one card per cost level at the same match count. `design` replaces
    the ruleset's own (`DESIGNS`); a ruleset with none is refused with the reason.
    """
    design = design or design_for(cardset.ruleset.id)
    if design.bind is not None:
        design = design.bind(cardset, cardset.ruleset.resolve_options(run.options))
    if not decks:
        raise WorkbenchInputError(
            "stat values need at least one deck: the first is the reference deck, all of them the gauntlet.",
            expected="one or more --deck files",
        )
    if not isinstance(cards, int) or cards < len(design.attributes) + 3:
        raise WorkbenchInputError(
            f"{cards!r} synthetic cards cannot fit {len(design.attributes)} attributes with intervals.",
            expected=f"a whole number of at least {len(design.attributes) + 3}",
        )
    if not isinstance(replicates, int) or not 2 <= replicates <= 100 or matches_per_card < replicates:
        raise WorkbenchInputError(
            f"{replicates!r} replicates of {matches_per_card!r} matches per card cannot give intervals.",
            expected="2 to 100 replicates, and at least one match per card in each",
        )
    template = _template(cardset, decks, design, run)
    template_card = cardset.find(template)
    assert template_card is not None
    quick = VerdictRule(resamples=0, follow_up=1.0)

    steps = replicates + 1

    def measure(points: dict[str, dict[str, int]], step: int, seed: int, matches: int) -> pd.DataFrame:
        fields = {name: design.card_fields(point, template_card.card) for name, point in points.items()}
        extended = with_cards(cardset, template, fields)
        _refuse_illegal_design(extended, points, run)
        curve = power_curve(
            extended,
            decks,
            matches,
            replace(run, seed=seed, progress=_progress_step(run.progress, step, steps)),
            only=list(points),
            min_play_share=min_play_share,
            gauntlet=gauntlet,
            rule=quick,
            check_suggestions=False,
        )
        frame = curve.cards.set_index("card").loc[list(points)].reset_index()
        frame["fingerprint"] = [curve.fingerprints[name] for name in points]
        frame.attrs["meta"] = curve.meta
        return frame

    # Step 1: the cost probe, a mid-stat card and the strongest card (no keyword either) per cost level.
    middle = {a.name: (a.low + a.high) // 2 for a in design.drawn} | {k.name: 0 for k in design.keywords}
    top = _strongest(design)
    probe_points = {
        f"{DESIGN_PREFIX} cost {c}": design.complete(middle | {design.cost.name: c}, template_card.card)
        for c in design.cost.levels
    }
    top_points = {
        f"{DESIGN_PREFIX} cost {c} top": design.complete(top | {design.cost.name: c}, template_card.card)
        for c in design.cost.levels
    }
    probed = measure(probe_points | top_points, 0, run.seed, matches_per_card)
    probe, strongest = probed.iloc[: len(probe_points)], probed.iloc[len(probe_points) :]

    def shares(column: pd.Series) -> list[float | None]:
        return [None if p is None or _isnan(p) else float(p) for p in column]

    cost_levels = pd.DataFrame(
        {
            "cost": design.cost.levels,
            "power": probe["power"].to_numpy(float),
            "low": probe["low"].to_numpy(float),
            "high": probe["high"].to_numpy(float),
            "played": shares(probe["played"]),
            "played_in_time": shares(probe["played_in_time"]),
            "top_power": strongest["power"].to_numpy(float),
            "top_low": strongest["low"].to_numpy(float),
            "top_high": strongest["high"].to_numpy(float),
            "top_played": shares(strongest["played"]),
        }
    )
    # A cost level is in play when either card is played there often enough (no share measured: in play).
    cost_levels["in_play"] = [
        (mid is None and best is None) or max(p for p in (mid, best) if p is not None) >= min_play_share
        for mid, best in zip(cost_levels["played"], cost_levels["top_played"], strict=True)
    ]
    in_play = [int(c) for c, ok in zip(cost_levels["cost"], cost_levels["in_play"], strict=True) if ok]
    if not in_play:
        raise WorkbenchInputError(
            f"no cost level from {design.cost.low} to {design.cost.high} was played in {min_play_share:.0%} of its "
            f"matches in the reference deck {decks[0].name}: no synthetic card can show what a stat is worth there.",
            expected="a reference deck whose games reach the cards' costs (see `workbench health`)",
        )
    # Step 2: the Latin hypercube over the stats, the cost levels in play and the keywords.
    cost_in_play = Attribute(design.cost.name, 0, len(in_play) - 1, "cost")
    attributes = [*design.drawn, cost_in_play, *design.keywords]
    rng = np.random.default_rng(np.random.SeedSequence([run.seed, 34]))
    points = [
        design.complete(point | {design.cost.name: in_play[point[design.cost.name]]}, template_card.card)
        for point in latin_hypercube(attributes, cards, rng)
    ]
    named = {f"{DESIGN_PREFIX} {i + 1:03d}": point for i, point in enumerate(points)}
    # The design is played `replicates` times on independent seeds: within one run every card plays the same seeded
    # matches (common random numbers), so the cards' errors are correlated; the runs' spread is what the intervals
    # rest on.
    seeds = [
        int(s.generate_state(1, np.uint64)[0] >> np.uint64(1))
        for s in np.random.SeedSequence(run.seed).spawn(replicates)
    ]
    runs = [measure(named, r + 1, seed, matches_per_card // replicates) for r, seed in enumerate(seeds)]
    powers = np.array([frame["power"].to_numpy(float) for frame in runs])
    errors = np.array([frame["se"].to_numpy(float) for frame in runs])
    table = pd.DataFrame([{"card": name, **point} for name, point in named.items()])
    table["formula_cost"] = [design.formula_cost(point) for point in points]
    table["power"] = powers.mean(axis=0)
    table["se"] = np.sqrt((errors**2).mean(axis=0) / replicates)
    table["low"] = table["power"] - Z95 * table["se"]
    table["high"] = table["power"] + Z95 * table["se"]
    played = np.array([[np.nan if p is None else float(p) for p in frame["played"]] for frame in runs])
    table["played"] = [None if math.isnan(p) else float(p) for p in played.mean(axis=0)]
    table["flag"] = [RARELY_PLAYED if p is not None and p < min_play_share else "" for p in table["played"]]
    # Cards that played every match alike (the same seeds, the same outcomes) are one measurement, not several.
    prints = pd.Series(["|".join(frame["fingerprint"].iloc[i] for frame in runs) for i in range(len(table))])
    table["same_as"] = prints.map(prints.value_counts()).to_numpy()
    table["fit_se"] = _floored_se(table["se"].to_numpy(float)) * np.sqrt(table["same_as"].to_numpy(float))
    own = _own_cards(cardset, design, compile_for(cardset, run.options)[1])
    values = _analyse(design, table, powers, own, in_play)
    measured = runs[0]
    meta = dict(measured.attrs["meta"])
    engine, _, resolved = compile_for(cardset, run.options)
    per_card = int(meta["matches_per_card"]) * replicates
    meta |= provenance(cardset, engine, resolved, run.seed, per_card, (run.policy, run.policy))
    meta |= {
        "matches_per_card": per_card,
        "replicates": replicates,
        "replicate_seeds": seeds,
        "probe_matches_per_card": int(probed.attrs["meta"]["matches_per_card"]),
        "design_set_hash": measured.attrs["meta"]["cardset_hash"],
        "policy": run.policy,
        "design_cards": cards,
        "base_card": template,
        "attributes": {a.name: {"low": a.low, "high": a.high, "kind": a.kind} for a in design.attributes}
        | {a.name: {"low": a.low, "high": a.high, "kind": "drawn"} for a in design.draws},
        "cost_levels_in_play": in_play,
        "cost_unit": design.cost_unit,
        "cost_units": design.units,
        "formula": design.formula,
        "formula_name": design.formula_name,
        "formula_heading": design.formula_heading,
        "min_play_share": min_play_share,
    }
    for key in ("tested", "chance", "planning", "matches_to_decide_all", "verdict_rule", "fillers"):
        meta.pop(key, None)
    statements = _statements(design, values, cost_levels, min_play_share)
    return replace(values, cost_levels=cost_levels, meta=meta, statements=statements)


def _own_cards(cardset: CardSet, design: StatDesign, compiled: Any) -> list[tuple[str, float, dict[str, int] | str]]:
    """The set's own cards of the design's kind: name, cost on the cost axis, and its attributes (or why not)."""
    if design.attributes_of is None:
        return []
    out: list[tuple[str, float, dict[str, int] | str]] = []
    for entry in cardset.entries:
        card = entry.card
        if getattr(card, "kind", None) != design.kind:
            continue
        cost = float(compiled.cost[compiled.card_id(card.name)])
        out.append((card.name, cost, design.attributes_of(card)))
    return out


def _replicated(fits: Sequence[Fit], point: Fit, design_cov: np.ndarray | None = None) -> Fit:
    """The point fit's coefficients (the mean of the replicates', the fit being linear in the powers) with the
    covariance of that mean from the replicates' spread plus `design_cov` (the design's share, `_design_cov`), on
    replicates - 1 degrees of freedom."""
    coefs = np.array([f.coef for f in fits])
    cov = np.atleast_2d(np.cov(coefs.T, ddof=1)) / len(fits)
    if design_cov is not None:
        cov = cov + design_cov
    return Fit(point.names, coefs.mean(axis=0), cov, len(fits) - 1, point.r2, point.scale)


def _design_cov(x: np.ndarray, y: np.ndarray, se: np.ndarray, point: Fit) -> np.ndarray:
    """The design's share of the rates' error: the HC1 sandwich covariance of the weighted fit `point` of y on x.

    The straight rates are a projection of the game onto the design's points; where the game is not a straight line
    the projection depends on the points drawn, and this covariance (from each card's residual, the misfit included)
    is how much it moves from one draw of the design to another. Zero when no residual degree of freedom is left."""
    w = 1.0 / se**2
    design = np.column_stack([np.ones(len(y)), x]) if x.size else np.ones((len(y), 1))
    n, k = design.shape
    if n <= k:
        return np.zeros((k, k))
    bread = np.linalg.pinv(design.T @ (design * w[:, None]))
    residual = y - design @ point.coef
    meat = design.T @ (design * (w**2 * residual**2)[:, None])
    return np.asarray(bread @ meat @ bread * (n / (n - k)))


def _analyse(
    design: StatDesign,
    table: pd.DataFrame,
    powers: np.ndarray,
    own: Sequence[tuple[str, float, dict[str, int] | str]] = (),
    in_play: Sequence[int] = (),
) -> StatValues:
    """The straight fit, the rates in cost units beside the formula, the per-attribute curves, and the implied cost of
    each of the set's own cards (`own`: name, cost now, its attributes or why the design cannot describe it;
    `in_play`: the cost levels measured); `powers` holds each replicate's power per card (one row per replicate)."""
    names = [a.name for a in design.attributes if table[a.name].nunique() > 1]
    x = table[names].to_numpy(float)
    se = table["fit_se"].to_numpy(float)
    point = weighted_fit(x, table["power"].to_numpy(float), se, names)
    y = table["power"].to_numpy(float)
    fit = _replicated([weighted_fit(x, row, se, names) for row in powers], point, _design_cov(x, y, se, point))
    formula_rate = {name: _formula_rate(design, table, name) for name in names if design.prices(name)}
    cost_index = fit.names.index(design.cost.name) if design.cost.name in fit.names else None
    # A step of cost is a unit when it measurably moves score: down for a price paid (souls), up for a cost that is
    # the card's own strength (Blades' stars).
    priced = cost_index is not None and (
        fit.interval(cost_index)[0] > 0 if design.cost_is_stat else fit.interval(cost_index)[1] < 0
    )
    t = t_quantile(fit.df)
    rows = []
    for i, name in enumerate(fit.names[1:], start=1):
        attribute = next(a for a in design.attributes if a.name == name)
        low, high = fit.interval(i)
        in_cost = in_low = in_high = None
        if priced and name != design.cost.name:
            assert cost_index is not None
            b, c = float(fit.coef[i]), float(fit.coef[cost_index])
            value = b / c if design.cost_is_stat else -b / c
            # Delta method for -b / c (and b / c: the same variance).
            var = fit.cov[i, i] / c**2 + b**2 * fit.cov[cost_index, cost_index] / c**4
            var -= 2 * b * fit.cov[i, cost_index] / c**3
            half = t * math.sqrt(max(float(var), 0.0))
            in_cost, in_low, in_high = value, value - half, value + half
        formula = formula_rate.get(name)
        span = attribute.high - attribute.low
        rows.append(
            {
                "attribute": name,
                "kind": attribute.kind,
                "step": design.step(name),
                "rate": float(fit.coef[i]),
                "low": low,
                "high": high,
                "se": math.sqrt(max(float(fit.cov[i, i]), 0.0)),
                "in_cost": in_cost,
                "in_cost_low": in_low,
                "in_cost_high": in_high,
                "formula": None if formula is None or not math.isfinite(formula) else float(formula),
                "mispriced": None if in_cost is None or formula is None else float((in_cost - formula) * span),
            }
        )
    rates = pd.DataFrame(rows)
    curves = pd.concat([_curve(table, powers, se, name, names, fit) for name in names], ignore_index=True)
    implied = _implied_costs(design, fit, table, own, in_play, priced)
    return StatValues(rates, curves, pd.DataFrame(), table.copy(), point.r2, point.scale, point.df, [], {}, implied)


def _implied_costs(
    design: StatDesign,
    fit: Fit,
    table: pd.DataFrame,
    own: Sequence[tuple[str, float, dict[str, int] | str]],
    in_play: Sequence[int],
    priced: bool,
) -> pd.DataFrame:
    """Each own card's cost at the measured rates: the design's mean cost plus, for each attribute, its distance from
    the design's mean times its worth in cost units (-rate / cost's rate), with a delta-method 95% interval; none,
    with the reason, where the card is not a design card, a stat lies beyond the design's range, the cost's rate is
    not measurably below 0, or the result lies beyond the costs measured in play. Where the cost is a stat
    (`StatDesign.cost_is_stat`): the card's own cost plus each other attribute's distance above the design's lowest
    value of it times its worth in cost units (rate / cost's rate, the cost's rate measurably above 0), and no
    figure for a card whose own cost lies beyond the costs measured in play."""
    columns = ["card", "cost", "formula_cost", "implied", "implied_low", "implied_high", "reason"]
    if not own:
        return pd.DataFrame(columns=columns)
    unit, units = design.cost_unit, design.units
    names = fit.names[1:]
    cost_name = design.cost.name
    rows = []
    for card, cost, attributes in own:
        row: dict[str, Any] = {"card": card, "cost": cost, "formula_cost": None, "implied": None}
        row |= {"implied_low": None, "implied_high": None, "reason": None}
        if isinstance(attributes, str):
            row["reason"] = attributes
            rows.append(row)
            continue
        if design.cost_is_stat:
            # The cost is one of the card's stats: the price reads it, and so does the fit.
            attributes = {**attributes, cost_name: int(cost)}
        row["formula_cost"] = _finite(design.formula_cost(attributes))
        beyond = [
            f"{a.name} {attributes[a.name]} is beyond the design's {a.low}-{a.high}"
            for a in (*design.stats, *design.keywords)
            if not a.low <= attributes.get(a.name, a.low) <= a.high
        ]
        if design.cost_is_stat and in_play and not min(in_play) <= cost <= max(in_play):
            beyond.append(f"{cost:g} {units} is beyond the {units} measured in play ({_ranges(list(in_play))})")
        if beyond:
            row["reason"] = "; ".join(beyond)
        elif not priced or cost_name not in names:
            row["reason"] = (
                f"a {unit} is not measurably worth score here, so no {unit} figure follows from the rates"
                if design.cost_is_stat
                else f"a {unit} of cost is not measurably worth score here, so no cost follows from the rates"
            )
        else:
            c = names.index(cost_name) + 1
            b_c = float(fit.coef[c])
            # A price paid (souls): the design's mean card costs the design's mean cost, and each attribute's
            # distance from its mean moves that by its worth (-rate / cost's rate). A cost that is a stat (stars):
            # the card costs its own stars plus the worth (rate / star's rate) of each other attribute above its
            # lowest, the card the price charges for its stars alone.
            sign = 1.0 if design.cost_is_stat else -1.0
            gradient = np.zeros(len(fit.coef))
            shift = 0.0
            for i, name in enumerate(names, start=1):
                if name == cost_name:
                    continue
                anchor = _low(design, name) if design.cost_is_stat else float(table[name].mean())
                distance = float(attributes.get(name, 0)) - anchor
                shift += float(fit.coef[i]) * distance
                gradient[i] = sign * distance / b_c
            gradient[c] = -sign * shift / b_c**2
            base = float(cost) if design.cost_is_stat else float(table[cost_name].mean())
            implied = base + sign * shift / b_c
            half = t_quantile(max(fit.df, 1)) * math.sqrt(max(float(gradient @ fit.cov @ gradient), 0.0))
            low, high = min(in_play), max(in_play)
            if not low - 0.5 <= implied <= high + 0.5:
                row["reason"] = (
                    f"the rates put it at about {implied:.1f} {units}, beyond the costs measured in play "
                    f"({_ranges(list(in_play))}): an extrapolation, not a measurement"
                )
            else:
                row |= {"implied": implied, "implied_low": implied - half, "implied_high": implied + half}
        rows.append(row)
    frame = pd.DataFrame(rows, columns=columns)
    # Object dtype keeps "no reason" / "no figure" as None (JSON null), not NaN.
    return frame.astype(object).where(frame.notna(), None)


def _low(design: StatDesign, name: str) -> float:
    """The lowest value the design gives an attribute."""
    return float(next(a for a in design.attributes if a.name == name).low)


def _formula_rate(design: StatDesign, table: pd.DataFrame, name: str) -> float:
    """What the document charges per step of an attribute, on average over the design: the formula's cost with the
    attribute at its highest value minus at its lowest, the other attributes as each design card has them, over the
    range (for a keyword: with it minus without it)."""
    attribute = next(a for a in design.attributes if a.name == name)
    points = table[[a.name for a in design.attributes]].to_dict(orient="records")
    changes = [
        design.formula_cost({**point, name: attribute.high}) - design.formula_cost({**point, name: attribute.low})
        for point in points
    ]
    return float(np.mean(changes)) / (attribute.high - attribute.low)


def _curve(
    table: pd.DataFrame, powers: np.ndarray, se: np.ndarray, name: str, names: list[str], fit: Fit
) -> pd.DataFrame:
    """Mean power per level (or bin) of one attribute, the others held at their design means (their straight rates
    fitted jointly), with 95% intervals from the replicates' spread, beside the straight fit's value there."""
    levels = sorted(int(v) for v in table[name].unique())
    groups = _bins(levels)
    values = table[name].to_numpy(int)
    indicators = np.column_stack([np.isin(values, group).astype(float) for group in groups])
    others = [n for n in names if n != name]
    raw = table[others].to_numpy(float) if others else np.zeros((len(table), 0))
    x = np.column_stack([indicators, raw - raw.mean(axis=0)]) if others else indicators
    root = 1.0 / se
    solve = np.linalg.pinv(x * root[:, None]) * root[None, :]  # coefficients = solve @ powers
    per_run = powers @ solve.T
    mean = per_run.mean(axis=0)
    spread = per_run.std(axis=0, ddof=1) / math.sqrt(len(powers))
    t = t_quantile(len(powers) - 1)
    means = table[names].to_numpy(float).mean(axis=0)
    rows = []
    for g, group in enumerate(groups):
        mask = np.isin(values, group)
        mean_value = float(values[mask].mean()) if mask.any() else float(np.mean(group))
        at = dict(zip(names, means, strict=True)) | {name: mean_value}
        line = float(fit.coef[0] + sum(fit.coef[1 + names.index(n)] * at[n] for n in names))
        power, half = float(mean[g]), t * float(spread[g])
        rows.append(
            {
                "attribute": name,
                "level": str(group[0]) if len(group) == 1 else f"{group[0]}-{group[-1]}",
                "mean_value": mean_value,
                "cards": int(mask.sum()),
                "power": power,
                "low": power - half,
                "high": power + half,
                "line": line,
                "off_line": bool(line < power - half or line > power + half),
            }
        )
    return pd.DataFrame(rows)


def _statements(
    design: StatDesign,
    values: StatValues,
    cost_levels: pd.DataFrame,
    min_play_share: float = POWER_CURVE_DEFAULTS.min_play_share,
) -> list[str]:
    """The findings in words: the cost levels out of play, the price of a step of cost, each attribute's worth beside
    the formula, the most mispriced attributes, and where the game is not a straight line."""
    unit, units = design.cost_unit, design.units
    out: list[str] = []
    dead = [int(c) for c, ok in zip(cost_levels["cost"], cost_levels["in_play"], strict=True) if not ok]
    keyworded = design.strongest_with_keywords and bool(design.keywords)
    if dead:
        strongest = _strongest(design)
        fitted = {a.name for a in design.stats}
        # Name the stats when the design draws them as they are fitted; a design that places its cards from drawn
        # settings of its own (circles' points and colours) has no one set of stats to name for every cost.
        top = (
            "with every stat at the top of its range ("
            + ", ".join(f"{a.name} {strongest[a.name]}" for a in design.drawn if strongest[a.name])
            + ")"
            if all(a.name in fitted for a in design.drawn)
            else "as the design's strongest card (every drawn setting at the top of its range)"
        )
        out.append(
            f"Out of play: a card costing {_ranges(dead)} {units} was played in fewer than {min_play_share:.0%} of its "
            f"matches even {top}"
            + (" and every keyword" if keyworded else "")
            + ", so no stat within the ranges of the design is worth anything there; the design measured only "
            f"{_ranges([int(c) for c in cost_levels['cost'] if int(c) not in dead])}."
        )
    # Where only the strongest card is played, whether a card is played at all hangs on its stats.
    if "top_played" in cost_levels:
        hinged = [
            int(row.cost)
            for row in cost_levels.itertuples()
            if row.in_play and row.played is not None and not _isnan(row.played) and row.played < min_play_share
        ]
        if hinged:
            out.append(
                f"At {_ranges(hinged)} {units} the mid-stat card was played in fewer than {min_play_share:.0%} of "
                "its matches and the strongest card more often: there the "
                + ("stats and keywords" if keyworded else "stats")
                + " of a card decide whether it is played at all, so design cards of "
                + ("low stats or without those keywords" if keyworded else "low stats")
                + " at that cost are rarely played and the straight rates mix both effects (see the curves)."
            )
    rates = values.rates.set_index("attribute")
    if design.cost.name in rates.index and design.cost_is_stat:
        cost = rates.loc[design.cost.name]
        if cost["low"] > 0:
            out.append(
                f"One {unit} wins {cost['rate']:.3f} of score in play (95% {cost['low']:.3f} to {cost['high']:.3f}), "
                f"over the {units} in play: the unit the other rates are also given in."
            )
        else:
            out.append(
                f"A {unit} does not measurably win score over the {units} in play ({cost['rate']:+.3f} per {unit}, "
                f"95% {cost['low']:+.3f} to {cost['high']:+.3f}), so the rates stay in score, not {units}: what "
                f"{design.formula_name} charges by, the {unit}, wins nothing measurable in play here."
            )
            # With no unit to price them in, what the price charges nothing for and measurably wins is said in score:
            # the mispricing a designer can act on (the price charges for what wins nothing, and not for what wins).
            free = [
                (str(name), row)
                for name, row in rates.iterrows()
                if name != design.cost.name
                and design.prices(str(name))
                and row["formula"] is not None
                and not _isnan(row["formula"])
                and row["formula"] == 0
                and row["low"] > 0
            ]
            if free:
                span = {a.name: a.high - a.low for a in design.attributes}
                free.sort(key=lambda item: -item[1]["rate"] * span[item[0]])
                parts = [
                    f"{name} ({row['rate'] * span[name]:+.3f} of score over its range, 95% "
                    f"{row['low'] * span[name]:+.3f} to {row['high'] * span[name]:+.3f})"
                    for name, row in free
                ]
                out.append(
                    f"Priced at nothing, worth score in play: {design.formula_name} charges 0 {units} for "
                    + ", ".join(parts)
                    + f", most first; in score, since a {unit} is not measurably worth score here."
                )
    elif design.cost.name in rates.index:
        cost = rates.loc[design.cost.name]
        if cost["high"] < 0:
            out.append(
                f"One {unit} of cost costs {-cost['rate']:.3f} of score in play (95% {-cost['high']:.3f} to "
                f"{-cost['low']:.3f}), over the costs in play."
            )
        else:
            out.append(
                f"A {unit} of cost does not measurably cost score over the costs in play ({cost['rate']:+.3f} per "
                f"{unit}, 95% {cost['low']:+.3f} to {cost['high']:+.3f}), so the rates stay in score, not {units}."
            )
            # What the formula charges for is then bought for nothing: the formula's price is not paid in play.
            for name, row in rates.iterrows():
                formula = row["formula"]
                if (
                    name == design.cost.name
                    or not design.prices(str(name))
                    or formula is None
                    or _isnan(formula)
                    or formula <= 0
                    or row["low"] <= 0
                ):
                    continue
                out.append(
                    f"Not paid in play: {design.formula_name} charges {formula:+.3f} {units} per {row['step']}, but a "
                    f"{unit} of cost does not measurably cost score, so {name} wins {row['rate']:+.4f} of score a "
                    f"step (95% {row['low']:+.4f} to {row['high']:+.4f}) at no measurable price."
                )
    else:
        out.append(f"Only one cost level is in play, so the worth of a {unit} cannot be measured: rates are in score.")
    for name, row in rates.iterrows():
        if name == design.cost.name:
            continue
        measured = f"{row['rate']:+.4f} score per {row['step']} (95% {row['low']:+.4f} to {row['high']:+.4f})"
        if row["in_cost"] is not None and not _isnan(row["in_cost"]):
            measured += (
                f" = {row['in_cost']:+.3f} {units} in play (95% {row['in_cost_low']:+.3f} to "
                f"{row['in_cost_high']:+.3f})"
            )
        formula = row["formula"]
        if not design.prices(str(name)):
            charged = f"; {design.formula_name} does not price it"
        elif formula is None or _isnan(formula):
            charged = ""
        else:
            charged = f"; {design.formula_name} charges {formula:+.3f} {units} per step"
        out.append(f"{name}: {measured}{charged}.")
    mispriced = values.rates.dropna(subset=["mispriced"])
    if len(mispriced):
        worst = mispriced.reindex(mispriced["mispriced"].abs().sort_values(ascending=False).index).head(3)
        # A charge inside the 95% interval of the worth in play is a point estimate's gap, not a measured one.
        parts = [
            f"{r.attribute} ({'under' if r.mispriced > 0 else 'over'}-charged by {abs(r.mispriced):.2f} {units} "
            "over its range"
            + (
                ", though the charge lies within the 95% interval of its worth: not measurably mispriced)"
                if r.in_cost_low <= r.formula <= r.in_cost_high
                else ")"
            )
            for r in worst.itertuples()
        ]
        out.append(f"Most mispriced by {design.formula_name}: " + ", ".join(parts) + ".")
    bent = sorted(set(values.curves.loc[values.curves["off_line"], "attribute"]))
    if bent or (math.isfinite(values.scale) and values.scale > 1.5):
        out.append(
            f"Not a straight line: residual scale {values.scale:.2f} (1 = noise only)"
            + (f"; the curves of {', '.join(bent)} leave the line at some levels (see curves)." if bent else ".")
        )
    implied = values.implied
    if len(implied):
        given = implied[implied["implied"].notna()]
        dearer = given[given["cost"] > given["implied_high"]]
        cheaper = given[given["cost"] < given["implied_low"]]
        said = (
            f"At the measured rates, {len(given)} of the {len(implied)} {design.kind}s of the set have an implied "
            f"cost (the others: see why in the table)"
        )
        if len(given):
            said += (
                f"; {len(dearer)} cost more than their stats are worth in play and {len(cheaper)} less (the cost "
                "outside the 95% interval of the implied cost)"
            )
            if len(dearer):
                worst = dearer.assign(gap=dearer["cost"] - dearer["implied"]).sort_values("gap").iloc[-1]
                said += (
                    f", most of all {worst['card']} ({worst['cost']:g} {units}, implied {worst['implied']:.2f} "
                    f"[{worst['implied_low']:.2f}, {worst['implied_high']:.2f}])"
                )
        out.append(said + ".")
    rare = int((values.cards["flag"] == RARELY_PLAYED).sum())
    if rare:
        out.append(
            f"{rare} of {len(values.cards)} design cards were rarely played; they stay in the fit (their power is "
            "what the stats are worth at a cost seldom paid)."
        )
    return out


def _ranges(values: list[int]) -> str:
    """[0, 1, 2, 5] -> '0-2, 5'."""
    if not values:
        return "none"
    parts = []
    start = prev = values[0]
    for v in [*values[1:], None]:
        if v is not None and v == prev + 1:
            prev = v
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if v is not None:
            start = prev = v
    return ", ".join(parts)
