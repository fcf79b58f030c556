"""The pytest plugin the grader loads into the child process that runs a submission.

Invariant: every line the plugin writes to the results file is a JSON object signed
with an HMAC whose key only the grader and this plugin know; the grader ignores any line
whose signature does not match. The key arrives through a pipe that the plugin reads
and closes as soon as it is imported, before any submission code runs (the pipe's number,
and the results file's path, in environment variables it removes), so nothing a
submission prints or writes can change its grade, nor another's graded beside it. Code
that reaches into this plugin's objects in memory is beyond this, as it is for any test
runner that runs the tested code in its own process: the grader notes a submission that
names such machinery (see the runner), and an OS sandbox is the answer for a hostile class.

Events, in order: ``collected`` (reference run: the test ids), then for each exercise
``begin`` (its number), optionally ``import_failed`` (a one-line reason), one ``test``
line as each test starts, one ``result`` line as it ends; finally ``end``.

The plugin also loads the Hypothesis profile ``grading`` (derandomized, no example
database, no deadline, no health checks), so a submission gets the same score on every
run and machine.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import json
import os
import random
import re
import signal
import time
import traceback
from collections.abc import Generator, Iterator
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

import pytest
from _pytest.outcomes import Skipped

__all__ = [
    "ENV_FAIL_FAST",
    "ENV_FLAG",
    "ENV_GRADED",
    "ENV_KEY",
    "ENV_RESULTS",
    "ENV_TEST_SECONDS",
    "WALL_FACTOR",
    "exercise_number",
    "recording",
    "sign",
    "test_name",
]

#: Set to "1" in the child: load the deterministic Hypothesis profile.
ENV_FLAG = "SOLITAIRE_DS_GRADING"
#: The file descriptor of the open results file (removed from the environment on import).
ENV_RESULTS = "SOLITAIRE_DS_GRADING_RESULTS"
#: The classes and functions the submission must define in its own file, comma-separated.
ENV_GRADED = "SOLITAIRE_DS_GRADING_GRADED"
#: The file descriptor of a pipe holding the hex key that signs each results line (read on import).
ENV_KEY = "SOLITAIRE_DS_GRADING_KEY"
#: Set to "1": stop an exercise at its first failing test (the bug zoo only needs one).
ENV_FAIL_FAST = "SOLITAIRE_DS_GRADING_FAIL_FAST"
#: Seconds each test may take (setup, call and teardown together).
ENV_TEST_SECONDS = "SOLITAIRE_DS_GRADING_TEST_SECONDS"

_MESSAGE_LIMIT = 64_000  # characters of a failure's message: whole for feedback, bounded for the file
#: A test may take this many times its CPU limit on the wall clock (a busy machine).
WALL_FACTOR = 6
_FILE_PATTERN = re.compile(r"test_ex(\d+)_")


def exercise_number(path: str | Path) -> int | None:
    """Return the exercise number of a contract test file, from its name.

    >>> exercise_number("solitaire_ds/course/contracts/test_ex03_array_queue.py")
    3
    >>> exercise_number("tests/test_cards.py") is None
    True
    """
    found = _FILE_PATTERN.match(Path(path).name)
    return int(found.group(1)) if found else None


def test_name(test_id: str) -> str:
    """Return the name a test is reported by: its id without the contract file.

    An instructor's own test (see :mod:`solitaire_ds.course.config`) keeps its file's name.

    >>> test_name("solitaire_ds/course/contracts/test_ex01_array_stack.py::TestArrayStack::test_len")
    'TestArrayStack::test_len'
    >>> test_name("solitaire_ds/course/contracts/instructor/test_ex01_more.py::test_many")
    'instructor/test_ex01_more.py::test_many'
    """
    file, _, rest = test_id.partition("::")
    parts = file.replace("\\", "/").split("/")
    if len(parts) >= 2 and parts[-2] == "instructor":
        return f"instructor/{parts[-1]}::{rest}"
    return rest


def sign(key: bytes, payload: str) -> str:
    """Return the HMAC of ``payload`` under ``key`` (hex).

    >>> len(sign(b"k", "{}"))
    64
    """
    return hmac.new(key, payload.encode(), hashlib.sha256).hexdigest()


def _load_hypothesis_profile() -> None:
    """Register and load the ``grading`` profile: the same examples on every run."""
    from hypothesis import HealthCheck, settings

    settings.register_profile(
        "grading",
        derandomize=True,
        database=None,
        deadline=None,
        print_blob=False,
        suppress_health_check=list(HealthCheck),
    )
    settings.load_profile("grading")


class _Recorder:
    """Writes signed events; remembers the exercise in progress and the failures."""

    def __init__(self, fd: int, key: bytes, graded: list[str]) -> None:
        self._out: TextIO = os.fdopen(fd, "a", encoding="utf-8")
        self.graded = graded
        self._key = key
        self.current: int | None = None
        self.broken: dict[int, str] = {}  # exercise -> why its tests are not run
        self.failed: dict[str, str] = {}  # nodeid -> first failure message
        self.call_passed: set[str] = set()
        self.fail_fast = os.environ.get(ENV_FAIL_FAST) == "1"
        self.test_seconds = float(os.environ.get(ENV_TEST_SECONDS, "10"))
        self.failed_exercises: set[int] = set()

    def emit(self, **event: Any) -> None:
        payload = json.dumps(event, sort_keys=True)
        self._out.write(json.dumps({"p": payload, "mac": sign(self._key, payload)}) + "\n")
        self._out.flush()


_RECORDER: _Recorder | None = None

@contextlib.contextmanager
def recording(fd: int, key: bytes, graded: list[str]) -> Iterator[None]:
    """Record the tests run in this very process, as a child's plugin does, into the open file ``fd``.

    For a run without a child (the practice pages, where Python runs in a browser tab):
    the same profile, seed and signed events; ``fd`` is closed at the end. The limits come
    from the environment (:data:`ENV_TEST_SECONDS`, :data:`ENV_FAIL_FAST`), as in a child.
    """
    global _RECORDER
    _load_hypothesis_profile()
    random.seed(0)
    _RECORDER = recorder = _Recorder(fd, key, graded)
    try:
        yield
    finally:
        _RECORDER = None
        recorder._out.close()


if os.environ.get(ENV_FLAG) == "1":
    _load_hypothesis_profile()
    random.seed(0)
    _results_fd = os.environ.pop(ENV_RESULTS, "")
    _key_fd = os.environ.pop(ENV_KEY, "")
    _graded = [name for name in os.environ.pop(ENV_GRADED, "").split(",") if name]
    if _results_fd and _key_fd:
        with os.fdopen(int(_key_fd), "rb") as _pipe:
            _RECORDER = _Recorder(int(_results_fd), bytes.fromhex(_pipe.read().decode("ascii")), _graded)
    del _results_fd, _key_fd, _graded


def pytest_collectreport(report: pytest.CollectReport) -> None:
    """Record a contract file that does not collect."""
    if _RECORDER is not None and report.failed:
        _RECORDER.emit(e="collect_error", file=report.nodeid, msg=_shorten(str(report.longrepr)))


def pytest_collection_finish(session: pytest.Session) -> None:
    """Record every collected test id (the reference run's denominators)."""
    if _RECORDER is not None:
        _RECORDER.emit(e="collected", ids=[item.nodeid for item in session.items])


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """Start each exercise with an import check; skip the tests of a broken exercise."""
    rec = _RECORDER
    if rec is None:
        return None
    number = exercise_number(item.path)
    if number is not None and number != rec.current:
        rec.current = number
        rec.emit(e="begin", ex=number)
        reason = _import_check(item.config, number)
        if reason:
            rec.broken[number] = reason
            rec.emit(e="import_failed", ex=number, reason=reason)
    if number in rec.broken or (rec.fail_fast and number in rec.failed_exercises):
        why = rec.broken.get(number or 0, "not run: the exercise already failed a test")
        rec.emit(e="result", id=item.nodeid, ex=number, ok=False, msg=why, run=False)
        return True
    rec.emit(e="test", id=item.nodeid)
    return None


class _TestTimeout(Skipped):
    """Raised by the per-test alarm.

    It derives from pytest's skip exception because Hypothesis re-raises that at once
    instead of shrinking (each shrinking run would loop again); the plugin turns the
    skip back into a failure when it makes the report.
    """


#: True while a test phase (setup, call or teardown) runs: the only time the alarm may raise.
_IN_PHASE = False


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    """Stop the running test; between phases (pytest's own reporting) do nothing.

    Raising inside pytest's machinery would end the whole run with an internal error;
    the alarm fires again a second later, by then inside the next phase.
    """
    if not _IN_PHASE:
        return
    limit = _RECORDER.test_seconds if _RECORDER is not None else 0
    if signum == signal.SIGALRM:
        raise _TestTimeout(
            f"the test took more than {WALL_FACTOR * limit:g} s of wall-clock time "
            "(does the code sleep or wait?)"
        )
    raise _TestTimeout(f"the test took more than {limit:g} s of CPU time (an infinite loop?)")


def _in_phase() -> Generator[None, None, None]:
    """The body of the three phase wrappers: let the alarm raise only inside the phase."""
    global _IN_PHASE
    _IN_PHASE = True
    try:
        yield
    finally:
        _IN_PHASE = False


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    """Mark the setup phase (the innermost wrapper: only fixtures and the test's code)."""
    return (yield from _in_phase())


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """Mark the call phase."""
    return (yield from _in_phase())


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    """Mark the teardown phase."""
    return (yield from _in_phase())


def pytest_runtest_logstart(nodeid: str, location: tuple[str, int | None, str]) -> None:
    """Arm the per-test alarms; each fires again every second until the test is over.

    The first counts the CPU time of the process (``ITIMER_PROF``), not the wall clock,
    so a busy machine does not fail a correct submission. The second counts the wall
    clock (``ITIMER_REAL``) with six times the room, for code that sleeps or waits
    without using the CPU.
    """
    if _RECORDER is not None:
        signal.signal(signal.SIGPROF, _on_alarm)
        signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_PROF, _RECORDER.test_seconds, 1.0)
        signal.setitimer(signal.ITIMER_REAL, WALL_FACTOR * _RECORDER.test_seconds, 1.0)


