"""Decks drawn for a submission: the games' tests on decks nobody knows in advance.

Invariant: a drawn deck depends on three things only -- a key, the test's label, and the
bytes of the exercise file under test: ``HMAC-SHA256(key, label, number, SHA-256(file))``
seeds ``random.Random``, which drives the package's own shuffle (:meth:`Deck.shuffled`).
So the same file gets the same decks, and the same score, on every run and machine, and a
changed file gets new ones. When an instructor grades, the key is the course's secret,
which only the judge holds (the worker that runs the student's code never sees it, and the
decks reach it one at a time, as each game is made); everywhere else (``check``, the
repository's own ``pytest --impl``, the practice pages) it is :data:`PUBLIC_KEY`, so a
student meets the same kind of test there, on decks they can reproduce.

A game's test plays its public decks (``Deck.shuffled(0)``, ...) and then decks drawn here,
and compares them with the reference game, which the judge plays itself (it runs no
student code and has the whole package). A file that only replays the public decks' known
answers earns nothing on them. A failure on a drawn deck names it by its card codes and
gives the command that shows the rules' game on it (:meth:`DrawnDeck.rules_game`).

This module runs in the judge (and in local runs) only: the worker's copy of the package
holds nothing of ``course/contracts``.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import shlex
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solitaire_ds.cards import FULL_RANKS, Deck, Rank

if TYPE_CHECKING:
    import pytest

    from solitaire_ds.course.grader.proxy import Submission

__all__ = ["PUBLIC_KEY", "Draw", "DrawnDeck", "key_of"]

#: The key of every run without the instructor's secret: ``check``, ``pytest --impl``.
PUBLIC_KEY = b"solitaire-ds: the public key of the decks drawn for a file"


def key_of(config: pytest.Config) -> bytes:
    """Return the key decks are drawn with in this pytest run: the grading secret the judge
    was given, else :data:`PUBLIC_KEY`."""
    from solitaire_ds.course.grader.judge import active

    judge = active(config)
    secret = judge.config.secret if judge is not None else ""
    return bytes.fromhex(secret) if secret else PUBLIC_KEY


@dataclass(frozen=True)
class DrawnDeck:
    """One deck drawn for a file: the deck, and how a message names it."""

    deck: Deck
    #: "deck 2 drawn for your games/aces_up.py"
    name: str

    def __str__(self) -> str:
        return self.name

    def play_command(self, game: str, *options: str) -> str:
        """Return the command that shows the rules' game on this deck (a full deck; a small
        one, which ``play`` does not take, is given as :meth:`python`).

        >>> drawn = DrawnDeck(Deck.standard(), "deck 1 drawn for your games/klondike.py")
        >>> drawn.play_command("klondike", "--record")[:49]
        "solitaire-ds play klondike --record --deck 'AC 2C"
        """
        if len(self.deck) != 52:
            return self.python()
        return " ".join(["solitaire-ds play", game, *options, "--deck", shlex.quote(str(self.deck))])

    def rules_game(self, game: str, *options: str, note: str = "") -> str:
        """Return the sentence of a failure message that says where to see the rules' game on
        this (full) deck, and how to see the student's (``note`` goes first in the brackets).

        >>> print(DrawnDeck(Deck.standard(), "deck 1 drawn for your games/klondike.py").rules_game("klondike")[:70])
        The rules' game on deck 1 drawn for your games/klondike.py: solitaire-
        """
        return (f"The rules' game on {self}: {self.play_command(game, *options)} ({note}add --impl with "
                "your folder to play it on your code)")

    def python(self) -> str:
        """Return the Python expression that rebuilds this deck.

        >>> DrawnDeck(Deck.standard([Rank.ACE]), "deck 1 drawn for your solver.py").python()
        "Deck.parse('AC AD AH AS', ranks=[Rank.ACE])"
        """
        ranks = ", ".join(f"Rank.{rank.name}" for rank in self.deck.ranks)
        return f"Deck.parse({str(self.deck)!r}, ranks=[{ranks}])"


class Draw:
    """The decks drawn for one exercise file (see the module).

    >>> draw = Draw(PUBLIC_KEY, "games/aces_up.py", b"class AcesUp: ...")
    >>> first = draw.decks("greedy", 2)
    >>> [str(d) for d in first]
    ['deck 1 drawn for your games/aces_up.py', 'deck 2 drawn for your games/aces_up.py']
    >>> first == draw.decks("greedy", 2), first == Draw(PUBLIC_KEY, "games/aces_up.py", b"").decks("greedy", 2)
    (True, False)
    """

    def __init__(self, key: bytes, relpath: str, content: bytes) -> None:
        self._key = key
        self._file = hashlib.sha256(content).digest()
        self.relpath = relpath

    @classmethod
    def for_file(cls, impl: Submission, relpath: str, config: pytest.Config) -> Draw:
        """Return the decks of the file ``relpath`` of ``impl`` (``games/aces_up.py``), drawn with
        this run's key (:func:`key_of`). A file that cannot be read draws as an empty one."""
        text = impl.source(relpath.removesuffix(".py").replace("/", ".")) or ""
        return cls(key_of(config), relpath, text.encode("utf-8", "surrogatepass"))

    def seed(self, label: str, number: int) -> random.Random:
        """Return the random source of deck ``number`` of ``label``."""
        message = f"{label}\0{number}\0".encode() + self._file
        digest = hmac.new(self._key, message, hashlib.sha256).digest()
        return random.Random(int.from_bytes(digest, "big"))

    def deck(self, label: str, number: int, ranks: Iterable[Rank] = FULL_RANKS) -> DrawnDeck:
        """Return deck ``number`` (from 1) of ``label``, of the cards of ``ranks``."""
        return DrawnDeck(Deck.shuffled(self.seed(label, number), ranks),
                         f"deck {number} drawn for your {self.relpath}")

    def decks(self, label: str, count: int, ranks: Iterable[Rank] = FULL_RANKS) -> list[DrawnDeck]:
        """Return the first ``count`` decks of ``label``.

        Runtime complexity: O(count * len(deck)).
        """
        ranks = tuple(ranks)
        return [self.deck(label, number, ranks) for number in range(1, count + 1)]
