"""Rule fidelity of the Millennium Blades tournament engine: scenarios built from the document's own rules and numbers.

Each scenario builds tableaus of bundled cards (cardsets/blades/blades_sample.csv) and calls one kernel of
workbench/rulesets/blades/engine/ (the package). The golden trace test at the bottom says how to regenerate the trace.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

from workbench.cards import CardSet, Deck, OptionValue, WorkbenchInputError
from workbench.decklists import read_decklist
from workbench.engines import (
    ATTACKED,
    DAMAGE_DEALT,
    DESTROYED,
    DRAWN,
    FIRST_PLAYED_TURN,
    MATCHES_DRAWN,
    MATCHES_PLAYED,
    MATCHES_PLAYED_WITH_A_ROUND_LEFT,
    PLAYED,
    PLAYED_MATCH_TURNS,
    IntArray,
    rng_seed,
)
from workbench.loading import load_cardset
from workbench.paths import REPO_ROOT, bundled_decks, bundled_sets
from workbench.play.policies import GREEDY, RANDOM, SEARCH
from workbench.rulesets.blades import RULESET
from workbench.rulesets.blades import engine as E
from workbench.run_settings import RunSettings
from workbench.simulate import simulate, trace

SAMPLE = load_cardset(bundled_sets("blades")[0], RULESET)
DECKS = {path.stem: read_decklist(path, SAMPLE) for path in bundled_decks("blades")}


MakeCardSet = Callable[..., CardSet]
MakeDeck = Callable[..., Deck]


def compiled(**options: OptionValue) -> E.CompiledCards:
    return E.compile_cards(SAMPLE, RULESET.resolve_options(options))


DEFAULT = compiled()


class Common(NamedTuple):
    """What every rule kernel takes first, in its order (a named tuple, so `*common` has a known length): the game
    data (every card of the set, `whole_set`, so card ids are the set's) and the state record (store, counters and
    trace inside)."""

    g: Any
    st: Any


class Board:
    """Tableaus of named cards, a store, and the kernels' state, for one scenario.

    A tableau entry is a card name (face-up), `~name` (face-down) or `(name, tokens)`.
    """

    def __init__(
        self,
        tableaus: Sequence[Sequence[str | tuple[str, int]]],
        store: Sequence[str] | None = None,
        seed: int = 3,
        policies: Sequence[int] | None = None,
        comp: E.CompiledCards = DEFAULT,
        areas: Sequence[Sequence[str | None]] | None = None,
        hands: Sequence[Sequence[str]] | None = None,
    ) -> None:
        self.comp = comp
        self.g = E.whole_set(comp)
        self.st = E.new_state(comp.options, traced=True)
        self.counters = self.st.counters
        """The state record's counters (by the set's card ids: the board plays on every card of the set)."""
        self.events = self.st.events
        """The state record's trace."""
        ids = np.array([comp.card_id(n) for n in store], dtype=np.int64) if store is not None else comp.extra["store"]
        self.st["store"][: len(ids)] = ids
        self.store = self.st["store"][: len(ids)]
        """The store in use: a view of the state record's."""
        game = self.st["game"]
        game[E.G_PLAYERS] = len(tableaus)
        game[E.G_SLOTS] = 6
        game[E.G_STORE_LEFT] = game[E.G_STORE_TOTAL] = len(self.store)
        game[E.G_TURN] = 1
        rng_seed(self.st["rng"], seed)
        for p, cards in enumerate(tableaus):
            for s, spec in enumerate(cards):
                name, tokens = (spec, 0) if isinstance(spec, str) else spec
                up = not name.startswith("~")
                self.st["tab"][p, s, E.TB_CARD] = comp.card_id(name.lstrip("~"))
                self.st["tab"][p, s, E.TB_UP] = int(up)
                self.st["tab"][p, s, E.TB_TOKENS] = tokens
            side = self.st["side"]
            side[p, E.S_USED] = len(cards)
            side[p, E.S_SLOTS] = 6
            side[p, E.S_DECKSIDE] = 0 if p == 0 else 1
            side[p, E.S_POLICY] = policies[p] if policies else GREEDY
            for a, area_card in enumerate(areas[p] if areas and p < len(areas) else []):
                if area_card:
                    self.st["area"][p, a, E.AR_CARD] = comp.card_id(area_card)
                    self.st["area"][p, a, E.AR_UP] = 1
            for h, name in enumerate(hands[p] if hands and p < len(hands) else []):
                self.st["side"][p, E.S_CARDS + h] = comp.card_id(name)
            side[p, E.S_HAND] = len(hands[p]) if hands and p < len(hands) else 0
            E.seat_summaries(self.g, self.st, p)  # the Top card and the Reactions in play, as setup works them out

    # -- the kernels, on this board ------------------------------------------------------------------------------
    def common(self) -> Common:
        return Common(self.g, self.st)

    def drain(self) -> None:
        """What the rule called left waiting: its decisions by the seats' policies, its effects resolved."""
        E.settle(*self.common())

    def clash(self, p: int, name: str, clause: int = 0, with_all: int = 0, where: int = 0) -> int:
        winner = int(E.clash(*self.common(), p, where, self.comp.card_id(name), clause, with_all))
        self.drain()
        if winner == -3:  # the one opponent was p's decision: the clash's result is in the trace
            results = [row for row in self.events[: int(self.st["ecount"][0])] if row[2] == E.EV_CLASH_RESULT]
            winner = int(results[-1][1])
        return winner

    def place(self, p: int, name: str, insert_at: int = -1) -> int:
        """A single placed as a turn places it: its Play and Next effects resolved, then its placing ended."""
        card = self.comp.card_id(name)
        s = int(E.place_single(*self.common(), p, card, insert_at))
        self.drain()
        E.single_placed(*self.common(), p, s, card)
        return s

    def action(self, p: int, where: int, clause: int = 0) -> None:
        """An Action used as a turn uses it: its effects resolved, then its card flipped and what that fires."""
        E.use_action(*self.common(), p, where, clause)
        self.drain()
        E.flip_source(*self.common(), p, where)
        self.drain()

    def flip(self, q: int, s: int, by: int) -> None:
        E.flip_slot(self.g, self.st, q, s, by, -1)
        self.drain()

    def perform(self, p: int, where: int, name: str, clause: int = 0) -> None:
        E.perform(*self.common(), p, where, self.comp.card_id(name), clause, E.PART_MAIN, -1)
        self.drain()

    def score(self, vp_round: str = "round1") -> None:
        E.final_scoring(self.g, self.st, E.VP_ROUNDS.index(vp_round))

    # -- reading it back -------------------------------------------------------------------------------------------
    def top(self, p: int) -> int:
        return E.top_slot(self.st, p)

    def stars(self, p: int, s: int) -> int:
        return E.stars_of(self.g, self.st, p, s)

    def rp(self, p: int) -> int:
        return int(self.st["side"][p, E.S_RP])

    def up(self, p: int) -> list[int]:
        return [int(v) for v in self.st["tab"][p, : self.st["side"][p, E.S_USED], E.TB_UP]]

    def names(self, p: int) -> list[str]:
        return [self.comp.names[c] for c in self.st["tab"][p, : self.st["side"][p, E.S_USED], E.TB_CARD]]

    def lines(self) -> list[str]:
        return [E.describe_event(self.comp, row) for row in self.events[: int(self.st.ecount[0])]]

    def rows(self, code: int) -> list[list[int]]:
        return [list(map(int, r)) for r in self.events[: int(self.st.ecount[0])] if r[2] == code]


# =====================================================================================================================
# Top card and face-down cards
# =====================================================================================================================


@pytest.mark.parametrize(
    ("tableau", "top"),
    [
        (["Cinder Recruit", "Ember Lancer", "Blaze Marshal"], 2),  # the right-most face-up card
        (["Cinder Recruit", "Ember Lancer", "~Blaze Marshal"], 1),  # right-most flipped: El Vice becomes Top
        (["Cinder Recruit", "~Ember Lancer", "~Blaze Marshal"], 0),
        (["~Cinder Recruit", "~Ember Lancer"], -1),  # all face-down: no Top card
        ([], -1),
    ],
)
def test_top_card_is_the_right_most_face_up_card(tableau: list[str], top: int) -> None:
    assert Board([tableau]).top(0) == top


def test_top_card_after_a_flip_moves_left_and_top_effects_follow_it() -> None:
    # Blaze Marshal: "Top: This card has +2 stars" (4 printed).
    board = Board([["Blaze Marshal", "Ember Lancer"], ["Pocket Paladin"]])
    assert board.stars(0, 0) == 4 and board.top(0) == 1
    board.flip(0, 1, by=1)
    assert board.top(0) == 0 and board.stars(0, 0) == 6
    assert board.stars(0, 1) == -1  # a face-down card has no star rating


