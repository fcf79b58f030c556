"""The contracts of the three ADTs, written once and run against every class that claims one.

Each ADT has two parts:

* a mixin of example tests (``StackContract``, ``QueueContract``, ``DequeContract``)
  whose methods take a ``structure_class`` fixture; a test module defines that fixture
  (loading the class from the implementation under test) and a ``Test...`` class that
  inherits the mixin, the way CPython's ``test_heapq`` runs one ``TestHeap`` against
  two modules;
* a Hypothesis ``RuleBasedStateMachine`` factory (``stack_machine(cls)`` and so on) that
  drives the structure and a trusted model (``list`` / ``collections.deque``) side by
  side, calls ``_check()`` after every step, and says in plain words which steps led to
  a difference ("after push(1), push(2), pop(): expected 2 but got 1").

``run_machine(machine)`` runs a machine with the grading settings: deterministic
(``derandomize=True``), no deadline, 200 steps per run so sizes climb past several
resizes and wrap-arounds and come back down.
"""

from __future__ import annotations

import ast
import collections
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from solitaire_ds.structures.base import EmptyStructureError

__all__ = [
    "STATEFUL_SETTINGS",
    "DequeContract",
    "QueueContract",
    "StackContract",
    "deque_machine",
    "list_shortcuts",
    "queue_machine",
    "run_machine",
    "stack_machine",
]

