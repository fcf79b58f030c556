"""How a message shows what it was given: one short line, the bad token quoted.

Invariant: whatever the input, the text returned is at most ``limit`` characters (a quoted
token: its first ``limit`` characters, quotes and escapes aside; with ``max_lines``, at most
that many lines plus one saying how many were left out), so a
200 MB deck line or a student's runaway ``__repr__`` never floods a message.

>>> shown("AS 2H " * 20)
"'AS 2H AS 2H AS 2H AS 2H AS 2H AS 2H A...'"
"""

from __future__ import annotations

__all__ = [
    "colour_suits", "fit", "fit_for", "safe_name", "safe_text", "shorten", "shown",
    "terminal_width", "tilde",
    "wants_colour",
]


#: Characters a terminal acts on, or that change how the text around them reads: the C0 and C1
#: controls (escape, carriage return, backspace ...), lone surrogates, the bidirectional overrides
#: and isolates, and the line and paragraph separators.
_UNSAFE = frozenset(
    [*map(chr, range(0x20)), *map(chr, range(0x7F, 0xA0)), "\u061c", "\u200e", "\u200f", "\u2028", "\u2029",
     *map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))]
) - {"\n", "\t"}


def safe_text(text: str, limit: int = 64_000, *, newlines: bool = True) -> str:
    """Return ``text`` safe to print, store and send as JSON: what crosses from untrusted code.

    Every character in :data:`_UNSAFE` (an escape sequence's ESC, a carriage return, a lone
    surrogate, a right-to-left override ...) is shown as its Python escape (``\\x1b``), so it
    reads as text and does nothing; new lines and tabs are kept (with ``newlines=False`` a new
    line is ``\\n`` too). The result is at most ``limit`` characters, ending in ``...`` when cut.

    Runtime complexity: O(min(len(text), limit)).

    >>> safe_text("boom\\x1b[2J\\r\\ud800")
    'boom\\\\x1b[2J\\\\r\\\\ud800'
    >>> safe_text("a\\nb"), safe_text("a\\nb", newlines=False), safe_text("x" * 10, limit=6)
    ('a\\nb', 'a\\\\nb', 'xxx...')
    """
    cut = len(text) > limit
    text = text[: limit + 1]
    if not (text.isascii() and text.isprintable()):
        unsafe = _UNSAFE if newlines else _UNSAFE | {"\n"}
        text = "".join(repr(c)[1:-1] if c in unsafe or 0xD800 <= ord(c) <= 0xDFFF else c for c in text)
    if cut or len(text) > limit:
        text = text[: limit - 3] + "..."
    return text


def safe_name(name: str, limit: int = 300) -> str:
    """Return a file or folder name as text every terminal, file and JSON takes (:func:`safe_text`).

    Bytes that are not UTF-8 (as some unzip tools leave a name: Python reads them as lone
    surrogates) read as ``\\xNN``, each byte as it was on disk.

    Runtime complexity: O(min(len(name), limit)).

    >>> safe_name("caf\\udce9"), safe_name("a\\x1b[2Jb\\nc")
    ('caf\\\\xe9', 'a\\\\x1b[2Jb\\\\nc')
    """
    import os  # here: the rest of the module runs in a browser's Python too

    return safe_text(os.fsencode(name[: limit + 1]).decode("utf-8", "backslashreplace"), limit, newlines=False)


