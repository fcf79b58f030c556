"""Meta-tests: the reference solutions score full marks, the untouched skeletons zero.

Each grades every exercise that has contract tests, in one child process per exercise.
"""

from __future__ import annotations

from solitaire_ds.course import REPO_ROOT
from solitaire_ds.course.runner import available_exercises, grade_submission


def test_solutions_score_full_marks_on_every_exercise() -> None:
    result = grade_submission(REPO_ROOT / "solutions", available_exercises())
    assert result.exercises, "no exercise has contract tests"
    lost = {r.exercise.number: r.summary for r in result.exercises if r.score != r.max_score}
    assert not lost, f"solutions/ lost points: {lost}"
    assert result.score == result.max_score


def test_untouched_exercises_score_zero_on_every_exercise() -> None:
    result = grade_submission(REPO_ROOT / "exercises", available_exercises())
    scored = {r.exercise.number: f"{r.passed}/{r.total}" for r in result.exercises if r.passed}
    assert not scored, f"the untouched skeletons pass some tests: {scored}"
    for r in result.exercises:
        assert "NotImplementedError" in r.summary or r.reason, r.summary
