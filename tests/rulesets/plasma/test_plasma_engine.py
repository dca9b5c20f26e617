"""Scenario tests for the plasma engine: one rule of the document per test, on a board set up by hand.

Each test builds the state a rule talks about (who has which creature, card, plasma), calls the one kernel that
plays that rule (`start_turn`, `play_card`, `attack`, `fight`, `end_turn`, ...) and checks the outcome. The
quotes are the rule document's own words (as docs/rulesets/plasma.md quotes them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from workbench.cards import CardSet
from workbench.engines import (
    ATTACKED,
    DAMAGE_DEALT,
    DESTROYED,
    DRAWN,
    PLAYED,
    CompiledCards,
)
from workbench.play.search import DRAW_POINTS, WIN_POINTS, position_points, rollouts_given, schedule
from workbench.rulesets.plasma import RULESET
from workbench.rulesets.plasma import engine as E

ROWS: list[dict[str, Any]] = [
    {"name": "Pup", "kind": "creature", "cost": 1, "power": 1, "resolve": 1},
    {"name": "Scout", "kind": "creature", "cost": 1, "power": 2, "resolve": 1},
    {"name": "Guard", "kind": "creature", "cost": 2, "power": 1, "resolve": 4},
    {"name": "Raider", "kind": "creature", "cost": 2, "power": 3, "resolve": 2},
    {"name": "Knight", "kind": "creature", "cost": 3, "power": 3, "resolve": 3},
    {"name": "Brute", "kind": "creature", "cost": 3, "power": 4, "resolve": 3},
    {"name": "Giant", "kind": "creature", "cost": 5, "power": 6, "resolve": 5},
    {"name": "Herald", "kind": "creature", "cost": 2, "power": 2, "resolve": 2, "effects": "draw 1"},
    {"name": "Sniper", "kind": "creature", "cost": 3, "power": 2, "resolve": 2, "effects": "damage 2"},
    {"name": "Blade", "kind": "equipment", "cost": 2, "effects": "power +2"},
    {"name": "Plate", "kind": "equipment", "cost": 2, "effects": "resolve +3"},
    {"name": "Bolt", "kind": "event", "cost": 2, "effects": "damage 3"},
    {"name": "Shot", "kind": "event", "cost": 1, "effects": "damage player 2"},
    {"name": "Mend", "kind": "event", "cost": 2, "effects": "heal 4"},
    {"name": "Study", "kind": "event", "cost": 2, "effects": "draw 2"},
    {"name": "Doom", "kind": "event", "cost": 4, "effects": "destroy"},
    {"name": "Rally", "kind": "event", "cost": 1, "effects": "power +2"},
    {"name": "Zap", "kind": "instant", "cost": 1, "effects": "damage 2"},
    {"name": "Brace", "kind": "instant", "cost": 1, "effects": "resolve +3"},
    {"name": "Battery", "kind": "instant", "cost": 1, "effects": "plasma +2"},
    {"name": "Well", "kind": "battlefield", "cost": 2, "effects": "plasma +1"},
    {"name": "Forge", "kind": "battlefield", "cost": 3, "effects": "power +1"},
    {"name": "Shrine", "kind": "battlefield", "cost": 3, "effects": "resolve +1; heal 1"},
    {"name": "Frost", "kind": "event", "cost": 3, "effects": "freeze 2; draw 1"},
    {"name": "Wisp", "kind": "creature", "cost": 1, "power": 2, "resolve": 0},
    # Activated abilities (`activate N: ...`), after every other row so the rows above keep their numbers.
    {
        "name": "Pinger",
        "kind": "creature",
        "cost": 2,
        "power": 1,
        "resolve": 2,
        "effects": "activate 1: damage player 1",
    },
    {"name": "Smith", "kind": "creature", "cost": 2, "power": 2, "resolve": 2, "effects": "activate 0: power +1"},
    {"name": "Sage", "kind": "creature", "cost": 2, "power": 1, "resolve": 3, "effects": "draw 1; activate 2: draw 1"},
    {"name": "Torch", "kind": "creature", "cost": 3, "power": 2, "resolve": 2, "effects": "activate 1: damage 2"},
    {"name": "Relic", "kind": "equipment", "cost": 1, "effects": "power +1; activate 1: draw 1"},
]
A, B = 0, 1


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> CompiledCards:
    import csv

    path = tmp_path_factory.mktemp("plasma") / "engine_cards.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["name", "kind", "cost", "power", "resolve", "effects"])
        writer.writeheader()
        writer.writerows(ROWS)
    from workbench.loading import load_cardset

    cardset: CardSet = load_cardset(path, RULESET)
    return E.compile_cards(cardset, RULESET.resolve_options())


class Scenario:
    """A match state built by hand. Player A is 0, B is 1; A's turn unless a test says otherwise."""

    def __init__(
        self, compiled: CompiledCards, first: int = A, policies: Sequence[int] = (E.GREEDY, E.GREEDY), **options: int
    ) -> None:
        values = compiled.options.copy()
        for key, value in options.items():
            values[E.OPTION_ORDER.index(key)] = value
        self.compiled = compiled
        self.table = compiled.table
        # The test set is its own pairing: its card ids index the record's counters (MAX_PAIRING rows).
        assert len(compiled.names) <= E.MAX_PAIRING
        self.st = E.new_state(values, traced=True)
        self.counters = self.st.counters
        """The record's counters (a view)."""
        self.events = self.st.events
        """The record's trace (a view)."""
        side = self.st.side
        for p in (A, B):
            side[p, E.S_LIFE] = 20
            side[p, E.S_BATTLEFIELD] = -1
            side[p, E.S_HAND_INSTANT] = E.NO_INSTANT
            side[p, E.S_POLICY] = policies[p]
            side[p, E.S_COIN] = 0 if p == first else 1
        self.st.game[E.G_PLAYER] = first
        # A hand-built board has no stage next: the rules stop once a test's decision closes (`advance`).
        self.st.game[E.G_STAGE] = E.STAGE_OVER
        self.st.game[E.G_WINNER] = -1
        self.st.game[E.G_TURN] = 1

    def id(self, name: str) -> int:
        return self.compiled.card_id(name)

    def creature(self, p: int, name: str, damage: int = 0, tapped: bool = False, sick: bool = False) -> int:
        """Put a creature on p's field; returns its slot."""
        E.enter_field(self.table, self.st, p, self.id(name))
        slot = int(self.st.side[p, E.S_BOARD]) - 1
        self.st.board[p, slot, E.B_DAMAGE] = damage
        self.st.board[p, slot, E.B_TAPPED] = int(tapped)
        self.st.board[p, slot, E.B_SICK] = int(sick)
        return slot

    def uid(self, p: int, slot: int) -> int:
        return int(self.st.board[p, slot, E.B_UID])

    def give(self, p: int, *names: str) -> None:
        """Put cards in p's hand."""
        for name in names:
            self.st.hand[p, self.st.side[p, E.S_HAND]] = self.id(name)
            self.st.side[p, E.S_HAND] += 1
        # The hand's cheapest Instant, as the rules keep it whenever a hand changes.
        E.count_hand_instants(self.table, self.st, p)

    def stack(self, p: int, *names: str) -> None:
        """p's library, top card first."""
        for index, name in enumerate(names):
            self.st.library[p, index] = self.id(name)
        self.st.side[p, E.S_DECK] = len(names)
        self.st.side[p, E.S_DRAWN] = 0

    def plasma(self, p: int, amount: int) -> None:
        self.st.side[p, E.S_PLASMA] = amount

    def battlefield(self, p: int, name: str) -> None:
        self.st.side[p, E.S_BATTLEFIELD] = self.id(name)
        E.refresh_side(self.table, self.st, p)

    def run(self, kernel: Callable[..., Any], *args: int) -> Any:
        """Call a kernel that takes (table, state, ...); then, as the match loop does, each target its
        card left open is chosen by the player's policy."""
        result = kernel(self.table, self.st, *args)
        while self.st.game[E.G_PENDING] != E.D_NONE and not self.over:
            E.take(self.table, self.st, E.decide(self.table, self.st, 0))
        return result

    def decide_until(self, stage: int) -> None:
        """Each open decision by its side's policy (`decide`), the rules playing on (`advance`) until the stage
        `stage` is next."""
        st = self.st
        while not self.over and (st.game[E.G_PENDING] != E.D_NONE or st.game[E.G_DECISION] != E.D_NONE):
            E.take(self.table, st, E.decide(self.table, st, 0))
            E.advance(self.table, st, stage)

    def mulligan(self, p: int) -> None:
        """p's mulligan decision opened (as the rules open it after the opening hand) and answered by p's policy until
        it keeps."""
        E.open_decision(self.st, E.D_MULLIGAN, p)
        self.st.game[E.G_ASIDE] = 0
        self.decide_until(E.STAGE_OVER)

    def field(self, p: int) -> list[tuple[str, int, bool]]:
        """(name, damage, tapped) of p's creatures, in field order."""
        board = self.st.board
        return [
            (self.compiled.names[board[p, i, E.B_CARD]], int(board[p, i, E.B_DAMAGE]), bool(board[p, i, E.B_TAPPED]))
            for i in range(self.st.side[p, E.S_BOARD])
        ]

    def names_on_field(self, p: int) -> list[str]:
        return [name for name, _, _ in self.field(p)]

    def hand(self, p: int) -> list[str]:
        return [self.compiled.names[self.st.hand[p, h]] for h in range(self.st.side[p, E.S_HAND])]

    def undrawn(self, p: int) -> list[str]:
        side = self.st.side
        return [self.compiled.names[self.st.library[p, k]] for k in range(side[p, E.S_DRAWN], side[p, E.S_DECK])]

    def life(self, p: int) -> int:
        return int(self.st.side[p, E.S_LIFE])

    def power(self, p: int, slot: int) -> int:
        return int(E.creature_power(self.table, self.st, p, slot))

    def resolve(self, p: int, slot: int) -> int:
        return int(E.creature_resolve(self.table, self.st, p, slot))

    def log(self) -> list[str]:
        count = int(self.st.ecount[0])
        return [E.describe_event(self.compiled, row) for row in self.events[:count].tolist()]

    @property
    def over(self) -> bool:
        return bool(self.st.game[E.G_OVER])

    @property
    def winner(self) -> int:
        return int(self.st.game[E.G_WINNER])