def pytest_runtest_logfinish(nodeid: str, location: tuple[str, int | None, str]) -> None:
    """Disarm the per-test alarms."""
    if _RECORDER is not None:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)


def _timeout_in(exc: BaseException | None) -> _TestTimeout | None:
    """Return the alarm's exception if ``exc`` is it or wraps it."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, _TestTimeout):
            return exc
        if isinstance(exc, BaseExceptionGroup) and exc.exceptions:
            exc = exc.exceptions[0]
        else:
            exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Keep the first failure's message in plain words."""
    report = yield
    rec = _RECORDER
    timeout = _timeout_in(call.excinfo.value) if call.excinfo is not None else None
    if rec is not None and timeout is not None:
        report.outcome = "failed"
        report.longrepr = str(timeout.msg)
        rec.failed.setdefault(item.nodeid, str(timeout.msg))
    if rec is not None and report.failed and item.nodeid not in rec.failed:
        if call.excinfo is not None:
            rec.failed[item.nodeid] = _describe(call.excinfo.value) + _where(call.excinfo.value, item.config)
        else:
            rec.failed[item.nodeid] = _shorten(str(report.longrepr))
    return report


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Write one ``result`` line per test, once its teardown is over."""
    rec = _RECORDER
    if rec is None:
        return
    if report.when == "call" and report.passed:
        rec.call_passed.add(report.nodeid)
    if report.when != "teardown":
        return
    ok = report.nodeid in rec.call_passed and report.nodeid not in rec.failed
    msg = rec.failed.get(report.nodeid, "")
    if not ok and not msg:
        msg = "skipped" if report.nodeid not in rec.call_passed else "failed"
    number = exercise_number(report.fspath)
    if not ok and number is not None:
        rec.failed_exercises.add(number)
    rec.emit(e="result", id=report.nodeid, ex=number, ok=ok, msg=msg, run=True, cpu=time.process_time())


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Write the ``end`` line: the run was complete."""
    if _RECORDER is not None:
        _RECORDER.emit(e="end", status=int(exitstatus), cpu=time.process_time())


