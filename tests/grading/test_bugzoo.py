"""Meta-tests: every bug in the zoo loses points on the exercise it belongs to.

All bugs are graded in one batch: packed into a few submission folders (at most one bug
per exercise in each), two folders at a time, each exercise stopping at its first failing
test (one failure is enough to show the contract catches the bug).
"""

from __future__ import annotations

import pytest

from solitaire_ds.grading.results import ExerciseResult
from solitaire_ds.grading.runner import Limits, available_exercises
from tests.grading.zoo import Bug, grade_bugs, load_bugs

BUGS = load_bugs()


def test_the_zoo_holds_at_least_fifteen_bugs() -> None:
    assert len(BUGS) >= 15


@pytest.fixture(scope="module")
def zoo_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ExerciseResult]:
    available = {ex.number for ex in available_exercises()}
    bugs = [b for b in BUGS if b.exercise in available]
    return grade_bugs(bugs, tmp_path_factory.mktemp("zoo"), Limits(fail_fast=True))


@pytest.mark.parametrize("bug", BUGS, ids=[b.name for b in BUGS])
def test_bug_loses_points_on_its_exercise(
    bug: Bug, zoo_results: dict[str, ExerciseResult]
) -> None:
    if bug.name not in zoo_results:
        pytest.skip(f"exercise {bug.exercise} has no contract tests yet")
    result = zoo_results[bug.name]
    assert result.score < result.max_score, f"{bug.description}: not caught by the contract"
    assert not result.reason.startswith("the test run stopped"), result.reason
