"""The plasma effect vocabulary: every clause form, and every way a clause can fall outside it."""

from __future__ import annotations

import pytest

from workbench.rulesets.plasma.effects import EffectClause, Opcode, parse_clause, parse_effects


@pytest.mark.parametrize(
    ("clause", "opcode", "amount"),
    [
        ("damage 2", Opcode.DAMAGE, 2),
        ("damage player 2", Opcode.DAMAGE_PLAYER, 2),
        ("heal 3", Opcode.HEAL, 3),
        ("draw 1", Opcode.DRAW, 1),
        ("power +2", Opcode.POWER, 2),
        ("resolve +1", Opcode.RESOLVE, 1),
        ("destroy", Opcode.DESTROY, 1),
        ("plasma +1", Opcode.PLASMA, 1),
        # The `+` may be left out, case and spacing do not matter, and a glued number is read apart.
        ("power 2", Opcode.POWER, 2),
        ("Resolve + 4", Opcode.RESOLVE, 4),
        ("  DAMAGE   Player  5 ", Opcode.DAMAGE_PLAYER, 5),
        ("plasma+1", Opcode.PLASMA, 1),
        ("draw2", Opcode.DRAW, 2),
        ("heal 99", Opcode.HEAL, 99),
    ],
)
def test_each_clause_form_becomes_its_opcode_and_amount(clause: str, opcode: Opcode, amount: int) -> None:
    parsed = parse_clause(clause)
    assert isinstance(parsed, EffectClause)
    assert (parsed.opcode, parsed.amount) == (opcode, amount)


@pytest.mark.parametrize(
    ("clause", "reason_contains"),
    [
        ("freeze 2", "not in the effect vocabulary"),
        ("drow 1", "Did you mean 'draw N'?"),
        ("draw", "needs an amount: write 'draw N'"),
        ("damage player", "needs an amount: write 'damage player N'"),
        ("draw one", "must be a whole number"),
        ("power -1", "negative amounts are not in the vocabulary"),
        ("heal +2", "without a '+'"),
        ("destroy 2", "takes no amount"),
        ("damage 0", "from 1 to 99"),
        ("heal 100", "from 1 to 99"),
        ("damage 2, draw 1", "separated by ';'"),
        ("damage 1.5", "must be a whole number"),
    ],
)
def test_a_clause_outside_the_vocabulary_says_why(clause: str, reason_contains: str) -> None:
    parsed = parse_clause(clause)
    assert isinstance(parsed, str)
    assert reason_contains in parsed


def test_a_cell_keeps_clause_order_and_reports_unknown_clauses_with_their_position() -> None:
    parsed = parse_effects("damage 2; freeze 1; draw 1;; power +2; teleport")
    assert parsed.pairs == ((Opcode.DAMAGE, 2), (Opcode.DRAW, 1), (Opcode.POWER, 2))
    assert [(u.text, u.position) for u in parsed.unknown] == [("freeze 1", 2), ("teleport", 5)]
    assert parsed.total(Opcode.DAMAGE) == 2 and parsed.total(Opcode.HEAL) == 0


def test_pairs_are_plain_integers_for_the_engine() -> None:
    pairs = parse_effects("power +2; resolve +2").pairs
    assert pairs == ((5, 2), (6, 2))
    assert all(type(value) is int for pair in pairs for value in pair)


@pytest.mark.parametrize("cell", [None, "", "   ", ";", " ; ; "])
def test_an_empty_cell_has_no_clauses_and_nothing_unknown(cell: str | None) -> None:
    parsed = parse_effects(cell)
    assert parsed.clauses == () and parsed.unknown == ()


def test_same_opcode_twice_adds_up_in_total() -> None:
    parsed = parse_effects("damage 1; damage 2")
    assert parsed.total(Opcode.DAMAGE) == 3
    assert len(parsed.clauses) == 2


# ---- activated abilities: "During the Play Phase you may play cards, activate effects and etc." --------------------


@pytest.mark.parametrize(
    ("clause", "opcode", "amount", "cost"),
    [
        ("activate 1: damage player 1", Opcode.DAMAGE_PLAYER, 1, 1),
        ("activate 2: draw 1", Opcode.DRAW, 1, 2),
        ("Activate 0: power +1", Opcode.POWER, 1, 0),
        ("activate: heal 2", Opcode.HEAL, 2, 0),  # no cost written: it costs nothing
        ("activate3:destroy", Opcode.DESTROY, 1, 3),
        ("activate +2: plasma +3", Opcode.PLASMA, 3, 2),
        ("activate 99: damage 99", Opcode.DAMAGE, 99, 99),
    ],
)
def test_an_activate_clause_is_its_clause_with_a_plasma_cost(
    clause: str, opcode: Opcode, amount: int, cost: int
) -> None:
    parsed = parse_clause(clause)
    assert isinstance(parsed, EffectClause)
    assert (parsed.opcode, parsed.amount, parsed.activation) == (opcode, amount, cost)


@pytest.mark.parametrize(
    ("clause", "reason_contains"),
    [
        ("activate 1 draw 1", "is written 'activate N: CLAUSE'"),
        ("activate one: draw 1", "activation cost must be a whole number"),
        ("activate -1: draw 1", "activation cost must be a whole number"),
        ("activate 100: draw 1", "from 0 to 99"),
        ("activate 1:", "say what the ability does"),
        ("activate 1: freeze 2", "in the activated ability 'activate 1: freeze 2': 'freeze 2' is not in"),
        ("activate 1: activate 1: draw 1", "cannot activate another"),
        ("activate 1: damage 2, draw 1", "separated by ';'"),
    ],
)
def test_an_activate_clause_outside_the_vocabulary_says_why(clause: str, reason_contains: str) -> None:
    parsed = parse_clause(clause)
    assert isinstance(parsed, str)
    assert reason_contains in parsed


def test_on_play_clauses_and_the_ability_are_kept_apart() -> None:
    parsed = parse_effects("draw 1; activate 2: damage 1; power +1; activate 2: heal 1")
    assert parsed.pairs == ((Opcode.DRAW, 1), (Opcode.POWER, 1))
    assert parsed.ability_pairs == ((Opcode.DAMAGE, 1), (Opcode.HEAL, 1))
    assert parsed.ability_cost == 2
    assert parsed.total(Opcode.DAMAGE) == 0  # the ability's damage is not an on-play total
    assert parse_effects("draw 1").ability_cost is None and parse_effects("draw 1").ability_pairs == ()


def test_a_second_activation_cost_is_reported_not_merged() -> None:
    """One ability per card: an `activate` clause naming another cost than the first is left out, with the reason."""
    parsed = parse_effects("activate 1: damage 1; activate 2: draw 1")
    assert parsed.ability_pairs == ((Opcode.DAMAGE, 1),) and parsed.ability_cost == 1
    [unknown] = parsed.unknown
    assert unknown.position == 2 and "its first 'activate' clause costs 1" in unknown.reason
