"""Two designers on one app at once: separate browser sessions never see each other's cards or results.

One `streamlit run` server; one chromium with two browser contexts (two
Streamlit sessions) driven concurrently through Playwright's async API
(its sync API must not be shared between threads). Session 1 uploads the
bundled souls set, session 2 the bundled circles set; each adds two of its
game's bundled decklists on the Decks page (one pasted, one uploaded as a
file) and both press Run simulation on the Balance page together. Each
session's Card sets, Card editor, Decks and Balance pages (provenance
caption, trace, power-curve table) are checked for its own cards, ruleset
and decks and for the absence of every card only the other set has; once
both runs are over, each session's editor and kept result are checked again.
Screenshots go to the test's folder, and to WORKBENCH_SCREENSHOTS when set.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import playwright.async_api as playwright_async  # in the test extra: a missing install fails, never skips

from workbench.loading import cardset_from_table, choose_ruleset
from workbench.paths import bundled_decks, bundled_sets
from workbench.rulesets import get_ruleset
from workbench.spreadsheets import read_sheet

Page = playwright_async.Page
Locator = playwright_async.Locator
expect = playwright_async.expect

STEP_TIMEOUT_MS = 120_000
"""Generous: the other session's script (or its engine's Numba compile) shares the server's two cores."""
SIMULATION_TIMEOUT_MS = 900_000
"""A first simulation compiles the engine's kernels with Numba (minutes on a slow machine; cached afterwards)."""
MATCHES = 200
MATCHES_PER_CARD = 20
SEED = 0
expect.set_options(timeout=STEP_TIMEOUT_MS)


@dataclass
class SessionPlan:
    """What one designer does: the card set they upload and the two decklists they add."""

    number: int
    """1 or 2 (names the screenshots)."""
    ruleset_id: str
    """The ruleset of the set uploaded."""
    sheet: Path
    """The card sheet uploaded on the Card sets page."""
    pasted_deck: Path
    """A bundled decklist whose text is pasted on the Decks page."""
    uploaded_deck: Path
    """A bundled decklist uploaded as a file on the Decks page."""
    card_names: list[str] = field(default_factory=list)
    """Every card name of the sheet."""
    other_ruleset_id: str = ""
    """The other session's ruleset."""
    foreign_names: list[str] = field(default_factory=list)
    """Card names of the other session's set that appear nowhere in this session's sheet or decklists."""
    run_clicked: float = 0.0
    """time.monotonic() when Run simulation was pressed."""
    done_seen: float = 0.0
    """time.monotonic() when the run's 'Done in' message was seen."""

    @property
    def own_text(self) -> str:
        """Everything this session uploads or pastes (a foreign name found in it is not unique to the other set)."""
        return "\n".join(
            path.read_text(encoding="utf-8") for path in (self.sheet, self.pasted_deck, self.uploaded_deck)
        )


def _plan(number: int, ruleset_id: str) -> SessionPlan:
    sheet = bundled_sets(ruleset_id)[0]
    decks = [path for path in bundled_decks(ruleset_id) if path.suffix == ".txt"]
    assert len(decks) >= 2, f"the {ruleset_id} ruleset needs two bundled .txt decklists for this test"
    table = read_sheet(sheet.name, data=sheet.read_bytes(), filename=sheet.name)
    cardset = cardset_from_table(table, choose_ruleset(table, None))
    assert cardset.ruleset.id == ruleset_id, f"{sheet.name} is detected as {cardset.ruleset.id}, not {ruleset_id}"
    return SessionPlan(number, ruleset_id, sheet, decks[0], decks[1], card_names=list(cardset.names))


def _found(names: list[str], text: str) -> list[str]:
    return [name for name in names if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text)]


def _plans() -> tuple[SessionPlan, SessionPlan]:
    first, second = _plan(1, "souls"), _plan(2, "circles")
    for own, other in ((first, second), (second, first)):
        own.other_ruleset_id = other.ruleset_id
        shared = _found(other.card_names, own.own_text)
        own.foreign_names = [name for name in other.card_names if name not in shared]
        assert len(own.foreign_names) >= 10, f"{own.sheet.name} and {other.sheet.name} share too many card names"
    return first, second


async def idle(page: Page) -> None:
    """Wait until no script run is in progress (Streamlit shows its status widget only while running)."""
    await page.wait_for_timeout(300)
    await expect(page.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=SIMULATION_TIMEOUT_MS)
    await expect(page.get_by_test_id("stException")).to_have_count(0)


