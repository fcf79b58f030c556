"""Sample sessions of the course's commands, run for real each time the site is built.

``<!-- gen: run command="check 1" status=1 -->`` runs ``solitaire-ds check 1`` as a student
does: inside the folder ``solitaire-ds exercises init my-exercises`` has just written, where
``check`` finds the files by itself. Before the command runs,

* ``done=1,3`` copies in the solution files of exercises 1 and 3 (from ``solutions/``): the
  student has finished them;
* ``bug=NAME`` copies in one exercise's solution with a typical mistake in it: the bug zoo's
  ``NAME.toml`` (``tests/grading/bugzoo/``), applied as the grader's meta-tests apply it.

The page shows the command and everything it printed, standard output and errors as a
terminal interleaves them (``lines=N``: the first N lines, then how many were left out), with
the temporary folder shown as ``~/my-exercises``. The command must exit with ``status``
(default 0), or the build stops: a sample cannot show a failure where there is none, nor
a pass where the command fails.

Invariant: a sample is a pure function of the package's code and the directive's arguments;
each distinct session runs once per process (the hook and the tests share it).
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from docgen.common import ROOT, DirectiveError

__all__ = ["FOLDER", "SHOWN_HOME", "ZOO", "run", "session"]

#: The folder a sample session runs in, as a student names it in Getting started.
FOLDER = "my-exercises"
#: How the page shows the temporary folder that holds :data:`FOLDER`.
SHOWN_HOME = "~"
#: The typical mistakes ``bug=NAME`` can copy in.
ZOO = ROOT / "tests" / "grading" / "bugzoo"


def run(command: str, done: str = "", bug: str = "", status: str = "0", lines: str = "") -> str:
    """A console block: ``$ solitaire-ds COMMAND`` and what it printed, in a fresh exercises folder."""
    numbers = tuple(int(n) for n in done.split(",") if n.strip())
    code, output = session(command, numbers, bug)
    if code != int(status):
        raise DirectiveError(f"run: `solitaire-ds {command}` exited {code}, not {status}:\n{output[-1500:]}")
    shown = output.rstrip("\n").splitlines()
    if lines and len(shown) > int(lines):
        left = len(shown) - int(lines)
        shown = [*shown[: int(lines)], f"… ({left} more line{'s' if left != 1 else ''})"]
    return "\n".join(["```console", f"$ solitaire-ds {command}", *shown, "```", ""])


@functools.cache
def session(command: str, done: tuple[int, ...] = (), bug: str = "") -> tuple[int, str]:
    """Run ``solitaire-ds COMMAND`` in a fresh ``exercises init`` folder; return its status and output.

    The output is standard output and errors together, with the temporary folder's path
    replaced by :data:`SHOWN_HOME`.
    """
    from solitaire_ds.course import exercise

    with tempfile.TemporaryDirectory(prefix="docs-session-") as tmp:
        home = Path(tmp).resolve()
        made = _solitaire_ds(["exercises", "init", FOLDER], home, home)
        if made.returncode != 0:
            raise DirectiveError(f"run: `solitaire-ds exercises init {FOLDER}` failed: {made.stdout[-500:]}")
        folder = home / FOLDER
        for number in done:
            relpath = exercise(number).relpath
            shutil.copyfile(ROOT / "solutions" / relpath, folder / relpath)
        if bug:
            relpath, text = _with_bug(bug)
            (folder / relpath).write_text(text, encoding="utf-8")
        finished = _solitaire_ds(shlex.split(command), folder, home)
    return finished.returncode, finished.stdout.replace(str(home), SHOWN_HOME)


def _solitaire_ds(argv: list[str], cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    """Run this checkout's ``solitaire-ds`` in ``cwd``, as a terminal 80 columns wide with no input,
    for a user whose home is ``home`` (so the paths it shows start with ``~``)."""
    env = {**os.environ, "COLUMNS": "80", "HOME": str(home), "PYTHONUNBUFFERED": "1",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    return subprocess.run([sys.executable, "-m", "solitaire_ds", *argv], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300, check=False)


def _with_bug(name: str) -> tuple[str, str]:
    """Return the file a zoo bug belongs in and its exercise's solution with the bug applied."""
    from solitaire_ds.course import exercise

    path = ZOO / f"{name}.toml"
    if not path.is_file():
        raise DirectiveError(f"run: no bug {name!r} in the bug zoo ({ZOO.relative_to(ROOT)})")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    relpath = exercise(int(data["exercise"])).relpath
    text = (ROOT / "solutions" / relpath).read_text(encoding="utf-8")
    for change in data["replace"]:
        if text.count(change["old"]) != 1:
            raise DirectiveError(f"run: bug {name!r} no longer applies to solutions/{relpath}")
        text = text.replace(change["old"], change["new"])
    return relpath, text
