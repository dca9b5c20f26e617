"""Which way a timer segment of the whole game is played: compiled (`market_kernels.play_segment`) when every seat is
greedy or random and nothing is traced, else by the Python market (`market.run_segment`, the reference).

`run_segment` packs the state into the kernel's arrays, plays the segment and writes the state back: the binders,
money, markers, Friendship cards, fusions, the store, the aftermarket, the promo piles, what the table has seen,
the store's purchase counts and the game's generator, as the Python segment leaves them
(tests/rulesets/blades/test_blades_market_segments.py plays both on every bundled configuration and on random seeds,
and holds them to identical games).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from workbench.rulesets.blades import market as M
from workbench.rulesets.blades import market_kernels as MK
from workbench.rulesets.blades.market_policy import (
    DUEL_RP_PER_CARD,
    GreedyMarket,
    RandomMarket,
    appraisal_tables,
    valuation,
)

COMPILED_POLICIES = {GreedyMarket: MK.GREEDY, RandomMarket: MK.RANDOM}
"""The market policies the compiled segment plays, with the kernel's code for each."""


def compiled(state: M.MarketState, policies: Sequence[M.MarketPolicy]) -> bool:
    """Whether the segment is played by the compiled kernel: every seat greedy or random (not search, which weighs its
    purchases in tournaments) and no trace (whose lines the Python market writes)."""
    return state.log is None and all(type(policy) in COMPILED_POLICIES for policy in policies)


def run_segment(state: M.MarketState, policies: Sequence[M.MarketPolicy]) -> None:
    """One timer segment (`market.run_segment`), compiled when `compiled` says so."""
    if not compiled(state, policies):
        M.run_segment(state, policies)
        return
    cards = state.cards
    n = state.players
    seats = state.seats
    limit = int(cards.options["market_actions"])
    # Room for what a segment can add: a seat gains at most one card an action (a purchase, a trade, a fusion's
    # promo) and the table sees at most as many, the aftermarket takes at most one sale an action, and the store
    # deck becomes its discard at most (the segment adds nothing to either).
    binder_room = max(len(seat.binder) for seat in seats) + limit + 1
    shown_room = max(len(found) for found in state.shown) + limit + 1
    packed = np.array(
        [
            [
                seat.money,
                seat.markers,
                seat.friendship_left,
                len(seat.binder),
                len(state.shown[p]),
                M.power(state, p, M.POWER_BUY_DISCOUNT),
                M.power(state, p, M.POWER_SELL_BONUS),
                M.power(state, p, M.POWER_FUSION),
            ]
            + [int(tier in seat.fused) for tier in range(len(M.FUSION_TIERS))]
            for p, seat in enumerate(seats)
        ],
        dtype=np.int64,
    )
    binders = np.array([seat.binder + [0] * (binder_room - len(seat.binder)) for seat in seats], dtype=np.int64)
    shown = np.array([found + [0] * (shown_room - len(found)) for found in state.shown], dtype=np.int64)
    friendship_from = np.array([seat.friendship_from for seat in seats], dtype=np.int64).reshape(n, n)
    store_room = max(len(state.store_deck), len(state.store_discard))
    store_deck = _filled(state.store_deck, store_room)
    store_area = _filled(state.store_area, MK.STORE_AREA)
    store_discard = _filled(state.store_discard, store_room)
    after_room = len(state.aftermarket) + n * limit
    after_card = _filled([listing.card for listing in state.aftermarket], after_room)
    after_owner = _filled([listing.owner for listing in state.aftermarket], after_room)
    sizes = np.array(
        [len(state.store_deck), len(state.store_area), len(state.store_discard), len(state.aftermarket)],
        dtype=np.int64,
    )
    pile_room = max(len(pile) for pile in state.fusion_piles) + 1
    piles = np.array([pile + [0] * (pile_room - len(pile)) for pile in state.fusion_piles], dtype=np.int64)
    pile_n = np.array([len(pile) for pile in state.fusion_piles], dtype=np.int64)
    words = np.array(state.rng.words(), dtype=np.int64)
    tables = appraisal_tables(cards)
    found = valuation(cards, M.revealed_metagame(state))
    applied = MK.play_segment(
        np.array(M.segment_order(state), dtype=np.int64),
        np.array([COMPILED_POLICIES[type(policy)] for policy in policies], dtype=np.int64),
        limit,
        state.duel,
        state.segment < M.LAST_CALL,
        bool(cards.options["trades"]),
        cards.collection_max,
        packed,
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
        state.bought,
        state.bought_by_seat,
        cards.price,
        cards.set_of,
        (
            tables.facts,
            tables.category_of,
            tables.limits,
            tables.collection_vp,
            tables.set_cards,
            tables.set_chances,
            found.value_ints,
            found.value_floats,
            tables.numbers,
            DUEL_RP_PER_CARD,
        ),
    )
    # Read back as lists first: a list's slice costs less than an array's slice and its `tolist`.
    binder_rows, shown_rows, given = binders.tolist(), shown.tolist(), friendship_from.tolist()
    for p, (seat, row) in enumerate(zip(seats, packed.tolist(), strict=True)):
        seat.money, seat.markers, seat.friendship_left = (
            row[MK.SEAT_MONEY],
            row[MK.SEAT_MARKERS],
            row[MK.SEAT_FRIENDSHIP_LEFT],
        )
        seat.fused = {tier for tier in range(len(M.FUSION_TIERS)) if row[MK.SEAT_FUSED + tier]}
        seat.binder = binder_rows[p][: row[MK.SEAT_BINDER_N]]
        seat.friendship_from = given[p]
        state.shown[p] = shown_rows[p][: row[MK.SEAT_SHOWN_N]]
    held = sizes.tolist()
    state.store_deck = store_deck.tolist()[: held[MK.S_STORE_DECK]]
    state.store_area = store_area.tolist()[: held[MK.S_STORE_AREA]]
    state.store_discard = store_discard.tolist()[: held[MK.S_STORE_DISCARD]]
    listed = held[MK.S_AFTERMARKET]
    state.aftermarket = [
        M.Listing(card, owner)
        for card, owner in zip(after_card.tolist()[:listed], after_owner.tolist()[:listed], strict=True)
    ]
    state.fusion_piles = [pile[:left] for pile, left in zip(piles.tolist(), pile_n.tolist(), strict=True)]
    state.rng.resume(words)
    state.version += int(applied)


def _filled(values: list[int], room: int) -> np.ndarray:
    """`values` at the head of an int64 array of `room` words (at least one more: an empty pile still gets an
    array)."""
    return np.array(values + [0] * (max(room, len(values)) + 1 - len(values)), dtype=np.int64)
