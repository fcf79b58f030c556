"""The class report: which checks a class passes, which it fails, and with what message.

Item analysis of a graded class, from the per-student results the grader writes (Gradescope's
``results.json`` shape, one entry per test: ``grade --json-dir``, or a Gradescope export).

Invariant: a :class:`ClassReport` is a pure function of the students' results, in the order
given; every share, count and correlation in it is computed from those results alone (no
clock, no file names but the students'), so the same results give byte-identical
``report.json``, ``items.csv`` and HTML. A figure that is not defined (the discrimination of a
test everyone passes, a share of no students) is ``None``, never a number.

Vocabulary, before the logic:

* a student's results are :class:`StudentResults`: the entries of their ``results.json``, each
  an :class:`Entry` -- one test of one exercise, or the whole exercise when it did not run;
* an exercise is *not started* by a student when its file is missing (``... is missing``,
  ``No file named ...``, ``not started ...``), or when every one of its tests fails with
  ``NotImplementedError``: the skeleton, untouched;
* a student's *first failure* in an exercise is the message of its first failing test (or
  the reason it did not run); first failures are grouped by their first line with card codes
  and numbers replaced by placeholders (:func:`message_pattern`);
* a test's *discrimination* is the point-biserial correlation, over the class, of passing it
  (1 or 0) with the rest of the score: the total less the points that test earned.

>>> a = StudentResults("a", (Entry(1, "t1", True, 5, 5), Entry(1, "t2", True, 5, 5)))
>>> b = StudentResults("b", (Entry(1, "t1", True, 5, 5), Entry(1, "t2", False, 0, 5, "got 3H")))
>>> report = ClassReport.of([a, b])
>>> [(t.test, t.passed, t.discrimination) for t in report.exercises[0].tests]
[('t1', 2, None), ('t2', 1, None)]
>>> report.exercises[0].first_failures[0].pattern
'got <card>'
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solitaire_ds.course.gradebook import sheet_cell
from solitaire_ds.course.report import gradescope_json
from solitaire_ds.course.results import SubmissionResult
from solitaire_ds.text import safe_name, safe_text

__all__ = [
    "ClassReport",
    "Entry",
    "ExerciseSummary",
    "MessageGroup",
    "ResultsError",
    "StudentResults",
    "TestItem",
    "discrimination",
    "distribution",
    "message_pattern",
    "read_results",
]

Student = str  # a student's name: the results file's name, or the folder holding results.json

#: The most tests one results file may hold, and the longest message kept of each.
MAX_TESTS = 5_000
MAX_MESSAGE = 2_000
#: How many bins the distributions of totals and of each exercise's scores have.
BINS = 10


class ResultsError(ValueError):
    """A results file that is not one the grader writes: one line naming the file and the fault."""


@dataclass(frozen=True)
class Entry:
    """One entry of a student's ``results.json``: one test of an exercise, or (``test == ""``) the
    whole exercise, when it did not run and ``message`` says why."""

    exercise: int
    test: str
    passed: bool
    score: float
    max_score: float
    message: str = ""


@dataclass(frozen=True)
class StudentResults:
    """What one student's results say: their name and every entry, in the grader's order."""

    name: Student
    entries: tuple[Entry, ...]

    @classmethod
    def from_json(cls, name: str, data: object) -> StudentResults:
        """Return the results of ``data``, a parsed ``results.json``; raise :class:`ResultsError`.

        Each test's name must read ``Exercise N: TEST`` (the grader's); an entry whose
        ``number`` has no dot is the whole exercise. Text is made safe where it enters.

        Runtime complexity: O(number of tests).

        >>> StudentResults.from_json("x", {"tests": [{"name": "Exercise 2: T::t", "number": "2.1",
        ...     "score": 0, "max_score": 1, "status": "failed", "output": "boom"}]}).entries
        (Entry(exercise=2, test='T::t', passed=False, score=0.0, max_score=1.0, message='boom'),)
        >>> StudentResults.from_json("x", {"tests": [{"name": "Q1"}]})
        Traceback (most recent call last):
        ...
        solitaire_ds.course.class_report.ResultsError: test 1's name 'Q1' does not read 'Exercise N: ...'
        """
        if not isinstance(data, dict) or not isinstance(data.get("tests"), list):
            raise ResultsError("it is not a results.json: no list of tests")
        tests: list[Any] = data["tests"]
        if len(tests) > MAX_TESTS:
            raise ResultsError(f"it holds {len(tests)} tests (at most {MAX_TESTS})")
        return cls(safe_name(name), tuple(_entry(k, test) for k, test in enumerate(tests, start=1)))

    @classmethod
    def of(cls, name: str, result: SubmissionResult) -> StudentResults:
        """Return the results of a submission just graded, read as its ``results.json`` would be."""
        return cls.from_json(name, gradescope_json(result))


_NAME = re.compile(r"Exercise (\d{1,3}): (.*)", re.DOTALL)


def _entry(k: int, test: object) -> Entry:
    """Return test ``k`` of a results.json as an :class:`Entry`; raise :class:`ResultsError`."""
    if not isinstance(test, dict):
        raise ResultsError(f"test {k} is not an object")
    name, number, status, output = (test.get(key) for key in ("name", "number", "status", "output"))
    if not isinstance(name, str) or not (match := _NAME.fullmatch(name)):
        raise ResultsError(f"test {k}'s name {safe_text(str(name), 60, newlines=False)!r} does not read "
                           "'Exercise N: ...'")
    score, max_score = test.get("score", 0.0), test.get("max_score", 0.0)
    for key, value in (("score", score), ("max_score", max_score)):
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise ResultsError(f"test {k}'s {key} is not a number")
    if status not in (None, "passed", "failed"):
        raise ResultsError(f"test {k}'s status {safe_text(str(status), 20, newlines=False)!r} is not "
                           "'passed' or 'failed'")
    whole = isinstance(number, str) and "." not in number
    passed = status == "passed" if status is not None else float(score) >= float(max_score)
    return Entry(
        exercise=int(match[1]),
        test="" if whole else safe_text(match[2], 300, newlines=False),
        passed=passed,
        score=float(score),
        max_score=float(max_score),
        message=safe_text(output, MAX_MESSAGE) if isinstance(output, str) else "",
    )


def read_results(paths: Iterable[Path]) -> list[StudentResults]:
    """Return every student's results found at ``paths``, sorted by name; raise :class:`ResultsError`.

    A path is a results file (the student is its name without ``.json``), a folder holding
    ``results.json`` (the student is the folder), or a folder of either: ``NAME.json`` files,
    as ``grade --json-dir`` writes them, and ``NAME/results.json``, as in a Gradescope export.

    Runtime complexity: O(total size of the files).
    """
    found: dict[str, Path] = {}
    for path in paths:
        if path.is_file():
            files = [(path.stem, path)]
        elif (path / "results.json").is_file():
            files = [(path.resolve().name, path / "results.json")]
        elif path.is_dir():
            files = sorted([(p.stem, p) for p in path.glob("*.json") if p.is_file()]
                           + [(p.parent.name, p) for p in path.glob("*/results.json") if p.is_file()])
            if not files:
                raise ResultsError(f"{safe_name(str(path))}: no NAME.json or NAME/results.json in this folder")
        else:
            raise ResultsError(f"{safe_name(str(path))}: no such file or folder")
        for name, file in files:
            if name in found and found[name] != file:
                raise ResultsError(f"two results are named {safe_name(name)!r}: "
                                   f"{safe_name(str(found[name]))} and {safe_name(str(file))}")
            found[name] = file
    students = []
    for name, file in sorted(found.items()):
        try:
            data = json.loads(file.read_bytes())
            students.append(StudentResults.from_json(name, data))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError, ResultsError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc).splitlines()[0]
            raise ResultsError(f"{safe_name(str(file))}: {safe_text(why, 200, newlines=False)}") from None
    return students


_CARD = re.compile(r"(?<![\w<])(?:(?:10|[2-9TJQKA])[CDHS♣♦♥♠]|(?:10|[2-9])[cdhs])(?!\w)")
_NUMBER = re.compile(r"(?<![\w<])[-+]?\d+(?:\.\d+)?(?![\w>])")


def message_pattern(message: str) -> str:
    """Return the first line of ``message`` with card codes and numbers replaced by placeholders.

    A card code is a rank and a suit (``AS``, ``10H``, ``TC``, ``Q♥``, or a number rank with a
    small suit: ``10h``, ``7s``); a number is an integer or a decimal, with its sign.

    Runtime complexity: O(len(message)).

    >>> message_pattern("after push(3), pop() returned 10h, expected AS\\n(in x.py, line 9)")
    'after push(<n>), pop() returned <card>, expected <card>'
    >>> message_pattern("As the stack held -2.5 items, Q♥ moved to pile 3")
    'As the stack held <n> items, <card> moved to pile <n>'
    """
    first = message.strip().split("\n", 1)[0]
    return _NUMBER.sub("<n>", _CARD.sub("<card>", first)).strip()


def _not_started(entries: Sequence[Entry]) -> bool:
    """Whether an exercise's entries say its file is missing or still the skeleton."""
    if len(entries) == 1 and not entries[0].test:
        why = entries[0].message.strip()
        return why.endswith(" is missing") or why.startswith(("No file named", "not started", "Not started"))
    tests = [e for e in entries if e.test]
    return bool(tests) and all(not e.passed and "NotImplementedError" in e.message for e in tests)


