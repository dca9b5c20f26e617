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
  TRACED_STATE_DTYPE), the decision kinds, the stages and the trace's event codes.
- `rules`: reading and changing the board, effects, playing cards, Instants, combat, turns and matches, and the
  rules' interface: the contract's four functions (`legal_actions`, `apply`, `clone`, `determinize`) and `advance`,
  which plays the match on until a decision is open and returns. No rule asks a policy.
- `greedy`: greedy's worth of cards, abilities and Instants on the board, a `choose_*` per decision kind (greedy's
  rule of thumb, random, epsilon-greedy), `decide` (the choice of the side whose decision is open), and the match
  played by the play layer's loop (`workbench.play.loop.play_out`: `play_on`, the greedy and random batch
  `play_matches`, and the phases the rule tests play alone).
- `search`: the search policy (determinized rollouts of its own plays and attacks, each played on by `play_on`),
  `decide_searched` and its batch loop.
- `python_side`: card compilation, deck checks, a pairing's own table, batches, trace text, `ENGINE`.

layout <- rules <- greedy <- search <- python_side, and no call goes the other way: the rules stop at each decision
(engine 6), so nothing binds a policy into them. The package answers to every public name of its modules
(`__getattr__`), as the single module it was split from did, so no caller changed; a test that wraps a kernel in an
uncompiled run replaces it in every module that calls it (`replace_everywhere`).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from workbench.play.assembly import names_of_modules, replace_in_modules
from workbench.rulesets.plasma.engine import greedy, layout, python_side, rules, search

MODULES: tuple[ModuleType, ...] = (layout, rules, greedy, search, python_side)
"""The engine's modules, each importing only the ones before it."""

_lookup = names_of_modules(__name__, MODULES)


def __getattr__(name: str) -> Any:
    """Every public name of the engine's modules, as the single module it was split from had them
    (`names_of_modules`)."""
    return _lookup(name)


def replace_everywhere(name: str, value: Any) -> None:
    """Set `name` to `value` in this package and in each of its modules that holds it.

    A kernel is looked up in the module of the code calling it (in an uncompiled run, NUMBA_DISABLE_JIT=1, at every
    call), so a wrapper put in one module only would miss the calls from the others: `rules` calls the appliers (from
    `take`), `greedy` and `search` call `apply`, `take` and `advance`. tests/rulesets/plasma/test_plasma_simulation.py
    and tests/engine_contract_adapters.py wrap the appliers with it."""
    replace_in_modules((sys.modules[__name__], *MODULES), name, value)
