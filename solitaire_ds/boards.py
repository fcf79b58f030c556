"""Game boards as SVG pictures: every structure of a real game state, every card named.

A board is drawn from a live game object, never from a description of one: the four-pile
games (Perpetual Motion, Idiot's Delight, Aces Up) show their four pile Stacks, the stock
Queue and the discard count; Klondike shows the stock Queue, the waste Stack, the four
foundation Stacks, and each pile as a face-down Stack (blue backs) under a face-up Deque.

Reading a board: a pile is drawn bottom card first and fanned downwards, so the lowest
card drawn is the top of the Stack, the one in play. Cards named in ``highlight`` get an
orange outline (the cards a rule just moved).

For screen readers the picture is one image (``role="img"``) whose accessible name lists
every area and its cards in words ("pile 1 (Stack), bottom to top: 7 of spades, king of
hearts"), so nothing shown is left unsaid. The docs site draws its boards with this module,
and so can any page that runs the package (a board is a pure function of the game state).
"""

from __future__ import annotations

import html
from collections.abc import Collection, Iterable
from typing import Any

from solitaire_ds.cards import Card

__all__ = ["CARD_H", "CARD_W", "back_svg", "board_svg", "card_svg", "moved_cards", "spoken"]

#: A card's size on the board, in SVG units.
CARD_W, CARD_H = 56, 78

_FELT = "#2e7d32"
_INK = "#e8f5e9"  # labels on the felt: 6.2:1 against it
_MARK = "#ff9800"  # the outline of a highlighted card
_FAN = 24  # how far each face-up card in a pile sits below the one under it
_BACK_FAN = 12  # the same for face-down cards


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def spoken(cards: Iterable[Card]) -> str:
    """Return cards as words, comma-separated ("queen of hearts, 10 of clubs"), or "empty".

    Runtime complexity: O(n) for n cards.

    >>> spoken([Card.parse("QH"), Card.parse("TC")])
    'queen of hearts, 10 of clubs'
    >>> spoken([])
    'empty'
    """
    names = [card.name for card in cards]
    return ", ".join(names) if names else "empty"


def moved_cards(events: Iterable[dict[str, Any]], kinds: Collection[str] | None = None) -> list[Card]:
    """Return the cards a step's events name (dealt, discarded, moved, turned), each once, in order.

    These are the cards a board outlines after the step. With ``kinds``, only the events of
    those types count (a step that deals and then discards can outline the discards alone).

    Runtime complexity: O(number of cards the events name).

    >>> events = [{"type": "deal", "cards": ["AS", "2H"]}, {"type": "discard", "cards": ["2H"]}]
    >>> [card.label for card in moved_cards(events)], [card.label for card in moved_cards(events, {"discard"})]
    (['A♠', '2♥'], ['2♥'])
    """
    codes: list[str] = []
    for event in events:
        if kinds is None or event["type"] in kinds:
            codes += event.get("cards", [])
            codes += [event[key] for key in ("card", "discard") if isinstance(event.get(key), str)]
    return [Card.parse(code) for code in dict.fromkeys(codes)]


def card_svg(x: float, y: float, card: Card, *, marked: bool = False) -> str:
    """Return one face-up card at (x, y): its label in a corner, its suit in the middle.

    Runtime complexity: O(1).

    >>> card_svg(0, 0, Card.parse("TH")).count("<text")
    2
    """
    colour = "#c62828" if card.color.value == "red" else "#212121"
    stroke = f'stroke="{_MARK}" stroke-width="4"' if marked else 'stroke="#546e7a"'
    return (f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="6" fill="#fff" {stroke}/>'
            f'<text x="{x + 6}" y="{y + 18}" fill="{colour}" font-size="15" font-weight="bold">'
            f"{_esc(card.label)}</text>"
            f'<text x="{x + CARD_W / 2}" y="{y + 56}" fill="{colour}" font-size="26" text-anchor="middle">'
            f"{_esc(card.suit.symbol)}</text>")


def back_svg(x: float, y: float) -> str:
    """Return one face-down card at (x, y).

    Runtime complexity: O(1).

    >>> back_svg(0, 0).startswith("<rect")
    True
    """
    return f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="6" fill="#1565c0" stroke="#e3f2fd"/>'


def _slot(x: float, y: float) -> str:
    """An empty place for a card: a dashed outline."""
    return (f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="6" fill="none" '
            f'stroke="{_INK}" stroke-dasharray="4 3"/>')


def _cards(n: int) -> str:
    """A count of cards in words: "1 card", "23 cards"."""
    return f"{n} card" if n == 1 else f"{n} cards"


def _label(x: float, y: float, text: str, anchor: str = "start") -> str:
    return f'<text x="{x}" y="{y}" fill="{_INK}" font-size="13" text-anchor="{anchor}">{_esc(text)}</text>'


def _bottom_first(pile: Any) -> list[Card]:
    """A Stack's cards bottom first (iterating a Stack goes from the top)."""
    return list(pile)[::-1]


