"""Meta-tests: every bug in the zoo loses points on the exercise it belongs to.

All bugs are graded in one batch: packed into a few submission folders (at most one bug
per exercise in each), two folders at a time, each exercise stopping at its first failing
test (one failure is enough to show the contract catches the bug).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from solitaire_ds.course import EXERCISES
from solitaire_ds.course.grader.runner import Limits, available_exercises
from solitaire_ds.course.results import ExerciseResult
from tests.grading.zoo import ZOO, Bug, grade_bugs, load_bugs

BUGS = load_bugs()


def test_the_zoo_holds_at_least_fifteen_bugs() -> None:
    assert len(BUGS) >= 15


def test_every_exercise_has_a_bug_in_the_zoo() -> None:
    without = [ex.number for ex in EXERCISES if ex.number not in {b.exercise for b in BUGS}]
    assert not without, f"exercises with no bug in the zoo: {without}"


def test_a_game_rule_with_the_wrong_pile_is_in_the_zoo() -> None:
    assert any("wrong pile" in b.description for b in BUGS if b.exercise >= 8)


def test_the_readme_names_a_module_that_runs() -> None:
    modules = re.findall(r"`python -m ([\w.]+)", (ZOO / "README.md").read_text(encoding="utf-8"))
    assert modules, "the README gives no command"
    for module in modules:
        spec = importlib.util.find_spec(module)
        assert spec is not None and spec.origin is not None, f"{module} cannot be run"
        source = Path(spec.origin).read_text(encoding="utf-8")
        assert "__main__" in source, f"{module} has no main"


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


STRUCTURE_BUGS = [b for b in BUGS if b.exercise <= 6]


@pytest.mark.parametrize("bug", STRUCTURE_BUGS, ids=[b.name for b in STRUCTURE_BUGS])
def test_a_structure_bug_is_reported_as_the_operations_that_show_it(
    bug: Bug, zoo_results: dict[str, ExerciseResult]
) -> None:
    message = zoo_results[bug.name].summary
    first = message.splitlines()[0]
    assert first.startswith("after "), f"{bug.description}: {message!r} does not name the steps"
    assert any(
        word in first for word in (" returned ", " raised ", " failed: ", " the capacity changed ")
    ), message
    assert not any(line.startswith("assert ") for line in message.splitlines()), message


def test_a_peek_that_pops_is_reported_in_plain_words(zoo_results: dict[str, ExerciseResult]) -> None:
    assert zoo_results["02_stack_peek_pops"].summary == (
        "after ArrayStack(), push(1), push(2), peek(), peek() returned 1, expected 2")


def test_an_error_the_structure_raises_names_the_step_and_the_steps_before(
    zoo_results: dict[str, ExerciseResult],
) -> None:
    message = zoo_results["07_queue_enqueue_forgets_wrap"].summary
    assert message.startswith("after ArrayQueue(), enqueue(0), "), message
    assert message.endswith(" raised IndexError: list assignment index out of range"), message


def test_an_error_in_a_game_rule_names_the_move_that_raised_it(
    zoo_results: dict[str, ExerciseResult],
) -> None:
    assert zoo_results["28_idiots_delight_pair_pops_one_pile_twice"].summary == (
        "with A♣ 2♣ A♦ 2♦ showing, play(pair 1 3) raised EmptyStructureError: pop from an empty stack")


def test_a_game_failure_shows_no_expression_dump(zoo_results: dict[str, ExerciseResult]) -> None:
    for bug in BUGS:
        message = zoo_results[bug.name].summary
        assert "\nassert " not in message and not message.startswith("assert "), (bug.name, message)


#: Game and solver bugs, each with words its first message must hold and the words of the
#: neighbouring bug's message it must not (each message names only the cause it establishes).
FIRST_CAUSES = {
    "21_klondike_rule_2_skipped": ("missed the rule-2 move", "rule-3 move where"),
    "44_klondike_run_placed_by_its_top_card": ("Both are rule-3 moves", "missed the"),
    "49_klondike_waste_to_a_pile_before_its_foundation": ("missed the rule-1 move", "only a king"),
    "60_perpetual_motion_cycle_check_remembers_first": ("your game ended there", "never gathered"),
    "54_idiots_delight_suit_event_piles_lower_first": ("'piles' is", "'keep'"),
    "55_idiots_delight_suit_keeps_the_first_piles_card": ("'keep' is", "'piles'"),
    "57_idiots_delight_suits_listed_after_pairs": ("the same moves in another order", "event"),
    "58_aces_up_discards_listed_by_rank": ("'cards' is", "should score"),
    "51_solver_adds_keys_when_it_pops": ("a second time", "dominant"),
    "52_solver_ignores_dominant": ("model.dominant", "bound"),
    "53_solver_prunes_with_less_than": ("no better than the best value", "dominant"),
}


@pytest.mark.parametrize("bug", sorted(FIRST_CAUSES))
def test_a_game_message_names_the_first_difference_and_only_its_cause(
    bug: str, zoo_results: dict[str, ExerciseResult],
) -> None:
    said, not_said = FIRST_CAUSES[bug]
    message = zoo_results[bug].summary
    assert said in message and not_said not in message, (bug, message)
