"""The notebook API: `import workbench` and its top-level functions, each called as a notebook would, on a bundled set
by name, with the same figures the command line prints for the same seed."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import workbench
from workbench.cards import CardSet, WorkbenchInputError
from workbench.cli import main
from workbench.paths import REPO_ROOT

SET = "circles/circle_starter"
CIRCLES = REPO_ROOT / "cardsets" / "circles" / "circle_starter.csv"


def test_all_names_the_api_and_each_name_is_there() -> None:
    assert set(workbench.__all__) >= {
        "open_set",
        "open_deck",
        "validate_set",
        "simulate_matches",
        "power_curve",
        "game_health",
        "power_curve_figure",
        "bundled_sets",
        "find_cardset",
    }
    for name in workbench.__all__:
        assert hasattr(workbench, name), name
        assert name == "__version__" or (callable(getattr(workbench, name)) and getattr(workbench, name).__doc__)
    assert set(workbench.__all__) <= set(dir(workbench))


def test_import_workbench_loads_no_heavy_library() -> None:
    """`import workbench` stays light: pandas, numpy, numba, pydantic, plotly and streamlit load with the first
    function that needs them."""
    script = (
        "import sys, json, workbench; "
        "print(json.dumps(sorted(m for m in ('pandas', 'numpy', 'numba', 'pydantic', 'plotly', 'streamlit', "
        "'workbench.cards') if m in sys.modules)))"
    )
    loaded = json.loads(
        subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    )
    assert loaded == []


def test_open_set_takes_a_bundled_name_a_path_or_a_card_set() -> None:
    by_name = workbench.open_set(SET)
    assert isinstance(by_name, CardSet) and by_name.path == str(CIRCLES) and by_name.ruleset.id == "circles"
    assert workbench.open_set("Circles/Circle_Starter").path == str(CIRCLES)  # any case, as the commands take it
    assert workbench.open_set(CIRCLES).path == str(CIRCLES)
    assert workbench.open_set(by_name) is by_name
    assert workbench.find_cardset(SET) == CIRCLES
    assert SET in [entry.name for entry in workbench.bundled_sets()]
    with pytest.raises(WorkbenchInputError, match="no bundled set has that name") as refused:
        workbench.open_set("circles/no_such_set")
    assert refused.value.expected is not None and SET in refused.value.expected


def test_open_deck_by_name_or_file() -> None:
    cards = workbench.open_set(SET)
    by_name = workbench.open_deck(cards, "blue_wall")
    by_file = workbench.open_deck(SET, CIRCLES.parent / "decks" / "blue_wall.txt")
    assert by_name.name == by_file.name == "blue_wall"
    assert {name: count for name, (_, count, _) in by_name.counts().items()} == {
        name: count for name, (_, count, _) in by_file.counts().items()
    }


def test_validate_set_gives_the_commands_findings(capsys: pytest.CaptureFixture[str]) -> None:
    report = workbench.validate_set("circles/mistakes")
    assert report.has_errors
    assert main(["validate", "circles/mistakes", "--format", "json"]) == 1
    command = json.loads(capsys.readouterr().out)
    assert [finding.to_json() for finding in report.findings] == json.loads(json.dumps(command["findings"]))
    assert not workbench.validate_set(SET, ["blue_wall"]).has_errors


def test_simulate_matches_gives_the_commands_figures(capsys: pytest.CaptureFixture[str]) -> None:
    results = workbench.simulate_matches(SET, "blue_wall", "red_green_rush", matches=60, seed=5, workers=1)
    argv = ["simulate", SET, "--deck", "blue_wall", "--deck", "red_green_rush", "--matches", "60", "--seed", "5"]
    assert main([*argv, "--format", "json"]) == 0
    command = json.loads(capsys.readouterr().out)
    assert results.win_rate_a.value == command["win_rate_a"]["value"] and results.win_rate_a.trials == 60
    assert results.summary()["deck_b"] == "red_green_rush"


def test_power_curve_and_its_figure() -> None:
    curve = workbench.power_curve(SET, ["blue_wall", "red_green_rush"], matches_per_card=10, seed=2, workers=1)
    assert curve.meta["reference_deck"] == "blue_wall" and curve.meta["matches_per_card"] >= 10
    assert {"card", "cost", "power", "low", "high", "flag"} <= set(curve.cards.columns) and len(curve.cards) > 0
    figure = workbench.power_curve_figure(curve)
    assert type(figure).__name__ == "Figure" and figure.layout.xaxis.title.text == curve.meta["cost_axis"]
    points = sum(len(trace.x) for trace in figure.data if trace.mode == "markers")
    assert points >= len(curve.cards)  # every card is a point (and the tier means)


def test_game_health_on_the_sets_own_decks() -> None:
    health = workbench.game_health(SET, matches=10, seed=1, workers=1)
    data = health.to_json()
    assert data["decks"] == [path.stem for path in sorted((CIRCLES.parent / "decks").glob("*.txt"))]
    assert data["matches_per_pair"] == 10 and isinstance(health.warnings, list)
