"""The Millennium Blades tournament engine's search policy (`--policy search`): it plays better than greedy where
greedy's choice of single is short-sighted, it never peeks at what its seat cannot see, and it plays whole
tournaments reproducibly. Greedy and random are untouched by it (the golden trace in test_blades_engine.py)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from workbench.cards import OptionValue
from workbench.decklists import read_decklist
from workbench.engines import new_counters, rng_seed
from workbench.loading import load_cardset
from workbench.paths import bundled_decks, bundled_sets
from workbench.rulesets.blades import RULESET
from workbench.rulesets.blades import engine as E

SAMPLE = load_cardset(bundled_sets("blades")[0], RULESET)
DECKS = {path.stem: read_decklist(path, SAMPLE) for path in bundled_decks("blades")}


def compiled(**options: OptionValue) -> E.CompiledCards:
    return E.compile_cards(SAMPLE, RULESET.resolve_options(options))


class Table:
    """A tournament's state record and the search's work, with helpers to call the kernels on them."""

    def __init__(self, comp: E.CompiledCards) -> None:
        self.comp = comp
        self.st = E.new_state(comp.options)
        self.store = comp.extra["store"].copy()
        self.counters = new_counters(len(comp.names))
        self.events = np.zeros((0, 6), dtype=np.int64)
        self.work = E.search_state(comp)

    def ids(self, names: Sequence[str]) -> list[int]:
        return [self.comp.card_id(n) for n in names]

    def decide(self, p: int, seed: int) -> int:
        """The search's single for seat p now (-1: greedy's turn), its generator seeded with `seed`."""
        rng_seed(self.st["search"], seed)
        return int(
            E.search_decision(
                self.comp.table,
                self.comp.extra["effects"],
                self.st,
                self.store,
                self.work["sim"],
                self.work["store"],
                self.work["counters"],
                self.events,
                p,
            )
        )

    def figures(self) -> list[int]:
        """The last decision's candidates and their points, and the rollouts played so far."""
        w = self.st["search"]
        m = int(w[E.SR_N])
        return [
            *map(int, w[E.SR_CAND : E.SR_CAND + m]),
            *map(int, w[E.SR_POINTS : E.SR_POINTS + m]),
            int(w[E.SR_ROLLOUTS]),
        ]

    def play_out(self, p: int, wanted: int) -> int:
        """Seat p plays its turn (`wanted`, -1: greedy's single), the rest of the tournament greedy; p's VP."""
        s = self.st
        state = (self.comp.table, self.comp.extra["effects"], s, self.store, self.counters, self.events)
        s["game"][E.G_TURN] += 1
        # The search policy plays `wanted` at the seat's single decision (-1: greedy's single), as a rollout does.
        policy = int(s["side"][p, E.S_POLICY])
        s["side"][p, E.S_POLICY] = E.SEARCH
        s["search"][E.SR_WANTED] = wanted
        E.take_turn(*state, p)
        s["side"][p, E.S_POLICY] = policy
        E.finish_tournament(*state, (p + 1) % int(s["game"][E.G_PLAYERS]))
        return int(s["side"][p, E.S_VP])


