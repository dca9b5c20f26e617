"""SOURCE card checks, table-driven from the rule document's own numbers.

The document: monsters requiring 0/1/2/3/4 occupied spaces have a 50/75/100/125/150 ST total; a token's ST total
"is less than that of a normal monster with no summoning requirements"; equipment lasts `turns` and is active on Y,
O or Y/O; channeled effects have uses, symbols (Alpha, Beta, Gamma, Delta) and ST brackets.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from typed_cards import card_as

from workbench.cards import CardSet, Finding
from workbench.rulesets import RULESETS
from workbench.rulesets.source.cards import Equipment, Monster
from workbench.rulesets.source.costs import bracket_gaps, bracket_problems, parse_brackets, st_total_for
from workbench.validate import validate

SOURCE = RULESETS["source"]
MakeCardSet = Callable[..., CardSet]


def monster(
    name: str, terrestrial: int, otherworldly: int, st: tuple[Any, Any, Any, Any], **extra: Any
) -> dict[str, Any]:
    return {
        "name": name,
        "kind": "monster",
        "type": extra.pop("type", "GA"),
        "terrestrial": terrestrial,
        "otherworldly": otherworldly,
        "alpha": st[0],
        "beta": st[1],
        "gamma": st[2],
        "delta": st[3],
        **extra,
    }


def channeled(name: str, symbols: str = "Alpha", brackets: str = "0-49: a; 50+: b", **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "kind": "channeled",
        "uses": extra.pop("uses", 1),
        "symbols": symbols,
        "brackets": brackets,
        **extra,
    }


def findings_of(cardset: Any, rule: str, **options: Any) -> list[Finding]:
    return [f for f in validate(cardset, options=options).findings if f.rule == rule]


# The document's table: "monsters requiring at least 0 / 1 / 2 / 3 / 4 occupied spaces have a 50 / 75 / 100 / 125 /
# 150 ST total", and its worked example of a monster requiring 1 terrestrial + 2 otherworldly spaces.
DOCUMENT_TABLE = [(0, 0, 50), (1, 0, 75), (0, 1, 75), (2, 0, 100), (1, 1, 100), (0, 2, 100), (1, 2, 125), (3, 0, 125),
                  (2, 2, 150), (0, 4, 150)]  # fmt: skip


@pytest.mark.parametrize(("terrestrial", "otherworldly", "total"), DOCUMENT_TABLE)
def test_st_total_table(terrestrial: int, otherworldly: int, total: int) -> None:
    assert st_total_for(terrestrial + otherworldly) == total


@pytest.mark.parametrize(("terrestrial", "otherworldly", "total"), DOCUMENT_TABLE)
def test_monster_with_the_tables_total_passes(
    make_cardset: MakeCardSet, terrestrial: int, otherworldly: int, total: int
) -> None:
    quarter, rest = divmod(total, 4)
    cardset = make_cardset(
        SOURCE, [monster("Fits", terrestrial, otherworldly, (quarter + rest, quarter, quarter, quarter))]
    )
    assert validate(cardset).findings == []


@pytest.mark.parametrize(("terrestrial", "otherworldly", "total"), DOCUMENT_TABLE)
@pytest.mark.parametrize("off_by", [-1, 1, 25])
def test_monster_off_the_tables_total_is_an_error_at_alpha(
    make_cardset: MakeCardSet, terrestrial: int, otherworldly: int, total: int, off_by: int
) -> None:
    quarter, rest = divmod(total, 4)
    st = (quarter + rest + off_by, quarter, quarter, quarter)
    cardset = make_cardset(
        SOURCE, [monster("Ok", 0, 0, (20, 10, 10, 10)), monster("Off", terrestrial, otherworldly, st)]
    )
    (finding,) = findings_of(cardset, "source.st_total")
    assert (finding.severity, finding.card, finding.row, finding.column) == ("error", "Off", 3, "alpha")
    assert (finding.expected, finding.actual) == (total, total + off_by)


def test_st_total_finding_names_the_column_as_the_user_wrote_it(make_cardset: MakeCardSet) -> None:
    row = {"Name": "Odd", "Kind": "monster", "Type": "Gas", "Purple": 1, "Green": 0, "ALPHA": 10, "Beta": 10,
           "Gamma": 10, "Delta": 10}  # fmt: skip
    cardset = make_cardset(SOURCE, [row])
    (finding,) = findings_of(cardset, "source.st_total")
    assert (finding.row, finding.column, finding.expected, finding.actual) == (2, "ALPHA", 75, 40)


@pytest.mark.parametrize(
    ("terrestrial", "otherworldly", "column"),
    [
        (5, 0, "terrestrial"),
        (0, 5, "otherworldly"),
        (3, 2, "terrestrial"),
        (2, 3, "otherworldly"),
        (4, 4, "terrestrial"),
    ],
)
def test_requirement_above_four_is_an_error_at_the_larger_cell(
    make_cardset: MakeCardSet, terrestrial: int, otherworldly: int, column: str
) -> None:
    cardset = make_cardset(SOURCE, [monster("Huge", terrestrial, otherworldly, (50, 50, 50, 50))])
    findings = validate(cardset).findings
    assert [(f.rule, f.severity, f.row, f.column, f.actual) for f in findings] == [
        ("source.requirement_range", "error", 2, column, terrestrial + otherworldly)
    ]


def test_requirement_of_four_is_the_top_of_the_table(make_cardset: MakeCardSet) -> None:
    cardset = make_cardset(SOURCE, [monster("Top", 2, 2, (40, 40, 35, 35))])
    assert validate(cardset).findings == []


@pytest.mark.parametrize("column", ["terrestrial", "otherworldly"])
def test_requirement_below_zero_is_a_cell_error(make_cardset: MakeCardSet, column: str) -> None:
    row = monster("Neg", 0, 0, (20, 10, 10, 10))
    row[column] = -1
    cardset = make_cardset(SOURCE, [row])
    (finding,) = validate(cardset).findings
    # A csv cell reaches the finding as written: the text "-1".
    assert (finding.rule, finding.severity, finding.row, finding.column, str(finding.actual)) == (
        "source.cell_value", "error", 2, column, "-1"
    )  # fmt: skip


@pytest.mark.parametrize(
    ("cell", "column"),
    [("ten", "alpha"), (-5, "beta"), (12.5, "gamma"), ("", "delta")],
)
def test_st_values_are_whole_numbers_at_least_zero(make_cardset: MakeCardSet, cell: Any, column: str) -> None:
    row = monster("Bad", 0, 0, (20, 10, 10, 10))
    row[column] = cell
    cardset = make_cardset(SOURCE, [row])
    (finding,) = validate(cardset).findings
    assert (finding.rule, finding.row, finding.column) == ("source.cell_value", 2, column)
    assert len(cardset) == 0


@pytest.mark.parametrize(("kind", "extra"), [
    ("equipment", {"turns": 2, "active": "Y"}),
    ("trap", {}),
    ("channeled", {"uses": 1, "symbols": "Alpha", "brackets": "0-49: a; 50+: b"}),
    ("token", {"type": "TO", "alpha": 5, "beta": 5, "gamma": 5, "delta": 5}),
])  # fmt: skip
@pytest.mark.parametrize(("cap_all", "flagged"), [(True, True), (False, False)])
def test_option_cap_requirements_of_all_kinds(
    make_cardset: MakeCardSet, kind: str, extra: dict[str, Any], cap_all: bool, flagged: bool
) -> None:
    row = {"name": "Far", "kind": kind, "terrestrial": 1, "otherworldly": 4, **extra}
    cardset = make_cardset(SOURCE, [row])
    findings = findings_of(cardset, "source.requirement_range", cap_requirements_of_all_kinds=cap_all)
    assert [(f.row, f.column, f.actual) for f in findings] == ([(2, "otherworldly", 5)] if flagged else [])


def test_monsters_are_held_to_the_range_even_with_the_option_off(make_cardset: MakeCardSet) -> None:
    cardset = make_cardset(SOURCE, [monster("Huge", 5, 0, (50, 50, 50, 50))])
    assert len(findings_of(cardset, "source.requirement_range", cap_requirements_of_all_kinds=False)) == 1


# "the ST total is less than that of a normal monster with no summoning requirements" (50).
@pytest.mark.parametrize(("st", "flagged"), [((10, 10, 10, 10), False), ((12, 12, 12, 13), False),
                                             ((13, 12, 12, 13), True), ((20, 20, 20, 20), True)])  # fmt: skip
@pytest.mark.parametrize(("strict", "severity"), [(False, "warning"), (True, "error")])
def test_token_total_below_fifty(
    make_cardset: MakeCardSet, st: tuple[int, int, int, int], flagged: bool, strict: bool, severity: str
) -> None:
    row = {
        "name": "Sprout",
        "kind": "token",
        "type": "TO",
        "alpha": st[0],
        "beta": st[1],
        "gamma": st[2],
        "delta": st[3],
    }
    cardset = make_cardset(SOURCE, [row])
    findings = findings_of(cardset, "source.token_st_total", strict_token_totals=strict)
    if not flagged:
        assert findings == []
        return
    (finding,) = findings
    assert (finding.severity, finding.row, finding.column, finding.actual) == (severity, 2, "alpha", sum(st))


@pytest.mark.parametrize(
    ("cell", "accepted"), [(1, True), (4, True), (0, False), (-1, False), ("two", False), ("", False)]
)
def test_equipment_turns_at_least_one(make_cardset: MakeCardSet, cell: Any, accepted: bool) -> None:
    cardset = make_cardset(SOURCE, [{"name": "Wings", "kind": "equipment", "turns": cell, "active": "Y/O"}])
    found = [(f.rule, f.row, f.column) for f in validate(cardset).findings]
    assert found == ([] if accepted else [("source.cell_value", 2, "turns")])


@pytest.mark.parametrize(
    ("cell", "read_as"), [("Y", "Y"), ("O", "O"), ("Y/O", "Y/O"), ("y / o", "Y/O"), ("YO", "Y/O"), ("o/y", "Y/O")]
)
def test_equipment_active_spellings(make_cardset: MakeCardSet, cell: str, read_as: str) -> None:
    cardset = make_cardset(SOURCE, [{"name": "Wings", "kind": "equipment", "turns": 2, "active": cell}])
    assert validate(cardset).findings == []
    assert card_as(cardset.entries[0], Equipment).active == read_as


@pytest.mark.parametrize("cell", ["both", "X", "", "Y/O/Y"])
def test_equipment_active_must_be_y_o_or_both(make_cardset: MakeCardSet, cell: str) -> None:
    cardset = make_cardset(SOURCE, [{"name": "Wings", "kind": "equipment", "turns": 2, "active": cell}])
    (finding,) = validate(cardset).findings
    assert (finding.rule, finding.row, finding.column) == ("source.cell_value", 2, "active")


@pytest.mark.parametrize(("cell", "code"), [("GA", "GA"), ("ga", "GA"), ("Gas", "GA"), ("Insect", "IN"),
                                           ("Arachnid", "IN"), ("Static", "ST"), ("Otherworldly", "OT")])  # fmt: skip
def test_monster_type_codes_and_names(make_cardset: MakeCardSet, cell: str, code: str) -> None:
    cardset = make_cardset(SOURCE, [monster("Typed", 0, 0, (20, 10, 10, 10), type=cell)])
    assert validate(cardset).findings == []
    assert card_as(cardset.entries[0], Monster).type == code


@pytest.mark.parametrize("cell", ["PL", "Plant", ""])
def test_monster_type_outside_the_index_is_a_cell_error(make_cardset: MakeCardSet, cell: str) -> None:
    cardset = make_cardset(SOURCE, [monster("Typed", 0, 0, (20, 10, 10, 10), type=cell)])
    (finding,) = validate(cardset).findings
    assert (finding.rule, finding.row, finding.column) == ("source.cell_value", 2, "type")


@pytest.mark.parametrize(("cell", "accepted"), [(1, True), (3, True), (0, False), ("once", False)])
def test_channeled_uses_at_least_one(make_cardset: MakeCardSet, cell: Any, accepted: bool) -> None:
    cardset = make_cardset(SOURCE, [channeled("Bow", uses=cell)])
    found = [(f.rule, f.row, f.column) for f in validate(cardset).findings]
    assert found == ([] if accepted else [("source.cell_value", 2, "uses")])


# The document's FLAMEBOW is activated by "an Alpha [α] symbol or a Delta [Δ] symbol".
@pytest.mark.parametrize("cell", ["Alpha; Delta", "alpha, delta", "α; Δ", "Alpha", "Alpha; Beta; Gamma; Delta", "δ"])
def test_symbols_a_non_empty_subset_of_the_four(make_cardset: MakeCardSet, cell: str) -> None:
    cardset = make_cardset(SOURCE, [channeled("Flame Arc", symbols=cell)])
    assert validate(cardset).findings == []


@pytest.mark.parametrize(
    ("cell", "actuals"),
    [("", [""]), ("Epsilon", ["Epsilon"]), ("Alpha; Alpha", ["Alpha"]), ("Alpha; alfa; Alpha", ["alfa", "Alpha"])],
)
def test_bad_symbols_are_errors_at_the_symbols_cell(make_cardset: MakeCardSet, cell: str, actuals: list[str]) -> None:
    cardset = make_cardset(SOURCE, [channeled("Ok"), channeled("Flame Arc", symbols=cell)])
    findings = findings_of(cardset, "source.symbols")
    assert [(f.severity, f.row, f.column, f.actual) for f in findings] == [("error", 3, "symbols", a) for a in actuals]


def test_misspelt_symbol_suggests_the_closest(make_cardset: MakeCardSet) -> None:
    cardset = make_cardset(SOURCE, [channeled("Flame Arc", symbols="Gama")])
    (finding,) = findings_of(cardset, "source.symbols")
    assert "Did you mean 'Gamma'?" in finding.message


@pytest.mark.parametrize(
    ("text", "labels"),
    [
        ("0-49: weak; 50-99: good; 100+: best", ["0-49", "50-99", "100+"]),
        ("0-24: push back 1, then draw; 25+: destroy", ["0-24", "25+"]),
        ("0–49: en dash; 50+: open", ["0-49", "50+"]),
        ("nothing here", None),
        ("", None),
        ("intro; 0-49: a", None),
    ],
)
def test_parse_brackets(text: str, labels: list[str] | None) -> None:
    brackets = parse_brackets(text)
    assert (None if brackets is None else [b.label() for b in brackets]) == labels


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("0-49: a; 40-99: b", "overlap"),
        ("50-99: a; 0-49: b", "lowest first"),
        ("0-49: a; 50+: b; 100+: c", "must be last"),
        ("49-0: a", "ends below"),
        ("0-49: ; 50+: b", "no effect text"),
    ],
)
def test_bracket_problems(text: str, problem: str) -> None:
    brackets = parse_brackets(text)
    assert brackets is not None
    assert any(problem in p for p in bracket_problems(brackets))


@pytest.mark.parametrize("text", ["0-49: a; 40-99: b", "nothing here", "", "50-99: a; 0-49: b"])
def test_bad_brackets_are_errors_at_the_brackets_cell(make_cardset: MakeCardSet, text: str) -> None:
    cardset = make_cardset(SOURCE, [channeled("Ok"), channeled("Flame Arc", brackets=text)])
    (finding,) = findings_of(cardset, "source.brackets")
    assert (finding.severity, finding.row, finding.column) == ("error", 3, "brackets")


@pytest.mark.parametrize(
    ("text", "gaps"),
    [("0-49: a; 50-99: b; 100+: c", []), ("10-49: a; 50+: b", ["0-9"]), ("0-29: a; 40+: b", ["30-39"]),
     ("5-9: a; 20-29: b", ["0-4", "10-19"])],
)  # fmt: skip
def test_bracket_gaps(text: str, gaps: list[str]) -> None:
    brackets = parse_brackets(text)
    assert brackets is not None and bracket_gaps(brackets) == gaps


@pytest.mark.parametrize(("check_gaps", "flagged"), [(True, True), (False, False)])
def test_option_check_bracket_gaps(make_cardset: MakeCardSet, check_gaps: bool, flagged: bool) -> None:
    cardset = make_cardset(SOURCE, [channeled("Flame Arc", brackets="10-29: a; 40+: b")])
    findings = findings_of(cardset, "source.bracket_gap", check_bracket_gaps=check_gaps)
    if not flagged:
        assert findings == []
        return
    (finding,) = findings
    assert (finding.severity, finding.row, finding.column) == ("warning", 2, "brackets")
    assert "0-9, 30-39" in finding.message


def test_every_kind_reads_from_one_sheet(make_cardset: MakeCardSet) -> None:
    rows = [
        monster("Gale Beast", 0, 0, (20, 10, 10, 10)),
        {"name": "Wings", "kind": "equipment", "terrestrial": 1, "turns": 2, "active": "Y/O"},
        {"name": "Pit", "kind": "Trap", "terrestrial": 2, "otherworldly": 2},
        channeled("Flame Arc", symbols="Alpha; Delta", active="Y"),
        {"name": "Floralia", "kind": "TOKEN", "type": "TO", "alpha": 10, "beta": 10, "gamma": 10, "delta": 10},
    ]
    cardset = make_cardset(SOURCE, rows)
    assert [entry.card.kind for entry in cardset] == ["monster", "equipment", "trap", "channeled", "token"]
    assert validate(cardset).findings == []


def test_greek_letter_headers_name_the_st_columns(make_cardset) -> None:
    from workbench.rulesets import RULESETS

    cardset = make_cardset(
        RULESETS["source"],
        [{"name": "Greek Imp", "kind": "monster", "type": "AL", "α": 20, "β": 10, "γ": 10, "Δ": 10}],
    )
    card = cardset.entries[0].card
    assert (card.alpha, card.beta, card.gamma, card.delta) == (20, 10, 10, 10)
    assert cardset.headers["delta"] == "Δ" and not cardset.load_findings
