"""Parameters bounded before work: rule options within their declared range, run sizes, seeds, sweep values and
executors refused with one paragraph (exit 2), and a run that stops within a second of a cancel at turn_cap 10,000.

Each command runs in its own process, measured by a small wrapper (`_measured`) that reports the child's exit code,
output, wall time and peak memory (`resource.getrusage(RUSAGE_CHILDREN)` in the wrapper, which waits for that one
child only).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from workbench.cards import WorkbenchInputError
from workbench.decklists import read_decklist
from workbench.limits import limit
from workbench.loading import load_cardset
from workbench.rulesets import RULESETS
from workbench.simulate import _joined, batch_seeds

REPO = Path(__file__).resolve().parents[2]
SETS = {
    "source": ("cardsets/source/valley_of_deadlife.csv", "cardsets/source/decks/ember_rush.txt"),
    "plasma": ("cardsets/plasma/plasma_core.csv", "cardsets/plasma/decks/swarm.txt"),
    "blades": ("cardsets/blades/blades_sample.csv", "cardsets/blades/decks/ashfall_starter.txt"),
    "souls": ("cardsets/souls/ashfall.csv", "cardsets/souls/decks/ember_rush.txt"),
    "circles": ("cardsets/circles/circle_starter.csv", "cardsets/circles/decks/blue_wall.txt"),
}
CIRCLES, CIRCLES_DECK = SETS["circles"]

_WRAPPER = textwrap.dedent(
    """
    import json, resource, subprocess, sys, time
    started = time.monotonic()
    done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
    print(json.dumps({"code": done.returncode, "out": done.stdout, "err": done.stderr,
                      "seconds": time.monotonic() - started,
                      "peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
    """
)


def _measured(*args: str) -> dict[str, Any]:
    """Run `python -m workbench ARGS` in a child of a fresh wrapper process: exit code, output, seconds, peak MB."""
    done = subprocess.run(
        [sys.executable, "-c", _WRAPPER, sys.executable, "-m", "workbench", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _one_paragraph(err: str) -> str:
    assert "Traceback" not in err and "internal error" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


# --- Rule options declare their range -----------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_every_number_option_declares_a_range_holding_its_default(ruleset_id: str) -> None:
    ruleset = RULESETS[ruleset_id]
    for option in ruleset.options:
        if option.is_number:
            assert option.minimum is not None and option.maximum is not None, f"{ruleset_id}.{option.key} has no range"
            assert isinstance(option.default, int | float), f"{ruleset_id}.{option.key} is a number option"
            assert option.minimum <= option.default <= option.maximum
            if option.key == "turn_cap":
                assert (option.minimum, option.maximum) == (1, limit("turn_cap").value)
        else:
            assert option.range_text == ""


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_the_ledger_page_of_each_ruleset_shows_every_range(ruleset_id: str) -> None:
    text = (REPO / "docs" / "rulesets" / f"{ruleset_id}.md").read_text(encoding="utf-8")
    for option in RULESETS[ruleset_id].options:
        if option.is_number:
            row = next((line for line in text.splitlines() if line.startswith(f"| `{option.key}` |")), None)
            assert row is not None, f"docs/rulesets/{ruleset_id}.md has no ledger row for {option.key}"
            assert option.range_text in row, f"the {option.key} row does not show its range {option.range_text}"


@pytest.mark.parametrize(
    ("ruleset_id", "pair", "shown"),
    [
        ("souls", "turn_cap=-5", "'turn_cap' is -5, outside its range 1 to 10,000"),
        ("circles", "resources_per_turn=-100", "'resources_per_turn' is -100, outside its range 1 to 10"),
        ("plasma", "healthshards_cap=-5", "'healthshards_cap' is -5, outside its range 0 to 10,000"),
        ("plasma", f"turn_cap={10**12}", "'turn_cap' is 1,000,000,000,000, outside its range 1 to 10,000"),
        ("circles", "turn_cap=" + "9" * 5000, "not a 5,000-character value"),
        ("plasma", "cost_tolerance=nan", "'cost_tolerance' is nan, outside its range 0 to 1,000"),
    ],
)
def test_an_option_out_of_its_range_is_refused_before_any_match(ruleset_id: str, pair: str, shown: str) -> None:
    cardset, deck = SETS[ruleset_id]
    run = _measured("simulate", cardset, "--deck", deck, "--matches", "200", "--option", pair)
    assert run["code"] == 2 and run["out"] == ""
    assert shown in _one_paragraph(run["err"])
    assert run["seconds"] < 30 and run["peak_mb"] < 400


def test_options_given_as_values_are_checked_like_typed_ones() -> None:
    ruleset = RULESETS["circles"]
    assert ruleset.resolve_options({"turn_cap": 10_000})["turn_cap"] == 10_000
    for bad in (0, 10_001, -5, 2.5, True, float("inf")):
        with pytest.raises(WorkbenchInputError, match="turn_cap"):
            ruleset.resolve_options({"turn_cap": bad})
    with pytest.raises(WorkbenchInputError, match="takes one of"):
        ruleset.resolve_options({"destroy_when": "sometimes"})


# --- Run parameters -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (
            ["power-curve", CIRCLES, "--matches-per-card", "0"],
            "the number of matches per card is 0; it must be at least 1",
        ),
        (
            ["power-curve", CIRCLES, "--matches-per-card", str(10**7)],
            "the number of matches per card is 10,000,000, more than the limit of 1,000,000 matches",
        ),
        (["health", CIRCLES, "--matches", str(10**7)], "make 160,000,000 matches, more than the limit of 20,000,000"),
        (["simulate", CIRCLES, "--deck", CIRCLES_DECK, "--matches", str(10**8)], "more than the limit of 10,000,000"),
        (["simulate", CIRCLES, "--deck", CIRCLES_DECK, "--seed", "-1"], "the seed is -1; it must be at least 0"),
        (
            ["simulate", CIRCLES, "--deck", CIRCLES_DECK, "--seed", str(2**64)],
            "the seed is 18,446,744,073,709,551,616, more than the limit of 18,446,744,073,709,551,615",
        ),
        (
            ["simulate", CIRCLES, "--deck", CIRCLES_DECK, "--executor", "dask://:"],
            "'dask://:' is not a scheduler address: it needs a host name and a port number",
        ),
        (["simulate", CIRCLES, "--deck", CIRCLES_DECK, "--workers", "100000"], "the number of workers is 100,000"),
        (
            ["sweep", CIRCLES, "--card", "Ember Pup", "--field", "attack", "--values", "1e308"],
            "a sweep value (a 309-digit number) is outside what a card field holds",
        ),
        (
            ["sweep", CIRCLES, "--card", "Ember Pup", "--field", "attack", "--values", "inf"],
            "a sweep value (inf) is outside what a card field holds",
        ),
        (
            ["sweep", CIRCLES, "--card", "Ember Pup", "--field", "attack", "--values", ",".join(map(str, range(2000)))],
            "the sweep lists 2,000 values, more than the limit of 101 values",
        ),
    ],
    ids=[
        "per-card-0",
        "per-card-1e7",
        "health-1e7",
        "matches-1e8",
        "seed-neg",
        "seed-2^64",
        "dask-colon",
        "workers",
        "sweep-1e308",
        "sweep-inf",
        "sweep-2000",
    ],
)
def test_a_run_parameter_out_of_range_is_refused_before_any_job(args: list[str], shown: str) -> None:
    run = _measured(*args)
    assert run["code"] == 2 and run["out"] == ""
    assert shown in _one_paragraph(run["err"])
    # Before any job: no engine compile, no jobs list (power-curve at 10**7 per card grew past 1.3 GB before).
    assert run["seconds"] < 30 and run["peak_mb"] < 400


def test_the_largest_seed_plays() -> None:
    run = _measured(
        "simulate", CIRCLES, "--deck", CIRCLES_DECK, "--matches", "20", "--seed", str(2**64 - 1), "--format", "json"
    )
    assert run["code"] == 0, run["err"]
    assert json.loads(run["out"])["seed"] == 2**64 - 1


# --- A batch played in pieces is the same batch -------------------------------------------------------------------


@pytest.mark.parametrize("ruleset_id", list(SETS))
def test_a_batch_played_in_pieces_gives_the_same_matches(ruleset_id: str) -> None:
    """run_jobs plays a batch in pieces sized from the engine's speed; every engine's match depends on its own seed
    only, so the pieces joined are the batch played in one call, bit for bit."""
    path, deck_path = SETS[ruleset_id]
    cardset = load_cardset(REPO / path, ruleset_id)
    deck = read_decklist(REPO / deck_path, cardset)
    engine = cardset.ruleset.engine
    assert engine is not None
    compiled = engine.compile_cards(cardset, cardset.ruleset.resolve_options())
    array = compiled.deck_array(deck)
    seeds, first = batch_seeds(7, 40)[0]
    whole = engine.play_batch(compiled, array, array, seeds, first, 0, 1)
    cuts = [0, 1, 8, 21, 40]
    pieces = _joined(
        [
            engine.play_batch(compiled, array, array, seeds[a:b], first[a:b], 0, 1)
            for a, b in zip(cuts, cuts[1:], strict=False)
        ]
    )
    assert len(pieces) == len(whole)
    for joined, one_call in zip(pieces[:3], whole[:3], strict=True):
        np.testing.assert_array_equal(joined, one_call)
    if len(whole) > 3:
        assert set(pieces[3]) == set(whole[3])
        for key in whole[3]:
            np.testing.assert_array_equal(pieces[3][key], whole[3][key])


# --- Cancel ends a run within a second ----------------------------------------------------------------------------

_CANCEL_SCRIPT = textwrap.dedent(
    """
    import json, sys, threading, time
    from pathlib import Path
    from workbench.decklists import read_decklist
    from workbench.loading import load_cardset
    from workbench.run_settings import RunSettings
    from workbench.simulate import simulate

    folder, workers, after = Path(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    # Colossus costs more red than the deck's ten Rubies give: nobody ever attacks, every match runs to the cap.
    (folder / "stall.csv").write_text(
        "name,kind,color,red,blue,green,attack,health\\n"
        "Colossus,character,,11,0,0,9,9\\nRuby,resource,red,,,,,\\n")
    (folder / "stall.txt").write_text("20 Colossus\\n10 Ruby\\n")
    cardset = load_cardset(folder / "stall.csv", "circles")
    deck = read_decklist(folder / "stall.txt", cardset)
    # the engine loaded (or compiled) before the clock starts
    simulate(cardset, deck, matches=1, run=RunSettings(workers=1))
    pressed = threading.Event()
    class Cancelled(Exception):
        pass
    def progress(done, total):
        # The app's Cancel: Streamlit raises in the script thread at its next progress report.
        if pressed.is_set():
            raise Cancelled
    timer = threading.Timer(after, pressed.set)
    started = time.monotonic()
    timer.start()
    try:
        run = RunSettings(workers=workers, options={"turn_cap": 10_000}, progress=progress)
        simulate(cardset, deck, matches=40_000, run=run)
        print(json.dumps({"cancelled": False}))
    except Cancelled:
        stopped = time.monotonic()
        print(json.dumps({"cancelled": True, "latency": stopped - started - after}))
    """
)


@pytest.mark.parametrize("workers", [1, 2])
def test_cancel_stops_a_run_at_the_largest_turn_cap_within_a_second(tmp_path: Path, workers: int) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _CANCEL_SCRIPT, str(tmp_path), str(workers), "3.0"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout.strip().splitlines()[-1])
    assert outcome["cancelled"] is True
    assert outcome["latency"] < 1.0, f"Cancel took {outcome['latency']:.2f} s to stop the run"
