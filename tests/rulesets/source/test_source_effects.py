"""The SOURCE effects vocabulary: every clause form, what is not in it, and the findings about it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from workbench.cards import CardSet
from workbench.rulesets import RULESETS
from workbench.rulesets.source.effects import EffectClause, EffectProblem, parse_clause, parse_effects, summoned_tokens
from workbench.validate import validate

SOURCE = RULESETS["source"]
MakeCardSet = Callable[..., CardSet]


@pytest.mark.parametrize(
    ("text", "kind", "verb", "foe", "amount", "symbol", "token"),
    [
        ("st +10", "equipment", "st", False, 10, None, None),
        ("st -5", "trap", "st", False, -5, None, None),
        ("st gamma +15", "equipment", "st", False, 15, "gamma", None),
        ("ST Delta -10", "monster", "st", False, -10, "delta", None),
        ("foe st alpha -15", "monster", "st", True, -15, "alpha", None),
        ("move +1", "monster", "move", False, 1, None, None),
        ("move parallel", "equipment", "move_parallel", False, None, None, None),
        ("web", "monster", "web", False, None, None, None),
        ("Clear Webs", "trap", "clear_web", False, None, None, None),
        ("foe Move  Parallel", "monster", "move_parallel", True, None, None, None),
        ("foe move -1", "monster", "move", True, -1, None, None),
        ("destroy", "trap", "destroy", False, None, None, None),
        ("foe destroy", "monster", "destroy", True, None, None, None),
        ("push back 2", "trap", "push_back", False, 2, None, None),
        ("Foe  Push  Back 1", "monster", "push_back", True, 1, None, None),
        ("cannot attack", "token", "cannot_attack", False, None, None, None),
        # Goop: "The monster that springs it may not attack and cannot move."
        ("cannot move", "trap", "cannot_move", False, None, None, None),
        ("foe Cannot  Move", "channeled", "cannot_move", True, None, None, None),
        ("expire 2", "token", "expire", False, 2, None, None),
        ("summon token Vapor Mote", "monster", "summon_token", False, None, None, "Vapor Mote"),
        ("sourcepoints -10", "monster", "sourcepoints", False, -10, None, None),
        ("sourcepoints +5", "equipment", "sourcepoints", False, 5, None, None),
        ("draw 1", "channeled", "draw", False, 1, None, None),
    ],
)
def test_every_clause_form(
    text: str, kind: str, verb: str, foe: bool, amount: int | None, symbol: str | None, token: str | None
) -> None:
    clause = parse_clause(text, kind)
    assert isinstance(clause, EffectClause)
    assert (clause.verb, clause.foe, clause.amount, clause.symbol, clause.token) == (verb, foe, amount, symbol, token)


@pytest.mark.parametrize(
    ("text", "kind", "source"),
    [
        ("summon from hand", "monster", "hand"),
        ("Summon  From Deck", "channeled", "deck"),
        ("summon from deck", "trap", "deck"),
    ],
)
def test_effect_summon_clauses(text: str, kind: str, source: str) -> None:
    # "The player may summon a monster from the player's hand or deck based on the effect of another card"
    clause = parse_clause(text, kind)
    assert isinstance(clause, EffectClause)
    assert (clause.verb, clause.foe, clause.source) == ("summon_from", False, source)


@pytest.mark.parametrize(
    ("text", "amount", "card_kind", "source"),
    [
        ("recall 1", 1, None, None),
        ("recall 2 monsters", 2, "monster", None),
        ("Recall 1 trap from opponent", 1, "trap", "opponent"),
        ("recall 3 from opponent", 3, None, "opponent"),
    ],
)
def test_done_zone_clauses(text: str, amount: int, card_kind: str | None, source: str | None) -> None:
    # "Some effects will allow the player to bring cards back from their Done Zone and even their opponent's"
    clause = parse_clause(text, "monster")
    assert isinstance(clause, EffectClause)
    assert (clause.verb, clause.amount, clause.card_kind, clause.source) == ("recall", amount, card_kind, source)


@pytest.mark.parametrize(
    ("text", "verb", "foe", "types"),
    [
        ("foe destroy if FL", "destroy", True, ("FL",)),
        ("st +10 if Flame/aq", "st", False, ("FL", "AQ")),
        ("summon from deck if Insect", "summon_from", False, ("IN",)),
        ("recall 1 monster if gas", "recall", False, ("GA",)),
        ("draw 1", "draw", False, ()),
    ],
)
def test_a_clause_may_read_a_monsters_type(text: str, verb: str, foe: bool, types: tuple[str, ...]) -> None:
    # "The Type of monster. This may be referenced in some effects."
    clause = parse_clause(text, "monster")
    assert isinstance(clause, EffectClause)
    assert (clause.verb, clause.foe, clause.types) == (verb, foe, types)


@pytest.mark.parametrize(
    ("text", "kind", "reason"),
    [
        ("sparkle wildly", "monster", "not in the SOURCE effects vocabulary"),
        ("st 10", "equipment", "not in the SOURCE effects vocabulary"),
        ("st omega +5", "equipment", "not in the SOURCE effects vocabulary"),
        ("push back 0", "trap", "not in the SOURCE effects vocabulary"),
        ("push back -1", "trap", "not in the SOURCE effects vocabulary"),
        ("draw", "monster", "not in the SOURCE effects vocabulary"),
        ("summon token", "monster", "not in the SOURCE effects vocabulary"),
        ("foe draw 1", "monster", "`foe` has no meaning before `draw`"),
        ("foe summon from hand", "monster", "`foe` has no meaning before `summon`"),
        ("summon from graveyard", "monster", "not in the SOURCE effects vocabulary"),
        ("recall 0", "monster", "not in the SOURCE effects vocabulary"),
        ("recall 1 token", "monster", "not in the SOURCE effects vocabulary"),
        ("foe recall 1", "monster", "`foe` has no meaning before `recall`"),
        ("foe web", "monster", "`foe` has no meaning before `web`"),
        ("foe destroy if Dragon", "monster", "`Dragon` is no monster type of the Type Index"),
        ("foe sourcepoints -5", "monster", "`foe` has no meaning before `sourcepoints`"),
        ("foe summon token Sprout", "monster", "`foe` has no meaning before `summon`"),
        ("foe push back 1", "trap", "`foe` has no meaning on a trap"),
    ],
)
def test_what_the_vocabulary_does_not_cover(text: str, kind: str, reason: str) -> None:
    problem = parse_clause(text, kind)
    assert isinstance(problem, EffectProblem) and reason in problem.reason


def test_a_cell_is_clauses_separated_by_semicolons() -> None:
    items = parse_effects(" st alpha +20 ;; st beta +10; ", "equipment")
    assert [(c.verb, c.symbol, c.amount) for c in items if isinstance(c, EffectClause)] == [
        ("st", "alpha", 20),
        ("st", "beta", 10),
    ]
    assert parse_effects("", "monster") == []


def test_channeled_clauses_sit_under_bracket_heads() -> None:
    items = parse_effects("0-29: st -15; 30-39: foe destroy; 40+: foe destroy; sourcepoints -10", "channeled")
    clauses = [item for item in items if isinstance(item, EffectClause)]
    assert clauses == items
    assert [(c.bracket, c.verb) for c in clauses] == [
        ("0-29", "st"),
        ("30-39", "destroy"),
        ("40+", "destroy"),
        ("40+", "sourcepoints"),
    ]


def test_a_channeled_clause_before_any_head_is_not_understood() -> None:
    (first, second) = parse_effects("draw 1; 0-49: st -5", "channeled")
    assert isinstance(first, EffectProblem) and "bracket head" in first.reason
    assert isinstance(second, EffectClause) and second.bracket == "0-49"


def test_bracket_heads_belong_to_channeled_effects_only() -> None:
    (item,) = parse_effects("0-49: st +5", "equipment")
    assert isinstance(item, EffectProblem) and "only channeled effects" in item.reason


def test_summoned_tokens() -> None:
    assert summoned_tokens("summon token Vapor Mote; draw 1; summon token  SPORELING", "monster") == [
        "vapor mote",
        "sporeling",
    ]
    assert summoned_tokens("0-19: summon token Vapor Mote; 20+: draw 1", "channeled") == ["vapor mote"]


def _token(name: str) -> dict[str, Any]:
    return {"name": name, "kind": "token", "type": "TO", "alpha": 5, "beta": 5, "gamma": 5, "delta": 5}


def _monster(name: str, effects: str) -> dict[str, Any]:
    return {"name": name, "kind": "monster", "type": "SP", "alpha": 20, "beta": 10, "gamma": 10, "delta": 10,
            "effects": effects}  # fmt: skip


@pytest.mark.parametrize(
    ("effects", "actual"),
    [("sparkle wildly", "sparkle wildly"), ("move +1; glow", "glow"), ("foe draw 1", "foe draw 1")],
)
def test_a_clause_outside_the_vocabulary_is_an_info_at_the_effects_cell(
    make_cardset: MakeCardSet, effects: str, actual: str
) -> None:
    cardset = make_cardset(SOURCE, [_monster("Plain", "move +1"), _monster("Moth", effects)])
    (finding,) = validate(cardset).findings
    assert (finding.rule, finding.severity, finding.card, finding.row, finding.column) == (
        "source.effects", "info", "Moth", 3, "effects"
    )  # fmt: skip
    assert finding.actual == actual


def test_a_clause_under_a_bracket_the_card_lacks_is_an_info(make_cardset: MakeCardSet) -> None:
    row = {"name": "Chant", "kind": "channeled", "uses": 1, "symbols": "Beta", "brackets": "0-29: weak; 30+: strong",
           "effects": "0-29: st -5; 30+: foe push back 1; 60+: foe destroy"}  # fmt: skip
    cardset = make_cardset(SOURCE, [row])
    (finding,) = validate(cardset).findings
    assert (finding.rule, finding.row, finding.column, finding.actual) == ("source.effects", 2, "effects", "60+")
    assert finding.expected == "one of: 0-29, 30+"


@pytest.mark.parametrize(
    ("effects", "message"),
    [
        ("summon token Phantom", "names no token in this set"),
        ("summon token Other", "names a monster card, not a token"),
    ],
)
def test_summoning_a_token_the_set_lacks_is_a_warning(make_cardset: MakeCardSet, effects: str, message: str) -> None:
    cardset = make_cardset(SOURCE, [_token("Sprout"), _monster("Other", ""), _monster("Caller", effects)])
    (finding,) = validate(cardset).findings
    assert (finding.rule, finding.severity, finding.row, finding.column) == (
        "source.effect_token",
        "warning",
        4,
        "effects",
    )
    assert message in finding.message and finding.expected == ["Sprout"]


def test_token_names_match_ignoring_case(make_cardset: MakeCardSet) -> None:
    cardset = make_cardset(SOURCE, [_token("Vapor Mote"), _monster("Caller", "summon token vapor  mote")])
    assert validate(cardset).findings == []
