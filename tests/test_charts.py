"""The plotly figures draw exactly the numbers of the analysis objects they are given."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pytest
from toy_engine import TOY

from workbench.analysis import matchup_matrix, power_curve
from workbench.cards import CardSet, Deck
from workbench.charts import (
    JITTER_STEP,
    SEVERITY_COLOURS,
    deck_cost_curve_figure,
    draw_odds_figure,
    first_player_figure,
    game_length_histogram,
    matchup_heatmap,
    power_curve_figure,
    selected_cards,
    stat_budget_figure,
)
from workbench.draw_odds import odds_by_turn
from workbench.rulesets.base import BudgetPoint, StatBudget
from workbench.simulate import simulate

BUDGET = StatBudget(
    cost_label="soul cost",
    budget_label="Atk + Def",
    points=(
        BudgetPoint("Imp", 2, "monster", 0.0, 5.0, 5.0),
        BudgetPoint("Twin", 3, "monster", 0.0, 5.0, 5.0),
        BudgetPoint("Lurker", 4, "monster", 1.0, 12.0, 10.0),
        BudgetPoint("Rain", 5, "magic", 1.0, 4.0, None),
    ),
    line=((0.0, 5.0), (1.0, 10.0), (2.0, 14.0)),
    line_label="soul-cost table",
)
TOY_ROWS = [
    {"name": "Filler", "kind": "unit", "cost": 2, "strength": 2},
    {"name": "Cheap", "kind": "unit", "cost": 1, "strength": 1},
    {"name": "Big", "kind": "unit", "cost": 3, "strength": 3},
    {"name": "Bargain", "kind": "unit", "cost": 1, "strength": 5},
]


def test_stat_budget_figure_draws_the_line_and_every_card_by_kind() -> None:
    figure = stat_budget_figure(BUDGET, {"Lurker": "warning"})
    line, monsters, magic, flagged = figure.data
    assert list(line.x) == [0.0, 1.0, 2.0] and list(line.y) == [5.0, 10.0, 14.0] and line.name == "soul-cost table"
    assert monsters.name == "monster" and magic.name == "magic"
    assert [row[0] for row in monsters.customdata] == ["Imp", "Twin", "Lurker"]
    assert [row[1] for row in monsters.customdata] == [2, 3, 4]
    assert list(monsters.y) == [5.0, 5.0, 12.0]
    assert list(monsters.x) == [0.0, 0.0 + JITTER_STEP, 1.0]  # two cards on one spot are spread apart
    assert magic.customdata[0][3] == "-"  # no formula value for this card
    assert flagged.name == "has findings" and [row[0] for row in flagged.customdata] == ["Lurker"]
    assert list(flagged.marker.color) == [SEVERITY_COLOURS["warning"]] and flagged.marker.symbol == "circle-open"
    assert (flagged.x[0], flagged.y[0]) == (1.0, 12.0)
    assert figure.layout.xaxis.title.text == "soul cost" and figure.layout.yaxis.title.text == "Atk + Def"
    assert len(stat_budget_figure(BUDGET).data) == 3  # no findings, no ring trace


def test_selected_cards_reads_customdata_or_the_figure() -> None:
    figure = stat_budget_figure(BUDGET)
    by_index = [
        {"curve_number": 1, "point_index": 2},
        {"curve_number": 2, "point_index": 0},
        {"curve_number": 0, "point_index": 1},
    ]
    assert selected_cards(figure, by_index) == [("Lurker", 4), ("Rain", 5)]
    by_custom = [{"customdata": ["Imp", 2, 0.0]}, {"customdata": ["Imp", 2, 0.0]}, {"x": 1}]
    assert selected_cards(figure, by_custom) == [("Imp", 2)]
    assert selected_cards(figure, [{"curve_number": 9, "point_index": 0}]) == []


@pytest.fixture
def toy(make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]) -> tuple[CardSet, Deck, Deck]:
    cardset = make_cardset(TOY, TOY_ROWS)
    return (
        cardset,
        make_deck(cardset, "6 Filler\n2 Cheap\n2 Big", name="ref"),
        make_deck(cardset, "4 Filler\n4 Big", name="other"),
    )


def test_power_curve_figure_shows_each_card_with_its_interval(toy: tuple[CardSet, Deck, Deck]) -> None:
    cardset, ref, other = toy
    curve = power_curve(cardset, [ref, other], matches_per_card=200, seed=1, workers=1)
    figure = power_curve_figure(curve, "cost")
    card_traces = [t for t in figure.data if t.customdata is not None and t.name in ("over", "under", "on curve")]
    drawn = {row[0]: (trace.name, y) for trace in card_traces for row, y in zip(trace.customdata, trace.y, strict=True)}
    assert set(drawn) == set(curve.cards["card"])
    for row in curve.cards.itertuples():
        assert drawn[row.card] == (row.flag, pytest.approx(row.power))
    tier = next(t for t in figure.data if t.name == "tier mean")
    assert list(tier.y) == pytest.approx(curve.tiers["mean_power"].tolist())


def test_match_figures_count_every_match(toy: tuple[CardSet, Deck, Deck]) -> None:
    cardset, ref, other = toy
    results = simulate(cardset, ref, other, matches=300, seed=2, workers=1)
    histogram = game_length_histogram(results)
    assert sum(len(trace.x) for trace in histogram.data) == 300
    bars = first_player_figure(results).data[0]
    assert list(bars.y) == pytest.approx([results.first_player_win_rate.value, results.win_rate_a.value])
    matchups = matchup_matrix(cardset, [ref, other], matches=100, seed=3, workers=1)
    heat = matchup_heatmap(matchups).data[0]
    assert list(heat.y) == ["ref", "other"] and list(heat.x) == ["ref", "other"]
    expected = matchups.pivot(index="deck", columns="opponent", values="win_rate").loc[
        ["ref", "other"], ["ref", "other"]
    ]
    assert np.allclose(np.asarray(heat.z, dtype=float), expected.to_numpy())


def test_deck_curve_and_draw_odds_figures() -> None:
    curve = pd.DataFrame({"cost": [0.0, 1.0], "copies": [3, 2], "cards": ["Imp", "Lurker"]})
    bars = deck_cost_curve_figure(curve, "soul cost", "aggro").data[0]
    assert list(bars.x) == [0.0, 1.0] and list(bars.y) == [3, 2]
    rows = odds_by_turn(30, 3, 5, 5)
    line = draw_odds_figure(rows, "Imp").data[0]
    assert list(line.y) == pytest.approx([float(r.probability) for r in rows])
