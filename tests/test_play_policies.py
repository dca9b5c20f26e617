"""The policies written once (workbench/play/policies.py): policy words, epsilon-greedy's own generator, and
epsilon-greedy played by all five engines through their doors (issue 31: "an epsilon-greedy policy added in one file
plays all five games")."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
from toy_engine import ENGINE as TOY_ENGINE

from workbench.bench import bundled_cardset_and_decks
from workbench.cards import WorkbenchInputError
from workbench.engines import rng_seed
from workbench.play.policies import (
    DEFAULT_EPSILON,
    EPSILON_GREEDY,
    EPSILON_SCALE,
    GREEDY,
    P_CODE,
    P_EPSILON,
    P_RNG,
    POLICY_NAMES,
    POLICY_WORDS,
    RANDOM,
    SEARCH,
    is_policy,
    plays_random,
    policy_code,
    policy_name,
    policy_word,
    random_played,
    search_depth_of,
    search_rollout_policy_of,
    search_rollouts_of,
    start_policy,
)
from workbench.rulesets import RULESETS
from workbench.simulate import batch_seeds, compile_for

CODE_BITS = 8


# --- policy words --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "code"), [("greedy", GREEDY), (" Random ", RANDOM), ("SEARCH", SEARCH)])
def test_plain_policies_are_their_codes(name: str, code: int) -> None:
    assert policy_word(name, POLICY_NAMES) == code
    assert policy_name(code) == name.strip().casefold()


@pytest.mark.parametrize(
    ("name", "epsilon", "text"),
    [
        ("epsilon", DEFAULT_EPSILON, "epsilon:0.1"),
        ("epsilon:0.25", 0.25, "epsilon:0.25"),
        ("Epsilon: 0", 0.0, "epsilon:0"),
        ("epsilon:1", 1.0, "epsilon:1"),
    ],
)
def test_epsilon_packs_its_value_in_millionths(name: str, epsilon: float, text: str) -> None:
    word = policy_word(name, POLICY_NAMES)
    assert word & ((1 << CODE_BITS) - 1) == EPSILON_GREEDY
    assert word >> CODE_BITS == round(epsilon * EPSILON_SCALE)
    assert policy_name(word) == text
    assert policy_word(policy_name(word), POLICY_NAMES) == word


@pytest.mark.parametrize("name", ["epsilon:-0.1", "epsilon:1.5", "epsilon:nan", "epsilon:abc", "epsilon:"])
def test_an_epsilon_outside_0_to_1_is_refused_with_what_was_expected(name: str) -> None:
    with pytest.raises(WorkbenchInputError, match="epsilon") as caught:
        policy_word(name, POLICY_NAMES)
    assert "0 <= E <= 1" in str(caught.value) or "epsilon:0.1" in str(caught.value)
    assert not is_policy(name, POLICY_NAMES)


@pytest.mark.parametrize("name", ["eps", "greedy:0.1", "minimax", ""])
def test_an_unknown_policy_is_refused_with_the_valid_names(name: str) -> None:
    with pytest.raises(WorkbenchInputError, match="not a policy") as caught:
        policy_word(name, POLICY_NAMES)
    assert "greedy, random, search, epsilon" in str(caught.value)


def test_an_engine_without_epsilon_refuses_it() -> None:
    assert TOY_ENGINE.policies == ("greedy", "random")
    with pytest.raises(WorkbenchInputError, match="not a policy"):
        policy_word("epsilon:0.1", TOY_ENGINE.policies)


# --- the kernels: epsilon's own generator --------------------------------------------------------------------------


def fresh_block(name: str, seed: int = 7, side: int = 0) -> np.ndarray:
    block = np.zeros(POLICY_WORDS, dtype=np.int64)
    start_policy(block, np.int64(policy_word(name, POLICY_NAMES)), np.int64(seed), np.int64(side))
    return block


def match_generator(seed: int = 7) -> np.ndarray:
    rng = np.zeros(4, dtype=np.int64)
    rng_seed(rng, np.int64(seed))
    return rng


def test_greedy_random_and_search_blocks_hold_only_their_code() -> None:
    for name, code in (("greedy", GREEDY), ("random", RANDOM), ("search", SEARCH)):
        block = fresh_block(name)
        assert block[P_CODE] == code
        assert not block[P_EPSILON:].any()


def test_the_policy_generator_is_seeded_apart_from_the_match_s_and_per_side() -> None:
    a, b = fresh_block("epsilon", side=0), fresh_block("epsilon", side=1)
    match = match_generator()
    assert not np.array_equal(a[P_RNG:], match)
    assert not np.array_equal(a[P_RNG:], b[P_RNG:])
    assert np.array_equal(a, fresh_block("epsilon", side=0))  # same seed, same generator


@pytest.mark.parametrize(("name", "always"), [("greedy", False), ("search", False), ("random", True)])
def test_plain_policies_never_draw_from_any_generator(name: str, always: bool) -> None:
    block, match = fresh_block(name), match_generator()
    before_block, before_match = block.copy(), match.copy()
    for _ in range(100):
        assert bool(plays_random(block, match)) is always
        assert random_played(block, match, np.int64(5)) == 5
    assert np.array_equal(block, before_block)
    assert np.array_equal(match, before_match)


def explore(name: str, decisions: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """How often an epsilon side explores in `decisions` decisions, each exploring one drawing a row with
    rng_below through the (traded) match generator, as a door's random policy would; the block and the match's
    generator after, and the rows drawn."""
    from workbench.engines import rng_below

    block, match = fresh_block(name), match_generator()
    rows = []
    explored = 0
    for _ in range(decisions):
        if plays_random(block, match):
            explored += 1
            rows.append(random_played(block, match, rng_below(match, np.int64(10))))
    return explored, block, match, np.array(rows, dtype=np.int64)


def test_epsilon_explores_at_its_rate() -> None:
    decisions = 200_000
    explored, *_ = explore("epsilon:0.3", decisions)
    share = explored / decisions
    half_width = 4 * (0.3 * 0.7 / decisions) ** 0.5
    assert abs(share - 0.3) < half_width
    assert explore("epsilon:0", 10_000)[0] == 0
    assert explore("epsilon:1", 10_000)[0] == 10_000


def test_exploring_never_moves_the_match_s_generator() -> None:
    """The random policy's draws in an explored decision come from the policy's generator: the match's words are
    where they were, and the policy's generator has moved (coin and rows)."""
    explored, block, match, rows = explore("epsilon:0.5", 1_000)
    assert explored > 400
    assert np.array_equal(match, match_generator())
    assert not np.array_equal(block[P_RNG:], fresh_block("epsilon:0.5")[P_RNG:])
    assert set(rows.tolist()) == set(range(10))  # the traded generator really drew the rows


