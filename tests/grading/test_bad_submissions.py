"""The grader against submissions that misbehave: each costs only its own exercise.

The submissions live in ``tests/grading/bad_submissions/`` (its README lists every case).
Two, ``crashes`` and ``hostile``, are graded once, in parallel as ``--jobs 2`` does, with
small limits; the others alone, each with the limits its case needs. The per-test limit
counts CPU time, so a busy machine does not fail good code; a second, wall-clock alarm
with six times the room stops code that sleeps.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from solitaire_ds.course import REPO_ROOT, exercise
from solitaire_ds.course.grader.runner import Limits, grade_many, grade_submission, wall_for
from solitaire_ds.course.results import SubmissionResult
from tests.grading.submissions import bad_submission

# Room enough that a busy machine (CPU time grows under contention too) does not fail good code:
# the reference's busiest test uses about 1.5 s of its worker's CPU (tests/grading/test_meta.py
# prints it), so 6 s still leaves a margin while a loop costs 6 s, not the default 20.
LIMITS = Limits(test_seconds=6, exercise_seconds=60, memory_bytes=512 << 20)


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SubmissionResult]:
    root = tmp_path_factory.mktemp("subs")
    paths = [bad_submission(root, "crashes"), bad_submission(root, "hostile")]
    exercises = [exercise(n) for n in range(1, 7)]
    results = grade_many(paths, exercises, LIMITS, jobs=2)
    return {r.name: r for r in results}


def _reason(result: SubmissionResult, number: int) -> str:
    r = result.result(number)
    assert r.score == 0, f"exercise {number} scored {r.score}"
    return r.reason


def test_a_syntax_error_scores_zero_and_names_the_line(graded: dict[str, SubmissionResult]) -> None:
    reason = _reason(graded["crashes"], 1)
    assert reason.startswith("structures/array_stack.py does not import: SyntaxError")
    assert "(line " in reason


def test_an_exception_at_import_scores_zero(graded: dict[str, SubmissionResult]) -> None:
    reason = _reason(graded["crashes"], 2)
    assert reason.startswith(
        "structures/linked_stack.py does not import: RuntimeError: oops at import (line "
    )


def test_sys_exit_at_import_scores_zero(graded: dict[str, SubmissionResult]) -> None:
    assert _reason(graded["crashes"], 3) == (
        "structures/array_queue.py calls sys.exit(3) while being imported"
    )


def test_os_exit_in_a_method_keeps_the_tests_before_it_and_the_rest_is_graded(
    graded: dict[str, SubmissionResult],
) -> None:
    r = graded["crashes"].result(4)
    assert 0 < r.score < 10 and not r.reason  # the tests that passed before it keep their points
    stopped = r.failures[0]
    assert stopped.test.startswith("TestLinkedQueue::")
    assert stopped.message == "the code ended its process with exit status 7 (does it call os._exit()?)"
    assert graded["crashes"].result(5).score == 10  # each exercise has a process of its own


def test_an_infinite_loop_costs_only_the_tests_that_reach_it(
    graded: dict[str, SubmissionResult],
) -> None:
    r = graded["crashes"].result(6)
    assert not r.reason and 0 < r.score < 10
    assert any(f"took more than {LIMITS.test_seconds:g} s of CPU time" in f.message for f in r.failures)


def test_runaway_recursion_fails_the_tests_that_reach_it(
    graded: dict[str, SubmissionResult],
) -> None:
    r = graded["hostile"].result(1)
    assert r.score < 10
    assert any("RecursionError" in f.message for f in r.failures)


def test_huge_output_at_import_scores_zero(graded: dict[str, SubmissionResult]) -> None:
    assert _reason(graded["hostile"], 2) == (
        "structures/linked_stack.py does not import: it prints or writes too much output"
    )


def test_runaway_memory_fails_the_tests_that_reach_it(
    graded: dict[str, SubmissionResult],
) -> None:
    r = graded["hostile"].result(3)
    assert r.score < 2  # only the tests that never enqueue can pass
    assert "memory" in r.summary.lower()
    assert graded["hostile"].result(6).score == 10


def test_printing_passed_and_forging_replies_earns_nothing(
    graded: dict[str, SubmissionResult],
) -> None:
    # the forged lines reach only the worker's own reply pipe: its answer is not a message
    assert "the worker answered something that is not a message" in _reason(graded["hostile"], 4)
    assert graded["crashes"].result(5).score == 10


def test_an_infinite_loop_at_import_scores_zero(graded: dict[str, SubmissionResult]) -> None:
    assert _reason(graded["hostile"], 5) == (
        "structures/array_deque.py takes more than 6 s to import (an infinite loop?)"
    )


def test_a_loop_that_ignores_signals_is_stopped_from_outside(tmp_path: Path) -> None:
    folder = bad_submission(tmp_path, "deaf")
    limits = Limits(test_seconds=5, exercise_seconds=9)  # 5 s a test: over 3 times the reference's busiest
    result = grade_submission(folder, [exercise(6), exercise(1)], limits)
    r = result.result(6)
    assert 0 < r.score < 10 and not r.reason  # the tests before the loop keep their points
    assert r.failures[0].message == "the test took more than 5 s of CPU time (an infinite loop?)"
    assert r.failures[0].test.startswith("TestLinkedDeque::")
    assert result.result(1).score == 10


def test_a_missing_file_scores_zero_without_running(tmp_path: Path) -> None:
    folder = bad_submission(tmp_path, "deaf")  # has exercises 1 and 6 only
    result = grade_submission(folder, [exercise(2)], LIMITS)
    assert result.result(2).reason == "structures/linked_stack.py is missing"


def test_grading_twice_gives_the_same_result(tmp_path: Path) -> None:
    folder = bad_submission(tmp_path, "hostile")
    first = grade_submission(folder, [exercise(1)], LIMITS)
    second = grade_submission(folder, [exercise(1)], LIMITS)
    assert first.exercises == second.exercises  # same counts, same failure messages
    assert 0 < first.score < 10


def test_memory_kept_by_one_exercise_does_not_cost_the_next(tmp_path: Path) -> None:
    folder = bad_submission(tmp_path, "hoarder")
    together = grade_submission(folder, [exercise(1), exercise(2)], LIMITS)
    assert together.result(1).score < 10
    assert together.result(2).score == 10
    alone = grade_submission(folder, [exercise(2)], LIMITS)
    assert alone.exercises == (together.result(2),)


def test_a_sleeping_loop_costs_only_the_test_that_reaches_it(tmp_path: Path) -> None:
    folder = bad_submission(tmp_path, "sleeper")
    result = grade_submission(folder, [exercise(1)], Limits(exercise_seconds=90, stall_seconds=4))
    r = result.result(1)
    assert not r.reason and 8 <= r.score < 10  # 16 of 17 (one more if the machine is very busy)
    failed = {f.test: f.message for f in r.failures}
    assert failed["TestArrayStack::test_repr_rebuilds"] == (
        "the test waited 4 s with no CPU time used (does the code sleep or wait?)")


def test_the_submission_limit_stops_the_exercises_that_would_pass_it(tmp_path: Path) -> None:
    folder = bad_submission(tmp_path, "slow_import")
    limits = Limits(test_seconds=10, exercise_seconds=60, submission_seconds=6)
    result = grade_submission(folder, [exercise(1), exercise(2)], limits)
    assert _reason(result, 1) == (
        "ran out of CPU time: the submission used up its 6 s before its tests started")
    assert _reason(result, 2) == "not run: the submission used up its 6 s of CPU time"


def test_rewriting_a_contract_test_costs_the_exercise_that_did_it(tmp_path: Path) -> None:
    contract = REPO_ROOT / "solitaire_ds" / "course" / "contracts" / "test_ex02_linked_stack.py"
    before = contract.read_bytes()
    folder = bad_submission(tmp_path, "tamper")
    result = grade_submission(folder, [exercise(1), exercise(2)], LIMITS)
    if wall_for("best").kind == "none":  # no wall: the checkout can be written, and that is seen
        assert "the grader's own files changed" in _reason(result, 1)
    else:  # in the sandbox the worker holds no contract test to rewrite: the attempt fails at import
        assert "No such file or directory" in _reason(result, 1)
    assert result.result(2).score == 10  # a fresh copy of the contract tests
    assert contract.read_bytes() == before  # the child never saw the checkout


def test_code_that_reaches_for_the_grader_finds_nothing_there(tmp_path: Path) -> None:
    folder = bad_submission(tmp_path, "cheat")
    result = grade_submission(folder, [exercise(7)], LIMITS)
    # the snippet breaks its own shuffle if it finds any part of the judge in its process
    assert result.result(7).score == 10, result.result(7).summary
