"""A cached kernel is compiled again when a file it depends on changes, not only its own (`engines.stamp_cache`).

Numba keeps a cached kernel while the file defining it is unchanged; a constant or kernel it took from another file
is frozen into its machine code, so without the extended stamp an edit there is silently ignored on the next run."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import workbench
from workbench.engines import SHARED_KERNEL_FILES, kernel_sources, sources_stamp

WORKBENCH = Path(workbench.__file__).parent

KERNEL_MODULE = """
from numba import njit

from workbench.engines import rules_kernel
from value_source import VALUE


@rules_kernel
def stamped() -> int:
    return VALUE


@njit(cache=True)
def unstamped() -> int:
    return VALUE


print(stamped(), unstamped())
"""


def run_kernels(folder: Path, cache: Path) -> str:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": os.pathsep.join([str(folder), *sys.path])}
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run(
        [sys.executable, str(folder / "kernels.py")], env=env, capture_output=True, text=True, check=True, timeout=300
    )
    return done.stdout.strip()


def test_an_edit_to_a_file_the_kernel_reads_recompiles_it(tmp_path: Path) -> None:
    folder, cache = tmp_path / "kernels", tmp_path / "cache"
    folder.mkdir()
    (folder / "kernels.py").write_text(textwrap.dedent(KERNEL_MODULE), encoding="utf-8")
    (folder / "value_source.py").write_text("VALUE = 1\n", encoding="utf-8")
    assert run_kernels(folder, cache) == "1 1"
    (folder / "value_source.py").write_text("VALUE = 2\n", encoding="utf-8")
    # Numba's own stamp keeps the stale kernel (its file is unchanged); the extended one recompiles.
    assert run_kernels(folder, cache) == "2 1"


def test_an_engine_s_kernels_depend_on_the_shared_files_and_their_ruleset_package() -> None:
    sources = kernel_sources("workbench.rulesets.circles.engine")
    under_workbench = [path.relative_to(WORKBENCH).as_posix() for path in sources]
    assert under_workbench[: len(SHARED_KERNEL_FILES)] == list(SHARED_KERNEL_FILES)
    assert all(path.is_file() for path in sources)
    assert {"rules.py", "greedy.py", "search.py", "abilities.py", "options.py"} <= {path.name for path in sources}
    assert all(path.parent.name in {"workbench", "play", "circles", "engine"} for path in sources)
    # The engine is a package of modules whose kernels copy in each other's: a kernel of any of them depends on all.
    assert kernel_sources("workbench.rulesets.circles.engine.rules") == sources
    # The play layer's kernels and the shared helpers depend on the shared files alone.
    for module in ("workbench.play.policies", "workbench.play.loop", "workbench.engines"):
        assert kernel_sources(module) == sources[: len(SHARED_KERNEL_FILES)]


def test_every_module_of_the_play_layer_with_kernels_is_a_shared_kernel_file() -> None:
    # A kernel file of the play layer left off the list would leave every engine's cached kernels stale after an edit.
    with_kernels = {
        path.relative_to(WORKBENCH).as_posix()
        for path in [WORKBENCH / "engines.py", *sorted((WORKBENCH / "play").glob("*.py"))]
        if "_kernel\n" in path.read_text(encoding="utf-8")
    }
    assert with_kernels == set(SHARED_KERNEL_FILES)


def test_the_stamp_follows_content(tmp_path: Path) -> None:
    first, second = tmp_path / "a.py", tmp_path / "b.py"
    first.write_text("A = 1\n", encoding="utf-8")
    second.write_text("B = 1\n", encoding="utf-8")
    before = sources_stamp((first, second))
    assert sources_stamp.__wrapped__((first, second)) == before  # uncached: same files, same stamp
    second.write_text("B = 2\n", encoding="utf-8")
    assert sources_stamp.__wrapped__((first, second)) != before
