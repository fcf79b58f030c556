"""The worker: the only part of the grader that runs a student's code.

Invariant: a worker holds the student's file, the package around it (with the graded
modules as skeletons, when it is sandboxed) and this module -- no test, no scorer, no
test tool and nothing of the judge. It reads :class:`~solitaire_ds.course.grader.messages.Request`
lines from one pipe and writes one :class:`~solitaire_ds.course.grader.messages.Reply`
line per request to another, and it decides nothing: it makes the objects it is asked
to make, calls what it is asked to call, and answers with plain data (numbers, text,
cards, moves, lists and dicts of those), the number of an object it keeps, or the
exception the code raised. Whatever the student's code does to this process -- even
rewriting this module in memory -- can change only these answers, which the judge
checks as it checks any answer.

One class, :class:`Worker`, serves requests; in a grading run it serves them over pipes
in a process of its own (:func:`main`, started by the judge, inside the sandbox), and in
the repository's own test run and the browser's practice pages it serves them in the
same process, where nobody is an adversary (:class:`~solitaire_ds.course.grader.proxy.LocalTransport`).
"""

from __future__ import annotations

import dataclasses
import functools
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from solitaire_ds.course.grader.messages import (
    MAX_DEPTH,
    MAX_TEXT,
    Answer,
    Callback,
    Raised,
    Reply,
    Request,
    Target,
    Where,
)

__all__ = ["RandrangeOnly", "Worker", "main"]

#: The most objects one snapshot reads (a structure of a few thousand nodes is far below).
_SNAPSHOT_OBJECTS = 50_000
#: How deeply lists may nest in a snapshot's field.
_SNAPSHOT_DEPTH = 4
#: The most values one answer holds; a bigger one is refused as an answer.
_ANSWER_VALUES = 200_000
#: The types of an item that goes on the wire as itself.
_PLAIN = frozenset({type(None), bool, int, float, str})
#: The longest request line read (the judge's requests are small).
_REQUEST_BYTES = 16 << 20


@dataclasses.dataclass(frozen=True)
class _Wire:
    """An answer already in wire form (a snapshot)."""

    data: Any


class _Unsendable(Exception):
    """A value the worker cannot put into an answer (too deep, too large)."""


def _exception_kinds() -> list[tuple[str, type[BaseException]]]:
    """The classes an exception is checked against, most specific first."""
    from solitaire_ds.games.base import IllegalMove, OptionError
    from solitaire_ds.structures.base import EmptyStructureError

    return [
        ("EmptyStructureError", EmptyStructureError), ("IllegalMove", IllegalMove), ("OptionError", OptionError),
        ("RecursionError", RecursionError), ("NotImplementedError", NotImplementedError),
        ("IndexError", IndexError), ("KeyError", KeyError), ("LookupError", LookupError),
        ("ZeroDivisionError", ZeroDivisionError), ("ArithmeticError", ArithmeticError),
        ("UnicodeError", UnicodeError), ("ValueError", ValueError), ("TypeError", TypeError),
        ("AttributeError", AttributeError), ("NameError", NameError), ("AssertionError", AssertionError),
        ("StopIteration", StopIteration), ("MemoryError", MemoryError), ("OSError", OSError),
        ("RuntimeError", RuntimeError), ("Exception", Exception), ("SystemExit", SystemExit),
        ("KeyboardInterrupt", KeyboardInterrupt), ("BaseException", BaseException),
    ]


