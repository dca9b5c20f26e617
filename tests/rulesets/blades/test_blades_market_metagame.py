"""The whole game's metagame (`market.py`): the two stacks shuffled once a game, cards dealt from the top, revealed
cards out of play, the Elemental card revealed before the first timer and the Type card after it, and greedy
building its deck for what is revealed. Each case quotes the document (Game Setup step 4; Deckbuilding Phase,
Setup the Phase step 6; When time runs out...; Pre-Release Tournament; Ending the Tournament)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from workbench.cards import CardSet, OptionValue
from workbench.loading import load_cardset
from workbench.paths import bundled_sets
from workbench.rulesets.blades import RULESET as BLADES
from workbench.rulesets.blades import engine as E
from workbench.rulesets.blades import market as M
from workbench.rulesets.blades.market_policy import GreedyMarket, known_metagame, make_policy
from workbench.rulesets.blades.market_rng import MarketRng

MakeCardSet = Callable[..., CardSet]

SAMPLE = load_cardset(bundled_sets("blades")[0], BLADES)


def options(**overrides: OptionValue) -> dict[str, OptionValue]:
    return BLADES.resolve_options({"game": "full", **{k: str(v) for k, v in overrides.items()}})


CARDS = M.compile_market(SAMPLE, options())
NAMES = CARDS.compiled.names
ELEMENTAL = frozenset(i for i, card in enumerate(CARDS.cards) if card.set == "Elemental Meta")
TYPE = frozenset(i for i, card in enumerate(CARDS.cards) if card.set == "Type Meta")


class Recorder:
    """Passes every turn, plays its first legal deck, turns in nothing, and writes down what the table shows of the
    metagame at each of its turns (per round and timer segment) and when it builds its deck."""

    def __init__(self, log: list[tuple[int, str, tuple[int, ...], tuple[int, ...], tuple[int, ...]]]) -> None:
        self.log = log

    def note(self, state: M.MarketState, moment: str) -> None:
        stacks = tuple(c for stack in state.meta_stacks for c in stack)
        self.log.append((state.round, moment, tuple(state.metagame), stacks, tuple(state.meta_out)))

    def act(self, state: M.MarketState, p: int) -> M.Action:
        if p == 0:
            self.note(state, f"segment {state.segment}")
        return M.Action(M.PASS)

    def accepts_trade(self, state: M.MarketState, p: int, card: int) -> bool:
        return False

    def deck(self, state: M.MarketState, p: int) -> list[int]:
        if p == 0:
            self.note(state, "deck")
        return M.legal_part(state.cards, state.seats[p].binder)

    def collection(self, state: M.MarketState, p: int, deck: Sequence[int]) -> list[int]:
        return []

    def duel_collections(self, state: M.MarketState, p: int, deck: Sequence[int]) -> tuple[list[int], list[int]]:
        return [], []

    def pick_metagame(self, state: M.MarketState, p: int, stack: int, seen: Sequence[int]) -> int:
        return 0


def spy_on_tournaments(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, ...]]:
    """The metagame cards each tournament of the game is played with (the engine's G_META slots, as `market.py`
    hands them over)."""
    seen: list[tuple[int, ...]] = []
    original, original_data = E.play_tournament, E.game_data
    ids: list[Any] = []
    """The set's card ids of the last tournament's own card ids (`game_data`), by which G_META is written."""

    def data(*args: Any) -> Any:
        ids[:] = [original_data(*args)]
        return ids[0]

    def spy(g: Any, s: Any, *rest: Any) -> None:
        own = ids[0][0]
        seen.append(tuple(int(own[c]) for c in s.game[E.G_META : E.G_META + E.MAX_META_STACKS] if c >= 0))
        original(g, s, *rest)

    # Set in the modules the market calls them from.
    monkeypatch.setattr(M.engine_python_side, "game_data", data)
    monkeypatch.setattr(M.engine_policies, "play_tournament", spy)
    return seen


def recorded_game(
    cards: M.MarketCards, players: int, seed: int
) -> list[tuple[int, str, tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
    log: list[tuple[int, str, tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = []
    M.play_game(cards, MarketRng(seed), [Recorder(log) for _ in range(players)], [0] * players)
    return log


# ---- "Shuffle the 2 stacks of Metagame Cards separately" ... "Discard any revealed Metagame cards out of play" ----


@pytest.mark.parametrize(
    ("players", "overrides", "rounds"),
    [
        (4, {}, {3}),
        (3, {}, {3}),
        (5, {}, {3}),
        # Duel Mode: "All rules and actions in this mode are the same as in normal rules"; a 2-0 duel ends early.
        (2, {}, {2, 3}),
        (2, {"two_player_rules": "normal"}, {3}),
        # "skip the third round of deckbuilding and the third tournament"
        (4, {"prerelease": True}, {2}),
    ],
)
def test_no_metagame_card_is_revealed_twice_in_a_game(
    players: int, overrides: dict[str, OptionValue], rounds: set[int]
) -> None:
    # "4. Setup Metagame. Shuffle the 2 stacks of Metagame Cards separately" (once, at setup) and, each round,
    # "6. Discard any revealed Metagame cards out of play. Reveal a new Elemental Metagame Card." With six cards a
    # stack and at most three rounds, every round shows a new card of each stack.
    cards = M.compile_market(SAMPLE, options(players=players, **overrides))
    rounds_seen: Counter[int] = Counter()
    for seed in range(30):
        log = recorded_game(cards, players, seed)
        decks = [entry for entry in log if entry[1] == "deck"]
        revealed = [card for entry in decks for card in entry[2]]
        assert len(revealed) == len(set(revealed)), f"seed {seed}: {[NAMES[c] for c in revealed]}"
        for _, _, metagame, _, _ in decks:
            assert len(metagame) == 2 and metagame[0] in ELEMENTAL and metagame[1] in TYPE
        rounds_seen[len(decks)] += 1
    assert set(rounds_seen) <= rounds


def test_revealed_cards_never_come_back_and_the_stacks_lose_one_card_a_round() -> None:
    # "Discard any revealed Metagame cards out of play": at every moment each stack card is in exactly one place
    # (its stack, face-up, or out of play), and a stack is dealt from its top.
    whole = sorted(ELEMENTAL | TYPE)
    for seed in range(10):
        log = recorded_game(CARDS, 4, seed)
        out_before: tuple[int, ...] = ()
        for round_, moment, metagame, stacks, out in log:
            shown = [c for c in metagame if c >= 0]
            assert sorted([*stacks, *shown, *out]) == whole, (seed, round_, moment)
            assert not set(out) & set(shown)
            assert out[: len(out_before)] == out_before
            out_before = out
            if moment == "deck":
                assert len(out) == 2 * (round_ - 1) and len(stacks) == 12 - 2 * round_


def test_cards_are_dealt_from_the_top_of_each_shuffled_stack() -> None:
    # "reveal the top card of the Type Meta stack": the stacks' order is fixed at setup, and each reveal takes the
    # next card of it.
    state = M.new_game(CARDS, MarketRng(2), [0] * 4)
    order = [list(stack) for stack in state.meta_stacks]
    assert [sorted(stack) for stack in order] == [sorted(stack) for stack in CARDS.meta_stacks]
    assert state.metagame == [-1, -1] and state.meta_out == []
    for round_ in range(3):
        M.discard_metagame(state)
        M.reveal_metagame(state, M.META_ELEMENTAL)
        M.reveal_metagame(state, M.META_TYPE)
        assert state.metagame == [order[0][round_], order[1][round_]]
    assert state.meta_out == [order[0][0], order[1][0], order[0][1], order[1][1]]


# ---- when each card is revealed -------------------------------------------------------------------------------------

# (moment, the Elemental card is face-up, the Type card is face-up, the document's words)
TIMING = [
    (
        "segment 0",
        True,
        False,
        "6. Discard any revealed Metagame cards out of play. Reveal a new Elemental Metagame Card. 7. Set a Timer for "
        "7 minutes, and begin!",
    ),
    (
        "segment 1",
        True,
        True,
        "After the first 7-minute timer expires, deal each player 6 more cards from the store deck, then reveal the "
        "top card of the Type Meta stack.",
    ),
    ("segment 2", True, True, "Set another 7-minute timer. After this timer expires, ... set another 6-minute timer."),
    ("deck", True, True, "After the final 6-minute timer expires, the Deckbuilding Phase ends"),
]


@pytest.mark.parametrize(("moment", "elemental", "typed", "quote"), TIMING)
def test_what_a_seat_knows_of_the_metagame_while_it_builds(
    moment: str, elemental: bool, typed: bool, quote: str
) -> None:
    for seed in range(5):
        log = recorded_game(CARDS, 4, seed)
        by_round = {entry[0]: entry[2] for entry in log if entry[1] == "deck"}
        seen = [entry for entry in log if entry[1] == moment]
        assert {entry[0] for entry in seen} == {1, 2, 3}, quote
        for round_, _, metagame, _, _ in seen:
            assert (metagame[0] >= 0, metagame[1] >= 0) == (elemental, typed), (quote, round_)
            # The card shown is this round's (the one the tournament is scored with), not last round's.
            assert metagame[0] == by_round[round_][0]
            if typed:
                assert metagame[1] == by_round[round_][1]


def test_each_tournament_is_played_with_its_rounds_metagame(monkeypatch: pytest.MonkeyPatch) -> None:
    # "Every Player activates the Metagame Score effects for themselves": the engine gets this round's two cards.
    seen = spy_on_tournaments(monkeypatch)
    log = recorded_game(CARDS, 4, 6)
    assert seen == [entry[2] for entry in log if entry[1] == "deck"]


@pytest.mark.parametrize("players", [4, 2])
def test_the_prerelease_tournament_reveals_no_metagame(monkeypatch: pytest.MonkeyPatch, players: int) -> None:
    # "2. No Metagame is revealed during this tournament, and character powers are not used."
    seen = spy_on_tournaments(monkeypatch)
    _, lines = M.play_game(
        M.compile_market(SAMPLE, options(players=players, prerelease=True)),
        MarketRng(1),
        [make_policy("greedy") for _ in range(players)],
        [0] * players,
        trace=True,
    )
    assert seen[0] == ()
    assert all(len(metagame) == 2 for metagame in seen[1:])
    prerelease = lines[: lines.index("Round 1: deckbuilding")]
    assert not any("metagame" in line for line in prerelease)


def test_metagame_none_reveals_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # The `metagame=none` toggle: no stack is set up and no tournament scores a metagame card.
    seen = spy_on_tournaments(monkeypatch)
    cards = M.compile_market(SAMPLE, options(metagame="none"))
    assert cards.meta_stacks == ()
    _, lines = M.play_game(cards, MarketRng(3), [make_policy("greedy") for _ in range(4)], [0] * 4, True)
    assert seen == [(), (), ()]
    assert not any("metagame" in line for line in lines)


def test_the_trace_shows_each_reveal_where_the_document_puts_it() -> None:
    # The document's picture: "Get new cards and cash! / Reveal Elemental Meta / 7-Minute Timer / Get more cards! /
    # Reveal Type Meta / 7-Minute Timer / Last Call to sell cards / 6-Minute Timer / End the Deckbuilding Phase".
    _, lines = M.play_game(CARDS, MarketRng(5), [make_policy("greedy") for _ in range(4)], [0] * 4, True)
    for round_ in (1, 2, 3):
        start = lines.index(f"Round {round_}: deckbuilding")
        end = lines.index(f"Round {round_}: end of deckbuilding")
        phase = lines[start:end]

        def at(text: str, phase: list[str] = phase) -> int:
            return next(k for k, line in enumerate(phase) if text in line)

        elemental = at("the Elemental metagame card is revealed: ")
        first_timer = phase.index("  the first timer ends: six more cards each")
        typed = at("the Type metagame card is revealed: ")
        # Income and the six cards first (a store run empty refilled from its discard on the way), then the reveal,
        # then the timer's actions (the first action's line starts with a seat letter and a verb).
        dealing = [
            line for line in phase[1:elemental] if not line.startswith(("  the revealed", "  the store is empty"))
        ]
        assert all(" is dealt " in line for line in dealing)
        assert (
            elemental
            < first_timer
            < typed
            < phase.index("  the second timer ends: the aftermarket stops accepting cards for sale")
        )
        assert all(" is dealt " in line for line in phase[first_timer + 1 : typed])
        if round_ > 1:
            assert at("the revealed metagame cards go out of play: ") == elemental - 1


# ---- the same seed, the same game ----------------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_metagame_and_game() -> None:
    def game(seed: int) -> list[str]:
        return M.play_game(CARDS, MarketRng(seed), [make_policy("greedy") for _ in range(4)], [0] * 4, True)[1]

    assert game(8) == game(8)
    # The shuffle is the game's own: over seeds the first Elemental card is each of the six.
    firsts = {M.new_game(CARDS, MarketRng(seed), [0] * 4).meta_stacks[0][0] for seed in range(60)}
    assert firsts == ELEMENTAL


# ---- which stack is which, and a stack that runs out ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "timing"),
    [
        (["Elemental Meta", "Type Meta"], (M.META_ELEMENTAL, M.META_TYPE)),
        (["Type Meta", "Elemental Meta"], (M.META_TYPE, M.META_ELEMENTAL)),
        (["Element Stack", "Season Stack"], (M.META_ELEMENTAL, M.META_TYPE)),
        (["Meta A", "Meta B"], (M.META_ELEMENTAL, M.META_TYPE)),
        (["Meta A"], (M.META_ELEMENTAL,)),
        (["Type Meta"], (M.META_TYPE,)),
    ],
)
def test_which_stack_is_the_elemental_and_which_the_type(names: list[str], timing: tuple[int, ...]) -> None:
    # "Reveal a new Elemental Metagame Card" ... "reveal the top card of the Type Meta stack": named by the set.
    assert M.metagame_timing(names) == timing


def small_rows(type_cards: int) -> list[dict[str, Any]]:
    """A sheet for a whole game: a starter of eight 1-star Fire singles, a store of 2-star Water singles, an
    Elemental Meta of Fire and Water Ascendant, and a Type Meta of `type_cards` Seasons (every single a Citizen)."""

    def single(name: str, set_name: str, kind: str, element: str, stars: int, **extra: Any) -> dict[str, Any]:
        row = {
            "name": name,
            "kind": "single",
            "set": set_name,
            "set_kind": kind,
            "stars": stars,
            "elements": element,
            "types": "Citizen",
            "rarity": "Common",
            "copies": 1,
            "effects": "",
        }
        row.update(extra)
        return row

    def meta(name: str, set_name: str, element: str, kind: str, effect: str) -> dict[str, Any]:
        return {
            "name": name,
            "kind": "metagame",
            "set": set_name,
            "set_kind": "meta",
            "elements": element,
            "types": kind,
            "rarity": "Meta",
            "copies": 1,
            "effects": effect,
        }

    rows = [single(f"Ember {i}", "Ember Starter", "starter", "Fire", 1) for i in range(1, 9)]
    rows += [single(f"Wave {i}", "Core", "core", "Water", 2, buy_cost=3, copies=4) for i in range(1, 13)]
    rows.append(meta("Fire Ascendant", "Elemental Meta", "Fire", "", "Score: gain 3 RP per fire"))
    rows.append(meta("Water Ascendant", "Elemental Meta", "Water", "", "Score: gain 3 RP per water"))
    seasons = ["Citizen", "Soldier", "Mage"][:type_cards]
    rows += [meta(f"{t} Season", "Type Meta", "", t, f"Score: gain 2 RP per {t.lower()}") for t in seasons]
    return rows


def test_a_stack_of_fewer_cards_than_rounds_runs_out(make_cardset: MakeCardSet) -> None:
    # Revealed cards go "out of play", so a Type Meta of two cards has none left for the third round (the
    # document's stacks of six never run out in three rounds): nothing is revealed from it, and the trace says so.
    cards = M.compile_market(make_cardset(BLADES, small_rows(2)), options())
    log = recorded_game(cards, 4, 0)
    decks = [entry[2] for entry in log if entry[1] == "deck"]
    # Both stacks hold two cards here: two different cards of each, then none.
    assert [(m[0] >= 0, m[1] >= 0) for m in decks] == [(True, True), (True, True), (False, False)]
    assert decks[0][0] != decks[1][0] and decks[0][1] != decks[1][1]
    _, lines = M.play_game(cards, MarketRng(0), [Recorder([]) for _ in range(4)], [0] * 4, True)
    assert "  the Type Meta stack (Type Meta) is empty" in lines
    assert "  the Elemental Meta stack (Elemental Meta) is empty" in lines


# ---- greedy builds for the revealed metagame ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("revealed", "element"),
    [
        ((), "Water"),  # no metagame: the 2-star Water singles (stars count in clashes)
        (("Fire Ascendant",), "Fire"),  # "Gain 3 RP for each Fire card in your tableau"
        (("Water Ascendant",), "Water"),
        (("Fire Ascendant", "Citizen Season"), "Fire"),  # a Season every single matches changes no choice
    ],
)
def test_greedy_builds_its_deck_for_the_revealed_metagame(
    make_cardset: MakeCardSet, revealed: tuple[str, ...], element: str
) -> None:
    # "Each round, the metagame will shift. The Metagame gives significant bonuses if you can incorporate it into
    # your deck. Don't ignore it!"
    cards = M.compile_market(make_cardset(BLADES, small_rows(3)), options())
    state = M.new_game(cards, MarketRng(0), [0] * 4)
    ids = {name: i for i, name in enumerate(cards.compiled.names)}
    state.seats[0].binder = [ids[f"Ember {i}"] for i in range(1, 9)] + [ids[f"Wave {i}"] for i in range(1, 9)]
    for name in revealed:
        m = next(m for m, stack in enumerate(cards.meta_stacks) if ids[name] in stack)
        state.metagame[m] = ids[name]
    deck = GreedyMarket().deck(state, 0)
    assert len(deck) == 8
    assert {cards.cards[c].elements[0] for c in deck} == {element}


def test_the_search_knows_the_revealed_cards_and_only_which_cards_a_hidden_stack_holds() -> None:
    # A search "never peeks": the Type Meta not yet revealed is any card still in its stack (never one gone out of
    # play), whatever the stack's order.
    state = M.new_game(CARDS, MarketRng(4), [0] * 4)
    M.reveal_metagame(state, M.META_ELEMENTAL)
    known = known_metagame(state)
    assert known[0, 0] == 1 and known[0, 1] == state.metagame[0]
    assert known[1, 0] == 6 and sorted(known[1, 1:7].tolist()) == sorted(TYPE)
    M.reveal_metagame(state, M.META_TYPE)
    M.discard_metagame(state)
    M.reveal_metagame(state, M.META_ELEMENTAL)
    known = known_metagame(state)
    assert known[1, 0] == 5 and set(known[1, 1:6].tolist()) == set(TYPE) - set(state.meta_out)
    shuffled = state.meta_stacks[1][::-1]
    state.meta_stacks[1] = shuffled
    assert (known_metagame(state) == known).all()