async def go(page: Page, title: str) -> None:
    """Move to a page through the sidebar (a new URL would start a new session)."""
    await page.get_by_test_id("stSidebarNav").get_by_role("link", name=title).click()
    await expect(page.get_by_role("heading", name=title, level=1)).to_be_visible()
    await idle(page)


TEXT_NODES_JS = """(root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const parts = [];
    while (walker.nextNode()) parts.push(walker.currentNode.nodeValue);
    return parts.join("\\n");
}"""


async def text_of(element: Locator) -> str:
    """Every text node under the element, one per line, drawn or not (inactive tabs, the grids' accessible twins).

    Not `text_content()`: it runs neighbouring grid cells together ("Cinder Whelpmonster"), hiding whole names.
    """
    return str(await element.evaluate(TEXT_NODES_JS))


async def page_text(page: Page) -> str:
    """Every text of the page, the sidebar included."""
    return await text_of(page.locator("body"))


async def screenshot(page: Page, folder: Path, name: str) -> Path:
    """A full-page screenshot into the test's folder, copied to WORKBENCH_SCREENSHOTS when set."""
    path = folder / f"{name}.png"
    # Streamlit scrolls inside its main block, not the page, so grow the window to the content for the picture.
    height = await page.evaluate(
        "() => Math.max(document.body.scrollHeight, ...Array.from(document.querySelectorAll("
        "'[data-testid=stMain], [data-testid=stMainBlockContainer]')).map(e => e.scrollHeight))"
    )
    size = page.viewport_size
    assert size is not None
    await page.set_viewport_size({"width": size["width"], "height": min(max(int(height) + 40, size["height"]), 8000)})
    await page.wait_for_timeout(400)
    await page.screenshot(path=str(path), full_page=True)
    await page.set_viewport_size(size)
    if target := os.environ.get("WORKBENCH_SCREENSHOTS"):
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(target) / path.name)
    return path


def assert_only_own_cards(plan: SessionPlan, text: str, where: str) -> None:
    leaked = _found(plan.foreign_names, text)
    assert not leaked, f"session {plan.number} ({plan.ruleset_id}) shows the other session's cards on {where}: {leaked}"


async def open_add_decklist(page: Page, method: str, attempts: int = 4) -> None:
    """Open the Decks page's 'Add a decklist' box and pick how to add.

    The box is drawn open only while the set has no decklist, and a rerun may fold it again while the page
    settles, so it is opened (again) until the choice is clicked.
    """
    box = page.get_by_test_id("stExpander").filter(has_text="Add a decklist")
    choice = box.get_by_test_id("stRadio").get_by_text(method, exact=True)
    for _ in range(attempts):
        await idle(page)
        if await box.get_by_test_id("stExpanderDetails").get_attribute("inert") is not None:
            await box.locator("summary").click()
        try:
            await choice.click(timeout=15_000)
        except playwright_async.TimeoutError:
            continue
        await idle(page)
        return
    raise AssertionError(f"the Decks page's 'Add a decklist' box did not open to '{method}'")


