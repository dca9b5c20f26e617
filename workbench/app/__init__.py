"""The Streamlit app: one file per page, plus the small shared helpers the pages use.

`workbench/app/router.py` is the router (`st.navigation` over `PAGES`);
`streamlit_app.py` at the top of a checkout and `workbench app` both run it.
Pages call workbench functions and draw what they return; they compute no
rule of any game. The page files are scripts run by
Streamlit; the helpers (`workspace`, `widgets`) are ordinary modules.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources


@dataclass(frozen=True)
class PageSpec:
    """One page of the app, as the router registers it."""

    path: str
    """The page script's absolute path (inside the installed package or the checkout), so that `st.Page`,
    `st.page_link` and `st.switch_page` find it from either router script."""
    title: str
    """Shown in the navigation and the browser tab."""
    icon: str
    """An emoji or `:material/...:` icon."""
    url_path: str
    """The page's address under the app's URL."""


def _page_script(file_name: str) -> str:
    """A page script of this package (found with importlib.resources, so an installed wheel's copy is the one run)."""
    return str(resources.files("workbench.app").joinpath(file_name))


CARD_SETS = PageSpec(_page_script("card_sets.py"), "Card sets", ":material/folder_open:", "card-sets")
CARD_EDITOR = PageSpec(_page_script("card_editor.py"), "Card editor", ":material/edit_note:", "editor")
STAT_BUDGET = PageSpec(_page_script("stat_budget.py"), "Stat budget", ":material/scatter_plot:", "stat-budget")
DECKS = PageSpec(_page_script("decks.py"), "Decks", ":material/style:", "decks")
BALANCE = PageSpec(_page_script("balance.py"), "Balance", ":material/balance:", "balance")
VERSIONS = PageSpec(_page_script("versions.py"), "Compare versions", ":material/difference:", "versions")
RULES = PageSpec(_page_script("rules.py"), "Rules", ":material/gavel:", "rules")

PAGES: tuple[PageSpec, ...] = (CARD_SETS, CARD_EDITOR, STAT_BUDGET, DECKS, BALANCE, VERSIONS, RULES)
"""Every page, in navigation order; the first is the home page."""
