"""The student's code as the contract tests see it: proxies that ask a worker for everything.

Invariant: a contract test never holds a student's object, only a proxy to it, and
every answer it gets is plain data decoded here from the wire (numbers, text, the
package's own cards and moves, lists and dicts of those) or another proxy. So nothing
the student's code defines -- an ``__eq__`` that says yes to everything, a ``__bool__``,
a ``__del__`` -- ever runs where a verdict is computed:

* a proxy's ``==`` is identity: an object that claims to equal anything equals nothing
  here (:func:`equal` asks the worker for ``a == b`` where a test means it);
* ``len()``, ``bool()``, ``iter()``, ``repr()``, ``str()``, attribute reads, calls and
  method calls are requests; their answers are checked before they are believed;
* an exception the code raised comes back as its type's name and message, and is raised
  here as a class of that name built on the judge's own matching class
  (``EmptyStructureError``, ``IllegalMove``, ``IndexError``, ...), so ``except
  IllegalMove`` in a test works the same on both transports.

One contract, two transports (the :class:`Connection` subclasses): a grading run's
judge talks to a sandboxed worker process through pipes
(:class:`~solitaire_ds.course.grader.connection.WorkerConnection`); the repository's own
``python -m pytest --impl ...`` and the browser's practice pages serve the same requests
in their own process (:class:`LocalTransport`), with the same encoding on the way, so a
test sees exactly the same answers.

A :class:`Submission` is the ``impl`` the contract tests receive: a ``str`` (for the
``--impl`` option's sake and for ``load_module(impl, ...)``) that also knows how to reach
the student's modules (:meth:`Submission.module`), the package's own modules inside the
worker (:meth:`Submission.package`) and the text of the student's files.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

from solitaire_ds.course.grader.messages import Answer, Callback, ProtocolError, Reply, Request, Target
from solitaire_ds.course.grader.random_source import MAX_DRAWS, RandomSources, RandrangeSource
from solitaire_ds.course.grader.remote_error import RemoteError, remote_exception

__all__ = [
    "Connection",
    "Iteration",
    "LocalSubmission",
    "LocalTransport",
    "ModuleProxy",
    "ObjectProxy",
    "RemoteError",
    "Submission",
    "WorkerStopped",
    "drive",
    "equal",
    "is_proxy",
    "shown",
]


_SCALARS = frozenset({type(None), bool, int, float, str})


def _stopped_base() -> type[BaseException]:
    """pytest's skip exception where pytest is loaded (Hypothesis re-raises it at once
    instead of shrinking, so a stuck test costs one run, not one per shrinking step)."""
    try:
        from _pytest.outcomes import Skipped
    except ImportError:  # pragma: no cover - the judge always has pytest
        return Exception
    return Skipped


class WorkerStopped(_stopped_base()):  # type: ignore[misc]
    """The worker could not answer: it used up its CPU time, waited, or died. Says why.

    The test in progress fails with this message; the next test gets a new worker.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class Connection(ABC):
    """The judge's side of one worker: numbered requests, checked replies, decoded values."""

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        #: Raised by one each time the worker is replaced: objects of an older one are gone.
        self.generation = 0
        #: (class name, attribute) pairs known to be methods: their calls take one request.
        self.methods: set[tuple[str, str]] = set()
        #: The judge's random sources the worker may draw from (see :meth:`answer`).
        self.sources = RandomSources()

    @abstractmethod
    def exchange(self, request: Request) -> Reply:
        """Send ``request`` and return the worker's checked reply; raise :class:`WorkerStopped`."""

    # -- asking -----------------------------------------------------------------------

    def ask(self, op: str, target: Target | None = None, name: str = "", args: Sequence[Any] = (),
            kwargs: dict[str, Any] | None = None) -> Any:
        """Do one request; return its decoded value, or raise what the code raised."""
        request = self.request(op, target, name, args, kwargs)
        return self.outcome(self.exchange(request))

    def ask_wire(self, op: str, target: Target | None = None) -> Any:
        """Do one request; return its value as it came on the wire (checked, not decoded)."""
        reply = self.exchange(self.request(op, target))
        if reply.raised is not None:
            raise remote_exception(reply.raised)
        return reply.value

    def request(self, op: str, target: Target | None = None, name: str = "", args: Sequence[Any] = (),
                kwargs: dict[str, Any] | None = None, may_raise: bool = False) -> Request:
        """Return a numbered request (arguments encoded)."""
        return Request(next(self._ids), op, target, name, tuple(self.encode(a) for a in args),
                       {k: self.encode(v) for k, v in (kwargs or {}).items()}, may_raise=may_raise)

    def forget(self) -> None:
        """Let the worker drop every object it keeps for the judge (between two tests)."""
        self.sources.clear()
        self.ask("reset")

    def batch(self, requests: Sequence[Request]) -> list[Reply]:
        """Do ``requests`` in one exchange; return their replies, one per request, in order
        (after one that raised where it was not expected, the rest are ``not_run``)."""
        reply = self.exchange(Request(next(self._ids), "batch", batch=tuple(requests)))
        return list(reply.results)

    def outcome(self, reply: Reply) -> Any:
        """Return ``reply``'s decoded value, or raise the exception it reports."""
        if reply.raised is not None:
            raise remote_exception(reply.raised)
        if reply.not_run:  # a check reads the one that raised first, and fails there
            raise RuntimeError("not run: an earlier request of its batch raised")
        return self.decode(reply.value)

    # -- the worker's questions ----------------------------------------------------------

    def answer(self, call: Callback) -> Answer:
        """Answer the worker's (already parsed) callback ``call`` from the judge's own sources;
        raise :class:`WorkerStopped` when the worker keeps asking past every bound."""
        answer = self.sources.answer(call)
        if answer is None:
            raise WorkerStopped(f"the code called randrange more than {2 * MAX_DRAWS:,} times")
        return answer

    # -- values -------------------------------------------------------------------------

    def encode(self, value: Any) -> Any:
        """Return ``value`` (the judge's) as a wire value: plain data, the package's types, proxies."""
        from solitaire_ds.cards import Card, Deck, Rank, Suit
        from solitaire_ds.games.base import Move

        kind = type(value)
        if value is None or kind in (bool, int, str):
            return value
        if kind is float:
            return value
        if kind is list:
            return [self.encode(v) for v in value]
        if kind is tuple:
            return {"$tuple": [self.encode(v) for v in value]}
        if kind is Iteration:
            return {"$iter": [self.encode(v) for v in value.items]}
        if kind is range:  # a test's natural argument: re-iterable, like a list
            return list(value)
        if isinstance(value, Iterator):  # a generator, map, zip...: an iterator in the worker too
            return {"$iter": [self.encode(v) for v in value]}
        if kind is dict:
            if all(type(k) is str and not k.startswith("$") for k in value):
                return {k: self.encode(v) for k, v in value.items()}
            return {"$dict": [[self.encode(k), self.encode(v)] for k, v in value.items()]}
        if kind is Card:
            return {"$card": value.code}
        if isinstance(value, Rank):
            return {"$rank": int(value)}
        if isinstance(value, Suit):
            return {"$suit": value.code}
        if kind is Move:
            return {"$move": [value.kind, list(value.piles)]}
        if kind is Deck:
            return {"$deck": [value.codes(), [int(r) for r in value.ranks]]}
        if isinstance(value, ObjectProxy):
            return {"$ref": [value._ref_for(self), value._class]}
        if kind is RandrangeSource and value.stub is not None:
            return self.encode(value.stub)
        raise TypeError(f"cannot send a {kind.__name__} to the worker")

    def decode(self, data: Any) -> Any:
        """Return the judge's value for the (already checked) wire value ``data``."""
        if isinstance(data, list):
            if _SCALARS.issuperset(map(type, data)):  # nothing inside to decode
                return data
            return [self.decode(v) for v in data]
        if not isinstance(data, dict):
            return data
        if len(data) != 1 or not next(iter(data)).startswith("$"):
            return {k: self.decode(v) for k, v in data.items()}
        ((tag, inner),) = data.items()
        from solitaire_ds.cards import Card, CardError, Deck, DeckError, Rank, Suit
        from solitaire_ds.games.base import Move

        try:
            if tag == "$tuple":
                return tuple(self.decode(v) for v in inner)
            if tag == "$dict":
                return {self.decode(k): self.decode(v) for k, v in inner}
            if tag == "$card":
                return Card.parse(inner)
            if tag == "$rank":
                return Rank(inner)
            if tag == "$suit":
                return next(s for s in Suit if s.code == inner)
            if tag == "$move":
                return Move(inner[0], tuple(inner[1]))
            if tag == "$deck":
                return Deck((Card.parse(c) for c in inner[0]), [Rank(r) for r in inner[1]])
            if tag == "$ref":
                return ObjectProxy(self, inner[1], ref=inner[0])
        except (CardError, DeckError, ValueError, StopIteration, TypeError):
            raise ProtocolError(f"the worker answered a {tag} that is not one: {str(inner)[:60]}") from None
        raise ProtocolError(f"the worker answered an unexpected {tag}")


