"""The SOURCE match engine: whole matches on a map, on integer arrays, compiled by Numba.

Pure: numpy and numba only. `compile_cards` turns a validated card set into a
card table, an effect-clause table and the joined map (map.py) once; a batch
plays one pairing of decks on that pairing's own rows of them (`pairing`: the
two decks' distinct cards and the tokens they summon, ascending set ids), and
its kernels only ever see two records, each passed as one pointer: the game
data G (GAME_DTYPE: the pairing's card and clause tables, rule options, map,
distances) and the match's whole state (STATE_DTYPE: board, hands, piles,
counters and trace inside). A kernel takes `G, state` (those of the two it
reads), then its own arguments; the contract's four functions are
`legal_actions(G, state, out)`, `apply(G, state, action)`,
`clone_state(state, into)` and `determinize(G, state, p, rng)`. All randomness
comes from the xorshift state seeded per match. Every rule is a small kernel
(summon, move, attack, attack the generator, equip, set a trap, spring it,
channel, push back, end of turn) so scenario tests can set up a board and call
exactly the rule they test.

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

- `layout`: the tables' columns, options, fields, decision and event codes, the two records (GAME_DTYPE,
  STATE_DTYPE).
- `board`: reading the board and changing it (the kernels that ask a player nothing).
- `rules`: webs, recalls and the effect clauses, summoning, equipment, traps, channeled effects, movement, combat,
  the symbols, the decisions, the resolution frames (a move or an effect that asks stops there), a turn stage by
  stage and a match's setup, and the contract's four functions (`legal_actions`, `apply`, `clone_state`,
  `determinize`).
- `greedy`: the policies (greedy, random, epsilon-greedy), `choose` (the deciding side's answer) and the match loop
  over the rules' decisions (`play_matches`, through `workbench.play.loop.play_out`).
- `search`: the search policy (determinized Monte Carlo by successive halving) and its batch loop.
- `python_side`: card compilation, the pairing and the records, batches, the trace's text, `ENGINE`.

layout <- board <- rules <- greedy <- search <- python_side. No call goes the other way: the rules stop at each
decision (the turn's own and the questions a move or an effect asks) and return (`rules.advance`), and the play loop
above them asks the deciding side's policy and hands its answer to `rules.apply`. The package answers to every public
name of its modules (`__getattr__`), as the single module did, so no caller changed; a test that wraps a kernel in an
uncompiled run replaces it in every module that calls it (`replace_everywhere`).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from workbench.play.assembly import names_of_modules, replace_in_modules
from workbench.rulesets.source.engine import board, greedy, layout, python_side, rules, search

MODULES: tuple[ModuleType, ...] = (layout, board, rules, greedy, search, python_side)
"""The engine's modules, each importing only the ones before it."""

_lookup = names_of_modules(__name__, MODULES)


def __getattr__(name: str) -> Any:
    """Every public name of the engine's modules, as the single module it was split from had them
    (`names_of_modules`)."""
    return _lookup(name)


def replace_everywhere(name: str, value: Any) -> None:
    """Set `name` to `value` in this package and in each of its modules that holds it.

    A kernel is looked up in the module of the code calling it (in an uncompiled run, NUMBA_DISABLE_JIT=1, at every
    call), so a wrapper put in one module only would miss the calls from the others: `greedy` and `search` call
    `choose` and greedy's kernels, `python_side` calls `new_state`. tests/rulesets/source/legal_replay.py and
    tests/engine_contract_adapters.py wrap `choose` with it."""
    replace_in_modules((sys.modules[__name__], *MODULES), name, value)
