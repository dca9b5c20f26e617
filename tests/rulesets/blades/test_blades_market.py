"""The whole game of Millennium Blades (`market.py`): buy costs, the store, selling and the aftermarket, fusion,
friendship, three rounds and final scoring, each case built from the document's words (quoted)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from workbench.cards import CardSet, Finding, OptionValue
from workbench.loading import load_cardset
from workbench.paths import REPO_ROOT, bundled_sets
from workbench.rulesets.blades import RULESET as BLADES
from workbench.rulesets.blades import market as M
from workbench.rulesets.blades.cards import card_of
from workbench.rulesets.blades.market_policy import make_policy
from workbench.rulesets.blades.market_rng import MarketRng
from workbench.rulesets.blades.market_runs import (
    buy_cost_sweep,
    play_full_games,
    replaced_by_set_mates,
    store_figures,
    store_power,
    sweep_lines,
    trace_full_game,
    with_set_buy_cost,
)
from workbench.validate import validate

MakeCardSet = Callable[..., CardSet]


def card(name: str, stars: int, copies: int, set_name: str, set_kind: str, **extra: Any) -> dict[str, Any]:
    """One sheet row; every card shares Fire/Soldier so no symbol check fires."""
    row: dict[str, Any] = {
        "name": name,
        "kind": "single",
        "set": set_name,
        "set_kind": set_kind,
        "stars": stars,
        "elements": "Fire",
        "types": "Soldier",
        "rarity": "Rare",
        "copies": copies,
        "effects": "",
    }
    row.update(extra)
    return row


def findings_of(cardset: CardSet, rule: str) -> list[Finding]:
    return [f for f in validate(cardset).findings if f.rule == rule]


# --- buy cost: "Pay Millennium Dollars equal to the buy cost (the number in its top right) of any face-down card"


def test_a_set_has_one_buy_cost(make_cardset: MakeCardSet) -> None:
    # A face-down card shows only its set: "Fulton decides to buy a 5-cost Clockwork Empire card."
    rows = [
        card("High", 6, 1, "Clockwork", "premium", buy_cost=5),
        card("Mid", 4, 2, "Clockwork", "premium", buy_cost=5),
        card("Low", 2, 3, "Clockwork", "premium", buy_cost=4),
    ]
    found = findings_of(make_cardset(BLADES, rows), "blades.buy_cost_set")
    assert [(f.card, f.expected, f.actual, f.column) for f in found] == [("Low", 5, 4, "buy_cost")]


def test_a_set_priced_in_part_is_flagged_but_an_unpriced_sheet_is_not(make_cardset: MakeCardSet) -> None:
    rows = [
        card("High", 6, 1, "Alley", "expansion"),
        card("Low", 2, 3, "Alley", "expansion", buy_cost=3),
        card("Relic", 6, 1, "Relics", "promo"),
        card("Other", 6, 1, "Tide", "expansion"),
    ]
    found = findings_of(make_cardset(BLADES, rows), "blades.buy_cost_set")
    assert [(f.card, f.expected, f.actual) for f in found] == [("High", 3, None)]


@pytest.mark.parametrize(("buy_cost", "warned"), [(2, True), (3, False), (4, False)])
def test_buy_cost_below_aftermarket_resale(make_cardset: MakeCardSet, buy_cost: int, warned: bool) -> None:
    # Selling pays the star rating: "take Millennium Dollars equal to that card's Star Rating from the bank."
    # Copies 1 x 5 stars + 2 x 3 + 3 x 1 = 14 stars over 6 cards: 2.33 dollars on average.
    rows = [
        card("High", 5, 1, "Alley", "expansion", buy_cost=buy_cost),
        card("Mid", 3, 2, "Alley", "expansion", buy_cost=buy_cost),
        card("Low", 1, 3, "Alley", "expansion", buy_cost=buy_cost),
    ]
    found = findings_of(make_cardset(BLADES, rows), "blades.buy_cost_below_resale")
    assert bool(found) is warned
    if warned:
        assert found[0].expected == "at least 2.33" and found[0].actual == buy_cost


# ---- the whole game: state built by hand, one rule at a time ------------------------------------------------------

SAMPLE = load_cardset(bundled_sets("blades")[0], BLADES)


def options(**overrides: OptionValue) -> dict[str, OptionValue]:
    return BLADES.resolve_options({"game": "full", **{k: str(v) for k, v in overrides.items()}})


CARDS = M.compile_market(SAMPLE, options())


def card_id(name: str) -> int:
    return CARDS.compiled.names.index(name)


class PassPolicy:
    """Never acts: plays its first legal deck and turns in no collection."""

    def act(self, state: M.MarketState, p: int) -> M.Action:
        return M.Action(M.PASS)

    def accepts_trade(self, state: M.MarketState, p: int, card: int) -> bool:
        return False

    def deck(self, state: M.MarketState, p: int) -> list[int]:
        return M.legal_part(state.cards, state.seats[p].binder)

    def collection(self, state: M.MarketState, p: int, deck: Sequence[int]) -> list[int]:
        return []

    def duel_collections(self, state: M.MarketState, p: int, deck: Sequence[int]) -> tuple[list[int], list[int]]:
        return [], []

    def pick_metagame(self, state: M.MarketState, p: int, stack: int, seen: Sequence[int]) -> int:
        return 0


def fresh(players: int = 4, seed: int = 0, cards: M.MarketCards = CARDS) -> M.MarketState:
    return M.new_game(cards, MarketRng(seed), [0] * players)


def test_setup_gives_starter_three_store_cards_markers_and_friendship() -> None:
    # "Give each player a starter deck ..., 3 cards from the top of the store deck, ... 3 Sell Markers of a color
    # (4 if there are only three players), and 6 Friendship cards of their character."
    # Two players under the normal rules (Duel Mode, the default for two, gives six: tested below).
    normal_two = M.compile_market(SAMPLE, options(players=2, two_player_rules="normal"))
    for players, markers in [(2, 3), (3, 4), (4, 3), (5, 3)]:
        state = fresh(players, cards=normal_two if players == 2 else CARDS)
        assert not state.duel
        starter = CARDS.starters[0]
        for seat in state.seats:
            assert seat.binder[: len(starter)] == list(starter)
            assert len(seat.binder) == len(starter) + 3
            assert seat.markers == markers
            assert seat.friendship_left == 6
        assert len(state.store_deck) == len(CARDS.store_cards) - 3 * players


def test_store_buy_pays_the_buy_cost_and_refills_ten() -> None:
    # "Pay Millennium Dollars equal to the buy cost ... then take that card from the store area and place it in the
    # binder area ... Replenish the store area by dealing a card from the top of the Store"
    state = fresh()
    M.fill_store_area(state)
    assert len(state.store_area) == 10
    seat = state.seats[0]
    seat.money = 30
    card = state.store_area[4]
    M.apply(state, 0, M.Action(M.BUY_STORE, index=4))
    assert seat.money == 30 - int(CARDS.price[card]) == 30 - (CARDS.cards[card].buy_cost or -1)
    assert seat.binder[-1] == card
    assert len(state.store_area) == 10
    assert state.bought[card] == 1


def test_store_buy_needs_the_money() -> None:
    state = fresh()
    M.fill_store_area(state)
    card = state.store_area[0]
    state.seats[0].money = int(CARDS.price[card]) - 1
    assert not M.legal(state, 0, M.Action(M.BUY_STORE, index=0))
    state.seats[0].money += 1
    assert M.legal(state, 0, M.Action(M.BUY_STORE, index=0))


def test_empty_store_reshuffles_the_discard() -> None:
    # "If the Store runs out of cards, shuffle the store discard together to form a new deck."
    state = fresh()
    state.store_discard = state.store_deck
    state.store_deck = []
    before = len(state.store_discard)
    card = M.draw_store(state)
    assert card >= 0 and len(state.store_deck) == before - 1 and state.store_discard == []
    state.store_deck = []
    assert M.draw_store(state) == -1


def test_selling_pays_the_star_rating_and_takes_a_marker() -> None:
    # "Place any card from your binder and one of your Sell Markers into a slot in the Aftermarket. Then take
    # Millennium Dollars equal to that card's Star Rating from the bank."
    state = fresh()
    seat = state.seats[1]
    card = seat.binder[0]
    M.apply(state, 1, M.Action(M.SELL, cards=(card,)))
    assert seat.money == CARDS.cards[card].stars
    assert seat.markers == 2
    assert state.aftermarket[-1].card == card and state.aftermarket[-1].owner == 1


def test_no_selling_without_markers_or_in_the_last_six_minutes() -> None:
    # "If you have no Sell Markers ... you cannot sell more cards." / "The Aftermarket stops accepting cards for
    # sale in the final 6-minutes before the tournament."
    state = fresh()
    sell = M.Action(M.SELL, cards=(state.seats[0].binder[0],))
    assert M.legal(state, 0, sell)
    state.segment = M.LAST_CALL
    assert not M.legal(state, 0, sell)
    state.segment = 0
    state.seats[0].markers = 0
    assert not M.legal(state, 0, sell)


def test_aftermarket_buy_pays_stars_and_returns_the_marker() -> None:
    # "Choose a card from the Aftermarket with another player's Sell Marker on it and pay Millennium Dollars equal
    # to that card's Star Rating into the bank. Return the Sell Marker on the card to its owner."
    state = fresh()
    card = state.seats[0].binder[0]
    M.apply(state, 0, M.Action(M.SELL, cards=(card,)))
    own = M.Action(M.BUY_AFTERMARKET, index=0)
    state.seats[0].money = 50
    assert not M.legal(state, 0, own), "you cannot buy it back"
    buyer = state.seats[2]
    buyer.money = 10
    M.apply(state, 2, own)
    assert buyer.money == 10 - CARDS.cards[card].stars
    assert buyer.binder[-1] == card
    assert state.seats[0].markers == 3
    assert state.aftermarket == []


def test_clash_cards_in_the_aftermarket_can_be_bought() -> None:
    # "They put both of the cards revealed in the clash into the Aftermarket Area, to be available for sale during
    # the next round."
    state = fresh()
    card = card_id("Umbral Archon")
    state.aftermarket = [M.Listing(card, -1)]
    state.seats[0].money = 8
    M.apply(state, 0, M.Action(M.BUY_AFTERMARKET, index=0))
    assert state.seats[0].money == 0 and state.seats[0].binder[-1] == card


@pytest.mark.parametrize(("tier", "count"), [(0, 5), (1, 7), (2, 9)])
def test_fusion_spends_5_7_9_cards_once_per_tier_a_round(tier: int, count: int) -> None:
    # "Select the appropriate number of cards from your binder (5-Bronze, 7-Silver, or 9-Gold) and place them in
    # the box. Then take a card from the appropriate pile ... Place one of your Sell Markers on the pile. You cannot
    # perform more than one Card Fusion of each type per round"
    state = fresh()
    seat = state.seats[0]
    seat.binder += [card_id("Market Busker")] * 4
    spent = tuple(seat.binder[:count])
    assert not M.legal(state, 0, M.Action(M.FUSE, index=tier, cards=spent[:-1]))
    size = len(seat.binder)
    pile = list(state.fusion_piles[tier])
    M.apply(state, 0, M.Action(M.FUSE, index=tier, cards=spent))
    assert len(seat.binder) == size - count + 1
    assert seat.binder[-1] in pile and len(state.fusion_piles[tier]) == len(pile) - 1
    assert seat.markers == 2
    again = tuple(seat.binder[:count])
    assert not M.legal(state, 0, M.Action(M.FUSE, index=tier, cards=again))


def test_no_fusion_without_a_marker() -> None:
    # "you cannot perform Card Fusions if you have no Sell Markers left."
    state = fresh()
    state.seats[0].markers = 0
    assert not M.legal(state, 0, M.Action(M.FUSE, index=0, cards=tuple(state.seats[0].binder[:5])))


@pytest.mark.parametrize(
    ("markers", "fused", "empty_pile", "binder", "expected"),
    [
        (3, set(), -1, 9, [(0, 5), (1, 7), (2, 9)]),
        (3, set(), -1, 8, [(0, 5), (1, 7)]),
        (3, set(), -1, 4, []),
        (0, set(), -1, 9, []),
        (1, {1}, -1, 9, [(0, 5), (2, 9)]),
        (3, set(), 0, 9, [(1, 7), (2, 9)]),
    ],
)
def test_open_fusions_are_the_tiers_legal_takes(
    markers: int, fused: set[int], empty_pile: int, binder: int, expected: list[tuple[int, int]]
) -> None:
    # "5-Bronze, 7-Silver, or 9-Gold ... Place one of your Sell Markers on the pile. You cannot perform more than one
    # Card Fusion of each type per round": what the policies ask (`open_fusions`) is what `legal` takes, tier by tier.
    state = fresh()
    seat = state.seats[0]
    seat.binder = ([card_id("Market Busker")] * 9)[:binder]
    seat.markers, seat.fused = markers, set(fused)
    if empty_pile >= 0:
        state.fusion_piles[empty_pile] = []
    assert M.open_fusions(state, 0) == expected
    for tier in range(3):
        spent = tuple(seat.binder[: M.fusion_cards(state, 0, tier)])
        assert M.legal(state, 0, M.Action(M.FUSE, index=tier, cards=spent)) == (tier in dict(expected))


def test_promo_piles_split_by_stars_when_the_rarity_names_no_tier() -> None:
    names = [[CARDS.compiled.names[c] for c in pile] for pile in CARDS.promo_piles]
    assert names == [
        ["Tidal Oracle", "Relic of the First Flame"],
        ["Prism Warden", "Obsidian Vault"],
        ["Gale Sovereign", "Crown of Ash"],
    ]


def test_trade_is_equal_value_and_may_carry_friendship() -> None:
    # "the total of all Star Ratings and Millennium Dollars must be equal on both sides of the trade ... ask the
    # other side for Friendship"
    state = fresh()
    card = state.seats[1].binder[0]
    stars = CARDS.cards[card].stars
    state.seats[0].money = stars
    M.apply(state, 0, M.Action(M.TRADE, cards=(card,), other=1, friendship=True))
    assert state.seats[0].money == 0 and state.seats[1].money == stars
    assert state.seats[0].binder[-1] == card
    assert state.seats[1].friendship_from[0] == 1 and state.seats[0].friendship_left == 5
    poor = state.seats[1].binder[0]
    assert not M.legal(state, 0, M.Action(M.TRADE, cards=(poor,), other=1))


def test_trades_off() -> None:
    state = fresh(cards=M.compile_market(SAMPLE, options(trades=False)))
    state.seats[0].money = 50
    assert not M.legal(state, 0, M.Action(M.TRADE, cards=(state.seats[1].binder[0],), other=1))


@pytest.mark.parametrize(
    ("per_card", "received", "vp"), [(1, [0, 6, 0, 2], 8), (2, [0, 4, 3, 0], 12), (3, [0, 1, 2, 6], 15)]
)
def test_friendship_scores_at_most_6_from_one_player(per_card: int, received: list[int], vp: int) -> None:
    # "You may not score more than 6 VP from a single player's Friendship Cards."
    state = fresh(cards=M.compile_market(SAMPLE, options(friendship_card_vp=per_card)))
    state.seats[0].friendship_from = received
    assert M.friendship_vp(state, 0) == vp


@pytest.mark.parametrize(
    ("keys", "ranks"),
    [
        # "In case of a tie, the winner is whoever had the most VP from tournaments."
        ([(100, 60, 20, 15, 5), (100, 70, 10, 15, 5)], [2, 1]),
        # "... then whoever had the most VP from Collections, followed by Money and then Friendship"
        ([(100, 60, 20, 15, 5), (100, 60, 21, 14, 5)], [2, 1]),
        ([(100, 60, 20, 15, 5), (100, 60, 20, 16, 4)], [2, 1]),
        ([(100, 60, 20, 15, 5), (100, 60, 20, 15, 6), (99, 90, 0, 9, 0)], [2, 1, 3]),
        # Still tied: both share the place.
        ([(100, 60, 20, 15, 5), (100, 60, 20, 15, 5), (90, 60, 20, 5, 5)], [1, 1, 3]),
    ],
)
def test_final_ranking_tie_break(keys: list[tuple[int, ...]], ranks: list[int]) -> None:
    assert M.final_ranks(keys) == ranks


@pytest.mark.parametrize(
    ("names", "problem"),
    [
        (["Market Busker", "Pocket Paladin"], "no symbol is shared by every card"),
        (["Pocket Paladin", "Harbor Warden", "Stone Sentinel"], ""),
        (["Pocket Paladin", "Pocket Paladin"], "two cards share a star rating"),
        (["Pocket Paladin"], "a collection is 2-8 cards"),
    ],
)
def test_collection_rule(names: list[str], problem: str) -> None:
    # "2-8 cards, each having at least one matching symbol with all the others, and each having a different star
    # rating than all the others."
    assert M.collection_problem(CARDS, [card_id(n) for n in names]) == problem


def test_collection_chart() -> None:
    # "Cards 2 3 4 5 6 7 8+ / Victory Points 2 4 7 9 12 16 21"
    assert [M.collection_vp(n) for n in range(2, 10)] == [2, 4, 7, 9, 12, 16, 21, 21]


def test_deck_limits() -> None:
    # "up to eight singles, up to one Deck Box, and up to two Accessories ... only have one copy of any card"
    boxes = [card_id("Sturdy Deck Box"), card_id("Lightbound Deck Box")]
    assert M.deck_problem(CARDS, boxes) == "more than 1 deck_box(s)"
    assert M.deck_problem(CARDS, [boxes[0], boxes[0]]).startswith("a card appears twice")
    assert M.legal_part(CARDS, boxes + [boxes[0]]) == boxes[:1]


def test_three_rounds_income_and_charts_with_players_who_only_pass() -> None:
    # "Give each player 30 Millennium Dollars of income." per round; three tournaments paid by the Round 1, Round 2
    # and Final Round rows; money "at a rate of 4 Millennium Dollars to 1 VP, rounding down".
    rng = MarketRng(5)
    result, _ = M.play_game(CARDS, rng, [PassPolicy() for _ in range(4)], [0] * 4)
    assert result.money == [90] * 4 and result.money_vp == [22] * 4
    assert all(len(vp) == 3 for vp in result.tournament_vp)
    assert result.collection_vp == [[0, 0, 0]] * 4
    for k, chart in enumerate(([21, 15, 12, 9], [28, 20, 16, 12], [42, 30, 24, 18])):
        paid = sum(vp[k] for vp in result.tournament_vp)
        # Tied players split the VP of their places, rounded down: at most a VP lost per seat.
        assert sum(chart) - 4 <= paid <= sum(chart)
    for p in range(4):
        assert result.total[p] == sum(result.tournament_vp[p]) + 22 + result.friendship_vp[p]


def test_prerelease_replaces_the_third_round() -> None:
    # "skip the third round of deckbuilding and the third tournament later on in the game, so that there are still
    # only three tournaments in the game." Pre-release chart 7 5 4 3 2.
    cards = M.compile_market(SAMPLE, options(prerelease=True))
    result, _ = M.play_game(cards, MarketRng(5), [PassPolicy() for _ in range(4)], [0] * 4)
    assert all(len(vp) == 3 for vp in result.tournament_vp)
    assert all(len(vp) == 2 for vp in result.collection_vp)
    assert result.money == [60] * 4
    assert 19 - 4 <= sum(vp[0] for vp in result.tournament_vp) <= 19


def test_prize_support_after_rounds_one_and_two() -> None:
    # "Reveal a complete set of Promo Cards, based on the Prize Support column ... Players get one of these
    # randomly." Round 1 Bronze, Round 2 Silver, Final Round none.
    rng = MarketRng(9)
    _, lines = M.play_game(CARDS, rng, [PassPolicy() for _ in range(3)], [0] * 3, trace=True)
    prizes = [line for line in lines if "prize support" in line]
    assert len(prizes) == 6
    assert all("bronze" in line for line in prizes[:3]) and all("silver" in line for line in prizes[3:])


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_whole_games_at_every_player_count(players: int, policy: str) -> None:
    # Two players under the normal rules here; Duel Mode (their default) is tested below.
    runs = play_full_games(SAMPLE, options(players=players, two_player_rules="normal"), 2, 11, policy)
    for result in runs.results:
        for p in range(players):
            parts = sum(result.tournament_vp[p]) + sum(result.collection_vp[p])
            assert result.total[p] == parts + result.money[p] // 4 + result.friendship_vp[p]
            assert result.money[p] >= 0
        assert min(result.rank) == 1


def test_same_seed_same_games() -> None:
    a = play_full_games(SAMPLE, options(), 2, 4, "greedy").summary()
    b = play_full_games(SAMPLE, options(), 2, 4, "greedy").summary()
    a.pop("games_per_second")
    b.pop("games_per_second")
    assert a == b


def test_greedy_beats_random_seats() -> None:
    # The policies differ measurably: a greedy seat A against three random seats.
    runs = play_full_games(SAMPLE, options(), 20, 2, "greedy", "random")
    seats = runs.summary()["seats"]
    assert seats[0]["total"] > max(seat["total"] for seat in seats[1:])


# ---- Duel Mode: the two-player game --------------------------------------------------------------------------------

DUEL = M.compile_market(SAMPLE, options(players=2))


def duel_state(seed: int = 0) -> M.MarketState:
    return M.new_game(DUEL, MarketRng(seed), [0, 0])


@pytest.mark.parametrize(
    ("players", "rules", "duel"),
    [(2, None, True), (2, "duel", True), (2, "normal", False), (3, None, False), (4, "duel", False), (5, None, False)],
)
def test_duel_mode_is_the_default_two_player_game(players: int, rules: str | None, duel: bool) -> None:
    # "These rules assume a 3-5 player group. For the 2 player rules, check the Variants section" / "Duel mode is a
    # 2 player variant for Millennium Blades."
    chosen = options(players=players) if rules is None else options(players=players, two_player_rules=rules)
    assert chosen["two_player_rules"] == (rules or "duel")
    state = fresh(players, cards=M.compile_market(SAMPLE, chosen))
    assert state.duel is duel


def test_duel_six_sell_markers_each() -> None:
    # "Additionally, each player has 6 Sell Markers to use in this mode"
    state = duel_state()
    assert [seat.markers for seat in state.seats] == [6, 6]
    seat = state.seats[0]
    seat.binder = seat.binder * 2
    for _ in range(6):
        M.apply(state, 0, M.Action(M.SELL, cards=(seat.binder[0],)))
    assert seat.markers == 0 and not M.can_sell(state, 0)
    # "Return all players' Sell Markers to them": six sales again in every round.
    _, lines = M.play_game(DUEL, MarketRng(1), [Seller(), Seller()], [0, 0], trace=True)
    rounds = [k for k, line in enumerate(lines) if line.endswith(": deckbuilding")] + [len(lines)]
    for start, end in zip(rounds, rounds[1:], strict=False):
        for who in "AB":
            assert sum(1 for line in lines[start:end] if line.startswith(f"  {who} sells ")) == 6


class Seller(PassPolicy):
    """Sells a binder card whenever it can."""

    def act(self, state: M.MarketState, p: int) -> M.Action:
        if M.can_sell(state, p) and state.seats[p].binder:
            return M.Action(M.SELL, cards=(state.seats[p].binder[-1],))
        return M.Action(M.PASS)


def test_duel_friendship_is_not_used_and_trades_stay_even() -> None:
    # "Friendship is not used in this mode." / "Trading is available to players, but trades must still be even."
    state = duel_state()
    card = state.seats[1].binder[0]
    stars = CARDS.cards[card].stars
    state.seats[0].money = stars - 1
    assert not M.legal(state, 0, M.Action(M.TRADE, cards=(card,), other=1))
    state.seats[0].money = stars
    assert not M.legal(state, 0, M.Action(M.TRADE, cards=(card,), other=1, friendship=True))
    M.apply(state, 0, M.Action(M.TRADE, cards=(card,), other=1))
    assert state.seats[0].money == 0 and state.seats[1].money == stars and state.seats[0].binder[-1] == card
    runs = play_full_games(SAMPLE, options(players=2), 3, 5, "greedy")
    assert all(result.friendship_vp == [0, 0] for result in runs.results)


@pytest.mark.parametrize(
    ("names", "category", "problem"),
    [
        # Water Soldiers: an Elemental collection (Water) and a Type collection (Soldier) alike.
        (["Surf Cadet", "Harbor Warden", "Breakwater Captain"], "element", ""),
        (["Surf Cadet", "Harbor Warden", "Breakwater Captain"], "type", ""),
        # Light and Water Soldiers share a type but no element.
        (["Pocket Paladin", "Harbor Warden"], "element", "no element is shared by every card"),
        (["Pocket Paladin", "Harbor Warden"], "type", ""),
        # Dark Fiend and Light Citizen share neither.
        (["Gloom Imp", "Pocket Paladin"], "type", "no type is shared by every card"),
        # The normal collection rules still hold ("All rules ... are the same as in normal rules").
        (["Surf Cadet", "Pocket Paladin"], "type", "two cards share a star rating"),
    ],
)
def test_duel_collections_are_one_elemental_and_one_type(names: list[str], category: str, problem: str) -> None:
    # "Each player may form two collections during the Deckbuilding Phase: one Elemental collection and one Type
    # collection."
    assert M.collection_problem(DUEL, [card_id(n) for n in names], category) == problem


class DuelCollector(PassPolicy):
    """Turns in the given Elemental and Type collections."""

    def __init__(self, elemental: list[int], typed: list[int]) -> None:
        self.chosen = (elemental, typed)

    def duel_collections(self, state: M.MarketState, p: int, deck: Sequence[int]) -> tuple[list[int], list[int]]:
        return self.chosen


def test_duel_collections_score_10_rp_a_card_not_vp() -> None:
    # "Instead of gaining VP from them, these are converted to RP ... at a rate of 10 RP per card."
    state = duel_state()
    water = [card_id(n) for n in ("Surf Cadet", "Harbor Warden", "Breakwater Captain")]
    machines = [card_id(n) for n in ("Cog Acolyte", "Bellows Golem", "Gear Choir", "Brass Organist")]
    seat = state.seats[0]
    seat.binder = water + machines + [card_id("Cinder Recruit")]
    seat.deck = [card_id("Cinder Recruit")]
    M.turn_in_duel_collections(state, 0, (water, machines))
    assert seat.collection_rp == [70] and seat.collection_vp == [0]
    assert seat.binder == [card_id("Cinder Recruit")] and seat.collections == [water + machines]


@pytest.mark.parametrize(
    ("elemental", "typed", "problem"),
    [
        (["Surf Cadet", "Harbor Warden"], ["Harbor Warden", "Stone Sentinel"], "of the other collection"),
        (["Pocket Paladin", "Harbor Warden"], [], "illegal element collection: no element is shared"),
        (["Cinder Recruit", "Ember Lancer"], [], "a card of the deck"),
    ],
)
def test_duel_collections_are_checked(elemental: list[str], typed: list[str], problem: str) -> None:
    state = duel_state()
    seat = state.seats[0]
    seat.binder = [card_id(n) for n in ("Surf Cadet", "Harbor Warden", "Stone Sentinel", "Pocket Paladin")]
    seat.binder += [card_id("Cinder Recruit"), card_id("Ember Lancer")]
    seat.deck = [card_id("Cinder Recruit")]
    with pytest.raises(ValueError, match=problem):
        M.turn_in_duel_collections(state, 0, ([card_id(n) for n in elemental], [card_id(n) for n in typed]))


@pytest.mark.parametrize(
    ("rp", "collection_rp", "after_deckbuilding", "won", "places"),
    [
        # "added to your total RP at the end of the Tournament Phase": B's collections overturn A's lead.
        ([50, 40], [0, 20], True, [0, 1], [2, 1]),
        ([50, 40], [0, 0], True, [1, 0], [1, 2]),
        # Equal RP after the collections: neither wins (reading, as a tied clash: "neither player wins nor loses").
        ([50, 40], [0, 10], True, [0, 0], [1, 1]),
        # A pre-release tournament follows no deckbuilding: no collection RP.
        ([50, 40], [0, 20], False, [1, 0], [1, 2]),
    ],
)
def test_duel_tournament_winner_counts_the_collections(
    rp: list[int], collection_rp: list[int], after_deckbuilding: bool, won: list[int], places: list[int]
) -> None:
    state = duel_state()
    for seat, extra in zip(state.seats, collection_rp, strict=True):
        seat.collection_rp = [extra]
    assert M.duel_result(state, rp, after_deckbuilding) == places
    assert [seat.tournament_vp for seat in state.seats] == [[w] for w in won]
    bonus = collection_rp if after_deckbuilding else [0, 0]
    assert [seat.tournament_rp for seat in state.seats] == [[r + b] for r, b in zip(rp, bonus, strict=True)]


def test_a_duel_ends_when_a_seat_has_won_two_tournaments() -> None:
    # "The winner is determined by who wins best 2 out of 3 tournaments." / "The first player to win two
    # tournaments is declared the winner of the game!"
    runs = play_full_games(SAMPLE, options(players=2), 24, 3, "greedy")
    lengths: Counter[int] = Counter()
    for result in runs.results:
        assert result.duel
        length = len(result.tournament_vp[0])
        lengths[length] += 1
        wins = [0, 0]
        for k in range(length):
            for p in range(2):
                wins[p] += result.tournament_vp[p][k]
            assert sum(result.tournament_vp[p][k] for p in range(2)) <= 1
            if k < length - 1:
                assert max(wins) < 2, "the game went on after a seat had won two tournaments"
        assert length == 3 or max(wins) == 2
        assert result.total == wins and result.money_vp == [0, 0]
        # The seat with two wins (or more wins, or more RP) is the winner.
        best = max(range(2), key=lambda p: (wins[p], sum(result.tournament_rp[p])))
        assert result.rank[best] == 1
        assert all(len(rp) == length for rp in result.tournament_rp)
        assert all(len(rp) == length for rp in result.collection_rp)
    # Both ways a duel ends occur: 2-0 after two rounds, and a third, deciding round.
    assert set(lengths) == {2, 3}


def test_a_duel_with_a_prerelease_counts_it_as_the_first_of_three_tournaments() -> None:
    # "skip the third round of deckbuilding and the third tournament ... so that there are still only three
    # tournaments in the game": the pre-release is the duel's first tournament, and no collection precedes it.
    cards = M.compile_market(SAMPLE, options(players=2, prerelease=True))
    lengths: set[int] = set()
    for seed in range(4):
        policies = [make_policy("greedy"), make_policy("greedy")]
        result, lines = M.play_game(cards, MarketRng(seed), policies, [0, 0], True)
        played = len(result.tournament_vp[0])
        lengths.add(played)
        assert all(len(rp) == played - 1 for rp in result.collection_rp)
        assert not any(line.startswith("Round 3") for line in lines)
        start = next(k for k, line in enumerate(lines) if line.startswith("Pre-release tournament:"))
        end = lines.index("Round 1: deckbuilding")
        scores = [line for line in lines[start:end] if " scores " in line]
        assert len(scores) == 2 and all(" RP + 0 RP of collections = " in line for line in scores)
    assert lengths <= {2, 3}


def test_a_two_nil_duel_skips_the_third_round() -> None:
    # A collecting seat against one that only passes wins the first two tournaments; there is no third round.
    collector = make_policy("greedy")
    result, lines = M.play_game(DUEL, MarketRng(4), [collector, PassPolicy()], [0, 0], trace=True)
    assert result.tournament_vp == [[1, 1], [0, 0]] and result.rank == [1, 2] and result.total == [2, 0]
    assert not any(line.startswith("Round 3") for line in lines)
    assert result.money[1] == 60
    assert lines[-3] == "Game end (Duel Mode)"


GOLDEN = REPO_ROOT / "tests" / "golden" / "blades_full_game_trace.txt"
GOLDEN_SEED = 7


def golden_lines() -> list[str]:
    assert BLADES.engine is not None
    head = (
        f"# blades full game (market {M.MARKET_VERSION}, engine {BLADES.engine.version}), seed {GOLDEN_SEED}, 4 greedy"
    )
    return [head, *trace_full_game(SAMPLE, options(), GOLDEN_SEED)]


def test_golden_full_game_trace() -> None:
    # Re-record after an intended change (and bump MARKET_VERSION):
    # python -c "from tests.rulesets.blades.test_blades_market import write_golden; write_golden()"
    assert GOLDEN.read_text(encoding="utf-8").splitlines() == golden_lines()


def write_golden() -> None:
    GOLDEN.write_text("\n".join(golden_lines()) + "\n", encoding="utf-8")
    DUEL_GOLDEN.write_text("\n".join(duel_golden_lines()) + "\n", encoding="utf-8")


DUEL_GOLDEN = REPO_ROOT / "tests" / "golden" / "blades_full_game_duel_trace.txt"


def duel_golden_lines() -> list[str]:
    assert BLADES.engine is not None
    head = f"# blades duel (market {M.MARKET_VERSION}, engine {BLADES.engine.version}), seed {GOLDEN_SEED}, 2 greedy"
    return [head, *trace_full_game(SAMPLE, options(players=2), GOLDEN_SEED)]


def test_golden_duel_trace() -> None:
    # Two players by Duel Mode (seed 7: 1-1 after two rounds, A wins the third); re-recorded with write_golden().
    lines = duel_golden_lines()
    assert DUEL_GOLDEN.read_text(encoding="utf-8").splitlines() == lines
    assert lines[-3:-2] == ["Game end (Duel Mode)"]


# ---- the command line -------------------------------------------------------------------------------------------


def test_simulate_full_game_prints_vp_parts_per_seat_and_round(capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli import main

    args = ["simulate", "blades/blades_sample", "--option", "game=full", "--matches", "2", "--seed", "3"]
    assert main([*args, "--option", "players=3"]) == 0
    out = capsys.readouterr().out
    assert "2 whole games" in out
    assert "total  tourn.   coll.   money friend." in out
    for seat in "ABC":
        assert f"\n{seat}    greedy" in out and f"  {seat}: R1 " in out and "; R3 " in out
    assert main([*args, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2 and data["options"]["game"] == "full" and data["market_version"] == M.MARKET_VERSION
    for seat in data["seats"]:
        parts = seat["tournament"] + seat["collections"] + seat["money"] + seat["friendship"]
        assert seat["total"] == pytest.approx(parts)
        assert len(seat["tournament_by_round"]) == 3 and len(seat["collections_by_round"]) == 3


def test_simulate_two_players_reports_duel_mode(capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli import main

    args = ["simulate", "blades/blades_sample", "--option", "game=full", "--option", "players=2", "--matches", "4"]
    assert main([*args, "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "2 players by Duel Mode (the first to win two tournaments)" in out
    assert "t. won      RP coll.RP  $ left    wins" in out
    assert "  A: R1 " in out and "game length: " in out
    assert main([*args, "--seed", "3", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["two_player_rules"] == "duel" and data["options"]["two_player_rules"] == "duel"
    assert sum(data["tournaments_played"].values()) == pytest.approx(1.0)
    assert sum(seat["win_share"] for seat in data["seats"]) == pytest.approx(1.0)
    for seat in data["seats"]:
        assert seat["total"] == pytest.approx(seat["tournaments_won"])
        assert seat["friendship"] == 0 and seat["money"] == 0 and seat["collections"] == 0
        assert len(seat["won_by_round"]) == len(seat["rp_by_round"]) == data["rounds"]
        assert seat["collection_rp"] <= seat["rp"]


def test_simulate_full_game_trace_is_the_golden_game(capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli import main

    assert main(["simulate", "blades/blades_sample", "--option", "game=full", "--seed", "7", "--trace"]) == 0
    assert capsys.readouterr().out.splitlines() == golden_lines()[1:]


# ---- buy cost as a balance figure -------------------------------------------------------------------------------


def test_sweeping_a_buy_cost_finds_where_the_card_stops_being_bought() -> None:
    rows = buy_cost_sweep(SAMPLE, options(), "Cathedral Engine", [0, 100], 3, 2)
    free, dear = rows
    assert free["buy_cost"] == 0 and free["set_bought_per_game"] > 0
    assert dear["bought_per_game"] == 0 and dear["set_bought_per_game"] == 0
    assert free["value_per_dollar"] > dear["value_per_dollar"]
    assert sweep_lines("Cathedral Engine", rows)[-1] == (
        "Cathedral Engine was not bought from the store at a buy cost of 100 or at any later value swept."
    )


def test_a_swept_buy_cost_applies_to_the_whole_set() -> None:
    # A face-down card shows only its set, so its set has one buy cost.
    changed = with_set_buy_cost(SAMPLE, "Cathedral Engine", 9)
    cards = [card_of(e) for e in changed.entries]
    costs = {c.name: c.buy_cost for c in cards if c.set == "Clockwork Cathedral"}
    assert set(costs.values()) == {9} and len(costs) == 6
    assert {c.buy_cost for c in cards if c.set == "Core Set"} == {3}


def test_store_figures_cover_every_store_card() -> None:
    runs = play_full_games(SAMPLE, options(), 3, 5, "greedy")
    rows = store_figures(runs)
    assert {row["card"] for row in rows} == {CARDS.cards[c].name for c in set(CARDS.store_cards)}
    total = sum(int(r.bought.sum()) for r in runs.results)
    assert sum(row["bought_per_game"] for row in rows) * 3 == pytest.approx(total)
    assert [row["buy_cost"] for row in rows] == sorted(row["buy_cost"] for row in rows)


def test_sweep_command_full_game(capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli import main

    args = ["sweep", "blades/blades_sample", "--option", "game=full", "--card", "Cathedral Engine"]
    assert main([*args, "--field", "buy_cost", "--values", "4,60", "--matches-per-card", "2"]) == 0
    out = capsys.readouterr().out
    assert "2 whole games per value" in out and "its set's buy cost swept" in out
    assert main([*args, "--field", "stars", "--values", "4,6", "--matches-per-card", "2"]) == 2
    assert "--field buy_cost" in capsys.readouterr().err


def test_a_cards_copies_are_replaced_by_its_set_mates() -> None:
    # Umbral Conclave: Umbral Archon 1 copy, Conclave Deck Box 2, ... ; the store keeps its size.
    archon = card_id("Umbral Archon")
    replaced = replaced_by_set_mates(CARDS, archon)
    assert len(replaced) == len(CARDS.store_cards) and archon not in replaced
    added = Counter(replaced) - Counter(CARDS.store_cards)
    assert sum(added.values()) == 1
    assert all(CARDS.set_of[c] == CARDS.set_of[archon] for c in added)
    paladin = card_id("Pocket Paladin")  # 4 copies in the core set, shared out over its 12 other cards
    added = Counter(replaced_by_set_mates(CARDS, paladin)) - Counter(CARDS.store_cards)
    assert sum(added.values()) == 4 and all(CARDS.set_of[c] == CARDS.set_of[paladin] for c in added)


def test_store_power_rows_on_the_buy_cost_axis() -> None:
    rows = store_power(SAMPLE, options(), 2, 3)
    assert {row["card"] for row in rows} == {CARDS.cards[c].name for c in set(CARDS.store_cards)}
    assert [row["buy_cost"] for row in rows] == sorted(row["buy_cost"] for row in rows)
    assert all(row["low"] <= row["power"] <= row["high"] for row in rows)
    assert len({row["power"] for row in rows}) > 1


class DeckOf(PassPolicy):
    """Plays the deck it is given, owned or not."""

    def __init__(self, deck: list[int]) -> None:
        self.chosen = deck

    def deck(self, state: M.MarketState, p: int) -> list[int]:
        return list(self.chosen)


@pytest.mark.parametrize(
    ("replace", "problem"),
    [
        # A card the seat does not own (the binder keeps its starter deck, one card swapped for another).
        (True, "cards it does not own"),
        # The same card twice: the deck rule, named before ownership is asked.
        (False, "a card appears twice"),
    ],
)
def test_a_policy_deck_of_cards_not_owned_or_twice_the_same_is_refused(replace: bool, problem: str) -> None:
    state = fresh()
    owned = M.legal_part(state.cards, state.seats[0].binder)
    if replace:
        stranger = next(c for c in range(len(CARDS.cards)) if c not in state.seats[0].binder)
        deck = [*owned[1:], stranger]
    else:
        deck = [*owned[1:], owned[1]]
    policies = [DeckOf(deck)] + [PassPolicy() for _ in range(3)]
    with pytest.raises(ValueError, match=f"seat A's policy built an illegal deck: {problem}"):
        M.deckbuilding(state, policies)


def test_whole_games_of_a_set_larger_than_the_state_record_are_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament of a set of at most MAX_LOCAL cards plays by the set's own card ids; a larger set's, on the cards
    it can reach by ids of their own (`game_data`, `local_ids`). Made to here by a smaller MAX_LOCAL: the same games."""
    from workbench.rulesets.blades.engine import python_side
    from workbench.rulesets.blades.market_runs import game_rngs, play_one

    whole = [str(play_one(CARDS, rng, ["greedy"] * 4)[0]) for rng in game_rngs(5, 3)]
    monkeypatch.setattr(python_side, "MAX_LOCAL", len(CARDS.compiled.names) - 1)
    assert [str(play_one(CARDS, rng, ["greedy"] * 4)[0]) for rng in game_rngs(5, 3)] == whole


