"""A test-only setting: slow every page run down, to reproduce a busy server in the browser tests.

`WORKBENCH_TEST_PAGE_DELAY=1.5 streamlit run streamlit_app.py` sleeps 1.5 s at
the start of every script run (after the widgets' callbacks, before the page
draws), as a loaded machine does. Unset or 0 (the default): no delay. Never
set it on a server people use.
"""

from __future__ import annotations

import math
import os
import time

import streamlit as st

PAGE_DELAY_VARIABLE = "WORKBENCH_TEST_PAGE_DELAY"
MAX_PAGE_DELAY_SECONDS = 30.0
"""A longer delay is a typo, not a test: the setting is refused."""


def page_delay_seconds(text: str | None) -> float:
    """The delay the variable asks for, in seconds; a value that is not a number from 0 to 30 raises ValueError."""
    if text is None or not text.strip():
        return 0.0
    try:
        seconds = float(text)
    except ValueError:
        raise ValueError(f"{PAGE_DELAY_VARIABLE} is '{text}', not a number of seconds") from None
    if not math.isfinite(seconds) or not 0 <= seconds <= MAX_PAGE_DELAY_SECONDS:
        raise ValueError(f"{PAGE_DELAY_VARIABLE} is '{text}'; expected seconds from 0 to {MAX_PAGE_DELAY_SECONDS:g}")
    return seconds


def delay_page_run() -> None:
    """Sleep for the test setting's delay (if any); a bad value is shown on the page and no delay is made."""
    try:
        seconds = page_delay_seconds(os.environ.get(PAGE_DELAY_VARIABLE))
    except ValueError as error:
        st.error(f"{error}. The page runs without a delay.")
        return
    if seconds:
        time.sleep(seconds)
