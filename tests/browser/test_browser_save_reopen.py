"""Save as xlsx and open the saved workbook again, in a real browser: the cards and the decks come back.

Debian's chromium (Playwright) against `streamlit run`. A designer opens the
bundled souls set (a csv with a decks/ folder), adds a decklist of their own,
saves the set as xlsx from the card editor, uploads the saved file on the Card
sets page, and finds every card row and every decklist there, with the Balance
page ready to run (issue 12: "Save as xlsx, reopen: 47/47 rows, 0 decklists,
and Balance says 'Add decklists first'").
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from pathlib import Path

import openpyxl
import playwright.sync_api as playwright_api  # in the test extra: a missing install fails, never skips
import pytest
from browser import steps

from workbench.paths import REPO_ROOT, bundled_decks

Page = playwright_api.Page
expect = playwright_api.expect

ASHFALL = REPO_ROOT / "cardsets" / "souls" / "ashfall.csv"
RUN_TIMEOUT_MS = 300_000
"""A page run on a loaded machine (the Balance page may wait for an engine to load)."""
MY_DECK = "my rush"
MY_DECK_TEXT = (
    (ASHFALL.parent / "decks" / "ember_rush.txt")
    .read_text(encoding="utf-8")
    .replace("4 Cinder Whelp", "3 Cinder Whelp")
)
"""The bundled Ember Rush with one Cinder Whelp fewer: a deck the saved file can only have from this session."""
expect.set_options(timeout=steps.STEP_TIMEOUT_MS)


@pytest.fixture
def page(browser: playwright_api.Browser, app_url: str) -> Iterator[Page]:
    with steps.new_tab(browser, app_url, downloads=True) as tab:
        yield tab


def idle(page: Page) -> None:
    """Wait for the page to settle; the Balance page may wait for an engine to load."""
    steps.idle(page, RUN_TIMEOUT_MS)


def go(page: Page, title: str) -> None:
    steps.go(page, title, RUN_TIMEOUT_MS)


choose = steps.choose


def selectbox_options(page: Page, label: str) -> list[str]:
    """The options a selectbox offers, as a person sees them when it is opened (then closed again)."""
    page.get_by_test_id("stSelectbox").filter(has_text=label).first.click()
    options = page.get_by_role("option")
    expect(options.first).to_be_visible()
    texts = [text.strip() for text in options.all_inner_texts()]
    page.keyboard.press("Escape")
    return texts


def ashfall_names() -> list[str]:
    with ASHFALL.open(encoding="utf-8", newline="") as handle:
        return [row["name"] for row in csv.DictReader(handle)]


def test_save_as_xlsx_and_reopen_keeps_every_card_and_every_deck(page: Page, tmp_path: Path) -> None:
    names = ashfall_names()
    bundled = [path.stem for path in bundled_decks("souls")]
    decks = [*bundled, MY_DECK]

    # Open the bundled set: its cards and its decks/ folder.
    choose(page, "Bundled set", f"souls · {ASHFALL.name}")
    page.get_by_role("button", name="Open bundled set").click()
    expect(page.get_by_text(f"Opened {ASHFALL.name} with its souls decklists.")).to_be_visible()
    idle(page)

    # Add a decklist of one's own, pasted on the Decks page.
    go(page, "Decks")
    page.get_by_text("Add a decklist").first.click()
    page.get_by_label("Deck name").fill(MY_DECK)
    lines = page.get_by_label("Decklist lines")
    lines.fill(MY_DECK_TEXT)
    lines.press("Control+Enter")
    idle(page)
    page.get_by_role("button", name="Add decklist").click()
    expect(page.get_by_text(f"Added the decklist '{MY_DECK}'.")).to_be_visible()
    idle(page)
    expect(page.get_by_text("main: 29 cards")).to_be_visible()

    # Save as xlsx from the card editor.
    go(page, "Card editor")
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Save as xlsx").click()
    saved = tmp_path / download_info.value.suggested_filename
    download_info.value.save_as(saved)
    assert saved.suffix == ".xlsx"
    workbook = openpyxl.load_workbook(saved)
    cards = workbook["Cards"]
    assert [row[0] for row in cards.iter_rows(min_row=2, values_only=True)] == names  # every card row, in order
    assert "Decks" in workbook.sheetnames, f"the saved workbook has no Decks sheet: {workbook.sheetnames}"
    deck_rows = list(workbook["Decks"].iter_rows(values_only=True))
    assert [str(h).casefold() for h in deck_rows[0][:3]] == ["deck", "count", "name"]
    assert list(dict.fromkeys(row[0] for row in deck_rows[1:])) == decks
    assert sum(row[1] for row in deck_rows[1:] if row[0] == MY_DECK) == 29

    # Open the saved file again, as an upload.
    go(page, "Card sets")
    page.get_by_test_id("stFileUploader").locator("input[type=file]").first.set_input_files(str(saved))
    expect(page.get_by_text(f"Opened {saved.name} as a souls card set.")).to_be_visible()
    idle(page)
    expect(page.get_by_text(f"{len(names)} of {len(names)} card rows read · {len(decks)} decklists")).to_be_visible()
    expect(page.get_by_test_id("stSidebar").get_by_text(f"{len(names)} rows · {len(decks)} decklists")).to_be_visible()

    # Every decklist is there, read from the workbook's Decks sheet, and the pasted one kept its counts.
    go(page, "Decks")
    assert selectbox_options(page, "Decklist") == [f"{name} (from the workbook's Decks sheet)" for name in decks]
    choose(page, "Decklist", f"{MY_DECK} (from the workbook's Decks sheet)")
    expect(page.get_by_text("main: 29 cards")).to_be_visible()

    # The Balance page has decks to run with.
    go(page, "Balance")
    expect(page.get_by_text(re.compile("Add decklists"))).to_have_count(0)
    expect(page.get_by_role("button", name="Run simulation")).to_be_visible()
