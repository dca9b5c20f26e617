"""The SOURCE effects vocabulary: what the `effects` column may say, parsed into clauses.

The SOURCE engine (engine/) compiles these clauses to opcodes; nothing here
plays a match. A cell is `;`-separated clauses, each `[foe] verb [arguments]`:

    st +N | st -N                     all four ST of the target change by N
    st alpha|beta|gamma|delta +N|-N   one ST of the target changes by N
    move +N | move -N                 spaces the target moves per move action change by N
    move parallel                     the target may move across parallel spaces (option parallel_move)
    destroy                           the target is destroyed
    push back N                       the target is moved N spaces backwards
    cannot attack                     the target may not attack
    cannot move                       the target may not move, whatever its move changes
    expire N                          the target is destroyed at the end of the N-th turn, counting its own
    summon token <Token Name>         that token comes from your token deck onto a space next to the target
    sourcepoints -N | sourcepoints +N the opponent loses N SourcePoints | you regain N
    draw N                            you draw N cards
    recall N [monster|equipment|trap|channeled] [from opponent]
                                      you take N cards (of that kind) from your (the opponent's) Done Zone
                                      into your hand
    web                               you lay a web tile on a free space next to the target; an opponent's
                                      monster moving onto it is hindered (option web_hinders)
    clear web                         you remove the opponent's web tiles on and next to the target
    summon from hand | summon from deck
                                      you summon one of your monsters from your hand (or deck) onto a space
                                      next to the target (an effect summon)

The target is the card's subject unless the clause starts with `foe`, which
means one enemy monster adjacent to the subject. Any clause may end with
`if TYPE[/TYPE...]` (codes or names of the Type Index: `if FL`, `if Flame/AQ`):
the target must be of one of those types (a `foe` clause picks among adjacent
enemies of them); for `summon from` and `recall` the monster brought must be;
for `summon token`, `sourcepoints` and `draw` the subject must be. The subject is fixed by the
card's kind (`SUBJECT_BY_KIND`). A channeled effect groups its clauses under
the bracket heads of its `brackets` column (`0-49: st -10; 50+: foe destroy`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from workbench.cards import CardEntry, CardSet, Finding, normalize_name
from workbench.rulesets.source.cards import MONSTER_TYPE_NAMES, monster_type_code

Verb = Literal[
    "st",
    "move",
    "destroy",
    "push_back",
    "cannot_attack",
    "cannot_move",
    "expire",
    "summon_token",
    "sourcepoints",
    "draw",
    "summon_from",
    "recall",
    "move_parallel",
    "web",
    "clear_web",
]

SUBJECT_BY_KIND: dict[str, str] = {
    "monster": "the monster itself (one-off clauses happen when it is summoned)",
    "token": "the token itself (one-off clauses happen when it is summoned)",
    "equipment": "the equipped monster (lasting clauses hold while the equipment is active: `turns`, `active`)",
    "trap": "the opponent's monster that sprang the trap",
    "channeled": "the monster channeling it from your Source Flux (ST and move changes last until the turn ends)",
}
"""Whom a clause without `foe` acts on, by card kind."""

ST_SYMBOLS: tuple[str, ...] = ("alpha", "beta", "gamma", "delta")
"""The four ST a `st <symbol> ±N` clause may name."""

_SIGNED = r"(?P<amount>[+-][0-9]{1,6})"
_COUNT = r"(?P<amount>[1-9][0-9]{0,5})"
_CLAUSES: tuple[tuple[Verb, re.Pattern[str]], ...] = (
    ("st", re.compile(rf"^st\s+(?:(?P<symbol>alpha|beta|gamma|delta)\s+)?{_SIGNED}$")),
    ("move", re.compile(rf"^move\s+{_SIGNED}$")),
    ("move_parallel", re.compile(r"^move\s+parallel$")),
    ("web", re.compile(r"^web$")),
    ("clear_web", re.compile(r"^clear\s+webs?$")),
    ("destroy", re.compile(r"^destroy$")),
    ("push_back", re.compile(rf"^push\s+back\s+{_COUNT}$")),
    ("cannot_attack", re.compile(r"^cannot\s+attack$")),
    ("cannot_move", re.compile(r"^cannot\s+move$")),
    ("expire", re.compile(rf"^expire\s+{_COUNT}$")),
    ("summon_token", re.compile(r"^summon\s+token\s+(?P<token>\S.*)$")),
    ("sourcepoints", re.compile(rf"^sourcepoints\s+{_SIGNED}$")),
    ("draw", re.compile(rf"^draw\s+{_COUNT}$")),
    ("summon_from", re.compile(r"^summon\s+from\s+(?P<source>hand|deck)$")),
    (
        "recall",
        re.compile(
            rf"^recall\s+{_COUNT}(?:\s+(?P<card_kind>monster|equipment|trap|channeled)s?)?"
            r"(?:\s+from\s+(?P<source>opponent))?$"
        ),
    ),
)
_TARGETLESS: frozenset[Verb] = frozenset(
    {"summon_token", "sourcepoints", "draw", "summon_from", "recall", "web", "clear_web"}
)
"""Verbs that act on a player or a space, not on a monster, so `foe` means nothing before them."""
_FOE = re.compile(r"^foe\s+(?P<rest>.+)$", re.IGNORECASE)
_IF_TYPE = re.compile(r"^(?P<rest>.+?)\s+if\s+(?P<types>\S.*)$", re.IGNORECASE)
_BRACKET_HEAD = re.compile(r"^(?P<low>[0-9]{1,6})\s*(?:[-–—]\s*(?P<high>[0-9]{1,6})|(?P<open>\+))\s*:\s*(?P<rest>.*)$")

VOCABULARY_HINT = (
    "st ±N; st alpha|beta|gamma|delta ±N; move ±N; move parallel; destroy; push back N; cannot attack; cannot move; "
    "expire N; summon token <Token Name>; sourcepoints ±N; draw N; summon from hand|deck; "
    "recall N [kind] [from opponent]; web; clear web (each may start with `foe` and end with `if TYPE`)"
)
"""The whole vocabulary in one line, for findings' `expected`."""


