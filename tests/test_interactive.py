"""The interactive player, driven by a list of typed lines: moves, help, undo, quit, bad input."""

from __future__ import annotations

import pytest

from solitaire_ds.cards import Deck, Rank
from solitaire_ds.games.aces_up import AcesUp, AcesUpOptions
from solitaire_ds.games.idiots_delight import IdiotsDelight
from solitaire_ds.interactive import RULES, InteractivePlayer
from solitaire_ds.records import play_record, replay
from solitaire_ds.text import fit

EIGHT = Deck.parse("AC 2C AD 2D AH 2H AS 2S", ranks=[Rank.ACE, Rank.TWO])


class Terminal:
    """Typed lines in, printed lines out."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.shown: list[str] = []

    def read(self, prompt: str) -> str:
        self.shown.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def write(self, *parts: object) -> None:
        self.shown.append(" ".join(map(str, parts)))

    def player(self) -> InteractivePlayer:
        return InteractivePlayer(self.read, self.write, width=80)

    @property
    def text(self) -> str:
        return "\n".join(self.shown)


def test_the_rules_are_shown_first_then_the_piles_and_numbered_moves() -> None:
    term = Terminal("2", "1", "2", "1")
    record = play_record(IdiotsDelight(EIGHT), term.player(), "interactive")
    assert term.shown[0] == fit(RULES["idiots-delight"], 80)  # wrapped at words to 80 columns
    assert "pile 1 (Stack): A♣" in term.text and "stock (Queue): 4 cards" in term.text
    assert "Moves:\n  1) suit 1 2\n  2) pair 1 3\n  3) pair 2 4\n  4) suit 3 4" in term.text
    assert max(len(line) for line in term.text.splitlines()) <= 80
    assert record.result == {"won": True, "cards_left": 0}


def test_a_move_may_be_typed_as_text() -> None:
    term = Terminal("pair 3 1", "pair 2 4", "pair 1 3", "pair 2 4")
    record = play_record(IdiotsDelight(EIGHT), term.player(), "interactive")
    assert record.result["won"] is True


@pytest.mark.parametrize(("typed", "message"), [
    ("9", "'9' is not a move number: choose a number from 1 to 4."),
    ("", "Please choose a move: 1 to 4, or h for help."),
    ("banana", fit("'banana' is not a move. You can type: 1 to 4 (a move listed above), 'suit I J', "
                   "'pair I J'; h (help) or q (quit).", 80)),
    ("pair 1 2", "'pair 1 2' is not allowed: A♣ and 2♣ are not the same rank."),
    ("pair 1 x", fit("'pair 1 x' is not a move. You can type: 1 to 4 (a move listed above), 'suit I J', "
                     "'pair I J'; h (help) or q (quit).", 80)),
    ("deal", fit("'deal' is not allowed: you may deal only when no pair or suit move exists "
                 "(--deal-any-time allows it).", 80)),
])
def test_bad_input_gets_a_message_and_the_same_prompt(typed: str, message: str) -> None:
    term = Terminal(typed, "q")
    record = play_record(IdiotsDelight(EIGHT), term.player(), "interactive")
    assert message in term.shown
    assert term.shown.count("Your move: ") == 2
    assert record.events[-2] == {"type": "quit"}


def test_help_repeats_the_rules_and_redraws_the_table() -> None:
    term = Terminal("h", "q")
    play_record(IdiotsDelight(EIGHT), term.player(), "interactive")
    assert term.shown.count(fit(RULES["idiots-delight"], 80)) == 2
    assert term.text.count("pile 1 (Stack): A♣") == 2  # the table again after the help


def test_a_single_move_is_offered_as_the_only_one() -> None:
    player = InteractivePlayer(lambda prompt: "", lambda *a: None, width=80)
    shown: list[str] = []
    player._write = lambda text="": shown.append(text)
    game = IdiotsDelight(EIGHT)
    game.advance()
    player._understand(game, game.legal_moves()[:1], "9")
    assert shown == ["'9' is not a move number: the only move is 1."]


def test_undo_takes_back_the_last_move_and_the_record_replays() -> None:
    term = Terminal("u", "1", "u", "2", "1", "2", "1")
    record = play_record(IdiotsDelight(EIGHT), term.player(), "interactive")
    assert "Nothing to undo yet." in term.shown
    assert "Undone: your last move is taken back." in term.shown
    decisions = [e for e in record.events if e["type"] in ("pair", "suit")]
    assert decisions[0] == {"type": "pair", "piles": [1, 3], "cards": ["AC", "AD"]}
    assert record.result == {"won": True, "cards_left": 0}
    assert [e["type"] for e in record.events].count("suit") == 0  # the undone one is gone


def test_quit_writes_a_record_that_replays() -> None:
    term = Terminal("q")
    deck = Deck.shuffled(6)
    record = play_record(AcesUp(deck), term.player(), "interactive")
    assert record.events[-2]["type"] == "quit"
    assert replay(record.to_json()).result == record.result


def test_the_end_of_input_quits() -> None:
    term = Terminal()
    record = play_record(IdiotsDelight(EIGHT), term.player(), "interactive")
    assert record.events[-2] == {"type": "quit"}


def test_aces_up_moves_name_the_card_and_q_after_the_last_deal_ends() -> None:
    deck = Deck.parse("2C 3C AC 2D AD 3D 2H AH 2S 3S AS 3H",
                      ranks=[Rank.ACE, Rank.TWO, Rank.THREE])
    term = Terminal("deal", "move 4 2", "deal", "q")
    record = play_record(AcesUp(deck, AcesUpOptions()), term.player(), "interactive")
    assert "1) move A♣ from pile 3 to 1" in term.text
    assert record.events[-2] == {"type": "end"}
    assert record.result == {"won": True, "cards_left": 4, "score": 8}


def test_what_happens_by_itself_is_told_one_line_each_before_the_board() -> None:
    deck = Deck.parse("2C 3C AC 2D AD 3D 2H AH 2S 3S AS 3H",
                      ranks=[Rank.ACE, Rank.TWO, Rank.THREE])
    term = Terminal("deal", "q")
    play_record(AcesUp(deck), term.player(), "interactive")
    shown = term.shown
    first_board = next(n for n, line in enumerate(shown) if line.startswith("pile 1 (Stack): ·"))
    # The first deal and its forced discard, before the first board.
    assert shown.index("  deal 1: 2♣ 3♣ A♣ 2♦") < first_board
    assert shown.index("  discard 2♣ 3♣ (lower than a showing card of its suit)") < first_board
    # The player's deal, then the discards it forced, then the board they lead to.
    told = shown.index("  you deal 2: A♦ 3♦ 2♥ A♥")
    assert shown[told + 1] == "  discard 3♦ 2♥ (lower than a showing card of its suit)"
    assert shown[told + 2] == "" and shown[told + 3].startswith("pile 1 (Stack): A♦\n")


def test_an_automatic_deal_of_idiots_delight_is_told() -> None:
    term = Terminal("pair 1 3", "pair 2 4", "q")
    play_record(IdiotsDelight(EIGHT), term.player(), "interactive")
    told = term.shown.index("  pair 2 4: discard 2♣ 2♦")
    assert term.shown[told + 1] == "  deal 2: A♥ 2♥ A♠ 2♠"
    assert term.shown.count("  pair 1 3: discard A♣ A♦") == 1  # each event told once


def test_an_undone_move_is_not_told_again() -> None:
    term = Terminal("pair 1 3", "u", "pair 1 3", "q")
    play_record(IdiotsDelight(EIGHT), term.player(), "interactive")
    assert term.shown.count("  pair 1 3: discard A♣ A♦") == 2  # played twice, told twice
    assert term.shown.count("  deal 1: A♣ 2♣ A♦ 2♦") == 1


@pytest.mark.parametrize(("game", "example", "foreign"), [
    (IdiotsDelight(EIGHT), "like 'pair 1 3'", "move 2 4"),
    (AcesUp(Deck.shuffled(6)), "like 'move 2 4'", "pair 1 3"),
])
def test_the_help_gives_an_example_move_the_game_accepts(
        game: IdiotsDelight | AcesUp, example: str, foreign: str) -> None:
    term = Terminal("h", "q")
    play_record(game, term.player(), "interactive")
    commands = [line for line in term.shown if line.startswith("Type the number")]
    assert len(commands) == 2 and all(example in line for line in commands)
    assert foreign not in "\n".join(commands)


def test_an_unknown_move_lists_the_keys_accepted_at_that_moment() -> None:
    # Not the rules' list of every kind of move ("deal", refused right after): the moves open
    # now, their number range, and h, u, q -- u only once there is a move to undo.
    term = Terminal("banana", "pair 1 3", "banana", "q")
    play_record(IdiotsDelight(EIGHT), term.player(), "interactive")
    first, second = [line for line in term.shown if line.startswith("'banana' is not a move.")]
    assert first == fit("'banana' is not a move. You can type: 1 to 4 (a move listed above), 'suit I J', "
                        "'pair I J'; h (help) or q (quit).", 80)
    assert second == fit("'banana' is not a move. You can type: 1 (the move listed above), 'pair I J'; "
                         "h (help), u (undo) or q (quit).", 80)
    assert "deal" not in first + second


def test_aces_up_unknown_move_offers_move_and_deal_or_end() -> None:
    term = Terminal("x", "q")
    play_record(AcesUp(Deck.shuffled(5)), term.player(), "interactive")
    assert fit("'x' is not a move. You can type: 1 to 4 (a move listed above), 'move I J', 'deal'; "
               "h (help) or q (quit).", 80) in term.shown


def test_the_board_names_the_structure_of_every_row() -> None:
    term = Terminal("q")
    play_record(AcesUp(Deck.shuffled(5)), term.player(), "interactive")
    board = next(line for line in term.shown if line.startswith("pile 1"))
    assert board.splitlines() == ["pile 1 (Stack): Q♣", "pile 2 (Stack): 6♦", "pile 3 (Stack): ·",
                                  "pile 4 (Stack): K♥", "stock (Queue): 48 cards; score 1"]
