"""Star ratings, set composition and set size, from the document's own numbers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from workbench.cards import CardSet, Finding
from workbench.rulesets.blades import RULESET as BLADES
from workbench.rulesets.blades.costs import DOCUMENT_SET_SIZES, expected_copies, set_total, sets_of
from workbench.validate import validate

MakeCardSet = Callable[..., CardSet]


def card(
    name: str, stars: Any, copies: Any, set_name: str = "Test Set", set_kind: str = "expansion", **extra: Any
) -> dict[str, Any]:
    """One sheet row; elements and types default to a shared pair so no symbol check fires."""
    row: dict[str, Any] = {
        "name": name,
        "kind": "single",
        "set": set_name,
        "set_kind": set_kind,
        "stars": stars,
        "elements": "Fire",
        "types": "Soldier",
        "rarity": "Rare",
        "copies": copies,
        "effects": "",
    }
    row.update(extra)
    return row


def expansion(
    ratings: list[int], copies: list[int], set_kind: str = "expansion", set_name: str = "Test Set"
) -> list[dict[str, Any]]:
    return [card(f"Card {i}", s, c, set_name, set_kind) for i, (s, c) in enumerate(zip(ratings, copies, strict=True))]


def findings_of(cardset: CardSet, rule: str, **options: Any) -> list[Finding]:
    return [f for f in validate(cardset, options=options).findings if f.rule == rule]


# --- star rating: "Star Ratings range from 1-10, but usually just 1-8."


@pytest.mark.parametrize(
    ("stars", "severity"),
    [(0, "error"), (1, None), (5, None), (8, None), (9, "warning"), (10, "warning"), (11, "error"), (99, "error")],
)
def test_star_rating_range(make_cardset: MakeCardSet, stars: int, severity: str | None) -> None:
    cardset = make_cardset(BLADES, [card("Probe", stars, 2, set_kind="core")])
    found = findings_of(cardset, "blades.star_rating")
    if severity is None:
        assert found == []
        return
    (finding,) = found
    assert finding.severity == severity
    assert (finding.row, finding.column, finding.card, finding.actual) == (2, "stars", "Probe", stars)
    assert finding.expected == ("1-10" if severity == "error" else "1-8")


def test_star_rating_points_at_the_header_as_written(make_cardset: MakeCardSet) -> None:
    row = card("Probe", 12, 2, set_kind="core")
    row["Star Rating"] = row.pop("stars")
    (finding,) = findings_of(make_cardset(BLADES, [row]), "blades.star_rating")
    assert finding.column == "Star Rating"


def test_a_negative_or_fractional_star_rating_is_a_bad_cell(make_cardset: MakeCardSet) -> None:
    cardset = make_cardset(BLADES, [card("Minus", -1, 2, set_kind="core"), card("Half", "2.5", 2, set_kind="core")])
    bad = [(f.rule, f.row, f.column) for f in cardset.load_findings]
    assert bad == [("blades.cell_value", 2, "stars"), ("blades.cell_value", 3, "stars")]


# --- copies: "The highest star card in the set has one copy while the lowest has three. Any other card in the set
# has two copies. In promo sets, there is one copy of every card. Core Set is an exception to the above rules."


@pytest.mark.parametrize(
    ("stars", "lowest", "highest", "copies"),
    [(2, 2, 7, 3), (7, 2, 7, 1), (3, 2, 7, 2), (6, 2, 7, 2), (4, 4, 4, 1)],
)
def test_expected_copies_by_star_rule(stars: int, lowest: int, highest: int, copies: int) -> None:
    assert expected_copies(stars, lowest, highest) == copies


@pytest.mark.parametrize("set_kind", ["expansion", "premium", "master"])
def test_a_twelve_card_set_following_the_faq_is_clean(make_cardset: MakeCardSet, set_kind: str) -> None:
    cardset = make_cardset(BLADES, expansion([2, 3, 4, 4, 5, 7], [3, 2, 2, 2, 2, 1], set_kind))
    assert validate(cardset).findings == []


@pytest.mark.parametrize(
    ("copies", "wrong_row", "expected"),
    [
        ([3, 2, 2, 2, 2, 2], 7, 1),  # highest-star card with 2 copies
        ([2, 2, 2, 2, 2, 1], 2, 3),  # lowest-star card with 2 copies
        ([3, 1, 2, 2, 2, 1], 3, 2),  # a middle card with 1 copy
        ([3, 2, 2, 3, 2, 1], 5, 2),  # a middle card with 3 copies
    ],
)
def test_set_copies_error_points_at_the_card_and_copies(
    make_cardset: MakeCardSet, copies: list[int], wrong_row: int, expected: int
) -> None:
    cardset = make_cardset(BLADES, expansion([2, 3, 4, 4, 5, 7], copies))
    (finding,) = findings_of(cardset, "blades.set_copies")
    assert (finding.severity, finding.row, finding.column, finding.expected) == ("error", wrong_row, "copies", expected)
    assert finding.actual == copies[wrong_row - 2]


def test_promo_sets_hold_one_copy_of_every_card(make_cardset: MakeCardSet) -> None:
    rows = [card(f"Promo {i}", 3 + i, 1, "Shiny Promos", "bronze promo") for i in range(6)]
    rows[3]["copies"] = 2
    cardset = make_cardset(BLADES, rows)
    (finding,) = findings_of(cardset, "blades.set_copies")
    assert (finding.row, finding.column, finding.expected, finding.actual) == (5, "copies", 1, 2)
    assert findings_of(cardset, "blades.set_size")[0].actual == 7


def test_the_core_set_is_exempt_from_copies_and_size(make_cardset: MakeCardSet) -> None:
    cardset = make_cardset(BLADES, expansion([1, 3, 5], [4, 4, 4], "core"))
    assert validate(cardset).findings == []


def test_a_card_with_an_impossible_rating_does_not_move_the_extremes(make_cardset: MakeCardSet) -> None:
    # 11 stars is its own error; the 7-star card is still the set's highest.
    rows = expansion([2, 3, 4, 4, 5, 7], [3, 2, 2, 2, 2, 1]) + [card("Too Many Stars", 11, 2)]
    cardset = make_cardset(BLADES, rows)
    assert findings_of(cardset, "blades.set_copies") == []
    assert [f.row for f in findings_of(cardset, "blades.star_rating")] == [8]


# --- set size: "11 Expansion Sets (12 cards each) ... 9 Premium ... 8 Master ... (12 cards each) ... Promo Sets
# (6 cards each) ... 6 Starter Decks (9 cards each) ... 6 Pro Player Card Sets (5 cards each) ... 2 Meta Card Sets
# (6 cards each)"


@pytest.mark.parametrize(("set_kind", "size"), sorted(DOCUMENT_SET_SIZES.items()))
def test_document_set_sizes(set_kind: str, size: int) -> None:
    assert (
        size == {"expansion": 12, "premium": 12, "master": 12, "promo": 6, "starter": 9, "pro": 5, "meta": 6}[set_kind]
    )


def test_set_size_warning_points_at_the_sets_first_row(make_cardset: MakeCardSet) -> None:
    rows = [card("Other", 2, 3, "Other Set", "core")] + expansion([2, 3, 5, 7], [3, 2, 2, 1])
    (finding,) = findings_of(make_cardset(BLADES, rows), "blades.set_size")
    assert (finding.severity, finding.row, finding.column, finding.card) == ("warning", 3, "set", "Card 0")
    assert (finding.expected, finding.actual) == (12, 8)


def test_a_pro_set_is_one_card_at_five_copies(make_cardset: MakeCardSet) -> None:
    cardset = make_cardset(BLADES, [card("Pro Ace", 5, 5, "Pro: Ace", "pro player", types="Pro")])
    assert validate(cardset).findings == []


@pytest.mark.parametrize(
    ("counts", "expansion_total", "pro_total", "warned_rows"),
    [("copies", 12, 5, []), ("rows", 6, 1, [2, 8])],
)
def test_set_total_counts_option(
    make_cardset: MakeCardSet, counts: str, expansion_total: int, pro_total: int, warned_rows: list[int]
) -> None:
    rows = expansion([2, 3, 4, 4, 5, 7], [3, 2, 2, 2, 2, 1]) + [card("Pro Ace", 5, 5, "Pro: Ace", "pro", types="Pro")]
    cardset = make_cardset(BLADES, rows)
    totals = {group.kind: set_total(group, counts) for group in sets_of(cardset)}
    assert totals == {"expansion": expansion_total, "pro": pro_total}
    assert [f.row for f in findings_of(cardset, "blades.set_size", set_total_counts=counts)] == warned_rows


def test_a_set_with_two_kinds_is_an_error_on_the_odd_row(make_cardset: MakeCardSet) -> None:
    rows = expansion([2, 3, 4, 4, 5, 7], [3, 2, 2, 2, 2, 1])
    rows[2]["set_kind"] = "premium"
    (finding,) = findings_of(make_cardset(BLADES, rows), "blades.set_kind_mismatch")
    assert (finding.row, finding.column, finding.expected, finding.actual) == (4, "set_kind", "expansion", "premium")


def test_set_names_match_ignoring_case_and_spaces(make_cardset: MakeCardSet) -> None:
    rows = expansion([2, 3, 4, 4, 5, 7], [3, 2, 2, 2, 2, 1])
    rows[4]["set"] = "  test   SET "
    assert validate(make_cardset(BLADES, rows)).findings == []


@pytest.mark.parametrize(("warn", "rows_warned"), [(False, []), (True, [3, 7])])
def test_warn_tied_extremes_option(make_cardset: MakeCardSet, warn: bool, rows_warned: list[int]) -> None:
    # Two 2-star cards (both lowest: 3 copies each) and two 6-star cards (both highest: 1 copy each).
    rows = expansion([2, 2, 4, 4, 6, 6], [3, 3, 2, 2, 1, 1])
    cardset = make_cardset(BLADES, rows)
    assert findings_of(cardset, "blades.set_copies", warn_tied_extremes=warn) == []
    found = findings_of(cardset, "blades.tied_extremes", warn_tied_extremes=warn)
    assert Counter(f.row for f in found) == Counter(rows_warned)
    assert all(f.column == "stars" and f.severity == "warning" for f in found)


def test_a_set_of_one_rating_follows_the_highest_star_rule(make_cardset: MakeCardSet) -> None:
    cardset = make_cardset(BLADES, expansion([4, 4], [1, 1], "master"))
    assert findings_of(cardset, "blades.set_copies") == []
    (tie,) = findings_of(cardset, "blades.tied_extremes", warn_tied_extremes=True)
    assert (tie.row, tie.actual) == (3, 2)


@pytest.mark.parametrize(("check", "severities"), [(True, [("warning", 3, "copies")]), (False, [])])
def test_starter_one_copy_option(
    make_cardset: MakeCardSet, check: bool, severities: list[tuple[str, int, str]]
) -> None:
    rows = [card(f"Starter {i}", 1 + i % 4, 1, "Starter Deck", "starter") for i in range(9)]
    rows[1]["copies"] = 2
    cardset = make_cardset(BLADES, rows)
    found = findings_of(cardset, "blades.starter_copies", starter_one_copy=check)
    assert [(f.severity, f.row, f.column) for f in found] == severities
    # Nine rows, one of them at 2 copies: 10 cards counting copies.
    assert [f.actual for f in findings_of(cardset, "blades.set_size", starter_one_copy=check)] == [10]


# --- "There are 6 Elements ... There are 6 Types ... Pro Player cards have their own Type."


def test_a_seventh_element_is_a_warning_that_suggests_the_closest(make_cardset: MakeCardSet) -> None:
    elements = ["Fire", "Water", "Earth", "Air", "Light", "Dark", "Watr"]
    rows = [card(f"E{i}", 1 + i, 2, set_kind="core", elements=e) for i, e in enumerate(elements)]
    (finding,) = findings_of(make_cardset(BLADES, rows), "blades.symbol_count")
    assert (finding.row, finding.column, finding.severity) == (8, "elements", "warning")
    assert "7th" in finding.message and "Did you mean 'Water'?" in finding.message


def test_the_pro_type_is_a_seventh_type_allowed(make_cardset: MakeCardSet) -> None:
    types = ["Soldier", "Citizen", "Machine", "Beast", "Mage", "Fiend"]
    rows = [card(f"T{i}", 1 + i, 2, set_kind="core", types=t) for i, t in enumerate(types)]
    rows.append(card("Pro Ace", 5, 5, "Pro: Ace", "pro", types="Pro"))
    assert findings_of(make_cardset(BLADES, rows), "blades.symbol_count") == []
    rows.append(card("Odd One", 3, 2, set_kind="core", types="Dragon"))
    (finding,) = findings_of(make_cardset(BLADES, rows), "blades.symbol_count")
    assert (finding.row, finding.column) == (9, "types")


@pytest.mark.parametrize(("limit", "warnings"), [(6, 1), (7, 0), (0, 0)])
def test_max_symbols_option(make_cardset: MakeCardSet, limit: int, warnings: int) -> None:
    rows = [card(f"E{i}", 1 + i, 2, set_kind="core", elements=f"Element {i}") for i in range(7)]
    assert len(findings_of(make_cardset(BLADES, rows), "blades.symbol_count", max_symbols=limit)) == warnings


def test_symbols_compare_ignoring_case(make_cardset: MakeCardSet) -> None:
    rows = [card(f"E{i}", 1 + i, 2, set_kind="core", elements=e) for i, e in enumerate(["Fire", "FIRE", "fire"])]
    assert findings_of(make_cardset(BLADES, rows), "blades.symbol_count", max_symbols=1) == []


def test_there_is_no_stat_budget() -> None:
    assert BLADES.stat_budget is None


# --- metagame cards: "2 Meta Card Sets (6 cards each)" ... "Shuffle the 2 stacks of Metagame Cards separately"


def meta_set(name: str = "Elemental Meta", size: int = 6) -> list[dict[str, Any]]:
    return [
        card(f"{name} {i}", "", 1, name, "meta", kind="metagame", effects=f"Score: gain {i} RP per fire")
        for i in range(1, size + 1)
    ]


def test_a_meta_set_of_six_metagame_cards_without_star_ratings_is_clean(make_cardset: MakeCardSet) -> None:
    assert validate(make_cardset(BLADES, meta_set())).findings == []


def test_meta_sets_hold_metagame_cards_and_nothing_else(make_cardset: MakeCardSet) -> None:
    rows = [*meta_set(size=5), card("Stray Single", 3, 1, "Elemental Meta", "meta")]
    rows.append(card("Lost Meta", "", 1, "Core", "core", kind="metagame", effects="Score: gain 1 RP"))
    found = [(f.row, f.column, f.expected) for f in findings_of(make_cardset(BLADES, rows), "blades.meta_set")]
    assert found == [(7, "kind", "metagame"), (8, "set_kind", "meta")]


def test_a_meta_set_holds_one_copy_of_each_card(make_cardset: MakeCardSet) -> None:
    rows = meta_set()
    rows[2]["copies"] = 2
    (finding,) = findings_of(make_cardset(BLADES, rows), "blades.set_copies")
    assert (finding.row, finding.expected, finding.actual) == (4, 1, 2)
