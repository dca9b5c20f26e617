"""Policies for the whole game's deckbuilding phase: a greedy one, a random-legal one, and a search that plays
greedy's purchases out in compiled tournaments (`SearchMarket`, at the end of this module).

Greedy prices everything in dollars, the currency of the final score (4 dollars = 1 VP):

- a card's deck value is an estimate of the RP it brings in a tournament, read from the engine's effect table
  (a `gain` clause's amount times how many cards its `per` condition is likely to count, in the seat's current
  deck; flips, clashes, star tokens and protection at fixed rates; a single's stars for its clashes; and, for a
  single, what the revealed metagame cards' Score clauses pay for it when it reaches the tableau), and one point of
  deck value is worth DECK_DOLLARS;
- a card's collection value is the VP it adds to the seat's best collection (one shared symbol, different star
  ratings), at MONEY_PER_VP dollars a VP;
- a card is worth the most of its deck value gain, its collection gain and, while it can still be sold, its
  star rating (what the aftermarket pays).

A face-down store card is worth the average over its set's cards (weighted by copies: the set's distribution).
Greedy buys the purchase with the best value per dollar that is worth more than its price (store, aftermarket or
an equal-value trade, with a Friendship card when the card is worth clearly more than its price), then fuses when
the promo pile is worth more than half the star ratings it spends, then sells its most expensive card that is in
neither its deck nor its collection, and otherwise passes. Its deck is the best by deck value; its collection the
largest from the cards outside the deck.

Search is greedy with the deck value measured instead of estimated: the purchases greedy ranks best are each
priced by the RP the deck they build gains in a few compiled tournaments against opponent decks sampled from what
the seat can know (`Outlook`), never from the other seats' hidden cards or the store's order (a metagame stack not
yet revealed this round: any of its cards still in it).

In Duel Mode (two players, `two_player_rules=duel`) greedy keeps an Elemental and a Type collection, a card's
collection value is the RP it adds to them (10 a card) at DECK_DOLLARS a point, like deck value, and it offers no
Friendship cards.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence

import numpy as np

from workbench.engines import CompiledCards
from workbench.play.policies import GREEDY, RANDOM
from workbench.rulesets.blades import appraisal_kernels as AK
from workbench.rulesets.blades import engine as tournament
from workbench.rulesets.blades.engine.layout import K_SINGLE, T_SYMBOLS
from workbench.rulesets.blades.market import (
    BUY_AFTERMARKET,
    BUY_STORE,
    COLLECTION_VP,
    DECK_LIMITS,
    DUEL_KINDS,
    DUEL_RP_PER_CARD,
    ENGINE_POLICIES,
    FUSE,
    LAST_CALL,
    MONEY_PER_VP,
    PASS,
    SELL,
    TRADE,
    Action,
    MarketCards,
    MarketState,
    RoundEnd,
    aftermarket_price,
    buy_discount,
    can_sell,
    discounted,
    legal,
    legal_part,
    open_fusions,
    revealed_metagame,
)
from workbench.rulesets.blades.market_rng import MarketRng

DECK_DOLLARS = 2.0
"""Dollars greedy pays for one point of deck value (about one RP a tournament)."""
FRIENDSHIP_MARGIN = float(MONEY_PER_VP)
"""Greedy adds a Friendship card to a trade when the card is worth this much more to it than its price."""
FUSION_SHARE = 0.5
"""Greedy fuses when the promo is worth more than this share of the star ratings of the cards it spends."""
PER_EXPECTED = {
    tournament.PER_NONE: 1.0,
    tournament.PER_CARD: 3.5,
    tournament.PER_CARD_LEFT: 2.5,
    tournament.PER_FACE_DOWN: 1.0,
}
"""How many cards a `per` condition counts on average, for the conditions that do not depend on the deck."""
PLAYED_SHARE = 0.75
"""Share of a deck's singles that reach the tableau (6 slots of 8 singles)."""
STARS_WEIGHT = 0.3
"""Deck value of one star of a single (its weight as a Top card in clashes)."""


class CardFacts:
    """What greedy and random read of each card, as plain Python lists by card id, made once per card set (`facts`).
    Reading a numpy array one scalar at a time (`int(cards.stars[c])`) costs far more than a list's item, and
    greedy reads these hundreds of thousands of times a hundred games (measured with cProfile: over a tenth of a
    whole game, with the engine package's name lookup that `tournament.K_SINGLE` made at every read)."""

    def __init__(self, cards: MarketCards) -> None:
        self.kind = [int(k) for k in cards.kind]
        """Card kind (engine codes)."""
        self.single = [k == K_SINGLE for k in self.kind]
        """Whether the card is a single (what `per` conditions and tableaus count)."""
        self.bits = [int(b) for b in cards.compiled.table[:, T_SYMBOLS]]
        """Symbol bits (the engine's card table)."""
        self.stars = [int(s) for s in cards.stars]
        """Star rating."""
        self.most_stars = max(self.stars, default=0)
        """The highest star rating: a seat with at least this many dollars can pay for any trade."""
        self.price = [int(s) for s in cards.price]
        """Store price."""
        self.set_of = [int(s) for s in cards.set_of]
        """Set index."""
        # Sorted: a frozenset of strings iterates in an order that changes with PYTHONHASHSEED.
        self.symbols = [tuple(sorted(found)) for found in cards.symbols]
        """The card's collection symbols, sorted (the order `collection_groups` meets them in)."""


def facts(cards: MarketCards) -> CardFacts:
    """The card set's `CardFacts`, made once and kept with the compiled cards."""
    found: CardFacts | None = cards.memo.get("facts")
    if found is None:
        found = cards.memo["facts"] = CardFacts(cards)
    return found


CONSTANT, PER_SYMBOL_COUNT = AK.CONSTANT, AK.PER_SYMBOL_COUNT
PER_STARS_AT_LEAST_COUNT, PER_STARS_AT_MOST_COUNT = AK.PER_STARS_AT_LEAST_COUNT, AK.PER_STARS_AT_MOST_COUNT
"""Kinds of a term of `Valuation` (`appraisal_kernels`, where the compiled appraisal reads them too)."""
MEMO_LIMIT = 4096
"""Entries a `Valuation` memo holds before it starts afresh (a bound on memory over many games)."""


