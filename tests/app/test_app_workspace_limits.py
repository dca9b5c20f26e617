"""The app under the wide-header upload of issue 14: a 1.5 MB csv of 1,024 header columns and 199,999 one-cell rows
took the server to 7.19 GB (and it kept 5.1 GB afterwards). The upload runs through the real Card sets page
(`AppTest`) in a fresh process, so the peak measured is that session's own, not the test run's."""

from __future__ import annotations

import json
from pathlib import Path

from hardening import hostile_inputs as h

SESSION = r"""
import json, sys
sys.path.insert(0, sys.argv[2])
from app_helpers import new_app, upload_cardset, workspace
at = new_app()
upload_cardset(at, data=open(sys.argv[1], "rb").read(), name="wide.csv", ruleset="souls")
shown = [e.value for e in at.error] + [e.value for e in at.exception]
print(json.dumps({"errors": shown, "open": workspace(at).filename if "workspace" in at.session_state else None}))
"""


def test_uploading_the_wide_header_csv_is_refused_with_the_server_under_1_gib(tmp_path: Path) -> None:
    path = h.wide_header_csv(tmp_path / "wide.csv")
    run = h.python_snippet(SESSION, str(path), str(Path(__file__).parent), timeout=240)
    print(f"\nAPP wide csv upload: exit {run.code} in {run.seconds:.1f} s, peak {run.peak_mib:.0f} MiB")
    assert run.code == 0, run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert any("wide.csv" in text and "5,000,000 cells" in text for text in report["errors"]), report
    assert report["open"] != "wide.csv"  # the set that was open stays open
    assert run.peak_mib < 1024, run
