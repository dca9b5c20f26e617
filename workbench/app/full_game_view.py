"""The Balance page's sections for whole games, shown when the rule options say `game=full`.

Not a page of its own: the Balance page switches to these when the open set's ruleset plays whole games
(`workbench.full_game.supports_full_game`) and its rule option `game` is `full`, since a whole game needs no
decklist (every seat starts from a starter deck and builds in the market). Three tabs, as the tournament's:
*Simulation* (whole games: final VP per seat with its parts and per round, the store on the buy-cost axis, game
health), *Power curve* (each store card's power on the buy-cost axis) and *Sweep a card* (its set's buy cost). Every
figure comes from `workbench.full_game`; the charts from `workbench.full_game_charts`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import streamlit as st

from workbench.analysis import parse_sweep_values, threshold_text
from workbench.app.widgets import EMPTY_CELL, count_input, report_download, run_notice, run_with_progress
from workbench.app.wording import see_docs
from workbench.app.workspace import keep_result, results_store
from workbench.balance_study import provenance_text
from workbench.cards import CardSet, OptionValue, WorkbenchInputError
from workbench.full_game import (
    FULL_GAME_DEFAULTS,
    FullGamePower,
    FullGames,
    FullGameSweep,
    bounded_trace,
    buy_cost_of,
    full_game_policies,
    full_game_power,
    full_game_sweep,
    full_game_trace,
    run_full_games,
    store_cards_of,
)
from workbench.full_game_charts import buy_cost_power_figure, buy_cost_sweep_figure, rounds_figure, seat_parts_figure
from workbench.health import health_of_full_games, warning_sentence
from workbench.markup import markdown_text
from workbench.pace import Estimate, whole_game_power_estimate, whole_games_estimate
from workbench.report_html import render_html
from workbench.reports import BalanceReport, report_from_full_game, xlsx_bytes
from workbench.spreadsheets import csv_text

SECTION_KEY = "balance_full_section"
SIMULATION_TAB = "Simulation"
POWER_TAB = "Power curve (buy cost)"
SWEEP_TAB = "Sweep a buy cost"
GAMES_CANCEL_KEY = "balance_full_cancel"
POWER_CANCEL_KEY = "balance_full_power_cancel"
SWEEP_CANCEL_KEY = "balance_full_sweep_cancel"
MAX_GAMES = 10_000
"""The most whole games one run of the page plays (the command line allows more)."""
MAX_SEED = 2**31 - 1
SWEEP_CARD_KEY = "balance_full_sweep_card"
SWEEP_VALUES_KEY = "balance_full_sweep_values"
SWEEP_SUGGESTED_FOR_KEY = "balance_full_sweep_values_for"


def _base_key(cardset: CardSet, options: dict[str, OptionValue]) -> list[Any]:
    return [cardset.content_hash(), sorted(options.items())]


def _latest(kind: type, cardset: CardSet, options: dict[str, OptionValue]) -> Any:
    """The most recent kept result of this kind for this set and these options (it goes into the reports)."""
    prefix = json.dumps(_base_key(cardset, options), default=str)
    for key, kept in reversed(results_store().items()):
        if isinstance(kept, kind) and key.startswith(f'["{kind.__name__}", ' + prefix[1:-1]):
            return kept
    return None


def _settings_key(kind: type, cardset: CardSet, options: dict[str, OptionValue], *settings: Any) -> str:
    return json.dumps([kind.__name__, *_base_key(cardset, options), *settings], default=str)


def _trace_key(meta: dict[str, Any], options: dict[str, OptionValue]) -> str:
    """Where game 0's trace of a run of whole games is kept (shown on the page, then written into the reports)."""
    return json.dumps(["trace", meta["cardset_hash"], sorted(options.items()), meta["seed"], meta["policies"]])


def _policy_pick(column: Any, label: str, policies: list[str], default: str, key: str) -> str:
    return str(column.selectbox(label, policies, index=policies.index(default) if default in policies else 0, key=key))


