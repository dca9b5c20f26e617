"""The plasma match engine: whole matches on integer arrays, compiled by Numba.

Pure: numpy and numba only. `compile_cards` turns a validated card set into
one integer card table once (stats, per-opcode totals and the effect clauses
as opcode/amount pairs); the kernels only ever see a pairing's rows of that
table (`pairing`: the two decks' distinct cards, in ascending card id) and one
state record per match (STATE_DTYPE: fixed-shape integer arrays, the counters
inside; TRACED_STATE_DTYPE: the trace too), and all randomness
comes from the xorshift state seeded per match. Every step of a match is a
small kernel (setup, start of turn, one play, one attack, one fight, end of
turn) so scenario tests can set up a board and call exactly the rule they
test.

How a match runs (readings of silent rules are options, see options.py):

1. Setup: shuffle, 20 Healthshards, draw 5; each player may mulligan up to 3
   cards (set aside, draw 1 each, then shuffle them back into the deck). The
   second player holds the coin.
2. Start of turn: untap (your creatures, or all with `untap_every_turn`),
   summoning sickness ends, unspent plasma is lost and you gain plasma equal to
   your turn number, draw 1, then your battlefield's non-stat clauses fire
   (`battlefield_effects=each_turn`).
   Then (`instants_any_time`) the other player may play Instants with the
   plasma left from their own turn, until they pass.
3. Play phase: the policy plays cards and activates its creatures' abilities
   (`activate N: ...`, up to `activations_per_turn` times a creature) while it
   can pay (the coin gives +1 once per game). Creatures enter untapped and may
   attack this turn (unless the `summoning_sickness` house rule is on). After
   each card or ability has gone in effect (never between it and its effect),
   the other player may play Instants until they pass (`instants_any_time`).
4. Battle phase: each untapped creature may attack directly (the defender may
   block with an untapped creature) or attack a creature of its choice. Once
   the attack and its blocker are known, the attacker then the defender may
   play one Instant each (`instants_before_damage`); then fighters deal their
   power to each other at once, and both are tapped.
5. End of turn: the other player may spend the plasma left from their own turn
   on Instants; "this turn" bonuses end (a creature losing a resolve bonus
   keeps its resolve's worth of damage, unless `resolve_bonus_end_destroys`);
   damage wears off only with `damage_wears_off`.

A match ends when a player reaches 0 Healthshards, or as a draw at `turn_cap`
turns (both players' turns counted).

The package, one module per part, each importing only the ones before it:

- `layout`: the card table's columns, the opcodes, the options' order, the state records (STATE_DTYPE,
  TRACED_STATE_DTYPE), the decision kinds and the trace's event codes.
- `rules`: reading and changing the board, effects, playing cards, Instants, combat, turns and matches, the rules'
  interface (the contract's four functions: `legal_actions`, `apply`, `clone`, `determinize`), the match loop that
  asks each decision of the deciding side's policy, and the greedy and random batch (`play_matches`).
- `greedy`: greedy's worth of cards, abilities and Instants on the board, and the policies' door: a `choose_*` per
  decision kind (greedy's rule of thumb, random).
- `search`: the search policy (determinized rollouts of its own play and battle phases) and its batch loop.
- `python_side`: card compilation, deck checks, a pairing's own table, batches, trace text, `ENGINE`.

layout <- rules <- greedy <- search <- python_side. One call goes the other way, and only at run time: the match
loop in `rules` hands each decision to the policies' door (the `choose_*` kernels, `POLICY_DOOR`). This module binds
those names into `rules` as it is imported (`bind_policy_door`), before any kernel can compile, so `rules` imports
no policy and the compiled code is the one the single module made. The package answers to every public name of its
modules (`__getattr__`), as the single module did, so no caller changed; a test that wraps a kernel in an uncompiled
run replaces it in every module that calls it (`replace_everywhere`).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from workbench.engines import bind_policy_door, names_of_modules, replace_in_modules
from workbench.rulesets.plasma.engine import greedy, layout, python_side, rules, search

MODULES: tuple[ModuleType, ...] = (layout, rules, greedy, search, python_side)
"""The engine's modules, each importing only the ones before it."""

POLICY_DOOR = (
    "choose_play",
    "choose_attacker",
    "choose_target",
    "choose_mulligan",
    "choose_block",
    "choose_instant",
    "choose_effect_target",
)
"""The policies' kernels the rules' match loop calls, one per decision kind, defined in `greedy`."""


bind_policy_door(rules, greedy, POLICY_DOOR)  # before any kernel compiles: rules imports no policy
_lookup = names_of_modules(__name__, MODULES)


def __getattr__(name: str) -> Any:
    """Every public name of the engine's modules, as the single module it was split from had them
    (`names_of_modules`)."""
    return _lookup(name)


def replace_everywhere(name: str, value: Any) -> None:
    """Set `name` to `value` in this package and in each of its modules that holds it.

    A kernel is looked up in the module of the code calling it (in an uncompiled run, NUMBA_DISABLE_JIT=1, at every
    call), so a wrapper put in one module only would miss the calls from the others: `rules` calls the appliers and
    the door, `search` calls `apply_attacker` and `apply_choice`. tests/rulesets/plasma/test_plasma_simulation.py and
    tests/engine_contract_adapters.py wrap the appliers with it."""
    replace_in_modules((sys.modules[__name__], *MODULES), name, value)
