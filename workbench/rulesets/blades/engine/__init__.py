"""The Millennium Blades tournament engine: whole tournaments on integer arrays, compiled by Numba.

Pure: numpy and numba only. `compile_cards` turns a validated card set into a
card table, an effect-opcode table (from the `effects` vocabulary in
`effects.py`) and the store deck once; the kernels only ever see a batch's own
rows of those tables, one game data record (GAME_DTYPE: `python_side.batch_cards`,
the cards a batch can reach by ascending card id), and one state record per
tournament (STATE_DTYPE: tableaus, seats, the queue, the store, the generator,
the counters, the trace ... as named fields), taking `(g, st, ...)`, and all
randomness comes from the xorshift state seeded per match. Every step is a small kernel (setup,
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

Rules and policies are apart, and the engine keeps the engine contract (docs/simulation.md, *The engine contract*;
as pgx and OpenSpiel): wherever the rules leave something to a player (the turn's Action before, single, Scurry slot
and Action after; a Reaction, a flip's target, the opponent a discard or a clash takes, the single given up), they
open a decision in the state (G_DECISION, G_ACTOR, D_*) and return. `legal_actions(g, st, out) -> n` lists its rows,
the deciding seat's policy chooses one (`decide`: greedy, random, search or epsilon-greedy, section Policies) and
`apply(g, st, row)` takes it and plays the rules on to the next decision (`advance`: what waits is resolved, an
effect the decision interrupted first, G_ITEM, then the queue; then the tournament goes on by its stage, G_STAGE).
So a tournament is played by `workbench.play.loop.play_out` and can be stepped from outside; no rule reads or asks a
seat's policy. An Action decision with no Action to use is not opened (it has one row, NO_ACTION, and no choice).

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
- `policies`: greedy's estimates and choices, random's, the search's single at its turn, `decide` (the choice at an
  open decision), the tournament and the batch played by the play loop (`play_tournament`, `play_matches`), and
  `settle` (what a scenario test plays after calling one rule).
- `search`: the search policy (candidates, worlds, rollouts, successive halving), `decide_searched` and its
  tournament and batch.
- `python_side`: card compilation, a batch's own cards (`batch_cards`, `game_data`), state records, batches, trace
  text, `ENGINE`.

layout <- rules <- policies <- search <- python_side: the rules stop at each decision and return, and a tournament
is played by `workbench.play.loop.play_out` (the batch kernels, the whole game's tournaments and the search's
rollouts), so no call goes the other way. The package answers to every public name of its modules (`__getattr__`),
as the single module did, so no caller changed; a test that wraps a kernel in an uncompiled run replaces it in every
module that calls it (`replace_everywhere`).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from workbench.play.assembly import names_of_modules, replace_in_modules
from workbench.rulesets.blades.engine import layout, policies, python_side, rules, search

MODULES: tuple[ModuleType, ...] = (layout, rules, policies, search, python_side)
"""The engine's modules, each importing only the ones before it."""

_lookup = names_of_modules(__name__, MODULES)


def __getattr__(name: str) -> Any:
    """Every public name of the engine's modules, as the single module it was split from had them
    (`names_of_modules`)."""
    return _lookup(name)


def replace_everywhere(name: str, value: Any) -> None:
    """Set `name` to `value` in this package and in each of its modules that holds it.

    A kernel is looked up in the module of the code calling it (in an uncompiled run, NUMBA_DISABLE_JIT=1, at every
    call), so a wrapper put in one module only would miss the calls from the others: `rules` calls `take` (in
    `apply`) and `policies` and `search` call it too. tests/rulesets/blades/test_blades_legality.py and
    tests/engine_contract_adapters.py wrap `take` with it."""
    replace_in_modules((sys.modules[__name__], *MODULES), name, value)
