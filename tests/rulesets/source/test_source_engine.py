"""SOURCE engine: every rule as a table-driven scenario on a set-up board, each engine option both ways, sanity.

Scenarios use the bundled Valley of Deadlife set, whose numbers are known: e.g. Murkpuff is 15/10/15/10
(alpha/beta/gamma/delta) and Cinder Whelp 20/10/5/15. A `Board` puts monsters on named spaces of the default map
(`A summoning`, `A flux`, `A left 1` ... `B right 3`; with alignment 1 `A left 3` meets `B left 3`) and calls
exactly the kernel of the rule under test.

Regenerate the golden trace on purpose with:
    .venv/bin/workbench simulate cardsets/source/valley_of_deadlife.csv --deck cardsets/source/decks/ember_rush.txt \\
        --deck cardsets/source/decks/tidal_fortress.txt --seed 7 --trace > tests/golden/source_trace.txt
"""

from __future__ import annotations

import csv
import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

from workbench.cards import CardSet, Deck, WorkbenchInputError
from workbench.decklists import read_decklist
from workbench.loading import load_cardset
from workbench.paths import REPO_ROOT, bundled_decks, bundled_sets
from workbench.play.loop import new_batch
from workbench.play.search import DRAW_POINTS, WIN_POINTS, halving_rounds, position_points, rollouts_given, schedule
from workbench.rulesets.source import RULESET
from workbench.rulesets.source import engine as E
from workbench.rulesets.source.options import SEARCH_DEPTH, SEARCH_ROLLOUTS
from workbench.run_settings import RunSettings
from workbench.simulate import PARALLEL_THRESHOLD, simulate, trace

ALPHA, BETA, GAMMA, DELTA = range(4)


@pytest.fixture(scope="module")
def valley() -> CardSet:
    return load_cardset(bundled_sets("source")[0], "source")


@pytest.fixture(scope="module")
def bundled_decks_(valley: CardSet) -> list[Deck]:
    return [read_decklist(path, valley) for path in bundled_decks("source")]


RECORD_PARAMETERS = ("G", "state")
"""What a rule kernel may take before its own arguments, in this order: each kernel takes the ones it reads."""


def kernel_parameters(kernel: Callable[..., Any]) -> list[str]:
    """The leading parameters of a kernel (compiled or, with NUMBA_DISABLE_JIT=1, a plain function) that
    `RECORD_PARAMETERS` names."""
    function = getattr(kernel, "py_func", kernel)
    names = list(inspect.signature(function).parameters)
    return [name for name in names if name in RECORD_PARAMETERS]


class Board:
    """An empty map mid-match (turn 5, A to play) on which a scenario puts exactly what it needs."""

    def __init__(self, cardset: CardSet, policies: tuple[int, int] = (E.GREEDY, E.GREEDY), **options: str) -> None:
        self.compiled = E.compile_cards(cardset, RULESET.resolve_options(options))
        # The whole set as the pairing (its ids the set's): a scenario may put any card of it on the board.
        self.G = E.new_game(self.compiled, np.arange(len(self.compiled.names)), 60)
        self.state = E.new_state(self.G, 2000)
        self.piles = self.state.piles
        self.mon, self.cells, self.sup, self.side = self.state.mon, self.state.cells, self.state.sup, self.state.side
        self.hand, self.game, self.rng, self.ec = self.state.hand, self.state.game, self.state.rng, self.state.ec
        self.library, self.tokens = self.piles[E.PILE_LIBRARY], self.piles[E.PILE_TOKENS]
        self.counters, self.events = self.state.counters, self.state.events
        self.mon[:, E.M_SPACE] = -1
        self.side[:, E.S_SP] = self.compiled.options[E.O_SOURCEPOINTS]
        self.side[0, E.S_POLICY], self.side[1, E.S_POLICY] = policies
        self.side[:, E.S_SYMBOLS] = E.ALL_UNUSED
        for p in range(2):
            for card in range(len(self.compiled.names)):
                if self.compiled.table[card, E.T_KIND] == E.K_TOKEN:
                    self.tokens[p, card] = self.compiled.options[E.O_TOKEN_COPIES]
        self.game[E.G_TURN] = 5
        self.game[E.G_ACTIVE] = 0
        E.rng_seed(self.rng, 11)

    # ---- naming ----
    def card(self, name: str) -> int:
        return self.compiled.card_id(name)

    def space(self, name: str) -> int:
        return self.compiled.extra["space_names"].index(name)

    def where(self, m: int) -> str | None:
        space = int(self.mon[m, E.M_SPACE])
        return None if space < 0 else self.compiled.extra["space_names"][space]

    def at(self, space: str) -> str | None:
        m = int(self.cells[self.space(space), E.C_OCC])
        return None if m < 0 else self.compiled.names[int(self.mon[m, E.M_CARD])]

    # ---- setting up ----
    def put(self, name: str, player: int, space: str) -> int:
        return int(self.call(E.place_monster, self.card(name), player, self.space(space)))

    def lift(self, m: int) -> None:
        """Take monster m off the map without a rule (no event, no Done Zone): a scenario's own set-up."""
        self.cells[self.mon[m, E.M_SPACE], E.C_OCC] = -1
        self.mon[m, E.M_SPACE] = -1
        self.game[E.G_MONSTERS + self.mon[m, E.M_OWNER]] &= ~(1 << m)

    def give(self, player: int, *names: str) -> None:
        for name in names:
            self.hand[player, self.side[player, E.S_HAND]] = self.card(name)
            self.side[player, E.S_HAND] += 1

    def hand_names(self, player: int) -> list[str]:
        return [self.compiled.names[int(c)] for c in self.hand[player, : self.side[player, E.S_HAND]]]

    def records(self) -> dict[str, Any]:
        """What a rule kernel may take before its own arguments (`RECORD_PARAMETERS`), by name."""
        return {"G": self.G, "state": self.state}

    def call(self, kernel: Callable[..., Any], *arguments: Any) -> Any:
        """`kernel` on this board: the records it takes (by its parameters' names), then `arguments`; what it left to
        resolve (a move, a card's clauses: the rules' frames) resolved to its end, each question by its side's
        policy (`settle`), as the turn resolves it before it goes on."""
        records = self.records()
        result = kernel(*(records[name] for name in kernel_parameters(kernel)), *arguments)
        if self.game[E.G_FRAMES] > 0:
            E.settle(self.G, self.state)
        return result

    # ---- rules ----
    def move(self, m: int, symbol: int) -> int:
        """Monster m moves with the symbol, as a symbol action moves it: the spaces it moved."""
        self.call(E.move_monster, m, symbol)
        return int(self.game[E.G_MOVED])

    def attack(self, m: int, e: int, symbol: int) -> int:
        return int(self.call(E.attack_monster, m, e, symbol))

    def end_turn(self, player: int) -> None:
        self.call(E.end_turn, player)
        self.game[E.G_TURN] += 1
        self.game[E.G_ACTIVE] = 1 - player

    def st(self, m: int, symbol: int, active: int | None = None) -> int:
        whose_turn = self.game[E.G_ACTIVE] if active is None else active
        return int(self.call(E.st_of, m, symbol, whose_turn))

    def lines(self) -> list[str]:
        return [E.describe_event(self.compiled, [int(v) for v in row]) for row in self.events[: int(self.ec[0])]]


# =====================================================================================================================
# Movement
# =====================================================================================================================


@pytest.mark.parametrize(
    ("st", "spaces"),
    [(0, 0), (1, 1), (25, 1), (26, 2), (50, 2), (51, 3), (75, 3), (76, 4), (150, 4)],
)
def test_movement_table(st: int, spaces: int) -> None:
    # "0 spaces for a ST value of 0 / 1 space for 1 through 25 / 2 for 26 through 50 / 3 for 51 through 75 / 4 for 76+"
    assert E.spaces_for_st(st) == spaces


@pytest.mark.parametrize(
    ("alpha_change", "expected_space", "moved"),
    [(-15, "A summoning", 0), (0, "A flux", 1), (11, "A left 1", 2), (36, "A left 2", 3), (61, "A left 3", 4)],
)
def test_a_monster_moves_the_whole_distance_its_st_gives(
    valley: CardSet, alpha_change: int, expected_space: str, moved: int
) -> None:
    board = Board(valley)
    m = board.put("Murkpuff", 0, "A summoning")  # alpha 15
    board.mon[m, E.M_PERM_ST + ALPHA] = alpha_change
    assert board.move(m, ALPHA) == moved
    assert board.where(m) == expected_space


@pytest.mark.parametrize(("move_change", "moved"), [(1, 2), (-1, 0), (-4, 0)])
def test_move_changes_add_to_the_spaces_never_below_zero(valley: CardSet, move_change: int, moved: int) -> None:
    # Cinder Whelp "moves 1 extra space" (move +1); Goop's "cannot move" is its own clause (`cannot move`, below)
    board = Board(valley)
    m = board.put("Murkpuff", 0, "A summoning")  # delta 10: 1 space
    board.mon[m, E.M_PERM_MOVE] = move_change
    assert board.move(m, DELTA) == moved


def test_movement_stops_on_the_opponents_summoning_space(valley: CardSet) -> None:
    board = Board(valley)
    m = board.put("Emberhorn Ram", 0, "B left 1")  # alpha 30: 2 spaces, but B flux -> B summoning is the end
    board.mon[m, E.M_PERM_ST + ALPHA] = 60  # 90: 4 spaces
    assert board.move(m, ALPHA) == 2
    assert board.where(m) == "B summoning"


def test_movement_stops_before_an_enemy_in_the_way(valley: CardSet) -> None:
    board = Board(valley)
    m = board.put("Emberhorn Ram", 0, "A flux")  # alpha 30: 2 spaces
    board.put("Murkpuff", 1, "A left 2")
    board.put("Murkpuff", 1, "A right 2")
    assert board.move(m, ALPHA) == 1
    assert board.where(m) in ("A left 1", "A right 1")


def test_moving_through_an_own_monster_swaps_it_one_space_back_and_counts_one_space(valley: CardSet) -> None:
    board = Board(valley)
    mover = board.put("Emberhorn Ram", 0, "A left 1")  # alpha 30: 2 spaces
    ally = board.put("Murkpuff", 0, "A left 2")
    assert board.move(mover, ALPHA) == 2
    assert board.where(mover) == "A left 3"
    assert board.where(ally) == "A left 1"  # "the monster you move through moves backwards a space"


def test_a_monster_may_stop_instead_of_swapping(valley: CardSet) -> None:
    # Greedy does not swap an ally off the opponent's summoning space: the mover stops before it.
    board = Board(valley)
    mover = board.put("Emberhorn Ram", 0, "B left 1")
    ally = board.put("Murkpuff", 0, "B summoning")
    board.move(mover, ALPHA)
    assert board.where(mover) == "B flux" and board.where(ally) == "B summoning"


def test_monsters_never_move_backwards(valley: CardSet) -> None:
    board = Board(valley)
    m = board.put("Emberhorn Ram", 1, "A left 1")  # B's monster: forward for B is towards A's summoning space
    board.move(m, ALPHA)
    assert board.where(m) == "A summoning"


# =====================================================================================================================
# Combat
# =====================================================================================================================


@pytest.mark.parametrize(
    ("symbol", "tie_rule", "outcome", "attacker_alive", "defender_alive"),
    [
        (GAMMA, "neither", 1, True, False),  # Murkpuff 15 vs Cinder Whelp 5: the lower is destroyed
        (ALPHA, "neither", -1, False, True),  # 15 vs 20: the attacker loses
        (BETA, "neither", 0, True, True),  # 10 vs 10
        (BETA, "both", 2, False, False),
        (BETA, "attacker", 1, True, False),
        (BETA, "defender", -1, False, True),
    ],
)
def test_combat_compares_the_drawn_symbols_st_and_ties_follow_the_option(
    valley: CardSet, symbol: int, tie_rule: str, outcome: int, attacker_alive: bool, defender_alive: bool
) -> None:
    board = Board(valley, combat_tie=tie_rule)
    attacker = board.put("Murkpuff", 0, "A left 3")
    defender = board.put("Cinder Whelp", 1, "B left 3")
    assert board.attack(attacker, defender, symbol) == outcome
    assert (board.where(attacker) is not None) == attacker_alive
    assert (board.where(defender) is not None) == defender_alive


def test_attacking_the_generator_subtracts_the_st_and_lets_the_defender_react(valley: CardSet) -> None:
    board = Board(valley)
    m = board.put("Cinder Whelp", 0, "B summoning")
    damage = board.call(E.attack_generator, m, ALPHA)
    assert damage == 20 and board.side[1, E.S_SP] == 80 and board.side[1, E.S_GEN_ATTACKED] == 1
    assert board.game[E.G_OVER] == 0
    assert board.counters[0, board.card("Cinder Whelp"), E.DAMAGE_DEALT] == 20


def test_a_generator_attack_to_zero_ends_the_match(valley: CardSet) -> None:
    board = Board(valley, game_length="short")
    board.side[1, E.S_SP] = 15
    m = board.put("Cinder Whelp", 0, "B summoning")
    board.call(E.attack_generator, m, DELTA)
    assert board.game[E.G_OVER] == 1 and board.game[E.G_WINNER] == 0


def test_greedy_keeps_its_best_symbol_for_the_generator_attack_and_the_turn_ends(valley: CardSet) -> None:
    board = Board(valley)
    board.put("Cinder Whelp", 0, "B summoning")  # 20/10/5/15
    board.call(E.play_turn, 0, False)
    assert board.side[1, E.S_SP] == 80  # hit with alpha (20), the best of the four
    assert bin(int(board.side[0, E.S_SYMBOLS])).count("1") == 3  # the turn ended at once: three symbols unused


def test_a_main_action_that_becomes_legal_during_the_symbols_comes_before_the_generator_attack(
    valley: CardSet,
) -> None:
    # The generator attack ends the turn, so what the turn may still do comes first: here Murkpuff blocks A's own
    # summoning space until a symbol moves it on, and only then can Wisp of Ash be summoned.
    board = Board(valley)
    board.put("Murkpuff", 0, "A summoning")
    board.put("Cinder Whelp", 0, "B summoning")
    board.give(0, "Wisp of Ash")
    board.call(E.play_turn, 0, False)
    lines = board.lines()
    moved = next(i for i, line in enumerate(lines) if line.startswith("Murkpuff") and "moves" in line)
    summoned = next(i for i, line in enumerate(lines) if "Wisp of Ash onto A summoning" in line)
    attacked = next(i for i, line in enumerate(lines) if "SOURCE generator" in line)
    assert moved < summoned < attacked
    assert board.at("A summoning") == "Wisp of Ash" and board.side[1, E.S_SP] < 100