class Valuation:
    """Card values and best decks for one card set, with the arithmetic that does not depend on the deck done once:
    each card's terms, and the arrays the compiled appraisal reads them from (`value_ints`, `value_floats`). Greedy's
    time went there (measured: 95% of a whole game in card values and the appraisals around them); the values are the
    same floats, added in the same order, so every decision is the same.

    A card's value against a deck is a fixed part plus, per `gain ... per` clause that counts the deck, a coefficient
    times PLAYED_SHARE times the count of the deck's singles it counts. Best decks are remembered by the set of
    distinct cards owned.

    One `Valuation` holds for one set of revealed metagame cards (`metagame`): a single's fixed part includes what
    their Score clauses pay for it ("Every Player activates the Metagame Score effects for themselves"), each
    `gain ... per` clause that counts it (its symbol, its stars) times PLAYED_SHARE, the chance it reaches the
    tableau those clauses count. Without a revealed card a single's value is what it always was."""

    def __init__(self, cards: MarketCards, metagame: Sequence[int] = ()) -> None:
        self.cards = cards
        self.metagame = tuple(metagame)
        known = facts(cards)
        self.single = known.single
        self.bits = known.bits
        self.stars = known.stars
        self.terms = [self._terms(card) for card in range(len(cards.cards))]
        """Per card: its value before counting the deck, and its terms (`_terms`, with the metagame's bonus)."""
        if self.metagame:
            for card in range(len(cards.cards)):
                bonus = self.metagame_bonus(card)
                if bonus:
                    self.terms[card][1].append((CONSTANT, 0, bonus))
        # As the compiled appraisal reads them (`appraisal_kernels.card_value`): each card's value up to its first term
        # that counts the deck (the same additions in the same order), then the terms from there on.
        heads: list[float] = []
        tails: list[list[tuple[int, int, float]]] = []
        for value, terms in self.terms:
            first = next((i for i, term in enumerate(terms) if term[0] != CONSTANT), len(terms))
            for _, _, amount in terms[:first]:
                value += amount
            heads.append(value)
            tails.append(terms[first:])
        width = max((len(tail) for tail in tails), default=0)
        self.value_ints = np.zeros((len(tails), AK.V_TAIL + 2 * width), dtype=np.int64)
        """Per card: how many terms follow its head, then each term's (kind, argument)."""
        self.value_floats = np.zeros((len(tails), 1 + width), dtype=np.float64)
        """Per card: its head, then each term's amount."""
        for card, (head, tail) in enumerate(zip(heads, tails, strict=True)):
            self.value_ints[card, AK.V_TAIL_N] = len(tail)
            self.value_floats[card, 0] = head
            for t, (kind, arg, amount) in enumerate(tail):
                self.value_ints[card, AK.V_TAIL + 2 * t : AK.V_TAIL + 2 * t + 2] = kind, arg
                self.value_floats[card, 1 + t] = amount
        self._decks: dict[frozenset[int], tuple[int, ...]] = {}

    def _terms(self, card: int) -> tuple[float, list[tuple[int, int, float]]]:
        """A card's value before counting the deck (its stars) and its clauses as (kind, argument, amount): a fixed
        amount, or a coefficient that multiplies PLAYED_SHARE times a count of the deck's singles. Formed as greedy's
        value always was ((weight * amount) * n), so the golden traces are unchanged."""
        cards = self.cards
        table = cards.compiled.table
        effects = cards.compiled.extra["effects"]
        start = STARS_WEIGHT * float(cards.stars[card]) if cards.kind[card] == tournament.K_SINGLE else 0.0
        base = tournament.ACTION_BASE
        terms: list[tuple[int, int, float]] = []
        for c in range(int(table[card, tournament.T_CLAUSES])):
            timing = int(effects[card, c, tournament.E_TIMING])
            verb = int(effects[card, c, base + tournament.A_VERB])
            amount = float(effects[card, c, base + tournament.A_AMOUNT])
            weight = 0.5 if timing in (tournament.TM_FLIP, tournament.TM_REACTION) else 1.0
            if verb == tournament.V_GAIN:
                per = int(effects[card, c, base + tournament.A_PER])
                arg = int(effects[card, c, base + tournament.A_ARG])
                if per == tournament.PER_SYMBOL:
                    terms.append((PER_SYMBOL_COUNT, arg, weight * amount))
                elif per == tournament.PER_STARS_AT_LEAST:
                    terms.append((PER_STARS_AT_LEAST_COUNT, arg, weight * amount))
                elif per == tournament.PER_STARS_AT_MOST:
                    terms.append((PER_STARS_AT_MOST_COUNT, arg, weight * amount))
                elif per == tournament.PER_CARD and timing == tournament.TM_SCORE:
                    terms.append((CONSTANT, 0, weight * amount * 6.0))
                else:
                    terms.append((CONSTANT, 0, weight * amount * PER_EXPECTED.get(per, 1.0)))
            elif verb == tournament.V_CLASH:
                clash = float(effects[card, c, base + tournament.ACTION_WIDTH + tournament.A_AMOUNT])
                terms.append((CONSTANT, 0, weight * 0.5 * clash))
            elif verb == tournament.V_FLIP:
                whose = int(effects[card, c, base + tournament.A_WHOSE])
                terms.append((CONSTANT, 0, weight * (3.0 if whose == tournament.WHOSE_OPPONENT else -1.0)))
            elif verb == tournament.V_STAR:
                terms.append((CONSTANT, 0, weight * 0.5 * amount))
            elif verb != tournament.V_NONE:
                terms.append((CONSTANT, 0, weight * 1.5))
        return start, terms

    def metagame_bonus(self, card: int) -> float:
        """RP the revealed metagame cards' Score clauses pay for a single of the deck: each clause whose `per`
        condition counts it (shares the symbol, meets the star bound), times PLAYED_SHARE. 0 for a deck box or an
        accessory, which no tableau count sees."""
        if not self.single[card]:
            return 0.0
        bonus = 0.0
        for meta in self.metagame:
            for kind, arg, amount in self.terms[meta][1]:
                if kind != CONSTANT and self._count(kind, arg, [card]):
                    bonus += amount * PLAYED_SHARE
        return bonus

    def _count(self, kind: int, arg: int, singles: list[int]) -> int:
        # The length of a list comprehension: about twice as fast as summing a generator's ones.
        if kind == PER_SYMBOL_COUNT:
            bits = self.bits
            return len([c for c in singles if bits[c] & arg])
        stars = self.stars
        if kind == PER_STARS_AT_LEAST_COUNT:
            return len([c for c in singles if stars[c] >= arg])
        return len([c for c in singles if stars[c] <= arg])

    def best_deck(self, owned: Sequence[int]) -> tuple[int, ...]:
        """The highest-value legal deck from `owned` (values first against every owned card, then against the deck;
        the compiled `appraisal_kernels.deck_of`), remembered by the distinct cards owned: the ranking's ties go to the
        lower card id, so the binder's order does not matter."""
        key = frozenset(owned)
        found = self._decks.get(key)
        if found is None:
            if len(self._decks) > MEMO_LIMIT:
                self._decks.clear()
            tables = appraisal_tables(self.cards)
            deck = AK.deck_of(
                np.array(sorted(key), dtype=np.int64),
                tables.facts,
                tables.limits,
                self.value_ints,
                self.value_floats,
                tables.numbers,
            )
            found = self._decks[key] = tuple(deck.tolist())
        return found


