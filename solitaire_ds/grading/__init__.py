"""Exercises, solutions and grading: the package's own code turned into a course.

* :mod:`~solitaire_ds.grading.markers` finds the ``# BEGIN SOLUTION`` blocks;
* :mod:`~solitaire_ds.grading.generate` writes ``exercises/`` and ``solutions/`` from them;
* :mod:`~solitaire_ds.grading.runner` runs the contract tests on a submission in a
  separate, limited process and turns the results into scores;
* :mod:`~solitaire_ds.grading.report` prints and exports the scores;
* :mod:`~solitaire_ds.grading.commands` adds ``exercises``, ``check`` and ``grade`` to
  the command line.
"""

__all__: list[str] = []
