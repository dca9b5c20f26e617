"""The card preview draws any ruleset's card from its columns, escapes user text and marks cells with findings."""

from __future__ import annotations

import re

import pytest

from workbench.card_preview import SEVERITY_COLOURS, card_html
from workbench.cards import Finding
from workbench.paths import bundled_sets
from workbench.rulesets import RULESETS, get_ruleset
from workbench.spreadsheets import read_sheet

HEADERS = ["name", "kind", "soul_cost", "atk", "def", "abilities", "element", "text", "effects", "artist"]
VALUES = ["Cinder Hound", "monster", "2", "4", "2", "Atk; Ranged 2", "fire", "Applies fire.", "apply fire", "K. Osei"]


def test_a_card_shows_name_kind_cost_circles_stats_chips_text_effects_and_other_columns() -> None:
    html = card_html(get_ruleset("souls"), HEADERS, VALUES, cost=2.0, cost_label="soul cost", row=4)
    assert "Cinder Hound" in html and "monster · row 4" in html
    assert html.count("border-radius:50%") == 2  # two cost circles
    for stat in (">soul_cost<", ">atk<", ">def<"):
        assert stat in html
    assert ">Atk<" in html and ">Ranged 2<" in html  # abilities as chips
    assert "<b>element</b>: fire" in html
    assert "Applies fire." in html and "⚙ apply fire" in html
    assert "<b>artist</b>: K. Osei" in html  # a column the ruleset does not know is still shown


def test_user_text_is_escaped() -> None:
    values = ["<script>alert(1)</script>", "monster", "0", "1", "1", "", "", "<b>bold</b> & more", "", '"quoted"']
    html = card_html(get_ruleset("souls"), HEADERS, values)
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>bold</b>" not in html and "&lt;b&gt;bold&lt;/b&gt; &amp; more" in html
    assert "&quot;quoted&quot;" in html


def test_a_cell_with_a_finding_is_ringed_and_the_finding_is_written_under_the_card() -> None:
    finding = Finding(
        severity="warning",
        rule="souls.soul_cost",
        message="soul cost 0 does not match the table.",
        card="Cinder Hound",
        sheet="s.csv",
        row=4,
        column="soul_cost",
        expected=2,
        actual=0,
    )
    html = card_html(get_ruleset("souls"), HEADERS, VALUES, [finding])
    ring = f"box-shadow:0 0 0 3px {SEVERITY_COLOURS['warning']};"
    stat = re.search(r'<div title="([^"]*)" style="[^"]*' + re.escape(ring) + r'">.*?soul_cost', html)
    assert stat and "soul cost 0 does not match" in stat.group(1)
    assert "[souls.soul_cost] in soul_cost: soul cost 0 does not match the table. (expected 2, got 0)" in html


def test_a_cost_off_the_circle_scale_is_written_as_a_number() -> None:
    assert ">2.5<" in card_html(get_ruleset("souls"), HEADERS, VALUES, cost=2.5)
    assert "(no name)" in card_html(get_ruleset("souls"), HEADERS, [None] * len(HEADERS))


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_every_bundled_card_of_every_ruleset_draws(ruleset_id: str) -> None:
    paths = bundled_sets(ruleset_id)
    ruleset = get_ruleset(ruleset_id)
    table = read_sheet(paths[0])
    for _row, values in table.rows:
        html = card_html(ruleset, table.headers, [None if v is None else str(v) for v in values])
        assert html.startswith('<div data-testid="card-preview"') and html.endswith("</div>")
        name = values[[h.casefold() for h in table.headers].index("name")]
        assert str(name).replace("&", "&amp;").replace("'", "&#x27;") in html


def test_a_finding_on_an_empty_cell_and_a_list_read_as_words_under_the_card() -> None:
    empty = Finding(
        "error",
        "souls.cell_value",
        "this cell is empty.",
        card="New card",
        row=48,
        column="atk",
        expected="whole number",
        actual=None,
    )
    listed = Finding(
        "warning",
        "souls.effect_token",
        "names no token.",
        card="New card",
        row=48,
        column="effects",
        expected=["Bloated Spawn", "Wisp Token"],
        actual="Phantom Pup",
    )
    html = card_html(get_ruleset("souls"), HEADERS, VALUES, findings=[empty, listed], row=48)
    assert "(expected whole number, got nothing)" in html
    assert "(expected Bloated Spawn, Wisp Token, got Phantom Pup)" in html
    assert "None" not in html and "[&#x27;" not in html and "[&quot;" not in html


def test_a_blades_card_shows_its_buy_cost_on_the_preview_and_the_print_sheet() -> None:
    """Issue 18: the buy cost is a column of the Blades sheet, so the card preview and the print sheet show it ("Pay
    ... the buy cost (the number in its top right)")."""
    from workbench.loading import load_cardset
    from workbench.print_sheet import print_pages

    path = bundled_sets("blades")[0]
    table = read_sheet(path)
    headers = [h.casefold() for h in table.headers]
    values = next(values for _row, values in table.rows if values[headers.index("name")] == "Night Market Chef")
    assert str(values[headers.index("buy_cost")]) == "3"
    html = card_html(get_ruleset("blades"), table.headers, [None if v is None else str(v) for v in values])
    assert re.search(r"buy_cost.{0,200}>3<", html, re.S), html
    pages = [card for page in print_pages(load_cardset(path)) for card in page]
    chef = next(card for card in pages if "Night Market Chef" in card)
    assert re.search(r"buy_cost.{0,200}>3<", chef, re.S)