# ---- setup ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("first", [A, B])
def test_setup_20_healthshards_five_cards_and_the_coin_for_the_second_player(
    compiled: CompiledCards, first: int
) -> None:
    """ "Both players start with 20 Healthstards ... each player draws 5 cards" / "If you went second you start with
    the coin"."""
    scenario = Scenario(compiled)
    deck = np.array([scenario.id("Pup")] * 40, dtype=np.int64)
    E.setup_match(scenario.table, scenario.st, deck, deck, 7, first, 0, 0)
    assert (scenario.st.game[E.G_DECISION], scenario.st.game[E.G_ACTOR]) == (E.D_MULLIGAN, first)
    scenario.decide_until(E.STAGE_TURN)  # both mulligans: the rules stop before turn 1
    side = scenario.st.side
    assert [scenario.life(A), scenario.life(B)] == [20, 20]
    assert side[:, E.S_HAND].tolist() == [5, 5] and side[:, E.S_DRAWN].tolist() == [5, 5]
    assert side[:, E.S_DECK].tolist() == [40, 40]
    assert side[first, E.S_COIN] == 0 and side[1 - first, E.S_COIN] == 1
    assert scenario.st.game[E.G_TURN] == 0 and scenario.st.game[E.G_OVER] == 0
    assert scenario.counters[:, scenario.id("Pup"), DRAWN].tolist() == [5, 5]


@pytest.mark.parametrize(
    ("opening", "rest", "mulligans"),
    [
        (["Giant"] * 5, ["Pup"] * 10, 3),  # "up to 3 times": never more
        (["Giant", "Pup", "Pup", "Scout", "Guard"], ["Knight"] * 10, 1),  # only the 5-cost goes back
        (["Pup", "Scout", "Guard", "Raider", "Knight"], ["Giant"] * 10, 0),  # a hand that curves out is kept
        (["Knight", "Brute", "Knight", "Brute", "Knight"], ["Knight"] * 10, 3),  # nothing for the first two turns
    ],
)
def test_mulligan_up_to_three_cards_set_aside_then_shuffled_back(
    compiled: CompiledCards, opening: list[str], rest: list[str], mulligans: int
) -> None:
    """ "Each player can, up to 3 times, discard a card face-down then draw 1. These discarded cards then get
    shuffled back into the deck." (greedy sends back a 5+-cost card, or any when nothing costs 2 or less)."""
    scenario = Scenario(compiled)
    scenario.stack(A, *opening, *rest)
    for _ in range(5):
        E.draw_card(scenario.table, scenario.st, A)
    scenario.mulligan(A)
    log = scenario.log()
    assert sum("mulligans" in line for line in log) == mulligans
    hand, undrawn = scenario.hand(A), scenario.undrawn(A)
    assert len(hand) == 5
    assert sorted(hand + undrawn) == sorted(opening + rest)  # nothing lost, nothing duplicated
    assert int(scenario.st.side[A, E.S_DRAWN]) == 5
    if mulligans == 0:
        assert hand == opening


def test_mulligan_keeps_a_tiny_deck_whole(compiled: CompiledCards) -> None:
    """Set-aside cards go back without being duplicated even when the deck has no card left to draw."""
    scenario = Scenario(compiled)
    scenario.stack(A, "Giant", "Giant", "Giant")
    for _ in range(3):
        E.draw_card(scenario.table, scenario.st, A)
    scenario.mulligan(A)
    assert sorted(scenario.hand(A) + scenario.undrawn(A)) == ["Giant"] * 3


# ---- turns and plasma ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("turn", [1, 2, 3, 4, 5, 6])
def test_plasma_equals_your_turn_number_and_unspent_plasma_is_lost(compiled: CompiledCards, turn: int) -> None:
    """ "At the start of your first turn you gain 1 plasma. At the start of your second you gain 2 plasma ... any
    unspent plasma is lost by the beginning of your turn." And "At the start of every turn you draw 1 card"."""
    scenario = Scenario(compiled)
    scenario.st.side[A, E.S_TURNS] = turn - 1
    scenario.plasma(A, 4)  # left over from the last turn
    scenario.stack(A, "Pup", "Scout")
    scenario.run(E.start_turn, A)
    assert scenario.st.side[A, E.S_PLASMA] == turn
    assert scenario.hand(A) == ["Pup"]


def test_plasma_carries_into_the_opponents_turn_for_instants(compiled: CompiledCards) -> None:
    """ "Plasma does carry over from your turn into your opponent's turn": B spends what it kept at the end of A's
    turn on an Instant."""
    scenario = Scenario(compiled)
    scout = scenario.creature(A, "Scout")
    scenario.give(B, "Zap")
    scenario.plasma(B, 1)
    scenario.run(E.end_turn, A)
    assert scenario.names_on_field(A) == []
    assert scenario.hand(B) == [] and scenario.st.side[B, E.S_PLASMA] == 0
    assert scout == 0 and "Zap (B) deals 2 damage to Scout (A)" in scenario.log()


@pytest.mark.parametrize(("player", "has_coin", "plays_knight"), [(B, True, True), (A, False, False)])
def test_the_second_players_coin_gives_one_plasma_once(
    compiled: CompiledCards, player: int, has_coin: bool, plays_knight: bool
) -> None:
    """ "If you went second you start with the coin ... Once per game you may flip the coin from heads to tails to gain
    +1 plasma that turn." Greedy flips it when one more plasma pays for a card."""
    scenario = Scenario(compiled, first=A)
    scenario.give(player, "Knight")
    scenario.plasma(player, 2)
    assert bool(scenario.st.side[player, E.S_COIN]) is has_coin
    scenario.run(E.play_phase, player)
    assert (scenario.names_on_field(player) == ["Knight"]) is plays_knight
    assert scenario.st.side[player, E.S_COIN] == 0
    # Once per game: with the coin spent, the next 3-cost card waits.
    scenario.give(player, "Knight")
    scenario.plasma(player, 2)
    scenario.run(E.play_phase, player)
    assert scenario.hand(player) == (["Knight"] if plays_knight else ["Knight", "Knight"])


def test_play_phase_curves_out_with_the_costliest_card_first(compiled: CompiledCards) -> None:
    """Plasma "is used to play cards, being spent as you play them": greedy plays the costliest creature first."""
    scenario = Scenario(compiled)
    scenario.give(A, "Pup", "Knight", "Scout", "Giant")
    scenario.plasma(A, 4)
    scenario.run(E.play_phase, A)
    assert scenario.names_on_field(A) == ["Knight", "Pup"]
    assert scenario.st.side[A, E.S_PLASMA] == 0
    assert scenario.counters[A, scenario.id("Knight"), PLAYED] == 1


# ---- attacking -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sickness", "attacks"),
    [
        # "Creature cards stay on the field when you play them. ... You can use them for combat and winning the game!"
        (None, True),  # the default since ruleset 1.3: nothing holds a new creature back
        (0, True),
        # A house rule (the default up to 1.2): a creature played this turn cannot attack yet.
        (1, False),
    ],
)
def test_summoning_sickness_option(compiled: CompiledCards, sickness: int | None, attacks: bool) -> None:
    """ "You can only attack with untapped units." is the document's only condition on an attacker: a creature played
    this turn attacks at once, unless the `summoning_sickness` house rule is on."""
    scenario = Scenario(compiled) if sickness is None else Scenario(compiled, summoning_sickness=sickness)
    scenario.creature(A, "Raider", sick=True)
    scenario.run(E.battle_phase, A)
    assert (scenario.life(B) == 17) is attacks


@pytest.mark.parametrize(
    ("defenders", "life_after", "raider_tapped"),
    [
        ([], 17, True),  # nobody to block: the hit goes through
        ([("Guard", True)], 17, True),  # "If the opponent has no untapped units then they can't block."
        ([("Guard", False)], 20, True),  # an untapped Guard blocks and survives
    ],
)
def test_direct_attack_goes_through_unless_an_untapped_creature_blocks(
    compiled: CompiledCards, defenders: list[tuple[str, bool]], life_after: int, raider_tapped: bool
) -> None:
    """ "the opponent can either choose to let it go through and take damage equal to the power of the attacking card
    or block it. When they block it they choose one of their untapped units and they fight.\""""
    scenario = Scenario(compiled)
    raider = scenario.creature(A, "Raider")
    for name, tapped in defenders:
        scenario.creature(B, name, tapped=tapped)
    scenario.run(E.attack, A, raider, E.DIRECT)
    assert scenario.life(B) == life_after
    assert scenario.field(A)[0][2] is raider_tapped
    assert scenario.counters[A, scenario.id("Raider"), ATTACKED] == 1
    if defenders and not defenders[0][1]:
        assert scenario.field(B) == [("Guard", 3, True)]  # "both the attacker and the defender" are tapped
        assert scenario.field(A) == [("Raider", 1, True)]


@pytest.mark.parametrize(
    ("attacker", "blockers", "life", "blocked_by"),
    [
        ("Raider", ["Pup", "Giant"], 20, "Giant"),  # destroys the attacker and survives
        ("Raider", ["Pup", "Guard"], 20, "Guard"),  # survives the hit
        ("Brute", ["Brute"], 20, "Brute"),  # an even trade (cost 3 for cost 3)
        ("Giant", ["Pup"], 20, None),  # a chump block is not worth it at 20 Healthshards ...
        ("Giant", ["Pup"], 6, "Pup"),  # ... but is when the hit would be lethal
    ],
)
def test_greedy_blocks_well(
    compiled: CompiledCards, attacker: str, blockers: list[str], life: int, blocked_by: str | None
) -> None:
    scenario = Scenario(compiled)
    a = scenario.creature(A, attacker)
    for name in blockers:
        scenario.creature(B, name)
    scenario.st.side[B, E.S_LIFE] = life
    E.open_decision(scenario.st, E.D_BLOCK, B)
    scenario.st.game[E.G_ATTACKER] = a
    slot = E.choose_block(scenario.table, scenario.st, B, scenario.st.actions)
    assert (None if slot < 0 else scenario.names_on_field(B)[slot]) == blocked_by