def _four_piles(state: Any, marks: Collection[Card]) -> tuple[list[str], list[str], float, float]:
    body: list[str] = []
    said: list[str] = []
    gap = 110
    bottom = 0.0
    for i, pile in enumerate(state.piles):
        x = 24 + i * gap
        body.append(_label(x, 26, f"pile {i + 1} (Stack)"))
        cards = _bottom_first(pile)
        if not cards:
            body.append(_slot(x, 38))
        for k, card in enumerate(cards):
            body.append(card_svg(x, 38 + k * _FAN, card, marked=card in marks))
        bottom = max(bottom, 38 + max(len(cards) - 1, 0) * _FAN + CARD_H)
        said.append(f"pile {i + 1} (Stack), bottom to top: {spoken(cards)}")
    sx = 24 + 4 * gap + 20
    body.append(_label(sx, 26, "stock (Queue)"))
    if len(state.stock):
        body.append(back_svg(sx, 38))
    else:
        body.append(_slot(sx, 38))
    body.append(_label(sx + CARD_W / 2, 38 + CARD_H + 18, _cards(len(state.stock)), "middle"))
    body.append(_label(sx, 38 + CARD_H + 40, f"discarded: {state.discarded}"))
    said.append(f"stock (Queue): {_cards(len(state.stock))}, face down")
    said.append(f"discarded: {_cards(state.discarded)}")
    return body, said, sx + CARD_W + 40, max(bottom, 38 + CARD_H + 46) + 20


def _klondike(state: Any, marks: Collection[Card]) -> tuple[list[str], list[str], float, float]:
    body: list[str] = []
    said: list[str] = []
    gap = 80
    # top row: stock, waste (its last three cards fanned to the right), the four foundations
    body.append(_label(24, 26, "stock (Queue)"))
    body.append(back_svg(24, 38) if len(state.stock) else _slot(24, 38))
    body.append(_label(24 + CARD_W / 2, 38 + CARD_H + 16, _cards(len(state.stock)), "middle"))
    said.append(f"stock (Queue): {_cards(len(state.stock))}, face down")
    waste = _bottom_first(state.waste)
    wx = 24 + gap + 16
    body.append(_label(wx, 26, "waste (Stack)"))
    body.append(_label(wx + CARD_W / 2, 38 + CARD_H + 16, _cards(len(waste)), "middle"))
    if not waste:
        body.append(_slot(wx, 38))
    for k, card in enumerate(waste[-3:]):
        body.append(card_svg(wx + k * 18, 38, card, marked=card in marks))
    said.append(f"waste (Stack), {_cards(len(waste))}, top card {waste[-1].name}" if waste else "waste (Stack): empty")
    fx = 24 + 3 * gap
    body.append(_label(fx, 26, "foundations (four Stacks)"))
    for k, (suit, pile) in enumerate(state.foundations.items()):
        x = fx + k * gap
        cards = _bottom_first(pile)
        if cards:
            body.append(card_svg(x, 38, cards[-1], marked=cards[-1] in marks))
            said.append(f"{suit.name.lower()} foundation (Stack): ace up to {cards[-1].name}")
        else:
            body.append(_slot(x, 38))
            body.append(f'<text x="{x + CARD_W / 2}" y="{38 + 50}" fill="{_INK}" font-size="24" '
                        f'text-anchor="middle">{_esc(suit.symbol)}</text>')
            said.append(f"{suit.name.lower()} foundation (Stack): empty")
    # the seven piles: face-down Stack (backs) under the face-up Deque (front = bottom card)
    top = 38 + CARD_H + 44
    bottom = top + CARD_H
    for i, (down, up) in enumerate(zip(state.face_down, state.face_up, strict=True)):
        x = 24 + i * gap
        body.append(_label(x, top - 10, f"pile {i + 1}"))
        y = top
        for _ in range(len(down)):
            body.append(back_svg(x, y))
            y += _BACK_FAN
        run = list(up)
        if not run and not len(down):
            body.append(_slot(x, y))
        for k, card in enumerate(run):
            body.append(card_svg(x, y + k * _FAN, card, marked=card in marks))
        bottom = max(bottom, y + max(len(run) - 1, 0) * _FAN + CARD_H)
        said.append(f"pile {i + 1}: {len(down)} face down (Stack), face up (Deque) bottom to top: {spoken(run)}")
    body.append(_label(24, bottom + 22, "Each pile: face-down cards (a Stack) under a face-up run (a Deque)."))
    return body, said, 24 + 7 * gap, bottom + 34


def board_svg(state: Any, *, title: str, highlight: Collection[Card] = ()) -> str:
    """Return the board of a game ``state`` as one SVG image, named in words for screen readers.

    ``state`` is a live game: a four-pile game (``piles``, ``stock``, ``discarded``) or
    Klondike (``stock``, ``waste``, ``foundations``, ``face_down``, ``face_up``). The cards in
    ``highlight`` get an orange outline. The picture carries ``data-search-exclude``, so a
    site's search shows the caption, not the cards.

    Runtime complexity: O(n) for the n cards on the table.

    >>> from solitaire_ds.cards import Deck
    >>> from solitaire_ds.games.aces_up import AcesUp
    >>> game = AcesUp(Deck.standard())
    >>> game.advance()
    >>> svg = board_svg(game, title="Aces Up, first deal")
    >>> 'role="img"' in svg, "pile 1 (Stack), bottom to top: ace of clubs" in svg
    (True, True)
    """
    marks = set(highlight)
    if hasattr(state, "face_up"):
        body, said, width, height = _klondike(state, marks)
    else:
        body, said, width, height = _four_piles(state, marks)
    if marks:
        said.append(f"outlined: {spoken(sorted(marks, key=lambda card: card.code))}")
    name = f"{title}. " + "; ".join(said) + "."
    return (f'<svg class="ds-diagram ds-board-svg" data-search-exclude xmlns="http://www.w3.org/2000/svg" '
            f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
            f'aria-label="{_esc(name)}" font-family="sans-serif" font-size="14">'
            f"<title>{_esc(title)}</title>"
            f'<rect x="0" y="0" width="{width:.0f}" height="{height:.0f}" rx="14" fill="{_FELT}"/>'
            + "".join(body) + "</svg>")
