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
    ArrayContract,
    QueueContract,
    ShrinkingContract,
    StackContract,
    deque_machine,
    queue_machine,
    run_machine,
    stack_machine,
)
from solitaire_ds.course.honesty import list_notes
from solitaire_ds.structures import (
    ArrayDeque,
    ArrayQueue,
    ArrayStack,
    EmptyStructureError,
    LinkedDeque,
    LinkedQueue,
    LinkedStack,
    linked_deque,
    linked_queue,
    linked_stack,
)

STRUCTURES_DIR = Path(structures.__file__).parent


# -- no shortcuts --------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(STRUCTURES_DIR.glob("*.py")), ids=lambda p: p.name)
def test_structure_modules_take_no_list_shortcuts_and_never_use_collections_deque(
    path: Path,
) -> None:
    assert list_notes(path.read_text(encoding="utf-8"), f"structures/{path.name}") == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("self._slots.append(x)", "line 1: grows a Python list with .append()"),
        ("self._slots.insert(0, x)", "line 1: grows a Python list with .insert()"),
        ("self._slots += [x]", "line 1: grows a Python list with +="),
        ("from collections import deque\nself._items = deque()", "line 2: keeps its items in a collections.deque"),
        ("list.append(self._slots, x)", "line 1: grows a Python list with list.append()"),
        ("deque.append(self._items, x)", "line 1: grows a collections.deque with deque.append()"),
        ("collections.deque.popleft(self._items)", "line 1: grows a collections.deque with deque.popleft()"),
        ("type(self._slots).insert(self._slots, 0, x)", "line 1: grows a Python list with .insert()"),
        ("getattr(self._slots, 'pop')()", "line 1: grows a Python list with .pop()"),
        ("grow = self._slots.append", "line 1: grows a Python list with .append()"),
        ("def push(self, x):\n    slots = self._slots\n    slots.extend([x])",
         "line 3: grows a Python list with .extend()"),
        ("self._slots = self._slots + [x]", "line 1: grows a Python list with +"),
        ("del self._slots[0]", "line 1: shrinks a Python list with del"),
    ],
)
def test_the_instructor_is_told_of_each_list_shortcut_with_its_line(source: str, expected: str) -> None:
    (note,) = list_notes(source, "structures/m.py")
    assert note.startswith(f"structures/m.py {expected}")


@pytest.mark.parametrize("source", [
    "def f(items: 'collections.deque[int]') -> None: ...",  # a type hint is no shortcut
    "import sys\nprint('debug', file=sys.stderr)",
    "self.pop()\nitems.reverse()\nslots[i] = None",
    "items = []\nitems.append(x)\nlist.sort(items)",  # a list of its own, for a repr: no slot of the structure
    "new = [None] * 8\nself._slots = new + [None] * 8",
])
def test_honest_code_gets_no_note(source: str) -> None:
    assert list_notes(source, "structures/m.py") == []


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


@pytest.mark.parametrize(
    ("cls", "fields"),
    [
        (ArrayStack, {"_slots", "_size"}),
        (ArrayQueue, {"_slots", "_front", "_size"}),
        (ArrayDeque, {"_slots", "_front", "_size"}),
        (LinkedStack, {"_top", "_size"}),
        (LinkedQueue, {"_head", "_tail", "_size"}),
        (LinkedDeque, {"_sentinel", "_size"}),
    ],
    ids=lambda value: getattr(value, "__name__", ""),
)
def test_classes_keep_only_the_textbook_fields(cls: type[Any], fields: set[str]) -> None:
    # no cached capacity or threshold: whatever can be derived (len(_slots)) is derived
    structure = cls(range(40))
    assert set(vars(structure)) == fields
    structure.extra = 1  # no __slots__: a student's own extra field is allowed
    structure._check()


