"""What grading one submission produced: a score per exercise, with the reasons.

Invariant: an :class:`ExerciseResult` scores ``points * passed / total``, where
``total`` is the number of contract tests the *reference* implementation has for the
exercise (so a submission that breaks collection cannot shrink it) and
``0 <= passed <= total``; when ``reason`` is set (the exercise could not run: import
failure, timeout, crash) ``passed`` is 0.

>>> from solitaire_ds.course.catalog import exercise
>>> r = ExerciseResult(exercise(1), passed=3, total=4)
>>> r.score, r.max_score, r.status
(7.5, 10, 'partial')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from solitaire_ds.course.catalog import Exercise

__all__ = ["NOT_STARTED", "ExerciseResult", "Failure", "Limits", "SubmissionResult", "TestOutcome", "merged_notes"]

#: What every report says, in one line, of an exercise whose file is still the skeleton.
NOT_STARTED = "not started: the file is the skeleton"


@dataclass(frozen=True)
class Failure:
    """One failing test: its name and what went wrong, in plain words."""

    test: str
    message: str


@dataclass(frozen=True)
class TestOutcome:
    """One contract test of an exercise: its name, whether it passed, and why not."""

    __test__ = False  # not a pytest test class, whatever its name

    test: str
    passed: bool
    message: str = ""
    #: Its share of the exercise's points, relative to the others' (the course file's groups).
    weight: float = 1.0
    #: The CPU seconds the student's code used during it (its worker's, measured by the judge).
    cpu: float = field(default=0.0, compare=False)
    #: The wall seconds of its longest call to the worker (measured by the judge).
    wall: float = field(default=0.0, compare=False)


@dataclass(frozen=True)
class ExerciseResult:
    """The grade of one exercise of one submission."""

    exercise: Exercise
    passed: int
    total: int
    reason: str = ""
    failures: tuple[Failure, ...] = ()
    seconds: float = 0.0
    #: Every test of the exercise, in order (empty when it could not run; see ``reason``).
    tests: tuple[TestOutcome, ...] = ()
    #: The CPU time its workers (and all they started) used, in seconds (a measurement,
    #: not part of the grade: two gradings of one submission compare equal without it).
    cpu: float = field(default=0.0, compare=False)
    #: The wall seconds the judge waited for its workers (a measurement, like ``cpu``).
    wall: float = field(default=0.0, compare=False)
    #: The file's graded code is the skeleton's (names and layout aside): the reports say
    #: :data:`NOT_STARTED` in one line instead of every failing test (the score is the judge's all the same).
    not_started: bool = False

    @property
    def max_score(self) -> int:
        """The points the exercise is worth."""
        return self.exercise.points

    @property
    def score(self) -> float:
        """``points * passed / total``, rounded to two decimals (0 when there are no tests).

        With the outcome of every test, the points are shared by the tests' weights (all 1
        by default, which is the same): ``points * passed weight / total weight``.

        >>> from solitaire_ds.course.catalog import exercise
        >>> ExerciseResult(exercise(2), passed=1, total=3).score
        3.33
        >>> heavy = (TestOutcome("a", True, weight=3), TestOutcome("b", False))
        >>> ExerciseResult(exercise(2), passed=1, total=2, tests=heavy).score
        7.5
        """
        if self.total <= 0 or self.reason:
            return 0.0
        return round(self.exercise.points * self.share, 2)

    @property
    def share(self) -> float:
        """The part of the exercise's points earned, from 0 to 1 (weighted when the tests are known)."""
        if self.tests and len(self.tests) == self.total:
            weight = sum(t.weight for t in self.tests)
            return sum(t.weight for t in self.tests if t.passed) / weight if weight > 0 else 0.0
        return self.passed / self.total if self.total > 0 else 0.0

    def test_points(self, outcome: TestOutcome) -> float:
        """Return what test ``outcome`` is worth in this exercise (passed or not)."""
        weight = sum(t.weight for t in self.tests) if self.tests else float(self.total)
        return self.exercise.points * outcome.weight / weight if weight > 0 else 0.0

    def test_maxima(self, places: int = 4) -> list[float]:
        """Return what each of ``tests`` is worth, rounded to ``places`` decimals, summing exactly to the points.

        Each test's share is rounded where the running total falls (the rounded running
        total minus the one before), so the roundings never add up to more or less than the
        exercise's points, whatever the weights.

        Runtime complexity: O(number of tests).

        >>> from solitaire_ds.course.catalog import exercise
        >>> thirds = tuple(TestOutcome(f"t{k}", True) for k in range(3))
        >>> maxima = ExerciseResult(exercise(1), 3, 3, tests=thirds).test_maxima()
        >>> maxima, sum(Fraction(str(m)) for m in maxima)
        ([3.3333, 3.3334, 3.3333], Fraction(10, 1))
        """
        weights = [Fraction(t.weight) for t in self.tests]
        whole = sum(weights, Fraction(0))
        if whole <= 0:
            return [0.0 for _ in self.tests]
        unit = 10**places
        maxima, before, running = [], 0, Fraction(0)
        for weight in weights:
            running += weight
            upto = round(self.exercise.points * unit * running / whole)  # whole units of 10**-places
            maxima.append((upto - before) / unit)
            before = upto
        return maxima

    @property
    def status(self) -> str:
        """``"pass"``, ``"partial"``, ``"fail"`` (no test passed) or ``"error"`` (did not run)."""
        if self.reason:
            return "error"
        if self.total and self.passed == self.total:
            return "pass"
        return "partial" if self.passed else "fail"

    @property
    def summary(self) -> str:
        """One line: the reason it did not run, or the first failure's first line.

        >>> from solitaire_ds.course.catalog import exercise
        >>> ExerciseResult(exercise(1), 0, 5, reason="timed out after 60 s").summary
        'timed out after 60 s'
        """
        if self.reason:
            return self.reason
        if self.failures:
            first = self.failures[0].message.strip().splitlines()
            return first[0] if first else self.failures[0].test
        return ""


