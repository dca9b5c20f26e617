"""The plotly figures draw exactly the numbers of the analysis objects they are given."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pytest
from toy_engine import TOY

from workbench.analysis import BASELINE, FLAGS, PowerCurve, Sweep, matchup_matrix, power_curve, sweep
from workbench.cards import CardSet, Deck
from workbench.charts import (
    FLAG_COLOURS,
    FLAG_NAMES,
    JITTER_STEP,
    POWER_ROW_OFFSET,
    SEVERITY_COLOURS,
    VERDICT_COLOURS,
    deck_cost_curve_figure,
    draw_odds_figure,
    first_player_figure,
    game_length_histogram,
    matchup_heatmap,
    power_change_figure,
    power_curve_figure,
    selected_cards,
    stat_budget_figure,
    sweep_figure,
    sweep_title,
)
from workbench.diff import POWER_COLUMNS, PowerComparison
from workbench.draw_odds import odds_by_turn
from workbench.judging import NO_COMPARATOR, ON_CURVE, OVER, UNDECIDED, UNDER
from workbench.rulesets.base import BudgetPoint, StatBudget
from workbench.run_settings import RunSettings
from workbench.simulate import Rate, simulate

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
    by_custom: list[dict[str, object]] = [{"customdata": ["Imp", 2, 0.0]}, {"customdata": ["Imp", 2, 0.0]}, {"x": 1}]
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
    curve = power_curve(cardset, [ref, other], matches_per_card=200, run=RunSettings(seed=1, workers=1))
    figure = power_curve_figure(curve, "cost")
    names = {FLAG_NAMES.get(flag, flag): flag for flag in FLAGS}
    card_traces = [t for t in figure.data if t.customdata is not None and t.name in names]
    drawn = {
        row[0]: (names[trace.name], y)
        for trace in card_traces
        for row, y in zip(trace.customdata, trace.y, strict=True)
    }
    assert set(drawn) == set(curve.cards["card"])
    for row in curve.cards.itertuples():
        assert drawn[row.card] == (row.flag, pytest.approx(row.power))
    tier = next(t for t in figure.data if t.name == "tier mean")
    assert list(tier.y) == pytest.approx(curve.tiers["mean_power"].tolist())


def test_the_filler_is_drawn_as_the_baseline_with_its_own_marker(toy: tuple[CardSet, Deck, Deck]) -> None:
    cardset, ref, other = toy
    curve = power_curve(cardset, [ref, other], matches_per_card=200, run=RunSettings(seed=1, workers=1))
    figure = power_curve_figure(curve, "cost")
    (baseline,) = [t for t in figure.data if str(t.name).startswith("baseline")]
    assert [row[0] for row in baseline.customdata] == ["Filler"] and list(baseline.y) == [0.0]
    assert baseline.customdata[0][4] == "—"  # no suggested cost, and no "None"
    verdict_symbols = {t.marker.symbol for t in figure.data if t.name in ("over", "under", "on curve")}
    assert baseline.marker.symbol not in verdict_symbols and baseline.marker.symbol == "star-diamond"
    assert "Filler" not in {
        row[0] for t in figure.data if t.name in ("over", "under", "on curve") for row in t.customdata
    }


def test_report_charts_draw_no_plotly_zero_line(toy: tuple[CardSet, Deck, Deck]) -> None:
    cardset, ref, other = toy
    curve = power_curve(cardset, [ref, other], matches_per_card=200, run=RunSettings(seed=1, workers=1))
    # Costs from 0: plotly would draw its zero line down the cost-0 column, where it reads as an error bar.
    figures = [stat_budget_figure(BUDGET), power_curve_figure(curve, "cost")]
    for figure in figures:
        assert figure.layout.xaxis.zeroline is False and figure.layout.yaxis.zeroline is False
    # Power 0 keeps its own dotted line (the baseline), drawn as a shape, not as plotly's solid zero line.
    (zero,) = [shape for shape in figures[1].layout.shapes if shape.y0 == 0 and shape.y1 == 0]
    assert zero.line.dash == "dot"


def test_match_figures_count_every_match(toy: tuple[CardSet, Deck, Deck]) -> None:
    cardset, ref, other = toy
    results = simulate(cardset, ref, other, matches=300, run=RunSettings(seed=2, workers=1))
    histogram = game_length_histogram(results)
    assert sum(len(trace.x) for trace in histogram.data) == 300
    bars = first_player_figure(results).data[0]
    assert list(bars.y) == pytest.approx([results.first_player_win_rate.value, results.win_rate_a.value])
    matchups = matchup_matrix(cardset, [ref, other], matches=100, run=RunSettings(seed=3, workers=1))
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


def test_sweep_figure_draws_each_value_with_its_interval_over_the_band(toy: tuple[CardSet, Deck, Deck]) -> None:
    cardset, ref, other = toy
    result = sweep(
        cardset, [ref, other], "Big", "strength", [1, 3, 5], matches_per_card=100, run=RunSettings(seed=1, workers=1)
    )
    figure = sweep_figure(result, "Strength")
    points = result.points
    flagged = [t for t in figure.data if t.name in (OVER, ON_CURVE, UNDER, UNDECIDED)]
    drawn = {x: (trace.name, y) for trace in flagged for x, y in zip(trace.x, trace.y, strict=True)}
    assert set(drawn) == {1.0, 3.0, 5.0}
    for row in points.itertuples():
        assert drawn[float(row.value)] == (row.flag, pytest.approx(row.power))
    for trace in flagged:
        assert trace.marker.color == FLAG_COLOURS[trace.name]
        index = [points["value"].tolist().index(x) for x in trace.x]
        assert list(trace.error_y.array) == pytest.approx((points["high"] - points["power"]).iloc[index].tolist())
        assert list(trace.error_y.arrayminus) == pytest.approx((points["power"] - points["low"]).iloc[index].tolist())
    assert figure.layout.xaxis.title.text == "Strength"
    assert figure.layout.title.text == "Big: power as its Strength stat varies"


def test_sweep_figure_band_steps_with_each_values_own_cost() -> None:
    # Sweeping the cost itself: each value has its own tier band, drawn flat over that value's stretch of the axis.
    points = pd.DataFrame(
        {
            "value": [3, 1, 2],  # in the order typed: the figure sorts them
            "cost": [3.0, 1.0, 2.0],
            "power": [0.30, 0.05, 0.10],
            "low": [0.25, 0.00, 0.05],
            "high": [0.35, 0.10, 0.15],
            "band_low": [0.25, 0.05, 0.15],
            "band_high": [0.35, 0.15, 0.25],
            "flag": ["on curve", "on curve", "under"],
        }
    )
    base = PowerCurve(pd.DataFrame(), pd.DataFrame(), 0.0, 0.1, Rate.of(50.0, 100))
    figure = sweep_figure(Sweep(points, base, {"card": "Imp", "field": "cost"}))
    band = figure.data[0]
    assert band.fill == "toself"
    assert list(band.x) == [0.5, 1.5, 1.5, 2.5, 2.5, 3.5, 3.5, 2.5, 2.5, 1.5, 1.5, 0.5]
    assert list(band.y) == pytest.approx([0.15, 0.15, 0.25, 0.25, 0.35, 0.35, 0.25, 0.25, 0.15, 0.15, 0.05, 0.05])
    under = next(t for t in figure.data if t.name == "under")
    assert list(under.x) == [2.0] and list(under.y) == [0.10]
    assert not [t for t in figure.data if t.name == "over"]


def test_power_change_figure_puts_each_cards_before_and_after_on_one_row() -> None:
    nan = float("nan")
    rows = [
        ("Ash Hound", "Ash Hound", 1.0, 1.0, 0.02, -0.01, 0.05, 0.12, 0.09, 0.15, 0.10, "stronger"),
        ("Cinder Wisps", "Cinder Wisp", 0.0, 0.0, 0.01, -0.02, 0.04, 0.00, -0.03, 0.03, -0.01, "within noise"),
        ("Old Relic", "Old Relic", 0.0, nan, -0.05, -0.08, -0.02, nan, nan, nan, nan, "removed"),
        ("Ember Lance", None, nan, 0.0, nan, nan, nan, 0.07, 0.04, 0.10, nan, "added"),
    ]
    known = (
        "card",
        "old_name",
        "old_cost",
        "new_cost",
        "old_power",
        "old_low",
        "old_high",
        "new_power",
        "new_low",
        "new_high",
        "change",
        "verdict",
    )
    frame = pd.DataFrame([dict(zip(known, row, strict=True)) for row in rows], columns=list(POWER_COLUMNS))
    comparison = PowerComparison(frame, {"seed": 1})
    figure = power_change_figure(comparison)
    join, before, *after = figure.data
    # Row i: before at i - offset, after at i + offset (the first card at the top).
    up, down = -POWER_ROW_OFFSET, POWER_ROW_OFFSET
    assert list(join.x) == [0.02, 0.12, None, 0.01, 0.00, None]
    assert list(join.y) == pytest.approx([0 + up, 0 + down, None, 1 + up, 1 + down, None])
    assert before.name == "before" and [row[0] for row in before.customdata] == [
        "Ash Hound",
        "Cinder Wisps",
        "Old Relic",
    ]
    assert list(before.x) == [0.02, 0.01, -0.05] and list(before.y) == pytest.approx([0 + up, 1 + up, 2 + up])
    assert list(before.error_x.array) == pytest.approx([0.03, 0.03, 0.03])
    by_name = {trace.name: trace for trace in after}
    assert set(by_name) == {"after: stronger", "after: within noise", "after: added"}
    stronger = by_name["after: stronger"]
    assert [row[0] for row in stronger.customdata] == ["Ash Hound"] and list(stronger.x) == [0.12]
    assert list(stronger.y) == pytest.approx([0 + down])
    added = by_name["after: added"]
    assert added.marker.color == VERDICT_COLOURS["added"] and list(added.y) == pytest.approx([3 + down])
    assert list(added.error_x.arrayminus) == pytest.approx([0.03])
    assert list(figure.layout.yaxis.ticktext) == ["Ash Hound", "Cinder Wisps", "Old Relic", "Ember Lance"]
    assert list(figure.layout.yaxis.tickvals) == [0, 1, 2, 3] and list(figure.layout.yaxis.range) == [3.5, -0.5]
    empty = PowerComparison(pd.DataFrame(columns=list(POWER_COLUMNS)))
    assert len(power_change_figure(empty).data) == 0


def _judged_curve(rises: bool) -> PowerCurve:
    """A power curve as `power_curve` returns one, with one card of each verdict flag, on a rising line or not."""
    cards = pd.DataFrame(
        {
            "card": ["Over", "Under", "Even", "Unsure", "Alone", "Filler"],
            "cost": [1.0, 2.0, 3.0, 4.0, 5.0, 2.0],
            "power": [0.30, -0.10, 0.15, 0.25, 0.40, 0.0],
            "low": [0.25, -0.15, 0.13, 0.15, 0.35, 0.0],
            "high": [0.35, -0.05, 0.17, 0.35, 0.45, 0.0],
            "flag": [OVER, UNDER, ON_CURVE, UNDECIDED, NO_COMPARATOR, BASELINE],
            "band_low": [0.0, 0.05, 0.10, 0.15, None, None],
            "band_high": [0.05, 0.10, 0.15, 0.20, None, None],
            "q_value": [0.001, 0.004, 0.9, 0.3, None, None],
            "stability": [0.95, 0.9, 0.8, 0.55, 1.0, None],
            "matches_to_decide": [None, None, None, 9_000, None, None],
            "suggested_cost": [None] * 6,
            "note": [""] * 6,
            "reason": ["why"] * 6,
        }
    )
    tiers = pd.DataFrame(
        {"cost": [1.0, 2.0], "cards": [1, 1], "mean_power": [0.3, -0.1], "low": [0.2, -0.2], "high": [0.4, 0.0]}
    )
    slope_low = 0.03 if rises else -0.01
    meta = {"verdict_rule": {"tolerance": 0.02, "false_discovery_rate": 0.05, "resamples": 200}}
    return PowerCurve(cards, tiers, -0.025, 0.05, Rate.of(50.0, 100), meta, slope_low, 0.07)


def test_power_curve_figure_gives_undecided_and_no_comparator_their_own_markers() -> None:
    figure = power_curve_figure(_judged_curve(rises=True), "cost")
    by_name = {trace.name: trace for trace in figure.data}
    undecided, alone = by_name[UNDECIDED], by_name[FLAG_NAMES[NO_COMPARATOR]]
    verdicts = [by_name[flag] for flag in (OVER, UNDER, ON_CURVE)]
    assert undecided.marker.color == FLAG_COLOURS[UNDECIDED] and undecided.marker.symbol == "diamond"
    assert alone.marker.color == FLAG_COLOURS[NO_COMPARATOR] and alone.marker.symbol == "circle-open"
    assert len({FLAG_COLOURS[flag] for flag in FLAGS}) == len(FLAGS)  # every flag its own colour
    assert all(trace.marker.symbol in (None, "circle") for trace in verdicts)
    # Legend order: verdicts, then the cards without one, the baseline last.
    card_traces = [trace.name for trace in figure.data if trace.customdata is not None]
    assert card_traces == [FLAG_NAMES.get(flag, flag) for flag in FLAGS if flag != "rarely played"]
    # The hover: band ± tolerance, q, stability as "undecided in 110 of 200", and what would decide it.
    (hover,) = [row[8].replace("<br>", " ") for row in undecided.customdata]  # wrapped into hover lines
    assert "band +0.150 to +0.200 ± tolerance 0.02" in hover and "q = 0.3" in hover
    assert "(undecided in 110 of 200" in hover and "about 9,000 matches per card would decide it" in hover
    assert "%{customdata[8]}" in undecided.hovertemplate
    (lone_hover,) = [row[8] for row in alone.customdata]
    assert lone_hover.startswith("stability 100") and "band" not in lone_hover and "q =" not in lone_hover
    assert by_name[FLAG_NAMES[BASELINE]].customdata[0][8] == ""


def test_power_curve_figure_draws_the_band_widened_by_the_tolerance() -> None:
    rising = power_curve_figure(_judged_curve(rises=True), "cost")
    edges = next(trace for trace in rising.data if trace.name == "band ± tolerance (0.02)")
    assert edges.line.dash == "dash" and edges.hoverinfo == "skip"
    xs = [x for x in edges.x if x is not None]
    ys = [y for y in edges.y if y is not None]
    line = [-0.025 + 0.05 * x for x in xs]
    half = 0.05 / 2 + 0.02
    assert sorted(ys) == pytest.approx(
        sorted([v + half for v in line[: len(line) // 2]] + [v - half for v in line[len(line) // 2 :]])
    )
    flat = power_curve_figure(_judged_curve(rises=False), "cost")
    assert not [trace for trace in flat.data if trace.name == "band ± tolerance (0.02)"]
    tiers = next(trace for trace in flat.data if trace.name == "tier mean ± tolerance (0.02)")
    assert [y for y in tiers.y if y is not None] == pytest.approx([0.32, 0.32, 0.28, 0.28, -0.08, -0.08, -0.12, -0.12])
    no_rule = _judged_curve(rises=True)
    no_rule.meta.clear()
    assert not [trace for trace in power_curve_figure(no_rule).data if "tolerance" in str(trace.name)]


def test_the_sweep_title_names_the_field_as_the_cards_stat() -> None:
    # A field named power must not read "power as power varies" (issue 30).
    assert sweep_title("Starforged Titan", "power") == "Starforged Titan: power as its power stat varies"


def test_the_stat_value_curves_draw_each_attributes_levels_with_intervals_beside_the_straight_fit() -> None:
    from workbench.charts import OFF_LINE_COLOUR, ON_LINE_COLOUR, stat_value_curves_figure
    from workbench.stat_values import StatValues

    curves = pd.DataFrame(
        [
            {
                "attribute": "Atk",
                "level": "0-2",
                "mean_value": 1.0,
                "cards": 4,
                "power": -0.05,
                "low": -0.08,
                "high": -0.02,
                "line": -0.04,
                "off_line": False,
            },
            {
                "attribute": "Atk",
                "level": "3-5",
                "mean_value": 4.0,
                "cards": 4,
                "power": 0.10,
                "low": 0.08,
                "high": 0.12,
                "line": 0.01,
                "off_line": True,
            },
            {
                "attribute": "Mobile",
                "level": "0",
                "mean_value": 0.0,
                "cards": 5,
                "power": 0.0,
                "low": -0.03,
                "high": 0.03,
                "line": 0.0,
                "off_line": False,
            },
            {
                "attribute": "Mobile",
                "level": "1",
                "mean_value": 1.0,
                "cards": 3,
                "power": -0.01,
                "low": -0.05,
                "high": 0.03,
                "line": -0.01,
                "off_line": False,
            },
        ]
    )
    values = StatValues(
        pd.DataFrame(), curves, pd.DataFrame(), pd.DataFrame(), 0.8, 1.2, 5, [], {"cardset": "<b>set</b>"}
    )
    figure = stat_value_curves_figure(values)
    measured = [trace for trace in figure.data if trace.name == "measured, 95% interval"]
    lines = [trace for trace in figure.data if trace.name == "straight fit"]
    assert len(measured) == len(lines) == 2
    atk = measured[0]
    assert list(atk.x) == ["0-2", "3-5"]
    assert list(atk.error_y.array) == pytest.approx([0.03, 0.02])
    assert list(atk.error_y.arrayminus) == pytest.approx([0.03, 0.02])
    assert list(atk.marker.color) == [ON_LINE_COLOUR, OFF_LINE_COLOUR]
    assert list(lines[0].y) == pytest.approx([-0.04, 0.01])
    assert [a.text for a in figure.layout.annotations] == ["Atk", "Mobile"]
    assert any(trace.name == "interval misses the straight fit" for trace in figure.data)
    assert "<b>" not in figure.layout.title.text  # the set's name is drawn as text, not markup
