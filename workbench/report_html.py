"""The balance report as one self-contained HTML file that opens offline.

The page is the template `html_templates/report.html` (one block per section); this module prepares what each
section shows as plain data (text, numbers in words, tables of cells) and renders it through
`workbench.html_render`, whose autoescape escapes every piece of user text (card names, rules text, deck names,
messages). plotly's JavaScript is embedded once, in the first figure; every later figure reuses it. Nothing is
loaded from outside the file (no CDN, no web fonts).

Layers: the report it lays out, `BalanceReport`, and its summary rows come from `workbench.report_model`, below this
module; `workbench.reports` (which builds reports and writes XLSX) imports this module, never the other way round.
"""

from __future__ import annotations

import math
import os
import shutil
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import plotly.graph_objects as go
from markupsafe import Markup

from workbench.analysis import BASELINE, RARELY_PLAYED, share_text, threshold_text
from workbench.cards import WorkbenchInputError, readable
from workbench.charts import (
    first_player_figure,
    game_length_histogram,
    health_length_figure,
    matchup_heatmap,
    power_change_figure,
    power_curve_figure,
    stat_budget_figure,
    stat_value_curves_figure,
)
from workbench.full_game import RARELY_BOUGHT, interval_text
from workbench.full_game_charts import buy_cost_power_figure, rounds_figure, seat_parts_figure
from workbench.html_render import render
from workbench.judging import UNDECIDED
from workbench.report_model import BalanceReport, suggested_check_text, summary_rows
from workbench.spreadsheets import write_text_atomically


def report_figures(report: BalanceReport) -> dict[str, go.Figure]:
    """Every chart the report shows, by file-friendly name, in the page's reading order (shared by HTML and PNG
    export; the HTML embeds plotly's JavaScript in the first)."""
    figures: dict[str, go.Figure] = {}
    if report.full_game is not None:
        figures["full_game_parts"] = seat_parts_figure(report.full_game)
        figures["full_game_rounds"] = rounds_figure(report.full_game)
    if report.full_game_power is not None:
        figures["full_game_power"] = buy_cost_power_figure(report.full_game_power)
    if report.health is not None:
        figures["health_game_length"] = health_length_figure(report.health)
    if report.stat_budget is not None and report.stat_budget.points:
        figures["stat_budget"] = stat_budget_figure(report.stat_budget, _worst_severity_by_card(report))
    if report.stat_values is not None:
        figures["stat_values"] = stat_value_curves_figure(report.stat_values)
    if report.power is not None:
        figures["power_curve"] = power_curve_figure(report.power, report.power.meta.get("cost_axis", "cost"))
    if report.matchups is not None:
        figures["matchups"] = matchup_heatmap(report.matchups)
    if report.match is not None:
        figures["first_player"] = first_player_figure(report.match)
        figures["game_length"] = game_length_histogram(report.match)
    if report.diff is not None and report.diff.power is not None and not report.diff.power.frame.empty:
        figures["power_changes"] = power_change_figure(report.diff.power)
    return figures


def write_pngs(report: BalanceReport, folder: str | Path) -> list[Path]:
    """Static PNG images of the report's charts, drawn by kaleido in Debian's chromium (never a downloaded browser)."""
    try:
        import kaleido  # noqa: F401 - an optional extra, looked for only when PNG images are asked for
    except ImportError:
        raise WorkbenchInputError(
            "PNG images need the kaleido package.",
            expected="pip install -e '.[png]' (HTML and XLSX reports need nothing more)",
        ) from None
    if "BROWSER_PATH" not in os.environ:
        found = shutil.which("chromium") or shutil.which("chromium-browser")
        if found is None:
            raise WorkbenchInputError(
                "PNG images are drawn by a Chrome, and none was found.",
                expected="apt-get install chromium, or BROWSER_PATH=/path/to/chrome",
            )
        os.environ["BROWSER_PATH"] = found
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    figures = report_figures(report)
    paths = [target / f"{name}.png" for name in figures]
    if figures:
        import plotly.io as pio

        pio.write_images(list(figures.values()), paths, width=1000, height=600)
    return paths


