"""ArrayQueue: a queue in a circular buffer that grows when full.

Invariant: ``_slots`` is a list of at least ``_MIN_CAPACITY`` slots; its length is the
capacity. The ``_size`` items sit in the slots ``_front``, ``_front + 1``, ..., each
index taken modulo the capacity (``% len(_slots)``), so they may wrap past the end of
the list back to slot 0. The front item is ``_slots[_front]``; the back item is
``_slots[(_front + _size - 1) % len(_slots)]``. ``0 <= _front < len(_slots)`` and
``0 <= _size <= len(_slots)``. Every other slot holds None, so a dequeued item is not
kept alive by the queue.

Dequeuing moves ``_front`` forward instead of shifting the items, so both ends are
O(1). When an enqueue finds every slot full, the items are copied, in queue order,
to the start of a list twice as long; that O(n) copy happens after n cheap enqueues,
so enqueue is O(1) amortized. This queue only grows: ArrayStack shows shrinking, and
a queue in a card game never holds more than 52 cards.

>>> q = ArrayQueue([1, 2, 3, 4])
>>> q.dequeue()
1
>>> q.enqueue(5)  # slot 0 was free: the back wraps round to it
>>> q._slots, q._front, q._size
([5, 2, 3, 4], 1, 4)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from solitaire_ds.structures.base import EmptyStructureError, Queue

__all__ = ["ArrayQueue"]

T = TypeVar("T")

_MIN_CAPACITY = 4


class ArrayQueue(Queue[T]):
    """A first-in, first-out queue stored in a circular buffer of slots.

    Adding:
        ``enqueue(item)``.
    Removing:
        ``dequeue()``.
    Looking:
        ``peek()``, ``is_empty()``, ``len(queue)``, ``bool(queue)``.
    Iterating:
        ``iter(queue)`` goes from the front to the back.

    >>> queue = ArrayQueue([1, 2, 3])
    >>> queue.dequeue(), queue.peek(), len(queue)
    (1, 2, 2)
    >>> queue
    ArrayQueue([2, 3])
    """

    def __init__(self, items: Iterable[T] | None = None) -> None:
        """Make a queue, enqueuing each of ``items`` in order.

        Runtime complexity: O(n) for n items.

        >>> ArrayQueue("ab").peek()
        'a'
        """
        self._slots: list[Any] = [None] * _MIN_CAPACITY  # an item, or None when unused
        self._front = 0
        self._size = 0
        if items is not None:
            for item in items:
                self.enqueue(item)

    # -- adding ----------------------------------------------------------------------

    def enqueue(self, item: T) -> None:
        """Add ``item`` at the back of the queue, growing the buffer when it is full.

        Runtime complexity: O(1) amortized.

        >>> queue = ArrayQueue([1])
        >>> queue.enqueue(2)
        >>> list(queue)
        [1, 2]
        """
        # BEGIN SOLUTION: grow when full, then put item in the slot after the back (% wraps round)
        if self._size == len(self._slots):
            self._grow()
        back = (self._front + self._size) % len(self._slots)
        self._slots[back] = item
        self._size += 1
        # END SOLUTION

    # -- removing --------------------------------------------------------------------

    def dequeue(self) -> T:
        """Remove and return the front item.

        Raises EmptyStructureError("dequeue from an empty queue") when the queue is empty.

        Runtime complexity: O(1).

        >>> queue = ArrayQueue([1, 2])
        >>> queue.dequeue()
        1
        >>> len(queue)
        1
        """
        # BEGIN SOLUTION: take the front item out (leave None), move the front on (% wraps round)
        if self._size == 0:
            raise EmptyStructureError("dequeue from an empty queue")
        item: T = self._slots[self._front]
        self._slots[self._front] = None  # no stale reference: the queue must not keep the item alive
        self._front = (self._front + 1) % len(self._slots)
        self._size -= 1
        return item
        # END SOLUTION

    # -- looking ---------------------------------------------------------------------

    def peek(self) -> T:
        """Return the front item without removing it.

        Raises EmptyStructureError("peek at an empty queue") when the queue is empty.

        Runtime complexity: O(1).

        >>> ArrayQueue([1, 2]).peek()
        1
        """
        # BEGIN SOLUTION: return the item in the front slot, or raise when the queue is empty
        if self._size == 0:
            raise EmptyStructureError("peek at an empty queue")
        item: T = self._slots[self._front]
        return item
        # END SOLUTION

    def __len__(self) -> int:
        """Return the number of items in the queue.

        Runtime complexity: O(1).

        >>> len(ArrayQueue([1, 2, 3]))
        3
        """
        # BEGIN SOLUTION: return the number of items
        return self._size
        # END SOLUTION

    # -- iterating -------------------------------------------------------------------

    def __iter__(self) -> Iterator[T]:
        """Iterate from the front item to the back one, changing nothing.

        Runtime complexity: O(n) for the whole iteration.

        >>> list(ArrayQueue([1, 2, 3]))
        [1, 2, 3]
        """
        # BEGIN SOLUTION: yield the items from the front slot on, wrapping around the end
        for offset in range(self._size):
            item: T = self._slots[(self._front + offset) % len(self._slots)]
            yield item
        # END SOLUTION

    # -- private helpers -------------------------------------------------------------

    def _grow(self) -> None:
        """Copy the items of the full buffer, front first, to a list twice as long.

        Runtime complexity: O(n) for n items.

        >>> q = ArrayQueue()
        >>> for n in range(len(q._slots)):
        ...     q.enqueue(n)
        >>> capacity = len(q._slots)
        >>> q._grow()
        >>> len(q._slots) == 2 * capacity, q._front, list(q) == list(range(capacity))
        (True, 0, True)
        """
        # BEGIN SOLUTION: copy the items, front first, to the start of a list twice as long; front 0
        old_slots = self._slots
        self._slots = [None] * (2 * len(old_slots))
        for offset in range(self._size):
            self._slots[offset] = old_slots[(self._front + offset) % len(old_slots)]
        self._front = 0
        # END SOLUTION

    def _check(self) -> None:
        """Assert the invariant stated at the top of this module.

        Runtime complexity: O(capacity).

        >>> ArrayQueue([1, 2])._check() is None
        True
        """
        slots = self._slots
        assert isinstance(slots, list), "_slots must be a list"
        capacity = len(slots)
        assert capacity >= _MIN_CAPACITY, f"capacity {capacity} is below {_MIN_CAPACITY}"
        assert 0 <= self._front < capacity, f"front {self._front} outside 0..{capacity - 1}"
        assert 0 <= self._size <= capacity, f"size {self._size} outside 0..{capacity}"
        used = {(self._front + offset) % capacity for offset in range(self._size)}
        for index in range(capacity):
            if index not in used:
                assert slots[index] is None, f"unused slot {index} still holds {slots[index]!r}"
