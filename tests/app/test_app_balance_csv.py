"""Issue 37: the Balance page's verdict, matchup and health tables download as CSV through the formula-safe writer.

Streamlit's own table download is hidden (`client.disableDataExport`, since it wrote `=cmd|' /C calc'!A0` as it
was), so each table has a Download CSV button whose file is `spreadsheets.csv_text` of the table shown: a card or
deck name that a spreadsheet program would run as a formula is written with a leading apostrophe, as text.
"""

from __future__ import annotations

import csv
import io

import pytest
from app.app_helpers import DATA, Served, go, new_app, record_csv_downloads, upload_cardset
from toy_engine import TOY

from workbench.app import BALANCE, DECKS
from workbench.rulesets import RULESETS

CARD = "=cmd|' /C calc'!A0"
"""A card name a spreadsheet program would run as a command (the toy set's Bargain, renamed)."""
DECK_A = "@SUM(1+1)*cmd|' /C calc'!A0"
DECK_B = "+cmd|' /C calc'!A0"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\0")


@pytest.fixture
def downloads(monkeypatch: pytest.MonkeyPatch) -> Served:
    """Label -> (file name, content) of every CSV download button drawn."""
    return record_csv_downloads(monkeypatch)


def _cells(content: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(content)) for cell in row]


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def test_verdict_matchup_and_health_tables_download_as_csv_with_formulas_neutralised(
    downloads: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(RULESETS, "toy", TOY)
    cards = (DATA / "toy_cards.csv").read_text(encoding="utf-8").replace("Bargain,", f'"{CARD}",')
    at = upload_cardset(new_app(), data=cards.encode(), name="toy_cards.csv", ruleset="toy")
    go(at, DECKS)
    for name, text in ((DECK_A, "6 Filler\n2 Cheap\n2 Mid\n2 Big"), (DECK_B, "4 Filler\n4 Cheap\n4 Dud")):
        at.text_input(key="deck_paste_name").set_value(name)
        at.text_area(key="deck_paste_text").set_value(text)
        at.run()
        at.button(key="deck_add_pasted").click()
        at.run()
    go(at, BALANCE)
    at.number_input(key="balance_health_matches").set_value(100)
    at.multiselect(key="balance_also_policies").set_value(["random"])  # a second run: the verdicts table
    at.number_input(key="balance_matches").set_value(200)
    at.number_input(key="balance_per_card").set_value(60)
    at.run()
    at.button(key="balance_run").click()
    at.run()
    at.button(key="balance_health_run").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]

    expected = {
        "Download the power curve (CSV)": ("power_curve_seed", CARD),
        "Download the verdicts (CSV)": ("verdicts_seed", CARD),
        "Download the matchups (CSV)": ("matchups_seed", DECK_A),
        "Download the health figures (CSV)": ("health_figures_seed", None),
        "Download the health decks (CSV)": ("health_decks_seed", DECK_A),
        "Download the health pairs (CSV)": ("health_pairs_seed", DECK_B),
    }
    labels = [button.label for button in at.download_button]
    assert set(expected) <= set(labels), labels
    for label, (stem, payload) in expected.items():
        file_name, content = downloads[label]
        assert file_name.startswith(stem) and file_name.endswith(".csv"), file_name
        cells = _cells(content)
        assert len(cells) > 1, (label, content)
        # Nothing a spreadsheet program would run: a cell starting like a formula is a plain number (-0.125).
        risky = [cell for cell in cells if cell.startswith(FORMULA_STARTS) and not _is_number(cell)]
        assert not risky, (label, risky)
        if payload is not None:
            assert "'" + payload in cells and payload not in cells, (label, content[:2000])
    # The file is the table the page shows, row for row.
    shown = next(frame.value for frame in at.dataframe if "sensitive" in frame.value.columns)
    verdicts = list(csv.reader(io.StringIO(downloads["Download the verdicts (CSV)"][1])))
    assert len(verdicts) == len(shown) + 1 and verdicts[0] == [str(column) for column in shown.columns]