def _downloads(cardset: CardSet, options: dict[str, OptionValue], where: str) -> None:
    """The balance report (HTML, XLSX) of the whole games and the power curve kept for these settings."""
    games = _latest(FullGames, cardset, options)
    power = _latest(FullGamePower, cardset, options)
    if games is None and power is None:
        return
    built: list[BalanceReport] = []

    def report() -> BalanceReport:
        """The report, built once and only when a download asks for it: game 0's trace is the page's kept one, or
        replayed then (a fraction of a second, not on every rerun of the page)."""
        if not built:
            trace = None
            if games is not None:
                lines = results_store().get(_trace_key(games.meta, options))
                if lines is not None:
                    trace = bounded_trace(lines, int(games.meta["seed"]), games.meta["policies"])
            built.append(report_from_full_game(cardset, options, games, power, trace))
        return built[0]

    st.caption(
        "The reports hold "
        + " and ".join(
            part
            for part, kept in (("the whole games", games), ("the power curve on buy cost", power))
            if kept is not None
        )
        + " run with these rule options (the latest of each); game 0's trace goes with the whole games."
    )
    left, right = st.columns(2)
    identity = f"{id(games)}:{id(power)}"  # the kept results the report holds
    report_download(
        left,
        "HTML",
        f"balance_full_report_html_{where}",
        identity,
        lambda: render_html(report()),
        f"{cardset.name}_whole_game_report.html",
        "text/html",
    )
    report_download(
        right,
        "XLSX",
        f"balance_full_report_xlsx_{where}",
        identity,
        lambda: xlsx_bytes(report()),
        f"{cardset.name}_whole_game_report.xlsx",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )


def _interval_columns(parts: list[str]) -> dict[str, Any]:
    config: dict[str, Any] = {}
    for part in parts:
        config[part] = st.column_config.NumberColumn(format="%.1f")
        config[f"{part} 95%"] = st.column_config.TextColumn(help="Mean [95% interval] over the games.")
    return config


