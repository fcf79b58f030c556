"""Operations that name themselves: the record every structure contract fails with.

:class:`Operations` records each operation done on a structure under test; a wrong
answer, a broken invariant or an exception the structure raises fails with a message
naming the operations in order, the failing one last ("after ArrayStack(), push(1),
push(2), pop() returned 1, expected 2"). Both the example tests and the stateful machines
go through it.

The structure is a proxy to the student's object in its worker (a grading run, the
practice pages) or, in the package's own tests, an object of this process; the same
code serves both. Two things are never asked of the student's code:

* **the invariant**: ``_check()`` is given code, and a student who rewrites it (to
  ``pass``, say) must not switch it off. The exercise names the reference class whose
  invariant applies (never the class name the worker reports); :func:`invariant` asks
  the worker for that class's fields and nodes as plain data, and the judge bounds,
  validates and checks the copy with the package's own ``_check``, holding it against
  ``len()`` and the capacity answered in the same exchange
  (:mod:`~solitaire_ds.course.contracts.snapshot`);
* **equality of answers**: an answer is compared here, as plain data; an object the
  student's code returns instead is shown by its class ("returned a Weird object").
"""

from __future__ import annotations

import contextlib
import errno
from collections.abc import Callable
from typing import Any

from solitaire_ds.course.contracts.plain import describe_steps
from solitaire_ds.course.contracts.snapshot import Claims, agree, check_snapshot, shape_of
from solitaire_ds.course.grader.messages import Reply, Request
from solitaire_ds.course.grader.proxy import Connection, ObjectProxy, RemoteError, shown
from solitaire_ds.course.grader.worker import Worker
from solitaire_ds.structures.base import EmptyStructureError

__all__ = ["Operations", "evaluate", "invariant"]


def invariant(structure: Any, reference: type[Any]) -> None:
    """Run ``reference``'s ``_check()`` on a copy of ``structure``'s state; raise what it raises.

    ``reference`` is the package's class the exercise names (``ArrayStack``, ...), whatever
    class the structure says it is. Nothing of the student's object runs in the check: the
    fields ``reference`` has, and those of the nodes they reach, are read as plain data,
    bounded and validated, rebuilt as objects of the package's class (and its ``_Node``),
    checked, and held against ``len()`` (and ``len(_slots)``) asked at the same time (see
    :mod:`~solitaire_ds.course.contracts.snapshot`).

    >>> from solitaire_ds import structures
    >>> class Lenient(structures.ArrayStack):  # a student's, with _check switched off
    ...     def _check(self): pass
    >>> stack = Lenient([1])
    >>> stack._slots[3] = "stale"
    >>> invariant(stack, structures.ArrayStack)
    Traceback (most recent call last):
    AssertionError: unused slot 3 still holds 'stale'
    """
    if isinstance(structure, ObjectProxy):
        connection = structure._connection
        replies = connection.batch(_invariant_requests(connection, structure, reference))
        for reply in replies:
            if reply.raised is not None:
                connection.outcome(reply)  # raises what the code raised
        data, *capacity, items = (reply.value for reply in replies)
    else:
        shape = shape_of(reference)
        data = Worker("solitaire_ds").snapshot(structure, list(shape.fields), list(shape.node))
        items, capacity = len(structure), [len(structure._slots)] if shape.array else []
    agree(check_snapshot(reference, data, items if type(items) is int else None), items, *capacity)


def _invariant_requests(connection: Connection, structure: ObjectProxy, reference: type[Any],
                        with_len: bool = True) -> list[Request]:
    """The requests an invariant check sends: the snapshot, for an array class ``len(_slots)``,
    then ``len()`` (unless the exchange asks it after them)."""
    shape = shape_of(reference)
    target = structure._target()
    requests = [connection.request("snapshot", target, args=(list(shape.fields), list(shape.node)))]
    if shape.array:
        requests.append(connection.request("len", structure._target("_slots")))
    if with_len:
        requests.append(connection.request("len", target))
    return requests


# -- operations -------------------------------------------------------


def _show(value: object) -> str:
    """Return ``value`` for a message; a long list by its length and its first and last items."""
    if isinstance(value, list) and len(value) > 12:
        return f"[{', '.join(map(shown, value[:5]))}, ..., {', '.join(map(shown, value[-5:]))}] ({len(value)} items)"
    return shown(value)


