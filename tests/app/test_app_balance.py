"""Balance page: written over the registry; a game's engine appears without page changes; runs and sweeps are kept."""

from __future__ import annotations

import json
import re
import time
from collections.abc import ValuesView
from dataclasses import replace
from typing import Any

import pytest
from app.app_helpers import (
    DATA,
    as_read,
    chart_figure,
    first_bundled,
    go,
    new_app,
    open_bundled,
    plotly_charts,
    ruleset_with_engine_and_decks,
    shown_text,
    toy_set_with_decks,
    upload_cardset,
    workspace,
)
from streamlit.testing.v1 import AppTest
from toy_engine import TOY

from workbench.analysis import FLAGS, POWER_CURVE_DEFAULTS
from workbench.app import BALANCE
from workbench.charts import FLAG_COLOURS, FLAG_NAMES
from workbench.judging import NO_COMPARATOR, UNDECIDED
from workbench.loading import load_cardset
from workbench.rulesets import RULESETS
from workbench.rulesets.base import normalize_header

REAL_ENGINE_TIMEOUT = 900
"""A first run compiles the engine's kernels with Numba (cached on disk afterwards)."""
CARD_TRACES = {FLAG_NAMES.get(flag, flag) for flag in FLAGS}
"""The legend names of the power curve's card traces, one per flag."""


