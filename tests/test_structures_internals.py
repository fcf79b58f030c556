"""The package's structures beyond their contracts: no shortcuts, resizing, wrap-around,
and proof that the contract tests catch deliberately broken classes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase
from hypothesis.stateful import RuleBasedStateMachine

import solitaire_ds.structures as structures
from solitaire_ds.course.contracts.structure_contracts import (
    deque_machine,
    list_shortcuts,
    queue_machine,
    run_machine,
    stack_machine,
)
from solitaire_ds.structures import (
    ArrayDeque,
    ArrayQueue,
    ArrayStack,
    EmptyStructureError,
    LinkedDeque,
    LinkedQueue,
    LinkedStack,
)

STRUCTURES_DIR = Path(structures.__file__).parent


# -- no shortcuts --------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(STRUCTURES_DIR.glob("*.py")), ids=lambda p: p.name)
def test_structure_modules_take_no_list_shortcuts_and_never_use_collections_deque(
    path: Path,
) -> None:
    assert list_shortcuts(path.read_text(encoding="utf-8"), path.name) == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("self._slots.append(x)", "m.py:1: calls .append()"),
        ("slots = self._slots\nslots.pop()", "m.py:2: calls .pop()"),
        ("self._slots.insert(0, x)", "m.py:1: calls .insert()"),
        ("del self._slots[0]", "m.py:1: uses del on an item"),
        ("from collections import deque", "m.py:1: imports collections.deque"),
        ("import collections\ncollections.deque()", "m.py:2: uses .deque"),
    ],
)
def test_shortcut_finder_reports_each_shortcut_with_its_line(source: str, expected: str) -> None:
    assert list_shortcuts(source, "m.py") == [expected]


def test_shortcut_finder_allows_calling_the_structures_own_methods() -> None:
    assert list_shortcuts("self.pop()\nitems.reverse()\nslots[i] = None", "m.py") == []


# -- resizing ------------------------------------------------------------------------------


def test_array_stack_doubles_when_full_and_halves_at_a_quarter() -> None:
    stack: ArrayStack[int] = ArrayStack()
    capacities = []
    for item in range(17):
        stack.push(item)
        capacities.append(len(stack._slots))
    assert capacities == [4] * 4 + [8] * 4 + [16] * 8 + [32]
    shrinking = []
    while stack:
        stack.pop()
        shrinking.append((len(stack), len(stack._slots)))
        stack._check()
    # halved exactly when the size falls to a quarter of the capacity, never below 4
    assert (8, 16) in shrinking and (9, 32) in shrinking
    assert (4, 8) in shrinking and (2, 4) in shrinking
    assert shrinking[-1] == (0, 4)


def test_array_stack_at_a_boundary_does_not_resize_on_every_call() -> None:
    stack = ArrayStack(range(8))
    assert len(stack._slots) == 8
    stack.push(8)
    slots = stack._slots
    for item in range(10):  # push/pop across the doubling point: no copy each time
        stack.pop()
        stack.push(item)
        assert stack._slots is slots


def test_array_queue_wraps_around_before_it_grows() -> None:
    queue = ArrayQueue("abc")
    assert queue.dequeue() == "a"
    assert queue.dequeue() == "b"
    queue.enqueue("d")
    queue.enqueue("e")
    queue.enqueue("f")
    assert queue._slots == ["e", "f", "c", "d"]  # the back wrapped to slots 0 and 1
    assert queue._front == 2
    queue._check()
    assert [queue.dequeue(), queue.dequeue()] == ["c", "d"]
    assert queue._front == 0  # the front moved past the end and wrapped to slot 0
    assert list(queue) == ["e", "f"]


def test_array_queue_grows_by_copying_in_queue_order() -> None:
    queue = ArrayQueue("abcd")
    queue.dequeue()
    queue.enqueue("e")  # now full and wrapped: ["e", "b", "c", "d"], front 1
    queue.enqueue("f")
    assert queue._slots == ["b", "c", "d", "e", "f", None, None, None]
    assert queue._front == 0
    queue._check()


def test_array_deque_add_front_wraps_to_the_last_slot() -> None:
    deque: ArrayDeque[str] = ArrayDeque()
    deque.add_front("a")
    assert deque._front == 3
    assert deque._slots == [None, None, None, "a"]
    deque.add_rear("b")
    assert deque._slots == ["b", None, None, "a"]
    assert list(deque) == ["a", "b"]
    deque._check()


def test_array_deque_grows_by_copying_front_to_rear() -> None:
    deque: ArrayDeque[int] = ArrayDeque()
    for item in range(5):
        deque.add_front(item)
    assert list(deque) == [4, 3, 2, 1, 0]
    assert len(deque._slots) == 8
    deque._check()


def test_linked_deque_uses_one_sentinel_linked_to_itself_when_empty() -> None:
    deque: LinkedDeque[int] = LinkedDeque([1])
    deque.remove_front()
    sentinel = deque._sentinel
    assert sentinel.next is sentinel and sentinel.prev is sentinel


def test_classes_use_slots() -> None:
    for cls in (ArrayStack, LinkedStack, ArrayQueue, LinkedQueue, ArrayDeque, LinkedDeque):
        with pytest.raises(AttributeError):
            cls().extra = 1


def test_empty_structure_error_is_an_index_error() -> None:
    with pytest.raises(IndexError, match=r"^pop from an empty stack$"):
        LinkedStack().pop()
    assert issubclass(EmptyStructureError, IndexError)


# -- the contract catches broken classes ---------------------------------------------------


class _ArrayQueueWithoutWrapAround(ArrayQueue[Any]):
    """Forgets the modulo: the back runs off the end of the slot list."""

    def enqueue(self, item: Any) -> None:
        if self._size == len(self._slots):
            self._grow()
        self._slots[self._front + self._size] = item
        self._size += 1

    def dequeue(self) -> Any:
        if self._size == 0:
            raise EmptyStructureError("dequeue from an empty queue")
        item = self._slots[self._front]
        self._slots[self._front] = None
        self._front += 1
        self._size -= 1
        return item


class _LinkedQueueWithStaleTail(LinkedQueue[Any]):
    """Never clears the tail when the last item leaves."""

    def dequeue(self) -> Any:
        head = self._head
        if head is None:
            raise EmptyStructureError("dequeue from an empty queue")
        self._head = head.next
        self._size -= 1
        return head.item


class _ArrayStackThatNeverShrinks(ArrayStack[Any]):
    """Pops correctly but keeps a huge, mostly empty slot list."""

    def pop(self) -> Any:
        if self._size == 0:
            raise EmptyStructureError("pop from an empty stack")
        self._size -= 1
        item = self._slots[self._size]
        self._slots[self._size] = None
        return item


class _LinkedStackWithWrongMessage(LinkedStack[Any]):
    """Raises the right error with the wrong words."""

    def pop(self) -> Any:
        if self._top is None:
            raise EmptyStructureError("stack is empty")
        return super().pop()


class _ArrayDequeWithoutFrontWrap(ArrayDeque[Any]):
    """Steps the front back to -1 (Python's negative index hides the bug until _check)."""

    def add_front(self, item: Any) -> None:
        if self._size == len(self._slots):
            self._grow()
        self._front -= 1
        self._slots[self._front] = item
        self._size += 1


class _LinkedDequeForgettingPrev(LinkedDeque[Any]):
    """Unlinks the front node but leaves the next node's prev pointing at it."""

    def remove_front(self) -> Any:
        if self._size == 0:
            raise EmptyStructureError("remove_front from an empty deque")
        node = self._sentinel.next
        self._sentinel.next = node.next
        self._size -= 1
        return node.item


@pytest.mark.parametrize(
    ("machine", "broken"),
    [
        (queue_machine, _ArrayQueueWithoutWrapAround),
        (queue_machine, _LinkedQueueWithStaleTail),
        (stack_machine, _ArrayStackThatNeverShrinks),
        (stack_machine, _LinkedStackWithWrongMessage),
        (deque_machine, _ArrayDequeWithoutFrontWrap),
        (deque_machine, _LinkedDequeForgettingPrev),
    ],
    ids=lambda value: value.__name__.strip("_"),
)
def test_contract_state_machine_fails_a_broken_class(
    machine: Any, broken: type[Any]
) -> None:
    state_machine: type[RuleBasedStateMachine] = machine(broken)
    with pytest.raises(AssertionError, match=r"^after ") as caught:
        # no shrinking here, to keep the test fast; the test below shows a shrunk failure
        run_machine(state_machine, phases=[Phase.explicit, Phase.generate])
    assert "failed" in str(caught.value) or "expected" in str(caught.value)


def test_contract_failure_names_the_steps_in_plain_words() -> None:
    with pytest.raises(AssertionError) as caught:
        run_machine(queue_machine(_LinkedQueueWithStaleTail))
    message = str(caught.value)
    assert message.startswith("after _LinkedQueueWithStaleTail(), ")
    assert "_check() failed: empty queue but the tail still points at a node" in message


@pytest.mark.parametrize(
    ("make", "corrupt", "message"),
    [
        (lambda: ArrayStack(range(20)), lambda s: setattr(s, "_shrink_at", 3), "_shrink_at"),
        (lambda: ArrayQueue(range(20)), lambda q: setattr(q, "_capacity", 16), "_capacity"),
        (lambda: ArrayDeque(range(20)), lambda d: setattr(d, "_capacity", 64), "_capacity"),
    ],
    ids=["stack-shrink-threshold", "queue-capacity", "deque-capacity"],
)
def test_check_catches_a_stale_cached_capacity_or_threshold(
    make: Callable[[], Any], corrupt: Callable[[Any], None], message: str
) -> None:
    # The array classes keep len(_slots) or its quarter in a slot to save work on every
    # operation; _check() must catch a _grow or _resize that forgets to update it.
    structure = make()
    structure._check()
    corrupt(structure)
    with pytest.raises(AssertionError, match=message):
        structure._check()
