"""ArrayStack: a stack kept in its own resizing array of slots.

Invariant: ``_slots`` is a list of at least ``_MIN_CAPACITY`` slots; its length is the
capacity. The items are ``_slots[0:_size]``, bottom first, so the top item is
``_slots[_size - 1]``. Every slot from ``_size`` on holds None, so a popped item is
not kept alive by the stack. Unless the capacity is already the minimum, the stack
is more than a quarter full: ``_size > len(_slots) // 4``.

A push that finds every slot full doubles the capacity; a pop that leaves the stack
a quarter full halves it. Why a quarter, not a half: shrinking at a half would make
a push and a pop at the boundary copy every item on every call (a full stack of 2^k
items: the push doubles, the pop halves, the push doubles again ...). At a quarter,
each copy of n items is paid for by at least n/4 cheap operations before it, so push
and pop are O(1) amortized.

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

    def __init__(self, items: Iterable[T] | None = None) -> None:
        """Make a stack, pushing each of ``items`` in order so the last ends on top.

        Runtime complexity: O(n) for n items.

        >>> ArrayStack("ab").peek()
        'b'
        """
        self._slots: list[Any] = [None] * _MIN_CAPACITY  # an item, or None when unused
        self._size = 0
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
        # BEGIN SOLUTION: when every slot is full, double the capacity; put item in the first free slot
        if self._size == len(self._slots):
            self._resize(2 * len(self._slots))
        self._slots[self._size] = item
        self._size += 1
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
        # BEGIN SOLUTION: take the top item out (leave None); halve when a quarter full; return it
        if self._size == 0:
            raise EmptyStructureError("pop from an empty stack")
        self._size -= 1
        item: T = self._slots[self._size]
        self._slots[self._size] = None  # no stale reference: the stack must not keep the item alive
        if len(self._slots) > _MIN_CAPACITY and self._size <= len(self._slots) // 4:
            self._resize(len(self._slots) // 2)
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
        for index in range(self._size - 1, -1, -1):
            item: T = self._slots[index]
            yield item
        # END SOLUTION

    # -- private helpers -------------------------------------------------------------

    def _resize(self, capacity: int) -> None:
        """Move the items into a new list of ``capacity`` slots (the rest None).

        Runtime complexity: O(n) for n items.

        >>> s = ArrayStack([1, 2, 3])
        >>> s._resize(8)
        >>> len(s._slots), list(s)
        (8, [3, 2, 1])
        """
        # BEGIN SOLUTION: copy each item to the same slot of a new list of capacity slots
        new_slots: list[Any] = [None] * capacity
        for index in range(self._size):
            new_slots[index] = self._slots[index]
        self._slots = new_slots
        # END SOLUTION

    def _check(self) -> None:
        """Assert the invariant stated at the top of this module.

        Runtime complexity: O(capacity).

        >>> ArrayStack([1, 2])._check() is None
        True
        """
        slots = self._slots
        assert isinstance(slots, list), "_slots must be a list"
        capacity = len(slots)
        assert capacity >= _MIN_CAPACITY, f"capacity {capacity} is below {_MIN_CAPACITY}"
        assert 0 <= self._size <= capacity, f"size {self._size} outside 0..{capacity}"
        assert self._size > capacity // 4 or capacity == _MIN_CAPACITY, (
            f"size {self._size} is a quarter or less of capacity {capacity}: should have halved"
        )
        for index in range(self._size, capacity):
            assert slots[index] is None, f"unused slot {index} still holds {slots[index]!r}"
