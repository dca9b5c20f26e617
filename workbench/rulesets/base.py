"""What every ruleset is made of, and the cell types its card models share.

A ruleset is data plus three functions: its card models (pydantic, one per
card kind, discriminated on `kind`), a cost check over the whole set, a deck
check over one deck, and its rule-options ledger. The spreadsheet columns and
the template sheet are derived from the models, so a field's docstring is the
column's documentation.
"""

from __future__ import annotations

import importlib
import math
import re
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter

from workbench.cards import CardSet, Deck, Finding, Options, OptionValue, WorkbenchInputError, closest_names

if TYPE_CHECKING:
    from workbench.play.assembly import Engine


def normalize_header(header: str) -> str:
    """Headers match ignoring case, spaces and punctuation: `Soul Cost` == `soul_cost`; letters such as `α` count."""
    return "".join(character for character in str(header).casefold() if character.isalnum())


def split_cell_list(value: Any, separators: str = ";,") -> Any:
    """A list inside a cell is separated by `;` or `,`; blanks are dropped."""
    if value is None:
        return ()
    if isinstance(value, (list, tuple)):
        return tuple(str(item).strip() for item in value if str(item).strip())
    if isinstance(value, (int, float)):
        return (str(value),)
    pattern = "[" + re.escape(separators) + "]"
    return tuple(part.strip() for part in re.split(pattern, str(value)) if part.strip())


def normalize_choice(value: Any) -> Any:
    """`Deck Box`, `deck-box` and `DECK_BOX` all mean `deck_box`."""
    if isinstance(value, str):
        return re.sub(r"[\s\-]+", "_", value.strip()).casefold()
    return value


def empty_to_none(value: Any) -> Any:
    """An empty cell is no value, so the field's default applies."""
    if isinstance(value, str) and not value.strip():
        return None
    return value


CellList = Annotated[tuple[str, ...], BeforeValidator(split_cell_list)]
"""A `;`/`,`-separated list in one cell."""

CellText = Annotated[str, BeforeValidator(lambda v: "" if v is None else str(v))]
"""Free text; numbers typed into a text cell are kept as text."""


class CardBase(BaseModel):
    """Fields every card of every game has."""

    model_config = ConfigDict(
        use_attribute_docstrings=True,
        extra="ignore",
        str_strip_whitespace=True,
        frozen=True,
    )

    name: Annotated[str, BeforeValidator(lambda v: v if v is None else str(v))] = Field(min_length=1)
    """The card's name, unique within the set; decklists refer to cards by it."""
    text: CellText = ""
    """Rules text as printed on the card."""

    if TYPE_CHECKING:
        # Declared for type checkers only: every concrete card model declares its own `kind: Literal[...]` field
        # (the discriminator `Ruleset.card_adapter` validates a row by), so code holding any card can read
        # `card.kind`. A runtime field here would change the models' field order and the template's columns.
        kind: str
        """The card's kind (one of its ruleset's `kinds`)."""


