"""The Millennium Blades tournament engine's search policy (`--policy search`): it plays better than greedy where
greedy's choice of single is short-sighted, it never peeks at what its seat cannot see, it shares each decision's
budget out by successive halving, and it plays whole tournaments reproducibly. Greedy and random are untouched by it
(the golden trace in test_blades_engine.py)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from workbench.cards import OptionValue
from workbench.decklists import read_decklist
from workbench.engines import rng_seed
from workbench.loading import load_cardset
from workbench.paths import bundled_decks, bundled_sets
from workbench.play.policies import GREEDY, SEARCH
from workbench.play.search import WIN_POINTS, halving_rounds, rollouts_given, schedule
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
        self.st["store"][: len(comp.extra["store"])] = comp.extra["store"]
        self.store = self.st["store"][: len(comp.extra["store"])]
        """The store in use: a view of the state record's."""
        self.g = E.whole_set(comp)
        """The game data: every card of the set, so card ids are the set's."""
        self.work = E.search_state(comp)
        self.turn_of = -1
        """The seat whose turn is under way (-1: between turns)."""

    def begin(self, p: int) -> None:
        """Seat p's turn begins, its first decision open (where the search decides), unless it is under way."""
        if self.turn_of != p:
            self.st["game"][E.G_TURN] += 1
            E.begin_turn(self.g, self.st, p)
            self.turn_of = p

    def ids(self, names: Sequence[str]) -> list[int]:
        return [self.comp.card_id(n) for n in names]

    def decide(self, p: int, seed: int) -> int:
        """The search's single for seat p's turn (-1: greedy's turn), at its first decision, its generator seeded with
        `seed`."""
        self.begin(p)
        rng_seed(self.st["search"], seed)
        return int(E.search_decision(self.g, self.st, self.work["sim"], self.work["world"], p))

    def figures(self) -> list[int]:
        """The last decision's candidates, their points and the rollouts each was given, and the rollouts played so
        far."""
        w = self.st["search"]
        m = int(w[E.SR_N])
        return [
            *map(int, w[E.SR_CAND : E.SR_CAND + m]),
            *map(int, w[E.SR_POINTS : E.SR_POINTS + m]),
            *map(int, w[E.SR_TRIED : E.SR_TRIED + m]),
            int(w[E.SR_ROLLOUTS]),
        ]

    def play_out(self, p: int, wanted: int) -> int:
        """Seat p plays its turn (`wanted`, -1: greedy's single), the rest of the tournament greedy; p's VP."""
        s = self.st
        state = (self.g, s)
        self.begin(p)
        # The search policy plays `wanted` at the seat's single decision (-1: greedy's single), as a rollout does.
        policy = int(s["side"][p, E.S_POLICY])
        s["side"][p, E.S_POLICY] = SEARCH
        s["search"][E.SR_WANTED] = wanted
        E.play_turn_out(*state)
        self.turn_of = -1
        s["side"][p, E.S_POLICY] = policy
        E.finish_rollout(*state, 0)  # depth 0: to the end
        return int(s["side"][p, E.S_VP])


