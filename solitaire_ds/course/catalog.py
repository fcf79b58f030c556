"""The course: its exercises in order, and where an implementation under test lives.

An *implementation* ("impl") is where the code for the exercises is loaded from:

* ``"solitaire_ds"`` -- the installed package itself (the reference code);
* ``"solutions"`` or ``"exercises"`` -- the generated folders: ``./exercises`` when the
  current directory has one (a student's working copy); for ``"exercises"``, the current
  directory itself when it holds exercise files (``solitaire-ds exercises init DIR``, then
  work in DIR); else the repository root's;
* any other string -- a path to a folder laid out like ``exercises/`` (a student's copy).

A folder holds one file per exercise module, at the module's path inside the package:
``structures/array_stack.py``, ``games/perpetual_motion.py`` and so on. Those files
import everything else from ``solitaire_ds`` with absolute imports, so a folder only
ever replaces the modules a student writes.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from solitaire_ds.structures.toolkit import DEFAULT_TOOLKIT, Toolkit

__all__ = [
    "EXERCISES",
    "REPO_ROOT",
    "Exercise",
    "ImplError",
    "exercise",
    "load_module",
    "load_toolkit",
    "resolve_impl",
]

#: The folder that holds the ``solitaire_ds`` package: the repository root in a checkout
#: (where ``exercises/`` lives), ``site-packages`` in an installed wheel.
REPO_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Exercise:
    """One numbered exercise: the module a student completes and what it is worth."""

    number: int
    slug: str
    title: str
    module: str  # dotted path inside solitaire_ds, e.g. "structures.array_stack"
    points: int
    #: Whether the contract dictates the code (a few lines every correct answer writes the
    #: same way): then its code is never compared, with the reference or with classmates,
    #: since likeness says nothing about who wrote it.
    dictated: bool = False

    @property
    def relpath(self) -> str:
        """The file inside an implementation folder, e.g. ``structures/array_stack.py``."""
        return self.module.replace(".", "/") + ".py"

    @property
    def test_file(self) -> str:
        """The contract test file for this exercise, relative to :data:`REPO_ROOT`.

        The contract tests ship inside the package, so they are there in a wheel too.
        """
        return f"solitaire_ds/course/contracts/test_ex{self.number:02d}_{self.slug}.py"


#: The course, in order.
EXERCISES: tuple[Exercise, ...] = (
    Exercise(1, "array_stack", "ArrayStack: a stack in a resizing array", "structures.array_stack", 10),
    Exercise(2, "linked_stack", "LinkedStack: a stack of linked nodes", "structures.linked_stack", 10),
    Exercise(3, "array_queue", "ArrayQueue: a circular buffer", "structures.array_queue", 10),
    Exercise(4, "linked_queue", "LinkedQueue: head and tail nodes", "structures.linked_queue", 10),
    Exercise(5, "array_deque", "ArrayDeque: a circular buffer with two ends", "structures.array_deque", 10),
    Exercise(6, "linked_deque", "LinkedDeque: doubly linked, with a sentinel", "structures.linked_deque", 10),
    Exercise(7, "deck", "Deck: the Fisher-Yates shuffle", "shuffle", 10, dictated=True),
    Exercise(8, "perpetual_motion", "Perpetual Motion: deal, match, gather, cycle", "games.perpetual_motion", 10),
    Exercise(9, "idiots_delight", "Idiot's Delight: the legal moves", "games.idiots_delight", 10),
    Exercise(10, "aces_up", "Aces Up: discards and moves", "games.aces_up", 10),
    Exercise(11, "klondike", "Klondike: the priority order of moves", "games.klondike", 10),
    Exercise(12, "solver", "The solver: depth-first search on a Stack", "solver", 10),
)


#: The exercise files' names without ``.py``: never found by a plain ``import``.
_EXERCISE_STEMS = frozenset(ex.module.rpartition(".")[2] for ex in EXERCISES)
def exercise(number: int) -> Exercise:
    """Return exercise ``number``; raise KeyError naming the valid numbers.

    >>> exercise(1).slug
    'array_stack'
    """
    for ex in EXERCISES:
        if ex.number == number:
            return ex
    raise KeyError(f"no exercise {number}; the exercises are 1 to {len(EXERCISES)}")


class ImplError(Exception):
    """An implementation folder or module that cannot be used (message says why)."""


def resolve_impl(impl: str) -> str | Path:
    """Return ``"solitaire_ds"`` or the folder an implementation name stands for.

    >>> resolve_impl("solitaire_ds")
    'solitaire_ds'
    """
    if impl == "solitaire_ds":
        return impl
    if impl in ("solutions", "exercises"):
        here = Path.cwd() / impl
        if here.is_dir():
            folder = here
        elif impl == "exercises" and any((Path.cwd() / ex.relpath).is_file() for ex in EXERCISES):
            folder = Path.cwd()  # run inside the folder `solitaire-ds exercises init` wrote
        else:
            folder = REPO_ROOT / impl
    else:
        folder = Path(impl).expanduser()
    if not folder.is_dir():
        if impl == "solutions":  # never shown to students: the wheel deliberately has no solutions
            raise ImplError("implementation folder not found: 'solutions' (the generated solutions are "
                            "the instructors', in a checkout of the project; an installed package has none)")
        raise ImplError(f"implementation folder not found: {impl!r}")
    return folder.resolve()


def load_module(impl: str, module: str) -> ModuleType:
    """Import ``solitaire_ds.<module>`` as implemented by ``impl``.

    For a folder, the file ``<folder>/<module path>.py`` is imported under a private name
    (``_impl_<digest of the folder>.<module>``, in packages that stand for the folder and
    its subfolders), so it never replaces the package's own module. A module of the
    student's own beside it (``structures/helpers.py``) is imported either way a student
    writes it: ``from .helpers import grow`` (the folder is a package) or ``import helpers``
    (found beside the exercise files loaded so far, after every module Python already has,
    and never another exercise's file). In a test, ``impl`` is the
    :class:`~solitaire_ds.course.grader.proxy.Submission` the ``impl`` fixture gives:
    the module then comes back as a proxy that asks the code's worker for everything
    (a grading run never imports a student's file where the tests run).
    """
    # a Submission (never in a worker, which has no proxy module): ask it for the proxy
    proxy = sys.modules.get("solitaire_ds.course.grader.proxy")
    if proxy is not None and isinstance(impl, proxy.Submission):
        return impl.module(module)  # type: ignore[no-any-return]
    where = resolve_impl(impl)
    if isinstance(where, str):
        return importlib.import_module(f"solitaire_ds.{module}")
    path = where / (module.replace(".", "/") + ".py")
    if not path.is_file():
        raise ImplError(f"{path} not found")
    root = f"_impl_{hashlib.sha1(str(where).encode()).hexdigest()[:10]}"
    name = f"{root}.{module}"
    if name in sys.modules:
        return sys.modules[name]
    parts = module.split(".")
    for depth in range(len(parts)):  # the folder, and each subfolder on the way, as a package
        _package(".".join([root, *parts[:depth]]), where.joinpath(*parts[:depth]))
    _BESIDE.add(path.parent)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImplError(f"cannot import {path}")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        del sys.modules[name]
        raise
    return mod


def _package(name: str, folder: Path) -> None:
    """Make ``name`` a package (unless it is one) whose modules are the ``.py`` files in ``folder``."""
    if name in sys.modules:
        return
    spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
    spec.submodule_search_locations = [str(folder)]
    sys.modules[name] = importlib.util.module_from_spec(spec)
    parent, _, child = name.rpartition(".")
    if parent in sys.modules:
        setattr(sys.modules[parent], child, sys.modules[name])


class _Beside(importlib.abc.MetaPathFinder):
    """Finds ``import helpers`` as ``helpers.py`` beside a student's exercise file.

    It comes after Python's own finders (a student's ``random.py`` never replaces the
    standard library's), and never finds another exercise's file (``import array_queue``
    from ``linked_queue.py``: a graded class is written in its own file).
    """

    def __init__(self) -> None:
        self.folders: list[Path] = []

    def add(self, folder: Path) -> None:
        """Look in ``folder`` too, before the folders added earlier."""
        if folder not in self.folders:
            self.folders.insert(0, folder)
        if self not in sys.meta_path:
            sys.meta_path.append(self)

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if path is not None or "." in fullname or fullname in _EXERCISE_STEMS or not fullname.isidentifier():
            return None
        for folder in self.folders:
            candidate = folder / f"{fullname}.py"
            if candidate.is_file():
                return importlib.util.spec_from_file_location(fullname, candidate)
        return None


#: How a student's ``import helpers`` finds their module beside an exercise file.
_BESIDE = _Beside()


def load_toolkit(impl: str, linked: bool = False) -> Toolkit:
    """Return the toolkit of an implementation: its ArrayStack, ArrayQueue and ArrayDeque
    (with ``linked``: its LinkedStack, LinkedQueue and LinkedDeque, exercises 2, 4 and 6).

    ``impl`` is ``"solitaire_ds"``, ``"solutions"``, ``"exercises"`` or a folder laid out
    like ``exercises/``. A structure whose exercise the student has not started (its file
    missing, or still the skeleton's code, names and formatting aside) comes from the
    package, so a student with only exercise 1 done plays on their own ArrayStack;
    :attr:`Toolkit.source` says which structures are theirs. A student's file that fails
    to import raises whatever it raised.

    Runtime complexity: O(size of the three files) once the modules are imported.

    >>> load_toolkit("solitaire_ds") == DEFAULT_TOOLKIT
    True
    >>> load_toolkit("solitaire_ds", linked=True).deque.__name__
    'LinkedDeque'
    """
    import solitaire_ds.structures as package

    kinds = (("stack", "Stack", 1), ("queue", "Queue", 3), ("deque", "Deque", 5))
    prefix, step = ("Linked", 1) if linked else ("Array", 0)
    if impl == "solitaire_ds":
        if not linked:
            return DEFAULT_TOOLKIT
        return Toolkit(**{field: getattr(package, prefix + adt) for field, adt, _ in kinds},
                       source="the package's linked classes")
    folder = resolve_impl(impl)
    assert isinstance(folder, Path)
    chosen: dict[str, Any] = {}
    theirs, ours = [], []
    for field_name, adt, first in kinds:
        name, number = prefix + adt, first + step
        ex = exercise(number)
        if started(folder, ex):
            chosen[field_name] = getattr(load_module(impl, ex.module), name)
            theirs.append(f"{name} ({ex.relpath})")
        else:
            chosen[field_name] = getattr(package, name)
            ours.append((name, number))
    parts = [f"your {', '.join(theirs)}"] if theirs else []
    if ours:
        names = ", ".join(name for name, _ in ours)
        numbers = ", ".join(str(n) for _, n in ours)
        parts.append(f"the package's {names} (exercise{'s' if len(ours) > 1 else ''} {numbers} not started)")
    return Toolkit(**chosen, source=f"{folder}: " + "; ".join(parts))


def started(folder: Path, ex: Exercise) -> bool:
    """Return whether ``folder`` holds ``ex``'s file with code other than the skeleton's.

    Names and formatting aside (the fingerprint of the similarity notes): a student who
    only renamed a variable or reformatted has not started. A missing file has not
    started; a file that does not parse has.
    """
    from solitaire_ds.course.markers import exercise_view
    from solitaire_ds.course.similarity import fingerprint, graded_names

    path = folder / ex.relpath
    if not path.is_file():
        return False
    reference = (Path(__file__).resolve().parents[1] / ex.relpath).read_text(encoding="utf-8")
    names = graded_names(reference, ex.relpath)
    mine = fingerprint(path.read_text(encoding="utf-8", errors="replace"), names)
    return mine is None or mine != fingerprint(exercise_view(reference, ex.relpath), names)
