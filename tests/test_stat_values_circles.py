"""What each stat is worth in play for circles (workbench.stat_values, `DESIGNS["circles"]`): the design writes only
legal characters, each ability's circles in its own colour, reads the set's own characters with those abilities, and
a small run on the bundled set gives rates with intervals beside the document's price in circles.

A character is built from points: "1 Resource (any color): 3 points to distribute, between Health and Attack", up to
3 resources; then abilities, each filling the circles "the column on the left" gives "(of that color)", five circles
in all. So a card of a given cost holds 1-3 base resources and its abilities fill the rest: the design draws the cost,
the keywords (Fireball, Defender, Fast, Sleep), the colours, the points spent and their split, and places them
(`_circles_place`) so that every card passes the card checks.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import pytest

from workbench.analysis import power_curve
from workbench.cards import CardSet, Deck, WorkbenchInputError
from workbench.decklists import parse_decklist, set_decks
from workbench.judging import VerdictRule
from workbench.loading import load_cardset
from workbench.paths import decks_folder_beside, find_bundled_set
from workbench.rulesets.circles import engine
from workbench.rulesets.circles.abilities import ABILITY_INDEX, COLOURS, Colour, find_ability
from workbench.rulesets.circles.cards import Character
from workbench.rulesets.circles.costs import BASE_RESOURCE_CHOICES, POINTS_PER_BASE_RESOURCE, circle_budget
from workbench.run_settings import RunSettings
from workbench.simulate import compile_for
from workbench.stat_values import CIRCLES_COLOURS, CIRCLES_KEYWORDS, DESIGNS, _template, stat_values, with_cards
from workbench.validate import validate

DESIGN = DESIGNS["circles"]

MakeCardSet = Callable[..., CardSet]
"""The `make_cardset` fixture's type (tests/conftest.py): a card set from a ruleset and rows."""


def _circles() -> tuple[CardSet, list[Deck]]:
    bundled = find_bundled_set("circles/circle_starter")
    assert bundled is not None
    cardset = load_cardset(bundled.path)
    return cardset, set_decks(cardset, decks_folder_beside(bundled.path)).decks


def _drawn_corners(cost: int) -> list[dict[str, int]]:
    """At one cost: every combination of the keywords drawn, with each drawn attribute at both ends of its range."""
    ends = [(a.name, (a.low, a.high)) for a in DESIGN.drawn]
    points = []
    for flags in itertools.product((0, 1), repeat=len(CIRCLES_KEYWORDS)):
        for values in itertools.product(*(pair for _, pair in ends)):
            drawn = dict(zip([name for name, _ in ends], values, strict=True))
            points.append(drawn | dict(zip(CIRCLES_KEYWORDS, flags, strict=True)) | {"circles": cost})
    return points


def test_the_design_prices_abilities_at_their_circles_and_colour_at_nothing() -> None:
    assert [a.name for a in DESIGN.attributes] == ["Attack", "Health", CIRCLES_COLOURS, "circles", *CIRCLES_KEYWORDS]
    assert set(DESIGN.derived) == {"Attack", "Health"} and DESIGN.priced is None
    for name in CIRCLES_KEYWORDS:
        ability = find_ability(name)
        assert ability is not None and ability.circles == 1  # room for them at the costs in play (1-3, 1-4)
        assert ability.colour in DESIGN.step(name) and "circle" in DESIGN.step(name)
    abilities = [find_ability(name) for name in CIRCLES_KEYWORDS]
    assert {ability.colour for ability in abilities if ability is not None} == set(COLOURS)
    assert "Spend 1 Red to use" in DESIGN.step("Fireball") and "automatic" in DESIGN.step("Fast")
    # The fewest base resources that pay for the points (an upper bound), plus each ability's circles; a colour and
    # an activation cost (spent in play) add nothing.
    point = {"Attack": 3, "Health": 3, CIRCLES_COLOURS: 1}
    assert DESIGN.formula_cost(point) == 2
    assert DESIGN.formula_cost(point | {"Attack": 4, CIRCLES_COLOURS: 3}) == 3
    assert DESIGN.formula_cost(point | {"Fast": 1, "Sleep": 1}) == 4
    assert "a colour costs nothing" in DESIGN.formula and "not priced in circles" in DESIGN.formula


