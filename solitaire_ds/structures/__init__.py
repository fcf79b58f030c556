"""Three abstract data types and six hand-built classes that implement them.

>>> s = ArrayStack([1, 2, 3])
>>> s.pop(), s.peek(), len(s)
(3, 2, 2)
"""

from solitaire_ds.structures.array_deque import ArrayDeque
from solitaire_ds.structures.array_queue import ArrayQueue
from solitaire_ds.structures.array_stack import ArrayStack
from solitaire_ds.structures.base import Deque, EmptyStructureError, Queue, Stack
from solitaire_ds.structures.linked_deque import LinkedDeque
from solitaire_ds.structures.linked_queue import LinkedQueue
from solitaire_ds.structures.linked_stack import LinkedStack
from solitaire_ds.structures.toolkit import DEFAULT_TOOLKIT, Toolkit

__all__ = [
    "DEFAULT_TOOLKIT",
    "ArrayDeque",
    "ArrayQueue",
    "ArrayStack",
    "Deque",
    "EmptyStructureError",
    "LinkedDeque",
    "LinkedQueue",
    "LinkedStack",
    "Queue",
    "Stack",
    "Toolkit",
]
