"""The Texas Hold'em file's hand evaluator, written in rules text, against a reference in Python.

games/texas-holdem.yaml values a hand directly (ranks grouped, a flush suit, a straight's top)
rather than by trying every five-card subset; here a plain Python evaluator tries all of them
(the best of 21 for seven cards) on seeded random hands, and the two must agree exactly: the
same category and the same tie-breaking ranks, so that every comparison at a showdown agrees.
About 0.6 s of CPU, most of it loading the game.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any

import pytest

import rulelang

from .helpers import GAMES

RANKS = "23456789TJQKA"


def five(cards: tuple[str, ...]) -> list[int]:
    """[category, tie-breaking ranks...] of exactly five cards (ranks 2..14)."""
    vs = sorted((RANKS.index(c[0]) + 2 for c in cards), reverse=True)
    flush = len({c[1] for c in cards}) == 1
    top = 0
    if len(set(vs)) == 5 and vs[0] - vs[4] == 4:
        top = vs[0]
    elif vs == [14, 5, 4, 3, 2]:
        top = 5
    groups = sorted(Counter(vs).items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    ranks = [v for v, _ in groups]
    if flush and top:
        return [8, top]
    if shape == [4, 1]:
        return [7, *ranks]
    if shape == [3, 2]:
        return [6, *ranks]
    if flush:
        return [5, *vs]
    if top:
        return [4, top]
    if shape == [3, 1, 1]:
        return [3, *ranks]
    if shape == [2, 2, 1]:
        return [2, *ranks]
    if shape == [2, 1, 1, 1]:
        return [1, *ranks]
    return [0, *vs]


def reference(cards: list[str]) -> list[int]:
    return max(five(s) for s in combinations(cards, 5))


@pytest.fixture(scope="module")
def holdem() -> Any:
    game = rulelang.load(str(GAMES / "texas-holdem.yaml"))
    return game, game.new_state(2, seed=0)


@pytest.mark.parametrize("n", [5, 6, 7])
def test_the_rules_evaluator_agrees_with_every_subset_tried(holdem: Any, n: int) -> None:
    game, state = holdem
    best5 = game.functions["best5"].fn
    ids = {name: i for i, name in enumerate(game.tables.name[:52])}
    rng = random.Random(n)
    deck = list(ids)
    for _ in range(400 if n == 7 else 150):
        cards = rng.sample(deck, n)
        assert list(best5(state, [ids[c] for c in cards])) == reference(cards), cards


def test_the_rare_hands(holdem: Any) -> None:
    """Hands random samples seldom hold: each category at its edges."""
    game, state = holdem
    best5 = game.functions["best5"].fn
    ids = {name: i for i, name in enumerate(game.tables.name[:52])}
    for hand in ["AS 2S 3S 4S 5S KD KC", "AS KS QS JS TS 9S 8S", "9H 9D 9C 9S 2H 2D KC",
                 "7S 7D 7C 2H 2S 2D QC", "7S 7D 7C 2H 2S QD QC", "AS 2D 3C 4H 5S 6D KC",
                 "AS KD QC JH TS 2D 3C", "2H 4H 6H 8H TH JH 3C", "AS AD KC KH 5S 5D QC",
                 "AS AD KC KH 5S 5D 4C", "KS KD 8C 8H 3S 3D 2C"]:
        cards = hand.split()
        assert list(best5(state, [ids[c] for c in cards])) == reference(cards), hand