def discrimination(passed: Sequence[bool], rest: Sequence[float]) -> float | None:
    """Return the point-biserial correlation of ``passed`` with ``rest``, or None where undefined.

    It is Pearson's correlation of a 0/1 variable with a score; it is not defined when every
    student passes, or none does, or the rest of the score is the same for all.

    Runtime complexity: O(len(passed)).

    >>> discrimination([True, True, False, False], [9, 8, 2, 1])
    0.99
    >>> discrimination([True, True], [9, 1]) is None, discrimination([True, False], [5, 5]) is None
    (True, True)
    """
    n = len(passed)
    if n < 2 or all(passed) or not any(passed):
        return None
    x = [1.0 if p else 0.0 for p in passed]
    mean_x, mean_y = sum(x) / n, sum(rest) / n
    var_y = sum((y - mean_y) ** 2 for y in rest)
    if var_y <= 1e-9 * max(1.0, max(abs(y) for y in rest)) ** 2:
        return None
    var_x = sum((v - mean_x) ** 2 for v in x)
    cov = sum((v - mean_x) * (y - mean_y) for v, y in zip(x, rest, strict=True))
    return round(cov / math.sqrt(var_x * var_y), 2)


@dataclass(frozen=True)
class MessageGroup:
    """First failures of one test that read the same once cards and numbers are placeholders."""

    exercise: int
    test: str  # "" when the exercise did not run
    pattern: str
    example: str  # the first student's whole message
    students: tuple[Student, ...]


