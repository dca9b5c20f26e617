"""Patch proposals (issue 35, item 1): a lopsided deck match-up opens changes of its own, on the toy game.

The toy game (tests/toy_engine.py) adds each revealed card's strength to its side's total; its honest cards cost half
their strength, so no card of the honest set is over or under. A `strong` deck of the dearer honest cards (Giant and
Titan, strength 8) beats the reference deck (Filler, Spark, Knight, Giant) far beyond the healthy band all the same:
the match-up is lopsided with no card flagged. The cards that tell the two decks apart are known: the strong deck holds
four Titan and two Giant more (to be weakened), the reference deck two Spark and two Knight more (to be strengthened)
and two Filler more (the baseline filler: never opened). Guard, Ember and Lancer are in neither deck.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from toy_engine import HONEST_ROWS, TOY

from workbench.cards import CardSet, Deck
from workbench.propose import COST, MATCHUP_CARDS, MATCHUP_FIGURE, Proposals, propose
from workbench.run_settings import RunSettings

REFERENCE = "6 Filler\n2 Spark\n2 Knight\n2 Giant"
STRONG = "4 Filler\n4 Giant\n4 Titan"
EVEN = "4 Filler\n4 Ember\n4 Titan"
WEAK = "4 Filler\n4 Spark\n4 Ember"
MATCHES = 200
SEED = 1
MATCHUP = "reference v strong"
# The first player's +1 is the toy's own rule; without it the first-player edge is even, so it stays in its band.
EVEN_SEATS = {"first_player_bonus": False}
WEAKENED = {"Titan", "Giant"}
STRENGTHENED = {"Spark", "Knight"}


def _decks(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck], *decks: tuple[str, str]
) -> tuple[CardSet, list[Deck]]:
    cardset = make_cardset(TOY, HONEST_ROWS)
    return cardset, [make_deck(cardset, text, name=name) for name, text in decks]


def _front_changes(result: Proposals) -> list[tuple[str, str, float, float]]:
    """Every change of every measured candidate on the front and of every proved proposal."""
    changes = [
        (c.card, c.field, c.old, c.new) for proposal in [*result.offered, *result.refused] for c in proposal.changes
    ]
    for text in result.front["changes"]:
        if text == "(the set as given)":
            continue
        for part in text.split("; "):
            card, rest = part.split(": ")
            field, old, _, new = rest.split(" ")
            changes.append((card, field, float(old), float(new)))
    return changes


def test_a_lopsided_match_up_with_no_flagged_card_opens_changes_for_the_cards_that_tell_its_decks_apart(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    cardset, decks = _decks(make_cardset, make_deck, ("reference", REFERENCE), ("strong", STRONG))
    result = propose(
        cardset,
        decks,
        MATCHES,
        RunSettings(seed=SEED, workers=1, options=EVEN_SEATS),
        fields=[COST, "strength"],
        evaluations=8,
        proof_matches_per_pair=500,
    )
    # The set as given: no card flagged, the strong deck wins the match-up far beyond the band.
    assert result.base.flagged == 0
    assert result.base.health is not None
    matchup = result.base.health.figure(MATCHUP_FIGURE, MATCHUP)
    assert matchup is not None and matchup.distance > 0.2 and matchup.high < matchup.band_low
    # The cards opened: the strong deck's to be weakened, the reference deck's to be strengthened, Titan (four copies
    # more, played) first; not the baseline filler, nor a card in neither deck.
    levers = {lever["card"]: lever for lever in result.meta["health"]["levers"]}
    assert set(levers) == WEAKENED | STRENGTHENED
    assert {card for card, lever in levers.items() if lever["direction"] == "weaken"} == WEAKENED
    assert result.meta["health"]["levers"][0]["card"] == "Titan"
    assert all(lever["matchups"] == [MATCHUP] for lever in levers.values())
    assert result.meta["health"]["matchup_cards"] == MATCHUP_CARDS
    # The search measured candidates for them, each a step in its direction within the set's bounds (strength 2 to
    # 8, cost 1 to 4), and none for any other card.
    assert result.evaluated > 1
    changes = _front_changes(result)
    assert changes, result.to_text()
    for card, field, old, new in changes:
        assert card in WEAKENED | STRENGTHENED, result.to_text()
        weaker = new > old if field == COST else new < old
        assert weaker == (card in WEAKENED), (card, field, old, new)
        assert (1 <= new <= 4) if field == COST else (2 <= new <= 8)
    # Weakening Titan, the lever with the most pull, brings the match-up nearer its band in the search's run.
    front = result.front.set_index("changes")
    titan = [c for c in front.index if c.startswith("Titan: strength")]
    assert titan and all(front.loc[c, "health_distance"] < result.base.health_distance for c in titan)
    # The statements say what was searched, and nothing claims the match-up was only reported.
    assert any("the lopsided match-ups below are searched" in s for s in result.statements)
    assert any(s.startswith(f"Outside their band, {MATCHUP} ") and "weakened" in s for s in result.statements)
    assert not any("not searched" in s for s in result.statements)


def test_a_locked_card_is_never_opened_by_a_match_up(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    cardset, decks = _decks(make_cardset, make_deck, ("reference", REFERENCE), ("strong", STRONG))
    result = propose(
        cardset,
        decks,
        MATCHES,
        RunSettings(seed=SEED, workers=1, options=EVEN_SEATS),
        fields=[COST, "strength"],
        locked_cards=["titan", "Knight"],
        evaluations=6,
        proof_matches_per_pair=500,
    )
    assert [lever["card"] for lever in result.meta["health"]["levers"]] == ["Giant", "Spark"]
    changes = _front_changes(result)
    assert changes, result.to_text()
    assert {card for card, *_ in changes} <= {"Giant", "Spark"}
    assert any("Locked, never changed: Knight, Titan" in s for s in result.statements)


def test_a_lopsided_match_up_whose_cards_are_all_locked_is_reported_not_searched(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    cardset, decks = _decks(make_cardset, make_deck, ("reference", REFERENCE), ("strong", STRONG))
    result = propose(
        cardset,
        decks,
        MATCHES,
        RunSettings(seed=SEED, workers=1, options=EVEN_SEATS),
        locked_cards=sorted(WEAKENED | STRENGTHENED),
        evaluations=3,
    )
    assert result.base.flagged == 0 and result.base.health_outside == 1
    assert result.evaluated == 1 and result.meta["health"]["levers"] == []
    assert not result.offered and not result.refused
    assert any(s.startswith(f"No card is opened for {MATCHUP}, outside the band") for s in result.statements)
    assert any("Locked, never changed: Giant, Knight, Spark, Titan" in s for s in result.statements)


def test_a_card_two_lopsided_match_ups_pull_both_ways_is_left_alone(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    """Three decks: strong beats reference, reference beats weak. Knight is only in the reference deck, so the first
    match-up would strengthen it and the second weaken it: a change would trade one for the other."""
    cardset, decks = _decks(make_cardset, make_deck, ("reference", REFERENCE), ("strong", STRONG), ("weak", WEAK))
    result = propose(cardset, decks, MATCHES, RunSettings(seed=SEED, workers=1, options=EVEN_SEATS), evaluations=1)
    assert result.base.flagged == 0 and result.base.health is not None
    assert [f.label for f in result.base.health.figures if f.distance > 0] == [
        "reference v strong",
        "reference v weak",
        "strong v weak",
    ]
    levers = {lever["card"]: lever["direction"] for lever in result.meta["health"]["levers"]}
    assert "Knight" not in levers and "Filler" not in levers
    assert len(levers) == MATCHUP_CARDS
    assert levers == {"Titan": "weaken", "Giant": "weaken", "Spark": "strengthen", "Ember": "strengthen"}


@pytest.mark.parametrize(("options", "first_player_outside"), [(EVEN_SEATS, False), ({}, True)])
def test_a_set_with_no_flagged_card_and_no_lopsided_match_up_is_not_searched(
    make_cardset: Callable[..., CardSet],
    make_deck: Callable[..., Deck],
    options: dict[str, bool],
    first_player_outside: bool,
) -> None:
    """Two decks of equal strength, so the match-up is even. With the toy's first-player bonus on, decks of one
    strength each leave the die and the bonus to decide: the first player wins about two in three, wholly outside the
    band, and still no card is opened for it (it is the game's rule, not a card's), and the result says so."""
    if first_player_outside:
        cardset, decks = _decks(make_cardset, make_deck, ("reference", "12 Filler"), ("other", "12 Guard"))
    else:
        cardset, decks = _decks(make_cardset, make_deck, ("reference", REFERENCE), ("other", EVEN))
    result = propose(cardset, decks, MATCHES, RunSettings(seed=SEED, workers=1, options=options), evaluations=3)
    assert result.base.flagged == 0 and result.base.health is not None
    outside = [f.key for f in result.base.health.figures if f.distance > 0]
    assert outside == (["first_player"] if first_player_outside else [])
    assert result.evaluated == 1 and list(result.front["cards_changed"]) == [0]
    assert not result.offered and not result.refused and result.meta["health"]["levers"] == []
    assert any("no match-up lies wholly outside its band: no change is proposed" in s for s in result.statements)
    first_player_words = [s for s in result.statements if "no card change is searched for it" in s]
    assert bool(first_player_words) == first_player_outside
    if first_player_outside:
        assert "a property of the game's rules" in first_player_words[0]
