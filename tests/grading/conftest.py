"""What the grader's tests share: the wall a test grades behind.

A test that needs bubblewrap takes ``sandboxed``: it fails, rather than skips, where bubblewrap
is missing and ``CI`` is set (CI installs it). A test of the judge's own checks takes ``tier``
and runs behind each wall (:data:`TIERS`): bubblewrap in the default run; a user id per
exercise without namespaces (the wall Gradescope's Docker allows) and no wall at all (the
judge believes nothing its worker says even there) under the ``every_tier`` marker, which CI
runs as a step of its own (``python -m pytest -m every_tier``).
"""

from __future__ import annotations

import os

import pytest

from solitaire_ds.course.grader.runner import wall_for
from solitaire_ds.course.grader.walls import Wall, user_python
from tests.grading.tiers import need

#: The tiers a test of the judge's own checks runs in (see the module).
TIERS = [
    pytest.param("bubblewrap", id="bubblewrap"),
    pytest.param("user ids", id="user-ids", marks=pytest.mark.every_tier),
    pytest.param("none", id="no-wall", marks=pytest.mark.every_tier),
]



@pytest.fixture(scope="module")
def sandboxed() -> Wall:
    found = wall_for("best")
    need(found.kind == "bubblewrap", f"CI installs bubblewrap, yet there is no sandbox: {found.describe()}")
    return found


@pytest.fixture
def tier(request: pytest.FixtureRequest) -> Wall:
    """The wall of the test's tier (its parameter: ``@pytest.mark.parametrize("tier", TIERS, indirect=True)``)."""
    name = request.param
    if name == "bubblewrap":
        return request.getfixturevalue("sandboxed")  # type: ignore[no-any-return]
    if name == "user ids":  # as Gradescope's Docker: root, no namespaces, no cgroup
        python = user_python() if os.geteuid() == 0 else None
        need(python is not None, "the user-id tier needs root and a Python every user may run")
        assert python is not None
        return Wall("user", python=python, users=True, cgroup=False,
                    why="bubblewrap: Creating new namespace failed: Operation not permitted")
    return wall_for("none")
