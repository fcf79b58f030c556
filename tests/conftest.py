"""Options shared by the package's own tests.

The contract tests' ``--impl`` option and ``impl`` fixture live with the contract tests,
in ``solitaire_ds/conftest.py``: the contract tests ship inside the package.
"""
