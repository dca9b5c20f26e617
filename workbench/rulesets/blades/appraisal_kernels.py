"""Greedy's appraisal of one seat in the whole game, compiled: its best deck, its best collection and what every card
is worth to it, in one kernel call (`appraise_binder`), from tables made once per card set (`facts_table`) and per
revealed metagame (`valuation_tables`).

`market_policy.Appraisal` asks it. The arithmetic is the Python appraisal's, operation for operation (the same
floats added in the same order, Python's `max(a, b)` as "b if b > a else a", ties in the same order), so every
greedy decision is the one the Python appraisal made; tests/rulesets/blades/test_blades_appraisal_kernels.py holds
every output to a plain Python appraisal over random binders, both game modes and three metagames, and
tests/rulesets/blades/market_fingerprint.py's whole games stay bit-identical. The first step of issue 33's compiled
market: greedy's appraisals were most of a whole game's time (docs/benchmarks.md).

Pure: numpy and numba only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engines import EngineInt, IntArray, kernel, rules_kernel

CONSTANT, PER_SYMBOL_COUNT, PER_STARS_AT_LEAST_COUNT, PER_STARS_AT_MOST_COUNT = 0, 1, 2, 3
"""Kinds of a valuation term (`market_policy.Valuation`): a fixed amount, or a coefficient times PLAYED_SHARE times a
count of the deck's singles (sharing a symbol bit, of at least / at most a star rating)."""

F_KIND, F_SINGLE, F_BITS, F_STARS, F_SLOT, F_SYMBOLS_N, F_SYMBOLS = range(7)
"""Columns of the facts table (`facts_table`), one row a card: engine kind, 1 for a single, symbol bits, star rating,
the kind's place in DECK_LIMITS (-1: no deck kind, a metagame card), how many collection symbols, and from F_SYMBOLS
on their ids (ascending: the card's symbols in sorted order)."""
V_TAIL_N, V_TAIL = 0, 1
"""Columns of a valuation's int table: how many terms follow the head, then (kind, argument) a term."""
NO_SLOT = -1
"""A facts table's F_SLOT for a card of no deck kind."""
NO_CATEGORY = -1
"""A symbol's category that is neither of Duel Mode's two (`symbol_category`)."""
COUNTS = 5
"""Words at the head of `appraise_binder`'s ints: the deck's, the collection's and the spare cards' lengths, then
Duel Mode's Elemental and Type collection sizes; the cards follow."""
FLOAT_DECK_GAINS, FLOAT_COLLECTION_GAINS, FLOAT_USE_WORTHS, FLOAT_WORTHS = 0, 1, 2, 3
"""The per-card blocks of `appraise_binder`'s floats, in order (`float_block`); the set worths follow them."""
FLOAT_BLOCKS = 4
"""How many per-card blocks come before the set worths."""


def float_block(block: int, n_cards: int) -> slice:
    """Where per-card block `block` (FLOAT_*) of `appraise_binder`'s floats lies, for a set of `n_cards` cards."""
    return slice(block * n_cards, (block + 1) * n_cards)


@rules_kernel
def copy_into(source: IntArray, n: EngineInt, target: IntArray, at: EngineInt) -> EngineInt:
    """`source[:n]` written into `target` from `at` on; where the next write goes. (Written out as a loop, as the
    kernels' other array copies and fills are: numpy's slice assignment and reductions cost seconds of compile.)"""
    for k in range(n):
        target[at + k] = source[k]
    return at + n


@rules_kernel
def deck_room(limits: IntArray) -> int:
    """The most cards a deck holds: the deck kinds' limits added up."""
    room = 0
    for slot in range(limits.shape[0]):
        room += limits[slot]
    return room