@dataclass(frozen=True)
class RuleOption:
    """One entry of a ruleset's rule-options ledger: a reading of an unclear rule."""

    key: str
    """The `--option key=value` name."""
    default: OptionValue
    """The value used unless the designer overrides it."""
    reading: str
    """The reading chosen, in one sentence."""
    quote: str
    """The rule document's own words the reading rests on."""
    choices: tuple[str, ...] = ()
    """For text options: the allowed values."""
    minimum: int | float | None = None
    """For number options: the smallest value the option takes (every number option declares one)."""
    maximum: int | float | None = None
    """For number options: the largest value the option takes (every number option declares one), so no value
    makes a match loop for hours or a table grow without end."""
    bundled_files: str = ""
    """For an option whose value names a file (SOURCE's `map`): the folder of the files shipped with the workbench.
    The app offers those files and an upload, never a typed server path; the command line takes a path."""
    file_reader: str = ""
    """`module:function` that reads such a file and raises WorkbenchInputError when it is not one (the app checks
    an upload with it before offering it)."""

    @property
    def is_number(self) -> bool:
        """A whole-number or decimal option (true/false options are not numbers here)."""
        return isinstance(self.default, (int, float)) and not isinstance(self.default, bool)

    @property
    def range_text(self) -> str:
        """The option's range in words, as the ledger shows it: `1 to 10,000`; empty for non-number options."""
        if not self.is_number or self.minimum is None or self.maximum is None:
            return ""
        return f"{_number_text(self.minimum)} to {_number_text(self.maximum)}"

    def check(self, value: OptionValue, ruleset_id: str = "") -> OptionValue:
        """The value when it is one this option takes (a number within its range, a listed choice), else a
        one-paragraph error naming the option, the value, the range and where options are set."""
        where = f"the {ruleset_id} rule option '{self.key}'" if ruleset_id else f"rule option '{self.key}'"
        settings = "(set with --option on the command line, or on the app's Rules page)"
        if self.is_number:
            whole = isinstance(self.default, int)
            kind = "a whole number" if whole else "a number"
            expected = f"{kind} from {self.range_text}" if self.range_text else kind
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or (whole and isinstance(value, float) and not float(value).is_integer())
            ):
                raise WorkbenchInputError(
                    f"{where} takes {kind}, not {_value_text(value)} {settings}.", expected=expected
                )
            below = self.minimum is not None and value < self.minimum
            above = self.maximum is not None and value > self.maximum
            if not math.isfinite(float(value)) or below or above:
                raise WorkbenchInputError(
                    f"{where} is {_value_text(value)}, outside its range {self.range_text} {settings}.",
                    expected=expected,
                )
            return int(value) if whole else float(value)
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise WorkbenchInputError(
                    f"{where} takes true or false, not {_value_text(value)} {settings}.", expected="true or false"
                )
            return value
        if self.choices and value not in self.choices:
            raise WorkbenchInputError(
                f"{where} takes one of {', '.join(self.choices)}, not {_value_text(value)} {settings}.",
                expected=", ".join(self.choices),
            )
        return value

    def parse(self, text: str) -> OptionValue:
        """Turn a `--option` value into this option's type, or raise a clear error."""
        raw = text.strip()
        if self.is_number and len(raw) > _MAX_NUMBER_TEXT:
            # int() of thousands of digits is slow (and refused past 4,300): no option's range needs such a number.
            raise WorkbenchInputError(
                f"option '{self.key}' takes a number from {self.range_text}, not a {len(raw):,}-character value.",
                expected=f"a number from {self.range_text}",
            )
        if isinstance(self.default, bool):
            lowered = raw.casefold()
            if lowered in ("1", "true", "yes", "on", "y"):
                return True
            if lowered in ("0", "false", "no", "off", "n"):
                return False
            raise WorkbenchInputError(
                f"option '{self.key}' takes true or false, not '{text}'.", expected="true or false"
            )
        if isinstance(self.default, int):
            try:
                return int(raw)
            except ValueError:
                raise WorkbenchInputError(
                    f"option '{self.key}' takes a whole number, not '{text}'.", expected="a whole number"
                ) from None
        if isinstance(self.default, float):
            try:
                return float(raw)
            except ValueError:
                raise WorkbenchInputError(
                    f"option '{self.key}' takes a number, not '{text}'.", expected="a number"
                ) from None
        if self.choices and raw not in self.choices:
            raise WorkbenchInputError(
                f"option '{self.key}' takes one of {', '.join(self.choices)}, not '{text}'.",
                expected=", ".join(self.choices),
            )
        return raw