@pytest.mark.parametrize(
    ("tableau", "slot", "stars"),
    [
        ([("Ember Lancer", 2)], 0, 4),  # +1 star tokens add to the rating
        (["Brass Organist"], 0, 8),  # Top: star +3 while Top
        (["Brass Organist", "Cinder Recruit"], 0, 5),  # ... and not when another card is Top
        ([("~Ember Lancer", 0)], 0, -1),
    ],
)
def test_star_rating_counts_tokens_and_top_bonus(tableau: list, slot: int, stars: int) -> None:
    assert Board([tableau]).stars(0, slot) == stars


def test_face_down_cards_count_as_cards_but_have_no_symbols() -> None:
    # Spark Courier: gain 1 RP per card (face-down too); Furnace Sergeant: 1 RP per Soldier (face-up only).
    board = Board([["~Cinder Recruit", "Pocket Paladin", "Spark Courier"]])
    board.perform(0, 2, "Spark Courier")
    assert board.rp(0) == 3
    board2 = Board([["~Cinder Recruit", "Pocket Paladin", "Furnace Sergeant"]])
    board2.score()
    assert board2.rp(0) == 2  # Paladin and the Sergeant; the face-down Recruit is no Soldier any more


def test_the_tableau_counts_of_per_conditions_are_the_documents_on_random_tableaus() -> None:
    # What a `gain N RP per ...` clause counts on the tableau (`count_per`, read by Score, Play and Action clauses and
    # by greedy's estimates), against each condition read slot by slot as the document words it, on random tableaus
    # of the set: face-down cards count as cards and as face-down only, stars with tokens and Top bonuses, Mimicry's
    # symbols.
    from workbench.rulesets.blades.engine import layout as L

    gen = np.random.default_rng(5)
    names = list(DEFAULT.names)
    counted = 0
    for _ in range(30):
        tableau: list[str | tuple[str, int]] = []
        for _ in range(int(gen.integers(0, 7))):
            name = names[int(gen.integers(len(names)))]
            tableau.append(("~" + name if gen.random() < 0.3 else name, int(gen.integers(0, 3))))
        board = Board([tableau, []])
        g, st = board.common()
        used = len(tableau)
        ups = [board.up(0)[s] == 1 for s in range(used)]
        stars = [board.stars(0, s) for s in range(used)]
        symbols = [int(E.symbols_of(g, st, 0, s)) for s in range(used)]
        arg_symbols = [1 << b for b in range(6)] + [3, 5]
        cases = [(L.PER_CARD, 0, used), (L.PER_FACE_DOWN, 0, ups.count(False))]
        for arg in range(0, 8):
            cases.append((L.PER_STARS_AT_LEAST, arg, sum(u and x >= arg for u, x in zip(ups, stars, strict=True))))
            cases.append((L.PER_STARS_AT_MOST, arg, sum(u and x <= arg for u, x in zip(ups, stars, strict=True))))
        for arg in arg_symbols:
            cases.append((L.PER_SYMBOL, arg, sum(u and (x & arg) != 0 for u, x in zip(ups, symbols, strict=True))))
        for per, arg, expected in cases:
            assert int(E.count_per(g, st, 0, used, per, arg)) == expected, (tableau, per, arg)
            counted += 1
    assert counted == 30 * 26


# =====================================================================================================================
# Clash: totals, ties, participants, the aftermarket and the store
# =====================================================================================================================


@pytest.mark.parametrize(
    ("mine", "theirs", "winner"),
    [
        ("Tidebreaker Admiral", "Brine Duelist", 0),  # 6 + 3 against 4 + 3
        ("Brine Duelist", "Tidebreaker Admiral", 1),
        ("Brine Duelist", "Harbor Warden", -1),  # 4 + 3 against 4 + 3: a tie, nobody wins
    ],
)
def test_clash_totals_top_card_plus_store_card(mine: str, theirs: str, winner: int) -> None:
    # A store of 3-star cards only, so every revealed card adds exactly 3.
    board = Board([[mine], [theirs]], store=["Tinker Apprentice"] * 5)
    assert board.clash(0, "Harbor Warden", clause=0, where=-1) == winner
    reveals = board.rows(E.EV_REVEAL)
    assert [r[5] for r in reveals] == [DEFAULT.table[DEFAULT.card_id(n), E.T_STARS] + 3 for n in (mine, theirs)]


def test_the_documents_clash_example() -> None:
    # Deques' Top card 10 (reveals 3 = 13) against Cardine's 8 (reveals 6 = 14): Cardine wins. Here: a 10-star
    # rating made of Umbral Archon (8) + 2 tokens, against Umbral Archon (8) with no tokens; store of one 3 and one 6.
    outcomes = set()
    for seed in range(1, 40):
        board = Board(
            [[("Umbral Archon", 2)], ["Umbral Archon"]], store=["Tinker Apprentice", "Tidebreaker Admiral"], seed=seed
        )
        winner = board.clash(0, "Harbor Warden", where=-1)
        first_reveal = board.rows(E.EV_REVEAL)[0]
        if DEFAULT.names[first_reveal[4]] == "Tinker Apprentice":
            assert [r[5] for r in board.rows(E.EV_REVEAL)] == [13, 14] and winner == 1
        else:
            assert [r[5] for r in board.rows(E.EV_REVEAL)] == [16, 11] and winner == 0
        outcomes.add(winner)
    assert outcomes == {0, 1}


def test_clash_all_tie_for_highest_means_nobody_wins_or_loses() -> None:
    # A 4 + 3, B 4 + 3, C 2 + 3: A and B tie for the highest, so C does not lose either: no lose-clash reactions.
    board = Board(
        [["Brine Duelist"], ["Harbor Warden"], ["Surf Cadet"]],
        store=["Tinker Apprentice"] * 6,
        areas=[[], [], [None, "Card Sleeves"]],
    )
    assert board.clash(0, "Tidebreaker Admiral", where=0, with_all=1) == -1
    assert board.rows(E.EV_REACTION) == [] and board.rp(2) == 0


def test_clash_all_takes_every_player_with_a_top_card() -> None:
    board = Board([["Brine Duelist"], ["~Harbor Warden"], ["Surf Cadet"]], store=["Tinker Apprentice"] * 6)
    assert board.clash(0, "Tidebreaker Admiral", where=0, with_all=1) == 0
    assert sorted(r[1] for r in board.rows(E.EV_REVEAL)) == [0, 2]  # B has no Top card


@pytest.mark.parametrize(
    ("tableaus", "reason"),
    [
        ([["~Brine Duelist"], ["Harbor Warden"]], "the initiator has no Top card"),
        ([["Brine Duelist"], ["~Harbor Warden"]], "no opponent has a Top card"),
    ],
)
def test_a_clash_without_two_participants_does_not_occur(tableaus: list, reason: str) -> None:
    board = Board(tableaus, store=["Tinker Apprentice"] * 4)
    assert board.clash(0, "Harbor Warden", where=-1) == -2, reason
    assert board.rows(E.EV_REVEAL) == [] and board.st["game"][E.G_STORE_LEFT] == 4


@pytest.mark.parametrize(
    ("mine", "outcome_rp"),
    [
        ("Umbral Archon", 5),  # Harbor Warden: win gain 5 RP
        ("Cinder Recruit", 0),  # lose: flip your lowest-star card (no RP)
    ],
)
def test_clash_outcomes_apply_to_the_initiator(mine: str, outcome_rp: int) -> None:
    board = Board([[mine], ["Brine Duelist"]], store=["Tinker Apprentice"] * 4)
    board.clash(0, "Harbor Warden", where=-1)
    assert board.rp(0) == outcome_rp and board.rp(1) == 0
    if outcome_rp == 0:
        assert board.up(0) == [0]  # lost: flipped its lowest card


def test_clash_reactions_win_and_lose() -> None:
    # Reef Skirmisher: Reaction (win clash) gain 3 RP; Card Sleeves: Reaction (lose clash) gain 3 RP. Used ones flip.
    board = Board(
        [["Reef Skirmisher", "Umbral Archon"], ["Brine Duelist"]],
        store=["Tinker Apprentice"] * 4,
        areas=[[], [None, "Card Sleeves"]],
    )
    assert board.clash(0, "Harbor Warden", where=-1) == 0
    assert board.rp(0) == 5 + 3 and board.rp(1) == 3
    assert board.up(0) == [0, 1]
    assert board.st["area"][1, E.AREA_ACCESSORY_1, E.AR_UP] == 0
    assert board.counters[0, DEFAULT.card_id("Umbral Archon"), ATTACKED] == 1


def test_revealed_cards_go_to_the_aftermarket_which_is_cleared_past_twelve() -> None:
    board = Board([["Umbral Archon"], ["Brine Duelist"]], store=["Tinker Apprentice"] * 30)
    sizes = []
    for _ in range(7):
        board.clash(0, "Dice Tower", where=-1)  # Dice Tower has no clash outcome: only the reveals matter
        sizes.append(int(board.st["game"][E.G_AFTERMARKET]))
    assert sizes == [2, 4, 6, 8, 10, 12, 2]
    assert len(board.rows(E.EV_AFTERMARKET_CLEARED)) == 1