@pytest.mark.parametrize(
    ("attacker", "defender", "destroyed"),
    [
        ("Wisp", "Scout", {"Wisp", "Scout"}),  # "This can mean that both creatures get destroyed in an attack."
        ("Brute", "Brute", {"Brute"}),  # 4 damage on resolve 3 (both Brutes: one name, checked per side below)
        ("Knight", "Knight", set()),  # 3 damage on resolve 3: "how much damage they can take before being destroyed"
        ("Giant", "Raider", {"Raider"}),
        ("Pup", "Raider", {"Pup"}),
        ("Guard", "Guard", set()),
    ],
)
def test_fights_deal_damage_at_once(compiled: CompiledCards, attacker: str, defender: str, destroyed: set[str]) -> None:
    """ "When two creatures battle they both take damage equal to the other creature's power ... After an attack,
    every creature gets tapped, both the attacker and the defender.\""""
    scenario = Scenario(compiled)
    scenario.creature(A, attacker)
    scenario.creature(B, defender)
    scenario.run(E.fight, A, 0, B, 0)
    power = {row["name"]: row.get("power", 0) for row in ROWS}
    resolve = {row["name"]: row.get("resolve", 0) for row in ROWS}
    a_dies = power[defender] > resolve[attacker]  # the default reading, lethal_damage=more_than
    d_dies = power[attacker] > resolve[defender]
    assert (scenario.field(A) == []) is a_dies
    assert (scenario.field(B) == []) is d_dies
    assert ({attacker} if a_dies else set()) | ({defender} if d_dies else set()) == destroyed
    for p, name, other in ((A, attacker, defender), (B, defender, attacker)):
        if scenario.field(p):
            assert scenario.field(p) == [(name, power[other], True)]
    assert scenario.counters[A, scenario.id(attacker), DAMAGE_DEALT] == power[attacker]
    if d_dies:
        assert scenario.counters[B, scenario.id(defender), DESTROYED] == 1


@pytest.mark.parametrize(
    ("rule", "damage", "destroyed"),
    [("at_least", 3, True), ("more_than", 3, False), ("at_least", 2, False), ("more_than", 4, True)],
)
def test_lethal_damage_option(compiled: CompiledCards, rule: str, damage: int, destroyed: bool) -> None:
    """ "a resolve (which is how much damage they can take before being destroyed)": at least vs more than."""
    scenario = Scenario(compiled, lethal_damage=int(rule == "more_than"))
    scenario.creature(B, "Knight", damage=damage)
    scenario.run(E.remove_the_dead)
    assert (scenario.field(B) == []) is destroyed


@pytest.mark.parametrize(
    ("rule", "damage", "stays"),
    [("more_than", 0, True), ("more_than", 1, False), ("at_least", 0, False)],
)
def test_a_creature_with_zero_resolve(compiled: CompiledCards, rule: str, damage: int, stays: bool) -> None:
    """The document sets no minimum resolve: resolve 0 is "how much damage they can take before being destroyed",
    none. Read as `more_than` the creature stays until it takes any damage; `at_least` destroys it as it enters."""
    scenario = Scenario(compiled, lethal_damage=int(rule == "more_than"))
    scenario.creature(B, "Wisp", damage=damage)
    scenario.run(E.remove_the_dead)
    assert scenario.names_on_field(B) == (["Wisp"] if stays else [])


def test_the_default_reading_lets_a_creature_take_its_resolve_in_damage(compiled: CompiledCards) -> None:
    """ "a resolve (which is how much damage they can take before being destroyed)": by default (`more_than`) a
    Knight (3/3) fighting a Knight takes 3 and stays; both end tapped."""
    scenario = Scenario(compiled)
    a = scenario.creature(A, "Knight")
    b = scenario.creature(B, "Knight")
    scenario.run(E.fight, A, a, B, b)
    assert scenario.field(A) == [("Knight", 3, True)] and scenario.field(B) == [("Knight", 3, True)]


@pytest.mark.parametrize(("wears_off", "damage_after"), [(0, 2), (1, 0)])
def test_damage_wears_off_option(compiled: CompiledCards, wears_off: int, damage_after: int) -> None:
    """Resolve is read as a total (damage stays) unless `damage_wears_off` clears it at the end of each turn."""
    scenario = Scenario(compiled, damage_wears_off=wears_off)
    scenario.creature(A, "Guard", damage=2)
    scenario.run(E.end_turn, A)
    assert scenario.field(A) == [("Guard", damage_after, False)]


@pytest.mark.parametrize(("allowed", "target"), [(1, "Scout"), (0, None)])
def test_attacking_a_creature_the_attacker_chooses_the_target(
    compiled: CompiledCards, allowed: int, target: str | None
) -> None:
    """ "you can also make your creatures to attack one of the opponent's creatures. In that case you choose which of
    the enemy's units becomes the blocker." With `attack_tapped_creatures` off, only untapped ones can be chosen."""
    scenario = Scenario(compiled, attack_tapped_creatures=allowed)
    brute = scenario.creature(A, "Brute")
    scenario.creature(B, "Scout", tapped=True)
    assert bool(E.can_be_attacked(scenario.st, B, 0)) is bool(allowed)
    choice = E.greedy_attack_choice(scenario.table, scenario.st, A, brute)
    assert (scenario.names_on_field(B)[choice] if choice >= 0 else None) == target
    scenario.run(E.attack, A, brute, choice)
    if target:
        assert scenario.field(A) == [("Brute", 2, True)] and scenario.field(B) == []
        assert scenario.life(B) == 20
    else:
        assert choice == E.DIRECT and scenario.life(B) == 16


def test_greedy_attacks_when_ahead_and_holds_back_from_a_bad_fight(compiled: CompiledCards) -> None:
    """Greedy: lethal first, then a fight it wins, then a safe direct attack; it holds back a creature that would
    be destroyed by a blocker that survives."""
    scenario = Scenario(compiled)
    pup = scenario.creature(A, "Pup")
    scenario.creature(B, "Knight")  # would block, take 1 of its 3 resolve and destroy the Pup
    assert E.greedy_attack_choice(scenario.table, scenario.st, A, pup) == E.HOLD
    scenario.st.side[B, E.S_LIFE] = 1
    scenario.st.board[B, 0, E.B_TAPPED] = 1
    assert E.greedy_attack_choice(scenario.table, scenario.st, A, pup) == E.DIRECT


@pytest.mark.parametrize(
    ("board_a", "board_b", "life_a", "life_b", "untap", "choice"),
    [
        # Losing the race (1 power against 20 Healthshards, 4 power against 8): the Guard survives the Brute's 4,
        # so greedy keeps it home to block rather than hit for 1.
        (["Guard"], ["Brute"], 8, 20, 0, "hold"),
        # The same board with every creature untapping each turn: attacking costs no blocker, so it attacks.
        (["Guard"], ["Brute"], 8, 20, 1, "direct"),
        # Winning the race (7 power against 10, 4 against 20): it attacks.
        (["Guard", "Giant"], ["Brute"], 20, 10, 0, "direct"),
        # Losing the race, but the Guard would block nothing well (the Giant destroys it and survives): it attacks.
        (["Guard"], ["Giant"], 12, 20, 0, "direct"),
        # The Brute's 4 is lethal next turn: any creature home may save the match, even one that cannot survive it.
        (["Pup"], ["Brute"], 4, 20, 0, "hold"),
    ],
)
def test_greedy_keeps_blockers_home_when_losing_the_race(
    compiled: CompiledCards,
    board_a: list[str],
    board_b: list[str],
    life_a: int,
    life_b: int,
    untap: int,
    choice: str,
) -> None:
    """ "When they block it they choose one of their untapped units and they fight." Attacking taps a creature, and
    creatures untap at the start of their owner's turn, so one that attacks cannot block in the opponent's next
    turn. Greedy (a policy, not a rule) attacks directly with a creature only while the race is clearly its own, or
    when the creature would block nothing well. B's creatures are tapped (they attacked last turn), so every direct
    attack here is safe."""
    scenario = Scenario(compiled, untap_every_turn=untap)
    for name in board_a:
        scenario.creature(A, name)
    for name in board_b:
        scenario.creature(B, name, tapped=True)
    scenario.st.side[A, E.S_LIFE] = life_a
    scenario.st.side[B, E.S_LIFE] = life_b
    got = E.greedy_attack_choice(scenario.table, scenario.st, A, 0)  # the first creature listed, the case's own
    assert {E.HOLD: "hold", E.DIRECT: "direct"}.get(got, "creature") == choice


@pytest.mark.parametrize(("every_turn", "b_untapped"), [(0, False), (1, True)])
def test_untapping_option(compiled: CompiledCards, every_turn: int, b_untapped: bool) -> None:
    """Untapping is not ruled: your creatures untap at the start of your turn (`untap_every_turn` untaps all)."""
    scenario = Scenario(compiled, untap_every_turn=every_turn)
    scenario.creature(A, "Knight", tapped=True)
    scenario.creature(B, "Knight", tapped=True)
    scenario.stack(A, "Pup")
    scenario.run(E.start_turn, A)
    assert scenario.field(A)[0][2] is False
    assert (not scenario.field(B)[0][2]) is b_untapped


# ---- equipment, events, instants, battlefields --------------------------------------------------------------------


