"""SOURCE's rules never read which policy a side plays (DESIGN.md section 4; issue 31, items 1 and 5), checked on
the engine's code, not only by its results.

Every kernel of the engine package (workbench/rulesets/source/engine/, its modules read together) is named below as a
rule, a policy or the play loop's. A rule lists, applies or opens a decision; at every decision (the turn's own, and
the questions a move or an effect asks while it resolves, kept in the state as a frame) it stops and returns
(`advance`), and the play loop asks the deciding side's policy (`choose`) and hands its answer to `apply`. `choose` is
the only code that reads the side's policy (`S_POLICY`, its block through `policy_of`); the play loop and the search
only seat it. A new kernel fails here until it is named as one of the three, so a rule that reads the policy, calls
greedy's helpers itself (as `path_steps` once walked greedy's road, and `main_action` and `choose_symbol_action`
branched on the policy) or asks a policy in the middle of a rule, cannot come back unnoticed.
"""

from __future__ import annotations

import ast
from pathlib import Path

from workbench.rulesets.source import engine as E

ENGINE = Path(E.__file__).parent
"""The engine package's folder: its modules' kernels are read together."""

RULES = frozenset(
    {
        # Reading the board.
        "trace",
        "st_of",
        "spaces_for_st",
        "lasting_op",
        "may_move_parallel",
        "sidestep",
        "attack_across",
        "move_bonus",
        "may_move",
        "move_distance",
        "may_attack",
        "monster_value",
        "monsters_on_map",
        "occupied_spaces",
        "meets_requirements",
        "requirements_met",
        "forward_step",
        "progress",
        "adjacent_enemies",
        "of_type",
        "closest_free_space",
        # Changing the board, card effects.
        "to_done_zone",
        "remove_equipment",
        "equipment_changes",
        "destroy_monster",
        "place_monster",
        "leave_space",
        "push_back",
        "change_sourcepoints",
        "draw_card",
        "remove_from_hand",
        "summon_anchor",
        "free_space_near",
        "summon_token",
        "change_monster",
        "finish_web",
        "clear_webs",
        "finish_recall",
        "clause_step",
        "start_clauses",
        "apply_clauses",
        "clauses_step",
        "start_effect_summon",
        "effect_summon_step",
        # The rules of play and the symbols.
        "summoning_space_open",
        "summon_monster",
        "free_support",
        "equip",
        "trap_space_ok",
        "set_trap",
        "spring_trap",
        "place_channeled",
        "bracket_for",
        "channel_usable",
        "channel",
        "move_monster",
        "move_step",
        "attack_monster",
        "attack_generator",
        "symbol_unused",
        "spend_symbol",
        "draw_blind_symbol",
        "unused_count",
        # Decisions: their actions, what is legal, taking one.
        "pack_action",
        "action_code",
        "action_x",
        "action_y",
        "action_s",
        "pack_at",
        "at_position",
        "at_card",
        "open_decision",
        "legal_main",
        "apply_main",
        "legal_channel_cards",
        "list_with_symbols",
        "legal_symbols",
        "legal_foe_channels",
        "legal_forks",
        "legal_swaps",
        "legal_discards",
        "legal_foes",
        "legal_webs",
        "legal_recalls",
        "legal_effect_summons",
        "apply_symbol",
        "discard",
        "legal_actions",
        "take",
        "take_symbol",
        "apply",
        # The resolution frames: a move or a card's clauses stop at their questions and go on with the answers.
        "push_frame",
        "ask_question",
        "push_after",
        "after_symbol",
        "channel_tail_step",
        "resolve_frame",
        # A turn stage by stage, a fresh match, and the contract's clone and determinize.
        "channeled_waiting",
        "open_window",
        "response_window",
        "start_turn",
        "end_of_turn_changes",
        "symbols_stage",
        "play_stage",
        "advance",
        "setup_match",
        "clone_state",
        "sort_shuffle",
        "determinize",
    }
)
"""The rule kernels: whoever plays, they list, apply or ask the same."""

