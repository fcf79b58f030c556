"""What a graded file may not do, read from its source before it runs.

Invariant: :func:`forbidden` reads a submission's file with ``ast`` (it never runs it) and
returns a reason when the file reaches for code it does not contain: running text as code
(``exec``, ``eval``, ``compile``, ``__import__``), opening files, importing modules that
reach the machine, the interpreter or other code (``os``, ``sys``, ``importlib``, ``ctypes``,
``subprocess`` and their kin), naming an attribute it computes at run time (``getattr(x,
"app" + "end")``), or, in a structure, using ``collections.deque``. None of these is ever
needed to write a stack, a game rule or the solver; each is how a file would re-use the
reference, a classmate's work or the grader's machinery. Such an exercise scores 0 with
the reason. :func:`suspicious` returns the milder notes: names of the grader's machinery
that a file mentions, for the instructor to read.

>>> forbidden("import os\\nclass S:\\n    pass\\n", "structures/array_stack.py")
'structures/array_stack.py imports os (line 1), which an exercise never needs: write the code itself'
>>> forbidden("class S:\\n    def f(self):\\n        return [1]\\n", "structures/array_stack.py")
''
"""

from __future__ import annotations

import ast
import re

__all__ = ["forbidden", "suspicious"]

#: Modules that reach the machine, the interpreter or other code.
_MODULES = {
    "builtins", "code", "codeop", "ctypes", "gc", "importlib", "inspect", "io", "marshal", "mmap",
    "multiprocessing", "os", "pathlib", "pickle", "posix", "pty", "resource", "runpy", "shutil", "signal",
    "socket", "subprocess", "sys", "tempfile", "threading", "types", "urllib", "zipimport", "_pytest",
    "pytest", "hypothesis", "solitaire_ds.course",
}
#: Built-in functions that run text as code, open files or reach other frames.
_CALLS = {"exec", "eval", "compile", "__import__", "open", "globals", "breakpoint", "input"}
#: Built-ins whose attribute name must be written out, not computed.
_NAMED = {"getattr", "setattr", "delattr", "hasattr"}
_NEVER = "which an exercise never needs: write the code itself"
_OWN = "a structure keeps its own slots or nodes"


def forbidden(source: str, relpath: str) -> str:
    """Return why ``source`` (the file ``relpath`` of a submission) may not be graded, or ''.

    Runtime complexity: O(n) in the length of ``source``.
    """
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ""  # the child reports a file that does not import, with its line
    structure = relpath.startswith("structures/")
    for node in ast.walk(tree):
        line = getattr(node, "lineno", "?")
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for name in names:
                if name in _MODULES or name.split(".")[0] in _MODULES or (
                        name.startswith("solitaire_ds.course")):
                    return f"{relpath} imports {name} (line {line}), {_NEVER}"
                if structure and isinstance(node, ast.ImportFrom) and name == "collections" and any(
                        a.name == "deque" for a in node.names):
                    return f"{relpath} imports collections.deque (line {line}): {_OWN}"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name in _CALLS:
                return f"{relpath} calls {name}() (line {line}), {_NEVER}"
            if name in _NAMED and (len(node.args) < 2 or not isinstance(node.args[1], ast.Constant)):
                return f"{relpath} calls {name}() with a computed name (line {line}): write the attribute's name out"
        elif isinstance(node, ast.Attribute) and structure and node.attr == "deque":
            return f"{relpath} uses .deque (line {line}): {_OWN}"
        elif isinstance(node, ast.Name) and node.id in ("__builtins__", "__loader__", "__spec__"):
            return f"{relpath} uses {node.id} (line {line}), {_NEVER}"
    return ""


#: Names a stack or a game rule never needs, but code that reaches into the grader does.
_SUSPICIOUS = re.compile(
    r"\b(?:_RECORDER|solitaire_ds\.course|_pytest|pytest|hypothesis|sys\.modules|gc\.get_objects|"
    r"sys\._getframe|ctypes|os\.environ|/proc/|setitimer|signal\.signal)\b"
)


def suspicious(source: str) -> list[str]:
    """Return the names of the grader's machinery that ``source`` mentions, sorted.

    Runtime complexity: O(n) in the length of ``source``.

    >>> suspicious("import sys; sys.modules['x']")
    ['sys.modules']
    """
    return sorted(set(_SUSPICIOUS.findall(source)))
