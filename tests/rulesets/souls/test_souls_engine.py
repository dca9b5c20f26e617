"""The souls engine, rule by rule: set up a board, call one kernel, check the outcome.

Scenarios use the document's own numbers where it has them (3 rows, range 1 unless Ranged X, the empty-row
examples, 8 shield points, direct attacks deal 1, Support +1 Atk for a turn, the five combos and what each does)
and the rule-options ledger where it is silent (both settings of every engine option are played here).
The kernels run compiled; `test_plain_python_and_compiled_kernels_play_the_same_matches` runs them under
NUMBA_DISABLE_JIT=1 too.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest

import workbench.rulesets.souls.engine as E
from workbench.analysis import power_curve
from workbench.cards import CardSet, Deck
from workbench.decklists import read_decklist
from workbench.engines import ATTACKED, DAMAGE_DEALT, DESTROYED, DRAWN, PLAYED, EngineInt
from workbench.loading import load_cardset
from workbench.paths import bundled_decks, bundled_sets
from workbench.play.policies import P_CODE, SEARCH
from workbench.play.search import DRAW_POINTS, WIN_POINTS, halving_rounds, position_points, rollouts_given, schedule
from workbench.rulesets.souls import RULESET as SOULS
from workbench.run_settings import RunSettings
from workbench.simulate import BATCH_SIZE, PARALLEL_THRESHOLD, batch_seeds, compile_for, simulate

MakeCardSet = Callable[..., CardSet]
MakeDeck = Callable[..., Deck]

ROWS: list[dict[str, Any]] = [
    {"name": "Grunt", "kind": "monster", "soul_cost": 0, "atk": 3, "def": 2, "abilities": "Atk"},
    {"name": "Wall", "kind": "monster", "soul_cost": 0, "atk": 1, "def": 4, "abilities": "Atk"},
    {"name": "Pike", "kind": "monster", "soul_cost": 1, "atk": 4, "def": 4, "abilities": "Atk"},
    {"name": "Archer", "kind": "monster", "soul_cost": 1, "atk": 4, "def": 4, "abilities": "Atk; Ranged 2"},
    {"name": "Sniper", "kind": "monster", "soul_cost": 4, "atk": 9, "def": 9, "abilities": "Atk; Ranged 3"},
    {"name": "Drummer", "kind": "monster", "soul_cost": 1, "atk": 3, "def": 5, "abilities": "Atk; Support"},
    {"name": "Scout", "kind": "monster", "soul_cost": 1, "atk": 5, "def": 4, "abilities": "Atk; Mobile"},
    {"name": "Ogre", "kind": "monster", "soul_cost": 2, "atk": 7, "def": 7, "abilities": "Atk"},
    {
        "name": "Brute",
        "kind": "monster",
        "soul_cost": 1,
        "atk": 6,
        "def": 7,
        "abilities": "Atk; Effect",
        "effect_weight": "detrimental",
        "effects": "summon: shield -1",
    },
    {
        "name": "Spitter",
        "kind": "monster",
        "soul_cost": 2,
        "atk": 4,
        "def": 5,
        "abilities": "Atk; Effect",
        "effect_weight": "powerful",
        "effects": "summon: damage 2",
    },
    {
        "name": "Caller",
        "kind": "monster",
        "soul_cost": 3,
        "atk": 5,
        "def": 8,
        "abilities": "Atk; Effect",
        "effect_weight": "powerful",
        "effects": "when summoned: draw 2",
    },
    {
        "name": "Seer",
        "kind": "monster",
        "soul_cost": 1,
        "atk": 2,
        "def": 3,
        "abilities": "Atk; Effect",
        "effect_weight": "powerful",
        "effects": "draw 1",
    },
    {
        "name": "Zapper",
        "kind": "monster",
        "soul_cost": 1,
        "atk": 0,
        "def": 4,
        "abilities": "Effect",
        "effect_weight": "powerful",
        "effects": "use: damage 3",
    },
    {
        "name": "Gunner",
        "kind": "monster",
        "soul_cost": 1,
        "atk": 3,
        "def": 3,
        "abilities": "Atk; Effect",
        "effect_weight": "powerful",
        "effects": "Use to damage 2",
    },
    {
        "name": "Firebug",
        "kind": "monster",
        "soul_cost": 1,
        "atk": 3,
        "def": 2,
        "abilities": "Atk; Effect",
        "element": "fire",
    },
    {
        "name": "Oiler",
        "kind": "monster",
        "soul_cost": 1,
        "atk": 2,
        "def": 3,
        "abilities": "Atk; Effect",
        "element": "oil",
        "effects": "apply oil",
    },
    {"name": "Totem", "kind": "monster", "soul_cost": 0, "atk": 0, "def": 5, "abilities": "Support"},
    {"name": "Bolt", "kind": "magic", "abilities": "Effect", "effects": "damage 4"},
    {"name": "Vial", "kind": "magic", "abilities": "Effect", "element": "miasma", "effects": "apply miasma"},
    {"name": "Insight", "kind": "magic", "abilities": "Effect", "effects": "draw 2"},
    {"name": "Ward", "kind": "magic", "abilities": "Effect", "effects": "shield +2"},
    {"name": "Blade", "kind": "magic", "abilities": "Equip", "effects": "atk +2"},
    {"name": "Plate", "kind": "magic", "abilities": "Equip", "effects": "def +4"},
    {
        "name": "Brand",
        "kind": "magic",
        "abilities": "Equip; Effect",
        "element": "fire",
        "effects": "atk +1; apply fire",
    },
    {
        "name": "Shackles",
        "kind": "magic",
        "abilities": "Equip",
        "effect_weight": "detrimental",
        "effects": "atk -3; def -2",
    },
    {"name": "Pit", "kind": "trap", "abilities": "Effect", "effects": "damage 3"},
    {"name": "Snare", "kind": "trap", "abilities": "Effect", "element": "oil", "effects": "apply oil"},
    {"name": "Stand", "kind": "trap", "abilities": "Effect", "effects": "shield +1"},
    {"name": "Bell", "kind": "trap", "abilities": "Effect", "effects": "draw 1"},
    {"name": "Ambush", "kind": "trap", "abilities": "Effect", "effects": "foe summons: damage 3"},
    {"name": "Counter", "kind": "trap", "abilities": "Effect", "effects": "foe activates: damage 3"},
    {
        "name": "Hex Ward",
        "kind": "trap",
        "abilities": "Effect",
        "effects": "When the opponent activates an effect: apply curse",
        "element": "curse",
    },
    {
        "name": "Sentinel",
        "kind": "monster",
        "soul_cost": 1,
        "atk": 1,
        "def": 4,
        "abilities": "Atk; Effect",
        "effect_weight": "powerful",
        "effects": "When an opposing card attacks: damage 1",
    },
    {"name": "Rune", "kind": "magic", "abilities": "Effect", "effects": "summon a wolf"},
    # "Direct attacks always deal 1 damage (-1 shield point) unless otherwise specified": cards that specify.
    {
        "name": "Raider",
        "kind": "monster",
        "soul_cost": 2,
        "atk": 3,
        "def": 3,
        "abilities": "Atk; Effect",
        "effect_weight": "powerful",
        "effects": "direct 2",
    },
    {"name": "Banner", "kind": "magic", "abilities": "Equip; Effect", "effects": "direct 3"},
    {
        "name": "Muzzle",
        "kind": "magic",
        "abilities": "Equip; Effect",
        "effect_weight": "detrimental",
        "effects": "direct 0",
    },
    {
        # Worth less than nothing to greedy: 0 Atk + 6 Def + 4 for a body - 12 for losing 12 shield points = -2.
        "name": "Husk",
        "kind": "monster",
        "soul_cost": 0,
        "atk": 0,
        "def": 6,
        "abilities": "Effect",
        "effect_weight": "detrimental",
        "effects": "shield -12",
    },
]
A, B = 0, 1
FIRE, OIL, MIASMA, CURSE = range(4)


@pytest.fixture(scope="module")
def cardset(tmp_path_factory: pytest.TempPathFactory) -> CardSet:
    path = tmp_path_factory.mktemp("souls") / "scenario.csv"
    headers = list(dict.fromkeys(key for row in ROWS for key in row))
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, headers)
        writer.writeheader()
        writer.writerows(ROWS)
    return load_cardset(path, SOULS)


class Scenario:
    """A packed match state with readable set-up helpers."""

    def __init__(self, cardset: CardSet, **options: Any) -> None:
        _, self.compiled, self.options = compile_for(cardset, options)
        self.arrays = E.MatchArrays(self.compiled, 40, 2_000)
        self.G = self.arrays.G
        self.st = self.arrays.st
        E.reset_state(self.st)
        self.st[E.G_TURN] = 3

    def id(self, name: str) -> int:
        return self.compiled.card_id(name)

    def place(self, side: int, name: str, row: int = 0, damage: int = 0) -> int:
        u = E.add_unit(self.G, self.st, side, self.id(name), row)
        self.arrays.board[side, u, E.U_DAMAGE] = damage
        self.arrays.board[side, u, E.U_SUMMONED] = 0
        return u

    def hand(self, side: int, *names: str) -> None:
        for i, name in enumerate(names):
            self.arrays.zones[side, E.Z_HAND, i] = self.id(name)
        self.arrays.sides[side, E.S_HAND] = len(names)

    def deck(self, side: int, *names: str) -> None:
        for i, name in enumerate(names):
            self.arrays.zones[side, E.Z_DECK, i] = self.id(name)
        self.arrays.sides[side, E.S_DECK_LEN] = len(names)
        self.arrays.sides[side, E.S_DECK_TOP] = 0

    def traps(self, side: int, *names: str) -> None:
        for i, name in enumerate(names):
            self.arrays.zones[side, E.Z_TRAPS, i] = self.id(name)
        self.arrays.sides[side, E.S_TRAPS] = len(names)

    def units(self, side: int) -> list[str]:
        return [
            self.compiled.names[self.arrays.board[side, u, E.U_CARD]] for u in range(self.arrays.sides[side, E.S_UNITS])
        ]

    def held(self, side: int) -> list[str]:
        return [
            self.compiled.names[self.arrays.zones[side, E.Z_HAND, i]] for i in range(self.arrays.sides[side, E.S_HAND])
        ]

    def side(self, side: int, field: EngineInt) -> int:
        return int(self.arrays.sides[side, field])

    def unit(self, side: int, u: EngineInt, field: EngineInt) -> int:
        return int(self.arrays.board[side, u, field])

    def counter(self, side: int, name: str, counter: int) -> int:
        return int(self.arrays.counters[side, self.id(name), counter])

    def lines(self) -> list[str]:
        return [E.describe_event(self.compiled, row) for row in self.arrays.events]

    def legal(self, side: int) -> list[tuple[int, ...]]:
        """`legal_actions` of `side` now, as rows (kind, a, b, c) (listed for `side`, whoever's turn the state says)."""
        out = int(self.st[E.G_ACTIONS])
        n = E.legal_actions_of(self.G, self.st, side, out, E.ALL_ACTIONS, E.NONE)
        return [tuple(int(v) for v in row) for row in self.st[out : out + 4 * n].reshape(n, 4)]

    def summon(self, side: int, hand_index: int, row: int, planned: bool = False) -> int:
        """Summon through the rule (`summon`; `planned`: on the plan `can_pay` left, as greedy does), its summon
        Trigger's open target answered as greedy answers it; the unit's index after (-1: it left play)."""
        u = E.summon(self.G, self.st, side, hand_index, row, E.PLANNED if planned else E.UNPLANNED)
        if u < 0:
            return -1
        unit_id = self.unit(side, u, E.U_ID)
        answer_open_targets(self, side)
        return int(E.find_unit(self.st, side, unit_id))

    @property
    def over(self) -> bool:
        return bool(self.st[E.G_OVER])

    @property
    def winner(self) -> int:
        return int(self.st[E.G_WINNER])


def answer_open_targets(game: Scenario, side: int) -> None:
    """Answer every target a row left open as greedy answers it (`greedy_answer`), each through `apply_of`."""
    while int(game.st[E.G_PENDING]) != E.PENDING_NONE and not game.over:
        E.apply_of(game.G, game.st, side, E.greedy_answer(game.G, game.st, side))


def greedy_supports_and_moves(game: Scenario, side: int) -> None:
    """Greedy's Support phase, then its moves, each played alone (`greedy_phase`)."""
    E.greedy_phase(game.G, game.st, side, E.PHASE_SUPPORTS)
    E.greedy_phase(game.G, game.st, side, E.PHASE_MOVES)


def turn_by(game: Scenario, decide: Any, context: Any = 0) -> None:
    """The rest of the open turn, each decision by `decide(G, st, context)` (the engine's `decide`, or
    `decide_searched` with the search's buffers) taken by `apply`, up to its "end the turn", which is not taken."""
    while not game.over:
        row = int(decide(game.G, game.st, context))
        if int(game.st[row]) == E.A_END:
            return
        E.apply(game.G, game.st, row)


# Rows and range ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attacker", "attacker_row", "own_front", "defender_rows", "target_row", "collapse", "reaches"),
    [
        # "a Monster in the first row can attack another Monster in the first row on the opponent's field"
        ("Grunt", 0, False, (0,), 0, True, True),
        # "a Monster in the second row cannot reach any cards ... unless it has a range of at least 2"
        ("Grunt", 1, True, (0,), 0, True, False),
        ("Archer", 1, True, (0,), 0, True, True),
        # range 1 never reaches the second row while the first holds a card
        ("Grunt", 0, False, (0, 1), 1, True, False),
        ("Archer", 0, False, (0, 1), 1, True, True),
        ("Archer", 1, True, (0, 1), 1, True, False),
        ("Sniper", 1, True, (0, 1), 1, True, True),
        ("Sniper", 2, True, (0, 1, 2), 2, True, False),
        # "if your first row is empty, then Monsters in the first row of your opponent's field can attack cards in
        # your second row as if it was your first row"
        ("Grunt", 0, False, (1,), 1, True, True),
        ("Grunt", 0, False, (2,), 2, True, True),
        # "if the opponent has any Monsters in the second row, they may attack cards in your first row (even with a
        # Range of 1)": the attacker's own empty first row is ignored too ...
        ("Grunt", 1, False, (0,), 0, True, True),
        ("Grunt", 2, False, (0,), 0, True, True),
        # ... unless the option reads the rule for the defender only
        ("Grunt", 1, False, (0,), 0, False, False),
        ("Archer", 1, False, (0,), 0, False, True),
        # a card without Atk never attacks
        ("Totem", 0, False, (0,), 0, True, False),
    ],
)
def test_range_and_the_empty_row_rule(
    cardset: CardSet,
    attacker: str,
    attacker_row: int,
    own_front: bool,
    defender_rows: tuple[int, ...],
    target_row: int,
    collapse: bool,
    reaches: bool,
) -> None:
    game = Scenario(cardset, attacker_rows_collapse=collapse)
    if own_front:
        game.place(A, "Wall", 0)
    u = game.place(A, attacker, attacker_row)
    target = -1
    for row in defender_rows:
        v = game.place(B, "Wall", row)
        if row == target_row:
            target = v
    assert bool(E.in_range(game.G, game.st, A, u, target)) is reaches