class LocalTransport(Connection):
    """Serves requests with a :class:`~solitaire_ds.course.grader.worker.Worker` in this
    process (no adversary here), through the same encoding as a pipe.

    >>> conn = LocalTransport("solitaire_ds")
    >>> stack = ModuleProxy(conn, "structures.array_stack").ArrayStack([1, 2])
    >>> stack.pop(), len(stack), list(stack), repr(stack)
    (2, 1, [1], 'ArrayStack([1])')
    """

    def __init__(self, impl: str | Path) -> None:
        super().__init__()
        from solitaire_ds.course.grader.worker import Worker

        self.worker = Worker(impl, self._ask)

    def exchange(self, request: Request) -> Reply:
        reply = self.worker.handle(request)  # the judge's own request: no need to re-read it
        return Reply.from_line(reply.to_line(), request.id, request.batch, is_batch=request.op == "batch")

    def _ask(self, call: Callback) -> Answer:
        """The worker's callback, answered as over a pipe (the same lines both ways)."""
        return Answer.from_line(self.answer(Callback.from_line(call.to_line())).to_line())


class Iteration:
    """An iterable that is not a list: its items, once, the way a generator gives them.

    Sent to a worker it becomes an iterator there (a generator itself cannot cross).

    >>> list(Iteration([1, 2]))
    [1, 2]
    """

    def __init__(self, items: Sequence[Any]) -> None:
        self.items = list(items)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.items)

    def __repr__(self) -> str:
        return f"(x for x in {self.items!r})"


