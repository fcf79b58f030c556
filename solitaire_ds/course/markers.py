"""Solution markers: the part of a function a student writes.

Invariant: in a marked module every ``# BEGIN SOLUTION: <hint>`` line is followed, later
and at the same indentation, by exactly one ``# END SOLUTION`` line before the next
``BEGIN``; blocks never nest, and every hint is a non-empty sentence. The solution view
drops the two marker lines; the exercise view replaces the whole block with
``raise NotImplementedError("<hint>")`` at the marker's indentation. Everything outside
the blocks (docstrings, signatures, imports) is the same in both views.

>>> source = '''def f():
...     \"\"\"Return one.\"\"\"
...     # BEGIN SOLUTION: return the number one
...     return 1
...     # END SOLUTION
... '''
>>> print(solution_view(source, "f.py"), end="")
def f():
    \"\"\"Return one.\"\"\"
    return 1
>>> print(exercise_view(source, "f.py"), end="")
def f():
    \"\"\"Return one.\"\"\"
    raise NotImplementedError("return the number one")
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Block", "MarkerError", "exercise_view", "find_blocks", "solution_view"]

_BEGIN = re.compile(r"^(?P<indent>[ \t]*)#\s*BEGIN SOLUTION\b(?P<rest>.*)$")
_END = re.compile(r"^(?P<indent>[ \t]*)#\s*END SOLUTION\b(?P<rest>.*)$")


class MarkerError(ValueError):
    """A malformed marker; the message starts with ``file:line:``."""


@dataclass(frozen=True)
class Block:
    """One marked block: the 0-based line numbers of its two markers, its indent and hint."""

    begin: int
    end: int
    indent: str
    hint: str


def find_blocks(source: str, filename: str) -> list[Block]:
    """Return the marked blocks of ``source`` in order.

    Raise :class:`MarkerError` naming ``filename`` and the line for an unclosed block, a
    nested ``BEGIN``, an ``END`` without a ``BEGIN``, a missing hint, or an ``END`` at a
    different indentation from its ``BEGIN``.

    Runtime complexity: O(n) in the number of lines.

    >>> find_blocks("x = 1\\n", "m.py")
    []
    >>> find_blocks("    # END SOLUTION\\n", "m.py")
    Traceback (most recent call last):
    ...
    solitaire_ds.course.markers.MarkerError: m.py:1: END SOLUTION without a BEGIN SOLUTION
    """
    blocks: list[Block] = []
    open_at: int | None = None
    indent = hint = ""
    for number, line in enumerate(source.splitlines()):
        where = f"{filename}:{number + 1}"
        begin = _BEGIN.match(line)
        end = _END.match(line)
        if begin:
            if open_at is not None:
                raise MarkerError(
                    f"{where}: BEGIN SOLUTION inside the block opened at line {open_at + 1}"
                    " (blocks cannot nest)"
                )
            rest = begin["rest"].strip()
            if not rest.startswith(":") or not rest[1:].strip():
                raise MarkerError(
                    f"{where}: BEGIN SOLUTION needs a hint: '# BEGIN SOLUTION: <what to write>'"
                )
            open_at, indent, hint = number, begin["indent"], rest[1:].strip()
        elif end:
            if open_at is None:
                raise MarkerError(f"{where}: END SOLUTION without a BEGIN SOLUTION")
            if end["rest"].strip():
                raise MarkerError(f"{where}: unexpected text after END SOLUTION")
            if end["indent"] != indent:
                raise MarkerError(
                    f"{where}: END SOLUTION is indented differently from its BEGIN SOLUTION"
                    f" at line {open_at + 1}"
                )
            blocks.append(Block(open_at, number, indent, hint))
            open_at = None
    if open_at is not None:
        raise MarkerError(f"{filename}:{open_at + 1}: BEGIN SOLUTION is never closed")
    return blocks


def solution_view(source: str, filename: str) -> str:
    """Return ``source`` with the marker lines dropped (the complete code).

    Runtime complexity: O(n) in the number of lines.

    >>> solution_view("a\\n# BEGIN SOLUTION: b\\nb\\n# END SOLUTION\\n", "m.py")
    'a\\nb\\n'
    """
    lines = source.splitlines(keepends=True)
    drop: set[int] = set()
    for block in find_blocks(source, filename):
        drop.update((block.begin, block.end))
    return "".join(line for number, line in enumerate(lines) if number not in drop)


def exercise_view(source: str, filename: str) -> str:
    """Return ``source`` with each block replaced by ``raise NotImplementedError(hint)``.

    Runtime complexity: O(n) in the number of lines.

    >>> exercise_view("a\\n# BEGIN SOLUTION: say hi\\nb\\n# END SOLUTION\\n", "m.py")
    'a\\nraise NotImplementedError("say hi")\\n'
    """
    lines = source.splitlines(keepends=True)
    out: list[str] = []
    start = 0
    for block in find_blocks(source, filename):
        out.extend(lines[start : block.begin])
        out.append(f"{block.indent}raise NotImplementedError({_quote(block.hint)})\n")
        start = block.end + 1
    out.extend(lines[start:])
    return "".join(out)


def _quote(text: str) -> str:
    """Return ``text`` as a double-quoted Python string literal."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'