def render_html(report: BalanceReport) -> str:
    """The whole report as an HTML document (the template `html_templates/report.html`, one block per section)."""
    charts = _charts_html(report)
    return render(
        "report.html",
        title=report.cardset.name,
        stamp=_stamp(report.provenance),
        summary=_table(["figure", "value"], [row for row in summary_rows(report) if row[0] != "note"]),
        notes=report.notes,
        findings=_finding_groups(report),
        full_game=_full_game_section(report, charts),
        health=_health_section(report, charts),
        stat_budget_chart=charts.get("stat_budget"),
        power=_power_section(report, charts),
        verdicts=_verdicts_section(report),
        auto_decks=[
            AutoDeck(name, text.rstrip())
            for name, text in (report.power.meta.get("auto_decks", {}) if report.power is not None else {}).items()
        ],
        matchups=_matchups_section(report, charts),
        match=_match_section(report, charts),
        diff=_diff_section(report, charts),
        stat_values=_stat_values_section(report, charts),
        proposals=_proposals_section(report),
        options=_options_table(report),
        provenance=_table(["key", "value"], [(key, value) for key, value in report.provenance.items()]),
    )


def write_html(report: BalanceReport, out_path: str | Path) -> Path:
    """Write the report through a temporary file, so an interrupted write leaves the old file whole."""
    return write_text_atomically(render_html(report), out_path)


@dataclass(frozen=True)
class Cell:
    """One table cell, as the template writes it."""

    text: str
    """What the cell says, not yet escaped (the template escapes it)."""
    css_class: str = ""
    """The cell's class, which colours it (a power-curve flag: over, under, undecided, no-comparator, baseline,
    rarely-played); empty for none."""


@dataclass(frozen=True)
class Row:
    """One table row."""

    cells: list[Cell]
    """The row's cells, in the headers' order."""
    css_class: str = ""
    """The row's class, which colours it (a finding's severity, a health warning); empty for none."""


@dataclass(frozen=True)
class Table:
    """A table of the report (the `table` macro of `html_templates/_tables.html` draws it)."""

    headers: list[str]
    """The column headers."""
    rows: list[Row]
    """The rows, top to bottom."""


@dataclass(frozen=True)
class FindingGroup:
    """The findings of one severity and one rule, folded under one summary line."""

    severity: str
    """error, warning or info."""
    rule: str
    """The rule's id, as findings name it (souls.soul_cost)."""
    count: int
    """How many findings the group holds."""
    open: bool
    """Whether the group shows unfolded (errors and warnings do; info stays folded)."""
    table: Table
    """The findings, one row each, coloured by severity."""


@dataclass(frozen=True)
class HealthSection:
    """The game's own health (workbench.health), shown before any card's verdict."""

    decks: str
    """The decks played against each other, in words."""
    pairs: int
    """Ordered pairs of decks played."""
    matches_per_pair: str
    """Matches per pair, with thousands separators."""
    matches: str
    """Matches in all, with thousands separators."""
    seed: str
    """The run's seed."""
    policy: str
    """The play policy."""
    table: Table
    """Each figure with its status, what was measured and its healthy range."""
    mean: str
    """Mean game length in turns."""
    q1: str
    """First quartile of game length."""
    median: str
    """Median game length."""
    q3: str
    """Third quartile of game length."""
    shortest: str
    """Shortest game."""
    longest: str
    """Longest game."""
    chart: Markup
    """plotly's HTML of the game-length chart."""


@dataclass(frozen=True)
class FullGameSection:
    """Whole games (`game=full`): final VP per seat with its parts and per round, the store, power on buy cost."""

    games: str
    """How the games were played, in words (count, players, seed, policies); empty without games."""
    seeds: str
    """How each game's seed follows from the run's seed."""
    seats: Table | None
    """Per seat: final VP and each part with its 95% interval, dollars left, share of wins."""
    parts_chart: Markup | None
    """plotly's HTML of the parts per seat."""
    rounds: Table | None
    """Per seat and tournament: tournament VP and the round's collection VP, with intervals."""
    rounds_chart: Markup | None
    """plotly's HTML of VP per round."""
    health: Table | None
    """The whole game's health figures."""
    store: Table | None
    """Per store card on the buy-cost axis: buy cost, stars, copies, bought per game, opening value per dollar."""
    power: str
    """How power on the buy-cost axis was measured, in words; empty without it."""
    power_chart: Markup | None
    """plotly's HTML of power against buy cost."""
    power_table: Table | None
    """Per store card: buy cost, stars, power and its 95% interval, whether the interval lies off zero, seat A's
    bought share, the flag (over, under, on curve, undecided, no comparator, rarely bought), its stability and
    q-value when the rows carry them, the suggested buy cost and the reason."""
    power_statements: list[str]
    """What the fitted line says and which cards were too rarely bought to judge, in words."""
    trace: str
    """Game 0's trace, one event a line (bounded, `workbench.full_game.TRACE_MAX_LINES`); empty without it."""
    trace_note: str
    """What the trace is and what was left out of it, in words."""


