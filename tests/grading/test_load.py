"""The same class, the same grade, on an idle machine and a busy one.

Every limit that decides a score counts CPU time, and is far above what honest code uses
(tests/grading/test_meta.py prints the margins), so a slow submission loses the same tests
whether or not other CPU-heavy jobs share the machine. The stuck submission here shuffles
short lists and never returns on a long one; the honest one is the reference.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from solitaire_ds.course import exercise
from solitaire_ds.course.grader.runner import Limits, grade_many
from solitaire_ds.course.report import csv_text
from tests.grading.submissions import make_submission

STUCK = """
_fisher_yates = fisher_yates


def fisher_yates(items, rng):
    while len(items) > 10:
        pass
    _fisher_yates(items, rng)
"""
# The stuck tests are stopped at 1 s of CPU time each: a limit on the wall clock would cut
# them differently on a busy machine. The honest reference uses a few hundredths of a second
# per test, far below it.
LIMITS = Limits(test_seconds=1, exercise_seconds=20)
BUSY = "import itertools\nfor _ in itertools.count():\n    pass\n"
#: More CPU hogs than the machine has cores (CI's has two; the grader itself runs two jobs).
HOGS = 3


def test_a_busy_machine_gives_a_byte_identical_csv(tmp_path: Path) -> None:
    stuck = make_submission(tmp_path, "stuck", {7: STUCK})
    honest = make_submission(tmp_path, "honest", {7: None})
    idle = csv_text(grade_many([stuck, honest], [exercise(7)], LIMITS))
    hogs = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(HOGS)]
    try:
        busy = csv_text(grade_many([stuck, honest], [exercise(7)], LIMITS, jobs=2))
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert busy == idle
    row = next(line for line in idle.splitlines() if line.startswith("stuck,"))
    score = float(row.split(",")[2])
    assert 0 < score < 10  # the tests that shuffle short lists keep their points, loaded or not
    assert next(line for line in idle.splitlines() if line.startswith("honest,")).split(",")[2] == "10.00"
