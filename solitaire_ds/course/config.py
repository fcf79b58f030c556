"""The course an instructor grades: points per exercise, test weights, their own tests.

Invariant: a :class:`Course` changes how a run is *scored* and which extra tests it runs,
never how a test runs. Without a course file the scoring is the shipped default
(``course.toml`` beside this module): every exercise 10 points, shared equally among its
tests, which is ``points * passed / total``. An exercise's points are shared among its
tests in proportion to their weights; a test's weight is that of the first group
(shell-style pattern) of its exercise that matches its name, else the default weight.
Points are whole numbers and weights finite numbers, each from 0 to :data:`MOST` (a million),
so no sum of them overflows or turns into ``nan``.

The instructor's own tests (``grade --tests DIR``) are contract files named
``test_exNN_anything.py``; they run in exercise NN's child, beside its contract tests, from
the grader's copy of the package (``solitaire_ds/course/contracts/instructor/``), with the
same sandbox and limits, and are reported the same way, named ``instructor/FILE::TEST``.
Each is compiled when it is read: a file that is not valid Python is refused, by name and
line, before anything is graded.

>>> course = load_course(None)
>>> course.points_of(12), course.weight_of(12, "test_anything")
(10, 1.0)
"""

from __future__ import annotations

import dataclasses
import fnmatch
import hashlib
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solitaire_ds.course.catalog import EXERCISES, Exercise
from solitaire_ds.text import shorten, shown

__all__ = ["DEFAULT_COURSE", "INSTRUCTOR_DIR", "MOST", "Course", "CourseError", "load_course",
           "load_instructor_tests"]

#: The shipped course file: today's scoring.
DEFAULT_COURSE = Path(__file__).with_name("course.toml")
#: Where the instructor's tests sit in the grader's copy of the package.
INSTRUCTOR_DIR = "solitaire_ds/course/contracts/instructor"
_TEST_NAME = re.compile(r"test_ex(\d\d)_\w+\.py\Z")
_MAX_TEST_BYTES = 1 << 20
#: The largest number of points, or weight, a course file may give.
MOST = 10**6


class CourseError(ValueError):
    """A course file or a folder of instructor tests that cannot be used: says where and why."""


@dataclass(frozen=True)
class Course:
    """Points per exercise, weighted test groups, and the instructor's own test files."""

    default_points: int = 10
    default_weight: float = 1.0
    points: Mapping[int, int] = field(default_factory=dict)
    #: Per exercise, its groups in file order: (pattern, weight).
    weights: Mapping[int, tuple[tuple[str, float], ...]] = field(default_factory=dict)
    #: The instructor's test files, by their path in the grader's copy of the package.
    tests: Mapping[str, bytes] = field(default_factory=dict)
    source: str = "the default course"
    #: The address of the course's site (its tutorials), which ``check`` names; None: not set.
    site: str | None = None

    def points_of(self, number: int) -> int:
        """Return what exercise ``number`` is worth."""
        return self.points.get(number, self.default_points)

    def exercise(self, ex: Exercise) -> Exercise:
        """Return ``ex`` worth its points in this course."""
        return dataclasses.replace(ex, points=self.points_of(ex.number))

    def weight_of(self, number: int, test: str) -> float:
        """Return the weight of test ``test`` (its reported name) of exercise ``number``."""
        for pattern, weight in self.weights.get(number, ()):
            if fnmatch.fnmatchcase(test, pattern):
                return weight
        return self.default_weight

    def test_files(self, number: int) -> list[str]:
        """Return the instructor's test files for exercise ``number`` (paths in the copy)."""
        return sorted(rel for rel in self.tests if _exercise_of(rel) == number)

    def files_for(self, ex: Exercise) -> list[str]:
        """Return the test files a run of ``ex`` collects: its contract file, then the instructor's."""
        return [ex.test_file, *self.test_files(ex.number)]

    def with_tests(self, code_files: Mapping[str, bytes]) -> dict[str, bytes]:
        """Return the grader's files ``code_files`` with the instructor's tests added."""
        return {**code_files, **self.tests}

    def tests_key(self, number: int) -> str:
        """Return a digest of exercise ``number``'s instructor tests (a cache key)."""
        digest = hashlib.sha256()
        for rel in self.test_files(number):
            digest.update(rel.encode() + b"\0" + self.tests[rel] + b"\0")
        return digest.hexdigest()

    def check_groups(self, names: Mapping[int, Sequence[str]]) -> None:
        """Raise :class:`CourseError` for a weight group that matches none of its exercise's tests.

        ``names`` holds each graded exercise's test names, as reported.
        """
        for number, groups in sorted(self.weights.items()):
            if number not in names:
                continue
            for pattern, _ in groups:
                if not any(fnmatch.fnmatchcase(name, pattern) for name in names[number]):
                    raise CourseError(
                        f"{self.source}: exercise.{number}.weights: {shown(pattern)} matches none of "
                        f"exercise {number}'s {len(names[number])} tests"
                    )
        for number in names:
            total = sum(self.weight_of(number, name) for name in names[number])
            if total <= 0 < self.points_of(number):
                raise CourseError(f"{self.source}: exercise {number}'s tests all weigh 0")


