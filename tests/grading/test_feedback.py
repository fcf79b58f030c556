"""Feedback that can be handed back: every failing test, where it surfaced, one file per student."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solitaire_ds.cli import main
from tests.grading.submissions import make_submission

BROKEN_POP = """
def _pop(self):
    raise RuntimeError("oops " + "```" + "x" * 3000 + " end of a long message")


ArrayStack.pop = _pop
"""


def test_grade_writes_feedback_and_json_for_each_student(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    alice = make_submission(tmp_path / "class", "alice", {1: BROKEN_POP})
    bob = make_submission(tmp_path / "class", "bob", {1: None})
    out = tmp_path / "out"
    out.mkdir()
    args = ["grade", str(alice), str(bob), "--exercise", "1", "--feedback", str(out / "feedback"),
            "--json-dir", str(out / "json")]
    assert main(args) == 0
    capsys.readouterr()
    feedback = (out / "feedback" / "alice.md").read_text()
    failing = [line for line in feedback.splitlines() if line.startswith("### ")]
    assert len(failing) == 9  # every failing test, not the first only
    assert "raised RuntimeError: oops" in feedback
    assert "x" * 3000 + " end of a long message" in feedback  # whole, however long
    assert "\n````text\n" in feedback  # a fence longer than the message's own backticks
    assert "(in structures/array_stack.py, line " in feedback and "in _pop)" in feedback
    assert "Every test passes." in (out / "feedback" / "bob.md").read_text()
    data = json.loads((out / "json" / "alice.json").read_text())
    assert len(data["tests"]) == 19 and sum(t["status"] == "failed" for t in data["tests"]) == 9


def test_a_file_that_cannot_be_written_stops_no_other(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    alice = make_submission(tmp_path / "class", "alice", {1: None})
    bob = make_submission(tmp_path / "class", "bob", {1: None})
    out = tmp_path / "out"
    (out / "feedback" / "alice.md").mkdir(parents=True)  # a folder where alice's feedback would go
    args = ["grade", str(alice), str(bob), "--exercise", "1", "--feedback", str(out / "feedback"),
            "--csv", str(out / "grades.csv")]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert f"cannot write {out / 'feedback' / 'alice.md'}" in err
    assert "Every test passes." in (out / "feedback" / "bob.md").read_text()
    assert (out / "grades.csv").read_text().count("10.00,10.00") == 2


def test_check_all_shows_every_failing_test(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mine = make_submission(tmp_path, "mine", {1: BROKEN_POP})
    assert main(["check", "1", "--impl", str(mine)]) == 1
    assert capsys.readouterr().out.count("failing test") == 1
    assert main(["check", "1", "--impl", str(mine), "--all"]) == 1
    assert capsys.readouterr().out.count("failing test:") == 9


def test_feedback_inside_a_graded_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    alice = make_submission(tmp_path, "alice", {1: None})
    assert main(["grade", str(alice), "--feedback", str(alice / "notes")]) == 2
    assert "inside the folder" in capsys.readouterr().err
    assert not (alice / "notes").exists()


def test_check_shows_a_long_game_message_whole_down_to_the_step_that_differs() -> None:
    from solitaire_ds.course.catalog import exercise
    from solitaire_ds.course.report import check_text
    from solitaire_ds.course.results import ExerciseResult, Failure, SubmissionResult

    steps = [f"step {n}: the same as the reference" for n in range(1, 41)]
    message = "\n".join([*steps, "step 41: rule 3 moved 7♣ onto pile 2, expected pile 4"])
    failing = Failure("test_ex11_klondike.py::test_rule_3", message)
    result = ExerciseResult(exercise(11), passed=0, total=1, failures=(failing,))
    text = check_text(SubmissionResult("exercises", "exercises", (result,)))
    assert "    step 41: rule 3 moved 7♣ onto pile 2, expected pile 4" in text
    assert text.count("the same as the reference") == 40
