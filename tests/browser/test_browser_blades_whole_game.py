"""Millennium Blades' whole game in a real browser: rule option game=full, the power curve on the buy-cost axis run
from its tab, its chart and verdict table shown, and the result still there after moving to another tab and back.

The games are kept small (two seats under the 3-5 player rules, two market actions a timer segment, six games per
card) so the run takes seconds once the market engine is compiled; six games a card make more than the runner's
`PARALLEL_GAMES` in all, so the run goes to the worker processes the app's server starts (spawned from its threads),
as the power curve at the defaults does. The figures themselves are checked against `workbench.full_game` in
tests/app/test_app_balance_blades_full_game.py, and the same on one process or many in tests/test_full_game.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import playwright.sync_api as playwright_api  # in the test extra: a missing install fails, never skips
import pytest
from browser import steps

from workbench.app.full_game_view import POWER_TAB, SWEEP_TAB
from workbench.cards import OptionValue
from workbench.full_game import store_cards_of
from workbench.loading import load_cardset
from workbench.paths import bundled_sets
from workbench.rulesets.blades.market_runs import PARALLEL_GAMES

GAMES_PER_CARD = 6
"""Whole games per store card: with the sample's store, more than `PARALLEL_GAMES` in all (checked below)."""

Page = playwright_api.Page
Locator = playwright_api.Locator
expect = playwright_api.expect
expect.set_options(timeout=steps.STEP_TIMEOUT_MS)


@pytest.fixture
def page(browser: playwright_api.Browser, app_url: str) -> Iterator[Page]:
    with steps.new_tab(browser, app_url, 1500, 1000) as tab:
        yield tab


def _option(page: Page, test_id: str, label: str) -> Locator:
    """The rule-option widget whose label is exactly `label` (`game` is also inside `metagame`)."""
    return page.get_by_test_id(test_id).filter(has=page.get_by_text(label, exact=True)).first


def _set_number(page: Page, label: str, value: int) -> None:
    box = _option(page, "stNumberInput", label).locator("input")
    box.scroll_into_view_if_needed()
    box.fill(str(value))
    page.keyboard.press("Enter")
    steps.idle(page)


def _pick(page: Page, label: str, choice: str) -> None:
    widget = _option(page, "stSelectbox", label)
    widget.scroll_into_view_if_needed()
    widget.click()
    page.get_by_role("option", name=choice, exact=True).first.click()
    steps.idle(page)


def test_the_whole_game_power_curve_runs_from_its_tab_and_stays_after_moving_away(page: Page, tmp_path: Path) -> None:
    sets = bundled_sets("blades")
    assert sets, "no bundled Millennium Blades set"
    path = sets[0]
    small: dict[str, OptionValue] = {"players": 2, "market_actions": 2, "two_player_rules": "normal"}
    assert GAMES_PER_CARD * (len(store_cards_of(load_cardset(path), small)) + 1) >= PARALLEL_GAMES
    steps.choose(page, "Bundled set", f"{path.parent.name} · {path.name}")
    page.get_by_role("button", name="Open bundled set").click()
    expect(page.get_by_text(f"Opened {path.name} with its")).to_be_visible()
    steps.go(page, "Balance", steps.RUN_TIMEOUT_MS)

    expander = page.get_by_test_id("stExpander").filter(has_text="Rule options for the simulation").first
    expander.locator("summary").scroll_into_view_if_needed()
    expander.locator("summary").click()
    steps.idle(page)
    _pick(page, "game", "full")
    expect(page.get_by_text("Rule option game=full: whole games from the card sheet alone")).to_be_visible()
    _set_number(page, "players", 2)
    _set_number(page, "market_actions", 2)
    _pick(page, "two_player_rules", "normal")

    page.get_by_role("tab", name=POWER_TAB).click()
    steps.idle(page)
    games = page.get_by_label("Whole games per card", exact=True)
    games.scroll_into_view_if_needed()
    games.fill(str(GAMES_PER_CARD))
    page.keyboard.press("Enter")
    steps.idle(page)
    run = page.get_by_role("button", name="Run the power curve")
    run.scroll_into_view_if_needed()
    run.click()
    expect(page.get_by_text("Done in")).to_be_visible(timeout=steps.RUN_TIMEOUT_MS)
    steps.idle(page, steps.RUN_TIMEOUT_MS)

    chart = page.get_by_test_id("stPlotlyChart").filter(has_text="Power in the whole game on the buy-cost axis")
    chart.scroll_into_view_if_needed()
    expect(chart).to_be_visible()
    expect(chart).to_contain_text(f"{GAMES_PER_CARD} games per card")
    expect(chart.locator(".scatterlayer .point").first).to_be_visible()
    expect(page.get_by_text("mean final VP with the card's copies in the store minus").first).to_be_visible()
    table = page.get_by_test_id("stDataFrame").first
    table.scroll_into_view_if_needed()
    expect(table).to_be_visible()
    steps.full_page_screenshot(page, tmp_path, "blades_whole_game_power")

    # Another tab and back: the result is kept for these settings, not lost and not run again.
    page.get_by_role("tab", name=SWEEP_TAB).click()
    steps.idle(page)
    expect(page.get_by_role("button", name="Run sweep")).to_be_visible()
    page.get_by_role("tab", name=POWER_TAB).click()
    steps.idle(page)
    expect(chart).to_be_visible()
    expect(page.get_by_text("Press Run the power curve.")).to_have_count(0)
