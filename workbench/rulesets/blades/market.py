"""The whole game of Millennium Blades: three deckbuilding rounds, each ended by a tournament, then final scoring.

Pure: numpy and the tournament engine's kernels only. A plain-Python state machine (rule option `game=full`), and
the reference for the compiled timer segment (`market_kernels`, which `market_segments` dispatches to for tables of
greedy and random seats: the segments were most of a whole game's time); each round's tournament is played by the
compiled tournament engine (`engine/`) on the seats' own decks.

Document: Game Setup, Deckbuilding Phase, The Store, The Aftermarket, Your Friends, End of Deckbuilding, Scoring
Collections, Ending the Tournament, Game End. The steps:

1. Setup: each seat gets a starter deck (a random one of the sheet's starter sets), 3 cards from the top of the
   store, sell markers (3, or 4 with three players) and six Friendship cards. The store deck holds `copies` of
   every core, expansion, premium and master card; promo cards form the fusion piles (bronze, silver, gold) and
   the prize support. Before any of it the two metagame stacks are shuffled, once and separately ("Setup
   Metagame").
2. Each round's deckbuilding phase: $30 income, six cards dealt to each seat, the store area filled to 10 cards; the
   metagame cards revealed last round go out of play and the top Elemental Metagame card is revealed; three timer
   segments (the second after six more cards each and the top card of the Type Meta stack revealed; no selling in the
   third). In a segment the seats take turns of one action (`market_order`, `market_actions`): buy a store card at
   its buy cost (replenished from the store, the store discard reshuffled when it runs out), sell a binder card to
   the aftermarket with a sell marker for its star rating, buy an aftermarket card with another seat's marker (or
   none: cards revealed in a tournament's clashes) at its star rating (the marker goes back to its owner), fuse 5/7/9
   cards into a bronze/silver/gold promo (once per tier a round, a marker placed on the pile), trade, or pass.
3. End of deckbuilding: each seat picks its deck (up to 8 singles, 1 deck box, 2 accessories, one copy each) and
   turns in at most one collection (scored by the chart, its cards to the box); the store area and the
   aftermarket go to the store discard.
4. The tournament: the engine plays it with every seat's deck and the round's revealed metagame cards; VP by the
   round's chart. Clash reveals come from the store deck and stay in the aftermarket for the next round. Prize
   support (round 1 bronze, round 2 silver): each seat gets one random promo. Sell markers go back to their owners.
5. Game end: tournament VP + collection VP + money // 4 + friendship VP (at most 6 from one giver); ties broken by
   tournament VP, then collections, money and friendship.

Characters (option `characters`, off by default as the document's first game allows): each seat is dealt one
of the document's six characters, whose powers are a small vocabulary of effects (`POWER_NAMES`) with figures set
by rule options (`CHARACTERS`); with `pro_cards` the tournament winners of rounds 1 and 2 hand out their pro player
cards.

Two players play Duel Mode by default (option `two_player_rules`): no Friendship, six sell markers each, up to two
collections a round (one sharing an element, one a type) scored as 10 RP a card on top of the round's tournament
RP, and the game ends when a seat has won two tournaments; a seat's result is its tournaments won.

Decisions come from a policy (`market_policy.py`); this module only offers and applies legal actions, and keeps
what the table has seen of each seat (`MarketState.shown`) for a policy that never peeks. A seat plays its
tournaments by the engine's policy of its own name (a `search` seat by the engine's search).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any, NamedTuple, Protocol

import numpy as np

from workbench.cards import CardSet, Finding, OptionValue, WorkbenchInputError
from workbench.engines import CompiledCards, IntArray, rng_seed
from workbench.play.assembly import global_trace
from workbench.play.policies import GREEDY, RANDOM, SEARCH
from workbench.rulesets.blades.cards import BladesCard
from workbench.rulesets.blades.engine import layout as engine_layout
from workbench.rulesets.blades.engine import policies as engine_policies
from workbench.rulesets.blades.engine import python_side as engine_python_side
from workbench.rulesets.blades.engine import rules as engine_rules
from workbench.rulesets.blades.engine import search as engine_search
from workbench.rulesets.blades.market_rng import MarketRng
from workbench.rulesets.blades.prices import STORE_SET_KINDS, store_price

MARKET_VERSION = "3"
"""Bumped whenever the whole game's play changes; stamped into every full-game result beside the engine's."""
INCOME = 30
"""Millennium Dollars each seat receives at the start of every deckbuilding phase ("Give each player 30")."""
STARTING_STORE_CARDS = 3
"""Cards from the top of the store each seat gets at setup."""
DEAL = 6
"""Cards dealt to each seat at the start of a deckbuilding phase, and again after the first timer."""
STORE_AREA = 10
"""Face-down cards showing in the store ("so there are 10 cards showing (including the one on top of the Store)")."""
SEGMENTS = 3
"""Timer segments of a deckbuilding phase: 7 minutes, 7 minutes, then the last 6 minutes without selling."""
LAST_CALL = 2
"""The segment from which the aftermarket stops accepting cards for sale ("the final 6-minutes")."""
FUSION_TIERS = ("bronze", "silver", "gold")
FUSION_CARDS = (5, 7, 9)
"""Cards spent on a bronze, silver and gold fusion ("5-Bronze, 7-Silver, or 9-Gold")."""
PRIZE_SUPPORT = {1: 0, 2: 1}
"""Round -> promo tier given as prize support ("Round 1 ... Bronze; Round 2 ... Silver; Final Round None")."""
FRIENDSHIP_CARDS = 6
"""Friendship cards each seat starts with ("6 Friendship cards of their character")."""
FRIENDSHIP_CAP = 6
"""The most VP a seat scores from one other seat's Friendship cards."""
MONEY_PER_VP = 4
"""Remaining money scores 1 VP per 4 dollars, rounding down."""
COLLECTION_VP = (0, 0, 2, 4, 7, 9, 12, 16, 21)
"""Collection Points chart by number of cards (2..8+); 0 and 1 card are not collections."""
DECK_LIMITS = {engine_layout.K_SINGLE: 8, engine_layout.K_DECK_BOX: 1, engine_layout.K_ACCESSORY: 2}
"""A tournament deck: up to eight singles, one deck box, two accessories."""
SEATS = engine_python_side.SEATS
ENGINE_POLICIES = (GREEDY, RANDOM, SEARCH)
"""The tournament engine's policy word for a seat's policy index (`market_policy.MARKET_POLICIES`: greedy, random,
search; `workbench.play.policies`' codes, which are those policies' words): a seat plays its tournaments by the engine's
policy of the same name."""
DUEL_MARKERS = 6
"""Sell markers each seat has in Duel Mode ("each player has 6 Sell Markers to use in this mode")."""
DUEL_RP_PER_CARD = 10
"""Duel Mode collections: RP per card ("converted to RP ... at a rate of 10 RP per card")."""
DUEL_WINS = 2
"""Tournaments a seat must win to end a Duel Mode game ("The first player to win two tournaments")."""
DUEL_KINDS = ("element", "type")
"""The two collections of a Duel Mode round: "one Elemental collection and one Type collection"."""
DUEL_KIND_NAMES = ("an Elemental", "a Type")
"""The two collections as the trace names them."""
META_ELEMENTAL, META_TYPE = range(2)
"""When a metagame stack's card is revealed: at the deckbuilding setup, before the first timer ("Discard any
revealed Metagame cards out of play. Reveal a new Elemental Metagame Card. Set a Timer for 7 minutes"), or after
the first timer ("deal each player 6 more cards from the store deck, then reveal the top card of the Type Meta
stack")."""
META_NAMES = ("Elemental", "Type")
"""The stacks as the document names them, by META_ELEMENTAL / META_TYPE."""
(POWER_INCOME, POWER_TABLEAU, POWER_PROMOS, POWER_FUSION, POWER_BUY_DISCOUNT, POWER_SELL_BONUS, POWER_META_LOOK) = (
    range(7)
)
"""The vocabulary of character powers: dollars more at each deckbuilding setup; tableau slots more in each
tournament after deckbuilding; promo cards at setup; cards fewer a fusion; dollars less for an aftermarket card;
dollars more for a card sold to the aftermarket; metagame cards seen from the top of a stack, one chosen."""
POWER_NAMES = (
    "income",
    "tableau slots",
    "starting promos",
    "fusion cards fewer",
    "aftermarket discount",
    "sell bonus",
    "metagame look",
)
"""The powers as the trace and the summary name them, by POWER_*."""


@dataclass(frozen=True)
class Character:
    """One of the document's six characters: its powers as (POWER_*, the rule option holding the figure), and the
    powers the document gives it that are not simulated."""

    name: str
    """The character's name as the document prints it."""
    short: str
    """The name the document calls it by ("Shur", "Power Creep"): a pro set whose name holds it is its pro set."""
    powers: tuple[tuple[int, str], ...]
    """(power, option key) pairs; the figure is the option's value."""
    left_out: str
    """What of the document's description is not simulated ('' for nothing)."""