def _safe_str(obj: object, limit: int = MAX_TEXT) -> str:
    """Return ``str(obj)`` cut to ``limit``, or a placeholder when ``str`` itself fails."""
    try:
        text = str(obj)
        if type(text) is not str:
            raise TypeError
    except BaseException:  # a student's __str__ may do anything
        return f"<{type(obj).__name__} that cannot be shown>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Worker:
    """Serves the judge's requests on the student's code in folder ``impl``.

    ``impl`` is a folder laid out like ``exercises/`` (or ``"solitaire_ds"``: the package
    itself). Objects the student's code returns that are not plain data are kept, and
    answered by number; :meth:`handle` never raises. ``ask`` sends a
    :class:`~solitaire_ds.course.grader.messages.Callback` to the judge and returns its
    answer (the pipe, or the judge's own method in the same process).

    >>> worker = Worker("solitaire_ds")
    >>> made = worker.handle(Request(1, "call", Target(module="structures.array_stack", path=("ArrayStack",)),
    ...                              args=([3, 1],)))
    >>> made.value
    {'$ref': [1, 'ArrayStack']}
    >>> worker.handle(Request(2, "method", Target(ref=1), name="pop")).value
    1
    >>> worker.handle(Request(3, "method", Target(ref=1), name="pop")).value
    3
    >>> worker.handle(Request(4, "method", Target(ref=1), name="pop")).raised.message
    'pop from an empty stack'
    """

    def __init__(self, impl: str | Path, ask: Callable[[Callback], Answer] | None = None) -> None:
        self.impl = str(impl)
        self.ask = ask or _no_judge
        self.folder = None if self.impl == "solitaire_ds" else os.path.realpath(self.impl)
        self.objects: dict[int, Any] = {}
        self.next_ref = 1
        self._kinds = _exception_kinds()
        from solitaire_ds.cards import Card, Deck, Rank, Suit
        from solitaire_ds.games.base import Move

        self._card, self._deck, self._rank, self._suit, self._move = Card, Deck, Rank, Suit, Move

    # -- serving ---------------------------------------------------------------------------

    def handle(self, request: Request) -> Reply:
        """Do ``request``; return its reply (never raises).

        A batch is answered request by request; after one raises where it was not expected
        to, the rest are not run (and say so).
        """
        if request.op == "batch":
            results = []
            stopped = False
            for each in request.batch:
                reply = Reply(each.id, not_run=True) if stopped else self.handle(each)
                stopped = stopped or (reply.raised is not None and not each.may_raise)
                results.append(reply)
            return Reply(request.id, results=tuple(results))
        try:
            value = self._do(request)
            return Reply(request.id, value=value.data if isinstance(value, _Wire) else self.to_wire(value))
        except BaseException as exc:  # anything the student's code raises, SystemExit included
            return Reply(request.id, raised=self.describe(exc))

    def _do(self, request: Request) -> Any:
        op = request.op
        if op == "reset":
            self.objects.clear()
            return None
        if op == "import":
            return self._import(request)
        if op == "new":
            return self._new(request.name, [self.from_wire(a) for a in request.args])
        assert request.target is not None
        target = self._resolve(request.target)
        args = [self.from_wire(a) for a in request.args]
        kwargs = {k: self.from_wire(v) for k, v in request.kwargs.items()}
        actions: dict[str, Callable[[], Any]] = {
            "get": lambda: target,
            "call": lambda: target(*args, **kwargs),
            "method": lambda: getattr(target, request.name)(*args, **kwargs),
            "len": lambda: len(target),
            "bool": lambda: bool(target),
            "list": lambda: list(target),
            "repr": lambda: _checked_text(repr(target), "__repr__"),
            "str": lambda: _checked_text(str(target), "__str__"),
            "eq": lambda: bool(target == args[0]),
            "snapshot": lambda: _Wire(self.snapshot(target, *args)),
            "drive": lambda: _drive(target, request.name, *args),
        }
        return actions[op]()

    def _new(self, kind: str, args: list[Any]) -> _Wire:
        """Make a list (that the student's code may change in place), or a stand-in for the
        judge's random source number ``args[0]`` (:class:`RandrangeOnly`)."""
        if kind == "list" and len(args) == 1 and type(args[0]) is list:
            return _Wire(self.keep(list(args[0])))
        if kind == "rng" and len(args) == 1 and type(args[0]) is int:
            return _Wire(self.keep(RandrangeOnly(args[0], self.ask)))
        raise ValueError(f"cannot make a {kind[:40]!r} from {len(args)} arguments")

    def module(self, name: str, package: bool = False) -> ModuleType:
        """Return the student's module ``name`` (``package``: the package's own)."""
        import importlib

        if package or self.folder is None:
            return importlib.import_module(f"solitaire_ds.{name}")
        from solitaire_ds.course.catalog import load_module

        return load_module(self.folder, name)

    def _resolve(self, target: Target) -> Any:
        if target.ref is not None:
            if target.ref not in self.objects:
                raise LookupError(f"object {target.ref} is gone (its worker was restarted, or it was never made)")
            value = self.objects[target.ref]
        else:
            assert target.module is not None
            value = self.module(target.module, target.package)
        for name in target.path:
            value = getattr(value, name)
        return value

    def _import(self, request: Request) -> dict[str, Any]:
        """Load the student's module; say, for each graded name, where it was defined."""
        assert request.target is not None and request.target.module is not None
        module = self.module(request.target.module)
        found: dict[str, Any] = {}
        for name in request.args:
            obj = getattr(module, str(name), None)
            if obj is None:
                found[str(name)] = None
                continue
            origin = getattr(obj, "__module__", None)
            bases = [[_safe_str(getattr(b, "__module__", "")), _safe_str(getattr(b, "__qualname__", ""))]
                     for b in getattr(obj, "__mro__", ())[1:]]
            found[str(name)] = {
                "module": origin if isinstance(origin, str) else None,
                "name": _safe_str(getattr(obj, "__name__", "")),
                "bases": bases,
            }
        return {"module": module.__name__, "names": found}

    # -- values ----------------------------------------------------------------------------

    def keep(self, obj: Any) -> dict[str, Any]:
        """Keep ``obj`` for the judge; return its reference."""
        ref = self.next_ref
        self.next_ref += 1
        self.objects[ref] = obj
        name = type(obj).__name__
        return {"$ref": [ref, name if name.isidentifier() and len(name) <= 100 else "object"]}

    def to_wire(self, value: Any) -> Any:
        """Return ``value`` as a wire value: plain data as itself, any other object kept."""
        budget = [_ANSWER_VALUES]
        return self._encode(value, 0, budget)

    def _encode(self, value: Any, depth: int, budget: list[int]) -> Any:
        budget[0] -= 1
        if budget[0] < 0:
            raise _Unsendable(f"the answer holds more than {_ANSWER_VALUES:,} values")
        if depth > MAX_DEPTH - 2:
            raise _Unsendable(f"the answer nests more than {MAX_DEPTH - 2} deep")
        kind = type(value)
        if value is None or kind is bool or kind is str:
            return value
        if kind is int:
            return value if -(1 << 63) <= value < 1 << 63 else self.keep(value)
        if kind is float:
            return value if value == value and abs(value) != float("inf") else self.keep(value)
        if kind is list:
            if _PLAIN.issuperset(map(type, value)):  # the common case, at C speed
                budget[0] -= len(value)
                return value[:]  # a copy: the list may change before the answer is sent
            return [self._encode(item, depth + 1, budget) for item in value]
        if kind is tuple:
            return {"$tuple": [self._encode(item, depth + 1, budget) for item in value]}
        if kind is dict:
            if all(type(k) is str and not k.startswith("$") for k in value):
                return {k: self._encode(v, depth + 1, budget) for k, v in value.items()}
            return {"$dict": [[self._encode(k, depth + 2, budget), self._encode(v, depth + 2, budget)]
                              for k, v in value.items()]}
        if kind is self._card:
            return {"$card": value.code}
        if kind is self._rank:
            return {"$rank": int(value)}
        if kind is self._suit:
            return {"$suit": value.code}
        if kind is self._move:
            return {"$move": [value.kind, [int(p) for p in value.piles]]}
        if kind is self._deck:
            return {"$deck": [value.codes(), [int(r) for r in value.ranks]]}
        return self.keep(value)

    def from_wire(self, data: Any) -> Any:
        """Return the Python value of the wire value ``data`` (the judge's arguments)."""
        if isinstance(data, list):
            return [self.from_wire(item) for item in data]
        if not isinstance(data, dict):
            return data
        if len(data) == 1:
            ((tag, inner),) = data.items()
            if tag == "$tuple":
                return tuple(self.from_wire(item) for item in inner)
            if tag == "$iter":
                return iter([self.from_wire(item) for item in inner])
            if tag == "$dict":
                return {self.from_wire(k): self.from_wire(v) for k, v in inner}
            if tag == "$card":
                return self._card.parse(inner)
            if tag == "$rank":
                return self._rank(inner)
            if tag == "$suit":
                return next(s for s in self._suit if s.code == inner)
            if tag == "$move":
                return self._move(inner[0], tuple(inner[1]))
            if tag == "$deck":
                ranks = [self._rank(r) for r in inner[1]]
                return self._deck((self._card.parse(c) for c in inner[0]), ranks)
            if tag == "$ref":
                if inner[0] not in self.objects:
                    raise LookupError(f"object {inner[0]} is gone (its worker was restarted)")
                return self.objects[inner[0]]
        return {k: self.from_wire(v) for k, v in data.items()}

    # -- snapshots ---------------------------------------------------------------------------

    def snapshot(self, root: Any, fields: Any, node_fields: Any) -> dict[str, Any]:
        """Read the fields ``fields`` of ``root`` and ``node_fields`` of every object they reach.

        The judge names the fields (its reference class's, and its node class's); each is read
        with ``getattr``, so a property answers as a field does, and a field the object does
        not have is left out. The answer is ``{"objects": [...]}``, object 0 being ``root``;
        each is ``{"class": its class's name, "attrs": {field: value}}``, where a value is
        plain data, a list or ``$tuple`` of values, or ``{"$obj": k}`` for object ``k`` of the
        list (so shared objects and cycles keep their identity). It is the worker's claim:
        the judge bounds it, checks it, and holds it against what the structure does.
        """
        if not (_names(fields) and _names(node_fields)):
            raise ValueError("a snapshot names the fields to read")
        index = {id(root): 0}
        objects = [root]
        answer: list[dict[str, Any]] = []

        def value(item: Any, depth: int) -> Any:
            kind = type(item)
            if kind in _PLAIN:
                if kind is float or (kind is int and not -(1 << 63) <= item < 1 << 63):
                    return self.to_wire(item)  # NaN or a huge int: kept, as to_wire does
                return item
            if depth >= _SNAPSHOT_DEPTH:
                raise _Unsendable(f"the structure nests lists more than {_SNAPSHOT_DEPTH} deep")
            if kind is list:
                if _PLAIN.issuperset(map(type, item)):
                    return self.to_wire(item)
                return [value(each, depth + 1) for each in item]
            if kind is tuple:
                return {"$tuple": [value(each, depth + 1) for each in item]}
            if id(item) not in index:
                if len(objects) >= _SNAPSHOT_OBJECTS:
                    raise _Unsendable(f"the structure links more than {_SNAPSHOT_OBJECTS:,} objects")
                index[id(item)] = len(objects)
                objects.append(item)  # kept alive until the answer is made: ids stay unique
            return {"$obj": index[id(item)]}

        while len(answer) < len(objects):
            obj = objects[len(answer)]
            attrs: dict[str, Any] = {}
            for name in fields if not answer else node_fields:
                try:
                    found = getattr(obj, name)
                except AttributeError:
                    continue
                attrs[name] = value(found, 0)
            answer.append({"class": _safe_str(type(obj).__name__, 100), "attrs": attrs})
        return {"objects": answer}

    # -- exceptions ------------------------------------------------------------------------

    def describe(self, exc: BaseException) -> Raised:
        """Return ``exc`` as data: its type, the known kinds it is, its message and place."""
        if isinstance(exc, _Unsendable):
            return Raised("Unsendable", (), _safe_str(exc))
        kinds = tuple(name for name, cls in self._kinds if isinstance(exc, cls))
        name = type(exc).__name__
        if not (name.isidentifier() and len(name) <= 100):
            name = "Exception"
        code: int | str | None = None
        if isinstance(exc, SystemExit):
            code = exc.code if type(exc.code) is int else _safe_str(exc.code, 300) if exc.code is not None else None
        errno = exc.errno if isinstance(exc, OSError) and type(exc.errno) is int else None
        message = _safe_str(exc)
        if isinstance(exc, SyntaxError) and type(exc.msg) is str:  # "invalid syntax (line 3)", no file name
            message = f"{_safe_str(exc.msg, 1000)} (line {exc.lineno})" if type(exc.lineno) is int else exc.msg
        notes = getattr(exc, "__notes__", None)
        if isinstance(notes, list) and notes:
            message = "\n".join([message, *(_safe_str(n, 2000) for n in notes[:20])])[:MAX_TEXT]
        return Raised(name, kinds, message, self._where(exc), code, errno)

    def _where(self, exc: BaseException) -> Where | None:
        """The innermost frame of ``exc`` (or its cause) in a file of the student's folder."""
        if self.folder is None:
            return None
        root = self.folder + os.sep
        seen = 0
        current: BaseException | None = exc
        while current is not None and seen < 5:
            try:
                frames = [f for f in traceback.extract_tb(current.__traceback__)
                          if _real(f.filename).startswith(root)]
            except Exception:
                return None
            if frames:
                last = frames[-1]
                relpath = os.path.relpath(_real(last.filename), self.folder).replace(os.sep, "/")
                return Where(relpath[:300], int(last.lineno or 0), str(last.name)[:300])
            current = current.__cause__ or current.__context__
            seen += 1
        return None