# =====================================================================================================================
# Summoning
# =====================================================================================================================


@pytest.mark.parametrize(
    ("card", "spaces", "allowed"),
    [
        ("Thornback Basilisk", ["A left 1", "B left 2"], True),  # 2 terrestrial, counted on both sides of the map
        ("Thornback Basilisk", ["A left 1", "A right 1"], False),  # one terrestrial only
        ("Astral Leviathan", ["A right 1", "A right 2", "B right 3"], True),  # 3 otherworldly
        ("Pyreclaw Drake", ["A left 2", "B right 2"], True),  # 1 terrestrial + 1 otherworldly
        ("Pyreclaw Drake", ["A flux", "A left 2"], False),  # the flux space is neither kind
        ("Paradox Engine", ["A left 1", "A right 1", "A right 2", "A right 3"], True),
        ("Murkpuff", [], True),
    ],
)
def test_summoning_requirements_count_own_monsters_on_either_side(
    valley: CardSet, card: str, spaces: list[str], allowed: bool
) -> None:
    board = Board(valley)
    for space in spaces:
        board.put("Murkpuff", 0, space)
    board.put("Murkpuff", 1, "B left 1")  # the opponent's monsters never count
    board.put("Murkpuff", 1, "A left 3")
    assert bool(board.call(E.meets_requirements, 0, board.card(card))) == allowed


def test_conventional_summon_pushes_an_enemy_on_the_summoning_space_back(valley: CardSet) -> None:
    board = Board(valley)
    enemy = board.put("Cinder Whelp", 1, "A summoning")
    board.give(0, "Wisp of Ash")
    board.call(E.main_action, 0)
    assert board.at("A summoning") == "Wisp of Ash"
    assert board.where(enemy) == "A flux"  # one space back, towards its own side


def test_a_pushed_monster_goes_to_the_closest_free_space_when_the_space_behind_is_taken(valley: CardSet) -> None:
    board = Board(valley)
    enemy = board.put("Cinder Whelp", 1, "A summoning")
    board.put("Static Mite", 1, "A flux")
    board.give(0, "Wisp of Ash")
    board.call(E.main_action, 0)
    assert board.where(enemy) in ("A left 1", "A right 1")


def test_no_conventional_summon_over_an_enemy_that_attacked_the_generator_but_a_reactionary_one(
    valley: CardSet,
) -> None:
    board = Board(valley)
    enemy = board.put("Cinder Whelp", 1, "A summoning")
    board.mon[enemy, E.M_HIT_GEN] = 1
    board.give(0, "Murkpuff", "Paradox Engine")  # Paradox Engine needs 4 occupied spaces
    board.call(E.main_action, 0)
    assert board.at("A summoning") == "Cinder Whelp" and board.side[0, E.S_MAIN_DONE] == 0
    board.side[0, E.S_REACTIONARY] = 1  # the generator was attacked on the opponent's last turn
    board.call(E.main_action, 0)
    assert board.at("A summoning") == "Paradox Engine"  # any monster, requirements ignored
    assert board.where(enemy) == "A flux"
    assert "A makes a reactionary summon of Paradox Engine onto A summoning" in board.lines()


@pytest.mark.parametrize(
    ("blocks", "leaves_and_returns", "summoned"),
    [
        # "has not attacked your SOURCE generator with it": it attacked from this very stay, so it blocks.
        ("until_moved", False, False),
        ("for_good", False, False),
        # Pushed back, then back on the space without attacking again: this stay has no attack, so it is pushed back.
        ("until_moved", True, True),
        # The other reading: a monster that ever attacked the generator blocks whenever it stands there.
        ("for_good", True, False),
    ],
)
def test_a_monster_that_attacked_the_generator_blocks_a_conventional_summon_while_it_stays(
    valley: CardSet, blocks: str, leaves_and_returns: bool, summoned: bool
) -> None:
    board = Board(valley, hit_generator_blocks=blocks)
    enemy = board.put("Cinder Whelp", 1, "A summoning")
    board.game[E.G_ACTIVE] = 1
    board.call(E.attack_generator, enemy, ALPHA)
    if leaves_and_returns:
        # A `push back 1` (a summoned monster's clause, a trap) moves it one space back, towards its own side ...
        board.call(E.push_back, enemy, 1, 0)
        assert board.where(enemy) == "A flux"
        # ... and on B's next turn it moves onto A's summoning space again, and does not attack.
        board.side[1, E.S_SYMBOLS] = E.ALL_UNUSED
        board.move(enemy, BETA)
        assert board.where(enemy) == "A summoning"
    board.game[E.G_ACTIVE] = 0
    board.give(0, "Murkpuff")  # no requirements, so only the occupant can stop the summon
    board.call(E.main_action, 0)
    if summoned:
        assert board.at("A summoning") == "Murkpuff" and board.hand_names(0) == []
        assert board.where(enemy) != "A summoning"  # "you move your opponent's monster one space back"
    else:
        assert board.at("A summoning") == "Cinder Whelp" and board.hand_names(0) == ["Murkpuff"]
        assert board.side[0, E.S_MAIN_DONE] == 0


def test_no_summon_while_an_own_monster_holds_the_summoning_space(valley: CardSet) -> None:
    board = Board(valley)
    board.put("Wisp of Ash", 0, "A summoning")
    board.give(0, "Murkpuff")
    assert not board.call(E.summoning_space_open, 0, False)
    board.call(E.main_action, 0)
    assert board.hand_names(0) == ["Murkpuff"]


def test_one_summon_equipment_or_trap_per_turn(valley: CardSet) -> None:
    board = Board(valley)
    board.put("Wisp of Ash", 0, "A left 1")
    board.give(0, "Murkpuff", "Drift Fins", "Snapjaw Pit")
    board.call(E.main_action, 0)
    board.call(E.main_action, 0)
    assert board.hand_names(0) == ["Drift Fins", "Snapjaw Pit"]


@pytest.mark.parametrize(
    ("blockers", "expected"),
    [([], "A left 2"), (["A left 2"], "A left 1"), (["A left 1"], "A right 2"), (["A left 1", "A right 1"], "A flux")],
)
def test_a_push_back_clause_stops_before_an_occupied_space(valley: CardSet, blockers: list[str], expected: str) -> None:
    # Tidecaller Nymph: "push an adjacent enemy monster 2 spaces back" (B's monster: back is towards B's side;
    # where two lanes merge it takes a free one)
    board = Board(valley)
    enemy = board.put("Cinder Whelp", 1, "A flux")
    for blocker in blockers:
        board.put("Murkpuff", 1, blocker)
    board.give(0, "Tidecaller Nymph")
    board.side[0, E.S_REACTIONARY] = 1
    board.call(E.main_action, 0)
    assert board.at("A summoning") == "Tidecaller Nymph"
    assert board.where(enemy) == expected


def test_a_summoned_monsters_foe_clause_hits_an_adjacent_enemy(valley: CardSet) -> None:
    board = Board(valley)
    enemy = board.put("Cinder Whelp", 1, "A flux")
    board.give(0, "Frostmote")  # foe st -5
    board.call(E.main_action, 0)
    assert [board.st(enemy, s) for s in range(4)] == [15, 5, 0, 10]


# =====================================================================================================================
# Equipment, traps, channeled effects, tokens
# =====================================================================================================================


@pytest.mark.parametrize(("equipment", "turns"), [("Drift Fins", 2), ("Flux Amplifier", 3), ("Ironbark Plating", 4)])
def test_equipment_lasts_its_turns_counting_the_turn_it_is_played(valley: CardSet, equipment: str, turns: int) -> None:
    # "Suppose you play Gale Wings on your turn. It will automatically be sent to the Done Zone at the end of your
    # next turn": 3 turns = yours, the opponent's, yours again.
    board = Board(valley)
    m = board.put("Murkpuff", 0, "A left 1")
    board.give(0, equipment)
    board.call(E.equip, 0, 0, m)
    for turn in range(turns):
        assert board.sup[0, 0, E.SU_CARD] == board.card(equipment), f"gone too early, after {turn} turns"
        board.end_turn(turn % 2)
    assert board.sup[0, 0, E.SU_CARD] == -1


@pytest.mark.parametrize(
    ("equipment", "own_turn", "opponent_turn"),
    [
        ("Ironbark Plating", [15, 10, 15, 10], [25, 20, 25, 20]),  # O: +10 each ST on the opponent's turns
        ("Sunshard Blade", [35, 20, 15, 10], [15, 10, 15, 10]),  # Y: alpha +20, beta +10 on your turns
        ("Flux Amplifier", [15, 10, 30, 25], [15, 10, 30, 25]),  # Y/O: gamma and delta +15 always
    ],
)
def test_equipment_applies_on_its_active_turns(
    valley: CardSet, equipment: str, own_turn: list[int], opponent_turn: list[int]
) -> None:
    board = Board(valley)
    m = board.put("Murkpuff", 0, "A left 1")
    board.give(0, equipment)
    board.call(E.equip, 0, 0, m)
    assert [board.st(m, s, active=0) for s in range(4)] == own_turn
    assert [board.st(m, s, active=1) for s in range(4)] == opponent_turn


def test_equipment_goes_when_its_monster_is_destroyed(valley: CardSet) -> None:
    board = Board(valley)
    m = board.put("Murkpuff", 0, "A left 3")
    e = board.put("Cinder Whelp", 1, "B left 3")
    board.give(0, "Drift Fins")
    board.call(E.equip, 0, 0, m)
    board.attack(m, e, ALPHA)  # 15 vs 20: Murkpuff falls
    assert board.sup[0, 0, E.SU_CARD] == -1


@pytest.mark.parametrize(
    ("trap", "check"),
    [
        ("Snapjaw Pit", lambda b, m: b.where(m) == "A left 3"),  # pushed 1 back, towards B's side
        ("Frostbite Rune", lambda b, m: [b.st(m, s) for s in range(4)] == [10, 0, 0, 5]),  # -10 each ST
        ("Collapse Sigil", lambda b, m: b.where(m) is None),  # destroyed
        ("Goop", lambda b, m: not b.call(E.may_attack, m, 1)),
    ],
)
def test_a_trap_springs_on_an_enemy_that_ends_its_move_there(
    valley: CardSet, trap: str, check: Callable[[Board, int], bool]
) -> None:
    board = Board(valley)
    board.put("Murkpuff", 0, "A left 1")
    board.give(0, trap)
    assert board.call(E.trap_space_ok, 0, board.space("A left 2"))
    board.call(E.set_trap, 0, 0, board.space("A left 2"))
    enemy = board.put("Cinder Whelp", 1, "A left 3")  # B moves towards A: delta 15 = 1 space
    board.game[E.G_ACTIVE] = 1
    board.move(enemy, DELTA)
    assert check(board, enemy)
    assert board.cells[board.space("A left 2"), E.C_TRAP] == -1  # used up


def test_a_trap_does_not_spring_on_its_owners_monster_or_on_a_monster_passing_over(valley: CardSet) -> None:
    board = Board(valley)
    own = board.put("Murkpuff", 0, "A left 1")  # delta 10: 1 space
    board.give(0, "Collapse Sigil")
    trap_space = board.space("A left 2")
    board.call(E.set_trap, 0, 0, trap_space)
    board.move(own, DELTA)
    assert board.where(own) == "A left 2" and board.cells[trap_space, E.C_TRAP] >= 0  # "will not activate"
    board.move(own, DELTA)
    enemy = board.put("Emberhorn Ram", 1, "B left 3")  # B's, alpha 30: 2 spaces, over the trap to A left 1...
    board.game[E.G_ACTIVE] = 1
    board.lift(own)
    board.lift(enemy)
    enemy = board.put("Emberhorn Ram", 1, "A left 3")
    board.move(enemy, ALPHA)
    assert board.where(enemy) == "A left 1" and board.cells[trap_space, E.C_TRAP] >= 0


@pytest.mark.parametrize(
    ("space", "allowed"),
    [("A left 2", True), ("A flux", True), ("A summoning", False), ("A left 3", False), ("A left 1", False)],
)
def test_traps_go_on_a_free_non_summoning_space_next_to_an_own_monster(
    valley: CardSet, space: str, allowed: bool
) -> None:
    board = Board(valley)
    board.put("Murkpuff", 0, "A left 1")
    assert bool(board.call(E.trap_space_ok, 0, board.space(space))) == allowed


def _placed_channeled(board: Board, name: str, turns_ago: int = 1) -> None:
    board.give(0, name)
    board.call(E.place_channeled, 0, 0)
    board.sup[0, 0, E.SU_PLACED] = board.game[E.G_TURN] - turns_ago


@pytest.mark.parametrize(
    ("alpha", "bracket", "effect"),
    [
        (10, 0, lambda b, me, foe: b.st(me, ALPHA) == 0 and b.st(foe, ALPHA) == 20),  # 0-19: backlash -10 each ST
        (20, 1, lambda b, me, foe: b.st(foe, ALPHA) == 5),  # 20-34: adjacent enemy loses 15 alpha
        (34, 1, lambda b, me, foe: b.st(foe, ALPHA) == 5),
        (35, 2, lambda b, me, foe: b.where(foe) is None),  # 35+: destroy an adjacent enemy
    ],
)
def test_channeled_effect_bracket_follows_the_channeling_monsters_st(
    valley: CardSet, alpha: int, bracket: int, effect: Callable[..., bool]
) -> None:
    board = Board(valley)
    me = board.put("Murkpuff", 0, "A flux")  # alpha 15
    board.mon[me, E.M_PERM_ST + ALPHA] = alpha - 15
    foe = board.put("Cinder Whelp", 1, "A left 1")  # alpha 20
    _placed_channeled(board, "Emberlance")
    assert board.call(E.channel_usable, 0, 0, me)
    assert board.call(E.channel, 0, 0, me, ALPHA) == bracket
    assert effect(board, me, foe)
    assert board.sup[0, 0, E.SU_LEFT] == 1  # Emberlance has 2 uses


def test_a_symbol_the_channeled_card_lacks_is_spent_without_using_it(valley: CardSet) -> None:
    board = Board(valley)
    me = board.put("Murkpuff", 0, "A flux")
    _placed_channeled(board, "Emberlance")  # Alpha; Delta
    assert board.call(E.channel, 0, 0, me, BETA) == -1
    assert board.sup[0, 0, E.SU_LEFT] == 2


def test_channeled_effects_are_used_up_after_their_uses(valley: CardSet) -> None:
    board = Board(valley)
    me = board.put("Murkpuff", 0, "A flux")
    _placed_channeled(board, "Emberlance")
    board.call(E.channel, 0, 0, me, ALPHA)
    board.call(E.channel, 0, 0, me, DELTA)
    assert board.sup[0, 0, E.SU_CARD] == -1
    assert "A's Emberlance is used up and goes to the Done Zone" in board.lines()


