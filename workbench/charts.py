"""Plotly figures drawn from the workbench's own analysis objects.

Every figure here is a picture of something computed elsewhere: the stat
budget from `Ruleset.stat_budget`, the power curve from
`workbench.analysis.power_curve`, matchups from `matchup_matrix`, match
figures from `workbench.simulate.MatchResults`, draw odds from
`workbench.draw_odds`, sweeps from `workbench.analysis.sweep`, power before
and after a change from `workbench.diff.with_power_changes`, what each stat is worth in play from
`workbench.stat_values.stat_values`. Nothing here decides a rule; the figures only draw.

Card points carry `customdata = [card name, sheet row]`, so a page can turn a
click on a point into "open this card".
"""

from __future__ import annotations

import math
import textwrap
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from workbench.analysis import BASELINE, FLAGS, NEVER_CHANGED, RARELY_PLAYED, PowerCurve, Sweep, share_text
from workbench.diff import PowerComparison
from workbench.draw_odds import DrawOdds
from workbench.health import GameHealth, LengthOptions
from workbench.judging import NO_COMPARATOR, ON_CURVE, OVER, UNDECIDED, UNDER
from workbench.markup import plotly_text
from workbench.rulesets.base import BudgetPoint, StatBudget
from workbench.simulate import MatchResults
from workbench.stat_values import StatValues

SEVERITY_COLOURS = {"error": "#d62728", "warning": "#ff7f0e", "info": "#1f77b4"}
FLAG_COLOURS = {
    OVER: "#d62728",
    UNDER: "#1f77b4",
    ON_CURVE: "#7f7f7f",
    UNDECIDED: "#ff9f1c",
    NO_COMPARATOR: "#bdbdbd",
    BASELINE: "#000000",
}
"""Each flag's colour, on every chart and table that colours flags: over red, under blue, on curve grey, undecided
amber (the run cannot tell), no comparator light grey, the baseline black, rarely played dark gold."""
BASELINE_MARKER = {
    "symbol": "star-diamond",
    "size": 15,
    "color": FLAG_COLOURS[BASELINE],
    "line": {"width": 1, "color": "#fff"},
}
"""A filler's point on the power curve: the baseline the other cards are measured from, not a verdict."""
RARELY_PLAYED_COLOUR = "#b8860b"
RARELY_PLAYED_MARKER = {"symbol": "circle-open", "size": 11, "color": RARELY_PLAYED_COLOUR, "line": {"width": 2}}
"""A rarely played card's point: hollow, as its power is mostly the filler's matches (not judged)."""
FLAG_COLOURS[RARELY_PLAYED] = RARELY_PLAYED_COLOUR
UNDECIDED_MARKER = {
    "symbol": "diamond",
    "size": 11,
    "color": FLAG_COLOURS[UNDECIDED],
    "line": {"width": 1, "color": "#fff"},
}
"""An undecided card's point: amber and a diamond, so it never reads as a verdict (the run cannot tell whether it
lies within or beyond the tolerance)."""
NO_COMPARATOR_MARKER = {"symbol": "circle-open", "size": 11, "color": FLAG_COLOURS[NO_COMPARATOR], "line": {"width": 2}}
"""A card with no comparator at its cost: hollow light grey, as nothing was there to judge it against."""
FLAG_MARKERS = {
    BASELINE: BASELINE_MARKER,
    RARELY_PLAYED: RARELY_PLAYED_MARKER,
    UNDECIDED: UNDECIDED_MARKER,
    NO_COMPARATOR: NO_COMPARATOR_MARKER,
}
"""The flags whose point is not the plain filled circle of a verdict."""
FLAG_NAMES = {
    BASELINE: "baseline (filler, power 0 by construction)",
    RARELY_PLAYED: "rarely played (not judged)",
    NO_COMPARATOR: "no comparator (no verdict)",
}
"""Legend names of the flags that are not a verdict."""
WINNER_COLOURS = {"A": "#1f77b4", "B": "#ff7f0e", "draw": "#7f7f7f"}
VERDICT_COLOURS = {
    "stronger": "#d62728",
    "weaker": "#1f77b4",
    "within noise": "#7f7f7f",
    "added": "#2ca02c",
    "removed": "#8c564b",
}
"""Colour of a card's new power on the before/after chart, by `PowerComparison` verdict."""
JITTER_STEP = 0.07
"""Cards sharing a (cost, budget) spot are spread this far apart sideways, so each can be hovered and clicked."""


def _layout(figure: go.Figure, title: str, x_title: str, y_title: str) -> go.Figure:
    figure.update_layout(
        title=title,
        xaxis_title=x_title,
        yaxis_title=y_title,
        legend_title_text="",
        legend={"orientation": "h", "yanchor": "top", "y": -0.28, "xanchor": "left", "x": 0},
        margin={"l": 60, "r": 20, "t": 60, "b": 110},
        hovermode="closest",
    )
    # plotly's zero lines read as data: at cost 0 a vertical zero line looks like a huge error bar. Where 0 matters
    # (power 0, the baseline) the figure draws its own dotted line.
    figure.update_xaxes(zeroline=False)
    figure.update_yaxes(zeroline=False)
    return figure


