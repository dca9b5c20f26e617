"""Whole plasma matches: sanity figures any engine must show, determinism, policies, the golden trace.

Match counts are small (hundreds to a few thousand) except in the 1-vs-2-workers test, which must cross the
runner's parallel threshold.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from workbench.analysis import power_curve
from workbench.cards import CardSet, Deck
from workbench.decklists import read_decklist
from workbench.loading import load_cardset
from workbench.paths import REPO_ROOT, bundled_decks, bundled_sets
from workbench.play.policies import policy_word
from workbench.rulesets.plasma import RULESET
from workbench.run_settings import RunSettings
from workbench.simulate import PARALLEL_THRESHOLD, batch_seeds, compile_for, simulate, trace

GOLDEN = REPO_ROOT / "tests" / "golden" / "plasma_trace.txt"
GOLDEN_ABILITIES = REPO_ROOT / "tests" / "golden" / "plasma_abilities_trace.txt"
GOLDENS = [
    pytest.param(GOLDEN, "swarm", "bulwark", 7, id="swarm-bulwark"),
    pytest.param(GOLDEN_ABILITIES, "nightfall", "bulwark", 3, id="nightfall-bulwark-abilities"),
]
"""Each golden trace: its file, deck A (first), deck B, seed."""
SET = "cardsets/plasma/plasma_core.csv"


@pytest.fixture(scope="module")
def bundled() -> tuple[CardSet, dict[str, Deck]]:
    cardset = load_cardset(bundled_sets("plasma")[0], RULESET)
    return cardset, {path.stem: read_decklist(path, cardset) for path in bundled_decks("plasma")}


def creature(name: str, cost: int, power: int, resolve: int) -> dict[str, Any]:
    return {"name": name, "kind": "creature", "cost": cost, "power": power, "resolve": resolve, "subtype": ""}


def on_curve_and_cheap_rows() -> list[dict[str, Any]]:
    """Creatures on cost = (power + resolve - 1) / 2, and an under-budget twin of each with one point less of each."""
    rows = []
    for cost, power, resolve in [(1, 2, 1), (2, 3, 2), (3, 4, 3), (4, 5, 4), (5, 6, 5)]:
        rows.append(creature(f"Fair {cost}", cost, power, resolve))
        rows.append(creature(f"Weak {cost}", cost, power - 1, max(1, resolve - 1)))
    return rows


def deck_text(prefix: str) -> str:
    return "\n".join(f"{count} {prefix} {cost}" for cost, count in [(1, 8), (2, 10), (3, 10), (4, 8), (5, 4)])


# ---- sanity --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("deck", ["bulwark", "swarm"])
def test_a_mirror_match_is_about_even(bundled: tuple[CardSet, dict[str, Deck]], deck: str) -> None:
    cardset, decks = bundled
    result = simulate(cardset, decks[deck], decks[deck], matches=3_000, run=RunSettings(seed=11))
    rate = result.win_rate_a
    assert rate.low <= 0.5 <= rate.high, str(rate)


def test_an_on_curve_deck_beats_an_under_budget_deck(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    cardset = make_cardset(RULESET, on_curve_and_cheap_rows())
    fair, weak = make_deck(cardset, deck_text("Fair"), name="fair"), make_deck(cardset, deck_text("Weak"), name="weak")
    rate = simulate(cardset, fair, weak, matches=2_000, run=RunSettings(seed=3)).win_rate_a
    assert rate.low > 0.5, str(rate)


def test_a_strictly_better_card_shows_at_least_the_weaker_cards_power(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    """Same cost, one more power, everything else equal: its simulated power is not below the weaker card's."""
    rows = on_curve_and_cheap_rows()[::2] + [creature("Plain", 3, 3, 3), creature("Better", 3, 4, 3)]
    cardset = make_cardset(RULESET, rows)
    reference = make_deck(cardset, deck_text("Fair"), name="reference")
    curve = power_curve(cardset, [reference], matches_per_card=3_000, run=RunSettings(seed=5))
    cards = curve.cards.set_index("card")
    better, plain = cards.loc["Better"], cards.loc["Plain"]
    assert better["high"] >= plain["power"], (better.to_dict(), plain.to_dict())
    assert better["power"] >= plain["low"]


