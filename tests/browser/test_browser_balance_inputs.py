"""The Balance page in a real browser: a count typed out of range is refused where it is typed, and the power table
marks the filler as the baseline with no "None" in it.

Debian's chromium driven by Playwright against `streamlit run` (see conftest.py); never `playwright install`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import playwright.sync_api as playwright_api  # in the test extra: a missing install fails, never skips
import pytest
from browser import steps

from workbench.paths import bundled_sets

Page = playwright_api.Page
expect = playwright_api.expect

STEP_TIMEOUT_MS = steps.STEP_TIMEOUT_MS
SIMULATION_TIMEOUT_MS = steps.RUN_TIMEOUT_MS
SOULS = bundled_sets("souls")[0]
"""The bundled souls set: its reference deck's filler is Cinder Whelp."""
expect.set_options(timeout=STEP_TIMEOUT_MS)


@pytest.fixture
def page(browser: playwright_api.Browser, app_url: str) -> Iterator[Page]:
    with steps.new_tab(browser, app_url, 1500, 1000) as tab:
        yield tab


def _idle(page: Page, timeout: int = SIMULATION_TIMEOUT_MS) -> None:
    steps.idle(page, timeout)


def _open_souls_balance(page: Page) -> None:
    page.get_by_test_id("stSelectbox").filter(has_text="Bundled set").first.click()
    page.get_by_role("option", name=f"souls · {SOULS.name}").first.click()
    _idle(page)
    page.get_by_role("button", name="Open bundled set").click()
    expect(page.get_by_text(f"Opened {SOULS.name}")).to_be_visible()
    _idle(page)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Balance").click()
    expect(page.get_by_role("heading", name="Balance", level=1)).to_be_visible()
    _idle(page)


def _type(page: Page, label: str, text: str) -> None:
    """Type into a number field and press Enter, as a person does."""
    field = page.get_by_label(label, exact=True)  # not the "Help for ..." button beside it
    field.fill(text)
    field.press("Enter")
    _idle(page)


def test_a_count_typed_out_of_range_is_refused_before_run(page: Page, tmp_path: Path) -> None:
    _open_souls_balance(page)
    run = page.get_by_role("button", name="Run simulation")
    expect(run).to_be_enabled()
    _type(page, "Matches (A vs B, and per matchup)", "2000000")
    expect(
        page.get_by_text("Matches (A vs B, and per matchup): 2,000,000 is outside the limit, 10 to 1,000,000.")
    ).to_be_visible()
    expect(run).to_be_disabled()  # it cannot run with the old value while the field shows the new one
    page.screenshot(path=str(tmp_path / "balance_out_of_range.png"), full_page=True)
    _type(page, "Matches (A vs B, and per matchup)", "200")
    expect(page.get_by_text("is outside the limit")).to_have_count(0)
    expect(run).to_be_enabled()


def test_the_power_table_marks_the_filler_as_the_baseline(page: Page, tmp_path: Path) -> None:
    _open_souls_balance(page)
    _type(page, "Matches (A vs B, and per matchup)", "100")
    _type(page, "Matches per card (power curve)", "30")
    page.get_by_role("button", name="Run simulation").click()
    expect(page.get_by_text("Done in")).to_be_visible(timeout=SIMULATION_TIMEOUT_MS)
    _idle(page)
    page.get_by_role("tab", name="Power curve").click()
    chart = page.get_by_test_id("stPlotlyChart").filter(has_text="Power curve: change in win rate against cost")
    expect(chart.get_by_text("baseline (filler, power 0 by construction)")).to_be_visible()  # the legend
    table = page.get_by_test_id("stDataFrame").filter(has_text="suggested cost").first
    # The grid is a canvas; its accessible twin holds each cell's text. The baseline row is listed last.
    # The baseline is listed last: scroll the table to its end, as a person does (the grid draws the rows in view).
    table.scroll_into_view_if_needed()
    box = table.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, 5_000)
    page.wait_for_timeout(500)
    # Every other row's note says "replaces Cinder Whelp": the filler's own row is the one whose card cell is it.
    row = table.locator("tr").filter(has=page.locator("td", has_text=re.compile(r"^Cinder Whelp$")))
    expect(row).to_contain_text("baseline")
    cells = [text.strip() for text in row.locator("td").all_text_contents()]
    # card, cost, power, low, high, flag, stability, q, detectable, matches to decide, suggested cost, played, ...:
    # no suggested cost for the baseline. The accessible twin holds an empty cell; the canvas draws the placeholder
    # "—" there (see the screenshot).
    assert cells[5] == "baseline" and cells[10] == "", cells
    expect(table).not_to_contain_text("None")
    table.screenshot(path=str(tmp_path / "balance_baseline_table.png"))
    chart.screenshot(path=str(tmp_path / "balance_baseline_chart.png"))


def _pick(page: Page, label: str, option: str) -> None:
    """Pick `option` in the select box labelled `label` as a person does: its arrow opens the list (a click on the
    label's text of a two-line label would open nothing), then the option. A select that appeared with the page's
    last run (the search's own boxes) only takes the focus on the first click in Chromium, so a person clicks again
    when no list opened: so does this."""
    widget = page.get_by_test_id("stSelectbox").filter(has=page.get_by_role("combobox", name=label, exact=True))
    options = page.get_by_role("option", name=option, exact=True)
    for _ in range(2):
        widget.get_by_role("button", name="Open").click()
        try:
            options.first.wait_for(state="visible", timeout=2_000)
            break
        except playwright_api.TimeoutError:
            continue
    options.first.click()
    _idle(page)
    expect(page.get_by_role("combobox", name=label, exact=True)).to_have_value(option)


def test_search_s_own_settings_are_typed_twice_and_the_run_names_the_last(page: Page, tmp_path: Path) -> None:
    # A designer picks search for deck A, types a rollout depth, changes their mind and types another, has the
    # rollouts played by random, then scrolls to Run: the provenance names the settings that played, the command
    # line's --policy search:depth=2:rollout_policy=random.
    _open_souls_balance(page)
    for label in ("Power curve", "Matchup matrix"):  # the match of deck A against deck B alone
        if page.get_by_role("checkbox", name=label).is_checked():
            page.get_by_test_id("stCheckbox").filter(has_text=label).first.click()
            _idle(page)
    _type(page, "Matches (A vs B, and per matchup)", "40")
    _pick(page, "Deck A's policy", "search")
    depth = "Deck A's policy: rollout depth (turns)"
    expect(page.get_by_label(depth, exact=True)).to_be_visible()
    _type(page, depth, "0")
    _type(page, depth, "2")
    expect(page.get_by_label(depth, exact=True)).to_have_value("2")
    _pick(page, "Deck A's policy: rollouts played by", "random")
    run = page.get_by_role("button", name="Run simulation")
    run.scroll_into_view_if_needed()
    run.click()
    expect(page.get_by_text("Done in")).to_be_visible(timeout=SIMULATION_TIMEOUT_MS)
    _idle(page)
    expect(page.get_by_text("search:depth=2:rollout_policy=random").first).to_be_visible()
    expect(page.get_by_text("search:depth=0")).to_have_count(0)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    page.screenshot(path=str(tmp_path / "balance_search_settings.png"), full_page=True)
