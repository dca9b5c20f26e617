"""The circles match engine: one scenario per rule of the document and per ability, then sanity and determinism.

Scenarios build a board with `MatchArrays`, call one kernel step (combat, a turn, a draw) and check the outcome.
The golden trace lives in tests/golden/circles_trace.txt; to regenerate it on purpose, run

    .venv/bin/workbench simulate cardsets/circles/circle_starter.csv \\
        --deck cardsets/circles/decks/tricks_control.txt --deck cardsets/circles/decks/balanced_tricolour.txt \\
        --seed 7 --trace > tests/golden/circles_trace.txt

and read the diff before committing it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from workbench.analysis import power_curve
from workbench.cards import CardSet, Deck
from workbench.decklists import read_decklist
from workbench.engines import PLAYED
from workbench.loading import load_cardset
from workbench.paths import REPO_ROOT
from workbench.play.loop import BATCH_WINNERS, new_batch
from workbench.play.policies import GREEDY, RANDOM
from workbench.play.search import schedule
from workbench.rulesets.circles import RULESET
from workbench.rulesets.circles import engine as E
from workbench.rulesets.circles.abilities import ABILITIES
from workbench.run_settings import RunSettings
from workbench.simulate import PARALLEL_THRESHOLD, simulate, trace

MakeCardSet = Callable[..., CardSet]

# name: (red, blue, green, attack, health, abilities); resources follow.
SCENARIO_CARDS: dict[str, tuple[int, int, int, int, int, str]] = {
    "Grunt": (2, 0, 0, 3, 3, ""),
    "Brute": (2, 0, 0, 4, 2, ""),
    "Wall": (0, 2, 0, 1, 5, ""),
    "Pup": (1, 0, 0, 2, 1, ""),
    "Sprout": (0, 0, 1, 1, 2, ""),
    "Soldier": (0, 0, 2, 2, 3, ""),
    "Giant": (0, 0, 3, 4, 5, ""),
    "Piercer": (2, 0, 0, 3, 2, "Armor Piercing 1"),
    "Driller": (3, 0, 0, 3, 2, "Armor Piercing 2"),
    "Bomber": (3, 0, 0, 1, 1, "Self Destruct"),
    "Drummer": (2, 0, 0, 1, 2, "Attack Boost 1"),
    "Herald": (3, 0, 0, 1, 2, "Attack Boost 2"),
    "Archer": (2, 0, 0, 3, 1, "Target"),
    "Mage": (2, 0, 0, 1, 2, "Fireball"),
    "Ballista": (5, 0, 0, 4, 2, "Long Range"),
    "Knight": (0, 3, 0, 2, 3, "Armor 1"),
    "Bastion": (0, 4, 0, 2, 3, "Armor 2"),
    "Medic": (0, 2, 0, 1, 2, "Heal 1"),
    "Cleric": (0, 3, 0, 1, 2, "Heal 2"),
    "Guard": (0, 2, 0, 1, 2, "Defender"),
    "Weaver": (0, 2, 0, 1, 2, "Disperse"),
    "Dancer": (0, 3, 0, 2, 2, "Avoid Damage"),
    "Monk": (0, 4, 0, 1, 2, "Serenity"),
    "Sprinter": (0, 0, 2, 3, 1, "Fast"),
    "Keeper": (0, 0, 3, 1, 2, "Restore"),
    "Seer": (0, 0, 2, 1, 2, "Future Vision"),
    "Gardener": (0, 0, 3, 1, 2, "Change the Future"),
    "Moth": (0, 0, 2, 2, 3, "Reflect"),
    "Trickster": (0, 0, 2, 1, 2, "Reorder"),
    "Caller": (0, 0, 1, 1, 2, "Extra Card"),
    "Dreamer": (0, 0, 2, 1, 2, "Sleep"),
}
RESOURCES = {"Ruby": "red", "Pool": "blue", "Leaf": "green"}
A, B = 0, 1


def scenario_rows() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [
        {
            "name": name,
            "kind": "character",
            "color": "",
            "red": r,
            "blue": b,
            "green": g,
            "attack": atk,
            "health": hp,
            "abilities": abilities,
        }
        for name, (r, b, g, atk, hp, abilities) in SCENARIO_CARDS.items()
    ]
    rows += [{"name": name, "kind": "resource", "color": colour} for name, colour in RESOURCES.items()]
    return rows


@pytest.fixture(scope="module")
def scenario_set(tmp_path_factory: pytest.TempPathFactory) -> CardSet:
    import csv

    path = tmp_path_factory.mktemp("circles") / "scenario.csv"
    rows = scenario_rows()
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return load_cardset(path, RULESET)


def match(
    cardset: CardSet, policies: tuple[int, int] = (E.GREEDY, E.GREEDY), active: int = A, seed: int = 1, **options: Any
) -> E.MatchArrays:
    """A fresh match state on turn 1, with side `active` to play."""
    compiled = E.compile_cards(cardset, RULESET.resolve_options({k: str(v) for k, v in options.items()}))
    arrays = E.MatchArrays.new(compiled, capacity=40, seed=seed, policies=policies)
    arrays.game[E.G_ACTIVE] = active
    return arrays


def fight_out(m: E.MatchArrays, attacker: int = A) -> None:
    """Abilities before combat (attacker, then defender's answers), then combat: the end of `play_turn`."""
    E.card_management(m.R, m.S, attacker)
    E.precombat_abilities(m.R, m.S, attacker)
    E.choose_lane_modes(m.R, m.S, attacker)
    if m.compiled.options[E.O_RESPOND] == 1:
        E.precombat_abilities(m.R, m.S, 1 - attacker)
    E.use_serenity(m.R, m.S, 1 - attacker)
    E.combat(m.R, m.S, attacker)


def life(m: E.MatchArrays, side: int) -> int:
    return int(m.side[side, E.S_LIFE])


# ---------------------------------------------------------------------------------------------------------------
# Set-up and the turn sequence


def test_setup_shuffles_and_deals_two_life_points_and_five_cards(scenario_set: CardSet) -> None:
    m = match(scenario_set)
    deck = np.array([m.compiled.card_id(n) for n in list(SCENARIO_CARDS)[:30]], dtype=np.int64)
    E.setup_match(m.R, m.S, deck, deck, E.GREEDY, E.GREEDY)
    for side in (A, B):
        assert life(m, side) == 2
        hand = m.zone(side, E.HAND)
        assert len(hand) == 5 and len(m.zone(side, E.DECK)) == 25
        assert sorted(hand + m.zone(side, E.DECK)) == sorted(list(SCENARIO_CARDS)[:30])
    assert m.zone(A, E.HAND) != list(SCENARIO_CARDS)[:5], "the deck is shuffled"
    assert m.counters[A, :, 0].sum() == 5 and m.counters[B, :, 0].sum() == 5


@pytest.mark.parametrize(
    ("out_of_cards", "hand", "deck", "discard", "drawn", "deck_left"),
    [
        # "At the start of your Turn, draw a card."
        ("empty_hand_draws_3", ["Pup"], ["Grunt", "Wall", "Brute", "Sprout"], [], 1, 3),
        # "If you ever run completely out of cards, you should draw 3 cards." (an empty hand)
        ("empty_hand_draws_3", [], ["Grunt", "Wall", "Brute", "Sprout"], [], 3, 1),
        ("empty_hand_draws_3", [], [], ["Pup", "Grunt"], 0, 0),
        # The other reading: an empty draw deck; the discard pile becomes the new deck.
        ("reshuffle_discard_draws_3", [], ["Grunt", "Wall"], [], 1, 1),
        ("reshuffle_discard_draws_3", ["Pup"], [], ["Grunt", "Wall", "Brute", "Sprout"], 3, 1),
    ],
)
def test_draw_step_and_the_out_of_cards_reading(
    scenario_set: CardSet,
    out_of_cards: str,
    hand: list[str],
    deck: list[str],
    discard: list[str],
    drawn: int,
    deck_left: int,
) -> None:
    m = match(scenario_set, out_of_cards=out_of_cards)
    m.set_zone(A, E.HAND, hand)
    m.set_zone(A, E.DECK, deck)
    m.set_zone(A, E.DISCARD, discard)
    E.draw_step(m.R, m.S, A)
    assert len(m.zone(A, E.HAND)) == len(hand) + drawn
    assert len(m.zone(A, E.DECK)) == deck_left


@pytest.mark.parametrize(("per_turn", "played"), [(2, 2), (1, 1)])
def test_resources_per_turn(scenario_set: CardSet, per_turn: int, played: int) -> None:
    # "You may play up to 2 Resource Cards per Turn." / "you may play a Resource Card"
    m = match(scenario_set, resources_per_turn=per_turn)
    m.set_zone(A, E.HAND, ["Ruby", "Leaf", "Pool", "Wall"])
    E.play_resources(m.R, m.S, A)
    assert int(m.side[A, E.S_TOTAL : E.S_TOTAL + 3].sum()) == played
    # Greedy plays the colour its characters lack first: Wall needs blue.
    assert m.side[A, E.S_TOTAL + 1] == 1


def test_spent_resources_ready_at_the_start_of_the_turn(scenario_set: CardSet) -> None:
    m = match(scenario_set)
    m.set_resources(A, red=2, blue=1, ready=False)
    E.ready_resources(m.S, A)
    assert m.ready(A) == (2, 1, 0)


@pytest.mark.parametrize(
    ("resources", "hand", "board", "left"),
    [
        ((2, 1, 0), ["Wall", "Grunt"], ["Grunt"], (0, 1, 0)),  # Wall needs 2 blue: not affordable after Grunt
        ((2, 2, 0), ["Wall", "Grunt"], ["Wall", "Grunt"], (0, 0, 0)),  # left to right, in the order played
        ((1, 0, 3), ["Giant", "Pup", "Sprout"], ["Giant", "Pup"], (0, 0, 0)),  # most circles first
        ((0, 0, 0), ["Pup"], [], (0, 0, 0)),
    ],
)
def test_characters_are_paid_in_their_colours_and_placed_left_to_right(
    scenario_set: CardSet,
    resources: tuple[int, int, int],
    hand: list[str],
    board: list[str],
    left: tuple[int, int, int],
) -> None:
    m = match(scenario_set)
    m.set_resources(A, *resources)
    m.set_zone(A, E.HAND, hand)
    E.play_characters(m.R, m.S, A)
    assert m.board(A) == board
    assert m.ready(A) == left


@pytest.mark.parametrize(("earlier_damage", "destroyed"), [(0, False), (2, True)])
def test_damage_lasts_until_its_owners_next_turn(scenario_set: CardSet, earlier_damage: int, destroyed: bool) -> None:
    # B's Soldier (2/3) took damage attacking in its own turn; in A's turn Grunt deals 3 more.
    m = match(scenario_set)
    m.set_board(A, ["Grunt"])
    m.set_board(B, ["Soldier"])
    m.lanes[B, 0, E.L_DAMAGE] = earlier_damage
    E.combat(m.R, m.S, A)
    assert (m.board(B) == []) == destroyed


def test_a_turn_heals_its_own_characters_first(scenario_set: CardSet) -> None:
    # "If you have any Characters who were Damaged in a previous Turn, they are now considered back to full health."
    m = match(scenario_set)
    m.set_board(A, ["Soldier"])
    m.set_board(B, ["Pup", "Sprout"])
    m.lanes[A, 0, E.L_DAMAGE] = 3
    m.lanes[B, 0, E.L_DAMAGE] = 1
    m.game[E.G_TURN] = 0
    E.play_turn(m.R, m.S, A)
    # Soldier (2/3) came back to full Health, so Pup's 2 did not destroy it; B's damage was not healed in A's turn.
    assert m.board(A) == ["Soldier"] and m.damage(A) == [2]
    assert m.board(B) == ["Sprout"]


@pytest.mark.parametrize(
    ("destroy_when", "attacker", "defender", "attacker_left", "defender_left"),
    [
        ("more_than", "Grunt", "Brute", [], []),  # both deal damage at once: 4 > 3 and 3 > 2
        ("more_than", "Grunt", "Grunt", ["Grunt"], ["Grunt"]),  # 3 damage on 3 Health is not "more Damage than"
        ("at_least", "Grunt", "Grunt", [], []),
        ("more_than", "Pup", "Wall", ["Pup"], ["Wall"]),
        ("at_least", "Sprout", "Pup", [], []),
        ("more_than", "Sprout", "Pup", ["Sprout"], ["Pup"]),
    ],
)
def test_lane_combat_is_simultaneous_and_destruction_follows_the_option(
    scenario_set: CardSet,
    destroy_when: str,
    attacker: str,
    defender: str,
    attacker_left: list[str],
    defender_left: list[str],
) -> None:
    m = match(scenario_set, destroy_when=destroy_when)
    m.set_board(A, [attacker])
    m.set_board(B, [defender])
    E.combat(m.R, m.S, A)
    assert m.board(A) == attacker_left and m.board(B) == defender_left
    assert life(m, A) == 2 and life(m, B) == 2


@pytest.mark.parametrize(
    ("direct_damage", "life_left", "winner"), [("attack", -2, A), ("one_per_attacker", 1, E.UNDECIDED)]
)
def test_unopposed_attackers_hit_the_player(
    scenario_set: CardSet, direct_damage: str, life_left: int, winner: int
) -> None:
    # "if an Attacking Player has more cards than the Defender, those attack points directly affect the Defending
    # Player"
    m = match(scenario_set, direct_damage=direct_damage)
    m.set_board(A, ["Sprout", "Brute"])
    m.set_board(B, ["Wall"])
    E.combat(m.R, m.S, A)
    assert life(m, B) == life_left and m.game[E.G_WINNER] == winner
    assert m.counters[A, m.compiled.card_id("Brute"), 4] == (4 if direct_damage == "attack" else 1)


def test_extra_defenders_do_not_attack(scenario_set: CardSet) -> None:
    # "If the Defending Player has more Character Cards than the attacker, the extra Defenders do not attack."
    m = match(scenario_set)
    m.set_board(A, ["Sprout"])
    m.set_board(B, ["Sprout", "Giant", "Brute"])
    E.combat(m.R, m.S, A)
    assert life(m, A) == 2 and m.damage(A) == [1] and m.damage(B) == [1, 0, 0]


def test_survivors_shift_left_after_combat(scenario_set: CardSet) -> None:
    # "After all combat has been resolved, move Character Cards to the left, to fill in the empty spaces."
    m = match(scenario_set)
    m.set_board(A, ["Grunt", "Sprout", "Grunt"])
    m.set_board(B, ["Pup", "Wall", "Pup"])
    E.combat(m.R, m.S, A)
    assert m.board(B) == ["Wall"] and m.damage(B) == [1]
    assert m.board(A) == ["Grunt", "Sprout", "Grunt"] and m.damage(A) == [2, 1, 2]
    assert m.zone(B, E.DISCARD) == ["Pup", "Pup"]


@pytest.mark.parametrize(("new_attack", "life_left"), [(True, -1), (False, 2)])
def test_characters_brought_in_this_turn_attack_by_option(
    scenario_set: CardSet, new_attack: bool, life_left: int
) -> None:
    m = match(scenario_set, new_characters_attack=new_attack)
    m.set_zone(A, E.HAND, ["Grunt"])
    m.set_resources(A, red=2)
    m.game[E.G_TURN] = 0
    E.play_turn(m.R, m.S, A)
    assert m.board(A) == ["Grunt"] and life(m, B) == life_left


@pytest.mark.parametrize("cap", [1, 4])
def test_the_turn_cap_ends_a_match_as_a_draw(scenario_set: CardSet, cap: int) -> None:
    m = match(scenario_set, turn_cap=cap)
    resources = np.array([m.compiled.card_id("Leaf")] * 30, dtype=np.int64)
    E.setup_match(m.R, m.S, resources, resources, E.GREEDY, E.GREEDY)
    E.play_match(m.R, m.S, A)
    assert m.game[E.G_WINNER] == -1 and m.game[E.G_TURN] == cap


def test_a_player_without_life_points_loses_at_once(scenario_set: CardSet) -> None:
    m = match(scenario_set)
    m.set_board(A, ["Pup", "Brute", "Grunt"])
    E.combat(m.R, m.S, A)
    # Pup's 2 already ends the match; the lanes after it do not attack.
    assert life(m, B) == 0 and m.game[E.G_WINNER] == A
    assert m.counters[A, m.compiled.card_id("Brute"), 2] == 0


# ---------------------------------------------------------------------------------------------------------------
# The 24 abilities


@pytest.mark.parametrize(
    ("attacker", "defender", "damage"),
    [
        ("Grunt", "Knight", 2),  # Armor 1: "Ignore 1 damage from attack"
        ("Grunt", "Bastion", 1),  # Armor 2
        ("Piercer", "Knight", 3),  # Armor Piercing 1: "Ignore 1 armor on enemy"
        ("Piercer", "Bastion", 2),
        ("Driller", "Bastion", 3),  # Armor Piercing 2
        ("Driller", "Knight", 3),  # piercing more armor than there is adds nothing
    ],
)
def test_armor_and_armor_piercing(scenario_set: CardSet, attacker: str, defender: str, damage: int) -> None:
    m = match(scenario_set)
    m.set_board(A, [attacker])
    m.set_board(B, [defender])
    E.combat(m.R, m.S, A)
    assert m.damage(B) == [damage]


@pytest.mark.parametrize(("red", "bomber_left", "giant_left"), [(1, [], []), (0, [], ["Giant"])])
def test_self_destruct(scenario_set: CardSet, red: int, bomber_left: list[str], giant_left: list[str]) -> None:
    # "Spend 1 Red to destroy this card and blocking card"
    m = match(scenario_set)
    m.set_board(A, ["Bomber"])
    m.set_board(B, ["Giant"])
    m.set_resources(A, red=red)
    fight_out(m)
    assert m.board(A) == bomber_left and m.board(B) == giant_left
    assert m.ready(A) == (0, 0, 0)


@pytest.mark.parametrize(
    ("booster", "red", "damage"), [("Drummer", 0, 4), ("Herald", 1, 5), ("Herald", 0, 3), ("Sprout", 0, 3)]
)
def test_attack_boosts_give_the_neighbours_attack(scenario_set: CardSet, booster: str, red: int, damage: int) -> None:
    # Attack Boost 1: "Card on each side gets +1 attack"; Attack Boost 2: "Spend 1 Red ... +2 attack"
    m = match(scenario_set)
    m.set_board(A, [booster, "Grunt"])
    m.set_board(B, ["Giant", "Wall"])
    m.set_resources(A, red=red)
    fight_out(m)
    assert m.damage(B)[1] == damage
    assert m.ready(A) == (0, 0, 0)


@pytest.mark.parametrize(("red", "board_b", "archer_damage"), [(1, ["Wall"], 1), (0, ["Wall", "Pup"], 1)])
def test_target_picks_the_enemy_but_still_defends_its_lane(
    scenario_set: CardSet, red: int, board_b: list[str], archer_damage: int
) -> None:
    # "Select which enemy this card attacks. It must still defend against the same location"
    m = match(scenario_set)
    m.set_board(A, ["Archer"])
    m.set_board(B, ["Wall", "Pup"])
    m.set_resources(A, red=red)
    fight_out(m)
    assert m.board(B) == board_b
    assert m.board(A) == ["Archer"] and m.damage(A) == [archer_damage]  # the Wall in front still hit it
    if red:
        assert m.damage(B) == [0]


def test_fireball_before_combat_opens_the_lane(scenario_set: CardSet) -> None:
    # "Spend 1 Red. Deal 1 damage to an enemy of your choice, before combat begins"
    m = match(scenario_set)
    m.set_board(A, ["Mage"])
    m.set_board(B, ["Pup"])
    m.lanes[B, 0, E.L_DAMAGE] = 1
    m.set_resources(A, red=1)
    fight_out(m)
    assert m.zone(B, E.DISCARD) == ["Pup"] and life(m, B) == 1
    assert any("uses Fireball on Pup" in line for line in m.trace())


@pytest.mark.parametrize(("red", "b_life", "wall_damage"), [(3, -2, 0), (2, 2, 4)])
def test_long_range_hits_the_player_over_the_defender(
    scenario_set: CardSet, red: int, b_life: int, wall_damage: int
) -> None:
    # "Spend 3 Red. Ignore the defending character and damage the enemy player directly"
    m = match(scenario_set)
    m.set_board(A, ["Ballista"])
    m.set_board(B, ["Wall"])
    m.set_resources(A, red=red)
    fight_out(m)
    assert life(m, B) == b_life and m.damage(B) == [wall_damage]


@pytest.mark.parametrize(
    ("healer", "blue", "respond", "saved"),
    [("Medic", 1, True, False), ("Cleric", 2, True, True), ("Cleric", 1, True, False), ("Cleric", 2, False, False)],
)
def test_heal_saves_a_card_in_the_opponents_turn(
    scenario_set: CardSet, healer: str, blue: int, respond: bool, saved: bool
) -> None:
    # Grunt (3/3) already has 1 damage and takes Brute's 4: 5 damage must come down to 3 (Heal 2, not Heal 1).
    m = match(scenario_set, respond_in_opponent_turn=respond)
    m.set_board(A, ["Pup", "Brute"])
    m.set_board(B, [healer, "Grunt"])
    m.lanes[B, 1, E.L_DAMAGE] = 1
    m.set_resources(B, blue=blue)
    fight_out(m)
    assert ("Grunt" in m.board(B)) == saved


def test_heal_1_saves_what_one_point_saves(scenario_set: CardSet) -> None:
    m = match(scenario_set)
    m.set_board(A, ["Pup", "Brute"])
    m.set_board(B, ["Medic", "Grunt"])
    m.set_resources(B, blue=1)
    fight_out(m)
    assert m.board(B) == ["Medic", "Grunt"] and m.damage(B) == [2, 3] and m.ready(B) == (0, 0, 0)


@pytest.mark.parametrize(("neighbour", "survives"), [("Guard", True), ("Sprout", False)])
def test_defender_gives_the_neighbours_health(scenario_set: CardSet, neighbour: str, survives: bool) -> None:
    # "Card on each side gets +1 health": Grunt (3/3) takes Brute's 4.
    m = match(scenario_set)
    m.set_board(A, ["Pup", "Brute"])
    m.set_board(B, [neighbour, "Grunt"])
    E.combat(m.R, m.S, A)
    assert ("Grunt" in m.board(B)) == survives


def test_disperse_spreads_damage_over_the_other_cards(scenario_set: CardSet) -> None:
    # "Spend 1 Blue. The damage may be spread across any of your other cards"
    m = match(scenario_set)
    m.set_board(A, ["Brute"])
    m.set_board(B, ["Weaver", "Wall"])
    m.set_resources(B, blue=1)
    fight_out(m)
    assert m.board(B) == ["Weaver", "Wall"] and m.damage(B) == [2, 2] and m.ready(B) == (0, 0, 0)


@pytest.mark.parametrize(("respond", "blue", "survives"), [(True, 2, True), (False, 2, False), (True, 1, False)])
def test_avoid_damage_and_acting_in_the_opponents_turn(
    scenario_set: CardSet, respond: bool, blue: int, survives: bool
) -> None:
    # "Spend 2 Blue. Damage dealt is ignored": paid from resources left ready through the opponent's turn.
    m = match(scenario_set, respond_in_opponent_turn=respond)
    m.set_board(A, ["Brute"])
    m.set_board(B, ["Dancer"])
    m.set_resources(B, blue=blue)
    fight_out(m)
    assert (m.board(B) == ["Dancer"]) == survives
    if survives:
        assert m.damage(B) == [0] and m.ready(B) == (0, 0, 0) and m.damage(A) == [2]


@pytest.mark.parametrize(("scope", "brute_survives"), [("everyone", True), ("own_side", False)])
def test_serenity_stops_a_lethal_attack(scenario_set: CardSet, scope: str, brute_survives: bool) -> None:
    # "Discard this card. All damage this turn is ignored." Sprinter alone would take B's last 2 Life Points.
    m = match(scenario_set, serenity_protects=scope)
    m.set_board(A, ["Pup", "Brute", "Sprinter"])
    m.set_board(B, ["Monk", "Grunt"])
    fight_out(m)
    assert life(m, B) == 2 and m.zone(B, E.DISCARD)[0] == "Monk"
    assert ("Brute" in m.board(A)) == brute_survives


def test_serenity_stops_a_lethal_attack_even_when_the_other_lanes_go_badly_for_the_attacker(
    scenario_set: CardSet,
) -> None:
    # B is down to 1 Life Point and A's Sprout has nothing in front: "those attack points directly affect the
    # Defending Player". A's other lanes lose it circles (Ballista, 5 circles, falls to the Giant), which must not
    # hide that the attack is lethal: greedy B discards its Monk, "All damage this turn is ignored".
    m = match(scenario_set)
    m.set_board(A, ["Ballista", "Pup", "Sprout"])
    m.set_board(B, ["Giant", "Monk"])
    m.side[B, E.S_LIFE] = 1
    assert E.lethal_attack(m.R, m.S, A) and E.board_value(m.R, m.S, A) - E.LETHAL_BONUS < 0  # lanes' worth: -1
    fight_out(m)
    assert life(m, B) == 1 and m.game[E.G_WINNER] == E.UNDECIDED
    assert m.zone(B, E.DISCARD) == ["Monk"]


def test_serenity_is_kept_when_the_attack_is_not_lethal(scenario_set: CardSet) -> None:
    m = match(scenario_set)
    m.set_board(A, ["Sprout"])
    m.set_board(B, ["Monk"])
    fight_out(m)
    assert m.board(B) == ["Monk"]


@pytest.mark.parametrize(
    ("attacker", "defender", "attacker_damage", "defender_left"),
    [
        ("Sprinter", "Pup", 0, []),  # "If enemy card is destroyed, this card takes no damage"
        ("Sprinter", "Wall", 1, ["Wall"]),  # first, but the Wall survives and strikes back
        ("Sprinter", "Sprinter", None, []),  # both Fast: at the same time
        ("Pup", "Sprinter", 3, ["Sprinter"]),  # a Fast defender strikes first too
    ],
)
def test_fast_deals_damage_first(
    scenario_set: CardSet, attacker: str, defender: str, attacker_damage: int | None, defender_left: list[str]
) -> None:
    m = match(scenario_set)
    m.set_board(A, [attacker])
    m.set_board(B, [defender])
    E.combat(m.R, m.S, A)
    assert m.board(B) == defender_left
    if attacker_damage is None or attacker_damage > 1:
        assert m.board(A) == []
    else:
        assert m.damage(A) == [attacker_damage]


def test_restore_takes_a_card_back_from_the_discard_pile(scenario_set: CardSet) -> None:
    # "Spend 2 Green. Take a card out of discard and put it in your hand"
    m = match(scenario_set)
    m.set_board(A, ["Keeper"])
    m.set_zone(A, E.DISCARD, ["Ruby", "Grunt"])
    m.set_resources(A, green=2)
    E.card_management(m.R, m.S, A)
    assert m.zone(A, E.HAND) == ["Grunt"] and m.zone(A, E.DISCARD) == ["Ruby"] and m.ready(A) == (0, 0, 0)


def test_future_vision_sees_the_top_three_cards(scenario_set: CardSet) -> None:
    # "Spend 1 Green. See the top 3 cards of your draw deck"
    m = match(scenario_set)
    m.set_board(A, ["Seer"])
    m.set_zone(A, E.DECK, ["Pup", "Grunt", "Wall", "Brute"])
    m.set_resources(A, green=1)
    E.card_management(m.R, m.S, A)
    assert [line for line in m.trace() if "sees" in line] == [
        "A sees card 1 of the draw deck: Pup.",
        "A sees card 2 of the draw deck: Grunt.",
        "A sees card 3 of the draw deck: Wall.",
    ]
    assert m.zone(A, E.DECK) == ["Pup", "Grunt", "Wall", "Brute"] and m.ready(A) == (0, 0, 0)


@pytest.mark.parametrize(
    ("resources_in_play", "deck_after"),
    [
        ((0, 0, 2), ["Ruby", "Sprout", "Grunt", "Brute"]),  # short of resources: a resource first
        ((3, 2, 2), ["Grunt", "Sprout", "Ruby", "Brute"]),  # enough: the biggest character it can pay for first
    ],
)
def test_change_the_future_rearranges_the_top_three(
    scenario_set: CardSet, resources_in_play: tuple[int, int, int], deck_after: list[str]
) -> None:
    # "Spend 2 Green. Rearrange the top 3 cards on your draw deck"; the fourth card stays where it is.
    m = match(scenario_set)
    m.set_board(A, ["Gardener"])
    m.set_zone(A, E.DECK, ["Sprout", "Grunt", "Ruby", "Brute"])
    m.set_resources(A, *resources_in_play)
    E.card_management(m.R, m.S, A)
    assert m.zone(A, E.DECK) == deck_after


@pytest.mark.parametrize(("defender", "brute_left"), [("Moth", []), ("Soldier", ["Brute"])])
def test_reflect_sends_half_the_damage_back(scenario_set: CardSet, defender: str, brute_left: list[str]) -> None:
    # "Half the damage (rounded up) is also taken by the attacking card": Brute deals 4, takes 2 + 2.
    m = match(scenario_set)
    m.set_board(A, ["Brute"])
    m.set_board(B, [defender])
    E.combat(m.R, m.S, A)
    assert m.board(A) == brute_left and m.board(B) == []


def test_reorder_swaps_two_characters_for_a_better_fight(scenario_set: CardSet) -> None:
    # "Spend 1 Green. Swap the placement of any 2 of your characters in play"
    m = match(scenario_set)
    m.set_board(A, ["Trickster", "Grunt", "Sprout"])
    m.set_board(B, ["Wall", "Wall", "Pup"])
    m.set_resources(A, green=1)
    E.precombat_abilities(m.R, m.S, A)
    assert m.board(A) == ["Trickster", "Sprout", "Grunt"] and m.ready(A) == (0, 0, 0)
    E.combat(m.R, m.S, A)
    assert m.zone(B, E.DISCARD) == ["Pup"]


@pytest.mark.parametrize("extra_card", ["on_entry", "each_turn"])
def test_extra_card_brings_another_character_in_for_free(scenario_set: CardSet, extra_card: str) -> None:
    # "Bring an additional card into play for free"
    m = match(scenario_set, extra_card=extra_card)
    m.set_zone(A, E.HAND, ["Caller", "Giant"])
    m.set_resources(A, green=1)
    E.play_characters(m.R, m.S, A)
    if extra_card == "on_entry":
        assert m.board(A) == ["Caller", "Giant"]
    else:
        assert m.board(A) == ["Caller"]
        E.extra_cards_each_turn(m.R, m.S, A)
        assert m.board(A) == ["Caller", "Giant"]
    assert m.counters[A, m.compiled.card_id("Giant"), PLAYED] == 1


@pytest.mark.parametrize(("opens_lane", "b_life", "wall_damage"), [(True, -1, 0), (False, 2, 0)])
def test_a_sleeping_defender_does_not_defend(
    scenario_set: CardSet, opens_lane: bool, b_life: int, wall_damage: int
) -> None:
    # "Flip enemy card, it does not attack or defend this turn"
    m = match(scenario_set, sleeping_card_opens_lane=opens_lane)
    m.set_board(A, ["Grunt"])
    m.set_board(B, ["Wall"])
    m.lanes[B, 0, E.L_ASLEEP] = 1
    E.combat(m.R, m.S, A)
    assert life(m, B) == b_life and m.damage(B) == [wall_damage] and m.damage(A) == [0]


def test_sleep_puts_the_blocker_of_the_strongest_attacker_to_sleep(scenario_set: CardSet) -> None:
    m = match(scenario_set)
    m.set_board(A, ["Dreamer", "Grunt"])
    m.set_board(B, ["Wall", "Wall"])
    m.set_resources(A, green=1)
    fight_out(m)
    assert life(m, B) == -1 and m.game[E.G_WINNER] == A


@pytest.mark.parametrize(("respond", "b_life"), [(True, 2), (False, -2)])
def test_sleep_in_the_opponents_turn_stops_an_attacker(scenario_set: CardSet, respond: bool, b_life: int) -> None:
    m = match(scenario_set, respond_in_opponent_turn=respond)
    m.set_board(A, ["Sprout", "Brute"])
    m.set_board(B, ["Dreamer"])
    m.set_resources(B, green=1)
    fight_out(m)
    assert life(m, B) == b_life


@pytest.mark.parametrize(
    ("attacker", "red", "board_b", "spared"),
    [
        # Long Range: "Ignore the defending character and damage the enemy player directly" (4 Attack: B's 2 Life).
        ("Ballista", 3, ["Wall", "Dreamer"], "B's Life Points"),
        # Target: "Select which enemy this card attacks": the Archer (3 Attack) picks the Dreamer (2 Health).
        ("Archer", 1, ["Wall", "Pup", "Dreamer"], "Dreamer"),
        # Self Destruct: "destroy this card and blocking card": the Bomber (3 circles) for the Bastion (4).
        ("Bomber", 1, ["Bastion", "Dreamer"], "Bastion"),
    ],
)
def test_sleep_in_the_opponents_turn_weighs_the_attackers_chosen_mode(
    scenario_set: CardSet, attacker: str, red: int, board_b: list[str], spared: str
) -> None:
    # A's attacker is blocked, so a plain fight would win it nothing; the mode it chose before combat is what it
    # would win, and greedy B puts it to Sleep ("it does not attack or defend this turn") to stop that.
    m = match(scenario_set)
    m.set_board(A, [attacker])
    m.set_board(B, board_b)
    m.set_resources(A, red=red)
    m.set_resources(B, green=1)
    E.precombat_abilities(m.R, m.S, A)
    E.choose_lane_modes(m.R, m.S, A)
    assert m.lanes[A, 0, E.L_MODE] != E.MODE_FIGHT
    assert E.lane_value(m.R, m.S, A, 0) > 0
    assert (E.predict_fight(m.R, m.S, A, 0, B, 0) & 2) == 0  # a plain fight would not destroy the card in front
    E.precombat_abilities(m.R, m.S, B)  # B's answers in A's turn (respond_in_opponent_turn)
    E.use_serenity(m.R, m.S, B)
    E.combat(m.R, m.S, A)
    assert m.lanes[A, 0, E.L_ASLEEP] == 1 and any(f"uses Sleep on {attacker}" in line for line in m.trace())
    assert life(m, B) == 2 and m.board(B) == board_b, spared


def test_every_ability_has_a_scenario_above() -> None:
    source = Path(__file__).read_text(encoding="utf-8")
    for ability in ABILITIES:
        card = next(name for name, spec in SCENARIO_CARDS.items() if spec[5] == ability.name)
        assert source.count(f'"{card}"') >= 2, f"{ability.name} ({card}) has no scenario"


# ---------------------------------------------------------------------------------------------------------------
# Compiling cards


def test_cards_compile_from_the_shared_ability_table(scenario_set: CardSet) -> None:
    compiled = E.compile_cards(scenario_set, RULESET.resolve_options())
    table = compiled.table
    assert table[compiled.card_id("Bastion"), E.T_ARMOR] == 2 and table[compiled.card_id("Driller"), E.T_PIERCE] == 2
    assert table[compiled.card_id("Guard"), E.T_GUARD] == 1 and table[compiled.card_id("Drummer"), E.T_BOOST] == 1
    assert table[compiled.card_id("Ruby"), E.T_KIND] == E.KIND_RESOURCE and np.isnan(
        compiled.cost[compiled.card_id("Ruby")]
    )
    assert compiled.cost[compiled.card_id("Giant")] == 3 and compiled.slot[compiled.card_id("Ruby")] == 1
    assert compiled.findings == ()


def test_an_ability_not_on_the_list_is_an_info_finding_and_skipped(make_cardset: MakeCardSet) -> None:
    rows = [
        {
            "name": "Odd",
            "kind": "character",
            "color": "",
            "red": 2,
            "attack": 3,
            "health": 3,
            "abilities": "Flying; Fast",
        },
        {"name": "Smoke", "kind": "resource", "color": "grey"},
    ]
    cardset = make_cardset(RULESET, rows)
    compiled = E.compile_cards(cardset, RULESET.resolve_options())
    assert [(f.severity, f.rule, f.row, f.column) for f in compiled.findings] == [
        ("info", "circles.not_simulated", 2, "abilities"),
        ("info", "circles.not_simulated", 3, "color"),
    ]
    assert compiled.table[0, E.T_FAST] == 1 and compiled.table[1, E.T_COLOUR] == E.NO_COLOUR


@pytest.mark.parametrize(("allow", "armor"), [(False, 1), (True, 2)])
def test_duplicate_abilities_stack_only_when_allowed(make_cardset: MakeCardSet, allow: bool, armor: int) -> None:
    rows = [
        {
            "name": "Double",
            "kind": "character",
            "color": "",
            "blue": 5,
            "attack": 1,
            "health": 2,
            "abilities": "Armor 1; Armor 1",
        }
    ]
    compiled = E.compile_cards(
        make_cardset(RULESET, rows), RULESET.resolve_options({"allow_duplicate_abilities": str(allow)})
    )
    assert compiled.table[0, E.T_ARMOR] == armor


# ---------------------------------------------------------------------------------------------------------------
# Sanity, determinism, policies, traces


@pytest.fixture(scope="module")
def bundled() -> tuple[CardSet, dict[str, Deck]]:
    cardset = load_cardset(REPO_ROOT / "cardsets" / "circles" / "circle_starter.csv", RULESET)
    decks = {
        p.stem: read_decklist(p, cardset) for p in sorted((REPO_ROOT / "cardsets" / "circles" / "decks").glob("*.txt"))
    }
    return cardset, decks


def test_a_mirror_match_is_about_even(bundled: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = bundled
    for name in ("blue_wall", "red_green_rush"):
        rate = simulate(cardset, decks[name], matches=3_000, run=RunSettings(seed=4, workers=1)).win_rate_a
        assert rate.low - 0.02 <= 0.5 <= rate.high + 0.02, (name, str(rate))


def test_the_first_player_advantage_is_reported(bundled: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = bundled
    result = simulate(cardset, decks["red_green_rush"], matches=2_000, run=RunSettings(seed=2, workers=1))
    # Attacking first with 2 Life Points a side is a large edge; the report shows it separately.
    assert result.first_player_win_rate.low > 0.6


def test_greedy_beats_random_with_the_same_deck(bundled: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = bundled
    deck = decks["balanced_tricolour"]
    result = simulate(
        cardset, deck, deck, matches=2_000, run=RunSettings(seed=9, policy="greedy", workers=1), policy_b="random"
    )
    assert result.win_rate_a.low > 0.55, str(result.win_rate_a)


def _strength_set(make_cardset: MakeCardSet, under_budget: bool = False) -> CardSet:
    rows = [
        {"name": "Filler", "kind": "character", "color": "", "red": 2, "attack": 3, "health": 3},
        {"name": "Scout", "kind": "character", "color": "", "red": 2, "attack": 3, "health": 3},
        {"name": "Better Scout", "kind": "character", "color": "", "red": 2, "attack": 5, "health": 3},
        {"name": "Weak Scout", "kind": "character", "color": "", "red": 2, "attack": 1, "health": 2},
        {"name": "Pup", "kind": "character", "color": "", "red": 1, "attack": 2, "health": 1},
        {"name": "Weak Pup", "kind": "character", "color": "", "red": 1, "attack": 1, "health": 1},
        {"name": "Ruby", "kind": "resource", "color": "red"},
    ]
    return make_cardset(RULESET, rows)


def test_a_strictly_better_card_has_at_least_the_power_of_the_weaker(
    make_cardset: MakeCardSet, make_deck: Callable[..., Deck]
) -> None:
    cardset = _strength_set(make_cardset)
    reference = make_deck(cardset, "8 Filler\n4 Pup\n2 Scout\n16 Ruby", name="reference")
    curve = power_curve(
        cardset,
        [reference],
        matches_per_card=3_000,
        run=RunSettings(seed=5, options={"new_characters_attack": "false"}, workers=1),
    )
    rows = curve.cards.set_index("card")
    better, plain = rows.loc["Better Scout"], rows.loc["Scout"]
    assert better.power >= plain.power - (plain.high - plain.low) / 2, (better.power, plain.power)
    assert rows.loc["Weak Scout"].high < better.low


def test_an_on_curve_deck_beats_an_under_budget_deck(make_cardset: MakeCardSet, make_deck: Callable[..., Deck]) -> None:
    cardset = _strength_set(make_cardset)
    on_curve = make_deck(cardset, "10 Scout\n4 Pup\n16 Ruby", name="on_curve")
    under = make_deck(cardset, "10 Weak Scout\n4 Weak Pup\n16 Ruby", name="under_budget")
    result = simulate(cardset, on_curve, under, matches=2_000, run=RunSettings(seed=6, workers=1))
    assert result.win_rate_a.low > 0.6, str(result.win_rate_a)


def test_same_seed_same_matches_and_different_seed_different(bundled: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = bundled
    args = (cardset, decks["blue_wall"], decks["tricks_control"])
    one = simulate(*args, matches=1_500, run=RunSettings(seed=3, workers=1, policy="random"))
    two = simulate(*args, matches=1_500, run=RunSettings(seed=3, workers=1, policy="random"))
    other = simulate(*args, matches=1_500, run=RunSettings(seed=4, workers=1, policy="random"))
    assert one.matches.equals(two.matches) and one.counters.equals(two.counters)
    assert not one.matches["winner"].equals(other.matches["winner"])


def test_one_and_two_worker_processes_give_identical_matches(bundled: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = bundled
    matches = PARALLEL_THRESHOLD + 1_000
    alone = simulate(
        cardset, decks["tricks_control"], decks["blue_wall"], matches=matches, run=RunSettings(seed=8, workers=1)
    )
    pair = simulate(
        cardset, decks["tricks_control"], decks["blue_wall"], matches=matches, run=RunSettings(seed=8, workers=2)
    )
    assert alone.matches.equals(pair.matches) and alone.counters.equals(pair.counters)


def test_counters_add_up(bundled: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = bundled
    # Neither deck has Restore, so no card comes back to the hand: a card is drawn before it is played.
    counters = simulate(
        cardset, decks["red_green_rush"], decks["blue_wall"], matches=1_000, run=RunSettings(seed=1, workers=1)
    ).counters
    assert (counters["played"] <= counters["drawn"]).all()
    assert (counters["destroyed"] <= counters["played"]).all() and (counters["attacked"] > 0).any()
    assert counters["damage_dealt"].sum() > 0 and counters["attacked"].sum() > 0


_PARITY_SCRIPT = """
import json, sys
from workbench.loading import load_cardset
from workbench.decklists import read_decklist
from workbench.run_settings import RunSettings
from workbench.simulate import simulate
cardset = load_cardset(sys.argv[1])
a, b = (read_decklist(p, cardset) for p in sys.argv[2:4])
result = simulate(cardset, a, b, matches=60, run=RunSettings(seed=11, workers=1), policy_b="random")
print(json.dumps([result.matches["winner"].tolist(), result.matches["turns"].tolist(),
                  result.counters.drop(columns=["deck", "card"]).values.tolist()]))
"""


def test_the_same_code_runs_uncompiled_with_numba_disable_jit() -> None:
    folder = REPO_ROOT / "cardsets" / "circles"
    argv = [
        sys.executable,
        "-c",
        _PARITY_SCRIPT,
        str(folder / "circle_starter.csv"),
        str(folder / "decks" / "tricks_control.txt"),
        str(folder / "decks" / "blue_wall.txt"),
    ]
    outputs = []
    for disable in ("0", "1"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=disable)
        done = subprocess.run(argv, env=env, capture_output=True, text=True, check=True, cwd=REPO_ROOT)
        outputs.append(json.loads(done.stdout))
    assert outputs[0] == outputs[1]


GOLDEN = REPO_ROOT / "tests" / "golden" / "circles_trace.txt"


def test_golden_trace(bundled: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = bundled
    lines = list(trace(cardset, decks["tricks_control"], decks["balanced_tricolour"], seed=7))
    expected = GOLDEN.read_text(encoding="utf-8").splitlines()
    for number, (got, want) in enumerate(zip(lines, expected, strict=False), start=1):
        assert got == want, f"line {number} differs; see this module's docstring to regenerate on purpose"
    assert len(lines) == len(expected)


def test_trace_lines_read_as_a_designer_would_say_them(scenario_set: CardSet) -> None:
    m = match(scenario_set)
    m.set_board(A, ["Mage", "Brute"])
    m.set_board(B, ["Pup"])
    m.lanes[B, 0, E.L_DAMAGE] = 1
    m.set_resources(A, red=1)
    fight_out(m)
    assert m.trace() == [
        "A's Mage uses Fireball on Pup (1 red).",
        "Mage deals 1 damage to Pup.",
        "B's Pup is destroyed.",
        "lane 1: A Mage (1/2) vs B (empty)",
        "lane 2: A Brute (4/2) vs B (empty)",
        "Mage hits B directly for 1: B has 1 Life Point.",
        "Brute hits B directly for 4: B has -3 Life Points.",
        "A wins: B has no Life Points left.",
    ]


# ---------------------------------------------------------------------------------------------------------------
# The search policy


def searched_turn(m: E.MatchArrays, side: int = A, seed: int = 5) -> tuple[list[int], list[int]]:
    """Play the rest of `side`'s turn with the search policy; (its tape of choices, the last decision's rollouts
    and half points per choice)."""
    search = m.S[E.SEARCH_AT : E.SEARCH_AT + E.SEARCH_SIZE]
    E.rng_seed(search[E.C_RNG : E.C_RNG + 4], seed)
    snapshot = np.zeros_like(m.S)
    sorted_snapshot, world, scratch = (E.state_buffer(m.zones.shape[2], len(m.compiled.names), 0)[0] for _ in range(3))
    E.play_searched_turn(m.R, m.S, snapshot, sorted_snapshot, world, scratch, side)
    tape = [int(v) for v in search[E.C_TAPE : E.C_TAPE + search[E.C_TAPE_LEN]]]
    stats = [int(v) for v in search[E.C_STATS : E.C_STATS + 2 * E.MAX_CHOICES]]
    return tape, stats


def lethal_if_spread(scenario_set: CardSet, policy: int) -> E.MatchArrays:
    # B is down to 1 Life Point behind its Wall (1/5); A has 3 green and no board. Greedy brings in "the most
    # circles it can afford": the Giant (4/5), which the Wall survives. The Soldier and the Sprout together fill
    # two lanes, and "if an Attacking Player has more cards than the Defender, those attack points directly affect
    # the Defending Player": lethal. B, also at 1 Life Point, answers with whatever it can pay for.
    m = match(scenario_set, policies=(policy, E.GREEDY))
    m.set_zone(A, E.HAND, ["Giant", "Soldier", "Sprout"])
    m.set_resources(A, green=3)
    m.set_board(B, ["Wall"])
    m.set_zone(B, E.HAND, ["Sprinter", "Leaf"])
    m.set_zone(B, E.DECK, ["Pup", "Leaf", "Sprinter", "Pool", "Soldier"])
    m.set_resources(B, green=2, red=1)
    m.side[:, E.S_LIFE] = 1
    return m


def test_search_finds_the_lethal_attack_greedy_misses(scenario_set: CardSet) -> None:
    greedy = lethal_if_spread(scenario_set, E.GREEDY)
    E.turn_body_call(greedy.R, greedy.S, A)
    assert greedy.board(A) == ["Giant"] and greedy.game[E.G_WINNER] == E.UNDECIDED
    m = lethal_if_spread(scenario_set, E.SEARCH)
    tape, stats = searched_turn(m)
    assert m.board(A)[:2] == ["Soldier", "Sprout"] and m.game[E.G_WINNER] == A and life(m, B) <= 0
    # First decision: Giant, Soldier, Sprout or stop; its choice is the Soldier (a win in every rollout).
    assert tape[0] == 1 and len(tape) >= 1


def test_search_decisions_do_not_change_when_the_opponents_hidden_cards_are_permuted(scenario_set: CardSet) -> None:
    # "never peeks": what A cannot see (B's hand and the order of both draw decks) is drawn again before each
    # rollout from what A can know, so moving B's hidden cards between its hand and deck changes nothing A decides.
    results = []
    for hand, deck in (
        (["Sprinter", "Leaf"], ["Pup", "Leaf", "Sprinter", "Pool", "Soldier"]),
        (["Soldier", "Pup"], ["Leaf", "Sprinter", "Pool", "Sprinter", "Leaf"]),
        (["Leaf", "Pool"], ["Sprinter", "Soldier", "Leaf", "Pup", "Sprinter"]),
    ):
        m = lethal_if_spread(scenario_set, E.SEARCH)
        m.side[:, E.S_LIFE] = 2  # no lethal line, so the choices are close and the rollouts' figures show
        m.set_zone(B, E.HAND, hand)
        m.set_zone(B, E.DECK, deck)
        m.set_zone(A, E.DECK, ["Grunt", "Leaf", "Giant", "Leaf"])
        results.append((searched_turn(m), m.board(A)))
    assert results[0] == results[1] == results[2]
    # The figures do read B's unseen cards: other cards (not the same ones moved) give other figures.
    m = lethal_if_spread(scenario_set, E.SEARCH)
    m.side[:, E.S_LIFE] = 2
    m.set_zone(B, E.HAND, ["Leaf", "Leaf"])
    m.set_zone(B, E.DECK, ["Leaf", "Leaf", "Leaf", "Leaf", "Leaf"])
    m.set_zone(A, E.DECK, ["Grunt", "Leaf", "Giant", "Leaf"])
    assert searched_turn(m)[1] != results[0][0][1]


def test_search_plays_whole_matches_the_same_way_twice(bundled: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = bundled
    deck = decks["balanced_tricolour"]
    run = RunSettings(seed=3, policy="search", workers=1)
    searched = simulate(cardset, deck, deck, matches=40, run=run, policy_b="greedy")
    again = simulate(cardset, deck, deck, matches=40, run=run, policy_b="greedy")
    assert searched.matches.equals(again.matches) and (searched.matches["turns"] > 0).all()
    assert searched.meta["policies"] == ["search", "greedy"]


def test_a_search_side_played_from_outside_plays_greedy() -> None:
    # docs/rulesets/circles.md: the search plays a turn in its own loop, from a snapshot; a match played from outside
    # answers each decision through `decide`, and there a `search` side answers as greedy does. The same deals (the
    # ability decks of legal_replay.py) played from outside with A searching and in a batch with A greedy end alike,
    # the sides' policy words and the action list aside.
    from workbench.bench import bundled_cardset_and_decks
    from workbench.play.policies import POLICY_WORDS
    from workbench.simulate import compile_for

    cardset, _ = bundled_cardset_and_decks(RULESET)
    _, compiled, _ = compile_for(cardset, None)
    R = E.rules_buffer(compiled)
    decks = _legal_replay().ability_deck_arrays(compiled)
    winners_seen = set()
    for seed in range(1, 5):
        for a, deck_a in enumerate(decks):
            deck_b = decks[(a + seed) % len(decks)]
            capacity = max(len(deck_a), len(deck_b)) + 1
            seeds, first = np.array([seed * 104729], dtype=np.int64), np.array([seed % 2], dtype=np.int8)
            batch, _ = E.state_buffer(capacity, len(compiled.names), 0)
            played = new_batch(deck_a, deck_b, seeds, first, E.GREEDY, E.GREEDY)
            E.play_matches(R, batch, played)
            stepped, _ = E.state_buffer(capacity, len(compiled.names), 0)
            E.open_match(R, stepped, deck_a, deck_b, E.SEARCH, E.GREEDY, seeds[0], np.int64(first[0]))
            _stepped(R, stepped, set())
            E.finish_match(stepped, np.int64(0), np.zeros(1, dtype=np.int8), np.zeros(1, dtype=np.int32))
            for S in (batch, stepped):
                for side in (0, 1):
                    at = E.SIDE_AT + side * E.SIDE_COLUMNS + E.S_POLICY
                    S[at : at + POLICY_WORDS] = 0
            assert np.array_equal(_without_listing(batch), _without_listing(stepped)), (seed, a)
            winners_seen.add(int(played[BATCH_WINNERS][0]))
    assert len(winners_seen) > 1  # the deals do not all end alike


def test_search_answers_in_the_opponents_turn_as_greedy_does(scenario_set: CardSet) -> None:
    # In A's turn B's own cards there came from a hand B cannot see, so B (search) does not search there: its
    # "Spend 2 Blue. Damage dealt is ignored" is greedy's answer to the Brute's lethal hit, and the turn plays alike.
    traces = []
    for policy in (E.GREEDY, E.SEARCH):
        m = match(scenario_set, policies=(E.GREEDY, policy))
        m.S[E.SEARCH_AT + E.C_MODE] = E.SEARCH_LIVE  # as play_searched_matches sets it for the opponent's turn
        m.S[E.SEARCH_AT + E.C_SEARCHER] = -1
        m.set_board(A, ["Brute"])
        m.set_board(B, ["Dancer"])
        m.set_resources(B, blue=2)
        fight_out(m)
        assert m.board(B) == ["Dancer"] and m.S[E.SEARCH_AT + E.C_ABORTED] == 0
        traces.append(m.trace())
    assert traces[0] == traces[1] and any("uses Avoid Damage" in line for line in traces[1])


def test_search_weighs_every_fireball_target_and_not_firing(scenario_set: CardSet) -> None:
    # "Fireball: Spend 1 Red. Deal 1 damage to an enemy card before combat": with nothing in hand, A's only decision
    # this turn is the Fireball: hold it, the Pup or the Sprout; each choice gets its own rollouts.
    m = match(scenario_set, policies=(E.SEARCH, E.GREEDY))
    m.set_board(A, ["Mage", "Brute"])
    m.set_resources(A, red=1)
    m.set_zone(A, E.DECK, ["Grunt", "Ruby", "Pup"])
    m.set_board(B, ["Pup", "Sprout"])
    m.set_zone(B, E.HAND, ["Soldier", "Leaf"])
    m.set_zone(B, E.DECK, ["Leaf", "Grunt", "Ruby"])
    m.set_resources(B, green=2)
    tape, stats = searched_turn(m)
    rollouts = int(m.compiled.options[E.O_SEARCH_ROLLOUTS])
    # Three candidates share 3 x `search_rollouts` rollouts by successive halving: all three get the first round's
    # share, the better two the second's (play.search.schedule); no fourth row is listed.
    (three, first), (two, second) = schedule(3 * rollouts, 3)
    assert (three, two) == (3, 2) and first * 3 + second * 2 == 3 * rollouts
    assert len(tape) == 1 and sorted(stats[:3]) == [first, first + second, first + second] and stats[3] == 0
    assert stats[tape[0]] == first + second
    fired = [line for line in m.trace() if "uses Fireball" in line]
    assert fired == ([] if tape[0] == 0 else [f"A's Mage uses Fireball on {['Pup', 'Sprout'][tape[0] - 1]} (1 red)."])


# ---------------------------------------------------------------------------------------------------------------
# Rules and policies meet at legal_actions and apply


@pytest.mark.parametrize("policy", [GREEDY, RANDOM])
def test_policies_apply_only_actions_legal_actions_listed(policy: int) -> None:
    # legal_replay.py plays every ordered pair of the bundled decks and of three decks in which every ability fires,
    # and matches played on from four midgames set up so that the decisions whole matches rarely reach are asked, in
    # plain Python with `choose`, `greedy_hand` and `apply` wrapped: each row the policy chooses, each card greedy
    # plays without a list and each row applied must be one of the rows `legal_actions` lists for the pending
    # decision (listed again at that moment). The wrapped run must also play the compiled engine's matches, and the
    # policy must have answered decisions of every kind.
    matches = 6
    script = Path(__file__).with_name("legal_replay.py")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run(
        [sys.executable, str(script), str(policy), str(matches)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO_ROOT,
    )
    replayed = json.loads(done.stdout)
    chosen = replayed["chosen"]
    assert len(chosen) == int(E.K_SERENITY) + 1  # one count per decision kind
    for kind, answered in enumerate(chosen):
        assert answered > 0, f"no decision of kind {kind} was answered"
    assert replayed["results"] == _legal_replay().play(policy, matches)


def _legal_replay() -> Any:
    """tests/rulesets/circles/legal_replay.py as a module (its ability decks and midgames)."""
    script = Path(__file__).with_name("legal_replay.py")
    spec = importlib.util.spec_from_file_location("legal_replay", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _actions_at(S: Any) -> tuple[int, int]:
    """Where the action list of state buffer S starts, and its length in words (layout's `actions_of`)."""
    return E.ZONES_AT + (8 + 2 * E.LANE_COLUMNS) * int(S[E.H_CAPACITY]), E.ACTION_WIDTH * int(S[E.H_ACTION_ROWS])


def _stepped(R: Any, S: Any, kinds: set[int]) -> None:
    """The match in S played on from outside to its end, one row at a time: the open decision's rows listed
    (`legal_actions`), the deciding side's row (`decide`) taken (`apply`); the kind of every decision noted."""
    start, words = _actions_at(S)
    actions = S[start : start + words].reshape(-1, E.ACTION_WIDTH)
    while not E.is_over(S):
        assert E.legal_actions(R, S, actions) > 0
        kinds.add(int(S[E.DECISION_AT + E.D_KIND]))
        E.apply(R, S, E.decide(R, S, 0))


def _without_listing(S: Any) -> Any:
    """S with the action list and its count zeroed: a batch's greedy answers a hand decision without listing it."""
    S = S.copy()
    start, words = _actions_at(S)
    S[start : start + words] = 0
    S[E.DECISION_AT + E.D_N] = 0
    return S


def test_matches_played_from_outside_are_the_batch_s_and_stop_at_every_kind_of_decision() -> None:
    # The rules stop at every decision, the questions asked while a rule resolves included (an ability's use, damage's
    # prevention and Disperse's spreading, a Heal, an Extra Card's free characters). Matches of legal_replay.py's
    # ability decks, and its four midgames played on, each played from outside one row at a time (`open_match` or
    # `begin_play`, then `legal_actions`, the deciding side's `decide` and `apply`), end in the state the compiled
    # loop's match ends in (the action list and its count aside), and the rules stopped at decisions of all 18 kinds.
    from workbench.bench import bundled_cardset_and_decks
    from workbench.simulate import compile_for

    replay = _legal_replay()
    cardset, _ = bundled_cardset_and_decks(RULESET)
    _, compiled, _ = compile_for(cardset, None)
    R = E.rules_buffer(compiled)
    decks = replay.ability_deck_arrays(compiled)
    kinds: set[int] = set()
    for seed in range(1, 7):
        for a, deck_a in enumerate(decks):
            deck_b = decks[(a + seed) % len(decks)]
            policies = (GREEDY, GREEDY) if seed % 2 else (RANDOM, GREEDY)
            capacity = max(len(deck_a), len(deck_b)) + 1
            batch, _ = E.state_buffer(capacity, len(compiled.names), 0)
            seeds, first = np.array([seed * 7919], dtype=np.int64), np.array([seed % 2], dtype=np.int8)
            E.play_matches(R, batch, new_batch(deck_a, deck_b, seeds, first, *policies))
            stepped, _ = E.state_buffer(capacity, len(compiled.names), 0)
            E.open_match(R, stepped, deck_a, deck_b, *policies, seeds[0], np.int64(first[0]))
            _stepped(R, stepped, kinds)
            E.finish_match(stepped, np.int64(0), np.zeros(1, dtype=np.int8), np.zeros(1, dtype=np.int32))
            assert np.array_equal(_without_listing(batch), _without_listing(stepped)), (seed, a)
    for number, midgame in enumerate(replay.MIDGAMES):
        for seed in range(1, 7):
            policy = GREEDY if seed % 2 else RANDOM
            m = replay.midgame_arrays(compiled, midgame, seed * 7919, policy)
            batch = m.S.copy()
            E.play_match(m.R, batch, np.int64(0))
            E.begin_play(m.R, m.S, np.int64(0))
            _stepped(m.R, m.S, kinds)
            assert np.array_equal(_without_listing(batch), _without_listing(m.S)), (number, seed)
    assert sorted(kinds) == list(range(int(E.K_SERENITY) + 1))
