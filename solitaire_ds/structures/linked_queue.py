"""LinkedQueue: a queue of singly linked nodes with a head and a tail.

Invariant: ``_head`` is the node holding the front item and ``_tail`` the node
holding the back item; both are None exactly when the queue is empty. Each node's
``next`` is the node behind it; the tail's ``next`` is None. Following ``next`` from
``_head`` reaches exactly ``_size`` nodes, the last of which is ``_tail`` (so there is
no dummy node: the head holds the front item).

A node is any object with the fields ``item`` and ``next``: this file's ``_Node``, or a
node class of your own with those two fields (the invariant check reads only them).

Enqueue links a new node after the tail and dequeue unlinks the head, so both are
O(1). The one delicate case is the last dequeue: the tail must be cleared too, or
it would keep pointing at a node that is no longer in the queue.

>>> q = LinkedQueue([1, 2])
>>> q._head.item, q._tail.item, q._head.next is q._tail
(1, 2, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from solitaire_ds.structures.base import EmptyStructureError, Queue

__all__ = ["LinkedQueue"]

T = TypeVar("T")


class _Node:
    """One item and a link to the node behind it (None behind the tail).

    >>> node = _Node("a", None)
    >>> node.item, node.next
    ('a', None)
    """

    def __init__(self, item: Any, next: _Node | None) -> None:
        """Make a node holding ``item``, linked to the next node.

        Runtime complexity: O(1).

        >>> _Node("a", None).item
        'a'
        """
        self.item = item
        self.next = next


class LinkedQueue(Queue[T]):
    """A first-in, first-out queue of linked nodes, from the head (front) to the tail.

    Adding:
        ``enqueue(item)``.
    Removing:
        ``dequeue()``.
    Looking:
        ``peek()``, ``is_empty()``, ``len(queue)``, ``bool(queue)``.
    Iterating:
        ``iter(queue)`` goes from the front to the back.

    >>> queue = LinkedQueue([1, 2, 3])
    >>> queue.dequeue(), queue.peek(), len(queue)
    (1, 2, 2)
    >>> queue
    LinkedQueue([2, 3])
    """

    def __init__(self, items: Iterable[T] | None = None) -> None:
        """Make a queue, enqueuing each of ``items`` in order.

        Runtime complexity: O(n) for n items.

        >>> LinkedQueue("ab").peek()
        'a'
        """
        self._head: _Node | None = None
        self._tail: _Node | None = None
        self._size = 0
        if items is not None:
            for item in items:
                self.enqueue(item)

    # -- adding ----------------------------------------------------------------------

    def enqueue(self, item: T) -> None:
        """Add ``item`` at the back of the queue.

        Runtime complexity: O(1).

        >>> queue = LinkedQueue([1])
        >>> queue.enqueue(2)
        >>> list(queue)
        [1, 2]
        """
        # BEGIN SOLUTION: link a new node after the tail (or as the head when empty); it is the tail
        node = _Node(item, None)  # nothing behind it yet
        if self._tail is None:
            self._head = node
        else:
            self._tail.next = node
        self._tail = node
        self._size += 1
        # END SOLUTION

    # -- removing --------------------------------------------------------------------

    def dequeue(self) -> T:
        """Remove and return the front item.

        Raises EmptyStructureError("dequeue from an empty queue") when the queue is empty.

        Runtime complexity: O(1).

        >>> queue = LinkedQueue([1, 2])
        >>> queue.dequeue()
        1
        >>> len(queue)
        1
        """
        # BEGIN SOLUTION: unlink the head (clear the tail when it was the last); return its item
        if self._head is None:
            raise EmptyStructureError("dequeue from an empty queue")
        item: T = self._head.item
        self._head = self._head.next
        if self._head is None:
            self._tail = None  # the queue is empty again: no stale tail
        self._size -= 1
        return item
        # END SOLUTION

    # -- looking ---------------------------------------------------------------------

    def peek(self) -> T:
        """Return the front item without removing it.

        Raises EmptyStructureError("peek at an empty queue") when the queue is empty.

        Runtime complexity: O(1).

        >>> LinkedQueue([1, 2]).peek()
        1
        """
        # BEGIN SOLUTION: return the head node's item, or raise when the queue is empty
        if self._head is None:
            raise EmptyStructureError("peek at an empty queue")
        item: T = self._head.item
        return item
        # END SOLUTION

    def __len__(self) -> int:
        """Return the number of items in the queue.

        Runtime complexity: O(1).

        >>> len(LinkedQueue([1, 2, 3]))
        3
        """
        # BEGIN SOLUTION: return the number of items (kept in a counter, not counted)
        return self._size
        # END SOLUTION

    # -- iterating -------------------------------------------------------------------

    def __iter__(self) -> Iterator[T]:
        """Iterate from the front item to the back one, changing nothing.

        Runtime complexity: O(n) for the whole iteration.

        >>> list(LinkedQueue([1, 2, 3]))
        [1, 2, 3]
        """
        # BEGIN SOLUTION: follow next from the head node, yielding each item
        node = self._head
        while node is not None:
            item: T = node.item
            yield item
            node = node.next
        # END SOLUTION

    # -- private helpers -------------------------------------------------------------

    def _check(self) -> None:
        """Assert the invariant stated at the top of this module.

        Runtime complexity: O(n).

        >>> LinkedQueue([1, 2])._check() is None
        True
        """
        if self._size == 0:
            assert self._head is None, ("empty queue but _head is not None (the invariant: _head and _tail are "
                                        "None exactly when the queue is empty)")
            assert self._tail is None, "empty queue but the tail still points at a node"
            return
        assert self._head is not None, f"size is {self._size} but head is None"
        assert self._tail is not None, f"size is {self._size} but tail is None"
        count = 0
        node: _Node | None = self._head
        last = node
        while node is not None:
            assert hasattr(node, "item") and hasattr(node, "next"), (
                f"link {count} is {node!r}, not a node (a node has the fields item and next)")
            count += 1
            assert count <= self._size, (f"following next from _head reaches more than _size = {self._size} nodes "
                                         "(the invariant: exactly _size nodes, the first holding the front item)")
            last = node
            node = node.next
        assert count == self._size, f"size is {self._size} but {count} nodes are linked"
        assert last is self._tail, "the tail is not the last node reached from the head"