@pytest.mark.parametrize("module", [linked_stack, linked_queue, linked_deque])
def test_nodes_are_made_with_init(module: Any) -> None:
    node_class = module._Node
    arguments = (1, None, None) if module is linked_deque else (1, None)
    node = node_class(*arguments)
    assert node.item == 1 and node.next is None


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
    # the reference is the package's class the broken one is written as (the exercise's)
    state_machine: type[RuleBasedStateMachine] = machine(broken, broken.__mro__[1])
    with pytest.raises(AssertionError, match=r"^after ") as caught:
        # no shrinking here, to keep the test fast; the test below shows a shrunk failure
        run_machine(state_machine, phases=[Phase.explicit, Phase.generate])
    assert "failed" in str(caught.value) or "expected" in str(caught.value)


def test_contract_failure_names_the_steps_in_plain_words() -> None:
    with pytest.raises(AssertionError) as caught:
        run_machine(queue_machine(_LinkedQueueWithStaleTail, LinkedQueue))
    message = str(caught.value)
    assert message.startswith("after _LinkedQueueWithStaleTail(), ")
    assert "_check() failed: empty queue but the tail still points at a node" in message


@pytest.mark.parametrize(
    ("make", "corrupt", "message"),
    [
        (lambda: ArrayStack(range(20)), lambda s: s._slots.__setitem__(25, "x"),
         "unused slot 25 still holds 'x'"),
        (lambda: ArrayStack(range(20)), lambda s: setattr(s, "_slots", [None] * 128),
         "a quarter or less of capacity 128"),
        (lambda: ArrayQueue(range(20)), lambda q: setattr(q, "_front", 32), "front 32 outside"),
        (lambda: ArrayDeque(range(3)), lambda d: setattr(d, "_size", 5), "size 5 outside 0..4"),
        (lambda: LinkedStack(range(3)), lambda s: setattr(s, "_size", 4),
         "size is 4 but 3 nodes are linked"),
        (lambda: LinkedDeque(range(3)), lambda d: setattr(d._sentinel.next, "prev", None),
         "prev is not node 0"),
    ],
    ids=["stack-stale-slot", "stack-not-halved", "queue-front", "deque-size", "linked-size",
         "deque-prev"],
)
def test_check_asserts_the_representation_invariant(
    make: Callable[[], Any], corrupt: Callable[[Any], None], message: str
) -> None:
    structure = make()
    structure._check()
    corrupt(structure)
    with pytest.raises(AssertionError, match=message):
        structure._check()


# -- the copy counts catch a class that copies on (almost) every step ------------------------


