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
    room = (
        len(state.store_deck)
        + len(state.store_area)
        + len(state.store_discard)
        + len(state.aftermarket)
        + sum(len(seat.binder) for seat in seats)
        + sum(len(pile) for pile in state.fusion_piles)
        + 1
    )
    shown_room = room + max(len(found) for found in state.shown)
    packed = np.zeros((n, MK.SEAT_COLUMNS), dtype=np.int64)
    binders = np.zeros((n, room), dtype=np.int64)
    shown = np.zeros((n, shown_room), dtype=np.int64)
    for p, seat in enumerate(seats):
        row = packed[p]
        row[MK.SEAT_MONEY], row[MK.SEAT_MARKERS], row[MK.SEAT_FRIENDSHIP_LEFT] = (
            seat.money,
            seat.markers,
            seat.friendship_left,
        )
        row[MK.SEAT_BINDER_N], row[MK.SEAT_SHOWN_N] = len(seat.binder), len(state.shown[p])
        row[MK.SEAT_DISCOUNT] = M.power(state, p, M.POWER_BUY_DISCOUNT)
        row[MK.SEAT_SELL_BONUS] = M.power(state, p, M.POWER_SELL_BONUS)
        row[MK.SEAT_FUSION_CUT] = M.power(state, p, M.POWER_FUSION)
        for tier in seat.fused:
            row[MK.SEAT_FUSED + tier] = 1
        binders[p, : len(seat.binder)] = seat.binder
        shown[p, : len(state.shown[p])] = state.shown[p]
    friendship_from = np.array([seat.friendship_from for seat in seats], dtype=np.int64).reshape(n, n)
    store_deck = _filled(state.store_deck, room)
    store_area = _filled(state.store_area, MK.STORE_AREA)
    store_discard = _filled(state.store_discard, room)
    after_card = _filled([listing.card for listing in state.aftermarket], room)
    after_owner = _filled([listing.owner for listing in state.aftermarket], room)
    sizes = np.array(
        [len(state.store_deck), len(state.store_area), len(state.store_discard), len(state.aftermarket)],
        dtype=np.int64,
    )
    piles = np.zeros((len(state.fusion_piles), room), dtype=np.int64)
    for tier, pile in enumerate(state.fusion_piles):
        piles[tier, : len(pile)] = pile
    pile_n = np.array([len(pile) for pile in state.fusion_piles], dtype=np.int64)
    words = np.array(state.rng.words(), dtype=np.int64)
    tables = appraisal_tables(cards)
    found = valuation(cards, M.revealed_metagame(state))
    applied = MK.play_segment(
        np.array(M.segment_order(state), dtype=np.int64),
        np.array([COMPILED_POLICIES[type(policy)] for policy in policies], dtype=np.int64),
        int(cards.options["market_actions"]),
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
    for p, seat in enumerate(seats):
        row = packed[p].tolist()
        seat.money, seat.markers, seat.friendship_left = (
            row[MK.SEAT_MONEY],
            row[MK.SEAT_MARKERS],
            row[MK.SEAT_FRIENDSHIP_LEFT],
        )
        seat.fused = {tier for tier in range(len(M.FUSION_TIERS)) if row[MK.SEAT_FUSED + tier]}
        seat.binder = binders[p, : row[MK.SEAT_BINDER_N]].tolist()
        seat.friendship_from = friendship_from[p].tolist()
        state.shown[p] = shown[p, : row[MK.SEAT_SHOWN_N]].tolist()
    held = sizes.tolist()
    state.store_deck = store_deck[: held[MK.S_STORE_DECK]].tolist()
    state.store_area = store_area[: held[MK.S_STORE_AREA]].tolist()
    state.store_discard = store_discard[: held[MK.S_STORE_DISCARD]].tolist()
    state.aftermarket = [
        M.Listing(card, owner)
        for card, owner in zip(
            after_card[: held[MK.S_AFTERMARKET]].tolist(), after_owner[: held[MK.S_AFTERMARKET]].tolist(), strict=True
        )
    ]
    state.fusion_piles = [piles[tier, : pile_n[tier]].tolist() for tier in range(len(state.fusion_piles))]
    state.rng.resume(words)
    state.version += int(applied)


def _filled(values: Sequence[int], room: int) -> np.ndarray:
    """`values` at the head of an int64 array of `room` words (at least one: an empty pile still gets an array)."""
    out = np.zeros(max(room, len(values), 1), dtype=np.int64)
    out[: len(values)] = values
    return out