@pytest.mark.parametrize(
    ("symbol_draw", "space", "turns_ago", "usable"),
    [
        ("intentional", "A flux", 1, True),
        ("intentional", "A flux", 0, False),  # not on the turn it is placed
        ("intentional", "A left 1", 1, False),  # only from the Source Flux
        ("blind", "A left 1", 1, True),  # blind draw: any space but a summoning space
        ("blind", "A summoning", 1, False),
    ],
)
def test_who_may_channel_and_when(valley: CardSet, symbol_draw: str, space: str, turns_ago: int, usable: bool) -> None:
    board = Board(valley, symbol_draw=symbol_draw)
    me = board.put("Murkpuff", 0, space)
    _placed_channeled(board, "Emberlance", turns_ago)
    assert bool(board.call(E.channel_usable, 0, 0, me)) == usable


@pytest.mark.parametrize(
    ("card", "active", "on_own_turn", "on_opponents_turn"),
    [("Emberlance", None, True, False), ("Tidal Surge", None, True, True), ("Gravity Well", None, False, True)],
)
def test_channeled_effects_follow_their_active_turns(
    valley: CardSet, card: str, active: str | None, on_own_turn: bool, on_opponents_turn: bool
) -> None:
    board = Board(valley)
    me = board.put("Murkpuff", 0, "A flux")
    _placed_channeled(board, card)
    assert bool(board.call(E.channel_usable, 0, 0, me)) == on_own_turn
    board.game[E.G_ACTIVE] = 1
    assert bool(board.call(E.channel_usable, 0, 0, me)) == on_opponents_turn


def test_unused_symbols_activate_a_channeled_effect_on_the_opponents_turn(valley: CardSet) -> None:
    board = Board(valley)
    me = board.put("Murkpuff", 0, "A flux")  # beta 10, gamma 15
    foe = board.put("Cinder Whelp", 1, "A left 1")
    _placed_channeled(board, "Gravity Well")  # O; Beta; Gamma; 0-24: foe move -1; 25+: foe cannot attack
    board.side[0, E.S_SYMBOLS] = 1 << BETA  # one symbol left over from A's turn
    board.game[E.G_ACTIVE] = 1
    board.call(E.opponent_turn_channels, 0, E.D_FOE_CHANNEL)
    assert board.side[0, E.S_SYMBOLS] == 0
    assert board.mon[foe, E.M_TMP_MOVE] == -1
    assert board.where(me) == "A flux"


# ---- channeling in the opponent's turn beyond its start (option `channel_on_opponent_turn`, engine 6) -------------
# "Any symbol cards that are unused on your turn may be drawn on your opponent's turn in order to activate a channeled
# effect (given that the channeled effect may be activated on your opponent's turn). A relevant monster should still
# occupy the flux space on your side of the map." No moment of the opponent's turn is named: `after_each_action`
# (the default) opens the window again after each of the opponent's actions; `turn_start` is engine 5's reading.


@pytest.mark.parametrize(
    ("reading", "foe_ends_on", "symbols_left", "surge_left"),
    [
        # Tidal Surge (Y/O; Beta; 0-14: push an adjacent enemy monster 1 space back), Murkpuff's Beta is 10
        ("after_each_action", "A left 2", 0, False),  # the enemy stepped next to the flux: pushed back at once
        ("turn_start", "A left 1", 1 << BETA, True),  # engine 5: only the start of the turn, long gone
    ],
)
def test_a_symbol_left_over_answers_an_opponents_move(
    valley: CardSet, reading: str, foe_ends_on: str, symbols_left: int, surge_left: bool
) -> None:
    board = Board(valley, channel_on_opponent_turn=reading)
    me = board.put("Murkpuff", 0, "A flux")
    foe = board.put("Cinder Whelp", 1, "A left 2")
    _placed_channeled(board, "Tidal Surge")
    board.side[0, E.S_SYMBOLS] = 1 << BETA  # one symbol left over from A's turn
    board.game[E.G_ACTIVE] = 1
    board.move(foe, ALPHA)  # B's action: alpha 20, one space, next to A's Source Flux
    assert board.where(foe) == "A left 1"
    board.call(E.foe_response_window, 1)  # what the match loop does after each of B's actions
    assert board.where(foe) == foe_ends_on and board.where(me) == "A flux"
    assert board.side[0, E.S_SYMBOLS] == symbols_left
    assert (board.sup[0, 0, E.SU_CARD] == board.card("Tidal Surge")) == surge_left


@pytest.mark.parametrize(
    ("reading", "murkpuff_on", "foe_on", "a_symbols_left", "lines"),
    [
        (
            "after_each_action",
            "A flux",
            "A left 1",
            1 << ALPHA,
            [
                "Cinder Whelp (B) moves from A left 2 to A left 1",
                "A draws the Gamma symbol: Murkpuff's Gamma ST is 25",
                "A channels Gravity Well through Murkpuff (bracket 25+)",
                "Cinder Whelp (B) may not attack this turn",
            ],
        ),
        (
            "turn_start",
            None,
            "A summoning",
            (1 << ALPHA) | (1 << GAMMA),
            [
                "Cinder Whelp (B) moves from A left 2 to A left 1",
                "B draws the Delta symbol: Cinder Whelp's Delta ST is 15",
                "B attacks Murkpuff (ST 10) with Cinder Whelp",
                "Murkpuff (A) is destroyed by Cinder Whelp",
            ],
        ),
    ],
)
def test_a_channel_on_the_opponents_turn_after_their_move_in_a_whole_turn(
    valley: CardSet, reading: str, murkpuff_on: str | None, foe_on: str, a_symbols_left: int, lines: list[str]
) -> None:
    # Gravity Well: O ("On your opponent's turn, bend space around the Source Flux"); Beta, Gamma; 0-24: an adjacent
    # enemy monster moves 1 space less; 25+: an adjacent enemy monster may not attack. At the start of B's turn no
    # enemy stands next to the flux, so greedy keeps its symbols; B's monster then steps next to it.
    board = Board(valley, channel_on_opponent_turn=reading)
    me = board.put("Murkpuff", 0, "A flux")
    board.mon[me, E.M_PERM_ST + GAMMA] = 10  # gamma 25: the 25+ bracket
    foe = board.put("Cinder Whelp", 1, "A left 2")
    _placed_channeled(board, "Gravity Well")
    board.side[0, E.S_SYMBOLS] = (1 << ALPHA) | (1 << GAMMA)  # left over from A's turn
    board.call(E.play_turn, 1, False)  # B's whole turn, greedy on both sides
    assert board.where(me) == murkpuff_on and board.where(foe) == foe_on
    assert board.side[0, E.S_SYMBOLS] == a_symbols_left
    played = board.lines()
    start = played.index(lines[0])
    assert played[start : start + len(lines)] == lines


def test_no_window_after_a_generator_attack(valley: CardSet) -> None:
    # "The player's turn will end immediately after attacking the opponent's SOURCE generator"
    board = Board(valley)
    me = board.put("Murkpuff", 0, "A flux")
    foe = board.put("Cinder Whelp", 1, "A summoning")
    _placed_channeled(board, "Tidal Surge")
    board.side[0, E.S_SYMBOLS] = 1 << BETA
    board.side[1, E.S_SYMBOLS] = 1 << ALPHA  # B's last symbol: greedy attacks the generator with it
    board.side[1, E.S_MAIN_DONE] = 1
    board.side[1, E.S_CHANNEL_PLACED] = 1
    board.game[E.G_ACTIVE] = 1
    board.call(E.play_turn, 1, True)  # the rest of B's turn, after its start (and A's window there)
    assert board.side[0, E.S_SP] == 100 - 20
    assert board.where(foe) == "A summoning" and board.where(me) == "A flux"
    assert board.side[0, E.S_SYMBOLS] == 1 << BETA
    assert not any("Tidal Surge through" in line for line in board.lines())


def test_the_response_window_lists_and_takes_as_the_start_window(valley: CardSet) -> None:
    board = Board(valley, policies=(E.RANDOM, E.GREEDY))
    me = board.put("Murkpuff", 0, "A flux")
    foe = board.put("Cinder Whelp", 1, "A left 1")
    _placed_channeled(board, "Tidal Surge")
    board.side[0, E.S_SYMBOLS] = (1 << ALPHA) | (1 << BETA)
    board.game[E.G_ACTIVE] = 1
    records = board.records()
    out = np.zeros(E.MAX_ACTIONS, dtype=np.int64)
    listed = {}
    for decision in (E.D_FOE_CHANNEL, E.D_FOE_RESPONSE):
        E.open_decision(board.state, decision, 0)
        n = int(E.legal_actions(records["G"], board.state, out))
        listed[decision] = [int(a) for a in out[:n]]
    surge = [int(E.pack_action(E.A_CHANNEL, me, 0, s)) for s in (ALPHA, BETA)]
    assert listed[E.D_FOE_CHANNEL] == listed[E.D_FOE_RESPONSE] == [*surge, E.STOP]
    # Random answers the response window uniformly among the listed actions, STOP included.
    counts = dict.fromkeys(listed[E.D_FOE_RESPONSE], 0)
    for _ in range(3000):
        E.open_decision(board.state, E.D_FOE_RESPONSE, 0)
        action = int(board.call(E.choose))
        counts[action] += 1
    assert all(900 < c < 1100 for c in counts.values()), counts
    # `apply` takes a response as a channel: Beta, bracket 0-14, one space back.
    E.open_decision(board.state, E.D_FOE_RESPONSE, 0)
    board.call(E.take, surge[1])
    assert board.where(foe) == "A left 2" and board.side[0, E.S_SYMBOLS] == 1 << ALPHA


@pytest.mark.parametrize(("reading", "after_actions"), [("after_each_action", True), ("turn_start", False)])
def test_whole_matches_channel_after_the_opponents_actions_only_under_the_new_reading(
    valley: CardSet, bundled_decks_: list[Deck], reading: str, after_actions: bool
) -> None:
    # tidal_fortress holds Tidal Surge (Y/O) and Gravity Well (O); random keeps symbols often enough to use them.
    compiled = E.compile_cards(valley, RULESET.resolve_options({"channel_on_opponent_turn": reading}))
    deck = compiled.deck_array(next(d for d in bundled_decks_ if d.name == "tidal_fortress"))
    at_start = later = 0
    for seed in range(1, 11):
        _, _, events = E.play_traced(compiled, deck, deck, seed * 7919, seed % 2, E.RANDOM, E.RANDOM)
        active, begun = -1, -1
        for turn, player, code, *_ in (tuple(int(v) for v in row) for row in events):
            if code == E.EV_TURN:
                active, begun = player, turn
            elif code in (E.EV_CHANNEL, E.EV_CHANNEL_MISS) and player != active and begun == turn:
                later += 1  # the non-active player's channel after the turn's draw: after one of its actions
            elif code in (E.EV_CHANNEL, E.EV_CHANNEL_MISS) and begun != turn:
                at_start += 1  # logged before the turn's own line: the window at its start
    assert at_start > 0
    assert (later > 0) == after_actions


def test_the_reading_of_channeling_on_the_opponents_turn_is_in_the_ledger() -> None:
    option = next(o for o in RULESET.options if o.key == "channel_on_opponent_turn")
    assert option.default == "after_each_action" and option.choices == ("after_each_action", "turn_start")
    assert "may be drawn on your opponent's turn" in option.quote
    assert RULESET.resolve_options({})["channel_on_opponent_turn"] == "after_each_action"


def test_a_token_comes_from_the_token_deck_and_returns_to_it(valley: CardSet) -> None:
    board = Board(valley, token_deck_copies="1")
    gearling = board.card("Gearling")
    board.give(0, "Rustbolt Drone", "Rustbolt Drone")
    board.call(E.main_action, 0)
    assert board.at("A flux") == "Gearling" and board.tokens[0, gearling] == 0
    token = int(board.cells[board.space("A flux"), E.C_OCC])
    board.call(E.destroy_monster, token, -1)
    assert board.tokens[0, gearling] == 1


def test_a_token_summon_with_an_empty_token_deck_does_nothing(valley: CardSet) -> None:
    board = Board(valley, token_deck_copies="0")
    board.give(0, "Rustbolt Drone")
    board.call(E.main_action, 0)
    assert board.at("A flux") is None
    assert "A cannot summon Gearling: no copy left in the token deck" in board.lines()


def test_an_expiring_token_is_destroyed_at_the_end_of_the_turn_after_its_summoning(valley: CardSet) -> None:
    # Vapor Mote: "may not attack; destroyed at the end of the turn after the one it was summoned on" (expire 2)
    board = Board(valley)
    m = board.call(E.summon_token, 0, board.card("Vapor Mote"), board.space("A flux"))
    assert not board.call(E.may_attack, m, 0)
    board.end_turn(0)
    assert board.where(m) is not None
    board.end_turn(1)
    assert board.where(m) is None


# ---- where a token lands ------------------------------------------------------------------------------------------
# Rustbolt Drone: "When summoned, summon a Gearling token next to it." The document's references keep "Adjacent
# Spaces" (1) and "Parallel Spaces" (2: "Some effects may reference parallel spaces") apart, so "next to" is a road
# neighbour. `summon_placement=nearest` is engine 3's house rule: the nearest free space at any distance.


@pytest.mark.parametrize(
    ("subject", "taken", "placement", "lands"),
    [
        ("A summoning", [], "adjacent", "A flux"),  # the flux is the summoning space's one neighbour
        # The issue's trace (ember_rush against tidal_fortress, seed 5, turn 7): the flux held, the token landed on
        # A left 1, two road steps from Rustbolt Drone. Next to it there is no free space: no token.
        ("A summoning", ["A flux"], "adjacent", None),
        ("A summoning", ["A flux"], "nearest", "A left 1"),
        ("A left 2", [], "adjacent", "A left 1"),  # A left 1 and A left 3 both next to it: the one nearer home
        ("A left 2", ["A left 1"], "adjacent", "A left 3"),
        # Both neighbours held: the parallel A right 2 is free but is not "next to" it.
        ("A left 2", ["A left 1", "A left 3"], "adjacent", None),
        ("A left 2", ["A left 1", "A left 3"], "nearest", "A flux"),  # two steps away, nearer home than B left 3
        ("B left 3", ["A left 3"], "adjacent", "B left 2"),  # in the opponent's half, still next to it
        ("A flux", [], "adjacent", "A left 1"),  # never the summoning space, though it is next to the flux
    ],
)
def test_a_token_lands_next_to_its_subject_or_not_at_all(
    valley: CardSet, subject: str, taken: list[str], placement: str, lands: str | None
) -> None:
    board = Board(valley, summon_placement=placement)
    drone = board.put("Rustbolt Drone", 0, subject)
    for space in taken:
        board.put("Murkpuff", 0, space)
    gearling = board.card("Gearling")
    copies = int(board.tokens[0, gearling])
    board.call(E.apply_clauses, board.card("Rustbolt Drone"), 0, drone, E.PERMANENT, -1, 0)
    placed = [space for space, name in monsters_on_map(board, 0) if name == "Gearling"]
    assert placed == ([lands] if lands else [])
    assert int(board.tokens[0, gearling]) == copies - (1 if lands else 0)  # it stays in the token deck
    if lands is None:
        assert "A cannot summon Gearling: no free space next to the card's subject" in board.lines()