def valuation(cards: MarketCards, metagame: Sequence[int] = ()) -> Valuation:
    """The card set's `Valuation` under the revealed `metagame` cards, made once for each and kept with the compiled
    cards."""
    # By the cards' tuple: a string key made at every appraisal cost more than the appraisal's collections.
    memo: dict[tuple[int, ...], Valuation] = cards.memo.setdefault("valuations", {})
    key = tuple(metagame)
    found = memo.get(key)
    if found is None:
        found = memo[key] = Valuation(cards, key)
    return found


def collection_groups(cards: MarketCards, pool: Sequence[int]) -> dict[tuple[str, str], dict[int, int]]:
    """For each symbol, one card per star rating among `pool` (the first seen)."""
    known = facts(cards)
    symbols, stars = known.symbols, known.stars
    groups: dict[tuple[str, str], dict[int, int]] = {}
    for c in pool:
        rating = stars[c]
        for symbol in symbols[c]:
            group = groups.get(symbol)
            if group is None:
                groups[symbol] = {rating: c}
            elif rating not in group:
                group[rating] = c
    return groups


def best_collection(
    cards: MarketCards,
    pool: Sequence[int],
    category: str = "",
    groups: dict[tuple[str, str], dict[int, int]] | None = None,
) -> list[int]:
    """The largest collection sharing one symbol (of `category` when given), one card per star rating (a common
    symbol satisfies both readings of `collection_symbol`); ties: the symbol seen first. `groups`: the pool's
    `collection_groups`, when the caller has them."""
    best: list[int] = []
    for symbol, group in (collection_groups(cards, pool) if groups is None else groups).items():
        if category and symbol[0] != category:
            continue
        # The group's collection has min(len(group), collection_max) cards: sorted only when that is larger.
        if min(len(group), cards.collection_max) > len(best):
            best = [group[s] for s in sorted(group, reverse=True)][: cards.collection_max]
    return best if len(best) >= 2 else []


def best_duel_collections(
    cards: MarketCards, pool: Sequence[int], groups: dict[tuple[str, str], dict[int, int]] | None = None
) -> tuple[list[int], list[int]]:
    """Duel Mode: the Elemental and the Type collection with the most cards between them, disjoint (the largest of
    one category, then the largest of the other from the cards left, whichever category first gives more).
    `groups`: the pool's `collection_groups`, when the caller has them."""
    if groups is None:
        groups = collection_groups(cards, pool)
    best: tuple[list[int], list[int]] = ([], [])
    for first in DUEL_KINDS:
        second = DUEL_KINDS[1 - DUEL_KINDS.index(first)]
        one = best_collection(cards, pool, first, groups)
        rest = list(pool)
        for c in one:
            rest.remove(c)
        other = best_collection(cards, rest, second)
        picked = (one, other) if first == DUEL_KINDS[0] else (other, one)
        if len(picked[0]) + len(picked[1]) > len(best[0]) + len(best[1]):
            best = picked
    return best


class AppraisalTables:
    """What the compiled appraisal (`appraisal_kernels.appraise_binder`) reads of a card set, as arrays made once
    (`appraisal_tables`): the facts table, each symbol's Duel Mode category, the deck kinds' limits, the collection
    VP chart, and each set's face-down distribution (`set_distribution`: card ids and chances, -1 after the last)."""

    def __init__(self, cards: MarketCards) -> None:
        known = facts(cards)
        slots = {kind: slot for slot, kind in enumerate(DECK_LIMITS)}
        symbols = sorted({symbol for found in known.symbols for symbol in found})
        ids = {symbol: i for i, symbol in enumerate(symbols)}
        width = max((len(found) for found in known.symbols), default=0)
        self.facts = np.full((len(known.kind), AK.F_SYMBOLS + width), -1, dtype=np.int64)
        """One row a card: `appraisal_kernels`' F_* columns."""
        for c, kind in enumerate(known.kind):
            row = self.facts[c]
            row[AK.F_KIND], row[AK.F_SINGLE], row[AK.F_BITS] = kind, int(known.single[c]), known.bits[c]
            row[AK.F_STARS], row[AK.F_SLOT] = known.stars[c], slots.get(kind, AK.NO_SLOT)
            # Ascending ids in the sorted order of the symbols: the order `collection_groups` meets them in.
            row[AK.F_SYMBOLS_N] = len(known.symbols[c])
            row[AK.F_SYMBOLS : AK.F_SYMBOLS + len(known.symbols[c])] = [ids[symbol] for symbol in known.symbols[c]]
        self.category_of = np.array(
            [DUEL_KINDS.index(symbol[0]) if symbol[0] in DUEL_KINDS else AK.NO_CATEGORY for symbol in symbols],
            dtype=np.int64,
        )
        """Each symbol's Duel Mode category (its index in DUEL_KINDS), by symbol id."""
        self.limits = np.array(list(DECK_LIMITS.values()), dtype=np.int64)
        """Each deck kind's limit, in DECK_LIMITS' order."""
        self.collection_vp = np.array(COLLECTION_VP, dtype=np.int64)
        """Collection VP by size (COLLECTION_VP)."""
        distributions = [set_distribution(cards, s) for s in range(max(known.set_of, default=-1) + 1)]
        longest = max((len(found) for found in distributions), default=0)
        self.set_cards = np.full((len(distributions), longest), -1, dtype=np.int64)
        """Each set's cards (`set_distribution`), -1 after the last."""
        self.set_chances = np.zeros((len(distributions), longest), dtype=np.float64)
        """The chance of each of them (the same floats `set_distribution` gives)."""
        for s, found in enumerate(distributions):
            for k, (card, chance) in enumerate(found):
                self.set_cards[s, k], self.set_chances[s, k] = card, chance
        self.numbers = np.array([PLAYED_SHARE, DECK_DOLLARS, float(MONEY_PER_VP)], dtype=np.float64)
        """PLAYED_SHARE, DECK_DOLLARS and MONEY_PER_VP, as the kernel reads them."""


def appraisal_tables(cards: MarketCards) -> AppraisalTables:
    """The card set's `AppraisalTables`, made once and kept with the compiled cards."""
    found: AppraisalTables | None = cards.memo.get("appraisal_tables")
    if found is None:
        found = cards.memo["appraisal_tables"] = AppraisalTables(cards)
    return found


