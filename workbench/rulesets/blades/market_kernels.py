"""The timer segments of the whole game's deckbuilding phase, compiled, for tables of greedy and random seats: issue
33's compiled market, its first part (the segments were most of a whole game's time: docs/benchmarks.md).

`play_segments` plays what `market.run_segments` plays (a round's market: the opening deal and the store filled, then
its three segments with the deal after the first) or
`market.run_segment` (one) with `market_policy.GreedyMarket` or `RandomMarket` at each
seat: turns of one action round the order until every seat has passed in a row or used its actions, each action the
seat's policy's (greedy's `act`: the best value per dollar in the store, the aftermarket and the other binders, else
a fusion, a sale or a pass; random's: a uniform draw over the legal actions), applied by `market.apply`'s rules, with
the game's generator stepped draw for draw as the Python market steps it.
The arithmetic is the Python's, operation for operation (the same floats compared in the same order, ties broken
the same way), so the segment leaves the state the Python one leaves: `market_segments` packs the state into these
arrays and back, and tests/rulesets/blades/test_blades_market_segments.py holds the two to identical games.

Pure: numpy and numba only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engines import EngineInt, IntArray, kernel, rng_below, rng_next
from workbench.rulesets.blades.appraisal_kernels import (
    COUNTS,
    F_SLOT,
    F_STARS,
    FLOAT_BLOCKS,
    FLOAT_USE_WORTHS,
    NO_CATEGORY,
    NO_SLOT,
    appraise_binder,
    collection_groups,
    group_room,
    without,
)

BUY_STORE, BUY_AFTERMARKET, SELL, FUSE, TRADE, PASS = range(6)
"""Action kinds, as `market` numbers them."""
STORE_AREA = 10
"""Face-down cards showing in the store (`market.STORE_AREA`)."""
FUSION_CARDS = (5, 7, 9)
"""Cards a bronze, silver and gold fusion spends (`market.FUSION_CARDS`)."""
(
    A_KIND,
    A_INDEX,
    A_OTHER,
    A_FRIENDSHIP,
    A_CARDS_N,
) = range(5)
"""Fields of a decided action (`greedy_act`'s `action`): kind, store / aftermarket position or fusion tier, the other
seat of a trade, 1 when a Friendship card goes with it, how many cards it names; the cards follow from A_CARDS."""
A_CARDS = 5
"""Where a decided action's cards start."""
(S_STORE_DECK, S_STORE_AREA, S_STORE_DISCARD, S_AFTERMARKET) = range(4)
"""Lengths of the store's piles and the aftermarket (`sizes`)."""
(SEAT_MONEY, SEAT_MARKERS, SEAT_FRIENDSHIP_LEFT, SEAT_BINDER_N, SEAT_SHOWN_N, SEAT_DISCOUNT, SEAT_SELL_BONUS) = range(7)
"""Columns of `seats`, one row a seat: dollars, sell markers in hand, Friendship cards left, binder and shown cards
held, and its character's aftermarket discount and sell bonus (0 without)."""
SEAT_FUSION_CUT = 7
"""`seats`' column of the cards fewer a fusion costs the seat (Cardine's figure)."""
SEAT_FUSED = 8
"""`seats`' first of three columns: 1 where the seat made that tier's fusion this round."""
SEAT_COLUMNS = 11
"""Columns of `seats`."""
GREEDY, RANDOM = 0, 1
"""A seat's market policy (`market_policy.MARKET_POLICIES`' codes; search seats are never compiled)."""
FRIENDSHIP_MARGIN = 4.0
"""`market_policy.FRIENDSHIP_MARGIN`."""
FUSION_SHARE = 0.5
"""`market_policy.FUSION_SHARE`."""
LAST_CALL = 2
"""The segment in which the aftermarket takes no sales (`market.LAST_CALL`)."""
SEGMENTS = 3
"""Timer segments a round (`market.SEGMENTS`): after the last, each seat's end of deckbuilding (`play_segments`'
`ends`)."""


@kernel
def draw_store(store_deck: IntArray, store_discard: IntArray, sizes: IntArray, words: IntArray) -> int:
    """`market.draw_store`: the top card of the store (a uniform draw from the undrawn cards), the store discard
    turned into the store first when the store is empty; -1 when both are."""
    if sizes[S_STORE_DECK] == 0:
        if sizes[S_STORE_DISCARD] == 0:
            return -1
        for k in range(sizes[S_STORE_DISCARD]):
            store_deck[k] = store_discard[k]
        sizes[S_STORE_DECK] = sizes[S_STORE_DISCARD]
        sizes[S_STORE_DISCARD] = 0
    n = sizes[S_STORE_DECK]
    j = rng_below(words, n)
    card = store_deck[j]
    store_deck[j] = store_deck[n - 1]
    sizes[S_STORE_DECK] = n - 1
    return card


@kernel
def remove_first(values: IntArray, n: EngineInt, card: EngineInt) -> EngineInt:
    """`list.remove`: the first copy of `card` taken out of `values[:n]`, the rest moved up; the new length (n when
    no copy is there)."""
    for k in range(n):
        if values[k] == card:
            for i in range(k, n - 1):
                values[i] = values[i + 1]
            return n - 1
    return n


@kernel
def appraise_seat(
    q: EngineInt,
    seats: IntArray,
    binders: IntArray,
    appraised: IntArray,
    ints: IntArray,
    floats: Any,
    duel: bool,
    can_resell: bool,
    most: EngineInt,
    tables: Any,
) -> None:
    """Seat q's appraisal (`market_policy.appraise`) into its rows of `ints` and `floats`, made unless already made
    for its binder as it is (`appraised[q]`)."""
    if appraised[q] == 1:
        return
    (facts, category_of, limits, collection_vp, set_cards, set_chances, value_ints, value_floats, numbers, duel_rp) = (
        tables
    )
    appraise_binder(
        binders[q, : seats[q, SEAT_BINDER_N]],
        duel,
        can_resell,
        most,
        facts,
        category_of,
        limits,
        collection_vp,
        set_cards,
        set_chances,
        value_ints,
        value_floats,
        numbers,
        duel_rp,
        ints[q],
        floats[q],
    )
    appraised[q] = 1


@kernel
def greedy_act(
    p: EngineInt,
    seats: IntArray,
    binders: IntArray,
    store_area: IntArray,
    after_card: IntArray,
    after_owner: IntArray,
    sizes: IntArray,
    pile_n: IntArray,
    piles: IntArray,
    refused: IntArray,
    appraised: IntArray,
    ints: IntArray,
    floats: Any,
    price: IntArray,
    set_of: IntArray,
    duel: bool,
    can_sell: bool,
    trades_on: bool,
    most: EngineInt,
    tables: Any,
    action: IntArray,
    scratch: Any,
) -> None:
    """`GreedyMarket.act` for seat p, written into `action` (A_* fields). `scratch` holds its working room."""
    facts = tables[0]
    n = seats.shape[0]
    n_cards = facts.shape[0]
    can_resell = can_sell
    appraise_seat(p, seats, binders, appraised, ints, floats, duel, can_resell, most, tables)
    use_worths = floats[p, FLOAT_USE_WORTHS * n_cards : (FLOAT_USE_WORTHS + 1) * n_cards]
    set_worths = floats[p, FLOAT_BLOCKS * n_cards :]
    money = seats[p, SEAT_MONEY]
    best_ratio = 0.0
    best_kind = -1
    best_index = -1
    best_other = -1
    best_card = -1
    best_friendship = 0
    for index in range(sizes[S_STORE_AREA]):
        card = store_area[index]
        cost = price[card]
        if cost > money:
            continue
        worth = set_worths[set_of[card]]
        if worth > cost:
            ratio = worth / max(cost, 1)
            if best_kind < 0 or ratio > best_ratio:
                best_ratio, best_kind, best_index = ratio, BUY_STORE, index
    discount = seats[p, SEAT_DISCOUNT]
    for index in range(sizes[S_AFTERMARKET]):
        if after_owner[index] == p:
            continue
        card = after_card[index]
        cost = max(0, facts[card, F_STARS] - discount)
        if cost > money:
            continue
        worth = use_worths[card]
        if worth > cost:
            ratio = worth / max(cost, 1)
            if best_kind < 0 or ratio > best_ratio:
                best_ratio, best_kind, best_index = ratio, BUY_AFTERMARKET, index
    if trades_on:
        (owned, mark, trade_ratio, trade_q, trade_card, trade_worth) = scratch
        for c in range(n_cards):
            owned[c] = 0
        for k in range(seats[p, SEAT_BINDER_N]):
            owned[binders[p, k]] = 1
        m = 0
        for k in range(1, n):
            q = (p + k) % n
            appraise_seat(q, seats, binders, appraised, ints, floats, duel, can_resell, most, tables)
            # `Appraisal.offered`: the distinct cards q owns outside its deck and collection, ascending.
            for c in range(n_cards):
                mark[c] = 0
            for i in range(seats[q, SEAT_BINDER_N]):
                mark[binders[q, i]] = 1
            kept_end = COUNTS + ints[q, 0] + ints[q, 1]
            for i in range(COUNTS, kept_end):
                mark[ints[q, i]] = 0
            for card in range(n_cards):
                if mark[card] == 0 or owned[card] == 1:
                    continue
                cost = facts[card, F_STARS]
                if cost > money:
                    continue
                worth = use_worths[card]
                if worth > cost and refused[p, q, card] == 0:
                    ratio = worth / max(cost, 1)
                    # Inserted by descending value per dollar, after the equal ones (the Python sort's order).
                    i = m
                    while i > 0 and ratio > trade_ratio[i - 1]:
                        trade_ratio[i] = trade_ratio[i - 1]
                        trade_q[i] = trade_q[i - 1]
                        trade_card[i] = trade_card[i - 1]
                        trade_worth[i] = trade_worth[i - 1]
                        i -= 1
                    trade_ratio[i], trade_q[i], trade_card[i], trade_worth[i] = ratio, q, card, worth
                    m += 1
        if m > 0 and (best_kind < 0 or trade_ratio[0] > best_ratio):
            card = trade_card[0]
            cost = facts[card, F_STARS]
            friendship = trade_worth[0] - cost >= FRIENDSHIP_MARGIN and seats[p, SEAT_FRIENDSHIP_LEFT] > 0 and not duel
            best_ratio, best_kind, best_other, best_card = trade_ratio[0], TRADE, trade_q[0], card
            best_friendship = 1 if friendship else 0
    action[A_INDEX], action[A_OTHER], action[A_FRIENDSHIP], action[A_CARDS_N] = best_index, best_other, 0, 0
    if best_kind >= 0:
        action[A_KIND] = best_kind
        if best_kind == TRADE:
            refused[p, best_other, best_card] = 1
            action[A_FRIENDSHIP] = best_friendship
            action[A_CARDS] = best_card
            action[A_CARDS_N] = 1
        return
    greedy_no_purchase(p, seats, piles, pile_n, ints, use_worths, facts, can_sell, action)


@kernel
def greedy_no_purchase(
    p: EngineInt,
    seats: IntArray,
    piles: IntArray,
    pile_n: IntArray,
    ints: IntArray,
    use_worths: Any,
    facts: IntArray,
    can_sell: bool,
    action: IntArray,
) -> None:
    """`GreedyMarket.no_purchase`: fuse the cheapest spare cards when the pile is worth more than FUSION_SHARE of
    their stars (the highest tier first), else sell the most expensive spare card, else pass."""
    n_spare = ints[p, 2]
    start = COUNTS + ints[p, 0] + ints[p, 1]
    spare = np.empty(n_spare, dtype=np.int64)
    for k in range(n_spare):
        spare[k] = ints[p, start + k]
    # Sorted by (stars, card), as `sorted(spare, key=...)` sorts them.
    for i in range(1, n_spare):
        c = spare[i]
        j = i - 1
        while j >= 0 and (
            facts[spare[j], F_STARS] > facts[c, F_STARS]
            or (facts[spare[j], F_STARS] == facts[c, F_STARS] and spare[j] > c)
        ):
            spare[j + 1] = spare[j]
            j -= 1
        spare[j + 1] = c
    if seats[p, SEAT_MARKERS] > 0:
        for tier in range(2, -1, -1):
            need = max(1, FUSION_CARDS[tier] - seats[p, SEAT_FUSION_CUT])
            if seats[p, SEAT_FUSED + tier] == 1 or pile_n[tier] == 0 or seats[p, SEAT_BINDER_N] < need:
                continue
            if n_spare < need:
                continue
            total = 0.0
            for k in range(pile_n[tier]):
                total += use_worths[piles[tier, k]]
            promo_worth = total / pile_n[tier]
            spent_stars = 0
            for k in range(need):
                spent_stars += facts[spare[k], F_STARS]
            if promo_worth > FUSION_SHARE * spent_stars:
                action[A_KIND], action[A_INDEX], action[A_CARDS_N] = FUSE, tier, need
                for k in range(need):
                    action[A_CARDS + k] = spare[k]
                return
    if can_sell and seats[p, SEAT_MARKERS] > 0 and n_spare > 0:
        action[A_KIND], action[A_CARDS_N], action[A_CARDS] = SELL, 1, spare[n_spare - 1]
        return
    action[A_KIND] = PASS


@kernel
def random_act(
    p: EngineInt,
    seats: IntArray,
    binders: IntArray,
    store_area: IntArray,
    after_owner: IntArray,
    after_card: IntArray,
    sizes: IntArray,
    pile_n: IntArray,
    price: IntArray,
    facts: IntArray,
    can_sell: bool,
    trades_on: bool,
    words: IntArray,
    action: IntArray,
    mark: IntArray,
) -> None:
    """`RandomMarket.act` for seat p, written into `action`: one of the legal actions, uniformly, in the order the
    Python lists them (pass, store, aftermarket, sales, fusions, trades), drawn after the draws of every possible
    fusion's cards (made whether or not a fusion is drawn: the game's sequence holds them)."""
    n = seats.shape[0]
    n_cards = facts.shape[0]
    money = seats[p, SEAT_MONEY]
    n_binder = seats[p, SEAT_BINDER_N]
    n_store = 0
    for index in range(sizes[S_STORE_AREA]):
        if money >= price[store_area[index]]:
            n_store += 1
    discount = seats[p, SEAT_DISCOUNT]
    n_market = 0
    for index in range(sizes[S_AFTERMARKET]):
        if after_owner[index] != p and money >= max(0, facts[after_card[index], F_STARS] - discount):
            n_market += 1
    n_sales = 0
    if can_sell and seats[p, SEAT_MARKERS] > 0:
        n_sales = distinct_marked(binders, seats, p, mark, n_cards)
    # `market.open_fusions`, the lowest tier first; each fusion's sample is drawn from the words before its draws.
    fusion_tier = np.empty(3, dtype=np.int64)
    fusion_need = np.empty(3, dtype=np.int64)
    fusion_words = np.empty((3, 4), dtype=np.int64)
    n_fusions = 0
    if seats[p, SEAT_MARKERS] > 0:
        for tier in range(3):
            need = max(1, FUSION_CARDS[tier] - seats[p, SEAT_FUSION_CUT])
            if seats[p, SEAT_FUSED + tier] == 0 and pile_n[tier] > 0 and n_binder >= need:
                fusion_tier[n_fusions], fusion_need[n_fusions] = tier, need
                for w in range(4):
                    fusion_words[n_fusions, w] = words[w]
                for _ in range(need):
                    rng_next(words)
                n_fusions += 1
    n_trades = 0
    if trades_on:
        for q in range(n):
            if q != p:
                n_trades += affordable_distinct(binders, seats, q, mark, n_cards, money, facts)
    k = rng_below(words, 1 + n_store + n_market + n_sales + n_fusions + n_trades)
    action[A_INDEX], action[A_OTHER], action[A_FRIENDSHIP], action[A_CARDS_N] = -1, -1, 0, 0
    if k == 0:
        action[A_KIND] = PASS
        return
    k -= 1
    if k < n_store:
        for index in range(sizes[S_STORE_AREA]):
            if money >= price[store_area[index]]:
                if k == 0:
                    action[A_KIND], action[A_INDEX] = BUY_STORE, index
                    return
                k -= 1
    k -= n_store
    if k < n_market:
        for index in range(sizes[S_AFTERMARKET]):
            if after_owner[index] != p and money >= max(0, facts[after_card[index], F_STARS] - discount):
                if k == 0:
                    action[A_KIND], action[A_INDEX] = BUY_AFTERMARKET, index
                    return
                k -= 1
    k -= n_market
    if k < n_sales:
        distinct_marked(binders, seats, p, mark, n_cards)
        action[A_KIND], action[A_CARDS_N], action[A_CARDS] = SELL, 1, kth_marked(mark, n_cards, k)
        return
    k -= n_sales
    if k < n_fusions:
        need = fusion_need[k]
        # `MarketRng.sample(len(binder), need)` from the words before this fusion's draws: Fisher-Yates from the
        # front, stopped after `need`; the binder's cards at the sampled places, in binder order.
        places = np.empty(n_binder, dtype=np.int64)
        for i in range(n_binder):
            places[i] = i
        sample_words = fusion_words[k].copy()
        for i in range(need):
            j = i + rng_below(sample_words, n_binder - i)
            places[i], places[j] = places[j], places[i]
        for i in range(n_binder):
            mark[i] = 0
        for i in range(need):
            mark[places[i]] = 1
        action[A_KIND], action[A_INDEX], action[A_CARDS_N] = FUSE, fusion_tier[k], need
        m = 0
        for i in range(n_binder):
            if mark[i] == 1:
                action[A_CARDS + m] = binders[p, i]
                m += 1
        return
    k -= n_fusions
    for q in range(n):
        if q == p:
            continue
        wanted = affordable_distinct(binders, seats, q, mark, n_cards, money, facts)
        if k < wanted:
            action[A_KIND], action[A_OTHER], action[A_CARDS_N] = TRADE, q, 1
            action[A_CARDS] = kth_marked(mark, n_cards, k)
            return
        k -= wanted


@kernel
def distinct_marked(binders: IntArray, seats: IntArray, q: EngineInt, mark: IntArray, n_cards: EngineInt) -> int:
    """Seat q's distinct cards marked 1 in `mark` (the others 0); how many."""
    for c in range(n_cards):
        mark[c] = 0
    for i in range(seats[q, SEAT_BINDER_N]):
        mark[binders[q, i]] = 1
    count = 0
    for c in range(n_cards):
        count += mark[c]
    return count


@kernel
def affordable_distinct(
    binders: IntArray, seats: IntArray, q: EngineInt, mark: IntArray, n_cards: EngineInt, money: EngineInt, facts: Any
) -> int:
    """Seat q's distinct cards whose star rating `money` pays, marked 1 in `mark`; how many."""
    distinct_marked(binders, seats, q, mark, n_cards)
    count = 0
    for c in range(n_cards):
        if mark[c] == 1 and facts[c, F_STARS] > money:
            mark[c] = 0
        count += mark[c]
    return count


@kernel
def kth_marked(mark: IntArray, n_cards: EngineInt, k: EngineInt) -> int:
    """The k-th card (from 0, ascending) marked 1 in `mark`."""
    for c in range(n_cards):
        if mark[c] == 1:
            if k == 0:
                return c
            k -= 1
    return -1


@kernel
def play_segments(
    from_segment: EngineInt,
    to_segment: EngineInt,
    order: IntArray,
    policy_of: IntArray,
    limit: EngineInt,
    duel: bool,
    trades_on: bool,
    most: EngineInt,
    first: EngineInt,
    opening_deal: EngineInt,
    deal_count: EngineInt,
    seats: IntArray,
    friendship_from: IntArray,
    binders: IntArray,
    shown: IntArray,
    store_deck: IntArray,
    store_area: IntArray,
    store_discard: IntArray,
    after_card: IntArray,
    after_owner: IntArray,
    sizes: IntArray,
    piles: IntArray,
    pile_n: IntArray,
    words: IntArray,
    bought: IntArray,
    bought_by_seat: IntArray,
    price: IntArray,
    set_of: IntArray,
    tables: Any,
    later_tables: Any,
    ends: IntArray,
) -> tuple[int, int]:
    """The timer segments `from_segment` to `to_segment` - 1 of a round on the packed state, seat p playing
    `GreedyMarket` where `policy_of[p]` is GREEDY and `RandomMarket` where it is RANDOM: a round's three
    (`market.run_segments`: 0 to 3) or one (`market.run_segment`). The first segment under `tables`, the later ones
    under `later_tables` (the valuation after the Type metagame card is revealed). From the round's first segment,
    `opening_deal` cards dealt to each seat first and the store's face-down cards filled (`market.deal`,
    `market.fill_store_area`: the opening of the round's market); between the first segment and the second,
    `deal_count` cards dealt to each seat; every deal from the store round the table from seat `first`. The
    aftermarket takes sales before LAST_CALL. How many actions were applied, and how many cards the store could not
    deal. One kernel for both, as each kernel that calls `segment_turns` compiles it again.

    After the round's last segment, each seat's end of deckbuilding in its row of `ends` (COUNTS + the binders'
    room words, laid out as `appraise_binder`'s ints: the counts, the deck, the collection or Duel Mode's two): a
    greedy seat's appraisal of its binder then (`appraise_seat`: the one its last turn made when the binder has not
    changed since), the deck and collection greedy turns in (`market_policy.GreedyMarket.deck`); a random seat's
    deck and collections drawn from the game's generator (`random_round_end`), in seat order, as `RandomMarket`
    would draw them at the end of deckbuilding (nothing draws in between), so the market must take them from here
    (`market_segments`, `MarketState.round_end`)."""
    work = segment_work(seats, binders, tables)
    applied = 0
    short = 0
    if from_segment == 0 and opening_deal > 0:
        short += deal(opening_deal, first, seats, binders, store_deck, store_discard, sizes, words)
        fill_store(store_deck, store_area, store_discard, sizes, words)
    for segment in range(from_segment, to_segment):
        if segment == 1 and from_segment < 1:
            short += deal(deal_count, first, seats, binders, store_deck, store_discard, sizes, words)
        applied += segment_turns(
            order,
            policy_of,
            limit,
            duel,
            segment < LAST_CALL,
            trades_on,
            most,
            seats,
            friendship_from,
            binders,
            shown,
            store_deck,
            store_area,
            store_discard,
            after_card,
            after_owner,
            sizes,
            piles,
            pile_n,
            words,
            bought,
            bought_by_seat,
            price,
            set_of,
            tables if segment == from_segment else later_tables,
            work,
        )
    if to_segment == SEGMENTS:
        (appraised, ints, floats, _, _, _) = work
        last = tables if to_segment - 1 == from_segment else later_tables
        for p in range(seats.shape[0]):
            if policy_of[p] == GREEDY:
                appraise_seat(p, seats, binders, appraised, ints, floats, duel, False, most, last)
                kept = COUNTS + ints[p, 0] + ints[p, 1]
                for k in range(kept):
                    ends[p, k] = ints[p, k]
            else:
                binder = binders[p, : seats[p, SEAT_BINDER_N]]
                random_round_end(binder, duel, most, last[0], last[1], last[2], words, ends[p])
    return applied, short


@kernel
def permutation(n: EngineInt, words: IntArray) -> IntArray:
    """`MarketRng.permutation(n)`: 0..n-1 shuffled by Fisher-Yates from the back, place i swapped with
    `below(i + 1)`."""
    values = np.empty(n, dtype=np.int64)
    for i in range(n):
        values[i] = i
    for i in range(n - 1, 0, -1):
        j = rng_below(words, i + 1)
        values[i], values[j] = values[j], values[i]
    return values


@kernel
def random_collection(
    pool: IntArray,
    n_pool: EngineInt,
    category: EngineInt,
    most: EngineInt,
    facts: IntArray,
    category_of: IntArray,
    words: IntArray,
    out: IntArray,
    at: EngineInt,
) -> EngineInt:
    """`RandomMarket.collection`'s draw from `pool[:n_pool]` (of `category`'s symbols only, unless NO_CATEGORY: Duel
    Mode's): the symbols' groups as `market_policy.collection_groups` makes them (one card per star rating, the first
    seen; symbols and ratings in the order first met: a Python dict's), a uniform one of those with two cards or
    more, a uniform size from 2 to its cards (at most `most`), its cards in a uniform order, the first `size`
    written into `out` from `at`; how many (0 when no group has two cards)."""
    group_card, group_size, seen, rated = group_room(facts, category_of.shape[0])
    n_seen = collection_groups(facts, pool, n_pool, group_card, group_size, seen, rated)
    eligible = np.empty(n_seen, dtype=np.int64)
    n_eligible = 0
    for k in range(n_seen):
        symbol = seen[k]
        if group_size[symbol] >= 2 and (category == NO_CATEGORY or category_of[symbol] == category):
            eligible[n_eligible] = symbol
            n_eligible += 1
    if n_eligible == 0:
        return 0
    symbol = eligible[rng_below(words, n_eligible)]
    chosen = group_size[symbol]
    size = 2 + rng_below(words, min(chosen, most) + 1 - 2)
    order = permutation(chosen, words)
    for i in range(size):
        out[at + i] = group_card[symbol, rated[symbol, order[i]]]
    return size


@kernel
def random_round_end(
    binder: IntArray,
    duel: bool,
    most: EngineInt,
    facts: IntArray,
    category_of: IntArray,
    limits: IntArray,
    words: IntArray,
    out: IntArray,
) -> None:
    """A random seat's end of deckbuilding, drawn from the game's generator as `RandomMarket` draws it: its deck
    (`deck`: the binder's distinct cards in a uniform order, each kind kept up to its limit in `limits`,
    `market.legal_part`), then its collection (`collection`) or Duel Mode's Elemental and Type ones
    (`duel_collections`) from the cards outside the deck. Written into `out` as `appraise_binder` writes its ints:
    the deck's and the collections' lengths (out[0], out[1]; Duel Mode's two at out[3], out[4]), then the deck and
    the collections."""
    n_binder = binder.shape[0]
    owned = np.zeros(facts.shape[0], dtype=np.bool_)
    for i in range(n_binder):
        owned[binder[i]] = True
    distinct = np.empty(n_binder, dtype=np.int64)
    n_distinct = 0
    for c in range(facts.shape[0]):
        if owned[c]:
            distinct[n_distinct] = c
            n_distinct += 1
    order = permutation(n_distinct, words)
    room = limits.copy()  # each deck kind's limit, by slot (`AppraisalTables.limits`)
    n_deck = 0
    for i in range(n_distinct):
        c = distinct[order[i]]
        slot = facts[c, F_SLOT]
        if slot != NO_SLOT and room[slot] > 0:
            room[slot] -= 1
            out[COUNTS + n_deck] = c
            n_deck += 1
    rest = np.empty(n_binder, dtype=np.int64)
    n_rest = without(binder, n_binder, out[COUNTS : COUNTS + n_deck], n_deck, rest, np.empty(n_deck, dtype=np.int64))
    # Typed for mypy only (numba ignores the annotation): a place in `out`, moved on by each collection's length.
    at: EngineInt = COUNTS + n_deck
    out[3] = 0
    out[4] = 0
    if not duel:
        out[1] = random_collection(rest, n_rest, np.int64(NO_CATEGORY), most, facts, category_of, words, out, at)
    else:
        left = np.empty(n_rest, dtype=np.int64)
        for category in range(2):
            n_picked = random_collection(rest, n_rest, np.int64(category), most, facts, category_of, words, out, at)
            out[3 + category] = n_picked
            n_rest = without(rest, n_rest, out[at : at + n_picked], n_picked, left, np.empty(n_picked, dtype=np.int64))
            rest[:n_rest] = left[:n_rest]
            at += n_picked
        out[1] = out[3] + out[4]
    out[0] = n_deck
    out[2] = 0


@kernel
def segment_work(seats: IntArray, binders: IntArray, tables: Any) -> Any:
    """The working room of a segment's turns (`segment_turns`): the seats' appraisals, refused trades, the decided
    action and greedy's scratch, sized for the binders' room."""
    facts = tables[0]
    n = seats.shape[0]
    n_cards = facts.shape[0]
    room = binders.shape[1]
    n_sets = tables[4].shape[0]
    return (
        np.zeros(n, dtype=np.int64),
        np.empty((n, COUNTS + room), dtype=np.int64),
        np.empty((n, FLOAT_BLOCKS * n_cards + n_sets), dtype=np.float64),
        np.zeros((n, n, n_cards), dtype=np.int64),
        np.empty(A_CARDS + room, dtype=np.int64),
        (
            np.empty(n_cards, dtype=np.int64),
            # Marks by card id, and (a random seat's fusion sample) by place in a binder, which may hold more cards
            # than the set has (copies).
            np.empty(max(n_cards, room), dtype=np.int64),
            np.empty(n * n_cards, dtype=np.float64),
            np.empty(n * n_cards, dtype=np.int64),
            np.empty(n * n_cards, dtype=np.int64),
            np.empty(n * n_cards, dtype=np.float64),
        ),
    )


@kernel
def segment_turns(
    order: IntArray,
    policy_of: IntArray,
    limit: EngineInt,
    duel: bool,
    can_sell: bool,
    trades_on: bool,
    most: EngineInt,
    seats: IntArray,
    friendship_from: IntArray,
    binders: IntArray,
    shown: IntArray,
    store_deck: IntArray,
    store_area: IntArray,
    store_discard: IntArray,
    after_card: IntArray,
    after_owner: IntArray,
    sizes: IntArray,
    piles: IntArray,
    pile_n: IntArray,
    words: IntArray,
    bought: IntArray,
    bought_by_seat: IntArray,
    price: IntArray,
    set_of: IntArray,
    tables: Any,
    work: Any,
) -> int:
    """One segment's turns (`market.run_segment`): each seat's policy's action, applied, until every seat has passed
    in a row or used its actions; how many actions were applied. A segment starts with no appraisal made and no
    trade refused (greedy's appraisals are the segment's; its refusals are remembered by segment)."""
    (appraised, ints, floats, refused, action, scratch) = work
    appraised[:] = 0
    refused[:] = 0
    facts = tables[0]
    n = seats.shape[0]
    used = np.zeros(n, dtype=np.int64)
    passes = 0
    k = 0
    applied = 0
    while passes < n:
        p = order[k % n]
        k += 1
        if used[p] >= limit:
            passes += 1
            continue
        if policy_of[p] == RANDOM:
            random_act(
                p,
                seats,
                binders,
                store_area,
                after_owner,
                after_card,
                sizes,
                pile_n,
                price,
                facts,
                can_sell,
                trades_on,
                words,
                action,
                scratch[1],
            )
        else:
            greedy_act(
                p,
                seats,
                binders,
                store_area,
                after_card,
                after_owner,
                sizes,
                pile_n,
                piles,
                refused,
                appraised,
                ints,
                floats,
                price,
                set_of,
                duel,
                can_sell,
                trades_on,
                most,
                tables,
                action,
                scratch,
            )
        kind = action[A_KIND]
        if kind == TRADE:
            q = action[A_OTHER]
            card = action[A_CARDS]
            if policy_of[q] == RANDOM:
                # `RandomMarket.accepts_trade`: half the time.
                refuses = rng_below(words, 2) != 0
            else:
                # `GreedyMarket.accepts_trade`: q gives up a card in neither its deck nor its collection.
                appraise_seat(q, seats, binders, appraised, ints, floats, duel, can_sell, most, tables)
                refuses = False
                for i in range(COUNTS, COUNTS + ints[q, 0] + ints[q, 1]):
                    if ints[q, i] == card:
                        refuses = True
            if refuses:
                used[p] += 1
                continue
        if kind == PASS:
            passes += 1
            used[p] = limit
            continue
        apply_action(
            p,
            action,
            seats,
            friendship_from,
            binders,
            shown,
            store_deck,
            store_area,
            store_discard,
            after_card,
            after_owner,
            sizes,
            piles,
            pile_n,
            words,
            bought,
            bought_by_seat,
            price,
            facts,
            appraised,
        )
        applied += 1
        used[p] += 1
        passes = 0
    return applied


@kernel
def apply_action(
    p: EngineInt,
    action: IntArray,
    seats: IntArray,
    friendship_from: IntArray,
    binders: IntArray,
    shown: IntArray,
    store_deck: IntArray,
    store_area: IntArray,
    store_discard: IntArray,
    after_card: IntArray,
    after_owner: IntArray,
    sizes: IntArray,
    piles: IntArray,
    pile_n: IntArray,
    words: IntArray,
    bought: IntArray,
    bought_by_seat: IntArray,
    price: IntArray,
    facts: IntArray,
    appraised: IntArray,
) -> None:
    """`market.apply` of a legal action (greedy's are legal by construction); the seats whose binders changed lose
    their appraisals."""
    kind = action[A_KIND]
    appraised[p] = 0
    if kind == BUY_STORE:
        index = action[A_INDEX]
        card = store_area[index]
        for i in range(index, sizes[S_STORE_AREA] - 1):
            store_area[i] = store_area[i + 1]
        sizes[S_STORE_AREA] -= 1
        seats[p, SEAT_MONEY] -= price[card]
        add_card(binders, seats, p, SEAT_BINDER_N, card)
        bought[card] += 1
        bought_by_seat[p, card] += 1
        fill_store(store_deck, store_area, store_discard, sizes, words)
    elif kind == BUY_AFTERMARKET:
        index = action[A_INDEX]
        card, owner = after_card[index], after_owner[index]
        for i in range(index, sizes[S_AFTERMARKET] - 1):
            after_card[i] = after_card[i + 1]
            after_owner[i] = after_owner[i + 1]
        sizes[S_AFTERMARKET] -= 1
        seats[p, SEAT_MONEY] -= max(0, facts[card, F_STARS] - seats[p, SEAT_DISCOUNT])
        add_card(binders, seats, p, SEAT_BINDER_N, card)
        add_card(shown, seats, p, SEAT_SHOWN_N, card)
        if owner >= 0:
            seats[owner, SEAT_MARKERS] += 1
    elif kind == SELL:
        card = action[A_CARDS]
        take_card(binders, shown, seats, p, card)
        seats[p, SEAT_MARKERS] -= 1
        seats[p, SEAT_MONEY] += facts[card, F_STARS] + seats[p, SEAT_SELL_BONUS]
        after_card[sizes[S_AFTERMARKET]] = card
        after_owner[sizes[S_AFTERMARKET]] = p
        sizes[S_AFTERMARKET] += 1
    elif kind == FUSE:
        tier = action[A_INDEX]
        for k in range(action[A_CARDS_N]):
            take_card(binders, shown, seats, p, action[A_CARDS + k])
        seats[p, SEAT_MARKERS] -= 1
        seats[p, SEAT_FUSED + tier] = 1
        j = rng_below(words, pile_n[tier])
        promo = piles[tier, j]
        for i in range(j, pile_n[tier] - 1):
            piles[tier, i] = piles[tier, i + 1]
        pile_n[tier] -= 1
        add_card(binders, seats, p, SEAT_BINDER_N, promo)
    elif kind == TRADE:
        q = action[A_OTHER]
        card = action[A_CARDS]
        cost = facts[card, F_STARS]
        take_card(binders, shown, seats, q, card)
        appraised[q] = 0
        add_card(binders, seats, p, SEAT_BINDER_N, card)
        add_card(shown, seats, p, SEAT_SHOWN_N, card)
        seats[p, SEAT_MONEY] -= cost
        seats[q, SEAT_MONEY] += cost
        if action[A_FRIENDSHIP] == 1:
            seats[p, SEAT_FRIENDSHIP_LEFT] -= 1
            friendship_from[q, p] += 1


@kernel
def fill_store(
    store_deck: IntArray, store_area: IntArray, store_discard: IntArray, sizes: IntArray, words: IntArray
) -> None:
    """`market.fill_store_area`: store cards dealt face-down until STORE_AREA are showing, or the store and its
    discard are empty."""
    while sizes[S_STORE_AREA] < STORE_AREA:
        drawn = draw_store(store_deck, store_discard, sizes, words)
        if drawn < 0:
            return
        store_area[sizes[S_STORE_AREA]] = drawn
        sizes[S_STORE_AREA] += 1


@kernel
def deal(
    count: EngineInt,
    first: EngineInt,
    seats: IntArray,
    binders: IntArray,
    store_deck: IntArray,
    store_discard: IntArray,
    sizes: IntArray,
    words: IntArray,
) -> int:
    """`market.deal`: `count` cards to each seat from the store, one at a time round the table from seat `first`;
    how many the store and its discard could not deal."""
    n = seats.shape[0]
    short = 0
    for _ in range(count):
        for k in range(n):
            card = draw_store(store_deck, store_discard, sizes, words)
            if card < 0:
                short += 1
            else:
                add_card(binders, seats, (first + k) % n, SEAT_BINDER_N, card)
    return short


@kernel
def add_card(cards: IntArray, seats: IntArray, p: EngineInt, column: EngineInt, card: EngineInt) -> None:
    """`card` appended to seat p's row of `cards` (binders or shown), whose length is `seats[p, column]`."""
    cards[p, seats[p, column]] = card
    seats[p, column] += 1


@kernel
def take_card(binders: IntArray, shown: IntArray, seats: IntArray, p: EngineInt, card: EngineInt) -> None:
    """`card` leaves seat p's binder (its first copy), and the table forgets one shown copy (`market.unshow`)."""
    seats[p, SEAT_BINDER_N] = remove_first(binders[p], seats[p, SEAT_BINDER_N], card)
    seats[p, SEAT_SHOWN_N] = remove_first(shown[p], seats[p, SEAT_SHOWN_N], card)
