"""The rule-options ledger of the whole game (`market.py`): deckbuilding rounds, the store and the aftermarket.

Kept apart from `options.py` (the card checks and the tournament engine) and joined to it in the ruleset's
`__init__.py`.
"""

from workbench.rulesets.base import RuleOption

MARKET_OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        key="game",
        default="tournament",
        reading=(
            "`tournament` (default): one tournament phase from fixed decks (A against B). `full`: the whole game "
            "from the card sheet alone, for `players` seats: starter decks, $30 income and six cards a round, the "
            "store (10 cards, bought at the buy cost), the aftermarket (sold and bought at the star rating, three "
            "sell markers or four with three players, no selling in the last of the three timer segments), fusion, "
            "equal-value trades with friendship, one collection a round, three rounds each ended by a tournament of "
            "the engine, prize support, and the final score (tournament + collections + money at 4:1 + "
            "friendship, ties broken by tournament, collections, money and friendship VP in that order). Without "
            "tiers in the sheet, promo cards are split into bronze, silver and gold piles by star rating (lowest "
            "third bronze); a rarity naming a tier wins. The metagame is as the `metagame` option says: each stack "
            "shuffled once, the Elemental card revealed at each deckbuilding setup and the Type card after the "
            "first timer, revealed cards out of play at the next setup. Characters are left out by default, as the "
            "document's first game advises (option `characters`), and with them pro player cards (`pro_cards`). Not "
            "simulated at all: trades of card for card (a trade is a card for its star rating in dollars, option "
            "`trades`), Blast Off PLUS, and the variants Venues, Draft Mode, Liquidation Mode, Turn-Based Mode, Free "
            "Market Mode and Millennium Accessories (docs/rulesets/blades.md, Full game, Not simulated)."
        ),
        quote=(
            "Millennium Blades is played over a series of rounds. Each round has two parts, a Deckbuilding Phase and "
            "a Tournament Phase. ... Total up these points: Tournament VPs ... Collection VPs ... Remaining Money "
            "VPs, at a rate of 4 Millennium Dollars to 1 VP, rounding down ... Friendship Card VPs"
        ),
        choices=("tournament", "full"),
    ),
    RuleOption(
        key="market_order",
        default="fewest_vp",
        reading=(
            "The deckbuilding phase is real time; the simulation takes it in turns of one action each (buy, sell, "
            "fuse, trade or pass), a timer segment ending when every seat has passed in a row. `fewest_vp`: each "
            "segment's turns start with the seat with the fewest VP so far and go round clockwise (ties: the seat "
            "that opens the round's tournament order first), since that seat has priority for a wanted card. "
            "`clockwise`: from the seat that opened the previous tournament (seat A in round 1)."
        ),
        quote=(
            "The Deckbuilding Phase is a real-time phase. ... If two players both want to buy the same card from the "
            "Store or Aftermarket, give priority to the player with fewer Victory Points."
        ),
        choices=("fewest_vp", "clockwise"),
    ),
    RuleOption(
        key="market_actions",
        default=12,
        minimum=1,
        maximum=200,
        reading=(
            "A seat takes at most this many actions in one timer segment (7, 7 and 6 minutes in the document); it "
            "stands for the time limit, so a policy that never passes still ends the phase."
        ),
        quote="Set a Timer for 7 minutes, and begin! ... Set another 7-minute timer. ... set another 6-minute timer.",
    ),
    RuleOption(
        key="prerelease",
        default=False,
        reading=(
            "Off: three deckbuilding rounds, each ended by a tournament. On: a pre-release tournament of the starter "
            "decks first (pre-release VP chart), then only two deckbuilding rounds (round-1 and final charts)."
        ),
        quote=(
            "If you choose to do a pre-release tournament, skip the third round of deckbuilding and the third "
            "tournament later on in the game, so that there are still only three tournaments in the game."
        ),
    ),
    RuleOption(
        key="friendship_card_vp",
        default=1,
        minimum=0,
        maximum=6,
        reading=(
            "A Friendship card scores this many VP for the player it was given to (the document does not print the "
            "figure; each player has six and may score at most 6 VP from one player's cards, so one each)."
        ),
        quote=(
            "6 Friendship cards of their character ... You may not score more than 6 VP from a single player's "
            "Friendship Cards."
        ),
    ),
    RuleOption(
        key="trades",
        default=True,
        reading=(
            "On: a seat may buy a card from another seat's binder (not its deck or collection) in an equal-value "
            "trade, its star rating in dollars, adding a Friendship card when the card is worth more to it than "
            "that. Off: no trades between players (the market is the store and the aftermarket only)."
        ),
        quote=(
            "any trades made between players must be equal value trades. That is, the total of all Star Ratings and "
            "Millennium Dollars must be equal on both sides of the trade. If you are making a trade that clearly "
            "benefits one side more than the other, you may wish to ask the other side for Friendship"
        ),
    ),
    RuleOption(
        key="two_player_rules",
        default="duel",
        reading=(
            "How a whole game of two players (`players=2`) is played. `duel` (default): Duel Mode, since the main "
            "rules assume 3-5 players. Friendship is not used (no Friendship card goes with a trade, none scores); "
            "each seat turns in up to two collections a round at the end of deckbuilding, one sharing an element "
            "and one sharing a type (each by the normal collection rules, the cards to the box), worth 10 RP per "
            "card added to the RP the seat scored in that round's tournament; six sell markers each; trades stay "
            "equal-value. A tournament is won by the seat with more RP after the collections; equal RP wins it for "
            "neither (as a tied clash: 'neither player wins nor loses'). The game ends as soon as a seat has won two "
            "tournaments; if no seat has after the three rounds, the one with more tournaments won wins, and equal "
            "wins go to the seat with more RP over the tournaments (still equal: the place is shared). The "
            "tournament VP chart, collection VP and money VP are not scored: a seat's result is its tournaments "
            "won. With the pre-release option its tournament is the first of the three. `normal`: the 3-5 player "
            "rules at two seats."
        ),
        quote=(
            "These rules assume a 3-5 player group. For the 2 player rules, check the Variants section ... Duel mode "
            "is a 2 player variant ... The winner is determined by who wins best 2 out of 3 tournaments. ... "
            "Friendship is not used in this mode. Each player may form two collections during the Deckbuilding "
            "Phase: one Elemental collection and one Type collection. Instead of gaining VP from them, these are "
            "converted to RP and are added to your total RP at the end of the Tournament Phase at a rate of 10 RP "
            "per card. Additionally, each player has 6 Sell Markers to use in this mode ... Trading is available to "
            "players, but trades must still be even. The first player to win two tournaments is declared the "
            "winner of the game!"
        ),
        choices=("duel", "normal"),
    ),
    RuleOption(
        key="market_search_clashes",
        default=8,
        minimum=1,
        maximum=256,
        reading=(
            "Not a rule: the whole game's `search` policy's budget, tournaments played for each deck it weighs at a "
            "purchase (shared out among up to four sampled worlds: an opponent deck each, drawn from what the seat "
            "can know). More play stronger and slower; other policies ignore it."
        ),
        quote=(
            "Build Your Deck - Winning Tournaments provides more Victory Points than any other source. ... "
            "Unlike the Store, cards in the Aftermarket are bought and sold face-up, so you know exactly what you're "
            "going to get."
        ),
    ),
    RuleOption(
        key="characters",
        default="none",
        reading=(
            "The whole game's character powers (`game=full`). `none` (default): no powers, as the document allows "
            "for the first game (each seat still has a character in the document, which changes nothing here). "
            "`random`: each seat is dealt a different one of the document's six characters (Deques Applenti, "
            "Cardine Kollekta, Fulton Suitcase, Morrey Caardmaan, The Power Creep, Shur Wen Na) at random from the "
            "game's generator at setup, the document's 'randomly'; `in_order`: seat A `first_character`, seat B "
            "the next and so on (a seat's 'choice', fixed so that a designer can set one against another). The "
            "document prints no power, only what each does, so each power is one effect of a small vocabulary with "
            "a figure set by the option beside it: Fulton 'receives extra money' (`fulton_income` dollars each "
            "deckbuilding phase); Shur 'gets to play extra cards into her tableau' (`shur_tableau` more tableau "
            "slots each tournament); Cardine 'starts the game with ... some rare promo cards' (`cardine_promos`) "
            "and 'can acquire rare cards from card fusion more easily' (`cardine_fusion` fewer cards a fusion); "
            "Morrey can 'buy cards more cheaply and sell them at a higher price' on the aftermarket "
            "(`morrey_buy_discount`, `morrey_sell_bonus` dollars); The Power Creep can 'control the Metagame' "
            "(`power_creep_meta_look`: when a metagame card is revealed it sees that many from the top of the stack "
            "and reveals the one it chooses, the rest staying on top in order). Not simulated (the engine has no "
            "room for them, or the words give no rule): Deques' 'extra deck boxes and accessories', Cardine's "
            "re-scoring, Fulton's peek at store cards and his leftover money boosting clashes and scoring, Morrey's "
            "store-deck tricks in tournaments; a seat dealt Deques plays without a power. As the pre-release says, "
            "'character powers are not used' in its tournament."
        ),
        quote=(
            "Give each player a starter deck ..., a Character Card**, either randomly or of their choice ... ** "
            "Playing without Characters. In your first game, you may choose to leave out character powers. In this "
            "case, players should still pick a character, but ignore their character's Deckbuilding and Tournament "
            "powers. ... For your first game of Millennium Blades, we recommend these sets, and that you play "
            "without Character Powers ... To use characters, just bring in the relevant character cards. Each card "
            "has two sides, a Deckbuilding side and a Tournament side"
        ),
        choices=("none", "random", "in_order"),
    ),
    RuleOption(
        key="first_character",
        default="deques",
        reading=(
            "With `characters=in_order`: seat A's character; seat B gets the next in the document's order (Deques, "
            "Cardine, Fulton, Morrey, Power Creep, Shur) and so on, wrapping round, so that every character can be "
            "seated with any four others. Ignored otherwise."
        ),
        quote="a Character Card, either randomly or of their choice",
        choices=("deques", "cardine", "fulton", "morrey", "power_creep", "shur"),
    ),
    RuleOption(
        key="fulton_income",
        default=5,
        minimum=0,
        maximum=100,
        reading=(
            "With `characters`: Fulton Suitcase receives this many dollars more than the $30 at each deckbuilding "
            "setup (the figure is not printed; 5 is a sixth of the income)."
        ),
        quote="Fulton's abilities primarily shine during the deckbuilding phase, where he receives extra money",
    ),
    RuleOption(
        key="shur_tableau",
        default=1,
        minimum=0,
        maximum=6,
        reading=(
            "With `characters`: Shur Wen Na's tableau has this many slots more than `tableau_slots` in each "
            "tournament after a deckbuilding phase (at most 12), so she plays that many more of her deck's singles "
            "(the figure is not printed)."
        ),
        quote=(
            "She gets to play extra cards into her tableau, meaning that she can build more powerful combo decks "
            "than any other character"
        ),
    ),
    RuleOption(
        key="cardine_promos",
        default=1,
        minimum=0,
        maximum=10,
        reading=(
            "With `characters`: Cardine Kollekta starts the game with this many promo cards in her binder, each a "
            "random card of the gold pile's promos (a fresh copy, as prize support is; the silver or bronze pile when "
            "the gold one is empty), drawn after the opening deal (the figure and the tier are not printed)."
        ),
        quote=(
            "Cardine is a balanced character who starts the game with extra advantages in the form of some rare "
            "promo cards"
        ),
    ),
    RuleOption(
        key="cardine_fusion",
        default=1,
        minimum=0,
        maximum=4,
        reading=(
            "With `characters`: Cardine Kollekta fuses with this many cards fewer than 5, 7 and 9 (bronze, silver, "
            "gold); the once-a-tier and sell-marker rules stay (the figure is not printed)."
        ),
        quote="who can acquire rare cards from card fusion more easily than other players",
    ),
    RuleOption(
        key="morrey_buy_discount",
        default=1,
        minimum=0,
        maximum=10,
        reading=(
            "With `characters`: Morrey Caardmaan pays this many dollars less than the star rating for an "
            "aftermarket card (never below $0); the seller's marker goes back as usual (the figure is not printed)."
        ),
        quote=(
            "Morrey specializes in controlling the Aftermarket during deckbuilding, with the ability to buy cards "
            "more cheaply and sell them at a higher price than the other players."
        ),
    ),
    RuleOption(
        key="morrey_sell_bonus",
        default=1,
        minimum=0,
        maximum=10,
        reading=(
            "With `characters`: Morrey Caardmaan takes this many dollars more than the star rating when he sells a "
            "card to the aftermarket; its buyer still pays the star rating (the figure is not printed)."
        ),
        quote="with the ability to buy cards more cheaply and sell them at a higher price than the other players",
    ),
    RuleOption(
        key="power_creep_meta_look",
        default=2,
        minimum=1,
        maximum=6,
        reading=(
            "With `characters`: when a metagame card is revealed (the Elemental at each deckbuilding setup, the Type "
            "after the first timer), The Power Creep sees this many cards from the top of the stack and reveals the "
            "one it chooses; the others stay on top in their order. 1: no choice (the figure and the manner are not "
            "printed)."
        ),
        quote=(
            "Power Creep has the ability to control the Metagame, manipulating what types and elements will "
            "perform best in upcoming tournaments."
        ),
    ),
    RuleOption(
        key="pro_cards",
        default=False,
        reading=(
            "With `characters` (ignored without: pro player cards come only with characters): each seat's character "
            "has a pro player set of the sheet, the set whose name holds the character's first name if there is one, "
            "else the sheet's other pro sets dealt to the seats at random at setup (a seat left without one has no "
            "pro card). After the tournament of rounds 1 and 2 (not after the game's last tournament), the seat that "
            "placed first (tied: the one drawn to open the next round) gives each seat, itself included, the next "
            "copy of its pro set's cards; if the first round's winner also wins the second, the second-placed seat's "
            "(the best place among the others; tied: drawn at random) is given instead. Off (default): pro sets "
            "stay out of the game, as without characters."
        ),
        quote=(
            "When playing with characters, you can introduce Pro Player Cards. Pro Player cards have their own Type. "
            "During rounds 1 and 2, when a player scores first place in the tournament, give each player (including "
            "himself) a copy of his Pro Player Card. If a player who won the first tournament also wins the second "
            "one, give the 2nd place player's Pro Player card to all players instead."
        ),
    ),
)