@dataclass(frozen=True)
class VerdictsSection:
    """The power curve's verdicts per run (policy, gauntlet), side by side, and the auto decks it was played with."""

    statement: str
    """How many verdicts hinge on the policy or the gauntlet, in words."""
    table: Table
    """Each card's verdict and power per run, the cards whose verdict differs first."""


@dataclass(frozen=True)
class AutoDeck:
    """One auto deck of the run, as its decklist."""

    name: str
    """`auto 1`, `auto 2`, ..."""
    decklist: str
    """Its decklist text (as `workbench validate --deck` reads it back)."""


@dataclass(frozen=True)
class PowerSection:
    """The power curve: how it was measured, what it says, its chart and each card's row."""

    fillers: str
    """The filler card(s) replaced by each measured card, in words."""
    reference_deck: str
    """The deck(s) the copies go into, in words: "the reference deck NAME" or "each of the N auto decks"."""
    gauntlet: str
    """The decks it plays against, in words."""
    matches_per_card: str
    """Paired matches per card, with thousands separators."""
    baseline: str
    """The flag the filler carries (workbench.analysis.BASELINE)."""
    threshold: str
    """The play share under which a card is rarely played (5%)."""
    rarely_played: str
    """The flag of a card played too rarely to judge (workbench.analysis.RARELY_PLAYED)."""
    statements: list[str]
    """What the curve says, one note each (PowerCurve.statements)."""
    chart: Markup
    """plotly's HTML of the power-curve chart."""
    table: Table
    """Each card's power, interval, play shares, flag, stability, q-value, power minus its band (95%), the matches
    that would decide it, the suggested cost with its check, and the reason."""


@dataclass(frozen=True)
class MatchupsSection:
    """Deck against deck."""

    chart: Markup
    """plotly's HTML of the matchup heatmap."""
    table: Table
    """Each pair's win rate, interval and matches."""


@dataclass(frozen=True)
class MatchSection:
    """The first two decks' match: first-player advantage and game length."""

    deck_a: str
    """The first deck's name."""
    deck_b: str
    """The second deck's name."""
    first_player_win_rate: str
    """The first player's win rate with its interval, in words."""
    first_player_chart: Markup
    """plotly's HTML of the first-player chart."""
    game_length_chart: Markup
    """plotly's HTML of the game-length histogram."""


@dataclass(frozen=True)
class PowerChangesSection:
    """Power before and after a change, measured side by side."""

    chart: Markup
    """plotly's HTML of the power-change chart."""
    table: Table
    """Each changed card's cost and power before and after, and the verdict."""
    notes: list[str]
    """What the measurement says beyond the table."""


@dataclass(frozen=True)
class DiffSection:
    """Changes since the baseline set."""

    patch_notes: list[str]
    """The changes in words, one line each."""
    cost_changes: Table | None
    """Cards whose cost or stat budget changed; None when none did."""
    power: PowerChangesSection | None
    """The power before and after; None when it was not measured."""


@dataclass(frozen=True)
class StatValuesSection:
    """What each stat is worth in play, beside the cost formula."""

    heading: str
    """What the formula is called: `The document's formula`, or plasma's set-fitted line in place of one."""
    formula: str
    """The formula in words."""
    about: str
    """How it was measured: the design, the matches, the seed, the fit's quality."""
    statements: list[str]
    """The findings in words, most important first."""
    rates: Table
    """Each attribute's measured rate (score and cost units, 95% intervals) beside what the formula charges."""
    chart: Markup
    """plotly's HTML of the curves."""
    cost_probe: Table
    """A mid-stat card and the strongest card at each cost: their powers and play shares, and whether the cost is in
    play."""


@dataclass(frozen=True)
class ProposalSection:
    """One proposal proved on a new seed."""

    title: str
    """`Offered 1`, `Not offered 2`."""
    patch_notes: list[str]
    """Its changes in the workbench's diff format."""
    statement: str
    """Why it held up or did not."""
    verdicts: Table
    """The proof run's verdicts before and after, with their 95% intervals."""


@dataclass(frozen=True)
class ProposalsSection:
    """Patch proposals: the front, what held up in the proof run and what did not."""

    about: str
    """The search and proof runs' settings."""
    statements: list[str]
    """What to read first."""
    offered: list[ProposalSection]
    """The proposals that held up."""
    refused: list[ProposalSection]
    """The ones that did not, each with its reason."""
    front: Table
    """Every measured set no other beats on all four objectives."""


