"""A toolkit: which Stack, Queue and Deque classes a game is built from.

Games depend on the interface, not the class: each game takes a :class:`Toolkit`
and builds its piles with ``toolkit.stack()``, its stock with ``toolkit.queue()``.
The default toolkit holds the package's array-based classes; ``--impl PATH`` on the
command line swaps in a student's own (the course layer loads it:
``solitaire_ds.course.load_toolkit``). This module knows nothing of the course.

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

__all__ = ["DEFAULT_TOOLKIT", "Toolkit"]


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
