"""The SOURCE engine as rules plus policies: every action a policy takes is one `legal_actions` listed."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from workbench.rulesets.source import engine as E

REPO_ROOT = Path(__file__).resolve().parents[3]
SCRIPT = Path(__file__).with_name("legal_replay.py")
MATCHES = 3
RUNS = (
    (E.GREEDY, E.GREEDY, "intentional", "bundled"),
    (E.GREEDY, E.RANDOM, "intentional", "bundled"),
    (E.RANDOM, E.RANDOM, "blind", "bundled"),
    (E.GREEDY, E.RANDOM, "blind", "bundled"),
    (E.GREEDY, E.RANDOM, "intentional", "extended"),
    (E.RANDOM, E.GREEDY, "blind", "extended"),
)
"""(policy A, policy B, symbol draw, cards): `extended` plays the new clauses' deck (legal_replay.py), whose `web`,
`recall` and `summon from` clauses no bundled card has."""

Run = tuple[int, int, str, str]


@pytest.fixture(scope="module")
def replayed() -> dict[Run, dict[str, Any]]:
    """legal_replay.py's output per run, played in plain Python (NUMBA_DISABLE_JIT=1) with the policies' door `choose`
    wrapped to check each action against `legal_actions` listed again at that moment."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = {}
    for policy_a, policy_b, draw, cards in RUNS:
        done = subprocess.run(
            [sys.executable, str(SCRIPT), str(policy_a), str(policy_b), str(MATCHES), draw, cards],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=REPO_ROOT,
        )
        out[(policy_a, policy_b, draw, cards)] = json.loads(done.stdout)
    return out


def test_every_action_taken_was_listed_and_every_decision_kind_is_reached(
    replayed: dict[Run, dict[str, Any]],
) -> None:
    # The subprocess asserts each choice was listed for the decision open then; here: every run answered the turn's
    # decisions, and over the runs every decision kind was answered (D_FOE_CHANNEL needs a channeled effect usable
    # on the opponent's turn and symbols left over; D_DISCARD a hand above 10; D_FORK a move through a fork of the
    # road; D_SWAP an own monster in a mover's way; D_FOE a `foe` clause with an enemy next to its subject; D_WEB,
    # D_RECALL and D_EFFECT_SUMMON the extended deck's `web`, `recall` and `summon from` clauses; the four effect
    # questions each by both policies).
    for run, result in replayed.items():
        chosen = result["chosen"]
        for kind in (E.D_MAIN, E.D_CHANNEL_CARD, E.D_SYMBOL):
            assert chosen[kind] > 0, f"{run}: no {E.D_KINDS[kind]} decision answered"
    for kind in range(E.D_MAIN, len(E.D_KINDS)):
        assert sum(r["chosen"][kind] for r in replayed.values()) > 0, f"no {E.D_KINDS[kind]} decision answered"
    assert sum(r["chosen"][E.D_NONE] for r in replayed.values()) == 0
    for kind in (E.D_FOE, E.D_WEB, E.D_RECALL, E.D_EFFECT_SUMMON):
        for policy in (E.GREEDY, E.RANDOM):
            answered = sum(r["by_policy"][policy][kind] for r in replayed.values())
            assert answered > 0, f"no {E.D_KINDS[kind]} question answered by policy {policy}"


def test_the_wrapped_plain_python_matches_are_the_compiled_engines(
    replayed: dict[Run, dict[str, Any]],
) -> None:
    spec = importlib.util.spec_from_file_location("legal_replay", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for (policy_a, policy_b, draw, cards), result in replayed.items():
        assert result["results"] == module.play(policy_a, policy_b, MATCHES, draw, cards)
