"""The Gradescope round trip: build the bundle, run setup.sh into a fresh virtual environment,
run run_autograder on a stand-in for ``/autograder``, and validate ``results.json``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import jsonschema
import pytest

from solitaire_ds.cli import main
from solitaire_ds.course import exercise
from solitaire_ds.course.gradescope import find_submission
from tests.grading.submissions import SOLUTIONS

SCHEMA = json.loads((Path(__file__).parent / "schemas" / "gradescope-results.json").read_text())
EXERCISES = Path(SOLUTIONS).parent / "exercises"


def test_the_schema_can_fail() -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"tests": [{"name": "x", "visibility": "sometimes"}]}, SCHEMA)


EXTRA_TEST = """
from solitaire_ds.course.catalog import load_module


def test_many_pushes(impl):
    stack = load_module(impl, "structures.array_stack").ArrayStack(range(100))
    assert len(stack) == 100 and stack.peek() == 99
"""
COURSE = """
[exercise.1]
points = 20

[exercise.1.weights]
"instructor/*" = 2
"""


@pytest.mark.slow
def test_the_bundle_grades_an_upload_and_writes_valid_results(tmp_path: Path) -> None:
    bundle = tmp_path / "autograder.zip"
    mine = tmp_path / "mine"  # the instructor's own test, and a course file that counts it double
    mine.mkdir()
    (mine / "test_ex01_more.py").write_text(EXTRA_TEST, encoding="utf-8")
    (tmp_path / "course.toml").write_text(COURSE, encoding="utf-8")
    assert main(["autograder", "gradescope", "--exercises", "1-2", "--hidden", "2", "--out", str(bundle),
                 "--course", str(tmp_path / "course.toml"), "--tests", str(mine)]) == 0
    root = tmp_path / "autograder"
    source = root / "source"
    with zipfile.ZipFile(bundle) as archive:
        assert {"setup.sh", "run_autograder", "course.json", "course.toml", "tests/test_ex01_more.py"} <= set(
            archive.namelist())
        archive.extractall(source)
    env = {**os.environ, "SOLITAIRE_DS_AUTOGRADER_ROOT": str(root),
           "SOLITAIRE_DS_AUTOGRADER_VENV": str(tmp_path / "venv")}
    env.pop("PYTHONPATH", None)
    subprocess.run(["bash", str(source / "setup.sh")], env=env, check=True, capture_output=True, timeout=600)
    upload = root / "submission"  # dragged and dropped: the files flat at the top
    upload.mkdir()
    shutil.copyfile(SOLUTIONS / "structures" / "array_stack.py", upload / "array_stack.py")
    shutil.copyfile(EXERCISES / "structures" / "linked_stack.py", upload / "linked_stack.py")
    done = subprocess.run(["bash", str(source / "run_autograder")], env=env, capture_output=True, text=True,
                          timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads((root / "results" / "results.json").read_text())
    jsonschema.validate(results, SCHEMA)
    assert results["score"] == 20.0  # the course file makes exercise 1 worth 20
    ex1 = [t for t in results["tests"] if t["number"].startswith("1.")]
    ex2 = [t for t in results["tests"] if t["number"].startswith("2.")]
    assert len(ex1) == 20 and len(ex2) == 17  # one entry per contract test, and the instructor's
    assert ex1[-1]["name"] == "Exercise 1: instructor/test_ex01_more.py::test_many_pushes"
    assert abs(ex1[-1]["max_score"] - 2 * ex1[0]["max_score"]) < 0.001  # weighed double
    assert all(t["status"] == "passed" and t["visibility"] == "visible" for t in ex1)
    assert all(t["status"] == "failed" and t["visibility"] == "hidden" for t in ex2)
    assert "NotImplementedError" in ex2[0]["output"]
    assert abs(sum(t["score"] for t in results["tests"]) - results["score"]) < 0.01


@pytest.mark.parametrize("layout", ["flat", "exercises", "nested"])
def test_the_submission_is_found_wherever_the_student_put_it(tmp_path: Path, layout: str) -> None:
    upload = tmp_path / "submission"
    where = {"flat": upload, "exercises": upload / "exercises" / "structures",
             "nested": upload / "my-work" / "structures"}[layout]
    where.mkdir(parents=True)
    shutil.copyfile(SOLUTIONS / "structures" / "array_stack.py", where / "array_stack.py")
    found = find_submission(upload, [exercise(1), exercise(2)])
    original = SOLUTIONS / "structures" / "array_stack.py"
    assert (found / "structures" / "array_stack.py").read_bytes() == original.read_bytes()