@pytest.mark.parametrize(
    ("direct_attack", "attacker", "attacker_row", "defender_rows", "allowed"),
    [
        ("always", "Grunt", 0, (0, 1, 2), True),  # the document sets no condition on a direct attack
        ("always", "Totem", 0, (), False),  # ... but it is an attack: it needs Atk
        ("reach", "Grunt", 0, (), True),  # an empty field: the player is one row away
        ("reach", "Grunt", 0, (0,), False),
        ("reach", "Archer", 0, (0,), True),
        ("reach", "Archer", 0, (0, 2), False),
        ("reach", "Sniper", 0, (0, 1), True),
        ("reach", "Sniper", 1, (0, 1), True),  # its own first row is empty: it stands in front
    ],
)
def test_direct_attack_readings(
    cardset: CardSet,
    direct_attack: str,
    attacker: str,
    attacker_row: int,
    defender_rows: tuple[int, ...],
    allowed: bool,
) -> None:
    game = Scenario(cardset, direct_attack=direct_attack)
    u = game.place(A, attacker, attacker_row)
    for row in defender_rows:
        game.place(B, "Wall", row)
    assert bool(E.can_attack_player(game.G, game.st, A, u)) is allowed


@pytest.mark.parametrize(("row_slots", "rows_offered"), [(1, [1, 2]), (2, [0, 1, 2]), (3, [0, 1, 2])])
def test_three_rows_and_the_row_size_option(cardset: CardSet, row_slots: int, rows_offered: list[int]) -> None:
    game = Scenario(cardset, row_slots=row_slots)
    game.place(A, "Wall", 0)
    game.hand(A, "Grunt")
    assert sorted(row[2] for row in game.legal(A) if row[0] == E.A_SUMMON) == rows_offered


# Summoning and sacrifices ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sacrifice_from", "field", "hand", "summon", "payable", "field_after", "hand_after"),
    [
        # "Soul Cost == required number of sacrifices to summon"; a soul cost of 0 needs none
        ("either", [], ["Grunt"], "Grunt", True, ["Grunt"], []),
        ("field", [], ["Grunt"], "Grunt", True, ["Grunt"], []),
        ("either", ["Wall", "Grunt"], ["Ogre"], "Ogre", True, ["Ogre"], []),
        ("field", ["Wall"], ["Ogre", "Pike"], "Ogre", False, ["Wall"], ["Ogre", "Pike"]),
        ("hand", ["Wall", "Grunt"], ["Ogre", "Pike"], "Ogre", False, ["Wall", "Grunt"], ["Ogre", "Pike"]),
        ("hand", [], ["Ogre", "Pike", "Bolt"], "Ogre", True, ["Ogre"], []),
        ("hand", [], ["Pike", "Ogre", "Bolt"], "Ogre", True, ["Ogre"], []),  # a sacrifice on each side of the card
        # either: the weakest of all. Grunt in play is worth 3 + 2 + 4 = 9; a hand card half its worth: Bolt 6 / 2 = 3,
        # Pike (4 + 4 + 4) / 2 = 6. So Bolt and Pike go, Grunt stays.
        ("either", ["Grunt"], ["Ogre", "Pike", "Bolt"], "Ogre", True, ["Grunt", "Ogre"], []),
        ("either", ["Grunt", "Wall"], ["Ogre", "Sniper"], "Ogre", True, ["Ogre"], ["Sniper"]),  # Sniper 22 / 2 = 11 > 9
        ("either", ["Grunt"], ["Sniper", "Bolt"], "Sniper", False, ["Grunt"], ["Sniper", "Bolt"]),
    ],
)
@pytest.mark.parametrize("planned", [False, True])
def test_summoning_sacrifices_the_soul_cost(
    cardset: CardSet,
    planned: bool,
    sacrifice_from: str,
    field: list[str],
    hand: list[str],
    summon: str,
    payable: bool,
    field_after: list[str],
    hand_after: list[str],
) -> None:
    game = Scenario(cardset, sacrifice_from=sacrifice_from)
    for name in field:
        game.place(A, name, 0)
    game.hand(A, *hand)
    index = hand.index(summon)
    assert bool(E.can_pay(game.G, game.st, A, index)) is payable
    if payable:
        # Paid on the plan `can_pay` just left (greedy's way) or planned again by the rule: the same sacrifices.
        game.summon(A, index, 1, planned)
        assert game.counter(A, summon, PLAYED) == 1
        assert game.side(A, E.S_SUMMONS) == 1
    assert sorted(game.units(A)) == sorted(field_after)
    assert game.held(A) == hand_after


def test_a_summoned_monster_goes_to_its_row_and_sacrifices_free_their_rows(cardset: CardSet) -> None:
    game = Scenario(cardset, row_slots=1)
    game.place(A, "Grunt", 0)
    game.place(A, "Wall", 1)
    game.hand(A, "Ogre")
    assert E.can_pay(game.G, game.st, A, 0) and E.room_in_row(game.G, game.st, A, 0)  # the front row frees up
    game.summon(A, 0, 0)
    assert game.units(A) == ["Ogre"] and game.side(A, E.S_ROW0) == 1 and game.side(A, E.S_ROW1) == 0
    assert game.lines()[-3:] == [
        "A sacrifices Wall from row 2.",
        "A sacrifices Grunt from row 1.",
        "A summons Ogre (7/7, soul cost 2) to row 1, sacrificing 2.",
    ]


@pytest.mark.parametrize(("summons_per_turn", "summoned"), [(1, 1), (2, 2), (0, 3)])
def test_summons_per_turn(cardset: CardSet, summons_per_turn: int, summoned: int) -> None:
    game = Scenario(cardset, summons_per_turn=summons_per_turn)
    game.hand(A, "Grunt", "Wall", "Totem")
    E.greedy_phase(game.G, game.st, A, E.PHASE_SUMMONS)
    assert len(game.units(A)) == summoned


@pytest.mark.parametrize(
    ("name", "foe_row", "foe_damage", "events"),
    [
        # "summon: damage N": N damage to a target opposing card, in any row (the document names no row)
        ("Spitter", 0, 0, ["A's Spitter deals 2 damage to B's Grunt.", "B's Grunt is destroyed (2 damage)."]),
        ("Spitter", 2, 0, ["A's Spitter deals 2 damage to B's Grunt.", "B's Grunt is destroyed (2 damage)."]),
        ("Brute", 0, 0, ["A's shield -1 -> 7."]),  # a detrimental effect: lose a shield point
        ("Caller", 0, 0, ["A draws Pike.", "A draws Ogre."]),
    ],
)
def test_effects_when_summoned(cardset: CardSet, name: str, foe_row: int, foe_damage: int, events: list[str]) -> None:
    game = Scenario(cardset, sacrifice_from="hand")
    game.place(B, "Grunt", foe_row, foe_damage)
    game.deck(A, "Pike", "Ogre")
    game.hand(A, name, "Bolt", "Bolt", "Bolt")
    game.summon(A, 0, 0)
    lines = game.lines()
    assert lines[-len(events) :] == events


# Effects: once per turn, by using the card, or on a Trigger ----------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "timing"),
    [
        # "... or else the effect can only be activated on your turn. If the effect uses the card, it will indicate so
        # (e.g. "Use to ..."), otherwise, the effect can only be activated once per turn."
        ("draw 1", E.T_PLAIN),
        ("use: damage 3", E.T_USE),
        ("Use to damage 3", E.T_USE),
        # "Effects with Trigger conditions": a summon Trigger.
        ("summon: damage 2", E.T_SUMMON),
        ("When summoned: draw 2", E.T_SUMMON),
        ("on summon: shield -1", E.T_SUMMON),
    ],
)
def test_an_effect_says_when_it_is_activated(cell: str, timing: int) -> None:
    from workbench.rulesets.souls.effects import parse_effects

    (effect,), unknown = parse_effects(cell)
    assert effect.timing == timing and unknown == []


def test_an_effect_without_a_prefix_is_activated_once_per_turn_without_using_the_card(cardset: CardSet) -> None:
    game = Scenario(cardset)
    seer = game.place(A, "Seer", 0)
    game.deck(A, "Pike", "Ogre", "Wall")
    assert E.can_activate(game.G, game.st, A, seer, E.T_PLAIN)
    E.activate(game.G, game.st, A, seer, E.T_PLAIN, -1)
    assert game.held(A) == ["Pike"] and game.lines()[-2:] == [
        "A activates Seer's effect (once this turn).",
        "A draws Pike.",
    ]
    assert not E.can_activate(game.G, game.st, A, seer, E.T_PLAIN)  # once per turn
    assert E.can_use(game.G, game.st, A, seer)  # it did not use the card: it can still attack
    E.end_turn(game.G, game.st, A)
    E.start_turn(game.G, game.st, A)  # draws Ogre
    assert E.can_activate(game.G, game.st, A, seer, E.T_PLAIN)  # again on the next turn: repeatable, not once on summon
    E.activate(game.G, game.st, A, seer, E.T_PLAIN, -1)
    assert game.held(A) == ["Pike", "Ogre", "Wall"]


def test_a_use_effect_uses_the_card(cardset: CardSet) -> None:
    game = Scenario(cardset)
    gunner = game.place(A, "Gunner", 0)
    wall = game.place(B, "Wall", 2)  # any opposing card, whatever its row
    assert E.can_activate(game.G, game.st, A, gunner, E.T_USE) and not E.can_activate(
        game.G, game.st, A, gunner, E.T_PLAIN
    )
    E.activate(game.G, game.st, A, gunner, E.T_USE, wall)
    assert game.unit(B, wall, E.U_DAMAGE) == 2
    assert game.lines()[-2:] == ["A uses Gunner for its effect.", "A's Gunner deals 2 damage to B's Wall."]
    assert not E.can_use(game.G, game.st, A, gunner)  # "Each card can be used once per turn": no attack after it
    assert not E.can_activate(game.G, game.st, A, gunner, E.T_USE)


def test_a_summon_trigger_fires_once_and_is_not_activated_again(cardset: CardSet) -> None:
    game = Scenario(cardset, sacrifice_from="hand")
    game.place(B, "Wall", 1)
    game.hand(A, "Spitter", "Bolt", "Bolt")
    u = game.summon(A, 0, 0)
    assert game.unit(B, 0, E.U_DAMAGE) == 2
    assert not E.can_activate(game.G, game.st, A, u, E.T_PLAIN) and not E.can_activate(game.G, game.st, A, u, E.T_USE)