#: Deterministic, deadline-free settings for the stateful contract tests.
STATEFUL_SETTINGS = settings(
    max_examples=30,
    stateful_step_count=200,
    derandomize=True,
    database=None,
    deadline=None,
    report_multiple_bugs=False,  # one failure, shrunk to its shortest steps, is easier to read
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

_ITEMS = st.integers(min_value=-1000, max_value=1000)
_BATCHES = st.lists(_ITEMS, min_size=1, max_size=12)
_COUNTS = st.integers(min_value=1, max_value=12)
_HISTORY_SHOWN = 12


def run_machine(machine: type[RuleBasedStateMachine], **overrides: Any) -> None:
    """Run ``machine`` as a test with :data:`STATEFUL_SETTINGS` (``overrides`` replace some)."""
    run_state_machine_as_test(machine, settings=settings(STATEFUL_SETTINGS, **overrides))


# -- the stateful machines -----------------------------------------------------------------


class _ModelMachine(RuleBasedStateMachine):
    """Shared bookkeeping: the structure, its model, and the steps taken so far."""

    cls: type[Any]
    adt: str

    def __init__(self) -> None:
        super().__init__()
        self.structure: Any = self.cls()
        self.model: Any = self.new_model()
        self.history: list[str] = [f"{self.cls.__name__}()"]

    def new_model(self) -> Any:
        raise NotImplementedError

    def steps(self) -> str:
        shown = self.history[-_HISTORY_SHOWN:]
        prefix = "..., " if len(self.history) > _HISTORY_SHOWN else ""
        return "after " + prefix + ", ".join(shown)

    def expect(self, what: str, expected: object, actual: object) -> None:
        assert actual == expected, (
            f"{self.steps()}: {what} expected {expected!r} but got {actual!r}"
        )

    def call_empty(self, method: str, message: str) -> None:
        """Call ``method`` on the empty structure and check the error and its message."""
        self.history.append(f"{method}()")
        try:
            result = getattr(self.structure, method)()
        except EmptyStructureError as error:
            assert str(error) == message, (
                f"{self.steps()}: expected the message {message!r} but got {str(error)!r}"
            )
        else:
            raise AssertionError(
                f"{self.steps()}: the {self.adt} is empty, so {method}() should raise "
                f"EmptyStructureError({message!r}) but it returned {result!r}"
            )

    def call(self, step: str, method: str, *args: object) -> Any:
        """Record ``step``, call ``method``; an unexpected error fails naming the steps."""
        self.history.append(step)
        try:
            return getattr(self.structure, method)(*args)
        except AssertionError:
            raise
        except Exception as error:
            raise AssertionError(
                f"{self.steps()}: {step} raised {type(error).__name__}: {error}"
            ) from error

    def remove(self, method: str, expected: object) -> None:
        self.expect(f"{method}()", expected, self.call(f"{method}()", method))

    def look(self, method: str, expected: object) -> None:
        self.expect(f"{method}()", expected, self.call(f"{method}()", method))

    def add(self, method: str, item: object) -> None:
        self.call(f"{method}({item!r})", method, item)

    @invariant()
    def agrees_with_the_model(self) -> None:
        try:
            self.structure._check()
        except AssertionError as error:
            raise AssertionError(f"{self.steps()}: _check() failed: {error}") from None
        self.expect("len()", len(self.model), len(self.structure))
        self.expect("bool()", bool(self.model), bool(self.structure))
        self.expect("is_empty()", not self.model, self.structure.is_empty())
        self.expect(f"list({self.adt})", self.model_order(), list(self.structure))

    def model_order(self) -> list[Any]:
        return list(self.model)


def stack_machine(cls: type[Any]) -> type[RuleBasedStateMachine]:
    """Return a state machine checking the Stack ``cls`` against a ``list`` (top last)."""

    class StackMachine(_ModelMachine):
        adt = "stack"

        def new_model(self) -> list[Any]:
            return []

        def model_order(self) -> list[Any]:
            return self.model[::-1]  # a stack iterates from the top down

        @rule(item=_ITEMS)
        def push(self, item: int) -> None:
            self.add("push", item)
            self.model.append(item)

        @rule(items=_BATCHES)
        def push_several(self, items: list[int]) -> None:
            for item in items:
                self.push(item)

        @precondition(lambda self: bool(self.model))
        @rule()
        def pop(self) -> None:
            self.remove("pop", self.model.pop())

        @precondition(lambda self: bool(self.model))
        @rule(count=_COUNTS)
        def pop_several(self, count: int) -> None:
            for _ in range(min(count, len(self.model))):
                self.pop()

        @precondition(lambda self: bool(self.model))
        @rule()
        def peek(self) -> None:
            self.look("peek", self.model[-1])

        @precondition(lambda self: not self.model)
        @rule()
        def pop_or_peek_when_empty(self) -> None:
            self.call_empty("pop", "pop from an empty stack")
            self.call_empty("peek", "peek at an empty stack")

    StackMachine.cls = cls
    StackMachine.__name__ = StackMachine.__qualname__ = f"{cls.__name__}Machine"
    return StackMachine


def queue_machine(cls: type[Any]) -> type[RuleBasedStateMachine]:
    """Return a state machine checking the Queue ``cls`` against a ``collections.deque``."""

    class QueueMachine(_ModelMachine):
        adt = "queue"

        def new_model(self) -> collections.deque[Any]:
            return collections.deque()

        @rule(item=_ITEMS)
        def enqueue(self, item: int) -> None:
            self.add("enqueue", item)
            self.model.append(item)

        @rule(items=_BATCHES)
        def enqueue_several(self, items: list[int]) -> None:
            for item in items:
                self.enqueue(item)

        @precondition(lambda self: bool(self.model))
        @rule()
        def dequeue(self) -> None:
            self.remove("dequeue", self.model.popleft())

        @precondition(lambda self: bool(self.model))
        @rule(count=_COUNTS)
        def dequeue_several(self, count: int) -> None:
            for _ in range(min(count, len(self.model))):
                self.dequeue()

        @precondition(lambda self: bool(self.model))
        @rule()
        def peek(self) -> None:
            self.look("peek", self.model[0])

        @precondition(lambda self: not self.model)
        @rule()
        def dequeue_or_peek_when_empty(self) -> None:
            self.call_empty("dequeue", "dequeue from an empty queue")
            self.call_empty("peek", "peek at an empty queue")

    QueueMachine.cls = cls
    QueueMachine.__name__ = QueueMachine.__qualname__ = f"{cls.__name__}Machine"
    return QueueMachine


def deque_machine(cls: type[Any]) -> type[RuleBasedStateMachine]:
    """Return a state machine checking the Deque ``cls`` against a ``collections.deque``."""

    class DequeMachine(_ModelMachine):
        adt = "deque"

        def new_model(self) -> collections.deque[Any]:
            return collections.deque()

        @rule(item=_ITEMS)
        def add_front(self, item: int) -> None:
            self.add("add_front", item)
            self.model.appendleft(item)

        @rule(item=_ITEMS)
        def add_rear(self, item: int) -> None:
            self.add("add_rear", item)
            self.model.append(item)

        @rule(items=_BATCHES, front=st.booleans())
        def add_several(self, items: list[int], front: bool) -> None:
            for item in items:
                if front:
                    self.add_front(item)
                else:
                    self.add_rear(item)

        @precondition(lambda self: bool(self.model))
        @rule()
        def remove_front(self) -> None:
            self.remove("remove_front", self.model.popleft())

        @precondition(lambda self: bool(self.model))
        @rule()
        def remove_rear(self) -> None:
            self.remove("remove_rear", self.model.pop())

        @precondition(lambda self: bool(self.model))
        @rule(count=_COUNTS, front=st.booleans())
        def remove_several(self, count: int, front: bool) -> None:
            for _ in range(min(count, len(self.model))):
                if front:
                    self.remove_front()
                else:
                    self.remove_rear()

        @precondition(lambda self: bool(self.model))
        @rule()
        def peek_both_ends(self) -> None:
            self.look("peek_front", self.model[0])
            self.look("peek_rear", self.model[-1])

        @precondition(lambda self: not self.model)
        @rule()
        def remove_or_peek_when_empty(self) -> None:
            for method, verb in [
                ("remove_front", "from"),
                ("remove_rear", "from"),
                ("peek_front", "at"),
                ("peek_rear", "at"),
            ]:
                self.call_empty(method, f"{method} {verb} an empty deque")

    DequeMachine.cls = cls
    DequeMachine.__name__ = DequeMachine.__qualname__ = f"{cls.__name__}Machine"
    return DequeMachine


# -- the no-shortcuts rule -----------------------------------------------------------------

_LIST_SHORTCUTS = {"append", "extend", "insert", "pop", "remove", "clear"}


def list_shortcuts(source: str, filename: str = "<source>") -> list[str]:
    """Return one line per shortcut in ``source``: list methods that grow or shrink a list
    item by item (``x.append``, ``x.pop``, ``x.insert``, ... on anything but ``self``), ``del``
    on a subscript, and any use of ``collections.deque``.
    """
    found: list[str] = []
    for node in ast.walk(ast.parse(source, filename)):
        where = f"{filename}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            receiver = node.func.value
            is_self = isinstance(receiver, ast.Name) and receiver.id == "self"
            if node.func.attr in _LIST_SHORTCUTS and not is_self:
                found.append(f"{where}: calls .{node.func.attr}()")
        elif isinstance(node, ast.Delete):
            if any(isinstance(target, ast.Subscript) for target in node.targets):
                found.append(f"{where}: uses del on an item")
        elif isinstance(node, ast.ImportFrom) and node.module == "collections":
            if any(alias.name == "deque" for alias in node.names):
                found.append(f"{where}: imports collections.deque")
        elif isinstance(node, ast.Attribute) and node.attr == "deque":
            found.append(f"{where}: uses .deque")
    return found


def _assert_no_shortcuts(cls: type[Any]) -> None:
    path = inspect.getsourcefile(cls)
    assert path is not None, f"cannot find the source of {cls.__name__}"
    problems = list_shortcuts(Path(path).read_text(encoding="utf-8"), Path(path).name)
    assert not problems, f"{cls.__name__} takes a shortcut: " + "; ".join(problems)


# -- example tests -------------------------------------------------------------------------


def _raises(call: Callable[[], object], message: str) -> None:
    with pytest.raises(EmptyStructureError) as caught:
        call()
    assert str(caught.value) == message, (
        f"expected the message {message!r} but got {str(caught.value)!r}"
    )
    assert isinstance(caught.value, IndexError)


class _CommonContract:
    """What all three ADTs share; ``add`` names the method the constructor uses."""

    add = ""

    def test_new_structure_is_empty(self, structure_class: type[Any]) -> None:
        structure = structure_class()
        assert len(structure) == 0, f"len() of a new structure is {len(structure)}, not 0"
        assert structure.is_empty()
        assert not structure
        assert list(structure) == []

    def test_len_and_bool_count_the_items(self, structure_class: type[Any]) -> None:
        structure = structure_class()
        for count in range(1, 40):
            getattr(structure, self.add)(count)
            assert len(structure) == count, f"after {count} adds len() is {len(structure)}"
            assert structure
            assert not structure.is_empty()

    def test_repr_rebuilds(self, structure_class: type[Any]) -> None:
        name = structure_class.__name__
        structure = structure_class([1, "two", 3])
        assert repr(structure) == f"{name}([1, 'two', 3])"
        assert repr(structure_class()) == f"{name}([])"
        rebuilt = structure_class(eval(repr(structure)[len(name) :]))
        assert rebuilt == structure

    def test_equal_only_to_same_class_with_same_items(self, structure_class: type[Any]) -> None:
        assert structure_class([1, 2, 3]) == structure_class([1, 2, 3])
        assert structure_class() == structure_class()
        assert structure_class([1, 2, 3]) != structure_class([1, 2])
        assert structure_class([1, 2, 3]) != structure_class([3, 2, 1])
        assert structure_class([1, 2, 3]) != [1, 2, 3]
        assert structure_class([1, 2, 3]) != (1, 2, 3)

    def test_iteration_changes_nothing(self, structure_class: type[Any]) -> None:
        structure = structure_class(range(10))
        first = list(structure)
        assert list(structure) == first
        assert len(structure) == 10
        structure._check()

    def test_constructor_takes_any_iterable(self, structure_class: type[Any]) -> None:
        from_generator = structure_class(x for x in [1, 2, 3])
        assert from_generator == structure_class([1, 2, 3])
        assert structure_class("abc") == structure_class(["a", "b", "c"])

    def test_removed_items_are_not_kept_alive(self, structure_class: type[Any]) -> None:
        # _check() asserts that no unused slot (or unlinked node) still holds an item
        structure = structure_class(range(100))
        structure._check()
        for _ in range(95):
            self.remove_one(structure)
            structure._check()

    def test_grows_and_shrinks_without_list_shortcuts(self, structure_class: type[Any]) -> None:
        structure = structure_class(range(50))
        for _ in range(50):
            self.remove_one(structure)
        assert structure.is_empty()
        _assert_no_shortcuts(structure_class)

    def remove_one(self, structure: Any) -> Any:
        raise NotImplementedError


class StackContract(_CommonContract):
    """The Stack contract; needs a ``structure_class`` fixture."""

    add = "push"

    def remove_one(self, structure: Any) -> Any:
        return structure.pop()

    def test_pop_returns_the_last_pushed(self, structure_class: type[Any]) -> None:
        stack = structure_class()
        stack.push(1)
        stack.push(2)
        got = stack.pop()
        assert got == 2, f"after push(1), push(2), pop() expected 2 but got {got!r}"
        got = stack.pop()
        assert got == 1, f"after push(1), push(2), pop(), pop() expected 1 but got {got!r}"
        assert stack.is_empty()

    def test_peek_returns_the_top_without_removing_it(self, structure_class: type[Any]) -> None:
        stack = structure_class([1, 2])
        assert stack.peek() == 2
        assert stack.peek() == 2
        assert len(stack) == 2

    def test_constructor_adds_in_order(self, structure_class: type[Any]) -> None:
        stack = structure_class([1, 2, 3])
        assert stack.peek() == 3, f"{structure_class.__name__}([1, 2, 3]).peek() should be 3"
        assert [stack.pop(), stack.pop(), stack.pop()] == [3, 2, 1]

    def test_iteration_goes_top_to_bottom(self, structure_class: type[Any]) -> None:
        assert list(structure_class([1, 2, 3])) == [3, 2, 1]

    def test_pop_on_empty_stack_raises_with_message(self, structure_class: type[Any]) -> None:
        _raises(structure_class().pop, "pop from an empty stack")

    def test_peek_on_empty_stack_raises_with_message(self, structure_class: type[Any]) -> None:
        _raises(structure_class().peek, "peek at an empty stack")

    def test_pop_after_emptying_raises_with_message(self, structure_class: type[Any]) -> None:
        stack = structure_class([1])
        stack.pop()
        _raises(stack.pop, "pop from an empty stack")
        _raises(stack.peek, "peek at an empty stack")

    def test_many_pushes_then_pops_come_back_reversed(self, structure_class: type[Any]) -> None:
        stack = structure_class()
        for item in range(1000):
            stack.push(item)
        popped = [stack.pop() for _ in range(1000)]
        assert popped == list(range(999, -1, -1))
        stack._check()

    def test_matches_a_list_over_random_operations(self, structure_class: type[Any]) -> None:
        run_machine(stack_machine(structure_class))


class QueueContract(_CommonContract):
    """The Queue contract; needs a ``structure_class`` fixture."""

    add = "enqueue"

    def remove_one(self, structure: Any) -> Any:
        return structure.dequeue()

    def test_dequeue_returns_the_first_enqueued(self, structure_class: type[Any]) -> None:
        queue = structure_class()
        queue.enqueue(1)
        queue.enqueue(2)
        got = queue.dequeue()
        assert got == 1, f"after enqueue(1), enqueue(2), dequeue() expected 1 but got {got!r}"
        got = queue.dequeue()
        assert got == 2, f"after ..., dequeue(), dequeue() expected 2 but got {got!r}"
        assert queue.is_empty()

    def test_peek_returns_the_front_without_removing_it(self, structure_class: type[Any]) -> None:
        queue = structure_class([1, 2])
        assert queue.peek() == 1
        assert queue.peek() == 1
        assert len(queue) == 2

    def test_constructor_adds_in_order(self, structure_class: type[Any]) -> None:
        queue = structure_class([1, 2, 3])
        assert queue.peek() == 1, f"{structure_class.__name__}([1, 2, 3]).peek() should be 1"
        assert [queue.dequeue(), queue.dequeue(), queue.dequeue()] == [1, 2, 3]

    def test_iteration_goes_front_to_back(self, structure_class: type[Any]) -> None:
        assert list(structure_class([1, 2, 3])) == [1, 2, 3]

    def test_dequeue_on_empty_queue_raises_with_message(self, structure_class: type[Any]) -> None:
        _raises(structure_class().dequeue, "dequeue from an empty queue")

    def test_peek_on_empty_queue_raises_with_message(self, structure_class: type[Any]) -> None:
        _raises(structure_class().peek, "peek at an empty queue")

    def test_queue_can_be_reused_after_emptying(self, structure_class: type[Any]) -> None:
        queue = structure_class([1])
        assert queue.dequeue() == 1
        _raises(queue.dequeue, "dequeue from an empty queue")
        queue.enqueue(2)
        queue.enqueue(3)
        assert list(queue) == [2, 3], f"after emptying and enqueue(2), enqueue(3): {queue!r}"
        queue._check()

    def test_alternating_enqueue_and_dequeue_keeps_working(
        self, structure_class: type[Any]
    ) -> None:
        queue = structure_class()
        for item in range(50):  # the front and back go round a small buffer many times
            queue.enqueue(item)
            got = queue.dequeue()
            assert got == item, f"after {item + 1} enqueue/dequeue pairs got {got!r}"
            queue._check()

    def test_order_survives_wrapping_and_growing(self, structure_class: type[Any]) -> None:
        queue = structure_class()
        expected: collections.deque[int] = collections.deque()
        for round_number in range(1, 60):
            for item in range(round_number):  # add a few more than are removed each round
                queue.enqueue(item)
                expected.append(item)
            for _ in range(round_number // 2):
                assert queue.dequeue() == expected.popleft()
            queue._check()
        assert list(queue) == list(expected)

    def test_matches_a_deque_over_random_operations(self, structure_class: type[Any]) -> None:
        run_machine(queue_machine(structure_class))


class DequeContract(_CommonContract):
    """The Deque contract; needs a ``structure_class`` fixture."""

    add = "add_rear"

    def remove_one(self, structure: Any) -> Any:
        return structure.remove_front()

    def test_both_ends_work_like_collections_deque(self, structure_class: type[Any]) -> None:
        deque = structure_class()
        deque.add_rear(2)
        deque.add_front(1)
        deque.add_rear(3)
        assert list(deque) == [1, 2, 3], f"after add_rear(2), add_front(1), add_rear(3): {deque!r}"
        assert deque.peek_front() == 1
        assert deque.peek_rear() == 3
        assert deque.remove_rear() == 3
        assert deque.remove_front() == 1
        assert deque.remove_front() == 2
        assert deque.is_empty()

    def test_constructor_adds_in_order(self, structure_class: type[Any]) -> None:
        deque = structure_class([1, 2, 3])
        assert deque.peek_front() == 1
        assert deque.peek_rear() == 3

    def test_iteration_goes_front_to_rear(self, structure_class: type[Any]) -> None:
        deque = structure_class([2, 3])
        deque.add_front(1)
        assert list(deque) == [1, 2, 3]

    @pytest.mark.parametrize(
        ("method", "message"),
        [
            ("remove_front", "remove_front from an empty deque"),
            ("remove_rear", "remove_rear from an empty deque"),
            ("peek_front", "peek_front at an empty deque"),
            ("peek_rear", "peek_rear at an empty deque"),
        ],
    )
    def test_empty_deque_raises_with_message(
        self, structure_class: type[Any], method: str, message: str
    ) -> None:
        _raises(getattr(structure_class(), method), message)
        deque = structure_class(["x"])
        deque.remove_rear()
        _raises(getattr(deque, method), message)

    def test_adding_at_the_front_only_reverses(self, structure_class: type[Any]) -> None:
        deque = structure_class()
        for item in range(100):
            deque.add_front(item)
        assert list(deque) == list(range(99, -1, -1))
        assert [deque.remove_rear() for _ in range(100)] == list(range(100))
        deque._check()

    def test_alternating_ends_keep_working(self, structure_class: type[Any]) -> None:
        deque = structure_class()
        for item in range(50):  # go round a small buffer both ways, many times
            deque.add_front(item)
            got = deque.remove_rear()
            assert got == item, f"after add_front({item}) remove_rear() got {got!r}"
            deque._check()
            deque.add_rear(item)
            got = deque.remove_front()
            assert got == item, f"after add_rear({item}) remove_front() got {got!r}"
            deque._check()

    def test_matches_a_deque_over_random_operations(self, structure_class: type[Any]) -> None:
        run_machine(deque_machine(structure_class))