CHARACTERS = (
    Character(
        "Deques Applenti",
        "Deques",
        (),
        "'He can include extra deck boxes and accessories in his tournament kit' (the tournament engine holds one "
        "deck box and two accessories a seat)",
    ),
    Character(
        "Cardine Kollekta",
        "Cardine",
        ((POWER_PROMOS, "cardine_promos"), (POWER_FUSION, "cardine_fusion")),
        "'During tournaments, she can re-score some of her cards'",
    ),
    Character(
        "Fulton Suitcase",
        "Fulton",
        ((POWER_INCOME, "fulton_income"),),
        "'able to peek at store cards before buying them' and 'he can use leftover money to boost the value of his "
        "cards, giving him an edge in clashes and during scoring'",
    ),
    Character(
        "Morrey Caardmaan",
        "Morrey",
        ((POWER_BUY_DISCOUNT, "morrey_buy_discount"), (POWER_SELL_BONUS, "morrey_sell_bonus")),
        "'During tournaments, Morrey can use cards from the store deck to boost his own deck, and can manipulate the "
        "store deck'",
    ),
    Character("The Power Creep", "Power Creep", ((POWER_META_LOOK, "power_creep_meta_look"),), ""),
    Character("Shur Wen Na", "Shur", ((POWER_TABLEAU, "shur_tableau"),), ""),
)
"""The document's six characters in the order of its Character Intros; option `characters` deals them."""


@dataclass
class MarketCards:
    """A card set compiled for the whole game: the tournament engine's tables plus what the market reads."""

    compiled: CompiledCards
    """The tournament engine's card table, effect table and options."""
    cards: tuple[BladesCard, ...]
    """The validated cards, by card id."""
    stars: IntArray
    """Star rating by card id: the aftermarket price."""
    price: IntArray
    """Store price by card id: the buy cost, else the star rating."""
    kind: IntArray
    """Card kind by card id (engine codes: single, deck box, accessory)."""
    symbols: tuple[frozenset[tuple[str, str]], ...]
    """Each card's (element|type, name) symbols: what collections match on."""
    set_of: IntArray
    """Set index by card id (index into `set_names`)."""
    set_names: tuple[str, ...]
    """Set names by set index."""
    store_cards: tuple[int, ...]
    """The store deck at setup: one card id per physical copy of every core, expansion, premium and master card."""
    starters: tuple[tuple[int, ...], ...]
    """The card ids of each starter set."""
    promo_piles: tuple[tuple[int, ...], ...]
    """Promo card ids of the bronze, silver and gold piles."""
    collection_symbol: str
    """The ruleset's `collection_symbol` reading: `common` or `pairwise`."""
    collection_max: int
    """The most cards a collection holds (option `collection_max_cards`)."""
    options: dict[str, OptionValue]
    """Every resolved rule option."""
    meta_stacks: tuple[tuple[int, ...], ...] = ()
    """The metagame stacks (one per meta set, the tournament engine's stack order), card ids in sheet order; empty
    with `metagame=none`."""
    meta_timing: tuple[int, ...] = ()
    """When each stack's card is revealed: META_ELEMENTAL or META_TYPE (`metagame_timing`)."""
    characters: str = "none"
    """How characters are dealt (option `characters`): none, random or in_order."""
    powers: tuple[tuple[int, ...], ...] = ()
    """Per character of CHARACTERS, the figure of each POWER_* (0: the character lacks it)."""
    pro_sets: tuple[tuple[int, ...], ...] = ()
    """With `pro_cards` and characters: each pro player set of the sheet as its cards' copies, card ids in sheet
    order (one copy given to each seat in turn); empty otherwise."""
    findings: tuple[Finding, ...] = ()
    """What the compilation says about the set (effects left out, store cards without a buy cost)."""
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """What policies derive from the cards alone and keep (greedy's `Valuation`); a copy made with another store
    (`dataclasses.replace`) shares it, since nothing in it reads the store."""