# --- all five engines play it --------------------------------------------------------------------------------------

ENGINE_RULESETS = [ruleset for ruleset in RULESETS.values() if ruleset.engine is not None]
MATCHES = 120


@functools.cache
def first_pair(ruleset_id: str, options: tuple[tuple[str, Any], ...] = ()) -> tuple[Any, Any, Any, Any]:
    """The engine, the bundled set compiled (under the rule `options` given) and its first two decks."""
    ruleset = RULESETS[ruleset_id]
    cardset, decks = bundled_cardset_and_decks(ruleset)
    engine, compiled, _ = compile_for(cardset, dict(options) or None)
    deck_b = decks[1] if len(decks) > 1 else decks[0]
    return engine, compiled, compiled.deck_array(decks[0]), compiled.deck_array(deck_b)


def play(
    ruleset_id: str,
    policy_a: str,
    policy_b: str = "greedy",
    seed: int = 11,
    matches: int = MATCHES,
    options: tuple[tuple[str, Any], ...] = (),
) -> tuple[np.ndarray, ...]:
    engine, compiled, deck_a, deck_b = first_pair(ruleset_id, options)
    seeds, first = batch_seeds(seed, matches)[0]
    done = engine.play_batch(
        compiled,
        deck_a,
        deck_b,
        seeds,
        first,
        policy_word(policy_a, engine.policies, engine.search_settings),
        policy_word(policy_b, engine.policies, engine.search_settings),
    )
    return tuple(np.asarray(part) for part in done[:3])


