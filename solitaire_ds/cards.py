"""Playing cards: ranks, suits, cards, card codes and decks.

Vocabulary first, as in Norvig's poker notebook:

* a :class:`Rank` is a number from 1 (ace) to 13 (king);
* a :class:`Suit` is clubs, diamonds, hearts or spades, each with a colour;
* a :class:`Card` is a rank and a suit; there are exactly 52 of them, made once and
  shared, so cards compare and hash as fast as small integers;
* a card *code* is a rank letter (``A 2-9 T J Q K``, or ``10``) and a suit letter
  (``C D H S``), case-insensitive on input (``AS``, ``10h``, ``Td``); the code we write is
  two characters (``TH``) and the text we show uses suit symbols (``10♥``);
* a :class:`Deck` is a sequence of distinct cards, **first card = first card dealt**,
  written as codes separated by white space. A full deck has all 52; small decks with
  fewer ranks (for exhaustive tests) hold every suit of the chosen ranks.

Shuffling is the Fisher-Yates shuffle of :mod:`solitaire_ds.shuffle`, driven by
``random.Random(seed)``: the order a seed gives is part of the interface and the same on
every machine.
"""

from __future__ import annotations

import random
import re
from collections.abc import Container, Iterable, Iterator, Sequence
from enum import Enum, IntEnum
from typing import Any, overload

from solitaire_ds.shuffle import fisher_yates
from solitaire_ds.text import shown

__all__ = [
    "FULL_RANKS",
    "Card",
    "CardError",
    "Color",
    "Deck",
    "DeckError",
    "Rank",
    "Suit",
    "labels",
]

#: The most card codes a deck is read to: after the 53rd (one too many already, and named
#: as such), reading stops, so a 200 MB line is refused at once.
_MOST_CODES = 53


class CardError(ValueError):
    """A card code that cannot be read; the message names the token."""


class DeckError(ValueError):
    """A deck that cannot be read: a bad token, a duplicate or a wrong count."""


class Color(Enum):
    """The colour of a suit."""

    BLACK = "black"
    RED = "red"


class Rank(IntEnum):
    """A card's rank: ace = 1 up to king = 13.

    >>> Rank.ACE < Rank.KING, Rank.TEN.code, Rank.TEN.label
    (True, 'T', '10')
    """

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def code(self) -> str:
        """The one-letter code: ``A 2 … 9 T J Q K``."""
        return _RANK_CODES[self.value]

    @property
    def label(self) -> str:
        """The label people read: ``A 2 … 10 J Q K``."""
        return "10" if self is Rank.TEN else self.code


_RANK_CODES = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"} | {n: str(n) for n in range(2, 10)}
_RANK_BY_CODE = {code: Rank(n) for n, code in _RANK_CODES.items()} | {"10": Rank.TEN}


class Suit(Enum):
    """A card's suit, with its code letter, symbol and colour.

    >>> Suit.HEARTS.symbol, Suit.HEARTS.color.value, Suit.SPADES.code
    ('♥', 'red', 'S')
    """

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    # Each suit is one object, so it hashes by identity, as fast as a card: Enum's own
    # __hash__ is a Python call, and the games look a foundation up by suit at every step.
    __hash__ = object.__hash__

    @property
    def code(self) -> str:
        """The one-letter code: ``C D H S``."""
        return self.value

    @property
    def symbol(self) -> str:
        """The suit symbol: ``♣ ♦ ♥ ♠``."""
        return _SUIT_SYMBOLS[self]

    @property
    def color(self) -> Color:
        """Red for diamonds and hearts, black for clubs and spades."""
        return Color.RED if self in (Suit.DIAMONDS, Suit.HEARTS) else Color.BLACK


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_BY_CODE = {s.value: s for s in Suit} | {s.symbol: s for s in Suit}