def _promo_tier(card: BladesCard, rank: int, count: int) -> int:
    """A rarity naming a tier wins; otherwise the card's place in the promo cards sorted by stars (thirds)."""
    rarity = card.rarity.casefold()
    for tier, name in enumerate(FUSION_TIERS):
        if name in rarity:
            return tier
    return min(2, rank * 3 // max(count, 1))


def metagame_timing(names: Sequence[str]) -> tuple[int, ...]:
    """Which of the document's two stacks each meta set is, from its set name: a name with "type" in it is the Type
    Meta stack, one with "element" the Elemental; a name with neither is the Elemental stack when it is the first
    meta set, else a Type stack (the document has two stacks, so the later ones are revealed with the Type Meta)."""
    timing = []
    for m, name in enumerate(names):
        key = name.casefold()
        if "type" in key:
            timing.append(META_TYPE)
        elif "element" in key:
            timing.append(META_ELEMENTAL)
        else:
            timing.append(META_ELEMENTAL if m == 0 else META_TYPE)
    return tuple(timing)


def compile_market(cardset: CardSet, options: Mapping[str, OptionValue]) -> MarketCards:
    """The card set as the whole game reads it (raises when the set cannot make a game: no store, no starter)."""
    compiled = engine_python_side.compile_cards(cardset, options)
    cards: tuple[BladesCard, ...] = tuple(entry.card for entry in cardset)  # type: ignore[misc]
    set_names: list[str] = []
    set_index: dict[str, int] = {}
    set_of = np.zeros(len(cards), dtype=np.int64)
    for i, card in enumerate(cards):
        key = " ".join(card.set.casefold().split())
        if key not in set_index:
            set_index[key] = len(set_names)
            set_names.append(card.set)
        set_of[i] = set_index[key]
    store_cards = tuple(
        i for i, card in enumerate(cards) if card.set_kind in STORE_SET_KINDS for _ in range(card.copies)
    )
    starter_sets: dict[int, list[int]] = {}
    for i, card in enumerate(cards):
        if card.set_kind == "starter":
            starter_sets.setdefault(int(set_of[i]), []).append(i)
    if not store_cards:
        raise WorkbenchInputError(
            "the whole game needs a store: the set has no core, expansion, premium or master cards.",
            expected="booster cards (set_kind core, expansion, premium or master)",
        )
    if not starter_sets:
        raise WorkbenchInputError(
            "the whole game gives each player a starter deck, but the set has no starter cards.",
            expected="a set of set_kind starter",
        )
    promos = sorted((i for i, card in enumerate(cards) if card.set_kind == "promo"), key=lambda i: (cards[i].stars, i))
    piles: list[list[int]] = [[], [], []]
    for rank, i in enumerate(promos):
        piles[_promo_tier(cards[i], rank, len(promos))].append(i)
    findings = list(compiled.findings)
    unpriced = sorted({card.set for card in cards if card.set_kind in STORE_SET_KINDS and card.buy_cost is None})
    for name in unpriced:
        findings.append(
            Finding(
                severity="info",
                rule="blades.market_prices",
                message=f"set '{name}' has no buy cost, so the whole game sells its cards in the store at their star "
                "rating.",
                sheet=cardset.sheet,
                expected="a buy_cost for every store card",
                actual=name,
            )
        )
    players = int(options["players"])
    first_round = players * (STARTING_STORE_CARDS + 2 * DEAL) + STORE_AREA
    if len(store_cards) < first_round:
        findings.append(
            Finding(
                severity="info",
                rule="blades.market_store_size",
                message=f"the store holds {len(store_cards)} cards, but the first round of a {players}-player game "
                f"deals {first_round} (3 + 6 + 6 a player and 10 in the store area): later deals come up short once "
                "the store and its discard are empty.",
                sheet=cardset.sheet,
                expected=f"at least {first_round} store cards",
                actual=len(store_cards),
            )
        )
    characters = str(options.get("characters", "none"))
    powers = tuple(
        tuple(next((int(options[key]) for kind, key in c.powers if kind == k), 0) for k in range(len(POWER_NAMES)))
        for c in CHARACTERS
    )
    pro_sets: tuple[tuple[int, ...], ...] = ()
    if characters != "none":
        left_out = "; ".join(f"{c.name}: {c.left_out}" for c in CHARACTERS if c.left_out)
        findings.append(
            Finding(
                severity="info",
                rule="blades.market_characters",
                message=f"character powers the whole game does not simulate (played without): {left_out}.",
                sheet=cardset.sheet,
                expected="powers of the vocabulary: " + ", ".join(POWER_NAMES),
                actual=left_out,
            )
        )
        if bool(options.get("pro_cards", False)):
            by_set: dict[int, list[int]] = {}
            for i, card in enumerate(cards):
                if card.set_kind == "pro":
                    by_set.setdefault(int(set_of[i]), []).extend([i] * card.copies)
            pro_sets = tuple(tuple(by_set[k]) for k in sorted(by_set))
            if not pro_sets:
                findings.append(
                    Finding(
                        severity="info",
                        rule="blades.market_pro_cards",
                        message="option pro_cards is on, but the set has no pro player set: no pro card is given.",
                        sheet=cardset.sheet,
                        expected="a set of set_kind pro",
                        actual=0,
                    )
                )
    meta = compiled.extra["meta"]
    meta_stacks: tuple[tuple[int, ...], ...] = ()
    if str(options["metagame"]) == "revealed":
        # Row m is the engine's stack m (every row holds at least one card), so `MarketState.metagame[m]` is the
        # engine's G_META + m.
        meta_stacks = tuple(tuple(int(c) for c in row[1 : 1 + int(row[0])]) for row in meta)
    return MarketCards(
        compiled=compiled,
        cards=cards,
        stars=np.array([card.stars for card in cards], dtype=np.int64),
        price=np.array([store_price(card) for card in cards], dtype=np.int64),
        kind=compiled.table[:, engine_layout.T_KIND].copy(),
        symbols=tuple(card.symbols for card in cards),
        set_of=set_of,
        set_names=tuple(set_names),
        store_cards=store_cards,
        starters=tuple(tuple(ids) for ids in starter_sets.values()),
        promo_piles=tuple(tuple(pile) for pile in piles),
        collection_symbol=str(options["collection_symbol"]),
        collection_max=int(options["collection_max_cards"]),
        options=dict(options),
        meta_stacks=meta_stacks,
        meta_timing=metagame_timing([cards[stack[0]].set for stack in meta_stacks]),
        characters=characters,
        powers=powers,
        pro_sets=pro_sets,
        findings=tuple(findings),
    )


# ---- state ----------------------------------------------------------------------------------------------------------


@dataclass
class Seat:
    """One player's possessions and score sheet."""

    money: int = 0
    """Millennium Dollars in hand."""
    binder: list[int] = field(default_factory=list)
    """Every card the seat owns (the deck is picked from these at the end of deckbuilding)."""
    markers: int = 0
    """Sell markers in hand (the others sit on aftermarket cards or fusion piles)."""
    friendship_left: int = FRIENDSHIP_CARDS
    """Friendship cards the seat can still give away."""
    friendship_from: list[int] = field(default_factory=list)
    """Friendship cards received, per giving seat."""
    fused: set[int] = field(default_factory=set)
    """Fusion tiers used this round ("not more than one Card Fusion of each type per round")."""
    deck: list[int] = field(default_factory=list)
    """The deck played in the last tournament."""
    tournament_vp: list[int] = field(default_factory=list)
    """Tournament VP per tournament played."""
    collection_vp: list[int] = field(default_factory=list)
    """Collection VP per deckbuilding round."""
    collections: list[list[int]] = field(default_factory=list)
    """The collection turned in each round (card ids; empty for none; in Duel Mode both collections' cards)."""
    collection_rp: list[int] = field(default_factory=list)
    """Duel Mode: RP from the collections of each deckbuilding round (10 a card); 0 under the normal rules."""
    tournament_rp: list[int] = field(default_factory=list)
    """RP per tournament played: the engine's, plus the round's collection RP in Duel Mode."""
    places: list[int] = field(default_factory=list)
    """Tournament place per tournament (1 = first; tied seats share the best place)."""
    policy: int = 0
    """The seat's policy index (0 greedy, 1 random, 2 search): market and tournament alike."""
    starter: list[int] = field(default_factory=list)
    """The seat's starter deck (the pre-release tournament's deck)."""
    character: int = -1
    """The seat's character, an index of CHARACTERS (-1: none, option `characters=none`)."""
    pro_set: int = -1
    """The seat's pro player set, an index of `MarketCards.pro_sets` (-1: none)."""


@dataclass
class Listing:
    """One card on sale in the aftermarket."""

    card: int
    """The card id."""
    owner: int
    """The seat whose sell marker is on it; -1 for a card revealed by a tournament clash (no marker)."""


class RoundEnd(NamedTuple):
    """A seat's deck and collections at the end of a round's last timer segment (`MarketState.round_end`)."""

    binder: list[int]
    """The binder they were worked out from."""
    metagame: list[int]
    """The metagame stacks' revealed cards then (`MarketState.metagame`)."""
    deck: list[int]
    """The deck (`market_policy.Appraisal.deck`)."""
    collections: tuple[list[int], list[int]]
    """The collection and nothing; in Duel Mode the Elemental and the Type collection (`Appraisal.collection`)."""


@dataclass
class MarketState:
    """The whole game's state between actions."""

    cards: MarketCards
    """The compiled card set."""
    seats: list[Seat]
    """The players, in clockwise order (seat A first)."""
    rng: MarketRng
    """The game's only source of randomness (market draws, tournament seeds, policy choices)."""
    store_deck: list[int] = field(default_factory=list)
    """Undrawn store cards (drawn uniformly at random: a shuffled deck)."""
    store_area: list[int] = field(default_factory=list)
    """The face-down store cards on offer (at most 10)."""
    store_discard: list[int] = field(default_factory=list)
    """The store discard, reshuffled into the store when it runs out."""
    aftermarket: list[Listing] = field(default_factory=list)
    """Cards on sale in the aftermarket."""
    fusion_piles: list[list[int]] = field(default_factory=list)
    """Promo cards left in the bronze, silver and gold fusion piles."""
    round: int = 0
    """Deckbuilding round, 1-based (0 before the first)."""
    segment: int = 0
    """Timer segment of the deckbuilding phase, 0-2; selling stops at LAST_CALL."""
    first: int = 0
    """The seat that opened the last tournament (or seat A before any)."""
    bought: Any = None
    """Copies bought from the store, by card id (game-health: share of cards never bought)."""
    bought_by_seat: Any = None
    """Copies bought from the store, seat by card id (the whole-game power curve's bought share)."""
    log: list[str] | None = None
    """Trace lines, when tracing."""
    short: int = 0
    """Cards a deal could not give because the store and its discard were empty (game health)."""
    version: int = 0
    """Bumped whenever a binder changes, so a policy may cache what it derives from the binders."""
    duel: bool = False
    """Duel Mode (two players, option `two_player_rules=duel`): set at setup."""
    meta_stacks: list[list[int]] = field(default_factory=list)
    """Per metagame stack, its undrawn cards, top first (shuffled once at setup: "Shuffle the 2 stacks of Metagame
    Cards separately")."""
    metagame: list[int] = field(default_factory=list)
    """Per metagame stack, its revealed card (-1: none revealed)."""
    meta_out: list[int] = field(default_factory=list)
    """Metagame cards discarded out of play, in the order they went ("Discard any revealed Metagame cards out of
    play")."""
    pro_left: list[list[int]] = field(default_factory=list)
    """Per pro player set, the copies not yet given (`pro_cards`)."""
    tournament_winners: list[int] = field(default_factory=list)
    """The seat that placed first in each tournament after a deckbuilding phase (tied: the next round's opener)."""
    shown: list[list[int]] = field(default_factory=list)
    """Per seat, the cards the whole table has seen it take face-up and not seen leave (its starter deck, aftermarket
    buys, trades); what a policy that never peeks may know of another seat's binder, besides how many cards it
    holds. Store buys, deals, promos and prize support are seen only by their owner."""
    round_end: dict[int, RoundEnd] = field(default_factory=dict)
    """Per seat, its deck and collections for the end of deckbuilding as the compiled segments worked them out after
    a round's last timer segment (`market_segments`), with the binder and metagame they hold for: greedy's
    appraisal's, or random's drawn from the game's generator (in seat order, as the end of deckbuilding would draw
    them). `market_policy.GreedyMarket` and `RandomMarket` turn them in while both are unchanged, rather than
    appraising the binder again or drawing again."""

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.seats)

    def say(self, line: str) -> None:
        """Append a trace line (a no-op unless tracing)."""
        if self.log is not None:
            self.log.append(line)

    def name(self, card: int) -> str:
        """A card's name and stars, for the trace."""
        return f"{self.cards.cards[card].name} ({int(self.cards.stars[card])}*)"

    def vp_so_far(self, p: int) -> int:
        """A seat's tournament and collection VP so far (the priority order reads it)."""
        return sum(self.seats[p].tournament_vp) + sum(self.seats[p].collection_vp)


def power(state: MarketState, p: int, kind: int) -> int:
    """The figure of seat p's character power `kind` (POWER_*), 0 without a character or without that power."""
    character = state.seats[p].character
    return state.cards.powers[character][kind] if character >= 0 else 0


def seat_name(state: MarketState, p: int) -> str:
    """The seat's letter, with its character when it has one (the trace's name for it)."""
    character = state.seats[p].character
    return SEATS[p] if character < 0 else f"{SEATS[p]} ({CHARACTERS[character].name})"


def buy_discount(state: MarketState, p: int) -> int:
    """Morrey's discount on every aftermarket card seat p buys (0 without it): a policy pricing a whole aftermarket
    reads it once, not once a listing."""
    return power(state, p, POWER_BUY_DISCOUNT)


def discounted(stars: int, discount: int) -> int:
    """An aftermarket card's price: its star rating less the buyer's `buy_discount`, never below 0."""
    return max(0, stars - discount)


def aftermarket_price(state: MarketState, p: int, card: int) -> int:
    """What seat p pays for `card` in the aftermarket: its star rating, less Morrey's discount (never below 0)."""
    return discounted(int(state.cards.stars[card]), buy_discount(state, p))


