"""The fast loop's slow list (tests/slow_tests.txt, read by tests/conftest.py) names tests that exist: a renamed or
removed test would otherwise leave a stale line behind and its successor in the fast loop unnoticed."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_every_line_of_the_slow_list_names_a_test_that_exists() -> None:
    missing = []
    for line in (TESTS / "slow_tests.txt").read_text(encoding="utf-8").splitlines():
        node = line.split("#", 1)[0].strip()
        if not node:
            continue
        path, _, name = node.partition("::")
        source = TESTS.parent / path
        function = name.split("::")[-1]
        if not source.is_file() or not re.search(
            rf"^\s*(async )?def {re.escape(function)}\(", source.read_text("utf-8"), re.M
        ):
            missing.append(node)
    assert missing == []