def test_rustbolt_drones_conventional_summon_puts_no_gearling_away_from_it(valley: CardSet) -> None:
    # The issue's turn: "A summons Rustbolt Drone onto A summoning / A summons the token Gearling onto A left 1".
    board = Board(valley)
    board.put("Murkpuff", 0, "A flux")
    board.give(0, "Rustbolt Drone")
    board.call(E.main_action, 0)
    assert board.at("A summoning") == "Rustbolt Drone"
    assert [name for _, name in monsters_on_map(board, 0)].count("Gearling") == 0


@pytest.mark.parametrize(("placement", "anchor"), [("adjacent", None), ("nearest", "A flux")])
def test_a_subject_no_longer_on_the_map_has_no_space_next_to_it(
    valley: CardSet, placement: str, anchor: str | None
) -> None:
    # A trap whose first clause destroyed the monster that sprang it: "next to it" has no "it" left.
    board = Board(valley, summon_placement=placement)
    m = board.put("Murkpuff", 1, "A left 2")
    board.call(E.destroy_monster, m, -1)
    space = int(board.call(E.summon_anchor, m, 0))
    assert (board.compiled.extra["space_names"][space] if space >= 0 else None) == anchor


def monsters_on_map(board: Board, player: int) -> list[tuple[str, str]]:
    """(space, card name) of each of the player's monsters on the map, in slot order (names may repeat)."""
    return [
        (str(board.where(m)), board.compiled.names[int(board.mon[m, E.M_CARD])])
        for m in range(board.mon.shape[0])
        if board.mon[m, E.M_SPACE] >= 0 and board.mon[m, E.M_OWNER] == player
    ]


# ---- Goop: "may not attack and cannot move" -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def goop_cannot_move(tmp_path_factory: pytest.TempPathFactory) -> CardSet:
    """The bundled set with Goop's effects written `cannot attack; cannot move` (as the bundled cell says since
    engine 4)."""
    return load_cardset(
        write_set_with(tmp_path_factory.mktemp("goop"), {"Goop": "cannot attack; cannot move"}), "source"
    )


@pytest.fixture(scope="module")
def goop_move_minus_4(tmp_path_factory: pytest.TempPathFactory) -> CardSet:
    """The bundled set with Goop's effects written `cannot attack; move -4`, engine 3's near miss."""
    return load_cardset(write_set_with(tmp_path_factory.mktemp("goop4"), {"Goop": "cannot attack; move -4"}), "source")


def write_set_with(directory: Path, effects: dict[str, str]) -> Path:
    """The bundled set with the `effects` cell of each named card replaced, as a CSV file in `directory`."""
    source = bundled_sets("source")[0]
    with source.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        if row["name"] in effects:
            row["effects"] = effects[row["name"]]
    path = directory / "valley_goop.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


@pytest.mark.parametrize(
    ("encoding", "moved", "move_listed"),
    [
        # Goop: "The monster that springs it may not attack and cannot move", whatever its move changes add.
        ("cannot move", 0, False),
        # Engine 3's encoding: move -4 is outweighed by +1 own, Drift Fins +1 and Quickening Pulse +2 (the issue).
        ("move -4", 2, True),
    ],
)
def test_a_gooped_monster_cannot_move_whatever_its_move_bonuses(
    goop_cannot_move: CardSet, goop_move_minus_4: CardSet, encoding: str, moved: int, move_listed: bool
) -> None:
    board = Board(goop_cannot_move if encoding == "cannot move" else goop_move_minus_4)
    whelp = board.put("Cinder Whelp", 0, "A flux")  # 20/10/5/15, "moves 1 extra space" (move +1)
    board.call(E.apply_clauses, board.card("Cinder Whelp"), 0, whelp, E.PERMANENT, -1, 0)
    board.mon[whelp, E.M_PERM_ST + DELTA] += 11  # delta 26: 2 spaces by the movement table
    board.cells[board.space("A flux"), E.C_TRAP] = board.card("Goop")  # B's Goop, where the Whelp stands
    board.cells[board.space("A flux"), E.C_TRAP_OWNER] = 1
    board.call(E.spring_trap, whelp)
    assert not board.call(E.may_attack, whelp, 0)
    board.mon[whelp, E.M_PERM_ST + ALPHA] += 5  # alpha 25: Quickening Pulse's 25+ bracket, 2 extra spaces this turn
    _placed_channeled(board, "Quickening Pulse")  # support space 0
    assert board.call(E.channel, 0, 0, whelp, ALPHA) == 2
    board.give(0, "Drift Fins")  # "The equipped monster moves 1 extra space."
    board.call(E.equip, 0, 0, whelp)
    assert int(board.call(E.move_bonus, whelp, 0)) == (4 if encoding == "cannot move" else 0)
    out = np.zeros(E.MAX_ACTIONS, dtype=np.int64)
    n = int(board.call(E.legal_symbols, 0, out))
    moves = [a for a in out[:n] if a != E.STOP and E.action_code(a) == E.A_MOVE and E.action_x(a) == whelp]
    assert bool(moves) == move_listed
    assert board.move(whelp, DELTA) == moved
    assert (board.where(whelp) == "A flux") == (moved == 0)
    if encoding == "cannot move":
        assert "Cinder Whelp (A) may not move" in board.lines()


# =====================================================================================================================
# Options, both ways
# =====================================================================================================================


@pytest.mark.parametrize(("length", "points"), [("short", 75), ("medium", 100), ("medium-long", 125), ("long", 150)])
def test_game_length_sets_the_starting_sourcepoints(valley: CardSet, length: str, points: int) -> None:
    assert Board(valley, game_length=length).side[0, E.S_SP] == points


@pytest.mark.parametrize(("cap", "expected"), [("true", 100), ("false", 105)])
def test_sourcepoints_cap(valley: CardSet, cap: str, expected: int) -> None:
    board = Board(valley, sourcepoints_cap=cap)
    m = board.put("Murkpuff", 0, "A left 1")
    board.give(0, "Leech Collar")  # "your generator regains 5 SourcePoints"
    board.call(E.equip, 0, 0, m)
    assert board.side[0, E.S_SP] == expected


@pytest.mark.parametrize(("deck_out_loses", "over"), [("false", 0), ("true", 1)])
def test_drawing_from_an_empty_deck(valley: CardSet, deck_out_loses: str, over: int) -> None:
    board = Board(valley, deck_out_loses=deck_out_loses)
    board.call(E.draw_card, 0)
    assert board.game[E.G_OVER] == over and board.side[0, E.S_HAND] == 0
    if over:
        assert board.game[E.G_WINNER] == 1


@pytest.mark.parametrize(("default", "on_opponents_turn"), [("Y/O", True), ("Y", False)])
def test_channeled_active_default(make_cardset: Callable[..., CardSet], default: str, on_opponents_turn: bool) -> None:
    cardset = make_cardset(
        RULESET,
        [
            {"name": "Walker", "kind": "monster", "type": "GA", "alpha": 15, "beta": 10, "gamma": 15, "delta": 10},
            {
                "name": "Hum",
                "kind": "channeled",
                "uses": 1,
                "symbols": "Alpha",
                "brackets": "0+: nothing",
                "effects": "0+: draw 1",
                "active": "",
            },
        ],
    )
    board = Board(cardset, channeled_active_default=default)
    me = board.put("Walker", 0, "A flux")
    _placed_channeled(board, "Hum")
    board.game[E.G_ACTIVE] = 1
    assert bool(board.call(E.channel_usable, 0, 0, me)) == on_opponents_turn


@pytest.mark.parametrize("symbol_draw", ["intentional", "blind"])
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_whole_matches_end_under_either_symbol_draw(
    valley: CardSet, bundled_decks_: list[Deck], symbol_draw: str, policy: str
) -> None:
    result = simulate(
        valley,
        bundled_decks_[0],
        bundled_decks_[1],
        # Random play decides about 1 match in 1,000 under a blind draw (engine 4, seed 4: 1 of 1,000; 0 of 300;
        # engine 6, seed 4: 0 of 1,000, 4 of 3,000; seeds 5 and 6: 7 and 2 of 3,000).
        matches=300 if policy == "greedy" else 3000,
        run=RunSettings(seed=4, policy=policy, options={"symbol_draw": symbol_draw}, workers=1),
    )
    assert (result.matches["turns"] > 0).all() and (result.matches["turns"] <= 80).all()
    assert result.meta["options"]["symbol_draw"] == symbol_draw
    if policy == "greedy":
        assert result.draw_rate < 0.5
    else:
        assert result.draw_rate < 1.0  # random play rarely finishes within the cap, but some matches are decided


@pytest.mark.parametrize(
    ("policy", "options"),
    [(E.GREEDY, {}), (E.RANDOM, {}), (E.GREEDY, {"symbol_draw": "blind"}), (E.GREEDY, {"combat_tie": "both"})],
)
def test_each_players_monster_bits_match_the_board_after_whole_matches(
    valley: CardSet, bundled_decks_: list[Deck], policy: int, options: dict[str, str]
) -> None:
    # The bit sets stand in for a pass over every slot, so they must say exactly which slots hold whose monster.
    compiled = E.compile_cards(valley, RULESET.resolve_options(options))
    deck_a, deck_b = (compiled.deck_array(deck) for deck in bundled_decks_[:2])
    deck_size = max(len(deck_a), len(deck_b))
    pair = E.pairing(compiled, deck_a, deck_b)
    G = E.new_game(compiled, pair.ids, deck_size)
    state = E.new_state(G)
    for seed in range(60):
        E.play_matches(G, state, new_batch(pair.deck_a, pair.deck_b, [seed], [seed % 2], policy, policy))
        mon, game = state.mon, state.game
        for p in range(2):
            held = {m for m in range(mon.shape[0]) if mon[m, E.M_SPACE] >= 0 and mon[m, E.M_OWNER] == p}
            assert {m for m in range(mon.shape[0]) if (int(game[E.G_MONSTERS + p]) >> m) & 1} == held
            assert all(state.cells[mon[m, E.M_SPACE], E.C_OCC] == m for m in held)


@pytest.mark.parametrize("cap", [4, 80])
def test_turn_cap_ends_a_match_as_a_draw(valley: CardSet, bundled_decks_: list[Deck], cap: int) -> None:
    result = simulate(
        valley,
        bundled_decks_[0],
        bundled_decks_[1],
        matches=200,
        run=RunSettings(seed=2, options={"turn_cap": str(cap)}, workers=1),
    )
    assert result.matches["turns"].max() <= cap
    if cap == 4:
        assert (result.matches["winner"] == "draw").all()
    else:
        assert result.draw_rate < 0.5


@pytest.mark.parametrize("alignment", ["1", "2", "3", "4"])
def test_every_alignment_plays_whole_matches(valley: CardSet, bundled_decks_: list[Deck], alignment: str) -> None:
    result = simulate(
        valley,
        bundled_decks_[0],
        bundled_decks_[1],
        matches=200,
        run=RunSettings(seed=2, options={"map_alignment": alignment}, workers=1),
    )
    assert result.draw_rate < 0.5


def test_a_map_file_of_the_designers_is_used_and_a_bad_one_is_named(valley: CardSet, tmp_path: Path) -> None:
    from workbench.rulesets.source.map import DEFAULT_MAP

    text = DEFAULT_MAP.read_text(encoding="utf-8").replace('"support_spaces": 4', '"support_spaces": 2')
    good = tmp_path / "two_supports.json"
    good.write_text(text, encoding="utf-8")
    assert Board(valley, map=str(good)).compiled.options[E.O_SUPPORT] == 2
    assert Board(valley, map="default").compiled.options[E.O_SUPPORT] == 4
    bad = tmp_path / "bad.json"
    bad.write_text(text.replace('"kind": "flux"', '"kind": "swamp"'), encoding="utf-8")
    with pytest.raises(WorkbenchInputError, match=r"bad.json: space 2 \('flux'\) has kind 'swamp'"):
        Board(valley, map=str(bad))


# =====================================================================================================================
# Compiling, findings, traces
# =====================================================================================================================


def test_an_effect_outside_the_vocabulary_is_simulated_without_it_with_an_info_finding(
    make_cardset: Callable[..., CardSet],
) -> None:
    cardset = make_cardset(
        RULESET,
        [
            {
                "name": "Walker",
                "kind": "monster",
                "type": "GA",
                "alpha": 15,
                "beta": 10,
                "gamma": 15,
                "delta": 10,
                "effects": "draw 1",
            },
            {
                "name": "Flyer",
                "kind": "monster",
                "type": "GA",
                "alpha": 15,
                "beta": 10,
                "gamma": 15,
                "delta": 10,
                "effects": "fly over the valley; draw 1",
            },
        ],
    )
    compiled = E.compile_cards(cardset, RULESET.resolve_options())
    assert [(f.severity, f.rule, f.card, f.row, f.column) for f in compiled.findings] == [
        ("info", "source.effect_not_simulated", "Flyer", 3, "effects")
    ]
    assert compiled.table[compiled.card_id("Flyer"), E.T_NCLAUSE] == 1  # draw 1 is still played


def test_cost_axis_is_occupied_spaces_required_and_tokens_are_not_measured(valley: CardSet) -> None:
    compiled = E.compile_cards(valley, RULESET.resolve_options())
    assert compiled.cost[compiled.card_id("Paradox Engine")] == 4
    assert compiled.cost[compiled.card_id("Collapse Sigil")] == 4
    assert compiled.cost[compiled.card_id("Murkpuff")] == 0
    assert np.isnan(compiled.cost[compiled.card_id("Gearling")])
    assert E.ENGINE.cost_axis == "occupied spaces required"


def test_golden_trace(valley: CardSet, bundled_decks_: list[Deck]) -> None:
    golden = REPO_ROOT / "tests" / "golden" / "source_trace.txt"
    lines = list(trace(valley, bundled_decks_[0], bundled_decks_[1], seed=7))
    assert lines == golden.read_text(encoding="utf-8").splitlines()  # see the module docstring to regenerate


