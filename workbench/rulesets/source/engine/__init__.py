"""The SOURCE match engine: whole matches on a map, on integer arrays, compiled by Numba.

Pure: numpy and numba only. `compile_cards` turns a validated card set into a
card table, an effect-clause table and the joined map (map.py) once; the
kernels below only ever see integer arrays and two records: the batch's rules
(RULES_DTYPE) and the match's state (STATE_DTYPE), each passed as one pointer.
A kernel takes, in this order, those of `table, clauses, rules, state, piles,
counters, events` it reads, then its own arguments. All randomness comes from
the xorshift state seeded per match. Every rule is a small kernel (summon,
move, attack, attack the generator, equip, set a trap, spring it, channel,
push back, end of turn) so scenario tests can set up a board and call exactly
the rule they test.

How a match runs (readings of silent rules are options, see options.py):

1. Setup: shuffle, SourcePoints by `game_length`, draw 7. Each player's token
   deck holds `token_deck_copies` of every token in the set.
2. Start of turn: the opponent may first spend symbols left unused on their
   own turn on channeled effects that may be used on this turn (O, Y/O), and
   may again after each of your actions below (`channel_on_opponent_turn`).
   Then draw 1; your four symbol cards become unused (shuffled face down in
   `symbol_draw=blind`).
3. Once per turn, one of: a conventional summon (requirements met on the map,
   your summoning space not held by your own monster; an enemy on it that has
   not attacked your generator since it came onto that space is pushed back:
   `hit_generator_blocks`), a reactionary summon (your
   generator was attacked on the opponent's last turn: any monster, ignoring
   requirements, the attacker is pushed back), an equipment card, or a trap.
   Independently, up to one channeled effect card onto a free support space.
4. Symbol actions until the four symbols are spent or the player stops: move
   a monster (spaces by the symbol's ST; a monster a `move parallel` clause
   allows may step across to its parallel space: `parallel_move`), attack an
   adjacent enemy monster (or across: `parallel_attacks`) (both use the
   symbol's ST, the lower is destroyed), channel an effect from
   your monster on your Source Flux, or, from the opponent's summoning space,
   attack the generator (the ST comes off their SourcePoints and the turn
   ends at once).
5. End of turn: discard down to 10; every equipment card and expiring token
   counts the turn off; "this turn" changes end.

A match ends when a player's SourcePoints reach 0, or as a draw after
`turn_cap` turns (both players' turns counted).

The package, one module per part of the old single module, each importing only the ones before it:

- `layout`: the tables' columns, options, fields, decision and event codes, the two records (RULES_DTYPE,
  STATE_DTYPE).
- `board`: reading the board and changing it (the kernels that ask a player nothing).
- `rules`: webs, recalls and the effect clauses, summoning, equipment, traps, channeled effects, movement, combat,
  the symbols, the decisions, asking, a turn and a match, and the contract's four functions (`legal_actions`,
  `apply`, `clone_state`, `determinize`).
- `greedy`: the policies (greedy, random, epsilon-greedy) and their one door, `choose`.
- `search`: the search policy (determinized Monte Carlo by successive halving) and its batch loop.
- `python_side`: card compilation, the records, batches, the trace's text, `ENGINE`.

layout <- board <- rules <- greedy <- search <- python_side. One call goes the other way, and only at run time: the
rules hand each decision to the policies' door (`decide` and `ask` call `choose`) and the match loop seats a side's
policy through its block (`setup_policies` calls `policy_of`). This module binds those two names into `rules` as it
is imported (`bind_policy_door`), before any kernel can compile, so `rules` imports no policy and the compiled code
is the one the single module made. The names below are the ones the rest of the project reads from
`workbench.rulesets.source.engine`; a test that wraps a kernel in an uncompiled run replaces it in every module that
calls it (`replace_everywhere`).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from workbench.engines import (
    DAMAGE_DEALT,
    EVENT_WIDTH,
    bind_policy_door,
    names_of_modules,
    replace_in_modules,
    rng_seed,
)
from workbench.policies import (
    GREEDY,
    RANDOM,
)
from workbench.rulesets.source.engine import board, greedy, layout, python_side, rules, search
from workbench.rulesets.source.engine.board import (
    destroy_monster,
    draw_card,
    may_attack,
    may_move_parallel,
    meets_requirements,
    move_bonus,
    place_monster,
    push_back,
    spaces_for_st,
    st_of,
    summon_anchor,
    summon_token,
)
from workbench.rulesets.source.engine.greedy import (
    choose,
    greedy_channel_card_unlisted,
    greedy_main,
    greedy_main_unlisted,
    greedy_path_steps,
    greedy_symbol,
    greedy_symbol_unlisted,
)
from workbench.rulesets.source.engine.layout import (
    ALL_UNUSED,
    C_OCC,
    C_OP,
    C_TRAP,
    C_TRAP_OWNER,
    C_TYPES,
    C_WEB,
    D_CHANNEL_CARD,
    D_EFFECT_SUMMON,
    D_FOE,
    D_FOE_CHANNEL,
    D_FOE_RESPONSE,
    D_KINDS,
    D_MAIN,
    D_NONE,
    D_RECALL,
    D_SYMBOL,
    D_WEB,
    EV_CHANNEL,
    EV_CHANNEL_MISS,
    EV_CHANNEL_PLACE,
    EV_EQUIP,
    EV_SUMMON,
    EV_TRAP_SET,
    EV_TURN,
    G_ACROSS,
    G_ACTIVE,
    G_ACTOR,
    G_ASKED,
    G_DECISION,
    G_FIRST,
    G_MONSTERS,
    G_OVER,
    G_TURN,
    G_WINNER,
    K_MONSTER,
    K_TOKEN,
    K_TRAP,
    M_CARD,
    M_EQY_ST,
    M_HIT_GEN,
    M_OWNER,
    M_PERM_MOVE,
    M_PERM_ST,
    M_SPACE,
    M_TMP_MOVE,
    M_TMP_ST,
    MAX_ACTIONS,
    MAX_SUPPORT,
    O_BLIND,
    O_DECK_WIDTH,
    O_SOURCEPOINTS,
    O_SPACES,
    O_SUMMONING,
    O_SUPPORT,
    O_TOKEN_COPIES,
    O_TURN_CAP,
    OP_MOVE,
    PATH_AT,
    PERMANENT,
    PILE_LIBRARY,
    PILE_POOL,
    PILE_TOKENS,
    S_CHANNEL_PLACED,
    S_DECK,
    S_DECK_N,
    S_GEN_ATTACKED,
    S_HAND,
    S_MAIN_DONE,
    S_NEXT,
    S_ORDER0,
    S_POLICY,
    S_REACTIONARY,
    S_SP,
    S_SYMBOLS,
    SR_CAND,
    SR_CHOICE,
    SR_N,
    SR_ORDER,
    SR_POINTS,
    SR_TRIED,
    STATE_DTYPE,
    STOP,
    SU_CARD,
    SU_LEFT,
    SU_PLACED,
    SYMBOLS,
    T_KIND,
    T_NCLAUSE,
    T_ST,
)
from workbench.rulesets.source.engine.python_side import (
    ENGINE,
    MAP_CAVEAT,
    compile_cards,
    describe_event,
    new_rules,
    new_state,
    play_batch,
    play_traced,
)
from workbench.rulesets.source.engine.rules import (
    A_ATTACK,
    A_CHANNEL,
    A_MOVE,
    action_code,
    action_x,
    action_y,
    apply,
    apply_clauses,
    attack_generator,
    attack_monster,
    channel,
    channel_usable,
    clone_state,
    decide_symbol_action,
    determinize,
    end_turn,
    equip,
    foe_response_window,
    legal_actions,
    legal_forks,
    legal_symbols,
    main_action,
    move_monster,
    open_decision,
    opponent_turn_channels,
    pack_action,
    place_channeled,
    play_matches,
    play_turn,
    set_trap,
    setup_match,
    spring_trap,
    summoning_space_open,
    trap_space_ok,
)
from workbench.rulesets.source.engine.search import (
    CAND_GREEDY,
    CAND_PASS,
    EVAL_HALF,
    EVAL_HAND_MONSTER,
    EVAL_HAND_OTHER,
    EVAL_MONSTER,
    EVAL_ON_GOAL,
    EVAL_SP,
    EVAL_ST,
    EVAL_STEP,
    EVAL_SUPPORT,
    EVAL_TRAP,
    search_decision,
    search_evaluation,
    search_rollout,
    search_side_worth,
    search_turn,
    search_world,
)

MODULES: tuple[ModuleType, ...] = (layout, board, rules, greedy, search, python_side)
"""The engine's modules, each importing only the ones before it."""

