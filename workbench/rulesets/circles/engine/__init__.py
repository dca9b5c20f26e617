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
- `game[column]`: turn, whose turn, winner, combat and Serenity flags, where the turn stands (its stage and the
  rest of the turn's step) and where a rule that asked stands (a lane's op, the damage being dealt, a Heal).

- `rng`, the batch's `counters` and the trace's `events` and `event_count` are parts of `S` too.

The rules are a second buffer `R` (`options_of`, `ability_table_of`, `table_of`, `abilities_of`). Kernels take
`(R, S, ...)`: two arrays, 14 machine words a call. `MatchArrays` builds both from Python so scenario tests can set
a board and call one step.

Rules and policies meet at a decision (`rules`, section "The rules' interface"): where a rule leaves something to
the player it opens one (`open_question`: kind, side, lane, in `decision_of(S)`) and the rules stop and return;
`legal_actions(R, S, out) -> n` lists its answers as rows in the action list (`actions_of(S)`), the side's policy
picks a row (`choose`), and `apply(R, S, k)` takes it and plays on to the next decision. The policies (`greedy`)
only choose among the listed rows: greedy by a rule of thumb per decision kind, random by the draws the engine always
made, and `search` by determinized Monte Carlo over its own turn's decisions (`search`, and docs/rulesets/circles.md).
The rules never read which policy a side plays, and never call one.

The package, one module per part, each importing only the ones before it:

- `layout`: constants, the buffers' header and offsets, the views by name.
- `rules`: the rule kernels, turns and matches by stages and steps, and the contract's four functions
  (`legal_actions`, `apply`, `clone`, `determinize`).
- `greedy`: `choose`, greedy's judgement and rule of thumb, random, and the match loop over the rules' decisions
  (`play_stages`, `play_matches`; `decide` and `is_over` for a match played from outside).
- `search`: the search policy and its batch loop.
- `python_side`: card compilation, buffers, batches, trace text, `ENGINE`, `MatchArrays`.

layout <- rules <- greedy <- search <- python_side. No call goes the other way. The package answers to every public
name of its modules (`__getattr__`), as the single module did, so no caller changed; a test that wraps a kernel in an
uncompiled run replaces it in every module that calls it (`replace_everywhere`).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from workbench.play.assembly import names_of_modules, replace_in_modules
from workbench.rulesets.circles.engine import greedy, layout, python_side, rules, search

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
    call), so a wrapper put in one module only would miss the calls from the others: `greedy` and `search` call
    `choose` and `choose_hand`. tests/rulesets/circles/legal_replay.py and tests/engine_contract_adapters.py wrap the
    policies' entries and `carry_out` with it."""
    replace_in_modules((sys.modules[__name__], *MODULES), name, value)
