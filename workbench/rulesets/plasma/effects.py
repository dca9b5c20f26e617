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

A creature may also have one **activated ability**: clauses written
`activate N: CLAUSE` (N plasma, 0 to 99; `activate: CLAUSE` costs 0). They do
not happen when the creature is played: together they form the creature's
ability, which its owner may activate in the play phase for N plasma (the
clauses happen in order, as when an event is played; a `power +N` or
`resolve +N` goes to the creature itself, this turn). Every `activate` clause
of a card is part of the same ability, so each must name the same cost. How
often a creature may activate is the `activations_per_turn` reading.

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
    activation: int | None = None
    """None for a clause that happens when the card is played (or equipped, or each turn for a battlefield); the
    plasma cost N of `activate N: ...` for a clause of the creature's activated ability."""


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
        """The covered clauses that happen on play, as (opcode, amount) integer pairs, for the engine."""
        return tuple((int(clause.opcode), clause.amount) for clause in self.clauses if clause.activation is None)

    @property
    def ability_pairs(self) -> tuple[tuple[int, int], ...]:
        """The clauses of the activated ability (`activate N: ...`), as (opcode, amount) pairs, in cell order."""
        return tuple((int(clause.opcode), clause.amount) for clause in self.clauses if clause.activation is not None)

    @property
    def ability_cost(self) -> int | None:
        """The plasma the activated ability costs, or None when the cell has no `activate` clause."""
        return next((clause.activation for clause in self.clauses if clause.activation is not None), None)

    def total(self, opcode: Opcode) -> int:
        """The summed amount of every on-play clause with this opcode (the activated ability's are not counted)."""
        return sum(clause.amount for clause in self.clauses if clause.opcode == opcode and clause.activation is None)


def parse_effects(text: str | None) -> ParsedEffects:
    """Split an `effects` cell at `;` and read each clause; blanks are skipped, nothing is dropped silently."""
    clauses: list[EffectClause] = []
    unknown: list[UnknownClause] = []
    if not text:
        return ParsedEffects((), ())
    parts = [part.strip() for part in re.split(r"[;\n]", str(text))]
    ability_cost: int | None = None
    for position, part in enumerate((p for p in parts if p), start=1):
        result = parse_clause(part)
        if isinstance(result, EffectClause) and result.activation is not None:
            if ability_cost is None:
                ability_cost = result.activation
            elif result.activation != ability_cost:
                # One ability per card: a second cost would be a second ability, which the vocabulary has no way
                # to tell apart from the first.
                result = (
                    f"'{result.text}': a card has one activated ability, and its first 'activate' clause costs "
                    f"{ability_cost}; write every 'activate' clause with the same cost."
                )
        if isinstance(result, EffectClause):
            clauses.append(result)
        else:
            unknown.append(UnknownClause(part, position, result))
    return ParsedEffects(tuple(clauses), tuple(unknown))


ACTIVATE_FORM = "activate N: CLAUSE"
"""How a clause of a creature's activated ability is written (N plasma, 0 to MAX_AMOUNT)."""
_ACTIVATE = re.compile(r"^activate\s*(?P<cost>[^:]*):\s*(?P<clause>.*)$", re.IGNORECASE | re.DOTALL)


def parse_clause(clause: str) -> EffectClause | str:
    """One clause -> an EffectClause, or the reason (a sentence) it is not in the vocabulary.

    `activate N: CLAUSE` is CLAUSE as part of the card's activated ability, costing N plasma.
    """
    written = " ".join(clause.split())
    if not written.casefold().startswith("activate"):
        return _parse_plain_clause(written)
    match = _ACTIVATE.match(written)
    if match is None:
        return f"'{written}': an activated ability is written '{ACTIVATE_FORM}', as in 'activate 1: damage 1'."
    cost_text = match.group("cost").strip()
    if cost_text.startswith("+"):
        cost_text = cost_text[1:].strip()
    if not cost_text:
        cost = 0
    elif not (cost_text.isascii() and cost_text.isdigit() and len(cost_text) <= 6):
        return f"'{written}': the activation cost must be a whole number of plasma, as in 'activate 1: damage 1'."
    else:
        cost = int(cost_text)
    if cost > MAX_AMOUNT:
        return f"'{written}': the activation cost must be from 0 to {MAX_AMOUNT}."
    inner = match.group("clause").strip()
    if not inner:
        return f"'{written}': say what the ability does after the ':', as in 'activate 1: damage 1'."
    if inner.casefold().startswith("activate"):
        return f"'{written}': an ability cannot activate another; write '{ACTIVATE_FORM}' once."
    result = _parse_plain_clause(inner)
    if isinstance(result, str):
        return f"in the activated ability '{written}': {result}"
    return EffectClause(result.opcode, result.amount, written, cost)


def _parse_plain_clause(written: str) -> EffectClause | str:
    """One clause without `activate` (spaces already collapsed) -> an EffectClause, or the reason it is not one."""
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
        forms = ", ".join((*CLAUSE_FORMS.values(), ACTIVATE_FORM))
        return f"'{written}' is not in the effect vocabulary ({forms}).{did_you_mean}"
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