# =====================================================================================================================
# Sanity and determinism
# =====================================================================================================================


def _monsters(st: tuple[int, int, int, int], name: str) -> dict[str, Any]:
    return {
        "name": name,
        "kind": "monster",
        "type": "BE",
        "alpha": st[0],
        "beta": st[1],
        "gamma": st[2],
        "delta": st[3],
    }


def test_a_mirror_match_is_even(valley: CardSet, bundled_decks_: list[Deck]) -> None:
    result = simulate(valley, bundled_decks_[1], matches=3000, run=RunSettings(seed=9, workers=1))
    assert result.win_rate_a.low - 0.03 <= 0.5 <= result.win_rate_a.high + 0.03, str(result.win_rate_a)


def test_a_strictly_better_card_wins_at_least_as_often(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    cardset = make_cardset(
        RULESET,
        [
            _monsters((15, 10, 15, 10), "Plain"),
            _monsters((20, 15, 20, 15), "Better"),  # every ST higher, same 0 requirement
            _monsters((12, 13, 12, 13), "Filler"),
        ],
    )
    plain = make_deck(cardset, "4 Plain\n36 Filler", name="plain")
    better = make_deck(cardset, "4 Better\n36 Filler", name="better")
    gauntlet = make_deck(cardset, "40 Filler", name="gauntlet")
    plain_rate = simulate(cardset, plain, gauntlet, matches=2000, run=RunSettings(seed=5, workers=1)).win_rate_a
    better_rate = simulate(cardset, better, gauntlet, matches=2000, run=RunSettings(seed=5, workers=1)).win_rate_a
    assert better_rate.high >= plain_rate.value, (str(better_rate), str(plain_rate))


def test_an_on_curve_deck_beats_an_under_budget_deck(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    cardset = make_cardset(
        RULESET,
        [
            _monsters((15, 10, 15, 10), "On Curve"),  # 50: the 0-space total
            _monsters((8, 5, 8, 5), "Under Budget"),  # 26
        ],
    )
    on_curve = make_deck(cardset, "40 On Curve", name="on curve")
    under = make_deck(cardset, "40 Under Budget", name="under budget")
    rate = simulate(cardset, on_curve, under, matches=1000, run=RunSettings(seed=5, workers=1)).win_rate_a
    assert rate.low > 0.5, str(rate)


def test_same_seed_same_matches_and_one_worker_equals_two(valley: CardSet, bundled_decks_: list[Deck]) -> None:
    matches = PARALLEL_THRESHOLD + 500
    alone = simulate(valley, bundled_decks_[0], bundled_decks_[1], matches=matches, run=RunSettings(seed=13, workers=1))
    again = simulate(valley, bundled_decks_[0], bundled_decks_[1], matches=matches, run=RunSettings(seed=13, workers=1))
    pair = simulate(valley, bundled_decks_[0], bundled_decks_[1], matches=matches, run=RunSettings(seed=13, workers=2))
    assert alone.matches.equals(again.matches) and alone.counters.equals(again.counters)
    assert alone.matches.equals(pair.matches) and alone.counters.equals(pair.counters)


# =====================================================================================================================
# The map
# =====================================================================================================================


@pytest.mark.parametrize(
    ("alignment", "a_left_meets", "a_right_meets"),
    [
        ("1", "B left 3", "B right 3"),  # terrestrial meets terrestrial (left 3 and right 3 keep their kinds)
        ("2", "B left 3", "B right 3"),  # the mirror: otherworldly meets otherworldly, seen from the other hand
        ("3", "B right 3", "B left 3"),  # terrestrial meets otherworldly
        ("4", "B right 3", "B left 3"),
    ],
)
def test_map_alignment_decides_which_lanes_meet(alignment: str, a_left_meets: str, a_right_meets: str) -> None:
    from workbench.rulesets.source.map import MP_FWD_A0, MP_KIND, board_map, read_half_map

    board = board_map(read_half_map(), alignment)
    step = {
        board.names[s]: board.names[int(board.packed[s, MP_FWD_A0])]
        for s in range(len(board.names))
        if board.packed[s, MP_FWD_A0] >= 0
    }
    assert step["A left 3"] == a_left_meets and step["A right 3"] == a_right_meets
    kinds = {board.names[s]: int(board.packed[s, MP_KIND]) for s in range(len(board.names))}
    same_kind = kinds["A left 3"] == kinds[a_left_meets]
    assert same_kind == (alignment in ("1", "2"))


def test_map_adjacency_parallel_spaces_and_road_steps_follow_from_the_file() -> None:
    from workbench.rulesets.source.map import MP_ADJ0, MP_PARALLEL, MP_PROGRESS_A, board_map, read_half_map

    board = board_map(read_half_map(), "1")
    index = {name: s for s, name in enumerate(board.names)}

    def adjacent(name: str) -> set[str]:
        return {board.names[int(v)] for v in board.packed[index[name], MP_ADJ0 : MP_ADJ0 + 4] if v >= 0}

    assert adjacent("A summoning") == {"A flux"}  # "only 1 space adjacent to the summoning space"
    assert adjacent("A flux") == {"A summoning", "A left 1", "A right 1"}
    assert adjacent("A left 3") == {"A left 2", "B left 3"}
    assert board.names[int(board.packed[index["A left 2"], MP_PARALLEL])] == "A right 2"
    assert board.packed[index["A flux"], MP_PARALLEL] == -1
    assert board.packed[index["B summoning"], MP_PROGRESS_A] == 9
    assert int(board.distance[index["A summoning"], index["B summoning"]]) == 9


def _extra_spaces(count: int) -> str:
    return "".join(f'{{"id": "extra {i}", "kind": "terrestrial", "lane": "left", "row": 9}}, ' for i in range(count))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace('["summoning", "flux"],', ""), "flux space must be one road step"),
        (lambda t: t.replace('"row": 1}', '"row": 0}'), "has row 0"),
        (lambda t: t.replace('["left 2", "left 3"]', '["left 2", "nowhere"]'), "road step 4"),
        (lambda t: t.replace('"border": {"left": "left 3", "right": "right 3"}', '"border": {}'), "border"),
        (lambda t: t[:-3], "not valid JSON"),
        (lambda t: t.replace('"spaces": [', '"spaces": [' + _extra_spaces(24)), "has 32 spaces"),
    ],
)
def test_a_bad_map_file_is_named_with_what_was_expected(
    tmp_path: Path, change: Callable[[str], str], message: str
) -> None:
    from workbench.rulesets.source.map import DEFAULT_MAP, read_half_map

    path = tmp_path / "broken.json"
    path.write_text(change(DEFAULT_MAP.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(WorkbenchInputError, match=message) as caught:
        read_half_map(path)
    assert "broken.json" in str(caught.value) and caught.value.expected


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe\x00 not text", "is not UTF-8 text (byte 1)"),
        (b"[" * 100_000 + b"]" * 100_000, "nests its JSON too deeply"),
        (b" " * (1024 * 1024 + 1), "the file is 1,048,577 bytes, more than the limit of 1 MiB"),
    ],
)
def test_a_hostile_map_file_is_refused_with_a_message(tmp_path: Path, content: bytes, message: str) -> None:
    from workbench.rulesets.source.map import read_half_map

    path = tmp_path / "hostile.json"
    path.write_bytes(content)
    with pytest.raises(WorkbenchInputError, match=re.escape(message)) as caught:
        read_half_map(path)
    assert "hostile.json" in str(caught.value) and caught.value.expected


def test_a_map_file_saved_with_a_byte_order_mark_reads_as_the_same_map(tmp_path: Path) -> None:
    from workbench.rulesets.source.map import DEFAULT_MAP, read_half_map

    path = tmp_path / "notepad.json"
    path.write_bytes(b"\xef\xbb\xbf" + DEFAULT_MAP.read_bytes())
    assert read_half_map(path).spaces == read_half_map(DEFAULT_MAP).spaces


def test_the_docs_picture_is_the_default_map_drawn() -> None:
    # Redraw with: .venv/bin/python -m workbench.rulesets.source.map docs/rulesets/source_map.svg
    from workbench.rulesets.source.map import read_half_map, render_svg

    committed = (REPO_ROOT / "docs" / "rulesets" / "source_map.svg").read_text(encoding="utf-8")
    assert committed == render_svg(read_half_map())


def test_the_kernels_play_the_same_matches_uncompiled(valley: CardSet, bundled_decks_: list[Deck]) -> None:
    # NUMBA_DISABLE_JIT=1 is how the engine is debugged: the plain-Python run must be the compiled run.
    import json
    import subprocess
    import sys

    script = (
        "import json, numpy as np\n"
        "from workbench.loading import load_cardset\n"
        "from workbench.decklists import read_decklist\n"
        "from workbench.paths import bundled_sets, bundled_decks\n"
        "from workbench.rulesets.source import engine as E\n"
        "cs = load_cardset(bundled_sets('source')[0], 'source')\n"
        "decks = [read_decklist(p, cs) for p in bundled_decks('source')]\n"
        "c = E.compile_cards(cs, cs.ruleset.resolve_options({'symbol_draw': 'blind'}))\n"
        "w, t, n = E.play_batch(c, c.deck_array(decks[0]), c.deck_array(decks[1]), np.array([3, 4, 5]),\n"
        "                       np.array([0, 1, 0], dtype=np.int8), 0, 0)\n"
        "print(json.dumps([w.tolist(), t.tolist(), n.tolist()]))\n"
    )
    env = {**__import__("os").environ, "NUMBA_DISABLE_JIT": "1"}
    output = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True, cwd=REPO_ROOT
    ).stdout
    compiled = E.compile_cards(valley, RULESET.resolve_options({"symbol_draw": "blind"}))
    w, t, n = E.play_batch(
        compiled,
        compiled.deck_array(bundled_decks_[0]),
        compiled.deck_array(bundled_decks_[1]),
        np.array([3, 4, 5]),
        np.array([0, 1, 0], dtype=np.int8),
        0,
        0,
    )
    assert json.loads(output) == [w.tolist(), t.tolist(), n.tolist()]


# =====================================================================================================================
# The rules issue 17 adds: effect summons, the Done Zone, monster types, parallel movement, web tiles. A set of its
# own: the bundled one plus `EXTRA_CARDS`, which speak the new clauses.
# =====================================================================================================================


EXTRA_CARDS: list[dict[str, str]] = [
    # A 0-space monster (ST total 50) whose summon calls another monster out of the hand.
    {"name": "Reef Herald", "kind": "monster", "type": "AQ", "terrestrial": "0", "otherworldly": "0",
     "alpha": "15", "beta": "10", "gamma": "15", "delta": "10", "effects": "summon from hand"},
    {"name": "Deep Caller", "kind": "monster", "type": "AQ", "terrestrial": "0", "otherworldly": "0",
     "alpha": "10", "beta": "15", "gamma": "10", "delta": "15", "effects": "summon from deck"},
    {"name": "Rally Banner", "kind": "equipment", "terrestrial": "0", "otherworldly": "0", "turns": "2",
     "active": "Y/O", "effects": "summon from deck"},
    {"name": "Ambush Horn", "kind": "trap", "terrestrial": "0", "otherworldly": "0", "effects": "summon from hand"},
    {"name": "Grave Tender", "kind": "monster", "type": "SP", "terrestrial": "0", "otherworldly": "0",
     "alpha": "10", "beta": "15", "gamma": "15", "delta": "10", "effects": "recall 1 monster"},
    {"name": "Scavenger Hook", "kind": "equipment", "terrestrial": "0", "otherworldly": "0", "turns": "2",
     "active": "Y", "effects": "recall 1 from opponent"},
    {"name": "Flamebane Sprite", "kind": "monster", "type": "FR", "terrestrial": "0", "otherworldly": "0",
     "alpha": "15", "beta": "15", "gamma": "10", "delta": "10", "effects": "foe destroy if FL"},
    {"name": "Swarm Caller", "kind": "monster", "type": "IN", "terrestrial": "0", "otherworldly": "0",
     "alpha": "10", "beta": "10", "gamma": "20", "delta": "10", "effects": "summon from deck if Insect"},
    {"name": "Tide Charm", "kind": "equipment", "terrestrial": "0", "otherworldly": "0", "turns": "3",
     "active": "Y/O", "effects": "st +10 if AQ; draw 1 if AQ"},
    {"name": "Gas Lantern", "kind": "channeled", "active": "Y", "uses": "1", "symbols": "Alpha",
     "brackets": "0+: bring back a Gas monster", "effects": "0+: recall 1 if GA"},
    {"name": "Vinestrider", "kind": "monster", "type": "GR", "terrestrial": "0", "otherworldly": "0",
     "alpha": "30", "beta": "5", "gamma": "5", "delta": "10", "effects": "move parallel"},
    {"name": "Phase Boots", "kind": "equipment", "terrestrial": "0", "otherworldly": "0", "turns": "2",
     "active": "Y", "effects": "move parallel"},
    {"name": "Webweaver", "kind": "monster", "type": "IN", "terrestrial": "0", "otherworldly": "0",
     "alpha": "15", "beta": "15", "gamma": "10", "delta": "10", "effects": "web"},
    {"name": "Web Cutter", "kind": "monster", "type": "BE", "terrestrial": "0", "otherworldly": "0",
     "alpha": "20", "beta": "10", "gamma": "10", "delta": "10", "effects": "clear web"},
    {"name": "Ember Idol", "kind": "monster", "type": "AQ", "terrestrial": "0", "otherworldly": "0",
     "alpha": "10", "beta": "10", "gamma": "15", "delta": "15", "effects": "st +5 if FL; move +1 if AQ"},
]  # fmt: skip


def write_extended_set(directory: Path) -> Path:
    """The bundled set with `EXTRA_CARDS` added (same columns; the new cells of old rows stay empty), written to a
    CSV file in `directory` (legal_replay.py plays it too, for the decision kinds only these cards reach)."""
    source = bundled_sets("source")[0]
    with source.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    headers = list(rows[0])
    path = directory / "valley_extended.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=headers)
        writer.writeheader()
        writer.writerows(rows)
        writer.writerows({h: row.get(h, "") for h in headers} for row in EXTRA_CARDS)
    return path


@pytest.fixture(scope="module")
def extended(tmp_path_factory: pytest.TempPathFactory) -> CardSet:
    """The bundled set with `EXTRA_CARDS` added (`write_extended_set`)."""
    return load_cardset(write_extended_set(tmp_path_factory.mktemp("source_extended")), "source")


def stock_deck(board: Board, player: int, *names: str) -> None:
    """Player's remaining deck is exactly `names`, top first."""
    for i, name in enumerate(names):
        board.library[player, i] = board.card(name)
    board.side[player, E.S_DECK] = 0
    board.side[player, E.S_DECK_N] = len(names)


