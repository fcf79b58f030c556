"""The judge: the pytest plugin that runs the contract tests and decides every verdict.

Invariant: the judge's process never imports a student's file and never runs a line of
a student's code. The contract tests (and the instructor's own) run here, with
Hypothesis, against proxies (:mod:`solitaire_ds.course.grader.proxy`); every request
goes to the exercise's worker (:mod:`solitaire_ds.course.grader.connection`), and every
verdict is computed here from the plain data it answers. So no object of the judge --
this plugin's state, pytest's reports, the results file -- is within the student's
reach, however well the student knows Python's internals.

The plugin keeps its state in a :class:`Judge` registered in ``pytest_configure`` and
reached through ``config.stash`` (as pytest's own ``junitxml`` plugin does). It is
configured by one JSON file (``--grader-config``, written by the runner or by the
practice pages): which exercises, the limits, how to start a worker (or, for the
practice pages, to serve requests in this process), and where to write its report --
one :class:`~solitaire_ds.course.grader.events.Event` per line: the tests collected,
each exercise begun or broken, each test's result, the end.

Each test starts with ``random.seed(0)`` and Hypothesis's ``grading`` profile
(derandomized, no example database, no deadline, no health checks), so a submission gets
the same verdicts on every run and machine.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
import signal
import time
import traceback
from collections.abc import Generator
from pathlib import Path
from typing import IO, Any

import pytest

from solitaire_ds.course.catalog import EXERCISES, Exercise, exercise
from solitaire_ds.course.contracts.plain import ExerciseStops
from solitaire_ds.course.grader.connection import Budget, WorkerConnection, WorkerSpec
from solitaire_ds.course.grader.events import Event
from solitaire_ds.course.grader.messages import Target
from solitaire_ds.course.grader.plan import JudgeConfig, exercise_number, test_name
from solitaire_ds.course.grader.proxy import (
    Connection,
    LocalSubmission,
    RemoteError,
    Submission,
    WorkerStopped,
)
from solitaire_ds.course.grader.sandbox import python_executable
from solitaire_ds.course.grader.walls import Wall
from solitaire_ds.course.results import Limits
from solitaire_ds.text import safe_text

__all__ = ["JUDGE", "Judge", "JudgeConfig", "active", "exercise_number", "test_name"]

_MESSAGE_LIMIT = 64_000


class _RemoteSubmission(Submission):
    """The ``impl`` of a grading run: each request goes to the running exercise's worker."""

    judge: Judge

    def __new__(cls, judge: Judge) -> _RemoteSubmission:
        made = super().__new__(cls, "the submission")
        made.judge = judge
        return made

    def connection(self) -> Connection:
        return self.judge.connection()

    def source(self, name: str) -> str | None:
        path = self.judge.config.submission / (name.replace(".", "/") + ".py")
        try:
            return path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None


