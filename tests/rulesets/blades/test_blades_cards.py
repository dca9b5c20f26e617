"""Card rows into models, and the bundled sample set and decklists."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from workbench.cards import CardSet
from workbench.decklists import read_decklist
from workbench.loading import load_cardset
from workbench.paths import bundled_decks, bundled_sets
from workbench.rulesets.blades import RULESET as BLADES
from workbench.rulesets.blades.cards import card_of
from workbench.rulesets.blades.costs import sets_of
from workbench.rulesets.blades.decks import collections_of
from workbench.rulesets.blades.effects import parse_effects
from workbench.validate import validate

MakeCardSet = Callable[..., CardSet]


def row(**values: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "name": "Probe",
        "kind": "single",
        "set": "Core",
        "set_kind": "core",
        "stars": 3,
        "elements": "",
        "types": "",
        "copies": 2,
    }
    base.update(values)
    return base


@pytest.mark.parametrize(
    ("written", "kind"),
    [("single", "single"), ("Deck Box", "deck_box"), ("deck-box", "deck_box"), ("ACCESSORY", "accessory")],
)
def test_kind_spellings(make_cardset: MakeCardSet, written: str, kind: str) -> None:
    (entry,) = make_cardset(BLADES, [row(kind=written)]).entries
    assert entry.card.kind == kind


@pytest.mark.parametrize(
    ("written", "set_kind"),
    [
        ("Expansion", "expansion"),
        ("Bronze Promo", "promo"),
        ("silver promo", "promo"),
        ("Gold-Promo", "promo"),
        ("Pro Player", "pro"),
        ("Starter Deck", "starter"),
        ("Core Set", "core"),
        ("MASTER", "master"),
        ("premium", "premium"),
    ],
)
def test_set_kind_spellings(make_cardset: MakeCardSet, written: str, set_kind: str) -> None:
    (entry,) = make_cardset(BLADES, [row(set_kind=written)]).entries
    assert card_of(entry).set_kind == set_kind


def test_symbol_lists_and_their_case(make_cardset: MakeCardSet) -> None:
    (entry,) = make_cardset(BLADES, [row(elements="Fire; Dark", types="Soldier, Mage")]).entries
    card = card_of(entry)
    assert (card.elements, card.types) == (("Fire", "Dark"), ("Soldier", "Mage"))
    assert card.symbols == {("element", "fire"), ("element", "dark"), ("type", "soldier"), ("type", "mage")}


@pytest.mark.parametrize(
    ("values", "column"),
    [
        ({"set": ""}, "set"),
        ({"set_kind": "booster"}, "set_kind"),
        ({"copies": 0}, "copies"),
        ({"copies": ""}, "copies"),
    ],
)
def test_bad_cells_point_at_their_column(make_cardset: MakeCardSet, values: dict[str, Any], column: str) -> None:
    cardset = make_cardset(BLADES, [row(**values)])
    assert [(f.rule, f.row, f.column) for f in cardset.load_findings] == [("blades.cell_value", 2, column)]


def test_header_aliases(make_cardset: MakeCardSet) -> None:
    rows = [
        {
            "Name": "Probe",
            "Kind": "single",
            "Set Name": "Core",
            "Set Type": "core",
            "Star Rating": 4,
            "Element": "Fire",
            "Type": "Soldier",
            "Copies in set": 2,
        }
    ]
    (entry,) = make_cardset(BLADES, rows).entries
    card = card_of(entry)
    assert (card.stars, card.elements, card.types, card.copies) == (4, ("Fire",), ("Soldier",), 2)


# --- the bundled set: at least five sets (a starter, part of a core set, an expansion, a premium, a promo),
# original cards, valid, with elements, types and effects; decklists legal, one with a Collection section.


@pytest.fixture(scope="module")
def bundled() -> CardSet:
    (path,) = bundled_sets("blades")
    return load_cardset(path)


def test_bundled_set_is_detected_as_blades_and_is_clean(bundled: CardSet) -> None:
    assert bundled.ruleset_id == "blades"
    assert validate(bundled).findings == []


def test_bundled_set_covers_the_set_kinds_and_card_kinds(bundled: CardSet) -> None:
    kinds = {group.kind for group in sets_of(bundled)}
    assert {"starter", "core", "expansion", "premium", "promo", "meta"} <= kinds
    assert len(sets_of(bundled)) >= 5
    assert {entry.card.kind for entry in bundled} == {"single", "deck_box", "accessory", "metagame"}


def test_every_bundled_card_has_effects_in_the_vocabulary(bundled: CardSet) -> None:
    for entry in bundled:
        card = card_of(entry)
        parsed = parse_effects(card.effects)
        assert parsed.clauses and not parsed.problems, card.name
    assert all(card_of(e).elements or card_of(e).types for e in bundled if e.card.kind == "single")


def test_bundled_decks_are_legal_and_one_has_a_collection(bundled: CardSet) -> None:
    paths = bundled_decks("blades")
    assert len(paths) >= 2
    decks = [read_decklist(path, bundled) for path in paths]
    report = validate(bundled, decks)
    assert [f for f in report.findings if f.severity != "info"] == []
    assert any(collections_of(deck) for deck in decks)
    assert {f.rule for f in report.findings} == {"blades.collection_vp"}