@rules_kernel
def term_count(facts: IntArray, singles: IntArray, n_singles: EngineInt, kind: EngineInt, arg: EngineInt) -> int:
    """How many of the context's singles a counting term counts (`Valuation._count`)."""
    count = 0
    for k in range(n_singles):
        c = singles[k]
        if kind == PER_SYMBOL_COUNT:
            if facts[c, F_BITS] & arg:
                count += 1
        elif kind == PER_STARS_AT_LEAST_COUNT:
            if facts[c, F_STARS] >= arg:
                count += 1
        elif facts[c, F_STARS] <= arg:
            count += 1
    return count


@rules_kernel
def card_value(
    facts: IntArray,
    value_ints: IntArray,
    value_floats: Any,
    played_share: float,
    card: EngineInt,
    singles: IntArray,
    n_singles: EngineInt,
) -> float:
    """The card's value against a deck whose singles are `singles[:n_singles]` (`Valuation`'s terms): its head, then
    each later term added in order, a counting one as amount * (PLAYED_SHARE * count)."""
    value = value_floats[card, 0]
    for t in range(value_ints[card, V_TAIL_N]):
        kind = value_ints[card, V_TAIL + 2 * t]
        amount = value_floats[card, 1 + t]
        if kind == CONSTANT:
            value += amount
        else:
            count = term_count(facts, singles, n_singles, kind, value_ints[card, V_TAIL + 2 * t + 1])
            value += amount * (played_share * count)
    return value


@rules_kernel
def singles_of(facts: IntArray, cards: IntArray, n: EngineInt, out: IntArray) -> int:
    """The singles among `cards[:n]` written into `out`; how many."""
    m = 0
    for k in range(n):
        if facts[cards[k], F_SINGLE] == 1:
            out[m] = cards[k]
            m += 1
    return m


@rules_kernel
def best_deck(
    facts: IntArray,
    value_ints: IntArray,
    value_floats: Any,
    played_share: float,
    limits: IntArray,
    distinct: IntArray,
    n_distinct: EngineInt,
    deck: IntArray,
    scratch: IntArray,
    values: Any,
) -> int:
    """`Valuation.best_deck` of the distinct cards owned (ascending): twice, the cards of each deck kind (in
    DECK_LIMITS' order) ranked by value against the context, highest first and the lower card id on a tie, the
    kind's limit taken; the context first every card owned, then the deck so made. Writes the deck; its length.
    `scratch` (3 x n_distinct words) and `values` (n_distinct) are its working room."""
    context = scratch[:n_distinct]
    singles = scratch[n_distinct : 2 * n_distinct]
    order = scratch[2 * n_distinct : 3 * n_distinct]
    n_context = copy_into(distinct, n_distinct, context, np.int64(0))
    n_deck = 0
    for _ in range(2):
        n_singles = singles_of(facts, context, n_context, singles)
        n_deck = 0
        for slot in range(limits.shape[0]):
            m = 0
            for k in range(n_distinct):
                c = distinct[k]
                if facts[c, F_SLOT] == slot:
                    values[m] = card_value(facts, value_ints, value_floats, played_share, c, singles, n_singles)
                    order[m] = c
                    m += 1
            # Insertion sort on (-value, card): the members come in ascending card order, so a later card moves
            # ahead only on a strictly higher value.
            for i in range(1, m):
                v, c = values[i], order[i]
                j = i - 1
                while j >= 0 and v > values[j]:
                    values[j + 1], order[j + 1] = values[j], order[j]
                    j -= 1
                values[j + 1], order[j + 1] = v, c
            for i in range(min(m, limits[slot])):
                deck[n_deck] = order[i]
                n_deck += 1
        n_context = copy_into(deck, n_deck, context, np.int64(0))
    return n_deck


@rules_kernel
def distinct_owned(binder: IntArray, owned: Any, distinct: IntArray) -> int:
    """Which cards `binder` holds, marked in `owned` (by card id), and the distinct ones in ascending order written
    into `distinct`; how many."""
    for c in range(owned.shape[0]):
        owned[c] = False
    for k in range(binder.shape[0]):
        owned[binder[k]] = True
    n_distinct = 0
    for c in range(owned.shape[0]):
        if owned[c]:
            distinct[n_distinct] = c
            n_distinct += 1
    return n_distinct