class Card:
    """One of the 52 playing cards: immutable, hashable, made once and shared.

    ``Card(Rank.TEN, Suit.HEARTS)`` and ``Card.parse("10h")`` give the very same object.

    >>> card = Card.parse("10h")
    >>> card is Card(Rank.TEN, Suit.HEARTS), card.code, str(card), card.color.value
    (True, 'TH', '10♥', 'red')
    """

    __slots__ = ("code", "index", "rank", "suit")

    rank: Rank
    suit: Suit
    code: str
    index: int  # 0 … 51, in new-deck order (clubs A-K, diamonds, hearts, spades)

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        return _CARDS[(Rank(rank), suit)]

    @classmethod
    def _make(cls, rank: Rank, suit: Suit, index: int) -> Card:
        card = object.__new__(cls)
        for name, value in (("rank", rank), ("suit", suit), ("code", rank.code + suit.code),
                            ("index", index)):
            object.__setattr__(card, name, value)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cards are immutable: cannot set {name!r}")

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Card.parse, (self.code,))

    @classmethod
    def parse(cls, token: str) -> Card:
        """Return the card a code names: ``AS``, ``10h``, ``Td``, ``A♠`` (any case).

        Raise :class:`CardError` naming the token when it is not a card.

        >>> Card.parse("qs"), Card.parse("10♦")
        (Card.parse('QS'), Card.parse('TD'))
        >>> Card.parse("1S")
        Traceback (most recent call last):
        ...
        solitaire_ds.cards.CardError: '1S' is not a card: the rank must be one of A 2-9 T 10 J Q K
        """
        text = token.strip().upper()
        if len(text) < 2:
            raise CardError(f"{shown(token)} is not a card: a card is a rank and a suit, like AS or 10H")
        rank = _RANK_BY_CODE.get(text[:-1])
        suit = _SUIT_BY_CODE.get(text[-1])
        if rank is None:
            raise CardError(f"{shown(token)} is not a card: the rank must be one of A 2-9 T 10 J Q K")
        if suit is None:
            raise CardError(f"{shown(token)} is not a card: the suit must be one of C D H S")
        return _CARDS[(rank, suit)]

    @property
    def color(self) -> Color:
        """The card's colour (its suit's)."""
        return self.suit.color

    @property
    def label(self) -> str:
        """The card as people read it, with a suit symbol: ``10♥``."""
        return self.rank.label + self.suit.symbol

    @property
    def name(self) -> str:
        """The card in words, as a screen reader should say it: ``queen of hearts``.

        >>> Card.parse("QH").name, Card.parse("TC").name, Card.parse("AS").name
        ('queen of hearts', '10 of clubs', 'ace of spades')
        """
        rank = self.rank.name.lower() if self.rank in (Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING) \
            else self.rank.label
        return f"{rank} of {self.suit.name.lower()}"

    def __str__(self) -> str:
        return self.label

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


_CARDS: dict[tuple[Rank, Suit], Card] = {}
for _i, (_suit, _rank) in enumerate((s, r) for s in Suit for r in Rank):
    _CARDS[(_rank, _suit)] = Card._make(_rank, _suit, _i)

#: Every rank, ace to king: the ranks of a full deck.
FULL_RANKS: tuple[Rank, ...] = tuple(Rank)
#: The 52 cards in new-deck order (clubs ace to king, then diamonds, hearts, spades).
_NEW_DECK_ORDER: tuple[Card, ...] = tuple(_CARDS.values())


def _new_deck_order(ranks: Iterable[Rank]) -> list[Card]:
    """Return every suit of ``ranks`` in new-deck order, without building a :class:`Deck`.

    >>> [card.code for card in _new_deck_order([Rank.KING, Rank.ACE])]
    ['AC', 'KC', 'AD', 'KD', 'AH', 'KH', 'AS', 'KS']
    """
    wanted = {Rank(rank) for rank in ranks}
    return [card for card in _NEW_DECK_ORDER if card.rank in wanted]


