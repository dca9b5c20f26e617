"""The whole game's characters and pro player cards (`market.py`, options `characters`, `pro_cards` and the power
figures). Each case quotes the document (Game Setup step 5 and its note "Playing without Characters"; Variants:
Character Powers, Pro Player Cards; Character Intros)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from workbench.cards import OptionValue
from workbench.loading import load_cardset
from workbench.paths import REPO_ROOT, bundled_sets
from workbench.rulesets.blades import RULESET as BLADES
from workbench.rulesets.blades import engine as E
from workbench.rulesets.blades import market as M
from workbench.rulesets.blades.market_rng import MarketRng
from workbench.rulesets.blades.market_runs import play_full_games, trace_full_game

SAMPLE = load_cardset(bundled_sets("blades")[0], BLADES)
GOLDEN = REPO_ROOT / "tests" / "golden"


def options(**overrides: OptionValue) -> dict[str, OptionValue]:
    return BLADES.resolve_options({"game": "full", **{k: str(v) for k, v in overrides.items()}})


CARDS = M.compile_market(SAMPLE, options())
NAMES = CARDS.compiled.names
SHORTS = ["deques", "cardine", "fulton", "morrey", "power_creep", "shur"]


def seated(first: str, **overrides: OptionValue) -> M.MarketCards:
    """Characters dealt in the document's order from `first` (seat A) on."""
    return M.compile_market(SAMPLE, options(characters="in_order", first_character=first, **overrides))


class PassPolicy:
    """Never acts: plays its first legal deck, turns in no collection, and (as The Power Creep) reveals `pick`."""

    def __init__(self, pick: int = 0) -> None:
        self.pick = pick
        self.seen: list[tuple[int, ...]] = []

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
        self.seen.append(tuple(seen))
        return min(self.pick, len(seen) - 1)


def fresh(cards: M.MarketCards, players: int = 4, seed: int = 0) -> M.MarketState:
    return M.new_game(cards, MarketRng(seed), [0] * players)


def summary(cards_options: dict[str, OptionValue], games: int = 3, seed: int = 4) -> dict[str, Any]:
    found = play_full_games(SAMPLE, cards_options, games, seed, "greedy").summary()
    found.pop("games_per_second")
    return found


# ---- off by default -------------------------------------------------------------------------------------------------


def test_characters_are_off_by_default_as_the_first_game_allows() -> None:
    # "** Playing without Characters. In your first game, you may choose to leave out character powers." The
    # default is that first game: no seat has a character, and pro player cards ("When playing with characters,
    # you can introduce Pro Player Cards") stay out.
    resolved = options()
    assert resolved["characters"] == "none" and resolved["pro_cards"] is False
    state = fresh(CARDS)
    assert all(seat.character == -1 and seat.pro_set == -1 for seat in state.seats)
    assert CARDS.pro_sets == ()
    result, lines = M.play_game(CARDS, MarketRng(3), [PassPolicy() for _ in range(4)], [0] * 4, True)
    assert result.characters == [] and not any("Characters" in line for line in lines)
    assert not any("Marisol Quickdraw" in line for line in lines)
    assert "characters" not in summary(options(), 1)


def test_default_games_are_the_golden_games_whatever_the_figures_say() -> None:
    # Without characters the power figures and pro_cards do nothing: today's games, bit-identical (the golden
    # traces of the whole game and the duel, recorded before characters existed).
    figures = dict(
        fulton_income=50, shur_tableau=6, cardine_promos=5, cardine_fusion=4, morrey_buy_discount=9, pro_cards=True
    )
    four = (GOLDEN / "blades_full_game_trace.txt").read_text(encoding="utf-8").splitlines()[1:]
    duel = (GOLDEN / "blades_full_game_duel_trace.txt").read_text(encoding="utf-8").splitlines()[1:]
    assert trace_full_game(SAMPLE, options(), 7) == four
    assert trace_full_game(SAMPLE, options(**figures), 7) == four
    assert trace_full_game(SAMPLE, options(players=2, **figures), 7) == duel
    assert summary(options(**figures)) == summary(options())


# ---- how characters are dealt ---------------------------------------------------------------------------------------