def shorten(text: str, limit: int = 200, *, max_lines: int | None = None) -> str:
    """Return ``text`` cut to ``limit`` characters, ending in ``...`` when cut.

    With ``max_lines``, keep at most that many lines and say how many more there were;
    without it, fold every run of white space into one space (one line).

    Runtime complexity: O(len(text)).

    >>> shorten("a  b\\n c")
    'a b c'
    >>> shorten("x" * 10, limit=6)
    'xxx...'
    >>> shorten("1\\n2\\n3", max_lines=2)
    '1\\n2\\n... (1 more line)'
    """
    if max_lines is None:
        text = " ".join(text[: limit * 4].split())
    else:
        lines = text.splitlines()
        if len(lines) > max_lines:
            more = len(lines) - max_lines
            lines = [*lines[:max_lines], f"... ({more} more line{'s' if more != 1 else ''})"]
        text = "\n".join(lines)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown(value: object, limit: int = 40) -> str:
    """Return ``repr(value)`` of a token cut short for a message.

    A string longer than ``limit`` keeps its first ``limit - 3`` characters and ``...``
    inside the quotes (it is cut before ``repr``: ``repr`` of a 200 MB string is 200 MB);
    anything else is ``repr`` cut to ``limit`` characters.

    Runtime complexity: O(limit) for a string.

    >>> shown("2Z")
    "'2Z'"
    >>> shown(12345, limit=4)
    '1...'
    """
    if isinstance(value, str):
        return repr(value if len(value) <= limit else value[: limit - 3] + "...")
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def terminal_width(default: int = 80, stream: object = None) -> int:
    """The width to write for: the terminal's (or ``COLUMNS``), ``default`` off a terminal.

    The terminal is standard output's, or ``stream``'s when given (stderr's width when only
    stdout is redirected). Never less than 40 columns, whatever the terminal says.
    """
    import contextlib
    import os
    import shutil

    if stream is not None:
        with contextlib.suppress(AttributeError, ValueError, OSError):
            default = os.get_terminal_size(stream.fileno()).columns  # type: ignore[attr-defined]
        if not os.environ.get("COLUMNS", "").isdigit() or int(os.environ["COLUMNS"]) <= 0:
            return max(40, default)
    return max(40, shutil.get_terminal_size((default, 24)).columns)


def fit(text: str, width: int = 80, *, cut_words: bool = False) -> str:
    """Wrap every line of ``text`` longer than ``width`` at its words; the lines it wraps
    onto are indented two spaces more than the line itself. Shorter lines are kept as
    they are (a table that fits stays a table). A word longer than a whole line (a long
    path) is kept whole, so that it can be copied, unless ``cut_words`` (for a terminal,
    where no line may be wider than ``width``).

    >>> print(fit("  deal 1: " + "A♣ " * 30, 40))
      deal 1: A♣ A♣ A♣ A♣ A♣ A♣ A♣ A♣ A♣ A♣
        A♣ A♣ A♣ A♣ A♣ A♣ A♣ A♣ A♣ A♣ A♣ A♣
        A♣ A♣ A♣ A♣ A♣ A♣ A♣ A♣
    """
    import textwrap

    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        out += textwrap.wrap(line.strip(), width, initial_indent=indent, subsequent_indent=indent + "  ",
                             break_on_hyphens=False, break_long_words=cut_words)
    return "\n".join(out)


def fit_for(stream: object, text: str) -> str:
    """``text`` wrapped (:func:`fit`) to the width of ``stream`` when it is a terminal, else as it is.

    For messages on stderr: on a terminal no line wraps by itself; in a log or a pipe each
    message stays one line for a script to read.

    >>> import io
    >>> fit_for(io.StringIO(), "x " * 60) == "x " * 60
    True
    """
    try:
        if not stream.isatty():  # type: ignore[attr-defined]
            return text
    except (AttributeError, ValueError):
        return text
    return fit(text, terminal_width(stream=stream), cut_words=True)


def wants_colour(stream: object) -> bool:
    """Whether to colour what goes to ``stream``: a terminal, unless ``NO_COLOR`` is set
    (https://no-color.org) or the terminal is ``dumb``."""
    import os

    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False


def colour_suits(text: str) -> str:
    """Paint the red suits' cards red (``♥ ♦``); the black ones keep the terminal's colour.

    Applied after wrapping: the escape codes take no columns.

    >>> colour_suits("A♠ 10♥")
    'A♠ \\x1b[31m10♥\\x1b[0m'
    """
    import re

    return re.sub(r"(?<![\w♣♦♥♠])((?:10|[2-9AJQK])[♥♦])", "\x1b[31m\\1\x1b[0m", text)


def tilde(text: str) -> str:
    """``text`` with the user's home folder written ``~``, as a shell shows it (shorter lines).

    >>> import os
    >>> tilde(os.path.expanduser("~/my-exercises")) == "~/my-exercises"
    True
    """
    import os

    home = os.path.expanduser("~")
    if home in ("", "/", "~"):
        return text
    return text.replace(home.rstrip("/") + "/", "~/")