def sell_price(state: MarketState, p: int, card: int) -> int:
    """What seat p takes for selling `card` to the aftermarket: its star rating, plus Morrey's bonus."""
    return int(state.cards.stars[card]) + power(state, p, POWER_SELL_BONUS)


def fusion_cards(state: MarketState, p: int, tier: int) -> int:
    """Cards seat p spends on a fusion of `tier`: 5, 7 or 9, less Cardine's figure (at least 1)."""
    return max(1, FUSION_CARDS[tier] - power(state, p, POWER_FUSION))


def unshow(state: MarketState, p: int, card: int) -> None:
    """The table sees `card` leave seat p (sold, fused, traded away, turned in): one shown copy is forgotten."""
    if card in state.shown[p]:
        state.shown[p].remove(card)


# ---- the store ------------------------------------------------------------------------------------------------------


def draw_store(state: MarketState) -> int:
    """The top card of the store, or -1 when the store and its discard are both empty ("If the Store runs out of
    cards, shuffle the store discard together to form a new deck")."""
    if not state.store_deck:
        if not state.store_discard:
            return -1
        state.say(f"  the store is empty: the store discard ({len(state.store_discard)} cards) is shuffled into it")
        state.store_deck, state.store_discard = state.store_discard, []
    j = state.rng.below(len(state.store_deck))
    card = state.store_deck[j]
    state.store_deck[j] = state.store_deck[-1]
    state.store_deck.pop()
    return card


def deal(state: MarketState, count: int) -> None:
    """Deal `count` cards to each seat from the top of the store without payment, one card at a time round the
    table from the seat that opened the last tournament (so when the store and its discard run dry, the shortfall
    falls on no seat in particular)."""
    state.version += 1
    n = state.players
    got: list[list[int]] = [[] for _ in range(n)]
    for _ in range(count):
        for k in range(n):
            p = (state.first + k) % n
            card = draw_store(state)
            if card < 0:
                state.short += 1
            else:
                got[p].append(card)
                state.seats[p].binder.append(card)
    if state.log is not None:
        for p in range(n):
            names = ", ".join(state.name(c) for c in got[p])
            state.say(f"  {SEATS[p]} is dealt {names or 'nothing (the store is empty)'}")


def fill_store_area(state: MarketState) -> None:
    """Deal store cards face-down until 10 are showing (or the store and its discard are empty)."""
    while len(state.store_area) < STORE_AREA:
        card = draw_store(state)
        if card < 0:
            return
        state.store_area.append(card)


# ---- the metagame ---------------------------------------------------------------------------------------------------


def shuffle_metagame(state: MarketState) -> None:
    """ "4. Setup Metagame. Shuffle the 2 stacks of Metagame Cards separately, then place them into their slots on
    the Aftermarket Board": each stack once a game, from the game's generator; nothing revealed yet."""
    state.meta_stacks = [[stack[i] for i in state.rng.permutation(len(stack))] for stack in state.cards.meta_stacks]
    state.metagame = [-1] * len(state.meta_stacks)


def discard_metagame(state: MarketState) -> None:
    """ "Discard any revealed Metagame cards out of play": they never come back."""
    out = [c for c in state.metagame if c >= 0]
    if out:
        names = ", ".join(state.cards.cards[c].name for c in out)
        state.say(f"  the revealed metagame cards go out of play: {names}")
    state.meta_out.extend(out)
    state.metagame = [-1] * len(state.meta_stacks)


def reveal_metagame(state: MarketState, timing: int, policies: Sequence[MarketPolicy] = ()) -> None:
    """Reveal the top card of every stack revealed at `timing` (META_ELEMENTAL: "Reveal a new Elemental Metagame
    Card"; META_TYPE: "reveal the top card of the Type Meta stack"). An empty stack reveals nothing: revealed cards
    go out of play, so a stack of fewer cards than the game's rounds runs out (the document's six never do). A seat
    with The Power Creep's power (`power_creep_meta_look` N > 1) sees the top N cards and its policy picks the one
    revealed; the others stay on top in order."""
    looker = next((p for p in range(state.players) if power(state, p, POWER_META_LOOK) > 1), -1)
    for m, stack in enumerate(state.meta_stacks):
        if state.cards.meta_timing[m] != timing:
            continue
        name = META_NAMES[timing]
        if not stack:
            state.say(f"  the {name} Meta stack ({state.cards.cards[state.cards.meta_stacks[m][0]].set}) is empty")
            continue
        pick = 0
        if looker >= 0 and policies and len(stack) > 1:
            seen = stack[: power(state, looker, POWER_META_LOOK)]
            pick = policies[looker].pick_metagame(state, looker, m, seen)
            if not 0 <= pick < len(seen):
                raise ValueError(f"seat {SEATS[looker]}'s policy picked metagame card {pick} of {len(seen)}")
            state.say(
                f"  {seat_name(state, looker)} sees {', '.join(state.cards.cards[c].name for c in seen)} and "
                f"reveals {state.cards.cards[seen[pick]].name}"
            )
        state.metagame[m] = stack.pop(pick)
        state.say(f"  the {name} metagame card is revealed: {state.cards.cards[state.metagame[m]].name}")


def revealed_metagame(state: MarketState) -> tuple[int, ...]:
    """The metagame cards revealed now, in stack order: what every seat knows while it builds its deck."""
    return tuple(c for c in state.metagame if c >= 0)


# ---- actions --------------------------------------------------------------------------------------------------------

BUY_STORE, BUY_AFTERMARKET, SELL, FUSE, TRADE, PASS = range(6)
ACTION_NAMES = ("buy_store", "buy_aftermarket", "sell", "fuse", "trade", "pass")


@dataclass(frozen=True)
class Action:
    """One deckbuilding action. `index` is the store or aftermarket position; `cards` the sold, fused or traded
    card ids; `other` the trading partner; `friendship` whether a Friendship card goes with a trade."""

    kind: int
    """BUY_STORE, BUY_AFTERMARKET, SELL, FUSE, TRADE or PASS."""
    index: int = -1
    """Store-area or aftermarket position (buys), fusion tier (fuse)."""
    cards: tuple[int, ...] = ()
    """Card ids: the card sold or traded for, or the cards fused."""
    other: int = -1
    """The other seat of a trade."""
    friendship: bool = False
    """A Friendship card is given with the trade."""


def can_sell(state: MarketState, p: int) -> bool:
    """A sell marker in hand and the aftermarket still accepting cards ("stops accepting cards for sale in the
    final 6-minutes")."""
    return state.segment < LAST_CALL and state.seats[p].markers > 0


def open_fusions(state: MarketState, p: int) -> list[tuple[int, int]]:
    """(tier, cards spent: `fusion_cards`) of each fusion seat p may make now, the lowest tier first: a sell marker,
    no fusion of the tier yet this round, a card in its pile and enough binder cards. Policies that weigh every tier
    at every turn ask this once, not `can_fuse` a tier (Cardine's figure read once)."""
    seat = state.seats[p]
    if seat.markers <= 0:
        return []
    cut, held, piles = power(state, p, POWER_FUSION), len(seat.binder), state.fusion_piles
    found = []
    for tier, spent in enumerate(FUSION_CARDS):
        need = max(1, spent - cut)
        if tier not in seat.fused and piles[tier] and held >= need:
            found.append((tier, need))
    return found


def can_fuse(state: MarketState, p: int, tier: int) -> bool:
    """Whether seat p may make a fusion of `tier` now (`open_fusions`)."""
    return any(open_tier == tier for open_tier, _ in open_fusions(state, p))


def legal(state: MarketState, p: int, action: Action) -> bool:
    """Whether seat p may take `action` now (the document's conditions, nothing more)."""
    seat = state.seats[p]
    if action.kind == PASS:
        return True
    if action.kind == BUY_STORE:
        return (
            0 <= action.index < len(state.store_area)
            and seat.money >= state.cards.price[state.store_area[action.index]]
        )
    if action.kind == BUY_AFTERMARKET:
        if not 0 <= action.index < len(state.aftermarket):
            return False
        listing = state.aftermarket[action.index]
        # "Choose a card from the Aftermarket with another player's Sell Marker on it"; a clash card has none.
        return listing.owner != p and seat.money >= aftermarket_price(state, p, listing.card)
    if action.kind == SELL:
        return can_sell(state, p) and len(action.cards) == 1 and action.cards[0] in seat.binder
    if action.kind == FUSE:
        if not 0 <= action.index < len(FUSION_TIERS) or not can_fuse(state, p, action.index):
            return False
        if len(action.cards) != fusion_cards(state, p, action.index):
            return False
        pool = list(seat.binder)
        for card in action.cards:
            if card not in pool:
                return False
            pool.remove(card)
        return True
    if action.kind == TRADE:
        if not bool(state.cards.options["trades"]) or not 0 <= action.other < state.players or action.other == p:
            return False
        if len(action.cards) != 1 or action.cards[0] not in state.seats[action.other].binder:
            return False
        # Duel Mode: "Friendship is not used in this mode."
        if action.friendship and (state.duel or seat.friendship_left <= 0):
            return False
        # An equal-value trade: the card's star rating against as many dollars.
        return seat.money >= state.cards.stars[action.cards[0]]
    return False