def test_random_characters_are_different_and_drawn_from_the_seed() -> None:
    # "Give each player ... a Character Card, either randomly or of their choice": six characters, so five seats
    # at most are all different.
    cards = M.compile_market(SAMPLE, options(characters="random", players=5))
    dealt = [tuple(seat.character for seat in fresh(cards, 5, seed).seats) for seed in range(12)]
    assert all(len(set(d)) == 5 for d in dealt)
    assert len(set(dealt)) > 1, "the deal depends on the game's generator"
    assert dealt[3] == tuple(seat.character for seat in fresh(cards, 5, 3).seats)


def test_in_order_seats_the_document_order_from_the_first_character() -> None:
    state = fresh(seated("power_creep"), players=4)
    names = [M.CHARACTERS[seat.character].name for seat in state.seats]
    assert names == ["The Power Creep", "Shur Wen Na", "Deques Applenti", "Cardine Kollekta"]


def test_same_seed_same_game_with_characters() -> None:
    chosen = options(characters="random", pro_cards=True)
    assert summary(chosen) == summary(chosen)
    assert trace_full_game(SAMPLE, chosen, 5) == trace_full_game(SAMPLE, chosen, 5)


def test_characters_change_the_game_and_the_summary_names_them() -> None:
    found = summary(options(characters="random"), games=4)
    assert found != summary(options(), games=4)
    rows = found["characters"]
    assert sum(row["seats"] for row in rows) == 16
    assert {row["character"] for row in rows} <= {c.name for c in M.CHARACTERS}


# ---- each power does what it says, and nothing else -----------------------------------------------------------------


def test_fulton_receives_extra_money() -> None:
    # "Fulton's abilities primarily shine during the deckbuilding phase, where he receives extra money": $30 + the
    # figure each deckbuilding phase, the other seats $30.
    cards = seated("fulton", fulton_income=7)
    result, lines = M.play_game(cards, MarketRng(5), [PassPolicy() for _ in range(4)], [0] * 4, True)
    assert result.money == [3 * 37, 90, 90, 90]
    assert sum("Fulton Suitcase) receives $7 more" in line for line in lines) == 3


def test_shur_plays_extra_cards_into_her_tableau(monkeypatch: pytest.MonkeyPatch) -> None:
    # "She gets to play extra cards into her tableau": her tableau has `shur_tableau` more slots than the others'
    # in each tournament after a deckbuilding phase; the pre-release: "character powers are not used".
    slots: list[list[int]] = []
    original = E.play_tournament

    def spy(g: Any, s: Any, *rest: Any) -> None:
        slots.append([int(s.side[p, E.S_SLOTS]) for p in range(int(s.game[E.G_PLAYERS]))])
        original(g, s, *rest)

    monkeypatch.setattr(M.engine_policies, "play_tournament", spy)  # the module the market calls it from
    cards = seated("shur", shur_tableau=2, prerelease=True)
    base = int(cards.options["tableau_slots"])
    M.play_game(cards, MarketRng(1), [PassPolicy() for _ in range(4)], [0] * 4)
    assert slots == [[base] * 4, [base + 2, base, base, base], [base + 2, base, base, base]]


def test_shur_plays_more_singles() -> None:
    # With eight singles in the deck and six slots, two more slots let her play more of them.
    cards = seated("shur", shur_tableau=2)
    result, lines = M.play_game(cards, MarketRng(2), [PassPolicy() for _ in range(4)], [0] * 4, True)
    assert any("Shur Wen Na) has 8 tableau slots" in line for line in lines)
    plays = [sum(line.strip().startswith(f"{seat} plays") for line in lines) for seat in "ABCD"]
    assert plays[0] > max(plays[1:])


