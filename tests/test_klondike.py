"""Klondike: hand-built deals checked event by event against records worked out by hand.

Each deal is built from a layout: the seven piles (bottom card first, the last one face
up) and the first stock cards in the order they are turned; the cards not named follow
at the end of the stock in new-deck order. The comments say why each event follows.
"""

from __future__ import annotations

from typing import Any

import pytest

from solitaire_ds.cards import Card, Deck, Rank, Suit
from solitaire_ds.games.klondike import MAX_STEPS, Klondike, KlondikeOptions, dollars
from solitaire_ds.records import play_record, render_text, replay

Event = dict[str, Any]


def layout(piles: list[str], stock: str = "") -> Deck:
    """Return the deck whose deal gives ``piles`` (bottom first) and whose stock starts ``stock``.

    Pile p (from 0) gets its card number r (from the bottom, from 0) in round r, so the
    deck lists, round by round, the r-th card of piles r … 6.
    """
    cards = [pile.split() for pile in piles]
    assert [len(pile) for pile in cards] == list(range(1, 8)), "piles hold 1 … 7 cards"
    order = [cards[p][r] for r in range(7) for p in range(r, 7)]
    order += stock.split()
    named = {Card.parse(code) for code in order}
    order += [card.code for card in Deck.standard() if card not in named]
    return Deck.parse(" ".join(order))


def events_of(deck: Deck, steps: int | None = None) -> list[Event]:
    """Play ``deck`` (all of it, or ``steps`` advances) and return the events after the deal."""
    game = Klondike(deck)
    if steps is None:
        game.run()
    else:
        for _ in range(steps):
            game.advance()
    assert game.events[0]["type"] == "deal"
    return game.events[1:]


def turn(card: str, reason: str, left: int) -> Event:
    return {"type": "turn", "card": card, "reason": reason, "stock_left": left}


def move(rule: int, cards: str, source: str, target: str) -> Event:
    return {"type": "move", "rule": rule, "cards": cards.split(), "from": source, "to": target}


def up(card: str, pile: int) -> Event:
    return {"type": "turn_up", "card": card, "pile": pile}


def result(to_foundation: int) -> Event:
    return {"type": "result", "won": to_foundation == 52, "to_foundation": to_foundation,
            "cards_left": 52 - to_foundation, "net": 5 * to_foundation - 52}


# -- the deal -----------------------------------------------------------------------------

def test_the_deal_gives_round_r_to_piles_r_to_7_with_the_first_card_face_up() -> None:
    game = Klondike(Deck.standard())  # AC 2C … KC AD … KD AH … KS
    assert game.events == [{"type": "deal", "stock": 24, "piles": [
        ["AC"],
        ["2C", "8C"],
        ["3C", "9C", "AD"],
        ["4C", "TC", "2D", "6D"],
        ["5C", "JC", "3D", "7D", "TD"],
        ["6C", "QC", "4D", "8D", "JD", "KD"],
        ["7C", "KC", "5D", "9D", "QD", "AH", "2H"],
    ]}]
    assert [len(pile) for pile in game.face_up] == [1] * 7
    assert [len(pile) for pile in game.face_down] == list(range(7))
    assert [card.code for card in game.stock][:2] == ["3H", "4H"]  # the deck's 29th card first
    assert len(game.stock) == 24 and not game.waste


def test_the_layout_helper_deals_back_the_piles_it_was_given() -> None:
    piles = ["KS", "QH JC", "2C 3D 4S", "5H 6C 7D 8S", "9H TC JD QS KH",
             "AC AD AH AS 2D 2H", "2S 3C 3H 3S 4C 4D 4H"]
    game = Klondike(layout(piles, "5C 5D"))
    assert game.events[0]["piles"] == [pile.split() for pile in piles]
    assert [card.code for card in game.stock][:2] == ["5C", "5D"]


def test_a_deck_that_is_not_full_is_refused() -> None:
    with pytest.raises(ValueError, match="Klondike needs all 52 cards, not a deck of 8"):
        Klondike(Deck.standard([Rank.ACE, Rank.TWO]))


# -- rule 1: piles left to right, then the waste; refill an empty waste ---------------------

