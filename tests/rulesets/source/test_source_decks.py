"""SOURCE deck construction: the document's ten rules, the token deck, and the options that read them.

"A deck may have a minimum of 40 cards and a maximum of 60 cards. A deck may only contain 1 monster requiring a total
of 4 occupied spaces ... up to 5 monsters requiring a total of 3 ... not more than 1 Monster Card requiring a total
of more than 0 occupied spaces ... of the same name unless multiples are provided in the starter deck ... The limit
for any card requiring 0 occupied spaces to be summoned is 4 ... not more than 2 Trap Cards of the same name ...
only 1 Goop [Trap Card] ... not more than 2 Equipment Cards of the same name ... not more than 1 Channeled Effect card
of the same name ... not more than 10 Channeled Effect cards total."
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from workbench.cards import CardSet, Deck, Finding
from workbench.decklists import read_decklist
from workbench.rulesets import RULESETS
from workbench.validate import validate

SOURCE = RULESETS["source"]
IMPS = 16
"""0-space monsters in the test set: 4 copies of each fill up to 64 cards."""


def _monster(name: str, terrestrial: int, otherworldly: int, **extra: Any) -> dict[str, Any]:
    total = {0: 50, 1: 75, 2: 100, 3: 125, 4: 150}[terrestrial + otherworldly]
    quarter, rest = divmod(total, 4)
    return {"name": name, "kind": "monster", "type": "BE", "terrestrial": terrestrial, "otherworldly": otherworldly,
            "alpha": quarter + rest, "beta": quarter, "gamma": quarter, "delta": quarter, **extra}  # fmt: skip


def _channeled(name: str) -> dict[str, Any]:
    return {"name": name, "kind": "channeled", "uses": 1, "symbols": "Alpha", "brackets": "0-49: a; 50+: b"}


@pytest.fixture
def cards(make_cardset: Callable[..., CardSet]) -> CardSet:
    rows = [_monster(f"Imp {i}", 0, 0) for i in range(1, IMPS + 1)]
    rows += [
        _monster("Knight", 1, 0),
        _monster("Starter Ram", 0, 1, starter_copies=2),
        _monster("Basilisk", 1, 1),
        *(_monster(f"Titan {i}", 2, 1) for i in range(1, 7)),
        _monster("Starter Titan", 3, 0, starter_copies=3),
        _monster("Devourer", 2, 2),
        _monster("Engine", 0, 4),
        _monster("Caller", 0, 0, effects="summon token Sprout"),
        {"name": "Pit", "kind": "trap"},
        {"name": "Goop", "kind": "trap", "terrestrial": 1},
        {"name": "Slime", "kind": "trap", "otherworldly": 1},
        {"name": "Wings", "kind": "equipment", "turns": 2, "active": "Y/O"},
        *(_channeled(f"Chant {i}") for i in range(1, 12)),
        {"name": "Sprout", "kind": "token", "type": "TO", "alpha": 10, "beta": 10, "gamma": 10, "delta": 10},
    ]
    cardset = make_cardset(SOURCE, rows)
    assert validate(cardset).findings == []
    return cardset


def filler(size: int) -> str:
    """`size` main-deck cards of 0-space monsters, 4 of each (every line legal)."""
    lines, left, index = [], size, 1
    while left > 0:
        lines.append(f"{min(4, left)} Imp {index}")
        left -= min(4, left)
        index += 1
    return "\n".join(lines)


def deck_findings(
    cards: CardSet, make_deck: Callable[..., Deck], text: str, **options: Any
) -> tuple[Deck, list[Finding]]:
    deck = make_deck(cards, text, name="test")
    report = validate(cards, [deck], options=options)
    return deck, [f for f in report.findings if f.deck == "test"]


def line_of(text: str, wanted: str) -> int:
    """The 1-based line number of the line that is exactly `wanted`."""
    return text.splitlines().index(wanted) + 1


@pytest.mark.parametrize(("size", "legal"), [(39, False), (40, True), (52, True), (60, True), (61, False), (12, False)])
def test_deck_size_forty_to_sixty(cards: CardSet, make_deck: Callable[..., Deck], size: int, legal: bool) -> None:
    _, findings = deck_findings(cards, make_deck, filler(size))
    if legal:
        assert findings == []
        return
    (finding,) = findings
    assert (finding.rule, finding.severity, finding.row, finding.column) == ("source.deck_size", "error", None, None)
    assert (finding.expected, finding.actual) == ("40-60", size)


# (extra lines after a 40-card filler, rule broken or None, the line the finding points at, expected, actual)
TEN_RULES = [
    ("1 Devourer", None, None, None, None),
    ("1 Devourer\n1 Engine", "source.four_space_monsters", "1 Engine", 1, 2),
    ("1 Titan 1\n1 Titan 2\n1 Titan 3\n1 Titan 4\n1 Titan 5", None, None, None, None),
    (
        "1 Titan 1\n1 Titan 2\n1 Titan 3\n1 Titan 4\n1 Titan 5\n1 Titan 6",
        "source.three_space_monsters",
        "1 Titan 6",
        5,
        6,
    ),
    ("3 Starter Titan\n1 Titan 1\n1 Titan 2", None, None, None, None),
    ("3 Starter Titan\n1 Titan 1\n1 Titan 2\n1 Titan 3", "source.three_space_monsters", "1 Titan 3", 5, 6),
    ("1 Knight", None, None, None, None),
    ("2 Knight", "source.monster_copies", "2 Knight", 1, 2),
    ("1 Knight\n1 Knight", "source.monster_copies", "1 Knight", 1, 2),
    ("2 Starter Ram", None, None, None, None),
    ("3 Starter Ram", "source.monster_copies", "3 Starter Ram", 2, 3),
    ("2 Basilisk", "source.monster_copies", "2 Basilisk", 1, 2),
    ("4 Caller\nTokens:\n1 Sprout", None, None, None, None),
    ("5 Caller\nTokens:\n1 Sprout", "source.zero_space_copies", "5 Caller", 4, 5),
    ("3 Imp 11\n2 Imp 11", "source.zero_space_copies", "3 Imp 11", 4, 5),
    ("2 Pit", None, None, None, None),
    ("3 Pit", "source.trap_copies", "3 Pit", 2, 3),
    ("1 Goop", None, None, None, None),
    ("2 Goop", "source.goop_copies", "2 Goop", 1, 2),
    ("2 Wings", None, None, None, None),
    ("3 Wings", "source.equipment_copies", "3 Wings", 2, 3),
    ("1 Chant 1", None, None, None, None),
    ("2 Chant 1", "source.channeled_copies", "2 Chant 1", 1, 2),
    ("\n".join(f"1 Chant {i}" for i in range(1, 11)), None, None, None, None),
    ("\n".join(f"1 Chant {i}" for i in range(1, 12)), "source.channeled_total", "1 Chant 11", 10, 11),
]


@pytest.mark.parametrize(("extra", "rule", "points_at", "expected", "actual"), TEN_RULES)
def test_the_ten_deck_rules(
    cards: CardSet,
    make_deck: Callable[..., Deck],
    extra: str,
    rule: str | None,
    points_at: str | None,
    expected: int | None,
    actual: int | None,
) -> None:
    text = filler(40) + "\n" + extra
    _, findings = deck_findings(cards, make_deck, text)
    if rule is None:
        assert findings == []
        return
    (finding,) = findings
    assert (finding.rule, finding.severity) == (rule, "error")
    assert points_at is not None, "a case with a finding names the line it points at"
    assert (finding.row, finding.expected, finding.actual) == (line_of(text, points_at), expected, actual)


def test_a_card_over_several_limits_is_reported_once_by_the_tightest(
    cards: CardSet, make_deck: Callable[..., Deck]
) -> None:
    # Goop is a trap requiring 1 space: the Goop limit (1) binds before the trap (2) and monster limits.
    _, findings = deck_findings(cards, make_deck, filler(40) + "\n3 Goop")
    assert [(f.rule, f.expected) for f in findings] == [("source.goop_copies", 1)]


@pytest.mark.parametrize(
    ("goop_names", "extra", "broken"),
    [
        ("Goop", "2 Goop\n2 Slime", ["Goop"]),
        ("Slime", "2 Goop\n2 Slime", ["Slime"]),
        ("Goop; Slime", "2 Goop\n2 Slime", ["Goop", "Slime"]),
        ("goop", "2 Goop", ["Goop"]),
        ("", "2 Goop\n2 Slime", []),
    ],
)
def test_option_goop_names(
    cards: CardSet, make_deck: Callable[..., Deck], goop_names: str, extra: str, broken: list[str]
) -> None:
    _, findings = deck_findings(cards, make_deck, filler(40) + "\n" + extra, goop_names=goop_names)
    assert [(f.rule, f.card) for f in findings] == [("source.goop_copies", name) for name in broken]


def test_token_in_the_main_deck_is_an_error_at_its_line(cards: CardSet, make_deck: Callable[..., Deck]) -> None:
    text = filler(40) + "\n2 Sprout"
    _, findings = deck_findings(cards, make_deck, text)
    (finding,) = findings
    assert (finding.rule, finding.severity, finding.card, finding.row) == (
        "source.token_in_main",
        "error",
        "Sprout",
        11,
    )


def test_a_card_in_the_token_deck_is_an_error_at_its_line(cards: CardSet, make_deck: Callable[..., Deck]) -> None:
    text = filler(40) + "\nTokens:\n1 Sprout\n1 Knight"
    _, findings = deck_findings(cards, make_deck, text)
    (finding,) = findings
    assert (finding.rule, finding.severity, finding.card, finding.row) == (
        "source.card_in_tokens",
        "error",
        "Knight",
        13,
    )


def test_main_and_deck_headers_return_to_the_main_deck(cards: CardSet, make_deck: Callable[..., Deck]) -> None:
    text = "Tokens:\n3 Sprout\nMain:\n" + filler(40)
    deck, findings = deck_findings(cards, make_deck, text)
    assert findings == []
    assert deck.size("main") == 40 and deck.size("tokens") == 3


@pytest.mark.parametrize(("limit_tokens", "copies", "flagged"), [(False, 9, False), (True, 4, False), (True, 5, True)])
def test_option_limit_token_copies(
    cards: CardSet, make_deck: Callable[..., Deck], limit_tokens: bool, copies: int, flagged: bool
) -> None:
    text = filler(40) + f"\nTokens:\n{copies} Sprout"
    _, findings = deck_findings(cards, make_deck, text, limit_token_copies=limit_tokens)
    if not flagged:
        assert findings == []
        return
    (finding,) = findings
    assert (finding.rule, finding.row, finding.expected, finding.actual) == ("source.token_copies", 12, 4, copies)


@pytest.mark.parametrize(
    ("main", "tokens", "count_tokens", "size_found"),
    [(38, 2, False, 38), (38, 2, True, None), (40, 9, False, None), (58, 3, True, 61), (60, 3, False, None)],
)
def test_option_tokens_count_toward_deck_size(
    cards: CardSet, make_deck: Callable[..., Deck], main: int, tokens: int, count_tokens: bool, size_found: int | None
) -> None:
    text = filler(main) + f"\nTokens:\n{tokens} Sprout"
    _, findings = deck_findings(cards, make_deck, text, tokens_count_toward_deck_size=count_tokens)
    assert [(f.rule, f.actual) for f in findings] == ([] if size_found is None else [("source.deck_size", size_found)])


def test_a_summoned_token_missing_from_the_token_deck_is_a_warning(
    cards: CardSet, make_deck: Callable[..., Deck]
) -> None:
    text = filler(36) + "\n4 Caller"
    _, findings = deck_findings(cards, make_deck, text)
    (finding,) = findings
    assert (finding.rule, finding.severity, finding.card, finding.row) == (
        "source.token_deck_missing",
        "warning",
        "Caller",
        10,
    )
    _, findings = deck_findings(cards, make_deck, text + "\nTokens:\n2 Sprout")
    assert findings == []


def test_unknown_card_suggests_the_closest_name(cards: CardSet, make_deck: Callable[..., Deck]) -> None:
    text = filler(40) + "\n1 Devourrer"
    _, findings = deck_findings(cards, make_deck, text)
    (finding,) = findings
    assert (finding.rule, finding.row, finding.expected) == ("source.unknown_card", 11, ["Devourer"])


def test_sheet_decklist_with_a_section_column(cards: CardSet, tmp_path: Path) -> None:
    rows = ["name,count,section"] + [f"Imp {i},4," for i in range(1, 11)] + ["Sprout,2,tokens", "Knight,2,main"]
    path = tmp_path / "deck.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    deck = read_decklist(path, cards)
    findings = [f for f in validate(cards, [deck]).findings if f.deck]
    assert deck.size("tokens") == 2
    assert [(f.rule, f.row, f.sheet) for f in findings] == [("source.monster_copies", 13, "deck.csv")]
