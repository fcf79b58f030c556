"""The class report of a synthetic class of 40, made from four submissions graded for real.

``docs/data/class-results.json`` holds what the grader gave four submissions on exercises 1
and 3 (the solutions, the skeletons, two with bug-zoo bugs; ``tests/grading/class_of_40.py``
writes it). :data:`CLASS` says which submission each student's exercise comes from, and
:func:`synthetic_class` builds the 40 results files from it, exercise by exercise, as
``grade --json-dir`` would have written them. The tests build the same class.
"""

from __future__ import annotations

import random
from typing import Any

from docgen.common import DATA, _esc, _esc_cell, _load

#: The class: (students, exercise 1's submission, exercise 3's submission, who they are).
CLASS: tuple[tuple[int, str, str, str], ...] = (
    (18, "solutions", "solutions", "both exercises complete"),
    (7, "bugs-a", "solutions", "a peek that pops, in exercise 1"),
    (4, "bugs-b", "solutions", "a stack that halves one slot too late, in exercise 1"),
    (5, "solutions", "bugs-a", "a queue whose length is its capacity, in exercise 3"),
    (4, "solutions", "skeleton", "exercise 3 not started: the skeleton"),
    (2, "bugs-a", "bugs-b", "a peek that pops; exercise 3's file missing"),
)


def _exercise_entries(results: dict[str, Any], number: int) -> list[dict[str, Any]]:
    prefix = f"Exercise {number}:"
    return [t for t in results["tests"] if t["name"].startswith(prefix)]


def synthetic_class(submissions: dict[str, dict[str, Any]] | None = None) -> dict[str, dict[str, Any]]:
    """Return the 40 students' results.json, by name (``student-01`` ...), the kinds spread over the names."""
    if submissions is None:
        stored = _load("class-results.json")
        if stored is None:
            raise FileNotFoundError(f"{DATA / 'class-results.json'} is missing: "
                                    "python -m tests.grading.class_of_40 --write")
        submissions = stored["submissions"]
    kinds = [kind for count, *kind in CLASS for _ in range(count)]
    random.Random(40).shuffle(kinds)
    students = {}
    for k, (first, third, _) in enumerate(kinds, start=1):
        tests = _exercise_entries(submissions[first], 1) + _exercise_entries(submissions[third], 3)
        students[f"student-{k:02d}"] = {"score": round(sum(t["score"] for t in tests), 2), "tests": tests}
    return students


def synthetic_report() -> Any:
    """Return the :class:`~solitaire_ds.course.class_report.ClassReport` of the synthetic class."""
    from solitaire_ds.course.class_report import ClassReport, StudentResults

    return ClassReport.of([StudentResults.from_json(n, data) for n, data in synthetic_class().items()])


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _short(test: str) -> str:
    return test.partition("::")[2] or test


def _discrimination(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def _unsearched(svg: str) -> str:
    """``svg`` kept out of the site's search, as every generated picture is (its title says what it shows)."""
    return svg.replace("<svg ", "<svg data-search-exclude ", 1)


def class_report(part: str, exercise: str = "") -> str:
    """Generate one part of the synthetic class's report: ``class``, ``totals``, ``most-failed``,
    ``exercise`` (its chart and tests), ``failures`` (its first failures)."""
    from solitaire_ds.course.class_report_html import histogram_svg

    report = synthetic_report()
    if part == "class":
        rows = [f"| {count} | {_esc_cell(who)} |" for count, _, _, who in CLASS]
        return "| students | what they handed in |\n| ---: | --- |\n" + "\n".join(rows)
    if part == "totals":
        return _unsearched(histogram_svg(report.totals, report.points, "Totals: students per range of points",
                                         "doc-totals"))
    if part == "most-failed":
        lines = ["| exercise | test | failed, of those who started | discrimination "
                 "| its most common message (students) |",
                 "| ---: | --- | ---: | ---: | --- |"]
        for t in report.most_failed(6):
            said = f"`{t.message.pattern}` ({len(t.message.students)})" if t.message else ""
            lines.append(f"| {t.exercise} | `{_short(t.test)}` | {t.failed_started} of {t.started} | "
                         f"{_discrimination(t.discrimination)} | {_esc_cell(said)} |")
        return "\n".join(lines)
    ex = next(e for e in report.exercises if e.number == int(exercise))
    if part == "exercise":
        chart = _unsearched(histogram_svg(ex.scores, ex.points, f"Exercise {ex.number}: students per range of points",
                                          f"doc-ex{ex.number}"))
        lines = ["| test | passed | of those who started | discrimination |", "| --- | ---: | ---: | ---: |"]
        lines += [f"| `{_short(t.test)}` | {t.passed}/{t.students} | {t.passed_started}/{t.started} | "
                  f"{_discrimination(t.discrimination)} |" for t in ex.tests]
        started = (f"Not started ({len(ex.not_started)}): {', '.join(ex.not_started)}." if ex.not_started
                   else "Every student started it.")
        return chart + "\n\n" + started + "\n\n" + "\n".join(lines)
    if part == "failures":
        items = []
        for g in ex.first_failures:
            where = f"`{_short(g.test)}`" if g.test else "the exercise did not run"
            items.append(f"1. **{len(g.students)} students**, {where}: `{g.pattern}`  \n"
                         f"   <small>{_esc(', '.join(g.students))}</small>")
        return "\n".join(items)
    raise ValueError(f"no part {part!r} of the class report (class, totals, most-failed, exercise, failures)")
