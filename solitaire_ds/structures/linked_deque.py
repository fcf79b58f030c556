"""LinkedDeque: a double-ended queue of doubly linked nodes around one sentinel.

Invariant: ``_sentinel`` is a node that holds no item (its ``item`` is None) and is
never removed. The nodes form a ring: the sentinel, then the front node, ..., the
rear node, and back to the sentinel. So ``_sentinel.next`` is the front node and
``_sentinel.prev`` the rear node; in an empty deque both are the sentinel itself.
For every node ``n`` in the ring, ``n.next.prev is n`` and ``n.prev.next is n``.
The ring holds exactly ``_size`` nodes besides the sentinel.

A node (the sentinel too) is any object with the fields ``item``, ``next`` and ``prev``:
this file's ``_Node``, or a node class of your own with those three fields (the
invariant check reads only them).

The sentinel is why there are no special cases: every real node always has a node
on each side, so adding at either end is the same splice (``_insert_between``), and
removing at either end the same unlinking (``_unlink``), whether or not the deque is
empty. All operations are O(1).

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

    >>> lone = _Node(None, None, None)  # a sentinel on its own: a ring of one
    >>> lone.prev = lone.next = lone
    >>> lone.prev is lone is lone.next
    True
    """

    def __init__(self, item: Any, prev: Any, next: Any) -> None:
        """Make a node holding ``item``, linked to the nodes before and after it.

        Runtime complexity: O(1).

        >>> _Node("a", None, None).item
        'a'
        """
        self.item = item
        self.prev: _Node = prev
        self.next: _Node = next


def _is_node(value: object) -> bool:
    """Whether ``value`` has a node's three fields (any node class will do).

    >>> _is_node(_Node("a", None, None)), _is_node("a")
    (True, False)
    """
    return all(hasattr(value, field) for field in ("item", "next", "prev"))


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

    def __init__(self, items: Iterable[T] | None = None) -> None:
        """Make a deque, adding each of ``items`` at the rear in order.

        Runtime complexity: O(n) for n items.

        >>> LinkedDeque("ab").peek_front()
        'a'
        """
        self._sentinel = _Node(None, None, None)
        self._sentinel.prev = self._sentinel  # links to itself: the ring of an empty deque
        self._sentinel.next = self._sentinel
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
        # BEGIN SOLUTION: insert a node for item between the sentinel and the front node
        self._insert_between(item, self._sentinel, self._sentinel.next)
        # END SOLUTION

    def add_rear(self, item: T) -> None:
        """Add ``item`` at the rear.

        Runtime complexity: O(1).

        >>> deque = LinkedDeque([1])
        >>> deque.add_rear(2)
        >>> list(deque)
        [1, 2]
        """
        # BEGIN SOLUTION: insert a node for item between the rear node and the sentinel
        self._insert_between(item, self._sentinel.prev, self._sentinel)
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
        # BEGIN SOLUTION: unlink the node after the sentinel (raise when there is none); return its item
        if self._size == 0:
            raise EmptyStructureError("remove_front from an empty deque")
        return self._unlink(self._sentinel.next)
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
        # BEGIN SOLUTION: unlink the node before the sentinel (raise when there is none); return its item
        if self._size == 0:
            raise EmptyStructureError("remove_rear from an empty deque")
        return self._unlink(self._sentinel.prev)
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

    def _insert_between(self, item: T, before: _Node, after: _Node) -> None:
        """Link a new node holding ``item`` between the neighbours ``before`` and ``after``.

        Runtime complexity: O(1).

        >>> d = LinkedDeque([1, 3])
        >>> d._insert_between(2, d._sentinel.next, d._sentinel.prev)
        >>> list(d)
        [1, 2, 3]
        """
        # BEGIN SOLUTION: make the node (linked to both neighbours), point them at it; count it
        node = _Node(item, before, after)
        before.next = node
        after.prev = node
        self._size += 1
        # END SOLUTION

    def _unlink(self, node: _Node) -> T:
        """Take ``node`` (not the sentinel) out of the ring and return its item.

        Runtime complexity: O(1).

        >>> d = LinkedDeque([1, 2, 3])
        >>> d._unlink(d._sentinel.next.next)
        2
        >>> list(d)
        [1, 3]
        """
        # BEGIN SOLUTION: link the node's two neighbours to each other; uncount it; return its item
        node.prev.next = node.next
        node.next.prev = node.prev
        self._size -= 1
        item: T = node.item
        return item
        # END SOLUTION

    def _check(self) -> None:
        """Assert the invariant stated at the top of this module.

        Runtime complexity: O(n).

        >>> LinkedDeque([1, 2])._check() is None
        True
        """
        sentinel = self._sentinel
        assert _is_node(sentinel), "the sentinel must be a node (a node has the fields item, next and prev)"
        assert sentinel.item is None, f"the sentinel holds an item: {sentinel.item!r}"
        count = 0
        node = sentinel
        while True:
            assert _is_node(node.next), (
                f"link after node {count} is not a node (a node has the fields item, next and prev)")
            assert node.next.prev is node, f"node {count + 1}.prev is not node {count}"
            node = node.next
            if node is sentinel:
                break
            count += 1
            assert count <= self._size, f"the ring holds more than _size = {self._size} nodes besides the sentinel"
        assert count == self._size, f"size is {self._size} but {count} nodes are in the ring"
