"""The engine contract, checked over all five games (DESIGN.md section 4; issue 31, item 5).

The contract: game data `G` and the whole match state `S` as one record each; `legal_actions(G, S, out) -> n`,
`apply(G, S, row)`, `clone(S, into)`, `determinize(G, S, seat, rng)`; no rule kernel reads which policy a side
plays. Today's engines keep it in five shapes; tests/engine_contract_adapters.py maps the contract's names to each
(`ADAPTERS`), and every check here goes through that map, so one test reads alike for every game:

0. the shape: the adapter names every parameter of the four functions as the code has them
   (`test_the_adapter_names_every_parameter_of_the_four_functions`), `G` and `S` travel as one argument each
   (`test_g_and_s_are_one_record_each`), and the four signatures are the contract's
   (`test_the_four_functions_have_the_contract_s_signatures`);
1. every row a match applies was listed by `legal_actions` at that point (`test_every_applied_row_was_listed`;
   slow: plain Python in a subprocess, NUMBA_DISABLE_JIT=1, about 2 s an engine);
2. `clone` is exact: every array of the match state is copied (`test_clone_copies_every_array_of_the_match_state`),
   changing the clone leaves the source unchanged (`test_changing_a_clone_leaves_its_source_unchanged`), and
   nothing the rules read is left behind (`test_clone_leaves_nothing_the_rules_read`);
3. `determinize` never reads what the seat cannot see: two states that differ only there deal the same world from
   the same randomness (`test_determinize_deals_alike_whatever_the_seat_cannot_see`), and it changes nothing the
   seat can see and keeps which cards are unseen (`test_determinize_changes_only_what_the_seat_cannot_see`);
4. no rule kernel reads a policy field (tests/test_rules_read_no_policy.py's check, reused), the contract's
   functions included (`test_the_contract_s_functions_are_rules_that_read_no_policy`).

docs/simulation.md (*The engine contract*) has the table of what each engine implements and which checks pass; an
engine that does not yet keep a promise has its case marked `xfail(strict=True)` with what is missing, so the day
it does, the test says so (and the table is to be updated with the mark).
"""

from __future__ import annotations

import ast
import functools
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import test_rules_read_no_policy as no_policy
from engine_contract_adapters import ADAPTERS, Adapter, Match, Pool, batch_results

from workbench.paths import REPO_ROOT
from workbench.play.policies import GREEDY, RANDOM
from workbench.rulesets import RULESETS

ENGINES = sorted(ADAPTERS)
SCRIPT = Path(__file__).with_name("engine_contract_adapters.py")
STATES: list[tuple[int, int, dict[str, Any]]] = [(seed, turn_cap, {}) for seed in (1, 2) for turn_cap in (1, 5, 12)]
"""The match states the clone and determinize checks start from: the bundled set's first deck against its last, two
seeds, each match stopped by the turn cap before turn 1 (the opening deal), 5 and 12 (Millennium Blades, three seats:
after 1, 5 and 12 turns of its tournament; it has no turn cap); and the adapter's `extra_states`."""


def _missing(**reasons: str) -> list[Any]:
    """ENGINES as parameters, the engines named marked as not keeping the promise yet (strict: a pass fails)."""
    return [
        pytest.param(e, marks=pytest.mark.xfail(strict=True, reason=reasons[e])) if e in reasons else e for e in ENGINES
    ]


def _keys(ruleset_id: str) -> list[tuple[int, int, dict[str, Any]]]:
    return STATES + list(ADAPTERS[ruleset_id].extra_states)


@functools.cache
def _states(ruleset_id: str) -> tuple[Match, ...]:
    adapter = ADAPTERS[ruleset_id]
    policies = ((GREEDY, RANDOM), (RANDOM, GREEDY))
    return tuple(adapter.match(seed, cap, policies[seed % 2], options) for seed, cap, options in _keys(ruleset_id))


def _seats(m: Match) -> range:
    return range(int(m.extra.get("seats", 2)))


def _scribble(parts: dict[str, Any], seed: int) -> None:
    """Every word of every array overwritten with random values, unlike anything a match holds."""
    gen = np.random.default_rng(seed)
    for part in parts.values():
        part[...] = gen.integers(-(10**6), 10**6, size=part.shape)


def _unequal(a: dict[str, Any], b: dict[str, Any], names: Any) -> list[str]:
    return sorted(name for name in names if not np.array_equal(a[name], b[name]))


def _copy(parts: dict[str, Any]) -> dict[str, Any]:
    return {name: np.array(part, copy=True) for name, part in parts.items()}


def test_every_engine_has_an_adapter() -> None:
    assert sorted(r for r, ruleset in RULESETS.items() if ruleset.engine_module) == ENGINES
    for adapter in ADAPTERS.values():
        assert set(adapter.CONTRACT) == {"legal_actions", "apply", "clone", "determinize"}
        assert set(adapter.clone_misses) <= set(adapter.clone_leaves)


