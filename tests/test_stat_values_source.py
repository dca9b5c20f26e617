"""What each stat is worth in play for SOURCE (workbench.stat_values, `DESIGNS["source"]`): the design writes only
legal monsters, reads the set's own near-vanilla monsters, and a small run on the bundled set gives rates with
intervals beside the ST-total table read backwards.

A SOURCE monster's printed ST total is fixed by the occupied spaces it requires ("monsters requiring at least 0
occupied spaces have a 50 ST total ... 4 ... 150", `source.st_total`, an error), so the design draws the spaces, an
`st +N` of the monster's own, how far its highest ST stands above the middle two (peak) and how far its lowest falls
below them (dip), and two effects; it fits the ST total in play (the table's for the spaces plus 4N).
"""

from __future__ import annotations

import itertools
import math

import pytest

from workbench.cards import CardSet, Deck
from workbench.decklists import set_decks
from workbench.loading import load_cardset
from workbench.paths import decks_folder_beside, find_bundled_set
from workbench.rulesets.source.cards import Monster
from workbench.rulesets.source.costs import HIGHEST_REQUIREMENT, ST_TOTAL_BY_REQUIREMENT
from workbench.rulesets.source.effects import EffectClause, parse_effects
from workbench.run_settings import RunSettings
from workbench.simulate import compile_for
from workbench.stat_values import DESIGNS, SOURCE_COST, _template, stat_values, with_cards
from workbench.validate import validate

DESIGN = DESIGNS["source"]


def _source() -> tuple[CardSet, list[Deck]]:
    bundled = find_bundled_set("source/valley_of_deadlife")
    assert bundled is not None
    cardset = load_cardset(bundled.path)
    return cardset, set_decks(cardset, decks_folder_beside(bundled.path)).decks


def _corners() -> list[dict[str, int]]:
    """Every cost level with each drawn stat at both ends of its range and each pair of keywords."""
    ranges = [(a.name, (a.low, a.high)) for a in DESIGN.drawn]
    points = []
    for cost in DESIGN.cost.levels:
        for values in itertools.product(*(ends for _, ends in ranges)):
            for move, draw in [(0, 0), (1, 0), (0, 1), (1, 1)]:
                drawn = dict(zip([name for name, _ in ranges], values, strict=True))
                points.append(DESIGN.complete(drawn | {SOURCE_COST: cost, "move +1": move, "draw 1": draw}))
    return points


def test_the_design_spans_the_table_and_fits_the_st_total_in_play() -> None:
    assert DESIGN.cost.levels == sorted(ST_TOTAL_BY_REQUIREMENT) == list(range(HIGHEST_REQUIREMENT + 1))
    assert [a.name for a in DESIGN.attributes] == ["ST total", "ST peak", "ST dip", SOURCE_COST, "move +1", "draw 1"]
    assert [a.name for a in DESIGN.drawn] == ["ST peak", "ST dip", "ST bonus"]  # the total is derived, not drawn
    low = DESIGN.complete({SOURCE_COST: 0, "ST bonus": 0, "ST peak": 0, "ST dip": 0})
    high = DESIGN.complete({SOURCE_COST: 4, "ST bonus": 10, "ST peak": 0, "ST dip": 0})
    total = next(a for a in DESIGN.stats if a.name == "ST total")
    assert (low["ST total"], high["ST total"]) == (total.low, total.high) == (50, 190)
    # The table read backwards over the ST in play: 25 ST a space; the split is free; effects are not priced.
    assert DESIGN.formula_cost(low) == 0 and DESIGN.formula_cost(high) == pytest.approx(5.6)
    assert DESIGN.formula_cost(high | {"ST peak": 20, "ST dip": 10, "move +1": 1}) == pytest.approx(5.6)
    assert DESIGN.prices("ST total") and DESIGN.prices("ST peak") and not DESIGN.prices("move +1")


@pytest.mark.parametrize("reference", ["ember_rush", "tidal_fortress"])
def test_the_design_writes_legal_monsters_at_every_level(reference: str) -> None:
    """Every cost level, every drawn stat at both ends of its range and every pair of keywords: a monster the card
    checks pass without a finding, whose printed ST total is the table's for its spaces, whose effects the engine
    plays whole, and which `attributes_of` reads back as the design point it was written from."""
    cardset, decks = _source()
    ordered = sorted(decks, key=lambda deck: deck.name != reference)
    template = _template(cardset, ordered, DESIGN, RunSettings(workers=1))
    assert template == {"ember_rush": "Cinder Whelp", "tidal_fortress": "Brinekin Scout"}[reference]
    template_card = cardset.find(template)
    assert template_card is not None
    points = {f"design {i:03d}": point for i, point in enumerate(_corners())}
    extended = with_cards(cardset, template, {n: DESIGN.card_fields(p, template_card.card) for n, p in points.items()})
    report = validate(extended)
    assert not [f for f in report.findings if f.card in points]
    _, compiled, _ = compile_for(extended)
    assert not [f for f in compiled.findings if f.card in points]
    assert DESIGN.attributes_of is not None
    for name, point in points.items():
        entry = extended.find(name)
        assert entry is not None
        card = entry.card
        assert isinstance(card, Monster) and card.type == template_card.card.type  # type: ignore[attr-defined]
        assert card.requirement == point[SOURCE_COST] and card.terrestrial >= card.otherworldly
        assert card.st_total == ST_TOTAL_BY_REQUIREMENT[point[SOURCE_COST]]
        assert min(card.alpha, card.beta, card.gamma, card.delta) >= 0
        clauses = parse_effects(card.effects, "monster")
        assert all(isinstance(c, EffectClause) for c in clauses) and len(clauses) == sum(
            [point["ST bonus"] > 0, point["move +1"], point["draw 1"]]
        )
        assert float(compiled.cost[compiled.card_id(name)]) == point[SOURCE_COST]  # the power curve's cost axis
        read = DESIGN.attributes_of(card)
        assert isinstance(read, dict)
        assert read["ST total"] == point["ST total"] and read["move +1"] == point["move +1"]
        assert read["draw 1"] == point["draw 1"]
        # Whole ST round the peak and dip by at most one point.
        assert abs(read["ST peak"] - point["ST peak"]) <= 1 and abs(read["ST dip"] - point["ST dip"]) <= 1
    # The highest ST sits where the template's does, the lowest where its lowest does.
    top = extended.find("design 000")
    assert top is not None
    ranked = sorted(("alpha", "beta", "gamma", "delta"), key=lambda s: -getattr(template_card.card, s))
    values = [getattr(top.card, s) for s in ranked]
    assert values == sorted(values, reverse=True)


