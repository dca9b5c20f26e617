"""The `effects` column's vocabulary: what the tournament simulator will read from a card.

An `effects` cell holds clauses separated by `;`, each prefixed by its timing
(the document's effect timings), e.g. `Play: gain 2 RP; Score: gain 1 RP per
fire`. A clash clause keeps its outcomes in the following `;` segments that
start with `win`, `lose` or `tie`: `Action: clash: win gain 4 RP; lose flip
yours lowest`. The grammar is small and regular on purpose; anything outside
it is reported (as an `info` finding) and will be simulated without it.

    clause    := timing ":" action
    timing    := Play | Next | Flip | Ongoing | Top | Score | Action | Reaction "(" trigger ")"
    trigger   := win clash | lose clash | flipped | discarded
    action    := gain N RP [per condition] | lose N RP | flip (yours|opponent) (highest|lowest|choice)
               | star +N | protect (self|adjacent) | clash [all]: outcome (";" outcome)*
               | discard (yours|opponent) [N] | slot +N | attach | copy (left|right)
               | Mimicry | Blast Off | Scurry | Anvil Drop | Thwomp! N
    outcome   := (win|lose|tie) action          (no clash and no copy inside a clash)
    condition := card | card left | face-down | attached | N+ star | N- star | <element or type name>
               | revealed (card | N+ star | N- star | <element or type name>)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

TIMINGS: tuple[str, ...] = ("Play", "Next", "Flip", "Ongoing", "Top", "Score", "Reaction", "Action")
"""The document's effect timings, in its order of listing."""

PRIORITY: tuple[str, ...] = ("Top", "Ongoing", "Play", "Next", "Score")
"""The document's priority order: `Top>Ongoing>Play>Next>Score`."""

REACTION_TRIGGERS: tuple[str, ...] = ("win clash", "lose clash", "flipped", "discarded")
"""What a Reaction waits for: you win a clash, you lose a clash, an opponent's effect flips one of your cards, an
opponent's effect makes you discard a card from your hand."""

KEYWORD_TIMINGS: dict[str, str] = {
    "Mimicry": "Ongoing",
    "Blast Off": "Action",
    "Scurry": "Play",
    "Anvil Drop": "Action",
    "Thwomp!": "Play",
}
"""The set keywords and the timing the document prints them with (Mimicry works while face-up, so Ongoing)."""

ONE_SHOT_TIMINGS = frozenset({"Play", "Next", "Flip", "Action", "Reaction"})
"""Timings that do something once: every action but `protect` may follow them."""
CONTINUOUS_VERBS = frozenset({"star", "protect"})
"""What Ongoing and Top may hold: a star bonus while the card is face-up (or Top), or protection from flips."""
SCORE_VERBS = frozenset({"gain", "copy"})
"""What Score may hold: ranking points (gained or lost) at the end of the tournament, or a copy of the Score
effects of the card next to it."""

Verb = Literal["gain", "flip", "star", "protect", "clash", "discard", "slot", "attach", "copy", "keyword"]
PerKind = Literal["card", "card left", "face-down", "attached", "stars at least", "stars at most", "symbol"]
REVEALABLE: frozenset[str] = frozenset({"card", "stars at least", "stars at most", "symbol"})
"""What `per revealed ...` may count among the singles of your hand (a card in hand is neither left of anything,
face-down nor a host of attachments)."""


@dataclass(frozen=True)
class PerCondition:
    """What `gain N RP per ...` counts, among the face-up cards of your tableau unless said otherwise."""

    kind: PerKind
    """`card` (every card, face-down too), `card left` (cards left of this one), `face-down`, `attached` (singles
    attached to this card, which are not in the tableau), a star bound, a symbol."""
    stars: int | None = None
    """The bound for `N+ star` (at least N) and `N- star` (at most N)."""
    symbol: str | None = None
    """The element or type name for a symbol condition, as written."""
    revealed: bool = False
    """`per revealed ...`: count the singles of your hand that meet the condition, revealed and returned to it
    ("Reveal a Card from your hand"), instead of tableau cards."""


