"""How many machine-code copies an engine's kernels compile, and which calls type a kernel with a literal argument.

    NUMBA_CACHE_DIR=$(mktemp -d) python tests/kernel_overloads.py RULESET [-v]

compiles the engine as `workbench warm` does (an empty cache: a kernel loaded from the cache shows only the overloads
this process asked for) and prints the kernels, the overloads they compiled, the kernels with more than one, and
every call site at which Numba typed a kernel call with a literal argument (file, line, callee, the literal).

Numba compiles a called kernel once per distinct literal: a local `i = 0` or `x if c else -1` passed on types the
callee for `Literal[int](0)` while type inference is still propagating, before the variable unifies to int64, so the
callee (and everything it calls with that argument) is compiled twice. `np.int64(...)` at the assignment, or a
module-level `np.int64` constant, types it once (`workbench.engines.rules_kernel`'s docstring). A kernel with two
overloads that differ only in the record type (plasma's traced and untraced match state) is by design; `-v` prints
every multi-overload kernel's signatures.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import pkgutil
import sys
from typing import Any

from numba.core import typeinfer
from numba.core import types as nbtypes
from numba.core.dispatcher import Dispatcher
from numba.core.registry import CPUDispatcher

LiteralSite = tuple[str, int, str, tuple[str, ...]]


def _is_literal(t: Any) -> bool:
    return isinstance(t, nbtypes.Literal) and not isinstance(t, nbtypes.StringLiteral)


def record_literal_calls(found: set[LiteralSite]) -> None:
    """Note, while Numba types calls, each call of a kernel with a literal argument (Numba's own typing hook)."""
    typed_call = Dispatcher.get_call_template

    def noting(self: Any, args: Any, kws: Any) -> Any:
        if any(_is_literal(a) for a in args):
            for frame in inspect.stack(0):
                constraint = frame.frame.f_locals.get("self")
                if isinstance(constraint, typeinfer.CallConstraint):
                    where = constraint.loc
                    literals = tuple(str(a) for a in args if _is_literal(a))
                    found.add((where.filename.rsplit("/", 1)[-1], where.line, self.py_func.__name__, literals))
                    break
        return typed_call(self, args, kws)

    Dispatcher.get_call_template = noting  # type: ignore[method-assign]


def main(ruleset_id: str, verbose: bool) -> None:
    found: set[LiteralSite] = set()
    record_literal_calls(found)
    from workbench.cli import main as cli_main
    from workbench.rulesets import get_ruleset

    with contextlib.suppress(SystemExit):  # `warm`'s exit status: its output says what failed
        cli_main(["warm", ruleset_id, "-q"])
    package_name = get_ruleset(ruleset_id).engine_module or sys.exit(f"{ruleset_id} has no engine")
    package = importlib.import_module(package_name)
    kernels: dict[str, CPUDispatcher] = {}
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package_name}.{info.name}")
        for name, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.__module__ == module.__name__:
                kernels[f"{info.name}.{name}"] = value
    multiple = {name: k for name, k in kernels.items() if len(k.signatures) > 1}
    overloads = sum(len(k.signatures) for k in kernels.values())
    print(f"{ruleset_id}: {len(kernels)} kernels, {overloads} overloads, {len(multiple)} kernels with more than one")
    if verbose:
        for name, k in sorted(multiple.items()):
            print(f"  {name}: {len(k.signatures)}")
            for signature in k.signatures:
                print("     ", signature)
    print(f"{len(found)} call sites type a kernel with a literal argument")
    for site in sorted(found):
        print("  ", *site)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], "-v" in sys.argv[2:])