def is_proxy(value: object) -> bool:
    """Return whether ``value`` stands for an object kept in a worker."""
    return isinstance(value, (ObjectProxy, ModuleProxy))


def shown(value: object) -> str:
    """Return ``value`` for a message: ``repr`` of plain data, the class of a kept object.

    A kept object is never asked for its ``repr`` here: a message must not depend on what
    the student's code says about itself ("pop() returned a Weird object, expected 2").

    >>> shown([1, "a"]), shown(ObjectProxy(LocalTransport("solitaire_ds"), "Weird", ref=9))
    ("[1, 'a']", 'a Weird object')
    """
    if isinstance(value, ObjectProxy):
        name = value._class
        return f"an {name} object" if name[:1].lower() in "aeiou" else f"a {name} object"
    return repr(value)


class ModuleProxy:
    """One of the student's modules (or, with ``package``, the package's own) in the worker.

    Reading an attribute asks for it: plain data comes back as itself, anything else (a
    class, a function) as an :class:`ObjectProxy` found again by name after a restart.
    """

    def __init__(self, connection: Connection, module: str, package: bool = False) -> None:
        self._connection = connection
        self._module = module
        self._package = package

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        target = Target(module=self._module, package=self._package, path=(name,))
        value = self._connection.ask("get", target)
        if isinstance(value, ObjectProxy):
            return ObjectProxy(self._connection, value._class, origin=target)
        return value

    def __repr__(self) -> str:
        return f"<{'the package' if self._package else 'the student'}'s {self._module} in the worker>"


