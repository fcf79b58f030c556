"""The class report: a synthetic class of 40 (solutions, bug-zoo bugs spread over students,
skeletons), item analysis by hand, message grouping, both input layouts, and misuse.

The class is made from four submissions graded for real (``class_of_40.py``; the slow test at
the end grades them again and compares with what is stored).
"""

from __future__ import annotations

import csv
import json
import random
import statistics
from pathlib import Path
from typing import Any

import docgen  # docs/hooks, put on the path by tests/conftest.py
import pytest

from solitaire_ds.cli import main
from solitaire_ds.course import REPO_ROOT
from solitaire_ds.course.class_report import (
    ClassReport,
    Entry,
    StudentResults,
    discrimination,
    message_pattern,
)
from solitaire_ds.course.class_report_html import report_html
from tests.grading.class_of_40 import BUGS, grade_distinct, stored

#: The tests the planted bugs fail, by what grading the buggy submissions gave.
PLANTED = {t["name"].partition(": ")[2] for name in BUGS for t in stored()[name]["tests"]
           if t["status"] == "failed" and "." in t["number"]}


def _students(kinds: set[str]) -> set[str]:
    """The synthetic class's students whose kind (its description in ``CLASS``) is one of ``kinds``."""
    rng_kinds = [who for count, _, _, who in docgen.CLASS for _ in range(count)]
    random.Random(40).shuffle(rng_kinds)
    return {f"student-{k:02d}" for k, who in enumerate(rng_kinds, start=1) if who in kinds}