POLICY_DOOR = ("choose", "policy_of")
"""The policies' kernels the rules call, defined in `greedy`: `decide` and `ask` call `choose`; `setup_policies`
(the match loop) seats each side's policy through `policy_of`."""


bind_policy_door(rules, greedy, POLICY_DOOR)  # before any kernel compiles: rules imports no policy
__getattr__ = names_of_modules(__name__, MODULES)


def replace_everywhere(name: str, value: Any) -> None:
    """Set `name` to `value` in this package and in each of its modules that holds it.

    A kernel is looked up in the module of the code calling it (in an uncompiled run, NUMBA_DISABLE_JIT=1, at every
    call), so a wrapper put in one module only would miss the calls from the others: `rules` calls `choose` (the
    bound door), `greedy` and `search` call greedy's kernels, `python_side` calls `new_state`.
    tests/rulesets/source/legal_replay.py and tests/engine_contract_adapters.py wrap the doors with it."""
    replace_in_modules((sys.modules[__name__], *MODULES), name, value)


__all__ = [
    "ALL_UNUSED",
    "A_ATTACK",
    "A_CHANNEL",
    "A_MOVE",
    "CAND_GREEDY",
    "CAND_PASS",
    "C_OCC",
    "C_OP",
    "C_TRAP",
    "C_TRAP_OWNER",
    "C_TYPES",
    "C_WEB",
    "DAMAGE_DEALT",
    "D_CHANNEL_CARD",
    "D_EFFECT_SUMMON",
    "D_FOE",
    "D_FOE_CHANNEL",
    "D_FOE_RESPONSE",
    "D_KINDS",
    "D_MAIN",
    "D_NONE",
    "D_RECALL",
    "D_SYMBOL",
    "D_WEB",
    "ENGINE",
    "EVAL_HALF",
    "EVAL_HAND_MONSTER",
    "EVAL_HAND_OTHER",
    "EVAL_MONSTER",
    "EVAL_ON_GOAL",
    "EVAL_SP",
    "EVAL_ST",
    "EVAL_STEP",
    "EVAL_SUPPORT",
    "EVAL_TRAP",
    "EVENT_WIDTH",
    "EV_CHANNEL",
    "EV_CHANNEL_MISS",
    "EV_CHANNEL_PLACE",
    "EV_EQUIP",
    "EV_SUMMON",
    "EV_TRAP_SET",
    "EV_TURN",
    "GREEDY",
    "G_ACROSS",
    "G_ACTIVE",
    "G_ACTOR",
    "G_ASKED",
    "G_DECISION",
    "G_FIRST",
    "G_MONSTERS",
    "G_OVER",
    "G_TURN",
    "G_WINNER",
    "K_MONSTER",
    "K_TOKEN",
    "K_TRAP",
    "MAP_CAVEAT",
    "MAX_ACTIONS",
    "MAX_SUPPORT",
    "M_CARD",
    "M_EQY_ST",
    "M_HIT_GEN",
    "M_OWNER",
    "M_PERM_MOVE",
    "M_PERM_ST",
    "M_SPACE",
    "M_TMP_MOVE",
    "M_TMP_ST",
    "OP_MOVE",
    "O_BLIND",
    "O_DECK_WIDTH",
    "O_SOURCEPOINTS",
    "O_SPACES",
    "O_SUMMONING",
    "O_SUPPORT",
    "O_TOKEN_COPIES",
    "O_TURN_CAP",
    "PATH_AT",
    "PERMANENT",
    "PILE_LIBRARY",
    "PILE_POOL",
    "PILE_TOKENS",
    "RANDOM",
    "SR_CAND",
    "SR_CHOICE",
    "SR_N",
    "SR_ORDER",
    "SR_POINTS",
    "SR_TRIED",
    "STATE_DTYPE",
    "STOP",
    "SU_CARD",
    "SU_LEFT",
    "SU_PLACED",
    "SYMBOLS",
    "S_CHANNEL_PLACED",
    "S_DECK",
    "S_DECK_N",
    "S_GEN_ATTACKED",
    "S_HAND",
    "S_MAIN_DONE",
    "S_NEXT",
    "S_ORDER0",
    "S_POLICY",
    "S_REACTIONARY",
    "S_SP",
    "S_SYMBOLS",
    "T_KIND",
    "T_NCLAUSE",
    "T_ST",
    "action_code",
    "action_x",
    "action_y",
    "apply",
    "apply_clauses",
    "attack_generator",
    "attack_monster",
    "channel",
    "channel_usable",
    "choose",
    "clone_state",
    "compile_cards",
    "decide_symbol_action",
    "describe_event",
    "destroy_monster",
    "determinize",
    "draw_card",
    "end_turn",
    "equip",
    "foe_response_window",
    "greedy_channel_card_unlisted",
    "greedy_main",
    "greedy_main_unlisted",
    "greedy_path_steps",
    "greedy_symbol",
    "greedy_symbol_unlisted",
    "legal_actions",
    "legal_forks",
    "legal_symbols",
    "main_action",
    "may_attack",
    "may_move_parallel",
    "meets_requirements",
    "move_bonus",
    "move_monster",
    "new_rules",
    "new_state",
    "open_decision",
    "opponent_turn_channels",
    "pack_action",
    "place_channeled",
    "place_monster",
    "play_batch",
    "play_matches",
    "play_traced",
    "play_turn",
    "push_back",
    "replace_everywhere",
    "rng_seed",
    "search_decision",
    "search_evaluation",
    "search_rollout",
    "search_side_worth",
    "search_turn",
    "search_world",
    "set_trap",
    "setup_match",
    "spaces_for_st",
    "spring_trap",
    "st_of",
    "summon_anchor",
    "summon_token",
    "summoning_space_open",
    "trap_space_ok",
]
