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

>>> from solitaire_ds.structures import ArrayStack, LinkedStack
>>> [isinstance(cls([1]), Stack) for cls in (ArrayStack, LinkedStack)]
[True, True]
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
    """What every structure shares: size, iteration, truth, equality and repr.

    Looking:
        ``len``, :meth:`is_empty`, ``bool``.
    Iterating:
        ``iter`` (each ADT says in which order).
    Comparing and showing:
        ``==`` (same class, same items in order), ``repr`` (rebuilds the structure).
    Checking:
        :meth:`_check`, the class's invariant.

    >>> from solitaire_ds.structures import ArrayStack
    >>> stack = ArrayStack([1, 2])
    >>> len(stack), bool(stack), stack == ArrayStack([1, 2]), stack
    (2, True, True, ArrayStack([1, 2]))
    """

    __slots__ = ()

    @abstractmethod
    def __init__(self, items: Iterable[T] | None = None) -> None:
        """Make the structure, adding each of ``items`` in order (none when omitted).

        Each item goes in the way the ADT adds one: pushed, enqueued, added at the rear.

        Runtime complexity: O(n) for n items (O(1) amortized each).

        >>> from solitaire_ds.structures import ArrayStack, LinkedQueue
        >>> ArrayStack([1, 2, 3]).peek(), LinkedQueue([1, 2, 3]).peek(), len(ArrayStack())
        (3, 1, 0)
        """

    # -- size and iteration ------------------------------------------------------

    @abstractmethod
    def __len__(self) -> int:
        """Return the number of items.

        Runtime complexity: O(1).

        >>> from solitaire_ds.structures import LinkedDeque
        >>> len(LinkedDeque()), len(LinkedDeque("abc"))
        (0, 3)
        """

    @abstractmethod
    def __iter__(self) -> Iterator[T]:
        """Iterate over the items in the ADT's own order, without changing anything.

        A stack goes from top to bottom, a queue from front to back, a deque from front
        to rear. Changing the structure while iterating is not supported.

        Runtime complexity: O(1) per item, O(n) for all of them.

        >>> from solitaire_ds.structures import ArrayStack, ArrayQueue
        >>> list(ArrayStack([1, 2, 3])), list(ArrayQueue([1, 2, 3]))
        ([3, 2, 1], [1, 2, 3])
        """

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
        return len(self) != 0  # one call, not is_empty() then len(): games test piles all the time

    # -- comparison and display --------------------------------------------------

    def _insertion_order(self) -> list[T]:
        """Return the items in the order the constructor would add them.

        The iteration order here; a Stack, which iterates from the top, reverses it.

        Runtime complexity: O(n).

        >>> from solitaire_ds.structures import ArrayQueue, ArrayStack
        >>> ArrayQueue([1, 2])._insertion_order(), ArrayStack([1, 2])._insertion_order()
        ([1, 2], [1, 2])
        """
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
        """Assert the class's invariant (used by the tests after every operation).

        Raise :class:`AssertionError` naming the broken part; return None when it holds.

        Runtime complexity: O(n) (it looks at every slot or node).

        >>> from solitaire_ds.structures import ArrayQueue
        >>> ArrayQueue([1, 2])._check() is None
        True
        """


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

    Runtime complexity: O(1) for every operation (amortized where the storage is
    resized); iteration, ``==`` and ``repr`` are O(n).

    Both classes keep the same contract:

    >>> from solitaire_ds.structures import ArrayStack, LinkedStack
    >>> for cls in (ArrayStack, LinkedStack):
    ...     stack = cls([1, 2])
    ...     stack.push(3)
    ...     print(stack.pop(), stack.peek(), list(stack), len(stack), stack)
    3 2 [2, 1] 2 ArrayStack([1, 2])
    3 2 [2, 1] 2 LinkedStack([1, 2])
    """

    __slots__ = ()

    @abstractmethod
    def push(self, item: T) -> None:
        """Put ``item`` on top of the stack.

        Any item is accepted; the stack grows by one.

        Runtime complexity: O(1) amortized.

        >>> from solitaire_ds.structures import ArrayStack
        >>> stack = ArrayStack()
        >>> stack.push("a"); stack.push("b")
        >>> stack.peek(), len(stack)
        ('b', 2)
        """

    @abstractmethod
    def pop(self) -> T:
        """Remove and return the top item.

        Raise :class:`EmptyStructureError` ("pop from an empty stack") when empty.

        Runtime complexity: O(1) amortized.

        >>> from solitaire_ds.structures import ArrayStack
        >>> stack = ArrayStack([1, 2])
        >>> stack.pop(), stack.pop()
        (2, 1)
        >>> stack.pop()
        Traceback (most recent call last):
        ...
        solitaire_ds.structures.base.EmptyStructureError: pop from an empty stack
        """

    @abstractmethod
    def peek(self) -> T:
        """Return the top item without removing it.

        Raise :class:`EmptyStructureError` ("peek at an empty stack") when empty.

        Runtime complexity: O(1).

        >>> from solitaire_ds.structures import LinkedStack
        >>> stack = LinkedStack([1, 2])
        >>> stack.peek(), len(stack)
        (2, 2)
        >>> LinkedStack().peek()
        Traceback (most recent call last):
        ...
        solitaire_ds.structures.base.EmptyStructureError: peek at an empty stack
        """

    def _insertion_order(self) -> list[T]:
        """Return the items bottom first: the order pushing them rebuilds this stack.

        Runtime complexity: O(n).

        >>> from solitaire_ds.structures import LinkedStack
        >>> LinkedStack([1, 2, 3])._insertion_order()
        [1, 2, 3]
        """
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

    Runtime complexity: O(1) for every operation (amortized where the storage is
    resized); iteration, ``==`` and ``repr`` are O(n).

    Both classes keep the same contract:

    >>> from solitaire_ds.structures import ArrayQueue, LinkedQueue
    >>> for cls in (ArrayQueue, LinkedQueue):
    ...     queue = cls([1, 2])
    ...     queue.enqueue(3)
    ...     print(queue.dequeue(), queue.peek(), list(queue), len(queue), queue)
    1 2 [2, 3] 2 ArrayQueue([2, 3])
    1 2 [2, 3] 2 LinkedQueue([2, 3])
    """

    __slots__ = ()

    @abstractmethod
    def enqueue(self, item: T) -> None:
        """Add ``item`` at the back of the queue.

        Any item is accepted; the queue grows by one.

        Runtime complexity: O(1) amortized.

        >>> from solitaire_ds.structures import ArrayQueue
        >>> queue = ArrayQueue()
        >>> queue.enqueue("a"); queue.enqueue("b")
        >>> list(queue), queue.peek()
        (['a', 'b'], 'a')
        """

    @abstractmethod
    def dequeue(self) -> T:
        """Remove and return the front item.

        Raise :class:`EmptyStructureError` ("dequeue from an empty queue") when empty.

        Runtime complexity: O(1) amortized.

        >>> from solitaire_ds.structures import LinkedQueue
        >>> queue = LinkedQueue([1, 2])
        >>> queue.dequeue(), queue.dequeue()
        (1, 2)
        >>> queue.dequeue()
        Traceback (most recent call last):
        ...
        solitaire_ds.structures.base.EmptyStructureError: dequeue from an empty queue
        """

    @abstractmethod
    def peek(self) -> T:
        """Return the front item without removing it.

        Raise :class:`EmptyStructureError` ("peek at an empty queue") when empty.

        Runtime complexity: O(1).

        >>> from solitaire_ds.structures import ArrayQueue
        >>> queue = ArrayQueue([1, 2])
        >>> queue.peek(), len(queue)
        (1, 2)
        >>> ArrayQueue().peek()
        Traceback (most recent call last):
        ...
        solitaire_ds.structures.base.EmptyStructureError: peek at an empty queue
        """


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

    Runtime complexity: O(1) for every operation (amortized where the storage is
    resized); iteration, ``==`` and ``repr`` are O(n).

    Both classes keep the same contract:

    >>> from solitaire_ds.structures import ArrayDeque, LinkedDeque
    >>> for cls in (ArrayDeque, LinkedDeque):
    ...     deque = cls([2, 3])
    ...     deque.add_front(1); deque.add_rear(4)
    ...     print(deque.remove_front(), deque.remove_rear(), deque.peek_front(), deque.peek_rear(), deque)
    1 4 2 3 ArrayDeque([2, 3])
    1 4 2 3 LinkedDeque([2, 3])
    """

    __slots__ = ()

    @abstractmethod
    def add_front(self, item: T) -> None:
        """Add ``item`` at the front.

        Any item is accepted; the deque grows by one.

        Runtime complexity: O(1) amortized.

        >>> from solitaire_ds.structures import ArrayDeque
        >>> deque = ArrayDeque([2])
        >>> deque.add_front(1)
        >>> list(deque)
        [1, 2]
        """

    @abstractmethod
    def add_rear(self, item: T) -> None:
        """Add ``item`` at the rear.

        Any item is accepted; the deque grows by one.

        Runtime complexity: O(1) amortized.

        >>> from solitaire_ds.structures import LinkedDeque
        >>> deque = LinkedDeque([1])
        >>> deque.add_rear(2)
        >>> list(deque)
        [1, 2]
        """

    @abstractmethod
    def remove_front(self) -> T:
        """Remove and return the front item.

        Raise :class:`EmptyStructureError` ("remove_front from an empty deque") when empty.

        Runtime complexity: O(1) amortized.

        >>> from solitaire_ds.structures import ArrayDeque
        >>> deque = ArrayDeque([1, 2])
        >>> deque.remove_front(), list(deque)
        (1, [2])
        >>> ArrayDeque().remove_front()
        Traceback (most recent call last):
        ...
        solitaire_ds.structures.base.EmptyStructureError: remove_front from an empty deque
        """

    @abstractmethod
    def remove_rear(self) -> T:
        """Remove and return the rear item.

        Raise :class:`EmptyStructureError` ("remove_rear from an empty deque") when empty.

        Runtime complexity: O(1) amortized.

        >>> from solitaire_ds.structures import LinkedDeque
        >>> deque = LinkedDeque([1, 2])
        >>> deque.remove_rear(), list(deque)
        (2, [1])
        >>> LinkedDeque().remove_rear()
        Traceback (most recent call last):
        ...
        solitaire_ds.structures.base.EmptyStructureError: remove_rear from an empty deque
        """

    @abstractmethod
    def peek_front(self) -> T:
        """Return the front item without removing it.

        Raise :class:`EmptyStructureError` ("peek_front at an empty deque") when empty.

        Runtime complexity: O(1).

        >>> from solitaire_ds.structures import ArrayDeque
        >>> ArrayDeque([1, 2]).peek_front()
        1
        >>> ArrayDeque().peek_front()
        Traceback (most recent call last):
        ...
        solitaire_ds.structures.base.EmptyStructureError: peek_front at an empty deque
        """

    @abstractmethod
    def peek_rear(self) -> T:
        """Return the rear item without removing it.

        Raise :class:`EmptyStructureError` ("peek_rear at an empty deque") when empty.

        Runtime complexity: O(1).

        >>> from solitaire_ds.structures import LinkedDeque
        >>> LinkedDeque([1, 2]).peek_rear()
        2
        >>> LinkedDeque().peek_rear()
        Traceback (most recent call last):
        ...
        solitaire_ds.structures.base.EmptyStructureError: peek_rear at an empty deque
        """