class ObjectProxy:
    """An object kept in the worker: its number (or the path it is found by) and class name."""

    #: Names read in the judge itself, never asked for.
    _OWN: ClassVar[frozenset[str]] = frozenset({"_connection", "_class", "_ref", "_origin", "_generation"})

    def __init__(self, connection: Connection, class_name: str, *, ref: int | None = None,
                 origin: Target | None = None) -> None:
        object.__setattr__(self, "_connection", connection)
        object.__setattr__(self, "_class", class_name)
        object.__setattr__(self, "_ref", ref)
        object.__setattr__(self, "_origin", origin)
        object.__setattr__(self, "_generation", connection.generation)

    # -- where it is ---------------------------------------------------------------------

    def _target(self, *path: str) -> Target:
        if self._origin is not None:
            return Target(module=self._origin.module, package=self._origin.package,
                          path=(*self._origin.path, *path))
        if self._generation != self._connection.generation:
            raise WorkerStopped(f"this {self._class} was made by a worker that has stopped")
        return Target(ref=self._ref, path=path)

    def _ref_for(self, connection: Connection) -> int:
        if connection is not self._connection:
            raise TypeError("an object of one worker cannot be sent to another")
        if self._origin is not None:  # a class or function found by name: fetch a number for it
            fetched = connection.ask("get", self._target())
            assert isinstance(fetched, ObjectProxy) and fetched._ref is not None
            return int(fetched._ref)
        self._target()  # raises if the worker changed
        assert self._ref is not None
        return int(self._ref)

    def _ask(self, op: str, *args: Any, name: str = "", path: tuple[str, ...] = (), **kwargs: Any) -> Any:
        return self._connection.ask(op, self._target(*path), name, args, kwargs)

    # -- what a test does with it ----------------------------------------------------------

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        if (self._class, name) in self._connection.methods:
            return _Method(self, name)
        value = self._ask("get", path=(name,))
        if isinstance(value, ObjectProxy):
            if value._class in ("method", "builtin_function_or_method", "method-wrapper"):
                self._connection.methods.add((self._class, name))
                return _Method(self, name)
            if self._origin is not None:
                return ObjectProxy(self._connection, value._class, origin=self._target(name))
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        raise TypeError(f"a test does not change a {self._class}'s attributes")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._ask("call", *args, **kwargs)

    def __len__(self) -> int:
        value = self._ask("len")
        if type(value) is not int:
            raise TypeError(f"len() of a {self._class} answered {shown(value)}, not a number")
        return value

    def __bool__(self) -> bool:
        value = self._ask("bool")
        if type(value) is not bool:
            raise TypeError(f"bool() of a {self._class} answered {shown(value)}")
        return value

    def __iter__(self) -> Iterator[Any]:
        values = self._ask("list")
        if type(values) is not list:
            raise TypeError(f"iterating a {self._class} answered {shown(values)}")
        return iter(values)

    def __repr__(self) -> str:
        return str(self._ask("repr"))

    def __str__(self) -> str:
        return str(self._ask("str"))

    def __eq__(self, other: object) -> bool:
        return self is other  # never the student's __eq__: see equal()

    def __hash__(self) -> int:
        return id(self)

    @property
    def __name__(self) -> str:  # a class proxy answers its name, as the class would
        name = self._ask("get", path=("__name__",))
        return name if isinstance(name, str) else self._class


class _Method:
    """A method of a kept object: calling it is one request."""

    def __init__(self, owner: ObjectProxy, name: str) -> None:
        self.owner = owner
        self.name = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.owner._ask("method", *args, name=self.name, **kwargs)

    def __repr__(self) -> str:
        return f"<method {self.name} of a {self.owner._class}>"


