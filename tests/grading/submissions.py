"""Build small submission folders for the grader's tests: solutions/ with some files changed.

A submission is made in a temporary folder by copying the ``solutions/`` file of each
chosen exercise and, for a broken one, appending code to the end of the file (appending
replaces a method or misbehaves at import, and does not depend on how the solution is
written) or applying a bug-zoo patch.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

from solitaire_ds.course import REPO_ROOT, exercise

__all__ = ["BAD", "SOLUTIONS", "bad_submission", "make_submission"]

SOLUTIONS = REPO_ROOT / "solutions"
#: The folder of bad submissions: ``NAME/exNN.snippet`` is appended to exercise NN's solution.
BAD = Path(__file__).resolve().parent / "bad_submissions"


def make_submission(root: Path, name: str, files: dict[int, str | None]) -> Path:
    """Return a folder holding, for each exercise number, its solution plus appended code.

    ``files[n]`` is the code appended to exercise ``n``'s file (dedented), or None to
    copy the solution unchanged.
    """
    folder = root / name
    for number, extra in files.items():
        rel = exercise(number).relpath
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SOLUTIONS / rel, target)
        if extra is not None:
            with target.open("a", encoding="utf-8") as f:
                f.write("\n\n" + textwrap.dedent(extra).strip() + "\n")
    return folder


def bad_submission(root: Path, name: str) -> Path:
    """Return a submission folder built from ``BAD / name`` (an empty snippet: the solution as is)."""
    files: dict[int, str | None] = {}
    for snippet in sorted((BAD / name).glob("ex*.snippet")):
        text = snippet.read_text(encoding="utf-8")
        files[int(snippet.stem[2:])] = text if text.strip() else None
    if not files:
        raise FileNotFoundError(f"no snippets in {BAD / name}")
    return make_submission(root, name, files)