class Appraisal:
    """What greedy knows about one seat at one moment: its deck, collection and the worth of any card to it.

    Worked out in one compiled call (`appraisal_kernels.appraise_binder`, the Python appraisal's arithmetic operation
    for operation) for every card at once: a seat is asked about the store's sets, the aftermarket and every other
    binder, so most cards are asked about anyway. Measured over 200 greedy whole games: appraisals took 2.06 s of
    greedy's 3.23 s in Python, 0.78 s of 1.33 s compiled (docs/benchmarks.md)."""

    def __init__(self, state: MarketState, p: int, metagame: tuple[int, ...] | None = None) -> None:
        cards = state.cards
        self.cards = cards
        binder = state.seats[p].binder
        self.metagame = revealed_metagame(state) if metagame is None else metagame
        """The revealed metagame cards the appraisal was made under."""
        self.valuation = valuation(cards, self.metagame)
        self.duel = state.duel
        """Whether the game is in Duel Mode (collections are then an Elemental and a Type one)."""
        self.can_resell = state.segment < LAST_CALL
        """Whether the aftermarket still takes cards, so a card is worth at least its star rating."""
        tables = appraisal_tables(cards)
        n_cards = len(tables.facts)
        self._n_cards = n_cards
        ints = np.empty(AK.COUNTS + len(binder), dtype=np.int64)
        # The floats stay with the appraisal (deck gains, collection gains and worths are read from it later); the
        # ints are read into lists at once.
        self._floats = np.empty(AK.FLOAT_BLOCKS * n_cards + len(tables.set_cards), dtype=np.float64)
        AK.appraise_binder(
            np.array(binder, dtype=np.int64),
            self.duel,
            self.can_resell,
            cards.collection_max,
            tables.facts,
            tables.category_of,
            tables.limits,
            tables.collection_vp,
            tables.set_cards,
            tables.set_chances,
            self.valuation.value_ints,
            self.valuation.value_floats,
            tables.numbers,
            DUEL_RP_PER_CARD,
            ints,
            self._floats,
        )
        listed = ints.tolist()
        n_deck, n_collection = listed[0], listed[1]
        after_collection = AK.COUNTS + n_deck + n_collection
        self.deck: list[int] = listed[AK.COUNTS : AK.COUNTS + n_deck]
        """The seat's best deck (`Valuation.best_deck`)."""
        self.collection: list[int] = listed[AK.COUNTS + n_deck : after_collection]
        """Its best collection from the cards outside the deck (Duel Mode: the Elemental one, then the Type one)."""
        self.spare: list[int] = listed[after_collection:]
        """The binder's cards in neither, in binder order."""
        self.owned = set(binder)
        """The distinct cards the seat owns."""
        self.kept = set(listed[AK.COUNTS : after_collection])
        """The cards it would not part with (deck and collection)."""
        self._offered: list[int] | None = None
        # As lists: greedy reads these for every card of the store, the aftermarket and the other binders, and a
        # list's item is read faster than an array's. Only the search's `Outlook` (gains) and the whole-game power
        # curve (worths) read the other blocks, for a few cards, from the array.
        self.use_worths: list[float] = self._floats[AK.float_block(AK.FLOAT_USE_WORTHS, n_cards)].tolist()
        """Per card, `use_worth` (greedy reads the list itself, for every card it prices)."""
        self.set_worths: list[float] = self._floats[AK.FLOAT_BLOCKS * n_cards :].tolist()
        """A face-down store card's worth, by its set: its cards' worths weighed by copies (`set_distribution`)."""

    def offered(self) -> list[int]:
        """The distinct cards the seat would part with (owned, neither in its deck nor its collection), ascending:
        what another greedy seat may ask it for in a trade. Made at the first asking, as the appraisals of the
        other seats are asked at every greedy turn while their binders are unchanged."""
        if self._offered is None:
            self._offered = sorted(self.owned - self.kept)
        return self._offered

    def deck_gain(self, card: int) -> float:
        """Deck value gained by adding `card` (0 for a card already owned: one copy in a deck; 0 for a metagame
        card, which no deck holds)."""
        return float(self._floats[AK.FLOAT_DECK_GAINS * self._n_cards + card])

    def collection_gain(self, card: int) -> int:
        """Collection VP gained by adding `card` to the cards outside the deck (Duel Mode: collection RP)."""
        return int(self._floats[AK.FLOAT_COLLECTION_GAINS * self._n_cards + card])

    def use_worth(self, card: int) -> float:
        """Dollars the card is worth to the seat kept: in its deck or its collection (Duel Mode: collection RP are
        tournament RP, priced like deck value)."""
        return self.use_worths[card]

    def worth(self, card: int) -> float:
        """Dollars the card is worth to the seat: kept, or sold while the aftermarket accepts cards."""
        return float(self._floats[AK.FLOAT_WORTHS * self._n_cards + card])


AppraisalKey = tuple[bool, int, tuple[int, ...], tuple[int, ...]]
"""What an appraisal reads of the state: Duel Mode, the segment, the revealed metagame and the binder in order."""


def _appraisals(state: MarketState, p: int) -> tuple[dict[AppraisalKey, Appraisal], AppraisalKey]:
    """The appraisals made so far (kept with the cards) and seat p's key among them now."""
    key = (state.duel, state.segment, revealed_metagame(state), tuple(state.seats[p].binder))
    memo: dict[AppraisalKey, Appraisal] = state.cards.memo.setdefault("appraisals", {})
    return memo, key


LastAppraisal = tuple["Appraisal", bool, int, list[int], list[int]]
"""A seat's last appraisal and what it was made under: Duel Mode, the segment, the metagame stacks' revealed cards
(-1: none) and the binder, as lists."""


def _last_appraisals(state: MarketState) -> dict[int, LastAppraisal]:
    """Per seat, the appraisal `appraise` gave it last, with what it was made under (kept with the cards)."""
    found: dict[int, LastAppraisal] = state.cards.memo.setdefault("last_appraisals", {})
    return found


def _last_appraisal(state: MarketState, p: int) -> Appraisal | None:
    """Seat p's last appraisal (`appraise`), if all it was made under is as it is now, else None."""
    seat_last = _last_appraisals(state).get(p)
    if (
        seat_last is not None
        and seat_last[4] == state.seats[p].binder
        and seat_last[3] == state.metagame
        and seat_last[2] == state.segment
        and seat_last[1] == state.duel
    ):
        return seat_last[0]
    return None


def appraise(state: MarketState, p: int) -> Appraisal:
    """Seat p's appraisal, made anew only when its binder (in order: collections keep the first card seen), the
    segment or the revealed metagame changed, since an appraisal reads nothing else of the state. Kept with the
    cards, so every greedy seat shares it: each seat's binder changes between two turns of another, and four seats
    appraising each other made four of every appraisal (measured: most of a whole game's time).

    Asked first, the seat's last appraisal (`_last_appraisal`): comparing two lists costs less than the memo's key,
    a tuple of the binder and one of the revealed cards, made and hashed at every call."""
    found = _last_appraisal(state, p)
    if found is not None:
        return found
    memo, key = _appraisals(state, p)
    found = memo.get(key)
    if found is None:
        if len(memo) > MEMO_LIMIT // 16:
            memo.clear()
        found = memo[key] = Appraisal(state, p, key[2])
    _last_appraisals(state)[p] = (
        found,
        state.duel,
        state.segment,
        list(state.metagame),
        list(state.seats[p].binder),
    )
    return found


