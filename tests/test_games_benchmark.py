"""The games benchmark: its plain-list baseline plays the very same games, and it prints its figures."""

from __future__ import annotations

import re

import pytest

from benchmarks.games import LIST_TOOLKIT, ListDeque, ListQueue, ListStack, main
from solitaire_ds.cards import Deck
from solitaire_ds.games import GAMES, game_class
from solitaire_ds.players import make_player
from solitaire_ds.structures import ArrayDeque, ArrayQueue, ArrayStack, EmptyStructureError


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_plain_list_toolkit_plays_every_game_exactly_as_the_course_structures_do(
    name: str,
) -> None:
    cls = game_class(name)
    for seed in range(12):
        ours = cls(Deck.shuffled(seed))
        plain = cls(Deck.shuffled(seed), toolkit=LIST_TOOLKIT)
        choose = make_player("greedy", cls) if cls.has_decisions else None
        assert plain.run(choose) == ours.run(choose), f"{name}, Deck.shuffled({seed})"
        assert plain.events == ours.events, f"{name}, Deck.shuffled({seed})"


def test_the_plain_list_classes_keep_the_adt_orders_and_errors() -> None:
    for plain, ours in ((ListStack, ArrayStack), (ListQueue, ArrayQueue), (ListDeque, ArrayDeque)):
        assert list(plain([1, 2, 3])) == list(ours([1, 2, 3])), plain.__name__
        assert repr(plain([1, 2])) == repr(ours([1, 2])).replace(ours.__name__, plain.__name__)
    deque = ListDeque([2])
    deque.add_front(1)
    assert (deque.peek_front(), deque.peek_rear(), deque.remove_rear(), len(deque)) == (1, 2, 2, 1)
    with pytest.raises(EmptyStructureError, match="pop from an empty stack"):
        ListStack().pop()
    with pytest.raises(EmptyStructureError, match="dequeue from an empty queue"):
        ListQueue().dequeue()


def test_the_benchmark_prints_both_figures_each_beside_its_plain_list_ratio() -> None:
    lines: list[str] = []
    main(["--games", "60", "--deals", "4"], out=lines.append)
    text = "\n".join(lines)
    number = r"\d+\.\d+"
    assert re.search(rf"Perpetual Motion: {number} ms CPU per deal .* {number} ms on "
                     rf"list/collections.deque \({number}x\)  \(target 3 ms: (MET|MISSED)\)", text)
    assert re.search(rf"Klondike: {number} ms CPU per game .* \({number}x\)", text)
    assert re.search(rf"simulate klondike --games 60 --workers 2: {number} s wall \(target "
                     rf"0.015 s: (MET|MISSED)\), {number} s CPU \({number} s in the workers", text)