def _show_games(games: FullGames, cardset: CardSet, options: dict[str, OptionValue]) -> None:
    meta, summary = games.meta, games.summary
    st.caption(
        markdown_text(provenance_text(meta, "whole games", cardset.ruleset)) + f"; market v{meta['market_version']}"
    )
    st.caption(
        f"Seeds: game k plays from SeedSequence({meta['seed']}).spawn({meta['matches']})[k], so the same seed gives "
        "the same games; game 0 is the trace below."
    )
    for finding in meta.get("engine_findings", []):
        st.info(markdown_text(f"{finding['rule']}: {finding['message']}"))
    table = games.seat_table()
    metrics = st.columns(len(summary["seats"]))
    for column, row in zip(metrics, table.to_dict("records"), strict=True):
        column.metric(
            f"Seat {row['seat']} ({row['policy']}) final VP",
            f"{row['total']:.1f}",
            help=f"Mean [95% interval]: {row['total 95%']}. Wins {row['win_share']:.1%}.",
        )
    st.plotly_chart(seat_parts_figure(games), width="stretch", key="full_parts_chart")
    st.dataframe(
        table,
        hide_index=True,
        width="stretch",
        placeholder=EMPTY_CELL,
        key="full_seats_table",
        column_config={
            **_interval_columns(["total", "tournament", "collections", "money", "friendship"]),
            "dollars_left": st.column_config.NumberColumn("$ left", format="%.1f"),
            "win_share": st.column_config.NumberColumn("wins", format="percent"),
        },
    )
    st.caption(
        "Final VP = tournament VP + collection VP + money (4 dollars a VP, rounded down) + Friendship VP. Means over "
        "the games; the 95% interval is the normal interval of the mean."
    )
    st.subheader("Per round")
    st.plotly_chart(rounds_figure(games), width="stretch", key="full_rounds_chart")
    number = st.column_config.NumberColumn(format="%.1f")
    st.dataframe(
        games.round_frame(),
        hide_index=True,
        width="stretch",
        placeholder=EMPTY_CELL,
        key="full_rounds_table",
        column_config={
            column: number
            for column in (
                "tournament",
                "tournament_low",
                "tournament_high",
                "collections",
                "collections_low",
                "collections_high",
            )
        },
    )
    st.subheader("Game health")
    health = summary["health"]
    numbers = st.columns(3)
    numbers[0].metric(
        "First seat's win share", f"{health['first_seat_win_share']:.1%}", help=f"Fair: {health['fair_win_share']:.1%}"
    )
    numbers[1].metric("Dollars left per seat", f"{health['dollars_left_mean']:.1f}")
    numbers[2].metric("Store cards never bought", f"{health['store_cards_never_bought_share']:.0%}")
    if health["store_cards_never_bought"]:
        st.caption("Never bought: " + markdown_text(", ".join(health["store_cards_never_bought"])) + ".")
    if games.records:
        # The same figures as `workbench health --option game=full`, from these games (workbench.health).
        for figure in health_of_full_games(games).figures:
            st.markdown(f"**{markdown_text(figure.label)}**: {markdown_text(figure.summary)}.")
            sentence = warning_sentence(figure)
            if sentence:
                st.warning(markdown_text(sentence))
    if summary.get("games_per_second"):
        st.caption(f"Speed: {summary['games_per_second']:.1f} whole games per second.")
    st.subheader("The store on the buy-cost axis")
    st.dataframe(
        games.stores_frame(),
        hide_index=True,
        width="stretch",
        placeholder=EMPTY_CELL,
        key="full_store_table",
        column_config={
            "buy_cost": st.column_config.NumberColumn("buy cost", format="%d"),
            "bought_per_game": st.column_config.NumberColumn("bought per game", format="%.2f"),
            "value_per_dollar": st.column_config.NumberColumn(
                "opening value per $",
                format="%.2f",
                help="What the greedy policy thinks a card is worth to a seat holding only its starter deck, per "
                "dollar of its buy cost.",
            ),
        },
    )
    with st.expander("Game 0, action by action"):
        key = _trace_key(meta, options)
        lines = results_store().get(key)
        if lines is None and st.button("Show game 0's trace", key="full_trace_run"):
            lines = full_game_trace(cardset, options, int(meta["seed"]), meta["policies"][0], meta["policies"][-1])
            keep_result(key, lines)
        if lines is not None:
            st.code("\n".join(lines), language=None, height=420)


def _run_and_keep(
    cardset: CardSet,
    key: str,
    button: tuple[str, str],
    disabled: bool,
    cancel: tuple[str, str],
    what: str,
    run: Callable[[Callable[[int, int], None]], Any],
    progress_text: Callable[[int, int], str],
    estimate: Callable[[], Estimate] | None = None,
) -> tuple[bool, Any]:
    """The button that starts one kind of whole-game run (`button`: its label and key), the run under a progress bar
    with Cancel (`cancel`: its session key and what the page says once a run was cancelled), and the result kept under
    `key`. Returns (pressed, the kept result or None); `run` is given a `report(done, total)` callback. `estimate`,
    when given and the run's settings are good, is shown above the button (`workbench.pace`)."""
    result = results_store().get(key)
    if estimate is not None and not disabled:
        st.caption(estimate().text)
    pressed = st.button(button[0], type="primary", disabled=disabled, key=button[1])
    if pressed:
        started = time.perf_counter()

        def work(show: Callable[[float, str], None]) -> Any:
            def report(done: int, total: int) -> None:
                show(done / total if total else 1.0, progress_text(done, total))

            return run(report)

        result = run_with_progress(cardset, None, cancel[0], what, work)
        if result is not None:
            keep_result(key, result)
            st.success(f"Done in {time.perf_counter() - started:.1f} s.")
    else:
        noun = "run of whole games" if what == "whole games" else what  # "The run of whole games was interrupted"
        run_notice(cancel[0], noun, f"Press {button[0]} to run it again.", cancel[1])
    return pressed, result


