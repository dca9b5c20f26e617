"""User text in the app is text, never markup: set, file, deck and card names are escaped for Markdown, the patch
notes download as the page, chart labels for plotly; the SOURCE map is chosen, never typed; out-of-range rule
options are named with their range; the findings cache never shows one session another session's set name."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from pathlib import Path

import openpyxl
from app.app_helpers import (
    SOULS_SMALL,
    chart_figure,
    go,
    markdown_source,
    new_app,
    shown_text,
    upload_cardset,
    workspace,
)
from streamlit.testing.v1 import AppTest

from workbench.app import CARD_EDITOR, DECKS, RULES, STAT_BUDGET, VERSIONS
from workbench.markup import markdown_text, plotly_text
from workbench.rulesets import RULESETS

IMAGE = "![pixel](https://evil.example/pixel.png)"
LINK = '<a href="https://evil.example/">click</a>'


def _workbook(set_name: str, deck_lines: Sequence[tuple[str, int, str]] = (), first_name: str | None = None) -> bytes:
    """The small souls set as an xlsx with a Set sheet naming it, and a Decks sheet when deck lines are given."""
    rows = list(csv.reader(SOULS_SMALL.read_text(encoding="utf-8").splitlines()))
    if first_name is not None:
        rows[1][0] = first_name
    book = openpyxl.Workbook()
    cards = book.active
    cards.title = "Cards"
    for row in rows:
        cards.append(row)
    info = book.create_sheet("Set")
    info.append(["key", "value"])
    info.append(["ruleset", "souls"])
    info.append(["name", set_name])
    if deck_lines:
        decks = book.create_sheet("Decks")
        decks.append(["deck", "count", "name"])
        for line in deck_lines:
            decks.append(list(line))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _every_markdown(at: AppTest) -> str:
    """Every Markdown-rendered text of the page and its sidebar, as the source strings Streamlit renders."""
    parts = [markdown_source(at)]
    parts += [str(element.value) for element in at.sidebar.markdown]
    parts += [str(element.value) for element in at.sidebar.caption]
    return "\n".join(parts)


def test_markdown_text_leaves_no_syntax() -> None:
    assert markdown_text(IMAGE) == r"!\[pixel\](https:\/\/evil.example/pixel.png)"
    assert markdown_text("# big\n- item") == r"\# big - item"
    assert markdown_text("1. first") == r"1\. first"
    assert markdown_text(":red[alarm] $x$ `code` <b>") == r":red\[alarm\] \$x\$ \`code\` \<b\>"
    assert markdown_text("Plain set (v2).csv") == "Plain set (v2).csv"
    assert plotly_text(LINK) == '&lt;a href="https://evil.example/"&gt;click&lt;/a&gt;'


def test_a_remote_image_in_a_set_name_is_shown_as_text() -> None:
    at = upload_cardset(new_app(), data=_workbook(IMAGE), name="images.xlsx")
    assert workspace(at).set_name == IMAGE
    text = _every_markdown(at)
    assert IMAGE not in text  # nowhere as Markdown an image could be read from
    assert markdown_text(IMAGE) in text  # shown, escaped: the sidebar and the Open: heading
    for page in (CARD_EDITOR, DECKS, VERSIONS):
        go(at, page)
        assert IMAGE not in _every_markdown(at), page.title


def test_a_link_in_a_card_name_is_no_link_on_the_stat_budget_chart() -> None:
    at = upload_cardset(new_app(), data=_workbook("Links", first_name=LINK), name="links.xlsx")
    go(at, STAT_BUDGET)
    figure = chart_figure(at)
    shown: list[str] = []  # every string plotly renders as its mini-HTML: names, texts and hover fields used
    for trace in figure["data"]:
        template = str(trace.get("hovertemplate", ""))
        used = {int(index) for index in re.findall(r"customdata\[(\d+)\]", template)}
        for point in trace.get("customdata") or []:
            shown += [str(point[index]) for index in used]
        shown += [str(trace.get(field, "")) for field in ("name", "text")]
    shown.append(json.dumps(figure["layout"]))
    assert not [text for text in shown if "<a href" in text]
    assert plotly_text(LINK) in shown  # the card is there, as text


def test_the_findings_cache_never_shows_another_sessions_set_name() -> None:
    """Two sessions open the same cards and decklist under two set names; each sees its own name in the deck
    finding that quotes it (the cache key once left the Set sheet's name out)."""
    deck = [("probe", 2, "Ember Imp"), ("probe", 1, "Nobody Card")]
    messages = {}
    for name in ("Alpha Set", "Beta Set"):
        at = upload_cardset(new_app(), data=_workbook(name, deck), name="same.xlsx")
        go(at, DECKS)
        frames = [frame.value for frame in at.dataframe if "message" in getattr(frame.value, "columns", [])]
        messages[name] = " ".join(" ".join(map(str, frame["message"])) for frame in frames)
    assert "not a card in Alpha Set" in messages["Alpha Set"]
    assert "not a card in Beta Set" in messages["Beta Set"] and "Alpha Set" not in messages["Beta Set"]


def _key(option_key: str) -> str:
    return f"option:rules:source:{option_key}"


def test_the_source_map_is_chosen_from_the_bundled_maps_or_uploaded_never_typed(tmp_path: Path) -> None:
    at = go(new_app(), RULES)
    key = _key("map")
    assert not [w for w in at.text_input if w.key == key]  # no path typed into a page
    picker = next(w for w in at.selectbox if w.key == key)
    assert picker.options == ["default (bundled)"]
    bundled = Path(RULESETS["source"].option("map").bundled_files) / "default.json"
    uploader = next(w for w in at.file_uploader if w.key == "option_upload:rules:source:map")
    uploader.set_value(("my map.json", bundled.read_bytes(), "application/json"))
    at.run()
    picker = next(w for w in at.selectbox if w.key == key)
    assert picker.options == ["default (bundled)", "my map (uploaded)"]
    picker.set_value("my map (uploaded)")
    at.run()
    stored = at.session_state["rule_options"]["source"]["map"]
    assert Path(stored).is_file() and Path(stored).name.startswith("map-") and "my map" not in stored
    RULESETS["source"].resolve_options({"map": stored})

    # A file that is not a map is refused by the map reader, and not offered.
    uploader = next(w for w in at.file_uploader if w.key == "option_upload:rules:source:map")
    uploader.set_value(("broken.json", b'{"spaces": 5}', "application/json"))
    at.run()
    assert "broken.json is not a map file" in shown_text(at)
    picker = next(w for w in at.selectbox if w.key == key)
    assert "broken (uploaded)" not in picker.options


def test_a_rule_option_out_of_its_range_is_named_with_the_range_and_not_used() -> None:
    at = go(new_app(), RULES)
    assert "range 1 to 10,000" in shown_text(at)  # the ledger shows each number option's range
    cap = next(w for w in at.number_input if w.key == "option:rules:souls:turn_cap")
    cap.set_value(10**12)
    at.run()
    text = shown_text(at)
    assert "rule option 'turn_cap' is 1,000,000,000,000, outside its range 1 to 10,000" in text, text
    assert "Still in use: 50." in text
    assert "turn_cap" not in at.session_state["rule_options"].get("souls", {})
    cap = next(w for w in at.number_input if w.key == "option:rules:souls:turn_cap")
    cap.set_value(-5)
    at.run()
    assert "'turn_cap' is -5, outside its range 1 to 10,000" in shown_text(at)
    cap = next(w for w in at.number_input if w.key == "option:rules:souls:turn_cap")
    cap.set_value(10_000)
    at.run()
    assert at.session_state["rule_options"]["souls"]["turn_cap"] == 10_000
    assert "outside its range" not in shown_text(at)