def deck_names(board: Board, player: int) -> list[str]:
    first, last = int(board.side[player, E.S_DECK]), int(board.side[player, E.S_DECK_N])
    return [board.compiled.names[int(c)] for c in board.library[player, first:last]]


def monsters_of(board: Board, player: int) -> dict[str, str | None]:
    """Card name -> space name of each of the player's monsters on the map."""
    out: dict[str, str | None] = {}
    for m in range(board.mon.shape[0]):
        if board.mon[m, E.M_SPACE] >= 0 and board.mon[m, E.M_OWNER] == player:
            out[board.compiled.names[int(board.mon[m, E.M_CARD])]] = board.where(m)
    return out


# =====================================================================================================================
# Effect summons
# =====================================================================================================================
# "3. Effect Summon: The player may summon a monster from the player's hand or deck based on the effect of another
# card (monster, equipment, trap, channeled effect). These monsters do not necessarily have to be placed on the
# summoning space."


def test_a_monster_summoned_from_hand_by_another_monsters_effect_lands_next_to_it(extended: CardSet) -> None:
    board = Board(extended)
    board.give(0, "Reef Herald", "Wisp of Ash")
    board.call(E.main_action, 0)  # greedy summons its strongest: both total 50, the first found
    on_map = monsters_of(board, 0)
    assert on_map["Reef Herald"] == "A summoning"
    # "not necessarily ... on the summoning space": the closest free space to the herald that is no summoning space.
    assert on_map["Wisp of Ash"] == "A flux"
    assert board.hand_names(0) == []
    assert "A summons by an effect, from hand, Wisp of Ash onto A flux" in board.lines()


@pytest.mark.parametrize(
    ("requirements", "summoned"),
    [
        # Default: "summoning requirements that normal monsters must obey" hold for an effect summon too.
        ("met", None),
        # The other reading: as a reactionary summon, "ignoring summoning requirements".
        ("ignored", "Paradox Engine"),
    ],
)
def test_an_effect_summon_and_the_summoning_requirements(
    extended: CardSet, requirements: str, summoned: str | None
) -> None:
    board = Board(extended, effect_summon_requirements=requirements)
    board.give(0, "Reef Herald", "Paradox Engine")  # Paradox Engine needs 1 terrestrial and 3 otherworldly spaces
    board.call(E.main_action, 0)
    on_map = monsters_of(board, 0)
    assert on_map.get("Paradox Engine") == ("A flux" if summoned else None)
    if summoned is None:
        assert board.hand_names(0) == ["Paradox Engine"]
        assert "Reef Herald: A summons nothing from hand (no monster it may summon there)" in (board.lines())


def test_an_effect_summon_from_the_deck_takes_the_strongest_monster_out_of_it(extended: CardSet) -> None:
    board = Board(extended)
    stock_deck(board, 0, "Goop", "Murkpuff", "Cogwalker", "Emberhorn Ram", "Drift Fins")
    board.put("Wisp of Ash", 0, "A left 1")  # one terrestrial space: Cogwalker and Emberhorn Ram (75 each) qualify
    board.give(0, "Deep Caller")
    board.call(E.main_action, 0)
    on_map = monsters_of(board, 0)
    assert on_map["Deep Caller"] == "A summoning"
    assert on_map["Cogwalker"] == "A flux"  # the first of the two strongest in deck order
    assert deck_names(board, 0) == ["Goop", "Murkpuff", "Emberhorn Ram", "Drift Fins"]
    assert board.side[0, E.S_MAIN_DONE] == 1  # Deep Caller's conventional summon was the turn's one


def test_an_effect_summon_is_not_the_turns_conventional_summon(extended: CardSet) -> None:
    # Equipment's effect summon: the equipment card was the turn's one play ("You cannot summon a monster if you
    # have played an equipment card"), yet the effect still summons.
    board = Board(extended)
    stock_deck(board, 0, "Murkpuff")
    board.put("Wisp of Ash", 0, "A left 2")
    board.give(0, "Rally Banner")
    board.call(E.main_action, 0)
    assert monsters_of(board, 0) == {"Wisp of Ash": "A left 2", "Murkpuff": "A left 1"}
    assert deck_names(board, 0) == []


def test_a_traps_effect_summon_lands_next_to_the_monster_that_sprang_it(extended: CardSet) -> None:
    board = Board(extended)
    board.put("Cogwalker", 0, "A flux")
    enemy = board.put("Cinder Whelp", 1, "A right 3")
    board.give(0, "Ambush Horn", "Wisp of Ash")
    trap_space = board.space("A right 2")
    board.call(E.set_trap, 0, 0, trap_space)  # fmt: skip
    board.game[E.G_ACTIVE] = 1
    board.move(enemy, ALPHA)  # Cinder Whelp's alpha 20: one space, onto the trap
    assert board.where(enemy) == "A right 2"
    # Next to it: A right 1 and A right 3 are both one step away; the tie goes to the space nearer A's own side.
    assert monsters_of(board, 0)["Wisp of Ash"] == "A right 1"
    assert board.hand_names(0) == []


# =====================================================================================================================
# The Done Zone
# =====================================================================================================================
# "The Done Zone is the discard pile where the player will place any cards that have been defeated, used, or have had
# their effects fulfilled. Note: Some effects will allow the player to bring cards back from their Done Zone and even
# their opponent's Done Zone." / "Destroyed Monster Tokens go back to the token deck. Any other used or destroyed
# cards go to the Done Zone."


def done_zone(board: Board, player: int) -> dict[str, int]:
    cards = len(board.compiled.names)
    return {
        board.compiled.names[c]: int(board.tokens[player, cards + c])
        for c in range(cards)
        if board.tokens[player, cards + c] > 0
    }


def test_defeated_used_and_discarded_cards_go_to_their_players_done_zone_and_tokens_to_the_token_deck(
    extended: CardSet,
) -> None:
    board = Board(extended)
    winner = board.put("Emberhorn Ram", 0, "A left 1")  # alpha 30
    loser = board.put("Murkpuff", 1, "A left 2")  # alpha 15
    board.attack(winner, loser, ALPHA)  # "defeated"
    token = board.put("Broodling", 1, "A left 2")  # alpha 10
    copies = int(board.tokens[1, board.card("Broodling")])
    board.attack(winner, token, ALPHA)
    # A trap that springs has been "used": it goes to its owner's Done Zone.
    board.give(0, "Snapjaw Pit")
    board.call(E.set_trap, 0, 0, board.space("A right 2"))  # fmt: skip
    walker = board.put("Static Mite", 1, "A right 3")  # alpha 15: one space, onto the trap
    board.game[E.G_ACTIVE] = 1
    board.move(walker, ALPHA)
    # Over the hand limit at the end of the turn: "discard until the player has 10 cards".
    board.game[E.G_ACTIVE] = 0
    board.give(0, *(["Murkpuff"] * 10), "Goop")
    board.end_turn(0)
    assert done_zone(board, 1) == {"Murkpuff": 1}
    assert board.tokens[1, board.card("Broodling")] == copies + 1  # back to the token deck, not the Done Zone
    assert done_zone(board, 0) == {"Snapjaw Pit": 1, "Murkpuff": 1}  # greedy discards its least valuable card


@pytest.mark.parametrize(
    ("recall_to", "hand", "deck_top"),
    [("hand", ["Cogwalker"], "Drift Fins"), ("deck", [], "Cogwalker")],
)
def test_a_card_brings_a_monster_back_from_its_players_own_done_zone(
    extended: CardSet, recall_to: str, hand: list[str], deck_top: str
) -> None:
    board = Board(extended, recall_to=recall_to)
    cards = len(board.compiled.names)
    for name in ("Murkpuff", "Cogwalker", "Goop", "Collapse Sigil"):
        board.tokens[0, cards + board.card(name)] += 1
    stock_deck(board, 0, "Murkpuff", "Drift Fins")
    board.side[0, E.S_DECK] = 1  # Murkpuff already drawn: Drift Fins is on top
    board.give(0, "Grave Tender")
    board.call(E.main_action, 0)
    # `recall 1 monster`: greedy takes the strongest monster there; the traps stay.
    assert board.hand_names(0) == hand
    assert deck_names(board, 0)[0] == deck_top
    assert done_zone(board, 0) == {"Murkpuff": 1, "Goop": 1, "Collapse Sigil": 1}


def test_a_card_brings_a_card_back_from_the_opponents_done_zone(extended: CardSet) -> None:
    board = Board(extended)
    cards = len(board.compiled.names)
    board.tokens[1, cards + board.card("Chrono Harness")] = 1
    board.put("Wisp of Ash", 0, "A flux")
    board.give(0, "Scavenger Hook")
    board.call(E.main_action, 0)
    assert board.hand_names(0) == ["Chrono Harness"]  # "even their opponent's Done Zone": now A's to play
    assert done_zone(board, 1) == {}
    assert "A brings Chrono Harness back from B's Done Zone into their hand" in board.lines()
    # Nothing left to take: the clause does nothing, and the trace says so.
    board.side[0, E.S_MAIN_DONE] = 0  # a later turn; Chrono Harness's requirements (2 terrestrial) are not met
    board.give(0, "Scavenger Hook")
    board.call(E.main_action, 0)
    assert "A brings nothing back: no card in the opponent's Done Zone" in board.lines()


# =====================================================================================================================
# Monster types
# =====================================================================================================================
# "The Type of monster. This may be referenced in some effects. In this case, the monster is a Gas type monster. A
# reference for all monster type abbreviations will be included near the end of the instructions." (Type Index: AL
# Alien ... TO Token). `if TYPE` at the end of any clause reads it.


def test_a_foe_clause_with_a_type_picks_an_adjacent_enemy_of_that_type(extended: CardSet) -> None:
    board = Board(extended)
    ram = board.put("Emberhorn Ram", 1, "A left 1")  # BE, total 75: greedy's usual pick
    whelp = board.put("Cinder Whelp", 1, "A right 1")  # FL, total 50
    m = board.call(E.place_monster, board.card("Flamebane Sprite"), 0, board.space("A flux"))
    board.call(E.apply_clauses, board.card("Flamebane Sprite"), 0, m, E.PERMANENT, -1, 1)
    assert board.where(whelp) is None  # `foe destroy if FL`: the Flame monster
    assert board.where(ram) == "A left 1"


def test_a_foe_clause_with_a_type_does_nothing_without_such_an_enemy(extended: CardSet) -> None:
    board = Board(extended)
    ram = board.put("Emberhorn Ram", 1, "A left 1")
    m = board.call(E.place_monster, board.card("Flamebane Sprite"), 0, board.space("A flux"))
    board.call(E.apply_clauses, board.card("Flamebane Sprite"), 0, m, E.PERMANENT, -1, 1)
    assert board.where(ram) == "A left 1"


def test_an_effect_summon_with_a_type_brings_a_monster_of_that_type(extended: CardSet) -> None:
    board = Board(extended)
    stock_deck(board, 0, "Cogwalker", "Murkpuff", "Skitterling", "Static Mite")
    board.give(0, "Swarm Caller")
    board.call(E.main_action, 0)
    on_map = monsters_of(board, 0)
    assert on_map["Skitterling"] == "A flux"  # the only Insect/Arachnid (IN) in the deck
    assert "Broodling" in on_map  # and its own one-off clause, `summon token Broodling`, happens
    assert deck_names(board, 0) == ["Cogwalker", "Murkpuff", "Static Mite"]


@pytest.mark.parametrize(
    ("wearer", "gamma", "hand"),
    [("Bogmaw Lurker", 15 + 10, ["Murkpuff"]), ("Cogwalker", 15, [])],  # AQ gets both; RO neither
)
def test_equipment_that_reads_the_type_of_its_monster(
    extended: CardSet, wearer: str, gamma: int, hand: list[str]
) -> None:
    board = Board(extended)
    m = board.put(wearer, 0, "A left 1")
    stock_deck(board, 0, "Murkpuff")
    board.give(0, "Tide Charm")
    board.call(E.equip, 0, 0, m)
    assert board.st(m, 2) == gamma  # `st +10 if AQ`
    assert board.hand_names(0) == hand  # `draw 1 if AQ`


def test_a_recall_with_a_type_brings_back_a_monster_of_that_type(extended: CardSet) -> None:
    board = Board(extended)
    cards = len(board.compiled.names)
    for name in ("Paradox Engine", "Murkpuff", "Mistral Shade", "Goop"):
        board.tokens[0, cards + board.card(name)] += 1
    m = board.put("Wisp of Ash", 0, "A flux")
    board.sup[0, 0] = (board.card("Gas Lantern"), -1, 1, 1)  # placed on turn 1, used on turn 5
    board.call(E.channel, 0, 0, m, ALPHA)
    # Gas (GA): Murkpuff and Mistral Shade; greedy takes the stronger, Mistral Shade (75 against 50).
    assert board.hand_names(0) == ["Mistral Shade"]


def test_a_monsters_own_lasting_clause_reads_its_own_type_once(extended: CardSet) -> None:
    compiled = E.compile_cards(extended, RULESET.resolve_options())
    idol = compiled.card_id("Ember Idol")  # AQ: `st +5 if FL` never applies, `move +1 if AQ` always does
    ops = [int(compiled.extra["clauses"][idol, i, E.C_OP]) for i in range(int(compiled.table[idol, E.T_NCLAUSE]))]
    assert ops == [E.OP_MOVE]
    assert int(compiled.extra["clauses"][idol, 0, E.C_TYPES]) == 0
    assert any(
        f.card == "Ember Idol" and "never applies" in f.message and f.rule == "source.effect_not_simulated"
        for f in compiled.findings
    )


# =====================================================================================================================
# Parallel spaces
# =====================================================================================================================
# "Helpful Reference for Attacking/Movement 2 (Parallel Spaces): Some effects may reference parallel spaces." /
# "Movement for a monster can only occur from one adjacent space to another." / "Note: Due to some card effects,
# movement may become possible across parallel spaces as well." On the default map `A left k` and `A right k` are
# parallel (same row, the two lanes of one half).


def greedy_symbol_action(board: Board, player: int) -> list[int]:
    """The symbol action the player's policy answers a symbol decision with (D_SYMBOL, opened as the turn opens it),
    unpacked: action code, monster slot, target, symbol."""
    E.open_decision(board.state, E.D_SYMBOL, player)
    action = int(board.call(E.choose))
    board.game[E.G_DECISION] = E.D_NONE
    if action == E.STOP:
        return [E.A_NONE, -1, -1, -1]
    return [int(f(action)) for f in (E.action_code, E.action_x, E.action_y, E.action_s)]