def test_equipment_goes_under_a_creature_and_buffs_it_for_good(compiled: CompiledCards) -> None:
    """ "Equipment cards can be equipped to your Creature cards, letting you buff them ... put it underneath the
    Creature card you want to equip it to.\""""
    scenario = Scenario(compiled)
    scenario.give(A, "Blade")
    scenario.plasma(A, 2)
    assert not E.can_play(scenario.table, scenario.st, A, 0)  # no creature to go under
    raider = scenario.creature(A, "Raider")
    assert E.can_play(scenario.table, scenario.st, A, 0)
    scenario.run(E.play_card, A, 0, scenario.uid(A, raider), -1)
    assert scenario.power(A, raider) == 5
    scenario.run(E.end_turn, A)
    assert scenario.power(A, raider) == 5  # not a this-turn bonus
    assert "A puts Blade under Raider" in scenario.log()


@pytest.mark.parametrize(
    ("card", "setup", "check"),
    [
        ("Bolt", lambda s: s.creature(B, "Raider"), lambda s: s.field(B) == []),  # damage 3 destroys a 3/2
        ("Shot", lambda s: None, lambda s: s.life(B) == 18),  # damage player 2
        ("Mend", lambda s: s.st.side.__setitem__((A, E.S_LIFE), 14), lambda s: s.life(A) == 18),  # heal 4
        ("Mend", lambda s: s.st.side.__setitem__((A, E.S_LIFE), 18), lambda s: s.life(A) == 22),  # no cap
        ("Study", lambda s: s.stack(A, "Pup", "Scout", "Guard"), lambda s: s.hand(A) == ["Pup", "Scout"]),  # draw 2
        ("Doom", lambda s: (s.creature(B, "Pup"), s.creature(B, "Giant")), lambda s: s.names_on_field(B) == ["Pup"]),
        ("Battery", lambda s: None, lambda s: s.st.side[A, E.S_PLASMA] == 2 + 4 - 1),  # plasma +2
    ],
)
def test_events_and_instants_apply_their_effect_when_played(
    compiled: CompiledCards, card: str, setup: Callable[[Scenario], Any], check: Callable[[Scenario], bool]
) -> None:
    """ "Event cards have an effect that applies when they are played. They then go to the discard pile.\""""
    scenario = Scenario(compiled)
    setup(scenario)
    scenario.give(A, card)
    scenario.plasma(A, 4)
    scenario.run(E.play_card, A, len(scenario.hand(A)) - 1, -1, -1)
    assert check(scenario), scenario.log()
    assert card not in scenario.hand(A) and card not in scenario.names_on_field(A)


@pytest.mark.parametrize(("cap", "life"), [(None, 22), (0, 22), (20, 20), (25, 22), (21, 21)])
def test_healthshards_cap_option(compiled: CompiledCards, cap: int | None, life: int) -> None:
    """ "Both players start with 20 Healthstards (this game's HP), with the goal of reducing the opponent's
    Healthshards to 0.": 20 is where a player starts, not a most, so by default (None: `healthshards_cap` 0) healing
    has no cap; a number caps it there (a house rule; 20 up to ruleset 1.2)."""
    scenario = Scenario(compiled) if cap is None else Scenario(compiled, healthshards_cap=cap)
    scenario.st.side[A, E.S_LIFE] = 18
    scenario.give(A, "Mend")
    scenario.plasma(A, 2)
    scenario.run(E.play_card, A, 0, -1, -1)
    assert scenario.life(A) == life


def test_a_this_turn_bonus_ends_with_the_turn(compiled: CompiledCards) -> None:
    scenario = Scenario(compiled)
    knight = scenario.creature(A, "Knight")
    scenario.give(A, "Rally")
    scenario.plasma(A, 1)
    scenario.run(E.play_card, A, 0, -1, -1)
    assert scenario.power(A, knight) == 5
    scenario.run(E.end_turn, A)
    assert scenario.power(A, knight) == 3


@pytest.mark.parametrize(
    ("destroys", "after_turn"),
    [
        (None, [("Raider", 2, True)]),  # the default: it stays with its resolve's worth; the next damage destroys it
        (0, [("Raider", 2, True)]),
        (1, []),  # the reading up to ruleset 1.2: Brace only put the end off to the end of the turn
    ],
)
def test_a_resolve_bonus_ending_does_not_destroy(
    compiled: CompiledCards, destroys: int | None, after_turn: list[tuple[str, int, bool]]
) -> None:
    """ "a resolve (which is how much damage they can take before being destroyed)": a creature is destroyed as it
    takes damage beyond its resolve. A's Raider (3/2) with Brace (+3 resolve this turn) fights B's Brute (4/3) and
    survives its 4 damage; when Brace ends it takes no damage, so it stays (`resolve_bonus_end_destroys` off) with 2
    damage, its resolve's worth, and the next damage (Zap's 2) destroys it. On: Brace's end destroys it."""
    scenario = Scenario(compiled) if destroys is None else Scenario(compiled, resolve_bonus_end_destroys=destroys)
    raider = scenario.creature(A, "Raider")
    brute = scenario.creature(B, "Brute")
    scenario.give(A, "Brace")
    scenario.plasma(A, 1)
    scenario.run(E.attack, A, raider, brute)
    assert "Brace: Raider (A) gets +3 resolve this turn" in scenario.log()
    assert scenario.field(A) == [("Raider", 4, True)] and scenario.field(B) == [("Brute", 3, True)]
    scenario.run(E.end_turn, A)
    assert scenario.field(A) == after_turn
    if after_turn:
        scenario.give(B, "Zap")
        scenario.plasma(B, 1)
        scenario.run(E.play_card, B, 0, -1, -1)
        assert scenario.names_on_field(A) == []


def test_a_creature_with_an_effect_fires_it_when_played(compiled: CompiledCards) -> None:
    scenario = Scenario(compiled)
    scenario.creature(B, "Scout")
    scenario.stack(A, "Pup")
    scenario.give(A, "Sniper", "Herald")
    scenario.plasma(A, 5)
    scenario.run(E.play_phase, A)
    assert scenario.names_on_field(A) == ["Sniper", "Herald"]
    assert scenario.field(B) == []  # Sniper's damage 2
    assert scenario.hand(A) == ["Pup"]  # Herald's draw 1


@pytest.mark.parametrize(("before_damage", "life_after", "scout_left"), [(1, 20, False), (0, 18, True)])
def test_instants_can_be_played_in_the_opponents_battle_phase(
    compiled: CompiledCards, before_damage: int, life_after: int, scout_left: bool
) -> None:
    """ "Instant cards ... can be played at any time - they can be played on the Play Phase but also the Battle Phase,
    and even on the opponent's turn!" With `instants_before_damage` on, B destroys the attacker before it hits."""
    scenario = Scenario(compiled, instants_before_damage=before_damage)
    scout = scenario.creature(A, "Scout")  # 2/1: Zap's 2 damage is more than its resolve
    scenario.give(B, "Zap")
    scenario.plasma(B, 1)
    scenario.run(E.attack, A, scout, E.DIRECT)
    assert scenario.life(B) == life_after
    assert (scenario.names_on_field(A) == ["Scout"]) is scout_left


def test_the_attacker_may_play_an_instant_once_the_fight_is_known(compiled: CompiledCards) -> None:
    """The attacker's window comes first: Brace keeps A's Raider alive in a trade that would destroy both."""
    scenario = Scenario(compiled)
    raider = scenario.creature(A, "Raider")
    enemy = scenario.creature(B, "Raider")
    scenario.give(A, "Brace")
    scenario.plasma(A, 1)
    scenario.run(E.attack, A, raider, enemy)
    assert scenario.field(A) == [("Raider", 3, True)]
    assert scenario.field(B) == []


def test_no_instant_in_response_to_a_card(compiled: CompiledCards) -> None:
    """ "if the opponent plays a card that deals 3 damage to one of your cards for example you cannot "respond" with an
    Instant to heal it before it gets destroyed.\""""
    scenario = Scenario(compiled)
    scenario.creature(B, "Raider")  # 3/2: Bolt's 3 damage destroys it, unless Brace (+3 resolve) came first
    scenario.give(B, "Brace")
    scenario.plasma(B, 1)
    scenario.give(A, "Bolt")
    scenario.plasma(A, 2)
    scenario.run(E.play_card, A, 0, -1, -1)
    assert scenario.field(B) == []
    assert scenario.hand(B) == ["Brace"]


# ---- Instants at any time (`instants_any_time`, ruleset 1.4) -------------------------------------------------------


def open_play(scenario: Scenario, p: int = A) -> None:
    """p's play decision open, as the match loop opens it."""
    E.open_decision(scenario.st, E.D_PLAY, p)


def listed(scenario: Scenario) -> list[int]:
    """The open decision's legal actions, as every policy sees them."""
    n = E.legal_actions(scenario.table, scenario.st, scenario.st.actions)
    return [int(a) for a in scenario.st.actions[:n]]