class _ImportTimeout(BaseException):
    """Raised by the alarm when importing a submission's module takes too long."""


def _import_check(config: pytest.Config, number: int) -> str:
    """Import exercise ``number``'s module from ``--impl``; return why it fails, or ''."""
    from solitaire_ds.course.catalog import exercise, load_module

    ex = exercise(number)
    impl = str(config.getoption("--impl"))
    limit = _RECORDER.test_seconds if _RECORDER is not None else 10.0
    # Whatever the module prints goes to pytest's capture, not the child's own output.
    capture: Any = config.pluginmanager.getplugin("capturemanager")
    if capture is not None:
        capture.resume_global_capture()

    def _alarm(signum: int, frame: FrameType | None) -> None:
        raise _ImportTimeout(signum)

    previous = signal.signal(signal.SIGPROF, _alarm)
    previous_real = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_PROF, limit)
    signal.setitimer(signal.ITIMER_REAL, WALL_FACTOR * limit)
    try:
        module = load_module(impl, ex.module)
    except _ImportTimeout as exc:
        if exc.args and exc.args[0] == signal.SIGALRM:
            wall = WALL_FACTOR * limit
            return f"{ex.relpath} takes more than {wall:g} s of wall-clock time to import (does it sleep?)"
        return f"{ex.relpath} takes more than {limit:g} s to import (an infinite loop?)"
    except SystemExit as exc:
        return f"{ex.relpath} calls sys.exit({exc.code!r}) while being imported"
    except BaseException as exc:  # any failure is the submission's
        return f"{ex.relpath} does not import: {_one_line(exc, ex.relpath)}"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, previous)
        signal.signal(signal.SIGALRM, previous_real)
        if capture is not None:
            capture.suspend_global_capture()
            with contextlib.suppress(Exception):
                capture.read_global_capture()
    return _not_its_own(module, _RECORDER.graded if _RECORDER is not None else [], ex.relpath)