@pytest.mark.parametrize("template", ["Cinder Scout", "Reef Guardian"])
def test_the_design_writes_legal_characters_at_every_level_with_every_keyword_combination(template: str) -> None:
    """Every cost 1-5 with every combination of keywords drawn and every drawn attribute at both ends: a character
    the card checks pass with no error (unspent points are the document's own warning), each ability's circles in its
    own colour, 1-3 base resources taking the template's colour first, Attack + Health within 3 a base resource; the
    engine plays it whole, at its cost on the power curve's axis, and `attributes_of` reads back the point."""
    cardset, _ = _circles()
    template_card = cardset.find(template)
    assert template_card is not None
    main: Colour = "red" if template == "Cinder Scout" else "blue"
    drawn = [point for cost in DESIGN.cost.levels for point in _drawn_corners(cost)]
    points = {f"design {i:04d}": DESIGN.complete(point, template_card.card) for i, point in enumerate(drawn)}
    fields = {name: DESIGN.card_fields(point, template_card.card) for name, point in points.items()}
    extended = with_cards(cardset, template, fields)
    findings = [f for f in validate(extended).findings if f.card in points]
    assert {(f.rule, f.severity) for f in findings} == {("circles.unspent_points", "warning")}
    _, compiled, _ = compile_for(extended)
    assert not [f for f in compiled.findings if f.card in points]
    assert DESIGN.attributes_of is not None
    kept_when_fitting = 0
    for (name, point), raw in zip(points.items(), drawn, strict=True):
        entry = extended.find(name)
        assert entry is not None and isinstance(entry.card, Character)
        card = entry.card
        budget = circle_budget(card)
        cost = point["circles"]
        assert budget.total == cost == float(compiled.cost[compiled.card_id(name)])
        assert budget.base in BASE_RESOURCE_CHOICES and not budget.uncovered
        assert card.attack + card.health <= POINTS_PER_BASE_RESOURCE * budget.base
        assert min(card.attack, card.health) >= 1
        abilities = [n for n in CIRCLES_KEYWORDS if point[n]]
        assert list(card.abilities) == abilities
        # The colours: as near the drawn target as base resources of any colours can bring them, the template's
        # colour among them on a card without abilities.
        held = {c for c in COLOURS if budget.ability_circles[c]}
        reachable = {
            len(held | set(chosen))
            for k in range(1, min(budget.base, 3) + 1)
            for chosen in itertools.combinations(COLOURS, k)
        }
        assert point[CIRCLES_COLOURS] == sum(1 for c in COLOURS if budget.circles[c])
        assert abs(point[CIRCLES_COLOURS] - raw[CIRCLES_COLOURS]) == min(
            abs(n - raw[CIRCLES_COLOURS]) for n in reachable
        )
        if not abilities:
            assert budget.circles[main] > 0
        # A drawn keyword is dropped only where it does not fit (the drawn room, one base resource kept); one not
        # drawn is added only where the cost needs it (4-5 circles: at most 3 base resources).
        drawn_keywords = [n for n in CIRCLES_KEYWORDS if raw[n]]
        room = min(cost - 1, max(cost - 3, raw["ability circles"]))
        if len(drawn_keywords) <= room:
            assert set(drawn_keywords) <= set(abilities)
            kept_when_fitting += 1
        if cost <= 3:
            assert set(abilities) <= set(drawn_keywords)
        read = DESIGN.attributes_of(card)
        assert read == {k: point[k] for k in ("Attack", "Health", CIRCLES_COLOURS, *CIRCLES_KEYWORDS)}, name
        assert DESIGN.formula_cost(read) == math.ceil((card.attack + card.health) / 3) + len(abilities)
    assert kept_when_fitting > len(points) / 3
    # The probe's mid-stat card holds no ability up to 3 circles, and a card of 4 or 5 circles at least 1 or 2.
    middle = {a.name: (a.low + a.high) // 2 for a in DESIGN.drawn} | dict.fromkeys(CIRCLES_KEYWORDS, 0)
    for cost in DESIGN.cost.levels:
        placed = DESIGN.complete(middle | {"circles": cost}, template_card.card)
        assert sum(placed[n] for n in CIRCLES_KEYWORDS) == max(0, cost - 3)


def test_attributes_of_reads_the_sets_characters_with_those_abilities_and_says_why_for_others(
    make_cardset: MakeCardSet,
) -> None:
    cardset, _ = _circles()
    assert DESIGN.attributes_of is not None
    read = {entry.card.name: DESIGN.attributes_of(entry.card) for entry in cardset.entries}
    none = dict.fromkeys(CIRCLES_KEYWORDS, 0)
    assert read["Cinder Scout"] == {"Attack": 4, "Health": 2, CIRCLES_COLOURS: 1, **none}
    assert read["Fire Adept"] == {"Attack": 1, "Health": 2, CIRCLES_COLOURS: 1, **none, "Fireball": 1}
    assert read["Ember Warden"] == {"Attack": 3, "Health": 3, CIRCLES_COLOURS: 2, **none, "Defender": 1}
    assert read["Storm Rider"] == {"Attack": 3, "Health": 3, CIRCLES_COLOURS: 2, **none, "Fast": 1}
    assert read["Dream Weaver"] == {"Attack": 1, "Health": 2, CIRCLES_COLOURS: 1, **none, "Sleep": 1}
    assert read["Verdant Champion"] == {
        "Attack": 5,
        "Health": 4,
        CIRCLES_COLOURS: 3,
        **none,
        "Fast": 1,
        "Defender": 1,
    }
    readable = sorted(name for name, value in read.items() if isinstance(value, dict))
    assert readable == sorted(
        [
            *("Ember Pup", "Cinder Scout", "Magma Brute", "Fire Adept", "Tide Sprite", "Reef Guardian"),
            *("Harbor Colossus", "Shieldbearer", "Thorn Sprinter", "Dream Weaver", "Moss Elk", "Sapling"),
            *("Ember Warden", "Storm Rider", "Verdant Champion"),
        ]
    )
    assert read["Mirror Moth"] == "it has Reflect, which the design does not vary"
    assert read["Ashen Phoenix"] == "it has Reflect, Heal 1, which the design does not vary"
    assert read["Tidal Duelist"] == "it has Armor Piercing 1, Armor 1, which the design does not vary"
    assert read["Ruby Shard"] == "not a character"
    # The document's price for each readable card is its cost: the set is built on the formula.
    for entry in cardset.entries:
        value = read[entry.card.name]
        if isinstance(value, dict):
            assert isinstance(entry.card, Character)
            assert DESIGN.formula_cost(value) == circle_budget(entry.card).total, entry.card.name
    odd = make_cardset(
        cardset.ruleset,
        [
            {"name": "Twice", "kind": "character", "green": 3, "attack": 2, "health": 1, "abilities": "Fast; fast"},
            {"name": "Typo", "kind": "character", "red": 2, "attack": 2, "health": 1, "abilities": "Firebal"},
        ],
    )
    twice, typo = (DESIGN.attributes_of(e.card) for e in odd.entries)
    assert twice == "it has Fast more than once, which the design does not vary"
    assert typo == "it has Firebal, which is not on the document's list of abilities"


def test_a_design_card_written_from_a_set_card_plays_every_match_as_a_copy_of_it_and_uses_its_ability() -> None:
    """A design point read from Storm Rider (Fast), Ember Warden (Defender), Fire Adept (Fireball) or Dream Weaver
    (Sleep) is written as that very card, colours included, so it plays every match of a power curve as a copy of it;
    the same card with the ability struck out plays otherwise; and the activated abilities are used in play."""
    cardset, decks = _circles()
    template = _template(cardset, decks, DESIGN, RunSettings(workers=1))
    assert template == "Cinder Scout"
    template_card = cardset.find(template)
    assert template_card is not None and DESIGN.attributes_of is not None
    cards: dict[str, dict[str, object]] = {}
    for real, ability in [
        ("Storm Rider", "Fast"),
        ("Ember Warden", "Defender"),
        ("Fire Adept", "Fireball"),
        ("Dream Weaver", "Sleep"),
    ]:
        entry = cardset.find(real)
        assert entry is not None and isinstance(entry.card, Character)
        read = DESIGN.attributes_of(entry.card)
        assert isinstance(read, dict) and read[ability] == 1
        # The point as read, at the card's cost: placed (its colours) and written, its Attack and Health kept.
        point = read | {"circles": circle_budget(entry.card).total}
        cards[f"copy of {real}"] = entry.card.model_dump(exclude={"name"})
        cards[f"design {real}"] = DESIGN.card_fields(point, template_card.card)
        # The same card with the ability struck out: the same circles, now all base resources.
        written = cards[f"design {real}"]
        cards[f"design {real} without {ability}"] = written | {"abilities": []}
        for colour in COLOURS:
            assert cards[f"design {real}"][colour] == getattr(entry.card, colour)
    extended = with_cards(cardset, template, cards)
    curve = power_curve(
        extended,
        decks,
        800,
        RunSettings(seed=0, workers=1),
        only=list(cards),
        rule=VerdictRule(resamples=0, follow_up=1.0),
        check_suggestions=False,
    )
    for real in ("Storm Rider", "Ember Warden", "Fire Adept", "Dream Weaver"):
        assert curve.fingerprints[f"design {real}"] == curve.fingerprints[f"copy of {real}"], real
    # Fast, Fireball and Sleep change matches. (Defender, +1 Health to the cards beside it, changed none: Ember
    # Warden comes into play in 8% of its matches, on turn 4.4 on average, and its neighbours' extra Health turned
    # no match in 4,000; docs/simulation.md.)
    for real, ability in [("Storm Rider", "Fast"), ("Fire Adept", "Fireball"), ("Dream Weaver", "Sleep")]:
        without = curve.fingerprints[f"design {real} without {ability}"]
        assert without != curve.fingerprints[f"design {real}"], real
    # The activated abilities are used: in traced matches of the reference deck with the design card in the filler's
    # place, Fireball and Sleep are spent on the enemy's cards.
    _, compiled, _ = compile_for(extended)
    reference = (decks_folder_beside(cardset.path) / "balanced_tricolour.txt").read_text(encoding="utf-8")
    for real, ability in [("Fire Adept", "Fireball"), ("Dream Weaver", "Sleep")]:
        name = f"design {real}"
        deck = parse_decklist(reference.replace("3 Cinder Scout", f"3 {name}"), extended, name="variant")
        card = compiled.card_id(name)
        used = 0
        for opponent, seed in itertools.product(decks, range(50)):
            _, _, events = engine.play_traced(
                compiled, compiled.deck_array(deck), compiled.deck_array(opponent), 1000 + seed, seed % 2, 0, 0
            )
            mine = (events[:, 1] == 0) & (events[:, 2] == engine.EV_ABILITY) & (events[:, 3] == card)
            used += bool((mine & (events[:, 5] == ABILITY_INDEX[ability])).any())
        assert used > 0, ability


def test_a_small_run_on_the_bundled_set_gives_rates_with_intervals_beside_the_price_in_circles() -> None:
    cardset, decks = _circles()
    values = stat_values(cardset, decks, 24, 160, RunSettings(seed=2, workers=1), replicates=2)
    again = stat_values(cardset, decks, 24, 160, RunSettings(seed=2, workers=1), replicates=2)
    assert values.to_json() == again.to_json()
    assert values.meta["base_card"] == "Cinder Scout" and values.meta["cost_unit"] == "circle"
    assert values.meta["attributes"]["points spent"]["kind"] == "drawn"
    assert 5 not in values.meta["cost_levels_in_play"] and {1, 2} <= set(values.meta["cost_levels_in_play"])
    rates = values.rates.set_index("attribute")
    assert list(rates.index) == ["Attack", "Health", CIRCLES_COLOURS, "circles", *CIRCLES_KEYWORDS]
    for name, row in rates.iterrows():
        assert row["low"] < row["rate"] < row["high"], name
        assert math.isfinite(row["se"]) and row["se"] > 0, name
    # What the document charges: a third of a circle a point on average (rounded up), nothing for a colour, and
    # each ability its one circle exactly.
    assert 0.25 < rates.loc["Attack", "formula"] < 0.45 and 0.25 < rates.loc["Health", "formula"] < 0.45
    assert rates.loc[CIRCLES_COLOURS, "formula"] == 0
    for name in CIRCLES_KEYWORDS:
        assert rates.loc[name, "formula"] == pytest.approx(1.0), name
        said = next(s for s in values.statements if s.startswith(f"{name}: "))
        assert said.endswith("the formula charges +1.000 circles per step.") and "circle" in said
    # The design's cards are legal and the formula's cost of each is its cost in circles when it spends its points.
    cards = values.cards
    template = cardset.find("Cinder Scout")
    assert template is not None
    points = cards.drop(columns=["card"]).to_dict(orient="records")
    fields = {f"check {i}": DESIGN.card_fields(p, template.card) for i, p in enumerate(points)}
    extended = with_cards(cardset, "Cinder Scout", fields)
    assert not [f for f in validate(extended).findings if f.card in fields and f.severity == "error"]
    assert (cards["formula_cost"] <= cards["circles"]).all()
    assert sum(int(cards[name].sum()) for name in CIRCLES_KEYWORDS) > 0
    # Every character of the set has an implied cost or the reason it has none.
    implied = values.implied.set_index("card")
    assert list(implied.index) == [e.card.name for e in cardset.entries if e.card.kind == "character"]
    for card, row in implied.iterrows():
        assert row["implied"] is not None or (isinstance(row["reason"], str) and row["reason"]), card
    assert "Reflect" in implied.loc["Mirror Moth", "reason"]
    text = values.to_text()
    assert "ability Sleep (having it: 1 green circle, Spend 1 Green to use)" in text


def test_rule_options_under_which_the_design_cards_are_errors_are_refused_before_any_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Under points_must_be_spent=true an unspent point is an error (circles.unspent_points), and the design leaves
    # points unspent on purpose: the run is refused with the rule named, not measured on cards the rules forbid.
    import workbench.stat_values as module

    def no_match(*args: object, **kwargs: object) -> None:
        raise AssertionError("a match was played")

    monkeypatch.setattr(module, "power_curve", no_match)
    cardset, decks = _circles()
    with pytest.raises(WorkbenchInputError) as refused:
        stat_values(cardset, decks, 24, 160, RunSettings(seed=2, workers=1, options={"points_must_be_spent": True}))
    words = str(refused.value)
    assert "points_must_be_spent=True" in words and "circles.unspent_points" in words
    assert "the design writes cards these rules forbid" in words