@kernel
def deck_of(
    binder: IntArray, facts: IntArray, limits: IntArray, value_ints: IntArray, value_floats: Any, numbers: Any
) -> IntArray:
    """The best deck of the cards `binder` holds (`best_deck`), for `market_policy.Valuation.best_deck`: what the
    search's `Outlook` and greedy's Power Creep pick ask of binders no seat holds."""
    n = binder.shape[0]
    distinct = np.empty(n, dtype=np.int64)
    n_distinct = distinct_owned(binder, np.empty(facts.shape[0], dtype=np.bool_), distinct)
    deck = np.empty(deck_room(limits), dtype=np.int64)
    scratch = np.empty(3 * n, dtype=np.int64)
    n_deck = best_deck(
        facts, value_ints, value_floats, numbers[0], limits, distinct, n_distinct, deck, scratch, np.empty(n)
    )
    found = np.empty(n_deck, dtype=np.int64)
    copy_into(deck, n_deck, found, np.int64(0))
    return found


@rules_kernel
def without(
    pool: IntArray, n_pool: EngineInt, taken: IntArray, n_taken: EngineInt, out: IntArray, left: IntArray
) -> int:
    """`pool` in order less one copy of each card of `taken` (the first copies), written into `out`; how many.
    `left` (n_taken words) is its working room."""
    for k in range(n_taken):
        left[k] = 1
    m = 0
    for i in range(n_pool):
        c = pool[i]
        skipped = False
        for k in range(n_taken):
            if taken[k] == c and left[k] > 0:
                left[k] -= 1
                skipped = True
                break
        if not skipped:
            out[m] = c
            m += 1
    return m


@kernel
def group_room(facts: IntArray, n_symbols: EngineInt) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """`collection_groups`' four arrays, sized for `n_symbols` symbols and the set's star ratings: `group_card`,
    `group_size`, `seen` and `rated`."""
    ratings = 1
    for c in range(facts.shape[0]):
        ratings = max(ratings, facts[c, F_STARS] + 1)
    return (
        np.empty((n_symbols, ratings), dtype=np.int64),
        np.empty(n_symbols, dtype=np.int64),
        np.empty(n_symbols, dtype=np.int64),
        np.empty((n_symbols, ratings), dtype=np.int64),
    )


@rules_kernel
def collection_groups(
    facts: IntArray,
    pool: IntArray,
    n_pool: EngineInt,
    group_card: IntArray,
    group_size: IntArray,
    seen: IntArray,
    rated: IntArray,
) -> int:
    """For each symbol, one card per star rating among `pool` (the first seen): `group_card[symbol, stars]` (-1:
    none), `group_size[symbol]` the ratings held, `rated[symbol, :group_size[symbol]]` those ratings in the order
    first met, `seen` the symbols in the order first met (a Python dict's order, as `market_policy.collection_groups`
    keeps both); how many symbols. The arrays: `group_room`."""
    for symbol in range(group_size.shape[0]):
        group_size[symbol] = 0
        for rating in range(group_card.shape[1]):
            group_card[symbol, rating] = -1
    n_seen = 0
    for i in range(n_pool):
        c = pool[i]
        rating = facts[c, F_STARS]
        for k in range(facts[c, F_SYMBOLS_N]):
            symbol = facts[c, F_SYMBOLS + k]
            if group_size[symbol] == 0:
                seen[n_seen] = symbol
                n_seen += 1
            if group_card[symbol, rating] < 0:
                group_card[symbol, rating] = c
                rated[symbol, group_size[symbol]] = rating
                group_size[symbol] += 1
    return n_seen