def hover_wrap(text: str, width: int = 72) -> str:
    """A long sentence broken into hover lines."""
    return "<br>".join(plotly_text(line) for line in textwrap.wrap(text, width)) if text else ""


def flag_marker(flag: str, size: int = 10) -> dict[str, object]:
    """The marker of a point carrying `flag` (`FLAG_MARKERS`, else a filled circle in the flag's colour)."""
    return FLAG_MARKERS.get(flag, {"size": size, "color": FLAG_COLOURS.get(flag, "#2ca02c")})


def _known(value: object) -> float | None:
    """A figure of a table cell as a float, or None when it is missing (None or NaN)."""
    if value is None:
        return None
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number


def verdict_figures(row: object, flag: str, tolerance: float | None, resamples: int) -> str:
    """One card's verdict figures in words, for a hover: its band (± the tolerance), q, stability and, where
    undecided, the matches that would decide it. Empty where the row carries none of them."""
    parts = []
    low, high = _known(getattr(row, "band_low", None)), _known(getattr(row, "band_high", None))
    if low is not None and high is not None:
        band = f"band {low:+.3f}" if low == high else f"band {low:+.3f} to {high:+.3f}"
        parts.append(band + (f" ± tolerance {tolerance:g}" if tolerance else ""))
    q = _known(getattr(row, "q_value", None))
    if q is not None:
        parts.append(f"q = {q:.2g}")
    stability = _known(getattr(row, "stability", None))
    if stability is not None:
        parts.append(
            f"stability {stability:.0%} ({flag} in {round(stability * resamples)} of {resamples} resamples)"
            if resamples
            else f"stability {stability:.0%}"
        )
    needed = _known(getattr(row, "matches_to_decide", None))
    if needed is not None:
        parts.append(f"about {needed:,.0f} matches per card would decide it")
    return "; ".join(parts)


def _share_label(share: float | None) -> str:
    return "—" if share is None or (isinstance(share, float) and math.isnan(share)) else share_text(float(share))


def _turn_label(turn: float | None) -> str:
    return "—" if turn is None or (isinstance(turn, float) and math.isnan(turn)) else f"{float(turn):.1f}"


