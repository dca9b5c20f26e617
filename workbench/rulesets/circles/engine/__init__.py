"""The resource-circle game's match engine: array state, Numba kernels, greedy, random and search policies.

Rules played (the rule document as docs/rulesets/circles.md quotes it; readings in options.py and there):

- Setup: each side shuffles its deck, has 2 Life Points and draws 5 cards.
- A turn: draw 1 (the out-of-cards reading is the option `out_of_cards`), play up to `resources_per_turn`
  resource cards, ready every resource, bring characters into play (paying their coloured circles) left to
  right, the turn player's characters heal, abilities are used, then combat lane by lane: each attacker fights the
  enemy card in front, both dealing damage at once (Fast strikes first); an attacker with nothing in front hits
  the player for its Attack. A card is destroyed when its damage is more than its Health (`destroy_when`).
  After combat, both sides' characters shift left to close gaps.
- All 24 abilities of `abilities.py` are played; activated ones are paid from ready resources once per card per
  turn, in the owner's turn or (option `respond_in_opponent_turn`) in the opponent's.

State lives in one flat int64 buffer `S` (one match at a time, reused across the batch), read through views by
name (`zones_of(S)`, `side_of(S)`, ...; offsets in `layout`):

- `zones[side, zone, position]`: the deck (`DECK`, drawn from `S_DECK_TOP` on), the hand, the discard pile, and the
  board (`BOARD`, lanes left to right; -1 is an empty lane).
- `side[side, column]`: Life Points, zone sizes, ready and total resources per colour, policy.
- `lanes[side, lane, column]`: damage and per-turn flags of the card in that lane (moves with the card).
- `game[column]`: turn, whose turn, winner, combat and Serenity flags.

- `rng`, the batch's `counters` and the trace's `events` and `event_count` are parts of `S` too.

The rules are a second buffer `R` (`options_of`, `ability_table_of`, `table_of`, `abilities_of`). Kernels take
`(R, S, ...)`: two arrays, 14 machine words a call. `MatchArrays` builds both from Python so scenario tests can set
a board and call one step.

Rules and policies meet at a decision (`rules`, section "The rules' interface"): where a rule leaves something to
the player it opens one (`ask`: kind, side, lane, in `decision_of(S)`), `legal_actions(R, S, out) -> n` lists its
answers as rows in the action list (`actions_of(S)`), the side's policy picks a row (`choose`), and
`apply(R, S, k)` takes it. The policies (`greedy`) only choose among the listed rows: greedy by a rule of thumb per
decision kind, random by the draws the engine always made, and `search` by determinized Monte Carlo over its own
turn's decisions (`search`, and docs/rulesets/circles.md). The rules never read which policy a side plays.

The package, one module per part, each importing only the ones before it:

- `layout`: constants, the buffers' header and offsets, the views by name.
- `rules`: the rule kernels, turns and matches, and the contract's four functions (`legal_actions`, `apply`,
  `clone`, `determinize`).
- `search`: the search policy and its batch loop.
- `greedy`: the policies' door `choose`, greedy's judgement and rule of thumb, random, the search's entry.
- `python_side`: card compilation, buffers, batches, trace text, `ENGINE`, `MatchArrays`.

layout <- rules <- search <- greedy <- python_side. One call goes the other way, and only at run time: the rules
hand each decision to the policies' door (`ask` -> `choose`, `ask_hand` -> `choose_hand`). This module binds those
two names into `rules` as it is imported (`bind_policy_door`), before any kernel can compile, so `rules` imports no
policy and the compiled code is the one the single module made. The names below are the ones the rest of the
project reads from `workbench.rulesets.circles.engine`; a test that wraps a kernel in an uncompiled run replaces it
in every module that calls it (`replace_everywhere`).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from workbench.engines import COUNTER_COLUMNS, bind_policy_door, names_of_modules, replace_in_modules, rng_seed
from workbench.policies import GREEDY, SEARCH
from workbench.rulesets.circles.engine import greedy, layout, python_side, rules, search
from workbench.rulesets.circles.engine.greedy import (
    LETHAL_BONUS,
    board_value,
    choose,
    greedy_character,
    greedy_hand,
    greedy_resource,
    lane_value,
    lethal_attack,
    predict_fight,
)
from workbench.rulesets.circles.engine.layout import (
    ACTION_WIDTH,
    C_ABORTED,
    C_MODE,
    C_RNG,
    C_SEARCHER,
    C_STATS,
    C_TAPE,
    C_TAPE_LEN,
    D_KIND,
    D_N,
    DECISION_AT,
    DECK,
    DISCARD,
    EV_ABILITY,
    EV_FREE_PLAY,
    EV_PLAY,
    EV_RESOURCE,
    EVENT_COUNT_AT,
    G_ACTIVE,
    G_TURN,
    G_WINNER,
    GAME_AT,
    H_ACTION_ROWS,
    H_CAPACITY,
    H_CARDS,
    H_EVENT_ROWS,
    HAND,
    K_RESOURCE,
    K_SERENITY,
    KIND_RESOURCE,
    L_ASLEEP,
    L_DAMAGE,
    L_ENTERED,
    L_MODE,
    LANE_COLUMNS,
    MAX_CHOICES,
    MODE_FIGHT,
    NO_COLOUR,
    O_RESPOND,
    O_SEARCH_ROLLOUTS,
    RNG_AT,
    S_DECK_N,
    S_DECK_TOP,
    S_HAND_N,
    S_LIFE,
    S_TOTAL,
    SEARCH_AT,
    SEARCH_LIVE,
    SEARCH_SIZE,
    SIDE_AT,
    SIDE_COLUMNS,
    STOP,
    T_ARMOR,
    T_BOOST,
    T_COLOUR,
    T_FAST,
    T_GUARD,
    T_KIND,
    T_PIERCE,
    UNDECIDED,
    UNLISTED,
    ZONES_AT,
    actions_of,
    decision_of,
)
from workbench.rulesets.circles.engine.python_side import (
    ENGINE,
    MatchArrays,
    compile_cards,
    play_traced,
    rules_buffer,
    state_buffer,
)
from workbench.rulesets.circles.engine.rules import (
    apply,
    card_management,
    choose_lane_modes,
    clone,
    combat,
    determinize,
    draw_step,
    extra_cards_each_turn,
    legal_actions,
    play_characters,
    play_match,
    play_matches,
    play_resources,
    play_turn,
    precombat_abilities,
    ready_resources,
    setup_match,
    turn_body_call,
    use_serenity,
)
from workbench.rulesets.circles.engine.search import play_searched_turn

MODULES: tuple[ModuleType, ...] = (layout, rules, search, greedy, python_side)
"""The engine's modules, each importing only the ones before it."""

