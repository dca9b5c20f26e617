"""Set-version diffs: a copy with known changes lists exactly those changes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from workbench.cards import CardSet, WorkbenchInputError
from workbench.cli import main
from workbench.diff import diff_cardsets
from workbench.rulesets import RULESETS

SOULS = RULESETS["souls"]
OLD_ROWS = [
    {"name": "Ash Hound", "kind": "monster", "soul_cost": 1, "atk": 4, "def": 4, "abilities": "Atk", "notes": "keep"},
    {"name": "Cinder Wisp", "kind": "monster", "soul_cost": 0, "atk": 2, "def": 2, "abilities": "Atk", "notes": ""},
    {"name": "Grave Titan", "kind": "monster", "soul_cost": 3, "atk": 9, "def": 7, "abilities": "Atk; Mobile", "notes": ""},
    {"name": "Old Relic", "kind": "magic", "soul_cost": 0, "abilities": "Equip", "effects": "atk +1", "notes": ""},
    {"name": "Bone Wall", "kind": "monster", "soul_cost": 2, "atk": 1, "def": 12, "abilities": "Atk", "notes": ""},
]


def _new_rows() -> list[dict[str, object]]:
    rows = [dict(row) for row in OLD_ROWS]
    rows[0]["atk"] = 6  # Ash Hound: 6 + 4 = 10 still costs 1: a stat change, no new finding
    rows[1]["name"] = "Cinder Wisps"  # a rename, nothing else
    rows[2]["soul_cost"] = 2  # Grave Titan: 16 needs 3, so a new cost finding appears
    rows[4]["soul_cost"] = 1  # Bone Wall: 13 needs 2, so a new cost finding appears
    del rows[3]  # Old Relic removed
    rows.append({"name": "Ember Lance", "kind": "magic", "soul_cost": 0, "abilities": "Equip", "effects": "atk +2"})
    return rows


@pytest.fixture
def versions(make_cardset: Callable[..., CardSet]) -> tuple[CardSet, CardSet]:
    return make_cardset(SOULS, OLD_ROWS, "old.csv"), make_cardset(SOULS, _new_rows(), "new.csv")


def test_diff_lists_exactly_the_known_changes(versions: tuple[CardSet, CardSet]) -> None:
    old, new = versions
    result = diff_cardsets(old, new)
    assert [e.card.name for e in result.added] == ["Ember Lance"]  # type: ignore[attr-defined]
    assert [e.card.name for e in result.removed] == ["Old Relic"]  # type: ignore[attr-defined]
    changed = {c.name: c for c in result.changed}
    assert set(changed) == {"Ash Hound", "Cinder Wisps", "Grave Titan", "Bone Wall"}
    assert [(f.field, f.column, f.old, f.new) for f in changed["Ash Hound"].changes] == [("atk", "atk", 4, 6)]
    assert changed["Cinder Wisps"].renamed and changed["Cinder Wisps"].old_name == "Cinder Wisp"
    assert changed["Cinder Wisps"].changes == ()
    assert [(f.field, f.old, f.new) for f in changed["Grave Titan"].changes] == [("soul_cost", 3, 2)]
    assert changed["Grave Titan"].row == 4
    appeared = {(f.card, f.rule) for f in result.findings_appeared}
    assert appeared == {("Grave Titan", "souls.soul_cost"), ("Bone Wall", "souls.soul_cost")}
    assert result.findings_resolved == []
    costs = {c.card: c for c in result.cost_changes}
    assert set(costs) == {"Ash Hound", "Grave Titan", "Bone Wall"}
    assert (costs["Ash Hound"].old_budget, costs["Ash Hound"].new_budget) == (8.0, 10.0)
    assert (costs["Grave Titan"].old_cost, costs["Grave Titan"].new_cost) == (3.0, 2.0)


def test_patch_notes_read_as_sentences(versions: tuple[CardSet, CardSet]) -> None:
    notes = diff_cardsets(*versions).patch_notes()
    assert "New card: Ember Lance (magic)." in notes
    assert "Removed: Old Relic." in notes
    assert "Renamed: Cinder Wisp -> Cinder Wisps." in notes
    assert "Ash Hound: atk 4 -> 6." in notes
    assert any(line.startswith("New finding: Grave Titan:") for line in notes)


def test_the_same_set_twice_has_no_changes_and_moved_rows_are_not_changes(
    make_cardset: Callable[..., CardSet],
) -> None:
    old = make_cardset(SOULS, OLD_ROWS, "a.csv")
    shuffled = make_cardset(SOULS, list(reversed(OLD_ROWS)), "b.csv")
    assert diff_cardsets(old, old).is_empty
    assert diff_cardsets(old, shuffled).is_empty


def test_a_fixed_finding_is_listed_as_resolved(make_cardset: Callable[..., CardSet]) -> None:
    broken = [dict(OLD_ROWS[0], soul_cost=3)]
    fixed = [dict(OLD_ROWS[0])]
    result = diff_cardsets(make_cardset(SOULS, broken, "a.csv"), make_cardset(SOULS, fixed, "b.csv"))
    assert [(f.card, f.rule) for f in result.findings_resolved] == [("Ash Hound", "souls.soul_cost")]
    assert result.patch_notes()[-1].startswith("Fixed: Ash Hound:")


def test_diff_command_prints_patch_notes_and_json(
    versions: tuple[CardSet, CardSet], capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = versions
    assert main(["diff", old.path, new.path]) == 0
    out = capsys.readouterr().out
    assert "1 added, 1 removed, 1 renamed, 3 changed; 0 finding(s) fixed, 2 new" in out
    assert "- Removed: Old Relic." in out
    assert main(["diff", old.path, new.path, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ruleset"]["id"] == "souls" and len(data["changed"]) == 4 and data["patch_notes"]
    assert main(["diff", old.path, str(Path(new.path).with_name("missing.csv"))]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_diff_refuses_two_rulesets(versions: tuple[CardSet, CardSet]) -> None:
    from toy_engine import TOY

    old, _ = versions
    stranger = CardSet(ruleset=TOY, path="toy.csv", sheet="toy.csv", entries=[], headers={})
    with pytest.raises(WorkbenchInputError, match="only two versions of one game's set"):
        diff_cardsets(old, stranger)