def spread_offsets(xs: Sequence[float], ys: Sequence[float]) -> list[float]:
    """Sideways offsets for points that share a spot (first stays put, then right, left, right, ...)."""
    seen: dict[tuple[float, float], int] = defaultdict(int)
    out = []
    for x, y in zip(xs, ys, strict=True):
        n = seen[(x, y)]
        seen[(x, y)] += 1
        side = 1 if n % 2 else -1
        out.append(x + side * JITTER_STEP * ((n + 1) // 2))
    return out


TOLERANCE_LINE = {"color": "rgba(90,90,90,0.75)", "width": 1, "dash": "dash"}
"""The dashed edges of a band widened by the tolerance: beyond them a card is mispriced by more than matters."""


def add_cost_line(
    figure: go.Figure,
    costs: Sequence[float],
    intercept: float,
    slope: float,
    band_name: str,
    line_name: str,
    tolerance: float | None = None,
) -> None:
    """The fitted line of power on cost across the cards' costs (half a cost step past each end), under it the band a
    card is judged on curve within: the line's value half a cost step either side; with a `tolerance` above 0, that
    band's edges widened by it, dashed (a card is over or under only beyond them)."""
    xs = np.linspace(float(min(costs)) - 0.5, float(max(costs)) + 0.5, 50)
    line = intercept + slope * xs
    half_band = abs(slope) / 2
    figure.add_trace(
        go.Scatter(
            x=np.concatenate([xs, xs[::-1]]),
            y=np.concatenate([line + half_band, (line - half_band)[::-1]]),
            fill="toself",
            fillcolor="rgba(127,127,127,0.15)",
            line={"width": 0},
            name=band_name,
            hoverinfo="skip",
        )
    )
    figure.add_trace(go.Scatter(x=xs, y=line, mode="lines", name=line_name, line={"color": "#444"}, hoverinfo="skip"))
    if tolerance:
        edge = half_band + tolerance
        _add_edges(
            figure,
            [(xs, line + edge), (xs, line - edge)],
            f"band ± tolerance ({tolerance:g})",
        )


def _add_edges(figure: go.Figure, pieces: Sequence[tuple[Iterable[float], Iterable[float]]], name: str) -> None:
    """Dashed lines (one legend entry) through each (xs, ys) piece, broken between pieces."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    for piece_x, piece_y in pieces:
        xs += [float(x) for x in piece_x] + [None]
        ys += [float(y) for y in piece_y] + [None]
    figure.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=name, line=TOLERANCE_LINE, hoverinfo="skip"))


def stat_budget_figure(budget: StatBudget, severities: Mapping[str, str] | None = None) -> go.Figure:
    """Each card's budget against its cost, coloured by kind, with the document's formula as the line.

    `severities` maps a card name to the worst severity of its findings; those cards get a
    ring in that severity's colour and the finding count in their hover text.
    """
    severities = severities or {}
    figure = go.Figure()
    if budget.line:
        xs, ys = zip(*budget.line, strict=True)
        figure.add_trace(
            go.Scatter(
                x=list(xs),
                y=list(ys),
                mode="lines+markers",
                name=budget.line_label,
                line={"color": "#444", "dash": "dash"},
                marker={"size": 5, "color": "#444"},
                hovertemplate=f"{budget.cost_label} %{{x}}: {budget.budget_label} %{{y}}<extra>formula</extra>",
            )
        )
    points = list(budget.points)
    offsets = spread_offsets([p.cost for p in points], [p.budget for p in points])
    hovertemplate = (
        "<b>%{customdata[5]}</b> (row %{customdata[1]})<br>"
        f"{budget.cost_label}: %{{customdata[2]}}<br>"
        f"{budget.budget_label}: %{{y}}<br>"
        "formula allows: %{customdata[3]}<br>findings: %{customdata[4]}<extra>%{fullData.name}</extra>"
    )

    def custom(point: BudgetPoint) -> list[object]:
        expected = "-" if point.expected_budget is None else f"{point.expected_budget:g}"
        # customdata[0] keeps the name as it is (a click opens the card by it); [5] is the name as plotly shows it.
        severity = severities.get(point.card, "none")
        return [point.card, point.row, point.cost, expected, severity, plotly_text(point.card)]

    for kind in dict.fromkeys(p.kind for p in points):
        members = [(p, x) for p, x in zip(points, offsets, strict=True) if p.kind == kind]
        figure.add_trace(
            go.Scatter(
                x=[x for _, x in members],
                y=[p.budget for p, _ in members],
                mode="markers",
                name=kind,
                customdata=[custom(p) for p, _ in members],
                marker={"size": 11, "opacity": 0.9},
                hovertemplate=hovertemplate,
            )
        )
    # Cards with findings get a ring in their worst finding's colour, drawn as its own trace so the legend says so.
    flagged = [(p, x) for p, x in zip(points, offsets, strict=True) if p.card in severities]
    if flagged:
        figure.add_trace(
            go.Scatter(
                x=[x for _, x in flagged],
                y=[p.budget for p, _ in flagged],
                mode="markers",
                name="has findings",
                customdata=[custom(p) for p, _ in flagged],
                marker={
                    "symbol": "circle-open",
                    "size": 18,
                    "line": {"width": 3},
                    "color": [SEVERITY_COLOURS[severities[p.card]] for p, _ in flagged],
                },
                hovertemplate=hovertemplate,
            )
        )
    return _layout(figure, "Stat budget against cost", budget.cost_label, budget.budget_label)


def power_curve_figure(curve: PowerCurve, cost_label: str = "cost") -> go.Figure:
    """Simulated power per card with its 95% interval, the fitted cost line and its tier band (with the band's edges
    widened by the tolerance, dashed), tier means; each point coloured by its flag, its hover giving the band, q,
    stability and, where undecided, the matches that would decide it."""
    cards = curve.cards
    figure = go.Figure()
    rule = curve.meta.get("verdict_rule") or {}
    tolerance = _known(rule.get("tolerance"))
    resamples = int(rule.get("resamples") or 0)
    if not cards.empty:
        add_cost_line(
            figure,
            cards["cost"].tolist(),
            curve.intercept,
            curve.slope,
            "tier band (cost ± 1/2)",
            "fitted cost line (Theil-Sen)",
            tolerance if curve.rises_with_cost else None,
        )
        if tolerance and not curve.rises_with_cost and not curve.tiers.empty:
            # No rising line: each card is judged against the other cards of its cost, so the tolerance is drawn
            # around each cost's mean.
            _add_edges(
                figure,
                [
                    ([cost - 0.4, cost + 0.4], [mean + sign * tolerance] * 2)
                    for cost, mean in zip(curve.tiers["cost"], curve.tiers["mean_power"], strict=True)
                    for sign in (1, -1)
                ],
                f"tier mean ± tolerance ({tolerance:g})",
            )
        offsets = spread_offsets(cards["cost"].tolist(), [0.0] * len(cards))
        cards = cards.assign(x=offsets)
        present = list(dict.fromkeys(cards["flag"].astype(str)))
        for flag in [f for f in FLAGS if f in present] + [f for f in present if f not in FLAGS]:
            group = cards[cards["flag"].astype(str) == flag]
            suggested = group["suggested_cost"].map(lambda v: "—" if v is None or pd.isna(v) else f"{v:g}")
            figures = [hover_wrap(verdict_figures(row, flag, tolerance, resamples)) for row in group.itertuples()]
            plays = [
                f"played in {_share_label(row.played)} of matches, drawn in {_share_label(row.drawn)}; "
                f"first played on turn {_turn_label(row.first_played_turn)} on average"
                + (
                    f"; with a turn left after it in {_share_label(row.played_in_time)}"
                    if "played_in_time" in group.columns
                    else ""
                )
                if "played" in group.columns
                else ""
                for row in group.itertuples()
            ]
            reasons = (
                [hover_wrap(str(reason)) for reason in group["reason"]]
                if "reason" in group.columns
                else [""] * len(group)
            )
            names = [plotly_text(name) for name in group["card"]]
            notes = [plotly_text(note) for note in group["note"]]
            figure.add_trace(
                go.Scatter(
                    x=group["x"],
                    y=group["power"],
                    mode="markers",
                    name=FLAG_NAMES.get(flag, flag),
                    marker=flag_marker(flag),
                    error_y={
                        "type": "data",
                        "symmetric": False,
                        "array": group["high"] - group["power"],
                        "arrayminus": group["power"] - group["low"],
                        "thickness": 1.2,
                    },
                    customdata=np.column_stack(
                        [names, group["cost"], group["low"], group["high"], suggested, notes, plays, reasons, figures]
                    ),
                    hovertemplate=(
                        "<b>%{customdata[0]}</b><br>"
                        f"{cost_label}: %{{customdata[1]}}<br>"
                        "power: %{y:+.3f} (95% CI %{customdata[2]:+.3f} to %{customdata[3]:+.3f})<br>"
                        "%{customdata[8]}<br>"
                        "%{customdata[6]}<br>"
                        "suggested cost: %{customdata[4]}<br>%{customdata[5]}<br>"
                        "why: %{customdata[7]}<extra>%{fullData.name}</extra>"
                    ),
                )
            )
    tiers = curve.tiers
    if not tiers.empty:
        figure.add_trace(
            go.Scatter(
                x=tiers["cost"],
                y=tiers["mean_power"],
                mode="markers",
                name="tier mean",
                marker={"symbol": "diamond-open", "size": 14, "color": "#000"},
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": tiers["high"] - tiers["mean_power"],
                    "arrayminus": tiers["mean_power"] - tiers["low"],
                },
                hovertemplate=f"{cost_label} %{{x}}: mean power %{{y:+.3f}}<extra>tier</extra>",
            )
        )
    figure.add_hline(y=0, line={"color": "#999", "width": 1, "dash": "dot"})
    if not cards.empty and not curve.rises_with_cost:
        # Said on the chart itself: an empty suggested cost alone does not tell why.
        _note(figure, f"Power does not rise with {cost_label} here: suggested costs are withheld.")
    return _layout(figure, "Power curve: change in win rate against cost", cost_label, "simulated power (Δ score)")


def _note(figure: go.Figure, text: str) -> None:
    """A line of words at the top left of the plot, under the title."""
    figure.add_annotation(
        text=plotly_text(text),
        xref="paper",
        yref="paper",
        x=0,
        y=1.0,
        xanchor="left",
        yanchor="bottom",
        showarrow=False,
        font={"size": 12, "color": "#8a5a00"},
        align="left",
    )


def matchup_heatmap(matchups: pd.DataFrame) -> go.Figure:
    """Row deck's win rate against the column deck, with each cell's 95% interval as its text."""
    decks = list(dict.fromkeys(matchups["deck"]))
    opponents = list(dict.fromkeys(matchups["opponent"]))
    rate = matchups.pivot(index="deck", columns="opponent", values="win_rate").reindex(index=decks, columns=opponents)
    low = matchups.pivot(index="deck", columns="opponent", values="low").reindex(index=decks, columns=opponents)
    high = matchups.pivot(index="deck", columns="opponent", values="high").reindex(index=decks, columns=opponents)
    text = [
        [f"{rate.iat[i, j]:.0%}<br>({low.iat[i, j]:.0%}–{high.iat[i, j]:.0%})" for j in range(len(opponents))]
        for i in range(len(decks))
    ]
    figure = go.Figure(
        go.Heatmap(
            z=rate.to_numpy(),
            x=[plotly_text(deck) for deck in opponents],
            y=[plotly_text(deck) for deck in decks],
            text=text,
            texttemplate="%{text}",
            colorscale="RdBu",
            zmin=0,
            zmax=1,
            zmid=0.5,
            colorbar={"title": "win rate", "tickformat": ".0%"},
            hovertemplate="%{y} against %{x}: %{text}<extra></extra>",
        )
    )
    figure.update_yaxes(autorange="reversed")
    return _layout(figure, "Matchups: row deck's win rate (95% interval)", "opponent", "deck")


def first_player_figure(results: MatchResults) -> go.Figure:
    """The first player's win rate and deck A's, each with its 95% interval, against the 50% line."""
    first = results.first_player_win_rate
    deck_a = results.win_rate_a
    labels = ["first player", f"deck A ({plotly_text(results.meta.get('deck_a', 'A'))})"]
    values = [first.value, deck_a.value]
    figure = go.Figure(
        go.Bar(
            x=labels,
            y=values,
            marker={"color": ["#9467bd", WINNER_COLOURS["A"]]},
            error_y={
                "type": "data",
                "symmetric": False,
                "array": [first.high - first.value, deck_a.high - deck_a.value],
                "arrayminus": [first.value - first.low, deck_a.value - deck_a.low],
            },
            text=[f"{v:.1%}" for v in values],
            textposition="inside",
            insidetextanchor="start",
            hovertemplate="%{x}: %{y:.1%}<extra></extra>",
        )
    )
    figure.add_hline(
        y=0.5, line={"color": "#444", "dash": "dash"}, annotation_text="50%", annotation_position="top left"
    )
    figure.update_yaxes(range=[0, 1], tickformat=".0%")
    return _layout(figure, f"Win rates over {len(results.matches):,} matches (95% interval)", "", "win rate")


def game_length_histogram(results: MatchResults) -> go.Figure:
    """How many turns matches lasted, stacked by who won."""
    figure = go.Figure()
    for winner in ("A", "B", "draw"):
        turns = results.matches.loc[results.matches["winner"] == winner, "turns"]
        if len(turns):
            figure.add_trace(
                go.Histogram(
                    x=turns,
                    name=f"{winner} wins" if winner != "draw" else "draw",
                    marker={"color": WINNER_COLOURS[winner]},
                    xbins={"size": 1},
                )
            )
    figure.update_layout(barmode="stack")
    return _layout(figure, "Game length", "turns", "matches")


def length_options_figure(result: LengthOptions) -> go.Figure:
    """Each rule reading's change in mean match length against the options as given, with its 95% interval (paired
    by seed), the largest change on top."""
    played = result.frame().iloc[1:][::-1]
    figure = go.Figure(
        go.Bar(
            x=played["change"],
            y=[plotly_text(str(label)) for label in played["label"]],
            orientation="h",
            error_x={
                "type": "data",
                "array": (played["change_high"] - played["change"]).tolist(),
                "arrayminus": (played["change"] - played["change_low"]).tolist(),
            },
            hovertemplate="%{y}: %{x:+.2f} turns<extra></extra>",
        )
    )
    figure.update_layout(
        title="Change in match length against the options as given (95% interval, paired by seed)",
        xaxis_title="turns",
        height=max(260, 28 * len(played) + 120),
        margin={"l": 10, "r": 10, "t": 50, "b": 40},
    )
    return figure


def deck_cost_curve_figure(curve: pd.DataFrame, cost_label: str, deck_name: str) -> go.Figure:
    """Copies per cost for one deck (from `workbench.deck_building.cost_curve`)."""
    figure = go.Figure(
        go.Bar(
            x=curve["cost"],
            y=curve["copies"],
            text=curve["copies"],
            textposition="outside",
            customdata=[[plotly_text(cards)] for cards in curve["cards"]] if "cards" in curve else None,
            hovertemplate=f"{cost_label} %{{x}}: %{{y}} copies<br>%{{customdata[0]}}<extra></extra>",
        )
    )
    figure.update_xaxes(dtick=1)
    return _layout(figure, f"Cost curve of {plotly_text(deck_name)}", cost_label, "copies")


def draw_odds_figure(rows: Sequence[DrawOdds], label: str) -> go.Figure:
    """The chance to hold the chosen card(s) on each turn."""
    figure = go.Figure(
        go.Scatter(
            x=[row.turn for row in rows],
            y=[float(row.probability) for row in rows],
            mode="lines+markers",
            customdata=[row.seen for row in rows],
            hovertemplate="turn %{x} (%{customdata} cards seen): %{y:.1%}<extra></extra>",
        )
    )
    figure.update_yaxes(range=[0, 1.02], tickformat=".0%")
    figure.update_xaxes(dtick=1)
    return _layout(figure, f"Chance to hold {plotly_text(label)}", "your turn", "probability")


def _band_steps(
    values: Sequence[float], lows: Sequence[float], highs: Sequence[float]
) -> tuple[list[float], list[float]]:
    """The outline of a band that is flat across each value's own stretch of the axis (a step per value).

    Each value owns the axis up to halfway to its neighbours, so a band that jumps when the card's cost
    changes is drawn as a step, not as a slope that would suggest costs between the values.
    """
    if len(values) == 1:
        edges = [values[0] - 0.5, values[0] + 0.5]
    else:
        gaps = [b - a for a, b in pairwise(values)]
        edges = [
            values[0] - gaps[0] / 2,
            *[a + g / 2 for a, g in zip(values, gaps, strict=False)],
            values[-1] + gaps[-1] / 2,
        ]
    top_x: list[float] = []
    top_y: list[float] = []
    bottom_x: list[float] = []
    bottom_y: list[float] = []
    for index, (low, high) in enumerate(zip(lows, highs, strict=True)):
        left, right = edges[index], edges[index + 1]
        top_x += [left, right]
        top_y += [high, high]
        bottom_x += [left, right]
        bottom_y += [low, low]
    return top_x + bottom_x[::-1], top_y + bottom_y[::-1]


def sweep_title(card: str, field: str) -> str:
    """The sweep chart's title: "Starforged Titan: power as its power stat varies" (the field named as a stat of the
    card, so a field named power does not read "power as power varies")."""
    return f"{card}: power as its {field} stat varies"


def sweep_figure(sweep: Sweep, field_label: str | None = None) -> go.Figure:
    """A card's power at each swept value with its 95% interval, over its cost tier's band, coloured by flag."""
    points = sweep.points.sort_values("value", kind="stable")
    label = plotly_text(field_label or str(sweep.meta.get("field", "value")))  # the field as the designer typed it
    raw_card = str(sweep.meta.get("card", "card"))
    card = plotly_text(raw_card)  # shown in a title and a hover template (the note escapes its own text)
    figure = go.Figure()
    if not points.empty:
        values = [float(v) for v in points["value"]]
        band_x, band_y = _band_steps(values, points["band_low"].tolist(), points["band_high"].tolist())
        figure.add_trace(
            go.Scatter(
                x=band_x,
                y=band_y,
                mode="lines",
                fill="toself",
                fillcolor="rgba(127,127,127,0.18)",
                # An outline too: where the set's power does not rise with cost the band is a line with no area.
                line={"width": 1, "color": "rgba(127,127,127,0.7)"},
                name="cost tier band (set's line, cost ± 1/2)",
                hoverinfo="skip",
            )
        )
        figure.add_trace(
            go.Scatter(
                x=values,
                y=points["power"],
                mode="lines",
                line={"color": "#bbb", "width": 1},
                showlegend=False,
                hoverinfo="skip",
            )
        )
        tolerance = _known((sweep.meta.get("verdict_rule") or {}).get("tolerance"))
        if tolerance:
            edge_x, edge_y = _band_steps(
                values,
                (points["band_low"] - tolerance).tolist(),
                (points["band_high"] + tolerance).tolist(),
            )
            half = len(edge_x) // 2  # the outline's top, then its bottom: drawn as two dashed lines
            _add_edges(
                figure,
                [(edge_x[:half], edge_y[:half]), (edge_x[half:], edge_y[half:])],
                f"band ± tolerance ({tolerance:g})",
            )
        order = (OVER, ON_CURVE, UNDER, UNDECIDED, RARELY_PLAYED)
        present = list(dict.fromkeys(points["flag"].astype(str)))
        for flag in [f for f in order if f in present] + [f for f in present if f not in order]:
            group = points[points["flag"] == flag]
            if group.empty:
                continue
            notes = [
                hover_wrap(f"played in {_share_label(row.played)} of matches" + (f"; {row.note}" if row.note else ""))
                if "played" in group.columns
                else ""
                for row in group.itertuples()
            ]
            figure.add_trace(
                go.Scatter(
                    x=group["value"].astype(float),
                    y=group["power"],
                    mode="markers",
                    name=FLAG_NAMES.get(flag, flag),
                    marker=flag_marker(flag, size=11),
                    error_y={
                        "type": "data",
                        "symmetric": False,
                        "array": group["high"] - group["power"],
                        "arrayminus": group["power"] - group["low"],
                        "thickness": 1.2,
                    },
                    customdata=np.column_stack(
                        [
                            group["value"],
                            group["cost"],
                            group["low"],
                            group["high"],
                            group["band_low"],
                            group["band_high"],
                            notes,
                        ]
                    ),
                    hovertemplate=(
                        f"<b>{card}</b>, {label} %{{customdata[0]}}<br>"
                        "cost: %{customdata[1]}<br>"
                        "power: %{y:+.3f} (95% CI %{customdata[2]:+.3f} to %{customdata[3]:+.3f})<br>"
                        "tier band: %{customdata[4]:+.3f} to %{customdata[5]:+.3f}<br>"
                        "%{customdata[6]}<extra>%{fullData.name}</extra>"
                    ),
                )
            )
        if all(float(v).is_integer() for v in values):
            figure.update_xaxes(dtick=1)
    figure.add_hline(y=0, line={"color": "#999", "width": 1, "dash": "dot"})
    if sweep.statement:
        changed = sweep.points["changed"] if "changed" in sweep.points.columns else pd.Series(dtype=bool)
        words = []
        if len(changed) and not changed.any() or NEVER_CHANGED.capitalize() in sweep.statement:
            words.append(f"{NEVER_CHANGED.capitalize()}.")
        if "was never played" in sweep.statement:
            words.append(f"{raw_card} was never played at any value.")
        _note(figure, " ".join(words) or sweep.statement)
    return _layout(figure, sweep_title(card, label), label, "simulated power (Δ score)")


POWER_ROW_OFFSET = 0.14
"""How far above (before) and below (after) its row a card's two points sit, so their intervals never overlap."""


