"""The games, by command-line name. Each module holds one game built on the ADTs.

>>> sorted(GAMES)[0]
'aces-up'
>>> game_class("perpetual-motion").title
'Perpetual Motion'
"""

from __future__ import annotations

from importlib import import_module

from solitaire_ds.games.base import Game

__all__ = ["GAMES", "UnknownGame", "game_class"]

#: Command-line name -> "module:Class" (imported only when asked for).
GAMES: dict[str, str] = {
    "perpetual-motion": "solitaire_ds.games.perpetual_motion:PerpetualMotion",
    "idiots-delight": "solitaire_ds.games.idiots_delight:IdiotsDelight",
    "aces-up": "solitaire_ds.games.aces_up:AcesUp",
    "klondike": "solitaire_ds.games.klondike:Klondike",
}


class UnknownGame(KeyError):
    """A game name that is not in :data:`GAMES`."""

    def __str__(self) -> str:
        return str(self.args[0])


def game_class(name: str) -> type[Game]:
    """Return the class of game ``name``.

    Raise :class:`UnknownGame` with the list of games when the name is unknown.
    """
    name = name.strip().lower().replace("_", "-").replace(" ", "-")  # Klondike, aces_up, "aces up"
    if name not in GAMES:
        import difflib

        close = difflib.get_close_matches(name, sorted(GAMES), n=1, cutoff=0.6)
        guess = f"did you mean {close[0]!r}? " if close else ""
        raise UnknownGame(f"unknown game {name!r} ({guess}choose from {', '.join(sorted(GAMES))})")
    module, class_name = GAMES[name].split(":")
    cls: type[Game] = getattr(import_module(module), class_name)
    assert issubclass(cls, Game)
    return cls