def test_the_policies_choose_activated_effects(cardset: CardSet) -> None:
    game = Scenario(cardset)
    game.place(A, "Seer", 0)
    zapper = game.place(A, "Zapper", 2)
    game.place(B, "Pike", 0, damage=1)
    game.deck(A, "Ogre")
    # Random: every activation is a legal action (Seer's once-per-turn draw; Zapper's use, at each opposing card).
    assert sorted(row for row in game.legal(A) if row[0] == E.A_ACTIVATE) == [
        (E.A_ACTIVATE, 0, -1, E.T_PLAIN),
        (E.A_ACTIVATE, zapper, 0, E.T_USE),
    ]
    # Greedy: draws with Seer, and Zapper (no Atk) uses its 3 damage to destroy the damaged Pike.
    E.greedy_phase(game.G, game.st, A, E.PHASE_ACTIVATIONS)
    assert game.held(A) == ["Ogre"] and game.units(B) == []


def test_a_prefix_off_a_monster_is_reported_and_not_simulated(cardset: CardSet, make_cardset: MakeCardSet) -> None:
    rows = [{"name": "Odd Charm", "kind": "magic", "abilities": "Effect", "effects": "use: draw 1"}]
    odd = make_cardset(SOULS, rows)
    _, compiled, _ = compile_for(odd, {})
    (finding,) = [f for f in compiled.findings if f.rule == "souls.effect_not_simulated"]
    assert "use: draw 1" in finding.message


# Triggers and reactions ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "kind", "timing"),
    [
        # "Some cards have effects that are preceded by a Trigger/ value. At the moment the condition indicated by the
        # trigger is fulfilled, the associated effect can be activated."
        ("damage 3", "trap", E.T_FOE_ATTACKS),  # the bundled traps: "Trigger/ An opposing card attacks"
        ("foe attacks: damage 3", "trap", E.T_FOE_ATTACKS),
        (
            "When an opposing card attacks: damage 1",
            "monster",
            E.T_FOE_ATTACKS,
        ),  # "some Monsters also have ... Triggers"
        ("foe summons: damage 3", "trap", E.T_FOE_SUMMONS),
        ("an opposing monster is summoned: apply oil", "trap", E.T_FOE_SUMMONS),
        # "When a card is used to attack or activate an effect, the opponent can react by activating an effect of
        # their own. This is only possible if the effect is bound by a Trigger condition."
        ("foe activates: damage 3", "trap", E.T_FOE_ACTIVATES),
        ("When the opponent activates an effect: apply curse", "monster", E.T_FOE_ACTIVATES),
    ],
)
def test_a_trigger_says_what_it_reacts_to(cell: str, kind: str, timing: int) -> None:
    from workbench.rulesets.souls.effects import as_played, parse_effects

    (effect,), unknown = parse_effects(cell)
    assert as_played(effect, kind).timing == timing and unknown == []


def test_a_trap_springs_on_its_own_trigger_not_on_the_next_attack(cardset: CardSet) -> None:
    game = Scenario(cardset, sacrifice_from="hand")
    game.traps(B, "Ambush", "Pit")  # Ambush is older, but it waits for a summon
    grunt = game.place(A, "Grunt", 0)
    E.attack(game.G, game.st, A, grunt, -1)
    assert game.lines()[-3:] == [
        "B's trap Pit springs on A's Grunt.",
        "B's Pit deals 3 damage to A's Grunt.",
        "A's Grunt is destroyed (3 damage).",
    ]
    assert game.side(B, E.S_TRAPS) == 1 and game.compiled.names[game.arrays.zones[B, E.Z_TRAPS, 0]] == "Ambush"
    game.hand(A, "Ogre", "Bolt", "Bolt")
    game.summon(A, 0, 1)
    assert "B's trap Ambush springs on A's Ogre (summoned)." in game.lines()
    assert game.unit(A, 0, E.U_DAMAGE) == 3 and game.side(B, E.S_TRAPS) == 0


def test_a_trap_reacts_to_an_effect_before_it_resolves(cardset: CardSet) -> None:
    game = Scenario(cardset)
    game.traps(B, "Counter")
    gunner = game.place(A, "Gunner", 0)
    wall = game.place(B, "Wall", 0)
    E.activate(game.G, game.st, A, gunner, E.T_USE, wall)
    # The reaction destroys Gunner (3 damage, Def 3) before its effect resolves: the Wall takes nothing.
    assert game.units(A) == [] and game.unit(B, wall, E.U_DAMAGE) == 0
    assert game.lines()[-3:] == [
        "B's trap Counter springs on A's Gunner (its effect).",
        "B's Counter deals 3 damage to A's Gunner.",
        "A's Gunner is destroyed (3 damage).",
    ]


def test_a_trap_reacts_to_a_magic_card(cardset: CardSet) -> None:
    game = Scenario(cardset)
    game.traps(B, "Hex Ward")
    game.deck(A, "Pike", "Ogre")
    game.hand(A, "Insight")
    E.cast_spell(game.G, game.st, A, 0, -1, E.UNPLANNED)
    assert game.side(A, E.S_STANDARD) == CURSE and game.held(A) == ["Pike", "Ogre"]  # cursed, then the draw resolves


def test_a_monster_with_a_trigger_reacts_once_a_turn(cardset: CardSet) -> None:
    game = Scenario(cardset)
    game.place(B, "Sentinel", 0)
    first = game.place(A, "Grunt", 0)
    second = game.place(A, "Wall", 0)
    E.attack(game.G, game.st, A, first, -1)
    assert "B's Sentinel reacts to A's Grunt." in game.lines() and game.unit(A, first, E.U_DAMAGE) == 1
    E.attack(game.G, game.st, A, second, -1)
    assert game.unit(A, second, E.U_DAMAGE) == 0  # it already reacted this turn
    E.end_turn(game.G, game.st, A)
    E.start_turn(game.G, game.st, B)
    E.end_turn(game.G, game.st, B)
    E.start_turn(game.G, game.st, A)
    E.attack(game.G, game.st, A, second, -1)
    assert game.unit(A, second, E.U_DAMAGE) == 1  # a new turn: it reacts again


def test_greedy_goes_for_the_player_past_traps_that_wait_for_something_else(cardset: CardSet) -> None:
    game = Scenario(cardset)
    game.arrays.sides[B, E.S_SHIELD] = 1
    game.traps(B, "Ambush")  # bound to a summon: no threat to an attack
    game.place(A, "Grunt", 0)
    game.place(B, "Wall", 0, damage=3)  # Grunt could destroy it instead
    E.greedy_phase(game.G, game.st, A, E.PHASE_ATTACKS)
    assert game.over and game.winner == A


# Readings of the document's words (ruleset 1.3 defaults) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "default", "words"),
    [
        # Each default, and the document's words it rests on (they must be in the ledger's quote).
        ("sacrifice_from", "field", "You control the cards you summon."),
        ("burning_turns", 0, "Burning (fire + oil): 1 direct damage / turn"),
        ("status_ticks", "every_turn", "at the beginning of each turn, take 1 direct damage"),
        (
            "combo_consumes",
            False,
            "any subsequent elemental status applications of any other element incur a combo status",
        ),
        # No limit: a summon's price is its sacrifices, and the once-per-turn limit is on using cards you control.
        ("summons_per_turn", 0, "Soul Cost == required number of sacrifices to summon"),
        ("summons_per_turn", 0, "Each card can be used once per turn. You can only use a card that you control."),
    ],
)
def test_the_ledger_defaults_rest_on_the_documents_words(key: str, default: object, words: str) -> None:
    option = {option.key: option for option in SOULS.options}[key]
    assert option.default == default
    assert words in option.quote


def test_one_summon_a_turn_is_a_house_rule_the_ledger_says_so() -> None:
    option = {option.key: option for option in SOULS.options}["summons_per_turn"]
    assert "house rule" in option.reading and "(no summoning limit" not in option.quote


@pytest.mark.parametrize(
    ("options", "summoned", "summon_rows_left"),
    [
        # "Soul Cost == required number of sacrifices to summon": the only price of a summon; "Each card can be used
        # once per turn" limits cards you control ("You control the cards you summon"), not cards in your hand.
        ({}, ["Grunt", "Wall", "Totem"], 0),
        # The house rule: one summon a turn. The hand's two other zero-cost monsters wait.
        ({"summons_per_turn": 1}, ["Grunt"], 0),
        ({"summons_per_turn": 2}, ["Grunt", "Wall"], 0),
    ],
)
def test_summoning_has_no_limit_but_its_sacrifices_by_default(
    cardset: CardSet, options: dict[str, Any], summoned: list[str], summon_rows_left: int
) -> None:
    game = Scenario(cardset, **options)
    game.hand(A, "Grunt", "Wall", "Totem")
    for _ in range(3):
        rows = [row for row in game.legal(A) if row[0] == E.A_SUMMON]
        if not rows:
            break
        game.summon(A, rows[0][1], rows[0][2])
    assert game.units(A) == summoned
    assert len([row for row in game.legal(A) if row[0] == E.A_SUMMON]) == summon_rows_left
    E.end_turn(game.G, game.st, A)
    E.start_turn(game.G, game.st, A)  # a new turn: under the house rule the next summon is legal again
    assert bool([row for row in game.legal(A) if row[0] == E.A_SUMMON]) == (len(summoned) < 3)


def test_sacrifices_are_cards_you_control_by_default(cardset: CardSet) -> None:
    # "You control the cards you summon": a soul cost is paid with monsters in play, never with the hand ...
    game = Scenario(cardset)
    game.hand(A, "Pike", "Bolt", "Bolt")
    assert not E.can_pay(game.G, game.st, A, 0)
    # ... and a soul cost of 0 needs no sacrifice, so zero-cost cards bootstrap the field: with no summoning limit
    # (the default) the Grunt summoned this turn is the Pike's sacrifice the same turn.
    game.hand(A, "Grunt", "Pike")
    E.greedy_phase(game.G, game.st, A, E.PHASE_SUMMONS)
    assert game.units(A) == ["Pike"]
    assert game.lines()[-3:] == [
        "A summons Grunt (3/2, soul cost 0) to row 1.",
        "A sacrifices Grunt from row 1.",
        "A summons Pike (4/4, soul cost 1) to row 1, sacrificing 1.",
    ]


def test_burning_strikes_every_turn_until_the_match_ends_by_default(cardset: CardSet) -> None:
    # "Burning (fire + oil): 1 direct damage / turn", at the beginning of each turn, both players' turns.
    game = Scenario(cardset)
    E.apply_element(game.G, game.st, B, FIRE, -1)
    E.apply_element(game.G, game.st, B, OIL, -1)
    shields = []
    for side in (A, B, A, B, A, B):
        E.start_turn(game.G, game.st, side)
        shields.append(game.side(B, E.S_SHIELD))
        E.end_turn(game.G, game.st, side)
    assert shields == [7, 6, 5, 4, 3, 2]


def test_a_standard_status_stays_and_every_later_element_makes_a_combo_by_default(cardset: CardSet) -> None:
    # "If a player already has a standard elemental status e.g. fire applied, then any subsequent elemental status
    # applications of any other element incur a combo status."
    game = Scenario(cardset)
    E.apply_element(game.G, game.st, B, FIRE, -1)
    E.apply_element(game.G, game.st, B, OIL, -1)  # fire + oil = Burning
    E.apply_element(game.G, game.st, B, MIASMA, -1)  # fire + miasma = Explosion: 1 direct damage
    E.apply_element(game.G, game.st, B, CURSE, -1)  # fire + curse = Everflame
    assert game.side(B, E.S_STANDARD) == FIRE
    assert [line.split(": ")[-1] for line in game.lines() if "makes" not in line and "=" in line] == [
        "fire + oil = Burning.",
        "fire + miasma = Explosion.",
        "fire + curse = Everflame.",
    ]
    assert game.side(B, E.S_SHIELD) == 7 and game.side(B, E.S_EVERFLAME) == 1


# Using cards ------------------------------------------------------------------------------------------------------


def test_each_card_is_used_once_per_turn(cardset: CardSet) -> None:
    game = Scenario(cardset)
    u = game.place(A, "Grunt", 0)
    assert E.can_use(game.G, game.st, A, u)
    E.attack(game.G, game.st, A, u, -1)
    assert not E.can_use(game.G, game.st, A, u)
    assert game.legal(A) == [(E.A_END, 0, 0, 0)]  # nothing left to do with it this turn but end it
    E.end_turn(game.G, game.st, A)
    E.start_turn(game.G, game.st, A)
    assert E.can_use(game.G, game.st, A, u)


@pytest.mark.parametrize(("sickness", "usable"), [(False, True), (True, False)])
def test_summoning_sickness(cardset: CardSet, sickness: bool, usable: bool) -> None:
    game = Scenario(cardset, summoning_sickness=sickness)
    game.hand(A, "Grunt")
    u = game.summon(A, 0, 0)
    assert bool(E.can_use(game.G, game.st, A, u)) is usable
    game.st[E.G_TURN] += 2
    assert E.can_use(game.G, game.st, A, u)


