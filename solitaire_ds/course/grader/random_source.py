"""The judge's random source for exercise 7: its own ``random.Random``, drawn from and counted here.

Invariant: every number the shuffle under test draws comes from a :class:`RandrangeSource` in
the judge, and each call is counted there, whatever the student's code does. The worker holds
only a stand-in (:class:`~solitaire_ds.course.grader.worker.RandrangeOnly`) whose
``randrange`` asks the judge while a request is in flight
(:class:`~solitaire_ds.course.grader.messages.Callback`); the judge validates the arguments,
bounds the number of calls, and answers (:class:`~solitaire_ds.course.grader.messages.Answer`).
"""

from __future__ import annotations

import itertools
from typing import Any

from solitaire_ds.course.grader.messages import Answer, Callback

__all__ = ["MAX_DRAWS", "RandomSources", "RandrangeSource"]

#: The most draws one random source answers (exercise 7's largest shuffle needs 51); past
#: it, a call raises in the worker, and past twice as many the worker is stopped.
MAX_DRAWS = 10_000


class RandrangeSource:
    """The judge's random source for a shuffle under test: its own ``random.Random(seed)``.

    The worker holds only a stand-in (:class:`~solitaire_ds.course.grader.worker.RandrangeOnly`)
    whose ``randrange`` asks for a draw while a request is in flight; the judge validates the
    arguments, draws here, and counts each call in :attr:`draws`, which nothing in the
    worker can read or change. Passed to the worker (``fisher_yates(items, rng)``), it goes
    as the stand-in.

    >>> rng = RandrangeSource(1)
    >>> rng.draw((10,)), rng.draws, rng.draw((0,)).error
    (Answer(value=2, error='', message=''), 1, 'ValueError')
    """

    def __init__(self, seed: int) -> None:
        import random

        self._random = random.Random(seed)
        #: How many times the code under test called ``randrange``.
        self.draws = 0
        #: The arguments of each call, in order (at most :data:`MAX_DRAWS` of them).
        self.calls: list[tuple[int, ...]] = []
        #: The worker's stand-in, once it is made: an ObjectProxy (see ``Submission.randrange_only``).
        self.stub: Any = None

    def draw(self, args: tuple[int, ...]) -> Answer:
        """Count one call of ``randrange(*args)`` and answer it as ``random.Random`` would."""
        self.draws += 1
        if self.draws > MAX_DRAWS:
            return Answer(error="RuntimeError", message=f"randrange was called more than {MAX_DRAWS:,} times")
        self.calls.append(tuple(args))
        if not 1 <= len(args) <= 3:
            return Answer(error="TypeError", message=f"randrange() takes 1 to 3 integers, not {len(args)}")
        try:
            return Answer(self._random.randrange(*args))
        except (ValueError, TypeError) as exc:
            return Answer(error=type(exc).__name__, message=str(exc)[:300])


class RandomSources:
    """The random sources of one connection, by number: the worker names one when it draws.

    >>> sources = RandomSources()
    >>> number = sources.register(RandrangeSource(1))
    >>> sources.answer(Callback("randrange", number, (10,))).value, sources.answer(Callback("randrange", 9, (10,)))
    (2, Answer(value=0, error='LookupError', message='no random source 9'))
    """

    def __init__(self) -> None:
        self._sources: dict[int, RandrangeSource] = {}
        self._numbers = itertools.count(1)

    def register(self, source: RandrangeSource) -> int:
        """Keep ``source`` for the worker to draw from; return its number."""
        number = next(self._numbers)
        self._sources[number] = source
        return number

    def clear(self) -> None:
        """Forget every source (between two tests)."""
        self._sources.clear()

    def answer(self, call: Callback) -> Answer | None:
        """Answer the worker's callback ``call``; None when it keeps asking past every bound
        (twice :data:`MAX_DRAWS`): the worker is to be stopped."""
        source = self._sources.get(call.source)
        if source is None:
            return Answer(error="LookupError", message=f"no random source {call.source}")
        if source.draws >= 2 * MAX_DRAWS:
            return None
        return source.draw(call.args)
