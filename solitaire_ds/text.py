"""How a message shows what it was given: one short line, the bad token quoted.

Invariant: whatever the input, the text returned is at most ``limit`` characters (a quoted
token: its first ``limit`` characters, quotes and escapes aside; with ``max_lines``, at most
that many lines plus one saying how many were left out), so a
200 MB deck line or a student's runaway ``__repr__`` never floods a message.

>>> shown("AS 2H " * 20)
"'AS 2H AS 2H AS 2H AS 2H AS 2H AS 2H A...'"
"""

from __future__ import annotations

__all__ = ["shorten", "shown"]


def shorten(text: str, limit: int = 200, *, max_lines: int | None = None) -> str:
    """Return ``text`` cut to ``limit`` characters, ending in ``...`` when cut.

    With ``max_lines``, keep at most that many lines and say how many more there were;
    without it, fold every run of white space into one space (one line).

    Runtime complexity: O(len(text)).

    >>> shorten("a  b\\n c")
    'a b c'
    >>> shorten("x" * 10, limit=6)
    'xxx...'
    >>> shorten("1\\n2\\n3", max_lines=2)
    '1\\n2\\n... (1 more line)'
    """
    if max_lines is None:
        text = " ".join(text[: limit * 4].split())
    else:
        lines = text.splitlines()
        if len(lines) > max_lines:
            more = len(lines) - max_lines
            lines = [*lines[:max_lines], f"... ({more} more line{'s' if more != 1 else ''})"]
        text = "\n".join(lines)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown(value: object, limit: int = 40) -> str:
    """Return ``repr(value)`` of a token cut short for a message.

    A string longer than ``limit`` keeps its first ``limit - 3`` characters and ``...``
    inside the quotes (it is cut before ``repr``: ``repr`` of a 200 MB string is 200 MB);
    anything else is ``repr`` cut to ``limit`` characters.

    Runtime complexity: O(limit) for a string.

    >>> shown("2Z")
    "'2Z'"
    >>> shown(12345, limit=4)
    '1...'
    """
    if isinstance(value, str):
        return repr(value if len(value) <= limit else value[: limit - 3] + "...")
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
