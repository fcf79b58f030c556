"""From the judge's report to scores: the events read back, and each exercise scored.

Invariant: nothing here trusts the report to be well formed -- a line that is not an event
is counted and skipped, a test with no result is "not run" -- so one student's judge run
can never stop a class's grading.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from solitaire_ds.course.catalog import Exercise
from solitaire_ds.course.config import Course
from solitaire_ds.course.grader.events import Event
from solitaire_ds.course.grader.messages import ProtocolError
from solitaire_ds.course.grader.plan import exercise_number, test_name
from solitaire_ds.course.results import ExerciseResult, Failure, Limits, TestOutcome

__all__ = ["JudgeRun", "collected_ids", "exercise_score", "last_line", "portable", "read_event_lines", "read_events"]


@dataclass
class JudgeRun:
    """What one judge process left: its events, its CPU time and the workers', how it ended."""

    events: list[Event]
    returncode: int | None
    cpu: float
    output: str
    timed_out: bool = False
    unreadable: int = 0


def read_events(path: Path) -> tuple[list[Event], int]:
    """Return the events of a judge's results file, and how many lines were not events.

    Never raises: a missing file is no events, an unreadable line is counted and skipped.
    """
    try:
        data = path.read_bytes()
    except OSError:
        return [], 0
    return read_event_lines(data)


def read_event_lines(data: bytes) -> tuple[list[Event], int]:
    """Return the events of a judge's report, and how many of its lines were not events.

    Never raises: an unreadable line is counted and skipped; a last line without its newline
    was cut short and is left out.

    >>> events, bad = read_event_lines(b'{"kind": "begin", "exercise": 1}\\nnot an event\\n{"kind"')
    >>> [(e.kind, e.exercise) for e in events], bad
    ([('begin', 1)], 1)
    """
    events: list[Event] = []
    bad = 0
    for line in data.split(b"\n")[:-1]:  # a last line without its newline was cut short
        try:
            events.append(Event.from_line(line))
        except ProtocolError:
            bad += 1
    return events, bad


def portable(test_id: str) -> str:
    """Return a test id that names an instructor's file by ``instructor/NAME``, wherever it was."""
    file, sep, rest = test_id.partition("::")
    parts = file.replace("\\", "/").split("/")
    if len(parts) >= 2 and parts[-2] == "instructor":
        return f"instructor/{parts[-1]}{sep}{rest}"
    return test_id


def last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:300] if lines else "no output"


# -- grading --------------------------------------------------------------------------------


def collected_ids(run: JudgeRun | None, exercises: Sequence[Exercise]) -> dict[int, tuple[str, ...]]:
    """Each exercise's test ids, as the judge collected them (it never imports the submission)."""
    if run is None:
        return {}
    ids = next((e.ids for e in run.events if e.kind == "collected"), ())
    found: dict[int, list[str]] = {}
    for test_id in ids:
        number = exercise_number(test_id.split("::")[0])
        if number is not None:
            found.setdefault(number, []).append(portable(test_id))
    return {n: tuple(v) for n, v in found.items()}


def exercise_score(course: Course, ex: Exercise, ids: tuple[str, ...], run: JudgeRun, limits: Limits) -> ExerciseResult:
    """Score exercise ``ex`` from the judge's report."""
    ex = course.exercise(ex)
    cpu = next((e.cpus.get(ex.number, 0.0) for e in run.events if e.kind == "end"), 0.0)
    wall = next((e.walls.get(ex.number, 0.0) for e in run.events if e.kind == "end"), 0.0)
    for event in run.events:
        if event.kind == "broken" and event.exercise == ex.number:
            return ExerciseResult(ex, 0, len(ids), reason=event.message, cpu=cpu)
    outcome = {portable(e.id): e for e in run.events if e.kind == "result" and e.exercise == ex.number}
    if not outcome and not any(e.kind == "begin" and e.exercise == ex.number for e in run.events):
        why = ("the grader stopped before this exercise: "
               + ("it took too long" if run.timed_out else last_line(run.output)))
        return ExerciseResult(ex, 0, len(ids), reason=why, cpu=cpu)
    tests = []
    failures = []
    for test_id in ids:
        name = test_name(test_id)
        found = outcome.get(test_id)
        if found is None:
            message = "not run: the grader stopped before it"
            ok = False
        else:
            ok, message = found.ok, found.message if not found.ok else ""
        tests.append(TestOutcome(name, ok, message, course.weight_of(ex.number, name),
                                 cpu=found.cpu if found is not None else 0.0,
                                 wall=found.wall if found is not None else 0.0))
        if not ok and (found is None or found.ran):
            failures.append(Failure(name, message or "failed"))
    if not failures and not all(t.passed for t in tests):
        failures.append(Failure("(not run)", next(t.message for t in tests if not t.passed)))
    passed = sum(t.passed for t in tests)
    return ExerciseResult(ex, passed, len(ids), failures=tuple(failures[:5]), tests=tuple(tests), cpu=round(cpu, 2),
                          wall=round(wall, 2))
