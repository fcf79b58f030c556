"""ArrayDeque: a double-ended queue in a circular buffer that grows when full.

Invariant: ``_slots`` is a list of ``capacity`` slots, ``capacity >= _MIN_CAPACITY``.
The ``_size`` items sit in the slots ``_front``, ``_front + 1``, ..., each index
taken modulo ``capacity``, so they may wrap around either end of the list. The
front item is ``_slots[_front]``; the rear item is
``_slots[(_front + _size - 1) % capacity]``. ``0 <= _front < capacity`` and
``0 <= _size <= capacity``. Every other slot holds None, so a removed item is not
kept alive by the deque. ``_capacity`` is ``len(_slots)``, kept in a slot (and
updated when the buffer grows) so that the four operations skip a ``len()`` call.

Adding at the front steps ``_front`` back by one (from slot 0 it wraps to the last
slot); adding at the rear fills the slot after the rear. An index is never more
than one lap past either end, so "modulo capacity" is done by adding or subtracting
the capacity once (cheaper than ``%``). Nothing is ever shifted,
so all four operations are O(1); when the buffer is full, the items are copied in
order to the start of a list twice as long, which makes adding O(1) amortized.

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

    __slots__ = ("_capacity", "_front", "_size", "_slots")

    def __init__(self, items: Iterable[T] | None = None) -> None:
        """Make a deque, adding each of ``items`` at the rear in order.

        Runtime complexity: O(n) for n items.

        >>> ArrayDeque("ab").peek_front()
        'a'
        """
        self._slots: list[Any] = [None] * _MIN_CAPACITY  # an item, or None when unused
        self._capacity = _MIN_CAPACITY  # len(self._slots)
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
        # BEGIN SOLUTION: grow when full, step the front back one slot (wrap around), put item there
        size = self._size
        if size == self._capacity:
            self._grow()
        front = self._front - 1
        if front < 0:  # stepped back from slot 0: wrap round to the last slot
            front += self._capacity
        self._slots[front] = item
        self._front = front
        self._size = size + 1
        # END SOLUTION

    def add_rear(self, item: T) -> None:
        """Add ``item`` at the rear, growing the buffer when it is full.

        Runtime complexity: O(1) amortized.

        >>> deque = ArrayDeque([1])
        >>> deque.add_rear(2)
        >>> list(deque)
        [1, 2]
        """
        # BEGIN SOLUTION: grow when full, then put item in the slot after the rear (wrap around)
        size = self._size
        if size == self._capacity:
            self._grow()
        rear = self._front + size
        if rear >= self._capacity:  # the new rear runs past the end of the list: wrap round to 0
            rear -= self._capacity
        self._slots[rear] = item
        self._size = size + 1
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
        # BEGIN SOLUTION: take the front item out (leave None), move the front on (wrap around)
        size = self._size
        if size == 0:
            raise EmptyStructureError("remove_front from an empty deque")
        slots = self._slots
        front = self._front
        item: T = slots[front]
        slots[front] = None  # no stale reference: the deque must not keep the item alive
        front += 1
        if front == self._capacity:  # the front moves past the end of the list: wrap round to 0
            front = 0
        self._front = front
        self._size = size - 1
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
        size = self._size
        if size == 0:
            raise EmptyStructureError("remove_rear from an empty deque")
        rear = self._front + size - 1
        if rear >= self._capacity:  # the rear is past the end of the list: wrap round to the start
            rear -= self._capacity
        slots = self._slots
        item: T = slots[rear]
        slots[rear] = None  # no stale reference: the deque must not keep the item alive
        self._size = size - 1
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

        >>> q = ArrayDeque()
        >>> for n in range(len(q._slots)):
        ...     q.add_rear(n)
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

        >>> ArrayDeque([1, 2])._check() is None
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
