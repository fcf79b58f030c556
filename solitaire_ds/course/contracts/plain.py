"""Plain-words failures for the game contracts: an error the code under test raises.

``with doing("deal 1 on Deck.shuffled(3)"):`` turns an exception raised inside the block
into a failure that says what was being done and what was raised ("deal 1 on
Deck.shuffled(3) raised EmptyStructureError: pop from an empty stack"), instead of a bare
exception the student has to trace back.
"""

from __future__ import annotations

import errno
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

__all__ = ["ExerciseStops", "Played", "describe_steps", "doing", "events_differ", "first_difference",
           "first_step_apart", "in_another_order", "in_words", "names_card", "names_pile", "play_to_the_end"]

_HEAD_SHOWN = 3
_HISTORY_SHOWN = 12


class ExerciseStops(AssertionError):
    """A failure that leaves nothing else of the exercise worth running (a ``search`` that
    returns None): the grader reports it once, and the exercise's other tests as not run."""


def events_differ(got: Any, expected: list[dict[str, Any]], first: int = 1) -> str:
    """Say where the events ``got`` first differ from ``expected`` ('' when they agree):
    a missing or extra event, a key missing or extra, or a value, by name (the events
    numbered from ``first``).

    >>> events_differ([{"type": "discard", "cards": ["3C"]}], [{"type": "discard", "cards": ["3C"], "piles": [2]}])
    "event 1 (discard) has no 'piles' key (expected [2])"
    >>> events_differ([{"type": "move", "to": 3}], [{"type": "move", "to": 4}])
    "event 1 (move): 'to' is 3, expected 4"
    """
    if not isinstance(got, list):
        return f"the events are {got!r}, not a list"
    for number, (mine, want) in enumerate(zip(got, expected, strict=False), start=first):
        if mine == want:
            continue
        if not isinstance(mine, dict):
            return f"event {number} is {mine!r}, not a dict like {want}"
        kind = want.get("type", "?")
        if mine.get("type") != kind:
            return f"event {number} is a {mine.get('type')!r} event, expected {want}"
        for key, value in want.items():
            if key not in mine:
                return f"event {number} ({kind}) has no {key!r} key (expected {value!r})"
            if mine[key] != value:
                return f"event {number} ({kind}): {key!r} is {mine[key]!r}, expected {value!r}"
        extra = sorted(set(map(str, mine)) - set(want))
        return f"event {number} ({kind}) has keys it should not: {', '.join(map(repr, extra))}"
    if len(got) != len(expected):
        more = got[len(expected):] if len(got) > len(expected) else expected[len(got):]
        which = "more" if len(got) > len(expected) else "fewer"
        return f"{abs(len(got) - len(expected))} {which} events than expected ({more[0]!r} first)"
    return ""


def first_difference(theirs: Sequence[Any], trusted: Sequence[Any], say: Callable[[Any], str] = str,
                     shown_from: int = 0) -> str:
    """Say the first step where the record ``theirs`` differs from the ``trusted`` one ('' when
    they agree): what the rules do there, what the code under test did, and the three steps
    before it (from step ``shown_from`` on), each as ``say`` words it.

    >>> first_difference(["deal", "pair 1 3", "suit 2 4"], ["deal", "pair 1 3", "pair 2 4"])
    "step 2 should be 'pair 2 4', your code did 'suit 2 4' (after deal, pair 1 3)"
    >>> first_difference(["deal"], ["deal", "pair 1 3"])
    "step 1 should be 'pair 1 3', your code did 'nothing more' (after deal)"
    """
    at = first_step_apart(theirs, trusted)
    if at == len(theirs) == len(trusted):
        return ""
    want = say(trusted[at]) if at < len(trusted) else "the end"
    did = say(theirs[at]) if at < len(theirs) else "nothing more"
    if did == want:  # the same in words: show the records themselves
        want, did = repr(trusted[at]), repr(theirs[at])
    before = ", ".join(say(step) for step in trusted[max(at - 3, shown_from):at]) or "the deal"
    return f"step {at} should be '{want}', your code did '{did}' (after {before})"


def in_words(game: Any, event: Any) -> str:
    """Return ``event`` as the package's ``game`` describes it in a player's words, or as it is
    when the game cannot (an event a student's code made up): a ``say`` for :func:`first_difference`.

    >>> class Game:
    ...     def describe(self, event): return {"deal": "deal a card"}[event]
    >>> in_words(Game(), "deal"), in_words(Game(), "fly")
    ('deal a card', "'fly'")
    """
    try:
        return str(game.describe(event))
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return repr(event)


def first_step_apart(theirs: Sequence[Any], trusted: Sequence[Any]) -> int:
    """Return the index of the first step where two records differ (the shorter one's length
    when one goes on past the other's end).

    >>> first_step_apart("abc", "abd"), first_step_apart("ab", "abc"), first_step_apart("ab", "ab")
    (2, 2, 2)
    """
    return next((n for n, (a, b) in enumerate(zip(theirs, trusted, strict=False)) if a != b),
                min(len(theirs), len(trusted)))


def in_another_order(got: Sequence[Any], expected: Sequence[Any], order: str) -> str:
    """Return the words for ``got`` when it holds the moves ``expected`` holds in another
    order (''otherwise): "the same moves in another order; the order is ``order``".

    >>> in_another_order(["pair 1 3", "suit 1 2"], ["suit 1 2", "pair 1 3"], "by piles")
    'the same moves in another order; the order is by piles'
    >>> in_another_order(["pair 1 3"], ["suit 1 2", "pair 1 3"], "by piles")
    ''
    """
    if list(got) != list(expected) and sorted(map(str, got)) == sorted(map(str, expected)):
        return f"the same moves in another order; the order is {order}"
    return ""


def names_card(text: str, code: str) -> bool:
    """Whether ``text`` names the card ``code``, as people read it (``A♣``, ``10♥``) or by
    its code (``AC``, ``TH``).

    >>> names_card("A♣ and 2♣ are not the same rank", "2C"), names_card("ac is no pair", "AC")
    (True, True)
    >>> names_card("those cards are not the same rank", "AC")
    False
    """
    from solitaire_ds.cards import Card

    card = Card.parse(code)
    folded = text.casefold()
    return any(form.casefold() in folded for form in (card.label, card.code))


def names_pile(text: str, number: int) -> bool:
    """Whether ``text`` names pile ``number`` (the number standing alone).

    >>> names_pile("pile 3 is not empty", 3), names_pile("pile 13", 3)
    (True, False)
    """
    import re

    return re.search(rf"(?<![0-9]){number}(?![0-9])", text) is not None


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


def play_to_the_end(game: Any, played: Played, choose: Callable[[Any], Any], read: Callable[[Any], Any]) -> Any:
    """Play ``game`` to its end a step at a time, ``advance()`` while it awaits no decision and
    ``play(choose(game))`` when it does; return ``read(game.result())``. Each step is named in
    ``played``, reading the result too.

    >>> from solitaire_ds.cards import Deck
    >>> from solitaire_ds.games.aces_up import AcesUp
    >>> play_to_the_end(AcesUp(Deck.shuffled(0)), Played("Deck.shuffled(0)"), AcesUp.greedy, lambda r: r["score"])
    41
    """
    while True:
        with played.step("is_over()", record=False):
            if game.is_over():
                break
        with played.step("needs_decision()", record=False):
            decide = game.needs_decision()
        if decide:
            with played.step("legal_moves()", record=False):
                move = choose(game)
            with played.step(f"play({move})"):
                game.play(move)
        else:
            with played.step("advance()"):
                game.advance()
    with played.step("result()", record=False):
        return read(game.result())
