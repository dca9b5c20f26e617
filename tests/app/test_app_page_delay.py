"""The test-only page delay (WORKBENCH_TEST_PAGE_DELAY): every page run waits that long; a bad value is named."""

from __future__ import annotations

import time

import pytest
from app.app_helpers import go, new_app, shown_text

from workbench.app import CARD_EDITOR
from workbench.app.page_delay import PAGE_DELAY_VARIABLE, page_delay_seconds


@pytest.mark.parametrize(("text", "seconds"), [(None, 0.0), ("", 0.0), (" 0 ", 0.0), ("1.5", 1.5), ("30", 30.0)])
def test_the_delay_is_read_as_seconds(text: str | None, seconds: float) -> None:
    assert page_delay_seconds(text) == seconds


@pytest.mark.parametrize("text", ["lots", "-1", "31", "nan", "inf"])
def test_a_delay_that_is_not_0_to_30_seconds_is_refused_by_name(text: str) -> None:
    with pytest.raises(ValueError, match=f"{PAGE_DELAY_VARIABLE} is '{text}'"):
        page_delay_seconds(text)


def test_every_page_run_waits_the_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    at = new_app()
    monkeypatch.setenv(PAGE_DELAY_VARIABLE, "0.6")
    started = time.monotonic()
    go(at, CARD_EDITOR)
    at.run()
    assert time.monotonic() - started >= 1.2  # two page runs


def test_a_bad_delay_is_said_on_the_page_and_the_page_still_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PAGE_DELAY_VARIABLE, "lots")
    at = go(new_app(), CARD_EDITOR)
    assert f"{PAGE_DELAY_VARIABLE} is 'lots', not a number of seconds. The page runs without a delay." in shown_text(at)
    assert at.data_editor  # the editor is drawn all the same
