"""tests/kernel_perf_map.py: the perf map names the kernels compiled in the process, at their addresses."""

from __future__ import annotations

import os
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from kernel_perf_map import write_perf_map
from numba import njit


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="no compiled kernels without the JIT")
def test_the_map_holds_a_kernel_compiled_here_at_its_entry(tmp_path: Path) -> None:
    module = types.ModuleType("workbench.perf_map_probe")

    def summed_squares(values: np.ndarray) -> float:
        total = 0.0
        for v in values:
            total += v * v
        return total

    kernel = njit(cache=False)(summed_squares)
    module.kernel = kernel  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    try:
        assert kernel(np.arange(4.0)) == 14.0
        path, written, _ = write_perf_map(tmp_path / "perf.map")
    finally:
        del sys.modules[module.__name__]
    result: Any = next(iter(kernel.overloads.values()))  # a CompileResult: its stub lists neither field read
    entry = result.library.get_pointer_to_function(result.fndesc.llvm_func_name)
    rows = [line.split(" ", 2) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == written
    named = [(int(start, 16), int(size, 16), name) for start, size, name in rows if "summed_squares" in name]
    assert any(start == entry and size > 0 for start, size, _ in named), named