def test_an_empty_store_is_refilled_from_the_store_discard_only() -> None:
    # 14 store cards: after 6 clashes 12 sit in the aftermarket; the 7th clears it (12 discarded) and the 8th
    # empties the store, whose discard (12) is shuffled back while the aftermarket's 2 stay out.
    board = Board([["Umbral Archon"], ["Brine Duelist"]], store=["Tinker Apprentice"] * 14)
    for _ in range(8):
        board.clash(0, "Dice Tower", where=-1)
    reshuffles = board.rows(E.EV_STORE_RESHUFFLED)
    assert [r[5] for r in reshuffles] == [12]
    assert len(board.rows(E.EV_REVEAL)) == 16
    assert all(r[4] >= 0 for r in board.rows(E.EV_REVEAL))


def test_clash_frequencies_match_the_exact_odds() -> None:
    from workbench.rulesets.blades.clash import clash_odds, store_star_counts

    store = store_star_counts(SAMPLE)
    wins = ties = 0
    runs = 3000
    for seed in range(1, runs + 1):
        board = Board([["Brine Duelist"], ["Pocket Paladin"]], seed=seed)  # 4 against 2, the bundled store
        winner = board.clash(0, "Dice Tower", where=-1)
        wins += winner == 0
        ties += winner == -1
    odds = clash_odds(4, 2, store)
    assert abs(wins / runs - float(odds.win)) < 4 * np.sqrt(float(odds.win) * (1 - float(odds.win)) / runs)
    assert abs(ties / runs - float(odds.tie)) < 4 * np.sqrt(float(odds.tie) * (1 - float(odds.tie)) / runs)


# =====================================================================================================================
# Flips, protection, Flip effects and flipped reactions
# =====================================================================================================================


def test_flip_highest_with_the_highest_protected_has_no_legal_target() -> None:
    # The document's Orella example: the highest card is protected (Stone Sentinel: adjacent cards), so nothing.
    board = Board([["Undertow Tactician"], ["Tidebreaker Admiral", "Stone Sentinel"]])
    board.perform(0, 0, "Undertow Tactician")  # Play: flip opponent highest
    assert board.up(1) == [1, 1]
    assert any("no legal target" in line for line in board.lines())


def test_flip_choice_must_take_a_flippable_card() -> None:
    # "If she were instructed to flip a card of her choice, she would have to choose Orella": the only legal one.
    board = Board([["Gloom Imp"], ["Tidebreaker Admiral", "Stone Sentinel"]])
    board.perform(0, 0, "Gloom Imp")  # Play: flip opponent choice
    assert board.up(1) == [1, 0]


@pytest.mark.parametrize(
    ("flipper", "theirs", "expected_up"),
    [
        # protect self: the 2-star Scout cannot be chosen, so the 1-star Recruit goes
        ("Gloom Imp", ["Smoke Screen Scout", "Cinder Recruit"], [1, 0]),
        # lowest is the 4-star Duelist, next to the Sentinel that protects adjacent cards: no legal target
        ("Rust Hound", ["Brine Duelist", "Pendulum Sentinel"], [1, 1]),
        # without the Sentinel the Duelist goes
        ("Rust Hound", ["Brine Duelist", "Brass Organist"], [0, 1]),
    ],
)
def test_protection_stops_opponents_flips(flipper: str, theirs: list[str], expected_up: list[int]) -> None:
    board = Board([[flipper], theirs])
    board.perform(0, 0, flipper)
    assert board.up(1) == expected_up


def test_own_effects_ignore_protection() -> None:
    # Smoke Screen Scout protects itself from opponents only: flip yours lowest takes it.
    board = Board([["Smoke Screen Scout", "Brine Duelist"]])
    E.perform(*board.common(), 0, 0, DEFAULT.card_id("Harbor Warden"), 0, E.PART_LOSE, -1)
    board.drain()
    assert board.up(0) == [0, 1]


def test_top_protect_adjacent_only_while_top() -> None:
    board = Board([["Rust Hound"], ["Ember Lancer", "Prism Warden"]])
    board.perform(0, 0, "Rust Hound")  # lowest: Ember Lancer, adjacent to the Top Prism Warden
    assert board.up(1) == [1, 1]
    board2 = Board([["Rust Hound"], ["Ember Lancer", "Prism Warden", "Pocket Paladin"]])
    board2.perform(0, 0, "Rust Hound")  # the Warden is not Top: Lancer (2) and Paladin (2) both lowest
    assert board2.up(1)[0] + board2.up(1)[2] == 1


def test_flip_effect_fires_and_flipped_reaction_answers_an_opponent() -> None:
    # Grave Lantern: Flip: gain 4 RP. Heatproof Sleeves: Reaction (flipped) gain 2 RP.
    board = Board([["Undertow Tactician"], ["Grave Lantern"]], areas=[[], [None, "Heatproof Sleeves"]])
    board.perform(0, 0, "Undertow Tactician")
    assert board.up(1) == [0]
    assert board.rp(1) == 4 + 2
    assert board.st["area"][1, E.AREA_ACCESSORY_1, E.AR_UP] == 0
    assert board.counters[1, DEFAULT.card_id("Grave Lantern"), DESTROYED] == 1


def test_flipping_your_own_card_is_no_flipped_reaction() -> None:
    board = Board([["Grave Lantern", "Bellows Golem"]], areas=[[None, "Heatproof Sleeves"]])
    board.flip(0, 0, by=0)
    assert board.rp(0) == 4  # the Lantern's Flip effect, but no Sleeves
    assert board.st["area"][0, E.AREA_ACCESSORY_1, E.AR_UP] == 1


def test_flipped_cards_lose_their_star_tokens() -> None:
    board = Board([[("Ember Lancer", 3)], ["Cinder Recruit"]])
    board.flip(0, 0, by=1)
    assert board.st["tab"][0, 0, E.TB_TOKENS] == 0


# =====================================================================================================================
# Playing singles: left-most slot, Play before Next, Scurry, Thwomp!, Mimicry; Actions, Blast Off, Anvil Drop
# =====================================================================================================================


def test_singles_go_into_the_left_most_open_slot() -> None:
    board = Board([["Cinder Recruit"]])
    assert board.place(0, "Pocket Paladin") == 1
    assert board.names(0) == ["Cinder Recruit", "Pocket Paladin"] and board.rp(0) == 3


def test_play_resolves_before_next() -> None:
    # Kindling Sprite: Next: star +1. Ember Lancer: Play: clash. Top > Ongoing > Play > Next: the clash uses the
    # Lancer's 2 stars, and the token arrives after.
    board = Board([["Kindling Sprite"], ["Pocket Paladin"]], store=["Tinker Apprentice"] * 4)
    board.st["tab"][0, 0, E.TB_NEXT] = 1
    slot = board.place(0, "Ember Lancer")
    assert board.rows(E.EV_REVEAL)[0][5] == 2 + 3
    assert board.st["tab"][0, slot, E.TB_TOKENS] == 1


def test_next_fires_once_and_only_from_a_face_up_card() -> None:
    board = Board([[]])
    board.place(0, "Kindling Sprite")
    board.place(0, "Cinder Recruit")
    board.place(0, "Pocket Paladin")
    assert [int(t) for t in board.st["tab"][0, :3, E.TB_TOKENS]] == [0, 1, 0]
    flipped = Board([[]])
    flipped.place(0, "Kindling Sprite")
    flipped.flip(0, 0, by=0)
    flipped.place(0, "Cinder Recruit")
    assert int(flipped.st["tab"][0, 1, E.TB_TOKENS]) == 0


def test_play_star_puts_tokens_on_the_card_itself() -> None:
    board = Board([[]])
    board.place(0, "Cathedral Engine")  # Play: star +3
    assert board.stars(0, 0) == 7 + 3


@pytest.mark.parametrize(
    ("insert_at", "order"),
    [
        (0, ["Moth Messenger", "Cinder Recruit", "Blaze Marshal"]),
        (1, ["Cinder Recruit", "Moth Messenger", "Blaze Marshal"]),
        (-1, ["Cinder Recruit", "Blaze Marshal", "Moth Messenger"]),
    ],
)
def test_scurry_inserts_anywhere_shifting_cards_right(insert_at: int, order: list[str]) -> None:
    board = Board([["Cinder Recruit", ("Blaze Marshal", 2)]])
    board.place(0, "Moth Messenger", insert_at)
    assert board.names(0) == order
    marshal = order.index("Blaze Marshal")
    assert board.st["tab"][0, marshal, E.TB_TOKENS] == 2  # the shifted card keeps its tokens


@pytest.mark.parametrize(("insert_at", "top"), [(0, 1), (1, 1), (-1, 2)])
def test_a_scurry_single_left_of_the_top_card_moves_the_top_card_right(insert_at: int, top: int) -> None:
    # Blaze Marshal face-down, Cinder Recruit the Top card: inserted left of it, Moth Messenger pushes it one slot
    # right (0); inserted right of it, Moth Messenger is the Top card wherever it lands (1: in front of the face-down
    # card; -1: the open slot at the right end).
    board = Board([["Cinder Recruit", "~Blaze Marshal"]])
    board.place(0, "Moth Messenger", insert_at)
    assert board.top(0) == top
    assert board.names(0)[top] == ("Cinder Recruit" if insert_at == 0 else "Moth Messenger")


