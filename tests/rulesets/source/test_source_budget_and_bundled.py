"""SOURCE's stat budget chart, the bundled Valley of Deadlife set and its decks, and the mistakes workbook's builder."""

from __future__ import annotations

import importlib.util
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest
from typed_cards import cards_as

from workbench.cards import CardSet
from workbench.decklists import read_decklist
from workbench.loading import load_cardset
from workbench.paths import bundled_decks, bundled_sets, mistakes_dir
from workbench.rulesets import RULESETS
from workbench.rulesets.source.cards import Channeled, Equipment, Monster, SourceCard
from workbench.rulesets.source.effects import EffectClause, parse_effects
from workbench.validate import validate

SOURCE = RULESETS["source"]
MakeCardSet = Callable[..., CardSet]


def test_stat_budget_points_and_the_documents_line(make_cardset: MakeCardSet) -> None:
    rows = [
        {"name": "Gale Beast", "kind": "monster", "type": "GA", "alpha": 20, "beta": 10, "gamma": 10, "delta": 10},
        {"name": "Odd Drake", "kind": "monster", "type": "FL", "terrestrial": 1, "otherworldly": 2,
         "alpha": 40, "beta": 40, "gamma": 40, "delta": 40},
        {"name": "Wings", "kind": "equipment", "terrestrial": 1, "turns": 2, "active": "Y/O"},
        {"name": "Huge", "kind": "monster", "type": "AL", "terrestrial": 3, "otherworldly": 3,
         "alpha": 50, "beta": 50, "gamma": 50, "delta": 50},
        {"name": "Floralia", "kind": "token", "type": "TO", "alpha": 10, "beta": 10, "gamma": 10, "delta": 10},
    ]  # fmt: skip
    assert SOURCE.stat_budget is not None
    budget = SOURCE.stat_budget(make_cardset(SOURCE, rows), SOURCE.resolve_options())
    assert budget.line == ((0.0, 50.0), (1.0, 75.0), (2.0, 100.0), (3.0, 125.0), (4.0, 150.0))
    assert "occupied spaces" in budget.cost_label and "ST total" in budget.budget_label
    assert [(p.card, p.row, p.kind, p.cost, p.budget, p.expected_budget) for p in budget.points] == [
        ("Gale Beast", 2, "monster", 0.0, 50.0, 50.0),
        ("Odd Drake", 3, "monster", 3.0, 160.0, 125.0),
        ("Huge", 5, "monster", 6.0, 200.0, None),
        ("Floralia", 6, "token", 0.0, 40.0, None),
    ]


def test_stat_budget_of_the_bundled_set_lies_on_the_line() -> None:
    cardset = load_cardset(bundled_sets("source")[0])
    assert SOURCE.stat_budget is not None
    budget = SOURCE.stat_budget(cardset, SOURCE.resolve_options())
    monsters = [p for p in budget.points if p.kind == "monster"]
    assert monsters and all(p.budget == p.expected_budget for p in monsters)
    assert all(p.budget < 50 and p.expected_budget is None for p in budget.points if p.kind == "token")


@pytest.fixture(scope="module")
def bundled() -> CardSet:
    (path,) = bundled_sets("source")
    return load_cardset(path)


def test_bundled_set_covers_every_kind_and_requirement_tier(bundled: CardSet) -> None:
    assert len(bundled) >= 40
    kinds = Counter(entry.card.kind for entry in bundled)
    assert set(kinds) == set(SOURCE.kinds)
    monsters = cards_as(bundled.of_kind("monster"), Monster)
    assert {card.requirement for card in monsters} == {0, 1, 2, 3, 4}
    assert len({card.type for card in monsters}) >= 8
    assert any(card.starter_copies for card in monsters)
    goop = bundled.find("Goop")
    assert goop is not None and goop.card.kind == "trap"
    equipment = cards_as(bundled.of_kind("equipment"), Equipment)
    assert {card.active for card in equipment} == {"Y", "O", "Y/O"}
    assert len({card.turns for card in equipment}) > 1
    channeled = cards_as(bundled.of_kind("channeled"), Channeled)
    assert all(card.symbols and card.brackets for card in channeled)
    assert {len(card.symbols) for card in channeled} >= {1, 2, 4}


def test_bundled_set_has_no_findings_and_every_effect_is_in_the_vocabulary(bundled: CardSet) -> None:
    assert validate(bundled).findings == []
    for card in cards_as(bundled, SourceCard):
        items = parse_effects(card.effects, card.kind)
        assert all(isinstance(item, EffectClause) for item in items), card.name
        if card.kind != "token":
            assert items, f"{card.name} has no effects"


def test_bundled_decks_are_legal_sized_and_use_the_token_deck(bundled: CardSet) -> None:
    decks = [read_decklist(path, bundled) for path in bundled_decks("source")]
    assert len(decks) >= 2
    assert validate(bundled, decks).findings == []
    for deck in decks:
        assert 40 <= deck.size("main") <= 60
    assert any(deck.size("tokens") for deck in decks)


def test_mistakes_workbook_is_what_its_builder_writes(tmp_path: Path) -> None:
    folder = mistakes_dir("source")
    spec = importlib.util.spec_from_file_location("source_build_mistakes", folder / "build_mistakes.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rebuilt = module.build(tmp_path / "mistakes.xlsx")

    def cells(path: Path) -> dict[str, list[tuple[object, ...]]]:
        workbook = openpyxl.load_workbook(path)
        return {sheet.title: list(sheet.iter_rows(values_only=True)) for sheet in workbook.worksheets}

    assert cells(rebuilt) == cells(folder / "mistakes.xlsx")


def test_every_source_result_says_its_map_is_reconstructed(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 32, item 10: the map's geometry is reconstructed from the text (its pictures are missing), so every
    movement result says so where it is shown: the provenance of every figure, the CLI's stamp, the power curve's
    statements (which the app and the reports show)."""
    from workbench.analysis import power_curve
    from workbench.cli import main
    from workbench.decklists import set_decks
    from workbench.paths import decks_folder_beside
    from workbench.rulesets.source.engine import MAP_CAVEAT
    from workbench.run_settings import RunSettings

    sheet = bundled_sets("source")[0]
    bundled = load_cardset(sheet, "source")
    decks = set_decks(bundled, decks_folder_beside(sheet)).decks
    curve = power_curve(bundled, decks, 10, RunSettings(seed=0), only=[bundled.entries[0].card.name])
    assert curve.meta["caveats"] == [MAP_CAVEAT] and MAP_CAVEAT in curve.statements()
    assert main(["simulate", "source/valley_of_deadlife", "--deck", "ember_rush", "--matches", "10"]) == 0
    assert f"note: {MAP_CAVEAT}" in capsys.readouterr().out
