"""A card renamed in the grid takes its decks with it, in a real browser, through Save as xlsx and back (issue 30).

Debian's chromium (Playwright) at 1440x900 against `streamlit run`. A designer opens the bundled souls set
ashfall.csv, whose three decklists all play Lantern Sprite, renames the card in the editor's grid as a hand does
(`test_browser_editor.Grid.hand_edit`), reads on the editor that the decks followed, finds ember_rush on the Decks
page at 30 cards with no finding, saves the set as xlsx, finds the new name in the saved Decks sheet, and opens the
saved file again with its decks whole (the trial: "Decks shows ember_rush at 27 cards with an error, and Save as
xlsx writes the old name into the Decks sheet").
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import openpyxl
import playwright.sync_api as playwright_api  # in the test extra: a missing install fails, never skips
import pytest
from browser import steps
from browser.test_browser_editor import VIEWPORT, Grid, card_shown, open_ashfall, screenshot

Page = playwright_api.Page
expect = playwright_api.expect

LANTERN_SPRITE = 2
"""Lantern Sprite's place in ashfall.csv's grid (sheet row 4); ember_rush plays 3, plague_court 2, stone_bastion 3."""
NEW_NAME = "Glow Wisp"
FOLLOWED = f"Lantern Sprite renamed to {NEW_NAME}; decks ember_rush, plague_court, stone_bastion follow."
expect.set_options(timeout=steps.STEP_TIMEOUT_MS)
idle, go, choose = steps.idle, steps.go, steps.choose


@pytest.fixture
def page(browser: playwright_api.Browser, app_url: str) -> Iterator[Page]:
    with steps.new_tab(browser, app_url, VIEWPORT["width"], VIEWPORT["height"], downloads=True) as tab:
        yield tab


def no_deck_errors(page: Page) -> None:
    expect(page.get_by_text("Decks with errors")).to_have_count(0)


def test_a_card_renamed_in_the_grid_is_renamed_in_its_decks_and_the_saved_decks_sheet(
    page: Page, tmp_path: Path
) -> None:
    open_ashfall(page)
    grid = Grid(page)
    expect(grid.cell("name", LANTERN_SPRITE)).to_have_text("Lantern Sprite")
    grid.hand_edit(LANTERN_SPRITE, "name", NEW_NAME)
    expect(card_shown(page)).to_contain_text(f"row {LANTERN_SPRITE + 2} · {NEW_NAME} · ✓")
    expect(page.get_by_text(FOLLOWED)).to_be_visible()
    no_deck_errors(page)
    screenshot(page, tmp_path, "renamed_in_the_grid")

    # The Decks page: ember_rush (shown first) names the new name, 30 cards, no finding.
    go(page, "Decks")
    expect(page.get_by_label("Decklist text")).to_contain_text(f"3 {NEW_NAME}")
    expect(page.get_by_text("main: 30 cards")).to_be_visible()
    expect(page.get_by_text("No findings: the deck keeps every construction rule.")).to_be_visible()
    screenshot(page, tmp_path, "decks_after_the_rename")
    go(page, "Card sets")
    no_deck_errors(page)

    # Save as xlsx from the card editor: the Decks sheet names the new name, with the counts.
    go(page, "Card editor")
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Save as xlsx").click()
    saved = tmp_path / download_info.value.suggested_filename
    download_info.value.save_as(saved)
    rows = list(openpyxl.load_workbook(saved)["Decks"].iter_rows(min_row=2, values_only=True))
    assert {(row[0], row[1]) for row in rows if row[2] == NEW_NAME} == {
        ("ember_rush", 3),
        ("plague_court", 2),
        ("stone_bastion", 3),
    }
    assert not [row for row in rows if "Lantern Sprite" in row], "the saved Decks sheet still names Lantern Sprite"

    # Opened again, the decks come from the saved Decks sheet, whole.
    go(page, "Card sets")
    page.get_by_test_id("stFileUploader").locator("input[type=file]").first.set_input_files(str(saved))
    expect(page.get_by_text(f"Opened {saved.name} as a souls card set.")).to_be_visible()
    idle(page)
    no_deck_errors(page)
    go(page, "Decks")
    choose(page, "Decklist", "ember_rush (from the workbook's Decks sheet)")
    expect(page.get_by_label("Decklist text")).to_contain_text(f"3 {NEW_NAME}")
    expect(page.get_by_text("main: 30 cards")).to_be_visible()
    expect(page.get_by_text("No findings: the deck keeps every construction rule.")).to_be_visible()
    screenshot(page, tmp_path, "reopened_decks")
