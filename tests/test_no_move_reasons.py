"""A move offered while the game plays by itself is refused with the true reason."""

from __future__ import annotations

import pytest

from solitaire_ds.cards import Deck, Rank
from solitaire_ds.games.aces_up import AcesUp, AcesUpOptions
from solitaire_ds.games.base import IllegalMove, Move
from solitaire_ds.games.idiots_delight import IdiotsDelight

A_TO_4 = [Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR]


def _refusal(game: IdiotsDelight | AcesUp, move: Move) -> str:
    before = (game.board(), list(game.events))
    with pytest.raises(IllegalMove) as info:
        game.play(move)
    assert (game.board(), game.events) == before  # nothing changed
    return str(info.value)


def test_idiots_delight_at_its_end_says_nothing_is_left_to_deal() -> None:
    # Four deals with no removal ever (each deal's cards: four ranks, four suits), so
    # after the fourth the stock is empty and the next step ends the game.
    deck = Deck.parse("AC 2D 3H 4S 2C 3D 4H AS 3C 4D AH 2S 4C AD 2H 3S", ranks=A_TO_4)
    game = IdiotsDelight(deck)
    for _ in range(4):
        game.advance()
    assert not game.stock and not game.is_over()
    assert _refusal(game, Move("pair", (1, 2))) == (
        "no pair or suit move is possible and the stock is empty: nothing is left to deal, "
        "so the game ends by itself")


def test_idiots_delight_between_deals_says_the_game_deals() -> None:
    deck = Deck.parse("AC 2D 3H 4S 2C 3D 4H AS 3C 4D AH 2S 4C AD 2H 3S", ranks=A_TO_4)
    game = IdiotsDelight(deck)
    game.advance()
    assert _refusal(game, Move("suit", (1, 2))) == (
        "no pair or suit move is possible now: the game deals by itself")


@pytest.mark.parametrize("game", [IdiotsDelight(Deck.standard()), AcesUp(Deck.standard())],
                         ids=["idiots-delight", "aces-up"])
def test_before_the_first_deal_the_game_says_it_deals_first(
        game: IdiotsDelight | AcesUp) -> None:
    assert _refusal(game, Move("deal")) == (
        "nothing is dealt yet: the game deals the first four cards by itself")


def test_aces_up_with_every_pile_full_says_no_pile_is_empty() -> None:
    deck = Deck.parse("AC 2D 3H 4S 2C 3D 4H AS 3C 4D AH 2S 4C AD 2H 3S", ranks=A_TO_4)
    game = AcesUp(deck)
    game.advance()
    assert _refusal(game, Move("move", (1, 2))) == (
        "no pile is empty, so no card can move: the game deals by itself")


def test_aces_up_aces_only_says_no_ace_shows_then_that_the_game_ends() -> None:
    # Deal 1: 2♣ 3♣ 4♦ 3♥ -> 2♣ goes (lower than 3♣): pile 1 is empty, no ace shows.
    # Deals 2 and 3 leave four suits showing; deal 4 (2♦ A♥ 3♠ A♠) discards 3♠, 4♥, 2♥
    # and 2♦ in turn, and leaves A♣ A♥ 4♦ A♠ showing with no pile empty.
    deck = Deck.parse("2C 3C 4D 3H 4C AD 2H 4S AC 3D 4H 2S 2D AH 3S AS", ranks=A_TO_4)
    game = AcesUp(deck, AcesUpOptions(aces_only=True))
    game.advance()
    assert _refusal(game, Move("move", (2, 1))) == (
        "no ace shows to fill the empty pile (--aces-only): the game deals by itself")
    for _ in range(3):
        game.advance()
    assert not game.stock and not game.is_over() and game.result()["score"] == 5
    assert _refusal(game, Move("end")) == (
        "no pile is empty, so no card can move and the stock is empty: the game ends by itself")


def test_aces_up_without_aces_only_never_blames_a_missing_ace(monkeypatch: pytest.MonkeyPatch) -> None:
    deck = Deck.parse("2C 3C 4D 3H 4C AD 2H 4S AC 3D 4H 2S 2D AH 3S AS", ranks=A_TO_4)
    game = AcesUp(deck)  # every card may fill an empty pile
    game.advance()
    assert not all(game.piles)
    monkeypatch.setattr(game, "card_moves", lambda: [])  # as if no card could move there
    reason = game._why_no_move()
    assert "ace" not in reason and reason.startswith("no card can move into the empty pile")