def labels(codes: Iterable[str]) -> str:
    """Return card codes as the labels people read, separated by spaces.

    Runtime complexity: O(n) for n codes.

    >>> labels(["AS", "TH"])
    'A♠ 10♥'
    """
    return " ".join(Card.parse(code).label for code in codes)


class Deck(Sequence[Card]):
    """A sequence of distinct cards; the first card is the first one dealt.

    Making:
        ``Deck.standard()`` (new-deck order), ``Deck.shuffled(seed)``, ``Deck.parse(text)``.
    Looking:
        ``len(deck)``, ``deck[i]``, iteration, ``deck.ranks``.
    Writing:
        ``str(deck)`` gives the codes separated by spaces, which ``Deck.parse`` reads back.

    >>> deck = Deck.shuffled(7)
    >>> len(deck), Deck.parse(str(deck)) == deck
    (52, True)
    """

    __slots__ = ("_cards", "_ranks")

    def __init__(self, cards: Iterable[Card], ranks: Iterable[Rank] = FULL_RANKS) -> None:
        """Make a deck of ``cards`` holding every suit of ``ranks`` exactly once.

        Raise :class:`DeckError` for a duplicate or a missing card.
        """
        self._cards: tuple[Card, ...] = tuple(cards)
        self._ranks: tuple[Rank, ...] = tuple(sorted(set(ranks)))
        _check_complete(self._cards, self._ranks)

    # -- making decks -------------------------------------------------------------------

    @classmethod
    def standard(cls, ranks: Iterable[Rank] = FULL_RANKS) -> Deck:
        """Return the deck in new-deck order: clubs ace to king, then diamonds, hearts, spades.

        >>> str(Deck.standard([Rank.ACE, Rank.KING]))
        'AC KC AD KD AH KH AS KS'
        """
        chosen = sorted(set(ranks))
        return cls(_new_deck_order(chosen), chosen)

    @classmethod
    def shuffled(cls, seed: int | random.Random, ranks: Iterable[Rank] = FULL_RANKS) -> Deck:
        """Return the standard deck shuffled with ``random.Random(seed)``.

        The shuffle is :func:`~solitaire_ds.shuffle.fisher_yates`. The same seed gives the
        same deck on every machine (this order is pinned by a test).

        >>> str(Deck.shuffled(1)).split()[:5]
        ['JS', 'TC', 'QH', 'TD', '3C']
        """
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        cards = _new_deck_order(ranks)  # the standard deck's order, checked once below
        fisher_yates(cards, rng)
        return cls(cards, ranks)

    @classmethod
    def parse(cls, text: str, ranks: Iterable[Rank] = FULL_RANKS) -> Deck:
        """Read a deck written as card codes separated by white space, first card dealt first.

        Raise :class:`DeckError` naming the first bad token and its position (1-based),
        a duplicate card and both its positions, or every missing card: one by one when
        there are a few, by suit when many (``D 2-K`` is 2D to KD).

        >>> Deck.parse("AS 2S", ranks=[Rank.ACE, Rank.TWO])
        Traceback (most recent call last):
        ...
        solitaire_ds.cards.DeckError: the deck has 2 cards, not 8: missing 6 cards: AC 2C AD 2D AH 2H
        >>> Deck.parse("AS XX")
        Traceback (most recent call last):
        ...
        solitaire_ds.cards.DeckError: card 2 of the deck: 'XX' is not a card: the rank must be one of A 2-9 T 10 J Q K
        """
        cards = []
        for position, found in enumerate(re.finditer(r"\S+", text), start=1):
            if position > _MOST_CODES:
                raise DeckError(f"card {position} of the deck: {shown(found.group())} is past the 52 cards "
                                "of a deck; reading stops here")
            try:
                cards.append(Card.parse(found.group()))
            except CardError as exc:
                raise DeckError(f"card {position} of the deck: {exc}") from None
        return cls(cards, ranks)

    # -- looking ------------------------------------------------------------------------

    @property
    def ranks(self) -> tuple[Rank, ...]:
        """The ranks this deck holds (all thirteen for a full deck)."""
        return self._ranks

    def __len__(self) -> int:
        return len(self._cards)

    @overload
    def __getitem__(self, index: int) -> Card: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Card, ...]: ...
    def __getitem__(self, index: int | slice) -> Card | tuple[Card, ...]:
        return self._cards[index]

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deck) and self._cards == other._cards

    def __hash__(self) -> int:
        return hash(self._cards)

    def codes(self) -> list[str]:
        """Return the card codes in dealing order."""
        return [card.code for card in self._cards]

    def __str__(self) -> str:
        return " ".join(self.codes())

    def __repr__(self) -> str:
        return f"Deck.parse({str(self)!r})"