def test_rule_1_plays_pile_tops_left_to_right_before_the_waste_and_refills_the_waste() -> None:
    # Black tops never build on one another; the red stock cards fit on none of them.
    deck = layout(["9C", "7C AH", "8C 8S 5C", "TC TS JC AS", "3C 3S 4C 4S 6C",
                   "QC QS KC KS 6S 7S", "9S 5S 2C QH JH TH JS"], "AD 9H KD")
    assert events_of(deck, steps=5) == [
        turn("AD", "start", 23),
        move(1, "AH", "pile 2", "foundation"),  # the leftmost pile top that plays
        up("7C", 2),
        move(1, "AS", "pile 4", "foundation"),  # then the next pile to the right
        up("JC", 4),
        move(1, "AD", "waste", "foundation"),  # the waste only when no pile top plays
        turn("9H", "waste empty", 22),  # the waste became empty: turn the next card
        turn("KD", "rule 4", 21),  # 9H goes nowhere (no black 10), nothing moves: rule 4
    ]


# -- rule 2: the waste's top onto the leftmost pile, before rule 3 ------------------------------

def test_rule_2_puts_the_waste_card_on_the_leftmost_pile_before_any_rule_3_move() -> None:
    deck = layout(["9C", "KC 9S", "QC QS 8D", "3C 5C 5S 4C", "6C 6S 8C 8S 4S",
                   "TC TS JC JS 2C 3S", "AC AD AH AS 2D 2H KS"], "8H 7S KD 5D")
    assert events_of(deck, steps=5) == [
        turn("8H", "start", 23),
        move(2, "8H", "waste", "pile 1"),  # 9♣ and 9♠ take it: pile 1 is leftmost; rule 3 waits
        turn("7S", "waste empty", 22),
        move(2, "7S", "waste", "pile 1"),  # onto 8♥; pile 3's 8♦ still waits for rule 3
        turn("KD", "waste empty", 21),  # K♦ goes nowhere: no pile is empty
        move(3, "8D", "pile 3", "pile 2"),  # the leftmost run that can move, onto 9♠
        up("QS", 3),
        # K♦ goes only to an empty pile; Q♠ could go onto K♦ only if K♦ lay on a pile,
        # not on the waste; the rest fit nowhere.
        turn("5D", "rule 4", 20),
    ]


# -- rule 3: the leftmost movable run, all of it, onto the leftmost pile that takes it --------

def test_rule_3_moves_the_whole_face_up_run_of_the_leftmost_movable_pile() -> None:
    deck = layout(["6D", "QC 7S", "3C 3S 7C", "4C 4S 5C 8H", "9C 9S TC TS JC",
                   "AC AD AH AS KC JS", "QS KS 2D 2H 3D 3H 6S"], "2C 5S")
    assert events_of(deck, steps=4) == [
        turn("2C", "start", 23),
        move(3, "6D", "pile 1", "pile 2"),  # 6♦ fits on 7♠ and 7♣: pile 2 is leftmost
        move(3, "7S 6D", "pile 2", "pile 4"),  # the whole run, placed by its bottom card 7♠
        up("QC", 2),  # a face-down card left on top is turned up
        turn("5S", "rule 4", 22),  # 7♣ (pile 3) would fit on 8♥, now covered: no move
    ]


def test_a_run_never_splits_to_reach_a_pile_that_takes_its_upper_cards() -> None:
    deck = layout(["7C", "QC 6D", "3C 3S 4C", "4S 5C 5S 8H", "9C 9S TC TS 7S",
                   "AC AD AH AS KC JS", "QS KS 2D 2H 3D 3H 6S"], "2C 9D")
    assert events_of(deck, steps=4) == [
        turn("2C", "start", 23),
        move(3, "7C", "pile 1", "pile 4"),  # 7♣ on 8♥
        move(3, "6D", "pile 2", "pile 4"),  # 6♦ on 7♣: pile 4 is left of pile 5's 7♠
        up("QC", 2),
        turn("9D", "rule 4", 22),  # 7♠ would take the 6♦ alone, but the run 8♥ 7♣ 6♦ stays whole
    ]


# -- kings and empty piles -------------------------------------------------------------------

