"""Where an engine's compiled time goes: a perf map of the Numba kernels, so `perf report` names them.

    NUMBA_CACHE_DIR=<empty> perf record -F 4000 -o perf.data python tests/kernel_perf_map.py SCRIPT [ARGS ...]
    perf report -i perf.data --no-children --sort sym -n

runs SCRIPT (a speed script: `tests/rulesets/blades/search_speed.py 1000`, ...) in this process, then writes
`/tmp/perf-PID.map` (the file `perf report` reads for code it has no symbols for) with every function of every Numba
library that a `workbench` module's kernels were compiled into: its address, its size (up to the next function's
address: a function's code runs to the next one's in a library's memory) and its name (Numba's mangled name after
`workbench`, `8rulesets6blades6engine6search13play_turn_out...`). Functions that LLVM copied into their caller are
counted in the caller.

Numba keeps the LLVM module of a kernel it compiled in this process, not of one it loaded from its cache, so run with
an empty NUMBA_CACHE_DIR: the map says how many libraries it could not read.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path
from typing import Any

from numba.core.registry import CPUDispatcher

LARGEST = 1 << 20
"""The size given to a library's last function (its end is not known): at most 1 MiB, and never past the next one."""


def kernel_functions() -> tuple[dict[int, str], int]:
    """Every function of the Numba libraries of the `workbench` modules' kernels, by address; and how many libraries
    had no LLVM module to read (loaded from the cache)."""
    libraries: dict[int, Any] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("workbench") or module is None:
            continue
        for value in list(vars(module).values()):
            if isinstance(value, CPUDispatcher):
                for result in value.overloads.values():
                    compiled: Any = result  # Numba's CompileResult: its stub does not list `library`
                    libraries[id(compiled.library)] = compiled.library
    functions: dict[int, str] = {}
    unread = 0
    for library in libraries.values():
        llvm_module = getattr(library, "_final_module", None)
        if llvm_module is None:
            unread += 1
            continue
        for function in llvm_module.functions:
            if function.is_declaration:
                continue
            address = library.get_pointer_to_function(function.name)
            if address:
                functions[address] = function.name.split("workbench", 1)[-1]
    return functions, unread


def write_perf_map(path: Path | None = None) -> tuple[Path, int, int]:
    """Write the perf map (`/tmp/perf-PID.map` by default): returns its path, the functions written and the libraries
    that could not be read."""
    functions, unread = kernel_functions()
    path = path or Path(f"/tmp/perf-{os.getpid()}.map")
    addresses = sorted(functions)
    rows = []
    for k, address in enumerate(addresses):
        size = min(addresses[k + 1] - address, LARGEST) if k + 1 < len(addresses) else LARGEST
        rows.append(f"{address:x} {size:x} {functions[address]}\n")
    path.write_text("".join(rows), encoding="utf-8")
    return path, len(rows), unread


def main(argv: list[str]) -> None:
    if not argv:
        sys.exit(__doc__)
    script = argv[0]
    sys.argv = list(argv)
    sys.path.insert(0, str(Path(script).resolve().parent))
    try:
        runpy.run_path(script, run_name="__main__")
    finally:
        path, written, unread = write_perf_map()
        note = f"; {unread} libraries loaded from the cache were not read (an empty NUMBA_CACHE_DIR reads all)"
        print(f"{path}: {written} kernel functions{note if unread else ''}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
