"""Patch proposals (issue 35, item 1): the deck match-ups and the first-player edge as objectives, on the toy game.

The toy game (tests/toy_engine.py) adds each revealed card's strength to its side's total: a card's cost changes
nothing in play, its strength does. So the truth is known. With Planted (strength 8 at cost 1, three steps over)
four times in the `bully` deck, the bully beats the reference deck far beyond the healthy band; repricing Planted
fixes its verdict but not the match-up (cost does nothing in play), lowering its strength to the honest cards' 2 at
cost 1 fixes both. With Dud (strength 2 at cost 4, under) in the `other` deck, the two decks are even; raising Dud's
strength to the honest 8 at cost 4 fixes its verdict but lets `other` crush the reference deck: not offered.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from toy_engine import HONEST_ROWS, TOY

from workbench.cards import CardSet, Deck
from workbench.cli import main
from workbench.health import HEALTH_THRESHOLDS
from workbench.propose import COST, FIRST_PLAYER_FIGURE, MATCHUP_FIGURE, Proposal, propose
from workbench.rulesets import RULESETS
from workbench.run_settings import RunSettings

PLANTED = {"name": "Planted", "kind": "unit", "cost": 1, "strength": 8}
DUD = {"name": "Dud", "kind": "unit", "cost": 4, "strength": 2}
REFERENCE = "6 Filler\n2 Spark\n2 Knight\n2 Giant"
BULLY = "4 Filler\n4 Planted\n4 Titan"
OTHER_WITH_DUD = "4 Filler\n4 Dud\n4 Titan"
MATCHES = 400
SEED = 1
MATCHUP = "reference v bully"
# The first player's +1 is the toy's own rule; without it the first-player edge is even, so it stays in its band.
EVEN_SEATS = {"first_player_bonus": False}


def _decks(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck], planted: dict[str, object], other: str
) -> tuple[CardSet, list[Deck]]:
    cardset = make_cardset(TOY, [*HONEST_ROWS, planted])
    return cardset, [make_deck(cardset, REFERENCE, name="reference"), make_deck(cardset, other, name="bully")]


def _changes(proposal: Proposal) -> set[tuple[str, str, float, float]]:
    return {(c.card, c.field, c.old, c.new) for c in proposal.changes}


def test_a_match_up_beyond_the_healthy_band_is_fixed_by_the_change_that_moves_play_and_the_proof_shows_it(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    cardset, decks = _decks(make_cardset, make_deck, PLANTED, BULLY)
    result = propose(
        cardset,
        decks,
        MATCHES,
        RunSettings(seed=SEED, workers=1, options=EVEN_SEATS),
        fields=[COST, "strength"],
        max_step=6,
        evaluations=12,
        proof_matches_per_pair=1000,
    )
    # The set as given: Planted over, and the bully's match-up wholly outside the health check's band.
    assert result.base.over == ("Planted",)
    health = result.base.health
    assert health is not None and health.matchups and health.matches_per_pair == 200
    matchup = health.figure(MATCHUP_FIGURE, MATCHUP)
    assert matchup is not None and matchup.high < HEALTH_THRESHOLDS.first_player_low
    assert (matchup.band_low, matchup.band_high) == (
        HEALTH_THRESHOLDS.first_player_low,
        HEALTH_THRESHOLDS.first_player_high,
    )
    assert matchup.distance == pytest.approx(HEALTH_THRESHOLDS.first_player_low - matchup.high)
    assert result.base.health_distance > 0.2
    # The front trades: repricing fixes the verdict, not the match-up (cost does nothing in play); lowering the
    # strength fixes both. Both are on the front, the repricing with the larger health distance.
    front = result.front.set_index("changes")
    repriced = [c for c in front.index if c.startswith("Planted: cost")]
    weakened = [c for c in front.index if c.startswith("Planted: strength")]
    assert weakened, result.to_text()
    best = front.loc[weakened].sort_values(["flagged", "health_distance"]).iloc[0]
    assert best["flagged"] == 0 and best["health_distance"] == 0
    for change in repriced:
        assert front.loc[change, "health_distance"] > 0.2
    # The offered fix: Planted's strength to the honest 2 or 3 at cost 1; the proof run shows the match-up back in
    # its band (its interval meets it), with intervals, before and after.
    fixes = [p for p in result.offered if any(c.field == "strength" for c in p.changes)]
    assert fixes, result.to_text()
    proposal = fixes[0]
    assert _changes(proposal) <= {("Planted", "strength", 8.0, 2.0), ("Planted", "strength", 8.0, 3.0)}
    assert proposal.before.health is not None and proposal.after.health is not None
    assert proposal.after.health.matches_per_pair == 1000
    before = proposal.before.health.figure(MATCHUP_FIGURE, MATCHUP)
    after = proposal.after.health.figure(MATCHUP_FIGURE, MATCHUP)
    assert before is not None and after is not None
    assert before.distance > 0.2 and after.distance == 0
    assert after.low <= 0.5 <= after.high and after.matches == 2000
    first = proposal.after.health.figure(FIRST_PLAYER_FIGURE, "first player")
    assert first is not None and first.distance == 0
    assert "health distance" in proposal.statement and "none worse beyond its interval" in proposal.statement
    # JSON and text carry the figures before and after, with intervals.
    data = proposal.to_json()
    figures = {f["label"]: f for f in data["proof_after"]["health"]["figures"]}
    assert figures[MATCHUP]["distance"] == 0 and figures[MATCHUP]["low"] <= figures[MATCHUP]["value"]
    assert data["proof_before"]["health_distance"] > 0.2
    text = result.to_text()
    assert f"{MATCHUP}: {before.text()} -> {after.text()}" in text
    assert "over/under left, mispricing left, health distance" in text
    assert "proof run match-ups and first-player edge (1,000 matches per ordered pair, healthy 45% to 55%)" in text
    assert any(s.startswith("Match-ups and the first-player edge were objectives") for s in result.statements)
    assert result.meta["health"]["matches_per_pair"] == 200 and result.meta["proof"]["matches_per_pair"] == 1000


def test_a_fix_that_makes_a_match_up_worse_beyond_its_interval_is_not_offered(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    cardset, decks = _decks(make_cardset, make_deck, DUD, OTHER_WITH_DUD)
    result = propose(
        cardset,
        decks,
        MATCHES,
        RunSettings(seed=SEED, workers=1, options=EVEN_SEATS),
        fields=["strength"],
        max_step=6,
        evaluations=10,
        proof_matches_per_pair=500,
    )
    assert "Dud" in result.base.under
    assert result.base.health is not None and result.base.health_distance == 0
    # Raising Dud's strength fixes its verdict but lets its deck crush the reference deck: refused, saying why.
    crushing = [p for p in result.refused if any(c.card == "Dud" and c.new >= 6 for c in p.changes)]
    assert crushing, result.to_text()
    for proposal in crushing:
        assert f"the match-up {MATCHUP}" in proposal.statement and "beyond both intervals" in proposal.statement
        assert proposal.statement in result.statements
    for proposal in result.offered:
        after = proposal.after.health
        assert after is not None
        figure = after.figure(MATCHUP_FIGURE, MATCHUP)
        assert figure is not None and figure.distance == 0
    assert "!" in result.to_text()


def test_with_one_deck_match_ups_are_not_an_objective_and_the_result_says_so(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    cardset, decks = _decks(make_cardset, make_deck, PLANTED, BULLY)
    result = propose(cardset, decks[:1], MATCHES, RunSettings(seed=SEED, workers=1), evaluations=4)
    health = result.base.health
    assert health is not None and not health.matchups
    assert [f.key for f in health.figures] == [FIRST_PLAYER_FIGURE]
    # The toy's first player adds 1: its edge is measured (mirror matches) even with one deck.
    assert health.figures[0].value > 0.5
    assert any("Match-ups were not an objective: the set has one deck" in s for s in result.statements)
    assert not result.meta["health"]["matchups_measured"]


def test_the_command_shows_the_health_objective_and_the_proofs_match_ups_in_text_and_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(RULESETS, "toy", TOY)
    rows = [*HONEST_ROWS, PLANTED]
    sheet = tmp_path / "toy.csv"
    sheet.write_text(
        "name,kind,cost,strength\n" + "".join(f"{r['name']},{r['kind']},{r['cost']},{r['strength']}\n" for r in rows),
        encoding="utf-8",
    )
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "a_reference.txt").write_text(REFERENCE + "\n", encoding="utf-8")
    (tmp_path / "decks" / "b_bully.txt").write_text(BULLY + "\n", encoding="utf-8")
    argv = [
        "propose",
        str(sheet),
        "--ruleset",
        "toy",
        "--matches-per-card",
        "200",
        "--evaluations",
        "4",
        "--workers",
        "1",
        "--field",
        "strength",
        "--matches-per-pair",
        "100",
        "--proof-matches-per-pair",
        "300",
        "--option",
        "first_player_bonus=false",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Match-ups and the first-player edge were objectives (health distance, healthy 45% to 55%, 100 " in out
    assert "over/under left, mispricing left, health distance" in out
    assert "proof run match-ups and first-player edge (300 matches per ordered pair, healthy 45% to 55%)" in out
    assert re.search(r"a_reference v b_bully: \d+\.\d% \[\d+\.\d%, \d+\.\d%\] -> \d+\.\d% \[", out), out
    assert "None" not in out and "nan" not in out
    assert main([*argv, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    labels = [f["label"] for f in data["base"]["health"]["figures"]]
    assert labels == ["first player", "a_reference v b_bully"]
    assert data["meta"]["health"]["matches_per_pair"] == 100
    assert data["meta"]["proof"]["matches_per_pair"] == 300
