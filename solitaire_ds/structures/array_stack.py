"""ArrayStack: a stack kept in its own resizing array of slots.

Invariant: ``_slots`` is a list of ``capacity`` slots, ``capacity >= _MIN_CAPACITY``.
The items are ``_slots[0:_size]``, bottom first, so the top item is
``_slots[_size - 1]``. Every slot from ``_size`` on holds None, so a popped item is
not kept alive by the stack. Unless the capacity is already the minimum, the stack
is more than a quarter full: ``_size > capacity // 4``. ``_shrink_at`` is the size
at which a pop halves the capacity: ``capacity // 4``, or -1 (never) when the
capacity is the minimum. It is kept in a slot, and updated on every resize, so that
pop compares two numbers instead of working the threshold out on every call.

A push that finds every slot full doubles the capacity; a pop that leaves the stack
a quarter full halves it. Shrinking at a quarter (not at a half) means a push and a
pop at the boundary cannot resize on every call: each copy of n items is paid for by
at least n/4 cheap operations before it, so push and pop are O(1) amortized.

>>> s = ArrayStack([1, 2, 3])
>>> s._slots, s._size  # bottom first; the free slot holds None
([1, 2, 3, None], 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from solitaire_ds.structures.base import EmptyStructureError, Stack

__all__ = ["ArrayStack"]

T = TypeVar("T")

_MIN_CAPACITY = 4


class ArrayStack(Stack[T]):
    """A last-in, first-out stack stored in a list of slots that doubles and halves.

    Adding:
        ``push(item)``.
    Removing:
        ``pop()``.
    Looking:
        ``peek()``, ``is_empty()``, ``len(stack)``, ``bool(stack)``.
    Iterating:
        ``iter(stack)`` goes from the top to the bottom.

    >>> stack = ArrayStack([1, 2, 3])
    >>> stack.pop(), stack.peek(), len(stack)
    (3, 2, 2)
    >>> stack
    ArrayStack([1, 2])
    """

    __slots__ = ("_shrink_at", "_size", "_slots")

    def __init__(self, items: Iterable[T] | None = None) -> None:
        """Make a stack, pushing each of ``items`` in order so the last ends on top.

        Runtime complexity: O(n) for n items.

        >>> ArrayStack("ab").peek()
        'b'
        """
        self._slots: list[Any] = [None] * _MIN_CAPACITY  # an item, or None when unused
        self._size = 0
        self._shrink_at = -1  # the minimum capacity never halves
        if items is not None:
            for item in items:
                self.push(item)

    # -- adding ----------------------------------------------------------------------

    def push(self, item: T) -> None:
        """Put ``item`` on top of the stack, doubling the capacity when every slot is full.

        Runtime complexity: O(1) amortized.

        >>> stack = ArrayStack()
        >>> stack.push("x")
        >>> stack.peek()
        'x'
        """
        # BEGIN SOLUTION: put item in the first free slot; when every slot is full, double first
        size = self._size
        try:
            self._slots[size] = item
        except IndexError:  # no slot number size: every slot is full (cheaper than checking first)
            self._resize(2 * size)
            self._slots[size] = item
        self._size = size + 1
        # END SOLUTION

    # -- removing --------------------------------------------------------------------

    def pop(self) -> T:
        """Remove and return the top item, halving the capacity when a quarter full.

        Raises EmptyStructureError("pop from an empty stack") when the stack is empty.

        Runtime complexity: O(1) amortized.

        >>> stack = ArrayStack([1, 2])
        >>> stack.pop()
        2
        >>> len(stack)
        1
        """
        # BEGIN SOLUTION: remove the top item (leave None), halve when a quarter full, return it
        size = self._size
        if size == 0:
            raise EmptyStructureError("pop from an empty stack")
        size -= 1
        slots = self._slots
        item: T = slots[size]
        slots[size] = None  # no stale reference: the stack must not keep the item alive
        self._size = size
        if size <= self._shrink_at:  # a quarter full (and above the minimum capacity)
            self._resize(len(slots) // 2)
        return item
        # END SOLUTION

    # -- looking ---------------------------------------------------------------------

    def peek(self) -> T:
        """Return the top item without removing it.

        Raises EmptyStructureError("peek at an empty stack") when the stack is empty.

        Runtime complexity: O(1).

        >>> ArrayStack([1, 2]).peek()
        2
        """
        # BEGIN SOLUTION: return the item in the last used slot, or raise when the stack is empty
        if self._size == 0:
            raise EmptyStructureError("peek at an empty stack")
        item: T = self._slots[self._size - 1]
        return item
        # END SOLUTION

    def __len__(self) -> int:
        """Return the number of items on the stack.

        Runtime complexity: O(1).

        >>> len(ArrayStack([1, 2, 3]))
        3
        """
        # BEGIN SOLUTION: return the number of items
        return self._size
        # END SOLUTION

    # -- iterating -------------------------------------------------------------------

    def __iter__(self) -> Iterator[T]:
        """Iterate from the top item to the bottom one, changing nothing.

        Runtime complexity: O(n) for the whole iteration.

        >>> list(ArrayStack([1, 2, 3]))
        [3, 2, 1]
        """
        # BEGIN SOLUTION: yield the used slots from the top (the last used slot) down to slot 0
        slots = self._slots
        for index in range(self._size - 1, -1, -1):
            item: T = slots[index]
            yield item
        # END SOLUTION

    # -- private helpers -------------------------------------------------------------

    def _resize(self, capacity: int) -> None:
        """Move the items into a new list of ``capacity`` slots (the rest None).

        Also sets ``_shrink_at`` for the new capacity.

        Runtime complexity: O(n) for n items (one slice copy).

        >>> s = ArrayStack([1, 2, 3])
        >>> s._resize(8)
        >>> len(s._slots), list(s), s._shrink_at
        (8, [3, 2, 1], 2)
        """
        # BEGIN SOLUTION: copy the items to the start of a new list of capacity slots; set _shrink_at
        size = self._size
        new_slots: list[Any] = [None] * capacity
        new_slots[:size] = self._slots[:size]  # one C-level copy, same length: no resizing
        self._slots = new_slots
        self._shrink_at = capacity // 4 if capacity > _MIN_CAPACITY else -1
        # END SOLUTION

    def _check(self) -> None:
        """Assert the invariant stated at the top of this module.

        Runtime complexity: O(capacity) for the array classes, O(n) for the linked ones.

        >>> ArrayStack([1, 2])._check() is None
        True
        """
        slots = self._slots
        capacity = len(slots)
        assert isinstance(slots, list), "_slots must be a list"
        assert capacity >= _MIN_CAPACITY, f"capacity {capacity} is below {_MIN_CAPACITY}"
        assert 0 <= self._size <= capacity, f"size {self._size} outside 0..{capacity}"
        assert self._size > capacity // 4 or capacity == _MIN_CAPACITY, (
            f"size {self._size} is a quarter or less of capacity {capacity}: should have halved"
        )
        expected_shrink_at = capacity // 4 if capacity > _MIN_CAPACITY else -1
        assert self._shrink_at == expected_shrink_at, (
            f"_shrink_at is {self._shrink_at}, not {expected_shrink_at} for capacity {capacity}"
        )
        for index in range(self._size, capacity):
            assert slots[index] is None, f"unused slot {index} still holds {slots[index]!r}"
