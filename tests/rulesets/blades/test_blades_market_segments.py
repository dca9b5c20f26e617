"""The compiled timer segments (`market_kernels.play_segments`: one, dispatched by `market_segments.run_segment`, or
a round's three in one call, by `market_segments.run_segments`) against the Python market's (`market.run_segment`
and `market.run_segments`, the reference): every segment and every round of whole games leaves the same state, on
every configuration `market_fingerprint.py` digests and on random seeds, and whole games are the same games."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from workbench.cards import OptionValue
from workbench.loading import load_cardset
from workbench.paths import bundled_sets
from workbench.rulesets.blades import RULESET as BLADES
from workbench.rulesets.blades import market as M
from workbench.rulesets.blades import market_segments as S
from workbench.rulesets.blades.market_policy import MARKET_POLICIES, make_policy
from workbench.rulesets.blades.market_rng import MarketRng
from workbench.rulesets.blades.market_runs import game_rngs, play_one

CONFIGURATIONS: tuple[tuple[str, str, str, dict[str, OptionValue]], ...] = (
    ("4 greedy", "greedy", "greedy", {}),
    ("greedy A vs 3 random", "greedy", "random", {}),
    ("4 random", "random", "random", {}),
    ("2 greedy, Duel Mode", "greedy", "greedy", {"players": 2}),
    ("2 greedy, normal rules", "greedy", "greedy", {"players": 2, "two_player_rules": "normal"}),
    ("greedy A vs random, Duel Mode", "greedy", "random", {"players": 2}),
    ("5 greedy", "greedy", "greedy", {"players": 5}),
    ("5: greedy A vs random", "greedy", "random", {"players": 5}),
    (
        "3 greedy, clockwise, no trades",
        "greedy",
        "greedy",
        {"players": 3, "market_order": "clockwise", "trades": False},
    ),
    ("4 greedy, pre-release", "greedy", "greedy", {"prerelease": True}),
    ("4 greedy, characters and pro cards", "greedy", "greedy", {"characters": "random", "pro_cards": True}),
    ("greedy A vs random, characters", "greedy", "random", {"characters": "random", "pro_cards": True}),
    ("random A vs greedy, no metagame", "random", "greedy", {"metagame": "none", "collection_symbol": "pairwise"}),
    ("4 greedy, three actions a segment", "greedy", "greedy", {"market_actions": 3}),
)
"""Tables of greedy and random seats: seat A's policy, the others', rule options (every configuration
`market_fingerprint.py` digests but the search one, and three more)."""


def market_cards(options: dict[str, OptionValue]) -> M.MarketCards:
    cardset = load_cardset(bundled_sets("blades")[0], BLADES)
    return M.compile_market(cardset, BLADES.resolve_options(options))


def state_of(state: M.MarketState) -> tuple[object, ...]:
    """Everything a segment or a round's segments (the deal and the reveal between them) may change, as plain
    values."""
    return (
        state.segment,
        state.short,
        state.metagame,
        state.meta_stacks,
        state.seats,
        state.store_deck,
        state.store_area,
        state.store_discard,
        state.aftermarket,
        state.fusion_piles,
        state.shown,
        state.bought.tolist(),
        state.bought_by_seat.tolist(),
        state.rng.words(),
    )


def ends_of_deckbuilding(
    state: M.MarketState, policies: Sequence[M.MarketPolicy]
) -> list[tuple[list[int], tuple[list[int], list[int]]]]:
    """Each seat's deck and collections as its policy makes them in Python, seat by seat as `market.deckbuilding`
    asks (a random seat draws them from the game's generator)."""
    found = []
    for p, policy in enumerate(policies):
        deck = policy.deck(state, p)
        if state.duel:
            found.append((deck, policy.duel_collections(state, p, deck)))
        else:
            found.append((deck, (policy.collection(state, p, deck), [])))
    return found


def round_ends(state: M.MarketState) -> list[tuple[list[int], tuple[list[int], list[int]]]]:
    """Each seat's deck and collections as the compiled segments left them (`MarketState.round_end`)."""
    return [(state.round_end[p].deck, state.round_end[p].collections) for p in range(state.players)]


class BothWays:
    """A segments runner that plays every segment (`rounds` False) or every round's three segments (True) twice
    from the same state: the Python market's on a copy (with copies of the policies), the compiled one on the game
    itself; it records any segment or round where they part."""

    def __init__(self, rounds: bool) -> None:
        self.rounds = rounds
        self.played = 0
        self.compiled = 0
        self.ends = 0
        self.round_ends = 0
        self.parted: list[str] = []

    def __call__(self, state: M.MarketState, policies: Sequence[M.MarketPolicy]) -> None:
        if self.rounds:
            self.both(state, policies, M.run_segments, S.run_segments)
        else:
            M.run_segments(state, policies, self.segment)

    def segment(self, state: M.MarketState, policies: Sequence[M.MarketPolicy]) -> None:
        self.both(state, policies, M.run_segment, S.run_segment)

    def both(
        self,
        state: M.MarketState,
        policies: Sequence[M.MarketPolicy],
        reference: M.SegmentRunner,
        dispatched: M.SegmentRunner,
    ) -> None:
        state.round_end.clear()  # the twin's policies draw their own at the round's end
        twin = copy.deepcopy(state, {id(state.cards): state.cards})
        twin_policies = copy.deepcopy(policies)
        reference(twin, twin_policies)
        self.compiled += S.compiled(state, policies)
        dispatched(state, policies)
        self.played += 1
        ended = state.segment == M.LAST_CALL
        self.round_ends += ended
        # After a round's last segment the kernel has made each seat's end of deckbuilding (a random seat's drawn
        # from the game's generator): the twin's policies make theirs in Python, seat by seat as `deckbuilding`
        # asks them, before the two are compared.
        if ended:
            self.ends += len(state.round_end)
            if round_ends(state) != ends_of_deckbuilding(twin, twin_policies):
                self.parted.append(f"round {state.round}: the decks or collections at the round's end")
        if state_of(twin) != state_of(state):
            self.parted.append(f"round {state.round}, segment {state.segment}")


def play_both_ways(cards: M.MarketCards, seed: int, names: Sequence[str], rounds: bool) -> BothWays:
    runner = BothWays(rounds)
    policies = [make_policy(name) for name in names]
    M.play_game(cards, MarketRng(seed), policies, [MARKET_POLICIES.index(name) for name in names], False, runner)
    return runner


@pytest.mark.parametrize(("label", "seat_a", "others", "options"), CONFIGURATIONS, ids=[c[0] for c in CONFIGURATIONS])
def test_every_compiled_segment_leaves_the_state_the_python_segment_leaves(
    label: str, seat_a: str, others: str, options: dict[str, OptionValue]
) -> None:
    cards = market_cards(options)
    names = [seat_a] + [others] * (int(cards.options["players"]) - 1)
    for seed in range(4):
        for rounds in (False, True):
            runner = play_both_ways(cards, seed, names, rounds)
            assert runner.parted == [], f"{label}, seed {seed}, {'rounds' if rounds else 'segments'}"
            # Every segment or round was played compiled (the dispatch did not fall back to the Python market).
            assert runner.compiled == runner.played > 0
            # Every round's end left each seat's deck and collections.
            assert runner.round_ends > 0
            assert runner.ends == len(names) * runner.round_ends


def test_segments_agree_on_random_seeds() -> None:
    cards = market_cards({})
    seeds = random.Random(20261204).sample(range(2**62), 12)
    for seed in seeds:
        for names in (["greedy"] * 4, ["greedy", "random", "random", "random"]):
            for rounds in (False, True):
                assert play_both_ways(cards, seed, names, rounds).parted == [], f"seed {seed}, {names}, {rounds}"


def game_fields(result: M.GameResult) -> list[object]:
    return [
        value.tolist() if isinstance(value, np.ndarray) else value
        for value in (getattr(result, f) for f in result.__dataclass_fields__)
    ]


def test_whole_games_through_the_runner_are_the_python_markets_games() -> None:
    cards = market_cards({})
    for k, (rng_python, rng_compiled) in enumerate(zip(game_rngs(3, 8), game_rngs(3, 8), strict=True)):
        names = ["greedy"] + ["greedy" if k % 2 else "random"] * 3
        codes = [MARKET_POLICIES.index(name) for name in names]
        reference, _ = M.play_game(cards, rng_python, [make_policy(name) for name in names], codes)
        result, _ = play_one(cards, rng_compiled, names)
        assert game_fields(result) == game_fields(reference)
        assert rng_python.words() == rng_compiled.words()


def test_a_table_with_a_search_seat_or_a_trace_is_played_by_the_python_market() -> None:
    cards = market_cards({})
    state = M.new_game(cards, MarketRng(1), [0, 0, 0, 0])
    greedy = [make_policy("greedy") for _ in range(4)]
    assert S.compiled(state, greedy)
    assert S.compiled(state, greedy[:3] + [make_policy("random")])
    assert not S.compiled(state, greedy[:3] + [make_policy("search")])
    traced = M.new_game(cards, MarketRng(1), [0, 0, 0, 0], trace=True)
    assert not S.compiled(traced, greedy)


def test_the_generator_goes_on_from_the_words_a_kernel_leaves() -> None:
    rng, twin = MarketRng(11), MarketRng(11)
    drawn = [rng.next() for _ in range(300)]
    assert drawn == [twin.next() for _ in range(300)]
    # A generator resumed from another's words draws what that one draws next, block boundaries included.
    resumed = MarketRng(0)
    resumed.resume(np.array(rng.words(), dtype=np.int64))
    assert [resumed.next() for _ in range(600)] == [rng.next() for _ in range(600)]


def test_a_round_with_the_power_creep_plays_its_segments_one_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Power Creep's policy picks the Type metagame card it reveals (in Python), so a round with it at the table
    is played a segment at a time, compiled, with the reveal between; still the Python market's round."""
    cards = market_cards({"characters": "random", "pro_cards": True})
    creep = [c.name for c in M.CHARACTERS].index("The Power Creep")

    kernel = S.MK.play_segments
    spans: list[int] = []

    def one_at_a_time(from_segment: int, to_segment: int, *rest: Any) -> tuple[int, int]:
        spans.append(to_segment - from_segment)
        return kernel(from_segment, to_segment, *rest)

    monkeypatch.setattr(S.MK, "play_segments", one_at_a_time)
    for seed in range(3):
        state = M.new_game(cards, MarketRng(seed), [0, 0, 0, 0])
        state.seats[1].character = creep
        assert M.power(state, 1, M.POWER_META_LOOK) > 1
        policies = [make_policy("greedy"), make_policy("greedy"), make_policy("random"), make_policy("random")]
        twin = copy.deepcopy(state, {id(state.cards): state.cards})
        twin_policies = copy.deepcopy(policies)
        M.run_segments(twin, twin_policies)
        S.run_segments(state, policies)
        # The last segment's call made the end of deckbuilding (the random seats' draws): so does the twin.
        assert round_ends(state) == ends_of_deckbuilding(twin, twin_policies), f"seed {seed}"
        assert state_of(twin) == state_of(state), f"seed {seed}"
    assert spans == [1] * 9


def test_binders_of_more_cards_than_the_set_has_play_as_in_python() -> None:
    """A binder may hold more cards than the set has (copies): a random seat's fusion marks its sample by place in
    the binder, so its marks have room for the binder too (once written past the end, which corrupted the heap)."""
    cards = market_cards({})
    same_kind = [c for c in range(len(cards.cards)) if cards.kind[c] == cards.kind[0]][:20]
    for seed in range(40):
        state = M.new_game(cards, MarketRng(seed), [1] * 4)
        for seat in state.seats:
            seat.binder = same_kind * 5
            seat.markers = 3
        assert len(state.seats[0].binder) > len(cards.cards)
        policies = [make_policy("random") for _ in range(4)]
        twin = copy.deepcopy(state, {id(cards): cards})
        M.run_segment(twin, copy.deepcopy(policies))
        S.run_segment(state, policies)
        assert state_of(twin) == state_of(state), f"seed {seed}"