# Damage against Def ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attacker", "target", "earlier_damage", "destroy_when", "destroyed", "damage_left"),
    [
        ("Grunt", "Wall", 0, "reaches", False, 3),  # 3 Atk against 4 Def
        ("Pike", "Wall", 0, "reaches", True, None),  # 4 against 4
        ("Pike", "Wall", 0, "exceeds", False, 4),
        ("Scout", "Wall", 0, "exceeds", True, None),  # 5 against 4
        ("Grunt", "Wall", 1, "reaches", True, None),  # damage adds up
    ],
)
def test_an_attack_deals_atk_as_damage_against_def(
    cardset: CardSet,
    attacker: str,
    target: str,
    earlier_damage: int,
    destroy_when: str,
    destroyed: bool,
    damage_left: int | None,
) -> None:
    game = Scenario(cardset, destroy_when=destroy_when)
    u = game.place(A, attacker, 0)
    v = game.place(B, target, 0, earlier_damage)
    E.attack(game.G, game.st, A, u, v)
    assert (game.units(B) == []) is destroyed
    if not destroyed:
        assert game.unit(B, v, E.U_DAMAGE) == damage_left
    assert game.counter(B, target, DESTROYED) == int(destroyed)
    assert game.counter(A, attacker, ATTACKED) == 1
    assert game.counter(A, attacker, DAMAGE_DEALT) == game.compiled.table[game.id(attacker), E.C_ATK]
    assert game.side(B, E.S_SHIELD) == 8  # the target card takes it, not the player


@pytest.mark.parametrize(("persists", "damage_after"), [(True, 3), (False, 0)])
def test_damage_persists_or_heals_at_the_end_of_the_turn(cardset: CardSet, persists: bool, damage_after: int) -> None:
    game = Scenario(cardset, damage_persists=persists)
    u = game.place(A, "Grunt", 0)
    v = game.place(B, "Wall", 0)
    E.attack(game.G, game.st, A, u, v)
    E.end_turn(game.G, game.st, A)
    assert game.unit(B, v, E.U_DAMAGE) == damage_after


# Support, Mobile, Equip ---------------------------------------------------------------------------------------------


def test_support_adds_one_atk_for_one_turn(cardset: CardSet) -> None:
    game = Scenario(cardset)
    s = game.place(A, "Drummer", 1)
    u = game.place(A, "Grunt", 0)
    v = game.place(B, "Wall", 0)
    assert E.support_turns_into_kill(game.G, game.st, A, u)  # 3 Atk against 4 Def: +1 destroys it
    greedy_supports_and_moves(game, A)
    assert game.lines() == ["A's Drummer supports Grunt: +1 Atk this turn."]
    assert E.unit_atk(game.G, game.st, A, u) == 4 and not E.can_use(game.G, game.st, A, s)
    E.attack(game.G, game.st, A, u, v)
    assert game.units(B) == []
    E.end_turn(game.G, game.st, A)
    assert E.unit_atk(game.G, game.st, A, u) == 3


def test_a_card_that_can_destroy_something_itself_attacks_instead_of_supporting(cardset: CardSet) -> None:
    game = Scenario(cardset)
    game.place(A, "Drummer", 0)
    game.place(A, "Grunt", 0)
    game.place(B, "Wall", 0, 2)  # 2 damage on it: the Drummer's 3 Atk destroys it
    greedy_supports_and_moves(game, A)
    assert game.lines() == []


@pytest.mark.parametrize(("row", "moves"), [(0, [1]), (1, [0, 2]), (2, [1])])
def test_mobile_moves_one_row_forward_or_back(cardset: CardSet, row: int, moves: list[int]) -> None:
    game = Scenario(cardset)
    u = game.place(A, "Scout", row)
    assert sorted(r[2] for r in game.legal(A) if r[0] == E.A_MOVE) == moves
    E.move_unit(game.st, A, u, moves[0])
    assert game.unit(A, u, E.U_ROW) == moves[0] and not E.can_use(game.G, game.st, A, u)


def test_greedy_steps_forward_when_nothing_is_in_reach(cardset: CardSet) -> None:
    game = Scenario(cardset, direct_attack="reach")
    game.place(A, "Wall", 0)
    u = game.place(A, "Scout", 1)
    game.place(B, "Wall", 0)
    greedy_supports_and_moves(game, A)
    assert game.unit(A, u, E.U_ROW) == 0 and game.lines() == ["A's Scout moves to row 1."]


@pytest.mark.parametrize(
    ("equipment", "host_side", "atk", "defense", "destroyed"),
    [("Blade", A, 5, 2, False), ("Plate", A, 3, 6, False), ("Shackles", B, 0, 0, True), ("Brand", A, 4, 2, False)],
)
def test_equipment_changes_the_card_it_is_attached_to(
    cardset: CardSet, equipment: str, host_side: int, atk: int, defense: int, destroyed: bool
) -> None:
    game = Scenario(cardset)
    host = game.place(host_side, "Grunt", 0)
    game.hand(A, equipment)
    E.equip(game.G, game.st, A, 0, host_side, host, -1)
    assert game.held(A) == []  # equipping uses the equipment card
    if destroyed:  # Def 2 - 2 = 0: nothing left
        assert game.units(host_side) == []
        return
    assert (E.unit_atk(game.G, game.st, host_side, host), E.unit_def(game.G, game.st, host_side, host)) == (
        atk,
        defense,
    )
    assert E.can_use(game.G, game.st, host_side, host)  # the host is not used by being equipped


def test_greedy_puts_bonuses_on_its_strongest_attacker_and_penalties_on_the_opponents(cardset: CardSet) -> None:
    game = Scenario(cardset)
    game.place(A, "Grunt", 0)
    game.place(A, "Ogre", 0)
    game.place(B, "Wall", 0)
    game.place(B, "Pike", 0)
    game.hand(A, "Blade", "Shackles")
    E.greedy_phase(game.G, game.st, A, E.PHASE_EQUIPS)
    assert game.lines() == ["A equips Blade to A's Ogre.", "A equips Shackles to B's Pike."]


# Shields, direct attacks, winning -----------------------------------------------------------------------------------


def test_direct_attacks_deal_one_whatever_the_atk_and_an_empty_shield_loses(cardset: CardSet) -> None:
    game = Scenario(cardset)
    u = game.place(A, "Ogre", 0)
    assert game.side(B, E.S_SHIELD) == 8  # "Each player begins the game with 8 shield points."
    E.attack(game.G, game.st, A, u, -1)
    assert game.side(B, E.S_SHIELD) == 7 and game.counter(A, "Ogre", DAMAGE_DEALT) == 1
    game.arrays.sides[B, E.S_SHIELD] = 1
    game.arrays.board[A, u, E.U_USED] = 0
    E.attack(game.G, game.st, A, u, -1)
    assert game.over and game.winner == A


@pytest.mark.parametrize(
    ("attacker", "equipment", "dealt", "line"),
    [
        # "Direct attacks always deal 1 damage (-1 shield point) unless otherwise specified, regardless of the card's
        # Attack value."
        ("Ogre", None, 1, "A's Ogre attacks B directly."),
        ("Ogre", "Blade", 1, "A's Ogre attacks B directly."),  # more Atk, still 1
        # "... unless otherwise specified": the card's own text (`direct 2`) ...
        ("Raider", None, 2, "A's Raider attacks B directly for 2."),
        # ... or an Equip card's, whose "effect will constantly be active as long as it is equipped" (`direct N`
        # replaces what the host's direct attacks dealt, its own text included) ...
        ("Ogre", "Banner", 3, "A's Ogre attacks B directly for 3."),
        ("Raider", "Banner", 3, "A's Raider attacks B directly for 3."),
        # ... down to nothing (`direct 0`): the shield keeps its points.
        ("Raider", "Muzzle", 0, "A's Raider attacks B directly for 0."),
    ],
)
def test_direct_attacks_deal_one_unless_a_card_specifies_otherwise(
    cardset: CardSet, attacker: str, equipment: str | None, dealt: int, line: str
) -> None:
    game = Scenario(cardset)
    u = game.place(A, attacker, 0)
    if equipment is not None:
        game.hand(A, equipment)
        E.equip(game.G, game.st, A, 0, A, u, -1)
    E.attack(game.G, game.st, A, u, -1)
    assert game.side(B, E.S_SHIELD) == 8 - dealt and game.counter(A, attacker, DAMAGE_DEALT) == dealt
    assert line in game.lines()
    assert any("B's shield" in text for text in game.lines()) == (dealt > 0)


def test_a_direct_attack_for_more_than_one_can_empty_the_shield(cardset: CardSet) -> None:
    game = Scenario(cardset)
    u = game.place(A, "Raider", 0)
    game.arrays.sides[B, E.S_SHIELD] = 2
    E.attack(game.G, game.st, A, u, -1)
    assert game.over and game.winner == A


def test_greedy_counts_specified_direct_damage_when_it_can_empty_the_shield(cardset: CardSet) -> None:
    game = Scenario(cardset)
    game.place(A, "Raider", 0)
    game.place(B, "Grunt", 0)  # Raider could destroy it instead (3 Atk against 2 Def)
    game.arrays.sides[B, E.S_SHIELD] = 2  # one attacker, but `direct 2` empties it
    E.greedy_phase(game.G, game.st, A, E.PHASE_ATTACKS)
    assert game.over and game.winner == A and game.units(B) == ["Grunt"]


def test_greedy_puts_more_direct_damage_on_its_attacker_and_none_on_the_opponents(cardset: CardSet) -> None:
    game = Scenario(cardset)
    mine = game.place(A, "Ogre", 0)
    theirs = game.place(B, "Raider", 0)
    game.hand(A, "Banner", "Muzzle")
    E.greedy_phase(game.G, game.st, A, E.PHASE_EQUIPS)
    assert game.unit(A, mine, E.U_DIRECT) == 3 and game.unit(B, theirs, E.U_DIRECT) == 0
    assert game.lines() == ["A equips Banner to A's Ogre.", "A equips Muzzle to B's Raider."]


@pytest.mark.parametrize(
    ("kind", "abilities", "cell", "not_simulated"),
    [
        # `direct N` is a standing property of a monster or of what an Equip card is attached to ...
        ("monster", "Atk; Effect", "direct 2", ""),
        ("magic", "Equip; Effect", "direct 2", ""),
        # ... and nothing the vocabulary can say on other cards or as an activated effect.
        ("magic", "Effect", "direct 2", "direct 2"),
        ("trap", "Effect", "direct 2", "direct 2"),
        ("monster", "Atk; Effect", "use: direct 2", "use: direct 2"),
        # What the document's words allow a card to say but the vocabulary cannot is reported, never approximated:
        # a magic card's direct damage to the opponent ("Direct attacks always deal 1 ... unless otherwise
        # specified" speaks of attacks), removing a status ("much harder to remove than Burning status": no card
        # text for removal is given), a Trigger beyond the three (an attack, a summon, an effect's activation).
        ("magic", "Effect", "deal 2 direct damage", "deal 2 direct damage"),
        ("monster", "Atk; Effect", "direct +1", "direct +1"),
        ("magic", "Effect", "remove burning", "remove burning"),
        ("magic", "Effect", "draw 1; remove all statuses", "remove all statuses"),
        ("trap", "Effect", "When a card is destroyed: draw 1", "When a card is destroyed: draw 1"),
        ("monster", "Atk; Effect", "foe attacks directly: damage 1", "foe attacks directly: damage 1"),
    ],
)
def test_card_text_outside_the_vocabulary_is_reported_not_approximated(
    make_cardset: MakeCardSet, kind: str, abilities: str, cell: str, not_simulated: str
) -> None:
    row: dict[str, Any] = {"name": "Odd", "kind": kind, "abilities": abilities, "effects": cell}
    if kind == "monster":
        row |= {"soul_cost": 1, "atk": 3, "def": 3}
    odd = make_cardset(SOULS, [row])
    _, compiled, _ = compile_for(odd, {})
    findings = [f for f in compiled.findings if f.rule == "souls.effect_not_simulated"]
    assert [f.actual for f in findings] == ([not_simulated] if not_simulated else [])
    from workbench.rulesets.souls.effects import OP_DIRECT, parse_effects

    kept = [int(op) for op in compiled.extra["fx"][0, :, 0] if op >= 0]
    assert (OP_DIRECT in kept) == (not_simulated == "" and "direct" in cell)
    assert parse_effects(cell)[1] == ([] if cell.startswith(("direct 2", "use: direct")) else [not_simulated])


def test_shield_restores_only_up_to_eight(cardset: CardSet) -> None:
    game = Scenario(cardset)
    game.arrays.sides[A, E.S_SHIELD] = 7
    game.hand(A, "Ward")
    E.cast_spell(game.G, game.st, A, 0, -1, E.UNPLANNED)
    assert game.side(A, E.S_SHIELD) == 8


