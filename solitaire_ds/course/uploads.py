"""The search of a student's upload: each exercise's file found by its name, wherever it is.

Invariant: the search reads at most :data:`MAX_ENTRIES` entries, :data:`MAX_DEPTH` folders
deep, follows no link, and copies only regular files of at most :data:`MAX_FILE_BYTES`, into a
temporary folder laid out like ``exercises/`` that is removed whatever happens
(:func:`found_upload`). Of several files that share an exercise's name, an edited one wins over
an untouched skeleton, then the one at the exercise's own path, then the one nearest the top,
and the result says which was graded. The Gradescope run (:mod:`~solitaire_ds.course.gradescope`)
grades what it finds.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from solitaire_ds.course.catalog import EXERCISES, REPO_ROOT, Exercise
from solitaire_ds.course.markers import exercise_view
from solitaire_ds.course.similarity import fingerprint, graded_names
from solitaire_ds.text import safe_name

__all__ = ["MAX_COPIES", "MAX_DEPTH", "MAX_ENTRIES", "MAX_FILE_BYTES", "MAX_HELPERS", "Upload", "found_upload"]

#: The largest exercise file the upload search copies (a textbook answer is a few kB).
MAX_FILE_BYTES = 1 << 20
#: How many folders deep the upload search looks (``exercises/structures/`` is 2).
MAX_DEPTH = 12
#: How many files and folders of an upload the search reads at most.
MAX_ENTRIES = 10_000
#: How many files of one exercise's name the search reads to tell an edited one from a skeleton.
MAX_COPIES = 20
#: The most modules of a student's own (``helpers.py``) copied from beside one exercise file.
MAX_HELPERS = 20
#: Folders the search never enters: tools' leftovers, not a student's work.
_LEFTOVERS = ("__MACOSX", "__pycache__", "node_modules")
#: Every exercise's file name: the one thing the search goes by.
_EXERCISE_NAMES = frozenset(Path(ex.relpath).name for ex in EXERCISES)


@dataclass(frozen=True)
class Upload:
    """What the search found in a student's upload, copied into a temporary folder."""

    #: A folder laid out like ``exercises/``, holding a copy of each exercise file found.
    folder: Path
    #: Why each chosen exercise has no file to grade (for its one row in results.json).
    unrun: dict[int, str]
    #: What students should know about their upload as a whole (files found twice, say).
    said: tuple[str, ...]


@dataclass(frozen=True)
class _Found:
    rel: str  # where it is in the upload, with / between folders
    path: Path
    depth: int
    size: int


def _scan(top: Path) -> tuple[list[_Found], list[str]]:
    """Return the ``.py`` files under ``top`` that are regular files, and what was left unsearched.

    The search reads at most :data:`MAX_ENTRIES` entries, goes at most :data:`MAX_DEPTH`
    folders deep, and follows no link: a link, to a file or a folder, is never what the
    student wrote (it may point at the installed package). It keeps its own stack of folders,
    so a deep upload is never a RecursionError. Nothing is opened, only listed.
    """
    found: list[_Found] = []
    links: list[str] = []
    deep: list[str] = []
    said: list[str] = []
    stack: list[tuple[Path, str, int]] = [(top, "", 0)]
    read = 0
    while stack:
        folder, prefix, depth = stack.pop()
        entries = []
        try:
            with os.scandir(folder) as listing:
                for entry in listing:
                    read += 1
                    if read > MAX_ENTRIES:
                        break
                    entries.append(entry)
        except OSError:
            said.append(f"the folder {safe_name(prefix or '.')} could not be read")
            continue
        for entry in sorted(entries, key=lambda e: e.name):
            rel = prefix + entry.name
            try:
                if entry.is_symlink():
                    links.append(rel)
                elif entry.is_dir(follow_symlinks=False):
                    if entry.name.startswith(".") or entry.name in _LEFTOVERS:
                        continue
                    if depth + 1 > MAX_DEPTH:
                        deep.append(rel)
                    else:
                        stack.append((Path(entry.path), rel + "/", depth + 1))
                elif entry.name.endswith(".py") and entry.is_file(follow_symlinks=False):
                    found.append(_Found(rel, Path(entry.path), depth, entry.stat(follow_symlinks=False).st_size))
            except OSError:
                said.append(f"{safe_name(rel)} could not be read")
        if read > MAX_ENTRIES:
            said.append(f"the upload holds more than {MAX_ENTRIES:,} files and folders; only the first were searched")
            break
    if links:
        said.append(f"links are not followed, so these were left out: {_listed(links)}")
    if deep:
        said.append(f"folders more than {MAX_DEPTH} deep were not searched: {_listed(deep)}")
    return found, said


