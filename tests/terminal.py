"""A pseudo-terminal of 80 x 24 for the tests of what a person sees: a command's output as the
terminal shows it (colour codes take no columns; each segment a ``\\r`` starts is a line)."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import unicodedata
from pathlib import Path

WIDTH, HEIGHT = 80, 24


def on_a_terminal(*argv: str, cwd: Path | None = None) -> tuple[int, list[str]]:
    """Run ``solitaire-ds argv`` with stdout and stderr on a pseudo-terminal; return its
    status and the lines the terminal shows (every \\r-redraw a line)."""
    main_end, command_end = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "solitaire_ds", *argv], cwd=cwd,
        stdin=subprocess.DEVNULL, stdout=command_end, stderr=command_end,
        env={**os.environ, "COLUMNS": str(WIDTH), "LINES": str(HEIGHT), "TERM": "xterm"})
    os.close(command_end)
    seen = b""
    try:
        while True:  # read as it comes (a pty's buffer is small), until the command closes it
            ready, _, _ = select.select([main_end], [], [], 120)
            if not ready:
                break
            try:
                chunk = os.read(main_end, 65536)
            except OSError:  # the other end has closed
                break
            if not chunk:
                break
            seen += chunk
        status = process.wait(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(main_end)
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", seen.decode("utf-8", "replace")).replace("\r\n", "\n")
    return status, [segment for line in text.split("\n") for segment in line.split("\r")]


def columns(line: str) -> int:
    """The columns ``line`` takes on a terminal: wide characters two, combining ones none."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in line)


def too_wide(lines: list[str]) -> list[str]:
    return [line for line in lines if columns(line) > WIDTH]
