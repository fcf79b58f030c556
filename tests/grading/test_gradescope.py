"""Gradescope: the bundle, the search of an upload, and the round trip the way Gradescope runs it.

Gradescope unzips the bundle into ``/autograder/source``, runs ``setup.sh`` there once, and for
each submission runs a *copy* of ``run_autograder`` at ``/autograder/run_autograder``, from
``/autograder``, as root, with the upload in ``/autograder/submission``, in a Docker container
where bubblewrap cannot start. The round trips here do exactly that, in the real ``/autograder``
(:mod:`tests.grading.autograder`), and validate ``results.json`` against a JSON Schema of
Gradescope's format.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
import zipfile
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import solitaire_ds
from solitaire_ds.cli import main
from solitaire_ds.course import EXERCISES, exercise
from solitaire_ds.course.gradescope import _SETUP, MAX_DEPTH, MAX_ENTRIES, found_upload, installed_wheel, run
from tests.grading.autograder import ROOT, autograder
from tests.grading.submissions import SOLUTIONS
from tests.grading.wall_attacks import WALL_ATTACKS

SCHEMA = json.loads((Path(__file__).parent / "schemas" / "gradescope-results.json").read_text())
SKELETONS = Path(SOLUTIONS).parent / "exercises"
#: The phrase of the similarity note the solutions always get: for the instructor only.
SAME = "the same as the reference solution's"


def test_the_schema_can_fail() -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"tests": [{"name": "x", "visibility": "sometimes"}]}, SCHEMA)


def _flat(upload: Path, numbers: list[int] | None = None) -> None:
    """Put the solution file of each exercise at the top of ``upload``, as a drag and drop does."""
    upload.mkdir(parents=True, exist_ok=True)
    for ex in EXERCISES if numbers is None else [exercise(n) for n in numbers]:
        shutil.copyfile(SOLUTIONS / ex.relpath, upload / Path(ex.relpath).name)


def students_see(results: dict[str, Any]) -> str:
    """Return every text of ``results.json`` a student is shown (hidden entries included: they count too)."""
    return "\n".join([results.get("output", ""), *(f"{t.get('name', '')}\n{t.get('output', '')}"
                                                   for t in results["tests"])])


#: What every run in Gradescope's layout grades behind: a user id per exercise, no namespaces, no cgroup.
GRADESCOPE_WALL = ("sandbox: a user id per exercise, no namespaces (bubblewrap: Creating new namespace failed: "
                   "Operation not permitted); no cgroup: each process is capped on its own, and the user id at 64 "
                   "processes")


def round_trip(bundle: Path, work: Path, cheat: bool = False) -> tuple[dict[str, Any], str]:
    """Install ``bundle`` in ``/autograder`` and grade the twelve solution files uploaded flat, as Gradescope
    does; with ``cheat``, grade first the twelve empty skeletons with attacks appended, which must score 0.

    Return the honest upload's ``results.json`` and what ``run_autograder`` printed (which Gradescope
    shows the instructor only). Check on the way that every run left nothing in its temporary folder
    and named its wall, and that no process of the cheat's rewrote its results after the run.
    """
    with autograder() as machine:
        said = machine.install(bundle)
        assert f"setup.sh: each run will grade behind: {GRADESCOPE_WALL}" in said
        if cheat:
            upload = work / "cheat"
            marker = _skeletons_with_attacks(upload)
            machine.env["GRADESCOPE_API_TOKEN"] = canary = f"canary{os.getpid()}"  # the grader's environment
            results, printed, _ = machine.grade(upload)
            seen = json.dumps(results)  # the snoop's findings are in its exception's message, if it found any
            assert "uid=606" in seen and "uid=0" not in seen and canary not in seen, seen[:2000]  # it ran, found none
            assert "stack.peek() == 99" not in seen  # nor the instructor's test, when the bundle has one
            jsonschema.validate(results, SCHEMA)
            time.sleep(1.5)  # a daemon that outlived the run would have rewritten results.json by now
            assert json.loads((ROOT / "results" / "results.json").read_text(encoding="utf-8")) == results
            assert results["score"] == 0.0, [(t["name"], t["score"]) for t in results["tests"] if t["score"]]
            assert sorted(p.name for p in (ROOT / "results").iterdir()) == ["results.json"]
            assert [p for place in ("/tmp", "/dev/shm") for p in Path(place).glob(f"*{marker}*")] == []
            assert [p.name for p in Path("/proc").iterdir() if p.name.isdigit() and _names(p, marker)] == []
            assert results["extra_data"]["sandbox"] == GRADESCOPE_WALL and GRADESCOPE_WALL in printed
            assert list(machine.tmp.iterdir()) == []
        honest = work / "honest"
        _flat(honest)
        results, printed, _ = machine.grade(honest)
        jsonschema.validate(results, SCHEMA)
        assert results["extra_data"]["sandbox"] == GRADESCOPE_WALL and GRADESCOPE_WALL in printed
        assert list(machine.tmp.iterdir()) == []  # every temporary folder of the run was removed
    return results, printed


def _names(proc: Path, marker: str) -> bool:
    try:
        return marker.encode() in (proc / "cmdline").read_bytes()
    except OSError:
        return False


def _skeletons_with_attacks(upload: Path) -> str:
    """The twelve skeletons dragged in flat, three of them with an attack on the walls appended;
    return the word their processes and files carry."""
    upload.mkdir(parents=True)
    for ex in EXERCISES:
        shutil.copyfile(SKELETONS / ex.relpath, upload / Path(ex.relpath).name)
    marker = f"gs{os.getpid()}"
    # the snoop's fisher_yates raises what it found, so its findings reach the results if it finds any
    for name, attack in (("shuffle.py", "snoop"), ("array_stack.py", "daemon"), ("linked_stack.py", "report_forger")):
        code = textwrap.dedent(WALL_ATTACKS[attack][1]).strip().replace("MARKER", marker)
        with open(upload / name, "a", encoding="utf-8") as out:
            out.write("\n\n" + code + "\n")
    return marker


def _holds_no_instructor_note(results: dict[str, Any], printed: str) -> None:
    notes = results["extra_data"]["notes"]
    assert notes and SAME in printed and any(SAME in note for note in notes)  # said to the instructor
    seen = students_see(results)
    assert SAME not in seen and all(note not in seen for note in notes)
    assert results["stdout_visibility"] == "hidden"


EXTRA_TEST = """
from solitaire_ds.course.catalog import load_module


