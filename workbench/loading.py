"""From a sheet to a validated `CardSet`: ruleset choice, header matching, cell checks.

Cell problems (text in a number column, a negative count, a formula, a
duplicate name) are error findings that point at the cell, not exceptions: a
designer sees all of them at once. Only a sheet that cannot be read as a card
table at all (a required column missing, ...) raises `WorkbenchInputError`.
"""

from __future__ import annotations

import os
import types
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from workbench.cards import CardEntry, CardSet, Finding, WorkbenchInputError, name_character_problems, normalize_name
from workbench.limits import LIMITS
from workbench.rulesets import RULESETS, get_ruleset
from workbench.rulesets.base import Ruleset, normalize_choice, normalize_header
from workbench.spreadsheets import SheetTable, read_sheet


def load_cardset(
    path: str | os.PathLike[str],
    ruleset: str | Ruleset | None = None,
    data: bytes | None = None,
    filename: str | None = None,
) -> CardSet:
    """Read a card sheet and validate every row against the ruleset's card models.

    The ruleset is `ruleset` if given, else the `Set` sheet's `ruleset` row,
    else detected from the headers.
    """
    table = read_sheet(path, data=data, filename=filename)
    return cardset_from_table(table, choose_ruleset(table, ruleset))


def choose_ruleset(table: SheetTable, ruleset: str | Ruleset | None = None) -> Ruleset:
    """`--ruleset`, else the `Set` sheet, else header detection (ambiguity is an error listing candidates)."""
    if isinstance(ruleset, Ruleset):
        return ruleset
    if ruleset:
        return get_ruleset(ruleset)
    declared = table.set_info.get("ruleset")
    if declared:
        try:
            return get_ruleset(declared)
        except WorkbenchInputError as error:
            raise WorkbenchInputError(
                error.detail, path=table.path, sheet="Set", column="ruleset", expected=error.expected
            ) from None
    return detect_ruleset(table)


def detect_ruleset(table: SheetTable) -> Ruleset:
    """The one ruleset whose signature columns the headers carry best."""
    headers = {normalize_header(h) for h in table.headers}
    scores: list[tuple[int, int, Ruleset]] = []
    for candidate in RULESETS.values():
        signature = {normalize_header(candidate.column_headers.get(f, f)) for f in candidate.signature_columns}
        signature_hits = len(signature & headers)
        known = sum(1 for h in headers if h in candidate.header_lookup)
        if signature_hits:
            scores.append((signature_hits, known, candidate))
    if not scores:
        raise WorkbenchInputError(
            "the headers match no ruleset, so the game cannot be detected.",
            path=table.path,
            sheet=table.sheet,
            row=1,
            expected="--ruleset ID (one of: " + ", ".join(RULESETS) + "), or a `Set` sheet with a `ruleset` row",
        )
    scores.sort(key=lambda s: (s[0], s[1]), reverse=True)
    best = scores[0]
    tied = [s[2].id for s in scores if (s[0], s[1]) == (best[0], best[1])]
    if len(tied) > 1:
        raise WorkbenchInputError(
            "the headers fit more than one ruleset: " + ", ".join(tied) + ".",
            path=table.path,
            sheet=table.sheet,
            row=1,
            expected="--ruleset with one of the candidates, or a `Set` sheet with a `ruleset` row",
        )
    return best[2]


def match_headers(table: SheetTable, ruleset: Ruleset) -> dict[int, str]:
    """Column index -> card-model field, for the headers the ruleset knows. Unknown columns are left out (and kept)."""
    mapping: dict[int, str] = {}
    seen: dict[str, int] = {}
    for index, header in enumerate(table.headers):
        field_name = ruleset.header_lookup.get(normalize_header(header))
        if field_name is None:
            continue
        if field_name in seen:
            first = table.headers[seen[field_name]]
            raise WorkbenchInputError(
                f"columns '{first}' and '{header}' both mean '{field_name}'.",
                path=table.path,
                sheet=table.sheet,
                row=1,
                column=header,
                expected="each card field in one column only",
            )
        seen[field_name] = index
        mapping[index] = field_name
    missing = [c for c in ruleset.columns if c.field in ("name", "kind") and c.field not in seen]
    if missing and not (len(ruleset.kinds) == 1 and [c.field for c in missing] == ["kind"]):
        names = ", ".join(c.header for c in missing)
        raise WorkbenchInputError(
            f"the required column {names} is missing (headers found: {', '.join(table.headers)}).",
            path=table.path,
            sheet=table.sheet,
            row=1,
            column=names,
            expected=f"a '{missing[0].header}' column; `workbench template {ruleset.id}` writes every header",
        )
    return mapping