def _score_board(comp: E.CompiledCards, rival_rp: int) -> Table:
    """Seat A, five Citizens on the table and one slot open, holds Cinder Recruit and The Lantern Mayor; seat B's
    tableau is full (it cannot play) at `rival_rp` RP. No metagame card (option `metagame=none`)."""
    table = Table(comp)
    s = table.st
    game = s["game"]
    game[E.G_PLAYERS] = 2
    game[E.G_SLOTS] = 6
    game[E.G_STORE_LEFT] = game[E.G_STORE_TOTAL] = len(table.store)
    game[E.G_TURN] = 10
    rng_seed(s["rng"], 5)
    tableaus = (
        ["Market Busker", "Alley Fortune Teller", "Spark Courier", "Night Market Chef", "Moth Messenger"],
        ["Pocket Paladin"] * 6,
    )
    for p, cards in enumerate(tableaus):
        for k, card in enumerate(table.ids(cards)):
            s["tab"][p, k, E.TB_CARD] = card
            s["tab"][p, k, E.TB_UP] = 1
        s["side"][p, E.S_USED] = len(cards)
        s["side"][p, E.S_SLOTS] = 6
        s["side"][p, E.S_DECKSIDE] = min(p, 1)
        s["side"][p, E.S_POLICY] = E.SEARCH if p == 0 else E.GREEDY
    hand = table.ids(["Cinder Recruit", "The Lantern Mayor"])
    s["side"][0, E.S_CARDS : E.S_CARDS + 2] = hand
    s["side"][0, E.S_HAND] = 2
    s["side"][0, E.S_RP] = 10
    s["side"][1, E.S_RP] = rival_rp
    return table


def test_search_keeps_the_score_card_greedy_trades_for_play_rp() -> None:
    """ "Play: Gain 2 RP" now (greedy's pick: the most immediate RP) or The Lantern Mayor's "Score: gain 3 RP per
    citizen" in the last slot: "Players place in the tournament according to the number of Ranking Points (RP)
    they've accumulated", and the Mayor scores more. Search sees it; greedy plays the Recruit and places second."""
    comp = compiled(players=2, metagame="none")
    recruit, mayor = comp.card_id("Cinder Recruit"), comp.card_id("The Lantern Mayor")
    greedy = _score_board(comp, 30)
    greedy_vp = greedy.play_out(0, -1)
    assert greedy.st["tab"][0, 5, E.TB_CARD] == recruit
    searched = _score_board(comp, 30)
    choice = searched.decide(0, 1)
    assert choice == mayor
    assert searched.figures()[:2] == [-1, recruit]
    points = searched.figures()
    rollouts = int(comp.options[E.O_SEARCH_ROLLOUTS])
    # Greedy's turn and the Recruit are the same play; the Mayor wins first place (21 VP) in every sampled world.
    assert points[3] == points[4] < points[5] == 21 * rollouts
    searched_vp = searched.play_out(0, choice)
    assert searched.st["tab"][0, 5, E.TB_CARD] == mayor
    assert (greedy_vp, searched_vp) == (15, 21)


def test_search_keeps_greedys_choice_on_a_tie() -> None:
    """Far enough ahead that either single wins first place, every candidate scores alike: greedy's turn stands."""
    comp = compiled(players=2, metagame="none")
    table = _score_board(comp, 0)
    assert table.decide(0, 1) == -1
    assert len(set(table.figures()[3:6])) == 1


def _midgame(comp: E.CompiledCards) -> Table:
    """A three-player tournament just set up (lantern_score for A, tide_clash for B and C), then seat B given four
    and seat C three singles of other decks, so the unseen hands differ in count and content."""
    table = Table(comp)
    s = table.st
    E.setup_tournament(
        comp.table,
        s,
        table.counters,
        np.zeros((0, 6), dtype=np.int64),
        comp.deck_array(DECKS["lantern_score"]),
        comp.deck_array(DECKS["tide_clash"]),
        11,
        0,
        E.SEARCH,
        E.GREEDY,
        len(table.store),
        comp.extra["meta"],
    )
    hands = (
        ["Surf Cadet", "Gloom Imp", "Brine Duelist", "Rust Hound"],
        ["Tidebreaker Admiral", "Pocket Paladin", "Gear Choir"],
    )
    for q, names in enumerate(hands, start=1):
        s["side"][q, E.S_CARDS : E.S_CARDS + len(names)] = table.ids(names)
        s["side"][q, E.S_HAND] = len(names)
    s["game"][E.G_STORE_LEFT] -= 9  # nine store cards already drawn: the search shuffles only the undrawn part
    return table