POLICY_DOOR = ("choose", "choose_hand")
"""The policies' kernels the rules call (`ask` calls `choose`, `ask_hand` calls `choose_hand`), defined in `greedy`."""


bind_policy_door(rules, greedy, POLICY_DOOR)  # before any kernel compiles: rules imports no policy
__getattr__ = names_of_modules(__name__, MODULES)


def replace_everywhere(name: str, value: Any) -> None:
    """Set `name` to `value` in this package and in each of its modules that holds it.

    A kernel is looked up in the module of the code calling it (in an uncompiled run, NUMBA_DISABLE_JIT=1, at every
    call), so a wrapper put in one module only would miss the calls from the others: `rules` calls `apply` and the
    door, `greedy` calls `choose` and `greedy_hand`. tests/rulesets/circles/legal_replay.py and
    tests/engine_contract_adapters.py wrap the doors with it."""
    replace_in_modules((sys.modules[__name__], *MODULES), name, value)


__all__ = [
    "ACTION_WIDTH",
    "COUNTER_COLUMNS",
    "C_ABORTED",
    "C_MODE",
    "C_RNG",
    "C_SEARCHER",
    "C_STATS",
    "C_TAPE",
    "C_TAPE_LEN",
    "DECISION_AT",
    "DECK",
    "DISCARD",
    "D_KIND",
    "D_N",
    "ENGINE",
    "EVENT_COUNT_AT",
    "EV_ABILITY",
    "EV_FREE_PLAY",
    "EV_PLAY",
    "EV_RESOURCE",
    "GAME_AT",
    "GREEDY",
    "G_ACTIVE",
    "G_TURN",
    "G_WINNER",
    "HAND",
    "H_ACTION_ROWS",
    "H_CAPACITY",
    "H_CARDS",
    "H_EVENT_ROWS",
    "KIND_RESOURCE",
    "K_RESOURCE",
    "K_SERENITY",
    "LANE_COLUMNS",
    "LETHAL_BONUS",
    "L_ASLEEP",
    "L_DAMAGE",
    "L_ENTERED",
    "L_MODE",
    "MAX_CHOICES",
    "MODE_FIGHT",
    "MatchArrays",
    "NO_COLOUR",
    "O_RESPOND",
    "O_SEARCH_ROLLOUTS",
    "RNG_AT",
    "SEARCH",
    "SEARCH_AT",
    "SEARCH_LIVE",
    "SEARCH_SIZE",
    "SIDE_AT",
    "SIDE_COLUMNS",
    "STOP",
    "S_DECK_N",
    "S_DECK_TOP",
    "S_HAND_N",
    "S_LIFE",
    "S_TOTAL",
    "T_ARMOR",
    "T_BOOST",
    "T_COLOUR",
    "T_FAST",
    "T_GUARD",
    "T_KIND",
    "T_PIERCE",
    "UNDECIDED",
    "UNLISTED",
    "ZONES_AT",
    "actions_of",
    "apply",
    "board_value",
    "card_management",
    "choose",
    "choose_lane_modes",
    "clone",
    "combat",
    "compile_cards",
    "decision_of",
    "determinize",
    "draw_step",
    "extra_cards_each_turn",
    "greedy_character",
    "greedy_hand",
    "greedy_resource",
    "lane_value",
    "legal_actions",
    "lethal_attack",
    "play_characters",
    "play_match",
    "play_matches",
    "play_resources",
    "play_searched_turn",
    "play_traced",
    "play_turn",
    "precombat_abilities",
    "predict_fight",
    "ready_resources",
    "replace_everywhere",
    "rng_seed",
    "rules_buffer",
    "setup_match",
    "state_buffer",
    "turn_body_call",
    "use_serenity",
]