@dataclass(frozen=True)
class TestItem:
    """One test across the class: how many passed it, and how well passing it tells the strong
    students from the weak."""

    __test__ = False  # not a pytest test class, whatever its name

    exercise: int
    test: str
    points: float
    students: int
    passed: int
    #: The students who started its exercise, and how many of them passed it.
    started: int
    passed_started: int
    discrimination: float | None
    #: Its most common failure message among those who started its exercise (grouped as first failures are).
    message: MessageGroup | None = None

    @property
    def share(self) -> float | None:
        """The share of the class that passed it (None for no students)."""
        return self.passed / self.students if self.students else None

    @property
    def share_started(self) -> float | None:
        """The share of those who started its exercise that passed it (None when none did)."""
        return self.passed_started / self.started if self.started else None

    @property
    def failed_started(self) -> int:
        """How many students started its exercise and failed it."""
        return self.started - self.passed_started


@dataclass(frozen=True)
class ExerciseSummary:
    """One exercise across the class."""

    number: int
    title: str
    points: float
    scores: tuple[float, ...]  # each student's, in the class's order
    not_started: tuple[Student, ...]
    tests: tuple[TestItem, ...]
    first_failures: tuple[MessageGroup, ...]  # most students first


@dataclass(frozen=True)
class ClassReport:
    """The item analysis of a graded class: per exercise and per test, and the totals."""

    students: tuple[Student, ...]
    totals: tuple[float, ...]
    points: float
    exercises: tuple[ExerciseSummary, ...]

    @classmethod
    def of(cls, students: Sequence[StudentResults]) -> ClassReport:
        """Return the report of ``students`` (in that order).

        Runtime complexity: O(students x tests).
        """
        names = tuple(s.name for s in students)
        numbers = sorted({e.exercise for s in students for e in s.entries})
        by_student = [{n: [e for e in s.entries if e.exercise == n] for n in numbers} for s in students]
        totals = [sum(e.score for e in s.entries) for s in students]
        summaries = []
        for n in numbers:
            entries = [student[n] for student in by_student]
            started = [not _not_started(es) if es else False for es in entries]
            order: dict[str, float] = {}  # every test of the exercise, in the grader's order, with its points
            for es in entries:
                for e in es:
                    if e.test:
                        order[e.test] = max(order.get(e.test, 0.0), e.max_score)
            tests = []
            for test, points in order.items():
                outcomes = [next((e for e in es if e.test == test), None) for es in entries]
                passed = [o is not None and o.passed for o in outcomes]
                failing = [(name, o) for name, o, s in zip(names, outcomes, started, strict=True)
                           if s and o is not None and not o.passed]
                rest = [t - (o.score if o is not None else 0.0) for t, o in zip(totals, outcomes, strict=True)]
                tests.append(TestItem(
                    exercise=n, test=test, points=round(points, 4), students=len(names), passed=sum(passed),
                    started=sum(started), passed_started=sum(p and s for p, s in zip(passed, started, strict=True)),
                    discrimination=discrimination(passed, rest), message=next(iter(_grouped(n, failing)), None),
                ))
            whole = max((sum(e.max_score for e in es) for es in entries), default=0.0)
            summaries.append(ExerciseSummary(
                number=n,
                title=_title(n),
                points=round(whole, 2),
                scores=tuple(round(sum(e.score for e in es), 2) for es in entries),
                not_started=tuple(name for name, s in zip(names, started, strict=True) if not s),
                tests=tuple(tests),
                first_failures=_first_failures(n, names, entries, started, list(order)),
            ))
        points = round(sum(ex.points for ex in summaries), 2)
        return cls(names, tuple(round(t, 2) for t in totals), points, tuple(summaries))

    def most_failed(self, limit: int = 10) -> list[TestItem]:
        """Return up to ``limit`` tests failed by the most students who started their exercise.

        Runtime complexity: O(tests log tests).
        """
        tests = [t for ex in self.exercises for t in ex.tests if t.failed_started > 0]
        tests.sort(key=lambda t: -t.failed_started)  # stable: exercise and grader order among equals
        return tests[:limit]

    def to_json(self) -> dict[str, Any]:
        """Return ``report.json``: everything the HTML page shows, as plain data.

        Runtime complexity: O(students x exercises + tests).
        """
        return {
            "students": len(self.students),
            "points": self.points,
            "totals": {
                "mean": _mean(self.totals), "median": _median(self.totals),
                "distribution": distribution(self.totals, self.points),
                "by_student": dict(zip(self.students, self.totals, strict=True)),
            },
            "exercises": [{
                "number": ex.number, "title": ex.title, "points": ex.points,
                "mean": _mean(ex.scores), "median": _median(ex.scores),
                "distribution": distribution(ex.scores, ex.points),
                "not_started": list(ex.not_started),
                "tests": [_test_json(t) for t in ex.tests],
                "first_failures": [_group_json(g) for g in ex.first_failures],
            } for ex in self.exercises],
            "most_failed": [_test_json(t) for t in self.most_failed()],
        }

    def json_text(self) -> str:
        """Return ``report.json`` as text."""
        return json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n"

    def items_csv(self) -> str:
        """Return ``items.csv``: one row per test, for a spreadsheet (an undefined figure is an empty cell).

        Runtime complexity: O(tests).
        """
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["exercise", "title", "test", "points", "students", "passed", "share_passed", "started",
                         "passed_started", "share_passed_started", "discrimination", "first_failures",
                         "message", "message_students"])
        for ex in self.exercises:
            for t in ex.tests:
                first = sum(len(g.students) for g in ex.first_failures if g.test == t.test)
                writer.writerow([
                    ex.number, sheet_cell(ex.title), sheet_cell(t.test), f"{t.points:g}", t.students, t.passed,
                    _fixed(t.share, 3), t.started, t.passed_started, _fixed(t.share_started, 3),
                    _fixed(t.discrimination, 2), first, sheet_cell(t.message.pattern) if t.message else "",
                    len(t.message.students) if t.message else "",
                ])
        return out.getvalue()


