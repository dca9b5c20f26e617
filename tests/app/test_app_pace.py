"""The Balance page's time estimates beside its Run buttons (issue 33 item 3): at this machine's pace once `workbench
bench` kept a figure for the engine and policy, and in words how to get one before."""

from __future__ import annotations

from pathlib import Path

import pytest
from app.app_helpers import first_bundled, go, new_app, open_bundled, toy_set_with_decks
from streamlit.testing.v1 import AppTest
from toy_engine import TOY

from workbench.app import BALANCE
from workbench.app.full_game_view import POWER_TAB, SECTION_KEY
from workbench.pace import MATCHES, WHOLE_GAMES, Pace, keep_paces, whole_game_version
from workbench.rulesets import RULESETS


def _toy_balance(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> AppTest:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setitem(RULESETS, "toy", TOY)
    return toy_set_with_decks(BALANCE)


def _captions(at: AppTest) -> list[str]:
    return [caption.value for caption in at.caption]


def _toy_figure(policy: str, per_second: float) -> Pace:
    return Pace(
        ruleset="toy",
        unit=MATCHES,
        policy=policy,
        per_second=per_second,
        engine_version="1",
        ruleset_version="1",
        measured=10_000,
        recorded_on="2026-11-29",
        cpus=2,
        workbench_version="0.1.0",
    )


def test_without_a_bench_figure_the_page_says_how_to_get_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    at = _toy_balance(monkeypatch, tmp_path)
    missing = (
        "No time estimate: no bench figure for greedy with the toy engine on this machine: "
        "`workbench bench --ruleset toy` measures one."
    )
    # Beside Run simulation, and beside Check game health.
    assert _captions(at).count(missing) == 2


def test_a_kept_figure_gives_the_runs_time_at_its_policys_pace(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    at = _toy_balance(monkeypatch, tmp_path)
    # Random's figure keeps the match under PARALLEL_SECONDS on one core (a slower run is timed on every core).
    keep_paces([_toy_figure("greedy", 1_000.0), _toy_figure("random", 20.0)])
    at.number_input(key="balance_matches").set_value(200)
    at.number_input(key="balance_per_card").set_value(60)
    at.run()
    study = next(text for text in _captions(at) if "at this machine's pace: the match" in text)
    assert "at this machine's pace: the match under a second (200 matches on 1 core)" in study
    assert "the matchups under a second (800 matches, one pair at a time on 1 core)" in study
    assert "Pace: workbench bench on 2026-11-29: 1,000 matches a second on one core, greedy, toy engine 1." in study
    assert "starting the workers, the second look at undecided cards and the checks of suggested costs come on top" in (
        study
    )
    # Deck B under random: its side plays at random's own figure (half of each match), and the words name both.
    at.selectbox(key="balance_policy_b").set_value("random")
    at.run()
    study = next(text for text in _captions(at) if "at this machine's pace: the match" in text)
    assert "the match about 5 s (200 matches on 1 core)" in study
    assert "20 matches a second on one core, random, toy engine 1" in study


def test_the_patch_proposal_search_says_the_most_it_takes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    at = _toy_balance(monkeypatch, tmp_path)
    keep_paces([_toy_figure("greedy", 1_000.0)])
    at.session_state["balance_section"] = "Patch proposals"
    at.run()
    at.number_input(key="proposals_matches").set_value(100)
    at.number_input(key="proposals_evaluations").set_value(9)
    at.run()
    (search,) = [text for text in _captions(at) if "at most at this machine's pace" in text]
    # The set as given and up to 9 candidates, each a power curve and its match-ups.
    assert "sets of" in search and "10 sets of" in search and "their match-ups" in search
    assert "proving the best proposals on a new seed (a few more power curves) come on top" in search


def test_whole_games_say_their_time_at_the_seats_figure(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    blades = RULESETS["blades"]
    version = whole_game_version(blades)
    keep_paces(
        [
            Pace("blades", WHOLE_GAMES, "greedy", 20.0, version, blades.version, 20, "2026-11-29", 2, "0.1.0"),
            Pace("blades", WHOLE_GAMES, "greedy v random", 25.0, version, blades.version, 20, "2026-11-29", 2, "0.1.0"),
        ]
    )
    path = first_bundled("blades")
    assert path is not None
    at = go(open_bundled(new_app(), path), BALANCE)
    at.selectbox(key="option:balance:blades:game").set_value("full")
    at.run()
    assert (
        "About 5 s on 1 core at this machine's pace (workbench bench on 2026-11-29: 20 whole games a second on one "
        f"core, every seat greedy, blades engine {version}), for the 100 whole games alone: loading the engine comes "
        "on top."
    ) in _captions(at)
    at.selectbox(key="balance_full_policy_b").set_value("random")
    at.run()
    assert any("on one core, seat A greedy and the other seats random" in text for text in _captions(at))
    at.selectbox(key="balance_full_policy_b").set_value("search")
    at.run()
    assert any(
        text.startswith(
            "No time estimate: no bench figure for whole games with seat A greedy and the other seats search"
        )
        for text in _captions(at)
    )
    at.session_state[SECTION_KEY] = POWER_TAB
    at.run()
    (power,) = [text for text in _captions(at) if "at this machine's pace" in text]
    assert "whole games alone (" in power and "runs of 50" in power
