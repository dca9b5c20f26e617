"""SOURCE Trading Card Game (its columns, rule ids, readings and simulation: docs/rulesets/source.md).

Rules summary: two SOURCE generators summon monsters that trek across a map
of terrestrial (purple) and otherworldly (green) spaces. A card's requirement
is how many of each kind of space your monsters must occupy before you may
summon it (monsters), equip it (equipment) or place it (traps). A monster has
four ST values (alpha, beta, gamma, delta); its ST total is fixed by its total
requirement: 0 -> 50, 1 -> 75, 2 -> 100, 3 -> 125, 4 -> 150. Monster tokens
live in a separate token deck and are expected to total less than 50.
Equipment lasts a number of turns and applies on Y, O or Y/O turns; channeled
effects have uses, activating symbols (Alpha, Beta, Gamma, Delta) and ST
brackets. Decks hold 40-60 cards under ten construction rules (see decks.py),
with monster tokens in a separate token deck (a decklist's `Tokens:` section).
The `effects` column speaks a small vocabulary (effects.py) that the match
engine (engine/) compiles to opcodes; the map it plays on is data
(map.py, maps/default.json).

Options (the ledger, with readings and quotes, is `options.py`):
- goop_names = "Goop": the names limited to 1 copy per deck.
- limit_token_copies = false: the 4-copy limit does not reach the token deck.
- tokens_count_toward_deck_size = false: 40-60 counts the main deck only.
- strict_token_totals = false: a token totalling 50+ is a warning, not an error.
- cap_requirements_of_all_kinds = true: every kind's requirement is held to 0-4.
- check_bracket_gaps = true: ST values no bracket covers are a warning.
- Engine: map = default, map_alignment = 1, symbol_draw = intentional,
  game_length = medium (100 SourcePoints), combat_tie = neither,
  turn_cap = 80, token_deck_copies = 4, sourcepoints_cap = true,
  deck_out_loses = false, channeled_active_default = Y/O,
  hit_generator_blocks = until_moved, effect_summon_requirements = met,
  recall_to = hand, parallel_move = any_step, parallel_steps = 1,
  parallel_attacks = none, web_hinders = stop, summon_placement = adjacent,
  channel_on_opponent_turn = after_each_action.

Version history:
- 1.0: ST-total table, requirement range, token totals, equipment and
  channeled-effect cells, symbols and brackets; the ten deck rules and the
  token deck; the effects vocabulary and its checks; the stat budget chart.
- 1.1: the match engine (engine 1): the map as a data file with four
  alignments, summoning with requirements counted on the map, reactionary
  summons, movement by ST, swaps, combat with a tie option, generator
  attacks, equipment, traps, channeled effects (also on the opponent's
  turn), tokens; intentional and blind symbol draws; greedy and random
  policies; ten engine options.
- 1.2: engine 2. A monster that attacked the generator from the opponent's
  summoning space blocked their conventional summons there for the rest of
  the match, even after it had been pushed back and returned without
  attacking: the flag was never cleared. It now blocks only while it stays
  on the space ("has not attacked your SOURCE generator with it" read as
  that stay); the new option hit_generator_blocks (until_moved, or
  for_good: engine 1's behaviour) records the reading. Validation is
  unchanged.
- 1.3: engine 3. Effect summons: `summon from hand` and `summon from deck`
  put one of your monsters onto the free space nearest the card's subject
  ("These monsters do not necessarily have to be placed on the summoning
  space"), besides the turn's conventional summon; option
  effect_summon_requirements (met, or ignored). The Done Zone: defeated,
  used and discarded cards go there; `recall N [kind] [from opponent]`
  brings them back (option recall_to: hand, or deck). `if TYPE` on any
  clause reads a monster's type (Type Index codes). `move parallel` lets
  a monster step across to a parallel space around an enemy (option
  parallel_steps). Web tiles: `web` lays one next to the subject, `clear
  web` removes the opponent's (option web_hinders: stop, or block).
  Matches of the bundled set are unchanged (none of its cards says
  these).
- 1.3, engine 3: the turn's body is written in its one kernel
  (`play_turn`), big inline kernels are copied in by LLVM
  (`llvm_inline_kernel`) and the search's rollout, decision and turn into
  its batch loop: a sixth less cold compile for greedy, a quarter for the
  search. Every result and greedy's speed unchanged, so the version stays.
- 1.4: engine 4. A token (`summon token`) or an effect-summoned monster
  lands only on an unoccupied, non-summoning space adjacent to its subject
  ("summon a Gearling token next to it"); with none free, or the subject
  gone from the map, it is not summoned. Engine 3 took the free space
  nearest the subject at any distance (ember_rush against tidal_fortress,
  seed 5, turn 7: a Gearling two road steps from Rustbolt Drone); option
  summon_placement (adjacent, or nearest: engine 3's placement, a house
  rule). New clause `cannot move`: the monster may not move whatever its
  move changes add (Goop "may not attack and cannot move", which `move -4`
  only approximated). The rules no longer read which policy a side plays
  (issue 31): they list legal actions, the policies choose among them.
- 1.5: engine 5. A monster a `move parallel` clause allows may step across
  to its parallel space at any step of a move, the player choosing (the
  D_FORK question lists it), one space of movement: "movement may become
  possible across parallel spaces as well" read as a space it may move to
  besides the road's. Engine 4 stepped across only around an enemy in its
  way; option parallel_move (any_step, or when_blocked: engine 4's). New
  option parallel_attacks: none (the default, as before: "attack an
  opponent's monster that is on an adjacent space", and no card of the
  document attacks across), or with_move_parallel (such a monster may
  also attack an enemy on its parallel space). Greedy takes a step across
  when the road ahead is barred or the other lane is freer by more than
  the step costs. Matches of the bundled set are unchanged (none of its
  cards says `move parallel`).
- 1.6: engine 6 (issue 32, item 10). Symbols left unused on your turn
  "may be drawn on your opponent's turn in order to activate a channeled
  effect": the document names no moment of that turn, so you may channel
  (O or Y/O effects, your monster on your Source Flux) at its start and
  again after each of the opponent's actions (its summon, equipment or
  trap, its channeled card placed, each move, attack and channel; not after
  a generator attack, which ends the turn at once): decision
  D_FOE_RESPONSE, greedy by its channel worth, random any listed. Engine 5
  allowed the start only; option channel_on_opponent_turn
  (after_each_action, or turn_start: engine 5's).
- 1.7: engine 7 (issue 33, item 2), the search policy only: its budget
  (search_rollouts, now rollouts per candidate on average) is shared out
  by successive halving; its rollouts stop after search_depth turns (new
  option) and score the position by the game's own evaluation, fitted to
  greedy's matches; each sampled world is dealt once for every candidate;
  greedy's own summon is not a second candidate. Searched matches change
  (so the version), greedy and random play exactly as before.
- 1.8: engine 8 (issue 33, item 2), the search policy's defaults only: 12
  rollouts a candidate (search_rollouts, was 16), each cut off after 12
  turns (search_depth, was 0: to the match's end) and scored by the game's
  evaluation. As strong against greedy as before (mirrors of both bundled
  decks, two seeds) in about half the time. Searched matches change (so
  the version); `search:16:depth=0` plays engine 7's search exactly;
  greedy and random play exactly as before.
"""

from workbench.rulesets.base import Ruleset
from workbench.rulesets.source.cards import CARD_MODELS
from workbench.rulesets.source.costs import check_cards, stat_budget
from workbench.rulesets.source.decks import check_deck
from workbench.rulesets.source.options import OPTIONS

RULESET = Ruleset(
    id="source",
    title="SOURCE Trading Card Game",
    version="1.8",
    document="000_f23a6a96ca060bc2.txt",
    card_models=CARD_MODELS,
    check_cards=check_cards,
    check_deck=check_deck,
    stat_budget=stat_budget,
    options=OPTIONS,
    header_aliases={
        "α": "alpha",
        "β": "beta",
        "γ": "gamma",
        "δ": "delta",
        "purple": "terrestrial",
        "green": "otherworldly",
        "terrestrial requirement": "terrestrial",
        "otherworldly requirement": "otherworldly",
        "starter": "starter_copies",
        "symbol": "symbols",
        "st brackets": "brackets",
    },
    signature_columns=frozenset({"alpha", "beta", "gamma", "delta"}),
    cost_fields=("terrestrial", "otherworldly"),
    deck_sections=("main", "tokens"),
    engine_module="workbench.rulesets.source.engine",
)
