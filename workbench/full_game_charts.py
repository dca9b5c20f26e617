"""plotly figures of whole games (`workbench.full_game`): shared by the app's Balance page and the reports.

Kept beside `charts.py` rather than in it: these draw the whole game's frames (final VP and its parts per seat, VP per
round, power and a sweep on the buy-cost axis), which no other figure reads.
"""

from __future__ import annotations

import math

import plotly.graph_objects as go

from workbench.full_game import NO_INTERVAL, PARTS, RARELY_BOUGHT, FullGamePower, FullGames, FullGameSweep

PART_COLOURS = {
    "total": "#305496",
    "tournament": "#C55A11",
    "collections": "#548235",
    "money": "#BF9000",
    "friendship": "#7030A0",
}
"""One colour per part of the final score, the same in every chart."""


def _error(values: list[float], lows: list[float], highs: list[float]) -> dict[str, object]:
    """plotly error bars from a mean and its interval (none where the interval was not measured)."""
    plus = [0.0 if math.isnan(h) else h - v for v, h in zip(values, highs, strict=True)]
    minus = [0.0 if math.isnan(lo) else v - lo for v, lo in zip(values, lows, strict=True)]
    return {"type": "data", "symmetric": False, "array": plus, "arrayminus": minus}


def seat_parts_figure(games: FullGames) -> go.Figure:
    """Mean final VP per seat and each of its parts, bars grouped by seat, with 95% intervals."""
    frame = games.seat_frame()
    figure = go.Figure()
    for part in PARTS:
        rows = frame[frame["part"] == part]
        figure.add_trace(
            go.Bar(
                name=part,
                x=[f"{seat} ({policy})" for seat, policy in zip(rows["seat"], rows["policy"], strict=True)],
                y=list(rows["vp"]),
                marker_color=PART_COLOURS[part],
                error_y=_error(list(rows["vp"]), list(rows["low"]), list(rows["high"])),
                hovertemplate=f"{part}: %{{y:.1f}} VP<extra>%{{x}}</extra>",
            )
        )
    figure.update_layout(
        barmode="group",
        title=f"Final VP and its parts per seat ({games.meta['matches']:,} whole games, seed {games.meta['seed']}; "
        "95% intervals)",
        xaxis_title="seat",
        yaxis_title="mean VP",
        legend_title="part",
    )
    return figure


def rounds_figure(games: FullGames) -> go.Figure:
    """Tournament VP per round and seat (solid) and collection VP per round (dashed), with 95% intervals."""
    frame = games.round_frame()
    figure = go.Figure()
    for seat in dict.fromkeys(frame["seat"]):
        rows = frame[frame["seat"] == seat]
        figure.add_trace(
            go.Scatter(
                name=f"{seat} tournament",
                x=list(rows["round"]),
                y=list(rows["tournament"]),
                mode="lines+markers",
                error_y=_error(list(rows["tournament"]), list(rows["tournament_low"]), list(rows["tournament_high"])),
            )
        )
        collected = rows[rows["collections"].notna()]
        figure.add_trace(
            go.Scatter(
                name=f"{seat} collections",
                x=list(collected["round"]),
                y=list(collected["collections"]),
                mode="lines+markers",
                line={"dash": "dash"},
                error_y=_error(
                    list(collected["collections"]),
                    list(collected["collections_low"]),
                    list(collected["collections_high"]),
                ),
            )
        )
    figure.update_layout(
        title="VP per round: each tournament (solid) and the round's collection (dashed), 95% intervals",
        xaxis_title="round",
        yaxis_title="mean VP",
    )
    return figure