def test_greedy_goes_for_the_player_when_its_attackers_can_empty_the_shield(cardset: CardSet) -> None:
    game = Scenario(cardset)
    game.place(A, "Grunt", 0)
    game.place(A, "Pike", 0)
    game.place(B, "Wall", 0, 1)  # the Grunt could destroy it
    game.arrays.sides[B, E.S_SHIELD] = 2
    E.greedy_phase(game.G, game.st, A, E.PHASE_ATTACKS)
    assert game.over and game.winner == A and game.units(B) == ["Wall"]


@pytest.mark.parametrize(("held", "cast"), [(7, True), (6, False)])
def test_greedy_hits_the_best_card_with_a_full_hand_even_one_worth_less_than_nothing(
    cardset: CardSet, held: int, cast: bool
) -> None:
    # "finally play damage charms that destroy a card (or hit the best card when holding 7 or more)" (the Policies
    # section): with 7 cards Bolt (4) hits B's only card, a Husk it cannot destroy, although greedy counts it worth
    # -2; engine 3 started its search for the best card at worth -1 and kept Bolt, a choice `legal_actions` does
    # not list (damage aimed at no card while one is there). With 6 cards Bolt waits for a kill.
    game = Scenario(cardset)
    game.place(B, "Husk", 0)
    assert E.unit_value(game.G, game.st, B, 0) == -2
    game.hand(A, "Bolt", *["Grunt"] * (held - 1))
    E.greedy_phase(game.G, game.st, A, E.PHASE_FINISHERS)
    assert (game.unit(B, 0, E.U_DAMAGE) == 4) is cast and ("Bolt" not in game.held(A)) is cast


def test_greedy_trades_when_it_cannot_win_this_turn(cardset: CardSet) -> None:
    game = Scenario(cardset)
    game.place(A, "Grunt", 0)
    game.place(A, "Pike", 0)
    game.place(B, "Wall", 0)
    game.place(B, "Grunt", 0)
    E.greedy_phase(game.G, game.st, A, E.PHASE_ATTACKS)
    # Pike (4) destroys the more valuable Wall (1/4), Grunt (3) destroys Grunt (3/2).
    assert game.units(B) == [] and game.side(B, E.S_SHIELD) == 8


# Elements and the five combos ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "shield", "standard", "burning", "everflame", "plague", "wall_damage"),
    [
        # The first standard status stays ("any subsequent ... applications ... incur a combo": combo_consumes off).
        (FIRE, OIL, 8, FIRE, E.PERMANENT, 0, 0, 0),  # burning: 1 direct damage / turn (no end is given)
        (OIL, FIRE, 8, OIL, E.PERMANENT, 0, 0, 0),
        (FIRE, MIASMA, 7, FIRE, 0, 0, 0, 1),  # explosion: 1 direct damage and 1 to all cards on the field
        (FIRE, CURSE, 8, FIRE, 0, 1, 0, 0),  # everflame: 1 direct damage / turn, for good
        (OIL, MIASMA, 6, OIL, 0, 0, 0, 0),  # poison: 2 direct damage instantly
        (MIASMA, CURSE, 8, MIASMA, 0, 0, 1, 0),  # plague: each turn 1 damage and 1 to all cards
        (CURSE, MIASMA, 8, CURSE, 0, 0, 1, 0),
        (OIL, CURSE, 8, CURSE, 0, 0, 0, 0),  # no combo is listed for oil + curse: the newer one replaces it
        (FIRE, FIRE, 8, FIRE, 0, 0, 0, 0),  # the same element again: nothing new
    ],
)
def test_a_second_different_element_makes_a_combo(
    cardset: CardSet,
    first: int,
    second: int,
    shield: int,
    standard: int,
    burning: int,
    everflame: int,
    plague: int,
    wall_damage: int,
) -> None:
    game = Scenario(cardset)
    wall = game.place(B, "Wall", 0)
    E.apply_element(game.G, game.st, B, first, -1)
    assert game.side(B, E.S_STANDARD) == first  # "Standard elemental statuses occur when a singular element is applied"
    E.apply_element(game.G, game.st, B, second, -1)
    assert (game.side(B, E.S_SHIELD), game.side(B, E.S_STANDARD), game.side(B, E.S_BURNING)) == (
        shield,
        standard,
        burning,
    )
    assert (game.side(B, E.S_EVERFLAME), game.side(B, E.S_PLAGUE), game.unit(B, wall, E.U_DAMAGE)) == (
        everflame,
        plague,
        wall_damage,
    )


@pytest.mark.parametrize(("setting", "standard_after"), [("replace", CURSE), ("keep", OIL)])
def test_oil_and_curse_reading(cardset: CardSet, setting: str, standard_after: int) -> None:
    game = Scenario(cardset, unlisted_combo=setting)
    E.apply_element(game.G, game.st, B, OIL, -1)
    E.apply_element(game.G, game.st, B, CURSE, -1)
    assert game.side(B, E.S_STANDARD) == standard_after


@pytest.mark.parametrize(("consumes", "shield_after_third"), [(True, 8), (False, 6)])
def test_combo_consumes_the_standard_status(cardset: CardSet, consumes: bool, shield_after_third: int) -> None:
    game = Scenario(cardset, combo_consumes=consumes, burning_turns=3)
    E.apply_element(game.G, game.st, B, FIRE, -1)
    E.apply_element(game.G, game.st, B, CURSE, -1)  # everflame
    E.apply_element(game.G, game.st, B, OIL, -1)  # consumed: oil starts afresh; kept: fire + oil = burning
    E.apply_element(
        game.G, game.st, B, MIASMA, -1
    )  # consumed: oil + miasma = poison (-2); kept: fire + miasma = explosion (-1)
    assert game.side(B, E.S_BURNING) == (0 if consumes else 3)
    assert game.side(B, E.S_SHIELD) == shield_after_third - (2 if consumes else 0) + (0 if consumes else 1)


@pytest.mark.parametrize(
    ("status", "burning_turns", "ticks", "shields", "wall_damage"),
    [
        (E.S_BURNING, 3, 4, [7, 6, 5, 5], 0),  # burning stops after its turns
        (E.S_BURNING, 0, 4, [7, 6, 5, 4], 0),  # 0: it lasts the match
        (E.S_EVERFLAME, 3, 4, [7, 6, 5, 4], 0),  # "much harder to remove than Burning"
        (E.S_PLAGUE, 3, 2, [7, 6], 2),  # 1 direct damage and 1 damage to all cards, each turn
    ],
)
def test_lasting_statuses_strike_at_the_start_of_each_turn(
    cardset: CardSet, status: EngineInt, burning_turns: int, ticks: int, shields: list[int], wall_damage: int
) -> None:
    game = Scenario(cardset, burning_turns=burning_turns, status_ticks="own_turn")
    wall = game.place(B, "Wall", 0)
    combos: dict[EngineInt, tuple[int, int]] = {
        E.S_BURNING: (FIRE, OIL),
        E.S_EVERFLAME: (FIRE, CURSE),
        E.S_PLAGUE: (MIASMA, CURSE),
    }
    combo = combos[status]
    for element in combo:
        E.apply_element(game.G, game.st, B, element, -1)
    seen = []
    for _ in range(ticks):
        E.start_turn(game.G, game.st, B)
        seen.append(game.side(B, E.S_SHIELD))
        E.end_turn(game.G, game.st, B)
    assert seen == shields
    assert game.unit(B, wall, E.U_DAMAGE) == wall_damage


@pytest.mark.parametrize(("setting", "shield_after_opponents_turn"), [("own_turn", 8), ("every_turn", 7)])
def test_status_ticks_reading(cardset: CardSet, setting: str, shield_after_opponents_turn: int) -> None:
    game = Scenario(cardset, status_ticks=setting)
    E.apply_element(game.G, game.st, B, FIRE, -1)
    E.apply_element(game.G, game.st, B, CURSE, -1)  # everflame on B
    E.start_turn(game.G, game.st, A)
    assert game.side(B, E.S_SHIELD) == shield_after_opponents_turn


def test_an_attack_by_a_card_with_an_element_applies_it_to_the_attacked_player(cardset: CardSet) -> None:
    game = Scenario(cardset)
    bug = game.place(A, "Firebug", 0)
    oiler = game.place(A, "Oiler", 0)
    wall = game.place(B, "Wall", 0)
    E.attack(game.G, game.st, A, bug, wall)
    assert game.side(B, E.S_STANDARD) == FIRE
    E.attack(game.G, game.st, A, oiler, -1)
    assert game.side(B, E.S_BURNING) == E.PERMANENT
    assert game.lines()[-1] == "oil is applied to B by Oiler: fire + oil = Burning."


def test_equipment_with_an_element_makes_its_host_apply_it(cardset: CardSet) -> None:
    game = Scenario(cardset)
    host = game.place(A, "Grunt", 0)
    game.hand(A, "Brand")
    E.equip(game.G, game.st, A, 0, A, host, -1)
    E.attack(game.G, game.st, A, host, -1)
    assert game.side(B, E.S_STANDARD) == FIRE and game.side(B, E.S_SHIELD) == 7


def test_a_magic_card_applies_its_element_to_the_opponent(cardset: CardSet) -> None:
    game = Scenario(cardset)
    game.hand(A, "Vial")
    E.cast_spell(game.G, game.st, A, 0, -1, E.UNPLANNED)
    assert game.side(B, E.S_STANDARD) == MIASMA and game.side(A, E.S_STANDARD) == -1


# Magic and traps ------------------------------------------------------------------------------------------------


def test_magic_damage_and_draw(cardset: CardSet) -> None:
    game = Scenario(cardset)
    v = game.place(B, "Ogre", 0, 3)
    game.deck(A, "Pike", "Wall")
    game.hand(A, "Bolt", "Insight")
    # "Magic cards that deal damage can be used to add more damage to an attack"
    E.cast_spell(game.G, game.st, A, 0, v, E.UNPLANNED)
    assert game.units(B) == [] and game.counter(A, "Bolt", DAMAGE_DEALT) == 4
    E.cast_spell(game.G, game.st, A, 0, -1, E.UNPLANNED)
    assert game.held(A) == ["Pike", "Wall"] and game.counter(A, "Pike", DRAWN) == 1


@pytest.mark.parametrize(
    ("trap", "attacker", "attacker_survives", "b_shield", "a_standard", "b_hand"),
    [
        ("Pit", "Grunt", False, 8, -1, 0),  # destroyed by the reaction: the attack never resolves
        ("Pit", "Ogre", True, 7, -1, 0),  # survives with 3 damage and its attack goes through
        ("Snare", "Grunt", True, 7, OIL, 0),
        ("Stand", "Grunt", True, 6, -1, 0),  # from 6: restores 1 first, then the attack takes 1
        ("Bell", "Grunt", True, 7, -1, 1),
    ],
)
def test_a_set_trap_reacts_to_the_next_attack(
    cardset: CardSet, trap: str, attacker: str, attacker_survives: bool, b_shield: int, a_standard: int, b_hand: int
) -> None:
    game = Scenario(cardset)
    u = game.place(A, attacker, 0)
    game.traps(B, trap)
    game.deck(B, "Wall")
    if trap == "Stand":
        game.arrays.sides[B, E.S_SHIELD] = 6
    E.attack(game.G, game.st, A, u, -1)
    assert (game.units(A) == [attacker]) is attacker_survives
    assert game.side(B, E.S_SHIELD) == b_shield
    assert game.side(A, E.S_STANDARD) == a_standard and game.side(B, E.S_HAND) == b_hand
    assert game.side(B, E.S_TRAPS) == 0


@pytest.mark.parametrize(("trap_slots", "set_after"), [(1, 1), (3, 3)])
def test_trap_slots(cardset: CardSet, trap_slots: int, set_after: int) -> None:
    game = Scenario(cardset, trap_slots=trap_slots)
    game.hand(A, "Pit", "Snare", "Bell", "Stand")
    E.greedy_phase(game.G, game.st, A, E.PHASE_PLAYS)
    assert game.side(A, E.S_TRAPS) == set_after


def test_effects_the_engine_does_not_cover_are_reported_and_skipped(cardset: CardSet) -> None:
    _, compiled, _ = compile_for(cardset)
    (finding,) = compiled.findings
    assert (finding.rule, finding.card, finding.severity, finding.column) == (
        "souls.effect_not_simulated",
        "Rune",
        "info",
        "effects",
    )
    assert (compiled.extra["fx"][compiled.card_id("Rune")] == -1).all()


