"""Balance reports a team reads without the app: one object, written as XLSX or self-contained HTML.

`build_report` gathers every figure once (findings, stat budget, power curve,
matchups, first-player rate and game lengths, an optional set-version diff)
with their provenance; the writers only lay them out. A game without an engine
gets a report of its findings and stat budget, and says plainly that it has no
simulated figures.

Layers: what a report holds and its summary rows live below both writers, in `workbench.report_model` (re-exported
here); the HTML writer, `workbench.report_html`, reads them there and never imports this module, which imports it
only to write an .html file.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import openpyxl
import pandas as pd
from openpyxl.styles import PatternFill

from workbench import __version__
from workbench.analysis import (
    BASELINE,
    POWER_CURVE_DEFAULTS,
    RARELY_PLAYED,
    PowerCurve,
    matchup_matrix,
)
from workbench.auto_decks import HAND_MADE, GauntletChoice
from workbench.cards import CardSet, Deck, OptionValue, WorkbenchInputError, readable
from workbench.diff import diff_cardsets, with_power_changes
from workbench.full_game import (
    FULL_GAME_DEFAULTS,
    NO_INTERVAL,
    RARELY_BOUGHT,
    FullGamePower,
    FullGames,
    GameTrace,
    full_game_power,
    is_full_game,
    report_trace,
    run_full_games,
)
from workbench.health import GameHealth, game_health
from workbench.judging import NO_COMPARATOR, OVER, UNDECIDED, UNDER, VerdictRule
from workbench.report_model import (  # noqa: F401 - the report's model and summary rows are read from here too
    VERDICT_COUNTS,
    BalanceReport,
    full_game_summary_rows,
    suggested_check_text,
    summary_rows,
    verdict_rule_rows,
)
from workbench.run_settings import Progress, RunSettings
from workbench.simulate import MatchResults, simulate
from workbench.spreadsheets import append_row, style_header, write_workbook_atomically
from workbench.validate import validate
from workbench.verdicts import RunKey, VerdictRuns, power_curve_runs

if TYPE_CHECKING:
    from workbench.propose import Proposals
    from workbench.stat_values import StatValues

SEVERITY_FILLS = {
    "error": PatternFill("solid", fgColor="F8CBAD"),
    "warning": PatternFill("solid", fgColor="FFE699"),
}
FLAG_FILLS = {
    OVER: PatternFill("solid", fgColor="F8CBAD"),
    UNDER: PatternFill("solid", fgColor="BDD7EE"),
    UNDECIDED: PatternFill("solid", fgColor="E4DFEC"),
    NO_COMPARATOR: PatternFill("solid", fgColor="EDEDED"),
    BASELINE: PatternFill("solid", fgColor="D9D9D9"),
    RARELY_PLAYED: PatternFill("solid", fgColor="FFF2CC"),
    RARELY_BOUGHT: PatternFill("solid", fgColor="FFF2CC"),
    NO_INTERVAL: PatternFill("solid", fgColor="D9D9D9"),
}
WHOLE_GAME_WIDTHS = {"reason": 90, "card": 26, "set": 22}
"""Column widths of the whole game's sheets where the header's length would make them too narrow."""
EXACT_INTEGER_LIMIT = 2**53
"""Whole numbers beyond this lose digits in a spreadsheet (a cell holds a double), so they are written as text."""
TEXT_COLUMNS = frozenset({"seed"})
"""Columns written as text whatever their size: a seed is an identifier to copy back, not a number to sum."""
POWER_COLUMNS = {
    "card": 26,
    "cost": 8,
    "power": 9,
    "low": 9,
    "high": 9,
    "win_rate": 9,
    "played": 9,
    "drawn": 9,
    "first_played_turn": 10,
    "played_in_time": 14,
    "turns_left": 14,
    "flag": 14,
    "stability": 10,
    "q_value": 9,
    "comparator": 12,
    "comparator_cards": 30,
    "band_low": 10,
    "band_high": 10,
    "excess": 9,
    "excess_low": 11,
    "excess_high": 11,
    "detectable": 11,
    "matches_to_decide": 12,
    "suggested_cost": 10,
    "suggested_check": 60,
    "reason": 90,
    "copies": 8,
    "note": 30,
}
"""The Power sheet's columns (`PowerCurve.cards`), in order, with their widths: a column the curve lacks is left out.
`stability` is a share (shown as a percentage), `excess` / `excess_low` / `excess_high` power minus the band's centre
with its 95% interval, `suggested_check` the re-measurement of the suggested cost in words (`suggested_check_text`)."""
NUMBER_FORMATS = {
    "played": "0.0%",
    "drawn": "0.0%",
    "stability": "0%",
    "q_value": "0.000",
    "band_low": "+0.000;-0.000;0.000",
    "band_high": "+0.000;-0.000;0.000",
    "excess": "+0.000;-0.000;0.000",
    "excess_low": "+0.000;-0.000;0.000",
    "excess_high": "+0.000;-0.000;0.000",
    "detectable": "0.000",
    "matches_to_decide": "#,##0",
}
"""How the Power sheet shows its figures (the cell keeps the full number)."""


def build_report(
    cardset: CardSet,
    decks: Sequence[Deck] = (),
    run: RunSettings = RunSettings(),
    *,
    matches_per_card: int = POWER_CURVE_DEFAULTS.matches_per_card,
    matches: int = POWER_CURVE_DEFAULTS.matches_per_pair,
    baseline: CardSet | None = None,
    min_play_share: float = POWER_CURVE_DEFAULTS.min_play_share,
    also_policies: Sequence[str] = (),
    gauntlet: GauntletChoice = HAND_MADE,
    full_games: int | None = None,
    full_games_per_card: int | None = None,
    full_min_buy_share: float | None = None,
    rule: VerdictRule | None = None,
    stat_values: StatValues | None = None,
    proposals: Proposals | None = None,
) -> BalanceReport:
    """Validate, chart and (where the game has an engine and decks are given) simulate, with one seed.

    `stat_values` and `proposals`, when given, are results already measured (`workbench.stat_values.stat_values`,
    `workbench.propose.propose`: each a long run of its own, never started here) that the report shows in sections
    of their own.

    With rule options that ask for whole games (`game=full`, `workbench.full_game`), the simulated figures are whole
    games instead of matches between decks: `full_games` games (default `FULL_GAME_DEFAULTS.games`) and the power on
    the buy-cost axis at `full_games_per_card` games per card (default `FULL_GAME_DEFAULTS.games_per_card`), a card
    seat A bought in fewer than `full_min_buy_share` of them (default `FULL_GAME_DEFAULTS.min_buy_share`) being
    `rarely bought`; the report also holds game 0's trace (`full_game_trace`, at most `TRACE_MAX_LINES` lines).

    `rule` decides the verdicts (`workbench.judging`; default: the tolerance of `POWER_CURVE_DEFAULTS`, and for whole
    games `FULL_GAME_DEFAULTS.tolerance_vp`). A card played in fewer than `min_play_share` of its power-curve
    matches is `rarely played` unless clearly over or under. With
    `also_policies` or an auto `gauntlet`, the power curve also runs those ways and the report compares the verdicts
    (`workbench.verdicts`); every other figure is played under `run.policy`. `matches_per_card` sets the power
    curves, `matches` the game's health, the matchup matrix (per ordered pair) and the match of the first two decks."""
    ruleset = cardset.ruleset
    seed, policy = run.seed, run.policy
    resolved = ruleset.resolve_options(run.options)
    played = replace(run, options=resolved)
    deck_list = list(decks)
    report = BalanceReport(
        cardset=cardset,
        decks=deck_list,
        validation=validate(cardset, deck_list, resolved),
        stat_budget=ruleset.stat_budget(cardset, resolved) if ruleset.stat_budget else None,
        diff=diff_cardsets(baseline, cardset, resolved) if baseline is not None else None,
        stat_values=stat_values,
        proposals=proposals,
    )
    if report.stat_budget is None:
        report.notes.append(
            f"{ruleset.title} prices cards by other means than a stat budget, so there is no stat budget chart."
        )
    engine = ruleset.engine
    if is_full_game(ruleset, resolved):
        return _with_full_game(report, run, full_games, full_games_per_card, baseline, full_min_buy_share, rule)
    simulated = engine is not None and bool(deck_list) and not report.validation.has_errors
    if engine is None:
        report.notes.append(f"{ruleset.title} has no match engine yet, so this report has no simulated figures.")
    elif not deck_list:
        report.notes.append("No decks were given, so this report has no simulated figures.")
    elif report.validation.has_errors:
        report.notes.append("The set or a deck has errors; simulated figures are left out until they are fixed.")
    changed_cards = (
        0 if report.diff is None else len(report.diff.changed) + len(report.diff.added) + len(report.diff.removed)
    )
    stages = _Stages(
        run.progress,
        [
            matches_per_card * (len(cardset) + 1),
            matches * len(deck_list) ** 2,
            matches,
            matches_per_card * (2 * changed_cards + 1),
            matches * len(deck_list) ** 2,
        ],
    )
    if simulated:
        # The game's health first: a degenerate game makes every card's figure below meaningless.
        report.health = game_health(cardset, deck_list, matches, played.reporting(stages.stage(4)))
        runs = power_curve_runs(
            cardset,
            deck_list,
            list(dict.fromkeys([policy, *also_policies])),
            gauntlet,
            matches_per_card,
            played.reporting(stages.stage(0)),
            min_play_share=min_play_share,
            rule=rule or VerdictRule(),
        )
        report.power = runs.curve(runs.label_of(RunKey(policy, gauntlet)))
        report.verdicts = runs if len(runs.runs) > 1 else None
        if len(deck_list) >= 2:
            report.matchups = matchup_matrix(cardset, deck_list, matches, played.reporting(stages.stage(1)))
        report.match = simulate(
            cardset,
            deck_list[0],
            deck_list[1] if len(deck_list) > 1 else None,
            matches,
            played.reporting(stages.stage(2)),
        )
        if report.diff is not None:
            report.diff = with_power_changes(
                report.diff, deck_list, matches_per_card, played.reporting(stages.stage(3))
            )
    report.provenance = {
        "ruleset": ruleset.id,
        "ruleset_version": ruleset.version,
        "engine_version": engine.version if engine is not None else None,
        "options": dict(resolved),
        "seed": seed if simulated else None,
        "matches_per_card": report.power.meta["matches_per_card"] if report.power is not None else None,
        "matches_per_pair": matches if simulated else None,
        "policy": policy if simulated else None,
        "cardset": cardset.name,
        "cardset_path": cardset.path,
        "cardset_hash": cardset.content_hash(),
        "decks": [deck.name for deck in deck_list],
        "baseline": baseline.path if baseline is not None else None,
        "workbench_version": __version__,
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }
    return report