class _ArrayStackHalvingAtHalf(ArrayStack[Any]):
    """Halves at half full: a push and a pop at the boundary copy every item each time."""

    def pop(self) -> Any:
        if self._size == 0:
            raise EmptyStructureError("pop from an empty stack")
        self._size -= 1
        item = self._slots[self._size]
        self._slots[self._size] = None
        if len(self._slots) > 4 and self._size <= len(self._slots) // 2:
            self._resize(len(self._slots) // 2)
        return item


class _ArrayQueueGrowingByFour(ArrayQueue[Any]):
    """Grows by four slots at a time: O(n) copies per enqueue, amortized."""

    def _grow(self) -> None:
        old_slots = self._slots
        self._slots = [None] * (len(old_slots) + 4)
        for offset in range(self._size):
            self._slots[offset] = old_slots[(self._front + offset) % len(old_slots)]
        self._front = 0


def test_copy_count_catches_a_stack_that_halves_at_half_full() -> None:
    with pytest.raises(AssertionError) as caught:
        ShrinkingContract().test_push_and_pop_at_any_size_copy_the_slots_at_most_once(
            _ArrayStackHalvingAtHalf
        )
    assert str(caught.value).startswith(
        "after _ArrayStackHalvingAtHalf(range(4)), then push(0), pop() 5 times, the capacity "
        "changed 10 times "
        "(4 -> 8 -> 4 -> 8 -> 4 -> 8 -> 4 -> ...)"
    )
    assert "not half full" in str(caught.value)
    # the real stack passes, and so does every other contract test of the bad one
    ShrinkingContract().test_push_and_pop_at_any_size_copy_the_slots_at_most_once(ArrayStack)
    run_machine(stack_machine(_ArrayStackHalvingAtHalf, ArrayStack))


def test_copy_count_catches_a_queue_that_grows_by_a_constant() -> None:
    contract = ArrayContract()
    contract.adt, contract.add = "queue", "enqueue"
    with pytest.raises(AssertionError, match=r"the capacity changed 249 times \(4 -> 8 -> 12 "):
        contract.test_adding_many_items_copies_the_slots_at_most_a_few_times(
            _ArrayQueueGrowingByFour
        )
    contract.test_adding_many_items_copies_the_slots_at_most_a_few_times(ArrayQueue)


# -- an order bug first seen in repr names the student's method -----------------------------


class _LinkedStackIteratingBottomUp(LinkedStack[Any]):
    def __iter__(self) -> Any:
        items = []
        node = self._top
        while node is not None:
            items.append(node.item)
            node = node.next
        return iter(items[::-1])


class _ArrayQueueAddingAtTheFront(ArrayQueue[Any]):
    def __init__(self, items: Any = None) -> None:
        super().__init__(list(items)[::-1] if items is not None else None)


@pytest.mark.parametrize(
    ("contract", "broken", "culprit"),
    [
        (StackContract, _LinkedStackIteratingBottomUp,
         "peek() is right, so look at __iter__: it goes from the top to the bottom"),
        (QueueContract, _ArrayQueueAddingAtTheFront,
         "peek() gave 3, not 1, so the items went in the wrong way round: look at __init__ and "
         "enqueue"),
    ],
    ids=["stack-iterator", "queue-constructor"],
)
def test_a_wrong_order_seen_first_in_repr_names_the_students_method(
    contract: type[Any], broken: type[Any], culprit: str
) -> None:
    with pytest.raises(AssertionError) as caught:
        contract().test_repr_rebuilds(broken)
    first, second = str(caught.value).split("\n")
    assert first.startswith(f"after {broken.__name__}([1, 'two', 3]), repr(")
    assert second.startswith("repr is given code: it lists the items in the order the "
                             "constructor adds them, read through your __iter__, which gave ")
    assert second.endswith(culprit)


def test_the_invariant_is_the_packages_even_when_the_class_rebinds_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from solitaire_ds.course.contracts.operations import invariant

    class ArrayStack(structures.ArrayStack[Any]):
        def _check(self) -> None:
            pass

    # a class whose _check passes everything, and a package class whose _check is switched
    # off: the invariant runs on a copy of the fields, with the judge's own reference
    monkeypatch.setattr(structures, "ArrayStack", ArrayStack)
    stack = ArrayStack([1])
    stack._slots[3] = "stale"
    monkeypatch.undo()
    with pytest.raises(AssertionError, match="unused slot 3 still holds 'stale'"):
        invariant(stack, structures.ArrayStack)


def test_the_invariant_is_the_exercises_whatever_the_class_is_called() -> None:
    from solitaire_ds.course.contracts.operations import Operations

    class Stack_(structures.ArrayStack[Any]):
        pass

    # the exercise names ArrayStack: the class's own name (or the one it reports) changes nothing
    ops = Operations(Stack_, [1, 2], adt="stack", reference=structures.ArrayStack)
    ops.structure._slots[3] = "stale"
    with pytest.raises(AssertionError, match="_check\\(\\) failed: unused slot 3 still holds 'stale'"):
        ops.check()


class _LinkedStackPushForgetsTheRest(LinkedStack[Any]):
    def push(self, item: Any) -> None:
        self._top = linked_stack._Node(item, None)
        self._size += 1


class _ArrayStackAppending(ArrayStack[Any]):
    """pythonds style: push appends to the list instead of filling a free slot."""

    def push(self, item: Any) -> None:
        self._slots.append(item)
        self._size += 1


def test_an_order_hint_stays_silent_when_items_are_lost() -> None:
    with pytest.raises(AssertionError) as caught:
        StackContract().test_repr_rebuilds(_LinkedStackPushForgetsTheRest)
    assert "look at" not in str(caught.value), "a lost item does not say which method lost it"


def test_the_halving_hint_fires_on_its_cause_only() -> None:
    with pytest.raises(AssertionError) as caught:
        ShrinkingContract().test_push_and_pop_at_any_size_copy_the_slots_at_most_once(_ArrayStackAppending)
    assert "quarter full" not in str(caught.value)