async def prepare(page: Page, plan: SessionPlan, folder: Path) -> None:
    """Upload the set, check what the Card sets page and the Card editor show, add both decklists, set up the run."""
    ruleset = get_ruleset(plan.ruleset_id)
    await page.get_by_test_id("stFileUploader").locator("input[type=file]").first.set_input_files(str(plan.sheet))
    await expect(page.get_by_text(f"Opened {plan.sheet.name} as a {plan.ruleset_id} card set.")).to_be_visible()
    await idle(page)
    main = page.get_by_test_id("stMain")
    await expect(main.get_by_role("heading", name=f"Open: {plan.sheet.stem}")).to_be_visible()
    await expect(main).to_contain_text(f"({plan.ruleset_id} v{ruleset.version}) · from {plan.sheet.name} (uploaded)")
    assert_only_own_cards(plan, await page_text(page), "the Card sets page")

    await go(page, "Card editor")
    grid = page.get_by_test_id("stDataFrame").first
    await expect(grid).to_contain_text(plan.card_names[0])
    # The card shown sits in a panel above the grid, closed until a person opens it.
    await page.get_by_test_id("stExpander").filter(has_text="Card shown:").locator("summary").click()
    await expect(page.get_by_test_id("card-preview")).to_contain_text(plan.card_names[0])
    text = await page_text(page)
    shown = _found(plan.card_names, text)
    assert len(shown) >= 5, f"session {plan.number}'s card editor shows too few of its own cards: {shown}"
    assert_only_own_cards(plan, text, "the Card editor")
    await screenshot(page, folder, f"sessions_{plan.number}_{plan.ruleset_id}_editor")

    await go(page, "Decks")
    await open_add_decklist(page, "Paste text")
    name_box = page.get_by_label("Deck name")
    await name_box.fill(plan.pasted_deck.stem)
    await name_box.press("Enter")
    await idle(page)
    lines_box = page.get_by_label("Decklist lines")
    await lines_box.fill(plan.pasted_deck.read_text(encoding="utf-8"))
    await lines_box.press("Control+Enter")
    await idle(page)
    await page.get_by_role("button", name="Add decklist").click()
    await expect(page.get_by_text(f"Added the decklist '{plan.pasted_deck.stem}'.")).to_be_visible()
    await idle(page)

    await open_add_decklist(page, "Upload a file")
    await (
        page.get_by_test_id("stFileUploader").locator("input[type=file]").first.set_input_files(str(plan.uploaded_deck))
    )
    await expect(page.get_by_text(f"Added the decklist '{plan.uploaded_deck.stem}'.")).to_be_visible()
    await idle(page)
    await expect(page.get_by_role("combobox", name="Decklist", exact=True)).to_have_value(
        f"{plan.uploaded_deck.stem} (uploaded)"
    )
    text = await page_text(page)
    assert _found(plan.card_names, text), f"session {plan.number}'s Decks page names none of its cards"
    assert_only_own_cards(plan, text, "the Decks page")

    await go(page, "Balance")
    await set_up_balance(page, plan)
    await expect(page.get_by_role("button", name="Run simulation")).to_be_enabled()


async def set_up_balance(page: Page, plan: SessionPlan) -> None:
    """Both decklists chosen (the page's default), small match counts typed in."""
    decks_box = page.get_by_test_id("stMultiSelect").filter(has_text="Decks (the first is deck A")
    await expect(decks_box).to_contain_text(plan.pasted_deck.stem)
    await expect(decks_box).to_contain_text(plan.uploaded_deck.stem)
    for label, value in (
        ("Matches (A vs B, and per matchup)", MATCHES),
        ("Matches per card (power curve)", MATCHES_PER_CARD),
    ):
        await page.get_by_label(label, exact=True).fill(str(value))  # the field's help button carries the label too
        await page.keyboard.press("Enter")
        await idle(page)


def results_tab(page: Page, name: str) -> Locator:
    """A tab of the simulation results (other sections of the page may have tabs of their own)."""
    results_tabs = page.get_by_role("tablist").filter(has=page.get_by_role("tab", name="Trace", exact=True))
    return results_tabs.get_by_role("tab", name=name, exact=True)


async def run(page: Page, plan: SessionPlan) -> None:
    """Press Run simulation and wait for its results."""
    await page.get_by_role("button", name="Run simulation").click()
    plan.run_clicked = time.monotonic()
    await expect(page.get_by_text(re.compile(r"^Done in "))).to_be_visible(timeout=SIMULATION_TIMEOUT_MS)
    plan.done_seen = time.monotonic()
    await idle(page)


async def check_results(page: Page, plan: SessionPlan, when: str) -> None:
    """The results shown are this session's: its ruleset, set, decks, settings and cards, none of the other's."""
    ruleset = get_ruleset(plan.ruleset_id)
    assert ruleset.engine is not None, f"{plan.ruleset_id} has no engine to simulate with"
    policy = next(iter(ruleset.engine.policies))  # the page's default policy for both decks
    main = page.get_by_test_id("stMain")
    deck_a, deck_b = plan.pasted_deck.stem, plan.uploaded_deck.stem
    await results_tab(page, "Match").click()
    provenance = main.get_by_text(f"{plan.ruleset_id} v{ruleset.version} · engine v")
    await expect(provenance).to_be_visible()
    await expect(provenance).to_contain_text(f"seed {SEED} · policies {policy}/{policy}")
    await expect(provenance).to_contain_text(f"card set {plan.sheet.stem} (hash ")
    await expect(main).to_contain_text(f"A = {deck_a}, B = {deck_b}; {MATCHES:,} matches.")
    await expect(page.get_by_test_id("stMetric").first).to_contain_text(f"{deck_a} (A) win rate")

    await results_tab(page, "Trace").click()
    trace = page.get_by_test_id("stCode").filter(has_text="Turn ")
    await expect(trace).to_contain_text(f"# {plan.ruleset_id} {ruleset.version} (engine ")
    await expect(trace).to_contain_text(f"A = {deck_a} ({policy}), B = {deck_b} ({policy})")
    trace_text = await text_of(trace)
    assert _found(plan.card_names, trace_text), f"session {plan.number}'s trace names none of its cards ({when})"
    assert_only_own_cards(plan, trace_text, f"the match trace {when}")

    await results_tab(page, "Power curve").click()
    curve_table = page.get_by_test_id("stDataFrame").filter(has_text="first played (turn)")
    await expect(curve_table).to_be_visible()
    curve_text = await text_of(curve_table)
    assert _found(plan.card_names, curve_text), (
        f"session {plan.number}'s power curve table names none of its cards ({when})"
    )
    assert_only_own_cards(plan, curve_text, f"the power curve table {when}")

    await expect(page.get_by_test_id("stSidebar")).to_contain_text(f"{plan.ruleset_id} v{ruleset.version}")
    text = await page_text(page)
    assert_only_own_cards(plan, text, f"the Balance page {when}")
    other = get_ruleset(plan.other_ruleset_id)
    # As the caption, the sidebar ("circles v1.0") and the trace ("# circles 1.0 (engine 1)") would name it.
    named = re.findall(rf"(?<!\w){other.id}\s+v?{re.escape(other.version)}", text)
    assert not named, f"session {plan.number}'s Balance page names the {other.id} ruleset {when}: {named}"
    await results_tab(page, "Match").click()