@dataclass(frozen=True)
class EffectAction:
    """One thing an effect does."""

    verb: Verb
    """`gain` (RP, negative for lose), `flip`, `star` (+1 star tokens), `protect`, `clash`, `discard` (singles from
    a hand to the binder), `slot` (extra tableau slots), `attach` (a single from hand under this card), `copy` (the
    adjacent card's effects of the same timing), `keyword`."""
    amount: int = 0
    """RP gained (negative: lost), star tokens added, Thwomp!'s RP, singles discarded or tableau slots gained."""
    per: PerCondition | None = None
    """For `gain N RP per ...`: what is counted."""
    whose: Literal["yours", "opponent"] | None = None
    """For `flip`: a card of your tableau or of an opponent's; for `discard`: from your hand or an opponent's."""
    pick: Literal["highest", "lowest", "choice"] | None = None
    """For `flip`: the highest- or lowest-star face-up card, or one of the chooser's choice."""
    guards: Literal["self", "adjacent"] | None = None
    """For `protect`: this card, or the cards next to it, cannot be flipped by opponents' effects."""
    clash_with: Literal["opponent", "all"] | None = None
    """For `clash`: one opponent with a Top card, or every player with one."""
    outcomes: tuple[tuple[Literal["win", "lose", "tie"], EffectAction], ...] = ()
    """For `clash`: what happens to you on a win, a loss or a tie."""
    keyword: str | None = None
    """For `keyword`: Mimicry, Blast Off, Scurry, Anvil Drop or Thwomp!."""
    direction: Literal["left", "right"] | None = None
    """For `copy`: the card to this card's immediate left or right."""


@dataclass(frozen=True)
class EffectClause:
    """One `Timing: action` clause of a card's `effects` cell."""

    timing: str
    """One of TIMINGS."""
    action: EffectAction
    """What the clause does."""
    text: str
    """The clause as written (with its clash outcomes)."""
    trigger: str | None = None
    """For Reaction: one of REACTION_TRIGGERS."""


@dataclass(frozen=True)
class EffectProblem:
    """A clause the vocabulary does not cover."""

    clause: str
    """The clause as written."""
    message: str
    """Why it is not covered, in one sentence."""


@dataclass(frozen=True)
class ParsedEffects:
    """An `effects` cell, parsed."""

    clauses: tuple[EffectClause, ...] = ()
    """The clauses the vocabulary covers, in cell order."""
    problems: tuple[EffectProblem, ...] = ()
    """The clauses it does not."""
    symbols: tuple[str, ...] = field(default=())
    """Every element or type name a `per` condition names (the caller checks them against the set)."""


_CLAUSE = re.compile(r"^(?P<timing>[A-Za-z]+)\s*(?:\((?P<trigger>[^)]*)\))?\s*:\s*(?P<body>.*)$", re.DOTALL)
_GAIN = re.compile(r"^(?P<verb>gain|lose)\s+(?P<amount>[0-9]{1,6})\s*RP(?:\s+per\s+(?P<per>.+))?$", re.IGNORECASE)
_FLIP = re.compile(r"^flip\s+(?P<whose>yours|opponent)\s+(?P<pick>highest|lowest|choice)$", re.IGNORECASE)
_STAR = re.compile(r"^star\s*\+\s*(?P<amount>[0-9]{1,6})$", re.IGNORECASE)
_PROTECT = re.compile(r"^protect\s+(?P<guards>self|adjacent)$", re.IGNORECASE)
_CLASH = re.compile(r"^clash(?:\s+(?P<with>all))?\s*:\s*(?P<first>.+)$", re.IGNORECASE | re.DOTALL)
_OUTCOME = re.compile(r"^(?P<outcome>win|lose|tie)\s+(?P<action>.+)$", re.IGNORECASE | re.DOTALL)
_OPENS_CLASH = re.compile(r":\s*clash\b", re.IGNORECASE)
_DISCARD = re.compile(r"^discard\s+(?P<whose>yours|opponent)(?:\s+(?P<amount>[0-9]{1,2}))?$", re.IGNORECASE)
_SLOT = re.compile(r"^slots?\s*\+\s*(?P<amount>[0-9]{1,2})$", re.IGNORECASE)
_ATTACH = re.compile(r"^attach$", re.IGNORECASE)
_COPY = re.compile(r"^copy\s+(?P<direction>left|right)$", re.IGNORECASE)
_THWOMP = re.compile(r"^thwomp!\s*(?P<amount>[0-9]{1,6})?$", re.IGNORECASE)
_STAR_BOUND = re.compile(r"^(?P<stars>[0-9]{1,6})\s*(?P<sign>[+-])\s*stars?(?:\s+cards?)?$", re.IGNORECASE)
_REVEALED = re.compile(r"^revealed\s+(?P<rest>.+)$", re.IGNORECASE)
_SYMBOL_NAME = re.compile(r"^[^\d;:,]+$")


def _squash(text: str) -> str:
    return " ".join(text.split())


def split_clauses(text: str) -> list[str]:
    """`;`-separated clauses, with each clash's `win`/`lose`/`tie` segments joined back onto its clause."""
    clauses: list[str] = []
    for segment in (_squash(part) for part in text.split(";")):
        if not segment:
            continue
        # No timing is spelt win, lose or tie, so after a clash such a segment is one of its outcomes.
        if clauses and _OUTCOME.match(segment) and _OPENS_CLASH.search(clauses[-1]):
            clauses[-1] += "; " + segment
            continue
        clauses.append(segment)
    return clauses


