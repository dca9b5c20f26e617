"""Set-version diffs: a copy with known changes lists exactly those changes, and their power before and after."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import openpyxl
import pandas as pd
import pytest

from workbench.cards import CardEntry, CardSet, Deck, WorkbenchInputError
from workbench.cli import main
from workbench.decklists import read_decklist
from workbench.diff import POWER_COLUMNS, SetDiff, diff_cardsets, with_power_changes
from workbench.loading import load_cardset
from workbench.paths import bundled_decks, bundled_sets
from workbench.report_html import render_html
from workbench.reports import build_report, xlsx_bytes
from workbench.rulesets import RULESETS
from workbench.run_settings import RunSettings

SOULS = RULESETS["souls"]
OLD_ROWS = [
    {"name": "Ash Hound", "kind": "monster", "soul_cost": 1, "atk": 4, "def": 4, "abilities": "Atk", "notes": "keep"},
    {"name": "Cinder Wisp", "kind": "monster", "soul_cost": 0, "atk": 2, "def": 2, "abilities": "Atk", "notes": ""},
    {
        "name": "Grave Titan",
        "kind": "monster",
        "soul_cost": 3,
        "atk": 9,
        "def": 7,
        "abilities": "Atk; Mobile",
        "notes": "",
    },
    {"name": "Old Brute", "kind": "magic", "soul_cost": 0, "abilities": "Equip", "effects": "atk +1", "notes": ""},
    {"name": "Bone Wall", "kind": "monster", "soul_cost": 2, "atk": 1, "def": 12, "abilities": "Atk", "notes": ""},
]


def _new_rows() -> list[dict[str, object]]:
    rows = [dict(row) for row in OLD_ROWS]
    rows[0]["atk"] = 6  # Ash Hound: 6 + 4 = 10 still costs 1: a stat change, no new finding
    rows[1]["name"] = "Cinder Wisps"  # a rename, nothing else
    rows[2]["soul_cost"] = 2  # Grave Titan: 16 needs 3, so a new cost finding appears
    rows[4]["soul_cost"] = 1  # Bone Wall: 13 needs 2, so a new cost finding appears
    del rows[3]  # Old Brute removed
    rows.append({"name": "Ember Lance", "kind": "magic", "soul_cost": 0, "abilities": "Equip", "effects": "atk +2"})
    return rows


@pytest.fixture
def versions(make_cardset: Callable[..., CardSet]) -> tuple[CardSet, CardSet]:
    return make_cardset(SOULS, OLD_ROWS, "old.csv"), make_cardset(SOULS, _new_rows(), "new.csv")


def test_diff_lists_exactly_the_known_changes(versions: tuple[CardSet, CardSet]) -> None:
    old, new = versions
    result = diff_cardsets(old, new)
    assert [e.card.name for e in result.added] == ["Ember Lance"]
    assert [e.card.name for e in result.removed] == ["Old Brute"]
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
    assert "Removed: Old Brute." in notes
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
    assert "- Removed: Old Brute." in out
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


# Power before and after: the bundled souls set against an older version with known changes.
POWER_MATCHES = 1_000


@pytest.fixture(scope="module")
def bundled_versions(tmp_path_factory: pytest.TempPathFactory) -> tuple[CardSet, CardSet, list[Deck]]:
    """The bundled set (new) and an old version: Hollow Acolyte 0/3 (now 2/3), Moss Sentry spelled Moss Sentri,
    no Ancient Wyrm (added since), and an Old Brute (removed since). (A soul-cost-0 card: with sacrifices only from
    the field, the souls default since ruleset 1.3, dearer cards come down too late to measure a change this small.)"""
    path = bundled_sets("souls")[0]
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    old_rows = []
    for row in rows:
        if row["name"] == "Ancient Wyrm":
            continue
        row = dict(row)
        if row["name"] == "Hollow Acolyte":
            row["atk"] = "0"
        if row["name"] == "Moss Sentry":
            row["name"] = "Moss Sentri"
        old_rows.append(row)
    old_rows.append({**rows[0], "name": "Old Brute", "soul_cost": "1", "atk": "4", "def": "5", "text": "Retired."})
    old_path = tmp_path_factory.mktemp("versions") / "ashfall_old.csv"
    with old_path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(old_rows)
    new = load_cardset(path, SOULS)
    return load_cardset(old_path, SOULS), new, [read_decklist(deck, new) for deck in bundled_decks("souls")]


# One summon a turn (souls' house rule, the default before ruleset 1.6): under it Hollow Acolyte's 0/3 -> 2/3 is a
# change this budget measures; with no limit its matches end before the change shows, and the test is of the diff.
DIFF_RUN = RunSettings(seed=1, options={"summons_per_turn": 1})


@pytest.fixture(scope="module")
def power_diff(bundled_versions: tuple[CardSet, CardSet, list[Deck]]) -> SetDiff:
    old, new, decks = bundled_versions
    return with_power_changes(diff_cardsets(old, new), decks, POWER_MATCHES, run=DIFF_RUN)


def test_power_changes_measure_changed_added_and_removed_cards(power_diff: SetDiff) -> None:
    assert power_diff.power is not None
    frame = power_diff.power.frame.set_index("card")
    assert list(power_diff.power.frame.columns) == list(POWER_COLUMNS)
    # Moss Sentry was only renamed: its play cannot have changed, so it is not measured.
    assert set(frame.index) == {"Hollow Acolyte", "Ancient Wyrm", "Old Brute"}
    acolyte = frame.loc["Hollow Acolyte"]
    assert acolyte["verdict"] == "stronger" and acolyte["new_low"] > acolyte["old_high"]
    assert acolyte["change"] == pytest.approx(acolyte["new_power"] - acolyte["old_power"])
    assert (acolyte["old_cost"], acolyte["new_cost"]) == (0.0, 0.0)
    wyrm, brute = frame.loc["Ancient Wyrm"], frame.loc["Old Brute"]
    assert wyrm["verdict"] == "added" and math.isnan(wyrm["old_power"]) and not math.isnan(wyrm["new_power"])
    assert brute["verdict"] == "removed" and math.isnan(brute["new_power"]) and not math.isnan(brute["old_power"])
    assert brute["old_low"] <= brute["old_power"] <= brute["old_high"]
    meta = power_diff.power.meta
    # the matches per card are split evenly over the three gauntlet decks, rounding up
    assert (meta["seed"], meta["matches_per_card"], meta["policies"]) == (
        1,
        3 * math.ceil(POWER_MATCHES / 3),
        ["greedy", "greedy"],
    )
    assert meta["ruleset_version"] == SOULS.version and meta["cardset_hash"] == power_diff.new.content_hash()
    assert meta["old_cardset_hash"] == power_diff.old.content_hash()


def test_power_changes_are_patch_notes_and_json_and_repeat_with_the_seed(
    power_diff: SetDiff, bundled_versions: tuple[CardSet, CardSet, list[Deck]]
) -> None:
    notes = power_diff.patch_notes()
    acolyte = next(line for line in notes if line.startswith("Power: Hollow Acolyte"))
    assert acolyte.endswith(": stronger.") and "->" in acolyte
    assert any(line.startswith("Power: Old Brute (removed) played at") for line in notes)
    data = json.loads(json.dumps(power_diff.to_json()))
    rows = {row["card"]: row for row in data["power_changes"]["cards"]}
    assert rows["Ancient Wyrm"]["old_power"] is None and rows["Ancient Wyrm"]["verdict"] == "added"
    old, new, decks = bundled_versions
    again = with_power_changes(diff_cardsets(old, new), decks, POWER_MATCHES, run=DIFF_RUN)
    assert again.power is not None and power_diff.power is not None
    pd.testing.assert_frame_equal(again.power.frame, power_diff.power.frame)


def test_a_diff_without_field_changes_measures_nothing(bundled_versions: tuple[CardSet, CardSet, list[Deck]]) -> None:
    _, new, decks = bundled_versions
    result = with_power_changes(diff_cardsets(new, new), decks, 100, run=RunSettings(seed=1))
    assert result.power is not None and result.power.frame.empty
    assert result.power.notes == ["No card changed a field, so no power moved."]


def test_cards_the_power_curve_cannot_measure_are_a_note_not_a_failure(
    bundled_versions: tuple[CardSet, CardSet, list[Deck]], make_cardset: Callable[..., CardSet]
) -> None:
    _, new, decks = bundled_versions
    # Magic cards have no place on souls' cost axis (the table prices Atk + Def), so a changed spell is not measured.
    spell = new.find("Blast Charm")
    assert spell is not None
    old = replace(
        new,
        entries=[
            CardEntry(e.card.model_copy(update={"effects": "damage 2"}), e.row) if e is spell else e
            for e in new.entries
        ],
    )
    result = with_power_changes(diff_cardsets(old, new), decks, 100, run=RunSettings(seed=1))
    assert result.power is not None and result.power.frame.empty
    assert len(result.power.notes) == 1 and "cannot measure the cards asked for" in result.power.notes[0]


def test_diff_command_and_report_show_power_changes(
    bundled_versions: tuple[CardSet, CardSet, list[Deck]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new, decks = bundled_versions
    deck_args = [arg for deck in bundled_decks("souls") for arg in ("--deck", str(deck))]
    assert main(["diff", old.path, new.path, *deck_args, "--matches-per-card", "300", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "- Power: Hollow Acolyte" in out
    assert "power: 300 matches per card and version, seed 2, policy greedy, ruleset souls" in out

    report = build_report(new, decks, matches_per_card=300, matches=200, baseline=old, run=RunSettings(seed=2))
    workbook = openpyxl.load_workbook(io.BytesIO(xlsx_bytes(report)))
    sheet = workbook["Power changes"]
    assert [cell.value for cell in sheet[1]] == list(POWER_COLUMNS)
    cards = {row[0] for row in sheet.iter_rows(min_row=2, values_only=True)}
    assert cards == {"Hollow Acolyte", "Ancient Wyrm", "Old Brute"}
    assert (
        sheet.cell(row=[r[0] for r in sheet.iter_rows(values_only=True)].index("Ancient Wyrm") + 1, column=5).value
        is None
    )
    html = render_html(report)
    assert "<th>power before</th>" in html and "Hollow Acolyte" in html
    assert "Power before and after (95% intervals)" in html  # the chart, as well as the table