def _with_full_game(
    report: BalanceReport,
    run: RunSettings,
    games: int | None,
    games_per_card: int | None,
    baseline: CardSet | None,
    min_buy_share: float | None = None,
    rule: VerdictRule | None = None,
) -> BalanceReport:
    """`build_report` for whole games: the games and game 0's trace, then the power on the buy-cost axis, one
    progress bar over both."""
    cardset = report.cardset
    options = report.validation.options
    count = FULL_GAME_DEFAULTS.games if games is None else games
    per_card = FULL_GAME_DEFAULTS.games_per_card if games_per_card is None else games_per_card
    if report.validation.has_errors:
        report.notes.append("The set has errors; whole games are left out until they are fixed.")
    else:
        store = sum(1 for _ in cardset)  # an upper bound on the store cards, for the progress bar's weights
        stages = _Stages(run.progress, [count, per_card * (store + 1)])
        report.full_game = run_full_games(
            cardset, options, count, run.seed, run.policy, None, stages.stage(0), workers=run.workers
        )
        report.full_game_trace = report_trace(cardset, options, run.seed, report.full_game.meta["policies"])
        share = FULL_GAME_DEFAULTS.min_buy_share if min_buy_share is None else min_buy_share
        report.full_game_power = full_game_power(
            cardset,
            options,
            per_card,
            run.seed,
            run.policy,
            None,
            stages.stage(1),
            min_buy_share=share,
            rule=rule,
            workers=run.workers,
        )
        report.notes.append(
            "Whole games (game=full): every seat starts from a starter deck and builds its deck in the market, so "
            "the decks' matches, matchups and tournament power curve are not part of this report."
        )
    report.provenance = _full_game_provenance(report)
    report.provenance["baseline"] = baseline.path if baseline is not None else None
    return report


