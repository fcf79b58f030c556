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
  a difference ("after ArrayStack(), push(1), push(2), pop() returned 1, expected 2").

Both go through :class:`Operations`, which records every operation done on a structure:
a wrong answer, a broken ``_check()`` or an exception the structure raises fails with a
message naming the operations in order, the failing one last.

``run_machine(machine)`` runs a machine with the grading settings: deterministic
(``derandomize=True``), no deadline, 200 steps per run so sizes climb past several
resizes and wrap-arounds and come back down.
"""

from __future__ import annotations

import ast
import collections
import errno
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from solitaire_ds.structures.base import EmptyStructureError
from tests.contracts.plain import describe_steps

__all__ = [
    "STATEFUL_SETTINGS",
    "DequeContract",
    "Operations",
    "QueueContract",
    "StackContract",
    "deque_machine",
    "evaluate",
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
    # no "explain" phase: its list of source lines adds nothing to the steps our message names
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

_ITEMS = st.integers(min_value=-1000, max_value=1000)
_BATCHES = st.lists(_ITEMS, min_size=1, max_size=12)
_COUNTS = st.integers(min_value=1, max_value=12)


def run_machine(machine: type[RuleBasedStateMachine], **overrides: Any) -> None:
    """Run ``machine`` as a test with :data:`STATEFUL_SETTINGS` (``overrides`` replace some).

    A failure's message already names every step in plain words, so Hypothesis's notes
    (the same steps as Python code) are dropped from it.
    """
    try:
        run_state_machine_as_test(machine, settings=settings(STATEFUL_SETTINGS, **overrides))
    except AssertionError as error:
        if str(error).startswith("after ") and hasattr(error, "__notes__"):
            del error.__notes__
        raise


# -- operations that name themselves -------------------------------------------------------

def _show(value: object) -> str:
    """Return ``repr(value)``; for a long list, its length and its first and last items."""
    if isinstance(value, list) and len(value) > 12:
        return f"[{', '.join(map(repr, value[:5]))}, ..., {', '.join(map(repr, value[-5:]))}] ({len(value)} items)"
    return repr(value)


def _first_difference(actual: object, expected: object) -> str:
    """Return where two lists first differ (empty when that says nothing new)."""
    if not (isinstance(actual, list) and isinstance(expected, list)):
        return ""
    if max(len(actual), len(expected)) <= 12:
        return ""
    for index, (a, e) in enumerate(zip(actual, expected, strict=False)):
        if a != e:
            return f" (item {index} is {a!r}, expected {e!r})"
    return f" ({len(actual)} items, expected {len(expected)})"


def _passes_through(error: Exception) -> bool:
    """Errors the grader reports itself: memory and the output limit."""
    return isinstance(error, MemoryError) or (
        isinstance(error, OSError) and error.errno == errno.EFBIG
    )


def _unexpected(prefix: str, step: str, error: Exception) -> AssertionError:
    message = f"{prefix}{step} raised {type(error).__name__}"
    text = str(error)
    return AssertionError(f"{message}: {text}" if text else message)


def evaluate(text: str, compute: Callable[[], object], expected: object) -> None:
    """Check that the expression ``text`` (computed by ``compute``) gives ``expected``.

    >>> evaluate("1 + 1", lambda: 1 + 1, 3)
    Traceback (most recent call last):
    ...
    AssertionError: 1 + 1 returned 2, expected 3
    """
    try:
        actual = compute()
    except Exception as error:
        if _passes_through(error):
            raise
        raise _unexpected("", text, error) from error
    if actual != expected:
        raise AssertionError(f"{text} returned {_show(actual)}, expected {_show(expected)}")


class Operations:
    """One structure and every operation done on it, so that a failure names them all.

    A wrong answer reads "after ArrayStack(), push(1), push(2), peek() returned 1,
    expected 2"; an error the structure raises reads "after ArrayStack(), push(1),
    peek() raised IndexError: list index out of range"; a broken invariant reads
    "after ..., _check() failed: ...".

    >>> ops = Operations(list, [1, 2], adt="list")
    >>> ops.expect("pop", 2)
    >>> ops.expect("pop", 2)
    Traceback (most recent call last):
    ...
    AssertionError: after list([1, 2]), pop(), pop() returned 1, expected 2
    """

    def __init__(self, cls: type[Any], *args: object, adt: str, shown: str | None = None) -> None:
        self.adt = adt
        self.history: list[str] = []
        arguments = shown if shown is not None else ", ".join(map(repr, args))
        self.structure: Any = self.run(f"{cls.__name__}({arguments})", lambda: cls(*args))

    def steps(self) -> str:
        """Return "after <every step so far>"."""
        return "after " + describe_steps(self.history)

    def _prefix(self, done: int) -> str:
        """Return "after <the first ``done`` steps>, " (built only when a check fails)."""
        return f"after {describe_steps(self.history[:done])}, " if done else ""

    def run(self, step: str, compute: Callable[[], Any], record: bool = True) -> Any:
        """Do ``step`` (``compute()``); an error it raises fails naming the steps before it."""
        done = len(self.history)
        if record:
            self.history.append(step)
        try:
            return compute()
        except Exception as error:
            if _passes_through(error):
                raise
            raise _unexpected(self._prefix(done), step, error) from error

    def do(self, method: str, *args: object) -> Any:
        """Call ``method(*args)`` on the structure; return what it returns."""
        step = f"{method}({', '.join(map(repr, args))})"
        return self.run(step, lambda: getattr(self.structure, method)(*args))

    def expect(self, method: str, expected: object, *args: object) -> None:
        """Call ``method(*args)`` and check what it returns."""
        done = len(self.history)
        actual = self.do(method, *args)
        if actual != expected:
            _differ(self._prefix(done), self.history[-1], expected, actual)

    def look(self, step: str, compute: Callable[[Any], object], expected: object,
             record: bool = False) -> None:
        """Check ``compute(structure)``, shown as ``step`` (``len(stack)``, ``list(stack)``)."""
        done = len(self.history)
        actual = self.run(step, lambda: compute(self.structure), record)
        if actual != expected:
            _differ(self._prefix(done), step, expected, actual)

    def check(self, record: bool = False) -> None:
        """Run the structure's own invariant check, ``_check()``."""
        done = len(self.history)
        if record:
            self.history.append("_check()")
        try:
            self.structure._check()
        except AssertionError as error:
            raise AssertionError(f"{self._prefix(done)}_check() failed: {error}") from None
        except Exception as error:
            if _passes_through(error):
                raise
            raise _unexpected(self._prefix(done), "_check()", error) from error

    def raises(self, method: str, message: str) -> None:
        """Call ``method()`` on the empty structure: it must raise EmptyStructureError(message)."""
        done = len(self.history)
        step = f"{method}()"
        self.history.append(step)
        wanted = f"EmptyStructureError({message!r}) (the {self.adt} is empty)"
        try:
            actual = getattr(self.structure, method)()
        except Exception as error:
            if _passes_through(error):
                raise
            if isinstance(error, EmptyStructureError) and isinstance(error, IndexError) and (
                str(error) == message
            ):
                return
            raise AssertionError(
                f"{self._prefix(done)}{step} raised {type(error).__name__}({str(error)!r}), "
                f"expected {wanted}"
            ) from error
        raise AssertionError(
            f"{self._prefix(done)}{step} returned {_show(actual)}, expected it to raise {wanted}"
        )