def _games_section(cardset: CardSet, options: dict[str, OptionValue], policies: list[str]) -> None:
    row = st.columns(4)
    policy_a = _policy_pick(row[0], "Seat A's policy", policies, FULL_GAME_DEFAULTS.policy, "balance_full_policy_a")
    policy_b = _policy_pick(row[1], "Other seats' policy", policies, policy_a, "balance_full_policy_b")
    games, games_problem = count_input(
        row[2], "Whole games", 1, MAX_GAMES, FULL_GAME_DEFAULTS.games, "balance_full_games", step=10
    )
    seed, seed_problem = count_input(row[3], "Seed", 0, MAX_SEED, 0, "balance_full_seed")
    problems = [p for p in (games_problem, seed_problem) if p]
    for problem in problems:
        st.error(problem)
    key = _settings_key(FullGames, cardset, options, policy_a, policy_b, int(games), int(seed))
    run, result = _run_and_keep(
        cardset,
        key,
        ("Play whole games", "balance_full_run"),
        bool(problems),
        (GAMES_CANCEL_KEY, "The run was cancelled; nothing from it was kept."),
        "whole games",
        lambda report: run_full_games(cardset, options, int(games), int(seed), policy_a, policy_b, report),
        lambda done, total: f"Whole games: {done:,} of {total:,}",
        lambda: whole_games_estimate(cardset, int(games), policy_a, policy_b),
    )
    if isinstance(result, FullGames):
        _show_games(result, cardset, options)
        _downloads(cardset, options, "games")
    elif not run:
        st.info("Press Play whole games.")


def _power_section(cardset: CardSet, options: dict[str, OptionValue], policies: list[str]) -> None:
    st.caption(
        "Each store card's power in the whole game: the change in seat A's mean final VP when the card's copies are "
        "in the store against when they are replaced by the other cards of its set, the same seeds both ways, with a "
        "95% interval from the per-game differences. The cost axis is the buy cost. Against seats of its own policy "
        "seat A's VP moves only by chance, so greedy plays against random seats by default."
    )
    row = st.columns(4)
    policy = _policy_pick(row[0], "Seat A's policy", policies, FULL_GAME_DEFAULTS.policy, "balance_full_power_policy")
    rivals = _policy_pick(
        row[1], "Other seats' policy", policies, FULL_GAME_DEFAULTS.rivals_for_power(policy), "balance_full_rivals"
    )
    games, games_problem = count_input(
        row[2],
        "Whole games per card",
        1,
        MAX_GAMES,
        FULL_GAME_DEFAULTS.games_per_card,
        "balance_full_power_games",
        step=10,
        help_text="Played twice per store card (with it and without), plus once for the set as it is.",
    )
    seed, seed_problem = count_input(row[3], "Seed", 0, MAX_SEED, 0, "balance_full_power_seed")
    problems = [p for p in (games_problem, seed_problem) if p]
    for problem in problems:
        st.error(problem)
    key = _settings_key(FullGamePower, cardset, options, policy, rivals, int(games), int(seed))
    run, result = _run_and_keep(
        cardset,
        key,
        ("Run the power curve", "balance_full_power_run"),
        bool(problems),
        (POWER_CANCEL_KEY, "The power curve was cancelled; nothing from it was kept."),
        "power curve",
        lambda report: full_game_power(cardset, options, int(games), int(seed), policy, rivals, report),
        lambda done, total: f"Power on buy cost: {done:,} of {total:,} whole games",
        lambda: whole_game_power_estimate(cardset, options, int(games), policy, rivals),
    )
    if isinstance(result, FullGamePower):
        st.caption(
            markdown_text(provenance_text(result.meta, "whole games per card", cardset.ruleset))
            + f"; market v{result.meta['market_version']}"
        )
        st.info(markdown_text(result.statement()))
        for statement in result.statements():
            st.caption(markdown_text(statement))
        st.plotly_chart(buy_cost_power_figure(result), width="stretch", key="full_power_chart")
        signed = st.column_config.NumberColumn(format="%+.2f")
        threshold = threshold_text(result.min_buy_share)
        st.dataframe(
            result.frame(),
            hide_index=True,
            width="stretch",
            placeholder=EMPTY_CELL,
            key="full_power_table",
            column_config={
                "buy_cost": st.column_config.NumberColumn("buy cost", format="%d"),
                "power": signed,
                "low": signed,
                "high": signed,
                "sign": st.column_config.TextColumn(
                    "against zero", help="above / below 0: the 95% interval lies wholly there."
                ),
                "bought": st.column_config.NumberColumn(
                    "bought by seat A",
                    format="percent",
                    help="The share of the games with the card's copies in the store in which seat A bought one. "
                    f"Under {threshold} the card is rarely bought: not judged.",
                ),
                "bought_any": st.column_config.NumberColumn("bought by any seat", format="percent"),
                "flag": st.column_config.TextColumn(
                    "flag",
                    help="over / under: the 95% interval lies wholly above / below its buy cost's band; rarely "
                    f"bought: seat A bought it in fewer than {threshold} of the games, so no verdict.",
                ),
                "suggested_buy_cost": st.column_config.NumberColumn(
                    "suggested buy cost",
                    format="%d",
                    help="Where the fitted line meets its power (only when the line rises with buy cost).",
                ),
                "reason": st.column_config.TextColumn("why", width="large"),
            },
        )
        _downloads(cardset, options, "power")
    elif not run:
        st.info("Press Run the power curve.")


