"""A card drawn like a card, as self-contained HTML, for any ruleset.

The layout comes from the ruleset's own columns, not from one game: the name
and kind across the top, the card's cost on the ruleset's cost axis (from its
stat budget point) as circles, every number column as a stat box, list columns
(abilities, elements, symbols) as chips, the rules text in the body and the
simulator's effects underneath. A cell with a finding is ringed in the
finding's colour and the finding is written under the card, with the column
and what was expected.

Every piece of user text is escaped; styles are inline, so the HTML can be
dropped into a page, a report or a print sheet as it is.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from html import escape

from workbench.cards import SEVERITY_ORDER, Finding
from workbench.rulesets.base import ColumnSpec, Ruleset, normalize_header

SEVERITY_COLOURS = {"error": "#d62728", "warning": "#e67e00", "info": "#1f77b4"}
KIND_COLOURS = ("#6c5ce7", "#00897b", "#c0392b", "#2d6cdf", "#8e6c00", "#ad1457", "#37474f", "#5d4037")
MAX_COST_CIRCLES = 12
"""Costs above this (or fractional ones) are written as a number instead of circles."""


def _kind_colour(kind: str) -> str:
    digest = hashlib.sha256(kind.casefold().encode()).digest()
    return KIND_COLOURS[digest[0] % len(KIND_COLOURS)]


def _worst(findings: Sequence[Finding]) -> Finding | None:
    return min(findings, key=lambda f: SEVERITY_ORDER[f.severity]) if findings else None


def _ring(findings: Sequence[Finding]) -> str:
    worst = _worst(findings)
    if worst is None:
        return ""
    return f"box-shadow:0 0 0 3px {SEVERITY_COLOURS[worst.severity]};"


def _title(findings: Sequence[Finding]) -> str:
    return escape(" | ".join(f"{f.severity}: {f.message}" for f in findings), quote=True)


def _cost_html(cost: float | None, cost_label: str, colour: str) -> str:
    if cost is None:
        return ""
    if float(cost).is_integer() and 0 <= cost <= MAX_COST_CIRCLES:
        count = int(cost)
        circles = (
            "".join(
                f'<span style="display:inline-block;width:14px;height:14px;border-radius:50%;background:{colour};'
                'border:2px solid #fff;margin-left:2px;"></span>'
                for _ in range(count)
            )
            or '<span style="font-size:12px;color:#fff;">0</span>'
        )
        shown = circles
    else:
        shown = f'<span style="font-weight:700;color:#fff;">{escape(f"{cost:g}")}</span>'
    return (
        f'<div title="{escape(cost_label, quote=True)}: {escape(f"{cost:g}")}" '
        f'style="display:flex;align-items:center;gap:2px;padding:2px 6px;border-radius:12px;'
        f'background:rgba(0,0,0,0.25);" data-testid="card-cost">{shown}</div>'
    )


def card_html(
    ruleset: Ruleset,
    headers: Sequence[str],
    values: Sequence[str | None],
    findings: Sequence[Finding] = (),
    cost: float | None = None,
    cost_label: str = "cost",
    row: int | None = None,
) -> str:
    """The card in one row of a sheet as HTML (`headers` and `values` by position, as the grid holds them)."""
    specs: dict[str, ColumnSpec] = {spec.field: spec for spec in ruleset.columns}
    by_column: dict[str, list[Finding]] = {}
    for finding in findings:
        by_column.setdefault(normalize_header(finding.column or ""), []).append(finding)

    def findings_at(header: str) -> list[Finding]:
        return by_column.get(normalize_header(header), [])

    name = ""
    kind = ""
    name_header = kind_header = "name"
    stats: list[str] = []
    chips: list[str] = []
    facts: list[str] = []
    body = ""
    effects = ""
    others: list[str] = []
    seen_fields: set[str] = set()
    for header, value in zip(headers, values, strict=True):
        field_name = ruleset.header_lookup.get(normalize_header(header))
        text = "" if value is None else str(value)
        if field_name is None or field_name in seen_fields:
            if text:
                others.append(f"<b>{escape(header)}</b>: {escape(text)}")
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
                stats.append(
                    f'<div title="{_title(marks)}" style="min-width:52px;padding:4px 6px;border-radius:6px;'
                    f'background:#f3f3f3;text-align:center;{_ring(marks)}">'
                    f'<div style="font-size:10px;color:#555;text-transform:uppercase;">{escape(header)}</div>'
                    f'<div style="font-size:18px;font-weight:700;color:#111;">{escape(text) or "–"}</div></div>'
                )
        elif spec.type_name.startswith("list"):
            for item in [part.strip() for part in text.replace(",", ";").split(";") if part.strip()]:
                chips.append(
                    f'<span title="{escape(header, quote=True)}" style="display:inline-block;padding:1px 8px;'
                    f"margin:2px;border-radius:10px;background:#eef;border:1px solid #99b;font-size:12px;color:#223;"
                    f'{_ring(marks)}">{escape(item)}</span>'
                )
            if marks and not text:
                chips.append(f'<span style="font-size:12px;{_ring(marks)}">{escape(header)}: (empty)</span>')
        elif text or marks:
            facts.append(
                f'<span title="{_title(marks)}" style="font-size:12px;color:#333;margin-right:10px;'
                f'{_ring(marks)}"><b>{escape(header)}</b>: {escape(text) or "(empty)"}</span>'
            )
    colour = _kind_colour(kind or "card")
    name_marks = findings_at(name_header)
    kind_marks = findings_at(kind_header)
    parts = [
        f'<div data-testid="card-preview" style="width:300px;border-radius:14px;border:3px solid {colour};'
        'background:#fffdf7;font-family:Georgia,serif;overflow:hidden;box-shadow:0 2px 8px rgba(0,0,0,0.2);">',
        f'<div style="background:{colour};color:#fff;padding:8px 10px;display:flex;justify-content:space-between;'
        'align-items:center;gap:8px;">',
        f'<div style="font-size:18px;font-weight:700;{_ring(name_marks)}" title="{_title(name_marks)}">'
        f"{escape(name) or '(no name)'}</div>",
        _cost_html(cost, cost_label, "#ffd54f"),
        "</div>",
        f'<div style="padding:2px 10px;font-size:12px;color:#fff;background:{colour};opacity:0.85;{_ring(kind_marks)}" '
        f'title="{_title(kind_marks)}">{escape(kind) or "(no kind)"}'
        f"{escape(f' · row {row}') if row is not None else ''}</div>",
    ]
    if stats:
        parts.append(f'<div style="display:flex;flex-wrap:wrap;gap:6px;padding:8px 10px;">{"".join(stats)}</div>')
    if chips:
        parts.append(f'<div style="padding:0 8px 4px 8px;">{"".join(chips)}</div>')
    if facts:
        parts.append(f'<div style="padding:2px 10px;">{"".join(facts)}</div>')
    text_marks = findings_at(
        next((h for h in headers if ruleset.header_lookup.get(normalize_header(h)) == "text"), "text")
    )
    parts.append(
        f'<div style="margin:6px 10px;padding:8px;min-height:48px;border-radius:6px;background:#f6f1e3;'
        f'font-size:13px;color:#222;white-space:pre-wrap;{_ring(text_marks)}">'
        f"{escape(body) or '<i>(no rules text)</i>'}</div>"
    )
    if effects:
        parts.append(
            '<div style="margin:0 10px 6px 10px;font-family:monospace;font-size:11px;color:#555;" '
            f'title="effects the simulator plays">⚙ {escape(effects)}</div>'
        )
    if others:
        parts.append(f'<div style="margin:0 10px 6px 10px;font-size:11px;color:#777;">{" · ".join(others)}</div>')
    if findings:
        items = "".join(
            f'<li style="margin:2px 0;color:{SEVERITY_COLOURS[f.severity]};">'
            f"<b>{escape(f.severity)}</b> [{escape(f.rule)}]"
            f"{escape(f' in {f.column}') if f.column else ''}: {escape(f.message)}"
            f"{escape(_expected_text(f))}</li>"
            for f in sorted(findings, key=lambda f: SEVERITY_ORDER[f.severity])
        )
        parts.append(
            '<ul style="margin:4px 10px 8px 10px;padding-left:16px;font-size:12px;font-family:sans-serif;">'
            f"{items}</ul>"
        )
    parts.append("</div>")
    return "".join(parts)


def _expected_text(finding: Finding) -> str:
    return finding.expected_and_actual()