async def check_again_after_both_ran(page: Page, plan: SessionPlan) -> None:
    """Once both runs are over: the editor still holds this session's cards, and its kept result is its own."""
    await go(page, "Card editor")
    await expect(page.get_by_test_id("stDataFrame").first).to_contain_text(plan.card_names[0])
    assert_only_own_cards(plan, await page_text(page), "the Card editor after both runs")
    await go(page, "Balance")
    # Leaving the page may reset its inputs; typing the same settings again shows the result kept for them, unrun.
    await set_up_balance(page, plan)
    await expect(page.get_by_text(re.compile(r"^Done in "))).to_have_count(0)
    await check_results(page, plan, "after both runs")


async def designer(
    browser: playwright_async.Browser, app_url: str, plan: SessionPlan, folder: Path, both_ready: asyncio.Barrier
) -> None:
    """One designer's session in its own browser context, start to finish."""
    context = await browser.new_context(viewport={"width": 1500, "height": 1000})
    try:
        page = await context.new_page()
        page.set_default_timeout(STEP_TIMEOUT_MS)
        await page.goto(app_url)
        await expect(page.get_by_role("heading", name="Card sets", level=1)).to_be_visible()
        await idle(page)
        try:
            await prepare(page, plan, folder)
            await both_ready.wait()  # both runs start together, so the two simulations overlap on the server
            await run(page, plan)
            await check_results(page, plan, "after its own run")
            await screenshot(page, folder, f"sessions_{plan.number}_{plan.ruleset_id}_balance")
            await both_ready.wait()  # both results are in
            await check_again_after_both_ran(page, plan)
        except Exception:
            with contextlib.suppress(playwright_async.Error):
                await screenshot(page, folder, f"sessions_{plan.number}_{plan.ruleset_id}_failed")
            raise
    finally:
        await context.close()


async def two_designers(app_url: str, launch_options: dict[str, Any], folder: Path, plans: list[SessionPlan]) -> None:
    async with playwright_async.async_playwright() as playwright:
        browser = await playwright.chromium.launch(**launch_options)
        try:
            both_ready = asyncio.Barrier(len(plans))
            # A TaskGroup cancels the other designer when one fails, so nobody waits at the barrier for ever.
            async with asyncio.TaskGroup() as group:
                for plan in plans:
                    group.create_task(designer(browser, app_url, plan, folder, both_ready))
        finally:
            await browser.close()


def test_two_sessions_at_once_keep_their_own_cards_and_results(
    chromium_launch_options: dict[str, Any], app_url: str, tmp_path: Path
) -> None:
    """Both sessions finish, each seeing only its own cards, decks, ruleset and results, during and after.

    `chromium_launch_options` comes first, so a missing browser skips (or fails) before a server is started.
    """
    plans = list(_plans())
    asyncio.run(two_designers(app_url, chromium_launch_options, tmp_path, plans))
    first, second = plans
    # Both runs were in flight together: each was started before either's results were seen.
    assert max(first.run_clicked, second.run_clicked) < min(first.done_seen, second.done_seen)
    for plan in plans:
        assert (tmp_path / f"sessions_{plan.number}_{plan.ruleset_id}_balance.png").stat().st_size > 10_000
