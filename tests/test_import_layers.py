"""No import cycle among the workbench's modules (DESIGN.md sections 1-2, issue 31): checked on the code, with `ast`.

Each layer imports only downwards: engines -> simulate -> analysis -> charts / reports, pages thin. Every import of
a workbench module counts, at any depth (an import inside a function is a cycle all the same, only hidden until the
function runs), and so does `importlib.import_module("workbench....")` with a literal name. Two kinds do not:

- imports under `if TYPE_CHECKING:`, which never run (annotations only; `workbench.cards` names `Ruleset` so);
- `from workbench import __version__`: the root package is the notebook facade, above every layer (its functions
  import them), and the one place the version is written; it is initialised before any of its submodules.

The modules are parsed, never imported, so the check takes a fraction of a second.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "workbench"
ROOT = "workbench"
ROOT_CONSTANTS = frozenset({"__version__"})
"""What a submodule may import from the root package itself (see the module docstring)."""

PRIVATE_IMPORTS_LEFT: frozenset[tuple[str, str, str]] = frozenset()
"""Private names still imported across modules (importer, module, name). Empty since issue 31's last three were made
public (`charts.hover_wrap`, `charts.spread_offsets`, `blades.costs.check_effects`): a new one fails here."""


@dataclass(frozen=True)
class Edge:
    """`source` imports `target` at `line` (the names imported, for the message)."""

    source: str
    target: str
    line: int
    names: tuple[str, ...]

    def __str__(self) -> str:
        names = f" ({', '.join(self.names)})" if self.names else ""
        return f"{self.source} -> {self.target}{names}, line {self.line}"


def _module_names() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package (a package by its `__init__.py`)."""
    modules: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


MODULES = _module_names()


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _run_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node that can run: the whole tree, less the bodies of `if TYPE_CHECKING:` blocks."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def _known(name: str) -> str | None:
    """The workbench module `name` is, or lies in (`workbench.simulate.Job` -> `workbench.simulate`)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


@cache
def _imports(module: str) -> tuple[tuple[int, str, str], ...]:
    """(line, imported module, name imported from it, or "" for a whole module) for every import that can run."""
    return tuple(_read_imports(module, MODULES[module]))


def _read_imports(module: str, path: Path) -> Iterator[tuple[int, str, str]]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in _run_nodes(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, ""
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                # `from workbench import simulate` imports the module; `from workbench.simulate import Job` a name.
                yield (node.lineno, submodule, "") if submodule in MODULES else (node.lineno, base, alias.name)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.lineno, node.args[0].value, ""


def import_graph() -> dict[str, list[Edge]]:
    """Module -> its imports of other workbench modules (every one that can run; see the module docstring)."""
    graph: dict[str, list[Edge]] = {module: [] for module in MODULES}
    for module in MODULES:
        by_target: dict[tuple[str, int], list[str]] = {}
        for line, imported, name in _imports(module):
            target = _known(imported)
            if target is None or target == module:
                continue
            if target == ROOT and name in ROOT_CONSTANTS:
                continue
            by_target.setdefault((target, line), []).append(name)
        graph[module] = [
            Edge(module, target, line, tuple(n for n in names if n)) for (target, line), names in by_target.items()
        ]
    return graph


def strongly_connected(graph: dict[str, list[Edge]]) -> list[list[str]]:
    """The strongly connected components (Tarjan's, without recursion), each sorted; a cycle is one of two or more."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    work: list[tuple[str, Iterator[str]]] = []
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        work.append((node, iter(sorted({edge.target for edge in graph[node]}))))

    for start in graph:
        if start in index:
            continue
        visit(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    visit(target)
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return components


def test_the_graph_sees_what_the_modules_import() -> None:
    # The check itself: every module, imports at the top and inside functions, none under TYPE_CHECKING.
    targets = {module: {edge.target for edge in edges} for module, edges in import_graph().items()}
    assert "workbench.simulate" in targets and "workbench.rulesets.blades.engine" in targets and len(targets) > 50
    assert "workbench.simulate" in targets["workbench.analysis"]  # at the top
    assert "workbench.simulate" in targets["workbench"]  # inside `simulate_matches`
    assert "workbench.rulesets.base" not in targets["workbench.cards"]  # under TYPE_CHECKING only
    assert "workbench" not in targets["workbench.simulate"]  # `from workbench import __version__` only


def test_no_import_cycle_among_the_workbench_modules() -> None:
    graph = import_graph()
    cycles = [component for component in strongly_connected(graph) if len(component) > 1]
    described = [
        " <-> ".join(component)
        + "".join(f"\n    {edge}" for member in component for edge in graph[member] if edge.target in component)
        for component in cycles
    ]
    assert not cycles, "import cycles (each layer imports only downwards):\n" + "\n".join(described)


def test_the_cycle_finder_finds_a_cycle() -> None:
    edge = Edge("a", "b", 1, ())
    graph = {"a": [edge], "b": [Edge("b", "c", 1, ())], "c": [Edge("c", "a", 1, ())], "d": [Edge("d", "a", 1, ())]}
    assert sorted(strongly_connected(graph)) == [["a", "b", "c"], ["d"]]


def test_no_private_name_is_imported_across_modules() -> None:
    private = set()
    for module in MODULES:
        for _, imported, name in _imports(module):
            target = _known(imported)
            if target is not None and target != module and name.startswith("_") and not name.startswith("__"):
                private.add((module, target, name))
    assert private <= PRIVATE_IMPORTS_LEFT, (
        f"make these public, or keep them in their module: {private - PRIVATE_IMPORTS_LEFT}"
    )
    assert private == PRIVATE_IMPORTS_LEFT, (
        f"fixed: take these off PRIVATE_IMPORTS_LEFT: {PRIVATE_IMPORTS_LEFT - private}"
    )


def test_the_play_layer_stands_between_the_kernel_helpers_and_the_engines() -> None:
    # workbench.play is written once for every engine (issue 31): it may read the kernel helpers and the card model,
    # never a ruleset, and the helpers never read it back; every engine plays through it.
    graph = import_graph()
    play = {module for module in MODULES if module == "workbench.play" or module.startswith("workbench.play.")}
    assert {
        "workbench.play.loop",
        "workbench.play.policies",
        "workbench.play.search",
        "workbench.play.assembly",
    } <= play
    below = {"workbench.engines", "workbench.cards"}
    for module in sorted(play):
        reads = {edge.target for edge in graph[module]}
        assert reads <= play | below, f"{module} reads {sorted(reads - play - below)}"
    assert not {edge.target for edge in graph["workbench.engines"]} & play
    every_engine = [
        f"workbench.rulesets.{ruleset}.engine" for ruleset in ("blades", "circles", "plasma", "souls", "source")
    ]
    for engine in every_engine:
        package_reads = {edge.target for module, edges in graph.items() if module.startswith(engine) for edge in edges}
        assert "workbench.play.loop" in package_reads and "workbench.play.policies" in package_reads, engine