def test_only_kings_fill_empty_piles_from_the_waste_and_from_a_pile() -> None:
    deck = layout(["AC", "AD AS", "3H 4H 8C", "3C 3S 4C KD", "5C 5S 6C 6S 7C",
                   "7S 9S TC TS JC JS", "AH 2C 2D 2S KC KS 2H"], "KH QS 9C 4S 5H")
    assert events_of(deck, steps=8) == [
        turn("KH", "start", 23),
        move(1, "AC", "pile 1", "foundation"),  # pile 1 is now empty
        move(1, "AS", "pile 2", "foundation"),
        up("AD", 2),
        move(1, "AD", "pile 2", "foundation"),  # pile 2 is now empty
        move(2, "KH", "waste", "pile 1"),  # a king from the waste fills the leftmost empty pile
        turn("QS", "waste empty", 22),
        move(2, "QS", "waste", "pile 1"),  # onto K♥
        turn("9C", "waste empty", 21),  # 9♣ cannot fill the empty pile 2: not a king
        move(3, "KD", "pile 4", "pile 2"),  # pile 3's 8♣ cannot either; pile 4's K♦ (on face-down
        up("4C", 4),                        # cards) fills it and uncovers 4♣
        turn("4S", "rule 4", 20),  # K♥ Q♠ and K♦ lie at the bottom of their piles: the guard
    ]


def test_the_guard_never_moves_a_king_that_lies_at_the_bottom_of_its_pile() -> None:
    # Pile 1 empties at once and pile 2 turns up K♣ with nothing under it: without the guard,
    # rule 3 would move K♣ to pile 1, then back to pile 2, forever.
    deck = layout(["AC", "KC AS", "QC QS 8C", "3C 3S 4C JD", "5C 5S 6C 6S 7C",
                   "7S 9S TC TS JC JS", "AH AD 2C 2D 2S KS 3D"], "4H 4D")
    events = events_of(deck)
    assert events[:5] == [
        turn("4H", "start", 23),
        move(1, "AC", "pile 1", "foundation"),
        move(1, "AS", "pile 2", "foundation"),
        up("KC", 2),
        turn("4D", "rule 4", 22),  # K♣ stays although pile 1 is empty
    ]
    assert not [e for e in events if e["type"] == "move" and e["cards"][0] == "KC"]
    assert events[-1]["type"] == "result"


class _Unguarded(Klondike):
    """The rule text alone: a king at the bottom of its pile may move to an empty pile."""

    def _guarded(self, pile: int) -> bool:
        return False


def test_without_the_guard_the_rule_text_alone_moves_a_king_back_and_forth_forever() -> None:
    deck = layout(["AC", "KC AS", "QC QS 8C", "3C 3S 4C JD", "5C 5S 6C 6S 7C",
                   "7S 9S TC TS JC JS", "AH AD 2C 2D 2S KS 3D"], "4H 4D")
    game = _Unguarded(deck)
    for _ in range(MAX_STEPS + 1):
        game.advance()
    assert not game.is_over()
    last = game.events[-2:]
    assert last in ([move(3, "KC", "pile 1", "pile 2"), move(3, "KC", "pile 2", "pile 1")],
                    [move(3, "KC", "pile 2", "pile 1"), move(3, "KC", "pile 1", "pile 2")])


# -- whole games -----------------------------------------------------------------------------

RANK_MAJOR = [f"{r}{s}" for r in "A23456789TJQK" for s in "CDHS"]  # AC AD AH AS 2C …


