"""Shared fixtures: build card sets and decks from small tables, as a designer's sheet would hold them."""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from workbench.cards import CardSet, Deck
from workbench.decklists import parse_decklist
from workbench.loading import load_cardset
from workbench.rulesets.base import Ruleset

MakeCardSet = Callable[..., CardSet]

# The app's background warm-up compiles every engine (minutes of CPU) in each AppTest process and browser-test server;
# a test that wants it (tests/browser/test_browser_warmup.py) sets WORKBENCH_WARMUP for its own server.
os.environ.setdefault("WORKBENCH_WARMUP", "off")


@pytest.fixture
def make_cardset(tmp_path: Path) -> MakeCardSet:
    """`make_cardset(ruleset, rows)` writes `rows` (dicts, header = union of keys in order) to a csv and loads it.

    The first row dict is spreadsheet row 2, the next row 3, and so on.
    """

    def build(ruleset: Ruleset, rows: Sequence[Mapping[str, Any]], filename: str = "cards.csv") -> CardSet:
        headers: list[str] = []
        for row in rows:
            for key in row:
                if key not in headers:
                    headers.append(key)
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(headers)
        for row in rows:
            writer.writerow(["" if row.get(h) is None else row.get(h) for h in headers])
        path = tmp_path / filename
        path.write_text(buffer.getvalue(), encoding="utf-8")
        return load_cardset(path, ruleset)

    return build


@pytest.fixture
def make_deck() -> Callable[..., Deck]:
    """`make_deck(cardset, "2 Name\\n1 Other", name="deck")` parses decklist text against the set."""

    def build(cardset: CardSet, text: str, name: str = "deck") -> Deck:
        return parse_decklist(text, cardset, name=name, path=f"{name}.txt")

    return build
