"""The interactive player: a person at the terminal chooses each move.

Invariant: every line the player types is answered, and the game only ever receives a
move from its own ``legal_moves()`` -- bad input gets a one-line message and the same
prompt again.

At each decision the player first reads what happened since the last one, one line per
event with card symbols (their own move, then the deals and discards the game made by
itself), then sees the piles (card symbols, top card last) and the stock, each labelled
with its structure (``pile 1 (Stack)``), and the legal moves numbered from 1. They type a
number, a move as text (``pair 1 3``), or:

* ``h`` -- help: the rules summary and these commands again;
* ``u`` -- undo the last decision: the game is rebuilt from its deck and the decisions so
  far minus the last one (a game is a pure function of its deck, options and decisions);
* ``q`` -- quit: the game records a ``quit`` decision and ends (after the last deal of
  Aces Up, where ``end`` is the rules' own way to stop, it plays ``end``), so ``--json``
  still writes a record that ``replay`` verifies. The end of input (Ctrl-D) quits too.

A word that is no move gets the list of what is accepted at that moment: the move numbers,
the kinds of move open now, ``h``, ``u`` (once there is a move to undo) and ``q``.

Input and output go through ``input`` and ``print`` (or the functions given), so tests
drive the player with a list of lines.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from solitaire_ds.games import GAMES, game_class
from solitaire_ds.games.base import Game, IllegalMove, Move
from solitaire_ds.story import labelled_board
from solitaire_ds.text import colour_suits, fit, shown, terminal_width, wants_colour

__all__ = ["RULES", "InteractivePlayer", "interactive_player"]

#: A one-paragraph summary of each game's rules, shown at the start and by ``h``.
RULES: dict[str, str] = {name: game_class(name).summary for name in GAMES if game_class(name).summary}


def _commands(game: Game) -> str:
    """Return the help line of commands, with a move ``game`` itself accepts as example."""
    example = game.example_move
    typed = f"the move itself, like '{example}'" if example else "the move itself"
    return (f"Type the number of a move (or {typed}); "
            "h = help, u = undo your last move, q = quit.")


class InteractivePlayer:
    """A choose function that asks a person, with help, undo and quit.

    >>> from solitaire_ds.cards import Deck
    >>> from solitaire_ds.games.idiots_delight import IdiotsDelight
    >>> from solitaire_ds.records import play_record
    >>> answers = iter(["x", "q"])
    >>> player = InteractivePlayer(lambda prompt: next(answers), lambda *a: None)
    >>> record = play_record(IdiotsDelight(Deck.shuffled(5)), player, "interactive")
    >>> record.events[-2]
    {'type': 'quit'}
    """

    def __init__(
        self,
        read: Callable[[str], str] = input,
        write: Callable[..., None] = print,
        width: int | None = None,
    ) -> None:
        self.read = read
        self._write = write
        self.width = width if width is not None else terminal_width()
        self.colour = write is print and wants_colour(sys.stdout)  # red suits on a terminal
        self.greeted = False
        self.game: Game | None = None
        self.shown = 0  # how many of the game's events are already told

    def write(self, text: str = "") -> None:
        """Write ``text`` wrapped at words to the terminal's width (80 columns off one)."""
        fitted = fit(text, self.width)
        self._write(colour_suits(fitted) if self.colour else fitted)

    def __call__(self, game: Game) -> Move:
        """Tell what happened, show the table, ask until the answer is a legal move."""
        if game is not self.game:  # a new game: nothing of it is told yet
            self.game, self.shown = game, 0
        if not self.greeted:
            self.greeted = True
            self.write(game.summary or game.title)
            self.write(_commands(game))
        while True:
            moves = game.legal_moves()
            self._tell(game)
            self._show(game, moves)
            while True:
                try:
                    answer = self.read("Your move: ").strip()
                except EOFError:
                    answer = "q"
                choice = self._understand(game, moves, answer)
                if choice == "undo":
                    break  # the game was rebuilt: show it again
                if isinstance(choice, Move):
                    return choice

    def _tell(self, game: Game) -> None:
        """Write one line for each event since the last look: the move, deals, discards."""
        events = game.events
        if self.shown > len(events):  # an undo rebuilt a shorter game
            self.shown = len(events)
        if self.shown < len(events):
            self.write("")
        for event in events[self.shown:]:
            self.write("  " + game.describe(event))
        self.shown = len(events)

    def _show(self, game: Game, moves: list[Move]) -> None:
        self.write("")
        self.write("\n".join(labelled_board(game)))  # each row names its structure: pile 1 (Stack)
        numbered = [m for m in moves if m.kind != "quit"]
        self.write("Moves:")  # one a line: a list of moves never breaks inside a move
        for n, m in enumerate(numbered, start=1):
            self.write(f"  {n}) {game.say(m)}")

    def _understand(self, game: Game, moves: list[Move], answer: str) -> Move | str | None:
        """Return the move the answer names, "undo" after an undo, or None (message shown)."""
        numbered = [m for m in moves if m.kind != "quit"]
        word = answer.lower()
        if word in ("h", "help", "?"):
            self.write(game.summary or game.title)
            self.write(_commands(game))
            self._show(game, moves)  # and the table again: the help scrolled it away
            return None
        if word in ("q", "quit"):
            quit_move = next((m for m in moves if m.kind in ("quit", "end")), None)
            if quit_move is None:
                self.write("quitting is not possible now")  # pragma: no cover - always offered
                return None
            return quit_move
        if word in ("u", "undo"):
            if _undo(game):
                self.shown = len(game.events)  # the rebuilt game's events are the old ones
                self.write("Undone: your last move is taken back.")
                return "undo"
            self.write("Nothing to undo yet.")
            return None
        if not word:
            self.write(f"Please choose a move: 1 to {len(numbered)}, or h for help.")
            return None
        if word.isascii() and word.isdigit() and len(word) < 10:
            number = int(word)
            if 1 <= number <= len(numbered):
                return numbered[number - 1]
            choices = "the only move is 1" if len(numbered) == 1 else f"choose a number from 1 to {len(numbered)}"
            self.write(f"{shown(answer)} is not a move number: {choices}.")
            return None
        parts = word.split()
        try:
            if not all(p.isascii() and p.isdigit() and len(p) < 10 for p in parts[1:]):
                raise ValueError(answer)
            move = Move(parts[0], tuple(int(p) for p in parts[1:]))
        except ValueError:
            self.write(f"{shown(answer)} is not a move. {_accepted(game, numbered)}")
            return None
        move = game.canonical(move)
        if move in moves:
            return move
        try:
            game.play(move)  # refused with the reason; a legal move was caught above
        except IllegalMove as exc:
            if str(exc).startswith("unknown move"):  # the rules' list of every kind, not what is open now
                self.write(f"{shown(answer)} is not a move. {_accepted(game, numbered)}")
            else:  # the rules' own explanation
                self.write(f"{shown(answer)} is not allowed: {exc}.")
            return None
        except Exception as exc:  # a student's rules may refuse in their own way
            self.write(f"{shown(answer)} is not allowed: {exc}.")
            return None
        raise AssertionError(f"{move} was played but not listed as legal")  # pragma: no cover


