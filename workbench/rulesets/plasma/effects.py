"""The plasma effect vocabulary: what the simulator understands in a card's `effects` cell.

The cell holds clauses separated by `;`. Each clause becomes one
(opcode, amount) pair; what a clause does depends on the card's kind:

| clause            | event, instant, creature (when played)  | equipment              | battlefield          |
|-------------------|-----------------------------------------|------------------------|----------------------|
| `damage N`        | N damage to a target enemy creature     | once, when equipped    | each turn (option)   |
| `damage player N` | N damage to the opponent's Healthshards | once, when equipped    | each turn (option)   |
| `heal N`          | you gain N Healthshards                 | once, when equipped    | each turn (option)   |
| `draw N`          | you draw N cards                        | once, when equipped    | each turn (option)   |
| `power +N`        | a target creature of yours, this turn   | the equipped creature  | all your creatures   |
| `resolve +N`      | a target creature of yours, this turn   | the equipped creature  | all your creatures   |
| `destroy`         | destroy a target enemy creature         | once, when equipped    | each turn (option)   |
| `plasma +N`       | you gain N plasma this turn             | once, when equipped    | each turn (option)   |

A clause the vocabulary does not cover is reported (with the reason), never
dropped silently: validation gives it an `info` finding, and the engine
simulates the card without it. This module is pure Python, shared by the
cost checks and the engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from workbench.cards import closest_names


class Opcode(IntEnum):
    """Effect opcodes; the integers are what the compiled engine interprets (0 means no clause)."""

    DAMAGE = 1
    """N damage to a target enemy creature."""
    DAMAGE_PLAYER = 2
    """N damage to the opponent's Healthshards."""
    HEAL = 3
    """The card's owner gains N Healthshards."""
    DRAW = 4
    """The card's owner draws N cards."""
    POWER = 5
    """+N power (kind decides on what and for how long)."""
    RESOLVE = 6
    """+N resolve (kind decides on what and for how long)."""
    DESTROY = 7
    """Destroy a target enemy creature (amount is always 1)."""
    PLASMA = 8
    """The card's owner gains N plasma this turn."""


CLAUSE_FORMS: dict[Opcode, str] = {
    Opcode.DAMAGE: "damage N",
    Opcode.DAMAGE_PLAYER: "damage player N",
    Opcode.HEAL: "heal N",
    Opcode.DRAW: "draw N",
    Opcode.POWER: "power +N",
    Opcode.RESOLVE: "resolve +N",
    Opcode.DESTROY: "destroy",
    Opcode.PLASMA: "plasma +N",
}
"""How each clause is written, for messages and documentation."""

MAX_AMOUNT = 99
"""Larger amounts are typos, and keep the engine's arithmetic far from any overflow."""
CLAUSE_SEPARATOR = ";"

_AMOUNT = re.compile(r"^(?P<sign>[+-])?\s*(?P<amount>\S+)$")
_VERB_OPCODE: dict[str, Opcode] = {
    "damage": Opcode.DAMAGE,
    "damage player": Opcode.DAMAGE_PLAYER,
    "heal": Opcode.HEAL,
    "draw": Opcode.DRAW,
    "power": Opcode.POWER,
    "resolve": Opcode.RESOLVE,
    "destroy": Opcode.DESTROY,
    "plasma": Opcode.PLASMA,
}
_SIGNED = {Opcode.POWER, Opcode.RESOLVE, Opcode.PLASMA}
"""Opcodes written with a `+` (which may be left out); a `-` is not in the vocabulary."""


@dataclass(frozen=True)
class EffectClause:
    """One clause the vocabulary covers."""

    opcode: Opcode
    """What the clause does."""
    amount: int
    """How much (1 for `destroy`)."""
    text: str
    """The clause as written in the cell."""


@dataclass(frozen=True)
class UnknownClause:
    """One clause the vocabulary does not cover, and why."""

    text: str
    """The clause as written in the cell."""
    position: int
    """1 for the first clause of the cell, 2 for the second, ..."""
    reason: str
    """Why it was not understood, with the nearest form when there is one."""