def test_cardine_starts_with_rare_promos_and_fuses_more_easily() -> None:
    # "Cardine is a balanced character who starts the game with extra advantages in the form of some rare promo
    # cards and who can acquire rare cards from card fusion more easily than other players."
    cards = seated("cardine", cardine_promos=2, cardine_fusion=1)
    state = fresh(cards)
    plain = fresh(CARDS)
    cardine, other = state.seats[0], state.seats[1]
    assert cardine.binder[:-2] == plain.seats[0].binder
    assert all(card in cards.promo_piles[2] for card in cardine.binder[-2:])
    assert other.binder == plain.seats[1].binder
    for seat in (cardine, other):
        seat.binder += [NAMES.index("Market Busker")] * 4
    four = M.Action(M.FUSE, index=0, cards=tuple(cardine.binder[:4]))
    assert M.fusion_cards(state, 0, 0) == 4 and M.legal(state, 0, four)
    assert M.fusion_cards(state, 1, 0) == 5
    assert not M.legal(state, 1, M.Action(M.FUSE, index=0, cards=tuple(other.binder[:4])))
    size = len(cardine.binder)
    M.apply(state, 0, four)
    assert len(cardine.binder) == size - 4 + 1
    assert [M.fusion_cards(state, 0, tier) for tier in range(3)] == [4, 6, 8]


def test_morrey_buys_cheaper_and_sells_dearer_on_the_aftermarket() -> None:
    # "Morrey specializes in controlling the Aftermarket during deckbuilding, with the ability to buy cards more
    # cheaply and sell them at a higher price than the other players."
    cards = seated("morrey", morrey_buy_discount=2, morrey_sell_bonus=3)
    state = fresh(cards)
    morrey, other = state.seats[0], state.seats[1]
    mine = morrey.binder[0]
    stars = int(cards.stars[mine])
    M.apply(state, 0, M.Action(M.SELL, cards=(mine,)))
    assert morrey.money == stars + 3
    theirs = other.binder[0]
    M.apply(state, 1, M.Action(M.SELL, cards=(theirs,)))
    assert other.money == int(cards.stars[theirs])
    morrey.money = other.money = 0
    state.seats[2].money = 20
    # Seat C (no power) pays the star rating for Morrey's card; Morrey pays two less for B's.
    M.apply(state, 2, M.Action(M.BUY_AFTERMARKET, index=0))
    assert state.seats[2].money == 20 - stars
    morrey.money = max(0, int(cards.stars[theirs]) - 2)
    assert M.legal(state, 0, M.Action(M.BUY_AFTERMARKET, index=0))
    M.apply(state, 0, M.Action(M.BUY_AFTERMARKET, index=0))
    assert morrey.money == 0 and morrey.binder[-1] == theirs and other.markers == 3


def test_the_power_creep_chooses_the_revealed_metagame() -> None:
    # "Power Creep has the ability to control the Metagame, manipulating what types and elements will perform best
    # in upcoming tournaments": it sees the top `power_creep_meta_look` cards and reveals the one it picks; the
    # others stay on top in order.
    cards = seated("power_creep", power_creep_meta_look=3)
    state = fresh(cards)
    policies = [PassPolicy(pick=2) for _ in range(4)]
    stacks = [list(stack) for stack in state.meta_stacks]
    M.reveal_metagame(state, M.META_ELEMENTAL, policies)
    m = cards.meta_timing.index(M.META_ELEMENTAL)
    assert state.metagame[m] == stacks[m][2]
    assert state.meta_stacks[m] == stacks[m][:2] + stacks[m][3:]
    assert policies[0].seen == [tuple(stacks[m][:3])] and all(not p.seen for p in policies[1:])
    # Without the power the top card is revealed.
    plain = fresh(CARDS)
    top = list(plain.meta_stacks[m])
    M.reveal_metagame(plain, M.META_ELEMENTAL, policies)
    assert plain.metagame[m] == top[0]


def test_greedy_power_creep_reveals_what_pays_its_deck() -> None:
    # Greedy as The Power Creep reveals the seen card whose Score clauses pay most for its best deck.
    cards = seated("power_creep", power_creep_meta_look=6)
    from workbench.rulesets.blades.market_policy import make_policy, valuation

    state = fresh(cards)
    m = cards.meta_timing.index(M.META_ELEMENTAL)
    seen = list(state.meta_stacks[m])
    greedy = make_policy("greedy")
    M.reveal_metagame(state, M.META_ELEMENTAL, [greedy] * 4)

    def pays(card: int) -> float:
        found = valuation(cards, (card,))
        return sum(found.metagame_bonus(c) for c in found.best_deck(state.seats[0].binder))

    assert pays(state.metagame[m]) == max(pays(c) for c in seen) > 0


