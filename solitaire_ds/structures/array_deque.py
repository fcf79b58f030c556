"""ArrayDeque: a double-ended queue in a circular buffer that grows when full.

Invariant: ``_slots`` is a list of at least ``_MIN_CAPACITY`` slots; its length is the
capacity. The ``_size`` items sit in the slots ``_front``, ``_front + 1``, ..., each
index taken modulo the capacity (``% len(_slots)``), so they may wrap around either
end of the list. The front item is ``_slots[_front]``; the rear item is
``_slots[(_front + _size - 1) % len(_slots)]``. ``0 <= _front < len(_slots)`` and
``0 <= _size <= len(_slots)``. Every other slot holds None, so a removed item is not
kept alive by the deque.

Adding at the front steps ``_front`` back by one (``(_front - 1) % len(_slots)``: from
slot 0 it wraps to the last slot); adding at the rear fills the slot after the rear.
Nothing is ever shifted, so all four operations are O(1); when the buffer is full,
the items are copied in order to the start of a list twice as long, which makes
adding O(1) amortized. Like ArrayQueue, this deque only grows.

>>> d = ArrayDeque([1, 2])
>>> d.add_front(0)  # the front moves back from slot 0 to the last slot
>>> d._slots, d._front, d._size
([1, 2, None, 0], 3, 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from solitaire_ds.structures.base import Deque, EmptyStructureError

__all__ = ["ArrayDeque"]

T = TypeVar("T")

_MIN_CAPACITY = 4


class ArrayDeque(Deque[T]):
    """A double-ended queue stored in a circular buffer of slots.

    Adding:
        ``add_front(item)``, ``add_rear(item)``.
    Removing:
        ``remove_front()``, ``remove_rear()``.
    Looking:
        ``peek_front()``, ``peek_rear()``, ``is_empty()``, ``len(deque)``, ``bool(deque)``.
    Iterating:
        ``iter(deque)`` goes from the front to the rear.

    >>> deque = ArrayDeque([2, 3])
    >>> deque.add_front(1)
    >>> deque.remove_rear(), deque.peek_front(), len(deque)
    (3, 1, 2)
    >>> deque
    ArrayDeque([1, 2])
    """

    def __init__(self, items: Iterable[T] | None = None) -> None:
        """Make a deque, adding each of ``items`` at the rear in order.

        Runtime complexity: O(n) for n items.

        >>> ArrayDeque("ab").peek_front()
        'a'
        """
        self._slots: list[Any] = [None] * _MIN_CAPACITY  # an item, or None when unused
        self._front = 0
        self._size = 0
        if items is not None:
            for item in items:
                self.add_rear(item)

    # -- adding ----------------------------------------------------------------------

    def add_front(self, item: T) -> None:
        """Add ``item`` at the front, growing the buffer when it is full.

        Runtime complexity: O(1) amortized.

        >>> deque = ArrayDeque([2])
        >>> deque.add_front(1)
        >>> list(deque)
        [1, 2]
        """
        # BEGIN SOLUTION: grow when full, step the front back one slot (% wraps round), put item there
        if self._size == len(self._slots):
            self._grow()
        self._front = (self._front - 1) % len(self._slots)
        self._slots[self._front] = item
        self._size += 1
        # END SOLUTION

    def add_rear(self, item: T) -> None:
        """Add ``item`` at the rear, growing the buffer when it is full.

        Runtime complexity: O(1) amortized.

        >>> deque = ArrayDeque([1])
        >>> deque.add_rear(2)
        >>> list(deque)
        [1, 2]
        """
        # BEGIN SOLUTION: grow when full, then put item in the slot after the rear (% wraps round)
        if self._size == len(self._slots):
            self._grow()
        rear = (self._front + self._size) % len(self._slots)
        self._slots[rear] = item
        self._size += 1
        # END SOLUTION

    # -- removing --------------------------------------------------------------------

    def remove_front(self) -> T:
        """Remove and return the front item.

        Raises EmptyStructureError("remove_front from an empty deque") when empty.

        Runtime complexity: O(1).

        >>> deque = ArrayDeque([1, 2])
        >>> deque.remove_front()
        1
        >>> list(deque)
        [2]
        """
        # BEGIN SOLUTION: take the front item out (leave None), move the front on (% wraps round)
        if self._size == 0:
            raise EmptyStructureError("remove_front from an empty deque")
        item: T = self._slots[self._front]
        self._slots[self._front] = None  # no stale reference: the deque must not keep the item alive
        self._front = (self._front + 1) % len(self._slots)
        self._size -= 1
        return item
        # END SOLUTION

    def remove_rear(self) -> T:
        """Remove and return the rear item.

        Raises EmptyStructureError("remove_rear from an empty deque") when empty.

        Runtime complexity: O(1).

        >>> deque = ArrayDeque([1, 2])
        >>> deque.remove_rear()
        2
        >>> list(deque)
        [1]
        """
        # BEGIN SOLUTION: take the rear item out of its slot (leave None) and return it
        if self._size == 0:
            raise EmptyStructureError("remove_rear from an empty deque")
        rear = (self._front + self._size - 1) % len(self._slots)
        item: T = self._slots[rear]
        self._slots[rear] = None  # no stale reference: the deque must not keep the item alive
        self._size -= 1
        return item
        # END SOLUTION

    # -- looking ---------------------------------------------------------------------

    def peek_front(self) -> T:
        """Return the front item without removing it.

        Raises EmptyStructureError("peek_front at an empty deque") when empty.

        Runtime complexity: O(1).

        >>> ArrayDeque([1, 2]).peek_front()
        1
        """
        # BEGIN SOLUTION: return the item in the front slot, or raise when the deque is empty
        if self._size == 0:
            raise EmptyStructureError("peek_front at an empty deque")
        item: T = self._slots[self._front]
        return item
        # END SOLUTION

    def peek_rear(self) -> T:
        """Return the rear item without removing it.

        Raises EmptyStructureError("peek_rear at an empty deque") when empty.

        Runtime complexity: O(1).

        >>> ArrayDeque([1, 2]).peek_rear()
        2
        """
        # BEGIN SOLUTION: return the item in the rear slot, or raise when the deque is empty
        if self._size == 0:
            raise EmptyStructureError("peek_rear at an empty deque")
        item: T = self._slots[(self._front + self._size - 1) % len(self._slots)]
        return item
        # END SOLUTION

    def __len__(self) -> int:
        """Return the number of items in the deque.

        Runtime complexity: O(1).

        >>> len(ArrayDeque([1, 2, 3]))
        3
        """
        # BEGIN SOLUTION: return the number of items
        return self._size
        # END SOLUTION

    # -- iterating -------------------------------------------------------------------

    def __iter__(self) -> Iterator[T]:
        """Iterate from the front item to the rear one, changing nothing.

        Runtime complexity: O(n) for the whole iteration.

        >>> list(ArrayDeque([1, 2, 3]))
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

        >>> q = ArrayDeque()
        >>> for n in range(len(q._slots)):
        ...     q.add_rear(n)
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

        >>> ArrayDeque([1, 2])._check() is None
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