def _test_json(t: TestItem) -> dict[str, Any]:
    return {
        "exercise": t.exercise, "test": t.test, "points": t.points, "students": t.students, "passed": t.passed,
        "share_passed": _rounded(t.share, 3), "started": t.started, "passed_started": t.passed_started,
        "share_passed_started": _rounded(t.share_started, 3), "discrimination": t.discrimination,
        "message": _group_json(t.message) if t.message else None,
    }


def _group_json(g: MessageGroup) -> dict[str, Any]:
    return {"test": g.test, "pattern": g.pattern, "example": g.example, "count": len(g.students),
            "students": list(g.students)}


def _title(number: int) -> str:
    from solitaire_ds.course.catalog import exercise

    try:
        return exercise(number).title
    except KeyError:
        return f"Exercise {number}"


def _first_failures(number: int, names: Sequence[Student], entries: Sequence[Sequence[Entry]],
                    started: Sequence[bool], order: Sequence[str]) -> tuple[MessageGroup, ...]:
    """Group each started student's first failure in exercise ``number``; most students first."""
    firsts = []
    for name, es, began in zip(names, entries, started, strict=True):
        first = next((e for e in es if not e.passed), None) if began else None
        if first is not None:
            firsts.append((name, first))
    return _grouped(number, firsts, {test: k for k, test in enumerate(order)})