@pytest.mark.parametrize(
    ("left", "flips"), [("Ember Lancer", True), ("Brine Duelist", False), ("~Ember Lancer", False)]
)
def test_thwomp_flips_a_lower_card_to_the_left_and_gains(left: str, flips: bool) -> None:
    board = Board([[left]])
    board.place(0, "Bellows Golem")  # 3 stars, Thwomp! 3
    assert board.up(0)[0] == (0 if flips or left.startswith("~") else 1)
    assert board.rp(0) == (3 if flips else 0)


def test_mimicry_takes_the_left_cards_symbols_until_it_flips() -> None:
    # Veil Mimic (Dark, Fiend) next to Furnace Sergeant (Fire, Soldier): the Ashfall Deck Box scores per fire.
    board = Board([["Furnace Sergeant", "Veil Mimic"]], areas=[["Ashfall Deck Box"]])
    board.score()
    assert board.rp(0) == 2 + 2  # Sergeant: 1 per soldier (both); box: 1 per fire (both)
    board2 = Board([["~Furnace Sergeant", "Veil Mimic"]], areas=[["Ashfall Deck Box"]])
    board2.score()
    assert board2.rp(0) == 0  # the Mimic is Dark/Fiend again, the Sergeant face-down


def test_actions_flip_their_card_after_resolving() -> None:
    board = Board([["Brine Duelist"]], areas=[[None, "Dice Tower"]])
    board.action(0, E.W_ACCESSORY_1)
    assert board.rp(0) == 3 and board.st["area"][0, E.AREA_ACCESSORY_1, E.AR_UP] == 0


def test_blast_off_puts_three_tokens_on_the_next_single() -> None:
    board = Board([["Cog Acolyte"]])
    board.action(0, 0)
    assert board.up(0) == [0]
    slot = board.place(0, "Pocket Paladin")
    assert board.stars(0, slot) == 2 + 3


@pytest.mark.parametrize(
    ("theirs", "up"),
    [(["Umbral Archon"], [1]), (["Tidebreaker Admiral"], [1]), (["Veil Mimic"], [0]), (["Gear Choir"], [0])],
)
def test_anvil_drop_flips_only_a_card_with_fewer_stars(theirs: list[str], up: list[int]) -> None:
    board = Board([["Hollow Anvil Jester"], theirs])  # the Jester has 6 stars: 8 and 6 are safe, 5 and 4 are not
    board.action(0, 0)
    assert board.up(1) == up
    assert board.up(0) == [0]  # the Action flipped the Jester


def test_rp_never_goes_below_zero() -> None:
    board = Board([["Cinder Recruit"]])
    E.gain_rp(board.st, 0, -1, -5)
    assert board.rp(0) == 0


# =====================================================================================================================
# End of the tournament: Score order, placement and VP ties
# =====================================================================================================================


def test_score_effects_run_tableau_left_to_right_then_deck_box_then_accessories_face_up_only() -> None:
    board = Board(
        [["Night Market Chef", "~Furnace Sergeant", "Gear Choir", "Cathedral Engine"]],
        areas=[["Sturdy Deck Box", "Relic of the First Flame"]],
    )
    board.score()
    sources = [DEFAULT.names[r[3]] for r in board.rows(E.EV_RP)]
    assert sources == ["Night Market Chef", "Gear Choir", "Cathedral Engine", "Sturdy Deck Box"]
    # Chef 1 per card (4), Choir 2 per machine (2 machines: 4), Engine 2 per machine (4), box 1 per card (4)
    assert board.rp(0) == 16


@pytest.mark.parametrize(
    ("rps", "vp_round", "places", "vps"),
    [
        ([30, 20, 10, 5], "round1", [1, 2, 3, 4], [21, 15, 12, 9]),
        ([30, 20, 20, 20], "round1", [1, 2, 2, 2], [21, 12, 12, 12]),  # 3-way tie for 2nd: (15+12+9)/3
        ([10, 10, 4, 1, 0], "round1", [1, 1, 3, 4, 5], [18, 18, 12, 9, 6]),
        ([7, 7, 7], "final", [1, 1, 1], [32, 32, 32]),  # (42+30+24)/3
        ([5, 5, 5, 1, 1], "round2", [1, 1, 1, 4, 4], [21, 21, 21, 10, 10]),  # (28+20+16)/3 rounded down; (12+8)/2
        ([3, 9], "prerelease", [2, 1], [5, 7]),  # two players: the first two columns, whatever the player count
    ],
)
def test_placement_and_vp_with_the_documents_tie_rule(
    rps: list[int], vp_round: str, places: list[int], vps: list[int]
) -> None:
    board = Board([[] for _ in rps])
    for p, rp in enumerate(rps):
        board.st["side"][p, E.S_RP] = rp
    board.score(vp_round)
    assert [int(v) for v in board.st["side"][: len(rps), E.S_PLACE]] == places
    assert [int(v) for v in board.st["side"][: len(rps), E.S_VP]] == vps


@pytest.mark.parametrize(
    ("rps", "rival", "head_to_head", "first_place"),
    [
        ([10, 5, 20, 1], 1, 0, 1),  # A beats its rival B but C is first
        ([10, 5, 20, 1], 2, 1, 1),
        ([10, 10, 3, 1], 1, -1, -1),  # A and B share first place and tie head to head
        ([12, 10, 3, 1], 3, 0, 0),
    ],
)
def test_match_result_options(rps: list[int], rival: int, head_to_head: int, first_place: int) -> None:
    board = Board([[] for _ in rps])
    for p, rp in enumerate(rps):
        board.st["side"][p, E.S_RP] = rp
    board.score()
    board.st["game"][E.G_RIVAL] = rival
    assert E.match_winner(board.st, E.MR_HEAD_TO_HEAD) == head_to_head
    assert E.match_winner(board.st, E.MR_FIRST_PLACE) == first_place


# =====================================================================================================================
# Whole tournaments and the engine options
# =====================================================================================================================


def play(comp: E.CompiledCards, deck_a: str, deck_b: str, n: int = 200, policy: int = GREEDY) -> dict:
    seeds = np.arange(1, n + 1, dtype=np.int64) * 7919
    first = (np.arange(n) % 2).astype(np.int8)
    return E.play_batch_detailed(
        comp, comp.deck_array(DECKS[deck_a]), comp.deck_array(DECKS[deck_b]), seeds, first, policy, policy
    )


@pytest.mark.parametrize("policy", [GREEDY, RANDOM])
def test_the_top_card_and_the_reactions_the_rules_keep_are_the_tableau_s_after_every_turn(policy: int) -> None:
    # The rules keep each seat's Top card in side[p, S_TOP] and the Reactions of its face-up cards in side[p, S_REACTS]
    # (placing and flipping change them) rather than walking the tableau and the area each time: after every turn of
    # whole 4- and 5-seat tournaments of the clash decks (Top cards flipped, clashes with all, Reactions used up), each
    # is what the walk finds.
    checked = moved_left = reactions_used = 0
    for players, deck_a, deck_b in ((4, "tide_clash", "umbral_control"), (5, "lantern_score", "tide_clash")):
        comp = compiled(players=players)
        cards = E.batch_cards(comp, comp.deck_array(DECKS[deck_a]), comp.deck_array(DECKS[deck_b]))
        reactions = cards.g["table"][:, E.T_REACTIONS]
        for seed in range(1, 21):
            st = np.zeros(1, dtype=E.STATE_DTYPE).view(np.recarray)
            st[0] = E.new_state(comp.options)
            st = st[0]
            st.store[: len(cards.store)] = cards.store
            E.setup_tournament(
                cards.g, st, cards.deck_a, cards.deck_b, seed, seed % 2, policy, policy, len(cards.store),
                cards.meta,
            )  # fmt: skip
            before = [int(st.side[q, E.S_REACTS]) for q in range(players)]
            E.open_tournament(cards.g, st)
            for _ in range(players * 8):
                if E.is_over(st):
                    break
                E.play_turn_out(cards.g, st)  # one turn, every decision by its seat's policy
                for q in range(players):
                    used = int(st.side[q, E.S_USED])
                    up = [s for s in range(used) if st.tab[q, s, E.TB_UP] == 1]
                    assert st.side[q, E.S_TOP] == max(up, default=-1), (seed, q)
                    face_up = [int(st.tab[q, s, E.TB_CARD]) for s in up]
                    face_up += [int(st.area[q, a, E.AR_CARD]) for a in range(3) if st.area[q, a, E.AR_UP] == 1]
                    reacting = 0
                    for card in face_up:
                        reacting |= int(reactions[card])
                    assert st.side[q, E.S_REACTS] == reacting, (seed, q)
                    moved_left += int(0 <= max(up, default=-1) < used - 1)
                    reactions_used += int(before[q] & ~reacting != 0)
                    before[q] = reacting
                    checked += 1
                E.advance(cards.g, st, True)  # the seat loop, to the next turn's first decision (or the end)
    assert checked > 4_000 and moved_left > 100 and reactions_used > 20


