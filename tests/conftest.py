"""Options shared by the package's own tests.

The contract tests' ``--impl`` option and ``impl`` fixture live with the contract tests,
in ``solitaire_ds/conftest.py``: the contract tests ship inside the package.

The docs' generators (the ``docgen`` package) live in ``docs/hooks``, where mkdocs loads
them; that folder goes on the path here, once, for every docs test. And ``grade``'s grading
secret, made on first use, is made in a folder of the test run's own.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

_HOOKS = str(Path(__file__).resolve().parent.parent / "docs" / "hooks")
if _HOOKS not in sys.path:
    sys.path.insert(0, _HOOKS)


@pytest.fixture(autouse=True, scope="session")
def _config_home_of_our_own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """``grade`` makes a grading secret under ``$XDG_CONFIG_HOME`` on first use: in a folder of
    this run's own, never in the home of whoever runs the tests."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
        yield


def pytest_xdist_auto_num_workers(config: object) -> int:
    """``-n auto``: one worker more than the cores. About a quarter of the suite's time is spent
    waiting on the grader's own processes (judges, workers, sandboxes), so a worker more keeps
    the cores busy: on a 2-core machine the suite runs in about 5 minutes instead of 6."""
    return (os.cpu_count() or 1) + 1
