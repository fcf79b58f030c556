"""The ``--impl`` option of the contract tests, for every run that reaches them.

``--impl`` says where the code under test comes from (see :mod:`solitaire_ds.course`):
``solitaire_ds`` (default), ``solutions``, ``exercises``, or a path to a folder laid out
like ``exercises/``. Only the contract tests in :mod:`solitaire_ds.course.contracts` look
at it. This file sits at the package's top so that pytest reads it before parsing the
command line whenever a test under ``solitaire_ds/`` is named: ``python -m pytest`` in a
checkout, ``python -m pytest solitaire_ds/course/contracts --impl solutions``, and the
grader's own child processes, which run the package's copy of the contract tests.
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--impl",
        default="solitaire_ds",
        help="where the exercise code under test comes from: solitaire_ds (default), "
        "solutions, exercises, or a path to a folder laid out like exercises/",
    )


@pytest.fixture(scope="session")
def impl(request: pytest.FixtureRequest) -> str:
    """The implementation under test: a :class:`~solitaire_ds.course.grader.proxy.Submission`.

    In a grading run the judge gives its own, whose requests go to a sandboxed worker;
    otherwise the ``--impl`` folder is served in this process. Either way
    ``load_module(impl, "structures.array_stack")`` gives the module's proxy.
    """
    from solitaire_ds.course.grader.judge import active
    from solitaire_ds.course.grader.proxy import LocalSubmission

    judge = active(request.config)
    if judge is not None:
        return judge.submission
    return LocalSubmission(str(request.config.getoption("--impl")))