# Draws, deck-out and the turn cap ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand_size", "draw_per_turn", "first_draws", "hand_a_after_turn", "hand_b_after_turn"),
    [(5, 1, False, 5, 6), (5, 1, True, 6, 6), (3, 2, False, 3, 5), (7, 1, False, 7, 8)],
)
def test_starting_hand_and_draws(
    cardset: CardSet,
    make_deck: MakeDeck,
    hand_size: int,
    draw_per_turn: int,
    first_draws: bool,
    hand_a_after_turn: int,
    hand_b_after_turn: int,
) -> None:
    game = Scenario(cardset, hand_size=hand_size, draw_per_turn=draw_per_turn, first_player_draws=first_draws)
    E.reset_state(game.st)
    deck = np.full(20, game.id("Sniper"), dtype=np.int64)  # nothing affordable: hands only grow by draws
    E.setup_match(game.G, game.st, deck, deck)
    assert game.side(A, E.S_HAND) == hand_size == game.side(B, E.S_HAND)
    E.start_turn(game.G, game.st, A)
    E.start_turn(game.G, game.st, B)
    assert (game.side(A, E.S_HAND), game.side(B, E.S_HAND)) == (hand_a_after_turn, hand_b_after_turn)


@pytest.mark.parametrize(("empty_deck", "over"), [("skip", False), ("lose", True)])
def test_drawing_from_an_empty_deck(cardset: CardSet, empty_deck: str, over: bool) -> None:
    game = Scenario(cardset, empty_deck=empty_deck)
    game.deck(A, "Grunt")
    E.draw_cards(game.G, game.st, A, 2)
    assert game.held(A) == ["Grunt"] and game.over is over
    assert game.lines()[-1] == "A cannot draw: the deck is empty."
    if over:
        assert game.winner == B


@pytest.mark.parametrize("turn_cap", [1, 4])
def test_the_turn_cap_ends_the_match_as_a_draw(cardset: CardSet, turn_cap: int) -> None:
    _, compiled, _ = compile_for(cardset, {"turn_cap": turn_cap})
    walls = np.full(30, compiled.card_id("Totem"), dtype=np.int64)  # nobody can attack
    winners, turns, _ = E.play_batch(compiled, walls, walls, np.arange(20, dtype=np.int64), np.zeros(20, np.int8), 0, 0)
    assert (winners == -1).all() and (turns == turn_cap).all()


# Whole matches: policies, counters, determinism, sanity -----------------------------------------------------------


@pytest.fixture(scope="module")
def bundled() -> tuple[CardSet, list[Deck]]:
    from workbench.bench import bundled_cardset_and_decks

    return bundled_cardset_and_decks(SOULS)


def test_a_match_ends_with_a_winner_and_counts_every_card(bundled: tuple[CardSet, list[Deck]]) -> None:
    cardset, decks = bundled
    result = simulate(cardset, decks[0], decks[1], matches=400, run=RunSettings(seed=3))
    assert set(result.matches["winner"]) <= {"A", "B", "draw"}
    counters = result.counters.set_index(["deck", "card"])
    assert counters["drawn"].sum() >= 400 * 10  # both opening hands, every match
    assert counters["played"].sum() > 0 and counters["attacked"].sum() > 0 and counters["destroyed"].sum() > 0
    assert (counters["played"] <= counters["drawn"]).all()


@pytest.mark.parametrize("policies", [("greedy", "random"), ("random", "random")])
def test_the_random_policy_plays_legal_complete_matches(
    bundled: tuple[CardSet, list[Deck]], policies: tuple[str, str]
) -> None:
    cardset, decks = bundled
    result = simulate(
        cardset, decks[0], decks[1], matches=300, run=RunSettings(seed=4, policy=policies[0]), policy_b=policies[1]
    )
    assert result.matches["turns"].min() >= 1
    if policies[1] == "random" and policies[0] == "greedy":
        assert result.win_rate_a.low > 0.5  # playing sensibly beats playing at random


def test_same_seed_same_matches(bundled: tuple[CardSet, list[Deck]]) -> None:
    cardset, decks = bundled
    one = simulate(cardset, decks[0], decks[1], matches=500, run=RunSettings(seed=11))
    two = simulate(cardset, decks[0], decks[1], matches=500, run=RunSettings(seed=11))
    three = simulate(cardset, decks[0], decks[1], matches=500, run=RunSettings(seed=12))
    assert one.matches.equals(two.matches) and one.counters.equals(two.counters)
    assert not one.matches["winner"].equals(three.matches["winner"])


def test_one_and_two_worker_processes_give_identical_matches(bundled: tuple[CardSet, list[Deck]]) -> None:
    cardset, decks = bundled
    matches = PARALLEL_THRESHOLD + BATCH_SIZE
    alone = simulate(cardset, decks[0], decks[2], matches=matches, run=RunSettings(seed=5, workers=1))
    pair = simulate(cardset, decks[0], decks[2], matches=matches, run=RunSettings(seed=5, workers=2))
    assert alone.matches.equals(pair.matches) and alone.counters.equals(pair.counters)


def test_a_mirror_match_is_even(bundled: tuple[CardSet, list[Deck]]) -> None:
    cardset, decks = bundled
    result = simulate(cardset, decks[0], decks[0], matches=4_000, run=RunSettings(seed=21))
    rate = result.win_rate_a
    assert rate.low <= 0.5 <= rate.high


def _plain_deck(make_deck: MakeDeck, cardset: CardSet, names: dict[str, int], name: str) -> Deck:
    return make_deck(cardset, "\n".join(f"{count} {card}" for card, count in names.items()), name=name)


CURVE_ROWS = [
    # on the table's upper edge: 5, 10, 14 Atk + Def at costs 0, 1, 2
    {"name": "Edge Zero", "kind": "monster", "soul_cost": 0, "atk": 3, "def": 2, "abilities": "Atk"},
    {"name": "Edge One", "kind": "monster", "soul_cost": 1, "atk": 5, "def": 5, "abilities": "Atk"},
    {"name": "Edge Two", "kind": "monster", "soul_cost": 2, "atk": 7, "def": 7, "abilities": "Atk"},
    # the same costs, well under budget
    {"name": "Thin Zero", "kind": "monster", "soul_cost": 0, "atk": 1, "def": 1, "abilities": "Atk"},
    {"name": "Thin One", "kind": "monster", "soul_cost": 1, "atk": 2, "def": 3, "abilities": "Atk"},
    {"name": "Thin Two", "kind": "monster", "soul_cost": 2, "atk": 3, "def": 4, "abilities": "Atk"},
    # strictly better than Plain: one more Atk, same everything else (4 Atk destroys a Guard in one attack, 3 does not)
    {"name": "Plain", "kind": "monster", "soul_cost": 1, "atk": 3, "def": 5, "abilities": "Atk"},
    {"name": "Sharper", "kind": "monster", "soul_cost": 1, "atk": 4, "def": 5, "abilities": "Atk"},
    {"name": "Guard", "kind": "monster", "soul_cost": 0, "atk": 1, "def": 4, "abilities": "Atk"},
]


def test_an_on_curve_deck_beats_an_under_budget_deck(make_cardset: MakeCardSet, make_deck: MakeDeck) -> None:
    cardset = make_cardset(SOULS, CURVE_ROWS)
    on_curve = _plain_deck(make_deck, cardset, {"Edge Zero": 12, "Edge One": 10, "Edge Two": 8}, "on_curve")
    under = _plain_deck(make_deck, cardset, {"Thin Zero": 12, "Thin One": 10, "Thin Two": 8}, "under")
    result = simulate(cardset, on_curve, under, matches=2_000, run=RunSettings(seed=8))
    assert result.win_rate_a.low > 0.5


def test_a_strictly_better_card_has_at_least_the_power_of_the_weaker(
    make_cardset: MakeCardSet, make_deck: MakeDeck
) -> None:
    cardset = make_cardset(SOULS, CURVE_ROWS)
    # Plain is the reference deck's filler (the most copies), so its power is 0 by construction and Sharper's is the
    # change from three Plain becoming three Sharper, against a gauntlet whose Guards one more Atk destroys.
    reference = _plain_deck(make_deck, cardset, {"Plain": 12, "Edge Zero": 10, "Edge Two": 8}, "reference")
    guards = _plain_deck(make_deck, cardset, {"Guard": 15, "Edge One": 15}, "guards")
    curve = power_curve(cardset, [reference, guards], matches_per_card=3_000, run=RunSettings(seed=2, workers=1))
    rows = curve.cards.set_index("card")
    weaker, stronger = rows.loc["Plain"], rows.loc["Sharper"]
    assert weaker["power"] == 0
    # At least the weaker card's power, within the interval.
    assert stronger["high"] >= weaker["power"]
    assert stronger["power"] >= weaker["low"]


_PLAIN_PYTHON_SCRIPT = """
import json, sys, numpy as np
from workbench.bench import bundled_cardset_and_decks
from workbench.rulesets import RULESETS
from workbench.simulate import compile_for, batch_seeds
cardset, decks = bundled_cardset_and_decks(RULESETS["souls"])
engine, compiled, _ = compile_for(cardset)
seeds, first = batch_seeds(9, 60)[0]
results = []
for policy in (0, 1):
    winners, turns, counters = engine.play_batch(compiled, compiled.deck_array(decks[0]), compiled.deck_array(decks[1]),
                                                 seeds, first, policy, policy)
    results.append([winners.tolist(), turns.tolist(), int(counters.sum())])
print(json.dumps(results))
"""


def test_plain_python_and_compiled_kernels_play_the_same_matches() -> None:
    outputs = []
    for disable in ("1", "0"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=disable)
        done = subprocess.run(
            [sys.executable, "-c", _PLAIN_PYTHON_SCRIPT], env=env, capture_output=True, text=True, check=True
        )
        outputs.append(json.loads(done.stdout))
    assert outputs[0] == outputs[1]


_LISTED_ROWS_SCRIPT = """
import json, sys
import numpy as np
import workbench.rulesets.souls.engine as E
from workbench.loading import load_cardset
from workbench.decklists import read_decklist
from workbench.rulesets import RULESETS
from workbench.simulate import compile_for, batch_seeds
cardset = load_cardset(sys.argv[1], RULESETS["souls"])
decks = [read_decklist(path, cardset) for path in sys.argv[2:]]
engine, compiled, _ = compile_for(cardset)
applied = {}
answered = {}
real_apply = E.apply_of
real_is_legal = E.is_legal
legal_answers = {"yes": 0, "no": 0}
plans_paid = [0]  # rows paid on the plan `can_pay` left (G_PLANNED), each checked against a plan made anew


def checked_is_legal(G, st, side, row):
    asked = tuple(int(v) for v in st[row : row + 4])
    probe = st.copy()
    o = int(probe[E.G_ACTIONS]) + 4  # past the asked row, which a policy writes at the list's start
    if int(st[E.G_ACTIVE]) != side:
        raise AssertionError(f"side {side} asked is_legal on side {int(st[E.G_ACTIVE])}'s turn")
    n = E.legal_actions(G, probe, o)  # the contract's: the side whose decision is open, from the state
    rows = {tuple(int(v) for v in probe[o + 4 * i : o + 4 * i + 4]) for i in range(n)}
    answer = bool(real_is_legal(G, st, side, row))
    if answer != (asked in rows):
        raise AssertionError(f"is_legal said {answer} of {asked}; legal_actions listed {sorted(rows)}")
    legal_answers["yes" if answer else "no"] += 1
    return answer


def check_listed(G, st, side, taken):
    probe = st.copy()  # listed on a copy: listing writes the sacrifice plan and the action list
    out = int(probe[E.G_ACTIONS])
    if int(st[E.G_ACTIVE]) != side:
        raise AssertionError(f"side {side} took {taken} on side {int(st[E.G_ACTIVE])}'s turn")
    n = E.legal_actions(G, probe, out)  # the contract's: the side whose decision is open, from the state
    rows = {tuple(int(v) for v in probe[out + 4 * i : out + 4 * i + 4]) for i in range(n)}
    if taken not in rows:
        raise AssertionError(f"greedy took {taken}, not among the {n} legal actions")
    applied[taken[0]] = applied.get(taken[0], 0) + 1
    # is_legal asked of the row taken and of rows next to it (another target, card or row) answers as the list.
    kind, a, b, c = taken
    for asked in (taken, (kind, a, b + 1, c), (kind, a + 1, b, c), (kind, a, -1, c), (kind, a, b, c + 1)):
        again = st.copy()
        again[out : out + 4] = asked
        answer = bool(real_is_legal(G, again, side, out))
        if answer != (asked in rows):
            raise AssertionError(f"is_legal said {answer} of {asked}; legal_actions listed {sorted(rows)}")
        legal_answers["yes" if answer else "no"] += 1
    if taken[0] == E.A_TARGET:
        answered[int(st[E.G_PENDING])] = answered.get(int(st[E.G_PENDING]), 0) + 1


def listed_apply(G, st, side, row):
    check_listed(G, st, side, tuple(int(v) for v in st[row : row + 4]))
    real_apply(G, st, side, row)


def check_plan(G, st, side, h):
    # A rule told to pay on the plan kept (`apply_of` finds G_PLANNED is this card's) pays the plan in st as it is:
    # it must be the one `can_pay` makes for hand card h now.
    probe = st.copy()
    if not E.can_pay(G, probe, side, h):
        raise AssertionError(f"hand card {h} was paid on a plan, but it cannot be paid")
    start = int(st[E.G_PLAN])
    words = 2 + int(probe[start + E.PLAN_FIELD]) + int(probe[start + E.PLAN_HAND])
    if st[start : start + words].tolist() != probe[start : start + words].tolist():
        paid, fresh = st[start : start + words], probe[start : start + words]
        raise AssertionError(f"plan {paid} paid for hand card {h}; can_pay plans {fresh}")
    plans_paid[0] += 1


def paid_on_plan(name):
    # The paying rules `apply_of` calls (`summon`, `set_trap`, `cast_spell`), given (G, st, side, hand index, ...,
    # planned): each payment on the kept plan is checked against a plan made anew.
    real = getattr(E, name)

    def paying(G, st, side, h, *rest):
        if rest[-1]:
            check_plan(G, st, side, h)
        return real(G, st, side, h, *rest)

    E.replace_everywhere(name, paying)


# The play loop and the policies look `apply_of` up when they call it (plain Python under NUMBA_DISABLE_JIT), each in
# its own module.
E.replace_everywhere("apply_of", listed_apply)
E.replace_everywhere("is_legal", checked_is_legal)
for name in ("summon", "set_trap", "cast_spell"):
    paid_on_plan(name)
seeds, first = batch_seeds(5, 3)[0]
results = []
for deck_a in decks:
    for deck_b in decks:
        winners, turns, counters = engine.play_batch(
            compiled, compiled.deck_array(deck_a), compiled.deck_array(deck_b), seeds, first, 0, 0
        )
        results.append([winners.tolist(), turns.tolist(), int(counters.sum())])
print(
    json.dumps(
        {
            "applied": applied,
            "answered": answered,
            "results": results,
            "is_legal": legal_answers,
            "plans_paid": plans_paid[0],
        }
    )
)
"""