def apply(state: MarketState, p: int, action: Action) -> None:
    """Carry out a legal action (an illegal one is a bug in the policy: it raises)."""
    if not legal(state, p, action):
        raise ValueError(f"illegal action for seat {SEATS[p]}: {action}")
    seat = state.seats[p]
    cards = state.cards
    who = SEATS[p]
    # The trace's lines are formatted only when tracing: card names for every action cost more than the action.
    traced = state.log is not None
    state.version += 1
    if action.kind == BUY_STORE:
        card = state.store_area.pop(action.index)
        price = int(cards.price[card])
        seat.money -= price
        seat.binder.append(card)
        state.bought[card] += 1
        state.bought_by_seat[p, card] += 1
        if traced:
            state.say(f"  {who} buys a {price}-cost {cards.set_names[cards.set_of[card]]} card: {state.name(card)}")
        fill_store_area(state)
    elif action.kind == BUY_AFTERMARKET:
        listing = state.aftermarket.pop(action.index)
        price = aftermarket_price(state, p, listing.card)
        seat.money -= price
        seat.binder.append(listing.card)
        state.shown[p].append(listing.card)
        if listing.owner >= 0:
            state.seats[listing.owner].markers += 1
        if traced:
            state.say(f"  {who} buys {state.name(listing.card)} from the aftermarket for ${price}")
    elif action.kind == SELL:
        card = action.cards[0]
        seat.binder.remove(card)
        unshow(state, p, card)
        seat.markers -= 1
        seat.money += sell_price(state, p, card)
        state.aftermarket.append(Listing(card, p))
        if traced:
            state.say(f"  {who} sells {state.name(card)} to the aftermarket for ${sell_price(state, p, card)}")
    elif action.kind == FUSE:
        for card in action.cards:
            seat.binder.remove(card)
            unshow(state, p, card)
        seat.markers -= 1
        seat.fused.add(action.index)
        pile = state.fusion_piles[action.index]
        promo = pile.pop(state.rng.below(len(pile)))
        seat.binder.append(promo)
        if traced:
            state.say(
                f"  {who} fuses {len(action.cards)} cards ({', '.join(state.name(c) for c in action.cards)}) into "
                f"the {FUSION_TIERS[action.index]} promo {state.name(promo)}"
            )
    elif action.kind == TRADE:
        card = action.cards[0]
        other = state.seats[action.other]
        price = int(cards.stars[card])
        other.binder.remove(card)
        unshow(state, action.other, card)
        seat.binder.append(card)
        state.shown[p].append(card)
        seat.money -= price
        other.money += price
        if action.friendship:
            seat.friendship_left -= 1
            other.friendship_from[p] += 1
        if traced:
            state.say(
                f"  {who} trades ${price} for {SEATS[action.other]}'s {state.name(card)}"
                + (" and gives a Friendship card" if action.friendship else "")
            )


class MarketPolicy(Protocol):
    """What a market policy decides; the rules stay in this module."""

    def act(self, state: MarketState, p: int) -> Action:
        """The seat's next deckbuilding action (PASS to stop for this segment)."""
        ...

    def accepts_trade(self, state: MarketState, p: int, card: int) -> bool:
        """Whether seat p gives up `card` from its binder for its star rating in dollars."""
        ...

    def deck(self, state: MarketState, p: int) -> list[int]:
        """The tournament deck, from the seat's binder."""
        ...

    def collection(self, state: MarketState, p: int, deck: Sequence[int]) -> list[int]:
        """The collection turned in this round, from binder cards outside `deck` (empty for none)."""
        ...

    def duel_collections(self, state: MarketState, p: int, deck: Sequence[int]) -> tuple[list[int], list[int]]:
        """Duel Mode: the Elemental and the Type collection turned in this round (disjoint, outside `deck`; either
        may be empty)."""
        ...

    def pick_metagame(self, state: MarketState, p: int, stack: int, seen: Sequence[int]) -> int:
        """The Power Creep's power: which of the `seen` top cards of metagame stack `stack` is revealed (an index)."""
        ...


# ---- decks and collections ------------------------------------------------------------------------------------------


def _card_lists(cards: MarketCards) -> tuple[list[int], list[int]]:
    """The cards' kinds and star ratings as lists (a list's item is read faster than an array's), made once and kept
    with the cards."""
    found: tuple[list[int], list[int]] | None = cards.memo.get("kinds_and_stars")
    if found is None:
        found = cards.memo["kinds_and_stars"] = (cards.kind.tolist(), cards.stars.tolist())
    return found


def deck_problem(cards: MarketCards, deck: Sequence[int]) -> str:
    """Why `deck` is not a legal tournament deck, or '' when it is (one copy of a card; 8 / 1 / 2)."""
    if len(set(deck)) != len(deck):
        return "a card appears twice ('You may only have one copy of any card in your deck!')"
    # The kinds read from a list: an array's item read one card at a time cost most of a whole game's turn-in.
    kind_of = _card_lists(cards)[0]
    kinds = [kind_of[c] for c in deck]
    for kind, limit in DECK_LIMITS.items():
        if kinds.count(kind) > limit:
            return f"more than {limit} {engine_layout.KIND_NAMES[kind]}(s)"
    return ""


def legal_part(cards: MarketCards, deck: Sequence[int]) -> list[int]:
    """The cards of `deck` in order, leaving out repeats and any card past its kind's limit."""
    kept: list[int] = []
    # Cards kept so far of each kind, counted as they are kept rather than counted again for every card.
    held = dict.fromkeys(DECK_LIMITS, 0)
    for c in deck:
        kind = int(cards.kind[c])
        if c not in kept and held[kind] < DECK_LIMITS[kind]:
            kept.append(c)
            held[kind] += 1
    return kept


def collection_problem(cards: MarketCards, collection: Sequence[int], category: str = "") -> str:
    """Why `collection` is not a legal collection, or '' when it is: 2-8 cards, each with a different star rating,
    sharing a symbol (one common symbol, or every pair one, per option `collection_symbol`). With `category`
    (`element` or `type`, Duel Mode) only symbols of that category count."""
    if not collection:
        return ""
    if not 2 <= len(collection) <= cards.collection_max:
        return f"a collection is 2-{cards.collection_max} cards"
    stars = _card_lists(cards)[1]
    if len({stars[c] for c in collection}) != len(collection):
        return "two cards share a star rating"
    symbols = [cards.symbols[c] for c in collection]
    what = "symbol"
    if category:
        symbols = [frozenset(s for s in found if s[0] == category) for found in symbols]
        what = category
    if cards.collection_symbol == "common":
        if not frozenset.intersection(*symbols):
            return f"no {what} is shared by every card"
    elif any(not (a & b) for i, a in enumerate(symbols) for b in symbols[i + 1 :]):
        return f"two cards share no {what}"
    return ""


def collection_vp(size: int) -> int:
    """Collection Points: 2 4 7 9 12 16 21 for 2..8+ cards."""
    return COLLECTION_VP[min(size, len(COLLECTION_VP) - 1)]


# ---- the phases -----------------------------------------------------------------------------------------------------


def segment_order(state: MarketState) -> list[int]:
    """The turn order of a timer segment (option `market_order`)."""
    n = state.players
    clockwise = [(state.first + k) % n for k in range(n)]
    if state.cards.options["market_order"] == "clockwise":
        return clockwise
    return sorted(clockwise, key=lambda p: (state.vp_so_far(p), clockwise.index(p)))


def run_segment(state: MarketState, policies: Sequence[MarketPolicy]) -> None:
    """Turns of one action, round the order, until every seat has passed in a row or used its actions."""
    order = segment_order(state)
    limit = int(state.cards.options["market_actions"])
    n = state.players
    used = [0] * n
    passes = 0
    k = 0
    while passes < n:
        p = order[k % n]
        k += 1
        if used[p] >= limit:
            passes += 1
            continue
        action = policies[p].act(state, p)
        if action.kind == TRADE and not policies[action.other].accepts_trade(state, action.other, action.cards[0]):
            # A refused trade moves nothing but takes the asker's time.
            if state.log is not None:
                state.say(f"  {SEATS[action.other]} refuses to trade {state.name(action.cards[0])} to {SEATS[p]}")
            used[p] += 1
            continue
        if action.kind == PASS:
            passes += 1
            used[p] = limit
            continue
        apply(state, p, action)
        used[p] += 1
        passes = 0


SegmentRunner = Callable[[MarketState, Sequence[MarketPolicy]], None]
"""What plays a timer segment (`run_segment`, the reference, or `market_segments.run_segment`, compiled), or a
round's three (`run_segments`, the reference, or `market_segments.run_segments`, compiled)."""