def _charts_html(report: BalanceReport) -> dict[str, Markup]:
    """Each chart's HTML by name: plotly's JavaScript is embedded once, in the first chart of the page (report_figures
    lists them in the page's order), and every later chart reuses it."""
    return {
        name: Markup(figure.to_html(full_html=False, include_plotlyjs=index == 0, config={"displaylogo": False}))
        for index, (name, figure) in enumerate(report_figures(report).items())
    }


class Flag(str):
    """A power-curve flag cell's text (over, under, undecided, no comparator, baseline, rarely played): its cell is
    coloured by its value."""


def _table(headers: list[str], rows: Iterable[Iterable[Any]]) -> Table:
    """A table of values in words (`workbench.cards.readable`: nothing is an empty cell, a list reads as words); a
    Flag's cell gets its value as class, spaces as hyphens."""
    return Table(
        headers,
        [
            Row([Cell(_text(value), value.replace(" ", "-") if isinstance(value, Flag) else "") for value in row])
            for row in rows
        ],
    )


def _finding_groups(report: BalanceReport) -> list[FindingGroup]:
    """The findings grouped by severity and rule, errors first, rules in alphabetical order."""
    by_group: dict[tuple[str, str], list[Any]] = defaultdict(list)
    for finding in report.validation.findings:
        by_group[(finding.severity, finding.rule)].append(finding)
    order = {"error": 0, "warning": 1, "info": 2}
    headers = ["card", "deck", "sheet", "row", "column", "message", "expected", "actual"]
    groups = []
    for (severity, rule), group in sorted(by_group.items(), key=lambda item: (order[item[0][0]], item[0][1])):
        rows = [
            Row(
                [
                    Cell(_text(value))
                    for value in (f.card, f.deck, f.sheet, f.row, f.column, f.message, f.expected, f.actual)
                ],
                severity,
            )
            for f in group
        ]
        groups.append(FindingGroup(severity, rule, len(group), severity != "info", Table(headers, rows)))
    return groups


def _health_section(report: BalanceReport, charts: dict[str, Markup]) -> HealthSection | None:
    """The game's own health: each figure with its healthy range, warnings marked, and the rule options that move
    them (workbench.health)."""
    health = report.health
    if health is None:
        return None
    meta = health.meta
    rows = []
    for figure in health.figures:
        status = "warning" if figure.warning else ("not measured" if not figure.measured else "healthy")
        words = figure.warning or figure.summary
        if figure.levers:
            words += ". Rule options measured to move it: " + "; ".join(figure.levers)
        cells = [figure.label, status, words, figure.healthy if figure.measured else ""]
        rows.append(Row([Cell(text) for text in cells], "warning" if figure.warning else ""))
    summary = health.length_summary
    return HealthSection(
        decks=", ".join(meta["decks"]),
        pairs=meta["pairs"],
        matches_per_pair=f"{meta['matches_per_pair']:,}",
        matches=f"{meta['matches']:,}",
        seed=str(meta["seed"]),
        policy=meta["policies"][0],
        table=Table(["figure", "status", "what was measured", "healthy range"], rows),
        mean=f"{summary['mean']:.1f}",
        q1=f"{summary['q1']:g}",
        median=f"{summary['median']:g}",
        q3=f"{summary['q3']:g}",
        shortest=f"{summary['min']:g}",
        longest=f"{summary['max']:g}",
        chart=charts["health_game_length"],
    )