def appraised(state: MarketState, p: int) -> Appraisal | None:
    """Seat p's appraisal if one is made already (`appraise`), else None: none is made."""
    found = _last_appraisal(state, p)
    if found is not None:
        return found
    memo, key = _appraisals(state, p)
    return memo.get(key)


def round_end(state: MarketState, p: int) -> RoundEnd | None:
    """Seat p's deck and collections as the compiled segments left them at the end of the round's last segment
    (`MarketState.round_end`), if its binder and the metagame are still what they were made for, else None."""
    found = state.round_end.get(p)
    if found is not None and found.binder == state.seats[p].binder and found.metagame == state.metagame:
        return found
    return None


def set_distribution(cards: MarketCards, set_index: int) -> list[tuple[int, float]]:
    """(card id, probability) of a face-down card of a set, by copies."""
    members = [i for i in range(len(cards.cards)) if cards.set_of[i] == set_index]
    total = sum(cards.cards[i].copies for i in members)
    return [(i, cards.cards[i].copies / total) for i in members]


class GreedyMarket:
    """Value per dollar against the current deck, collections pursued (module docstring)."""

    def __init__(self) -> None:
        self.refused: set[tuple[int, int, int, int, int]] = set()
        self._distributions: dict[int, list[tuple[int, float]]] = {}

    def appraise(self, state: MarketState, p: int) -> Appraisal:
        """Seat p's appraisal (`appraise`)."""
        return appraise(state, p)

    def appraised(self, state: MarketState, p: int) -> Appraisal | None:
        """Seat p's appraisal if already made (`appraised`), else None."""
        return appraised(state, p)

    def act(self, state: MarketState, p: int) -> Action:
        """Buy the best value per dollar, else fuse, else sell spare cards, else pass."""
        cards = state.cards
        known = facts(cards)
        seat = state.seats[p]
        appraisal = self.appraise(state, p)
        # The best offer so far: its value per dollar and its Action. An offer is taken when it is worth more than
        # its price and more per dollar than the best so far; its Action is made and checked for legality only then,
        # not for every card of every binder. Looked up once here, not once a card: the worths, prices and the
        # rest (cProfile, 200 greedy games: 252,600 calls of a closure and 305,001 of `use_worth` before).
        best_ratio = 0.0
        best_action: Action | None = None
        use_worths = appraisal.use_worths
        # A purchase the seat cannot pay for is no offer (`legal`): skipped before it is priced.
        money = seat.money
        set_worths, set_of, store_price = appraisal.set_worths, known.set_of, known.price
        for index, card in enumerate(state.store_area):
            price = store_price[card]
            if price > money:
                continue
            worth = set_worths[set_of[card]]
            if worth > price:
                ratio = worth / max(price, 1)
                if best_action is None or ratio > best_ratio:
                    action = Action(BUY_STORE, index=index)
                    if legal(state, p, action):
                        best_ratio, best_action = ratio, action
        discount = buy_discount(state, p)
        stars = known.stars
        for index, listing in enumerate(state.aftermarket):
            if listing.owner == p:
                continue
            price = discounted(stars[listing.card], discount)
            if price > money:
                continue
            worth = use_worths[listing.card]
            if worth > price:
                ratio = worth / max(price, 1)
                if best_action is None or ratio > best_ratio:
                    action = Action(BUY_AFTERMARKET, index)
                    if legal(state, p, action):
                        best_ratio, best_action = ratio, action
        if bool(cards.options["trades"]):
            # Every card of another seat worth more than its price, clockwise from the next seat (so no seat is
            # everyone's first trading partner), in ascending card id a seat, but what the other seat keeps (its deck
            # and collection, as greedy sees it): the best is taken as a scan in that order would take it (the
            # highest value per dollar, on a tie the first, a trade only if it beats the store and the aftermarket's
            # best). What a seat keeps comes from its appraisal, made at once for a seat that appraises itself (its
            # binder most often unchanged until its own turn asks for the same appraisal). A random seat's binder
            # changes at nearly every turn of its own, so its appraisal is made only when one of its cards is looked
            # at, from the best offer down, unless it is made already (measured: appraising every random seat at
            # every turn was most of greedy's time against them).
            trades: list[tuple[float, int, int, int, float]] = []
            kept: dict[int, set[int]] = {}
            owned, refused, turn = appraisal.owned, self.refused, (state.round, state.segment, p)
            players = len(state.seats)
            for k in range(1, players):
                q = (p + k) % players
                other = state.seats[q]
                if ENGINE_POLICIES[other.policy] == RANDOM:
                    theirs = self.appraised(state, q)
                else:
                    theirs = self.appraise(state, q)
                if theirs is not None:
                    kept[q] = theirs.kept
                    offered = theirs.offered()
                else:
                    offered = sorted(set(other.binder))
                for card in offered:
                    if card in owned:
                        continue
                    price = stars[card]
                    if price > money:
                        continue
                    worth = use_worths[card]
                    if worth > price and (*turn, q, card) not in refused:
                        # Negated for an ascending sort (exact for a float), then by place in the scan.
                        trades.append((-(worth / max(price, 1)), len(trades), q, card, worth))
            trades.sort()
            for negated, _, q, card, worth in trades:
                ratio = -negated
                if best_action is not None and not ratio > best_ratio:
                    break
                if q not in kept:
                    kept[q] = self.appraise(state, q).kept
                if card in kept[q]:
                    continue
                price = stars[card]
                friendship = worth - price >= FRIENDSHIP_MARGIN and seat.friendship_left > 0 and not state.duel
                action = Action(TRADE, cards=(card,), other=q, friendship=friendship)
                if legal(state, p, action):
                    best_ratio, best_action = ratio, action
                    break
        if best_action is not None:
            if best_action.kind == TRADE:
                # Asked once a segment: a refusal is not asked again.
                self.refused.add((state.round, state.segment, p, best_action.other, best_action.cards[0]))
            return best_action
        return self.no_purchase(state, p, appraisal, state.fusion_piles)

    def no_purchase(self, state: MarketState, p: int, appraisal: Appraisal, piles: Sequence[Sequence[int]]) -> Action:
        """Without a purchase: fuse when the promo pile (`piles`: what the seat takes the piles to hold) is worth
        more than half the stars spent, else sell the most expensive spare card, else pass."""
        stars = facts(state.cards).stars
        spare = sorted(appraisal.spare, key=lambda c: (stars[c], c))
        for tier, need in reversed(open_fusions(state, p)):
            if len(spare) < need or not piles[tier]:
                continue
            pile = piles[tier]
            promo_worth = sum(appraisal.use_worth(c) for c in pile) / len(pile)
            spent = spare[:need]
            if promo_worth > FUSION_SHARE * sum(stars[c] for c in spent):
                return Action(FUSE, index=tier, cards=tuple(spent))
        if can_sell(state, p) and spare:
            return Action(SELL, cards=(spare[-1],))
        return Action(PASS)

    def accepts_trade(self, state: MarketState, p: int, card: int) -> bool:
        """Gives up a card that is in neither its deck nor its collection."""
        return card not in self.appraise(state, p).kept

    def deck(self, state: MarketState, p: int) -> list[int]:
        """The best deck by deck value, under the metagame revealed this round: the appraisal's
        (`Valuation.best_deck`'s deck, worked out by the compiled appraisal: by the compiled segments at the round's
        end, `round_end`, or made for the seat's last turn)."""
        found = round_end(state, p)
        return list(found.deck if found is not None else appraise(state, p).deck)

    def collection(self, state: MarketState, p: int, deck: Sequence[int]) -> list[int]:
        """The largest collection from the cards outside the deck: the appraisal's when `deck` is the appraisal's
        deck (it is `best_collection` of the same cards, worked out with the deck), else `best_collection`."""
        if not state.duel:
            found = round_end(state, p)
            if found is not None and list(deck) == found.deck:
                return list(found.collections[0])
            appraisal = appraise(state, p)
            if list(deck) == appraisal.deck:
                return list(appraisal.collection)
        rest = list(state.seats[p].binder)
        for c in deck:
            rest.remove(c)
        return best_collection(state.cards, rest)

    def duel_collections(self, state: MarketState, p: int, deck: Sequence[int]) -> tuple[list[int], list[int]]:
        """Duel Mode: the Elemental and Type collections with the most cards from the cards outside the deck (the
        compiled appraisal's at the round's end, `round_end`, when `deck` is its deck: the same pair)."""
        found = round_end(state, p)
        if found is not None and list(deck) == found.deck:
            return list(found.collections[0]), list(found.collections[1])
        rest = list(state.seats[p].binder)
        for c in deck:
            rest.remove(c)
        return best_duel_collections(state.cards, rest)

    def pick_metagame(self, state: MarketState, p: int, stack: int, seen: Sequence[int]) -> int:
        """The Power Creep's power: the seen card whose Score clauses pay most for the singles of the best deck the
        seat can build under it and the other revealed cards (ties: the topmost)."""
        cards = state.cards
        best, best_value = 0, -1.0
        for i, card in enumerate(seen):
            # In stack order, as `revealed_metagame` gives them (one Valuation per set of revealed cards).
            metagame = tuple(card if m == stack else c for m, c in enumerate(state.metagame) if m == stack or c >= 0)
            found = valuation(cards, metagame)
            value = sum(found.metagame_bonus(c) for c in found.best_deck(state.seats[p].binder))
            if value > best_value:
                best, best_value = i, value
        return best


