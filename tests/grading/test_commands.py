"""The ``exercises``, ``check`` and ``grade`` commands: output, files, and misuse."""

from __future__ import annotations

import csv
import json
import os
import sys
from pathlib import Path

import jsonschema
import pytest

from solitaire_ds.cli import main
from solitaire_ds.course import REPO_ROOT

SOLUTIONS = str(REPO_ROOT / "solutions")
EXERCISES = str(REPO_ROOT / "exercises")
SCHEMA = json.loads((Path(__file__).parent / "schemas" / "gradescope-results.json").read_text())


def test_exercises_list_shows_the_course_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["exercises", "list"]) == 0
    out = capsys.readouterr().out
    assert out.index("ArrayStack") < out.index("LinkedDeque") < out.index("The solver")
    assert "structures/array_queue.py" in out


def test_exercises_build_check_fails_on_an_empty_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["exercises", "build", "--check", "--out", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "out of date" in out and "exercises/structures/array_stack.py: missing" in out


def test_check_on_solutions_passes_with_encouragement(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "1", "--impl", SOLUTIONS]) == 0
    out = capsys.readouterr().out
    assert "PASS" in out and "Well done!" in out


def test_check_on_the_skeleton_shows_the_first_failure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "2", "--impl", EXERCISES]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "first failing test:" in out
    assert "NotImplementedError:" in out
    assert "Keep going" in out and "solitaire-ds check 2" in out


def test_grade_writes_gradescope_json_one_entry_per_test(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file, folder = tmp_path / "results.json", tmp_path / "json"
    assert main(["grade", SOLUTIONS, "--exercise", "1", "--json", str(out_file), "--json-dir", str(folder)]) == 0
    data = json.loads(out_file.read_text())
    jsonschema.validate(data, SCHEMA)
    assert data["score"] == 10 and isinstance(data["execution_time"], int)
    assert len(data["tests"]) == 19 and all(t["status"] == "passed" for t in data["tests"])
    assert data["tests"][0]["name"].startswith("Exercise 1: TestArrayStack::") and data["tests"][0]["number"] == "1.1"
    assert abs(sum(t["max_score"] for t in data["tests"]) - 10) < 0.01
    # the note (the generated solutions are the reference's) is the instructor's: never where students look
    (note,) = data["extra_data"]["notes"]
    assert "the same as the reference solution's" in note and data["stdout_visibility"] == "hidden"
    assert note not in data["output"] and all(note not in t["output"] for t in data["tests"])
    same = json.loads((folder / "solutions.json").read_text())  # --json-dir writes the one shape too
    assert {k: v for k, v in same.items() if k != "execution_time"} == {
        k: v for k, v in data.items() if k != "execution_time"}
    assert "solutions" in capsys.readouterr().out


def test_check_above_the_exercises_folder_says_to_go_into_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["exercises", "init", str(tmp_path / "my-exercises")]) == 0
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)
    assert main(["check", "1"]) == 2
    out, err = capsys.readouterr()
    assert err == "solitaire-ds check: error: no exercise files here; my-exercises/ holds yours: cd my-exercises && " \
                  "solitaire-ds check 1 (see solitaire-ds check --help)\n"
    assert out == ""


def test_grade_writes_one_csv_row_per_submission_in_parallel(tmp_path: Path) -> None:
    out_file = tmp_path / "grades.csv"
    args = ["grade", SOLUTIONS, EXERCISES, "--exercise", "4", "--jobs", "2", "--csv", str(out_file)]
    assert main(args) == 0
    rows = list(csv.reader(out_file.read_text().splitlines()))
    assert rows[0] == ["submission", "path", "ex04_linked_queue", "total", "notes", "sandbox"]
    assert rows[1] == ["Points Possible", "", "10", "10", "", ""]
    assert rows[2][:4] == ["solutions", SOLUTIONS, "10.00", "10.00"]
    assert "the same as the reference solution's" in rows[2][4]  # the generated solutions are
    assert rows[3][:5] == ["exercises", EXERCISES, "0.00", "0.00", ""]
    assert rows[2][5] == rows[3][5] and rows[2][5].startswith("sandbox: ")  # the wall, named in each row


