"""The command-line contract of docs/cli.md and docs/formats.md: commands, JSON shapes, exit codes, habits."""

from __future__ import annotations

import argparse
import fcntl
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from workbench.bench import BENCH_MATCHES, SEARCH_MATCHES, bench_matches_for
from workbench.cli import _COMMANDS, EXIT_USAGE, _parser, main
from workbench.loading import load_cardset
from workbench.paths import REPO_ROOT
from workbench.rulesets import RULESETS, get_ruleset

FINDING_KEYS = ["severity", "rule", "card", "deck", "sheet", "row", "column", "message", "expected", "actual"]


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main([*argv, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_rulesets_lists_every_registered_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "rulesets")
    assert code == 0 and data["schema_version"] == 1
    rows = data["rulesets"]  # an object with a list, not a bare list (schema_version 1): it can gain fields
    assert [row["id"] for row in rows] == list(RULESETS)
    assert all(row["version"] and row["title"] for row in rows)


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_template_round_trips_and_documents_every_column(ruleset_id: str, tmp_path: Path) -> None:
    out = tmp_path / f"{ruleset_id}.xlsx"
    assert main(["template", ruleset_id, "--out", str(out)]) == 0
    workbook = openpyxl.load_workbook(out)
    headers = [cell.value for cell in workbook["Cards"][1]]
    assert headers == [column.header for column in RULESETS[ruleset_id].columns]
    documented = {row[0]: row[4] for row in workbook["Columns"].iter_rows(min_row=2, values_only=True)}
    assert set(documented) == set(headers)
    assert all(documented.values()), "every column needs its docstring"
    # An empty template is a readable (empty) set of the right ruleset, found from its Set sheet.
    cardset = load_cardset(out)
    assert cardset.ruleset_id == ruleset_id and len(cardset) == 0


def test_unknown_ruleset_lists_the_valid_ids(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["template", "soulz", "--out", str(tmp_path / "x.xlsx")]) == 2
    err = capsys.readouterr().err
    assert "'soulz' is not a ruleset" in err and "Did you mean 'souls'" in err
    assert all(ruleset_id in err for ruleset_id in RULESETS)


def test_validate_json_findings_follow_the_contract(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sheet = tmp_path / "cards.csv"
    sheet.write_text("name,kind,soul_cost,atk,def\nOgre,monster,0,6,6\n", encoding="utf-8")
    code, data = run_json(capsys, "validate", str(sheet), "--option", "strict_costs=true")
    assert code == 1
    (finding,) = data["findings"]
    assert list(finding) == FINDING_KEYS
    assert finding["rule"] == "souls.soul_cost" and (finding["row"], finding["column"]) == (2, "soul_cost")
    assert (finding["expected"], finding["actual"]) == (2, 0)
    assert data["options"]["strict_costs"] is True


def test_unknown_option_is_a_usage_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sheet = tmp_path / "cards.csv"
    sheet.write_text("name,kind,soul_cost,atk,def\nImp,monster,0,2,2\n", encoding="utf-8")
    assert main(["validate", str(sheet), "--option", "strict_cost=true"]) == 2
    err = capsys.readouterr().err
    assert "no option 'strict_cost'" in err and "Did you mean strict_costs" in err
    assert main(["validate", str(sheet), "--option", "strict_costs"]) == 2
    assert "KEY=VALUE" in capsys.readouterr().err
    assert main(["validate", str(sheet), "--option", "strict_costs=maybe"]) == 2
    assert "true or false" in capsys.readouterr().err


def test_undetectable_headers_ask_for_a_ruleset(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sheet = tmp_path / "mystery.csv"
    sheet.write_text("name,kind,colour\nThing,widget,red\n", encoding="utf-8")
    assert main(["validate", str(sheet)]) == 2
    assert "--ruleset" in capsys.readouterr().err


def test_python_dash_m_entry_point_and_stderr_summary(tmp_path: Path) -> None:
    sheet = tmp_path / "cards.csv"
    sheet.write_text("name,kind,soul_cost,atk,def\nImp,monster,0,2,2\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "workbench", "validate", str(sheet), "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0
    assert json.loads(result.stdout)["counts"] == {"error": 0, "warning": 0, "info": 0}


@pytest.mark.parametrize("size", ["small", "large"])
def test_output_cut_off_by_the_reader_is_not_an_error(size: str) -> None:
    """`workbench ... | head -c 1`: the reader closing the pipe early ends the command quietly, with 141 (as SIGPIPE).

    Small output (7 KB) meets the closed pipe when stdout is flushed at the end; large output (a power curve as
    JSON, 28 KB) mid-command. The pipe is cut to one page (4 KB, as Linux allows) before the command writes, so the
    write after the one byte read always finds the reader gone: with the default 64 KB pipe, all of the output could
    be written before the reader closed it, and the command then ended with its own code (a race CI once lost).
    """
    souls = REPO_ROOT / "cardsets" / "souls"
    command = [sys.executable, "-m", "workbench"] + (
        ["validate", str(souls / "mistakes" / "mistakes.xlsx"), "--format", "json"]
        if size == "small"
        else ["power-curve", str(souls / "ashfall.csv"), "--matches-per-card", "30", "--format", "json"]
    )
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO_ROOT) as process:
        assert process.stdout is not None and process.stderr is not None
        # Set while the command still imports (it writes nothing for the first few hundred milliseconds).
        fcntl.fcntl(process.stdout.fileno(), fcntl.F_SETPIPE_SZ, 4096)
        assert process.stdout.read(1)
        process.stdout.close()  # the reader goes away with most of the JSON unread
        errors = process.stderr.read().decode()
        code = process.wait(timeout=120)
    assert "internal error" not in errors and "Traceback" not in errors and "Exception ignored" not in errors
    assert code == 141


def test_bench_measures_an_engine_under_a_policy_and_rule_options(capsys: pytest.CaptureFixture[str]) -> None:
    command = [
        "bench",
        "--only",
        "engines",
        "--ruleset",
        "circles",
        "--matches",
        "400",
        "--repeat",
        "1",
        "--policy",
        "random",
        "--option",
        "turn_cap=30",
        "--format",
        "json",
    ]
    assert main(command) == 0
    (engine,) = json.loads(capsys.readouterr().out)["engines"]
    assert (engine["ruleset"], engine["policy"], engine["options"], engine["matches"]) == (
        "circles",
        "random",
        {"turn_cap": 30},
        400,
    )
    assert engine["matches_per_second"] > 0 and engine["power_curve"]["cards_measured"] > 0
    assert (engine["power_curve"]["policy"], engine["power_curve"]["options"]["turn_cap"]) == ("random", 30)


@pytest.mark.parametrize(
    ("policy", "matches"),
    [
        ("greedy", BENCH_MATCHES),
        ("random", BENCH_MATCHES),
        ("epsilon:0.1", BENCH_MATCHES),
        ("search", SEARCH_MATCHES),
        ("search:4:rollout_policy=random", SEARCH_MATCHES),
    ],
)
def test_an_engine_figure_under_search_plays_the_search_figures_count_unless_told(policy: str, matches: int) -> None:
    # 200,000 searched matches a figure was about an hour a repeat in SOURCE.
    assert bench_matches_for(policy, get_ruleset("circles")) == matches


def test_bench_help_gives_the_default_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"default {BENCH_MATCHES:,}; under a search policy {SEARCH_MATCHES}" in help_text


def test_bench_under_search_without_a_count_plays_the_search_figures_count(capsys: pytest.CaptureFixture[str]) -> None:
    command = ["bench", "--only", "matches", "--ruleset", "circles", "--policy", "search", "--repeat", "1"]
    assert main([*command, "--format", "json"]) == 0
    (engine,) = json.loads(capsys.readouterr().out)["engines"]
    assert (engine["policy"], engine["matches"]) == ("search", SEARCH_MATCHES)
    assert "search" not in engine  # the engine figure is the search figure: not played twice


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--option", "turn_cap=30"], "--option needs --ruleset"),
        (["--ruleset", "circles", "--option", "turn_kap=30"], "no option 'turn_kap'"),
        (["--ruleset", "circles", "--policy", "clever"], "not a policy"),
        (["--ruleset", "circles", "--policy", "search:4:depth=2"], "does not take 'depth'"),
        (["--ruleset", "souls", "--policy", "search:4,depth=2"], "rollouts"),
    ],
)
def test_bench_refuses_options_it_cannot_apply(
    capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    assert main(["bench", "--matches", "10", "--repeat", "1", *extra]) == 2
    assert message in capsys.readouterr().err


def _toy_set_with_decks(tmp_path: Path) -> Path:
    """The toy game's set with a decks/ folder beside it (two decks: the reference first, alphabetically)."""
    from toy_engine import write_toy_set_with_decks

    return write_toy_set_with_decks(tmp_path)


def _strict_json(text: str) -> dict[str, Any]:
    """A JSON object as the contract has it: NaN or Infinity (which Python would write) are refused."""

    def refuse(constant: str) -> object:
        raise AssertionError(f"{constant} is not JSON")

    data = json.loads(text, parse_constant=refuse)
    assert isinstance(data, dict), f"not a JSON object: {text[:200]}"
    return data


def test_power_curve_marks_the_filler_as_the_baseline_not_a_verdict(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toy_engine import TOY

    monkeypatch.setitem(RULESETS, "toy", TOY)
    sheet = str(_toy_set_with_decks(tmp_path))
    assert main(["power-curve", sheet, "--ruleset", "toy", "--matches-per-card", "400", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    filler_line = next(line for line in out.splitlines() if line.startswith("Filler "))
    # The flag column, no suggested cost after it, then the reason.
    assert "  baseline  " in filler_line and filler_line.endswith(
        "the filler the other cards of its slot replace: power 0 by construction, so no verdict"
    ), filler_line
    assert not {"over", "under", "curve"} & set(filler_line.split())
    assert "baseline: Filler (the filler each card replaces; power 0 by construction" in out
    assert "options: first_player_bonus=true" in out  # words, not Python's True
    assert "None" not in out and "nan" not in out
    main(["power-curve", sheet, "--ruleset", "toy", "--matches-per-card", "400", "--workers", "1", "--format", "json"])
    data = _strict_json(capsys.readouterr().out)
    rows = {row["card"]: row for row in data["cards"]}
    assert rows["Filler"]["flag"] == "baseline" and rows["Filler"]["suggested_cost"] is None
    verdicts = ("over", "under", "on curve", "undecided", "no comparator")
    assert all(row["flag"] in verdicts for card, row in rows.items() if card != "Filler")
    # Every judged card says how stable its verdict is, and the run says how it decided.
    assert all(0 <= row["stability"] <= 1 for card, row in rows.items() if card != "Filler")
    assert data["verdict_rule"]["tolerance"] == 0.02 and data["verdict_rule"]["resamples"] == 200
    assert "Benjamini-Hochberg" in data["chance"]
    assert data["gauntlet"] == ["a_reference", "b_other"]  # every deck of the set


def test_validate_text_says_missing_values_and_lists_in_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sheet = tmp_path / "cards.csv"
    # A card added but not filled in (no atk, no def), and a deck naming a card that is nearly right.
    sheet.write_text("name,kind,soul_cost,atk,def\nEmber Pup,monster,1,2,2\nNew card,monster,,,\n", encoding="utf-8")
    deck = tmp_path / "deck.txt"
    deck.write_text("3 Ember Pupp\n", encoding="utf-8")
    assert main(["validate", str(sheet), "--deck", str(deck)]) == 1
    out = capsys.readouterr().out
    assert "(expected whole number, got nothing)" in out
    assert "(expected Ember Pup, got Ember Pupp)" in out
    for python in ("None", "null", '["', "['"):
        assert python not in out, f"{python!r} in: {out}"
    code, data = run_json(capsys, "validate", str(sheet), "--deck", str(deck))
    unknown = next(f for f in data["findings"] if f["rule"] == "souls.unknown_card")
    assert unknown["expected"] == ["Ember Pup"]  # the JSON contract keeps the list as a list


def test_power_curve_gives_play_shares_and_says_why_a_card_is_rarely_played(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toy_engine import TOY, TOY_CARDS

    monkeypatch.setitem(RULESETS, "toy", TOY)
    sheet = _toy_set_with_decks(tmp_path)
    # Titan costs more than the toy's treasury (10): drawn, never played.
    sheet.write_text(TOY_CARDS + "Titan,unit,11,9\n", encoding="utf-8")
    argv = ["power-curve", str(sheet), "--ruleset", "toy", "--matches-per-card", "400", "--workers", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Power does not rise with cost here" in out and "Suggested costs are withheld" in out
    assert "1 of 6 measured cards were played in fewer than 5% of their matches (Titan)" in out
    titan = next(line for line in out.splitlines() if line.startswith("Titan "))
    assert "  rarely played  " in titan and "played in 0% of matches (drawn in 8" in titan
    assert "it cannot be afforded before the matches end" in titan
    assert "None" not in out and "nan" not in out
    main([*argv, "--format", "json"])
    data = _strict_json(capsys.readouterr().out)
    assert isinstance(data, dict)
    rows = {row["card"]: row for row in data["cards"]}
    for row in rows.values():
        assert {"played", "drawn", "first_played_turn", "mean_turns", "flag", "suggested_cost", "reason"} <= set(row)
    assert rows["Titan"]["flag"] == "rarely played" and rows["Titan"]["played"] == 0
    assert rows["Titan"]["first_played_turn"] is None and rows["Titan"]["suggested_cost"] is None
    assert 0.7 < rows["Titan"]["drawn"] < 0.95
    assert rows["Mid"]["played"] == rows["Mid"]["drawn"] > 0.9 and rows["Mid"]["first_played_turn"] == 1.0
    assert data["rarely_played"] == ["Titan"] and data["min_play_share"] == 0.05
    assert data["fit"]["rises_with_cost"] is False and data["fit"]["slope_low"] <= 0
    assert data["statements"][0].startswith("Power does not rise with cost here")
    # --min-play-share 0 judges every card; a share out of range is a usage error.
    main([*argv, "--format", "json", "--min-play-share", "0%"])
    assert {row["card"]: row for row in _strict_json(capsys.readouterr().out)["cards"]}["Titan"][
        "flag"
    ] != "rarely played"
    assert main([*argv, "--min-play-share", "150%"]) == EXIT_USAGE
    assert "'150%' is not a play share" in capsys.readouterr().err


def test_sweep_of_an_unplayed_card_says_the_field_never_changed_a_match(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toy_engine import TOY, TOY_CARDS

    monkeypatch.setitem(RULESETS, "toy", TOY)
    sheet = _toy_set_with_decks(tmp_path)
    sheet.write_text(TOY_CARDS + "Titan,unit,11,9\n", encoding="utf-8")
    argv = [
        "sweep",
        str(sheet),
        "--ruleset",
        "toy",
        "--card",
        "Titan",
        "--field",
        "strength",
        "--values",
        "2,7",
        "--matches-per-card",
        "200",
        "--workers",
        "1",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Titan: power as its strength stat varies (now 9)" in out
    assert "This field never changed a match: at every value swept, every one of the 200 matches" in out
    assert "Titan was never played, at its current strength or at any value swept" in out
    point_lines = [line for line in out.splitlines() if line.lstrip().startswith(("2 ", "7 "))]
    assert len(point_lines) == 2 and all("this field never changed a match" in line for line in point_lines)
    main([*argv, "--format", "json"])
    data = _strict_json(capsys.readouterr().out)
    assert isinstance(data, dict) and data["statement"].startswith("This field never changed a match")
    assert [point["changed"] for point in data["points"]] == [False, False]
    assert [point["played"] for point in data["points"]] == [0.0, 0.0]


# Command-line habits (issue 15): stdin and stdout as files, -q/-v, usage errors, help, shared options, set names.

SOULS_SET = REPO_ROOT / "cardsets" / "souls" / "ashfall.csv"
SOULS_MISTAKES = REPO_ROOT / "cardsets" / "souls" / "mistakes" / "mistakes.xlsx"


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    """Standard input holding `data`, as a pipe or a `< FILE` gives it."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


@pytest.mark.parametrize("sheet", [SOULS_SET, SOULS_MISTAKES], ids=["csv", "xlsx"])
def test_a_card_sheet_read_from_standard_input_gives_the_same_findings(
    sheet: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from_file = run_json(capsys, "validate", str(sheet))
    _stdin(monkeypatch, sheet.read_bytes())
    code, data = run_json(capsys, "validate", "-")
    assert (code, data["cardset"]) == (from_file[0], "stdin")
    assert data["findings"] == from_file[1]["findings"]


def test_a_decklist_read_from_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _stdin(monkeypatch, b"3 Cinder Whelp\n1 No Such Card\n")
    code, data = run_json(capsys, "validate", str(SOULS_SET), "--deck", "-")
    assert code == 1 and data["decks"] == ["stdin"]
    unknown = [f for f in data["findings"] if f["rule"] == "souls.unknown_card"]
    assert [f["actual"] for f in unknown] == ["No Such Card"]
    # Standard input is read once: a second - is refused, naming both.
    _stdin(monkeypatch, SOULS_SET.read_bytes())
    assert main(["validate", "-", "--deck", "-"]) == 2
    assert "--deck is - (standard input), but CARDSET already read standard input" in capsys.readouterr().err


def test_out_dash_writes_the_file_to_standard_output_and_the_summary_to_stderr(
    capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path
) -> None:
    assert main(["template", "souls", "--out", "-"]) == 0
    out, err = capsysbinary.readouterr()
    (tmp_path / "template.xlsx").write_bytes(out)
    assert openpyxl.load_workbook(tmp_path / "template.xlsx").sheetnames[0].casefold() == "cards"
    assert err.decode().startswith("wrote <standard output>: 11 columns")
    assert main(["print", "souls/ashfall", "--out", "-", "--format", "json"]) == 0
    out, err = capsysbinary.readouterr()
    assert out.startswith(b"<!DOCTYPE html>") and b"Cinder Whelp" in out
    assert json.loads(err) == {"schema_version": 1, "out": "<standard output>", "cards": 46, "pages": 6}
    # -q keeps stderr for errors alone; the file still goes out whole.
    assert main(["print", "souls/ashfall", "--out", "-", "-q"]) == 0
    out, err = capsysbinary.readouterr()
    assert out.rstrip().endswith(b"</html>") and err == b""


def test_quiet_says_nothing_and_verbose_says_what_was_read(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "souls/ashfall", "--deck", "ember_rush", "-q"]) == 0
    assert capsys.readouterr() == ("", "")
    assert main(["validate", "souls/ashfall", "--deck", "ember_rush", "-v"]) == 0
    err = capsys.readouterr().err
    assert f"souls/ashfall: the bundled set at {SOULS_SET}" in err
    assert "--deck ember_rush: ember_rush (" in err and "0 error(s)" in err
    assert re.search(r"workbench validate: exit 0 after \d+\.\d\d s", err)
    # Errors still show under -q.
    assert main(["validate", "nowhere.csv", "-q"]) == 2
    assert "nowhere.csv: the file does not exist" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["validate"],  # CARDSET missing
        ["validate", "x.csv", "--colour", "red"],  # no such option
        ["simulate", "x.csv", "--matches", "many"],  # not a number
        ["validate", "x.csv", "-q", "-v"],  # quiet and verbose at once
        ["frobnicate"],  # no such command
        [],
    ],
    ids=["missing-argument", "unknown-option", "bad-number", "quiet-and-verbose", "unknown-command", "nothing"],
)
def test_a_usage_error_has_its_own_exit_code(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == EXIT_USAGE == 64
    err = capsys.readouterr().err
    assert err.startswith("usage: workbench") and "error:" in err and "--help)" in err


def test_help_exits_0_and_describes_every_command_with_examples_and_exit_codes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    for command in _COMMANDS:
        assert re.search(rf"^    {re.escape(command)}\s+\S", text, re.MULTILINE) or f"    {command}\n" in text, command
    examples, codes = text.split("examples:")[1].split("exit codes:")
    assert "workbench validate souls/ashfall" in examples and "workbench app" in examples
    assert [line.split()[0] for line in codes.strip().splitlines()[:7]] == ["0", "1", "2", "3", "64", "130", "141"]
    assert main(["simulate", "--help"]) == 0
    help_text = capsys.readouterr().out
    assert "win rate with 95% interval" in help_text and "%%" not in help_text


SIMULATING = ["simulate", "power-curve", "sweep", "report", "health", "diff"]


def _options(command: str) -> set[str]:
    subparsers = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {flag for action in subparsers.choices[command]._actions for flag in action.option_strings}


def test_every_simulating_command_takes_the_same_simulation_options() -> None:
    shared = {"--seed", "--policy", "--option", "--workers", "--executor"}
    for command in SIMULATING:
        assert shared <= _options(command), command
    for command in _COMMANDS:
        assert {"--format", "-q", "--quiet", "-v", "--verbose", "-h"} <= _options(command), command
    assert _parser().parse_args(["diff", "a.csv", "b.csv", "--executor", "dask-local"]).executor == "dask-local"


def test_a_bundled_set_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "sets")
    assert code == 0 and data["schema_version"] == 1
    sets = data["sets"]
    names = [entry["name"] for entry in sets]
    assert "souls/ashfall" in names and "souls/mistakes" in names and len(names) == len(set(names))
    ashfall = next(entry for entry in sets if entry["name"] == "souls/ashfall")
    assert ashfall["path"] == str(SOULS_SET) and ashfall["decks"] == ["ember_rush", "plague_court", "stone_bastion"]
    code, data = run_json(capsys, "validate", "Souls/Ashfall", "--deck", "stone_bastion")
    assert code == 0 and data["cardset"] == str(SOULS_SET)
    code, data = run_json(capsys, "validate", "souls/mistakes")
    assert code == 1 and data["cardset"] == str(SOULS_MISTAKES)
    assert main(["validate", "souls/ashfal"]) == 2
    err = capsys.readouterr().err
    assert "souls/ashfal: the file does not exist, and no bundled set has that name" in err and "souls/ashfall" in err


def test_power_curve_takes_a_tolerance_and_refuses_one_that_is_not_a_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from toy_engine import TOY

    monkeypatch.setitem(RULESETS, "toy", TOY)
    sheet = str(_toy_set_with_decks(tmp_path))
    base = ["power-curve", sheet, "--ruleset", "toy", "--matches-per-card", "200", "--workers", "1"]
    assert main([*base, "--tolerance", "0.5", "--format", "json"]) == 0
    data = _strict_json(capsys.readouterr().out)
    assert data["verdict_rule"]["tolerance"] == 0.5
    # Half a point of score is more than any toy card's mispricing: nothing is flagged.
    assert not {"over", "under"} & {row["flag"] for row in data["cards"]}
    assert main([*base, "--tolerance", "lots"]) == EXIT_USAGE
    assert "'lots' is not a tolerance: expected a number from 0 up to 100" in capsys.readouterr().err


def test_power_curve_decide_runs_again_at_the_planned_matches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from toy_engine import TOY

    monkeypatch.setitem(RULESETS, "toy", TOY)
    sheet = str(_toy_set_with_decks(tmp_path))
    base = ["power-curve", sheet, "--ruleset", "toy", "--matches-per-card", "60", "--workers", "1", "--format", "json"]
    assert main(base) == 0
    first = _strict_json(capsys.readouterr().out)
    planned = first["matches_to_decide_all"]
    assert main([*base, "--decide"]) == 0
    captured = capsys.readouterr()
    again = _strict_json(captured.out)
    if planned is None:
        assert "--decide: no undecided card can be decided by more matches" in captured.err
        assert again["matches_per_card"] == first["matches_per_card"]
    else:
        assert f"--decide: running again at {planned:,} matches per card" in captured.err
        assert again["matches_per_card"] >= planned


def test_a_card_name_with_a_line_break_cannot_forge_a_line_of_the_power_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 37: every text output prints a user's string on its own line, escaped (`\\n`), never as a line break."""
    from toy_engine import TOY, TOY_CARDS

    monkeypatch.setitem(RULESETS, "toy", TOY)
    sheet = _toy_set_with_decks(tmp_path)
    forged = 'Forged,unit,1,1\n"Bargain\nfake.csv:3:atk: error [toy.x] forged",unit,1,6\n'
    sheet.write_text(TOY_CARDS.replace("Bargain,unit,1,6\n", "") + forged, encoding="utf-8")
    assert main(["power-curve", str(sheet), "--ruleset", "toy", "--matches-per-card", "60", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert not [line for line in out.splitlines() if line.startswith("fake.csv:3")]
    assert "Bargain\\nfake.csv:3:atk: error" in out


def _checkout_streamlit_settings() -> dict[str, str]:
    """The checkout's .streamlit/config.toml as `section.option: value` in Streamlit's command-line spelling."""
    import tomllib

    config = tomllib.loads((REPO_ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    return {
        f"{section}.{key}": str(value).lower() if isinstance(value, bool) else str(value)
        for section, options in config.items()
        for key, value in options.items()
    }


def test_workbench_app_passes_the_checkouts_streamlit_settings(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An installed package reads no .streamlit/config.toml: `workbench app` passes the same settings on Streamlit's
    command line (no usage statistics, 50 MB uploads, no magic, no data export), and listens on this machine only
    unless --address says otherwise."""
    from streamlit.web import cli as streamlit_cli

    from workbench.cli import APP_ADDRESS, app_settings

    checkout = _checkout_streamlit_settings()
    settings = app_settings()
    assert {key: settings[key] for key in checkout} == checkout  # every checkout setting, the same value
    assert settings["browser.gatherUsageStats"] == "false" and settings["server.address"] == APP_ADDRESS == "127.0.0.1"
    started: list[list[str]] = []
    monkeypatch.setattr(streamlit_cli, "main", lambda args, **_: started.append(list(args)))
    assert main(["app", "--port", "8597", "--headless"]) == 0
    assert main(["app", "--port", "8597", "--address", "0.0.0.0", "--headless", "-q"]) == 0
    local, everywhere = started
    for key, value in settings.items():
        assert local[local.index(f"--{key}") + 1] == value, key
    assert everywhere[everywhere.index("--server.address") + 1] == "0.0.0.0"
    assert "starting the app at http://127.0.0.1:8597" in capsys.readouterr().err


def test_workbench_app_without_streamlit_says_how_to_install_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *rest: None if name == "streamlit" else find_spec(name, *rest)
    )
    assert main(["app"]) == 2
    err = capsys.readouterr().err
    assert "workbench app needs Streamlit, which is not installed" in err
    assert "pip install 'card-workbench[app]'" in err and "internal error" not in err
    code, data = run_json(capsys, "app")
    assert code == 2 and data["error"]["kind"] == "missing_extra" and "card-workbench[app]" in data["error"]["expected"]


def test_help_names_the_docs_and_schemas_where_they_are(capsys: pytest.CaptureFixture[str]) -> None:
    """The epilog's paths exist here, and (tests/test_packaging.py) in an installed wheel."""
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    docs_line = next(line for line in text.splitlines() if line.startswith("Docs: "))
    for path in re.findall(r"(/\S+?\.md)", docs_line):
        assert Path(path).is_file(), path
    schemas = text.split("JSON Schemas of every --format json output: ")[1].strip().rstrip(".")
    assert (Path(schemas) / "validate.json").is_file()
    assert "pip install -e" not in text


def test_stat_values_prints_the_rates_beside_the_formula_and_refuses_a_game_it_cannot_measure(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from workbench import stat_values as stat_values_module

    argv = ["stat-values", "circles/circle_starter", "--cards", "12", "--matches-per-card", "40", "--replicates", "2"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "What each stat is worth in play: circle_starter" in out and "seed 0, policy greedy" in out
    assert re.search(r"^Attack\s+[+-]\d\.\d{4} \[[+-]\d\.\d{4}, [+-]\d\.\d{4}\]", out, re.M)
    assert "cost probe" in out and "(out of play)" in out
    # Every bundled game has a design; one without (Blades' taken away here) is refused with why, exit 2.
    monkeypatch.delitem(stat_values_module.DESIGNS, "blades")
    assert main(["stat-values", "blades/blades_sample", "--cards", "12"]) == 2
    assert "not measured for 'blades': no designed experiment is written" in capsys.readouterr().err
    monkeypatch.undo()
    # A design too small to fit the attributes, or over its limit, is refused before any match.
    assert main(["stat-values", "circles/circle_starter", "--cards", "3"]) == 2
    assert main(["stat-values", "circles/circle_starter", "--cards", "2001"]) == EXIT_USAGE


def test_propose_says_when_there_is_nothing_to_fix_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "proposal.xlsx"
    argv = [
        "propose",
        "circles/circle_starter",
        "--matches-per-card",
        "20",
        "--evaluations",
        "3",
        "--out",
        str(out_file),
    ]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "Patch proposals for circle_starter" in captured.out
    assert "No card is flagged over or under in the search's run" in captured.out
    assert "nothing was written to" in captured.err and not out_file.exists()
    assert main(["propose", "circles/circle_starter", "--evaluations", "0"]) == EXIT_USAGE


def test_the_common_options_may_stand_before_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 36: `workbench -q --format json validate ...` as well as after the command; the defaults hold when absent,
    a value before the command is not overwritten by the command's default, and -q with -v is a usage error."""
    assert main(["--format", "json", "-q", "rulesets"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["rulesets"] and captured.err == ""
    assert main(["rulesets"]) == 0
    assert capsys.readouterr().out.startswith("source")
    assert main(["-q", "validate", "souls/ashfall", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert "findings" in json.loads(captured.out) and captured.err == ""
    assert main(["-q", "rulesets", "-v"]) == EXIT_USAGE
    assert "-q/--quiet and -v/--verbose cannot be used together" in capsys.readouterr().err