class Judge:
    """The judge's state for one pytest run: the workers, the exercise in progress, the report."""

    def __init__(self, config: JudgeConfig) -> None:
        self.config = config
        self.limits = config.limits
        self.wall = Wall.from_json(config.wall) if config.wall else Wall("none")
        # the events go to the runner's pipe (a grading run) or to a file (the practice pages)
        self._out: IO[bytes] = (os.fdopen(config.events_fd, "wb") if config.events_fd >= 0
                                else open(config.results, "ab"))  # noqa: SIM115 - open for the whole run
        self.budget = Budget(config.limits.submission_seconds, wall=config.limits.submission_wall_seconds)
        self.connections: dict[int, Connection] = {}
        self.current: int | None = None
        self.broken: dict[int, str] = {}
        self.failed: set[int] = set()
        self.not_run: set[str] = set()  # nodeids skipped: their exercise cannot go on
        self.ids: dict[str, str] = {}  # nodeid -> the id reported (see report_id)
        self.outcomes: dict[str, str] = {}  # nodeid -> first failure message
        self.passed_call: set[str] = set()
        self.cpu_at_start: dict[str, float] = {}
        self.submission: Submission = (LocalSubmission(config.impl) if config.transport == "local"
                                       else _RemoteSubmission(self))

    # -- the report ---------------------------------------------------------------------

    def emit(self, event: Event) -> None:
        if event.message:  # made safe where the worker's text entered; once more, on the way out
            event = dataclasses.replace(event, message=safe_text(event.message, 4 * _MESSAGE_LIMIT))
        self._out.write(event.to_line())
        self._out.flush()

    def close(self) -> None:
        for connection in self.connections.values():
            if isinstance(connection, WorkerConnection):
                connection.close()
        workers = {n: c for n, c in self.connections.items() if isinstance(c, WorkerConnection)}
        own = time.process_time()  # this process alone: the workers it waited for are in cpus
        with contextlib.suppress(OSError):  # a runner that has stopped reading: nobody to tell
            self.emit(Event("end", cpus={n: c.cpu() for n, c in workers.items()},
                            walls={n: c.waited() for n, c in workers.items()}, cpu=own))
            self._out.close()

    # -- workers ------------------------------------------------------------------------

    def connection(self, number: int | None = None) -> Connection:
        """Return the connection of exercise ``number`` (the one in progress by default)."""
        number = self.current if number is None else number
        if number is None:
            raise RuntimeError("no exercise is in progress")
        if self.config.transport == "local":
            return self.submission.connection()
        if number not in self.connections:
            config = self.config
            spec = WorkerSpec(self.wall.python or python_executable(), config.code[number], config.shown[number],
                              config.scratch[number], self.wall.sandbox(), config.users.get(number),
                              config.logs if config.logs != Path() else None, self.wall.cgroup or not config.wall)
            self.connections[number] = WorkerConnection(spec, self.limits, self.budget, name=f"ex{number:02d}")
        return self.connections[number]

    def begin_exercise(self, number: int) -> None:
        """Start exercise ``number``: the previous one's worker stops; its file is imported."""
        if self.current is not None and self.current in self.connections:
            previous = self.connections[self.current]
            if isinstance(previous, WorkerConnection):
                previous.close()
        self.current = number
        self.emit(Event("begin", exercise=number))
        used_up = self.budget.exhausted() if self.config.transport != "local" else ""
        reason = f"not run: {used_up}" if used_up else self._import_check(exercise(number))
        self.prestart(number + 1)
        if reason:
            self.broken[number] = reason
            self.emit(Event("broken", exercise=number, message=reason))

    def prestart(self, after: int) -> None:
        """Start the worker of the first exercise from ``after`` on, so that it boots meanwhile."""
        later = sorted(n for n in self.config.code if n >= after)
        if later and self.config.transport != "local":
            connection = self.connection(later[0])
            if isinstance(connection, WorkerConnection):
                connection.prestart()

    def _import_check(self, ex: Exercise) -> str:
        """Import exercise ``ex``'s file in its worker; return why it cannot be graded, or ''."""
        connection = self.connection(ex.number)
        if isinstance(connection, WorkerConnection):
            connection.begin_test()
        try:
            answer = connection.ask("import", Target(module=ex.module), args=self.config.graded.get(ex.number, []))
        except WorkerStopped as stop:
            return _import_stopped(ex.relpath, stop.message, self.limits)
        except RemoteError as error:
            return _import_failed(ex.relpath, error)
        return not_its_own(answer, self.config.graded.get(ex.number, []), ex.relpath)


    def finish(self, nodeid: str, number: int | None) -> None:
        """Write test ``nodeid``'s result; its worker forgets the objects it made for it."""
        if number is None:
            return
        ok = nodeid in self.passed_call and nodeid not in self.outcomes
        message = self.outcomes.get(nodeid, "" if ok else "failed")
        if nodeid in self.not_run:
            self.emit(Event("result", id=self.ids.get(nodeid, nodeid), exercise=number, ok=False, ran=False,
                            message=message))
            return
        if not ok:
            self.failed.add(number)
        connection = self.connection(number)
        worker = connection if isinstance(connection, WorkerConnection) else None
        self.emit(Event("result", id=self.ids.get(nodeid, nodeid), exercise=number, ok=ok, ran=True,
                        message=message, cpu=worker.test_cpu() if worker else 0.0,
                        wall=worker.longest_call if worker else 0.0))
        with contextlib.suppress(WorkerStopped, RemoteError):
            connection.forget()


def _import_stopped(relpath: str, message: str, limits: Limits) -> str:
    if "CPU time (an infinite loop" in message:
        return f"{relpath} takes more than {limits.test_seconds:g} s to import (an infinite loop?)"
    if "no CPU time used" in message:
        return f"{relpath} waits {limits.stall_seconds:g} s while being imported (does it sleep?)"
    if "on the wall clock" in message:
        return f"{relpath} takes more than {limits.call_wall_seconds:g} s to import on the wall clock (does it wait?)"
    if message.startswith(("ran out of", "kept the grader waiting")):
        return f"{message} before its tests started"
    return f"{relpath} does not import: {message}"


def _import_failed(relpath: str, error: RemoteError) -> str:
    raised = error.raised
    if "SystemExit" in raised.kinds:
        return f"{relpath} calls sys.exit({raised.code!r}) while being imported"
    if raised.errno == 27:  # EFBIG: past the output limit
        return f"{relpath} does not import: it prints or writes too much output"
    line = f" (line {raised.where.line})" if raised.where is not None else ""
    first = (raised.message.splitlines() or [""])[0]
    text = f"{raised.type}: {first}" if first else raised.type
    return f"{relpath} does not import: {_shorten(text, 300)}{line}"


