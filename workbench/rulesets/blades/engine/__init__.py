"""The Millennium Blades tournament engine: whole tournaments on integer arrays, compiled by Numba.

Pure: numpy and numba only. `compile_cards` turns a validated card set into a
card table, an effect-opcode table (from the `effects` vocabulary in
`effects.py`) and the store deck once; the kernels below only ever see those
integer arrays and one state record per tournament (STATE_DTYPE: tableaus,
seats, the queue, the store, the generator ... as named fields), taking
`(table, effects, st, counters, events, ...)`, and all randomness comes
from the xorshift state seeded per match. Every step is a small kernel (setup,
play a single, use an action, flip, clash, resolve the effect queue, final
scoring) so scenario tests can build a tableau and call exactly the rule they
test.

A "match" of the shared runner is one tournament phase (document: Tournament
Phase) of `players` players (2-5, option): seat A plays deck A, seats B, C, ...
all play deck B. Seats sit in order A, B, C, ... ("clockwise"). The runner's
first player (0 = A, 1 = B, alternating) says whether A sits in the first or
the second half of the turn order (`opening_seat`): with two players, whether A
opens; with more, every position of A is equally likely over the alternation.

1. Setup: RP 0; each seat takes its deck's singles into hand (more than 8:
   random ones go back to the binder, as the Illegal Decks box says), and sets
   out its first deck box and first two accessories face-up. The store deck
   holds `copies` of every card of the set kinds in `store_kinds`. One metagame
   card of each meta set (stack) is revealed (option `metagame`; none in the
   pre-release; the whole game hands over its round's own, `market.py`).
2. Turns go round from the first player. A player who can play a single (one
   in hand and an open tableau slot) plays it into the left-most open slot
   (Scurry: anywhere) and may take one Action, before or after (an Action
   before that empties the player's own hand ends the turn); a player who
   cannot passes. The tournament ends when every player is unable to play.
3. Playing a single: its Play clauses, then the Next clauses of your earlier
   face-up cards waiting for "the next card you play" (and Blast Off tokens),
   in the document's priority order Top > Ongoing > Play > Next > Score (Top
   and Ongoing are continuous, so they are always already in force).
4. Effects resolve through a first-in first-out queue: a flip fires the flipped
   card's Flip clauses and, when an opponent's effect did it, its owner's
   `Reaction (flipped)`; a clash fires the initiator's outcome and the
   participants' `win clash` / `lose clash` reactions, the player whose turn it
   is first, then clockwise. A Reaction or Action flips its own card. Discards
   leave the hand for the binder, reveals count the hand, `slot +N` widens the
   player's tableau at the right, attached singles sit under their host until
   it flips, and a copy performs its neighbour's clauses of its own timing.
5. End: Score clauses of face-up cards (tableau left to right, deck box,
   accessories), then every player scores the revealed metagame cards for
   themselves; placement by RP, VP by the chart of `vp_round`; tied players
   share the VP of the places they cover, rounded down.

Rules and policies are apart: wherever the rules leave something to a player (the turn's Action before, single,
Scurry slot and Action after; a Reaction, a flip's target, the opponent a discard or a clash takes, the single given
up), they open a decision in the state (G_DECISION, G_ACTOR, D_*), list its legal actions (`legal_actions`, or the
kind's own lister), ask the deciding seat's policy (`choose`: greedy, random, search or epsilon-greedy, section
Policies) and apply the answer (`apply`, or the kind's own applier). No rule reads a seat's policy.

The per-match result for the two-sided runner is option `match_result`
(winner code 0 = A, 1 = deck B's side, -1 = even): by default A against one
rival seat drawn per match, else A's first place; A's VP, placement and RP are
in `play_batch_detailed`.

The package, one module per part, each importing only the ones before it:

- `layout`: constants, the card and effect tables' columns, the state record (`STATE_DTYPE`) and its fields, the
  decisions, trace event codes, a seat's policy block by name (`policy_of`).
- `rules`: the rule kernels (the tableau, RP, the queue, flips, targets, the store and clashes, effects, a turn,
  setup, final scoring, whole tournaments) and the contract's four functions (`legal_actions`, `apply`, `clone`,
  `determinize`).
- `policies`: the policies' doors `choose`, `choose_turn_action` and `choose_single`, greedy's estimates and choices,
  random's, the search's single at its turn.
- `search`: the search policy (candidates, worlds, rollouts, successive halving) and its tournament loop.
- `python_side`: card compilation, state records, batches, trace text, `ENGINE`.

layout <- rules <- policies <- search <- python_side. One call goes the other way, and only at run time: the rules
hand each decision to the policies' doors (`POLICY_DOOR`). This module binds those three names into `rules` as it is
imported (`bind_policy_door`), before any kernel can compile, so `rules` imports no policy and the compiled code is
the one the single module made. The names below are the ones the rest of the project reads from
`workbench.rulesets.blades.engine` (the market modules, `market.py` and `market_policy.py`, among them); a test that
wraps a kernel in an uncompiled run replaces it in every module that calls it (`replace_everywhere`).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from workbench.engines import (
    EVENT_WIDTH,
    MAX_TRACE_EVENTS,
    CompiledCards,
    bind_policy_door,
    names_of_modules,
    replace_in_modules,
)
from workbench.rulesets.blades.engine import layout, policies, python_side, rules, search
from workbench.rulesets.blades.engine.layout import (
    A_AMOUNT,
    A_ARG,
    A_PER,
    A_VERB,
    A_WHOSE,
    ACTION_BASE,
    ACTION_WIDTH,
    AR_CARD,
    AR_UP,
    AREA_ACCESSORY_1,
    AREA_BOX,
    BOOSTER_SET_KINDS,
    D_ACTION_AFTER,
    D_ACTION_BEFORE,
    D_CLASH_OPPONENT,
    D_DISCARDER,
    D_FLIP_OPPONENT,
    D_FLIP_OWN,
    D_GIVE_UP,
    D_NONE,
    D_REACTION,
    D_SCURRY,
    D_SINGLE,
    DECISION_NAMES,
    E_TIMING,
    EV_ACTION,
    EV_AFTERMARKET_CLEARED,
    EV_COPY,
    EV_DETACH,
    EV_DISCARD,
    EV_NO_TARGET,
    EV_OPENS,
    EV_PLACE,
    EV_PLAY,
    EV_REACTION,
    EV_REVEAL,
    EV_RP,
    EV_SEAT,
    EV_STORE_RESHUFFLED,
    G_AFTERMARKET,
    G_CURRENT,
    G_DECISION,
    G_FIRST,
    G_META,
    G_PLAYERS,
    G_QHEAD,
    G_QTAIL,
    G_RIVAL,
    G_SLOTS,
    G_STORE_LEFT,
    G_STORE_TOTAL,
    G_TURN,
    K_ACCESSORY,
    K_DECK_BOX,
    K_SINGLE,
    KIND_NAMES,
    MAX_ACTIONS,
    MAX_CANDIDATES,
    MAX_CLAUSES,
    MAX_META_STACKS,
    MAX_PLAYERS,
    MAX_SLOTS,
    MAX_STORE,
    MR_FIRST_PLACE,
    MR_HEAD_TO_HEAD,
    NO_ACTION,
    O_PLAYERS,
    O_SEARCH_DEPTH,
    O_SEARCH_ROLLOUTS,
    O_SLOTS,
    O_VP_ROUND,
    PART_LOSE,
    PART_MAIN,
    PER_CARD,
    PER_CARD_LEFT,
    PER_FACE_DOWN,
    PER_NONE,
    PER_STARS_AT_LEAST,
    PER_STARS_AT_MOST,
    PER_SYMBOL,
    QUEUE_SIZE,
    S_CARDS,
    S_DECKSIDE,
    S_HAND,
    S_PLACE,
    S_POLICY,
    S_RP,
    S_SLOTS,
    S_USED,
    S_VP,
    SR_CAND,
    SR_CHOICE,
    SR_N,
    SR_ORDER,
    SR_POINTS,
    SR_ROLLOUTS,
    SR_TRIED,
    SR_WANTED,
    STATE_DTYPE,
    T_CLAUSES,
    T_KIND,
    T_STARS,
    T_SYMBOLS,
    TB_ATTACHED,
    TB_CARD,
    TB_NEXT,
    TB_TOKENS,
    TB_UP,
    TM_FLIP,
    TM_REACTION,
    TM_SCORE,
    V_CLASH,
    V_FLIP,
    V_GAIN,
    V_NONE,
    V_STAR,
    VP_ROUNDS,
    W_ACCESSORY_1,
    W_BOX,
    WHOSE_OPPONENT,
)
from workbench.rulesets.blades.engine.policies import choose, choose_single, choose_turn_action
from workbench.rulesets.blades.engine.python_side import (
    ENGINE,
    SEATS,
    check_store,
    compile_cards,
    describe_event,
    new_state,
    option_array,
    play_batch,
    play_batch_detailed,
    search_state,
)
from workbench.rulesets.blades.engine.rules import (
    apply,
    apply_clash_opponent,
    apply_discarder,
    apply_flip,
    apply_give_up,
    apply_reaction,
    apply_scurry,
    apply_single,
    apply_turn_action,
    clash,
    clone,
    determinize,
    final_scoring,
    flip_slot,
    gain_rp,
    legal_actions,
    match_winner,
    open_decision,
    perform,
    place_single,
    play_tournament,
    resolve_queue,
    setup_seat,
    setup_tournament,
    stars_of,
    take_turn,
    top_slot,
    use_action,
)
from workbench.rulesets.blades.engine.search import finish_rollout, play_searched_tournament, search_decision

MODULES: tuple[ModuleType, ...] = (layout, rules, policies, search, python_side)
"""The engine's modules, each importing only the ones before it."""

