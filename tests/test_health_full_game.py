"""`workbench health --option game=full`: the game's own health measured on whole Millennium Blades games.

Small runs throughout (a few games, two seats or two actions a timer segment where the figure allows) so each test
runs in seconds; the figures' meaning is in workbench/health.py (`health_of_full_games`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from workbench import cli
from workbench.cards import WorkbenchInputError
from workbench.cli import SCHEMA_VERSION, main
from workbench.full_game import FULL_GAME_DEFAULTS
from workbench.health import (
    DRAWS,
    FIGURE_KEYS,
    FIRST_PLAYER,
    LENGTH,
    MID_GAME_LEADER,
    NEVER_PLAYED,
    SEAT_PLACEMENT,
    TURN_CAP,
    full_game_health,
    game_health,
    health_lines,
)
from workbench.loading import load_cardset
from workbench.paths import bundled_sets
from workbench.run_settings import RunSettings

SAMPLE = load_cardset(bundled_sets("blades")[0])
FULL = ["blades/blades_sample", "--option", "game=full"]
QUICK = {"game": "full", "market_actions": "2"}
"""Two actions a timer segment: a whole game of four seats in a fraction of a second."""
SCHEMA = json.loads((Path(cli.__file__).resolve().parent / "schemas" / "health.json").read_text(encoding="utf-8"))


def _health_json(games: int, seed: int, options: dict[str, str] | None = None) -> dict[str, Any]:
    run = RunSettings(seed=seed, policy="greedy", options=options or QUICK)
    return full_game_health(SAMPLE, games, run).to_json()


def test_the_same_seed_gives_the_same_figures_and_another_seed_others() -> None:
    first, again = _health_json(6, 3), _health_json(6, 3)
    assert first == again
    other = _health_json(6, 4)
    assert [f["value"] for f in other["figures"]] != [f["value"] for f in first["figures"]]


def test_every_figure_carries_its_provenance_and_every_measured_one_its_interval() -> None:
    data = _health_json(5, 1)
    assert data["game"] == "full" and data["games"] == data["matches"] == 5 and data["seed"] == 1
    assert data["policies"] == ["greedy"] * 4 and data["players"] == 4
    assert data["ruleset"] == "blades" and data["ruleset_version"] and data["market_version"]
    assert data["cardset_hash"] and data["workbench_version"] and data["options"]["game"] == "full"
    keys = [figure["key"] for figure in data["figures"]]
    assert keys == list(FIGURE_KEYS)
    for figure in data["figures"]:
        if figure["measured"] and figure["key"] != NEVER_PLAYED:
            assert figure["low"] <= figure["value"] <= figure["high"], figure
    figures = {figure["key"]: figure for figure in data["figures"]}
    for key in (FIRST_PLAYER, SEAT_PLACEMENT, DRAWS):
        assert figures[key]["measured"]
    # What does not apply to a whole game says so in words, with no number.
    for key in (TURN_CAP, LENGTH):
        assert not figures[key]["measured"] and figures[key]["value"] is None
        assert figures[key]["summary"].startswith("does not apply")
    assert "no turn cap" in figures[TURN_CAP]["summary"]
    assert [row["position"] for row in data["positions"]] == [1, 2, 3, 4]
    assert sum(row["win_share"] for row in data["positions"]) == pytest.approx(1.0)
    assert all(row["games"] == 5 for row in data["store_cards"])


def test_the_json_matches_the_schema_for_whole_games_and_still_for_decks(capsys: pytest.CaptureFixture[str]) -> None:
    validator = Draft202012Validator(SCHEMA)
    code = main(["health", *FULL, "--option", "market_actions=2", "--matches", "3", "--seed", "2", "--format", "json"])
    whole = json.loads(capsys.readouterr().out)
    assert code == 0 and whole["schema_version"] == SCHEMA_VERSION
    assert [e.message for e in validator.iter_errors(whole)] == []
    assert whole["games"] == 3 and whole["seed"] == 2
    # Not vacuous: a whole-game output without its positions, and a decks output without its pairs, both fail.
    assert list(validator.iter_errors({k: v for k, v in whole.items() if k != "positions"}))
    code = main(["health", "circles/circle_starter", "--deck", "blue_wall", "--matches", "4", "--format", "json"])
    decks = json.loads(capsys.readouterr().out)
    assert code == 0 and [e.message for e in validator.iter_errors(decks)] == []
    assert list(validator.iter_errors({k: v for k, v in decks.items() if k != "pairs"}))


def test_the_text_names_whole_games_the_intervals_and_the_figures_that_do_not_apply(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["health", *FULL, "--option", "market_actions=2", "--matches", "4", "--seed", "5"])
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    assert "seed 5, 4 whole games, policies greedy/greedy/greedy/greedy" in lines[0] and "blades v" in lines[0]
    assert "95% Wilson interval" in lines[1]
    assert any(line.startswith("first seat's win share: ") and "[" in line for line in lines)
    assert any(line.startswith("turn-cap hits: does not apply") for line in lines)
    assert any(line.startswith("game length: does not apply") for line in lines)
    assert lines[-1].endswith("warning(s)") or lines[-1].startswith("no warnings")
    # The same text from the same seed.
    main(["health", *FULL, "--option", "market_actions=2", "--matches", "4", "--seed", "5"])
    assert capsys.readouterr().out == out


def test_duel_mode_measures_its_length_in_tournaments() -> None:
    run = RunSettings(seed=0, options={"game": "full", "players": "2", "market_actions": "2"})
    health = full_game_health(SAMPLE, 6, run)
    length = health.figure(LENGTH)
    assert length.measured and length.value is not None and 2 <= length.value <= 3 and length.low is not None
    assert health.meta["two_player_rules"] == "duel"
    assert set(health.lengths["tournaments"]) <= {2, 3}
    assert health.figure(MID_GAME_LEADER).summary
    assert any(line.startswith("game length: Duel Mode games last") for line in health_lines(health))


def test_game_health_plays_whole_games_when_the_options_say_game_full() -> None:
    run = RunSettings(seed=7, options=QUICK)
    assert game_health(SAMPLE, [], 3, run).to_json() == full_game_health(SAMPLE, 3, run).to_json()


def test_progress_counts_whole_games() -> None:
    calls: list[tuple[int, int]] = []
    full_game_health(SAMPLE, 3, RunSettings(options=QUICK, progress=lambda done, total: calls.append((done, total))))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_the_default_game_count_is_the_documented_one(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert FULL_GAME_DEFAULTS.health_games == 400
    import workbench.health as health

    asked: list[int] = []

    def counted(cardset: Any, options: Any, games: int, *rest: Any, **named: Any) -> Any:
        asked.append(games)
        raise WorkbenchInputError("stop here")

    monkeypatch.setattr(health, "run_full_games", counted)
    assert main(["health", *FULL]) == 2
    assert asked == [FULL_GAME_DEFAULTS.health_games]
    capsys.readouterr()
    assert main(["health", "--help"]) == 0
    assert f"(default {FULL_GAME_DEFAULTS.health_games})" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["health", *FULL, "--deck", "anything"], "--deck is not used with --option game=full"),
        (["health", *FULL, "--matches", "0"], "0 whole games is out of range"),
        (["health", *FULL, "--policy", "nonsense", "--matches", "1"], "unknown policy 'nonsense' for the whole game"),
        (["health", *FULL, "--option", "players=9", "--matches", "1"], "outside its range 2 to 5"),
        (["health", "blades/blades_sample", "--option", "game=whole"], "takes one of tournament, full"),
        (["health", "circles/circle_starter", "--option", "game=full"], "has no option 'game'"),
    ],
)
def test_a_bad_option_gives_a_clear_message(argv: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_a_bad_game_count_raises_before_any_game() -> None:
    with pytest.raises(WorkbenchInputError, match="out of range"):
        full_game_health(SAMPLE, 0, RunSettings(options=QUICK))