def drive(obj: Any, step: str, until: str, limit: int) -> int:
    """Call ``obj.step()`` until ``obj.until()`` is true, at most ``limit`` times; return how
    many calls it took (``limit`` if it never ended). For a kept object, one request.

    >>> conn = LocalTransport("solitaire_ds")
    >>> stack = ModuleProxy(conn, "structures.array_stack").ArrayStack([1, 2, 3])
    >>> drive(stack, "pop", "is_empty", 10), len(stack)
    (3, 0)
    """
    if isinstance(obj, ObjectProxy):
        done = obj._ask("drive", until, limit, name=step)
        if type(done) is not int:
            raise TypeError(f"driving a {obj._class} answered {shown(done)}")
        return done
    for done in range(limit):
        if getattr(obj, until)():
            return done
        getattr(obj, step)()
    return limit


def equal(a: Any, b: Any) -> bool:
    """Return ``a == b`` as the student's code says it (asked of ``a`` in the worker).

    Plain values compare here; a kept object is asked in the worker, and its answer must
    be a bool. Use it where a test means the student's own ``__eq__``.

    >>> conn = LocalTransport("solitaire_ds")
    >>> make = ModuleProxy(conn, "structures.array_stack").ArrayStack
    >>> equal(make([1, 2]), make([1, 2])), equal(make([1, 2]), [1, 2]), make([1]) == make([1])
    (True, False, False)
    """
    if not isinstance(a, ObjectProxy):
        if isinstance(b, ObjectProxy):
            return equal(b, a)
        return bool(a == b)
    answer = a._ask("eq", b)
    if type(answer) is not bool:
        raise TypeError(f"== answered {shown(answer)}")
    return answer


# -- the impl the contract tests receive ----------------------------------------------------


class Submission(str):
    """An implementation under test, reached through connections (see the module)."""

    def connection(self) -> Connection:
        """Return the connection requests for the code under test go through now."""
        raise NotImplementedError

    def module(self, name: str) -> ModuleProxy:
        """Return the student's module ``name`` ("structures.array_stack")."""
        return ModuleProxy(self.connection(), name)

    def package(self, name: str) -> ModuleProxy:
        """Return the package's own module ``name`` as the worker has it (the game a solver
        is asked about, say)."""
        return ModuleProxy(self.connection(), name, package=True)

    def source(self, name: str) -> str | None:
        """Return the text of the student's file for module ``name``, or None."""
        raise NotImplementedError

    def new_list(self, items: list[Any]) -> ObjectProxy:
        """Return a list made in the worker, which the student's code may change in place
        (``list(proxy)`` reads it back)."""
        made = self.connection().ask("new", None, "list", (items,))
        assert isinstance(made, ObjectProxy)
        return made

    def randrange_only(self, seed: int) -> RandrangeSource:
        """Return the judge's random source seeded with ``seed`` (its ``draws`` count the calls),
        with a stand-in in the worker that offers ``randrange`` only (see :class:`RandrangeSource`)."""
        connection = self.connection()
        source = RandrangeSource(seed)
        made = connection.ask("new", None, "rng", (connection.sources.register(source),))
        assert isinstance(made, ObjectProxy)
        source.stub = made
        return source


class LocalSubmission(Submission):
    """``--impl`` served in this process: the repository's own runs and the practice pages.

    >>> impl = LocalSubmission("solitaire_ds")
    >>> impl.module("structures.linked_stack").LinkedStack([1]).peek()
    1
    """

    _transport: LocalTransport

    def __new__(cls, impl: str) -> LocalSubmission:
        made = super().__new__(cls, impl)
        made._transport = LocalTransport(_resolved(impl))
        return made

    def connection(self) -> Connection:
        return self._transport

    def source(self, name: str) -> str | None:
        folder = _resolved(str(self))
        from solitaire_ds.course.catalog import REPO_ROOT

        base = REPO_ROOT / "solitaire_ds" if folder == "solitaire_ds" else Path(folder)
        path = base / (name.replace(".", "/") + ".py")
        try:
            return path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None


def _resolved(impl: str) -> str:
    from solitaire_ds.course.catalog import resolve_impl

    where = resolve_impl(impl)
    return str(where)