def test_many_pushes(impl):
    stack = load_module(impl, "structures.array_stack").ArrayStack(range(100))
    assert len(stack) == 100 and stack.peek() == 99
"""
COURSE = """
[exercise.1.weights]
"instructor/*" = 2
"""


@pytest.mark.slow
def test_the_bundle_grades_twelve_files_uploaded_flat_from_the_root_copy(tmp_path: Path) -> None:
    bundle = tmp_path / "autograder.zip"
    mine = tmp_path / "mine"  # the instructor's own test, and a course file that counts it double
    mine.mkdir()
    (mine / "test_ex01_more.py").write_text(EXTRA_TEST, encoding="utf-8")
    (tmp_path / "course.toml").write_text(COURSE, encoding="utf-8")
    assert main(["autograder", "gradescope", "--hidden", "2", "--out", str(bundle),
                 "--course", str(tmp_path / "course.toml"), "--tests", str(mine)]) == 0
    assert "tests/test_ex01_more.py" in zipfile.ZipFile(bundle).namelist()
    results, printed = round_trip(bundle, tmp_path, cheat=True)
    failed = [(t["name"], t.get("output", "")) for t in results["tests"] if t["status"] != "passed"]
    assert not failed, failed
    assert results["score"] == 120.0
    ex1 = [t for t in results["tests"] if t["number"].startswith("1.")]
    ex2 = [t for t in results["tests"] if t["number"].startswith("2.")]
    assert ex1[-1]["name"] == "Exercise 1: instructor/test_ex01_more.py::test_many_pushes"
    assert abs(ex1[-1]["max_score"] - 2 * ex1[0]["max_score"]) < 0.001  # weighed double
    assert ex2 and all(t["visibility"] == "hidden" for t in ex2)
    assert all(t["visibility"] == "visible" for t in results["tests"] if not t["number"].startswith("2."))
    numbers = {t["number"].split(".")[0] for t in results["tests"]}
    assert numbers == {str(n) for n in range(1, 13)}  # one entry per test of every exercise
    assert abs(sum(t["score"] for t in results["tests"]) - results["score"]) < 0.01
    assert results["output"] == "Found 12 of the 12 exercise files this assignment grades."
    _holds_no_instructor_note(results, printed)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("SOLITAIRE_DS_BUNDLE"), reason="set SOLITAIRE_DS_BUNDLE to a bundle "
                    "built elsewhere (the wheel course script builds one from an installed wheel)")
def test_a_bundle_built_elsewhere_grades_twelve_files_uploaded_flat(tmp_path: Path) -> None:
    results, printed = round_trip(Path(os.environ["SOLITAIRE_DS_BUNDLE"]), tmp_path)
    assert results["score"] == 120.0 and all(t["status"] == "passed" for t in results["tests"])
    _holds_no_instructor_note(results, printed)


def test_the_run_grades_what_it_finds_and_says_what_it_found_instead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "autograder"
    source = root / "source"
    source.mkdir(parents=True)
    chosen = [{"number": n, "title": exercise(n).title, "visibility": "visible"} for n in (1, 3)]
    (source / "course.json").write_text(json.dumps({"exercises": chosen}), encoding="utf-8")
    upload = root / "submission"
    _flat(upload, [1])
    shutil.copyfile(SOLUTIONS / "structures" / "array_queue.py", upload / "array_queu.py")  # misnamed
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setenv("SOLITAIRE_DS_AUTOGRADER_ROOT", str(root))
    monkeypatch.setenv("TMPDIR", str(temporary))
    monkeypatch.setattr("tempfile.tempdir", str(temporary))
    assert run(source) == 0
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    jsonschema.validate(results, SCHEMA)
    (missing,) = [t for t in results["tests"] if t["number"].startswith("3")]  # one entry, not one per test
    assert missing == {
        "name": "Exercise 3: ArrayQueue: a circular buffer", "number": "3", "score": 0.0, "max_score": 10.0,
        "status": "failed", "visibility": "visible",
        "output": "No file named array_queue.py was found in your upload, so exercise 3 was not graded. "
                  "The .py files it holds are: array_queu.py. Upload your array_queue.py (on its own, with the "
                  "others, or inside a folder: it is found by its name).",
    }
    assert results["score"] == 10.0 and len(results["tests"]) == 1 + len(exercise_tests(results, 1))
    assert results["output"].startswith("Found 1 of the 2 exercise files")
    _holds_no_instructor_note(results, capsys.readouterr().out)
    assert list(temporary.iterdir()) == []


def test_an_upload_with_a_backup_of_skeletons_and_a_helper_module_scores_full_marks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "autograder"
    source = root / "source"
    source.mkdir(parents=True)
    chosen = [{"number": n, "title": exercise(n).title, "visibility": "visible"} for n in (1, 7)]
    (source / "course.json").write_text(json.dumps({"exercises": chosen}), encoding="utf-8")
    upload = root / "submission"
    _flat(upload, [1, 7])
    stack = upload / "array_stack.py"
    future = "from __future__ import annotations\n"
    stack.write_text(stack.read_text().replace(future, future + "import helpers\n").replace(
        "self._resize(2 * len(self._slots))", "self._resize(helpers.doubled(len(self._slots)))"))
    (upload / "helpers.py").write_text("def doubled(n):\n    return 2 * n\n")
    shutil.copytree(SKELETONS, upload / "backup")
    monkeypatch.setenv("SOLITAIRE_DS_AUTOGRADER_ROOT", str(root))
    assert run(source) == 0
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    jsonschema.validate(results, SCHEMA)
    assert results["score"] == 20.0, [t["output"] for t in results["tests"] if t["status"] != "passed"]
    assert "Note: 2 files are named array_stack.py: array_stack.py was graded, not " \
           "backup/structures/array_stack.py (an untouched skeleton)." in results["output"]
    capsys.readouterr()


def exercise_tests(results: dict[str, Any], number: int) -> list[dict[str, Any]]:
    return [t for t in results["tests"] if t["number"].startswith(f"{number}.")]


def test_a_run_whose_grader_fails_still_writes_results_and_tells_the_instructor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "autograder"
    (root / "source").mkdir(parents=True)  # no course.json: the bundle is broken
    monkeypatch.setenv("SOLITAIRE_DS_AUTOGRADER_ROOT", str(root))
    assert run(root / "source") == 0
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    jsonschema.validate(results, SCHEMA)
    assert results["score"] == 0 and "your instructor can see why" in results["output"]
    assert "FileNotFoundError" in capsys.readouterr().out and "FileNotFoundError" not in students_see(results)


# -- the search of an upload -------------------------------------------------------------------


@pytest.mark.parametrize("layout", ["flat", "exercises", "one folder", "mixed"])
def test_the_files_are_found_by_name_wherever_the_student_put_them(tmp_path: Path, layout: str) -> None:
    upload = tmp_path / "submission"
    for k, ex in enumerate(EXERCISES):
        name = Path(ex.relpath).name
        where = {"flat": Path(name), "exercises": Path("exercises") / ex.relpath, "one folder": Path("my-work") / name,
                 "mixed": Path(name) if k % 2 else Path("exercises") / ex.relpath}[layout]
        (upload / where).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SOLUTIONS / ex.relpath, upload / where)
    with found_upload(upload, EXERCISES) as found:
        assert found.unrun == {} and found.said == ()
        for ex in EXERCISES:
            assert (found.folder / ex.relpath).read_bytes() == (SOLUTIONS / ex.relpath).read_bytes()
        copy = found.folder
    assert not copy.exists() and not copy.parent.exists()  # removed with its temporary folder


def test_the_copy_is_removed_when_grading_fails(tmp_path: Path) -> None:
    _flat(tmp_path / "submission", [1])
    with pytest.raises(RuntimeError), found_upload(tmp_path / "submission", [exercise(1)]) as found:
        copy = found.folder
        raise RuntimeError("the grader failed")
    assert not copy.parent.exists()


def test_of_two_files_with_one_name_the_one_at_the_exercises_path_is_graded(tmp_path: Path) -> None:
    upload = tmp_path / "submission"
    (upload / "old").mkdir(parents=True)
    (upload / "old" / "array_stack.py").write_text("# an old draft\n", encoding="utf-8")
    (upload / "oldstructures").mkdir()  # nearer the top, and its path only ends like the exercise's
    (upload / "oldstructures" / "array_stack.py").write_text("# another draft\n", encoding="utf-8")
    (upload / "exercises" / "structures").mkdir(parents=True)
    shutil.copyfile(SOLUTIONS / "structures" / "array_stack.py", upload / "exercises/structures/array_stack.py")
    with found_upload(upload, [exercise(1)]) as found:
        assert (found.folder / "structures/array_stack.py").read_bytes() == (
            SOLUTIONS / "structures/array_stack.py").read_bytes()
        assert found.said == ("3 files are named array_stack.py: exercises/structures/array_stack.py was graded, "
                              "not old/array_stack.py, oldstructures/array_stack.py",)


def test_an_edited_file_wins_over_untouched_skeletons_in_a_backup_folder(tmp_path: Path) -> None:
    upload = tmp_path / "submission"
    _flat(upload)  # the real files, dragged in flat
    shutil.copytree(SKELETONS, upload / "backup")  # beside them, the skeletons, each at its exercise's own path
    bare = (SKELETONS / "solver.py").read_text(encoding="utf-8")  # and one reformatted, its comments gone
    (upload / "old").mkdir()
    (upload / "old" / "solver.py").write_text("\n".join(line.split("  #")[0].replace("    ", "  ") for line in
                                                        bare.splitlines() if not line.startswith("#")) + "\n")
    with found_upload(upload, EXERCISES) as found:
        assert found.unrun == {}
        for ex in EXERCISES:
            assert (found.folder / ex.relpath).read_bytes() == (SOLUTIONS / ex.relpath).read_bytes(), ex.relpath
        said = found.said
    assert "2 files are named array_stack.py: array_stack.py was graded, not backup/structures/array_stack.py " \
           "(an untouched skeleton)" in said
    assert "3 files are named solver.py: solver.py was graded, not backup/solver.py (an untouched skeleton), " \
           "old/solver.py (an untouched skeleton)" in said


def test_of_untouched_skeletons_only_one_is_graded_and_the_note_says_so(tmp_path: Path) -> None:
    upload = tmp_path / "submission"
    shutil.copytree(SKELETONS, upload / "a")
    shutil.copytree(SKELETONS, upload / "b")
    with found_upload(upload, [exercise(7)]) as found:
        assert found.said == ("2 files are named shuffle.py: a/shuffle.py was graded (an untouched skeleton: no copy "
                              "was edited), not b/shuffle.py (an untouched skeleton)",)


@pytest.mark.parametrize("layout", ["flat", "exercises"])
def test_the_students_own_modules_beside_the_graded_file_are_copied_with_it(tmp_path: Path, layout: str) -> None:
    upload = tmp_path / "submission"
    where = {"flat": upload, "exercises": upload / "exercises"}[layout]
    (where / "structures").mkdir(parents=True)
    shutil.copyfile(SOLUTIONS / "structures" / "array_stack.py", where / "structures" / "array_stack.py")
    shutil.copyfile(SOLUTIONS / "shuffle.py", where / "shuffle.py")
    (where / "structures" / "helpers.py").write_text("A = 1\n")
    (where / "tools.py").write_text("B = 2\n")  # beside shuffle.py
    shutil.copytree(SKELETONS, upload / "backup")  # a skeleton's neighbours are not the graded file's
    (upload / "backup" / "structures" / "stale.py").write_text("C = 3\n")
    with found_upload(upload, [exercise(1), exercise(7)]) as found:
        copied = sorted(p.relative_to(found.folder).as_posix() for p in found.folder.rglob("*.py"))
    assert copied == ["shuffle.py", "structures/array_stack.py", "structures/helpers.py", "tools.py"]


def test_names_that_are_not_utf8_are_said_escaped(tmp_path: Path) -> None:
    upload = tmp_path / "submission"
    upload.mkdir()
    os.mkdir(bytes(upload) + b"/caf\xe9")
    with open(bytes(upload) + b"/caf\xe9/stack\xff.py", "w") as out:
        out.write("class ArrayStack: ...\n")
    os.symlink("/etc/passwd", bytes(upload) + b"/caf\xe9/link\xfe.py")
    with found_upload(upload, [exercise(1)]) as found:
        texts = [*found.said, *found.unrun.values()]
    assert "links are not followed, so these were left out: caf\\xe9/link\\xfe.py" in texts
    assert "The .py files it holds are: caf\\xe9/stack\\xff.py." in found.unrun[1]
    for text in texts:
        text.encode("utf-8")  # no lone surrogate: printable and writable anywhere


def test_a_misnamed_file_is_named_in_the_missing_exercises_entry(tmp_path: Path) -> None:
    _flat(tmp_path / "submission", [2])
    (tmp_path / "submission" / "ArrayStack.py").write_text("class ArrayStack: ...\n", encoding="utf-8")
    with found_upload(tmp_path / "submission", [exercise(1), exercise(2)]) as found:
        assert list(found.unrun) == [1]
        assert "No file named array_stack.py" in found.unrun[1]
        assert "The .py files it holds are: ArrayStack.py." in found.unrun[1]  # linked_stack.py is graded


def test_folders_linked_to_the_installed_package_are_not_the_students(tmp_path: Path) -> None:
    package = Path(solitaire_ds.__file__).parent
    upload = tmp_path / "submission"
    upload.mkdir()
    (upload / "structures").symlink_to(package / "structures", target_is_directory=True)
    (upload / "exercises").symlink_to(package, target_is_directory=True)
    (upload / "solver.py").symlink_to(package / "solver.py")
    with found_upload(upload, EXERCISES) as found:
        assert sorted(found.unrun) == [ex.number for ex in EXERCISES]  # nothing of the package is graded
        assert not any(found.folder.rglob("*.py"))
        assert found.said == ("links are not followed, so these were left out: exercises, solver.py, structures",)


def test_an_upload_1100_folders_deep_is_searched_to_a_bound(tmp_path: Path) -> None:
    upload = tmp_path / "submission"
    deepest = upload
    for _ in range(1100):  # one at a time: mkdir(parents=True) would recurse as deep
        deepest = deepest / "d"
        deepest.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SOLUTIONS / "structures/array_stack.py", deepest / "array_stack.py")
    shallow = upload.joinpath(*["d"] * MAX_DEPTH)
    shutil.copyfile(SOLUTIONS / "structures/linked_stack.py", shallow / "linked_stack.py")
    try:
        with found_upload(upload, [exercise(1), exercise(2)]) as found:
            assert list(found.unrun) == [1]  # too deep to be searched; the other was found
            assert (found.folder / "structures/linked_stack.py").is_file()
            assert found.said == (f"folders more than {MAX_DEPTH} deep were not searched: {'d/' * MAX_DEPTH}d",)
    finally:
        for depth in range(1100, 0, -1):  # shutil.rmtree would recurse as deep as the folders go
            folder = upload.joinpath(*["d"] * depth)
            for child in folder.iterdir():
                if child.is_file():
                    child.unlink()
            folder.rmdir()


def test_a_300_mb_file_is_refused_before_it_is_copied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    upload = tmp_path / "submission"
    upload.mkdir()
    with open(upload / "array_stack.py", "wb") as huge:
        huge.truncate(300 << 20)  # sparse: 300 MB by its size, nothing on disk
    opened: list[str] = []
    real_open = os.open

    def recording(path: Any, *args: Any, **kwargs: Any) -> int:
        opened.append(str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", recording)
    with found_upload(upload, [exercise(1)]) as found:
        assert found.unrun == {1: "array_stack.py is 314,572,800 bytes, more than the 1 MB an exercise file may "
                                  "have, so it was not graded"}
        assert not any(found.folder.rglob("*.py"))
    assert not [path for path in opened if path.endswith("array_stack.py")]  # refused by its size, never opened


def test_an_upload_of_many_files_is_searched_to_a_bound(tmp_path: Path) -> None:
    upload = tmp_path / "submission"
    (upload / "aaa").mkdir(parents=True)
    for k in range(MAX_ENTRIES + 10):
        (upload / "aaa" / f"f{k:05d}.txt").touch()
    _flat(upload, [1])
    with found_upload(upload, [exercise(1)]) as found:
        assert f"more than {MAX_ENTRIES:,} files and folders" in found.said[0]


def test_a_fifo_named_like_an_exercise_is_not_read(tmp_path: Path) -> None:
    upload = tmp_path / "submission"
    upload.mkdir()
    os.mkfifo(upload / "array_stack.py")  # opening it to read would wait for a writer forever
    with found_upload(upload, [exercise(1)]) as found:
        assert "No file named array_stack.py" in found.unrun[1] and "It holds no .py file at all." in found.unrun[1]


# -- the bundle and its setup ------------------------------------------------------------------


def test_a_course_file_that_would_fail_on_gradescope_is_refused_before_the_zip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "course.toml").write_text("[exercise.2.weights]\n'*no_such_test*' = 2\n", encoding="utf-8")
    bundle = tmp_path / "autograder.zip"
    assert main(["autograder", "gradescope", "--exercises", "1-2", "--out", str(bundle),
                 "--course", str(tmp_path / "course.toml")]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(f"solitaire-ds autograder: error: {tmp_path / 'course.toml'}: "
                          "exercise.2.weights: '*no_such_test*' "
                          "matches none of exercise 2's") and err.count("\n") == 1
    assert out == "" and sorted(p.name for p in tmp_path.iterdir()) == ["course.toml"]  # no zip, no partial one


def _setup_script(tmp_path: Path) -> Path:
    script = tmp_path / "source" / "setup.sh"
    script.parent.mkdir()
    script.write_text(_SETUP.format(wheel="solitaire_ds-0-py3-none-any.whl", version="0"), encoding="utf-8")
    return script


def test_setup_stops_with_one_line_naming_the_base_image_when_python_is_too_old(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"  # an image whose python3 is 3.10, and no package manager
    bin_dir.mkdir()
    (bin_dir / "python3").write_text('#!/bin/sh\ncase "$2" in *print*) echo 3.10 ;; *) exit 1 ;; esac\n')
    (bin_dir / "python3").chmod(0o755)
    script = _setup_script(tmp_path)
    done = subprocess.run(["/bin/bash", str(script)], env={"PATH": str(bin_dir)}, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == ("setup.sh: solitaire-ds needs Python 3.11 or newer and this image has 3.10: on the "
                           "assignment's Configure Autograder page choose the base image Ubuntu 22.04 or newer\n")


def test_setup_stops_before_making_anything_when_there_is_no_python(tmp_path: Path) -> None:
    script = _setup_script(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    done = subprocess.run(["/bin/bash", str(script)], env={"PATH": str(empty)}, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 1 and "this image has no python3: " in done.stderr
    assert done.stderr.count("\n") == 1 and sorted(p.name for p in tmp_path.iterdir()) == ["empty", "source"]


def test_the_wheel_is_rebuilt_from_the_installed_files(tmp_path: Path) -> None:
    wheel = installed_wheel(tmp_path)
    assert wheel.name == f"solitaire_ds-{solitaire_ds.__version__}-py3-none-any.whl"
    package = Path(solitaire_ds.__file__).parent
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = f"solitaire_ds-{solitaire_ds.__version__}.dist-info"
        assert names[-1] == f"{info}/RECORD" and f"{info}/METADATA" in names and f"{info}/entry_points.txt" in names
        assert "Name: solitaire-ds" in archive.read(f"{info}/METADATA").decode()
        assert "solitaire-ds = solitaire_ds.cli:main" in archive.read(f"{info}/entry_points.txt").decode()
        for path in package.rglob("*.py"):
            rel = "solitaire_ds/" + path.relative_to(package).as_posix()
            assert archive.read(rel) == path.read_bytes(), rel
        assert "solitaire_ds/course/course.toml" in names
        assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
        record = archive.read(f"{info}/RECORD").decode().splitlines()
        assert len(record) == len(names)  # every file, with its hash, checked by installing it below
    assert installed_wheel(tmp_path).read_bytes() == wheel.read_bytes()  # the same files, the same bytes


@pytest.mark.slow
def test_the_rebuilt_wheel_holds_what_the_build_backend_puts_in_its_own(tmp_path: Path) -> None:
    checkout = Path(solitaire_ds.__file__).resolve().parents[1]
    if not (checkout / "pyproject.toml").is_file():
        pytest.skip("not a checkout")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path / "pip"),
                            str(checkout)], capture_output=True, text=True, timeout=600, check=False)
    assert built.returncode == 0, built.stderr[-2000:]
    (theirs,) = (tmp_path / "pip").glob("*.whl")
    ours = installed_wheel(tmp_path)
    assert ours.name == theirs.name

    def contents(wheel: Path) -> dict[str, bytes]:
        with zipfile.ZipFile(wheel) as archive:
            return {n: archive.read(n) for n in archive.namelist() if not n.endswith(("/RECORD", "/WHEEL"))}

    assert contents(ours) == contents(theirs)
