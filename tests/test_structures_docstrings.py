"""The structures' docstrings say each method's complexity and carry a doctest (issue 2).

The doctests themselves run with the rest (``--doctest-modules``); this checks that none
is missing, so a new method without one fails here: every docstring of the abstract
types in ``base.py`` and of the six classes' modules, private helpers and nodes included.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import solitaire_ds.structures

STRUCTURES = Path(solitaire_ds.structures.__file__).parent
MODULES = sorted(p for p in STRUCTURES.glob("*.py") if p.name not in ("__init__.py", "toolkit.py"))


def documented(path: Path, *, private_too: bool) -> list[tuple[str, ast.AST, str | None]]:
    """Return (name, node, docstring) for the module, its classes and their methods.

    Without ``private_too``, only public classes and their public and protocol methods.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, ast.AST, str | None]] = [("<module>", tree, ast.get_docstring(tree))]
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef) or (cls.name.startswith("_") and not private_too):
            continue
        found.append((cls.name, cls, ast.get_docstring(cls)))
        for node in cls.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            dunder = node.name.startswith("__") and node.name.endswith("__")
            if node.name.startswith("_") and not dunder and not private_too:
                continue
            found.append((f"{cls.name}.{node.name} (line {node.lineno})", node,
                          ast.get_docstring(node)))
    return found


def problems(path: Path, *, private_too: bool) -> list[str]:
    """Return what is missing: a docstring, a doctest, a method's complexity line."""
    found = []
    for name, node, doc in documented(path, private_too=private_too):
        if isinstance(node, ast.FunctionDef) and node.name.startswith("__") and doc is None \
                and node.name not in ("__init__", "__len__", "__iter__"):
            continue  # protocol methods documented once, on the ADT (``__eq__``, ...)
        if doc is None:
            found.append(f"{name}: no docstring")
            continue
        if ">>>" not in doc:
            found.append(f"{name}: no doctest")
        if isinstance(node, ast.FunctionDef) and "Runtime complexity:" not in doc:
            found.append(f"{name}: no 'Runtime complexity:' line")
    return found


def test_every_docstring_of_the_abstract_types_has_a_doctest_and_its_complexity() -> None:
    assert problems(STRUCTURES / "base.py", private_too=True) == []


@pytest.mark.parametrize("path", [p for p in MODULES if p.name != "base.py"], ids=lambda p: p.name)
def test_every_docstring_of_the_six_classes_has_a_doctest_and_its_complexity(path: Path) -> None:
    # The module (its invariant, shown on a real object), the class, every method, the
    # private helpers (_grow, _resize, _check) and the nodes of the linked classes.
    assert problems(path, private_too=True) == []
