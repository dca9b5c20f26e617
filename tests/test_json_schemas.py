"""Every `--format json` output against its JSON Schema (workbench/schemas/<command>.json, installed with the package):
one object with `schema_version` at its top, for every command and each of its shapes, and errors as JSON too.

The runs are as small as each command allows, on the bundled circles set (its engine compiles once per machine).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from workbench import cli
from workbench.cli import _COMMANDS, SCHEMA_VERSION, main

SCHEMAS = Path(cli.__file__).resolve().parent / "schemas"
SET = "circles/circle_starter"
DECKS = ["--deck", "blue_wall", "--deck", "red_green_rush"]
FULL = ["blades/blades_sample", "--option", "game=full"]


def _schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMAS / f"{name}.json").read_text(encoding="utf-8"))


def _errors(schema_name: str, data: Any) -> list[str]:
    """What in `data` breaks the schema, one line per error (empty when it is valid)."""
    validator = Draft202012Validator(_schema(schema_name))
    return [f"{list(error.absolute_path)}: {error.message[:300]}" for error in validator.iter_errors(data)]


def test_every_command_has_a_valid_schema_and_every_schema_a_command() -> None:
    names = {path.stem for path in SCHEMAS.glob("*.json")}
    assert names == {*_COMMANDS, "error"}
    for name in names:
        schema = _schema(name)
        Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema" and schema["title"]


def test_the_schemas_refuse_the_old_shapes_and_a_missing_field() -> None:
    """Not vacuous: the bare arrays `sets` and `rulesets` printed before schema_version 1, an object without its
    version, and a validate output without its findings all fail."""
    assert _errors("sets", [{"name": "souls/ashfall"}])
    assert _errors("rulesets", {"rulesets": []})  # no schema_version
    assert _errors("validate", {"schema_version": SCHEMA_VERSION, "cardset": "x.csv"})
    assert _errors("simulate", {"schema_version": SCHEMA_VERSION, "deck_a": "A"})
    assert _errors("error", {"schema_version": SCHEMA_VERSION, "error": {"kind": "oops", "exit_code": 2}})


def _run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, Any]:
    code = main([*argv, "--format", "json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


CASES: dict[str, tuple[str, list[str], int]] = {
    # id: (schema, argv, exit code)
    "rulesets": ("rulesets", ["rulesets"], 0),
    "sets": ("sets", ["sets"], 0),
    "validate clean": ("validate", ["validate", SET, *DECKS], 0),
    "validate with errors": ("validate", ["validate", "circles/mistakes"], 1),
    "simulate two decks": ("simulate", ["simulate", SET, *DECKS, "--matches", "40"], 0),
    "simulate matchups": ("simulate", ["simulate", SET, *DECKS, "--deck", "tricks_control", "--matches", "20"], 0),
    "simulate trace": ("simulate", ["simulate", SET, "--deck", "blue_wall", "--trace"], 0),
    "simulate whole games": ("simulate", ["simulate", *FULL, "--matches", "1"], 0),
    "simulate whole-game trace": ("simulate", ["simulate", *FULL, "--trace"], 0),
    "power-curve": ("power-curve", ["power-curve", SET, *DECKS, "--matches-per-card", "10"], 0),
    "power-curve two policies": (
        "power-curve",
        ["power-curve", SET, *DECKS, "--matches-per-card", "10", "--policy", "greedy,random"],
        0,
    ),
    "power-curve whole games": ("power-curve", ["power-curve", *FULL, "--matches-per-card", "1"], 0),
    "sweep": (
        "sweep",
        [
            "sweep",
            SET,
            *DECKS,
            "--card",
            "Tide Sprite",
            "--field",
            "attack",
            "--values",
            "1..2",
            "--matches-per-card",
            "10",
        ],
        0,
    ),
    "health": ("health", ["health", SET, *DECKS, "--matches", "10"], 0),
    "stat-values": (
        "stat-values",
        ["stat-values", SET, *DECKS, "--cards", "12", "--matches-per-card", "40", "--replicates", "2"],
        0,
    ),
    "propose": ("propose", ["propose", SET, *DECKS, "--matches-per-card", "20", "--evaluations", "3"], 0),
    "diff": ("diff", ["diff", SET, "circles/mistakes"], 0),
    "diff with power": ("diff", ["diff", SET, SET, *DECKS, "--matches-per-card", "10"], 0),
    "bench validation": ("bench", ["bench", "--only", "validation", "--cards", "30", "--repeat", "1"], 0),
    "warm": ("warm", ["warm", "circles"], 0),
    "error: unreadable": ("error", ["validate", "no/such/set.csv"], 2),
    "error: usage": ("error", ["simulate", SET, "--matches", "many"], 64),
}


@pytest.mark.parametrize("case", list(CASES))
def test_json_output_matches_its_schema(case: str, capsys: pytest.CaptureFixture[str]) -> None:
    schema, argv, expected_code = CASES[case]
    code, data = _run_json(capsys, argv)
    assert code == expected_code
    assert isinstance(data, dict) and data["schema_version"] == SCHEMA_VERSION
    assert _errors(schema, data) == []
    if schema == "error":
        assert data["error"]["exit_code"] == expected_code


def test_full_game_sweep_matches_its_schema(capsys: pytest.CaptureFixture[str]) -> None:
    from workbench import open_set

    card = open_set("blades/blades_sample").entries[0].card.name
    code, data = _run_json(
        capsys,
        ["sweep", *FULL, "--card", card, "--field", "buy_cost", "--values", "1..2", "--matches-per-card", "1"],
    )
    assert code == 0 and _errors("sweep", data) == []
    assert data["card"] == card and [point["buy_cost"] for point in data["points"]] == [1, 2]


def test_bench_engines_match_the_schema(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The engine figures too; the power-curve figure at a few matches per card instead of 2,000 (its shape is the
    same). The search figure (200 matches) is kept for the app's estimates: in a cache of the test's own, not the
    user's."""
    import workbench.bench as bench

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))

    measure = bench.bench_power_curve

    def small(ruleset: Any, **settings: Any) -> dict[str, Any]:
        return measure(ruleset, **{**settings, "matches_per_card": 5})

    monkeypatch.setattr(bench, "bench_power_curve", small)
    code, data = _run_json(
        capsys, ["bench", "--ruleset", "circles", "--only", "engines", "--matches", "50", "--repeat", "1"]
    )
    assert code == 0 and _errors("bench", data) == []
    (engine,) = data["engines"]
    assert engine["ruleset"] == "circles" and engine["power_curve"]["matches_per_card"] < 2_000


