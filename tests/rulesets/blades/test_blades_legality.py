"""The rules' interface: every policy takes only actions the rules listed, and every decision kind is reached.

Plain Python (NUMBA_DISABLE_JIT=1, in a subprocess: the flag is read when numba is first imported) over every bundled
deck pair and a set of discards and attachments, with `take` wrapped (the rules take every row through it, `apply`
included): each row taken must be one `legal_actions` lists for the open decision at that point, and every decision
kind must be reached. The wrapped run must then give the compiled engine's results exactly.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from workbench.decklists import read_decklist
from workbench.loading import load_cardset
from workbench.paths import REPO_ROOT, bundled_decks, bundled_sets
from workbench.rulesets.blades import RULESET
from workbench.rulesets.blades import engine as E
from workbench.simulate import batch_seeds, compile_for

_LEGAL_ONLY_SCRIPT = """
import json, sys
import numpy as np
import workbench.rulesets.blades.engine as E
from workbench.decklists import read_decklist
from workbench.loading import load_cardset
from workbench.paths import bundled_decks, bundled_sets
from workbench.rulesets.blades import RULESET
from workbench.simulate import batch_seeds, compile_for

asked = {}
refused = []
take = E.take


def taking(g, st, action):
    # Every row the rules take (`apply` takes each through `take`) must be one `legal_actions` lists at that point.
    kind = int(st.game[E.G_DECISION])
    again = np.zeros(E.MAX_ACTIONS, dtype=np.int64)
    listed = [int(v) for v in again[: E.legal_actions(g, st, again)]]
    label = E.DECISION_NAMES[kind]
    asked[label] = asked.get(label, 0) + 1
    if kind == E.D_NONE or not listed or int(action) not in listed:
        refused.append([label, int(action), listed])
    take(g, st, action)


E.replace_everywhere("take", taking)  # in every engine module that calls it
policy_a, policy_b, players, count = (int(v) for v in sys.argv[1:5])
options = {"players": players, "search_rollouts": 2}
results = []
for path, deck_names in ((bundled_sets("blades")[0], None), (sys.argv[5], json.loads(sys.argv[6]))):
    cardset = load_cardset(path, RULESET)
    engine, compiled, _ = compile_for(cardset, options)
    if deck_names is None:
        decks = [compiled.deck_array(read_decklist(deck, cardset)) for deck in bundled_decks("blades")]
    else:
        decks = [np.array([compiled.card_id(name) for name in deck], dtype=np.int64) for deck in deck_names]
    for a in decks:
        for b in decks:
            seeds, first = batch_seeds(17, count)[0]
            winners, turns, counters, extras = engine.play_batch(compiled, a, b, seeds, first, policy_a, policy_b)
            results.append([winners.tolist(), turns.tolist(), counters.tolist(), extras["vp"].tolist()])
print(json.dumps({"refused": refused, "asked": asked, "results": results}))
"""

DISCARD_ROWS = [
    # name, kind, stars, elements, types, effects
    ("Plank Pirate", "single", 3, "Water", "Fiend", "Play: discard opponent"),
    ("Bilge Rat", "single", 2, "Water", "Beast", "Play: discard yours"),
    ("Sore Loser", "single", 4, "Dark", "Fiend", "Reaction (discarded): gain 4 RP"),
    ("Squire Host", "single", 4, "Light", "Soldier", "Play: attach; Score: gain 5 RP per attached"),
    ("Raider", "single", 3, "Dark", "Fiend", "Action: discard opponent 2"),
    ("Starter", "single", 4, "Fire", "Soldier", "Play: gain 3 RP; Play: star +2"),
    ("Brick", "single", 2, "Earth", "Soldier", ""),
    ("Cog", "single", 1, "Fire", "Machine", ""),
    ("Binder Box", "deck_box", 2, "Earth", "Machine", "Action: discard yours"),
]
"""Discards and attachments, which no bundled card makes (the bundled set reaches every other decision kind); the
deck box's own-hand discard can empty the hand before the play."""
DISCARD_DECKS = [
    ["Plank Pirate", "Bilge Rat", "Sore Loser", "Squire Host", "Raider", "Starter", "Brick", "Cog", "Binder Box"],
    ["Raider", "Raider", "Sore Loser", "Sore Loser", "Squire Host", "Brick", "Binder Box"],
]


