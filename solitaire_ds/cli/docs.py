"""The ``docs`` command: serve (or build) the documentation site from a source checkout.

Invariant: the command never starts mkdocs unless both mkdocs and the checkout's
``mkdocs.yml`` are there; otherwise it says in one line what to install or where the
site's sources are, and exits with status 2.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from solitaire_ds.cli.args import UsageError, positive_int
from solitaire_ds.course import REPO_ROOT

__all__ = ["INSTALL_HINT", "docs_command", "mkdocs_command", "register"]

#: What to tell a user who has no mkdocs.
INSTALL_HINT = "install the docs extra: pip install -e '.[docs]'"


def mkdocs_command(argv: list[str], config: Path = REPO_ROOT / "mkdocs.yml") -> list[str]:
    """Return the command line that runs mkdocs ``argv[0]`` on ``config`` with ``argv[1:]``.

    Runtime complexity: O(len(argv)).

    >>> mkdocs_command(["serve", "-a", "127.0.0.1:8000"], Path("mkdocs.yml"))[1:]
    ['-m', 'mkdocs', 'serve', '-f', 'mkdocs.yml', '-a', '127.0.0.1:8000']
    """
    return [sys.executable, "-m", "mkdocs", argv[0], "-f", str(config), *argv[1:]]


def docs_command(argv: list[str], config: Path = REPO_ROOT / "mkdocs.yml") -> list[str]:
    """Return :func:`mkdocs_command` after checking that mkdocs and ``config`` are there.

    Raise :class:`~solitaire_ds.cli.args.UsageError` (one line: what to install, or where the
    site's sources are) when either is missing.

    >>> docs_command(["serve"], Path("no-such-folder/mkdocs.yml"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solitaire_ds.cli.args.UsageError: ...
    """
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        raise UsageError(f"mkdocs is not installed: {INSTALL_HINT}")
    if not config.is_file():
        raise UsageError(f"no {config.name} in {config.parent}: the docs are served from a source "
                         "checkout of solitaire-ds (git clone, then pip install -e '.[docs]')")
    return mkdocs_command(argv, config)


def _docs(args: argparse.Namespace) -> int:
    if args.build:
        argv = ["build", "--strict", "-d", str(Path(args.build).resolve())]
    else:
        argv = ["serve", "-a", f"{args.host}:{args.port}"]
    command = docs_command(argv)
    if not args.build:
        print(f"Serving the docs at http://{args.host}:{args.port}/ (Ctrl-C stops)", flush=True)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # mkdocs' banner about its successor
    return subprocess.call(command, cwd=REPO_ROOT, env=env)


def register(subparsers: Any) -> None:
    """Add ``docs`` to the command line."""
    docs = subparsers.add_parser(
        "docs", help="serve the documentation site locally",
        description="Serve the documentation site on your machine with mkdocs (live reload), "
        f"or build it once. Needs the docs extra ({INSTALL_HINT}).")
    docs.add_argument("--port", type=positive_int, default=8000, help="port to serve on (default 8000)")
    docs.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1)")
    docs.add_argument("--build", metavar="DIR", help="build the site into DIR (strict) instead of serving")
    docs.set_defaults(handler=_docs)
