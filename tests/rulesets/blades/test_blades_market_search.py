"""The whole game's `search` policy (`market_policy.SearchMarket`): it never peeks, and playing purchases out in
compiled tournaments finds a buy greedy's estimate misses."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

from workbench.cards import CardSet, OptionValue
from workbench.loading import load_cardset
from workbench.paths import bundled_sets
from workbench.play.policies import policy_word
from workbench.rulesets.blades import RULESET as BLADES
from workbench.rulesets.blades import market as M
from workbench.rulesets.blades.market_policy import (
    MARKET_POLICIES,
    GreedyMarket,
    SearchMarket,
    make_policy,
    unseen_pool,
)
from workbench.rulesets.blades.market_rng import MarketRng
from workbench.rulesets.blades.market_runs import play_full_games

MakeCardSet = Callable[..., CardSet]
SEARCH = MARKET_POLICIES.index("search")


def options(**overrides: OptionValue) -> dict[str, OptionValue]:
    return BLADES.resolve_options(
        {"game": "full", "market_search_clashes": "4", **{k: str(v) for k, v in overrides.items()}}
    )


SAMPLE = load_cardset(bundled_sets("blades")[0], BLADES)
CARDS = M.compile_market(SAMPLE, options())


def mid_round(seed: int) -> M.MarketState:
    """A first deckbuilding round under way: income, six cards each, the store area out, two cards sold to the
    aftermarket by seat B and one bought from it by seat C (so the table has seen C take it)."""
    state = M.new_game(CARDS, MarketRng(seed), [SEARCH, 0, 0, 0])
    state.round = 1
    for seat in state.seats:
        seat.money += M.INCOME
    M.deal(state, M.DEAL)
    M.fill_store_area(state)
    # "Reveal a new Elemental Metagame Card" (the Type Meta stays face-down until the first timer ends).
    M.reveal_metagame(state, M.META_ELEMENTAL)
    for card in sorted(set(state.seats[1].binder) - set(state.seats[1].starter))[:2]:
        M.apply(state, 1, M.Action(M.SELL, cards=(card,)))
    M.apply(state, 2, M.Action(M.BUY_AFTERMARKET, 0))
    return state


def twin(state: M.MarketState) -> M.MarketState:
    """A deep copy sharing the compiled cards (its generator continues from the same point)."""
    return copy.deepcopy(state, {id(state.cards): state.cards})


def hide_differently(state: M.MarketState, seed: int) -> M.MarketState:
    """The same game as seat A sees it, with everything A cannot see dealt anew: the other seats' unshown binder
    cards reshuffled among them (each keeps its count), the store deck's order, which face-down card of a set lies
    in each store-area slot, the promo piles' order and the order of the metagame stacks' unrevealed cards."""
    other = twin(state)
    rng = np.random.default_rng(seed)
    hidden: list[list[int]] = []
    for q in range(1, other.players):
        rest = Counter(other.seats[q].binder) - Counter(other.shown[q])
        hidden.append(sorted(rest.elements()))
    pool = [c for cards in hidden for c in cards]
    order = rng.permutation(len(pool))
    k = 0
    for q, cards in zip(range(1, other.players), hidden, strict=True):
        dealt = [pool[int(i)] for i in order[k : k + len(cards)]]
        k += len(cards)
        other.seats[q].binder = list(other.shown[q]) + dealt
    for index, card in enumerate(other.store_area):
        same = [
            j for j, c in enumerate(other.store_deck) if other.cards.set_of[c] == other.cards.set_of[card] and c != card
        ]
        if same:
            j = same[int(rng.integers(len(same)))]
            other.store_area[index], other.store_deck[j] = other.store_deck[j], card
    other.store_deck = [other.store_deck[int(i)] for i in rng.permutation(len(other.store_deck))]
    other.fusion_piles = [[pile[int(i)] for i in rng.permutation(len(pile))] for pile in other.fusion_piles]
    other.meta_stacks = [[stack[int(i)] for i in rng.permutation(len(stack))] for stack in other.meta_stacks]
    return other


def test_search_is_a_whole_game_policy() -> None:
    assert MARKET_POLICIES == ("greedy", "random", "search")
    assert isinstance(make_policy("search"), SearchMarket)
    assert M.ENGINE_POLICIES[SEARCH] == policy_word("search", BLADES.engine.policies)  # type: ignore[union-attr]


def test_search_never_peeks_at_what_seat_a_cannot_see() -> None:
    # DESIGN.md: "A search policy never peeks: what the deciding player cannot see (opponent's hand, deck order) is
    # sampled from what they can know." Store cards are face-down ("you will only know what set they are from when
    # you buy them"); other binders are the other players' own.
    purchases = 0
    for seed in range(6):
        state = mid_round(seed)
        decided = SearchMarket().act(twin(state), 0)
        for variant in range(2):
            other = hide_differently(state, 100 * seed + variant)
            assert other.seats[1].binder != state.seats[1].binder or other.store_deck != state.store_deck
            assert unseen_pool(other, 0) == unseen_pool(state, 0)
            assert SearchMarket().act(other, 0) == decided
        purchases += decided.kind in (M.BUY_STORE, M.BUY_AFTERMARKET, M.TRADE)
        # What seat A itself sees does change its decision: without money it buys nothing.
        broke = twin(state)
        broke.seats[0].money = 0
        if decided.kind in (M.BUY_STORE, M.BUY_AFTERMARKET, M.TRADE):
            assert SearchMarket().act(broke, 0) != decided
    # The check is not empty: most of these decisions are purchases.
    assert purchases >= 3


def test_the_unseen_pool_is_the_store_less_what_seat_a_saw() -> None:
    state = mid_round(3)
    pool = Counter(unseen_pool(state, 0))
    expected = Counter(CARDS.store_cards) - Counter(state.seats[0].binder)
    expected -= Counter(listing.card for listing in state.aftermarket)
    for q in range(1, 4):
        expected -= Counter(state.shown[q])
    assert pool == expected
    # Seat C's aftermarket buy is seen by all; B's sold cards left B's shown cards (they were never shown).
    assert state.shown[2][-1] not in state.seats[2].starter


def metagame_rows() -> list[dict[str, Any]]:
    """A starter of five 1-star Water singles, a store of Earth singles, one Fire single and one metagame card
    that pays 10 RP for each Fire card in the tableau (the only card of its stack, so it is always revealed)."""

    def single(name: str, set_name: str, kind: str, element: str, **extra: Any) -> dict[str, Any]:
        row = {
            "name": name,
            "kind": "single",
            "set": set_name,
            "set_kind": kind,
            "stars": 1,
            "elements": element,
            "types": "Citizen",
            "rarity": "Common",
            "copies": 1,
            "effects": "",
        }
        row.update(extra)
        return row

    rows = [single("Ember", "Core", "core", "Fire", buy_cost=3, copies=3)]
    rows += [single(f"Wave {i}", "Tide Starter", "starter", "Water") for i in range(1, 6)]
    rows += [single(f"Stone {i}", "Core", "core", "Earth", buy_cost=3, copies=3, stars=1 + i % 3) for i in range(8)]
    rows.append(
        {
            "name": "Fire Ascendant",
            "kind": "metagame",
            "set": "Elemental Meta",
            "set_kind": "meta",
            "elements": "Fire",
            "rarity": "Meta",
            "copies": 1,
            "effects": "Score: gain 10 RP per fire",
        }
    )
    return rows


def test_search_buys_for_the_metagame_it_can_foresee_greedy_only_for_the_revealed_one(
    make_cardset: MakeCardSet,
) -> None:
    # "Each round, the metagame will shift. The Metagame gives significant bonuses if you can incorporate it into
    # your deck. Don't ignore it!" A 1-star Fire single with no effect is worth less to greedy than the $1 the
    # aftermarket asks ("Unlike the Store, cards in the Aftermarket are bought and sold face-up, so you know exactly
    # what you're going to get") while no metagame card is revealed: greedy values only what it sees. The search
    # plays the stack's cards out (here one, Fire Ascendant, so whatever the shuffle it will be revealed): the Fire
    # card scores 10 RP a tournament, and it buys.
    cards = M.compile_market(make_cardset(BLADES, metagame_rows()), options())
    ember = cards.compiled.names.index("Ember")
    state = M.new_game(cards, MarketRng(0), [SEARCH, 0, 0, 0])
    state.round = 1
    for seat in state.seats:
        seat.money = M.INCOME
        seat.binder = list(seat.starter)
    state.store_area = []
    state.aftermarket = [M.Listing(ember, -1)]
    assert M.revealed_metagame(state) == ()
    assert GreedyMarket().act(twin(state), 0) == M.Action(M.PASS)
    search = SearchMarket()
    assert search.act(twin(state), 0) == M.Action(M.BUY_AFTERMARKET, 0)
    assert search.decisions == 1 and search.tournaments > 0
    # "Reveal a new Elemental Metagame Card": once Fire Ascendant is face-up, greedy's value reads its Score clause
    # (10 RP for each Fire card in the tableau) and greedy buys the Fire single too.
    M.reveal_metagame(state, M.META_ELEMENTAL)
    assert M.revealed_metagame(state) == (cards.compiled.names.index("Fire Ascendant"),)
    assert GreedyMarket().act(twin(state), 0) == M.Action(M.BUY_AFTERMARKET, 0)
    # Without the card on offer (what seat A sees changed), both pass.
    state.aftermarket = []
    assert SearchMarket().act(twin(state), 0) == M.Action(M.PASS)
    assert GreedyMarket().act(state, 0) == M.Action(M.PASS)


def test_whole_games_with_search_seats() -> None:
    for players in (2, 4):
        runs = play_full_games(SAMPLE, options(players=players, market_search_clashes=2), 1, 5, "search", "greedy")
        result = runs.results[0]
        assert runs.policies == ["search"] + ["greedy"] * (players - 1)
        assert min(result.rank) == 1
        if not result.duel:
            for p in range(players):
                parts = sum(result.tournament_vp[p]) + sum(result.collection_vp[p])
                assert result.total[p] == parts + result.money[p] // 4 + result.friendship_vp[p]


def test_same_seed_same_search_games() -> None:
    a = play_full_games(SAMPLE, options(market_search_clashes=2), 1, 6, "search", "greedy").summary()
    b = play_full_games(SAMPLE, options(market_search_clashes=2), 1, 6, "search", "greedy").summary()
    a.pop("games_per_second")
    b.pop("games_per_second")
    assert a == b


def test_a_peeking_search_would_be_caught(monkeypatch: Any) -> None:
    # The no-peeking check has teeth: a search that read the other seats' real binders decides differently in some
    # of the same re-dealt games.
    monkeypatch.setattr(
        "workbench.rulesets.blades.market_policy.sample_binder", lambda state, q, pool, rng: list(state.seats[q].binder)
    )
    changed = 0
    for seed in range(6):
        state = mid_round(seed)
        decided = SearchMarket().act(twin(state), 0)
        changed += sum(SearchMarket().act(hide_differently(state, 100 * seed + v), 0) != decided for v in range(2))
    assert changed > 0