def test_deques_has_no_simulated_power_and_says_so() -> None:
    # "He can include extra deck boxes and accessories in his tournament kit": the engine holds one deck box and
    # two accessories a seat, so Deques plays without a power, and the compiled cards say so.
    cards = seated("deques")
    assert cards.powers[0] == (0,) * len(M.POWER_NAMES)
    (finding,) = [f for f in cards.findings if f.rule == "blades.market_characters"]
    assert finding.severity == "info" and "Deques Applenti: 'He can include extra deck boxes" in finding.message
    state = fresh(cards)
    assert [M.power(state, 0, kind) for kind in range(len(M.POWER_NAMES))] == [0] * len(M.POWER_NAMES)


# ---- pro player cards -----------------------------------------------------------------------------------------------


def test_pro_cards_need_characters() -> None:
    # "When playing with characters, you can introduce Pro Player Cards."
    assert M.compile_market(SAMPLE, options(pro_cards=True)).pro_sets == ()
    marisol = NAMES.index("Marisol Quickdraw")
    assert seated("deques", pro_cards=True).pro_sets == ((marisol,) * 5,)


def test_the_winner_gives_everyone_a_copy_of_his_pro_card() -> None:
    # "During rounds 1 and 2, when a player scores first place in the tournament, give each player (including
    # himself) a copy of his Pro Player Card. If a player who won the first tournament also wins the second one,
    # give the 2nd place player's Pro Player card to all players instead."
    cards = seated("deques", pro_cards=True)
    marisol = NAMES.index("Marisol Quickdraw")
    state = fresh(cards, players=3)
    holder = next(p for p, seat in enumerate(state.seats) if seat.pro_set == 0)
    assert sum(seat.pro_set == 0 for seat in state.seats) == 1
    before = [list(seat.binder) for seat in state.seats]
    state.first = holder
    places = [2, 2, 2]
    places[holder] = 1
    M.give_pro_cards(state, places)
    assert [seat.binder for seat in state.seats] == [b + [marisol] for b in before]
    assert all(marisol in shown for shown in state.shown)
    # The same seat wins round 2: the 2nd place player's card goes round instead (another seat has no pro set
    # here, so nothing is given, and the trace says so).
    second = (holder + 1) % 3
    places = [3, 3, 3]
    places[holder], places[second] = 1, 2
    state.log = []
    M.give_pro_cards(state, places)
    assert [seat.binder for seat in state.seats] == [b + [marisol] for b in before]
    assert state.log == [f"  {M.seat_name(state, second)} has no pro player card to give"]
    # And when the second-placed seat holds the pro set, its card is given, while its five copies last ("6 Pro
    # Player Card Sets (5 cards each)"): three went round after round 1, so the third seat from the giver gets none.
    state.tournament_winners = [second]
    state.first = second
    places = [3, 3, 3]
    places[second], places[holder] = 1, 2
    M.give_pro_cards(state, places)
    counts = [state.seats[(holder + k) % 3].binder.count(marisol) for k in range(3)]
    assert counts == [2, 2, 1] and state.pro_left == [[]]


def test_marisol_quickdraw_is_live_in_the_whole_game() -> None:
    # The bundled Pro set comes into play with characters and pro cards on: handed out and played in tournaments.
    chosen = options(characters="random", pro_cards=True)
    given = played = 0
    for seed in range(6):
        lines = trace_full_game(SAMPLE, chosen, seed)
        given += sum("gets Marisol Quickdraw" in line for line in lines)
        played += sum("deck:" in line and "Marisol Quickdraw" in line for line in lines)
    assert given > 0 and played > 0


def test_the_ledger_names_what_is_left_out() -> None:
    # Item 10 of issue 32: what the whole game does not simulate is in the ledger, where a designer reads it.
    game = next(option for option in BLADES.options if option.key == "game")
    for words in ("card for card", "Blast Off PLUS", "Venues", "Draft Mode", "Liquidation Mode", "Turn-Based Mode"):
        assert words in game.reading
    assert "Free Market Mode" in game.reading and "Millennium Accessories" in game.reading
    characters = next(option for option in BLADES.options if option.key == "characters")
    assert "In your first game, you may choose to leave out character powers" in characters.quote