def _suggested_buy_costs(current: int) -> str:
    """A few buy costs around the card's own, up to where a set is seldom bought."""
    return ", ".join(str(v) for v in sorted({max(0, current - 2), current, current + 2, current + 5, current + 10}))


def _sweep_section(cardset: CardSet, options: dict[str, OptionValue], policies: list[str]) -> None:
    st.caption(
        "A card's whole set at each buy cost (a set has one price), the same seeds at every value: copies of the "
        "card and of its set bought per game, the share of games it was bought in, the opening value per dollar, "
        "mean final VP and dollars left, and the buy cost from which it is no longer bought."
    )
    try:
        cards = store_cards_of(cardset, options)
    except WorkbenchInputError as error:
        st.error(markdown_text(error))
        return
    if not cards:
        st.info("The store sells no card of this set.")
        return
    if st.session_state.get(SWEEP_CARD_KEY) not in cards:
        st.session_state.pop(SWEEP_CARD_KEY, None)
    picks = st.columns([2, 3])
    card = str(picks[0].selectbox("Card", cards, key=SWEEP_CARD_KEY))
    current = buy_cost_of(cardset, card, options)
    if st.session_state.get(SWEEP_SUGGESTED_FOR_KEY) != card:
        st.session_state[SWEEP_VALUES_KEY] = _suggested_buy_costs(current)
        st.session_state[SWEEP_SUGGESTED_FOR_KEY] = card
    values_text = picks[1].text_input(
        "Buy costs (LOW..HIGH, or a list like 2,5,8)",
        key=SWEEP_VALUES_KEY,
        help=f"{card}'s set costs {current} now.",
    )
    row = st.columns(3)
    games, games_problem = count_input(
        row[0], "Whole games per value", 1, MAX_GAMES, FULL_GAME_DEFAULTS.games_per_value, "balance_full_sweep_games"
    )
    seed, seed_problem = count_input(row[1], "Seed", 0, MAX_SEED, 0, "balance_full_sweep_seed")
    policy = _policy_pick(row[2], "Policy (every seat)", policies, FULL_GAME_DEFAULTS.policy, "balance_full_sweep_pol")
    values: list[int | float] = []
    problems = [p for p in (games_problem, seed_problem) if p]
    try:
        values = parse_sweep_values(values_text)
        bad = [v for v in values if not isinstance(v, int) or isinstance(v, bool) or v < 0]
        if bad:
            raise WorkbenchInputError(f"buy cost {bad[0]!r} is not a whole number >= 0.", expected="0, 1, 2, ...")
    except WorkbenchInputError as error:
        problems.append(f"The values cannot be swept: {markdown_text(error)}")
        values = []
    for problem in problems:
        st.error(problem)
    key = _settings_key(FullGameSweep, cardset, options, card, values, int(games), int(seed), policy)
    run, result = _run_and_keep(
        cardset,
        key,
        ("Run sweep", "balance_full_sweep_run"),
        bool(problems) or not values,
        (SWEEP_CANCEL_KEY, "The sweep was cancelled; nothing from it was kept."),
        "sweep",
        lambda report: full_game_sweep(cardset, options, card, values, int(games), int(seed), policy, None, report),
        lambda done, total: f"Sweeping {card}'s buy cost: {done:,} of {total:,} whole games",
    )
    if isinstance(result, FullGameSweep):
        st.caption(
            markdown_text(provenance_text(result.meta, "whole games per value", cardset.ruleset))
            + f"; market v{result.meta['market_version']}"
        )
        stop = result.stops_at()
        if stop is not None:
            st.warning(
                markdown_text(
                    f"{result.card} was not bought from the store at a buy cost of {stop} or at any later value swept."
                )
            )
        st.plotly_chart(buy_cost_sweep_figure(result), width="stretch", key="full_sweep_chart")
        frame = result.frame()
        st.dataframe(
            frame,
            hide_index=True,
            width="stretch",
            placeholder=EMPTY_CELL,
            key="full_sweep_table",
            column_config={
                "buy_cost": st.column_config.NumberColumn("buy cost", format="%d"),
                "games_with_a_copy_bought": st.column_config.NumberColumn("games bought", format="percent"),
            },
        )
        st.download_button(
            "Download the sweep (CSV)",
            data=csv_text(frame),  # formula-like text stays text (spreadsheets.csv_safe)
            file_name=f"sweep_{result.card}_buy_cost_seed{result.meta['seed']}.csv",
            mime="text/csv",
            on_click="ignore",
            key="full_sweep_download",
        )
    elif not run and values:
        st.info("Press Run sweep.")


