"""ArrayQueue: a queue in a circular buffer that grows when full.

Invariant: ``_slots`` is a list of ``capacity`` slots, ``capacity >= _MIN_CAPACITY``.
The ``_size`` items sit in the slots ``_front``, ``_front + 1``, ..., each index
taken modulo ``capacity``, so they may wrap past the end of the list back to slot 0.
The front item is ``_slots[_front]``; the back item is
``_slots[(_front + _size - 1) % capacity]``. ``0 <= _front < capacity`` and
``0 <= _size <= capacity``. Every other slot holds None, so a dequeued item is not
kept alive by the queue. ``_capacity`` is ``len(_slots)``, kept in a slot (and
updated when the buffer grows) so that enqueue and dequeue skip a ``len()`` call.

Dequeuing moves ``_front`` forward instead of shifting the items, so both ends are
O(1). An index is never more than one lap past the end, so "modulo capacity" is
done by subtracting the capacity once when the index reaches it (cheaper than ``%``).
When an enqueue finds every slot full, the items are copied, in queue order,
to the start of a list twice as long; that O(n) copy happens after n cheap enqueues,
so enqueue is O(1) amortized.

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

    __slots__ = ("_capacity", "_front", "_size", "_slots")

    def __init__(self, items: Iterable[T] | None = None) -> None:
        """Make a queue, enqueuing each of ``items`` in order.

        Runtime complexity: O(n) for n items.

        >>> ArrayQueue("ab").peek()
        'a'
        """
        self._slots: list[Any] = [None] * _MIN_CAPACITY  # an item, or None when unused
        self._capacity = _MIN_CAPACITY  # len(self._slots)
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
        # BEGIN SOLUTION: grow when full, then put item in the slot after the back (wrap around)
        size = self._size
        if size == self._capacity:
            self._grow()
        back = self._front + size
        if back >= self._capacity:  # the back runs past the end of the list: wrap round to 0
            back -= self._capacity
        self._slots[back] = item
        self._size = size + 1
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
        # BEGIN SOLUTION: take the front item out (leave None), move the front on (wrap around)
        size = self._size
        if size == 0:
            raise EmptyStructureError("dequeue from an empty queue")
        slots = self._slots
        front = self._front
        item: T = slots[front]
        slots[front] = None  # no stale reference: the queue must not keep the item alive
        front += 1
        if front == self._capacity:  # the front moves past the end of the list: wrap round to 0
            front = 0
        self._front = front
        self._size = size - 1
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
        slots = self._slots
        capacity = len(slots)
        front = self._front
        for offset in range(self._size):
            item: T = slots[(front + offset) % capacity]
            yield item
        # END SOLUTION

    # -- private helpers -------------------------------------------------------------

    def _grow(self) -> None:
        """Copy the items of the full buffer, front first, to a list twice as long.

        Also doubles ``_capacity``.

        Runtime complexity: O(n) for n items (two slice copies).

        >>> q = ArrayQueue()
        >>> for n in range(len(q._slots)):
        ...     q.enqueue(n)
        >>> capacity = len(q._slots)
        >>> q._grow()
        >>> len(q._slots) == 2 * capacity, q._front, list(q) == list(range(capacity))
        (True, 0, True)
        """
        # BEGIN SOLUTION: copy the items in order into a list twice as long; front 0, capacity doubled
        old_slots = self._slots
        capacity = len(old_slots)  # the buffer is full: _size == capacity
        new_slots: list[Any] = [None] * (2 * capacity)
        # the items run from _front to the end of the list, then wrap round to slot 0
        to_the_end = capacity - self._front
        new_slots[:to_the_end] = old_slots[self._front :]
        new_slots[to_the_end:capacity] = old_slots[: self._front]
        self._slots = new_slots
        self._capacity = 2 * capacity
        self._front = 0
        # END SOLUTION

    def _check(self) -> None:
        """Assert the invariant stated at the top of this module.

        Runtime complexity: O(capacity) for the array classes, O(n) for the linked ones.

        >>> ArrayQueue([1, 2])._check() is None
        True
        """
        slots = self._slots
        capacity = len(slots)
        assert isinstance(slots, list), "_slots must be a list"
        assert capacity >= _MIN_CAPACITY, f"capacity {capacity} is below {_MIN_CAPACITY}"
        assert self._capacity == capacity, f"_capacity is {self._capacity}, not {capacity}"
        assert 0 <= self._front < capacity, f"front {self._front} outside 0..{capacity - 1}"
        assert 0 <= self._size <= capacity, f"size {self._size} outside 0..{capacity}"
        used = {(self._front + offset) % capacity for offset in range(self._size)}
        for index in range(capacity):
            if index not in used:
                assert slots[index] is None, f"unused slot {index} still holds {slots[index]!r}"
