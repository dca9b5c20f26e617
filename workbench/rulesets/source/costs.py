"""SOURCE's cost formula (ST total by occupied spaces required) and the per-card checks built on it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from workbench.cards import CardEntry, CardSet, Finding, Options, closest_names
from workbench.rulesets.base import BudgetPoint, StatBudget
from workbench.rulesets.source.effects import check_effects

ST_TOTAL_BY_REQUIREMENT: dict[int, int] = {0: 50, 1: 75, 2: 100, 3: 125, 4: 150}
"""The document's table: monsters requiring 0-4 occupied spaces have a 50/75/100/125/150 ST total."""
HIGHEST_REQUIREMENT = max(ST_TOTAL_BY_REQUIREMENT)
"""The table stops at 4 occupied spaces."""
TOKEN_ST_CEILING = ST_TOTAL_BY_REQUIREMENT[0]
"""A token's ST total is "less than that of a normal monster with no summoning requirements"."""

SYMBOLS: tuple[str, ...] = ("Alpha", "Beta", "Gamma", "Delta")
"""The four symbol cards of the symbol deck."""
_SYMBOL_SPELLINGS: dict[str, str] = {
    **{name.casefold(): name for name in SYMBOLS},
    "α": "Alpha",
    "β": "Beta",
    "γ": "Gamma",
    "δ": "Delta",
    "Δ": "Delta",
}

_BRACKET_HEAD = re.compile(r"(?:^|;)\s*(?P<low>[0-9]{1,6})\s*(?:[-–—]\s*(?P<high>[0-9]{1,6})|(?P<open>\+))\s*:")


def st_total_for(requirement: int) -> int | None:
    """The ST total a monster requiring `requirement` occupied spaces must have; None off the table (above 4)."""
    return ST_TOTAL_BY_REQUIREMENT.get(requirement)


def canonical_symbol(text: str) -> str | None:
    """`alpha`, `Alpha` and `α` all mean `Alpha`; None for anything else."""
    stripped = text.strip()
    return _SYMBOL_SPELLINGS.get(stripped) or _SYMBOL_SPELLINGS.get(stripped.casefold())


@dataclass(frozen=True)
class Bracket:
    """One ST bracket of a channeled effect: the ST range it covers and its effect text."""

    low: int
    """Lowest ST in the bracket."""
    high: int | None
    """Highest ST in the bracket; None for an open bracket such as `100+`."""
    effect: str
    """The effect text after the colon."""

    def label(self) -> str:
        """The bracket as written: `50-99` or `100+`."""
        return f"{self.low}+" if self.high is None else f"{self.low}-{self.high}"


def parse_brackets(text: str) -> list[Bracket] | None:
    """`0-49: weak; 50-99: good; 100+: best` -> three brackets; None when the text has no `N-M:` / `N+:` heads.

    Effect text may itself hold `;` or `,`, so brackets are split at their heads, not at every separator.
    """
    heads = list(_BRACKET_HEAD.finditer(text))
    if not heads or text[: heads[0].start()].strip(" ;"):
        return None
    brackets = []
    for index, head in enumerate(heads):
        end = heads[index + 1].start() if index + 1 < len(heads) else len(text)
        high = None if head.group("open") else int(head.group("high"))
        brackets.append(Bracket(int(head.group("low")), high, text[head.end() : end].strip(" ;")))
    return brackets


def bracket_problems(brackets: list[Bracket]) -> list[str]:
    """What breaks "ordered and not overlapping": reversed ranges, overlaps, out-of-order or non-final open brackets."""
    problems: list[str] = []
    for bracket in brackets:
        if bracket.high is not None and bracket.high < bracket.low:
            problems.append(f"bracket {bracket.label()} ends below where it starts")
        if not bracket.effect:
            problems.append(f"bracket {bracket.label()} has no effect text")
    for before, after in zip(brackets, brackets[1:], strict=False):
        if before.high is None:
            problems.append(
                f"open bracket {before.label()} is followed by {after.label()}; an open bracket must be last"
            )
        elif after.low < before.low:
            problems.append(f"bracket {after.label()} comes after {before.label()}; list brackets lowest first")
        elif after.low <= before.high:
            problems.append(f"brackets {before.label()} and {after.label()} overlap")
    return problems