def _accepted(game: Game, numbered: list[Move]) -> str:
    """What the prompt accepts now: the move numbers, the moves as words, h, u (when there is
    a move to undo) and q.

    >>> from solitaire_ds.cards import Deck
    >>> from solitaire_ds.games.aces_up import AcesUp
    >>> game = AcesUp(Deck.shuffled(5))
    >>> game.advance()
    >>> _accepted(game, [m for m in game.legal_moves() if m.kind != "quit"])
    "You can type: 1 to 4 (a move listed above), 'move I J', 'deal'; h (help) or q (quit)."
    """
    numbers = "1 (the move listed above)" if len(numbered) == 1 else f"1 to {len(numbered)} (a move listed above)"
    words = ["'" + " ".join([m.kind, *"IJKL"[: len(m.piles)]]) + "'" for m in numbered]  # 'pair I J', 'deal'
    keys = ["h (help)", *(["u (undo)"] if _decisions(game) else []), "q (quit)"]
    return f"You can type: {', '.join([numbers, *dict.fromkeys(words)])}; {', '.join(keys[:-1])} or {keys[-1]}."


def _decisions(game: Game) -> list[Move]:
    """The player's decisions so far, first first."""
    return [m for m in (game.decision(e) for e in game.events) if m is not None]


def _undo(game: Game) -> bool:
    """Rebuild ``game`` from its deck and its decisions minus the last; False if none.

    The game object is kept (the caller holds it) and its state replaced by the rebuilt
    game's, which has taken every forced step up to its next decision.
    """
    decisions = _decisions(game)
    if not decisions:
        return False
    fresh = type(game)(game.deck, game.options, toolkit=game.toolkit, record=game.recording)
    remaining = iter(decisions[:-1])
    for _ in fresh.steps(lambda _game: next(remaining, None)):
        pass
    vars(game).clear()
    vars(game).update(vars(fresh))
    return True


def interactive_player(game_class: type[Game]) -> Callable[[Game], Move]:
    """Return an interactive choose function reading ``input()`` and writing ``print()``."""
    return InteractivePlayer()
