"""The Millennium Blades rule-options ledger: every reading of an unclear rule, its default and its quote."""

from workbench.rulesets.base import RuleOption, halving_search_options

SEARCH_ROLLOUTS = 4
"""The Blades search's default budget: rollouts per candidate single on average, the decision's whole budget being this
times its candidates, shared out by successive halving (docs/rulesets/blades.md, *The search policy*, has the
measurements it was chosen by)."""
SEARCH_DEPTH = 8
"""The Blades search's default cut-off, in turns after the searched one (0: every rollout plays to the end): 8, so a
4-player rollout (24 turns a tournament) stops after two more rounds of the table and scores the position as if the
tournament ended there. As strong as playing to the end or stronger on every bundled deck, at 2 and at 4 players,
and at 4 players faster (docs/rulesets/blades.md, *The search policy*); a 2-player rollout, 12 turns a tournament, is
cut off only from the seat's first turns, and 2-player searches measured no faster."""
_WIN_QUOTE = "Players place in the tournament according to the number of Ranking Points (RP) they've accumulated."
SEARCH_OPTIONS: tuple[RuleOption, ...] = halving_search_options(
    "candidate single at each turn it searches",
    _WIN_QUOTE,
    SEARCH_ROLLOUTS,
    SEARCH_DEPTH,
    "as if the tournament ended there: Score clauses, the metagame, placement; each single still to play counted at "
    "its average worth",
)
"""The search policy's settings (`rulesets.base.halving_search_options`): the budget and rollout policy every ruleset
has, with Blades' default budget, and the rollouts' cut-off."""

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        key="set_total_counts",
        default="copies",
        reading=(
            "A set's card count is the sum of its `copies` (physical cards), so an expansion of 12 cards is six "
            "different cards at 1 + 2 + 2 + 2 + 2 + 3 copies and a pro set is one card at 5 copies; `rows` counts "
            "different cards instead."
        ),
        quote=(
            "11 Expansion Sets (12 cards each) ... 6 Pro Player Card Sets (5 cards each) ... The highest star card "
            "in the set has one copy while the lowest has three. Any other card in the set has two copies."
        ),
        choices=("copies", "rows"),
    ),
    RuleOption(
        key="warn_tied_extremes",
        default=False,
        reading=(
            "When several cards share a set's highest (or lowest) star rating, each of them has 1 (or 3) copies; "
            "a set whose cards all share one rating follows the highest-star rule. With this on, such a tie is also "
            "a warning, since the document speaks of one highest and one lowest card."
        ),
        quote="The highest star card in the set has one copy while the lowest has three.",
    ),
    RuleOption(
        key="starter_one_copy",
        default=True,
        reading=(
            "A starter deck is played as a tournament deck as it comes (pre-release), and a deck holds one copy of "
            "any card, so each starter card has 1 copy; another count is a warning. Off: starter copies are not "
            "checked (the document states no copy rule for starters)."
        ),
        quote="Players play with only their starter decks. ... You may only have one copy of any card in your deck!",
    ),
    RuleOption(
        key="max_symbols",
        default=6,
        minimum=0,
        maximum=100,
        reading=(
            "The document names six elements and six types but not what they are (its pictures are lost), so any "
            "names are accepted; a set using more than this many different elements, or different types outside "
            "its pro sets, gets a warning at the row that adds one too many. 0 turns the check off."
        ),
        quote="There are 6 Elements ... There are 6 Types ... Pro Player cards have their own Type.",
    ),
    RuleOption(
        key="collection_symbol",
        default="common",
        reading=(
            "`common` (default): one element or type is shared by all the cards of a collection, the stronger "
            'reading of "at least one matching symbol with all the others", and the one the document\'s captions '
            'take (a card is refused because "it doesn\'t match the element of the collection": a collection has '
            "one element or type), as does the turn-based mode, where a collection's element or type is declared "
            "with its first card. `pairwise`: every two cards share some symbol, so a chain such as Fire/Soldier, "
            "Fire/Mage, Water/Soldier+Mage passes."
        ),
        quote=(
            "Your Collection is made up of 2-8 cards, each having at least one matching symbol with all the others, "
            "and each having a different star rating than all the others. / A collection of Dark Cards. The card on "
            "the right could not be part of this collection, because it doesn't match the element of the collection."
        ),
        choices=("pairwise", "common"),
    ),
    RuleOption(
        key="collection_max_cards",
        default=8,
        minimum=1,
        maximum=100,
        reading=(
            "A collection holds at most 8 cards, as the collection rule says; the chart's last column reads `8+`, "
            "so a larger limit (for house rules) scores every size from 8 up at 21 VP."
        ),
        quote="Your Collection is made up of 2-8 cards ... Cards 2 3 4 5 6 7 8+ / Victory Points 2 4 7 9 12 16 21",
    ),
    RuleOption(
        key="collection_counts_toward_deck",
        default=False,
        reading=(
            "A collection is a separate area of the player board, turned in before the tournament, so its cards do "
            "not count toward the deck's 8 singles, 1 deck box, 2 accessories or its one-copy rule. On: they do."
        ),
        quote=(
            "YOUR PERSONAL AREA: Deck ... Collections ... Binder. ... At the end of the round, your Collection will be "
            "returned to the box ... All loose cards that are not part of a player's deck are moved to their "
            "owners' binders."
        ),
    ),
    RuleOption(
        key="collection_scoring",
        default="chart",
        reading=(
            "`chart`: a collection scores VP by the Collection Points chart (it does not depend on the round). "
            "`duel`: Duel Mode's 10 RP per card instead of VP."
        ),
        quote=(
            "Cards 2 3 4 5 6 7 8+ / Victory Points 2 4 7 9 12 16 21 ... (Duel Mode) Instead of gaining VP from them, "
            "these are converted to RP ... at a rate of 10 RP per card."
        ),
        choices=("chart", "duel"),
    ),
    RuleOption(
        key="one_collection_per_decklist",
        default=False,
        reading=(
            "A decklist may hold several collections (one per round, or Duel Mode's elemental and type collections); "
            "with this on, a second collection in one decklist is a warning."
        ),
        quote="You can only build one collection per Deckbuilding Phase.",
    ),
    # ---- the tournament engine (engine/) --------------------------------------------------------------------------
    RuleOption(
        key="players",
        default=4,
        minimum=2,
        maximum=5,
        reading=(
            "A simulated tournament seats this many players (2-5): seat A plays the measured deck and every other "
            "seat plays deck B (the gauntlet deck), each its own copy of the cards."
        ),
        quote="These rules assume a 3-5 player group. For the 2 player rules, check the Variants section",
    ),
    RuleOption(
        key="tableau_slots",
        default=6,
        minimum=1,
        maximum=12,
        reading=(
            "The tableau has 6 slots (the board picture is lost; the document says a tournament typically plays 6 "
            "of the 8 singles), so a player passes once 6 singles are down or the hand is empty."
        ),
        quote=(
            "During a Tournament, you will typically only play 6 cards ... A player will be unable to play a single "
            "if he or she has no cards in hand, or if his or her entire tableau is filled already."
        ),
    ),
    RuleOption(
        key="vp_round",
        default="round1",
        reading="Placement is paid by this row of the Tournament VP chart (prerelease 7/5/4/3/2, round1 21/15/12/9/6, "
        "round2 28/20/16/12/8, final 42/30/24/18/12), whatever the number of players.",
        quote=(
            "Award VP for each player based on the Tournament VP chart for your current round (regardless of your "
            "total number of players)."
        ),
        choices=("prerelease", "round1", "round2", "final"),
    ),
    RuleOption(
        key="match_result",
        default="head_to_head",
        reading=(
            "What counts as seat A winning a simulated tournament, for win rates: `head_to_head`, A finishes with "
            "more RP (a better place) than one other seat drawn at random for the tournament, equal RP is a draw, so "
            "a mirror is even at any player count and two players is simply who won; `first_place`, A alone in "
            "first place wins, shared first place is a draw, any other place loses. VP and placement are kept "
            "beside it."
        ),
        quote=(
            "Players place in the tournament according to the number of Ranking Points (RP) they've accumulated. "
            "If two or more players tie, add up and divide between them the VP for all places they would win."
        ),
        choices=("head_to_head", "first_place"),
    ),
    RuleOption(
        key="store_kinds",
        default="boosters",
        reading=(
            "The store deck that clashes reveal from holds `copies` of every core, expansion, premium and master "
            "card of the set (starters are dealt, promos fused, pro cards given out); `all` puts every card in."
        ),
        quote=(
            "Take the Core set, five Expansion Sets, four Premium Sets, and three Master Sets of your choice. "
            "Shuffle all thirteen of these together to form the Store."
        ),
        choices=("boosters", "all"),
    ),
    RuleOption(
        key="metagame",
        default="revealed",
        reading=(
            "`revealed` (default): every tournament is scored with one metagame card of each meta set of the card "
            "set (each meta set is one of the document's two stacks: a set named with 'type' is the Type Meta, one "
            "named with 'element' the Elemental, otherwise the first meta set is the Elemental and the others are "
            "revealed with the Type Meta), and after the accessories every player activates its Score effects for "
            "themselves; the pre-release round (`vp_round=prerelease`) reveals none, as the document says. A "
            "tournament played alone draws each card at random (the top of a freshly shuffled stack). The whole game "
            "(`game=full`) shuffles each stack once at setup and deals from its top: at each deckbuilding setup the "
            "cards revealed last round go out of play and the top Elemental card is revealed before the first timer, "
            "so seats build knowing it; the top Type card is revealed after the first timer, with the six more "
            "cards. No card is revealed twice in a game; a stack with fewer cards than the game's rounds (the "
            "document's six never are) has none left for the last rounds, and reveals nothing then. `none`: no "
            "metagame card is revealed."
        ),
        quote=(
            "4. Setup Metagame. Shuffle the 2 stacks of Metagame Cards separately ... 6. Discard any revealed "
            "Metagame cards out of play. Reveal a new Elemental Metagame Card. 7. Set a Timer for 7 minutes, and "
            "begin! ... After the first 7-minute timer expires, deal each player 6 more cards from the store deck, "
            "then reveal the top card of the Type Meta stack. ... Activate all of the Score effects ... then your "
            "Deck Boxes, then Accessories, then the Metagames. ... Every Player activates the Metagame Score effects "
            "for themselves. ... No Metagame is revealed during this tournament [pre-release]."
        ),
        choices=("revealed", "none"),
    ),
    *SEARCH_OPTIONS,
)