def not_its_own(answer: Any, names: list[str], relpath: str) -> str:
    """Return why a graded name of the imported module is not the student's own work, or ''.

    ``answer`` is the worker's answer to ``import``: the module's name and, for each
    graded name, the module and name it was defined with and its base classes. Each must
    be defined in the student's file: not imported, not an alias, and (for a class) not
    built on a class of an exercise module.

    >>> not_its_own({"module": "m", "names": {"S": {"module": "solitaire_ds.x", "name": "S", "bases": []}}},
    ...             ["S"], "x.py")
    'S must be written in x.py, not taken from solitaire_ds.x'
    """
    if not isinstance(answer, dict) or not isinstance(answer.get("names"), dict):
        return f"{relpath}: the worker's answer about its names is not readable"
    own = answer.get("module")
    exercise_modules = {f"solitaire_ds.{ex.module}" for ex in EXERCISES}
    for name in names:
        info = answer["names"].get(name)
        if not isinstance(info, dict):
            return f"{relpath} defines no {name}"
        origin = info.get("module")
        if origin != own or info.get("name") != name:
            where = origin if isinstance(origin, str) and not origin.startswith("_impl_") else "another file"
            return f"{name} must be written in {relpath}, not taken from {where}"
        for base in info.get("bases", []):
            if not (isinstance(base, list) and len(base) == 2):
                continue
            module, qualname = str(base[0]), str(base[1])
            theirs = module in exercise_modules or module.startswith("_impl_")
            if theirs and module != own:
                return f"{name} must be written in {relpath}, not built on {module}.{qualname}"
    return ""


#: Where the judge keeps its state (``config.stash[JUDGE]``).
JUDGE = pytest.StashKey[Judge]()


def report_id(item: pytest.Item) -> str:
    """The id a test is reported by: pytest's, except that an instructor's test file (which
    lies outside the package, where pytest may name it by nothing) is ``instructor/<name>``."""
    if item.path.parent.name == "instructor":
        _, _, rest = item.nodeid.partition("::")
        return f"instructor/{item.path.name}::{rest}"
    return item.nodeid


def active(config: pytest.Config) -> Judge | None:
    """Return the judge of this pytest run, or None when the run is not a grading run."""
    return config.stash.get(JUDGE, None)


# -- hooks ----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def impl(request: pytest.FixtureRequest) -> Submission:
    """The code under test, for the instructor's own test files too (which lie outside the
    package and its conftest): requests for it go to the exercise's worker."""
    judge = active(request.config)
    if judge is None:
        raise pytest.UsageError("the impl fixture of the judge needs --grader-config")
    return judge.submission


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--grader-config", default=None, help="the judge's configuration (written by the grader)")


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("--grader-config", None)
    if not path:
        return
    _load_hypothesis_profile()
    judge = Judge(JudgeConfig.read(Path(path)))
    config.stash[JUDGE] = judge
    if judge.config.transport == "pipe":
        _keep_to_itself()
    judge.prestart(1)  # the first worker boots while pytest collects


