"""How fast the grader is: one submission, ``check N``, and a class.

Run from the repository root (it grades copies of ``solutions/``)::

    python -m benchmarks.grading            # all three figures, a class of 30 (about 4 min)
    python -m benchmarks.grading --class 8  # a smaller class
    python -m benchmarks.grading --skip-class

It prints three figures against their targets:

* **one complete submission**, behind each wall this machine can build (bubblewrap; as root,
  also a user id per exercise without namespaces, the wall Gradescope's Docker allows): the
  CPU seconds of every process of its grading, each counted once -- the runner (its own
  ``getrusage``), the judge (pytest, Hypothesis, the contract tests: its own process time,
  which it reports at its end) and the twelve workers (each worker's cgroup, or ``/proc``,
  which ``getrusage`` cannot see: a process in bubblewrap's PID namespace is not reaped by
  its parent) -- split into runner and judge, and workers, and the wall-clock time;
* **``check N``** for each structure exercise (1-6): the wall-clock time of the whole
  command, as a student runs it (best of three);
* **a class** of complete submissions graded with ``--jobs 2``: wall-clock time.

The wall-clock figures are only meaningful on an idle machine; the CPU figure is the
same on a busy one. The targets are what a class needs (the numbers a 2-core laptop
should reach); the script prints them, it does not fail on them.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from solitaire_ds.course import EXERCISES, REPO_ROOT
from solitaire_ds.course.grader.runner import available_exercises, grade_many, reference_tests, wall_for
from solitaire_ds.course.grader.walls import Wall, user_python

__all__ = ["main"]

SUBMISSION_CPU_TARGET = 12.0  # CPU seconds for one complete submission, every process counted, in each tier
CHECK_TARGET = 2.0  # wall seconds for `check N`, a structure exercise, idle 2-core machine
CLASS_SIZE = 30
CLASS_TARGET = 240.0  # wall seconds for a class of 30 with --jobs 2


def _complete_submission(folder: Path) -> Path:
    """Copy every exercise file of ``solutions/`` into ``folder`` and return it."""
    for ex in EXERCISES:
        target = folder / ex.relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO_ROOT / "solutions" / ex.relpath, target)
    return folder


def _cli(*args: str) -> float:
    """Run ``solitaire-ds ARGS`` as a student or instructor would; return its wall time."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "solitaire_ds", *args], capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"solitaire-ds {' '.join(args)} failed: {done.stderr.strip()[-300:]}")
    return seconds


def _own_cpu(children: bool = True) -> float:
    """CPU seconds of this process (and, with ``children``, of every child it has waited for)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    if not children:
        return me.ru_utime + me.ru_stime
    them = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + them.ru_utime + them.ru_stime


def _walls() -> list[tuple[str, Wall]]:
    """The walls this machine can build: bubblewrap's, and as root the user ids' (taken as given: this
    trusted benchmark skips the probe that an instructor's run makes of what a user id can read)."""
    found = []
    best = wall_for("best")
    if best.kind == "bubblewrap":  # grade's: as root, bubblewrap runs as a user id of its own too
        found.append(("bubblewrap", Wall("bubblewrap", best.bwrap, user_python() or best.python,
                                         users=user_python() is not None, cgroup=best.cgroup)
                      if os.geteuid() == 0 else best))
    python = user_python() if os.geteuid() == 0 else None
    if python is not None:
        found.append(("user ids, no namespaces", Wall("user", python=python, users=True, cgroup=best.cgroup)))
    if not found:
        found.append(("no wall", Wall("none", python=sys.executable, why="this machine allows none")))
    return found


def _verdict(value: float, target: float) -> str:
    return f"target <= {target:g}: {'met' if value <= target else 'MISSED'}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.grading", description=__doc__.splitlines()[0])
    parser.add_argument("--class", dest="size", type=int, default=CLASS_SIZE, metavar="N",
                        help=f"submissions in the class run (default {CLASS_SIZE})")
    parser.add_argument("--skip-class", action="store_true", help="leave out the class run")
    args = parser.parse_args(argv)
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="solitaire-ds-bench-") as tmp:
        root = Path(tmp)
        one = _complete_submission(root / "student")

        before = _own_cpu()
        reference_tests(available_exercises())  # once a run, whatever its size: counted apart
        print(f"\ncollecting the tests (once a run): {_own_cpu() - before:.1f} CPU-s")
        for name, wall in _walls():
            before = _own_cpu(children=False)
            (result,) = grade_many([one], sandbox=wall)
            workers = sum(r.cpu for r in result.exercises)
            runner = _own_cpu(children=False) - before + result.cpu - workers  # the runner, and the judge
            cpu = runner + workers
            print(f"\none complete submission (12 exercises), {name}: {wall.describe()}")
            for r in result.exercises:
                print(f"  exercise {r.exercise.number:2}  worker {r.cpu:5.2f} CPU-s  {r.passed}/{r.total} tests")
            print(f"  runner and judge {runner:.1f} CPU-s, workers {workers:.1f} CPU-s")
            print(f"  total {cpu:.1f} CPU-s, every process counted ({_verdict(cpu, SUBMISSION_CPU_TARGET)}); "
                  f"graded in {result.seconds:.1f} s wall")

        print("\ncheck N, structure exercises (wall, best of 3)")
        worst = 0.0
        for number in range(1, 7):
            best = min(_cli("check", str(number), "--impl", str(one)) for _ in range(3))
            worst = max(worst, best)
            print(f"  check {number}  {best:.2f} s")
        print(f"  slowest {worst:.2f} s ({_verdict(worst, CHECK_TARGET)})")

        if not args.skip_class:
            paths = [str(_complete_submission(root / "class" / f"student{i:02}")) for i in range(args.size)]
            seconds = _cli("grade", *paths, "--jobs", "2", "--csv", str(root / "grades.csv"))
            target = CLASS_TARGET * args.size / CLASS_SIZE
            print(f"\na class of {args.size} complete submissions, --jobs 2")
            print(f"  {seconds:.0f} s wall ({_verdict(seconds, target)}"
                  f"{'' if args.size == CLASS_SIZE else f', scaled from {CLASS_TARGET:g} s for 30'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