def _check_complete(cards: Sequence[Card], ranks: Sequence[Rank]) -> None:
    """Raise DeckError unless ``cards`` hold each suit of ``ranks`` exactly once."""
    expected = 4 * len(ranks)
    size = "" if len(cards) == expected else f" (the deck has {len(cards)} cards, not {expected})"
    first_seen: dict[Card, int] = {}
    for position, card in enumerate(cards, start=1):
        if card in first_seen:
            raise DeckError(
                f"card {card.label} ({card.code}) appears twice in the deck: "
                f"at positions {first_seen[card]} and {position}{size}"
            )
        if card.rank not in ranks:
            raise DeckError(
                f"card {position} of the deck: {card.code!r} is not in this deck "
                f"(ranks {' '.join(r.code for r in ranks)})"
            )
        first_seen[card] = position
    if len(cards) != expected:
        raise DeckError(f"the deck has {len(cards)} cards, not {expected}: "
                        f"missing {_missing(first_seen, ranks)}")


#: Up to this many missing cards are listed one by one; more are listed by suit.
_LIST_ONE_BY_ONE = 8


def _missing(present: Container[Card], ranks: Sequence[Rank]) -> str:
    """Name every card of ``ranks`` not in ``present``: one by one, or by suit when many.

    By suit, ``D 2-K`` stands for 2D 3D ... KD, every rank of the deck from 2 to K.

    >>> _missing({Card(Rank.ACE, Suit.SPADES)}, [Rank.ACE, Rank.TWO])
    '7 cards: AC 2C AD 2D AH 2H 2S'
    >>> _missing({Card(Rank.ACE, Suit.SPADES), Card(Rank.SIX, Suit.HEARTS)}, list(Rank))
    '50 cards (by suit): C A-K, D A-K, H A-5 7-K, S 2-K'
    """
    gone = [Card(rank, suit) for suit in Suit for rank in ranks if Card(rank, suit) not in present]
    count = f"{len(gone)} card{'s' if len(gone) != 1 else ''}"
    if len(gone) == 1:
        return gone[0].code
    if len(gone) <= _LIST_ONE_BY_ONE:
        return f"{count}: {' '.join(card.code for card in gone)}"
    by_suit = []
    for suit in Suit:
        runs = _runs([rank for rank in ranks if Card(rank, suit) not in present], ranks)
        if runs:
            by_suit.append(f"{suit.code} {' '.join(runs)}")
    return f"{count} (by suit): {', '.join(by_suit)}"


def _runs(chosen: Sequence[Rank], ranks: Sequence[Rank]) -> list[str]:
    """Write ``chosen`` (in the order of ``ranks``) as runs: ``['A-5', '7', '9-K']``.

    A run is three or more ranks next to each other in ``ranks``; shorter ones are listed.
    """
    place = {rank: index for index, rank in enumerate(ranks)}
    groups: list[list[Rank]] = []
    for rank in chosen:
        if groups and place[groups[-1][-1]] + 1 == place[rank]:
            groups[-1].append(rank)
        else:
            groups.append([rank])
    out: list[str] = []
    for group in groups:
        if len(group) >= 3:
            out.append(f"{group[0].code}-{group[-1].code}")
        else:
            out += [rank.code for rank in group]
    return out