def parse_effects(text: str) -> ParsedEffects:
    """Parse an `effects` cell; clauses outside the vocabulary become problems, never exceptions."""
    clauses: list[EffectClause] = []
    problems: list[EffectProblem] = []
    symbols: list[str] = []
    for raw in split_clauses(text or ""):
        result = parse_clause(raw)
        if isinstance(result, EffectProblem):
            problems.append(result)
            continue
        clauses.append(result)
        symbols.extend(_symbols_of(result.action))
    return ParsedEffects(clauses=tuple(clauses), problems=tuple(problems), symbols=tuple(symbols))


def _symbols_of(action: EffectAction) -> list[str]:
    found = [action.per.symbol] if action.per is not None and action.per.symbol is not None else []
    for _, outcome in action.outcomes:
        found.extend(_symbols_of(outcome))
    return found


def parse_clause(raw: str) -> EffectClause | EffectProblem:
    """One clause (`Timing: action`, with its clash outcomes), or the reason it is not covered."""
    match = _CLAUSE.match(raw)
    timing = next((t for t in TIMINGS if match and t.casefold() == match.group("timing").casefold()), None)
    if match is None or timing is None:
        return EffectProblem(raw, f"'{raw}' does not start with a timing ({', '.join(TIMINGS)}) and a colon.")
    trigger_text = match.group("trigger")
    trigger = _squash(trigger_text).casefold() if trigger_text is not None else None
    if timing == "Reaction":
        if trigger not in REACTION_TRIGGERS:
            return EffectProblem(
                raw, f"a Reaction needs its trigger in brackets: Reaction ({' | '.join(REACTION_TRIGGERS)}): ..."
            )
    elif trigger is not None:
        return EffectProblem(raw, f"only Reaction takes a trigger in brackets, not {timing}.")
    action = parse_action(match.group("body"))
    if isinstance(action, str):
        return EffectProblem(raw, action)
    mismatch = timing_problem(timing, action)
    if mismatch:
        return EffectProblem(raw, mismatch)
    return EffectClause(timing=timing, action=action, text=raw, trigger=trigger)


def timing_problem(timing: str, action: EffectAction) -> str | None:
    """Why this action cannot follow this timing, or None."""
    if action.verb == "keyword":
        assert action.keyword is not None
        wanted = KEYWORD_TIMINGS[action.keyword]
        return None if timing == wanted else f"{action.keyword} is written after '{wanted}:', not '{timing}:'."
    if action.verb == "copy" and timing not in COPY_TIMINGS:
        return f"copy performs the adjacent card's effects of its own timing once; it cannot follow '{timing}:'."
    if timing in ("Ongoing", "Top"):
        if action.verb in CONTINUOUS_VERBS:
            return None
        return f"{timing} holds a lasting effect (star +N, protect self|adjacent), not a one-time '{action.verb}'."
    if timing == "Score":
        if action.verb in SCORE_VERBS:
            return None
        return (
            f"Score holds ranking points (gain N RP, lose N RP, gain N RP per ..., copy left|right), not "
            f"'{action.verb}'."
        )
    if action.verb == "protect":
        return "protect is a lasting effect: write it after Ongoing or Top."
    return None


COPY_TIMINGS = frozenset({"Play", "Next", "Flip", "Action", "Reaction", "Score"})
"""Timings a `copy` may follow: it performs the adjacent card's clauses of the same timing, once."""


