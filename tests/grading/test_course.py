"""The course file (points, weighted test groups) and the instructor's own tests (``--tests``)."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import pytest

from solitaire_ds.cli import main
from solitaire_ds.course import exercise
from solitaire_ds.course.config import DEFAULT_COURSE, MOST, CourseError, load_course
from solitaire_ds.course.grader.runner import Limits, grade_many, grade_submission
from solitaire_ds.course.results import ExerciseResult, TestOutcome
from tests.grading.submissions import make_submission

LIMITS = Limits(test_seconds=10, exercise_seconds=60)
# One test of exercise 1 fails: peek answers the bottom of the stack.
PEEK_BOTTOM = """
def _peek(self):
    return self._slots[0]


ArrayStack.peek = _peek
"""
EXTRA = '''
from solitaire_ds.course.catalog import load_module


def test_a_thousand_pushes_pop_back_in_reverse(impl):
    stack = load_module(impl, "structures.array_stack").ArrayStack()
    for item in range(1000):
        stack.push(item)
    assert [stack.pop() for _ in range(1000)] == list(range(999, -1, -1))


def test_peek_sees_the_last_push(impl):
    stack = load_module(impl, "structures.array_stack").ArrayStack([1, 2])
    assert stack.peek() == 2
'''


def _course(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "course.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_the_shipped_course_is_todays_scoring() -> None:
    course = load_course(None)
    assert not course.points and not course.weights and not course.tests  # nothing but the defaults
    assert load_course(DEFAULT_COURSE).default_points == 10
    assert all(course.points_of(n) == exercise(n).points for n in range(1, 13))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[exercise.13]\npoints = 5\n", "exercise.13: the exercises are 1 to 12"),
        ("[exercise.1]\npoints = -1\n", "exercise.1.points must be a whole number from 0 to 1,000,000, not '-1'"),
        ("[exercise.1]\npoints = 2.5\n", "exercise.1.points must be a whole number from 0 to 1,000,000, not '2.5'"),
        ("[exercise.1]\npoints = " + "9" * 401 + "\n",
         "exercise.1.points must be a whole number from 0 to 1,000,000, not '99999999999999999999999999999999999"),
        ("[defaults]\npoints = 1000001\n", "defaults.points must be a whole number from 0 to 1,000,000, not '1000001'"),
        ("[exercise.1]\npoint = 5\n", "unknown key exercise.1.point (expected points, weights)"),
        ("[exercise.1.weights]\n'*' = 'heavy'\n",
         "exercise.1.weights.'*' must be a number from 0 to 1,000,000, not 'heavy'"),
        ("[exercise.1.weights]\n'*push*' = 1e308\n'*pop*' = 1e308\n",
         "exercise.1.weights.'*push*' must be a number from 0 to 1,000,000, not '1e+308'"),
        ("[defaults]\nweight = inf\n", "defaults.weight must be a number from 0 to 1,000,000, not 'inf'"),
        ("[defaults]\nweight = nan\n", "defaults.weight must be a number from 0 to 1,000,000, not 'nan'"),
        ("[defaults]\npoints = " + "9" * 5000 + "\n", "not valid TOML: Exceeds the limit (4300 digits)"),
        ("[course]\n", "unknown key course (expected defaults, exercise, site)"),
        ("points = [\n", "not valid TOML"),
    ],
)
def test_a_bad_course_file_names_the_key(tmp_path: Path, text: str, message: str) -> None:
    path = _course(tmp_path, text)
    with pytest.raises(CourseError) as caught:
        load_course(path)
    assert str(caught.value).startswith(f"{path}: ") and message in str(caught.value)
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 300


def test_a_bad_course_file_is_a_usage_error_before_grading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _course(tmp_path, "[exercise.1]\npoints = 'ten'\n")
    folder = make_submission(tmp_path, "student", {1: None})
    assert main(["grade", str(folder), "--course", str(path), "--csv", str(tmp_path / "g.csv")]) == 2
    out, err = capsys.readouterr()
    assert err == (f"solitaire-ds grade: error: {path}: exercise.1.points must be a whole number from 0 to 1,000,000, "
                   "not 'ten' (see solitaire-ds grade --help)\n")
    assert out == "" and not (tmp_path / "g.csv").exists()


def test_a_group_that_matches_no_test_is_refused_before_grading(tmp_path: Path) -> None:
    course = load_course(_course(tmp_path, "[exercise.1.weights]\n'*no_such_test*' = 2\n"))
    with pytest.raises(CourseError, match=r"exercise.1.weights: '\*no_such_test\*' matches none of exercise 1's"):
        grade_many([tmp_path / "nowhere"], [exercise(1)], LIMITS, course=course)


def test_points_and_weights_change_the_score_not_the_tests(tmp_path: Path) -> None:
    folder = make_submission(tmp_path, "peeky", {1: PEEK_BOTTOM, 2: None})
    plain = grade_submission(folder, [exercise(1), exercise(2)], LIMITS)
    failed = [t.test for t in plain.result(1).tests if not t.passed]
    assert plain.result(1).score < 10 and plain.result(2).score == 10 and failed
    heavy = load_course(_course(tmp_path, f"""
        [exercise.1]
        points = 20
        [exercise.1.weights]
        "{failed[0]}" = 0
        [exercise.2]
        points = 5
    """))
    weighed = grade_many([folder], [exercise(1), exercise(2)], LIMITS, course=heavy)[0]
    assert [t.passed for t in weighed.result(1).tests] == [t.passed for t in plain.result(1).tests]
    share = sum(t.passed for t in plain.result(1).tests if t.test not in failed[:1])
    rest = sum(t.test not in failed[:1] for t in plain.result(1).tests)
    assert weighed.result(1).score == round(20 * share / rest, 2)
    assert weighed.result(2).score == 5 and weighed.max_score == 25


def test_the_instructors_tests_run_beside_the_contract_and_count(tmp_path: Path) -> None:
    tests = tmp_path / "mine"
    tests.mkdir()
    (tests / "test_ex01_more.py").write_text(EXTRA, encoding="utf-8")
    course = load_course(None, tests)
    good = make_submission(tmp_path, "good", {1: None})
    bad = make_submission(tmp_path, "bad", {1: PEEK_BOTTOM})
    results = grade_many([good, bad], [exercise(1)], LIMITS, course=course)
    ours = [t for t in results[0].result(1).tests if t.test.startswith("instructor/")]
    assert [t.test for t in ours] == [
        "instructor/test_ex01_more.py::test_a_thousand_pushes_pop_back_in_reverse",
        "instructor/test_ex01_more.py::test_peek_sees_the_last_push",
    ]
    assert results[0].result(1).score == 10 and results[0].result(1).total == 21
    failing = {t.test for t in results[1].result(1).tests if not t.passed}
    assert "instructor/test_ex01_more.py::test_peek_sees_the_last_push" in failing
    assert "instructor/test_ex01_more.py::test_a_thousand_pushes_pop_back_in_reverse" not in failing


def test_an_instructor_test_file_must_name_its_exercise(tmp_path: Path) -> None:
    (tmp_path / "test_stack.py").write_text("def test_x():\n    pass\n", encoding="utf-8")
    with pytest.raises(CourseError, match=r"test_stack.py: an instructor test file is named test_exNN_anything.py"):
        load_course(None, tmp_path)


def test_the_largest_points_and_weights_allowed_still_add_up(tmp_path: Path) -> None:
    heavy = load_course(_course(tmp_path, f"""
        [exercise.1]
        points = {MOST}
        [exercise.1.weights]
        "*" = {MOST}.0
    """))
    assert heavy.points_of(1) == MOST and heavy.weight_of(1, "anything") == MOST
    tests = tuple(TestOutcome(f"t{k}", k % 2 == 0, weight=heavy.weight_of(1, f"t{k}")) for k in range(400))
    result = ExerciseResult(heavy.exercise(exercise(1)), 200, 400, tests=tests)
    assert result.score == MOST / 2 and math.isfinite(result.test_points(tests[0]))


@pytest.mark.parametrize(
    ("source", "where"),
    [
        (b"def test_x(impl):\n    assert impl\n\ndef test_y(impl:\n    pass\n", ", line 4: "),
        (b"x = 1\0\n", ": source code string cannot contain null bytes"),
        (b"x = '\xff'\n", ", line 1: (unicode error)"),
    ],
)
def test_an_instructor_test_file_that_is_not_python_is_refused_by_line(
    tmp_path: Path, source: bytes, where: str
) -> None:
    (tmp_path / "test_ex01_more.py").write_bytes(source)
    with pytest.raises(CourseError) as caught:
        load_course(None, tmp_path)
    message = str(caught.value)
    assert message.startswith(f"--tests: {tmp_path / 'test_ex01_more.py'}{where}") or (
        where.startswith(":") and "null bytes" in message)  # 3.12 says it as a SyntaxError, with a line
    assert message.endswith("(not valid Python)") and "\n" not in message


def test_a_test_file_with_a_syntax_error_stops_grade_before_grading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "test_ex01_more.py").write_text(EXTRA + "\n\ndef test_broken(impl)\n    pass\n", encoding="utf-8")
    folder = make_submission(tmp_path, "student", {1: None})
    csv_file = tmp_path / "g.csv"
    assert main(["grade", str(folder), "--tests", str(mine), "--csv", str(csv_file)]) == 2
    out, err = capsys.readouterr()
    line = len(EXTRA.splitlines()) + 3
    assert err == (f"solitaire-ds grade: error: --tests: {mine / 'test_ex01_more.py'}, line {line}: "
                   "expected ':' (not valid Python) (see solitaire-ds grade --help)\n")
    assert out == "" and not csv_file.exists()
