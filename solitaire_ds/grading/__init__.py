"""Exercises, solutions and grading: the package's own code turned into a course.

* :mod:`~solitaire_ds.grading.markers` finds the ``# BEGIN SOLUTION`` blocks;
* :mod:`~solitaire_ds.grading.generate` writes ``exercises/`` and ``solutions/`` from them;
* :mod:`~solitaire_ds.grading.runner` runs the contract tests on a submission in a
  separate, limited process (with :mod:`~solitaire_ds.grading.plugin` inside it) and
  turns the results into scores (:mod:`~solitaire_ds.grading.results`);
* :mod:`~solitaire_ds.grading.report` prints and exports the scores;
* :mod:`~solitaire_ds.grading.commands` adds ``exercises``, ``check`` and ``grade`` to
  the command line.

Adding an exercise is adding files, nothing here changes:

1. mark the student's parts of the module named in :data:`solitaire_ds.course.EXERCISES`
   (``# BEGIN SOLUTION: <hint>`` ... ``# END SOLUTION``) and run
   ``solitaire-ds exercises build``; commit ``exercises/`` and ``solutions/``;
2. write ``tests/contracts/test_exNN_<slug>.py``, loading the code under test with
   ``solitaire_ds.course.load_module(impl, "<module>")`` from the ``impl`` fixture (the
   grader picks up every contract file that exists; points come from the catalog, and
   the number of tests from collecting the file on the package itself);
3. add mistakes to ``tests/grading/bugzoo/`` (one small TOML patch each, see its README).
"""

__all__: list[str] = []