def _permute_hidden(table: Table, seed: int) -> None:
    """Move the other seats' singles between their hands (keeping each hand's size) and shuffle the undrawn store."""
    s = table.st
    gen = np.random.default_rng(seed)
    sizes = [int(s["side"][q, E.S_HAND]) for q in (1, 2)]
    pool = np.concatenate([s["side"][q, E.S_CARDS : E.S_CARDS + n] for q, n in zip((1, 2), sizes, strict=True)])
    pool = gen.permutation(pool)
    s["side"][1, E.S_CARDS : E.S_CARDS + sizes[0]] = pool[: sizes[0]]
    s["side"][2, E.S_CARDS : E.S_CARDS + sizes[1]] = pool[sizes[0] :]
    left = int(s["game"][E.G_STORE_LEFT])
    table.store[:left] = gen.permutation(table.store[:left])


def _hands(table: Table) -> list[list[int]]:
    side = table.st["side"]
    return [list(map(int, side[q, E.S_CARDS : E.S_CARDS + side[q, E.S_HAND]])) for q in range(3)]


def test_search_never_peeks_at_hands_or_the_store_order() -> None:
    """The other seats' hands and the store are hidden from seat A; moving their cards between the hidden places
    changes neither the search's decision nor any of its figures (candidates, points, rollouts)."""
    comp = compiled(players=3, search_rollouts=8)
    base = _midgame(comp)
    before = _hands(base)
    decision = base.decide(0, 77)
    figures = base.figures()
    assert _hands(base) == before  # the real state is only read, never dealt anew
    assert figures[0] == -1 and len(figures) > 3
    changed = 0
    for seed in range(4):
        other = _midgame(comp)
        _permute_hidden(other, seed)
        changed += _hands(other) != before
        assert other.decide(0, 77) == decision
        assert other.figures() == figures
    assert changed > 0  # the permutations really moved cards between the hidden hands


def test_search_reads_what_it_can_see() -> None:
    """A different multiset of unseen cards is different knowledge: seat C holding three other singles changes the
    points (the search does read what is unseen in aggregate, only never where each card lies)."""
    comp = compiled(players=3, search_rollouts=8)
    base = _midgame(comp)
    base.decide(0, 77)
    other = _midgame(comp)
    other.st["side"][2, E.S_CARDS : E.S_CARDS + 3] = other.ids(["Cinder Recruit", "Market Busker", "Kindling Sprite"])
    other.decide(0, 77)
    assert other.figures() != base.figures()


def _batch(comp: E.CompiledCards, policy_a: int, n: int = 12) -> dict:
    seeds = np.arange(1, n + 1, dtype=np.int64) * 7919
    first = (np.arange(n) % 2).astype(np.int8)
    deck = comp.deck_array(DECKS["lantern_score"])
    return E.play_batch_detailed(comp, deck, deck, seeds, first, policy_a, E.GREEDY)


def test_search_plays_whole_tournaments_reproducibly() -> None:
    """Same seeds, same tournaments and the same search figures; the search counts its decisions and rollouts."""
    comp = compiled(players=2, search_rollouts=4)
    first, again = _batch(comp, E.SEARCH), _batch(comp, E.SEARCH)
    for key in ("winner", "turns", "vp_a", "place_a", "rp_a", "counters", "search_decisions", "search_rollouts"):
        assert np.array_equal(first[key], again[key]), key
    assert first["search_decisions"] > 0
    assert first["search_rollouts"] >= 4 * 3 * first["search_decisions"]
    assert _batch(comp, E.GREEDY)["search_decisions"] == 0


def test_search_is_a_policy_of_the_engine() -> None:
    """`--policy search` is listed, and its options are in the ledger as "Not a rule"."""
    assert E.ENGINE.policies == ("greedy", "random", "search")
    ledger = {option.key: option for option in RULESET.options}
    for key in ("search_rollouts", "search_rollout_policy"):
        assert ledger[key].reading.startswith("Not a rule")
