"""Graded code that is the same as the reference's or a classmate's: a note, never a score.

Invariant: a *fingerprint* is a hash of the graded classes and functions of one file (those
that hold a ``# BEGIN SOLUTION`` block in the reference), read with ``ast``, with every
docstring dropped, every string the same, and every name a file chooses (variables,
arguments, attributes) replaced by its order of first appearance. So renaming variables,
reformatting or rewording comments does not change it, while any change to what the code
does almost always does. Two files with the same fingerprint were, to that extent,
written once.

>>> a = "class S:\\n    def push(self, x):\\n        self.items.append(x)\\n"
>>> b = "class S:\\n  def push(self, item):  # mine\\n    self.things.append(item)\\n"
>>> fingerprint(a, ["S"]) == fingerprint(b, ["S"])
True
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import threading
from collections.abc import Mapping, Sequence

from solitaire_ds.course.markers import find_blocks

__all__ = ["fingerprint", "graded_names", "parse", "similarity_notes"]

_KEEP = set(dir(builtins)) | {"self", "cls"}
#: CPython 3.11's AST constructor is not safe in two threads at once ("SystemError: AST
#: constructor recursion depth mismatch", seen with ``grade --jobs 2``): one parse at a time.
_PARSING = threading.Lock()


def parse(source: str, filename: str = "<unknown>") -> ast.Module | None:
    """Return the syntax tree of ``source``, or None when it does not parse; one thread at a time.

    >>> parse("x = 1").body[0].__class__.__name__, parse("x = (")
    ('Assign', None)
    """
    with _PARSING:
        try:
            return ast.parse(source, filename)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None


def graded_names(source: str, filename: str = "<reference>") -> list[str]:
    """Return the top-level classes and functions of ``source`` that hold a marked block.

    Runtime complexity: O(n) in the length of ``source``.

    >>> graded_names("def f():\\n    # BEGIN SOLUTION: x\\n    pass\\n    # END SOLUTION\\ndef g():\\n    pass\\n")
    ['f']
    """
    lines = {block.begin + 1 for block in find_blocks(source, filename)}
    names = []
    tree = parse(source, filename)
    if tree is None:
        raise SyntaxError(f"{filename} does not parse")
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and any(
            node.lineno <= line <= (node.end_lineno or node.lineno) for line in lines
        ):
            names.append(node.name)
    return names


class _Normalise(ast.NodeTransformer):
    """Drop docstrings; rename every chosen name by its order of first appearance."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def _rename(self, name: str) -> str:
        if name in _KEEP or (name.startswith("__") and name.endswith("__")):
            return name
        return self.names.setdefault(name, f"n{len(self.names)}")

    def generic_visit(self, node: ast.AST) -> ast.AST:
        body = getattr(node, "body", None)
        if (isinstance(body, list) and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]  # type: ignore[attr-defined]
        return super().generic_visit(node)

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.copy_location(ast.Name(self._rename(node.id), node.ctx), node)

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.arg = self._rename(node.arg)
        node.annotation = None
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        node.attr = self._rename(node.attr)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.returns = None
        self.generic_visit(node)
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, str):  # messages and names in strings: the same as names
            return ast.copy_location(ast.Constant("s"), node)
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        self.generic_visit(node)
        node.annotation = ast.Constant(None)
        return node


def fingerprint(source: str, names: Sequence[str]) -> str | None:
    """Return the fingerprint of the top-level ``names`` of ``source``; None if it has none.

    Runtime complexity: O(n) in the length of ``source``.
    """
    tree = parse(source)
    if tree is None:
        return None
    graded = [node for node in tree.body
              if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and node.name in names]
    if not graded:
        return None
    normalise = _Normalise()
    dumped = "\n".join(ast.dump(normalise.visit(node), annotate_fields=False) for node in graded)
    return hashlib.sha256(dumped.encode()).hexdigest()


def similarity_notes(
    prints: Mapping[str, Mapping[int, str | None]],
    reference: Mapping[int, str | None],
    skeleton: Mapping[int, str | None],
) -> dict[str, list[str]]:
    """Return, per submission, a note for each exercise whose graded code is not its own.

    ``prints`` maps each submission's name to its fingerprints by exercise number. An
    exercise left as the skeleton is nobody's work and is not noted.

    Runtime complexity: O(s * e) for s submissions and e exercises.

    >>> similarity_notes({"ann": {1: "r"}, "bo": {1: "x"}, "cy": {1: "x"}}, {1: "r"}, {1: "s"})["bo"]
    ["exercise 1: the graded code is the same as cy's (names and formatting aside)"]
    """
    notes: dict[str, list[str]] = {name: [] for name in prints}
    for name, mine in prints.items():
        for number, value in sorted(mine.items()):
            if value is None or value == skeleton.get(number):
                continue
            if value == reference.get(number):
                notes[name].append(f"exercise {number}: the graded code is the same as the reference "
                                   "solution's (names and formatting aside)")
                continue
            same = sorted(other for other, theirs in prints.items() if other != name and theirs.get(number) == value)
            if same:
                notes[name].append(f"exercise {number}: the graded code is the same as "
                                   f"{', '.join(s + chr(39) + 's' for s in same)} (names and formatting aside)")
    return notes
