"""Plain-words failures for the game contracts: an error the code under test raises.

``with doing("deal 1 on Deck.shuffled(3)"):`` turns an exception raised inside the block
into a failure that says what was being done and what was raised ("deal 1 on
Deck.shuffled(3) raised EmptyStructureError: pop from an empty stack"), instead of a bare
exception the student has to trace back.
"""

from __future__ import annotations

import errno
import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

__all__ = ["Played", "describe_steps", "doing"]

_HEAD_SHOWN = 3
_HISTORY_SHOWN = 12


@contextmanager
def doing(what: str | Callable[[], str]) -> Iterator[None]:
    """Fail naming ``what`` (a text, or a function giving it) if the block raises.

    Keep only calls to the code under test inside the block: any exception is theirs
    (even an AssertionError from their own ``assert``), except the errors the grader
    reports itself (running out of memory, writing too much output).

    >>> with doing("pop() on an empty list"):
    ...     [].pop()
    Traceback (most recent call last):
    ...
    AssertionError: pop() on an empty list raised IndexError: pop from empty list
    """
    try:
        yield
    except Exception as error:
        if isinstance(error, MemoryError) or (isinstance(error, OSError) and error.errno == errno.EFBIG):
            raise
        text = what if isinstance(what, str) else what()
        detail = str(error)
        raise AssertionError(
            f"{text} raised {type(error).__name__}" + (f": {detail}" if detail else "")
        ) from error


def describe_steps(history: list[str]) -> str:
    """Return ``history`` as a comma-separated list, shortened so that it stays readable.

    A step repeated three times or more is written once with its count; a call repeated
    with the numbers counting up (``push(0)``, ``push(1)``, ...) is written by its first two
    and last calls; whatever is still long loses its middle.

    >>> describe_steps(["ArrayStack()", "push(1)", "pop()", "pop()", "pop()"])
    'ArrayStack(), push(1), pop() (3 times)'
    >>> describe_steps(["ArrayStack()", *(f"push({n})" for n in range(1000)), "pop()"])
    'ArrayStack(), push(0), push(1), ..., push(999), pop()'
    >>> describe_steps([f"s{n}" for n in range(20)])
    's0, s1, s2, ... 5 more ..., s8, s9, s10, s11, s12, s13, s14, s15, s16, s17, s18, s19'
    """
    shown: list[str] = []
    i = 0
    while i < len(history):
        step = history[i]
        j = i + 1
        while j < len(history) and history[j] == step:
            j += 1
        if j - i >= 3:
            shown.append(f"{step} ({j - i} times)")
            i = j
            continue
        counting = _COUNTING_CALL.fullmatch(step)
        if counting:
            name, first = counting.group(1), int(counting.group(2))
            j = i + 1
            while j < len(history) and history[j] == f"{name}({first + j - i})":
                j += 1
            if j - i >= 4:
                shown.extend([step, history[i + 1], "...", history[j - 1]])
                i = j
                continue
        shown.append(step)
        i += 1
    if len(shown) <= _HEAD_SHOWN + _HISTORY_SHOWN:
        return ", ".join(shown)
    hidden = len(shown) - _HEAD_SHOWN - _HISTORY_SHOWN
    return ", ".join([*shown[:_HEAD_SHOWN], f"... {hidden} more ...", *shown[-_HISTORY_SHOWN:]])


_COUNTING_CALL = re.compile(r"(\w+)\((-?\d+)\)")


class Played:
    """The steps taken in a game so far, so that an error can name them.

    >>> played = Played("Deck.shuffled(0)")
    >>> with played.step("advance()"):
    ...     pass
    >>> with played.step("play(pair 1 2)"):
    ...     raise ValueError("no such pair")
    Traceback (most recent call last):
    ...
    AssertionError: Deck.shuffled(0): after advance(), play(pair 1 2) raised ValueError: no such pair
    """

    def __init__(self, setup: str) -> None:
        self.setup = setup
        self.steps: list[str] = []

    def step(self, text: str, record: bool = True) -> AbstractContextManager[None]:
        """Do ``text`` in the block; a question (``is_over()``) is not recorded."""
        done = len(self.steps)  # described only on failure: a long game stays O(steps)
        if record:
            self.steps.append(text)

        def describe() -> str:
            before = describe_steps(self.steps[:done])
            return f"{self.setup}: " + (f"after {before}, " if before else "") + text

        return doing(describe)
