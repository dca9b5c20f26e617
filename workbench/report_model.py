"""What a balance report holds, and its headline figures in words: the part every writer reads.

`BalanceReport` and the summary rows (`summary_rows`, `suggested_check_text`, ...) live here, below both writers:
`workbench.reports` (which builds a report and writes it as XLSX) and `workbench.report_html` (which writes it as
HTML) import them from here, and neither imports the other for them. `workbench.reports` re-exports every name, where
callers have always found them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from workbench.analysis import BASELINE, PowerCurve, threshold_text
from workbench.cards import CardSet, Deck
from workbench.diff import SetDiff
from workbench.full_game import RARELY_BOUGHT, FullGamePower, FullGames, GameTrace
from workbench.health import GameHealth
from workbench.judging import NO_COMPARATOR, ON_CURVE, OVER, UNDECIDED, UNDER
from workbench.rulesets.base import StatBudget
from workbench.simulate import MatchResults
from workbench.validate import Report
from workbench.verdicts import VerdictRuns

if TYPE_CHECKING:
    from workbench.propose import Proposals
    from workbench.stat_values import StatValues


VERDICT_COUNTS = (
    (OVER, "over-powered"),
    (UNDER, "under-powered"),
    (ON_CURVE, "on curve"),
    (UNDECIDED, "undecided (the run cannot tell)"),
    (NO_COMPARATOR, "no comparator at its cost"),
)
"""The summary's count of each verdict (`workbench.judging`), with its label."""


@dataclass
class BalanceReport:
    """Everything a balance report shows, computed once."""

    cardset: CardSet
    """The card set reported on."""
    decks: list[Deck]
    """The decks validated and simulated (the first is the power curve's reference deck)."""
    validation: Report
    """Every finding, with the options used."""
    stat_budget: StatBudget | None
    """The stat budget chart's data; None for a game priced by other means (e.g. star ratings)."""
    power: PowerCurve | None = None
    """Simulated power per card; None without an engine or decks."""
    matchups: pd.DataFrame | None = None
    """Every ordered pair of decks with win rates and intervals; None with fewer than two decks."""
    match: MatchResults | None = None
    """Deck 1 against deck 2 (or a mirror): first-player win rate and game lengths."""
    health: GameHealth | None = None
    """The game's own health over every ordered pair of the decks (workbench.health); None without simulation."""
    verdicts: VerdictRuns | None = None
    """The power curve run more than one way (per policy, hand-made vs auto decks), verdicts side by side; None when
    it ran once. `power` is then the run under the report's policy with the gauntlet asked for."""
    diff: SetDiff | None = None
    """Changes since the baseline version, when one was given."""
    full_game: FullGames | None = None
    """Whole games (`--option game=full`): final VP per seat with its parts and per round, the store on the buy-cost
    axis, game health; None for a tournament report."""
    full_game_power: FullGamePower | None = None
    """Each store card's power in the whole game on the buy-cost axis, with its verdict; None for a tournament
    report."""
    full_game_trace: GameTrace | None = None
    """Game 0 of the whole games, action by action (bounded: `workbench.full_game.TRACE_MAX_LINES`); None for a
    tournament report."""
    stat_values: StatValues | None = None
    """What each stat is worth in play beside the document's formula (`workbench.stat_values`), when it was measured
    and passed in; never run by the report itself (it is a designed experiment of its own)."""
    proposals: Proposals | None = None
    """Patch proposals with their proof runs (`workbench.propose`), when they were searched and passed in; never run
    by the report itself."""
    provenance: dict[str, Any] = field(default_factory=dict)
    """Ruleset and engine versions, options, seed, match counts, policy, card-set hash, workbench version, date."""
    notes: list[str] = field(default_factory=list)
    """What the report could not show and why (e.g. no engine for this game yet)."""


def summary_rows(report: BalanceReport) -> list[tuple[str, Any]]:
    """The headline figures, as (label, value) pairs, for the Summary sheet and the HTML header."""
    counts = report.validation.counts
    rows: list[tuple[str, Any]] = [
        ("card set", report.cardset.name),
        ("file", report.cardset.path),
        ("ruleset", f"{report.cardset.ruleset.title} ({report.cardset.ruleset.id} v{report.cardset.ruleset.version})"),
        ("cards", len(report.cardset)),
        ("decks", ", ".join(deck.name for deck in report.decks) or "none"),
        ("errors", counts["error"]),
        ("warnings", counts["warning"]),
        ("infos", counts["info"]),
    ]
    if report.power is not None:
        curve = report.power
        cards = curve.cards
        flags = cards["flag"].value_counts()
        fillers = cards.loc[cards["flag"] == BASELINE, "card"].tolist()
        rarely = curve.rarely_played
        rows += [
            # A filler is the baseline, power 0 by construction: not a judged card, not over, under or on curve; a
            # rarely played card's power is mostly the filler's matches, so it gets a verdict only when a clear one.
            ("cards judged", len(cards) - len(fillers) - len(rarely)),
        ]
        if curve.meta.get("tested") is not None:
            rows.append(("cards tested against a comparator", int(curve.meta["tested"])))
        rows += [(label, int(flags.get(flag, 0))) for flag, label in VERDICT_COUNTS]
        rows += [
            (
                f"rarely played (under {threshold_text(float(curve.meta['min_play_share']))} of matches, no clear "
                "verdict)",
                len(rarely),
            ),
            ("baseline (filler, not judged)", ", ".join(fillers) or "none"),
            ("reference deck score vs gauntlet", str(curve.baseline)),
            ("power against cost", curve.line_statement()),
            *verdict_rule_rows(curve),
        ]
        if report.power.meta.get("auto_decks"):
            rows.append(
                ("gauntlet", f"{report.power.meta['gauntlet_choice']}: {', '.join(report.power.meta['gauntlet'])}")
            )
    if report.verdicts is not None:
        rows += [
            ("verdicts compared", ", ".join(report.verdicts.labels)),
            ("verdict differs between runs", ", ".join(report.verdicts.sensitive_cards()) or "no card"),
        ]
    if report.match is not None:
        rows += [
            (
                f"{report.match.meta['deck_a']} vs {report.match.meta['deck_b']}: A win rate",
                str(report.match.win_rate_a),
            ),
            ("first-player win rate", str(report.match.first_player_win_rate)),
            ("mean game length (turns)", round(report.match.mean_turns, 2)),
        ]
    rows += full_game_summary_rows(report)
    if report.health is not None:
        warnings = report.health.warnings
        rows.append(("game health", f"{len(warnings)} warning(s)" if warnings else "no warnings"))
        rows += [("game health warning", warning) for warning in warnings]
    rows += [("note", note) for note in report.notes]
    return rows