def test_greedy_beats_random(bundled: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = bundled
    result = simulate(
        cardset,
        decks["nightfall"],
        decks["nightfall"],
        matches=1_000,
        run=RunSettings(seed=2, policy="greedy"),
        policy_b="random",
    )
    assert result.win_rate_a.low > 0.6, str(result.win_rate_a)


def test_random_policy_plays_whole_legal_matches(bundled: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = bundled
    result = simulate(cardset, decks["swarm"], decks["bulwark"], matches=500, run=RunSettings(seed=4, policy="random"))
    assert len(result.matches) == 500
    assert result.matches["turns"].between(1, 60).all()
    counters = result.counters.set_index(["deck", "card"])
    assert (counters["played"] <= counters["drawn"]).all()


def test_counters_add_up(bundled: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = bundled
    result = simulate(cardset, decks["swarm"], decks["bulwark"], matches=400, run=RunSettings(seed=8))
    counters = result.counters
    for side in ("A", "B"):
        rows = counters[counters["deck"] == side]
        assert rows["drawn"].sum() >= 5 * 400  # at least the opening hands
        assert (rows["played"] <= rows["drawn"]).all()
        assert rows["attacked"].sum() > 0 and rows["damage_dealt"].sum() > 0 and rows["destroyed"].sum() > 0
    creatures = {entry.card.name for entry in cardset.of_kind("creature")}
    spells = counters[~counters["card"].isin(creatures)]
    assert (spells["attacked"] == 0).all() and (spells["destroyed"] == 0).all()


def test_first_player_figure_is_reported_separately(bundled: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = bundled
    summary = simulate(cardset, decks["swarm"], decks["nightfall"], matches=1_000, run=RunSettings(seed=9)).summary()
    assert 0.0 < summary["first_player_win_rate"]["value"] < 1.0
    assert summary["ruleset"] == "plasma" and summary["engine_version"] == "6"


# ---- determinism ---------------------------------------------------------------------------------------------------


def test_same_seed_same_matches_other_seed_other_matches(bundled: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = bundled
    first = simulate(cardset, decks["swarm"], decks["bulwark"], matches=1_500, run=RunSettings(seed=21))
    again = simulate(cardset, decks["swarm"], decks["bulwark"], matches=1_500, run=RunSettings(seed=21))
    other = simulate(cardset, decks["swarm"], decks["bulwark"], matches=1_500, run=RunSettings(seed=22))
    assert first.matches.equals(again.matches) and first.counters.equals(again.counters)
    assert not first.matches["turns"].equals(other.matches["turns"])


def test_one_and_two_worker_processes_give_identical_matches(bundled: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = bundled
    matches = PARALLEL_THRESHOLD + 1_500
    alone = simulate(cardset, decks["bulwark"], decks["nightfall"], matches=matches, run=RunSettings(seed=5, workers=1))
    pair = simulate(cardset, decks["bulwark"], decks["nightfall"], matches=matches, run=RunSettings(seed=5, workers=2))
    assert alone.matches.equals(pair.matches)
    assert alone.counters.equals(pair.counters)


@pytest.mark.parametrize(("policy_a", "policy_b"), [("greedy", "greedy"), ("random", "greedy"), ("search", "greedy")])
def test_a_batch_and_a_trace_are_compiled_apart_and_play_the_same_matches(
    bundled: tuple[CardSet, dict[str, Deck]], policy_a: str, policy_b: str
) -> None:
    """A batch plays on a record without a trace (STATE_DTYPE), so its kernels are a compiled copy of their own with
    every trace call gone (`rules.trace`); the trace's copy (TRACED_STATE_DTYPE) must play the very same matches, every
    deck pair."""
    from workbench.rulesets.plasma import engine as E

    cardset, decks = bundled
    engine, compiled, _ = compile_for(cardset)
    a_policy, b_policy = policy_word(policy_a, engine.policies), policy_word(policy_b, engine.policies)
    seeds, first = batch_seeds(17, 4 if policy_a == "search" else 12)[0]
    for name_a in decks:
        for name_b in decks:
            a, b = compiled.deck_array(decks[name_a]), compiled.deck_array(decks[name_b])
            winners, turns, _ = engine.play_batch(compiled, a, b, seeds, first, a_policy, b_policy)
            for m, seed in enumerate(seeds.tolist()):
                winner, traced_turns, events = engine.play_traced(
                    compiled, a, b, seed, int(first[m]), a_policy, b_policy
                )
                assert (winner, traced_turns) == (int(winners[m]), int(turns[m])), (name_a, name_b, m)
                assert int(events[-1][0]) <= traced_turns and len(events) > 20
    kernel: Any = E.play_matches_searched if "search" in (policy_a, policy_b) else E.play_matches  # a dispatcher
    # Two machine-code copies of the match loop: one for the batch's record type, one for the trace's.
    assert len({str(signature[1]) for signature in kernel.signatures}) == 2


_PLAY_SCRIPT = """
import json, numpy as np
from workbench.decklists import read_decklist
from workbench.loading import load_cardset
from workbench.simulate import batch_seeds, compile_for
cardset = load_cardset("cardsets/plasma/plasma_core.csv")
engine, compiled, _ = compile_for(cardset)
a = compiled.deck_array(read_decklist("cardsets/plasma/decks/swarm.txt", cardset))
b = compiled.deck_array(read_decklist("cardsets/plasma/decks/nightfall.txt", cardset))
seeds, first = batch_seeds(13, 6)[0]
winners, turns, counters = engine.play_batch(compiled, a, b, seeds, first, 0, 1)
_, _, events = engine.play_traced(compiled, a, b, int(seeds[0]), 0, 1, 0)
print(json.dumps([winners.tolist(), turns.tolist(), counters.sum(axis=1).tolist(), events.tolist()]))
"""


def test_compiled_and_plain_python_engines_play_the_same_matches() -> None:
    """The kernels run unchanged with NUMBA_DISABLE_JIT=1 (how they are debugged) and give the same matches."""
    outputs = []
    for disable in ("0", "1"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=disable)
        done = subprocess.run(
            [sys.executable, "-c", _PLAY_SCRIPT], env=env, cwd=REPO_ROOT, capture_output=True, text=True, check=True
        )
        outputs.append(json.loads(done.stdout))
    assert outputs[0] == outputs[1]
    assert len(outputs[0][3]) > 50  # the traced match logged a whole game


# ---- effects the engine does not cover -----------------------------------------------------------------------------


def test_compiled_cards_carry_an_info_finding_for_an_uncovered_effect(make_cardset: Callable[..., CardSet]) -> None:
    rows = [creature(f"C{i}", i, i + 1, i) for i in range(1, 5)] + [
        {"name": "Frost Nova", "kind": "event", "cost": 3, "effects": "freeze 2; draw 1", "subtype": ""}
    ]
    _, compiled, _ = compile_for(make_cardset(RULESET, rows))
    [finding] = compiled.findings
    assert (finding.severity, finding.rule, finding.card, finding.row, finding.column) == (
        "info",
        "plasma.effect_not_simulated",
        "Frost Nova",
        6,
        "effects",
    )


# ---- the golden trace ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("golden", "deck_a", "deck_b", "seed"), GOLDENS)
def test_golden_trace(golden: Path, deck_a: str, deck_b: str, seed: int) -> None:
    """Swarm (A, first) against bulwark (B) at seed 7, and nightfall, whose Gloom Seers and Storm Callers activate
    their abilities, against bulwark at seed 3 (against swarm at seed 2 up to ruleset 1.2, where since 1.3 no
    Storm Caller activates); both greedy.

    A change in play shows up here line by line. When a change is meant, bump the engine version in
    workbench/rulesets/plasma/engine/python_side.py (`ENGINE`) and regenerate the files with

        workbench simulate cardsets/plasma/plasma_core.csv --deck cardsets/plasma/decks/swarm.txt \\
            --deck cardsets/plasma/decks/bulwark.txt --seed 7 --trace > tests/golden/plasma_trace.txt
        workbench simulate cardsets/plasma/plasma_core.csv --deck cardsets/plasma/decks/nightfall.txt \\
            --deck cardsets/plasma/decks/bulwark.txt --seed 3 --trace > tests/golden/plasma_abilities_trace.txt
    """
    cardset = load_cardset(REPO_ROOT / SET, RULESET)
    first = read_decklist(REPO_ROOT / f"cardsets/plasma/decks/{deck_a}.txt", cardset)
    second = read_decklist(REPO_ROOT / f"cardsets/plasma/decks/{deck_b}.txt", cardset)
    got = list(trace(cardset, first, second, seed=seed))
    expected = golden.read_text(encoding="utf-8").splitlines()
    for number, (want, have) in enumerate(zip(expected, got, strict=False), start=1):
        assert have == want, f"{golden.name} line {number} differs"
    assert len(got) == len(expected)


def test_golden_trace_reads_like_a_match(bundled: tuple[CardSet, dict[str, Deck]]) -> None:
    text = Path(GOLDEN).read_text(encoding="utf-8")
    for phrase in ("starts turn", "Healthshards: A 20, B 20", "plays", "attacks", "is destroyed", "Result:"):
        assert phrase in text
    abilities = GOLDEN_ABILITIES.read_text(encoding="utf-8")
    # Since ruleset 1.3 (no summoning sickness) swarm against bulwark at seed 7 is a race with no block; the
    # nightfall match has blocks ("... blocks ... with ...").
    assert " blocks " in abilities
    for phrase in ("A activates Gloom Seer's ability", "A activates Storm Caller's ability", "Storm Caller (A) hits B"):
        assert phrase in abilities


@pytest.mark.parametrize("golden", [GOLDEN, GOLDEN_ABILITIES], ids=["swarm-bulwark", "nightfall-bulwark-abilities"])
def test_play_phase_comes_before_battle_phase_in_every_turn(golden: Path) -> None:
    """ "once you start the Battle Phase you can no longer play new cards or activate monster effects until the rest
    of the turn, with the exception of Instant cards.\""""
    lines = golden.read_text(encoding="utf-8").splitlines()
    cardset = load_cardset(REPO_ROOT / SET, RULESET)
    kinds = {entry.card.name: entry.card.kind for entry in cardset}
    turn: list[str] = []
    checked = 0
    for line in [*lines[1:], "Turn end:"]:
        if line.startswith(("Turn ", "Result:")):
            active = next((row.split()[0] for row in turn if " starts turn " in row), None)
            attacked = False
            for row in turn:
                if row.startswith(f"{active} plays ") and attacked:
                    card = row.split(" plays ", 1)[1].split(" (")[0]
                    assert kinds[card] == "instant", f"{card} played in the battle phase: {row}"
                assert not (attacked and " activates " in row), f"an ability activated in the battle phase: {row}"
                if " attacks " in row and f"({active}" in row.split(" attacks ")[0]:
                    attacked = True
                    checked += 1
            turn = []
        else:
            turn.append(line.strip())
    assert checked > 10


def test_greedy_blocks_in_whole_matches_without_summoning_sickness(bundled: tuple[CardSet, dict[str, Deck]]) -> None:
    """ "When you declare a direct attack the opponent can either choose to let it go through ... or block it." With
    no summoning sickness (the default since ruleset 1.3), the greedy of 1.2 attacked with every creature as soon as
    it could, so each was still tapped in the opponent's turn and no block ever happened (0 in these 90 matches).
    Greedy now keeps blockers home when the race is not clearly its own: 130 blocks at ruleset 1.3, engine 3."""
    cardset, decks = bundled
    blocks = sum(
        " blocks " in line
        for deck_a in decks.values()
        for deck_b in decks.values()
        for seed in range(10)
        for line in trace(cardset, deck_a, deck_b, seed=seed)
    )
    assert blocks >= 60, blocks


@pytest.mark.parametrize(
    ("overrides", "index", "value"),
    [
        ({}, "lethal_damage", 1),
        ({"lethal_damage": "at_least"}, "lethal_damage", 0),
        ({}, "battlefield_effects", 1),
        ({"battlefield_effects": "on_play"}, "battlefield_effects", 0),
        ({"turn_cap": "12"}, "turn_cap", 12),
        ({}, "summoning_sickness", 0),
        ({"summoning_sickness": "true"}, "summoning_sickness", 1),
        ({}, "healthshards_cap", 0),
        ({"healthshards_cap": "20"}, "healthshards_cap", 20),
        ({}, "resolve_bonus_end_destroys", 0),
        ({"resolve_bonus_end_destroys": "true"}, "resolve_bonus_end_destroys", 1),
        ({}, "activations_per_turn", 1),
        ({"activations_per_turn": "3"}, "activations_per_turn", 3),
        ({}, "activation_sickness", 0),
        ({"activation_sickness": "true"}, "activation_sickness", 1),
        ({}, "instants_any_time", 1),
        ({"instants_any_time": "false"}, "instants_any_time", 0),
    ],
)
def test_rule_options_reach_the_kernels_as_integers(overrides: dict[str, str], index: str, value: int) -> None:
    from workbench.rulesets.plasma import engine as E

    values = E.option_array(RULESET.resolve_options(overrides))
    assert values[E.OPTION_ORDER.index(index)] == value
    assert len(values) == len(E.OPTION_ORDER)
    assert set(E.OPTION_ORDER) <= {option.key for option in RULESET.options}


def test_the_ledger_reads_instants_any_time_from_the_documents_words() -> None:
    """`instants_any_time` (ruleset 1.4): the default is the reading the words support, its quote is the document's
    own sentence (checked against the document where the workspace holds it), and off names the old windows."""
    option = {option.key: option for option in RULESET.options}["instants_any_time"]
    assert option.default is True
    assert "can be played at any time" in option.quote and "before it goes in effect" in option.quote
    assert "Off (the only reading up to ruleset version 1.3)" in option.reading
    document = REPO_ROOT.parent / "shared" / "seeds" / RULESET.document
    if document.is_file():
        words = " ".join(document.read_text(encoding="utf-8").replace("\\'", "'").replace('\\"', '"').split())
        assert option.quote in words
    assert RULESET.version == "1.4"
    from workbench.rulesets.plasma import engine as E

    assert E.ENGINE.version == "6"


# ---- the search policy ---------------------------------------------------------------------------------------------


def test_search_plays_whole_matches_the_same_way_twice(bundled: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = bundled
    run = RunSettings(seed=3, policy="search", workers=1, options={"search_rollouts": 4})
    searched = simulate(cardset, decks["nightfall"], decks["nightfall"], matches=12, run=run, policy_b="greedy")
    again = simulate(cardset, decks["nightfall"], decks["nightfall"], matches=12, run=run, policy_b="greedy")
    assert searched.matches.equals(again.matches) and searched.counters.equals(again.counters)
    assert searched.matches["turns"].between(1, 60).all()
    assert searched.meta["policies"] == ["search", "greedy"]


# ---- the rules' interface: policies apply only what the rules list --------------------------------------------------

_LEGAL_ONLY_SCRIPT = """
import json, sys
import numpy as np
import workbench.rulesets.plasma.engine as E
from workbench.decklists import read_decklist
from workbench.loading import load_cardset
from workbench.paths import bundled_decks
from workbench.simulate import batch_seeds, compile_for

applied = {}
refused = []
stale = []
tables = []
KINDS = {E.D_PLAY: "play", E.D_ATTACKER: "attacker", E.D_TARGET: "target", E.D_MULLIGAN: "mulligan",
         E.D_BLOCK: "block", E.D_INSTANT: "instant"}


def applying(name, kind, action_at):
    inner = getattr(E, name)

    def wrapped(*args):
        # The decision open now, and what `legal_actions` lists for it now, into a buffer of its own (greedy weighs
        # the actions on the state without writing a list, so the list is made here, at the moment of applying).
        st = args[0] if name == "apply_attacker" else args[1]
        if name != "apply_attacker":
            tables[:] = [args[0]]
        fresh = np.zeros(E.MAX_CHOICES, dtype=np.int64)
        n = E.legal_actions(tables[0], st, fresh)
        open_kind = "effect target" if st.game[E.G_PENDING] != E.D_NONE else KINDS.get(int(st.game[E.G_DECISION]))
        action = int(args[action_at])
        actions = [int(v) for v in fresh[:n]]
        if open_kind != kind or action not in actions:
            refused.append([kind, action, open_kind, actions])
        # What the rules keep of each side instead of reading it afresh: the hand's cheapest Instant and the creatures
        # with an ability on the field, each against the hand and field as they are now.
        table = tables[0]
        for p in (0, 1):
            hand = [int(table[st.hand[p, h], E.T_INSTANT_COST]) for h in range(st.side[p, E.S_HAND])]
            field = [int(table[st.board[p, i, E.B_CARD], E.T_HAS_ABILITY]) for i in range(st.side[p, E.S_BOARD])]
            kept = [int(st.side[p, E.S_HAND_INSTANT]), int(st.side[p, E.S_FIELD_ABILITIES])]
            if kept != [min(hand, default=E.NO_INSTANT), sum(field)]:
                stale.append([kind, p, kept, hand, field])
        applied[kind] = applied.get(kind, 0) + 1
        return inner(*args)

    # Each module of the engine package that calls the applier looks it up in its own globals.
    E.replace_everywhere(name, wrapped)


APPLIERS = [("apply_play", "play", 3), ("apply_attacker", "attacker", 1), ("apply_target", "target", 3),
            ("apply_mulligan", "mulligan", 3), ("apply_block", "block", 2), ("apply_instant", "instant", 2),
            ("apply_effect_target", "effect target", 2)]
for name, kind, at in APPLIERS:
    applying(name, kind, at)
policy = int(sys.argv[1])
cardset = load_cardset("cardsets/plasma/plasma_core.csv")
engine, compiled, _ = compile_for(cardset)
decks = [compiled.deck_array(read_decklist(path, cardset)) for path in bundled_decks("plasma")]
results = []
for a in decks:
    for b in decks:
        seeds, first = batch_seeds(17, 4)[0]
        winners, turns, counters = engine.play_batch(compiled, a, b, seeds, first, policy, policy)
        results.append([winners.tolist(), turns.tolist(), counters.tolist()])
print(json.dumps({"refused": refused, "stale": stale, "applied": applied, "results": results}))
"""


@pytest.mark.parametrize("policy", [0, 1], ids=["greedy", "random"])
def test_the_policies_apply_only_actions_the_rules_listed(policy: int) -> None:
    """Plain Python (NUMBA_DISABLE_JIT=1) with every applier wrapped: each action a policy takes is in the list
    `legal_actions` makes for the decision open at that moment (listed again there, into a buffer of its own), for
    every decision kind, over every bundled deck pair; the sides' kept fields (S_HAND_INSTANT, S_FIELD_ABILITIES)
    match the hand and field at every action; and the wrapped run plays the compiled engine's matches."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run(
        [sys.executable, "-c", _LEGAL_ONLY_SCRIPT, str(policy)],
        env=env,
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    wrapped = json.loads(done.stdout)
    assert wrapped["refused"] == []
    assert wrapped["stale"] == []
    assert set(wrapped["applied"]) == {"play", "attacker", "target", "mulligan", "block", "instant", "effect target"}
    cardset = load_cardset(REPO_ROOT / SET, RULESET)
    engine, compiled, _ = compile_for(cardset)
    decks = [compiled.deck_array(read_decklist(path, cardset)) for path in bundled_decks("plasma")]
    compiled_results = []
    for a in decks:
        for b in decks:
            seeds, first = batch_seeds(17, 4)[0]
            winners, turns, counters = engine.play_batch(compiled, a, b, seeds, first, policy, policy)
            compiled_results.append([winners.tolist(), turns.tolist(), counters.tolist()])
    assert wrapped["results"] == compiled_results
