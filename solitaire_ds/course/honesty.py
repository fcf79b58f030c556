"""Notes for the instructor about how a structure keeps its items, read from the source.

Invariant: :func:`list_notes` reads a submission's file with ``ast`` (it never runs it)
and never changes a score: the tests decide the grade from what the code does. It notes a
structure that keeps its items in a Python ``list`` it grows or shrinks item by item, or in
a ``collections.deque``: any use of a list or deque method that adds or removes an item
(``append``, ``extend``, ``insert``, ``pop``, ``remove``, ``clear``, ``appendleft``,
``popleft`` ...) on one of its own attributes, however it is reached
(``self._slots.append(x)``, ``list.append(self._slots, x)``,
``collections.deque.popleft(self._items)``, ``type(self._slots).append(self._slots, x)``,
``getattr(self._slots, "append")``, a local
name bound to ``self._slots``, a method taken without a call: ``grow = self._slots.append``),
``self._items += [x]`` and ``self._items = self._items + [x]``, ``del self._slots[i]``, and
any ``deque(...)`` -- the exercise asks for the structure's own slots or nodes, and a test
that counts copies may not show every such shortcut. Names in type hints are not uses: a
``deque`` in an annotation is not noted.

>>> list_notes("class S:\\n    def push(self, x):\\n        self._slots.append(x)\\n", "structures/array_stack.py")
['structures/array_stack.py line 3: grows a Python list with .append() (the exercise asks for its own slots or nodes)']
>>> list_notes("class S:\\n    def push(self, x):\\n        list.append(self._slots, x)\\n", "structures/s.py")
['structures/s.py line 3: grows a Python list with list.append() (the exercise asks for its own slots or nodes)']
>>> list_notes("import sys\\nclass S:\\n    def push(self, x: 'collections.deque'):\\n        self._slots[0] = x\\n",
...            "structures/array_stack.py")
[]
"""

from __future__ import annotations

import ast

from solitaire_ds.course.similarity import parse

__all__ = ["list_notes"]

_GROWING = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "appendleft", "popleft", "extendleft",
                      "rotate", "__iadd__", "__delitem__"})
#: What a list or deque method is reached through: ``list.append``, ``collections.deque.popleft``.
_CLASSES = frozenset({"list", "deque"})
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
    aliases = _aliases(tree)  # id of a Name node -> it names one of the structure's attributes
    notes: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in hints:
            continue
        line = int(getattr(node, "lineno", 0))
        if isinstance(node, ast.Attribute) and node.attr in _GROWING:
            receiver = node.value
            if _is_own_attribute(receiver) or id(receiver) in aliases:
                notes.append((line, f"grows a Python list with .{node.attr}()"))
            elif cls := _class_named(receiver):
                kind = "collections.deque" if cls == "deque" else "Python list"
                notes.append((line, f"grows a {kind} with {cls}.{node.attr}()"))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _GROWING
              and node.args and (_is_own_attribute(node.args[0]) or id(node.args[0]) in aliases)
              and not _class_named(node.func.value)):  # list.append(...) is noted as such, above
            notes.append((line, f"grows a Python list with .{node.func.attr}()"))  # type(self._slots).append(...)
        elif isinstance(node, ast.Call) and _class_named(node.func) == "deque":  # deque(), collections.deque()
            notes.append((line, "keeps its items in a collections.deque"))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
              and len(node.args) >= 2 and (_is_own_attribute(node.args[0]) or id(node.args[0]) in aliases)
              and isinstance(node.args[1], ast.Constant) and node.args[1].value in _GROWING):
            notes.append((line, f"grows a Python list with .{node.args[1].value}()"))
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and _is_own_attribute(node.target) \
                and isinstance(node.value, (ast.List, ast.ListComp)):
            notes.append((line, "grows a Python list with +="))
        elif (isinstance(node, ast.Assign) and len(node.targets) == 1 and _is_own_attribute(node.targets[0])
              and isinstance(node.value, ast.BinOp) and isinstance(node.value.op, ast.Add)
              and _same_attribute(node.value.left, node.targets[0])
              and isinstance(node.value.right, (ast.List, ast.ListComp))):
            notes.append((line, "grows a Python list with +"))
        elif isinstance(node, ast.Delete) and any(
                isinstance(target, ast.Subscript) and (_is_own_attribute(target.value) or id(target.value) in aliases)
                for target in node.targets):
            notes.append((line, "shrinks a Python list with del"))
    return [f"{relpath} line {line}: {what} {_WHY}" for line, what in sorted(set(notes))]


def _class_named(node: ast.expr) -> str:
    """``list`` or ``deque`` when ``node`` names that class (``deque``, ``collections.deque``), else ''."""
    if isinstance(node, ast.Name) and node.id in _CLASSES:
        return node.id
    if isinstance(node, ast.Attribute) and node.attr in _CLASSES:
        return node.attr
    return ""


def _same_attribute(node: ast.expr, other: ast.expr) -> bool:
    return (_is_own_attribute(node) and _is_own_attribute(other)
            and isinstance(node, ast.Attribute) and isinstance(other, ast.Attribute) and node.attr == other.attr)


def _aliases(tree: ast.Module) -> set[int]:
    """Return the ids of the Name nodes that, in their function, stand for an attribute of the
    structure (``slots = self._slots``, then ``slots.append(x)``).

    Runtime complexity: O(n): each function's own nodes are read once (not those of the
    functions inside it, which are read on their own).
    """
    found: set[int] = set()
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        own: list[ast.AST] = []
        pending: list[ast.AST] = list(function.body)
        while pending:
            node = pending.pop()
            own.append(node)
            pending.extend(child for child in ast.iter_child_nodes(node)
                           if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)))
        bound = {target.id for node in own if isinstance(node, ast.Assign) and _is_own_attribute(node.value)
                 for target in node.targets if isinstance(target, ast.Name)}
        found.update(id(node) for node in own if isinstance(node, ast.Name) and node.id in bound)
    return found


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