def verdict_rule_rows(curve: PowerCurve) -> list[tuple[str, str]]:
    """The power curve's decision rule, the chance of a wrong flag and the matches that would decide the undecided
    cards, in words (the sentences `PowerCurve.statements` shows under the line's), as summary rows."""
    rows: list[tuple[str, str]] = []
    if curve.meta.get("verdict_rule"):
        rows.append(("verdict rule", curve.rule_statement()))
    if curve.meta.get("chance"):
        rows.append(("flags and chance", str(curve.meta["chance"])))
    second_look = curve.follow_up_statement()
    if second_look:
        rows.append(("second look", second_look))
    if curve.meta.get("planning"):
        rows.append(("matches to decide the undecided cards", str(curve.meta["planning"])))
    return rows


def suggested_check_text(check: Mapping[str, Any] | None, with_cost: bool = True) -> str:
    """A suggested cost's re-measurement in words (`PowerCurve.cards["suggested_check"]`), never the raw mapping:
    `at cost 3 (capped at the set's range): power +0.041 [+0.020, +0.062], within the tolerance`, without the cost's
    `at cost 3` part when `with_cost` is False (beside the suggested cost); empty for none."""
    if not isinstance(check, Mapping) or _finite(check.get("cost")) is None:
        return ""
    head = [f"at cost {float(check['cost']):g}"] if with_cost else []
    if check.get("capped"):
        head.append("capped at the set's range" if not with_cost else "(capped at the set's range)")
    words = " ".join(head) if with_cost else "; ".join(head)
    power, low, high = (_finite(check.get(key)) for key in ("power", "low", "high"))
    if power is not None:
        measured = f"power {power:+.3f}" + (
            f" [{low:+.3f}, {high:+.3f}]" if low is not None and high is not None else ""
        )
        words += f": {measured}" if with_cost else f"{'; ' if words else ''}measured again: {measured}"
    if check.get("landed") is not None:
        verdict = "within the tolerance" if check["landed"] else "still beyond the tolerance"
        words = f"{words}, {verdict}" if words else verdict
    return words


def _finite(value: Any) -> float | None:
    """A number as a float, or None for None, NaN or anything that is not a number."""
    if value is None or isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        return None
    number = float(value)
    return number if np.isfinite(number) else None


def full_game_summary_rows(report: BalanceReport) -> list[tuple[str, Any]]:
    """The whole game's headline figures (none for a tournament report)."""
    rows: list[tuple[str, Any]] = []
    games = report.full_game
    if games is not None:
        summary = games.summary
        rows.append(
            (
                "whole games",
                f"{summary['games']:,} games of {summary['players']} players, seed {summary['seed']}, policies "
                f"{', '.join(summary['policies'])}",
            )
        )
        table = games.seat_table()
        for _, seat in table.iterrows():
            rows.append((f"seat {seat['seat']} ({seat['policy']}): final VP", seat["total 95%"]))
        health = summary["health"]
        rows += [
            ("first seat's win share", f"{health['first_seat_win_share']:.1%} (fair {health['fair_win_share']:.1%})"),
            ("store cards never bought", f"{health['store_cards_never_bought_share']:.0%}"),
        ]
    power = report.full_game_power
    if power is not None:
        frame = power.frame()
        above = frame.loc[frame["sign"] == "above 0", "card"].tolist()
        below = frame.loc[frame["sign"] == "below 0", "card"].tolist()
        rare = power.flagged(RARELY_BOUGHT)
        rows += [
            ("power on buy cost: cards measured", len(frame)),
            ("power wholly above 0", ", ".join(above) or "none"),
            ("power wholly below 0", ", ".join(below) or "none"),
            ("over (above its buy cost's band)", ", ".join(power.flagged(OVER)) or "none"),
            ("under (below its buy cost's band)", ", ".join(power.flagged(UNDER)) or "none"),
            ("undecided (the run cannot tell)", ", ".join(power.flagged(UNDECIDED)) or "none"),
            ("no comparator at its buy cost", ", ".join(power.flagged(NO_COMPARATOR)) or "none"),
            (
                f"rarely bought by seat A (under {threshold_text(power.min_buy_share)} of games; no clear verdict)",
                ", ".join(rare) or "none",
            ),
            ("power against buy cost", power.line_statement()),
        ]
        # Whatever else the curve says (its decision rule, the chance of a wrong flag, the matches that would decide
        # the undecided cards, when it says them), beside the line; the rarely bought cards are listed above.
        shown = {power.line_statement(), power.rarely_bought_statement()}
        rows += [("power on buy cost, note", s) for s in power.statements() if s not in shown]
    if report.full_game_trace is not None:
        rows.append(("game 0's trace", report.full_game_trace.note()))
    return rows
