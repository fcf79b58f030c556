"""LinkedDeque: a double-ended queue of doubly linked nodes around one sentinel.

Invariant: ``_sentinel`` is a node that holds no item (its ``item`` is None) and is
never removed. The nodes form a ring: the sentinel, then the front node, ..., the
rear node, and back to the sentinel. So ``_sentinel.next`` is the front node and
``_sentinel.prev`` the rear node; in an empty deque both are the sentinel itself.
For every node ``n`` in the ring, ``n.next.prev is n`` and ``n.prev.next is n``.
The ring holds exactly ``_size`` nodes besides the sentinel.

The sentinel is why there are no special cases: every real node always has a node
on each side, so adding and removing at either end is the same two-link splice,
whether or not the deque is empty. All operations are O(1).

>>> d = LinkedDeque([1, 2])
>>> d._sentinel.next.item, d._sentinel.prev.item, d._sentinel.item  # front, rear, none
(1, 2, None)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from solitaire_ds.structures.base import Deque, EmptyStructureError

__all__ = ["LinkedDeque"]

T = TypeVar("T")


class _Node:
    """One item and the links to the nodes before and after it.

    There is no ``__init__``: make the node, then set its three fields. Calling a
    Python ``__init__`` costs about as much as the rest of an add, so this keeps adding fast.

    >>> lone = _Node()  # a sentinel on its own: a ring of one
    >>> lone.item = None
    >>> lone.prev = lone.next = lone
    >>> lone.prev is lone is lone.next
    True
    """

    __slots__ = ("item", "next", "prev")

    item: Any
    prev: _Node
    next: _Node


class LinkedDeque(Deque[T]):
    """A double-ended queue of doubly linked nodes in a ring closed by a sentinel.

    Adding:
        ``add_front(item)``, ``add_rear(item)``.
    Removing:
        ``remove_front()``, ``remove_rear()``.
    Looking:
        ``peek_front()``, ``peek_rear()``, ``is_empty()``, ``len(deque)``, ``bool(deque)``.
    Iterating:
        ``iter(deque)`` goes from the front to the rear.

    >>> deque = LinkedDeque([2, 3])
    >>> deque.add_front(1)
    >>> deque.remove_rear(), deque.peek_front(), len(deque)
    (3, 1, 2)
    >>> deque
    LinkedDeque([1, 2])
    """

    __slots__ = ("_sentinel", "_size")

    def __init__(self, items: Iterable[T] | None = None) -> None:
        """Make a deque, adding each of ``items`` at the rear in order.

        Runtime complexity: O(n) for n items.

        >>> LinkedDeque("ab").peek_front()
        'a'
        """
        sentinel = _Node()
        sentinel.item = None
        sentinel.prev = sentinel.next = sentinel  # links to itself: the ring of an empty deque
        self._sentinel = sentinel
        self._size = 0
        if items is not None:
            for item in items:
                self.add_rear(item)

    # -- adding ----------------------------------------------------------------------

    def add_front(self, item: T) -> None:
        """Add ``item`` at the front.

        Runtime complexity: O(1).

        >>> deque = LinkedDeque([2])
        >>> deque.add_front(1)
        >>> list(deque)
        [1, 2]
        """
        # BEGIN SOLUTION: splice a new node in between the sentinel and the front node
        before = self._sentinel
        after = before.next
        node = _Node()
        node.item = item
        node.prev = before
        node.next = after
        before.next = node
        after.prev = node
        self._size += 1
        # END SOLUTION

    def add_rear(self, item: T) -> None:
        """Add ``item`` at the rear.

        Runtime complexity: O(1).

        >>> deque = LinkedDeque([1])
        >>> deque.add_rear(2)
        >>> list(deque)
        [1, 2]
        """
        # BEGIN SOLUTION: splice a new node in between the rear node and the sentinel
        after = self._sentinel
        before = after.prev
        node = _Node()
        node.item = item
        node.prev = before
        node.next = after
        before.next = node
        after.prev = node
        self._size += 1
        # END SOLUTION

    # -- removing --------------------------------------------------------------------

    def remove_front(self) -> T:
        """Remove and return the front item.

        Raises EmptyStructureError("remove_front from an empty deque") when empty.

        Runtime complexity: O(1).

        >>> deque = LinkedDeque([1, 2])
        >>> deque.remove_front()
        1
        >>> list(deque)
        [2]
        """
        # BEGIN SOLUTION: unlink the node after the sentinel (raise if none); return its item
        if self._size == 0:
            raise EmptyStructureError("remove_front from an empty deque")
        node = self._sentinel.next
        node.prev.next = node.next
        node.next.prev = node.prev
        self._size -= 1
        item: T = node.item
        return item
        # END SOLUTION

    def remove_rear(self) -> T:
        """Remove and return the rear item.

        Raises EmptyStructureError("remove_rear from an empty deque") when empty.

        Runtime complexity: O(1).

        >>> deque = LinkedDeque([1, 2])
        >>> deque.remove_rear()
        2
        >>> list(deque)
        [1]
        """
        # BEGIN SOLUTION: unlink the node before the sentinel (raise if none); return its item
        if self._size == 0:
            raise EmptyStructureError("remove_rear from an empty deque")
        node = self._sentinel.prev
        node.prev.next = node.next
        node.next.prev = node.prev
        self._size -= 1
        item: T = node.item
        return item
        # END SOLUTION

    # -- looking ---------------------------------------------------------------------

    def peek_front(self) -> T:
        """Return the front item without removing it.

        Raises EmptyStructureError("peek_front at an empty deque") when empty.

        Runtime complexity: O(1).

        >>> LinkedDeque([1, 2]).peek_front()
        1
        """
        # BEGIN SOLUTION: return the item of the node after the sentinel, or raise when empty
        if self._size == 0:
            raise EmptyStructureError("peek_front at an empty deque")
        item: T = self._sentinel.next.item
        return item
        # END SOLUTION

    def peek_rear(self) -> T:
        """Return the rear item without removing it.

        Raises EmptyStructureError("peek_rear at an empty deque") when empty.

        Runtime complexity: O(1).

        >>> LinkedDeque([1, 2]).peek_rear()
        2
        """
        # BEGIN SOLUTION: return the item of the node before the sentinel, or raise when empty
        if self._size == 0:
            raise EmptyStructureError("peek_rear at an empty deque")
        item: T = self._sentinel.prev.item
        return item
        # END SOLUTION

    def __len__(self) -> int:
        """Return the number of items in the deque.

        Runtime complexity: O(1).

        >>> len(LinkedDeque([1, 2, 3]))
        3
        """
        # BEGIN SOLUTION: return the number of items (kept in a counter, not counted)
        return self._size
        # END SOLUTION

    # -- iterating -------------------------------------------------------------------

    def __iter__(self) -> Iterator[T]:
        """Iterate from the front item to the rear one, changing nothing.

        Runtime complexity: O(n) for the whole iteration.

        >>> list(LinkedDeque([1, 2, 3]))
        [1, 2, 3]
        """
        # BEGIN SOLUTION: follow next from the node after the sentinel until back at the sentinel
        sentinel = self._sentinel
        node = sentinel.next
        while node is not sentinel:
            item: T = node.item
            yield item
            node = node.next
        # END SOLUTION

    # -- private helpers -------------------------------------------------------------

    def _check(self) -> None:
        """Assert the invariant stated at the top of this module.

        Runtime complexity: O(capacity) for the array classes, O(n) for the linked ones.

        >>> LinkedDeque([1, 2])._check() is None
        True
        """
        sentinel = self._sentinel
        assert isinstance(sentinel, _Node), "the sentinel must be a node"
        assert sentinel.item is None, f"the sentinel holds an item: {sentinel.item!r}"
        count = 0
        node = sentinel
        while True:
            assert isinstance(node.next, _Node), f"link after node {count} is not a node"
            assert node.next.prev is node, f"node {count + 1}.prev is not node {count}"
            node = node.next
            if node is sentinel:
                break
            count += 1
            assert count <= self._size, f"more nodes than the size {self._size} (or a broken ring)"
        assert count == self._size, f"size is {self._size} but {count} nodes are in the ring"
