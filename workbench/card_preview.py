"""A card drawn like a card, as self-contained HTML, for any ruleset.

The layout comes from the ruleset's own columns, not from one game: the name
and kind across the top, the card's cost on the ruleset's cost axis (from its
stat budget point) as circles, every number column as a stat box, list columns
(abilities, elements, symbols) as chips, the rules text in the body and the
simulator's effects underneath. A cell with a finding is ringed in the
finding's colour and the finding is written under the card, with the column
and what was expected.

The card is the template `html_templates/card.html`; this module only sorts the
row's cells into what the template draws. The template's autoescape escapes every
piece of user text; styles are inline, so the HTML can be dropped into a page, a
report or a print sheet as it is.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from workbench.cards import SEVERITY_ORDER, Finding
from workbench.html_render import render
from workbench.rulesets.base import ColumnSpec, Ruleset, normalize_header

SEVERITY_COLOURS = {"error": "#d62728", "warning": "#e67e00", "info": "#1f77b4"}
KIND_COLOURS = ("#6c5ce7", "#00897b", "#c0392b", "#2d6cdf", "#8e6c00", "#ad1457", "#37474f", "#5d4037")
MAX_COST_CIRCLES = 12
"""Costs above this (or fractional ones) are written as a number instead of circles."""
COST_CIRCLE_COLOUR = "#ffd54f"
"""The cost circles' colour, on the kind's colour band."""


@dataclass(frozen=True)
class Field:
    """One cell of the card as the template draws it: a stat box, a chip, a fact, the name, the kind or the text."""

    header: str
    """The sheet's header for the cell, as the sheet spells it."""
    text: str
    """The cell's value (for a chip, one item of the list), not yet escaped; empty for an empty cell."""
    title: str = ""
    """The findings on the cell in words (`severity: message | ...`), the tooltip; empty for none."""
    ring: str = ""
    """The colour of the cell's worst finding, which rings it; empty for none."""


@dataclass(frozen=True)
class Cost:
    """The card's cost on the ruleset's cost axis, as circles or a number."""

    label: str
    """What the cost is called (soul cost, stars, ...)."""
    text: str
    """The cost as a number in words (2, 2.5)."""
    circles: int | None
    """How many circles to draw; None when the cost is fractional, negative or above MAX_COST_CIRCLES."""
    colour: str
    """The circles' colour."""


@dataclass(frozen=True)
class FindingLine:
    """One finding written under the card."""

    colour: str
    """The severity's colour."""
    severity: str
    """error, warning or info."""
    rule: str
    """The rule's id."""
    column: str
    """The column it is about; empty for the card as a whole."""
    message: str
    """What is wrong."""
    expected: str
    """What was expected and what the cell holds, in words (` (expected 2, got 0)`); empty when the finding says
    neither."""


def _kind_colour(kind: str) -> str:
    digest = hashlib.sha256(kind.casefold().encode()).digest()
    return KIND_COLOURS[digest[0] % len(KIND_COLOURS)]


def _worst(findings: Sequence[Finding]) -> Finding | None:
    return min(findings, key=lambda f: SEVERITY_ORDER[f.severity]) if findings else None


def _ring(findings: Sequence[Finding]) -> str:
    """The colour of the worst finding, or empty for none."""
    worst = _worst(findings)
    return "" if worst is None else SEVERITY_COLOURS[worst.severity]


def _title(findings: Sequence[Finding]) -> str:
    return " | ".join(f"{f.severity}: {f.message}" for f in findings)


def _field(header: str, text: str, marks: Sequence[Finding]) -> Field:
    return Field(header, text, _title(marks), _ring(marks))


def _cost(cost: float | None, cost_label: str) -> Cost | None:
    if cost is None:
        return None
    circles = int(cost) if float(cost).is_integer() and 0 <= cost <= MAX_COST_CIRCLES else None
    return Cost(cost_label, f"{cost:g}", circles, COST_CIRCLE_COLOUR)


def card_html(
    ruleset: Ruleset,
    headers: Sequence[str],
    values: Sequence[str | None],
    findings: Sequence[Finding] = (),
    cost: float | None = None,
    cost_label: str = "cost",
    row: int | None = None,
) -> str:
    """The card in one row of a sheet as HTML (`headers` and `values` by position, as the grid holds them), drawn by
    the template `html_templates/card.html`."""
    specs: dict[str, ColumnSpec] = {spec.field: spec for spec in ruleset.columns}
    by_column: dict[str, list[Finding]] = {}
    for finding in findings:
        by_column.setdefault(normalize_header(finding.column or ""), []).append(finding)

    def findings_at(header: str) -> list[Finding]:
        return by_column.get(normalize_header(header), [])

    name = kind = body = effects = ""
    name_header = kind_header = "name"
    stats: list[Field] = []
    chips: list[Field] = []
    facts: list[Field] = []
    others: list[Field] = []
    seen_fields: set[str] = set()
    for header, value in zip(headers, values, strict=True):
        field_name = ruleset.header_lookup.get(normalize_header(header))
        text = "" if value is None else str(value)
        if field_name is None or field_name in seen_fields:
            if text:
                others.append(Field(header, text))
            continue
        seen_fields.add(field_name)
        spec = specs[field_name]
        marks = findings_at(header)
        if field_name == "name":
            name, name_header = text, header
        elif field_name == "kind":
            kind, kind_header = text, header
        elif field_name == "text":
            body = text
        elif field_name == "effects":
            effects = text
        elif spec.type_name.startswith(("whole number", "number")):
            if text or marks:
                stats.append(_field(header, text, marks))
        elif spec.type_name.startswith("list"):
            items = [part.strip() for part in text.replace(",", ";").split(";") if part.strip()]
            chips += [Field(header, item, ring=_ring(marks)) for item in items]
            if marks and not text:
                chips.append(Field(header, "", ring=_ring(marks)))  # drawn as "header: (empty)"
        elif text or marks:
            facts.append(_field(header, text, marks))
    text_header = next((h for h in headers if ruleset.header_lookup.get(normalize_header(h)) == "text"), "text")
    return render(
        "card.html",
        colour=_kind_colour(kind or "card"),
        name=_field(name_header, name, findings_at(name_header)),
        kind=_field(kind_header, kind, findings_at(kind_header)),
        cost=_cost(cost, cost_label),
        row=row,
        stats=stats,
        chips=chips,
        facts=facts,
        body=_field(text_header, body, findings_at(text_header)),
        effects=effects,
        others=others,
        findings=[
            FindingLine(
                SEVERITY_COLOURS[f.severity], f.severity, f.rule, f.column or "", f.message, f.expected_and_actual()
            )
            for f in sorted(findings, key=lambda f: SEVERITY_ORDER[f.severity])
        ],
    )