def search_options(searched: str, quote: str) -> tuple[RuleOption, RuleOption]:
    """The search policy's two settings, the same in every ruleset: `search_rollouts` (its budget, rollouts per
    choice at each decision it searches; `searched` says which decisions those are) and `search_rollout_policy` (the
    policy the rollouts play). They are not readings of the document but are set like them (`--option key=value`);
    `quote` is the document's words on how a match is won, which the rollouts play towards."""
    return (
        RuleOption(
            key="search_rollouts",
            default=16,
            minimum=1,
            maximum=1_000,
            reading=(
                f"Not a rule: the `search` policy's budget, rollouts per {searched}. More rollouts play stronger and "
                "slower; a side's own `search:R` takes its place; other policies ignore it."
            ),
            quote=quote,
        ),
        RuleOption(
            key="search_rollout_policy",
            default="greedy",
            reading=(
                "Not a rule: the policy every side plays in the `search` policy's rollouts, after the choice under "
                "test (`greedy` or `random`); a side's own `search:rollout_policy=P` takes its place."
            ),
            quote=quote,
            choices=("greedy", "random"),
        ),
    )


def halving_search_options(
    searched: str, quote: str, rollouts: int, depth: int, evaluation: str
) -> tuple[RuleOption, RuleOption, RuleOption]:
    """The settings of a search that shares its budget out by successive halving and cuts its rollouts off
    (`workbench.play.search`): `search_options` with the budget read as rollouts per candidate on average and
    `rollouts` its default, and `search_depth` (default `depth`), the turns a rollout plays after the searched one
    before `evaluation` (what the game's own evaluation of a position weighs, in words) scores it."""
    budget, rollout_policy = search_options(searched, quote)
    return (
        replace(
            budget,
            default=rollouts,
            reading=(
                f"Not a rule: the `search` policy's budget, rollouts per {searched}, on average: the decision's "
                "budget is this times its candidates, shared out by successive halving (each round the better half "
                "of the candidates go on and get the same number of rollouts). More rollouts play stronger and "
                "slower; a side's own `search:R` takes its place; other policies ignore it."
            ),
        ),
        rollout_policy,
        RuleOption(
            key="search_depth",
            default=depth,
            minimum=0,
            maximum=10_000,
            reading=(
                "Not a rule: how many turns a `search` rollout plays after the turn searched before it stops and "
                f"scores the position by the game's own evaluation ({evaluation}); 0 plays every rollout to the "
                "match's end. A side's own `search:depth=D` takes its place; other policies ignore it."
            ),
            quote=quote,
        ),
    )


@dataclass(frozen=True)
class ColumnSpec:
    """One card-sheet column, derived from the card models."""

    field: str
    """The card-model field name."""
    header: str
    """The header written into templates."""
    kinds: tuple[str, ...]
    """The card kinds that use this column."""
    required_for: tuple[str, ...]
    """The card kinds for which an empty cell is an error."""
    type_name: str
    """What the cell holds, in words (whole number, list, text, one of ...)."""
    description: str
    """The field's docstring."""


@dataclass(frozen=True)
class BudgetPoint:
    """One card on the stat budget chart: what it spends against what it costs."""

    card: str
    """The card's name."""
    row: int
    """The spreadsheet row a person sees (header = row 1), so a chart click can open the card."""
    kind: str
    """The card's kind (the chart colours by it)."""
    cost: float
    """The card's position on the ruleset's cost axis (soul cost, occupied spaces, circles, plasma, stars)."""
    budget: float
    """What the card spends (Atk + Def, ST total, Attack + Health, ...)."""
    expected_budget: float | None
    """What the document's formula allows at this cost; None where the formula says nothing about this card."""


@dataclass(frozen=True)
class StatBudget:
    """The stat budget chart's data: every costed card, and the document's formula as a line."""

    cost_label: str
    """The x axis, in a designer's words (e.g. `soul cost`)."""
    budget_label: str
    """The y axis, in a designer's words (e.g. `Atk + Def`)."""
    points: tuple[BudgetPoint, ...]
    """One point per card that has a cost and a budget."""
    line: tuple[tuple[float, float], ...]
    """Vertices (cost, budget) of the document's formula, drawn as a line (a step table gives its steps)."""
    line_label: str
    """What the line is, with the document's words where it has some (e.g. `soul-cost table: upper Atk + Def`)."""


