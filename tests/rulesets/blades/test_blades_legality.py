"""The rules' interface: every policy takes only actions the rules listed, and every decision kind is reached.

Plain Python (NUMBA_DISABLE_JIT=1, in a subprocess: the flag is read when numba is first imported) over every bundled
deck pair, with the policies' entry `choose` and every decision kind's applier wrapped: each time a policy is asked,
the open decision's actions are listed anew by `legal_actions` (the kind-blind dispatcher) and must be the list the
rule code handed the policy; the policy's answer must be one of them; and the applier that follows must receive that
answer. The wrapped run must then give the compiled engine's results exactly.
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
pending = []
def asking(name):
    inner = getattr(E, name)

    def wrapped(g, st, out, n):
        kind = int(st.game[E.G_DECISION])
        listed = [int(v) for v in out[:n]]
        again = np.zeros(E.MAX_ACTIONS, dtype=np.int64)
        relisted = [int(v) for v in again[: E.legal_actions(g, st, again)]]
        action = int(inner(g, st, out, n))
        label = E.DECISION_NAMES[kind]
        asked[label] = asked.get(label, 0) + 1
        if kind == E.D_NONE or n < 1 or relisted != listed or action not in listed:
            refused.append([label, action, listed, relisted])
        pending.append((kind, action))
        return action

    E.replace_everywhere(name, wrapped)  # in every engine module that calls it


# `choose` asks any decision's policy; the turn loop asks its Action and single decisions' policies directly.
for name in ("choose", "choose_turn_action", "choose_single"):
    asking(name)

APPLIERS = {
    "apply_turn_action": (2, (E.D_ACTION_BEFORE, E.D_ACTION_AFTER)),
    "apply_single": (2, (E.D_SINGLE,)),
    "apply_scurry": (2, (E.D_SCURRY,)),
    "apply_reaction": (2, (E.D_REACTION,)),
    "apply_flip": (2, (E.D_FLIP_OWN, E.D_FLIP_OPPONENT)),
    "apply_discarder": (2, (E.D_DISCARDER,)),
    "apply_give_up": (1, (E.D_GIVE_UP,)),
    "apply_clash_opponent": (2, (E.D_CLASH_OPPONENT,)),
}


def applying(name, at, kinds):
    inner = getattr(E, name)

    def wrapped(*args):
        # The action a policy chose last must be what its decision's applier takes, for that decision's kind (the
        # turn loop does a NO_ACTION's little work in place, without the applier).
        while pending and pending[-1][0] in (E.D_ACTION_BEFORE, E.D_ACTION_AFTER) and pending[-1][1] == E.NO_ACTION:
            pending.pop()
        kind, action = pending.pop() if pending else (E.D_NONE, None)
        st_kind = int(args[1 if name != "apply_give_up" else 0].game[E.G_DECISION])
        if kind not in kinds or st_kind != kind or int(args[at]) != action:
            refused.append([name, int(args[at]), E.DECISION_NAMES[kind], E.DECISION_NAMES[st_kind]])
        return inner(*args)

    E.replace_everywhere(name, wrapped)  # in every engine module that calls it


for name, (at, kinds) in APPLIERS.items():
    applying(name, at, kinds)
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
left = [entry for entry in pending if entry[1] != E.NO_ACTION or entry[0] not in (E.D_ACTION_BEFORE, E.D_ACTION_AFTER)]
print(json.dumps({"refused": refused, "asked": asked, "left": len(left), "results": results}))
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
    assert wrapped["left"] == 0
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


def _apply(comp: E.CompiledCards, st: Any, action: int) -> None:
    E.apply(E.whole_set(comp), st, action)


def test_an_action_before_that_empties_the_hand_leaves_no_single_to_play(discard_comp: E.CompiledCards) -> None:
    # "On a player's turn, he or she may take one Action and must play one Single, in either order. ... A player
    # will be unable to play a single if he or she has no cards in hand". Reading: the Action before may be taken
    # (it is listed), and when it empties the player's own hand there is no single left, so the turn ends.
    st = _two_seats(discard_comp, ["Cog"])
    E.open_decision(st, E.D_ACTION_BEFORE, 0)
    box_action = (E.W_BOX + 3) * E.MAX_CLAUSES
    assert _listed(discard_comp, st) == [box_action, E.NO_ACTION]
    _apply(discard_comp, st, box_action)
    assert st["side"][0, E.S_HAND] == 0 and st["area"][0, E.AREA_BOX, E.AR_UP] == 0
    assert st["game"][E.G_DECISION] == E.D_NONE and _listed(discard_comp, st) == []


def test_the_turn_decisions_open_one_after_another(discard_comp: E.CompiledCards) -> None:
    # "You can use one action per turn, either before or after playing a Single": no Action before, then the single
    # (any in hand), then the Action after; with the Action taken before, the single is the turn's last decision.
    st = _two_seats(discard_comp, ["Cog", "Brick"])
    E.open_decision(st, E.D_ACTION_BEFORE, 0)
    _apply(discard_comp, st, E.NO_ACTION)
    assert st["game"][E.G_DECISION] == E.D_SINGLE and _listed(discard_comp, st) == [0, 1]
    _apply(discard_comp, st, 1)
    assert st["tab"][0, 0, E.TB_CARD] == discard_comp.card_id("Brick")
    assert st["game"][E.G_DECISION] == E.D_ACTION_AFTER
    assert _listed(discard_comp, st) == [(E.W_BOX + 3) * E.MAX_CLAUSES, E.NO_ACTION]
    _apply(discard_comp, st, E.NO_ACTION)
    assert st["game"][E.G_DECISION] == E.D_NONE
    st = _two_seats(discard_comp, ["Cog", "Brick"])
    E.open_decision(st, E.D_ACTION_BEFORE, 0)
    _apply(discard_comp, st, (E.W_BOX + 3) * E.MAX_CLAUSES)  # greedy's own choice: discards the Cog
    assert st["game"][E.G_DECISION] == E.D_SINGLE and _listed(discard_comp, st) == [0]
    _apply(discard_comp, st, 0)
    assert st["game"][E.G_DECISION] == E.D_NONE