def test_attributes_of_reads_the_sets_near_vanilla_monsters_and_says_why_for_others() -> None:
    """The set has no vanilla monster ("all monsters currently possess an effect"): the design reads those whose
    effects are its own (`move +1`, `draw 1`, an `st +N` on all four ST), and names the clause it does not vary for
    the others."""
    cardset, _ = _source()
    assert DESIGN.attributes_of is not None
    read = {entry.card.name: DESIGN.attributes_of(entry.card) for entry in cardset.entries}
    # Cinder Whelp 20/10/5/15: the middle two (15, 10) read as their mean 12.5, so peak 7.5 and dip 7.5, rounded up.
    assert read["Cinder Whelp"] == {"ST total": 50, "ST peak": 8, "ST dip": 8, "move +1": 1, "draw 1": 0}
    assert read["Brinekin Scout"] == {"ST total": 50, "ST peak": 10, "ST dip": 0, "move +1": 0, "draw 1": 1}
    assert read["Emberhorn Ram"] == {"ST total": 75, "ST peak": 13, "ST dip": 8, "move +1": 1, "draw 1": 0}
    assert read["Stormforge Colossus"] == {"ST total": 145, "ST peak": 8, "ST dip": 13, "move +1": 0, "draw 1": 0}
    readable = sorted(name for name, value in read.items() if isinstance(value, dict))
    assert readable == [
        "Brinekin Scout",
        "Cinder Whelp",
        "Emberhorn Ram",
        "Stormforge Colossus",
        "Voidling Seer",
        "Wisp of Ash",
    ]
    assert read["Murkpuff"] == "it has `foe push back 1`, which the design does not vary"
    assert read["Cogwalker"] == "it has `st alpha +5`, which the design does not vary"
    assert "`foe push back 2`" in str(read["Astral Leviathan"]) and "`draw 1`" not in str(read["Astral Leviathan"])
    assert read["Drift Fins"] == read["Gearling"] == "not a monster"
    # What the table would charge for their ST in play: Stormforge Colossus's `st +5` adds 20 ST, 0.8 of a space.
    assert DESIGN.formula_cost(read["Emberhorn Ram"]) == 1
    assert DESIGN.formula_cost(read["Stormforge Colossus"]) == pytest.approx(3.8)


def test_a_small_run_on_the_bundled_set_gives_rates_with_intervals_beside_the_table() -> None:
    cardset, decks = _source()
    values = stat_values(cardset, decks, 12, 120, RunSettings(seed=2, workers=1), replicates=2)
    again = stat_values(cardset, decks, 12, 120, RunSettings(seed=2, workers=1), replicates=2)
    assert values.to_json() == again.to_json()
    assert values.meta["base_card"] == "Cinder Whelp" and values.meta["ruleset"] == "source"
    assert values.meta["cost_unit"] == "space" and values.meta["attributes"]["ST bonus"]["kind"] == "drawn"
    # Every requirement is met in play: the synthetic monsters are summoned at every cost, as the set's own are.
    assert values.meta["cost_levels_in_play"] == [0, 1, 2, 3, 4]
    assert (values.cost_levels["played"] > 0.3).all()
    rates = values.rates.set_index("attribute")
    assert list(rates.index) == ["ST total", "ST peak", "ST dip", SOURCE_COST, "move +1", "draw 1"]
    for name, row in rates.iterrows():
        assert row["low"] < row["rate"] < row["high"], name
        assert math.isfinite(row["se"]) and row["se"] > 0, name
    # The table charges 25 ST a space (0.04 a point), nothing for the split, and prices no effect.
    assert rates.loc["ST total", "formula"] == pytest.approx(0.04)
    assert rates.loc["ST peak", "formula"] == 0 and rates.loc["ST dip", "formula"] == 0
    assert rates.loc["move +1", "formula"] is None or math.isnan(rates.loc["move +1", "formula"])
    said = next(s for s in values.statements if s.startswith("move +1: "))
    assert said.endswith("the formula does not price it.")
    # The design's cards: the ST total in play is the table's for the spaces plus the drawn `st +N` on all four.
    cards = values.cards
    expected = [ST_TOTAL_BY_REQUIREMENT[c] + 4 * b for c, b in zip(cards[SOURCE_COST], cards["ST bonus"], strict=True)]
    assert cards["ST total"].tolist() == expected
    assert cards["formula_cost"].tolist() == pytest.approx([(t - 50) / 25 for t in expected])
    # Every monster of the set has an implied cost or the reason it has none.
    implied = values.implied.set_index("card")
    assert list(implied.index) == [e.card.name for e in cardset.entries if e.card.kind == "monster"]
    for card, row in implied.iterrows():
        assert row["implied"] is not None or (isinstance(row["reason"], str) and row["reason"]), card
    text = values.to_text()
    assert "spaces required" in text and "cost probe" in text