def bracket_gaps(brackets: list[Bracket]) -> list[str]:
    """ST ranges no bracket covers (from 0 up to the last bracket), as `a-b` labels; assumes ordered brackets."""
    gaps: list[str] = []
    next_uncovered = 0
    for bracket in brackets:
        if bracket.low > next_uncovered:
            gaps.append(f"{next_uncovered}-{bracket.low - 1}")
        if bracket.high is None:
            break
        next_uncovered = max(next_uncovered, bracket.high + 1)
    return gaps


def check_cards(cardset: CardSet, options: Options) -> list[Finding]:
    """ST totals, requirement range, token totals, channeled symbols and brackets, and the effects vocabulary."""
    findings: list[Finding] = []
    token_names = [entry.card.name for entry in cardset.of_kind("token")]
    for entry in cardset:
        kind = entry.card.kind
        if kind == "monster" or options["cap_requirements_of_all_kinds"]:
            findings.extend(_check_requirement_range(cardset, entry))
        bracket_labels: list[str] | None = None
        if kind == "monster":
            findings.extend(_check_st_total(cardset, entry))
        elif kind == "token":
            findings.extend(_check_token_total(cardset, entry, options))
        elif kind == "channeled":
            findings.extend(_check_symbols(cardset, entry))
            findings.extend(_check_brackets(cardset, entry, options))
            brackets = parse_brackets(entry.card.brackets)  # type: ignore[attr-defined]
            bracket_labels = None if brackets is None else [bracket.label() for bracket in brackets]
        findings.extend(check_effects(cardset, entry, bracket_labels, token_names))
    return findings


def _requirement_column(entry: CardEntry) -> str:
    # The larger of the two cells is the one a designer most likely mistyped.
    card = entry.card
    return "otherworldly" if card.otherworldly > card.terrestrial else "terrestrial"  # type: ignore[attr-defined]


def _check_requirement_range(cardset: CardSet, entry: CardEntry) -> list[Finding]:
    card = entry.card
    requirement = card.requirement  # type: ignore[attr-defined]
    if requirement <= HIGHEST_REQUIREMENT:
        return []
    return [
        cardset.finding(
            "error",
            "source.requirement_range",
            f"requires {card.terrestrial} terrestrial + {card.otherworldly} otherworldly = {requirement} occupied "  # type: ignore[attr-defined]
            f"spaces; the document's requirements run from 0 to {HIGHEST_REQUIREMENT}.",
            entry,
            _requirement_column(entry),
            expected=f"0-{HIGHEST_REQUIREMENT}",
            actual=requirement,
        )
    ]


def _check_st_total(cardset: CardSet, entry: CardEntry) -> list[Finding]:
    card = entry.card
    expected = st_total_for(card.requirement)  # type: ignore[attr-defined]
    if expected is None or card.st_total == expected:  # type: ignore[attr-defined]
        return []
    return [
        cardset.finding(
            "error",
            "source.st_total",
            f"ST total {card.alpha} + {card.beta} + {card.gamma} + {card.delta} = {card.st_total}, but a monster "  # type: ignore[attr-defined]
            f"requiring {card.requirement} occupied space(s) has a {expected} ST total.",  # type: ignore[attr-defined]
            entry,
            "alpha",
            expected=expected,
            actual=card.st_total,  # type: ignore[attr-defined]
        )
    ]


def _check_token_total(cardset: CardSet, entry: CardEntry, options: Options) -> list[Finding]:
    card = entry.card
    if card.st_total < TOKEN_ST_CEILING:  # type: ignore[attr-defined]
        return []
    return [
        cardset.finding(
            "error" if options["strict_token_totals"] else "warning",
            "source.token_st_total",
            f"token ST total {card.st_total} is not below {TOKEN_ST_CEILING}, the total of a monster with no "  # type: ignore[attr-defined]
            "summoning requirements; tokens are expected to be weaker.",
            entry,
            "alpha",
            expected=f"< {TOKEN_ST_CEILING}",
            actual=card.st_total,  # type: ignore[attr-defined]
        )
    ]