def test_a_class_run_ends_with_every_output_whatever_the_files_and_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A working file with an 800-term expression, a folder whose name is not UTF-8, an honest student."""
    solution = (Path(SOLUTIONS) / "shuffle.py").read_text(encoding="utf-8")
    swap = "        items[i], items[j] = items[j], items[i]\n"
    long = solution.replace(swap, swap + "    _ = " + " + ".join(["1"] * 800) + "\n")  # in the graded function
    assert long != solution
    klass = tmp_path / "class"
    for name, text in ((b"honest", solution), (b"caf\xe9", solution), (b"long", long)):
        os.makedirs(bytes(klass) + b"/" + name)
        with open(bytes(klass) + b"/" + name + b"/shuffle.py", "w", encoding="utf-8") as file:
            file.write(text)
    out = tmp_path / "out"
    out.mkdir()
    paths = sorted(str(p) for p in klass.iterdir())
    assert main(["grade", *paths, "--exercise", "7", "--csv", str(out / "grades.csv"), "--json-dir",
                 str(out / "json"), "--feedback", str(out / "feedback")]) == 0
    printed = capsys.readouterr().out
    rows = list(csv.reader((out / "grades.csv").read_text(encoding="utf-8").splitlines()))
    assert [row[0] for row in rows[2:]] == ["caf\\xe9", "honest", "long"]
    assert {row[0]: row[3] for row in rows[2:]} == {"caf\\xe9": "10.00", "honest": "10.00", "long": "10.00"}
    assert sorted(p.name for p in (out / "json").iterdir()) == ["caf_xe9.json", "honest.json", "long.json"]
    assert sorted(p.name for p in (out / "feedback").iterdir()) == ["caf_xe9.md", "honest.md", "long.md"]
    assert json.loads((out / "json" / "honest.json").read_text())["score"] == 10
    assert "caf\\xe9" in printed and "\udce9" not in printed


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["grade", "no/such/folder"], "submission folder not found: 'no/such/folder'"),
        (["grade", SOLUTIONS, "--jobs", "0"], "argument --jobs: '0' must be at least 1"),
        (["grade", SOLUTIONS, "--jobs", "²"], "argument --jobs: '²' is not a whole number"),
        (["grade", SOLUTIONS, "--json", "no/such/dir/r.json"],
         "--json no/such/dir/r.json: the folder no/such/dir does not exist"),
        (["grade", SOLUTIONS, "--csv", "."], "--csv .: that is a folder; give a file name"),
        (["grade", SOLUTIONS, "--test-timeout", "inf"],
         "argument --test-timeout: 'inf' is not a number of seconds from 0"),
        (["grade", SOLUTIONS, "--submission-timeout", "0"],
         "argument --submission-timeout: '0' is not a number of seconds"),
        (["exercises", "build", "--out", "/proc/no-such-place"], "cannot write under '/proc/no-such-place'"),
        (["grade", SOLUTIONS, "--exercise", "x"],
         "argument --exercise: exercise must be a number from 1 to 12, not 'x'"),
        (["grade", SOLUTIONS, "--exercise", "13"], "argument --exercise: no exercise 13; the exercises are 1 to 12"),
        (
            ["grade", SOLUTIONS, EXERCISES, "--json", "r.json"],
            "--json writes one submission's results.json; got 2 paths (use --csv for several)",
        ),
        (["check", "0"], "argument N: no exercise 0; the exercises are 1 to 12"),
        (["check", "1", "--impl", "no/such"], "implementation folder not found: 'no/such'"),
        (["check", "--test-timeout", "-1"], "argument --test-timeout: '-1' is not a number of seconds from 0 to 86400"),
        (["grade", SOLUTIONS, "--csv", "/proc/x"], "--csv /proc/x: the folder /proc may not be written"),
        (["grade", SOLUTIONS, "--json", "/proc/x.json"], "--json /proc/x.json: the folder /proc may not be written"),
        (["autograder", "gradescope", "--out", "/proc/x.zip"],
         "--out /proc/x.zip: the folder /proc may not be written"),
    ],
)
def test_misuse_is_one_line_with_exit_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    # misuse found while parsing names its command; misuse found later, the program
    assert err.startswith(f"solitaire-ds {argv[0]}: error: {message}")
    assert err.rstrip().endswith(f"(see solitaire-ds {argv[0]} --help)")
    assert err.count("\n") == 1
    assert out == ""  # nothing is checked or graded before the misuse is reported


def test_impl_solutions_from_an_installed_package_says_there_are_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # an installed package: the folder above solitaire_ds is site-packages, with no solutions/ in it
    import solitaire_ds.course.catalog as catalog

    monkeypatch.setattr(catalog, "REPO_ROOT", tmp_path / "site-packages")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "1", "--impl", "solutions"]) == 2
    err = capsys.readouterr().err
    assert "implementation folder not found: 'solutions'" in err and "an installed package has none" in err
    assert err.count("\n") == 1


def test_check_without_the_grading_extra_says_how_to_install_it_where_it_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import solitaire_ds
    import solitaire_ds.cli.course as course_cli

    monkeypatch.setitem(sys.modules, "hypothesis", None)  # as if it were not installed
    assert main(["check", "1"]) == 2
    assert "which need hypothesis: install the grading extra (pip install -e '.[grading]')" in capsys.readouterr().err
    monkeypatch.setattr(course_cli, "REPO_ROOT", tmp_path)  # installed from a wheel: no clone around it
    assert main(["check", "1"]) == 2
    err = capsys.readouterr().err
    wheel = f"solitaire_ds-{solitaire_ds.__version__}-py3-none-any.whl"
    assert f"pip install '{wheel}[grading]', the wheel you were given" in err
    assert "-e '.[grading]'" not in err