@pytest.mark.parametrize("ruleset", ENGINE_RULESETS, ids=lambda r: r.id)
def test_every_engine_names_the_shared_policies(ruleset: Any) -> None:
    assert ruleset.engine.policies == POLICY_NAMES


@pytest.mark.parametrize("ruleset", ENGINE_RULESETS, ids=lambda r: r.id)
def test_epsilon_zero_plays_exactly_greedy(ruleset: Any) -> None:
    greedy = play(ruleset.id, "greedy")
    never = play(ruleset.id, "epsilon:0")
    for part_greedy, part_never in zip(greedy, never, strict=True):
        assert np.array_equal(part_greedy, part_never)


@pytest.mark.parametrize("ruleset", ENGINE_RULESETS, ids=lambda r: r.id)
def test_epsilon_repeats_with_its_seed_and_departs_from_greedy(ruleset: Any) -> None:
    once, again = play(ruleset.id, "epsilon:0.3"), play(ruleset.id, "epsilon:0.3")
    for part_once, part_again in zip(once, again, strict=True):
        assert np.array_equal(part_once, part_again)
    greedy = play(ruleset.id, "greedy")
    assert not np.array_equal(once[2], greedy[2])  # the cards played (counters) differ somewhere


@pytest.mark.parametrize("ruleset", ENGINE_RULESETS, ids=lambda r: r.id)
def test_epsilon_one_plays_as_well_as_random(ruleset: Any) -> None:
    """epsilon:1 is the random policy drawing from its own generator: its win rate against greedy is random's within
    the two rates' sampling error (different draws, same policy)."""
    rates = []
    for policy in ("epsilon:1", "random"):
        winners = play(ruleset.id, policy, seed=23)[0]
        rates.append(float(np.mean(winners == 0) + 0.5 * np.mean(winners == -1)))
    spread = 4 * np.sqrt(0.25 / MATCHES * 2)
    assert abs(rates[0] - rates[1]) < spread, rates


@pytest.mark.parametrize("seed", [0, 7, 2**62 + 12345, -(2**40)])
def test_start_policy_gives_the_same_generator_compiled_or_not(seed: int) -> None:
    """Under NUMBA_DISABLE_JIT=1 (how an engine is debugged) the same words, for any int64 seed, with no overflow."""
    word = np.int64(policy_word("epsilon:0.2", POLICY_NAMES))
    for side in (0, 1):
        compiled, plain = np.zeros(POLICY_WORDS, dtype=np.int64), np.zeros(POLICY_WORDS, dtype=np.int64)
        start_policy(compiled, word, np.int64(seed), np.int64(side))
        cast(Any, start_policy).py_func(plain, word, np.int64(seed), np.int64(side))  # the plain-Python body
        assert np.array_equal(compiled, plain)
        assert plain[P_EPSILON] == 200_000