def test_a_won_game_worked_out_by_hand() -> None:
    # The stock holds A-6 in rank-major order (AC AD AH AS 2C …), so each waste card goes up at
    # once. The tableau holds 7-K: pile 1 the first card still needed, pile 2 the next two (top
    # first), and so on; so, once the stock is spent, the leftmost pile's top is always wanted.
    tableau = RANK_MAJOR[24:]  # 7C 7D … KS, in the order they will go up
    piles, start = [], 0
    for size in range(1, 8):
        piles.append(" ".join(reversed(tableau[start:start + size])))
        start += size
    stock = RANK_MAJOR[:24]
    deck = layout(piles, " ".join(stock))
    expected = [turn("AC", "start", 23)]
    for i, card in enumerate(stock[:21]):  # AC … 6C: from the waste, each refilled at once
        expected += [move(1, card, "waste", "foundation"), turn(stock[i + 1], "waste empty", 22 - i)]
    expected += [
        move(1, "7C", "pile 1", "foundation"),  # 6♣ is up: pile 1's 7♣ plays before the waste
        move(1, "6D", "waste", "foundation"), turn("6H", "waste empty", 1),
        move(1, "7D", "pile 2", "foundation"), up("7H", 2),
        move(1, "6H", "waste", "foundation"), turn("6S", "waste empty", 0),
        move(1, "7H", "pile 2", "foundation"),
        move(1, "8H", "pile 4", "foundation"),  # 8♥ is wanted now, and piles go before the waste
        up("8S", 4),
        move(1, "9H", "pile 5", "foundation"),  # and so is pile 5's 9♥
        up("9S", 5),
        move(1, "6S", "waste", "foundation"),  # the stock is spent: no refill
        move(1, "7S", "pile 3", "foundation"), up("8C", 3),
        move(1, "8C", "pile 3", "foundation"), up("8D", 3),
        move(1, "8D", "pile 3", "foundation"),
        move(1, "8S", "pile 4", "foundation"), up("9C", 4),
    ]
    # From here the leftmost pile's top is always the lowest card left in rank-major order.
    remaining = [(pile, card) for pile, cards in enumerate(piles, start=1)
                 for card in reversed(cards.split())
                 if RANK_MAJOR.index(card) > RANK_MAJOR.index("8S") and card != "9H"]
    for n, (pile, card) in enumerate(remaining):
        expected.append(move(1, card, f"pile {pile}", "foundation"))
        following = remaining[n + 1] if n + 1 < len(remaining) else None
        if following is not None and following[0] == pile:
            expected.append(up(following[1], pile))
    expected.append(result(52))
    game = Klondike(deck)
    game.run()
    assert game.events[1:] == expected
    assert game.result() == {"won": True, "to_foundation": 52, "cards_left": 0, "net": 208}
    assert all(len(f) == 13 for f in game.foundations.values())


def test_a_stuck_game_worked_out_by_hand() -> None:
    # Black tops 10 to king never build on one another; the aces and the red 9 to queen
    # (the only cards that would fit) lie face down, so nothing ever moves.
    deck = layout(["KC", "AC KS", "AD AH QC", "AS QD QH QS", "JD JH TD TH JC",
                   "9D 9H 2C 3C 4C JS", "5C 6C 7C 8C 9C 2S TC"])
    stock = [card.code for card in Deck(deck)[28:]]
    assert not {"QD", "QH", "JD", "JH", "TD", "TH", "9D", "9H"} & set(stock)
    expected = [turn(stock[0], "start", 23)]
    expected += [turn(card, "rule 4", 22 - i) for i, card in enumerate(stock[1:])]
    expected.append(result(0))
    assert events_of(deck) == expected


def test_the_new_deck_order_game_worked_out_by_hand() -> None:
    # Piles: A♣ | 8♣ | A♦ | 6♦ | 10♦ | K♦ | 2♥ (face up); stock 3♥ 4♥ … K♥ A♠ … K♠.
    hearts_and_spades = [f"{r}{s}" for s in "HS" for r in "A23456789TJQK"][2:]  # 3H … KS
    expected = [
        turn("3H", "start", 23),
        move(1, "AC", "pile 1", "foundation"),  # pile 1 is now empty
        move(1, "AD", "pile 3", "foundation"),
        up("9C", 3),
        move(3, "9C", "pile 3", "pile 5"),  # 9♣ on 10♦
        up("3C", 3),
        move(3, "KD", "pile 6", "pile 1"),  # pile 6's K♦ lies on face-down cards: it may fill pile 1
        up("JD", 6),
        move(3, "2H", "pile 7", "pile 3"),  # K♦ is now guarded; 2♥ goes on 3♣
        up("AH", 7),
        move(1, "AH", "pile 7", "foundation"),
        up("QD", 7),
        move(1, "2H", "pile 3", "foundation"),
    ]
    # Now the waste's 3♥ plays, and every card turned after it plays at once: hearts, then spades.
    for i, card in enumerate(hearts_and_spades):
        expected.append(move(1, card, "waste", "foundation"))
        if i + 1 < len(hearts_and_spades):
            expected.append(turn(hearts_and_spades[i + 1], "waste empty", 22 - i))
    # Left: K♦ | 8♣ | 3♣ | 6♦ | 10♦ 9♣ | J♦ | Q♦ face up; 2♣ and 2♦ face down: no move.
    expected.append(result(28))
    assert events_of(Deck.standard()) == expected


# -- the record ------------------------------------------------------------------------------

