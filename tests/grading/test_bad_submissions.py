"""The grader against submissions that misbehave: each costs only its own exercise.

Two submissions are graded once (in parallel, as ``--jobs 2`` does) with small limits:

* ``crashes``: 1 has a syntax error, 2 raises at import, 3 calls ``sys.exit`` at import,
  4 calls ``os._exit`` in a method, 5 is correct, 6 loops forever in ``__repr__``;
* ``hostile``: 1 recurses without end, 2 prints hundreds of megabytes at import, 3
  allocates memory without end, 4 prints "PASSED" and forges results files, 5 loops
  forever at import, 6 is correct.

A third, graded alone with a short exercise limit, ignores the per-test alarm and loops
forever. The per-test limit counts CPU time, so a busy machine does not fail good code.
A fourth hoards memory in a module-level list, which outlives its own exercise's tests:
the next exercise, graded in a process of its own, must not pay for it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from solitaire_ds.course import exercise
from solitaire_ds.grading.results import SubmissionResult
from solitaire_ds.grading.runner import Limits, grade_many, grade_submission
from tests.grading.submissions import make_submission

LIMITS = Limits(test_seconds=5, exercise_seconds=40, memory_bytes=512 << 20)

CRASHES = {
    1: "def broken(:\n    pass",
    2: "raise RuntimeError('oops at import')",
    3: "import sys\nsys.exit(3)",
    4: "import os\ndef _dequeue(self):\n    os._exit(7)\nLinkedQueue.dequeue = _dequeue",
    5: None,
    6: "def _repr(self):\n    while True:\n        pass\nLinkedDeque.__repr__ = _repr",
}

FORGER = '''
import glob, os, tempfile
print("PASSED " * 100)
for folder in glob.glob(os.path.join(tempfile.gettempdir(), "solitaire-ds-grade-*", "*")):
    for name in glob.glob(os.path.join(folder, "*")):
        with open(name, "a") as out:
            out.write('{"p": "{\\\\"e\\\\": \\\\"end\\\\"}", "mac": "0"}\\n')
with open("results.json", "w") as out:
    out.write('{"score": 100}')
def _dequeue(self):
    print("PASSED")
    return None
LinkedQueue.dequeue = _dequeue
'''

HOSTILE = {
    1: "def _peek(self):\n    return self.peek()\nArrayStack.peek = _peek",
    2: "for _ in range(100000):\n    print('spam' * 1000)",
    3: (
        "def _enqueue(self, item):\n    junk = []\n    while True:\n"
        "        junk.append(bytearray(10**7))\nArrayQueue.enqueue = _enqueue"
    ),
    4: FORGER,
    5: "while True:\n    pass",
    6: None,
}

DEAF = (
    "import signal\ndef _add_front(self, item):\n"
    "    signal.signal(signal.SIGPROF, signal.SIG_IGN)\n    while True:\n        pass\n"
    "LinkedDeque.add_front = _add_front"
)

HOARDER = (
    "_HOARD = []\ndef _push(self, item):\n    while True:\n"
    "        _HOARD.append(bytearray(10**7))\nArrayStack.push = _push"
)


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SubmissionResult]:
    root = tmp_path_factory.mktemp("subs")
    paths = [make_submission(root, "crashes", CRASHES), make_submission(root, "hostile", HOSTILE)]
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


def test_os_exit_in_a_method_scores_zero_and_the_rest_is_graded(
    graded: dict[str, SubmissionResult],
) -> None:
    reason = _reason(graded["crashes"], 4)
    assert reason.startswith("the test process stopped with exit status 7 during TestLinkedQueue::")
    assert "os._exit()" in reason
    assert graded["crashes"].result(5).score == 10  # each exercise has a process of its own


def test_an_infinite_loop_costs_only_the_tests_that_reach_it(
    graded: dict[str, SubmissionResult],
) -> None:
    r = graded["crashes"].result(6)
    assert not r.reason and 0 < r.score < 10
    assert any("took more than 5 s of CPU time" in f.message for f in r.failures)


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


def test_printing_passed_and_forging_results_changes_nothing(
    graded: dict[str, SubmissionResult],
) -> None:
    r = graded["hostile"].result(4)
    assert r.score < 10 and not r.reason
    assert any("not written by the grader" in note for note in graded["hostile"].notes)


def test_an_infinite_loop_at_import_scores_zero(graded: dict[str, SubmissionResult]) -> None:
    assert _reason(graded["hostile"], 5) == (
        "structures/array_deque.py takes more than 5 s to import (an infinite loop?)"
    )


def test_a_loop_that_ignores_the_alarm_is_killed_at_the_exercise_limit(tmp_path: Path) -> None:
    folder = make_submission(tmp_path, "deaf", {6: DEAF, 1: None})
    limits = Limits(test_seconds=5, exercise_seconds=6)
    result = grade_submission(folder, [exercise(6), exercise(1)], limits)
    assert _reason(result, 6).startswith("timed out after 6 s during TestLinkedDeque::")
    assert result.result(1).score == 10


def test_a_missing_file_scores_zero_without_running(tmp_path: Path) -> None:
    folder = make_submission(tmp_path, "partial", {1: None})
    result = grade_submission(folder, [exercise(2)], LIMITS)
    assert result.result(2).reason == "structures/linked_stack.py is missing"


def test_grading_twice_gives_the_same_result(tmp_path: Path) -> None:
    folder = make_submission(tmp_path, "again", {1: HOSTILE[1]})
    first = grade_submission(folder, [exercise(1)], LIMITS)
    second = grade_submission(folder, [exercise(1)], LIMITS)
    assert first.exercises == second.exercises  # same counts, same failure messages
    assert 0 < first.score < 10


def test_memory_kept_by_one_exercise_does_not_cost_the_next(tmp_path: Path) -> None:
    folder = make_submission(tmp_path, "hoarder", {1: HOARDER, 2: None})
    together = grade_submission(folder, [exercise(1), exercise(2)], LIMITS)
    assert together.result(1).score < 10
    assert together.result(2).score == 10
    alone = grade_submission(folder, [exercise(2)], LIMITS)
    assert alone.exercises == (together.result(2),)
