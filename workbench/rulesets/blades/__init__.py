"""Millennium Blades, the CCG simulator card game (columns, rule ids, readings, simulation: docs/rulesets/blades.md).

Rules summary: cards are singles, deck boxes and accessories, and metagame
cards (the meta sets are the metagame stacks, owned by nobody), each from a set
(starter, core, expansion, premium, master, promo, pro or meta) with a star rating
(1-10, usually 1-8), elements and types (six of each), and a rarity. A card's
aftermarket price is its star rating and its store price its set's buy cost
(`prices.py`); there is no stat budget. A set holds one copy of its
highest-star card, three of its lowest and two of every other (promo sets one
of each, the core set exempt); expansion, premium and master sets have 12
cards, promo sets 6, starter decks 9, pro player sets 5. A tournament deck
holds up to eight singles, one deck box and two accessories, one copy of any
card. A collection is 2-8 cards, each sharing an element or type with all the
others and each with a different star rating, and scores 2/4/7/9/12/16/21 VP
for 2/3/4/5/6/7/8+ cards. The `effects` column holds the simulator's
vocabulary (`effects.py`). The tournament engine (`engine/`) plays the
tournament phase for 2-5 players: singles into the left-most open slot, one
optional Action a turn, Top cards and clashes against the store, flips, the
effect timings in the document's priority order, discards, reveals from hand,
extra tableau slots, attached cards, copy effects, Score effects (then the
revealed metagame cards', for every player), placement by RP and VP by the
round's chart; `clash.py` gives exact clash odds.

Options: see `options.py` (set_total_counts, warn_tied_extremes,
starter_one_copy, max_symbols, collection_symbol, collection_max_cards,
collection_counts_toward_deck, collection_scoring, one_collection_per_decklist;
simulation: players, tableau_slots, vp_round, match_result, store_kinds, metagame) and
`market_options.py` (the whole game: game, market_order, market_actions,
prerelease, friendship_card_vp, trades, two_player_rules, market_search_clashes,
characters and their power figures, pro_cards). The whole game (`market.py`, option
`game=full`) plays three deckbuilding rounds of store, aftermarket, fusion,
trades and collections, each ended by a tournament of the engine.

Version history:
- 1.0: star range, set composition and size, symbol count, effects vocabulary, deck limits, collections and their VP.
- 1.1: the tournament engine (options players, tableau_slots, vp_round, match_result, store_kinds) and exact
  clash odds.
- 1.2: `collection_symbol` defaults to `common` (one element or type shared by the whole collection), the reading the
  document's captions take; `pairwise` stays as an option.
- 1.3: metagame cards (kind `metagame`, set kind `meta`, rules `blades.meta_set` and `blades.deck_metagame`), scored
  by every player after the accessories (option `metagame`); the vocabulary gains `discard yours|opponent [N]`,
  `per revealed ...`, `slot +N`, `attach` with `per attached`, `copy left|right` and `Reaction (discarded)` (engine
  version 2).
- 1.4: the `buy_cost` column (one per set, rules `blades.buy_cost_set` and `blades.buy_cost_below_resale`) and the
  whole game (`market_options.py`, option `game=full`, market version 1, whose tournaments reveal the metagame as
  the tournament does); the tournament is unchanged.
- 1.4, engine 3 (checks and options unchanged, so the ruleset version stays): rules apart from policies. The rules
  open a decision where they leave something to a player (the turn's Action before, single, Scurry slot and Action
  after; a Reaction, a flip's target, the opponent a discard or a clash takes, the single given up), `legal_actions`
  lists its answers and `apply` takes the one a policy chose; greedy, random and search choose among the listed
  actions and no rule reads a seat's policy. Greedy, random and search play exactly as before on the bundled set
  (golden traces and the ten digests of tests/rulesets/blades/results_fingerprint.py unchanged). The version moves
  for one fix no bundled card reaches: a player whose Action before the play empties their own hand (a `discard
  yours` or `attach` Action) now ends the turn without a single, where engine 2 played a card that had left the hand.
- 1.4, engine 3, counters only (results unchanged, so neither version moves): the deck box and the accessories set
  out at the start are in play from the start, so they count as played on turn 1 (`played`, `matches_played`,
  `first_played_turn` and the rest) in every tournament, not only when an Action or Reaction of theirs is used. A
  deck box with only a Score clause (Obsidian Vault) read as played in no tournament, so "rarely played" (issue 29).
  Winners, turns, VP, places and RP are bit-identical (results_fingerprint.py's matches unchanged; its digests move
  only through the counters).
- 1.4, market 2 (card checks and option choices unchanged, so the ruleset version stays; the tournament engine and
  its results unchanged): the whole game's metagame follows the document (issue 32). Before, each tournament drew
  one card of each stack uniformly from the whole stack when it started, so a card came back in a later round
  (70% of four-player games, 200 seeds) and no seat knew the metagame while it built its deck. Now "Shuffle the 2
  stacks of Metagame Cards separately" happens once at setup from the game's generator; at each deckbuilding setup
  "Discard any revealed Metagame cards out of play. Reveal a new Elemental Metagame Card", before the first timer;
  after it "deal each player 6 more cards ..., then reveal the top card of the Type Meta stack". No card repeats in
  a game. Greedy values a single by what the revealed metagame cards' Score clauses pay for it (deck building and
  purchases), and the search plays its tournaments under the revealed cards (a stack not yet revealed: any card
  still in it). The `metagame` option's reading says so; golden traces of the whole game re-recorded.
- 1.4, market 2, characters (issue 32, item 9; new options, off by default, so default games are bit-identical:
  golden traces unchanged and neither version moves): option `characters` (`none` by default, the document's "In
  your first game, you may choose to leave out character powers"; `random`; `in_order` from `first_character`)
  deals the document's six characters, each power one effect of a small vocabulary (`market.POWER_NAMES`) with a
  figure set by an option: `fulton_income`, `shur_tableau`, `cardine_promos`, `cardine_fusion`,
  `morrey_buy_discount`, `morrey_sell_bonus`, `power_creep_meta_look`. Deques' extra deck boxes and accessories and
  the other tournament-side powers are not simulated (info `blades.market_characters`). Option `pro_cards` (with
  characters) hands out the round 1 and 2 winners' pro player cards, so the bundled Pro set (Marisol Quickdraw) is
  live. The `game` option's reading lists what the whole game leaves out (item 10): card-for-card trades, Blast
  Off PLUS, Venues, Draft, Liquidation, Turn-Based, Free Market, Millennium Accessories.
- 1.4, engine 4 (every result unchanged, so neither version moves): the tournament rules stop at each decision and
  return (issue 31, the play layer). A decision the rules open keeps its listed rows in the state (`actions`,
  G_LISTED); an effect a decision interrupts (a seat's Reaction offers, a discard of several singles) keeps where it
  is (G_ITEM) and goes on before the next queued effect; the tournament goes on by its stage (G_STAGE: the seat
  loop, the rest of a turn). An Action decision with no Action to use is not opened (its one row, NO_ACTION, every
  policy answered without a draw). The policies' doors the package bound into the rules are gone: tournaments are
  played by the loop written once in `workbench.play.loop` (`play_out`: the deciding seat's `decide`, then
  `apply`) in batches, traces, the whole game's tournaments and the search's rollouts. Greedy, random, epsilon and
  search play exactly as before (results_fingerprint.py's ten digests, the market fingerprints, the golden trace).
- 1.4, engine 4 (checks unchanged, so the ruleset version stays; greedy and random bit-identical: golden trace and
  results_fingerprint.py's nine greedy and random digests unchanged): the tournament `search` spends each decision's
  budget by successive halving (`workbench.play.search`, issue 33) instead of the same count for every candidate,
  deals each sampled world once for all the candidates of a round, no longer plays greedy's own single as a
  candidate beside greedy's turn (the same play), and scores a rollout by VP and then the RP lead. New default
  `search_rollouts=4` (rollouts a candidate on average, was 16 each) and a new option `search_depth` (a cut-off
  scored by the rules' final scoring, 0 = off by default). The search's results change, hence the engine version
  (docs/rulesets/blades.md, *The search policy*, has the measurements).
- 1.4, market 3 (card checks, options and the tournament engine unchanged): the whole game draws from the engines'
  xorshift128 generator (`market_rng.MarketRng`: `rng_below`, `shuffle_in_place` and a partial Fisher-Yates,
  draw for draw) instead of NumPy's `Generator`, seeded from each game's `SeedSequence` child as before, so a
  compiled market can make the same draws in the same order (issue 33, item 1). The rules and the policies are
  unchanged, but every draw comes from another stream, so whole games differ game by game from market 2's; the
  golden whole-game traces are re-recorded.
- 1.4, engine 5 (checks unchanged, so the ruleset version stays; greedy and random bit-identical): the
  tournament `search`'s default cut-off, `search_depth=8` (was 0: every rollout to the tournament's end). At 4 players
  a rollout stops after two more rounds of the table and is scored as if the tournament ended there; the search is as
  strong or stronger against greedy on every bundled deck, at 2 and at 4 players, and faster at 4 players (at 2 about
  as fast; issue 33, item 2; docs/rulesets/blades.md, *The search policy*). The kernels are engine 4's, so
  `search:4:depth=0` plays engine 4's search exactly. Searched results change (tournaments, and whole games with a
  searching seat), hence the engine version.
"""

from workbench.rulesets.base import Ruleset
from workbench.rulesets.blades.cards import CARD_MODELS
from workbench.rulesets.blades.costs import check_cards
from workbench.rulesets.blades.decks import check_deck
from workbench.rulesets.blades.market_options import MARKET_OPTIONS
from workbench.rulesets.blades.options import OPTIONS

RULESET = Ruleset(
    id="blades",
    title="Millennium Blades",
    version="1.4",
    document="002_ebec614016c83621.txt",
    card_models=CARD_MODELS,
    check_cards=check_cards,
    check_deck=check_deck,
    # Cards are priced by star rating (aftermarket) and set buy cost (store): there is no stat budget to chart.
    stat_budget=None,
    options=OPTIONS + MARKET_OPTIONS,
    header_aliases={
        "star rating": "stars",
        "star": "stars",
        "element": "elements",
        "type": "types",
        "set name": "set",
        "set type": "set_kind",
        "kind of set": "set_kind",
        "copies in set": "copies",
        "effect text": "text",
    },
    signature_columns=frozenset({"stars", "set_kind", "copies"}),
    cost_fields=("stars",),
    deck_sections=("main", "collection"),
    engine_module="workbench.rulesets.blades.engine",
)
