"""Promises every embedded match engine keeps, run over each registered ruleset that has one.

Game rules are tested beside each engine (tests/rulesets/<id>/); this suite pins
what the runner and the pages rely on, whatever the game: the engine's record
is complete, the same seed gives the same matches on one or two processes, a
mirror match is even, the golden trace is committed, and nothing the engine
imports draws a page or a chart.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from workbench.analysis import FLAGS, power_curve
from workbench.cards import CardSet, Deck
from workbench.decklists import read_decklist
from workbench.loading import load_cardset
from workbench.paths import REPO_ROOT, bundled_decks, bundled_sets
from workbench.rulesets import RULESETS
from workbench.run_settings import RunSettings
from workbench.simulate import PARALLEL_THRESHOLD, compile_for, simulate

ENGINE_IDS = [ruleset_id for ruleset_id, ruleset in RULESETS.items() if ruleset.engine_module]
FORBIDDEN_IMPORTS = {"streamlit", "pandas", "plotly", "pydantic"}


def _bundled(ruleset_id: str) -> tuple[CardSet, list[Deck]]:
    cardset = load_cardset(bundled_sets(ruleset_id)[0], ruleset_id)
    return cardset, [read_decklist(path, cardset) for path in bundled_decks(ruleset_id)]


@pytest.mark.parametrize("ruleset_id", ENGINE_IDS)
def test_engine_record_is_complete(ruleset_id: str) -> None:
    cardset, decks = _bundled(ruleset_id)
    engine, compiled, _ = compile_for(cardset)
    assert engine.version and engine.cost_axis
    assert engine.policies[0] == "greedy" and "random" in engine.policies
    assert len(compiled.names) == len(cardset)
    assert compiled.table.shape[0] == compiled.cost.shape[0] == compiled.slot.shape[0] == len(cardset)
    for finding in compiled.findings:
        assert finding.severity == "info" and finding.rule.startswith(f"{ruleset_id}.")
    for deck in decks:
        assert compiled.deck_array(deck).size == deck.size()


@pytest.mark.parametrize("ruleset_id", ENGINE_IDS)
def test_engine_module_imports_no_page_chart_or_table_library(ruleset_id: str) -> None:
    module = RULESETS[ruleset_id].engine_module
    assert module is not None
    path = REPO_ROOT / module.replace(".", "/")  # an engine module, or a package of them (engine/)
    files = sorted(path.glob("*.py")) if path.is_dir() else [path.with_suffix(".py")]
    trees = [ast.parse(file.read_text(encoding="utf-8")) for file in files]
    imported = set()
    for node in (node for tree in trees for node in ast.walk(tree)):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert not imported & FORBIDDEN_IMPORTS


@pytest.mark.parametrize("ruleset_id", ENGINE_IDS)
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_same_seed_same_matches_and_every_match_ends(ruleset_id: str, policy: str) -> None:
    cardset, decks = _bundled(ruleset_id)
    first = simulate(cardset, decks[0], decks[-1], matches=400, run=RunSettings(seed=21, policy=policy, workers=1))
    again = simulate(cardset, decks[0], decks[-1], matches=400, run=RunSettings(seed=21, policy=policy, workers=1))
    assert first.matches.equals(again.matches)
    assert first.counters.equals(again.counters)
    assert (first.matches["turns"] > 0).all()
    assert set(first.matches["winner"]) <= {"A", "B", "draw"}
    assert first.meta["policies"] == [policy, policy] and first.meta["seed"] == 21


@pytest.mark.parametrize("ruleset_id", ENGINE_IDS)
def test_one_and_two_worker_processes_give_identical_matches(ruleset_id: str) -> None:
    cardset, decks = _bundled(ruleset_id)
    matches = PARALLEL_THRESHOLD + 500
    alone = simulate(cardset, decks[0], decks[-1], matches=matches, run=RunSettings(seed=5, workers=1))
    pair = simulate(cardset, decks[0], decks[-1], matches=matches, run=RunSettings(seed=5, workers=2))
    assert alone.matches.equals(pair.matches)
    assert alone.counters.equals(pair.counters)


@pytest.mark.parametrize("ruleset_id", ENGINE_IDS)
def test_a_mirror_match_is_even(ruleset_id: str) -> None:
    cardset, decks = _bundled(ruleset_id)
    result = simulate(cardset, decks[0], matches=4_000, run=RunSettings(seed=3, workers=1))
    rate = result.win_rate_a
    # Both sides play the same list with the same policy; first player alternates, so any edge cancels out.
    assert rate.low - 0.03 <= 0.5 <= rate.high + 0.03, str(rate)


@pytest.mark.parametrize("ruleset_id", ENGINE_IDS)
def test_power_curve_runs_on_the_bundled_set_with_intervals(ruleset_id: str) -> None:
    cardset, decks = _bundled(ruleset_id)
    curve = power_curve(cardset, decks, matches_per_card=200, run=RunSettings(seed=1, workers=1))
    assert not curve.cards.empty
    assert (curve.cards["low"] <= curve.cards["power"]).all() and (curve.cards["power"] <= curve.cards["high"]).all()
    # A verdict (over, under, on curve), a decision that the run cannot tell (undecided) or has nothing to compare
    # with (no comparator), or no verdict: the filler (baseline) and a card played too seldom to judge.
    assert set(curve.cards["flag"]) <= set(FLAGS)
    assert np.isfinite(curve.cards["cost"]).all()
    assert curve.meta["seed"] == 1 and curve.meta["matches_per_card"] >= 200


@pytest.mark.parametrize("ruleset_id", ENGINE_IDS)
def test_golden_trace_is_committed(ruleset_id: str) -> None:
    golden = REPO_ROOT / "tests" / "golden" / f"{ruleset_id}_trace.txt"
    assert golden.is_file(), f"commit a golden trace at {golden.relative_to(REPO_ROOT)}"
    lines = golden.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith(f"# {ruleset_id} ") and lines[-1].startswith("Result:")


def test_engine_list_is_what_the_registry_says() -> None:
    # Guards against an engine module that exists but was never named in its RULESET.
    rulesets = Path(REPO_ROOT / "workbench" / "rulesets")
    # An engine is one module (engine.py) or a package of modules (engine/__init__.py).
    on_disk = {path.parent.name for path in rulesets.glob("*/engine.py")}
    on_disk |= {path.parent.parent.name for path in rulesets.glob("*/engine/__init__.py")}
    assert on_disk == set(ENGINE_IDS)
