"""Card sets page: the first bundled set opens by itself, bundled sets open, uploads open or are refused clearly."""

from __future__ import annotations

import io

import openpyxl
import pytest
from app.app_helpers import SOULS_SMALL, first_bundled, go, new_app, open_bundled, shown_text, upload_cardset, workspace

from workbench.app import CARD_SETS
from workbench.app.workspace import bundled_catalogue
from workbench.rulesets import RULESETS
from workbench.spreadsheets import MAX_FILE_BYTES


def test_a_new_session_starts_on_the_first_bundled_set() -> None:
    at = new_app()
    assert at.title[0].value == "Card sets"
    catalogue = bundled_catalogue()
    if not catalogue:
        assert "No bundled card sets were found" in shown_text(at)
        return
    first = catalogue[0]
    assert workspace(at).filename == first.name
    assert f"from **{first.name}** (bundled)" in shown_text(at)
    assert any(uploader.key == "cardset_upload" for uploader in at.file_uploader)


def test_the_size_cap_is_stated_on_the_page() -> None:
    at = new_app()
    assert f"{MAX_FILE_BYTES // 2**20} MiB" in at.file_uploader(key="cardset_upload").label
    assert f"Size cap: {MAX_FILE_BYTES // 2**20} MiB" in shown_text(at)


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_each_bundled_set_opens_with_its_decklists(ruleset_id: str) -> None:
    path = first_bundled(ruleset_id)
    assert path is not None, f"cardsets/{ruleset_id} has no sample set"
    at = open_bundled(new_app(), path)
    opened = workspace(at)
    assert opened.ruleset_id == ruleset_id and opened.filename == path.name and opened.origin == "bundled"
    assert opened.decks, "a bundled set opens with its game's decklists"
    assert f"Opened {path.name}" in shown_text(at)
    assert "✖ 0 errors" in shown_text(at)


def test_uploading_a_valid_csv_opens_it() -> None:
    at = upload_cardset(new_app(), SOULS_SMALL)
    assert "Opened souls_small.csv as a souls card set." in shown_text(at)
    opened = workspace(at)
    assert opened.ruleset_id == "souls" and opened.origin == "upload" and len(opened.sheet.frame) == 10
    assert "10 of 10 card rows read" in shown_text(at)
    assert opened.sheet.labels[-1] == "artist"  # the column souls does not know is kept


def test_uploading_a_workbook_with_a_set_sheet_uses_its_ruleset() -> None:
    workbook = openpyxl.Workbook()
    cards = workbook.active
    cards.title = "Cards"
    cards.append(["name", "kind", "soul_cost", "atk", "def"])
    cards.append(["Ember Imp", "monster", 0, 3, 2])
    workbook.create_sheet("Set").append(["ruleset", "souls"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    at = upload_cardset(new_app(), data=buffer.getvalue(), name="mine.xlsx")
    assert workspace(at).ruleset_id == "souls" and workspace(at).sheet.sheet_names == ["Cards", "Set"]


@pytest.mark.parametrize(
    ("name", "data", "says"),
    [
        ("broken.xlsx", b"this is not a workbook", "not an Excel workbook"),
        ("empty.csv", b"", "the file is empty"),
        ("binary.csv", b"\x00\x01\x02binary", "holds binary data"),
        ("noheader.csv", b",,\n1,2,3\n", "row 1 is empty"),
        ("souls.csv", b"kind,soul_cost,atk,def\nmonster,0,3,2\n", "required column name is missing"),
    ],
)
def test_a_broken_upload_is_refused_with_a_message_and_the_open_set_stays(name: str, data: bytes, says: str) -> None:
    at = new_app()
    before = workspace(at) if "workspace" in at.session_state else None
    upload_cardset(at, data=data, name=name)
    errors = [e.value for e in at.error]
    assert errors and says in errors[0] and name in errors[0]
    after = workspace(at) if "workspace" in at.session_state else None
    assert after is before


def test_an_undetectable_sheet_asks_for_the_ruleset_and_opens_once_it_is_picked() -> None:
    at = upload_cardset(new_app(), data=b"name,kind,text\nEmber Imp,monster,hot\n", name="plain.csv")
    assert "the game cannot be detected" in at.error[0].value
    assert "Pick the ruleset above" in shown_text(at)
    at.selectbox(key="cardset_upload_ruleset").set_value("souls")
    at.run()
    assert not at.error
    assert workspace(at).ruleset_id == "souls" and workspace(at).filename == "plain.csv"


def test_an_upload_is_not_reopened_on_every_rerun() -> None:
    at = upload_cardset(new_app(), SOULS_SMALL)
    opened = workspace(at)
    go(at, CARD_SETS)
    at.run()
    assert workspace(at) is opened


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_a_template_can_be_downloaded_for_every_ruleset(ruleset_id: str) -> None:
    at = new_app()
    at.selectbox(key="template_ruleset").set_value(ruleset_id)
    at.run()
    labels = [button.label for button in at.download_button]
    assert f"Download the {ruleset_id} template (.xlsx)" in labels