@dataclass(frozen=True)
class EffectClause:
    """One clause of an `effects` cell, understood."""

    verb: Verb
    """What happens."""
    foe: bool
    """True when the clause acts on an enemy monster adjacent to the subject instead of the subject."""
    amount: int | None
    """N: signed for st, move and sourcepoints; a count for push back, expire and draw; None otherwise."""
    symbol: str | None
    """For `st <symbol> ±N`: which ST (alpha, beta, gamma, delta); None means all four."""
    token: str | None
    """For `summon token <Name>`: the token's name as written."""
    source: str | None
    """Where the card comes from: `hand` or `deck` for `summon from`; `opponent` for `recall ... from opponent`
    (None: your own Done Zone); None otherwise."""
    card_kind: str | None
    """For `recall N <kind>`: the card kind it brings back (monster, equipment, trap, channeled); None: any."""
    bracket: str | None
    """For channeled effects: the bracket label the clause belongs to (`50-99`, `100+`); None otherwise."""
    text: str
    """The clause as written."""
    types: tuple[str, ...] = ()
    """`if TYPE[/TYPE...]`: the monster type codes (Type Index) the clause asks for; empty: any monster."""


@dataclass(frozen=True)
class EffectProblem:
    """A clause the vocabulary does not cover (the simulator will skip it)."""

    text: str
    """The clause as written."""
    reason: str
    """Why it is not understood, in one sentence."""


def parse_clause(text: str, kind: str, bracket: str | None = None) -> EffectClause | EffectProblem:
    """One clause (without its bracket head) -> an `EffectClause`, or the reason it is not in the vocabulary."""
    body = " ".join(text.split())
    foe = False
    foe_match = _FOE.match(body)
    if foe_match:
        foe, body = True, foe_match.group("rest")
    types: tuple[str, ...] = ()
    condition = _IF_TYPE.match(body)
    if condition:
        codes = [monster_type_code(part.strip()) for part in condition.group("types").split("/")]
        unknown = [str(code) for code in codes if code not in MONSTER_TYPE_NAMES]
        if unknown:
            return EffectProblem(
                text, f"`{unknown[0]}` is no monster type of the Type Index ({', '.join(MONSTER_TYPE_NAMES)})."
            )
        types = tuple(dict.fromkeys(codes))
        body = condition.group("rest")
    lowered = body.casefold()
    for verb, pattern in _CLAUSES:
        match = pattern.match(lowered)
        if match is None:
            continue
        if foe and verb in _TARGETLESS:
            return EffectProblem(text, f"`foe` has no meaning before `{body.split()[0]}`, which targets no monster.")
        if foe and kind == "trap":
            return EffectProblem(text, "`foe` has no meaning on a trap: its subject already is the opponent's monster.")
        groups = match.groupdict()
        token = None
        if verb == "summon_token":
            # The token's name keeps the designer's spelling, so the finding can quote it.
            token = re.match(r"^summon\s+token\s+(?P<token>.+)$", body, re.IGNORECASE).group("token").strip()  # type: ignore[union-attr]
        amount = int(groups["amount"]) if groups.get("amount") else None
        return EffectClause(
            verb,
            foe,
            amount,
            groups.get("symbol"),
            token,
            groups.get("source"),
            groups.get("card_kind"),
            bracket,
            text.strip(),
            types,
        )
    return EffectProblem(text, f"`{text.strip()}` is not in the SOURCE effects vocabulary.")


