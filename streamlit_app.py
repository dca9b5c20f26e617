"""The card workbench in the browser: `streamlit run streamlit_app.py`.

A router only: the pages live in workbench/app/ (see workbench/app/__init__.py).
"""

import streamlit as st

from workbench.app import PAGES
from workbench.app.page_delay import delay_page_run
from workbench.app.warmup import start_engine_warmup

st.set_page_config(page_title="Card workbench", page_icon="🃏", layout="wide")
start_engine_warmup()  # compiles the engines in the background from the server's first page run (WORKBENCH_WARMUP)
delay_page_run()  # test-only: WORKBENCH_TEST_PAGE_DELAY seconds per page run, to act as a busy server
st.navigation(
    [
        st.Page(page.path, title=page.title, icon=page.icon, url_path=page.url_path, default=index == 0)
        for index, page in enumerate(PAGES)
    ]
).run()