def cardset_from_table(table: SheetTable, ruleset: Ruleset) -> CardSet:
    """Validate every row; cells that fail become findings that point at them."""
    columns = match_headers(table, ruleset)
    headers = {field_name: table.headers[index] for index, field_name in columns.items()}
    for column in ruleset.columns:
        headers.setdefault(column.field, column.header)
    findings: list[Finding] = []
    entries: list[CardEntry] = []
    first_row_of: dict[str, int] = {}
    unreadable_rows: dict[str, int] = {}
    single_kind = ruleset.kinds[0] if len(ruleset.kinds) == 1 else None
    for row_number, values in table.rows:
        record: dict[str, Any] = {}
        formula_fields: list[str] = []
        for index, field_name in columns.items():
            formula = table.formulas.get((row_number, index))
            if formula is not None:
                formula_fields.append(field_name)
                continue
            value = values[index]
            if value is not None:
                record[field_name] = value
        if "kind" in record:
            record["kind"] = normalize_choice(record["kind"])
        elif single_kind is not None:
            record["kind"] = single_kind
        card_name = str(record.get("name")) if record.get("name") is not None else None
        for field_name in formula_fields:
            index = next(i for i, f in columns.items() if f == field_name)
            findings.append(
                Finding(
                    severity="error",
                    rule=f"{ruleset.id}.formula_cell",
                    message=(
                        f"this cell holds the formula {table.formulas[(row_number, index)]}, which has no value until "
                        "a spreadsheet program computes it; the workbench reads values only."
                    ),
                    card=card_name,
                    sheet=table.sheet,
                    row=row_number,
                    column=table.headers[index],
                    expected="a typed value (copy the column, then Paste Special > Values)",
                    actual=table.formulas[(row_number, index)],
                )
            )
        if formula_fields:
            if card_name:
                unreadable_rows.setdefault(normalize_name(card_name), row_number)
            continue
        out_of_range = _number_findings(record, ruleset, table, headers, row_number, card_name)
        if out_of_range:
            # Checked before the card models parse the cell: a 5,000-digit number is never turned into an int, and
            # no engine ever counts with 10**20.
            findings.extend(out_of_range)
            if card_name:
                unreadable_rows.setdefault(normalize_name(card_name), row_number)
            continue
        try:
            card = ruleset.card_adapter.validate_python(record)
        except ValidationError as error:
            findings.extend(_cell_findings(error, record, ruleset, table, headers, row_number, card_name))
            if card_name:
                unreadable_rows.setdefault(normalize_name(card_name), row_number)
            continue
        key = normalize_name(card.name)
        if key in first_row_of:
            findings.append(
                Finding(
                    severity="error",
                    rule=f"{ruleset.id}.duplicate_name",
                    message=(
                        f"the name '{card.name}' is already used in row "
                        f"{first_row_of[key]}; decklists could not tell them apart."
                    ),
                    card=card.name,
                    sheet=table.sheet,
                    row=row_number,
                    column=headers["name"],
                    expected="a name used once in the set",
                    actual=card.name,
                )
            )
            continue
        first_row_of[key] = row_number
        entries.append(CardEntry(card=card, row=row_number))
        for problem in name_character_problems(card.name):
            findings.append(
                Finding(
                    severity="warning",
                    rule=f"{ruleset.id}.name_characters",
                    message=problem + ".",
                    card=card.name,
                    sheet=table.sheet,
                    row=row_number,
                    column=headers["name"],
                    expected=(
                        "a name typed with the letters of one script, composed accents, no invisible characters and no "
                        "line breaks"
                    ),
                    actual=card.name.encode("unicode_escape").decode("ascii"),
                )
            )
    for note in table.notes:
        findings.append(Finding(severity="info", rule=f"{ruleset.id}.encoding", message=note, sheet=table.sheet))
    if not table.rows:
        # A header with nothing under it is almost always the wrong sheet or a half-saved file, not a finished set.
        findings.append(
            Finding(
                severity="error",
                rule=f"{ruleset.id}.no_cards",
                message=f"the {table.sheet} sheet has no card rows: there is a header row but nothing under it.",
                sheet=table.sheet,
                row=2,
                expected="one card per row under the header",
                actual="no rows",
            )
        )
    return CardSet(
        ruleset=ruleset,
        path=table.path,
        sheet=table.sheet,
        entries=entries,
        headers=headers,
        load_findings=findings,
        name=table.set_info.get("name") or Path(table.path).stem,
        version=table.set_info.get("version", ""),
        rows_read=len(table.rows),
        unreadable_rows=unreadable_rows,
        table=table,
    )


MAX_CARD_NUMBER = LIMITS["card_number"].value
MAX_NUMBER_DIGITS = LIMITS["number_digits"].value
MAX_COPIES = LIMITS["copies_per_card"].value
COPIES_FIELDS = frozenset({"copies", "starter_copies"})
"""Card fields that say how many copies of the card a set or deck holds (bounded like a decklist line's count)."""


