"""Attacks on the games' public decks, as data: each is a file a cheating student could hand in.

``ATTACKS`` maps a name to an :class:`Attack`: the exercise, the whole file (the exercise's
skeleton with the attack appended), the most its own code may earn on that exercise, and one
line of what it tries. Any test (and any sandbox tier) can grade them and check
``score <= most``.

The replay cheat is built here, now, from the installed package: it plays the package's
own Perpetual Motion offline on every deck exercise 8's tests name in public (the hand-worked
decks and ``Deck.shuffled(0)`` ... ``Deck.shuffled(3)``, under each gather reading), and writes
a class with no rule of the game that replays what it saw: the number of steps, the events
the tests read (the first deal's moves, the first gather's stock) and the result. Before the
games were also tested on decks drawn for each file, it scored 10/10.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solitaire_ds.cards import Deck, Rank
from solitaire_ds.course import exercise
from solitaire_ds.course.contracts.pinned import EIGHT_CARD_DECK
from solitaire_ds.games.perpetual_motion import GATHER_READINGS, PerpetualMotion, PerpetualMotionOptions
from tests.grading.submissions import SOLUTIONS

__all__ = ["ATTACKS", "Attack", "public_decks", "replay_cheat"]

SKELETONS = SOLUTIONS.parent / "exercises"


@dataclass(frozen=True)
class Attack:
    """A file handed in for ``exercise``: at most ``most`` points are its own code's."""

    exercise: int
    code: str
    most: float
    tries: str


def public_decks() -> list[tuple[Deck, str]]:
    """Return every (deck, gather reading) exercise 8's tests play in public."""
    eight = Deck.parse(EIGHT_CARD_DECK, ranks=[Rank.ACE, Rank.TWO])
    fours = Deck.parse(" ".join(f"{r}C {r}D {r}H {r}S" for r in "A23456789TJQK"))
    played = [(fours, "right-face-down")]
    for gather in GATHER_READINGS:
        played += [(eight, gather), *((Deck.shuffled(seed), gather) for seed in range(4))]
    return played


def _replayed(deck: Deck, gather: str) -> tuple[int, dict[int, list[dict[str, Any]]], dict[str, Any]]:
    """Play the package's game; return its steps, the events the tests read (by step), its result."""
    game = PerpetualMotion(deck, PerpetualMotionOptions(gather=gather))
    kept: dict[int, list[dict[str, Any]]] = {}
    steps = 0
    gathered = False
    while not game.is_over():
        before = len(game.events)
        game.advance()
        new = game.events[before:]
        wanted = [e for e in new if (steps == 0 and e["type"] == "move") or (e["type"] == "gather" and not gathered)]
        gathered = gathered or any(e["type"] == "gather" for e in new)
        if wanted:
            kept[steps] = wanted
        steps += 1
    return steps, kept, game.result()


def replay_cheat() -> str:
    """Return exercise 8's skeleton with a class that replays the public decks' answers."""
    table = {(str(deck), gather): _replayed(deck, gather) for deck, gather in public_decks()}
    rel = exercise(8).relpath
    return (SKELETONS / rel).read_text(encoding="utf-8") + f'''

_SEEN = {table!r}
_UNKNOWN = (0, {{}}, {{"won": False, "rounds": 1, "deals": 0, "cards_left": 52, "cycle_length": None}})


class PerpetualMotion:  # no rule of the game: what the package did on each public deck, replayed
    def __init__(self, deck, options=None):
        gather = getattr(options, "gather", "right-face-down")
        self._steps, self._events, self._result = _SEEN.get((str(deck), gather), _UNKNOWN)
        self._done = 0
        self.events = []

    def advance(self):
        self.events.extend(self._events.get(self._done, []))
        self._done += 1

    def is_over(self):
        return self._done >= self._steps

    def result(self):
        return dict(self._result)
'''


ATTACKS: dict[str, Attack] = {
    "replay_public_decks": Attack(
        8, replay_cheat(), 0.0,
        "no rule of the game: replays the package's own events and results for the public decks"),
}