def power_change_figure(comparison: PowerComparison) -> go.Figure:
    """Each measured card's power before (open circle) and after (filled, coloured by verdict), with 95% intervals.

    One row per card, first card at the top: the before point sits just above the row and the after point just
    below, joined by a line, so how far a change moved a card, and whether the move is larger than the intervals,
    reads at a glance. A side that was not measured (an added card's before, a removed card's after) is not drawn.
    """
    frame = comparison.frame.reset_index(drop=True)
    figure = go.Figure()
    if frame.empty:
        return _layout(figure, "Power before and after", "simulated power (Δ score)", "")
    labels = [plotly_text(name) for name in frame["card"].astype(str)]
    before_y = frame.index.to_numpy(dtype=float) - POWER_ROW_OFFSET
    after_y = frame.index.to_numpy(dtype=float) + POWER_ROW_OFFSET
    joins_x: list[float | None] = []
    joins_y: list[float | None] = []
    for index, row in enumerate(frame.itertuples()):
        if not (pd.isna(row.old_power) or pd.isna(row.new_power)):
            joins_x += [float(row.old_power), float(row.new_power), None]
            joins_y += [float(before_y[index]), float(after_y[index]), None]
    if joins_x:
        figure.add_trace(
            go.Scatter(
                x=joins_x,
                y=joins_y,
                mode="lines",
                line={"color": "#bbb", "width": 2},
                showlegend=False,
                hoverinfo="skip",
            )
        )

    def side(mask: pd.Series, prefix: str, ys: np.ndarray) -> dict[str, object]:
        group = frame[mask]
        return {
            "x": group[f"{prefix}_power"],
            "y": ys[mask.to_numpy()],
            "error_x": {
                "type": "data",
                "symmetric": False,
                "array": group[f"{prefix}_high"] - group[f"{prefix}_power"],
                "arrayminus": group[f"{prefix}_power"] - group[f"{prefix}_low"],
                "thickness": 1.2,
            },
            "customdata": np.column_stack(
                [
                    [plotly_text(name) for name in group["card"].astype(str)],
                    group[f"{prefix}_low"],
                    group[f"{prefix}_high"],
                    group[f"{prefix}_cost"],
                ]
            ),
        }

    measured_before = frame["old_power"].notna()
    if measured_before.any():
        figure.add_trace(
            go.Scatter(
                mode="markers",
                name="before",
                marker={"symbol": "circle-open", "size": 12, "color": "#444", "line": {"width": 2}},
                hovertemplate=(
                    "<b>%{customdata[0]}</b> before (cost %{customdata[3]})<br>"
                    "power %{x:+.3f} (95% CI %{customdata[1]:+.3f} to %{customdata[2]:+.3f})<extra></extra>"
                ),
                **side(measured_before, "old", before_y),
            )
        )
    measured_after = frame["new_power"].notna()
    verdicts = frame["verdict"].astype(str) if "verdict" in frame else pd.Series("after", index=frame.index)
    for verdict in dict.fromkeys(verdicts[measured_after]):
        figure.add_trace(
            go.Scatter(
                mode="markers",
                name=f"after: {verdict}" if verdict != "after" else "after",
                marker={"size": 12, "color": VERDICT_COLOURS.get(verdict, "#1f77b4")},
                hovertemplate=(
                    "<b>%{customdata[0]}</b> after (cost %{customdata[3]})<br>"
                    "power %{x:+.3f} (95% CI %{customdata[1]:+.3f} to "
                    "%{customdata[2]:+.3f})<extra>%{fullData.name}</extra>"
                ),
                **side(measured_after & (verdicts == verdict), "new", after_y),
            )
        )
    figure.add_vline(x=0, line={"color": "#999", "width": 1, "dash": "dot"})
    figure.update_yaxes(
        tickvals=list(range(len(labels))),
        ticktext=labels,
        range=[len(labels) - 0.5, -0.5],  # first card at the top
        zeroline=False,
    )
    figure.update_layout(height=max(320, 160 + 44 * len(labels)))
    return _layout(figure, "Power before and after (95% intervals)", "simulated power (Δ score)", "")


