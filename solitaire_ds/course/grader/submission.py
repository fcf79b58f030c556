"""A submission as the runner reads it, never runs it: its files copied, its code read for notes.

Invariant: nothing here imports or executes a student's file. :func:`copy_submission`
copies what the workers will see (each exercise's file, and the student's own modules
beside it); :func:`read_code` reads each copied exercise file once for the instructor's
notes (how a structure keeps its items, and the shingles of its own graded code), and
:func:`compare` compares those across a class. Each is bounded (a file is at most
:data:`MAX_FILE_BYTES`, at most :data:`~solitaire_ds.course.similarity.MAX_TOKENS` of its
tokens are read) and never raises on what a file holds: a failure is a note, and a note
never changes a score.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path

from solitaire_ds.course.catalog import EXERCISES, REPO_ROOT, Exercise
from solitaire_ds.course.honesty import list_notes
from solitaire_ds.course.markers import exercise_view, solution_view
from solitaire_ds.course.similarity import MAX_TOKENS, graded_code, graded_names, similarity_notes
from solitaire_ds.text import safe_name

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_HELPERS",
    "compare",
    "copy_submission",
    "graded_names_of",
    "read_code",
    "reference_shingles",
    "skeletons",
]

#: The largest submission file the grader copies (a textbook answer is a few kB).
MAX_FILE_BYTES = 1 << 20
#: The most modules of a student's own (``structures/helpers.py``) copied from one folder.
MAX_HELPERS = 20
#: Every exercise's file name: a file of that name is never a helper module.
_EXERCISE_NAMES = frozenset(Path(ex.relpath).name for ex in EXERCISES)


@cache
def _package_source(relpath: str) -> str:
    return (REPO_ROOT / "solitaire_ds" / relpath).read_text(encoding="utf-8")


@cache
def graded_names_of(ex: Exercise) -> tuple[str, ...]:
    """Return the classes and functions a submission must write itself for ``ex``."""
    return tuple(graded_names(_package_source(ex.relpath), f"solitaire_ds/{ex.relpath}"))


def copy_submission(
    folder: Path, exercises: Sequence[Exercise], into: Path
) -> tuple[Path, dict[int, str], list[str]]:
    """Copy each exercise's file of ``folder`` into ``into``; return it, why files were left out, and notes.

    Only regular files inside ``folder`` are copied (a link that leads out of it, to the
    reference or a classmate's work, is refused), at most :data:`MAX_FILE_BYTES` each; the
    original folder is only read. Beside each exercise file, the other ``.py`` files of its
    folder that are not named like an exercise file (a student's ``structures/helpers.py``)
    are copied too, at most :data:`MAX_HELPERS` per folder: the exercise's worker imports
    them. A helper left out (a link, too large, unreadable) is a note. The copy is what the
    workers see, read-only.
    """
    problems: dict[int, str] = {}
    notes: list[str] = []
    root = folder.resolve()
    into.mkdir(parents=True)
    for ex in exercises:
        source = folder / ex.relpath
        real = Path(os.path.realpath(source))
        try:
            if not source.is_file():
                problems[ex.number] = f"{ex.relpath} is missing"
            elif real != root / ex.relpath:  # a link somewhere on the way
                problems[ex.number] = f"{ex.relpath} is a link to another file; submit the file itself"
            elif real.stat().st_size > MAX_FILE_BYTES:
                problems[ex.number] = f"{ex.relpath} is larger than {MAX_FILE_BYTES >> 20} MB"
            else:
                target = into / ex.relpath
                target.parent.mkdir(parents=True, exist_ok=True)
                with open(real, "rb") as original:
                    target.write_bytes(original.read(MAX_FILE_BYTES + 1)[:MAX_FILE_BYTES])
        except OSError as exc:
            problems[ex.number] = f"{ex.relpath} could not be read ({exc.strerror or type(exc).__name__})"
    for place in sorted({Path(ex.relpath).parent for ex in exercises if (into / ex.relpath).is_file()}):
        notes.extend(_copy_helpers(root / place, into / place, place))
    for path in [into, *into.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    return into, problems, notes


def _copy_helpers(source: Path, target: Path, place: Path) -> list[str]:
    """Copy the student's own modules of folder ``source`` into ``target``; return what was left out."""
    notes: list[str] = []
    try:
        with os.scandir(source) as listing:
            names = sorted(e.name for e in listing if e.name.endswith(".py") and e.name not in _EXERCISE_NAMES)
    except OSError:
        return []
    for count, name in enumerate(names):
        shown = safe_name((place / name).as_posix())
        if count == MAX_HELPERS:
            notes.append(f"only {MAX_HELPERS} modules of {safe_name(place.as_posix() or '.')} were copied "
                         f"beside the exercise files: {shown} and {len(names) - count - 1} more were not")
            break
        try:
            fd = os.open(source / name, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
        except OSError as exc:
            why = "it is a link" if os.path.islink(source / name) else (exc.strerror or type(exc).__name__)
            notes.append(f"{shown} was not copied beside the exercise files: {why}")
            continue
        with os.fdopen(fd, "rb") as original:
            if not stat.S_ISREG(os.fstat(original.fileno()).st_mode):
                notes.append(f"{shown} was not copied beside the exercise files: it is not a regular file")
                continue
            data = original.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            notes.append(f"{shown} was not copied beside the exercise files: larger than {MAX_FILE_BYTES >> 20} MB")
            continue
        (target / name).write_bytes(data)
    return notes


def read_code(copy: Path, exercises: Sequence[Exercise], notes: list[str]) -> dict[int, frozenset[int]]:
    """Read each exercise's copied file for the notes; return the shingles of its own graded code.

    Its own: less the skeleton's (:func:`~solitaire_ds.course.similarity.graded_code`). How
    a structure keeps its items goes to ``notes``. Never raises: whatever a file does to
    the reading (it is at most :data:`MAX_FILE_BYTES`, and at most
    :data:`~solitaire_ds.course.similarity.MAX_TOKENS` of its tokens are read) is a note on
    this submission, and its score does not change.
    """
    own: dict[int, frozenset[int]] = {}
    for ex in exercises:
        try:
            text = (copy / ex.relpath).read_text(encoding="utf-8", errors="replace")
            code = graded_code(text, graded_names_of(ex))
            if code is not None:
                own[ex.number] = code.shingles() - _skeleton_shingles(ex)
                if code.cut:
                    notes.append(f"exercise {ex.number}: only the first {MAX_TOKENS:,} tokens of {ex.relpath} "
                                 "were compared with the reference's and the classmates'")
            notes.extend(f"exercise {ex.number}: {note}" for note in list_notes(text, ex.relpath))
        except Exception as exc:  # a file the reading cannot take is a note, never the end of the run
            notes.append(f"exercise {ex.number}: {ex.relpath} could not be read for the notes "
                         f"({type(exc).__name__}); its score does not depend on them")
    return own


def skeletons(copy: Path, exercises: Sequence[Exercise]) -> set[int]:
    """Return the exercises of ``copy`` whose file is the skeleton's, untouched (comments and layout aside).

    The whole file is compared (its syntax tree), not only the graded code: a skeleton with
    code of any kind added (an attack appended to it, say) is not "not started", and its
    report shows what that code did. Never raises: a file the reading cannot take counts as
    started (it is graded, and its tests say what they find).
    """
    import ast

    found = set()
    for ex in exercises:
        try:
            text = (copy / ex.relpath).read_text(encoding="utf-8")
            if ast.dump(ast.parse(text)) == _skeleton_tree(ex):
                found.add(ex.number)
        except Exception:  # counted as started: the grade never depends on this reading
            continue
    return found


@cache
def _skeleton_tree(ex: Exercise) -> str:
    import ast

    return ast.dump(ast.parse(exercise_view(_package_source(ex.relpath), f"solitaire_ds/{ex.relpath}")))


@cache
def _skeleton_shingles(ex: Exercise) -> frozenset[int]:
    """The shingles of the skeleton's graded code: what every student is given."""
    code = graded_code(exercise_view(_package_source(ex.relpath), f"solitaire_ds/{ex.relpath}"), graded_names_of(ex))
    return code.shingles() if code is not None else frozenset()


@cache
def reference_shingles(ex: Exercise) -> frozenset[int]:
    """The shingles of the reference's own graded code (less the skeleton's)."""
    code = graded_code(solution_view(_package_source(ex.relpath), f"solitaire_ds/{ex.relpath}"), graded_names_of(ex))
    return (code.shingles() if code is not None else frozenset()) - _skeleton_shingles(ex)


def compare(own: Mapping[str, Mapping[int, frozenset[int]]], exercises: Sequence[Exercise]) -> dict[str, list[str]]:
    """Return each submission's similarity notes (:func:`~solitaire_ds.course.similarity.similarity_notes`).

    ``own`` maps each submission to its own shingles by exercise (:func:`read_code`). An
    exercise whose code the contract dictates (``Exercise.dictated``) is left out: every
    correct answer is alike. A failure of the comparison is one note on every submission:
    the grades stand.
    """
    skipped = {ex.number for ex in exercises if ex.dictated}
    own = {name: {n: s for n, s in mine.items() if n not in skipped} for name, mine in own.items()}
    try:
        return similarity_notes(own, {ex.number: reference_shingles(ex) for ex in exercises if not ex.dictated})
    except Exception as exc:  # the comparison is a note: a failure of it never costs the class its grades
        return {key: [f"the comparison with the reference and the classmates failed ({type(exc).__name__}): "
                      "no similarity notes in this run"] for key in own}
