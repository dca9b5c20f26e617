"""The app in a real browser: Debian's chromium driven by Playwright against `streamlit run` on a free local port.

Each test works in its own browser context (its own Streamlit session). Every
page is screenshotted into the test's output folder; set WORKBENCH_SCREENSHOTS
to a folder to get copies there too. Never `playwright install`: the browser
is the system's /usr/bin/chromium (`.ci/run` installs it).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import openpyxl
import playwright.sync_api as playwright_api  # in the test extra: a missing install fails, never skips
import pytest
from browser import steps

from workbench.paths import REPO_ROOT, bundled_decks, bundled_sets
from workbench.rulesets import RULESETS

Page = playwright_api.Page
expect = playwright_api.expect

SOULS_SMALL = REPO_ROOT / "tests" / "app" / "data" / "souls_small.csv"
PAGE_TITLES = {
    "Card sets": "card_sets",
    "Card editor": "card_editor",
    "Stat budget": "stat_budget",
    "Decks": "decks",
    "Balance": "balance",
    "Compare versions": "versions",
    "Rules": "rules",
}
SIMULATION_TIMEOUT_MS = steps.RUN_TIMEOUT_MS
expect.set_options(timeout=steps.STEP_TIMEOUT_MS)


@pytest.fixture
def page(browser: playwright_api.Browser, app_url: str) -> Iterator[Page]:
    with steps.new_tab(browser, app_url, 1500, 1000, downloads=True) as tab:
        yield tab


def idle(page: Page) -> None:
    """Wait for the page to settle; a simulation may first compile its engine."""
    steps.idle(page, SIMULATION_TIMEOUT_MS)


def go(page: Page, title: str) -> None:
    steps.go(page, title, SIMULATION_TIMEOUT_MS)


screenshot = steps.full_page_screenshot


def upload(page: Page, path: Path) -> None:
    page.get_by_test_id("stFileUploader").locator("input[type=file]").first.set_input_files(str(path))
    expect(page.get_by_text(f"Opened {path.name} as a")).to_be_visible()
    idle(page)


choose = steps.choose


def edit_cell(page: Page, row: int, column: int, text: str, attempts: int = 3) -> None:
    """Type into a grid cell: click the row's first column, arrow right `column` times, type, Enter.

    The grid is a canvas; its accessible twin (`#glide-cell-<column>-<row>`, column 0 = the row marker) says
    what each cell holds, so the edit is checked there and tried again if a rerun swallowed the keystrokes.
    """
    grid = page.get_by_test_id("stDataFrame").first
    cell = grid.locator(f"#glide-cell-{column + 1}-{row}")
    for _ in range(attempts):
        idle(page)
        canvas = grid.locator("canvas").first
        box = canvas.bounding_box()
        assert box is not None
        header, row_height, marker = 36, 35, 60
        page.mouse.click(box["x"] + marker, box["y"] + header + row_height * row + row_height / 2)
        for _ in range(column):
            page.keyboard.press("ArrowRight")
        page.keyboard.type(text)
        page.keyboard.press("Enter")
        idle(page)
        if (cell.text_content() or "").strip() == text:
            return
    raise AssertionError(f"the grid cell ({row}, {column}) did not take '{text}': it holds '{cell.text_content()}'")


def test_every_page_opens_in_the_browser(page: Page, tmp_path: Path) -> None:
    for title, name in PAGE_TITLES.items():
        go(page, title)
        expect(page.get_by_test_id("stException")).to_have_count(0)
        assert screenshot(page, tmp_path, f"page_{name}").stat().st_size > 10_000


def test_upload_edit_see_the_finding_and_download_the_saved_workbook(page: Page, tmp_path: Path) -> None:
    upload(page, SOULS_SMALL)
    screenshot(page, tmp_path, "flow_1_uploaded")
    go(page, "Card editor")
    page.get_by_role("tab", name="Findings").click()
    expect(page.get_by_text("No findings: every card fits its cost formula")).to_be_visible()
    page.get_by_role("tab", name="Cards").click()
    expect(page.locator("#glide-cell-2-0")).to_have_text("Ember Imp")
    # Grid columns after the row marker: row, name and soul_cost (pinned), kind, atk.
    # Ember Imp's Atk 3 -> 9 breaks the soul-cost table.
    edit_cell(page, row=0, column=4, text="9")
    expect(page.get_by_text("⚠ 1 warning").first).to_be_visible()
    page.get_by_test_id("stExpander").filter(has_text="Card shown:").locator("summary").click()
    preview = page.get_by_test_id("card-preview")
    expect(preview).to_contain_text("[souls.soul_cost] in soul_cost: soul cost 0 does not match the table")
    expect(preview).to_contain_text("(expected 2, got 0)")
    screenshot(page, tmp_path, "flow_2_finding")
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Save as xlsx").click()
    saved = tmp_path / download_info.value.suggested_filename
    download_info.value.save_as(saved)
    workbook = openpyxl.load_workbook(saved)
    cards = workbook["Cards"]
    header = [cell.value for cell in cards[1]]
    assert header == [
        "name",
        "kind",
        "soul_cost",
        "atk",
        "def",
        "abilities",
        "effect_weight",
        "element",
        "text",
        "artist",
    ]
    assert [cell.value for cell in cards[2]][:5] == ["Ember Imp", "monster", 0, 9, 2]
    assert cards.cell(row=2, column=10).value == "R. Vale"  # the column souls does not know is kept
    assert cards.max_row == 11
    assert dict(row for row in workbook["Set"].iter_rows(min_row=2, values_only=True))["ruleset"] == "souls"
    expect(page.get_by_test_id("card-preview")).to_be_visible()


def _simulated_set() -> Path | None:
    for ruleset_id, ruleset in RULESETS.items():
        if ruleset.engine_module is None or len(bundled_decks(ruleset_id)) < 2:
            continue
        sets = bundled_sets(ruleset_id)
        if sets:
            return sets[0]
    return None


def test_run_a_simulation_and_see_the_power_curve(page: Page, tmp_path: Path) -> None:
    path = _simulated_set()
    assert path is not None, "no registered ruleset has a match engine and two bundled decks"
    choose(page, "Bundled set", f"{path.parent.name} · {path.name}")
    page.get_by_role("button", name="Open bundled set").click()
    expect(page.get_by_text(f"Opened {path.name} with its")).to_be_visible()
    idle(page)
    go(page, "Balance")
    page.get_by_label("Matches (A vs B, and per matchup)", exact=True).fill("200")
    page.keyboard.press("Enter")
    idle(page)
    page.get_by_label("Matches per card (power curve)", exact=True).fill("20")
    page.keyboard.press("Enter")
    idle(page)
    page.get_by_role("button", name="Run simulation").click()
    expect(page.get_by_text("Done in")).to_be_visible(timeout=SIMULATION_TIMEOUT_MS)
    idle(page)
    expect(page.get_by_test_id("stMetric").first).to_be_visible()
    screenshot(page, tmp_path, "balance_1_match")
    page.get_by_role("tab", name="Power curve").click()
    chart = page.get_by_test_id("stPlotlyChart").filter(has_text="Power curve: change in win rate against cost")
    expect(chart).to_be_visible()
    expect(chart.locator(".scatterlayer .point").first).to_be_visible()
    screenshot(page, tmp_path, "balance_2_power_curve")
    page.get_by_role("tab", name="Matchups").click()
    expect(page.get_by_test_id("stPlotlyChart").filter(has_text="Matchups")).to_be_visible()
    screenshot(page, tmp_path, "balance_3_matchups")
    page.get_by_role("tab", name="Trace").click()
    expect(page.get_by_text("Result:", exact=False).first).to_be_visible()
    screenshot(page, tmp_path, "balance_4_trace")


def test_a_long_run_can_be_cancelled(page: Page, tmp_path: Path) -> None:
    path = _simulated_set()
    assert path is not None, "no registered ruleset has a match engine and two bundled decks"
    choose(page, "Bundled set", f"{path.parent.name} · {path.name}")
    page.get_by_role("button", name="Open bundled set").click()
    idle(page)
    go(page, "Balance")
    page.get_by_label("Matches (A vs B, and per matchup)", exact=True).fill("1000000")
    page.keyboard.press("Enter")
    idle(page)
    page.get_by_role("button", name="Run simulation").click()
    expect(page.get_by_text("of 1,000,000 matches")).to_be_visible(timeout=SIMULATION_TIMEOUT_MS)
    screenshot(page, tmp_path, "balance_5_running")
    page.get_by_role("button", name="Cancel").click()
    expect(page.get_by_text("The run was cancelled; nothing from it was kept.")).to_be_visible()
    idle(page)
    expect(page.get_by_test_id("stMetric")).to_have_count(0)


def test_clicking_a_card_on_the_stat_budget_chart_opens_it_in_the_editor(page: Page, tmp_path: Path) -> None:
    upload(page, SOULS_SMALL)
    go(page, "Stat budget")
    chart = page.get_by_test_id("stPlotlyChart").first
    expect(chart.locator(".scatterlayer .point").first).to_be_visible()
    screenshot(page, tmp_path, "stat_budget_chart")
    drake = chart.locator(".scatterlayer .trace").nth(1).locator(".point").last  # the monsters' last point
    box = drake.bounding_box()
    assert box is not None
    # Plotly picks the clicked point from its hover state, so hover first, then click in place.
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_timeout(500)
    page.mouse.down()
    page.mouse.up()
    expect(page.get_by_role("heading", name="Card editor", level=1)).to_be_visible()
    idle(page)
    expect(page.get_by_test_id("card-preview")).to_contain_text("Ancient Drake")
