"""Compare versions page: an edit, an uploaded earlier version and another bundled set show exactly what changed."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from app.app_helpers import (
    SOULS_SMALL,
    as_read,
    chart_figure,
    first_bundled,
    go,
    grid_key,
    markdown_source,
    new_app,
    open_bundled,
    plotly_charts,
    shown_text,
    toy_set_with_decks,
    upload_cardset,
    workspace,
)
from streamlit.delta_generator import DeltaGenerator
from streamlit.testing.v1 import AppTest
from toy_engine import TOY

from workbench.app import BALANCE, CARD_EDITOR, PAGES, RULES, VERSIONS
from workbench.rulesets import RULESETS

Served = dict[str, tuple[str, str]]
"""Download label -> (file name, content) of every download button drawn."""


@pytest.fixture
def downloads(monkeypatch: pytest.MonkeyPatch) -> Served:
    """Record what each of this page's download buttons would serve (the data a click downloads)."""
    served: Served = {}
    original = DeltaGenerator.download_button

    def recording(self: DeltaGenerator, label: str, data: Any, *args: Any, **kwargs: Any) -> Any:
        if str(kwargs.get("key", "")).startswith("versions_"):  # this page's downloads only
            content = data() if callable(data) else data
            served[label] = (str(kwargs.get("file_name")), content if isinstance(content, str) else content.decode())
        return original(self, label, data, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "download_button", recording)
    return served


def _souls_bundled() -> Path:
    path = first_bundled("souls")
    assert path is not None, "cardsets/souls has no sample set"
    return path


def _versions_of_bundled_souls() -> AppTest:
    return go(open_bundled(new_app(), _souls_bundled()), VERSIONS)


def _metrics(at: AppTest) -> dict[str, int]:
    return {metric.label: int(metric.value) for metric in at.metric}


TABLE_COLUMNS = {
    "added": ["row", "card", "kind"],
    "removed": ["row in the earlier version", "card", "kind"],
    "renamed": ["row", "old name", "new name", "fields also changed"],
    "changed": ["row", "card", "was named", "column", "old", "new"],
}


def _tables(at: AppTest, columns: list[str]) -> list[Any]:
    """The page's tables whose columns are exactly `columns`, in page order."""
    return [frame.value for frame in at.dataframe if list(frame.value.columns) == columns]


def _table(at: AppTest, which: str) -> Any:
    """The one table of the Cards tab named `which` (added, removed, renamed, changed)."""
    found = _tables(at, TABLE_COLUMNS[which])
    assert len(found) == 1, f"{len(found)} {which} table(s) on the page"
    return found[0]


def _findings_tables(at: AppTest) -> list[Any]:
    return [frame.value for frame in at.dataframe if "rule" in frame.value.columns]