def full_game_sections(cardset: CardSet, options: dict[str, OptionValue]) -> None:
    """The Balance page for whole games: the three tabs, only the open one run."""
    ruleset = cardset.ruleset
    try:
        policies = full_game_policies(ruleset)
        engine = ruleset.engine
    except Exception as error:  # an engine module that fails to import must not take the page down
        st.error(f"The {ruleset.id} engine could not be loaded: {type(error).__name__}: {markdown_text(error)}")
        return
    assert engine is not None
    st.info(
        "Rule option **game=full**: whole games from the card sheet alone. Every seat starts from a starter deck and "
        "builds its deck in the market (the store at buy cost, the aftermarket at star rating, fusion, trades), "
        f"then plays the tournaments; {int(options.get('players', 0))} seats. The decklists are not used. Set game "
        "to tournament in the rule options to play decks against each other."
    )
    games_tab, power_tab, sweep_tab = st.tabs(
        [SIMULATION_TAB, POWER_TAB, SWEEP_TAB], key=SECTION_KEY, on_change="rerun"
    )
    if games_tab.open:
        with games_tab:
            _games_section(cardset, options, policies)
    if power_tab.open:
        with power_tab:
            _power_section(cardset, options, policies)
    if sweep_tab.open:
        with sweep_tab:
            _sweep_section(cardset, options, policies)
    st.caption(
        "Whole-game defaults (workbench.full_game.FULL_GAME_DEFAULTS, the same as the command line): "
        f"{FULL_GAME_DEFAULTS.games} games, {FULL_GAME_DEFAULTS.games_per_card} per card, "
        f"{FULL_GAME_DEFAULTS.games_per_value} per value ({see_docs('app.md', 'Balance')})."
    )