def parse_effects(text: str, kind: str) -> list[EffectClause | EffectProblem]:
    """A whole `effects` cell -> its clauses in order; channeled clauses carry the bracket head they sit under."""
    results: list[EffectClause | EffectProblem] = []
    bracket: str | None = None
    for raw in text.split(";"):
        clause = raw.strip()
        if not clause:
            continue
        head = _BRACKET_HEAD.match(clause)
        if head:
            low = int(head.group("low"))
            bracket = f"{low}+" if head.group("open") else f"{low}-{int(head.group('high'))}"
            clause = head.group("rest").strip()
            if kind != "channeled":
                results.append(EffectProblem(raw.strip(), "only channeled effects have ST brackets."))
                continue
            if not clause:
                continue
        elif kind == "channeled" and bracket is None:
            results.append(
                EffectProblem(clause, "a channeled effect's clauses belong under a bracket head such as `50-99:`.")
            )
            continue
        results.append(parse_clause(clause, kind, bracket))
    return results


def check_effects(
    cardset: CardSet, entry: CardEntry, bracket_labels: list[str] | None, token_names: list[str]
) -> list[Finding]:
    """Info for clauses outside the vocabulary (or under a bracket the card lacks); a warning for unknown tokens.

    `bracket_labels` is the card's parsed `brackets` column (channeled effects), or None when it does not parse;
    `token_names` are the set's token cards (listed once per set, not once per card, so big sets stay fast).
    """
    card = entry.card
    findings: list[Finding] = []
    for item in parse_effects(card.effects, card.kind):  # type: ignore[attr-defined]
        if isinstance(item, EffectProblem):
            findings.append(
                cardset.finding(
                    "info",
                    "source.effects",
                    f"{item.reason} The simulator will skip this clause.",
                    entry,
                    "effects",
                    expected=VOCABULARY_HINT,
                    actual=item.text.strip(),
                )
            )
            continue
        if item.bracket is not None and bracket_labels is not None and item.bracket not in bracket_labels:
            findings.append(
                cardset.finding(
                    "info",
                    "source.effects",
                    f"the clause `{item.text}` sits under bracket {item.bracket}, which the brackets column does not "
                    "have. The simulator will skip this clause.",
                    entry,
                    "effects",
                    expected="one of: " + ", ".join(bracket_labels),
                    actual=item.bracket,
                )
            )
        if item.verb == "summon_token" and item.token is not None:
            findings.extend(_check_token_name(cardset, entry, item.token, token_names))
    return findings


def _check_token_name(cardset: CardSet, entry: CardEntry, token_name: str, tokens: list[str]) -> list[Finding]:
    named = cardset.find(token_name)
    if named is not None and named.card.kind == "token":
        return []
    if named is not None:
        message = f"`summon token {token_name}` names a {named.card.kind} card, not a token."
    else:
        message = f"`summon token {token_name}` names no token in this set."
    return [
        cardset.finding(
            "warning",
            "source.effect_token",
            message,
            entry,
            "effects",
            expected=tokens[:10] or "a token card in the set",
            actual=token_name,
        )
    ]


def summoned_tokens(effects: str, kind: str) -> list[str]:
    """Normalized names of the tokens a card's effects summon (for the token-deck check)."""
    return [
        normalize_name(item.token)
        for item in parse_effects(effects, kind)
        if isinstance(item, EffectClause) and item.verb == "summon_token" and item.token
    ]
