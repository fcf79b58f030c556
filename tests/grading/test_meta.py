"""Meta-tests: the reference solutions score full marks, the untouched skeletons zero.

Each grades every exercise that has contract tests, in one child process per exercise.
"""

from __future__ import annotations

from solitaire_ds.course import REPO_ROOT
from solitaire_ds.course.grader.runner import Limits, available_exercises, grade_submission


def test_solutions_score_full_marks_on_every_exercise_far_inside_every_limit() -> None:
    result = grade_submission(REPO_ROOT / "solutions", available_exercises())
    assert result.exercises, "no exercise has contract tests"
    lost = {r.exercise.number: r.summary for r in result.exercises if r.score != r.max_score}
    assert not lost, f"solutions/ lost points: {lost}"
    assert result.score == result.max_score
    # every limit is at least 5 times what the honest reference uses (so load cannot cost it a
    # point); the figures are printed (pytest -s shows them)
    limits = Limits()
    used = {
        "test_seconds": max(t.cpu for r in result.exercises for t in r.tests),
        "exercise_seconds": max(r.cpu for r in result.exercises),
        "submission_seconds": sum(r.cpu for r in result.exercises),
    }
    for name, seconds in used.items():
        limit = getattr(limits, name)
        margin = limit / max(seconds, 0.01)
        print(f"{name}: the reference uses {seconds:.2f} s of its {limit:g} s ({margin:.1f}x margin)")
        assert limit >= 5 * seconds, f"{name} = {limit:g} s is less than 5 times the reference's {seconds:.2f} s"


def test_untouched_exercises_score_zero_on_every_exercise() -> None:
    result = grade_submission(REPO_ROOT / "exercises", available_exercises())
    scored = {r.exercise.number: f"{r.passed}/{r.total}" for r in result.exercises if r.passed}
    assert not scored, f"the untouched skeletons pass some tests: {scored}"
    for r in result.exercises:
        assert "NotImplementedError" in r.summary or r.reason, r.summary


def test_every_test_id_reads_as_plain_words() -> None:
    # ids are shown to students (check, Gradescope): a card must read A♣, never A\u2663
    from solitaire_ds.course.grader.runner import reference_tests

    ids = [i for tests in reference_tests(available_exercises()).tests.values() for i in tests]
    assert ids
    escaped = [i for i in ids if "\\u" in i or "\\x" in i]
    assert not escaped, escaped