def run_segments(
    state: MarketState, policies: Sequence[MarketPolicy], play_segment: SegmentRunner = run_segment
) -> None:
    """A round's market: its opening (six cards dealt to each seat, the store's face-down cards filled, the
    revealed metagame cards out of play and a new Elemental one revealed), then its three timer segments, each
    played by `play_segment`: six more cards each and the Type metagame card after the first ("the first timer
    ends"), no sales in the last."""
    deal(state, DEAL)
    fill_store_area(state)
    # Setup the Phase, step 6, before "7. Set a Timer for 7 minutes, and begin!"
    discard_metagame(state)
    reveal_metagame(state, META_ELEMENTAL, policies)
    for segment in range(SEGMENTS):
        state.segment = segment
        if segment == 1:
            state.say("  the first timer ends: six more cards each")
            deal(state, DEAL)
            reveal_metagame(state, META_TYPE, policies)
        elif segment == LAST_CALL:
            state.say("  the second timer ends: the aftermarket stops accepting cards for sale")
        play_segment(state, policies)


def deckbuilding(
    state: MarketState, policies: Sequence[MarketPolicy], play_segments: SegmentRunner = run_segments
) -> None:
    """One deckbuilding phase: the seats' income, the round's market (its opening and its three timer segments,
    played by `play_segments`), the end of deckbuilding (decks and collections)."""
    state.say(f"Round {state.round}: deckbuilding")
    for p, seat in enumerate(state.seats):
        seat.money += INCOME + power(state, p, POWER_INCOME)
        seat.fused = set()
        if power(state, p, POWER_INCOME):
            state.say(f"  {seat_name(state, p)} receives ${power(state, p, POWER_INCOME)} more than the ${INCOME}")
    play_segments(state, policies)
    state.say(f"Round {state.round}: end of deckbuilding")
    state.version += 1
    for p, seat in enumerate(state.seats):
        deck = policies[p].deck(state, p)
        problem = deck_problem(state.cards, deck)
        # A deck without a problem holds one copy of a card: it is owned when every card is in the binder.
        if problem or not set(deck).issubset(seat.binder):
            raise ValueError(f"seat {SEATS[p]}'s policy built an illegal deck: {problem or 'cards it does not own'}")
        seat.deck = list(deck)
        if state.duel:
            turn_in_duel_collections(state, p, policies[p].duel_collections(state, p, deck))
            if state.log is not None:
                state.say(f"  {SEATS[p]}'s deck: {', '.join(state.name(c) for c in deck)}; ${seat.money}")
            continue
        chosen = policies[p].collection(state, p, deck)
        problem = collection_problem(state.cards, chosen)
        rest = list(seat.binder)
        for c in deck:
            rest.remove(c)
        for c in chosen:
            if c not in rest:
                problem = problem or "a card of the deck or one it does not own"
            else:
                rest.remove(c)
        if problem:
            raise ValueError(f"seat {SEATS[p]}'s policy built an illegal collection: {problem}")
        for c in chosen:
            seat.binder.remove(c)
            unshow(state, p, c)
        vp = collection_vp(len(chosen)) if chosen else 0
        seat.collections.append(list(chosen))
        seat.collection_vp.append(vp)
        seat.collection_rp.append(0)
        # The trace's lines are formatted only when tracing: the card names cost more than the rest of the turn-in.
        if state.log is not None:
            if chosen:
                state.say(
                    f"  {SEATS[p]} turns in a collection of {len(chosen)} "
                    f"({', '.join(state.name(c) for c in chosen)}): {vp} VP"
                )
            state.say(f"  {SEATS[p]}'s deck: {', '.join(state.name(c) for c in deck)}; ${seat.money}")
    # "Put all cards from the store and the Aftermarket into the Store Discard Pile."
    state.store_discard.extend(state.store_area)
    state.store_discard.extend(listing.card for listing in state.aftermarket)
    state.store_area = []
    state.aftermarket = []


def turn_in_duel_collections(state: MarketState, p: int, chosen: tuple[list[int], list[int]]) -> None:
    """Duel Mode's end of deckbuilding for seat p: up to one Elemental and one Type collection, each by the normal
    collection rules, from binder cards outside the deck, "converted to RP ... at a rate of 10 RP per card"; the
    cards go to the box as in the normal game."""
    seat = state.seats[p]
    rest = list(seat.binder)
    for c in seat.deck:
        rest.remove(c)
    for category, collection in zip(DUEL_KINDS, chosen, strict=True):
        problem = collection_problem(state.cards, collection, category)
        for c in collection:
            if c not in rest:
                problem = problem or "a card of the deck, of the other collection or one it does not own"
            else:
                rest.remove(c)
        if problem:
            raise ValueError(f"seat {SEATS[p]}'s policy built an illegal {category} collection: {problem}")
    cards = [c for collection in chosen for c in collection]
    for c in cards:
        seat.binder.remove(c)
        unshow(state, p, c)
    seat.collections.append(cards)
    seat.collection_vp.append(0)
    seat.collection_rp.append(DUEL_RP_PER_CARD * len(cards))
    for name, collection in zip(DUEL_KIND_NAMES, chosen, strict=True):
        if collection:
            state.say(
                f"  {SEATS[p]} turns in {name} collection of {len(collection)} "
                f"({', '.join(state.name(c) for c in collection)}): {DUEL_RP_PER_CARD * len(collection)} RP"
            )


def play_tournament(state: MarketState, vp_round: int, label: str, after_deckbuilding: bool = True) -> None:
    """The tournament phase, played by the engine with every seat's deck; VP by the chart row `vp_round`. In Duel
    Mode the round's collection RP (none after a pre-release, `after_deckbuilding` False) is added to each seat's
    RP and the seat with more RP wins the tournament (1 in `tournament_vp`; equal RP: neither)."""
    cards = state.cards
    n = state.players
    options = cards.compiled.options.copy()
    options[engine_layout.O_VP_ROUND] = vp_round
    options[engine_layout.O_PLAYERS] = n
    traced = state.log is not None
    # The engine's store layout: undrawn cards first, then (drawn, most recent first) the aftermarket and the
    # store discard; the aftermarket starts empty ("Put all cards from the store and the Aftermarket into the Store
    # Discard Pile"). Sold starter and promo cards reach the store through its discard, so it may outgrow the set's
    # store deck: over the state record's room (the `store_cards` limit) it is refused.
    store = engine_python_side.check_store(np.array(state.store_deck + state.store_discard, dtype=np.int64))
    # The seats' decks end to end (`engine_rules.seat_players`); of a set larger than a batch's cards, only the cards
    # a tournament reads (`seated_deck`), so that the cards it can reach stay few.
    whole_set = engine_python_side.plays_whole_set(cards.compiled)
    decks = np.array([c for seat in state.seats for c in seat.deck], dtype=np.int64)
    deck_ends = np.array(list(accumulate(len(seat.deck) for seat in state.seats)), dtype=np.int64)
    if not whole_set:
        seated = [engine_python_side.seated_deck(cards.compiled.table, d) for d in np.split(decks, deck_ends[:-1])]
        decks = np.concatenate(seated)
        deck_ends = np.array(list(accumulate(deck.shape[0] for deck in seated)), dtype=np.int64)
    metagame = [state.metagame[m] if m < len(state.metagame) else -1 for m in range(engine_layout.MAX_META_STACKS)]
    # The tournament plays on its own cards (the seats' decks, the store, the metagame revealed), by its own ids; a
    # whole set's are the set's own, and need no translating (`game_data`).
    ids, g = engine_python_side.game_data(
        cards.compiled, np.concatenate([decks, store, np.array([c for c in metagame if c >= 0], dtype=np.int64)])
    )

    def local(set_ids: IntArray) -> IntArray:
        return set_ids if whole_set else engine_python_side.local_ids(ids, set_ids)

    # Untraced, the thread's one tournament record, reset (`reused_state`): nothing of it is kept past this call.
    if traced:
        s = engine_python_side.new_state(options, traced, ids.shape[0])
    else:
        s = engine_python_side.reused_state(options, ids.shape[0])
    s.store[: store.shape[0]] = local(store)
    game = s["game"]
    game[engine_layout.G_PLAYERS] = n
    game[engine_layout.G_CURRENT] = state.first
    game[engine_layout.G_FIRST] = state.first
    game[engine_layout.G_STORE_LEFT] = len(state.store_deck)
    game[engine_layout.G_STORE_TOTAL] = store.shape[0]
    game[engine_layout.G_SLOTS] = options[engine_layout.O_SLOTS]
    game[engine_layout.G_RIVAL] = 1
    seed = np.int64(state.rng.seed())
    rng_seed(s["rng"], seed)
    state.say(f"{label}: {SEATS[state.first]} takes the first turn")
    # Shur "gets to play extra cards into her tableau"; the pre-release: "character powers are not used".
    extra_slots = [power(state, p, POWER_TABLEAU) if after_deckbuilding else 0 for p in range(n)]
    engine_rules.seat_players(
        g,
        s,
        local(decks),
        deck_ends,
        np.array([ENGINE_POLICIES[seat.policy] for seat in state.seats], dtype=np.int64),
        seed,
        np.array(extra_slots, dtype=np.int64),
    )
    side = s["side"]
    for p in range(n):
        if extra_slots[p]:
            state.say(f"  {seat_name(state, p)} has {int(side[p, engine_layout.S_SLOTS])} tableau slots")
    # The metagame revealed during this round's deckbuilding (none before the first: "No Metagame is revealed
    # during this tournament" of the pre-release); every player scores it for themselves.
    meta = np.array(metagame, dtype=np.int64)
    if not whole_set:
        revealed = meta >= 0
        meta[revealed] = local(meta[revealed])
    game[engine_layout.G_META : engine_layout.G_META + engine_layout.MAX_META_STACKS] = meta
    if traced and revealed_metagame(state):
        state.say(f"  the metagame: {', '.join(cards.cards[c].name for c in revealed_metagame(state))}")
    if any(ENGINE_POLICIES[seat.policy] == SEARCH for seat in state.seats):
        # A `search` seat plays its tournament by the engine's search (determinized rollouts on its own turns).
        work = engine_python_side.search_state(cards.compiled)
        # The search's own generator, never the tournament's (that would foretell its later store draws).
        rng_seed(s.search, np.int64(state.rng.seed()))
        engine_search.play_searched_tournament(g, s, work["sim"], work["world"])
    else:
        engine_policies.play_tournament(g, s)
    if traced:
        events = s.events[: int(s.ecount[0])]
        for row in global_trace(ids, events, engine_layout.EV_OTHER_IS_CARD, engine_layout.EV_CARD_IS_NOT_CARD):
            if int(row[2]) in (engine_layout.EV_SEAT, engine_layout.EV_OPENS, engine_layout.EV_PLACE):
                continue
            state.say("    " + engine_python_side.describe_event(cards.compiled, row).strip())
    if state.duel:
        places = duel_result(state, [int(side[p, engine_layout.S_RP]) for p in range(n)], after_deckbuilding)
    else:
        for p, seat in enumerate(state.seats):
            seat.tournament_vp.append(int(side[p, engine_layout.S_VP]))
            seat.places.append(int(side[p, engine_layout.S_PLACE]))
            seat.tournament_rp.append(int(side[p, engine_layout.S_RP]))
            if traced:
                state.say(
                    f"  {SEATS[p]} places {int(side[p, engine_layout.S_PLACE])} with "
                    f"{int(side[p, engine_layout.S_RP])} RP: {int(side[p, engine_layout.S_VP])} VP"
                )
        places = [int(side[p, engine_layout.S_PLACE]) for p in range(n)]
    left = int(game[engine_layout.G_STORE_LEFT])
    shown = int(game[engine_layout.G_AFTERMARKET])
    played = s.store[: store.shape[0]]
    held = (played if whole_set else ids[played]).tolist()
    state.store_deck = held[:left]
    # Clash reveals stay in the aftermarket, "available for sale during the next round".
    state.aftermarket = [Listing(c, -1) for c in held[left : left + shown]]
    state.store_discard = held[left + shown :]
    if shown:
        state.say(f"  the aftermarket keeps {shown} card(s) revealed in clashes for the next round")
    # "Turns begin with whichever player placed highest in the previous tournament (... in case of a tie ...)".
    best = [p for p in range(n) if places[p] == 1]
    state.first = best[0] if len(best) == 1 else int(best[state.rng.below(len(best))])