def _first_difference(actual: object, expected: object) -> str:
    """Return where two lists first differ (empty when that says nothing new)."""
    if not (isinstance(actual, list) and isinstance(expected, list)):
        return ""
    if max(len(actual), len(expected)) <= 12:
        return ""
    for index, (a, e) in enumerate(zip(actual, expected, strict=False)):
        if a != e:
            return f" (item {index} is {shown(a)}, expected {shown(e)})"
    return f" ({len(actual)} items, expected {len(expected)})"


def _passes_through(error: BaseException) -> bool:
    """Errors the grader reports itself: memory and the output limit."""
    return isinstance(error, MemoryError) or (isinstance(error, OSError) and error.errno == errno.EFBIG) or (
        isinstance(error, RemoteError) and error.raised.errno == errno.EFBIG)


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

    ``reference`` is the package's class whose invariant applies, as the exercise names it
    (never the class the structure says it is).

    With ``deferred`` (the stateful machines), the operations whose answers are only
    checked -- :meth:`do_later`, :meth:`expect`, :meth:`raises`, :meth:`agrees_with` --
    wait in a queue and go to the worker together at :meth:`flush` (or before any
    operation whose answer is needed at once); each is checked in order, as if it had run
    alone, so the verdict and the message are the same, for one exchange instead of
    hundreds.

    >>> ops = Operations(list, [1, 2], adt="list")
    >>> ops.expect("pop", 2)
    >>> ops.expect("pop", 2)
    Traceback (most recent call last):
    ...
    AssertionError: after list([1, 2]), pop(), pop() returned 1, expected 2
    """

    def __init__(self, cls: Any, *args: object, adt: str, shown: str | None = None, deferred: bool = False,
                 reference: type[Any] | None = None) -> None:
        self.adt = adt
        #: The package's class whose invariant the structure must keep (the exercise says
        #: which), or None: no invariant is checked.
        self.reference = reference
        self.history: list[str] = []
        #: The calls made so far, each with how many steps came before it, to replay on the
        #: reference when the invariant fails (None: a step was done that cannot be replayed).
        self._calls: list[tuple[int, str, tuple[object, ...]]] | None = []
        self._args = args
        self._pending: list[tuple[list[Request], Callable[[list[Reply]], None]]] = []
        self._flush_at = 1
        arguments = shown if shown is not None else ", ".join(map(repr, args))
        self.name = str(cls.__name__)
        self.structure: Any = self.run(f"{self.name}({arguments})", lambda: cls(*args), call=("", ()))
        self.deferred = deferred and isinstance(self.structure, ObjectProxy)

    def steps(self) -> str:
        """Return "after <every step so far>"."""
        return "after " + describe_steps(self.history)

    def _prefix(self, done: int) -> str:
        """Return "after <the first ``done`` steps>, " (built only when a check fails)."""
        return f"after {describe_steps(self.history[:done])}, " if done else ""

    # -- the queue ----------------------------------------------------------------------

    def _later(self, requests: list[Request], check: Callable[[list[Reply]], None]) -> None:
        """Queue ``requests``; ``check`` gets their replies (fewer if the worker stopped early)."""
        self._pending.append((requests, check))
        if not self.deferred or len(self._pending) >= self._flush_at:
            # the first steps go one by one, then in batches twice as long up to 64: a
            # failure at the start (the usual one) is seen at once, and shrinks fast
            self._flush_at = min(2 * self._flush_at, 64)
            self.flush()

    def flush(self) -> None:
        """Send every queued request in one exchange and check each answer in order."""
        if not self._pending:
            return
        pending, self._pending = self._pending, []
        connection = self.structure._connection
        replies = connection.batch([r for requests, _ in pending for r in requests])
        start = 0
        for requests, check in pending:
            mine = replies[start:start + len(requests)]
            start += len(requests)
            if not mine:
                break  # the worker stopped before these: an earlier check has failed already
            check(mine)

    def _outcome(self, reply: Reply, step: str, done: int) -> Any:
        """Return ``reply``'s value; fail naming ``step`` (after ``done`` steps) if it raised."""
        if reply.raised is None:
            return self.structure._connection.decode(reply.value)
        error = _as_error(self.structure._connection, reply)
        if _passes_through(error):
            raise error
        raise _unexpected(self._prefix(done), step, error) from error

    # -- operations ---------------------------------------------------------------------

    def run(self, step: str, compute: Callable[[], Any], record: bool = True,
            call: tuple[str, tuple[object, ...]] | None = None) -> Any:
        """Do ``step`` (``compute()``); an error it raises fails naming the steps before it.

        ``call`` is the method call (name, arguments) the step makes, to replay on the
        reference; ``("", ())`` for a step that only reads. A recorded step without one
        cannot be replayed.
        """
        if self._pending:
            self.flush()
        done = len(self.history)
        if record:
            self._record_call(call)
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
        return self.run(step, lambda: getattr(self.structure, method)(*args), call=(method, args))

    def _record_call(self, call: tuple[str, tuple[object, ...]] | None) -> None:
        if self._calls is None:
            return
        if call is None:
            self._calls = None
        elif call[0]:
            self._calls.append((len(self.history), *call))

    def do_later(self, method: str, *args: object) -> None:
        """Call ``method(*args)``, whose answer nobody reads (queued when deferred)."""
        if not isinstance(self.structure, ObjectProxy):
            self.do(method, *args)
            return
        done = len(self.history)
        step = f"{method}({', '.join(map(repr, args))})"
        self._record_call((method, args))
        self.history.append(step)
        request = self.structure._connection.request("method", self.structure._target(), method, args)
        self._later([request], lambda replies: self._outcome(replies[0], step, done))

    def expect(self, method: str, expected: object, *args: object) -> None:
        """Call ``method(*args)`` and check what it returns."""
        done = len(self.history)
        if not isinstance(self.structure, ObjectProxy):
            actual = self.do(method, *args)
            if actual != expected:
                _differ(self._prefix(done), self.history[-1], expected, actual)
            return
        step = f"{method}({', '.join(map(repr, args))})"
        self._record_call((method, args))
        self.history.append(step)
        request = self.structure._connection.request("method", self.structure._target(), method, args)

        def check(replies: list[Reply]) -> None:
            actual = self._outcome(replies[0], step, done)
            if actual != expected:
                _differ(self._prefix(done), step, expected, actual)

        self._later([request], check)

    def look(self, step: str, compute: Callable[[Any], object], expected: object,
             record: bool = False) -> None:
        """Check ``compute(structure)``, shown as ``step`` (``len(stack)``, ``list(stack)``)."""
        done = len(self.history)
        actual = self.run(step, lambda: compute(self.structure), record)
        if actual != expected:
            _differ(self._prefix(done), step, expected, actual)

    def check(self, record: bool = False) -> None:
        """Check the structure's invariant: the reference class's own ``_check()`` on a copy
        of its fields (see :func:`invariant`); nothing without a reference class."""
        if self._pending:
            self.flush()
        done = len(self.history)
        if record:
            self._record_call(("", ()))
            self.history.append("_check()")
        if self.reference is None:
            return
        structure = self.structure
        if isinstance(structure, ObjectProxy):
            requests = _invariant_requests(structure._connection, structure, self.reference)
            *replies, items = structure._connection.batch(requests)
            self._invariant(done, items, replies)
            return
        try:
            invariant(structure, self.reference)
        except AssertionError as error:
            fields = {name: getattr(structure, name, None) for name in shape_of(self.reference).fields}
            raise AssertionError(self._reference_differs(done, fields)
                                 or f"{self._prefix(done)}_check() failed: {error}") from None
        except Exception as error:
            if _passes_through(error):
                raise
            raise _unexpected(self._prefix(done), "_check()", error) from error

    def check_later(self) -> None:
        """:meth:`check`, queued when deferred: the snapshot is taken in order, checked at the flush."""
        structure = self.structure
        if not self.deferred or self.reference is None:
            self.check()
            return
        done = len(self.history)
        requests = _invariant_requests(structure._connection, structure, self.reference)
        self._later(requests, lambda replies: self._invariant(done, replies[-1], replies[:-1]))

    def _invariant(self, done: int, items: Reply, replies: list[Reply],
                   between: Callable[[], None] | None = None) -> None:
        """Judge an invariant check's ``replies`` -- the snapshot, then for an array class
        ``len(_slots)``: the snapshot bounded, validated and checked (see
        :mod:`~solitaire_ds.course.contracts.snapshot`), then (after ``between``: the other
        checks of the exchange) held against ``len()`` (``items``) and ``len(_slots)``. Fail
        naming the steps before.

        The replies are read in the order of their requests (the snapshot, ``len(_slots)``,
        then ``len()`` and the rest), so the first that raised is the one reported, and none
        after it (not run) is read.
        """
        reference = self.reference
        assert reference is not None
        snapshot, capacity = replies[0], (replies[1] if len(replies) > 1 else None)
        if snapshot.raised is not None:
            self._outcome(snapshot, "_check()", done)
        slots = self._outcome(capacity, "len(_slots)", done) if capacity is not None else None
        size = items.value if items.raised is None and type(items.value) is int else None
        try:
            claims: Claims = self._checking(done, lambda: check_snapshot(reference, snapshot.value, size))
        except AssertionError as broken:
            if between is not None:
                _answers_first(between, broken)
            differs = self._reference_differs(done, _root_fields(snapshot.value))
            if differs:
                raise AssertionError(differs) from None
            raise
        if between is not None:
            between()
        observed = self._outcome(items, f"len({self.adt})", done)
        self._checking(done, lambda: agree(claims, observed, slots))

    def _reference_differs(self, done: int, fields: dict[str, Any]) -> str:
        """Say how an array queue or deque whose invariant failed after ``done`` steps differs
        from the reference's after the same steps, when its ``_front`` differs with the same
        capacity and ``_size`` (the docstring dictates where the front is: the reference's
        place is the one expected); else "" (the invariant's own message stands).

        An item left in a slot the front index has wrongly moved past looks stale to the
        invariant, but no slot is: the first difference is the front index.
        """
        reference = self.reference
        calls = self._calls
        if reference is None or calls is None or "_front" not in shape_of(reference).fields:
            return ""
        try:
            model = reference(*self._args)
            for before, method, args in calls:
                if before >= done:
                    break
                with contextlib.suppress(EmptyStructureError):  # a step on an empty structure
                    getattr(model, method)(*args)
        except Exception:  # steps the reference cannot replay: nothing to compare
            return ""
        slots, front, size = fields.get("_slots"), fields.get("_front"), fields.get("_size")
        if (type(slots) is not list or len(slots) != len(model._slots) or size != model._size
                or front == model._front):
            return ""
        same = "the same _slots" if slots == model._slots else "the same capacity"
        return (f"{self._prefix(done)}_check() failed: _front is {_show(front)}, expected {model._front}, the "
                f"reference's after the same steps (with {same} and _size): the items sit in the slots _front, "
                "_front + 1, ..., each index taken modulo the capacity (% len(_slots))")

    def _checking(self, done: int, compute: Callable[[], Any]) -> Any:
        """Return ``compute()``; an AssertionError it raises fails as "_check() failed: ..."."""
        try:
            return compute()
        except AssertionError as error:
            raise AssertionError(f"{self._prefix(done)}_check() failed: {error}") from None
        except Exception as error:
            raise _unexpected(self._prefix(done), "_check()", error) from error

    def agrees_with(self, size: int, order: list[Any], deep: bool = True, truth: bool = False) -> None:
        """Check the invariant, then ``len``, ``bool``, ``is_empty()`` and iteration against a
        model holding ``order`` (``size`` items) -- with a worker, in one exchange (or queued).

        Without ``deep`` (or without a reference class) the invariant is left out: it reads
        every node, the rest does not; ``bool`` and ``is_empty()`` are then asked only near
        empty, unless ``truth``.
        """
        adt = self.adt
        deep = deep and self.reference is not None
        looks: list[tuple[str, Any]] = [(f"len({adt})", size), (f"bool({adt})", size > 0),
                                        ("is_empty()", size == 0), (f"list({adt})", order)]
        # bool() and is_empty() can only go wrong near empty: asked there, and with the invariant
        truth = truth or deep or size <= 2
        if not truth:
            looks = [looks[0], looks[3]]
        structure = self.structure
        if not isinstance(structure, ObjectProxy):
            computes: list[Callable[[Any], Any]] = [len, bool, lambda s: s.is_empty(), list]
            if not truth:
                computes = [len, list]

            def compare_here() -> None:
                for (step, expected), compute in zip(looks, computes, strict=True):
                    self.look(step, compute, expected)

            if deep:
                try:
                    self.check()
                except AssertionError as broken:
                    _answers_first(compare_here, broken)
                    raise
            compare_here()
            return
        connection = structure._connection
        target = structure._target()
        requests = [connection.request("len", target)]
        if truth:
            requests += [connection.request("bool", target), connection.request("method", target, "is_empty")]
        requests.append(connection.request("list", target))
        invariant_requests = []
        if deep:
            assert self.reference is not None
            invariant_requests = _invariant_requests(connection, structure, self.reference, with_len=False)
        done = len(self.history)

        def check(replies: list[Reply]) -> None:
            first, looked = replies[:len(invariant_requests)], replies[len(invariant_requests):]

            def compare() -> None:
                for (step, expected), reply in zip(looks, looked, strict=True):
                    actual = self._outcome(reply, step, done)
                    if actual != expected:
                        _differ(self._prefix(done), step, expected, actual)

            if not deep:
                compare()
                return
            self._invariant(done, looked[0], first, between=compare)

        self._later(invariant_requests + requests, check)

    def raises(self, method: str, message: str) -> None:
        """Call ``method()`` on the empty structure: it must raise EmptyStructureError(message)."""
        done = len(self.history)
        step = f"{method}()"
        self._record_call((method, ()))
        self.history.append(step)
        if isinstance(self.structure, ObjectProxy):
            connection = self.structure._connection
            request = connection.request("method", self.structure._target(), method, may_raise=True)

            def check(replies: list[Reply]) -> None:
                reply = replies[0]
                if reply.raised is None:
                    _not_raised(self._prefix(done), step, self.adt, message, connection.decode(reply.value))
                error = _as_error(connection, reply)
                if not _expected_empty(error, message):
                    _wrong_raise(self._prefix(done), step, self.adt, message, error)

            self._later([request], check)
            return
        try:
            actual = getattr(self.structure, method)()
        except Exception as error:
            _wrong_raise(self._prefix(done), step, self.adt, message, error)
            return
        _not_raised(self._prefix(done), step, self.adt, message, actual)


