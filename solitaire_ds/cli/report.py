"""The ``report`` command: the class report of graded results (and ``grade --report``'s writer).

Invariant: the command reads results files only (it runs no student code) and writes three
files into its ``--out`` folder, each whole or not at all and readable by their owner alone:
``report.html``, ``items.csv`` and ``report.json``. A results file that is not the grader's
shape, a path that does not exist, or a folder with no results is one line and exit status 2,
before anything is written.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from solitaire_ds.cli.args import UsageError, check_output_folder, write_output
from solitaire_ds.course.class_report import ClassReport, ResultsError, StudentResults, read_results

__all__ = ["register", "write_report"]

#: The files a report folder holds.
FILES = ("report.html", "items.csv", "report.json")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``report`` to the command line."""
    report = subparsers.add_parser(
        "report", help="the class report of graded results: most failed tests, messages, distributions",
        description="Read the per-student results the grader writes (grade --json-dir: NAME.json files; or "
        "a Gradescope export: NAME/results.json) and write the class report into DIR: report.html (one page "
        "that works offline), items.csv (one row per test) and report.json. Per exercise and per test: the "
        "share of the class that passed, the discrimination index, the most common first failure messages "
        "and who failed with them, the distribution of scores, and who has not started.")
    report.add_argument("results", nargs="+", type=Path, metavar="RESULTS",
                        help="results files, or folders of them")
    report.add_argument("--out", type=Path, required=True, metavar="DIR", help="the folder to write the report in")
    report.set_defaults(handler=_report)


def _report(args: argparse.Namespace) -> int:
    try:
        students = read_results(args.results)
    except ResultsError as exc:
        raise UsageError(str(exc)) from None
    check_output_folder(args.out, "--out", args.results, private=True)
    failed = write_report(students, args.out)
    for why in failed:
        print(f"solitaire-ds: {why}")
    if failed:
        return 1
    print(f"wrote the class report of {len(students)} students into {args.out}: {', '.join(FILES)}")
    return 0


def write_report(students: Sequence[StudentResults], folder: Path) -> list[str]:
    """Write ``report.html``, ``items.csv`` and ``report.json`` of ``students`` into ``folder``
    (which exists); return why each file that could not be written was not."""
    from solitaire_ds.course.class_report_html import report_html

    report = ClassReport.of(students)
    failed = []
    for name, text in zip(FILES, (report_html(report), report.items_csv(), report.json_text()), strict=True):
        try:
            write_output(folder / name, text, private=True)  # students' names and results: the owner's alone
        except UsageError as exc:
            failed.append(str(exc))
    return failed