def _keep_to_itself() -> None:
    """Make this judge process unreadable to other processes of its user (no ``/proc/PID/fd``,
    no ptrace), and make SIGTERM end the run the way Ctrl-C does: pytest unwinds, and
    :func:`pytest_unconfigure` stops every worker, sweeps its user id and removes its cgroup."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, 0

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, interrupt)


def pytest_unconfigure(config: pytest.Config) -> None:
    judge = active(config)
    if judge is not None:
        judge.close()
        del config.stash[JUDGE]


def _load_hypothesis_profile() -> None:
    """Register and load the ``grading`` profile: the same examples on every run, and wherever
    the package is installed (see :func:`_no_local_constants`)."""
    from hypothesis import HealthCheck, settings

    settings.register_profile("grading", derandomize=True, database=None, deadline=None, print_blob=False,
                              suppress_health_check=list(HealthCheck))
    settings.load_profile("grading")
    _no_local_constants()


def _no_local_constants() -> None:
    """Let Hypothesis draw no constant mined from "local" source files.

    Hypothesis reads the source of every imported module it counts as local (one outside
    ``site-packages``: this package, in an editable checkout) and now and then draws one of
    its constants as an example. So a checkout and a wheel install, the same code, generated
    different examples: a buggy submission got another failing example, so another message,
    from an instructor's checkout than from Gradescope. The judge mines none, as Hypothesis
    itself mines none in a browser: the same examples wherever it runs. (Hypothesis offers no
    setting for it; the grading extra pins its version, and the grader's tests compare a
    checkout's grades with a wheel's, so a change of this private name fails there.)
    """
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:  # pragma: no cover - a Hypothesis that does not mine constants
        return
    if hasattr(providers, "_get_local_constants"):
        providers._get_local_constants = Constants  # an empty set of constants, every time


def pytest_collection_finish(session: pytest.Session) -> None:
    judge = active(session.config)
    if judge is not None:
        judge.ids = {item.nodeid: report_id(item) for item in session.items}
        judge.emit(Event("collected", ids=tuple(judge.ids.values())))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """Begin each exercise with its import check; skip the tests of an exercise that cannot go on."""
    judge = active(item.config)
    if judge is None:
        return None
    number = exercise_number(item.path)
    if number is None:
        return None
    if number != judge.current:
        judge.begin_exercise(number)
    connection = judge.connection(number)
    exhausted = connection.exhausted if isinstance(connection, WorkerConnection) else ""
    why = (judge.broken.get(number) or (f"not run: the exercise {exhausted}" if exhausted else "")
           or ("not run: the exercise already failed a test" if judge.limits.fail_fast and number in judge.failed
               else ""))
    if why:
        # skipped through pytest's own protocol, so that fixtures are set up and torn down in order
        judge.outcomes[item.nodeid] = why
        judge.not_run.add(item.nodeid)
        item.add_marker(pytest.mark.skip(reason=why))
        return None
    random.seed(0)
    if isinstance(connection, WorkerConnection):
        connection.begin_test()
    return None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Keep each test's first failure in plain words; a stopped worker fails the test."""
    report = yield
    judge = active(item.config)
    if judge is None:
        return report
    stopped = _stopped_in(call.excinfo.value) if call.excinfo is not None else None
    if stopped is not None:
        report.outcome = "failed"
        report.longrepr = stopped.message
        judge.outcomes.setdefault(item.nodeid, stopped.message)
    if report.failed and item.nodeid not in judge.outcomes:
        judge.outcomes[item.nodeid] = (describe(call.excinfo.value) if call.excinfo is not None
                                       else _shorten(str(report.longrepr)))
        number = exercise_number(item.path)
        if call.excinfo is not None and isinstance(call.excinfo.value, ExerciseStops) and number is not None:
            judge.broken.setdefault(number, f"not run: {judge.outcomes[item.nodeid]}")
    if report.when == "call" and report.passed:
        judge.passed_call.add(item.nodeid)
    if report.when == "teardown":
        judge.finish(item.nodeid, exercise_number(item.path))
    return report


# -- messages -----------------------------------------------------------------------------


def _stopped_in(exc: BaseException | None) -> WorkerStopped | None:
    """Return the worker stop that ``exc`` is, or wraps."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, WorkerStopped):
            return exc
        if isinstance(exc, BaseExceptionGroup) and exc.exceptions:
            exc = exc.exceptions[0]
        else:
            exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


def describe(exc: BaseException) -> str:
    """Return a failure message: the assertion's own words, or the exception, and where it surfaced.

    The place is the innermost frame of the student's file the worker reported
    (``(in structures/array_stack.py, line 42, in pop)``).
    """
    if isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if type(exc).__name__ == "_WrappedBaseException" and exc.__cause__ is not None:
        exc = exc.__cause__
    text = _safe_str(exc)
    remote = _remote_in(exc)
    if remote is not None and remote.raised.errno == 27:
        return "the code prints or writes too much output"
    if isinstance(exc, RecursionError) or (remote is not None and "RecursionError" in remote.raised.kinds
                                           and remote is exc):
        text = "RecursionError: maximum recursion depth exceeded (a runaway recursion?)"
    elif isinstance(exc, MemoryError) or (remote is not None and "MemoryError" in remote.raised.kinds):
        text = "MemoryError: the code used more memory than the grader allows"
    elif isinstance(exc, AssertionError) and not text:
        frames = traceback.extract_tb(exc.__traceback__)
        line = (frames[-1].line or "").strip() if frames else ""
        text = f"AssertionError: {line}" if line else "AssertionError"
    elif not isinstance(exc, AssertionError):
        text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    notes = [_safe_str(note) for note in getattr(exc, "__notes__", [])]
    where = f"\n({remote.where})" if remote is not None and remote.where else ""
    return _shorten("\n".join([text, *notes]).strip() + where)


def _remote_in(exc: BaseException | None) -> RemoteError | None:
    seen = 0
    while exc is not None and seen < 6:
        if isinstance(exc, RemoteError):
            return exc
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


def _safe_str(obj: object) -> str:
    try:
        return str(obj)[: _MESSAGE_LIMIT * 4]
    except Exception:
        return f"<{type(obj).__name__} that cannot be shown>"


def _shorten(text: str, limit: int = _MESSAGE_LIMIT) -> str:
    """Return ``text`` cut to ``limit`` characters and 1,000 lines (a bound, not a summary)."""
    lines = text.splitlines()
    if len(lines) > 1000:
        lines = [*lines[:1000], f"... ({len(lines) - 1000} more lines)"]
    text = "\n".join(lines)
    return text if len(text) <= limit else text[: limit - 3] + "..."