@pytest.mark.parametrize(
    ("any_time", "a_plays", "b_hand", "b_plasma", "window"),
    [
        # "even on the opponent's turn": after A's creature is on the field, B may answer with the plasma it kept.
        (1, "Scout", ["Zap"], 1, True),
        # an ability that "goes in effect" opens the same window once it has.
        (1, "ability", ["Zap"], 1, True),
        # the opponent's Instant after an Instant of the active player's own play phase
        (1, "Battery", ["Zap"], 1, True),
        # nothing to pay with, or no Instant in hand: no window (the play decision stays A's)
        (1, "Scout", ["Zap"], 0, False),
        (1, "Scout", ["Raider"], 5, False),
        # the coin is not a card: flipping it opens no window
        (1, "coin", ["Zap"], 1, False),
        # the toggle off: the windows up to ruleset 1.3 (own play phase, around an attack, end of the opponent's turn)
        (0, "Scout", ["Zap"], 1, False),
        (0, "ability", ["Zap"], 1, False),
    ],
)
def test_an_instant_window_opens_after_each_card_of_the_opponents_play_phase(
    compiled: CompiledCards, any_time: int, a_plays: str, b_hand: list[str], b_plasma: int, window: bool
) -> None:
    """ "Instant cards ... can be played at any time ... and even on the opponent's turn! The main rules of it are that
    you cannot use an Instant card after the opponent activates a card but before it goes in effect"
    (`instants_any_time`): once a card or ability of A's play phase has gone in effect, the rules open B's instant
    decision (listed by `legal_actions` as every other decision); its PASS gives A's play decision back."""
    scenario = Scenario(compiled, instants_any_time=any_time)
    scenario.give(B, *b_hand)
    scenario.plasma(B, b_plasma)
    scenario.plasma(A, 3)
    if a_plays == "ability":
        scenario.creature(A, "Pinger")
        action = E.ACTIVATE + 0
    elif a_plays == "coin":
        scenario.st.side[A, E.S_COIN] = 1
        action = E.COIN
    else:
        scenario.give(A, a_plays)
        action = 0
    open_play(scenario)
    assert action in listed(scenario)
    E.apply(scenario.table, scenario.st, action)
    if not window:
        assert (scenario.st.game[E.G_DECISION], scenario.st.game[E.G_ACTOR]) == (E.D_PLAY, A)
        return
    assert (scenario.st.game[E.G_DECISION], scenario.st.game[E.G_ACTOR]) == (E.D_INSTANT, B)
    assert scenario.st.game[E.G_WINDOW] == E.WINDOW_PLAY
    assert listed(scenario) == [0, E.PASS]  # B's Zap, or pass
    E.apply(scenario.table, scenario.st, E.PASS)
    assert (scenario.st.game[E.G_DECISION], scenario.st.game[E.G_ACTOR]) == (E.D_PLAY, A)
    assert scenario.hand(B) == ["Zap"]


@pytest.mark.parametrize(
    ("any_time", "a_field", "b_hand", "log_tail"),
    [
        # Greedy B answers the creature that has just landed, in A's play phase, before A plays on.
        (
            1,
            ["Pup", "Pup"],
            [],
            [
                "A plays Scout (creature, 1 plasma; 2 left)",
                "B plays Zap (instant, 1 plasma; 0 left)",
                "Zap (B) deals 2 damage to Scout (A)",
                "Scout (A) is destroyed",
                "A plays Pup (creature, 1 plasma; 1 left)",
                "A plays Pup (creature, 1 plasma; 0 left)",
            ],
        ),
        # Up to ruleset 1.3 (the toggle off) B keeps the Zap through A's play phase.
        (
            0,
            ["Scout", "Pup", "Pup"],
            ["Zap"],
            [
                "A plays Scout (creature, 1 plasma; 2 left)",
                "A plays Pup (creature, 1 plasma; 1 left)",
                "A plays Pup (creature, 1 plasma; 0 left)",
            ],
        ),
    ],
)
def test_an_instant_in_the_opponents_play_phase_after_their_card_resolved(
    compiled: CompiledCards, any_time: int, a_field: list[str], b_hand: list[str], log_tail: list[str]
) -> None:
    """ "they can be played on the Play Phase but also the Battle Phase, and even on the opponent's turn!": A's Scout is
    on the field (its play has gone in effect) when B's Zap destroys it; A then goes on with its play phase."""
    scenario = Scenario(compiled, instants_any_time=any_time)
    scenario.give(A, "Scout", "Pup", "Pup")
    scenario.plasma(A, 3)
    scenario.give(B, "Zap")
    scenario.plasma(B, 1)
    scenario.run(E.play_phase, A)
    assert scenario.names_on_field(A) == a_field
    assert scenario.hand(B) == b_hand
    assert scenario.log() == log_tail
    assert scenario.st.game[E.G_DECISION] == E.D_NONE


@pytest.mark.parametrize("any_time", [1, 0])
def test_never_an_instant_between_a_card_and_its_effect(compiled: CompiledCards, any_time: int) -> None:
    """ "you cannot use an Instant card after the opponent activates a card but before it goes in effect - if the
    opponent plays a card that deals 3 damage to one of your cards for example you cannot "respond" with an Instant to
    heal it before it gets destroyed." A's Bolt waits for its target: the decision open is still A's card (its target),
    never B's Instant; B's window comes only once the Bolt has destroyed the Raider."""
    scenario = Scenario(compiled, instants_any_time=any_time)
    scenario.creature(B, "Raider")  # 3/2: Bolt's 3 damage destroys it, unless Brace (+3 resolve) came first
    scenario.give(B, "Brace")
    scenario.plasma(B, 1)
    scenario.give(A, "Bolt")
    scenario.plasma(A, 2)
    open_play(scenario)
    E.apply(scenario.table, scenario.st, 0)
    # The Bolt is played and its damage waits for a target: that is the decision open, and it is A's.
    assert scenario.st.game[E.G_PENDING] == E.D_ENEMY_TARGET and scenario.st.game[E.G_FX_PLAYER] == A
    assert listed(scenario) == [0]  # B's Raider, the only target; no Instant of B's is listed
    E.apply(scenario.table, scenario.st, 0)
    assert scenario.field(B) == [] and scenario.hand(B) == ["Brace"]
    # Only now, the Bolt gone in effect, B's window (with `instants_any_time`).
    opened = (scenario.st.game[E.G_DECISION], scenario.st.game[E.G_ACTOR])
    assert opened == ((E.D_INSTANT, B) if any_time else (E.D_PLAY, A))


@pytest.mark.parametrize(
    ("any_time", "life_b", "zap_played_at"),
    [
        # At the start of A's turn, once A has drawn: B's Zap destroys A's Scout before it can attack.
        (1, 20, "start"),
        # The toggle off (and no Instant before damage): the Scout hits, and B's Zap waits for the end of A's turn.
        (0, 18, "end"),
    ],
)
def test_an_instant_at_the_start_of_the_opponents_turn(
    compiled: CompiledCards, any_time: int, life_b: int, zap_played_at: str
) -> None:
    """ "can be played at any time ... and even on the opponent's turn!", so from its start (after the draw: "At the
    start of every turn you draw 1 card"), with the plasma B kept ("Plasma does carry over from your turn into your
    opponent's turn")."""
    scenario = Scenario(compiled, instants_any_time=any_time, instants_before_damage=0, turn_cap=2)
    scenario.creature(A, "Scout")
    scenario.stack(A, "Giant", "Giant")
    scenario.stack(B, "Giant", "Giant")
    scenario.give(B, "Zap")
    scenario.plasma(B, 1)
    scenario.run(E.play_stage, A, E.STAGE_TURN, E.NO_STAGE)  # A's turn 2, then the turn cap
    log = scenario.log()
    assert scenario.life(B) == life_b and scenario.names_on_field(A) == []
    zap = log.index("B plays Zap (instant, 1 plasma; 0 left)")
    if zap_played_at == "start":
        assert log[zap - 1] == "A draws Giant" and not any(" attacks " in line for line in log)
    else:
        assert any(" attacks " in line for line in log[:zap])


def test_greedy_holds_a_combat_trick_for_the_fight(compiled: CompiledCards) -> None:
    """Greedy answers in the new windows only with removal that destroys: its Brace (+3 resolve this turn) is worth
    nothing while A plays cards, and saves its Knight once A's Brute attacks it."""
    scenario = Scenario(compiled)
    knight = scenario.creature(B, "Knight")  # 3/3: the Brute's 4 damage destroys it, unless Braced
    scenario.give(B, "Brace")
    scenario.plasma(B, 1)
    scenario.give(A, "Brute")
    scenario.plasma(A, 3)
    scenario.run(E.play_phase, A)
    assert scenario.names_on_field(A) == ["Brute"] and scenario.hand(B) == ["Brace"]
    assert "B plays" not in " ".join(scenario.log())
    scenario.run(E.attack, A, 0, knight)
    assert scenario.field(B) == [("Knight", 4, True)] and scenario.hand(B) == []


@pytest.mark.parametrize(
    ("a_plays", "b_plays"),
    [
        ("Scout", True),  # Zap destroys the 2/1 Scout right after it lands
        ("Guard", False),  # Zap's 2 damage does not destroy the 1/4 Guard: greedy keeps it
    ],
)
def test_greedy_answers_a_creature_that_lands_only_when_its_removal_destroys_it(
    compiled: CompiledCards, a_plays: str, b_plays: bool
) -> None:
    scenario = Scenario(compiled)
    scenario.give(A, a_plays)
    scenario.plasma(A, 2)
    scenario.give(B, "Zap")
    scenario.plasma(B, 1)
    scenario.run(E.play_phase, A)
    assert (scenario.hand(B) == []) is b_plays


def test_the_random_policy_picks_uniformly_in_the_new_window(compiled: CompiledCards) -> None:
    """Random, in B's window after A's card: each Instant B can pay for and PASS, equally likely (about a third of
    300 picks each)."""
    picks: dict[int, int] = {}
    for seed in range(300):
        scenario = Scenario(compiled, policies=(E.GREEDY, E.RANDOM))
        E.rng_seed(scenario.st.rng, seed)
        scenario.give(A, "Pup")
        scenario.plasma(A, 1)
        scenario.give(B, "Zap", "Brace")
        scenario.plasma(B, 1)
        open_play(scenario)
        E.apply(scenario.table, scenario.st, 0)
        assert listed(scenario) == [0, 1, E.PASS]
        pick = int(E.choose_instant(scenario.table, scenario.st, B, scenario.st.actions))
        picks[pick] = picks.get(pick, 0) + 1
    assert set(picks) == {0, 1, E.PASS}
    assert all(70 <= count <= 130 for count in picks.values()), picks