def _drive(target: Any, step: str, until: str, limit: int) -> int:
    """Call ``target.step()`` until ``target.until()`` answers True, at most ``limit`` times;
    return how many calls it took (``limit`` if it never answered True).

    ``until`` must answer a bool. What the calls raise is raised, with a note saying how many
    calls came before.
    """
    done = 0
    try:
        while done < limit:
            over = getattr(target, until)()
            if type(over) is not bool:
                raise TypeError(f"{until}() returned {type(over).__name__}, not a bool")
            if over:
                return done
            getattr(target, step)()
            done += 1
    except BaseException as exc:
        if done and isinstance(exc, Exception):
            exc.add_note(f"(after {done} calls of {step}())")
        raise
    return done


@functools.lru_cache(maxsize=256)
def _real(filename: str) -> str:
    """``os.path.realpath``, once per file name (a traceback names the same few files)."""
    return os.path.realpath(filename)


class RandrangeOnly:
    """A random source that offers ``randrange`` and nothing else: each call asks the judge.

    Exercise 7's contract hands one to ``fisher_yates``: the shuffle has to be the loop
    itself, not ``rng.shuffle``. The judge holds the ``random.Random``, draws the number
    and counts the calls; this object holds only the number of the judge's source, so
    there is nothing here to read a draw from, or a count to change.

    >>> rng = RandrangeOnly(1, lambda call: Answer(value=call.args[0] - 1))
    >>> rng.randrange(10)
    9
    >>> rng.shuffle([1, 2])
    Traceback (most recent call last):
    AttributeError: 'RandrangeOnly' object has no attribute 'shuffle'
    """

    __slots__ = ("_ask", "_source")

    def __init__(self, source: int, ask: Callable[[Callback], Answer]) -> None:
        self._source = source
        self._ask = ask

    def randrange(self, *args: int) -> int:
        """Return the judge's ``randrange(*args)`` from its source (it raises as Python's does)."""
        if len(args) > 3 or not all(type(a) is int and -(1 << 63) <= a < 1 << 63 for a in args):
            raise TypeError("randrange() takes one to three integers here")
        answer = self._ask(Callback("randrange", self._source, args))
        if answer.error:
            raise {"ValueError": ValueError, "TypeError": TypeError, "LookupError": LookupError}.get(
                answer.error, RuntimeError)(answer.message)
        return answer.value


