"""HTML balance reports and print sheets: self-contained, escaped, and drawn by a real browser."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable
from html import escape
from pathlib import Path

import pytest

from workbench.cards import CardSet, Deck
from workbench.cli import main
from workbench.print_sheet import CARDS_PER_PAGE, render_print_sheet
from workbench.report_html import render_html
from workbench.reports import build_report
from workbench.rulesets import RULESETS
from workbench.run_settings import RunSettings

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# CI sets WORKBENCH_REQUIRE_BROWSER after installing chromium: there a missing browser fails instead of skipping.
NO_BROWSER = CHROMIUM is None and not os.environ.get("WORKBENCH_REQUIRE_BROWSER")
MARKUP_NAME = '<script>alert("x")</script> & <b>Imp</b>'
ROWS = [
    {
        "name": MARKUP_NAME,
        "kind": "monster",
        "soul_cost": 2,
        "atk": 4,
        "def": 4,
        "abilities": "Atk",
        "text": "<img src=x onerror=alert(1)>",
    },
    {
        "name": '=HYPERLINK("http://example.invalid","x")',
        "kind": "monster",
        "soul_cost": 1,
        "atk": 3,
        "def": 3,
        "abilities": "Atk",
    },
    {"name": "Grave Titan", "kind": "monster", "soul_cost": 3, "atk": 9, "def": 7, "abilities": "Atk; Mobile"},
]


@pytest.fixture
def cardset(make_cardset: Callable[..., CardSet]) -> CardSet:
    return make_cardset(RULESETS["souls"], ROWS)


def _external_loads(html: str) -> list[str]:
    """Every place the page would fetch something from outside the file."""
    loads = re.findall(
        r"<(?:script|img|iframe|link|source|video|audio)\b[^>]*\b(?:src|href)\s*=\s*[\"']?([^\"' >]+)", html, re.I
    )
    loads += re.findall(r"@import\s+(?:url\()?[\"']?([^\"')]+)", html, re.I)
    return [url for url in loads if not url.startswith(("data:", "#"))]


def test_html_report_is_self_contained_and_escapes_user_text(cardset: CardSet, make_deck: Callable[..., Deck]) -> None:
    deck = make_deck(cardset, "1 Grave Titan", name="<i>deck</i>")
    html = render_html(build_report(cardset, [deck]))
    assert _external_loads(html) == []
    assert html.count("<script") >= 2 and html.count('src="http') == 0
    assert MARKUP_NAME not in html and "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert "<img src=x" not in html
    assert "&lt;i&gt;deck&lt;/i&gt;" in html
    # plotly's library is embedded once, with the first figure
    assert html.count("Plotly.newPlot") >= 1 and html.count("/*! For license information") <= 1


def test_print_sheet_lays_nine_to_a_page_and_repeats_copies(make_cardset: Callable[..., CardSet]) -> None:
    rows = [
        {
            "name": f"Card {i}",
            "kind": "single",
            "set": "Promo Pack",
            "set_kind": "promo",
            "stars": 1 + i % 8,
            "elements": "Fire",
            "types": "Beast",
            "copies": 1,
        }
        for i in range(6)
    ]
    rows[0]["copies"] = 5
    blades = make_cardset(RULESETS["blades"], rows)
    html, cards, pages = render_print_sheet(blades)
    assert cards == 10 and pages == 2 and CARDS_PER_PAGE == 9
    assert html.count('class="card"') == 10 and html.count('class="page"') == 2
    assert html.count("Card 0") >= 5
    assert "<line" in html and _external_loads(html) == []


def test_print_sheet_escapes_names(cardset: CardSet) -> None:
    html, cards, pages = render_print_sheet(cardset)
    assert (cards, pages) == (3, 1)
    assert MARKUP_NAME not in html and "<img src=x" not in html


def test_report_and_print_commands_write_files(
    cardset: CardSet, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    html_out, xlsx_out, print_out = tmp_path / "r.html", tmp_path / "r.xlsx", tmp_path / "p.html"
    assert main(["report", cardset.path, "--out", str(html_out)]) == 0
    assert main(["report", cardset.path, "--out", str(xlsx_out), "--format", "json"]) == 0
    assert main(["print", cardset.path, "--out", str(print_out)]) == 0
    assert html_out.stat().st_size > 100_000 and xlsx_out.stat().st_size > 1_000 and print_out.is_file()
    assert html_out.stat().st_mode & 0o044, "a report should be readable by the team, not private to its writer"
    capsys.readouterr()
    assert main(["report", cardset.path, "--out", str(tmp_path / "r.pdf")]) == 2
    assert "neither .html nor .xlsx" in capsys.readouterr().err


@pytest.mark.skipif(NO_BROWSER, reason="Debian's chromium is not installed (.ci/run installs it)")
@pytest.mark.parametrize("kind", ["report", "print"])
def test_chromium_renders_the_file_offline(cardset: CardSet, tmp_path: Path, kind: str) -> None:
    page = tmp_path / f"{kind}.html"
    if kind == "report":
        page.write_text(render_html(build_report(cardset)), encoding="utf-8")
    else:
        page.write_text(render_print_sheet(cardset)[0], encoding="utf-8")
    shot = tmp_path / f"{kind}.png"
    assert CHROMIUM is not None, "chromium is required here (WORKBENCH_REQUIRE_BROWSER is set)"
    subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--host-resolver-rules=MAP * ~NOTFOUND",  # no network: anything fetched from outside would fail
            "--window-size=1200,1600",
            f"--screenshot={shot}",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert shot.stat().st_size > 10_000
    screens = Path(__file__).parent / "output"
    screens.mkdir(exist_ok=True)
    shutil.copy(shot, screens / f"{kind}_souls.png")


@pytest.mark.skipif(NO_BROWSER, reason="Debian's chromium is not installed (.ci/run installs it)")
def test_png_images_of_the_charts_through_kaleido_and_debian_chromium(cardset: CardSet, tmp_path: Path) -> None:
    from workbench.report_html import write_pngs

    paths = write_pngs(build_report(cardset), tmp_path / "png")
    assert [p.name for p in paths] == ["stat_budget.png"]
    assert paths[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and paths[0].stat().st_size > 5_000


def test_every_section_in_reading_order_with_plotly_embedded_before_the_first_chart(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    from toy_engine import TOY

    rows = [
        {"name": "Filler", "kind": "unit", "cost": 2, "strength": 2},
        {"name": "Cheap", "kind": "unit", "cost": 1, "strength": 1},
        {"name": "Big", "kind": "unit", "cost": 3, "strength": 6},
    ]
    cardset = make_cardset(TOY, rows)
    baseline = make_cardset(TOY, [{**row, "cost": 4} if row["name"] == "Big" else row for row in rows], "old.csv")
    decks = [make_deck(cardset, "6 Filler\n3 Cheap\n3 Big", name="reference"), make_deck(cardset, "8 Filler\n4 Big")]
    report = build_report(
        cardset, decks, matches_per_card=100, matches=100, baseline=baseline, run=RunSettings(seed=1, workers=1)
    )
    html = render_html(report)
    sections = re.findall(r"<h2>([^<]+)</h2>", html)
    assert sections == [
        "Summary",
        "Findings",
        "Game health",
        "Stat budget",
        "Power curve",
        "Matchups",
        "First player and game length",
        "Changes since the baseline",
        "Rule options",
        "Provenance",
    ]
    library = [match.start() for match in re.finditer(r"\* plotly\.js v\d", html)]
    charts = [match.start() for match in re.finditer(r"Plotly\.newPlot\(", html)]
    assert len(library) == 1 and len(charts) == 6 and library[0] < charts[0]
    assert "<li>Big: cost 4 -&gt; 3.</li>" in html
    outside_scripts = re.sub(r"<script.*?</script>", "", html, flags=re.S)
    assert outside_scripts.count("<table>") == outside_scripts.count("</table>") and "None" not in outside_scripts


def test_the_whole_game_section_escapes_names_and_states_its_provenance(tmp_path: Path) -> None:
    from workbench.loading import load_cardset
    from workbench.paths import bundled_sets

    sample = bundled_sets("blades")[0]
    text = sample.read_text(encoding="utf-8").replace("Night Market Chef", "Night <script>x</script> Chef")
    path = tmp_path / "blades_hostile.csv"
    path.write_text(text, encoding="utf-8")
    options = {"game": "full", "players": "2", "market_actions": "2", "two_player_rules": "normal"}
    report = build_report(
        load_cardset(path), run=RunSettings(seed=2, options=options), full_games=2, full_games_per_card=1
    )
    page = render_html(report)
    assert "<script>x</script>" not in page and "Night &lt;script&gt;x&lt;/script&gt; Chef" in page
    section = page[page.index("<h2>Whole games</h2>") : page.index("<h2>Stat budget</h2>")]
    assert "2 whole games of 2 players, seed 2" in section and "SeedSequence(2).spawn(2)[k]" in section
    assert "market version" in section and "95% normal intervals" in section
    for heading in (
        "Per round",
        "Game health",
        "The store on the buy-cost axis",
        "Power on the buy-cost axis",
        "Game 0, action by action",
    ):
        assert f"<h3>{heading}</h3>" in section
    # Each store card's verdict on its buy cost, coloured by its flag, with the reason in words.
    power = report.full_game_power
    assert power is not None
    # Rows decided by workbench.judging carry stability and q-value, shown after the flag.
    decided = "".join(
        f"<th>{header}</th>"
        for column, header in (("stability", "stability"), ("q_value", "q-value"))
        if any(column in row for row in power.rows)
    )
    assert f"<th>bought by seat A</th><th>flag</th>{decided}<th>suggested buy cost</th><th>why</th>" in section
    for row in power.rows:
        assert f'<td class="{row["flag"].replace(" ", "-")}">{row["flag"]}</td>' in section
        assert escape(row["reason"]) in section
    for statement in power.statements():
        assert f'<p class="note">{escape(statement)}</p>' in section
    # Game 0's trace, escaped, in a <pre> under its note.
    trace = report.full_game_trace
    assert trace is not None and escape(trace.note()) in section
    shown = section[section.index('<pre class="trace">') + len('<pre class="trace">') : section.index("</pre>")]
    assert shown == escape("\n".join(trace.lines))
    # Whole games come after the findings and before the stat budget, in reading order.
    assert page.index("<h2>Findings</h2>") < page.index("<h2>Whole games</h2>") < page.index("<h2>Stat budget</h2>")
    stamp = page[page.index('<p class="stamp">') : page.index("</p>", page.index('<p class="stamp">'))]
    assert "market version" in stamp and "games 2" in stamp and "games per card 1" in stamp


def test_the_stat_values_and_proposals_sections_follow_the_changes_when_their_results_are_passed_in(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    from test_reports import PLANTED_ROWS, souls_stat_values, toy_proposals

    souls, souls_decks, values = souls_stat_values()
    plain = render_html(build_report(souls, souls_decks[:1], RunSettings(seed=1, workers=1), matches_per_card=20))
    assert "<h2>What each stat is worth in play</h2>" not in plain and "<h2>Patch proposals</h2>" not in plain
    html = render_html(
        build_report(
            souls, souls_decks[:1], RunSettings(seed=1, workers=1), matches_per_card=20, matches=20, stat_values=values
        )
    )
    sections = re.findall(r"<h2>([^<]+)</h2>", html)
    assert sections[-3:] == ["What each stat is worth in play", "Rule options", "Provenance"]
    assert "<b>The document's formula:</b> the soul-cost table" in html.replace("&#x27;", "'")
    for statement in values.statements:
        assert escape(statement, quote=False) in html
    atk = values.rates.set_index("attribute").loc["Atk"]
    assert f"{atk['rate']:+.3f} [{atk['low']:+.3f}, {atk['high']:+.3f}]" in html
    assert len(re.findall(r"\* plotly\.js v\d", html)) == 1
    assert len(re.findall(r"Plotly\.newPlot\(", html)) == len(report_figures_of(html))

    cardset, decks, proposals = toy_proposals(make_cardset, make_deck)
    assert any(row["name"] == "=Planted" for row in PLANTED_ROWS)
    html = render_html(
        build_report(
            cardset, decks, RunSettings(seed=1, workers=1), matches_per_card=20, matches=20, proposals=proposals
        )
    )
    assert re.findall(r"<h2>([^<]+)</h2>", html)[-3:] == ["Patch proposals", "Rule options", "Provenance"]
    assert f"<h3>Offered ({len(proposals.offered)})</h3>" in html
    assert f"<h3>Not offered ({len(proposals.refused)})</h3>" in html
    for proposal in [*proposals.offered, *proposals.refused]:
        assert escape(proposal.statement, quote=False) in html.replace("&#39;", "'")
        for note in proposal.patch_notes:
            assert f"<li>{escape(note, quote=False)}</li>" in html.replace("&#39;", "'")
    first = proposals.offered[0].verdicts.iloc[0]
    assert f"{first['after_power']:+.3f} [{first['after_low']:+.3f}, {first['after_high']:+.3f}]" in html
    outside_scripts = re.sub(r"<script.*?</script>", "", html, flags=re.S)
    assert outside_scripts.count("<table>") == outside_scripts.count("</table>") and "None" not in outside_scripts


def report_figures_of(html: str) -> list[str]:
    """The plotly figures drawn in a report page (each chart's div)."""
    return re.findall(r'<div id="[0-9a-f-]+" class="plotly-graph-div"', html)