# ---- 0. the shape: G and S, and the four signatures -----------------------------------------------------------------

CONTRACT_ROLES = {
    "legal_actions": ("G", "S", "out"),
    "apply": ("G", "S", "row"),
    "clone": ("S", "into"),
    "determinize": ("G", "S", "seat", "rng"),
}
"""The contract's signatures: `legal_actions(G, S, out) -> n`, `apply(G, S, row)`, `clone(S, into)`,
`determinize(G, S, seat, rng)`."""


def _parameters(ruleset_id: str, contract_name: str) -> list[str]:
    """The parameters of the engine's function answering to `contract_name` (a kernel's Python function)."""
    adapter = ADAPTERS[ruleset_id]
    function = getattr(adapter.E, adapter.CONTRACT[contract_name].split("(", 1)[0])
    return list(inspect.signature(getattr(function, "py_func", function)).parameters)


@pytest.mark.parametrize("ruleset_id", ENGINES)
def test_the_adapter_names_every_parameter_of_the_four_functions(ruleset_id: str) -> None:
    # The adapter's roles are the engine's signatures, parameter for parameter (a changed signature fails here).
    adapter = ADAPTERS[ruleset_id]
    assert set(adapter.ROLES) == set(CONTRACT_ROLES)
    for name, roles in adapter.ROLES.items():
        assert len(roles) == len(_parameters(ruleset_id, name)), (name, _parameters(ruleset_id, name))


@pytest.mark.parametrize(
    "ruleset_id",
    _missing(),
)
def test_g_and_s_are_one_record_each(ruleset_id: str) -> None:
    # Each of the four functions takes the game data as one argument at most and the state as one: nothing of the
    # state beside its record, no buffer holding both.
    for name, roles in ADAPTERS[ruleset_id].ROLES.items():
        assert roles.count("G") <= 1 and roles.count("S") + roles.count("into") <= 2, (name, roles)
        assert not {"GS", "S+", "into+"} & set(roles), (name, roles)


@pytest.mark.parametrize(
    "ruleset_id",
    _missing(),
)
def test_the_four_functions_have_the_contract_s_signatures(ruleset_id: str) -> None:
    assert dict(ADAPTERS[ruleset_id].ROLES) == CONTRACT_ROLES


# ---- 1. every applied row was listed -------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", ENGINES)
def test_every_applied_row_was_listed(ruleset_id: str) -> None:
    # Plain Python (the doors are module functions the compiled engine does not look up): the bundled set's first
    # deck against its last and back, two seeds, greedy, random and greedy against random (circles: its ability
    # decks too); at every door through which an answer or a row goes (the adapters' DOORS), `legal_actions` lists
    # the decision open at that point afresh, and the answer or row must be one of its rows.
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), ruleset_id], env=env, cwd=REPO_ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    replayed = json.loads(done.stdout)
    assert replayed["refused"] == []
    assert sum(replayed["checked"].values()) > 100, replayed["checked"]
    # The wrapped run played the compiled engine's matches: the wrappers changed nothing.
    assert replayed["results"] == batch_results(ruleset_id)


@pytest.mark.parametrize(
    "ruleset_id", _missing(**{e: ADAPTERS[e].not_stepped for e in ENGINES if ADAPTERS[e].not_stepped})
)
def test_a_match_is_played_decision_by_decision_from_outside(ruleset_id: str) -> None:
    # The play layer's premise (issue 31, item 2): the rules stop at each decision and return. Played from outside
    # through `legal_actions` and `apply` alone, each row chosen by the deciding side's own policy, a match is the one
    # the compiled batch plays (the same final state, counters included); with rows chosen by a generator of the
    # test's own from the listed ones, a match still ends, every row applied having been listed.
    adapter = ADAPTERS[ruleset_id]
    for seed, policies in ((1, (GREEDY, RANDOM)), (2, (RANDOM, GREEDY)), (3, (GREEDY, GREEDY))):
        stepped, applied = adapter.stepped_match(seed, 40, policies, None)
        assert applied >= adapter.fewest_decisions
        batch = adapter.match(seed, 40, policies)
        for name, part in adapter.live(batch).items():
            assert np.array_equal(adapter.live(stepped)[name], part), name
    rng = np.random.default_rng(5)
    for seed in (4, 5):
        _, applied = adapter.stepped_match(seed, 40, (GREEDY, GREEDY), lambda m, rows: rows[rng.integers(len(rows))])
        assert applied >= adapter.fewest_decisions


# ---- 2. clone is exact ----------------------------------------------------------------------------------------------


