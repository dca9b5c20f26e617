"""What each stat is worth in play for Millennium Blades (workbench.stat_values, `DESIGNS["blades"]`): the design writes
only legal singles in the set's own elements and types with effects the tournament engine plays, reads the set's own
singles back, plays them exactly as the real cards, and a small run on the bundled set gives rates with intervals
beside the document's only price, the star rating.

The star rating is both the card's price ("take Millennium Dollars equal to that card's Star Rating" on the
aftermarket) and its main stat (a clash adds the Top card's stars), so the design's cost is one of its own stats
(`StatDesign.cost_is_stat`): a star is expected to win score, and a symbol or effect's worth in stars is its rate
over the star's, beside the 0 stars the price charges for it.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pandas as pd
import pytest

from workbench.analysis import power_curve
from workbench.cards import CardSet, Deck
from workbench.decklists import set_decks
from workbench.judging import VerdictRule
from workbench.loading import load_cardset
from workbench.paths import decks_folder_beside, find_bundled_set
from workbench.rulesets.blades.effects import parse_effects
from workbench.rulesets.blades.engine import MAX_CLAUSES, T_STARS
from workbench.run_settings import RunSettings
from workbench.simulate import compile_for
from workbench.stat_values import (
    BLADES_COST,
    BLADES_KEYWORDS,
    DESIGNS,
    Attribute,
    StatDesign,
    _analyse,
    _statements,
    _template,
    stat_values,
    with_cards,
)
from workbench.validate import validate

BASE = DESIGNS["blades"]
ELEMENTS = ("Fire", "Air", "Light", "Earth", "Dark", "Water")
TYPES = ("Soldier", "Beast", "Citizen", "Machine", "Mage", "Fiend")
"""The bundled set's elements and types in order of first appearance (its pro set's own type `Pro` left out)."""


def _blades() -> tuple[CardSet, list[Deck]]:
    bundled = find_bundled_set("blades/blades_sample")
    assert bundled is not None
    cardset = load_cardset(bundled.path)
    return cardset, set_decks(cardset, decks_folder_beside(bundled.path)).decks


def _bound(cardset: CardSet) -> StatDesign:
    assert BASE.bind is not None
    return BASE.bind(cardset, cardset.ruleset.resolve_options(None))


def _point(stars: int, elements: int, types: int, offsets: tuple[int, int], *keywords: str) -> dict[str, int]:
    return {
        BLADES_COST: stars,
        "elements": elements,
        "types": types,
        "element offset": offsets[0],
        "type offset": offsets[1],
    } | {clause: int(clause in keywords) for clause in BLADES_KEYWORDS}


def test_the_design_varies_what_the_tournament_reads_and_prices_it_as_the_aftermarket_does() -> None:
    cardset, _ = _blades()
    design = _bound(cardset)
    assert design.kind == "single" and design.cost_is_stat and design.strongest_with_keywords
    assert [a.name for a in design.attributes] == ["elements", "types", BLADES_COST, *BLADES_KEYWORDS]
    # Stars 1-8 ("usually just 1-8"); elements and types 0-2; where the symbols start in the set's own lists.
    assert (design.cost.low, design.cost.high) == (1, 8)
    assert [(a.low, a.high) for a in design.stats] == [(0, 2), (0, 2)]
    assert [(a.name, a.low, a.high) for a in design.draws] == [("element offset", 0, 5), ("type offset", 0, 5)]
    # The price: a card costs its stars, whatever its symbols and effects.
    assert design.formula_cost(_point(5, 2, 2, (0, 0), *BLADES_KEYWORDS)) == 5
    assert design.formula_cost(_point(5, 0, 0, (0, 0))) == 5
    assert "prices symbols and effects at nothing" in design.formula
    assert all(design.prices(a.name) for a in design.attributes if a.name != BLADES_COST)
    assert design.step("elements") == "element (Fire, Air, Light, Earth, Dark or Water, each as often)"
    # Every keyword is a clause the tournament engine compiles (no problem), and a card holds all four whole.
    assert len(BLADES_KEYWORDS) <= MAX_CLAUSES
    for clause in BLADES_KEYWORDS:
        parsed = parse_effects(clause)
        assert not parsed.problems and len(parsed.clauses) == 1, clause
    # Unbound, the design has no vocabulary to write symbols from, and says so.
    with pytest.raises(ValueError, match="bind it to the set first"):
        BASE.card_fields(_point(1, 1, 1, (0, 0)), cardset.entries[0].card)


def test_the_design_writes_legal_singles_at_every_level() -> None:
    """Every star rating, every count of elements and types, offsets round the set's lists and every keyword alone,
    none and all: a single with no finding of its own under the ruleset's checks and the engine's compilation, its
    symbols the set's own, its set the filler's (a starter, so the store, whose cards are the clashes' reveals, is
    unchanged), read back by `attributes_of` as the point it was written from."""
    cardset, decks = _blades()
    design = _bound(cardset)
    template = _template(cardset, decks, design, RunSettings(workers=1))
    assert template == "Ember Lancer"  # the ashfall starter's filler (the set's first deck)
    filler = cardset.find(template)
    assert filler is not None
    subsets: list[tuple[str, ...]] = [(), tuple(BLADES_KEYWORDS), *[(k,) for k in BLADES_KEYWORDS]]
    points: dict[str, dict[str, int]] = {}
    for i, (stars, elements, types, keywords) in enumerate(
        itertools.product(design.cost.levels, range(3), range(3), subsets)
    ):
        points[f"design {i:03d}"] = _point(stars, elements, types, (i % 6, (i // 6) % 6), *keywords)
    extended = with_cards(cardset, template, {n: design.card_fields(p, filler.card) for n, p in points.items()})
    before = {(f.rule, f.card, f.message) for f in validate(cardset).findings}
    report = validate(extended)
    assert not [f for f in report.findings if f.card in points]
    assert not [f for f in report.findings if f.severity == "error"]
    # The one finding the design adds counts every alternative at once: each variant deck holds one of them.
    added = [f for f in report.findings if (f.rule, f.card, f.message) not in before]
    assert [(f.rule, f.severity, f.card) for f in added] == [("blades.set_size", "warning", "Cinder Recruit")]
    _, compiled, _ = compile_for(extended)
    assert not [f for f in compiled.findings if f.card in points]
    _, plain, _ = compile_for(cardset)
    assert list(compiled.extra["store"]) == list(plain.extra["store"])  # no design card in the store
    assert design.attributes_of is not None
    for name, point in points.items():
        entry = extended.find(name)
        assert entry is not None
        card: Any = entry.card
        assert (card.kind, card.set, card.set_kind, card.copies) == ("single", "Ashfall Starter", "starter", 1)
        assert card.stars == point[BLADES_COST] and compiled.cost[compiled.card_id(name)] == point[BLADES_COST]
        assert len(set(card.elements)) == point["elements"] and set(card.elements) <= set(ELEMENTS)
        assert len(set(card.types)) == point["types"] and set(card.types) <= set(TYPES)
        clauses = parse_effects(card.effects)
        assert not clauses.problems and len(clauses.clauses) == sum(point[k] for k in BLADES_KEYWORDS)
        read = design.attributes_of(card)
        assert read == {k: point[k] for k in ("elements", "types", *BLADES_KEYWORDS)}, name
    # The offsets spread the symbols over the set's lists, wrapping round.
    written = design.card_fields(_point(3, 2, 2, (5, 4)), filler.card)
    assert written["elements"] == ["Water", "Fire"] and written["types"] == ["Mage", "Fiend"]


def test_attributes_of_reads_the_sets_singles_and_says_why_for_others() -> None:
    cardset, _ = _blades()
    design = _bound(cardset)
    assert design.attributes_of is not None
    read = {entry.card.name: design.attributes_of(entry.card) for entry in cardset.entries}
    none = dict.fromkeys(BLADES_KEYWORDS, 0)
    assert read["Cinder Recruit"] == {"elements": 1, "types": 1, **none, "Play: gain 2 RP": 1}
    assert read["Ember Lancer"] == {"elements": 1, "types": 1, **none, "Play: clash: win gain 4 RP": 1}
    assert read["Night Market Chef"] == {"elements": 1, "types": 1, **none, "Score: gain 1 RP per card": 1}
    assert read["Blaze Marshal"] == read["Breakwater Captain"] == {"elements": 1, "types": 1, **none, "Top: star +2": 1}
    readable = sorted(name for name, value in read.items() if isinstance(value, dict))
    assert readable == ["Blaze Marshal", "Breakwater Captain", "Cinder Recruit", "Ember Lancer", "Night Market Chef"]
    assert read["Pocket Paladin"] == "it has `Play: gain 3 RP`, which the design does not vary"
    assert read["Brass Organist"] == "it has `Top: star +3`, which the design does not vary"
    assert read["Cathedral Engine"] == (
        "it has `Play: star +3`, `Score: gain 2 RP per machine`, which the design does not vary"
    )
    assert read["Sturdy Deck Box"] == read["Card Sleeves"] == read["Fire Ascendant"] == "not a single"
    # A clause out of the vocabulary, and a keyword held twice (the design varies having it, not how often).
    twice = cardset.entries[0].card.model_copy(update={"effects": "Play: gain 2 RP; Play: gain 2 RP"})
    assert design.attributes_of(twice) == "it has `Play: gain 2 RP`, which the design does not vary"
    unknown = cardset.entries[0].card.model_copy(update={"effects": "Play: summon a dragon"})
    assert design.attributes_of(unknown) == "its effects hold clauses the simulator does not play"


def test_synthetic_singles_play_exactly_as_the_real_cards_of_the_same_stars_symbols_and_effects() -> None:
    """The engine reads a single's kind, stars, elements, types and effects only: a design card written from a real
    single's attributes (its symbols at their place in the set's lists) compiles to the same rows and plays every
    match as a copy of the real card does; the one written from the filler's own (Ember Lancer) plays every match as
    the filler, power exactly 0."""
    cardset, decks = _blades()
    design = _bound(cardset)
    filler = cardset.find("Ember Lancer")
    assert filler is not None and design.attributes_of is not None
    real = ["Cinder Recruit", "Ember Lancer", "Night Market Chef", "Breakwater Captain"]
    cards: dict[str, dict[str, Any]] = {}
    for name in real:
        entry = cardset.find(name)
        assert entry is not None
        card: Any = entry.card
        read = design.attributes_of(card)
        assert isinstance(read, dict)
        offsets = (ELEMENTS.index(card.elements[0]), TYPES.index(card.types[0]))
        keywords = [k for k in BLADES_KEYWORDS if read[k]]
        point = _point(card.stars, read["elements"], read["types"], offsets, *keywords)
        cards[f"design as {name}"] = design.card_fields(point, filler.card)
        # A copy of the real card under another name (a deck holds one copy of any card).
        cards[f"copy of {name}"] = {k: v for k, v in card.model_dump().items() if k != "name"}
    extended = with_cards(cardset, "Ember Lancer", cards)
    _, compiled, _ = compile_for(extended)
    for name in real:
        a, b = compiled.card_id(f"design as {name}"), compiled.card_id(f"copy of {name}")
        assert (compiled.table[a] == compiled.table[b]).all(), name
        assert (compiled.extra["effects"][a] == compiled.extra["effects"][b]).all(), name
        assert compiled.table[a, T_STARS] == cardset.find(name).card.stars  # type: ignore[union-attr]
    curve = power_curve(
        extended,
        decks,
        60,
        RunSettings(seed=1, workers=1),
        only=list(cards),
        rule=VerdictRule(resamples=0, follow_up=1.0),
        check_suggestions=False,
    )
    measured = curve.cards.set_index("card")
    for name in real:
        assert curve.fingerprints[f"design as {name}"] == curve.fingerprints[f"copy of {name}"], name
        assert measured.loc[f"design as {name}", "power"] == measured.loc[f"copy of {name}", "power"]
        assert measured.loc[f"design as {name}", "played"] == measured.loc[f"copy of {name}", "played"]
    assert (
        measured.loc["design as Ember Lancer", "power"] == 0 and not measured.loc["design as Ember Lancer", "changed"]
    )
    assert measured.loc["design as Cinder Recruit", "played"] == 1.0  # a Play clause: greedy plays it first


def test_a_small_run_on_the_bundled_set_gives_rates_with_intervals_beside_the_star_price() -> None:
    cardset, decks = _blades()
    values = stat_values(cardset, decks, 16, 160, RunSettings(seed=2, workers=1), replicates=2)
    again = stat_values(cardset, decks, 16, 160, RunSettings(seed=2, workers=1), replicates=2)
    assert values.to_json() == again.to_json()
    meta = values.meta
    assert meta["ruleset"] == "blades" and meta["base_card"] == "Ember Lancer"
    assert meta["cost_unit"] == "star" and meta["formula_name"] == "the aftermarket price"
    assert meta["attributes"]["element offset"]["kind"] == "drawn" and meta["attributes"]["stars"]["kind"] == "cost"
    # The probe's cards are played: a card with the keywords at every rating; a vanilla one only below the
    # starter's highest vanilla single (Blaze Marshal, 4 stars): greedy plays the fewest stars first among singles
    # with no Play clause, and the starter holds 7 singles for 6 tableau slots.
    levels = values.cost_levels.set_index("cost")
    assert meta["cost_levels_in_play"] == list(range(1, 9))
    assert (levels["top_played"] == 1.0).all()
    assert (levels.loc[1:3, "played"] == 1.0).all() and (levels.loc[4:8, "played"] == 0.0).all()
    assert any(s.startswith("At 4-8 stars the mid-stat card was played in fewer") for s in values.statements)
    rates = values.rates.set_index("attribute")
    assert list(rates.index) == ["elements", "types", BLADES_COST, *BLADES_KEYWORDS]
    for name, row in rates.iterrows():
        assert row["low"] < row["rate"] < row["high"], name
        assert math.isfinite(row["se"]) and row["se"] > 0, name
    # The price charges a card's stars and nothing else: 0 stars for every symbol and effect, said in words.
    for name in ["elements", "types", *BLADES_KEYWORDS]:
        assert rates.loc[name, "formula"] == 0, name
        said = next(s for s in values.statements if s.startswith(f"{name}: "))
        assert said.endswith("the aftermarket price charges +0.000 stars per step."), said
    assert pd.isna(rates.loc[BLADES_COST, "formula"])
    assert "prices symbols and effects at nothing" in meta["formula"]
    assert values.cards["formula_cost"].tolist() == values.cards[BLADES_COST].astype(float).tolist()
    assert set(values.cards[BLADES_COST]) == set(range(1, 9))
    # `Score: gain 1 RP per card` wins score (up to six RP a tableau; two replicates give wide intervals).
    assert rates.loc["Score: gain 1 RP per card", "rate"] > 0
    # Every single of the set has an implied star figure or the reason it has none.
    implied = values.implied.set_index("card")
    assert list(implied.index) == [e.card.name for e in cardset.entries if e.card.kind == "single"]
    for card, row in implied.iterrows():
        assert row["implied"] is not None or (isinstance(row["reason"], str) and row["reason"]), card
    assert "`Next: star +1`" in implied.loc["Kindling Sprite", "reason"]
    text = values.to_text()
    assert "in stars (measured)" in text and "cost probe" in text and "strongest" in text


def _star_design() -> StatDesign:
    """A two-attribute design whose cost is its own stat, for exact figures."""
    return StatDesign(
        kind="single",
        stats=(Attribute("elements", 0, 2),),
        cost=Attribute("stars", 1, 8, "cost"),
        keywords=(Attribute("Play: gain 2 RP", 0, 1, "keyword"),),
        card_fields=lambda point, template: {},
        formula_cost=lambda point: float(point["stars"]),
        formula="a card costs its stars (a test price)",
        cost_unit="star",
        formula_name="the price",
        cost_is_stat=True,
    )


def _exact_table(star: float, element: float, play: float) -> tuple[pd.DataFrame, np.ndarray]:
    """Every combination of the design's levels twice, power exactly linear (two replicates a hair apart)."""
    rows = [
        {"card": f"c{i}", "elements": e, "stars": s, "Play: gain 2 RP": k}
        for i, (e, s, k) in enumerate(itertools.product(range(3), range(1, 9), range(2)))
    ]
    table = pd.DataFrame(rows)
    truth = star * table["stars"] + element * table["elements"] + play * table["Play: gain 2 RP"] - 0.1
    wobble = 1e-4 * np.sin(np.arange(len(table)))
    powers = np.array([truth + wobble, truth - wobble])
    table["formula_cost"] = table["stars"].astype(float)
    table["power"] = powers.mean(axis=0)
    table["se"] = table["fit_se"] = 0.01
    table["flag"] = ""
    return table, powers


