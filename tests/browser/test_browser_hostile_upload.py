"""A hostile upload in one session leaves another session's first page quick (issue 37).

Before issue 37 a styles.xml with 3 million cell formats (a 13.8 MB workbook) was read whole: 140 s and two 3.7 GB
peaks in the server, and another session's first page took 29.6 s (2.2 s alone). Now the styles part is refused as
soon as it passes its limit (`workbench.limits`, `styles`). One server, two sessions: session 1 uploads the hostile
workbook on the Card sets page; while the server reads it, session 2 opens the app, and its first page must be
drawn within 5 seconds. Session 1 must then show the refusal in words, not a traceback.
"""

from __future__ import annotations

import time
from pathlib import Path

import playwright.sync_api as playwright_api  # in the test extra: a missing install fails, never skips
from browser.steps import idle, new_tab
from hardening import structure_inputs

Browser = playwright_api.Browser
expect = playwright_api.expect

FIRST_PAGE_SECONDS = 5.0
"""The issue's bound on the other session's first page."""
CELL_FORMATS = 3_000_000
"""The issue's case: 3M cellXfs in styles.xml."""


def test_a_hostile_upload_in_one_session_leaves_another_sessions_first_page_quick(
    app_url: str, browser: Browser, tmp_path: Path
) -> None:
    hostile = structure_inputs.many_cell_formats(tmp_path / "hostile_styles.xlsx", CELL_FORMATS)
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        with new_tab(browser, app_url) as first:
            second = context.new_page()
            first.get_by_test_id("stFileUploader").locator("input[type=file]").first.set_input_files(str(hostile))
            # The upload is on its way to the server, which reads it in session 1's script run.
            started = time.monotonic()
            second.goto(app_url)
            expect(second.get_by_role("heading", name="Card sets", level=1)).to_be_visible(
                timeout=int(FIRST_PAGE_SECONDS * 1000)
            )
            elapsed = time.monotonic() - started
            print(f"the other session's first page: {elapsed:.2f} s")  # shown with pytest -s
            assert elapsed < FIRST_PAGE_SECONDS, f"the other session's first page took {elapsed:.1f} s"
            idle(first, 120_000)
            text = first.locator("[data-testid=stMain]").inner_text()
            assert "style" in text.casefold() and "limit" in text.casefold(), text[:2000]
            expect(first.get_by_test_id("stException")).to_have_count(0)
    finally:
        context.close()
