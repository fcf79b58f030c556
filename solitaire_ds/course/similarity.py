"""Graded code much like the reference's or a classmate's: a note with a figure, never a score.

Invariant: a file's *graded code* is the token stream (read with :mod:`tokenize`, one token
at a time, so no nesting is too deep) of its top-level classes and functions that the
reference marks for students to write (:func:`graded_names`), and of any top-level class or
function such a name is bound to (``ArrayStack = _Mine``). It is *normalised*: comments,
docstrings (any statement that is only a string), ``pass`` and ``...`` statements, type hints,
trailing commas and line breaks are dropped (a statement ends in ``;``, a block is ``{ }``), every string
reads ``"s"``, and every name the file chooses (variables, arguments, attributes, helpers)
reads ``v`` where it first appears in its function and ``vN`` after, N being how many names
back it last appeared (at most :data:`_NEAR`). Keywords, built-in names, ``self``, ``cls``
and ``__dunder__`` names are kept. So renaming, reformatting, rewording comments and adding
``pass`` change nothing, and adding or deleting a block changes only the tokens near it
(numbering names by their order of first appearance in the function would renumber every
name after it).

Two files are compared on their *own* code: the set of every run of :data:`K` consecutive
normalised tokens (*shingles*, a number each), less those the exercise's skeleton also has
(what every student is given: signatures, docstrings, helpers). The figure is the share of
the smaller set that the other holds too (the *overlap*): a copy stays at 100% however much
is added to it. A pair is noted at :data:`THRESHOLD` or above, and only when both have at
least :data:`MIN_SHINGLES` shingles of their own: three lines can be written only so many
ways. Measured on the bug zoo (one typical mistake patched into the reference each) and on
an independent honest rewrite of every exercise (``tests/grading/rewrites``): every bug-zoo
variant that keeps the reference's code is 81% to 100% the same as the reference, the
rewrites 17% to 67%.

>>> a = "class S:\\n    def push(self, x):\\n        self.items.append(x)\\n"
>>> b = "class S:\\n  def push(self, item):  # mine\\n    'Push.'\\n    self.things.append(item)\\n    pass\\n"
>>> fingerprint(a, ["S"]) == fingerprint(b, ["S"])
True
>>> " ".join(graded_code(a, ["S"]).tokens)
'class v : ; { def v ( self , v ) : ; { self . v . v ( v3 ) ; } }'
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import io
import keyword
import threading
import token
import tokenize
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from solitaire_ds.course.markers import find_blocks

__all__ = [
    "MAX_TOKENS",
    "MIN_SHINGLES",
    "THRESHOLD",
    "Code",
    "K",
    "fingerprint",
    "graded_code",
    "graded_names",
    "overlap",
    "parse",
    "similarity_notes",
]

#: Tokens in one shingle.
K = 6
#: The overlap at or above which two files' graded code is noted (0.80: 80% the same).
THRESHOLD = 0.80
#: Shingles of its own a file needs before it is compared at all (exercise 7's three
#: lines have 52: there is one natural way to write them, the one its docstring gives).
MIN_SHINGLES = 60
#: A name seen this many names back or more reads the same however far back it was.
_NEAR = 8
#: Tokens of a file read at most (about 20 times the largest reference file): beyond them
#: the rest of the file is not compared, and the run says so.
MAX_TOKENS = 100_000
#: How the notes say what the figure leaves aside.
ASIDE = "(names, comments and layout aside)"

_KEEP = frozenset(dir(builtins)) | {"self", "cls"}
#: Statements that open a block: a ":" in their first line is not a type hint.
_COMPOUND = frozenset({"if", "elif", "else", "for", "while", "try", "except", "finally", "with", "def", "class",
                       "async", "lambda", "match", "case", "return", "yield", "del", "assert", "raise", "import",
                       "from", "global", "nonlocal", "await"})
_DROPPED = frozenset({tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER})
_FSTRING_START = getattr(token, "FSTRING_START", -1)  # Python 3.12 reads an f-string as several tokens
_FSTRING_END = getattr(token, "FSTRING_END", -1)
_OPEN, _CLOSE = frozenset("([{"), frozenset(")]}")
#: CPython 3.11's AST constructor is not safe in two threads at once ("SystemError: AST
#: constructor recursion depth mismatch", seen with ``grade --jobs 2``): one parse at a time.
_PARSING = threading.Lock()


def parse(source: str, filename: str = "<unknown>") -> ast.Module | None:
    """Return the syntax tree of ``source``, or None when it does not parse; one thread at a time.

    >>> parse("x = 1").body[0].__class__.__name__, parse("x = (")
    ('Assign', None)
    """
    with _PARSING:
        try:
            return ast.parse(source, filename)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None


def graded_names(source: str, filename: str = "<reference>") -> list[str]:
    """Return the top-level classes and functions of ``source`` that hold a marked block.

    Runtime complexity: O(n) in the length of ``source``.

    >>> graded_names("def f():\\n    # BEGIN SOLUTION: x\\n    pass\\n    # END SOLUTION\\ndef g():\\n    pass\\n")
    ['f']
    """
    lines = {block.begin + 1 for block in find_blocks(source, filename)}
    names = []
    tree = parse(source, filename)
    if tree is None:
        raise SyntaxError(f"{filename} does not parse")
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and any(
            node.lineno <= line <= (node.end_lineno or node.lineno) for line in lines
        ):
            names.append(node.name)
    return names


# -- reading: tokens, logical lines, top-level units -------------------------------------------


@dataclass(frozen=True)
class Code:
    """One file's graded code, normalised: its tokens and its shingles."""

    tokens: tuple[str, ...]
    #: Whether the file had more than :data:`MAX_TOKENS` tokens (the rest was not read).
    cut: bool = False

    @property
    def digest(self) -> str:
        """A hash of the normalised tokens: equal for code equal but for names and layout."""
        return hashlib.sha256("\0".join(self.tokens).encode()).hexdigest()

    def shingles(self, k: int = K) -> frozenset[int]:
        """Return the hash of every run of ``k`` consecutive tokens (the whole, when shorter).

        Runtime complexity: O(k * n) for n tokens.
        """
        ids: dict[str, int] = {}  # each token's own stable number: the same in every file and run
        numbers = [ids.get(t) or ids.setdefault(t, _stable(t)) for t in self.tokens]
        if len(numbers) <= k:
            return frozenset([hash(tuple(numbers))]) if numbers else frozenset()
        return frozenset(hash(tuple(numbers[i:i + k])) for i in range(len(numbers) - k + 1))


