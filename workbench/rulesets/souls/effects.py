"""The `effects` column's small vocabulary, shared by validation and the match engine.

One cell holds effects separated by `;` (or `,`). Each effect is one of:

| effect | monster | magic | magic with Equip | trap |
|---|---|---|---|---|
| `apply <fire\\|oil\\|miasma\\|curse>` | its attacks apply the element to the attacked player | applies it to the opponent when played | the equipped monster's attacks apply it | applies it to the attacking player |
| `damage N` | once per turn, on your turn: N damage to a target opposing card | when played: N damage to a target card | when attached: N damage to a target card | when triggered: N damage to the attacking card |
| `draw N` | once per turn, on your turn: draw N | when played: draw N | when attached: draw N | when triggered: draw N |
| `shield +N` / `shield -N` | once per turn, on your turn: restore (or lose) N shield points | when played | when attached | when triggered |
| `atk +N` / `def +N` (signed) | not covered | not covered | the equipped monster's Atk / Def | not covered |
| `direct N` | its direct attacks deal N (not 1) | not covered | the equipped monster's direct attacks deal N | not covered |

`direct N` is the document's "Direct attacks always deal 1 damage (-1 shield point) unless otherwise specified": a
standing property, never activated, so it takes no prefix; on a card with several, the last one counts, and an
Equip card's replaces its host's while attached.

A monster's effect may be preceded by when it is activated (the document: "The
specific circumstances under which an effect can be activated are indicated by a
Trigger condition if applicable, or else the effect can only be activated on
your turn. If the effect uses the card, it will indicate so (e.g. "Use to ..."),
otherwise, the effect can only be activated once per turn."):

| prefix | when |
|---|---|
| (none) | once per turn, on your turn, without using the card (`apply` alone stays on its attacks) |
| `use:` (or `use to`) | on your turn, by using the card: it cannot also attack, Support or move that turn |
| `summon:` (or `when summoned:`) | a Trigger: once, when the card is summoned |

A prefixed `apply` applies the element to the opponent when the effect
resolves. Whatever a card's kind does not cover (a prefix on a magic card or a
trap among them) is reported (an `info` finding) and simulated without it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ELEMENTS: tuple[str, ...] = ("fire", "oil", "miasma", "curse")
"""The four standard elements, in opcode-argument order (fire = 0)."""

OP_APPLY, OP_DAMAGE, OP_DRAW, OP_SHIELD, OP_ATK, OP_DEF, OP_DIRECT = range(7)
"""Effect opcodes the engine interprets; `OP_APPLY`'s argument is an index into ELEMENTS; `OP_DIRECT`'s is what the
card's (or its host's) direct attacks deal instead of 1."""
OPCODE_NAMES: tuple[str, ...] = ("apply", "damage", "draw", "shield", "atk", "def", "direct")

T_PLAIN, T_USE, T_SUMMON, T_FOE_ATTACKS, T_FOE_SUMMONS, T_FOE_ACTIVATES = range(6)
"""When an effect is activated: a monster's once per turn on your turn (no prefix), by using the card (`use:`), on
its own summon (`summon:`); and the Triggers a trap or a monster reacts to on the opponent's actions: an opposing
card attacks (`foe attacks:`, a trap's effect with no prefix), an opposing monster is summoned (`foe summons:`), the
opponent activates an effect (`foe activates:`: a magic card cast, a monster's effect activated). Magic effects are
always T_PLAIN."""
TIMINGS = 6
TIMING_NAMES: tuple[str, ...] = (
    "once per turn",
    "use",
    "when summoned",
    "an opposing card attacks",
    "an opposing monster is summoned",
    "the opponent activates an effect",
)
REACTIONS: tuple[int, ...] = (T_FOE_ATTACKS, T_FOE_SUMMONS, T_FOE_ACTIVATES)
"""The Trigger timings: they fire on the opponent's actions."""
_FOE = r"^(?:when\s+)?(?:foe|opponent|an?\s+opposing\s+(?:card|monster)|the\s+opponent)\s+"
_TIMING_PREFIXES: tuple[tuple[int, re.Pattern[str]], ...] = (
    (T_USE, re.compile(r"^use(?:\s*:|\s+to\b:?)\s*")),
    (T_SUMMON, re.compile(r"^(?:when\s+)?summon(?:ed)?\s*:\s*")),
    (T_SUMMON, re.compile(r"^on\s+summon\s*:\s*")),
    (T_FOE_ATTACKS, re.compile(_FOE + r"attacks\s*:\s*")),
    (T_FOE_SUMMONS, re.compile(_FOE + r"(?:summons|is\s+summoned)\s*:\s*")),
    (T_FOE_ACTIVATES, re.compile(_FOE + r"activates(?:\s+an\s+effect)?\s*:\s*")),
)

_PATTERNS: tuple[tuple[int, re.Pattern[str]], ...] = (
    (OP_APPLY, re.compile(r"^apply\s+(?P<arg>fire|oil|miasma|curse)$")),
    (OP_DAMAGE, re.compile(r"^damage\s+\+?(?P<arg>[0-9]{1,6})$")),
    (OP_DRAW, re.compile(r"^draw\s+\+?(?P<arg>[0-9]{1,6})$")),
    (OP_SHIELD, re.compile(r"^shield\s+(?P<arg>[+-]\s*[0-9]{1,6})$")),
    (OP_ATK, re.compile(r"^atk\s+(?P<arg>[+-]\s*[0-9]{1,6})$")),
    (OP_DEF, re.compile(r"^def\s+(?P<arg>[+-]\s*[0-9]{1,6})$")),
    (OP_DIRECT, re.compile(r"^direct\s+(?P<arg>[0-9]{1,6})$")),
)

MAX_EFFECT_AMOUNT = 99
"""Largest N the vocabulary accepts (keeps every engine sum far inside int64)."""


@dataclass(frozen=True)
class Effect:
    """One parsed effect: an opcode and its whole-number argument."""

    opcode: int
    """One of the OP_* constants."""
    argument: int
    """N for damage/draw/shield/atk/def (signed for shield/atk/def); the element's index for apply."""
    text: str
    """The effect as written in the cell."""
    timing: int = T_PLAIN
    """When a monster activates it: T_PLAIN (once per turn), T_USE (by using the card) or T_SUMMON (when summoned)."""


def parse_effects(cell: str) -> tuple[list[Effect], list[str]]:
    """(effects understood, pieces not in the vocabulary) for one `effects` cell."""
    understood: list[Effect] = []
    unknown: list[str] = []
    for piece in re.split(r"[;,]", cell or ""):
        text = " ".join(piece.split())
        if not text:
            continue
        lowered = text.casefold()
        timing = T_PLAIN
        for prefix_timing, prefix in _TIMING_PREFIXES:
            found = prefix.match(lowered)
            if found is not None:
                timing = prefix_timing
                lowered = lowered[found.end() :]
                break
        for opcode, pattern in _PATTERNS:
            match = pattern.match(lowered)
            if match is None:
                continue
            raw = match.group("arg").replace(" ", "")
            if opcode == OP_APPLY:
                understood.append(Effect(opcode, ELEMENTS.index(raw), text, timing))
            elif abs(int(raw)) <= MAX_EFFECT_AMOUNT:
                understood.append(Effect(opcode, int(raw), text, timing))
            else:
                unknown.append(text)
            break
        else:
            unknown.append(text)
    return understood, unknown


def uncovered_for_kind(effects: list[Effect], kind: str, equips: bool) -> list[Effect]:
    """The understood effects this kind of card cannot use (atk/def belong to Equip cards only; `direct N` to
    monsters and Equip cards, with no prefix; a `use:` or `summon:` prefix to monsters only, a Trigger prefix to
    monsters and traps)."""
    if kind == "trap":
        return [e for e in effects if e.opcode in (OP_ATK, OP_DEF, OP_DIRECT) or e.timing in (T_USE, T_SUMMON)]
    if kind != "monster":
        timed = [effect for effect in effects if effect.timing != T_PLAIN]
        if kind == "magic" and equips:
            return timed
        return [
            effect for effect in effects if effect.opcode in (OP_ATK, OP_DEF, OP_DIRECT) or effect.timing != T_PLAIN
        ]
    return [
        effect
        for effect in effects
        if effect.opcode in (OP_ATK, OP_DEF) or (effect.opcode == OP_DIRECT and effect.timing != T_PLAIN)
    ]


def direct_amount(effects: list[Effect]) -> int:
    """What the card's `direct N` says its (or its host's) direct attacks deal: the last one; -1 when it says
    nothing ("Direct attacks always deal 1 damage ... unless otherwise specified")."""
    amounts = [effect.argument for effect in effects if effect.opcode == OP_DIRECT]
    return amounts[-1] if amounts else -1


def as_played(effect: Effect, kind: str) -> Effect:
    """The effect with the timing the engine plays: a trap's effect with no prefix reacts to an opposing attack."""
    if kind == "trap" and effect.timing == T_PLAIN:
        return Effect(effect.opcode, effect.argument, effect.text, T_FOE_ATTACKS)
    return effect


def applied_elements(effects: list[Effect]) -> list[str]:
    """The elements the effects apply, in order."""
    return [ELEMENTS[effect.argument] for effect in effects if effect.opcode == OP_APPLY]