def _write_discard_set(folder: Path) -> Path:
    path = folder / "discards.csv"
    lines = ["name,kind,set,set_kind,stars,elements,types,copies,effects"]
    lines += [
        f"{name},{kind},Test Core,core,{stars},{elements},{types},2,{effects}"
        for name, kind, stars, elements, types, effects in DISCARD_ROWS
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


KINDS = {
    "action before",
    "single",
    "scurry",
    "action after",
    "reaction",
    "flip own",
    "flip opponent",
    "discarder",
    "give up",
    "clash opponent",
}
"""Every decision kind of the engine (DECISION_NAMES but "none")."""


def _compiled_results(policy_a: int, policy_b: int, players: int, count: int, extra: Path) -> list[list[object]]:
    """The compiled engine's results for what the script plays."""
    results = []
    for path, deck_names in ((bundled_sets("blades")[0], None), (extra, DISCARD_DECKS)):
        cardset = load_cardset(path, RULESET)
        engine, compiled, _ = compile_for(cardset, {"players": players, "search_rollouts": 2})
        if deck_names is None:
            decks = [compiled.deck_array(read_decklist(deck, cardset)) for deck in bundled_decks("blades")]
        else:
            decks = [np.array([compiled.card_id(name) for name in deck], dtype=np.int64) for deck in deck_names]
        for a in decks:
            for b in decks:
                seeds, first = batch_seeds(17, count)[0]
                winners, turns, counters, extras = engine.play_batch(compiled, a, b, seeds, first, policy_a, policy_b)
                results.append([winners.tolist(), turns.tolist(), counters.tolist(), extras["vp"].tolist()])
    return results


@pytest.mark.parametrize(
    ("policy_a", "policy_b", "players", "count"),
    [(0, 0, 4, 6), (1, 1, 4, 6), (0, 1, 5, 4), (2, 0, 3, 1)],
    ids=["greedy", "random", "greedy-random-5", "search-greedy-3"],
)
def test_the_policies_take_only_actions_the_rules_listed(
    policy_a: int, policy_b: int, players: int, count: int, tmp_path: Path
) -> None:
    extra = _write_discard_set(tmp_path)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    args = [str(policy_a), str(policy_b), str(players), str(count), str(extra), json.dumps(DISCARD_DECKS)]
    done = subprocess.run(
        [sys.executable, "-c", _LEGAL_ONLY_SCRIPT, *args],
        env=env,
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    wrapped = json.loads(done.stdout)
    assert wrapped["refused"] == []
    assert wrapped["results"] == _compiled_results(policy_a, policy_b, players, count, extra)
    if policy_a != 2:
        assert set(wrapped["asked"]) == KINDS, sorted(wrapped["asked"])


@pytest.fixture(scope="module")
def discard_comp(tmp_path_factory: pytest.TempPathFactory) -> E.CompiledCards:
    cardset = load_cardset(_write_discard_set(tmp_path_factory.mktemp("blades_discards")), RULESET)
    return E.compile_cards(cardset, RULESET.resolve_options({"players": 2}))


def _two_seats(comp: E.CompiledCards, hand: list[str]) -> Any:
    """Seat A holds `hand` and the Binder Box ("Action: discard yours"); seat B holds a Brick. Nothing is played."""
    st = E.new_state(comp.options)
    st["game"][E.G_PLAYERS] = 2
    st["game"][E.G_SLOTS] = 6
    for p, singles in enumerate((hand, ["Brick"])):
        st["side"][p, E.S_SLOTS] = 6
        st["side"][p, E.S_DECKSIDE] = p
        st["side"][p, E.S_HAND] = len(singles)
        st["side"][p, E.S_CARDS : E.S_CARDS + len(singles)] = [comp.card_id(name) for name in singles]
    st["area"][0, E.AREA_BOX] = [comp.card_id("Binder Box"), 1]
    return st


def _listed(comp: E.CompiledCards, st: Any) -> list[int]:
    out = np.zeros(E.MAX_ACTIONS, dtype=np.int64)
    return [int(v) for v in out[: E.legal_actions(E.whole_set(comp), st, out)]]


EFFECT_DECISIONS = (E.D_REACTION, E.D_FLIP_OWN, E.D_FLIP_OPPONENT, E.D_DISCARDER, E.D_GIVE_UP, E.D_CLASH_OPPONENT)


def _begin_turn(comp: E.CompiledCards, st: Any, p: int) -> None:
    st["game"][E.G_TURN] += 1
    E.begin_turn(E.whole_set(comp), st, p)


def _apply(comp: E.CompiledCards, st: Any, action: int) -> None:
    """`action` taken and the rules played on to the turn's next decision or its end: an effect's decision on the way
    (the discard's single) answered by its seat's policy."""
    g = E.whole_set(comp)
    E.take(g, st, action)
    E.advance(g, st, True)
    while st["game"][E.G_DECISION] in EFFECT_DECISIONS:
        E.take(g, st, E.decide(g, st, 0))
        E.advance(g, st, True)


def test_an_action_before_that_empties_the_hand_leaves_no_single_to_play(discard_comp: E.CompiledCards) -> None:
    # "On a player's turn, he or she may take one Action and must play one Single, in either order. ... A player
    # will be unable to play a single if he or she has no cards in hand". Reading: the Action before may be taken
    # (it is listed), and when it empties the player's own hand there is no single left, so the turn ends.
    st = _two_seats(discard_comp, ["Cog"])
    _begin_turn(discard_comp, st, 0)
    box_action = (E.W_BOX + 3) * E.MAX_CLAUSES
    assert _listed(discard_comp, st) == [box_action, E.NO_ACTION]
    _apply(discard_comp, st, box_action)
    assert st["side"][0, E.S_HAND] == 0 and st["area"][0, E.AREA_BOX, E.AR_UP] == 0
    assert st["game"][E.G_DECISION] == E.D_NONE and _listed(discard_comp, st) == []


def test_the_turn_decisions_open_one_after_another(discard_comp: E.CompiledCards) -> None:
    # "You can use one action per turn, either before or after playing a Single": no Action before, then the single
    # (any in hand), then the Action after; with the Action taken before, the single is the turn's last decision.
    st = _two_seats(discard_comp, ["Cog", "Brick"])
    _begin_turn(discard_comp, st, 0)
    _apply(discard_comp, st, E.NO_ACTION)
    assert st["game"][E.G_DECISION] == E.D_SINGLE and _listed(discard_comp, st) == [0, 1]
    _apply(discard_comp, st, 1)
    assert st["tab"][0, 0, E.TB_CARD] == discard_comp.card_id("Brick")
    assert st["game"][E.G_DECISION] == E.D_ACTION_AFTER
    assert _listed(discard_comp, st) == [(E.W_BOX + 3) * E.MAX_CLAUSES, E.NO_ACTION]
    _apply(discard_comp, st, E.NO_ACTION)
    assert st["game"][E.G_DECISION] == E.D_NONE
    st = _two_seats(discard_comp, ["Cog", "Brick"])
    _begin_turn(discard_comp, st, 0)
    _apply(discard_comp, st, (E.W_BOX + 3) * E.MAX_CLAUSES)  # greedy's own choice: discards the Cog
    assert st["game"][E.G_DECISION] == E.D_SINGLE and _listed(discard_comp, st) == [0]
    _apply(discard_comp, st, 0)
    assert st["game"][E.G_DECISION] == E.D_NONE


def test_a_discard_of_two_stops_at_each_decision_it_opens_and_goes_on_after_it(discard_comp: E.CompiledCards) -> None:
    # Stepped from outside: A's Raider ("Action: discard opponent 2") opens the choice of victim; "Discard a Card - The
    # card is discarded to the owner's Binder", each single "of their choice", so B decides twice, then B may use its
    # face-up Sore Loser ("Reaction (discarded)"); only then is the Raider flipped ("perform the text on the card, then
    # flip") and A's single the next decision. At each stop the rules have kept the rows `legal_actions` lists.
    g, st = E.whole_set(discard_comp), _two_seats(discard_comp, ["Cog"])
    for p, name in ((0, "Raider"), (1, "Sore Loser")):
        st["tab"][p, 0] = [discard_comp.card_id(name), 1, 0, 0, 0]
        st["side"][p, E.S_USED] = 1
        E.seat_summaries(g, st, p)
    st["side"][1, E.S_HAND] = 3
    st["side"][1, E.S_CARDS : E.S_CARDS + 3] = [discard_comp.card_id(name) for name in ("Brick", "Cog", "Starter")]
    _begin_turn(discard_comp, st, 0)

    def stop() -> tuple[int, int, list[int]]:
        listed = _listed(discard_comp, st)
        assert [int(v) for v in st["actions"][: int(st["game"][E.G_LISTED])]] == listed
        return int(st["game"][E.G_DECISION]), int(st["game"][E.G_ACTOR]), listed

    raider = (0 + 3) * E.MAX_CLAUSES
    assert stop() == (E.D_ACTION_BEFORE, 0, [(E.W_BOX + 3) * E.MAX_CLAUSES, raider, E.NO_ACTION])
    E.apply(g, st, raider)
    assert stop() == (E.D_DISCARDER, 0, [1])
    E.apply(g, st, 1)
    assert stop() == (E.D_GIVE_UP, 1, [0, 1, 2])
    E.apply(g, st, 2)  # the Starter
    assert stop() == (E.D_GIVE_UP, 1, [0, 1])
    assert int(st["game"][E.G_ITEM]) == E.IT_DISCARD and st["tab"][0, 0, E.TB_UP] == 1  # the Raider waits, face-up
    E.apply(g, st, 0)  # the Brick
    assert stop() == (E.D_REACTION, 1, [E.USE, E.DECLINE])
    assert int(st["game"][E.G_DX_CARD]) == discard_comp.card_id("Sore Loser")
    E.apply(g, st, E.USE)
    assert stop() == (E.D_SINGLE, 0, [0])
    assert int(st["side"][1, E.S_HAND]) == 1 and int(st["side"][1, E.S_CARDS]) == discard_comp.card_id("Cog")
    assert int(st["side"][1, E.S_RP]) == 4 and st["tab"][1, 0, E.TB_UP] == 0
    assert st["tab"][0, 0, E.TB_UP] == 0 and int(st["game"][E.G_ITEM]) == E.IT_NONE