def test_the_card_table_s_clause_bits_are_the_effect_table_s_timings_and_triggers() -> None:
    # T_TIMINGS and T_REACTIONS say which clauses a card has of each timing and which react to each trigger, so the
    # rules find them without reading every clause's row: for every card of the set, what the effect table says.
    table, effects, g = DEFAULT.table, DEFAULT.extra["effects"], E.whole_set(DEFAULT)
    reactions = 0
    for card in range(len(DEFAULT.names)):
        clauses = range(int(table[card, E.T_CLAUSES]))
        for timing in range(len(E.TIMING_CODES)):
            expected = sum(1 << c for c in clauses if effects[card, c, E.E_TIMING] == timing)
            assert int(E.clauses_timed(g, card, timing)) == expected, (DEFAULT.names[card], timing)
        for trigger in range(len(E.TRIGGER_CODES)):
            expected = sum(
                1 << c
                for c in clauses
                if effects[card, c, E.E_TIMING] == E.TM_REACTION and effects[card, c, E.E_TRIGGER] == trigger
            )
            assert int(E.reactions_to(g, card, trigger)) == expected, (DEFAULT.names[card], trigger)
            reactions += expected.bit_count()
    assert reactions >= 4


@pytest.mark.parametrize(("players", "slots"), [(2, 6), (4, 6), (5, 6), (3, 4), (4, 8)])
def test_players_and_tableau_slots_set_the_number_of_turns(players: int, slots: int) -> None:
    comp = compiled(players=players, tableau_slots=slots)
    result = play(comp, "tide_clash", "lantern_score", n=50)
    # Each deck has 8 singles: everyone plays until the tableau is full (or the hand is empty).
    assert (result["turns"] == players * min(slots, 8)).all()
    assert set(result["place_a"]) <= set(range(1, players + 1))


@pytest.mark.parametrize(("vp_round", "chart"), [("round1", [21, 15, 12, 9]), ("final", [42, 30, 24, 18])])
def test_vp_round_option_pays_by_its_chart_row(vp_round: str, chart: list[int]) -> None:
    # Without a metagame lantern_score always places first against the starter decks (the metagame can lift a
    # starter past it: test_the_metagame_moves_placements), so its VP is the chart row's first prize.
    result = play(compiled(vp_round=vp_round, metagame="none"), "lantern_score", "ashfall_starter", n=20)
    assert (result["place_a"] == 1).all() and (result["vp_a"] == chart[0]).all()


def test_the_metagame_moves_placements() -> None:
    # "The Metagame gives significant bonuses if you can incorporate it into your deck. Don't ignore it!" The same
    # seeded tournaments with and without the revealed metagame: every player scores it, so RP rise, and a deck
    # that matches the revealed element or type better can overtake one that does not.
    with_meta = play(compiled(), "lantern_score", "ashfall_starter", n=40)
    without = play(compiled(metagame="none"), "lantern_score", "ashfall_starter", n=40)
    assert with_meta["rp_a"].mean() > without["rp_a"].mean()
    assert (without["place_a"] == 1).all() and (with_meta["place_a"] > 1).any()


@pytest.mark.parametrize(("store_kinds", "size"), [("boosters", 86), ("all", 86 + 9 + 6 + 5)])
def test_store_kinds_option(store_kinds: str, size: int) -> None:
    assert len(compiled(store_kinds=store_kinds).extra["store"]) == size


def test_a_store_over_the_store_cards_limit_is_refused_before_any_tournament() -> None:
    # The store is a field of the state record, MAX_STORE cards long whatever the set: a bigger store is a clear
    # error when the set is compiled, naming the limit (the bundled set's store is 86 cards).
    import dataclasses

    from workbench.cards import CardEntry, WorkbenchInputError
    from workbench.limits import LIMITS

    assert LIMITS["store_cards"].value == E.MAX_STORE and E.STATE_DTYPE["store"].shape == (E.MAX_STORE,)
    stores = [i for i, c in enumerate(DEFAULT.extra["store"]) if i == 0 or c != DEFAULT.extra["store"][i - 1]]
    big = [DEFAULT.names[DEFAULT.extra["store"][i]] for i in stores][:5]
    entries = [CardEntry(e.card.model_copy(update={"copies": 999}), e.row) if e.card.name in big else e for e in SAMPLE]
    over = dataclasses.replace(SAMPLE, entries=entries)
    with pytest.raises(WorkbenchInputError, match="store_cards|4,096 cards") as refused:
        E.compile_cards(over, RULESET.resolve_options({}))
    assert "the store holds" in str(refused.value)
    assert len(compiled().extra["store"]) <= E.MAX_STORE


def test_match_result_option_changes_only_the_winner_code() -> None:
    a = play(compiled(match_result="head_to_head"), "tide_clash", "tide_clash", n=300)
    b = play(compiled(match_result="first_place"), "tide_clash", "tide_clash", n=300)
    assert (a["vp_a"] == b["vp_a"]).all() and (a["place_a"] == b["place_a"]).all()
    assert ((b["winner"] == 0) == ((b["place_a"] == 1) & (b["vp_a"] == 21))).all()


@pytest.mark.parametrize("bad", [{"players": 1}, {"players": 6}, {"tableau_slots": 0}, {"tableau_slots": 13}])
def test_out_of_range_engine_options_are_clear_errors(bad: dict[str, int]) -> None:
    from workbench.cards import WorkbenchInputError

    with pytest.raises(WorkbenchInputError, match="outside its range"):
        compiled(**bad)


def test_more_than_eight_singles_are_cut_to_eight_at_random(make_cardset: MakeCardSet, make_deck: MakeDeck) -> None:
    rows = [
        {
            "name": f"Single {i}",
            "kind": "single",
            "set": "Core Set",
            "set_kind": "core",
            "stars": 1 + i % 5,
            "copies": 2,
            "effects": "Play: gain 1 RP",
        }
        for i in range(10)
    ]
    cardset = make_cardset(RULESET, rows)
    comp = E.compile_cards(cardset, RULESET.resolve_options({"tableau_slots": 12}))
    deck = make_deck(cardset, "\n".join(f"1 Single {i}" for i in range(10)))
    seeds = np.arange(1, 41, dtype=np.int64)
    result = E.play_batch_detailed(
        comp, comp.deck_array(deck), comp.deck_array(deck), seeds, np.zeros(40, dtype=np.int8), GREEDY, GREEDY
    )
    assert (result["turns"] == 4 * 8).all() and (result["rp_a"] == 8).all()
    drawn = result["counters"][0, :, DRAWN]
    assert drawn.sum() == 40 * 8 and (drawn > 0).sum() == 10  # which two go back varies with the seed


def test_counters_are_kept_per_side() -> None:
    result = play(DEFAULT, "tide_clash", "umbral_control", n=100)
    counters = result["counters"]
    admiral, archon = DEFAULT.card_id("Tidebreaker Admiral"), DEFAULT.card_id("Umbral Archon")
    assert counters[0, admiral, DRAWN] == 100 and counters[1, archon, DRAWN] == 300  # three deck-B seats
    assert 0 < counters[0, admiral, PLAYED] <= 100 and counters[0, admiral, DAMAGE_DEALT] > 0
    assert 0 < counters[1, archon, PLAYED] <= 300 and counters[1, archon, DESTROYED] > 0


@pytest.mark.parametrize(("policy", "n"), [(GREEDY, 200), (RANDOM, 200), (SEARCH, 4)])
def test_cards_that_start_in_play_count_as_played_on_turn_1(policy: int, n: int, make_deck: MakeDeck) -> None:
    # The deck box and the accessories are set out face-up before the first turn: in play from the start, so drawn
    # and played in every tournament, first on turn 1, even when no Action or Reaction of theirs is ever used
    # (Obsidian Vault has only a Score clause; the sleeves only Reactions). Before this, a deck box with only a
    # Score clause counted as played in no tournament, and the power curve called Obsidian Vault "rarely played".
    singles = ("Cinder Recruit", "Kindling Sprite", "Ember Lancer", "Spark Courier", "Smoke Screen Scout")
    in_play = ("Obsidian Vault", "Heatproof Sleeves", "Card Sleeves")  # a deck box and two accessories
    deck = make_deck(SAMPLE, "\n".join(f"1 {name}" for name in singles + in_play), "vault")
    seeds = np.arange(1, n + 1, dtype=np.int64) * 7919
    first = (np.arange(n) % 2).astype(np.int8)
    result = E.play_batch_detailed(
        DEFAULT, DEFAULT.deck_array(deck), DEFAULT.deck_array(DECKS["umbral_control"]), seeds, first, policy, policy
    )
    counters, turns = result["counters"], result["turns"]
    for side, names in ((0, in_play), (1, ("Conclave Deck Box", "Crown of Ash", "Dice Tower"))):
        for name in names:
            card = DEFAULT.card_id(name)
            assert counters[side, card, MATCHES_DRAWN] == counters[side, card, MATCHES_PLAYED] == n, name
            assert counters[side, card, PLAYED] >= n and counters[side, card, FIRST_PLAYED_TURN] == n, name
            assert counters[side, card, PLAYED_MATCH_TURNS] == turns.sum(), name
            assert counters[side, card, MATCHES_PLAYED_WITH_A_ROUND_LEFT] == n, name
    # Deck B (three seats) sets out its own deck box: Obsidian Vault, which it does not hold, counts nothing there.
    assert (counters[1, DEFAULT.card_id("Obsidian Vault"), :] == 0).all()


