"""The Streamlit app: one file per page, plus the small shared helpers the pages use.

`streamlit_app.py` at the top of the project is the router (`st.navigation`
over `PAGES`). Pages call workbench functions and draw what they return;
they compute no rule of any game. The page files are scripts run by
Streamlit; the helpers (`workspace`, `widgets`) are ordinary modules.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageSpec:
    """One page of the app, as the router registers it."""

    path: str
    """The page script, relative to `streamlit_app.py`."""
    title: str
    """Shown in the navigation and the browser tab."""
    icon: str
    """An emoji or `:material/...:` icon."""
    url_path: str
    """The page's address under the app's URL."""


CARD_SETS = PageSpec("workbench/app/card_sets.py", "Card sets", ":material/folder_open:", "card-sets")
CARD_EDITOR = PageSpec("workbench/app/card_editor.py", "Card editor", ":material/edit_note:", "editor")
STAT_BUDGET = PageSpec("workbench/app/stat_budget.py", "Stat budget", ":material/scatter_plot:", "stat-budget")
DECKS = PageSpec("workbench/app/decks.py", "Decks", ":material/style:", "decks")
BALANCE = PageSpec("workbench/app/balance.py", "Balance", ":material/balance:", "balance")
VERSIONS = PageSpec("workbench/app/versions.py", "Compare versions", ":material/difference:", "versions")
RULES = PageSpec("workbench/app/rules.py", "Rules", ":material/gavel:", "rules")

PAGES: tuple[PageSpec, ...] = (CARD_SETS, CARD_EDITOR, STAT_BUDGET, DECKS, BALANCE, VERSIONS, RULES)
"""Every page, in navigation order; the first is the home page."""