@dataclass(frozen=True)
class ParsedEffects:
    """A whole `effects` cell: the clauses understood, in order, and the ones not understood."""

    clauses: tuple[EffectClause, ...]
    """Clauses the vocabulary covers, in cell order."""
    unknown: tuple[UnknownClause, ...]
    """Clauses it does not cover, in cell order."""

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """The covered clauses as (opcode, amount) integer pairs, for the engine."""
        return tuple((int(clause.opcode), clause.amount) for clause in self.clauses)

    def total(self, opcode: Opcode) -> int:
        """The summed amount of every clause with this opcode."""
        return sum(clause.amount for clause in self.clauses if clause.opcode == opcode)


def parse_effects(text: str | None) -> ParsedEffects:
    """Split an `effects` cell at `;` and read each clause; blanks are skipped, nothing is dropped silently."""
    clauses: list[EffectClause] = []
    unknown: list[UnknownClause] = []
    if not text:
        return ParsedEffects((), ())
    parts = [part.strip() for part in re.split(r"[;\n]", str(text))]
    for position, part in enumerate((p for p in parts if p), start=1):
        result = parse_clause(part)
        if isinstance(result, EffectClause):
            clauses.append(result)
        else:
            unknown.append(UnknownClause(part, position, result))
    return ParsedEffects(tuple(clauses), tuple(unknown))


def parse_clause(clause: str) -> EffectClause | str:
    """One clause -> an EffectClause, or the reason (a sentence) it is not in the vocabulary."""
    written = " ".join(clause.split())
    if "," in written:
        return f"'{written}': clauses are separated by ';', not ','."
    # `plasma+1` and `draw1` are read as `plasma +1` and `draw 1`.
    lowered = re.sub(r"([a-z])([+-]?\d)", r"\1 \2", written.casefold())
    words = lowered.split(" ")
    if " ".join(words[:2]) in _VERB_OPCODE and len(words) >= 2:
        verb, rest = " ".join(words[:2]), " ".join(words[2:])
    else:
        verb, rest = words[0], " ".join(words[1:])
    opcode = _VERB_OPCODE.get(verb)
    if opcode is None:
        hint = closest_names(verb, list(_VERB_OPCODE))
        did_you_mean = f" Did you mean '{CLAUSE_FORMS[_VERB_OPCODE[hint[0]]]}'?" if hint else ""
        return f"'{written}' is not in the effect vocabulary ({', '.join(CLAUSE_FORMS.values())}).{did_you_mean}"
    form = CLAUSE_FORMS[opcode]
    if opcode is Opcode.DESTROY:
        if rest:
            return f"'{written}' takes no amount: write 'destroy' (it destroys one target creature)."
        return EffectClause(opcode, 1, written)
    if opcode is Opcode.DAMAGE and rest == "player":
        return f"'{written}' needs an amount: write '{CLAUSE_FORMS[Opcode.DAMAGE_PLAYER]}'."
    if not rest:
        return f"'{written}' needs an amount: write '{form}'."
    amount_match = _AMOUNT.match(rest)
    # ASCII digits only, and few of them: isdigit() takes '²', and int() refuses numbers of thousands of digits.
    digits = amount_match.group("amount") if amount_match is not None else ""
    if amount_match is None or not (digits.isascii() and digits.isdigit() and len(digits) <= 6):
        return f"'{written}': the amount must be a whole number, as in '{form}'."
    sign = amount_match.group("sign")
    if sign == "-":
        return f"'{written}': negative amounts are not in the vocabulary; write '{form}'."
    if sign == "+" and opcode not in _SIGNED:
        return f"'{written}': write '{form}' without a '+'."
    amount = int(amount_match.group("amount"))
    if not 1 <= amount <= MAX_AMOUNT:
        return f"'{written}': the amount must be from 1 to {MAX_AMOUNT}."
    return EffectClause(opcode, amount, written)
