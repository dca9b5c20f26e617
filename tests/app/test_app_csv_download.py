"""Issue 37: CSV downloads in the app go through the formula-safe writer. Streamlit's own table download (which writes
`=cmd|' /C calc'!A0` unchanged) is hidden with `client.disableDataExport`; the card grid and the findings table offer
a Download CSV button whose file is `spreadsheets.csv_text` of the table."""

from __future__ import annotations

import csv
import io

import pytest
import streamlit
from app.app_helpers import SOULS_SMALL, Served, go, new_app, record_csv_downloads, upload_cardset

from workbench.app import CARD_EDITOR
from workbench.spreadsheets import csv_text

PAYLOAD = "=cmd|' /C calc'!A0"


@pytest.fixture
def downloads(monkeypatch: pytest.MonkeyPatch) -> Served:
    """Label -> (file name, content) of every CSV download button drawn."""
    return record_csv_downloads(monkeypatch)


def _hostile_set() -> bytes:
    rows = list(csv.reader(SOULS_SMALL.read_text(encoding="utf-8").splitlines()))
    rows[1][0] = PAYLOAD  # a card name that a spreadsheet program would run as a formula
    rows[1][2] = "7"  # and a cost finding on that card, so the findings table holds the name too
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue().encode("utf-8")


def test_the_grid_and_findings_download_as_csv_with_the_formula_neutralised(downloads: Served) -> None:
    at = new_app()
    assert streamlit.get_option("client.disableDataExport") is True  # the built-in table download is hidden
    upload_cardset(at, data=_hostile_set(), name="hostile.csv", ruleset="souls")
    go(at, CARD_EDITOR)
    name, grid = downloads["Download cards (CSV)"]
    assert name == "hostile.csv"
    cells = [cell for row in csv.reader(io.StringIO(grid)) for cell in row]
    assert "'" + PAYLOAD in cells and PAYLOAD not in cells
    _, findings = downloads["Download findings (CSV)"]
    fields = [cell for row in csv.reader(io.StringIO(findings)) for cell in row]
    assert not [cell for cell in fields if cell.startswith(("=", "+", "-", "@"))], fields
    assert any(PAYLOAD in cell for cell in fields)


def test_csv_text_neutralises_every_formula_like_cell() -> None:
    import pandas as pd

    frame = pd.DataFrame({"name": [PAYLOAD, "Ember Imp", None], "=header": ["+1", "@x", float("nan")]})
    rows = list(csv.reader(io.StringIO(csv_text(frame))))
    assert rows == [["name", "'=header"], ["'" + PAYLOAD, "'+1"], ["Ember Imp", "'@x"], ["", ""]]