def test_souls_rules_draw_nothing_once_the_match_is_dealt() -> None:
    """An exploring epsilon side's random choice draws from the policy's own generator, and the match's stream must be
    the one greedy would have met, so the rules must draw nothing once the match is dealt: only the deal
    (`setup_match`), the random policy (`random_decide`) and the search (its own buffers) call the generator."""
    import ast

    from workbench.rulesets.souls import engine as souls_engine

    draws = {"rng_below", "rng_next", "shuffle_in_place", "shuffle_zone"}
    drawing = set()
    for module in souls_engine.MODULES:  # every module of the engine package
        assert module.__file__ is not None
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                called = {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
                if called & draws:
                    drawing.add(node.name)
    assert drawing == {"shuffle_zone", "setup_match", "random_decide", "determinize"}


# --- search's own budget (search:R) ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "rollouts"), [("search:1", 1), ("Search: 4", 4), ("search:1000", 1000)])
def test_search_packs_its_budget_and_reads_it_back(name: str, rollouts: int) -> None:
    word = policy_word(name, POLICY_NAMES)
    assert policy_code(word) == SEARCH and word >> CODE_BITS == rollouts
    assert policy_name(word) == f"search:{rollouts}"
    assert policy_word(policy_name(word), POLICY_NAMES) == word
    block = fresh_block(name)
    assert block[P_CODE] == SEARCH and block[P_EPSILON] == rollouts
    assert search_rollouts_of(block, np.int64(16)) == rollouts
    assert search_rollouts_of(fresh_block("search"), np.int64(16)) == 16  # plain search: the option's


@pytest.mark.parametrize("name", ["search:0", "search:1001", "search:-2", "search:4.5", "search:x", "search:"])
def test_a_search_budget_outside_1_to_1000_is_refused_with_what_was_expected(name: str) -> None:
    with pytest.raises(WorkbenchInputError, match="rollouts per candidate") as caught:
        policy_word(name, POLICY_NAMES)
    assert "search:4" in str(caught.value)
    assert not is_policy(name, POLICY_NAMES)


SEARCH_MATCHES = 8
"""Matches of each search run below: SOURCE's search plays a few dozen a second."""


@pytest.mark.parametrize("ruleset", ENGINE_RULESETS, ids=lambda r: r.id)
def test_search_with_its_own_budget_plays_as_search_with_that_budget_as_the_option(ruleset: Any) -> None:
    """Issue 31: a policy's parameter is its own, not a rule option. `search:3` on both sides plays exactly the
    matches `search` plays under `search_rollouts=3`; each side may have its own (`search:2` against `search:5`),
    and the run repeats with its seed."""
    own = play(ruleset.id, "search:3", "search:3", seed=5, matches=SEARCH_MATCHES)
    option = play(ruleset.id, "search", "search", seed=5, matches=SEARCH_MATCHES, options=(("search_rollouts", 3),))
    for part_own, part_option in zip(own, option, strict=True):
        assert np.array_equal(part_own, part_option)
    mixed = play(ruleset.id, "search:2", "search:5", seed=5, matches=SEARCH_MATCHES)
    again = play(ruleset.id, "search:2", "search:5", seed=5, matches=SEARCH_MATCHES)
    for part_mixed, part_again in zip(mixed, again, strict=True):
        assert np.array_equal(part_mixed, part_again)


# --- search's own depth and rollout policy (search:R:depth=D:rollout_policy=P) ---------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "rollouts", "depth", "playout"),
    [
        ("search:4:depth=2", "search:4:depth=2", 4, 2, None),
        ("search:depth=0", "search:depth=0", None, 0, None),
        (" Search : rollout_policy = random ", "search:rollout_policy=random", None, None, RANDOM),
        ("search:rollout_policy=greedy:rollouts=7", "search:7:rollout_policy=greedy", 7, None, GREEDY),
        (
            "search:1000:depth=10000:rollout_policy=random",
            "search:1000:depth=10000:rollout_policy=random",
            1000,
            10_000,
            RANDOM,
        ),
    ],
)
def test_search_packs_each_setting_and_leaves_the_rest_to_the_rule_options(
    name: str, text: str, rollouts: int | None, depth: int | None, playout: int | None
) -> None:
    """Issue 31: the search's depth and rollout policy are its own parameters, as its budget is. A setting given is
    read back as given; one left out is the rule option's (the sentinels below stand for the options)."""
    word = policy_word(name, POLICY_NAMES)
    assert policy_code(word) == SEARCH
    assert policy_name(word) == text
    assert policy_word(text, POLICY_NAMES) == word
    block = fresh_block(name)
    option_rollouts, option_depth, option_playout = np.int64(16), np.int64(5), np.int64(9)
    assert search_rollouts_of(block, option_rollouts) == (option_rollouts if rollouts is None else rollouts)
    assert search_depth_of(block, option_depth) == (option_depth if depth is None else depth)
    assert search_rollout_policy_of(block, option_playout) == (option_playout if playout is None else playout)
    plain = fresh_block("search")
    assert (search_depth_of(plain, option_depth), search_rollout_policy_of(plain, option_playout)) == (5, 9)


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("search:4:depth=-1", "depth must be a whole number"),
        ("search:depth=10001", "from 0 to 10,000"),
        ("search:depth=", "depth must be a whole number"),
        ("search:rollout_policy=epsilon", "greedy or random, not 'epsilon'"),
        ("search:width=3", "no setting 'width'"),
        ("search:4:rollouts=5", "'rollouts' is set twice"),
        ("search:4,depth=2", "rollouts"),  # a comma separates policies in a list, not settings
    ],
)
def test_a_search_setting_that_does_not_read_is_refused_with_what_was_expected(name: str, says: str) -> None:
    with pytest.raises(WorkbenchInputError, match=says) as caught:
        policy_word(name, POLICY_NAMES)
    assert caught.value.expected
    assert not is_policy(name, POLICY_NAMES)