def duel_result(state: MarketState, rp: Sequence[int], after_deckbuilding: bool) -> list[int]:
    """Duel Mode's tournament result from the engine's RP: the round's collection RP "added to your total RP at the
    end of the Tournament Phase", then the seat with more RP wins (equal RP: neither). Returns the places."""
    totals = []
    for p, seat in enumerate(state.seats):
        bonus = seat.collection_rp[-1] if after_deckbuilding and seat.collection_rp else 0
        totals.append(rp[p] + bonus)
        seat.tournament_rp.append(totals[-1])
        state.say(f"  {SEATS[p]} scores {rp[p]} RP + {bonus} RP of collections = {totals[-1]} RP")
    places = final_ranks([(t,) for t in totals])
    winners = [p for p in range(len(totals)) if places[p] == 1]
    for p, seat in enumerate(state.seats):
        seat.places.append(places[p])
        seat.tournament_vp.append(1 if winners == [p] else 0)
    won = " - ".join(str(sum(seat.tournament_vp)) for seat in state.seats)
    if len(winners) == 1:
        state.say(f"  {SEATS[winners[0]]} wins the tournament (tournaments won {won})")
    else:
        state.say(f"  the tournament is tied: neither seat wins it (tournaments won {won})")
    return places


def prize_support(state: MarketState, tier: int) -> None:
    """ "Reveal a complete set of Promo Cards ... Players get one of these randomly": one random card of the tier's
    pile each, a fresh copy of the pile for every `len(pile)` players (the sheet may hold fewer promos than seats)."""
    pile = list(state.cards.promo_piles[tier])
    if not pile:
        return
    pool: list[int] = []
    state.version += 1
    for p, seat in enumerate(state.seats):
        if not pool:
            pool = list(pile)
        card = pool.pop(state.rng.below(len(pool)))
        seat.binder.append(card)
        state.say(f"  prize support: {SEATS[p]} gets the {FUSION_TIERS[tier]} promo {state.name(card)}")


def return_markers(state: MarketState, markers: int) -> None:
    """ "Return all players' Sell Markers to them" (from the aftermarket and the fusion piles)."""
    for seat in state.seats:
        seat.markers = markers


# ---- the game -------------------------------------------------------------------------------------------------------


@dataclass
class GameResult:
    """One whole game: every seat's VP by source and by round, and the figures game health reads."""

    tournament_vp: list[list[int]]
    """Per seat, VP of each tournament in order."""
    collection_vp: list[list[int]]
    """Per seat, collection VP of each deckbuilding round."""
    places: list[list[int]]
    """Per seat, place in each tournament."""
    money: list[int]
    """Per seat, dollars left at the end."""
    money_vp: list[int]
    """Per seat, money // 4."""
    friendship_vp: list[int]
    """Per seat, VP from Friendship cards received (at most 6 from one giver)."""
    total: list[int]
    """Per seat, final VP."""
    rank: list[int]
    """Per seat, final place after the tie-break (1 = winner; seats still tied share the place)."""
    bought: IntArray
    """Copies bought from the store, by card id."""
    first_seat: int
    """The seat that opened the first tournament."""
    short: int
    """Cards the deals could not give (the store and its discard were empty)."""
    tournament_rp: list[list[int]] = field(default_factory=list)
    """Per seat, RP of each tournament in order (in Duel Mode with the round's collection RP)."""
    collection_rp: list[list[int]] = field(default_factory=list)
    """Per seat, Duel Mode collection RP of each deckbuilding round (0 under the normal rules)."""
    duel: bool = False
    """Played by Duel Mode: `tournament_vp` holds 1 for a tournament won, 0 otherwise, and `total` is tournaments
    won (collection, money and friendship VP are 0)."""
    bought_by_seat: IntArray | None = None
    """Copies bought from the store, seat by card id."""
    characters: list[int] = field(default_factory=list)
    """Per seat, its character (an index of CHARACTERS); empty with `characters=none`."""


def friendship_vp(state: MarketState, p: int) -> int:
    """VP from the Friendship cards seat p received, at most 6 from one giver."""
    per_card = int(state.cards.options["friendship_card_vp"])
    return sum(min(FRIENDSHIP_CAP, count * per_card) for count in state.seats[p].friendship_from)


