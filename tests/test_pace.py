"""This machine's pace (workbench/pace.py, issue 33 item 3): `workbench bench` keeps its one-core figures in the user
cache, and the estimates turn a run's match count into words with the figure's provenance, or say there is none."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from toy_engine import TOY

from workbench import pace
from workbench.balance_study import StudySettings, run_study
from workbench.cards import CardSet, Deck
from workbench.cli import main
from workbench.pace import (
    MATCHES,
    WHOLE_GAMES,
    Pace,
    Part,
    about_text,
    cores_for,
    estimate_text,
    health_estimate,
    keep_bench_figures,
    keep_paces,
    no_pace_text,
    pace_for,
    pace_path,
    read_paces,
    run_estimate,
    study_estimate,
)
from workbench.rulesets import RULESETS, get_ruleset
from workbench.simulate import PARALLEL_SECONDS

TOY_ROWS = [
    {"name": "Filler", "kind": "unit", "cost": 2, "strength": 2},
    {"name": "Cheap", "kind": "unit", "cost": 1, "strength": 1},
    {"name": "Mid", "kind": "unit", "cost": 2, "strength": 4},
    {"name": "Big", "kind": "unit", "cost": 3, "strength": 6},
]


@pytest.fixture(autouse=True)
def user_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test keeps its figures in a user cache of its own, never the machine's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def toy(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck], monkeypatch: pytest.MonkeyPatch
) -> tuple[CardSet, list[Deck]]:
    monkeypatch.setitem(RULESETS, "toy", TOY)
    cardset = make_cardset(TOY, TOY_ROWS)
    return cardset, [
        make_deck(cardset, "6 Filler\n2 Cheap\n2 Mid\n2 Big", name="reference"),
        make_deck(cardset, "4 Filler\n4 Cheap\n4 Big", name="other"),
    ]


def figure(policy: str = "greedy", per_second: float = 29_000.0, engine_version: str = "6", **changes: Any) -> Pace:
    return replace(
        Pace(
            ruleset="source",
            unit=MATCHES,
            policy=policy,
            per_second=per_second,
            engine_version=engine_version,
            ruleset_version="1.6",
            measured=200_000,
            recorded_on="2026-11-29",
            cpus=2,
            workbench_version="0.1.0",
        ),
        **changes,
    )


def test_a_figure_is_kept_in_the_user_cache_and_read_back(user_cache: Path) -> None:
    path = keep_paces([figure()])
    assert path == pace_path() == user_cache / "card-workbench" / "pace.json"
    assert pace_for("source", "6", "greedy") == figure()
    assert pace_for("source", "6", "search") is None and pace_for("souls", "6", "greedy") is None
    # Merged with what is there: a later figure of another policy keeps the first; one of the same policy replaces it.
    keep_paces([figure("search", 31.0)])
    keep_paces([figure(per_second=30_000.0, recorded_on="2026-11-30")])
    kept = read_paces()
    assert sorted(p.policy for p in kept.values()) == ["greedy", "search"]
    assert pace_for("source", "6", "greedy") == figure(per_second=30_000.0, recorded_on="2026-11-30")
    # Written whole: no temporary file or partial record left beside it.
    assert sorted(p.name for p in path.parent.iterdir() if not p.name.endswith(".lock")) == ["pace.json"]
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == pace.PACE_FORMAT


def test_a_figure_of_another_engine_version_is_stale_and_not_used() -> None:
    keep_paces([figure(engine_version="5")])
    assert pace_for("source", "6", "greedy") is None
    said = no_pace_text("source", "6", "greedy")
    assert "is for engine 5 (2026-11-29), not engine 6" in said and "`workbench bench --ruleset source`" in said
    estimate = run_estimate("source", "6", [Part("the match", 1_000, ("greedy",), 1_000)])
    assert estimate.seconds is None and estimate.text.startswith("No time estimate: ")


@pytest.mark.parametrize(
    "content",
    [b"{not json", b"\xff\xfe\x00garbage", b"[1, 2, 3]", b'{"format": 99, "paces": []}', b'{"format": 1}'],
    ids=["broken", "not text", "a list", "another format", "no figures"],
)
def test_a_corrupt_or_foreign_record_is_ignored_and_replaced_by_the_next_bench(
    content: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    path = pace_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    assert read_paces() == {} and pace_for("source", "6", "greedy") is None
    assert "no bench figure for greedy with the source engine on this machine" in no_pace_text("source", "6", "greedy")
    keep_paces([figure()])
    assert pace_for("source", "6", "greedy") == figure()
    assert "Traceback" not in capsys.readouterr().err


def test_a_damaged_entry_loses_that_figure_only() -> None:
    keep_paces([figure(), figure("search", 31.0)])
    data = json.loads(pace_path().read_text(encoding="utf-8"))
    data["paces"][0]["per_second"] = "fast"
    pace_path().write_text(json.dumps(data), encoding="utf-8")
    assert [p.policy for p in read_paces().values()] == ["search"]


def test_the_words_give_the_time_the_cores_and_where_the_figure_came_from() -> None:
    text = estimate_text(2_320_000, figure(), 2)
    assert text == (
        "About 40 s on 2 cores at this machine's pace (workbench bench on 2026-11-29: 29,000 matches a second on one "
        "core, greedy, source engine 6), for the 2,320,000 matches alone: loading (or compiling) the engine and "
        "starting the workers come on top."
    )
    assert [about_text(s) for s in (0.4, 40, 59.6, 68, 190, 599, 894, 3_590, 3_660, 7_200)] == [
        "under a second",
        "about 40 s",
        "about 1 min",
        "about 1 min 10 s",
        "about 3 min 10 s",
        "about 10 min",
        "about 15 min",
        "about 1 h",
        "about 1 h 1 min",
        "about 2 h",
    ]


def test_without_a_figure_the_words_say_so_and_how_to_measure_one() -> None:
    assert no_pace_text("souls", "6", "search") == (
        "no bench figure for search with the souls engine on this machine: `workbench bench --ruleset souls` "
        "measures one"
    )
    assert "`workbench bench --ruleset souls --policy random`" in no_pace_text("souls", "6", "random")
    whole = no_pace_text("blades", "3 / market 2", "greedy v random", WHOLE_GAMES)
    assert whole.startswith("no bench figure for whole games with seat A greedy and the other seats random")
    assert "no bench figure" in no_pace_text("blades", "3 / market 2", "search v greedy", WHOLE_GAMES)
    estimate = run_estimate("souls", "6", [Part("the power curve", 10_000, ("search",), 10_000)])
    assert estimate.seconds is None
    assert estimate.text == f"No time estimate: {no_pace_text('souls', '6', 'search')}."


def test_each_part_runs_at_its_own_policys_figure_on_the_cores_it_uses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    keep_paces([figure(per_second=10_000.0), figure("search", 100.0)])
    parts = [
        # Below the parallel threshold and quick (3 s on one core): one core.
        Part("the match", 600, ("greedy", "search"), 600),
        Part("the power curve", 200_000, ("search",), 200_000),  # two cores
        Part("the matchups", 8_000, ("greedy",), 2_000, note="one pair at a time"),
        # Below the parallel threshold but slow (20 s on one core: PARALLEL_SECONDS or more): two cores.
        Part("the sweep", 2_000, ("search",), 2_000),
    ]
    estimate = run_estimate("source", "6", parts, workers=8)  # more workers than cores: capped at os.cpu_count()
    # A greedy side against a search side: half a match at each figure.
    assert estimate.seconds == pytest.approx(
        600 * (0.5 / 10_000 + 0.5 / 100) + 200_000 / 200 + 8_000 / 10_000 + 2_000 / 100 / 2
    )
    assert "the power curve about 17 min (200,000 matches on 2 cores)" in estimate.text
    assert "the match about 3 s (600 matches on 1 core)" in estimate.text
    assert "the sweep about 10 s (2,000 matches on 2 cores)" in estimate.text
    assert "Pace: workbench bench on 2026-11-29: 10,000 matches a second" in estimate.text
    assert "100 matches a second on one core, search" in estimate.text
    assert cores_for(19_999, 8) == 1 and cores_for(20_000, 8) == 2 and cores_for(20_000, 1) == 1
    # The runner's rule (`run_jobs`): a small run goes to the workers when it would take PARALLEL_SECONDS on one core;
    # whole games keep their own threshold only.
    assert cores_for(19_999, 8, one_core_seconds=PARALLEL_SECONDS - 0.1) == 1
    assert cores_for(19_999, 8, one_core_seconds=PARALLEL_SECONDS) == 2
    assert cores_for(100, 8, parallel_from=200, one_core_seconds=1_000.0) == 1


def test_the_estimate_counts_the_matches_the_runs_progress_counts(toy: tuple[CardSet, list[Deck]]) -> None:
    """The study's counts are its own progress reports' totals (each phase's first report), not a second formula."""
    cardset, decks = toy
    settings = StudySettings(
        decks=("reference", "other"), policy_a="greedy", policy_b="random", matches=30, matches_per_card=20, seed=1
    )
    keep_paces(
        [
            figure(per_second=1_000.0, ruleset="toy", engine_version="1"),
            figure("random", 2_000.0, ruleset="toy", engine_version="1"),
        ]
    )
    first: dict[str, int] = {}

    def progress(phase: str, done: int, total: int) -> None:
        first.setdefault(phase, total)

    run_study(cardset, {deck.name: deck for deck in decks}, settings, progress=progress, workers=1)
    estimate = study_estimate(cardset, decks, settings)
    assert first["Match"] == 30 and first["Matchups"] == 4 * 30
    curve = first["Power curve"]
    assert f"the power curve under a second ({curve:,} matches on 1 core)" in estimate.text
    assert "the matchups under a second (120 matches, one pair at a time on 1 core)" in estimate.text
    assert estimate.seconds == pytest.approx(30 * (0.5 / 1_000 + 0.5 / 2_000) + curve / 1_000 + 120 / 1_000)
    assert (
        "starting the workers, the second look at undecided cards and the checks of suggested costs come on top"
        in estimate.text
    )
    # The match alone: no power curve, no matchups, so nothing on top but the compile.
    alone = study_estimate(cardset, decks, replace(settings, with_power_curve=False, with_matchups=False))
    assert alone.text.endswith(
        "for the 30 matches alone: loading (or compiling) the engine and starting the workers come on top."
    )
    health = health_estimate(cardset, decks, 50, "greedy")
    assert health.seconds == pytest.approx(4 * 50 / 1_000) and "(one pair at a time)" in health.text


def test_settings_the_run_refuses_give_no_figure(toy: tuple[CardSet, list[Deck]]) -> None:
    cardset, decks = toy
    keep_paces([figure(ruleset="toy", engine_version="1")])
    settings = StudySettings(
        decks=("reference",), policy_a="greedy", policy_b="greedy", matches=0, matches_per_card=20, seed=0
    )
    estimate = study_estimate(cardset, decks[:1], settings)
    assert estimate.seconds is None and "could not be counted" in estimate.text


def test_the_bench_keeps_its_one_core_figures(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, user_cache: Path
) -> None:
    import workbench.bench as bench

    measure, search = bench.bench_power_curve, bench.bench_search
    monkeypatch.setattr(
        bench, "bench_power_curve", lambda ruleset, **s: measure(ruleset, **{**s, "matches_per_card": 5})
    )
    monkeypatch.setattr(bench, "bench_search", lambda ruleset, **s: search(ruleset, matches=100, **s))
    monkeypatch.setattr(bench, "REFERENCE_MATCHES", 10)
    argv = ["bench", "--ruleset", "circles", "--only", "engines", "--matches", "400", "--repeat", "1"]
    assert main([*argv, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (engine,) = data["engines"]
    assert data["pace_file"] == engine["pace"]["file"] == str(user_cache / "card-workbench" / "pace.json")
    ruleset = get_ruleset("circles")
    assert ruleset.engine is not None
    greedy = pace_for("circles", ruleset.engine.version, "greedy")
    searching = pace_for("circles", ruleset.engine.version, "search")
    assert greedy is not None and searching is not None
    assert (greedy.per_second, greedy.measured) == (engine["matches_per_second"], 400)
    assert (searching.per_second, searching.measured) == (engine["search"]["matches_per_second"], 100)
    assert (greedy.ruleset_version, greedy.cpus) == (ruleset.version, os.cpu_count())
    assert [k["policy"] for k in engine["pace"]["kept"]] == ["greedy", "search"]


def test_a_figure_from_too_few_matches_or_other_rules_is_not_kept() -> None:
    circles = get_ruleset("circles")
    result = {
        "policy": "greedy",
        "matches_per_second": 1_000_000,
        "matches": 50,
        "engine_version": "2",
        "search": {"policy": "search", "matches_per_second": 3_000, "matches": 200},
    }
    kept = keep_bench_figures(circles, result)
    assert [k["policy"] for k in kept["kept"]] == ["search"]
    assert kept["not_kept"] == ["greedy matches (timed over 50, fewer than 100)"]
    assert pace_for("circles", "2", "greedy") is None and pace_for("circles", "2", "search") is not None
    other_rules = keep_bench_figures(circles, {**result, "matches": 1_000}, options_given=True)
    assert other_rules["file"] is None and "--option" in other_rules["not_kept"][0]
    assert pace_for("circles", "2", "greedy") is None


def test_a_user_cache_that_cannot_be_written_costs_the_record_not_the_bench(user_cache: Path) -> None:
    user_cache.mkdir(parents=True)
    (user_cache / "card-workbench").write_text("a file where the folder goes", encoding="utf-8")
    result = {"policy": "greedy", "matches_per_second": 1_000_000, "matches": 1_000, "engine_version": "2"}
    kept = keep_bench_figures(get_ruleset("circles"), result)
    assert kept["file"] is None and kept["kept"] == [] and "could not write" in kept["not_kept"][-1]


def test_whole_games_are_timed_on_every_core_from_the_runner_s_threshold_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from workbench.full_game import whole_games_parallel_from
    from workbench.loading import load_cardset
    from workbench.pace import whole_game_version, whole_games_estimate
    from workbench.paths import bundled_sets
    from workbench.rulesets.blades.market_runs import PARALLEL_GAMES

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(
        pace,
        "cores_for",
        lambda size, workers=None, parallel_from=None, one_core_seconds=0.0: 1 if size < (parallel_from or 0) else 2,
    )
    blades = RULESETS["blades"]
    version = whole_game_version(blades)
    keep_paces([Pace("blades", WHOLE_GAMES, "greedy", 20.0, version, blades.version, 20, "2026-11-29", 2, "0.1.0")])
    cardset = load_cardset(bundled_sets("blades")[0])
    assert whole_games_parallel_from(blades) == PARALLEL_GAMES == 200
    assert whole_games_estimate(cardset, 199, "greedy").text.startswith("About 10 s on 1 core")
    assert whole_games_estimate(cardset, 400, "greedy").text.startswith("About 10 s on 2 cores")
