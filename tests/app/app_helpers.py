"""Driving the app's pages with `streamlit.testing.v1.AppTest`: open it, upload, move between pages, read what shows."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
from streamlit.testing.v1 import AppTest

from workbench.app import CARD_SETS, DECKS, PageSpec
from workbench.paths import REPO_ROOT, bundled_decks, bundled_sets
from workbench.rulesets import RULESETS

APP = REPO_ROOT / "streamlit_app.py"
DATA = Path(__file__).parent / "data"
SOULS_SMALL = DATA / "souls_small.csv"
SOULS_DECKS = DATA / "decks"
PAGE_TIMEOUT = 120
"""Seconds one script run may take (a first simulation also compiles the engine)."""


def new_app(timeout: float = PAGE_TIMEOUT) -> AppTest:
    """The app as a new browser session would see it, after its first run."""
    at = AppTest.from_file(str(APP), default_timeout=timeout)
    at.run()
    assert_clean(at)
    return at


def assert_clean(at: AppTest) -> None:
    """No uncaught exception on the page."""
    assert not at.exception, [e.value for e in at.exception]


def go(at: AppTest, page: PageSpec) -> AppTest:
    """Switch to a page and run it."""
    at.switch_page(page.path)
    at.run()
    assert_clean(at)
    return at


def upload_cardset(
    at: AppTest,
    path: Path | None = None,
    data: bytes | None = None,
    name: str | None = None,
    ruleset: str | None = None,
) -> AppTest:
    """Upload a card sheet on the Card sets page (picking its ruleset first when given)."""
    go(at, CARD_SETS)
    if ruleset is not None:
        at.selectbox(key="cardset_upload_ruleset").set_value(ruleset)
        at.run()
    if path is None:
        assert data is not None and name, "upload_cardset needs a path, or data and a name"
        content, filename = data, name
    else:
        content = data if data is not None else Path(path).read_bytes()
        filename = name or Path(path).name
    at.file_uploader(key="cardset_upload").set_value((filename, content, "application/octet-stream"))
    at.run()
    assert_clean(at)
    return at


def open_bundled(at: AppTest, path: Path) -> AppTest:
    """Open a bundled set on the Card sets page."""
    go(at, CARD_SETS)
    at.selectbox(key="bundled_choice").set_value(str(path))
    at.run()
    next(b for b in at.button if b.label == "Open bundled set").click()
    at.run()
    assert_clean(at)
    return at


def workspace(at: AppTest) -> Any:
    """The session's open set."""
    return at.session_state["workspace"]


def shown_text(at: AppTest) -> str:
    """Every message, markdown, caption and title on the page, joined, as a person reads it: the backslashes that
    escape user text for Markdown (workbench.markup) are dropped (for 'does the page say ...')."""
    return as_read(markdown_source(at))


def as_read(markdown: str) -> str:
    """Markdown source as a person reads it: a backslash before punctuation (workbench.markup's escape) dropped."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


def markdown_source(at: AppTest) -> str:
    """Every message, markdown, caption and title on the page, joined, as the Markdown Streamlit renders."""
    parts: list[str] = []
    for group in (
        at.title,
        at.header,
        at.subheader,
        at.markdown,
        at.caption,
        at.info,
        at.success,
        at.warning,
        at.error,
    ):
        parts.extend(str(element.value) for element in group)
    return "\n".join(parts)


def first_bundled(ruleset_id: str) -> Path | None:
    """The ruleset's first bundled set, or None while it has none."""
    try:
        paths = bundled_sets(ruleset_id)
    except Exception:  # noqa: BLE001 - a ruleset whose sample set is not written yet
        return None
    return paths[0] if paths else None


def ruleset_with_engine_and_decks() -> str | None:
    """The first registered ruleset that has a match engine, a bundled set and two bundled decks."""
    for ruleset_id, ruleset in RULESETS.items():
        if ruleset.engine_module and first_bundled(ruleset_id) is not None and len(bundled_decks(ruleset_id)) >= 2:
            return ruleset_id
    return None


def grid_key(at: AppTest, index: int = 0) -> str:
    """The session-state key of the page's `index`-th data editor, under which a test sets the grid's edits."""
    key = at.data_editor[index].key
    assert key is not None, "a data editor without a key: its edits cannot be set through the session state"
    return key


def plotly_charts(at: AppTest) -> list[Any]:
    """The plotly charts on the page (AppTest has no typed accessor for them)."""
    return list(at.get("plotly_chart"))


def _decoded(value: Any) -> Any:
    """Plotly's JSON writes number arrays as base64 (`{"dtype": "f8", "bdata": ...}`); turn them back into lists."""
    if isinstance(value, dict):
        if set(value) >= {"dtype", "bdata"}:
            array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
            if "shape" in value:
                array = array.reshape([int(n) for n in str(value["shape"]).split(",")])
            return array.tolist()
        return {key: _decoded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_decoded(item) for item in value]
    return value


def chart_figure(at: AppTest, index: int = 0) -> dict[str, Any]:
    """The page's `index`-th plotly figure as plain JSON data (arrays decoded)."""
    charts = plotly_charts(at)
    assert len(charts) > index, f"the page has {len(charts)} plotly chart(s)"
    return _decoded(json.loads(charts[index].proto.spec))


TOY_REFERENCE_DECK = "6 Filler\n2 Cheap\n2 Mid\n2 Big"
"""The toy set's reference deck (tests/app/data/toy_cards.csv)."""
TOY_OTHER_DECK = "4 Filler\n4 Cheap\n4 Dud"
"""A second toy deck, for the gauntlet."""


def toy_set_with_decks(page: PageSpec) -> AppTest:
    """The toy set uploaded (register `toy_engine.TOY` in RULESETS first), both toy decks pasted, then `page`."""
    at = upload_cardset(new_app(), DATA / "toy_cards.csv", ruleset="toy")
    go(at, DECKS)
    for name, text in (("reference", TOY_REFERENCE_DECK), ("other", TOY_OTHER_DECK)):
        at.text_input(key="deck_paste_name").set_value(name)
        at.text_area(key="deck_paste_text").set_value(text)
        at.run()
        at.button(key="deck_add_pasted").click()
        at.run()
    return go(at, page)


Served = dict[str, tuple[str, str]]
"""Label -> (file name, content) of every CSV download button a page drew (the `downloads` fixture)."""


def record_csv_downloads(monkeypatch: Any) -> Served:
    """Record every CSV download button drawn from now on (label -> file name and content), still drawing it."""
    import streamlit

    served: Served = {}
    original = streamlit.download_button

    def recording(label: str, data: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("mime") == "text/csv":
            content = data() if callable(data) else data
            served[label] = (str(kwargs.get("file_name")), content if isinstance(content, str) else content.decode())
        return original(label, data, *args, **kwargs)

    monkeypatch.setattr(streamlit, "download_button", recording)
    return served
