"""The balance report as one self-contained HTML file that opens offline.

plotly's JavaScript is embedded once, in the first figure; every later figure
reuses it. Nothing is loaded from outside the file (no CDN, no web fonts), and
every piece of user text (card names, rules text, deck names, messages) is
escaped.
"""

from __future__ import annotations

import math
from collections import defaultdict
from html import escape
from pathlib import Path
from typing import Any

import plotly.graph_objects as go

from workbench.charts import (
    first_player_figure,
    game_length_histogram,
    matchup_heatmap,
    power_change_figure,
    power_curve_figure,
    stat_budget_figure,
)
from workbench.analysis import BASELINE, RARELY_PLAYED, share_text, threshold_text
from workbench.cards import WorkbenchInputError, readable
from workbench.charts import health_length_figure
from workbench.health import health_lines
from workbench.reports import BalanceReport, summary_rows
from workbench.spreadsheets import write_text_atomically

STYLE = """
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; margin: 2rem auto; max-width: 1100px;
       color: #222; line-height: 1.45; padding: 0 1rem; }
h1 { margin-bottom: .2rem; } h2 { border-bottom: 2px solid #305496; padding-bottom: .2rem; margin-top: 2.2rem; }
table { border-collapse: collapse; margin: .6rem 0; font-size: .92rem; }
th, td { border: 1px solid #ccd; padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: #305496; color: #fff; }
tr.error td { background: #fbe3da; } tr.warning td { background: #fff3cd; }
td.over { background: #fbe3da; } td.under { background: #ddebf7; } td.baseline { background: #ececec; font-style: italic; } td.rarely-played { background: #fff2cc; font-style: italic; }
.stamp { color: #555; font-size: .85rem; } .note { background: #f3f3f3; padding: .5rem .8rem; border-left: 4px solid #999; }
details summary { cursor: pointer; font-weight: 600; margin: .4rem 0; }
"""


class _Figures:
    """Embeds plotly's JavaScript with the first figure only."""

    def __init__(self) -> None:
        self.first = True

    def html(self, figure: go.Figure) -> str:
        include = self.first
        self.first = False
        return figure.to_html(full_html=False, include_plotlyjs=include, config={"displaylogo": False})