POLICIES = frozenset(
    {
        # What greedy play thinks an action is worth, and its look-ahead.
        "greedy_fork",
        "branch_score",
        "greedy_branch",
        "greedy_next_space",
        "free_road",
        "greedy_path_steps",
        "clause_value",
        "channel_value",
        "can_step",
        "attack_value",
        "move_value",
        "weigh_monster",
        # Greedy's and random's picks per decision kind.
        "random_among",
        "equipment_target",
        "trap_target",
        "greedy_main",
        "greedy_main_unlisted",
        "greedy_channel_card_unlisted",
        "generator_attacker",
        "greedy_symbol_intentional",
        "symbol_by_weighing",
        "greedy_symbol",
        "greedy_symbol_unlisted",
        "random_foe_channel",
        "greedy_foe_channel",
        "greedy_discard",
        "random_pick",
        "greedy_foe",
        "greedy_web",
        "greedy_recall",
        "random_recall",
        "greedy_effect_summon",
        "greedy_choice",
        "random_choice",
        "policy_of",
        "choose",
    }
)
"""The policies' kernels, `choose` their door."""

PLAY = frozenset(
    {
        "decide",
        "is_over",
        "setup_policies",
        "play_on",
        "play_matches",
        "play_stages",
        "play_turn",
        "main_action",
        "end_turn",
        "opponent_turn_channels",
        "foe_response_window",
        "candidate_answer",
        "search_world",
        "context_world",
        "context_rollout",
        "search_side_worth",
        "search_evaluation",
        "search_rollout",
        "search_decision",
        "played_in_the_state",
        "decide_searched",
        "rest_of_turn_decide",
        "deal_batch_match",
        "start_batch_match",
        "finish_batch_match",
        "play_searched_matches",
        "start_searched_match",
        "play_searched",
        "play_searched_turn",
        "settle",
    }
)
"""The play loop's and the search's kernels: they seat the policies, ask them at each decision the rules stop at and
hand their answers to the rules (`apply`, `take`), and play parts of a turn as the rule tests do."""

DOOR = "choose"
POLICY_BLOCK = "policy_of"
"""The door's view of a side's policy block: the one kernel that reads `S_POLICY`; the door reads the policy through
it, the play loop seats the policy through it."""
POLICY_WORDS = frozenset(
    {
        "S_POLICY",
        "P_CODE",
        "GREEDY",
        "RANDOM",
        "SEARCH",
        "EPSILON_GREEDY",
        "start_policy",
        "plays_random",
        "random_played",
    }
)
"""The policy field, the policies' codes and `workbench.play.policies`' kernels: no rule names them."""


def kernels(source: str) -> dict[str, ast.FunctionDef]:
    """The module's kernels (functions under a `*_kernel` decorator) by name."""
    found = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and any(
            isinstance(d, ast.Name) and d.id.endswith("kernel") for d in node.decorator_list
        ):
            found[node.name] = node
    return found


def names(function: ast.FunctionDef) -> set[str]:
    """Every name a function reads or calls."""
    return {node.id for node in ast.walk(function) if isinstance(node, ast.Name)}


def calls(function: ast.FunctionDef) -> set[str]:
    """The names a function calls."""
    return {
        node.func.id for node in ast.walk(function) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }


def policy_reads(function: ast.FunctionDef) -> int:
    """How many times a function reads (not stores) `S_POLICY` from an array."""
    return sum(
        isinstance(node, ast.Subscript)
        and isinstance(node.ctx, ast.Load)
        and any(isinstance(n, ast.Name) and n.id == "S_POLICY" for n in ast.walk(node.slice))
        for node in ast.walk(function)
    )


def rules_that_reach_policies(found: dict[str, ast.FunctionDef], rules: frozenset[str]) -> dict[str, set[str]]:
    """Rule -> the policy words and policy kernels (but the door) it names itself."""
    policies = {name for name in found if name not in rules}
    flagged = {}
    for name in sorted(rules & set(found)):
        named = names(found[name]) & (POLICY_WORDS | policies - {DOOR})
        if named:
            flagged[name] = named
    return flagged


ENGINE_KERNELS = {
    name: function
    for path in sorted(ENGINE.glob("*.py"))
    for name, function in kernels(path.read_text(encoding="utf-8")).items()
}


def test_every_kernel_is_named_a_rule_a_policy_or_the_play_loop_s() -> None:
    assert not (RULES & POLICIES or RULES & PLAY or POLICIES & PLAY)
    unnamed = sorted(set(ENGINE_KERNELS) - RULES - POLICIES - PLAY)
    assert unnamed == [], f"name these kernels in RULES, POLICIES or PLAY: {unnamed}"
    gone = sorted((RULES | POLICIES | PLAY) - set(ENGINE_KERNELS))
    assert gone == [], f"no longer kernels of the engine: {gone}"


