"""A balance study chains the runner's parts on one seed, reports progress by phase, and stops when told to."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from toy_engine import TOY

from workbench.analysis import matchup_matrix, power_curve
from workbench.balance_study import (
    CURVE_PHASE,
    MATCH_PHASE,
    MATCHUP_PHASE,
    StudySettings,
    is_warm,
    provenance_line,
    run_study,
    warm_up_engine,
)
from workbench.cards import CardSet, Deck, WorkbenchInputError
from workbench.run_settings import RunSettings
from workbench.simulate import simulate

TOY_ROWS = [
    {"name": "Filler", "kind": "unit", "cost": 2, "strength": 2},
    {"name": "Cheap", "kind": "unit", "cost": 1, "strength": 1},
    {"name": "Big", "kind": "unit", "cost": 3, "strength": 3},
    {"name": "Dud", "kind": "unit", "cost": 3, "strength": 0},
]
SETTINGS = StudySettings(
    decks=("ref", "other"), policy_a="greedy", policy_b="random", matches=300, matches_per_card=100, seed=5
)


@pytest.fixture
def toy(make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]) -> tuple[CardSet, dict[str, Deck]]:
    cardset = make_cardset(TOY, TOY_ROWS)
    decks = {
        "ref": make_deck(cardset, "6 Filler\n2 Cheap\n2 Big", name="ref"),
        "other": make_deck(cardset, "4 Filler\n4 Dud", name="other"),
    }
    return cardset, decks


class Cancelled(Exception):
    """What the app's cancel looks like from the runner's side: the progress report raises."""


def test_a_study_is_the_runners_own_results_on_the_same_seed(toy: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = toy
    seen: list[tuple[str, int, int]] = []
    results = run_study(
        cardset, decks, SETTINGS, {"first_player_bonus": "false"}, progress=lambda *a: seen.append(a), workers=1
    )
    alone = simulate(
        cardset,
        decks["ref"],
        decks["other"],
        300,
        RunSettings(seed=5, policy="greedy", options={"first_player_bonus": False}, workers=1),
        policy_b="random",
    )
    assert results.match.matches.equals(alone.matches)
    assert results.options == {"first_player_bonus": False}
    assert results.cardset_hash == cardset.content_hash()
    assert results.trace[0].startswith("# toy") and results.trace[-1].startswith("Result:")
    curve = power_curve(
        cardset,
        [decks["ref"], decks["other"]],
        100,
        RunSettings(seed=5, policy="greedy", options={"first_player_bonus": False}, workers=1),
    )
    assert results.curve is not None and results.curve.cards.equals(curve.cards)
    matchups = matchup_matrix(
        cardset,
        [decks["ref"], decks["other"]],
        300,
        RunSettings(seed=5, policy="greedy", options={"first_player_bonus": False}, workers=1),
    )
    assert results.matchups is not None and results.matchups.equals(matchups)
    phases = [phase for phase, _, _ in seen]
    assert phases[0] == MATCH_PHASE and CURVE_PHASE in phases and phases[-1] == MATCHUP_PHASE
    last = {phase: (done, total) for phase, done, total in seen}
    assert all(done == total for done, total in last.values())
    assert set(results.seconds) == {MATCH_PHASE, CURVE_PHASE, MATCHUP_PHASE}
    assert "toy v1" in provenance_line(results) and "seed 5" in provenance_line(results)


def test_parts_not_asked_for_are_not_run(toy: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = toy
    settings = StudySettings(("ref",), "greedy", "greedy", 100, 50, 1, with_power_curve=False, with_matchups=True)
    results = run_study(cardset, decks, settings, workers=1)
    assert results.curve is None and results.matchups is None  # one deck: no matchup matrix
    assert results.match.meta["deck_a"] == results.match.meta["deck_b"] == "ref"


def test_a_raising_progress_report_stops_the_study(toy: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = toy
    calls: list[str] = []

    def cancel_in_the_power_curve(phase: str, done: int, total: int) -> None:
        calls.append(phase)
        if phase == CURVE_PHASE and done > 0:
            raise Cancelled

    with pytest.raises(Cancelled):
        run_study(cardset, decks, SETTINGS, progress=cancel_in_the_power_curve, workers=1)
    assert MATCHUP_PHASE not in calls


def test_unknown_decks_are_refused(toy: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = toy
    with pytest.raises(WorkbenchInputError, match="unknown deck"):
        run_study(cardset, decks, StudySettings(("nope",), "greedy", "greedy", 10, 10, 0))
    with pytest.raises(WorkbenchInputError):
        run_study(cardset, decks, StudySettings((), "greedy", "greedy", 10, 10, 0))


def test_warm_up_happens_once_per_engine(toy: tuple[CardSet, dict[str, Deck]]) -> None:
    cardset, decks = toy
    warm_up_engine(cardset, decks["ref"])
    assert is_warm(cardset)
    assert warm_up_engine(cardset, decks["ref"]) == 0.0