def buy_cost_power_figure(power: FullGamePower) -> go.Figure:
    """Each store card's power in the whole game against its buy cost, with 95% intervals, coloured by its verdict
    (as the tournament's power curve: over red, under blue, on curve grey, rarely bought hollow); the band it was
    judged against (the fitted line ± half a dollar where power rises with buy cost, else each buy cost's tier mean);
    zero drawn as a line. Cards of one buy cost are spread sideways so each can be hovered."""
    from workbench.charts import RARELY_PLAYED_MARKER, add_cost_line, flag_marker, hover_wrap, spread_offsets
    from workbench.markup import plotly_text

    frame = power.frame()
    figure = go.Figure()
    if not frame.empty and power.line.get("rises"):
        add_cost_line(
            figure,
            frame["buy_cost"].astype(float).tolist(),
            float(power.line["intercept"]),
            float(power.line["slope"]),
            "buy cost's band (± $0.5 on the line)",
            "fitted line (Theil-Sen, judged cards)",
        )
    offsets = spread_offsets(frame["buy_cost"].astype(float).tolist(), [0.0] * len(frame))
    frame = frame.assign(x=offsets)
    markers = {RARELY_BOUGHT: RARELY_PLAYED_MARKER, NO_INTERVAL: {**RARELY_PLAYED_MARKER, "color": "#7f7f7f"}}
    names = {RARELY_BOUGHT: f"{RARELY_BOUGHT} (not judged)", NO_INTERVAL: f"{NO_INTERVAL} (not judged)"}
    present = list(dict.fromkeys(str(flag) for flag in frame["flag"]))
    order = ("over", "under", "on curve", "undecided", "no comparator", RARELY_BOUGHT, NO_INTERVAL)
    for flag in [f for f in order if f in present] + [f for f in present if f not in order]:
        rows = frame[frame["flag"].astype(str) == flag]
        suggested = ["—" if v is None or v != v else f"{v:g}" for v in rows["suggested_buy_cost"]]
        figure.add_trace(
            go.Scatter(
                name=names.get(flag, flag),
                x=list(rows["x"]),
                y=list(rows["power"]),
                mode="markers",
                marker=markers.get(flag, flag_marker(flag)),
                error_y=_error(list(rows["power"]), list(rows["low"]), list(rows["high"])),
                customdata=list(
                    zip(
                        [plotly_text(str(card)) for card in rows["card"]],
                        [plotly_text(str(name)) for name in rows["set"]],
                        rows["stars"],
                        rows["buy_cost"],
                        ["—" if b is None or b != b else f"{b:.0%}" for b in rows["bought"]],
                        suggested,
                        [hover_wrap(str(reason)) for reason in rows["reason"]],
                        strict=True,
                    )
                ),
                hovertemplate="<b>%{customdata[0]}</b> (%{customdata[1]}, %{customdata[2]} stars)<br>buy cost "
                "%{customdata[3]}<br>power %{y:+.2f} VP<br>bought by seat A in %{customdata[4]} of games<br>"
                "suggested buy cost: %{customdata[5]}<br>why: %{customdata[6]}<extra>%{fullData.name}</extra>",
            )
        )
    if power.tiers and not power.line.get("rises"):
        figure.add_trace(
            go.Scatter(
                name="tier mean (judged cards of that buy cost)",
                x=[tier["buy_cost"] for tier in power.tiers],
                y=[tier["mean_power"] for tier in power.tiers],
                mode="markers",
                marker={"symbol": "diamond-open", "size": 14, "color": "#000"},
                error_y=_error(
                    [tier["mean_power"] for tier in power.tiers],
                    [tier["low"] for tier in power.tiers],
                    [tier["high"] for tier in power.tiers],
                ),
                hovertemplate="buy cost %{x}: mean power %{y:+.2f} VP<extra>tier mean</extra>",
            )
        )
    figure.add_hline(y=0, line_dash="dot", line_color="#888")
    figure.update_layout(
        title=f"Power in the whole game on the buy-cost axis ({power.meta['matches']:,} games per card, seed "
        f"{power.meta['seed']}; 95% intervals)",
        xaxis_title="buy cost (its set's store price)",
        yaxis_title=f"change in seat A's ({power.policy}) final VP",
    )
    return figure


def buy_cost_sweep_figure(sweep: FullGameSweep) -> go.Figure:
    """Copies of the card and of its set bought per game at each buy cost, and the share of games it was bought."""
    frame = sweep.frame()
    figure = go.Figure()
    figure.add_trace(
        go.Scatter(
            name=f"{sweep.card} bought per game",
            x=list(frame["buy_cost"]),
            y=list(frame["bought_per_game"]),
            mode="lines+markers",
        )
    )
    figure.add_trace(
        go.Scatter(
            name="its set bought per game",
            x=list(frame["buy_cost"]),
            y=list(frame["set_bought_per_game"]),
            mode="lines+markers",
            line={"dash": "dash"},
        )
    )
    figure.add_trace(
        go.Scatter(
            name="games with a copy bought (share)",
            x=list(frame["buy_cost"]),
            y=list(frame["games_with_a_copy_bought"]),
            mode="lines+markers",
            yaxis="y2",
            line={"dash": "dot"},
        )
    )
    stop = sweep.stops_at()
    if stop is not None:
        figure.add_vline(x=stop, line_dash="dot", line_color="#C00000", annotation_text="no longer bought")
    figure.update_layout(
        title=f"{sweep.card}: its set's buy cost swept ({sweep.meta['matches']:,} games per value, seed "
        f"{sweep.meta['seed']})",
        xaxis_title="buy cost",
        yaxis_title="copies bought from the store per game",
        yaxis2={"title": "share of games", "overlaying": "y", "side": "right", "range": [0, 1], "tickformat": ".0%"},
    )
    return figure