def summoned(board: Board, name: str, player: int, space: str) -> int:
    """A monster put on `space` with its own lasting clauses, as a summon gives them."""
    m = board.put(name, player, space)
    board.call(E.apply_clauses, board.card(name), player, m, E.PERMANENT, -1, 0)
    return m


@pytest.mark.parametrize("parallel_move", ["any_step", "when_blocked"])
@pytest.mark.parametrize(
    ("parallel_steps", "blocker_across", "end", "moved"),
    [
        (1, False, "A right 2", 2),  # across to A right 1 (one space), then on to A right 2
        (0, False, "A left 1", 0),  # the reading turned off: it stops before the enemy, as any monster
        (1, True, "A left 1", 0),  # the parallel space is taken too: nowhere to go
    ],
)
def test_a_monster_with_move_parallel_steps_across_an_enemy_in_its_way(
    extended: CardSet, parallel_move: str, parallel_steps: int, blocker_across: bool, end: str, moved: int
) -> None:
    # Either reading takes it across around an enemy: `when_blocked` at once, `any_step` by greedy's choice (D_FORK).
    board = Board(extended, parallel_steps=str(parallel_steps), parallel_move=parallel_move)
    m = summoned(board, "Vinestrider", 0, "A left 1")  # alpha 30: 2 spaces
    board.put("Murkpuff", 1, "A left 2")
    if blocker_across:
        board.put("Cinder Whelp", 1, "A right 1")
    assert board.move(m, ALPHA) == moved
    assert board.where(m) == end
    if moved:
        assert "Vinestrider (A) steps across from A left 1 to the parallel A right 1" in board.lines()


def test_a_monster_without_move_parallel_stops_before_the_enemy(extended: CardSet) -> None:
    # "The opponent has a monster in the way. In this case, you stop at the closest space."
    board = Board(extended)
    m = board.put("Emberhorn Ram", 0, "A left 1")  # alpha 30: 2 spaces, no `move parallel`
    board.put("Murkpuff", 1, "A left 2")
    assert board.move(m, ALPHA) == 0 and board.where(m) == "A left 1"


def test_equipment_with_move_parallel_lends_it_on_its_active_turns(extended: CardSet) -> None:
    board = Board(extended)
    m = board.put("Emberhorn Ram", 0, "A left 1")
    board.put("Murkpuff", 1, "A left 2")
    board.give(0, "Phase Boots")  # active Y: only on A's turns
    board.call(E.equip, 0, 0, m)
    assert board.call(E.may_move_parallel, m, 0) and not board.call(E.may_move_parallel, m, 1)
    assert board.move(m, ALPHA) == 2 and board.where(m) == "A right 2"


def test_greedy_play_sees_the_way_across(extended: CardSet) -> None:
    # Greedy weighs a move by walking the road as the move will: blocked, it would not move; across, it does.
    board = Board(extended)
    m = summoned(board, "Vinestrider", 0, "A left 1")
    board.put("Stormforge Colossus", 1, "A left 2")  # alpha 40: an attack with alpha 30 would lose
    board.side[0, E.S_SYMBOLS] = 1 << ALPHA
    assert greedy_symbol_action(board, 0) == [E.A_MOVE, m, -1, ALPHA]


# "Movement for a monster can only occur from one adjacent space to another." / "Note: Due to some card effects,
# movement may become possible across parallel spaces as well." Read with `parallel_move=any_step` (the default): for
# a monster a `move parallel` clause allows, its parallel space is a space it may move to "as well" as the road's next
# one, at any step the player chooses (D_FORK lists it), one space of movement like every change of space ("This
# still counts as 1 space of movement"). `when_blocked` is engine 4's reading: across only around an enemy in its way.


def fork_list(board: Board, m: int, across: int = 0) -> list[str]:
    """The spaces D_FORK lists for monster m where it stands, `across` steps across taken so far this move."""
    board.game[E.G_ASKED] = board.mon[m, E.M_SPACE]
    board.game[E.G_ACROSS] = across
    out = np.zeros(E.MAX_ACTIONS, dtype=np.int64)
    n = int(board.call(E.legal_forks, 0, out))
    return [board.compiled.extra["space_names"][int(space)] for space in out[:n]]


@pytest.mark.parametrize(
    ("parallel_move", "parallel_steps", "mover", "taken", "ally_across", "listed"),
    [
        ("any_step", 1, "Vinestrider", 0, False, ["A left 2", "A right 1"]),  # the road's space, then across
        ("when_blocked", 1, "Vinestrider", 0, False, ["A left 2"]),  # engine 4: no enemy in the way, no way across
        ("any_step", 0, "Vinestrider", 0, False, ["A left 2"]),  # parallel_steps=0: never across
        ("any_step", 1, "Vinestrider", 1, False, ["A left 2"]),  # this move's one step across is already taken
        ("any_step", 1, "Vinestrider", 0, True, ["A left 2"]),  # the parallel space is occupied (by an ally)
        ("any_step", 1, "Emberhorn Ram", 0, False, ["A left 2"]),  # no `move parallel`: adjacent spaces only
    ],
)
def test_the_parallel_space_is_one_more_space_a_move_may_take(
    extended: CardSet,
    parallel_move: str,
    parallel_steps: int,
    mover: str,
    taken: int,
    ally_across: bool,
    listed: list[str],
) -> None:
    board = Board(extended, parallel_move=parallel_move, parallel_steps=str(parallel_steps))
    m = summoned(board, mover, 0, "A left 1")
    if ally_across:
        board.put("Murkpuff", 0, "A right 1")
    assert fork_list(board, m, taken) == listed


@pytest.mark.parametrize(
    ("parallel_move", "end", "path", "across"),
    [
        # An ally two spaces on crowds its lane; the other lane is free: greedy goes across (one space), then on.
        ("any_step", "A right 2", ["A left 1", "A right 1", "A right 2"], True),
        # Engine 4's reading: no enemy in the way, so along the road, swapping past the ally ("counts as 1 space").
        ("when_blocked", "A left 3", ["A left 1", "A left 2", "A left 3"], False),
    ],
)
def test_a_step_across_by_choice_counts_as_one_space_and_greedy_looks_ahead_the_same_way(
    extended: CardSet, parallel_move: str, end: str, path: list[str], across: bool
) -> None:
    board = Board(extended, parallel_move=parallel_move)
    m = summoned(board, "Vinestrider", 0, "A left 1")  # alpha 30: 2 spaces
    board.put("Murkpuff", 0, "A left 3")
    names = board.compiled.extra["space_names"]
    assert int(board.call(E.greedy_path_steps, m, 2)) == 2  # greedy's look-ahead walks the path the move takes
    assert [names[int(s)] for s in board.state.scratch[E.PATH_AT : E.PATH_AT + 3]] == path
    assert board.move(m, ALPHA) == 2
    assert board.where(m) == end
    stepped = "Vinestrider (A) steps across from A left 1 to the parallel A right 1" in board.lines()
    assert stepped == across


# "The player may use their monster to attack an opponent's monster that is on an adjacent space." / "Helpful
# Reference for Attacking/Movement 2 (Parallel Spaces): Some effects may reference parallel spaces." No card of the
# document attacks across, so `parallel_attacks=none` (the default) keeps attacks to adjacent spaces and `move
# parallel` opens movement only; `with_move_parallel` reads the one reference as opening both.


@pytest.mark.parametrize(
    ("parallel_attacks", "mover", "listed"),
    [
        ("none", "Vinestrider", False),  # attacks reach adjacent spaces only
        ("with_move_parallel", "Vinestrider", True),  # it may move across, so it may attack across
        ("with_move_parallel", "Emberhorn Ram", False),  # no `move parallel`: nothing opens the parallel space
    ],
)
def test_an_attack_across_parallel_spaces_follows_parallel_attacks(
    extended: CardSet, parallel_attacks: str, mover: str, listed: bool
) -> None:
    board = Board(extended, parallel_attacks=parallel_attacks)
    m = summoned(board, mover, 0, "A left 2")
    e = board.put("Murkpuff", 1, "A right 2")  # alpha 15: either mover's alpha 30 wins
    out = np.zeros(E.MAX_ACTIONS, dtype=np.int64)
    n = int(board.call(E.legal_symbols, 0, out))
    attacks = {
        (int(E.action_x(a)), int(E.action_y(a))) for a in out[:n] if a != E.STOP and E.action_code(a) == E.A_ATTACK
    }
    assert ((m, e) in attacks) == listed
    board.side[0, E.S_SYMBOLS] = 1 << ALPHA
    chosen = greedy_symbol_action(board, 0)
    if listed:  # greedy weighs it as any attack: a win is worth the enemy
        assert chosen == [E.A_ATTACK, m, e, ALPHA]
        assert board.attack(m, e, ALPHA) == 1 and board.at("A right 2") is None
    else:
        assert chosen[0] != E.A_ATTACK


# =====================================================================================================================
# Web tiles
# =====================================================================================================================
# "the WEBWEAVER monster has the ability to place a token on the map in order to hinder enemies with its effects.
# Unlike a monster token, the web token comes in the form of a tile that can easily be placed and removed from
# relevant map spaces."


def web_on(board: Board, space: str) -> int:
    return int(board.cells[board.space(space), E.C_WEB])


def test_a_monster_lays_a_web_tile_next_to_itself_when_summoned(extended: CardSet) -> None:
    board = Board(extended)
    board.give(0, "Webweaver")
    board.call(E.main_action, 0)
    # The summoning space's only neighbour on the map is the Source Flux (summoning spaces take no tiles).
    assert web_on(board, "A flux") == 0
    assert "Webweaver: A lays a web tile on A flux" in board.lines()


@pytest.mark.parametrize(
    ("hinders", "end", "moved"),
    [
        ("stop", "A flux", 1),  # onto the web, and its move ends there
        ("block", "A left 1", 0),  # the web bars the space
    ],
)
def test_a_web_tile_hinders_an_opposing_monster(extended: CardSet, hinders: str, end: str, moved: int) -> None:
    board = Board(extended, web_hinders=hinders)
    board.cells[board.space("A flux"), E.C_WEB] = 0  # A's web
    enemy = board.put("Emberhorn Ram", 1, "A left 1")  # alpha 30: 2 spaces, to A summoning without the web
    board.game[E.G_ACTIVE] = 1
    assert board.move(enemy, ALPHA) == moved
    assert board.where(enemy) == end


def test_a_web_tile_does_not_hinder_its_own_players_monsters(extended: CardSet) -> None:
    board = Board(extended, web_hinders="block")
    board.cells[board.space("A flux"), E.C_WEB] = 0
    m = board.put("Emberhorn Ram", 0, "A summoning")
    assert board.move(m, ALPHA) == 2 and board.where(m) in ("A left 1", "A right 1")


def test_a_web_tile_is_removed_by_a_clear_web_clause(extended: CardSet) -> None:
    board = Board(extended)
    board.cells[board.space("A flux"), E.C_WEB] = 0
    board.cells[board.space("A left 3"), E.C_WEB] = 0  # not next to the cutter: it stays
    board.cells[board.space("A left 2"), E.C_WEB] = 1  # B's own web: B does not remove it
    cutter = board.put("Web Cutter", 1, "A left 1")  # next to A flux and A left 2
    board.call(E.apply_clauses, board.card("Web Cutter"), 1, cutter, E.PERMANENT, -1, 1)
    assert (web_on(board, "A flux"), web_on(board, "A left 3"), web_on(board, "A left 2")) == (-1, 0, 1)
    assert "Web Cutter: B removes the opponent's web tile from A flux" in board.lines()


# =====================================================================================================================
# Whole matches with the new clauses
# =====================================================================================================================

NEW_CLAUSE_DECK = [
    "Reef Herald", "Deep Caller", "Rally Banner", "Ambush Horn", "Grave Tender", "Scavenger Hook", "Flamebane Sprite",
    "Swarm Caller", "Tide Charm", "Gas Lantern", "Vinestrider", "Phase Boots", "Webweaver", "Web Cutter",
    "Murkpuff", "Cinder Whelp", "Skitterling", "Wisp of Ash", "Cogwalker", "Emberhorn Ram",
]  # fmt: skip


@pytest.mark.parametrize(
    "options",
    [
        {},
        {
            "effect_summon_requirements": "ignored",
            "recall_to": "deck",
            "parallel_steps": "2",
            "web_hinders": "block",
            "symbol_draw": "blind",
        },
    ],
)
def test_matches_with_every_new_clause_end_and_keep_the_board_consistent(
    extended: CardSet, options: dict[str, str]
) -> None:
    compiled = E.compile_cards(extended, RULESET.resolve_options(options))
    ids = [compiled.card_id(name) for name in NEW_CLAUSE_DECK]
    deck = np.array(ids * 2, dtype=np.int64)  # 40 cards: two of each
    seeds = np.arange(40, dtype=np.int64)
    first = (np.arange(40) % 2).astype(np.int8)
    for policies in ((E.GREEDY, E.GREEDY), (E.RANDOM, E.GREEDY), (E.RANDOM, E.RANDOM)):
        winners, turns, counters = E.play_batch(compiled, deck, deck, seeds, first, *policies)
        assert set(winners.tolist()) <= {-1, 0, 1}
        assert (turns >= 1).all() and (turns <= int(options.get("turn_cap", 80))).all()
        assert counters.min() >= 0
    winner, turns_played, events = E.play_traced(compiled, deck, deck, 3, 0, E.GREEDY, E.RANDOM)
    lines = [E.describe_event(compiled, [int(v) for v in row]) for row in events]
    assert winner in (-1, 0, 1) and turns_played >= 1
    assert not any(line.startswith("event ") for line in lines)  # every event has words


# =====================================================================================================================
# The search policy
# =====================================================================================================================


class Search(NamedTuple):
    """The search's world and work records (states of the same shapes: each sampled world, and a rollout played from
    a copy of it, with its own counters and trace)."""

    world: Any
    work: Any


def search_for(board: Board, seed: int = 5) -> Search:
    """Work space for searches from the board, the search's generator (in the board's state) seeded with `seed`."""
    E.rng_seed(board.state.search, seed)
    return Search(E.new_state(board.G), E.new_state(board.G))


def decide(board: Board, search: Search, player: int = 0) -> tuple[int, list[str], list[int]]:
    """One search decision for `player` on the board: its choice, the candidates by name, every candidate's points."""
    records = board.records()
    open_main_decision(board, player)
    k = int(E.search_decision(records["G"], board.state, *search, player))
    words = board.state.search
    m = int(words[E.SR_N])
    labels = []
    for i in range(m):
        h = int(words[E.SR_CAND + i])
        labels.append("greedy" if h == E.CAND_GREEDY else "pass" if h == E.CAND_PASS else board.hand_names(player)[h])
    return k, labels, [int(v) for v in words[E.SR_POINTS : E.SR_POINTS + m]]


