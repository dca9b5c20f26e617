"""Which way the timer segments of the whole game are played: compiled (`market_kernels.play_segments`: a round's
market, its opening deal and three segments, in one call, or one segment) when every seat is greedy or random and
nothing is traced, else by the Python market
(`market.run_segments` and `market.run_segment`, the reference).

`run_segments` and `run_segment` pack the state into the kernels' arrays (`SegmentArrays`), play and write the state
back: the binders, money, markers, Friendship cards, fusions, the store, the aftermarket, the promo piles, what the
table has seen, the store's purchase counts and the game's generator, as the Python segments leave them
(tests/rulesets/blades/test_blades_market_segments.py plays both on every bundled configuration and on random seeds,
and holds them to identical games). Packed once a round, not once a segment: the packing cost about as much as a
segment's play (docs/benchmarks.md, 2026-12-04).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from workbench.rulesets.blades import appraisal_kernels as AK
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
    now = M.revealed_metagame(state)
    applied, _, ends = _play(state, policies, state.segment, state.segment + 1, 0, now)
    state.version += applied
    _keep_round_end(state, ends)


def run_segments(state: M.MarketState, policies: Sequence[M.MarketPolicy]) -> None:
    """A round's market, its opening and its three timer segments (`market.run_segments`): in one compiled call (the
    opening's metagame steps in Python) when `compiled` says so and no
    seat's character looks at the metagame stacks before a card is revealed (its policy picks the card, in Python:
    then each segment is compiled alone), else by the Python market."""
    if not compiled(state, policies):
        M.run_segments(state, policies)
        return
    if any(M.power(state, p, M.POWER_META_LOOK) > 1 for p in range(state.players)):
        M.run_segments(state, policies, run_segment)
        return
    # The opening's metagame steps before the opening deal the kernel makes: without The Power Creep's look they draw
    # nothing, and the deal and the store read nothing of the metagame, so the generator's draws come in the
    # Python market's order.
    M.discard_metagame(state)
    M.reveal_metagame(state, M.META_ELEMENTAL, policies)
    cards = state.cards
    # The Type metagame card the reveal after the first segment shows: the top of each Type stack that has cards
    # (no seat picks it). Revealed in Python after the call; the later segments' valuation reads it.
    later = [
        stack[0] if cards.meta_timing[m] == M.META_TYPE and stack else state.metagame[m]
        for m, stack in enumerate(state.meta_stacks)
    ]
    applied, short, ends = _play(state, policies, 0, M.SEGMENTS, M.DEAL, tuple(c for c in later if c >= 0), M.DEAL)
    # What the Python market leaves besides the packed state: the segment, the deals' shortfall and version steps,
    # and the Type metagame card revealed (as `market.reveal_metagame` reveals it: it reads nothing the segments
    # change and draws nothing).
    state.segment = M.LAST_CALL
    state.short += short
    state.version += 2 + applied
    M.reveal_metagame(state, M.META_TYPE, policies)
    _keep_round_end(state, ends)


def _play(
    state: M.MarketState,
    policies: Sequence[M.MarketPolicy],
    from_segment: int,
    to_segment: int,
    dealt: int,
    later_metagame: tuple[int, ...],
    opening: int = 0,
) -> tuple[int, int, np.ndarray | None]:
    """Segments `from_segment` to `to_segment` - 1 played by `market_kernels.play_segments` on the packed state,
    `opening` cards dealt to each seat and the store filled first (the round's opening), `dealt` cards dealt to each
    seat after the first segment, the later segments under the `later_metagame` revealed;
    the state written back. How many actions were applied, how many cards the store could not deal, and after the
    round's last segment every seat's end of deckbuilding (`play_segments`' `ends`; else None)."""
    cards = state.cards
    packed = _packed(state, policies, to_segment - from_segment, opening + dealt)
    ends = np.empty((state.players, AK.COUNTS + packed.arrays.binders.shape[1]), dtype=np.int64)
    applied, short = MK.play_segments(
        from_segment,
        to_segment,
        packed.order,
        packed.policy_of,
        packed.limit,
        state.duel,
        bool(cards.options["trades"]),
        cards.collection_max,
        state.first,
        opening,
        dealt,
        *packed.arrays,
        cards.price,
        cards.set_of,
        _tables(cards, M.revealed_metagame(state)),
        _tables(cards, later_metagame),
        ends,
    )
    _unpack(state, packed)
    return int(applied), int(short), ends if to_segment == M.SEGMENTS else None


def _keep_round_end(state: M.MarketState, ends: np.ndarray | None) -> None:
    """After the round's last segment, each seat's deck and collections as the kernel's `ends` give them, with the
    binder and the metagame they hold for (`MarketState.round_end`, read by `GreedyMarket` and `RandomMarket` at the
    end of deckbuilding: a random seat's were drawn by the kernel)."""
    if ends is None:
        return
    for p, row in enumerate(ends.tolist()):
        n_deck, n_collection, elemental = row[0], row[1], row[3]
        deck_end = AK.COUNTS + n_deck
        collection = row[deck_end : deck_end + n_collection]
        # Duel Mode's two collections one after the other, the Elemental one first (`appraise_binder`).
        split = elemental if state.duel else n_collection
        state.round_end[p] = M.RoundEnd(
            list(state.seats[p].binder),
            list(state.metagame),
            row[AK.COUNTS : deck_end],
            (collection[:split], collection[split:]),
        )


class SegmentArrays(NamedTuple):
    """The state as the segment kernels read and change it, in their arguments' order (`market_kernels`)."""

    seats: np.ndarray
    """One row a seat (SEAT_* columns)."""
    friendship_from: np.ndarray
    """Friendship cards seat p received from seat q, at [p, q]."""
    binders: np.ndarray
    """Each seat's binder, SEAT_BINDER_N cards at the head of its row."""
    shown: np.ndarray
    """The cards each seat has shown the table, SEAT_SHOWN_N at the head of its row."""
    store_deck: np.ndarray
    """The store deck (S_STORE_DECK cards)."""
    store_area: np.ndarray
    """The store's face-down cards (S_STORE_AREA)."""
    store_discard: np.ndarray
    """The store discard (S_STORE_DISCARD)."""
    after_card: np.ndarray
    """The aftermarket's cards (S_AFTERMARKET)."""
    after_owner: np.ndarray
    """Who sold each of them (-1: none)."""
    sizes: np.ndarray
    """The store's piles' and the aftermarket's lengths (S_*)."""
    piles: np.ndarray
    """The fusion promo piles, a row a tier."""
    pile_n: np.ndarray
    """Cards left in each."""
    words: np.ndarray
    """The game's generator (`MarketRng.words`)."""
    bought: np.ndarray
    """The store's purchases by card (`MarketState.bought`, changed in place)."""
    bought_by_seat: np.ndarray
    """By seat and card (`MarketState.bought_by_seat`, changed in place)."""


class _Packed(NamedTuple):
    """The state as the kernels read it (`_packed`), with the turn order, the policies and the action limit."""

    order: np.ndarray
    """The seats in turn order (`market.segment_order`)."""
    policy_of: np.ndarray
    """Each seat's policy code (`COMPILED_POLICIES`)."""
    limit: int
    """Actions a seat may take in a segment (`market_actions`)."""
    arrays: SegmentArrays
    """The state."""


def _packed(state: M.MarketState, policies: Sequence[M.MarketPolicy], segments: int, dealt: int = 0) -> _Packed:
    """The state packed for `segments` timer segments with `dealt` cards dealt to each seat in the call, each array
    with room for what they can add: a seat gains at most one card an action (a purchase, a trade, a fusion's promo)
    and the table sees at most as many, the aftermarket takes at most one sale an action, and the store deck becomes
    its discard at most (the segments add nothing to either)."""
    cards = state.cards
    n = state.players
    seats = state.seats
    limit = int(cards.options["market_actions"])
    binder_room = max(len(seat.binder) for seat in seats) + segments * limit + dealt + 1
    shown_room = max(len(found) for found in state.shown) + segments * limit + 1
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
    after_room = len(state.aftermarket) + segments * n * limit
    sizes = np.array(
        [len(state.store_deck), len(state.store_area), len(state.store_discard), len(state.aftermarket)],
        dtype=np.int64,
    )
    pile_room = max(len(pile) for pile in state.fusion_piles) + 1
    piles = np.array([pile + [0] * (pile_room - len(pile)) for pile in state.fusion_piles], dtype=np.int64)
    arrays = SegmentArrays(
        packed,
        friendship_from,
        binders,
        shown,
        _filled(state.store_deck, store_room),
        _filled(state.store_area, MK.STORE_AREA),
        _filled(state.store_discard, store_room),
        _filled([listing.card for listing in state.aftermarket], after_room),
        _filled([listing.owner for listing in state.aftermarket], after_room),
        sizes,
        piles,
        np.array([len(pile) for pile in state.fusion_piles], dtype=np.int64),
        np.array(state.rng.words(), dtype=np.int64),
        state.bought,
        state.bought_by_seat,
    )
    policy_of = np.array([COMPILED_POLICIES[type(policy)] for policy in policies], dtype=np.int64)
    return _Packed(np.array(M.segment_order(state), dtype=np.int64), policy_of, limit, arrays)


def _tables(cards: M.MarketCards, metagame: tuple[int, ...]) -> tuple[object, ...]:
    """The appraisal's tables and the valuation under the revealed `metagame`, as the kernels read them."""
    tables = appraisal_tables(cards)
    found = valuation(cards, metagame)
    return (
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
    )


def _unpack(state: M.MarketState, packed: _Packed) -> None:
    """The packed state, as the kernels left it, written back into `state`."""
    arrays = packed.arrays
    # Read back as lists first: a list's slice costs less than an array's slice and its `tolist`.
    binder_rows, shown_rows, given = arrays.binders.tolist(), arrays.shown.tolist(), arrays.friendship_from.tolist()
    for p, (seat, row) in enumerate(zip(state.seats, arrays.seats.tolist(), strict=True)):
        seat.money, seat.markers, seat.friendship_left = (
            row[MK.SEAT_MONEY],
            row[MK.SEAT_MARKERS],
            row[MK.SEAT_FRIENDSHIP_LEFT],
        )
        seat.fused = {tier for tier in range(len(M.FUSION_TIERS)) if row[MK.SEAT_FUSED + tier]}
        seat.binder = binder_rows[p][: row[MK.SEAT_BINDER_N]]
        seat.friendship_from = given[p]
        state.shown[p] = shown_rows[p][: row[MK.SEAT_SHOWN_N]]
    held = arrays.sizes.tolist()
    state.store_deck = arrays.store_deck.tolist()[: held[MK.S_STORE_DECK]]
    state.store_area = arrays.store_area.tolist()[: held[MK.S_STORE_AREA]]
    state.store_discard = arrays.store_discard.tolist()[: held[MK.S_STORE_DISCARD]]
    listed = held[MK.S_AFTERMARKET]
    state.aftermarket = [
        M.Listing(card, owner)
        for card, owner in zip(arrays.after_card.tolist()[:listed], arrays.after_owner.tolist()[:listed], strict=True)
    ]
    state.fusion_piles = [pile[:left] for pile, left in zip(arrays.piles.tolist(), arrays.pile_n.tolist(), strict=True)]
    state.rng.resume(arrays.words)


def _filled(values: list[int], room: int) -> np.ndarray:
    """`values` at the head of an int64 array of `room` words (at least one more: an empty pile still gets an
    array)."""
    return np.array(values + [0] * (max(room, len(values)) + 1 - len(values)), dtype=np.int64)