def final_ranks(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """Place of each seat by its key (total VP, then the tie-breaks); equal keys share the best place."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def new_game(cards: MarketCards, rng: MarketRng, policies: Sequence[int], trace: bool = False) -> MarketState:
    """Setup (document: Game Setup, steps 2-5)."""
    n = len(policies)
    state = MarketState(cards=cards, seats=[], rng=rng, log=[] if trace else None)
    state.store_deck = list(cards.store_cards)
    state.fusion_piles = [list(pile) for pile in cards.promo_piles]
    state.bought = np.zeros(len(cards.cards), dtype=np.int64)
    state.bought_by_seat = np.zeros((n, len(cards.cards)), dtype=np.int64)
    state.duel = n == 2 and cards.options.get("two_player_rules", "duel") == "duel"
    shuffle_metagame(state)
    markers = DUEL_MARKERS if state.duel else 4 if n == 3 else 3
    for p in range(n):
        starter = cards.starters[rng.below(len(cards.starters))]
        state.seats.append(
            Seat(
                binder=list(starter),
                markers=markers,
                friendship_from=[0] * n,
                policy=int(policies[p]),
                starter=list(starter),
            )
        )
        # A starter deck is opened at the table (each player's own), so every seat knows it.
        state.shown.append(list(starter))
    if state.duel:
        state.say("Setup (Duel Mode): starter decks, 3 store cards and 6 sell markers each; no Friendship cards")
    else:
        state.say("Setup: starter decks, 3 store cards each, sell markers and Friendship cards")
    deal(state, STARTING_STORE_CARDS)
    # "or whoever most recently opened a booster pack in real life, in case of a tie or the first game round"
    state.first = rng.below(n)
    if cards.characters != "none":
        deal_characters(state)
    return state


def deal_characters(state: MarketState) -> None:
    """ "a Character Card, either randomly or of their choice": option `characters` `random` deals each seat a
    different character at random, `in_order` seat A `first_character` and the next seats the characters after it
    in CHARACTERS' order, wrapping round. Then Cardine's promos and,
    with `pro_cards`, each seat's pro player set (its character's by name, else the others dealt at random). Drawn
    after the rest of the setup, so the cards dealt so far are those of a game without characters."""
    cards = state.cards
    n = state.players
    if cards.characters == "random":
        order = state.rng.permutation(len(CHARACTERS))[:n]
    else:
        shorts = [c.short.casefold().replace(" ", "_") for c in CHARACTERS]
        start = shorts.index(str(cards.options.get("first_character", "deques")))
        order = [(start + p) % len(CHARACTERS) for p in range(n)]
    for p, character in enumerate(order):
        state.seats[p].character = character
    state.say("Characters: " + ", ".join(seat_name(state, p) for p in range(n)))
    for p, seat in enumerate(state.seats):
        count = power(state, p, POWER_PROMOS)
        tier = next((t for t in (2, 1, 0) if cards.promo_piles[t]), -1)
        if count and tier >= 0:
            state.version += 1
            pool: list[int] = []
            got = []
            for _ in range(count):
                if not pool:
                    pool = list(cards.promo_piles[tier])
                got.append(pool.pop(state.rng.below(len(pool))))
            seat.binder.extend(got)
            state.say(f"  {seat_name(state, p)} starts with {', '.join(state.name(c) for c in got)}")
    if not cards.pro_sets:
        return
    state.pro_left = [list(pro) for pro in cards.pro_sets]
    names = [cards.set_names[cards.set_of[pro[0]]].casefold() for pro in cards.pro_sets]
    free = list(range(len(cards.pro_sets)))
    for seat in state.seats:
        short = CHARACTERS[seat.character].short.casefold()
        named = [k for k in free if short in names[k]]
        if named:
            seat.pro_set = named[0]
            free.remove(named[0])
    for p in [p for p, seat in enumerate(state.seats) if seat.pro_set < 0]:
        if not free:
            break
        seat = state.seats[p]
        seat.pro_set = free.pop(state.rng.below(len(free)))
    for p, seat in enumerate(state.seats):
        if seat.pro_set >= 0:
            name = cards.set_names[cards.set_of[cards.pro_sets[seat.pro_set][0]]]
            state.say(f"  {seat_name(state, p)} plays the pro set {name}")


def give_pro_cards(state: MarketState, places: Sequence[int]) -> None:
    """ "During rounds 1 and 2, when a player scores first place in the tournament, give each player (including
    himself) a copy of his Pro Player Card. If a player who won the first tournament also wins the second one, give
    the 2nd place player's Pro Player card to all players instead." The winner is the seat that placed first (tied:
    the one drawn to open the next round, `state.first`); the 2nd place player the best-placed other seat (tied:
    drawn at random). Each seat gets the next copy of the giver's pro set while copies last."""
    winner = state.first
    giver = winner
    if len(state.tournament_winners) == 1 and state.tournament_winners[0] == winner:
        others = [p for p in range(state.players) if p != winner]
        best = min(places[p] for p in others)
        second = [p for p in others if places[p] == best]
        giver = second[0] if len(second) == 1 else second[state.rng.below(len(second))]
    state.tournament_winners.append(winner)
    pro = state.seats[giver].pro_set
    if pro < 0:
        state.say(f"  {seat_name(state, giver)} has no pro player card to give")
        return
    state.version += 1
    for k in range(state.players):
        p = (giver + k) % state.players
        if not state.pro_left[pro]:
            state.say(f"  the pro set of {seat_name(state, giver)} has no copy left for {SEATS[p]}")
            continue
        card = state.pro_left[pro].pop(0)
        state.seats[p].binder.append(card)
        state.shown[p].append(card)
        state.say(f"  {seat_name(state, giver)}'s pro player card: {SEATS[p]} gets {state.name(card)}")


def play_game(
    cards: MarketCards,
    rng: MarketRng,
    policies: Sequence[MarketPolicy],
    policy_codes: Sequence[int],
    trace: bool = False,
    play_segments: SegmentRunner = run_segments,
) -> tuple[GameResult, list[str]]:
    """One whole game for len(policies) seats (2-5): rounds, tournaments, final scoring; each round's timer segments
    played by `play_segments` (the Python market's `run_segments` unless told)."""
    n = len(policies)
    if not 2 <= n <= engine_layout.MAX_PLAYERS:
        raise WorkbenchInputError(f"the whole game seats 2-5 players, not {n}.", expected="players 2 to 5")
    state = new_game(cards, rng, policy_codes, trace)
    markers = state.seats[0].markers
    first_seat = state.first
    rounds = [1, 2, 3]
    charts = [engine_layout.VP_ROUNDS.index("round1"), engine_layout.VP_ROUNDS.index("round2"), 3]
    if bool(cards.options["prerelease"]):
        # "skip the third round of deckbuilding and the third tournament": the second deckbuilding round's
        # tournament is the final one.
        for seat in state.seats:
            seat.deck = legal_part(cards, seat.starter)
        play_tournament(state, engine_layout.VP_ROUNDS.index("prerelease"), "Pre-release tournament", False)
        rounds = [1, 2]
        charts = [engine_layout.VP_ROUNDS.index("round1"), engine_layout.VP_ROUNDS.index("final")]
    for r, chart in zip(rounds, charts, strict=True):
        state.round = r
        deckbuilding(state, policies, play_segments)
        play_tournament(state, chart, f"Round {r}: tournament")
        if state.duel and max(sum(seat.tournament_vp) for seat in state.seats) >= DUEL_WINS:
            break
        if cards.pro_sets and r in PRIZE_SUPPORT and r != rounds[-1]:
            give_pro_cards(state, [seat.places[-1] for seat in state.seats])
        if r in PRIZE_SUPPORT and r != rounds[-1]:
            prize_support(state, PRIZE_SUPPORT[r])
        return_markers(state, markers)
    if state.duel:
        return duel_end(state, first_seat)
    money_vp = [seat.money // MONEY_PER_VP for seat in state.seats]
    friendship = [friendship_vp(state, p) for p in range(n)]
    total = [
        sum(seat.tournament_vp) + sum(seat.collection_vp) + money_vp[p] + friendship[p]
        for p, seat in enumerate(state.seats)
    ]
    # "In case of a tie, the winner is whoever had the most VP from tournaments. ... Collections, followed by Money
    # and then Friendship".
    keys = [
        (total[p], sum(seat.tournament_vp), sum(seat.collection_vp), money_vp[p], friendship[p])
        for p, seat in enumerate(state.seats)
    ]
    rank = final_ranks(keys)
    state.say("Game end")
    for p, seat in enumerate(state.seats):
        state.say(
            f"  {SEATS[p]}: tournaments {sum(seat.tournament_vp)} + collections {sum(seat.collection_vp)} + money "
            f"{money_vp[p]} (${seat.money}) + friendship {friendship[p]} = {total[p]} VP, place {rank[p]}"
        )
    result = GameResult(
        tournament_vp=[list(seat.tournament_vp) for seat in state.seats],
        collection_vp=[list(seat.collection_vp) for seat in state.seats],
        places=[list(seat.places) for seat in state.seats],
        money=[seat.money for seat in state.seats],
        money_vp=money_vp,
        friendship_vp=friendship,
        total=total,
        rank=rank,
        bought=state.bought,
        bought_by_seat=state.bought_by_seat,
        first_seat=first_seat,
        short=state.short,
        tournament_rp=[list(seat.tournament_rp) for seat in state.seats],
        collection_rp=[list(seat.collection_rp) for seat in state.seats],
        characters=[seat.character for seat in state.seats if seat.character >= 0],
    )
    return result, state.log or []


def duel_end(state: MarketState, first_seat: int) -> tuple[GameResult, list[str]]:
    """Duel Mode's game end: "The first player to win two tournaments is declared the winner of the game!" (after
    three rounds without one: more tournaments won, then more RP over the tournaments, else a shared place)."""
    n = state.players
    won = [sum(seat.tournament_vp) for seat in state.seats]
    rp = [sum(seat.tournament_rp) for seat in state.seats]
    rank = final_ranks([(won[p], rp[p]) for p in range(n)])
    state.say("Game end (Duel Mode)")
    for p, seat in enumerate(state.seats):
        state.say(
            f"  {SEATS[p]}: {won[p]} tournament(s) won of {len(seat.tournament_vp)}, {rp[p]} RP (collections "
            f"{sum(seat.collection_rp)} RP), ${seat.money} left, place {rank[p]}"
        )
    result = GameResult(
        tournament_vp=[list(seat.tournament_vp) for seat in state.seats],
        collection_vp=[list(seat.collection_vp) for seat in state.seats],
        places=[list(seat.places) for seat in state.seats],
        money=[seat.money for seat in state.seats],
        money_vp=[0] * n,
        friendship_vp=[0] * n,
        total=won,
        rank=rank,
        bought=state.bought,
        bought_by_seat=state.bought_by_seat,
        first_seat=first_seat,
        short=state.short,
        tournament_rp=[list(seat.tournament_rp) for seat in state.seats],
        collection_rp=[list(seat.collection_rp) for seat in state.seats],
        duel=True,
        characters=[seat.character for seat in state.seats if seat.character >= 0],
    )
    return result, state.log or []
