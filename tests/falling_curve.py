"""A power curve whose line falls, with play shares by cost: what the Why statement reads (`PowerCurve.why_statement`),
for tests of its words without running a curve."""

from __future__ import annotations

from typing import Any

import pandas as pd

from workbench.analysis import PowerCurve
from workbench.simulate import Rate


def falling_curve(meta: dict[str, Any]) -> PowerCurve:
    """Three cards at costs 1, 3 and 6, played in time in 90%, 50% and 1% of their matches, five turns a match; the
    line falls (its slope's interval holds 0), so the Why statement is given; `meta` is the curve's provenance."""
    cards = pd.DataFrame(
        {
            "card": ["Quick", "Mid", "Late"],
            "cost": [1.0, 3.0, 6.0],
            "played_in_time": [0.9, 0.5, 0.01],
            "mean_turns": [5.0, 5.0, 5.0],
        }
    )
    return PowerCurve(
        cards=cards,
        tiers=pd.DataFrame(),
        intercept=0.1,
        slope=-0.02,
        baseline=Rate.of(50, 100),
        meta=meta,
        slope_low=-0.05,
        slope_high=0.01,
    )
