"""Power-curve judgement on a toy game: the filler is the baseline, not a verdict; a card played too seldom is
not judged; sweeps say when a field never changed a match; one set of defaults everywhere.

The toy game (tests/toy_engine.py) adds each revealed card's strength to its side's total, so a card's power
follows its strength and the expected verdicts are known in advance. Its five revealed cards are drawn and, unless
a card costs more than the treasury of 10, played on turn 1: so every play share is known before the run (the
chance that at least one of a card's copies is among the five, or 0 for a card that cannot be afforded).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from itertools import combinations
from math import comb
from pathlib import Path
from statistics import median

import numpy as np
import pandas as pd
import pytest
from toy_engine import POWER_OTHER, POWER_REFERENCE, POWER_ROWS, POWER_TITAN, TOY

from workbench import cli
from workbench.analysis import (
    BASELINE,
    FLAGS,
    NEVER_CHANGED,
    POWER_CURVE_DEFAULTS,
    RARELY_PLAYED,
    matchup_matrix,
    power_curve,
    stratified_standard_error,
    sweep,
)
from workbench.balance_study import StudySettings
from workbench.cards import CardSet, Deck, WorkbenchInputError
from workbench.judging import VerdictRule
from workbench.reports import build_report
from workbench.run_settings import RunSettings

ROWS, REFERENCE, OTHER, TITAN = POWER_ROWS, POWER_REFERENCE, POWER_OTHER, POWER_TITAN
DECK_SIZE, REVEALED = 12, 5


def _drawn_share(copies: int) -> float:
    """The chance that at least one of `copies` copies is among the five cards revealed from twelve."""
    return 1 - comb(DECK_SIZE - copies, REVEALED) / comb(DECK_SIZE, REVEALED)


@pytest.fixture
def toy(make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]) -> tuple[CardSet, Deck, Deck]:
    cardset = make_cardset(TOY, ROWS)
    return cardset, make_deck(cardset, REFERENCE, name="reference"), make_deck(cardset, OTHER, name="other")


def _theil_sen(points: list[tuple[float, float]]) -> tuple[float, float]:
    """The median pairwise slope and the Hodges-Lehmann intercept (the median of the residuals' Walsh averages, each
    residual with itself included), worked out by hand."""
    slopes = [(p2 - p1) / (c2 - c1) for (c1, p1), (c2, p2) in combinations(points, 2) if c1 != c2]
    slope = median(slopes)
    residuals = [p - slope * c for c, p in points]
    walsh = [(a + b) / 2 for k, a in enumerate(residuals) for b in residuals[k:]]
    return median(walsh), slope


def test_the_filler_is_the_baseline_with_no_verdict_and_no_suggested_cost(toy: tuple[CardSet, Deck, Deck]) -> None:
    cardset, reference, other = toy
    curve = power_curve(cardset, [reference, other], matches_per_card=2_000, run=RunSettings(seed=5, workers=1))
    rows = curve.cards.set_index("card")
    assert rows.loc["Filler", "flag"] == BASELINE
    assert rows.loc["Filler", "suggested_cost"] is None
    assert (rows.loc["Filler", "power"], rows.loc["Filler", "low"], rows.loc["Filler", "high"]) == (0.0, 0.0, 0.0)
    judged = rows.drop(index="Filler")
    assert set(judged["flag"]) <= set(FLAGS) - {BASELINE}
    # Strength 6 at cost 1, against the other card of its cost (Cheap, strength 1).
    assert judged.loc["Bargain", "flag"] == "over"
    assert judged.loc["Bargain", "comparator_cards"] == "Cheap"
    # Four judged cards cannot show that power rises with cost (Sen's interval of the slope reaches below 0), so
    # no cost is suggested, and the curve says why in words.
    assert curve.slope > 0 and curve.slope_low is not None and curve.slope_low <= 0 and not curve.rises_with_cost
    assert judged["suggested_cost"].isna().all()
    assert curve.line_statement().startswith("Power does not rise with cost here")
    assert "Suggested costs are withheld" in curve.line_statement()
    # Mid and Big are alone at their costs: with no rising line there is nothing to compare them with.
    for alone in ("Mid", "Big"):
        assert judged.loc[alone, "flag"] == "no comparator"
        assert "no other judged card costs" in judged.loc[alone, "reason"]


def test_the_fitted_line_and_tier_means_leave_the_filler_out(toy: tuple[CardSet, Deck, Deck]) -> None:
    cardset, reference, other = toy
    curve = power_curve(cardset, [reference, other], matches_per_card=2_000, run=RunSettings(seed=5, workers=1))
    judged = curve.cards[curve.cards["flag"] != BASELINE]
    intercept, slope = _theil_sen(list(zip(judged["cost"], judged["power"], strict=True)))
    assert (curve.intercept, curve.slope) == pytest.approx((intercept, slope))
    with_filler = _theil_sen(list(zip(curve.cards["cost"], curve.cards["power"], strict=True)))
    assert with_filler != pytest.approx((intercept, slope)), "this set is built so the filler would move the line"
    tier = curve.tiers.set_index("cost").loc[2.0]
    mid = curve.cards.set_index("card").loc["Mid"]
    assert tier["cards"] == 1 and tier["mean_power"] == pytest.approx(mid["power"])


def test_a_card_that_is_its_own_baseline_cannot_be_swept(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    cardset = make_cardset(TOY, ROWS)
    alone = make_deck(cardset, "12 Big", name="only big")
    with pytest.raises(WorkbenchInputError, match="'Big' cannot be swept: it is the only card of its kind"):
        sweep(cardset, [alone], "Big", "strength", [3, 4], matches_per_card=100, run=RunSettings(seed=1, workers=1))


def _default(function: Callable[..., object], name: str) -> object:
    return inspect.signature(function).parameters[name].default


def test_one_set_of_power_curve_defaults_for_the_library_the_cli_and_the_app() -> None:
    defaults = POWER_CURVE_DEFAULTS
    assert (defaults.matches_per_card, defaults.seed, defaults.policy) == (8_000, 0, "greedy")
    for function in (power_curve, sweep, build_report):
        assert _default(function, "matches_per_card") == defaults.matches_per_card
        run = _default(function, "run")
        assert isinstance(run, RunSettings) and (run.seed, run.policy) == (defaults.seed, defaults.policy)
    assert _default(matchup_matrix, "matches") == _default(build_report, "matches") == defaults.matches_per_pair
    parser = cli._parser()
    for command in ("power-curve", "sweep", "report"):
        args = parser.parse_args(
            [
                command,
                "set.csv",
                *(["--card", "A", "--field", "f", "--values", "1"] if command == "sweep" else []),
                *(["--out", "r.html"] if command == "report" else []),
            ]
        )
        # Counts not given stay None until the command knows whether it plays tournaments (these defaults) or
        # whole games (workbench.full_game.FULL_GAME_DEFAULTS).
        cli._tournament_counts(args)
        assert (args.matches_per_card, args.seed, args.policy) == (
            defaults.matches_per_card,
            defaults.seed,
            defaults.policy,
        )
    report_args = parser.parse_args(["report", "set.csv", "--out", "r.html"])
    cli._tournament_counts(report_args)
    assert report_args.matches == defaults.matches_per_pair
    app = StudySettings.defaults(["b", "a", "c"], ["random", "greedy"])
    assert app.decks == ("b", "a", "c")  # every deck of the set, in the set's order
    assert (app.matches_per_card, app.matches, app.seed, app.policy_a, app.policy_b) == (
        defaults.matches_per_card,
        defaults.matches_per_pair,
        defaults.seed,
        defaults.policy,
        defaults.policy,
    )
    assert StudySettings.defaults(["a"], ["random", "cautious"]).policy_a == "random"  # an engine without greedy


def test_every_measured_card_has_its_play_shares(toy: tuple[CardSet, Deck, Deck]) -> None:
    cardset, reference, other = toy
    curve = power_curve(cardset, [reference, other], matches_per_card=2_000, run=RunSettings(seed=5, workers=1))
    for row in curve.cards.itertuples():
        # Deck A's own copies of the card: 3 in place of the filler, plus the reference deck's (Filler: all 6).
        assert row.drawn == pytest.approx(_drawn_share(row.copies), abs=0.03), row.card
        assert row.played == row.drawn, row.card  # every card the toy reveals it can afford, it plays
        assert row.first_played_turn == 1.0 and row.mean_turns == 1.0  # the toy plays everything on turn 1
    assert RARELY_PLAYED not in set(curve.cards["flag"]) and curve.rarely_played_statement() is None


def test_a_card_that_cannot_be_afforded_is_rarely_played_and_not_judged(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    cardset = make_cardset(TOY, [*ROWS, TITAN])
    decks = [make_deck(cardset, REFERENCE, name="reference"), make_deck(cardset, OTHER, name="other")]
    curve = power_curve(cardset, decks, matches_per_card=2_000, run=RunSettings(seed=5, workers=1))
    titan = curve.cards.set_index("card").loc["Titan"]
    assert titan["flag"] == RARELY_PLAYED and titan["suggested_cost"] is None
    assert titan["played"] == 0 and titan["first_played_turn"] is None
    assert titan["drawn"] == pytest.approx(_drawn_share(3), abs=0.03)  # drawn in 84% of matches
    assert titan["reason"].startswith("played in 0% of matches (drawn in 84%)")
    assert "costs more than any card of the reference deck that is played (the dearest costs 3)" in titan["reason"]
    assert titan["reason"].endswith("it cannot be afforded before the matches end")
    # Out of the line and the tier means: they are those of the judged cards alone.
    judged = curve.cards[~curve.cards["flag"].isin([BASELINE, RARELY_PLAYED])]
    assert "Titan" not in set(judged["card"]) and 11.0 not in set(curve.tiers["cost"])
    assert (curve.intercept, curve.slope) == pytest.approx(
        _theil_sen(list(zip(judged["cost"], judged["power"], strict=True)))
    )
    assert curve.rarely_played == ["Titan"]
    statement = curve.rarely_played_statement()
    assert statement is not None
    assert statement.startswith("1 of 6 measured cards were played in fewer than 5% of their matches (Titan)")
    # With no threshold, every card is judged, the unplayable one included.
    every = power_curve(cardset, decks, matches_per_card=400, min_play_share=0, run=RunSettings(seed=5, workers=1))
    assert every.cards.set_index("card").loc["Titan", "flag"] not in (BASELINE, RARELY_PLAYED)


def test_a_play_share_threshold_outside_0_to_1_is_refused(toy: tuple[CardSet, Deck, Deck]) -> None:
    cardset, reference, other = toy
    for share in (-0.1, 1.0, 5):
        with pytest.raises(WorkbenchInputError, match="is not a play share threshold"):
            power_curve(
                cardset, [reference], matches_per_card=100, min_play_share=share, run=RunSettings(seed=1, workers=1)
            )


RISING = [
    {"name": "Filler", "kind": "unit", "cost": 3, "strength": 6},
    {"name": "One", "kind": "unit", "cost": 1, "strength": 1},
    {"name": "Two", "kind": "unit", "cost": 2, "strength": 4},
    {"name": "Four", "kind": "unit", "cost": 4, "strength": 9},
    {"name": "Five", "kind": "unit", "cost": 5, "strength": 12},
    {"name": "Three", "kind": "unit", "cost": 3, "strength": 7},
    {"name": "Six", "kind": "unit", "cost": 6, "strength": 14},
    {"name": "Seven", "kind": "unit", "cost": 7, "strength": 17},
    {"name": "Steal", "kind": "unit", "cost": 1, "strength": 9},
]


def test_a_line_that_rises_with_cost_suggests_a_measured_cost_for_a_flagged_card_only(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    cardset = make_cardset(TOY, RISING)
    decks = [
        make_deck(cardset, "6 Filler\n2 One\n2 Two\n2 Four\n2 Steal", name="reference"),
        make_deck(cardset, "6 Filler\n6 Five", name="other"),
    ]
    curve = power_curve(cardset, decks, matches_per_card=2_000, run=RunSettings(seed=2, workers=1))
    # Strength rises with cost, so most pairs of judged cards give a rising slope: Sen's interval lies above 0.
    assert curve.rises_with_cost and curve.slope_low is not None and curve.slope_high is not None
    assert 0 < curve.slope_low <= curve.slope <= curve.slope_high
    assert curve.line_statement().startswith(f"Power rises with cost: {curve.slope:+.3f} per step")
    rows = curve.cards.set_index("card")
    # Steal (strength 9 for 1, Four's strength) is over; its suggested cost is measured again before it is given.
    steal = rows.loc["Steal"]
    assert steal["flag"] == "over"
    check = steal["suggested_check"]
    assert check is not None and check["cost"] > 1
    if check["landed"]:
        assert steal["suggested_cost"] == check["cost"] and "within the tolerance" in steal["reason"]
    else:
        assert steal["suggested_cost"] is None and "still beyond the tolerance" in steal["reason"]
    assert f"measured again at cost {check['cost']:g}" in steal["reason"]
    # No card that is not flagged over or under carries a suggested cost.
    unflagged = rows[~rows["flag"].isin(["over", "under"])]
    assert unflagged["suggested_cost"].isna().all()


def test_a_sweep_of_an_unplayed_cards_field_says_it_never_changed_a_match(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    cardset = make_cardset(TOY, [*ROWS, TITAN])
    decks = [make_deck(cardset, REFERENCE, name="reference"), make_deck(cardset, OTHER, name="other")]
    result = sweep(
        cardset, decks, "Titan", "strength", [1, 5, 20], matches_per_card=400, run=RunSettings(seed=1, workers=1)
    )
    points = result.points
    assert list(points["flag"]) == [RARELY_PLAYED] * 3 and list(points["played"]) == [0.0] * 3
    assert not points["changed"].any()
    assert all(note.startswith(NEVER_CHANGED) and "never played at this value" in note for note in points["note"])
    assert result.statement is not None and result.meta["current_value"] == 9
    assert result.statement.startswith(
        "This field never changed a match: at every value swept, every one of the 400 matches"
    )
    assert "Titan was never played, at its current strength or at any value swept" in result.statement
    assert len(set(points["power"])) == 1  # the same matches, so the same power at every value


def test_a_sweep_of_a_played_cards_field_changes_matches(toy: tuple[CardSet, Deck, Deck]) -> None:
    cardset, reference, other = toy
    result = sweep(
        cardset,
        [reference, other],
        "Mid",
        "strength",
        [1, 4, 10],
        matches_per_card=1_000,
        run=RunSettings(seed=1, workers=1),
    )
    points = result.points.set_index("value")
    assert list(points["changed"]) == [True, False, True]  # 4 is Mid's strength now: the very matches of the curve
    assert points.loc[4, "note"] == "the card's current value"
    assert points.loc[1, "note"] == points.loc[10, "note"] == ""
    assert result.statement is None
    assert points.loc[1, "high"] < points.loc[4, "low"] and points.loc[4, "high"] < points.loc[10, "low"]  # monotone


def test_a_card_that_plays_exactly_as_its_filler_never_changed_a_match(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    # Twin is the filler under another name: every one of its matches ends as the reference deck's.
    cardset = make_cardset(TOY, [*ROWS, {"name": "Twin", "kind": "unit", "cost": 2, "strength": 2}])
    decks = [make_deck(cardset, REFERENCE, name="reference"), make_deck(cardset, OTHER, name="other")]
    rows = power_curve(cardset, decks, matches_per_card=1_000, run=RunSettings(seed=5, workers=1)).cards.set_index(
        "card"
    )
    twin = rows.loc["Twin"]
    assert (twin["power"], twin["low"], twin["high"], twin["changed"]) == (0.0, 0.0, 0.0, False)
    assert twin["played"] > 0.7  # played, yet it never made a difference
    assert twin["reason"].endswith("it never changed a match: every one ended as with the filler it replaces")
    assert rows.drop(index=["Twin", "Filler"])["changed"].all()


def test_an_over_budget_clone_in_the_bundled_souls_set_is_flagged_over(tmp_path: Path) -> None:
    import csv

    from workbench.decklists import read_decklist
    from workbench.loading import load_cardset
    from workbench.paths import bundled_decks, bundled_sets

    source = bundled_sets("souls")[0]
    with source.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    # Ashen Squire costs 1 soul at 5/5; its clone keeps the cost at 14/14. (With sacrifices only from the field, the
    # souls default since ruleset 1.3, the greedy policy summons no soul cost above 1 in these decks.)
    clone = dict(
        next(row for row in rows if row["name"] == "Ashen Squire"), name="Planted Warden", atk="14", **{"def": "14"}
    )
    planted = tmp_path / "ashfall_planted.csv"
    with planted.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows([*rows, clone])
    cardset = load_cardset(planted, "souls")
    decks = [read_decklist(path, cardset) for path in bundled_decks("souls")]
    curve = power_curve(cardset, decks, matches_per_card=1_000, run=RunSettings(seed=0, workers=1))
    row = curve.cards.set_index("card").loc["Planted Warden"]
    assert row["flag"] == "over" and row["played"] >= curve.meta["min_play_share"]
    assert row["reason"].startswith(f"its power {row['power']:+.3f} [{row['low']:+.3f}, {row['high']:+.3f}] lies above")
    # The bundled souls decks never summon the dearest monsters: they are rarely played, not judged.
    abyss = curve.cards.set_index("card").loc["Abyss Leviathan"]
    assert abyss["flag"] == RARELY_PLAYED and abyss["played"] == 0 and abyss["suggested_cost"] is None


def test_a_card_first_played_after_the_matches_usual_end_is_said_to_come_late() -> None:
    """A card whose first play comes, on average, after the variant's mean match length keeps its verdict, and its
    reason says its power says as much about the game's length as about its price (measured on circles: a 9/8 clone
    of a 3/3 first played on turn 5.2 of 4.6-turn matches); a card that ends the match when played says so."""
    from collections import namedtuple

    from workbench.analysis import played_words

    Row = namedtuple("Row", "power low high played first_played_turn mean_turns played_in_time turns_left")
    late = played_words(Row(0.007, -0.002, 0.016, 0.11, 5.2, 4.6, 0.10, 2.0))
    timely = played_words(Row(0.007, -0.002, 0.016, 0.40, 3.0, 4.6, 0.39, 2.0))
    unknown = played_words(Row(0.007, -0.002, 0.016, None, None, 4.6, None, None))
    finisher = played_words(Row(0.136, 0.120, 0.151, 0.30, 3.1, 3.3, 0.03, 0.2))
    assert "first on turn 5.2 on average while its matches last 4.6 turns on average" in late
    assert "first on turn" not in timely and unknown == ""
    assert "it ends the match when played: first played 0.2 turns before the end on average" in finisher


def test_a_sweep_of_a_card_the_set_lacks_says_so_even_with_no_values(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    """An unknown card is an input error naming the closest cards, not an AttributeError on None, even when no
    value is swept (with_field, which names it otherwise, is then never called)."""
    cardset = make_cardset(TOY, POWER_ROWS)
    decks = [make_deck(cardset, POWER_REFERENCE, name="reference"), make_deck(cardset, POWER_OTHER, name="other")]
    with pytest.raises(WorkbenchInputError, match="the set has no card 'Nope'"):
        sweep(cardset, decks, "Nope", "strength", [], matches_per_card=100, run=RunSettings(seed=1, workers=1))


def test_a_card_played_almost_only_on_the_last_turns_is_not_measured() -> None:
    """Played in 11% of matches but with a turn of its side left in 1.2%: the reason says it came when the matches
    were decided (circles' 9/8 clone of Storm Rider under the literal rules)."""
    from collections import namedtuple

    import pandas as pd

    from workbench.analysis import _rarely_played_reason

    Row = namedtuple("Row", "cost played drawn played_in_time first_played_turn turns_left mean_turns power low")
    late = Row(3.0, 0.11, 0.55, 0.012, 5.2, 0.2, 4.6, 0.004, -0.004)
    played_well = pd.DataFrame({"cost": [1.0, 2.0], "first_played_turn": [1.5, 2.5]})
    reason = _rarely_played_reason(late, played_well, 0.05)
    assert reason.startswith("played in 11% of matches (drawn in 55%), but in only 1.2% with a turn of its side left")
    assert "first on turn 5.2 on average, 0.2 turns before the match's end" in reason
    seldom = Row(3.0, 0.01, 0.55, 0.0, 5.2, 0.0, 4.6, 0.0, -0.01)
    assert "with a turn of its side left" not in _rarely_played_reason(seldom, played_well, 0.05)
    # A finisher (Ember Pup, issue 29): played in time seldom because it ends the match, with power clearly above 0.
    finisher = Row(3.0, 0.30, 0.6, 0.02, 3.1, 0.2, 3.3, 0.136, 0.120)
    said = _rarely_played_reason(finisher, played_well, 0.05)
    assert "it ends the match when played: first played 0.2 turns before the end" in said
    assert "its stats seldom change one" not in said


def test_exact_clones_share_a_verdict_and_a_planted_bargain_is_found_in_most_seeds(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    """Issue 29's measures where the truth is known: an exact clone of a played card, at its cost, never splits from
    it, and a card far beyond the tolerance (strength 9 for cost 1, Four's strength) is flagged over in most seeds."""
    rows = [*RISING, {"name": "Two Again", "kind": "unit", "cost": 2, "strength": 4}]
    cardset = make_cardset(TOY, rows)
    decks = [
        make_deck(cardset, "6 Filler\n2 One\n2 Two\n2 Four\n2 Steal", name="reference"),
        make_deck(cardset, "6 Filler\n6 Five", name="other"),
    ]
    found = 0
    for seed in range(5):
        curve = power_curve(cardset, decks, matches_per_card=1_000, run=RunSettings(seed=seed, workers=1))
        by_card = curve.cards.set_index("card")
        for column in ("flag", "power", "stability", "q_value"):
            assert by_card.loc["Two", column] == by_card.loc["Two Again", column], (seed, column)
        found += by_card.loc["Steal", "flag"] == "over"
    assert found >= 4


def test_where_the_line_does_not_rise_the_curve_says_why_from_its_own_play_shares() -> None:
    """circles: power falls with cost; the curve says how long the matches last and how often a card of each cost was
    played with a round still left, naming the costs the game ends before (issue 34, item 4). A curve whose line
    rises says nothing of the kind."""
    from dataclasses import replace

    from workbench.analysis import power_curve
    from workbench.decklists import set_decks
    from workbench.loading import load_cardset
    from workbench.paths import decks_folder_beside, find_bundled_set

    bundled = find_bundled_set("circles/circle_starter")
    assert bundled is not None
    cardset = load_cardset(bundled.path)
    decks = set_decks(cardset, decks_folder_beside(bundled.path)).decks
    curve = power_curve(cardset, decks, 100, RunSettings(seed=0), check_suggestions=False)
    assert not curve.rises_with_cost
    why = curve.why_statement()
    assert why is not None and why in curve.statements()
    shares = curve.cards.groupby("cost")["played_in_time"].agg(lambda v: sum(float(x) for x in v) / len(v))
    assert f"the measured cards' matches last {curve.cards['mean_turns'].astype(float).mean():.1f} turns" in why
    for cost in shares.index:
        assert f"{cost:g}: " in why
    late = [f"{cost:g}" for cost, share in shares.items() if share < 0.05]
    assert late and f"Cards of circles {', '.join(late)} are played in time in fewer than 5%" in why
    rising = replace(curve, slope=0.05, slope_low=0.01, slope_high=0.09)
    assert rising.rises_with_cost and rising.why_statement() is None


def test_a_second_look_measures_the_undecided_cards_again_and_decides_on_all_their_matches(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    """Issue 29's stability: an undecided card that more matches would decide within the cap is measured again on
    fresh seeds and decided on all its matches; the first look's matches are those of a run without a second look,
    the same seed gives the same figures, and an exact clone keeps its twin's verdict through both looks."""
    rows = [*RISING, {"name": "Two Again", "kind": "unit", "cost": 2, "strength": 4}]
    cardset = make_cardset(TOY, rows)
    decks = [
        make_deck(cardset, "6 Filler\n2 One\n2 Two\n2 Four\n2 Steal", name="reference"),
        make_deck(cardset, "6 Filler\n6 Five", name="other"),
    ]
    run = RunSettings(seed=3, workers=1)
    looked = power_curve(cardset, decks, matches_per_card=300, run=run, check_suggestions=False)
    once = power_curve(
        cardset, decks, matches_per_card=300, run=run, rule=VerdictRule(follow_up=1.0), check_suggestions=False
    )
    follow = looked.meta["follow_up"]
    assert follow["cap"] == POWER_CURVE_DEFAULTS.follow_up and once.meta["follow_up"]["cards"] == []
    assert follow["cards"], "the toy run leaves a card undecided that a second look can decide"
    first, again = once.cards.set_index("card"), looked.cards.set_index("card")
    per_card = looked.meta["matches_per_card"]
    for name in again.index:
        if name in follow["cards"]:
            assert first.loc[name, "flag"] == "undecided", name
            assert again.loc[name, "matches"] == per_card + follow["matches_per_card"], name
        else:
            # Not measured again: the same matches, so the same power (its verdict may move with its band).
            assert again.loc[name, "matches"] == first.loc[name, "matches"], name
            assert again.loc[name, "power"] == first.loc[name, "power"], name
    for column in ("flag", "power", "matches", "stability"):
        assert again.loc["Two", column] == again.loc["Two Again", column], column
    said = looked.follow_up_statement()
    assert said is not None and said.startswith(f"Second look: {len(follow['cards'])} card")
    assert said in looked.statements() and once.follow_up_statement() is None
    pd.testing.assert_frame_equal(
        looked.cards, power_curve(cardset, decks, matches_per_card=300, run=run, check_suggestions=False).cards
    )


def test_a_second_look_cap_below_one_is_refused_by_the_rule_and_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(ValueError, match="second look"):
        VerdictRule(follow_up=0.5)
    assert VerdictRule().follow_up == POWER_CURVE_DEFAULTS.follow_up
    assert cli.main(["power-curve", "souls/ashfall", "--follow-up", "0.5"]) == cli.EXIT_USAGE
    assert "'0.5' is not a second look's cap" in capsys.readouterr().err


def test_the_standard_error_of_a_stratified_design_leaves_out_the_spread_between_strata() -> None:
    """Each opponent and first seat gets a fixed count of matches, so a card's effect that differs between
    opponents is not noise: the spread of the mean over many replicate runs is the within-strata error, which the
    plain standard error overstates and the stratified one matches."""
    generator = np.random.default_rng(7)
    labels = np.repeat(np.arange(4), 500)
    # Paired differences in {-1, 0, +1}: a card that gains against two opponents and loses against two.
    shift = np.array([0.3, 0.1, -0.1, -0.3])[labels]
    means, plain, stratified = [], [], []
    for _ in range(400):
        diff = (generator.random(len(labels)) < 0.3 + shift.clip(0)).astype(float) - (
            generator.random(len(labels)) < 0.3 - shift.clip(max=0)
        ).astype(float)
        means.append(diff.mean())
        plain.append(diff.std(ddof=1) / np.sqrt(len(diff)))
        stratified.append(stratified_standard_error([diff], [labels]))
    spread = float(np.std(means, ddof=1))
    assert float(np.mean(stratified)) == pytest.approx(spread, rel=0.1)
    assert float(np.mean(plain)) > 1.05 * float(np.mean(stratified))


def test_the_stratified_standard_error_is_the_plain_one_with_one_stratum_and_pools_parts() -> None:
    diff = np.array([1.0, 0.0, -1.0, 1.0, 1.0, 0.0])
    plain = float(diff.std(ddof=1) / np.sqrt(len(diff)))
    assert stratified_standard_error([diff], [np.zeros(6, dtype=np.int64)]) == pytest.approx(plain)
    # Strata that hold one match each leave no degree of freedom: the plain error, not 0.
    assert stratified_standard_error([diff], [np.arange(6)]) == pytest.approx(plain)
    # Parts whose strata hold one match each: the plain error over all of them.
    assert stratified_standard_error([diff[:2], diff[2:4]], [np.array([0, 1]), np.array([0, 1])]) == pytest.approx(
        float(np.concatenate([diff[:2], diff[2:4]]).std(ddof=1) / 2)
    )
    # Two parts, each constant within its one stratum: no spread within strata.
    assert stratified_standard_error([np.array([1.0, 1.0]), np.array([-1.0, -1.0])], [np.zeros(2, int)] * 2) == 0.0