def test_the_search_meets_the_window_through_the_rules(compiled: CompiledCards) -> None:
    """The search's play goes to the rules' `apply` (in its play phase and in every rollout), which plays on to the next
    decision: the opponent's window after the card is one of those decisions, answered by the opponent's policy."""
    scenario = Scenario(compiled, policies=(E.SEARCH, E.GREEDY))
    scenario.give(A, "Scout", "Pup")
    scenario.plasma(A, 2)
    scenario.give(B, "Zap")
    scenario.plasma(B, 1)
    open_play(scenario)
    E.apply(scenario.table, scenario.st, 0)
    assert (scenario.st.game[E.G_DECISION], scenario.st.game[E.G_ACTOR]) == (E.D_INSTANT, B)
    while scenario.st.game[E.G_DECISION] == E.D_INSTANT:
        E.apply(scenario.table, scenario.st, E.decide(scenario.table, scenario.st, 0))
    assert scenario.names_on_field(A) == [] and scenario.hand(B) == []
    assert (scenario.st.game[E.G_DECISION], scenario.st.game[E.G_ACTOR]) == (E.D_PLAY, A)
    # And a whole searched turn plays through it.
    searched = Scenario(compiled, policies=(E.SEARCH, E.GREEDY))
    searched.give(A, "Scout")
    searched.plasma(A, 1)
    searched.give(B, "Zap")
    searched.plasma(B, 1)
    searched.stack(A, "Pup", "Pup", "Pup", "Pup")
    searched.stack(B, "Pup", "Pup", "Pup", "Pup")
    searched_turn(searched)
    assert searched.st.searched[0] >= 1  # the play decision was searched: Scout or stop, each played out
    log = searched.log()
    scout = "A plays Scout (creature, 1 plasma; 0 left)"
    # Whichever it chose, the rules' window: B's Zap right after a Scout that landed, never before.
    assert (scout in log) is ("B plays Zap (instant, 1 plasma; 0 left)" in log)
    if scout in log:
        assert log[log.index(scout) + 1] == "B plays Zap (instant, 1 plasma; 0 left)"


@pytest.mark.parametrize(("replace", "playable", "field_after"), [(1, True, "Forge"), (0, False, "Shrine")])
def test_one_battlefield_each(compiled: CompiledCards, replace: int, playable: bool, field_after: str) -> None:
    """ "Each player can only have one Battlefield card on their field at once." (`replace_battlefield`)"""
    scenario = Scenario(compiled, replace_battlefield=replace)
    knight = scenario.creature(A, "Knight")
    scenario.battlefield(A, "Shrine")
    assert scenario.resolve(A, knight) == 4
    scenario.give(A, "Forge")
    scenario.plasma(A, 3)
    assert bool(E.can_play(scenario.table, scenario.st, A, 0)) is playable
    if playable:
        scenario.run(E.play_card, A, 0, -1, -1)
        assert (scenario.power(A, knight), scenario.resolve(A, knight)) == (4, 3)
    assert compiled.names[scenario.st.side[A, E.S_BATTLEFIELD]] == field_after


@pytest.mark.parametrize(("timing", "plasma_at_start", "plasma_when_played"), [("each_turn", 3, 0), ("on_play", 2, 1)])
def test_battlefield_effects_option(
    compiled: CompiledCards, timing: str, plasma_at_start: int, plasma_when_played: int
) -> None:
    """ "Battlefield are cards that stay on the field after being played": its non-stat clauses fire at the start of
    each of your turns (`each_turn`) or once when played (`on_play`)."""
    scenario = Scenario(compiled, battlefield_effects=int(timing == "each_turn"))
    scenario.give(A, "Well")
    scenario.plasma(A, 2)
    scenario.run(E.play_card, A, 0, -1, -1)
    assert scenario.st.side[A, E.S_PLASMA] == plasma_when_played
    scenario.st.side[A, E.S_TURNS] = 1
    scenario.stack(A, "Pup")
    scenario.run(E.start_turn, A)
    assert scenario.st.side[A, E.S_PLASMA] == plasma_at_start


# ---- the end of a match --------------------------------------------------------------------------------------------


def test_zero_healthshards_ends_the_match_at_once(compiled: CompiledCards) -> None:
    """ "with the goal of reducing the opponent's Healthshards to 0\""""
    scenario = Scenario(compiled)
    raider = scenario.creature(A, "Raider")
    scenario.st.side[B, E.S_LIFE] = 2
    scenario.run(E.attack, A, raider, E.DIRECT)
    assert scenario.over and scenario.winner == A and scenario.life(B) == -1


@pytest.mark.parametrize(("loses", "over"), [(0, False), (1, True)])
def test_deck_out_option(compiled: CompiledCards, loses: int, over: bool) -> None:
    """The document names no loss but 0 Healthshards, so an empty deck draws nothing (`deck_out_loses` to lose)."""
    scenario = Scenario(compiled, deck_out_loses=loses)
    scenario.stack(A)
    scenario.run(E.start_turn, A)
    assert scenario.over is over and scenario.hand(A) == []
    if over:
        assert scenario.winner == B
    assert "A has no card left to draw" in scenario.log()


@pytest.mark.parametrize("cap", [4, 10])
def test_turn_cap_ends_a_match_as_a_draw(compiled: CompiledCards, cap: int) -> None:
    """A match that reaches `turn_cap` turns is a draw (walls that cannot hurt each other)."""
    scenario = Scenario(compiled, turn_cap=cap)
    deck = np.array([scenario.id("Guard")] * 40, dtype=np.int64)
    E.setup_match(scenario.table, scenario.st, deck, deck, 3, A, 0, 0)
    scenario.run(E.play_on, 0)
    assert scenario.winner == -1 and int(scenario.st.game[E.G_TURN]) == cap
    assert scenario.log()[-1] == f"turn cap of {cap} turns reached: the match is a draw"


# ---- compiling -----------------------------------------------------------------------------------------------------


def test_an_effect_outside_the_vocabulary_is_simulated_without_it_and_reported(compiled: CompiledCards) -> None:
    frost = compiled.card_id("Frost")
    assert compiled.table[frost, E.T_CLAUSES] == 1  # `draw 1` only
    assert compiled.table[frost, E.T_CLAUSE0] == E.OP_DRAW
    [finding] = [f for f in compiled.findings if f.card == "Frost"]
    assert (finding.severity, finding.rule, finding.row, finding.column) == (
        "info",
        "plasma.effect_not_simulated",
        25,
        "effects",
    )


def test_cards_are_compiled_to_integer_opcodes(compiled: CompiledCards) -> None:
    shrine = compiled.card_id("Shrine")
    row = compiled.table[shrine]
    assert row[E.T_KIND] == E.K_BATTLEFIELD and row[E.T_COST] == 3
    assert row[E.T_CLAUSES] == 2
    assert row[E.T_CLAUSE0 : E.T_CLAUSE0 + 4].tolist() == [E.OP_RESOLVE, 1, E.OP_HEAL, 1]
    assert row[E.T_TOTAL + E.OP_RESOLVE] == 1 and row[E.T_TOTAL + E.OP_HEAL] == 1
    assert compiled.slot[shrine] == 1 and compiled.slot[compiled.card_id("Pup")] == 0
    assert compiled.cost[compiled.card_id("Giant")] == 5.0


def test_a_deck_larger_than_the_engine_holds_is_refused(compiled: CompiledCards) -> None:
    from workbench.cards import WorkbenchInputError

    deck = np.zeros(E.MAX_DECK + 1, dtype=np.int64)
    with pytest.raises(WorkbenchInputError, match="more than the simulator plays in one deck"):
        E.play_batch(compiled, deck, deck, np.array([1], dtype=np.int64), np.array([0], dtype=np.int8), 0, 0)


# ---- activated creature abilities ---------------------------------------------------------------------------------


def activations(scenario: Scenario) -> int:
    return sum(" activates " in line for line in scenario.log())


def test_an_activated_ability_costs_its_plasma_and_does_not_happen_when_the_creature_is_played(
    compiled: CompiledCards,
) -> None:
    """ "During the Play Phase you may play cards, activate effects and etc."

    Pinger (`activate 1: damage player 1`) deals nothing when played; activating it pays 1 plasma
    and deals 1 to the opponent."""
    scenario = Scenario(compiled)
    scenario.give(A, "Pinger")
    scenario.plasma(A, 3)
    scenario.run(E.play_card, A, 0, -1, -1)
    assert scenario.life(B) == 20 and int(scenario.st.side[A, E.S_PLASMA]) == 1
    assert E.can_activate(scenario.table, scenario.st, A, 0)
    scenario.run(E.activate, A, 0)
    assert scenario.life(B) == 19 and int(scenario.st.side[A, E.S_PLASMA]) == 0
    assert "A activates Pinger's ability (1 plasma; 0 left)" in scenario.log()
    assert not E.can_activate(scenario.table, scenario.st, A, 0)  # no plasma left, and once this turn


@pytest.mark.parametrize(("per_turn", "plasma", "expected"), [(1, 5, 1), (3, 5, 3), (99, 5, 5), (99, 2, 2)])
def test_activations_per_turn_option(compiled: CompiledCards, per_turn: int, plasma: int, expected: int) -> None:
    """ "During the Play Phase you may play cards, activate effects and etc."

    The document gives no number: by default a creature's ability may be activated once per turn
    (`activations_per_turn`); with a larger limit only plasma stops it."""
    scenario = Scenario(compiled, activations_per_turn=per_turn)
    scenario.creature(A, "Pinger")
    scenario.plasma(A, plasma)
    scenario.run(E.play_phase, A)
    assert activations(scenario) == expected
    assert scenario.life(B) == 20 - expected and int(scenario.st.side[A, E.S_PLASMA]) == plasma - expected


def test_an_ability_is_repeatable_turn_after_turn(compiled: CompiledCards) -> None:
    """ "During the Play Phase you may play cards, activate effects and etc."

    And "At the start of every turn": the once-per-turn count starts again each of your turns."""
    scenario = Scenario(compiled)
    scenario.creature(A, "Pinger")
    scenario.stack(A, "Pup", "Pup", "Pup")
    for turn in range(3):
        scenario.st.side[A, E.S_TURNS] = turn
        scenario.run(E.start_turn, A)
        scenario.st.side[A, E.S_HAND] = 0  # nothing to play but the ability
        scenario.run(E.play_phase, A)
        scenario.run(E.end_turn, A)
    assert activations(scenario) == 3 and scenario.life(B) == 17


