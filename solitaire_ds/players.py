"""Players: who makes the decisions in the games that leave some.

A player is a *choose* function: given a game that waits for a decision, it returns one
of ``game.legal_moves()``. :func:`make_player` builds one by name for a game class.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from solitaire_ds.games.base import Game, Move

__all__ = ["PLAYERS", "Choose", "UnknownPlayer", "make_player"]

Choose = Callable[[Game], Move]

#: Player name -> "module:factory"; a factory takes the game class and returns a Choose.
PLAYERS: dict[str, str] = {}


class UnknownPlayer(KeyError):
    """A player name that is not in :data:`PLAYERS`."""

    def __str__(self) -> str:
        return str(self.args[0])


def make_player(name: str, game: type[Game]) -> Choose:
    """Return player ``name``'s choose function for ``game``.

    Raise :class:`UnknownPlayer` listing the players when the name is unknown.
    """
    if name not in PLAYERS:
        known = ", ".join(sorted(PLAYERS)) or "none yet"
        raise UnknownPlayer(f"unknown player {name!r} (choose from {known})")
    module, factory = PLAYERS[name].split(":")
    made: Choose = getattr(import_module(module), factory)(game)
    return made
