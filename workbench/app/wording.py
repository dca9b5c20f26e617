"""Words the pages share where a figure or a reference needs explaining: the matches per card a power curve
actually played, and where in the workbench's documentation a page's figure is described.

The app may run from an installed wheel, which carries no `docs/` folder: a reference names the document and its
section in words, so a designer can find it in the workbench's documentation, rather than a path on the server.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def see_docs(document: str, section: str | None = None) -> str:
    """`see the workbench docs, simulation.md, section *Game health*` (Markdown; no link: the docs may not be
    installed beside the app)."""
    where = f"the workbench docs, {document}"
    return f"see {where}, section *{section}*" if section else f"see {where}"


def matches_per_card_text(meta: Mapping[str, Any], asked: int | None) -> str:
    """The matches per card a power curve played, and why they differ from the number asked, when they do:
    `2,001 matches per card (2,000 asked, rounded up to 667 per opponent)`. The run plays the same number of
    matches against each opponent of the gauntlet (and, with auto decks, for each reference deck), so the figure
    asked for is rounded up to a multiple of the pairs played."""
    played = int(meta.get("matches_per_card", 0))
    text = f"{played:,} matches per card"
    if asked is None or asked == played:
        return text
    per_pair = meta.get("matches_per_pair")
    references = meta.get("reference_decks") or []
    per = "opponent" if len(references) <= 1 else "pair of reference deck and opponent"
    rounded = f", rounded up to {int(per_pair):,} per {per}" if per_pair else ""
    return f"{text} ({asked:,} asked{rounded})"