def _full_game_provenance(report: BalanceReport) -> dict[str, Any]:
    """The report's provenance for whole games: seed, games, policies, the market's version, the intervals' kind."""
    ruleset = report.cardset.ruleset
    engine = ruleset.engine
    games, power = report.full_game, report.full_game_power
    meta = games.meta if games is not None else (power.meta if power is not None else {})
    return {
        "ruleset": ruleset.id,
        "ruleset_version": ruleset.version,
        "engine_version": engine.version if engine is not None else None,
        "market_version": meta.get("market_version"),
        "options": dict(report.validation.options),
        "seed": meta.get("seed"),
        "games": games.meta["matches"] if games is not None else None,
        "games_per_card": power.meta["matches"] if power is not None else None,
        "policy": "/".join(games.meta["policies"]) if games is not None else None,
        "power_policies": "/".join(power.meta["policies"]) if power is not None else None,
        "intervals": "95% normal intervals from the per-game values" if meta else None,
        "cardset": report.cardset.name,
        "cardset_path": report.cardset.path,
        "cardset_hash": report.cardset.content_hash(),
        "decks": [deck.name for deck in report.decks],
        "baseline": None,
        "workbench_version": __version__,
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def report_from_full_game(
    cardset: CardSet,
    options: Mapping[str, OptionValue | str] | None,
    games: FullGames | None,
    power: FullGamePower | None = None,
    trace: GameTrace | None = None,
) -> BalanceReport:
    """A report of whole games already played (the app's Balance page), with the provenance `build_report` gives.
    Game 0's trace is `trace`, or replayed from the games' seed and policies (a fraction of a second)."""
    ruleset = cardset.ruleset
    resolved = ruleset.resolve_options(options)
    if trace is None and games is not None:
        trace = report_trace(cardset, resolved, int(games.meta["seed"]), games.meta["policies"])
    report = BalanceReport(
        cardset=cardset,
        decks=[],
        validation=validate(cardset, [], resolved),
        stat_budget=ruleset.stat_budget(cardset, resolved) if ruleset.stat_budget else None,
        full_game=games,
        full_game_power=power,
        full_game_trace=trace,
    )
    report.provenance = _full_game_provenance(report)
    return report


def report_from_results(
    cardset: CardSet,
    decks: Sequence[Deck],
    options: Mapping[str, OptionValue | str] | None,
    power: PowerCurve | None,
    matchups: pd.DataFrame | None,
    match: MatchResults | None,
    health: GameHealth | None = None,
    verdicts: VerdictRuns | None = None,
    stat_values: StatValues | None = None,
    proposals: Proposals | None = None,
) -> BalanceReport:
    """A report of figures already simulated (the app's balance page), with the same provenance `build_report` gives;
    `stat_values` and `proposals` as `build_report` takes them."""
    ruleset = cardset.ruleset
    resolved = ruleset.resolve_options(options)
    deck_list = list(decks)
    report = BalanceReport(
        cardset=cardset,
        decks=deck_list,
        validation=validate(cardset, deck_list, resolved),
        stat_budget=ruleset.stat_budget(cardset, resolved) if ruleset.stat_budget else None,
        power=power,
        matchups=matchups,
        match=match,
        health=health,
        verdicts=verdicts,
        stat_values=stat_values,
        proposals=proposals,
    )
    meta = match.meta if match is not None else (power.meta if power is not None else {})
    engine = ruleset.engine
    report.provenance = {
        "ruleset": ruleset.id,
        "ruleset_version": ruleset.version,
        "engine_version": engine.version if engine is not None else None,
        "options": dict(resolved),
        "seed": meta.get("seed"),
        "matches_per_card": power.meta["matches_per_card"] if power is not None else None,
        "matches_per_pair": meta.get("matches"),
        "policy": "/".join(meta.get("policies", [])) or None,
        "cardset": cardset.name,
        "cardset_path": cardset.path,
        "cardset_hash": cardset.content_hash(),
        "decks": [deck.name for deck in deck_list],
        "baseline": None,
        "workbench_version": __version__,
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }
    return report


class _Stages:
    """One progress bar over several runs, each weighted by its match count."""

    def __init__(self, progress: Progress | None, weights: Sequence[int]) -> None:
        self.progress = progress
        self.weights = [max(1, w) for w in weights]
        self.total = sum(self.weights)

    def stage(self, index: int) -> Callable[[int, int], None]:
        before = sum(self.weights[:index])

        def report(done: int, total: int) -> None:
            if self.progress and total > 0:
                self.progress(before + done * self.weights[index] // total, self.total)

        return report


def full_game_frames(report: BalanceReport) -> dict[str, pd.DataFrame]:
    """The whole game's tables by sheet name, in reading order (the XLSX sheets and the HTML section's tables)."""
    frames: dict[str, pd.DataFrame] = {}
    games = report.full_game
    if games is not None:
        frames["Whole game"] = games.seat_table()
        rounds = games.round_frame()
        frames["Rounds"] = rounds
        frames["Store"] = games.stores_frame()
        frames["Whole-game health"] = pd.DataFrame(games.health_rows(), columns=["figure", "value"])
    if report.full_game_power is not None:
        frames["Power (buy cost)"] = report.full_game_power.frame()
    return frames


def findings_frame(report: BalanceReport) -> pd.DataFrame:
    """Every finding as a row, in the JSON contract's columns (lists and mappings in words, see `cards.readable`)."""
    columns = ["severity", "rule", "card", "deck", "sheet", "row", "column", "message", "expected", "actual"]
    rows = []
    for finding in report.validation.findings:
        data = finding.to_json()
        rows.append({key: _plain(data[key]) for key in columns})
    return pd.DataFrame(rows, columns=columns)


def _plain(value: Any) -> Any:
    """A cell value: numbers stay numbers (booleans and lists, mappings as words), nothing stays an empty cell."""
    if value is None or (
        isinstance(value, (str, int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))
    ):
        return value
    return readable(bool(value) if isinstance(value, np.bool_) else value)


def write_report(report: BalanceReport, out_path: str | Path) -> Path:
    """Write the report as `.xlsx` or `.html`, by the file's suffix."""
    suffix = Path(out_path).suffix.casefold()
    if suffix == ".xlsx":
        return write_xlsx(report, out_path)
    if suffix in (".html", ".htm"):
        # Here, not at the top: the HTML writer loads plotly (and its chart export), which an XLSX report never needs.
        from workbench.report_html import write_html

        return write_html(report, out_path)
    raise WorkbenchInputError(
        f"'{out_path}' is neither .html nor .xlsx.", expected="--out FILE.html or --out FILE.xlsx"
    )


def write_xlsx(report: BalanceReport, out_path: str | Path) -> Path:
    """Write the XLSX report through a temporary file (see `report_workbook`)."""
    return write_workbook_atomically(report_workbook(report), out_path)


def xlsx_bytes(report: BalanceReport) -> bytes:
    """The XLSX report as bytes (for a download)."""
    buffer = io.BytesIO()
    report_workbook(report).save(buffer)
    return buffer.getvalue()


def report_workbook(report: BalanceReport) -> openpyxl.Workbook:
    """Sheets Summary, Findings, Power, Matchups, Options, Provenance (and Changes with a baseline)."""
    workbook = openpyxl.Workbook()
    summary = workbook.active
    summary.title = "Summary"
    _table(summary, ["figure", "value"], summary_rows(report), [34, 90])

    if report.health is not None:
        _health_sheets(workbook, report.health)
    for name, frame in full_game_frames(report).items():
        sheet = workbook.create_sheet(name)
        _table(
            sheet,
            [str(c) for c in frame.columns],
            (tuple(_plain(v) for v in row) for row in frame.itertuples(index=False, name=None)),
            [WHOLE_GAME_WIDTHS.get(str(c), max(10, min(40, len(str(c)) + 4))) for c in frame.columns],
        )
        if "flag" in frame.columns:
            flag_column = list(frame.columns).index("flag") + 1
            for row in range(2, sheet.max_row + 1):
                fill = FLAG_FILLS.get(sheet.cell(row=row, column=flag_column).value)
                if fill is not None:
                    sheet.cell(row=row, column=flag_column).fill = fill
        for column, number_format in (
            ("bought", "0%"),
            ("bought_any", "0%"),
            ("stability", "0%"),
            ("q_value", "0.000"),
        ):
            if column in frame.columns:
                index = list(frame.columns).index(column) + 1
                for row in range(2, sheet.max_row + 1):
                    sheet.cell(row=row, column=index).number_format = number_format
    if report.full_game_trace is not None:
        # One line of the game a row, written as text (set_cell_value: a line never runs as a formula).
        sheet = workbook.create_sheet("Game 0 trace")
        _table(sheet, ["line", "event"], enumerate(report.full_game_trace.lines, start=1), [8, 140])

    findings = workbook.create_sheet("Findings")
    frame = findings_frame(report)
    _table(findings, list(frame.columns), frame.itertuples(index=False), [9, 26, 24, 16, 18, 6, 14, 70, 24, 24])
    for offset, severity in enumerate(frame["severity"], start=2):
        fill = SEVERITY_FILLS.get(severity)
        if fill is not None:
            for cell in findings[offset]:
                cell.fill = fill

    power = workbook.create_sheet("Power")
    if report.power is not None:
        cards = report.power.cards.sort_values(["cost", "power"])
        # A filler's flag is "baseline", a card played too seldom with no clear verdict "rarely played": no suggested
        # cost (an empty cell), see workbench.analysis. played / drawn are shares of the card's matches, stability the
        # share of resamples giving the same flag; the suggested cost's check is written in words, never as a mapping.
        columns = [column for column in POWER_COLUMNS if column in cards.columns]
        _table(
            power,
            columns,
            (
                tuple(
                    suggested_check_text(row[c]) or None if c == "suggested_check" else _plain(row[c]) for c in columns
                )
                for _, row in cards.iterrows()
            ),
            [POWER_COLUMNS[column] for column in columns],
        )
        for column, number_format in NUMBER_FORMATS.items():
            if column in columns:
                index = columns.index(column) + 1
                for row in range(2, power.max_row + 1):
                    power.cell(row=row, column=index).number_format = number_format
        flag_column = columns.index("flag") + 1
        for row in range(2, power.max_row + 1):
            fill = FLAG_FILLS.get(power.cell(row=row, column=flag_column).value)
            if fill is not None:
                power.cell(row=row, column=flag_column).fill = fill
    else:
        _table(power, ["note"], [(note,) for note in report.notes] or [("no simulated figures",)], [90])

    if report.verdicts is not None:
        _verdict_sheets(workbook, report.verdicts)
    auto_decks = report.power.meta.get("auto_decks", {}) if report.power is not None else {}
    if auto_decks:
        sheet = workbook.create_sheet("Auto decks")
        rows = [(name, line) for name, text in auto_decks.items() for line in text.splitlines() if line]
        _table(sheet, ["deck", "decklist line"], rows, [14, 40])

    matchups = workbook.create_sheet("Matchups")
    if report.matchups is not None:
        columns = ["deck", "opponent", "win_rate", "low", "high", "first_player_win_rate", "matches", "seed"]
        _table(matchups, columns, report.matchups[columns].itertuples(index=False), [24, 24, 10, 10, 10, 20, 10, 22])
    else:
        _table(matchups, ["note"], [("Matchups need a game with an engine and two or more decks.",)], [90])

    options = workbook.create_sheet("Options")
    ledger = {option.key: option for option in report.cardset.ruleset.options}
    _table(
        options,
        ["option", "value", "default", "reading", "quote"],
        [
            (key, readable(value), readable(ledger[key].default), ledger[key].reading, ledger[key].quote)
            for key, value in report.validation.options.items()
        ],
        [28, 10, 10, 70, 70],
    )

    provenance = workbook.create_sheet("Provenance")
    _table(
        provenance,
        ["key", "value"],
        [(k, _cell(v, as_text=True) if k in TEXT_COLUMNS else _plain(v)) for k, v in report.provenance.items()],
        [22, 90],
    )

    if report.stat_values is not None:
        _stat_value_sheets(workbook, report.stat_values)
    if report.proposals is not None:
        _proposal_sheets(workbook, report.proposals)

    if report.diff is not None:
        changes = workbook.create_sheet("Changes")
        _table(changes, ["patch note"], [(line,) for line in report.diff.patch_notes()] or [("No changes.",)], [120])
        if report.diff.power is not None and len(report.diff.power.frame):
            power_changes = workbook.create_sheet("Power changes")
            frame = report.diff.power.frame
            _table(
                power_changes,
                list(frame.columns),
                frame.itertuples(index=False),
                [26, 26] + [11] * (len(frame.columns) - 3) + [14],
            )
    return workbook


def health_frame(health: GameHealth) -> pd.DataFrame:
    """The health figures as a table: one row per figure (never-played cards one row per deck)."""
    columns = [
        "figure",
        "deck",
        "value",
        "low",
        "high",
        "summary",
        "healthy",
        "warning",
        "options that move it",
        "Ludii",
    ]
    rows = [
        (
            figure.label,
            figure.deck,
            figure.value,
            figure.low,
            figure.high,
            figure.summary,
            figure.healthy if figure.measured else "",
            figure.warning,
            "; ".join(figure.levers),
            figure.ludii,
        )
        for figure in health.figures
    ]
    return pd.DataFrame(rows, columns=columns)


def _verdict_sheets(workbook: openpyxl.Workbook, runs: VerdictRuns) -> None:
    """Sheet Verdicts: each card's verdict and power per run, the cards whose verdict differs first."""
    sheet = workbook.create_sheet("Verdicts")
    frame = runs.comparison()
    widths = [26, 8, *[16 for _ in range(len(frame.columns) - 4)], 10, 90]
    _table(sheet, list(frame.columns), (tuple(_plain(v) for v in row) for row in frame.itertuples(index=False)), widths)
    for offset, values in enumerate(frame.itertuples(index=False, name=None), start=2):
        for index, (column, value) in enumerate(zip(frame.columns, values, strict=False), start=1):
            if column.startswith("flag · ") and value in FLAG_FILLS:
                sheet.cell(row=offset, column=index).fill = FLAG_FILLS[value]


STAT_VALUE_COLUMNS = {
    "attribute": 14,
    "kind": 9,
    "step": 22,
    "rate": 11,
    "low": 11,
    "high": 11,
    "se": 10,
    "in_cost": 11,
    "in_cost_low": 12,
    "in_cost_high": 12,
    "formula": 11,
    "mispriced": 11,
}
"""The Stat values sheet's columns (`StatValues.rates`) and their widths."""


def stat_value_frames(values: StatValues) -> dict[str, pd.DataFrame]:
    """The stat values as tables by sheet name: the statements and the formula, the rates beside the formula, the
    curves, the cost probe, the design and the set's own cards' implied costs (when the design describes any)."""
    statements = pd.DataFrame(
        {
            "statement": [
                f"{values.formula_heading}: {values.meta.get('formula', '')}.",
                *values.statements,
                f"Straight fit: R^2 {values.r2:.2f}, residual scale {values.scale:.2f} (1 = noise only) on "
                f"{values.df} degrees of freedom; rates per step in score, in_cost in {values.cost_units}.",
            ]
        }
    )
    return {
        "Stat values": values.rates[[c for c in STAT_VALUE_COLUMNS if c in values.rates.columns]],
        "Stat statements": statements,
        "Stat curves": values.curves,
        "Cost probe": values.cost_levels,
        "Stat design": values.cards,
        **({"Implied costs": values.implied} if len(values.implied) else {}),
    }


def proposal_frames(proposals: Proposals) -> dict[str, pd.DataFrame]:
    """The patch proposals as tables by sheet name: one row per proposal proved (offered or not, its patch notes,
    proof figures and why), each proposal's verdicts before and after, the front, and the statements."""
    rows = []
    verdicts = []
    for status, group in (("offered", proposals.offered), ("not offered", proposals.refused)):
        for number, proposal in enumerate(group, start=1):
            rows.append(
                {
                    "proposal": f"{status} {number}",
                    "cards_changed": proposal.cards_changed,
                    "patch_notes": " ".join(proposal.patch_notes),
                    "flagged_before": proposal.before.flagged,
                    "flagged_after": proposal.after.flagged,
                    "mispricing_before": proposal.before.mispricing,
                    "mispricing_after": proposal.after.mispricing,
                    "statement": proposal.statement,
                }
            )
            frame = proposal.verdicts.copy()
            frame.insert(0, "proposal", f"{status} {number}")
            verdicts.append(frame)
    columns = [
        "proposal",
        "cards_changed",
        "patch_notes",
        "flagged_before",
        "flagged_after",
        "mispricing_before",
        "mispricing_after",
        "statement",
    ]
    return {
        "Proposals": pd.DataFrame(rows, columns=columns),
        "Proposal verdicts": pd.concat(verdicts, ignore_index=True) if verdicts else pd.DataFrame(columns=["proposal"]),
        "Proposal front": proposals.front,
        "Proposal statements": pd.DataFrame({"statement": proposals.statements}),
    }


def _frame_sheet(workbook: openpyxl.Workbook, name: str, frame: pd.DataFrame, widths: Mapping[str, int]) -> None:
    sheet = workbook.create_sheet(name)
    _table(
        sheet,
        [str(c) for c in frame.columns],
        (tuple(_plain(v) for v in row) for row in frame.itertuples(index=False, name=None)),
        [widths.get(str(c), max(10, min(40, len(str(c)) + 4))) for c in frame.columns],
    )


def _stat_value_sheets(workbook: openpyxl.Workbook, values: StatValues) -> None:
    """Sheets Stat values, Stat statements, Stat curves, Cost probe, Stat design and Implied costs."""
    widths = {**STAT_VALUE_COLUMNS, "statement": 140, "level": 10, "card": 26}
    for name, frame in stat_value_frames(values).items():
        _frame_sheet(workbook, name, frame, widths)


def _proposal_sheets(workbook: openpyxl.Workbook, proposals: Proposals) -> None:
    """Sheets Proposals, Proposal verdicts, Proposal front and Proposal statements."""
    widths = {"proposal": 14, "patch_notes": 70, "statement": 120, "changes": 70, "card": 26}
    for name, frame in proposal_frames(proposals).items():
        _frame_sheet(workbook, name, frame, widths)


def _health_sheets(workbook: openpyxl.Workbook, health: GameHealth) -> None:
    """Sheets Health (each figure, its healthy range and warning), Game length (the histogram) and Card plays."""
    sheet = workbook.create_sheet("Health")
    frame = health_frame(health)
    _table(sheet, list(frame.columns), frame.itertuples(index=False), [24, 18, 9, 9, 9, 70, 40, 70, 50, 30])
    warning_column = list(frame.columns).index("warning") + 1
    for row in range(2, sheet.max_row + 1):
        if sheet.cell(row=row, column=warning_column).value:
            for cell in sheet[row]:
                cell.fill = SEVERITY_FILLS["warning"]
    lengths = workbook.create_sheet("Game length")
    _table(lengths, ["turns", "matches"], health.lengths.itertuples(index=False), [10, 12])
    plays = workbook.create_sheet("Card plays")
    columns = [
        "deck",
        "card",
        "matches",
        "matches_drawn",
        "matches_played",
        "played_share",
        "never_played",
        "rarely_played",
    ]
    _table(
        plays,
        columns,
        (tuple(_plain(value) for value in row) for row in health.cards[columns].itertuples(index=False)),
        [22, 26, 10, 14, 14, 12, 12, 12],
    )


def _table(sheet: Any, headers: Sequence[str], rows: Any, widths: Sequence[int]) -> None:
    append_row(sheet, list(headers))
    as_text = [header in TEXT_COLUMNS for header in headers]
    for row in rows:
        append_row(sheet, [_cell(value, text) for value, text in zip(row, as_text, strict=True)])
    style_header(sheet, widths)
    sheet.auto_filter.ref = f"A1:{sheet.cell(row=1, column=len(headers)).column_letter}{max(1, sheet.max_row)}"


def _cell(value: Any, as_text: bool = False) -> Any:
    """One XLSX cell: NaN and None empty; a seed, or a whole number a double cannot hold exactly, as its exact digits
    in text (a spreadsheet keeps 15 significant digits, so 4334430513956379144 would come back as 4.33443E+18)."""
    if value is None or (isinstance(value, float) and value != value):
        return None
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        number = int(value)
        return str(number) if as_text or abs(number) > EXACT_INTEGER_LIMIT else number
    if isinstance(value, np.floating):
        return float(value)
    return value