def _is_number_annotation(annotation: Any) -> bool:
    origin = get_origin(annotation)
    if origin is Annotated:
        return _is_number_annotation(get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        return any(_is_number_annotation(a) for a in get_args(annotation))
    return annotation in (int, float)


@cache
def numeric_fields(card_models: tuple[type[BaseModel], ...]) -> frozenset[str]:
    """The card fields of a ruleset's card models that hold a number (their magnitude is bounded by the
    `card_number` limit). Keyed by the models, not the ruleset id: a ruleset need not be registered (tests' toys)."""
    return frozenset(
        name
        for model in card_models
        for name, info in model.model_fields.items()
        if _is_number_annotation(info.annotation)
    )


def _digits_of(value: Any) -> str | None:
    """The digits of a whole number written as text (sign, spaces and `_` left out); None for anything else."""
    if not isinstance(value, str):
        return None
    text = value.strip().lstrip("+-").replace("_", "").replace(" ", "")
    return text if text.isdigit() else None


def _number_findings(
    record: Mapping[str, Any],
    ruleset: Ruleset,
    table: SheetTable,
    headers: Mapping[str, str],
    row_number: int,
    card_name: str | None,
) -> list[Finding]:
    """An error finding per numeric cell past its limit: more than 18 digits, a magnitude over a million, more copies
    than a deck line may hold."""
    findings: list[Finding] = []
    for field_name in numeric_fields(tuple(ruleset.card_models)) & record.keys():
        value = record[field_name]
        digits = _digits_of(value)
        largest = MAX_COPIES if field_name in COPIES_FIELDS else MAX_CARD_NUMBER
        if digits is not None and len(digits) > MAX_NUMBER_DIGITS:
            message = f"this number has {len(digits):,} digits; the workbench reads at most {MAX_NUMBER_DIGITS}."
            actual: Any = f"{digits[:12]}… ({len(digits):,} digits)"
        else:
            number = value
            if digits is not None and digits.isascii():
                number = int(digits)
            if isinstance(number, bool) or not isinstance(number, (int, float)) or not abs(number) > largest:
                continue
            message = f"{number:,} is past the limit of {largest:,} for this field."
            actual = value
        findings.append(
            Finding(
                severity="error",
                rule=f"{ruleset.id}.number_limit",
                message=message,
                card=card_name,
                sheet=table.sheet,
                row=row_number,
                column=headers.get(field_name, field_name),
                expected=(
                    f"at most {largest:,} copies"
                    if field_name in COPIES_FIELDS
                    else f"a number from -{largest:,} to {largest:,}"
                ),
                actual=actual,
            )
        )
    return findings


def _cell_findings(
    error: ValidationError,
    record: Mapping[str, Any],
    ruleset: Ruleset,
    table: SheetTable,
    headers: Mapping[str, str],
    row_number: int,
    card_name: str | None,
) -> list[Finding]:
    findings: list[Finding] = []
    specs = {c.field: c for c in ruleset.columns}
    for problem in error.errors(include_url=False):
        field_name = next((str(p) for p in reversed(problem["loc"]) if isinstance(p, str) and p in specs), None)
        kind_error = problem["type"] in ("union_tag_invalid", "union_tag_not_found")
        if kind_error:
            field_name = "kind"
        spec = specs.get(field_name) if field_name else None
        value = record.get(field_name) if field_name else None
        expected = spec.type_name if spec else None
        if kind_error:
            expected = "one of: " + ", ".join(ruleset.kinds)
            message = "the kind is empty." if value in (None, "") else f"'{value}' is not a card kind of this game."
        else:
            message = _explain(problem, value, expected)
        findings.append(
            Finding(
                severity="error",
                rule=f"{ruleset.id}.cell_value",
                message=message,
                card=card_name,
                sheet=table.sheet,
                row=row_number,
                column=headers.get(field_name, field_name) if field_name else None,
                expected=expected,
                actual=value,
            )
        )
    return findings


def _explain(problem: Mapping[str, Any], value: Any, expected: str | None) -> str:
    kind = problem["type"]
    context = problem.get("ctx") or {}
    empty = value is None or (isinstance(value, str) and not value.strip())
    if kind == "missing" or (empty and kind not in ("value_error", "assertion_error")):
        # An empty cell is said in words: never "'None' is not a whole number".
        return f"this cell is empty, but this kind of card needs it ({expected or 'a value'})."
    if kind in ("int_parsing", "int_type", "float_parsing", "float_type"):
        noun = "a whole number" if kind.startswith("int") else "a number"
        return f"'{value}' is not {noun}."
    if kind == "int_from_float":
        return f"{value} is not a whole number."
    if kind == "greater_than_equal":
        return f"{value} is below the smallest allowed value, {context.get('ge')}."
    if kind == "greater_than":
        return f"{value} must be more than {context.get('gt')}."
    if kind == "less_than_equal":
        return f"{value} is above the largest allowed value, {context.get('le')}."
    if kind == "literal_error":
        return f"'{value}' is not allowed here; {problem['msg'][0].lower()}{problem['msg'][1:]}."
    if kind in ("value_error", "assertion_error"):
        return str(problem["msg"]).removeprefix("Value error, ").removeprefix("Assertion failed, ")
    if kind == "string_too_short":
        return "this cell is empty, but it needs text."
    return f"'{value}': {problem['msg']}."