@rules_kernel
def best_collection(
    group_card: IntArray,
    group_size: IntArray,
    seen: IntArray,
    n_seen: EngineInt,
    category_of: IntArray,
    category: EngineInt,
    most: EngineInt,
    out: IntArray,
) -> int:
    """`market_policy.best_collection`: the largest group (of `category`, when not NO_CATEGORY) in the order first
    seen, a strictly larger one replacing it, its cards by star rating from the highest, `most` at most; written into
    `out`, its length (0 below two cards)."""
    best = 0
    for k in range(n_seen):
        symbol = seen[k]
        if category != NO_CATEGORY and category_of[symbol] != category:
            continue
        if min(group_size[symbol], most) > best:
            best = 0
            for rating in range(group_card.shape[1] - 1, -1, -1):
                if group_card[symbol, rating] >= 0 and best < most:
                    out[best] = group_card[symbol, rating]
                    best += 1
    return best if best >= 2 else 0


@kernel
def appraise_binder(
    binder: IntArray,
    duel: bool,
    can_resell: bool,
    most: EngineInt,
    facts: IntArray,
    category_of: IntArray,
    limits: IntArray,
    collection_vp: IntArray,
    set_cards: IntArray,
    set_chances: Any,
    value_ints: IntArray,
    value_floats: Any,
    numbers: Any,
    duel_rp: EngineInt,
    ints: IntArray,
    floats: Any,
) -> None:
    """Greedy's appraisal of a seat holding `binder` (`market_policy.Appraisal`, module docstring), written into the
    caller's two arrays. `ints` (COUNTS + len(binder) words): the counts (the deck's, the collection's and the spare
    cards' lengths, then Duel Mode's Elemental and Type collection sizes), then the deck, the collection and the spare
    cards one after the other. `floats` (4 x cards + sets words): by card, the deck gains, the collection gains, the
    use worths and the worths (FLOAT_* blocks, `float_block`), then by set index the set worths. A card's deck gain is
    its value against the deck less the weakest deck card of its kind (0 while the kind is not full). `numbers`:
    PLAYED_SHARE, DECK_DOLLARS and MONEY_PER_VP as floats; `duel_rp`: DUEL_RP_PER_CARD.

    Written into arrays the caller made rather than returned: a compiled call that returns seven arrays spends
    about 3.6 us boxing them, more than half the appraisal's own arithmetic (docs/benchmarks.md)."""
    played_share, deck_dollars, money_per_vp = numbers[0], numbers[1], numbers[2]
    n_cards = facts.shape[0]
    n_binder = binder.shape[0]
    deck = deck_of(binder, facts, limits, value_ints, value_floats, numbers)
    n_deck = deck.shape[0]
    owned = np.empty(n_cards, dtype=np.bool_)
    distinct_owned(binder, owned, np.empty(n_binder, dtype=np.int64))
    # `without`'s working room: one word a card taken (the deck, a collection).
    taken = np.empty(max(n_deck, 2 * most), dtype=np.int64)
    singles = np.empty(n_deck, dtype=np.int64)
    n_singles = singles_of(facts, deck, n_deck, singles)
    weakest = np.zeros(limits.shape[0], dtype=np.float64)
    for slot in range(limits.shape[0]):
        held = 0
        low = 0.0
        for k in range(n_deck):
            c = deck[k]
            if facts[c, F_SLOT] == slot:
                value = card_value(facts, value_ints, value_floats, played_share, c, singles, n_singles)
                if held == 0 or value < low:
                    low = value
                held += 1
        weakest[slot] = low if held >= limits[slot] else 0.0
    rest = np.empty(n_binder, dtype=np.int64)
    n_rest = without(binder, n_binder, deck, n_deck, rest, taken)
    n_symbols = category_of.shape[0]
    group_card, group_size, seen, rated = group_room(facts, n_symbols)
    n_seen = collection_groups(facts, rest, n_rest, group_card, group_size, seen, rated)
    collection = np.empty(2 * most, dtype=np.int64)
    sizes = np.zeros(2, dtype=np.int64)
    if duel:
        # Each category's best first, the other's from the cards left; the pair with more cards, the Elemental
        # category's first on a tie.
        one = np.empty(most, dtype=np.int64)
        other = np.empty(most, dtype=np.int64)
        left = np.empty(n_rest, dtype=np.int64)
        other_card, other_size, other_seen, other_rated = group_room(facts, n_symbols)
        best_total = 0
        for first in range(2):
            n_one = best_collection(group_card, group_size, seen, n_seen, category_of, np.int64(first), most, one)
            n_left = without(rest, n_rest, one, n_one, left, taken)
            n_other_seen = collection_groups(facts, left, n_left, other_card, other_size, other_seen, other_rated)
            n_other = best_collection(
                other_card, other_size, other_seen, n_other_seen, category_of, np.int64(1 - first), most, other
            )
            if n_one + n_other > best_total:
                best_total = n_one + n_other
                elemental, typed = (one, other) if first == 0 else (other, one)
                sizes[0], sizes[1] = (n_one, n_other) if first == 0 else (n_other, n_one)
                copy_into(typed, sizes[1], collection, copy_into(elemental, sizes[0], collection, np.int64(0)))
        n_collection = sizes[0] + sizes[1]
    else:
        n_collection = best_collection(
            group_card, group_size, seen, n_seen, category_of, np.int64(NO_CATEGORY), most, collection
        )
    spare = np.empty(n_rest, dtype=np.int64)
    n_spare = without(rest, n_rest, collection, n_collection, spare, taken)
    top = collection_vp.shape[0] - 1
    now = collection_vp[min(n_collection, top)] if n_collection >= 2 else 0
    deck_gains = floats[FLOAT_DECK_GAINS * n_cards : (FLOAT_DECK_GAINS + 1) * n_cards]
    collection_gains = floats[FLOAT_COLLECTION_GAINS * n_cards : (FLOAT_COLLECTION_GAINS + 1) * n_cards]
    use_worths = floats[FLOAT_USE_WORTHS * n_cards : (FLOAT_USE_WORTHS + 1) * n_cards]
    worths = floats[FLOAT_WORTHS * n_cards : (FLOAT_WORTHS + 1) * n_cards]
    rate = deck_dollars if duel else money_per_vp
    for card in range(n_cards):
        slot = facts[card, F_SLOT]
        deck_gains[card] = 0.0
        if not owned[card] and slot != NO_SLOT:
            gain = card_value(facts, value_ints, value_floats, played_share, card, singles, n_singles) - weakest[slot]
            deck_gains[card] = gain if gain > 0.0 else 0.0
        stars = facts[card, F_STARS]
        collected = 0
        for k in range(facts[card, F_SYMBOLS_N]):
            symbol = facts[card, F_SYMBOLS + k]
            size = min(group_size[symbol] + (0 if group_card[symbol, stars] >= 0 else 1), most)
            if duel:
                category = category_of[symbol]
                if category != NO_CATEGORY and size >= 2 and size > sizes[category]:
                    collected = max(collected, duel_rp * (size - sizes[category]))
            elif group_size[symbol] > 0 and size >= 2:
                gained = collection_vp[min(size, top)] - now
                if gained > collected:
                    collected = gained
        collection_gains[card] = collected
        kept = deck_dollars * deck_gains[card]
        collection_worth = rate * collected
        use_worths[card] = collection_worth if collection_worth > kept else kept
        resale = float(stars) if can_resell else 0.0
        worths[card] = resale if resale > use_worths[card] else use_worths[card]
    set_worths = floats[FLOAT_BLOCKS * n_cards :]
    for s in range(set_cards.shape[0]):
        total = 0.0
        for k in range(set_cards.shape[1]):
            if set_cards[s, k] < 0:
                break
            total += set_chances[s, k] * worths[set_cards[s, k]]
        set_worths[s] = total
    copy_into(
        spare,
        n_spare,
        ints,
        copy_into(collection, n_collection, ints, copy_into(deck, n_deck, ints, np.int64(COUNTS))),
    )
    ints[0], ints[1], ints[2], ints[3], ints[4] = n_deck, n_collection, n_spare, sizes[0], sizes[1]