@dataclass(frozen=True)
class SubmissionResult:
    """The grades of every exercise graded for one submission folder."""

    name: str
    path: str
    exercises: tuple[ExerciseResult, ...]
    notes: tuple[str, ...] = field(default=())
    seconds: float = 0.0
    #: The CPU time grading it took, every process counted: the judge, and the workers
    #: (sandboxed ones included). A measurement, not part of the grade.
    cpu: float = field(default=0.0, compare=False)
    #: The wall the student's code ran behind, in one sentence ("sandbox: bubblewrap, ...").
    sandbox: str = ""

    @property
    def score(self) -> float:
        """The total score, rounded to two decimals."""
        return round(sum(r.score for r in self.exercises), 2)

    @property
    def max_score(self) -> int:
        """The points the graded exercises are worth together."""
        return sum(r.max_score for r in self.exercises)

    def result(self, number: int) -> ExerciseResult:
        """Return the result of exercise ``number``; KeyError when it was not graded."""
        for r in self.exercises:
            if r.exercise.number == number:
                return r
        raise KeyError(f"exercise {number} was not graded")


@dataclass(frozen=True)
class Limits:
    """What a submission's code may use: CPU and wall-clock seconds per test or call, exercise
    and submission; memory; output.

    The limits that decide for code that computes count the CPU time of the worker that runs
    the student's code (and of all it starts), which stays the same on a busy machine: a test
    may use ``test_seconds`` of it, an exercise ``exercise_seconds``, all the exercises of a
    submission ``submission_seconds``. A wait during which the worker uses no CPU at all for
    ``stall_seconds`` (code that sleeps, or waits for a thread that never ends) fails the
    test too.

    The wall clock bounds code that waits without ever being idle long enough to stall (a
    little CPU time every few seconds): one call (one request and its reply) may take
    ``call_wall_seconds``, the calls of an exercise ``exercise_wall_seconds`` in all, those
    of a submission ``submission_wall_seconds`` -- the longest any submission keeps the
    judge waiting on its code, so the ceiling of the job slot it holds, beside the judge's
    own work. Each wall limit is three times its CPU limit: code that computes meets its CPU
    limit first on a machine up to three times busier than its cores. Each default is far
    above what the reference solutions use (``tests/grading/test_meta.py`` measures and
    prints every margin).
    """

    test_seconds: float = 10.0
    exercise_seconds: float = 30.0
    submission_seconds: float = 80.0
    stall_seconds: float = 10.0
    memory_bytes: int = 1 << 30
    output_bytes: int = 16 << 20
    fail_fast: bool = False
    #: Wall seconds one call to the worker may take (a request and its reply).
    call_wall_seconds: float = 30.0
    #: Wall seconds an exercise's calls may take in all; the rest of its tests are then not run.
    exercise_wall_seconds: float = 90.0
    #: Wall seconds a submission's calls may take in all (every exercise): the most any
    #: submission keeps the judge waiting on its code.
    submission_wall_seconds: float = 240.0


