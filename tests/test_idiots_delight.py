"""Idiot's Delight: hand-worked small decks for each rule and option, illegal moves, invariants."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire_ds.cards import Deck, Rank
from solitaire_ds.games.base import IllegalMove, Move
from solitaire_ds.games.idiots_delight import IdiotsDelight, IdiotsDelightOptions
from solitaire_ds.players import greedy_choice
from solitaire_ds.records import play_record, replay
from tests.conservation import play_out, watched

ACES_AND_TWOS = [Rank.ACE, Rank.TWO]
# First deal A♣ 2♣ A♦ 2♦, second deal A♥ 2♥ A♠ 2♠.
EIGHT = "AC 2C AD 2D AH 2H AS 2S"


def small(codes: str = EIGHT) -> Deck:
    return Deck.parse(codes, ranks=ACES_AND_TWOS)


def started(deck: Deck, deal_any_time: bool = False) -> IdiotsDelight:
    game = IdiotsDelight(deck, IdiotsDelightOptions(deal_any_time=deal_any_time))
    game.advance()
    return game


def snapshot(game: IdiotsDelight) -> tuple[str, int, int, int]:
    return (game.board(), len(game.events), game.discarded, game.deals)


# -- the rules, worked by hand ---------------------------------------------------------

def test_the_first_four_cards_are_dealt_by_a_forced_step_not_a_move() -> None:
    game = IdiotsDelight(small())
    assert not game.needs_decision() and game.legal_moves() == []
    game.advance()
    assert game.events == [{"type": "deal", "deal": 1, "cards": ["AC", "2C", "AD", "2D"]}]


def test_legal_moves_list_pairs_and_suits_by_pile_numbers() -> None:
    game = started(small())
    assert game.legal_moves() == [Move("suit", (1, 2)), Move("pair", (1, 3)),
                                  Move("pair", (2, 4)), Move("suit", (3, 4)), Move("quit")]


def test_a_pair_discards_both_cards() -> None:
    game = started(small())
    game.play(Move("pair", (3, 1)))  # either order names the same two piles
    assert game.events[-1] == {"type": "pair", "piles": [1, 3], "cards": ["AC", "AD"]}
    assert [len(p) for p in game.piles] == [0, 1, 0, 1]
    assert game.cards_left() == 6


def test_a_suit_move_discards_the_lower_card_with_aces_low() -> None:
    game = started(small())
    game.play(Move("suit", (1, 2)))
    assert game.events[-1] == {"type": "suit", "piles": [1, 2], "discard": "AC", "keep": "2C"}
    assert [len(p) for p in game.piles] == [0, 1, 1, 1]


def test_a_whole_game_worked_by_hand_is_won() -> None:
    game = started(small())
    game.play(Move("pair", (1, 3)))
    game.play(Move("pair", (2, 4)))
    assert not game.needs_decision()  # no removal: the game deals by itself
    game.advance()
    game.play(Move("pair", (1, 3)))
    game.play(Move("pair", (2, 4)))
    game.advance()
    assert game.is_over() and game.result() == {"won": True, "cards_left": 0}
    assert [e["type"] for e in game.events] == [
        "deal", "pair", "pair", "deal", "pair", "pair", "result"]
    assert game.events[3] == {"type": "deal", "deal": 2, "cards": ["AH", "2H", "AS", "2S"]}


def test_the_game_ends_when_the_stock_is_empty_and_no_removal_is_possible() -> None:
    # Suit moves first: A♣ goes (under 2♣), A♦ goes (under 2♦); 2♣ 2♦ pair; the second
    # deal is worked the same way but with suit moves only, leaving 2♥ and 2♠.
    game = started(small())
    game.play(Move("suit", (1, 2)))
    game.play(Move("suit", (3, 4)))
    game.play(Move("pair", (2, 4)))
    game.advance()
    game.play(Move("suit", (1, 2)))
    game.play(Move("suit", (3, 4)))
    assert game.legal_moves() == [Move("pair", (2, 4)), Move("quit")]
    game.play(Move("pair", (2, 4)))
    game.advance()
    assert game.result() == {"won": True, "cards_left": 0}


def test_no_move_is_offered_when_no_removal_exists_and_the_game_ends() -> None:
    # Every deal shows four ranks and four suits: no removal is ever possible.
    deck = Deck.parse("AC 2D 3H 4S 2C 3D 4H AS 3C 4D AH 2S 4C AD 2H 3S",
                      ranks=[Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR])
    game = started(deck)
    for _ in range(3):
        assert not game.needs_decision() and game.legal_moves() == []
        game.advance()
    assert not game.needs_decision()
    game.advance()
    assert [e["type"] for e in game.events] == ["deal"] * 4 + ["result"]
    assert game.events[-1] == {"type": "result", "won": False, "cards_left": 16}


def test_quit_ends_the_game_with_the_cards_as_they_lie() -> None:
    game = started(small())
    game.play(Move("quit"))
    assert game.is_over()
    assert game.events[-2:] == [{"type": "quit"},
                                {"type": "result", "won": False, "cards_left": 8}]


# -- the deal_any_time option ---------------------------------------------------------

def test_by_default_dealing_is_refused_while_a_removal_exists() -> None:
    game = started(small())
    before = snapshot(game)
    with pytest.raises(IllegalMove, match=r"^you may deal only when no pair or suit move "
                       r"exists \(--deal-any-time allows it\)$"):
        game.play(Move("deal"))
    assert snapshot(game) == before


def test_deal_any_time_lets_the_player_deal_while_a_removal_exists() -> None:
    game = started(small(), deal_any_time=True)
    assert Move("deal") in game.legal_moves()
    game.play(Move("deal"))
    assert game.events[-1] == {"type": "deal", "deal": 2, "cards": ["AH", "2H", "AS", "2S"],
                               "by": "player"}
    assert [len(p) for p in game.piles] == [2, 2, 2, 2]
    assert Move("deal") not in game.legal_moves()  # the stock is empty now


# -- illegal moves: a clear reason, nothing changed -----------------------------------

@pytest.mark.parametrize(("move", "reason"), [
    (Move("pair", (1, 2)), "A♣ and 2♣ are not the same rank"),
    (Move("suit", (1, 3)), "A♣ and A♦ are not the same suit"),
    (Move("pair", (1, 5)), "there is no pile 5 (the piles are 1 to 4)"),
    (Move("pair", (2, 2)), "pair needs two different piles, not pile 2 twice"),
    (Move("pair", (1,)), "pair names two piles, like 'pair 1 3'"),
    (Move("jump", (1, 2)), "unknown move 'jump 1 2' (moves: pair I J, suit I J, deal, quit)"),
])
def test_an_illegal_move_is_refused_with_its_reason_and_changes_nothing(
        move: Move, reason: str) -> None:
    game = started(small())
    before = snapshot(game)
    with pytest.raises(IllegalMove) as info:
        game.play(move)
    assert str(info.value) == reason
    assert snapshot(game) == before


def test_a_move_naming_an_empty_pile_is_refused() -> None:
    game = started(small())
    game.play(Move("pair", (1, 3)))
    before = snapshot(game)
    with pytest.raises(IllegalMove, match=r"^pile 1 is empty$"):
        game.play(Move("pair", (1, 2)))
    assert snapshot(game) == before


def test_moves_after_the_end_are_refused() -> None:
    game = started(small())
    game.play(Move("quit"))
    with pytest.raises(IllegalMove, match=r"^the game is over$"):
        game.play(Move("pair", (2, 4)))


# -- the greedy player, by hand --------------------------------------------------------

def test_the_greedy_player_takes_the_first_pair_and_wins_the_hand_worked_deck() -> None:
    record = play_record(IdiotsDelight(small()), greedy_choice, "greedy")
    moves = [e for e in record.events if e["type"] in ("pair", "suit")]
    assert moves == [
        {"type": "pair", "piles": [1, 3], "cards": ["AC", "AD"]},
        {"type": "pair", "piles": [2, 4], "cards": ["2C", "2D"]},
        {"type": "pair", "piles": [1, 3], "cards": ["AH", "AS"]},
        {"type": "pair", "piles": [2, 4], "cards": ["2H", "2S"]},
    ]
    assert record.result == {"won": True, "cards_left": 0}


# -- invariants on many deals -----------------------------------------------------------

def _random_game(seed: int, deal_any_time: bool, ranks: list[Rank] | None) -> IdiotsDelight:
    deck = Deck.shuffled(seed, ranks=ranks) if ranks else Deck.shuffled(seed)
    return IdiotsDelight(deck, IdiotsDelightOptions(deal_any_time=deal_any_time))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), deal_any_time=st.booleans(),
       ranks=st.sampled_from([None, [Rank.ACE, Rank.TWO, Rank.THREE], list(Rank)[:6]]))
def test_cards_are_conserved_and_only_legal_moves_are_made(
        seed: int, deal_any_time: bool, ranks: list[Rank] | None) -> None:
    game = _random_game(seed, deal_any_time, ranks)
    rng = random.Random(seed)
    while not game.is_over():
        if game.needs_decision():
            moves = [m for m in game.legal_moves() if m.kind != "quit"]
            assert moves, "a decision state offers a move"
            game.play(rng.choice(moves))
        else:
            assert game.legal_moves() == []
            game.advance()
        on_table = sum(len(p) for p in game.piles)
        assert on_table + len(game.stock) + game.discarded == len(game.deck)
        assert len(game.stock) % 4 == 0
    if ranks is None:  # records hold full decks
        record = play_record(_random_game(seed, deal_any_time, ranks), greedy_choice, "greedy")
        assert replay(record.to_json()).result == record.result


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), deal_any_time=st.booleans(), greedy=st.booleans(),
       ranks=st.sampled_from([None, [Rank.ACE, Rank.TWO, Rank.THREE], list(Rank)[:6]]))
def test_every_card_is_accounted_for_after_every_event(
        seed: int, deal_any_time: bool, greedy: bool, ranks: list[Rank] | None) -> None:
    deck = Deck.shuffled(seed, ranks=ranks) if ranks else Deck.shuffled(seed)
    play_out(watched(IdiotsDelight)(deck, IdiotsDelightOptions(deal_any_time=deal_any_time)), seed, greedy)
