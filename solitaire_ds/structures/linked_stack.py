"""LinkedStack: a stack of singly linked nodes.

Invariant: ``_top`` is the node holding the top item, or None when the stack is
empty. Each node's ``next`` is the node just below it; the bottom node's ``next`` is
None. Following ``next`` from ``_top`` reaches exactly ``_size`` nodes.

A node is any object with the fields ``item`` and ``next``: this file's ``_Node``, or a
node class of your own with those two fields (the invariant check reads only them).

Push and pop only touch the top node, so both are O(1) (not amortized: no copying).

>>> s = LinkedStack([1, 2])
>>> s._top.item, s._top.next.item, s._size  # the top node first
(2, 1, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from solitaire_ds.structures.base import EmptyStructureError, Stack

__all__ = ["LinkedStack"]

T = TypeVar("T")


class _Node:
    """One item and a link to the node below it (None under the bottom node).

    >>> bottom = _Node("a", None)
    >>> top = _Node("b", bottom)
    >>> top.item, top.next is bottom, bottom.next
    ('b', True, None)
    """

    def __init__(self, item: Any, next: _Node | None) -> None:
        """Make a node holding ``item``, linked to the next node.

        Runtime complexity: O(1).

        >>> _Node("a", None).item
        'a'
        """
        self.item = item
        self.next = next


class LinkedStack(Stack[T]):
    """A last-in, first-out stack made of singly linked nodes, the top node first.

    Adding:
        ``push(item)``.
    Removing:
        ``pop()``.
    Looking:
        ``peek()``, ``is_empty()``, ``len(stack)``, ``bool(stack)``.
    Iterating:
        ``iter(stack)`` goes from the top to the bottom.

    >>> stack = LinkedStack([1, 2, 3])
    >>> stack.pop(), stack.peek(), len(stack)
    (3, 2, 2)
    >>> stack
    LinkedStack([1, 2])
    """

    def __init__(self, items: Iterable[T] | None = None) -> None:
        """Make a stack, pushing each of ``items`` in order so the last ends on top.

        Runtime complexity: O(n) for n items.

        >>> LinkedStack("ab").peek()
        'b'
        """
        self._top: _Node | None = None
        self._size = 0
        if items is not None:
            for item in items:
                self.push(item)

    # -- adding ----------------------------------------------------------------------

    def push(self, item: T) -> None:
        """Put ``item`` on top of the stack.

        Runtime complexity: O(1).

        >>> stack = LinkedStack()
        >>> stack.push("x")
        >>> stack.peek()
        'x'
        """
        # BEGIN SOLUTION: make a node for item that links to the old top, and make it the top
        self._top = _Node(item, self._top)
        self._size += 1
        # END SOLUTION

    # -- removing --------------------------------------------------------------------

    def pop(self) -> T:
        """Remove and return the top item.

        Raises EmptyStructureError("pop from an empty stack") when the stack is empty.

        Runtime complexity: O(1).

        >>> stack = LinkedStack([1, 2])
        >>> stack.pop()
        2
        >>> len(stack)
        1
        """
        # BEGIN SOLUTION: unlink the top node (raise when there is none) and return its item
        if self._top is None:
            raise EmptyStructureError("pop from an empty stack")
        item: T = self._top.item
        self._top = self._top.next
        self._size -= 1
        return item
        # END SOLUTION

    # -- looking ---------------------------------------------------------------------

    def peek(self) -> T:
        """Return the top item without removing it.

        Raises EmptyStructureError("peek at an empty stack") when the stack is empty.

        Runtime complexity: O(1).

        >>> LinkedStack([1, 2]).peek()
        2
        """
        # BEGIN SOLUTION: return the top node's item, or raise when the stack is empty
        if self._top is None:
            raise EmptyStructureError("peek at an empty stack")
        item: T = self._top.item
        return item
        # END SOLUTION

    def __len__(self) -> int:
        """Return the number of items on the stack.

        Runtime complexity: O(1).

        >>> len(LinkedStack([1, 2, 3]))
        3
        """
        # BEGIN SOLUTION: return the number of items (kept in a counter, not counted)
        return self._size
        # END SOLUTION

    # -- iterating -------------------------------------------------------------------

    def __iter__(self) -> Iterator[T]:
        """Iterate from the top item to the bottom one, changing nothing.

        Runtime complexity: O(n) for the whole iteration.

        >>> list(LinkedStack([1, 2, 3]))
        [3, 2, 1]
        """
        # BEGIN SOLUTION: follow next from the top node, yielding each item
        node = self._top
        while node is not None:
            item: T = node.item
            yield item
            node = node.next
        # END SOLUTION

    # -- private helpers -------------------------------------------------------------

    def _check(self) -> None:
        """Assert the invariant stated at the top of this module.

        Runtime complexity: O(n).

        >>> LinkedStack([1, 2])._check() is None
        True
        """
        count = 0
        node = self._top
        while node is not None:
            assert hasattr(node, "item") and hasattr(node, "next"), (
                f"link {count} is {node!r}, not a node (a node has the fields item and next)")
            count += 1
            assert count <= self._size, f"following next from _top reaches more than _size = {self._size} nodes"
            node = node.next
        assert count == self._size, f"size is {self._size} but {count} nodes are linked"
