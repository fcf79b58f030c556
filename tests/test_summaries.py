"""The simulate summaries: no interval for a single deal, and counts that add up."""

from __future__ import annotations

import re

import pytest

from solitaire_ds.cli import main


def _summary(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["simulate", *argv]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("game", ["perpetual-motion", "idiots-delight", "aces-up", "klondike"])
def test_one_deal_has_no_interval_for_its_mean(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = _summary(capsys, game, "--games", "1", "--seed", "3", "--show", "0") if game == "klondike" \
        else _summary(capsys, game, "--games", "1", "--seed", "3")
    assert "nan" not in out
    assert "(95% CI n/a)" in out


def test_aces_up_lists_every_score_and_the_counts_add_up(capsys: pytest.CaptureFixture[str]) -> None:
    out = _summary(capsys, "aces-up", "--games", "300", "--seed", "3")
    joined = " ".join(out.split())  # the histogram is wrapped at words to the terminal's width
    line = joined[joined.index("scores (score: deals):"):]
    counts = [int(c) for c in re.findall(r"\b\d+: (\d+)", line)]
    assert sum(counts) == 300
    assert line.endswith("(300 deals)")
