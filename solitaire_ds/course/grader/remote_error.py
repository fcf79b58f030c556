"""An exception the student's code raised in the worker, raised again in the judge.

It crosses as data (:class:`~solitaire_ds.course.grader.messages.Raised`: its type's name,
the known classes it is an instance of, its message) and is raised here as a class of that
name built on the judge's own matching class (``EmptyStructureError``, ``IllegalMove``,
``IndexError``, ...), so ``except IllegalMove`` in a test works the same whichever process
the code ran in. Nothing of the student's exception object crosses.
"""

from __future__ import annotations

from solitaire_ds.course.grader.messages import Raised

__all__ = ["RemoteError", "remote_exception"]


class RemoteError(Exception):
    """An exception the student's code raised in the worker (see :func:`remote_exception`).

    ``raised`` holds it as data; ``where`` the place in the student's file, if known.
    """

    raised: Raised

    @property
    def where(self) -> str:
        return str(self.raised.where) if self.raised.where is not None else ""


#: The judge's classes an exception's kinds map onto, by name (see the worker).
def _known_classes() -> dict[str, type[BaseException]]:
    from solitaire_ds.games.base import IllegalMove, OptionError
    from solitaire_ds.structures.base import EmptyStructureError

    known: dict[str, type[BaseException]] = {
        "EmptyStructureError": EmptyStructureError, "IllegalMove": IllegalMove, "OptionError": OptionError,
    }
    for cls in (RecursionError, NotImplementedError, IndexError, KeyError, LookupError, ZeroDivisionError,
                ArithmeticError, UnicodeError, ValueError, TypeError, AttributeError, NameError, AssertionError,
                StopIteration, MemoryError, OSError, RuntimeError):
        known[cls.__name__] = cls
    return known


_KNOWN: dict[str, type[BaseException]] = {}
_MADE: dict[tuple[str, tuple[str, ...]], type[RemoteError]] = {}


def remote_exception(raised: Raised) -> RemoteError:
    """Return the exception to raise in the judge for ``raised``.

    Its class has the student's exception's name and derives from the most specific judge
    class among its kinds (SystemExit and KeyboardInterrupt are never re-raised as such:
    they would stop the judge).

    >>> error = remote_exception(Raised("EmptyStructureError", ("EmptyStructureError", "IndexError"), "pop"))
    >>> from solitaire_ds.structures.base import EmptyStructureError
    >>> isinstance(error, EmptyStructureError), isinstance(error, IndexError), type(error).__name__, str(error)
    (True, True, 'EmptyStructureError', 'pop')
    """
    if not _KNOWN:
        _KNOWN.update(_known_classes())
    bases = [_KNOWN[k] for k in raised.kinds if k in _KNOWN]
    chosen: list[type[BaseException]] = []
    for base in bases:  # most specific first; keep the ones not already implied
        if not any(issubclass(other, base) for other in chosen):
            chosen.append(base)
    key = (raised.type, tuple(c.__name__ for c in chosen))
    if key not in _MADE:
        _MADE[key] = type(raised.type, (*chosen, RemoteError), {"__module__": "student"})
    error = _MADE[key](raised.message)
    error.raised = raised
    return error