def _record_fields(state: Any, cards: int) -> dict[str, list[Any]]:
    """A tournament state record's fields as lists (the counters up to `cards`; the trace, untraced, left out)."""
    from workbench.rulesets.blades.engine.layout import STATE_DTYPE

    found = {name: state[name].tolist() for name in STATE_DTYPE.names or () if name not in ("counters", "events")}
    found["counters"] = state["counters"][:, :cards].tolist()
    return found


def test_seat_players_seats_every_player_as_setup_seat_does() -> None:
    """`seat_players` (the whole game's tournaments: every seat in one call) leaves the record `setup_seat` leaves seat
    by seat, each seat's extra tableau slots added after it (at most MAX_SLOTS): on random decks of the set, of up to
    16 singles (over the hand's limit some go back, by the generator) and of any deck boxes and accessories."""
    import random

    import numpy as np

    from workbench.engines import rng_seed
    from workbench.play.policies import GREEDY, RANDOM
    from workbench.rulesets.blades.engine import layout, python_side, rules

    compiled = CARDS.compiled
    ids, g = python_side.game_data(compiled, np.arange(len(compiled.names), dtype=np.int64))
    kinds = compiled.table[:, layout.T_KIND].tolist()
    singles = [c for c, kind in enumerate(kinds) if kind == layout.K_SINGLE]
    others = [c for c, kind in enumerate(kinds) if kind in (layout.K_DECK_BOX, layout.K_ACCESSORY)]
    draw = random.Random(20261204)
    for _ in range(30):
        n = draw.choice([2, 3, 4, 5])
        decks = [draw.sample(singles, draw.randint(0, 16)) + draw.sample(others, draw.randint(0, 4)) for _ in range(n)]
        for deck in decks:
            draw.shuffle(deck)
        policies = np.array([draw.choice([GREEDY, RANDOM]) for _ in range(n)], dtype=np.int64)
        extra = np.array([draw.choice([0, 0, 1, 3, layout.MAX_SLOTS]) for _ in range(n)], dtype=np.int64)
        seed = np.int64(draw.getrandbits(62))
        options = compiled.options.copy()
        options[layout.O_PLAYERS] = n
        one, each = (python_side.new_state(options, False, ids.shape[0]) for _ in range(2))
        for state in (one, each):
            state["game"][layout.G_PLAYERS] = n
            state["game"][layout.G_SLOTS] = options[layout.O_SLOTS]
            rng_seed(state["rng"], seed)
        flat = np.array([c for deck in decks for c in deck], dtype=np.int64)
        ends = np.cumsum([len(deck) for deck in decks]).astype(np.int64)
        rules.seat_players(g, one, flat, ends, policies, seed, extra)
        for p, deck in enumerate(decks):
            rules.setup_seat(g, each, np.int64(p), np.array(deck, dtype=np.int64), policies[p], np.int64(0), seed)
            if extra[p]:
                slots = each["side"][p, layout.S_SLOTS] + extra[p]
                each["side"][p, layout.S_SLOTS] = min(layout.MAX_SLOTS, slots)
        assert _record_fields(one, ids.shape[0]) == _record_fields(each, ids.shape[0])


def test_a_reused_state_record_starts_as_a_fresh_one() -> None:
    """The thread's reused tournament record (`reused_state`), after whole games played on it, starts as a fresh
    record (`new_state`) starts; another thread gets a record of its own."""
    import threading

    from workbench.rulesets.blades.engine import python_side
    from workbench.rulesets.blades.market_runs import game_rngs, play_one

    for rng in game_rngs(11, 2):
        play_one(CARDS, rng, ["greedy", "random", "greedy", "random"])
    options = CARDS.compiled.options.copy()
    cards = len(CARDS.compiled.names)
    reused = python_side.reused_state(options, cards)
    assert _record_fields(reused, cards) == _record_fields(python_side.new_state(options, False, cards), cards)
    assert python_side.reused_state(options, cards) is reused
    other: list[Any] = []
    worker = threading.Thread(target=lambda: other.append(python_side.reused_state(options, cards)))
    worker.start()
    worker.join()
    assert other[0] is not reused
