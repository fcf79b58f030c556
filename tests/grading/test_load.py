"""The same class, the same grade, on an idle machine and a busy one.

Every limit that decides a score counts CPU time, so a slow submission loses the same
tests whether or not another CPU-heavy job shares the machine. The submission here is the
one a class once saw graded 6.47/10 alone and 0/10 under load: an ``__iter__`` that never
advances.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from solitaire_ds.course import exercise
from solitaire_ds.course.report import csv_text
from solitaire_ds.course.runner import Limits, grade_many
from tests.grading.submissions import make_submission

STUCK = """
def _iter(self):
    while True:
        pass
    yield


ArrayStack.__iter__ = _iter
"""
# The stuck exercise uses about 14 s of CPU time (seven tests stopped at 2 s each): under
# this limit on an idle machine, and far over it in wall-clock time on a busy one, so a
# limit on the wall clock would cut it.
LIMITS = Limits(test_seconds=2, exercise_seconds=20)
BUSY = "import itertools\nfor _ in itertools.count():\n    pass\n"


def test_a_busy_machine_gives_a_byte_identical_csv(tmp_path: Path) -> None:
    stuck = make_submission(tmp_path, "stuck", {1: STUCK})
    honest = make_submission(tmp_path, "honest", {1: None})
    idle = csv_text(grade_many([stuck, honest], [exercise(1)], LIMITS))
    hogs = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(3)]  # more than the cores
    try:
        busy = csv_text(grade_many([stuck, honest], [exercise(1)], LIMITS, jobs=2))
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert busy == idle
    row = next(line for line in idle.splitlines() if line.startswith("stuck,"))
    score = float(row.split(",")[2])
    assert 0 < score < 10  # the tests that never iterate keep their points, loaded or not
