"""The Balance page's health panel: "Which rule options move the match length" (issue 34, item 4) runs
`workbench.health.length_options` on the health check's settings and shows the readings that move it, a table and a
chart of the change in length."""

from __future__ import annotations

from app.app_helpers import as_read, first_bundled, go, new_app, open_bundled, plotly_charts, shown_text

from workbench.app import BALANCE
from workbench.health import LengthOptions

TIMEOUT = 900


def test_the_health_panel_measures_which_rule_options_move_the_match_length() -> None:
    path = first_bundled("circles")
    assert path is not None
    at = go(open_bundled(new_app(timeout=TIMEOUT), path), BALANCE)
    at.number_input(key="balance_health_matches").set_value(100)
    at.number_input(key="balance_health_seed").set_value(2)
    at.run()
    at.button(key="balance_health_run").click()
    at.run(timeout=TIMEOUT)
    assert not at.exception, [e.value for e in at.exception]
    at.button(key="balance_length_options_run").click()
    at.run(timeout=TIMEOUT)
    assert not at.exception, [e.value for e in at.exception]
    kept = [value for value in at.session_state["simulation_results"].values() if isinstance(value, LengthOptions)]
    assert len(kept) == 1
    result = kept[0]
    assert result.meta["matches_per_pair"] == 100 and result.meta["seed"] == 2
    assert "new_characters_attack=false" in [reading.label for reading in result.moving]
    text = as_read(shown_text(at))
    assert "Rule options that move it" in text and result.moving[0].sentence(result.baseline) in text
    table = next(frame.value for frame in at.dataframe if "change_low" in frame.value.columns)
    assert table["label"].iloc[0] == "as given" and len(table) == result.meta["readings_measured"]
    charts = [chart for chart in plotly_charts(at) if "Change in match length" in chart.proto.spec]
    assert len(charts) == 1
    # Kept for these settings: a rerun shows it without playing again.
    at.run()
    assert "Rule options that move it" in as_read(shown_text(at))