def test_info_finding_for_too_many_clauses_points_at_the_cell(make_cardset: MakeCardSet) -> None:
    rows = [
        {
            "name": "Busy",
            "kind": "single",
            "set": "Core Set",
            "set_kind": "core",
            "stars": 3,
            "copies": 2,
            "effects": "Play: gain 1 RP; Play: gain 1 RP; Play: gain 1 RP; Play: gain 1 RP; Play: gain 1 RP",
        },
        {
            "name": "Odd",
            "kind": "single",
            "set": "Core Set",
            "set_kind": "core",
            "stars": 2,
            "copies": 2,
            "effects": "Play: summon a dragon",
        },
    ]
    comp = E.compile_cards(make_cardset(RULESET, rows), RULESET.resolve_options())
    clauses = [f for f in comp.findings if f.rule == "blades.engine_clauses"]
    assert len(clauses) == 1 and clauses[0].row == 2 and clauses[0].column == "effects"
    uncovered = [f for f in comp.findings if f.rule == "blades.effects"]
    assert len(uncovered) == 1 and uncovered[0].row == 3 and uncovered[0].column == "effects"
    assert comp.table[1, E.T_CLAUSES] == 0  # simulated without it


# =====================================================================================================================
# Sanity: better cards, better decks, determinism, the random policy
# =====================================================================================================================


def _sanity_set(make_cardset: MakeCardSet, gain_a: int, gain_b: int, stars: int = 3) -> CardSet:
    rows = [
        {
            "name": f"Filler {i}",
            "kind": "single",
            "set": "Core Set",
            "set_kind": "core",
            "stars": 1 + i % 4,
            "copies": 2,
            "effects": "Play: gain 2 RP",
        }
        for i in range(8)
    ]
    rows += [
        {
            "name": "Weak",
            "kind": "single",
            "set": "Core Set",
            "set_kind": "core",
            "stars": stars,
            "copies": 2,
            "effects": f"Play: gain {gain_a} RP",
        },
        {
            "name": "Strong",
            "kind": "single",
            "set": "Core Set",
            "set_kind": "core",
            "stars": stars,
            "copies": 2,
            "effects": f"Play: gain {gain_b} RP",
        },
        {"name": "Blank", "kind": "single", "set": "Core Set", "set_kind": "core", "stars": 1, "copies": 2},
    ]
    return make_cardset(RULESET, rows)


def test_a_strictly_better_card_is_at_least_as_strong(make_cardset: MakeCardSet, make_deck: MakeDeck) -> None:
    from workbench.analysis import power_curve

    cardset = _sanity_set(make_cardset, 1, 4)
    reference = make_deck(cardset, "\n".join(f"1 Filler {i}" for i in range(8)), name="reference")
    curve = power_curve(
        cardset, [reference], matches_per_card=600, only=["Weak", "Strong"], run=RunSettings(seed=4, workers=1)
    )
    weak = curve.cards.set_index("card").loc["Weak"]
    strong = curve.cards.set_index("card").loc["Strong"]
    assert strong["power"] >= weak["low"]
    assert strong["power"] > weak["power"]


def test_an_on_curve_deck_beats_an_under_budget_deck(make_cardset: MakeCardSet, make_deck: MakeDeck) -> None:
    cardset = _sanity_set(make_cardset, 1, 4)
    on_curve = make_deck(cardset, "\n".join(f"1 Filler {i}" for i in range(8)), name="on curve")
    blanks = make_deck(cardset, "1 Blank\n1 Weak", name="under budget")
    result = simulate(cardset, on_curve, blanks, matches=400, run=RunSettings(seed=2, workers=1))
    assert result.win_rate_a.low > 0.9


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_same_seed_same_tournaments(policy: str) -> None:
    one = simulate(
        SAMPLE,
        DECKS["tide_clash"],
        DECKS["umbral_control"],
        matches=300,
        run=RunSettings(seed=9, policy=policy, workers=1),
    )
    two = simulate(
        SAMPLE,
        DECKS["tide_clash"],
        DECKS["umbral_control"],
        matches=300,
        run=RunSettings(seed=9, policy=policy, workers=1),
    )
    assert one.matches.equals(two.matches) and one.counters.equals(two.counters)


def test_one_process_and_run_jobs_in_pieces_agree() -> None:
    from workbench.simulate import Job, batch_seeds, run_jobs

    deck_a, deck_b = DEFAULT.deck_array(DECKS["tide_clash"]), DEFAULT.deck_array(DECKS["lantern_score"])
    batches = batch_seeds(11, 3_000)
    jobs = [Job(deck_a, deck_b, seeds, first, 0, 0) for seeds, first in batches]
    pieces = run_jobs("workbench.rulesets.blades.engine", DEFAULT, jobs, workers=1)
    whole = E.play_batch(
        DEFAULT, deck_a, deck_b, np.concatenate([s for s, _ in batches]), np.concatenate([f for _, f in batches]), 0, 0
    )
    assert (np.concatenate([p[0] for p in pieces]) == whole[0]).all()


def test_the_random_policy_plays_whole_legal_tournaments() -> None:
    result = play(DEFAULT, "umbral_control", "tide_clash", n=300, policy=RANDOM)
    assert (result["turns"] == 4 * 6).all()
    assert set(np.unique(result["winner"])) <= {-1, 0, 1}


def test_a_mirror_is_even_at_four_players() -> None:
    result = simulate(SAMPLE, DECKS["tide_clash"], matches=3_000, run=RunSettings(seed=6, workers=1))
    rate = result.win_rate_a
    assert rate.low - 0.02 <= 0.5 <= rate.high + 0.02, str(rate)


# =====================================================================================================================
# Golden trace
# =====================================================================================================================

GOLDEN = REPO_ROOT / "tests" / "golden" / "blades_trace.txt"


def test_golden_trace() -> None:
    """To regenerate on purpose (after a rule change, with an engine version bump):
    .venv/bin/workbench simulate cardsets/blades/blades_sample.csv --deck cardsets/blades/decks/tide_clash.txt \
        --deck cardsets/blades/decks/umbral_control.txt --seed 7 --trace > tests/golden/blades_trace.txt
    """
    lines = list(trace(SAMPLE, DECKS["tide_clash"], DECKS["umbral_control"], seed=7))
    expected = Path(GOLDEN).read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(expected)
    for number, (got, want) in enumerate(zip(lines, expected, strict=False), start=1):
        assert got == want, f"line {number}"


# =====================================================================================================================
# A batch's own cards: a set larger than the state record's counters plays on the cards the batch can reach
# =====================================================================================================================


@pytest.mark.parametrize("policy", [GREEDY, RANDOM, SEARCH])
def test_a_batch_on_its_own_cards_plays_as_on_the_whole_set(monkeypatch: pytest.MonkeyPatch, policy: int) -> None:
    # A set of more than MAX_LOCAL cards plays each batch on the cards it can reach (its decks, store and meta
    # stacks), by ids of its own in the set's order; made to here by a smaller MAX_LOCAL: the same tournaments, the
    # same counters by the set's card ids, the same trace.
    deck_a, deck_b = (DEFAULT.deck_array(DECKS[name]) for name in ("tide_clash", "umbral_control"))
    n = 4 if policy == SEARCH else 40  # the search's rollouts take about 50 ms a tournament
    seeds, first = np.arange(1, n + 1, dtype=np.int64), (np.arange(n) % 2).astype(np.int8)
    whole = E.play_batch_detailed(DEFAULT, deck_a, deck_b, seeds, first, policy, GREEDY)
    whole_trace = E.play_traced(DEFAULT, deck_a, deck_b, 7, 0, policy, GREEDY)
    monkeypatch.setattr(E.python_side, "MAX_LOCAL", len(DEFAULT.names) - 1)
    cards = E.batch_cards(DEFAULT, deck_a, deck_b)
    assert len(cards.ids) < len(DEFAULT.names) and (np.diff(cards.ids) > 0).all()
    assert (cards.ids[cards.deck_a] == deck_a).all() and (cards.ids[cards.store] == DEFAULT.extra["store"]).all()
    own = E.play_batch_detailed(DEFAULT, deck_a, deck_b, seeds, first, policy, GREEDY)
    for key, value in whole.items():
        assert np.array_equal(own[key], value), key
    own_trace = E.play_traced(DEFAULT, deck_a, deck_b, 7, 0, policy, GREEDY)
    assert [np.array_equal(a, b) for a, b in zip(own_trace, whole_trace, strict=True)] == [True] * len(whole_trace)


