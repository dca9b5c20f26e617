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
            "first timer, revealed cards out of play at the next setup. Characters are left out, as the document's "
            "first game advises, and with them pro player cards, which come into play only with characters."
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
)
