"""The effects vocabulary: what parses, into what, and what is reported as outside it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from workbench.cards import CardSet
from workbench.rulesets.blades import RULESET as BLADES
from workbench.rulesets.blades.effects import (
    KEYWORD_TIMINGS,
    PRIORITY,
    TIMINGS,
    EffectAction,
    PerCondition,
    parse_effects,
    split_clauses,
)
from workbench.validate import validate

MakeCardSet = Callable[..., CardSet]


def test_timings_and_priority_are_the_documents() -> None:
    assert TIMINGS == ("Play", "Next", "Flip", "Ongoing", "Top", "Score", "Reaction", "Action")
    assert PRIORITY == ("Top", "Ongoing", "Play", "Next", "Score")  # "Top>Ongoing>Play>Next>Score"
    assert KEYWORD_TIMINGS == {
        "Mimicry": "Ongoing",
        "Blast Off": "Action",
        "Scurry": "Play",
        "Anvil Drop": "Action",
        "Thwomp!": "Play",
    }


@pytest.mark.parametrize(
    ("text", "timing", "action"),
    [
        ("Play: gain 2 RP", "Play", EffectAction(verb="gain", amount=2)),
        ("Flip: lose 3 RP", "Flip", EffectAction(verb="gain", amount=-3)),
        ("Score: gain 1 RP per fire", "Score", EffectAction("gain", 1, per=PerCondition("symbol", symbol="fire"))),
        ("Score: gain 2 RP per 4+ star", "Score", EffectAction("gain", 2, per=PerCondition("stars at least", 4))),
        ("Score: gain 2 RP per 3- star", "Score", EffectAction("gain", 2, per=PerCondition("stars at most", 3))),
        ("Score: gain 2 RP per face-down", "Score", EffectAction(verb="gain", amount=2, per=PerCondition("face-down"))),
        # The document's own example: "gain 5 RP for each card to the left of this one".
        ("Play: gain 5 RP per card left", "Play", EffectAction(verb="gain", amount=5, per=PerCondition("card left"))),
        ("Play: gain 1 RP per card", "Play", EffectAction(verb="gain", amount=1, per=PerCondition("card"))),
        ("Play: flip opponent highest", "Play", EffectAction(verb="flip", whose="opponent", pick="highest")),
        ("Action: flip yours choice", "Action", EffectAction(verb="flip", whose="yours", pick="choice")),
        ("Next: star +1", "Next", EffectAction(verb="star", amount=1)),
        ("Top: star +2", "Top", EffectAction(verb="star", amount=2)),
        ("Ongoing: protect adjacent", "Ongoing", EffectAction(verb="protect", guards="adjacent")),
        ("Ongoing: Mimicry", "Ongoing", EffectAction(verb="keyword", keyword="Mimicry")),
        ("Action: blast off", "Action", EffectAction(verb="keyword", keyword="Blast Off")),
        ("Play: Scurry", "Play", EffectAction(verb="keyword", keyword="Scurry")),
        ("Action: Anvil Drop", "Action", EffectAction(verb="keyword", keyword="Anvil Drop")),
        ("Play: Thwomp! 3", "Play", EffectAction(verb="keyword", keyword="Thwomp!", amount=3)),
        ("Reaction (lose clash): gain 3 RP", "Reaction", EffectAction(verb="gain", amount=3)),
        (
            "Action: clash: win gain 5 RP; lose flip yours lowest",
            "Action",
            EffectAction(
                verb="clash",
                clash_with="opponent",
                outcomes=(
                    ("win", EffectAction(verb="gain", amount=5)),
                    ("lose", EffectAction(verb="flip", whose="yours", pick="lowest")),
                ),
            ),
        ),
        (
            "Play: clash all: tie gain 1 RP",
            "Play",
            EffectAction(verb="clash", clash_with="all", outcomes=(("tie", EffectAction(verb="gain", amount=1)),)),
        ),
        # "Discard a Card", "Reveal a Card from your hand", extra tableau slots, attached cards, copy effects.
        ("Play: discard opponent", "Play", EffectAction(verb="discard", whose="opponent", amount=1)),
        ("Action: discard yours 2", "Action", EffectAction(verb="discard", whose="yours", amount=2)),
        ("Reaction (discarded): gain 4 RP", "Reaction", EffectAction(verb="gain", amount=4)),
        (
            "Play: gain 2 RP per revealed machine",
            "Play",
            EffectAction("gain", 2, per=PerCondition("symbol", symbol="machine", revealed=True)),
        ),
        (
            "Score: gain 1 RP per revealed 5+ star",
            "Score",
            EffectAction("gain", 1, per=PerCondition("stars at least", 5, revealed=True)),
        ),
        ("Play: slot +1", "Play", EffectAction(verb="slot", amount=1)),
        ("Play: attach", "Play", EffectAction(verb="attach")),
        ("Score: gain 5 RP per attached", "Score", EffectAction("gain", 5, per=PerCondition("attached"))),
        ("Play: copy left", "Play", EffectAction(verb="copy", direction="left")),
        ("Score: copy right", "Score", EffectAction(verb="copy", direction="right")),
        (
            "Play: clash: lose discard opponent",
            "Play",
            EffectAction(
                verb="clash",
                clash_with="opponent",
                outcomes=(("lose", EffectAction(verb="discard", whose="opponent", amount=1)),),
            ),
        ),
    ],
)
def test_vocabulary_parses(text: str, timing: str, action: EffectAction) -> None:
    parsed = parse_effects(text)
    assert parsed.problems == ()
    (clause,) = parsed.clauses
    assert (clause.timing, clause.action) == (timing, action)


def test_clauses_split_on_semicolons_and_keep_clash_outcomes() -> None:
    text = "Play: star +3; Action: clash: win gain 4 RP; lose lose 1 RP; tie gain 1 RP; Score: gain 2 RP per machine"
    assert split_clauses(text) == [
        "Play: star +3",
        "Action: clash: win gain 4 RP; lose lose 1 RP; tie gain 1 RP",
        "Score: gain 2 RP per machine",
    ]
    parsed = parse_effects(text)
    assert [c.timing for c in parsed.clauses] == ["Play", "Action", "Score"]
    assert parsed.clauses[1].action.outcomes[1] == ("lose", EffectAction(verb="gain", amount=-1))
    assert parsed.symbols == ("machine",)


def test_reaction_trigger() -> None:
    (clause,) = parse_effects("Reaction (flipped): gain 2 RP").clauses
    assert clause.trigger == "flipped"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("gain 2 RP", "does not start with a timing"),
        ("Whenever: gain 2 RP", "does not start with a timing"),
        ("Play: draw 2 cards", "not in the vocabulary"),
        ("Reaction: gain 2 RP", "needs its trigger"),
        ("Reaction (sneeze): gain 2 RP", "needs its trigger"),
        ("Play (lose clash): gain 2 RP", "only Reaction takes a trigger"),
        ("Score: flip opponent highest", "Score holds ranking points"),
        ("Ongoing: gain 2 RP", "lasting effect"),
        ("Play: protect self", "protect is a lasting effect"),
        ("Play: Blast Off", "Blast Off is written after 'Action:'"),
        ("Play: Thwomp!", "write Thwomp! with the RP"),
        ("Score: lose 1 RP per card", "'lose N RP per ...' is not in the vocabulary"),
        ("Play: gain 1 RP per 4 stars", "counts nothing the vocabulary knows"),
        ("Play: clash: win clash: win gain 1 RP", "cannot start another clash"),
        ("Play: clash: win gain 1 RP; win gain 2 RP", "names its 'win' outcome twice"),
        ("Play: clash: draw 2", "starts with win, lose or tie"),
        ("Play: clash: win protect self", "does something once"),
        ("Play: gain 2 RP; lose 1 RP", "does not start with a timing"),
        ("Ongoing: copy left", "copy performs the adjacent card's effects of its own timing once"),
        ("Play: clash: win copy left", "cannot copy another card's effects"),
        ("Play: gain 1 RP per revealed card left", "a revealed card from your hand is counted by"),
        ("Play: discard yours 0", "discard at least 1 card"),
        ("Score: slot +1", "Score holds ranking points"),
        ("Play: slot +0", "slot +N gains at least 1 tableau slot"),
    ],
)
def test_outside_the_vocabulary(text: str, words: str) -> None:
    parsed = parse_effects(text)
    assert parsed.problems, text
    assert words in parsed.problems[-1].message


def _row(name: str, effects: str, **extra: object) -> dict[str, object]:
    row: dict[str, object] = {
        "name": name,
        "kind": "single",
        "set": "Core",
        "set_kind": "core",
        "stars": 3,
        "elements": "Fire",
        "types": "Soldier",
        "copies": 2,
        "effects": effects,
    }
    row.update(extra)
    return row


def test_effects_findings_point_at_the_effects_cell(make_cardset: MakeCardSet) -> None:
    cardset = make_cardset(
        BLADES,
        [
            _row("Fine", "Play: gain 2 RP; Score: gain 1 RP per SOLDIER"),
            _row("Chatty", "Play: draw 2 cards; Score: gain 1 RP per fire"),
            _row("Typo", "Score: gain 1 RP per solider"),
        ],
    )
    found = [f for f in validate(cardset).findings if f.rule == "blades.effects"]
    assert [(f.severity, f.row, f.column, f.actual) for f in found] == [
        ("info", 3, "effects", "Play: draw 2 cards"),
        ("info", 4, "effects", "solider"),
    ]
    assert "Did you mean 'Soldier'?" in found[1].message


def test_per_symbol_may_name_an_element_or_a_type(make_cardset: MakeCardSet) -> None:
    cardset = make_cardset(BLADES, [_row("A", "Score: gain 1 RP per fire; Score: gain 1 RP per soldier")])
    assert validate(cardset).findings == []


def test_a_metagame_card_only_scores(make_cardset: MakeCardSet) -> None:
    # "Every Player activates the Metagame Score effects for themselves": a metagame card is in no tableau, so a
    # clause of another timing is reported and left out.
    cardset = make_cardset(
        BLADES,
        [
            _row(
                "Fire Ascendant",
                "Score: gain 3 RP per fire; Play: gain 2 RP",
                kind="metagame",
                set="Meta",
                set_kind="meta",
                copies=1,
                stars="",
            ),
        ],
    )
    found = [(f.rule, f.actual) for f in validate(cardset).findings if f.rule == "blades.effects"]
    assert found == [("blades.effects", "Play: gain 2 RP")]