def test_a_batch_that_reaches_more_cards_than_the_record_holds_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(E.python_side, "MAX_LOCAL", 20)
    deck = DEFAULT.deck_array(DECKS["tide_clash"])
    with pytest.raises(WorkbenchInputError, match="different cards"):
        E.play_batch(DEFAULT, deck, deck, np.arange(2, dtype=np.int64), np.zeros(2, dtype=np.int8), GREEDY, GREEDY)


# =====================================================================================================================
# VP and placement beside the two-sided result; power is the change in average VP
# =====================================================================================================================


def test_simulate_keeps_vp_placement_and_rp_per_tournament() -> None:
    result = simulate(
        SAMPLE, DECKS["tide_clash"], DECKS["lantern_score"], matches=200, run=RunSettings(seed=1, workers=1)
    )
    frame = result.matches
    assert {"vp", "place", "rp", "score"} <= set(frame.columns)
    assert frame["vp"].isin([21, 15, 12, 9, 13, 10, 11, 14, 18, 16, 17]).all()
    assert (frame["score"] == frame["vp"] / 21).all()
    assert result.summary()["per_match_means"]["vp"] == pytest.approx(frame["vp"].mean())


def test_power_is_the_change_in_average_vp(make_cardset: MakeCardSet, make_deck: MakeDeck) -> None:
    from workbench.analysis import power_curve

    cardset = _sanity_set(make_cardset, 1, 4)
    reference = make_deck(cardset, "\n".join(f"1 Filler {i}" for i in range(8)), name="reference")
    curve = power_curve(cardset, [reference], matches_per_card=300, only=["Strong"], run=RunSettings(seed=4, workers=1))
    assert "VP" in curve.meta["score"]
    # Everyone else plays the reference deck; Strong replaces a 2-RP filler by a 4-RP card, so A finishes first
    # alone (21 VP) where it used to share first place four ways ((21+15+12+9)/4 = 14 VP).
    assert curve.cards.iloc[0]["power"] == pytest.approx((21 - 14) / 21)


def test_ongoing_stars_and_top_protect_self(make_cardset: MakeCardSet) -> None:
    rows = [
        {
            "name": "Glow",
            "kind": "single",
            "set": "Core Set",
            "set_kind": "core",
            "stars": 3,
            "copies": 2,
            "effects": "Ongoing: star +2",
        },
        {
            "name": "Shy",
            "kind": "single",
            "set": "Core Set",
            "set_kind": "core",
            "stars": 2,
            "copies": 2,
            "effects": "Top: protect self",
        },
        {
            "name": "Hound",
            "kind": "single",
            "set": "Core Set",
            "set_kind": "core",
            "stars": 1,
            "copies": 2,
            "effects": "Play: flip opponent choice",
        },
    ]
    comp = E.compile_cards(make_cardset(RULESET, rows), RULESET.resolve_options())
    board = Board([["Glow", "Shy"], ["Hound"]], comp=comp, store=["Glow"] * 4)
    assert board.stars(0, 0) == 5  # Ongoing: whether or not it is the Top card
    board.perform(1, 0, "Hound")  # greedy picks the highest legal card: Shy is Top and protects itself
    assert board.up(0) == [0, 1]
    assert board.stars(0, 0) == -1
    board2 = Board([["Shy", "Glow"], ["Hound"]], comp=comp, store=["Glow"] * 4)
    board2.perform(1, 0, "Hound")  # Shy is not the Top card now, and Glow (5) is the higher: Glow goes first
    board2.perform(1, 0, "Hound")  # then Shy is Top again and safe: no legal target
    assert board2.up(0) == [1, 0]


# =====================================================================================================================
# Metagame cards, discards, reveals, extra slots, attached cards and copy effects (a small set of their own)
# =====================================================================================================================

RULES_ROWS: list[tuple[str, str, str, int, str, str, str]] = [
    # name, kind, set kind, stars, elements, types, effects
    ("Starter", "single", "core", 4, "Fire", "Soldier", "Play: gain 3 RP; Play: star +2"),
    ("Scorer", "single", "core", 2, "Fire", "Soldier", "Score: gain 2 RP per fire"),
    ("Plank Pirate", "single", "core", 3, "Water", "Fiend", "Play: discard opponent"),
    ("Bilge Rat", "single", "core", 2, "Water", "Beast", "Play: discard yours"),
    ("Sore Loser", "single", "core", 4, "Dark", "Fiend", "Reaction (discarded): gain 4 RP"),
    ("Steam Tinker", "single", "core", 3, "Fire", "Machine", "Play: gain 2 RP per revealed machine"),
    ("Cog", "single", "core", 1, "Fire", "Machine", ""),
    ("Gear", "single", "core", 5, "Earth", "Machine", ""),
    ("Brick", "single", "core", 2, "Earth", "Soldier", ""),
    ("Wide Stance", "single", "core", 3, "Light", "Soldier", "Play: slot +1"),
    ("Squire Host", "single", "core", 4, "Light", "Soldier", "Play: attach; Score: gain 5 RP per attached"),
    ("Counter", "single", "core", 2, "Air", "Citizen", "Score: gain 1 RP per card"),
    ("Yellow Egg", "single", "core", 2, "Light", "Beast", "Play: copy left"),
    ("Copycat", "single", "core", 3, "Dark", "Beast", "Play: copy left"),
    ("Echo Bard", "single", "core", 3, "Air", "Citizen", "Score: copy left"),
    ("Fire Ascendant", "metagame", "meta", 0, "Fire", "", "Score: gain 3 RP per fire"),
    ("Water Ascendant", "metagame", "meta", 0, "Water", "", "Score: gain 3 RP per water"),
    ("Soldier Season", "metagame", "meta", 0, "", "Soldier", "Score: gain 2 RP per soldier"),
]
"""Cards for the rules the bundled set does not use; the two meta sets are the document's two stacks."""


