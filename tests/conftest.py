"""Test-suite options shared by every test folder.

``--impl`` says where the code under test comes from (see ``solitaire_ds.course``):
``solitaire_ds`` (default), ``solutions``, ``exercises``, or a path to a folder laid out
like ``exercises/``. Only the contract tests in ``tests/contracts/`` look at it.
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
    """The implementation under test, as given by ``--impl``."""
    return str(request.config.getoption("--impl"))