def _stable(text: str) -> int:
    """A number for ``text`` that is the same in every process (``hash`` of a ``str`` is not)."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "big")


def _tokens(source: str) -> tuple[list[tokenize.TokenInfo], bool] | None:
    """Return the tokens of ``source`` that carry meaning (at most :data:`MAX_TOKENS`) and whether
    there were more; None when it does not tokenize. An f-string is one ``STRING`` token."""
    kept: list[tokenize.TokenInfo] = []
    inside = 0  # f-strings open (3.12 reads their parts as tokens)
    try:
        for n, tok in enumerate(tokenize.generate_tokens(io.StringIO(source).readline)):
            if n >= MAX_TOKENS:
                return kept, True
            if tok.type == _FSTRING_START:
                inside += 1
                if inside == 1:
                    kept.append(tok._replace(type=token.STRING, string='"s"'))
            elif tok.type == _FSTRING_END:
                inside -= 1
            elif not inside and tok.type not in _DROPPED:
                kept.append(tok)
    except (tokenize.TokenError, SyntaxError, ValueError):
        return None
    return kept, False


#: One entry of a file: a logical line (its tokens, the NEWLINE last), or "{"/"}" for a block
#: that opens (INDENT) or closes (DEDENT).
_Entry = list[tokenize.TokenInfo] | str


def _entries(tokens: list[tokenize.TokenInfo]) -> Iterator[_Entry]:
    line: list[tokenize.TokenInfo] = []
    for tok in tokens:
        if tok.type == tokenize.INDENT:
            yield "{"
        elif tok.type == tokenize.DEDENT:
            yield "}"
        else:
            line.append(tok)
            if tok.type == tokenize.NEWLINE:
                yield line
                line = []
    if line:
        yield line


def _units(tokens: list[tokenize.TokenInfo]) -> list[list[_Entry]]:
    """Split a file into its top-level statements (a class or function with its decorators and body)."""
    units: list[list[_Entry]] = []
    depth = 0
    decorators = False  # whether the last unit is only decorators so far (the def they decorate comes next)
    for entry in _entries(tokens):
        if entry == "{":
            depth += 1
        elif entry == "}":
            depth -= 1
        starts = isinstance(entry, list) and depth == 0
        if not units or (starts and not decorators):
            units.append([entry])
            decorators = isinstance(entry, list) and entry[0].string == "@"
        else:
            units[-1].append(entry)
            decorators = decorators and isinstance(entry, list) and entry[0].string == "@"
    return units


def _unit_name(unit: list[_Entry]) -> tuple[str, str] | None:
    """Return ``("def", name)`` for a class or function, ``("alias", "name=target")`` for
    ``name = target``, else None."""
    for entry in unit:
        if not isinstance(entry, list) or entry[0].string == "@":
            continue
        words = [t.string for t in entry]
        if words[0] == "async":
            words = words[1:]
        if len(words) > 1 and words[0] in ("def", "class"):
            return "def", words[1]
        if len(entry) == 4 and entry[0].type == entry[2].type == token.NAME and words[1] == "=":
            return "alias", f"{words[0]}={words[2]}"
        return None
    return None


# -- normalising --------------------------------------------------------------------------------


def _without_hints_in_header(line: list[tokenize.TokenInfo]) -> list[tokenize.TokenInfo]:
    """A ``def`` line without its parameters' and return's type hints."""
    kept = []
    depth = 0
    skipping = ""  # "parameter" or "return" while inside a hint
    default = False
    for tok in line:
        s = tok.string if tok.type == token.OP else ""
        depth += (s in _OPEN) - (s in _CLOSE)
        ends = ((skipping == "parameter" and ((depth == 1 and s in (",", "=")) or (depth == 0 and s == ")")))
                or (skipping == "return" and depth == 0 and s == ":"))
        if ends:
            skipping = ""
        elif skipping:
            continue
        if depth == 1 and s == ":" and not default:  # a parameter's hint (after "=", a lambda's ":")
            skipping = "parameter"
            continue
        if depth == 0 and s == "->":
            skipping = "return"
            continue
        if depth == 1 and s in (",", "="):
            default = s == "="
        kept.append(tok)
    return kept


def _without_hint(line: list[tokenize.TokenInfo]) -> list[tokenize.TokenInfo]:
    """A simple statement without its type hint (``x: int = 0`` is ``x = 0``; ``x: int`` is nothing)."""
    if line[0].type != token.NAME or line[0].string in _COMPOUND or keyword.iskeyword(line[0].string):
        return line
    depth = 0
    colon = -1
    for i, tok in enumerate(line):
        s = tok.string if tok.type == token.OP else ""
        depth += (s in _OPEN) - (s in _CLOSE)
        if depth == 0 and s == "=":
            return line if colon < 0 else line[:colon] + line[i:]
        if depth == 0 and s == ":" and colon < 0:
            colon = i
    return line if colon < 0 else []


def _normalise(unit: list[_Entry], out: list[str]) -> None:
    last: dict[str, int] = {}  # where each name was last seen, counted in names
    seen = 0
    for entry in unit:
        if isinstance(entry, str):
            out.append(entry)
            continue
        significant = [t for t in entry if t.type != tokenize.NEWLINE]
        if all(t.type == token.STRING for t in significant):
            continue  # a docstring, or a string standing for a comment
        if len(significant) == 1 and significant[0].string in ("pass", "..."):
            continue
        words = [t.string for t in significant]
        if words[0] == "def" or words[:2] == ["async", "def"]:
            last, seen = {}, 0  # each function's names are counted from its own start
            entry = _without_hints_in_header(entry)
        else:
            entry = _without_hint(entry)
        for tok in entry:
            s = tok.string
            if tok.type == token.NAME:
                if s == "pass":
                    continue
                if not (keyword.iskeyword(s) or s in _KEEP or (s.startswith("__") and s.endswith("__"))):
                    before = last.get(s)
                    last[s] = seen
                    s = "v" if before is None else f"v{min(seen - before, _NEAR)}"
                    seen += 1
            elif tok.type == token.STRING:
                s = '"s"'
            elif tok.type == tokenize.NEWLINE:
                s = ";"
            elif s in _CLOSE and out and out[-1] == ",":
                out.pop()  # a trailing comma is layout
            out.append(s)


def graded_code(source: str, names: Sequence[str]) -> Code | None:
    """Return the normalised graded code of ``source``: its top-level ``names`` and what they are
    bound to; None when it does not tokenize or defines none of them.

    Runtime complexity: O(n) in the length of ``source``, and at most :data:`MAX_TOKENS` tokens.
    """
    read = _tokens(source)
    if read is None:
        return None
    tokens, cut = read
    units = _units(tokens)
    kinds = [_unit_name(unit) for unit in units]
    wanted = set(names)
    for kind in kinds:  # ArrayStack = _Mine: _Mine is graded too (one level)
        if kind is not None and kind[0] == "alias":
            name, target = kind[1].split("=")
            if name in wanted:
                wanted.add(target)
    out: list[str] = []
    for unit, kind in zip(units, kinds, strict=True):
        if kind is not None and kind[0] == "def" and kind[1] in wanted:
            _normalise(unit, out)
    if not out:
        return None
    return Code(tuple(out), cut)


def fingerprint(source: str, names: Sequence[str]) -> str | None:
    """Return a digest of the normalised graded code ``names`` of ``source``; None if it has none.

    Equal digests mean code equal but for names, comments, docstrings, ``pass``, type hints
    and layout.

    Runtime complexity: O(n) in the length of ``source``.
    """
    code = graded_code(source, names)
    return None if code is None else code.digest


# -- comparing -------------------------------------------------------------------------------


def overlap(mine: frozenset[int], theirs: frozenset[int]) -> float:
    """Return the share of the smaller set that the other holds too (0 when one is empty).

    >>> overlap(frozenset({1, 2, 3, 4}), frozenset({1, 2, 3, 4, 5, 6, 7, 8}))
    1.0
    """
    smaller = min(len(mine), len(theirs))
    return len(mine & theirs) / smaller if smaller else 0.0


def _percent(value: float) -> str:
    return f"{int(value * 100)}%"  # rounded down: 100% only when the smaller is wholly in the other


def similarity_notes(
    own: Mapping[str, Mapping[int, frozenset[int]]],
    reference: Mapping[int, frozenset[int]],
    threshold: float = THRESHOLD,
) -> dict[str, list[str]]:
    """Return, per submission, a note for each exercise whose own code is much like another's.

    ``own`` maps each submission's name to its own shingles by exercise number (its graded
    code's, less the skeleton's: an exercise left as the skeleton has none), ``reference``
    the reference's own by exercise. A submission's exercise is compared with the
    reference's and every classmate's when both have at least :data:`MIN_SHINGLES`, and
    noted at ``threshold`` or above, with the figure; two classmates both noted as near the
    reference are not also noted as a pair (the reference says why they are alike).

    Runtime complexity: O(e * s**2 * m) for s submissions and e exercises of m shingles at
    most (each comparison is one set intersection).

    >>> ours, theirs = frozenset(range(100)), frozenset(range(500, 600))
    >>> notes = similarity_notes({"ann": {9: ours}, "bo": {9: theirs}, "cy": {9: theirs | {1}}}, {9: ours})
    >>> notes["ann"]
    ["exercise 9: 100% the same as the reference solution's (names, comments and layout aside)"]
    >>> notes["bo"]
    ["exercise 9: 100% the same as cy's (names, comments and layout aside)"]
    """
    notes: dict[str, list[str]] = {name: [] for name in own}
    numbers = sorted({n for mine in own.values() for n in mine})
    for number in numbers:
        holders = sorted((name, mine[number]) for name, mine in own.items()
                         if len(mine.get(number, ())) >= MIN_SHINGLES)
        found: dict[str, list[tuple[str, float]]] = {name: [] for name, _ in holders}
        ours = reference.get(number, frozenset())
        near = set()  # near the reference: two of them are alike because of it, and not noted as a pair
        for name, mine in holders:
            if len(ours) >= MIN_SHINGLES and (figure := overlap(mine, ours)) >= threshold:
                found[name].append(("the reference solution", figure))
                near.add(name)
        for i, (name, mine) in enumerate(holders):
            for other, theirs in holders[i + 1:]:
                if not {name, other} <= near and (figure := overlap(mine, theirs)) >= threshold:
                    found[name].append((other, figure))
                    found[other].append((name, figure))
        for name, pairs in found.items():
            if not pairs:
                continue
            pairs.sort(key=lambda pair: (pair[0] != "the reference solution", -pair[1], pair[0]))
            first, *rest = [(f"{_percent(figure)} the same as" if k == 0 else _percent(figure) + " as")
                            + f" {who}'s" for k, (who, figure) in enumerate(pairs[:6])]
            more = f", and {len(pairs) - 6} more" if len(pairs) > 6 else ""
            notes[name].append(f"exercise {number}: {', '.join([first, *rest])}{more} {ASIDE}")
    return notes
