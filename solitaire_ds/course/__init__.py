"""The course: the package's own code turned into exercises, solutions and grades.

* :mod:`~solitaire_ds.course.catalog` lists the exercises in order and loads an
  implementation under test (the names below are re-exported here);
* :mod:`~solitaire_ds.course.contracts` holds the contract tests: what each exercise
  must do, the tests grading runs (shipped in the wheel);
* :mod:`~solitaire_ds.course.markers` finds the ``# BEGIN SOLUTION`` blocks;
* :mod:`~solitaire_ds.course.generate` writes ``exercises/`` and ``solutions/`` from them;
* :mod:`~solitaire_ds.course.grader` grades a submission: its
  :mod:`~solitaire_ds.course.grader.runner` starts a judge process
  (:mod:`~solitaire_ds.course.grader.judge`: pytest, Hypothesis and the contract tests)
  that talks, through :mod:`~solitaire_ds.course.grader.proxy` and
  :mod:`~solitaire_ds.course.grader.connection`, in the plain-data messages of
  :mod:`~solitaire_ds.course.grader.messages`, to one
  :mod:`~solitaire_ds.course.grader.worker` per exercise, the only process that runs the
  student's code, inside the :mod:`~solitaire_ds.course.grader.sandbox`; the judge's
  verdicts become scores (:mod:`~solitaire_ds.course.results`);
* :mod:`~solitaire_ds.course.honesty` and :mod:`~solitaire_ds.course.similarity` write the
  instructor's notes (they never change a score);
* :mod:`~solitaire_ds.course.browser` runs the checks in the practice pages' Python;
* :mod:`~solitaire_ds.course.gradescope` builds and runs the Gradescope autograder;
* :mod:`~solitaire_ds.course.config` reads a course file (points, weights, extra tests);
* :mod:`~solitaire_ds.course.status` says which exercises a folder has started;
* :mod:`~solitaire_ds.course.report` prints and exports the scores, and
  :mod:`~solitaire_ds.course.gradebook` keeps the class's gradebook (ours, Canvas's or
  Moodle's layout) across runs;
* :mod:`~solitaire_ds.course.class_report` finds what a class fails most, and
  :mod:`~solitaire_ds.course.class_report_html` draws it as one page;
* :mod:`~solitaire_ds.course.secret` reads the grading secret the games' decks are drawn from,
  and :mod:`~solitaire_ds.course.uploads` finds the exercise files in an upload;
* :mod:`~solitaire_ds.cli.course` adds ``exercises`` and ``check`` to the command line,
  :mod:`~solitaire_ds.cli.grading` ``grade`` and ``autograder``, and
  :mod:`~solitaire_ds.cli.report` ``report``.

Adding an exercise is adding files, nothing here changes:

1. mark the student's parts of the module named in :data:`solitaire_ds.course.EXERCISES`
   (``# BEGIN SOLUTION: <hint>`` ... ``# END SOLUTION``) and run
   ``solitaire-ds exercises build``; commit ``exercises/`` and ``solutions/``;
2. write ``solitaire_ds/course/contracts/test_exNN_<slug>.py``, loading the code under test with
   ``solitaire_ds.course.catalog.load_module(impl, "<module>")`` from the ``impl`` fixture (the
   grader picks up every contract file that exists; points come from the catalog, and
   the number of tests from collecting the file on the package itself);
3. add mistakes to ``tests/grading/bugzoo/`` (one small TOML patch each, see its README).
"""

from solitaire_ds.course.catalog import (
    EXERCISES,
    REPO_ROOT,
    Exercise,
    ImplError,
    exercise,
    load_module,
    load_toolkit,
    resolve_impl,
)

__all__ = [
    "EXERCISES",
    "REPO_ROOT",
    "Exercise",
    "ImplError",
    "exercise",
    "load_module",
    "load_toolkit",
    "resolve_impl",
]