def load_course(path: str | Path | None, tests: str | Path | None = None) -> Course:
    """Read the course file ``path`` (the shipped default when None) and the tests folder ``tests``.

    Raise :class:`CourseError` with a one-line message naming the file and the key.
    """
    file = Path(path) if path is not None else DEFAULT_COURSE
    where = str(file) if path is not None else "the default course"
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CourseError(f"cannot read the course file {str(file)!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CourseError(f"{file}: not a text file (a course file is TOML)") from None
    except ValueError as exc:  # TOMLDecodeError, or an integer of more than 4,300 digits
        raise CourseError(f"{file}: not valid TOML: {shorten(str(exc))}") from None
    _only(data, {"defaults", "exercise", "site"}, where, "")
    defaults = _table(data, "defaults", where)
    _only(defaults, {"points", "weight"}, where, "defaults.")
    course = Course(
        default_points=_points(defaults.get("points", 10), where, "defaults.points"),
        default_weight=_weight(defaults.get("weight", 1), where, "defaults.weight"),
        source=where,
        site=_site(data["site"], where) if "site" in data else None,
    )
    points: dict[int, int] = {}
    weights: dict[int, tuple[tuple[str, float], ...]] = {}
    for key, value in _table(data, "exercise", where).items():
        number = _number(key, where)
        if not isinstance(value, dict):
            raise CourseError(f"{where}: exercise.{key} must be a table ([exercise.{key}])")
        _only(value, {"points", "weights"}, where, f"exercise.{key}.")
        if "points" in value:
            points[number] = _points(value["points"], where, f"exercise.{key}.points")
        groups = _table(value, "weights", where, f"exercise.{key}.")
        weights[number] = tuple(
            (pattern, _weight(weight, where, f"exercise.{key}.weights.{pattern!r}"))
            for pattern, weight in groups.items()
        )
    found = load_instructor_tests(tests) if tests is not None else {}
    return dataclasses.replace(course, points=points, weights=weights, tests=found)


def load_instructor_tests(folder: str | Path) -> dict[str, bytes]:
    """Return the instructor's test files of ``folder``, keyed by their path in the grader's copy.

    Every ``.py`` file there must be named ``test_exNN_anything.py`` (NN from 01 to 12);
    other files are left alone. Raise :class:`CourseError` otherwise, or when none is found.
    """
    root = Path(folder)
    if not root.is_dir():
        raise CourseError(f"--tests: no folder {str(root)!r}")
    found: dict[str, bytes] = {f"{INSTRUCTOR_DIR}/__init__.py": b""}
    for path in sorted(root.iterdir()):
        if path.suffix != ".py" or path.name == "__init__.py":
            continue
        match = _TEST_NAME.match(path.name)
        if not match or not 1 <= int(match.group(1)) <= len(EXERCISES):
            raise CourseError(
                f"--tests: {path}: an instructor test file is named test_exNN_anything.py, "
                f"NN the exercise it adds to (01 to {len(EXERCISES):02d})"
            )
        if not path.is_file() or path.stat().st_size > _MAX_TEST_BYTES:
            raise CourseError(f"--tests: {path} is not a regular file of at most 1 MB")
        source = path.read_bytes()
        _compiles(source, path)
        found[f"{INSTRUCTOR_DIR}/{path.name}"] = source
    if len(found) == 1:
        raise CourseError(f"--tests: {root} holds no test_exNN_*.py file")
    return found


def _compiles(source: bytes, path: Path) -> None:
    """Raise :class:`CourseError` naming ``path`` and the line when ``source`` is not valid Python."""
    try:
        compile(source, str(path), "exec", dont_inherit=True)
    except SyntaxError as exc:
        line = f", line {exc.lineno}" if exc.lineno else ""
        raise CourseError(f"--tests: {path}{line}: {shorten(exc.msg)} (not valid Python)") from None
    except ValueError as exc:  # a null byte (Python 3.11)
        raise CourseError(f"--tests: {path}: {shorten(str(exc))} (not valid Python)") from None


def _exercise_of(rel: str) -> int | None:
    match = _TEST_NAME.match(rel.rsplit("/", 1)[-1])
    return int(match.group(1)) if match else None


def _only(table: Mapping[str, Any], allowed: set[str], where: str, prefix: str) -> None:
    for key in table:
        if key not in allowed:
            raise CourseError(f"{where}: unknown key {prefix}{key} (expected {', '.join(sorted(allowed))})")


def _table(data: Mapping[str, Any], key: str, where: str, prefix: str = "") -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise CourseError(f"{where}: {prefix}{key} must be a table ([{prefix}{key}])")
    return value


def _number(key: str, where: str) -> int:
    if not (key.isascii() and key.isdigit() and 1 <= int(key) <= len(EXERCISES)):
        raise CourseError(f"{where}: exercise.{key[:40]}: the exercises are 1 to {len(EXERCISES)}")
    return int(key)


def _points(value: Any, where: str, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MOST:
        raise CourseError(f"{where}: {key} must be a whole number from 0 to {MOST:,}, not {_token(value)}")
    return value


def _weight(value: Any, where: str, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= MOST:
        raise CourseError(f"{where}: {key} must be a number from 0 to {MOST:,}, not {_token(value)}")
    return float(value)


#: What ``site`` may be: an http(s) address of printable characters, no white space.
_SITE = re.compile(r"https?://[!-~]+\Z")
_MAX_SITE = 200


def _site(value: Any, where: str) -> str:
    """Return the ``site`` setting, checked: an http(s) address of at most 200 characters.

    >>> _site("https://example.org/solitaire-ds/", "course.toml")
    'https://example.org/solitaire-ds/'
    >>> _site("example.org", "course.toml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solitaire_ds.course.config.CourseError: course.toml: site must be an address starting https:// ...
    """
    if not isinstance(value, str) or len(value) > _MAX_SITE or not _SITE.match(value):
        raise CourseError(f"{where}: site must be an address starting https:// or http://, "
                          f"not {_token(value)}" + (f" (at most {_MAX_SITE} characters)"
                                                    if isinstance(value, str) and len(value) > _MAX_SITE else ""))
    return value


def _token(value: Any) -> str:
    """Return ``value`` as a message shows it: a 401-digit number by its first digits and its length."""
    text = str(value)
    return shown(text) if len(text) <= 40 else f"{shown(text)} ({len(text)} characters)"