def test_greedy_applies_only_rows_legal_actions_listed(tmp_path: Path) -> None:
    # Greedy is a policy over the rules: every row it chooses is one `legal_actions` listed at that moment. Replayed
    # as plain Python (NUMBA_DISABLE_JIT=1) with `apply_of` wrapped to list the legal actions first, over every
    # bundled deck pair, with an Equip card and a summon Trigger given `damage 1` (so that both open decisions come
    # up) and two monsters given effects to activate (once per turn, by using the card); the wrapped run plays the
    # compiled engine's matches.
    rows = list(csv.DictReader(bundled_sets("souls")[0].open(encoding="utf-8", newline="")))
    changed = {
        "Tower Shield": "def +4; damage 1",
        "Cinder Whelp": "summon: damage 1",
        "Lantern Sprite": "damage 1",
        "Hollow Acolyte": "use: draw 1",
    }
    for row in rows:
        row["effects"] = changed.get(row["name"], row["effects"])
    path = tmp_path / "equip_damage.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    decks = [str(deck) for deck in bundled_decks("souls")]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run(
        [sys.executable, "-c", _LISTED_ROWS_SCRIPT, str(path), *decks], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    output = json.loads(done.stdout)
    applied = {int(kind): count for kind, count in output["applied"].items()}
    # Summons, traps, casts, equipment, attacks, Support, activations, both kinds of open target and the turn's end
    # were all checked.
    kinds = (E.A_SUMMON, E.A_TRAP, E.A_CAST, E.A_EQUIP, E.A_ATTACK, E.A_SUPPORT, E.A_ACTIVATE, E.A_TARGET, E.A_END)
    for kind in kinds:
        assert applied.get(int(kind), 0) > 0, kind
    assert {int(kind) for kind in output["answered"]} == {E.A_SUMMON, E.A_EQUIP}
    # Greedy works its rows out without listing, from the tests `legal_actions` lists rows by; every answer
    # `is_legal` gave, of each row taken and rows next to it (and to any policy asking), yes and no, agreed with
    # whether `legal_actions` listed the row.
    assert output["is_legal"]["yes"] > 0
    assert output["is_legal"]["no"] > 0
    # A summon, trap or cast is paid on the plan `can_pay` left for it when greedy's test of the row made it last
    # (G_PLANNED), not planned again: each such plan was the one `can_pay` makes for that card at that moment.
    assert output["plans_paid"] > 0
    cardset = load_cardset(path, SOULS)
    engine, compiled, _ = compile_for(cardset)
    seeds, first = batch_seeds(5, 3)[0]
    compiled_results = []
    for deck_a_path in decks:
        for deck_b_path in decks:
            deck_a, deck_b = read_decklist(deck_a_path, cardset), read_decklist(deck_b_path, cardset)
            winners, turns, counters = engine.play_batch(
                compiled, compiled.deck_array(deck_a), compiled.deck_array(deck_b), seeds, first, 0, 0
            )
            compiled_results.append([winners.tolist(), turns.tolist(), int(counters.sum())])
    assert output["results"] == compiled_results


# Golden trace -------------------------------------------------------------------------------------------------------

GOLDEN = "tests/golden/souls_trace.txt"
"""Regenerate on purpose (after a deliberate change to play, with ENGINE_VERSION bumped) with:
    workbench simulate cardsets/souls/ashfall.csv --deck cardsets/souls/decks/ember_rush.txt \\
        --deck cardsets/souls/decks/plague_court.txt --seed 7 --trace > tests/golden/souls_trace.txt
"""


def test_golden_trace(bundled: tuple[CardSet, list[Deck]]) -> None:
    from workbench.paths import REPO_ROOT
    from workbench.simulate import trace

    cardset, decks = bundled
    by_name = {deck.name: deck for deck in decks}
    expected = (REPO_ROOT / GOLDEN).read_text(encoding="utf-8").splitlines()
    actual = list(trace(cardset, by_name["ember_rush"], by_name["plague_court"], seed=7))
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
        assert got == want, f"{GOLDEN} line {number} differs (see the docstring of GOLDEN to regenerate on purpose)"
    assert len(actual) == len(expected)


KERNEL_CONSTANT_GROUPS: tuple[tuple[str, int], ...] = (
    ("C_", int(E.C_TIMED) + 1),
    ("TV_", 4),
    ("O_", len(E.ENGINE_OPTION_ORDER)),
    ("S_", int(E.S_POLICY) + 1),  # the side's fields; S_POLICY, the last, starts its policy block
    ("U_", E.UNIT_FIELDS),
    ("Z_", 3),
    ("EV_", 25),
    ("A_", 10),
    ("T_", E.TIMINGS),
)
"""Name prefixes of the field, option, event, action and timing constants the kernels are passed, and how many."""


def test_constants_the_kernels_are_passed_are_int64_and_python_reads_them_as_ints(
    bundled: tuple[CardSet, list[Deck]],
) -> None:
    """One compiled copy of each kernel rests on these being np.int64: Numba types a Python int passed to a kernel as
    a literal of its own value and compiles the kernel once per value. The Python code around the kernels (the card
    table, the options ledger, the state views, the trace lines) reads the same names as indices and codes."""
    from workbench.rulesets.souls.cards import SoulsCard
    from workbench.simulate import trace

    cardset, decks = bundled
    for prefix, count in KERNEL_CONSTANT_GROUPS:
        group = {name: getattr(E, name) for name in dir(E) if name.startswith(prefix) and name.isupper()}
        assert all(type(value) is np.int64 for value in group.values()), prefix
        assert sorted(int(value) for value in group.values()) == list(range(count)), prefix
    for name in ("NONE", "ZERO", "ONE", "POISON_DAMAGE", "PERMANENT", "ALL_ACTIONS", "ATTACKED_COUNTER"):
        assert type(getattr(E, name)) is np.int64, name
    # The options ledger: each O_* is its key's place, and the state holds each key's code there.
    game = Scenario(cardset, turn_cap=7, sacrifice_from="hand")
    assert E.ENGINE_OPTION_ORDER[E.O_TURN_CAP] == "turn_cap"
    assert E.ENGINE_OPTION_ORDER[E.O_SACRIFICE] == "sacrifice_from"
    assert E.opt(game.G, E.O_TURN_CAP) == 7 == game.compiled.options[E.O_TURN_CAP]
    assert E.opt(game.G, E.O_SACRIFICE) == E.SACRIFICE_HAND
    assert E.opt(game.G, E.O_ROW_SLOTS) == 3
    # The card table and the state views, indexed by the same names.
    squire = game.id("Ashen Squire")
    card = next(cast(SoulsCard, entry.card) for entry in cardset if entry.card.name == "Ashen Squire")
    assert game.compiled.table[squire, E.C_ATK] == card.atk
    assert E.cv(game.G, squire, E.C_DEF) == card.defense
    u = game.place(B, "Ashen Squire", 2)
    assert game.unit(B, u, E.U_ROW) == 2 == game.arrays.board[B, u, E.U_ROW]
    assert game.side(B, E.S_ROW0 + 2) == 1
    # Trace lines name what happened in words and numbers, never a numpy repr.
    for policy in ("greedy", "random"):
        for seed in range(3):
            lines = list(trace(cardset, decks[0], decks[1], seed=seed, policies=policy))
            assert any("summons" in line for line in lines)
            assert not any("np." in line or "int64" in line for line in lines)


@pytest.mark.parametrize(
    ("key", "value", "allowed"),
    [
        ("row_slots", 9, "a whole number from 1 to 5"),
        ("trap_slots", 0, "a whole number from 1 to 5"),
        ("turn_cap", 0, "a whole number from 1 to 10,000"),
    ],
)
def test_engine_options_outside_what_it_plays_are_refused_with_the_range(
    cardset: CardSet, key: str, value: int, allowed: str
) -> None:
    from workbench.cards import WorkbenchInputError

    with pytest.raises(WorkbenchInputError, match=key) as error:
        compile_for(cardset, {key: value})
    assert error.value.expected == allowed


# The search policy --------------------------------------------------------------------------------------------------


def search_buffers(game: Scenario, seed: int = 5) -> tuple[Any, Any]:
    """The search's rollout buffers (a sampled world and a rollout, same cards and capacity as the scenario) and its
    words, its generator seeded."""
    work, search = E.new_search_buffers(game.compiled, int(game.st[E.G_CAPACITY]))
    E.rng_seed(search, seed)
    return work, search


def searched_steps(game: Scenario, side: int = A) -> list[tuple[int, list[int], list[int]]]:
    """Play the rest of `side`'s turn as a search side plays it, step by step: for each step (its choice, the action
    row, every candidate's points), up to "end the turn"."""
    work, search = search_buffers(game)
    steps = []
    for _ in range(E.MAX_RANDOM_STEPS):
        if game.over:
            break
        k = E.search_decision(game.G, game.st, work, search, side)
        m = int(search[E.SR_N])
        base = int(game.st[E.G_ACTIONS]) + int(search[E.SR_CAND + k]) * 4
        row = [int(v) for v in game.st[base : base + 4]]
        steps.append((k, row, [int(v) for v in search[E.SR_POINTS : E.SR_POINTS + m]]))
        if row[0] == E.A_END:
            break
        E.apply_of(game.G, game.st, side, base)
        answer_open_targets(game, side)
    return steps


def face_or_trade(cardset: CardSet, trap: str = "Bell", **options: Any) -> Scenario:
    # A's two Grunts (3/2) can each destroy one of B's Firebugs (3/2), or hit B directly: "Attacking the opponent
    # directly ... reduces their shield by 1", and B has 2 shield points left. Greedy "goes face when lethal" only
    # with no trap set that springs on an attack; B has one set, so greedy trades. B's trap is face down; every trap
    # B might hold is a Bell ("draw 1"), which stops nothing. A has 1 shield point and B's hand is Grunts, so the
    # trades lose: B summons a Grunt and hits A directly.
    game = Scenario(cardset, **options)
    game.place(A, "Grunt", 0)
    game.place(A, "Grunt", 0)
    game.place(B, "Firebug", 0)
    game.place(B, "Firebug", 0)
    game.traps(B, trap)
    game.hand(B, "Grunt", "Grunt", "Bell")
    game.deck(B, "Grunt", "Bell", "Grunt", "Wall", "Grunt")
    game.deck(A, "Wall", "Wall", "Wall", "Wall")
    game.arrays.sides[A, E.S_SHIELD] = 1
    game.arrays.sides[B, E.S_SHIELD] = 2
    return game


