"""A toolkit: which Stack, Queue and Deque classes a game is built from.

Games depend on the interface, not the class: each game takes a :class:`Toolkit`
and builds its piles with ``toolkit.stack()``, its stock with ``toolkit.queue()``.
The default toolkit holds the package's array-based classes; ``--impl PATH`` on the
command line swaps in a student's own.

>>> pile = DEFAULT_TOOLKIT.stack([1, 2])
>>> pile.peek()
2
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solitaire_ds.structures.array_deque import ArrayDeque
from solitaire_ds.structures.array_queue import ArrayQueue
from solitaire_ds.structures.array_stack import ArrayStack
from solitaire_ds.structures.base import Deque, Queue, Stack

__all__ = ["DEFAULT_TOOLKIT", "Toolkit", "load_toolkit"]


@dataclass(frozen=True)
class Toolkit:
    """The three classes a game builds its state from, and where they came from.

    >>> from solitaire_ds.structures import LinkedStack
    >>> Toolkit(stack=LinkedStack).stack([1, 2]).pop()
    2
    """

    stack: type[Stack[Any]] = ArrayStack
    queue: type[Queue[Any]] = ArrayQueue
    deque: type[Deque[Any]] = ArrayDeque
    source: str = "solitaire_ds"


DEFAULT_TOOLKIT = Toolkit()


def load_toolkit(impl: str) -> Toolkit:
    """Return the toolkit of an implementation: its ArrayStack, ArrayQueue and ArrayDeque.

    ``impl`` is ``"solitaire_ds"``, ``"solutions"``, ``"exercises"`` or a folder laid out
    like ``exercises/`` (see :mod:`solitaire_ds.course`).

    >>> load_toolkit("solitaire_ds") == DEFAULT_TOOLKIT
    True
    """
    if impl == "solitaire_ds":
        return DEFAULT_TOOLKIT
    from solitaire_ds.course import load_module

    return Toolkit(
        stack=load_module(impl, "structures.array_stack").ArrayStack,
        queue=load_module(impl, "structures.array_queue").ArrayQueue,
        deque=load_module(impl, "structures.array_deque").ArrayDeque,
        source=impl,
    )
