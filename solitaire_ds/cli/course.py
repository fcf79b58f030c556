"""The course commands: ``exercises list|init|build`` and ``check`` (students), and what the
instructors' commands (:mod:`~solitaire_ds.cli.grading`) share with them: exercise numbers and
lists, the limits, the runner.

Invariant: every handler returns an exit status and reports misuse (an unknown exercise,
a missing folder) by raising :class:`~solitaire_ds.cli.args.UsageError`, which the command
line prints as one line.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from solitaire_ds.cli.args import UsageError, seconds
from solitaire_ds.course import EXERCISES, REPO_ROOT, Exercise, ImplError, exercise, generate, resolve_impl
from solitaire_ds.course.markers import MarkerError
from solitaire_ds.course.report import check_text
from solitaire_ds.course.results import Limits
from solitaire_ds.course.status import Status, checked, remember, statuses
from solitaire_ds.text import fit, shown, terminal_width, tilde

if TYPE_CHECKING:
    from types import ModuleType

__all__ = ["exercise_number", "exercise_numbers", "register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``exercises``, ``check`` and ``grade`` to the command line."""
    ex = subparsers.add_parser("exercises", help="list the course, or build exercises/ and solutions/")
    ex_sub = ex.add_subparsers(dest="exercises_command", metavar="ACTION")
    listing = ex_sub.add_parser(
        "list", help="show the exercises in order, and where you stand on each",
        description="Show the exercises in order and, run in your folder (or with --impl), where you "
        "stand on each: not started, passed, or failing. Exercises changed since their last check "
        "are checked again (run in your own folder, the results are kept in .solitaire-ds/ there).")
    listing.add_argument("--impl", metavar="PATH", default=None,
                         help="your exercise folder (default: exercises/ here, or this folder)")
    listing.add_argument("--no-run", action="store_true",
                         help="run no tests: exercises changed since their last check show 'not checked'")
    listing.set_defaults(handler=_list)
    init = ex_sub.add_parser(
        "init", help="write the exercise skeletons and a README into DIR (students; never the solutions)",
        description="Write the twelve exercise skeletons and a README into DIR, ready to fill in "
        "and check with 'solitaire-ds check'. Works from an installed wheel. Never writes the "
        "solutions, and never overwrites a file that is already there.")
    init.add_argument("dir", metavar="DIR", type=Path, help="the folder to create (or an empty one)")
    init.add_argument("--force", action="store_true",
                      help="write into a folder that is not empty (existing files are kept as they are)")
    init.set_defaults(handler=_init)
    build = ex_sub.add_parser("build", help="write exercises/ and solutions/ from the package (instructors)")
    build.add_argument("--check", action="store_true", help="only report differences (exit 1)")
    build.add_argument("--out", metavar="DIR", help="write under DIR instead of the checkout")
    build.set_defaults(handler=_build)
    ex.set_defaults(handler=_list)

    check = subparsers.add_parser("check", help="run an exercise's tests on your exercises/")
    check.add_argument("number", nargs="?", metavar="N", type=exercise_number,
                       help="the exercise (all when omitted)")
    check.add_argument("--impl", metavar="PATH", default=None,
                       help="folder to check (default: exercises/ here, or this folder when it holds the "
                       "exercise files; your results are then kept for 'exercises list')")
    check.add_argument("--all", action="store_true", dest="every",
                       help="show every failing test of each exercise (default: the first)")
    _limit_flags(check)
    check.set_defaults(handler=_check)



def _limit_flags(parser: argparse.ArgumentParser) -> None:
    defaults = Limits()
    for flag, default, what in (
        ("--test-timeout", defaults.test_seconds, "per test"),
        ("--exercise-timeout", defaults.exercise_seconds, "per exercise"),
        ("--submission-timeout", defaults.submission_seconds, "per submission, all its exercises"),
    ):
        parser.add_argument(flag, metavar="S", type=seconds, default=default,
                            help=f"seconds of CPU time allowed {what} (default {default:g}; the wall-clock "
                                 "limit is three times as long)")


# -- parsing helpers -----------------------------------------------------------------