@pytest.fixture(scope="module")
def class_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The report of the class of 40 written by ``solitaire-ds report`` from ``grade --json-dir``'s layout."""
    root = tmp_path_factory.mktemp("class")
    (root / "json").mkdir()
    for name, data in docgen.synthetic_class().items():
        (root / "json" / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")
    assert main(["report", str(root / "json"), "--out", str(root / "report")]) == 0
    return root, json.loads((root / "report" / "report.json").read_text(encoding="utf-8"))


def test_the_class_has_forty_students_with_the_planted_bugs_spread_over_them() -> None:
    students = docgen.synthetic_class()
    assert len(students) == 40
    assert "test_peek_returns_the_top_without_removing_it" in " ".join(PLANTED)  # the zoo's bug is caught
    assert len(_students({"a peek that pops, in exercise 1", "a peek that pops; exercise 3's file missing"})) == 9


def test_the_most_failed_tests_are_those_the_planted_bugs_fail_with_their_messages(
    class_report: tuple[Path, dict[str, Any]]
) -> None:
    _, data = class_report
    most = data["most_failed"]
    assert len(most) == 10
    assert {t["test"].partition("::")[2] or t["test"] for t in most} <= {t.partition("::")[2] for t in PLANTED}
    top = most[0]  # a peek that pops (9 students) and a halving off by one (4) both fail it
    assert top["exercise"] == 1 and top["test"] == "TestArrayStack::test_matches_a_list_over_random_operations"
    assert top["started"] - top["passed_started"] == 13
    peek = next(t for t in most if t["test"] == "TestArrayStack::test_peek_returns_the_top_without_removing_it")
    assert peek["message"]["pattern"] == \
        "after ArrayStack(), push(<n>), push(<n>), peek(), peek() returned <n>, expected <n>"
    poppers = _students({"a peek that pops, in exercise 1", "a peek that pops; exercise 3's file missing"})
    assert set(peek["message"]["students"]) == poppers and peek["message"]["count"] == 9
    assert peek["message"]["example"].startswith("after ArrayStack(), push(1), push(2), peek(), peek() returned 1")
    # the queue whose length is its capacity fails 12 of exercise 3's tests, for 5 of the 34 who started it
    queue = [t for t in most if t["exercise"] == 3]
    assert queue and all(t["started"] == 34 and t["passed_started"] == 29 for t in queue)
    # and each exercise's first failures are the bugs' own, most students first
    ex1, ex3 = data["exercises"]
    assert [(g["test"], g["count"]) for g in ex1["first_failures"]] == [
        ("TestArrayStack::test_peek_returns_the_top_without_removing_it", 9),
        ("TestArrayStack::test_removed_items_are_not_kept_alive", 4)]
    assert [g["count"] for g in ex3["first_failures"]] == [5]


def test_a_test_every_student_passes_has_no_discrimination_in_any_file(
    class_report: tuple[Path, dict[str, Any]]
) -> None:
    root, data = class_report
    ex1 = data["exercises"][0]
    everyone = [t for t in ex1["tests"] if t["passed"] == 40]
    assert everyone and all(t["discrimination"] is None for t in everyone)
    assert all(isinstance(t["discrimination"], float) for t in ex1["tests"] if t["passed"] < 40)
    rows = {row["test"]: row for row in csv.DictReader((root / "report" / "items.csv").open(encoding="utf-8"))}
    assert len(rows) == 19 + 19 and rows[everyone[0]["test"]]["discrimination"] == ""
    page = (root / "report" / "report.html").read_text(encoding="utf-8")
    row = page[page.index(f"<code>{everyone[0]['test']}</code>"):]
    row = row[:row.index("</tr>")]
    assert '<span aria-hidden="true">—</span><span class="visually-hidden">undefined</span>' in row
    assert "nan" not in row.lower()


def test_not_started_lists_the_skeletons_and_the_missing_files(class_report: tuple[Path, dict[str, Any]]) -> None:
    _, data = class_report
    ex1, ex3 = data["exercises"]
    assert ex1["not_started"] == []
    expected = _students({"exercise 3 not started: the skeleton", "a peek that pops; exercise 3's file missing"})
    assert set(ex3["not_started"]) == expected and len(expected) == 6
    assert data["students"] == 40 and data["points"] == 20
    assert sum(b["count"] for b in data["totals"]["distribution"]) == 40
    assert sum(total == 20 for total in data["totals"]["by_student"].values()) == 18  # the complete ones


def test_the_page_loads_nothing_and_names_every_region(class_report: tuple[Path, dict[str, Any]]) -> None:
    root, _ = class_report
    page = (root / "report" / "report.html").read_text(encoding="utf-8")
    assert "<script" not in page and "<link" not in page and "@import" not in page and "url(" not in page
    assert page.replace('xmlns="http://www.w3.org/2000/svg"', "").count("http") == 0
    assert "prefers-color-scheme: dark" in page and page.count('<svg class="chart"') == 3
    assert page.count('role="region"') == page.count('tabindex="0"') == 3  # each table that may scroll


def test_a_gradescope_export_gives_the_same_report(
    class_report: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    _, data = class_report
    for name, results in docgen.synthetic_class().items():
        (tmp_path / "export" / name).mkdir(parents=True)
        (tmp_path / "export" / name / "results.json").write_text(json.dumps(results), encoding="utf-8")
    assert main(["report", str(tmp_path / "export"), "--out", str(tmp_path / "out")]) == 0
    assert json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8")) == data


def test_first_failures_that_differ_in_cards_and_numbers_are_one_group() -> None:
    def student(name: str, message: str) -> StudentResults:
        return StudentResults(name, (Entry(8, "T::t1", True, 5, 5), Entry(8, "T::t2", False, 0, 5, message)))

    report = ClassReport.of([student("ann", "moved 10h onto AS after 3 steps\n(in x.py, line 4)"),
                             student("bob", "moved 7s onto Q♥ after 12 steps"),
                             student("cy", "the pile is empty")])
    groups = report.exercises[0].first_failures
    assert [(g.pattern, g.students) for g in groups] == [
        ("moved <card> onto <card> after <n> steps", ("ann", "bob")), ("the pile is empty", ("cy",))]
    assert groups[0].example == "moved 10h onto AS after 3 steps\n(in x.py, line 4)"
    assert message_pattern("As the deck ran out") == "As the deck ran out"  # a word, not a card


def test_discrimination_is_the_correlation_with_the_rest_of_the_score() -> None:
    rng = random.Random(7)
    passed = [rng.random() < 0.6 for _ in range(30)]
    rest = [rng.uniform(0, 20) + (5 if p else 0) for p in passed]
    assert discrimination(passed, rest) == round(statistics.correlation([float(p) for p in passed], rest), 2)
    assert discrimination([True] * 5, rest[:5]) is None and discrimination([False] * 5, rest[:5]) is None
    assert discrimination([True, False, True], [4.0, 4.0, 4.0]) is None
    # the rest leaves the test's own points out: a test that is the whole score has a constant rest
    one = [StudentResults(n, (Entry(1, "t", p, 10 * p, 10),)) for n, p in (("a", True), ("b", False))]
    assert ClassReport.of(one).exercises[0].tests[0].discrimination is None


def test_text_from_the_results_is_escaped_in_the_page() -> None:
    evil = StudentResults("<img src=x>", (Entry(1, "T::<b>", False, 0, 10, "<script>alert(1)</script>"),))
    page = report_html(ClassReport.of([evil]))
    assert "<script>" not in page and "<img" not in page and "&lt;script&gt;" in page


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({}, "no such file or folder"),
        ({"a.json": "{"}, "a.json: Expecting property name"),
        ({"a.json": "[]"}, "a.json: it is not a results.json: no list of tests"),
        ({"a.json": '{"tests": [{"name": "Q1", "score": 1, "max_score": 1}]}'},
         "a.json: test 1's name 'Q1' does not read 'Exercise N: ...'"),
        ({"a.json": '{"tests": [{"name": "Exercise 1: t", "score": "x", "max_score": 1}]}'},
         "a.json: test 1's score is not a number"),
        ({"a.json": '{"tests": [{"name": "Exercise 1: t", "score": 1, "max_score": 1, "status": "ok"}]}'},
         "a.json: test 1's status 'ok' is not 'passed' or 'failed'"),
    ],
)
def test_results_that_are_not_the_graders_are_one_line_and_exit_status_2(
    files: dict[str, str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "in"
    if files:
        folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    assert main(["report", str(folder), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("solitaire-ds report: error: ") and message in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()  # refused before anything was written


def test_grade_report_writes_the_report_of_the_class_just_graded(tmp_path: Path) -> None:
    empty = tmp_path / "class" / "empty"  # no file: exercise 7 not started
    empty.mkdir(parents=True)
    done = tmp_path / "class" / "done"
    done.mkdir()
    (done / "shuffle.py").write_text((REPO_ROOT / "solutions" / "shuffle.py").read_text(encoding="utf-8"))
    assert main(["grade", str(done), str(empty), "--exercise", "7", "--report", str(tmp_path / "report")]) == 0
    data = json.loads((tmp_path / "report" / "report.json").read_text(encoding="utf-8"))
    (ex7,) = data["exercises"]
    assert data["totals"]["by_student"] == {"done": 10, "empty": 0} and ex7["not_started"] == ["empty"]
    assert all(t["passed"] == 1 and t["passed_started"] == 1 for t in ex7["tests"])
    assert sorted(p.name for p in (tmp_path / "report").iterdir()) == ["items.csv", "report.html", "report.json"]


@pytest.mark.slow
def test_the_stored_class_results_are_what_grading_gives(tmp_path: Path) -> None:
    assert grade_distinct(tmp_path) == stored(), "run: python -m tests.grading.class_of_40 --write"


def test_what_the_docs_page_says_of_the_synthetic_class_holds() -> None:
    page = (REPO_ROOT / "docs" / "how-to" / "class-report.md").read_text(encoding="utf-8")
    report = docgen.synthetic_report()
    assert "Here 18 students have full marks" in page
    assert sum(total == report.points for total in report.totals) == 18
    name = "test_peek_returns_the_top_without_removing_it"
    peek = next(t for t in report.exercises[0].tests if t.test.endswith(name))
    assert "like the peek that pops here" in page and peek.discrimination is not None
    assert abs(peek.discrimination) < 0.2  # near 0, as the page says
    assert f"`{name}`" in docgen.expand("<!-- gen: class-report part=most-failed -->")
