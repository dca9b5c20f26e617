"""Each Numba dispatcher's own compile time in one `workbench` command (round 5 of plasma's Speed notes).

    NUMBA_CACHE_DIR=$(mktemp -d) PYTHONPATH=<tree> python tests/rulesets/plasma/compile_times.py \
        simulate plasma/plasma_core --deck bulwark --deck bulwark --matches 10 --seed 1 --workers 1

runs `python -m workbench` with the given arguments and a listener on Numba's `numba:compile` events, then prints to
stderr, at exit, every dispatcher that took over 0.2 s of CPU time of its own (its nested compiles taken out), the
biggest first, with how many overloads it compiled. Numba copies a called kernel's whole module into each caller's
and optimizes and code-generates it again there, so a kernel's own time includes that work for everything it calls.
"""

from __future__ import annotations

import atexit
import runpy
import sys
import time
from collections import defaultdict
from typing import Any

from numba.core import event

_open: list[list[float]] = []
"""One [start, nested] per compile under way: its start (CPU seconds) and the time its nested compiles took."""
_own: defaultdict[str, float] = defaultdict(float)
"""Each dispatcher's compile time (CPU seconds) without its nested compiles."""
_overloads: defaultdict[str, int] = defaultdict(int)
"""How many overloads each dispatcher compiled."""


class _CompileTimes(event.Listener):
    """Charges each compile's CPU time to its dispatcher, less what its nested compiles took."""

    def on_start(self, ev: Any) -> None:
        _open.append([time.process_time(), 0.0])

    def on_end(self, ev: Any) -> None:
        start, nested = _open.pop()
        total = time.process_time() - start
        name = ev.data["dispatcher"].py_func.__qualname__
        _own[name] += total - nested
        _overloads[name] += 1
        if _open:
            _open[-1][1] += total


def _report() -> None:
    """Print the total and each dispatcher over 0.2 s, the biggest first."""
    print(f"# compile total {sum(_own.values()):.1f} s cpu, {len(_own)} dispatchers", file=sys.stderr)
    for name, seconds in sorted(_own.items(), key=lambda item: -item[1]):
        if seconds > 0.2:
            print(f"{seconds:7.2f} {_overloads[name]} {name}", file=sys.stderr)


if __name__ == "__main__":
    event.register("numba:compile", _CompileTimes())
    atexit.register(_report)
    sys.argv = ["workbench", *sys.argv[1:]]
    runpy.run_module("workbench", run_name="__main__")