class RandomMarket:
    """A uniformly random legal action each turn (pass included); random deck and collection."""

    def act(self, state: MarketState, p: int) -> Action:
        """One of the legal actions, uniformly (fusion spends random cards)."""
        rng = state.rng
        seat = state.seats[p]
        binder = seat.binder
        cards = state.cards
        known = facts(cards)
        stars = known.stars
        money = seat.money
        # The legal actions in the order they were always listed (pass, store, aftermarket, sales, fusions, trades),
        # with `legal`'s conditions checked here: making and checking an Action for every card of every other binder
        # was most of a random game's time (cProfile, 100 games). Sales and trades are kept as their distinct cards,
        # and only the drawn one's are sorted: no sorted list for every binder, no tuple for every card.
        store = [i for i, c in enumerate(state.store_area) if money >= known.price[c]]
        discount = buy_discount(state, p)
        if money >= known.most_stars - discount:
            # Every aftermarket card is affordable (money is never negative): no price worked out a listing.
            market = [i for i, listing in enumerate(state.aftermarket) if listing.owner != p]
        else:
            market = [
                i
                for i, listing in enumerate(state.aftermarket)
                if listing.owner != p and money >= discounted(stars[listing.card], discount)
            ]
        sales = set(binder) if can_sell(state, p) else set()
        # A possible fusion's cards are drawn whether or not it is the action drawn (those draws are part of the
        # game's sequence), but worked out only for the one drawn: each fusion keeps a copy of the generator from
        # before its draws, which are skipped (a `sample` of k cards is k draws; skipping them spares its list, its
        # swaps and a call a draw: measured, about 2 us of a random turn's 22).
        fusions: list[tuple[int, int, MarketRng]] = []
        for tier, need in open_fusions(state, p):
            fusions.append((tier, need, rng.copy()))
            rng.skip(need)
        # Per other seat, its distinct cards seat p can pay for (all of them, unfiltered, when it can pay the highest
        # star rating).
        trades: list[tuple[int, set[int] | list[int]]] = []
        if bool(cards.options["trades"]):
            rich = money >= known.most_stars
            for q, other in enumerate(state.seats):
                if q != p:
                    distinct = set(other.binder)
                    trades.append((q, distinct if rich else [c for c in distinct if money >= stars[c]]))
        count = 1 + len(store) + len(market) + len(sales) + len(fusions)
        for _, wanted in trades:
            count += len(wanted)
        k = rng.below(count)
        if k == 0:
            return Action(PASS)
        k -= 1
        if k < len(store):
            return Action(BUY_STORE, index=store[k])
        k -= len(store)
        if k < len(market):
            return Action(BUY_AFTERMARKET, index=market[k])
        k -= len(market)
        if k < len(sales):
            return Action(SELL, cards=(sorted(sales)[k],))
        k -= len(sales)
        if k < len(fusions):
            tier, need, before = fusions[k]
            picked = before.sample(len(binder), need)
            return Action(FUSE, index=tier, cards=tuple([binder[i] for i in sorted(picked)]))
        k -= len(fusions)
        for q, wanted in trades:
            if k < len(wanted):
                return Action(TRADE, cards=(sorted(wanted)[k],), other=q)
            k -= len(wanted)
        raise AssertionError("a drawn action past the legal ones")

    def accepts_trade(self, state: MarketState, p: int, card: int) -> bool:
        """Half the time."""
        return state.rng.coin()

    def pick_metagame(self, state: MarketState, p: int, stack: int, seen: Sequence[int]) -> int:
        """The Power Creep's power: one of the seen cards, uniformly."""
        return state.rng.below(len(seen))

    def deck(self, state: MarketState, p: int) -> list[int]:
        """A random legal deck: the binder's distinct cards in random order, each kind filled to its limit (drawn
        already by the compiled segments when `round_end` has it)."""
        found = round_end(state, p)
        if found is not None:
            return list(found.deck)
        distinct = sorted(set(state.seats[p].binder))
        order = state.rng.permutation(len(distinct))
        return legal_part(state.cards, [distinct[i] for i in order])

    def collection(self, state: MarketState, p: int, deck: Sequence[int]) -> list[int]:
        """A random symbol's cards outside the deck, one per star rating, a random size from 2 up (none if none;
        drawn already by the compiled segments when `round_end` has it for `deck`)."""
        found = round_end(state, p)
        if found is not None and list(deck) == found.deck:
            return list(found.collections[0])
        rest = list(state.seats[p].binder)
        for c in deck:
            rest.remove(c)
        groups = [g for g in collection_groups(state.cards, rest).values() if len(g) >= 2]
        if not groups:
            return []
        group = groups[state.rng.below(len(groups))]
        chosen = list(group.values())
        size = state.rng.between(2, min(len(chosen), state.cards.collection_max) + 1)
        order = state.rng.permutation(len(chosen))
        return [chosen[i] for i in order[:size]]

    def duel_collections(self, state: MarketState, p: int, deck: Sequence[int]) -> tuple[list[int], list[int]]:
        """Duel Mode: for each of the two categories in turn, a random symbol's cards of those left, one per star
        rating, a random size from 2 up (none if none; drawn already by the compiled segments when `round_end` has
        them for `deck`)."""
        found = round_end(state, p)
        if found is not None and list(deck) == found.deck:
            return list(found.collections[0]), list(found.collections[1])
        rest = list(state.seats[p].binder)
        for c in deck:
            rest.remove(c)
        picked: list[list[int]] = []
        for category in DUEL_KINDS:
            groups = [g for s, g in collection_groups(state.cards, rest).items() if s[0] == category and len(g) >= 2]
            if not groups:
                picked.append([])
                continue
            chosen = list(groups[state.rng.below(len(groups))].values())
            size = state.rng.between(2, min(len(chosen), state.cards.collection_max) + 1)
            order = state.rng.permutation(len(chosen))
            picked.append([chosen[i] for i in order[:size]])
            for c in picked[-1]:
                rest.remove(c)
        return picked[0], picked[1]