def report_figures(report: BalanceReport) -> dict[str, go.Figure]:
    """Every chart the report shows, by file-friendly name, in reading order (shared by HTML and PNG export)."""
    figures: dict[str, go.Figure] = {}
    if report.stat_budget is not None and report.stat_budget.points:
        figures["stat_budget"] = stat_budget_figure(report.stat_budget, _worst_severity_by_card(report))
    if report.health is not None:
        figures["health_game_length"] = health_length_figure(report.health)
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
    import os
    import shutil

    try:
        import kaleido  # noqa: F401
    except ImportError:
        raise WorkbenchInputError(
            "PNG images need the kaleido package.", expected="pip install -e '.[png]' (HTML and XLSX reports need nothing more)"
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
    """The whole report as an HTML document."""
    figures = _Figures()
    charts = report_figures(report)
    ruleset = report.cardset.ruleset
    parts: list[str] = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Balance report: {escape(report.cardset.name)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Balance report: {escape(report.cardset.name)}</h1>",
        f'<p class="stamp">{escape(_stamp(report.provenance))}</p>',
        "<h2>Summary</h2>",
        _table(["figure", "value"], [row for row in summary_rows(report) if row[0] != "note"]),
    ]
    parts += [f'<p class="note">{escape(note)}</p>' for note in report.notes]

    parts.append("<h2>Findings</h2>")
    parts.append(_findings_html(report))

    if report.health is not None:
        parts.append("<h2>Game health</h2>")
        parts.append(_health_html(report))
        parts.append(figures.html(charts["health_game_length"]))

    parts.append("<h2>Stat budget</h2>")
    if "stat_budget" in charts:
        parts.append(figures.html(charts["stat_budget"]))
    else:
        parts.append("<p>No stat budget chart for this set.</p>")

    if report.power is not None:
        curve = report.power
        parts.append("<h2>Power curve</h2>")
        parts.append(
            "<p>A card's power is the change in score (win 1, draw ½) when 3 copies of it replace the filler "
            f"({escape(', '.join(curve.meta['fillers'].values()))}) in the reference deck "
            f"{escape(curve.meta['reference_deck'])}, against the gauntlet "
            f"{escape(', '.join(curve.meta['gauntlet']))}; 95% interval from {curve.meta['matches_per_card']:,} "
            "paired matches per card. The filler is the baseline (power 0 by construction): it is marked "
            f"<i>{BASELINE}</i>, gets no verdict and stays out of the fitted line, the tier means and the counts. "
            "<i>played</i> and <i>drawn</i> are the shares of a card's matches in which its side played or drew a "
            f"copy; a card played in fewer than {threshold_text(float(curve.meta['min_play_share']))} of them is "
            f"<i>{RARELY_PLAYED}</i>: its power is mostly the filler's matches, so it is not judged either.</p>"
        )
        parts += [f'<p class="note">{escape(statement)}</p>' for statement in curve.statements()]
        parts.append(figures.html(charts["power_curve"]))
        rows = []
        for row in curve.cards.sort_values(["cost", "power"]).itertuples():
            suggested = "" if row.suggested_cost is None or row.suggested_cost != row.suggested_cost else f"{row.suggested_cost:g}"
            first = "" if row.first_played_turn is None or row.first_played_turn != row.first_played_turn else f"{row.first_played_turn:.1f}"
            rows.append(
                (
                    row.card, f"{row.cost:g}", f"{row.power:+.3f}", f"[{row.low:+.3f}, {row.high:+.3f}]",
                    _share(row.played), _share(row.drawn), first, _Flag(row.flag), suggested, row.reason,
                )
            )
        parts.append(
            _table(
                ["card", "cost", "power", "95% interval", "played", "drawn", "first played (turn)", "flag", "suggested cost", "why"],
                rows,
            )
        )

    if report.matchups is not None:
        parts.append("<h2>Matchups</h2>")
        parts.append(figures.html(charts["matchups"]))
        parts.append(
            _table(
                ["deck", "opponent", "win rate", "95% interval", "matches"],
                [
                    (r.deck, r.opponent, f"{r.win_rate:.1%}", f"{r.low:.1%} – {r.high:.1%}", f"{r.matches:,}")
                    for r in report.matchups.itertuples()
                ],
            )
        )

    if report.match is not None:
        parts.append("<h2>First player and game length</h2>")
        parts.append(
            f"<p>{escape(report.match.meta['deck_a'])} vs {escape(report.match.meta['deck_b'])}: first-player win rate "
            f"{escape(str(report.match.first_player_win_rate))}.</p>"
        )
        parts.append(figures.html(charts["first_player"]))
        parts.append(figures.html(charts["game_length"]))

    if report.diff is not None:
        parts.append("<h2>Changes since the baseline</h2>")
        notes = report.diff.patch_notes()
        parts.append("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in notes) + "</ul>" if notes else "<p>No changes.</p>")
        if report.diff.cost_changes:
            parts.append(
                _table(
                    ["card", "cost before", "cost now", "budget before", "budget now"],
                    [(c.card, _num(c.old_cost), _num(c.new_cost), _num(c.old_budget), _num(c.new_budget)) for c in report.diff.cost_changes],
                )
            )
        power = report.diff.power
        if power is not None and len(power.frame):
            parts.append(
                "<p>Power before and after, measured side by side in today's set (the old version of each card joins "
                "the set under its old name + \" (before)\"), with 95% intervals; a verdict other than \"within noise\" "
                "needs the two intervals apart.</p>"
            )
            parts.append(figures.html(charts["power_changes"]))
            parts.append(
                _table(
                    ["card", "cost before", "cost now", "power before", "power now", "change", "verdict"],
                    [
                        (
                            row.card,
                            _num(row.old_cost),
                            _num(row.new_cost),
                            _interval(row.old_power, row.old_low, row.old_high),
                            _interval(row.new_power, row.new_low, row.new_high),
                            "" if math.isnan(row.change) else f"{row.change:+.3f}",
                            row.verdict,
                        )
                        for row in power.frame.itertuples()
                    ],
                )
            )
            parts.extend(f"<p>{escape(note)}</p>" for note in power.notes)

    parts.append("<h2>Rule options</h2>")
    ledger = {option.key: option for option in ruleset.options}
    parts.append(
        _table(
            ["option", "value", "default", "reading", "the document's words"],
            [(k, readable(v), readable(ledger[k].default), ledger[k].reading, ledger[k].quote) for k, v in report.validation.options.items()],
        )
    )
    parts.append("<h2>Provenance</h2>")
    parts.append(_table(["key", "value"], [(k, _text(v)) for k, v in report.provenance.items()]))
    parts.append("</body></html>")
    return "\n".join(parts)


def write_html(report: BalanceReport, out_path: str | Path) -> Path:
    """Write the report through a temporary file, so an interrupted write leaves the old file whole."""
    return write_text_atomically(render_html(report), out_path)


class _Flag(str):
    """A power-curve flag cell, coloured by its value."""


def _share(share: float | None) -> str:
    """A play share as a cell: 40%, 0.1%, or empty when the engine keeps no per-match counters."""
    return "" if share is None or share != share else share_text(float(share))


def _table(headers: list[str], rows: Any) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = []
    for row in rows:
        cells = []
        for value in row:
            css = f' class="{escape(value.replace(" ", "-"))}"' if isinstance(value, _Flag) else ""
            cells.append(f"<td{css}>{escape(_text(value))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _health_html(report: BalanceReport) -> str:
    """The game's own health: each figure with its healthy range, warnings marked, and the rule options that move
    them (workbench.health)."""
    health = report.health
    assert health is not None
    meta = health.meta
    intro = (
        f"<p>Every ordered pair of the decks {escape(', '.join(meta['decks']))} ({meta['pairs']} pairs, mirrors "
        f"included, each deck in both seats, the first player alternating), {meta['matches_per_pair']:,} matches per "
        f"pair ({meta['matches']:,} in all), seed {meta['seed']}, policy {escape(meta['policies'][0])}. Shown before "
        "any card's verdict: a degenerate game makes every card's figure meaningless. The figures follow Ludii's "
        "game metrics (AdvantageP1, Balance, DurationTurns, Timeouts, Drawishness).</p>"
    )
    rows = []
    for figure in health.figures:
        status = "warning" if figure.warning else ("not measured" if not figure.measured else "healthy")
        words = figure.warning or figure.summary
        if figure.levers:
            words += ". Rule options measured to move it: " + "; ".join(figure.levers)
        rows.append(
            f'<tr class="{"warning" if figure.warning else ""}"><td>{escape(figure.label)}</td><td>{escape(status)}</td>'
            f"<td>{escape(words)}</td><td>{escape(figure.healthy if figure.measured else '')}</td></tr>"
        )
    head = "".join(f"<th>{h}</th>" for h in ("figure", "status", "what was measured", "healthy range"))
    summary = health.length_summary
    length = (
        f"<p>Game length: mean {summary['mean']:.1f} turns, quartiles {summary['q1']:g} / {summary['median']:g} / "
        f"{summary['q3']:g}, shortest {summary['min']:g}, longest {summary['max']:g}.</p>"
    )
    return intro + f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>" + length


def _findings_html(report: BalanceReport) -> str:
    findings = report.validation.findings
    if not findings:
        return "<p>No findings: every card fits its cost formula and every deck its construction rules.</p>"
    by_group: dict[tuple[str, str], list[Any]] = defaultdict(list)
    for finding in findings:
        by_group[(finding.severity, finding.rule)].append(finding)
    order = {"error": 0, "warning": 1, "info": 2}
    out = []
    for (severity, rule), group in sorted(by_group.items(), key=lambda item: (order[item[0][0]], item[0][1])):
        rows = "".join(
            f'<tr class="{severity}">'
            + "".join(
                f"<td>{escape(_text(value))}</td>"
                for value in (f.card, f.deck, f.sheet, f.row, f.column, f.message, f.expected, f.actual)
            )
            + "</tr>"
            for f in group
        )
        head = "".join(f"<th>{h}</th>" for h in ("card", "deck", "sheet", "row", "column", "message", "expected", "actual"))
        out.append(
            f"<details{' open' if severity != 'info' else ''}><summary>{escape(severity)} · {escape(rule)} "
            f"({len(group)})</summary><table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></details>"
        )
    return "\n".join(out)


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
    keys = ("ruleset", "ruleset_version", "engine_version", "seed", "matches_per_card", "policy", "cardset_hash", "workbench_version", "date")
    return "; ".join(f"{key.replace('_', ' ')} {provenance[key]}" for key in keys if provenance.get(key) is not None)


def _num(value: float | None) -> str:
    return "" if value is None or math.isnan(value) else f"{value:g}"


def _interval(value: float, low: float, high: float) -> str:
    """`+0.012 [-0.004, +0.028]`, or empty for a side that was not measured (NaN)."""
    return "" if math.isnan(value) else f"{value:+.3f} [{low:+.3f}, {high:+.3f}]"


def _text(value: Any) -> str:
    """A cell's text: nothing is an empty cell, lists and mappings in words (`workbench.cards.readable`)."""
    return readable(value)
