"""The committed exercises/ and solutions/ are exactly what the generator writes now."""

from __future__ import annotations

from solitaire_ds.course import REPO_ROOT
from solitaire_ds.course.generate import differences, expected_files


def test_generated_folders_match_the_package() -> None:
    diffs = differences(REPO_ROOT)
    assert not diffs, (
        "exercises/ or solitaire_ds/ changed without regenerating; run "
        "'solitaire-ds exercises build' and commit exercises/ and solutions/:\n  "
        + "\n  ".join(diffs)
    )


def test_generated_output_is_deterministic() -> None:
    assert expected_files() == expected_files()


def test_every_structure_exercise_is_generated() -> None:
    files = expected_files()
    for name in ("array_stack", "linked_stack", "array_queue", "linked_queue", "array_deque",
                 "linked_deque"):
        assert f"exercises/structures/{name}.py" in files
        assert f"solutions/structures/{name}.py" in files