def exercise_number(text: str) -> Exercise:
    """Parse an exercise number (``check N``, ``grade --exercise N``) into its exercise.

    Runtime complexity: O(len(text)).

    >>> exercise_number("3").slug
    'array_queue'
    >>> exercise_number("13")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: no exercise 13; the exercises are 1 to 12
    """
    try:
        return exercise(int(text) if text.isascii() else 0)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"exercise must be a number from 1 to {len(EXERCISES)}, not {shown(text)}"
        ) from None
    except KeyError as exc:
        raise argparse.ArgumentTypeError(str(exc.args[0])) from None


def _grading_extra() -> str:
    """How to install the grading extra here: in a clone of the project, or from the wheel a student was given."""
    if (REPO_ROOT / "pyproject.toml").is_file():
        return "pip install -e '.[grading]'"
    import solitaire_ds

    return f"pip install 'solitaire_ds-{solitaire_ds.__version__}-py3-none-any.whl[grading]', the wheel you were given"


def _runner() -> ModuleType:
    """Return the grading runner, which needs pytest (the dev extra): say so when it is missing."""
    import importlib.util

    # the judge imports them in a process of its own: found here is enough (no import to pay for)
    for name in ("pytest", "hypothesis"):
        if sys.modules.get(name, False) is None or importlib.util.find_spec(name) is None:
            raise UsageError(f"checking and grading run the tests, which need {name}: install the grading extra "
                             f"({_grading_extra()})")
    from solitaire_ds.course.grader import runner

    return runner


def _limits(args: argparse.Namespace) -> Limits:
    # each wall-clock limit stays at least three times its CPU limit (see Limits)
    defaults = Limits()
    return Limits(
        test_seconds=args.test_timeout,
        exercise_seconds=args.exercise_timeout,
        submission_seconds=args.submission_timeout,
        call_wall_seconds=max(defaults.call_wall_seconds, 3 * args.test_timeout),
        exercise_wall_seconds=max(defaults.exercise_wall_seconds, 3 * args.exercise_timeout),
        submission_wall_seconds=max(defaults.submission_wall_seconds, 3 * args.submission_timeout),
    )


def _selected(wanted: Sequence[Exercise] | None) -> list[Exercise]:
    """Return the chosen exercises (all available ones when none is chosen)."""
    runner = _runner()
    try:
        if not wanted:
            found: list[Exercise] = runner.available_exercises()
            if not found:
                raise UsageError("no exercise has contract tests yet (solitaire_ds/course/contracts/ is empty)")
            return found
        chosen = sorted({ex.number for ex in wanted})
        found = runner.available_exercises(chosen)
    except runner.GradingError as exc:
        raise UsageError(str(exc)) from None
    have = {ex.number for ex in found}
    for n in chosen:
        if n not in have:
            raise UsageError(
                f"exercise {n} has no contract tests yet ({exercise(n).test_file} is missing)"
            )
    return found


# -- handlers ------------------------------------------------------------------------


def exercise_table(rows: list[tuple[Exercise, str]], width: int) -> list[str]:
    """The exercises as a table that fits ``width`` columns: one line each where the
    terminal is wide enough, else the file on a second line under the title.

    >>> from solitaire_ds.course import exercise
    >>> print("\\n".join(exercise_table([(exercise(1), "passed")], 80)))
       #  exercise / file                          points  status
       1  ArrayStack: a stack in a resizing array      10  passed
          structures/array_stack.py
    """
    status = max((len(s) for _, s in rows), default=0)
    title = max(len(ex.title) for ex, _ in rows)
    file = max(len(ex.relpath) for ex, _ in rows)
    tail = f"  {'points':>6}" + (f"  {'status':<{status}}" if status else "")
    if 6 + title + 2 + file + len(tail) <= width:
        lines = [f"  {'#':>2}  {'exercise':<{title}}  {'file':<{file}}{tail}".rstrip()]
        for ex, shown in rows:
            end = f"  {ex.points:>6}" + (f"  {shown}" if status else "")
            lines.append(f"  {ex.number:>2}  {ex.title:<{title}}  {ex.relpath:<{file}}{end}".rstrip())
        return lines
    title = max(title, len("exercise / file"))
    lines = [f"  {'#':>2}  {'exercise / file':<{title}}{tail}".rstrip()]
    for ex, shown in rows:
        end = f"  {ex.points:>6}" + (f"  {shown}" if status else "")
        lines += [f"  {ex.number:>2}  {ex.title:<{title}}{end}".rstrip(), f"      {ex.relpath}"]
    return lines


