"""The package's architecture, checked from its source: layers that point one way.

Imports point one way: structures, cards <- games <- players/solver/records/simulate <-
course <- cli. The graph is read from the source by ``ast`` (every import, those inside
functions and ``TYPE_CHECKING`` blocks included), so a lazy import cannot hide a cycle.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from solitaire_ds.course import REPO_ROOT

PACKAGE = REPO_ROOT / "solitaire_ds"

#: Each module's layer, by the longest matching dotted prefix; a module may import only
#: modules of its own layer or lower ones.
LAYERS: dict[str, int] = {
    "solitaire_ds": 0,  # the package's own __init__: the version, nothing else
    "solitaire_ds.text": 0,
    "solitaire_ds.stats": 0,
    "solitaire_ds.structures": 0,
    "solitaire_ds.cards": 0,
    "solitaire_ds.shuffle": 0,
    "solitaire_ds.games": 1,
    "solitaire_ds.players": 2,
    "solitaire_ds.interactive": 2,
    "solitaire_ds.solver": 2,
    "solitaire_ds.solver_models": 2,
    "solitaire_ds.no_peek": 2,
    "solitaire_ds.records": 2,
    "solitaire_ds.simulate": 2,
    "solitaire_ds.money": 2,  # Klondike for money: records and statistics of many games
    "solitaire_ds.story": 2,  # a game told from its record
    "solitaire_ds.course": 3,
    "solitaire_ds.conftest": 3,
    "solitaire_ds.cli": 4,
    "solitaire_ds.__main__": 4,
}
LAYER_NAMES = ["structures, cards", "games", "players/solver/records/simulate", "course", "cli"]


def module_name(path: Path, root: Path = REPO_ROOT) -> str:
    """Return the dotted name of a source file (a package's ``__init__`` is the package)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Return each module of ``package`` and the package modules it imports."""
    root = package.parent
    files = {module_name(p, root): p for p in package.rglob("*.py") if "__pycache__" not in p.parts}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: resolve against this module's package
                    base = name.split(".") if is_package else name.split(".")[:-1]
                    base = base[: len(base) - node.level + 1]
                    origin = ".".join([*base, node.module] if node.module else base)
                else:
                    origin = node.module or ""
                targets = [f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in files else origin
                           for alias in node.names]
            for target in targets:
                while target and target not in files:  # `import a.b.c` reaches a.b.c's module
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges.add(target)
        graph[name] = edges
    return graph


def layer(module: str) -> int:
    """Return the layer of a package module (the longest prefix in :data:`LAYERS`)."""
    best = max((p for p in LAYERS if module == p or module.startswith(p + ".")), key=len)
    return LAYERS[best]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_import_graph_has_no_cycle() -> None:
    assert cycles(import_graph()) == []


def test_imports_point_down_the_layers() -> None:
    upward = [
        f"{module} ({LAYER_NAMES[layer(module)]}) imports {target} ({LAYER_NAMES[layer(target)]})"
        for module, targets in sorted(import_graph().items())
        for target in sorted(targets)
        if layer(target) > layer(module)
    ]
    assert upward == []


def test_structures_know_nothing_of_the_rest() -> None:
    graph = import_graph()
    outside = {(m, t) for m, ts in graph.items() if m.startswith("solitaire_ds.structures")
               for t in ts if not t.startswith("solitaire_ds.structures")}
    assert outside == set()


def test_the_checks_catch_a_cycle_and_an_upward_import(tmp_path: Path) -> None:
    package = tmp_path / "solitaire_ds"
    (package / "games").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "games" / "__init__.py").write_text("from solitaire_ds.games import rules\n")
    (package / "games" / "rules.py").write_text("def f():\n    from solitaire_ds.cli import main\n")
    (package / "cli.py").write_text("from . import games\n")
    graph = import_graph(package)
    assert graph["solitaire_ds.cli"] == {"solitaire_ds.games"}
    assert cycles(graph) == [["solitaire_ds.cli", "solitaire_ds.games", "solitaire_ds.games.rules"]]
    assert layer("solitaire_ds.cli") > layer("solitaire_ds.games.rules")


def test_no_module_is_over_600_lines() -> None:
    sources = [*PACKAGE.rglob("*.py"), *(REPO_ROOT / "docs" / "hooks").rglob("*.py")]
    long = {str(p.relative_to(REPO_ROOT)): n for p in sources
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert long == {}


@pytest.mark.slow
def test_the_wheel_holds_the_contract_tests(tmp_path: Path) -> None:
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path), str(REPO_ROOT)],
        capture_output=True, text=True, timeout=600,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = tmp_path.glob("solitaire_ds-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    contracts = sorted(p.relative_to(REPO_ROOT).as_posix()
                       for p in (PACKAGE / "course" / "contracts").glob("*.py"))
    assert len(contracts) >= 14
    assert [c for c in contracts if c not in names] == []
    assert "solitaire_ds/conftest.py" in names