def _full_game_section(report: BalanceReport, charts: dict[str, Markup]) -> FullGameSection | None:
    """The whole game's figures, or None for a tournament report."""
    games, power = report.full_game, report.full_game_power
    if games is None and power is None:
        return None
    seats = rounds = health = store = power_table = None
    text = seeds = power_text = ""
    statements: list[str] = []
    if games is not None:
        summary = games.summary
        text = (
            f"{summary['games']:,} whole games of {summary['players']} players, seed {summary['seed']}, seat A "
            f"playing {summary['policies'][0]} and the others {summary['policies'][-1]}; market version "
            f"{games.meta['market_version']}. Means over the games with 95% normal intervals."
        )
        seeds = (
            f"Game k plays from SeedSequence({summary['seed']}).spawn({summary['games']})[k]: the same seed gives the "
            "same games."
        )
        table = games.seat_table()
        seats = _table(
            ["seat", "policy", "final VP", "tournament", "collections", "money", "friendship", "$ left", "wins"],
            [
                (
                    row["seat"],
                    row["policy"],
                    row["total 95%"],
                    row["tournament 95%"],
                    row["collections 95%"],
                    row["money 95%"],
                    row["friendship 95%"],
                    f"{row['dollars_left']:.1f}",
                    f"{row['win_share']:.1%}",
                )
                for _, row in table.iterrows()
            ],
        )
        round_rows = games.round_frame()
        rounds = _table(
            ["seat", "round", "tournament VP", "collection VP"],
            [
                (
                    row["seat"],
                    row["round"],
                    interval_text(row["tournament"], row["tournament_low"], row["tournament_high"]),
                    interval_text(row["collections"], row["collections_low"], row["collections_high"]),
                )
                for _, row in round_rows.iterrows()
            ],
        )
        health = _table(
            ["figure", "value"],
            [(label, f"{value:.3g}" if isinstance(value, float) else value) for label, value in games.health_rows()],
        )
        store = _table(
            ["card", "set", "buy cost", "stars", "copies", "bought per game", "opening value per $"],
            [
                (
                    row["card"],
                    row["set"],
                    row["buy_cost"],
                    row["stars"],
                    row["copies"],
                    f"{row['bought_per_game']:.2f}",
                    f"{row['value_per_dollar']:.2f}",
                )
                for row in games.stores
            ],
        )
    if power is not None:
        power_text = (
            power.statement()[0].upper()
            + power.statement()[1:]
            + f". {power.meta['matches']:,} games per card each way, seed {power.meta['seed']}; 95% intervals from "
            "the per-game differences."
        )
        if any("q_value" in row for row in power.rows):
            # Decided by workbench.judging, as the tournament's power curve is.
            power_text += (
                " A card is over or under when it lies beyond its buy cost's band (the line of power on buy cost "
                "through the other judged cards, or the other judged cards of its buy cost when the line does not "
                "rise) by more than the tolerance, with the false-discovery rate controlled across the cards (its "
                "q-value); on curve when an equivalence test puts it within band and tolerance; undecided otherwise; "
                "no comparator when no other judged card shares its buy cost and the line does not rise. Stability is "
                "the share of resamples giving the same flag. A card seat A bought in fewer than "
                f"{threshold_text(power.min_buy_share)} of the games with its copies in the store is {RARELY_BOUGHT}: "
                "left out of the line, with a verdict only where it lies clearly beyond its band."
            )
        else:
            power_text += (
                " A card whose interval lies wholly above or below its buy cost's band (the fitted line of power on "
                "buy cost, or the other judged cards of its buy cost when the line does not rise) is over or under. A "
                f"card seat A bought in fewer than {threshold_text(power.min_buy_share)} of the games with its copies "
                f"in the store is {RARELY_BOUGHT}: not judged (no verdict, no suggested buy cost, left out of the "
                "line)."
            )
        statements = power.statements()
        frame = power.frame()
        # A whole game's rows carry stability and q-value once its verdicts are decided by workbench.judging.
        stability, q_value = "stability" in frame.columns, "q_value" in frame.columns
        power_table = _table(
            [
                "card",
                "set",
                "buy cost",
                "stars",
                "power (VP)",
                "95% interval",
                "against zero",
                "bought by seat A",
                "flag",
                *(["stability"] if stability else []),
                *(["q-value"] if q_value else []),
                "suggested buy cost",
                "why",
            ],
            [
                (
                    row.card,
                    row.set,
                    row.buy_cost,
                    row.stars,
                    f"{row.power:+.2f}",
                    "" if math.isnan(row.low) else f"[{row.low:+.2f}, {row.high:+.2f}]",
                    row.sign,
                    "" if row.bought is None or math.isnan(row.bought) else share_text(row.bought),
                    Flag(row.flag) if isinstance(row.flag, str) else "",
                    *([_percent(row.stability)] if stability else []),
                    *([_q_value(row.q_value)] if q_value else []),
                    ""
                    if row.suggested_buy_cost is None or row.suggested_buy_cost != row.suggested_buy_cost
                    else f"{row.suggested_buy_cost:g}",
                    row.reason if isinstance(row.reason, str) else "",
                )
                for row in frame.itertuples()
            ],
        )
    trace = report.full_game_trace
    return FullGameSection(
        games=text,
        seeds=seeds,
        seats=seats,
        parts_chart=charts.get("full_game_parts"),
        rounds=rounds,
        rounds_chart=charts.get("full_game_rounds"),
        health=health,
        store=store,
        power=power_text,
        power_chart=charts.get("full_game_power"),
        power_table=power_table,
        power_statements=statements,
        trace="\n".join(trace.lines) if trace is not None else "",
        trace_note=trace.note() if trace is not None else "",
    )


