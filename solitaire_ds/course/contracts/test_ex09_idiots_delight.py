"""Exercise 9: Idiot's Delight's legal moves (run with ``--impl`` to grade a folder).

The expectations are trusted: a small deck worked out by hand, and the cards left when a
fixed strategy (always the first pair, else the first suit move) plays Deck.shuffled(0) …
Deck.shuffled(19), and decks drawn for the file under test (:mod:`.drawn`), which the
package's own game plays here. The game is built from the package's reference structures.

Every assert carries a plain-words message, shown as it is (PYTEST_DONT_REWRITE:
pytest adds no expression dump under it).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from solitaire_ds.cards import Deck, Rank
from solitaire_ds.course.contracts.drawn import Draw
from solitaire_ds.course.contracts.plain import (
    Played,
    doing,
    events_differ,
    first_difference,
    first_step_apart,
    in_another_order,
    in_words,
    names_card,
    play_to_the_end,
)
from solitaire_ds.course.grader.proxy import Submission
from solitaire_ds.games.base import IllegalMove, Move

EIGHT = Deck.parse("AC 2C AD 2D AH 2H AS 2S", ranks=[Rank.ACE, Rank.TWO])

#: Cards left by the fixed strategy on Deck.shuffled(0) … Deck.shuffled(19).
SHUFFLED_CARDS_LEFT = [25, 23, 11, 9, 8, 13, 17, 13, 6, 24, 12, 4, 10, 16, 6, 14, 9, 16, 14, 16]
#: Decks drawn for the file under test, played beside the fixed shuffles (one: each step of a
#: game is a request to the worker, and one deck nobody knows is enough to need the rules).
DRAWN = 1


@pytest.fixture(scope="module")
def game_class(impl: str) -> Any:
    """The IdiotsDelight class of the implementation under test."""
    from solitaire_ds.course.catalog import load_module

    return load_module(impl, "games.idiots_delight").IdiotsDelight


@pytest.fixture(scope="module")
def drawn(impl: Submission, pytestconfig: pytest.Config) -> Draw:
    """The decks drawn for the file under test."""
    return Draw.for_file(impl, "games/idiots_delight.py", pytestconfig)


def started(game_class: Any, deck: Deck = EIGHT) -> Any:
    with doing("dealing A♣ 2♣ A♦ 2♦ (IdiotsDelight(deck), advance())"):
        game = game_class(deck)
        game.advance()
    return game


def test_the_legal_moves_are_the_pairs_and_suits_showing(game_class: Any) -> None:
    game = started(game_class)
    with doing("with A♣ 2♣ A♦ 2♦ showing, legal_moves()"):
        moves = game.legal_moves()
    expected = [Move("suit", (1, 2)), Move("pair", (1, 3)), Move("pair", (2, 4)),
                Move("suit", (3, 4)), Move("quit")]
    shown = [str(m) for m in moves] if isinstance(moves, list) else moves
    said = in_another_order(shown, [str(m) for m in expected], ORDER)
    assert moves == expected, (
        f"with A♣ 2♣ A♦ 2♦ showing, the legal moves are {[str(m) for m in expected]}, "
        f"but legal_moves() gave {shown}" + (f": {said}" if said else ""))


#: The order of the legal moves, as removals()' and legal_moves()' docstrings state it (the
#: greedy player takes the first pair in it, so a game's record depends on it).
ORDER = ("by the piles (i, j), i < j, in the order (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4), "
         "then deal (with the option) and quit")


def test_a_pair_discards_both_cards(game_class: Any) -> None:
    game = started(game_class)
    with doing("with A♣ 2♣ A♦ 2♦ showing, play(pair 1 3)"):
        game.play(Move("pair", (1, 3)))
    sizes = [len(p) for p in game.piles]
    assert sizes == [0, 1, 0, 1], f"pair 1 3 should empty piles 1 and 3; pile sizes are {sizes}"
    expected = [{"type": "pair", "piles": [1, 3], "cards": ["AC", "AD"]}]
    got = game.events[-1:]
    assert got == expected, f"pair 1 3 should record the event {expected[0]}; {events_differ(got, expected)}"


def test_a_suit_move_discards_only_the_lower_card(game_class: Any) -> None:
    game = started(game_class)
    with doing("with A♣ 2♣ A♦ 2♦ showing, play(suit 1 2)"):
        game.play(Move("suit", (1, 2)))
    sizes = [len(p) for p in game.piles]
    assert sizes == [0, 1, 1, 1], (
        f"suit 1 2 (A♣ under 2♣, aces low) should discard only the A♣; pile sizes are {sizes}")


@pytest.mark.parametrize(("move", "why", "cards"), [
    (Move("pair", (1, 2)), "A♣ and 2♣ are not the same rank", ("AC", "2C")),
    (Move("suit", (1, 3)), "A♣ and A♦ are not the same suit", ("AC", "AD")),
], ids=["pair-of-two-ranks", "suit-of-two-suits"])
def test_an_illegal_move_is_refused_and_changes_nothing(
        game_class: Any, move: Move, why: str, cards: tuple[str, str]) -> None:
    game = started(game_class)
    with doing("board()"):
        before = (game.board(), game.events)
    with doing(f"with A♣ 2♣ A♦ 2♦ showing, play({move}) should raise IllegalMove ({why}); it"):
        try:
            game.play(move)
        except IllegalMove as refused:
            info = refused
        else:
            pytest.fail(f"with A♣ 2♣ A♦ 2♦ showing, play({move}) should raise IllegalMove "
                        f"({why}), but it was played")
    with doing("board()"):
        after = (game.board(), game.events)
    assert after == before, f"a refused {move} must change nothing (no card moved, no event recorded)"
    missing = [code for code in cards if not names_card(str(info), code)]
    assert not missing, (
        f"{move} is refused ({why}), and the message should name both cards; "
        f"{str(info)!r} does not name {' or '.join(missing)}")


def play_first_pair_else_first_suit(game_class: Any, deck: Deck, name: str) -> tuple[int, list[Any]]:
    """Play ``deck`` (called ``name``) with the fixed strategy; return the cards left and the events."""
    played = Played(f"{name} played by 'first pair, else first suit move'")
    with played.step("IdiotsDelight(deck)"):
        game = game_class(deck)
    left: int = play_to_the_end(game, played, first_pair_else_first_move, lambda result: int(result["cards_left"]))
    with played.step("events", record=False):
        return left, list(game.events)


def first_pair_else_first_move(game: Any) -> Any:
    """Return the first pair among ``game``'s legal moves, else the first legal move; every other
    decision names its two piles the other way round (``pair 3 1``), which the game takes too."""
    moves = game.legal_moves()
    move = next((m for m in moves if m.kind == "pair"), moves[0])
    if len(move.piles) == 2 and len(game.events) % 2:
        return Move(move.kind, move.piles[::-1])
    return move


@cache
def rules(deck: Deck) -> tuple[int, list[dict[str, Any]]]:
    """Return the cards the package's own game leaves on ``deck`` with the fixed strategy
    (the greedy player's: the first pair, else the first suit move), and its events."""
    from solitaire_ds.games.idiots_delight import IdiotsDelight

    game = IdiotsDelight(deck)
    return int(game.run(first_pair_else_first_move)["cards_left"]), game.events


def said(event: Any) -> str:
    """Return an event in a player's words (the package's own description), or as it is."""
    from solitaire_ds.games.idiots_delight import IdiotsDelight

    return in_words(IdiotsDelight(EIGHT), event)


def test_fixed_shuffles_are_played_event_for_event_as_the_rules_say(game_class: Any, drawn: Draw) -> None:
    deals = [(f"Deck.shuffled({seed})", Deck.shuffled(seed), expected, "")
             for seed, expected in enumerate(SHUFFLED_CARDS_LEFT)]
    deals += [(str(d), d.deck, rules(d.deck)[0], " " + d.rules_game(
        "idiots-delight", "--player greedy", "--record", note="the greedy player plays first pair, else first "
        "suit move, naming the piles in order; ")) for d in drawn.decks("shuffled", DRAWN)]
    for name, deck, expected, shown in deals:
        left, events = play_first_pair_else_first_suit(game_class, deck, name)
        trusted = rules(deck)[1]
        differ = first_difference(events, trusted, said)
        at = first_step_apart(events, trusted)
        assert not differ, (
            f"{name} played by 'first pair, else first suit move' (naming the two piles the other way "
            f"round at every other decision): {differ}; "
            f"{events_differ(events[at:at + 1], trusted[at:at + 1], first=at)}.{shown}")
        assert left == expected, (
            f"{name} played by 'first pair, else first suit move' should leave "
            f"{expected} cards, but leaves {left}.{shown}")
