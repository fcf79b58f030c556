"""Gradescope: the autograder bundle, and the run that grades a student's upload with it.

Invariant: the bundle is what Gradescope's documented autograder format asks for, and nothing
of the course but the package. Gradescope unzips it into ``/autograder/source``, runs
``setup.sh`` from there once when it builds the image, and for each submission runs a *copy*
of ``run_autograder`` placed at ``/autograder/run_autograder``, in ``/autograder``, with the
student's upload in ``/autograder/submission``; it reads ``/autograder/results/results.json``
and shows the instructor, never the student, what the run printed. So:

* ``setup.sh`` (run once, as root) finds a Python of at least 3.11 that can make a virtual
  environment (or installs one from the image's packages, or stops with one line naming the
  base image to choose), installs bubblewrap, makes the virtual environment and installs the
  bundled wheel with the pinned ``grading`` extra;
* ``run_autograder`` names nothing beside itself: it finds everything under the autograder's
  root (``/autograder``, or ``SOLITAIRE_DS_AUTOGRADER_ROOT``), the bundle in ``source/`` and
  the virtual environment in ``venv/`` (or ``SOLITAIRE_DS_AUTOGRADER_VENV``);
* ``course.json`` (which exercises, what students see of each), ``course.toml`` (points and
  test weights), ``tests/`` (the instructor's own tests, if any) and ``secret`` (the course's
  grading secret: the decks the games are tested on, the same as ``grade --secret`` draws) sit
  beside them;
* the wheel is rebuilt from the *installed* package (:func:`installed_wheel`), so an
  instructor with nothing but ``pip install`` can build the bundle of the version they run.

A run chooses its wall and sees it hold, copies the exercise files it finds in the upload,
by name, wherever they are, into a temporary folder laid out like ``exercises/``
(:func:`~solitaire_ds.course.uploads.found_upload`), grades that, removes it, and writes
``results.json`` in the one shape of
:func:`~solitaire_ds.course.report.gradescope_json`. The grader's notes for the instructor go
to the run's standard output and to ``extra_data``, which students do not see.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import importlib.metadata
import io
import json
import os
import sys
import tempfile
import time
import traceback
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import solitaire_ds
from solitaire_ds.course.catalog import exercise
from solitaire_ds.course.config import DEFAULT_COURSE, Course, load_course
from solitaire_ds.course.report import gradescope_json
from solitaire_ds.course.results import merged_notes
from solitaire_ds.course.secret import read_secret
from solitaire_ds.course.uploads import MAX_DEPTH, MAX_ENTRIES, MAX_FILE_BYTES, Upload, found_upload

__all__ = [
    "MAX_DEPTH",
    "MAX_ENTRIES",
    "MAX_FILE_BYTES",
    "VISIBILITIES",
    "BundleError",
    "Upload",
    "build_bundle",
    "found_upload",
    "installed_wheel",
    "run",
]

#: What students see of an exercise's tests on Gradescope.
VISIBILITIES = ("visible", "after_due_date", "hidden")

_SETUP = """#!/usr/bin/env bash
# Gradescope runs this once, as root, from /autograder/source, when it builds the autograder image.
# It needs Python 3.11 or newer, and finds or installs one (Ubuntu 22.04, Gradescope's default
# image, has python3.10 as python3 and python3.11 among its packages).
set -euo pipefail
case "$0" in */*) here="${{0%/*}}" ;; *) here=. ;; esac
here="$(cd "$here" && pwd)"
root="${{SOLITAIRE_DS_AUTOGRADER_ROOT:-/autograder}}"
venv="${{SOLITAIRE_DS_AUTOGRADER_VENV:-$root/venv}}"

pick() {{  # the first Python of at least 3.11 that can make a virtual environment
    for candidate in python3.14 python3.13 python3.12 python3.11 python3; do
        if command -v "$candidate" >/dev/null 2>&1 \\
            && "$candidate" -c 'import sys, ensurepip, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}}
if ! python="$(pick)"; then
    has="$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || true)"
    if command -v apt-get >/dev/null 2>&1; then
        echo "setup.sh: no Python 3.11 or newer with venv here (python3 is ${{has:-missing}}): installing one"
        apt-get update -qq >/dev/null 2>&1 || true
        apt-get install -y -qq python3.11 python3.11-venv >/dev/null 2>&1 \\
            || {{ [ -n "$has" ] && apt-get install -y -qq "python$has-venv" >/dev/null 2>&1; }} || true
    fi
    if ! python="$(pick)"; then
        choose="on the assignment's Configure Autograder page choose the base image Ubuntu 22.04 or newer"
        echo "setup.sh: solitaire-ds needs Python 3.11 or newer and this image has ${{has:-no python3}}: $choose" >&2
        exit 1
    fi
fi
if ! command -v bwrap >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    apt-get install -y -qq bubblewrap >/dev/null 2>&1 \\
        || echo "setup.sh: bubblewrap could not be installed (runs need it only where the container allows namespaces)"
fi
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$here/{wheel}[grading]"
"$venv/bin/python" -c "import solitaire_ds.course.grader.runner"  # the grader imports: pytest and Hypothesis are there
# the bundle (its tests, course file and secret) and the virtual environment (the reference code) are
# root's alone: a student's code, run as a user id of its own, can read neither
chmod 700 "$here" "$venv"
echo "setup.sh: solitaire-ds {version} installed in $venv with $("$venv/bin/python" --version)"
echo "setup.sh: each run will grade behind: $("$venv/bin/python" -m solitaire_ds.course.gradescope --wall "$here" 2>&1)"
"""

_RUN = """#!/usr/bin/env bash
# Gradescope runs a copy of this, /autograder/run_autograder, for each submission.
# It names nothing beside itself: the bundle is in $root/source, the virtual environment setup.sh
# made in $root/venv, the upload in $root/submission; results.json goes to $root/results.
set -euo pipefail
root="${SOLITAIRE_DS_AUTOGRADER_ROOT:-/autograder}"
venv="${SOLITAIRE_DS_AUTOGRADER_VENV:-$root/venv}"
if [ ! -x "$venv/bin/python" ]; then
    echo "run_autograder: $venv/bin/python is missing: setup.sh did not finish (see the autograder's build output)" >&2
    exit 1
fi
exec "$venv/bin/python" -m solitaire_ds.course.gradescope "$root/source"
"""


class BundleError(Exception):
    """The bundle cannot be built (the message says why, in one line)."""


# -- the wheel of the installed package -----------------------------------------------------


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")


def _packaged(rel: str) -> bool:
    """Return whether the file ``rel`` of the package belongs in its wheel (no byte code, no dot files)."""
    parts = rel.split("/")
    return not (any(p == "__pycache__" or p.startswith(".") for p in parts) or rel.endswith((".pyc", ".pyo")))


def _package_files() -> dict[str, bytes]:
    """Return the installed package's files, by their path in a wheel (``solitaire_ds/...``).

    Installed from a wheel, the distribution's RECORD lists them with their hashes: each is
    read and checked against it (a file edited since the install is refused). Installed
    editable from a checkout, RECORD lists none of them: the package's own folder is read,
    as the build backend would (byte code and dot files left out).
    """
    dist = importlib.metadata.distribution("solitaire-ds")
    package = Path(solitaire_ds.__file__).resolve().parent
    listed = [f for f in dist.files or () if f.parts and f.parts[0] == "solitaire_ds" and _packaged(f.as_posix())]
    files: dict[str, bytes] = {}
    if listed and Path(str(dist.locate_file("solitaire_ds/__init__.py"))).resolve() == package / "__init__.py":
        for f in sorted(listed, key=lambda p: p.as_posix()):
            path = Path(str(dist.locate_file(f)))
            data = path.read_bytes()
            if f.hash is not None and f.hash.mode == "sha256" and _record_hash(data) != f"sha256={f.hash.value}":
                raise BundleError(f"{path} has changed since solitaire-ds was installed; reinstall it "
                                  "(pip install --force-reinstall) before building the bundle")
            files[f.as_posix()] = data
    else:
        for path in sorted(package.rglob("*")):
            rel = "solitaire_ds/" + path.relative_to(package).as_posix()
            if path.is_file() and not path.is_symlink() and _packaged(rel):
                files[rel] = path.read_bytes()
    if "solitaire_ds/__init__.py" not in files:
        raise BundleError(f"the installed solitaire-ds has no files under {package}; reinstall it")
    return files


def installed_wheel(into: Path) -> Path:
    """Write a wheel of the installed solitaire-ds into the folder ``into``; return its path.

    The wheel holds the package's files (:func:`_package_files`) and the distribution's own
    metadata (METADATA, entry points, licence), with a new WHEEL and RECORD: pure Python,
    ``py3-none-any``, the same files ``pip install`` put in place. Its bytes depend only on
    those files (fixed dates, sorted names), so the same install gives the same wheel. Raise
    :class:`BundleError` when the installed metadata is not that of the running package.

    Runtime complexity: O(size of the package).
    """
    dist = importlib.metadata.distribution("solitaire-ds")
    if dist.version != solitaire_ds.__version__:
        raise BundleError(f"the installed metadata says solitaire-ds {dist.version} but the package is "
                          f"{solitaire_ds.__version__}; reinstall it (pip install -e . in a checkout)")
    name = (dist.metadata["Name"] or "solitaire-ds").replace("-", "_")
    info = f"{name}-{dist.version}.dist-info"
    files = _package_files()
    leave_out = {"RECORD", "INSTALLER", "REQUESTED", "WHEEL", "direct_url.json"}
    for f in dist.files or ():
        parts = f.parts
        if len(parts) >= 2 and parts[0].endswith(".dist-info") and parts[1] not in leave_out:
            files[f"{info}/{'/'.join(parts[1:])}"] = Path(str(dist.locate_file(f))).read_bytes()
    files[f"{info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: solitaire-ds {dist.version} (from the installed "
                              "files)\nRoot-Is-Purelib: true\nTag: py3-none-any\n").encode()
    record = io.StringIO()
    for rel, data in files.items():
        record.write(f"{rel},{_record_hash(data)},{len(data)}\n")
    record.write(f"{info}/RECORD,,\n")
    files[f"{info}/RECORD"] = record.getvalue().encode()
    wheel = into / f"{name}-{dist.version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as out:
        for rel, data in files.items():  # the package first, then its dist-info, RECORD last
            entry = zipfile.ZipInfo(rel, date_time=(2020, 1, 1, 0, 0, 0))
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            out.writestr(entry, data)
    return wheel


# -- the bundle ------------------------------------------------------------------------------


def build_bundle(
    out: Path, numbers: Sequence[int], visibility: dict[int, str],
    course: Course | None = None, course_file: Path | None = None, secret: bytes | None = None,
) -> list[str]:
    """Write Gradescope's autograder zip for exercises ``numbers`` to ``out``; return its names.

    The zip holds the course file ``course_file`` (the shipped default when None) as
    ``course.toml``, the instructor's tests of ``course`` (as read from it and the tests
    folder by :func:`~solitaire_ds.course.config.load_course`) under ``tests/``, and the wheel
    of the installed package (:func:`installed_wheel`): no checkout is needed. The grading
    ``secret``, if given, goes in as ``secret`` (mode 0600), which each run grades with. ``out``
    is written whole or not at all. Raise :class:`BundleError` or :class:`OSError`.
    """
    course = course or Course()
    extra = {f"tests/{Path(rel).name}": data.decode("utf-8") for rel, data in course.tests.items()
             if not rel.endswith("__init__.py")}
    with tempfile.TemporaryDirectory(prefix="solitaire-ds-bundle-") as tmp:
        wheel = installed_wheel(Path(tmp))
        chosen = {"version": solitaire_ds.__version__, "exercises": [
            {"number": n, "title": exercise(n).title, "visibility": visibility.get(n, "visible")} for n in numbers]}
        files = {
            "setup.sh": _SETUP.format(wheel=wheel.name, version=solitaire_ds.__version__),
            "run_autograder": _RUN,
            "course.json": json.dumps(chosen, indent=2) + "\n",
            "course.toml": (course_file or DEFAULT_COURSE).read_text(encoding="utf-8"),
            **extra,
        }
        fd, partial = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
        try:
            with os.fdopen(fd, "wb") as raw, zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as bundle:
                for name, text in files.items():
                    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                    info.external_attr = (0o755 if name in ("setup.sh", "run_autograder") else 0o644) << 16
                    info.compress_type = zipfile.ZIP_DEFLATED
                    bundle.writestr(info, text)
                if secret is not None:
                    info = zipfile.ZipInfo("secret", date_time=(2020, 1, 1, 0, 0, 0))
                    info.external_attr = 0o600 << 16
                    bundle.writestr(info, secret)
                info = zipfile.ZipInfo(wheel.name, date_time=(2020, 1, 1, 0, 0, 0))
                info.external_attr = 0o644 << 16
                bundle.writestr(info, wheel.read_bytes())  # stored: a wheel is compressed already
            os.chmod(partial, 0o644)
            os.replace(partial, out)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(partial)
            raise
    return [*files, *(["secret"] if secret is not None else []), wheel.name]


# -- the run ---------------------------------------------------------------------------------


def _grade(source: Path, upload: Path, results: Path) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Grade the upload with the bundle in ``source``; return results.json and the grader's notes.

    The wall is chosen before anything is read from the upload: the bundle's folder and the
    virtual environment (the answer key, the instructor's tests and course file) must be out of
    a worker's reach, and the results folder and the upload out of its hands.
    """
    from solitaire_ds.course.grader.runner import Guarded, grade_many, wall_for

    venv = Path(sys.prefix)
    for private in (source, venv):  # setup.sh made them so; a bundle unpacked by hand may not be
        with contextlib.suppress(OSError):
            os.chmod(private, 0o700)
    guarded = Guarded(private=(source.resolve(), venv.resolve()), trusted=(results.resolve(), upload.resolve()))
    wall = wall_for("required", guarded)
    print(wall.describe(), flush=True)
    course = json.loads((source / "course.json").read_text(encoding="utf-8"))
    chosen = [exercise(int(e["number"])) for e in course["exercises"]]
    visibility = {int(e["number"]): str(e["visibility"]) for e in course["exercises"]}
    tests = source / "tests"
    setup = load_course(source / "course.toml" if (source / "course.toml").is_file() else None,
                        tests if tests.is_dir() else None)
    secret = None
    if (source / "secret").exists():  # readable by its owner alone (root on Gradescope), never by a worker
        with contextlib.suppress(OSError):
            os.chmod(source / "secret", 0o600)
        secret = read_secret(source / "secret")
    with found_upload(upload, chosen) as found:
        (result,) = grade_many([found.folder], chosen, course=setup, sandbox=wall, secret=secret)
    graded = len(chosen) - len(found.unrun)
    said = [f"Found {graded} of the {len(chosen)} exercise files this assignment grades"
            + ("; the entry of each exercise not graded says why." if found.unrun else "."),
            *(f"Note: {line}." for line in found.said)]
    return gradescope_json(result, visibility, found.unrun, "\n".join(said)), result.notes


def run(source: Path) -> int:
    """Grade the upload under the autograder's root with the bundle in ``source``; write results.json.

    Whatever goes wrong, a ``results.json`` is written (Gradescope shows nothing without one):
    where no wall holds, or the grader itself fails, a score of 0 that says so, with the reason
    on the standard output, which only the instructor sees. It is written after every process
    the student's code started is gone (the grading sweeps each worker's user id on the way
    out), into a folder no worker could write.
    """
    from solitaire_ds.course.grader.runner import GradingError

    root = Path(os.environ.get("SOLITAIRE_DS_AUTOGRADER_ROOT", "/autograder"))
    results = root / "results"
    with contextlib.suppress(OSError):
        results.mkdir(mode=0o755, parents=True, exist_ok=True)
    started = time.monotonic()
    notes: tuple[str, ...] = ()
    try:
        data, notes = _grade(source, root / "submission", results)
    except GradingError as exc:
        print(f"run_autograder: not graded: {exc}")
        data = _zero(started, "The autograder could not build a wall to run your code behind here, so it did "
                              "not grade it (not a mistake in your code); your instructor can see why.")
    except Exception:
        traceback.print_exc(file=sys.stdout)
        data = _zero(started, "The autograder itself failed on this submission (not a mistake it found in your "
                              "code); your instructor can see why.")
    partial = results / ".results.json.tmp"
    partial.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    os.replace(partial, results / "results.json")
    print(f"graded: {data['score']:g} points in {time.monotonic() - started:.1f} s")
    for note in merged_notes(notes):  # the run's output is the instructor's alone (Gradescope's stdout)
        print(f"note: {note}")
    return 0


def _zero(started: float, output: str) -> dict[str, Any]:
    return {"score": 0.0, "execution_time": round(time.monotonic() - started), "stdout_visibility": "hidden",
            "output": output, "tests": []}


def _say_wall(source: Path) -> int:
    """Print the wall a run would grade behind here (``setup.sh`` says it in the build's output)."""
    from solitaire_ds.course.grader.runner import GradingError, Guarded, wall_for

    root = Path(os.environ.get("SOLITAIRE_DS_AUTOGRADER_ROOT", "/autograder"))
    guarded = Guarded(private=(source.resolve(), Path(sys.prefix).resolve()),
                      trusted=((root / "results").resolve(), (root / "submission").resolve()))
    try:
        print(wall_for("required", guarded).describe())
    except GradingError as exc:
        print(f"none: {exc}")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--wall"]:
        sys.exit(_say_wall(Path(sys.argv[2])))
    sys.exit(run(Path(sys.argv[1])))