def _power_section(report: BalanceReport, charts: dict[str, Markup]) -> PowerSection | None:
    """The power curve: how it was measured, its statements, its chart and each card's row, cheapest first."""
    curve = report.power
    if curve is None:
        return None
    rows = []
    for row in curve.cards.sort_values(["cost", "power"]).itertuples():
        first = (
            ""
            if row.first_played_turn is None or row.first_played_turn != row.first_played_turn
            else f"{row.first_played_turn:.1f}"
        )
        rows.append(
            (
                row.card,
                f"{row.cost:g}",
                f"{row.power:+.3f}",
                f"[{row.low:+.3f}, {row.high:+.3f}]",
                _share(row.played),
                _share(row.drawn),
                first,
                _share(row.played_in_time),
                Flag(row.flag),
                _percent(getattr(row, "stability", None)),
                _q_value(getattr(row, "q_value", None)),
                _excess(row),
                _matches_to_decide(row),
                _suggested(row),
                row.reason,
            )
        )
    headers = [
        "card",
        "cost",
        "power",
        "95% interval",
        "played",
        "drawn",
        "first played (turn)",
        "played in time",
        "flag",
        "stability",
        "q-value",
        "power minus band (95%)",
        "matches to decide",
        "suggested cost (measured again)",
        "why",
    ]
    return PowerSection(
        fillers=", ".join(curve.meta["fillers"].values()),
        reference_deck=(
            f"the reference deck {curve.meta['reference_deck']}"
            if len(curve.meta.get("reference_decks", [])) <= 1
            else curve.meta["reference_deck"]
        ),
        gauntlet=", ".join(curve.meta["gauntlet"]),
        matches_per_card=f"{curve.meta['matches_per_card']:,}",
        baseline=BASELINE,
        threshold=threshold_text(float(curve.meta["min_play_share"])),
        rarely_played=RARELY_PLAYED,
        statements=curve.statements(stat_values=report.stat_values),
        chart=charts["power_curve"],
        table=_table(headers, rows),
    )


def _verdicts_section(report: BalanceReport) -> VerdictsSection | None:
    """The verdicts per run side by side (only when the power curve ran more than one way)."""
    runs = report.verdicts
    if runs is None:
        return None
    frame = runs.comparison()
    rows = [
        (
            row["card"],
            f"{row['cost']:g}",
            *[
                Flag(f"{row[f'flag · {label}']}") if isinstance(row[f"flag · {label}"], str) else "not measured"
                for label in runs.labels
            ],
            *[
                f"{row[f'power · {label}']:+.3f}" if isinstance(row[f"power · {label}"], float) else ""
                for label in runs.labels
            ],
            row["why"] or "same verdict",
        )
        for row in frame.to_dict(orient="records")
    ]
    headers = [
        "card",
        "cost",
        *[f"verdict, {label}" for label in runs.labels],
        *[f"power, {label}" for label in runs.labels],
        "why",
    ]
    return VerdictsSection(runs.statement(), _table(headers, rows))


def _matchups_section(report: BalanceReport, charts: dict[str, Markup]) -> MatchupsSection | None:
    if report.matchups is None:
        return None
    rows = [
        (r.deck, r.opponent, f"{r.win_rate:.1%}", f"{r.low:.1%} – {r.high:.1%}", f"{r.matches:,}")
        for r in report.matchups.itertuples()
    ]
    return MatchupsSection(
        charts["matchups"], _table(["deck", "opponent", "win rate", "95% interval", "matches"], rows)
    )


def _match_section(report: BalanceReport, charts: dict[str, Markup]) -> MatchSection | None:
    if report.match is None:
        return None
    return MatchSection(
        deck_a=report.match.meta["deck_a"],
        deck_b=report.match.meta["deck_b"],
        first_player_win_rate=str(report.match.first_player_win_rate),
        first_player_chart=charts["first_player"],
        game_length_chart=charts["game_length"],
    )