# ---- search: greedy's purchases played out in compiled tournaments -------------------------------------------------

SEARCH_CANDIDATES = 4
"""Purchases the search plays out at one decision: the best by greedy's value per dollar (so a purchase greedy
prices below its cost can still be found worth it)."""
SEARCH_SAMPLES = 4
"""Sampled worlds per decision, each an opponent deck and a card for every face-down store candidate; the
`market_search_clashes` budget is shared out among them."""
DEFAULT_CLASHES = 8
"""`market_search_clashes` when the options do not say (tests that build options by hand)."""


def unseen_pool(state: MarketState, p: int) -> list[int]:
    """The store's cards seat p has not seen anywhere: every store copy less its own binder, the aftermarket and
    the cards the table saw other seats take (`MarketState.shown`); sorted, so a draw from it depends on which cards
    are unseen, never on where they lie. The store's order, the store area's faces and the other binders' hidden
    cards are all in here, as one pool."""
    counts = Counter(state.cards.store_cards)
    for c in state.seats[p].binder:
        counts[c] -= 1
    for listing in state.aftermarket:
        counts[listing.card] -= 1
    for q, shown in enumerate(state.shown):
        if q != p:
            for c in shown:
                counts[c] -= 1
    return [c for c in sorted(counts) for _ in range(max(counts[c], 0))]


def known_metagame(state: MarketState) -> np.ndarray:
    """The metagame stacks as the tournament engine reads them (`meta[m, 0]` cards in `meta[m, 1:]`, one drawn per
    tournament), from what every seat knows: a revealed card alone; a stack not revealed yet this round (the Type
    Meta before the first timer ends) as the cards still in it, sorted (its order is hidden, so any of them may be
    its top card); an empty stack as none."""
    meta = state.cards.compiled.extra["meta"]
    known = np.zeros_like(meta)
    for m in range(min(meta.shape[0], len(state.meta_stacks))):
        if state.metagame[m] >= 0:
            known[m, 0], known[m, 1] = 1, state.metagame[m]
        else:
            left = sorted(state.meta_stacks[m])
            known[m, 0] = len(left)
            known[m, 1 : 1 + len(left)] = left
    return known


def sample_binder(state: MarketState, q: int, pool: Sequence[int], rng: MarketRng) -> list[int]:
    """Seat q's binder as another seat can imagine it: the cards the table saw it take, and as many cards drawn
    from the unseen pool as it holds beyond those (how many cards a seat holds is seen)."""
    known = list(state.shown[q])
    hidden = min(max(0, len(state.seats[q].binder) - len(known)), len(pool))
    if not hidden:
        return known
    return known + [pool[i] for i in rng.sample(len(pool), hidden)]