def _listed(names: Sequence[str], most: int = 8) -> str:
    shown = ", ".join(safe_name(name) for name in names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def _at(rel: str, path: str) -> bool:
    """Return whether the upload's file ``rel`` sits at the exercise path ``path`` of some folder."""
    return rel == path or rel.endswith("/" + path)


def _too_large(rel: str, size: int) -> str:
    """Return why the file ``rel`` of ``size`` bytes is not graded ('' when it is small enough)."""
    if size <= MAX_FILE_BYTES:
        return ""
    most = MAX_FILE_BYTES >> 20
    return (f"{safe_name(rel)} is {size:,} bytes, more than the {most} MB an exercise file may have, so it was not "
            "graded")


def _copy(found: _Found, target: Path) -> str:
    """Copy the file ``found`` to ``target``; return why not ('' when copied).

    The file is opened without following a link, checked to be a regular file, and read to at
    most one byte past :data:`MAX_FILE_BYTES` (it may have changed since it was listed).
    """
    try:
        fd = os.open(found.path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        return f"{safe_name(found.rel)} could not be read ({exc.strerror})"
    with os.fdopen(fd, "rb") as original:
        info = os.fstat(original.fileno())
        if not stat.S_ISREG(info.st_mode):
            return f"{safe_name(found.rel)} is not a regular file"
        data = original.read(MAX_FILE_BYTES + 1)
    if max(info.st_size, len(data)) > MAX_FILE_BYTES:
        return _too_large(found.rel, max(info.st_size, len(data)))
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return ""


@contextlib.contextmanager
def found_upload(upload: Path, exercises: Sequence[Exercise]) -> Iterator[Upload]:
    """Find each exercise's file in ``upload`` by its name; yield a temporary copy laid out like ``exercises/``.

    The files may be anywhere: dragged in flat (``array_stack.py`` at the top), inside
    ``exercises/structures/``, in one folder of any name, or any mix. When several files
    share an exercise's name, an edited one wins over an untouched skeleton (a ``backup/``
    of the skeletons beside the real files: the skeleton's code, comments and layout
    aside), then the one at the exercise's own path (``structures/array_stack.py``), then
    the one nearest the top; the upload's notes say which was graded. The other ``.py``
    files beside the graded one that are not named like an exercise file (the student's
    ``helpers.py``) are copied beside it, at most :data:`MAX_HELPERS`. Only regular files
    are copied, at most :data:`MAX_FILE_BYTES` each (a larger one is refused before a byte
    is copied), and the copy is removed when the ``with`` block ends, whatever happens in it.

    Runtime complexity: O(entries read), at most :data:`MAX_ENTRIES`, plus reading at most
    :data:`MAX_COPIES` files of each exercise's name.
    """
    found, said = _scan(upload)
    by_name: dict[str, list[_Found]] = {}
    for f in found:
        by_name.setdefault(f.path.name, []).append(f)
    others = sorted(f.rel for f in found if f.path.name not in _EXERCISE_NAMES)
    unrun: dict[int, str] = {}
    with tempfile.TemporaryDirectory(prefix="solitaire-ds-upload-") as tmp:
        folder = Path(tmp) / "submission"
        folder.mkdir()
        helpers: dict[str, str] = {}  # where a helper was copied to: where it came from
        for ex in exercises:
            name = Path(ex.relpath).name
            candidates = sorted(by_name.get(name, []), key=lambda f: (not _at(f.rel, ex.relpath), f.depth, f.rel))
            if not candidates:
                instead = (f"The .py files it holds are: {_listed(others)}." if others
                           else "It holds no other .py file." if found else "It holds no .py file at all.")
                unrun[ex.number] = (f"No file named {name} was found in your upload, so exercise {ex.number} "
                                    f"was not graded. {instead} Upload your {name} (on its own, with the others, "
                                    "or inside a folder: it is found by its name).")
                continue
            skeletons = _skeletons(ex, candidates) if len(candidates) > 1 else set()
            candidates.sort(key=lambda f: f.rel in skeletons)  # stable: edited first, each in the order above
            chosen = candidates[0]
            why = _too_large(chosen.rel, chosen.size) or _copy(chosen, folder / ex.relpath)  # never opened when large
            if why:
                unrun[ex.number] = why
            else:
                said.extend(_copy_helpers(found, chosen, folder / Path(ex.relpath).parent, helpers))
            if len(candidates) > 1:
                left = ", ".join(safe_name(c.rel) + (" (an untouched skeleton)" if c.rel in skeletons else "")
                                 for c in candidates[1:9])
                more = f" and {len(candidates) - 9} more" if len(candidates) > 9 else ""
                what = " (an untouched skeleton: no copy was edited)" if chosen.rel in skeletons else ""
                said.append(f"{len(candidates)} files are named {name}: {safe_name(chosen.rel)} was graded{what}, "
                            f"not {left}{more}")
        yield Upload(folder, unrun, tuple(said))


def _skeletons(ex: Exercise, candidates: Sequence[_Found]) -> set[str]:
    """Return which of the first :data:`MAX_COPIES` ``candidates`` are exercise ``ex``'s skeleton,
    its code unchanged (comments, docstrings and layout aside)."""
    source = (REPO_ROOT / "solitaire_ds" / ex.relpath).read_text(encoding="utf-8")
    names = graded_names(source, ex.relpath)
    skeleton = fingerprint(exercise_view(source, ex.relpath), names)
    same: set[str] = set()
    for f in candidates[:MAX_COPIES]:
        if f.size > MAX_FILE_BYTES:
            continue
        try:
            fd = os.open(f.path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))  # as _copy does
            with os.fdopen(fd, "rb") as original:
                if not stat.S_ISREG(os.fstat(original.fileno()).st_mode):
                    continue
                text = original.read(MAX_FILE_BYTES).decode("utf-8", "replace")
            if fingerprint(text, names) == skeleton:
                same.add(f.rel)
        except Exception:  # a file that cannot be read is not a skeleton: the copy says why
            continue
    return same


def _copy_helpers(found: Sequence[_Found], chosen: _Found, into: Path, copied: dict[str, str]) -> list[str]:
    """Copy the student's own modules beside ``chosen`` into the folder ``into``; return what to say."""
    parent = chosen.rel.rpartition("/")[0]
    said: list[str] = []
    beside = [f for f in found if f.rel.rpartition("/")[0] == parent and f.path.name not in _EXERCISE_NAMES]
    for count, f in enumerate(beside):
        target = into / f.path.name
        key = target.as_posix()
        if count == MAX_HELPERS:
            said.append(f"only {MAX_HELPERS} modules beside {safe_name(chosen.rel)} were copied with it: "
                        f"{_listed([g.rel for g in beside[count:]])} were not")
            break
        if key in copied:
            if copied[key] != f.rel:
                said.append(f"{safe_name(f.rel)} was not copied beside {safe_name(chosen.rel)}: "
                            f"{safe_name(copied[key])} was, under the same name")
            continue
        big = f"{safe_name(f.rel)} is larger than {MAX_FILE_BYTES >> 20} MB, so it was not copied"
        why = big if f.size > MAX_FILE_BYTES else _copy(f, target)
        if why:
            said.append(why)
        else:
            copied[key] = f.rel
    return said