#: A note about one exercise: "exercise 3: 100% the same as the reference solution's (...)".
_EXERCISE_NOTE = re.compile(r"exercise (\d+): (?:(\d+%) )?(.*)", re.DOTALL)


def merged_notes(notes: Sequence[str]) -> list[str]:
    """Return ``notes`` with a note said of several exercises said once, naming them all.

    Notes that differ only in the exercise (and in the figure before the rest, kept beside
    each number when they differ) become one, where the first of them stood; any other note
    is kept as it is.

    Runtime complexity: O(number of notes).

    >>> merged_notes(["exercise 1: 100% the same as the reference's", "a link was left out",
    ...               "exercise 2: 100% the same as the reference's", "exercise 3: 97% the same as the reference's",
    ...               "exercise 5: 100% the same as the reference's"])
    ["exercises 1 (100%), 2 (100%), 3 (97%), 5 (100%): the same as the reference's", 'a link was left out']
    >>> merged_notes([f"exercise {n}: 100% the same as bo's" for n in (1, 2, 3, 5)])
    ["exercises 1 to 3 and 5: 100% the same as bo's"]
    """
    groups: dict[str, list[tuple[int, str]]] = {}
    for note in notes:
        if match := _EXERCISE_NOTE.fullmatch(note):
            groups.setdefault(match.group(3), []).append((int(match.group(1)), match.group(2) or ""))
    out: list[str] = []
    said: set[str] = set()
    for note in notes:
        match = _EXERCISE_NOTE.fullmatch(note)
        if match is None or len(groups[match.group(3)]) == 1:
            out.append(note)
            continue
        if match.group(3) in said:  # said already, with the first of its group
            continue
        said.add(match.group(3))
        group = groups[match.group(3)]
        figures = {figure for _, figure in group}
        if len(figures) == 1:
            (figure,) = figures
            out.append(f"exercises {_numbers([n for n, _ in group])}: {figure + ' ' if figure else ''}{match.group(3)}")
        else:
            each = ", ".join(f"{n} ({figure})" if figure else str(n) for n, figure in group)
            out.append(f"exercises {each}: {match.group(3)}")
    return out


def _numbers(numbers: Sequence[int]) -> str:
    """``[1, 2, 3, 5]`` as "1 to 3 and 5": runs of three or more as a range.

    >>> _numbers([1, 2, 3, 4, 7, 8, 10]), _numbers([2, 4])
    ('1 to 4, 7, 8 and 10', '2 and 4')
    """
    runs: list[list[int]] = []
    for n in sorted(set(numbers)):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts: list[str] = []
    for run in runs:
        parts += [f"{run[0]} to {run[-1]}"] if len(run) >= 3 else [str(n) for n in run]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