def _differ(prefix: str, step: str, expected: object, actual: object) -> None:
    """Fail: ``step`` returned ``actual``, not ``expected``."""
    raise AssertionError(
        f"{prefix}{step} returned {_show(actual)}, expected {_show(expected)}"
        + _first_difference(actual, expected)
    )


# -- the stateful machines -----------------------------------------------------------------


class _ModelMachine(RuleBasedStateMachine):
    """Shared bookkeeping: the structure, its model, and the steps taken so far."""

    cls: type[Any]
    adt: str

    def __init__(self) -> None:
        super().__init__()
        self.ops = Operations(self.cls, adt=self.adt)
        self.model: Any = self.new_model()

    def new_model(self) -> Any:
        raise NotImplementedError

    def call_empty(self, method: str, message: str) -> None:
        """Call ``method`` on the empty structure and check the error and its message."""
        self.ops.raises(method, message)

    def remove(self, method: str, expected: object) -> None:
        self.ops.expect(method, expected)

    def look(self, method: str, expected: object) -> None:
        self.ops.expect(method, expected)

    def add(self, method: str, item: object) -> None:
        self.ops.do(method, item)

    @invariant()
    def agrees_with_the_model(self) -> None:
        ops, adt = self.ops, self.adt
        ops.check()
        ops.look(f"len({adt})", len, len(self.model))
        ops.look(f"bool({adt})", bool, bool(self.model))
        ops.look("is_empty()", lambda s: s.is_empty(), not self.model)
        ops.look(f"list({adt})", list, self.model_order())

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
#
# Each example builds its structure through ``Operations``, so a failure names every
# operation that led to it, in order, including an error the structure raised.