def test_events_describe_each_move_with_its_rule() -> None:
    game = Klondike(Deck.standard())
    assert game.describe(move(3, "7C 6H", "pile 2", "pile 5")) == "rule 3: 7♣ 6♥ from pile 2 onto pile 5"
    assert game.describe(move(2, "KH", "waste", "pile 1")) == "rule 2: K♥ from the waste into the empty pile 1"
    assert game.describe(move(1, "AS", "pile 4", "foundation")) == "rule 1: A♠ from pile 4 to the foundation"
    assert game.describe(turn("9H", "waste empty", 22)) == (
        "turn 9♥ from the stock onto the waste (the waste is empty); 22 left in the stock")
    assert game.describe(up("7C", 2)) == "turn up 7♣ on pile 2"
    assert game.describe(result(7)) == ("over: the stock is exhausted and no move is possible; "
                                        "45 cards left; paid $52, won $35 for 7 cards: net -$17")


def test_the_board_shows_face_down_cards_as_hashes() -> None:
    game = Klondike(Deck.standard())
    game.advance()
    assert game.board().splitlines() == [
        "stock: 23 cards",
        "waste: 3♥",
        "foundations: ♣ ·  ♦ ·  ♥ ·  ♠ ·",
        "pile 1: A♣",
        "pile 2: ## 8♣",
        "pile 3: ## ## A♦",
        "pile 4: ## ## ## 6♦",
        "pile 5: ## ## ## ## 10♦",
        "pile 6: ## ## ## ## ## K♦",
        "pile 7: ## ## ## ## ## ## 2♥",
    ]


def test_the_readable_record_shows_the_layout_the_moves_and_the_board_after_each_turn() -> None:
    text = render_text(play_record(Klondike(Deck.standard())))
    assert text.startswith("Klondike\nOptions: none\nDeck (first card dealt first): A♣ 2♣")
    assert "  deal 28 cards into 7 piles" in text
    assert "  rule 1: A♣ from pile 1 to the foundation\n" in text
    # The layout, one board per stock card turned, and the final board.
    assert text.count("    stock: ") == 1 + 24 + 1
    assert text.rstrip().endswith("Result: won = no, to_foundation = 28, cards_left = 24, net = 88")


def test_a_record_replays_and_a_tampered_one_is_rejected() -> None:
    record = play_record(Klondike(Deck.shuffled(11)))
    assert replay(record.to_json()).result == record.result
    data = record.to_json()
    number = next(i for i, e in enumerate(data["events"]) if e["type"] == "move")
    data["events"][number]["rule"] = 4
    with pytest.raises(ValueError, match=f"event {number + 1}: the record says"):
        replay(data)


def test_the_game_has_no_options_and_gives_the_result_keys() -> None:
    assert KlondikeOptions().to_json() == {}
    game = Klondike(Deck.shuffled(5))
    res = game.run()
    assert list(res) == ["won", "to_foundation", "cards_left", "net"]
    assert res["net"] == 5 * res["to_foundation"] - 52
    assert res["cards_left"] == 52 - sum(len(f) for f in game.foundations.values())
    with pytest.raises(ValueError, match="the game is over"):
        game.advance()


def test_dollars_carry_a_sign() -> None:
    assert [dollars(x) for x in (8, -17, 0, 1234)] == ["+$8", "-$17", "+$0", "+$1,234"]
    assert dollars(-19.284, 2) == "-$19.28"
    # Zero has a sign too, and an amount that rounds to zero is never "-$0.00".
    assert [dollars(x, 2) for x in (0, -0.004, 0.004)] == ["+$0.00", "+$0.00", "+$0.00"]


# -- every game ends ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(200))
def test_every_game_ends_within_the_bound_and_no_card_bottoms_two_rule_3_moves(seed: int) -> None:
    game = Klondike(Deck.shuffled(seed))
    steps = 0
    while not game.is_over():
        game.advance()
        steps += 1
        assert steps <= MAX_STEPS
    bottoms = [e["cards"][0] for e in game.events if e["type"] == "move" and e["rule"] == 3]
    assert len(bottoms) == len(set(bottoms)), "a card was the bottom of two rule-3 moves"
    assert sum(1 for e in game.events if e["type"] == "turn") <= 24
    for suit in Suit:
        pile = list(game.foundations[suit])
        assert [card.rank for card in reversed(pile)] == list(Rank)[:len(pile)]