def _cloned(adapter: Adapter, m: Match, seed: int) -> Match:
    """m cloned (today's clone) into a state of the same sizes whose every word was scribbled over first."""
    into = adapter.blank(m)
    _scribble(adapter.parts(into), seed)
    adapter.clone(m, into)
    return into


@pytest.mark.parametrize("ruleset_id", ENGINES)
def test_clone_copies_every_array_of_the_match_state(ruleset_id: str) -> None:
    # Every array but those the engine's clone says stay the target's own (`clone_leaves`: counters, trace, action
    # list, the search's and policies' words) equals the source's, word for word (slots past the count in use, which
    # no rule reads, aside: `live`).
    adapter = ADAPTERS[ruleset_id]
    for k, m in enumerate(_states(ruleset_id)):
        source = adapter.live(m)
        into = _cloned(adapter, m, k)
        kept = set(source) - set(adapter.clone_leaves)
        assert _unequal(source, adapter.live(into), kept) == [], f"state {_keys(ruleset_id)[k]}"


@pytest.mark.parametrize("ruleset_id", ENGINES)
def test_changing_a_clone_leaves_its_source_unchanged(ruleset_id: str) -> None:
    adapter = ADAPTERS[ruleset_id]
    for k, m in enumerate(_states(ruleset_id)):
        m = m.copy()
        before = _copy(adapter.parts(m))
        into = _cloned(adapter, m, k)
        _scribble(adapter.parts(into), 100 + k)
        assert _unequal(before, adapter.parts(m), before) == [], f"state {_keys(ruleset_id)[k]}"
        # And the other way: the clone shares no array with its source.
        into = _cloned(adapter, m, k)
        cloned = _copy(adapter.parts(into))
        _scribble(adapter.parts(m), 200 + k)
        assert _unequal(cloned, adapter.parts(into), cloned) == [], f"state {_keys(ruleset_id)[k]}"


@pytest.mark.parametrize(
    "ruleset_id",
    _missing(),
)
def test_clone_leaves_nothing_the_rules_read(ruleset_id: str) -> None:
    # The contract's clone: a clone plays on exactly as its source would, so it leaves behind only what the rules
    # never read (counters, trace, the action list a listing rewrites, the search's and policies' own words), not the
    # generator or anything else of the match (`clone_misses`).
    adapter = ADAPTERS[ruleset_id]
    for k, m in enumerate(_states(ruleset_id)):
        source = adapter.live(m)
        into = _cloned(adapter, m, k)
        kept = set(source) - (set(adapter.clone_leaves) - set(adapter.clone_misses))
        assert _unequal(source, adapter.live(into), kept) == [], f"state {_keys(ruleset_id)[k]}"


# ---- 3. determinize never reads what the seat cannot see -------------------------------------------------------------


def _pool_values(parts: dict[str, Any], pool: Pool) -> Any:
    return np.concatenate(
        [np.zeros(0, dtype=np.int64)] + [np.asarray(parts[name][index]).ravel() for name, index in pool]
    )


def _set_pool(parts: dict[str, Any], pool: Pool, values: Any) -> None:
    at = 0
    for name, index in pool:
        shape = np.shape(parts[name][index])
        size = int(np.prod(shape))
        parts[name][index] = np.asarray(values[at : at + size]).reshape(shape)
        at += size


def _moved(adapter: Adapter, m: Match, seat: int, seed: int) -> Match | None:
    """m with the cards of each of the seat's hidden pools permuted among its places of one kind (the opponent's
    hand, deck and face-down cards, the seat's own deck order, ...): a state the seat cannot tell from m. None when
    no pool holds two different cards."""
    moved = m.copy()
    parts = adapter.parts(moved)
    gen = np.random.default_rng(seed)
    changed = False
    for whole in adapter.hidden(moved, seat):
        kinds = sorted({adapter.kind_of(moved, place) for place in whole})
        for pool in ([place for place in whole if adapter.kind_of(moved, place) == kind] for kind in kinds):
            values = _pool_values(parts, pool)
            if len(set(values.tolist())) < 2:
                continue
            permuted = gen.permutation(values)
            while np.array_equal(permuted, values):
                permuted = gen.permutation(values)
            _set_pool(parts, pool, permuted)
            changed = True
    adapter.refresh(moved)
    return moved if changed else None


