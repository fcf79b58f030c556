"""One complete submission's grading cost, every process counted by a cgroup, and ``check N``, beside a baseline.

Run as root from the repository root::

    python -m benchmarks.grading_cgroup                      # this grader, behind each wall
    python -m benchmarks.grading_cgroup --baseline OTHER/bin/solitaire-ds --rounds 3

Each measurement runs ``solitaire-ds grade`` on a copy of ``solutions/`` (all twelve
exercises) in a cgroup of its own (cgroup v1 ``cpuacct``, or v2), made for it and removed
after: the kernel counts the CPU time of every process of the run there -- the command, its
judge, every sandbox and worker, including those a PID namespace hides from ``getrusage``
-- so nothing is counted twice and nothing is missed. With ``--baseline``, another
installation's ``solitaire-ds`` (an earlier version, say) grades the same submission in
turn with this one, round after round, so that a host whose speed drifts from minute to
minute (a shared machine's does) moves both figures alike: the ratio of the medians is the
figure to read; each absolute figure is this host's, now.

The walls: bubblewrap (this host's default for ``grade``) and, as root, a user id per
exercise without namespaces (a ``bwrap`` first on the ``PATH`` that fails as Docker's
seccomp makes it fail). The baseline grades with whatever wall it chooses.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from solitaire_ds.course import EXERCISES, REPO_ROOT
from solitaire_ds.course.grader.sandbox import _own_cgroup

__all__ = ["main"]

TARGET = 12.0  # CPU seconds for one complete submission, every process counted
CHECK_TARGET = 2.0  # wall seconds for check N, a structure exercise, on an idle 2-core machine
_DOCKER_BWRAP = "#!/bin/sh\necho 'bwrap: Creating new namespace failed: Operation not permitted' >&2\nexit 1\n"


def _cgroup_cpu(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    """Run ``argv`` in a new cgroup of its own; return the CPU seconds of every process it ran."""
    v2 = _own_cgroup("")
    parent = v2 if v2 is not None and (v2 / "cpu.stat").exists() else _own_cgroup("cpuacct")
    if parent is None:
        raise SystemExit("no cgroup may be made here (run as root on Linux)")
    folder = parent / f"solitaire-ds-bench-{os.getpid()}-{time.monotonic_ns()}"
    folder.mkdir()
    try:
        def join() -> None:
            with open(folder / "cgroup.procs", "w") as procs:
                procs.write("0")

        done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, preexec_fn=join,
                              check=False)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(argv[:3])} failed: {done.stderr.strip()[-400:]}")
        if (folder / "cpu.stat").exists():
            fields = dict(line.split() for line in (folder / "cpu.stat").read_text().splitlines())
            return int(fields["usage_usec"]) / 1e6
        return int((folder / "cpuacct.usage").read_text()) / 1e9
    finally:
        for _ in range(100):
            try:
                folder.rmdir()
                break
            except OSError:
                time.sleep(0.05)


def _private_install(folder: Path) -> str:
    """Install this version from its wheel into a virtual environment only root may read; return its
    ``solitaire-ds``."""
    from solitaire_ds.course.gradescope import installed_wheel

    folder.mkdir(mode=0o700)
    wheel = installed_wheel(folder)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder / "venv")], check=True)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(folder / "venv" / "bin" / "python"), "install",
                    "--quiet", "--disable-pip-version-check", f"{wheel}[grading]"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return str(folder / "venv" / "bin" / "solitaire-ds")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.grading_cgroup", description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="SOLITAIRE_DS", help="another installation's solitaire-ds to compare")
    parser.add_argument("--rounds", type=int, default=3, metavar="N", help="rounds of measurements (default 3)")
    args = parser.parse_args(argv)
    ours = str(Path(sys.executable).parent / "solitaire-ds")
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="solitaire-ds-bench-") as tmp:
        root = Path(tmp)
        root.chmod(0o711)
        student = root / "class" / "student"
        for ex in EXERCISES:
            (student / ex.relpath).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(REPO_ROOT / "solutions" / ex.relpath, student / ex.relpath)
        (root / "class").chmod(0o700)
        docker = root / "docker-bin"
        docker.mkdir()
        (docker / "bwrap").write_text(_DOCKER_BWRAP)
        (docker / "bwrap").chmod(0o755)
        secret = root / "secret"
        secret.write_bytes(bytes(range(32)))
        secret.chmod(0o600)  # the grader's own, as a course's secret is
        base_env = {"PATH": os.environ["PATH"], "HOME": str(root), "LANG": "C.UTF-8"}
        runs: dict[str, tuple[list[str], dict[str, str]]] = {
            "this grader, bubblewrap": ([ours, "grade", str(student), "--secret", str(secret)], base_env),
        }
        if os.geteuid() == 0:  # from a private install: the user-id tier refuses one every user may read
            private = _private_install(root / "private")
            runs["this grader, a user id per exercise"] = (
                [private, "grade", str(student), "--secret", str(secret)],
                {**base_env, "PATH": f"{docker}:{base_env['PATH']}"})
        if args.baseline:
            runs["baseline"] = ([args.baseline, "grade", str(student)], base_env)
        figures: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(args.rounds):
            for name, (command, env) in runs.items():
                figures[name].append(_cgroup_cpu(command, env, root))
        print(f"\none complete submission (12 exercises), CPU seconds of every process, {args.rounds} rounds")
        for name, values in figures.items():
            median = statistics.median(values)
            met = "met" if median <= TARGET else "MISSED"
            verdict = "" if name == "baseline" else f"  (target <= {TARGET:g}: {met})"
            print(f"  {name:38} median {median:5.2f}  [{', '.join(f'{v:.2f}' for v in values)}]{verdict}")
        if args.baseline:
            base = statistics.median(figures["baseline"])
            for name, values in figures.items():
                if name != "baseline":
                    print(f"  {name}: {statistics.median(values) / base:.2f} x the baseline, measured in the same run")
        _checks(ours, args.baseline, student, base_env, root, args.rounds)
    return 0


def _checks(ours: str, baseline: str | None, student: Path, env: dict[str, str], cwd: Path, rounds: int) -> None:
    """``check N`` for the structure exercises, as a student runs it: wall time, best of ``rounds``."""
    print(f"\ncheck N, structure exercises, wall seconds, best of {rounds} (target <= {CHECK_TARGET:g} idle)")
    commands = {"this version": ours, **({"baseline": baseline} if baseline else {})}
    best: dict[str, list[float]] = {name: [] for name in commands}
    for number in range(1, 7):
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(rounds):
            for name, command in commands.items():
                started = time.perf_counter()
                subprocess.run([command, "check", str(number), "--impl", str(student)], env=env, cwd=cwd,
                               capture_output=True, check=False)
                times[name].append(time.perf_counter() - started)
        for name in commands:
            best[name].append(min(times[name]))
        print(f"  check {number}  " + "  ".join(f"{name} {min(times[name]):.2f} s" for name in commands))
    for name, values in best.items():
        print(f"  {name}: slowest {max(values):.2f} s" + (f" ({'met' if max(values) <= CHECK_TARGET else 'MISSED'})"
                                                         if name == "this version" else ""))
    if baseline:
        print(f"  this version: {max(best['this version']) / max(best['baseline']):.2f} x the baseline's slowest")


if __name__ == "__main__":
    raise SystemExit(main())