def test_bench_reports_search_and_whole_games_per_second_on_one_core(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 33, item 3: beside greedy, the search's matches a second and (Blades) whole games a second."""
    import workbench.bench as bench

    measure = bench.bench_power_curve
    search = bench.bench_search
    whole = bench.bench_whole_games
    monkeypatch.setattr(
        bench, "bench_power_curve", lambda ruleset, **settings: measure(ruleset, **{**settings, "matches_per_card": 5})
    )
    monkeypatch.setattr(bench, "bench_search", lambda ruleset, **settings: search(ruleset, matches=6, **settings))
    monkeypatch.setattr(bench, "bench_whole_games", lambda ruleset: whole(ruleset, games=2))
    code, data = _run_json(
        capsys, ["bench", "--ruleset", "blades", "--only", "engines", "--matches", "50", "--repeat", "1"]
    )
    assert code == 0 and _errors("bench", data) == []
    (engine,) = data["engines"]
    assert engine["search"]["policy"] == "search" and engine["search"]["matches"] == 6
    assert engine["search"]["matches_per_second"] > 0
    assert engine["whole_games"]["games"] == 2 and engine["whole_games"]["games_per_second"] > 0
    assert engine["whole_games"]["players"] == 4
    # Text: one line each.
    assert main(["bench", "--ruleset", "blades", "--only", "engines", "--matches", "50", "--repeat", "1"]) == 0
    text = capsys.readouterr().out
    assert "search:" in text and "matches/s on one core" in text and "whole games:" in text and "games/s" in text


@pytest.mark.parametrize("command", ["template", "report", "print"])
def test_writing_commands_summaries_match_their_schemas(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = {
        "template": ["template", "circles", "--out", str(tmp_path / "t.xlsx")],
        "report": [
            "report",
            SET,
            *DECKS,
            "--out",
            str(tmp_path / "r.html"),
            "--matches-per-card",
            "10",
            "--matches",
            "10",
        ],
        "print": ["print", SET, "--out", str(tmp_path / "p.html")],
    }[command]
    code, data = _run_json(capsys, argv)
    assert code == 0 and _errors(command, data) == []
    assert Path(data["out"]).is_file()


def test_with_out_dash_the_summary_and_an_error_go_to_stderr(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    assert main(["print", SET, "--out", "-", "--format", "json"]) == 0
    out, err = capsysbinary.readouterr()
    assert out.startswith(b"<!DOCTYPE html>") and _errors("print", json.loads(err)) == []
    assert main(["print", "no/such/set.csv", "--out", "-", "--format", "json"]) == 2
    out, err = capsysbinary.readouterr()
    data = json.loads(err)  # the error object alone: stdout is the file's, and nothing was written there
    assert out == b"" and _errors("error", data) == [] and data["error"]["path"] == "no/such/set.csv"


def test_an_error_in_text_format_stays_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "no/such/set.csv"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("workbench: file no/such/set.csv: the file does not exist")


def test_a_bug_under_json_is_an_error_object(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(args: Any) -> int:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setitem(_COMMANDS, "rulesets", broken)
    code, data = _run_json(capsys, ["rulesets"])
    assert code == 3 and _errors("error", data) == []
    assert data["error"]["kind"] == "bug" and data["error"]["exception"] == "ZeroDivisionError"


def test_the_app_line_matches_its_schema(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.web import cli as streamlit_cli

    monkeypatch.setattr(streamlit_cli, "main", lambda args, **_: None)
    assert main(["app", "--port", "8598", "--headless", "--format", "json", "-q"]) == 0
    data = json.loads(capsys.readouterr().out.splitlines()[0])
    assert _errors("app", data) == []
    assert data["url"] == "http://127.0.0.1:8598" and data["address"] == "127.0.0.1" and data["port"] == 8598


def test_bench_matches_alone_runs_no_power_curve_and_keeps_the_schema(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # `--only matches`: the engines' matches per second without the power curve (which under search takes long).
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    code, data = _run_json(
        capsys, ["bench", "--ruleset", "circles", "--only", "matches", "--matches", "50", "--repeat", "1"]
    )
    assert code == 0 and _errors("bench", data) == []
    (engine,) = data["engines"]
    assert engine["matches_per_second"] > 0 and "power_curve" not in engine and "whole_games" not in engine
    assert data["validation"] == [] and engine["search"]["matches_per_second"] > 0
