"""Reports of grading results: screen tables, the student's check, Gradescope's results.json, CSV.

Invariant: every report is a pure function of the results it is given (no clock, no
paths other than those in the results), so grading the same submissions twice gives
byte-identical JSON and CSV.

>>> from solitaire_ds.course.catalog import exercise
>>> from solitaire_ds.course.results import ExerciseResult, SubmissionResult
>>> sub = SubmissionResult("alice", "subs/alice", (ExerciseResult(exercise(1), 17, 17),))
>>> print(csv_text([sub]), end="")
submission,path,ex01_array_stack,total,notes,sandbox
Points Possible,,10,10,,
alice,subs/alice,10.00,10.00,,
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from solitaire_ds.course.results import NOT_STARTED, ExerciseResult, SubmissionResult, merged_notes
from solitaire_ds.text import fit

__all__ = ["check_text", "csv_text", "feedback_markdown", "gradescope_json", "score_table",
           "tutorials_at"]

_TITLE_WIDTH = 44


def _title(result: ExerciseResult, width: int = _TITLE_WIDTH) -> str:
    title = result.exercise.title
    return title if len(title) <= width else title[: width - 1] + "…"


def _points(value: float, of: int) -> str:
    return f"{value:.2f}/{of}"


def score_table(result: SubmissionResult, width: int = 80) -> str:
    """Return the instructor's table for one submission: a row per exercise, then the total.

    Every line fits ``width`` columns: a reason or a note is wrapped at its words, whole,
    never cut; a note said of several exercises is said once (:func:`merged_notes`).

    >>> from solitaire_ds.course.catalog import exercise
    >>> from solitaire_ds.course.results import ExerciseResult, SubmissionResult
    >>> r = ExerciseResult(exercise(3), 0, 17, reason="structures/array_queue.py is missing")
    >>> print(score_table(SubmissionResult("bob", "bob", (r,))))
    bob
       #  exercise                                      tests        score
       3  ArrayQueue: a circular buffer                  0/17      0.00/10
            structures/array_queue.py is missing
          total                                                    0.00/10
    """
    title_width = max(10, min(_TITLE_WIDTH, width - 26))
    lines = [
        result.name,
        f"  {'#':>2}  {'exercise':<{title_width}}  {'tests':>5}  {'score':>11}",
    ]
    for r in result.exercises:
        tests = f"{r.passed}/{r.total}"
        lines.append(
            f"  {r.exercise.number:>2}  {_title(r, title_width):<{title_width}}  {tests:>5}"
            f"  {_points(r.score, r.max_score):>11}"
        )
        if r.not_started:
            lines.append(f"        {NOT_STARTED}")
        elif r.status != "pass" and r.summary:
            lines.append(f"        {r.summary}")
    total = _points(result.score, result.max_score)
    lines.append(f"      {'total':<{title_width}}  {'':>5}  {total:>11}")
    lines.extend(f"  note: {note}" for note in merged_notes(result.notes))
    if result.sandbox:
        lines.append(f"  {result.sandbox}")
    return fit("\n".join(lines), width, cut_words=True)


_STATUS = {"pass": "PASS", "partial": "FAIL", "fail": "FAIL", "error": "ERROR"}


def check_text(result: SubmissionResult, every: bool = False, width: int = 80,
               tutorials: str = "on the course site") -> str:
    """Return the student's report: a pass/fail table, then each first failing example.

    ``tutorials`` says where the tutorials are, for the next step (see :func:`tutorials_at`).

    >>> from solitaire_ds.course.catalog import exercise
    >>> from solitaire_ds.course.results import ExerciseResult, SubmissionResult
    >>> ok = ExerciseResult(exercise(1), 17, 17)
    >>> print(check_text(SubmissionResult("exercises", "exercises", (ok,))))
       #  exercise                                      result  tests  points
       1  ArrayStack: a stack in a resizing array       PASS    17/17   10/10
    <BLANKLINE>
    Exercise 1 passes every test. Well done!
    Next: exercise 2, LinkedStack: a stack of linked nodes.
    Its tutorial, "Exercise 2": on the course site
    When it is written, run:
      solitaire-ds check 2
    """
    lines = [f"  {'#':>2}  {'exercise':<{_TITLE_WIDTH}}  result  tests  points"]
    for r in result.exercises:
        points = f"{r.score:g}/{r.max_score}"
        lines.append(
            f"  {r.exercise.number:>2}  {_title(r):<{_TITLE_WIDTH}}  {_STATUS[r.status]:<6}"
            f"  {f'{r.passed}/{r.total}':>5}  {points:>6}"
        )
    failing = [r for r in result.exercises if r.status != "pass"]
    for r in failing:
        lines += ["", f"Exercise {r.exercise.number} ({r.exercise.title}):"]
        if r.reason:
            lines.append(f"  {r.reason}")
        elif every and r.tests:
            for test in (t for t in r.tests if not t.passed):
                lines.append(f"  failing test: {_short(test.test)}")
                lines.extend(f"    {line}" for line in test.message.splitlines())
        elif r.failures:
            first = r.failures[0]
            lines.append(f"  first failing test: {_short(first.test)}")
            # whole: a game's message may name many steps before the one that differs (the
            # grader already bounds every message at 1,000 lines)
            lines.extend(f"    {line}" for line in first.message.splitlines())
    lines.append("")
    passing = len(result.exercises) - len(failing)
    if not failing:
        if len(result.exercises) == 1:
            lines.append(f"Exercise {result.exercises[0].exercise.number} passes every test. Well done!")
        else:
            lines.append(f"All {passing} exercises pass every test. Well done!")
        lines.append(_next_step(max(r.exercise.number for r in result.exercises), tutorials))
    else:
        n = failing[0].exercise.number
        lines.append(
            f"{passing} of {len(result.exercises)} exercises pass. Keep going: fix the first "
            f"failure above, then run 'solitaire-ds check {n}' again."
        )
    lines.extend(f"note: {note}" for note in result.notes)
    return fit("\n".join(lines), width)


def _short(test: str) -> str:
    """A contract test's name without its class (each exercise has one): fits a terminal line.

    >>> _short("TestArrayStack::test_pop_returns_the_last_pushed"), _short("instructor/test_ex01_x.py::test_y")
    ('test_pop_returns_the_last_pushed', 'instructor/test_ex01_x.py::test_y')
    """
    head, sep, rest = test.partition("::")
    return rest if sep and head.startswith("Test") and "/" not in head else test


def tutorials_at(site: str | None, served: bool) -> str:
    """Return where the tutorials are, as ``check``'s next step says it.

    The course's ``site`` when its course file sets one; else, in a clone of the project
    (``served``: its ``mkdocs.yml`` is there), the site ``solitaire-ds docs`` serves; else
    (a wheel, no address known) the instructor's.

    >>> tutorials_at("https://example.org/sds/", False)
    'https://example.org/sds/'
    >>> tutorials_at(None, True)
    'on the site `solitaire-ds docs` serves'
    >>> tutorials_at(None, False)
    "on your course's site (ask your instructor where)"
    """
    if site:
        return site
    if served:
        return "on the site `solitaire-ds docs` serves"
    return "on your course's site (ask your instructor where)"


def _next_step(done: int, tutorials: str = "on the course site") -> str:
    """What comes after exercise ``done`` passes: the next exercise, or the games."""
    from solitaire_ds.course.catalog import EXERCISES

    later = [ex for ex in EXERCISES if ex.number > done]
    if not later:
        return ("Next: that was the last exercise. Watch the games run on your own code: "
                "solitaire-ds play perpetual-motion --impl .")
    ex = later[0]
    return (f"Next: exercise {ex.number}, {ex.title}.\nIts tutorial, \"Exercise {ex.number}\": "
            f"{tutorials}\nWhen it is written, run:\n  solitaire-ds check {ex.number}")


def gradescope_json(
    result: SubmissionResult,
    visibility: Mapping[int, str] | None = None,
    unrun: Mapping[int, str] | None = None,
    output: str = "",
) -> dict[str, Any]:
    """Return Gradescope's ``results.json`` for one graded submission: one entry per test.

    Each test is worth its share of its exercise's points (``points / tests`` unless the
    course file weighs its tests) and has a ``status``. An exercise that did not run (its
    file missing, or not importable) is one entry worth all its points, with the reason,
    from ``unrun`` when it names the exercise (the upload search says which files it found
    instead), else the grader's. ``visibility`` maps an exercise to what students see of
    its entries (``visible`` when it is not named); ``output`` is the text students see
    about the whole submission. An exercise whose file is still the skeleton is one entry
    too, saying so (:data:`~solitaire_ds.course.results.NOT_STARTED`; ``extra_data``
    lists them as ``not_started``). The maxima of an exercise's tests add up to its points
    exactly (:meth:`~solitaire_ds.course.results.ExerciseResult.test_maxima`).

    The grader's notes (code much like the reference solution's or a classmate's) and
    the wall it graded behind are for the instructor only: they go to ``extra_data``, which
    Gradescope stores and never shows, and never to a field students see.

    Runtime complexity: O(number of tests).

    >>> from solitaire_ds.course.catalog import exercise
    >>> from solitaire_ds.course.results import ExerciseResult, TestOutcome
    >>> r = ExerciseResult(exercise(1), 1, 2, tests=(TestOutcome("t1", True), TestOutcome("t2", False, "boom")))
    >>> gone = ExerciseResult(exercise(2), 0, 17, reason="structures/linked_stack.py is missing")
    >>> data = gradescope_json(SubmissionResult("a", "a", (r, gone), ("a note",)), {2: "hidden"})
    >>> [(t["number"], t["score"], t["max_score"], t["status"]) for t in data["tests"]]
    [('1.1', 5.0, 5.0, 'passed'), ('1.2', 0.0, 5.0, 'failed'), ('2', 0.0, 10.0, 'failed')]
    >>> data["tests"][2]["output"], data["tests"][2]["visibility"], data["score"], data["extra_data"]
    ('structures/linked_stack.py is missing', 'hidden', 5.0, {'notes': ['a note']})
    """
    visibility = visibility or {}
    unrun = unrun or {}
    tests: list[dict[str, Any]] = []
    for r in result.exercises:
        number = r.exercise.number
        shown = visibility.get(number, "visible")
        if r.reason or not r.tests or r.not_started:
            passed = not r.reason and r.status == "pass"
            said = NOT_STARTED if r.not_started and not r.reason else r.reason
            tests.append({
                "name": f"Exercise {number}: {r.exercise.title}",
                "number": str(number),
                "score": r.score,
                "max_score": float(r.max_score),
                "status": "passed" if passed else "failed",
                "output": unrun.get(number) or said or f"{r.passed} of {r.total} tests passed.",
                "visibility": shown,
            })
            continue
        for k, (outcome, each) in enumerate(zip(r.tests, r.test_maxima(), strict=True), start=1):
            tests.append({
                "name": f"Exercise {number}: {outcome.test}",
                "number": f"{number}.{k}",
                "score": each if outcome.passed else 0.0,
                "max_score": each,
                "status": "passed" if outcome.passed else "failed",
                "output": outcome.message,
                "visibility": shown,
            })
    not_started = [r.exercise.number for r in result.exercises if r.not_started and not r.reason]
    return {
        "score": result.score,
        "execution_time": round(result.seconds),
        "output": output,
        "stdout_visibility": "hidden",
        "extra_data": {"notes": list(result.notes), **({"sandbox": result.sandbox} if result.sandbox else {}),
                       **({"not_started": not_started} if not_started else {})},
        "tests": tests,
    }


def csv_text(results: Sequence[SubmissionResult]) -> str:
    """Return a gradebook: a header, the points possible, then one row per submission, one column
    per exercise, the total, the notes, and the wall the submission was graded behind.

    The notes (code the same as another's, lines the grader did not sign) are joined with
    ``; ``, a note said of several exercises said once. A text cell that a spreadsheet would
    read as a formula (it starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return)
    is written with a leading ``'``, so a folder named ``=HYPERLINK(...)`` stays text. (The
    rosters, the LMS layouts and the merging into a gradebook already written are
    :func:`~solitaire_ds.course.gradebook.gradebook_text`'s.)

    Runtime complexity: O(submissions x exercises).

    >>> from solitaire_ds.course.catalog import exercise
    >>> from solitaire_ds.course.results import ExerciseResult, SubmissionResult
    >>> sub = SubmissionResult('=HYPERLINK("x")', "class/x", (ExerciseResult(exercise(1), 17, 17),), ("a note",))
    >>> print(csv_text([sub]), end="")
    submission,path,ex01_array_stack,total,notes,sandbox
    Points Possible,,10,10,,
    "'=HYPERLINK(""x"")",class/x,10.00,10.00,a note,
    """
    from solitaire_ds.course.gradebook import gradebook_text

    return gradebook_text(results)


def feedback_markdown(result: SubmissionResult) -> str:
    """Return the feedback a student can be handed: every failing test, whole, in Markdown.

    An exercise whose file is still the skeleton is one line (:data:`~solitaire_ds.course.results.NOT_STARTED`),
    not its every failing test.

    Runtime complexity: O(number of tests).

    >>> from solitaire_ds.course.catalog import exercise
    >>> from solitaire_ds.course.results import ExerciseResult, SubmissionResult, TestOutcome
    >>> r = ExerciseResult(exercise(1), 0, 1, tests=(TestOutcome("TestArrayStack::test_pop", False, "pop() raised"),))
    >>> print(feedback_markdown(SubmissionResult("alice", "alice", (r,))).splitlines()[0])
    # Feedback for alice: 0.00 of 10 points
    """
    lines = [f"# Feedback for {result.name}: {result.score:.2f} of {result.max_score} points", ""]
    for r in result.exercises:
        lines += [f"## Exercise {r.exercise.number}: {r.exercise.title} — {r.score:.2f} of {r.max_score} "
                  f"({r.passed} of {r.total} tests pass)", ""]
        if r.reason:
            lines += [f"Not graded: {r.reason}", ""]
            continue
        if r.not_started:
            lines += [NOT_STARTED[0].upper() + NOT_STARTED[1:] + ".", ""]
            continue
        failing = [t for t in r.tests if not t.passed]
        if not failing:
            lines += ["Every test passes.", ""]
        for test in failing:
            fence = "`" * max(3, 1 + max((len(run) for run in re.findall("`+", test.message)), default=0))
            lines += [f"### {test.test}", "", f"{fence}text", *test.message.splitlines(), fence, ""]
    return "\n".join(lines)