def test_no_ability_is_activated_once_the_battle_phase_starts(compiled: CompiledCards) -> None:
    """ "once you start the Battle Phase you can no longer play new cards or activate monster effects until the rest
    of the turn, with the exception of Instant cards": the battle phase and the end of turn never activate one."""
    scenario = Scenario(compiled)
    scenario.creature(A, "Pinger")
    scenario.creature(B, "Torch")
    scenario.plasma(A, 5)
    scenario.plasma(B, 5)
    scenario.run(E.battle_phase, A)
    scenario.run(E.end_turn, A)
    assert activations(scenario) == 0
    assert int(scenario.st.side[A, E.S_PLASMA]) == 5 and int(scenario.st.side[B, E.S_PLASMA]) == 5


@pytest.mark.parametrize(("sickness", "allowed"), [(0, True), (1, False)])
def test_activation_sickness_option(compiled: CompiledCards, sickness: int, allowed: bool) -> None:
    """ "During the Play Phase you may play cards, activate effects and etc."

    Nothing ties activating to a creature's first turn (`activation_sickness` off); on, a creature
    played this turn cannot activate yet. Either way it may attack this turn (`summoning_sickness` off)."""
    scenario = Scenario(compiled, activation_sickness=sickness)
    scenario.give(A, "Pinger")
    scenario.plasma(A, 3)
    scenario.run(E.play_phase, A)
    assert scenario.names_on_field(A) == ["Pinger"]
    assert activations(scenario) == int(allowed) and scenario.life(B) == 20 - int(allowed)
    assert E.can_attack(scenario.st, A, 0)  # "You can only attack with untapped units.": no summoning sickness


def test_an_abilitys_power_bonus_goes_to_the_creature_itself_this_turn(compiled: CompiledCards) -> None:
    """Smith (`activate 0: power +1`) pumps itself, not the stronger Giant beside it, and the bonus ends with the
    turn, as an event's "this turn" bonus does."""
    scenario = Scenario(compiled, activations_per_turn=3)
    giant = scenario.creature(A, "Giant")
    smith = scenario.creature(A, "Smith")
    scenario.run(E.play_phase, A)
    assert activations(scenario) == 3
    assert scenario.power(A, smith) == 5 and scenario.power(A, giant) == 6
    scenario.run(E.end_turn, A)
    assert scenario.power(A, smith) == 2


def test_damage_from_an_ability_picks_a_target_and_counts_for_the_creature(compiled: CompiledCards) -> None:
    """Torch (`activate 1: damage 2`): greedy spends the plasma when the damage destroys a creature; the damage is
    counted for Torch."""
    scenario = Scenario(compiled)
    scenario.creature(A, "Torch")
    scenario.creature(B, "Raider")  # resolve 2: survives 2 damage under `lethal_damage=more_than`
    scenario.creature(B, "Scout")  # resolve 1: 2 damage destroys it
    scenario.plasma(A, 1)
    scenario.run(E.play_phase, A)
    assert scenario.names_on_field(B) == ["Raider"]
    assert scenario.counters[A, scenario.id("Torch"), DAMAGE_DEALT] == 2
    assert scenario.counters[A, scenario.id("Torch"), PLAYED] == 0  # activating is not playing a card


def test_a_creatures_on_play_effect_and_its_ability_are_apart(compiled: CompiledCards) -> None:
    """Sage (`draw 1; activate 2: draw 1`) draws once when played, and once more each time it is activated."""
    scenario = Scenario(compiled)
    scenario.stack(A, "Pup", "Scout", "Guard")
    scenario.give(A, "Sage")
    scenario.plasma(A, 4)
    scenario.run(E.play_phase, A)
    # Played for 2 plasma, Sage draws Pup, which greedy plays for 1; the 1 left is short of the ability's 2.
    assert scenario.names_on_field(A) == ["Sage", "Pup"] and scenario.hand(A) == []
    assert activations(scenario) == 0
    scenario.plasma(A, 2)
    scenario.run(E.activate, A, 0)
    assert activations(scenario) == 1 and scenario.hand(A) == ["Scout"]


def test_greedy_curves_out_before_it_spends_plasma_on_an_ability(compiled: CompiledCards) -> None:
    """Greedy plays the creature it can pay for first, and activates with what is left."""
    for plasma, expected in ((2, 0), (3, 1)):
        scenario = Scenario(compiled)
        scenario.creature(A, "Pinger")
        scenario.give(A, "Raider")
        scenario.plasma(A, plasma)
        scenario.run(E.play_phase, A)
        assert scenario.names_on_field(A) == ["Pinger", "Raider"]
        assert activations(scenario) == expected


def test_the_random_policy_chooses_among_plays_activations_and_stopping(compiled: CompiledCards) -> None:
    """Random: a playable card, an ability it can pay for, or stop, each equally likely."""
    seen = set()
    for seed in range(60):
        scenario = Scenario(compiled, policies=(E.RANDOM, E.RANDOM))
        E.rng_seed(scenario.st.rng, seed)
        scenario.creature(A, "Pinger")
        scenario.give(A, "Pup")
        scenario.plasma(A, 1)
        n = E.legal_plays(scenario.table, scenario.st, A, scenario.st.actions)
        seen.add(int(E.random_play(scenario.st, scenario.st.actions, n)))
    assert seen == {E.STOP, 0, E.ACTIVATE + 0}


def test_the_field_is_read_for_abilities_only_while_a_creature_with_one_is_there(compiled: CompiledCards) -> None:
    """`setup_match` lowers the cheapest play to the cheapest ability; the creatures with an ability on the field are
    counted as they enter and leave it (S_FIELD_ABILITIES), and the hand's cheapest Instant as cards come and go
    (S_HAND_INSTANT)."""
    scenario = Scenario(compiled)
    plain = np.array([scenario.id("Raider")] * 40, dtype=np.int64)
    able = np.array([scenario.id("Raider")] * 39 + [scenario.id("Smith")], dtype=np.int64)
    E.setup_match(scenario.table, scenario.st, plain, able, 3, A, 0, 0)
    assert scenario.st.side[:, E.S_CHEAPEST].tolist() == [2, 0]
    assert scenario.st.side[:, E.S_FIELD_ABILITIES].tolist() == [0, 0]
    assert scenario.st.side[:, E.S_HAND_INSTANT].tolist() == [E.NO_INSTANT, E.NO_INSTANT]
    scenario.creature(B, "Raider")
    smith = scenario.creature(B, "Smith")
    assert scenario.st.side[B, E.S_FIELD_ABILITIES] == 1
    E.destroy_creature(scenario.table, scenario.st, B, smith, -1)
    assert scenario.st.side[B, E.S_FIELD_ABILITIES] == 0
    scenario.stack(A, "Zap", "Raider")
    for _ in range(2):
        E.draw_card(scenario.table, scenario.st, A)
    assert scenario.st.side[A, E.S_HAND_INSTANT] == 1  # Zap's cost
    E.remove_from_hand(scenario.table, scenario.st, A, scenario.hand(A).index("Zap"))
    assert scenario.st.side[A, E.S_HAND_INSTANT] == E.NO_INSTANT


def test_abilities_are_compiled_beside_the_cards_own_clauses(compiled: CompiledCards) -> None:
    sage = compiled.table[compiled.card_id("Sage")]
    assert sage[E.T_CLAUSES] == 1 and sage[E.T_CLAUSE0 : E.T_CLAUSE0 + 2].tolist() == [E.OP_DRAW, 1]
    assert sage[E.T_HAS_ABILITY] == 1 and sage[E.ABILITY + E.T_COST] == 2
    assert sage[E.ABILITY + E.T_CLAUSES] == 1
    assert sage[E.ABILITY + E.T_CLAUSE0 : E.ABILITY + E.T_CLAUSE0 + 2].tolist() == [E.OP_DRAW, 1]
    assert compiled.table[compiled.card_id("Raider"), E.T_HAS_ABILITY] == 0


def test_an_ability_on_a_card_that_is_not_a_creature_is_reported_and_left_out(compiled: CompiledCards) -> None:
    relic = compiled.table[compiled.card_id("Relic")]
    assert relic[E.T_HAS_ABILITY] == 0 and relic[E.T_CLAUSES] == 1  # `power +1` only
    [finding] = [f for f in compiled.findings if f.card == "Relic"]
    assert finding.rule == "plasma.effect_not_simulated" and "only a creature has an activated ability" in (
        finding.message
    )


# ---- the search policy ---------------------------------------------------------------------------------------------


def search_tools(scenario: Scenario, seed: int = 5) -> tuple[Any, Any]:
    """Seed the search's own generator; (the state a round's world is dealt in, the state a rollout plays on), of
    the scenario's record type, as a traced batch makes them."""
    E.rng_seed(scenario.st.srng, seed)
    world = E.new_state(scenario.st.options.copy(), traced=True)
    sim = E.new_state(scenario.st.options.copy(), traced=True)
    return world, sim


def searched_turn(scenario: Scenario, seed: int = 5) -> None:
    """A's play and battle phases, searched."""
    world, sim = search_tools(scenario, seed)
    table, st = scenario.table, scenario.st
    st.game[E.G_PLAYER] = A
    st.game[E.G_STAGE] = E.STAGE_PLAY
    E.advance(table, st, E.STAGE_END)
    while not scenario.over and (st.game[E.G_PENDING] != E.D_NONE or st.game[E.G_DECISION] != E.D_NONE):
        E.take(table, st, E.decide_searched(table, st, (world, sim)))
        E.advance(table, st, E.STAGE_END)


