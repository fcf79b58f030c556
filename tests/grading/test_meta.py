"""Meta-tests: the reference solutions score full marks, the untouched skeletons zero.

Each grades every exercise that has contract tests, in one child process per exercise.
"""

from __future__ import annotations

from solitaire_ds.course import REPO_ROOT
from solitaire_ds.course.grader.runner import Limits, available_exercises, grade_submission

#: How far above the reference each limit must stay, as measured here. CPU time is the same on
#: a busy machine as on an idle one, so 5 times is plenty; a wall-clock measure grows with the
#: load (on a 2-core machine running four gradings at once, each waits about twice as long), and
#: each wall limit is three times its CPU limit, itself far above the reference: 5 times the
#: reference's wall time as measured on a busy machine leaves room for a load several times worse.
CPU_FACTOR = 5
WALL_FACTOR = 5


def test_solutions_score_full_marks_on_every_exercise_far_inside_every_limit() -> None:
    result = grade_submission(REPO_ROOT / "solutions", available_exercises())
    assert result.exercises, "no exercise has contract tests"
    lost = {r.exercise.number: r.summary for r in result.exercises if r.score != r.max_score}
    assert not lost, f"solutions/ lost points: {lost}"
    assert result.score == result.max_score
    # every limit is far above what the honest reference uses (so load cannot cost it a point);
    # the figures are printed (pytest -s shows them)
    limits = Limits()
    used = {  # limit: (what the reference uses, the factor it must stay above)
        "test_seconds": (max(t.cpu for r in result.exercises for t in r.tests), CPU_FACTOR),
        "exercise_seconds": (max(r.cpu for r in result.exercises), CPU_FACTOR),
        "submission_seconds": (sum(r.cpu for r in result.exercises), CPU_FACTOR),
        "call_wall_seconds": (max(t.wall for r in result.exercises for t in r.tests), WALL_FACTOR),
        "exercise_wall_seconds": (max(r.wall for r in result.exercises), WALL_FACTOR),
        "submission_wall_seconds": (sum(r.wall for r in result.exercises), WALL_FACTOR),
    }
    short = []
    for name, (seconds, factor) in used.items():
        limit = getattr(limits, name)
        margin = limit / max(seconds, 0.01)
        print(f"{name}: the reference uses {seconds:.2f} s of its {limit:g} s ({margin:.1f}x margin)")
        if limit < factor * seconds:
            short.append(f"{name} = {limit:g} s is less than {factor} times the reference's {seconds:.2f} s")
    assert not short, short
    # each wall limit is three times its CPU limit: code that computes meets the CPU limit first
    assert limits.call_wall_seconds >= 3 * limits.test_seconds
    assert limits.exercise_wall_seconds >= 3 * limits.exercise_seconds
    assert limits.submission_wall_seconds >= 3 * limits.submission_seconds


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
