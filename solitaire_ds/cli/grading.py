"""The instructors' commands: ``grade`` (a class, behind a wall) and ``autograder gradescope``.

Invariant: every handler returns an exit status and reports misuse (a missing folder,
``--jobs 0``, ``--json`` with several submissions, a secret that is not one) by raising
:class:`~solitaire_ds.cli.args.UsageError`, which the command line prints as one line. A
``grade`` that finds no wall to grade behind refuses in one line before it makes anything
(an output folder, the grading secret); the gradebook, results and feedback it writes are
readable by their owner alone. A ``--csv`` that is not a gradebook of the layout asked for,
or a ``--roster`` without a row for a folder, is refused before anything is graded: an
existing gradebook is only ever merged into (:mod:`~solitaire_ds.course.gradebook`).
"""

from __future__ import annotations

import argparse
import functools
import json
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from solitaire_ds.cli.args import (
    UsageError,
    check_output_folder,
    check_output_path,
    max_workers,
    process_count,
    terminate,
    write_output,
)
from solitaire_ds.cli.course import (
    _limit_flags,
    _limits,
    _runner,
    _selected,
    _usage,
    exercise_number,
    exercise_numbers,
)
from solitaire_ds.course import EXERCISES, exercise
from solitaire_ds.course.config import Course, CourseError, load_course
from solitaire_ds.course.gradebook import LMS, GradebookError, Student, check_gradebook, gradebook_text, read_roster
from solitaire_ds.course.report import feedback_markdown, gradescope_json, score_table
from solitaire_ds.course.results import SubmissionResult
from solitaire_ds.text import fit_for, safe_name, safe_text, terminal_width, tilde

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``autograder`` and ``grade`` to the command line."""
    auto = subparsers.add_parser("autograder", help="build an autograder bundle (Gradescope)")
    auto_sub = auto.add_subparsers(dest="autograder_command", metavar="KIND")
    gs = auto_sub.add_parser(
        "gradescope", help="build Gradescope's autograder.zip",
        description="Build the zip Gradescope's autograder format asks for: setup.sh (finds or "
        "installs Python 3.11 or newer and bubblewrap, and installs the bundled wheel of this "
        "installed version with the pinned grading extra), run_autograder (grades the upload, "
        "wherever its files are, and writes results.json with one entry per test), course.json "
        "and course.toml. Works from an installed package; no checkout is needed.")
    gs.add_argument("--exercises", type=exercise_numbers, default=None, metavar="LIST",
                    help="the exercises to grade, like 1-6 or 1,3,5 (default: all)")
    gs.add_argument("--hidden", type=exercise_numbers, default=[], metavar="LIST",
                    help="exercises whose tests students do not see")
    gs.add_argument("--after-due-date", type=exercise_numbers, default=[], metavar="LIST",
                    help="exercises whose tests students see after the due date")
    gs.add_argument("--out", type=Path, required=True, metavar="FILE", help="the zip to write")
    _course_flags(gs)
    _secret_flag(gs)
    gs.set_defaults(handler=_gradescope)
    auto.set_defaults(handler=lambda args: _usage(auto))

    grade = subparsers.add_parser(
        "grade", help="grade submission folders",
        description="Grade submission folders: each exercise's code runs behind the strongest wall this "
        "machine allows (bubblewrap; as root without it, a user id of its own), seen to hold before "
        "anything is graded and named in every result. Where no wall holds, grade refuses in one line "
        "that says what is missing, unless given --no-sandbox.")
    grade.add_argument("paths", nargs="+", metavar="PATH", help="submission folders")
    grade.add_argument("--json", metavar="FILE",
                       help="write Gradescope's results.json (one entry per test) for one submission")
    grade.add_argument("--csv", metavar="FILE",
                       help="write the gradebook: a row of points possible, then one row per submission; into a "
                       "gradebook an earlier run wrote, update the rows of the students graded and keep the others")
    grade.add_argument("--roster", metavar="FILE", type=Path,
                       help="a CSV naming each submission folder's student (columns folder, student_id, name, "
                       "section; email and login for an LMS): joins the --csv gradebook")
    grade.add_argument("--lms", choices=LMS, metavar="LMS",
                       help="write --csv in the grade import layout of canvas or moodle (needs --roster)")
    grade.add_argument("--json-dir", metavar="DIR", type=Path,
                       help="write each submission's results (one entry per test) to DIR/NAME.json")
    grade.add_argument("--feedback", metavar="DIR", type=Path,
                       help="write each student's feedback, every failing test, to DIR/NAME.md")
    grade.add_argument("--report", metavar="DIR", type=Path,
                       help="write the class report (report.html, items.csv, report.json) into DIR")
    grade.add_argument(
        "--exercise", metavar="N", action="append", type=exercise_number,
        help="grade only exercise N (repeatable)"
    )
    grade.add_argument("--jobs", metavar="K", type=process_count, default=1,
                       help=f"submissions graded at once (default 1, at most {max_workers()} here)")
    walls = grade.add_mutually_exclusive_group()
    walls.add_argument("--no-sandbox", action="store_true",
                       help="grade without a wall: each student's code runs as you and can reach whatever you "
                       "can (every result says 'not sandboxed'); by default grading refuses where no wall holds")
    walls.add_argument("--require-sandbox", action="store_true",
                       help="refuse to grade where no wall holds (the default; kept for scripts)")
    _course_flags(grade)
    _secret_flag(grade)
    _limit_flags(grade)
    grade.set_defaults(handler=_grade)


def _course_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--course", metavar="FILE", type=Path,
                        help="the course file (TOML): points per exercise, weights per test group "
                        "(default: every exercise 10 points, its tests equal)")
    parser.add_argument("--tests", metavar="DIR", type=Path,
                        help="your own contract tests, files named test_exNN_*.py, run beside exercise NN's")


def _course(args: argparse.Namespace) -> Course:
    """Return the course the ``--course`` and ``--tests`` options describe; misuse is a UsageError."""
    try:
        return load_course(args.course, args.tests)
    except CourseError as exc:
        raise UsageError(str(exc)) from None


def _secret_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--secret", metavar="FILE", type=Path,
                        help="the course's grading secret, which draws the decks the games are also tested "
                        "on (default: ~/.config/solitaire-ds/grading-secret, or under $XDG_CONFIG_HOME, made on "
                        "first use); the same "
                        "secret gives the same scores everywhere: share it with your staff, never students")


def _secret(args: argparse.Namespace) -> bytes:
    """Return the grading secret ``--secret`` names, or the default one (made, and said so, on first use)."""
    from solitaire_ds.course.secret import SecretError, default_secret, read_secret

    try:
        if args.secret is not None:
            return read_secret(args.secret)
        secret, path, made = default_secret()
    except SecretError as exc:
        raise UsageError(str(exc)) from None
    if made:
        print(fit_for(sys.stderr, f"solitaire-ds: made a grading secret in {tilde(str(path))} (it draws the decks "
                      "the games are tested on: keep it, and give it to your course's staff, never to students)"),
              file=sys.stderr)
    return secret


def _gradescope(args: argparse.Namespace) -> int:
    from solitaire_ds.course.gradescope import BundleError, build_bundle

    numbers = args.exercises or [ex.number for ex in EXERCISES]
    both = set(args.hidden) & set(args.after_due_date)
    if both:
        raise UsageError(f"exercise {min(both)} is given both --hidden and --after-due-date")
    for flag, listed in (("--hidden", args.hidden), ("--after-due-date", args.after_due_date)):
        if set(listed) - set(numbers):
            raise UsageError(f"{flag}: exercise {min(set(listed) - set(numbers))} is not among --exercises")
    check_output_path(args.out, "--out")
    visibility = {n: "hidden" if n in args.hidden else "after_due_date" if n in args.after_due_date else "visible"
                  for n in numbers}
    course = _course(args)
    if args.course is not None or args.tests is not None:  # every weight group matches a test, before the zip
        runner = _runner()
        try:
            runner.grade_many([], [exercise(n) for n in numbers], course=course, sandbox="none")  # grades none
        except (runner.GradingError, CourseError) as exc:
            raise UsageError(str(exc)) from None
    secret = _secret(args)
    try:
        names = build_bundle(args.out, numbers, visibility, course, args.course, secret)
    except BundleError as exc:
        raise UsageError(f"cannot build the bundle: {exc}") from None
    except OSError as exc:
        raise UsageError(f"cannot build the bundle: {exc.filename or args.out}: {exc.strerror or exc}") from None
    print(f"wrote {args.out}: {', '.join(names)} (exercises {', '.join(map(str, numbers))})")
    return 0


def _grade(args: argparse.Namespace) -> int:
    jobs: int = args.jobs
    json_file = Path(args.json) if args.json else None
    csv_file = Path(args.csv) if args.csv else None
    if json_file is not None:
        check_output_path(json_file, "--json", args.paths, [("--csv", csv_file)])
    if csv_file is not None:
        check_output_path(csv_file, "--csv", args.paths)
    if args.json and len(args.paths) > 1:
        raise UsageError(
            f"--json writes one submission's results.json; got {len(args.paths)} paths "
            "(use --csv for several)"
        )
    for path in args.paths:
        if not Path(path).is_dir():
            raise UsageError(f"submission folder not found: {path!r}")
    roster = _roster(args, csv_file)
    chosen = _selected(args.exercise)
    limits = _limits(args)
    course = _course(args)
    given_secret = _secret(args) if args.secret is not None else None  # a bad --secret is misuse: said first
    several = len(args.paths) > 1

    def progress(result: SubmissionResult) -> None:
        if several:
            print(
                fit_for(sys.stderr, f"graded {result.name}: {result.score:g}/{result.max_score} "
                                    f"({result.seconds:g} s)"),
                file=sys.stderr,
                flush=True,
            )

    runner = _runner()
    from solitaire_ds.course.secret import default_path

    # what a student's code must not read (the course file and tests, the secret, last run's
    # results) and must not write (where the results go): checked before grading, behind a
    # wall of user ids
    given = (json_file, csv_file, args.json_dir, args.feedback, args.report)
    guarded = runner.Guarded(
        private=tuple(Path(p).resolve() for p in (args.course, args.tests, args.secret or default_path(), args.roster,
                                                  *given)
                      if p is not None and Path(p).exists()),
        trusted=tuple(_output_folders(*given)),
    )
    try:
        wall = runner.wall_for("none" if args.no_sandbox else "required", runner.guarding(args.paths, guarded))
    except runner.GradingError as exc:
        raise UsageError(str(exc)) from None
    # what grading makes (the output folders, the secret on first use) is made only once it is
    # sure to go ahead: a refusal changes nothing
    for folder, flag in ((args.json_dir, "--json-dir"), (args.feedback, "--feedback"), (args.report, "--report")):
        if folder is not None:
            check_output_folder(folder, flag, args.paths, private=True)
    width = terminal_width()
    print(fit_for(sys.stderr, f"solitaire-ds grade: {wall.describe()}"), file=sys.stderr, flush=True)
    secret = given_secret if given_secret is not None else _secret(args)
    previous = signal.signal(signal.SIGTERM, terminate)  # SIGTERM ends the run as Ctrl-C does
    try:
        results = runner.grade_many(args.paths, chosen, limits, jobs, progress, wall, course, guarded, secret)
    except (runner.GradingError, CourseError) as exc:
        raise UsageError(str(exc)) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
    # Every file first, each on its own: one that cannot be written never stops the others.
    outputs: list[tuple[Path, Callable[[], str]]] = []
    if json_file is not None:
        outputs.append((json_file, functools.partial(_results_json, results[0])))
    if csv_file is not None:
        outputs.append((csv_file, functools.partial(_gradebook, csv_file, results, args.lms, roster)))
    names = _file_names(results)
    for name, result in zip(names, results, strict=True):
        if args.json_dir is not None:
            outputs.append((args.json_dir / f"{name}.json", functools.partial(_results_json, result)))
        if args.feedback is not None:
            outputs.append((args.feedback / f"{name}.md", functools.partial(feedback_markdown, result)))
    failed = [why for path, text in outputs if (why := _written(path, text))]
    if args.report is not None:
        failed += _class_report(results, names, args.report)
    for result in results:
        print(score_table(result, width))
        print()
    for why in failed:
        print(fit_for(sys.stderr, f"solitaire-ds: {why}"), file=sys.stderr)
    return 1 if failed else 0


def _class_report(results: Sequence[SubmissionResult], names: Sequence[str], folder: Path) -> list[str]:
    """Write the class report of ``results`` into ``folder``; return why what was not written was not."""
    from solitaire_ds.cli.report import write_report
    from solitaire_ds.course.class_report import StudentResults

    try:
        return write_report([StudentResults.of(n, r) for n, r in zip(names, results, strict=True)], folder)
    except Exception as exc:  # a report that cannot be made is one line, never the end of the others
        return [f"cannot write the class report: {type(exc).__name__}: {safe_text(str(exc), 200, newlines=False)}"]


def _roster(args: argparse.Namespace, csv_file: Path | None) -> dict[str, Student] | None:
    """Return the ``--roster`` (None without one) once ``--roster``, ``--lms`` and ``--csv`` agree, every
    folder has a row and the gradebook in ``--csv``, if any, is one of ours: misuse is a UsageError."""
    if csv_file is None:
        for flag, given in (("--roster", args.roster), ("--lms", args.lms)):
            if given is not None:
                raise UsageError(f"{flag} joins the gradebook --csv writes; give --csv FILE")
        return None
    if args.lms is not None and args.roster is None:
        raise UsageError(f"--lms {args.lms} needs --roster FILE: {args.lms} finds each student by the id it gives")
    try:
        roster = read_roster(args.roster) if args.roster is not None else None
        for path in args.paths:
            name = safe_name(Path(path).name or str(path))  # as the grader names it
            if roster is not None and name not in roster:
                raise GradebookError(f"--roster {args.roster}: no row for the folder {name!r}")
        check_gradebook(csv_file, args.lms, roster is not None)
    except GradebookError as exc:
        raise UsageError(str(exc)) from None
    return roster


def _gradebook(path: Path, results: Sequence[SubmissionResult], lms: str | None,
               roster: dict[str, Student] | None) -> str:
    """The gradebook to write at ``path``: these results merged into the one there, read again now."""
    try:
        old = path.read_bytes().decode("utf-8-sig") if path.is_file() else ""
    except (OSError, UnicodeDecodeError) as exc:
        raise GradebookError(f"cannot read the gradebook {path} again: {exc}") from None
    return gradebook_text(results, lms, roster, old)


def _results_json(result: SubmissionResult) -> str:
    return json.dumps(gradescope_json(result), indent=2) + "\n"


def _written(path: Path, text: Callable[[], str]) -> str:
    """Write ``text()`` to ``path``; return why it could not be ('' when written)."""
    try:
        write_output(path, text(), private=True)  # students' results: the owner's alone
    except UsageError as exc:
        return str(exc)
    except Exception as exc:  # a report that cannot be made is one line, never the end of the others
        return f"cannot write {safe_name(str(path))}: {type(exc).__name__}: {safe_text(str(exc), 200, newlines=False)}"
    return ""


#: The longest file name ``--json-dir`` and ``--feedback`` write (a folder's name may be 255 bytes).
_NAME_LIMIT = 100


def _output_folders(*paths: Path | None) -> list[Path]:
    """The folders the outputs go to (a file's parent, a folder itself), as far as they exist."""
    found = []
    for path in paths:
        if path is None:
            continue
        folder = path.resolve() if path.suffix == "" and not path.is_file() else path.resolve().parent
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        found.append(folder)
    return found


def _file_names(results: Sequence[SubmissionResult]) -> list[str]:
    """Return a file name for each submission: its folder's name, numbered when two share one.

    Only letters, digits, ``-``, ``_`` and ``.`` are kept (anything else, an escaped byte's
    backslash among them, is ``_``), at most :data:`_NAME_LIMIT` characters.

    >>> from solitaire_ds.course.results import SubmissionResult
    >>> _file_names([SubmissionResult(n, n, ()) for n in ("caf\\\\xe9", "a b", "a_b", ".x")])
    ['caf_xe9', 'a_b', 'a_b_2', 'x']
    """
    names: list[str] = []
    taken: set[str] = set()
    for result in results:
        base = "".join(c if c.isalnum() or c in "-_." else "_" for c in result.name[:_NAME_LIMIT]).lstrip(".")
        base = base or "submission"
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}_{n}"
        taken.add(name)
        names.append(name)
    return names