def _toy_balance(monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setitem(RULESETS, "toy", TOY)
    return toy_set_with_decks(BALANCE)


def _run(at: AppTest, matches: int = 200, per_card: int = 60, timeout: float | None = None) -> AppTest:
    at.number_input(key="balance_matches").set_value(matches)
    at.number_input(key="balance_per_card").set_value(per_card)
    at.run()
    at.button(key="balance_run").click()
    at.run(timeout=timeout)
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_ruleset_without_an_engine_says_so_on_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(RULESETS, "toy", replace(TOY, engine_module=None))
    at = go(upload_cardset(new_app(), DATA / "toy_cards.csv", ruleset="toy"), BALANCE)
    assert "has no match engine yet, so its cards cannot be simulated" in shown_text(at)
    assert not [b for b in at.button if b.label == "Run simulation"]


def test_a_ruleset_whose_engine_lands_is_simulated_without_page_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _run(_toy_balance(monkeypatch))
    assert at.multiselect(key="balance_decks").value == ["reference", "other"]
    assert [m.label for m in at.metric] == [
        "reference (A) win rate",
        "First player's win rate",
        "Draws",
        "Mean game length",
    ]
    assert "Done in" in shown_text(at)
    # A report is written on request, under a spinner that counts the seconds, then offered for download.
    assert [b.label for b in at.button if b.key in ("balance_report_html_prepare", "balance_report_xlsx_prepare")] == [
        "Prepare balance report (HTML)",
        "Prepare balance report (XLSX)",
    ]
    assert not [element for element in at.get("download_button") if "balance report" in element.proto.label]
    at.button(key="balance_report_html_prepare").click()
    at.run()
    downloads = [
        element.proto.label for element in at.get("download_button") if "balance report" in element.proto.label
    ]
    assert downloads == ["Download balance report (HTML)"]
    assert re.search(r"Written in \d+\.\d s · [\d,]+ KB\.", shown_text(at))
    at.button(key="balance_report_xlsx_prepare").click()
    at.run()
    downloads = [
        element.proto.label for element in at.get("download_button") if "balance report" in element.proto.label
    ]
    assert downloads == ["Download balance report (HTML)", "Download balance report (XLSX)"]
    stored = list(results_store_values(at))
    assert len(stored) == 1
    results = stored[0]
    assert results.match.meta["matches"] == 200 and results.curve is not None and results.matchups is not None
    assert at.metric[0].value == f"{results.match.win_rate_a.value:.1%}"
    assert len(plotly_charts(at)) == 4  # first-player bars, game lengths, power curve, matchup heatmap
    curve = chart_figure(at, 2)
    drawn = {row[0] for trace in curve["data"] if trace.get("name") in CARD_TRACES for row in trace["customdata"]}
    assert drawn == set(results.curve.cards["card"])
    assert curve["layout"]["xaxis"]["zeroline"] is False  # no plotly zero line down the cost-0 column
    power_table = next(frame for frame in at.dataframe if "suggested_cost" in frame.value.columns)
    filler = power_table.value[power_table.value["card"] == "Filler"].iloc[0]
    assert filler["flag"] == "baseline" and power_table.value["flag"].iloc[-1] == "baseline"  # listed last
    assert filler["suggested_cost"] is None and power_table.proto.placeholder == "—"  # shown as "—", not "None"
    assert at.code[0].value.startswith("# toy 1 (engine 1), seed 0, A = reference (greedy), B = other (greedy)")
    assert workspace(at).ruleset_id == "toy"


def results_store_values(at: AppTest) -> ValuesView[Any]:
    """The results the page keeps (match results, power curves, sweeps, health), one per set of settings."""
    return at.session_state["simulation_results"].values()


def test_results_are_kept_per_settings_and_a_changed_option_needs_a_new_run(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _run(_toy_balance(monkeypatch))
    at.run()  # a plain rerun shows the kept results without simulating again
    assert at.metric and "Done in" not in shown_text(at)
    at.toggle(key="option:balance:toy:first_player_bonus").set_value(False)
    at.run()
    assert not at.metric and "1 earlier result(s) from other settings are kept" in shown_text(at)
    assert at.session_state["rule_options"] == {"toy": {"first_player_bonus": False}}
    at.button(key="balance_run").click()
    at.run()
    stored = list(results_store_values(at))
    assert [r.options["first_player_bonus"] for r in stored] == [True, False]
    at.toggle(key="option:balance:toy:first_player_bonus").set_value(True)
    at.run()
    assert at.metric  # back to the first settings: its results show at once


def test_a_seeded_run_is_reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    first = list(results_store_values(_run(_toy_balance(monkeypatch))))[0]
    second = list(results_store_values(_run(_toy_balance(monkeypatch))))[0]
    assert first.match.matches.equals(second.match.matches)
    assert first.curve.cards.equals(second.curve.cards)


def test_a_real_engine_runs_a_small_simulation_of_its_bundled_decks() -> None:
    ruleset_id = ruleset_with_engine_and_decks()
    assert ruleset_id is not None, "no registered ruleset has a match engine and two bundled decks"
    path = first_bundled(ruleset_id)
    assert path is not None
    at = go(open_bundled(new_app(timeout=REAL_ENGINE_TIMEOUT), path), BALANCE)
    at = _run(at, matches=100, per_card=20, timeout=REAL_ENGINE_TIMEOUT)
    results = list(results_store_values(at))[0]
    assert results.match.meta["ruleset"] == ruleset_id and len(results.match.matches) == 100
    assert results.curve is not None and not results.curve.cards.empty
    assert at.code[0].value.startswith(f"# {ruleset_id} ")
    assert len(plotly_charts(at)) == 4


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_the_balance_page_draws_for_each_bundled_set(ruleset_id: str) -> None:
    path = first_bundled(ruleset_id)
    assert path is not None, f"cardsets/{ruleset_id} has no sample set"
    at = go(open_bundled(new_app(), path), BALANCE)
    if RULESETS[ruleset_id].engine_module is None:
        assert "has no match engine yet" in shown_text(at)
    else:
        assert at.button(key="balance_run") is not None
        # The command line's defaults (workbench.power_defaults): every deck of the set, 8,000 matches per card.
        assert at.multiselect(key="balance_decks").value == list(workspace(at).decks)
        assert at.number_input(key="balance_per_card").value == POWER_CURVE_DEFAULTS.matches_per_card
        assert at.number_input(key="balance_matches").value == POWER_CURVE_DEFAULTS.matches_per_pair
        assert at.number_input(key="balance_seed").value == POWER_CURVE_DEFAULTS.seed
        engine = RULESETS[ruleset_id].engine
        assert engine is not None
        assert at.selectbox(key="balance_policy_a").options[0] == engine.policies[0]
        assert at.selectbox(key="balance_policy_a").value == POWER_CURVE_DEFAULTS.policy


def test_one_sessions_results_are_not_seen_by_another(monkeypatch: pytest.MonkeyPatch) -> None:
    first = _run(_toy_balance(monkeypatch))
    assert len(list(results_store_values(first))) == 1
    second = _toy_balance(monkeypatch)
    assert not second.session_state["simulation_results"]
    assert not second.metric and "Press Run simulation." in shown_text(second)
    assert workspace(second) is not workspace(first)


SWEEP_TAB = "Sweep a card"


def _sweep_tab(at: AppTest) -> AppTest:
    """Open the balance page's sweep tab (the tab's own session-state key, as a click on it sets)."""
    at.session_state["balance_section"] = SWEEP_TAB
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _run_sweep(
    at: AppTest, card: str, field: str, values: str, per_value: int = 60, seed: int = 3, timeout: float | None = None
) -> AppTest:
    at.selectbox(key="balance_sweep_card").set_value(card)
    at.run()
    at.selectbox(key="balance_sweep_field").set_value(field)
    at.run()
    at.text_input(key="balance_sweep_values").set_value(values)
    at.number_input(key="balance_sweep_per_value").set_value(per_value)
    at.number_input(key="balance_sweep_seed").set_value(seed)
    at.run()
    at.button(key="balance_sweep_run").click()
    at.run(timeout=timeout)
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_sweep_tab_offers_each_cards_number_fields_and_values_around_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    at = _sweep_tab(_toy_balance(monkeypatch))
    assert not [b for b in at.button if b.label == "Run simulation"]  # only the open tab's inputs are on the page
    assert at.selectbox(key="balance_sweep_card").options == ["Filler", "Cheap", "Mid", "Big", "Bargain", "Dud"]
    assert at.selectbox(key="balance_sweep_field").options == ["cost", "strength"]
    at.selectbox(key="balance_sweep_card").set_value("Big")
    at.run()
    at.selectbox(key="balance_sweep_field").set_value("strength")
    at.run()
    assert at.text_input(key="balance_sweep_values").value == "1..5"  # Big's strength 3, two steps either side
    assert "Press Run sweep." in shown_text(at)


def test_a_sweep_shows_its_chart_table_and_provenance_and_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _run_sweep(_sweep_tab(_toy_balance(monkeypatch)), "Big", "strength", "0..4")
    kept = [r for r in results_store_values(at) if type(r).__name__ == "Sweep"]
    assert len(kept) == 1
    points = kept[0].points
    assert points["value"].tolist() == [0, 1, 2, 3, 4]
    assert kept[0].meta["card"] == "Big" and kept[0].meta["field"] == "strength" and kept[0].meta["seed"] == 3
    # The toy game adds strength to the total: the card at strength 4 plays better than at 0.
    assert points["power"].iloc[-1] > points["power"].iloc[0]
    table = next(frame.value for frame in at.dataframe if "band_low" in frame.value.columns)
    assert table["strength"].tolist() == [0, 1, 2, 3, 4]
    assert table["power"].tolist() == pytest.approx(points["power"].tolist())
    assert table["flag"].tolist() == points["flag"].tolist()
    figure = chart_figure(at, 0)
    drawn = {
        x: y
        for trace in figure["data"]
        if trace.get("name") in ("over", "on curve", "under", UNDECIDED)
        for x, y in zip(trace["x"], trace["y"], strict=True)
    }
    assert drawn == pytest.approx({float(v): p for v, p in zip(points["value"], points["power"], strict=True)})
    band = next(trace for trace in figure["data"] if str(trace.get("name", "")).startswith("cost tier band"))
    assert max(band["y"]) == pytest.approx(points["band_high"].max())
    assert min(band["y"]) == pytest.approx(points["band_low"].min())
    text = shown_text(at)
    assert "toy v1 · engine v1 · seed 3 · policies greedy/greedy · 60 matches per value" in text
    assert "the toy default rule options" in text
    assert "Reference deck reference, gauntlet reference, other." in text
    assert "Done in" in text
    at.run()  # a plain rerun shows the kept sweep without running it again
    assert plotly_charts(at) and "Done in" not in shown_text(at)
    at.session_state["balance_section"] = "Simulation"
    at.run()
    assert "Press Run simulation." in shown_text(at) and "earlier result(s)" not in shown_text(at)


def test_a_seeded_sweep_is_reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    first = _run_sweep(_sweep_tab(_toy_balance(monkeypatch)), "Mid", "strength", "1,3")
    second = _run_sweep(_sweep_tab(_toy_balance(monkeypatch)), "Mid", "strength", "1,3")
    kept = [next(iter(results_store_values(at))) for at in (first, second)]
    assert kept[0].points.equals(kept[1].points)


def test_a_sweep_plays_under_the_pages_rule_options(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _sweep_tab(_toy_balance(monkeypatch))
    at.toggle(key="option:balance:toy:first_player_bonus").set_value(False)  # the shared expander above the tabs
    at.run()
    at = _run_sweep(at, "Mid", "strength", "1,3")
    kept = next(iter(results_store_values(at)))
    assert kept.meta["options"] == {"first_player_bonus": False}
    assert "rule options changed: first_player_bonus=false" in shown_text(at)


@pytest.mark.parametrize(
    ("values", "says"),
    [
        ("6..1", "'6..1' is not a list of values to sweep"),
        ("lots", "'lots' is not a list of values to sweep"),
        ("1..500", "at most 101 values"),
        ("1, 2.5", "2.5 is not a valid strength for 'Big'"),
        ("-1,2", "-1 is not a valid strength for 'Big'"),
    ],
)
def test_bad_sweep_values_give_a_clear_message_and_nothing_runs(
    monkeypatch: pytest.MonkeyPatch, values: str, says: str
) -> None:
    at = _sweep_tab(_toy_balance(monkeypatch))
    at.selectbox(key="balance_sweep_card").set_value("Big")
    at.run()
    at.selectbox(key="balance_sweep_field").set_value("strength")
    at.run()
    at.text_input(key="balance_sweep_values").set_value(values)
    at.run()
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and errors[0].startswith("The values cannot be swept: ") and says in errors[0]
    assert at.button(key="balance_sweep_run").disabled
    assert not at.exception


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_the_sweep_tab_draws_for_each_bundled_set_with_an_engine(ruleset_id: str) -> None:
    path = first_bundled(ruleset_id)
    assert path is not None, f"cardsets/{ruleset_id} has no sample set"
    at = go(open_bundled(new_app(), path), BALANCE)
    if RULESETS[ruleset_id].engine_module is None:
        assert "has no match engine yet" in shown_text(at)
        return
    at = _sweep_tab(at)
    cards = at.selectbox(key="balance_sweep_card")
    assert cards.options and set(cards.options) <= set(workspace(at).sheet.frame["name"])
    ruleset = RULESETS[ruleset_id]
    headers = at.selectbox(key="balance_sweep_field").options  # the sheet's own headers (souls writes `def`)
    fields = [ruleset.header_lookup[normalize_header(header)] for header in headers]
    column_types = {c.field: c.type_name for c in ruleset.columns}
    assert fields and all(column_types[f].startswith(("whole number", "number")) for f in fields)
    assert not at.error and at.button(key="balance_sweep_run") is not None


def test_a_real_engine_sweeps_a_card_of_its_bundled_set() -> None:
    ruleset_id = ruleset_with_engine_and_decks()
    assert ruleset_id is not None, "no registered ruleset has a match engine and two bundled decks"
    path = first_bundled(ruleset_id)
    assert path is not None
    at = _sweep_tab(go(open_bundled(new_app(timeout=REAL_ENGINE_TIMEOUT), path), BALANCE))
    card = at.selectbox(key="balance_sweep_card").value
    field = at.selectbox(key="balance_sweep_field").value
    assert card is not None and field is not None
    entry = load_cardset(path, ruleset_id).find(card)
    assert entry is not None, f"{card} is not in {path.name}"
    current = getattr(entry.card, field)
    values = f"{current},{current + 1}"
    at = _run_sweep(at, card, field, values, per_value=20, seed=1, timeout=REAL_ENGINE_TIMEOUT)
    assert not at.error, [e.value for e in at.error]
    kept = next(iter(results_store_values(at)))
    assert kept.meta["ruleset"] == ruleset_id and kept.points["value"].tolist() == [current, current + 1]
    assert len(plotly_charts(at)) == 1
    assert f"{ruleset_id} v{RULESETS[ruleset_id].version} · " in shown_text(at)


@pytest.mark.parametrize(
    ("key", "typed", "says"),
    [
        (
            "balance_matches",
            2_000_000,
            "Matches (A vs B, and per matchup): 2,000,000 is outside the limit, 10 to 1,000,000.",
        ),
        ("balance_per_card", 5, "Matches per card (power curve): 5 is outside the limit, 10 to 1,000,000."),
        ("balance_seed", -1, "Seed: -1 is outside the limit, 0 to 2,147,483,647."),
    ],
)
def test_a_number_out_of_range_is_refused_on_the_page_before_run(
    monkeypatch: pytest.MonkeyPatch, key: str, typed: int, says: str
) -> None:
    at = _toy_balance(monkeypatch)
    assert "From 10 to 1,000,000." in at.number_input(key="balance_matches").help  # the limit is said up front
    at.number_input(key=key).set_value(typed)
    at.run()
    assert [e.value for e in at.error] == [says + " Change it to run."]
    assert at.button(key="balance_run").disabled  # Run cannot silently use the old value
    at.number_input(key=key).set_value(100)
    at.run()
    assert not at.error and not at.button(key="balance_run").disabled


def test_a_sweep_refuses_an_out_of_range_count_too(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _sweep_tab(_toy_balance(monkeypatch))
    at.number_input(key="balance_sweep_per_value").set_value(2_000_000)
    at.run()
    assert [e.value for e in at.error] == [
        "Matches per value: 2,000,000 is outside the limit, 10 to 200,000. Change it to run."
    ]
    assert at.button(key="balance_sweep_run").disabled


def test_the_apps_default_run_gives_the_command_lines_default_powers(
    monkeypatch: pytest.MonkeyPatch, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json
    import shutil

    from app.app_helpers import TOY_OTHER_DECK, TOY_REFERENCE_DECK

    from workbench.app import DECKS
    from workbench.cli import main

    monkeypatch.setitem(RULESETS, "toy", TOY)
    # The same set and decks on both sides; deck names that sort as they were added, as a decks/ folder sorts.
    decks = {"a_reference": TOY_REFERENCE_DECK, "b_other": TOY_OTHER_DECK}
    at = upload_cardset(new_app(), DATA / "toy_cards.csv", ruleset="toy")
    go(at, DECKS)
    for name, text in decks.items():
        at.text_input(key="deck_paste_name").set_value(name)
        at.text_area(key="deck_paste_text").set_value(text)
        at.run()
        at.button(key="deck_add_pasted").click()
        at.run()
    at = go(at, BALANCE)
    at.button(key="balance_run").click()  # nothing changed: the page's defaults
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (results,) = results_store_values(at)
    assert results.settings.decks == ("a_reference", "b_other")
    assert results.curve.meta["matches_per_card"] == POWER_CURVE_DEFAULTS.matches_per_card

    shutil.copy(DATA / "toy_cards.csv", tmp_path / "toy_cards.csv")
    (tmp_path / "decks").mkdir()
    for name, text in decks.items():
        (tmp_path / "decks" / f"{name}.txt").write_text(text + "\n", encoding="utf-8")
    assert main(["power-curve", str(tmp_path / "toy_cards.csv"), "--ruleset", "toy", "--format", "json"]) == 0
    cli_curve = json.loads(capsys.readouterr().out)
    assert (
        cli_curve["gauntlet"] == list(results.curve.meta["gauntlet"])
        and cli_curve["seed"] == results.curve.meta["seed"]
    )
    app_rows = results.curve.cards.to_dict(orient="records")
    assert [row["card"] for row in cli_curve["cards"]] == [row["card"] for row in app_rows]
    for cli_row, app_row in zip(cli_curve["cards"], app_rows, strict=True):
        assert (cli_row["power"], cli_row["low"], cli_row["high"], cli_row["flag"]) == (
            app_row["power"],
            app_row["low"],
            app_row["high"],
            app_row["flag"],
        )


TITAN_CARDS = (DATA / "toy_cards.csv").read_text(encoding="utf-8") + "Titan,unit,11,9\n"
"""The toy set and Titan, which costs more than the toy's treasury (10): drawn, never played."""


def _toy_balance_with_titan(monkeypatch: pytest.MonkeyPatch) -> AppTest:
    from app.app_helpers import TOY_OTHER_DECK, TOY_REFERENCE_DECK

    from workbench.app import DECKS

    monkeypatch.setitem(RULESETS, "toy", TOY)
    at = upload_cardset(new_app(), data=TITAN_CARDS.encode(), name="toy_titan.csv", ruleset="toy")
    go(at, DECKS)
    for name, text in (("reference", TOY_REFERENCE_DECK), ("other", TOY_OTHER_DECK)):
        at.text_input(key="deck_paste_name").set_value(name)
        at.text_area(key="deck_paste_text").set_value(text)
        at.run()
        at.button(key="deck_add_pasted").click()
        at.run()
    return go(at, BALANCE)


def test_the_power_table_gives_play_shares_and_sets_a_card_never_played_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _run(_toy_balance_with_titan(monkeypatch), per_card=400)
    results = list(results_store_values(at))[0]
    text = shown_text(at)
    # Above the chart: what the line says (four judged toy cards cannot show power rising with cost) and the count.
    warnings = [w.value for w in at.warning]
    assert all(statement in warnings for statement in results.curve.statements())
    assert "Power does not rise with cost here" in text and "Suggested costs are withheld" in text
    assert "1 of 7 measured cards were played in fewer than 5% of their matches (Titan)" in text
    power_table = next(frame for frame in at.dataframe if "suggested_cost" in frame.value.columns).value
    assert {"played", "drawn", "first_played_turn", "reason"} <= set(power_table.columns)
    titan = power_table[power_table["card"] == "Titan"].iloc[0]
    assert titan["flag"] == "rarely played" and titan["played"] == 0 and titan["drawn"] > 0.7
    assert titan["reason"].startswith("played in 0% of matches (drawn in") and "cannot be afforded" in titan["reason"]
    assert list(power_table["flag"])[-2:] == ["rarely played", "baseline"]  # verdicts first, then the unjudged
    mid = power_table[power_table["card"] == "Mid"].iloc[0]
    assert mid["played"] == mid["drawn"] > 0.9 and mid["first_played_turn"] == 1.0
    figure = chart_figure(at, 2)
    apart = next(trace for trace in figure["data"] if trace.get("name") == "rarely played (not judged)")
    assert [row[0] for row in apart["customdata"]] == ["Titan"] and apart["marker"]["symbol"] == "circle-open"
    assert "played in 0% of matches" in apart["customdata"][0][6]
    notes = [note["text"] for note in figure["layout"].get("annotations", [])]
    assert "Power does not rise with cost here: suggested costs are withheld." in notes
    assert "None" not in text


def test_a_sweep_of_a_card_never_played_says_the_field_never_changed_a_match(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _run_sweep(_sweep_tab(_toy_balance_with_titan(monkeypatch)), "Titan", "strength", "7..9", per_value=100)
    warning = [w.value for w in at.warning if "never changed a match" in str(w.value)]
    assert len(warning) == 1 and warning[0].startswith("This field never changed a match: at every value swept")
    assert "Titan was never played" in warning[0]
    table = next(frame.value for frame in at.dataframe if "band_low" in frame.value.columns)
    assert table["changed"].tolist() == [False, False, False] and table["played"].tolist() == [0.0, 0.0, 0.0]
    assert table["note"].iloc[0].startswith("this field never changed a match")
    assert table["note"].iloc[2].startswith("the card's current value")
    figure = chart_figure(at, 0)
    notes = [note["text"] for note in figure["layout"].get("annotations", [])]
    assert "This field never changed a match. Titan was never played at any value." in notes


def test_the_balance_page_shows_the_games_health_at_its_top_after_a_check() -> None:
    from workbench.health import GameHealth

    path = first_bundled("circles")
    assert path is not None
    at = go(open_bundled(new_app(timeout=REAL_ENGINE_TIMEOUT), path), BALANCE)
    assert at.subheader[0].value == "Game health"  # above the Simulation and Sweep tabs
    assert "Press Check game health" in shown_text(at) and not at.metric
    at.number_input(key="balance_health_matches").set_value(200)
    at.number_input(key="balance_health_seed").set_value(4)
    at.run()
    at.button(key="balance_health_run").click()
    at.run(timeout=REAL_ENGINE_TIMEOUT)
    assert not at.exception, [e.value for e in at.exception]
    health = next(kept for kept in results_store_values(at) if isinstance(kept, GameHealth))
    assert health.meta["matches_per_pair"] == 200 and health.meta["seed"] == 4
    assert health.meta["decks"] == list(workspace(at).decks)
    assert [m.label for m in at.metric] == ["First player wins", "Median game length", "Turn-cap hits", "Draws"]
    assert at.metric[0].value == f"{health.figure('first_player').value:.1%}"
    warnings = [as_read(w.value) for w in at.warning]
    assert any("a strong first-player advantage" in w and "new_characters_attack=false" in w for w in warnings)
    assert any("too short for most cards to be played" in w for w in warnings)
    text = shown_text(at)
    assert "seed 4" in text and "200 matches per ordered pair of decks" in text
    figures = next(frame for frame in at.dataframe if "healthy" in frame.value.columns).value
    assert figures["figure"].iloc[0] == "first-player win rate"
    assert "Game length over every pair of decks" in str(chart_figure(at, 0)["layout"]["title"])
    assert "None" not in text
    # Nothing more is simulated on a plain rerun: the check is kept for these settings.
    at.run()
    assert [m.label for m in at.metric][:1] == ["First player wins"]


def test_the_power_curve_compares_policies_and_auto_decks_and_takes_the_play_share_threshold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A designer asks for a second policy, two auto decks and a 0% threshold: four curves on one seed, the cards
    whose verdict differs first, and Titan (never affordable) judged since 0% judges every card."""
    at = _toy_balance_with_titan(monkeypatch)
    at.multiselect(key="balance_also_policies").set_value(["random"])
    at.number_input(key="balance_auto_decks").set_value(2)
    at.number_input(key="balance_min_play_share").set_value(0)
    at = _run(at, per_card=240)
    results = list(results_store_values(at))[0]
    runs = results.verdicts
    assert runs is not None and runs.labels == ["greedy, hand", "greedy, auto:2", "random, hand", "random, auto:2"]
    # The page's main curve is deck A's policy with the gauntlet asked for: the auto one.
    assert results.curve is runs.curve("greedy, auto:2")
    assert results.curve.meta["gauntlet"][-2:] == ["auto 1", "auto 2"]
    assert all(curve.meta["min_play_share"] == 0 for _, curve in runs.runs.values())
    assert "rarely played" not in set(results.curve.cards["flag"])
    comparison = next(
        frame for frame in at.dataframe if "why" in frame.value.columns and "sensitive" in frame.value.columns
    )
    assert comparison.value["card"].tolist() == runs.comparison()["card"].tolist()
    assert runs.statement() in [*[w.value for w in at.warning], *[i.value for i in at.info]]
    # Which decks were used: the auto decks' lists, as the run built them.
    shown_code = [block.value for block in at.code]
    assert all(f"# {name}\n{text.rstrip()}" in shown_code for name, text in results.curve.meta["auto_decks"].items())
    # The toy plays the same under either policy: any difference is the gauntlet's, never the policy's.
    assert not any("policy-sensitive" in why for why in comparison.value["why"])
    assert len(plotly_charts(at)) >= 4 + 1


def test_an_out_of_range_auto_deck_count_keeps_run_off(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _toy_balance(monkeypatch)
    at.number_input(key="balance_auto_decks").set_value(500)
    at.run()
    assert "Auto decks (power curve): 500 is outside the limit, 0 to 64." in shown_text(at)
    assert at.button(key="balance_run").disabled


def test_the_report_downloads_hold_the_health_checked_above(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _toy_balance(monkeypatch)
    at.number_input(key="balance_health_matches").set_value(100)
    at.run()
    at = _run(at)
    assert "Press Check game health above to add the game's health to the reports." in shown_text(at)
    at.button(key="balance_health_run").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert "The reports hold the game health checked above (same decks and rule options)." in shown_text(at)


def _power_table(at: AppTest) -> Any:
    """The power curve's card table (the element: `.value` is its frame, `.proto.columns` its column settings)."""
    return next(frame for frame in at.dataframe if "suggested_cost" in frame.value.columns)


def test_the_tolerance_set_beside_the_budget_decides_the_curve(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _toy_balance(monkeypatch)
    tolerance = at.number_input(key="balance_tolerance")
    assert tolerance.value == POWER_CURVE_DEFAULTS.tolerance
    assert "Mispricing that does not matter" in tolerance.help and "From 0 to 1." in tolerance.help
    tolerance.set_value(0.05)
    at = _run(at)
    (results,) = results_store_values(at)
    assert results.settings.tolerance == 0.05
    assert results.curve.meta["verdict_rule"]["tolerance"] == 0.05
    assert any("beyond band ± 0.05 of score (the tolerance)" in w.value for w in at.warning)  # curve.statements()
    assert "tolerance 0.05." in shown_text(at)
    figure = chart_figure(at, 2)
    # The toy's power does not rise with cost: the tolerance is drawn around each cost's mean.
    edges = next(trace for trace in figure["data"] if trace.get("name") == "tier mean ± tolerance (0.05)")
    assert edges["line"]["dash"] == "dash"
    # Another tolerance is another run: kept apart, the first one's results shown again when it is set back.
    at.number_input(key="balance_tolerance").set_value(POWER_CURVE_DEFAULTS.tolerance)
    at.run()
    assert "1 earlier result(s) from other settings are kept" in shown_text(at)


def test_a_tolerance_out_of_range_keeps_run_off(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _toy_balance(monkeypatch)
    at.number_input(key="balance_tolerance").set_value(-0.01)
    at.run()
    assert [e.value for e in at.error] == ["Tolerance (score): -0.01 is outside the limit, 0 to 1. Change it to run."]
    assert at.button(key="balance_run").disabled
    at.number_input(key="balance_tolerance").set_value(0.0)
    at.run()
    assert not at.error and not at.button(key="balance_run").disabled


def test_the_power_table_shows_stability_and_what_decides_each_card(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _run(_toy_balance(monkeypatch))
    (results,) = results_store_values(at)
    table = _power_table(at)
    frame = table.value
    assert {"stability", "q_value", "detectable", "matches_to_decide"} <= set(frame.columns)
    judged = frame[frame["flag"] != "baseline"]
    assert judged["stability"].between(0, 1).all()  # a share, shown as a percentage bar
    assert frame.loc[frame["flag"] == "baseline", "stability"].isna().all()
    columns = json.loads(table.proto.columns)
    assert columns["stability"]["type_config"]["type"] == "progress"
    assert columns["stability"]["type_config"]["format"] == "percent"
    assert f"{POWER_CURVE_DEFAULTS.resamples} bootstrap resamples" in columns["stability"]["help"]
    assert "matches per card would decide it" in columns["matches_to_decide"]["help"]
    # The toy's two-card tiers are too far apart to decide anything; its lone card at cost 2 has no comparator.
    flags = dict(zip(frame["card"], frame["flag"], strict=True))
    assert flags["Mid"] == NO_COMPARATOR and UNDECIDED in flags.values()
    assert list(frame["flag"]) == sorted(frame["flag"], key=list(FLAGS).index)  # verdicts first, baseline last
    figure = chart_figure(at, 2)
    undecided = next(trace for trace in figure["data"] if trace.get("name") == UNDECIDED)
    assert undecided["marker"]["color"] == FLAG_COLOURS[UNDECIDED] and undecided["marker"]["symbol"] == "diamond"
    hover = undecided["customdata"][0][8]  # plotly_text writes % as &#37;
    stability = re.search(r"stability (\d+)&#37; \(undecided in (\d+)(?:<br>| )of (\d+)", hover)
    assert stability is not None and stability.group(3) == str(POWER_CURVE_DEFAULTS.resamples)
    assert round(100 * int(stability.group(2)) / int(stability.group(3))) == int(stability.group(1)) >= 90
    assert "q = " in hover and "± tolerance 0.02" in hover
    lone = next(trace for trace in figure["data"] if trace.get("name") == FLAG_NAMES[NO_COMPARATOR])
    assert [row[0] for row in lone["customdata"]] == ["Mid"] and lone["marker"]["symbol"] == "circle-open"
    text = shown_text(at)
    assert all(statement in text for statement in results.curve.statements())
    assert "None" not in text
    assert "the rule options box is open" not in text  # no page-script string written by Streamlit magic


def test_decide_the_undecided_reruns_the_curve_at_the_budget_it_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy's undecided cards cannot be decided by matches (its tiers' spread is too wide), so the curve is made to
    say 120 matches per card would: the button must run exactly that budget, under the same settings."""
    import workbench.verdicts as verdicts

    measured = verdicts.power_curve

    def deciding_curve(*args: Any, **kwargs: Any) -> Any:
        curve = measured(*args, **kwargs)
        if curve.meta["matches_per_card"] < 120:
            curve.meta["matches_to_decide_all"] = 120
        return curve

    monkeypatch.setattr(verdicts, "power_curve", deciding_curve)
    at = _toy_balance(monkeypatch)
    at.number_input(key="balance_tolerance").set_value(0.03)
    at = _run(at, per_card=60)
    button = at.button(key="balance_decide")
    assert button.label == "Decide the undecided: run 120 matches per card" and not button.disabled
    button.click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.number_input(key="balance_per_card").value == 120
    budgets = sorted(kept.settings.matches_per_card for kept in results_store_values(at))
    assert budgets == [60, 120]
    latest = next(kept for kept in results_store_values(at) if kept.settings.matches_per_card == 120)
    assert latest.curve.meta["matches_per_card"] == 120 and latest.settings.tolerance == 0.03
    assert "Done in" in shown_text(at)
    assert not [b for b in at.button if b.key == "balance_decide"]  # decided at this budget: no button
    at.run()  # a plain rerun runs nothing again
    assert "Done in" not in shown_text(at) and len(list(results_store_values(at))) == 2


def test_decide_the_undecided_is_off_beyond_the_pages_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    import workbench.verdicts as verdicts

    measured = verdicts.power_curve

    def far_curve(*args: Any, **kwargs: Any) -> Any:
        curve = measured(*args, **kwargs)
        curve.meta["matches_to_decide_all"] = 5_000_000
        return curve

    monkeypatch.setattr(verdicts, "power_curve", far_curve)
    at = _run(_toy_balance(monkeypatch))
    button = at.button(key="balance_decide")
    assert button.disabled and "limit of 1,000,000 matches per card" in button.help


def test_a_run_stopped_by_another_button_says_so_where_its_progress_was(monkeypatch: pytest.MonkeyPatch) -> None:
    # A check of game health still running when Run simulation was pressed: Streamlit stops its page run, and the
    # run's record (set when it starts, removed when it ends) is still there on the next page run.
    at = _toy_balance(monkeypatch)
    at.session_state["balance_health_cancel:running"] = {
        "what": "game health check",
        "started": time.time() - 12,
        "reached": "Game health: 5,000 of 18,000 matches · 12 s so far",
    }
    at.run()
    warnings = [w.value for w in at.warning]
    assert any(
        text.startswith("The game health check was interrupted: something else was asked of the page while it ran")
        and "nothing from it was kept" in text
        and "Game health: 5,000 of 18,000 matches" in as_read(text)
        and text.endswith("Press Check game health to run it again.")
        for text in warnings
    ), warnings
    at.run()  # said once: the next page run has nothing to say of it
    assert not [w for w in at.warning if "interrupted" in w.value]


def test_a_cancelled_run_says_how_far_it_got(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _toy_balance(monkeypatch)
    at.session_state["balance_cancel:running"] = {"what": "simulation", "started": time.time() - 3, "reached": "x"}
    at.session_state["balance_cancel"] = True  # as after a click on Cancel
    at.run()
    assert any(w.value.startswith("The run was cancelled; nothing from it was kept. It had run") for w in at.warning)


def test_card_rows_that_could_not_be_read_are_named_above_every_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30: a row left out of the simulation is said on the page, with its finding, never skipped in silence."""
    monkeypatch.setitem(RULESETS, "toy", TOY)
    data = (DATA / "toy_cards.csv").read_bytes() + b"Broken,unit,two,3\n"
    at = go(upload_cardset(new_app(), data=data, name="toy_broken.csv", ruleset="toy"), BALANCE)
    text = shown_text(at)
    assert "1 card row of toy_broken.csv could not be read and is left out of every figure on this page" in text
    assert "Broken" in text and ":cost: error" in text


@pytest.mark.parametrize(
    ("policy", "box", "default", "value", "played"),
    [
        ("epsilon", "epsilon", pytest.approx(0.1), 0.25, "epsilon:0.25"),
        ("search", "search_rollouts", None, 3, "search:3"),
    ],
)
def test_a_policy_s_parameter_box_opens_with_it_and_the_run_says_which_value_played(
    policy: str, box: str, default: Any, value: float, played: str
) -> None:
    # A designer picks epsilon (search) for deck A and sets its exploration rate to 0.25 (its own budget to 3
    # rollouts a candidate) and runs: the result's provenance names epsilon:0.25 (search:3), the command line's
    # --policy; the box opens with the policy only. Search's box starts empty: the rule option's budget.
    path = first_bundled("circles")
    assert path is not None
    at = go(open_bundled(new_app(), path), BALANCE)
    key = f"balance_policy_a_{box}"
    assert not [n for n in at.number_input if n.key == key]
    at.selectbox(key="balance_policy_a").set_value(policy)
    at.run()
    number = at.number_input(key=key)
    assert number.value == default
    number.set_value(value)
    at.checkbox(key="balance_with_curve").uncheck()
    at.checkbox(key="balance_with_matchups").uncheck()
    _run(at, matches=40, timeout=REAL_ENGINE_TIMEOUT)
    assert played in shown_text(at)
    at.selectbox(key="balance_policy_a").set_value("greedy")
    at.run()
    assert not [n for n in at.number_input if n.key == key]


def test_search_s_own_depth_and_rollout_policy_open_with_it_and_the_run_names_them() -> None:
    # A designer picks search for deck A in souls, cuts its rollouts off at once (depth 0 plays them to the end) and
    # has them played by random, then runs: the provenance names search:depth=0:rollout_policy=random, the command
    # line's --policy. Circles' search takes no depth, so its page offers no depth box.
    path = first_bundled("souls")
    assert path is not None
    at = go(open_bundled(new_app(), path), BALANCE)
    at.selectbox(key="balance_policy_a").set_value("search")
    at.run()
    depth = at.number_input(key="balance_policy_a_search_depth")
    assert depth.value is None
    depth.set_value(0)
    at.selectbox(key="balance_policy_a_search_rollout_policy").set_value("random")
    at.checkbox(key="balance_with_curve").uncheck()
    at.checkbox(key="balance_with_matchups").uncheck()
    _run(at, matches=20, timeout=REAL_ENGINE_TIMEOUT)
    assert "search:depth=0:rollout_policy=random" in shown_text(at)
    circles = first_bundled("circles")
    assert circles is not None
    at = go(open_bundled(new_app(), circles), BALANCE)
    at.selectbox(key="balance_policy_a").set_value("search")
    at.run()
    assert not [n for n in at.number_input if n.key == "balance_policy_a_search_depth"]
    assert [s for s in at.selectbox if s.key == "balance_policy_a_search_rollout_policy"]