def _list(args: argparse.Namespace) -> int:
    found = _progress(args)
    width = terminal_width()
    if found is None:
        print("\n".join(exercise_table([(ex, "") for ex in EXERCISES], width)))
        print(fit("\nNo exercise files here: 'solitaire-ds exercises init DIR' writes them, then run this in "
                  "DIR.", width))
        return 0
    folder, states = found
    print(fit(f"Your exercises in {tilde(str(folder))}:", width))
    print("\n".join(exercise_table([(s.exercise, s.shown) for s in states], width)))
    done = sum(s.state == "passed" for s in states)
    print(fit(f"\n{done} of {len(states)} passed. Run 'solitaire-ds check N' to see exercise N's failing tests.",
              width))
    return 0


def _own_folder(args: argparse.Namespace, folder: str | Path) -> bool:
    """Return whether ``folder`` is the student's own: found where they run the command, no --impl.

    Only there does ``check`` keep its results; never in a folder named with ``--impl`` (an
    instructor's copy of a student's work) nor in the checkout's ``exercises/`` reached from
    elsewhere.
    """
    return args.impl is None and isinstance(folder, Path) and folder.is_relative_to(Path.cwd().resolve())


def _progress(args: argparse.Namespace) -> tuple[Path, list[Status]] | None:
    """Return the student's folder and each exercise's status (checking changed ones), or None."""
    try:
        folder = resolve_impl(args.impl or "exercises")
    except ImplError:
        if args.impl:
            raise UsageError(f"implementation folder not found: {args.impl!r}") from None
        return None
    if not isinstance(folder, Path) or not any((folder / ex.relpath).is_file() for ex in EXERCISES):
        if args.impl:
            raise UsageError(f"{args.impl!r} holds none of the exercise files")
        return None
    runner = _runner()
    available = {ex.number for ex in runner.available_exercises()}
    states = statuses(folder, EXERCISES)
    stale = [s.exercise for s in states if s.state == "not checked" and s.exercise.number in available]
    if stale and not args.no_run:
        print(f"Checking {len(stale)} exercise(s) changed since their last check...", flush=True)
        try:
            result = runner.grade_submission(folder, stale, Limits())
        except runner.GradingError as exc:
            raise UsageError(str(exc)) from None
        if _own_folder(args, folder):  # keep the results for next time
            remember(folder, result)
        fresh = checked(result)
        states = [fresh.get(s.exercise.number, s) for s in states]
    return folder, states


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def exercise_numbers(text: str) -> list[int]:
    """Parse a list of exercises: numbers and ranges, like ``1-6`` or ``1,3,8-9``.

    Runtime complexity: O(len(text)).

    >>> exercise_numbers("1-3,7")
    [1, 2, 3, 7]
    """
    numbers: set[int] = set()
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        first = exercise_number(low).number
        last = exercise_number(high).number if high else first
        if last < first:
            raise argparse.ArgumentTypeError(f"{shown(part)} runs backwards")
        numbers.update(range(first, last + 1))
    return sorted(numbers)


def _init(args: argparse.Namespace) -> int:
    folder: Path = args.dir
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} is a file, not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not args.force:
        raise UsageError(f"{folder} is not empty; give an empty or new folder, or --force to add "
                         "the missing files (no file there is ever overwritten)")
    try:
        files = {rel.removeprefix("exercises/"): text for rel, text in generate.expected_files().items()
                 if rel.startswith("exercises/")}
    except MarkerError as exc:
        raise UsageError(str(exc)) from None
    written, kept = [], []
    try:
        for rel, text in files.items():
            target = folder / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                with open(target, "x", encoding="utf-8") as out:  # "x": never over a student's file
                    out.write(text)
                written.append(rel)
            except FileExistsError:
                kept.append(rel)
    except OSError as exc:
        raise UsageError(f"cannot write under {str(folder)!r}: {exc.strerror or exc}") from None
    print(f"wrote {len(written)} files into {folder}" + (f"; kept {len(kept)} already there" if kept else ""))
    print(f"Next: cd {folder} && solitaire-ds check 1   (see README.md there)")
    return 0