def parse_action(body: str, inside_clash: bool = False) -> EffectAction | str:
    """One action (with a clash's outcomes), or the reason it is not in the vocabulary."""
    text = _squash(body)
    keyword = next((k for k in KEYWORD_TIMINGS if k != "Thwomp!" and k.casefold() == text.casefold()), None)
    if keyword:
        return EffectAction(verb="keyword", keyword=keyword)
    thwomp = _THWOMP.match(text)
    if thwomp:
        if thwomp.group("amount") is None:
            return "write Thwomp! with the RP it gains, e.g. 'Thwomp! 3' (the document's number is lost)."
        return EffectAction(verb="keyword", keyword="Thwomp!", amount=int(thwomp.group("amount")))
    gain = _GAIN.match(text)
    if gain:
        sign = 1 if gain.group("verb").casefold() == "gain" else -1
        per_text = gain.group("per")
        if per_text is None:
            return EffectAction(verb="gain", amount=sign * int(gain.group("amount")))
        if sign < 0:
            return "'lose N RP per ...' is not in the vocabulary; only 'gain N RP per ...' counts cards."
        per = parse_per(per_text)
        if isinstance(per, str):
            return per
        return EffectAction(verb="gain", amount=int(gain.group("amount")), per=per)
    flip = _FLIP.match(text)
    if flip:
        return EffectAction(
            verb="flip",
            whose=flip.group("whose").casefold(),  # type: ignore[arg-type]
            pick=flip.group("pick").casefold(),  # type: ignore[arg-type]
        )
    discard = _DISCARD.match(text)
    if discard:
        count = int(discard.group("amount") or 1)
        if count < 1:
            return "discard at least 1 card."
        whose = discard.group("whose").casefold()
        return EffectAction(verb="discard", whose=whose, amount=count)  # type: ignore[arg-type]
    slot = _SLOT.match(text)
    if slot:
        if int(slot.group("amount")) < 1:
            return "slot +N gains at least 1 tableau slot."
        return EffectAction(verb="slot", amount=int(slot.group("amount")))
    if _ATTACH.match(text):
        return EffectAction(verb="attach")
    copy = _COPY.match(text)
    if copy:
        if inside_clash:
            return "a clash's outcome cannot copy another card's effects."
        return EffectAction(verb="copy", direction=copy.group("direction").casefold())  # type: ignore[arg-type]
    star = _STAR.match(text)
    if star:
        return EffectAction(verb="star", amount=int(star.group("amount")))
    protect = _PROTECT.match(text)
    if protect:
        return EffectAction(verb="protect", guards=protect.group("guards").casefold())  # type: ignore[arg-type]
    clash = _CLASH.match(text)
    if clash:
        if inside_clash:
            return "a clash's outcome cannot start another clash."
        return _parse_clash(clash.group("with"), clash.group("first"))
    return (
        f"'{text}' is not in the vocabulary (gain N RP [per ...], lose N RP, flip yours|opponent "
        "highest|lowest|choice, star +N, protect self|adjacent, clash, discard yours|opponent [N], slot +N, attach, "
        "copy left|right, or a keyword)."
    )


def _parse_clash(with_all: str | None, outcomes_text: str) -> EffectAction | str:
    outcomes: list[tuple[Literal["win", "lose", "tie"], EffectAction]] = []
    for segment in (_squash(part) for part in outcomes_text.split(";")):
        match = _OUTCOME.match(segment)
        if match is None:
            return f"a clash outcome starts with win, lose or tie, not '{segment}'."
        outcome = match.group("outcome").casefold()
        if any(existing == outcome for existing, _ in outcomes):
            return f"the clash names its '{outcome}' outcome twice."
        action = parse_action(match.group("action"), inside_clash=True)
        if isinstance(action, str):
            return action
        if action.verb in ("protect", "keyword"):
            return f"a clash outcome does something once; '{match.group('action')}' does not."
        outcomes.append((outcome, action))  # type: ignore[arg-type]
    return EffectAction(verb="clash", clash_with="all" if with_all else "opponent", outcomes=tuple(outcomes))


def parse_per(text: str) -> PerCondition | str:
    """What `per` counts: card, card left, face-down, attached, N+ star, N- star, an element or type name, or
    `revealed` and one of card, N+ star, N- star or a name (singles of your hand)."""
    condition = _squash(text)
    revealed = _REVEALED.match(condition)
    if revealed:
        inner = parse_per(revealed.group("rest"))
        if isinstance(inner, str):
            return inner
        if inner.revealed or inner.kind not in REVEALABLE:
            return (
                f"'per revealed {revealed.group('rest')}': a revealed card from your hand is counted by card, N+ star, "
                "N- star or an element or type."
            )
        return PerCondition(kind=inner.kind, stars=inner.stars, symbol=inner.symbol, revealed=True)
    lowered = condition.casefold()
    if lowered in ("card", "cards"):
        return PerCondition(kind="card")
    if lowered in ("card left", "cards left", "card to the left"):
        return PerCondition(kind="card left")
    if lowered in ("face-down", "face-down card", "facedown"):
        return PerCondition(kind="face-down")
    if lowered in ("attached", "attached card", "attached cards"):
        return PerCondition(kind="attached")
    bound = _STAR_BOUND.match(condition)
    if bound:
        kind: PerKind = "stars at least" if bound.group("sign") == "+" else "stars at most"
        return PerCondition(kind=kind, stars=int(bound.group("stars")))
    if _SYMBOL_NAME.match(condition):
        return PerCondition(kind="symbol", symbol=condition)
    return (
        f"'per {condition}' counts nothing the vocabulary knows "
        "(card, card left, face-down, attached, N+ star, N- star, an element or type, or revealed ...)."
    )
