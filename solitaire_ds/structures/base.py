"""The three abstract data types of the course: Stack, Queue and Deque.

Each ADT is an abstract class whose docstrings are the contract; the six concrete
classes (array-based and linked) implement it. A game asks for "a Stack" and is
handed whichever class the caller chooses, which is Drake's point about interfaces.

The abstract classes supply the Python protocols that follow from the contract:
``__bool__`` (from ``__len__``), ``__eq__`` (same class, same items in the same
order) and a ``__repr__`` that rebuilds the object, such as ``ArrayStack([1, 2, 3])``.
A concrete class writes the core operations, ``__len__``, ``__iter__`` and ``_check``.

Removing or peeking from an empty structure raises :class:`EmptyStructureError`,
a subclass of :class:`IndexError`, whose message names the operation, the way
``[].pop()`` says "pop from empty list".
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from typing import Generic, TypeVar

__all__ = ["Deque", "EmptyStructureError", "Queue", "Stack"]

T = TypeVar("T")


class EmptyStructureError(IndexError):
    """Raised when an item is removed or looked at in an empty structure.

    It subclasses :class:`IndexError`, so code that catches what Python's own
    containers raise catches this too.

    >>> issubclass(EmptyStructureError, IndexError)
    True
    """


class _Container(ABC, Generic[T]):
    """What every structure shares: size, iteration, truth, equality and repr."""

    __slots__ = ()

    @abstractmethod
    def __init__(self, items: Iterable[T] | None = None) -> None:
        """Make the structure, adding each of ``items`` in order (none when omitted)."""

    # -- size and iteration ------------------------------------------------------

    @abstractmethod
    def __len__(self) -> int:
        """Return the number of items. Runtime complexity: O(1)."""

    @abstractmethod
    def __iter__(self) -> Iterator[T]:
        """Iterate over the items in the ADT's own order, without changing anything."""

    def is_empty(self) -> bool:
        """Return True when the structure holds no items.

        Runtime complexity: O(1).

        >>> from solitaire_ds.structures import ArrayQueue
        >>> ArrayQueue().is_empty(), ArrayQueue([1]).is_empty()
        (True, False)
        """
        return len(self) == 0

    def __bool__(self) -> bool:
        """Return True when the structure holds at least one item.

        Runtime complexity: O(1).

        >>> from solitaire_ds.structures import LinkedStack
        >>> bool(LinkedStack()), bool(LinkedStack([0]))
        (False, True)
        """
        return not self.is_empty()

    # -- comparison and display --------------------------------------------------

    def _insertion_order(self) -> list[T]:
        """Return the items in the order the constructor would add them."""
        return list(self)

    def __eq__(self, other: object) -> bool:
        """Equal when ``other`` is of the very same class and holds the same items in order.

        Runtime complexity: O(n).

        >>> from solitaire_ds.structures import ArrayStack, LinkedStack
        >>> ArrayStack([1, 2]) == ArrayStack([1, 2]), ArrayStack([1, 2]) == LinkedStack([1, 2])
        (True, False)
        """
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _Container)
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]  # mutable containers are unhashable

    def __repr__(self) -> str:
        """Return an expression that rebuilds the structure.

        Runtime complexity: O(n).

        >>> from solitaire_ds.structures import ArrayDeque
        >>> ArrayDeque("ab")
        ArrayDeque(['a', 'b'])
        """
        return f"{type(self).__name__}({self._insertion_order()!r})"

    @abstractmethod
    def _check(self) -> None:
        """Assert the class's invariant (used by the tests after every operation)."""


class Stack(_Container[T]):
    """A last-in, first-out collection: only the top item can be seen or removed.

    Adding:
        ``push(item)`` puts ``item`` on top.
    Removing:
        ``pop()`` removes and returns the top item.
    Looking:
        ``peek()`` returns the top item; ``is_empty()``, ``len(stack)``, ``bool(stack)``.
    Iterating:
        ``iter(stack)`` goes from the top to the bottom, changing nothing.

    ``pop`` and ``peek`` on an empty stack raise :class:`EmptyStructureError`
    ("pop from an empty stack", "peek at an empty stack"). The constructor takes an
    optional iterable whose items are pushed in order, so the last one ends on top.
    Every operation is O(1) (amortized where the storage is resized).
    """

    __slots__ = ()

    @abstractmethod
    def push(self, item: T) -> None:
        """Put ``item`` on top of the stack. Runtime complexity: O(1) amortized."""

    @abstractmethod
    def pop(self) -> T:
        """Remove and return the top item; raise EmptyStructureError when empty. O(1)."""

    @abstractmethod
    def peek(self) -> T:
        """Return the top item without removing it; raise EmptyStructureError when empty. O(1)."""

    def _insertion_order(self) -> list[T]:
        items = list(self)
        items.reverse()
        return items


class Queue(_Container[T]):
    """A first-in, first-out collection: items leave in the order they arrived.

    Adding:
        ``enqueue(item)`` puts ``item`` at the back.
    Removing:
        ``dequeue()`` removes and returns the front item.
    Looking:
        ``peek()`` returns the front item; ``is_empty()``, ``len(queue)``, ``bool(queue)``.
    Iterating:
        ``iter(queue)`` goes from the front to the back, changing nothing.

    ``dequeue`` and ``peek`` on an empty queue raise :class:`EmptyStructureError`
    ("dequeue from an empty queue", "peek at an empty queue"). The constructor takes
    an optional iterable whose items are enqueued in order.
    Every operation is O(1) (amortized where the storage is resized).
    """

    __slots__ = ()

    @abstractmethod
    def enqueue(self, item: T) -> None:
        """Add ``item`` at the back of the queue. Runtime complexity: O(1) amortized."""

    @abstractmethod
    def dequeue(self) -> T:
        """Remove and return the front item; raise EmptyStructureError when empty. O(1)."""

    @abstractmethod
    def peek(self) -> T:
        """Return the front item without removing it; raise EmptyStructureError when empty."""


class Deque(_Container[T]):
    """A double-ended queue: items are added and removed at both ends.

    Adding:
        ``add_front(item)``, ``add_rear(item)``.
    Removing:
        ``remove_front()``, ``remove_rear()``.
    Looking:
        ``peek_front()``, ``peek_rear()``; ``is_empty()``, ``len(deque)``, ``bool(deque)``.
    Iterating:
        ``iter(deque)`` goes from the front to the rear, changing nothing.

    Removing or peeking at an empty deque raises :class:`EmptyStructureError`
    ("remove_front from an empty deque", "peek_rear at an empty deque", ...). The
    constructor takes an optional iterable whose items are added at the rear in order.
    Every operation is O(1) (amortized where the storage is resized).
    """

    __slots__ = ()

    @abstractmethod
    def add_front(self, item: T) -> None:
        """Add ``item`` at the front. Runtime complexity: O(1) amortized."""

    @abstractmethod
    def add_rear(self, item: T) -> None:
        """Add ``item`` at the rear. Runtime complexity: O(1) amortized."""

    @abstractmethod
    def remove_front(self) -> T:
        """Remove and return the front item; raise EmptyStructureError when empty. O(1)."""

    @abstractmethod
    def remove_rear(self) -> T:
        """Remove and return the rear item; raise EmptyStructureError when empty. O(1)."""

    @abstractmethod
    def peek_front(self) -> T:
        """Return the front item; raise EmptyStructureError when empty. O(1)."""

    @abstractmethod
    def peek_rear(self) -> T:
        """Return the rear item; raise EmptyStructureError when empty. O(1)."""

