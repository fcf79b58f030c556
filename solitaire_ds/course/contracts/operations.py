"""Operations that name themselves: the record every structure contract fails with.

:class:`Operations` records each operation done on a structure under test; a wrong
answer, a broken ``_check()`` or an exception the structure raises fails with a message
naming the operations in order, the failing one last ("after ArrayStack(), push(1),
push(2), pop() returned 1, expected 2"). Both the example tests and the stateful machines
go through it.
"""


from __future__ import annotations

import errno
import sys
import types
from collections.abc import Callable
from typing import Any

import solitaire_ds.structures as structures
from solitaire_ds.course.contracts.plain import describe_steps
from solitaire_ds.structures.base import EmptyStructureError

__all__ = ["Operations", "evaluate", "given_check"]


def given_check(structure: Any) -> Callable[[], None]:
    """Return the skeleton's own ``_check()`` for ``structure``, not the student's copy.

    ``_check()`` is given code: a student who rewrites it (say, to ``pass``) must not
    switch the invariant check off. For one of the six classes, this runs the package's
    ``_check`` code on the student's object, with the student module's ``_Node`` class
    (their nodes are theirs); any other class keeps its own ``_check``.

    >>> from solitaire_ds.structures import array_stack
    >>> class ArrayStack(array_stack.ArrayStack):  # a student's, with _check switched off
    ...     def _check(self): pass
    >>> stack = ArrayStack([1])
    >>> stack._slots[3] = "stale"
    >>> stack._check() is None
    True
    >>> given_check(stack)()
    Traceback (most recent call last):
    AssertionError: unused slot 3 still holds 'stale'
    """
    cls = type(structure)
    if cls not in _GIVEN_CHECKS:  # made once per class: the checks call it after every step
        _GIVEN_CHECKS[cls] = _given_check(cls)
    check = _GIVEN_CHECKS[cls]
    if check is None:
        return structure._check  # type: ignore[no-any-return]
    return lambda: check(structure)


#: The six classes' ``_check`` code and module names, taken when the grader starts, before
#: any student code runs: a submission that rebinds ``solitaire_ds.structures.ArrayStack``
#: or edits the package's ``_check`` cannot change what is run (code objects are immutable).
_GIVEN: dict[str, tuple[types.CodeType, dict[str, Any]]] = {
    name: (vars(cls)["_check"].__code__, dict(vars(sys.modules[cls.__module__])))
    for name in ("ArrayStack", "LinkedStack", "ArrayQueue", "LinkedQueue", "ArrayDeque",
                 "LinkedDeque")
    for cls in [getattr(structures, name)]
}
_GIVEN_CHECKS: dict[type[Any], Callable[[Any], None] | None] = {}


def _given_check(cls: type[Any]) -> Callable[[Any], None] | None:
    """The package's ``_check`` code bound to ``cls``'s module names; None when ``cls`` is
    not one of the six."""
    if cls.__name__ not in _GIVEN:
        return None
    code, names = _GIVEN[cls.__name__]
    namespace = dict(names)
    student_module = sys.modules.get(cls.__module__)
    if student_module is not None and isinstance(getattr(student_module, "_Node", None), type):
        namespace["_Node"] = student_module._Node
    check: Callable[[Any], None] = types.FunctionType(code, namespace, "_check")
    return check

# -- operations -------------------------------------------------------

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
            given_check(self.structure)()
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