def _diff_section(report: BalanceReport, charts: dict[str, Markup]) -> DiffSection | None:
    diff = report.diff
    if diff is None:
        return None
    cost_changes = None
    if diff.cost_changes:
        cost_changes = _table(
            ["card", "cost before", "cost now", "budget before", "budget now"],
            [
                (c.card, _num(c.old_cost), _num(c.new_cost), _num(c.old_budget), _num(c.new_budget))
                for c in diff.cost_changes
            ],
        )
    power = None
    if diff.power is not None and len(diff.power.frame):
        rows = [
            (
                row.card,
                _num(row.old_cost),
                _num(row.new_cost),
                _interval(row.old_power, row.old_low, row.old_high),
                _interval(row.new_power, row.new_low, row.new_high),
                "" if math.isnan(row.change) else f"{row.change:+.3f}",
                row.verdict,
            )
            for row in diff.power.frame.itertuples()
        ]
        headers = ["card", "cost before", "cost now", "power before", "power now", "change", "verdict"]
        power = PowerChangesSection(charts["power_changes"], _table(headers, rows), list(diff.power.notes))
    return DiffSection(diff.patch_notes(), cost_changes, power)


def _stat_values_section(report: BalanceReport, charts: dict[str, Markup]) -> StatValuesSection | None:
    values = report.stat_values
    if values is None:
        return None
    meta = values.meta
    units = values.cost_units
    rates = _table(
        [
            "attribute",
            "one step",
            "score per step (95%)",
            f"{units} in play (95%)",
            f"formula charges ({units})",
            f"mispriced over its range ({units})",
        ],
        [
            (
                row.attribute,
                row.step,
                _interval(row.rate, row.low, row.high),
                "" if _number(row.in_cost) is None else _interval(row.in_cost, row.in_cost_low, row.in_cost_high),
                "" if _number(row.formula) is None else f"{row.formula:+.3f}",
                "" if _number(row.mispriced) is None else f"{row.mispriced:+.2f}",
            )
            for row in values.rates.itertuples()
        ],
    )
    levels = values.cost_levels
    strongest = "top_played" in levels.columns
    probe = _table(
        ["cost", "mid-stat card's power (95%)", "played", *(["strongest card played"] if strongest else []), "in play"],
        [
            (
                row.cost,
                _interval(row.power, row.low, row.high),
                _share(row.played),
                *([_share(row.top_played)] if strongest else []),
                "yes" if row.in_play else "no",
            )
            for row in levels.itertuples()
        ],
    )
    about = (
        f"{meta.get('design_cards')} synthetic cards (copies of {meta.get('base_card')} with their stats, cost and "
        f"keywords set by a seeded Latin hypercube) joined {meta.get('reference_deck')}, each measured by the power "
        f"curve's replacement test at {int(meta.get('matches_per_card', 0)):,} matches per card in "
        f"{meta.get('replicates')} independent runs (seed {meta.get('seed')}, policy {meta.get('policy')}); the 95% "
        "intervals come from the spread of the runs' fits plus the design's own share (a sandwich covariance of the "
        f"pooled fit: another seed draws other design cards). Straight fit: R² {values.r2:.2f}, residual scale "
        f"{values.scale:.2f} (1 = noise only) on {values.df} degrees of freedom."
    )
    return StatValuesSection(
        values.formula_heading,
        str(meta.get("formula", "")),
        about,
        list(values.statements),
        rates,
        charts["stat_values"],
        probe,
    )


def _proposal(title: str, proposal: Any) -> ProposalSection:
    rows = [
        (
            row.card,
            "yes" if row.changed else "",
            Flag(str(row.before_flag)),
            _interval(_float(row.before_power), _float(row.before_low), _float(row.before_high)),
            Flag(str(row.after_flag)),
            _interval(_float(row.after_power), _float(row.after_low), _float(row.after_high)),
        )
        for row in proposal.verdicts.itertuples()
    ]
    verdicts = _table(["card", "changed", "before", "power before (95%)", "after", "power after (95%)"], rows)
    return ProposalSection(title, list(proposal.patch_notes), proposal.statement, verdicts)


def _proposals_section(report: BalanceReport) -> ProposalsSection | None:
    proposals = report.proposals
    if proposals is None:
        return None
    search, proof = proposals.meta.get("search", {}), proposals.meta.get("proof", {})
    about = (
        f"Search: seed {search.get('seed')}, {int(search.get('matches_per_card') or 0):,} matches per card, policy "
        f"{search.get('policy')}, {proposals.evaluated} sets measured, tolerance {proposals.meta.get('tolerance')}. "
        + (
            f"Proof: a new seed {proof.get('seed')}, {int(proof.get('matches_per_card') or 0):,} matches per card; a "
            "proposal is offered only when the proof run confirms it."
            if proof.get("run")
            else "Proof: not run (no proposal to prove)."
        )
    )
    front = _table(
        ["changes", "cards changed", "total change", "over/under left", "mispricing left", "held up"],
        [
            (
                row.changes,
                row.cards_changed,
                f"{row.total_change:g}",
                row.flagged,
                f"{row.mispricing:.3f}",
                "" if row.held is None else ("yes" if row.held else "no"),
            )
            for row in proposals.front.itertuples()
        ],
    )
    return ProposalsSection(
        about,
        [statement for statement in proposals.statements if not statement.startswith("Not offered:")],
        [_proposal(f"Offered {n}", p) for n, p in enumerate(proposals.offered, start=1)],
        [_proposal(f"Not offered {n}", p) for n, p in enumerate(proposals.refused, start=1)],
        front,
    )


