"""No rule kernel reads which policy a side plays (DESIGN.md section 4, issue 31): checked on the code, not only by
results.

Each engine keeps the side's policy in one field (`S_POLICY`). The functions allowed to read it are the policies'
own (a `choose_*` / `policy_*` question answered by the side's policy, a greedy or random turn), the search and its
rollouts, and the match set-up and play loops that store it. Every other function is rules: it lists or applies
what the rules allow, whoever is playing. A new function reading the field fails here until it is named as a
policy's or a loop's, so a rule that branches on the player cannot come back unnoticed.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from workbench.rulesets import RULESETS

ENGINES = Path(__file__).resolve().parent.parent / "workbench" / "rulesets"

POLICY_OR_LOOP = re.compile(r"^(choose|decide|policy_|greedy|random_|search|rollout|play_|setup_|new$|end_replay$)")
"""Names of the functions that may read a side's policy: the policies' questions (`choose_*`, `decide*`,
`policy_*`, `greedy*`, `random_*`), the search (`search*`, `rollout`), and the loops that set a match up, play it and
hand turns to the side's policy (`setup_*`, `play_*`, `new`, circles' `end_replay` which restores the
rollout policy after a replay)."""

RULE_NAMES = re.compile(r"^(legal|apply|resolve|attack|move|summon|fight|damage|score|draw|close|start_|end_turn)")
"""Names that are rules whatever else is true: listing or applying what the rules allow."""


def _policy_readers(source: str) -> dict[str, int]:
    """Function name -> how many times it names `S_POLICY`, over every function (nested ones included)."""
    readers: dict[str, int] = {}
    for function in ast.walk(ast.parse(source)):
        if isinstance(function, ast.FunctionDef):
            count = sum(isinstance(n, ast.Name) and n.id == "S_POLICY" for n in ast.walk(function))
            if count:
                readers[function.name] = count
    return readers


def engine_files(ruleset_id: str) -> list[Path]:
    """The engine's source: its `engine.py`, or every module of its `engine/` package."""
    package = ENGINES / ruleset_id / "engine"
    return sorted(package.glob("*.py")) if package.is_dir() else [ENGINES / ruleset_id / "engine.py"]


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_only_policies_search_and_play_loops_read_a_side_s_policy(ruleset_id: str) -> None:
    readers: dict[str, int] = {}
    for path in engine_files(ruleset_id):
        for name, count in _policy_readers(path.read_text(encoding="utf-8")).items():
            readers[name] = readers.get(name, 0) + count
    assert readers, f"{ruleset_id}: no function names S_POLICY; the check would pass vacuously"
    rules = sorted(name for name in readers if RULE_NAMES.match(name) or not POLICY_OR_LOOP.match(name))
    assert rules == [], f"{ruleset_id}: these functions read the side's policy but are not policies or loops: {rules}"


def test_the_check_catches_a_rule_that_reads_the_policy() -> None:
    """The same check on a small engine whose rule branches on the policy (what SOURCE's `path_steps` did)."""
    source = (
        "def legal_moves(state, p):\n"
        "    if state.side[p, S_POLICY] == GREEDY:\n"
        "        return 1\n"
        "    return 2\n"
        "def choose_move(state, p):\n"
        "    return state.side[p, S_POLICY]\n"
    )
    readers = _policy_readers(source)
    assert sorted(readers) == ["choose_move", "legal_moves"]
    flagged = [name for name in readers if RULE_NAMES.match(name) or not POLICY_OR_LOOP.match(name)]
    assert flagged == ["legal_moves"]