CardsCheck = Callable[[CardSet, Options], list[Finding]]
DeckCheck = Callable[[CardSet, Deck, Options], list[Finding]]
StatBudgetOf = Callable[[CardSet, Options], StatBudget]


@dataclass(frozen=True)
class Ruleset:
    """A game: its card models, checks and rule options."""

    id: str
    """Registry id (`source`, `plasma`, `blades`, `souls`, `circles`)."""
    title: str
    """Human title."""
    version: str
    """Bumped whenever a check or engine changes behaviour; stamped into results."""
    document: str
    """The file name of the rule document this ruleset follows, as the project's rule documents are kept (they are
    not part of this repository; docs/rulesets/<id>.md quotes the words each reading rests on)."""
    card_models: tuple[type[CardBase], ...]
    """One pydantic model per card kind; each has a `kind: Literal[...]` field."""
    check_cards: CardsCheck
    """Cost-formula and per-card checks over the whole set."""
    check_deck: DeckCheck
    """Deck-construction checks over one resolved deck."""
    stat_budget: StatBudgetOf | None = None
    """(card set, options) -> the stat budget chart's points and formula line."""
    options: tuple[RuleOption, ...] = ()
    """The rule-options ledger."""
    header_aliases: Mapping[str, str] = field(default_factory=dict)
    """Extra accepted headers: alias -> field name (e.g. `defense` -> `def_`)."""
    column_headers: Mapping[str, str] = field(default_factory=dict)
    """Field name -> header to write, where it differs from the field name."""
    signature_columns: frozenset[str] = frozenset()
    """Field names whose presence marks a sheet as this ruleset's (header detection)."""
    cost_fields: tuple[str, ...] = ()
    """Field names that make up a card's cost (the stat budget's axis); the card editor pins them beside the name."""
    deck_sections: tuple[str, ...] = ("main",)
    """Decklist sections this game knows; `main` first."""
    engine_module: str | None = None
    """Dotted module holding this game's match engine as `ENGINE`; imported only when a match is played."""

    @cached_property
    def engine(self) -> Engine | None:
        """The match engine, or None for a game not simulated yet (imported lazily: Numba is slow to load)."""
        if self.engine_module is None:
            return None
        engine: Engine = importlib.import_module(self.engine_module).ENGINE
        return engine

    @cached_property
    def card_adapter(self) -> TypeAdapter[Any]:
        """Validates one row into the right card model, by its `kind`."""
        if len(self.card_models) == 1:
            return TypeAdapter(self.card_models[0])
        union = Union[tuple(self.card_models)]  # type: ignore[valid-type]  # noqa: UP007 (a union of a runtime tuple)
        # A type built at run time, which no static type describes: typed Any for TypeAdapter.
        discriminated: Any = Annotated[union, Field(discriminator="kind")]
        return TypeAdapter(discriminated)

    @cached_property
    def kinds(self) -> tuple[str, ...]:
        """Every card kind, in model order."""
        out: list[str] = []
        for model in self.card_models:
            out.extend(get_args(model.model_fields["kind"].annotation))
        return tuple(out)

    @cached_property
    def columns(self) -> tuple[ColumnSpec, ...]:
        """Every column any card kind uses, `name` and `kind` first."""
        order: list[str] = []
        kinds: dict[str, list[str]] = {}
        required: dict[str, list[str]] = {}
        infos: dict[str, Any] = {}
        for model in self.card_models:
            model_kinds = list(get_args(model.model_fields["kind"].annotation))
            for name, info in model.model_fields.items():
                if name not in kinds:
                    order.append(name)
                    kinds[name] = []
                    required[name] = []
                    infos[name] = info
                kinds[name].extend(model_kinds)
                if info.is_required():
                    required[name].extend(model_kinds)
        front = [n for n in ("name", "kind") if n in order]
        order = front + [n for n in order if n not in front and n != "text"] + (["text"] if "text" in order else [])
        return tuple(
            ColumnSpec(
                field=name,
                header=self.column_headers.get(name, name),
                kinds=tuple(kinds[name]),
                required_for=tuple(required[name]),
                type_name=(
                    "one of: " + ", ".join(self.kinds)
                    if name == "kind"
                    else describe_annotation(infos[name].annotation)
                ),
                description=(infos[name].description or "").strip(),
            )
            for name in order
        )

    @cached_property
    def header_lookup(self) -> dict[str, str]:
        """Normalized header -> field name, for every accepted spelling."""
        lookup: dict[str, str] = {}
        for column in self.columns:
            lookup[normalize_header(column.field)] = column.field
            lookup[normalize_header(column.header)] = column.field
        for alias, field_name in self.header_aliases.items():
            lookup[normalize_header(alias)] = field_name
        lookup.pop("", None)  # a header of punctuation only names no column
        return lookup

    def option(self, key: str) -> RuleOption:
        """The ledger entry for `key`, or an error listing the valid keys."""
        for option in self.options:
            if option.key == key:
                return option
        valid = ", ".join(o.key for o in self.options) or "(this ruleset has no options)"
        hint = closest_names(key, [o.key for o in self.options])
        did_you_mean = f" Did you mean {hint[0]}?" if hint else ""
        raise WorkbenchInputError(
            f"ruleset '{self.id}' has no option '{key}'.{did_you_mean}", expected=f"one of: {valid}"
        )

    def resolve_options(self, overrides: Mapping[str, OptionValue | str] | None = None) -> dict[str, OptionValue]:
        """Defaults with the overrides applied; strings are parsed by the option's type."""
        values: dict[str, OptionValue] = {o.key: o.default for o in self.options}
        for key, value in (overrides or {}).items():
            option = self.option(key)
            values[key] = option.check(option.parse(value) if isinstance(value, str) else value, self.id)
        return values


