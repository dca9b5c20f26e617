"""Issue 37: a workbook holding macros (a `.xlsm` renamed `.xlsx`) opens, the card editor says beside Save as xlsx
that the save leaves the macros out, and the file it saves holds none (tests/hardening/test_hardening_macros.py
checks the package part by part)."""

from __future__ import annotations

import io
import zipfile

from app.app_helpers import SOULS_SMALL, go, new_app, upload_cardset, workspace
from hardening.test_hardening_macros import renamed_xlsm
from streamlit.testing.v1 import AppTest

from workbench.app import CARD_EDITOR
from workbench.app.workspace import workspace_xlsx_bytes
from workbench.xlsx_package import macro_parts


def _macro_warnings(at: AppTest) -> list[str]:
    return [str(w.value) for w in at.warning if "macros" in str(w.value)]


def test_the_editor_warns_that_a_save_leaves_the_macros_out() -> None:
    at = upload_cardset(new_app(), data=renamed_xlsm(from_sheet=True), name="renamed.xlsx", ruleset="souls")
    go(at, CARD_EDITOR)
    warnings = _macro_warnings(at)
    assert len(warnings) == 1, warnings
    assert "xl/vbaProject.bin" in warnings[0] and "Save as xlsx leaves them out" in warnings[0]
    assert [button.label for button in at.download_button][0] == "Save as xlsx"
    saved = workspace_xlsx_bytes(workspace(at))  # what the Save button downloads
    assert macro_parts(saved) == []
    assert not [name for name in zipfile.ZipFile(io.BytesIO(saved)).namelist() if "vba" in name.casefold()]


def test_a_workbook_without_macros_gets_no_such_warning() -> None:
    at = go(upload_cardset(new_app(), SOULS_SMALL), CARD_EDITOR)
    assert _macro_warnings(at) == []
