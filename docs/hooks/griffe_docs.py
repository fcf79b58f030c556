"""Griffe extension for the API pages: show the package's reST-flavoured docstrings well.

The docstrings hold doctests (``>>> ...`` lines and their output) and reST roles
(``:class:`Deck```, ``:func:`replay```). Markdown would read a doctest's output such as
``[2.5, 1.235, 3.765]`` as a link and ``>>>`` as nested quotes, so this extension wraps
each run of doctest lines in a ```` ```pycon ```` fence and turns a role into plain code.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

__all__ = ["DoctestFences", "fence_doctests"]

_ROLE = re.compile(r":(?:class|func|meth|data|attr|mod|exc|obj):`~?([^`]+)`")


def fence_doctests(text: str) -> str:
    """Return ``text`` with doctest blocks fenced as ``pycon`` and reST roles as code.

    >>> print(fence_doctests("Look:\\n\\n>>> 1 + 1\\n2\\n\\nDone."))
    Look:
    <BLANKLINE>
    ```pycon
    >>> 1 + 1
    2
    ```
    <BLANKLINE>
    Done.
    """
    out: list[str] = []
    in_block = False
    indent = ""
    for line in _ROLE.sub(r"`\1`", text).splitlines():
        stripped = line.lstrip()
        if not in_block and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
            in_block = True
        elif in_block and not stripped:
            out.append(f"{indent}```")
            in_block = False
        out.append(line)
    if in_block:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the doctests of every object's docstring as it is loaded."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
