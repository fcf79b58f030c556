"""Players: who makes the decisions in the games that leave some.

A player is a *choose* function: given a game that waits for a decision, it returns one
of ``game.legal_moves()``. :func:`make_player` builds one by name for a game class:

* ``greedy`` (:func:`greedy_player`): a fixed, deterministic rule of thumb (below);
* ``solver`` (:func:`solitaire_ds.solver.solver_player`): the best line an exhaustive
  search finds -- proved optimal under Idiot's Delight's default rules and in Aces Up;
  with ``--deal-any-time`` the search has a state budget, and its line is proved optimal
  only when it finishes (:attr:`solitaire_ds.solver.SolverPlayer.proved`), though never
  worse than the default rules' optimum;
* ``solver-no-lone`` (:func:`solitaire_ds.solver.solver_no_lone_player`, Aces Up only): the
  solver, refusing to move a card that is alone in its pile (as a published solver does);
* ``no-peek`` (:func:`solitaire_ds.no_peek.no_peek_player`, Aces Up only): searches
  every move it can make before the next deal, knowing which cards are still to come but
  never their order (the solver reads the whole deck);
* ``interactive`` (:func:`solitaire_ds.interactive.interactive_player`): a person at the
  terminal.

The greedy strategy, for each game:

* Idiot's Delight: the first ``pair`` move (lowest pile numbers), else the first ``suit``
  move; it never deals by choice (with ``--deal-any-time`` it deals only when it must)
  and never quits.
* Aces Up: move a card into an empty pile only from a pile of two or more cards (moving
  a pile's only card just swaps two piles); among those, an ace first, then the card from
  the tallest pile (the leftmost pile on a tie, onto the leftmost empty pile). When no
  such move exists: ``deal``, or after the last deal ``end``. Each move fills an empty
  pile and empties none, so the moves between two deals are at most four.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from solitaire_ds.games.base import Game, Move

__all__ = ["PLAYERS", "Choose", "UnknownPlayer", "greedy_choice", "greedy_player", "make_player"]

Choose = Callable[[Game], Move]

#: Player name -> "module:factory"; a factory takes the game class and returns a Choose.
PLAYERS: dict[str, str] = {
    "greedy": "solitaire_ds.players:greedy_player",
    "solver": "solitaire_ds.solver:solver_player",
    "no-peek": "solitaire_ds.no_peek:no_peek_player",
    "solver-no-lone": "solitaire_ds.solver:solver_no_lone_player",
    "interactive": "solitaire_ds.interactive:interactive_player",
}


class UnknownPlayer(KeyError):
    """A player name that is not in :data:`PLAYERS`."""

    def __str__(self) -> str:
        return str(self.args[0])


def make_player(name: str, game: type[Game]) -> Choose:
    """Return player ``name``'s choose function for ``game``.

    Raise :class:`UnknownPlayer` listing the players when the name is unknown, or saying
    which game the player plays when it does not play ``game``.
    """
    if name not in PLAYERS:
        known = ", ".join(sorted(PLAYERS)) or "none yet"
        raise UnknownPlayer(f"unknown player {name!r} (choose from {known})")
    module, factory = PLAYERS[name].split(":")
    try:
        made: Choose = getattr(import_module(module), factory)(game)
    except TypeError as exc:  # a player for other games ("the no-peek player plays Aces Up, ...")
        raise UnknownPlayer(str(exc)) from None
    return made


def greedy_choice(game: Game) -> Move:
    """Return the greedy player's move in ``game`` (see the module docstring).

    Raise ValueError when the game does not wait for a decision.

    Runtime complexity: O(1) (a handful of legal moves).

    >>> from solitaire_ds.cards import Deck
    >>> from solitaire_ds.games.idiots_delight import IdiotsDelight
    >>> game = IdiotsDelight(Deck.parse("5C 5H 9C KS " + " ".join(
    ...     c for c in Deck.standard().codes() if c not in ("5C", "5H", "9C", "KS"))))
    >>> game.advance()
    >>> [str(m) for m in game.legal_moves()], str(greedy_choice(game))
    (['pair 1 2', 'suit 1 3', 'quit'], 'pair 1 2')
    """
    return game.greedy()


def greedy_player(game_class: type[Game]) -> Choose:
    """Return the greedy player's choose function (the same for every game class).

    >>> from solitaire_ds.games.aces_up import AcesUp
    >>> greedy_player(AcesUp) is greedy_choice
    True
    """
    return greedy_choice
