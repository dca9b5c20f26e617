"""The soul-cost game (its columns, rule ids, readings and simulation: docs/rulesets/souls.md).

Rules summary: monsters, magic and trap cards show a soul cost and Atk / Def.
The soul cost is the number of your cards sacrificed to summon the card; the
document's rule of thumb fixes it by Atk + Def (<=5 -> 0, <=10 -> 1, <=14 -> 2,
<=17 -> 3, <=20 -> 4, <=22 -> 5, >22 -> 6+), +1 for a powerful effect such as
elemental application, -1 for a detrimental one. Info-box abilities: Atk,
Effect, Support (+1 Atk to a monster you control for a turn), Ranged X (attacks
reach X rows), Mobile (move itself a row), Equip (magic attached to a card in
play). Each player has three rows and 8 shield points; a card is used once
per turn; attacks reach 1 row (empty rows are ignored) and deal Atk damage to a
card, or 1 to the opponent's shield (unless a `direct N` says otherwise). Elements fire, oil, miasma and curse
combine into burning, explosion, everflame, poison and plague.

Options: see `options.py`. Validation: strict_costs, element_counts_as_powerful,
check_spell_costs. Decks: deck_size, sacrifice_from. Engine (`engine/`): hand_size,
draw_per_turn, first_player_draws, empty_deck, turn_cap, row_slots,
summons_per_turn, sacrifice_from, direct_attack, attacker_rows_collapse,
destroy_when, damage_persists, summoning_sickness, burning_turns,
combo_consumes, unlisted_combo, status_ticks, trap_slots; the search policy's
search_rollouts, search_rollout_policy and search_depth.

Version history:
- 1.0: cost table, ability names.
- 1.1: element + detrimental nets 0 (was -1); `Ranged 0` and `Atk/` spellings;
  checks for Ranged without Atk, Equip off a magic card, the element column
  against `apply` effects, and effects the simulator does not cover; deck
  warnings for deck size and for decks that can never summon; the engine's
  rule options.
- 1.2: the match engine (`engine.py`, engine version 1) and its per-object
  reference (`reference_engine.py`); `souls.no_free_summon` is an info unless
  `sacrifice_from=field` (the default reading, `either`, can always summon by
  sacrificing hand cards).
- 1.3: defaults re-read against the document (docs/rulesets/souls.md, Readings
  measured): sacrifices come from the field (`sacrifice_from=field`: you control
  the cards you summon); Burning lasts the match (`burning_turns=0`: nothing in
  the vocabulary removes it); statuses strike at the start of every turn
  (`status_ticks=every_turn`: "at the beginning of each turn"); a standard status
  stays and combines with every later element (`combo_consumes=false`: "any
  subsequent ... applications"). `summons_per_turn=1` kept, marked as a reading
  of a silence.
- 1.4: engine version 2. A monster's effect is activated as the document's
  Effects 1a says: with no prefix once per turn on your turn (an action the
  policies choose), `use:` by using the card, `summon:` on its summon Trigger;
  an on-summon `damage N` hits any opposing card, not only one in its row. The
  bundled set's "When summoned" cards say `summon:`.
- 1.5: engine version 3. Triggers: a trap springs on its own Trigger (`foe
  attacks:`, the default for a trap; `foe summons:`; `foe activates:`, a magic
  card cast or a monster's effect activated), not on the next attack whatever
  it says; monsters may carry Trigger effects too (they react once a turn), and
  the opponent reacts to an effect's activation before it resolves.
- 1.5, engine 3, with a third policy: `search` (determinized flat Monte Carlo
  over the legal actions of each step of its own turn) and its two settings
  `search_rollouts` and `search_rollout_policy`. Greedy and random play exactly
  as before (golden trace and the results digests unchanged), so the engine
  version stays.
- 1.5, engine 4: the engine in one shape, rules and policies apart. The rules
  are `legal_actions` / `apply` / `clone` over the one state buffer, a damage
  target an action leaves open (a summon Trigger's, an Equip card's) is a
  decision of its own, and greedy, random and search are policies choosing
  among the listed actions. Greedy's damage target "with a full hand, the best
  card" now always picks a card when there is one: engine 3 passed over a card
  worth less than 0 to greedy and aimed the damage at no card, which the rules
  do not list. The golden trace (but its header) and the bundled decks'
  results digests are unchanged.
- 1.6: engine version 5. `summons_per_turn` defaults to 0 (no limit): the
  document prices a summon in sacrifices only, and its once-per-turn limit is
  on using a card you control, which a card in hand is not; one summon a turn
  stays as a house rule (`--option summons_per_turn=1`, the old default).
  `direct N` on a monster (its direct attacks deal N) or an Equip card (its
  host's do), for "Direct attacks always deal 1 damage (-1 shield point)
  unless otherwise specified"; direct attacks otherwise deal 1 as before.
- 1.6, engine 6: the search spends its rollouts by successive halving
  (`workbench.play.search`: a step's budget, `search_rollouts` x candidates,
  over ceil(log2 candidates) rounds, the worse half dropped after each), cuts
  a rollout off after `search_depth` turns (a new setting) and scores the
  position by the game's own evaluation (shields, monsters in play, hand,
  traps, statuses: a logistic fit to greedy's matches), and plays its turn
  action by action: the candidates are the distinct legal actions (a summon
  into its card's preferred row when that row has room) and "end the turn", a
  tie going to the first action (greedy's rest of the turn is no longer one).
  Defaults 2 rollouts a candidate and 1 turn (the opponent's reply), from 16
  played to the end: mirror matches against greedy (1,000 a deck, seed 3) rise
  from 58.8-68.6% to 64.3-80.0%, at 7.5-8.5x the matches per second
  (docs/rulesets/souls.md, The search policy). Greedy and random play as
  before (results digests unchanged); the golden trace changed in its header.
- 1.6, engine 7: the rules stop at each decision and return (issue 31, the
  play layer). "End the turn" is a listed row (A_END, last); `open_match`
  deals and begins the first turn, and the row "end the turn" begins the
  other side's (or ends the match as a draw at its last turn, G_LAST_TURN).
  No rule calls a policy: the door the package bound into the rules
  (`take_turn`) is gone, and a match is played by the loop written once in
  `workbench.play.loop` (`play_out`: the deciding side's `decide`, then
  `apply`), in batches, traces and the search's rollouts alike (a rollout's
  cut-off is its copy's last turn, lowered). Greedy works its turn out one
  row per decision (where it is up to: the policies' turn words), and a
  card played from the hand is paid on the plan `can_pay` left for it
  (G_PLANNED). Greedy, random and search play exactly as before (the
  results digests and the golden trace's body unchanged). The version moves
  for epsilon-greedy: its coin is now tossed at each decision, as in the
  other engines, not once a turn, so its matches differ.
"""

from workbench.rulesets.base import Ruleset
from workbench.rulesets.souls.cards import CARD_MODELS
from workbench.rulesets.souls.costs import check_cards, stat_budget
from workbench.rulesets.souls.decks import check_deck
from workbench.rulesets.souls.options import OPTIONS

RULESET = Ruleset(
    id="souls",
    title="Soul-cost game",
    version="1.6",
    document="003_f567fae1ae457321.txt",
    card_models=CARD_MODELS,
    check_cards=check_cards,
    check_deck=check_deck,
    stat_budget=stat_budget,
    options=OPTIONS,
    header_aliases={"def": "defense", "defence": "defense", "attack": "atk", "soul": "soul_cost", "cost": "soul_cost"},
    column_headers={"defense": "def"},
    signature_columns=frozenset({"soul_cost", "atk", "defense"}),
    cost_fields=("soul_cost",),
    engine_module="workbench.rulesets.souls.engine",
)
