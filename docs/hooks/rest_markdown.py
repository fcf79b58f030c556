"""Turn the package's reST-flavoured docstrings into the Markdown the site renders.

The docstrings are written for readers of the source: reST roles (``:class:`Deck```,
``:data:`MAX_STEPS```), doctests (``>>>`` lines and their output) and lists nested the
reST way, a sub-list indented to the text of its parent item (three spaces under ``1.``,
two under ``*``). Python-Markdown wants a nested list, and a parent item's later
paragraphs, indented by four spaces per level; with anything less it closes the list,
so a numbered list restarts or turns into bullets and a stray ``*`` shows as text.

Both the game pages (``docgen.game_rules``) and the API page (``griffe_docs``) call
:func:`to_markdown`, so a docstring reads the same on both.

Invariant: only indentation, roles and doctest fences change; every word of the
docstring is kept, in order.
"""

from __future__ import annotations

import re

__all__ = ["fence_doctests", "reindent_lists", "roles_to_code", "to_markdown"]

_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|data|attr|mod|exc|obj|const):`~?([^`]+)`")
_ITEM = re.compile(r"^(?P<indent>[ ]*)(?P<marker>[*+-]|\d+[.)]|#\.)(?P<gap>[ ]+)(?=\S)")
_FENCE = re.compile(r"^[ ]*(```|~~~)")


def roles_to_code(text: str) -> str:
    """Return ``text`` with each reST role as inline code, its ``~`` dropped.

    >>> roles_to_code("see :data:`MAX_STEPS` and :meth:`~solitaire_ds.games.base.Game.advance`")
    'see `MAX_STEPS` and `solitaire_ds.games.base.Game.advance`'
    """
    return _ROLE.sub(r"`\1`", text)


def fence_doctests(text: str) -> str:
    """Return ``text`` with each run of doctest lines fenced as ``pycon``.

    Markdown would read a doctest's output such as ``[2.5, 1.2]`` as a link and ``>>>``
    as nested quotes.

    >>> fence_doctests("Look:\\n\\n>>> 1 + 1\\n2\\n\\nDone.").splitlines()
    ['Look:', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'Done.']
    """
    out: list[str] = []
    in_block = False
    indent = ""
    for line in text.splitlines():
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


def reindent_lists(text: str) -> str:
    """Return ``text`` with every list level indented by four spaces, as Markdown wants.

    An item's own text starts at its *content column* (the column after its marker);
    a line indented to at least that column belongs to the item, and a line indented
    less closes it. Lines outside any list keep their indentation, so field lists
    (``:param x:``) and code blocks are left alone.

    >>> print(reindent_lists("1. one:\\n\\n   * a\\n     more\\n\\n   Then.\\n2. two"))
    1. one:
    <BLANKLINE>
        * a
            more
    <BLANKLINE>
        Then.
    <BLANKLINE>
    2. two
    """
    out: list[str] = []
    # Open items, outermost first: (content column in the docstring, column in Markdown).
    stack: list[tuple[int, int]] = []
    previous_blank = True
    chunk_indent = 0  # the Markdown indentation of the first line after the last blank line
    in_fence = False
    for line in text.splitlines():
        if not line.strip():
            out.append("")
            previous_blank = True
            continue
        indent = len(line) - len(line.lstrip(" "))
        fence = _FENCE.match(line)
        item = None if in_fence else _ITEM.match(line)
        if item and not (previous_blank or stack):
            item = None  # a wrapped line that happens to start with "2." is not a list
        while stack and indent < stack[-1][0]:
            stack.pop()
        if item:
            column = stack[-1][1] if stack else 0
            if not previous_blank and chunk_indent > column:
                # Markdown hands a whole indented chunk (up to a blank line) to the item
                # above; an item less indented than the chunk's first line needs a blank
                # line to start afresh, or it is read as more of that item's text.
                out.append("")
                chunk_indent = column
            out.append(" " * column + item.group("marker") + " " + line[item.end():])
            stack.append((item.end(), column + 4))
        elif stack:
            content, column = stack[-1]
            out.append(" " * (column + indent - content) + line.lstrip(" "))
        else:
            out.append(line)
        if previous_blank:
            chunk_indent = len(out[-1]) - len(out[-1].lstrip(" "))
        if fence:
            in_fence = not in_fence
        previous_blank = False
    return "\n".join(out)


def to_markdown(text: str) -> str:
    """Return a docstring as Markdown: roles as code, doctests fenced, lists re-indented.

    >>> print(to_markdown("3. Moves (:class:`Move`):\\n\\n   * ``deal``\\n\\n4. Waits."))
    3. Moves (`Move`):
    <BLANKLINE>
        * ``deal``
    <BLANKLINE>
    4. Waits.
    """
    return reindent_lists(fence_doctests(roles_to_code(text)))
