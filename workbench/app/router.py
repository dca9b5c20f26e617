"""The app's router: `st.navigation` over the pages in `PAGES`, run once per page view.

`streamlit_app.py` at the top of a checkout calls `route()` (`streamlit run streamlit_app.py`); `workbench app` runs
this file itself from an installed package, where no top-level script exists. Streamlit runs its main script as
`__main__`, hence the guard at the bottom.
"""

from __future__ import annotations

import streamlit as st

from workbench.app import PAGES
from workbench.app.layout import page_style
from workbench.app.page_delay import delay_page_run
from workbench.app.warmup import start_engine_warmup


def route() -> None:
    """Set up the page, start the engines' background compile, and run the page the visitor asked for."""
    st.set_page_config(page_title="Card workbench", page_icon="🃏", layout="wide")
    # Streamlit's own "Download as CSV" on a table writes cells as they are (`=cmd|' /C calc'!A0` stays a formula):
    # it is hidden, and the card grid and findings tables offer a Download CSV button through spreadsheets.csv_text.
    st.set_option("client.disableDataExport", True)
    page_style()  # narrower side margins in a narrow window, so a 1024-pixel window keeps the grid's columns pinned
    start_engine_warmup()  # compiles the engines in the background from the server's first page run (WORKBENCH_WARMUP)
    delay_page_run()  # test-only: WORKBENCH_TEST_PAGE_DELAY seconds per page run, to act as a busy server
    st.navigation(
        [
            st.Page(page.path, title=page.title, icon=page.icon, url_path=page.url_path, default=index == 0)
            for index, page in enumerate(PAGES)
        ]
    ).run()


if __name__ == "__main__":
    route()
