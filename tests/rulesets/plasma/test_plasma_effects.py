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