def open_main_decision(board: Board, player: int) -> None:
    """The board's turn (the player's) taken up at its main action, as the turn reaches it after the draw: the main
    decision open (`advance`), where the search decides."""
    board.game[E.G_PLAYER] = player
    board.game[E.G_ACTIVE] = player
    board.game[E.G_SYMBOLS_STAGE] = E.SYMBOLS_AHEAD
    board.game[E.G_STAGE] = E.STAGE_MAIN
    board.call(E.advance, E.NO_STAGE)
    assert board.game[E.G_DECISION] == E.D_MAIN


def tried(board: Board) -> list[int]:
    """The rollouts each candidate of the board's last search decision was given."""
    words = board.state.search
    return [int(v) for v in words[E.SR_TRIED : E.SR_TRIED + int(words[E.SR_N])]]


def library_of(board: Board, player: int, *names: str) -> None:
    for i, name in enumerate(names):
        board.library[player, i] = board.card(name)
    board.side[player, E.S_DECK] = 0
    board.side[player, E.S_DECK_N] = len(names)


def king_or_devourer(valley: CardSet) -> Board:
    # B attacked A's generator last turn, so A may make a "Reactionary Summon: ... you may summon any card from
    # your hand to your summoning space, ignoring summoning requirements". B has 10 SourcePoints left; Hollow King
    # reads "When summoned, your opponent loses 10 SourcePoints" and "a player is defeated if the player's
    # SourcePoints reaches 0". Greedy summons its strongest monster, Exzavier Devourer, and the match goes on: A,
    # on 5 SourcePoints, loses it in every rollout.
    board = Board(valley)
    board.side[0, E.S_GEN_ATTACKED] = 1
    board.side[0, E.S_REACTIONARY] = 1  # as the turn's start makes it (for a decision taken without one)
    board.side[0, E.S_SP] = 5
    board.side[1, E.S_SP] = 10
    board.put("Cinder Whelp", 1, "A left 1")
    board.give(0, "Exzavier Devourer", "Hollow King", "Murkpuff")
    board.give(1, "Wisp of Ash", "Goop", "Cogwalker")
    library_of(board, 0, "Murkpuff", "Cogwalker", "Wisp of Ash", "Frostmote", "Cinder Whelp")
    library_of(board, 1, "Murkpuff", "Wisp of Ash", "Emberhorn Ram", "Frostmote", "Static Mite")
    return board


def test_search_summons_the_monster_that_wins_where_greedy_summons_its_strongest(valley: CardSet) -> None:
    greedy = king_or_devourer(valley)
    greedy.call(E.play_turn, 0, False)
    assert "Exzavier Devourer" not in greedy.hand_names(0) and "Hollow King" in greedy.hand_names(0)
    assert greedy.game[E.G_OVER] == 0 and greedy.side[1, E.S_SP] == 10
    board = king_or_devourer(valley)
    board.call(E.play_searched_turn, *search_for(board), 0)
    assert board.game[E.G_OVER] == 1 and board.game[E.G_WINNER] == 0 and board.side[1, E.S_SP] == 0
    assert "Hollow King" not in board.hand_names(0)
    # Hollow King wins every rollout it is given (WIN_POINTS each, and it goes through every round of the halving);
    # greedy's turn (candidate 0) loses every one.
    board = king_or_devourer(valley)
    k, labels, points = decide(board, search_for(board))
    assert labels[k] == "Hollow King" and points[k] == WIN_POINTS * tried(board)[k] and points[0] == 0
    assert tried(board)[k] == max(tried(board)) > 1
    # Greedy's own summon (Exzavier Devourer) is candidate 0 and is not listed twice.
    assert labels[:2] == ["greedy", "pass"] and sorted(labels[2:]) == ["Hollow King", "Murkpuff"]


def test_search_decisions_do_not_change_when_the_opponents_hidden_cards_are_permuted(valley: CardSet) -> None:
    # "never peeks": what A cannot see (B's hand, B's face-down trap, the order of both decks) is dealt anew before
    # each rollout from what A can know, so moving B's unseen cards between hand, trap space and deck (the same
    # cards, as many in each place) and reordering A's deck changes neither A's choice nor any rollout figure.
    unseen = ["Wisp of Ash", "Goop", "Cogwalker", "Snapjaw Pit"] + [
        "Murkpuff",
        "Snapjaw Pit",
        "Emberhorn Ram",
        "Cinder Whelp",
        "Frostmote",
        "Static Mite",
    ] * 2
    own_deck = ["Murkpuff", "Cogwalker", "Wisp of Ash", "Frostmote", "Static Mite", "Cinder Whelp"] * 2

    def board_with(hidden: list[str], own: list[str]) -> Board:
        board = Board(valley)
        board.side[0, E.S_SP] = 20  # a close match: the candidates' figures differ from rollout to rollout
        board.side[1, E.S_SP] = 50
        board.put("Cinder Whelp", 1, "A left 1")
        board.put("Emberhorn Ram", 1, "B left 1")
        trap = next(name for name in hidden if name in ("Goop", "Snapjaw Pit"))
        rest = list(hidden)
        rest.remove(trap)
        board.cells[board.space("B right 1"), E.C_TRAP] = board.card(trap)
        board.cells[board.space("B right 1"), E.C_TRAP_OWNER] = 1
        board.give(0, "Exzavier Devourer", "Hollow King", "Murkpuff")
        board.give(1, *rest[:3])
        library_of(board, 0, *own)
        library_of(board, 1, *rest[3:])
        board.side[0, E.S_GEN_ATTACKED] = 1
        board.side[0, E.S_REACTIONARY] = 1
        return board

    results = []
    for k in range(3):
        order = np.random.default_rng(k).permutation(len(unseen))
        hidden = [unseen[i] for i in order] if k else unseen
        own = [own_deck[i] for i in np.random.default_rng(10 + k).permutation(len(own_deck))] if k else own_deck
        results.append(decide(board_with(hidden, own), search_for(board_with(hidden, own))))
    assert results[0] == results[1] == results[2]
    assert len(set(results[0][2])) > 1  # the candidates were told apart
    # The figures do read which cards are unseen: other cards (not the same ones moved) give other figures.
    goop = ["Goop"] * len(unseen)
    assert decide(board_with(goop, own_deck), search_for(board_with(goop, own_deck)))[2] != results[0][2]


def test_search_plays_whole_matches_the_same_way_twice_and_reads_its_budget(
    valley: CardSet, bundled_decks_: list[Deck]
) -> None:
    run = RunSettings(seed=3, policy="search", workers=1)
    deck = bundled_decks_[0]
    searched = simulate(valley, deck, deck, matches=20, run=run, policy_b="greedy")
    again = simulate(valley, deck, deck, matches=20, run=run, policy_b="greedy")
    assert searched.matches.equals(again.matches) and (searched.matches["turns"] > 0).all()
    one = RunSettings(seed=3, policy="search", workers=1, options={"search_rollouts": 1})
    cheap = simulate(valley, deck, deck, matches=20, run=one, policy_b="greedy")
    assert not cheap.matches.equals(searched.matches)


@pytest.mark.parametrize(
    ("key", "value"),
    [("search_rollouts", 0), ("search_rollouts", 1001), ("search_depth", -1), ("search_depth", 10_001)],
)
def test_search_budget_outside_its_range_is_refused(valley: CardSet, key: str, value: int) -> None:
    with pytest.raises(WorkbenchInputError, match=key):
        E.compile_cards(valley, RULESET.resolve_options({key: value}))


def test_search_cut_off_scores_the_position_by_the_games_own_evaluation(valley: CardSet) -> None:
    # A constructed position, A's worth and B's by hand from the EVAL_* weights: SourcePoints, each monster on the
    # map by its ST (the four values summed) and the road steps it has come, the one on the opponent's summoning
    # space by its best ST, cards in hand by kind, support spaces taken, traps set.
    board = Board(valley)
    board.side[0, E.S_SP] = 60
    board.side[1, E.S_SP] = 85
    b_summoning = int(board.G.opts[E.O_SUMMONING + 1])
    a_summoning = int(board.G.opts[E.O_SUMMONING])
    start = int(board.G.dist[a_summoning, b_summoning])
    board.put("Cinder Whelp", 0, "A left 1")
    whelp_space = board.space("A left 1")
    raider = board.call(E.place_monster, board.card("Emberhorn Ram"), 0, b_summoning)
    board.put("Murkpuff", 1, "B left 1")
    board.give(0, "Hollow King", "Snapjaw Pit")
    board.give(1, "Goop")
    board.sup[1, 0, E.SU_CARD] = board.card("Gravity Well")
    board.cells[board.space("B right 1"), E.C_TRAP] = board.card("Snapjaw Pit")
    board.cells[board.space("B right 1"), E.C_TRAP_OWNER] = 1

    def st(name: str) -> list[int]:
        return [int(board.compiled.table[board.card(name), E.T_ST + s]) for s in range(E.SYMBOLS)]

    assert [board.st(int(raider), s, 0) for s in range(E.SYMBOLS)] == st("Emberhorn Ram")
    worth_a = E.EVAL_SP * 60
    worth_a += E.EVAL_MONSTER + E.EVAL_ST * sum(st("Cinder Whelp")) // 10
    worth_a += E.EVAL_STEP * (start - int(board.G.dist[whelp_space, b_summoning]))
    worth_a += E.EVAL_MONSTER + E.EVAL_ST * sum(st("Emberhorn Ram")) // 10 + E.EVAL_STEP * start
    worth_a += E.EVAL_ON_GOAL * max(st("Emberhorn Ram")) // 10
    worth_a += E.EVAL_HAND_MONSTER + E.EVAL_HAND_OTHER
    murkpuff_space = board.space("B left 1")
    b_start = int(board.G.dist[b_summoning, a_summoning])
    worth_b = E.EVAL_SP * 85 + E.EVAL_MONSTER + E.EVAL_ST * sum(st("Murkpuff")) // 10
    worth_b += E.EVAL_STEP * (b_start - int(board.G.dist[murkpuff_space, a_summoning]))
    worth_b += E.EVAL_HAND_OTHER + E.EVAL_SUPPORT + E.EVAL_TRAP  # Goop is a trap card
    assert board.call(E.search_side_worth, 0) == worth_a and board.call(E.search_side_worth, 1) == worth_b
    for_a, for_b = int(board.call(E.search_evaluation, 0)), int(board.call(E.search_evaluation, 1))
    assert for_a == position_points(worth_a - worth_b, E.EVAL_HALF)
    assert abs(for_a + for_b - WIN_POINTS) <= 1 and for_a != DRAW_POINTS
    # An even position is worth a draw; a finished match its result.
    even = Board(valley)
    assert even.call(E.search_evaluation, 0) == even.call(E.search_evaluation, 1) == DRAW_POINTS
    board.game[E.G_OVER] = 1
    board.game[E.G_WINNER] = 1
    assert board.call(E.search_evaluation, 0) == 0 and board.call(E.search_evaluation, 1) == WIN_POINTS
    board.game[E.G_WINNER] = -1
    assert board.call(E.search_evaluation, 0) == DRAW_POINTS


def quiet_board(valley: CardSet, **options: str) -> Board:
    """A monster each on the map and decks of monsters, full SourcePoints: no match ends within a few turns."""
    board = Board(valley, (E.GREEDY, E.GREEDY), **options)
    board.put("Murkpuff", 0, "A left 1")
    board.put("Murkpuff", 1, "B left 1")
    board.give(0, "Cogwalker", "Frostmote")
    board.give(1, "Cogwalker", "Frostmote")
    library_of(board, 0, *["Murkpuff", "Cogwalker", "Frostmote"] * 6)
    library_of(board, 1, *["Murkpuff", "Cogwalker", "Frostmote"] * 6)
    return board


@pytest.mark.parametrize("depth", [1, 3])
def test_search_rollouts_stop_after_search_depth_turns_and_play_on_at_depth_0(valley: CardSet, depth: int) -> None:
    board = quiet_board(valley, search_depth=str(depth))
    search = search_for(board)
    records = board.records()
    decide(board, search)
    m = int(board.state.search[E.SR_N])
    assert m > 2
    for k in range(m):  # greedy's turn, no main action, each summon: then `depth` turns
        board.call(E.search_world, search.world, 0, 11)
        points = E.search_rollout(records["G"], board.state.search, *search, 0, k, 12)
        assert int(search.work.game[E.G_OVER]) == 0
        assert int(search.work.game[E.G_TURN]) == int(board.game[E.G_TURN]) + depth
        assert points == E.search_evaluation(records["G"], search.work, 0)
    to_the_end = quiet_board(valley, search_depth="0")
    search = search_for(to_the_end)
    records = to_the_end.records()
    decide(to_the_end, search)
    to_the_end.call(E.search_world, search.world, 0, 11)
    points = E.search_rollout(records["G"], to_the_end.state.search, *search, 0, 1, 12)
    assert points in (0, DRAW_POINTS, WIN_POINTS) and int(search.work.game[E.G_OVER]) == 1


def test_search_spends_each_decisions_budget_by_successive_halving(valley: CardSet) -> None:
    board = quiet_board(valley, search_rollouts="4")
    k, _, _ = decide(board, search_for(board))
    m = int(board.state.search[E.SR_N])
    given = tried(board)
    plan = schedule(4 * m, m)
    # Each round's survivors got the round's share; the chosen one went through every round.
    assert sum(given) == sum(alive * share for alive, share in plan) <= 4 * m
    assert given[k] == sum(share for _, share in plan) == max(given)
    # Those dropped after round r had the shares of rounds 0..r: the worse half of each round's survivors.
    assert sorted(given) == rollouts_given(4 * m, m) and len(plan) == halving_rounds(m)
    assert int(board.state.search[E.SR_ORDER]) == k and int(board.state.search[E.SR_CHOICE]) == k


def test_search_beats_greedy_in_a_seeded_mirror(valley: CardSet, bundled_decks_: list[Deck]) -> None:
    # At the default budget and cut-off. The full figures, 1,000 matches a deck: docs/rulesets/source.md, The
    # search policy.
    deck = bundled_decks_[0]
    run = RunSettings(seed=3, policy="search", workers=1)
    result = simulate(valley, deck, deck, matches=300, run=run, policy_b="greedy")
    rate = result.win_rate_a
    assert rate.value >= 0.65 and rate.low > 0.55, rate
    options = result.meta["options"]
    assert (options["search_rollouts"], options["search_depth"]) == (SEARCH_ROLLOUTS, SEARCH_DEPTH)
