"""What a run's progress display says, in words: the time so far always, an estimate only where one is honest.

Pure (no Streamlit), so its sentences are tested on their own. `RunClock` follows one run: the pages' progress
reports (`share`, `text`: "Game health: 5,000 of 18,000 matches") get the run's elapsed time added, and, once a
phase of the run has gone on long enough to have a pace, the time left at the pace of the matches (or games) played
so far in that phase. A phase is the text before its first colon ("Match", "Power curve", "Whole games"): each phase
of a run counts its own matches, so each has its own pace.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from workbench.warm import duration_text

ESTIMATE_AFTER_SECONDS = 3.0
"""A phase's pace is trusted for an estimate only after this long (the first pieces are slow: the workers start)."""
ESTIMATE_AFTER_SHARE = 0.02
"""... and after this share of the phase is done."""


def phase_of(text: str) -> str:
    """The phase a progress text names: the words before its first colon (the whole text without one)."""
    return text.split(":", 1)[0].strip()


def remaining_seconds(share: float, seconds: float) -> float | None:
    """Seconds left at the pace so far (`share` of the work done in `seconds`), or None when too early to say."""
    if seconds < ESTIMATE_AFTER_SECONDS or share < ESTIMATE_AFTER_SHARE or share >= 1.0:
        return None
    return seconds * (1.0 - share) / share


@dataclass
class RunClock:
    """One run's clock: when it started, and when its current phase did."""

    started: float = field(default_factory=time.monotonic)
    """`time.monotonic()` at the run's start."""
    phase: str = ""
    """The phase of the last report."""
    phase_started: float = 0.0
    """When that phase's first report came."""
    last_text: str = ""
    """The last report's text, as shown (with the times)."""

    def elapsed(self, now: float | None = None) -> float:
        """Seconds since the run started."""
        return (time.monotonic() if now is None else now) - self.started

    def text(self, share: float, text: str, now: float | None = None) -> str:
        """`text` with the run's time so far and, when the phase has a pace, the time left in it."""
        now = time.monotonic() if now is None else now
        phase = phase_of(text)
        if phase != self.phase:
            self.phase, self.phase_started = phase, now
        words = f"{text} · {duration_text(self.elapsed(now))} so far"
        left = remaining_seconds(share, now - self.phase_started)
        if left is not None:
            words += f", about {duration_text(left)} left at the pace so far"
        self.last_text = words
        return words


def interrupted_text(
    what: str, cancelled: bool, seconds: float, reached: str, again: str = "", cancelled_sentence: str = ""
) -> str:
    """What the page says of a run that did not finish: cancelled (its Cancel was pressed; `cancelled_sentence` when
    the page has its own words for it) or interrupted (another button, a page change or a reload ended it), how far
    it got, that nothing was kept, and (`again`) how to run it again."""
    if cancelled:
        how = cancelled_sentence or f"The {what} was cancelled; nothing from it was kept."
    else:
        how = (
            f"The {what} was interrupted: something else was asked of the page while it ran (another button, "
            "another page), so it stopped; nothing from it was kept."
        )
    where = f" It had run {duration_text(seconds)}" + (f" and reached “{reached}”." if reached else ".")
    return how + where + (f" {again}" if again else "")