def _build(args: argparse.Namespace) -> int:
    root = Path(args.out) if args.out else REPO_ROOT
    if not args.out and not (REPO_ROOT / "pyproject.toml").is_file():
        raise UsageError(f"{REPO_ROOT} is not a solitaire-ds checkout; give --out DIR")
    try:
        expected = generate.expected_files()
    except MarkerError as exc:
        raise UsageError(str(exc)) from None
    if args.check:
        diffs = generate.differences(root, expected)
        if diffs:
            print(f"exercises/ and solutions/ are out of date ({len(diffs)} files):")
            for line in diffs:
                print(f"  {line}")
            print("run 'solitaire-ds exercises build' to update them")
            return 1
        print(f"exercises/ and solutions/ are up to date ({len(expected)} files)")
        return 0
    try:
        changed = generate.build(root, expected)
    except OSError as exc:
        raise UsageError(f"cannot write under {str(root)!r}: {exc.strerror or exc}") from None
    for rel in changed:
        print(f"wrote {rel}")
    print(f"{len(changed)} files changed, {len(expected)} generated under {root}")
    return 0


def _folders_below(here: Path) -> list[Path]:
    """Return the folders just inside ``here`` that hold exercise files (``my-exercises``, say)."""
    try:
        children = sorted(p for p in here.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError:
        return []
    return [p for p in children[:1000] if any((p / ex.relpath).is_file() for ex in EXERCISES)]


def _tutorials() -> str:
    """Where the tutorials are: the installed course file's ``site``, else `solitaire-ds docs` or the instructor."""
    from solitaire_ds.course.config import CourseError, load_course
    from solitaire_ds.course.report import tutorials_at

    try:
        site = load_course(None).site
    except CourseError:  # the instructor's mistake: `grade` says it (it reads the same file); not here
        site = None
    return tutorials_at(site, (REPO_ROOT / "mkdocs.yml").is_file())


def _check(args: argparse.Namespace) -> int:
    chosen = _selected([args.number] if args.number is not None else None)
    command = "solitaire-ds check" + (f" {args.number.number}" if args.number is not None else "")
    here = Path.cwd()
    try:
        folder = resolve_impl(args.impl or "exercises")
    except ImplError as exc:
        below = _folders_below(here) if args.impl is None else []
        if below:
            raise UsageError(
                f"no exercise files here; {below[0].name}/ holds yours: cd {shlex.quote(below[0].name)} "
                f"&& {command}" + (f" (or one of {', '.join(p.name for p in below[1:4])})" if len(below) > 1 else "")
            ) from None
        raise UsageError(
            f"{exc}; run this where your exercises are, or give --impl PATH "
            "(no exercises yet? solitaire-ds exercises init DIR writes them)"
        ) from None
    if args.impl is None and isinstance(folder, Path) and not folder.is_relative_to(here.resolve()):
        below = _folders_below(here)  # the checkout's exercises/ reached from elsewhere: not the student's
        if below:
            raise UsageError(f"no exercise files here; {below[0].name}/ holds yours: "
                             f"cd {shlex.quote(below[0].name)} && {command}")
    limits = _limits(args)
    print(fit(f"Checking {tilde(str(folder))} on {len(chosen)} exercise(s)...", terminal_width()), flush=True)
    runner = _runner()
    try:
        result = runner.grade_submission(folder, chosen, limits)
    except runner.GradingError as exc:
        raise UsageError(str(exc)) from None
    if isinstance(folder, Path) and _own_folder(args, folder):
        remember(folder, result)
    print(check_text(result, every=args.every, width=terminal_width(), tutorials=_tutorials()))
    return 0 if all(r.status == "pass" for r in result.exercises) else 1
