"""Aces Up: hand-worked small decks for each rule and option, illegal moves, invariants."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire_ds.cards import Deck, Rank
from solitaire_ds.games.aces_up import AcesUp, AcesUpOptions
from solitaire_ds.games.base import IllegalMove, Move
from solitaire_ds.players import greedy_choice
from solitaire_ds.records import play_record, replay
from tests.conservation import play_out, watched

A_TO_3 = [Rank.ACE, Rank.TWO, Rank.THREE]
# Deal 1: 2♣ 3♣ A♦ 2♦; deal 2: A♣ 3♦ A♥ 2♥; deal 3: 3♥ A♠ 2♠ 3♠.
TWELVE = "2C 3C AD 2D AC 3D AH 2H 3H AS 2S 3S"


def small(codes: str = TWELVE) -> Deck:
    return Deck.parse(codes, ranks=A_TO_3)


def started(deck: Deck, aces_only: bool = False) -> AcesUp:
    game = AcesUp(deck, AcesUpOptions(aces_only=aces_only))
    game.advance()
    return game


def snapshot(game: AcesUp) -> tuple[str, int, int, int]:
    return (game.board(), len(game.events), game.discarded, game.deals)


def test_the_first_deal_discards_every_card_lower_than_a_showing_card_of_its_suit() -> None:
    game = started(small())
    assert game.events == [
        {"type": "deal", "deal": 1, "cards": ["2C", "3C", "AD", "2D"]},
        {"type": "discard", "cards": ["2C", "2D"], "piles": [1, 4]},  # at once, aces high
    ]
    assert [len(p) for p in game.piles] == [0, 1, 1, 0]


def test_moves_into_empty_piles_then_deal_are_offered() -> None:
    game = started(small())
    assert game.legal_moves() == [Move("move", (2, 1)), Move("move", (2, 4)),
                                  Move("move", (3, 1)), Move("move", (3, 4)),
                                  Move("deal"), Move("quit")]


def test_a_whole_game_worked_by_hand() -> None:
    game = started(small())
    game.play(Move("move", (3, 1)))  # A♦ into pile 1
    game.play(Move("deal"))          # A♣ 3♦ A♥ 2♥: the 2♥ goes (under A♥)
    game.play(Move("move", (2, 4)))  # 3♦ into pile 4 shows 3♣ under A♣: it goes
    game.play(Move("deal"))          # 3♥ A♠ 2♠ 3♠: 2♠ and 3♠ go, then 3♥ (under A♥)
    assert not game.needs_decision()  # no empty pile: the game ends by itself
    game.advance()
    assert game.events[2:] == [
        {"type": "move", "card": "AD", "from": 3, "to": 1},
        {"type": "deal", "deal": 2, "cards": ["AC", "3D", "AH", "2H"], "by": "player"},
        {"type": "discard", "cards": ["2H"], "piles": [4]},
        {"type": "move", "card": "3D", "from": 2, "to": 4},
        {"type": "discard", "cards": ["3C"], "piles": [2]},
        {"type": "deal", "deal": 3, "cards": ["3H", "AS", "2S", "3S"], "by": "player"},
        {"type": "discard", "cards": ["2S", "3S"], "piles": [3, 4]},
        {"type": "discard", "cards": ["3H"], "piles": [1]},
        {"type": "result", "won": False, "cards_left": 5, "score": 7},
    ]


def test_after_the_last_deal_end_is_the_players_no_more_moves() -> None:
    game = started(small())
    game.play(Move("deal"))
    game.play(Move("deal"))
    assert game.legal_moves()[-1] == Move("end") and Move("deal") not in game.legal_moves()
    game.play(Move("end"))
    assert game.events[-2:] == [{"type": "end"},
                                {"type": "result", "won": False, "cards_left": 6, "score": 6}]


def test_only_the_aces_left_is_a_win() -> None:
    game = started(small("2C 3C AC 2D AD 3D 2H AH 2S 3S AS 3H"))  # 2♣ 3♣ go (under A♣)
    game.play(Move("deal"))          # A♦ 3♦ 2♥ A♥: 3♦ and 2♥ go; 2♦ lies under A♥
    game.play(Move("move", (4, 2)))  # A♥ into the empty pile 2: 2♦ shows and goes
    game.play(Move("deal"))          # 2♠ 3♠ A♠ 3♥: 2♠ 3♠ go (A♠ shows), then 3♥ (A♥)
    game.play(Move("end"))           # pile 4 is empty, so the player says when to stop
    assert [e["cards"] for e in game.events if e["type"] == "discard"] == [
        ["2C", "3C"], ["3D", "2H"], ["2D"], ["2S", "3S"], ["3H"]]
    assert game.result() == {"won": True, "cards_left": 4, "score": 8}


def test_quit_ends_the_game_before_the_last_deal() -> None:
    game = started(small())
    game.play(Move("quit"))
    assert game.events[-2:] == [{"type": "quit"},
                                {"type": "result", "won": False, "cards_left": 10, "score": 2}]


# -- the aces_only option ----------------------------------------------------------------

def test_aces_only_offers_only_aces_for_empty_piles() -> None:
    game = started(small(), aces_only=True)
    assert game.legal_moves() == [Move("move", (3, 1)), Move("move", (3, 4)), Move("deal"),
                                  Move("quit")]
    before = snapshot(game)
    with pytest.raises(IllegalMove) as info:
        game.play(Move("move", (2, 1)))
    assert str(info.value) == "3♣ is not an ace: only an ace may fill an empty pile (--aces-only)"
    assert snapshot(game) == before


def test_aces_only_with_no_ace_to_move_deals_by_itself() -> None:
    deck = small("2C 3C 2D 3D AC AD AH AS 2H 3H 2S 3S")  # 2♣ and 2♦ go; no ace shows
    game = started(deck, aces_only=True)
    assert [len(p) for p in game.piles] == [0, 1, 0, 1]
    assert not game.needs_decision()
    game.advance()
    assert game.events[-1]["type"] == "deal" and "by" not in game.events[-1]


# -- illegal moves -------------------------------------------------------------------------

@pytest.mark.parametrize(("move", "reason"), [
    (Move("move", (1, 4)), "pile 1 is empty"),
    (Move("move", (2, 3)), "pile 3 is not empty (it shows A♦)"),
    (Move("move", (2, 2)), "pile 2 cannot move onto itself"),
    (Move("move", (2, 7)), "there is no pile 7 (the piles are 1 to 4)"),
    (Move("move", (2,)), "move names two piles, like 'move 1 3'"),
    (Move("end"), "'end' comes after the last deal; 8 cards are still in the stock "
                  "('deal' deals them)"),
    (Move("pair", (1, 2)), "unknown move 'pair 1 2' (moves: move I J, deal, end, quit)"),
])
def test_an_illegal_move_is_refused_with_its_reason_and_changes_nothing(
        move: Move, reason: str) -> None:
    game = started(small())
    before = snapshot(game)
    with pytest.raises(IllegalMove) as info:
        game.play(move)
    assert str(info.value) == reason
    assert snapshot(game) == before


# -- the greedy player, by hand ------------------------------------------------------------

def test_the_greedy_player_moves_an_ace_from_a_tall_pile_and_never_a_lone_card() -> None:
    record = play_record(AcesUp(small()), greedy_choice, "greedy")
    decisions = [e for e in record.events if e["type"] in ("move", "end")
                 or e.get("by") == "player"]
    # After deal 1 only lone cards could move: deal. After deal 2 (A♣ 3♦ A♥ 2♥, 2♥ goes)
    # pile 4 is empty; 3♦ (on 3♣, pile 2) is the only card on a tall pile... A♥ is on A♦.
    assert decisions[0] == {"type": "deal", "deal": 2, "cards": ["AC", "3D", "AH", "2H"],
                            "by": "player"}
    assert decisions[1] == {"type": "move", "card": "AH", "from": 3, "to": 4}
    assert record.result["score"] >= 6


# -- invariants ------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), aces_only=st.booleans(),
       ranks=st.sampled_from([None, A_TO_3, list(Rank)[:6]]))
def test_cards_are_conserved_and_no_two_tops_share_a_suit_after_every_step(
        seed: int, aces_only: bool, ranks: list[Rank] | None) -> None:
    deck = Deck.shuffled(seed, ranks=ranks) if ranks else Deck.shuffled(seed)
    game = AcesUp(deck, AcesUpOptions(aces_only=aces_only))
    rng = random.Random(seed)
    while not game.is_over():
        if game.needs_decision():
            move = rng.choice([m for m in game.legal_moves() if m.kind != "quit"])
            assert move in game.legal_moves()
            game.play(move)
        else:
            assert game.legal_moves() == []
            game.advance()
        assert sum(len(p) for p in game.piles) + len(game.stock) + game.discarded == len(deck)
        suits = [p.peek().suit for p in game.piles if p]
        assert len(suits) == len(set(suits))
    assert game.result()["score"] <= len(deck) - 4
    if ranks is None:
        record = play_record(AcesUp(deck, AcesUpOptions(aces_only=aces_only)), greedy_choice,
                             "greedy")
        assert replay(record.to_json()).result == record.result


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), aces_only=st.booleans(), greedy=st.booleans(),
       ranks=st.sampled_from([None, [Rank.ACE, Rank.TWO, Rank.THREE], list(Rank)[:6]]))
def test_every_card_is_accounted_for_after_every_event(
        seed: int, aces_only: bool, greedy: bool, ranks: list[Rank] | None) -> None:
    deck = Deck.shuffled(seed, ranks=ranks) if ranks else Deck.shuffled(seed)
    play_out(watched(AcesUp)(deck, AcesUpOptions(aces_only=aces_only)), seed, greedy)