def _no_judge(call: Callback) -> Answer:
    return Answer(error="RuntimeError", message="no judge to ask")


def _names(value: Any) -> bool:
    """Whether ``value`` is a short list of field names (what a snapshot request names)."""
    return (isinstance(value, list) and len(value) <= 16
            and all(isinstance(n, str) and n.isidentifier() and len(n) <= 100 for n in value))


def _checked_text(text: Any, method: str) -> str:
    if type(text) is not str:
        raise TypeError(f"{method} returned {type(text).__name__}, not str")
    return text


def _asker(requests: Any, replies: Any) -> Callable[[Callback], Answer]:
    """Return how a worker asks the judge a callback over its pipes: a line out, a line back."""

    def ask(call: Callback) -> Answer:
        replies.write(call.to_line())
        replies.flush()
        return Answer.from_line(requests.readline(_REQUEST_BYTES))

    return ask


def _serve(worker: Worker, requests: Any, replies: Any) -> None:
    """Answer each request line of ``requests`` with a reply line on ``replies``."""
    while True:
        line = requests.readline(_REQUEST_BYTES)
        if not line:
            return
        request = Request.from_line(line)
        reply = worker.handle(request)
        try:
            data = reply.to_line()
        except (ValueError, TypeError, RecursionError, MemoryError) as exc:
            why = Raised("Unsendable", (), f"the answer cannot be sent: {exc}"[:300])
            data = Reply(request.id, raised=why).to_line()
        replies.write(data)
        replies.flush()


def main(argv: list[str] | None = None) -> None:
    """Serve requests: ``worker IMPL IN_FD OUT_FD`` (the judge starts it so, in the sandbox)."""
    impl, in_fd, out_fd = (argv if argv is not None else sys.argv[1:])[:3]
    requests = os.fdopen(int(in_fd), "rb")
    replies = os.fdopen(int(out_fd), "wb")
    sys.setrecursionlimit(3000)  # a runaway recursion ends as a RecursionError, never a crash
    _serve(Worker(impl, _asker(requests, replies)), requests, replies)

