"""Runs that do not stomp on each other, and a report download that shows it is being written (issue 30).

A designer presses Check game health on a long check, then Run simulation while it still runs. Streamlit stops the
check's page run to start the new one; before issue 30 the check's last bar ("Game health: 5,000 of 18,000
matches") stayed on screen for the whole simulation and the check's result was dropped without a word. Now the
check's place says it was interrupted, how far it got and how to run it again, and no bar of it is left.

Then the designer asks for the HTML report: before, the download button wrote the file on the click and showed
nothing for 3-14 s. Now *Prepare balance report (HTML)* writes it under a spinner that counts the seconds, and
*Download balance report (HTML)* saves it at once.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from browser.steps import RUN_TIMEOUT_MS, Browser, expect, go, idle, new_tab

expect.set_options(timeout=60_000)  # a page's first load on a busy machine takes longer than Playwright's 5 s


def _set_number(page: object, label: str, value: str) -> None:
    field = page.get_by_label(label, exact=True)  # type: ignore[attr-defined]
    field.fill(value)
    field.press("Enter")
    idle(page)  # type: ignore[arg-type]


def test_run_while_health_runs_says_the_check_was_interrupted_then_the_report_shows_its_writing(
    browser: Browser, app_url: str, tmp_path: Path
) -> None:
    with new_tab(browser, app_url, downloads=True) as page:
        go(page, "Balance")
        for label in ("Power curve", "Matchup matrix"):  # a quick simulation: the match of deck A against deck B
            if page.get_by_role("checkbox", name=label).is_checked():
                page.get_by_test_id("stCheckbox").filter(has_text=label).first.click()
                idle(page)
        _set_number(page, "Matches (A vs B, and per matchup)", "2000")
        _set_number(page, "Matches per pair of decks", "200000")  # a check that runs for minutes

        page.get_by_role("button", name="Check game health").click()
        health_bar = page.get_by_test_id("stProgress").filter(has_text="Game health:")
        expect(health_bar).to_be_visible(timeout=RUN_TIMEOUT_MS)  # past any engine load: playing matches
        expect(health_bar).to_contain_text(re.compile(r"\d+ s so far"))  # the time so far, always
        page.wait_for_timeout(1_500)
        page.get_by_role("button", name="Run simulation").click()

        notice = page.get_by_text("The game health check was interrupted")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("nothing from it was kept")
        expect(notice).to_contain_text("Press Check game health to run it again.")
        expect(health_bar).to_have_count(0)  # no bar of the stopped check is left, while the simulation runs
        expect(page.get_by_text("Done in")).to_be_visible(timeout=RUN_TIMEOUT_MS)
        expect(health_bar).to_have_count(0)
        page.get_by_text("Done in").scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "interrupted_health.png"))

        # The report: written on request under a spinner that counts, then saved at once.
        page.get_by_role("button", name="Prepare balance report (HTML)").click()
        seen_spinner = False
        deadline = time.monotonic() + 120
        download = page.get_by_role("button", name="Download balance report (HTML)")
        while download.count() == 0 and time.monotonic() < deadline:
            seen_spinner = (
                seen_spinner or page.get_by_test_id("stSpinner").filter(has_text="Writing the HTML").count() > 0
            )
            page.wait_for_timeout(100)
        expect(download).to_be_visible()
        written = page.get_by_text(re.compile(r"Written in (\d+\.\d) s · [\d,]+ KB\."))
        expect(written).to_be_visible()
        seconds = float(re.search(r"Written in (\d+\.\d) s", written.first.inner_text()).group(1))  # type: ignore[union-attr]
        if seconds >= 1.5:  # Streamlit shows a spinner half a second into its block: a quicker file may show none
            assert seen_spinner, "no spinner while the report was written"
        with page.expect_download() as event:
            download.click()
        saved = tmp_path / "report.html"
        event.value.save_as(saved)
        assert saved.read_text(encoding="utf-8").lstrip().lower().startswith(("<!doctype html", "<html"))
        idle(page)
        expect(page.get_by_test_id("stException")).to_have_count(0)