@pytest.mark.parametrize("ruleset_id", ENGINES)
def test_determinize_deals_alike_whatever_the_seat_cannot_see(ruleset_id: str) -> None:
    # Each engine's no-peek test permutes the hidden cards and finds the same search decisions (circles, souls,
    # plasma, SOURCE, Blades: test_*_engine.py, test_blades_search.py); here the same at determinize itself, on
    # every seat of states from whole matches: two states differing only in where the seat's unseen cards lie give
    # the same world, every array alike, from the same randomness.
    adapter = ADAPTERS[ruleset_id]
    compared = 0
    for k, m in enumerate(_states(ruleset_id)):
        for seat in _seats(m):
            for seed in (3, 4):
                moved = _moved(adapter, m, seat, seed + 10 * k)
                if moved is None:
                    continue
                real = m.copy()
                assert _unequal(adapter.parts(real), adapter.parts(moved), adapter.parts(real)) != []
                adapter.determinize(real, seat, seed)
                adapter.determinize(moved, seat, seed)
                parts = adapter.parts(real)
                assert _unequal(parts, adapter.parts(moved), parts) == [], f"state {_keys(ruleset_id)[k]}, seat {seat}"
                compared += 1
    assert compared >= len(_keys(ruleset_id))


@pytest.mark.parametrize("ruleset_id", ENGINES)
def test_determinize_changes_only_what_the_seat_cannot_see(ruleset_id: str) -> None:
    # What the seat sees stays word for word (its generator and scratch aside: `determinize_scratch`), each hidden
    # pool keeps its cards (which cards are unseen is known), and the pools are dealt anew (some seed moves a card).
    adapter = ADAPTERS[ruleset_id]
    dealt = 0
    for k, m in enumerate(_states(ruleset_id)):
        for seat in _seats(m):
            where = f"state {_keys(ruleset_id)[k]}, seat {seat}"
            before = _copy(adapter.parts(m))
            pools = adapter.hidden(m, seat)
            unseen = [place for pool in pools for place in pool] + adapter.derived(m, seat)
            for seed in (3, 4, 5):
                dealt_anew = m.copy()
                adapter.determinize(dealt_anew, seat, seed)
                after = adapter.parts(dealt_anew)
                for pool in pools:
                    old, new = _pool_values(before, pool), _pool_values(after, pool)
                    assert sorted(old.tolist()) == sorted(new.tolist()), f"{where}: {pool}"
                    dealt += not np.array_equal(old, new)
                for name in set(before) - adapter.determinize_scratch:
                    changed = np.asarray(before[name] != after[name])
                    for unseen_name, index in unseen:
                        if unseen_name == name:
                            changed[index] = False
                    assert not changed.any(), f"{where}: {name} changed at {np.argwhere(changed)[:5].tolist()}"
    assert dealt > 0


# ---- 4. no rule kernel reads a policy field -------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset_id", ENGINES)
def test_no_rule_kernel_reads_a_policy_field(ruleset_id: str) -> None:
    no_policy.test_only_policies_search_and_play_loops_read_a_side_s_policy(ruleset_id)


@pytest.mark.parametrize("ruleset_id", ENGINES)
def test_the_contract_s_functions_are_rules_that_read_no_policy(ruleset_id: str) -> None:
    # The four functions the adapter names are the engine's own, read no policy field, and are names the check above
    # holds to the rules (none passes as a policy's or a play loop's).
    adapter = ADAPTERS[ruleset_id]
    sources = [path.read_text(encoding="utf-8") for path in no_policy.engine_files(ruleset_id)]
    functions = {node.name for text in sources for node in ast.parse(text).body if isinstance(node, ast.FunctionDef)}
    readers = {name for source in sources for name in no_policy._policy_readers(source)}
    for signature in adapter.CONTRACT.values():
        name = signature.split("(", 1)[0]
        assert name in functions, name
        assert name not in readers and not no_policy.POLICY_OR_LOOP.match(name), name


# ---- the checks have teeth ------------------------------------------------------------------------------------------


def test_a_determinize_that_deals_from_where_the_cards_lie_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # Shuffling the unseen cards where they lie, without sorting them first, deals a world that depends on where they
    # really are: a peek, which the check above finds.
    adapter = ADAPTERS["circles"]

    def peeking(m: Match, seat: int, seed: int) -> None:
        parts = adapter.parts(m)
        gen = np.random.default_rng(seed)
        for pool in adapter.hidden(m, seat):
            _set_pool(parts, pool, gen.permutation(_pool_values(parts, pool)))

    monkeypatch.setattr(adapter, "determinize", peeking)
    with pytest.raises(AssertionError, match="seat"):
        test_determinize_deals_alike_whatever_the_seat_cannot_see("circles")


def test_a_clone_that_leaves_an_array_behind_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    adapter = ADAPTERS["circles"]
    clone = adapter.clone

    def forgetting_the_lanes(m: Match, into: Match) -> None:
        clone(m, into)
        adapter.parts(into)["lanes"][:] = 0

    monkeypatch.setattr(adapter, "clone", forgetting_the_lanes)
    with pytest.raises(AssertionError, match="lanes"):
        test_clone_copies_every_array_of_the_match_state("circles")