def _float(value: Any) -> float:
    """A figure as a float, NaN where there is none (so `_interval` leaves its cell empty)."""
    number = _number(value)
    return math.nan if number is None else number


def _options_table(report: BalanceReport) -> Table:
    """The rule options the report was made with, beside their defaults and the rule document's words."""
    ledger = {option.key: option for option in report.cardset.ruleset.options}
    return _table(
        ["option", "value", "default", "reading", "the document's words"],
        [
            (k, readable(v), readable(ledger[k].default), ledger[k].reading, ledger[k].quote)
            for k, v in report.validation.options.items()
        ],
    )


def _number(value: Any) -> float | None:
    """A figure of a table row as a float, or None where there is none (None, NaN, not a number)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _percent(share: Any) -> str:
    """A stability (a share of resamples) as a cell: 96%, or empty when there is none."""
    number = _number(share)
    return "" if number is None else f"{number:.0%}"


def _q_value(q: Any) -> str:
    """A Benjamini-Hochberg q-value as a cell: 0.031, < 0.001, or empty for a card not tested."""
    number = _number(q)
    if number is None:
        return ""
    return "< 0.001" if number < 0.001 else f"{number:.3f}"


def _excess(row: Any) -> str:
    """Power minus the band's centre with its 95% interval (card and band together), or empty without a band."""
    excess = _number(getattr(row, "excess", None))
    low, high = _number(getattr(row, "excess_low", None)), _number(getattr(row, "excess_high", None))
    if excess is None:
        return ""
    return f"{excess:+.3f}" if low is None or high is None else f"{excess:+.3f} [{low:+.3f}, {high:+.3f}]"


def _matches_to_decide(row: Any) -> str:
    """The matches per card that would decide an undecided card; for one more matches alone cannot decide, says so."""
    needed = _number(getattr(row, "matches_to_decide", None))
    if needed is not None:
        return f"{int(needed):,}"
    return "not by matches alone" if row.flag == UNDECIDED else ""


def _suggested(row: Any) -> str:
    """The suggested cost with its check (measured again at that cost), or the check that dropped it."""
    cost = _number(row.suggested_cost)
    check = getattr(row, "suggested_check", None)
    if cost is None:
        dropped = suggested_check_text(check)
        return f"none ({dropped})" if dropped else ""
    measured = suggested_check_text(check, with_cost=False)
    return f"{cost:g} ({measured})" if measured else f"{cost:g}"


def _share(share: float | None) -> str:
    """A play share as a cell: 40%, 0.1%, or empty when the engine keeps no per-match counters."""
    return "" if share is None or share != share else share_text(float(share))


def _worst_severity_by_card(report: BalanceReport) -> dict[str, str]:
    order = {"error": 0, "warning": 1, "info": 2}
    worst: dict[str, str] = {}
    for finding in report.validation.findings:
        if finding.card and finding.deck is None:
            current = worst.get(finding.card)
            if current is None or order[finding.severity] < order[current]:
                worst[finding.card] = finding.severity
    return worst


def _stamp(provenance: dict[str, Any]) -> str:
    keys = (
        "ruleset",
        "ruleset_version",
        "engine_version",
        "market_version",
        "seed",
        "games",
        "games_per_card",
        "matches_per_card",
        "policy",
        "cardset_hash",
        "workbench_version",
        "date",
    )
    return "; ".join(f"{key.replace('_', ' ')} {provenance[key]}" for key in keys if provenance.get(key) is not None)


def _num(value: float | None) -> str:
    return "" if value is None or math.isnan(value) else f"{value:g}"


def _interval(value: float, low: float, high: float) -> str:
    """`+0.012 [-0.004, +0.028]`, or empty for a side that was not measured (NaN)."""
    return "" if math.isnan(value) else f"{value:+.3f} [{low:+.3f}, {high:+.3f}]"


def _text(value: Any) -> str:
    """A cell's text: nothing is an empty cell, lists and mappings in words (`workbench.cards.readable`)."""
    return readable(value)