def test_an_engine_whose_rollouts_play_to_the_end_refuses_a_depth_rather_than_ignoring_it() -> None:
    circles = RULESETS["circles"].engine
    assert circles is not None and "depth" not in circles.search_settings
    with pytest.raises(WorkbenchInputError, match="does not take 'depth'"):
        policy_word("search:4:depth=2", circles.policies, circles.search_settings)
    assert is_policy("search:4:rollout_policy=random", circles.policies, circles.search_settings)
    others = [ruleset.engine for ruleset in ENGINE_RULESETS if ruleset.id != "circles"]
    assert all(engine is not None and "depth" in engine.search_settings for engine in others)


@pytest.mark.parametrize("ruleset", ENGINE_RULESETS, ids=lambda r: r.id)
def test_search_with_its_own_settings_plays_as_search_with_them_as_the_options(ruleset: Any) -> None:
    """Issue 31: policies get parameters of their own, not rule options. `search:2:depth=1:rollout_policy=random`
    on both sides plays exactly the matches plain `search` plays under the three rule options set so (circles takes
    no depth); and a side's settings are its own: the other side's plain search still reads the rule options."""
    takes_depth = "depth" in ruleset.engine.search_settings
    own_name = "search:2:depth=1:rollout_policy=random" if takes_depth else "search:2:rollout_policy=random"
    options: tuple[tuple[str, Any], ...] = (("search_rollouts", 2), ("search_rollout_policy", "random"))
    if takes_depth:
        options += (("search_depth", 1),)
    own = play(ruleset.id, own_name, own_name, seed=5, matches=SEARCH_MATCHES)
    option = play(ruleset.id, "search", "search", seed=5, matches=SEARCH_MATCHES, options=options)
    for part_own, part_option in zip(own, option, strict=True):
        assert np.array_equal(part_own, part_option)
    # Side B's plain search reads the rule options while side A reads its own: the same matches as side B naming
    # the options' defaults as its own settings.
    defaults = {option.key: option.default for option in ruleset.options}
    named = f"search:{defaults['search_rollouts']}:rollout_policy={defaults['search_rollout_policy']}"
    if takes_depth:
        named += f":depth={defaults['search_depth']}"
    one_sided = play(ruleset.id, own_name, "search", seed=5, matches=SEARCH_MATCHES)
    spelled_out = play(ruleset.id, own_name, named, seed=5, matches=SEARCH_MATCHES)
    for part, part_spelled in zip(one_sided, spelled_out, strict=True):
        assert np.array_equal(part, part_spelled)
