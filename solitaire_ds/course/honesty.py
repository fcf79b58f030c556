"""Notes for the instructor about how a structure keeps its items, read from the source.

Invariant: :func:`list_notes` reads a submission's file with ``ast`` (it never runs it)
and never changes a score: the tests decide the grade from what the code does. It notes a
structure that keeps its items in a Python ``list`` it grows or shrinks item by item
(``self._slots.append(x)``, ``self._items += [x]``, ``.insert``, ``.pop``) or in a
``collections.deque`` -- the exercise asks for the structure's own slots or nodes, and a
test that counts copies may not show every such shortcut. Names in type hints are not
uses: a ``deque`` in an annotation is not noted.

>>> list_notes("class S:\\n    def push(self, x):\\n        self._slots.append(x)\\n", "structures/array_stack.py")
['structures/array_stack.py line 3: grows a Python list with .append() (the exercise asks for its own slots or nodes)']
>>> list_notes("import sys\\nclass S:\\n    def push(self, x: 'collections.deque'):\\n        self._slots[0] = x\\n",
...            "structures/array_stack.py")
[]
"""

from __future__ import annotations

import ast

from solitaire_ds.course.similarity import parse

__all__ = ["list_notes"]

_GROWING = {"append", "extend", "insert", "pop", "remove", "clear", "appendleft", "popleft"}
_WHY = "(the exercise asks for its own slots or nodes)"


def list_notes(source: str, relpath: str) -> list[str]:
    """Return one note per place where structure file ``relpath`` takes a list or deque shortcut.

    Only structure files (``structures/...``) are read; a file that does not parse has no
    notes (the tests say why it does not import).

    Runtime complexity: O(n) in the length of ``source``.
    """
    if not relpath.startswith("structures/"):
        return []
    tree = parse(source)
    if tree is None:
        return []
    hints = {id(node) for node in ast.walk(tree) for node in _annotations(node)}
    notes: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in hints:
            continue
        line = int(getattr(node, "lineno", 0))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            receiver = node.func.value
            if node.func.attr in _GROWING and _is_own_attribute(receiver):
                notes.append((line, f"grows a Python list with .{node.func.attr}()"))
            elif node.func.attr == "deque":
                notes.append((line, "keeps its items in a collections.deque"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "deque":
            notes.append((line, "keeps its items in a collections.deque"))
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and _is_own_attribute(node.target) \
                and isinstance(node.value, (ast.List, ast.ListComp)):
            notes.append((line, "grows a Python list with +="))
    return [f"{relpath} line {line}: {what} {_WHY}" for line, what in sorted(set(notes))]


def _is_own_attribute(node: ast.expr) -> bool:
    """``self.something``: an attribute of the structure itself."""
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"


def _annotations(node: ast.AST) -> list[ast.AST]:
    """Every node inside the type hints of ``node`` (they are not uses)."""
    found: list[ast.AST] = []
    hints: list[ast.expr | None] = []
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        hints.append(node.returns)
        args = node.args
        hints += [a.annotation for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
        hints += [a.annotation for a in (args.vararg, args.kwarg) if a is not None]
    elif isinstance(node, ast.AnnAssign):
        hints.append(node.annotation)
    for hint in hints:
        if hint is not None:
            found.extend(ast.walk(hint))
    return found
