"""Cancel in a real browser ends a run within a second, at the largest turn cap.

A circles set whose every match runs to the cap (Colossus costs more red than the deck's ten Rubies give, so nobody
attacks) is uploaded, `turn_cap` is set to 10,000 on the Rules page, and the Balance page runs 1,000,000 matches
(about 19 ms each). Three seconds into the run, Cancel is clicked; the time until the page says the run was
cancelled is the figure (it includes the page's own rerun after the click). Before pieces, a run stopped only at
the end of a batch of 1,000 matches: 17.5 s (one process) to 31.4 s (two) after the cancel.
"""

from __future__ import annotations

import io
import time
from pathlib import Path

import openpyxl
from browser.steps import RUN_TIMEOUT_MS, Browser, expect, go, idle, new_tab

CANCEL_WITHIN_SECONDS = 3.0
"""Cancel to the page's message: the run stops within 0.25 s of the click reaching the server (one piece; measured
0.24 s without a browser, tests/hardening/test_hardening_parameters.py), and the page then runs again from its top
before it can say so, which on this two-core machine under a load of 5 took about 2 s (measured 2.28 s)."""
expect.set_options(timeout=60_000)  # a page's first load on a busy machine takes longer than Playwright's 5 s


def _stalled_set(folder: Path) -> Path:
    book = openpyxl.Workbook()
    cards = book.active
    cards.title = "Cards"
    for row in (
        ["name", "kind", "color", "red", "blue", "green", "attack", "health"],
        ["Colossus", "character", "", 11, 0, 0, 9, 9],
        ["Ruby", "resource", "red", None, None, None, None, None],
    ):
        cards.append(row)
    info = book.create_sheet("Set")
    for row in (["key", "value"], ["ruleset", "circles"], ["name", "Stalled"]):
        info.append(row)
    decks = book.create_sheet("Decks")
    for row in (["deck", "count", "name"], ["stall", 20, "Colossus"], ["stall", 10, "Ruby"]):
        decks.append(row)
    out = io.BytesIO()
    book.save(out)
    path = folder / "stalled.xlsx"
    path.write_bytes(out.getvalue())
    return path


def test_cancel_ends_a_run_at_turn_cap_10000_within_a_second(browser: Browser, app_url: str, tmp_path: Path) -> None:
    with new_tab(browser, app_url) as page:
        page.get_by_test_id("stFileUploader").locator("input[type=file]").first.set_input_files(
            str(_stalled_set(tmp_path))
        )
        idle(page)
        expect(page.get_by_role("heading", name="Open: Stalled")).to_be_visible()
        go(page, "Rules")
        page.get_by_role("tab", name="circles (open set)").click()
        cap = page.get_by_label("turn_cap", exact=True).first  # the open set's tab comes first
        cap.fill("10000")
        cap.press("Enter")
        idle(page)
        go(page, "Balance")
        for label in ("Power curve", "Matchup matrix"):
            if page.get_by_role("checkbox", name=label).is_checked():
                page.get_by_test_id("stCheckbox").filter(has_text=label).first.click()  # a person clicks the label
                idle(page)
            expect(page.get_by_role("checkbox", name=label)).not_to_be_checked()
        matches = page.get_by_label("Matches (A vs B, and per matchup)", exact=True)
        matches.fill("1000000")
        matches.press("Enter")
        idle(page)
        page.get_by_role("button", name="Run simulation").click()
        # The run has started once its progress bar says it is in the match phase (after any engine load).
        expect(page.get_by_test_id("stProgress").filter(has_text="Match")).to_be_visible(timeout=RUN_TIMEOUT_MS)
        page.wait_for_timeout(3_000)
        clicked = time.monotonic()
        page.get_by_role("button", name="Cancel").click()
        expect(page.get_by_text("The run was cancelled; nothing from it was kept.")).to_be_visible(timeout=60_000)
        seconds = time.monotonic() - clicked
        print(f"Cancel to 'The run was cancelled': {seconds:.2f} s")
        assert seconds < CANCEL_WITHIN_SECONDS, f"Cancel took {seconds:.2f} s"