def _score_board(
    comp: E.CompiledCards, rival_rp: int, hand: Sequence[str] = ("Cinder Recruit", "The Lantern Mayor")
) -> Table:
    """Seat A, five Citizens on the table and one slot open, holds `hand` (Cinder Recruit and The Lantern Mayor);
    seat B's tableau is full (it cannot play) at `rival_rp` RP. No metagame card (option `metagame=none`)."""
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
        s["side"][p, E.S_POLICY] = SEARCH if p == 0 else GREEDY
        E.seat_summaries(table.g, s, p)
    s["side"][0, E.S_CARDS : E.S_CARDS + len(hand)] = table.ids(hand)
    s["side"][0, E.S_HAND] = len(hand)
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
    # Greedy's turn (the Recruit: greedy's own single is not listed again) and the Mayor, the budget each.
    rollouts = int(comp.options[E.O_SEARCH_ROLLOUTS])
    cand, points, tried = searched.figures()[:2], searched.figures()[2:4], searched.figures()[4:6]
    assert cand == [-1, mayor] and tried == [rollouts, rollouts]
    # A rollout's VP times WIN_POINTS and its RP lead below WIN_POINTS: second place (15 VP) every time with the
    # Recruit, first (21 VP) every time with the Mayor.
    assert [p // (WIN_POINTS * rollouts) for p in points] == [15, 21]
    searched_vp = searched.play_out(0, choice)
    assert searched.st["tab"][0, 5, E.TB_CARD] == mayor
    assert (greedy_vp, searched_vp) == (15, 21)


def test_search_prefers_the_larger_lead_when_the_vp_are_even() -> None:
    """Far enough ahead that either single wins first place, the VP are even; the Mayor's Score clause makes the
    lead larger, and the lead tells the candidates apart (`rollout_points`)."""
    comp = compiled(players=2, metagame="none")
    table = _score_board(comp, 0)
    assert table.decide(0, 1) == comp.card_id("The Lantern Mayor")
    rollouts = int(comp.options[E.O_SEARCH_ROLLOUTS])
    points = table.figures()[2:4]
    assert [p // (WIN_POINTS * rollouts) for p in points] == [21, 21] and points[0] < points[1]


def test_search_keeps_greedys_choice_on_a_tie() -> None:
    """Two singles that change nothing of the score in the last slot (Smoke Screen Scout, Stone Sentinel: no Play or
    Score clause, no clash left): every rollout scores alike, and greedy's turn stands."""
    comp = compiled(players=2, metagame="none")
    table = _score_board(comp, 30, ("Smoke Screen Scout", "Stone Sentinel"))
    assert table.decide(0, 1) == -1
    figures = table.figures()
    assert figures[:2] == [-1, comp.card_id("Stone Sentinel")] and figures[2] == figures[3]


def _midgame(comp: E.CompiledCards) -> Table:
    """A three-player tournament just set up (lantern_score for A, tide_clash for B and C), then seat B given four
    and seat C three singles of other decks, so the unseen hands differ in count and content."""
    table = Table(comp)
    s = table.st
    E.setup_tournament(
        table.g,
        s,
        comp.deck_array(DECKS["lantern_score"]),
        comp.deck_array(DECKS["tide_clash"]),
        11,
        0,
        SEARCH,
        GREEDY,
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
    assert figures[0] == -1 and len(figures) > 4
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


def test_search_spends_each_decisions_budget_by_successive_halving() -> None:
    """The rollouts each candidate was given are successive halving's schedule (`play.search.schedule`): each
    round's survivors the round's share, the worse half dropped, the chosen one through every round."""
    comp = compiled(players=3, search_rollouts=4)
    table = _midgame(comp)
    choice = table.decide(0, 77)
    w = table.st["search"]
    m = int(w[E.SR_N])
    k = int(w[E.SR_CHOICE])
    assert m >= 4 and int(w[E.SR_CAND + k]) == choice
    tried = [int(v) for v in w[E.SR_TRIED : E.SR_TRIED + m]]
    plan = schedule(4 * m, m)
    assert sum(tried) == sum(alive * share for alive, share in plan) == int(w[E.SR_ROLLOUTS]) <= 4 * m
    assert tried[k] == sum(share for _, share in plan) == max(tried)
    assert sorted(tried) == rollouts_given(4 * m, m) and len(plan) == halving_rounds(m)
    assert int(w[E.SR_ORDER]) == k


def test_search_figures_do_not_depend_on_what_its_work_records_held() -> None:
    """Every rollout starts from a clone of its world and every world from a clone of the state (`clone_in_play`
    copies all the rules read, the store and generator included; `sort_unseen_store` writes the sorted store anew
    each decision): work records scribbled over first give the same figures."""
    comp = compiled(players=3, search_rollouts=4)
    clean = _midgame(comp)
    clean.decide(0, 77)
    scribbled = _midgame(comp)
    gen = np.random.default_rng(5)
    for name in ("sim", "world"):
        for field in ("tab", "area", "side", "game", "queue", "rng", "store", "pool"):
            part = scribbled.work[name][field]
            part[...] = gen.integers(-(10**6), 10**6, size=part.shape)
    scribbled.decide(0, 77)
    assert scribbled.figures() == clean.figures()


def test_a_clone_plays_on_exactly_as_its_source() -> None:
    """`clone(st, into)` into a record scribbled over first: the rest of the tournament played from the clone is the
    source's, turn for turn (the same store draws and dice: the generator and the store are copied)."""
    comp = compiled(players=3)
    source = _midgame(comp)
    source.st["side"][0, E.S_POLICY] = GREEDY
    target = Table(comp)
    gen = np.random.default_rng(9)
    for field in ("tab", "area", "side", "game", "queue", "rng", "store", "options"):
        part = target.st[field]
        part[...] = gen.integers(-(10**6), 10**6, size=part.shape)
    E.clone(source.st, target.st)
    assert source.play_out(1, -1) == target.play_out(1, -1)
    for field in ("tab", "area", "side", "game", "rng", "options"):
        assert np.array_equal(source.st[field], target.st[field]), field
    total = int(source.st["game"][E.G_STORE_TOTAL])
    assert np.array_equal(source.st["store"][:total], target.st["store"][:total])


def _played(comp: E.CompiledCards, turns: int) -> Table:
    """`_midgame`, every seat greedy, after `turns` turns (tableaus with cards, some of them flipped)."""
    table = _midgame(comp)
    s = table.st
    s["side"][0, E.S_POLICY] = GREEDY
    players = int(s["game"][E.G_PLAYERS])
    for t in range(turns):
        table.begin(t % players)
        E.play_turn_out(table.g, s)
        table.turn_of = -1
    return table


def _live(st: np.void) -> dict[str, np.ndarray]:
    """What `clone_in_play` copies: the seats in play (their tableau slots in use, fields and hand), the match
    fields, the generator, the store's cards and the options."""
    players = int(st["game"][E.G_PLAYERS])
    live = {name: np.array(st[name]) for name in ("game", "rng", "options")}
    live["store"] = np.array(st["store"][: int(st["game"][E.G_STORE_TOTAL])])
    for p in range(players):
        live[f"tab{p}"] = np.array(st["tab"][p, : int(st["side"][p, E.S_USED])])
        live[f"side{p}"] = np.array(st["side"][p, : E.S_CARDS + int(st["side"][p, E.S_HAND])])
        live[f"area{p}"] = np.array(st["area"][p])
    return live


def _scribbled(comp: E.CompiledCards, seed: int) -> Table:
    table = Table(comp)
    gen = np.random.default_rng(seed)
    for field in ("tab", "area", "side", "game", "queue", "rng", "store", "options"):
        part = table.st[field]
        part[...] = gen.integers(-(10**6), 10**6, size=part.shape)
    return table


def test_a_clone_in_play_plays_on_exactly_as_its_source() -> None:
    """`clone_in_play(st, into)` (the search's copy) into a record scribbled over first: what it copies equals the
    source's, and the rest of the tournament played from it is the source's, turn for turn, though the seats out of
    play, the slots past those in use and the hand's room keep the scribbles."""
    comp = compiled(players=3)
    source = _played(comp, 5)
    assert int(source.st["side"][0, E.S_USED]) >= 1
    target = _scribbled(comp, 9)
    E.clone_in_play(source.st, target.st)
    before = _live(source.st)
    assert all(np.array_equal(before[k], v) for k, v in _live(target.st).items())
    assert source.play_out(2, -1) == target.play_out(2, -1)
    after = _live(source.st)
    assert all(np.array_equal(after[k], v) for k, v in _live(target.st).items())


def test_the_search_deals_its_worlds_as_determinize_does() -> None:
    """`rollout_world` (the store sorted once a decision by `sort_unseen_store`) deals the world `clone` then
    `determinize` deal from the same seed, word for word, world after world."""
    comp = compiled(players=3)
    table = _played(comp, 4)
    s, world = table.st, table.work["world"]
    dealt = _scribbled(comp, 4).st
    E.sort_unseen_store(s, world)
    for seed in (3, 77, 1234):
        E.rollout_world(table.g, s, world, np.int64(0), np.int64(seed))
        E.clone(s, dealt)
        rng_seed(dealt["rng"], seed)
        E.determinize(table.g, dealt, np.int64(0), dealt["rng"])
        expected = _live(dealt)
        assert all(np.array_equal(expected[k], v) for k, v in _live(world).items()), seed
        assert not np.array_equal(_live(s)["store"], expected["store"])


def _batch(comp: E.CompiledCards, policy_a: int, n: int = 12) -> dict:
    seeds = np.arange(1, n + 1, dtype=np.int64) * 7919
    first = (np.arange(n) % 2).astype(np.int8)
    deck = comp.deck_array(DECKS["lantern_score"])
    return E.play_batch_detailed(comp, deck, deck, seeds, first, policy_a, GREEDY)


def test_search_plays_whole_tournaments_reproducibly() -> None:
    """Same seeds, same tournaments and the same search figures; the search counts its decisions and rollouts."""
    comp = compiled(players=2, search_rollouts=4)
    first, again = _batch(comp, SEARCH), _batch(comp, SEARCH)
    for key in ("winner", "turns", "vp_a", "place_a", "rp_a", "counters", "search_decisions", "search_rollouts"):
        assert np.array_equal(first[key], again[key]), key
    decisions = first["search_decisions"]
    assert decisions > 0
    # Each decision has at least two candidates and spends its budget, but for less than a last round's survivors.
    assert 4 * 2 * decisions <= first["search_rollouts"] <= 4 * E.MAX_CANDIDATES * decisions
    assert _batch(comp, GREEDY)["search_decisions"] == 0


def test_search_is_a_policy_of_the_engine() -> None:
    """`--policy search` is listed, and its options are in the ledger as "Not a rule"."""
    assert E.ENGINE.policies == ("greedy", "random", "search", "epsilon")
    ledger = {option.key: option for option in RULESET.options}
    for key in ("search_rollouts", "search_rollout_policy"):
        assert ledger[key].reading.startswith("Not a rule")
    assert ledger["search_rollouts"].default == 4


def test_search_beats_greedy_in_a_seeded_mirror() -> None:
    """At the defaults (4 rollouts a candidate, cut off after 8 turns), 300 two-player `tide_clash` mirrors against
    greedy: the deck greedy loses least to. The full figures, 1,000 tournaments a deck: docs/rulesets/blades.md, *The
    search policy*."""
    comp = compiled(players=2)
    n = 300
    seeds = np.arange(1000, 1000 + n, dtype=np.int64)
    first = (np.arange(n) % 2).astype(np.int8)
    deck = comp.deck_array(DECKS["tide_clash"])
    result = E.play_batch_detailed(comp, deck, deck, seeds, first, SEARCH, GREEDY)
    assert (result["winner"] == 0).mean() >= 0.85
    assert int(comp.options[E.O_SEARCH_ROLLOUTS]) == 4 and int(comp.options[E.O_SEARCH_DEPTH]) == 8