def test_search_goes_face_where_greedy_trades_and_loses(cardset: CardSet) -> None:
    greedy = face_or_trade(cardset)
    turn_by(greedy, E.decide)
    assert greedy.units(B) == [] and greedy.side(B, E.S_SHIELD) == 2 and not greedy.over
    game = face_or_trade(cardset)
    work, search = search_buffers(game)
    game.arrays.sides[A, E.S_POLICY + P_CODE] = SEARCH
    turn_by(game, E.decide_searched, (work, search))
    assert game.over and game.winner == A and game.side(B, E.S_SHIELD) == 0
    assert game.units(B) == ["Firebug", "Firebug"]  # both Grunts went for B
    # The first step's figures: the direct attack won every rollout it was given (WIN_POINTS each, and it was kept
    # to the last round), and every candidate that trades scored less.
    again = face_or_trade(cardset)
    work, search = search_buffers(again)
    k = E.search_decision(again.G, again.st, work, search, A)
    m = int(search[E.SR_N])
    rows = [
        [int(v) for v in again.st[int(again.st[E.G_ACTIONS]) + 4 * c : int(again.st[E.G_ACTIONS]) + 4 * c + 4]]
        for c in (int(search[E.SR_CAND + j]) for j in range(m))
    ]
    points = [int(v) for v in search[E.SR_POINTS : E.SR_POINTS + m]]
    tried = [int(v) for v in search[E.SR_TRIED : E.SR_TRIED + m]]
    assert rows[k] == [E.A_ATTACK, 0, -1, 0] and rows[-1] == [E.A_END, 0, 0, 0]
    assert points[k] == WIN_POINTS * tried[k] and tried[k] == max(tried)
    assert sum(tried) <= int(game.G[E.OPTS_BASE + E.O_SEARCH_ROLLOUTS]) * m
    trades = [j for j, row in enumerate(rows) if row[0] == E.A_ATTACK and row[2] >= 0]
    assert trades and all(points[j] < WIN_POINTS * tried[j] for j in trades)


def searched_decisions(game: Scenario, count: int = 4, side: int = A) -> list[tuple[int, list[int], list[int]]]:
    """`count` decisions of the search at the same position (its generator going on, nothing applied): for each its
    choice, every candidate's points and the rollouts each was given."""
    work, search = search_buffers(game)
    decisions = []
    for _ in range(count):
        k = E.search_decision(game.G, game.st, work, search, side)
        m = int(search[E.SR_N])
        points = [int(v) for v in search[E.SR_POINTS : E.SR_POINTS + m]]
        tried = [int(v) for v in search[E.SR_TRIED : E.SR_TRIED + m]]
        decisions.append((k, points, tried))
    return decisions


def test_search_decisions_do_not_change_when_the_opponents_hidden_cards_are_permuted(cardset: CardSet) -> None:
    # "never peeks": what A cannot see (B's hand, B's face-down trap and the order of both decks) is dealt anew
    # before each rollout from what A can know, so moving B's unseen cards between hand, trap slot and deck (the
    # same cards, as many in each place) and reordering A's deck changes neither A's choices nor any rollout figure.
    worlds = (
        (["Grunt", "Pit", "Bell"], "Bell", ["Grunt", "Pit", "Wall", "Grunt", "Bell"], ["Wall", "Pike", "Grunt"]),
        (["Pit", "Grunt", "Grunt"], "Bell", ["Bell", "Wall", "Bell", "Grunt", "Pit"], ["Grunt", "Wall", "Pike"]),
        (["Bell", "Wall", "Bell"], "Pit", ["Grunt", "Grunt", "Pit", "Bell", "Grunt"], ["Pike", "Grunt", "Wall"]),
    )

    def world(hand: list[str], trap: str, deck: list[str], own_deck: list[str]) -> Scenario:
        # Played under the one-summon house rule: with no limit B's Grunts all come down at once and no shields make
        # the choices close while every world plays the turn alike (all 64 pairs up to 8 tried).
        game = face_or_trade(cardset, summons_per_turn=1)
        game.arrays.sides[A, E.S_SHIELD] = 4  # no sure line either way: the choices are close and the figures show
        game.arrays.sides[B, E.S_SHIELD] = 3
        game.hand(B, *hand)
        game.traps(B, trap)
        game.deck(B, *deck)
        game.deck(A, *own_deck)
        return game

    # Four decisions at the turn's first step (the search's generator going on between them), every figure alike.
    # Only the first step is compared as the turn goes on: once an action is taken on the real board, a real Pit
    # springs where a real Bell would not, and what A then sees differs.
    results = [searched_decisions(world(*cards)) for cards in worlds]
    assert results[0] == results[1] == results[2]
    assert any(len(set(points)) > 1 for _, points, _ in results[0])  # the candidates were told apart
    firsts = [searched_steps(world(*cards))[0] for cards in worlds]
    assert firsts[0] == firsts[1] == firsts[2]
    # The figures do read which cards are unseen: other cards (not the same ones moved) give other figures.
    other = world(["Wall", "Wall", "Wall"], "Bell", ["Wall", "Wall", "Wall", "Wall", "Wall"], ["Wall", "Pike", "Grunt"])
    assert searched_decisions(other) != results[0]


def test_search_plays_whole_matches_the_same_way_twice_and_reads_its_budget(
    bundled: tuple[CardSet, list[Deck]],
) -> None:
    cardset, decks = bundled
    run = RunSettings(seed=3, policy="search", workers=1)
    searched = simulate(cardset, decks[0], decks[0], matches=30, run=run, policy_b="greedy")
    again = simulate(cardset, decks[0], decks[0], matches=30, run=run, policy_b="greedy")
    assert searched.matches.equals(again.matches) and (searched.matches["turns"] > 0).all()
    assert searched.meta["policies"] == ["search", "greedy"]
    one = RunSettings(seed=3, policy="search", workers=1, options={"search_rollouts": 1})
    cheap = simulate(cardset, decks[0], decks[0], matches=30, run=one, policy_b="greedy")
    assert not cheap.matches.equals(searched.matches)
    # "the policy both sides play in the rollouts": random rollouts play other matches, and every one ends
    wild = RunSettings(seed=3, policy="search", workers=1, options={"search_rollout_policy": "random"})
    randomly = simulate(cardset, decks[0], decks[0], matches=30, run=wild, policy_b="greedy")
    assert not randomly.matches.equals(searched.matches) and (randomly.matches["turns"] > 0).all()


def test_search_cut_off_scores_the_position_by_the_games_own_evaluation(cardset: CardSet) -> None:
    # A constructed position, A's worth and B's by hand from the EVAL_* weights: shields (up to EVAL_SHIELD_CAP),
    # the greedy worth of the monsters in play, the hand (a monster by its cost and worth), traps set, statuses.
    game = Scenario(cardset)
    game.place(A, "Grunt", 0, damage=1)  # 3 Atk + 2 Def - 1 damage + 4 for a body = 8
    game.hand(A, "Grunt", "Bell")  # a free monster worth 9; a trap card in hand
    game.place(B, "Wall", 0)  # 1 + 4 + 4 = 9
    game.hand(B, "Pike")  # costs a sacrifice; worth 12
    game.traps(B, "Bell")
    game.arrays.sides[B, E.S_SHIELD] = 3
    game.arrays.sides[B, E.S_BURNING] = int(E.PERMANENT)
    worth_a = (
        E.EVAL_SHIELD * E.EVAL_SHIELD_CAP
        + E.EVAL_BOARD * 8
        + E.EVAL_HAND_MONSTER
        - E.EVAL_HAND_MONSTER_WORTH * 9
        + E.EVAL_HAND_FREE
        + E.EVAL_HAND_SPELL
    )
    worth_b = E.EVAL_SHIELD * 3 + E.EVAL_BOARD * 9 + E.EVAL_HAND_MONSTER - E.EVAL_HAND_MONSTER_WORTH * 12
    worth_b += E.EVAL_TRAP_SET - E.EVAL_STATUS
    assert E.search_side_worth(game.G, game.st, A) == worth_a and E.search_side_worth(game.G, game.st, B) == worth_b
    for_a = int(E.search_evaluation(game.G, game.st, A, True))
    for_b = int(E.search_evaluation(game.G, game.st, B, True))
    assert for_a == position_points(worth_a - worth_b, E.EVAL_HALF)
    assert DRAW_POINTS < for_a < WIN_POINTS and 0 < for_b < DRAW_POINTS and abs(for_a + for_b - WIN_POINTS) <= 1
    # An even position is worth a draw; a finished match its result.
    even = Scenario(cardset)
    assert E.search_evaluation(even.G, even.st, A, True) == E.search_evaluation(even.G, even.st, B, True) == DRAW_POINTS
    E.end_match(game.st, B)
    assert E.search_evaluation(game.G, game.st, A, False) == 0
    assert E.search_evaluation(game.G, game.st, B, False) == WIN_POINTS


def quiet_board(cardset: CardSet, **options: Any) -> Scenario:
    """A Wall each in play and in hand, decks of Walls, full shields: no match ends within a few turns."""
    game = Scenario(cardset, **options)
    for side in (A, B):
        game.place(side, "Wall", 0)
        game.hand(side, "Wall")
        game.deck(side, *["Wall"] * 8)
    return game


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_search_rollouts_stop_after_search_depth_turns_and_play_on_at_depth_0(cardset: CardSet, depth: int) -> None:
    game = quiet_board(cardset, search_depth=depth)
    work, search = search_buffers(game)
    m = E.search_candidates(game.G, game.st, search, A)
    assert m > 1 and int(game.st[int(game.st[E.G_ACTIONS]) + 4 * int(search[E.SR_CAND + m - 1])]) == E.A_END
    for k in (0, m - 1):  # an action, and ending the turn now: then `depth` turns
        E.rollout_world(game.G, game.st, work[0], A, 11)
        points = E.rollout(game.G, game.st, work[0], work[1], search, A, k, 12)
        # Cut off where turn `depth` after A's ended: the rollout's last turn, lowered in its copy (a draw there).
        assert int(work[1][E.G_OVER]) == 1 and int(work[1][E.G_WINNER]) == -1
        assert int(work[1][E.G_TURN]) == int(game.st[E.G_TURN]) + depth == int(work[1][E.G_LAST_TURN])
        assert points == E.search_evaluation(game.G, work[1], A, True)
    to_the_end = quiet_board(cardset, search_depth=0)
    work, search = search_buffers(to_the_end)
    m = E.search_candidates(to_the_end.G, to_the_end.st, search, A)
    E.rollout_world(to_the_end.G, to_the_end.st, work[0], A, 11)
    assert E.rollout(to_the_end.G, to_the_end.st, work[0], work[1], search, A, m - 1, 12) in (
        0,
        DRAW_POINTS,
        WIN_POINTS,
    )
    assert int(work[1][E.G_OVER]) == 1


def test_search_spends_each_decisions_budget_by_successive_halving(cardset: CardSet) -> None:
    game = face_or_trade(cardset, summons_per_turn=1, search_rollouts=4)
    game.arrays.sides[A, E.S_SHIELD] = 4
    game.arrays.sides[B, E.S_SHIELD] = 3
    work, search = search_buffers(game)
    k = E.search_decision(game.G, game.st, work, search, A)
    m = int(search[E.SR_N])
    tried = [int(v) for v in search[E.SR_TRIED : E.SR_TRIED + m]]
    plan = schedule(4 * m, m)
    # Each round's survivors got the round's share; the chosen one went through every round.
    assert sum(tried) == sum(alive * share for alive, share in plan) <= 4 * m
    assert tried[k] == sum(share for _, share in plan) == max(tried)
    # Those dropped after round r had the shares of rounds 0..r: the worse half of each round's survivors.
    assert sorted(tried) == rollouts_given(4 * m, m) and len(plan) == halving_rounds(m)
    assert int(search[E.SR_ORDER]) == k and int(search[E.SR_CHOICE]) == k


def test_search_beats_greedy_in_a_seeded_mirror(bundled: tuple[CardSet, list[Deck]]) -> None:
    # At the default budget (2 rollouts a candidate, cut off after the opponent's reply). The full figures, 1,000
    # matches a deck: docs/rulesets/souls.md, The search policy.
    cardset, decks = bundled
    by_name = {deck.name: deck for deck in decks}
    run = RunSettings(seed=3, policy="search", workers=1)
    result = simulate(cardset, by_name["ember_rush"], by_name["ember_rush"], matches=300, run=run, policy_b="greedy")
    rate = result.win_rate_a
    assert rate.value >= 0.65 and rate.low > 0.55, rate
    assert result.meta["options"]["search_rollouts"] == 2 and result.meta["options"]["search_depth"] == 1


@pytest.mark.parametrize(
    ("key", "value"),
    [("search_rollouts", 0), ("search_rollouts", 1001), ("search_depth", -1), ("search_depth", 10_001)],
)
def test_search_budget_outside_its_range_is_refused(cardset: CardSet, key: str, value: int) -> None:
    from workbench.cards import WorkbenchInputError

    with pytest.raises(WorkbenchInputError, match=key):
        compile_for(cardset, {key: value})