_MAX_NUMBER_TEXT = 40
"""Characters a number option's text may have: more than any number within an option's range needs."""


def _number_text(number: int | float) -> str:
    """`10000` -> `10,000`, `0.5` -> `0.5`: a range end as the ledger writes it."""
    if isinstance(number, int) or float(number).is_integer():
        return f"{int(number):,}"
    return f"{number:g}"


def _value_text(value: object) -> str:
    """A refused value as a person reads it: numbers with thousands separators, long ones shortened."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        digits = len(str(abs(value)))
        return f"{value:,}" if digits <= 15 else f"a {digits:,}-digit number"
    if isinstance(value, float):
        return f"{value:g}"
    text = str(value)
    return f"'{text[:40]}…'" if len(text) > 40 else f"'{text}'"


def describe_annotation(annotation: Any) -> str:
    """The cell type of a model field, in a designer's words."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return describe_annotation(get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        parts = [describe_annotation(a) for a in get_args(annotation) if a is not type(None)]
        return " or ".join(dict.fromkeys(parts)) + " (may be empty)"
    if origin is tuple:
        return "list separated by ; or ,"
    if str(origin) == "typing.Literal" or repr(origin) == "typing.Literal":
        return "one of: " + ", ".join(str(a) for a in get_args(annotation))
    if annotation is int:
        return "whole number"
    if annotation is float:
        return "number"
    if annotation is bool:
        return "yes or no"
    return "text"


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """`["strict_costs=true", ...]` -> `{"strict_costs": "true"}`; a pair without `=` is an error."""
    out: dict[str, str] = {}
    for pair in pairs:
        if "=" not in pair:
            raise WorkbenchInputError(
                f"--option '{pair}' has no '='.", expected="--option KEY=VALUE, e.g. --option strict_costs=true"
            )
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out