def shot_wins_now(compiled: CompiledCards, policy: int) -> Scenario:
    # B is at 2 Healthshards; A, at 1, faces a Giant and a Brute ready to attack next turn. A has 3 plasma, a Knight
    # and a Shot (damage player 2). Greedy curves out, "the costliest creature first": the Knight, which blocks one
    # attacker of the two, and A loses. The Shot reduces "the opponent's Healthshards to 0" at once.
    scenario = Scenario(compiled, policies=(policy, E.GREEDY))
    scenario.st.side[A, E.S_LIFE] = 1
    scenario.st.side[B, E.S_LIFE] = 2
    scenario.creature(B, "Giant")
    scenario.creature(B, "Brute")
    scenario.give(A, "Knight", "Shot")
    scenario.plasma(A, 3)
    scenario.give(B, "Pup", "Scout")
    scenario.stack(A, "Pup", "Guard", "Raider")
    scenario.stack(B, "Knight", "Pup", "Guard")
    return scenario


def test_search_finds_the_winning_shot_greedy_misses(compiled: CompiledCards) -> None:
    greedy = shot_wins_now(compiled, E.GREEDY)
    greedy.run(E.play_phase, A)
    assert greedy.names_on_field(A) == ["Knight"] and not greedy.over
    greedy.run(E.battle_phase, A)
    greedy.run(E.end_turn, A)
    greedy.run(E.play_stage, B, E.STAGE_TURN, E.NO_STAGE)  # the match goes on from B's turn
    assert greedy.winner == B
    searched = shot_wins_now(compiled, E.SEARCH)
    searched_turn(searched)
    assert searched.winner == A and searched.life(B) == 0
    assert "A plays Shot (event, 1 plasma; 2 left)" in searched.log()
    # The decision that won: greedy's Knight first, then stop and Shot; 2 rollouts a candidate on average, by
    # successive halving: all three get 1, then the better two 1 more (the Knight beats stop on the tie, being
    # first). Shot won every rollout it was given (WIN_POINTS each), the Knight and stopping none.
    st = searched.st
    figures = {
        "stop" if c < 0 else compiled.names[int(st.hand[A, c])]: (
            int(st.score[E.SC_POINTS + k]),
            int(st.score[E.SC_TRIED + k]),
        )
        for k, c in enumerate(st.choice[:3])
    }
    assert [int(c) for c in st.choice[:3]][1] == E.STOP
    assert figures == {"Knight": (0, 2), "stop": (0, 1), "Shot": (2 * WIN_POINTS, 2)}


def close_choices(compiled: CompiledCards, hidden_hand: Sequence[str], hidden_deck: Sequence[str]) -> Scenario:
    # No line wins at once, so every choice's figure is a share of wins that B's unseen cards move.
    scenario = Scenario(compiled, policies=(E.SEARCH, E.GREEDY))
    for p in (A, B):
        scenario.st.side[p, E.S_LIFE] = 9
    scenario.creature(A, "Scout")
    scenario.creature(B, "Guard")
    scenario.creature(B, "Pup", tapped=True)
    scenario.give(A, "Raider", "Knight", "Bolt", "Shot", "Herald")
    scenario.plasma(A, 4)
    scenario.give(B, *hidden_hand)
    scenario.stack(A, "Pup", "Brute", "Guard", "Raider", "Giant", "Scout")
    scenario.stack(B, *hidden_deck)
    return scenario


HIDDEN = ["Giant", "Brute", "Knight", "Raider", "Pup", "Scout", "Bolt", "Mend", "Guard"]


def first_decision(scenario: Scenario) -> list[int]:
    """The points, then the rollouts given, of each choice of A's first play-phase decision."""
    world, sim = search_tools(scenario)
    # A's play decision open in A's turn, as `advance` opens it: its rollouts go on to A's battle phase and on.
    scenario.st.game[E.G_PLAYER] = A
    scenario.st.game[E.G_STAGE] = E.STAGE_BATTLE
    E.open_decision(scenario.st, E.D_PLAY, A)
    listed = E.legal_plays(scenario.table, scenario.st, A, scenario.st.actions)
    greedy = E.greedy_play(scenario.table, scenario.st, A)
    n = E.play_choices(scenario.table, scenario.st, A, greedy, listed)
    E.search_decision(scenario.table, scenario.st, world, sim, A, np.int64(n))
    score = scenario.st.score
    return [int(v) for v in score[E.SC_POINTS : E.SC_POINTS + n]] + [int(v) for v in score[E.SC_TRIED : E.SC_TRIED + n]]


@pytest.mark.parametrize("order", [1, 2, 3])
def test_search_decisions_do_not_change_when_the_opponents_hidden_cards_are_permuted(
    compiled: CompiledCards, order: int
) -> None:
    # "never peeks": what A cannot see (B's hand and the order of both draw decks) is dealt again before each rollout
    # from what A can know, so moving B's unseen cards between its hand and its deck changes nothing A decides.
    permuted = [str(name) for name in np.random.default_rng(order).permutation(HIDDEN)]
    assert permuted[:3] != HIDDEN[:3]
    reference = close_choices(compiled, HIDDEN[:3], HIDDEN[3:])
    moved = close_choices(compiled, permuted[:3], permuted[3:])
    assert sorted(reference.hand(B) + reference.undrawn(B)) == sorted(moved.hand(B) + moved.undrawn(B))
    figures = first_decision(reference)
    assert figures == first_decision(close_choices(compiled, permuted[:3], permuted[3:]))
    assert len(set(figures)) > 1  # the choices differ: the figures say something
    searched_turn(reference)
    searched_turn(moved)
    assert reference.log() == moved.log() and reference.field(A) == moved.field(A)


def test_search_figures_read_which_cards_are_unseen(compiled: CompiledCards) -> None:
    # The figures do depend on B's unseen cards (other cards, not the same ones moved, give other figures), so the
    # test above would see a peek.
    reference = first_decision(close_choices(compiled, HIDDEN[:3], HIDDEN[3:]))
    assert reference != first_decision(close_choices(compiled, ["Pup"] * 3, ["Pup"] * 6))


def test_search_cut_off_scores_the_position_by_the_games_own_evaluation(compiled: CompiledCards) -> None:
    # A's worth by hand from the EVAL_* weights, A's turn next: 12 Healthshards, a Knight with 1 damage, 2 cards in
    # hand; B's: 25 Healthshards (counted up to EVAL_LIFE_CAP), nothing else.
    scenario = Scenario(compiled)
    scenario.st.side[A, E.S_LIFE] = 12
    scenario.st.side[B, E.S_LIFE] = 25
    scenario.creature(A, "Knight", damage=1)
    scenario.give(A, "Pup", "Shot")
    power, resolve = (int(scenario.st.board[A, 0, f]) for f in (E.B_POWER, E.B_RESOLVE))
    mine = (
        (E.EVAL_LIFE + E.EVAL_MOVER_LIFE) * 12
        + E.EVAL_CREATURE
        + (E.EVAL_POWER + E.EVAL_MOVER_POWER) * power
        + E.EVAL_RESOLVE * (resolve - 1)
        + 2 * E.EVAL_HAND
        + E.EVAL_TEMPO
    )
    theirs = (E.EVAL_LIFE - E.EVAL_MOVER_LIFE) * min(25, E.EVAL_LIFE_CAP)
    assert E.search_side_worth(scenario.table, scenario.st, A, 1) == mine
    assert E.search_side_worth(scenario.table, scenario.st, B, 0) == theirs
    expected = int(position_points(np.int64(mine - theirs), np.int64(E.EVAL_HALF)))
    assert E.search_evaluation(scenario.table, scenario.st, A, A) == expected
    # From B's view (A still moving next): the same advantage the other way, the points mirrored about a draw (to the
    # integer division's rounding).
    assert abs(int(E.search_evaluation(scenario.table, scenario.st, B, A)) + expected - 2 * DRAW_POINTS) <= 1
    assert 0 < expected < WIN_POINTS
    # An even board: the side whose turn is next is ahead, and the points are the same whoever asks.
    even = Scenario(compiled)
    ahead = int(E.search_evaluation(even.table, even.st, A, A))
    behind = int(E.search_evaluation(even.table, even.st, A, B))
    assert ahead > DRAW_POINTS and abs(behind + ahead - 2 * DRAW_POINTS) <= 1
    assert E.search_evaluation(even.table, even.st, B, B) == ahead


@pytest.mark.parametrize("depth", [0, 1, 2])
def test_search_rollouts_stop_after_search_depth_turns_and_play_on_at_depth_0(
    compiled: CompiledCards, depth: int
) -> None:
    # At depth 0 every rollout plays to the match's end, so each scores WIN_POINTS, DRAW_POINTS or 0 and every
    # candidate's sum is a multiple of DRAW_POINTS; cut off, rollouts score positions (no win is in reach here).
    scenario = close_choices(compiled, HIDDEN[:3], HIDDEN[3:])
    scenario.st.options[E.OPTION_ORDER.index("search_depth")] = depth
    figures = first_decision(scenario)
    n = len(figures) // 2
    points = figures[:n]
    if depth == 0:
        assert all(v % DRAW_POINTS == 0 for v in points)
    else:
        assert any(v % DRAW_POINTS != 0 for v in points)


def test_search_spends_each_decisions_budget_by_successive_halving(compiled: CompiledCards) -> None:
    # The rollouts each candidate was given are successive halving's schedule (play.search.schedule) for a budget
    # of search_rollouts x candidates, the choice is the last round's best, and `searched` counts them all.
    scenario = close_choices(compiled, HIDDEN[:3], HIDDEN[3:])
    rollouts = 4
    scenario.st.options[E.OPTION_ORDER.index("search_rollouts")] = rollouts
    before = int(scenario.st.searched[1])
    figures = first_decision(scenario)
    n = len(figures) // 2
    points, tried = figures[:n], figures[n:]
    plan = schedule(rollouts * n, n)
    assert len(plan) >= 2 and plan[0][0] == n
    # A candidate dropped after round r was given the shares of rounds 0 to r; the last round's all of them.
    assert sorted(tried) == rollouts_given(rollouts * n, n)
    assert int(scenario.st.searched[1]) - before == sum(alive * share for alive, share in plan) <= rollouts * n
    best = int(scenario.st.score[E.SC_ORDER])
    last = [k for k in range(n) if tried[k] == max(tried)]
    assert best in last and points[best] == max(points[k] for k in last)