def test_a_cost_that_is_a_stat_gives_each_rate_in_stars_beside_the_price_s_zero() -> None:
    """One star worth 0.01 of score and one element 0.003 make an element worth 0.3 stars in play, beside the 0 stars
    the price charges: under-charged by 0.6 stars over its range (0-2). A card's implied stars are its own stars plus
    the worth of what it has above the design's lowest (no element, no effect): 5 stars and 2 elements imply 5.6."""
    design = _star_design()
    table, powers = _exact_table(0.01, 0.003, 0.02)
    own: list[tuple[str, float, dict[str, int] | str]] = [
        ("Two elements", 5.0, {"elements": 2, "Play: gain 2 RP": 0}),
        ("Vanilla", 3.0, {"elements": 0, "Play: gain 2 RP": 0}),
        ("Both", 1.0, {"elements": 1, "Play: gain 2 RP": 1}),
        ("Nine", 9.0, {"elements": 1, "Play: gain 2 RP": 0}),
    ]
    values = _analyse(design, table, powers, own, list(range(1, 9)))
    rates = values.rates.set_index("attribute")
    assert rates.loc["stars", "rate"] == pytest.approx(0.01, abs=1e-6) and rates.loc["stars", "low"] > 0
    assert rates.loc["elements", "in_cost"] == pytest.approx(0.3, abs=1e-3)
    assert rates.loc["elements", "in_cost_low"] < 0.3 < rates.loc["elements", "in_cost_high"]
    assert rates.loc["Play: gain 2 RP", "in_cost"] == pytest.approx(2.0, abs=1e-2)
    assert rates.loc["elements", "formula"] == 0 and rates.loc["elements", "mispriced"] == pytest.approx(0.6, abs=1e-3)
    implied = values.implied.set_index("card")
    assert implied.loc["Two elements", "implied"] == pytest.approx(5.6, abs=1e-3)
    assert implied.loc["Two elements", "formula_cost"] == 5  # the price reads the card's own stars
    assert implied.loc["Vanilla", "implied"] == pytest.approx(3.0, abs=1e-6)
    assert implied.loc["Both", "implied"] == pytest.approx(3.3, abs=1e-2)
    assert (
        implied.loc["Nine", "implied"] is None
        and "9 stars is beyond the stars measured" in implied.loc["Nine", "reason"]
    )
    cost_levels = pd.DataFrame(
        {"cost": range(1, 9), "played": [1.0] * 8, "top_played": [1.0] * 8, "in_play": [True] * 8}
    )
    said = _statements(design, values, cost_levels)
    assert any(s.startswith("One star wins 0.010 of score in play") for s in said)
    assert any(s.startswith("elements: +0.0030 score per point of elements") and "= +0.300 stars" in s for s in said)
    worst = next(s for s in said if s.startswith("Most mispriced by the price: "))
    assert worst.startswith("Most mispriced by the price: Play: gain 2 RP (under-charged by 2.00 stars")


def test_a_star_that_wins_nothing_leaves_the_rates_in_score_and_names_what_the_price_gives_away() -> None:
    design = _star_design()
    table, powers = _exact_table(0.0, 0.003, 0.02)
    values = _analyse(design, table, powers, [("Card", 4.0, {"elements": 1, "Play: gain 2 RP": 1})], list(range(1, 9)))
    rates = values.rates.set_index("attribute")
    assert rates.loc["elements", "in_cost"] is None and rates.loc["elements", "mispriced"] is None
    assert "a star is not measurably worth score here" in values.implied["reason"].iloc[0]
    cost_levels = pd.DataFrame(
        {"cost": range(1, 9), "played": [1.0] * 8, "top_played": [1.0] * 8, "in_play": [True] * 8}
    )
    said = _statements(design, values, cost_levels)
    assert any(s.startswith("A star does not measurably win score over the stars in play") for s in said)
    free = next(s for s in said if s.startswith("Priced at nothing, worth score in play: "))
    assert free.index("Play: gain 2 RP (+0.020") < free.index("elements (+0.006")
    assert not any(s.startswith("Most mispriced") for s in said)