def test_no_rule_names_the_policy_field_a_policy_or_a_policy_s_helper() -> None:
    assert rules_that_reach_policies(ENGINE_KERNELS, RULES) == {}


def test_choose_is_the_only_kernel_that_reads_a_side_s_policy() -> None:
    readers = {name for name, function in ENGINE_KERNELS.items() if policy_reads(function)}
    assert readers == {POLICY_BLOCK}
    # The door reads the block; the play loop only seats the policies (`start_policy` on the block, or a code
    # stored), and no rule even stores one.
    through_block = {name for name, function in ENGINE_KERNELS.items() if POLICY_BLOCK in calls(function)}
    assert DOOR in through_block and through_block - {DOOR} <= PLAY
    seating = {name for name, function in ENGINE_KERNELS.items() if "S_POLICY" in names(function)}
    assert seating - {DOOR, POLICY_BLOCK} <= PLAY


def test_no_rule_calls_a_policy_every_decision_stops_the_rules() -> None:
    # No rule calls the policies' `choose`: a decision (the turn's own, or a question a move or an effect asks) is
    # opened in the state and the rules stop there; the play loop asks the policy.
    assert {name for name in RULES if DOOR in calls(ENGINE_KERNELS[name])} == set()
    openers = {name for name in RULES if calls(ENGINE_KERNELS[name]) & {"open_decision", "ask_question"}}
    assert {"play_stage", "symbols_stage"} <= openers
    assert {"move_step", "clause_step", "start_effect_summon"} <= openers


def test_a_policy_asks_no_rule_and_plays_nothing() -> None:
    # What a policy calls, and all that calls in turn, never opens a decision or takes an action: no policy
    # re-enters the rules' decision points, `apply` or the play loop.
    reached: set[str] = set()
    frontier = {callee for name in POLICIES for callee in calls(ENGINE_KERNELS[name]) if callee in ENGINE_KERNELS}
    while frontier:
        name = frontier.pop()
        reached.add(name)
        frontier |= {c for c in calls(ENGINE_KERNELS[name]) if c in ENGINE_KERNELS and c not in reached}
    forbidden = PLAY | {"apply", "take", "advance", "resolve_frame", "apply_main", "apply_symbol"}
    assert reached & forbidden == set()


def test_the_check_catches_a_rule_that_reads_the_policy_or_walks_greedy_s_road() -> None:
    """The same checks on a small engine whose rules do what SOURCE's once did."""
    source = (
        "@rules_kernel\n"
        "def main_action(state, p):\n"
        "    if state.side[p, S_POLICY] == RANDOM:\n"
        "        return 1\n"
        "    return 2\n"
        "@inline_kernel\n"
        "def path_steps(rules, state, p, space):\n"
        "    return greedy_next_space(rules, state, p, space)\n"
        "@inline_kernel\n"
        "def step_ahead(table, clauses, rules, state, piles, p):\n"
        "    return choose(table, clauses, rules, state, piles)\n"
        "@inline_kernel\n"
        "def greedy_next_space(rules, state, p, space):\n"
        "    return space\n"
        "@rules_kernel\n"
        "def choose(table, clauses, rules, state, piles):\n"
        "    return state.side[state.game[0], S_POLICY]\n"
    )
    found = kernels(source)
    rules = frozenset({"main_action", "path_steps", "step_ahead"})
    assert rules_that_reach_policies(found, rules) == {
        "main_action": {"S_POLICY", "RANDOM"},
        "path_steps": {"greedy_next_space"},
    }
    assert {name for name, function in found.items() if policy_reads(function)} == {"main_action", "choose"}


def test_every_kernel_is_defined_in_one_module_only() -> None:
    # The package's module order and its door are checked for every engine (tests/test_engines.py); here, that the
    # split left no kernel in two modules (the door's stand-ins in `rules` are plain functions, not kernels).
    defined = [name for path in ENGINE.glob("*.py") for name in kernels(path.read_text(encoding="utf-8"))]
    assert len(defined) == len(set(defined)) == len(ENGINE_KERNELS)