def _grouped(number: int, failures: Sequence[tuple[Student, Entry]],
             rank: Mapping[str, int] | None = None) -> tuple[MessageGroup, ...]:
    """Group ``failures`` by test and :func:`message_pattern`; most students first, then in ``rank``'s order."""
    groups: dict[tuple[str, str], list[tuple[Student, str]]] = {}
    for name, entry in failures:
        groups.setdefault((entry.test, message_pattern(entry.message)), []).append((name, entry.message))
    rank = rank or {}
    keyed = sorted(groups.items(), key=lambda kv: (-len(kv[1]), rank.get(kv[0][0], -1), kv[0][1]))
    return tuple(MessageGroup(number, test, pattern, who[0][1], tuple(n for n, _ in who))
                 for (test, pattern), who in keyed)


def distribution(values: Sequence[float], points: float, bins: int = BINS) -> list[dict[str, float]]:
    """Return how many ``values`` fall in each of ``bins`` equal ranges from 0 to ``points`` (the last holds its top).

    >>> [b["count"] for b in distribution([0, 5, 9.99, 10], 10, bins=2)]
    [1, 3]
    """
    width = points / bins if points > 0 else 1.0
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, max(0, int(v / width + 1e-9)))] += 1
    return [{"low": round(k * width, 2), "high": round((k + 1) * width, 2), "count": c}
            for k, c in enumerate(counts)]


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


def _median(values: Sequence[float]) -> float | None:
    if not values:
        return None
    s, mid = sorted(values), len(values) // 2
    return round(s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2, 2)


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def _fixed(value: float | None, digits: int) -> str:
    return "" if value is None else f"{value:.{digits}f}"