POLICY_DOOR = ("choose", "choose_turn_action", "choose_single")
"""The policies' kernels the rules call (every decision's `choose`; the turn loop's `choose_turn_action` and
`choose_single`), defined in `policies`."""


bind_policy_door(rules, policies, POLICY_DOOR)  # before any kernel compiles: rules imports no policy
__getattr__ = names_of_modules(__name__, MODULES)


def replace_everywhere(name: str, value: Any) -> None:
    """Set `name` to `value` in this package and in each of its modules that holds it.

    A kernel is looked up in the module of the code calling it (in an uncompiled run, NUMBA_DISABLE_JIT=1, at every
    call), so a wrapper put in one module only would miss the calls from the others: `rules` calls the doors and the
    appliers (`apply_*`), `search` calls `take_turn`. tests/rulesets/blades/test_blades_legality.py and
    tests/engine_contract_adapters.py wrap the doors and the appliers with it."""
    replace_in_modules((sys.modules[__name__], *MODULES), name, value)


__all__ = [
    "ACTION_BASE",
    "ACTION_WIDTH",
    "AREA_ACCESSORY_1",
    "AREA_BOX",
    "AR_CARD",
    "AR_UP",
    "A_AMOUNT",
    "A_ARG",
    "A_PER",
    "A_VERB",
    "A_WHOSE",
    "BOOSTER_SET_KINDS",
    "CompiledCards",
    "DECISION_NAMES",
    "D_ACTION_AFTER",
    "D_ACTION_BEFORE",
    "D_CLASH_OPPONENT",
    "D_DISCARDER",
    "D_FLIP_OPPONENT",
    "D_FLIP_OWN",
    "D_GIVE_UP",
    "D_NONE",
    "D_REACTION",
    "D_SCURRY",
    "D_SINGLE",
    "ENGINE",
    "EVENT_WIDTH",
    "EV_ACTION",
    "EV_AFTERMARKET_CLEARED",
    "EV_COPY",
    "EV_DETACH",
    "EV_DISCARD",
    "EV_NO_TARGET",
    "EV_OPENS",
    "EV_PLACE",
    "EV_PLAY",
    "EV_REACTION",
    "EV_REVEAL",
    "EV_RP",
    "EV_SEAT",
    "EV_STORE_RESHUFFLED",
    "E_TIMING",
    "G_AFTERMARKET",
    "G_CURRENT",
    "G_DECISION",
    "G_FIRST",
    "G_META",
    "G_PLAYERS",
    "G_QHEAD",
    "G_QTAIL",
    "G_RIVAL",
    "G_SLOTS",
    "G_STORE_LEFT",
    "G_STORE_TOTAL",
    "G_TURN",
    "KIND_NAMES",
    "K_ACCESSORY",
    "K_DECK_BOX",
    "K_SINGLE",
    "MAX_ACTIONS",
    "MAX_CANDIDATES",
    "MAX_CLAUSES",
    "MAX_META_STACKS",
    "MAX_PLAYERS",
    "MAX_SLOTS",
    "MAX_STORE",
    "MAX_TRACE_EVENTS",
    "MODULES",
    "MR_FIRST_PLACE",
    "MR_HEAD_TO_HEAD",
    "NO_ACTION",
    "O_PLAYERS",
    "O_SEARCH_DEPTH",
    "O_SEARCH_ROLLOUTS",
    "O_SLOTS",
    "O_VP_ROUND",
    "PART_LOSE",
    "PART_MAIN",
    "PER_CARD",
    "PER_CARD_LEFT",
    "PER_FACE_DOWN",
    "PER_NONE",
    "PER_STARS_AT_LEAST",
    "PER_STARS_AT_MOST",
    "PER_SYMBOL",
    "POLICY_DOOR",
    "QUEUE_SIZE",
    "SEATS",
    "SR_CAND",
    "SR_CHOICE",
    "SR_N",
    "SR_ORDER",
    "SR_POINTS",
    "SR_ROLLOUTS",
    "SR_TRIED",
    "SR_WANTED",
    "STATE_DTYPE",
    "S_CARDS",
    "S_DECKSIDE",
    "S_HAND",
    "S_PLACE",
    "S_POLICY",
    "S_RP",
    "S_SLOTS",
    "S_USED",
    "S_VP",
    "TB_ATTACHED",
    "TB_CARD",
    "TB_NEXT",
    "TB_TOKENS",
    "TB_UP",
    "TM_FLIP",
    "TM_REACTION",
    "TM_SCORE",
    "T_CLAUSES",
    "T_KIND",
    "T_STARS",
    "T_SYMBOLS",
    "VP_ROUNDS",
    "V_CLASH",
    "V_FLIP",
    "V_GAIN",
    "V_NONE",
    "V_STAR",
    "WHOSE_OPPONENT",
    "W_ACCESSORY_1",
    "W_BOX",
    "apply",
    "apply_clash_opponent",
    "apply_discarder",
    "apply_flip",
    "apply_give_up",
    "apply_reaction",
    "apply_scurry",
    "apply_single",
    "apply_turn_action",
    "check_store",
    "choose",
    "choose_single",
    "choose_turn_action",
    "clash",
    "clone",
    "compile_cards",
    "describe_event",
    "determinize",
    "final_scoring",
    "finish_rollout",
    "flip_slot",
    "gain_rp",
    "legal_actions",
    "match_winner",
    "new_state",
    "open_decision",
    "option_array",
    "perform",
    "place_single",
    "play_batch",
    "play_batch_detailed",
    "play_searched_tournament",
    "play_tournament",
    "replace_everywhere",
    "resolve_queue",
    "search_decision",
    "search_state",
    "setup_seat",
    "setup_tournament",
    "stars_of",
    "take_turn",
    "top_slot",
    "use_action",
]