class _CommonContract:
    """What all three ADTs share: ``add`` and ``remove`` name the usual methods."""

    adt = ""
    add = ""
    remove = ""

    def new(self, cls: type[Any], *args: object, shown: str | None = None) -> Operations:
        """Make ``cls(*args)``, recording it as the first operation."""
        return Operations(cls, *args, adt=self.adt, shown=shown)

    def test_new_structure_is_empty(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        ops.look(f"len({self.adt})", len, 0)
        ops.look("is_empty()", lambda s: s.is_empty(), True)
        ops.look(f"bool({self.adt})", bool, False)
        ops.look(f"list({self.adt})", list, [])

    def test_len_and_bool_count_the_items(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        for count in range(1, 40):
            ops.do(self.add, count)
            ops.look(f"len({self.adt})", len, count)
            ops.look(f"bool({self.adt})", bool, True)
            ops.look("is_empty()", lambda s: s.is_empty(), False)

    def test_repr_rebuilds(self, structure_class: type[Any]) -> None:
        name = structure_class.__name__
        ops = self.new(structure_class, [1, "two", 3])
        ops.look(f"repr({self.adt})", repr, f"{name}([1, 'two', 3])")
        self.new(structure_class).look(f"repr({self.adt})", repr, f"{name}([])")
        # what repr shows, given back to the class, makes an equal structure
        shown = repr(ops.structure)[len(name):]
        evaluate(f"{name}{shown} == {name}([1, 'two', 3])",
                 lambda: structure_class(eval(shown)) == ops.structure, True)

    def test_equal_only_to_same_class_with_same_items(self, structure_class: type[Any]) -> None:
        name = structure_class.__name__
        evaluate(f"{name}([1, 2, 3]) == {name}([1, 2, 3])",
                 lambda: structure_class([1, 2, 3]) == structure_class([1, 2, 3]), True)
        evaluate(f"{name}() == {name}()", lambda: structure_class() == structure_class(), True)
        for other, make in [
            (f"{name}([1, 2])", lambda: structure_class([1, 2])),
            (f"{name}([3, 2, 1])", lambda: structure_class([3, 2, 1])),
            ("[1, 2, 3]", lambda: [1, 2, 3]),
            ("(1, 2, 3)", lambda: (1, 2, 3)),
        ]:
            evaluate(f"{name}([1, 2, 3]) == {other}",
                     lambda make=make: structure_class([1, 2, 3]) == make(), False)

    def test_iteration_changes_nothing(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class, range(10), shown="range(10)")
        first = ops.run(f"list({self.adt})", lambda: list(ops.structure))
        ops.look(f"list({self.adt})", list, first)
        ops.look(f"len({self.adt})", len, 10)
        ops.check()

    def test_constructor_takes_any_iterable(self, structure_class: type[Any]) -> None:
        name = structure_class.__name__
        evaluate(f"{name}(x for x in [1, 2, 3]) == {name}([1, 2, 3])",
                 lambda: structure_class(x for x in [1, 2, 3]) == structure_class([1, 2, 3]), True)
        evaluate(f"{name}('abc') == {name}(['a', 'b', 'c'])",
                 lambda: structure_class("abc") == structure_class(["a", "b", "c"]), True)

    def test_removed_items_are_not_kept_alive(self, structure_class: type[Any]) -> None:
        # _check() asserts that no unused slot (or unlinked node) still holds an item
        ops = self.new(structure_class, range(100), shown="range(100)")
        ops.check()
        for _ in range(95):
            ops.do(self.remove)
            ops.check()

    def test_grows_and_shrinks_without_list_shortcuts(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class, range(50), shown="range(50)")
        for _ in range(50):
            ops.do(self.remove)
        ops.look("is_empty()", lambda s: s.is_empty(), True)
        _assert_no_shortcuts(structure_class)


class StackContract(_CommonContract):
    """The Stack contract; needs a ``structure_class`` fixture."""

    adt = "stack"
    add = "push"
    remove = "pop"

    def test_pop_returns_the_last_pushed(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        ops.do("push", 1)
        ops.do("push", 2)
        ops.expect("pop", 2)
        ops.expect("pop", 1)
        ops.look("is_empty()", lambda s: s.is_empty(), True)

    def test_peek_returns_the_top_without_removing_it(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        ops.do("push", 1)
        ops.do("push", 2)
        ops.expect("peek", 2)
        ops.expect("peek", 2)
        ops.look("len(stack)", len, 2)

    def test_constructor_adds_in_order(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class, [1, 2, 3])
        ops.expect("peek", 3)
        for item in (3, 2, 1):
            ops.expect("pop", item)

    def test_iteration_goes_top_to_bottom(self, structure_class: type[Any]) -> None:
        self.new(structure_class, [1, 2, 3]).look("list(stack)", list, [3, 2, 1])

    def test_pop_on_empty_stack_raises_with_message(self, structure_class: type[Any]) -> None:
        self.new(structure_class).raises("pop", "pop from an empty stack")

    def test_peek_on_empty_stack_raises_with_message(self, structure_class: type[Any]) -> None:
        self.new(structure_class).raises("peek", "peek at an empty stack")

    def test_pop_after_emptying_raises_with_message(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class, [1])
        ops.expect("pop", 1)
        ops.raises("pop", "pop from an empty stack")
        ops.raises("peek", "peek at an empty stack")

    def test_many_pushes_then_pops_come_back_reversed(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        for item in range(1000):
            ops.do("push", item)
        for item in range(999, -1, -1):
            ops.expect("pop", item)
        ops.check()

    def test_matches_a_list_over_random_operations(self, structure_class: type[Any]) -> None:
        run_machine(stack_machine(structure_class))


class QueueContract(_CommonContract):
    """The Queue contract; needs a ``structure_class`` fixture."""

    adt = "queue"
    add = "enqueue"
    remove = "dequeue"

    def test_dequeue_returns_the_first_enqueued(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        ops.do("enqueue", 1)
        ops.do("enqueue", 2)
        ops.expect("dequeue", 1)
        ops.expect("dequeue", 2)
        ops.look("is_empty()", lambda s: s.is_empty(), True)

    def test_peek_returns_the_front_without_removing_it(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        ops.do("enqueue", 1)
        ops.do("enqueue", 2)
        ops.expect("peek", 1)
        ops.expect("peek", 1)
        ops.look("len(queue)", len, 2)

    def test_constructor_adds_in_order(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class, [1, 2, 3])
        ops.expect("peek", 1)
        for item in (1, 2, 3):
            ops.expect("dequeue", item)

    def test_iteration_goes_front_to_back(self, structure_class: type[Any]) -> None:
        self.new(structure_class, [1, 2, 3]).look("list(queue)", list, [1, 2, 3])

    def test_dequeue_on_empty_queue_raises_with_message(self, structure_class: type[Any]) -> None:
        self.new(structure_class).raises("dequeue", "dequeue from an empty queue")

    def test_peek_on_empty_queue_raises_with_message(self, structure_class: type[Any]) -> None:
        self.new(structure_class).raises("peek", "peek at an empty queue")

    def test_queue_can_be_reused_after_emptying(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class, [1])
        ops.expect("dequeue", 1)
        ops.raises("dequeue", "dequeue from an empty queue")
        ops.do("enqueue", 2)
        ops.do("enqueue", 3)
        ops.look("list(queue)", list, [2, 3])
        ops.check()

    def test_alternating_enqueue_and_dequeue_keeps_working(
        self, structure_class: type[Any]
    ) -> None:
        ops = self.new(structure_class)
        for item in range(50):  # the front and back go round a small buffer many times
            ops.do("enqueue", item)
            ops.expect("dequeue", item)
            ops.check()

    def test_order_survives_wrapping_and_growing(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        expected: collections.deque[int] = collections.deque()
        for round_number in range(1, 60):
            for item in range(round_number):  # add a few more than are removed each round
                ops.do("enqueue", item)
                expected.append(item)
            for _ in range(round_number // 2):
                ops.expect("dequeue", expected.popleft())
            ops.check()
        ops.look("list(queue)", list, list(expected))

    def test_matches_a_deque_over_random_operations(self, structure_class: type[Any]) -> None:
        run_machine(queue_machine(structure_class))


class DequeContract(_CommonContract):
    """The Deque contract; needs a ``structure_class`` fixture."""

    adt = "deque"
    add = "add_rear"
    remove = "remove_front"

    def test_both_ends_work_like_collections_deque(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        ops.do("add_rear", 2)
        ops.do("add_front", 1)
        ops.do("add_rear", 3)
        ops.look("list(deque)", list, [1, 2, 3])
        ops.expect("peek_front", 1)
        ops.expect("peek_rear", 3)
        ops.expect("remove_rear", 3)
        ops.expect("remove_front", 1)
        ops.expect("remove_front", 2)
        ops.look("is_empty()", lambda s: s.is_empty(), True)

    def test_constructor_adds_in_order(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class, [1, 2, 3])
        ops.expect("peek_front", 1)
        ops.expect("peek_rear", 3)

    def test_iteration_goes_front_to_rear(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class, [2, 3])
        ops.do("add_front", 1)
        ops.look("list(deque)", list, [1, 2, 3])

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
        self.new(structure_class).raises(method, message)
        ops = self.new(structure_class, ["x"])
        ops.expect("remove_rear", "x")
        ops.raises(method, message)

    def test_adding_at_the_front_only_reverses(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        for item in range(100):
            ops.do("add_front", item)
        ops.look("list(deque)", list, list(range(99, -1, -1)))
        for item in range(100):
            ops.expect("remove_rear", item)
        ops.check()

    def test_alternating_ends_keep_working(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        for item in range(50):  # go round a small buffer both ways, many times
            ops.do("add_front", item)
            ops.expect("remove_rear", item)
            ops.check()
            ops.do("add_rear", item)
            ops.expect("remove_front", item)
            ops.check()

    def test_matches_a_deque_over_random_operations(self, structure_class: type[Any]) -> None:
        run_machine(deque_machine(structure_class))