def _edit_in_editor(at: AppTest, changes: dict[str, object]) -> AppTest:
    """Change the grid the way the browser does: through its session-state key, then rerun."""
    go(at, CARD_EDITOR)
    at.session_state[grid_key(at)] = {"edited_rows": {}, "added_rows": [], "deleted_rows": []} | changes
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _upload_earlier(at: AppTest, name: str, data: bytes) -> AppTest:
    at.radio(key="versions_against").set_value("upload")
    at.run()
    at.file_uploader(key="versions_upload").set_value((name, data, "application/octet-stream"))
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _csv_bytes(header: list[str], rows: list[dict[str, str]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=header, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue().encode()


def test_the_page_sits_between_balance_and_rules() -> None:
    titles = [page.title for page in PAGES]
    assert titles.index("Compare versions") == titles.index(BALANCE.title) + 1 == titles.index(RULES.title) - 1


def test_a_set_just_opened_has_no_changes(downloads: Served) -> None:
    at = _versions_of_bundled_souls()
    assert at.title[0].value == "Compare versions"
    assert _metrics(at) == {"Added": 0, "Removed": 0, "Renamed": 0, "Changed": 0, "Findings gone": 0, "New findings": 0}
    assert "No changes: both versions have the same cards" in shown_text(at)
    assert not at.dataframe
    name, notes = downloads["Download the patch notes (Markdown)"]
    assert name == "ashfall_patch_notes.md" and notes.splitlines()[-1] == "- No changes."


def test_an_edit_in_the_editor_shows_exactly_that_change(downloads: Served) -> None:
    at = _versions_of_bundled_souls()
    # Cinder Whelp (row 2): Atk 3 -> 9 makes Atk + Def 11, which the soul-cost table prices above its soul cost 0.
    _edit_in_editor(at, {"edited_rows": {0: {"atk": "9"}}})
    go(at, VERSIONS)
    assert _metrics(at) == {"Added": 0, "Removed": 0, "Renamed": 0, "Changed": 1, "Findings gone": 0, "New findings": 1}
    changed = _table(at, "changed")
    assert changed.to_dict("records") == [
        {"row": 2, "card": "Cinder Whelp", "was named": "", "column": "atk", "old": "3", "new": "9"}
    ]
    (appeared,) = _findings_tables(at)  # only the Appeared table: nothing went away
    assert "Went away (0)" in shown_text(at) and len(appeared) == 1
    finding = appeared.iloc[0]
    assert (finding["rule"], finding["card"], int(finding["row"]), finding["column"]) == (
        "souls.soul_cost",
        "Cinder Whelp",
        2,
        "soul_cost",
    )
    (costs,) = [frame.value for frame in at.dataframe if list(frame.value.columns)[:2] == ["card", "soul cost before"]]
    assert costs["card"].tolist() == ["Cinder Whelp"]
    assert costs.iloc[0].tolist()[1:] == [0.0, 0.0, 5.0, 11.0]  # soul cost unchanged, Atk + Def 5 -> 11
    _, notes = downloads["Download the patch notes (Markdown)"]
    bullets = [line for line in notes.splitlines() if line.startswith("- ")]
    # The download is escaped for Markdown as the page is (workbench.markup): "\\>" reads as ">".
    assert bullets[0] == "- Cinder Whelp: atk 3 -\\> 9."
    assert len(bullets) == 2 and bullets[1].startswith("- New finding: Cinder Whelp: ")
    assert "\\[souls.soul\\_cost\\]" in bullets[1]
    assert "- Cinder Whelp: atk 3 -\\> 9." in markdown_source(at) and "- Cinder Whelp: atk 3 -> 9." in shown_text(at)
    _, raw = downloads["Download the diff (JSON)"]
    data = json.loads(raw)
    assert data["changed"] == [
        {
            "card": "Cinder Whelp",
            "old_name": "Cinder Whelp",
            "row": 2,
            "changes": [{"field": "atk", "column": "atk", "old": 3, "new": 9}],
        }
    ]
    assert data["added"] == data["removed"] == [] and data["ruleset"]["id"] == "souls"


def test_a_changed_card_opens_in_the_editor() -> None:
    at = _versions_of_bundled_souls()
    _edit_in_editor(at, {"edited_rows": {2: {"def": "3"}}})  # Lantern Sprite, row 4
    go(at, VERSIONS)
    picker = next(box for box in at.selectbox if box.label.startswith("Open a card"))
    assert picker.options == ["row 4 · Lantern Sprite (changed)"]
    next(button for button in at.button if button.label == "Open in editor").click()
    at.run()
    assert at.title[0].value == "Card editor"
    assert at.selectbox(key=f"card_pick:{workspace(at).uid}").value == 2
    assert "Lantern Sprite" in at.html[0].value


def test_an_uploaded_earlier_version_lists_added_removed_renamed_and_changed(downloads: Served) -> None:
    path = _souls_bundled()
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        header = list(reader.fieldnames or [])
        rows = list(reader)
    earlier = []
    for row in rows:
        row = dict(row)
        if row["name"] == "Hollow Acolyte":
            continue  # not in the earlier version: added since
        if row["name"] == "Moss Sentry":
            row["name"] = "Moss Sentri"  # a typo fixed since: a rename
        if row["name"] == "Lantern Sprite":
            row["atk"] = "1"  # buffed since: 1 -> 2
        earlier.append(row)
    earlier.append(
        dict.fromkeys(header, "")
        | {"name": "Forgotten Relic", "kind": "monster", "soul_cost": "0", "atk": "1", "def": "1"}
    )
    at = _upload_earlier(_versions_of_bundled_souls(), "ashfall_v1.csv", _csv_bytes(header, earlier))
    assert not at.error
    assert _metrics(at) == {"Added": 1, "Removed": 1, "Renamed": 1, "Changed": 1, "Findings gone": 0, "New findings": 0}
    assert _table(at, "added").to_dict("records") == [{"row": 5, "card": "Hollow Acolyte", "kind": "monster"}]
    assert _table(at, "removed").to_dict("records") == [
        {"row in the earlier version": len(earlier) + 1, "card": "Forgotten Relic", "kind": "monster"}
    ]
    assert _table(at, "renamed").to_dict("records") == [
        {"row": 3, "old name": "Moss Sentri", "new name": "Moss Sentry", "fields also changed": ""}
    ]
    assert _table(at, "changed").to_dict("records") == [
        {"row": 4, "card": "Lantern Sprite", "was named": "", "column": "atk", "old": "1", "new": "2"}
    ]
    name, notes = downloads["Download the patch notes (Markdown)"]
    assert name == "ashfall_patch_notes.md"
    assert [as_read(line) for line in notes.splitlines() if line.startswith("- ")] == [
        "- New card: Hollow Acolyte (monster).",
        "- Removed: Forgotten Relic.",
        "- Renamed: Moss Sentri -> Moss Sentry.",
        "- Lantern Sprite: atk 1 -> 2.",
    ]
    assert "- Renamed: Moss Sentri -\\> Moss Sentry." in notes  # escaped for Markdown, as on the page
    assert "Compared with ashfall\\_v1.csv" in notes
    assert workspace(at).filename == path.name  # the upload did not replace the open set


def _workbook_naming(ruleset_id: str) -> bytes:
    workbook = openpyxl.Workbook()
    cards = workbook.active
    cards.title = "Cards"
    cards.append(["name", "kind", "soul_cost", "atk", "def"])
    cards.append(["Ember Imp", "monster", 0, 3, 2])
    workbook.create_sheet("Set").append(["ruleset", ruleset_id])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("name", "data", "says"),
    [
        ("broken.xlsx", lambda: b"this is not a workbook", "not an Excel workbook"),
        ("empty.csv", lambda: b"", "the file is empty"),
        ("nameless.csv", lambda: b"kind,soul_cost,atk,def\nmonster,0,3,2\n", "required column name is missing"),
        ("circles.xlsx", lambda: _workbook_naming("circles"), "its Set sheet names the ruleset 'circles'"),
    ],
)
def test_a_broken_earlier_version_gets_a_clear_message(name: str, data: Callable[[], bytes], says: str) -> None:
    at = _versions_of_bundled_souls()
    opened = workspace(at)
    _upload_earlier(at, name, data())
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and errors[0].startswith("The earlier version was not read: ")
    assert says in errors[0] and name in errors[0]
    assert not at.metric and not at.dataframe  # nothing compared
    assert workspace(at) is opened
    at.run()  # a rerun says it again (from the session's memo, without reading the file again)
    assert [e.value for e in at.error] == errors


def test_another_bundled_set_of_the_same_game_can_be_the_earlier_version() -> None:
    at = go(upload_cardset(new_app(), SOULS_SMALL), VERSIONS)
    radio = at.radio(key="versions_against")
    assert radio.options[-1] == "Another bundled souls set"
    radio.set_value("bundled")
    at.run()
    bundled = _souls_bundled()
    assert at.selectbox(key="versions_bundled").value == str(bundled)
    assert f"{bundled.name} (bundled)" in shown_text(at).replace("\\_", "_")
    added = set(_table(at, "added")["card"])
    removed = set(_table(at, "removed")["card"])
    current = set(workspace(at).sheet.frame["name"])
    with bundled.open(newline="", encoding="utf-8") as handle:
        earlier = {row["name"] for row in csv.DictReader(handle)}
    renamed = _tables(at, TABLE_COLUMNS["renamed"])
    renamed_new = set(renamed[0]["new name"]) if renamed else set()
    renamed_old = set(renamed[0]["old name"]) if renamed else set()
    assert added == current - earlier - renamed_new
    assert removed == earlier - current - renamed_old


def test_a_set_opened_bundled_offers_no_bundled_copy_of_itself() -> None:
    at = _versions_of_bundled_souls()
    assert at.radio(key="versions_against").options == [
        f"The set as it was opened ({_souls_bundled().name})",
        "An earlier version I upload",
    ]


def _toy_versions(monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setitem(RULESETS, "toy", TOY)
    return toy_set_with_decks(VERSIONS)


def test_the_power_of_the_changed_cards_is_simulated_before_and_after(
    monkeypatch: pytest.MonkeyPatch, downloads: Served
) -> None:
    at = _toy_versions(monkeypatch)
    # The earlier version: Mid was stronger, Bargain was spelt Bargian, Gone was in the set and Dud was not.
    earlier = (
        b"name,kind,cost,strength\nFiller,unit,2,2\nCheap,unit,1,1\n"
        b"Mid,unit,2,3\nBig,unit,3,3\nBargian,unit,1,5\nGone,unit,2,2\n"
    )
    _upload_earlier(at, "toy_v1.csv", earlier)
    assert _metrics(at)["Changed"] == 1 and _metrics(at)["Renamed"] == 1
    assert "Press Simulate power of the changed cards." in shown_text(at)
    assert not plotly_charts(at)
    at.number_input(key="versions_per_card").set_value(100)
    at.number_input(key="versions_seed").set_value(4)
    at.run()
    at.button(key="versions_power_run").click()
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.exception] + [e.value for e in at.error]
    kept = list(at.session_state["simulation_results"].values())
    assert len(kept) == 1 and kept[0].power is not None
    frame = kept[0].power.frame
    assert frame["card"].tolist() == ["Mid", "Gone", "Dud"]  # the renamed card changed no field: not measured
    (table,) = [frame.value for frame in at.dataframe if "old_power" in frame.value.columns]
    assert table["card"].tolist() == ["Mid", "Gone", "Dud"]
    assert table["new_power"].iloc[0] == pytest.approx(frame["new_power"].iloc[0])
    figure = chart_figure(at, 0)
    before = next(trace for trace in figure["data"] if trace.get("name") == "before")
    assert [row[0] for row in before["customdata"]] == ["Mid", "Gone"]
    assert before["x"] == pytest.approx(frame["old_power"].iloc[:2].tolist())
    assert figure["layout"]["yaxis"]["ticktext"] == ["Mid", "Gone", "Dud"]
    after = {name: trace for trace in figure["data"] if (name := trace.get("name", "")).startswith("after")}
    drawn_after = {
        row[0]: x for trace in after.values() for row, x in zip(trace["customdata"], trace["x"], strict=True)
    }
    assert set(drawn_after) == {"Mid", "Dud"}
    assert drawn_after["Dud"] == pytest.approx(frame["new_power"].iloc[2])
    caption = shown_text(at)
    assert "toy v1 · engine v1 · seed 4 · policies greedy/greedy · 100 matches per card version" in caption
    assert "the toy default rule options" in caption
    assert "Reference deck reference, gauntlet reference, other." in caption
    _, notes = downloads["Download the patch notes (Markdown)"]
    assert "- Power: Dud (new) plays at " in notes and "- Power: Mid " in notes
    go(at, VERSIONS)  # coming back shows the kept run without simulating again
    assert len(plotly_charts(at)) == 1 and "Press Simulate power" not in shown_text(at)


def test_the_power_run_starts_from_the_power_curve_defaults_and_refuses_a_count_out_of_range(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from workbench.power_defaults import POWER_CURVE_DEFAULTS

    at = _toy_versions(monkeypatch)
    earlier = (
        b"name,kind,cost,strength\nFiller,unit,2,2\nCheap,unit,1,1\n"
        b"Mid,unit,2,3\nBig,unit,3,3\nBargain,unit,1,5\nDud,unit,3,0\n"
    )
    _upload_earlier(at, "toy_v1.csv", earlier)
    assert at.number_input(key="versions_per_card").value == POWER_CURVE_DEFAULTS.matches_per_card
    assert at.multiselect(key="versions_decks").value == ["reference", "other"]  # every deck of the set
    at.number_input(key="versions_per_card").set_value(2_000_000)
    at.run()
    assert [e.value for e in at.error] == [
        "Matches per card version: 2,000,000 is outside the limit, 10 to 1,000,000. Change it to run."
    ]
    assert at.button(key="versions_power_run").disabled