def selected_cards(figure: go.Figure, points: Sequence[Mapping[str, object]]) -> list[tuple[str, int]]:
    """(card name, sheet row) for each selected point that is a card (the formula line's points are not)."""
    picked: list[tuple[str, int]] = []
    for point in points:
        custom = point.get("customdata")
        if not isinstance(custom, (list, tuple)):
            curve = point.get("curve_number")
            index = point.get("point_index", point.get("point_number"))
            if not isinstance(curve, int) or not isinstance(index, int) or not 0 <= curve < len(figure.data):
                continue
            data = figure.data[curve].customdata
            if data is None or not 0 <= index < len(data):
                continue
            custom = list(data[index])
        if len(custom) >= 2 and isinstance(custom[0], str):
            try:
                card = (custom[0], int(custom[1]))
            except (TypeError, ValueError):
                continue
            if card not in picked:
                picked.append(card)
    return picked


def health_length_figure(health: GameHealth) -> go.Figure:
    """How many turns the health run's matches lasted (every pair of decks), with the healthy median's line and, when
    a match reached it, the turn cap."""
    figure = go.Figure(
        go.Bar(
            x=health.lengths["turns"],
            y=health.lengths["matches"],
            marker={"color": WINNER_COLOURS["A"]},
            name="matches",
            hovertemplate="%{x} turns: %{y:,} matches<extra></extra>",
        )
    )
    shortest = float(health.meta.get("thresholds", {}).get("min_median_turns", 0) or 0)
    if shortest:
        figure.add_vline(
            x=shortest - 0.5,
            line={"dash": "dash", "color": "#2ca02c"},
            annotation_text=f"healthy median from {shortest:g} turns",
            annotation_position="top right",
        )
    cap = health.meta.get("turn_cap")
    if cap is not None and float(health.length_summary["max"]) >= cap:
        figure.add_vline(x=cap, line={"dash": "dot", "color": "#d62728"}, annotation_text=f"turn cap {cap}")
    figure.update_xaxes(dtick=1 if float(health.length_summary["max"]) <= 30 else None)
    return _layout(figure, "Game length over every pair of decks", "turns (each player's turn counts one)", "matches")