def _not_its_own(module: Any, names: list[str], relpath: str) -> str:
    """Return why a graded class or function of ``module`` is not the submission's own work, or ''.

    Each must be defined in the submission's file: not imported from elsewhere, not an
    alias of another object, and (for a class) not built on a class of an exercise module
    (which, in the grader's copy of the package, is the skeleton anyway).
    """
    from solitaire_ds.course.catalog import EXERCISES

    exercise_modules = {f"solitaire_ds.{ex.module}" for ex in EXERCISES}
    for name in names:
        obj = getattr(module, name, None)
        if obj is None:
            return f"{relpath} defines no {name}"
        origin = getattr(obj, "__module__", None)
        if origin != module.__name__ or getattr(obj, "__name__", None) != name:
            where = origin if isinstance(origin, str) and not origin.startswith("_impl_") else "another file"
            return f"{name} must be written in {relpath}, not taken from {where}"
        for base in getattr(obj, "__mro__", ())[1:]:
            theirs = base.__module__ in exercise_modules or base.__module__.startswith("_impl_")
            if theirs and base.__module__ != module.__name__:
                return f"{name} must be written in {relpath}, not built on {base.__module__}.{base.__qualname__}"
    return ""


def _one_line(exc: BaseException, relpath: str) -> str:
    """Return ``Type: message (line N)`` for an exception raised by a submission file."""
    if isinstance(exc, OSError) and exc.errno == errno.EFBIG:
        return "it prints or writes too much output"
    if isinstance(exc, SyntaxError):
        return f"SyntaxError: {exc.msg} (line {exc.lineno})"
    line = ""
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename.replace(os.sep, "/").endswith(relpath):
            line = f" (line {frame.lineno})"
    return _shorten(f"{type(exc).__name__}: {_safe_str(exc)}".splitlines()[0]) + line


def _where(exc: BaseException, config: pytest.Config) -> str:
    """Return where in the submission's own files the failure surfaced, or ''.

    The innermost frame of the traceback (or of its cause) that runs a file of the
    implementation under test: ``"\n(in structures/array_stack.py, line 42, in pop)"``.
    """
    impl = str(config.getoption("--impl"))
    if impl == "solitaire_ds":
        return ""
    root = os.path.realpath(impl) + os.sep
    seen = 0
    while exc is not None and seen < 5:
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if os.path.realpath(f.filename).startswith(root)]
        if frames:
            last = frames[-1]
            relpath = os.path.relpath(os.path.realpath(last.filename), root.rstrip(os.sep))
            return f"\n(in {relpath}, line {last.lineno}, in {last.name})"
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
        seen += 1
    return ""


def _describe(exc: BaseException) -> str:
    """Return a failure message: the assertion message and Hypothesis's steps."""
    if isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if type(exc).__name__ == "_WrappedBaseException" and exc.__cause__ is not None:
        exc = exc.__cause__
    text = _safe_str(exc)
    if isinstance(exc, OSError) and exc.errno == errno.EFBIG:
        return "the code prints or writes too much output"
    if isinstance(exc, SystemExit):
        return f"the code called sys.exit({exc.code!r})"
    if isinstance(exc, RecursionError):
        return "RecursionError: maximum recursion depth exceeded (a runaway recursion?)"
    if isinstance(exc, MemoryError):
        return "MemoryError: the code used more memory than the grader allows"
    if isinstance(exc, AssertionError) and not text:
        # A bare assert outside a test module (no rewriting): show the line that failed.
        frames = traceback.extract_tb(exc.__traceback__)
        line = (frames[-1].line or "").strip() if frames else ""
        text = f"AssertionError: {line}" if line else "AssertionError"
    elif not isinstance(exc, AssertionError):
        text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    notes = [_safe_str(note) for note in getattr(exc, "__notes__", [])]
    return _shorten("\n".join([text, *notes]).strip())


def _safe_str(obj: object) -> str:
    """Return ``str(obj)``, or a placeholder when that itself fails."""
    try:
        return str(obj)[: _MESSAGE_LIMIT * 4]
    except BaseException:  # a submission's __str__ may do anything
        return f"<{type(obj).__name__} that cannot be shown>"


def _shorten(text: str, limit: int = _MESSAGE_LIMIT) -> str:
    """Return ``text`` cut to ``limit`` characters and 1,000 lines (a bound, not a summary).

    Messages are kept whole up to there, so the feedback a student is handed shows every
    step; ``check`` shows the first lines of each, unless asked for all.
    """
    lines = text.splitlines()
    if len(lines) > 1000:
        lines = [*lines[:1000], f"... ({len(lines) - 1000} more lines)"]
    text = "\n".join(lines)
    return text if len(text) <= limit else text[: limit - 3] + "..."