class Outlook:
    """The sampled tournaments one search decision scores decks in, built from what seat p can know.

    Each of the SEARCH_SAMPLES worlds has an opponent deck (greedy's best deck from `sample_binder` of the other
    seats in turn), a share of the clash budget as tournament seeds, a store for the clashes to reveal from (the
    aftermarket's cards and the rest of the store's size drawn from the unseen pool: a real game's store runs low as
    the binders fill, which the full store of the card sheet would not show), and one uniform draw that picks the
    card of a face-down store candidate from its set. Its tournaments are scored under the metagame as the seat
    knows it (`known_metagame`), and the opponents' decks are greedy's under the revealed cards. Every deck meets
    the same worlds (common random numbers), so the difference between two decks is the cards', not the dice's. A
    deck's score in a world is its mean RP over that world's tournaments, played by the engine's batch entry point
    with every seat's table at the game's player count: the deck as seat A, the world's opponent deck at every
    other seat, greedy play throughout."""

    def __init__(self, state: MarketState, p: int, clashes: int, rng: MarketRng) -> None:
        cards = state.cards
        self.valuation = valuation(cards, revealed_metagame(state))
        options = cards.compiled.options.copy()
        options[tournament.O_PLAYERS] = state.players
        self.samples = max(1, min(SEARCH_SAMPLES, clashes))
        per = -(-clashes // self.samples)
        pool = unseen_pool(state, p)
        others = [q for q in range(state.players) if q != p]
        self.opponents = [
            np.array(self.valuation.best_deck(sample_binder(state, others[s % len(others)], pool, rng)), dtype=np.int64)
            for s in range(self.samples)
        ]
        # The store the tournament's clashes reveal from: as many cards as lie in the store, its discard, the store
        # area and the aftermarket (counts anyone sees), the aftermarket's own, the rest drawn from the unseen pool.
        shown = [listing.card for listing in state.aftermarket]
        size = len(state.store_deck) + len(state.store_discard) + len(state.store_area)
        self.compiled: list[CompiledCards] = []
        meta = known_metagame(state)
        for _ in range(self.samples):
            drawn = [pool[i] for i in rng.sample(len(pool), min(size, len(pool)))]
            store = np.array(sorted(shown + drawn), dtype=np.int64)
            extra = {**cards.compiled.extra, "store": store, "meta": meta}
            self.compiled.append(dataclasses.replace(cards.compiled, options=options, extra=extra))
        self.seeds = np.array([[rng.seed() for _ in range(per)] for _ in range(self.samples)], dtype=np.int64)
        # Seat A opens in the first half of the turn order in every other tournament (the engine's `first`).
        self.first = [((np.arange(per) + s) % 2).astype(np.int8) for s in range(self.samples)]
        self.draws = np.array([rng.unit() for _ in range(self.samples)])
        self.tournaments = 0
        """Tournaments played so far at this decision."""
        self._rp: dict[tuple[tuple[int, ...], int], float] = {}

    def rp(self, deck: tuple[int, ...], s: int) -> float:
        """The deck's mean RP in world s (remembered: candidates often build the same deck)."""
        key = (deck, s)
        found = self._rp.get(key)
        if found is None:
            result = tournament.play_batch_detailed(
                self.compiled[s],
                np.array(deck, dtype=np.int64),
                self.opponents[s],
                self.seeds[s],
                self.first[s],
                GREEDY,
                GREEDY,
            )
            self.tournaments += len(self.seeds[s])
            found = self._rp[key] = float(np.mean(result["rp_a"]))
        return found

    def draw(self, outcomes: Sequence[tuple[int, float]], s: int) -> int:
        """World s's card of a candidate: the one card of a face-up purchase, or a face-down card of its set by
        the world's draw (the set's cards by copies, `set_distribution`)."""
        if len(outcomes) == 1:
            return outcomes[0][0]
        total = 0.0
        for card, probability in outcomes:
            total += probability
            if self.draws[s] < total:
                return card
        return outcomes[-1][0]

    def worth(
        self, appraisal: Appraisal, binder: Sequence[int], outcomes: Sequence[tuple[int, float]], resale: bool
    ) -> float:
        """Dollars a purchase is worth, greedy's `worth` (or `use_worth` without `resale`) with the deck value
        played out: per world, DECK_DOLLARS per RP the deck built with the card gains over the seat's deck now (0
        when the card leaves the deck as it is), against the collection value and the resale; averaged over the
        worlds."""
        cards = appraisal.cards
        base = tuple(appraisal.deck)
        rate = DECK_DOLLARS if appraisal.duel else float(MONEY_PER_VP)
        total = 0.0
        for s in range(self.samples):
            card = self.draw(outcomes, s)
            gain = 0.0
            if card not in appraisal.owned:
                deck = self.valuation.best_deck([*binder, card])
                if deck != base:
                    gain = max(0.0, self.rp(deck, s) - self.rp(base, s))
            value = max(DECK_DOLLARS * gain, rate * appraisal.collection_gain(card))
            if resale and appraisal.can_resell:
                value = max(value, float(cards.stars[card]))
            total += value
        return total / self.samples


class SearchMarket(GreedyMarket):
    """Greedy's purchases, compared by playing them out (module docstring, "search").

    At each turn greedy's candidate purchases that the seat can see (a face-down card of each set in the store
    area, the aftermarket, trades for cards the table saw another seat take) are ranked by greedy's value per
    dollar; the best SEARCH_CANDIDATES are priced again with the deck value measured in compiled tournaments
    (`Outlook`), and the best value per dollar that is worth more than its price is bought, as greedy would. Without
    one, greedy's fusion, sale or pass, with the promo piles taken to hold the tier's promos the seat does not own.
    It never peeks: the other seats' hidden cards, the store's order and its face-down cards are sampled from the
    unseen pool; decks, collections and trade answers are greedy's. Its tournaments are played by the engine's
    `search` policy."""

    def __init__(self) -> None:
        super().__init__()
        self.decisions = 0
        """Decisions played out in this game."""
        self.tournaments = 0
        """Tournaments played for them."""

    def act(self, state: MarketState, p: int) -> Action:
        """The best purchase by played-out value per dollar, else greedy's fusion, sale or pass."""
        cards = state.cards
        seat = state.seats[p]
        appraisal = self.appraise(state, p)
        offers: list[tuple[float, int, Action, list[tuple[int, float]], bool]] = []
        sets: set[tuple[int, int]] = set()
        for index, card in enumerate(state.store_area):
            # A face-down card shows its set and buy cost only: one offer per (set, cost), its first card.
            key = (int(cards.set_of[card]), int(cards.price[card]))
            if key in sets:
                continue
            sets.add(key)
            distribution = self._distributions.setdefault(key[0], set_distribution(cards, key[0]))
            worth = appraisal.set_worths[key[0]]
            offers.append((worth, key[1], Action(BUY_STORE, index=index), distribution, True))
        for index, listing in enumerate(state.aftermarket):
            if listing.owner != p:
                price = aftermarket_price(state, p, listing.card)
                action = Action(BUY_AFTERMARKET, index)
                offers.append((appraisal.use_worth(listing.card), price, action, [(listing.card, 1.0)], False))
        if bool(cards.options["trades"]):
            for k in range(1, state.players):
                q = (p + k) % state.players
                for card in sorted(set(state.shown[q]) - appraisal.owned):
                    if (state.round, state.segment, p, q, card) in self.refused:
                        continue
                    action = Action(TRADE, cards=(card,), other=q)
                    offers.append((appraisal.use_worth(card), int(cards.stars[card]), action, [(card, 1.0)], False))
        offers = [offer for offer in offers if legal(state, p, offer[2])]
        if offers:
            ranked = sorted(range(len(offers)), key=lambda i: (-offers[i][0] / max(offers[i][1], 1), i))
            clashes = int(cards.options.get("market_search_clashes", DEFAULT_CLASHES))
            outlook = Outlook(state, p, clashes, MarketRng(state.rng.seed()))
            best: tuple[float, float, int, Action] | None = None
            for i in sorted(ranked[:SEARCH_CANDIDATES]):
                _, price, action, outcomes, resale = offers[i]
                worth = outlook.worth(appraisal, seat.binder, outcomes, resale)
                if worth > price and (best is None or worth / max(price, 1) > best[0]):
                    best = (worth / max(price, 1), worth, price, action)
            self.decisions += 1
            self.tournaments += outlook.tournaments
            if best is not None:
                _, worth, price, action = best
                if action.kind == TRADE:
                    friendship = worth - price >= FRIENDSHIP_MARGIN and seat.friendship_left > 0 and not state.duel
                    action = dataclasses.replace(action, friendship=friendship)
                    self.refused.add((state.round, state.segment, p, action.other, action.cards[0]))
                return action
        # The piles' order and which promos others took are hidden: a pile holds its tier's promos not in the binder.
        owned = set(seat.binder)
        piles = [[c for c in pile if c not in owned] for pile in cards.promo_piles]
        return self.no_purchase(state, p, appraisal, piles)


MARKET_POLICIES = ("greedy", "random", "search")
"""Policy names, index = the code the tournament engine is given (0 greedy, 1 random, 2 search)."""


def make_policy(name: str) -> GreedyMarket | RandomMarket:
    """A fresh policy object by name (greedy and search remember refused trades for one game)."""
    if name == "greedy":
        return GreedyMarket()
    if name == "random":
        return RandomMarket()
    if name == "search":
        return SearchMarket()
    raise ValueError(f"unknown market policy '{name}': expected one of {', '.join(MARKET_POLICIES)}")