@pytest.fixture(scope="module")
def rules_set(tmp_path_factory: pytest.TempPathFactory) -> CardSet:
    path = tmp_path_factory.mktemp("blades_rules") / "rules.csv"
    lines = ["name,kind,set,set_kind,stars,elements,types,copies,effects"]
    for name, kind, set_kind, stars, elements, types, effects in RULES_ROWS:
        set_name = {"Soldier Season": "Type Meta"}.get(name, "Elemental Meta") if kind == "metagame" else "Test Core"
        lines.append(
            f"{name},{kind},{set_name},{set_kind},{stars},{elements},{types},{1 if kind == 'metagame' else 2},{effects}"
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_cardset(path, RULESET)


@pytest.fixture(scope="module")
def rules_comp(rules_set: CardSet) -> E.CompiledCards:
    return E.compile_cards(rules_set, RULESET.resolve_options({}))


def _reveal_meta(board: Board, *names: str) -> None:
    for m, name in enumerate(names):
        board.st["game"][E.G_META + m] = board.comp.card_id(name)


def _hand(board: Board, p: int) -> list[str]:
    return sorted(
        board.comp.names[c] for c in board.st["side"][p, E.S_CARDS : E.S_CARDS + board.st["side"][p, E.S_HAND]]
    )


# ---- metagame -----------------------------------------------------------------------------------------------------


def test_every_player_scores_the_metagame_for_themselves_after_their_own_cards(rules_comp: E.CompiledCards) -> None:
    # "Activate all of the Score effects ... then your Deck Boxes, then Accessories, then the Metagames." /
    # "Every Player activates the Metagame Score effects for themselves."
    board = Board([["Scorer", "Brick"], ["Cog", "~Starter"]], comp=rules_comp)
    _reveal_meta(board, "Fire Ascendant", "Soldier Season")
    board.score()
    # A: Scorer 2 (one fire) + Fire Ascendant 3 (one fire) + Soldier Season 2 x 2 soldiers = 9.
    # B: no Score card of its own; Fire Ascendant 3 (Cog; the face-down Starter has no element) + no soldier = 3.
    assert (board.rp(0), board.rp(1)) == (9, 3)
    gains = [(row[1], board.comp.names[row[3]], row[5]) for row in board.rows(E.EV_RP)]
    assert gains == [
        (0, "Scorer", 2),
        (0, "Fire Ascendant", 3),
        (0, "Soldier Season", 4),
        (1, "Fire Ascendant", 3),
        (1, "Soldier Season", 0),
    ]


def test_no_metagame_revealed_scores_nothing_extra(rules_comp: E.CompiledCards) -> None:
    board = Board([["Scorer", "Brick"], ["Cog"]], comp=rules_comp)
    board.score()
    assert (board.rp(0), board.rp(1)) == (2, 0)


def _setup(comp: E.CompiledCards, seed: int, **options: OptionValue) -> IntArray:
    opts = E.option_array(RULESET.resolve_options(options))
    st = E.new_state(opts, traced=True)
    deck = np.array([comp.card_id("Brick")], dtype=np.int64)
    E.setup_tournament(
        E.whole_set(comp),
        st,
        deck,
        deck,
        seed,
        0,
        GREEDY,
        GREEDY,
        len(comp.extra["store"]),
        comp.extra["meta"],
    )
    return st["game"][E.G_META : E.G_META + E.MAX_META_STACKS]


@pytest.mark.parametrize(
    ("options", "revealed"),
    [
        ({}, 2),  # round 1: "Reveal a new Elemental Metagame Card" ... "reveal the top card of the Type Meta stack"
        ({"vp_round": "prerelease"}, 0),  # "No Metagame is revealed during this tournament."
        ({"metagame": "none"}, 0),
    ],
)
def test_a_tournament_reveals_one_card_of_each_meta_stack(
    rules_comp: E.CompiledCards, options: dict[str, OptionValue], revealed: int
) -> None:
    seen: set[str] = set()
    for seed in range(40):
        cards = [int(c) for c in _setup(rules_comp, seed, **options) if c >= 0]
        assert len(cards) == revealed
        names = [rules_comp.names[c] for c in cards]
        if revealed:
            assert names[0] in ("Fire Ascendant", "Water Ascendant") and names[1] == "Soldier Season"
        seen.update(names)
    # Both elemental cards come up over the seeds: the stack is shuffled.
    assert seen == ({"Fire Ascendant", "Water Ascendant", "Soldier Season"} if revealed else set())


def test_metagame_cards_are_never_in_the_store(rules_set: CardSet) -> None:
    for kinds in ("boosters", "all"):
        comp = E.compile_cards(rules_set, RULESET.resolve_options({"store_kinds": kinds}))
        assert not any(comp.names[c].endswith(("Ascendant", "Season")) for c in comp.extra["store"])
        assert comp.extra["meta"][:, 0].tolist() == [2, 1]


# ---- discard --------------------------------------------------------------------------------------------------------


def test_discard_opponent_sends_a_single_from_their_hand_to_the_binder_and_they_may_react(
    rules_comp: E.CompiledCards,
) -> None:
    # "Discard a Card - The card is discarded to the owner's Binder ... Cards discarded to the binder are unavailable
    # for the rest of the tournament." B leads on RP, so greedy makes B discard; B picks its fewest-star single.
    board = Board(
        [["Plank Pirate"], ["Sore Loser"], []],
        comp=rules_comp,
        hands=[[], ["Gear", "Cog"], ["Brick"]],
    )
    board.st["side"][1, E.S_RP] = 5
    board.perform(0, 0, "Plank Pirate")
    assert _hand(board, 1) == ["Gear"] and _hand(board, 2) == ["Brick"]
    # "Reaction (discarded)": Sore Loser reacts to an opponent's effect, and is flipped face-down to do it.
    assert board.rp(1) == 5 + 4 and board.up(1) == [0]


def test_discard_yours_is_no_opponents_effect(rules_comp: E.CompiledCards) -> None:
    board = Board([["Sore Loser", "Bilge Rat"]], comp=rules_comp, hands=[["Gear", "Cog"]])
    board.perform(0, 1, "Bilge Rat")
    assert _hand(board, 0) == ["Gear"] and board.rp(0) == 0 and board.up(0) == [1, 1]


def test_a_discard_with_no_single_in_hand_does_nothing(rules_comp: E.CompiledCards) -> None:
    board = Board([["Plank Pirate"], ["Sore Loser"]], comp=rules_comp)
    board.perform(0, 0, "Plank Pirate")
    assert board.rows(E.EV_DISCARD) == [] and len(board.rows(E.EV_NO_TARGET)) == 1


# ---- reveal ---------------------------------------------------------------------------------------------------------


def test_reveal_counts_hand_cards_and_returns_them(rules_comp: E.CompiledCards) -> None:
    # "Reveal a Card from your hand - The card is shown from your hand to all players, then returned to your hand."
    board = Board([["Steam Tinker"]], comp=rules_comp, hands=[["Cog", "Gear", "Brick"]])
    board.perform(0, 0, "Steam Tinker")
    assert board.rp(0) == 2 * 2  # Cog and Gear are machines; Brick is not
    assert _hand(board, 0) == ["Brick", "Cog", "Gear"]


# ---- extra tableau slots ------------------------------------------------------------------------------------------


def test_an_extra_slot_takes_one_more_single_at_the_right_end(rules_comp: E.CompiledCards) -> None:
    # FAQ: "Any extra tableau slots are always at the rightmost side of your tableau". A has 5 of its 6 slots
    # filled; Wide Stance (fewest stars, played first) fills the sixth and gains a seventh, where Gear goes.
    board = Board(
        [["Cog", "Brick", "Counter", "Yellow Egg", "Copycat"], []],
        comp=rules_comp,
        hands=[["Gear", "Wide Stance"], []],
    )
    board.st["game"][E.G_FIRST] = 0
    E.play_tournament(*board.common())
    assert board.names(0)[5:] == ["Wide Stance", "Gear"]
    assert board.top(0) == 6 and int(board.st["side"][0, E.S_SLOTS]) == 7


def test_without_the_extra_slot_the_tableau_is_full_at_six(rules_comp: E.CompiledCards) -> None:
    board = Board(
        [["Cog", "Brick", "Counter", "Yellow Egg", "Copycat"], []],
        comp=rules_comp,
        hands=[["Gear", "Starter"], []],
    )
    board.st["game"][E.G_FIRST] = 0
    E.play_tournament(*board.common())
    assert len(board.names(0)) == 6 and _hand(board, 0) == ["Gear"]


# ---- attached cards -------------------------------------------------------------------------------------------------


def test_attached_cards_are_not_in_the_tableau_for_effects(rules_comp: E.CompiledCards) -> None:
    # FAQ: "Attached cards are not considered in the tableau for effects."
    board = Board([["Counter"]], comp=rules_comp, hands=[["Gear", "Cog"]])
    slot = board.place(0, "Squire Host")
    assert slot == 1 and int(board.st["tab"][0, 1, E.TB_ATTACHED]) == 1
    assert _hand(board, 0) == ["Gear"]  # greedy attaches its fewest-star single
    board.score()
    # Counter: 1 RP per card = 2 (Counter, Squire Host; the attached Cog is not a tableau card); Squire Host: 5.
    assert board.rp(0) == 2 + 5


def test_a_flipped_host_puts_its_attached_card_back_in_the_binder(rules_comp: E.CompiledCards) -> None:
    # FAQ: "If a card that has an attachment becomes flipped, the attached card is put back in your binder."
    board = Board([[], ["Counter"]], comp=rules_comp, hands=[["Cog"]])
    board.place(0, "Squire Host")
    board.flip(0, 0, by=1)
    assert int(board.st["tab"][0, 0, E.TB_ATTACHED]) == 0 and _hand(board, 0) == []
    assert [row[5] for row in board.rows(E.EV_DETACH)] == [1]


# ---- copy effects -------------------------------------------------------------------------------------------------


def test_a_copy_performs_the_left_cards_play_effects_as_its_own(rules_comp: E.CompiledCards) -> None:
    board = Board([["Starter"]], comp=rules_comp)
    board.place(0, "Yellow Egg")
    # Starter's "Play: gain 3 RP; Play: star +2", performed by Yellow Egg: the tokens land on Yellow Egg.
    assert board.rp(0) == 3 and board.stars(0, 1) == 2 + 2 and board.stars(0, 0) == 4


def test_a_copy_of_a_face_down_card_does_nothing(rules_comp: E.CompiledCards) -> None:
    # FAQ: "A copy effect that would target a face-down card does nothing, and the card remains in its original state."
    board = Board([["~Starter"]], comp=rules_comp)
    board.place(0, "Yellow Egg")
    assert board.rp(0) == 0 and board.stars(0, 1) == 2 and len(board.rows(E.EV_NO_TARGET)) == 1


def test_copy_effects_can_never_be_copied(rules_comp: E.CompiledCards) -> None:
    # FAQ: "Copy effects can never be copied." Copycat copies Yellow Egg, whose only Play effect is a copy.
    board = Board([["Starter", "Yellow Egg"]], comp=rules_comp)
    board.place(0, "Copycat")
    assert board.rp(0) == 0 and [row[4] for row in board.rows(E.EV_COPY)] == [rules_comp.card_id("Yellow Egg")]


def test_a_score_copy_scores_the_left_cards_score_effects(rules_comp: E.CompiledCards) -> None:
    board = Board([["Scorer", "Echo Bard"]], comp=rules_comp)
    board.score()
    # Scorer: 2 RP per fire (one: Scorer) = 2; Echo Bard copies it: 2 more.
    assert board.rp(0) == 4


# ---- the engine package ---------------------------------------------------------------------------------------------