def _check_symbols(cardset: CardSet, entry: CardEntry) -> list[Finding]:
    symbols = entry.card.symbols  # type: ignore[attr-defined]
    expected = "one or more of " + ", ".join(SYMBOLS)
    if not symbols:
        return [
            cardset.finding(
                "error",
                "source.symbols",
                "a channeled effect needs the symbol(s) that activate it.",
                entry,
                "symbols",
                expected=expected,
                actual="",
            )
        ]
    findings: list[Finding] = []
    seen: set[str] = set()
    for symbol in symbols:
        name = canonical_symbol(symbol)
        if name is None:
            hints = closest_names(symbol, SYMBOLS)
            message = f"'{symbol}' is not a symbol." + (f" Did you mean '{hints[0]}'?" if hints else "")
        elif name in seen:
            message = f"{name} is listed twice; each symbol card exists once."
        else:
            seen.add(name)
            continue
        findings.append(
            cardset.finding("error", "source.symbols", message, entry, "symbols", expected=expected, actual=symbol)
        )
    return findings


def _check_brackets(cardset: CardSet, entry: CardEntry, options: Options) -> list[Finding]:
    text = entry.card.brackets  # type: ignore[attr-defined]
    brackets = parse_brackets(text)
    if brackets is None:
        message = (
            "a channeled effect needs its ST brackets."
            if not text.strip()
            else "the brackets do not read as `low-high: effect; ...; low+: effect`."
        )
        return [
            cardset.finding(
                "error",
                "source.brackets",
                message,
                entry,
                "brackets",
                expected="e.g. 0-49: ...; 50-99: ...; 100+: ...",
                actual=text,
            )
        ]
    labels = "; ".join(bracket.label() for bracket in brackets)
    problems = bracket_problems(brackets)
    if problems:
        return [
            cardset.finding(
                "error",
                "source.brackets",
                "; ".join(problems) + ".",
                entry,
                "brackets",
                expected="brackets lowest first, not overlapping",
                actual=labels,
            )
        ]
    gaps = bracket_gaps(brackets) if options["check_bracket_gaps"] else []
    if not gaps:
        return []
    return [
        cardset.finding(
            "warning",
            "source.bracket_gap",
            f"no bracket covers ST {', '.join(gaps)}: a monster channeling with such an ST gets no effect.",
            entry,
            "brackets",
            expected="brackets covering every ST from 0 up",
            actual=labels,
        )
    ]


def stat_budget(cardset: CardSet, options: Options) -> StatBudget:
    """ST total against occupied spaces required, for monsters and tokens; the line is the document's table.

    Tokens have no line value (`expected_budget` None): the document only says their total is likely below 50.
    """
    points = []
    for entry in cardset.of_kind("monster", "token"):
        card = entry.card
        expected = st_total_for(card.requirement) if card.kind == "monster" else None  # type: ignore[attr-defined]
        points.append(
            BudgetPoint(
                card=card.name,
                row=entry.row,
                kind=card.kind,
                cost=float(card.requirement),  # type: ignore[attr-defined]
                budget=float(card.st_total),  # type: ignore[attr-defined]
                expected_budget=None if expected is None else float(expected),
            )
        )
    return StatBudget(
        cost_label="occupied spaces required (terrestrial + otherworldly)",
        budget_label="ST total (alpha + beta + gamma + delta)",
        points=tuple(points),
        line=tuple((float(spaces), float(total)) for spaces, total in sorted(ST_TOTAL_BY_REQUIREMENT.items())),
        line_label="ST-total table: monsters requiring 0/1/2/3/4 occupied spaces have a 50/75/100/125/150 ST total",
    )