def _root_fields(data: Any) -> dict[str, Any]:
    """The structure's own fields in a snapshot (``{}`` when it is not one)."""
    try:
        attrs = data["objects"][0]["attrs"]
    except (KeyError, IndexError, TypeError):
        return {}
    return attrs if type(attrs) is dict else {}


def _answers_first(compare: Callable[[], None], broken: AssertionError) -> None:
    """Run ``compare`` (the answers of the same step held against the model) after the
    invariant failed with ``broken``: a wrong answer is the first difference from the
    reference's run and is raised instead; an answer that raised, or none wrong, leaves
    ``broken`` to be reported (a broken structure explains an error, not a wrong answer).

    A front index moved on with the wrong modulus leaves an item in a slot the queue no
    longer counts: the invariant calls it stale, but what differs first is what the queue
    answers, and that is what a student can follow.
    """
    try:
        compare()
    except AssertionError as wrong:
        if wrong.__cause__ is None:  # a wrong value (_differ), not an error the code raised
            raise wrong from None
    except Exception as error:
        if _passes_through(error):
            raise
        # an error the code raised: the broken invariant explains it, and is reported


def _wanted(adt: str, message: str) -> str:
    return f"EmptyStructureError({message!r}) (the {adt} is empty)"


def _expected_empty(error: Exception, message: str) -> bool:
    """Whether ``error`` is the EmptyStructureError(message) expected."""
    return isinstance(error, EmptyStructureError) and isinstance(error, IndexError) and str(error) == message


def _wrong_raise(prefix: str, step: str, adt: str, message: str, error: Exception) -> None:
    """Return quietly if ``error`` is the EmptyStructureError(message) expected; fail otherwise."""
    if _passes_through(error):
        raise error
    if _expected_empty(error, message):
        return
    raise AssertionError(
        f"{prefix}{step} raised {type(error).__name__}({str(error)!r}), expected {_wanted(adt, message)}"
    ) from error


def _not_raised(prefix: str, step: str, adt: str, message: str, actual: object) -> None:
    raise AssertionError(f"{prefix}{step} returned {_show(actual)}, expected it to raise {_wanted(adt, message)}")


def _as_error(connection: Any, reply: Any) -> Exception:
    try:
        connection.outcome(reply)
    except Exception as error:
        return error
    return RuntimeError("no error")  # pragma: no cover - only called on a reply that raised


def _differ(prefix: str, step: str, expected: object, actual: object) -> None:
    """Fail: ``step`` returned ``actual``, not ``expected``."""
    raise AssertionError(
        f"{prefix}{step} returned {_show(actual)}, expected {_show(expected)}"
        + _first_difference(actual, expected)
    )