OFF_LINE_COLOUR = "#d62728"
"""An attribute level whose interval misses the straight fit (the effect is not linear there)."""
ON_LINE_COLOUR = "#1f77b4"


def stat_value_curves_figure(values: StatValues) -> go.Figure:
    """Each attribute's curve from `stat_values` side by side: the mean power at each level (or bin) with its 95%
    interval, the other attributes at their design means, beside the straight fit's value there (dashed). A level
    whose interval misses the line is drawn in red: the attribute's worth is not a straight line there."""
    from plotly.subplots import make_subplots

    curves = values.curves
    attributes = list(dict.fromkeys(str(name) for name in curves["attribute"]))
    columns = max(1, min(3, len(attributes)))
    rows = max(1, math.ceil(len(attributes) / columns))
    figure = make_subplots(
        rows=rows,
        cols=columns,
        subplot_titles=[plotly_text(name) for name in attributes],
        shared_yaxes=True,
        horizontal_spacing=0.06,
        vertical_spacing=0.22 if rows > 1 else 0.1,
    )
    for index, attribute in enumerate(attributes):
        row, column = index // columns + 1, index % columns + 1
        frame = curves[curves["attribute"] == attribute]
        levels = [str(level) for level in frame["level"]]
        power = frame["power"].to_numpy(float)
        off = frame["off_line"].to_numpy(bool)
        hover = [
            f"{plotly_text(attribute)} {plotly_text(level)}: power {p:+.3f} (95% {low:+.3f} to {high:+.3f}), "
            f"{cards} design card(s); straight fit {line:+.3f}" + (" (off the line)" if o else "")
            for level, p, low, high, cards, line, o in zip(
                levels, power, frame["low"], frame["high"], frame["cards"], frame["line"], off, strict=True
            )
        ]
        figure.add_trace(
            go.Scatter(
                x=levels,
                y=power,
                mode="markers",
                name="measured, 95% interval",
                legendgroup="measured",
                showlegend=index == 0,
                marker={"color": [OFF_LINE_COLOUR if o else ON_LINE_COLOUR for o in off], "size": 9},
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": frame["high"].to_numpy(float) - power,
                    "arrayminus": power - frame["low"].to_numpy(float),
                },
                hovertext=hover,
                hoverinfo="text",
            ),
            row=row,
            col=column,
        )
        figure.add_trace(
            go.Scatter(
                x=levels,
                y=frame["line"].to_numpy(float),
                mode="lines",
                name="straight fit",
                legendgroup="line",
                showlegend=index == 0,
                line={"dash": "dash", "color": "#7f7f7f"},
                hoverinfo="skip",
            ),
            row=row,
            col=column,
        )
        figure.update_xaxes(type="category", row=row, col=column)
    if bool(curves["off_line"].any()):
        figure.add_trace(
            go.Scatter(
                x=[None],
                y=[None],
                mode="markers",
                name="interval misses the straight fit",
                marker={"color": OFF_LINE_COLOUR, "size": 9},
                hoverinfo="skip",
            )
        )
    title = f"What each attribute is worth in play: {values.meta.get('cardset', '')}, power per level"
    figure.update_layout(
        title=plotly_text(title),
        legend={"orientation": "h", "yanchor": "top", "y": -0.12 if rows > 1 else -0.25, "xanchor": "left", "x": 0},
        margin={"l": 60, "r": 20, "t": 80, "b": 90},
        height=320 * rows + 120,
        hovermode="closest",
        showlegend=True,
    )
    figure.update_yaxes(zeroline=False)
    figure.update_yaxes(title_text="power (score)", col=1)
    return figure
