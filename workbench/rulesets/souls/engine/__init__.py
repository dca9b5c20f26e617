"""The souls match engine: flat integer state, effect opcodes, one compiled kernel per batch.

Pure: numpy and numba only. The validated cards are compiled once into an
integer card table (one row per card, `C_*` columns) and an effect-opcode
table (`fx[card, i] = (opcode, argument)`, opcodes from `effects.py`).

The game data and the match state are one int64 buffer each. `G` (`game_data`)
holds what never changes during a batch: a header (GD_*), the rule options, the
card table and the opcode table; every kernel that reads a card, an effect or
an option takes it first. `st` holds the match, at offsets kept in its own
header:

- the xorshift words (st[0:4], so the shared generator draws from it directly)
  and the game fields (turn, result, the side whose turn it is, offsets, the
  decision an action left open);
- both sides, the board, the zones (deck, hand, set traps), the rules' scratch
  plan for sacrifices, the policies' scratch words and the action list;
- the batch's per-card counters and, when tracing, the event rows.

Every kernel is a `rules_kernel` (compiled without Numba's reference counting:
none allocates), because Numba otherwise reference-counts each array argument,
atomically, on every call it does not inline, and with a dozen arrays per call
that bookkeeping cost more than the game itself (the figures of each step:
docs/rulesets/souls.md, Speed); so `G` and `st` are two arrays, not a dozen.
`MatchArrays` holds `G` and gives numpy views of `st` (board[side, unit, U_*],
sides[side, S_*], zones[side, Z_*, i], counters[side, card, counter], events)
for tests and traces. Every rule is a small kernel (`draw_cards`, `summon`,
`attack`, `support`, `move_unit`, `cast_spell`, `equip`, `activate`,
`set_trap`, `react`, `apply_element`, `tick_statuses`, `start_turn`,
`end_turn`), so a scenario sets up a board and calls one rule.

The engine keeps the engine contract (docs/simulation.md, *The engine
contract*; as pgx and OpenSpiel): the rules meet the policies at four kernels,
`legal_actions(G, st, out) -> n` (every legal action of the side whose
decision is open, st[G_ACTIVE], as a row (kind, a, b, c) written at word `out`
of `st`, "end the turn" last), `apply(G, st, row)` (one row, for that side),
`clone(st, into)` and `determinize(G, st, side, rng)` (what `side` cannot see
dealt anew from the generator `rng`); `legal_actions_of` and `apply_of` are the
same kernels with the side explicit. The rules stop at each decision and
return: `open_match` deals and begins the first turn, each `apply` takes one
row, and "end the turn" begins the other side's turn (or ends the match at its
last turn), so a match is played by `workbench.play.loop.play_out` and can be
stepped from outside. Chance in a match comes only from st's own generator
(`determinize` deals from the one it is given). An action whose damage target
is still open (a summon Trigger's, an Equip card's) leaves a decision in `st`
that the next `legal_actions` lists. The policies, in modules apart from the
rules, choose a listed row at each decision (`decide`): `greedy` (curve out,
trade well, go face when lethal: its turn's phases each work out the one row
they want with the tests the listing makes), `random` (a uniformly random row,
"end the turn" among them), `epsilon:E` (`workbench.play.policies`: at each
decision random with probability E, greedy otherwise) and `search`
(determinized Monte Carlo over the rows by successive halving, its rollouts
played in a clone of `st` and cut off by an evaluation: module `search`,
`decide_searched`). Randomness comes only from the xorshift words seeded per
match (the search's and an epsilon side's own generators are seeded from the
match's seed), and all arithmetic stays in small int64 ranges, so the same
code runs under `NUMBA_DISABLE_JIT=1`.

The readings of everything the document leaves open are rule options
(`options.py`); `ENGINE_OPTION_ORDER` lists the ones the kernel reads.

The package, one module per part, each importing only the ones before it:

- `layout`: constants, the card table's columns, the options' order, where things are in `G` and `st` (headers,
  offsets, the index kernels), counting and logging, `game_data` and `new_state`.
- `rules`: reading the board .. the turn's structure, the rules' interface (the contract's four functions:
  `legal_actions`, `apply`, `clone`, `determinize`), a match's start (`open_match`) and `is_over`.
- `policies`: greedy, random, and `decide`, the choice of a greedy, random or epsilon side at a decision.
- `search`: the search policy and `decide_searched`, the choice at a decision in a match where a side searches.
- `python_side`: card compilation, the batch kernel, `MatchArrays`, batches, trace text, `ENGINE`.

layout <- rules <- policies <- search <- python_side: the rules stop at each decision and return, and a match is
played by `workbench.play.loop.play_out` (the batch kernel and the search's rollouts), so no call goes the other way.
The package answers to every public name of its modules (`__getattr__`), as the single module did, so no caller
changed; a test that wraps a kernel in an uncompiled run replaces it in every module that calls it
(`replace_everywhere`).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from workbench.play.assembly import names_of_modules, replace_in_modules
from workbench.rulesets.souls.engine import layout, policies, python_side, rules, search

MODULES: tuple[ModuleType, ...] = (layout, rules, policies, search, python_side)
"""The engine's modules, each importing only the ones before it."""

_lookup = names_of_modules(__name__, MODULES)


def __getattr__(name: str) -> Any:
    """Every public name of the engine's modules, as the single module it was split from had them
    (`names_of_modules`)."""
    return _lookup(name)


def __dir__() -> list[str]:
    """The package's own names and every public name of its modules, as `dir()` of the single module listed them
    (tests gather the constants of a kind by prefix from `dir(engine)`: C_*, EV_*, ...)."""
    return sorted({*globals(), *(name for module in MODULES for name in vars(module) if not name.startswith("_"))})


def replace_everywhere(name: str, value: Any) -> None:
    """Set `name` to `value` in this package and in each of its modules that holds it.

    A kernel is looked up in the module of the code calling it (in an uncompiled run, NUMBA_DISABLE_JIT=1, at every
    call), so a wrapper put in one module only would miss the calls from the others: `policies` and `search` call
    `apply_of`, greedy calls `is_legal` and the rules `apply_of` would call (`attack`, `summon`, ...), `run_batch` calls
    `play_batch_kernel`. tests/rulesets/souls/test_souls_engine.py and tests/engine_contract_adapters.py wrap them with
    it."""
    replace_in_modules((sys.modules[__name__], *MODULES), name, value)
