"""The plasma game, whose hit points are Healthshards (columns, rule ids, readings, simulation:
docs/rulesets/plasma.md).

Rules summary: two players with decks of exactly 40 cards (at most 4 copies
of a card) start at 20 Healthshards ("Healthstards" in one place: the same
thing), draw 5 and may mulligan up to 3 cards. Each turn you draw 1 and gain
plasma equal to your turn number (1, 2, 3 ...); plasma carries into the
opponent's turn but is lost at the start of yours, and the second player may
flip a coin once per game for +1 plasma. A turn is a play phase, then a battle
phase. Cards are creatures (power and resolve), equipment (put under a
creature), events (one-shot), instants (playable any time, even in the
opponent's turn, never between a card and its effect) and battlefields (stay in play, one per player). Creatures attack
the opponent directly (the defender may block with an untapped creature) or
attack a creature the attacker chooses; fighters deal their power to each
other at once, and both end tapped.

The document gives no cost formula, so the workbench fits one from the set
itself (least squares of cost on power and resolve over the creatures) and
warns about creatures a plasma or more off that line.

Options: see `options.py`. Validation: subtype_rule, cost_tolerance,
min_creatures_to_fit. Simulation: turn_cap, summoning_sickness,
untap_every_turn, attack_tapped_creatures, damage_wears_off, lethal_damage,
healthshards_cap, battlefield_effects, replace_battlefield, deck_out_loses,
instants_before_damage, instants_any_time, activations_per_turn,
activation_sickness, resolve_bonus_end_destroys; the search policy's search_rollouts,
search_rollout_policy and search_depth.

Engine: `engine/` (see docs/rulesets/plasma.md, "Simulation"): greedy,
random and search policies over the document's turn structure, the effect vocabulary of
`effects.py`, and the rule options above.

Version history:
- 1.0: fitted cost formula, resolve minimum, stray stats on non-creatures,
  effect vocabulary; deck size, copy limit and the optional 3-subtype rule;
  the match engine (engine version 1).
- 1.1 (engine 1 unchanged): resolve 0 is no longer an error, as the
  document sets no minimum (`plasma.resolve_minimum` is an info, a warning
  under lethal_damage=at_least, which destroys such a creature as it
  enters). lethal_damage now defaults to more_than ("how much damage they
  can take before being destroyed": a creature survives damage equal to
  its resolve). summoning_sickness (true) and attack_tapped_creatures
  (true) were re-read against the document and kept, each with the reason
  and quote in the ledger (without sickness no block ever happens in greedy
  play). Matches under default options differ from 1.0's, so the golden
  trace was re-recorded.
- 1.2 (engine 2): activated creature abilities ("During the Play Phase you
  may play cards, activate effects"): `activate N: CLAUSE` in a creature's
  effects is part of its one ability, activated in the play phase for N
  plasma, once per creature per turn (`activations_per_turn`, a reading),
  also on the turn the creature enters (`activation_sickness` off); greedy
  and random choose activations beside card plays. The bundled set gains two
  creatures with abilities (Gloom Seer, Storm Caller) in the nightfall deck.
  Matches of cards without an `activate` clause are unchanged (the golden
  trace, swarm against bulwark, is identical); a second golden trace,
  nightfall against swarm, plays abilities.
- 1.2, engine 2, with a third policy: `search` (determinized flat Monte
  Carlo over the plays and attacks of its own turn) and its two settings
  `search_rollouts` and `search_rollout_policy`. Greedy and random play
  exactly as before (both golden traces unchanged, the same winners, turns
  and counters for the bundled decks), so no result of engine 2 changes and
  the version stays.
- 1.2, engine 2, rules apart from policies: the rules list the legal
  actions of the open decision (`legal_actions(table, st, out) -> n`:
  mulligan, play, attacker, target, block, instant, and the targets a
  card's effects leave open) and take one (`apply`); `clone` copies a
  match; greedy, random and search are policies that choose among the
  listed actions, and no rule reads a side's policy. Greedy and random play
  exactly as before (both golden traces and the bundled decks' winners,
  turns and counters unchanged), so the version stays.
- 1.2, engine 2, one compiled copy: a batch passes an events buffer of no rows
  (a trace's type), rollouts run `play_turns` taken up at a stage, and greedy
  weighs the legal actions on the state without writing the list. Every
  result is unchanged (`tests/rulesets/plasma/results_fingerprint.py`), so
  the version stays.
- 1.2, engine 2, batches apart from traces again: a batch passes no events
  buffer (its kernels a compiled copy of their own, every trace call gone),
  and a run no longer compiles the trace's copy (the first trace does); a
  card leaving the hand reads the hand for its cheapest Instant only when it
  is one; greedy's board weighing is inline in the match loop. Every result
  is unchanged, so the version stays.
- 1.2, engine 2: an attack's damage finds its fighters in the slots they
  were declared in (a new game field, G_DEFENDER, keeps the defender's),
  reading the field by uid only when an Instant moved one. The same
  fighters, so every result is unchanged and the version stays.
- 1.2, engine 2: the inline kernels are copied into their callers by LLVM
  (`workbench.engines.llvm_inline_kernel`), not as Numba IR typed again at
  each call, and so are an attack's windows and damage, `spell_value` and
  `remove_the_dead`: half the cold compile, greedy about 4% faster. Every
  result is unchanged, so the version stays.
- 1.3 (engine 3): three defaults re-read against the document's words
  (issue 32). `summoning_sickness` defaults to false: none of the words
  holds a new creature back ("Creature cards stay on the field when you
  play them ... You can use them for combat"; "You can only attack with
  untapped units"), and the old reason (greedy never blocked without it)
  was a policy's weakness; on, it is a documented house rule. Greedy now
  keeps a creature home as a blocker when the race is not clearly its own
  and the creature would block well, or when the opponent's board is
  lethal next turn (`greedy_keeps_blocker`; with `untap_every_turn` it
  never does, as attacking costs no blocker). `healthshards_cap` defaults
  to 0, no cap: the document gives 20 as where a player starts, not a
  most. `resolve_bonus_end_destroys` (new, default false): a creature is
  destroyed as it takes damage beyond its resolve, so a "this turn"
  resolve bonus (Brace, Last Stand) that ends leaves it standing with its
  resolve's worth of damage, where up to 1.2 it was destroyed at the end of
  the turn. Matches under default options differ from 1.2's: both golden
  traces re-recorded.
- 1.4 (engine 4): Instants at any time (issue 32, item 7). "Instant cards
  ... can be played at any time - they can be played on the Play Phase but
  also the Battle Phase, and even on the opponent's turn! The main rules of
  it are that you cannot use an Instant card after the opponent activates a
  card but before it goes in effect". `instants_any_time` (new, default
  true): besides the windows up to 1.3 (own play phase, around an attack,
  end of the opponent's turn), a player may play Instants with the plasma
  left from their own turn at the start of the opponent's turn (after the
  draw and the battlefield) and in the opponent's play phase after each card
  or ability has gone in effect (never in between), until they pass. The
  rules open these windows (`open_window`), so `legal_actions` lists them and
  every policy meets them: greedy answers only with removal that destroys a
  creature (a creature that has just landed) and keeps combat tricks for a
  fight and lasting effects for the end of the turn; random picks uniformly
  among the listed Instants and pass; the search's rollouts play them (its
  own Instants are greedy's, as before). Off, every match is engine 3's
  (the same results digests). Matches under default options differ from
  1.3's: both golden traces re-recorded.
- 1.4, engine 5: the search at engine speed (issue 33, item 2), on souls'
  template and the shared kernels of `workbench.play.search`. A
  decision's budget, `search_rollouts` x candidates (default 2, from 16 each),
  is spent by successive halving over ceil(log2 candidates) rounds, the worse
  half dropped after each; greedy's choice is candidate 0 and keeps a tie. A
  round's sampled world is dealt once (`determinize`) and copied for every
  candidate (common random numbers). A rollout stops `search_depth` turns
  after the searched one (a new setting, default 1: the opponent's reply; 0
  plays to the end), by the rules' own turn cap lowered in the rollout's copy
  of the options, and the position is scored by `search_evaluation`, a
  logistic fit of who wins from greedy-against-greedy positions
  (Healthshards up to 20, creatures by power, resolve left and count, cards
  in hand, a battlefield, whose turn is next). Search results change, so the
  engine version is 5 (figures: docs/rulesets/plasma.md, The search policy).
  Greedy and random play exactly as before (the results digests of
  `tests/rulesets/plasma/results_fingerprint.py` unchanged); both golden
  traces changed in their header only. Its round loop is
  `play.search.halving_search`, written once for every engine.
- 1.4, engine 6: the rules stop at each decision and return (issue 31,
  the play layer). `rules.advance` plays the match on from where it stands
  (the opening hands and mulligans, each turn's start, the opponent's
  windows, the play and battle phases, the turn's close: G_STAGE) until a
  decision is open; the contract's `apply` takes a listed action and calls
  it. No rule calls a policy: the doors the package bound into the rules
  are gone, and a match is played by the loop written once in
  `workbench.play.loop` (`play_out`: the deciding side's policy, `decide`,
  then `apply`), in batches, traces and the search's rollouts alike; a
  test plays whole matches from outside through `legal_actions` and
  `apply` and gets the batch's. Greedy, random, and search against greedy
  play exactly as before (the results digests and both golden traces'
  bodies unchanged). The version moves for two small changes: the attacker
  decision is no longer opened when no creature can attack, so an
  epsilon-greedy side no longer flips its coin there (its draws after
  that change), and in a search's rollout the decisions its choice opens
  (a block, a window) are answered by `search_rollout_policy` like the
  rest of the rollout, not by the policies the sides hold (the same for
  the default greedy rollouts against a greedy or searching opponent).
"""

from workbench.rulesets.base import Ruleset
from workbench.rulesets.plasma.cards import CARD_MODELS
from workbench.rulesets.plasma.costs import check_cards, stat_budget
from workbench.rulesets.plasma.decks import check_deck
from workbench.rulesets.plasma.options import OPTIONS

RULESET = Ruleset(
    id="plasma",
    title="Plasma (Healthshards) card game",
    version="1.4",
    document="001_3ac5e1f04a35bfd0.txt",
    card_models=CARD_MODELS,
    check_cards=check_cards,
    check_deck=check_deck,
    stat_budget=stat_budget,
    options=OPTIONS,
    header_aliases={"plasma": "cost", "plasma cost": "cost", "card type": "kind"},
    signature_columns=frozenset({"power", "resolve"}),
    cost_fields=("cost",),
    engine_module="workbench.rulesets.plasma.engine",
)
