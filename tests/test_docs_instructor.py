"""The instructor's pages run as written: "Teach a course", "Grade a class", "Grade on Gradescope".

``test_docs.py`` runs every console block a page can run on its own. The blocks it must skip
because they need what another block or page makes (a class of submissions, the course file
and instructor test of "Teach a course") run here, exactly as the pages show them, and what
the pages say of their results is checked against the results: the course file grades, the
instructor test is reported under the name quoted, the weights' comment counts what the file
weighs, the CSV is the one shown, ``--json`` writes one entry per test, and the bundle is the
size quoted.
"""

from __future__ import annotations

import csv
import fnmatch
import json
import re
import shutil
import subprocess
from pathlib import Path

from solitaire_ds.course import REPO_ROOT, exercise
from tests.test_docs import _commands, _shim

HOW_TO = Path(__file__).resolve().parent.parent / "docs" / "how-to"
TEACH = (HOW_TO / "teach-a-course.md").read_text(encoding="utf-8")
CLASS = (HOW_TO / "grade-a-class.md").read_text(encoding="utf-8")
GRADESCOPE = (HOW_TO / "grade-on-gradescope.md").read_text(encoding="utf-8")


def _blocks(page: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", page, re.MULTILINE | re.DOTALL)


def _course_file() -> str:
    """The course file "Teach a course" shows: its ``site`` line, then the file it shows whole."""
    site, toml = _blocks(TEACH, "toml")
    assert site.startswith("site = ") and "[" not in site, "the first toml block is the site's one line"
    return site + "\n" + toml


def _course_files(where: Path) -> str:
    """Write the course file and the instructor test of "Teach a course" where the page puts them;
    return the test file's name."""
    toml = _course_file()
    (test,) = _blocks(TEACH, "python")
    named = re.search(r"Here is\s+`my-tests/(test_ex\d\d_\w+\.py)`", TEACH)
    assert named is not None, "the page names the file its instructor test is in"
    (where / "course.toml").write_text(toml, encoding="utf-8")
    (where / "my-tests").mkdir()
    (where / "my-tests" / named.group(1)).write_text(test, encoding="utf-8")
    return named.group(1)


def _run(command: str, where: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["sh", "-c", command], cwd=where, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=600, check=False)


def _student(folder: Path, source: Path, *numbers: int) -> None:
    for number in numbers:
        target = folder / exercise(number).relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / exercise(number).relpath, target)


def test_teach_a_course_grades_a_class_with_its_course_file_and_instructor_test_as_written(tmp_path: Path) -> None:
    test_file = _course_files(tmp_path)
    _student(tmp_path / "class" / "alice", REPO_ROOT / "solutions", 1)
    _student(tmp_path / "class" / "bob", REPO_ROOT / "exercises", 1)  # never started
    commands = [c for block in _blocks(TEACH, "console") for c in _commands(block)]
    (command,) = [c for c in commands if c.startswith("solitaire-ds grade")]
    done = _run(command, tmp_path, _shim(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads((tmp_path / "results" / "alice.json").read_text(encoding="utf-8"))
    ones = [t for t in results["tests"] if t["number"].startswith("1.")]
    quoted = re.search(r"reported as\s+`(instructor/[^`]+)`", TEACH)
    assert quoted is not None and quoted.group(1).startswith(f"instructor/{test_file}::")
    (mine,) = [t for t in ones if t["name"] == f"Exercise 1: {quoted.group(1)}"]  # the name the page quotes
    assert mine["status"] == "passed"
    other = next(t for t in ones if t is not mine)
    assert abs(mine["max_score"] - 2 * other["max_score"]) <= 0.0002  # "counts double"
    rows = list(csv.reader((tmp_path / "grades.csv").read_text(encoding="utf-8").splitlines()))
    assert [row[0] for row in rows[1:]] == ["Points Possible", "alice", "bob"]
    assert rows[1][2:14] == ["10"] * 11 + ["20"]  # exercise 12 is worth 20 points
    assert "Not started: the file is the skeleton." in (tmp_path / "feedback" / "bob.md").read_text(encoding="utf-8")


def test_the_weights_comment_of_teach_a_course_counts_what_its_course_file_weighs(tmp_path: Path) -> None:
    from solitaire_ds.course.config import load_course
    from solitaire_ds.course.grader.plan import test_name
    from solitaire_ds.course.grader.runner import reference_tests

    _course_files(tmp_path)
    course = load_course(tmp_path / "course.toml", tmp_path / "my-tests")
    toml = _course_file()
    said = re.findall(r'^\[exercise\.(\d+)\.weights\]$|^"([^"]+)" = (\d+) .*?# .*?: (\d+) of the (\d+) tests, '
                      r"(\d+) of the (\d+) weights$", toml, re.MULTILINE)
    checked = 0
    number = 0
    for section, pattern, weight, *counts in said:
        if section:
            number = int(section)
            continue
        names = [test_name(t) for t in reference_tests([exercise(number)], course=course).tests[number]]
        matched = [n for n in names if fnmatch.fnmatchcase(n, pattern)]
        weights = [course.weight_of(number, n) for n in names]
        figures = [len(matched), len(names), int(weight) * len(matched), int(sum(weights))]
        assert [int(c) for c in counts] == figures, f"{pattern}: the comment says {counts}, the file weighs {figures}"
        checked += 1
    assert checked == 1


def test_grade_a_class_writes_the_csv_it_shows_and_json_one_entry_per_test(tmp_path: Path) -> None:
    env = _shim(tmp_path)
    commands = [c for block in _blocks(CLASS, "console") for c in _commands(block)]
    assert commands == ["solitaire-ds exercises build --out class/alice",
                        "solitaire-ds grade class/alice/solutions --exercise 1 --csv grades.csv"]
    for command in commands:
        done = _run(command, tmp_path, env)
        assert done.returncode == 0, done.stderr[-2000:]
    shown = next(b for b in _blocks(CLASS, "text") if b.startswith("submission,"))
    page = list(csv.reader(shown.splitlines()))
    written = list(csv.reader((tmp_path / "grades.csv").read_text(encoding="utf-8").splitlines()))
    assert [row[:-1] for row in written] == [row[:-1] for row in page]  # all but the wall, this machine's
    assert written[2][-1].startswith("sandbox: ") and page[2][-1].startswith("sandbox: ")
    # "--json writes the same results, one entry per test"
    assert "`solitaire-ds grade PATH --json results.json`\nwrites the same results, one entry per test" in CLASS
    done = _run("solitaire-ds grade class/alice/solutions --exercise 1 --json results.json", tmp_path, env)
    assert done.returncode == 0, done.stderr[-2000:]
    tests = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["tests"]
    assert len(tests) > 1 and [t["number"] for t in tests] == [f"1.{k}" for k in range(1, len(tests) + 1)]


def test_the_gradescope_bundle_is_built_as_the_page_shows_and_is_the_size_it_quotes(tmp_path: Path) -> None:
    _course_files(tmp_path)
    (block,) = [b for b in _blocks(GRADESCOPE, "console") if "autograder gradescope" in b]
    (command,) = _commands(block)
    printed = [line for line in block.splitlines() if line.startswith("wrote ")]
    done = _run(command, tmp_path, _shim(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == printed
    quoted = re.search(r"The zip is about (\d+) KB", GRADESCOPE)
    assert quoted is not None
    size = (tmp_path / "autograder.zip").stat().st_size / 1000
    assert abs(size - int(quoted.group(1))) <= 0.1 * int(quoted.group(1)), \
        f"the page says the zip is about {quoted.group(1)} KB; it is {size:.0f} KB"
